/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_int.h - layout of pqt_file, the footer-only reader handle (layer: api, private).
 */
#ifndef PQT_API_FILE_INT_H
#define PQT_API_FILE_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "format/meta.h"
#include "format/schema.h"
#include "pqt.h"
#include "read/reader.h"
#include "util/buf.h"
#include "util/io.h"

struct pqt_file {
    const char *path;    /* the source's name (io->name): a path, or the caller's name */
    pqt_io *io;          /* where the bytes come from; shared with clones */
    int64_t file_size;
    pqt_arena arena;     /* owns meta and schema */
    pqt_file_meta meta;
    pqt_schema schema;
    int threads;
    bool verify_crc;
    bool binary_as_string;
    int *list_width; /* per column: 0 unknown, -1 not uniform, > 0 discovered width */
    /* the columns by path (pqt_file_find_column), so a lookup per column of a wide file is
     * not quadratic: built by the first lookup (lookups may race: the first to publish
     * wins), NULL until then or without memory. One block: [0] the number of buckets B,
     * [1, B] bucket -> first column + 1 (0 = empty), then column -> next column + 1 of its
     * bucket, chains in column order. */
    _Atomic(int32_t *) paths;
    /* each chunk's offset index decoded once for every read and filter of this open
     * (column.h): a fact of the file, so every table and plan on it shares it */
    pqt_oindex_cache *oindex;
};

/* A column's values as read (pqt_file_read, pqt_file_read_selected). */
struct pqt_array {
    pqt_colbuf buf;
    int kind;
    int width;
    int64_t nrows;
};

/* Open the footer of the source io (a reference is taken over, also on failure). */
pqt_status pqt_file_open_io(pqt_io *io, const pqt_opts *opts, pqt_file **ret);
/* Another handle on the same source as f (a clone's): the footer is decoded again, nothing
 * is reopened by path. */
pqt_status pqt_file_reopen(const pqt_file *f, const pqt_opts *opts, pqt_file **ret);

/* Settle the width of LIST column col (footer check, then a row-group scan); returns the
 * width, or -1 when rows disagree (a list kind), or -2 when the scan failed. */
int pqt_file_list_width_discover(pqt_file *f, int col);
/* The same with the scan's status: *w_ret > 0 a width, -1 rows disagree; with measure = 0
 * nothing is read and *w_ret is 0 when only a scan could settle it. */
pqt_status pqt_file_list_width(pqt_file *f, int col, int measure, int *w_ret);

/* What the reader (read/reader.h) needs of f; borrowed from f. */
pqt_read_src pqt_file_read_src(const pqt_file *f);

/* Read rows [lo, hi) (0-based, half-open) of column c into a colbuf allocated here at
 * hi - lo rows (borrowed_data: caller memory for fixed-width scalar values, or NULL).
 * Covering row groups are decoded straight into place, in parallel when allowed. On failure
 * b is left freed. counters (NULL = none): what the read cost (column.h). */
pqt_status pqt_file_read_colbuf(pqt_file *f, const pqt_col *c, int64_t lo, int64_t hi,
                                pqt_read_counters *counters, pqt_colbuf *b,
                                void *borrowed_data);

/* A copy of DECIMAL column col that reads the unscaled integers exactly (int64 kind up to
 * precision 18, int128 up to 38). PQT_KIND for a column that is not a decimal,
 * PQT_UNSUPPORTED_TYPE above precision 38. */
pqt_status pqt_file_decimal_col(const pqt_file *f, int col, pqt_col *out);

struct pqt_opts {
    int threads;
    bool verify_crc;
    bool binary_as_string;
    int64_t row_lo, row_hi; /* 0 = never set (the setter refuses < 1) */
    int int96_unit_plus1;   /* PQT_OPT_INT96_UNIT + 1; 0 = default (nanoseconds), so a
                               zeroed pqt_opts keeps the default */
    unsigned pushdown_off;  /* PQT_PD_* bits of the mechanisms turned off (0 = all on) */
    pqt_filter *filter;     /* owned by the options object (NULL = none); a table copies the
                               options by value and drops this pointer after its open */
    pqt_qc *qc;             /* owned like filter (NULL = none); a table binds its own copy */
    bool qc_soft;           /* PQT_OPT_QC_SOFT */
    bool sample_set;        /* PQT_OPT_SAMPLE_FRACTION was set (else no sample) */
    double sample_fraction; /* >= 0, not NaN (the setter refuses the rest) */
    int64_t sample_seed;    /* PQT_OPT_SAMPLE_SEED; <= 0: drawn at open */
    struct pqt_sort_spec *sort; /* owned like filter (NULL = no sort) */
    int64_t limit_plus1;    /* PQT_OPT_LIMIT + 1; 0 = unset (every row) */
    struct pqt_maml *maml;  /* a reference (maml/maml.h), NULL = none; a table takes its own */
};

/* PQT_MISUSE for a NULL f, PQT_NOT_FOUND for a column index out of range, PQT_UNSUPPORTED_TYPE
 * (naming the column and its types) for a column pqt cannot read. */
pqt_status pqt_file_check_readable(const pqt_file *f, int col);

#endif
