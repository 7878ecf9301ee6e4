/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_chunk.c - the column-chunk writer (layer: write; parquet-format Data Pages, Nested
 * Encoding, Compression, PageIndex.md, "Checksumming").
 *
 * Rows are shredded into definition and repetition levels (uint16) and dense non-null values,
 * a page at a time; a page ends at a row boundary once its values pass the page size, so the
 * offset index's first_row_index and a v2 page's num_rows are exact. Values are dictionary
 * encoded until the dictionary would pass its limit; then the chunk is PLAIN: the pages
 * already written as indices are written again PLAIN from the dictionary's entries (their
 * indices and level bytes are kept until the chunk ends), since a chunk mixing a dictionary
 * page, index pages and PLAIN pages is larger than PLAIN alone whenever PLAIN values compress
 * well (sorted or repeated-in-runs values: twice the size was measured). A column whose
 * dictionary gave up once (or whose first page was nearly all distinct) is PLAIN for the rest
 * of the file: high cardinality rarely changes between row groups, and retrying costs a hash
 * per value. The dictionary page, known only at the end, is placed before the data pages when
 * the row group is written.
 */
#include <string.h>
#include <zlib.h>

#include "format/meta_encode.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"
#include "write/enc.h"
#include "write/write_int.h"

static pqt_status oom(const pqt_wchunk *w)
{
    return pqt_err(PQT_NOMEM, "column '%s': out of memory writing a page", w->col->name);
}

pqt_status pqt_wchunk_init(pqt_wchunk *w, const pqt_wcol *c, const pqt_write_opts *o)
{
    memset(w, 0, sizeof *w);
    w->col = c;
    w->opts = o;
    w->stats_ok = true;
    PQT_TRY(pqt_codec_ctx_new(&w->codec));
    return PQT_OK;
}

void pqt_wchunk_free(pqt_wchunk *w)
{
    if (!w) return;
    pqt_codec_ctx_free(w->codec);
    pqt_buf_free(&w->def);
    pqt_buf_free(&w->rep);
    pqt_buf_free(&w->vals);
    pqt_buf_free(&w->offs);
    pqt_buf_free(&w->pages);
    pqt_buf_free(&w->dict_page);
    pqt_buf_free(&w->scratch);
    pqt_buf_free(&w->comp);
    pqt_buf_free(&w->hdr);
    pqt_buf_free(&w->kept_lv);
    pqt_buf_free(&w->kept_idx);
    pqt_buf_free(&w->redo);
    pqt_buf_free(&w->struct_lv); /* struct leaves (write_struct.c) */
    pqt_mem_free(w->kept);
    for (int i = 0; i < w->npages; i++) {
        pqt_mem_free(w->pidx[i].min);
        pqt_mem_free(w->pidx[i].max);
    }
    pqt_mem_free(w->pidx);
    pqt_wstats_free(&w->stats);
    if (w->dict) pqt_dict_builder_free(w->dict);
    if (w->bloom) pqt_bloom_builder_free(w->bloom);
    pqt_mem_free(w->idx);
    memset(w, 0, sizeof *w);
}

void pqt_wchunk_reset(pqt_wchunk *w)
{
    w->def.len = w->rep.len = w->vals.len = w->offs.len = 0;
    w->pages.len = w->dict_page.len = 0;
    w->finished = false;
    w->page_nvals = w->page_nnonnull = w->page_rows = w->page_first_row = 0;
    for (int i = 0; i < w->npages; i++) {
        pqt_mem_free(w->pidx[i].min);
        pqt_mem_free(w->pidx[i].max);
    }
    w->npages = 0;
    w->ndata_pages = 0;
    pqt_wstats_reset(&w->stats);
    w->stats_ok = true;
    w->nvals = w->nrows = w->uncompressed_nbytes = 0;
    w->used_dict_enc = w->used_plain = false;
    w->dict_fallback = w->dict_off;
    w->nkept = 0;
    w->kept_lv.len = w->kept_idx.len = 0;
    if (w->dict) pqt_dict_builder_reset(w->dict);
    if (w->bloom) {
        pqt_bloom_builder_free(w->bloom);
        w->bloom = NULL;
    }
}

int64_t pqt_wchunk_nbytes(const pqt_wchunk *w)
{
    return (int64_t)(w->pages.len + w->vals.len + w->def.len + w->rep.len);
}

/* ---- shredding ---- */

