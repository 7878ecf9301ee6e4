/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff_write_val.c - values for the differential test's writer (diff_write_int.h): their
 * orders (TYPE_ORDER, and the signed order of the deprecated min/max), statistics bounds as
 * writers shape them, the value encodings of Encodings.md (PLAIN, dictionary indices, RLE
 * booleans, DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT, DELTA_LENGTH_BYTE_ARRAY,
 * DELTA_BYTE_ARRAY), hybrid runs from tests/ref/ref_rle.c, snappy from libsnappy.
 */
#include <math.h>
#include <snappy-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_write_int.h"
#include "format/meta.h"
#include "testutil.h"

#include "../ref/ref_rle.c"

uint64_t *dw_rng;
uint64_t dw_rnd64(void) { return pqt_test_rand(dw_rng); }
int64_t dw_rn(int64_t n) { return n > 0 ? (int64_t)(dw_rnd64() % (uint64_t)n) : 0; }
int dw_pct(int p) { return dw_rn(100) < p; }

/* ---- values and their order ---- */

int dw_present(const dw_col *c, int64_t r)
{
    return !c->valid || ((c->valid[r >> 3] >> (r & 7)) & 1);
}

size_t dw_ptype_width(int pt)
{
    switch (pt) {
    case PQT_PT_BOOLEAN: return 1;
    case PQT_PT_INT32:
    case PQT_PT_FLOAT: return 4;
    case PQT_PT_INT64:
    case PQT_PT_DOUBLE: return 8;
    default: return 0;
    }
}

/* Value id r: a row of a flat column, an element of a list column. */
const uint8_t *dw_val(const dw_col *c, int64_t r, size_t *len)
{
    if (c->ptype == PQT_PT_BYTE_ARRAY) {
        const int64_t *o = c->vals;
        *len = (size_t)(o[r + 1] - o[r]);
        return (const uint8_t *)c->bytes + o[r];
    }
    *len = dw_ptype_width(c->ptype);
    return (const uint8_t *)c->vals + (size_t)r * *len;
}

double dw_fval(int pt, const uint8_t *p)
{
    if (pt == PQT_PT_FLOAT) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double d;
    memcpy(&d, p, 8);
    return d;
}

int dw_is_float(int pt) { return pt == PQT_PT_FLOAT || pt == PQT_PT_DOUBLE; }

/* The column's order (cord) or the signed one of the deprecated min/max fields (legacy):
 * TYPE_ORDER is signed for integers (unsigned for UINT_32), IEEE for floats (never called
 * with NaN), unsigned bytes; old writers compared every integer and every byte signed. */
static int cmp_ord(int pt, int uns, const uint8_t *a, size_t la, const uint8_t *b, size_t lb)
{
    switch (pt) {
    case PQT_PT_BOOLEAN: return (a[0] > b[0]) - (a[0] < b[0]);
    case PQT_PT_INT32: {
        int32_t x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        if (uns) return ((uint32_t)x > (uint32_t)y) - ((uint32_t)x < (uint32_t)y);
        return (x > y) - (x < y);
    }
    case PQT_PT_INT64: {
        int64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        return (x > y) - (x < y);
    }
    case PQT_PT_FLOAT:
    case PQT_PT_DOUBLE: {
        double x = dw_fval(pt, a), y = dw_fval(pt, b);
        return (x > y) - (x < y);
    }
    default: {
        size_t n = la < lb ? la : lb;
        for (size_t i = 0; i < n && uns < 0; i++) /* legacy: signed bytes */
            if (a[i] != b[i]) return (int8_t)a[i] < (int8_t)b[i] ? -1 : 1;
        int m = memcmp(a, b, n);
        if (m) return m < 0 ? -1 : 1;
        return (la > lb) - (la < lb);
    }
    }
}

int dw_legacy; /* scan_mm and cmp use the deprecated fields' signed order */

int dw_cmp(const dw_col *c, const uint8_t *a, size_t la, const uint8_t *b, size_t lb)
{
    int uns = dw_legacy ? (c->ptype == PQT_PT_BYTE_ARRAY ? -1 : 0) : c->ann == DW_UINT32;
    return cmp_ord(c->ptype, uns, a, la, b, lb);
}

/* ---- bounds (chunk statistics and column index entries) ---- */


/* a max cut to k bytes stays an upper bound once its last byte is raised */
static int cut_max(uint8_t *hi, size_t *hlen, size_t k)
{
    while (k > 0 && hi[k - 1] == 0xff) k--;
    if (k == 0) return 0;
    hi[k - 1]++;
    *hlen = k;
    return 1;
}

