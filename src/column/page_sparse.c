/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_sparse.c - the selected rows of a page when few are selected (layer: column).
 *
 * A filter keeping 1% of rows keeps a row in nearly every page, so every page is
 * decompressed, but almost all of its values are passed over. page_values.c walks the
 * selection as skip/decode runs: a decoder call or two per kept row, and for list pages a
 * scan over every level entry of the rows between. Here:
 *  - a page keeping a few rows (a top-n's) is decompressed only in part: a snappy page in
 *    the 64 KiB blocks that hold them, a zstd page up to the last (pqt_page_gather_sparse;
 *    page_decode.c decides when);
 *  - a flat PLAIN page of fixed-width values is read in place: the value of row r is value
 *    number r minus the nulls before it, copied in a loop over the selection's bits with no
 *    call per row (docs/pruning.md, "Per row group" step 6, without the decode);
 *  - a list page whose every entry is a present element (no null or empty list, no null
 *    element: one value per level entry) finds the rows it keeps by counting row starts
 *    (repetition level 0) eight entries at a time, and decodes each kept run at once.
 */
#include <string.h>

#include "column/column_int.h"
#include "column/page_levels.h"
#include "util/error.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_LITTLE_ENDIAN 0
#else
#define HOST_LITTLE_ENDIAN 1
#endif

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* 0x80 in each byte of w that is zero, 0 elsewhere (exact: no borrow between bytes). */
static inline uint64_t zero_bytes(uint64_t w)
{
    uint64_t low7 = w & ~HIGHS;
    return ~((low7 + ~HIGHS) | w) & HIGHS;
}

static inline int64_t count_high_bits(uint64_t m)
{
    return (int64_t)(((m >> 7) * ONES) >> 56);
}


bool pqt_page_plain_in_place(const pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                             const pqt_page_view *pv, const pqt_colbuf *dst)
{
    if (!HOST_LITTLE_ENDIAN || cx->want_codes || pv->encoding != PQT_ENC_PLAIN) return false;
    if (col->conv != PQT_CONV_NONE || PQT_KIND_IS_BYTES(dst->elem_kind)) return false;
    if (ptype == PQT_PT_BOOLEAN || ptype == PQT_PT_BYTE_ARRAY) return false;
    size_t w = dst->elem_nbytes;
    return w > 0 && pqt_ptype_nbytes(ptype, type_len) == w;
}

/* Copy value `vi` of vals (w bytes each) to slot k of out; constant widths become moves. */
static inline void copy_value(uint8_t *out, int64_t k, const uint8_t *vals, int64_t vi, size_t w)
{
    switch (w) {
    case 4:
        memcpy(out + k * 4, vals + vi * 4, 4);
        break;
    case 8:
        memcpy(out + k * 8, vals + vi * 8, 8);
        break;
    default:
        memcpy(out + (size_t)k * w, vals + (size_t)vi * w, w);
    }
}

pqt_status pqt_page_gather_plain(pqt_chunk_ctx *cx, const pqt_page_view *pv, const pqt_sel *sel,
                                 int64_t page_row0, int64_t m, pqt_colbuf *dst, int64_t *out_row)
{
    const size_t w = dst->elem_nbytes;
    if (PQT_UNLIKELY((uint64_t)pv->nvalues > pv->values_nbytes / w))
        return pqt_err(PQT_CORRUPT,
                       "PLAIN data: %lld values of %zu bytes need more than the "
                       "page's %zu bytes",
                       (long long)pv->nvalues, w, pv->values_nbytes);
    if (PQT_UNLIKELY(*out_row + m > dst->nrows))
        return pqt_err(PQT_CORRUPT, "more selected rows than the destination holds");
    const uint8_t *present = pv->present, *vals = pv->values;
    uint8_t *kept_present = NULL;
    if (present) {
        PQT_TRY(pqt_buf_reserve(&cx->slots, (size_t)m + 8));
        kept_present = cx->slots.data;
    }
    uint8_t *out = (uint8_t *)dst->data + (size_t)*out_row * w;
    const int64_t lo = page_row0, hi = page_row0 + pv->nrows;
    int64_t k = 0, vi = 0, counted_to = 0; /* vi: values in rows [0, counted_to) */
    for (int64_t wi = lo >> 6; wi <= (hi - 1) >> 6; wi++) {
        uint64_t word = pqt_sel_word_in(sel, wi, lo, hi);
        while (word) {
            int64_t r = wi * 64 + __builtin_ctzll(word) - page_row0;
            word &= word - 1;
            if (!present) {
                copy_value(out, k, vals, r, w);
            } else {
                vi += pqt_levels_count_present(present + counted_to, r - counted_to);
                counted_to = r;
                if (present[r])
                    copy_value(out, k, vals, vi, w);
                else
                    memset(out + (size_t)k * w, 0, w);
                kept_present[k] = present[r];
            }
            k++;
        }
    }
    cx->nvalues_out += present ? pqt_levels_count_present(kept_present, m) : m;
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, *out_row, kept_present, m);
    *out_row += m;
    return PQT_OK;
}

