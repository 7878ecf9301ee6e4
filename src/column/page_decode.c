/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_decode.c - one page of a column chunk: a dictionary page loaded, or a data page
 * decoded in short stages (layer: column).
 *
 * A data page goes: place (bound its level count, find its rows from the header or the
 * offset index) -> skip when no selected row is in it, before decompressing -> straight
 * into the column when it qualifies (page_direct.c), or decompressed only in part when it
 * keeps few rows (page_sparse) -> v1/v2 preparation (decompress a v1
 * page whole, a v2 page's values only) -> levels (page_levels.c) -> values
 * of the selected rows (page_values.c). Parquet-format: DataPageHeader, DataPageHeaderV2,
 * DictionaryPageHeader, definition and repetition levels (RLE/bit-packed hybrid). Every
 * size a header claims is checked against the chunk before it is allocated.
 */
#include <string.h>

#include "codec/snappy_sparse.h"
#include "codec/zstd_prefix.h"
#include "column/column_int.h"
#include "column/page_levels.h"
#include "util/error.h"

/* Largest decompressed page we accept: bounds what a hostile header can make us allocate. */
#define MAX_PAGE_NBYTES ((int64_t)1 << 30)

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
        return pqt_err(PQT_CORRUPT,
                       "page claims %lld uncompressed bytes; %zu bytes of %s cannot "
                       "hold more than %lld",
                       (long long)dst_n, src_n, pqt_codec_name(codec), (long long)codec_max);
    if (PQT_UNLIKELY(dst_n > values_max))
        return pqt_err(PQT_CORRUPT,
                       "page claims %lld uncompressed bytes; its values cannot take "
                       "more than %lld",
                       (long long)dst_n, (long long)values_max);
    if (PQT_UNLIKELY(dst_n > unc_max))
        return pqt_err(PQT_CORRUPT,
                       "page claims %lld uncompressed bytes; the column chunk's "
                       "total_uncompressed_size leaves %lld",
                       (long long)dst_n, (long long)(unc_max > 0 ? unc_max : 0));
    PQT_TRY(pqt_page_buf_reserve(cx, dst, (size_t)dst_n + 8));
    dst->len = (size_t)dst_n;
    memset(dst->data + dst_n, 0, 8); /* decoders may look at a few bytes past the end */
    return PQT_OK;
}

/* Decompress a page of dst_n claimed bytes into dst (claims checked by page_claim). */
static pqt_status decompress_into(pqt_chunk_ctx *cx, int codec, const uint8_t *src, size_t src_n,
                                  pqt_buf *dst, int64_t dst_n, int64_t values_max, int64_t unc_max)
{
    PQT_TRY(page_claim(cx, codec, src_n, dst, dst_n, values_max, unc_max));
    return pqt_codec_decompress(cx->codec, codec, src, src_n, dst->data, (size_t)dst_n);
}

/* Stage 1, the page's place in the chunk: bound its level count by what the chunk leaves
 * (level buffers are sized by it), and find its rows when the header (flat) or the offset
 * index (v1 lists) tells them: *rows_ret is -1 when only the levels can. A list page's rows
 * are the rows that start in it; a v2 header's num_rows is not used for lists, since writers
 * count a row continued from the page before in it too (list_rows_check). */
