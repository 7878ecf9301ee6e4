/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta_encode.c - FileMetaData, PageHeader, ColumnIndex, OffsetIndex and BloomFilterHeader
 * to Thrift compact bytes (layer: format).
 *
 * The encoding half of meta_decode*.c, field ids exactly as parquet.thrift. Each struct is
 * written by one static function over a pqt_thrift_writer whose error latch is checked once
 * at the end; validation failures latch through misuse(). Integer fields use the wire type
 * parquet.thrift declares (i16 RowGroup.ordinal, i8 IntType.bitWidth), which strict readers
 * (Thrift-generated code) require.
 */
#include "format/meta_encode.h"

#include <string.h>

#include "format/thrift_write.h"
#include "util/error.h"

/* Latch a PQT_MISUSE naming what is missing (the first failure wins). */
static void misuse(pqt_thrift_writer *w, const char *what, const char *detail)
{
    if (w->st == PQT_OK) w->st = pqt_err(PQT_MISUSE, "cannot encode %s: %s", what, detail);
}

/* Finish: the latch's verdict, and on failure the buffer back to where it started. */
static pqt_status finish(pqt_thrift_writer *w, size_t start)
{
    pqt_status st = pqt_thrift_write_status(w);
    if (st != PQT_OK) w->out->len = start;
    return st;
}

static size_t len_or_strlen(const char *s, uint32_t len)
{
    return len || !s ? len : strlen(s);
}

/* ---- Statistics, KeyValue ---- */

static void enc_stats(pqt_thrift_writer *w, const pqt_stats *s)
{
    pqt_thrift_write_struct_begin(w);
    if (s->has_max) pqt_thrift_write_field_binary(w, 1, s->max, s->max_len);
    if (s->has_min) pqt_thrift_write_field_binary(w, 2, s->min, s->min_len);
    if (s->has_null_count) pqt_thrift_write_field_i64(w, 3, s->null_count);
    if (s->has_distinct_count) pqt_thrift_write_field_i64(w, 4, s->distinct_count);
    if (s->has_max_value) pqt_thrift_write_field_binary(w, 5, s->max_value, s->max_value_len);
    if (s->has_min_value) pqt_thrift_write_field_binary(w, 6, s->min_value, s->min_value_len);
    if (s->has_is_max_value_exact) pqt_thrift_write_field_bool(w, 7, s->is_max_value_exact);
    if (s->has_is_min_value_exact) pqt_thrift_write_field_bool(w, 8, s->is_min_value_exact);
    if (s->has_nan_count) pqt_thrift_write_field_i64(w, 9, s->nan_count);
    pqt_thrift_write_struct_end(w);
}

static void enc_kv_list(pqt_thrift_writer *w, int16_t id, const pqt_kv *kv, int n)
{
    pqt_thrift_write_field_list_begin(w, id, PQT_TT_STRUCT, (size_t)n);
    for (int i = 0; i < n; i++) {
        if (!kv[i].key) {
            misuse(w, "KeyValue", "key is NULL");
            return;
        }
        pqt_thrift_write_struct_begin(w);
        pqt_thrift_write_field_binary(w, 1, kv[i].key, len_or_strlen(kv[i].key, kv[i].key_len));
        if (kv[i].value)
            pqt_thrift_write_field_binary(w, 2, kv[i].value,
                                          len_or_strlen(kv[i].value, kv[i].value_len));
        pqt_thrift_write_struct_end(w);
    }
}

/* ---- SchemaElement, LogicalType ---- */

static void enc_time(pqt_thrift_writer *w, const pqt_schema_elem *e)
{
    const pqt_logical_type *lt = &e->logical;
    if (lt->unit < 0 || lt->unit > 2) {
        misuse(w, e->name,
               lt->id == PQT_LT_TIME ? "TIME logical type without a unit"
                                     : "TIMESTAMP logical type without a unit");
        return;
    }
    pqt_thrift_write_field_bool(w, 1, lt->utc);
    pqt_thrift_write_field_struct_begin(w, 2); /* TimeUnit union */
    pqt_thrift_write_field_empty_struct(w,
                                        (int16_t)(lt->unit + 1)); /* MILLIS 1, MICROS 2, NANOS 3 */
    pqt_thrift_write_struct_end(w);
}

