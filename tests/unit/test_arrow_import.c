/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_import.c - pqt_table_from_arrow_stream and pqt_write_arrow_stream over streams
 * built by hand (test_arrow_import_build.h): every Arrow type pqt holds, arrays with an
 * offset, nulls (own, a struct's, a list row's), an empty batch between two others, and the
 * same stream written to a file and read back. Truth: the values the test put in, written
 * out below as text per row; every batch, schema and stream released exactly once.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pqt_arrow.h"
#include "test_arrow_import_build.h"
#include "testutil.h"
#include "util/mem.h"

/* ---- the stream: batch 1 (3 rows, child arrays with offset 1), an empty batch, batch 2
 * (the struct array itself with offset 1, length 2) ---- */

/* physical bits 1,1,0,1: element 2 null */
static const uint8_t nulls_at2[] = {0x0B};
static const int8_t i8_b1[] = {99, -128, 7, 127}, i8_b2[] = {1, 2, 3};
static const uint16_t u16_b1[] = {0, 65535, 1, 2}, u16_b2[] = {5, 6, 7};
static const uint32_t u32_b1[] = {0, 4294967295u, 0, 1}, u32_b2[] = {0, 8, 9};
static const uint64_t u64_b1[] = {0, 18446744073709551615u, 0, 1}, u64_b2[] = {0, 10, 11};
/* 1.0, -2.0, 0x3555, then 65504 and -0.5 */
static const uint16_t f16_b1[] = {0, 0x3C00, 0xC000, 0x3555}, f16_b2[] = {0, 0x7BFF, 0xB800};
static const uint8_t bool_b1[] = {0x0A}, bool_b2[] = {0x02}; /* b1: 1,0,1  b2: 1,0 */
static const int32_t s_off_b1[] = {9, 0, 3, 3, 8};
static const char s_dat[] = "abcdefgh";
static const int64_t U_off_b2[] = {0, 1, 3, 6};
static const int32_t s_off_b2[] = {0, 1, 3, 6};
static const char U_dat[] = "pqqrrr";
static const int32_t z_off[] = {0, 0, 2, 2, 3};
static const uint8_t z_dat[] = {0x00, 0xff, 0x7f};
/* decimal(9,2) 128-bit: 12345 -> 123.45, -1 -> -0.01, 0; then 100, -250 */
static const int64_t dec_b1[] = {0, 0, 12345, 0, -1, -1, 0, 0}, dec_b2[] = {0, 0, 100, 0, -250, -1};
static const int32_t d32_b1[] = {0, 0, -1, 19000}, d32_b2[] = {0, 1, 2};
static const int64_t d64_b1[] = {0, 86400000, -1, 0}, d64_b2[] = {0, 172800000, 172799999};
static const int32_t tts_b1[] = {0, 3661, 0, 86399}, tts_b2[] = {0, 1, 2};
static const int64_t ttn_b1[] = {0, 1, 2, 3}, ttn_b2[] = {0, 4, 5};
static const int64_t tsu_b1[] = {0, -1, 0, 1700000000000000}, tsu_b2[] = {0, 7, 8};
/* a null's slot holds a value that would overflow in milliseconds: ignored */
static const int64_t tss_b1[] = {0, 1, INT64_MAX, 0}, tss_b2[] = {0, 2, 3};
static const uint8_t uuid_b1[64] = {[16] = 0x12, [17] = 0x34, [31] = 0xff, [47] = 1, [48] = 0xab};
static const uint8_t uuid_b2[48] = {[16] = 0xcd, [47] = 2};
static const int8_t dict_idx_b1[] = {0, 1, 0, 1}, dict_idx_b2[] = {0, 0, 1};
static const int32_t dict_off[] = {0, 1, 3};
static const char dict_dat[] = "xyy";
/* utf8_view: "hi" inline, a 15-byte string out of line in buffer 0 at 2 */
static uint8_t vu_views[4 * 16];
static const char vu_buf[] = "..fifteen-bytes!x";
static const int64_t vu_sizes[] = {17};
/* metadata: one entry ARROW:extension:name = arrow.uuid */
static char uuid_meta[64], unit_meta[64];