static pqt_status page_place(pqt_chunk_walk *w, const pqt_page_header *h, int64_t rows_done,
                             int64_t *rows_ret)
{
    bool v2 = h->type == PQT_PAGE_DATA_V2, flat = w->col->max_rep == 0;
    if (h->num_values < 0) return pqt_err(PQT_CORRUPT, "negative num_values %d", h->num_values);
    int64_t nlevels = h->num_values;
    /* flat pages are bounded by the row group's rows below (one entry per row) */
    if (PQT_UNLIKELY(!flat && nlevels > w->values_left))
        return pqt_err(PQT_CORRUPT,
                       "page holds %lld values, the column chunk's metadata leaves "
                       "%lld of its %lld",
                       (long long)nlevels, (long long)w->values_left, (long long)w->cm->num_values);
    w->values_left -= nlevels;
    w->n_pages++;
    int64_t page_rows = -1;
    if (flat)
        page_rows = nlevels;
    else if (v2)
        page_rows = -1;
    else if (w->oi_rows && w->data_page_no < w->oi_npages)
        page_rows = w->oi_rows[w->data_page_no];
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
    pqt_page_direct pd = {.encoding = h->encoding,
                          .max_def = col->max_def,
                          .nrows = nlevels,
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
            PQT_TRY(pqt_levels_presence(w->cx, col->max_def, body + h->rep_levels_nbytes,
                                        (size_t)h->def_levels_nbytes, nlevels, &pd.present,
                                        &pd.nvalues));
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
    while (pqt_sel_next_run(sel, &cur, row0, row0 + n, &s, &l))
        end = s + l - row0;
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
            (col->max_def > 0 &&
             !pqt_levels_all_max(body + h->rep_levels_nbytes, (size_t)h->def_levels_nbytes,
                                 col->max_def, n)))
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
    if (nstreams) {                        /* [4-byte length][RLE levels] in front of the values */
        if (unc < 4) return PQT_NOT_FOUND; /* the whole-page path reports it */
        PQT_TRY(fill(&f, 0, 4));
        const uint8_t *p = cx->page.data, *lv = NULL;
        size_t left = (size_t)unc, nb = 0; /* only the prefix is read before the fill below */
        if (pqt_levels_take_v1(&p, &left, h->def_level_encoding, &lv, &nb) != PQT_OK)
            return PQT_NOT_FOUND; /* the whole-page path reports it */
        PQT_TRY(fill(&f, 4, 4 + nb));
        if (!pqt_levels_all_max(lv, nb, col->max_def, n)) return PQT_NOT_FOUND;
        values_at = 4 + nb;
    }
    if ((uint64_t)n > ((uint64_t)unc - values_at) / dst->elem_nbytes) return PQT_NOT_FOUND;
    return pqt_page_gather_sparse(cx, fill, &f, cx->page.data, values_at, sel, row0, n, dst,
                                  out_row);
}

/* Stage 3, v1/v2 page preparation: decompress what the codec compressed (a v1 page whole,
 * a v2 page's values only), or use the bytes in place. */
static pqt_status page_prepare(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                               pqt_page_parts *pp)
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
    PQT_TRY(decompress_into(
        cx, codec, body, (size_t)h->compressed_size, &cx->page, h->uncompressed_size,
        fixed_page_bound(w->ptype, w->type_len, nlevels, nstreams), w->unc_left));
    pp->p = cx->page.data;
    pp->len = cx->page.len;
    return PQT_OK;
}

/* Stage 4, levels (page_levels.c): repetition levels (lists), then which entries hold a
 * value. What remains of pp afterwards is the values. */
static pqt_status page_levels(pqt_chunk_walk *w, const pqt_page_header *h, pqt_page_parts *pp,
                              pqt_page_view *pv)
{
    pqt_page_levels lv;
    PQT_TRY(pqt_page_levels_take(w->cx, h, w->col->max_rep, w->col->max_def, pv->reps, pp, &lv));
    pv->reps = lv.reps;
    pv->defs = lv.defs;
    pv->present = lv.present;
    pv->nvalues = lv.npresent;
    pv->ncont = lv.ncont;
    pv->nrows = lv.nrows_started;
    bool v2 = h->type == PQT_PAGE_DATA_V2;
    if (v2 && h->num_nulls >= 0 && w->col->max_rep == 0 && lv.n - lv.npresent != h->num_nulls)
        return pqt_err(PQT_CORRUPT, "page says %d nulls, its levels say %lld", h->num_nulls,
                       (long long)(lv.n - lv.npresent));
    pv->values = pp->p;
    pv->values_nbytes = pp->len;
    return PQT_OK;
}

/* A list page's rows, ncont leading entries continuing the row the page before began
 * (writers may break a page inside a row; a v2 page should not, but real ones do) and nrows
 * starting in it (pqt_levels_rows), checked: the first page of a chunk cannot continue
 * anything, and no page may start more rows than the row group has left (rows_done started
 * before it). */
