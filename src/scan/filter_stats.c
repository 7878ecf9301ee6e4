/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_stats.c - what column-chunk statistics prove about a compiled filter (layer: scan).
 *
 * Parquet Statistics (min_value/max_value, null_count; nan_count in newer writers) checked
 * with the rules of docs/pruning.md, "Trusting statistics": a NaN bound is ignored and NaN rows are
 * assumed unless nan_count says otherwise; bounds of a +-0 are taken as both zeros (IEEE
 * comparison, as the evaluator does); a null_count above the row count is unknown; bounds
 * compared in a signed order are believed for strings and unsigned values only when
 * min == max; uint64 bounds are compared unsigned (held as pqt_scan_u64_in of the value);
 * bounds with no usable order, or with min > max, are dropped. Truncated string bounds stay
 * valid bounds; only exact ones may prove that every value equals a literal.
 *
 * The proof is abstract interpretation over truth values: every row of a chunk is null, NaN
 * or a value in [min, max]; each clause gets the set of truth values (TRUE, FALSE, UNKNOWN)
 * its rows can take, and and/or combine the sets as Kleene logic would (an over-
 * approximation: it forgets which rows go together). NONE: TRUE impossible; ALL: only TRUE.
 */
#include <math.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "util/mem.h"

enum { TV_T = 1, TV_F = 2, TV_U = 4 };

typedef struct cinfo {
    int null_pos, nan_pos, value_pos;
    int has_lo, has_hi, exact;
    pqt_scan_bound lo, hi;
} cinfo;

static int is_float(int k) { return k == PQT_FLOAT32 || k == PQT_FLOAT64; }

static int bound_cmp(int kind, const pqt_scan_bound *a, const pqt_scan_bound *b)
{
    if (kind == PQT_STRING) return pqt_scan_strcmp(a->s, a->len, b->s, b->len);
    if (is_float(kind)) return (a->d > b->d) - (a->d < b->d);
    return (a->i > b->i) - (a->i < b->i);
}

static void prepare(int kind, const pqt_scan_stats *st, int64_t nrows, cinfo *ci)
{
    memset(ci, 0, sizeof *ci);
    int fl = is_float(kind);
    if (!st) {
        ci->null_pos = ci->value_pos = 1;
        ci->nan_pos = fl;
        return;
    }
    int64_t nc = st->null_count;
    int known = nc >= 0 && nc <= nrows;
    int64_t nn = known ? nrows - nc : nrows;
    int nonnull = known ? nc < nrows : 1;
    int nan_known = fl && st->nan_count >= 0 && st->nan_count <= nn;
    ci->null_pos = known ? nc > 0 : 1;
    ci->nan_pos = fl && nonnull && (!nan_known || st->nan_count > 0);
    ci->value_pos = nonnull && !(nan_known && known && st->nan_count == nn);
    unsigned f = st->flags;
    if (f & PQT_SST_NO_ORDER) return;
    ci->has_lo = (f & PQT_SST_MIN) != 0;
    ci->has_hi = (f & PQT_SST_MAX) != 0;
    ci->lo = st->min;
    ci->hi = st->max;
    if (kind == PQT_UINT64) { /* the bits of uint64 bounds (PQT_SST_UNSIGNED), in unsigned order */
        ci->lo.i = pqt_scan_u64_in((uint64_t)ci->lo.i);
        ci->hi.i = pqt_scan_u64_in((uint64_t)ci->hi.i);
    }
    ci->exact = kind != PQT_STRING || ((f & PQT_SST_MIN_EXACT) && (f & PQT_SST_MAX_EXACT));
    if (kind == PQT_STRING && ((ci->has_lo && !ci->lo.s && ci->lo.len) ||
                               (ci->has_hi && !ci->hi.s && ci->hi.len)))
        ci->has_lo = ci->has_hi = 0;
    if (fl) {
        if (ci->has_lo && isnan(ci->lo.d)) ci->has_lo = 0;
        if (ci->has_hi && isnan(ci->hi.d)) ci->has_hi = 0;
        if (ci->has_lo && ci->lo.d == 0) ci->lo.d = -0.0; /* +0 may hide -0 */
        if (ci->has_hi && ci->hi.d == 0) ci->hi.d = 0.0;
    }
    int both = ci->has_lo && ci->has_hi;
    int odd_order = kind == PQT_STRING || kind == PQT_UINT64 || (f & PQT_SST_UNSIGNED);
    if ((f & PQT_SST_SIGNED_ORDER) && odd_order) {
        /* a wrong order still gets min == max right: every value is that one */
        if (!(both && bound_cmp(kind, &ci->lo, &ci->hi) == 0)) ci->has_lo = ci->has_hi = 0;
    } else if ((f & PQT_SST_UNSIGNED) && kind != PQT_UINT64) {
        /* signed values bounded in unsigned order: right only on one side of 0 */
        if (!(both && (ci->lo.i < 0) == (ci->hi.i < 0))) ci->has_lo = ci->has_hi = 0;
    }
    if (ci->has_lo && ci->has_hi && bound_cmp(kind, &ci->lo, &ci->hi) > 0)
        ci->has_lo = ci->has_hi = 0; /* a lie: believe neither */
}

