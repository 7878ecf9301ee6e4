/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_levels.c - one data page's repetition and definition levels: located, decoded with
 * the max-level check, and counted (layer: column; rules in docs/levels.md).
 *
 * Flat pages count their values first (O(1) per RLE run) and build per-row presence bytes
 * only when some row is null; list pages whose levels are all the maximum (no null or
 * empty list, no null element) step over them without decoding.
 */
#include <string.h>

#include "column/column_int.h"
#include "column/page_levels.h"
#include "util/error.h"
#include "util/le.h"

void pqt_chunk_ctx_set_levels_only(pqt_chunk_ctx *cx, bool on)
{
    cx->levels_only = on;
}

pqt_status pqt_levels_v1_nbytes(const uint8_t *p, size_t len, size_t *nbytes)
{
    if (len < 4) return pqt_err(PQT_CORRUPT, "levels length prefix past the end of the page");
    uint32_t nb = pqt_load_le32(p);
    if (nb > len - 4)
        return pqt_err(PQT_CORRUPT, "levels of %u bytes run past the page (%zu bytes left)", nb,
                       len - 4);
    *nbytes = nb;
    return PQT_OK;
}

pqt_status pqt_levels_take_v1(const uint8_t **p, size_t *len, int encoding, const uint8_t **lv,
                              size_t *lv_n)
{
    if (encoding != PQT_ENC_RLE)
        return pqt_err(PQT_UNSUPPORTED_ENCODING, "level encoding %d not supported (only RLE)",
                       encoding);
    size_t nbytes = 0;
    PQT_TRY(pqt_levels_v1_nbytes(*p, *len, &nbytes));
    *lv = *p + 4;
    *lv_n = nbytes;
    *p += 4 + nbytes;
    *len -= 4 + nbytes;
    return PQT_OK;
}

pqt_status pqt_levels_decode(const uint8_t *lv, size_t lv_n, int max_level, int64_t n, uint8_t *out)
{
    pqt_rle_dec d;
    int bw = pqt_level_bit_width(max_level);
    PQT_TRY(pqt_rle_init(&d, bw, lv, lv_n));
    PQT_TRY(pqt_rle_get_u8(&d, n, out));
    if (max_level == (1 << bw) - 1) return PQT_OK; /* the bit width cannot say more */
    /* one pass for the maximum, a second only to name the culprit */
    uint8_t hi = 0;
    for (int64_t i = 0; i < n; i++)
        hi = out[i] > hi ? out[i] : hi;
    if (PQT_LIKELY(hi <= max_level)) return PQT_OK;
    int64_t i = 0;
    while (out[i] <= max_level)
        i++;
    return pqt_err(PQT_CORRUPT, "level %d above the maximum %d", out[i], max_level);
}

bool pqt_levels_all_max(const uint8_t *lv, size_t lv_n, int max_level, int64_t n)
{
    pqt_rle_dec d;
    return n > 0 && pqt_rle_init(&d, pqt_level_bit_width(max_level), lv, lv_n) == PQT_OK &&
           pqt_rle_refill(&d, n) == PQT_OK && d.rle_left >= n && d.rle_value == (uint32_t)max_level;
}

pqt_status pqt_levels_presence(pqt_chunk_ctx *cx, int max_def, const uint8_t *lv, size_t lv_n,
                               int64_t n, const uint8_t **present_ret, int64_t *npresent)
{
    PQT_TRY(pqt_buf_reserve(&cx->defs, (size_t)n + 1));
    PQT_TRY(pqt_buf_reserve(&cx->present, (size_t)n + 1));
    uint8_t *defs = cx->defs.data;
    /* Most pages hold no null: their levels are one RLE run, counted in O(1) without
     * materializing a byte per row. Otherwise decode once and sum. */
    pqt_rle_dec d;
    PQT_TRY(pqt_rle_init(&d, pqt_level_bit_width(max_def), lv, lv_n));
    if (n > 0 && pqt_rle_refill(&d, n) == PQT_OK && d.rle_left >= n &&
        d.rle_value == (uint32_t)max_def) {
        *npresent = n;
        *present_ret = NULL;
        return PQT_OK;
    }
    PQT_TRY(pqt_levels_decode(lv, lv_n, max_def, n, defs));
    uint8_t *present = defs;
    if (max_def != 1) {
        present = cx->present.data;
        for (int64_t i = 0; i < n; i++)
            present[i] = defs[i] == max_def;
    }
    int64_t nn = pqt_levels_count_present(present, n);
    *npresent = nn;
    *present_ret = nn == n ? NULL : present;
    return PQT_OK;
}

