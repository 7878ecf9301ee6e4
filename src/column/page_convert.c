/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_convert.c - value conversions as functions, one chosen per page from the column's
 * conversion, physical type and destination (layer: column).
 *
 * Each function decodes k dense values of a page and writes them converted at the start of
 * their slots: a loop over the batch, never a call per value. pqt_page_conv_pick chooses
 * them once per page (page_values.c init_values), so the emit loop only dispatches; the
 * choice is a table lookup in the spirit of DuckDB's per-column CallbackColumnReader.
 * Conversions: copies (as stored, and uint8/uint16 already widened), int32 widened to int64
 * (uint32 zero-extended, TIME(MILLIS) sign-extended), INT96 timestamps (with Spark's
 * wrapped form), FLOAT16, DECIMAL to double (per physical type), unscaled DECIMAL exactly,
 * and into string destinations: BYTE_ARRAY, unannotated FIXED_LEN_BYTE_ARRAY, UUID text.
 */
#include <math.h>
#include <string.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/half.h"
#include "util/le.h"

/* ---- fixed-width destinations ---- */

static pqt_status conv_copy(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                            size_t esz, uint8_t *base)
{
    (void)col, (void)type_len, (void)esz;
    return pqt_vdec_decode(cx->vdec, k, base);
}

/* Decode the int32s into the upper half of the int64 slots, then widen forwards: slot i's
 * write never reaches an int32 not yet read (8i < 4k + 4i until i = k). */
static pqt_status conv_u32_to_i64(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                  size_t esz, uint8_t *base)
{
    (void)col, (void)type_len, (void)esz;
    uint32_t *src32 = (uint32_t *)(base + (size_t)k * 4);
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, src32));
    int64_t *o = (int64_t *)base;
    for (int64_t i = 0; i < k; i++)
        o[i] = (int64_t)src32[i];
    return PQT_OK;
}

static pqt_status conv_i32_to_i64(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                  size_t esz, uint8_t *base)
{
    (void)col, (void)type_len, (void)esz;
    uint32_t *src32 = (uint32_t *)(base + (size_t)k * 4);
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, src32));
    int64_t *o = (int64_t *)base;
    for (int64_t i = 0; i < k; i++)
        o[i] = (int64_t)(int32_t)src32[i];
    return PQT_OK;
}

static pqt_status int96_overflow(uint32_t jd, uint64_t nanos, int u)
{
    static const char *const unit_word[] = {"milliseconds", "microseconds", "nanoseconds"};
    return pqt_err(PQT_OVERFLOW,
                   "value does not fit the destination kind: INT96 "
                   "timestamp (Julian day %d, %lld ns into the day) "
                   "is outside int64 %s; open with PQT_OPT_INT96_UNIT "
                   "= %s",
                   (int32_t)jd, (long long)(int64_t)nanos, unit_word[u],
                   u == PQT_UNIT_NANOS ? "PQT_UNIT_MICROS" : "PQT_UNIT_MILLIS");
}

/* INT96 (nanoseconds of the day, Julian day) to int64 ticks of the column's time unit
 * (PQT_OPT_INT96_UNIT). */
static pqt_status conv_int96(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                             size_t esz, uint8_t *base)
{
    (void)type_len, (void)esz;
    PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 12 + 8));
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, cx->scratch.data));
    int64_t *o = (int64_t *)base;
    /* ticks per day and nanoseconds per tick of the unit asked for */
    static const int64_t per_day[] = {86400000LL, 86400000000LL, 86400000000000LL};
    static const uint64_t ns_per[] = {1000000, 1000, 1};
    int u = col->time_unit >= 0 && col->time_unit <= 2 ? col->time_unit : PQT_UNIT_NANOS;
    const int64_t pd = per_day[u];
    const uint64_t div = ns_per[u];
    for (int64_t i = 0; i < k; i++) {
        const uint8_t *q = cx->scratch.data + i * 12;
        uint64_t nanos = pqt_load_le64(q);
        uint32_t jd = pqt_load_le32(q + 8);
        int64_t t;
        bool bad;
        if ((int32_t)jd < 0 || (int64_t)nanos < 0) {
            /* Spark's form of an instant whose Julian-epoch microseconds wrapped around
             * int64 when it was written (int96_from_spark.parquet, year 290000): its
             * truncating split leaves a negative day or nanos. Undo the wrap the way
             * Spark's reader does, in int64 microseconds modulo 2^64, then convert. */
            uint64_t us = (uint64_t)((int64_t)(int32_t)jd) * 86400000000ULL +
                          (uint64_t)((int64_t)nanos / 1000) - 2440588ULL * 86400000000ULL;
            int64_t s_us = (int64_t)us;
            if (u == PQT_UNIT_MICROS) {
                t = s_us;
                bad = false;
            } else if (u == PQT_UNIT_MILLIS) {
                t = s_us / 1000 - (s_us % 1000 < 0);
                bad = false;
            } else {
                bad = __builtin_mul_overflow(s_us, (int64_t)1000, &t);
            }
        } else {
            /* years past 2262 do not fit int64 nanoseconds: say so rather than wrap */
            bad = __builtin_mul_overflow((int64_t)jd - 2440588, pd, &t) ||
                  nanos > 86400000000000ULL ||
                  __builtin_add_overflow(t, (int64_t)(nanos / div), &t);
        }
        if (PQT_UNLIKELY(bad)) return int96_overflow(jd, nanos, u);
        o[i] = t;
    }
    return PQT_OK;
}

