/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta_decode_page.c - PageHeader, ColumnIndex, OffsetIndex and BloomFilterHeader
 * (layer: format).
 *
 * Implements parquet.thrift's PageHeader with DataPageHeader, DataPageHeaderV2 and
 * DictionaryPageHeader (IndexPageHeader is skipped: only type and sizes matter), the page
 * index structs of PageIndex.md, and the BloomFilterHeader of BloomFilter.md. A page header
 * is decoded once per page on the scan path, so it uses no arena and skips the per-page
 * Statistics. Sizes and counts that later code turns into buffer lengths are rejected here
 * when negative, so the column layer only has to check them against its own bounds.
 */
#include <string.h>

#include "format/meta.h"
#include "format/meta_decode_int.h"
#include "format/thrift.h"
#include "util/error.h"

static pqt_status nonneg_i32(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                             const char *fname, int32_t *v)
{
    const uint8_t *at = r->p;
    PQT_TRY(pqt_thrift_field_i32(r, f, sname, fname, v));
    if (PQT_UNLIKELY(*v < 0))
        return pqt_thrift_corrupt_at(r, at, "%s.%s is negative (%d)", sname, fname, (int)*v);
    return PQT_OK;
}

/* ---- PageHeader ---- */

static pqt_status dec_data_v1(pqt_thrift_reader *r, pqt_page_header *h)
{
    static const uint8_t T[] = {0, PQT_TT_I32, PQT_TT_I32, PQT_TT_I32, PQT_TT_I32};
    static const char S[] = "DataPageHeader";
    static const char *const names[] = {"", "num_values", "encoding", "definition_level_encoding",
                                        "repetition_level_encoding"};
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    int32_t v;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(nonneg_i32(r, &f, S, names[1], &h->num_values));
            break;
        case 2:
        case 3:
        case 4:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, names[f.id], &v));
            if (f.id == 2) h->encoding = v;
            if (f.id == 3) h->def_level_encoding = v;
            if (f.id == 4) h->rep_level_encoding = v;
            break;
        default: /* 5: statistics, read from the page index or chunk instead */
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    for (int id = 1; id <= 4; id++)
        if (!SEEN(id)) return pqt_thrift_missing(r, at, S, names[id], id);
    return PQT_OK;
}

static pqt_status dec_data_v2(pqt_thrift_reader *r, pqt_page_header *h)
{
    static const uint8_t T[] = {0,          PQT_TT_I32, PQT_TT_I32, PQT_TT_I32,
                                PQT_TT_I32, PQT_TT_I32, PQT_TT_I32, PQT_TT_TRUE};
    static const char S[] = "DataPageHeaderV2";
    static const char *const names[] = {"",
                                        "num_values",
                                        "num_nulls",
                                        "num_rows",
                                        "encoding",
                                        "definition_levels_byte_length",
                                        "repetition_levels_byte_length"};
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    int32_t v;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(nonneg_i32(r, &f, S, names[1], &h->num_values));
            break;
        case 2:
            PQT_TRY(nonneg_i32(r, &f, S, names[2], &h->num_nulls));
            break;
        case 3:
            PQT_TRY(nonneg_i32(r, &f, S, names[3], &h->num_rows));
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, names[4], &v));
            h->encoding = v;
            break;
        case 5:
            PQT_TRY(nonneg_i32(r, &f, S, names[5], &h->def_levels_nbytes));
            break;
        case 6:
            PQT_TRY(nonneg_i32(r, &f, S, names[6], &h->rep_levels_nbytes));
            break;
        case 7:
            PQT_TRY(pqt_thrift_field_bool(r, &f, S, "is_compressed", &h->is_compressed));
            continue;
        default:
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    for (int id = 1; id <= 6; id++)
        if (!SEEN(id)) return pqt_thrift_missing(r, at, S, names[id], id);
    return PQT_OK;
}

