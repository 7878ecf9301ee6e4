/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_decode.c - one page of a column chunk: a dictionary page loaded, or a data page
 * decoded in short stages (layer: column).
 *
 * A data page goes: place (bound its level count, find its rows from the header or the
 * offset index) -> skip when no selected row is in it, before decompressing -> straight
 * into the column when it qualifies (page_direct.c), or decompressed only in part when it
 * keeps few rows (page_sparse) -> v1/v2 preparation (decompress a v1
 * page whole, a v2 page's values only) -> levels (repetition, then presence) -> values
 * of the selected rows (page_values.c). Parquet-format: DataPageHeader, DataPageHeaderV2,
 * DictionaryPageHeader, definition and repetition levels (RLE/bit-packed hybrid). Every
 * size a header claims is checked against the chunk before it is allocated.
 */
#include <string.h>

#include "codec/snappy_sparse.h"
#include "codec/zstd_prefix.h"
#include "column/column_int.h"
#include "util/error.h"

/* Largest decompressed page we accept: bounds what a hostile header can make us allocate. */
#define MAX_PAGE_NBYTES ((int64_t)1 << 30)

static int bit_width_of(int v)
{
    int w = 0;
    while (v >> w) w++;
    return w;
}

/* Decode n levels (RLE/bit-packed, no length prefix) into out. */
static pqt_status decode_levels(const uint8_t *p, size_t len, int max_level, int64_t n,
                                uint8_t *out)
{
    pqt_rle_dec d;
    PQT_TRY(pqt_rle_init(&d, bit_width_of(max_level), p, len));
    PQT_TRY(pqt_rle_get_u8(&d, n, out));
    if (max_level == (1 << bit_width_of(max_level)) - 1) return PQT_OK; /* cannot exceed */
    for (int64_t i = 0; i < n; i++)
        if (PQT_UNLIKELY(out[i] > max_level))
            return pqt_err(PQT_CORRUPT, "level %d above the maximum %d", out[i], max_level);
    return PQT_OK;
}

/* The 4-byte little-endian length in front of a v1 page's levels. */
static uint32_t levels_nbytes(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* v1 levels: 4-byte little-endian length, then RLE data. Advances *p / *len. */
static pqt_status take_v1_levels(const uint8_t **p, size_t *len, int encoding, int max_level,
                                 int64_t n, uint8_t *out)
{
    if (encoding != PQT_ENC_RLE)
        return pqt_err(PQT_UNSUPPORTED_ENCODING, "level encoding %d not supported (only RLE)",
                       encoding);
    if (*len < 4) return pqt_err(PQT_CORRUPT, "levels length prefix past the end of the page");
    uint32_t nbytes = levels_nbytes(*p);
    if (nbytes > *len - 4)
        return pqt_err(PQT_CORRUPT, "levels of %u bytes run past the page (%zu bytes left)",
                       nbytes, *len - 4);
    PQT_TRY(decode_levels(*p + 4, nbytes, max_level, n, out));
    *p += 4 + nbytes;
    *len -= 4 + (size_t)nbytes;
    return PQT_OK;
}

/* Most bytes a page of n level entries can take when its values have a fixed width
 * (INT64_MAX for BYTE_ARRAY, whose values have no bound). PLAIN takes n x width; dictionary
 * codes, DELTA_BINARY_PACKED and RLE booleans can take a little more (an RLE run per value
 * costs a header byte; delta blocks have headers), so 2 bytes more per entry are allowed,
 * 10 for FIXED_LEN_BYTE_ARRAY (whose DELTA_BYTE_ARRAY stores two lengths per value); each
 * level stream inside the page (v1) adds up to 2 bytes per entry (an RLE run per level),
 * and every page a little overhead. */
static int64_t fixed_page_bound(int ptype, int type_len, int64_t n, int nlevel_streams)
{
    if (ptype == PQT_PT_BYTE_ARRAY) return INT64_MAX;
    int64_t w = (int64_t)pqt_ptype_nbytes(ptype, type_len);
    if (w <= 0) return INT64_MAX;
    int64_t per = w + (ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY ? 10 : 2) + 2 * nlevel_streams;
    if (n > (INT64_MAX >> 2) / per) return INT64_MAX;
    return n * per + 1024;
}

/* Make dst a buffer for a page of dst_n claimed bytes. The claim is checked first against
 * what the compressed bytes can expand to, the values the page holds (values_max) and what
 * the chunk leaves (unc_max; INT64_MAX for dictionary pages, which some writers leave out
 * of the chunk's total); only then is the buffer made (page_buf.c). */
static pqt_status page_claim(pqt_chunk_ctx *cx, int codec, size_t src_n, pqt_buf *dst,
                             int64_t dst_n, int64_t values_max, int64_t unc_max)
{
    if (dst_n < 0 || dst_n > MAX_PAGE_NBYTES)
        return pqt_err(PQT_CORRUPT, "page uncompressed size %lld is not plausible",
                       (long long)dst_n);
    int64_t codec_max = pqt_codec_max_nbytes(codec, (int64_t)src_n);
    if (PQT_UNLIKELY(dst_n > codec_max))
        return pqt_err(PQT_CORRUPT, "page claims %lld uncompressed bytes; %zu bytes of %s cannot "
                                    "hold more than %lld",
                       (long long)dst_n, src_n, pqt_codec_name(codec), (long long)codec_max);
    if (PQT_UNLIKELY(dst_n > values_max))
        return pqt_err(PQT_CORRUPT, "page claims %lld uncompressed bytes; its values cannot take "
                                    "more than %lld",
                       (long long)dst_n, (long long)values_max);
    if (PQT_UNLIKELY(dst_n > unc_max))
        return pqt_err(PQT_CORRUPT, "page claims %lld uncompressed bytes; the column chunk's "
                                    "total_uncompressed_size leaves %lld",
                       (long long)dst_n, (long long)(unc_max > 0 ? unc_max : 0));
    PQT_TRY(pqt_page_buf_reserve(cx, dst, (size_t)dst_n + 8));
    dst->len = (size_t)dst_n;
    memset(dst->data + dst_n, 0, 8); /* decoders may look at a few bytes past the end */
    return PQT_OK;
}

/* Decompress a page of dst_n claimed bytes into dst (claims checked by page_claim). */
static pqt_status decompress_into(pqt_chunk_ctx *cx, int codec, const uint8_t *src,
                                  size_t src_n, pqt_buf *dst, int64_t dst_n, int64_t values_max,
                                  int64_t unc_max)
{
    PQT_TRY(page_claim(cx, codec, src_n, dst, dst_n, values_max, unc_max));
    return pqt_codec_decompress(cx->codec, codec, src, src_n, dst->data, (size_t)dst_n);
}

/* Are the n definition levels in lv one RLE run of the maximum (no null: found in O(1))? */
static bool levels_all_max(const pqt_col *col, const uint8_t *lv, size_t lv_n, int64_t n)
{
    pqt_rle_dec d;
    return n > 0 && pqt_rle_init(&d, bit_width_of(col->max_def), lv, lv_n) == PQT_OK &&
           pqt_rle_refill(&d, n) == PQT_OK && d.rle_left >= n &&
           d.rle_value == (uint32_t)col->max_def;
}

pqt_status pqt_page_levels_presence(pqt_chunk_ctx *cx, const pqt_col *col, const uint8_t *lv,
                                    size_t lv_n, pqt_page_direct *pd)
{
    int64_t n = pd->nrows;
    PQT_TRY(pqt_buf_reserve(&cx->defs, (size_t)n + 1));
    PQT_TRY(pqt_buf_reserve(&cx->present, (size_t)n + 1));
    uint8_t *defs = cx->defs.data;
    /* Most pages hold no null: their levels are one RLE run, counted in O(1) without
     * materializing a byte per row. Otherwise decode once and sum. */
    pqt_rle_dec d;
    PQT_TRY(pqt_rle_init(&d, bit_width_of(col->max_def), lv, lv_n));
    if (n > 0 && pqt_rle_refill(&d, n) == PQT_OK && d.rle_left >= n &&
        d.rle_value == (uint32_t)col->max_def) {
        pd->nvalues = n;
        pd->present = NULL;
        return PQT_OK;
    }
    PQT_TRY(decode_levels(lv, lv_n, col->max_def, n, defs));
    uint8_t *present = defs;
    if (col->max_def != 1) {
        present = cx->present.data;
        for (int64_t i = 0; i < n; i++) present[i] = defs[i] == col->max_def;
    }
    /* count 8 presence bytes (each 0 or 1) per multiply */
    int64_t nn = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, present + i, 8);
        nn += (int64_t)((w * 0x0101010101010101ULL) >> 56);
    }
    for (; i < n; i++) nn += present[i];
    pd->nvalues = nn;
    pd->present = nn == n ? NULL : present;
    return PQT_OK;
}

