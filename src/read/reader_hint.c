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

void pqt_read_hint(const pqt_read_req *rqs, int n)
{
    if (n <= 0 || !rqs[0].src.io->ops || rqs[0].src.members) return;
    pqt_io_range *r = NULL;
    int nr = 0, cap = 0;
    pqt_status st = PQT_OK;
    pqt_err_mute(); /* a failure here is the read's to report */
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
