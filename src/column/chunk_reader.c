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
 * One page's decoding is page_decode.c's; the exact counts of what a read cost
 * (pqt_read_counters) are added up here.
 */
#include <zlib.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"

void pqt_chunk_ctx_set_codes(pqt_chunk_ctx *cx, bool on)
{
    cx->want_codes = on;
}

void pqt_chunk_ctx_set_dict_refuted(pqt_chunk_ctx *cx, bool on)
{
    cx->dict_refuted = on;
}

void pqt_chunk_ctx_set_level_sink(pqt_chunk_ctx *cx, pqt_buf *reps, pqt_buf *defs)
{
    cx->sink_reps = reps;
    cx->sink_defs = defs;
}

const pqt_dict *pqt_chunk_ctx_dict(const pqt_chunk_ctx *cx)
{
    return cx->have_dict ? &cx->dict : NULL;
}

/* Uncompressed bytes a chunk's data pages may claim beyond its total_uncompressed_size.
 * Writers have left out page headers or the dictionary page (fastparquet #305); the corpus
 * is exact. The slack only has to keep a 1 KiB claim from becoming a 1 GiB allocation. */
static int64_t chunk_unc_slack(int64_t total)
{
    return ((int64_t)1 << 20) + (total > 0 ? total / 16 : 0);
}

/* Start a walk: what the footer allows the pages to hold. */
static pqt_status walk_begin(pqt_chunk_walk *w)
{
    w->cx->have_dict = false;
    int64_t tus = w->cm->total_uncompressed_size;
    if (w->cm->num_values < 0 || tus < 0)
        return pqt_err(PQT_CORRUPT,
                       "column chunk metadata counts %lld values in %lld "
                       "uncompressed bytes",
                       (long long)w->cm->num_values, (long long)tus);
    w->values_left = w->cm->num_values;
    /* 0 for a chunk that stores bytes means "not recorded": the codec bounds its pages */
    bool unrecorded = tus == 0 && w->cm->total_compressed_size > 0;
    w->unc_left = unrecorded || tus > INT64_MAX / 4 ? INT64_MAX / 2 : tus + chunk_unc_slack(tus);
    return PQT_OK;
}

/* The page whose header starts at buf[*pos] (buf[0] is file byte base): checked, loaded when
 * it is a dictionary, decoded under sel when it is a data page (only when data_ok), skipped
 * otherwise. Advances *pos past it. */
static pqt_status walk_page(pqt_chunk_walk *w, const uint8_t *buf, size_t n, int64_t base,
                            size_t *pos, bool data_ok, const pqt_sel *sel, int64_t *rows_done,
                            pqt_colbuf *dst, int64_t *out_row)
{
    pqt_page_header h;
    size_t hlen, at = *pos;
    w->page_no++;
    PQT_TRY(pqt_meta_decode_page_header(buf + at, n - at, base + (int64_t)at, &h, &hlen));
    if (h.compressed_size < 0 || h.uncompressed_size < 0 ||
        (size_t)h.compressed_size > n - at - hlen)
        return pqt_err(PQT_CORRUPT,
                       "page at byte %lld: compressed size %d runs past the column chunk "
                       "(%zu bytes left)",
                       (long long)(base + (int64_t)at), h.compressed_size, n - at - hlen);
    const uint8_t *body = buf + at + hlen;
    if (h.has_crc && w->src->verify_crc &&
        (h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2 || h.type == PQT_PAGE_DICTIONARY)) {
        uint32_t crc = (uint32_t)crc32(0L, body, (uInt)h.compressed_size);
        if (crc != h.crc)
            return pqt_err(PQT_CORRUPT_PAGE,
                           "corrupt page: CRC32 mismatch (stored %08x, computed %08x) at byte "
                           "%lld",
                           h.crc, crc, (long long)(base + (int64_t)at));
    }
    if (h.type == PQT_PAGE_DICTIONARY) {
        PQT_TRY(pqt_page_load_dict(w, &h, body));
    } else if (h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2) {
        if (!data_ok)
            return pqt_err(PQT_CORRUPT, "data page at byte %lld is not in the offset index",
                           (long long)(base + (int64_t)at));
        w->unc_left -= (int64_t)hlen;
        PQT_TRY(pqt_page_decode_data(w, &h, body, sel, rows_done, dst, out_row));
        w->unc_left -= h.uncompressed_size;
    }
    /* index pages and unknown page types are skipped */
    *pos = at + hlen + (size_t)h.compressed_size;
    return PQT_OK;
}