/* Stage 1, the page's place in the chunk: bound its level count by what the chunk leaves
 * (level buffers are sized by it), and find its rows when the header (flat) or the offset
 * index (v1 lists) tells them: *rows_ret is -1 when only the levels can. A list page's rows
 * are the rows that start in it; a v2 header's num_rows is not used for lists, since writers
 * count a row continued from the page before in it too (list_page_rows). */
static pqt_status page_place(pqt_chunk_walk *w, const pqt_page_header *h, int64_t rows_done,
                             int64_t *rows_ret)
{
    bool v2 = h->type == PQT_PAGE_DATA_V2, flat = w->col->max_rep == 0;
    if (h->num_values < 0) return pqt_err(PQT_CORRUPT, "negative num_values %d", h->num_values);
    int64_t nlevels = h->num_values;
    /* flat pages are bounded by the row group's rows below (one entry per row) */
    if (PQT_UNLIKELY(!flat && nlevels > w->values_left))
        return pqt_err(PQT_CORRUPT, "page holds %lld values, the column chunk's metadata leaves "
                                    "%lld of its %lld",
                       (long long)nlevels, (long long)w->values_left,
                       (long long)w->cm->num_values);
    w->values_left -= nlevels;
    w->n_pages++;
    int64_t page_rows = -1;
    if (flat) page_rows = nlevels;
    else if (v2) page_rows = -1;
    else if (w->oi_rows && w->data_page_no < w->oi_npages) page_rows = w->oi_rows[w->data_page_no];
    w->data_page_no++;
    if (flat && v2 && h->num_rows != nlevels)
        return pqt_err(PQT_CORRUPT, "flat column page has %d rows but %d values", h->num_rows,
                       h->num_values);
    if (page_rows >= 0 && page_rows > w->rg_rows - rows_done)
        return pqt_err(PQT_CORRUPT, "pages hold more rows than the row group's %lld",
                       (long long)w->rg_rows);
    *rows_ret = page_rows;
    return PQT_OK;
}

