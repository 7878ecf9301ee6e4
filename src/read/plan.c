/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.c - the read plan: which rows of every row group a table holds and where they land
 * (layer: read).
 *
 * A plan is a selection per physical row group plus its destination row, and an optional
 * permutation. A slice makes one run per covering row group; a filter at open and
 * pqt_table_filter_rows narrow the selections; a read-time sort sets the permutation. Every
 * column read, the row index and the row-group bounds are computed from the plan, so a later
 * column sees exactly the rows and order the first one did.
 */
#include <string.h>

#include "read/plan.h"
#include "util/error.h"
#include "util/mem.h"

void pqt_plan_free(pqt_plan *p)
{
    if (p->sel)
        for (int rg = 0; rg < p->nrg; rg++) pqt_sel_free(&p->sel[rg]);
    pqt_mem_free(p->sel);
    pqt_mem_free(p->rg_start);
    pqt_mem_free(p->dst_row);
    pqt_mem_free(p->perm);
    pqt_mem_free(p->perm_inv);
    pqt_mem_free(p->ri_shift);
    memset(p, 0, sizeof *p);
}

static pqt_status plan_alloc(pqt_plan *p, int nrg)
{
    memset(p, 0, sizeof *p);
    p->nrg = nrg;
    p->rg_start = pqt_calloc((size_t)nrg + 1, sizeof *p->rg_start);
    p->sel = pqt_calloc((size_t)nrg + 1, sizeof *p->sel);
    p->dst_row = pqt_calloc((size_t)nrg + 1, sizeof *p->dst_row);
    if (!p->rg_start || !p->sel || !p->dst_row) {
        pqt_plan_free(p);
        return pqt_err(PQT_NOMEM, "out of memory planning rows");
    }
    return PQT_OK;
}

pqt_status pqt_plan_slice(pqt_plan *p, const pqt_file_meta *meta, int64_t lo, int64_t hi)
{
    int nrg = meta->n_row_groups;
    PQT_TRY(plan_alloc(p, nrg));
    p->lo = lo;
    p->hi = hi;
    for (int rg = 0; rg < nrg; rg++)
        p->rg_start[rg + 1] = p->rg_start[rg] + meta->row_groups[rg].num_rows;
    pqt_status st = pqt_plan_range_sels(meta, 0, nrg, lo, hi, p->sel, p->dst_row);
    if (st != PQT_OK) {
        pqt_plan_free(p);
        return st;
    }
    p->nsel = nrg > 0 ? p->dst_row[nrg - 1] + p->sel[nrg - 1].nsel : 0;
    return PQT_OK;
}

pqt_status pqt_plan_copy(pqt_plan *dst, const pqt_plan *src)
{
    PQT_TRY(plan_alloc(dst, src->nrg));
    dst->lo = src->lo;
    dst->hi = src->hi;
    dst->nsel = src->nsel;
    memcpy(dst->rg_start, src->rg_start, ((size_t)src->nrg + 1) * sizeof *src->rg_start);
    memcpy(dst->dst_row, src->dst_row, ((size_t)src->nrg + 1) * sizeof *src->dst_row);
    if (src->ri_shift && pqt_plan_set_ri_shift(dst, src->ri_shift) != PQT_OK) {
        pqt_plan_free(dst);
        return PQT_NOMEM;
    }
    for (int rg = 0; rg < src->nrg; rg++) {
        pqt_status st = pqt_sel_copy(&dst->sel[rg], &src->sel[rg]);
        if (st != PQT_OK) {
            pqt_plan_free(dst);
            return st;
        }
    }
    if (src->perm) {
        dst->perm = pqt_malloc_array((size_t)src->nsel + 1, sizeof *dst->perm);
        dst->perm_inv = pqt_malloc_array((size_t)src->nsel + 1, sizeof *dst->perm_inv);
        if (!dst->perm || !dst->perm_inv) {
            pqt_plan_free(dst);
            return pqt_err(PQT_NOMEM, "out of memory copying a read plan");
        }
        memcpy(dst->perm, src->perm, (size_t)src->nsel * sizeof *dst->perm);
        memcpy(dst->perm_inv, src->perm_inv, (size_t)src->nsel * sizeof *dst->perm_inv);
    }
    return PQT_OK;
}

void pqt_plan_recount(pqt_plan *p)
{
    int64_t dst = 0;
    for (int rg = 0; rg < p->nrg; rg++) {
        p->dst_row[rg] = dst;
        dst += p->sel[rg].nsel;
    }
    p->dst_row[p->nrg] = dst;
    p->nsel = dst;
}

pqt_status pqt_plan_refined(const pqt_plan *src, const uint8_t *keep, pqt_plan *dst)
{
    if (src->perm)
        return pqt_err(PQT_MISUSE, "a sorted read plan cannot be refined in place");
    PQT_TRY(pqt_plan_copy(dst, src));
    for (int rg = 0; rg < dst->nrg; rg++) {
        if (src->sel[rg].nsel == 0) continue;
        pqt_status st = pqt_sel_refine(&dst->sel[rg], keep + src->dst_row[rg]);
        if (st != PQT_OK) {
            pqt_plan_free(dst);
            return st;
        }
    }
    pqt_plan_recount(dst);
    return PQT_OK;
}

int64_t pqt_plan_extent(const pqt_plan *p)
{
    int64_t n = 0;
    for (int rg = 0; rg < p->nrg; rg++)
        if (p->sel[rg].nsel > 0) n += p->rg_start[rg + 1] - p->rg_start[rg];
    return n;
}

pqt_status pqt_plan_set_ri_shift(pqt_plan *p, const int64_t *shift)
{
    int64_t *s = pqt_malloc_array((size_t)p->nrg + 1, sizeof *s);
    if (!s) return pqt_err(PQT_NOMEM, "out of memory planning rows");
    memcpy(s, shift, (size_t)p->nrg * sizeof *s);
    pqt_mem_free(p->ri_shift);
    p->ri_shift = s;
    return PQT_OK;
}

pqt_status pqt_plan_file_rows(const pqt_plan *p, int64_t *out)
{
    for (int rg = 0; rg < p->nrg; rg++) {
        const pqt_sel *s = &p->sel[rg];
        if (s->nsel == 0) continue;
        int64_t k = p->dst_row[rg], start, len;
        pqt_sel_cursor cur = {0};
        while (pqt_sel_next_run(s, &cur, 0, s->nrows, &start, &len))
        {
            int64_t base = p->rg_start[rg] - (p->ri_shift ? p->ri_shift[rg] : 0) + start + 1;
            for (int64_t j = 0; j < len; j++) out[k++] = base + j;
        }
    }
    if (!p->perm) return PQT_OK;
    int64_t *tmp = pqt_malloc_array((size_t)p->nsel + 1, sizeof *tmp);
    if (!tmp) return pqt_err(PQT_NOMEM, "out of memory building the row index");
    for (int64_t i = 0; i < p->nsel; i++) tmp[i] = out[p->perm[i]];
    memcpy(out, tmp, (size_t)p->nsel * sizeof *out);
    pqt_mem_free(tmp);
    return PQT_OK;
}

