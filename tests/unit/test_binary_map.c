/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_binary_map.c - plain BYTE_ARRAY and unannotated FIXED_LEN_BYTE_ARRAY read as
 * PQT_BINARY, and MAP columns read as one list column per key/value field.
 *
 * Truth: tests/data/kinds_binary_map.parquet is written by DuckDB from the literals in
 * tests/data/make_kinds.mjs (b = 'ab\x00\xff', NULL, '', '\x01'; m = {a:1, b:2}, NULL, {},
 * {c:NULL, d:4}; n = {7:'x'}, {}, NULL, {8:NULL, 9:'yz'}); the FLBA values are DuckDB's
 * reading of the corpus file (tests/golden/expected/fixed_length_byte_array.parquet.jsonl:
 * row 1 "AAAD6A==" = 00 00 03 e8, row 2 null).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

#define KINDS "tests/data/kinds_binary_map.parquet"

static int bit(const uint8_t *v, int64_t i)
{
    return !v || (v[i >> 3] >> (i & 7)) & 1;
}

static void check_binary_values(pqt_table *t, const char *name)
{
    int64_t *off = NULL, n = 0;
    char *bytes = NULL;
    uint8_t *valid = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(t, name, &off, &bytes, &valid, &n));
    CHECK_EQ_I64(n, 4);
    if (off && n == 4) {
        CHECK_EQ_I64(off[1] - off[0], 4);
        CHECK(memcmp(bytes + off[0], "ab\0\xff", 4) == 0);
        CHECK(valid && !bit(valid, 1)); /* NULL */
        CHECK(bit(valid, 2));           /* '' is present and empty */
        CHECK_EQ_I64(off[3] - off[2], 0);
        CHECK_EQ_I64(off[4] - off[3], 1);
        CHECK_EQ_I64((unsigned char)bytes[off[3]], 1);
    }
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(valid);
}

static void binary_column(void)
{
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(KINDS, NULL, &t));
    int k = -1;
    CHECK_OK(pqt_table_kind(t, "b", &k));
    CHECK_EQ_I64(k, PQT_BINARY);
    CHECK(strcmp(pqt_kind_name(PQT_BINARY), "binary") == 0);
    CHECK(strcmp(pqt_kind_name(PQT_BINARY | PQT_LIST), "list<binary>") == 0);
    CHECK(PQT_KIND_IS_BYTES(PQT_BINARY) && PQT_KIND_IS_BYTES(PQT_STRING | PQT_LIST));
    CHECK(!PQT_KIND_IS_BYTES(PQT_INT32));
    check_binary_values(t, "b");
    const char *p = NULL;
    int64_t len = -1;
    int is_null = -1;
    CHECK_OK(pqt_table_get_string(t, "b", 4, 0, &p, &len, &is_null));
    CHECK(len == 1 && p && p[0] == 1 && is_null == 0);
    /* a copy of fixed-width values is refused, as for strings */
    int64_t dummy[4];
    CHECK_EQ_I64(pqt_table_get(t, "b", 0, dummy, sizeof dummy, NULL, 0), PQT_KIND);

    /* a copy keeps the column: plain BYTE_ARRAY without an annotation */
    char path[] = "/tmp/pqt_test_binary_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    unlink(path); /* the writer refuses to replace a file unasked */
    CHECK_OK(pqt_write_table(t, path, NULL));
    pqt_table_close(t);
    pqt_file *f;
    if (pqt_file_open(path, NULL, &f) == PQT_OK) {
        int col = -1;
        CHECK_OK(pqt_file_find_column(f, "b", &col));
        CHECK_EQ_I64(pqt_file_column_kind(f, col), PQT_BINARY);
        CHECK(strcmp(pqt_file_column_physical(f, col), "BYTE_ARRAY") == 0);
        CHECK(strcmp(pqt_file_column_logical(f, col), "") == 0);
        pqt_file_close(f);
        REQUIRE_OK(pqt_table_open(path, NULL, &t));
        check_binary_values(t, "b");
        /* map fields are left out (with a warning): two lists would not read back as a map */
        CHECK_EQ_I64(pqt_table_has_column(t, "m.key"), 0);
        CHECK_EQ_I64(pqt_table_has_column(t, "n.value"), 0);
        pqt_table_close(t);
    } else {
        CHECK(0);
    }
    unlink(path);

    /* the old reading: text */
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_BINARY_AS_STRING, 1));
    REQUIRE_OK(pqt_table_open(KINDS, o, &t));
    CHECK_OK(pqt_table_kind(t, "b", &k));
    CHECK_EQ_I64(k, PQT_STRING);
    pqt_table_close(t);

    /* filtering on bytes is refused with a message that names the kind and the way out */
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_BINARY_AS_STRING, 0));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "b == \"x\""));
    CHECK_EQ_I64(pqt_table_open(KINDS, o, &t), PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "binary") != NULL);
    CHECK(strstr(pqt_errmsg(), "PQT_OPT_BINARY_AS_STRING") != NULL);
    pqt_opts_free(o);
}