/* Arrow's field metadata holding one entry key = value. */
static void meta1(char *buf, const char *k, const char *v)
{
    int32_t n = 1, kl = (int32_t)strlen(k), vl = (int32_t)strlen(v);
    memcpy(buf, &n, 4);
    memcpy(buf + 4, &kl, 4);
    memcpy(buf + 8, k, (size_t)kl);
    memcpy(buf + 8 + kl, &vl, 4);
    memcpy(buf + 12 + kl, v, (size_t)vl);
}

static void fill_views(void)
{
    memset(vu_views, 0, sizeof vu_views);
    int32_t two = 2, fifteen = 15, zero = 0, at = 2;
    memcpy(vu_views + 16, &two, 4);
    memcpy(vu_views + 20, "hi", 2);
    memcpy(vu_views + 32, &fifteen, 4);
    memcpy(vu_views + 36, "fift", 4);
    memcpy(vu_views + 40, &zero, 4);
    memcpy(vu_views + 44, &at, 4);
    memcpy(vu_views + 48, &zero, 4); /* "" */
    meta1(uuid_meta, "ARROW:extension:name", "arrow.uuid");
    meta1(unit_meta, "unit", "m/s");
}

#define NSCALAR 19

static struct ArrowSchema *scalar_schema(void)
{
    struct ArrowSchema *uuid = ta_sch_new("w:16", "uuid", 0);
    uuid->metadata = uuid_meta;
    struct ArrowSchema *f16 = ta_sch_new("e", "f16", 0);
    f16->metadata = unit_meta;
    struct ArrowSchema *dict = ta_sch_new("c", "dict", 0);
    dict->dictionary = ta_sch_new("u", "", 0);
    return ta_sch_new(
        "+s", "", NSCALAR, ta_sch_new("c", "i8", 0), ta_sch_new("S", "u16", 0),
        ta_sch_new("I", "u32", 0), ta_sch_new("L", "u64", 0), f16, ta_sch_new("b", "flag", 0),
        ta_sch_new("u", "s", 0), ta_sch_new("U", "big", 0), ta_sch_new("z", "bin", 0),
        ta_sch_new("d:9,2", "dec", 0), ta_sch_new("tdD", "d32", 0), ta_sch_new("tdm", "d64", 0),
        ta_sch_new("tts", "tts", 0), ta_sch_new("ttn", "ttn", 0), ta_sch_new("tsu:UTC", "tsu", 0),
        ta_sch_new("tss:", "tss", 0), uuid, dict, ta_sch_new("vu", "vu", 0));
}

/* batch 1: children of length 4 and offset 1, three rows; element 2 of some is null */
static struct ArrowArray *scalar_b1(void)
{
    struct ArrowArray *dict = ta_arr_new(3, 1, 0, 2, NULL, dict_idx_b1);
    dict->dictionary = ta_arr_new(2, 0, 0, 3, NULL, dict_off, dict_dat);
    struct ArrowArray *b = ta_arr_new(3, 0, 0, 1, NULL);
    return ta_kids(
        b, NSCALAR, ta_arr_new(3, 1, 1, 2, nulls_at2, i8_b1), ta_arr_new(3, 1, 0, 2, NULL, u16_b1),
        ta_arr_new(3, 1, 0, 2, NULL, u32_b1), ta_arr_new(3, 1, 0, 2, NULL, u64_b1),
        ta_arr_new(3, 1, 0, 2, NULL, f16_b1), ta_arr_new(3, 1, 0, 2, NULL, bool_b1),
        ta_arr_new(3, 1, 1, 3, nulls_at2, s_off_b1, s_dat),
        ta_arr_new(3, 0, 0, 3, NULL, U_off_b2, U_dat), ta_arr_new(3, 1, 0, 3, NULL, z_off, z_dat),
        ta_arr_new(3, 1, 1, 2, nulls_at2, dec_b1), ta_arr_new(3, 1, 0, 2, NULL, d32_b1),
        ta_arr_new(3, 1, 0, 2, NULL, d64_b1), ta_arr_new(3, 1, 0, 2, NULL, tts_b1),
        ta_arr_new(3, 1, 0, 2, NULL, ttn_b1), ta_arr_new(3, 1, 0, 2, NULL, tsu_b1),
        ta_arr_new(3, 1, 1, 2, nulls_at2, tss_b1), ta_arr_new(3, 1, 0, 2, NULL, uuid_b1), dict,
        ta_arr_new(3, 1, 0, 4, NULL, vu_views, vu_buf, vu_sizes));
}

