/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_table.c - rows from tables into the streaming writer: pqt_writer_write and
 * pqt_write_table (layer: write).
 *
 * Resident columns are sliced in place. Columns the table has not read are read one source
 * row group at a time through the table's plan (the rows a slice, filter or sample kept)
 * and released after that row group went into the chunk writers, so writing a filtered
 * 10 GB file holds about one row group. A sorted plan interleaves row groups, so there the
 * column is read whole first (it stays resident).
 */
#include <string.h>

#include "util/error.h"
#include "util/mem.h"
#include "write/write_file.h"
#include "write/write_steps.h"

/* The slot of t feeding each output column (-2: the row index). */
static pqt_status map_columns(const pqt_writer *w, pqt_table *t, int *slots)
{
    for (int k = 0; k < w->ncols; k++) {
        const pqt_wcol *c = &w->cols[k];
        if (c->src_slot == -2) {
            slots[k] = -2;
            continue;
        }
        int s = t == w->template_table ? c->src_slot : pqt_tview_find(t, c->src_name);
        if (s < 0)
            return pqt_err(PQT_NOT_FOUND, "%s has no column '%s' (the writer's template has it)",
                           pqt_tview_where(t), c->src_name);
        pqt_tview_col tc;
        pqt_tview_describe(t, s, &tc);
        if (tc.kind == PQT_NONE && !tc.buf)
            return pqt_err(PQT_UNSUPPORTED_TYPE, "column '%s' of %s cannot be read", c->name,
                           pqt_tview_where(t));
        if (tc.elem_kind != c->elem_kind || tc.is_list != c->is_list)
            return pqt_err(PQT_KIND, "column '%s' of %s is %s; the writer's template had %s",
                           c->name, pqt_tview_where(t), pqt_kind_name(tc.kind),
                           pqt_kind_name(c->kind));
        if (c->wconv == PQT_WCONV_DECIMAL) {
            const pqt_col *fc = tc.fcol;
            if (!pqt_wconv_decimal_source(t, s) || fc->decimal_precision != c->logical.precision ||
                fc->decimal_scale != c->logical.scale)
                return pqt_err(PQT_KIND, "column '%s' is written as DECIMAL(%d,%d) from the "
                                         "file's exact values, but in %s it is not that "
                                         "file DECIMAL as read (cast, written, detached or "
                                         "another precision or scale)",
                               c->name, (int)c->logical.precision, (int)c->logical.scale,
                               pqt_tview_where(t));
        }
        slots[k] = s;
    }
    return PQT_OK;
}

/* Where output column k's rows come from (srcs[k]): a resident buffer, the row index, the
 * exact decimals, or the file row group by row group (the column stays unread). */
static pqt_status set_sources(pqt_writer *w, pqt_table *t, const int *slots, pqt_colbuf *ri,
                              pqt_colbuf *whole, pqt_wsrc *srcs, int64_t lo)
{
    const int64_t nrows = pqt_table_nrows(t);
    const bool permuted = pqt_tview_permuted(t);
    for (int k = 0; k < w->ncols; k++) {
        pqt_wsrc *s = &srcs[k];
        s->row0 = -lo; /* the writer's row 0 is table row lo of a resident buffer */
        s->nrows = nrows;
        if (slots[k] < 0) {
            s->buf = ri;
            continue;
        }
        pqt_tview_col c;
        pqt_tview_describe(t, slots[k], &c);
        if (w->cols[k].wconv == PQT_WCONV_DECIMAL) {
            /* the resident doubles are rounded: the unscaled integers come from the file,
             * a row group at a time, or whole under a read-time order */
            if (permuted) {
                PQT_TRY(pqt_tview_read_unscaled(t, slots[k], &whole[k]));
                s->buf = &whole[k];
                PQT_TRY(pqt_wsrc_convert(&w->cols[k], &s->buf, &s->conv, 1));
                continue;
            }
        } else if (c.buf) {
            s->buf = c.buf;
            PQT_TRY(pqt_wsrc_convert(&w->cols[k], &s->buf, &s->conv, 1));
            continue;
        } else if (pqt_tview_detached(t)) {
            const char *path = pqt_tview_file_path(t);
            return pqt_err(PQT_DETACHED, "column '%s' was never read and the table has detached "
                                         "from %s: it can no longer be read",
                           c.name, path ? path : "its file");
        } else if (!c.fcol) {
            return pqt_err(PQT_MISUSE, "column '%s' has no values and no file to read them from",
                           c.name);
        } else if (permuted || (w->cols[k].group_def > 0 && !pqt_wstruct_has_source(w, k))) {
            /* a sorted plan interleaves row groups, and a struct leaf without its groups'
             * presence from the file decides them from its nulls together with the other
             * leaves, before the columns' tasks: the column is read whole (and stays) */
            PQT_TRY(pqt_tview_touch(t, slots[k], "pqt_writer_write"));
            pqt_tview_describe(t, slots[k], &c);
            s->buf = c.buf;
            PQT_TRY(pqt_wsrc_convert(&w->cols[k], &s->buf, &s->conv, 1));
            continue;
        }
        s->buf = NULL;
        s->read = true;
        s->t = t;
        s->slot = slots[k];
        s->nrows = 0;
    }
    return PQT_OK;
}