static void flba_column(void)
{
    pqt_table *t;
    REQUIRE_OK(pqt_table_open("tests/data/parquet-testing/data/fixed_length_byte_array.parquet",
                              NULL, &t));
    int k = -1;
    CHECK_OK(pqt_table_kind(t, "flba_field", &k));
    CHECK_EQ_I64(k, PQT_BINARY);
    int64_t *off = NULL, n = 0;
    char *bytes = NULL;
    uint8_t *valid = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(t, "flba_field", &off, &bytes, &valid, &n));
    CHECK_EQ_I64(n, 1000);
    if (off && n == 1000) {
        CHECK_EQ_I64(off[1] - off[0], 4);
        CHECK(memcmp(bytes + off[0], "\x00\x00\x03\xe8", 4) == 0);
        CHECK(valid && !bit(valid, 1));
    }
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(valid);
    pqt_table_close(t);
}

static void map_columns(void)
{
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(KINDS, NULL, &t));
    CHECK_EQ_I64(pqt_table_has_column(t, "m"), 0); /* the map itself is not a column */
    int k = -1;
    CHECK_OK(pqt_table_kind(t, "m.key", &k));
    CHECK_EQ_I64(k, PQT_STRING | PQT_LIST);
    CHECK_OK(pqt_table_kind(t, "m.value", &k));
    CHECK_EQ_I64(k, PQT_INT32 | PQT_LIST);

    /* m = {a:1, b:2}, NULL, {}, {c:NULL, d:4}: keys and values share the offsets */
    int64_t *ko = NULL, *vo = NULL, *so = NULL, nk = 0;
    uint8_t *krv = NULL, *vrv = NULL, *vv = NULL;
    int32_t *vals = NULL;
    char *kb = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "m.key", 0, &ko, NULL, NULL, &krv, &nk));
    CHECK_OK(
        pqt_table_get_list_alloc(t, "m.value", PQT_INT32, &vo, (void **)&vals, &vv, &vrv, NULL));
    CHECK_OK(pqt_table_get_strings_alloc(t, "m.key", &so, &kb, NULL, NULL));
    static const int64_t want_off[5] = {0, 2, 2, 2, 4};
    CHECK_EQ_I64(nk, 4);
    for (int i = 0; ko && vo && i < 5; i++) {
        CHECK_EQ_I64(ko[i], want_off[i]);
        CHECK_EQ_I64(vo[i], want_off[i]);
    }
    CHECK(krv && !bit(krv, 1) && bit(krv, 2)); /* row 2 NULL, row 3 an empty map */
    CHECK(vrv && !bit(vrv, 1) && bit(vrv, 2));
    if (so && kb) {
        CHECK(so[1] - so[0] == 1 && kb[so[0]] == 'a');
        CHECK(so[4] - so[3] == 1 && kb[so[3]] == 'd');
    }
    if (vals) {
        CHECK_EQ_I64(vals[0], 1);
        CHECK_EQ_I64(vals[1], 2);
        CHECK_EQ_I64(vals[3], 4);
    }
    CHECK(vv && !bit(vv, 2) && bit(vv, 3)); /* c -> NULL */
    pqt_free(ko), pqt_free(vo), pqt_free(so), pqt_free(kb);
    pqt_free(krv), pqt_free(vrv), pqt_free(vv), pqt_free(vals);

    /* n = {7:'x'}, {}, NULL, {8:NULL, 9:'yz'} */
    int64_t *no = NULL;
    int32_t *keys = NULL;
    uint8_t *nrv = NULL;
    CHECK_OK(
        pqt_table_get_list_alloc(t, "n.key", PQT_INT32, &no, (void **)&keys, NULL, &nrv, NULL));
    if (no && keys) {
        CHECK(no[1] == 1 && no[2] == 1 && no[3] == 1 && no[4] == 3);
        CHECK(keys[0] == 7 && keys[1] == 8 && keys[2] == 9);
    }
    CHECK(nrv && bit(nrv, 1) && !bit(nrv, 2));
    pqt_free(no), pqt_free(keys), pqt_free(nrv);
    pqt_table_close(t);

    /* a map whose value is itself a map stays one unreadable column, with its reason */
    pqt_file *f;
    REQUIRE_OK(
        pqt_file_open("tests/data/parquet-testing/data/nested_maps.snappy.parquet", NULL, &f));
    int col = -1;
    CHECK_OK(pqt_file_find_column(f, "a", &col));
    CHECK_EQ_I64(pqt_file_column_kind(f, col), PQT_NONE);
    const char *why = pqt_file_column_unsupported_reason(f, col);
    CHECK(why && strstr(why, "map") != NULL);
    pqt_file_close(f);
}

int main(void)
{
    binary_column();
    flba_column();
    map_columns();
    return pqt_test_done("test_binary_map");
}
