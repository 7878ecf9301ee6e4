/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_values.c - runs of one data page's values into a pqt_colbuf (layer: column); the
 * page-level paths that call it are in page_emit.c.
 *
 * A page is walked as alternating skip/decode runs taken from the selection. Non-null
 * values are decoded densely straight into the destination and then spread backwards
 * over the null slots, so there is no intermediate array for the common case; the value
 * conversion is a function chosen once per page (page_convert.c), called once per run, and
 * only converted kinds (decimal, INT96, FLOAT16, UUID, uint32) go through scratch. Lists
 * (max_rep 1) turn level entries into rows (rep == 0 starts a row), list offsets,
 * row validity and element slots, then reuse the same value path over the slots.
 */
#include <string.h>

#include "column/column_int.h"
#include "util/error.h"

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

/* k values converted into a string destination (cx->conv.bytes), then the offsets of the
 * l slots, nulls empty. */
static pqt_status emit_bytes(pqt_chunk_ctx *cx, const uint8_t *present, int64_t l, int64_t k,
                             pqt_colbuf *dst, int64_t pos)
{
    int64_t *off = dst->str_offsets;
    PQT_TRY(pqt_buf_reserve(&cx->ends, (size_t)k * sizeof(int64_t) + 8));
    int64_t *ends = (int64_t *)cx->ends.data;
    PQT_TRY(cx->conv.bytes(cx, cx->conv.type_len, k, dst, ends));
    if (!present) {
        for (int64_t i = 0; i < l; i++)
            off[pos + i + 1] = ends[i];
    } else {
        int64_t j = 0;
        for (int64_t i = 0; i < l; i++)
            off[pos + i + 1] = present[i] ? ends[j++] : off[pos + i];
    }
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, pos, present, l);
    return PQT_OK;
}

/* A dispatch: codes, strings, dictionary lookups in place, or the page's conversion
 * (cx->conv, page_convert.c) into the slots, spread over the nulls. */
pqt_status pqt_page_emit_values(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                                const uint8_t *present, int64_t l, int64_t k, pqt_colbuf *dst,
                                int64_t pos)
{
    (void)ptype, (void)type_len; /* chosen with the conversion (init_values) */
    cx->nvalues_out += k;
    if (cx->want_codes) return emit_codes(cx, cx->vdec, present, l, k, dst, pos);
    if (cx->conv.bytes) return emit_bytes(cx, present, l, k, dst, pos);
    if (present && k < l && cx->conv.dict_spread && pqt_vdec_is_dict(cx->vdec) && cx->dict.n > 0)
        return emit_dict_spread(cx, cx->vdec, present, l, k, dst, pos);
    size_t esz = dst->elem_nbytes;
    uint8_t *base = (uint8_t *)dst->data + (size_t)pos * esz;
    PQT_TRY(cx->conv.fixed(cx, col, cx->conv.type_len, k, esz, base));
    if (present && k < l) pqt_page_expand(base, esz, present, l, k);
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, pos, present, l);
    return PQT_OK;
}
