/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reader.c - the one reader: sizing the destination, choosing a strategy, the serial and
 * fixed-width parallel strategies and the explicit fallback (layer: read).
 *
 * A read allocates its destination once at the request's row count and decodes every
 * selected row group straight into its place, so no row group is copied twice and
 * non-aligned slices are trimmed by the decoder. Fixed-width scalars decode their row
 * groups in parallel; strings and lists append, so they go in order unless a windowed
 * strategy (reader_win.c) can give every row group its own part of the destination first.
 */
#include <string.h>

#include "read/reader_int.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/par.h"

pqt_read_req pqt_read_req_plan(const pqt_read_src *src, const pqt_col *col, const pqt_plan *p)
{
    return (pqt_read_req){.src = *src,
                          .col = col,
                          .rg0 = 0,
                          .nrg = p->nrg,
                          .sels = p->sel,
                          .dst_row = p->dst_row,
                          .nrows = p->nsel,
                          .threads = 1};
}

static const int64_t first_row = 0; /* a row group read alone lands at row 0 */

pqt_read_req pqt_read_req_group(const pqt_read_src *src, const pqt_col *col, const pqt_plan *p,
                                int rg)
{
    return (pqt_read_req){.src = *src,
                          .col = col,
                          .rg0 = rg,
                          .nrg = 1,
                          .sels = &p->sel[rg],
                          .dst_row = &first_row,
                          .nrows = p->sel[rg].nsel,
                          .threads = 1};
}

/* Uncompressed bytes a chunk can really hold: its total_uncompressed_size, unless its
 * compressed bytes (within the file) cannot expand that far with its codec. -1 if negative. */
static int64_t chunk_bytes_justified(const pqt_column_meta *cm, int64_t file_size)
{
    int64_t tus = cm->total_uncompressed_size, tcs = cm->total_compressed_size;
    if (tus < 0 || tcs < 0) return -1;
    int64_t most = pqt_codec_max_nbytes(cm->codec, tcs < file_size ? tcs : file_size);
    return tus < most ? tus : most;
}

/* Checks, the used row groups, and the destination allocated once. List elements are
 * limited by the chunks' value counts, but only what their bytes can justify (8 entries a
 * byte, plus a row each) is allocated up front: a footer claiming 2^31 values in a 1 KiB
 * chunk costs nothing until the pages show the values. */
static pqt_status prepare(pqt_read_job *j, const pqt_read_req *rq, pqt_colbuf *spare, pqt_colbuf *b)
{
    const pqt_file_meta *m = rq->src.meta;
    const pqt_col *c = rq->col;
    int64_t file_size = rq->src.file_size;
    if (rq->rg0 < 0 || rq->nrg < 0 || rq->rg0 > m->n_row_groups - rq->nrg) {
        if (spare) pqt_colbuf_free(spare);
        return pqt_err(PQT_MISUSE, "%s: row groups %d..%d requested, the file has %d", rq->src.path,
                       rq->rg0 + 1, rq->rg0 + rq->nrg, m->n_row_groups);
    }
    *j = (pqt_read_job){.rq = rq, .groups = m->row_groups + rq->rg0, .first = -1, .last = -1};
    j->src = (pqt_chunk_src){rq->src.io,         rq->src.path, file_size,    m,
                             rq->src.verify_crc, false,        rq->counters, rq->src.oindex,
                             rq->src.members,    -1};
    if (c->elem_kind == PQT_NONE) {
        if (spare) pqt_colbuf_free(spare);
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' cannot be read: %s", rq->src.path,
                       c->path, c->why_unsupported ? c->why_unsupported : "unsupported type");
    }
    int64_t elem_cap = 0, elem_just = rq->nrows, str_nbytes = 0;
    for (int rg = 0; rg < rq->nrg; rg++) {
        if (!pqt_read_used(&rq->sels[rg])) continue;
        if (j->first < 0) j->first = rg;
        j->last = rg;
        j->nused++;
        const pqt_column_meta *cm = &j->groups[rg].columns[c->chunk_col].meta;
        int64_t u = chunk_bytes_justified(cm, file_size);
        if (PQT_KIND_IS_BYTES(c->elem_kind)) {
            /* string bytes never exceed the chunk's uncompressed size: reserve once */
            if (u > 0 && u <= file_size * 64 && str_nbytes <= INT64_MAX - u) str_nbytes += u;
        }
        if (c->is_list && u > 0)
            elem_just = u > (INT64_MAX / 8 - elem_just) / 8 ? INT64_MAX / 8 : elem_just + u * 8;
        if (c->is_list) {
            /* a chunk's value count bounds the elements it can produce */
            int64_t nv = cm->num_values;
            if (nv < 0 || elem_cap > INT64_MAX - nv) {
                if (spare) pqt_colbuf_free(spare);
                return pqt_err(PQT_CORRUPT, "%s: column '%s', row group %d: bad value count %lld",
                               rq->src.path, c->path, rq->rg0 + rg + 1, (long long)nv);
            }
            elem_cap += nv;
        }
    }
    PQT_TRY(pqt_colbuf_alloc_reusing(b, c, rq->nrows, elem_cap < elem_just ? elem_cap : elem_just,
                                     rq->borrowed_data, spare));
    b->elem_limit = elem_cap;
    j->elem_cap = elem_cap;
    if (str_nbytes > 0 && pqt_buf_reserve(&b->str_bytes, (size_t)str_nbytes) != PQT_OK)
        b->str_bytes.len = 0; /* only a hint: the buffer still grows on demand */
    return PQT_OK;
}

