/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_int.h - the Parquet writer's private layout (layer: write): options, the output
 * columns, the column-chunk writer and the file writer (parquet-format: File Format, Data
 * Pages, Nested Encoding, PageIndex.md).
 *
 * Rows enter a column as a slice of a table's pqt_colbuf; the chunk writer shreds them into
 * definition/repetition levels and dense values, cuts pages at row boundaries, and keeps the
 * row group's encoded pages in memory until the file writer appends the whole row group.
 */
#ifndef PQT_WRITE_INT_H
#define PQT_WRITE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "codec/codec.h"
#include "column/column.h"
#include "format/meta.h"
#include "pqt.h"
#include "util/buf.h"

struct pqt_write_opts {
    int codec, level;
    bool level_set;
    bool dictionary, statistics, page_index, page_crc, overwrite, copy_metadata, write_maml;
    bool background_io; /* PQT_WOPT_BACKGROUND_IO */
    bool leave_out;     /* PQT_WOPT_LEAVE_OUT */
    int page_version;
    int threads;
    int64_t dict_nbytes, page_nbytes, rg_rows, rg_nbytes, bloom_ndv;
    int64_t max_partitions; /* PQT_WOPT_MAX_PARTITIONS (pqt_write_dataset) */
    bool defer_sync; /* no fsync per file: pqt_write_dataset flushes its files at once (syncfs) */
    bool rg_limit_set; /* PQT_WOPT_ROW_GROUP_ROWS or _NBYTES given: row groups cut exactly there */
    double bloom_fpp;
    char **bloom_cols;
    int nbloom;
    char *row_index_name;
    char **meta_keys; /* PQT_WOPT_METADATA_KEY */
    int nmeta_keys;
    char **kv; /* PQT_WOPT_METADATA, "key=value" */
    int nkv;
    char *maml_path, *maml_text; /* PQT_WOPT_MAML / PQT_WOPT_MAML_TEXT (the last one set wins) */
    char *file_date; /* PQT_WOPT_FILE_DATE, checked YYYY-MM-DDTHH:MM:SS; NULL: the close time */
};

/* true for a date and time YYYY-MM-DDTHH:MM:SS that exists (write_meta.c). */
bool pqt_wmeta_date_valid(const char *s);

/* Deep copy of src (NULL: the defaults) into *dst. */
pqt_status pqt_wopts_copy(pqt_write_opts *dst, const pqt_write_opts *src);
void pqt_wopts_clear(pqt_write_opts *o);

/* One output column: how table values of `kind` become one Parquet leaf. */
typedef struct pqt_wcol {
    char *name;    /* output field name */
    char *src_name; /* the table's name for it (differs under a MAML col_map:) */
    char *unit;    /* "" when none */
    int src_slot;  /* slot of the template table it was made from */
    int kind;      /* table kind with PQT_VECTOR / PQT_LIST */
    int elem_kind; /* element kind of the values */
    int64_t tmpl_width; /* a vector's width in the template (0: not known); kept here because
                           a streaming writer's template may be closed before the writer */
    bool is_list;  /* written as a 3-level LIST */
    bool nullable; /* the field (scalar) or the list is optional */
    bool elem_nullable; /* lists: the element is optional */
    bool protect;       /* MAML protected_cols: written required, a null is PQT_PROTECTED */
    int time_unit;
    bool utc;
    /* the leaf */
    int ptype;
    int32_t type_length;
    int converted;
    pqt_logical_type logical;
    bool narrow32;      /* int64 values written as INT32 (uint32, TIME(MILLIS)) */
    bool unsigned_cmp;  /* statistics in unsigned order */
    bool signed_bytes;  /* FIXED_LEN_BYTE_ARRAY compared as big-endian two's complement */
    int wconv;          /* pqt_wconv: values converted before the chunk writer sees them */
    bool bloom;
    int16_t max_def, max_rep;
    int64_t nbytes_per_value; /* a guess for sizing page batches (strings: 16) */
    /* A leaf read from inside structs of its file, under its path name (write_struct.c):
     * its groups outermost first, whether each is optional, and its own schema name. */
    int ngroups;
    char **group_names;
    bool *group_opt;
    char *leaf_name;   /* NULL for a top-level column (named `name`) */
    int16_t group_def; /* optional groups among them: the level at which all are present */
    bool maml_set;     /* protected_cols: / nullable_cols: decided `nullable` */
} pqt_wcol;

