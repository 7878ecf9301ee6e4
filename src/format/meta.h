/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta.h - decoded Parquet metadata structures (layer: format).
 *
 * These mirror parquet.thrift (FileMetaData, SchemaElement, LogicalType, RowGroup,
 * ColumnChunk, ColumnMetaData, Statistics, PageHeader, ColumnIndex, OffsetIndex,
 * BloomFilterHeader), keeping only what a reader needs. Every pointer inside a
 * decoded structure points into the pqt_arena passed to the decoder (byte strings
 * are arena copies, NUL-terminated for convenience), so freeing the arena frees all.
 * Optional Thrift fields carry a has_* flag; enums keep the file's raw value so
 * that an unknown value can be reported rather than silently mapped.
 */
#ifndef PQT_FORMAT_META_H
#define PQT_FORMAT_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pqt.h"
#include "util/buf.h"

/* parquet.thrift enum Type */
enum {
    PQT_PT_BOOLEAN = 0,
    PQT_PT_INT32 = 1,
    PQT_PT_INT64 = 2,
    PQT_PT_INT96 = 3,
    PQT_PT_FLOAT = 4,
    PQT_PT_DOUBLE = 5,
    PQT_PT_BYTE_ARRAY = 6,
    PQT_PT_FIXED_LEN_BYTE_ARRAY = 7
};

/* enum ConvertedType */
enum {
    PQT_CT_UTF8 = 0, PQT_CT_MAP = 1, PQT_CT_MAP_KEY_VALUE = 2, PQT_CT_LIST = 3, PQT_CT_ENUM = 4,
    PQT_CT_DECIMAL = 5, PQT_CT_DATE = 6, PQT_CT_TIME_MILLIS = 7, PQT_CT_TIME_MICROS = 8,
    PQT_CT_TIMESTAMP_MILLIS = 9, PQT_CT_TIMESTAMP_MICROS = 10, PQT_CT_UINT_8 = 11,
    PQT_CT_UINT_16 = 12, PQT_CT_UINT_32 = 13, PQT_CT_UINT_64 = 14, PQT_CT_INT_8 = 15,
    PQT_CT_INT_16 = 16, PQT_CT_INT_32 = 17, PQT_CT_INT_64 = 18, PQT_CT_JSON = 19,
    PQT_CT_BSON = 20, PQT_CT_INTERVAL = 21
};

/* enum FieldRepetitionType */
enum { PQT_REP_REQUIRED = 0, PQT_REP_OPTIONAL = 1, PQT_REP_REPEATED = 2 };

/* enum Encoding */
enum {
    PQT_ENC_PLAIN = 0, PQT_ENC_PLAIN_DICTIONARY = 2, PQT_ENC_RLE = 3, PQT_ENC_BIT_PACKED = 4,
    PQT_ENC_DELTA_BINARY_PACKED = 5, PQT_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
    PQT_ENC_DELTA_BYTE_ARRAY = 7, PQT_ENC_RLE_DICTIONARY = 8, PQT_ENC_BYTE_STREAM_SPLIT = 9
};

/* enum CompressionCodec */
enum {
    PQT_CODEC_UNCOMPRESSED = 0, PQT_CODEC_SNAPPY = 1, PQT_CODEC_GZIP = 2, PQT_CODEC_LZO = 3,
    PQT_CODEC_BROTLI = 4, PQT_CODEC_LZ4 = 5, PQT_CODEC_ZSTD = 6, PQT_CODEC_LZ4_RAW = 7
};

/* enum PageType */
enum {
    PQT_PAGE_DATA = 0, PQT_PAGE_INDEX = 1, PQT_PAGE_DICTIONARY = 2, PQT_PAGE_DATA_V2 = 3
};

/* enum BoundaryOrder */
enum { PQT_ORDER_UNORDERED = 0, PQT_ORDER_ASCENDING = 1, PQT_ORDER_DESCENDING = 2 };

/* The LogicalType union: `id` is the Thrift field id of the member that was set
 * (0 = no logical type). */
enum {
    PQT_LT_NONE = 0, PQT_LT_STRING = 1, PQT_LT_MAP = 2, PQT_LT_LIST = 3, PQT_LT_ENUM = 4,
    PQT_LT_DECIMAL = 5, PQT_LT_DATE = 6, PQT_LT_TIME = 7, PQT_LT_TIMESTAMP = 8,
    PQT_LT_INTEGER = 10, PQT_LT_UNKNOWN = 11, PQT_LT_JSON = 12, PQT_LT_BSON = 13,
    PQT_LT_UUID = 14, PQT_LT_FLOAT16 = 15, PQT_LT_VARIANT = 16, PQT_LT_GEOMETRY = 17,
    PQT_LT_GEOGRAPHY = 18
};