/* Stage 2, a wholly selected flat PLAIN page of a compressed chunk: decompressed straight
 * into the column at out_row (page_direct.c). PQT_NOT_FOUND when it does not qualify. */
static pqt_status page_direct(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                              pqt_colbuf *dst, int64_t out_row)
{
    const pqt_col *col = w->col;
    int64_t nlevels = h->num_values;
    pqt_page_direct pd = {.encoding = h->encoding, .max_def = col->max_def, .nrows = nlevels,
                          .nvalues = nlevels,
                          .expect_no_nulls = w->cm->has_stats && w->cm->stats.has_null_count &&
                                             w->cm->stats.null_count == 0,
                          .owns_rows_before = w->src->serial};
    if (h->type == PQT_PAGE_DATA_V2) {
        size_t lv = (size_t)h->rep_levels_nbytes + (size_t)h->def_levels_nbytes;
        pd.values_only = true;
        pd.src = body + lv;
        pd.src_nbytes = (size_t)h->compressed_size - lv;
        pd.uncompressed_nbytes = (int64_t)h->uncompressed_size - (int64_t)lv;
        if (!h->is_compressed || pd.uncompressed_nbytes <= 0) return PQT_NOT_FOUND;
        if (col->max_def > 0)
            PQT_TRY(pqt_page_levels_presence(w->cx, col, body + h->rep_levels_nbytes,
                                             (size_t)h->def_levels_nbytes, &pd));
    } else {
        pd.values_only = col->max_def == 0;
        pd.src = body;
        pd.src_nbytes = (size_t)h->compressed_size;
        pd.uncompressed_nbytes = h->uncompressed_size;
        if (col->max_def > 0 && h->def_level_encoding != PQT_ENC_RLE) return PQT_NOT_FOUND;
    }
    PQT_TRY(pqt_page_decode_direct(w->cx, col, w->ptype, w->cm->codec, &pd, dst, out_row));
    w->cx->nvalues_out += pd.nvalues;
    return PQT_OK;
}

/* Page bytes per kept run that page_sparse asks for of a snappy page: when the runs would
 * touch more than half the page's 64 KiB blocks, decompressing it whole is as cheap. */
#define SPARSE_BYTES_PER_RUN ((int64_t)2 << 16)
/* A zstd page is decoded only up to its last kept row when that row comes before 3/4 of
 * the page; past this many kept runs, finding it is not worth the look. */
#define PREFIX_MAX_RUNS 1024

/* Where a part-decompressed page's bytes come from (page_sparse). */
typedef struct page_filler {
    pqt_snappy_sparse snappy;
    pqt_zstd_prefix zstd;
} page_filler;

static pqt_status fill_snappy(void *f, size_t from, size_t to)
{
    return pqt_snappy_sparse_fill(&((page_filler *)f)->snappy, from, to);
}

static pqt_status fill_zstd(void *f, size_t from, size_t to)
{
    (void)from; /* a prefix: everything before `to` is decoded */
    return pqt_zstd_prefix_fill(&((page_filler *)f)->zstd, to);
}

