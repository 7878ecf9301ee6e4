/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_export_array.c - rows of a column as an Arrow C Data Interface array (layer: arrow;
 * docs/arrow.md "Export").
 *
 * Values whose pqt layout is Arrow's (fixed-width numbers, dates, times and timestamps in
 * micro- or nanoseconds, int64 string offsets and bytes, list offsets starting at 0, LSB-first
 * validity bitmaps with 1 = present) are handed over in place: the array points into the
 * colbuf at an offset and holds a reference to the arrays' owner (pqt_colbuf_share), so they
 * live until the consumer releases it. The rest is converted into buffers the array owns:
 * bool bytes to bits, float32 back to halffloat, milliseconds to int32, unscaled decimals to
 * 16 or 32 bytes, UUID text to 16 bytes, map offsets to int32, list offsets rebased to 0.
 */
#include <stdatomic.h>
#include <string.h>

#include "arrow/arrow_int.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"

static _Atomic int64_t live_blocks;

int64_t pqt_arrow_live_blocks(void)
{
    return atomic_load(&live_blocks);
}

void pqt_ax_live_add(int64_t d)
{
    atomic_fetch_add(&live_blocks, d);
}

/* What a zero-length buffer points at: Arrow consumers may dereference data buffers that are
 * not NULL, and some reject NULL ones. */
static _Alignas(64) const uint64_t empty_buf[8];

typedef struct ax_arr {
    pqt_colbuf_share *share[2]; /* owners of the arrays pointed into (references held) */
    void *owned[3];             /* buffers made for this array */
    const void *bufs[3];
    struct ArrowArray **kids; /* NULL-terminated: every child made, released or not */
} ax_arr;

static void arr_release(struct ArrowArray *a)
{
    if (!a || !a->release) return;
    ax_arr *p = a->private_data;
    for (int i = 0; p->kids && p->kids[i]; i++) {
        if (p->kids[i]->release) p->kids[i]->release(p->kids[i]);
        pqt_mem_free(p->kids[i]);
    }
    pqt_mem_free(p->kids);
    for (int i = 0; i < 3; i++)
        pqt_mem_free(p->owned[i]);
    for (int i = 0; i < 2; i++)
        pqt_colbuf_share_drop(p->share[i]);
    pqt_mem_free(p);
    a->release = NULL;
    pqt_ax_live_add(-1);
}

static pqt_status oom(void)
{
    return pqt_err(PQT_NOMEM, "out of memory exporting Arrow arrays");
}

/* An array of length rows, nbuf buffers (all NULL) and nkids empty children, into *out. */
static pqt_status arr_new(struct ArrowArray *out, int64_t length, int nbuf, int nkids, ax_arr **pp)
{
    memset(out, 0, sizeof *out);
    ax_arr *p = pqt_calloc(1, sizeof *p);
    if (!p) return oom();
    p->kids = pqt_calloc((size_t)nkids + 1, sizeof *p->kids);
    out->length = length;
    out->n_buffers = nbuf;
    out->buffers = p->bufs;
    out->n_children = nkids;
    out->children = p->kids;
    out->private_data = p;
    out->release = arr_release;
    pqt_ax_live_add(1);
    bool ok = p->kids != NULL;
    for (int i = 0; ok && i < nkids; i++)
        ok = (p->kids[i] = pqt_calloc(1, sizeof **p->kids));
    if (!ok) {
        arr_release(out);
        return oom();
    }
    *pp = p;
    return PQT_OK;
}

/* A buffer of nbytes this array owns (zeroed, a whole number of 64-byte blocks). */
static void *owned(ax_arr *p, int i, size_t nbytes)
{
    p->owned[i] = pqt_calloc((nbytes + 63) / 64 * 64 + 64, 1);
    p->bufs[i] = p->owned[i];
    return p->owned[i];
}

static void hold(ax_arr *p, int i, pqt_colbuf_share *s)
{
    pqt_colbuf_share_ref(s);
    p->share[i] = s;
}

