/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chunk_dict.c - the dictionary page of one column chunk, alone, decoded into the column's
 * own values (layer: column), for predicates decided on dictionary entries (docs/pruning.md,
 * "Per row group", step 4). Only that page is read: a short prefix for its header, then its body.
 * The dictionary is a hint here: one that is absent, corrupt, or larger than the caller or the
 * chunk's sizes allow is "not usable", never an error; only I/O and memory fail.
 * Parquet-format: DictionaryPageHeader; Encodings.md (the dictionary page is PLAIN).
 */
#include <string.h>
#include <zlib.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/mem.h"

/* Bytes read first for the page header: a dictionary page's (sizes, CRC, entry count,
 * encoding, is_sorted) takes a few dozen. */
#define DICT_HEADER_PROBE 256

static bool fatal(pqt_status st) { return st == PQT_IO || st == PQT_NOMEM; }

/* Entries a PLAIN page of nbytes can hold at most: each BYTE_ARRAY takes its 4-byte length,
 * a boolean a bit. Bounds the destination before it is allocated. */
static int64_t max_entries(int ptype, int type_len, int64_t nbytes)
{
    if (ptype == PQT_PT_BYTE_ARRAY) return nbytes / 4;
    if (ptype == PQT_PT_BOOLEAN) return nbytes * 8;
    size_t w = pqt_ptype_nbytes(ptype, type_len);
    return w > 0 ? nbytes / (int64_t)w : 0;
}

/* The page header at the chunk's start, and the page's body when it is a dictionary page
 * that fits the chunk and max_nbytes (else *body_ret NULL). Adds what it fetched to
 * *fetched. */
static pqt_status fetch_page(const pqt_chunk_src *src, const pqt_column_meta *cm, int ptype,
                             int type_len, int64_t start, int64_t len, size_t max_nbytes,
                             pqt_io_buf *buf, pqt_page_header *h, const uint8_t **body_ret,
                             int64_t *fetched)
{
    *body_ret = NULL;
    size_t probe = len < DICT_HEADER_PROBE ? (size_t)len : DICT_HEADER_PROBE;
    const uint8_t *bytes;
    PQT_TRY(pqt_io_view(src->io, start, probe, buf, &bytes));
    *fetched += (int64_t)probe;
    size_t hlen;
    pqt_err_mute();
    pqt_status st = pqt_meta_decode_page_header(bytes, probe, start, h, &hlen);
    pqt_err_unmute();
    if (st != PQT_OK) return PQT_OK; /* no arena: only a malformed header fails */
    if (h->type != PQT_PAGE_DICTIONARY || h->num_values < 0 || h->compressed_size < 0 ||
        h->uncompressed_size < 0)
        return PQT_OK;
    if (h->has_dict_header && h->encoding != PQT_ENC_PLAIN &&
        h->encoding != PQT_ENC_PLAIN_DICTIONARY)
        return PQT_OK;
    /* What the page may cost is bounded before anything is allocated: its bytes by the chunk
     * and the caller; its decompressed size by the caller and by the chunk's recorded total
     * (a writer that left the dictionary out of the total only loses the proof). A header
     * whose uncompressed size lies is not trusted even when the chunk is stored
     * uncompressed (where the size goes unused). */
    int64_t unc = cm->codec == PQT_CODEC_UNCOMPRESSED ? h->compressed_size : h->uncompressed_size;
    int64_t tus = cm->total_uncompressed_size;
    if ((int64_t)hlen + h->compressed_size > len || (uint64_t)unc > max_nbytes ||
        (uint64_t)h->compressed_size > max_nbytes ||
        (uint64_t)h->uncompressed_size > max_nbytes || (tus > 0 && unc > tus) ||
        (tus > 0 && h->uncompressed_size > tus) ||
        h->num_values > max_entries(ptype, type_len, unc))
        return PQT_OK;
    size_t need = hlen + (size_t)h->compressed_size;
    if (need > probe) {
        PQT_TRY(pqt_io_view(src->io, start, need, buf, &bytes));
        *fetched += (int64_t)need;
    }
    const uint8_t *body = bytes + hlen;
    if (h->has_crc && src->verify_crc &&
        (uint32_t)crc32(0L, body, (uInt)h->compressed_size) != h->crc)
        return PQT_OK;
    *body_ret = body;
    return PQT_OK;
}

/* The page's values decoded as a data page of PLAIN values would be: the column's kind and
 * conversion, every entry present. Not usable (*ok false) when they do not decode. */
