/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_steps.c - a table's rows into the column-chunk writers, column by column in parallel
 * (layer: write).
 *
 * Each column is one task for a whole step: it reads the source row groups its rows are in
 * (when the table has not read the column), shreds and encodes them, and closes its chunk
 * when the step ends a row group. The columns are independent, so a step has one barrier
 * (not one for reading, one per encoding batch and one for closing the chunks), and the
 * largest columns start first so that two threads finish together. A step is as many rows as
 * the row group has room for: rows, and bytes at the bytes per row seen so far; the first
 * step of a writer is short, to learn that rate.
 */
#include <omp.h>
#include <string.h>

#include "util/error.h"
#include "util/mem.h"
#include "util/par.h"
#include "write/write_file.h"
#include "write/write_steps.h"

/* Rows of the writer's first step, before it knows the bytes per row. */
#define PROBE_ROWS 1024

/* Sets for `nthr` step threads (write_steps.h). */
static pqt_status ensure_threads(pqt_writer *w, int nthr)
{
    if (nthr <= w->nthr) return PQT_OK;
    pqt_wthread *t = pqt_realloc(w->thr, (size_t)nthr * sizeof *t);
    if (!t) return pqt_err(PQT_NOMEM, "out of memory");
    memset(t + w->nthr, 0, (size_t)(nthr - w->nthr) * sizeof *t);
    w->thr = t;
    for (; w->nthr < nthr; w->nthr++) PQT_TRY(pqt_codec_ctx_new(&t[w->nthr].codec));
    return PQT_OK;
}

void pqt_writer_free_threads(pqt_writer *w)
{
    for (int i = 0; i < w->nthr; i++) {
        pqt_chunk_ctx_free(w->thr[i].read_cx);
        pqt_codec_ctx_free(w->thr[i].codec);
        pqt_buf_free(&w->thr[i].scratch);
        pqt_buf_free(&w->thr[i].comp);
    }
    pqt_mem_free(w->thr);
    w->thr = NULL;
    w->nthr = 0;
}

/* Lend t's compressor and page buffers to chunk ch, or take them back (the same swap). */
static void swap_lent(pqt_wchunk *ch, pqt_wthread *t)
{
    pqt_codec_ctx *c = ch->codec;
    ch->codec = t->codec;
    t->codec = c;
    pqt_buf b = ch->scratch;
    ch->scratch = t->scratch;
    t->scratch = b;
    b = ch->comp;
    ch->comp = t->comp;
    t->comp = b;
}

pqt_status pqt_wsrc_convert(const pqt_wcol *c, const pqt_colbuf **buf, pqt_colbuf *conv,
                            int64_t row0)
{
    if (c->wconv == PQT_WCONV_NONE || c->ptype != PQT_PT_FIXED_LEN_BYTE_ARRAY) return PQT_OK;
    pqt_wconv_free(conv);
    PQT_TRY(pqt_wconv_buf(c, *buf, row0, conv));
    *buf = conv;
    return PQT_OK;
}

/* Move s to the next planned row group holding rows, reading it with decoding context *cxp
 * (a DECIMAL written exactly reads its unscaled integers). Its arrays come from the row
 * group before's (s->spare): memory fresh from the kernel is zeroed on first touch, which
 * cost as much as the decoding. */