static pqt_status list_rows_check(const pqt_chunk_walk *w, const uint8_t *reps, int64_t ncont,
                                  int64_t nrows, int64_t rows_done)
{
    if (ncont > 0 && rows_done == 0)
        return pqt_err(PQT_CORRUPT,
                       "page starts in the middle of a row (first repetition level "
                       "is %d, not 0) but no row began before it",
                       reps[0]);
    if (nrows > w->rg_rows - rows_done)
        return pqt_err(PQT_CORRUPT, "pages hold more rows than the row group's %lld",
                       (long long)w->rg_rows);
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
    PQT_TRY(pqt_levels_decode(body, (size_t)h->rep_levels_nbytes, w->col->max_rep, n,
                              w->cx->reps.data));
    pqt_levels_rows(w->cx->reps.data, n, cont_ret, rows_ret);
    return list_rows_check(w, w->cx->reps.data, *cont_ret, *rows_ret, rows_done);
}

/* A page's level entries appended to the caller's sink (pqt_chunk_ctx_set_level_sink):
 * entries whose levels were not decoded are the maximum (0 repetition for flat pages). */
static pqt_status sink_levels(pqt_chunk_walk *w, const pqt_page_view *pv)
{
    pqt_buf *r = w->cx->sink_reps, *d = w->cx->sink_defs;
    size_t n = (size_t)pv->nlevels;
    PQT_TRY(pqt_buf_reserve(r, r->len + n));
    PQT_TRY(pqt_buf_reserve(d, d->len + n));
    if (pv->reps)
        memcpy(r->data + r->len, pv->reps, n);
    else
        memset(r->data + r->len, 0, n);
    if (pv->defs)
        memcpy(d->data + d->len, pv->defs, n);
    else
        memset(d->data + d->len, w->col->max_def, n);
    r->len += n;
    d->len += n;
    return PQT_OK;
}

/* A list page's rows from its levels, checked (list_rows_check), and against the offset
 * index: oi_rows, the page's rows by it (v1 lists; a row is the page's where it starts), -1
 * when unknown; levels that disagree with it are corrupt, since pages were skipped by it. */
static pqt_status list_page_rows(const pqt_chunk_walk *w, const pqt_page_view *pv, int64_t oi_rows,
                                 int64_t rows_done)
{
    PQT_TRY(list_rows_check(w, pv->reps, pv->ncont, pv->nrows, rows_done));
    if (oi_rows >= 0 && pv->nrows != oi_rows)
        return pqt_err(PQT_CORRUPT,
                       "page starts %lld rows by its repetition levels, the offset "
                       "index says %lld",
                       (long long)pv->nrows, (long long)oi_rows);
    return PQT_OK;
}

/* Stage 5: the selected rows' values into dst (page_values.c); list pages count their rows
 * from the repetition levels (list_page_rows). */
static pqt_status page_emit(pqt_chunk_walk *w, pqt_page_view *pv, const pqt_sel *sel,
                            int64_t oi_rows, int64_t *rows_done, pqt_colbuf *dst, int64_t *out_row)
{
    if (w->col->max_rep == 0) {
        PQT_TRY(pqt_page_emit_flat(w->cx, w->col, w->ptype, w->type_len, pv, sel, *rows_done, dst,
                                   out_row));
        *rows_done += pv->nlevels;
        return PQT_OK;
    }
    PQT_TRY(list_page_rows(w, pv, oi_rows, *rows_done));
    if (w->cx->sink_reps) PQT_TRY(sink_levels(w, pv));
    int64_t cont = pv->ncont, rows = pv->nrows;
    pv->cont_selected = cont > 0 && pqt_sel_any(sel, *rows_done - 1, *rows_done);
    PQT_TRY(pqt_page_emit_list(w->cx, w->col, w->ptype, w->type_len, pv, sel, *rows_done, dst));
    *rows_done += rows;
    return PQT_OK;
}

