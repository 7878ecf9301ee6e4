/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_meta_encode.c - the Thrift compact writer and the metadata encoders.
 *
 * Truth is twofold: (1) hand-computed compact-protocol bytes for small structs (every wire
 * type, short and long field-id forms, short and long list headers, zigzag extremes), and
 * (2) the reader's own decoders (meta_decode*.c, footer.c), which must give back, field by
 * field, a rich FileMetaData (every logical type a writer emits, key-value metadata, column
 * chunk meta with statistics, encoding stats, bloom and page index locations, row groups with
 * every optional field, column orders), page headers v1/v2/dictionary, column and offset
 * indexes and a bloom filter header; (3) every footer of the repository's corpus
 * (parquet-testing and tests/data) re-encodes and decodes to itself. Failures must leave the
 * output buffer as it was.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "format/footer.h"
#include "format/meta.h"
#include "format/meta_encode.h"
#include "format/thrift_write.h"
#include "testutil.h"
#include "util/io.h"
#include "util/mem.h"

static int bytes_eq(const pqt_buf *b, size_t from, const uint8_t *want, size_t n)
{
    if (b->len - from != n || memcmp(b->data + from, want, n) != 0) {
        fprintf(stderr, "  got %zu bytes:", b->len - from);
        for (size_t i = from; i < b->len; i++)
            fprintf(stderr, " %02x", b->data[i]);
        fprintf(stderr, "\n  want %zu bytes:", n);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %02x", want[i]);
        fprintf(stderr, "\n");
        return 0;
    }
    return 1;
}

/* ---- hand-computed encodings ---- */

static void test_writer_bytes(void)
{
    pqt_buf b = {0};
    pqt_thrift_writer w;
    pqt_thrift_write_init(&w, &b);
    pqt_thrift_write_struct_begin(&w);
    pqt_thrift_write_field_i32(&w, 1, -1);                     /* 15 01 */
    pqt_thrift_write_field_i64(&w, 20, 1);                     /* long form: 06 28, value 02 */
    pqt_thrift_write_field_i32(&w, 5, 300);                    /* descending id: 05 0a, d8 04 */
    pqt_thrift_write_field_bool(&w, 21, true);                 /* long form: 01 2a */
    pqt_thrift_write_field_bool(&w, 22, false);                /* 12 */
    pqt_thrift_write_field_i8(&w, 23, -1);                     /* 13 ff */
    pqt_thrift_write_field_i16(&w, 24, -2);                    /* 14 03 */
    pqt_thrift_write_field_double(&w, 25, 1.0);                /* 17 00*6 f0 3f */
    pqt_thrift_write_field_binary(&w, 26, "ab", 2);            /* 18 02 61 62 */
    pqt_thrift_write_field_i64(&w, 27, INT64_MIN);             /* 16 ff*9 01 */
    pqt_thrift_write_field_list_begin(&w, 28, PQT_TT_I32, 15); /* 19 f5 0f */
    for (int i = 0; i < 15; i++)
        pqt_thrift_write_i32(&w, i);                           /* 00 02 04 ... 1c */
    pqt_thrift_write_field_list_begin(&w, 29, PQT_TT_TRUE, 3); /* 19 31 */
    pqt_thrift_write_bool_elem(&w, true);                      /* 01 */
    pqt_thrift_write_bool_elem(&w, false);                     /* 02 */
    pqt_thrift_write_bool_elem(&w, true);                      /* 01 */
    pqt_thrift_write_field_struct_begin(&w, 30);               /* 1c */
    pqt_thrift_write_field_i32(&w, 1, 0);  /* 15 00 (a new struct restarts ids) */
    pqt_thrift_write_struct_end(&w);       /* 00 */
    pqt_thrift_write_field_i32(&w, 31, 7); /* 15 0e: back to the outer last id */
    pqt_thrift_write_struct_end(&w);       /* 00 */
    CHECK_OK(pqt_thrift_write_status(&w));
    static const uint8_t want[] = {
        0x15, 0x01, 0x06, 0x28, 0x02, 0x05, 0x0a, 0xd8, 0x04, 0x01, 0x2a, 0x12, 0x13, 0xff,
        0x14, 0x03, 0x17, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f, 0x18, 0x02, 0x61,
        0x62, 0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x19, 0xf5,
        0x0f, 0x00, 0x02, 0x04, 0x06, 0x08, 0x0a, 0x0c, 0x0e, 0x10, 0x12, 0x14, 0x16, 0x18,
        0x1a, 0x1c, 0x19, 0x31, 0x01, 0x02, 0x01, 0x1c, 0x15, 0x00, 0x00, 0x15, 0x0e, 0x00};
    CHECK(bytes_eq(&b, 0, want, sizeof want));

    /* The reader agrees on every item (types, ids and values). */
    pqt_thrift_reader r;
    pqt_thrift_field f;
    int16_t last;
    int64_t v;
    pqt_thrift_init(&r, b.data, b.len, 0, "test");
    CHECK_OK(pqt_thrift_struct_begin(&r, &last));
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
    CHECK(f.id == 1 && f.type == PQT_TT_I32);
    CHECK_OK(pqt_thrift_read_i64(&r, &v));
    CHECK_EQ_I64(v, -1);
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
    CHECK(f.id == 20 && f.type == PQT_TT_I64);
    CHECK_OK(pqt_thrift_read_i64(&r, &v));
    CHECK_EQ_I64(v, 1);
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
    CHECK(f.id == 5 && f.type == PQT_TT_I32);
    CHECK_OK(pqt_thrift_read_i64(&r, &v));
    CHECK_EQ_I64(v, 300);
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
    CHECK(f.id == 21 && f.bool_val);
    pqt_buf_free(&b);
}

