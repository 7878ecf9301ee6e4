/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sel.h - the row selection: which rows of one row group a read produces (layer: util).
 *
 * One type serves slices, page pruning, filters and samples (ARCHITECTURE.md, "The
 * selection is the heart"). Row numbers are row-group relative, 0-based, half-open.
 * Representations: ALL, NONE, RUNS (sorted, disjoint, non-adjacent {start,len}) and
 * BITS (64-bit words plus a summary byte per 2048-row block: 0 none, 1 all, 2 mixed).
 * Every mutating call normalizes: an empty selection becomes NONE, a full one ALL, and
 * BITS/RUNS switch by whichever is smaller. The model it is tested against is a plain
 * bool array (tests/unit/test_sel.c).
 */
#ifndef PQT_UTIL_SEL_H
#define PQT_UTIL_SEL_H

#include <stdbool.h>
#include <stdint.h>

#include "pqt.h"

typedef enum { PQT_SEL_ALL = 0, PQT_SEL_NONE = 1, PQT_SEL_RUNS = 2, PQT_SEL_BITS = 3 } pqt_sel_kind;

typedef struct pqt_run {
    int64_t start, len;
} pqt_run;

typedef struct pqt_sel {
    pqt_sel_kind kind;
    int64_t nrows; /* rows of the row group */
    int64_t nsel;  /* selected rows */
    pqt_run *runs;
    int64_t nruns, runs_cap;
    uint64_t *words;  /* BITS: ceil(nrows/64) words */
    uint8_t *summary; /* BITS: ceil(nrows/2048) bytes */
} pqt_sel;

#define PQT_SEL_BLOCK_ROWS 2048

/* All of init_* reset sel (keeping its buffers). sel must be zeroed before first use. */
void pqt_sel_init_all(pqt_sel *sel, int64_t nrows);
void pqt_sel_init_none(pqt_sel *sel, int64_t nrows);
/* Select [lo, hi) (clipped to [0, nrows)). */
pqt_status pqt_sel_init_range(pqt_sel *sel, int64_t nrows, int64_t lo, int64_t hi);
/* Select rows whose byte in keep[0..nrows) is non-zero. */
pqt_status pqt_sel_init_bools(pqt_sel *sel, int64_t nrows, const uint8_t *keep);
/* Select rows whose bit in bits is set: LSB first, row i is bit i % 8 of bits[i / 8];
 * bits beyond nrows in the last byte are ignored. */
pqt_status pqt_sel_init_bitmap(pqt_sel *sel, int64_t nrows, const uint8_t *bits);
/* Select the union of runs, given in any order, overlapping or touching allowed. Every run
 * must lie inside [0, nrows) with len >= 0 (the caller checks; the API layer names the bad
 * one). */
pqt_status pqt_sel_init_runs(pqt_sel *sel, int64_t nrows, const pqt_run *runs, int64_t nruns);
pqt_status pqt_sel_copy(pqt_sel *dst, const pqt_sel *src);
void pqt_sel_free(pqt_sel *sel);

/* Set algebra on two selections of the same row count (the caller checks a->nrows ==
 * b->nrows): a becomes a AND b, a OR b, NOT a. These and every other mutating call here
 * fail only with PQT_NOMEM, and then leave the selected rows as they were (a
 * representation may have changed, the meaning has not). */
pqt_status pqt_sel_and(pqt_sel *a, const pqt_sel *b);
pqt_status pqt_sel_or(pqt_sel *a, const pqt_sel *b);
pqt_status pqt_sel_not(pqt_sel *sel);

/* Keep only selected rows inside [lo, hi). */
pqt_status pqt_sel_intersect_range(pqt_sel *sel, int64_t lo, int64_t hi);
/* Keep only selected rows that are also in the sorted, disjoint runs (page pruning). */
pqt_status pqt_sel_intersect_runs(pqt_sel *sel, const pqt_run *runs, int64_t nruns);
/* Refine by a verdict over the currently selected rows only: keep[k] (one byte each) is
 * the verdict for the k-th selected row, k < nsel. */
pqt_status pqt_sel_refine(pqt_sel *sel, const uint8_t *keep);
/* The same with the verdict as a bitmap: bit k (LSB first) for the k-th selected row. A
 * contiguous selection (ALL, one run) takes it whole, without visiting rows. */
pqt_status pqt_sel_refine_bits(pqt_sel *sel, const uint8_t *keep);

/* The selected rows, ascending and 0-based, into rows[0 .. nsel). */
void pqt_sel_rows(const pqt_sel *sel, int64_t *rows);
/* The selection as a bitmap (LSB first, as pqt_sel_init_bitmap reads it) into
 * bits[0 .. (nrows + 7) / 8); the bits past nrows in the last byte are 0. */
void pqt_sel_to_bitmap(const pqt_sel *sel, uint8_t *bits);

/* Selected rows in [lo, hi). */
int64_t pqt_sel_count(const pqt_sel *sel, int64_t lo, int64_t hi);
/* True when any row in [lo, hi) is selected (O(1) per summary block for BITS). */
bool pqt_sel_any(const pqt_sel *sel, int64_t lo, int64_t hi);
/* Number of selected runs intersecting [lo, hi) (cost estimate for skip/decode planning). */
int64_t pqt_sel_nruns_in(const pqt_sel *sel, int64_t lo, int64_t hi);

/* BITS: word wi of the selection with only rows [lo, hi) kept (hi > lo), for loops that
 * visit selected rows bit by bit: for wi from lo >> 6 to (hi - 1) >> 6. */
static inline uint64_t pqt_sel_word_in(const pqt_sel *sel, int64_t wi, int64_t lo, int64_t hi)
{
    uint64_t word = sel->words[wi];
    if (wi == lo >> 6) word &= ~0ULL << (lo & 63);
    if (wi == (hi - 1) >> 6 && (hi & 63)) word &= (1ULL << (hi & 63)) - 1;
    return word;
}

/* Run iteration in ascending order: set *cursor = 0, then call until it returns false.
 * Runs are clipped to [lo, hi). */
typedef struct pqt_sel_cursor {
    int64_t pos; /* RUNS: run index; BITS: next row to examine */
} pqt_sel_cursor;
bool pqt_sel_next_run(const pqt_sel *sel, pqt_sel_cursor *cur, int64_t lo, int64_t hi,
                      int64_t *start_ret, int64_t *len_ret);
/* Position a cursor at the first run that may intersect [lo, ...) (binary search for RUNS). */
void pqt_sel_seek(const pqt_sel *sel, pqt_sel_cursor *cur, int64_t lo);

#endif
