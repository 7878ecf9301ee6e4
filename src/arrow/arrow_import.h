/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import.h - Arrow record batches into pqt tables (layer: arrow, private): the
 * stream's schema read once into the columns pqt will hold (arrow_import_schema.c), then
 * each batch checked against the C Data Interface and converted (arrow_import_batch.c,
 * arrow_import_values.c) into a table of its own for the writer, or appended to per-column
 * accumulators that become one table at the end (arrow_import_acc.c). arrow_import.c drives
 * the stream.
 *
 * A struct field becomes one column per leaf, named with dots ("s.a"); a fixed_size_list a
 * vector, a list or large_list a list; the leaves are the value types of
 * pqt_aimp_type. Nothing deeper (lists of lists, lists of structs, maps, unions) is held.
 */
#ifndef PQT_ARROW_IMPORT_H
#define PQT_ARROW_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "pqt_arrow.h"
#include "util/buf.h"

/* Arrow value types pqt holds (the leaf of a column). */
typedef enum pqt_aimp_type {
    PQT_AT_INT8 = 1,
    PQT_AT_UINT8,
    PQT_AT_INT16,
    PQT_AT_UINT16,
    PQT_AT_INT32,
    PQT_AT_UINT32,
    PQT_AT_INT64,
    PQT_AT_UINT64,
    PQT_AT_FLOAT16,
    PQT_AT_FLOAT32,
    PQT_AT_FLOAT64,
    PQT_AT_BOOL,
    PQT_AT_UTF8,         /* "u": int32 offsets */
    PQT_AT_LARGE_UTF8,   /* "U": int64 offsets */
    PQT_AT_UTF8_VIEW,    /* "vu": 16-byte views into variadic buffers */
    PQT_AT_BINARY,       /* "z" */
    PQT_AT_LARGE_BINARY, /* "Z" */
    PQT_AT_BINARY_VIEW,  /* "vz" */
    PQT_AT_FIXED_BINARY, /* "w:N", size N */
    PQT_AT_UUID,         /* "w:16" with extension arrow.uuid: text, as pqt reads UUID */
    PQT_AT_DECIMAL,      /* "d:P,S[,B]", size B bits (32, 64, 128), scale S */
    PQT_AT_DATE32,       /* "tdD" days */
    PQT_AT_DATE64,       /* "tdm" milliseconds */
    PQT_AT_TIME,         /* "tt[smun]", mult turns it into time_unit */
    PQT_AT_TIMESTAMP     /* "ts[smun]:tz", mult as TIME */
} pqt_aimp_type;

typedef struct pqt_aimp_val {
    pqt_aimp_type type;
    int32_t size;             /* FIXED_BINARY: bytes; DECIMAL: bits */
    int32_t scale;            /* DECIMAL: scale */
    int64_t mult;             /* TIME, TIMESTAMP: factor into time_unit (1, or 1000 for seconds) */
    bool time32;              /* TIME: 32-bit storage ("tts", "ttm") */
    pqt_aimp_type index_type; /* dictionary-encoded: its indices' integer type; 0: plain */
} pqt_aimp_val;

/* One column pqt will hold. */
typedef struct pqt_aimp_col {
    char *name; /* dotted path of the leaf */
    char shape; /* 's' scalar, 'v' vector (fixed_size_list), 'l' list, 'L' large list */
    int width;  /* 'v': the list size */
    pqt_aimp_val val;
    int kind;      /* pqt element kind of the values */
    int time_unit; /* pqt_time_unit, or -1 */
    bool nullable; /* the field, or a struct above it, is declared nullable */
    char *unit;    /* the field's "unit" metadata, or NULL */
} pqt_aimp_col;

typedef struct pqt_aimp_schema {
    pqt_aimp_col *cols;
    int ncols;
} pqt_aimp_schema;

/* ---- arrow_import_schema.c ---- */
/* The columns of a stream whose schema is s (a struct, "+s"). PQT_UNSUPPORTED_TYPE naming
 * the field and its format for a type pqt cannot hold; PQT_CORRUPT for a schema that breaks
 * the interface (no format, a missing child). On failure *out is empty. */
pqt_status pqt_aimp_schema_parse(const struct ArrowSchema *s, pqt_aimp_schema *out);
void pqt_aimp_schema_free(pqt_aimp_schema *s);

/* ---- arrow_import_batch.c ---- */
/* An in-memory table with the columns of cs holding the rows of batch (a struct array of
 * schema root), batch_no (1-based) naming it in messages; batch NULL: the table with no row
 * (a writer's template). Reads only what the array's lengths, offsets and buffer counts
 * justify: PQT_CORRUPT naming the field, the batch and what is wrong otherwise. */
pqt_status pqt_aimp_batch_table(const pqt_aimp_schema *cs, const struct ArrowSchema *root,
                                const struct ArrowArray *batch, int64_t batch_no, pqt_table **ret);