static void test_writer_errors(void)
{
    pqt_buf b = {0};
    pqt_thrift_writer w;
    /* nesting past the reader's cap latches PQT_LIMIT; later calls are inert */
    pqt_thrift_write_init(&w, &b);
    pqt_thrift_write_struct_begin(&w);
    for (int i = 1; i < PQT_THRIFT_MAX_DEPTH; i++)
        pqt_thrift_write_field_struct_begin(&w, 1);
    CHECK(w.st == PQT_OK && w.depth == PQT_THRIFT_MAX_DEPTH);
    size_t len = b.len;
    CHECK(len == PQT_THRIFT_MAX_DEPTH - 1);
    pqt_thrift_write_field_struct_begin(&w, 2);
    CHECK(pqt_thrift_write_status(&w) == PQT_LIMIT);
    len = b.len;
    pqt_thrift_write_i64(&w, 5);
    pqt_thrift_write_struct_end(&w);
    CHECK(b.len == len);

    b.len = 0;
    pqt_thrift_write_init(&w, &b);
    for (int i = 0; i < PQT_THRIFT_MAX_DEPTH + 1; i++)
        pqt_thrift_write_struct_begin(&w);
    CHECK(pqt_thrift_write_status(&w) == PQT_LIMIT);

    /* an open struct at the end is a misuse */
    b.len = 0;
    pqt_thrift_write_init(&w, &b);
    pqt_thrift_write_struct_begin(&w);
    CHECK(pqt_thrift_write_status(&w) == PQT_MISUSE);
    /* a field outside a struct, a struct_end too many */
    pqt_thrift_write_init(&w, &b);
    pqt_thrift_write_field_i32(&w, 1, 1);
    CHECK(pqt_thrift_write_status(&w) == PQT_MISUSE);
    pqt_thrift_write_init(&w, &b);
    pqt_thrift_write_struct_end(&w);
    CHECK(pqt_thrift_write_status(&w) == PQT_MISUSE);
    pqt_buf_free(&b);
}

