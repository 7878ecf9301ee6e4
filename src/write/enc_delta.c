/* SPDX-License-Identifier: Apache-2.0 */
/*
 * enc_delta.c - DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY encoders
 * (layer: write).
 *
 * parquet-format Encodings.md "Delta Encoding (DELTA_BINARY_PACKED = 5)": a header (block
 * size 128, 4 miniblocks of 32, value count, first value zigzag), then per block of 128
 * deltas its minimum (zigzag), four bit widths and the miniblocks of (delta - minimum)
 * bit-packed LSB first; a partial last miniblock is zero-padded, miniblocks past the last
 * value have width 0 and no bytes. INT32 deltas wrap in 32 bits (as Arrow and parquet-mr
 * compute them), so a width never passes 32 for INT32. DELTA_LENGTH_BYTE_ARRAY (6) is the
 * lengths so encoded, then all the bytes; DELTA_BYTE_ARRAY (7) the prefix lengths shared
 * with the previous value, then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
 */
#include <string.h>

#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"
#include "write/enc.h"

enum { BLOCK = 128, MINIBLOCKS = 4, MINI = BLOCK / MINIBLOCKS };

static inline uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline void store64le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* 32 values of w bits (0..64) LSB first: exactly 4 * w bytes. */
static inline uint8_t *pack32(uint8_t *p, const uint64_t *v, int w)
{
    if (w == 0) return p;
    uint64_t acc = 0;
    int nb = 0;
    for (int i = 0; i < MINI; i++) {
        acc |= v[i] << nb;
        if (nb + w >= 64) {
            store64le(p, acc);
            p += 8;
            const int used = 64 - nb;
            acc = used < 64 ? v[i] >> used : 0;
            nb = nb + w - 64;
        } else {
            nb += w;
        }
    }
    for (; nb > 0; nb -= 8, acc >>= 8)
        *p++ = (uint8_t)acc;
    return p;
}

static inline int64_t value_at(const void *vals, size_t i, bool is32)
{
    return is32 ? ((const int32_t *)vals)[i] : ((const int64_t *)vals)[i];
}

/* One block of m (1..128) deltas of values vals[i..i+m) after prev. */
static inline uint8_t *block(uint8_t *p, const void *vals, size_t i, size_t m, int64_t prev,
                             bool is32)
{
    uint64_t rel[BLOCK];
    int64_t d[BLOCK];
    int64_t mind = INT64_MAX;
    for (size_t k = 0; k < m; k++) {
        const int64_t v = value_at(vals, i + k, is32);
        d[k] = is32 ? (int64_t)(int32_t)((uint32_t)v - (uint32_t)prev)
                    : (int64_t)((uint64_t)v - (uint64_t)prev);
        if (d[k] < mind) mind = d[k];
        prev = v;
    }
    for (size_t k = 0; k < m; k++)
        rel[k] =
            is32 ? (uint64_t)((uint32_t)d[k] - (uint32_t)mind) : (uint64_t)d[k] - (uint64_t)mind;
    for (size_t k = m; k < BLOCK; k++)
        rel[k] = 0;
    p = pqt_put_uvarint(p, zigzag(mind));
    int widths[MINIBLOCKS];
    for (int b = 0; b < MINIBLOCKS; b++) {
        uint64_t any = 0;
        for (int k = 0; k < MINI; k++)
            any |= rel[b * MINI + k];
        widths[b] = (size_t)b * MINI < m ? pqt_enc_bit_width(any) : 0;
        *p++ = (uint8_t)widths[b];
    }
    for (int b = 0; b < MINIBLOCKS && (size_t)b * MINI < m; b++)
        p = pack32(p, rel + b * MINI, widths[b]);
    return p;
}

static pqt_status dbp(pqt_buf *out, const void *vals, size_t n, bool is32)
{
    const size_t start = out->len;
    /* header, then per block: min delta, 4 widths and 128 values of up to 64 bits */
    pqt_status st = pqt_buf_reserve_more(out, 4 * 10);
    if (st != PQT_OK) return st;
    uint8_t *p = out->data + out->len;
    p = pqt_put_uvarint(p, BLOCK);
    p = pqt_put_uvarint(p, MINIBLOCKS);
    p = pqt_put_uvarint(p, n);
    p = pqt_put_uvarint(p, zigzag(n ? value_at(vals, 0, is32) : 0));
    out->len = (size_t)(p - out->data);
    for (size_t i = 1; i < n; i += BLOCK) {
        const size_t m = n - i < BLOCK ? n - i : BLOCK;
        st = pqt_buf_reserve_more(out, 10 + MINIBLOCKS + BLOCK * 8);
        if (st != PQT_OK) {
            out->len = start;
            return st;
        }
        p = block(out->data + out->len, vals, i, m, value_at(vals, i - 1, is32), is32);
        out->len = (size_t)(p - out->data);
    }
    return PQT_OK;
}

