/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta_decode.c - FileMetaData and everything under it, from Thrift to pqt_file_meta
 * (layer: format).
 *
 * Implements the footer half of parquet.thrift: FileMetaData, SchemaElement, LogicalType,
 * RowGroup, ColumnChunk, ColumnMetaData, Statistics, KeyValue, SortingColumn,
 * PageEncodingStats and ColumnOrder. Field ids follow parquet.thrift exactly. Unknown fields
 * (newer spec versions: SizeStatistics, GeospatialStatistics, ...) are skipped; a known field
 * with the wrong wire type, or a required field that is absent, is PQT_CORRUPT naming the
 * struct and field. Enum values are kept raw so a later layer can name an unknown value.
 * Every array and string lands in the caller's arena; counts were already bounded by the
 * bytes left (thrift.c), so a hostile footer cannot ask for more memory than its own size.
 * SchemaElement/LogicalType live in meta_decode_schema.c; page headers, page index and bloom
 * headers in meta_decode_page.c.
 */
#include <string.h>

#include "format/meta.h"
#include "format/meta_decode_int.h"
#include "format/thrift.h"
#include "util/error.h"

static pqt_status field_cstr(pqt_thrift_reader *r, pqt_arena *a, const pqt_thrift_field *f,
                             const char *sname, const char *fname, const char **out)
{
    const uint8_t *p = NULL;
    PQT_TRY(pqt_meta_field_str(r, a, f, sname, fname, &p, NULL));
    *out = (const char *)p;
    return PQT_OK;
}

/* ---- KeyValue, Statistics, PageEncodingStats ---- */

static pqt_status dec_kv_list(pqt_thrift_reader *r, pqt_arena *a, const pqt_thrift_field *lf,
                              const char *owner, pqt_kv **out, int *n_ret)
{
    static const uint8_t T[] = {0, PQT_TT_BINARY, PQT_TT_BINARY};
    static const char S[] = "KeyValue";
    uint8_t et;
    uint32_t n;
    PQT_TRY(pqt_thrift_field_list(r, lf, owner, "key_value_metadata", PQT_TT_STRUCT, &et, &n));
    PQT_TRY(pqt_meta_arena_array(r, a, n, sizeof(pqt_kv), (void **)out));
    for (uint32_t i = 0; i < n; i++) {
        pqt_kv *kv = &(*out)[i];
        const uint8_t *at = r->p, *p;
        int16_t last;
        pqt_thrift_field f;
        bool has_key = false;
        PQT_TRY(pqt_thrift_struct_begin(r, &last));
        for (;;) {
            PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
            if (f.type == PQT_TT_STOP) break;
            if (f.id == 1) {
                PQT_TRY(pqt_meta_field_str(r, a, &f, S, "key", &p, &kv->key_len));
                kv->key = (const char *)p;
                has_key = true;
            } else if (f.id == 2) {
                PQT_TRY(pqt_meta_field_str(r, a, &f, S, "value", &p, &kv->value_len));
                kv->value = (const char *)p;
            } else {
                PQT_TRY(pqt_thrift_skip(r, f.type));
            }
        }
        pqt_thrift_struct_end(r);
        if (!has_key) return pqt_thrift_missing(r, at, S, "key", 1);
    }
    *n_ret = (int)n;
    return PQT_OK;
}

static pqt_status dec_stats(pqt_thrift_reader *r, pqt_arena *a, pqt_stats *s)
{
    static const uint8_t T[] = {0,           PQT_TT_BINARY, PQT_TT_BINARY, PQT_TT_I32,
                                PQT_TT_I32,  PQT_TT_BINARY, PQT_TT_BINARY, PQT_TT_TRUE,
                                PQT_TT_TRUE, PQT_TT_I32};
    static const char S[] = "Statistics";
    int16_t last;
    pqt_thrift_field f;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(pqt_meta_field_str(r, a, &f, S, "max", &s->max, &s->max_len));
            s->has_max = true;
            break;
        case 2:
            PQT_TRY(pqt_meta_field_str(r, a, &f, S, "min", &s->min, &s->min_len));
            s->has_min = true;
            break;
        case 3:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "null_count", &s->null_count));
            s->has_null_count = true;
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "distinct_count", &s->distinct_count));
            s->has_distinct_count = true;
            break;
        case 5:
            PQT_TRY(pqt_meta_field_str(r, a, &f, S, "max_value", &s->max_value, &s->max_value_len));
            s->has_max_value = true;
            break;
        case 6:
            PQT_TRY(pqt_meta_field_str(r, a, &f, S, "min_value", &s->min_value, &s->min_value_len));
            s->has_min_value = true;
            break;
        case 7:
            PQT_TRY(pqt_thrift_field_bool(r, &f, S, "is_max_value_exact", &s->is_max_value_exact));
            s->has_is_max_value_exact = true;
            break;
        case 8:
            PQT_TRY(pqt_thrift_field_bool(r, &f, S, "is_min_value_exact", &s->is_min_value_exact));
            s->has_is_min_value_exact = true;
            break;
        case 9:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "nan_count", &s->nan_count));
            s->has_nan_count = true;
            break;
        default:
            PQT_TRY(pqt_thrift_skip(r, f.type));
        }
    }
    pqt_thrift_struct_end(r);
    return PQT_OK;
}

