/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_footer.c - footer reading and metadata decoding over the parquet-testing corpus.
 *
 * Expected values for alltypes_plain.parquet and friends were read independently with DuckDB's
 * parquet_metadata()/parquet_schema()/parquet_file_metadata() (@duckdb/node-api), not with pqt.
 * Also: encrypted files are refused, truncated and damaged copies (written to /tmp) are
 * PQT_CORRUPT, a >64 KiB footer takes the second-read path, every corpus file decodes or fails
 * with a clear status, the page index of alltypes_tiny_pages.parquet is consistent, and the
 * first page headers of real column chunks are sane.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/footer.h"
#include "format/meta.h"
#include "testutil.h"
#include "util/error.h"

#define DATA "tests/data/parquet-testing/data/"
#define BAD "tests/data/parquet-testing/bad_data/"

typedef struct opened {
    int fd;
    int64_t size;
    pqt_arena arena;
    pqt_file_meta meta;
} opened;

static pqt_status open_meta(const char *path, opened *o)
{
    memset(o, 0, sizeof *o);
    o->fd = open(path, O_RDONLY);
    if (o->fd < 0) return pqt_err(PQT_IO, "%s: cannot open", path);
    struct stat st;
    fstat(o->fd, &st);
    o->size = st.st_size;
    return pqt_footer_read(o->fd, path, o->size, &o->arena, &o->meta);
}

static void close_meta(opened *o)
{
    if (o->fd >= 0) close(o->fd);
    pqt_arena_free(&o->arena);
}

