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
/* SSE2 with 64-bit lanes moved to general registers: x86-64 (every x86-64 has SSE2) */
#if defined(__SSE2__) && defined(__x86_64__)
#define PQT_SAMPLE_SSE2 1
#include <emmintrin.h>
#endif

#include "scan/sample.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/par.h"

#ifdef PQT_SAMPLE_SSE2
/* One round on a pair of rows: each 64-bit lane holds one row's 32-bit words in its low
 * half; _mm_mul_epu32 reads only the low halves, so what collects in the high halves never
 * reaches a product and is masked off at the end. */
#define SSE_ROUND(x0, x1, x2, x3, k0, k1)                                                          \
    do {                                                                                           \
        __m128i p0_ = _mm_mul_epu32(x0, m0), p1_ = _mm_mul_epu32(x2, m1);                         \
        x0 = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(p1_, 32), x1), k0);                        \
        x1 = p1_;                                                                                  \
        x2 = _mm_xor_si128(_mm_xor_si128(_mm_srli_epi64(p0_, 32), x3), k1);                        \
        x3 = p0_;                                                                                  \
    } while (0)

/* The 53-bit draws of the pair (x0, x1) compared with thr: verdicts in bits 0 and 1. */
static inline unsigned sse_verdicts(__m128i x0, __m128i x1, double thr)
{
    const __m128i low = _mm_set1_epi64x(0xffffffff);
    __m128i v = _mm_srli_epi64(_mm_or_si128(_mm_slli_epi64(x1, 32), _mm_and_si128(x0, low)), 11);
    uint64_t v0 = (uint64_t)_mm_cvtsi128_si64(v);
    uint64_t v1 = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
    return (unsigned)((double)v0 < thr) | (unsigned)((double)v1 < thr) << 1;
}

/* The rule for rows row and row + 1 at once: verdicts in bits 0 and 1. (Two pairs
 * interleaved measured no faster.) */
static inline unsigned keep_pair(__m128i k0, __m128i k1, uint64_t row, double thr)
{
    const __m128i m0 = _mm_set1_epi64x(PQT_PHILOX_M0), m1 = _mm_set1_epi64x(PQT_PHILOX_M1);
    const __m128i w0 = _mm_set1_epi64x(PQT_PHILOX_W0), w1 = _mm_set1_epi64x(PQT_PHILOX_W1);
    __m128i x0 = _mm_set_epi64x((int64_t)(uint32_t)(row + 1), (int64_t)(uint32_t)row);
    __m128i x1 = _mm_set_epi64x((int64_t)((row + 1) >> 32), (int64_t)(row >> 32));
    __m128i x2 = _mm_set1_epi64x(PQT_SAMPLE_LABEL), x3 = _mm_set1_epi64x(PQT_SAMPLE_VERSION);
    for (int r = 0; r < 10; r++) {
        if (r > 0) {
            k0 = _mm_add_epi32(k0, w0);
            k1 = _mm_add_epi32(k1, w1);
        }
        SSE_ROUND(x0, x1, x2, x3, k0, k1);
    }
    return sse_verdicts(x0, x1, thr);
}
#endif

int64_t pqt_sample_keep_bits(int64_t seed, double thr, uint64_t row, int64_t n, uint8_t *keep,
                             int64_t k)
{
    int64_t kept = 0, j = 0;
#ifdef PQT_SAMPLE_SSE2
    /* the key words in the low half of each lane (the high halves are never read) */
    __m128i k0 = _mm_set1_epi64x((int64_t)(uint32_t)seed);
    __m128i k1 = _mm_set1_epi64x((int64_t)((uint64_t)seed >> 32));
    for (; j + 2 <= n; j += 2, k += 2) {
        unsigned v = keep_pair(k0, k1, row + (uint64_t)j, thr);
        pqt_bit_or(keep, k, v & 1);
        pqt_bit_or(keep, k + 1, v >> 1);
        kept += (v & 1) + (v >> 1);
    }
#endif
    for (; j < n; j++, k++) {
        unsigned v = pqt_sample_keep_thr(seed, row + (uint64_t)j, thr);
        pqt_bit_or(keep, k, v);
        kept += v;
    }
    return kept;
}

/* Narrow one row group's selection; keep is scratch of at least (sel->nsel + 7) / 8 bytes.
 * The verdicts go in as a bitmap: a contiguous selection (no filter) takes it whole. */
static pqt_status sample_rg(pqt_sel *sel, int64_t rg_first_row, int64_t seed, double thr,
                            uint8_t *keep)
{
    int64_t k = 0, start, len, kept = 0;
    memset(keep, 0, (size_t)(sel->nsel + 7) / 8);
    pqt_sel_cursor cur = {0};
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &start, &len)) {
        kept += pqt_sample_keep_bits(seed, thr, (uint64_t)(rg_first_row + start), len, keep, k);
        k += len;
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
    int nthreads = pqt_par_threads_for(threads, nrg);
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
