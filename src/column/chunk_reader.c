/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chunk_reader.c - walk the pages of one column chunk (layer: column).
 *
 * Implements parquet-format's column chunk layout: an optional dictionary page, then
 * data pages (v1: levels and values compressed together; v2: levels uncompressed in
 * front, values compressed unless is_compressed is false). Pages whose rows hold no
 * selected row are skipped before decompression: for flat columns the row count of a
 * page is in its header, so only the header is parsed. Everything read from the file is
 * checked against the chunk's bytes before use; errors name column, row group and page.
 */
#include <string.h>
#include <zlib.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"

/* Largest decompressed page we accept: bounds what a hostile header can make us allocate. */
#define MAX_PAGE_NBYTES ((int64_t)1 << 30)

pqt_status pqt_chunk_ctx_new(pqt_chunk_ctx **ret)
{
    pqt_chunk_ctx *cx = pqt_calloc(1, sizeof *cx);
    if (!cx) return pqt_err(PQT_NOMEM, "out of memory creating a column reader");
    pqt_status st = pqt_codec_ctx_new(&cx->codec);
    if (st == PQT_OK) st = pqt_vdec_new(&cx->vdec);
    if (st != PQT_OK) {
        pqt_chunk_ctx_free(cx);
        return st;
    }
    *ret = cx;
    return PQT_OK;
}

void pqt_chunk_ctx_free(pqt_chunk_ctx *cx)
{
    if (!cx) return;
    pqt_page_buf_release(cx);
    pqt_codec_ctx_free(cx->codec);
    pqt_vdec_free(cx->vdec);
    pqt_dict_free(&cx->dict);
    pqt_buf_free(&cx->page);
    pqt_buf_free(&cx->dict_raw);
    pqt_buf_free(&cx->present);
    pqt_buf_free(&cx->defs);
    pqt_buf_free(&cx->reps);
    pqt_buf_free(&cx->scratch);
    pqt_buf_free(&cx->ends);
    pqt_buf_free(&cx->slots);
    pqt_buf_free(&cx->tmpbytes);
    pqt_mem_free(cx);
}

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

