/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_values.c - decode the selected values of one data page into a pqt_colbuf
 * (layer: column).
 *
 * A page is walked as alternating skip/decode runs taken from the selection. Non-null
 * values are decoded densely straight into the destination and then spread backwards
 * over the null slots, so there is no intermediate array for the common case; only
 * converted kinds (decimal, INT96, FLOAT16, UUID, uint32) go through scratch. Lists
 * (max_rep 1) turn level entries into rows (rep == 0 starts a row), list offsets,
 * row validity and element slots, then reuse the same value path over the slots.
 */
#include <math.h>
#include <string.h>

#include "column/column_int.h"
#include "util/error.h"

static int64_t count_present(const uint8_t *present, int64_t lo, int64_t hi)
{
    if (!present) return hi - lo;
    int64_t c = 0, i = lo;
    for (; i + 8 <= hi; i += 8) { /* 8 presence bytes (0/1) per multiply */
        uint64_t w;
        memcpy(&w, present + i, 8);
        c += (int64_t)((w * 0x0101010101010101ULL) >> 56);
    }
    for (; i < hi; i++) c += present[i];
    return c;
}

void pqt_bitmap_set_from_bytes(uint8_t *bitmap, int64_t pos, const uint8_t *present, int64_t n)
{
    int64_t i = 0;
    if (!present) {
        /* all present: edge bytes bit by bit (shared with neighbours), the middle by memset */
        while (i < n && ((pos + i) & 7)) {
            __atomic_fetch_or(&bitmap[(pos + i) >> 3], (uint8_t)(1u << ((pos + i) & 7)),
                              __ATOMIC_RELAXED);
            i++;
        }
        int64_t whole = (n - i) >> 3;
        if (whole > 0) memset(bitmap + ((pos + i) >> 3), 0xff, (size_t)whole);
        i += whole << 3;
        for (; i < n; i++)
            __atomic_fetch_or(&bitmap[(pos + i) >> 3], (uint8_t)(1u << ((pos + i) & 7)),
                              __ATOMIC_RELAXED);
        return;
    }
    /* align to a byte of the bitmap, then pack 8 presence bytes (each 0/1) per multiply */
    while (i < n && ((pos + i) & 7)) {
        if (present[i])
            __atomic_fetch_or(&bitmap[(pos + i) >> 3], (uint8_t)(1u << ((pos + i) & 7)),
                              __ATOMIC_RELAXED);
        i++;
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, present + i, 8);
        w = (w & 0x0101010101010101ULL) * 0x0102040810204080ULL;
        bitmap[(pos + i) >> 3] = (uint8_t)(w >> 56);
    }
    while (i < n) {
        int64_t bit = (pos + i) & 7, byte = (pos + i) >> 3;
        int64_t take = 8 - bit < n - i ? 8 - bit : n - i;
        uint8_t v = 0;
        for (int64_t b = 0; b < take; b++)
            v |= (uint8_t)((present ? present[i + b] != 0 : 1) << (bit + b));
        if (take == 8) bitmap[byte] = v; /* a whole byte belongs to this range alone */
        else __atomic_fetch_or(&bitmap[byte], v, __ATOMIC_RELAXED);
        i += take;
    }
}

/* Spread k dense values over l slots (present[i] says which), backwards, zeroing nulls. */
void pqt_page_expand(uint8_t *base, size_t esz, const uint8_t *present, int64_t l, int64_t k)
{
    int64_t j = k - 1;
    switch (esz) {
    case 1:
        for (int64_t i = l - 1; i >= 0; i--) base[i] = present[i] ? base[j--] : 0;
        break;
    /* branch-free: nulls are frequent enough to defeat prediction; j never drops below
     * -1 and a read at -1 is clamped to 0 (its value is masked away) */
    case 4: {
        uint32_t *v = (uint32_t *)base;
        for (int64_t i = l - 1; i >= 0; i--) {
            uint32_t p = present[i];
            uint32_t x = v[j > 0 ? j : 0];
            v[i] = x & (0u - p);
            j -= p;
        }
        break;
    }
    case 8: {
        uint64_t *v = (uint64_t *)base;
        for (int64_t i = l - 1; i >= 0; i--) {
            uint64_t p = present[i];
            uint64_t x = v[j > 0 ? j : 0];
            v[i] = x & (0ull - p);
            j -= (int64_t)p;
        }
        break;
    }
    default:
        for (int64_t i = l - 1; i >= 0; i--) {
            if (present[i]) memmove(base + (size_t)i * esz, base + (size_t)j-- * esz, esz);
            else memset(base + (size_t)i * esz, 0, esz);
        }
    }
}