/* Zeros of bm over [at, at + n); 0 for no bitmap. */
static int64_t count_nulls(const uint8_t *bm, int64_t at, int64_t n)
{
    if (!bm || n == 0) return 0;
    int64_t set = 0, i = at, end = at + n;
    for (; i < end && (i & 7); i++)
        set += pqt_bit_get(bm, i);
    for (; i + 64 <= end; i += 64) {
        uint64_t x;
        memcpy(&x, bm + (i >> 3), 8);
        set += pqt_popcount64(x);
    }
    for (; i < end; i++)
        set += pqt_bit_get(bm, i);
    return n - set;
}

/* IEEE binary16 of f, rounded to nearest even: exact for every value read from a FLOAT16. */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t exp = (x >> 23) & 0xff, mant = x & 0x7fffff;
    if (exp == 0xff) return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
    int e = (int)exp - 112; /* the half's biased exponent */
    if (e >= 31) return (uint16_t)(sign | 0x7c00);
    int shift = 13;
    if (e <= 0) { /* a half subnormal (or zero) */
        if (e < -10) return sign;
        mant |= 0x800000;
        shift = 14 - e;
    }
    uint32_t m = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (m & 1))) m++;
    return (uint16_t)(sign | ((e > 0 ? (uint32_t)e << 10 : 0) + m));
}