/* Table rows [lo, lo + nw) of t into w (the whole table: 0, nrows). */
static pqt_status write_rows(pqt_writer *w, pqt_table *t, int64_t lo, int64_t nw, const char *call)
{
    if (!w || !t) return pqt_err(PQT_MISUSE, "%s: writer or table is NULL", call);
    if (w->failed)
        return pqt_err(PQT_MISUSE, "%s: %s: an earlier write failed; only pqt_writer_abort "
                                   "remains",
                       call, w->path);
    PQT_TVIEW_HOLD(t, call, "writing a table");
    int n = w->ncols;
    int *slots = pqt_calloc((size_t)n + 1, sizeof *slots);
    pqt_colbuf *whole = pqt_calloc((size_t)n + 1, sizeof *whole);
    pqt_wsrc *srcs = pqt_calloc((size_t)n + 1, sizeof *srcs);
    pqt_colbuf ri;
    memset(&ri, 0, sizeof ri);
    pqt_status st = slots && whole && srcs ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
    if (st == PQT_OK) st = map_columns(w, t, slots);
    if (st == PQT_OK) st = pqt_wstruct_source(w, t, slots); /* struct groups (write_struct_src.c) */
    bool want_ri = false;
    for (int k = 0; slots && k < n; k++) want_ri = want_ri || slots[k] == -2;
    if (st == PQT_OK && want_ri) {
        if (!pqt_tview_attached(t))
            st = pqt_err(PQT_DETACHED, "the row index '%s' needs a table still attached to its "
                                       "file",
                         w->o.row_index_name);
        else
            st = pqt_tview_file_rows(t, &ri);
    }
    if (st == PQT_OK && nw > 0) st = set_sources(w, t, slots, &ri, whole, srcs, lo);
    if (st == PQT_OK && nw > 0) st = pqt_writer_add_rows(w, srcs, nw);
    for (int k = 0; whole && srcs && k < n; k++) {
        pqt_colbuf_free(&whole[k]);
        pqt_wsrc_free(&srcs[k]);
    }
    pqt_mem_free(whole);
    pqt_mem_free(srcs);
    pqt_colbuf_free(&ri);
    pqt_mem_free(slots);
    pqt_wstruct_source_free(w);
    if (st != PQT_OK) {
        w->failed = true;
        pqt_err_prefix("%s: %s: ", call, w->path);
        pqt_writer_keep_failure(w, st);
    }
    return st;
}

pqt_status pqt_writer_write(pqt_writer *w, pqt_table *t)
{
    return write_rows(w, t, 0, pqt_table_nrows(t), "pqt_writer_write");
}

pqt_status pqt_writer_write_range(pqt_writer *w, pqt_table *t, int64_t lo, int64_t n)
{
    const char *call = "pqt_write_dataset";
    int64_t nrows = pqt_table_nrows(t);
    if (!w || !t || lo < 0 || n < 0 || lo > nrows - n)
        return pqt_err(PQT_MISUSE, "%s: rows %lld..%lld of a table of %lld", call,
                       (long long)lo + 1, (long long)(lo + n), (long long)nrows);
    /* a part of the rows is taken from resident buffers only: reads through the plan, the
     * row index and the source's struct presence all start at the table's first row */
    if ((lo > 0 || n < nrows) && pqt_tview_attached(t))
        return pqt_err(PQT_MISUSE, "%s: %s: a range of rows is written only from a table "
                                   "no longer attached to its file",
                       call, pqt_tview_where(t));
    for (int s = 0; s < pqt_tview_ncols(t); s++) {
        pqt_tview_col c;
        pqt_tview_describe(t, s, &c);
        if (!c.buf && c.kind != PQT_NONE && (lo > 0 || n < nrows))
            return pqt_err(PQT_MISUSE, "%s: column '%s' of %s is not resident", call, c.name,
                           pqt_tview_where(t));
    }
    return write_rows(w, t, lo, n, call);
}

pqt_status pqt_write_table(pqt_table *t, const char *path, const pqt_write_opts *opts)
{
    pqt_writer *w = NULL;
    PQT_TRY(pqt_writer_open(&w, path, t, opts));
    w->template_table = t;
    pqt_status st = pqt_writer_write(w, t);
    if (st != PQT_OK) {
        pqt_writer_abort(w);
        return st;
    }
    return pqt_writer_close(w);
}

void pqt_writer_set_progress(pqt_writer *w, pqt_write_progress_fn fn, void *user)
{
    if (!w) return;
    w->progress = fn;
    w->progress_user = user;
}
