/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plain.c - PLAIN decoding of every physical type (layer: encoding).
 *
 * Implements parquet-format Encodings.md "Plain (PLAIN = 0)": BOOLEAN bit-packed LSB first
 * (one uint8_t 0/1 out per value), INT32/INT64/FLOAT/DOUBLE little-endian, INT96 as 12 raw
 * bytes, FIXED_LEN_BYTE_ARRAY as type_len raw bytes, BYTE_ARRAY as a 4-byte little-endian
 * length followed by the bytes. Dictionary pages are PLAIN too (dict.c uses this file).
 *
 * Fixed-size values: one bounds check per call, then a memcpy; skip is O(1). BYTE_ARRAY: a
 * first pass over the length prefixes validates the batch and sums its bytes, so the copy
 * pass runs unchecked after a single reserve.
 */
#include <string.h>

#include "encoding/encoding_int.h"
#include "format/meta.h"
#include "util/error.h"
#include "util/le.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PQT_HOST_BIG_ENDIAN 1
#else
#define PQT_HOST_BIG_ENDIAN 0
#endif

size_t pqt_ptype_nbytes(int ptype, int type_len)
{
    switch (ptype) {
    case PQT_PT_BOOLEAN: return 1;
    case PQT_PT_INT32: return 4;
    case PQT_PT_INT64: return 8;
    case PQT_PT_INT96: return 12;
    case PQT_PT_FLOAT: return 4;
    case PQT_PT_DOUBLE: return 8;
    case PQT_PT_FIXED_LEN_BYTE_ARRAY: return type_len > 0 ? (size_t)type_len : 0;
    default: return 0;
    }
}

pqt_status pqt_plain_init(pqt_plain_dec *d, int ptype, int type_len, const uint8_t *p, size_t n)
{
    memset(d, 0, sizeof *d);
    if (PQT_UNLIKELY(ptype < PQT_PT_BOOLEAN || ptype > PQT_PT_FIXED_LEN_BYTE_ARRAY))
        return pqt_err(PQT_UNSUPPORTED_TYPE, "PLAIN data: unknown physical type %d", ptype);
    if (PQT_UNLIKELY(ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY && type_len <= 0))
        return pqt_err(PQT_CORRUPT, "PLAIN data: FIXED_LEN_BYTE_ARRAY with type length %d",
                       type_len);
    d->p = p;
    d->end = p + n;
    d->ptype = ptype;
    d->type_len = type_len;
    /* BOOLEAN input is bits, counted through bit_off; BYTE_ARRAY has no fixed size. */
    d->value_nbytes = ptype == PQT_PT_BOOLEAN ? 0 : pqt_ptype_nbytes(ptype, type_len);
    return PQT_OK;
}

/* Bits left for BOOLEAN values. */
static inline uint64_t bool_bits_left(const pqt_plain_dec *d)
{
    return (uint64_t)(d->end - d->p) * 8 - (uint64_t)d->bit_off;
}

static pqt_status decode_bool(pqt_plain_dec *d, int64_t n, uint8_t *out)
{
    if (PQT_UNLIKELY((uint64_t)n > bool_bits_left(d)))
        return pqt_err(PQT_CORRUPT, "PLAIN BOOLEAN data: %lld values asked, %llu bits left",
                       (long long)n, (unsigned long long)bool_bits_left(d));
    const uint8_t *p = d->p;
    int off = d->bit_off;
    int64_t i = 0;
    for (; off != 0 && i < n; i++) {
        out[i] = (uint8_t)((*p >> off) & 1);
        if (++off == 8) {
            off = 0;
            p++;
        }
    }
    for (; i + 8 <= n; i += 8, p++) {
        const uint8_t b = *p;
        for (int j = 0; j < 8; j++) out[i + j] = (uint8_t)((b >> j) & 1);
    }
    for (; i < n; i++) out[i] = (uint8_t)((*p >> off++) & 1);
    d->p = p;
    d->bit_off = off;
    return PQT_OK;
}

static void byteswap_values(uint8_t *dst, int64_t n, size_t width)
{
    for (int64_t i = 0; i < n; i++, dst += width)
        for (size_t a = 0, b = width - 1; a < b; a++, b--) {
            const uint8_t t = dst[a];
            dst[a] = dst[b];
            dst[b] = t;
        }
}

pqt_status pqt_plain_decode(pqt_plain_dec *d, int64_t n, void *dst)
{
    if (PQT_UNLIKELY(n < 0)) return pqt_err(PQT_MISUSE, "PLAIN data: negative count %lld",
                                            (long long)n);
    if (d->ptype == PQT_PT_BOOLEAN) return decode_bool(d, n, dst);
    if (PQT_UNLIKELY(d->ptype == PQT_PT_BYTE_ARRAY))
        return pqt_err(PQT_MISUSE, "PLAIN data: BYTE_ARRAY needs the byte-array decode call");
    const size_t w = d->value_nbytes;
    const size_t left = (size_t)(d->end - d->p);
    if (PQT_UNLIKELY((uint64_t)n > left / w))
        return pqt_err(PQT_CORRUPT, "PLAIN data: %lld values of %zu bytes asked, %zu bytes "
                                    "left", (long long)n, w, left);
    const size_t nbytes = (size_t)n * w;
    if (nbytes) memcpy(dst, d->p, nbytes);
    d->p += nbytes;
    /* Numbers are little-endian in the file; INT96 and FLBA stay raw bytes. */
    if (PQT_HOST_BIG_ENDIAN && d->ptype != PQT_PT_INT96 &&
        d->ptype != PQT_PT_FIXED_LEN_BYTE_ARRAY)
        byteswap_values(dst, n, w);
    return PQT_OK;
}

