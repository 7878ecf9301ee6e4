/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_emit.c - one data page into a pqt_colbuf under a row selection (layer: column): the
 * page-level entry points (flat pages, list pages, a list row continued from the page
 * before) that pick the path for the selection: runs of values (page_values.c), a gather for
 * fragmented selections, or the few-rows paths of page_sparse.c. Above both, so neither
 * calls back up into it.
 */
#include <string.h>

#include "column/column_int.h"
#include "column/page_levels.h"
#include "util/error.h"

/* Values among rows [lo, hi) of a page: all of them without a presence array. */
static int64_t count_present(const uint8_t *present, int64_t lo, int64_t hi)
{
    return present ? pqt_levels_count_present(present + lo, hi - lo) : hi - lo;
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
            case 1:
                out[k] = page_vals[r];
                break;
            case 4:
                memcpy(out + k * 4, page_vals + r * 4, 4);
                break;
            case 8:
                memcpy(out + k * 8, page_vals + r * 8, 8);
                break;
            case 16:
                memcpy(out + k * 16, page_vals + r * 16, 16);
                break;
            default:
                memcpy(out + (size_t)k * elem, page_vals + (size_t)r * elem, elem);
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
    int64_t m =
        sel->kind == PQT_SEL_BITS && !PQT_KIND_IS_BYTES(dst->elem_kind) && dst->elem_nbytes > 0
            ? pqt_sel_count(sel, page_row0, page_row0 + pv->nrows)
            : 0;
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
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, pv->present, pv->nrows, pv->nvalues,
                                     &whole, 0));
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
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, pv->present ? pv->present + s : NULL,
                                     l, k, dst, *out_row));
        *out_row += l;
        pos = s + l;
    }
    return PQT_OK;
}

/* The first pv->ncont entries of a list page, which continue the row the page before began:
 * appended to dst's last row when that row is selected (it is then the last row this walk
 * wrote), else their values are stepped over. *used_ret: the values they held. */
static pqt_status emit_continuation(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                                    const pqt_page_view *pv, pqt_colbuf *dst, int64_t *used_ret)
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
        if (dst->row_validity)
            pqt_bitmap_set_from_bytes(dst->row_validity, dst->nrows, NULL, pv->nrows);
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
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, k < nslots ? slots : NULL, nslots, k,
                                     dst, dst->nelem));
        dst->nelem += nslots;
    }
    return PQT_OK;
}