static pqt_status required_null(const pqt_wchunk *w, int64_t row_no, const char *what)
{
    if (w->col->protect)
        return pqt_err(PQT_PROTECTED, "protected column '%s' holds a null: row %lld %s",
                       w->col->name, (long long)row_no, what);
    return pqt_err(PQT_MISUSE, "column '%s' is written required (its template holds no nulls) "
                               "but row %lld %s",
                   w->col->name, (long long)row_no, what);
}

/* Room for n more levels in lv (uint16), returned as a pointer to the first. */
static uint16_t *levels_room(pqt_buf *lv, int64_t n)
{
    if (pqt_buf_reserve_more(lv, (size_t)n * 2) != PQT_OK) return NULL;
    return (uint16_t *)(lv->data + lv->len);
}

/* Room for values: nval more dense values, and for strings nbytes more bytes and nval more
 * offsets (the chunk's first string also writes the leading 0). */
static pqt_status values_room(pqt_wchunk *w, int64_t nval, size_t value_nbytes, size_t nbytes)
{
    size_t need = w->col->ptype != PQT_PT_BYTE_ARRAY ? (size_t)nval * value_nbytes : nbytes;
    size_t page = (size_t)w->opts->page_nbytes;
    if (page > ((size_t)64 << 20)) page = (size_t)64 << 20;
    if (w->vals.cap == 0 && need >= page / 8) {
        /* a page's values at once: growing by doubling copies each size into fresh memory,
         * and room not written is never touched. Not for a first batch far below a page:
         * a megabyte per column was most of the time a copy of 50,000 short columns took
         * (issue 28), and doubling from a small start copies less than one page. */
        PQT_TRY(pqt_buf_reserve(&w->vals, page + page / 4));
    }
    if (w->col->ptype != PQT_PT_BYTE_ARRAY)
        return pqt_buf_reserve_more(&w->vals, (size_t)nval * value_nbytes);
    /* never a NULL base for the dense bytes, even when every string is empty */
    PQT_TRY(pqt_buf_reserve_more(&w->vals, nbytes + 64));
    if (w->offs.len == 0) {
        PQT_TRY(pqt_buf_reserve_more(&w->offs, 8));
        memset(w->offs.data, 0, 8);
        w->offs.len = 8;
    }
    return pqt_buf_reserve_more(&w->offs, (size_t)nval * 8);
}

/* The valid elements of [e0, e1) of b (valid: its validity, or NULL when every element of
 * the range is valid) appended as dense values, in one loop without a call per value (the
 * room was made by values_room); returns how many. */
static int64_t append_values(pqt_wchunk *w, const pqt_colbuf *b, const uint8_t *valid,
                             int64_t e0, int64_t e1)
{
    const pqt_wcol *c = w->col;
    int64_t kept = 0;
    if (c->ptype == PQT_PT_BYTE_ARRAY) {
        const int64_t *so = b->str_offsets;
        const uint8_t *src = b->str_bytes.data;
        uint8_t *dst = w->vals.data;
        int64_t *oo = (int64_t *)(w->offs.data + w->offs.len);
        int64_t end = (int64_t)w->vals.len;
        for (int64_t e = e0; e < e1; e++) {
            if (!pqt_bit_get(valid, e)) continue;
            int64_t len = so[e + 1] - so[e];
            if (len > 0) memcpy(dst + end, src + so[e], (size_t)len);
            end += len;
            oo[kept++] = end;
        }
        w->vals.len = (size_t)end;
        w->offs.len += (size_t)kept * 8;
        return kept;
    }
    size_t en = b->elem_nbytes;
    const uint8_t *src = b->data;
    uint8_t *dst = w->vals.data + w->vals.len;
    if (c->narrow32) {
        for (int64_t e = e0; e < e1; e++) {
            if (!pqt_bit_get(valid, e)) continue;
            int64_t v;
            memcpy(&v, src + (size_t)e * 8, 8);
            int32_t x = (int32_t)v;
            memcpy(dst + (size_t)kept++ * 4, &x, 4);
        }
        w->vals.len += (size_t)kept * 4;
        return kept;
    }
    if (!valid) {
        /* a column with no room yet (vals grow on demand) has dst NULL for an empty span */
        if (e1 > e0) memcpy(dst, src + (size_t)e0 * en, (size_t)(e1 - e0) * en);
        kept = e1 - e0;
    } else if (en == 4) {
        for (int64_t e = e0; e < e1; e++)
            if (pqt_bit_get(valid, e)) memcpy(dst + (size_t)kept++ * 4, src + (size_t)e * 4, 4);
    } else if (en == 8) {
        for (int64_t e = e0; e < e1; e++)
            if (pqt_bit_get(valid, e)) memcpy(dst + (size_t)kept++ * 8, src + (size_t)e * 8, 8);
    } else {
        for (int64_t e = e0; e < e1; e++)
            if (pqt_bit_get(valid, e)) memcpy(dst + (size_t)kept++ * en, src + (size_t)e * en, en);
    }
    w->vals.len += (size_t)kept * en;
    return kept;
}