static pqt_status walk_end(const pqt_chunk_walk *w, int64_t rows_done, bool all_pages)
{
    if (rows_done != w->rg_rows)
        return pqt_err(PQT_CORRUPT, "column chunk holds %lld rows, the row group has %lld",
                       (long long)rows_done, (long long)w->rg_rows);
    /* Allocations were sized by the footer's num_values (list elements): a count the pages
     * do not hold is a lie, not a short read. Pages never read leave it unknown. A flat
     * column has one level entry per row, so the row group's num_rows (checked above and
     * page by page) bounds its pages and its num_values is advisory: writers have left it
     * 0 (docs/architecture.md, "Counts the reader trusts"). */
    if (all_pages && w->values_left != 0 && w->col->max_rep > 0)
        return pqt_err(PQT_CORRUPT, "column chunk holds %lld values, its metadata says %lld",
                       (long long)(w->cm->num_values - w->values_left),
                       (long long)w->cm->num_values);
    return PQT_OK;
}

static pqt_status walk(pqt_chunk_walk *w, const uint8_t *buf, size_t n, int64_t base,
                       const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    size_t pos = 0;
    int64_t rows_done = 0, out_row = dst_row;
    PQT_TRY(walk_begin(w));
    /* a list chunk's last row may go on in the pages after the one it starts in: they are
     * read while the footer's value count says entries remain */
    bool list = w->col->max_rep > 0;
    while (pos < n && (rows_done < w->rg_rows || (list && w->values_left > 0)))
        PQT_TRY(walk_page(w, buf, n, base, &pos, true, sel, &rows_done, dst, &out_row));
    return walk_end(w, rows_done, true);
}

/* Large decompression buffers go back to the shared budget after every chunk, so a thread
 * never holds them while it waits for anything else. */
static pqt_status walk_pages(pqt_chunk_walk *w, const uint8_t *buf, size_t n, int64_t base,
                             const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    pqt_status st = walk(w, buf, n, base, sel, dst, dst_row);
    pqt_page_buf_release(w->cx);
    return st;
}

/* Rows [first, next) of offset-index page i. */
static int64_t oi_next_row(const pqt_offset_index *oi, int i, int64_t rg_rows)
{
    return i + 1 < oi->npages ? oi->pages[i + 1].first_row_index : rg_rows;
}

/* Does offset-index page i hold a selected row? A list page is the page of the rows that
 * start in it, and may begin with the end of the row before (writers break pages inside
 * rows): it is wanted when that row is too. */
static bool oi_page_wanted(const pqt_offset_index *oi, int i, const pqt_sel *sel, int64_t rg_rows,
                           bool list)
{
    int64_t first = oi->pages[i].first_row_index;
    if (list && first > 0) first--;
    return pqt_sel_any(sel, first, oi_next_row(oi, i, rg_rows));
}

/* The bytes [off, off + len): in place for a memory source, else one pread into buf. */
static pqt_status fetch_range(pqt_chunk_walk *w, int64_t off, int64_t len, pqt_io_buf *buf,
                              const uint8_t **ret)
{
    w->n_bytes += len;
    return pqt_io_view(w->src->io, off, (size_t)len, buf, ret);
}

/* Walk only the pages holding a selected row, by the offset index: the dictionary page (the
 * bytes before the first data page) when any data page is wanted, then each run of wanted
 * pages read with one fetch. Pages nobody wants are never read (PageIndex.md). Every page
 * read must start where the index says and hold the rows it says. */