static pqt_status next_rg(pqt_wsrc *s, const pqt_wcol *wc, pqt_chunk_ctx **cxp)
{
    int nrg = pqt_tview_nrg(s->t);
    while (s->next_rg < nrg && pqt_tview_rg_rows(s->t, s->next_rg, NULL) == 0) s->next_rg++;
    if (s->next_rg >= nrg)
        return pqt_err(PQT_MISUSE, "column '%s': no rows left to read", wc->name);
    int rg = s->next_rg++;
    pqt_tview_col c;
    pqt_tview_describe(s->t, s->slot, &c);
    /* the buffers of the row group before become the spare of this read (not after a cast:
     * it converted them) */
    pqt_colbuf_free(&s->spare);
    if (!c.cast) s->spare = s->tmp;
    else pqt_colbuf_free(&s->tmp);
    memset(&s->tmp, 0, sizeof s->tmp);
    s->buf = NULL;
    PQT_TRY(pqt_tview_read_rg(s->t, s->slot, rg, wc->wconv == PQT_WCONV_DECIMAL, &s->rc, &s->tmp,
                              &s->spare, cxp));
    s->buf = &s->tmp;
    s->nrows = pqt_tview_rg_rows(s->t, rg, &s->row0);
    return pqt_wsrc_convert(wc, &s->buf, &s->conv, s->row0 + 1);
}

/* Column k's rows [at, at + n) of the table into its chunk, on step thread `thread`; the
 * chunk is closed when finish is set. */
static pqt_status column_rows(pqt_writer *w, pqt_wsrc *s, int k, int64_t at, int64_t n,
                              bool finish, int thread)
{
    pqt_wchunk *ch = &w->chunks[k];
    const uint16_t *struct_def = ch->struct_def; /* the step's rows, from pqt_wstruct_rows */
    const int64_t step_at = at;
    while (n > 0) {
        if (!s->buf || at >= s->row0 + s->nrows)
            PQT_TRY(next_rg(s, &w->cols[k], &w->thr[thread].read_cx));
        int64_t take = s->row0 + s->nrows - at;
        if (take > n) take = n;
        if (struct_def) { /* this piece's rows, indexed by its buffer's rows */
            ch->struct_def = struct_def + (at - step_at);
            ch->struct_r0 = at - s->row0;
        }
        pqt_wmeta_observe_col(w, k, s->buf, at - s->row0, take);
        PQT_TRY(pqt_wchunk_add(ch, s->buf, at - s->row0, take, at + 1));
        at += take;
        n -= take;
    }
    if (s->read && s->buf && at >= s->row0 + s->nrows) {
        /* the row group read is used up: its memory goes to the large-block cache for the
         * next column's read, instead of each column keeping its own until its next read */
        pqt_colbuf_free_recycled(&s->tmp);
        pqt_colbuf_free(&s->spare);
        s->buf = NULL;
    }
    return finish ? pqt_wchunk_finish(ch) : PQT_OK;
}

static int64_t chunk_nbytes(const pqt_writer *w)
{
    int64_t s = 0;
    for (int k = 0; k < w->ncols; k++) s += pqt_wchunk_nbytes(&w->chunks[k]);
    return s;
}

/* Column order for a step: the largest columns of the row group before first (its encoded
 * bytes; before any, the bytes per value guessed from the schema). */