static float half_to_float(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0) v = ldexpf((float)mant, -24);
    else if (exp == 31) v = mant ? NAN : INFINITY;
    else v = ldexpf((float)(mant | 0x400), exp - 25);
    return sign ? -v : v;
}

/* Big-endian two's-complement integer of n bytes as a double. */
static double be_signed_to_double(const uint8_t *p, size_t n)
{
    if (n == 0) return 0.0;
    if (n <= 16) {
        __int128 v = (p[0] & 0x80) ? -1 : 0;
        for (size_t i = 0; i < n; i++) v = (__int128)(((unsigned __int128)v << 8) | p[i]);
        return (double)v;
    }
    bool neg = p[0] & 0x80;
    double v = 0;
    for (size_t i = 0; i < n; i++) v = v * 256.0 + (double)(neg ? (uint8_t)~p[i] : p[i]);
    return neg ? -(v + 1.0) : v;
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
    while (n - skip > 16 && p[skip] == sign) skip++;
    if (n - skip > 16 || (skip > 0 && ((p[skip] ^ sign) & 0x80))) return false;
    __int128 v = sign ? -1 : 0;
    for (size_t i = skip; i < n; i++) v = (__int128)(((unsigned __int128)v << 8) | p[i]);
    *out = v;
    return true;
}

/* Unscaled decimals exactly (PQT_CONV_DECIMAL_UNSCALED): int64 slots (esz 8) or int128 as
 * {low, high} int64 pairs (esz 16). Values too wide for the slot are PQT_OVERFLOW. */
static pqt_status emit_unscaled(pqt_chunk_ctx *cx, pqt_vdec *d, int ptype, int type_len,
                                int64_t k, size_t esz, uint8_t *base)
{
    int64_t *o = (int64_t *)base;
    if (ptype == PQT_PT_INT32 || ptype == PQT_PT_INT64) {
        size_t w = ptype == PQT_PT_INT32 ? 4 : 8;
        PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * w + 8));
        PQT_TRY(pqt_vdec_decode(d, k, cx->scratch.data));
        for (int64_t i = 0; i < k; i++) {
            int64_t v;
            if (w == 4) {
                int32_t v32;
                memcpy(&v32, cx->scratch.data + i * 4, 4);
                v = v32;
            } else {
                memcpy(&v, cx->scratch.data + i * 8, 8);
            }
            if (esz == 8) o[i] = v;
            else {
                o[2 * i] = v;
                o[2 * i + 1] = v < 0 ? -1 : 0;
            }
        }
        return PQT_OK;
    }
    const uint8_t *bytes;
    const int64_t *ends = NULL;
    if (ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY) {
        PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * (size_t)type_len + 8));
        PQT_TRY(pqt_vdec_decode(d, k, cx->scratch.data));
        bytes = cx->scratch.data;
    } else {
        PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)k * sizeof(int64_t) + 8));
        cx->tmpbytes.len = 0;
        pqt_ba_out out = {&cx->tmpbytes, (int64_t *)cx->ends.data};
        PQT_TRY(pqt_vdec_decode_ba(d, k, &out));
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
            return pqt_err(PQT_OVERFLOW, "value does not fit the destination kind: a %lld-byte "
                                         "unscaled decimal does not fit %s",
                           (long long)(end - start), esz == 8 ? "int64 (precision <= 18)"
                                                              : "int128 (precision <= 38)");
        if (esz == 8) o[i] = (int64_t)v;
        else {
            o[2 * i] = (int64_t)(uint64_t)v;
            o[2 * i + 1] = (int64_t)(v >> 64);
        }
    }
    return PQT_OK;
}

static pqt_status decimal_rescale(double *out, int64_t k, int32_t scale)
{
    if (scale == 0) return PQT_OK;
    double f = pow(10.0, (double)(scale < 0 ? -scale : scale));
    if (scale > 0) for (int64_t i = 0; i < k; i++) out[i] /= f;
    else for (int64_t i = 0; i < k; i++) out[i] *= f;
    return PQT_OK;
}

