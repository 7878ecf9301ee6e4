/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan.h - the filter pass of the read engine: which rows of each row group survive a
 * compiled filter (layer: scan). Per row group (docs/pruning.md):
 *
 *   1. statistics (pqt_scan_chunk_stats, the prover in filter_stats.c) prove a conjunct
 *      NONE (skip the row group: nothing of it is read) or ALL (drop the conjunct there);
 *   2. the conjuncts left are evaluated one at a time, cheapest first, each decoding only
 *      its columns and only for the rows still selected, refining the selection;
 *   3. what remains is the selection every other column is later read through, so payload
 *      columns decode survivors only (the chunk reader skips pages without one).
 *
 * Filter columns are decoded one row group at a time, once each (a column a later conjunct
 * also names is kept until then), and dropped by the end of the row group: memory is one row
 * group of filter columns per thread, not the file.
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
 * (docs/pruning.md, "Trusting statistics"). Never fails: what cannot be used is left out. */
void pqt_scan_chunk_stats(const pqt_file_meta *meta, const pqt_col *c, int rg,
                          pqt_scan_stats *out);

/* The mechanisms of the pass, as bits of pqt_scan_pass.pushdown_off (PQT_OPT_PUSHDOWN_*:
 * bit n is option PQT_OPT_PUSHDOWN_STATS + n). */
enum {
    PQT_PD_STATS = 1,
    PQT_PD_PAGE_INDEX = 2,
    PQT_PD_DICTIONARY = 4,
    PQT_PD_BLOOM = 8,
    PQT_PD_ADAPTIVE = 16
};

/* The same for one page of that chunk from its ColumnIndex (page_rows rows): a null page
 * holds nulls only; string bounds are never exact (they may be truncated). */
void pqt_scan_page_stats(const pqt_file_meta *meta, const pqt_col *c, int rg,
                         const pqt_column_index *ci, int page, int64_t page_rows,
                         pqt_scan_stats *out);

/* What the pass decided for one row group. */
enum {
    PQT_RG_UNCOVERED = 0,    /* outside the slice: nothing to decide */
    PQT_RG_PRUNED = 1,       /* statistics proved no row passes (conjunct by_conj) */
    PQT_RG_ALL = 2,          /* statistics proved every row passes: no filter column decoded */
    PQT_RG_FILTERED = 3,     /* filter columns decoded: rows_out of rows_in kept */
    PQT_RG_PRUNED_INDEX = 4, /* the column index refuted every page (conjunct by_conj) */
    PQT_RG_PRUNED_DICT = 5,  /* no dictionary entry passes conjunct by_conj, no plain page */
    PQT_RG_PRUNED_BLOOM = 6, /* the bloom filter holds no value conjunct by_conj asks for */
    PQT_RG_LIMIT = 7         /* after the row group the limit was reached in: keeps nothing */
};
/* How the surviving rows of a FILTERED row group were held (docs/pruning.md). */
enum { PQT_SELK_NONE = 0, PQT_SELK_RUNS, PQT_SELK_BITMAP, PQT_SELK_DECODE_THEN_FILTER };
#define PQT_RG_ORDER_MAX 8
typedef struct pqt_rg_verdict {
    int what;
    int by_conj;     /* PRUNED*: the conjunct refuted */
    int nconj_read;  /* FILTERED: conjuncts evaluated on decoded values */
    int sel_kind;    /* FILTERED: PQT_SELK_* */
    bool dict_all;   /* ALL: the dictionary proved a conjunct (statistics the others) */
    bool read_ahead; /* LIMIT: read by a parallel worker before the limit was known */
    int64_t rows_in, rows_out;
    int64_t pages_pruned; /* filter-column pages the column index refuted */
    int blooms_read;      /* bloom filters read */
    int order[PQT_RG_ORDER_MAX]; /* FILTERED: the first conjuncts evaluated, in order */
} pqt_rg_verdict;

typedef struct pqt_scan_pass {
    const pqt_chunk_src *src;
    const pqt_fprog *prog;
    const pqt_col *const *slot_col; /* per program slot: its file column; NULL = row index */
    const int64_t *rg_start;        /* nrg + 1 file-row starts (0-based) */
    int nrg;
    int threads;
    unsigned pushdown_off;       /* PQT_PD_* turned off */
    pqt_read_counters *counters; /* per slot: what decoding it cost (NULL: not counted) */
    /* A limit (docs/pruning.md, "A limit stops the pass"): once limit_plus1 - 1 rows are found
     * in row-group order, later row groups are not filtered (0: no limit). With a sample the
     * rows counted are those the sample (fraction, seed > 0) keeps among the survivors. */
    int64_t limit_plus1;
    bool sampled;
    double sample_fraction;
    int64_t sample_seed;
    const int64_t *ri_shift; /* NULL, or per row group what the row index subtracts from
                                rg_start (a dataset's rows number within their own file) */
    /* Filter columns handed out of the pass (docs/pruning.md, "A filter column kept for the
     * payload"): NULL / 0 for none. */
    struct pqt_scan_keep *keep;
    int nkeep;
    const int64_t *keep_dst_row; /* per row group: where its rows start in keep[].values */
} pqt_scan_pass;

/* ---- proofs from the file's auxiliary structures, each for one conjunct of one row group,
 * tried after statistics left it SOME. Each fails only for I/O or memory; a structure that is
 * absent, corrupt or unusable proves nothing (SOME). ---- */

/* Bloom filters (scan_bloom.c): NONE when conjunct k is == or in on one column with a bloom
 * filter in row group rg and no value it asks for is in the filter. *read_ret += filters
 * read. */
pqt_status pqt_scan_bloom_prove(const pqt_scan_pass *ps, int rg, int k, pqt_tri *ret,
                                int *read_ret);