static pqt_status dec_dict(pqt_thrift_reader *r, pqt_page_header *h)
{
    static const uint8_t T[] = {0, PQT_TT_I32, PQT_TT_I32, PQT_TT_TRUE};
    static const char S[] = "DictionaryPageHeader";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    int32_t v;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        if (f.id == 1) {
            PQT_TRY(nonneg_i32(r, &f, S, "num_values", &h->num_values));
        } else if (f.id == 2) {
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "encoding", &v));
            h->encoding = v;
        } else if (f.id == 3) {
            PQT_TRY(pqt_thrift_field_bool(r, &f, S, "is_sorted", &h->is_sorted));
        } else {
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, at, S, "num_values", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, at, S, "encoding", 2);
    return PQT_OK;
}

pqt_status pqt_meta_decode_page_header(const uint8_t *buf, size_t n, int64_t base_offset,
                                       pqt_page_header *out, size_t *header_nbytes_ret)
{
    static const uint8_t T[] = {0,
                                PQT_TT_I32,
                                PQT_TT_I32,
                                PQT_TT_I32,
                                PQT_TT_I32,
                                PQT_TT_STRUCT,
                                PQT_TT_STRUCT,
                                PQT_TT_STRUCT,
                                PQT_TT_STRUCT};
    static const char S[] = "PageHeader";
    pqt_thrift_reader rd, *r = &rd;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    int32_t v;
    memset(out, 0, sizeof *out);
    out->is_compressed = true; /* DataPageHeaderV2.is_compressed defaults to true */
    out->encoding = out->def_level_encoding = out->rep_level_encoding = -1;
    pqt_thrift_init(r, buf, n, base_offset, "page header");
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "type", &v));
            out->type = v;
            break;
        case 2:
            PQT_TRY(nonneg_i32(r, &f, S, "uncompressed_page_size", &out->uncompressed_size));
            break;
        case 3:
            PQT_TRY(nonneg_i32(r, &f, S, "compressed_page_size", &out->compressed_size));
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "crc", &v));
            out->crc = (uint32_t)v; /* CRC32 stored in an i32: keep the bits */
            out->has_crc = true;
            break;
        case 5:
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, "data_page_header"));
            PQT_TRY(dec_data_v1(r, out));
            out->has_data_header = true;
            break;
        case 7:
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, "dictionary_page_header"));
            PQT_TRY(dec_dict(r, out));
            out->has_dict_header = true;
            break;
        case 8:
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, "data_page_header_v2"));
            PQT_TRY(dec_data_v2(r, out));
            out->has_data_v2_header = true;
            break;
        default: /* 6: index_page_header (empty), and fields newer than this reader */
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, buf, S, "type", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, buf, S, "uncompressed_page_size", 2);
    if (!SEEN(3)) return pqt_thrift_missing(r, buf, S, "compressed_page_size", 3);
    /* The per-type sub-header is what makes the page decodable; its absence is corruption. */
    if (out->type == PQT_PAGE_DATA && !out->has_data_header)
        return pqt_thrift_missing(r, buf, "PageHeader (DATA_PAGE)", "data_page_header", 5);
    if (out->type == PQT_PAGE_DICTIONARY && !out->has_dict_header)
        return pqt_thrift_missing(r, buf, "PageHeader (DICTIONARY_PAGE)", "dictionary_page_header",
                                  7);
    if (out->type == PQT_PAGE_DATA_V2 && !out->has_data_v2_header)
        return pqt_thrift_missing(r, buf, "PageHeader (DATA_PAGE_V2)", "data_page_header_v2", 8);
    *header_nbytes_ret = (size_t)(r->p - buf);
    return PQT_OK;
}

/* ---- ColumnIndex, OffsetIndex ---- */

static pqt_status nomem(const pqt_thrift_reader *r)
{
    return pqt_err(PQT_NOMEM, "out of memory decoding the %s at byte %lld", r->what,
                   (long long)pqt_thrift_offset(r));
}