static const char hexdig[] = "0123456789abcdef";

/* Dictionary codes of a page with nulls: look up each present slot's value and write it in
 * its final place in one pass (no dense write and no backward spread). */
static pqt_status emit_dict_spread(pqt_chunk_ctx *cx, pqt_vdec *d, const uint8_t *present,
                                   int64_t l, int64_t k, pqt_colbuf *dst, int64_t pos)
{
    PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)(k + 1) * sizeof(uint32_t)));
    uint32_t *codes = (uint32_t *)cx->ends.data;
    PQT_TRY(pqt_vdec_decode_codes_raw(d, k, codes)); /* checked below, in the same pass */
    codes[k] = 0; /* read (and masked away) by trailing null slots */
    const uint32_t dn = (uint32_t)cx->dict.n;
    uint32_t bad = 0;
    int64_t j = 0;
    if (dst->elem_nbytes == 4) {
        const uint32_t *dv = (const uint32_t *)cx->dict.values.data;
        uint32_t *o = (uint32_t *)dst->data + pos;
        for (int64_t i = 0; i < l; i++) {
            uint32_t p = present[i], c = codes[j];
            bad |= c >= dn;
            o[i] = dv[c < dn ? c : 0] & (0u - p);
            j += p;
        }
    } else {
        const uint64_t *dv = (const uint64_t *)cx->dict.values.data;
        uint64_t *o = (uint64_t *)dst->data + pos;
        for (int64_t i = 0; i < l; i++) {
            uint64_t p = present[i];
            uint32_t c = codes[j];
            bad |= c >= dn;
            o[i] = dv[c < dn ? c : 0] & (0ull - p);
            j += (int64_t)p;
        }
    }
    if (PQT_UNLIKELY(bad)) {
        for (int64_t i = 0; i < k; i++)
            if (codes[i] >= dn)
                return pqt_err(PQT_CORRUPT, "dictionary index %u out of range (dictionary has %u "
                                            "entries)", codes[i], dn);
    }
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, pos, present, l);
    return PQT_OK;
}

/* Codes mode: k dictionary codes for l slots at pos of an int32 dst (0 in null slots). */
static pqt_status emit_codes(pqt_chunk_ctx *cx, pqt_vdec *d, const uint8_t *present, int64_t l,
                             int64_t k, pqt_colbuf *dst, int64_t pos)
{
    if (!pqt_vdec_is_dict(d) || !cx->have_dict)
        return pqt_err(PQT_UNSUPPORTED_ENCODING, "page is not dictionary encoded");
    uint32_t *o = (uint32_t *)dst->data + pos;
    if (!present) {
        PQT_TRY(pqt_vdec_decode_codes(d, k, o));
    } else {
        PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)(k + 1) * sizeof(uint32_t)));
        uint32_t *codes = (uint32_t *)cx->ends.data;
        PQT_TRY(pqt_vdec_decode_codes(d, k, codes));
        codes[k] = 0;
        for (int64_t i = 0, j = 0; i < l; i++) {
            o[i] = codes[j] & (0u - present[i]);
            j += present[i];
        }
    }
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, pos, present, l);
    return PQT_OK;
}