/* Bytes of the string elements [e0, e1) of b (valid or not: a bound). */
static size_t string_bytes(const pqt_colbuf *b, int64_t e0, int64_t e1)
{
    return b->str_offsets ? (size_t)(b->str_offsets[e1] - b->str_offsets[e0]) : 0;
}

static pqt_status shred_flat(pqt_wchunk *w, const pqt_colbuf *b, int64_t r0, int64_t n,
                             int64_t row_no)
{
    const pqt_wcol *c = w->col;
    const uint16_t *sd = w->struct_def;
    const uint8_t *valid = b->validity;
    if (valid && pqt_bits_all_set(valid, r0, n)) valid = NULL; /* the fast paths then */
    if (valid && (c->max_def == 0 || sd)) {
        /* a required leaf refuses nulls; a struct leaf's null has the level of the groups
         * present (write_struct.c), and a protected or required one refuses it too */
        for (int64_t i = r0; i < r0 + n; i++) {
            if (pqt_bit_get(valid, i)) continue;
            if (!sd || c->protect || sd[i - w->struct_r0] >= c->max_def)
                return required_null(w, row_no + (i - r0), "is null");
        }
    }
    size_t vn = c->narrow32 ? 4 : b->elem_nbytes;
    PQT_TRY(values_room(w, n, vn, string_bytes(b, r0, r0 + n)));
    if (c->max_def > 0) {
        uint16_t *d = levels_room(&w->def, n);
        if (!d) return oom(w);
        const uint16_t full = (uint16_t)c->max_def; /* > 1 inside optional structs */
        if (!valid)
            for (int64_t i = 0; i < n; i++) d[i] = full;
        else if (!sd)
            for (int64_t i = 0; i < n; i++) d[i] = pqt_bit_get(valid, r0 + i) ? full : 0;
        else
            for (int64_t i = 0; i < n; i++)
                d[i] = pqt_bit_get(valid, r0 + i) ? full : sd[r0 + i - w->struct_r0];
        w->def.len += (size_t)n * 2;
    }
    int64_t kept = append_values(w, b, valid, r0, r0 + n);
    w->page_nvals += n;
    w->page_nnonnull += kept;
    return PQT_OK;
}

static pqt_status shred_list(pqt_wchunk *w, const pqt_colbuf *b, int64_t r0, int64_t n,
                             int64_t row_no)
{
    const pqt_wcol *c = w->col;
    /* inside optional structs every level is group_def higher (write_struct.c) */
    uint16_t list_present = (uint16_t)(c->group_def + (c->nullable ? 1 : 0));
    uint16_t elem_null = (uint16_t)(list_present + 1), elem_full = (uint16_t)c->max_def;
    int64_t e0 = b->list_offsets[r0], e1 = b->list_offsets[r0 + n];
    const uint8_t *valid = b->validity, *row_valid = b->row_validity;
    if (valid && pqt_bits_all_set(valid, e0, e1 - e0)) valid = NULL; /* the fast paths then */
    if (row_valid && pqt_bits_all_set(row_valid, r0, n)) row_valid = NULL;
    /* a level entry per element, and one per null or empty list */
    int64_t nlev = (e1 - e0) + n;
    uint16_t *d = levels_room(&w->def, nlev), *r = levels_room(&w->rep, nlev);
    if (!d || !r) return oom(w);
    size_t vn = c->narrow32 ? 4 : b->elem_nbytes;
    PQT_TRY(values_room(w, e1 - e0, vn, string_bytes(b, e0, e1)));
    int64_t nl = 0;
    for (int64_t i = r0; i < r0 + n; i++) {
        if (row_valid && !pqt_bit_get(row_valid, i)) {
            uint16_t dl = w->struct_def ? w->struct_def[i - w->struct_r0] : 0;
            if (dl >= list_present) return required_null(w, row_no + (i - r0), "is a null list");
            d[nl] = dl;
            r[nl++] = 0;
            continue;
        }
        int64_t f = b->list_offsets[i], k = b->list_offsets[i + 1] - f;
        if (k == 0) {
            d[nl] = list_present;
            r[nl++] = 0;
            continue;
        }
        if (!valid) {
            for (int64_t e = 0; e < k; e++) {
                d[nl + e] = elem_full;
                r[nl + e] = 1;
            }
        } else {
            for (int64_t e = 0; e < k; e++) {
                bool present = pqt_bit_get(valid, f + e);
                if (!present && !c->elem_nullable)
                    return required_null(w, row_no + (i - r0), "has a null element");
                d[nl + e] = present ? elem_full : elem_null;
                r[nl + e] = 1;
            }
        }
        r[nl] = 0;
        nl += k;
    }
    int64_t kept = append_values(w, b, valid, e0, e1);
    w->def.len += (size_t)nl * 2;
    w->rep.len += (size_t)nl * 2;
    w->page_nvals += nl;
    w->page_nnonnull += kept;
    return PQT_OK;
}