pqt_status pqt_page_gather_sparse(pqt_chunk_ctx *cx, pqt_page_fill_fn fill, void *state,
                                  const uint8_t *page, size_t values_at, const pqt_sel *sel,
                                  int64_t page_row0, int64_t nrows, pqt_colbuf *dst,
                                  int64_t *out_row)
{
    const size_t w = dst->elem_nbytes;
    const int64_t lo = page_row0, hi = page_row0 + nrows;
    pqt_sel_cursor cur;
    int64_t s, l, m = 0;
    /* every kept byte first, so that a block that is not block-local leaves dst as it was */
    pqt_sel_seek(sel, &cur, lo);
    while (pqt_sel_next_run(sel, &cur, lo, hi, &s, &l)) {
        size_t from = values_at + (size_t)(s - lo) * w;
        PQT_TRY(fill(state, from, from + (size_t)l * w));
        m += l;
    }
    if (PQT_UNLIKELY(*out_row + m > dst->nrows))
        return pqt_err(PQT_CORRUPT, "more selected rows than the destination holds");
    uint8_t *out = (uint8_t *)dst->data + (size_t)*out_row * w;
    pqt_sel_seek(sel, &cur, lo);
    while (pqt_sel_next_run(sel, &cur, lo, hi, &s, &l)) {
        memcpy(out, page + values_at + (size_t)(s - lo) * w, (size_t)l * w);
        out += (size_t)l * w;
    }
    cx->nvalues_out += m;
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, *out_row, NULL, m);
    *out_row += m;
    return PQT_OK;
}

int64_t pqt_count_zero_bytes(const uint8_t *p, int64_t n)
{
    int64_t c = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        c += count_high_bits(zero_bytes(v));
    }
    for (; i < n; i++) c += p[i] == 0;
    return c;
}

/* The entry where the k-th row start after entry e begins (k >= 1), or n when the page ends
 * first. reps[e..n) are the page's repetition levels; 0 starts a row. */
static int64_t skip_row_starts(const uint8_t *reps, int64_t n, int64_t e, int64_t k)
{
    int64_t i = e + 1;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, reps + i, 8);
        int64_t c = count_high_bits(zero_bytes(v));
        if (c >= k) break;
        k -= c;
    }
    for (; i < n; i++)
        if (reps[i] == 0 && --k == 0) return i;
    return n;
}

pqt_status pqt_page_emit_list_dense(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                                    const pqt_page_view *pv, const pqt_sel *sel, int64_t page_row0,
                                    pqt_colbuf *dst)
{
    const uint8_t *reps = pv->reps;
    const int64_t n = pv->nlevels;
    pqt_sel_cursor cur;
    pqt_sel_seek(sel, &cur, page_row0);
    int64_t s, l, row = 0, e = 0, vals_used = 0; /* e: the entry where row `row` starts */
    while (pqt_sel_next_run(sel, &cur, page_row0, page_row0 + pv->nrows, &s, &l)) {
        s -= page_row0;
        if (s > row) e = skip_row_starts(reps, n, e, s - row);
        int64_t end = skip_row_starts(reps, n, e, l);
        if (PQT_UNLIKELY(e >= n || dst->nrows + l > dst->rows_cap))
            return pqt_err(PQT_CORRUPT, "more list rows than the destination holds");
        if (e > vals_used) PQT_TRY(pqt_vdec_skip(cx->vdec, e - vals_used));
        int64_t k = end - e;
        PQT_TRY(pqt_colbuf_reserve_elems(dst, dst->nelem + k));
        PQT_TRY(pqt_page_emit_values(cx, col, ptype, type_len, NULL, k, k, dst, dst->nelem));
        /* offsets: each kept row ends where the next row starts */
        int64_t *off = dst->list_offsets, rix = dst->nrows, base = dst->nelem - e;
        for (int64_t i = e + 1; i < end; i++)
            if (reps[i] == 0) off[++rix] = base + i;
        off[++rix] = base + end;
        if (PQT_UNLIKELY(rix - dst->nrows != l))
            return pqt_err(PQT_CORRUPT, "list page: %lld rows selected, %lld found", (long long)l,
                           (long long)(rix - dst->nrows));
        if (dst->row_validity) pqt_bitmap_set_from_bytes(dst->row_validity, dst->nrows, NULL, l);
        dst->nrows = rix;
        dst->nelem += k;
        vals_used = end;
        row = s + l;
        e = end;
    }
    return PQT_OK;
}