pqt_status pqt_page_emit_values(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                                const uint8_t *present, int64_t l, int64_t k, pqt_colbuf *dst,
                                int64_t pos)
{
    pqt_vdec *d = cx->vdec;
    cx->nvalues_out += k;
    if (cx->want_codes) return emit_codes(cx, d, present, l, k, dst, pos);
    if (PQT_KIND_IS_BYTES(dst->elem_kind)) {
        int64_t *off = dst->str_offsets;
        PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)k * sizeof(int64_t) + 8));
        int64_t *ends = (int64_t *)cx->ends.data;
        if (col->conv == PQT_CONV_UUID) {
            PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 16 + 8));
            PQT_TRY(pqt_vdec_decode(d, k, cx->scratch.data));
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
        } else if (ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY) {
            /* unannotated FLBA read as binary: k values of type_len bytes, one copy */
            size_t nb = (size_t)k * (size_t)type_len;
            PQT_TRY(pqt_buf_reserve_more(&dst->str_bytes, nb + 8));
            size_t at = dst->str_bytes.len;
            PQT_TRY(pqt_vdec_decode(d, k, dst->str_bytes.data + at));
            dst->str_bytes.len += nb;
            for (int64_t i = 0; i < k; i++) ends[i] = (int64_t)(at + (size_t)(i + 1) * (size_t)type_len);
        } else {
            pqt_ba_out out = {&dst->str_bytes, ends};
            PQT_TRY(pqt_vdec_decode_ba(d, k, &out));
        }
        if (!present) {
            for (int64_t i = 0; i < l; i++) off[pos + i + 1] = ends[i];
        } else {
            int64_t j = 0;
            for (int64_t i = 0; i < l; i++) off[pos + i + 1] = present[i] ? ends[j++] : off[pos + i];
        }
        if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, pos, present, l);
        return PQT_OK;
    }

    size_t esz = dst->elem_nbytes;
    uint8_t *base = (uint8_t *)dst->data + (size_t)pos * esz;
    if (present && k < l && (col->conv == PQT_CONV_NONE || col->conv == PQT_CONV_U32_WIDEN) &&
        (esz == 4 || esz == 8) && pqt_vdec_is_dict(d) && cx->dict.n > 0 &&
        pqt_ptype_nbytes(ptype, type_len) == esz)
        return emit_dict_spread(cx, d, present, l, k, dst, pos);
    switch (col->conv) {
    case PQT_CONV_NONE:
    case PQT_CONV_U32_WIDEN:
        PQT_TRY(pqt_vdec_decode(d, k, base));
        break;
    case PQT_CONV_I32_TO_I64:
    case PQT_CONV_TIME_MS: {
        /* decode the int32s into the upper half of the int64 slots, then widen forwards */
        uint32_t *src32 = (uint32_t *)(base + (size_t)k * 4);
        PQT_TRY(pqt_vdec_decode(d, k, src32));
        int64_t *o = (int64_t *)base;
        bool zero_ext = col->conv == PQT_CONV_I32_TO_I64;
        for (int64_t i = 0; i < k; i++)
            o[i] = zero_ext ? (int64_t)src32[i] : (int64_t)(int32_t)src32[i];
        break;
    }
    case PQT_CONV_INT96: {
        PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 12 + 8));
        PQT_TRY(pqt_vdec_decode(d, k, cx->scratch.data));
        int64_t *o = (int64_t *)base;
        /* ticks per day and nanoseconds per tick of the unit asked for (PQT_OPT_INT96_UNIT) */
        static const int64_t per_day[] = {86400000LL, 86400000000LL, 86400000000000LL};
        static const uint64_t ns_per[] = {1000000, 1000, 1};
        int u = col->time_unit >= 0 && col->time_unit <= 2 ? col->time_unit : PQT_UNIT_NANOS;
        const int64_t pd = per_day[u];
        const uint64_t div = ns_per[u];
        for (int64_t i = 0; i < k; i++) {
            const uint8_t *q = cx->scratch.data + i * 12;
            uint64_t nanos;
            uint32_t jd;
            memcpy(&nanos, q, 8);
            memcpy(&jd, q + 8, 4);
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
            if (PQT_UNLIKELY(bad)) {
                static const char *const unit_word[] = {"milliseconds", "microseconds",
                                                        "nanoseconds"};
                return pqt_err(PQT_OVERFLOW, "value does not fit the destination kind: INT96 "
                                             "timestamp (Julian day %d, %lld ns into the day) "
                                             "is outside int64 %s; open with PQT_OPT_INT96_UNIT "
                                             "= %s",
                               (int32_t)jd, (long long)(int64_t)nanos, unit_word[u],
                               u == PQT_UNIT_NANOS ? "PQT_UNIT_MICROS" : "PQT_UNIT_MILLIS");
            }
            o[i] = t;
        }
        break;
    }
    case PQT_CONV_FLOAT16: {
        PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 2 + 8));
        PQT_TRY(pqt_vdec_decode(d, k, cx->scratch.data));
        float *o = (float *)base;
        for (int64_t i = 0; i < k; i++) {
            const uint8_t *q = cx->scratch.data + i * 2;
            o[i] = half_to_float((uint16_t)(q[0] | q[1] << 8));
        }
        break;
    }
    case PQT_CONV_DECIMAL: {
        double *o = (double *)base;
        if (ptype == PQT_PT_INT32) {
            PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * 4 + 8));
            PQT_TRY(pqt_vdec_decode(d, k, cx->scratch.data));
            const int32_t *v = (const int32_t *)cx->scratch.data;
            for (int64_t i = 0; i < k; i++) o[i] = (double)v[i];
        } else if (ptype == PQT_PT_INT64) {
            PQT_TRY(pqt_vdec_decode(d, k, base));
            const int64_t *v = (const int64_t *)base;
            for (int64_t i = 0; i < k; i++) o[i] = (double)v[i];
        } else if (ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY) {
            PQT_TRY(pqt_buf_reserve(&cx->scratch, (size_t)k * (size_t)type_len + 8));
            PQT_TRY(pqt_vdec_decode(d, k, cx->scratch.data));
            for (int64_t i = 0; i < k; i++)
                o[i] = be_signed_to_double(cx->scratch.data + i * type_len, (size_t)type_len);
        } else {
            PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)k * sizeof(int64_t) + 8));
            int64_t *ends = (int64_t *)cx->ends.data;
            cx->tmpbytes.len = 0;
            pqt_ba_out out = {&cx->tmpbytes, ends};
            PQT_TRY(pqt_vdec_decode_ba(d, k, &out));
            int64_t prev = 0;
            for (int64_t i = 0; i < k; i++) {
                o[i] = be_signed_to_double(cx->tmpbytes.data + prev, (size_t)(ends[i] - prev));
                prev = ends[i];
            }
        }
        decimal_rescale(o, k, col->decimal_scale);
        break;
    }
    case PQT_CONV_DECIMAL_UNSCALED:
        PQT_TRY(emit_unscaled(cx, d, ptype, type_len, k, esz, base));
        break;
    case PQT_CONV_UUID:
        return pqt_err(PQT_UNSUPPORTED_TYPE, "UUID conversion into a non-string column");
    }
    if (present && k < l) pqt_page_expand(base, esz, present, l, k);
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, pos, present, l);
    return PQT_OK;
}