/* Is it worth decompressing this page in part (see the two rules above)? */
static bool part_pays(int codec, const pqt_sel *sel, int64_t row0, int64_t n, int64_t unc)
{
    int64_t runs = pqt_sel_nruns_in(sel, row0, row0 + n);
    if (codec == PQT_CODEC_SNAPPY) return runs * SPARSE_BYTES_PER_RUN <= unc;
    if (runs > PREFIX_MAX_RUNS) return false;
    pqt_sel_cursor cur;
    int64_t s, l, end = 0;
    pqt_sel_seek(sel, &cur, row0);
    while (pqt_sel_next_run(sel, &cur, row0, row0 + n, &s, &l)) end = s + l - row0;
    return end * 4 <= n * 3;
}

/* Stage 2b, a flat PLAIN page of fixed-width values keeping few rows (a top-n's ids: ten rows
 * of a million-row page), decompressed in part: a SNAPPY page only in the 64 KiB blocks that
 * hold kept values (codec/snappy_sparse.h), a ZSTD page only up to the last kept value
 * (codec/zstd_prefix.h). PQT_NOT_FOUND when it does not qualify (nulls, too many kept rows,
 * a snappy encoder whose copies cross blocks, a zstd window past the page): the page is then
 * decompressed whole. */
static pqt_status page_sparse(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                              const pqt_sel *sel, int64_t row0, pqt_colbuf *dst, int64_t *out_row)
{
    pqt_chunk_ctx *cx = w->cx;
    const pqt_col *col = w->col;
    int codec = w->cm->codec;
    int64_t n = h->num_values;
    pqt_page_view pv = {.encoding = h->encoding, .nlevels = n, .nrows = n};
    if (!pqt_page_plain_in_place(cx, col, w->ptype, w->type_len, &pv, dst) ||
        !part_pays(codec, sel, row0, n, h->uncompressed_size))
        return PQT_NOT_FOUND;
    bool v2 = h->type == PQT_PAGE_DATA_V2;
    const uint8_t *src = body;
    size_t src_n = (size_t)h->compressed_size;
    int64_t unc = h->uncompressed_size, unc_max = w->unc_left;
    if (v2) {
        size_t lv = (size_t)h->rep_levels_nbytes + (size_t)h->def_levels_nbytes;
        if (!h->is_compressed ||
            (col->max_def > 0 && !levels_all_max(col, body + h->rep_levels_nbytes,
                                                 (size_t)h->def_levels_nbytes, n)))
            return PQT_NOT_FOUND;
        src += lv;
        src_n -= lv;
        unc -= (int64_t)lv;
        unc_max -= (int64_t)lv;
    } else if (col->max_def > 0 && h->def_level_encoding != PQT_ENC_RLE) {
        return PQT_NOT_FOUND;
    }
    int nstreams = !v2 && col->max_def > 0;
    PQT_TRY(page_claim(cx, codec, src_n, &cx->page, unc,
                       fixed_page_bound(w->ptype, w->type_len, n, nstreams), unc_max));
    page_filler f;
    pqt_page_fill_fn fill = codec == PQT_CODEC_SNAPPY ? fill_snappy : fill_zstd;
    if (codec == PQT_CODEC_SNAPPY)
        PQT_TRY(pqt_snappy_sparse_init(&f.snappy, src, src_n, cx->page.data, (size_t)unc));
    else
        PQT_TRY(pqt_zstd_prefix_init(cx->codec, &f.zstd, src, src_n, cx->page.data, (size_t)unc));
    size_t values_at = 0;
    if (nstreams) { /* [4-byte length][RLE levels] in front of the values */
        if (unc < 4) return PQT_NOT_FOUND; /* the whole-page path reports it */
        PQT_TRY(fill(&f, 0, 4));
        uint32_t nb = levels_nbytes(cx->page.data);
        if (nb > (uint64_t)unc - 4) return PQT_NOT_FOUND;
        PQT_TRY(fill(&f, 4, 4 + (size_t)nb));
        if (!levels_all_max(col, cx->page.data + 4, nb, n)) return PQT_NOT_FOUND;
        values_at = 4 + (size_t)nb;
    }
    if ((uint64_t)n > ((uint64_t)unc - values_at) / dst->elem_nbytes) return PQT_NOT_FOUND;
    return pqt_page_gather_sparse(cx, fill, &f, cx->page.data, values_at, sel, row0, n, dst,
                                  out_row);
}

/* Where a prepared page's parts are: v2 level streams (stored uncompressed, before the
 * values), and the bytes that follow them: v1 levels then values, or v2 values. */