/* ---- pages ---- */

static pqt_status page_index_add(pqt_wchunk *w, int64_t offset, int32_t nbytes,
                                 const pqt_wstats *ps)
{
    if (w->npages == w->pcap) {
        int cap = w->pcap ? w->pcap * 2 : 16;
        pqt_wpage *p = pqt_realloc(w->pidx, (size_t)cap * sizeof *p);
        if (!p) return oom(w);
        w->pidx = p;
        w->pcap = cap;
    }
    pqt_wpage *p = &w->pidx[w->npages];
    memset(p, 0, sizeof *p);
    p->offset = offset;
    p->nbytes = nbytes;
    p->first_row = w->page_first_row;
    p->null_page = w->page_nnonnull == 0;
    p->null_count = w->page_nvals - w->page_nnonnull;
    p->has_minmax = ps->has_minmax;
    if (ps->has_minmax) {
        p->min = pqt_malloc(ps->min.len + 1);
        p->max = pqt_malloc(ps->max.len + 1);
        if (!p->min || !p->max) {
            pqt_mem_free(p->min);
            pqt_mem_free(p->max);
            return oom(w);
        }
        if (ps->min.len) memcpy(p->min, ps->min.data, ps->min.len);
        if (ps->max.len) memcpy(p->max, ps->max.data, ps->max.len);
        p->min_len = (uint32_t)ps->min.len;
        p->max_len = (uint32_t)ps->max.len;
    }
    w->npages++;
    return PQT_OK;
}

/* Compress src[0..n) into w->comp (a copy when uncompressed). */
static pqt_status compress_page(pqt_wchunk *w, const uint8_t *src, size_t n)
{
    int codec = w->opts->codec;
    w->comp.len = 0;
    if (codec == PQT_WRITE_UNCOMPRESSED) return pqt_buf_append(&w->comp, src, n);
    size_t cap = pqt_codec_compress_bound(codec, n);
    PQT_TRY(pqt_buf_reserve(&w->comp, cap));
    size_t out = 0;
    int level = w->opts->level_set ? w->opts->level : 0;
    pqt_status st = pqt_codec_compress(w->codec, codec, level, src, n, w->comp.data, cap, &out);
    if (st != PQT_OK) {
        pqt_err_prefix("column '%s': ", w->col->name);
        return st;
    }
    w->comp.len = out;
    return PQT_OK;
}

/* Append header + body (body already in its final form) to out. */
static pqt_status emit_page(pqt_wchunk *w, pqt_buf *out, pqt_page_header *h, const uint8_t *body,
                            size_t body_nbytes, size_t uncompressed_nbytes)
{
    if (body_nbytes > INT32_MAX || uncompressed_nbytes > INT32_MAX)
        return pqt_err(PQT_LIMIT, "column '%s': a page of %zu bytes is past the format's 2 GiB",
                       w->col->name, uncompressed_nbytes);
    h->compressed_size = (int32_t)body_nbytes;
    h->uncompressed_size = (int32_t)uncompressed_nbytes;
    if (w->opts->page_crc) {
        h->has_crc = true;
        h->crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), body, (uInt)body_nbytes);
    }
    w->hdr.len = 0;
    PQT_TRY(pqt_meta_encode_page_header(&w->hdr, h));
    PQT_TRY(pqt_buf_append(out, w->hdr.data, w->hdr.len));
    PQT_TRY(pqt_buf_append(out, body, body_nbytes));
    w->uncompressed_nbytes += (int64_t)(w->hdr.len + uncompressed_nbytes);
    return PQT_OK;
}

