/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_values.c - decode the selected values of one data page into a pqt_colbuf
 * (layer: column).
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

/* A page's value decoder, and its conversion into dst (page_convert.c), chosen once. */
static pqt_status init_values(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                              const pqt_page_view *pv, const pqt_colbuf *dst)
{
    pqt_page_conv_pick(col, ptype, type_len, dst, &cx->conv);
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
    PQT_TRY(init_values(cx, col, ptype, type_len, pv, dst));
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
    PQT_TRY(init_values(cx, col, ptype, type_len, pv, dst));
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
