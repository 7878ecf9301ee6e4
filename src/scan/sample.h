/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sample.h - random sampling at open: the frozen rule that keeps or drops one physical row,
 * and the pass that applies it to a plan's selections (layer: scan). docs/sampling.md is the
 * user's description of the same rule.
 *
 * Rule pqt-sample-v1 (Bernoulli, Philox4x32-10). For 0-based physical file row r and a seed
 * s in 1..2^63-1:
 *   key = (s mod 2^32, s div 2^32), ctr = (r mod 2^32, r div 2^32, 0x53414D50, 1),
 *   (x0, x1, x2, x3) = Philox4x32-10(ctr, key), u = ((x1 2^32 + x0) div 2^11) / 2^53,
 * and the row is kept iff u < fraction. The third counter word ("SAMP") separates the
 * sampler's draws from any other use of the same seed; the fourth is the rule's version.
 * The rule is frozen: changing any of it changes which rows every seed keeps, so a change is
 * a new rule with a new version, never an edit (tests/unit/test_sample_rows.c holds rows of
 * this one computed by tests/sample_model.py).
 */
#ifndef PQT_SCAN_SAMPLE_H
#define PQT_SCAN_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "pqt.h"
#include "util/philox.h"
#include "util/sel.h"

#define PQT_SAMPLE_RULE "pqt-sample-v1 (bernoulli, philox4x32-10)"
#define PQT_SAMPLE_LABEL UINT32_C(0x53414D50)
#define PQT_SAMPLE_VERSION UINT32_C(1)

/* The rule for one row: keep 0-based physical row `row` under seed (> 0) with fraction in
 * (0, 1)? Threshold form: thr = fraction * 2^53, precomputed by the caller (exact). */
static inline bool pqt_sample_keep_thr(int64_t seed, uint64_t row, double thr)
{
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)((uint64_t)seed >> 32)};
    uint32_t ctr[4] = {(uint32_t)row, (uint32_t)(row >> 32), PQT_SAMPLE_LABEL,
                       PQT_SAMPLE_VERSION};
    uint32_t x[4];
    pqt_philox4x32_10(ctr, key, x);
    uint64_t v = (((uint64_t)x[1] << 32) | x[0]) >> 11;
    /* v < 2^53 and thr = fraction * 2^53 are exact doubles: u < fraction, exactly */
    return (double)v < thr;
}

static inline bool pqt_sample_keep(int64_t seed, double fraction, uint64_t row)
{
    return pqt_sample_keep_thr(seed, row, fraction * 0x1p53);
}

/* The rule for rows row .. row + n - 1 with threshold thr (as above): their verdicts are
 * OR-ed into bits k .. k + n - 1 of keep (LSB first; the caller zeroes it). Returns how many
 * are kept. Two rows at a time in SSE2 on x86-64, else one at a time; the
 * verdicts are the same (tests/unit/test_sample_philox.c). */
int64_t pqt_sample_keep_bits(int64_t seed, double thr, uint64_t row, int64_t n, uint8_t *keep,
                             int64_t k);

/* Narrow sel[0..nrg) (row group rg starts at file row rg_start[rg]) to the selected rows the
 * rule keeps for (seed, fraction), 0 < fraction < 1, seed > 0; row groups with nothing
 * selected are not visited. Row groups run in parallel on up to `threads` threads (0:
 * OpenMP's default; util/par.h); the result does not depend on how many. PQT_NOMEM (the
 * selections may then be partly narrowed: the caller is still opening and discards them). */
pqt_status pqt_scan_sample(pqt_sel *sel, int nrg, const int64_t *rg_start, double fraction,
                           int64_t seed, int threads);

#endif