/* Levels as RLE/bit-packed hybrid; v1 prefixes the 4-byte length. */
static pqt_status put_levels(pqt_buf *out, const pqt_buf *lv, int64_t n, int max_level,
                             bool prefix)
{
    if (max_level == 0) return PQT_OK;
    size_t at = out->len;
    if (prefix) PQT_TRY(pqt_buf_append(out, "\0\0\0\0", 4));
    size_t start = out->len;
    PQT_TRY(pqt_enc_levels_u16(out, (const uint16_t *)lv->data, (size_t)n,
                               pqt_enc_bit_width((uint64_t)max_level)));
    if (prefix) {
        pqt_store_le32(out->data + at, (uint32_t)(out->len - start));
    }
    return PQT_OK;
}

/* The page's values: dictionary indices while the dictionary holds, else PLAIN. */
static pqt_status encode_values(pqt_wchunk *w, pqt_buf *out, int *encoding_ret)
{
    const pqt_wcol *c = w->col;
    int64_t n = w->page_nnonnull;
    const int64_t *offs = n > 0 && c->ptype == PQT_PT_BYTE_ARRAY ? (const int64_t *)w->offs.data : NULL;
    if (w->dict && !w->dict_fallback && n > 0) {
        if ((size_t)n > w->idx_cap) {
            uint32_t *ix = pqt_realloc(w->idx, (size_t)n * sizeof *ix);
            if (!ix) return oom(w);
            w->idx = ix;
            w->idx_cap = (size_t)n;
        }
        bool first_page = !w->used_dict_enc && !w->used_plain;
        pqt_status st;
        size_t width = offs ? 0 : w->vals.len / (size_t)n;
        if (first_page && pqt_dict_sample_distinct(w->vals.data, offs, width, (size_t)n))
            st = PQT_LIMIT; /* a sample says the count below would give up: PLAIN now */
        else
            st = offs ? pqt_dict_builder_add_bytes(w->dict, offs, w->vals.data, (size_t)n, w->idx)
                      : pqt_dict_builder_add_fixed(w->dict, w->vals.data, (size_t)n, w->idx);
        if (st == PQT_OK && first_page && n >= 64 &&
            (uint64_t)pqt_dict_builder_count(w->dict) * 10 > (uint64_t)n * 9) {
            /* nearly every value of the chunk's first page is new: a dictionary would only
             * add its page to the values, so the chunk is PLAIN from the start */
            pqt_dict_builder_reset(w->dict);
            st = PQT_LIMIT;
        }
        if (st == PQT_OK) {
            size_t count = pqt_dict_builder_count(w->dict);
            int bw = pqt_enc_bit_width(count > 1 ? (uint64_t)(count - 1) : 1);
            uint8_t b = (uint8_t)bw;
            PQT_TRY(pqt_buf_append(out, &b, 1));
            PQT_TRY(pqt_enc_rle_hybrid(out, w->idx, (size_t)n, bw));
            *encoding_ret = PQT_ENC_RLE_DICTIONARY;
            w->used_dict_enc = true;
            return PQT_OK;
        }
        if (st != PQT_LIMIT) {
            pqt_err_prefix("column '%s': ", c->name);
            return st;
        }
        w->dict_fallback = true; /* the rest of the chunk is PLAIN */
        w->dict_off = true;      /* and of the column */
    }
    *encoding_ret = PQT_ENC_PLAIN;
    w->used_plain = true;
    if (n == 0) return PQT_OK;
    if (c->ptype == PQT_PT_BOOLEAN) return pqt_enc_plain_bool(out, w->vals.data, (size_t)n);
    if (offs) return pqt_enc_plain_bytes(out, offs, w->vals.data, (size_t)n);
    return pqt_enc_plain_fixed(out, w->vals.data, (size_t)n, w->vals.len / (size_t)n);
}

static pqt_status bloom_insert(pqt_wchunk *w)
{
    const pqt_wcol *c = w->col;
    int64_t n = w->page_nnonnull;
    if (!w->bloom) {
        int64_t ndv = w->opts->bloom_ndv > 0 ? w->opts->bloom_ndv
                      : w->opts->rg_rows < 1000000 ? w->opts->rg_rows : 1000000;
        PQT_TRY(pqt_bloom_builder_new(&w->bloom, (uint64_t)ndv, w->opts->bloom_fpp));
    }
    if (c->ptype == PQT_PT_BYTE_ARRAY) {
        const int64_t *o = (const int64_t *)w->offs.data;
        for (int64_t i = 0; i < n; i++)
            pqt_bloom_builder_insert(w->bloom,
                                     pqt_bloom_hash(w->vals.data + o[i], (size_t)(o[i + 1] - o[i])));
    } else {
        size_t en = w->vals.len / (size_t)n;
        for (int64_t i = 0; i < n; i++)
            pqt_bloom_builder_insert(w->bloom, pqt_bloom_hash(w->vals.data + (size_t)i * en, en));
    }
    return PQT_OK;
}