/* batch 2: the struct array has offset 1 and length 2: rows 1 and 2 of each child */
static struct ArrowArray *scalar_b2(void)
{
    struct ArrowArray *dict = ta_arr_new(3, 0, 0, 2, NULL, dict_idx_b2);
    dict->dictionary = ta_arr_new(2, 0, 0, 3, NULL, dict_off, dict_dat);
    struct ArrowArray *b = ta_arr_new(2, 1, 0, 1, NULL);
    return ta_kids(
        b, NSCALAR, ta_arr_new(3, 0, 0, 2, NULL, i8_b2), ta_arr_new(3, 0, 0, 2, NULL, u16_b2),
        ta_arr_new(3, 0, 0, 2, NULL, u32_b2), ta_arr_new(3, 0, 0, 2, NULL, u64_b2),
        ta_arr_new(3, 0, 0, 2, NULL, f16_b2), ta_arr_new(3, 0, 0, 2, NULL, bool_b2),
        ta_arr_new(3, 0, 0, 3, NULL, s_off_b2, U_dat),
        ta_arr_new(3, 0, 0, 3, NULL, U_off_b2, U_dat), ta_arr_new(3, 0, 0, 3, NULL, z_off, z_dat),
        ta_arr_new(3, 0, 0, 2, NULL, dec_b2), ta_arr_new(3, 0, 0, 2, NULL, d32_b2),
        ta_arr_new(3, 0, 0, 2, NULL, d64_b2), ta_arr_new(3, 0, 0, 2, NULL, tts_b2),
        ta_arr_new(3, 0, 0, 2, NULL, ttn_b2), ta_arr_new(3, 0, 0, 2, NULL, tsu_b2),
        ta_arr_new(3, 0, 0, 2, NULL, tss_b2), ta_arr_new(3, 0, 0, 2, NULL, uuid_b2), dict,
        ta_arr_new(3, 0, 0, 4, NULL, vu_views, vu_buf, vu_sizes));
}