static uint8_t *read_at(int fd, int64_t off, size_t n)
{
    uint8_t *b = malloc(n ? n : 1);
    if (pread(fd, b, n, off) != (ssize_t)n) {
        free(b);
        return NULL;
    }
    return b;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_alltypes_plain(void)
{
    static const char *const names[] = {"schema",          "id",           "bool_col",
                                        "tinyint_col",     "smallint_col", "int_col",
                                        "bigint_col",      "float_col",    "double_col",
                                        "date_string_col", "string_col",   "timestamp_col"};
    static const int types[] = {-1,
                                PQT_PT_INT32,
                                PQT_PT_BOOLEAN,
                                PQT_PT_INT32,
                                PQT_PT_INT32,
                                PQT_PT_INT32,
                                PQT_PT_INT64,
                                PQT_PT_FLOAT,
                                PQT_PT_DOUBLE,
                                PQT_PT_BYTE_ARRAY,
                                PQT_PT_BYTE_ARRAY,
                                PQT_PT_INT96};
    /* per column: data_page_offset, dictionary_page_offset (0 = absent), total_compressed */
    static const int64_t chunks[11][3] = {{49, 4, 73},    {109, 0, 24},    {189, 168, 47},
                                          {277, 256, 47}, {366, 345, 47},  {458, 429, 55},
                                          {545, 524, 47}, {639, 610, 55},  {766, 705, 88},
                                          {863, 840, 49}, {1040, 929, 139}};
    opened o;
    REQUIRE_OK(open_meta(DATA "alltypes_plain.parquet", &o));
    const pqt_file_meta *m = &o.meta;
    CHECK_EQ_I64(o.size, 1851);
    CHECK_EQ_I64(m->version, 1);
    CHECK_EQ_I64(m->num_rows, 8);
    CHECK_EQ_I64(m->n_row_groups, 1);
    CHECK_EQ_I64(m->nschema, 12);
    CHECK(m->created_by && starts_with(m->created_by, "impala version 1.3.0-INTERNAL"));
    CHECK(!m->has_encryption_algorithm);
    if (m->nschema == 12) {
        CHECK_EQ_I64(m->schema[0].num_children, 11);
        CHECK_EQ_I64(m->schema[0].repetition, -1);
        for (int i = 0; i < 12; i++) {
            CHECK(strcmp(m->schema[i].name, names[i]) == 0);
            CHECK_EQ_I64(m->schema[i].type, types[i]);
            if (i > 0) CHECK_EQ_I64(m->schema[i].repetition, PQT_REP_OPTIONAL);
            CHECK_EQ_I64(m->schema[i].converted_type, -1);
            CHECK_EQ_I64(m->schema[i].logical.id, PQT_LT_NONE);
        }
    }
    if (m->n_row_groups == 1) {
        const pqt_row_group *g = &m->row_groups[0];
        CHECK_EQ_I64(g->num_rows, 8);
        CHECK_EQ_I64(g->ncolumns, 11);
        for (int c = 0; c < g->ncolumns && c < 11; c++) {
            const pqt_column_chunk *cc = &g->columns[c];
            const pqt_column_meta *cm = &cc->meta;
            CHECK(cc->has_meta && !cc->encrypted && cc->file_path == NULL);
            CHECK_EQ_I64(cm->type, types[c + 1]);
            CHECK(cm->path_len == 1);
            CHECK_EQ_I64(cm->codec, PQT_CODEC_UNCOMPRESSED);
            CHECK_EQ_I64(cm->num_values, 8);
            CHECK_EQ_I64(cm->data_page_offset, chunks[c][0]);
            CHECK_EQ_I64(cm->has_dictionary_page_offset, chunks[c][1] != 0);
            if (chunks[c][1]) CHECK_EQ_I64(cm->dictionary_page_offset, chunks[c][1]);
            CHECK_EQ_I64(cm->total_compressed_size, chunks[c][2]);
            CHECK_EQ_I64(cm->total_uncompressed_size, chunks[c][2]);
            /* DuckDB lists "RLE, PLAIN_DICTIONARY, PLAIN" */
            CHECK_EQ_I64(cm->n_encodings, 3);
            if (cm->n_encodings == 3) {
                CHECK_EQ_I64(cm->encodings[0], PQT_ENC_RLE);
                CHECK_EQ_I64(cm->encodings[1], PQT_ENC_PLAIN_DICTIONARY);
                CHECK_EQ_I64(cm->encodings[2], PQT_ENC_PLAIN);
            }
        }
    }

    /* The first page of "id" is its dictionary page at 4; the next one is the data page at 49. */
    const pqt_column_meta *cm = &m->row_groups[0].columns[0].meta;
    uint8_t *b = read_at(o.fd, 4, (size_t)cm->total_compressed_size);
    CHECK(b != NULL);
    if (b) {
        pqt_page_header h;
        size_t hn = 0;
        size_t n = (size_t)cm->total_compressed_size;
        CHECK_OK(pqt_meta_decode_page_header(b, n, 4, &h, &hn));
        CHECK_EQ_I64(h.type, PQT_PAGE_DICTIONARY);
        CHECK(h.has_dict_header && h.num_values == 8);
        CHECK(h.compressed_size == h.uncompressed_size && h.compressed_size == 8 * 4);
        CHECK(hn + (size_t)h.compressed_size <= n);
        size_t next = hn + (size_t)h.compressed_size;
        CHECK_EQ_I64(4 + (int64_t)next, 49);
        CHECK_OK(pqt_meta_decode_page_header(b + next, n - next, 4 + (int64_t)next, &h, &hn));
        CHECK_EQ_I64(h.type, PQT_PAGE_DATA);
        CHECK(h.has_data_header && h.num_values == 8);
        CHECK(h.encoding == PQT_ENC_PLAIN_DICTIONARY || h.encoding == PQT_ENC_RLE_DICTIONARY);
        CHECK(next + hn + (size_t)h.compressed_size == n);
        free(b);
    }
    close_meta(&o);
}

/* Logical types read independently with DuckDB parquet_schema(). */
static void test_logical_types(void)
{
    opened o;
    REQUIRE_OK(open_meta(DATA "alltypes_tiny_pages.parquet", &o));
    CHECK_EQ_I64(o.meta.num_rows, 7300);
    for (int i = 0; i < o.meta.nschema; i++) {
        const pqt_schema_elem *e = &o.meta.schema[i];
        if (strcmp(e->name, "tinyint_col") == 0 || strcmp(e->name, "smallint_col") == 0) {
            CHECK_EQ_I64(e->logical.id, PQT_LT_INTEGER);
            CHECK_EQ_I64(e->logical.bit_width, e->name[0] == 't' ? 8 : 16);
            CHECK(e->logical.is_signed);
        }
    }
    close_meta(&o);
    REQUIRE_OK(open_meta(DATA "concatenated_gzip_members.parquet", &o));
    CHECK(o.meta.nschema == 2 && strcmp(o.meta.schema[1].name, "long_col") == 0);
    CHECK_EQ_I64(o.meta.schema[1].logical.id, PQT_LT_INTEGER);
    CHECK_EQ_I64(o.meta.schema[1].logical.bit_width, 64);
    CHECK(!o.meta.schema[1].logical.is_signed);
    close_meta(&o);
    REQUIRE_OK(open_meta(DATA "byte_stream_split_extended.gzip.parquet", &o));
    int ndec = 0;
    for (int i = 0; i < o.meta.nschema; i++) {
        const pqt_schema_elem *e = &o.meta.schema[i];
        if (strcmp(e->name, "decimal_plain") == 0) {
            CHECK_EQ_I64(e->type, PQT_PT_FIXED_LEN_BYTE_ARRAY);
            CHECK_EQ_I64(e->logical.id, PQT_LT_DECIMAL);
            CHECK_EQ_I64(e->logical.scale, 3);
            CHECK_EQ_I64(e->logical.precision, 7);
            ndec++;
        }
    }
    CHECK_EQ_I64(ndec, 1);
    close_meta(&o);
    REQUIRE_OK(open_meta(DATA "int32_decimal.parquet", &o));
    CHECK(o.meta.nschema == 2 && o.meta.schema[1].converted_type == PQT_CT_DECIMAL);
    CHECK(o.meta.schema[1].has_scale && o.meta.schema[1].scale == 2);
    CHECK(o.meta.schema[1].has_precision && o.meta.schema[1].precision == 4);
    close_meta(&o);
}

/* alltypes_tiny_pages.parquet (parquet-mr 1.12): 13 columns, 7300 rows, many small pages. Its
 * dictionary-encoded chunks have no dictionary_page_offset: data_page_offset points at the
 * dictionary page, and the offset index (data pages only) starts after it. INT96 has no
 * defined order, so parquet-mr writes no column index for timestamp_col. */
static void test_page_index(void)
{
    opened o;
    REQUIRE_OK(open_meta(DATA "alltypes_tiny_pages.parquet", &o));
    CHECK_EQ_I64(o.size, 454233);
    const pqt_row_group *g = &o.meta.row_groups[0];
    CHECK_EQ_I64(g->ncolumns, 13);
    int ndict = 0;
    for (int c = 0; c < g->ncolumns; c++) {
        const pqt_column_chunk *cc = &g->columns[c];
        bool int96 = cc->meta.type == PQT_PT_INT96;
        CHECK(cc->has_offset_index);
        CHECK(cc->has_column_index == !int96);
        if (!cc->has_offset_index) continue;
        CHECK(cc->offset_index_offset > 0 && cc->offset_index_length > 0);
        CHECK(cc->offset_index_offset + cc->offset_index_length <= o.size);
        uint8_t *ob = read_at(o.fd, cc->offset_index_offset, (size_t)cc->offset_index_length);
        pqt_offset_index oi;
        CHECK_OK(pqt_meta_decode_offset_index(ob, (size_t)cc->offset_index_length,
                                              cc->offset_index_offset, &o.arena, &oi));
        free(ob);
        CHECK(oi.npages > 1); /* "tiny pages" */
        if (oi.npages < 1) continue;
        pqt_column_index ci = {0};
        if (cc->has_column_index) {
            CHECK(cc->column_index_offset + cc->column_index_length <= o.size);
            uint8_t *cb = read_at(o.fd, cc->column_index_offset, (size_t)cc->column_index_length);
            CHECK_OK(pqt_meta_decode_column_index(cb, (size_t)cc->column_index_length,
                                                  cc->column_index_offset, &o.arena, &ci));
            free(cb);
            CHECK_EQ_I64(ci.npages, oi.npages);
            CHECK(ci.boundary_order >= PQT_ORDER_UNORDERED &&
                  ci.boundary_order <= PQT_ORDER_DESCENDING);
            CHECK(ci.null_counts != NULL);
        }
        CHECK_EQ_I64(oi.pages[0].first_row_index, 0);
        int64_t chunk_end = cc->meta.data_page_offset + cc->meta.total_compressed_size;
        for (int p = 0; p < oi.npages; p++) {
            const pqt_page_location *l = &oi.pages[p];
            CHECK(l->offset >= cc->meta.data_page_offset && l->compressed_page_size > 0);
            CHECK(l->offset + l->compressed_page_size <= chunk_end);
            CHECK(l->first_row_index < g->num_rows);
            if (p > 0) {
                CHECK(l->first_row_index > oi.pages[p - 1].first_row_index);
                CHECK(l->offset >= oi.pages[p - 1].offset + oi.pages[p - 1].compressed_page_size);
            }
            if (ci.npages == oi.npages) {
                CHECK(ci.null_pages[p] == false); /* no nulls in alltypes */
                CHECK(ci.null_counts[p] == 0);
            }
        }
        /* The chunk starts with a dictionary page exactly when the offset index does not start
         * at data_page_offset, and then the first data page follows it immediately. */
        size_t n = (size_t)(oi.pages[0].offset + oi.pages[0].compressed_page_size -
                            cc->meta.data_page_offset);
        uint8_t *pb = read_at(o.fd, cc->meta.data_page_offset, n);
        pqt_page_header h;
        size_t hn = 0;
        CHECK_OK(pqt_meta_decode_page_header(pb, n, cc->meta.data_page_offset, &h, &hn));
        size_t at = 0;
        if (oi.pages[0].offset != cc->meta.data_page_offset) {
            CHECK_EQ_I64(h.type, PQT_PAGE_DICTIONARY);
            CHECK(h.has_dict_header && h.num_values > 0);
            at = hn + (size_t)h.compressed_size;
            CHECK_EQ_I64(cc->meta.data_page_offset + (int64_t)at, oi.pages[0].offset);
            CHECK_OK(pqt_meta_decode_page_header(pb + at, n - at,
                                                 cc->meta.data_page_offset + (int64_t)at, &h, &hn));
            ndict++;
        }
        CHECK(h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2);
        CHECK(h.num_values > 0 && h.num_values <= oi.pages[1].first_row_index);
        /* the offset index's compressed_page_size includes the page header */
        CHECK_EQ_I64((int64_t)hn + h.compressed_size, oi.pages[0].compressed_page_size);
        free(pb);
    }
    CHECK_EQ_I64(ndict, 11); /* DuckDB: all but id and bool_col list PLAIN_DICTIONARY */
    close_meta(&o);
}

static void test_bloom(void)
{
    opened o;
    REQUIRE_OK(open_meta(DATA "data_index_bloom_encoding_stats.parquet", &o));
    const pqt_column_meta *cm = &o.meta.row_groups[0].columns[0].meta;
    CHECK(cm->has_bloom_filter_offset && cm->bloom_filter_offset == 192);
    CHECK(!cm->has_bloom_filter_length);
    CHECK(cm->has_stats && cm->stats.has_min_value && cm->stats.has_max_value);
    CHECK(strcmp((const char *)cm->stats.min_value, "Hello") == 0);
    CHECK(strcmp((const char *)cm->stats.max_value, "today") == 0);
    CHECK(cm->stats.has_null_count && cm->stats.null_count == 0);
    CHECK(cm->n_encoding_stats > 0);
    size_t n = (size_t)(o.size - cm->bloom_filter_offset);
    uint8_t *b = read_at(o.fd, cm->bloom_filter_offset, n);
    pqt_bloom_header bh;
    size_t hn;
    CHECK_OK(pqt_meta_decode_bloom_header(b, n, cm->bloom_filter_offset, &bh, &hn));
    CHECK(bh.algorithm_id == 1 && bh.hash_id == 1 && bh.compression_id == 1);
    CHECK(bh.num_bytes >= 32 && (bh.num_bytes & (bh.num_bytes - 1)) == 0);
    CHECK(hn + (size_t)bh.num_bytes <= n);
    free(b);
    close_meta(&o);
}

static void test_encrypted(void)
{
    static const char *const files[] = {
        DATA "encrypt_columns_and_footer.parquet.encrypted",
        DATA "encrypt_columns_and_footer_aad.parquet.encrypted",
        DATA "encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
        DATA "encrypt_columns_and_footer_ctr.parquet.encrypted",
        DATA "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        DATA "encrypt_columns_plaintext_footer.parquet.encrypted",
        DATA "external_key_material_java.parquet.encrypted",
        DATA "uniform_encryption.parquet.encrypted",
        DATA "aes256/encrypt_columns_and_footer.parquet.encrypted",
        DATA "aes256/encrypt_columns_plaintext_footer.parquet.encrypted",
        DATA "aes256/uniform_encryption.parquet.encrypted"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        opened o;
        CHECK_EQ_I64(open_meta(files[i], &o), PQT_UNSUPPORTED_ENCRYPTED);
        CHECK(starts_with(pqt_errmsg(), files[i]));
        bool plaintext = strstr(files[i], "plaintext_footer") != NULL;
        CHECK(strstr(pqt_errmsg(), plaintext ? "encrypted files are not supported (encrypted "
                                               "columns)"
                                             : "encrypted files are not supported (encrypted "
                                               "footer)") != NULL);
        close_meta(&o);
    }
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(b, 1, n, f);
        fclose(f);
    }
}