/* v1 levels: 4-byte little-endian length, then RLE data. Advances *p / *len. */
static pqt_status take_v1_levels(const uint8_t **p, size_t *len, int encoding, int max_level,
                                 int64_t n, uint8_t *out)
{
    if (encoding != PQT_ENC_RLE)
        return pqt_err(PQT_UNSUPPORTED_ENCODING, "level encoding %d not supported (only RLE)",
                       encoding);
    if (*len < 4) return pqt_err(PQT_CORRUPT, "levels length prefix past the end of the page");
    uint32_t nbytes = (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 | (uint32_t)(*p)[2] << 16 |
                      (uint32_t)(*p)[3] << 24;
    if (nbytes > *len - 4)
        return pqt_err(PQT_CORRUPT, "levels of %u bytes run past the page (%zu bytes left)",
                       nbytes, *len - 4);
    PQT_TRY(decode_levels(*p + 4, nbytes, max_level, n, out));
    *p += 4 + nbytes;
    *len -= 4 + (size_t)nbytes;
    return PQT_OK;
}

typedef struct chunk_walk {
    pqt_chunk_ctx *cx;
    const pqt_chunk_src *src;
    const pqt_col *col;
    const pqt_column_meta *cm;
    int ptype, type_len;
    int rg, page_no;
    int64_t rg_rows;
    /* rows of each data page from the offset index (NULL when absent): lets v1 list pages,
     * whose row counts are otherwise only in their levels, be skipped undecompressed */
    const int64_t *oi_rows;
    int oi_npages, data_page_no;
    /* What the footer leaves for the pages still to come: level entries (num_values) and
     * uncompressed bytes (total_uncompressed_size, with slack for writers that get it a
     * little wrong). A page claiming more is refused before anything is allocated for it. */
    int64_t values_left, unc_left;
    /* this read's counts, added to src->counters once at its end */
    int64_t n_pages, n_skipped, n_decompressed, n_dict, n_bytes;
} chunk_walk;

/* Uncompressed bytes a chunk's data pages may claim beyond its total_uncompressed_size.
 * Writers have left out page headers or the dictionary page (fastparquet #305); the corpus
 * is exact. The slack only has to keep a 1 KiB claim from becoming a 1 GiB allocation. */
static int64_t chunk_unc_slack(int64_t total)
{
    return ((int64_t)1 << 20) + (total > 0 ? total / 16 : 0);
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

/* Decompress a page of dst_n claimed bytes into dst. The claim is checked first against
 * what the compressed bytes can expand to, the values the page holds (values_max) and what
 * the chunk leaves (unc_max; INT64_MAX for dictionary pages, which some writers leave out
 * of the chunk's total); only then is the buffer made (page_buf.c). */
static pqt_status decompress_into(pqt_chunk_ctx *cx, int codec, const uint8_t *src,
                                  size_t src_n, pqt_buf *dst, int64_t dst_n, int64_t values_max,
                                  int64_t unc_max)
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
    return pqt_codec_decompress(cx->codec, codec, src, src_n, dst->data, (size_t)dst_n);
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

/* Prepare levels and values of a data page and hand it to the emitters. */
static pqt_status data_page(chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                            const pqt_sel *sel, int64_t *rows_done, pqt_colbuf *dst,
                            int64_t *out_row)
{
    pqt_chunk_ctx *cx = w->cx;
    const pqt_col *col = w->col;
    bool v2 = h->type == PQT_PAGE_DATA_V2;
    if (h->num_values < 0) return pqt_err(PQT_CORRUPT, "negative num_values %d", h->num_values);
    int64_t nlevels = h->num_values;
    bool flat = col->max_rep == 0;
    /* Level buffers are sized by this count: bound it by the chunk before anything else. */
    if (PQT_UNLIKELY(nlevels > w->values_left))
        return pqt_err(PQT_CORRUPT, "page holds %lld values, the column chunk's metadata leaves "
                                    "%lld of its %lld",
                       (long long)nlevels, (long long)w->values_left,
                       (long long)w->cm->num_values);
    w->values_left -= nlevels;
    w->n_pages++;

    /* Skip a page with no selected row before decompressing it. */
    int64_t page_rows = -1;
    if (flat) page_rows = nlevels;
    else if (v2) page_rows = h->num_rows;
    else if (w->oi_rows && w->data_page_no < w->oi_npages) page_rows = w->oi_rows[w->data_page_no];
    w->data_page_no++;
    if (flat && v2 && h->num_rows != nlevels)
        return pqt_err(PQT_CORRUPT, "flat column page has %d rows but %d values", h->num_rows,
                       h->num_values);
    if (page_rows >= 0) {
        if (page_rows > w->rg_rows - *rows_done)
            return pqt_err(PQT_CORRUPT, "pages hold more rows than the row group's %lld",
                           (long long)w->rg_rows);
        if (!pqt_sel_any(sel, *rows_done, *rows_done + page_rows)) {
            *rows_done += page_rows;
            w->n_skipped++;
            return PQT_OK;
        }
    }
    w->n_decompressed++;

    if (v2 && (h->rep_levels_nbytes < 0 || h->def_levels_nbytes < 0 ||
               (int64_t)h->rep_levels_nbytes + h->def_levels_nbytes > h->compressed_size ||
               (int64_t)h->rep_levels_nbytes + h->def_levels_nbytes > h->uncompressed_size))
        return pqt_err(PQT_CORRUPT, "v2 level lengths (%d + %d) exceed the page size",
                       h->rep_levels_nbytes, h->def_levels_nbytes);

    /* A wholly selected PLAIN page may decompress straight into the column. */
    if (flat && nlevels > 0 && w->cm->codec != PQT_CODEC_UNCOMPRESSED &&
        h->encoding == PQT_ENC_PLAIN &&
        pqt_sel_count(sel, *rows_done, *rows_done + nlevels) == nlevels) {
        pqt_page_direct pd = {.encoding = h->encoding, .max_def = col->max_def, .nrows = nlevels,
                              .nvalues = nlevels,
                              .expect_no_nulls = w->cm->has_stats && w->cm->stats.has_null_count &&
                                                 w->cm->stats.null_count == 0,
                              .owns_rows_before = w->src->serial};
        bool eligible = true;
        if (v2) {
            size_t lv = (size_t)h->rep_levels_nbytes + (size_t)h->def_levels_nbytes;
            pd.values_only = true;
            pd.src = body + lv;
            pd.src_nbytes = (size_t)h->compressed_size - lv;
            pd.uncompressed_nbytes = (int64_t)h->uncompressed_size - (int64_t)lv;
            eligible = h->is_compressed && pd.uncompressed_nbytes > 0;
            if (eligible && col->max_def > 0)
                PQT_TRY(pqt_page_levels_presence(cx, col, body + h->rep_levels_nbytes,
                                                 (size_t)h->def_levels_nbytes, &pd));
        } else {
            pd.values_only = col->max_def == 0;
            pd.src = body;
            pd.src_nbytes = (size_t)h->compressed_size;
            pd.uncompressed_nbytes = h->uncompressed_size;
            eligible = col->max_def == 0 || h->def_level_encoding == PQT_ENC_RLE;
        }
        if (eligible) {
            pqt_status st = pqt_page_decode_direct(cx, col, w->ptype, w->cm->codec, &pd, dst, *out_row);
            if (st == PQT_OK) {
                cx->nvalues_out += pd.nvalues;
                *out_row += nlevels;
                *rows_done += nlevels;
                return PQT_OK;
            }
            if (st != PQT_NOT_FOUND) return st;
        }
    }

    const uint8_t *p;
    size_t len;
    const uint8_t *rep_src = NULL, *def_src = NULL;
    size_t rep_n = 0, def_n = 0;
    if (v2) {
        rep_src = body;
        rep_n = (size_t)h->rep_levels_nbytes;
        def_src = body + rep_n;
        def_n = (size_t)h->def_levels_nbytes;
        size_t lv = rep_n + def_n;
        const uint8_t *vals = body + lv;
        size_t vals_n = (size_t)h->compressed_size - lv;
        int64_t vals_un = (int64_t)h->uncompressed_size - (int64_t)lv;
        if (h->is_compressed && w->cm->codec != PQT_CODEC_UNCOMPRESSED && vals_un > 0) {
            PQT_TRY(decompress_into(cx, w->cm->codec, vals, vals_n, &cx->page, vals_un,
                                    fixed_page_bound(w->ptype, w->type_len, nlevels, 0),
                                    w->unc_left - (int64_t)lv));
            p = cx->page.data;
            len = cx->page.len;
        } else {
            /* uncompressed values, or an empty page (some writers store 0 bytes even for a
             * compressing codec: datapage_v2_empty_datapage.snappy.parquet) */
            p = vals;
            len = vals_un > 0 ? vals_n : 0;
        }
    } else {
        if (w->cm->codec != PQT_CODEC_UNCOMPRESSED) {
            int nstreams = (col->max_rep > 0) + (col->max_def > 0);
            PQT_TRY(decompress_into(cx, w->cm->codec, body, (size_t)h->compressed_size, &cx->page,
                                    h->uncompressed_size,
                                    fixed_page_bound(w->ptype, w->type_len, nlevels, nstreams),
                                    w->unc_left));
            p = cx->page.data;
            len = cx->page.len;
        } else {
            p = body;
            len = (size_t)h->compressed_size;
        }
    }

    pqt_page_view pv = {.encoding = h->encoding, .nlevels = nlevels};
    PQT_TRY(pqt_buf_reserve(&cx->defs, (size_t)nlevels + 1));
    PQT_TRY(pqt_buf_reserve(&cx->reps, (size_t)nlevels + 1));
    PQT_TRY(pqt_buf_reserve(&cx->present, (size_t)nlevels + 1));
    uint8_t *reps = cx->reps.data, *defs = cx->defs.data;
    if (col->max_rep > 0) {
        if (v2) PQT_TRY(decode_levels(rep_src, rep_n, col->max_rep, nlevels, reps));
        else PQT_TRY(take_v1_levels(&p, &len, h->rep_level_encoding, col->max_rep, nlevels, reps));
        pv.reps = reps;
    }
    if (col->max_def > 0 && flat) {
        /* Most flat pages have no nulls: count first (O(1) per RLE run) and only build the
         * per-row presence bytes when some row is null. */
        const uint8_t *lv = def_src;
        size_t lv_n = def_n;
        if (!v2) {
            const uint8_t *q = p;
            size_t ql = len;
            if (h->def_level_encoding != PQT_ENC_RLE || ql < 4)
                return pqt_err(PQT_CORRUPT, "definition levels missing or not RLE encoded");
            uint32_t nb = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                          (uint32_t)q[3] << 24;
            if (nb > ql - 4)
                return pqt_err(PQT_CORRUPT, "levels of %u bytes run past the page (%zu bytes "
                                            "left)", nb, ql - 4);
            lv = q + 4;
            lv_n = nb;
            p += 4 + nb;
            len -= 4 + (size_t)nb;
        }
        pqt_page_direct lp = {.nrows = nlevels};
        PQT_TRY(pqt_page_levels_presence(cx, col, lv, lv_n, &lp));
        pv.nvalues = lp.nvalues;
        pv.present = lp.present;
        pv.defs = defs;
    } else if (col->max_def > 0) {
        if (v2) PQT_TRY(decode_levels(def_src, def_n, col->max_def, nlevels, defs));
        else PQT_TRY(take_v1_levels(&p, &len, h->def_level_encoding, col->max_def, nlevels, defs));
        pv.defs = defs;
        uint8_t *present = cx->present.data;
        int64_t nn = 0;
        for (int64_t i = 0; i < nlevels; i++) {
            present[i] = defs[i] == col->max_def;
            nn += present[i];
        }
        pv.nvalues = nn;
        pv.present = nn == nlevels && flat ? NULL : present;
    } else {
        pv.nvalues = nlevels;
        pv.present = NULL;
    }
    if (v2 && h->num_nulls >= 0 && flat && nlevels - pv.nvalues != h->num_nulls)
        return pqt_err(PQT_CORRUPT, "page says %d nulls, its levels say %lld", h->num_nulls,
                       (long long)(nlevels - pv.nvalues));
    pv.values = p;
    pv.values_nbytes = len;

    if (flat) {
        pv.nrows = nlevels;
        PQT_TRY(pqt_page_emit_flat(cx, col, w->ptype, w->type_len, &pv, sel, *rows_done, dst,
                                   out_row));
        *rows_done += nlevels;
    } else {
        int64_t rows = 0;
        for (int64_t i = 0; i < nlevels; i++) rows += reps[i] == 0;
        if (nlevels > 0 && reps[0] != 0)
            return pqt_err(PQT_CORRUPT, "page starts in the middle of a row (first repetition "
                                        "level is %d, not 0)", reps[0]);
        if (rows > w->rg_rows - *rows_done)
            return pqt_err(PQT_CORRUPT, "pages hold more rows than the row group's %lld",
                           (long long)w->rg_rows);
        pv.nrows = rows;
        PQT_TRY(pqt_page_emit_list(cx, col, w->ptype, w->type_len, &pv, sel, *rows_done, dst));
        *rows_done += rows;
    }
    return PQT_OK;
}

static pqt_status dictionary_page(chunk_walk *w, const pqt_page_header *h, const uint8_t *body)
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
    PQT_TRY(pqt_dict_load(&cx->dict, w->ptype, w->type_len, p, len, h->num_values));
    cx->have_dict = true;
    w->n_dict++;
    return PQT_OK;
}

static pqt_status walk(chunk_walk *w, const uint8_t *buf, size_t n, int64_t base,
                       const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    size_t pos = 0;
    int64_t rows_done = 0, out_row = dst_row;
    w->cx->have_dict = false;
    int64_t tus = w->cm->total_uncompressed_size;
    if (w->cm->num_values < 0 || tus < 0)
        return pqt_err(PQT_CORRUPT, "column chunk metadata counts %lld values in %lld "
                                    "uncompressed bytes",
                       (long long)w->cm->num_values, (long long)tus);
    w->values_left = w->cm->num_values;
    /* 0 for a chunk that stores bytes means "not recorded": the codec bounds its pages */
    bool unrecorded = tus == 0 && w->cm->total_compressed_size > 0;
    w->unc_left = unrecorded || tus > INT64_MAX / 4 ? INT64_MAX / 2 : tus + chunk_unc_slack(tus);
    while (pos < n && rows_done < w->rg_rows) {
        pqt_page_header h;
        size_t hlen;
        w->page_no++;
        PQT_TRY(pqt_meta_decode_page_header(buf + pos, n - pos, base + (int64_t)pos, &h, &hlen));
        if (h.compressed_size < 0 || h.uncompressed_size < 0 ||
            (size_t)h.compressed_size > n - pos - hlen)
            return pqt_err(PQT_CORRUPT,
                           "page at byte %lld: compressed size %d runs past the column chunk "
                           "(%zu bytes left)",
                           (long long)(base + (int64_t)pos), h.compressed_size, n - pos - hlen);
        const uint8_t *body = buf + pos + hlen;
        if (h.has_crc && w->src->verify_crc &&
            (h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2 || h.type == PQT_PAGE_DICTIONARY)) {
            uint32_t crc = (uint32_t)crc32(0L, body, (uInt)h.compressed_size);
            if (crc != h.crc)
                return pqt_err(PQT_CORRUPT_PAGE,
                               "corrupt page: CRC32 mismatch (stored %08x, computed %08x) at byte "
                               "%lld",
                               h.crc, crc, (long long)(base + (int64_t)pos));
        }
        if (h.type == PQT_PAGE_DICTIONARY) {
            PQT_TRY(dictionary_page(w, &h, body));
        } else if (h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2) {
            w->unc_left -= (int64_t)hlen;
            PQT_TRY(data_page(w, &h, body, sel, &rows_done, dst, &out_row));
            w->unc_left -= h.uncompressed_size;
        }
        /* index pages and unknown page types are skipped */
        pos += hlen + (size_t)h.compressed_size;
    }
    if (rows_done != w->rg_rows)
        return pqt_err(PQT_CORRUPT, "column chunk holds %lld rows, the row group has %lld",
                       (long long)rows_done, (long long)w->rg_rows);
    /* Allocations were sized by the footer's num_values (list elements): a count the pages
     * do not hold is a lie, not a short read. */
    if (w->values_left != 0)
        return pqt_err(PQT_CORRUPT, "column chunk holds %lld values, its metadata says %lld",
                       (long long)(w->cm->num_values - w->values_left),
                       (long long)w->cm->num_values);
    return PQT_OK;
}

/* Large decompression buffers go back to the shared budget after every chunk, so a thread
 * never holds them while it waits for anything else. */
static pqt_status walk_pages(chunk_walk *w, const uint8_t *buf, size_t n, int64_t base,
                             const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    pqt_status st = walk(w, buf, n, base, sel, dst, dst_row);
    pqt_page_buf_release(w->cx);
    return st;
}

/* Byte range of a column chunk: from its dictionary page (when there is one) to the end of
 * its data pages. Unchecked: the caller checks it against the file. */
static void chunk_range(const pqt_column_meta *cm, int64_t *start, int64_t *len)
{
    *start = cm->data_page_offset;
    /* Some writers store 0 for "no dictionary page": only an offset before the data pages
     * can be a dictionary page (dict-page-offset-zero.parquet). */
    if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
        cm->dictionary_page_offset < *start)
        *start = cm->dictionary_page_offset;
    *len = cm->total_compressed_size;
}