/* PageEncodingStats {page_type, encoding, count} and SortingColumn {column_idx, descending,
 * nulls_first}: three required fields each, so one walker fills either. */
static pqt_status dec_triple(pqt_thrift_reader *r, bool sorting, void *out)
{
    static const uint8_t TS[] = {0, PQT_TT_I32, PQT_TT_TRUE, PQT_TT_TRUE},
                         TE[] = {0, PQT_TT_I32, PQT_TT_I32, PQT_TT_I32};
    const char *S = sorting ? "SortingColumn" : "PageEncodingStats";
    static const char *const names[2][3] = {{"page_type", "encoding", "count"},
                                            {"column_idx", "descending", "nulls_first"}};
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    int32_t v;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, sorting ? TS : TE, 4));
        if (f.type == PQT_TT_STOP) break;
        if (f.id < 1 || f.id > 3) {
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        const char *fname = names[sorting][f.id - 1];
        if (sorting) {
            pqt_sorting_column *sc = out;
            if (f.id == 1) PQT_TRY(pqt_thrift_field_i32(r, &f, S, fname, &sc->column_idx));
            if (f.id == 2) PQT_TRY(pqt_thrift_field_bool(r, &f, S, fname, &sc->descending));
            if (f.id == 3) PQT_TRY(pqt_thrift_field_bool(r, &f, S, fname, &sc->nulls_first));
        } else {
            pqt_page_enc_stats *es = out;
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, fname, &v));
            if (f.id == 1) es->page_type = v;
            if (f.id == 2) es->encoding = v;
            if (f.id == 3) es->count = v;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    for (int id = 1; id <= 3; id++)
        if (!SEEN(id)) return pqt_thrift_missing(r, at, S, names[sorting][id - 1], id);
    return PQT_OK;
}

/* ---- ColumnMetaData, ColumnChunk ---- */

static pqt_status dec_column_meta(pqt_thrift_reader *r, pqt_arena *a, pqt_column_meta *m)
{
    static const uint8_t T[] = {0,          PQT_TT_I32, PQT_TT_LIST,   PQT_TT_LIST, PQT_TT_I32,
                                PQT_TT_I32, PQT_TT_I32, PQT_TT_I32,    PQT_TT_LIST, PQT_TT_I32,
                                PQT_TT_I32, PQT_TT_I32, PQT_TT_STRUCT, PQT_TT_LIST, PQT_TT_I32,
                                PQT_TT_I32};
    static const char S[] = "ColumnMetaData";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0, n;
    uint8_t et;
    int32_t v;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "type", &v));
            m->type = v;
            break;
        case 2:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "encodings", PQT_TT_I32, &et, &n));
            PQT_TRY(pqt_meta_arena_array(r, a, n, sizeof(int32_t), (void **)&m->encodings));
            for (uint32_t i = 0; i < n; i++) {
                int64_t x;
                PQT_TRY(pqt_thrift_read_int(r, et, &x));
                if (x < INT32_MIN || x > INT32_MAX)
                    return pqt_thrift_corrupt_at(r, r->p, "%s.encodings value %lld", S,
                                                 (long long)x);
                m->encodings[i] = (int32_t)x;
            }
            m->n_encodings = (int)n;
            break;
        case 3:
            /* Checked but not kept: the schema names every leaf already, and a copy per
             * chunk is most of a wide footer's memory. */
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "path_in_schema", PQT_TT_BINARY, &et, &n));
            for (uint32_t i = 0; i < n; i++) {
                const uint8_t *data = NULL;
                uint32_t len;
                PQT_TRY(pqt_thrift_read_binary(r, &data, &len));
            }
            m->path_len = (int)n;
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "codec", &v));
            m->codec = v;
            break;
        case 5:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "num_values", &m->num_values));
            break;
        case 6:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "total_uncompressed_size",
                                         &m->total_uncompressed_size));
            break;
        case 7:
            PQT_TRY(
                pqt_thrift_field_i64(r, &f, S, "total_compressed_size", &m->total_compressed_size));
            break;
        case 8:
            PQT_TRY(dec_kv_list(r, a, &f, S, &m->kv, &m->nkv));
            break;
        case 9:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "data_page_offset", &m->data_page_offset));
            break;
        case 10:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "index_page_offset", &m->index_page_offset));
            m->has_index_page_offset = true;
            break;
        case 11:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "dictionary_page_offset",
                                         &m->dictionary_page_offset));
            m->has_dictionary_page_offset = true;
            break;
        case 12:
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, "statistics"));
            PQT_TRY(dec_stats(r, a, &m->stats));
            m->has_stats = true;
            break;
        case 13:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "encoding_stats", PQT_TT_STRUCT, &et, &n));
            PQT_TRY(pqt_meta_arena_array(r, a, n, sizeof(pqt_page_enc_stats),
                                         (void **)&m->encoding_stats));
            for (uint32_t i = 0; i < n; i++)
                PQT_TRY(dec_triple(r, false, &m->encoding_stats[i]));
            m->n_encoding_stats = (int)n;
            break;
        case 14:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "bloom_filter_offset", &m->bloom_filter_offset));
            m->has_bloom_filter_offset = true;
            break;
        case 15:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "bloom_filter_length", &m->bloom_filter_length));
            m->has_bloom_filter_length = true;
            break;
        default:
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    static const struct {
        int id;
        const char *name;
    } req[] = {{1, "type"},
               {2, "encodings"},
               {3, "path_in_schema"},
               {4, "codec"},
               {5, "num_values"},
               {6, "total_uncompressed_size"},
               {7, "total_compressed_size"},
               {9, "data_page_offset"}};
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
        if (!SEEN(req[i].id)) return pqt_thrift_missing(r, at, S, req[i].name, req[i].id);
    return PQT_OK;
}

