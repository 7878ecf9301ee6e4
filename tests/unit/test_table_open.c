/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_open.c - the lazy table's open, slice regime, queries that read nothing,
 * row-group bounds and the row-index column's values.
 *
 * Truth: tests/data/table_rg.parquet and table_big.parquet were written by DuckDB from
 * formulas of the row number (tests/data/make_table_data.mjs); the checks recompute them.
 * table_rg: 10000 rows in row groups of 2048 (5 groups, the last 1808 rows).
 */
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define RG "tests/data/table_rg.parquet"
#define BIG "tests/data/table_big.parquet"

static pqt_status open_slice(const char *path, int64_t lo, int64_t hi, int threads, pqt_table **t)
{
    pqt_opts *o;
    pqt_status st = pqt_opts_new(&o);
    if (st) return st;
    st = pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi);
    if (st == PQT_OK && threads >= 0) st = pqt_opts_set_int(o, PQT_OPT_THREADS, threads);
    if (st == PQT_OK) st = pqt_table_open(path, o, t);
    pqt_opts_free(o);
    return st;
}

static void test_open_whole(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    if (!t) return;
    CHECK_EQ_I64(pqt_table_nrows(t), 10000);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 10000);
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 10000);
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    const char *names[] = {"id", "i32", "f32", "f64", "s", "vec", "lst"};
    for (int i = 0; i < 7; i++) CHECK(strcmp(pqt_table_column_name(t, i), names[i]) == 0);
    CHECK(pqt_table_column_name(t, 7) == NULL);
    CHECK(strcmp(pqt_table_filename(t), RG) == 0);
    /* nothing read yet */
    for (int i = 0; i < 7; i++) {
        int res = -1;
        CHECK_OK(pqt_table_residency(t, names[i], &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY);
    }
    int k = -1, w = -1;
    CHECK_OK(pqt_table_kind(t, "id", &k));
    CHECK_EQ_I64(k, PQT_INT64);
    CHECK_OK(pqt_table_kind(t, "i32", &k));
    CHECK_EQ_I64(k, PQT_INT32);
    CHECK_OK(pqt_table_kind(t, "s", &k));
    CHECK_EQ_I64(k, PQT_STRING);
    /* LIST columns: measuring the width may read, but leaves nothing resident */
    CHECK_OK(pqt_table_kind(t, "vec", &k));
    CHECK_EQ_I64(k, PQT_FLOAT32 | PQT_VECTOR);
    CHECK_OK(pqt_table_width(t, "vec", &w));
    CHECK_EQ_I64(w, 3);
    CHECK_OK(pqt_table_kind(t, "lst", &k));
    CHECK_EQ_I64(k, PQT_INT32 | PQT_LIST);
    CHECK_OK(pqt_table_width(t, "lst", &w));
    CHECK_EQ_I64(w, 0);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "vec", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    int sup = -1;
    CHECK_OK(pqt_table_is_supported(t, "lst", &sup));
    CHECK_EQ_I64(sup, 1);
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, "id", &u));
    CHECK(u && strcmp(u, "") == 0);
    /* the virtual row index: usable, not listed */
    CHECK(pqt_table_has_column(t, PQT_ROW_INDEX));
    CHECK(!pqt_table_has_column(t, "nope"));
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    CHECK_OK(pqt_table_kind(t, PQT_ROW_INDEX, &k));
    CHECK_EQ_I64(k, PQT_INT64);
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    /* file metadata by key: DuckDB writes none, so a missing key is PQT_NOT_FOUND */
    const char *v = NULL;
    CHECK_EQ_I64(pqt_table_meta_value(t, "no such key", &v), PQT_NOT_FOUND);
    /* a missing column: the distinct status */
    CHECK_EQ_I64(pqt_table_kind(t, "nope", &k), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "'nope'") != NULL);
    CHECK_EQ_I64(pqt_table_width(t, "nope", &w), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_unit(t, "nope", &u), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_residency(t, "nope", &res), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_is_supported(t, "nope", &sup), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_time_unit(t, "nope", &k), PQT_NOT_FOUND);
    /* whole-file bounds: both forms equal pqt_row_group_bounds */
    int64_t *b0 = NULL, *b1 = NULL, *b2 = NULL;
    int n0 = 0, n1 = 0, n2 = 0;
    CHECK_OK(pqt_row_group_bounds(RG, &b0, &n0));
    CHECK_OK(pqt_table_row_group_bounds(t, 1, &b1, &n1));
    CHECK_OK(pqt_table_row_group_bounds(t, 0, &b2, &n2));
    CHECK_EQ_I64(n0, 5);
    CHECK_EQ_I64(n1, 5);
    CHECK_EQ_I64(n2, 5);
    for (int i = 0; b0 && b1 && b2 && i < 10; i++) {
        CHECK_EQ_I64(b0[i], b1[i]);
        CHECK_EQ_I64(b0[i], b2[i]);
    }
    if (b0) {
        CHECK_EQ_I64(b0[0], 1);
        CHECK_EQ_I64(b0[1], 2048);
        CHECK_EQ_I64(b0[8], 8193);
        CHECK_EQ_I64(b0[9], 10000);
    }
    pqt_free(b0);
    pqt_free(b1);
    pqt_free(b2);
    pqt_table_close(t);
}