/* Reads below this size are not worth a readahead hint (a syscall of their own). */
#define HINT_MIN_NBYTES ((int64_t)256 * 1024)

/* The bytes of the chunk [start, start + len) of column chunk_col in row group rg: in place
 * for a source in memory, else read with one pread into buf. A large chunk is first
 * announced to the kernel, and so is the same column's chunk in the next row group (what
 * a column read asks for next), so that a cold file is read while this one decodes. */
static pqt_status fetch_chunk(const pqt_chunk_src *src, int rg, int chunk_col, int64_t start,
                              int64_t len, pqt_io_buf *buf, const uint8_t **ret)
{
    if (!src->io->mem && len >= HINT_MIN_NBYTES) {
        pqt_io_willneed(src->io, start, len);
        if (rg + 1 < src->meta->n_row_groups &&
            chunk_col < src->meta->row_groups[rg + 1].ncolumns) {
            const pqt_column_chunk *nx = &src->meta->row_groups[rg + 1].columns[chunk_col];
            int64_t ns, nl;
            chunk_range(&nx->meta, &ns, &nl);
            if (nx->has_meta && nl >= HINT_MIN_NBYTES) pqt_io_willneed(src->io, ns, nl);
        }
    }
    return pqt_io_view(src->io, start, (size_t)len, buf, ret);
}