static pqt_status dec_column_chunk(pqt_thrift_reader *r, pqt_arena *a, pqt_column_chunk *c)
{
    static const uint8_t T[] = {0,          PQT_TT_BINARY, PQT_TT_I32, PQT_TT_STRUCT,
                                PQT_TT_I32, PQT_TT_I32,    PQT_TT_I32, PQT_TT_I32};
    static const char S[] = "ColumnChunk";
    int16_t last;
    pqt_thrift_field f;
    bool has_oi_off = false, has_oi_len = false, has_ci_off = false, has_ci_len = false;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(field_cstr(r, a, &f, S, "file_path", &c->file_path));
            break;
        case 2:
            /* Required "= 0" in parquet.thrift, deprecated, and omitted by some writers: its
             * absence means the default, not corruption. */
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "file_offset", &c->file_offset));
            break;
        case 3:
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, "meta_data"));
            PQT_TRY(dec_column_meta(r, a, &c->meta));
            c->has_meta = true;
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "offset_index_offset", &c->offset_index_offset));
            has_oi_off = true;
            break;
        case 5:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "offset_index_length", &c->offset_index_length));
            has_oi_len = true;
            break;
        case 6:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "column_index_offset", &c->column_index_offset));
            has_ci_off = true;
            break;
        case 7:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "column_index_length", &c->column_index_length));
            has_ci_len = true;
            break;
        case 8: /* crypto_metadata */
        case 9: /* encrypted_column_metadata */
            c->encrypted = true;
            PQT_TRY(pqt_thrift_skip(r, f.type));
            break;
        default:
            PQT_TRY(pqt_thrift_skip(r, f.type));
        }
    }
    pqt_thrift_struct_end(r);
    /* An index is usable only with both its offset and its length. */
    c->has_offset_index = has_oi_off && has_oi_len;
    c->has_column_index = has_ci_off && has_ci_len;
    return PQT_OK;
}

/* ---- RowGroup, ColumnOrder, FileMetaData ---- */

static pqt_status dec_row_group(pqt_thrift_reader *r, pqt_arena *a, pqt_row_group *g)
{
    static const uint8_t T[] = {0,           PQT_TT_LIST, PQT_TT_I32, PQT_TT_I32,
                                PQT_TT_LIST, PQT_TT_I32,  PQT_TT_I32, PQT_TT_I32};
    static const char S[] = "RowGroup";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0, n;
    uint8_t et;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "columns", PQT_TT_STRUCT, &et, &n));
            PQT_TRY(pqt_meta_arena_array(r, a, n, sizeof(pqt_column_chunk), (void **)&g->columns));
            for (uint32_t i = 0; i < n; i++)
                PQT_TRY(dec_column_chunk(r, a, &g->columns[i]));
            g->ncolumns = (int)n;
            break;
        case 2:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "total_byte_size", &g->total_byte_size));
            break;
        case 3:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "num_rows", &g->num_rows));
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "sorting_columns", PQT_TT_STRUCT, &et, &n));
            PQT_TRY(
                pqt_meta_arena_array(r, a, n, sizeof(pqt_sorting_column), (void **)&g->sorting));
            for (uint32_t i = 0; i < n; i++)
                PQT_TRY(dec_triple(r, true, &g->sorting[i]));
            g->n_sorting = (int)n;
            break;
        case 5:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "file_offset", &g->file_offset));
            g->has_file_offset = true;
            break;
        case 6:
            PQT_TRY(
                pqt_thrift_field_i64(r, &f, S, "total_compressed_size", &g->total_compressed_size));
            g->has_total_compressed_size = true;
            break;
        case 7:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "ordinal", &g->ordinal));
            g->has_ordinal = true;
            break;
        default:
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, at, S, "columns", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, at, S, "total_byte_size", 2);
    if (!SEEN(3)) return pqt_thrift_missing(r, at, S, "num_rows", 3);
    return PQT_OK;
}