static void test_bloom_header_bytes(void)
{
    pqt_buf b = {0};
    CHECK_OK(pqt_buf_append(&b, "xy", 2)); /* encoders append */
    pqt_bloom_header h = {.num_bytes = 32, .algorithm_id = 1, .hash_id = 1, .compression_id = 1};
    CHECK_OK(pqt_meta_encode_bloom_header(&b, &h));
    static const uint8_t want[] = {0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c,
                                   0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    CHECK(memcmp(b.data, "xy", 2) == 0);
    CHECK(bytes_eq(&b, 2, want, sizeof want));
    pqt_bloom_header d;
    size_t used = 0;
    CHECK_OK(pqt_meta_decode_bloom_header(b.data + 2, b.len - 2, 0, &d, &used));
    CHECK(used == sizeof want);
    CHECK(d.num_bytes == 32 && d.algorithm_id == 1 && d.hash_id == 1 && d.compression_id == 1);
    pqt_buf_free(&b);
}

static void test_page_header_v1_bytes(void)
{
    pqt_buf b = {0};
    pqt_page_header h = {.type = PQT_PAGE_DATA,
                         .uncompressed_size = 100,
                         .compressed_size = 50,
                         .num_values = 10,
                         .encoding = PQT_ENC_PLAIN,
                         .def_level_encoding = PQT_ENC_RLE,
                         .rep_level_encoding = PQT_ENC_RLE};
    CHECK_OK(pqt_meta_encode_page_header(&b, &h));
    static const uint8_t want[] = {0x15, 0x00, 0x15, 0xc8, 0x01, 0x15, 0x64, 0x2c, 0x15,
                                   0x14, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00};
    CHECK(bytes_eq(&b, 0, want, sizeof want));
    pqt_buf_free(&b);
}

/* ---- page headers through the decoder ---- */

static void roundtrip_page_header(const pqt_page_header *h)
{
    pqt_buf b = {0};
    CHECK_OK(pqt_buf_append(&b, "\x7f", 1));
    CHECK_OK(pqt_meta_encode_page_header(&b, h));
    size_t enc_len = b.len - 1;
    CHECK_OK(pqt_buf_append(&b, "trailing page bytes", 19));
    pqt_page_header d;
    size_t used = 0;
    CHECK_OK(pqt_meta_decode_page_header(b.data + 1, b.len - 1, 0, &d, &used));
    CHECK(used == enc_len); /* statistics, when written, were skipped exactly */
    CHECK_EQ_I64(d.type, h->type);
    CHECK_EQ_I64(d.uncompressed_size, h->uncompressed_size);
    CHECK_EQ_I64(d.compressed_size, h->compressed_size);
    CHECK(d.has_crc == h->has_crc);
    if (h->has_crc) CHECK(d.crc == h->crc);
    CHECK_EQ_I64(d.num_values, h->num_values);
    CHECK_EQ_I64(d.encoding, h->encoding);
    if (h->type == PQT_PAGE_DATA) {
        CHECK(d.has_data_header);
        CHECK_EQ_I64(d.def_level_encoding, h->def_level_encoding);
        CHECK_EQ_I64(d.rep_level_encoding, h->rep_level_encoding);
    } else if (h->type == PQT_PAGE_DATA_V2) {
        CHECK(d.has_data_v2_header);
        CHECK_EQ_I64(d.num_nulls, h->num_nulls);
        CHECK_EQ_I64(d.num_rows, h->num_rows);
        CHECK_EQ_I64(d.def_levels_nbytes, h->def_levels_nbytes);
        CHECK_EQ_I64(d.rep_levels_nbytes, h->rep_levels_nbytes);
        CHECK(d.is_compressed == h->is_compressed);
    } else if (h->type == PQT_PAGE_DICTIONARY) {
        CHECK(d.has_dict_header);
        CHECK(d.is_sorted == h->is_sorted);
    }
    pqt_buf_free(&b);
}

static void test_page_headers(void)
{
    static const uint8_t mn[] = {1, 0, 0, 0}, mx[] = {0xff, 0xff, 0xff, 0x7f};
    pqt_stats st = {.min_value = mn,
                    .min_value_len = 4,
                    .has_min_value = true,
                    .max_value = mx,
                    .max_value_len = 4,
                    .has_max_value = true,
                    .null_count = 3,
                    .has_null_count = true};
    pqt_page_header v1 = {.type = PQT_PAGE_DATA,
                          .uncompressed_size = 1 << 20,
                          .compressed_size = 12345,
                          .crc = 0xdeadbeefu,
                          .has_crc = true,
                          .num_values = 100000,
                          .encoding = PQT_ENC_RLE_DICTIONARY,
                          .def_level_encoding = PQT_ENC_RLE,
                          .rep_level_encoding = PQT_ENC_RLE};
    roundtrip_page_header(&v1);
    v1.stats = &st;
    v1.has_crc = false;
    roundtrip_page_header(&v1);
    pqt_page_header v2 = {.type = PQT_PAGE_DATA_V2,
                          .uncompressed_size = 999,
                          .compressed_size = 0,
                          .num_values = 70,
                          .num_nulls = 7,
                          .num_rows = 20,
                          .encoding = PQT_ENC_DELTA_BINARY_PACKED,
                          .def_levels_nbytes = 12,
                          .rep_levels_nbytes = 9,
                          .is_compressed = false,
                          .stats = &st};
    roundtrip_page_header(&v2);
    v2.is_compressed = true;
    v2.stats = NULL;
    v2.crc = 1;
    v2.has_crc = true;
    roundtrip_page_header(&v2);
    pqt_page_header dict = {.type = PQT_PAGE_DICTIONARY,
                            .uncompressed_size = 64,
                            .compressed_size = 40,
                            .num_values = 16,
                            .encoding = PQT_ENC_PLAIN,
                            .is_sorted = true};
    roundtrip_page_header(&dict);
    dict.is_sorted = false;
    roundtrip_page_header(&dict);

    /* an unknown page type fails and leaves the buffer as it was */
    pqt_buf b = {0};
    CHECK_OK(pqt_buf_append(&b, "abc", 3));
    pqt_page_header bad = {.type = 9};
    CHECK(pqt_meta_encode_page_header(&b, &bad) == PQT_MISUSE);
    CHECK(b.len == 3);
    pqt_buf_free(&b);
}

/* ---- page index ---- */

static void test_page_index(void)
{
    static const uint8_t a[] = "apple", z[] = "zebra", m[] = "mango";
    bool null_pages[16];
    const uint8_t *mins[16], *maxs[16];
    uint32_t min_lens[16], max_lens[16];
    int64_t null_counts[16], nan_counts[16];
    for (int i = 0; i < 16; i++) { /* 16 pages: a long-form list header */
        null_pages[i] = i % 5 == 3;
        mins[i] = null_pages[i] ? NULL : a;
        maxs[i] = null_pages[i] ? NULL : i % 2 ? z : m;
        min_lens[i] = null_pages[i] ? 0 : 5;
        max_lens[i] = null_pages[i] ? 0 : (uint32_t)(i % 3 + 3);
        null_counts[i] = i * 1000;
        nan_counts[i] = 16 - i;
    }
    pqt_column_index ci = {.null_pages = null_pages,
                           .npages = 16,
                           .min_values = mins,
                           .max_values = maxs,
                           .min_lens = min_lens,
                           .max_lens = max_lens,
                           .boundary_order = PQT_ORDER_ASCENDING,
                           .null_counts = null_counts,
                           .nan_counts = nan_counts};
    for (int pass = 0; pass < 2; pass++) {
        pqt_buf b = {0};
        pqt_arena ar = {0};
        pqt_column_index d;
        CHECK_OK(pqt_meta_encode_column_index(&b, &ci));
        CHECK_OK(pqt_meta_decode_column_index(b.data, b.len, 0, &ar, &d));
        CHECK_EQ_I64(d.npages, 16);
        CHECK_EQ_I64(d.boundary_order, ci.boundary_order);
        for (int i = 0; i < 16 && d.npages == 16; i++) {
            CHECK(d.null_pages[i] == null_pages[i]);
            CHECK(d.min_lens[i] == min_lens[i] && d.max_lens[i] == max_lens[i]);
            CHECK(memcmp(d.min_values[i], min_lens[i] ? mins[i] : (const uint8_t *)"",
                         min_lens[i]) == 0);
            CHECK(memcmp(d.max_values[i], max_lens[i] ? maxs[i] : (const uint8_t *)"",
                         max_lens[i]) == 0);
            if (pass == 0) {
                CHECK(d.null_counts && d.null_counts[i] == null_counts[i]);
                CHECK(d.nan_counts && d.nan_counts[i] == nan_counts[i]);
            }
        }
        if (pass == 1) CHECK(!d.null_counts && !d.nan_counts);
        pqt_arena_free(&ar);
        pqt_buf_free(&b);
        ci.null_counts = ci.nan_counts = NULL;
        ci.boundary_order = PQT_ORDER_UNORDERED;
    }

    pqt_page_location locs[20];
    int64_t unenc[20];
    for (int i = 0; i < 20; i++) {
        locs[i] = (pqt_page_location){.offset = 4 + (int64_t)i * 5000000000LL,
                                      .compressed_page_size = 1000 + i,
                                      .first_row_index = (int64_t)i * 3000000000LL};
        unenc[i] = i * 7;
    }
    for (int pass = 0; pass < 2; pass++) {
        pqt_offset_index oi = {.pages = locs,
                               .npages = pass ? 1 : 20,
                               .unencoded_byte_array_data_bytes = pass ? NULL : unenc};
        pqt_buf b = {0};
        pqt_arena ar = {0};
        pqt_offset_index d;
        CHECK_OK(pqt_meta_encode_offset_index(&b, &oi));
        CHECK_OK(pqt_meta_decode_offset_index(b.data, b.len, 0, &ar, &d));
        CHECK_EQ_I64(d.npages, oi.npages);
        for (int i = 0; i < d.npages && d.npages == oi.npages; i++) {
            CHECK_EQ_I64(d.pages[i].offset, locs[i].offset);
            CHECK_EQ_I64(d.pages[i].compressed_page_size, locs[i].compressed_page_size);
            CHECK_EQ_I64(d.pages[i].first_row_index, locs[i].first_row_index);
        }
        if (pass == 1) {
            /* {1: list(1 struct){1: i64 4, 2: i32 1000, 3: i64 0}} by hand */
            static const uint8_t want[] = {0x19, 0x1c, 0x16, 0x08, 0x15, 0xd0,
                                           0x0f, 0x16, 0x00, 0x00, 0x00};
            CHECK(bytes_eq(&b, 0, want, sizeof want));
        }
        pqt_arena_free(&ar);
        pqt_buf_free(&b);
    }
}

/* ---- a rich FileMetaData ---- */

enum { NLEAF = 14, NSCHEMA = NLEAF + 3, NRG = 3 };

typedef struct rich {
    pqt_schema_elem schema[NSCHEMA];
    pqt_kv kv[3], col_kv[1];
    pqt_row_group rg[NRG];
    pqt_column_chunk cc[NRG][NLEAF];
    int32_t encodings[3];
    pqt_page_enc_stats es[2];
    pqt_sorting_column sorting[2];
    const char *paths[NLEAF][3];
    int32_t orders[NLEAF];
    pqt_file_meta m;
} rich;

static pqt_schema_elem leaf(const char *name, int type, int rep, int ct, int lt)
{
    pqt_schema_elem e = {.name = name, .type = type, .repetition = rep, .converted_type = ct};
    e.logical.id = lt;
    e.logical.unit = -1;
    return e;
}

static void build_rich(rich *r)
{
    memset(r, 0, sizeof *r);
    pqt_schema_elem *s = r->schema;
    int n = 0;
    s[n] = leaf("schema", -1, -1, -1, 0);
    s[n++].num_children = NLEAF; /* 13 top-level leaves and the list group */
    s[n] = leaf("id", PQT_PT_INT64, PQT_REP_REQUIRED, PQT_CT_INT_64, PQT_LT_INTEGER);
    s[n].logical.bit_width = 64;
    s[n].logical.is_signed = true;
    s[n].field_id = 7;
    s[n++].has_field_id = true;
    s[n] = leaf("u8", PQT_PT_INT32, PQT_REP_OPTIONAL, PQT_CT_UINT_8, PQT_LT_INTEGER);
    s[n++].logical.bit_width = 8;
    s[n] = leaf("ts", PQT_PT_INT64, PQT_REP_OPTIONAL, PQT_CT_TIMESTAMP_MICROS, PQT_LT_TIMESTAMP);
    s[n].logical.unit = PQT_UNIT_MICROS;
    s[n++].logical.utc = true;
    s[n] = leaf("ts_ns", PQT_PT_INT64, PQT_REP_OPTIONAL, -1, PQT_LT_TIMESTAMP);
    s[n++].logical.unit = PQT_UNIT_NANOS;
    s[n] = leaf("t_ms", PQT_PT_INT32, PQT_REP_REQUIRED, PQT_CT_TIME_MILLIS, PQT_LT_TIME);
    s[n].logical.unit = PQT_UNIT_MILLIS;
    s[n++].logical.utc = true;
    s[n++] = leaf("d", PQT_PT_INT32, PQT_REP_OPTIONAL, PQT_CT_DATE, PQT_LT_DATE);
    s[n++] = leaf("s", PQT_PT_BYTE_ARRAY, PQT_REP_OPTIONAL, PQT_CT_UTF8, PQT_LT_STRING);
    s[n] =
        leaf("dec", PQT_PT_FIXED_LEN_BYTE_ARRAY, PQT_REP_OPTIONAL, PQT_CT_DECIMAL, PQT_LT_DECIMAL);
    s[n].type_length = 13;
    s[n].scale = s[n].logical.scale = 2;
    s[n].precision = s[n].logical.precision = 30;
    s[n].has_scale = s[n].has_precision = true;
    n++;
    s[n] = leaf("uuid", PQT_PT_FIXED_LEN_BYTE_ARRAY, PQT_REP_REQUIRED, -1, PQT_LT_UUID);
    s[n++].type_length = 16;
    s[n++] = leaf("j", PQT_PT_BYTE_ARRAY, PQT_REP_OPTIONAL, PQT_CT_JSON, PQT_LT_JSON);
    s[n++] = leaf("e", PQT_PT_BYTE_ARRAY, PQT_REP_OPTIONAL, PQT_CT_ENUM, PQT_LT_ENUM);
    s[n] = leaf("vec", -1, PQT_REP_OPTIONAL, PQT_CT_LIST, PQT_LT_LIST);
    s[n++].num_children = 1;
    s[n] = leaf("list", -1, PQT_REP_REPEATED, -1, 0);
    s[n++].num_children = 1;
    s[n++] = leaf("element", PQT_PT_DOUBLE, PQT_REP_OPTIONAL, -1, 0);
    s[n++] = leaf("f16", PQT_PT_FIXED_LEN_BYTE_ARRAY, PQT_REP_OPTIONAL, -1, PQT_LT_FLOAT16);
    s[n - 1].type_length = 2;
    s[n++] = leaf("raw96", PQT_PT_INT96, PQT_REP_OPTIONAL, -1, 0);
    CHECK(n == NSCHEMA);

    /* the leaves in schema order, with their paths */
    static const char *const leaf_names[NLEAF] = {
        "id", "u8", "ts", "ts_ns", "t_ms", "d", "s", "dec", "uuid", "j", "e", NULL, "f16", "raw96"};
    static const int leaf_types[NLEAF] = {PQT_PT_INT64,
                                          PQT_PT_INT32,
                                          PQT_PT_INT64,
                                          PQT_PT_INT64,
                                          PQT_PT_INT32,
                                          PQT_PT_INT32,
                                          PQT_PT_BYTE_ARRAY,
                                          PQT_PT_FIXED_LEN_BYTE_ARRAY,
                                          PQT_PT_FIXED_LEN_BYTE_ARRAY,
                                          PQT_PT_BYTE_ARRAY,
                                          PQT_PT_BYTE_ARRAY,
                                          PQT_PT_DOUBLE,
                                          PQT_PT_FIXED_LEN_BYTE_ARRAY,
                                          PQT_PT_INT96};
    int path_lens[NLEAF];
    for (int i = 0; i < NLEAF; i++) {
        if (leaf_names[i]) {
            r->paths[i][0] = leaf_names[i];
            path_lens[i] = 1;
        } else {
            r->paths[i][0] = "vec";
            r->paths[i][1] = "list";
            r->paths[i][2] = "element";
            path_lens[i] = 3;
        }
        r->orders[i] = 1;
    }
    int nleaf = NLEAF;

    r->kv[0] = (pqt_kv){.key = "ARROW:schema", .value = "abc\0def", .value_len = 7};
    r->kv[1] = (pqt_kv){.key = "novalue"};
    r->kv[2] = (pqt_kv){.key = "column.ts.unit", .value = ""};
    r->col_kv[0] = (pqt_kv){.key = "k", .value = "v"};
    r->encodings[0] = PQT_ENC_PLAIN;
    r->encodings[1] = PQT_ENC_RLE;
    r->encodings[2] = PQT_ENC_RLE_DICTIONARY;
    r->es[0] = (pqt_page_enc_stats){PQT_PAGE_DICTIONARY, PQT_ENC_PLAIN, 1};
    r->es[1] = (pqt_page_enc_stats){PQT_PAGE_DATA, PQT_ENC_RLE_DICTIONARY, 42};
    r->sorting[0] = (pqt_sorting_column){0, true, false};
    r->sorting[1] = (pqt_sorting_column){5, false, true};

    static const uint8_t mn[] = {0x80, 0, 0, 0, 0, 0, 0, 0}, mx[] = {0x7f, 1, 2, 3, 4, 5, 6, 0};
    int64_t off = 4;
    for (int g = 0; g < NRG; g++) {
        pqt_row_group *rg = &r->rg[g];
        rg->columns = r->cc[g];
        rg->ncolumns = nleaf;
        rg->num_rows = g == 1 ? 0 : 1000000 + g;
        rg->total_byte_size = 123456789012LL + g;
        if (g != 2) {
            rg->file_offset = off;
            rg->has_file_offset = true;
            rg->total_compressed_size = 5555 + g;
            rg->has_total_compressed_size = true;
            rg->ordinal = (int32_t)g;
            rg->has_ordinal = true;
        }
        if (g == 0) {
            rg->sorting = r->sorting;
            rg->n_sorting = 2;
        }
        for (int c = 0; c < nleaf; c++) {
            pqt_column_chunk *cc = &r->cc[g][c];
            pqt_column_meta *cm = &cc->meta;
            cc->file_offset = off + 17;
            cc->has_meta = true;
            cm->type = leaf_types[c];
            cm->encodings = r->encodings;
            cm->n_encodings = 1 + (c % 3);
            cm->path_in_schema = r->paths[c];
            cm->path_len = path_lens[c];
            cm->codec = c % 8 == 3 ? PQT_CODEC_ZSTD : c % 8;
            cm->num_values = rg->num_rows + c;
            cm->total_uncompressed_size = 1000 + c;
            cm->total_compressed_size = 900 + c;
            cm->data_page_offset = off + 100;
            if (c % 2) {
                cm->dictionary_page_offset = off;
                cm->has_dictionary_page_offset = true;
                cm->encoding_stats = r->es;
                cm->n_encoding_stats = 2;
            }
            if (c == 4) {
                cm->index_page_offset = off + 50;
                cm->has_index_page_offset = true;
                cm->kv = r->col_kv;
                cm->nkv = 1;
            }
            if (c % 3 != 2) {
                pqt_stats *st = &cm->stats;
                cm->has_stats = true;
                st->min_value = mn;
                st->min_value_len = (uint32_t)(c % 8 + 1);
                st->has_min_value = c != 6;
                st->max_value = mx;
                st->max_value_len = 8;
                st->has_max_value = true;
                st->null_count = c * 11;
                st->has_null_count = true;
                st->is_min_value_exact = c % 2;
                st->has_is_min_value_exact = true;
                st->is_max_value_exact = true;
                st->has_is_max_value_exact = c != 1;
                if (c == 0) {
                    st->min = mn;
                    st->min_len = 8;
                    st->max = mx;
                    st->max_len = 8;
                    st->has_min = st->has_max = true;
                    st->distinct_count = 99;
                    st->has_distinct_count = true;
                    st->nan_count = 3;
                    st->has_nan_count = true;
                }
            }
            if (c % 4 == 1) {
                cm->bloom_filter_offset = off + 7777;
                cm->has_bloom_filter_offset = true;
                cm->bloom_filter_length = 1056;
                cm->has_bloom_filter_length = c != 5;
            }
            if (c != 3) {
                cc->offset_index_offset = off + 200000;
                cc->offset_index_length = 30 + c;
                cc->has_offset_index = true;
                cc->column_index_offset = off + 100000;
                cc->column_index_length = 40 + c;
                cc->has_column_index = c != 8;
            }
            if (g == 2 && c == 0) cc->file_path = "other.parquet";
            off += 5000000000LL; /* offsets past 4 GiB */
        }
    }
    r->m = (pqt_file_meta){.version = 2,
                           .schema = r->schema,
                           .nschema = NSCHEMA,
                           .num_rows = 2000001,
                           .row_groups = r->rg,
                           .n_row_groups = NRG,
                           .kv = r->kv,
                           .nkv = 3,
                           .created_by = "pqt version 0.9.0 (build test)",
                           .column_orders = r->orders,
                           .n_column_orders = nleaf};
}

static void check_stats(const pqt_stats *a, const pqt_stats *b)
{
#define SAMEBIN(p, l, h)                                                                           \
    CHECK(a->h == b->h);                                                                           \
    if (a->h && b->h) CHECK(a->l == b->l && memcmp(a->p, b->p, a->l) == 0)
    SAMEBIN(max, max_len, has_max);
    SAMEBIN(min, min_len, has_min);
    SAMEBIN(max_value, max_value_len, has_max_value);
    SAMEBIN(min_value, min_value_len, has_min_value);
#undef SAMEBIN
    CHECK(a->has_null_count == b->has_null_count && a->null_count == b->null_count);
    CHECK(a->has_distinct_count == b->has_distinct_count && a->distinct_count == b->distinct_count);
    CHECK(a->has_nan_count == b->has_nan_count && a->nan_count == b->nan_count);
    CHECK(a->has_is_max_value_exact == b->has_is_max_value_exact);
    CHECK(a->has_is_min_value_exact == b->has_is_min_value_exact);
    if (a->has_is_max_value_exact) CHECK(a->is_max_value_exact == b->is_max_value_exact);
    if (a->has_is_min_value_exact) CHECK(a->is_min_value_exact == b->is_min_value_exact);
}

static size_t kvlen(const char *s, uint32_t len)
{
    return len || !s ? len : strlen(s);
}

static void check_kv(const pqt_kv *a, const pqt_kv *b)
{
    size_t ka = kvlen(a->key, a->key_len), va = kvlen(a->value, a->value_len);
    CHECK(b->key_len == ka && memcmp(a->key, b->key, ka) == 0);
    CHECK(!a->value == !b->value);
    if (a->value && b->value) CHECK(b->value_len == va && memcmp(a->value, b->value, va) == 0);
}

static void check_file_meta(const pqt_file_meta *a, const pqt_file_meta *b)
{
    CHECK_EQ_I64(b->version, a->version);
    CHECK_EQ_I64(b->num_rows, a->num_rows);
    CHECK(!a->created_by == !b->created_by);
    if (a->created_by && b->created_by) CHECK(strcmp(a->created_by, b->created_by) == 0);
    CHECK_EQ_I64(b->nschema, a->nschema);
    for (int i = 0; i < a->nschema && i < b->nschema; i++) {
        const pqt_schema_elem *x = &a->schema[i], *y = &b->schema[i];
        CHECK(strcmp(x->name, y->name) == 0);
        CHECK_EQ_I64(y->type, x->type);
        CHECK_EQ_I64(y->type_length, x->type_length);
        CHECK_EQ_I64(y->repetition, x->repetition);
        CHECK_EQ_I64(y->num_children, x->type < 0 ? x->num_children : 0);
        CHECK_EQ_I64(y->converted_type, x->converted_type);
        CHECK(y->has_scale == x->has_scale && y->scale == x->scale);
        CHECK(y->has_precision == x->has_precision && y->precision == x->precision);
        CHECK(y->has_field_id == x->has_field_id && y->field_id == x->field_id);
        CHECK_EQ_I64(y->logical.id, x->logical.id);
        CHECK_EQ_I64(y->logical.unit, x->logical.unit);
        CHECK(y->logical.utc == x->logical.utc);
        CHECK_EQ_I64(y->logical.bit_width, x->logical.bit_width);
        CHECK(y->logical.is_signed == x->logical.is_signed);
        CHECK_EQ_I64(y->logical.scale, x->logical.scale);
        CHECK_EQ_I64(y->logical.precision, x->logical.precision);
    }
    CHECK_EQ_I64(b->nkv, a->nkv);
    for (int i = 0; i < a->nkv && i < b->nkv; i++)
        check_kv(&a->kv[i], &b->kv[i]);
    CHECK_EQ_I64(b->n_column_orders, a->n_column_orders);
    for (int i = 0; i < a->n_column_orders && i < b->n_column_orders; i++)
        CHECK_EQ_I64(b->column_orders[i], a->column_orders[i]);
    CHECK(!b->has_encryption_algorithm);
    CHECK_EQ_I64(b->n_row_groups, a->n_row_groups);
    for (int g = 0; g < a->n_row_groups && g < b->n_row_groups; g++) {
        const pqt_row_group *x = &a->row_groups[g], *y = &b->row_groups[g];
        CHECK_EQ_I64(y->total_byte_size, x->total_byte_size);
        CHECK_EQ_I64(y->num_rows, x->num_rows);
        CHECK(y->has_file_offset == x->has_file_offset && y->file_offset == x->file_offset);
        CHECK(y->has_total_compressed_size == x->has_total_compressed_size &&
              y->total_compressed_size == x->total_compressed_size);
        CHECK(y->has_ordinal == x->has_ordinal && y->ordinal == x->ordinal);
        CHECK_EQ_I64(y->n_sorting, x->n_sorting);
        for (int i = 0; i < x->n_sorting && i < y->n_sorting; i++)
            CHECK(y->sorting[i].column_idx == x->sorting[i].column_idx &&
                  y->sorting[i].descending == x->sorting[i].descending &&
                  y->sorting[i].nulls_first == x->sorting[i].nulls_first);
        CHECK_EQ_I64(y->ncolumns, x->ncolumns);
        for (int c = 0; c < x->ncolumns && c < y->ncolumns; c++) {
            const pqt_column_chunk *p = &x->columns[c], *q = &y->columns[c];
            CHECK(!p->file_path == !q->file_path);
            if (p->file_path && q->file_path) CHECK(strcmp(p->file_path, q->file_path) == 0);
            CHECK_EQ_I64(q->file_offset, p->file_offset);
            CHECK(q->has_meta == p->has_meta);
            CHECK(q->has_offset_index == p->has_offset_index);
            if (p->has_offset_index)
                CHECK(q->offset_index_offset == p->offset_index_offset &&
                      q->offset_index_length == p->offset_index_length);
            CHECK(q->has_column_index == p->has_column_index);
            if (p->has_column_index)
                CHECK(q->column_index_offset == p->column_index_offset &&
                      q->column_index_length == p->column_index_length);
            CHECK(!q->encrypted);
            const pqt_column_meta *u = &p->meta, *v = &q->meta;
            CHECK_EQ_I64(v->type, u->type);
            CHECK_EQ_I64(v->n_encodings, u->n_encodings);
            for (int i = 0; i < u->n_encodings && i < v->n_encodings; i++)
                CHECK_EQ_I64(v->encodings[i], u->encodings[i]);
            CHECK_EQ_I64(v->path_len, u->path_len);
            CHECK_EQ_I64(v->codec, u->codec);
            CHECK_EQ_I64(v->num_values, u->num_values);
            CHECK_EQ_I64(v->total_uncompressed_size, u->total_uncompressed_size);
            CHECK_EQ_I64(v->total_compressed_size, u->total_compressed_size);
            CHECK_EQ_I64(v->data_page_offset, u->data_page_offset);
            CHECK(v->has_index_page_offset == u->has_index_page_offset &&
                  v->index_page_offset == u->index_page_offset);
            CHECK(v->has_dictionary_page_offset == u->has_dictionary_page_offset &&
                  v->dictionary_page_offset == u->dictionary_page_offset);
            CHECK(v->has_bloom_filter_offset == u->has_bloom_filter_offset &&
                  v->bloom_filter_offset == u->bloom_filter_offset);
            CHECK(v->has_bloom_filter_length == u->has_bloom_filter_length);
            if (u->has_bloom_filter_length) CHECK(v->bloom_filter_length == u->bloom_filter_length);
            CHECK_EQ_I64(v->nkv, u->nkv);
            for (int i = 0; i < u->nkv && i < v->nkv; i++)
                check_kv(&u->kv[i], &v->kv[i]);
            CHECK_EQ_I64(v->n_encoding_stats, u->n_encoding_stats);
            for (int i = 0; i < u->n_encoding_stats && i < v->n_encoding_stats; i++)
                CHECK(v->encoding_stats[i].page_type == u->encoding_stats[i].page_type &&
                      v->encoding_stats[i].encoding == u->encoding_stats[i].encoding &&
                      v->encoding_stats[i].count == u->encoding_stats[i].count);
            CHECK(v->has_stats == u->has_stats);
            if (u->has_stats) check_stats(&u->stats, &v->stats);
        }
    }
}

static void test_file_meta(void)
{
    rich *r = calloc(1, sizeof *r);
    build_rich(r);
    pqt_buf b = {0};
    CHECK_OK(pqt_buf_append(&b, "PAR1", 4));
    CHECK_OK(pqt_meta_encode_file_meta(&b, &r->m));
    size_t flen = b.len - 4;

    pqt_arena ar = {0};
    pqt_file_meta d;
    CHECK_OK(pqt_meta_decode_file(b.data + 4, flen, 4, &ar, &d));
    check_file_meta(&r->m, &d);
    CHECK_EQ_I64(d.row_groups[1].first_row, r->rg[0].num_rows);

    /* Re-encoding the decoded footer (path names put back: the decoder does not keep them)
     * gives the same bytes. */
    for (int g = 0; g < d.n_row_groups; g++)
        for (int c = 0; c < d.row_groups[g].ncolumns; c++)
            d.row_groups[g].columns[c].meta.path_in_schema = r->paths[c];
    pqt_buf b2 = {0};
    CHECK_OK(pqt_meta_encode_file_meta(&b2, &d));
    CHECK(b2.len == flen && memcmp(b2.data, b.data + 4, flen) == 0);
    pqt_arena_free(&ar);

    /* Framed as a file, through footer.c. */
    uint8_t trailer[8] = {(uint8_t)flen,
                          (uint8_t)(flen >> 8),
                          (uint8_t)(flen >> 16),
                          (uint8_t)(flen >> 24),
                          'P',
                          'A',
                          'R',
                          '1'};
    CHECK_OK(pqt_buf_append(&b, trailer, 8));
    pqt_io *io = NULL;
    REQUIRE_OK(pqt_io_open_mem(b.data, b.len, "rich.parquet", &io));
    pqt_arena ar2 = {0};
    pqt_file_meta d2;
    CHECK_OK(pqt_footer_read_io(io, &ar2, &d2));
    check_file_meta(&r->m, &d2);
    pqt_arena_free(&ar2);
    pqt_io_unref(io);

    /* Failures leave the buffer as it was: a TIMESTAMP without a unit, a missing path, and
     * an allocation failure part way. */
    size_t len = b2.len;
    r->schema[4].logical.unit = -1;
    CHECK(pqt_meta_encode_file_meta(&b2, &r->m) == PQT_MISUSE);
    CHECK(b2.len == len);
    r->schema[4].logical.unit = PQT_UNIT_NANOS;
    r->cc[2][5].meta.path_in_schema = NULL;
    CHECK(pqt_meta_encode_file_meta(&b2, &r->m) == PQT_MISUSE);
    CHECK(b2.len == len);
    r->cc[2][5].meta.path_in_schema = r->paths[5];
    pqt_buf small = {0};
    CHECK_OK(pqt_buf_append(&small, "x", 1));
    pqt_mem_fail_after(0);
    pqt_status st = pqt_meta_encode_file_meta(&small, &r->m);
    pqt_mem_fail_after(-1);
    CHECK(st == PQT_NOMEM);
    CHECK(small.len == 1 && small.data[0] == 'x');
    CHECK_OK(pqt_meta_encode_file_meta(&small, &r->m));
    CHECK(small.len == flen + 1);
    pqt_buf_free(&small);
    pqt_buf_free(&b2);
    pqt_buf_free(&b);
    free(r);
}

/* The smallest footer a writer makes, by hand: version 2, schema [root(1 child), x INT32
 * REQUIRED], 0 rows, no row groups, column_orders [TYPE_ORDER]. */
static void test_small_footer_bytes(void)
{
    pqt_schema_elem s[2] = {
        {.name = "r", .type = -1, .repetition = -1, .num_children = 1, .converted_type = -1},
        {.name = "x", .type = PQT_PT_INT32, .repetition = PQT_REP_REQUIRED, .converted_type = -1}};
    int32_t orders[1] = {1};
    pqt_file_meta m = {
        .version = 2, .schema = s, .nschema = 2, .column_orders = orders, .n_column_orders = 1};
    pqt_buf b = {0};
    CHECK_OK(pqt_meta_encode_file_meta(&b, &m));
    static const uint8_t want[] = {0x15, 0x04,                         /* 1: version 2 */
                                   0x19, 0x2c,                         /* 2: list of 2 structs */
                                   0x48, 0x01, 0x72, 0x15, 0x02, 0x00, /* {4: "r", 5: 1} */
                                   0x15, 0x02, 0x25, 0x00, 0x18, 0x01,
                                   0x78, 0x00,                   /* {1: 1, 3: 0, 4: "x"} */
                                   0x16, 0x00,                   /* 3: num_rows 0 */
                                   0x19, 0x0c,                   /* 4: empty list of structs */
                                   0x39, 0x1c, 0x1c, 0x00, 0x00, /* 7: [{1: {}}] */
                                   0x00};
    CHECK(bytes_eq(&b, 0, want, sizeof want));
    pqt_buf_free(&b);
}

/* Every footer of the corpus (parquet-testing's data/ and tests/data/, written by parquet-mr,
 * Arrow, DuckDB, Impala, ...) re-encodes to bytes the decoder reads back field for field.
 * path_in_schema, which the decoder does not keep, comes from the schema's leaves. */
static int corpus_file(const char *path)
{
    pqt_io *io = NULL;
    if (pqt_io_open_path(path, &io) != PQT_OK) return 0;
    pqt_arena ar = {0};
    pqt_file_meta m;
    int done = 0;
    if (pqt_footer_read_io(io, &ar, &m) == PQT_OK) { /* encrypted or damaged: not this test's */
        /* leaf paths: a stack of (name, children left) over the schema in order */
        const char ***paths = calloc((size_t)m.nschema + 1, sizeof *paths);
        int *plen = calloc((size_t)m.nschema + 1, sizeof *plen);
        const char *stack[64];
        int left[64], depth = 0, nleaf = 0;
        for (int i = 1; i < m.nschema; i++) {
            const pqt_schema_elem *e = &m.schema[i];
            while (depth > 0 && left[depth - 1] == 0)
                depth--;
            if (depth > 0) left[depth - 1]--;
            if (e->num_children > 0 && depth < 64) {
                stack[depth] = e->name;
                left[depth++] = e->num_children;
                continue;
            }
            paths[nleaf] = calloc((size_t)depth + 1, sizeof(char *));
            for (int d = 0; d < depth; d++)
                paths[nleaf][d] = stack[d];
            paths[nleaf][depth] = e->name;
            plen[nleaf++] = depth + 1;
        }
        for (int g = 0; g < m.n_row_groups; g++) {
            CHECK(m.row_groups[g].ncolumns == nleaf);
            for (int c = 0; c < m.row_groups[g].ncolumns && c < nleaf; c++) {
                pqt_column_meta *cm = &m.row_groups[g].columns[c].meta;
                CHECK(!cm->path_len || cm->path_len == plen[c]);
                cm->path_in_schema = paths[c];
                cm->path_len = plen[c];
            }
        }
        pqt_buf b = {0};
        pqt_status st = pqt_meta_encode_file_meta(&b, &m);
        if (st != PQT_OK) fprintf(stderr, "  %s: %s\n", path, pqt_errmsg());
        CHECK(st == PQT_OK);
        pqt_arena ar2 = {0};
        pqt_file_meta d;
        if (st == PQT_OK) {
            st = pqt_meta_decode_file(b.data, b.len, 0, &ar2, &d);
            if (st != PQT_OK) fprintf(stderr, "  %s: %s\n", path, pqt_errmsg());
            CHECK(st == PQT_OK);
            int before = pqt_test_failures;
            if (st == PQT_OK) check_file_meta(&m, &d);
            if (pqt_test_failures != before) fprintf(stderr, "  (in %s)\n", path);
        }
        pqt_arena_free(&ar2);
        pqt_buf_free(&b);
        for (int i = 0; i < nleaf; i++)
            free(paths[i]);
        free(paths);
        free(plen);
        done = 1;
    }
    pqt_arena_free(&ar);
    pqt_io_unref(io);
    return done;
}

static void test_corpus(void)
{
    static const char *const dirs[] = {"tests/data/parquet-testing/data",
                                       "tests/data/parquet-testing/data/geospatial", "tests/data"};
    int n = 0;
    for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
        DIR *dir = opendir(dirs[k]);
        CHECK(dir != NULL);
        if (!dir) continue;
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
            size_t len = strlen(de->d_name);
            if (len < 8 || strcmp(de->d_name + len - 8, ".parquet") != 0) continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dirs[k], de->d_name);
            n += corpus_file(path);
        }
        closedir(dir);
    }
    CHECK(n >= 60); /* the corpus is there and was read */
}

int main(void)
{
    test_writer_bytes();
    test_writer_errors();
    test_bloom_header_bytes();
    test_page_header_v1_bytes();
    test_page_headers();
    test_page_index();
    test_file_meta();
    test_small_footer_bytes();
    test_corpus();
    return pqt_test_done("test_meta_encode");
}
