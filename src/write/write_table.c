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
#include <omp.h>
#include <string.h>

#include "util/error.h"
#include "util/mem.h"
#include "write/write_file.h"

typedef struct add_arg {
    const pqt_colbuf **bufs;
    const int64_t *r0s;
    int64_t at, n, row_no;
} add_arg;

static pqt_status add_fn(pqt_wchunk *ch, void *arg, int k)
{
    const add_arg *a = arg;
    return pqt_wchunk_add(ch, a->bufs[k], a->r0s[k] + a->at, a->n, a->row_no + a->at);
}

static int64_t chunk_nbytes(const pqt_writer *w)
{
    int64_t s = 0;
    for (int k = 0; k < w->ncols; k++) s += pqt_wchunk_nbytes(&w->chunks[k]);
    return s;
}

/* Rows r0s[k] .. + n of every column's buffer; row_no: the table row (1-based) of the first. */
static pqt_status add_rows(pqt_writer *w, const pqt_colbuf **bufs, const int64_t *r0s, int64_t n,
                           int64_t row_no)
{
    pqt_wmeta_observe(w, bufs, r0s, n);
    int64_t done = 0;
    while (done < n) {
        int64_t take = n - done, room = w->o.rg_rows - w->rg_nrows;
        if (take > room) take = room;
        /* Each step is one parallel region over the columns: steps of 131072 rows spent more
         * time in OpenMP barriers than encoding on a busy machine, so a step takes as many rows
         * as the row group's byte limit has room for at the bytes per row seen so far (at
         * least 131072), and the limit is still looked at often enough. */
        int64_t step = 131072, have = chunk_nbytes(w);
        if (w->rg_nrows > 0 && have < w->o.rg_nbytes) {
            int64_t fit = (w->o.rg_nbytes - have) / (have / w->rg_nrows + 1) / 2;
            if (fit > step) step = fit;
        }
        if (take > step) take = step;
        add_arg a = {bufs, r0s, done, take, row_no};
        PQT_TRY(pqt_wstruct_rows(w, bufs, r0s, done, take, row_no - 1 + done)); /* structs */
        PQT_TRY(pqt_writer_each_chunk(w, add_fn, &a));
        w->rg_nrows += take;
        w->nrows += take;
        done += take;
        int64_t pending = chunk_nbytes(w);
        if (w->rg_nrows >= w->o.rg_rows || pending >= w->o.rg_nbytes) {
            PQT_TRY(pqt_writer_flush_rg(w));
            pending = 0;
        }
        if (w->progress) w->progress(w->progress_user, w->nrows, w->off + pending);
    }
    return PQT_OK;
}

static int slot_elem_kind(const pqt_table *t, const pqt_tcol *c)
{
    if (c->residency == PQT_RES_FULL) return c->buf.elem_kind;
    if (c->kind_known) return PQT_KIND_ELEMENT(c->kind);
    return c->decode_kind ? c->decode_kind : t->f->schema.cols[c->file_col].elem_kind;
}

static bool slot_is_list(const pqt_table *t, const pqt_tcol *c)
{
    if (c->residency == PQT_RES_FULL) return c->buf.is_list;
    return (c->kind & (PQT_VECTOR | PQT_LIST)) ||
           (c->file_col >= 0 && t->f && t->f->schema.cols[c->file_col].is_list);
}

/* The slot of t feeding each output column (-2: the row index). */
static pqt_status map_columns(const pqt_writer *w, pqt_table *t, int *slots)
{
    for (int k = 0; k < w->ncols; k++) {
        const pqt_wcol *c = &w->cols[k];
        if (c->src_slot == -2) {
            slots[k] = -2;
            continue;
        }
        int s = t == w->template_table ? c->src_slot : pqt_tbl_find(t, c->src_name);
        if (s < 0)
            return pqt_err(PQT_NOT_FOUND, "%s has no column '%s' (the writer's template has it)",
                           pqt_tbl_where(t), c->src_name);
        const pqt_tcol *tc = &t->cols[s];
        if (tc->kind == PQT_NONE && tc->residency != PQT_RES_FULL)
            return pqt_err(PQT_UNSUPPORTED_TYPE, "column '%s' of %s cannot be read", c->name,
                           pqt_tbl_where(t));
        if (slot_elem_kind(t, tc) != c->elem_kind || slot_is_list(t, tc) != c->is_list)
            return pqt_err(PQT_KIND, "column '%s' of %s is %s; the writer's template had %s",
                           c->name, pqt_tbl_where(t), pqt_kind_name(tc->kind),
                           pqt_kind_name(c->kind));
        if (c->wconv == PQT_WCONV_DECIMAL) {
            const pqt_col *fc = tc->file_col >= 0 && t->f ? &t->f->schema.cols[tc->file_col] : NULL;
            if (!pqt_wconv_decimal_source(t, s) || fc->decimal_precision != c->logical.precision ||
                fc->decimal_scale != c->logical.scale)
                return pqt_err(PQT_KIND, "column '%s' is written as DECIMAL(%d,%d) from the "
                                         "file's exact values, but in %s it is not that "
                                         "file DECIMAL as read (cast, written, detached or "
                                         "another precision or scale)",
                               c->name, (int)c->logical.precision, (int)c->logical.scale,
                               pqt_tbl_where(t));
        }
        slots[k] = s;
    }
    return PQT_OK;
}

