/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.h - the read plan (layer: read): per physical row group a selection of its rows and
 * where the first selected row lands, plus an optional permutation (a read-time sort). The
 * table holds one; readers, the row index and the bounds ask it, never the file.
 */
#ifndef PQT_READ_PLAN_H
#define PQT_READ_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "format/meta.h"
#include "pqt.h"
#include "util/sel.h"

typedef struct pqt_plan {
    int64_t lo, hi;     /* slice in file rows, 0-based half-open */
    int nrg;            /* physical row groups of the file */
    int64_t *rg_start;  /* nrg + 1 file-row starts */
    pqt_sel *sel;       /* nrg selections, row-group relative */
    int64_t *dst_row;   /* nrg: plan row where row group rg's first selected row lands */
    int64_t nsel;       /* rows the plan produces */
    int64_t *perm;      /* NULL, or nsel entries: table row i holds plan row perm[i] */
    int64_t *perm_inv;  /* with perm: plan row j lands at table row perm_inv[j] */
    /* NULL, or nrg: what the row index subtracts from rg_start (a dataset's row groups
     * number their rows within their own file: pqt_plan_set_ri_shift) */
    int64_t *ri_shift;
} pqt_plan;

/* Plan rows [lo, hi) (0-based file rows) of a file: one-run selections. */
pqt_status pqt_plan_slice(pqt_plan *p, const pqt_file_meta *meta, int64_t lo, int64_t hi);
pqt_status pqt_plan_copy(pqt_plan *dst, const pqt_plan *src);
void pqt_plan_free(pqt_plan *p);
/* Set dst_row and nsel from the selections (after they were narrowed). */
void pqt_plan_recount(pqt_plan *p);
/* *dst = src keeping only the plan rows i (0-based, plan order) with keep[i] != 0; src is
 * untouched, so a failure changes nothing. PQT_MISUSE for a permuted plan; PQT_NOMEM. The
 * keep operation (pqt_plan_keep) built beside the plan, for a caller that commits it with
 * other changes (pqt_plan_replace). */
pqt_status pqt_plan_refined(const pqt_plan *src, const uint8_t *keep, pqt_plan *dst);
/* The row index of row group rg's first row is rg_start[rg] - shift[rg] + 1 (nrg values,
 * copied). PQT_NOMEM. */
pqt_status pqt_plan_set_ri_shift(pqt_plan *p, const int64_t *shift);
/* Rows the covering row groups hold. */
int64_t pqt_plan_extent(const pqt_plan *p);
/* Fill out[0..nsel) with the 1-based file row of every table row. */
pqt_status pqt_plan_file_rows(const pqt_plan *p, int64_t *out);

/* plan_range.c, the one range -> selection routine. The row groups holding rows [lo, hi)
 * (0-based file rows): rg0 .. rg0 + *n_ret - 1 (*n_ret 0 for an empty range). */
void pqt_plan_range_groups(const pqt_file_meta *meta, int64_t lo, int64_t hi, int *rg0_ret,
                           int *n_ret);
/* sels[i] (row-group relative) selects the rows of [lo, hi) in row group rg0 + i, and
 * dst_row[i] is where they land (rows before counted from rg0), for i in [0, n). On failure
 * (PQT_NOMEM) the selections made so far are left for the caller to free. */
pqt_status pqt_plan_range_sels(const pqt_file_meta *meta, int rg0, int n, int64_t lo, int64_t hi,
                               pqt_sel *sels, int64_t *dst_row);

/* ---- plan_ops.c: the operations an open and a table call build the plan with ----
 * Each narrows or orders the plan in place and is failure-atomic: when it fails the plan is
 * as it was (PQT_NOMEM; PQT_MISUSE for an operation a sorted plan cannot take). An open reads
 * as slice, restrict (filter pass), restrict (sample), keep_groups (top-n pruning), then
 * limit, permute or take (sort); pqt_table_filter_rows/keep are keep. */

/* A working copy of the plan's selections for a step that narrows them in place (the filter
 * pass, the sample); free it with pqt_plan_sels_free unless pqt_plan_restrict takes it. */
pqt_status pqt_plan_sels_copy(const pqt_plan *p, pqt_sel **sels_ret);
void pqt_plan_sels_free(pqt_sel *sels, int nrg);
/* Replace the selections by sels (nrg, each a subset of the plan's own for its row group,
 * as a step given pqt_plan_sels_copy's copy makes them). Takes sels, also on failure. */
pqt_status pqt_plan_restrict(pqt_plan *p, pqt_sel *sels);
/* Keep only the row groups rg with keep_rg[rg] (their selections stay as they are). */
pqt_status pqt_plan_keep_groups(pqt_plan *p, const bool *keep_rg);
/* Keep only the plan rows i (plan order) with keep[i] != 0. */
pqt_status pqt_plan_keep(pqt_plan *p, const uint8_t *keep);
/* Keep only the first n plan rows (n >= nsel: nothing changes). */
pqt_status pqt_plan_limit(pqt_plan *p, int64_t n);
/* Order the plan: table row i holds plan row perm[i] (perm: nsel distinct plan rows,
 * allocated with pqt_malloc_array). Takes perm, also on failure. */
pqt_status pqt_plan_permute(pqt_plan *p, int64_t *perm);
/* Keep plan rows idx[0..k) (distinct) in that order: table row i holds what was plan row
 * idx[i] (a top-n). Takes idx (as pqt_plan_permute takes perm), also on failure. */
pqt_status pqt_plan_take(pqt_plan *p, int64_t *idx, int64_t k);
/* *p becomes *np (taken; np is left empty): the commit of a plan built beside it. */
void pqt_plan_replace(pqt_plan *p, pqt_plan *np);


#endif