static pqt_status init_values(pqt_chunk_ctx *cx, int ptype, int type_len, const pqt_page_view *pv)
{
    return pqt_vdec_init(cx->vdec, pv->encoding, ptype, type_len, pv->values, pv->values_nbytes,
                         pv->nvalues, cx->have_dict ? &cx->dict : NULL);
}

/* Copy the rows of the page (decoded whole into page_vals, elem bytes each) that bitmap sel
 * selects to dst at *out_row, with their presence; no call per row (docs/pruning.md, "Per row
 * group", step 6: decode then compact, for selections too fragmented to skip through). */
static pqt_status gather_selected(pqt_chunk_ctx *cx, const pqt_page_view *pv, const pqt_sel *sel,
                                  int64_t page_row0, const uint8_t *page_vals, size_t elem,
                                  int64_t m, pqt_colbuf *dst, int64_t *out_row)
{
    if (PQT_UNLIKELY(*out_row + m > dst->nrows))
        return pqt_err(PQT_CORRUPT, "more selected rows than the destination holds");
    uint8_t *present = NULL;
    if (pv->present) {
        PQT_TRY(pqt_buf_reserve(&cx->slots, (size_t)m + 8));
        present = cx->slots.data;
    }
    uint8_t *out = (uint8_t *)dst->data + (size_t)*out_row * elem;
    int64_t lo = page_row0, hi = page_row0 + pv->nrows, k = 0;
    for (int64_t wi = lo >> 6; wi <= (hi - 1) >> 6; wi++) {
        uint64_t word = pqt_sel_word_in(sel, wi, lo, hi);
        while (word) {
            int64_t r = wi * 64 + __builtin_ctzll(word) - page_row0;
            word &= word - 1;
            switch (elem) { /* constant sizes: the copies compile to moves */
            case 1: out[k] = page_vals[r]; break;
            case 4: memcpy(out + k * 4, page_vals + r * 4, 4); break;
            case 8: memcpy(out + k * 8, page_vals + r * 8, 8); break;
            case 16: memcpy(out + k * 16, page_vals + r * 16, 16); break;
            default: memcpy(out + (size_t)k * elem, page_vals + (size_t)r * elem, elem);
            }
            if (present) present[k] = pv->present[r];
            k++;
        }
    }
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, *out_row, present, m);
    *out_row += m;
    return PQT_OK;
}