/* A v1 page's level streams ([4-byte length][levels], repetition then definition) are the
 * front of its compressed body: for the levels alone, a SNAPPY or ZSTD page is decompressed
 * only that far (a vector's width, measured before it is read, then costs its levels, not
 * its values). pp gets the page with only its level prefix written; PQT_NOT_FOUND (no
 * message) when this does not apply or fails: the caller decompresses the page whole, which
 * reports any damage. */
static pqt_status levels_prefix(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                                pqt_page_parts *pp)
{
    pqt_chunk_ctx *cx = w->cx;
    int codec = w->cm->codec, nstreams = (w->col->max_rep > 0) + (w->col->max_def > 0);
    if (h->type != PQT_PAGE_DATA || nstreams == 0 ||
        (codec != PQT_CODEC_SNAPPY && codec != PQT_CODEC_ZSTD))
        return PQT_NOT_FOUND;
    pqt_err_mute();
    size_t src_n = (size_t)h->compressed_size, unc = (size_t)h->uncompressed_size, at = 0;
    pqt_status st =
        page_claim(cx, codec, src_n, &cx->page, h->uncompressed_size,
                   fixed_page_bound(w->ptype, w->type_len, h->num_values, nstreams), w->unc_left);
    page_filler f;
    pqt_page_fill_fn fill = codec == PQT_CODEC_SNAPPY ? fill_snappy : fill_zstd;
    if (st == PQT_OK)
        st = codec == PQT_CODEC_SNAPPY
                 ? pqt_snappy_sparse_init(&f.snappy, body, src_n, cx->page.data, unc)
                 : pqt_zstd_prefix_init(cx->codec, &f.zstd, body, src_n, cx->page.data, unc);
    for (int k = 0; st == PQT_OK && k < nstreams; k++) {
        size_t lv = 0;
        st = at + 4 <= unc ? fill(&f, at, at + 4) : PQT_CORRUPT;
        if (st == PQT_OK) st = pqt_levels_v1_nbytes(cx->page.data + at, unc - at, &lv);
        if (st == PQT_OK) st = fill(&f, at + 4, at + 4 + lv);
        at += 4 + lv;
    }
    pqt_err_unmute();
    if (st != PQT_OK) return PQT_NOT_FOUND;
    pp->p = cx->page.data;
    pp->len = unc; /* past the level prefix: never decompressed, never read */
    return PQT_OK;
}

/* Levels only (pqt_chunk_ctx_set_levels_only): the page prepared (only as far as its levels
 * where it can be) and its levels decoded with every check a read makes, handed to the sink;
 * no value is decoded. */
static pqt_status page_levels_only(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                                   const uint8_t *reps_known, int64_t oi_rows, int64_t *rows_done)
{
    w->n_decompressed++;
    pqt_page_parts pp = {0};
    if (levels_prefix(w, h, body, &pp) != PQT_OK) PQT_TRY(page_prepare(w, h, body, &pp));
    pqt_page_view pv = {.encoding = h->encoding, .nlevels = h->num_values, .reps = reps_known};
    PQT_TRY(page_levels(w, h, &pp, &pv));
    if (w->col->max_rep > 0) PQT_TRY(list_page_rows(w, &pv, oi_rows, *rows_done));
    if (w->cx->sink_reps) PQT_TRY(sink_levels(w, &pv));
    *rows_done += pv.nrows;
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
    for (int64_t i = 0; i < m; i++)
        codes[i] = PQT_CODE_REFUTED;
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
    if (w->cx->levels_only)
        return page_levels_only(w, h, body, list && v2 ? w->cx->reps.data : NULL, oi_rows,
                                rows_done);
    bool prev_wanted =
        list && cont != 0 && *rows_done > 0 && pqt_sel_any(sel, *rows_done - 1, *rows_done);
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
        !w->cx->want_codes && h->encoding == PQT_ENC_PLAIN &&
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
    pqt_page_parts pp = {0};
    PQT_TRY(page_prepare(w, h, body, &pp));
    /* v2 list pages had their repetition levels decoded when placed */
    pqt_page_view pv = {
        .encoding = h->encoding, .nlevels = nlevels, .reps = list && v2 ? w->cx->reps.data : NULL};
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
