/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_index.c - a column chunk's page index, read and checked (layer: column).
 *
 * PageIndex.md: the OffsetIndex gives each data page's byte range and first row, the
 * ColumnIndex its bounds. Both are hints the reader may skip work by, never the only truth:
 * an index that does not fit its chunk (pages out of order, outside the chunk's bytes, rows
 * not starting at 0 or past the row group, page counts that disagree) is reported unusable
 * and the chunk is read without it. Only I/O and memory failures are errors.
 */
#include "column/column_int.h"
#include "util/error.h"
#include "util/io.h"

/* Decode the structure at [off, off + len) with dec; *ok false when it is not one. */
static pqt_status load(const pqt_chunk_src *src, int64_t off, int32_t len, pqt_arena *a,
                       void *out, bool is_column_index, bool *ok)
{
    *ok = false;
    if (off < 4 || len <= 0 || off > src->file_size - len) return PQT_OK;
    pqt_io_buf raw = pqt_io_buf_take(src->io);
    const uint8_t *bytes;
    pqt_status st = pqt_io_view(src->io, off, (size_t)len, &raw, &bytes);
    if (st == PQT_OK) {
        pqt_err_mute(); /* a malformed index is not an error of the read */
        pqt_status dst = is_column_index
                             ? pqt_meta_decode_column_index(bytes, (size_t)len, off, a, out)
                             : pqt_meta_decode_offset_index(bytes, (size_t)len, off, a, out);
        pqt_err_unmute();
        if (dst == PQT_NOMEM) st = pqt_err(PQT_NOMEM, "out of memory reading a page index");
        *ok = dst == PQT_OK;
    }
    pqt_io_buf_give(src->io, &raw);
    return st;
}

void pqt_chunk_byte_range(const pqt_column_meta *cm, int64_t *start, int64_t *len)
{
    *start = cm->data_page_offset;
    /* Some writers store 0 for "no dictionary page": only an offset before the data pages
     * can be a dictionary page (dict-page-offset-zero.parquet). */
    if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
        cm->dictionary_page_offset < *start)
        *start = cm->dictionary_page_offset;
    *len = cm->total_compressed_size;
}

/* Pages in row order inside the chunk, first rows strictly increasing from 0. */
static bool offsets_fit(const pqt_offset_index *oi, const pqt_column_meta *cm, int64_t rg_rows)
{
    int64_t start, len;
    pqt_chunk_byte_range(cm, &start, &len);
    if (oi->npages < 1 || len <= 0 || start > INT64_MAX - len) return false;
    int64_t end = start + len, prev_end = start;
    for (int i = 0; i < oi->npages; i++) {
        const pqt_page_location *p = &oi->pages[i];
        if (p->compressed_page_size <= 0 || p->offset < prev_end ||
            p->offset > end - p->compressed_page_size)
            return false;
        if (i == 0 ? p->first_row_index != 0
                   : p->first_row_index <= oi->pages[i - 1].first_row_index)
            return false;
        if (p->first_row_index >= rg_rows) return false;
        prev_end = p->offset + p->compressed_page_size;
    }
    return true;
}

pqt_status pqt_chunk_offset_index(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                  pqt_arena *a, pqt_offset_index *oi, bool *ok)
{
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_column_chunk *cc = &g->columns[col->chunk_col];
    *ok = false;
    if (!cc->has_offset_index || !cc->has_meta) return PQT_OK;
    PQT_TRY(load(src, cc->offset_index_offset, cc->offset_index_length, a, oi, false, ok));
    if (*ok) *ok = offsets_fit(oi, &cc->meta, g->num_rows);
    return PQT_OK;
}

pqt_status pqt_chunk_page_index(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                pqt_arena *a, pqt_column_index *ci, pqt_offset_index *oi,
                                bool *ok)
{
    const pqt_column_chunk *cc = &src->meta->row_groups[rg].columns[col->chunk_col];
    *ok = false;
    if (!cc->has_column_index) return PQT_OK;
    PQT_TRY(pqt_chunk_offset_index(src, rg, col, a, oi, ok));
    if (!*ok) return PQT_OK;
    PQT_TRY(load(src, cc->column_index_offset, cc->column_index_length, a, ci, true, ok));
    if (*ok) *ok = ci->npages == oi->npages;
    return PQT_OK;
}