/* Validate the next n length-prefixed values and return the end of the last and the sum of
 * their lengths. */
static pqt_status scan_ba(const uint8_t *p, const uint8_t *end, int64_t n,
                          const uint8_t **end_ret, size_t *nbytes_ret)
{
    size_t total = 0;
    for (int64_t i = 0; i < n; i++) {
        if (PQT_UNLIKELY(end - p < 4))
            return pqt_err(PQT_CORRUPT, "PLAIN BYTE_ARRAY data: length prefix of value %lld "
                                        "runs past the end (%lld values asked)",
                           (long long)i, (long long)n);
        const uint32_t len = pqt_load_le32(p);
        p += 4;
        if (PQT_UNLIKELY((size_t)(end - p) < len))
            return pqt_err(PQT_CORRUPT, "PLAIN BYTE_ARRAY data: value %lld of length %u runs "
                                        "past the end (%zu bytes left)",
                           (long long)i, len, (size_t)(end - p));
        p += len;
        total += len;
    }
    *end_ret = p;
    *nbytes_ret = total;
    return PQT_OK;
}

pqt_status pqt_plain_decode_ba(pqt_plain_dec *d, int64_t n, pqt_ba_out *out)
{
    if (PQT_UNLIKELY(d->ptype != PQT_PT_BYTE_ARRAY))
        return pqt_err(PQT_MISUSE, "PLAIN data: byte-array decode on physical type %d",
                       d->ptype);
    /* One pass: the bytes left in the page bound the output, so reserve that (plus 16 spare
     * bytes for the fixed-size copy of short values) and validate while copying. */
    const uint8_t *p = d->p;
    const uint8_t *end = d->end;
    PQT_TRY(pqt_buf_reserve_more(out->bytes, (size_t)(end - p) + 16));
    uint8_t *base = out->bytes->data;
    size_t len = out->bytes->len;
    int64_t *ends = out->ends;
    for (int64_t i = 0; i < n; i++) {
        if (PQT_UNLIKELY(end - p < 4))
            return pqt_err(PQT_CORRUPT, "PLAIN BYTE_ARRAY data: length prefix of value %lld "
                                        "runs past the end (%lld values asked)",
                           (long long)i, (long long)n);
        const uint32_t l = pqt_load_le32(p);
        p += 4;
        if (PQT_UNLIKELY((size_t)(end - p) < l))
            return pqt_err(PQT_CORRUPT, "PLAIN BYTE_ARRAY data: value %lld of length %u runs "
                                        "past the end (%zu bytes left)",
                           (long long)i, l, (size_t)(end - p));
        if (l <= 16 && end - p >= 16) memcpy(base + len, p, 16);
        else if (l) memcpy(base + len, p, l);
        p += l;
        len += l;
        ends[i] = (int64_t)len;
    }
    out->bytes->len = len;
    d->p = p;
    return PQT_OK;
}

pqt_status pqt_plain_skip(pqt_plain_dec *d, int64_t n)
{
    if (PQT_UNLIKELY(n < 0)) return pqt_err(PQT_MISUSE, "PLAIN data: negative count %lld",
                                            (long long)n);
    if (d->ptype == PQT_PT_BOOLEAN) {
        if (PQT_UNLIKELY((uint64_t)n > bool_bits_left(d)))
            return pqt_err(PQT_CORRUPT, "PLAIN BOOLEAN data: %lld values skipped, %llu bits "
                                        "left", (long long)n,
                           (unsigned long long)bool_bits_left(d));
        const uint64_t bits = (uint64_t)d->bit_off + (uint64_t)n;
        d->p += bits / 8;
        d->bit_off = (int)(bits % 8);
        return PQT_OK;
    }
    if (d->ptype == PQT_PT_BYTE_ARRAY) {
        const uint8_t *stop = d->p;
        size_t total = 0;
        PQT_TRY(scan_ba(d->p, d->end, n, &stop, &total));
        d->p = stop;
        return PQT_OK;
    }
    const size_t w = d->value_nbytes;
    const size_t left = (size_t)(d->end - d->p);
    if (PQT_UNLIKELY((uint64_t)n > left / w))
        return pqt_err(PQT_CORRUPT, "PLAIN data: %lld values of %zu bytes skipped, %zu bytes "
                                    "left", (long long)n, w, left);
    d->p += (size_t)n * w;
    return PQT_OK;
}