/* min_values / max_values: pointer and length arrays, each value an arena copy. */
static pqt_status dec_binary_list(pqt_thrift_reader *r, pqt_arena *a, const pqt_thrift_field *f,
                                  const char *fname, const uint8_t ***vals, uint32_t **lens,
                                  uint32_t *n)
{
    uint8_t et;
    PQT_TRY(pqt_thrift_field_list(r, f, "ColumnIndex", fname, PQT_TT_BINARY, &et, n));
    *vals = pqt_arena_alloc_array(a, *n ? *n : 1, sizeof **vals);
    *lens = pqt_arena_alloc_array(a, *n ? *n : 1, sizeof **lens);
    if (!*vals || !*lens) return nomem(r);
    for (uint32_t i = 0; i < *n; i++) {
        const uint8_t *data;
        PQT_TRY(pqt_thrift_read_binary(r, &data, &(*lens)[i]));
        uint8_t *p = pqt_arena_alloc(a, (size_t)(*lens)[i] + 1);
        if (!p) return nomem(r);
        memcpy(p, data, (*lens)[i]);
        (*vals)[i] = p;
    }
    return PQT_OK;
}

static pqt_status dec_column_index(pqt_thrift_reader *r, pqt_arena *a, pqt_column_index *ci)
{
    static const uint8_t T[] = {0,           PQT_TT_LIST, PQT_TT_LIST, PQT_TT_LIST, PQT_TT_I32,
                                PQT_TT_LIST, PQT_TT_LIST, PQT_TT_LIST, PQT_TT_LIST};
    static const char S[] = "ColumnIndex";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0, n_null = 0, n_min = 0, n_max = 0, n_cnt = 0, n_nan = 0;
    uint8_t et;
    int32_t v;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "null_pages", PQT_TT_TRUE, &et, &n_null));
            ci->null_pages = pqt_arena_alloc_array(a, n_null ? n_null : 1, sizeof(bool));
            if (!ci->null_pages) return nomem(r);
            for (uint32_t i = 0; i < n_null; i++)
                PQT_TRY(pqt_thrift_read_bool_elem(r, &ci->null_pages[i]));
            break;
        case 2:
            PQT_TRY(
                dec_binary_list(r, a, &f, "min_values", &ci->min_values, &ci->min_lens, &n_min));
            break;
        case 3:
            PQT_TRY(
                dec_binary_list(r, a, &f, "max_values", &ci->max_values, &ci->max_lens, &n_max));
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "boundary_order", &v));
            ci->boundary_order = v;
            break;
        case 5:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "null_counts", PQT_TT_I32, &et, &n_cnt));
            ci->null_counts = pqt_arena_alloc_array(a, n_cnt ? n_cnt : 1, sizeof(int64_t));
            if (!ci->null_counts) return nomem(r);
            for (uint32_t i = 0; i < n_cnt; i++)
                PQT_TRY(pqt_thrift_read_int(r, et, &ci->null_counts[i]));
            break;
        case 8:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "nan_counts", PQT_TT_I64, &et, &n_nan));
            ci->nan_counts = pqt_arena_alloc_array(a, n_nan ? n_nan : 1, sizeof(int64_t));
            if (!ci->nan_counts) return nomem(r);
            for (uint32_t i = 0; i < n_nan; i++)
                PQT_TRY(pqt_thrift_read_int(r, et, &ci->nan_counts[i]));
            break;
        default: /* level histograms: not used by the reader */
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, at, S, "null_pages", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, at, S, "min_values", 2);
    if (!SEEN(3)) return pqt_thrift_missing(r, at, S, "max_values", 3);
    if (!SEEN(4)) return pqt_thrift_missing(r, at, S, "boundary_order", 4);
    /* Pruning indexes these arrays by page: they must agree on the page count. */
    if (n_min != n_null || n_max != n_null || (SEEN(5) && n_cnt != n_null) ||
        (SEEN(8) && n_nan != n_null))
        return pqt_thrift_corrupt_at(r, at,
                                     "ColumnIndex lists disagree on the page count: null_pages "
                                     "%u, min_values %u, max_values %u, null_counts %u, "
                                     "nan_counts %u",
                                     n_null, n_min, n_max, n_cnt, n_nan);
    ci->npages = (int)n_null;
    return PQT_OK;
}

pqt_status pqt_meta_decode_column_index(const uint8_t *buf, size_t n, int64_t base_offset,
                                        pqt_arena *arena, pqt_column_index *out)
{
    pqt_thrift_reader r;
    memset(out, 0, sizeof *out);
    pqt_thrift_init(&r, buf, n, base_offset, "column index");
    return dec_column_index(&r, arena, out);
}