static void enc_logical(pqt_thrift_writer *w, const pqt_schema_elem *e)
{
    const pqt_logical_type *lt = &e->logical;
    if (lt->id <= 0 || lt->id > INT16_MAX) {
        misuse(w, e->name, "logical type id out of range");
        return;
    }
    pqt_thrift_write_field_struct_begin(w, 10);
    pqt_thrift_write_field_struct_begin(w, (int16_t)lt->id);
    switch (lt->id) {
    case PQT_LT_DECIMAL:
        pqt_thrift_write_field_i32(w, 1, lt->scale);
        pqt_thrift_write_field_i32(w, 2, lt->precision);
        break;
    case PQT_LT_TIME:
    case PQT_LT_TIMESTAMP:
        enc_time(w, e);
        break;
    case PQT_LT_INTEGER:
        if (lt->bit_width != 8 && lt->bit_width != 16 && lt->bit_width != 32 && lt->bit_width != 64)
            misuse(w, e->name, "INTEGER logical type bit width is not 8, 16, 32 or 64");
        pqt_thrift_write_field_i8(w, 1, (int8_t)lt->bit_width);
        pqt_thrift_write_field_bool(w, 2, lt->is_signed);
        break;
    default: /* marker structs (STRING, LIST, UUID, ...) and members newer than this file */
        break;
    }
    pqt_thrift_write_struct_end(w);
    pqt_thrift_write_struct_end(w);
}

static void enc_schema_elem(pqt_thrift_writer *w, const pqt_schema_elem *e)
{
    if (!e->name) {
        misuse(w, "SchemaElement", "name is NULL");
        return;
    }
    pqt_thrift_write_struct_begin(w);
    if (e->type >= 0) pqt_thrift_write_field_i32(w, 1, e->type);
    if (e->type == PQT_PT_FIXED_LEN_BYTE_ARRAY || e->type_length > 0)
        pqt_thrift_write_field_i32(w, 2, e->type_length);
    if (e->repetition >= 0) pqt_thrift_write_field_i32(w, 3, e->repetition);
    pqt_thrift_write_field_binary(w, 4, e->name, strlen(e->name));
    if (e->type < 0) pqt_thrift_write_field_i32(w, 5, e->num_children);
    if (e->converted_type >= 0) pqt_thrift_write_field_i32(w, 6, e->converted_type);
    if (e->has_scale) pqt_thrift_write_field_i32(w, 7, e->scale);
    if (e->has_precision) pqt_thrift_write_field_i32(w, 8, e->precision);
    if (e->has_field_id) pqt_thrift_write_field_i32(w, 9, e->field_id);
    if (e->logical.id != PQT_LT_NONE) enc_logical(w, e);
    pqt_thrift_write_struct_end(w);
}

/* ---- ColumnMetaData, ColumnChunk, RowGroup ---- */

static void enc_column_meta(pqt_thrift_writer *w, const pqt_column_meta *m)
{
    if (m->path_len > 0 && !m->path_in_schema) {
        misuse(w, "ColumnMetaData", "path_in_schema is NULL");
        return;
    }
    pqt_thrift_write_struct_begin(w);
    pqt_thrift_write_field_i32(w, 1, m->type);
    pqt_thrift_write_field_list_begin(w, 2, PQT_TT_I32, (size_t)m->n_encodings);
    for (int i = 0; i < m->n_encodings; i++)
        pqt_thrift_write_i32(w, m->encodings[i]);
    pqt_thrift_write_field_list_begin(w, 3, PQT_TT_BINARY, (size_t)m->path_len);
    for (int i = 0; i < m->path_len; i++)
        pqt_thrift_write_binary(w, m->path_in_schema[i], strlen(m->path_in_schema[i]));
    pqt_thrift_write_field_i32(w, 4, m->codec);
    pqt_thrift_write_field_i64(w, 5, m->num_values);
    pqt_thrift_write_field_i64(w, 6, m->total_uncompressed_size);
    pqt_thrift_write_field_i64(w, 7, m->total_compressed_size);
    if (m->nkv > 0) enc_kv_list(w, 8, m->kv, m->nkv);
    pqt_thrift_write_field_i64(w, 9, m->data_page_offset);
    if (m->has_index_page_offset) pqt_thrift_write_field_i64(w, 10, m->index_page_offset);
    if (m->has_dictionary_page_offset) pqt_thrift_write_field_i64(w, 11, m->dictionary_page_offset);
    if (m->has_stats) {
        pqt_thrift_write_field(w, 12, PQT_TT_STRUCT);
        enc_stats(w, &m->stats);
    }
    if (m->n_encoding_stats > 0) {
        pqt_thrift_write_field_list_begin(w, 13, PQT_TT_STRUCT, (size_t)m->n_encoding_stats);
        for (int i = 0; i < m->n_encoding_stats; i++) {
            const pqt_page_enc_stats *es = &m->encoding_stats[i];
            pqt_thrift_write_struct_begin(w);
            pqt_thrift_write_field_i32(w, 1, es->page_type);
            pqt_thrift_write_field_i32(w, 2, es->encoding);
            pqt_thrift_write_field_i32(w, 3, es->count);
            pqt_thrift_write_struct_end(w);
        }
    }
    if (m->has_bloom_filter_offset) pqt_thrift_write_field_i64(w, 14, m->bloom_filter_offset);
    if (m->has_bloom_filter_length) pqt_thrift_write_field_i32(w, 15, m->bloom_filter_length);
    pqt_thrift_write_struct_end(w);
}