static pqt_status conv_float16(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                               size_t esz, uint8_t *base)
{
    (void)col, (void)type_len, (void)esz;
    PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 2 + 8));
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, cx->scratch.data));
    float *o = (float *)base;
    for (int64_t i = 0; i < k; i++)
        o[i] = pqt_half_to_float(pqt_load_le16(cx->scratch.data + i * 2));
    return PQT_OK;
}

/* Big-endian two's-complement integer of n bytes as a double. */
static double be_signed_to_double(const uint8_t *p, size_t n)
{
    if (n == 0) return 0.0;
    if (n <= 16) {
        __int128 v = (p[0] & 0x80) ? -1 : 0;
        for (size_t i = 0; i < n; i++)
            v = (__int128)(((unsigned __int128)v << 8) | p[i]);
        return (double)v;
    }
    bool neg = p[0] & 0x80;
    double v = 0;
    for (size_t i = 0; i < n; i++)
        v = v * 256.0 + (double)(neg ? (uint8_t)~p[i] : p[i]);
    return neg ? -(v + 1.0) : v;
}

/* Unscaled decimals in o[0..k) divided by 10^scale. */
static void decimal_rescale(double *o, int64_t k, int32_t scale)
{
    if (scale == 0) return;
    double f = pow(10.0, (double)(scale < 0 ? -scale : scale));
    if (scale > 0)
        for (int64_t i = 0; i < k; i++)
            o[i] /= f;
    else
        for (int64_t i = 0; i < k; i++)
            o[i] *= f;
}

static pqt_status conv_dec_i32(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                               size_t esz, uint8_t *base)
{
    (void)type_len, (void)esz;
    PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 4 + 8));
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, cx->scratch.data));
    const int32_t *v = (const int32_t *)cx->scratch.data;
    double *o = (double *)base;
    for (int64_t i = 0; i < k; i++)
        o[i] = (double)v[i];
    decimal_rescale(o, k, col->decimal_scale);
    return PQT_OK;
}

static pqt_status conv_dec_i64(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                               size_t esz, uint8_t *base)
{
    (void)type_len, (void)esz;
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, base));
    const int64_t *v = (const int64_t *)base;
    double *o = (double *)base;
    for (int64_t i = 0; i < k; i++)
        o[i] = (double)v[i];
    decimal_rescale(o, k, col->decimal_scale);
    return PQT_OK;
}

static pqt_status conv_dec_flba(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                size_t esz, uint8_t *base)
{
    (void)esz;
    PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * (size_t)type_len + 8));
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, cx->scratch.data));
    double *o = (double *)base;
    for (int64_t i = 0; i < k; i++)
        o[i] = be_signed_to_double(cx->scratch.data + i * type_len, (size_t)type_len);
    decimal_rescale(o, k, col->decimal_scale);
    return PQT_OK;
}

static pqt_status conv_dec_ba(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                              size_t esz, uint8_t *base)
{
    (void)type_len, (void)esz;
    PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)k * sizeof(int64_t) + 8));
    int64_t *ends = (int64_t *)cx->ends.data;
    cx->tmpbytes.len = 0;
    pqt_ba_out out = {&cx->tmpbytes, ends};
    PQT_TRY(pqt_vdec_decode_ba(cx->vdec, k, &out));
    double *o = (double *)base;
    int64_t prev = 0;
    for (int64_t i = 0; i < k; i++) {
        o[i] = be_signed_to_double(cx->tmpbytes.data + prev, (size_t)(ends[i] - prev));
        prev = ends[i];
    }
    decimal_rescale(o, k, col->decimal_scale);
    return PQT_OK;
}

/* Unscaled decimals exactly (PQT_CONV_DECIMAL_UNSCALED) from INT32 / INT64: int64 slots
 * (esz 8) or int128 as {low, high} int64 pairs (esz 16). */