void pqt_read_counters_add(pqt_read_counters *to, const pqt_read_counters *from)
{
    const memory_order r = memory_order_relaxed;
    atomic_fetch_add_explicit(&to->pages, atomic_load_explicit(&from->pages, r), r);
    atomic_fetch_add_explicit(&to->pages_skipped, atomic_load_explicit(&from->pages_skipped, r), r);
    atomic_fetch_add_explicit(&to->pages_decompressed,
                              atomic_load_explicit(&from->pages_decompressed, r), r);
    atomic_fetch_add_explicit(&to->dict_pages, atomic_load_explicit(&from->dict_pages, r), r);
    atomic_fetch_add_explicit(&to->values_decoded, atomic_load_explicit(&from->values_decoded, r),
                              r);
    atomic_fetch_add_explicit(&to->bytes_read, atomic_load_explicit(&from->bytes_read, r), r);
}

/* One read's counts into the shared block: six atomic adds per chunk, none per page. */
static void publish_counts(const chunk_walk *w, int64_t nvalues)
{
    pqt_read_counters *c = w->src->counters;
    if (!c) return;
    const memory_order r = memory_order_relaxed;
    atomic_fetch_add_explicit(&c->pages, w->n_pages, r);
    atomic_fetch_add_explicit(&c->pages_skipped, w->n_skipped, r);
    atomic_fetch_add_explicit(&c->pages_decompressed, w->n_decompressed, r);
    atomic_fetch_add_explicit(&c->dict_pages, w->n_dict, r);
    atomic_fetch_add_explicit(&c->values_decoded, nvalues, r);
    atomic_fetch_add_explicit(&c->bytes_read, w->n_bytes, r);
}

