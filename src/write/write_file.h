/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_file.h - the streaming writer's state, shared by write_file.c (row groups, footer,
 * close) and write_table.c (rows from tables) (layer: write).
 */
#ifndef PQT_WRITE_FILE_H
#define PQT_WRITE_FILE_H

#include "table/table_view.h"
#include "write/write_int.h"

struct pqt_writer {
    char *path, *tmp; /* the user's path; the temporary file beside it (NULL once renamed) */
    int fd;
    struct pqt_wio *io; /* the bytes for fd, written by a background thread (write_io.h) */
    int64_t off;      /* bytes put to the temporary file */
    pqt_write_opts o;
    pqt_table *template_table; /* pqt_write_table's table (its slots are the columns'); NULL for a
                                  streaming writer: its template may be closed and the address reused */
    pqt_wcol *cols;
    int ncols;
    pqt_wchunk *chunks;
    pqt_arena arena;  /* footer metadata kept until close */
    pqt_row_group *rgs;
    int nrg, rgcap;
    int64_t nrows, rg_nrows;
    int64_t bytes_per_row; /* of the pending row group, at the last step (0: no step yet) */
    int64_t *col_weight;   /* per column: encoded bytes of the last row group (write_steps.c
                              starts the largest first) */
    struct pqt_wthread *thr; /* per step thread: what its column tasks share (write_steps.c) */
    int nthr;
    pqt_buf ci, oi;   /* encoded column and offset indexes, written at close */
    pqt_kv *kv;
    int nkv, kvcap;
    char *side_tmp;        /* the sidecar's temporary file until renamed (PQT_WOPT_WRITE_MAML) */
    struct pqt_maml *maml; /* PQT_WOPT_MAML / _TEXT, parsed at open; NULL without */
    pqt_buf maml_src;      /* its source text, read at open for the verbatim sidecar */
    pqt_buf tmpbuf;
    bool failed;
    pqt_status fail_st; /* the failed write's status and message, for pqt_writer_close_part */
    char *fail_msg;
    bool part; /* pqt_writer_open_part: no head in its offsets, closed into a pqt_part (tmp:
                  part 0's shared temporary file; NULL: a nameless spool) */
    /* the always-written keys (write_meta.c): entries reserved at open, filled at close */
    struct pqt_wmeta_slot *slots;
    int nslots;
    int64_t *obs_width;  /* per column: -2 no row seen, -1 rows differ, else every row's width */
    int64_t *obs_strlen; /* per column: longest string (array_size: auto), -1 not tracked */
    pqt_write_progress_fn progress; /* pqt_writer_set_progress */
    void *progress_user;
    struct pqt_wstruct_src *wsrc; /* struct groups' source presence, one pqt_writer_write */
    int nwsrc;
};

/* write_struct_src.c: for the optional struct group opened at depth d by column k, whether
 * the source file holds it present in each row of the table being written. */
typedef struct pqt_wstruct_src {
    int k, d;
    uint8_t *present; /* one byte per table row */
} pqt_wstruct_src;
/* Read them for table t (slots: its slot of each output column); none when t is detached,
 * built in memory or its rows do not map to file rows. */
pqt_status pqt_wstruct_source(pqt_writer *w, pqt_table *t, const int *slots);
void pqt_wstruct_source_free(pqt_writer *w);

/* Rows [lo, lo + n) (0-based) of t as pqt_writer_write writes all of them (write_table.c;
 * pqt_write_dataset's partitions). A part of the rows needs t detached (or in memory) with
 * every readable column resident: PQT_MISUSE otherwise. */
pqt_status pqt_writer_write_range(pqt_writer *w, pqt_table *t, int64_t lo, int64_t n);

/* pqt_writer_open (part -1) and pqt_writer_open_part (part >= 0: offsets count from the
 * part's start; part 0's bytes go to the shared temporary file after its "PAR1" head, the
 * others' to a nameless spool beside path); `call` starts the messages. */
pqt_status pqt_writer_open_as(pqt_writer **ret, const char *path, pqt_table *t,
                              const pqt_write_opts *opts, int part, const char *call);

/* The FileMetaData of what w holds (schema, rows, row groups, key-value entries, created_by,
 * column orders); pointers into w. */
pqt_status pqt_writer_file_meta(pqt_writer *w, pqt_file_meta *m);

/* Give the finished temporary file tmp its name path: rename (overwrite) or link, which
 * refuses an existing name (PQT_EXISTS); then the directory flushed when sync is set. */
pqt_status pqt_wfile_commit(const char *tmp, const char *path, bool overwrite, bool sync);

/* Keep the status and message of w's failed write (the first one) for a later close. */
void pqt_writer_keep_failure(pqt_writer *w, pqt_status st);

/* Write the pending row group (nothing when it holds no rows). */
pqt_status pqt_writer_flush_rg(pqt_writer *w);

/* Add the key-value entry k = v (a later entry of the same key replaces an earlier one when
 * replace is set; else both are kept). */
pqt_status pqt_writer_add_kv(pqt_writer *w, const char *k, size_t kn, const char *v, size_t vn,
                             bool replace);

/* write_meta.c: the always-written keys of docs/writing.md (DATE, name,
 * IVOA.VOTable-Parquet.version/.content, column.<name>.col_size/.array_size). reserve, at
 * open between the copied and the user's entries (so a user entry of the same key wins and a
 * copied one is replaced); observe, the rows of every batch (vector widths, string lengths);
 * fill, at close. */
pqt_status pqt_wmeta_reserve(pqt_writer *w);
/* observe_col: rows r0 .. r0 + n - 1 of column k's b (safe beside other columns' calls). */
void pqt_wmeta_observe_col(pqt_writer *w, int k, const pqt_colbuf *b, int64_t r0, int64_t n);
pqt_status pqt_wmeta_fill(pqt_writer *w);
void pqt_wmeta_free(pqt_writer *w);

/* write_sidecar.c: the sidecar's path for path (malloc'd; NULL when out of memory) and its
 * text for the output columns. */
char *pqt_sidecar_path(const char *path);
pqt_status pqt_sidecar_text(const pqt_wcol *cols, int n, const char *path, pqt_buf *out);
/* The sidecar of a writer given a MAML: its source src (n bytes) with the fields: entries of
 * columns not written cut out (unless none would remain) and the runtime entries kv
 * ("key=value") added as keyarray: items. */
struct pqt_maml;
pqt_status pqt_sidecar_verbatim(const char *src, size_t n, const struct pqt_maml *m,
                                const pqt_wcol *cols, int ncols, char *const *kv, int nkv,
                                pqt_buf *out);

#endif
