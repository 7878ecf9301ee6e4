/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reader_hint.c - before a read, tell the source which bytes it will take (layer: read).
 *
 * A remote source (src/remote/, docs/remote.md) fetches the ranges ahead, coalesced and
 * several requests at a time; a local one needs nothing, so nothing is computed for it. The
 * ranges are those the chunk reader will fetch (pqt_chunk_ranges): whole chunks, or with an
 * offset index under a selective plan, only the pages holding selected rows.
 */
#include "read/request.h"
#include "util/error.h"
#include "util/mem.h"

static pqt_status push(pqt_io_range **r, int *n, int *cap, int64_t off, int64_t len)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 64;
        pqt_io_range *g = pqt_realloc(*r, (size_t)c * sizeof *g);
        if (!g) return PQT_NOMEM;
        *r = g;
        *cap = c;
    }
    (*r)[(*n)++] = (pqt_io_range){off, len};
    return PQT_OK;
}

void pqt_read_hint(const pqt_read_req *rqs, int n)
{
    if (n <= 0 || !rqs[0].src.io->ops || rqs[0].src.members) return;
    pqt_io_range *r = NULL;
    int nr = 0, cap = 0;
    pqt_status st = PQT_OK;
    pqt_err_mute(); /* a failure here is the read's to report */
    /* first the offset indexes a selective read consults (one round trip for all of them,
     * not one per chunk), then the pages they say are wanted */
    for (int k = 0; k < n && st == PQT_OK; k++) {
        const pqt_read_req *rq = &rqs[k];
        const pqt_file_meta *m = rq->src.meta;
        if (rq->rg0 < 0 || rq->nrg < 0 || rq->rg0 > m->n_row_groups - rq->nrg) continue;
        for (int i = 0; i < rq->nrg && st == PQT_OK; i++) {
            const pqt_column_chunk *cc = &m->row_groups[rq->rg0 + i].columns[rq->col->chunk_col];
            if (rq->sels[i].kind == PQT_SEL_ALL || rq->sels[i].kind == PQT_SEL_NONE ||
                !cc->has_offset_index || cc->offset_index_length <= 0 ||
                cc->offset_index_offset < 0 ||
                cc->offset_index_offset > rq->src.file_size - cc->offset_index_length)
                continue;
            st = push(&r, &nr, &cap, cc->offset_index_offset, cc->offset_index_length);
        }
    }
    if (st == PQT_OK && nr > 0) pqt_io_will_read(rqs[0].src.io, r, nr);
    nr = 0;
    for (int k = 0; k < n && st == PQT_OK; k++) {
        const pqt_read_req *rq = &rqs[k];
        const pqt_file_meta *m = rq->src.meta;
        if (rq->rg0 < 0 || rq->nrg < 0 || rq->rg0 > m->n_row_groups - rq->nrg ||
            rq->col->elem_kind == PQT_NONE)
            continue;
        pqt_chunk_src cs = {rq->src.io,         rq->src.path, rq->src.file_size, m,
                            rq->src.verify_crc, false,        rq->counters,      rq->src.oindex,
                            NULL,               -1};
        for (int i = 0; i < rq->nrg && st == PQT_OK; i++)
            st = pqt_chunk_ranges(&cs, rq->rg0 + i, rq->col, &rq->sels[i], &r, &nr, &cap);
    }
    pqt_err_unmute();
    if (st == PQT_OK) pqt_io_will_read(rqs[0].src.io, r, nr);
    pqt_mem_free(r);
}
