/* SPDX-License-Identifier: Apache-2.0 */
/*
 * philox.h - Philox4x32, the counter-based generator of Salmon, Moraes, Dror and Shaw,
 * "Parallel Random Numbers: As Easy as 1, 2, 3" (SC11, 2011), and fresh seeds (layer: util).
 *
 * A counter-based generator is a keyed bijection of a 128-bit counter: draw number c under
 * key k is philox(c, k), computed from nothing else. That is what lets a sample decide row r
 * without having seen rows 0..r-1, so threads, slices and pruning cannot change the answer.
 * Checked against Random123's published known-answer vectors (tests/unit/test_sample_philox.c).
 */
#ifndef PQT_UTIL_PHILOX_H
#define PQT_UTIL_PHILOX_H

#include <stdint.h>

/* The multipliers and Weyl key increments of Philox4x32 (the paper's Table 2). */
#define PQT_PHILOX_M0 UINT32_C(0xD2511F53)
#define PQT_PHILOX_M1 UINT32_C(0xCD9E8D57)
#define PQT_PHILOX_W0 UINT32_C(0x9E3779B9)
#define PQT_PHILOX_W1 UINT32_C(0xBB67AE85)

/* One Philox4x32 round on the state x0..x3 under the round key k0, k1. */
#define PQT_PHILOX_ROUND(x0, x1, x2, x3, k0, k1)                                                   \
    do {                                                                                           \
        uint64_t p0_ = (uint64_t)PQT_PHILOX_M0 * (x0), p1_ = (uint64_t)PQT_PHILOX_M1 * (x2);       \
        (x0) = (uint32_t)(p1_ >> 32) ^ (x1) ^ (k0);                                                \
        (x1) = (uint32_t)p1_;                                                                      \
        (x2) = (uint32_t)(p0_ >> 32) ^ (x3) ^ (k1);                                                \
        (x3) = (uint32_t)p0_;                                                                      \
    } while (0)

/* out = Philox4x32 with `rounds` rounds of counter ctr under key key (ctr and out may be the
 * same array). The key is bumped by the Weyl increments before every round but the first. */
static inline void pqt_philox4x32(const uint32_t ctr[4], const uint32_t key[2], int rounds,
                                  uint32_t out[4])
{
    uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3], k0 = key[0], k1 = key[1];
    for (int r = 0; r < rounds; r++) {
        if (r > 0) {
            k0 += PQT_PHILOX_W0;
            k1 += PQT_PHILOX_W1;
        }
        PQT_PHILOX_ROUND(x0, x1, x2, x3, k0, k1);
    }
    out[0] = x0;
    out[1] = x1;
    out[2] = x2;
    out[3] = x3;
}

/* The standard Philox4x32-10, written out: compilers at -O2 do not unroll the loop above,
 * and unrolled it is about four times faster (the sampler calls it once a row). Round i uses
 * key + i * (W0, W1); the test checks both forms against the same known answers. */
static inline void pqt_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2],
                                     uint32_t out[4])
{
    uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3], k0 = key[0], k1 = key[1];
#define PQT_PHILOX_STEP_(i)                                                                        \
    PQT_PHILOX_ROUND(x0, x1, x2, x3, k0 + (uint32_t)(i) * PQT_PHILOX_W0,                           \
                     k1 + (uint32_t)(i) * PQT_PHILOX_W1)
    PQT_PHILOX_STEP_(0);
    PQT_PHILOX_STEP_(1);
    PQT_PHILOX_STEP_(2);
    PQT_PHILOX_STEP_(3);
    PQT_PHILOX_STEP_(4);
    PQT_PHILOX_STEP_(5);
    PQT_PHILOX_STEP_(6);
    PQT_PHILOX_STEP_(7);
    PQT_PHILOX_STEP_(8);
    PQT_PHILOX_STEP_(9);
#undef PQT_PHILOX_STEP_
    out[0] = x0;
    out[1] = x1;
    out[2] = x2;
    out[3] = x3;
}

/* A fresh seed in 1..INT64_MAX: the operating system's random bytes when it has them, mixed
 * with the clock and a process-wide counter, so two calls never return the same seed within
 * a process even without /dev/urandom. Never fails. */
int64_t pqt_philox_fresh_seed(void);

#endif
