/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff_write.h - the differential test's Parquet writer (tests only): flat columns, leaves
 * of one-level structs and LIST columns, written with everything the filter engine can exploit or
 * trip on, each choice drawn from a seed: several row groups, several pages per chunk with
 * their own boundaries per column, data pages v1 and v2, PLAIN, dictionary (with a fallback
 * to PLAIN mid-chunk), RLE booleans, DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT,
 * DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY, uncompressed or snappy, chunk statistics
 * (true ones, in the shapes real writers give them: absent, no null count, nan_count or not,
 * either zero for a +-0 bound, a NaN bound beside NaN values, truncated string bounds, no
 * column_orders, the deprecated min/max in signed order -- also for UINT_32 and strings),
 * the page index (ColumnIndex with boundary order, OffsetIndex) on most chunks,
 * ColumnMetaData.encoding_stats (dictionary page and data pages by type and encoding) on
 * three chunks in four, and bloom filters (split-block, of random sizes) on about half the
 * chunks.
 * Thrift comes from pqbuild.c, hybrid runs from tests/ref/ref_rle.c.
 */
#ifndef PQT_TEST_DIFF_WRITE_H
#define PQT_TEST_DIFF_WRITE_H

#include <stdbool.h>
#include <stdint.h>

/* The annotation a column carries (logical type plus the matching converted type). */
enum { DW_NONE = 0, DW_STRING, DW_DATE, DW_TIME, DW_TS, DW_UINT32 /* INT32 UINT_32 */ };

typedef struct dw_col {
    const char *name;     /* leaf name */
    const char *group;    /* NULL, or the optional struct holding this (optional) leaf */
    int ptype;            /* PQT_PT_BOOLEAN, INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY */
    int ann;              /* DW_* */
    int unit;             /* DW_TIME / DW_TS: pqt_time_unit */
    int required;         /* no group, no nulls: a REQUIRED column (no definition levels) */
    const void *vals;     /* a value per row (bool: uint8_t); BYTE_ARRAY: nrows + 1 int64 offsets */
    const char *bytes;    /* BYTE_ARRAY data */
    const uint8_t *valid; /* one bit per row, LSB first, 1 = present; NULL = all present */
    /* list != 0: a 3-level LIST (optional list, repeated group, optional element) whose
     * elements are vals[loff[r] .. loff[r + 1]) with evalid bits; valid says which rows are
     * a list (not null) */
    int list;
    const int64_t *loff;
    const uint8_t *evalid;
} dw_col;

/* What the writer chose, summed over the files written (for coverage counts). */
typedef struct dw_info {
    int64_t chunks, pages, v2_pages, dict_chunks, fallback_chunks, snappy_chunks;
    int64_t stats_chunks, truncated_bounds, column_index_chunks, offset_index_chunks;
    int64_t legacy_stats, nan_bounds; /* deprecated min/max (signed order); a NaN bound */
    int64_t bloom_chunks;             /* chunks with a bloom filter */
    int64_t enc_pages[10]; /* data pages by value encoding (PQT_ENC_*; dictionary as 8) */
} dw_info;

/* Write ncols columns of nrows rows as nrg row groups of rg_rows[i] rows to path; every
 * choice is drawn from *rng. page_index: 1 writes the page index (most chunks), 0 none.
 * false when the file cannot be written. */
bool dw_write(const char *path, const dw_col *cols, int ncols, const int64_t *rg_rows, int nrg,
              int page_index, uint64_t *rng, dw_info *info);

#endif
