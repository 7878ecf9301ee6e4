/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_stats.c - exact min/max and null counts of the values a writer writes (layer: write;
 * parquet-format Statistics and PageIndex.md).
 *
 * Bounds are in the column's sort order: signed for INT32/INT64 unless the logical type is
 * unsigned, IEEE order for floats with NaN left out (a run of only NaN has no bounds), and
 * unsigned bytewise for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (UUID), signed big-endian for a
 * FIXED_LEN_BYTE_ARRAY DECIMAL (its two's complement unscaled integers). A zero bound is written as -0.0 for a minimum and +0.0
 * for a maximum, as the format asks, so readers pruning on either sign are right.
 */
#include <math.h>
#include <string.h>

#include "util/error.h"
#include "write/write_int.h"

void pqt_wstats_reset(pqt_wstats *s)
{
    s->has_minmax = false;
    s->null_count = 0;
    s->min.len = s->max.len = 0;
}

void pqt_wstats_free(pqt_wstats *s)
{
    pqt_buf_free(&s->min);
    pqt_buf_free(&s->max);
    s->has_minmax = false;
}

static int bytes_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    size_t m = an < bn ? an : bn;
    int r = m ? memcmp(a, b, m) : 0;
    if (r) return r;
    return an < bn ? -1 : an > bn;
}

/* A value's first 8 bytes as a big-endian number, zero-padded: keys order as the values'
 * first 8 bytes do (a shorter value padded with zeros sorts as its prefix does), so two
 * values with different keys compare as their keys. */