static void test_damaged(void)
{
    int fd = open(DATA "alltypes_plain.parquet", O_RDONLY);
    uint8_t *b = read_at(fd, 0, 1851);
    close(fd);
    if (!b) {
        CHECK(b != NULL);
        return;
    }
    static const char tmp[] = "/tmp/pqt_test_footer_damaged.parquet";
    opened o;
    /* truncations: the tail magic goes missing, or the file is too small */
    static const size_t cuts[] = {1850, 1000, 13, 12, 11, 4, 0};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        write_file(tmp, b, cuts[i]);
        CHECK_EQ_I64(open_meta(tmp, &o), PQT_CORRUPT);
        CHECK(starts_with(pqt_errmsg(), tmp));
        close_meta(&o);
    }
    /* footer length larger than the file: the message names the length and the size */
    uint8_t *c = malloc(1851);
    memcpy(c, b, 1851);
    c[1843] = 0xff;
    c[1844] = 0xff;
    write_file(tmp, c, 1851);
    CHECK_EQ_I64(open_meta(tmp, &o), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "65535") && strstr(pqt_errmsg(), "1851"));
    close_meta(&o);
    /* bad leading magic */
    memcpy(c, b, 1851);
    c[0] = 'X';
    write_file(tmp, c, 1851);
    CHECK_EQ_I64(open_meta(tmp, &o), PQT_CORRUPT);
    close_meta(&o);
    /* metadata bytes damaged: corrupt, with the path and an absolute byte offset */
    memcpy(c, b, 1851);
    memset(c + 1851 - 8 - 730 + 20, 0xff, 40); /* footer is 730 bytes (DuckDB footer_size) */
    write_file(tmp, c, 1851);
    CHECK_EQ_I64(open_meta(tmp, &o), PQT_CORRUPT);
    CHECK(starts_with(pqt_errmsg(), tmp) && strstr(pqt_errmsg(), "corrupt footer at byte"));
    close_meta(&o);
    /* every truncation of the footer body (length adjusted to match) is corrupt */
    for (uint32_t len = 0; len < 730; len += 7) {
        size_t n = 1851 - 8 - 730 + len;
        memcpy(c, b, n);
        c[n] = (uint8_t)len;
        c[n + 1] = (uint8_t)(len >> 8);
        c[n + 2] = c[n + 3] = 0;
        memcpy(c + n + 4, "PAR1", 4);
        write_file(tmp, c, n + 8);
        CHECK_EQ_I64(open_meta(tmp, &o), PQT_CORRUPT);
        close_meta(&o);
    }
    free(c);
    free(b);
    unlink(tmp);
}

