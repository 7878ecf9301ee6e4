/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bits.c - bit ranges of validity bitmaps: set, and copied between bitmaps (layer: util; bits.h).
 */
#include "util/bits.h"

void pqt_bits_set_range(uint8_t *bm, int64_t start, int64_t n)
{
    int64_t s = start, e = start + n;
    for (; s < e && (s & 7); s++) pqt_bit_or(bm, s, 1);
    if (e - s >= 8) {
        memset(bm + (s >> 3), 0xff, (size_t)((e - s) >> 3));
        s += (e - s) & ~(int64_t)7;
    }
    for (; s < e; s++) pqt_bit_or(bm, s, 1);
}

void pqt_bits_copy(uint8_t *dst, int64_t dst_at, const uint8_t *src, int64_t src_at, int64_t n)
{
    for (; n > 0 && (dst_at & 7); n--, dst_at++, src_at++) /* to a whole byte of dst */
        pqt_bit_set(dst, dst_at, pqt_bit_get(src, src_at));
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
        pqt_bit_set(dst, dst_at, pqt_bit_get(src, src_at));
}