static inline uint64_t prefix_key(const uint8_t *p, size_t n)
{
    uint64_t k = 0;
    if (n >= 8) {
        memcpy(&k, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        return k;
#else
        return __builtin_bswap64(k);
#endif
    }
    for (size_t i = 0; i < 8; i++) k = k << 8 | (i < n ? p[i] : 0);
    return k;
}

int pqt_wstats_cmp(const pqt_wcol *c, const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    switch (c->ptype) {
    case PQT_PT_BOOLEAN: return (int)a[0] - (int)b[0];
    case PQT_PT_INT32: {
        int32_t x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        if (c->unsigned_cmp) return (uint32_t)x < (uint32_t)y ? -1 : (uint32_t)x > (uint32_t)y;
        return x < y ? -1 : x > y;
    }
    case PQT_PT_INT64: {
        int64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (c->unsigned_cmp) return (uint64_t)x < (uint64_t)y ? -1 : (uint64_t)x > (uint64_t)y;
        return x < y ? -1 : x > y;
    }
    case PQT_PT_FLOAT: {
        float x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        return x < y ? -1 : x > y;
    }
    case PQT_PT_DOUBLE: {
        double x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        return x < y ? -1 : x > y;
    }
    case PQT_PT_FIXED_LEN_BYTE_ARRAY:
        /* a DECIMAL's big-endian two's complement: the sign byte decides, then the rest as
         * unsigned bytes (both values have the column's length) */
        if (c->signed_bytes && an > 0 && bn > 0 && a[0] != b[0])
            return (int8_t)a[0] < (int8_t)b[0] ? -1 : 1;
        return bytes_cmp(a, an, b, bn); /* UUID: unsigned bytes */
    default: return bytes_cmp(a, an, b, bn);
    }
}

static pqt_status put(pqt_buf *dst, const void *src, size_t n)
{
    dst->len = 0;
    return pqt_buf_append(dst, src, n);
}

/* Fixed-width min/max of n values: loops per type, one pass, no per-value call. */
#define MINMAX_LOOP(T, CMPT)                                                                       \
    do {                                                                                           \
        const T *v = values;                                                                       \
        int64_t i = 0;                                                                             \
        CMPT lo = 0, hi = 0;                                                                       \
        bool any = false;                                                                          \
        for (; i < n; i++) {                                                                       \
            CMPT x = (CMPT)v[i];                                                                   \
            if (x != x) continue; /* NaN */                                                        \
            if (!any) { lo = hi = x; any = true; }                                                 \
            else { if (x < lo) lo = x; if (x > hi) hi = x; }                                       \
        }                                                                                          \
        if (!any) return PQT_OK;                                                                   \
        T tlo = (T)lo, thi = (T)hi;                                                                \
        if (!s->has_minmax || pqt_wstats_cmp(c, (const uint8_t *)&tlo, sizeof tlo, s->min.data,    \
                                             s->min.len) < 0)                                      \
            PQT_TRY(put(&s->min, &tlo, sizeof tlo));                                               \
        if (!s->has_minmax || pqt_wstats_cmp(c, (const uint8_t *)&thi, sizeof thi, s->max.data,    \
                                             s->max.len) > 0)                                      \
            PQT_TRY(put(&s->max, &thi, sizeof thi));                                               \
        s->has_minmax = true;                                                                      \
    } while (0)

static void zero_signs(const pqt_wcol *c, pqt_wstats *s)
{
    if (c->ptype == PQT_PT_FLOAT) {
        float lo, hi;
        memcpy(&lo, s->min.data, 4);
        memcpy(&hi, s->max.data, 4);
        if (lo == 0) lo = -0.0f;
        if (hi == 0) hi = 0.0f;
        memcpy(s->min.data, &lo, 4);
        memcpy(s->max.data, &hi, 4);
    } else if (c->ptype == PQT_PT_DOUBLE) {
        double lo, hi;
        memcpy(&lo, s->min.data, 8);
        memcpy(&hi, s->max.data, 8);
        if (lo == 0) lo = -0.0;
        if (hi == 0) hi = 0.0;
        memcpy(s->min.data, &lo, 8);
        memcpy(s->max.data, &hi, 8);
    }
}

pqt_status pqt_wstats_add(pqt_wstats *s, const pqt_wcol *c, const void *values,
                          const int64_t *offsets, const uint8_t *bytes, int64_t n)
{
    if (n <= 0) return PQT_OK;
    switch (c->ptype) {
    case PQT_PT_BOOLEAN: MINMAX_LOOP(uint8_t, int); break;
    case PQT_PT_INT32:
        if (c->unsigned_cmp) MINMAX_LOOP(uint32_t, uint32_t);
        else MINMAX_LOOP(int32_t, int32_t);
        break;
    case PQT_PT_INT64:
        if (c->unsigned_cmp) MINMAX_LOOP(uint64_t, uint64_t);
        else MINMAX_LOOP(int64_t, int64_t);
        break;
    case PQT_PT_FLOAT: MINMAX_LOOP(float, float); break;
    case PQT_PT_DOUBLE: MINMAX_LOOP(double, double); break;
    case PQT_PT_FIXED_LEN_BYTE_ARRAY: {
        size_t w = (size_t)c->type_length;
        const uint8_t *v = values, *l = v, *h = v;
        for (int64_t i = 1; i < n; i++) {
            const uint8_t *x = v + (size_t)i * w;
            if (pqt_wstats_cmp(c, x, w, l, w) < 0) l = x;
            if (pqt_wstats_cmp(c, x, w, h, w) > 0) h = x;
        }
        if (!s->has_minmax || pqt_wstats_cmp(c, l, w, s->min.data, s->min.len) < 0)
            PQT_TRY(put(&s->min, l, w));
        if (!s->has_minmax || pqt_wstats_cmp(c, h, w, s->max.data, s->max.len) > 0)
            PQT_TRY(put(&s->max, h, w));
        s->has_minmax = true;
        return PQT_OK;
    }
    default: {
        /* bytewise: the 8-byte keys decide unless they tie, so most values cost two integer
         * comparisons instead of two memcmp calls */
        int64_t lo = 0, hi = 0;
        uint64_t klo = prefix_key(bytes + offsets[0], (size_t)(offsets[1] - offsets[0])), khi = klo;
        for (int64_t i = 1; i < n; i++) {
            const uint8_t *x = bytes + offsets[i];
            size_t xn = (size_t)(offsets[i + 1] - offsets[i]);
            uint64_t k = prefix_key(x, xn);
            if (k <= klo && (k < klo || bytes_cmp(x, xn, bytes + offsets[lo],
                                                  (size_t)(offsets[lo + 1] - offsets[lo])) < 0)) {
                lo = i;
                klo = k;
            }
            if (k >= khi && (k > khi || bytes_cmp(x, xn, bytes + offsets[hi],
                                                  (size_t)(offsets[hi + 1] - offsets[hi])) > 0)) {
                hi = i;
                khi = k;
            }
        }
        const uint8_t *l = bytes + offsets[lo], *h = bytes + offsets[hi];
        size_t ln = (size_t)(offsets[lo + 1] - offsets[lo]), hn = (size_t)(offsets[hi + 1] - offsets[hi]);
        /* an empty string's bytes pointer may be past the data: compare by length first */
        if (!s->has_minmax || pqt_wstats_cmp(c, l, ln, s->min.data, s->min.len) < 0)
            PQT_TRY(put(&s->min, ln ? l : (const uint8_t *)"", ln));
        if (!s->has_minmax || pqt_wstats_cmp(c, h, hn, s->max.data, s->max.len) > 0)
            PQT_TRY(put(&s->max, hn ? h : (const uint8_t *)"", hn));
        s->has_minmax = true;
        return PQT_OK;
    }
    }
    zero_signs(c, s);
    return PQT_OK;
}

pqt_status pqt_wstats_merge(pqt_wstats *s, const pqt_wcol *c, const pqt_wstats *o)
{
    s->null_count += o->null_count;
    if (!o->has_minmax) return PQT_OK;
    if (!s->has_minmax || pqt_wstats_cmp(c, o->min.data, o->min.len, s->min.data, s->min.len) < 0)
        PQT_TRY(put(&s->min, o->min.data, o->min.len));
    if (!s->has_minmax || pqt_wstats_cmp(c, o->max.data, o->max.len, s->max.data, s->max.len) > 0)
        PQT_TRY(put(&s->max, o->max.data, o->max.len));
    s->has_minmax = true;
    return PQT_OK;
}