/* Per-leaf structures below are ordered widest field first and use the narrowest type that
 * holds every value the format allows: a footer can have millions of leaves. */
typedef struct pqt_logical_type {
    int id;            /* PQT_LT_*, or another field id for a member we do not know */
    int32_t scale;     /* DECIMAL */
    int32_t precision;
    int16_t bit_width; /* INTEGER (an i8 in parquet.thrift; clamped) */
    int8_t unit;       /* TIME / TIMESTAMP: pqt_time_unit (0 ms, 1 us, 2 ns), -1 unknown */
    bool utc;          /* TIME / TIMESTAMP isAdjustedToUTC */
    bool is_signed;    /* INTEGER */
} pqt_logical_type;

typedef struct pqt_schema_elem {
    const char *name;
    int type;            /* PQT_PT_*, -1 when absent (group node) */
    int32_t type_length; /* FIXED_LEN_BYTE_ARRAY width, 0 when absent */
    int repetition;      /* PQT_REP_*, -1 when absent (root) */
    int32_t num_children;
    int converted_type; /* PQT_CT_*, -1 when absent */
    int32_t scale, precision;
    int32_t field_id;
    pqt_logical_type logical;
    bool has_scale, has_precision, has_field_id;
} pqt_schema_elem;

typedef struct pqt_kv {
    const char *key;
    const char *value; /* NULL when the value is absent */
    uint32_t key_len, value_len;
} pqt_kv;

typedef struct pqt_stats {
    const uint8_t *max, *min;             /* deprecated fields 1/2 (signed order) */
    const uint8_t *max_value, *min_value; /* fields 5/6 (column order) */
    uint32_t max_len, min_len;
    uint32_t max_value_len, min_value_len;
    int64_t null_count, distinct_count;
    int64_t nan_count; /* field 9 in recent parquet.thrift */
    bool has_max, has_min;
    bool has_max_value, has_min_value;
    bool has_null_count, has_distinct_count;
    bool is_max_value_exact, is_min_value_exact;
    bool has_is_max_value_exact, has_is_min_value_exact;
    bool has_nan_count;
} pqt_stats;

typedef struct pqt_page_enc_stats {
    int page_type;
    int encoding;
    int32_t count;
} pqt_page_enc_stats;

typedef struct pqt_column_meta {
    int32_t *encodings;
    pqt_kv *kv;
    pqt_page_enc_stats *encoding_stats;
    int64_t num_values;
    int64_t total_uncompressed_size;
    int64_t total_compressed_size;
    int64_t data_page_offset;
    int64_t index_page_offset;
    int64_t dictionary_page_offset;
    int64_t bloom_filter_offset;
    pqt_stats stats;
    int type;  /* PQT_PT_* */
    int codec; /* PQT_CODEC_* */
    int n_encodings;
    int path_len; /* elements of path_in_schema (checked, not kept: the schema has them) */
    int nkv;
    int n_encoding_stats;
    int32_t bloom_filter_length;
    bool has_index_page_offset;
    bool has_dictionary_page_offset;
    bool has_stats;
    bool has_bloom_filter_offset;
    bool has_bloom_filter_length;
    /* path_len names, root excluded; written by format/meta_encode.c (path_in_schema is
     * required there), left NULL by the decoder, which does not keep it */
    const char *const *path_in_schema;
} pqt_column_meta;

typedef struct pqt_column_chunk {
    const char *file_path; /* NULL unless the chunk lives in another file */
    int64_t file_offset;
    pqt_column_meta meta;
    int64_t offset_index_offset;
    int64_t column_index_offset;
    int32_t offset_index_length;
    int32_t column_index_length;
    bool has_meta;
    bool has_offset_index;
    bool has_column_index;
    bool encrypted; /* crypto_metadata or encrypted_column_metadata present */
    /* made for a dataset, never read from a footer: every row holds the one value in
     * meta.stats.min_value (a hive partition's), or is null when meta.stats.null_count is the
     * row count (a column its file lacks); no pages, nothing to read (column/chunk_src.c) */
    bool is_constant;
} pqt_column_chunk;

