/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bits.h - questions about validity bitmaps (bit i of byte i / 8, least significant first).
 */
#ifndef PQT_UTIL_BITS_H
#define PQT_UTIL_BITS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Bit i of bm; a NULL bitmap has every bit set (no validity bitmap: every value present). */
static inline bool pqt_bit_get(const uint8_t *bm, int64_t i)
{
    return !bm || (bm[i >> 3] >> (i & 7) & 1);
}
static inline void pqt_bit_set(uint8_t *bm, int64_t i, bool v)
{
    if (v) bm[i >> 3] = (uint8_t)(bm[i >> 3] | (1u << (i & 7)));
    else bm[i >> 3] = (uint8_t)(bm[i >> 3] & ~(1u << (i & 7)));
}
/* Or v (0 or 1) into bit i: building a bitmap that starts zeroed, without a branch. */
static inline void pqt_bit_or(uint8_t *bm, int64_t i, unsigned v)
{
    bm[i >> 3] = (uint8_t)(bm[i >> 3] | (v << (i & 7)));
}

/* Set bits of x. Without -mpopcnt, __builtin_popcountll is a call into libgcc (a table
 * walk); these few operations are faster than the call and inline into bitmap loops. */
static inline int pqt_popcount64(uint64_t x)
{
#if defined(__POPCNT__)
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* Whether bits [start, start + n) of bm are all set: eight bytes at a time, so that a
 * column without nulls in a range takes the paths of a column without a bitmap. */
static inline bool pqt_bits_all_set(const uint8_t *bm, int64_t start, int64_t n)
{
    int64_t i = start, end = start + n;
    for (; i < end && (i & 7); i++)
        if (!pqt_bit_get(bm, i)) return false;
    const uint8_t *p = bm + (i >> 3);
    int64_t nbytes = (end - i) >> 3, k = 0;
    for (; k + 8 <= nbytes; k += 8) {
        uint64_t x;
        memcpy(&x, p + k, 8);
        if (x != UINT64_MAX) return false;
    }
    for (; k < nbytes; k++)
        if (p[k] != 0xFF) return false;
    for (i += nbytes * 8; i < end; i++)
        if (!pqt_bit_get(bm, i)) return false;
    return true;
}

/* Copy bits [src_at, src_at + n) of src to [dst_at, dst_at + n) of dst, a byte at a time
 * (validity bitmaps of a million rows: a per-bit loop costs milliseconds). The ranges may
 * overlap when the copy moves bits left (dst_at <= src_at in one bitmap). */
/* Set bits [start, start + n) of bm, whole bytes by memset (runs of a selection). */
void pqt_bits_set_range(uint8_t *bm, int64_t start, int64_t n);

void pqt_bits_copy(uint8_t *dst, int64_t dst_at, const uint8_t *src, int64_t src_at, int64_t n);

#endif
