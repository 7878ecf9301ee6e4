/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sample.c - the sample pass: each row group's selection keeps the rows the frozen rule of
 * sample.h keeps (layer: scan).
 *
 * Only rows still selected (inside the slice, passing the filter) are drawn for, so a row
 * group a filter pruned costs nothing here and is never read afterwards. The verdict of a row
 * depends on its physical row number alone, which is why the pass may split the row groups
 * among threads in any way.
 */
#include <omp.h>
#include <string.h>

#include "scan/sample.h"
#include "util/error.h"
#include "util/mem.h"

/* Narrow one row group's selection; keep is scratch of at least (sel->nsel + 7) / 8 bytes.
 * The verdicts go in as a bitmap: a contiguous selection (no filter) takes it whole. */
static pqt_status sample_rg(pqt_sel *sel, int64_t rg_first_row, int64_t seed, double thr,
                            uint8_t *keep)
{
    int64_t k = 0, start, len, kept = 0;
    memset(keep, 0, (size_t)(sel->nsel + 7) / 8);
    pqt_sel_cursor cur = {0};
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &start, &len)) {
        uint64_t row = (uint64_t)(rg_first_row + start);
        for (int64_t j = 0; j < len; j++, k++) {
            unsigned v = pqt_sample_keep_thr(seed, row + (uint64_t)j, thr);
            keep[k >> 3] |= (uint8_t)(v << (k & 7));
            kept += v;
        }
    }
    if (kept == sel->nsel) return PQT_OK;
    if (kept == 0) {
        pqt_sel_init_none(sel, sel->nrows);
        return PQT_OK;
    }
    return pqt_sel_refine_bits(sel, keep);
}

pqt_status pqt_scan_sample(pqt_sel *sel, int nrg, const int64_t *rg_start, double fraction,
                           int64_t seed, int threads)
{
    const double thr = fraction * 0x1p53;
    int64_t most = 0;
    for (int rg = 0; rg < nrg; rg++)
        if (sel[rg].nsel > most) most = sel[rg].nsel;
    if (most == 0) return PQT_OK;
    int nthreads = threads < 1 ? 1 : threads;
    if (nthreads > nrg) nthreads = nrg;
    pqt_status st = PQT_OK;
#pragma omp parallel num_threads(nthreads) if (nthreads > 1)
    {
        uint8_t *keep = pqt_malloc_array((size_t)(most + 7) / 8, 1);
        pqt_status mine = keep ? PQT_OK : PQT_NOMEM;
#pragma omp for schedule(dynamic, 1)
        for (int rg = 0; rg < nrg; rg++)
            if (mine == PQT_OK && sel[rg].nsel > 0)
                mine = sample_rg(&sel[rg], rg_start[rg], seed, thr, keep);
        pqt_mem_free(keep);
        if (mine != PQT_OK) {
#pragma omp critical(pqt_scan_sample)
            st = mine;
        }
    }
    if (st != PQT_OK) return pqt_err(PQT_NOMEM, "out of memory sampling rows");
    return PQT_OK;
}
