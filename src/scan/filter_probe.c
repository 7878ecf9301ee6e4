/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_probe.c - the values a membership conjunct can be true for (layer: scan).
 *
 * A bloom filter can only refute values, so a conjunct is probed when it is true for a
 * finite set of values of one column: `==`, `in` (a list or a bound set), an OR of those, or
 * an AND holding one of them.
 * Each value is handed to the caller's probe in the column's domain; negated leaves, ranges
 * and string matches are not membership tests.
 */
#include "scan/filter_int.h"

/* The probe sees a uint64 value as its bits (as the file stores it), not as the compiled
 * domain holds it. */
static int64_t probe_int(const fleaf *l, int64_t i)
{
    return l->kind == PQT_UINT64 ? (int64_t)pqt_scan_u64_out(i) : i;
}

static bool probe_value(const fleaf *l, int64_t i, double d, pqt_scan_probe_fn fn, void *user)
{
    pqt_scan_probe_val v = {.kind = l->kind, .i = probe_int(l, i), .d = d, .f = (float)d};
    return fn(user, &v);
}

/* 1: some value may be present (fn said so); 0: none; -1: not a membership leaf */
static int probe_leaf(const fleaf *l, pqt_scan_probe_fn fn, void *user)
{
    if (l->negate || (l->op != FOP_EQ && l->op != FOP_IN)) return -1;
    bool is_str = l->kind == PQT_STRING;
    if (l->op == FOP_EQ) {
        pqt_scan_probe_val v = {.kind = l->kind, .i = probe_int(l, l->i), .d = l->d, .f = l->f,
                                .s = l->s, .slen = l->slen};
        return fn(user, &v) ? 1 : 0;
    }
    const cset *s = l->set;
    for (int64_t m = 0; m < s->n; m++) {
        bool hit;
        if (is_str) {
            pqt_scan_probe_val v = {.kind = l->kind, .s = s->sbytes + s->soff[m],
                                    .slen = s->soff[m + 1] - s->soff[m]};
            hit = fn(user, &v);
        } else if (s->sorted_d) {
            hit = probe_value(l, 0, s->sorted_d[m], fn, user);
        } else {
            hit = probe_value(l, s->sorted_i[m], (double)s->sorted_i[m], fn, user);
        }
        if (hit) return 1;
    }
    return 0;
}

static bool is_member_leaf(const fexpr *e)
{
    return e->type == FX_LEAF && !e->leaf.negate &&
           (e->leaf.op == FOP_EQ || e->leaf.op == FOP_IN);
}

/* A leaf, an OR of leaves, or an AND, which is true only where its first membership test is
 * (the values it asks for are a subset of that test's). */
static int probe_expr(const fexpr *e, pqt_scan_probe_fn fn, void *user)
{
    if (e->type == FX_LEAF) return probe_leaf(&e->leaf, fn, user);
    if (e->type == FX_AND) {
        for (int c = 0; c < e->nkids; c++) {
            const fexpr *k = e->kids[c];
            if (is_member_leaf(k) || k->type == FX_OR) {
                int r = probe_expr(k, fn, user);
                if (r >= 0) return r;
            }
        }
        return -1;
    }
    if (e->type != FX_OR) return -1;
    for (int c = 0; c < e->nkids; c++) /* every branch must be a membership leaf */
        if (!is_member_leaf(e->kids[c])) return -1;
    for (int c = 0; c < e->nkids; c++)
        if (probe_leaf(&e->kids[c]->leaf, fn, user) == 1) return 1;
    return 0;
}

int pqt_scan_conj_probe(const pqt_fprog *p, int k, pqt_scan_probe_fn fn, void *user)
{
    if (k < 0 || k >= p->nconj || p->conj[k].ncols != 1) return -1;
    return probe_expr(p->conj[k].root, fn, user);
}