typedef struct pqt_sorting_column {
    int32_t column_idx;
    bool descending;
    bool nulls_first;
} pqt_sorting_column;

typedef struct pqt_row_group {
    pqt_column_chunk *columns;
    int ncolumns;
    int64_t total_byte_size;
    int64_t num_rows;
    pqt_sorting_column *sorting;
    int n_sorting;
    int64_t file_offset;
    bool has_file_offset;
    int64_t total_compressed_size;
    bool has_total_compressed_size;
    int32_t ordinal;
    bool has_ordinal;
    int64_t first_row; /* rows of the row groups before this one (saturating) */
} pqt_row_group;

typedef struct pqt_file_meta {
    int32_t version;
    pqt_schema_elem *schema;
    int nschema;
    int64_t num_rows;
    pqt_row_group *row_groups;
    int n_row_groups;
    pqt_kv *kv;
    int nkv;
    const char *created_by; /* NULL when absent */
    int32_t *column_orders; /* field id of each ColumnOrder union member (1 = TYPE_ORDER) */
    int n_column_orders;
    bool has_encryption_algorithm; /* plaintext-footer encrypted file */
} pqt_file_meta;

typedef struct pqt_page_header {
    int type; /* PQT_PAGE_* (raw value) */
    int32_t uncompressed_size;
    int32_t compressed_size;
    uint32_t crc;
    bool has_crc;
    /* data page v1 and v2 */
    int32_t num_values;
    int encoding;
    /* v1 only */
    int def_level_encoding;
    int rep_level_encoding;
    /* v2 only */
    int32_t num_nulls;
    int32_t num_rows;
    int32_t def_levels_nbytes;
    int32_t rep_levels_nbytes;
    bool is_compressed; /* default true */
    /* dictionary page: num_values, encoding, is_sorted */
    bool is_sorted;
    bool has_data_header, has_data_v2_header, has_dict_header;
    /* data page v1/v2 Statistics, written when non-NULL; the decoder skips them (NULL) */
    const pqt_stats *stats;
} pqt_page_header;

typedef struct pqt_column_index {
    bool *null_pages;
    int npages;
    const uint8_t **min_values, **max_values;
    uint32_t *min_lens, *max_lens;
    int boundary_order;
    int64_t *null_counts; /* NULL when absent; else npages entries */
    int64_t *nan_counts;  /* NULL when absent; else npages entries */
} pqt_column_index;

typedef struct pqt_page_location {
    int64_t offset;
    int32_t compressed_page_size;
    int64_t first_row_index;
} pqt_page_location;

typedef struct pqt_offset_index {
    pqt_page_location *pages;
    int npages;
    /* npages entries of OffsetIndex.unencoded_byte_array_data_bytes, written when non-NULL;
     * the decoder skips them (NULL) */
    int64_t *unencoded_byte_array_data_bytes;
} pqt_offset_index;

typedef struct pqt_bloom_header {
    int32_t num_bytes;
    int algorithm_id;   /* field id of the algorithm union member (1 = BLOCK) */
    int hash_id;        /* 1 = XXHASH */
    int compression_id; /* 1 = UNCOMPRESSED */
} pqt_bloom_header;

/* Decode a FileMetaData from buf[0..n). base_offset is the file offset of buf[0], used only
 * in error messages ("corrupt footer at byte 1234: ..."). PQT_CORRUPT on malformed input. */
pqt_status pqt_meta_decode_file(const uint8_t *buf, size_t n, int64_t base_offset,
                                pqt_arena *arena, pqt_file_meta *out);

/* Decode a PageHeader at the start of buf[0..n); *header_nbytes_ret = bytes it occupied.
 * Needs no arena (statistics inside page headers are skipped). */
pqt_status pqt_meta_decode_page_header(const uint8_t *buf, size_t n, int64_t base_offset,
                                       pqt_page_header *out, size_t *header_nbytes_ret);

pqt_status pqt_meta_decode_column_index(const uint8_t *buf, size_t n, int64_t base_offset,
                                        pqt_arena *arena, pqt_column_index *out);
pqt_status pqt_meta_decode_offset_index(const uint8_t *buf, size_t n, int64_t base_offset,
                                        pqt_arena *arena, pqt_offset_index *out);
pqt_status pqt_meta_decode_bloom_header(const uint8_t *buf, size_t n, int64_t base_offset,
                                        pqt_bloom_header *out, size_t *header_nbytes_ret);

#endif