void pqt_levels_rows(const uint8_t *reps, int64_t n, int64_t *ncont, int64_t *nrows)
{
    const uint8_t *z = n > 0 ? memchr(reps, 0, (size_t)n) : NULL;
    int64_t c = z ? (int64_t)(z - reps) : n;
    *ncont = c;
    *nrows = c < n ? pqt_count_zero_bytes(reps + c, n - c) : 0;
}

/* The definition levels of a list page are all the maximum (one RLE run)? Then they are not
 * decoded; a v1 page's are stepped over. A malformed stream says false (the decode that
 * follows reports it). */
static bool list_all_present(const pqt_page_header *h, int max_def, bool v2, pqt_page_parts *pp,
                             int64_t n)
{
    const uint8_t *lv = pp->def, *p = pp->p;
    size_t lv_n = pp->def_n, len = pp->len;
    if (!v2 && (h->def_level_encoding != PQT_ENC_RLE || len < 4 || pqt_load_le32(p) > len - 4))
        return false; /* pqt_levels_take_v1 reports it */
    if (!v2) {
        lv = p + 4;
        lv_n = pqt_load_le32(p);
    }
    if (!pqt_levels_all_max(lv, lv_n, max_def, n)) return false;
    if (!v2) {
        pp->p += 4 + lv_n;
        pp->len -= 4 + lv_n;
    }
    return true;
}

/* Definition levels of a page with repetition levels: decoded, then which entries hold a
 * value (the emitter reads presence per entry). */
static pqt_status list_defs(pqt_chunk_ctx *cx, const pqt_page_header *h, int max_def, bool v2,
                            pqt_page_parts *pp, pqt_page_levels *out)
{
    int64_t n = out->n;
    if (list_all_present(h, max_def, v2, pp, n)) {
        out->npresent = n; /* defs NULL: every entry holds a value */
        return PQT_OK;
    }
    const uint8_t *lv = pp->def;
    size_t lv_n = pp->def_n;
    if (!v2) PQT_TRY(pqt_levels_take_v1(&pp->p, &pp->len, h->def_level_encoding, &lv, &lv_n));
    uint8_t *defs = cx->defs.data, *present = cx->present.data;
    PQT_TRY(pqt_levels_decode(lv, lv_n, max_def, n, defs));
    int64_t nn = 0;
    for (int64_t i = 0; i < n; i++) {
        present[i] = defs[i] == max_def;
        nn += present[i];
    }
    out->defs = defs;
    out->present = present;
    out->npresent = nn;
    return PQT_OK;
}

pqt_status pqt_page_levels_take(pqt_chunk_ctx *cx, const pqt_page_header *h, int max_rep,
                                int max_def, const uint8_t *reps_known, pqt_page_parts *pp,
                                pqt_page_levels *out)
{
    bool v2 = h->type == PQT_PAGE_DATA_V2;
    int64_t n = h->num_values;
    size_t len0 = pp->len;
    pqt_page_levels lv = {.n = n, .npresent = n, .nrows_started = n};
    PQT_TRY(pqt_buf_reserve(&cx->defs, (size_t)n + 1));
    PQT_TRY(pqt_buf_reserve(&cx->reps, (size_t)n + 1));
    PQT_TRY(pqt_buf_reserve(&cx->present, (size_t)n + 1));
    if (max_rep > 0) {
        const uint8_t *rp = pp->rep;
        size_t rn = pp->rep_n;
        if (!v2) PQT_TRY(pqt_levels_take_v1(&pp->p, &pp->len, h->rep_level_encoding, &rp, &rn));
        if (reps_known)
            lv.reps = reps_known;
        else {
            PQT_TRY(pqt_levels_decode(rp, rn, max_rep, n, cx->reps.data));
            lv.reps = cx->reps.data;
        }
        pqt_levels_rows(lv.reps, n, &lv.ncont, &lv.nrows_started);
    }
    if (max_def > 0 && max_rep == 0) {
        const uint8_t *dp = pp->def;
        size_t dn = pp->def_n;
        if (!v2) PQT_TRY(pqt_levels_take_v1(&pp->p, &pp->len, h->def_level_encoding, &dp, &dn));
        PQT_TRY(pqt_levels_presence(cx, max_def, dp, dn, n, &lv.present, &lv.npresent));
        lv.defs = lv.present ? cx->defs.data : NULL;
    } else if (max_def > 0) {
        PQT_TRY(list_defs(cx, h, max_def, v2, pp, &lv));
    }
    lv.nbytes = len0 - pp->len;
    *out = lv;
    return PQT_OK;
}