/* sign(b - the clause's literal) */
static int cmp_lit(const fleaf *lf, const pqt_scan_bound *b)
{
    if (lf->kind == PQT_STRING) return pqt_scan_strcmp(b->s, b->len, lf->s, lf->slen);
    if (is_float(lf->kind)) return (b->d > lf->d) - (b->d < lf->d);
    return (b->i > lf->i) - (b->i < lf->i);
}

static int starts(const pqt_scan_bound *b, const char *p, int64_t plen)
{
    return b->len >= plen && (plen == 0 || memcmp(b->s, p, (size_t)plen) == 0);
}

/* Members of a sorted set inside [lo, hi] (absent sides unbounded): first index and count. */
static int64_t members_in(const fleaf *lf, const cinfo *ci)
{
    const cset *s = lf->set;
    int64_t a = 0, b = s->n; /* [a, b) */
    int k = lf->kind;
    for (int side = 0; side < 2; side++) {
        int has = side == 0 ? ci->has_lo : ci->has_hi;
        if (!has) continue;
        const pqt_scan_bound *bd = side == 0 ? &ci->lo : &ci->hi;
        int64_t l = 0, h = s->n; /* first member > bound (side 1) or >= bound (side 0) */
        while (l < h) {
            int64_t m = l + (h - l) / 2;
            int c;
            if (k == PQT_STRING)
                c = pqt_scan_strcmp(s->sbytes + s->soff[m], s->soff[m + 1] - s->soff[m], bd->s,
                                    bd->len);
            else if (is_float(k))
                c = (s->sorted_d[m] > bd->d) - (s->sorted_d[m] < bd->d);
            else
                c = (s->sorted_i[m] > bd->i) - (s->sorted_i[m] < bd->i);
            if (side == 0 ? c < 0 : c <= 0) l = m + 1;
            else h = m;
        }
        if (side == 0) a = l;
        else b = l;
    }
    return b > a ? b - a : 0;
}

/* LIKE / ILIKE of no simpler shape: TRUE needs the literal prefix every match starts with (as
 * starts_with does); FALSE is always possible. */
static int like_truths(const fleaf *lf, const cinfo *ci)
{
    const char *p = lf->s;
    int64_t pl = lf->plen;
    int t = 1;
    if (ci->has_hi && pqt_scan_strcmp(ci->hi.s, ci->hi.len, p, pl) < 0) t = 0;
    if (ci->has_lo && pqt_scan_strcmp(ci->lo.s, ci->lo.len, p, pl) > 0 && !starts(&ci->lo, p, pl))
        t = 0;
    return (t ? TV_T : 0) | TV_F;
}

/* Truth values a non-null, non-NaN value inside the bounds can give (before negation). */
static int value_truths(const fleaf *lf, const cinfo *ci)
{
    int lo = ci->has_lo, hi = ci->has_hi, r = 0;
    int cl = lo ? cmp_lit(lf, &ci->lo) : 0, ch = hi ? cmp_lit(lf, &ci->hi) : 0;
    switch (lf->op) {
    case FOP_IS_NULL:
    case FOP_IS_NAN:
    case FOP_FALSE:
        return TV_F;
    case FOP_TRUE:
        return TV_T;
    case FOP_IS_FINITE:
        if ((!lo || ci->lo.d < INFINITY) && (!hi || ci->hi.d > -INFINITY)) r |= TV_T;
        if (!lo || ci->lo.d == -INFINITY || !hi || ci->hi.d == INFINITY) r |= TV_F;
        break;
    case FOP_GT:
        r = (!hi || ch > 0 ? TV_T : 0) | (!lo || cl <= 0 ? TV_F : 0);
        break;
    case FOP_GE:
        r = (!hi || ch >= 0 ? TV_T : 0) | (!lo || cl < 0 ? TV_F : 0);
        break;
    case FOP_LT:
        r = (!lo || cl < 0 ? TV_T : 0) | (!hi || ch >= 0 ? TV_F : 0);
        break;
    case FOP_LE:
        r = (!lo || cl <= 0 ? TV_T : 0) | (!hi || ch > 0 ? TV_F : 0);
        break;
    case FOP_EQ:
        if ((!lo || cl <= 0) && (!hi || ch >= 0)) r |= TV_T;
        if (!(lo && hi && ci->exact && cl == 0 && ch == 0)) r |= TV_F;
        break;
    case FOP_IN: {
        int64_t cnt = members_in(lf, ci);
        if (cnt > 0) r |= TV_T;
        int all = 0;
        if (lo && hi && ci->exact && cnt > 0) {
            if (lf->kind == PQT_STRING || is_float(lf->kind))
                all = bound_cmp(lf->kind, &ci->lo, &ci->hi) == 0; /* one value, a member */
            else
                all = (uint64_t)ci->hi.i - (uint64_t)ci->lo.i + 1 == (uint64_t)cnt;
        }
        if (!all) r |= TV_F;
        break;
    }
    case FOP_STARTS_WITH:
        if ((!hi || ch >= 0) && (!lo || cl < 0 || starts(&ci->lo, lf->s, lf->slen))) r |= TV_T;
        if (!(lo && hi && starts(&ci->lo, lf->s, lf->slen) && starts(&ci->hi, lf->s, lf->slen)))
            r |= TV_F;
        break;
    case FOP_LIKE:
    case FOP_ILIKE:
        return like_truths(lf, ci);
    default: /* ends_with, contains: the bounds say nothing */
        r = lf->slen == 0 ? TV_T : TV_T | TV_F;
        break;
    }
    return r ? r : TV_T | TV_F; /* contradictory bounds prove nothing */
}

