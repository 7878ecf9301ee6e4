/* SPDX-License-Identifier: Apache-2.0 */
/*
 * enc_rle.c - the RLE / bit-packed hybrid encoder (layer: write).
 *
 * parquet-format Encodings.md "Run Length Encoding / Bit-Packing Hybrid": runs behind
 * ULEB128 headers, an RLE run as (count << 1) and its value in ceil(bit_width / 8) bytes, a
 * bit-packed run as (groups << 1 | 1) and groups of 8 values packed LSB first. The whole
 * input is at hand, so runs are found by one forward scan: a repeat of 8 or more becomes an
 * RLE run after the pending literals are completed to a whole group of 8 with values taken
 * from the repeat's head (a bit-packed run may be padded only at the end of the data).
 * Levels (uint16) and codes (uint32) share one inline body, specialised by a constant.
 */
#include <string.h>

#include "util/error.h"
#include "util/le.h"
#include "write/enc.h"

/* Runs are split below the readers' limits: a header fits 32 bits (Encodings.md note 3). */
enum { MAX_RLE_RUN = 1 << 30, MAX_PACKED_GROUPS = 1 << 20 };

int pqt_enc_bit_width(uint64_t max_value)
{
    return max_value ? 64 - __builtin_clzll(max_value) : 0;
}

size_t pqt_enc_rle_max_nbytes(size_t n, int bit_width)
{
    /* per 8 values at most: their packed bytes, one RLE run (header + value) and one
     * literal header */
    return (n / 8 + 2) * ((size_t)bit_width + 14) + 16;
}

/* vsize: 4 codes, 2 levels, 1 booleans (any non-zero byte is 1) */
static inline uint32_t get_value(const void *values, size_t i, int vsize)
{
    return vsize == 4   ? ((const uint32_t *)values)[i]
           : vsize == 2 ? ((const uint16_t *)values)[i]
                        : ((const uint8_t *)values)[i] != 0;
}

/* The end of the run of x starting before j: levels and codes 16 bytes at a time (a column
 * without nulls is one run of levels as long as the page), then one by one. */
static inline size_t run_end(const void *values, size_t j, size_t n, uint32_t x, int vsize)
{
    if (j >= n || get_value(values, j, vsize) != x) return j; /* most literals end here */
    j++;
    if (vsize == 2 || vsize == 4) {
        const uint8_t *b = values;
        const uint64_t xx = vsize == 2 ? x * 0x0001000100010001ULL : x * 0x0000000100000001ULL;
        const size_t per = vsize == 2 ? 8 : 4;
        while (j + per <= n) {
            uint64_t u, v;
            memcpy(&u, b + j * (size_t)vsize, 8);
            memcpy(&v, b + j * (size_t)vsize + 8, 8);
            if ((u ^ xx) | (v ^ xx)) break;
            j += per;
        }
    }
    while (j < n && get_value(values, j, vsize) == x) j++;
    return j;
}

static inline void store32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline pqt_status emit_rle(pqt_buf *out, uint32_t value, size_t count, int w)
{
    const int vbytes = (w + 7) / 8;
    while (count > 0) {
        size_t k = count < MAX_RLE_RUN ? count : MAX_RLE_RUN;
        PQT_TRY(pqt_buf_reserve_more(out, 5 + 4));
        uint8_t *p = pqt_put_uvarint(out->data + out->len, (uint64_t)k << 1);
        for (int b = 0; b < vbytes; b++)
            *p++ = (uint8_t)(value >> (8 * b));
        out->len = (size_t)(p - out->data);
        count -= k;
    }
    return PQT_OK;
}

/* One group of 8 values of w bits: w bytes. With w a constant the loop unrolls and every
 * shift and flush is decided at compile time. */
static inline __attribute__((always_inline)) uint8_t *pack8(uint8_t *p, const void *values,
                                                            size_t i, int vsize, const int w)
{
    const uint32_t mask = w == 32 ? UINT32_MAX : (1u << w) - 1;
    uint64_t acc = 0;
    int nbits = 0;
    for (int k = 0; k < 8; k++) {
        acc |= (uint64_t)(get_value(values, i + k, vsize) & mask) << nbits;
        nbits += w;
        if (nbits >= 32) {
            store32le(p, (uint32_t)acc);
            p += 4;
            acc >>= 32;
            nbits -= 32;
        }
    }
    /* 8 values of w bits are w whole bytes: what is left is whole bytes too */
    for (; nbits > 0; nbits -= 8, acc >>= 8)
        *p++ = (uint8_t)acc;
    return p;
}

static inline __attribute__((always_inline)) uint8_t *
pack_loop(uint8_t *p, const void *values, size_t start, size_t ngroups, int vsize, const int w)
{
    for (size_t g = 0; g < ngroups; g++)
        p = pack8(p, values, start + 8 * g, vsize, w);
    return p;
}