/* A synthetic file whose footer is larger than the 64 KiB tail read. */
static void test_big_footer(void)
{
    enum { VALN = 100000 };
    size_t cap = VALN + 256, n = 0;
    uint8_t *b = malloc(cap);
    memcpy(b, "PAR1", 4);
    n = 4;
    size_t start = n;
    b[n++] = 0x15; /* 1: version i32 */
    b[n++] = 2;
    b[n++] = 0x19; /* 2: schema list<struct>, 1 element */
    b[n++] = 0x1c;
    b[n++] = 0x48; /* 4: name binary */
    b[n++] = 4;
    memcpy(b + n, "root", 4);
    n += 4;
    b[n++] = 0;
    b[n++] = 0x16; /* 3: num_rows i64 = 0 */
    b[n++] = 0;
    b[n++] = 0x19; /* 4: row_groups, empty */
    b[n++] = 0x0c;
    b[n++] = 0x19; /* 5: key_value_metadata, 1 element */
    b[n++] = 0x1c;
    b[n++] = 0x18; /* key */
    b[n++] = 1;
    b[n++] = 'k';
    b[n++] = 0x18; /* value: VALN bytes */
    for (uint32_t v = VALN; v >= 0x80; v >>= 7)
        b[n++] = (uint8_t)(v | 0x80);
    b[n++] = (uint8_t)(VALN >> 14);
    memset(b + n, 'v', VALN);
    n += VALN;
    b[n++] = 0;
    b[n++] = 0;
    uint32_t len = (uint32_t)(n - start);
    for (int i = 0; i < 4; i++)
        b[n++] = (uint8_t)(len >> (8 * i));
    memcpy(b + n, "PAR1", 4);
    n += 4;
    static const char tmp[] = "/tmp/pqt_test_footer_big.parquet";
    write_file(tmp, b, n);
    opened o;
    REQUIRE_OK(open_meta(tmp, &o));
    CHECK(o.meta.nkv == 1 && o.meta.kv[0].value_len == VALN);
    CHECK(o.meta.nkv == 1 && o.meta.kv[0].value[VALN - 1] == 'v' && o.meta.kv[0].value[VALN] == 0);
    CHECK(o.meta.nschema == 1 && strcmp(o.meta.schema[0].name, "root") == 0);
    close_meta(&o);
    free(b);
    unlink(tmp);
}