static int leaf_truths(const fleaf *lf, const cinfo *ci)
{
    int r = 0, op = lf->op;
    if (ci->null_pos) r |= op == FOP_IS_NULL ? TV_T : TV_U;
    if (ci->nan_pos)
        r |= op == FOP_IS_NAN || op == FOP_TRUE ? TV_T : TV_F; /* IEEE: NaN compares false */
    if (ci->value_pos) r |= value_truths(lf, ci);
    if (lf->negate) r = (r & TV_U) | (r & TV_T ? TV_F : 0) | (r & TV_F ? TV_T : 0);
    return r;
}

static int and3(int a, int b)
{
    int r = 0;
    if ((a & TV_T) && (b & TV_T)) r |= TV_T;
    if ((a & TV_F) || (b & TV_F)) r |= TV_F;
    if (((a & TV_U) && (b & (TV_U | TV_T))) || ((a & TV_T) && (b & TV_U))) r |= TV_U;
    return r;
}

static int or3(int a, int b)
{
    int r = 0;
    if ((a & TV_T) || (b & TV_T)) r |= TV_T;
    if ((a & TV_F) && (b & TV_F)) r |= TV_F;
    if (((a & TV_U) && (b & (TV_U | TV_F))) || ((a & TV_F) && (b & TV_U))) r |= TV_U;
    return r;
}

/* A computed predicate's verdict as the truth values its rows can take. */
static int cmp_truths(const fcmp *c, const pqt_scan_stats *stats, int64_t nrows)
{
    pqt_tri v = pqt_scan_cmp_prove(c, stats, nrows);
    return v == PQT_TRI_ALL ? TV_T : v == PQT_TRI_NONE ? TV_F | TV_U : TV_T | TV_F | TV_U;
}

static int expr_truths(const fexpr *e, const cinfo *ci, const pqt_scan_stats *stats,
                       int64_t nrows)
{
    if (e->type == FX_LEAF) return leaf_truths(&e->leaf, &ci[e->leaf.slot]);
    if (e->type == FX_CALLBACK) return TV_T | TV_F; /* statistics say nothing of C code */
    if (e->type == FX_CMP) return cmp_truths(e->cmp, stats, nrows);
    int r = expr_truths(e->kids[0], ci, stats, nrows);
    for (int32_t k = 1; k < e->nkids; k++)
        r = e->type == FX_AND ? and3(r, expr_truths(e->kids[k], ci, stats, nrows))
                              : or3(r, expr_truths(e->kids[k], ci, stats, nrows));
    return r;
}

static pqt_tri verdict(int r)
{
    if (!(r & TV_T)) return PQT_TRI_NONE;
    return r == TV_T ? PQT_TRI_ALL : PQT_TRI_SOME;
}

static pqt_tri prove(const pqt_fprog *p, int k0, int k1, const pqt_scan_stats *stats,
                     int64_t nrows)
{
    if (nrows <= 0) return PQT_TRI_NONE;
    cinfo stack[16], *ci = stack;
    if (p->ncols > 16) {
        /* the prover never fails: with no memory for its notes it proves nothing */
        ci = pqt_malloc_array((size_t)p->ncols, sizeof *ci);
        if (!ci) return PQT_TRI_SOME;
    }
    for (int s = 0; s < p->ncols; s++) prepare(p->kinds[s], stats ? &stats[s] : NULL, nrows, &ci[s]);
    pqt_tri v = PQT_TRI_ALL;
    for (int k = k0; k < k1 && v != PQT_TRI_NONE; k++) {
        pqt_tri c = verdict(expr_truths(p->conj[k].root, ci, stats, nrows));
        if (c < v) v = c;
    }
    if (ci != stack) pqt_mem_free(ci);
    return v;
}

pqt_tri pqt_scan_conj_prove(const pqt_fprog *p, int k, const pqt_scan_stats *stats,
                            int64_t nrows)
{
    if (k < 0 || k >= p->nconj) return PQT_TRI_SOME;
    return prove(p, k, k + 1, stats, nrows);
}

pqt_tri pqt_scan_prog_prove(const pqt_fprog *p, const pqt_scan_stats *stats, int64_t nrows)
{
    return prove(p, 0, p->nconj, stats, nrows);
}
