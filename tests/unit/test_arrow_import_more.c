/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_import_more.c - the Arrow layouts test_arrow_import.c leaves out: time32[ms],
 * time64[us], timestamp[ms] and [ns] with a zone, decimal32/64 and a negative scale,
 * large_binary, binary_view across two variadic buffers, dictionaries of numbers (with a
 * null in the dictionary) and with uint64 indices, a fixed_size_list of strings, a list of
 * dictionary strings and a large_list of booleans; into a table and into a file read back.
 * Truth: the values the test put in, as text per row.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pqt_arrow.h"
#include "test_arrow_import_build.h"
#include "testutil.h"

static const int32_t ttm[] = {1000, 86399999, 0};
static const int64_t ttu[] = {1, 2, 3}, tsm[] = {-1, 0, 1}, tsn[] = {1, 2, 3};
static const int32_t d32[] = {-15, 0, 12345};
static const int64_t d64[] = {1, -2500, 1000000};
static const int64_t dneg[] = {3, 0, -7, -1, 0, 0}; /* 128-bit: 3, -7, 0 */
static const int64_t big_off[] = {0, 1, 1, 3};
static const uint8_t big_dat[] = {0xaa, 0xbb, 0xcc};
static uint8_t views[48];
static const uint8_t var0[] = {9, 9, 9, 9};
static const uint8_t var1[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
static const int64_t var_sizes[] = {4, 13};
static const uint8_t row1_null[] = {0x05};
static const int16_t dnum_idx[] = {2, 0, 1};
static const double dnum_vals[] = {1.5, 99, -3};
static const uint64_t du_idx[] = {1, 1, 0};
static const int32_t pq_off[] = {0, 1, 2};
static const int32_t vs_off[] = {0, 1, 2, 2, 4, 5, 6};
static const char vs_dat[] = "abccde";
static const int32_t ld_off[] = {0, 2, 2, 3};
static const int8_t ld_idx[] = {0, 1, 1};
static const uint8_t ld_valid[] = {0x05};
static const int32_t xy_off[] = {0, 1, 3};
static const int64_t bl_off[] = {0, 3, 3, 4};
static const uint8_t bl_bits[] = {0x0d};

static void fill_views(void)
{
    int32_t three = 3, thirteen = 13, one = 1, zero = 0;
    memset(views, 0, sizeof views);
    memcpy(views, &three, 4);
    memcpy(views + 4, "\x01\x02\x03", 3);
    memcpy(views + 32, &thirteen, 4);
    memcpy(views + 36, var1, 4);
    memcpy(views + 40, &one, 4);
    memcpy(views + 44, &zero, 4);
}

#define NCOL 14

static struct ArrowSchema *schema(void)
{
    struct ArrowSchema *dnum = ta_sch_new("s", "dnum", 0);
    dnum->dictionary = ta_sch_new("g", "", 0);
    struct ArrowSchema *du = ta_sch_new("L", "du", 0);
    du->dictionary = ta_sch_new("u", "", 0);
    struct ArrowSchema *ld_item = ta_sch_new("c", "item", 0);
    ld_item->dictionary = ta_sch_new("u", "", 0);
    return ta_sch_new(
        "+s", "", NCOL, ta_sch_new("ttm", "ttm", 0), ta_sch_new("ttu", "ttu", 0),
        ta_sch_new("tsm:", "tsm", 0), ta_sch_new("tsn:Europe/Paris", "tsn", 0),
        ta_sch_new("d:5,1,32", "d32", 0), ta_sch_new("d:12,3,64", "d64", 0),
        ta_sch_new("d:4,-2", "dneg", 0), ta_sch_new("Z", "big", 0), ta_sch_new("vz", "vz", 0), dnum,
        du, ta_sch_new("+w:2", "vs", 1, ta_sch_new("u", "item", 0)),
        ta_sch_new("+l", "ld", 1, ld_item), ta_sch_new("+L", "bl", 1, ta_sch_new("b", "item", 0)));
}

static struct ArrowArray *batch(void)
{
    struct ArrowArray *dnum = ta_arr_new(3, 0, 0, 2, NULL, dnum_idx);
    dnum->dictionary = ta_arr_new(3, 0, 1, 2, row1_null, dnum_vals);
    struct ArrowArray *du = ta_arr_new(3, 0, 0, 2, NULL, du_idx);
    du->dictionary = ta_arr_new(2, 0, 0, 3, NULL, pq_off, "pq");
    struct ArrowArray *ld_item = ta_arr_new(3, 0, 1, 2, ld_valid, ld_idx);
    ld_item->dictionary = ta_arr_new(2, 0, 0, 3, NULL, xy_off, "xyy");
    return ta_kids(
        ta_arr_new(3, 0, 0, 1, NULL), NCOL, ta_arr_new(3, 0, 0, 2, NULL, ttm),
        ta_arr_new(3, 0, 0, 2, NULL, ttu), ta_arr_new(3, 0, 0, 2, NULL, tsm),
        ta_arr_new(3, 0, 0, 2, NULL, tsn), ta_arr_new(3, 0, 0, 2, NULL, d32),
        ta_arr_new(3, 0, 0, 2, NULL, d64), ta_arr_new(3, 0, 0, 2, NULL, dneg),
        ta_arr_new(3, 0, 0, 3, NULL, big_off, big_dat),
        ta_arr_new(3, 0, 1, 5, row1_null, views, var0, var1, var_sizes), dnum, du,
        ta_kids(ta_arr_new(3, 0, 1, 1, row1_null), 1, ta_arr_new(6, 0, 0, 3, NULL, vs_off, vs_dat)),
        ta_kids(ta_arr_new(3, 0, 0, 2, NULL, ld_off), 1, ld_item),
        ta_kids(ta_arr_new(3, 0, 0, 2, NULL, bl_off), 1, ta_arr_new(4, 0, 0, 2, NULL, bl_bits)));
}

static void expect_all(pqt_table *t)
{
    CHECK_EQ_I64(pqt_table_nrows(t), 3);
    expect_col(t, "ttm", PQT_TIME, "1000|86399999|0");
    expect_unit(t, "ttm", PQT_UNIT_MILLIS);
    expect_col(t, "ttu", PQT_TIME, "1|2|3");
    expect_unit(t, "ttu", PQT_UNIT_MICROS);
    expect_col(t, "tsm", PQT_TIMESTAMP, "-1|0|1");
    expect_unit(t, "tsm", PQT_UNIT_MILLIS);
    expect_col(t, "tsn", PQT_TIMESTAMP, "1|2|3");
    expect_unit(t, "tsn", PQT_UNIT_NANOS);
    expect_col(t, "d32", PQT_FLOAT64, "-1.5|0|1234.5");
    expect_col(t, "d64", PQT_FLOAT64, "0.001|-2.5|1000");
    expect_col(t, "dneg", PQT_FLOAT64, "300|-700|0");
    expect_col(t, "big", PQT_BINARY, "xaa|x|xbbcc");
    expect_col(t, "vz", PQT_BINARY, "x010203|NULL|x0102030405060708090a0b0c0d");
    expect_col(t, "dnum", PQT_FLOAT64, "-3|1.5|NULL");
    expect_col(t, "du", PQT_STRING, "q|q|p");
    expect_col(t, "vs", PQT_STRING | PQT_VECTOR, "[a,b]|[NULL,NULL]|[d,e]");
    expect_col(t, "ld", PQT_STRING | PQT_LIST, "[x,NULL]|[]|[yy]");
    expect_col(t, "bl", PQT_BOOL | PQT_LIST, "[1,0,1]|[]|[1]");
}

static void stream(struct ArrowArrayStream *s, ta_stream *p)
{
    ta_reset();
    fill_views();
    memset(p, 0, sizeof *p);
    p->schema = schema();
    p->batches[0] = batch();
    p->nbatch = 1, p->fail_at = -1;
    ta_stream_init(s, p);
}

int main(void)
{
    struct ArrowArrayStream s;
    ta_stream p;
    pqt_table *t = NULL;
    stream(&s, &p);
    CHECK_OK(pqt_table_from_arrow_stream(&s, &t));
    CHECK(ta_all_released());
    if (t) expect_all(t);
    pqt_table_close(t);

    char dir[] = "/tmp/pqt_arrow_more_XXXXXX", path[64];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/more.parquet", dir);
    stream(&s, &p);
    t = NULL;
    CHECK_OK(pqt_write_arrow_stream(path, &s, NULL));
    CHECK(ta_all_released());
    CHECK_OK(pqt_table_open(path, NULL, &t));
    if (t) expect_all(t);
    pqt_table_close(t);
    unlink(path);
    rmdir(dir);
    return pqt_test_done("test_arrow_import_more");
}