typedef struct page_parts {
    const uint8_t *rep, *def;
    size_t rep_n, def_n;
    const uint8_t *p;
    size_t len;
} page_parts;

/* Stage 3, v1/v2 page preparation: decompress what the codec compressed (a v1 page whole,
 * a v2 page's values only), or use the bytes in place. */
static pqt_status page_prepare(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                               page_parts *pp)
{
    pqt_chunk_ctx *cx = w->cx;
    int64_t nlevels = h->num_values;
    int codec = w->cm->codec;
    if (h->type == PQT_PAGE_DATA_V2) {
        pp->rep = body;
        pp->rep_n = (size_t)h->rep_levels_nbytes;
        pp->def = body + pp->rep_n;
        pp->def_n = (size_t)h->def_levels_nbytes;
        size_t lv = pp->rep_n + pp->def_n;
        const uint8_t *vals = body + lv;
        size_t vals_n = (size_t)h->compressed_size - lv;
        int64_t vals_un = (int64_t)h->uncompressed_size - (int64_t)lv;
        if (h->is_compressed && codec != PQT_CODEC_UNCOMPRESSED && vals_un > 0) {
            PQT_TRY(decompress_into(cx, codec, vals, vals_n, &cx->page, vals_un,
                                    fixed_page_bound(w->ptype, w->type_len, nlevels, 0),
                                    w->unc_left - (int64_t)lv));
            pp->p = cx->page.data;
            pp->len = cx->page.len;
        } else {
            /* uncompressed values, or an empty page (some writers store 0 bytes even for a
             * compressing codec: datapage_v2_empty_datapage.snappy.parquet) */
            pp->p = vals;
            pp->len = vals_un > 0 ? vals_n : 0;
        }
        return PQT_OK;
    }
    if (codec == PQT_CODEC_UNCOMPRESSED) {
        pp->p = body;
        pp->len = (size_t)h->compressed_size;
        return PQT_OK;
    }
    int nstreams = (w->col->max_rep > 0) + (w->col->max_def > 0);
    PQT_TRY(decompress_into(cx, codec, body, (size_t)h->compressed_size, &cx->page,
                            h->uncompressed_size,
                            fixed_page_bound(w->ptype, w->type_len, nlevels, nstreams),
                            w->unc_left));
    pp->p = cx->page.data;
    pp->len = cx->page.len;
    return PQT_OK;
}

/* The definition levels of a flat v1 page: [4-byte length][RLE data] in front of the
 * values, which are then what remains of pp. */
static pqt_status take_v1_flat_defs(const pqt_page_header *h, page_parts *pp,
                                    const uint8_t **lv, size_t *lv_n)
{
    const uint8_t *q = pp->p;
    size_t ql = pp->len;
    if (h->def_level_encoding != PQT_ENC_RLE || ql < 4)
        return pqt_err(PQT_CORRUPT, "definition levels missing or not RLE encoded");
    uint32_t nb = levels_nbytes(q);
    if (nb > ql - 4)
        return pqt_err(PQT_CORRUPT, "levels of %u bytes run past the page (%zu bytes left)", nb,
                       ql - 4);
    *lv = q + 4;
    *lv_n = nb;
    pp->p += 4 + nb;
    pp->len -= 4 + (size_t)nb;
    return PQT_OK;
}

/* Are all nlevels definition levels of a list page the maximum (one RLE run, found in O(1):
 * no null or empty list, no null element)? Then they are not decoded; a v1 page's levels
 * are stepped over. */
static bool all_entries_present(const pqt_col *col, bool v2, const pqt_page_header *h,
                                page_parts *pp, int64_t nlevels)
{
    const uint8_t *lv = pp->def;
    size_t lv_n = pp->def_n;
    if (!v2) {
        if (h->def_level_encoding != PQT_ENC_RLE || pp->len < 4) return false;
        uint32_t nb = levels_nbytes(pp->p);
        if (nb > pp->len - 4) return false; /* take_v1_levels reports it */
        lv = pp->p + 4;
        lv_n = nb;
    }
    if (!levels_all_max(col, lv, lv_n, nlevels)) return false;
    if (!v2) {
        pp->p += 4 + lv_n;
        pp->len -= 4 + lv_n;
    }
    return true;
}

/* Stage 4, levels: repetition levels (lists), then which entries hold a value. Flat pages
 * count their values first (O(1) per RLE run) and build per-row presence bytes only when
 * some row is null. What remains of pp afterwards is the values. */