/* Keep the dictionary page just emitted (header h, levels body[0..lv_n), its n indices in
 * w->idx), so that a later fallback can write it again PLAIN. */
static pqt_status keep_page(pqt_wchunk *w, const pqt_page_header *h, const uint8_t *body,
                            size_t lv_n, int64_t n)
{
    if (w->nkept == w->kcap) {
        int cap = w->kcap ? w->kcap * 2 : 16;
        pqt_wkept *k = pqt_realloc(w->kept, (size_t)cap * sizeof *k);
        if (!k) return oom(w);
        w->kept = k;
        w->kcap = cap;
    }
    pqt_wkept *k = &w->kept[w->nkept];
    k->h = *h;
    k->lv_off = w->kept_lv.len;
    k->lv_n = lv_n;
    k->idx_off = w->kept_idx.len / sizeof(uint32_t);
    k->n = n;
    if (lv_n) PQT_TRY(pqt_buf_append(&w->kept_lv, body, lv_n));
    if (n > 0) PQT_TRY(pqt_buf_append(&w->kept_idx, w->idx, (size_t)n * sizeof(uint32_t)));
    w->nkept++;
    return PQT_OK;
}

/* PLAIN bytes of the n entries idx[] of the dictionary, appended to out. */
static pqt_status plain_from_dict(const pqt_dict_builder *d, const uint32_t *idx, int64_t n,
                                  pqt_buf *out)
{
    const uint8_t *ent;
    const int64_t *eoff;
    pqt_dict_builder_entries(d, &ent, &eoff);
    size_t width = pqt_dict_builder_value_nbytes(d);
    if (width) {
        PQT_TRY(pqt_buf_reserve_more(out, (size_t)n * width));
        uint8_t *o = out->data + out->len;
        if (width == 8)
            for (int64_t i = 0; i < n; i++) memcpy(o + i * 8, ent + (size_t)idx[i] * 8, 8);
        else if (width == 4)
            for (int64_t i = 0; i < n; i++) memcpy(o + i * 4, ent + (size_t)idx[i] * 4, 4);
        else
            for (int64_t i = 0; i < n; i++) memcpy(o + (size_t)i * width, ent + (size_t)idx[i] * width, width);
        out->len += (size_t)n * width;
        return PQT_OK;
    }
    size_t total = 0;
    for (int64_t i = 0; i < n; i++) total += 4 + (size_t)(eoff[idx[i] + 1] - eoff[idx[i]]);
    PQT_TRY(pqt_buf_reserve_more(out, total));
    uint8_t *o = out->data + out->len;
    for (int64_t i = 0; i < n; i++) {
        uint32_t len = (uint32_t)(eoff[idx[i] + 1] - eoff[idx[i]]);
        pqt_store_le32(o, len);
        if (len) memcpy(o + 4, ent + eoff[idx[i]], len);
        o += 4 + len;
    }
    out->len += total;
    return PQT_OK;
}

/* The dictionary gave up: write the chunk's index pages again PLAIN (levels as they were,
 * values from the dictionary's entries), so the chunk holds no dictionary at all. */
static pqt_status redo_plain(pqt_wchunk *w)
{
    const pqt_write_opts *o = w->opts;
    w->pages.len = 0;
    w->uncompressed_nbytes = 0;
    for (int k = 0; k < w->nkept; k++) {
        const pqt_wkept *p = &w->kept[k];
        pqt_page_header h = p->h;
        h.encoding = PQT_ENC_PLAIN;
        pqt_buf *b = &w->redo;
        b->len = 0;
        if (p->lv_n) PQT_TRY(pqt_buf_append(b, w->kept_lv.data + p->lv_off, p->lv_n));
        PQT_TRY(plain_from_dict(w->dict, (const uint32_t *)w->kept_idx.data + p->idx_off, p->n, b));
        size_t at = w->pages.len;
        if (h.type == PQT_PAGE_DATA_V2) {
            PQT_TRY(compress_page(w, b->data + p->lv_n, b->len - p->lv_n));
            size_t unc = b->len;
            b->len = p->lv_n;
            PQT_TRY(pqt_buf_append(b, w->comp.data, w->comp.len));
            PQT_TRY(emit_page(w, &w->pages, &h, b->data, b->len, unc));
        } else {
            PQT_TRY(compress_page(w, b->data, b->len));
            PQT_TRY(emit_page(w, &w->pages, &h, w->comp.data, w->comp.len, b->len));
        }
        if (o->page_index && k < w->npages) {
            w->pidx[k].offset = (int64_t)at;
            w->pidx[k].nbytes = (int32_t)(w->pages.len - at);
        }
    }
    w->nkept = 0;
    w->kept_lv.len = w->kept_idx.len = 0;
    w->used_dict_enc = false;
    pqt_dict_builder_reset(w->dict); /* no dictionary page */
    return PQT_OK;
}