pqt_status pqt_page_emit_flat(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                              const pqt_page_view *pv, const pqt_sel *sel, int64_t page_row0,
                              pqt_colbuf *dst, int64_t *out_row)
{
    PQT_TRY(init_values(cx, ptype, type_len, pv));
    int64_t m = sel->kind == PQT_SEL_BITS && !PQT_KIND_IS_BYTES(dst->elem_kind) && dst->elem_nbytes > 0
                    ? pqt_sel_count(sel, page_row0, page_row0 + pv->nrows) : 0;
    if (m > 0 && m < pv->nrows && pqt_page_plain_in_place(cx, col, ptype, type_len, pv, dst))
        return pqt_page_gather_plain(cx, pv, sel, page_row0, m, dst, out_row);
    if (m * 8 >= pv->nrows && m < pv->nrows) {
        /* a bitmap keeping an eighth or more: its runs are short, so decode the page whole
         * into scratch and gather, instead of a skip and a decode call per run */
        size_t elem = dst->elem_nbytes;
        PQT_TRY(pqt_buf_reserve(&cx->gather, (size_t)pv->nrows * elem + 64));
        pqt_colbuf whole = *dst;
        whole.data = cx->gather.data;
        whole.validity = NULL;
        whole.nrows = pv->nrows;
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, pv->present, pv->nrows,
                                     pv->nvalues, &whole, 0));
        return gather_selected(cx, pv, sel, page_row0, cx->gather.data, elem, m, dst, out_row);
    }
    pqt_sel_cursor cur;
    pqt_sel_seek(sel, &cur, page_row0);
    int64_t s, l, pos = 0;
    while (pqt_sel_next_run(sel, &cur, page_row0, page_row0 + pv->nrows, &s, &l)) {
        s -= page_row0;
        if (s > pos) PQT_TRY(pqt_vdec_skip(cx->vdec, count_present(pv->present, pos, s)));
        int64_t k = (s == 0 && l == pv->nrows) ? pv->nvalues : count_present(pv->present, s, s + l);
        if (PQT_UNLIKELY(*out_row + l > dst->nrows))
            return pqt_err(PQT_CORRUPT, "more selected rows than the destination holds");
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len,
                                     pv->present ? pv->present + s : NULL, l, k, dst, *out_row));
        *out_row += l;
        pos = s + l;
    }
    return PQT_OK;
}

/* The first pv->ncont entries of a list page, which continue the row the page before began:
 * appended to dst's last row when that row is selected (it is then the last row this walk
 * wrote), else their values are stepped over. *used_ret: the values they held. */
static pqt_status emit_continuation(pqt_chunk_ctx *cx, const pqt_col *col, int ptype,
                                    int type_len, const pqt_page_view *pv, pqt_colbuf *dst,
                                    int64_t *used_ret)
{
    const uint8_t *defs = pv->defs;
    int64_t c = pv->ncont, nslots = 0, k = 0;
    PQT_TRY(pqt_buf_reserve(&cx->slots, (size_t)c + 1));
    uint8_t *slots = cx->slots.data;
    for (int64_t e = 0; e < c; e++) {
        int d = defs ? defs[e] : col->max_def;
        if (d >= col->elem_def) {
            slots[nslots++] = d == col->max_def;
            k += d == col->max_def;
        }
    }
    *used_ret = k;
    if (!pv->cont_selected) return k ? pqt_vdec_skip(cx->vdec, k) : PQT_OK;
    if (PQT_UNLIKELY(dst->nrows < 1))
        return pqt_err(PQT_CORRUPT, "list page continues a row that was not read");
    PQT_TRY(pqt_colbuf_reserve_elems(dst, dst->nelem + nslots));
    PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, k < nslots ? slots : NULL, nslots, k,
                                 dst, dst->nelem));
    dst->nelem += nslots;
    dst->list_offsets[dst->nrows] = dst->nelem;
    return PQT_OK;
}