static void order_columns(const pqt_writer *w, int *order)
{
    int n = w->ncols;
    for (int k = 0; k < n; k++) order[k] = k;
    for (int i = 1; i < n; i++) { /* insertion sort: a few columns, usually already in order */
        int x = order[i], j = i;
        while (j > 0 && w->col_weight[order[j - 1]] < w->col_weight[x]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
}

/* Struct leaves: the definition level of a null in each row of the step (write_struct.c),
 * decided by the source's presence and the resident leaves before the columns' tasks. */
static pqt_status struct_levels(pqt_writer *w, pqt_wsrc *srcs, int64_t at, int64_t n)
{
    int nc = w->ncols;
    bool any = false;
    for (int k = 0; k < nc; k++) any = any || w->cols[k].group_def > 0;
    if (!any) return PQT_OK;
    const pqt_colbuf **bufs = pqt_calloc((size_t)nc, sizeof *bufs);
    int64_t *r0s = pqt_calloc((size_t)nc, sizeof *r0s);
    pqt_status st = bufs && r0s ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
    for (int k = 0; st == PQT_OK && k < nc; k++) {
        bufs[k] = srcs[k].read ? NULL : srcs[k].buf;
        r0s[k] = bufs[k] ? -srcs[k].row0 : 0; /* a range of rows starts inside the buffer */
    }
    if (st == PQT_OK) st = pqt_wstruct_rows(w, bufs, r0s, at, n, at);
    pqt_mem_free(bufs);
    pqt_mem_free(r0s);
    return st;
}

/* fn(w, k, thread, arg) for every column k, on PQT_WOPT_THREADS step threads (the largest
 * columns first), each call with what its thread lends (write_steps.h); the first failure
 * in column order is returned with its message. */
typedef pqt_status (*column_fn)(pqt_writer *w, int k, int thread, void *arg);

static pqt_status lent_call(pqt_writer *w, column_fn fn, int k, int thread, void *arg)
{
    swap_lent(&w->chunks[k], &w->thr[thread]);
    pqt_status st = fn(w, k, thread, arg);
    swap_lent(&w->chunks[k], &w->thr[thread]);
    return st;
}

static pqt_status each_column(pqt_writer *w, column_fn fn, void *arg)
{
    int nc = w->ncols;
    int nthr = pqt_par_threads_for(w->o.threads, nc);
    PQT_TRY(ensure_threads(w, nthr));
    if (nthr <= 1) {
        for (int k = 0; k < nc; k++) PQT_TRY(lent_call(w, fn, k, 0, arg));
        return PQT_OK;
    }
    int *order = pqt_calloc((size_t)nc, sizeof *order);
    if (!order) return pqt_err(PQT_NOMEM, "out of memory");
    order_columns(w, order);
    pqt_par_fail pf; /* a failure is the first in column order, not the first to happen */
    pqt_par_fail_init(&pf);
#pragma omp parallel num_threads(nthr)
    {
        pqt_par_thread th;
        pqt_par_enter(&th);
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < nc; i++) {
            int k = order[i];
            if (pqt_par_skip(&pf, k)) continue;
            pqt_par_fail_note(&pf, k, lent_call(w, fn, k, omp_get_thread_num(), arg), &th);
        }
        pqt_par_leave(&th);
    }
    pqt_mem_free(order);
    return pqt_par_fail_raise(&pf);
}

typedef struct step_args {
    pqt_wsrc *srcs;
    int64_t at, n;
    bool finish;
} step_args;

static pqt_status step_fn(pqt_writer *w, int k, int thread, void *arg)
{
    const step_args *a = arg;
    return column_rows(w, &a->srcs[k], k, a->at, a->n, a->finish, thread);
}

static pqt_status run_step(pqt_writer *w, pqt_wsrc *srcs, int64_t at, int64_t n, bool finish)
{
    PQT_TRY(struct_levels(w, srcs, at, n));
    step_args a = {srcs, at, n, finish};
    return each_column(w, step_fn, &a);
}

static pqt_status finish_fn(pqt_writer *w, int k, int thread, void *arg)
{
    (void)thread;
    (void)arg;
    return pqt_wchunk_finish(&w->chunks[k]);
}

pqt_status pqt_writer_finish_chunks(pqt_writer *w) { return each_column(w, finish_fn, NULL); }

/* The last row (exclusive) of a source row group read for the columns that lies in
 * (lo, hi), or -1: where a row group that would end at hi ends instead under the default
 * limits, so that no column holds a part-used row group read from one step to the next. */
static int64_t source_end_before(const pqt_writer *w, const pqt_wsrc *srcs, int64_t lo,
                                 int64_t hi)
{
    const pqt_table *t = NULL;
    for (int k = 0; k < w->ncols && !t; k++)
        if (srcs[k].read && srcs[k].t) t = srcs[k].t;
    if (!t || pqt_tview_permuted(t)) return -1;
    int64_t best = -1;
    for (int rg = 0, nrg = pqt_tview_nrg(t); rg < nrg; rg++) {
        int64_t first = 0, n = pqt_tview_rg_rows(t, rg, &first), end = first + n;
        if (n > 0 && end > lo && end < hi && end > best) best = end;
    }
    return best;
}

/* After the writer's first step: room in each chunk for `rows` more rows of pages at the rate
 * the step saw (values before compression: a bound), so that the pages do not grow by
 * doubling, each time a copy into fresh memory. Room never written costs nothing, and this
 * is only a hint: without the memory the pages grow as before. */
static void reserve_pages(pqt_writer *w, int64_t rows)
{
    for (int k = 0; k < w->ncols; k++) {
        pqt_wchunk *ch = &w->chunks[k];
        if (ch->nrows <= 0) continue;
        double want = (double)pqt_wchunk_nbytes(ch) / (double)ch->nrows * (double)rows * 1.1;
        if (want <= (double)ch->pages.cap || want > (double)w->o.rg_nbytes) continue;
        char ignored[8]; /* a failure here is no failure of the write: its message too */
        pqt_err_target prev = pqt_err_redirect(ignored, sizeof ignored);
        (void)pqt_buf_reserve(&ch->pages, (size_t)want);
        pqt_err_restore(prev);
    }
}

pqt_status pqt_writer_add_rows(pqt_writer *w, pqt_wsrc *srcs, int64_t nrows)
{
    int64_t done = 0;
    pqt_status st = PQT_OK;
    while (st == PQT_OK && done < nrows) {
        int64_t step = nrows - done, room = w->o.rg_rows - w->rg_nrows;
        bool ends_rg = false;
        if (step >= room) {
            step = room;
            ends_rg = true;
        }
        if (w->bytes_per_row <= 0) {
            if (step > PROBE_ROWS) {
                step = PROBE_ROWS;
                ends_rg = false;
            }
        } else {
            int64_t left = w->o.rg_nbytes - chunk_nbytes(w);
            int64_t fit = left > 0 ? left / w->bytes_per_row : 0;
            if (fit < 1) fit = 1;
            if (step >= fit) {
                step = fit;
                ends_rg = true;
            }
        }
        if (ends_rg && !w->o.rg_limit_set && w->bytes_per_row > 0) {
            int64_t end = source_end_before(w, srcs, done - w->rg_nrows, done + step);
            if (end > done) step = end - done;
            else if (end == done && w->rg_nrows > 0) step = 0; /* it ended with the last step */
        }
        st = step > 0 ? run_step(w, srcs, done, step, ends_rg) : PQT_OK;
        for (int k = 0; k < w->ncols; k++)
            if (srcs[k].t && srcs[k].read) {
                pqt_tview_add_counters(srcs[k].t, srcs[k].slot, &srcs[k].rc);
                memset(&srcs[k].rc, 0, sizeof srcs[k].rc);
            }
        if (st != PQT_OK) break;
        w->rg_nrows += step;
        w->nrows += step;
        done += step;
        int64_t pending = chunk_nbytes(w);
        bool first_step = w->bytes_per_row <= 0;
        /* the latest rate: the encoded pages of the row group so far, and the values of
         * each column's open page */
        if (w->rg_nrows > 0) w->bytes_per_row = pending / w->rg_nrows + 1;
        if (first_step && !ends_rg) {
            int64_t rows = nrows - done, room_left = w->o.rg_rows - w->rg_nrows;
            reserve_pages(w, rows < room_left ? rows : room_left);
        }
        if (ends_rg || pending >= w->o.rg_nbytes) {
            st = pqt_writer_flush_rg(w);
            pending = 0;
        }
        if (st == PQT_OK && w->progress) w->progress(w->progress_user, w->nrows, w->off + pending);
    }
    return st;
}

void pqt_wsrc_free(pqt_wsrc *s)
{
    pqt_colbuf_free(&s->tmp);
    pqt_colbuf_free(&s->spare);
    pqt_wconv_free(&s->conv);
    memset(s, 0, sizeof *s);
}