static pqt_status conv_unscaled_int(pqt_chunk_ctx *cx, int ptype, int64_t k, size_t esz,
                                    uint8_t *base)
{
    int64_t *o = (int64_t *)base;
    size_t w = ptype == PQT_PT_INT32 ? 4 : 8;
    PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * w + 8));
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, cx->scratch.data));
    for (int64_t i = 0; i < k; i++) {
        int64_t v = w == 4 ? (int64_t)(int32_t)pqt_load_le32(cx->scratch.data + i * 4)
                           : (int64_t)pqt_load_le64(cx->scratch.data + i * 8);
        if (esz == 8)
            o[i] = v;
        else {
            o[2 * i] = v;
            o[2 * i + 1] = v < 0 ? -1 : 0;
        }
    }
    return PQT_OK;
}

static pqt_status conv_unscaled_i32(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                    size_t esz, uint8_t *base)
{
    (void)col, (void)type_len;
    return conv_unscaled_int(cx, PQT_PT_INT32, k, esz, base);
}

static pqt_status conv_unscaled_i64(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                    size_t esz, uint8_t *base)
{
    (void)col, (void)type_len;
    return conv_unscaled_int(cx, PQT_PT_INT64, k, esz, base);
}

/* Big-endian two's-complement integer of n bytes as an __int128; false when it needs more
 * than 128 bits (a value wider than the column's precision allows). */
static bool be_to_i128(const uint8_t *p, size_t n, __int128 *out)
{
    if (n == 0) {
        *out = 0;
        return true;
    }
    uint8_t sign = (p[0] & 0x80) ? 0xff : 0;
    size_t skip = 0;
    while (n - skip > 16 && p[skip] == sign)
        skip++;
    if (n - skip > 16 || (skip > 0 && ((p[skip] ^ sign) & 0x80))) return false;
    __int128 v = sign ? -1 : 0;
    for (size_t i = skip; i < n; i++)
        v = (__int128)(((unsigned __int128)v << 8) | p[i]);
    *out = v;
    return true;
}

/* Unscaled decimals from FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY. Values too wide for the slot
 * are PQT_OVERFLOW. */
static pqt_status unscaled_bytes(pqt_chunk_ctx *cx, bool flba, int type_len, int64_t k, size_t esz,
                                 uint8_t *base)
{
    int64_t *o = (int64_t *)base;
    const uint8_t *bytes;
    const int64_t *ends = NULL;
    if (flba) {
        PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * (size_t)type_len + 8));
        PQT_TRY(pqt_vdec_decode(cx->vdec, k, cx->scratch.data));
        bytes = cx->scratch.data;
    } else {
        PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)k * sizeof(int64_t) + 8));
        cx->tmpbytes.len = 0;
        pqt_ba_out out = {&cx->tmpbytes, (int64_t *)cx->ends.data};
        PQT_TRY(pqt_vdec_decode_ba(cx->vdec, k, &out));
        bytes = cx->tmpbytes.data;
        ends = (const int64_t *)cx->ends.data;
    }
    int64_t prev = 0;
    for (int64_t i = 0; i < k; i++) {
        int64_t start = ends ? prev : i * type_len, end = ends ? ends[i] : start + type_len;
        prev = end;
        __int128 v;
        bool ok = be_to_i128(bytes + start, (size_t)(end - start), &v);
        if (ok && esz == 8) ok = v >= INT64_MIN && v <= INT64_MAX;
        if (PQT_UNLIKELY(!ok))
            return pqt_err(PQT_OVERFLOW,
                           "value does not fit the destination kind: a %lld-byte "
                           "unscaled decimal does not fit %s",
                           (long long)(end - start),
                           esz == 8 ? "int64 (precision <= 18)" : "int128 (precision <= 38)");
        if (esz == 8)
            o[i] = (int64_t)v;
        else {
            o[2 * i] = (int64_t)(uint64_t)v;
            o[2 * i + 1] = (int64_t)(v >> 64);
        }
    }
    return PQT_OK;
}

static pqt_status conv_unscaled_flba(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                     size_t esz, uint8_t *base)
{
    (void)col;
    return unscaled_bytes(cx, true, type_len, k, esz, base);
}

static pqt_status conv_unscaled_ba(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                   size_t esz, uint8_t *base)
{
    (void)col;
    return unscaled_bytes(cx, false, type_len, k, esz, base);
}

static pqt_status conv_uuid_fixed(pqt_chunk_ctx *cx, const pqt_col *col, int type_len, int64_t k,
                                  size_t esz, uint8_t *base)
{
    (void)cx, (void)col, (void)type_len, (void)k, (void)esz, (void)base;
    return pqt_err(PQT_UNSUPPORTED_TYPE, "UUID conversion into a non-string column");
}