static pqt_status decode_entries(pqt_chunk_walk *w, const pqt_page_header *h,
                                 const uint8_t *body, pqt_colbuf *dst, bool *ok)
{
    const uint8_t *p = NULL;
    size_t n = 0;
    int64_t nent = h->num_values;
    pqt_err_mute();
    pqt_status st = pqt_page_dict_plain(w, h, body, &p, &n);
    if (st == PQT_OK) st = pqt_colbuf_alloc(dst, w->col, nent, 0, NULL);
    if (st == PQT_OK) {
        pqt_page_view pv = {.values = p, .values_nbytes = n, .encoding = PQT_ENC_PLAIN,
                            .nlevels = nent, .nrows = nent, .nvalues = nent};
        pqt_sel all;
        pqt_sel_init_all(&all, nent);
        int64_t out_row = 0;
        bool codes = w->cx->want_codes;
        w->cx->want_codes = false;
        st = pqt_page_emit_flat(w->cx, w->col, w->ptype, w->type_len, &pv, &all, 0, dst,
                                &out_row);
        w->cx->want_codes = codes;
        if (st == PQT_OK && out_row != nent) st = PQT_CORRUPT;
    }
    pqt_err_unmute();
    if (st == PQT_OK) {
        *ok = true;
        return PQT_OK;
    }
    pqt_colbuf_free(dst);
    if (fatal(st))
        return pqt_err(st, "out of memory decoding a dictionary of %lld entries",
                       (long long)nent);
    return PQT_OK;
}

static pqt_status read_dict_in(pqt_chunk_ctx *cx, const pqt_chunk_src *src, int rg,
                               const pqt_col *col, size_t max_nbytes, pqt_colbuf *dst,
                               bool *ok)
{
    memset(dst, 0, sizeof *dst);
    *ok = false;
    if (rg < 0 || rg >= src->meta->n_row_groups || col->is_list || col->max_rep > 0 ||
        col->chunk_col >= src->meta->row_groups[rg].ncolumns)
        return PQT_OK;
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_column_chunk *cc = &g->columns[col->chunk_col];
    const pqt_schema_elem *leaf = &src->meta->schema[col->leaf_schema_idx];
    if (!cc->has_meta || cc->file_path || cc->encrypted || cc->meta.type != leaf->type ||
        !pqt_codec_supported(cc->meta.codec))
        return PQT_OK;
    int64_t start, len;
    pqt_chunk_byte_range(&cc->meta, &start, &len);
    if (start < 4 || len <= 0 || len > src->file_size || start > src->file_size - len)
        return PQT_OK;
    pqt_chunk_walk w = {.cx = cx, .src = src, .col = col, .cm = &cc->meta, .ptype = leaf->type,
                        .type_len = leaf->type_length, .rg = rg, .rg_rows = g->num_rows};
    pqt_io_buf buf = pqt_io_buf_take(src->io);
    pqt_page_header h;
    const uint8_t *body = NULL;
    int64_t fetched = 0;
    pqt_status st = fetch_page(src, &cc->meta, w.ptype, w.type_len, start, len, max_nbytes,
                               &buf, &h, &body, &fetched);
    if (st == PQT_OK && body) st = decode_entries(&w, &h, body, dst, ok);
    pqt_io_buf_give(src->io, &buf);
    pqt_page_buf_release(cx);
    pqt_read_counters *c = src->counters;
    if (c) {
        atomic_fetch_add_explicit(&c->dict_pages, *ok ? 1 : 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->bytes_read, fetched, memory_order_relaxed);
    }
    if (st != PQT_OK)
        pqt_err_prefix("%s: column '%s', row group %d, dictionary page: ", src->path, col->path,
                       pqt_chunk_src_rg_no(src, rg));
    return st;
}

pqt_status pqt_chunk_read_dict(pqt_chunk_ctx *cx, const pqt_chunk_src *src, int rg,
                               const pqt_col *col, size_t max_nbytes, pqt_colbuf *dst,
                               bool *ok)
{
    if (!src->members || src->member >= 0) return read_dict_in(cx, src, rg, col, max_nbytes, dst, ok);
    pqt_chunk_src one;
    PQT_TRY(pqt_chunk_src_at(src, rg, &one));
    pqt_status st = read_dict_in(cx, &one, rg, col, max_nbytes, dst, ok);
    pqt_chunk_src_done(&one);
    return st;
}
