/* SPDX-License-Identifier: Apache-2.0 */
/*
 * enc_plain.c - the PLAIN encoder (layer: write).
 *
 * parquet-format Encodings.md "Plain (PLAIN = 0)": fixed-size values back to back in
 * little-endian order, BOOLEAN bit-packed LSB first, BYTE_ARRAY as a 4-byte little-endian
 * length before each value's bytes. Each call sizes its output once and then writes with no
 * further checks.
 */
#include <string.h>

#include "util/error.h"
#include "write/enc.h"

pqt_status pqt_enc_plain_fixed(pqt_buf *out, const void *values, size_t n, size_t width)
{
    if (width != 0 && n > SIZE_MAX / width)
        return pqt_err(PQT_LIMIT, "PLAIN encoding: %zu values of %zu bytes overflow", n, width);
    return pqt_buf_append(out, values, n * width);
}

pqt_status pqt_enc_plain_bool(pqt_buf *out, const uint8_t *values, size_t n)
{
    if (n == 0) return PQT_OK;
    const size_t nbytes = n / 8 + (n % 8 != 0);
    PQT_TRY(pqt_buf_reserve_more(out, nbytes));
    uint8_t *p = out->data + out->len;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint8_t *v = values + i;
        *p++ = (uint8_t)((v[0] != 0) | (v[1] != 0) << 1 | (v[2] != 0) << 2 | (v[3] != 0) << 3 |
                         (v[4] != 0) << 4 | (v[5] != 0) << 5 | (v[6] != 0) << 6 | (v[7] != 0) << 7);
    }
    if (i < n) {
        uint8_t b = 0;
        for (int k = 0; i < n; i++, k++)
            b |= (uint8_t)((values[i] != 0) << k);
        *p++ = b;
    }
    out->len += nbytes;
    return PQT_OK;
}

pqt_status pqt_enc_plain_bytes(pqt_buf *out, const int64_t *offsets, const uint8_t *data, size_t n)
{
    if (n == 0) return PQT_OK;
    for (size_t i = 0; i < n; i++) {
        const int64_t len = offsets[i + 1] - offsets[i];
        if (PQT_UNLIKELY(len < 0 || len > INT32_MAX))
            return pqt_err(len < 0 ? PQT_MISUSE : PQT_LIMIT,
                           "PLAIN encoding: BYTE_ARRAY value %zu has length %lld (offsets "
                           "must not decrease; at most %d bytes)",
                           i, (long long)len, INT32_MAX);
    }
    const uint64_t payload = (uint64_t)(offsets[n] - offsets[0]);
    if (payload > SIZE_MAX - 4 * (uint64_t)n)
        return pqt_err(PQT_LIMIT, "PLAIN encoding: %zu BYTE_ARRAY values overflow", n);
    /* 16 bytes of slack: short values are copied as one 16-byte move, not a call */
    PQT_TRY(pqt_buf_reserve_more(out, (size_t)payload + 4 * n + 16));
    uint8_t *p = out->data + out->len;
    const int64_t src_end = offsets[n];
    for (size_t i = 0; i < n; i++) {
        const uint32_t len = (uint32_t)(offsets[i + 1] - offsets[i]);
        p[0] = (uint8_t)len;
        p[1] = (uint8_t)(len >> 8);
        p[2] = (uint8_t)(len >> 16);
        p[3] = (uint8_t)(len >> 24);
        /* the over-read stays inside the caller's values */
        if (len <= 16 && offsets[i] + 16 <= src_end)
            memcpy(p + 4, data + offsets[i], 16);
        else if (len)
            memcpy(p + 4, data + offsets[i], len);
        p += 4 + len;
    }
    out->len = (size_t)(p - out->data);
    return PQT_OK;
}
