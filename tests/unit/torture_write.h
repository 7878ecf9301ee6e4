/* SPDX-License-Identifier: Apache-2.0 */
/*
 * torture_write.h - one-column Parquet files whose every statistic is the test's (tests only).
 *
 * test_pushdown_torture (docs/pruning.md, scenario 10) needs files where each bound, count and
 * flag is exactly what a given writer -- or a broken one -- would put there: footer statistics
 * in the current or the deprecated fields, exactness flags, null and NaN counts, column
 * orders or none, logical types whose order differs from the physical one, a page index per
 * chunk with null pages, dictionary chunks with or without a PLAIN fallback page and
 * encoding_stats. Pages are uncompressed data pages v1; values are written as given, so a
 * statistic can lie about them.
 */
#ifndef PQT_TEST_TORTURE_WRITE_H
#define PQT_TEST_TORTURE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A bound as its PLAIN bytes (strings: the bytes alone); p NULL: absent. */
typedef struct tw_bound {
    const void *p;
    size_t n;
} tw_bound;

typedef struct tw_stats {
    bool present;
    tw_bound min, max;
    bool legacy;              /* in the deprecated fields min (2) and max (1) instead */
    int min_exact, max_exact; /* -1: flag absent */
    int64_t nulls, nans;      /* -1: absent */
} tw_stats;

/* One page of a chunk with a page index: its rows and its ColumnIndex entry. */
typedef struct tw_page {
    int64_t nrows;
    bool null_page;
    tw_bound min, max;
    int64_t nulls; /* -1: the index has no null_counts (then for every page) */
} tw_page;

/* TW_DICT_FALLBACK: the last data page is PLAIN and the dictionary holds only the values of
 * the pages before it (a writer whose dictionary filled up). */
enum { TW_DICT_NONE = 0, TW_DICT_ALL, TW_DICT_FALLBACK /* last data page PLAIN */ };

typedef struct tw_rg {
    int64_t nrows;
    /* fixed width: nrows values (slots of null rows ignored); strings: const char *[nrows],
     * NULL = null */
    const void *vals;
    const uint8_t *valid; /* a byte per row, 1 = present; NULL: all present */
    tw_stats st;
    int npages; /* > 0: that many pages and a page index; 0: one page, no index */
    tw_page pages[8];
    int dict;       /* TW_DICT_* */
    bool enc_stats; /* write ColumnMetaData.encoding_stats (true ones) */
    /* > 0: a split-block bloom filter (xxhash64, parquet-format BloomFilter.md) of that many
     * bytes holding every present value, after the data */
    int32_t bloom_nbytes;
    bool bloom_length; /* also write ColumnMetaData.bloom_filter_length */
    int bloom_flaw;    /* TW_BLOOM_*: how the filter or its place is broken */
    /* hostile sizes (0: the true one): the dictionary page header's uncompressed size and
     * entry count, the chunk's total_uncompressed_size */
    int32_t dict_claim_nbytes, dict_claim_nvalues;
    int64_t claim_total_nbytes;
} tw_rg;

/* Broken bloom filters, each of which a reader must ignore (not a crash, not a prune). */
enum {
    TW_BLOOM_SOUND = 0,
    TW_BLOOM_HUGE,       /* header claims 1 GiB of bitset */
    TW_BLOOM_PAST_EOF,   /* bloom_filter_offset beyond the end of the file */
    TW_BLOOM_ALGORITHM,  /* an algorithm other than SPLIT_BLOCK */
    TW_BLOOM_NOT_POW2,   /* num_bytes not a power of two */
    TW_BLOOM_SHORT_LEN,  /* bloom_filter_length shorter than header + bitset */
    TW_BLOOM_GARBAGE     /* the header's bytes are not Thrift */
};

/* Logical annotations (with the converted type old readers know). */
enum { TW_L_NONE = 0, TW_L_STRING, TW_L_UINT32, TW_L_INT8, TW_L_DECIMAL92, TW_L_FLOAT16 };

typedef struct tw_file {
    int ptype;       /* PQT_PT_* */
    int type_length; /* FIXED_LEN_BYTE_ARRAY */
    int logical;     /* TW_L_* */
    bool required;
    bool column_orders; /* TYPE_ORDER in FileMetaData.column_orders */
    int nrg;
    const tw_rg *rgs;
} tw_file;

/* Write the file (column "x") to path; false when it cannot be written. */
bool tw_write(const char *path, const tw_file *f);

#endif
