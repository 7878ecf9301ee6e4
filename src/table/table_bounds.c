/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_bounds.c - the read plan and pqt_table_row_group_bounds (layer: table).
 *
 * The plan says which rows of every physical row group the table holds and where they
 * land: a selection per row group plus its destination row, and an optional permutation.
 * Today a plan comes from a slice (one run per covering row group); filters and samples
 * will refine the selections and a read-time sort will set the permutation, and
 * everything that numbers rows (reads, the row index, the bounds below) already goes
 * through the plan, so they slot in without reshaping the table.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

void pqt_tbl_plan_free(pqt_tbl_plan *p)
{
    if (p->sel)
        for (int rg = 0; rg < p->nrg; rg++) pqt_sel_free(&p->sel[rg]);
    pqt_mem_free(p->sel);
    pqt_mem_free(p->rg_start);
    pqt_mem_free(p->dst_row);
    pqt_mem_free(p->perm);
    memset(p, 0, sizeof *p);
}

static pqt_status plan_alloc(pqt_tbl_plan *p, int nrg)
{
    memset(p, 0, sizeof *p);
    p->nrg = nrg;
    p->rg_start = pqt_calloc((size_t)nrg + 1, sizeof *p->rg_start);
    p->sel = pqt_calloc((size_t)nrg + 1, sizeof *p->sel);
    p->dst_row = pqt_calloc((size_t)nrg + 1, sizeof *p->dst_row);
    if (!p->rg_start || !p->sel || !p->dst_row) {
        pqt_tbl_plan_free(p);
        return pqt_err(PQT_NOMEM, "out of memory planning rows");
    }
    return PQT_OK;
}

pqt_status pqt_tbl_plan_slice(pqt_tbl_plan *p, const pqt_file *f, int64_t lo, int64_t hi)
{
    int nrg = f->meta.n_row_groups;
    PQT_TRY(plan_alloc(p, nrg));
    p->lo = lo;
    p->hi = hi;
    int64_t dst = 0;
    for (int rg = 0; rg < nrg; rg++) {
        int64_t start = p->rg_start[rg], rows = f->meta.row_groups[rg].num_rows;
        p->rg_start[rg + 1] = start + rows;
        pqt_status st = pqt_sel_init_range(&p->sel[rg], rows, lo - start, hi - start);
        if (st != PQT_OK) {
            pqt_tbl_plan_free(p);
            return st;
        }
        p->dst_row[rg] = dst;
        dst += p->sel[rg].nsel;
    }
    p->nsel = dst;
    return PQT_OK;
}

pqt_status pqt_tbl_plan_copy(pqt_tbl_plan *dst, const pqt_tbl_plan *src)
{
    PQT_TRY(plan_alloc(dst, src->nrg));
    dst->lo = src->lo;
    dst->hi = src->hi;
    dst->nsel = src->nsel;
    memcpy(dst->rg_start, src->rg_start, ((size_t)src->nrg + 1) * sizeof *src->rg_start);
    memcpy(dst->dst_row, src->dst_row, ((size_t)src->nrg + 1) * sizeof *src->dst_row);
    for (int rg = 0; rg < src->nrg; rg++) {
        pqt_status st = pqt_sel_copy(&dst->sel[rg], &src->sel[rg]);
        if (st != PQT_OK) {
            pqt_tbl_plan_free(dst);
            return st;
        }
    }
    if (src->perm) {
        dst->perm = pqt_malloc_array((size_t)src->nsel + 1, sizeof *dst->perm);
        if (!dst->perm) {
            pqt_tbl_plan_free(dst);
            return pqt_err(PQT_NOMEM, "out of memory copying a read plan");
        }
        memcpy(dst->perm, src->perm, (size_t)src->nsel * sizeof *dst->perm);
    }
    return PQT_OK;
}

void pqt_tbl_plan_recount(pqt_tbl_plan *p)
{
    int64_t dst = 0;
    for (int rg = 0; rg < p->nrg; rg++) {
        p->dst_row[rg] = dst;
        dst += p->sel[rg].nsel;
    }
    p->dst_row[p->nrg] = dst;
    p->nsel = dst;
}

pqt_status pqt_tbl_plan_refined(const pqt_tbl_plan *src, const uint8_t *keep, pqt_tbl_plan *dst)
{
    if (src->perm)
        return pqt_err(PQT_MISUSE, "a sorted read plan cannot be refined in place");
    PQT_TRY(pqt_tbl_plan_copy(dst, src));
    for (int rg = 0; rg < dst->nrg; rg++) {
        if (src->sel[rg].nsel == 0) continue;
        pqt_status st = pqt_sel_refine(&dst->sel[rg], keep + src->dst_row[rg]);
        if (st != PQT_OK) {
            pqt_tbl_plan_free(dst);
            return st;
        }
    }
    pqt_tbl_plan_recount(dst);
    return PQT_OK;
}

int64_t pqt_tbl_plan_extent(const pqt_tbl_plan *p)
{
    int64_t n = 0;
    for (int rg = 0; rg < p->nrg; rg++)
        if (p->sel[rg].nsel > 0) n += p->rg_start[rg + 1] - p->rg_start[rg];
    return n;
}

pqt_status pqt_table_row_group_bounds(const pqt_table *t, int physical, int64_t **bounds_ret,
                                      int *n_ret)
{
    if (!t || !bounds_ret || !n_ret)
        return pqt_err(PQT_MISUSE, "pqt_table_row_group_bounds: NULL argument");
    if (!t->f)
        return pqt_err(PQT_MISUSE, "pqt_table_row_group_bounds: the table is in memory: it was "
                                   "never read from a file, so it has no row groups");
    if (t->detached)
        return pqt_err(PQT_DETACHED, "pqt_table_row_group_bounds: the table read from %s has "
                                     "detached from it (%s changed its rows): its rows no "
                                     "longer come from any row group",
                       t->f->path, t->detached_by ? t->detached_by : "a row change");
    const pqt_tbl_plan *p = &t->plan;
    if (!physical && p->perm)
        return pqt_err(PQT_MISUSE, "pqt_table_row_group_bounds: the table read from %s is "
                                   "sorted: a row group's rows are spread over the table, so "
                                   "only the physical form answers",
                       t->f->path);
    int64_t *b = pqt_malloc_array((size_t)p->nrg * 2 + 1, sizeof *b);
    if (!b) return pqt_err(PQT_NOMEM, "out of memory for %d row-group bounds", p->nrg);
    for (int rg = 0; rg < p->nrg; rg++) {
        if (physical) {
            b[2 * rg] = p->rg_start[rg] + 1;
            b[2 * rg + 1] = p->rg_start[rg + 1];
        } else {
            /* rows of this table, 1-based: an empty group gives lo = next row, hi = lo - 1 */
            b[2 * rg] = p->dst_row[rg] + 1;
            b[2 * rg + 1] = p->dst_row[rg] + p->sel[rg].nsel;
        }
    }
    *bounds_ret = b;
    *n_ret = p->nrg;
    return PQT_OK;
}
