/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reader_width.c - the one LIST width measurement: the width every row of a LIST column
 * shares over the rows a plan holds, from the footer when it can tell, else by reading
 * (layer: read). The file's cached width and a table's width both come from here.
 */
#include <string.h>

#include "column/page_levels.h"
#include "read/request.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/par.h"

/* Tier 1, the footer alone: a uniform non-null list has exactly w level entries a row. */
static int64_t footer_width(const pqt_file_meta *m, const pqt_col *c, const pqt_plan *p)
{
    int64_t w = PQT_READ_WIDTH_NO_ROWS;
    for (int rg = 0; rg < m->n_row_groups; rg++) {
        int64_t rows = m->row_groups[rg].num_rows;
        int64_t nv = m->row_groups[rg].columns[c->chunk_col].meta.num_values;
        if ((p && p->sel[rg].nsel == 0) || rows == 0) continue;
        if (nv % rows != 0 || nv / rows < 1 || (w > 0 && nv / rows != w) || nv / rows > INT32_MAX)
            return -1;
        w = nv / rows;
    }
    return w;
}

/* Row group rg read whole. */
static pqt_status read_rg(const pqt_read_src *src, const pqt_col *c, int rg, pqt_read_counters *rc,
                          pqt_colbuf *b)
{
    pqt_sel all;
    pqt_sel_init_all(&all, src->meta->row_groups[rg].num_rows);
    const int64_t zero = 0;
    pqt_read_req rq = {.src = *src,
                       .col = c,
                       .rg0 = rg,
                       .nrg = 1,
                       .sels = &all,
                       .dst_row = &zero,
                       .nrows = all.nrows,
                       .threads = 1,
                       .counters = rc};
    return pqt_read_column(&rq, b);
}

/* Whether levels reps/defs[0..n) of nrows rows of a single list (repetition levels 0 or 1,
 * definition levels below 128: both checked by the reader) give every row exactly w element
 * slots: n = nrows * w, the row starts (rep 0) exactly the multiples of w, every entry an
 * element slot (def >= elem_def: no null or empty list). Eight levels a step without a
 * branch: a test per entry cost a third of the measurement. */
static bool levels_uniform(const uint8_t *reps, const uint8_t *defs, int64_t n, int64_t nrows,
                           int64_t w, int elem_def)
{
    if (w < 1 || n != nrows * w) return false;
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    int64_t conts = 0, k = 0;
    uint64_t low = 0; /* a high bit clear: some def below elem_def */
    uint64_t sub = ones * (uint64_t)elem_def;
    for (; k + 8 <= n; k += 8) {
        uint64_t r, d;
        memcpy(&r, reps + k, 8);
        memcpy(&d, defs + k, 8);
        conts += __builtin_popcountll(r); /* each byte 0 or 1 */
        low |= ~(((d | high) - sub) & high) & high;
    }
    for (; k < n; k++) {
        conts += reps[k];
        low |= defs[k] < elem_def;
    }
    uint8_t start_cont = 0;
    for (int64_t i = 0; i < nrows; i++) start_cont |= reps[i * w];
    return n - conts == nrows && !low && !start_cont;
}

/* Row group rg read for its levels only (no value decoded, nothing allocated per row):
 * *same whether its rows all hold w element slots. *ok false when the levels cannot be
 * taken this way (old BIT_PACKED levels, a list of lists): the caller reads the values. */
static pqt_status rg_levels_width(const pqt_read_src *src, const pqt_col *c, int rg, int64_t w,
                                  pqt_read_counters *rc, pqt_chunk_ctx *cx, pqt_buf *reps,
                                  pqt_buf *defs, bool *same, bool *ok)
{
    int64_t nrows = src->meta->row_groups[rg].num_rows;
    pqt_sel all = {0};
    pqt_sel_init_all(&all, nrows);
    pqt_colbuf none = {0}; /* levels only: nothing is written */
    pqt_chunk_src cs = {src->io, src->path, src->file_size, src->meta,    src->verify_crc,
                        true,    rc,        src->oindex,    src->members, -1};
    reps->len = defs->len = 0;
    pqt_chunk_ctx_set_level_sink(cx, reps, defs);
    pqt_chunk_ctx_set_levels_only(cx, true);
    pqt_status st = pqt_chunk_read(cx, &cs, rg, c, &all, &none, 0);
    pqt_chunk_ctx_set_levels_only(cx, false);
    pqt_chunk_ctx_set_level_sink(cx, NULL, NULL);
    pqt_sel_free(&all);
    *ok = st != PQT_UNSUPPORTED_ENCODING;
    if (!*ok) return PQT_OK; /* the values' read decides, and says what it finds */
    PQT_TRY(st);
    *same = levels_uniform(reps->data, defs->data, (int64_t)reps->len, nrows, w, c->elem_def);
    return PQT_OK;
}

/* Row group rg's rows all of width w: by their levels alone, or when those cannot be taken
 * alone, by reading the row group whole. */