static pqt_status page_levels(pqt_chunk_walk *w, const pqt_page_header *h, page_parts *pp,
                              pqt_page_view *pv)
{
    pqt_chunk_ctx *cx = w->cx;
    const pqt_col *col = w->col;
    bool v2 = h->type == PQT_PAGE_DATA_V2, flat = col->max_rep == 0;
    int64_t nlevels = h->num_values;
    PQT_TRY(pqt_buf_reserve(&cx->defs, (size_t)nlevels + 1));
    PQT_TRY(pqt_buf_reserve(&cx->reps, (size_t)nlevels + 1));
    PQT_TRY(pqt_buf_reserve(&cx->present, (size_t)nlevels + 1));
    uint8_t *reps = cx->reps.data, *defs = cx->defs.data;
    if (col->max_rep > 0) {
        if (!v2) PQT_TRY(take_v1_levels(&pp->p, &pp->len, h->rep_level_encoding, col->max_rep,
                                        nlevels, reps));
        else if (!pv->reps) PQT_TRY(decode_levels(pp->rep, pp->rep_n, col->max_rep, nlevels, reps));
        pv->reps = reps;
    }
    if (col->max_def > 0 && flat) {
        const uint8_t *lv = pp->def;
        size_t lv_n = pp->def_n;
        if (!v2) PQT_TRY(take_v1_flat_defs(h, pp, &lv, &lv_n));
        pqt_page_direct lp = {.nrows = nlevels};
        PQT_TRY(pqt_page_levels_presence(cx, col, lv, lv_n, &lp));
        pv->nvalues = lp.nvalues;
        pv->present = lp.present;
        pv->defs = defs;
    } else if (col->max_def > 0 && all_entries_present(col, v2, h, pp, nlevels)) {
        pv->nvalues = nlevels; /* pv->defs NULL: every entry holds a value */
        pv->present = NULL;
    } else if (col->max_def > 0) {
        if (v2) PQT_TRY(decode_levels(pp->def, pp->def_n, col->max_def, nlevels, defs));
        else PQT_TRY(take_v1_levels(&pp->p, &pp->len, h->def_level_encoding, col->max_def,
                                    nlevels, defs));
        pv->defs = defs;
        uint8_t *present = cx->present.data;
        int64_t nn = 0;
        for (int64_t i = 0; i < nlevels; i++) {
            present[i] = defs[i] == col->max_def;
            nn += present[i];
        }
        pv->nvalues = nn;
        pv->present = present; /* lists: the emitter reads presence per entry */
    } else {
        pv->nvalues = nlevels;
        pv->present = NULL;
    }
    if (v2 && h->num_nulls >= 0 && flat && nlevels - pv->nvalues != h->num_nulls)
        return pqt_err(PQT_CORRUPT, "page says %d nulls, its levels say %lld", h->num_nulls,
                       (long long)(nlevels - pv->nvalues));
    pv->values = pp->p;
    pv->values_nbytes = pp->len;
    return PQT_OK;
}

/* Where a list page's rows are, from its repetition levels reps[0..n) (rep 0 starts a row):
 * *cont_ret leading entries continue the row the page before began (writers may break a
 * page inside a row; a v2 page should not, but real ones do), *rows_ret rows start in it.
 * The first page of a chunk cannot continue anything, and no page may start more rows than
 * the row group has left (rows_done started before it). */
static pqt_status list_page_rows(const pqt_chunk_walk *w, const uint8_t *reps, int64_t n,
                                 int64_t rows_done, int64_t *cont_ret, int64_t *rows_ret)
{
    const uint8_t *z = n > 0 ? memchr(reps, 0, (size_t)n) : NULL;
    int64_t c = z ? (int64_t)(z - reps) : n;
    if (c > 0 && rows_done == 0)
        return pqt_err(PQT_CORRUPT, "page starts in the middle of a row (first repetition level "
                                    "is %d, not 0) but no row began before it",
                       reps[0]);
    int64_t rows = c < n ? pqt_count_zero_bytes(reps + c, n - c) : 0;
    if (rows > w->rg_rows - rows_done)
        return pqt_err(PQT_CORRUPT, "pages hold more rows than the row group's %lld",
                       (long long)w->rg_rows);
    *cont_ret = c;
    *rows_ret = rows;
    return PQT_OK;
}

/* A v2 list page's rows, before anything is decompressed: its repetition levels are stored
 * uncompressed in front of the values, so they are decoded here (into cx->reps, for the
 * page's decoding too) and the page can be skipped exactly. */
static pqt_status v2_list_rows(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                               int64_t rows_done, int64_t *cont_ret, int64_t *rows_ret)
{
    int64_t n = h->num_values;
    PQT_TRY(pqt_buf_reserve(&w->cx->reps, (size_t)n + 1));
    PQT_TRY(decode_levels(body, (size_t)h->rep_levels_nbytes, w->col->max_rep, n,
                          w->cx->reps.data));
    return list_page_rows(w, w->cx->reps.data, n, rows_done, cont_ret, rows_ret);
}