/* Rows per data page from the chunk's OffsetIndex. */
static pqt_status load_page_rows(const pqt_chunk_src *src, const pqt_column_chunk *cc,
                                 int64_t rg_rows, int64_t **rows_ret, int *n_ret)
{
    int64_t off = cc->offset_index_offset;
    int32_t len = cc->offset_index_length;
    if (off < 0 || len <= 0 || off > src->file_size - len)
        return pqt_err(PQT_CORRUPT, "offset index [%lld, +%d) is outside the file",
                       (long long)off, len);
    pqt_arena a = {0};
    pqt_offset_index oi;
    pqt_io_buf raw = pqt_io_buf_take(src->io);
    const uint8_t *bytes;
    pqt_status st = pqt_io_view(src->io, off, (size_t)len, &raw, &bytes);
    if (st == PQT_OK) st = pqt_meta_decode_offset_index(bytes, (size_t)len, off, &a, &oi);
    pqt_io_buf_give(src->io, &raw);
    int64_t *rows = NULL;
    if (st == PQT_OK) {
        rows = pqt_malloc_array((size_t)oi.npages + 1, sizeof *rows);
        if (!rows) st = pqt_err(PQT_NOMEM, "out of memory");
    }
    for (int i = 0; st == PQT_OK && i < oi.npages; i++) {
        int64_t next = i + 1 < oi.npages ? oi.pages[i + 1].first_row_index : rg_rows;
        rows[i] = next - oi.pages[i].first_row_index;
        if (rows[i] < 0 || next > rg_rows)
            st = pqt_err(PQT_CORRUPT, "offset index page %d has first rows out of order", i + 1);
    }
    pqt_arena_free(&a);
    if (st != PQT_OK) {
        pqt_mem_free(rows);
        return st;
    }
    *rows_ret = rows;
    *n_ret = oi.npages;
    return PQT_OK;
}