/* ---- struct groups (write_struct.c) ---- */
struct pqt_writer;
/* After the MAML: the output columns that are leaves of structs in their file (a file
 * column still under its path name, not renamed) get their groups, nullability and levels,
 * and the leaves of one group are brought together where its first leaf is. */
pqt_status pqt_wstruct_apply(pqt_wcol *cols, int n, const pqt_table *t);
void pqt_wstruct_free(pqt_wcol *c);
/* Groups columns a and b share, outermost first. */
int pqt_wstruct_common(const pqt_wcol *a, const pqt_wcol *b);
/* Schema elements of columns c[0..n): groups opened as the leaves need them. */
pqt_status pqt_wstruct_schema(const pqt_wcol *c, int n, pqt_arena *a, pqt_schema_elem **elems_ret,
                              int *nelems_ret);
/* path_in_schema of column c (arena). */
pqt_status pqt_wstruct_path(const pqt_wcol *c, pqt_arena *a, const char *const **path_ret,
                            int *len_ret);
/* Before rows r0s[k] + at .. + n of bufs (table rows row0 .., 0-based) go to the chunk
 * writers: each struct leaf's chunk gets the definition level of a null in each row (the
 * optional groups present: a group is present where the source file has it present
 * (pqt_wstruct_source) or a written leaf under it is not null). */
pqt_status pqt_wstruct_rows(struct pqt_writer *w, const pqt_colbuf *const *bufs, const int64_t *r0s,
                            int64_t at, int64_t n, int64_t row0);
/* (bufs[k] NULL: column k is read from the file, whose leaves agree with the source's
 * presence.) Whether every optional group above column k has the source's presence; a
 * struct leaf without it must be resident, since its nulls then decide its groups. */
bool pqt_wstruct_has_source(const struct pqt_writer *w, int k);

/* How a column's table values become its leaf's values (write_conv.c). */
typedef enum pqt_wconv {
    PQT_WCONV_NONE = 0,
    PQT_WCONV_DECIMAL, /* the file's unscaled integers, read again (the table holds doubles) */
    PQT_WCONV_UUID     /* 36-character strings to 16 bytes */
} pqt_wconv;

/* PQT_NONE slots are left out with a warning. */
struct pqt_maml;
/* Output columns of template table t (every readable slot, plus the row index column when
 * row_index_name is set), shaped by the write-side MAML m (NULL: none; its col_map:,
 * protected_cols:, nullable_cols:, problems recorded in m). */
pqt_status pqt_wcols_from_table(pqt_table *t, const pqt_write_opts *o, struct pqt_maml *m,
                                pqt_wcol **ret, int *n_ret);
void pqt_wcols_free(pqt_wcol *c, int n);
/* Append the schema elements of the columns (root first) to *elems (arena). */
pqt_status pqt_wcols_schema(const pqt_wcol *c, int n, pqt_arena *a, pqt_schema_elem **elems_ret,
                            int *nelems_ret);

/* Whether slot `slot` of t still holds its file's DECIMAL values exactly as read (not cast,
 * added or written, the table attached, precision <= 38): then the unscaled integers can be
 * read again for it. */
bool pqt_wconv_decimal_source(const pqt_table *t, int slot);
/* The leaf values of c from b (b's shape: validity, list offsets, borrowed by out): decimals
 * as unscaled int64 (b from pqt_wconv_read_decimal; INT32/INT64 leaves take it as is) or
 * big-endian two's complement of type_length bytes, UUIDs as 16 bytes. out->data is owned:
 * free it with pqt_wconv_free. row0: the table row (1-based) of b's row 0, for messages. */
pqt_status pqt_wconv_buf(const pqt_wcol *c, const pqt_colbuf *b, int64_t row0, pqt_colbuf *out);
void pqt_wconv_free(pqt_colbuf *out);

/* Statistics of a run of values (write_stats.c). */
typedef struct pqt_wstats {
    bool has_minmax;
    int64_t null_count;
    pqt_buf min, max; /* PLAIN bytes of the value (strings: the bytes) */
} pqt_wstats;
void pqt_wstats_reset(pqt_wstats *s);
void pqt_wstats_free(pqt_wstats *s);
/* Fold n dense values (fixed width: elem bytes in the leaf's physical width; strings:
 * offsets + bytes) into s. */
pqt_status pqt_wstats_add(pqt_wstats *s, const pqt_wcol *c, const void *values,
                          const int64_t *offsets, const uint8_t *bytes, int64_t n);