/* A column written PLAIN for good needs its dictionary no more: its table and values (up to
 * a page of distinct values, megabytes per column) and the pages kept for a fallback go back
 * now, for the next column to use, instead of staying with this one to the end. */
static void drop_dictionary(pqt_wchunk *w)
{
    pqt_dict_builder_free(w->dict);
    w->dict = NULL;
    pqt_buf_free(&w->kept_lv);
    pqt_buf_free(&w->kept_idx);
    pqt_buf_free(&w->redo);
    pqt_mem_free(w->kept);
    w->kept = NULL;
    w->nkept = w->kcap = 0;
    pqt_mem_free(w->idx);
    w->idx = NULL;
    w->idx_cap = 0;
}

static pqt_status flush_page(pqt_wchunk *w)
{
    const pqt_wcol *c = w->col;
    const pqt_write_opts *o = w->opts;
    if (w->page_rows == 0) return PQT_OK;
    int64_t nv = w->page_nvals, nn = w->page_nnonnull;
    if (nv > INT32_MAX) return pqt_err(PQT_LIMIT, "column '%s': a page of %lld values", c->name, (long long)nv);
    pqt_wstats ps = {0};
    pqt_status st = PQT_OK;
    const int64_t *offs = nn > 0 && c->ptype == PQT_PT_BYTE_ARRAY ? (const int64_t *)w->offs.data : NULL;
    if (o->statistics || o->page_index)
        st = pqt_wstats_add(&ps, c, w->vals.data, offs, w->vals.data, nn);
    ps.null_count = nv - nn;
    if (st == PQT_OK && c->bloom && nn > 0) st = bloom_insert(w);
    int enc = PQT_ENC_PLAIN;
    pqt_buf *body = &w->scratch;
    body->len = 0;
    pqt_page_header h;
    memset(&h, 0, sizeof h);
    h.num_values = (int32_t)nv;
    size_t at = w->pages.len;
    /* while the dictionary holds, pages are kept to be redone PLAIN if it gives up */
    const bool dict_mode = w->dict && !w->dict_fallback;
    if (st == PQT_OK && o->page_version == 2) {
        h.type = PQT_PAGE_DATA_V2;
        h.has_data_v2_header = true;
        h.num_nulls = (int32_t)(nv - nn);
        h.num_rows = (int32_t)w->page_rows;
        st = put_levels(body, &w->rep, nv, c->max_rep, false);
        size_t rep_n = body->len;
        if (st == PQT_OK) st = put_levels(body, &w->def, nv, c->max_def, false);
        size_t lv_n = body->len;
        h.rep_levels_nbytes = (int32_t)rep_n;
        h.def_levels_nbytes = (int32_t)(lv_n - rep_n);
        if (st == PQT_OK) st = encode_values(w, body, &enc);
        h.encoding = enc;
        h.is_compressed = o->codec != PQT_WRITE_UNCOMPRESSED;
        if (st == PQT_OK && dict_mode && w->dict_fallback && w->nkept > 0) st = redo_plain(w);
        if (st == PQT_OK && dict_mode && !w->dict_fallback)
            st = keep_page(w, &h, body->data, lv_n, nn);
        at = w->pages.len;
        if (st == PQT_OK) st = compress_page(w, body->data + lv_n, body->len - lv_n);
        if (st == PQT_OK) {
            /* levels stay uncompressed in v2: the body is levels + compressed values */
            size_t unc = body->len;
            body->len = lv_n;
            st = pqt_buf_append(body, w->comp.data, w->comp.len);
            if (st == PQT_OK) st = emit_page(w, &w->pages, &h, body->data, body->len, unc);
        }
    } else if (st == PQT_OK) {
        h.type = PQT_PAGE_DATA;
        h.has_data_header = true;
        h.def_level_encoding = PQT_ENC_RLE;
        h.rep_level_encoding = PQT_ENC_RLE;
        st = put_levels(body, &w->rep, nv, c->max_rep, true);
        if (st == PQT_OK) st = put_levels(body, &w->def, nv, c->max_def, true);
        size_t lv_n = body->len;
        if (st == PQT_OK) st = encode_values(w, body, &enc);
        h.encoding = enc;
        if (st == PQT_OK && dict_mode && w->dict_fallback && w->nkept > 0) st = redo_plain(w);
        if (st == PQT_OK && dict_mode && !w->dict_fallback)
            st = keep_page(w, &h, body->data, lv_n, nn);
        at = w->pages.len;
        if (st == PQT_OK) st = compress_page(w, body->data, body->len);
        if (st == PQT_OK) st = emit_page(w, &w->pages, &h, w->comp.data, w->comp.len, body->len);
    }
    if (st == PQT_OK && o->page_index)
        st = page_index_add(w, (int64_t)at, (int32_t)(w->pages.len - at), &ps);
    if (st == PQT_OK && nn > 0 && !ps.has_minmax) w->stats_ok = false;
    if (st == PQT_OK && o->statistics) st = pqt_wstats_merge(&w->stats, c, &ps);
    pqt_wstats_free(&ps);
    if (st != PQT_OK) return st;
    w->ndata_pages++;
    w->nvals += nv;
    w->page_first_row += w->page_rows;
    w->page_nvals = w->page_nnonnull = w->page_rows = 0;
    w->def.len = w->rep.len = w->vals.len = w->offs.len = 0;
    if (w->dict_off && w->dict) drop_dictionary(w);
    return PQT_OK;
}