/* A union: the id of the member that is set (1 = TYPE_ORDER), 0 if none. */
static pqt_status dec_union_id(pqt_thrift_reader *r, int32_t *id)
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

static pqt_status dec_file(pqt_thrift_reader *r, pqt_arena *a, pqt_file_meta *m)
{
    static const uint8_t T[] = {0,           PQT_TT_I32,    PQT_TT_LIST, PQT_TT_I32,   PQT_TT_LIST,
                                PQT_TT_LIST, PQT_TT_BINARY, PQT_TT_LIST, PQT_TT_STRUCT};
    static const char S[] = "FileMetaData";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0, n;
    uint8_t et;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "version", &m->version));
            break;
        case 2:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "schema", PQT_TT_STRUCT, &et, &n));
            PQT_TRY(pqt_meta_arena_array(r, a, n, sizeof(pqt_schema_elem), (void **)&m->schema));
            for (uint32_t i = 0; i < n; i++)
                PQT_TRY(pqt_meta_decode_schema_elem(r, a, &m->schema[i]));
            m->nschema = (int)n;
            break;
        case 3:
            PQT_TRY(pqt_thrift_field_i64(r, &f, S, "num_rows", &m->num_rows));
            break;
        case 4:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "row_groups", PQT_TT_STRUCT, &et, &n));
            PQT_TRY(pqt_meta_arena_array(r, a, n, sizeof(pqt_row_group), (void **)&m->row_groups));
            for (uint32_t i = 0; i < n; i++)
                PQT_TRY(dec_row_group(r, a, &m->row_groups[i]));
            m->n_row_groups = (int)n;
            break;
        case 5:
            PQT_TRY(dec_kv_list(r, a, &f, S, &m->kv, &m->nkv));
            break;
        case 6:
            PQT_TRY(field_cstr(r, a, &f, S, "created_by", &m->created_by));
            break;
        case 7:
            PQT_TRY(pqt_thrift_field_list(r, &f, S, "column_orders", PQT_TT_STRUCT, &et, &n));
            PQT_TRY(pqt_meta_arena_array(r, a, n, sizeof(int32_t), (void **)&m->column_orders));
            for (uint32_t i = 0; i < n; i++)
                PQT_TRY(dec_union_id(r, &m->column_orders[i]));
            m->n_column_orders = (int)n;
            break;
        case 8: /* encryption_algorithm: a plaintext-footer encrypted file */
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, "encryption_algorithm"));
            PQT_TRY(pqt_thrift_skip(r, f.type));
            m->has_encryption_algorithm = true;
            break;
        default:
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, at, S, "version", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, at, S, "schema", 2);
    if (!SEEN(3)) return pqt_thrift_missing(r, at, S, "num_rows", 3);
    if (!SEEN(4)) return pqt_thrift_missing(r, at, S, "row_groups", 4);
    return PQT_OK;
}

pqt_status pqt_meta_decode_file(const uint8_t *buf, size_t n, int64_t base_offset, pqt_arena *arena,
                                pqt_file_meta *out)
{
    pqt_thrift_reader r;
    memset(out, 0, sizeof *out);
    pqt_thrift_init(&r, buf, n, base_offset, "footer");
    PQT_TRY(dec_file(&r, arena, out));
    /* Where each row group starts, so a range read finds its row groups by binary search
     * (counts are validated by the caller; saturation keeps this defined until then). */
    int64_t first = 0;
    for (int i = 0; i < out->n_row_groups; i++) {
        int64_t rows = out->row_groups[i].num_rows;
        out->row_groups[i].first_row = first;
        first = rows > 0 && first <= INT64_MAX - rows ? first + rows : rows > 0 ? INT64_MAX : first;
    }
    return PQT_OK;
}