pqt_status pqt_enc_delta_bp_i32(pqt_buf *out, const int32_t *values, size_t n)
{
    return dbp(out, values, n, true);
}

pqt_status pqt_enc_delta_bp_i64(pqt_buf *out, const int64_t *values, size_t n)
{
    return dbp(out, values, n, false);
}

/* Lengths of n values from offsets, checked, as int32 into lens. */
static pqt_status lengths(const int64_t *offsets, size_t n, int32_t *lens)
{
    for (size_t i = 0; i < n; i++) {
        const int64_t len = offsets[i + 1] - offsets[i];
        if (PQT_UNLIKELY(len < 0 || len > INT32_MAX))
            return pqt_err(len < 0 ? PQT_MISUSE : PQT_LIMIT,
                           "DELTA encoding: BYTE_ARRAY value %zu has length %lld (offsets must "
                           "not decrease; at most %d bytes)",
                           i, (long long)len, INT32_MAX);
        lens[i] = (int32_t)len;
    }
    return PQT_OK;
}

pqt_status pqt_enc_delta_length_bytes(pqt_buf *out, const int64_t *offsets, const uint8_t *data,
                                      size_t n)
{
    int32_t *lens = pqt_malloc_array(n ? n : 1, sizeof *lens);
    if (!lens) return pqt_err(PQT_NOMEM, "out of memory encoding %zu BYTE_ARRAY lengths", n);
    const size_t start = out->len;
    pqt_status st = lengths(offsets, n, lens);
    if (st == PQT_OK) st = dbp(out, lens, n, true);
    if (st == PQT_OK && n)
        st = pqt_buf_append(out, data + offsets[0], (size_t)(offsets[n] - offsets[0]));
    if (st != PQT_OK) out->len = start;
    pqt_mem_free(lens);
    return st;
}

pqt_status pqt_enc_delta_bytes(pqt_buf *out, const int64_t *offsets, const uint8_t *data, size_t n)
{
    int32_t *pre = pqt_malloc_array(n ? n : 1, sizeof *pre);
    int32_t *suf = pqt_malloc_array(n ? n : 1, sizeof *suf);
    if (!pre || !suf) {
        pqt_mem_free(pre);
        pqt_mem_free(suf);
        return pqt_err(PQT_NOMEM, "out of memory encoding %zu BYTE_ARRAY values", n);
    }
    const size_t start = out->len;
    pqt_status st = lengths(offsets, n, suf);
    for (size_t i = 0; i < n && st == PQT_OK; i++) {
        int32_t k = 0;
        if (i > 0) { /* suf[i - 1] + pre[i - 1] is the previous value's whole length */
            const uint8_t *a = data + offsets[i - 1], *b = data + offsets[i];
            const int32_t lim = suf[i - 1] + pre[i - 1] < suf[i] ? suf[i - 1] + pre[i - 1] : suf[i];
            while (k < lim && a[k] == b[k])
                k++;
        }
        pre[i] = k;
        suf[i] -= k;
    }
    if (st == PQT_OK) st = dbp(out, pre, n, true);
    if (st == PQT_OK) st = dbp(out, suf, n, true);
    if (st == PQT_OK) {
        size_t total = 0;
        for (size_t i = 0; i < n; i++)
            total += (size_t)suf[i];
        st = pqt_buf_reserve_more(out, total);
        if (st == PQT_OK) {
            uint8_t *p = out->data + out->len;
            for (size_t i = 0; i < n; i++) {
                if (suf[i]) memcpy(p, data + offsets[i] + pre[i], (size_t)suf[i]);
                p += suf[i];
            }
            out->len += total;
        }
    }
    if (st != PQT_OK) out->len = start;
    pqt_mem_free(pre);
    pqt_mem_free(suf);
    return st;
}