pqt_status pqt_chunk_read(pqt_chunk_ctx *cx, const pqt_chunk_src *src, int rg, const pqt_col *col,
                          const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_column_chunk *cc = &g->columns[col->chunk_col];
    const pqt_schema_elem *leaf = &src->meta->schema[col->leaf_schema_idx];
    chunk_walk w = {.cx = cx, .src = src, .col = col, .cm = &cc->meta, .ptype = leaf->type,
                    .type_len = leaf->type_length, .rg = rg, .rg_rows = g->num_rows};
    pqt_status st = PQT_OK;
    int64_t *oi_rows = NULL;
    if (sel->kind == PQT_SEL_NONE) return PQT_OK;
    if (!cc->has_meta || cc->file_path) {
        st = pqt_err(PQT_UNSUPPORTED, "column chunk metadata %s",
                     cc->file_path ? "points to another file" : "is missing");
        goto fail;
    }
    if (cc->meta.type != leaf->type) {
        st = pqt_err(PQT_CORRUPT, "column chunk type %d differs from the schema's %d",
                     cc->meta.type, leaf->type);
        goto fail;
    }
    if (!pqt_codec_supported(cc->meta.codec)) {
        st = pqt_err(PQT_UNSUPPORTED_CODEC, "codec %s not supported",
                     pqt_codec_name(cc->meta.codec));
        goto fail;
    }
    int64_t start, len;
    chunk_range(&cc->meta, &start, &len);
    if (start < 4 || len <= 0 || len > src->file_size || start > src->file_size - len) {
        st = pqt_err(PQT_CORRUPT, "column chunk byte range [%lld, +%lld) is outside the file "
                                  "(%lld bytes)",
                     (long long)start, (long long)len, (long long)src->file_size);
        goto fail;
    }
    if (col->max_rep > 0 && sel->kind != PQT_SEL_ALL && cc->has_offset_index) {
        st = load_page_rows(src, cc, g->num_rows, &oi_rows, &w.oi_npages);
        if (st != PQT_OK) goto fail;
        w.oi_rows = oi_rows;
    }
    {
        pqt_io_buf buf = pqt_io_buf_take(src->io);
        const uint8_t *bytes;
        st = fetch_chunk(src, rg, col->chunk_col, start, len, &buf, &bytes);
        if (st == PQT_OK) {
            w.n_bytes = len;
            cx->nvalues_out = 0;
            st = walk_pages(&w, bytes, (size_t)len, start, sel, dst, dst_row);
            publish_counts(&w, cx->nvalues_out);
        }
        pqt_io_buf_give(src->io, &buf);
    }
    pqt_mem_free(oi_rows);
    if (st == PQT_OK) return PQT_OK;
fail:
    /* Messages number row groups (and pages) from 1, as the CLI and the API's rows do. */
    if (w.page_no > 0)
        pqt_err_prefix("%s: column '%s', row group %d, page %d: ", src->path, col->path, rg + 1,
                       w.page_no);
    else pqt_err_prefix("%s: column '%s', row group %d: ", src->path, col->path, rg + 1);
    return st;
}