pqt_status pqt_page_emit_list(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                              const pqt_page_view *pv, const pqt_sel *sel, int64_t page_row0,
                              pqt_colbuf *dst)
{
    PQT_TRY(init_values(cx, ptype, type_len, pv));
    pqt_page_view rest;
    if (pv->ncont > 0) {
        /* the continued row first, then the rows starting in the page as a page of their own */
        int64_t used = 0, c = pv->ncont;
        PQT_TRY(emit_continuation(cx, col, ptype, type_len, pv, dst, &used));
        rest = *pv;
        rest.reps += c;
        if (rest.defs) rest.defs += c;
        if (rest.present) rest.present += c;
        rest.nlevels -= c;
        rest.nvalues -= used;
        rest.ncont = 0;
        pv = &rest;
    }
    if (pv->nrows == 0) return PQT_OK;
    const uint8_t *reps = pv->reps, *defs = pv->defs;
    int64_t n = pv->nlevels;
    if (pv->nvalues == n && pqt_sel_count(sel, page_row0, page_row0 + pv->nrows) == pv->nrows) {
        /* Every entry is a present element and every row is wanted (fixed_size_list and
         * most vector data): decode all values at once, offsets from the row starts. */
        if (PQT_UNLIKELY(dst->nrows + pv->nrows > dst->rows_cap))
            return pqt_err(PQT_CORRUPT, "more list rows than the destination holds");
        PQT_TRY(pqt_colbuf_reserve_elems(dst, dst->nelem + n));
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, NULL, n, n, dst, dst->nelem));
        int64_t *off = dst->list_offsets;
        int64_t rix = dst->nrows, base = dst->nelem;
        for (int64_t i = 1; i < n; i++)
            if (reps[i] == 0) off[++rix] = base + i;
        off[++rix] = base + n;
        if (dst->row_validity) pqt_bitmap_set_from_bytes(dst->row_validity, dst->nrows, NULL, pv->nrows);
        dst->nrows = rix;
        dst->nelem += n;
        return PQT_OK;
    }
    if (pv->nvalues == n && !defs)
        return pqt_page_emit_list_dense(cx, col, ptype, type_len, pv, sel, page_row0, dst);
    PQT_TRY(pqt_buf_reserve(&cx->slots, (size_t)n + 1));
    uint8_t *slots = cx->slots.data;
    pqt_sel_cursor cur;
    pqt_sel_seek(sel, &cur, page_row0);
    int64_t s, l, row = 0, e = 0;
    while (pqt_sel_next_run(sel, &cur, page_row0, page_row0 + pv->nrows, &s, &l)) {
        s -= page_row0;
        /* skip entries of unselected rows, counting the values they hold */
        int64_t skip_vals = 0;
        while (row < s) {
            do {
                skip_vals += defs ? defs[e] == col->max_def : 1;
                e++;
            } while (e < n && reps[e] != 0);
            row++;
        }
        if (skip_vals) PQT_TRY(pqt_vdec_skip(cx->vdec, skip_vals));
        if (PQT_UNLIKELY(dst->nrows + l > dst->rows_cap))
            return pqt_err(PQT_CORRUPT, "more list rows than the destination holds");
        int64_t nslots = 0, k = 0;
        for (int64_t r = 0; r < l; r++, row++) {
            int64_t a = e;
            do {
                int d = defs ? defs[e] : col->max_def;
                if (d >= col->elem_def) {
                    slots[nslots++] = d == col->max_def;
                    k += d == col->max_def;
                }
                e++;
            } while (e < n && reps[e] != 0);
            int64_t rix = dst->nrows++;
            /* from the running count, not offsets[rix]: in a parallel windowed read the
             * first row's offsets[rix] is the boundary the previous window's thread writes */
            dst->list_offsets[rix + 1] = dst->nelem + nslots;
            if (dst->row_validity && (!defs || defs[a] >= col->list_def))
                __atomic_fetch_or(&dst->row_validity[rix >> 3], (uint8_t)(1u << (rix & 7)),
                                  __ATOMIC_RELAXED); /* neighbours may be another thread's */
        }
        PQT_TRY(pqt_colbuf_reserve_elems(dst, dst->nelem + nslots));
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, k < nslots ? slots : NULL, nslots,
                                     k, dst, dst->nelem));
        dst->nelem += nslots;
    }
    return PQT_OK;
}