static void expect_scalars(pqt_table *t, int from_file)
{
    CHECK_EQ_I64(pqt_table_nrows(t), 5);
    CHECK_EQ_I64(pqt_table_ncols(t), NSCALAR);
    expect_col(t, "i8", PQT_INT32, "-128|NULL|127|2|3");
    expect_col(t, "u16", PQT_INT32, "65535|1|2|6|7");
    expect_col(t, "u32", PQT_INT64, "4294967295|0|1|8|9");
    expect_col(t, "u64", PQT_UINT64, "18446744073709551615|0|1|10|11");
    expect_col(t, "f16", PQT_FLOAT32, "1|-2|0.333251953|65504|-0.5");
    /* the field's "unit" metadata: the column's unit, written as column.<name>.unit */
    const char *unit = NULL;
    if (from_file)
        CHECK_OK(pqt_table_meta_value(t, "column.f16.unit", &unit));
    else
        CHECK_OK(pqt_table_unit(t, "f16", &unit));
    CHECK(unit && strcmp(unit, "m/s") == 0);
    expect_col(t, "flag", PQT_BOOL, "1|0|1|1|0");
    expect_col(t, "s", PQT_STRING, "abc|NULL|defgh|qq|rrr");
    expect_col(t, "big", PQT_STRING, "p|qq|rrr|qq|rrr");
    expect_col(t, "bin", PQT_BINARY, "x00ff|x|x7f|x00ff|x");
    expect_col(t, "dec", PQT_FLOAT64, "123.45|NULL|0|1|-2.5");
    expect_col(t, "d32", PQT_DATE, "0|-1|19000|1|2");
    expect_col(t, "d64", PQT_DATE, "1|-1|0|2|1");
    expect_col(t, "tts", PQT_TIME, "3661000|0|86399000|1000|2000");
    expect_unit(t, "tts", PQT_UNIT_MILLIS);
    expect_col(t, "ttn", PQT_TIME, "1|2|3|4|5");
    expect_unit(t, "ttn", PQT_UNIT_NANOS);
    expect_col(t, "tsu", PQT_TIMESTAMP, "-1|0|1700000000000000|7|8");
    expect_unit(t, "tsu", PQT_UNIT_MICROS);
    expect_col(t, "tss", PQT_TIMESTAMP, "1000|NULL|0|2000|3000");
    expect_unit(t, "tss", PQT_UNIT_MILLIS);
    expect_col(t, "uuid", PQT_STRING,
               "12340000-0000-0000-0000-0000000000ff|00000000-0000-0000-0000-000000000001|"
               "ab000000-0000-0000-0000-000000000000|cd000000-0000-0000-0000-000000000000|"
               "00000000-0000-0000-0000-000000000002");
    expect_col(t, "dict", PQT_STRING, "yy|x|yy|x|yy");
    expect_col(t, "vu", PQT_STRING, "hi|fifteen-bytes!x||hi|fifteen-bytes!x");
}