/* Fixed-width scalars: every row group decodes into its own rows of b. */
static pqt_status fixed_rg(pqt_read_job *j, pqt_chunk_ctx *cx, int rg, pqt_colbuf *b, void *arg)
{
    (void)arg;
    const pqt_read_req *rq = j->rq;
    return pqt_chunk_read(cx, &j->src, rq->rg0 + rg, rq->col, &rq->sels[rg], b, rq->dst_row[rg]);
}

/* Row groups in order on this thread, with the caller's context when it gave one. */
static pqt_status read_serial(pqt_read_job *j, pqt_colbuf *b)
{
    const pqt_read_req *rq = j->rq;
    pqt_chunk_ctx *cx = rq->serial_cx;
    pqt_status st = PQT_OK;
    j->src.serial = true;
    if (!cx) st = pqt_chunk_ctx_new(&cx);
    for (int rg = j->first; st == PQT_OK && rg <= j->last; rg++) {
        if (!pqt_read_used(&rq->sels[rg])) continue;
        /* lists append: their destination row is implied by the rows already written */
        st = pqt_chunk_read(cx, &j->src, rq->rg0 + rg, rq->col, &rq->sels[rg], b,
                            rq->col->is_list ? b->nrows : rq->dst_row[rg]);
    }
    if (cx != rq->serial_cx) pqt_chunk_ctx_free(cx);
    return st;
}

/* One attempt: prepare, choose, run. *retry when the lists' windows proved wrong. */
static pqt_status attempt(const pqt_read_req *rq, pqt_colbuf *spare, pqt_colbuf *b,
                          pqt_read_strategy *used, bool *retry)
{
    pqt_read_job j;
    PQT_TRY(prepare(&j, rq, spare, b));
    const pqt_col *c = rq->col;
    bool many = j.nused > 1 && rq->threads > 1;
    pqt_status st = PQT_OK;
    *used = PQT_READ_NOTHING;
    if (j.first < 0) {
        /* nothing selected: an empty column */
    } else if (many && c->is_list && !PQT_KIND_IS_BYTES(c->elem_kind) &&
               b->elem_cap == j.elem_cap && pqt_read_lists_win_fits(&j, b)) {
        *used = PQT_READ_LISTS_WIN;
        st = pqt_read_lists_win(&j, b, retry);
    } else if (many && !c->is_list && PQT_KIND_IS_BYTES(c->elem_kind) &&
               pqt_read_strings_win_fits(&j, b)) {
        *used = PQT_READ_STRINGS_WIN;
        st = pqt_read_strings_win(&j, b);
    } else if (many && !c->is_list && !PQT_KIND_IS_BYTES(c->elem_kind)) {
        *used = PQT_READ_FIXED_PAR;
        st = pqt_read_parallel(&j, b, fixed_rg, NULL);
    } else {
        *used = PQT_READ_SERIAL;
        st = read_serial(&j, b);
    }
    pqt_read_win_free(&j);
    if (st == PQT_OK && !*retry && c->is_list && b->nrows != rq->nrows)
        st = pqt_err(PQT_CORRUPT, "%s: column '%s': read %lld list rows, expected %lld",
                     rq->src.path, c->path, (long long)b->nrows, (long long)rq->nrows);
    if (st != PQT_OK || *retry) pqt_colbuf_free(b);
    return st;
}

pqt_status pqt_read_column(const pqt_read_req *rq, pqt_colbuf *b)
{
    pqt_read_strategy used;
    bool retry = false;
    pqt_read_hint(rq, 1);
    pqt_status st = attempt(rq, rq->spare, b, &used, &retry);
    if (st == PQT_OK && retry) {
        /* The lists' windows were laid out from the statistics and a row group held fewer
         * elements (nulls after all): the fallback is the serial strategy, from scratch. */
        pqt_read_req serial = *rq;
        serial.threads = 1;
        serial.spare = NULL;
        serial.serial_cx = NULL;
        retry = false;
        st = attempt(&serial, NULL, b, &used, &retry);
    }
    if (rq->used) *rq->used = st == PQT_OK ? used : PQT_READ_NOTHING;
    return st;
}