static void enc_column_chunk(pqt_thrift_writer *w, const pqt_column_chunk *c)
{
    pqt_thrift_write_struct_begin(w);
    if (c->file_path) pqt_thrift_write_field_binary(w, 1, c->file_path, strlen(c->file_path));
    pqt_thrift_write_field_i64(w, 2, c->file_offset);
    if (c->has_meta) {
        pqt_thrift_write_field(w, 3, PQT_TT_STRUCT);
        enc_column_meta(w, &c->meta);
    }
    if (c->has_offset_index) {
        pqt_thrift_write_field_i64(w, 4, c->offset_index_offset);
        pqt_thrift_write_field_i32(w, 5, c->offset_index_length);
    }
    if (c->has_column_index) {
        pqt_thrift_write_field_i64(w, 6, c->column_index_offset);
        pqt_thrift_write_field_i32(w, 7, c->column_index_length);
    }
    pqt_thrift_write_struct_end(w);
}

static void enc_row_group(pqt_thrift_writer *w, const pqt_row_group *g)
{
    pqt_thrift_write_struct_begin(w);
    pqt_thrift_write_field_list_begin(w, 1, PQT_TT_STRUCT, (size_t)g->ncolumns);
    for (int i = 0; i < g->ncolumns && w->st == PQT_OK; i++)
        enc_column_chunk(w, &g->columns[i]);
    pqt_thrift_write_field_i64(w, 2, g->total_byte_size);
    pqt_thrift_write_field_i64(w, 3, g->num_rows);
    if (g->n_sorting > 0) {
        pqt_thrift_write_field_list_begin(w, 4, PQT_TT_STRUCT, (size_t)g->n_sorting);
        for (int i = 0; i < g->n_sorting; i++) {
            pqt_thrift_write_struct_begin(w);
            pqt_thrift_write_field_i32(w, 1, g->sorting[i].column_idx);
            pqt_thrift_write_field_bool(w, 2, g->sorting[i].descending);
            pqt_thrift_write_field_bool(w, 3, g->sorting[i].nulls_first);
            pqt_thrift_write_struct_end(w);
        }
    }
    if (g->has_file_offset) pqt_thrift_write_field_i64(w, 5, g->file_offset);
    if (g->has_total_compressed_size) pqt_thrift_write_field_i64(w, 6, g->total_compressed_size);
    if (g->has_ordinal) {
        if (g->ordinal < INT16_MIN || g->ordinal > INT16_MAX)
            misuse(w, "RowGroup", "ordinal does not fit parquet.thrift's i16");
        pqt_thrift_write_field_i16(w, 7, (int16_t)g->ordinal);
    }
    pqt_thrift_write_struct_end(w);
}

/* ---- FileMetaData ---- */

