/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_project.c - the part of a filter that names only some columns (layer: scan).
 *
 * A dataset prunes its files by their partition values before it knows the files' own
 * columns (docs/datasets.md): only the top-level conjuncts that name partition columns
 * alone can be proved then. A conjunct is kept whole or not at all, so the projection is
 * implied by the filter: every row the filter keeps, the projection keeps.
 */
#include <stdlib.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_int.h"
#include "util/error.h"
#include "util/mem.h"

static bool named(const char *name, const char *const *names, int n)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(name, names[i]) == 0) return true;
    return false;
}

static bool expr_only(const pexpr *x, const char *const *names, int n)
{
    if (!x) return true;
    if (x->op == XO_COL) return named(x->name, names, n);
    for (int32_t k = 0; k < x->nargs; k++)
        if (!expr_only(x->args[k], names, n)) return false;
    return true;
}

/* Every column node n reads is among names (a callback sees rows: never). */
static bool node_only(const fnode *n, const char *const *names, int nn)
{
    switch (n->type) {
    case FN_CLAUSE:
        return named(n->col, names, nn);
    case FN_CALLBACK:
        return false;
    case FN_PRED:
        return expr_only(n->xl, names, nn) && expr_only(n->xr, names, nn);
    default:
        for (int32_t k = 0; k < n->nkids; k++)
            if (!node_only(n->kids[k], names, nn)) return false;
        return true;
    }
}

/* Detach from the tree at *slot every top-level conjunct that names only names, appending
 * it to keep (room for every node); the rest stays to be freed with the tree. */
static void take_conjuncts(fnode **slot, const char *const *names, int nn, fnode **keep, int *nkeep)
{
    fnode *n = *slot;
    if (n->type == FN_AND) {
        for (int32_t k = 0; k < n->nkids; k++)
            take_conjuncts(&n->kids[k], names, nn, keep, nkeep);
        return;
    }
    if (!node_only(n, names, nn)) return;
    keep[(*nkeep)++] = n;
    *slot = NULL;
}

static int count_nodes(const fnode *n)
{
    int c = 1;
    for (int32_t k = 0; k < n->nkids; k++)
        c += n->kids[k] ? count_nodes(n->kids[k]) : 0;
    return c;
}

pqt_status pqt_scan_filter_project(const pqt_filter *f, const char *const *names, int n,
                                   pqt_filter **ret)
{
    *ret = NULL;
    pqt_filter *d = NULL;
    PQT_TRY(pqt_scan_filter_copy(f, &d));
    for (int i = 0; i < d->nrules; i++) {
        frule *r = &d->rules[i];
        int cap = r->root ? count_nodes(r->root) : 0, nkeep = 0;
        fnode **keep = pqt_malloc_array((size_t)cap + 1, sizeof *keep);
        if (!keep) {
            pqt_filter_free(d);
            return pqt_err(PQT_NOMEM, "out of memory projecting a filter");
        }
        if (r->root) take_conjuncts(&r->root, names, n, keep, &nkeep);
        pqt_scan_node_free(r->root); /* what was not taken (NULL when all was) */
        r->root = NULL;
        if (nkeep == 1) {
            r->root = keep[0];
            pqt_mem_free(keep);
        } else if (nkeep > 1) {
            fnode *and = pqt_calloc(1, sizeof *and);
            if (!and) {
                for (int k = 0; k < nkeep; k++)
                    pqt_scan_node_free(keep[k]);
                pqt_mem_free(keep);
                pqt_filter_free(d);
                return pqt_err(PQT_NOMEM, "out of memory projecting a filter");
            }
            and->type = FN_AND;
            and->hi = r->nbytes;
            and->nkids = nkeep;
            and->kids = keep;
            r->root = and;
        } else {
            pqt_mem_free(keep);
        }
    }
    int w = 0; /* rules left with no conjunct go */
    for (int i = 0; i < d->nrules; i++) {
        if (d->rules[i].root) {
            d->rules[w++] = d->rules[i];
        } else {
            pqt_mem_free(d->rules[i].text);
        }
    }
    d->nrules = w;
    *ret = d;
    return PQT_OK;
}

/* ---- cone conjuncts, for HEALPix pruning ---- */

/* A literal number, or minus one. */
static bool lit_number(const pexpr *x, double *v)
{
    if (x->op == XO_NEG && x->nargs == 1 && lit_number(x->args[0], v)) {
        *v = -*v;
        return true;
    }
    if (x->op != XO_LIT || x->lit.cls != FLIT_NUM) return false;
    *v = x->lit.d;
    return true;
}

/* n is cone(ra, dec, a, b, r) with literal a, b, r, as a predicate of its own (or == true). */
static bool cone_of(const fnode *n, const char *ra, const char *dec, pqt_scan_cone *c)
{
    if (n->type != FN_PRED || !n->xl || n->xl->op != XO_CALL || n->xl->fn != FF_CONE ||
        n->xl->nargs != 5)
        return false;
    bool truth = !n->xr ? n->op == FOP_TRUE
                        : n->op == FOP_EQ && n->xr->op == XO_LIT && n->xr->lit.cls == FLIT_BOOL &&
                              n->xr->lit.i == 1;
    pexpr *const *a = n->xl->args;
    return truth && a[0]->op == XO_COL && a[1]->op == XO_COL && named(a[0]->name, &ra, 1) &&
           named(a[1]->name, &dec, 1) && lit_number(a[2], &c->ra0) && lit_number(a[3], &c->dec0) &&
           lit_number(a[4], &c->radius);
}

static void find_cones(const fnode *n, const char *ra, const char *dec, pqt_scan_cone *out, int max,
                       int *k)
{
    if (n->type == FN_AND) {
        for (int32_t i = 0; i < n->nkids; i++)
            find_cones(n->kids[i], ra, dec, out, max, k);
        return;
    }
    pqt_scan_cone c;
    if (cone_of(n, ra, dec, &c)) {
        if (*k < max) out[*k] = c;
        (*k)++;
    }
}

int pqt_scan_filter_cones(const pqt_filter *f, const char *ra, const char *dec, pqt_scan_cone *out,
                          int max)
{
    int k = 0;
    for (int i = 0; f && ra && dec && i < f->nrules; i++)
        if (f->rules[i].root) find_cones(f->rules[i].root, ra, dec, out, max, &k);
    return k;
}

void pqt_scan_value_stats(const char *value, bool is_int, pqt_scan_stats *out)
{
    memset(out, 0, sizeof *out);
    out->nan_count = 0;
    out->null_count = value ? 0 : 1;
    if (!value) return;
    out->flags = PQT_SST_MIN | PQT_SST_MAX | PQT_SST_MIN_EXACT | PQT_SST_MAX_EXACT;
    if (is_int) {
        out->min.i = out->max.i = strtoll(value, NULL, 10);
    } else {
        out->min.s = out->max.s = value;
        out->min.len = out->max.len = (int64_t)strlen(value);
    }
}