/* ---- string destinations: values appended to dst->str_bytes, their ends in ends ---- */

static const char hexdig[] = "0123456789abcdef";

static pqt_status bytes_uuid(pqt_chunk_ctx *cx, int type_len, int64_t k, pqt_colbuf *dst,
                             int64_t *ends)
{
    (void)type_len;
    PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 16 + 8));
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, cx->scratch.data));
    PQT_TRY(pqt_buf_reserve_more(&dst->str_bytes, (size_t)k * 36));
    for (int64_t i = 0; i < k; i++) {
        const uint8_t *u = cx->scratch.data + i * 16;
        char *o = (char *)dst->str_bytes.data + dst->str_bytes.len;
        for (int b = 0, c = 0; b < 16; b++) {
            if (b == 4 || b == 6 || b == 8 || b == 10) o[c++] = '-';
            o[c++] = hexdig[u[b] >> 4];
            o[c++] = hexdig[u[b] & 15];
        }
        dst->str_bytes.len += 36;
        ends[i] = (int64_t)dst->str_bytes.len;
    }
    return PQT_OK;
}

/* Unannotated FIXED_LEN_BYTE_ARRAY read as binary: k values of type_len bytes, one copy. */
static pqt_status bytes_flba(pqt_chunk_ctx *cx, int type_len, int64_t k, pqt_colbuf *dst,
                             int64_t *ends)
{
    size_t nb = (size_t)k * (size_t)type_len;
    PQT_TRY(pqt_buf_reserve_more(&dst->str_bytes, nb + 8));
    size_t at = dst->str_bytes.len;
    PQT_TRY(pqt_vdec_decode(cx->vdec, k, dst->str_bytes.data + at));
    dst->str_bytes.len += nb;
    for (int64_t i = 0; i < k; i++)
        ends[i] = (int64_t)(at + (size_t)(i + 1) * (size_t)type_len);
    return PQT_OK;
}

static pqt_status bytes_ba(pqt_chunk_ctx *cx, int type_len, int64_t k, pqt_colbuf *dst,
                           int64_t *ends)
{
    (void)type_len;
    pqt_ba_out out = {&dst->str_bytes, ends};
    return pqt_vdec_decode_ba(cx->vdec, k, &out);
}

/* ---- the choice ---- */

/* DECIMAL to double and unscaled DECIMAL, by physical type. */
static pqt_conv_fixed_fn decimal_fn(bool unscaled, int ptype)
{
    switch (ptype) {
    case PQT_PT_INT32:
        return unscaled ? conv_unscaled_i32 : conv_dec_i32;
    case PQT_PT_INT64:
        return unscaled ? conv_unscaled_i64 : conv_dec_i64;
    case PQT_PT_FIXED_LEN_BYTE_ARRAY:
        return unscaled ? conv_unscaled_flba : conv_dec_flba;
    default:
        return unscaled ? conv_unscaled_ba : conv_dec_ba;
    }
}

void pqt_page_conv_pick(const pqt_col *col, int ptype, int type_len, const pqt_colbuf *dst,
                        pqt_page_conv *out)
{
    pqt_page_conv c = {0};
    c.type_len = type_len;
    if (PQT_KIND_IS_BYTES(dst->elem_kind)) {
        c.bytes = col->conv == PQT_CONV_UUID             ? bytes_uuid
                  : ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY ? bytes_flba
                                                         : bytes_ba;
        *out = c;
        return;
    }
    switch (col->conv) {
    case PQT_CONV_NONE:
    case PQT_CONV_U32_WIDEN:
        c.fixed = conv_copy;
        break;
    case PQT_CONV_I32_TO_I64:
        c.fixed = conv_u32_to_i64;
        break;
    case PQT_CONV_TIME_MS:
        c.fixed = conv_i32_to_i64;
        break;
    case PQT_CONV_INT96:
        c.fixed = conv_int96;
        break;
    case PQT_CONV_FLOAT16:
        c.fixed = conv_float16;
        break;
    case PQT_CONV_DECIMAL:
        c.fixed = decimal_fn(false, ptype);
        break;
    case PQT_CONV_DECIMAL_UNSCALED:
        c.fixed = decimal_fn(true, ptype);
        break;
    case PQT_CONV_UUID:
        c.fixed = conv_uuid_fixed;
        break;
    }
    /* values stored as the destination holds them may be looked up from the dictionary
     * straight into their slots (page_values.c emit_dict_spread) */
    size_t esz = dst->elem_nbytes;
    c.dict_spread = (col->conv == PQT_CONV_NONE || col->conv == PQT_CONV_U32_WIDEN) &&
                    (esz == 4 || esz == 8) && pqt_ptype_nbytes(ptype, type_len) == esz;
    *out = c;
}