pqt_status pqt_meta_encode_file_meta(pqt_buf *out, const pqt_file_meta *m)
{
    pqt_thrift_writer w;
    size_t start = out->len;
    pqt_thrift_write_init(&w, out);
    pqt_thrift_write_struct_begin(&w);
    pqt_thrift_write_field_i32(&w, 1, m->version);
    pqt_thrift_write_field_list_begin(&w, 2, PQT_TT_STRUCT, (size_t)m->nschema);
    for (int i = 0; i < m->nschema && w.st == PQT_OK; i++)
        enc_schema_elem(&w, &m->schema[i]);
    pqt_thrift_write_field_i64(&w, 3, m->num_rows);
    pqt_thrift_write_field_list_begin(&w, 4, PQT_TT_STRUCT, (size_t)m->n_row_groups);
    for (int i = 0; i < m->n_row_groups && w.st == PQT_OK; i++)
        enc_row_group(&w, &m->row_groups[i]);
    if (m->nkv > 0) enc_kv_list(&w, 5, m->kv, m->nkv);
    if (m->created_by) pqt_thrift_write_field_binary(&w, 6, m->created_by, strlen(m->created_by));
    if (m->n_column_orders > 0) {
        pqt_thrift_write_field_list_begin(&w, 7, PQT_TT_STRUCT, (size_t)m->n_column_orders);
        for (int i = 0; i < m->n_column_orders; i++) {
            int32_t id = m->column_orders[i];
            if (id <= 0 || id > INT16_MAX) misuse(&w, "ColumnOrder", "member id out of range");
            pqt_thrift_write_struct_begin(&w); /* the ColumnOrder union */
            pqt_thrift_write_field_empty_struct(&w, (int16_t)id);
            pqt_thrift_write_struct_end(&w);
        }
    }
    pqt_thrift_write_struct_end(&w);
    return finish(&w, start);
}

pqt_status pqt_meta_encode_stats(pqt_buf *out, const pqt_stats *s)
{
    pqt_thrift_writer w;
    size_t start = out->len;
    pqt_thrift_write_init(&w, out);
    enc_stats(&w, s);
    return finish(&w, start);
}

/* ---- PageHeader ---- */

pqt_status pqt_meta_encode_page_header(pqt_buf *out, const pqt_page_header *h)
{
    pqt_thrift_writer w;
    size_t start = out->len;
    pqt_thrift_write_init(&w, out);
    pqt_thrift_write_struct_begin(&w);
    pqt_thrift_write_field_i32(&w, 1, h->type);
    pqt_thrift_write_field_i32(&w, 2, h->uncompressed_size);
    pqt_thrift_write_field_i32(&w, 3, h->compressed_size);
    if (h->has_crc) pqt_thrift_write_field_i32(&w, 4, (int32_t)h->crc); /* CRC bits in an i32 */
    switch (h->type) {
    case PQT_PAGE_DATA:
        pqt_thrift_write_field_struct_begin(&w, 5);
        pqt_thrift_write_field_i32(&w, 1, h->num_values);
        pqt_thrift_write_field_i32(&w, 2, h->encoding);
        pqt_thrift_write_field_i32(&w, 3, h->def_level_encoding);
        pqt_thrift_write_field_i32(&w, 4, h->rep_level_encoding);
        if (h->stats) {
            pqt_thrift_write_field(&w, 5, PQT_TT_STRUCT);
            enc_stats(&w, h->stats);
        }
        pqt_thrift_write_struct_end(&w);
        break;
    case PQT_PAGE_INDEX:
        pqt_thrift_write_field_empty_struct(&w, 6);
        break;
    case PQT_PAGE_DICTIONARY:
        pqt_thrift_write_field_struct_begin(&w, 7);
        pqt_thrift_write_field_i32(&w, 1, h->num_values);
        pqt_thrift_write_field_i32(&w, 2, h->encoding);
        pqt_thrift_write_field_bool(&w, 3, h->is_sorted);
        pqt_thrift_write_struct_end(&w);
        break;
    case PQT_PAGE_DATA_V2:
        pqt_thrift_write_field_struct_begin(&w, 8);
        pqt_thrift_write_field_i32(&w, 1, h->num_values);
        pqt_thrift_write_field_i32(&w, 2, h->num_nulls);
        pqt_thrift_write_field_i32(&w, 3, h->num_rows);
        pqt_thrift_write_field_i32(&w, 4, h->encoding);
        pqt_thrift_write_field_i32(&w, 5, h->def_levels_nbytes);
        pqt_thrift_write_field_i32(&w, 6, h->rep_levels_nbytes);
        pqt_thrift_write_field_bool(&w, 7, h->is_compressed);
        if (h->stats) {
            pqt_thrift_write_field(&w, 8, PQT_TT_STRUCT);
            enc_stats(&w, h->stats);
        }
        pqt_thrift_write_struct_end(&w);
        break;
    default:
        misuse(&w, "PageHeader", "unknown page type");
    }
    pqt_thrift_write_struct_end(&w);
    return finish(&w, start);
}

