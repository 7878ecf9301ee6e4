/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bits.c - bit-range copies between validity bitmaps (layer: util; bits.h).
 */
#include "util/bits.h"

static inline void put_bit(uint8_t *bm, int64_t i, int v)
{
    if (v) bm[i >> 3] = (uint8_t)(bm[i >> 3] | (1u << (i & 7)));
    else bm[i >> 3] = (uint8_t)(bm[i >> 3] & ~(1u << (i & 7)));
}

void pqt_bits_copy(uint8_t *dst, int64_t dst_at, const uint8_t *src, int64_t src_at, int64_t n)
{
    for (; n > 0 && (dst_at & 7); n--, dst_at++, src_at++) /* to a whole byte of dst */
        put_bit(dst, dst_at, src[src_at >> 3] >> (src_at & 7) & 1);
    int64_t nbytes = n >> 3;
    int sh = (int)(src_at & 7);
    const uint8_t *s = src + (src_at >> 3);
    uint8_t *d = dst + (dst_at >> 3);
    if (sh == 0) {
        memmove(d, s, (size_t)nbytes);
    } else { /* byte i takes the high bits of s[i] and the low bits of s[i + 1], which holds
              * a bit of the range whenever sh > 0 */
        for (int64_t i = 0; i < nbytes; i++)
            d[i] = (uint8_t)((s[i] >> sh) | (s[i + 1] << (8 - sh)));
    }
    dst_at += nbytes * 8;
    src_at += nbytes * 8;
    for (n &= 7; n > 0; n--, dst_at++, src_at++)
        put_bit(dst, dst_at, src[src_at >> 3] >> (src_at & 7) & 1);
}