static void test_range_errors(void)
{
    pqt_table *t = NULL;
    /* a bound below 1 is refused when it is set (tests/unit/test_opt_rows.c) */
    CHECK_EQ_I64(open_slice(RG, -5, 20, -1, &t), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "PQT_OPT_ROW_LO = -5") != NULL);
    CHECK_EQ_I64(open_slice(RG, 5, 10001, -1, &t), PQT_RANGE);
    CHECK(strstr(pqt_errmsg(), "rows 5..10001 requested") && strstr(pqt_errmsg(), "10000 rows"));
    CHECK_EQ_I64(open_slice(RG, 30, 20, -1, &t), PQT_RANGE);
    CHECK(strstr(pqt_errmsg(), "rows 30..20 requested") && strstr(pqt_errmsg(), "10000 rows"));
    CHECK(t == NULL);
    CHECK_EQ_I64(pqt_table_open("tests/data/no_such_file.parquet", NULL, &t), PQT_IO);
    CHECK(t == NULL);
}

static void test_slice(void)
{
    /* rows 2000..4100 cross two row-group boundaries (2048|2049 and 4096|4097) */
    pqt_table *t = NULL;
    REQUIRE_OK(open_slice(RG, 2000, 4100, -1, &t));
    if (!t) return;
    CHECK_EQ_I64(pqt_table_nrows(t), 2101);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 2101);
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 3 * 2048);
    int64_t *b = NULL;
    int n = 0;
    CHECK_OK(pqt_table_row_group_bounds(t, 0, &b, &n));
    CHECK_EQ_I64(n, 5);
    if (b && n == 5) {
        /* table rows per group: 1..49, 50..2097, 2098..2101, then empty ranges */
        CHECK_EQ_I64(b[0], 1);
        CHECK_EQ_I64(b[1], 49);
        CHECK_EQ_I64(b[2], 50);
        CHECK_EQ_I64(b[3], 2097);
        CHECK_EQ_I64(b[4], 2098);
        CHECK_EQ_I64(b[5], 2101);
        CHECK(b[6] > b[7]);
        CHECK(b[8] > b[9]);
    }
    pqt_free(b);
    CHECK_OK(pqt_table_row_group_bounds(t, 1, &b, &n));
    if (b) {
        CHECK_EQ_I64(b[2], 2049);
        CHECK_EQ_I64(b[3], 4096);
    }
    pqt_free(b);
    /* a slice measures a LIST column's width over its own row groups, reading nothing
     * into the table */
    int k = 0, w = 0, res = -1;
    CHECK_OK(pqt_table_width(t, "vec", &w));
    CHECK_EQ_I64(w, 3);
    CHECK_OK(pqt_table_kind(t, "lst", &k));
    CHECK_EQ_I64(k, PQT_INT32 | PQT_LIST);
    CHECK_OK(pqt_table_residency(t, "vec", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    /* values trimmed from the covering groups: id = file row */
    int64_t *id = malloc(2101 * sizeof *id);
    size_t nb = 0;
    CHECK_OK(pqt_table_get_nbytes(t, "id", 0, &nb));
    CHECK_EQ_I64(nb, 2101 * 8);
    CHECK_OK(pqt_table_get(t, "id", 0, id, 2101 * 8, NULL, 0));
    for (int64_t i = 0; i < 2101; i++)
        if (id[i] != 2000 + i) {
            CHECK_EQ_I64(id[i], 2000 + i);
            break;
        }
    /* the row index of a slice starts at row_lo */
    int64_t *ri = NULL;
    int64_t nel = 0;
    CHECK_OK(pqt_table_get_alloc(t, PQT_ROW_INDEX, 0, (void **)&ri, NULL, &nel));
    CHECK_EQ_I64(nel, 2101);
    if (ri) {
        CHECK_EQ_I64(ri[0], 2000);
        CHECK_EQ_I64(ri[2100], 4100);
        for (int64_t i = 0; i < 2101; i++)
            if (ri[i] != id[i]) {
                CHECK_EQ_I64(ri[i], id[i]);
                break;
            }
    }
    /* once asked for, it is a real slot listed last */
    CHECK_EQ_I64(pqt_table_ncols(t), 8);
    CHECK(strcmp(pqt_table_column_name(t, 7), PQT_ROW_INDEX) == 0);
    pqt_free(ri);
    free(id);
    /* a string column in the slice: s = "s<id>", null when id % 5 == 0 */
    const char *p;
    int64_t len;
    int isnull;
    CHECK_OK(pqt_table_get_string(t, "s", 1, 0, &p, &len, &isnull));
    CHECK(isnull); /* 2000 % 5 == 0: null */
    CHECK_EQ_I64(len, 0);
    CHECK_OK(pqt_table_get_string(t, "s", 2, 0, &p, &len, &isnull));
    CHECK(!isnull && len == 5 && memcmp(p, "s2001", 5) == 0);
    pqt_table_close(t);
}

static void test_big_slice(void)
{
    /* docs/fortran.md's example: rows 1000001..2000000 of a larger file report 1000000 rows */
    pqt_table *t = NULL;
    REQUIRE_OK(open_slice(BIG, 1000001, 2000000, -1, &t));
    if (!t) return;
    CHECK_EQ_I64(pqt_table_nrows(t), 1000000);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 1000000);
    /* row groups of 102400: the slice is covered by groups 10..20 (1-based), file rows
     * 921601..2048000 */
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 2048000 - 921600);
    int64_t *v = NULL, nel = 0;
    CHECK_OK(pqt_table_get_alloc(t, "v", 0, (void **)&v, NULL, &nel));
    CHECK_EQ_I64(nel, 1000000);
    if (v) {
        CHECK_EQ_I64(v[0], 1000001);
        CHECK_EQ_I64(v[999999], 2000000);
        int64_t bad = 0;
        for (int64_t i = 0; i < nel; i++) bad += v[i] != 1000001 + i;
        CHECK_EQ_I64(bad, 0);
    }
    pqt_free(v);
    int64_t ri1 = 0;
    CHECK_OK(pqt_table_get_value(t, PQT_ROW_INDEX, 1, 0, 0, &ri1, sizeof ri1, NULL));
    CHECK_EQ_I64(ri1, 1000001);
    pqt_table_close(t);
    /* and the whole file */
    REQUIRE_OK(pqt_table_open(BIG, NULL, &t));
    if (t) CHECK_EQ_I64(pqt_table_nrows(t), 2500000);
    pqt_table_close(t);
}

