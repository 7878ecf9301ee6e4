/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_file.h - the streaming writer's state, shared by write_file.c (row groups, footer,
 * close) and write_table.c (rows from tables) (layer: write).
 */
#ifndef PQT_WRITE_FILE_H
#define PQT_WRITE_FILE_H

#include "table/table_int.h"
#include "write/write_int.h"

struct pqt_writer {
    char *path, *tmp; /* the user's path; the temporary file beside it (NULL once renamed) */
    int fd;
    int64_t off;      /* bytes written to the temporary file */
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
    pqt_buf ci, oi;   /* encoded column and offset indexes, written at close */
    pqt_kv *kv;
    int nkv, kvcap;
    char *side_tmp;        /* the sidecar's temporary file until renamed (PQT_WOPT_WRITE_MAML) */
    struct pqt_maml *maml; /* PQT_WOPT_MAML / _TEXT, parsed at open; NULL without */
    pqt_buf tmpbuf;
    bool failed;
};

/* Run fn on every column's chunk writer (k: the column), on PQT_WOPT_THREADS threads; the
 * first failure in column order is returned with its message. */
typedef pqt_status (*pqt_wchunk_fn)(pqt_wchunk *ch, void *arg, int k);
pqt_status pqt_writer_each_chunk(pqt_writer *w, pqt_wchunk_fn fn, void *arg);
/* Write the pending row group (nothing when it holds no rows). */
pqt_status pqt_writer_flush_rg(pqt_writer *w);

/* write_sidecar.c: the sidecar's path for path (malloc'd; NULL when out of memory) and its
 * text for the output columns. */
char *pqt_sidecar_path(const char *path);
pqt_status pqt_sidecar_text(const pqt_wcol *cols, int n, const char *path, pqt_buf *out);

#endif
