/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.h - the read plan (layer: read): per physical row group a selection of its rows and
 * where the first selected row lands, plus an optional permutation (a read-time sort). The
 * table holds one; readers, the row index and the bounds ask it, never the file.
 */
#ifndef PQT_READ_PLAN_H
#define PQT_READ_PLAN_H

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
} pqt_plan;

/* Plan rows [lo, hi) (0-based file rows) of a file: one-run selections. */
pqt_status pqt_plan_slice(pqt_plan *p, const pqt_file_meta *meta, int64_t lo, int64_t hi);
pqt_status pqt_plan_copy(pqt_plan *dst, const pqt_plan *src);
void pqt_plan_free(pqt_plan *p);
/* Set dst_row and nsel from the selections (after they were narrowed). */
void pqt_plan_recount(pqt_plan *p);
/* *dst = src keeping only the plan rows i (0-based, plan order) with keep[i] != 0; src is
 * untouched, so a failure changes nothing. PQT_MISUSE for a permuted plan; PQT_NOMEM. */
pqt_status pqt_plan_refined(const pqt_plan *src, const uint8_t *keep, pqt_plan *dst);
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

#endif