/* One column's rows of every batch so far, in pqt's storage (arrow_import_acc.c): what an
 * in-memory table is built from once, so every value is copied a fixed number of times
 * however many batches come. */
typedef struct pqt_aimp_acc {
    int64_t nrows, nelem;
    pqt_buf data;         /* fixed-width elements */
    pqt_buf offsets;      /* bytes kinds: int64, nelem + 1 from 0 */
    pqt_buf bytes;        /* bytes kinds */
    pqt_buf valid;        /* nullable columns: a bit per element */
    pqt_buf list_offsets; /* lists: int64, nrows + 1 from 0 */
    pqt_buf row_valid;    /* nullable lists: a bit per row */
} pqt_aimp_acc;

/* The rows of batch appended to acc (one per column of cs); errors as pqt_aimp_batch_table. */
pqt_status pqt_aimp_batch_append(const pqt_aimp_schema *cs, const struct ArrowSchema *root,
                                 const struct ArrowArray *batch, int64_t batch_no,
                                 pqt_aimp_acc *acc);

/* ---- arrow_import_values.c ---- */
/* Values of one leaf array converted to pqt's storage: n elements of kind (fixed-width in
 * data; bytes kinds as n + 1 offsets from 0 into bytes), validity n bits or NULL (none
 * null). bytes points into the producer's buffer or into own. */
typedef struct pqt_aimp_vals {
    int kind;
    int64_t n;
    void *data;
    int64_t *offsets;
    const char *bytes;
    pqt_buf own;
    uint8_t *valid;
} pqt_aimp_vals;
void pqt_aimp_vals_free(pqt_aimp_vals *v);
/* Elements start .. start + n - 1 (logical: the array's offset is added here) of array a,
 * whose field f is described by col, into *out. PQT_CORRUPT naming col and what is wrong
 * (the caller prefixes the batch). */
pqt_status pqt_aimp_values(const pqt_aimp_col *col, const struct ArrowSchema *f,
                           const struct ArrowArray *a, int64_t start, int64_t n,
                           pqt_aimp_vals *out);
/* ---- arrow_import_bytes.c: byte strings, n elements from physical index phys of a (its
 * validity already in out->valid) into out->offsets and out->bytes ---- */
/* "u", "U", "z", "Z": offsets of ow bytes (4 or 8) into buffer 2. */
pqt_status pqt_aimp_offset_values(const pqt_aimp_col *col, const struct ArrowArray *a, int64_t phys,
                                  int64_t n, int ow, pqt_aimp_vals *out);
/* "vu", "vz": views, inline or into the variadic buffers. */
pqt_status pqt_aimp_view_values(const pqt_aimp_col *col, const struct ArrowArray *a, int64_t phys,
                                int64_t n, pqt_aimp_vals *out);
/* "w:N", and arrow.uuid as text. */
pqt_status pqt_aimp_fixed_binary_values(const pqt_aimp_col *col, const struct ArrowArray *a,
                                        int64_t phys, int64_t n, pqt_aimp_vals *out);
/* PQT_CORRUPT unless a is a usable array node of at least nbuf buffers and children holding
 * logical elements start .. start + n - 1. */
pqt_status pqt_aimp_check_node(const struct ArrowArray *a, const char *name, int nbuf,
                               int64_t start, int64_t n);
/* A copy of the n validity bits of a from logical element start (NULL when a has none or no
 * null), into *ret; PQT_NOMEM. */
pqt_status pqt_aimp_validity(const struct ArrowArray *a, int64_t start, int64_t n, uint8_t **ret);


/* ---- arrow_import_add.c ---- */
/* n bits all set (a fresh allocation): the validity a nullable column gets when nothing in it
 * is null, so the writer's template and every batch agree that the column is optional. */
pqt_status pqt_aimp_all_valid(int64_t n, uint8_t **ret);
/* Add column col of n rows to t through the table's calls (they copy): v as pqt_aimp_values
 * gives it, list_offsets (n + 1) and *row_valid for lists; a nullable column without
 * validity gets one, all set (allocated into v->valid and *row_valid). */
pqt_status pqt_aimp_add_column(pqt_table *t, const pqt_aimp_col *col, int64_t n, pqt_aimp_vals *v,
                               const int64_t *list_offsets, uint8_t **row_valid);

/* ---- arrow_import_acc.c ---- */
/* Append n rows (v, list_offsets, row_valid as for pqt_aimp_add_column) to a. */
pqt_status pqt_aimp_acc_push(pqt_aimp_acc *a, const pqt_aimp_col *col, int64_t n,
                             const pqt_aimp_vals *v, const int64_t *list_offsets,
                             const uint8_t *row_valid);
/* The table of every column's accumulated rows (the accumulators emptied as it goes). */
pqt_status pqt_aimp_acc_table(const pqt_aimp_schema *cs, pqt_aimp_acc *acc, pqt_table **ret);
void pqt_aimp_acc_free(pqt_aimp_acc *acc, int ncols);

#endif