static pqt_status dec_page_location(pqt_thrift_reader *r, pqt_page_location *loc)
{
    static const uint8_t T[] = {0, PQT_TT_I32, PQT_TT_I32, PQT_TT_I32};
    static const char S[] = "PageLocation";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        if (f.id == 1) {
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "offset", &loc->offset));
        } else if (f.id == 2) {
            PQT_TRY(nonneg_i32(r, &f, S, "compressed_page_size", &loc->compressed_page_size));
        } else if (f.id == 3) {
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "first_row_index", &loc->first_row_index));
        } else {
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, at, S, "offset", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, at, S, "compressed_page_size", 2);
    if (!SEEN(3)) return pqt_thrift_missing(r, at, S, "first_row_index", 3);
    return PQT_OK;
}

pqt_status pqt_meta_decode_offset_index(const uint8_t *buf, size_t n, int64_t base_offset,
                                        pqt_arena *arena, pqt_offset_index *out)
{
    static const uint8_t T[] = {0, PQT_TT_LIST};
    pqt_thrift_reader rd, *r = &rd;
    int16_t last;
    pqt_thrift_field f;
    bool seen_pages = false;
    memset(out, 0, sizeof *out);
    pqt_thrift_init(r, buf, n, base_offset, "offset index");
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        if (f.id != 1) { /* 2: unencoded_byte_array_data_bytes */
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        uint8_t et;
        uint32_t np;
        PQT_TRY(
            pqt_thrift_field_list(r, &f, "OffsetIndex", "page_locations", PQT_TT_STRUCT, &et, &np));
        out->pages = pqt_arena_alloc_array(arena, np ? np : 1, sizeof(pqt_page_location));
        if (!out->pages) return nomem(r);
        for (uint32_t i = 0; i < np; i++)
            PQT_TRY(dec_page_location(r, &out->pages[i]));
        out->npages = (int)np;
        seen_pages = true;
    }
    pqt_thrift_struct_end(r);
    if (!seen_pages) return pqt_thrift_missing(r, buf, "OffsetIndex", "page_locations", 1);
    return PQT_OK;
}

/* ---- BloomFilterHeader ---- */

/* The algorithm/hash/compression unions: the id of the member that is set. */
static pqt_status dec_union_id(pqt_thrift_reader *r, int *id)
{
    int16_t last;
    pqt_thrift_field f;
    *id = 0;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_read_field(r, &last, &f));
        if (f.type == PQT_TT_STOP) break;
        *id = f.id;
        PQT_TRY(pqt_thrift_skip(r, f.type));
    }
    pqt_thrift_struct_end(r);
    return PQT_OK;
}

pqt_status pqt_meta_decode_bloom_header(const uint8_t *buf, size_t n, int64_t base_offset,
                                        pqt_bloom_header *out, size_t *header_nbytes_ret)
{
    static const uint8_t T[] = {0, PQT_TT_I32, PQT_TT_STRUCT, PQT_TT_STRUCT, PQT_TT_STRUCT};
    static const char S[] = "BloomFilterHeader";
    static const char *const names[] = {"", "numBytes", "algorithm", "hash", "compression"};
    pqt_thrift_reader rd, *r = &rd;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    memset(out, 0, sizeof *out);
    pqt_thrift_init(r, buf, n, base_offset, "bloom filter header");
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        if (f.id == 1) {
            PQT_TRY(nonneg_i32(r, &f, S, names[1], &out->num_bytes));
        } else if (f.id >= 2 && f.id <= 4) {
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, names[f.id]));
            PQT_TRY(dec_union_id(r, f.id == 2   ? &out->algorithm_id
                                    : f.id == 3 ? &out->hash_id
                                                : &out->compression_id));
        } else {
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    for (int id = 1; id <= 4; id++)
        if (!SEEN(id)) return pqt_thrift_missing(r, buf, S, names[id], id);
    *header_nbytes_ret = (size_t)(r->p - buf);
    return PQT_OK;
}