/* A list page's level entries appended to the caller's sink (pqt_chunk_ctx_set_level_sink). */
static pqt_status sink_levels(pqt_chunk_walk *w, const pqt_page_view *pv)
{
    pqt_buf *r = w->cx->sink_reps, *d = w->cx->sink_defs;
    size_t n = (size_t)pv->nlevels;
    PQT_TRY(pqt_buf_reserve(r, r->len + n));
    PQT_TRY(pqt_buf_reserve(d, d->len + n));
    memcpy(r->data + r->len, pv->reps, n);
    if (pv->defs) memcpy(d->data + d->len, pv->defs, n);
    else memset(d->data + d->len, w->col->max_def, n);
    r->len += n;
    d->len += n;
    return PQT_OK;
}

/* Stage 5: the selected rows' values into dst (page_values.c); list pages count their rows
 * from the repetition levels (list_page_rows). oi_rows: the page's rows by the offset index
 * (v1 lists; a row is the page's where it starts), -1 when unknown; levels that disagree
 * with it are corrupt, since pages were skipped by it. */
static pqt_status page_emit(pqt_chunk_walk *w, pqt_page_view *pv, const pqt_sel *sel,
                            int64_t oi_rows, int64_t *rows_done, pqt_colbuf *dst,
                            int64_t *out_row)
{
    if (w->col->max_rep == 0) {
        pv->nrows = pv->nlevels;
        PQT_TRY(pqt_page_emit_flat(w->cx, w->col, w->ptype, w->type_len, pv, sel, *rows_done, dst,
                                   out_row));
        *rows_done += pv->nlevels;
        return PQT_OK;
    }
    int64_t cont, rows;
    PQT_TRY(list_page_rows(w, pv->reps, pv->nlevels, *rows_done, &cont, &rows));
    if (oi_rows >= 0 && rows != oi_rows)
        return pqt_err(PQT_CORRUPT, "page starts %lld rows by its repetition levels, the offset "
                                    "index says %lld",
                       (long long)rows, (long long)oi_rows);
    if (w->cx->sink_reps) PQT_TRY(sink_levels(w, pv));
    pv->nrows = rows;
    pv->ncont = cont;
    pv->cont_selected = cont > 0 && pqt_sel_any(sel, *rows_done - 1, *rows_done);
    PQT_TRY(pqt_page_emit_list(w->cx, w->col, w->ptype, w->type_len, pv, sel, *rows_done, dst));
    *rows_done += rows;
    return PQT_OK;
}

/* One data page: place it, skip it when no selected row is in it (before decompressing),
 * else decode it straight into place when it qualifies, or prepare, decode levels, emit. */
/* Codes mode, a dictionary-encoded flat page the caller's dictionary evaluation refuted
 * (pqt_chunk_ctx_set_dict_refuted): its selected rows get PQT_CODE_REFUTED, present, and the
 * page is never decompressed. */
static pqt_status refuted_page(pqt_chunk_walk *w, const pqt_sel *sel, int64_t page_rows,
                               int64_t *rows_done, pqt_colbuf *dst, int64_t *out_row)
{
    int64_t m = pqt_sel_count(sel, *rows_done, *rows_done + page_rows);
    if (PQT_UNLIKELY(*out_row + m > dst->nrows))
        return pqt_err(PQT_CORRUPT, "more selected rows than the destination holds");
    uint32_t *codes = (uint32_t *)dst->data + *out_row;
    for (int64_t i = 0; i < m; i++) codes[i] = PQT_CODE_REFUTED;
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, *out_row, NULL, m);
    *out_row += m;
    *rows_done += page_rows;
    w->n_skipped++;
    return PQT_OK;
}