/* Fold another run's statistics into s. */
pqt_status pqt_wstats_merge(pqt_wstats *s, const pqt_wcol *c, const pqt_wstats *o);
/* Compare two PLAIN-encoded values of c: <0, 0, >0. */
int pqt_wstats_cmp(const pqt_wcol *c, const uint8_t *a, size_t an, const uint8_t *b, size_t bn);

/* A page's entry in the page index. */
typedef struct pqt_wpage {
    int64_t offset; /* from the start of the chunk's data pages (dictionary page excluded) */
    int32_t nbytes; /* header + body */
    int64_t first_row;
    bool null_page, has_minmax;
    int64_t null_count;
    uint8_t *min, *max;
    uint32_t min_len, max_len;
} pqt_wpage;

typedef struct pqt_dict_builder pqt_dict_builder; /* enc.h */
typedef struct pqt_bloom_builder pqt_bloom_builder;

/* A dictionary-encoded data page of the open chunk, kept until the chunk ends so that a
 * fallback can write it again PLAIN (write_chunk.c). */
typedef struct pqt_wkept {
    pqt_page_header h; /* as emitted, but for the sizes */
    size_t lv_off, lv_n; /* its level bytes in kept_lv (v1: with their length prefixes) */
    size_t idx_off;      /* its first index in kept_idx */
    int64_t n;           /* non-null values */
} pqt_wkept;

/* The column-chunk writer: one per output column, reused row group after row group. */
typedef struct pqt_wchunk {
    const pqt_wcol *col;
    const pqt_write_opts *opts;
    pqt_codec_ctx *codec;
    /* pending rows of the page being built */
    pqt_buf def, rep;      /* uint16 levels */
    pqt_buf vals;          /* fixed: dense values in the leaf width; strings: bytes */
    pqt_buf offs;          /* strings: int64 offsets of the dense values (n + 1) */
    int64_t page_nvals;    /* values (levels) in the page */
    int64_t page_nnonnull;
    int64_t page_rows;
    int64_t page_first_row;
    /* the chunk */
    pqt_dict_builder *dict; /* NULL: PLAIN */
    bool dict_fallback;     /* the rest of this chunk is PLAIN */
    bool dict_off;          /* a chunk of this column fell back: PLAIN for the rest of the file */
    pqt_wkept *kept;        /* the chunk's dictionary pages, while the dictionary holds */
    int nkept, kcap;
    pqt_buf kept_lv, kept_idx, redo;
    pqt_buf pages;          /* encoded data pages */
    pqt_buf dict_page;      /* the encoded dictionary page at finish */
    pqt_wpage *pidx;
    int npages, pcap;       /* page index entries (only with the page index) */
    int32_t ndata_pages;    /* data pages written, for encoding_stats */
    bool finished;          /* pqt_wchunk_finish done for this row group */
    pqt_wstats stats;
    bool stats_ok;          /* every non-null page had min/max (else no column index) */
    int64_t nvals, nrows, uncompressed_nbytes;
    bool used_dict_enc, used_plain;
    pqt_bloom_builder *bloom;
    /* struct leaves (write_struct.c): the definition level of a null in each row of the
     * current add (row i of the buffer at struct_def[i - struct_r0]); NULL otherwise */
    const uint16_t *struct_def;
    int64_t struct_r0;
    pqt_buf struct_lv;
    /* scratch */
    pqt_buf scratch, comp, hdr;
    uint32_t *idx;
    size_t idx_cap;
} pqt_wchunk;

pqt_status pqt_wchunk_init(pqt_wchunk *w, const pqt_wcol *c, const pqt_write_opts *o);
void pqt_wchunk_free(pqt_wchunk *w);
/* Append rows [r0, r0 + n) of b (laid out as the table holds c's kind). row_no: the
 * table row of b's row r0 for messages (1-based). */
pqt_status pqt_wchunk_add(pqt_wchunk *w, const pqt_colbuf *b, int64_t r0, int64_t n,
                          int64_t row_no);
/* Bytes the chunk holds so far (encoded pages + pending values). */
int64_t pqt_wchunk_nbytes(const pqt_wchunk *w);
/* Close the row group's chunk: flush the last page, build the dictionary page. */
pqt_status pqt_wchunk_finish(pqt_wchunk *w);
/* Forget the row group (after it went to the file). */
void pqt_wchunk_reset(pqt_wchunk *w);

/* A streaming file writer (write_file.c). */
struct pqt_writer;

#endif