/* ---- ColumnIndex, OffsetIndex ---- */

static void enc_i64_list(pqt_thrift_writer *w, int16_t id, const int64_t *v, int n)
{
    pqt_thrift_write_field_list_begin(w, id, PQT_TT_I64, (size_t)n);
    for (int i = 0; i < n; i++)
        pqt_thrift_write_i64(w, v[i]);
}

pqt_status pqt_meta_encode_column_index(pqt_buf *out, const pqt_column_index *ci)
{
    pqt_thrift_writer w;
    size_t start = out->len;
    size_t n = ci->npages > 0 ? (size_t)ci->npages : 0;
    pqt_thrift_write_init(&w, out);
    pqt_thrift_write_struct_begin(&w);
    pqt_thrift_write_field_list_begin(&w, 1, PQT_TT_TRUE, n);
    for (size_t i = 0; i < n; i++)
        pqt_thrift_write_bool_elem(&w, ci->null_pages[i]);
    /* A null page's bounds are empty binaries (PageIndex.md). */
    pqt_thrift_write_field_list_begin(&w, 2, PQT_TT_BINARY, n);
    for (size_t i = 0; i < n; i++)
        pqt_thrift_write_binary(&w, ci->min_values[i], ci->min_lens[i]);
    pqt_thrift_write_field_list_begin(&w, 3, PQT_TT_BINARY, n);
    for (size_t i = 0; i < n; i++)
        pqt_thrift_write_binary(&w, ci->max_values[i], ci->max_lens[i]);
    pqt_thrift_write_field_i32(&w, 4, ci->boundary_order);
    if (ci->null_counts) enc_i64_list(&w, 5, ci->null_counts, (int)n);
    if (ci->nan_counts) enc_i64_list(&w, 8, ci->nan_counts, (int)n);
    pqt_thrift_write_struct_end(&w);
    return finish(&w, start);
}

pqt_status pqt_meta_encode_offset_index(pqt_buf *out, const pqt_offset_index *oi)
{
    pqt_thrift_writer w;
    size_t start = out->len;
    int n = oi->npages > 0 ? oi->npages : 0;
    pqt_thrift_write_init(&w, out);
    pqt_thrift_write_struct_begin(&w);
    pqt_thrift_write_field_list_begin(&w, 1, PQT_TT_STRUCT, (size_t)n);
    for (int i = 0; i < n; i++) {
        const pqt_page_location *p = &oi->pages[i];
        pqt_thrift_write_struct_begin(&w);
        pqt_thrift_write_field_i64(&w, 1, p->offset);
        pqt_thrift_write_field_i32(&w, 2, p->compressed_page_size);
        pqt_thrift_write_field_i64(&w, 3, p->first_row_index);
        pqt_thrift_write_struct_end(&w);
    }
    if (oi->unencoded_byte_array_data_bytes)
        enc_i64_list(&w, 2, oi->unencoded_byte_array_data_bytes, n);
    pqt_thrift_write_struct_end(&w);
    return finish(&w, start);
}

/* ---- BloomFilterHeader ---- */

/* A union field `id` whose member `member` is an empty struct. */
static void enc_union_field(pqt_thrift_writer *w, int16_t id, int member)
{
    if (member <= 0 || member > INT16_MAX) {
        misuse(w, "BloomFilterHeader", "union member id out of range");
        return;
    }
    pqt_thrift_write_field_struct_begin(w, id);
    pqt_thrift_write_field_empty_struct(w, (int16_t)member);
    pqt_thrift_write_struct_end(w);
}

pqt_status pqt_meta_encode_bloom_header(pqt_buf *out, const pqt_bloom_header *bh)
{
    pqt_thrift_writer w;
    size_t start = out->len;
    pqt_thrift_write_init(&w, out);
    pqt_thrift_write_struct_begin(&w);
    pqt_thrift_write_field_i32(&w, 1, bh->num_bytes);
    enc_union_field(&w, 2, bh->algorithm_id);
    enc_union_field(&w, 3, bh->hash_id);
    enc_union_field(&w, 4, bh->compression_id);
    pqt_thrift_write_struct_end(&w);
    return finish(&w, start);
}