/* Dictionary (scan_dict.c): NONE when conjunct k names one column, its chunk in rg is
 * dictionary encoded in every data page (encoding_stats), and no dictionary entry (nor null,
 * when the chunk may hold nulls) passes; ALL when every one passes. Reads the dictionary page
 * only. *eval gets the evaluation when there was one (ok true; the caller frees it), so that
 * evaluating the conjunct on the chunk's codes need not evaluate the dictionary again. */
typedef struct pqt_dict_eval pqt_dict_eval;
pqt_status pqt_scan_dict_prove(const pqt_scan_pass *ps, pqt_chunk_ctx *cx, int rg, int k,
                               pqt_tri *ret, pqt_dict_eval *eval);
/* Conjunct k (one flat column, not a callback) evaluated on every entry of its column's
 * dictionary in row group rg, and on a null (scan_dict.c; the dictionary page alone is read,
 * pqt_chunk_read_dict). ok false when there is no usable dictionary (nothing else is then
 * set). Fails only for I/O and memory. */
/* The chunk's encoding_stats list its data pages and every one is dictionary encoded. */
bool pqt_scan_chunk_all_dict(const pqt_column_meta *cm);
struct pqt_dict_eval {
    bool ok;
    bool null_passes;
    int64_t nentries, npass;
    uint8_t *keep; /* bit i: entry i passes (nentries bits); pqt_scan_dict_eval_free */
};
void pqt_scan_dict_eval_free(pqt_dict_eval *e);
/* The verdict of n rows from their dictionary codes: bit i of keep (zeroed here) is bit
 * codes[i] of entry_keep for a valid row, null_passes for a null one; a code past the
 * entries (PQT_CODE_REFUTED) fails. lut: nentries + 1 bytes of scratch. 64 rows per store
 * and no per-row branch (the W3 `survey = 'rare'` hot loop). Returns the rows kept. */
int64_t pqt_scan_codes_verdict(const uint32_t *codes, const uint8_t *valid, int64_t n,
                               const uint8_t *entry_keep, int64_t nentries, bool null_passes,
                               uint8_t *lut, uint8_t *keep);

pqt_status pqt_scan_dict_eval(const pqt_scan_pass *ps, pqt_chunk_ctx *cx, int rg, int k,
                              pqt_dict_eval *ret);
/* Page index (scan_page_index.c): narrow sel (row-group relative) to the rows of the pages
 * the column index of conjunct k's column does not refute; *pruned_ret += pages refuted.
 * Only for one-column conjuncts on chunks with a column index and an offset index. */
pqt_status pqt_scan_page_index_prune(const pqt_scan_pass *ps, int rg, int k, pqt_sel *sel,
                                     int64_t *pruned_ret);

/* The conjuncts of p by cost, the order the first row groups are evaluated in (order_ret:
 * nconj entries); later row groups re-rank by what the earlier ones measured. */
void pqt_scan_conj_order(const pqt_fprog *p, int *order_ret);

/* Refine sels[0..nrg) (row-group relative; the slice) to the rows passing the program;
 * verdicts[rg] says how each was decided. Row groups run in parallel when threads > 1. With
 * a limit, the row groups after the one the limit was reached in keep nothing (PQT_RG_LIMIT)
 * and a failure there is not reported: the result is the same on any thread count. On
 * failure sels are partly refined (the caller works on a copy) and the message names the
 * column and row group. */
pqt_status pqt_scan_filter(const pqt_scan_pass *pass, pqt_sel *sels, pqt_rg_verdict *verdicts);

/* ---- a filter column kept for the payload (docs/pruning.md, "A filter column kept for the
 * payload"). A column the pass decodes as values (pqt_scan_keepable: flat, fixed width or
 * strings) is, at the end of each row group, compacted to the row group's final selection
 * and handed out: fixed-width values into keep.values at keep_dst_row[rg] (the pass may
 * decode straight there when most rows are expected to pass), validity and strings as the
 * row group's piece. A row group where the column was not decoded as values (dictionary
 * codes, statistics or the dictionary proved it, the row group stopped before it) leaves
 * its piece not ok, and so does one where fewer than half the rows the conjuncts saw so far
 * passed and the column is not in place already (the copy would cost more than it saves
 * when the column is not read again); one keeping no row is ok and empty. ---- */
typedef struct pqt_scan_keep_piece {
    bool ok;              /* the piece holds the row group's survivors */
    int64_t nrows;        /* survivors */
    uint8_t *validity;    /* nrows bits, or NULL (a column without nulls); pqt_mem_free */
    int64_t *str_offsets; /* strings: nrows + 1 offsets into str_bytes; pqt_mem_free */
    pqt_buf str_bytes;
} pqt_scan_keep_piece;
typedef struct pqt_scan_keep {
    int slot;                    /* the program slot */
    void *values;                /* fixed width: room for every row of the pass's selections,
                                    row group rg's from keep_dst_row[rg]; NULL for strings */
    pqt_scan_keep_piece *pieces; /* per row group, zeroed by the caller */
    int given_up; /* set by the pass (atomically) once a row group did not keep the column */
} pqt_scan_keep;
void pqt_scan_keep_piece_free(pqt_scan_keep_piece *p);
/* A column the pass can keep: flat, fixed width or strings. */
bool pqt_scan_keepable(const pqt_col *c);
/* Compact b (a flat fixed-width or string colbuf holding, row group after row group, the
 * rows of have[0..nrg)) in place to the rows of want[0..nrg) (each a subset of have's). */
void pqt_scan_compact_rows(pqt_colbuf *b, const pqt_sel *have, const pqt_sel *want, int nrg);

#endif
