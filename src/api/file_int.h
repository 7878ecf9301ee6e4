/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_int.h - layout of pqt_file, the footer-only reader handle (layer: api, private).
 */
#ifndef PQT_API_FILE_INT_H
#define PQT_API_FILE_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "api/file_access.h"
#include "column/column.h"
#include "format/meta.h"
#include "format/schema.h"
#include "pqt_file.h"
#include "read/request.h"
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
    bool footer_replayed; /* the footer came from a metadata snapshot, not the file */
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
    struct pqt_file_ds *ds; /* a dataset (api/file_ds.h), shared by clones; NULL: one file */
};

/* A column's values as read (pqt_file_read, pqt_file_read_selected). */
struct pqt_array {
    pqt_colbuf buf;
    int kind;
    int width;
    int64_t nrows;
};


/* Read rows [lo, hi) (0-based, half-open) of column c into a colbuf allocated here at
 * hi - lo rows (borrowed_data: caller memory for fixed-width scalar values, or NULL).
 * Covering row groups are decoded straight into place, in parallel when allowed. On failure
 * b is left freed. counters (NULL = none): what the read cost (column.h). */
pqt_status pqt_file_read_colbuf(pqt_file *f, const pqt_col *c, int64_t lo, int64_t hi,
                                pqt_read_counters *counters, pqt_colbuf *b,
                                void *borrowed_data);

/* PQT_MISUSE for a NULL f, PQT_NOT_FOUND for a column index out of range, PQT_UNSUPPORTED_TYPE
 * (naming the column and its types) for a column pqt cannot read. */
pqt_status pqt_file_check_readable(const pqt_file *f, int col);

/* ---- datasets (file_dataset.c, file_dataset_merge.c; api/file_ds.h) ---- */
struct pqt_file_ds;
/* parquet-mr before 1.2.9 left the dictionary page out of total_compressed_size (file.c). */
void pqt_meta_pad_old_parquet_mr(pqt_file_meta *m, int64_t file_size);
/* Merge the row groups of the members with keep[i] (NULL: all) into ds's footer. */
pqt_status pqt_file_ds_merge(struct pqt_file_ds *ds, const bool *keep, int threads,
                             bool binary_as_string);
void pqt_file_ds_unref(struct pqt_file_ds *ds);
struct pqt_file_ds *pqt_file_ds_ref(struct pqt_file_ds *ds);

#endif