static int nwarn;
static char lastwarn[512];
static void on_warn(void *user, const char *msg)
{
    (void)user;
    nwarn++;
    snprintf(lastwarn, sizeof lastwarn, "%s", msg);
}

static void test_row_index_file_column(void)
{
    /* a file column named parquet_row_index is dropped at open with a warning */
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/table_rowidx.parquet", NULL, &t)); /* default: silent */
    pqt_table_close(t);
    pqt_set_warning_callback(on_warn, NULL);
    REQUIRE_OK(pqt_table_open("tests/data/table_rowidx.parquet", NULL, &t));
    pqt_set_warning_callback(NULL, NULL);
    CHECK_EQ_I64(nwarn, 1);
    CHECK(strstr(lastwarn, PQT_ROW_INDEX) != NULL);
    if (!t) return;
    CHECK_EQ_I64(pqt_table_ncols(t), 1);
    /* the name now means the automatic column: 1..5, not the file's 101..105 */
    int64_t ri[5] = {0};
    CHECK_OK(pqt_table_get(t, PQT_ROW_INDEX, 0, ri, sizeof ri, NULL, 0));
    for (int i = 0; i < 5; i++) CHECK_EQ_I64(ri[i], i + 1);
    pqt_table_close(t);
}

int main(void)
{
    test_open_whole();
    test_range_errors();
    test_slice();
    test_big_slice();
    test_row_index_file_column();
    return pqt_test_done("test_table_open");
}