/* Every file decodes or fails cleanly; first page headers of decoded files are probed too. */
static void sweep_dir(const char *dir, int *nok, int *nfail)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strstr(e->d_name, ".parquet")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s%s", dir, e->d_name);
        opened o;
        pqt_status st = open_meta(path, &o);
        CHECK(st == PQT_OK || st == PQT_CORRUPT || st == PQT_UNSUPPORTED_ENCRYPTED);
        if (st != PQT_OK) {
            CHECK(starts_with(pqt_errmsg(), path));
            (*nfail)++;
            if (getenv("PQT_TEST_VERBOSE")) printf("%s: %s\n", pqt_status_name(st), pqt_errmsg());
            close_meta(&o);
            continue;
        }
        (*nok)++;
        CHECK(o.meta.nschema > 0);
        for (int g = 0; g < o.meta.n_row_groups; g++) {
            for (int c = 0; c < o.meta.row_groups[g].ncolumns; c++) {
                const pqt_column_meta *cm = &o.meta.row_groups[g].columns[c].meta;
                int64_t off = cm->data_page_offset;
                if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
                    cm->dictionary_page_offset < off)
                    off = cm->dictionary_page_offset;
                if (off < 4 || off >= o.size) continue;
                size_t n = (size_t)(o.size - off < 4096 ? o.size - off : 4096);
                uint8_t *b = read_at(o.fd, off, n);
                pqt_page_header h;
                size_t hn;
                st = pqt_meta_decode_page_header(b, n, off, &h, &hn);
                CHECK(st == PQT_OK || st == PQT_CORRUPT);
                if (st == PQT_OK) {
                    CHECK(hn <= n && h.compressed_size >= 0 && h.uncompressed_size >= 0);
                    CHECK(h.type >= PQT_PAGE_DATA && h.type <= PQT_PAGE_DATA_V2);
                } else if (getenv("PQT_TEST_VERBOSE")) {
                    printf("%s col %d: %s\n", path, c, pqt_errmsg());
                }
                free(b);
            }
        }
        close_meta(&o);
    }
    closedir(d);
}

