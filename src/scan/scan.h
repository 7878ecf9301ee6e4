/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan.h - the filter pass of the read engine: which rows of each row group survive a
 * compiled filter (layer: scan). Seed 002's loop, per row group:
 *
 *   1. statistics (pqt_scan_chunk_stats, the prover in filter_stats.c) prove a conjunct
 *      NONE (skip the row group: nothing of it is read) or ALL (drop the conjunct there);
 *   2. the conjuncts left are evaluated one at a time, cheapest first, each decoding only
 *      its columns and only for the rows still selected, refining the selection;
 *   3. what remains is the selection every other column is later read through, so payload
 *      columns decode survivors only (the chunk reader skips pages without one).
 *
 * Filter columns are decoded one row group at a time and dropped after evaluation: memory is
 * one row group of filter columns per thread, not the file.
 */
#ifndef PQT_SCAN_SCAN_H
#define PQT_SCAN_SCAN_H

#include <stdint.h>

#include "column/column.h"
#include "format/meta.h"
#include "format/schema.h"
#include "scan/filter.h"
#include "util/sel.h"

/* The statistics of column c's chunk in row group rg, flagged by how far they can be trusted
 * (pushdown.md §3). Never fails: what cannot be used is left out. */
void pqt_scan_chunk_stats(const pqt_file_meta *meta, const pqt_col *c, int rg,
                          pqt_scan_stats *out);

/* What the pass decided for one row group. */
enum {
    PQT_RG_UNCOVERED = 0, /* outside the slice: nothing to decide */
    PQT_RG_PRUNED = 1,    /* statistics proved no row passes (conjunct by_conj) */
    PQT_RG_ALL = 2,       /* statistics proved every row passes: no filter column decoded */
    PQT_RG_FILTERED = 3   /* filter columns decoded: rows_out of rows_in kept */
};
#define PQT_RG_ORDER_MAX 8
typedef struct pqt_rg_verdict {
    int what;
    int by_conj;     /* PRUNED: the conjunct statistics refuted */
    int nconj_read;  /* FILTERED: conjuncts evaluated on decoded values */
    int64_t rows_in, rows_out;
    int order[PQT_RG_ORDER_MAX]; /* FILTERED: the first conjuncts evaluated, in order */
} pqt_rg_verdict;

typedef struct pqt_scan_pass {
    const pqt_chunk_src *src;
    const pqt_fprog *prog;
    const pqt_col *const *slot_col; /* per program slot: its file column; NULL = row index */
    const int64_t *rg_start;        /* nrg + 1 file-row starts (0-based) */
    int nrg;
    int threads;
    pqt_read_counters *counters; /* per slot: what decoding it cost (NULL: not counted) */
} pqt_scan_pass;

/* The conjuncts of p by cost, the order the first row groups are evaluated in (order_ret:
 * nconj entries); later row groups re-rank by what the earlier ones measured. */
void pqt_scan_conj_order(const pqt_fprog *p, int *order_ret);

/* Refine sels[0..nrg) (row-group relative; the slice) to the rows passing the program;
 * verdicts[rg] says how each was decided. Row groups run in parallel when threads > 1. On
 * failure sels are partly refined (the caller works on a copy) and the message names the
 * column and row group. */
pqt_status pqt_scan_filter(const pqt_scan_pass *pass, pqt_sel *sels, pqt_rg_verdict *verdicts);

#endif