pqt_status pqt_page_decode_data(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                            const pqt_sel *sel, int64_t *rows_done, pqt_colbuf *dst,
                            int64_t *out_row)
{
    int64_t page_rows = -1;
    PQT_TRY(page_place(w, h, *rows_done, &page_rows));
    bool v2 = h->type == PQT_PAGE_DATA_V2, list = w->col->max_rep > 0;
    if (v2 && (h->rep_levels_nbytes < 0 || h->def_levels_nbytes < 0 ||
               (int64_t)h->rep_levels_nbytes + h->def_levels_nbytes > h->compressed_size ||
               (int64_t)h->rep_levels_nbytes + h->def_levels_nbytes > h->uncompressed_size))
        return pqt_err(PQT_CORRUPT, "v2 level lengths (%d + %d) exceed the page size",
                       h->rep_levels_nbytes, h->def_levels_nbytes);
    /* A list page's leading entries may continue the row the page before began (cont: how
     * many, -1 while unknown): the page is then wanted when that row is, even if no row
     * starting in it is selected. */
    int64_t cont = -1, oi_rows = list && !v2 ? page_rows : -1;
    if (list && v2) PQT_TRY(v2_list_rows(w, h, body, *rows_done, &cont, &page_rows));
    bool prev_wanted = list && cont != 0 && *rows_done > 0 &&
                       pqt_sel_any(sel, *rows_done - 1, *rows_done);
    if (page_rows >= 0 && !prev_wanted && !pqt_sel_any(sel, *rows_done, *rows_done + page_rows)) {
        *rows_done += page_rows;
        w->n_skipped++;
        return PQT_OK;
    }
    if (w->cx->want_codes && w->cx->dict_refuted && w->cx->have_dict && w->col->max_rep == 0 &&
        page_rows >= 0 &&
        (h->encoding == PQT_ENC_PLAIN_DICTIONARY || h->encoding == PQT_ENC_RLE_DICTIONARY))
        return refuted_page(w, sel, page_rows, rows_done, dst, out_row);
    w->n_decompressed++;
    int64_t nlevels = h->num_values;
    if (w->col->max_rep == 0 && nlevels > 0 && w->cm->codec != PQT_CODEC_UNCOMPRESSED &&
        !w->cx->want_codes &&
        h->encoding == PQT_ENC_PLAIN &&
        pqt_sel_count(sel, *rows_done, *rows_done + nlevels) == nlevels) {
        pqt_status st = page_direct(w, h, body, dst, *out_row);
        if (st == PQT_OK) {
            *out_row += nlevels;
            *rows_done += nlevels;
            return PQT_OK;
        }
        if (st != PQT_NOT_FOUND) return st;
    }
    if (w->col->max_rep == 0 && nlevels > 0 &&
        (w->cm->codec == PQT_CODEC_SNAPPY || w->cm->codec == PQT_CODEC_ZSTD) &&
        !w->cx->want_codes && h->encoding == PQT_ENC_PLAIN) {
        pqt_status st = page_sparse(w, h, body, sel, *rows_done, dst, out_row);
        if (st == PQT_OK) {
            w->n_sparse++;
            *rows_done += nlevels;
            return PQT_OK;
        }
        if (st != PQT_NOT_FOUND) return st;
    }
    page_parts pp = {0};
    PQT_TRY(page_prepare(w, h, body, &pp));
    /* v2 list pages had their repetition levels decoded when placed */
    pqt_page_view pv = {.encoding = h->encoding, .nlevels = nlevels,
                        .reps = list && v2 ? w->cx->reps.data : NULL};
    PQT_TRY(page_levels(w, h, &pp, &pv));
    return page_emit(w, &pv, sel, oi_rows, rows_done, dst, out_row);
}

pqt_status pqt_page_dict_plain(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                               const uint8_t **p_ret, size_t *n_ret)
{
    pqt_chunk_ctx *cx = w->cx;
    if (h->num_values < 0)
        return pqt_err(PQT_CORRUPT, "dictionary page has a negative value count %d", h->num_values);
    const uint8_t *p = body;
    size_t len = (size_t)h->compressed_size;
    if (w->cm->codec != PQT_CODEC_UNCOMPRESSED) {
        /* a PLAIN dictionary of fixed-width values is exactly num_values x width */
        int64_t vmax = fixed_page_bound(w->ptype, w->type_len, h->num_values, 0);
        PQT_TRY(decompress_into(cx, w->cm->codec, body, len, &cx->dict_raw, h->uncompressed_size,
                                vmax, INT64_MAX));
        p = cx->dict_raw.data;
        len = cx->dict_raw.len;
    }
    *p_ret = p;
    *n_ret = len;
    return PQT_OK;
}

pqt_status pqt_page_load_dict(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body)
{
    pqt_chunk_ctx *cx = w->cx;
    const uint8_t *p = NULL; /* set on success only; gcc -O3 cannot prove it */
    size_t len = 0;
    PQT_TRY(pqt_page_dict_plain(w, h, body, &p, &len));
    /* the caller evaluated the chunk's first dictionary, not this one */
    if (cx->have_dict) cx->dict_refuted = false;
    PQT_TRY(pqt_dict_load(&cx->dict, w->ptype, w->type_len, p, len, h->num_values));
    cx->have_dict = true;
    w->n_dict++;
    return PQT_OK;
}