static pqt_status walk_indexed(pqt_chunk_walk *w, const pqt_offset_index *oi, int64_t start,
                               const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    int64_t rows_done = 0, out_row = dst_row;
    bool all_pages = true, list = w->col->max_rep > 0;
    PQT_TRY(walk_begin(w));
    pqt_io_buf buf = pqt_io_buf_take(w->src->io);
    pqt_status st = PQT_OK;
    const uint8_t *bytes;
    int64_t dict_len = oi->pages[0].offset - start;
    if (dict_len > 0 && pqt_sel_any(sel, 0, w->rg_rows)) {
        st = fetch_range(w, start, dict_len, &buf, &bytes);
        for (size_t pos = 0; st == PQT_OK && pos < (size_t)dict_len;)
            st = walk_page(w, bytes, (size_t)dict_len, start, &pos, false, sel, &rows_done, dst,
                           &out_row);
    }
    for (int i = 0; st == PQT_OK && i < oi->npages;) {
        if (!oi_page_wanted(oi, i, sel, w->rg_rows, list)) {
            rows_done = oi_next_row(oi, i, w->rg_rows);
            w->n_pages++;
            w->n_skipped++;
            w->page_no++;
            all_pages = false;
            i++;
            continue;
        }
        int j = i + 1; /* the run of wanted pages i .. j-1, fetched at once */
        while (j < oi->npages && oi_page_wanted(oi, j, sel, w->rg_rows, list))
            j++;
        int64_t off = oi->pages[i].offset;
        int64_t len = oi->pages[j - 1].offset + oi->pages[j - 1].compressed_page_size - off;
        st = fetch_range(w, off, len, &buf, &bytes);
        for (int p = i; st == PQT_OK && p < j; p++) {
            size_t pos = (size_t)(oi->pages[p].offset - off);
            if (rows_done != oi->pages[p].first_row_index) {
                st = pqt_err(PQT_CORRUPT,
                             "page at byte %lld starts at row %lld, the offset "
                             "index says %lld",
                             (long long)oi->pages[p].offset, (long long)rows_done,
                             (long long)oi->pages[p].first_row_index);
                break;
            }
            w->data_page_no = p;
            int64_t before = rows_done, pages_before = w->n_pages;
            st = walk_page(w, bytes, (size_t)len, off, &pos, true, sel, &rows_done, dst, &out_row);
            /* not a data page where one should be (a list page may start no row) */
            if (st == PQT_OK && w->n_pages == pages_before)
                st = pqt_err(PQT_CORRUPT,
                             "no data page at byte %lld, where the offset index "
                             "puts page %d",
                             (long long)oi->pages[p].offset, p + 1);
            else if (st == PQT_OK && rows_done != oi_next_row(oi, p, w->rg_rows))
                st = pqt_err(PQT_CORRUPT,
                             "page at byte %lld holds %lld rows, the offset index "
                             "says %lld",
                             (long long)oi->pages[p].offset, (long long)(rows_done - before),
                             (long long)(oi_next_row(oi, p, w->rg_rows) - before));
        }
        i = j;
    }
    pqt_io_buf_give(w->src->io, &buf);
    if (st == PQT_OK) st = walk_end(w, rows_done, all_pages);
    pqt_page_buf_release(w->cx);
    return st;
}

/* Reads below this size are not worth a readahead hint (a syscall of their own). */
#define HINT_MIN_NBYTES ((int64_t)256 * 1024)

/* A large chunk [start, start + len) of column chunk_col in row group rg is announced to the
 * kernel before it is read, and so is the same column's chunk in the next row group (what a
 * column read asks for next), so that a cold file is read while this one decodes. */
static void announce_chunk(const pqt_chunk_src *src, int rg, int chunk_col, int64_t start,
                           int64_t len)
{
    if (!src->io->mem && len >= HINT_MIN_NBYTES) {
        pqt_io_willneed(src->io, start, len);
        if (rg + 1 < src->meta->n_row_groups &&
            chunk_col < src->meta->row_groups[rg + 1].ncolumns &&
            (!src->members || src->members->rg_member[rg + 1] == src->member)) {
            const pqt_column_chunk *nx = &src->meta->row_groups[rg + 1].columns[chunk_col];
            int64_t ns, nl;
            pqt_chunk_byte_range(&nx->meta, &ns, &nl);
            if (nx->has_meta && nl >= HINT_MIN_NBYTES) pqt_io_willneed(src->io, ns, nl);
        }
    }
}

void pqt_read_counters_add(pqt_read_counters *to, const pqt_read_counters *from)
{
    const memory_order r = memory_order_relaxed;
    atomic_fetch_add_explicit(&to->pages, atomic_load_explicit(&from->pages, r), r);
    atomic_fetch_add_explicit(&to->pages_skipped, atomic_load_explicit(&from->pages_skipped, r), r);
    atomic_fetch_add_explicit(&to->pages_decompressed,
                              atomic_load_explicit(&from->pages_decompressed, r), r);
    atomic_fetch_add_explicit(&to->pages_sparse, atomic_load_explicit(&from->pages_sparse, r), r);
    atomic_fetch_add_explicit(&to->dict_pages, atomic_load_explicit(&from->dict_pages, r), r);
    atomic_fetch_add_explicit(&to->values_decoded, atomic_load_explicit(&from->values_decoded, r),
                              r);
    atomic_fetch_add_explicit(&to->bytes_read, atomic_load_explicit(&from->bytes_read, r), r);
    atomic_fetch_add_explicit(&to->offset_index_reads,
                              atomic_load_explicit(&from->offset_index_reads, r), r);
}