static pqt_status rg_width_is(const pqt_read_src *src, const pqt_col *c, int rg, int64_t w,
                              pqt_read_counters *rc, pqt_chunk_ctx *cx, pqt_buf *reps,
                              pqt_buf *defs, bool *same)
{
    bool ok = false;
    if (c->max_rep == 1) PQT_TRY(rg_levels_width(src, c, rg, w, rc, cx, reps, defs, same, &ok));
    if (ok) return PQT_OK;
    pqt_colbuf b;
    PQT_TRY(read_rg(src, c, rg, rc, &b));
    *same = pqt_colbuf_uniform_width(&b) == w;
    pqt_colbuf_free(&b);
    return PQT_OK;
}

/* Whether row group rg takes part in a measurement over p. */
static bool rg_measured(const pqt_read_src *src, const pqt_plan *p, int rg)
{
    return !(p && p->sel[rg].nsel == 0) && src->meta->row_groups[rg].num_rows > 0;
}

/* Tier 2 in order, stopping at the first row group that disagrees. */
static pqt_status widths_serial(const pqt_read_src *src, const pqt_col *c, const pqt_plan *p,
                                int64_t w, pqt_read_counters *rc, int *w_ret)
{
    pqt_chunk_ctx *cx = NULL;
    pqt_buf reps = {0}, defs = {0};
    pqt_status st = pqt_chunk_ctx_new(&cx);
    for (int rg = 0; st == PQT_OK && rg < src->meta->n_row_groups; rg++) {
        if (!rg_measured(src, p, rg)) continue;
        bool same = false;
        st = rg_width_is(src, c, rg, w, rc, cx, &reps, &defs, &same);
        if (st == PQT_OK && !same) {
            *w_ret = -1;
            break;
        }
    }
    pqt_chunk_ctx_free(cx);
    pqt_buf_free(&reps);
    pqt_buf_free(&defs);
    return st;
}

/* Tier 2 with row groups in parallel, each thread its own context and level buffers. The
 * result is the serial one: the lowest row group that disagrees or fails decides (a failure
 * above a disagreement is not reported, as the serial walk never reads that far). */
static pqt_status widths_parallel(const pqt_read_src *src, const pqt_col *c, const pqt_plan *p,
                                  int threads, int64_t w, pqt_read_counters *rc, int *w_ret)
{
    int nrg = src->meta->n_row_groups;
    _Atomic int64_t differ = INT64_MAX; /* lowest row group seen to disagree */
    pqt_par_fail pf;
    pqt_par_fail_init(&pf);
#pragma omp parallel num_threads(pqt_par_threads_for(threads, nrg))
    {
        pqt_par_thread th;
        pqt_par_enter(&th);
        pqt_chunk_ctx *cx = NULL;
        pqt_buf reps = {0}, defs = {0};
        pqt_status tst = pqt_chunk_ctx_new(&cx);
#pragma omp for schedule(dynamic, 1)
        for (int rg = 0; rg < nrg; rg++) {
            if (!rg_measured(src, p, rg) || pqt_par_skip(&pf, rg) ||
                rg > atomic_load_explicit(&differ, memory_order_relaxed))
                continue;
            bool same = true;
            pqt_status st =
                tst != PQT_OK ? tst : rg_width_is(src, c, rg, w, rc, cx, &reps, &defs, &same);
            pqt_par_fail_note(&pf, rg, st, &th);
            if (st == PQT_OK && !same) {
                int64_t cur = atomic_load(&differ);
                while (rg < cur && !atomic_compare_exchange_weak(&differ, &cur, rg)) {
                }
            }
        }
        pqt_chunk_ctx_free(cx);
        pqt_buf_free(&reps);
        pqt_buf_free(&defs);
        pqt_par_leave(&th);
    }
    int64_t d = atomic_load(&differ);
    if (atomic_load(&pf.task) < d) return pqt_par_fail_raise(&pf);
    if (d != INT64_MAX) *w_ret = -1;
    return PQT_OK;
}

pqt_status pqt_read_list_width(const pqt_read_src *src, const pqt_col *c, const pqt_plan *p,
                               int threads, int measure, pqt_read_counters *rc, int *w_ret)
{
    pqt_colbuf b;
    if (p && p->nsel > 0 && p->nsel < p->hi - p->lo) {
        /* a filtered or sampled plan: one read of the pages holding its rows (a point
         * lookup measures one page), its rows being its scope as a slice's groups are */
        pqt_read_req rq = pqt_read_req_plan(src, c, p);
        rq.threads = threads;
        rq.counters = rc;
        PQT_TRY(pqt_read_column(&rq, &b));
        *w_ret = pqt_colbuf_uniform_width(&b);
        pqt_colbuf_free(&b);
        return PQT_OK;
    }
    int64_t w = footer_width(src->meta, c, p);
    *w_ret = (int)w;
    if (w < 1 || !measure) {
        if (w > 0) *w_ret = 0; /* only the data can tell */
        return PQT_OK;
    }
    /* Tier 2: by each row group's levels, the answer that of the first row group that
     * disagrees (or fails). The values are not needed to tell a row's width: decoding them
     * cost as much as the read that usually follows. */
    return threads > 1 ? widths_parallel(src, c, p, threads, w, rc, w_ret)
                       : widths_serial(src, c, p, w, rc, w_ret);
}
