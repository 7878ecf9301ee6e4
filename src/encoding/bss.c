/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bss.c - BYTE_STREAM_SPLIT decoder (layer: encoding).
 *
 * Implements parquet-format Encodings.md "Byte Stream Split (BYTE_STREAM_SPLIT = 9)"
 * for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY: a page of N values of W
 * bytes is W streams of N bytes, stream k holding byte k of every value. Decoding is a
 * gather (byte k of value i is p[k * N + i]); skipping is moving the position, O(1).
 * The 4- and 8-byte cases, nearly all real data, get one shift-and-store loop each;
 * other FLBA widths go stream by stream.
 */
#include <string.h>

#include "encoding_int.h"
#include "util/error.h"

pqt_status pqt_bss_init(pqt_bss_dec *d, size_t value_nbytes, const uint8_t *p, size_t n,
                        int64_t num_values)
{
    memset(d, 0, sizeof(*d));
    if (PQT_UNLIKELY(value_nbytes == 0))
        return pqt_err(PQT_CORRUPT, "BYTE_STREAM_SPLIT: value size 0");
    if (PQT_UNLIKELY(num_values < 0 || (uint64_t)num_values > SIZE_MAX / value_nbytes ||
                     (size_t)num_values * value_nbytes != n))
        return pqt_err(PQT_CORRUPT,
                       "BYTE_STREAM_SPLIT: %zu bytes do not hold %lld values of %zu bytes", n,
                       (long long)num_values, value_nbytes);
    d->p = p;
    d->value_nbytes = value_nbytes;
    d->nvalues = num_values;
    d->pos = 0;
    return PQT_OK;
}

/* 4- and 8-byte values: assemble each value from its W stream bytes with shifts and
 * store it whole. Byte k of the little-endian encoding is bits 8k..8k+7 of the value, so
 * INT32/INT64/FLOAT/DOUBLE come out native on either host byte order, as PLAIN's do.
 * (On a big-endian host a FIXED_LEN_BYTE_ARRAY(4|8) would come out swapped: the decoder
 * is not told the physical type. Little-endian hosts are unaffected.) */
static void gather_4(const uint8_t *restrict p, size_t nvalues, size_t pos, size_t n,
                     uint8_t *restrict dst)
{
    const uint8_t *restrict s0 = p + pos, *restrict s1 = s0 + nvalues, *restrict s2 = s1 + nvalues,
                            *restrict s3 = s2 + nvalues;
    for (size_t i = 0; i < n; i++) {
        uint32_t v =
            (uint32_t)s0[i] | (uint32_t)s1[i] << 8 | (uint32_t)s2[i] << 16 | (uint32_t)s3[i] << 24;
        memcpy(dst + i * 4, &v, 4);
    }
}

/* Eight named stream pointers, not an array: gcc keeps them in registers only this way
 * (an array version measured twice as slow). */
static void gather_8(const uint8_t *restrict p, size_t nvalues, size_t pos, size_t n,
                     uint8_t *restrict dst)
{
    const size_t N = nvalues;
    const uint8_t *s0 = p + pos, *s1 = s0 + N, *s2 = s1 + N, *s3 = s2 + N, *s4 = s3 + N,
                  *s5 = s4 + N, *s6 = s5 + N, *s7 = s6 + N;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)s0[i] | (uint64_t)s1[i] << 8 | (uint64_t)s2[i] << 16 |
                     (uint64_t)s3[i] << 24 | (uint64_t)s4[i] << 32 | (uint64_t)s5[i] << 40 |
                     (uint64_t)s6[i] << 48 | (uint64_t)s7[i] << 56;
        memcpy(dst + i * 8, &v, 8);
    }
}

/* Any width: walk one stream at a time, so reads stay sequential; writes are strided. */
static void gather_any(const uint8_t *p, size_t nvalues, size_t pos, size_t n, uint8_t *dst,
                       size_t W)
{
    for (size_t k = 0; k < W; k++) {
        const uint8_t *s = p + k * nvalues + pos;
        uint8_t *o = dst + k;
        for (size_t i = 0; i < n; i++)
            o[i * W] = s[i];
    }
}

pqt_status pqt_bss_decode(pqt_bss_dec *d, int64_t n, uint8_t *dst)
{
    if (PQT_UNLIKELY(n < 0 || n > d->nvalues - d->pos))
        return pqt_err(PQT_CORRUPT, "BYTE_STREAM_SPLIT: asked for %lld values, %lld remain",
                       (long long)n, (long long)(d->nvalues - d->pos));
    const size_t N = (size_t)d->nvalues, pos = (size_t)d->pos, cnt = (size_t)n;
    switch (d->value_nbytes) {
    case 4:
        gather_4(d->p, N, pos, cnt, dst);
        break;
    case 8:
        gather_8(d->p, N, pos, cnt, dst);
        break;
    case 1:
        if (cnt) memcpy(dst, d->p + pos, cnt);
        break;
    default:
        gather_any(d->p, N, pos, cnt, dst, d->value_nbytes);
        break;
    }
    d->pos += n;
    return PQT_OK;
}

pqt_status pqt_bss_skip(pqt_bss_dec *d, int64_t n)
{
    if (PQT_UNLIKELY(n < 0 || n > d->nvalues - d->pos))
        return pqt_err(PQT_CORRUPT, "BYTE_STREAM_SPLIT: asked to skip %lld values, %lld remain",
                       (long long)n, (long long)(d->nvalues - d->pos));
    d->pos += n;
    return PQT_OK;
}