/* One read's counts into the shared block: seven atomic adds per chunk, none per page. */
static void publish_counts(const pqt_chunk_walk *w, int64_t nvalues)
{
    pqt_read_counters *c = w->src->counters;
    if (!c) return;
    const memory_order r = memory_order_relaxed;
    atomic_fetch_add_explicit(&c->pages, w->n_pages, r);
    atomic_fetch_add_explicit(&c->pages_skipped, w->n_skipped, r);
    atomic_fetch_add_explicit(&c->pages_decompressed, w->n_decompressed, r);
    atomic_fetch_add_explicit(&c->pages_sparse, w->n_sparse, r);
    atomic_fetch_add_explicit(&c->dict_pages, w->n_dict, r);
    atomic_fetch_add_explicit(&c->values_decoded, nvalues, r);
    atomic_fetch_add_explicit(&c->bytes_read, w->n_bytes, r);
}

/* Rows per data page from the offset index, for the walk's page_place. */
static pqt_status oi_page_rows(const pqt_offset_index *oi, int64_t rg_rows, int64_t **rows_ret)
{
    int64_t *rows = pqt_malloc_array((size_t)oi->npages + 1, sizeof *rows);
    if (!rows) return pqt_err(PQT_NOMEM, "out of memory");
    for (int i = 0; i < oi->npages; i++)
        rows[i] = oi_next_row(oi, i, rg_rows) - oi->pages[i].first_row_index;
    *rows_ret = rows;
    return PQT_OK;
}

/* True when some data page holds no selected row: reading by the index saves its bytes. */
static bool some_page_unwanted(const pqt_offset_index *oi, const pqt_sel *sel, int64_t rg_rows,
                               bool list)
{
    for (int i = 0; i < oi->npages; i++)
        if (!oi_page_wanted(oi, i, sel, rg_rows, list)) return true;
    return false;
}

/* Every page of the chunk [start, start + len): straight into dst's rows when it can be
 * (chunk_place.c), else with one read into a buffer and a walk of its pages. */
static pqt_status read_whole(pqt_chunk_walk *w, int64_t start, int64_t len, const pqt_sel *sel,
                             pqt_colbuf *dst, int64_t dst_row)
{
    const pqt_chunk_src *src = w->src;
    announce_chunk(src, w->rg, w->col->chunk_col, start, len);
    w->cx->nvalues_out = 0;
    pqt_status st = pqt_chunk_read_placed(w, start, len, sel, dst, dst_row);
    if (st == PQT_OK) publish_counts(w, w->cx->nvalues_out);
    if (st != PQT_NOT_FOUND) return st;
    /* the usual way: the attempt's counts start again */
    w->page_no = 0;
    w->n_pages = w->n_decompressed = 0;
    w->cx->nvalues_out = 0;
    pqt_io_buf buf = pqt_io_buf_take(src->io);
    const uint8_t *bytes;
    st = pqt_io_view(src->io, start, (size_t)len, &buf, &bytes);
    if (st == PQT_OK) {
        w->n_bytes += len;
        st = walk_pages(w, bytes, (size_t)len, start, sel, dst, dst_row);
        publish_counts(w, w->cx->nvalues_out);
    }
    pqt_io_buf_give(src->io, &buf);
    return st;
}

static pqt_status read_in(pqt_chunk_ctx *cx, const pqt_chunk_src *src, int rg, const pqt_col *col,
                          const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_column_chunk *cc = &g->columns[col->chunk_col];
    const pqt_schema_elem *leaf = &src->meta->schema[col->leaf_schema_idx];
    pqt_chunk_walk w = {.cx = cx,
                        .src = src,
                        .col = col,
                        .cm = &cc->meta,
                        .ptype = leaf->type,
                        .type_len = leaf->type_length,
                        .rg = rg,
                        .rg_rows = g->num_rows};
    pqt_status st = PQT_OK;
    int64_t *oi_rows = NULL;
    if (sel->kind == PQT_SEL_NONE) return PQT_OK;
    cx->page_hint = atomic_load_explicit(&src->io->page_hint, memory_order_relaxed);
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
    pqt_chunk_byte_range(&cc->meta, &start, &len);
    if (start < 4 || len <= 0 || len > src->file_size || start > src->file_size - len) {
        st = pqt_err(PQT_CORRUPT,
                     "column chunk byte range [%lld, +%lld) is outside the file "
                     "(%lld bytes)",
                     (long long)start, (long long)len, (long long)src->file_size);
        goto fail;
    }
    pqt_arena a = {0};
    pqt_offset_index oi;
    bool have_oi = false;
    if (sel->kind != PQT_SEL_ALL && cc->has_offset_index) {
        /* borrowed from src->oindex when the file caches it, else decoded into a */
        st = pqt_chunk_offset_index(src, rg, col, &a, &oi, &have_oi);
        if (st == PQT_OK && have_oi) st = oi_page_rows(&oi, g->num_rows, &oi_rows);
        if (st != PQT_OK) {
            pqt_arena_free(&a);
            goto fail;
        }
        w.oi_rows = oi_rows;
        w.oi_npages = have_oi ? oi.npages : 0;
    }
    if (have_oi && some_page_unwanted(&oi, sel, g->num_rows, col->max_rep > 0)) {
        cx->nvalues_out = 0;
        st = walk_indexed(&w, &oi, start, sel, dst, dst_row);
        publish_counts(&w, cx->nvalues_out);
    } else {
        st = read_whole(&w, start, len, sel, dst, dst_row);
    }
    pqt_arena_free(&a);
    pqt_mem_free(oi_rows);
    if (st == PQT_OK) return PQT_OK;
fail:
    /* Messages number row groups (and pages) from 1, as the CLI and the API's rows do. */
    if (w.page_no > 0)
        pqt_err_prefix("%s: column '%s', row group %d, page %d: ", src->path, col->path,
                       pqt_chunk_src_rg_no(src, rg), w.page_no);
    else
        pqt_err_prefix("%s: column '%s', row group %d: ", src->path, col->path,
                       pqt_chunk_src_rg_no(src, rg));
    return st;
}

