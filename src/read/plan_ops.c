/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_ops.c - the operations a read plan is built with (layer: read).
 *
 * An open is a sequence of them on the slice (pqt_plan_slice): restrict by the filter pass,
 * restrict by the sample, keep the row groups a top-n needs, then limit, permute or take for
 * a limit and a sort; pqt_table_filter_rows and pqt_table_keep are keep. Each one builds what
 * can fail beside the plan and changes the plan only once nothing can fail any more, so a
 * failed operation leaves the plan as it was (the table's "a failed call changes nothing").
 * Selections are row-group relative (util/sel.h); plan rows number the selected rows in row
 * group order; a permutation maps table rows to plan rows and comes last: a sorted plan is
 * not narrowed again (PQT_MISUSE), since its table rows would no longer be plan rows.
 */
#include <stdlib.h>
#include <string.h>

#include "read/plan.h"
#include "util/error.h"
#include "util/mem.h"

static pqt_status unsorted(const pqt_plan *p)
{
    if (p->perm) return pqt_err(PQT_MISUSE, "a sorted read plan cannot be refined in place");
    return PQT_OK;
}

void pqt_plan_sels_free(pqt_sel *sels, int nrg)
{
    if (!sels) return;
    for (int rg = 0; rg < nrg; rg++)
        pqt_sel_free(&sels[rg]);
    pqt_mem_free(sels);
}

pqt_status pqt_plan_sels_copy(const pqt_plan *p, pqt_sel **sels_ret)
{
    *sels_ret = NULL;
    pqt_sel *s = pqt_calloc((size_t)p->nrg + 1, sizeof *s);
    if (!s) return pqt_err(PQT_NOMEM, "out of memory planning rows");
    for (int rg = 0; rg < p->nrg; rg++) {
        pqt_status st = pqt_sel_copy(&s[rg], &p->sel[rg]);
        if (st != PQT_OK) {
            pqt_plan_sels_free(s, p->nrg);
            return st;
        }
    }
    *sels_ret = s;
    return PQT_OK;
}

pqt_status pqt_plan_restrict(pqt_plan *p, pqt_sel *sels)
{
    pqt_status st = unsorted(p);
    for (int rg = 0; st == PQT_OK && rg < p->nrg; rg++)
        if (sels[rg].nrows != p->sel[rg].nrows || sels[rg].nsel > p->sel[rg].nsel)
            st = pqt_err(PQT_MISUSE,
                         "row group %d: a selection of %lld of %lld rows cannot restrict one "
                         "of %lld of %lld rows",
                         rg, (long long)sels[rg].nsel, (long long)sels[rg].nrows,
                         (long long)p->sel[rg].nsel, (long long)p->sel[rg].nrows);
    if (st != PQT_OK) {
        pqt_plan_sels_free(sels, p->nrg);
        return st;
    }
    pqt_plan_sels_free(p->sel, p->nrg);
    p->sel = sels;
    pqt_plan_recount(p);
    return PQT_OK;
}

pqt_status pqt_plan_keep_groups(pqt_plan *p, const bool *keep_rg)
{
    PQT_TRY(unsorted(p));
    for (int rg = 0; rg < p->nrg; rg++)
        if (!keep_rg[rg]) pqt_sel_init_none(&p->sel[rg], p->sel[rg].nrows);
    pqt_plan_recount(p);
    return PQT_OK;
}

pqt_status pqt_plan_keep(pqt_plan *p, const uint8_t *keep)
{
    pqt_plan np;
    PQT_TRY(pqt_plan_refined(p, keep, &np));
    pqt_plan_replace(p, &np);
    return PQT_OK;
}

/* The end (exclusive, row-group relative) of the k-th selected row of s, 0 < k <= nsel. */
static int64_t end_of_kth(const pqt_sel *s, int64_t k)
{
    pqt_sel_cursor cur = {0};
    int64_t start = 0, len = 0;
    while (pqt_sel_next_run(s, &cur, 0, s->nrows, &start, &len)) {
        if (len >= k) return start + k;
        k -= len;
    }
    return s->nrows;
}

pqt_status pqt_plan_limit(pqt_plan *p, int64_t n)
{
    PQT_TRY(unsorted(p));
    if (n >= p->nsel) return PQT_OK;
    if (n < 0) n = 0;
    int cut = 0; /* the row group holding plan row n (n < nsel: one does) */
    while (cut < p->nrg && p->dst_row[cut] + p->sel[cut].nsel <= n)
        cut++;
    int64_t k = n - p->dst_row[cut]; /* rows of it kept, fewer than it selects */
    pqt_sel head;
    memset(&head, 0, sizeof head);
    if (k > 0) { /* the only step that can fail: done before the plan changes */
        pqt_status st = pqt_sel_copy(&head, &p->sel[cut]);
        if (st == PQT_OK) st = pqt_sel_intersect_range(&head, 0, end_of_kth(&p->sel[cut], k));
        if (st != PQT_OK) {
            pqt_sel_free(&head);
            return st;
        }
        pqt_sel_free(&p->sel[cut]);
        p->sel[cut] = head;
    } else {
        pqt_sel_init_none(&p->sel[cut], p->sel[cut].nrows);
    }
    for (int rg = cut + 1; rg < p->nrg; rg++)
        pqt_sel_init_none(&p->sel[rg], p->sel[rg].nrows);
    pqt_plan_recount(p);
    return PQT_OK;
}

pqt_status pqt_plan_permute(pqt_plan *p, int64_t *perm)
{
    pqt_status st = unsorted(p);
    int64_t *inv = st == PQT_OK ? pqt_malloc_array((size_t)p->nsel + 1, sizeof *inv) : NULL;
    if (st == PQT_OK && !inv)
        st = pqt_err(PQT_NOMEM, "out of memory ordering a read plan of %lld rows",
                     (long long)p->nsel);
    if (st != PQT_OK) {
        pqt_mem_free(perm);
        return st;
    }
    for (int64_t i = 0; i < p->nsel; i++)
        inv[perm[i]] = i;
    p->perm = perm;
    p->perm_inv = inv;
    return PQT_OK;
}

/* qsort order of (plan row, position) pairs by plan row (distinct). */
static int cmp_first(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

pqt_status pqt_plan_take(pqt_plan *p, int64_t *idx, int64_t k)
{
    if (k >= p->nsel) return pqt_plan_permute(p, idx);
    pqt_status st = unsorted(p);
    pqt_plan np;
    memset(&np, 0, sizeof np);
    uint8_t *keep = st == PQT_OK ? pqt_calloc((size_t)p->nsel + 1, 1) : NULL;
    /* a kept row's new number is its rank among the kept rows in plan order: sort (plan row,
     * position) pairs, O(k log k) in the kept rows, not O(rows) memory */
    int64_t *pr = st == PQT_OK ? pqt_malloc_array((size_t)k * 2 + 2, sizeof *pr) : NULL;
    if (st == PQT_OK && (!keep || !pr))
        st = pqt_err(PQT_NOMEM, "out of memory narrowing a read plan of %lld rows",
                     (long long)p->nsel);
    if (st == PQT_OK) {
        for (int64_t i = 0; i < k; i++)
            keep[idx[i]] = 1;
        st = pqt_plan_refined(p, keep, &np);
    }
    pqt_mem_free(keep);
    if (st == PQT_OK) {
        for (int64_t i = 0; i < k; i++) {
            pr[2 * i] = idx[i];
            pr[2 * i + 1] = i;
        }
        qsort(pr, (size_t)k, 2 * sizeof *pr, cmp_first);
    }
    pqt_plan rest = np; /* permute the narrowed plan beside p, so p changes last */
    if (st == PQT_OK) {
        int64_t *perm = idx;
        idx = NULL;
        for (int64_t r = 0; r < k; r++)
            perm[pr[2 * r + 1]] = r;
        st = pqt_plan_permute(&rest, perm);
    }
    pqt_mem_free(pr);
    pqt_mem_free(idx);
    if (st != PQT_OK) {
        pqt_plan_free(&rest);
        return st;
    }
    pqt_plan_replace(p, &rest);
    return PQT_OK;
}

void pqt_plan_replace(pqt_plan *p, pqt_plan *np)
{
    pqt_plan_free(p);
    *p = *np;
    memset(np, 0, sizeof *np);
}