/* ---- nested: a vector, a list, a large list of strings, a struct, a fixed-size binary ---- */
static const uint8_t row1_null[] = {0x05}, row2_null[] = {0x03}, row0_null[] = {0x06};
static const double vec_vals[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
static const int32_t lst_off[] = {0, 2, 4, 5, 6}, lst_vals[] = {10, 11, 12, 13, 14, 15};
static const uint8_t lst_valid[] = {0x37}; /* element 3 null */
static const int64_t big_off[] = {0, 1, 1, 3};
static const int32_t bigs_off[] = {0, 1, 3, 4};
static const char bigs_dat[] = "abbc";
static const int64_t st_a[] = {1, 2, 3};
static const int32_t st_b_off[] = {0, 1, 2, 3};
static const char st_b_dat[] = "uvw";
static const uint8_t fsb[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};

static struct ArrowSchema *nested_schema(void)
{
    return ta_sch_new("+s", "", 5, ta_sch_new("+w:3", "vec", 1, ta_sch_new("g", "item", 0)),
                      ta_sch_new("+l", "lst", 1, ta_sch_new("i", "item", 0)),
                      ta_sch_new("+L", "big", 1, ta_sch_new("u", "item", 0)),
                      ta_sch_new("+s", "st", 2, ta_sch_new("l", "a", 0), ta_sch_new("u", "b", 0)),
                      ta_sch_new("w:3", "fsb", 0));
}

static struct ArrowArray *nested_batch(void)
{
    struct ArrowArray *vec =
        ta_kids(ta_arr_new(3, 0, 1, 1, row1_null), 1, ta_arr_new(9, 0, 0, 2, NULL, vec_vals));
    struct ArrowArray *lst = ta_kids(ta_arr_new(3, 1, 1, 2, nulls_at2, lst_off), 1,
                                     ta_arr_new(6, 0, 1, 2, lst_valid, lst_vals));
    struct ArrowArray *big = ta_kids(ta_arr_new(3, 0, 0, 2, NULL, big_off), 1,
                                     ta_arr_new(3, 0, 0, 3, NULL, bigs_off, bigs_dat));
    struct ArrowArray *st =
        ta_kids(ta_arr_new(3, 0, 1, 1, row2_null), 2, ta_arr_new(3, 0, 0, 2, NULL, st_a),
                ta_arr_new(3, 0, 1, 3, row0_null, st_b_off, st_b_dat));
    return ta_kids(ta_arr_new(3, 0, 0, 1, NULL), 5, vec, lst, big, st,
                   ta_arr_new(3, 0, 0, 2, NULL, fsb));
}

static void expect_nested(pqt_table *t)
{
    CHECK_EQ_I64(pqt_table_nrows(t), 3);
    expect_col(t, "vec", PQT_FLOAT64 | PQT_VECTOR, "[1,2,3]|[NULL,NULL,NULL]|[7,8,9]");
    expect_col(t, "lst", PQT_INT32 | PQT_LIST, "[12,NULL]|NULL|[15]");
    expect_col(t, "big", PQT_STRING | PQT_LIST, "[a]|[]|[bb,c]");
    expect_col(t, "st.a", PQT_INT64, "1|2|NULL");
    expect_col(t, "st.b", PQT_STRING, "NULL|v|NULL");
    expect_col(t, "fsb", PQT_BINARY, "x010203|x040506|x070809");
}

static char g_dir[256];

/* The scalar stream: batch 1, an empty batch, batch 2. */
static void scalar_stream(struct ArrowArrayStream *s, ta_stream *p)
{
    ta_reset();
    fill_views();
    memset(p, 0, sizeof *p);
    p->schema = scalar_schema();
    p->batches[0] = scalar_b1();
    p->batches[1] = ta_arr_new(0, 0, 0, 1, NULL); /* no rows, no children needed */
    p->batches[2] = scalar_b2();
    p->nbatch = 3, p->fail_at = -1;
    ta_stream_init(s, p);
}

static void nested_stream(struct ArrowArrayStream *s, ta_stream *p)
{
    ta_reset();
    memset(p, 0, sizeof *p);
    p->schema = nested_schema();
    p->batches[0] = nested_batch();
    p->nbatch = 1, p->fail_at = -1;
    ta_stream_init(s, p);
}

static void test_table(void)
{
    struct ArrowArrayStream s;
    ta_stream p;
    pqt_table *t = NULL;
    scalar_stream(&s, &p);
    CHECK_OK(pqt_table_from_arrow_stream(&s, &t));
    CHECK(ta_all_released() && ta_batch_out == 3);
    if (t) expect_scalars(t, 0);
    pqt_table_close(t);

    t = NULL;
    nested_stream(&s, &p);
    CHECK_OK(pqt_table_from_arrow_stream(&s, &t));
    CHECK(ta_all_released());
    if (t) expect_nested(t);
    pqt_table_close(t);
}

static void test_file(void)
{
    char path[512];
    struct ArrowArrayStream s;
    ta_stream p;
    pqt_table *t = NULL;
    snprintf(path, sizeof path, "%s/scalars.parquet", g_dir);
    scalar_stream(&s, &p);
    CHECK_OK(pqt_write_arrow_stream(path, &s, NULL));
    CHECK(ta_all_released());
    CHECK_OK(pqt_table_open(path, NULL, &t));
    if (t) expect_scalars(t, 1);
    pqt_table_close(t);
    unlink(path);

    t = NULL;
    snprintf(path, sizeof path, "%s/nested.parquet", g_dir);
    nested_stream(&s, &p);
    CHECK_OK(pqt_write_arrow_stream(path, &s, NULL));
    CHECK(ta_all_released());
    CHECK_OK(pqt_table_open(path, NULL, &t));
    if (t) expect_nested(t);
    pqt_table_close(t);
    unlink(path);
}

/* Many batches, gathered in order: int32 x = 0..38; strings s "", "b", "bb" in every batch;
 * a list l of [], [x], [x, x] whose first row is null in odd batches (offsets and bitmaps
 * rebased from batch to batch). */
static void test_many_batches(void)
{
    static int32_t vals[16][3];
    static const int32_t s_off[] = {0, 0, 1, 3}, l_off[] = {0, 0, 1, 3};
    static int32_t l_vals[16][3];
    struct ArrowArrayStream s;
    ta_stream p;
    ta_reset();
    memset(&p, 0, sizeof p);
    p.schema = ta_sch_new("+s", "", 3, ta_sch_new("i", "x", 0), ta_sch_new("u", "s", 0),
                          ta_sch_new("+l", "l", 1, ta_sch_new("i", "item", 0)));
    char want_x[1024] = "", want_s[1024] = "", want_l[2048] = "", c[64];
    for (int b = 0; b < 13; b++) {
        for (int i = 0; i < 3; i++) {
            vals[b][i] = b * 3 + i;
            snprintf(c, sizeof c, "%s%d", b + i ? "|" : "", b * 3 + i);
            strcat(want_x, c);
            strcat(want_s, b + i ? "|" : "");
            strcat(want_s, i == 0 ? "" : i == 1 ? "b" : "bb");
        }
        l_vals[b][0] = l_vals[b][1] = l_vals[b][2] = b * 3 + 1;
        snprintf(c, sizeof c, "%s%s|[%d]|[%d,%d]", b ? "|" : "", b % 2 ? "NULL" : "[]", b * 3 + 1,
                 b * 3 + 2, b * 3 + 2);
        strcat(want_l, c);
        l_vals[b][1] = l_vals[b][2] = b * 3 + 2;
        struct ArrowArray *l = ta_kids(ta_arr_new(3, 0, b % 2, 2, b % 2 ? row0_null : NULL, l_off),
                                       1, ta_arr_new(3, 0, 0, 2, NULL, l_vals[b]));
        p.batches[b] =
            ta_kids(ta_arr_new(3, 0, 0, 1, NULL), 3, ta_arr_new(3, 0, 0, 2, NULL, vals[b]),
                    ta_arr_new(3, 0, 0, 3, NULL, s_off, "bbb"), l);
    }
    p.nbatch = 13, p.fail_at = -1;
    ta_stream_init(&s, &p);
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_from_arrow_stream(&s, &t));
    CHECK(ta_all_released() && ta_batch_out == 13);
    if (t) {
        expect_col(t, "x", PQT_INT32, want_x);
        expect_col(t, "s", PQT_STRING, want_s);
        expect_col(t, "l", PQT_INT32 | PQT_LIST, want_l);
    }
    pqt_table_close(t);
}