/* Append [off, off + len) to *r (n used of *cap). */
static pqt_status push_range(pqt_io_range **r, int *n, int *cap, int64_t off, int64_t len)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        pqt_io_range *g = pqt_realloc(*r, (size_t)c * sizeof *g);
        if (!g) return pqt_err(PQT_NOMEM, "out of memory");
        *r = g;
        *cap = c;
    }
    (*r)[(*n)++] = (pqt_io_range){off, len};
    return PQT_OK;
}

pqt_status pqt_chunk_ranges(const pqt_chunk_src *src, int rg, const pqt_col *col,
                            const pqt_sel *sel, pqt_io_range **ranges, int *n, int *cap)
{
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_column_chunk *cc = &g->columns[col->chunk_col];
    if (sel->kind == PQT_SEL_NONE || cc->is_constant || !cc->has_meta || cc->file_path ||
        (src->members && src->member < 0))
        return PQT_OK;
    int64_t start, len;
    pqt_chunk_byte_range(&cc->meta, &start, &len);
    if (start < 4 || len <= 0 || len > src->file_size || start > src->file_size - len)
        return PQT_OK; /* the read reports it */
    pqt_arena a = {0};
    pqt_offset_index oi;
    bool have_oi = false, list = col->max_rep > 0;
    pqt_status st = PQT_OK;
    if (sel->kind != PQT_SEL_ALL && cc->has_offset_index)
        st = pqt_chunk_offset_index(src, rg, col, &a, &oi, &have_oi);
    if (st != PQT_OK || !have_oi || !some_page_unwanted(&oi, sel, g->num_rows, list)) {
        pqt_arena_free(&a);
        return st == PQT_OK ? push_range(ranges, n, cap, start, len) : st;
    }
    /* what walk_indexed reads: the dictionary page, then each run of wanted pages */
    int64_t dict_len = oi.pages[0].offset - start;
    if (dict_len > 0) st = push_range(ranges, n, cap, start, dict_len);
    for (int i = 0; st == PQT_OK && i < oi.npages; i++) {
        if (!oi_page_wanted(&oi, i, sel, g->num_rows, list)) continue;
        int j = i + 1;
        while (j < oi.npages && oi_page_wanted(&oi, j, sel, g->num_rows, list)) j++;
        int64_t off = oi.pages[i].offset;
        st = push_range(ranges, n, cap, off,
                        oi.pages[j - 1].offset + oi.pages[j - 1].compressed_page_size - off);
        i = j - 1;
    }
    pqt_arena_free(&a);
    return st;
}

pqt_status pqt_chunk_read(pqt_chunk_ctx *cx, const pqt_chunk_src *src, int rg, const pqt_col *col,
                          const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    if (sel->kind != PQT_SEL_NONE && src->meta->row_groups[rg].columns[col->chunk_col].is_constant)
        return pqt_chunk_read_constant(src, rg, col, sel, dst, dst_row);
    if (!src->members || src->member >= 0) return read_in(cx, src, rg, col, sel, dst, dst_row);
    pqt_chunk_src one;
    PQT_TRY(pqt_chunk_src_at(src, rg, &one));
    pqt_status st = read_in(cx, &one, rg, col, sel, dst, dst_row);
    pqt_chunk_src_done(&one);
    return st;
}