static int hex(uint8_t c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The 16 bytes of a UUID's 36-char text; false when it is not one. */
static bool uuid_bytes(const uint8_t *s, int64_t len, uint8_t *out)
{
    if (len != 36) return false;
    int k = 0;
    for (int i = 0; i < 36 && k < 16; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-') return false;
            continue;
        }
        int hi = hex(s[i]), lo = hex(s[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[k++] = (uint8_t)(hi << 4 | lo);
        i++;
    }
    return k == 16;
}

/* Convert elements [e0, e0 + k) of b (element e) into buffer 1 of p. */
static pqt_status convert(const pqt_ax_elem *e, const pqt_colbuf *b, int64_t e0, int64_t k,
                          ax_arr *p)
{
    size_t w = e->how == PQT_AX_BOOL     ? 0
               : e->how == PQT_AX_HALF   ? 2
               : e->how == PQT_AX_TIME32 ? 4
               : e->how == PQT_AX_UUID   ? 16
                                         : (size_t)e->decimal_nbytes;
    uint8_t *d = owned(p, 1, w ? (size_t)k * w : (size_t)(k + 7) / 8);
    if (!d) return oom();
    switch (e->how) {
    case PQT_AX_BOOL: {
        const uint8_t *v = (const uint8_t *)b->data + e0;
        for (int64_t i = 0; i < k; i++)
            pqt_bit_or(d, i, v[i] != 0);
        break;
    }
    case PQT_AX_HALF: {
        const float *v = (const float *)b->data + e0;
        uint16_t *h = (uint16_t *)d;
        for (int64_t i = 0; i < k; i++)
            h[i] = float_to_half(v[i]);
        break;
    }
    case PQT_AX_TIME32: {
        const int64_t *v = (const int64_t *)b->data + e0;
        int32_t *o = (int32_t *)d;
        for (int64_t i = 0; i < k; i++)
            o[i] = (int32_t)v[i]; /* ms of a day fit */
        break;
    }
    case PQT_AX_DECIMAL: {
        size_t in = b->elem_nbytes; /* 8 (int64) or 16 (int128, low word first) */
        const uint8_t *v = (const uint8_t *)b->data + (size_t)e0 * in;
        for (int64_t i = 0; i < k; i++) {
            uint8_t *o = d + (size_t)i * w;
            memcpy(o, v + (size_t)i * in, in);
            /* sign-extend to the decimal's width (little-endian two's complement) */
            uint8_t fill = (v[(size_t)i * in + in - 1] & 0x80) ? 0xff : 0;
            memset(o + in, fill, w - in);
        }
        break;
    }
    case PQT_AX_UUID:
        for (int64_t i = 0; i < k; i++) {
            if (!pqt_bit_get(b->validity, e0 + i)) continue;
            int64_t o0 = b->str_offsets[e0 + i], o1 = b->str_offsets[e0 + i + 1];
            if (!uuid_bytes(b->str_bytes.data + o0, o1 - o0, d + 16 * i))
                return pqt_err(PQT_CORRUPT, "element %lld is not a UUID's text",
                               (long long)(e0 + i + 1));
        }
        break;
    default:
        break;
    }
    return PQT_OK;
}

/* Elements [e0, e0 + k) of b as an array of element type e, into *out. */
static pqt_status leaf(const pqt_ax_elem *e, const pqt_colbuf *b, pqt_colbuf_share *s, int64_t e0,
                       int64_t k, struct ArrowArray *out)
{
    ax_arr *p;
    bool bytes = e->how == PQT_AX_BYTES;
    PQT_TRY(arr_new(out, k, bytes ? 3 : 2, 0, &p));
    int64_t nulls = count_nulls(b->validity, e0, k);
    out->null_count = nulls;
    pqt_status st = PQT_OK;
    if (e->how == PQT_AX_PLAIN || bytes) {
        hold(p, 0, s);
        out->offset = e0;
        p->bufs[0] = nulls ? b->validity : NULL;
        p->bufs[1] = bytes ? (const void *)b->str_offsets : b->data ? b->data : empty_buf;
        if (bytes) p->bufs[2] = b->str_bytes.data ? b->str_bytes.data : (const void *)empty_buf;
        return PQT_OK;
    }
    if (nulls) {
        uint8_t *v = owned(p, 0, (size_t)(k + 7) / 8);
        if (!v)
            st = oom();
        else
            pqt_bits_copy(v, 0, b->validity, e0, k);
    }
    if (st == PQT_OK) st = convert(e, b, e0, k, p);
    if (st != PQT_OK) arr_release(out);
    return st;
}

static pqt_status list_array(const pqt_ax_col *c, const pqt_colbuf *b, pqt_colbuf_share *s,
                             int64_t r0, int64_t n, struct ArrowArray *out)
{
    const int64_t *lo = b->list_offsets;
    int64_t e0 = lo[r0], e1 = lo[r0 + n], rnulls = count_nulls(b->row_validity, r0, n);
    ax_arr *p;
    PQT_TRY(arr_new(out, n, 2, 1, &p));
    out->null_count = rnulls;
    pqt_status st = PQT_OK;
    if (e0 == 0) { /* the colbuf's own offsets index the child as it is */
        hold(p, 0, s);
        out->offset = r0;
        p->bufs[0] = rnulls ? b->row_validity : NULL;
        p->bufs[1] = lo;
    } else {
        int64_t *o = owned(p, 1, (size_t)(n + 1) * 8);
        if (!o) st = oom();
        for (int64_t i = 0; o && i <= n; i++)
            o[i] = lo[r0 + i] - e0;
        if (st == PQT_OK && rnulls) {
            uint8_t *v = owned(p, 0, (size_t)(n + 7) / 8);
            if (!v)
                st = oom();
            else
                pqt_bits_copy(v, 0, b->row_validity, r0, n);
        }
    }
    if (st == PQT_OK) st = leaf(&c->elem, b, s, e0, e1 - e0, out->children[0]);
    if (st != PQT_OK) arr_release(out);
    return st;
}

/* Rows [r0, r0 + n) of the keys kb and [vr0, vr0 + n) of the values vb (each column is
 * fed on its own: one may be resident, the other read by row group). */
static pqt_status map_array(const pqt_ax_col *c, const pqt_colbuf *kb, pqt_colbuf_share *ks,
                            const pqt_colbuf *vb, pqt_colbuf_share *vs, int64_t r0, int64_t vr0,
                            int64_t n, struct ArrowArray *out)
{
    const int64_t *lo = kb->list_offsets;
    int64_t e0 = lo[r0], e1 = lo[r0 + n], rnulls = count_nulls(kb->row_validity, r0, n);
    if (e1 - e0 > INT32_MAX)
        return pqt_err(PQT_RANGE,
                       "map column '%s': %lld entries in one batch, more than an "
                       "Arrow map's int32 offsets hold (take fewer batch_rows)",
                       c->name, (long long)(e1 - e0));
    if (!vb->list_offsets || vb->list_offsets[vr0 + n] - vb->list_offsets[vr0] != e1 - e0)
        return pqt_err(PQT_CORRUPT, "map column '%s': keys and values disagree in count", c->name);
    ax_arr *p, *ep;
    PQT_TRY(arr_new(out, n, 2, 1, &p));
    out->null_count = rnulls;
    pqt_status st = PQT_OK;
    int32_t *o = owned(p, 1, (size_t)(n + 1) * 4);
    if (!o) st = oom();
    for (int64_t i = 0; o && i <= n; i++)
        o[i] = (int32_t)(lo[r0 + i] - e0);
    if (st == PQT_OK && rnulls) {
        uint8_t *v = owned(p, 0, (size_t)(n + 7) / 8);
        if (!v)
            st = oom();
        else
            pqt_bits_copy(v, 0, kb->row_validity, r0, n);
    }
    struct ArrowArray *ent = out->children[0];
    if (st == PQT_OK) st = arr_new(ent, e1 - e0, 1, 2, &ep);
    if (st == PQT_OK) st = leaf(&c->elem, kb, ks, e0, e1 - e0, ent->children[0]);
    if (st == PQT_OK)
        st = leaf(&c->velem, vb, vs, vb->list_offsets[vr0], e1 - e0, ent->children[1]);
    if (st != PQT_OK) arr_release(out);
    return st;
}

pqt_status pqt_ax_array(const pqt_ax_col *c, pqt_colbuf_share *s, int64_t r0, pqt_colbuf_share *vs,
                        int64_t vr0, int64_t n, struct ArrowArray *out)
{
    const pqt_colbuf *b = pqt_colbuf_share_arrays(s);
    pqt_status st;
    switch (c->shape) {
    case PQT_AX_SCALAR:
        st = leaf(&c->elem, b, s, r0, n, out);
        break;
    case PQT_AX_VECTOR: {
        ax_arr *p;
        int64_t w = c->width, e0 = b->list_offsets ? b->list_offsets[r0] : r0 * w;
        PQT_TRY(arr_new(out, n, 1, 1, &p));
        st = leaf(&c->elem, b, s, e0, n * w, out->children[0]);
        if (st != PQT_OK) arr_release(out);
        break;
    }
    case PQT_AX_LIST:
        st = list_array(c, b, s, r0, n, out);
        break;
    default:
        st = map_array(c, b, s, pqt_colbuf_share_arrays(vs), vs, r0, vr0, n, out);
        break;
    }
    if (st != PQT_OK) pqt_err_prefix("column '%s': ", c->name);
    return st;
}

pqt_status pqt_ax_struct(int64_t n, const uint8_t *present, struct ArrowArray *kids, int nkids,
                         struct ArrowArray *out)
{
    ax_arr *p;
    pqt_status st = arr_new(out, n, 1, nkids, &p);
    int64_t nulls = 0;
    for (int64_t r = 0; present && r < n; r++)
        nulls += !present[r];
    if (st == PQT_OK && nulls > 0) { /* a bitmap only when a row is null */
        uint8_t *bm = owned(p, 0, (size_t)(n + 7) / 8);
        if (!bm) {
            arr_release(out);
            st = oom();
        }
        for (int64_t r = 0; bm && r < n; r++)
            if (present[r]) bm[r >> 3] |= (uint8_t)(1u << (r & 7));
        out->null_count = nulls;
    }
    for (int i = 0; i < nkids; i++) {
        if (st == PQT_OK)
            *out->children[i] = kids[i]; /* a move: bitwise */
        else
            kids[i].release(&kids[i]);
    }
    return st;
}