/* ngroups whole groups from values[start], one loop per width. */
static uint8_t *pack_groups(uint8_t *p, const void *values, size_t start, size_t ngroups, int w,
                            int vsize)
{
#define PACK_CASE(W)                                                                               \
    case W:                                                                                        \
        return vsize == 2 ? pack_loop(p, values, start, ngroups, 2, W)                             \
                          : pack_loop(p, values, start, ngroups, 4, W);
    if (vsize == 1) return pack_loop(p, values, start, ngroups, 1, 1); /* booleans */
    switch (w) {
        PACK_CASE(1)
        PACK_CASE(2)
        PACK_CASE(3) PACK_CASE(4) PACK_CASE(5) PACK_CASE(6) PACK_CASE(7) PACK_CASE(8) PACK_CASE(9)
            PACK_CASE(10) PACK_CASE(11) PACK_CASE(12) PACK_CASE(13) PACK_CASE(14) PACK_CASE(15)
                PACK_CASE(16) PACK_CASE(17) PACK_CASE(18) PACK_CASE(19) PACK_CASE(20) PACK_CASE(21)
                    PACK_CASE(22) PACK_CASE(23) PACK_CASE(24) PACK_CASE(25) PACK_CASE(26)
                        PACK_CASE(27) PACK_CASE(28) PACK_CASE(29) PACK_CASE(30) PACK_CASE(31)
                            PACK_CASE(32) default
            : return p; /* w is 1..32 here (encode handles 0) */
    }
#undef PACK_CASE
}

/* values[start..start+count) bit-packed; the last group zero-padded. */
static inline pqt_status emit_packed(pqt_buf *out, const void *values, size_t start, size_t count,
                                     int w, int vsize)
{
    while (count > 0) {
        size_t groups = (count + 7) / 8;
        if (groups > MAX_PACKED_GROUPS) groups = MAX_PACKED_GROUPS;
        size_t take = groups * 8 < count ? groups * 8 : count;
        PQT_TRY(pqt_buf_reserve_more(out, 5 + groups * (size_t)w + 4));
        uint8_t *p = pqt_put_uvarint(out->data + out->len, (uint64_t)groups << 1 | 1);
        p = pack_groups(p, values, start, take / 8, w, vsize);
        if (take % 8) {
            uint32_t tail[8] = {0};
            for (size_t k = 0; k < take % 8; k++)
                tail[k] = get_value(values, start + take / 8 * 8 + k, vsize);
            p = pack_groups(p, tail, 0, 1, w, 4);
        }
        out->len = (size_t)(p - out->data);
        start += take;
        count -= take;
    }
    return PQT_OK;
}

static inline pqt_status encode(pqt_buf *out, const void *values, size_t n, int w, int vsize)
{
    if (n == 0) return PQT_OK;
    if (w == 0) return emit_rle(out, 0, n, 0);
    const uint32_t mask = w == 32 ? UINT32_MAX : (1u << w) - 1;
    size_t lit = 0, i = 0; /* literals pending from lit to i */
    while (i < n) {
        const uint32_t x = get_value(values, i, vsize);
        size_t j = run_end(values, i + 1, n, x, vsize);
        const size_t r = j - i;
        if (r >= 8) {
            const size_t pend = i - lit, k = (8 - pend % 8) % 8;
            if (r - k >= 8) {
                if (pend + k) PQT_TRY(emit_packed(out, values, lit, pend + k, w, vsize));
                PQT_TRY(emit_rle(out, x & mask, r - k, w));
                lit = j;
            }
        }
        i = j;
    }
    if (lit < n) PQT_TRY(emit_packed(out, values, lit, n - lit, w, vsize));
    return PQT_OK;
}

static pqt_status check_width(int w, int max)
{
    if (w < 0 || w > max)
        return pqt_err(PQT_MISUSE, "RLE/bit-packed encoding: bit width %d outside 0..%d", w, max);
    return PQT_OK;
}

pqt_status pqt_enc_rle_hybrid(pqt_buf *out, const uint32_t *values, size_t n, int bit_width)
{
    PQT_TRY(check_width(bit_width, 32));
    size_t start = out->len;
    pqt_status st = encode(out, values, n, bit_width, 4);
    if (st != PQT_OK) out->len = start;
    return st;
}

pqt_status pqt_enc_levels_u16(pqt_buf *out, const uint16_t *levels, size_t n, int bit_width)
{
    PQT_TRY(check_width(bit_width, 16));
    size_t start = out->len;
    pqt_status st = encode(out, levels, n, bit_width, 2);
    if (st != PQT_OK) out->len = start;
    return st;
}

/* A 4-byte little-endian length, then the runs (the form data page v1 levels and RLE
 * booleans take). */
static pqt_status with_length(pqt_buf *out, const void *values, size_t n, int w, int vsize)
{
    const size_t start = out->len;
    PQT_TRY(pqt_buf_reserve_more(out, 4));
    out->len += 4;
    pqt_status st = encode(out, values, n, w, vsize);
    const size_t len = out->len - start - 4;
    if (st == PQT_OK && len > INT32_MAX)
        st = pqt_err(PQT_LIMIT, "RLE/bit-packed data of %zu bytes exceeds a page's limit", len);
    if (st != PQT_OK) {
        out->len = start;
        return st;
    }
    uint8_t *p = out->data + start;
    p[0] = (uint8_t)len;
    p[1] = (uint8_t)(len >> 8);
    p[2] = (uint8_t)(len >> 16);
    p[3] = (uint8_t)(len >> 24);
    return PQT_OK;
}

pqt_status pqt_enc_levels_v1(pqt_buf *out, const uint16_t *levels, size_t n, int bit_width)
{
    PQT_TRY(check_width(bit_width, 16));
    return with_length(out, levels, n, bit_width, 2);
}

pqt_status pqt_enc_bool_rle(pqt_buf *out, const uint8_t *values, size_t n)
{
    return with_length(out, values, n, 1, 1);
}