pqt_status pqt_wchunk_add(pqt_wchunk *w, const pqt_colbuf *b, int64_t r0, int64_t n,
                          int64_t row_no)
{
    const pqt_wcol *c = w->col;
    const pqt_write_opts *o = w->opts;
    if (!w->dict && !w->dict_off && o->dictionary && c->ptype != PQT_PT_BOOLEAN)
        PQT_TRY(pqt_dict_builder_new(&w->dict, c->ptype, c->type_length, (size_t)o->dict_nbytes));
    int64_t done = 0;
    while (done < n) {
        int64_t pending = (int64_t)(w->vals.len + w->def.len + w->rep.len);
        int64_t bpr = w->page_rows > 0 ? pending / w->page_rows + 1
                                       : c->nbytes_per_value * (c->is_list ? 4 : 1) + 2;
        int64_t room = o->page_nbytes - pending;
        int64_t batch = room / bpr;
        if (batch < 1) batch = 1;
        if (batch > 65536) batch = 65536;
        if (batch > n - done) batch = n - done;
        pqt_status st = c->is_list ? shred_list(w, b, r0 + done, batch, row_no + done)
                                   : shred_flat(w, b, r0 + done, batch, row_no + done);
        if (st != PQT_OK) return st == PQT_NOMEM ? oom(w) : st;
        w->page_rows += batch;
        w->nrows += batch;
        done += batch;
        if ((int64_t)(w->vals.len + w->def.len + w->rep.len) >= o->page_nbytes ||
            w->page_nvals >= (INT32_MAX / 2))
            PQT_TRY(flush_page(w));
    }
    return PQT_OK;
}

pqt_status pqt_wchunk_finish(pqt_wchunk *w)
{
    if (w->finished) return PQT_OK; /* closed by the step that ended the row group */
    PQT_TRY(flush_page(w));
    w->dict_page.len = 0;
    if (!w->dict || pqt_dict_builder_count(w->dict) == 0) {
        w->finished = true;
        return PQT_OK;
    }
    pqt_buf *body = &w->scratch;
    body->len = 0;
    PQT_TRY(pqt_dict_builder_write_plain(w->dict, body));
    PQT_TRY(compress_page(w, body->data, body->len));
    pqt_page_header h;
    memset(&h, 0, sizeof h);
    h.type = PQT_PAGE_DICTIONARY;
    h.has_dict_header = true;
    h.num_values = (int32_t)pqt_dict_builder_count(w->dict);
    h.encoding = PQT_ENC_PLAIN;
    PQT_TRY(emit_page(w, &w->dict_page, &h, w->comp.data, w->comp.len, body->len));
    w->finished = true;
    return PQT_OK;
}