/* A column's decode buffer, reused by every row group. */
typedef struct pqt_reuse {
    void *mem;
    size_t cap;
} pqt_reuse;

/* Read slot c's rows of physical row group rg through the plan into b (not resident); a
 * DECIMAL written exactly reads its unscaled integers. The scan counters go to *rc (the caller
 * adds them: reads may run on several threads). */
static pqt_status read_rg(pqt_table *t, pqt_tcol *c, const pqt_wcol *wc, int rg, pqt_colbuf *b,
                          pqt_read_counters *rc, pqt_reuse *keep)
{
    const pqt_plan *p = &t->plan;
    const pqt_col *fc = &t->f->schema.cols[c->file_col];
    pqt_col dc;
    if (wc->wconv == PQT_WCONV_DECIMAL) {
        PQT_TRY(pqt_file_decimal_col(t->f, c->file_col, &dc));
        fc = &dc;
    }
    const int64_t zero = 0;
    /* fixed-width scalars decode into one buffer kept from row group to row group: memory
     * fresh from the kernel is zeroed on first touch, which cost a copy as much CPU as
     * decoding */
    void *into = NULL;
    size_t en = pqt_kind_elem_nbytes(fc->elem_kind);
    if (fc->elem_kind != PQT_STRING && !fc->is_list && !c->decode_kind && en > 0) {
        size_t need = ((size_t)p->sel[rg].nsel + 1) * en;
        if (keep->cap < need) {
            pqt_mem_free(keep->mem);
            keep->mem = pqt_malloc(need);
            keep->cap = keep->mem ? need : 0;
        }
        into = keep->mem;
    }
    pqt_status st = pqt_file_read_span(t->f, fc, rg, 1, &p->sel[rg], &zero, p->sel[rg].nsel, 1,
                                       rc, b, into);
    if (st == PQT_OK && c->decode_kind) {
        st = pqt_tbl_buf_convert(b, c->decode_kind, c->cast_exact, c->name);
        if (st != PQT_OK) pqt_colbuf_free(b);
    }
    if (st != PQT_OK) pqt_err_prefix("column '%s', row group %d: ", c->name, rg + 1);
    return st;
}

/* Columns whose leaf wants other bytes than the table's (FIXED_LEN_BYTE_ARRAY decimals, UUID)
 * go to the chunk writer through conv[k]. */
static pqt_status convert_buf(const pqt_wcol *c, const pqt_colbuf **buf, pqt_colbuf *conv,
                              int64_t row0)
{
    if (c->wconv == PQT_WCONV_NONE || c->ptype != PQT_PT_FIXED_LEN_BYTE_ARRAY) return PQT_OK;
    pqt_wconv_free(conv);
    PQT_TRY(pqt_wconv_buf(c, *buf, row0, conv));
    *buf = conv;
    return PQT_OK;
}

/* Read row group rg of every column not resident, on the writer's threads (the columns are
 * independent: with two threads a copy decodes two columns while it encodes none, then
 * encodes two at once). The first failure in column order is returned. */