/* Bounds of the present values vids[0..nv) of a chunk or page holding `nulls` nulls. */
void dw_scan_mm(const dw_col *c, const int64_t *vids, int64_t nv, int64_t nulls, dw_mm *m)
{
    memset(m, 0, sizeof *m);
    m->lo_exact = m->hi_exact = 1;
    m->nulls = nulls;
    m->nonnull = nv;
    const uint8_t *lo = NULL, *hi = NULL;
    size_t ll = 0, hl = 0;
    for (int64_t i = 0; i < nv; i++) {
        size_t len;
        const uint8_t *p = dw_val(c, vids[i], &len);
        if (dw_is_float(c->ptype) && isnan(dw_fval(c->ptype, p))) {
            m->nans++;
            continue;
        }
        if (!lo || dw_cmp(c, p, len, lo, ll) < 0) lo = p, ll = len;
        if (!hi || dw_cmp(c, p, len, hi, hl) > 0) hi = p, hl = len;
    }
    if (!lo) return;
    m->has = 1;
    m->llen = ll < BMAX ? ll : BMAX;
    memcpy(m->lo, lo, m->llen);
    m->lo_exact = ll <= BMAX;
    m->hlen = hl < BMAX ? hl : BMAX;
    memcpy(m->hi, hi, m->hlen);
    if (hl > BMAX && !cut_max(m->hi, &m->hlen, BMAX)) m->has = 0; /* no bound at all */
    m->hi_exact = hl <= BMAX;
}

/* Bounds the way writers shape them: a zero float bound of either sign (the spec asks for
 * -0 as min and +0 as max; older writers wrote whichever they met), string bounds cut to a
 * few bytes (min: a prefix; max: a prefix with its last byte raised). */
void dw_shape(int pt, dw_mm *m, dw_info *info)
{
    if (!m->has) return;
    if (dw_is_float(pt)) {
        if (dw_fval(pt, m->lo) == 0 && dw_pct(70)) {
            if (pt == PQT_PT_FLOAT) {
                float z = -0.0f;
                memcpy(m->lo, &z, 4);
            } else {
                double z = -0.0;
                memcpy(m->lo, &z, 8);
            }
        }
        if (dw_fval(pt, m->hi) == 0 && dw_pct(70)) memset(m->hi, 0, m->hlen);
    }
    if (pt == PQT_PT_BYTE_ARRAY && dw_pct(25)) {
        int cut = 0;
        if (m->llen > 1) {
            m->llen = 1 + (size_t)dw_rn((int64_t)m->llen - 1);
            m->lo_exact = 0;
            cut = 1;
        }
        if (m->hlen > 1 && cut_max(m->hi, &m->hlen, 1 + (size_t)dw_rn((int64_t)m->hlen - 1))) {
            m->hi_exact = 0;
            cut = 1;
        }
        info->truncated_bounds += cut;
    }
}

/* ---- value encodings ---- */

static void pack(pqb *o, const uint64_t *v, size_t n, int bw)
{
    size_t start = o->n, nbytes = (n * (size_t)bw + 7) / 8;
    for (size_t i = 0; i < nbytes; i++) pqb_u8(o, 0);
    uint64_t bit = 0;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < bw; b++, bit++)
            if ((v[i] >> b) & 1) o->b[start + bit / 8] |= (uint8_t)(1u << (bit % 8));
}

int dw_bits_of(uint64_t v)
{
    int b = 0;
    while (v) b++, v >>= 1;
    return b;
}

/* DELTA_BINARY_PACKED, blocks of 128 in 4 miniblocks; INT32 deltas wrap at 32 bits */
static void dbp(pqb *o, const int64_t *v, size_t n, int is32)
{
    pqb_uvar(o, 128);
    pqb_uvar(o, 4);
    pqb_uvar(o, n);
    pqb_zz(o, n ? v[0] : 0);
    for (size_t s = 1; s < n; s += 128) {
        size_t cnt = n - s < 128 ? n - s : 128;
        int64_t d[128], mind = INT64_MAX;
        for (size_t i = 0; i < cnt; i++) {
            d[i] = is32 ? (int64_t)(int32_t)((uint32_t)v[s + i] - (uint32_t)v[s + i - 1])
                        : (int64_t)((uint64_t)v[s + i] - (uint64_t)v[s + i - 1]);
            if (d[i] < mind) mind = d[i];
        }
        pqb_zz(o, mind);
        uint64_t rel[128] = {0};
        for (size_t i = 0; i < cnt; i++) rel[i] = (uint64_t)d[i] - (uint64_t)mind;
        int w[4] = {0};
        for (size_t m = 0; m < 4; m++) {
            uint64_t mx = 0;
            for (size_t i = m * 32; i < cnt && i < m * 32 + 32; i++) mx = rel[i] > mx ? rel[i] : mx;
            w[m] = m * 32 < cnt ? dw_bits_of(mx) : 0;
            pqb_u8(o, (uint8_t)w[m]);
        }
        for (size_t m = 0; m * 32 < cnt; m++) pack(o, rel + m * 32, 32, w[m]);
    }
}

void dw_hybrid(pqb *o, const uint32_t *v, size_t n, int bw)
{
    ref_out r = {0};
    ref_rle_encode(&r, bw, v, n, dw_rnd64);
    pqb_bytes(o, r.data, r.len);
    free(r.data);
}


/* Dictionary of the chunk's present values (by bytes: -0 and +0 are two entries); 0 when
 * it would grow past 300 entries or have none. */
