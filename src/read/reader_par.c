/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reader_par.c - the reader's one parallel region (layer: read): every used row group of a
 * job by one strategy's row-group function, each thread with its own decoding context, the
 * thread count and the failure hand-off from util/par.h (the lowest failed row group
 * reports, whatever the schedule). The fixed-width and windowed strategies share it.
 */
#include "read/reader_int.h"
#include "util/par.h"

pqt_status pqt_read_parallel(pqt_read_job *j, pqt_colbuf *b, pqt_read_rg_fn fn, void *arg)
{
    pqt_par_fail pf;
    pqt_par_fail_init(&pf);
    int first = j->first, last = j->last;
    const pqt_sel *sels = j->rq->sels;
#pragma omp parallel num_threads(pqt_par_threads_for(j->rq->threads, j->nused))
    {
        pqt_par_thread th; /* this thread's failure, handed over below */
        pqt_par_enter(&th);
        pqt_chunk_ctx *cx = NULL;
        pqt_status tst = pqt_chunk_ctx_new(&cx);
#pragma omp for schedule(dynamic, 1)
        for (int rg = first; rg <= last; rg++) {
            if (!pqt_read_used(&sels[rg]) || pqt_par_skip(&pf, rg)) continue;
            pqt_par_fail_note(&pf, rg, tst != PQT_OK ? tst : fn(j, cx, rg, b, arg), &th);
        }
        pqt_chunk_ctx_free(cx);
        pqt_par_leave(&th);
    }
    return pqt_par_fail_raise(&pf);
}