static pqt_status read_cols(pqt_writer *w, pqt_table *t, const int *slots, int rg, pqt_colbuf *tmp,
                            pqt_read_counters *rcs, bool *todo, pqt_reuse *keep)
{
    int n = w->ncols, nread = 0;
    for (int k = 0; k < n; k++) {
        pqt_tcol *c = slots[k] >= 0 ? &t->cols[slots[k]] : NULL;
        todo[k] = c && (w->cols[k].wconv == PQT_WCONV_DECIMAL ? !t->plan.perm
                                                               : c->residency != PQT_RES_FULL);
        nread += todo[k];
        memset(&rcs[k], 0, sizeof rcs[k]);
    }
    int nthr = w->o.threads == 0 ? omp_get_max_threads() : w->o.threads;
    if (omp_in_parallel() || nthr > nread) nthr = omp_in_parallel() ? 1 : nread;
    pqt_status st = PQT_OK;
    if (nthr <= 1) {
        for (int k = 0; k < n && st == PQT_OK; k++)
            if (todo[k]) st = read_rg(t, &t->cols[slots[k]], &w->cols[k], rg, &tmp[k], &rcs[k], &keep[k]);
    } else {
        pqt_status *sts = pqt_calloc((size_t)n, sizeof *sts);
        char(*msgs)[512] = pqt_calloc((size_t)n, 512);
        if (!sts || !msgs) {
            pqt_mem_free(sts);
            pqt_mem_free(msgs);
            return pqt_err(PQT_NOMEM, "out of memory");
        }
#pragma omp parallel for num_threads(nthr) schedule(dynamic, 1)
        for (int k = 0; k < n; k++) {
            if (!todo[k]) continue;
            pqt_err_target prev = pqt_err_redirect(msgs[k], 512);
            sts[k] = read_rg(t, &t->cols[slots[k]], &w->cols[k], rg, &tmp[k], &rcs[k], &keep[k]);
            pqt_err_restore(prev);
        }
        for (int k = 0; k < n && st == PQT_OK; k++)
            if (sts[k] != PQT_OK) st = pqt_err(sts[k], "%s", msgs[k]);
        pqt_mem_free(sts);
        pqt_mem_free(msgs);
    }
    for (int k = 0; k < n; k++)
        if (todo[k]) pqt_tbl_scan_add(t, &t->cols[slots[k]], &rcs[k]);
    return st;
}

static pqt_status write_rows(pqt_writer *w, pqt_table *t, int *slots, const pqt_colbuf **bufs,
                             int64_t *r0s, pqt_colbuf *tmp, pqt_colbuf *ri, pqt_colbuf *whole,
                             pqt_colbuf *conv)
{
    bool need_read = false;
    for (int k = 0; k < w->ncols; k++) {
        if (slots[k] < 0) {
            bufs[k] = ri;
            continue;
        }
        pqt_tcol *c = &t->cols[slots[k]];
        if (w->cols[k].wconv == PQT_WCONV_DECIMAL) {
            /* the resident doubles are rounded: the unscaled integers come from the file,
             * a row group at a time, or whole under a read-time order */
            bufs[k] = NULL;
            if (!t->plan.perm) {
                need_read = true;
                continue;
            }
            PQT_TRY(pqt_tbl_read_decimal_buf(t, slots[k], &whole[k], NULL));
            bufs[k] = &whole[k];
            PQT_TRY(convert_buf(&w->cols[k], &bufs[k], &conv[k], 1));
            continue;
        }
        if (c->residency == PQT_RES_FULL) {
            bufs[k] = &c->buf;
            PQT_TRY(convert_buf(&w->cols[k], &bufs[k], &conv[k], 1));
            continue;
        }
        if (t->detached)
            return pqt_err(PQT_DETACHED, "column '%s' was never read and the table has detached "
                                         "from %s: it can no longer be read",
                           c->name, t->f ? t->f->path : "its file");
        if (c->file_col < 0)
            return pqt_err(PQT_MISUSE, "column '%s' has no values and no file to read them from",
                           c->name);
        if (t->plan.perm) {
            PQT_TRY(pqt_tbl_touch(t, slots[k], "pqt_writer_write"));
            bufs[k] = &c->buf;
            PQT_TRY(convert_buf(&w->cols[k], &bufs[k], &conv[k], 1));
            continue;
        }
        need_read = true;
        bufs[k] = NULL;
    }
    if (!need_read) {
        for (int k = 0; k < w->ncols; k++) r0s[k] = 0;
        return add_rows(w, bufs, r0s, t->nrows, 1);
    }
    const pqt_plan *p = &t->plan;
    pqt_read_counters *rcs = pqt_calloc((size_t)w->ncols + 1, sizeof *rcs);
    bool *todo = pqt_calloc((size_t)w->ncols + 1, sizeof *todo);
    pqt_reuse *keep = pqt_calloc((size_t)w->ncols + 1, sizeof *keep);
    if (!rcs || !todo || !keep) {
        pqt_mem_free(rcs);
        pqt_mem_free(todo);
        pqt_mem_free(keep);
        return pqt_err(PQT_NOMEM, "out of memory");
    }
    pqt_status st = PQT_OK;
    for (int rg = 0; rg < p->nrg && st == PQT_OK; rg++) {
        int64_t m = p->sel[rg].nsel, base = p->dst_row[rg];
        if (m == 0) continue;
        st = read_cols(w, t, slots, rg, tmp, rcs, todo, keep);
        for (int k = 0; k < w->ncols; k++) {
            if (todo[k]) {
                bufs[k] = &tmp[k];
                if (st == PQT_OK) st = convert_buf(&w->cols[k], &bufs[k], &conv[k], base + 1);
            }
            r0s[k] = todo[k] ? 0 : base;
        }
        if (st == PQT_OK) st = add_rows(w, bufs, r0s, m, base + 1);
        for (int k = 0; k < w->ncols; k++) {
            pqt_colbuf_free(&tmp[k]);
            memset(&tmp[k], 0, sizeof tmp[k]);
        }
    }
    for (int k = 0; k < w->ncols; k++) pqt_mem_free(keep[k].mem);
    pqt_mem_free(keep);
    pqt_mem_free(rcs);
    pqt_mem_free(todo);
    return st;
}