int dw_make_dict(const dw_col *c, const int64_t *vids, int64_t nv, dw_dict *d)
{
    d->ids = malloc(300 * sizeof *d->ids);
    d->code = calloc((size_t)nv + 1, sizeof *d->code);
    d->n = 0;
    for (int64_t i = 0; i < nv; i++) {
        size_t len, l2;
        const uint8_t *p = dw_val(c, vids[i], &len);
        int64_t k = 0;
        for (; k < d->n; k++) {
            const uint8_t *q = dw_val(c, d->ids[k], &l2);
            if (l2 == len && memcmp(p, q, len) == 0) break;
        }
        if (k == d->n) {
            if (d->n == 300) return 0;
            d->ids[d->n++] = vids[i];
        }
        d->code[i] = (uint32_t)k;
    }
    return d->n > 0;
}

void dw_plain(pqb *o, const dw_col *c, const int64_t *rows, size_t n)
{
    if (c->ptype == PQT_PT_BOOLEAN) {
        uint64_t *b = malloc((n + 1) * sizeof *b);
        for (size_t i = 0; i < n; i++) b[i] = *dw_val(c, rows[i], &(size_t){0}) != 0;
        pack(o, b, n, 1);
        free(b);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *p = dw_val(c, rows[i], &len);
        if (c->ptype == PQT_PT_BYTE_ARRAY) pqb_le32(o, (uint32_t)len);
        pqb_bytes(o, p, len);
    }
}

static int64_t ival(const dw_col *c, int64_t r)
{
    size_t len;
    const uint8_t *p = dw_val(c, r, &len);
    if (len == 4) {
        int32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    int64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* The present values rows[0..n) of one page in encoding enc (codes: their dictionary
 * codes). */
void dw_values(pqb *o, const dw_col *c, const int64_t *rows, size_t n, int enc,
                   const dw_dict *d, const uint32_t *codes)
{
    int64_t *iv = calloc(n + 1, sizeof *iv);
    switch (enc) {
    case PQT_ENC_PLAIN: dw_plain(o, c, rows, n); break;
    case PQT_ENC_RLE: { /* booleans: a 4-byte length, then width-1 runs */
        uint32_t *b = malloc((n + 1) * sizeof *b);
        for (size_t i = 0; i < n; i++) b[i] = *dw_val(c, rows[i], &(size_t){0}) != 0;
        pqb body = {0};
        dw_hybrid(&body, b, n, 1);
        pqb_le32(o, (uint32_t)body.n);
        pqb_bytes(o, body.b, body.n);
        pqb_free(&body);
        free(b);
        break;
    }
    case PQT_ENC_PLAIN_DICTIONARY:
    case PQT_ENC_RLE_DICTIONARY: {
        uint32_t *k = malloc((n + 1) * sizeof *k);
        for (size_t i = 0; i < n; i++) k[i] = codes[i];
        int bw = dw_bits_of((uint64_t)(d->n - 1));
        if (bw == 0 && dw_pct(50)) bw = 1;
        pqb_u8(o, (uint8_t)bw);
        dw_hybrid(o, k, n, bw);
        free(k);
        break;
    }
    case PQT_ENC_DELTA_BINARY_PACKED:
        for (size_t i = 0; i < n; i++) iv[i] = ival(c, rows[i]);
        dbp(o, iv, n, c->ptype == PQT_PT_INT32);
        break;
    case PQT_ENC_BYTE_STREAM_SPLIT: {
        size_t w = dw_ptype_width(c->ptype), len;
        for (size_t k = 0; k < w; k++)
            for (size_t i = 0; i < n; i++) pqb_u8(o, dw_val(c, rows[i], &len)[k]);
        break;
    }
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
    case PQT_ENC_DELTA_BYTE_ARRAY: {
        int64_t *pre = calloc(n + 1, sizeof *pre);
        size_t len, pl = 0;
        const uint8_t *prev = NULL;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = dw_val(c, rows[i], &len);
            size_t k = 0;
            if (enc == PQT_ENC_DELTA_BYTE_ARRAY && prev)
                while (k < len && k < pl && p[k] == prev[k]) k++;
            pre[i] = (int64_t)k;
            iv[i] = (int64_t)(len - k);
            prev = p;
            pl = len;
        }
        if (enc == PQT_ENC_DELTA_BYTE_ARRAY) dbp(o, pre, n, 1);
        dbp(o, iv, n, 1);
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = dw_val(c, rows[i], &len);
            pqb_bytes(o, p + pre[i], len - (size_t)pre[i]);
        }
        free(pre);
        break;
    }
    }
    free(iv);
}

void dw_compress(pqb *dst, const uint8_t *src, size_t n, int codec)
{
    if (codec == PQT_CODEC_UNCOMPRESSED) {
        pqb_bytes(dst, src, n);
        return;
    }
    size_t cap = snappy_max_compressed_length(n);
    char *tmp = malloc(cap + 1);
    if (snappy_compress((const char *)src, n, tmp, &cap) != SNAPPY_OK) {
        fputs("diff_write: snappy failed\n", stderr);
        exit(2);
    }
    pqb_bytes(dst, tmp, cap);
    free(tmp);
}