static void test_sweep(void)
{
    int nok = 0, nfail = 0;
    sweep_dir(DATA, &nok, &nfail);
    sweep_dir(DATA "aes256/", &nok, &nfail);
    sweep_dir(DATA "geospatial/", &nok, &nfail);
    sweep_dir(BAD, &nok, &nfail);
    CHECK(nok >= 70);
    printf("corpus sweep: %d decoded, %d refused\n", nok, nfail);
    /* a pre-release parquet-mr wrote a list at ColumnMetaData field 15 (now the i32
     * bloom_filter_length): skipped, not corrupt. DuckDB: dictionary_page_offset 0, data at 4. */
    opened z;
    REQUIRE_OK(open_meta(DATA "dict-page-offset-zero.parquet", &z));
    if (z.meta.n_row_groups == 1) {
        const pqt_column_meta *cm = &z.meta.row_groups[0].columns[0].meta;
        CHECK(!cm->has_bloom_filter_length && cm->n_encoding_stats == 1);
        CHECK(cm->has_dictionary_page_offset && cm->dictionary_page_offset == 0);
        CHECK_EQ_I64(cm->data_page_offset, 4);
        CHECK_EQ_I64(cm->num_values, 39);
        CHECK(z.meta.n_column_orders == 1 && z.meta.column_orders[0] == 1);
    }
    close_meta(&z);
    /* the negative dictionary num_values of ARROW-RS-GH-6229 is caught in the page header */
    opened o;
    REQUIRE_OK(open_meta(BAD "ARROW-RS-GH-6229-DICTHEADER.parquet", &o));
    if (o.meta.n_row_groups > 0 && o.meta.row_groups[0].ncolumns > 1) {
        const pqt_column_meta *cm = &o.meta.row_groups[0].columns[1].meta;
        int64_t off = cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0
                          ? cm->dictionary_page_offset
                          : cm->data_page_offset;
        uint8_t *b = read_at(o.fd, off, 64);
        pqt_page_header h;
        size_t hn;
        CHECK(b != NULL);
        if (b) {
            CHECK_EQ_I64(pqt_meta_decode_page_header(b, 64, off, &h, &hn), PQT_CORRUPT);
            CHECK(strstr(pqt_errmsg(), "DictionaryPageHeader.num_values is negative") != NULL);
        }
        free(b);
    }
    close_meta(&o);
}

int main(void)
{
    test_alltypes_plain();
    test_logical_types();
    test_page_index();
    test_bloom();
    test_encrypted();
    test_damaged();
    test_big_footer();
    test_sweep();
    return pqt_test_done("test_footer");
}