pqt_status pqt_writer_write(pqt_writer *w, pqt_table *t)
{
    const char *call = "pqt_writer_write";
    if (!w || !t) return pqt_err(PQT_MISUSE, "%s: writer or table is NULL", call);
    if (w->failed)
        return pqt_err(PQT_MISUSE, "%s: %s: an earlier write failed; only pqt_writer_abort "
                                   "remains",
                       call, w->path);
    PQT_TBL_HOLD(t, call, "writing a table");
    int n = w->ncols;
    int *slots = pqt_calloc((size_t)n + 1, sizeof *slots);
    const pqt_colbuf **bufs = pqt_calloc((size_t)n + 1, sizeof *bufs);
    int64_t *r0s = pqt_calloc((size_t)n + 1, sizeof *r0s);
    pqt_colbuf *tmp = pqt_calloc((size_t)n + 1, sizeof *tmp);
    pqt_colbuf *whole = pqt_calloc((size_t)n + 1, sizeof *whole);
    pqt_colbuf *conv = pqt_calloc((size_t)n + 1, sizeof *conv);
    pqt_colbuf ri;
    memset(&ri, 0, sizeof ri);
    pqt_status st = slots && bufs && r0s && tmp && whole && conv
                        ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
    if (st == PQT_OK) st = map_columns(w, t, slots);
    if (st == PQT_OK) st = pqt_wstruct_source(w, t, slots); /* struct groups (write_struct_src.c) */
    bool want_ri = false;
    for (int k = 0; k < n; k++) want_ri = want_ri || slots[k] == -2;
    if (st == PQT_OK && want_ri) {
        if (!t->f || t->detached)
            st = pqt_err(PQT_DETACHED, "the row index '%s' needs a table still attached to its "
                                       "file",
                         w->o.row_index_name);
        else if ((st = pqt_tbl_buf_new(&ri, PQT_INT64, false, 0, false, t->nrows, t->nrows)) == PQT_OK)
            st = pqt_plan_file_rows(&t->plan, (int64_t *)ri.data);
    }
    if (st == PQT_OK && t->nrows > 0) st = write_rows(w, t, slots, bufs, r0s, tmp, &ri, whole, conv);
    for (int k = 0; whole && conv && k < n; k++) {
        pqt_colbuf_free(&whole[k]);
        pqt_wconv_free(&conv[k]);
    }
    pqt_mem_free(whole);
    pqt_mem_free(conv);
    pqt_colbuf_free(&ri);
    pqt_mem_free(slots);
    pqt_mem_free(bufs);
    pqt_mem_free(r0s);
    pqt_mem_free(tmp);
    pqt_wstruct_source_free(w);
    if (st != PQT_OK) {
        w->failed = true;
        pqt_err_prefix("%s: %s: ", call, w->path);
    }
    return st;
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