/* Every allocation failing in turn: PQT_NOMEM (or, past the last one, success), nothing
 * leaked (ASan), every batch, schema and stream released once, no file left. */
static void test_nomem(void)
{
    int failed = 0;
    for (long k = 0; k < 100000; k++) {
        struct ArrowArrayStream s;
        ta_stream p;
        pqt_table *t = NULL;
        int to_file = k % 2;
        char path[512];
        snprintf(path, sizeof path, "%s/nomem.parquet", g_dir);
        scalar_stream(&s, &p);
        pqt_mem_fail_after(k / 2);
        pqt_status st =
            to_file ? pqt_write_arrow_stream(path, &s, NULL) : pqt_table_from_arrow_stream(&s, &t);
        pqt_mem_fail_after(-1);
        CHECK(st == PQT_OK || st == PQT_NOMEM);
        if (st != PQT_OK && st != PQT_NOMEM) fprintf(stderr, "k %ld: %s\n", k, pqt_errmsg());
        CHECK(ta_all_released());
        if (st == PQT_OK && t) expect_scalars(t, 0);
        pqt_table_close(t);
        if (st != PQT_OK) {
            CHECK(access(path, F_OK) != 0);
            failed++;
        }
        unlink(path);
        if (st == PQT_OK && to_file) break;
    }
    CHECK(failed > 20);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_arrow_import_XXXXXX");
    if (!mkdtemp(g_dir)) return 1;
    test_table();
    test_file();
    test_many_batches();
    test_nomem();
    rmdir(g_dir);
    return pqt_test_done("test_arrow_import");
}
