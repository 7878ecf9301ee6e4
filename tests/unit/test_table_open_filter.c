/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_open_filter.c - a filter given at table open (issue 10): survivors, pruning,
 * slices, the row index, row-group bounds in survivor numbering, clones, threads, errors.
 *
 * tests/data/table_rg.parquet was written by DuckDB (tests/data/make_table_data.mjs) from
 * formulas of the 1-based row number id: 10000 rows in row groups of 2048, i32 = 3 id (NULL
 * when id % 7 == 0), f32 = id / 4, f64 = id / 2 (NULL when id % 11 == 0, NaN when id % 13
 * == 0), s = 's' id (NULL when id % 5 == 0). Every expected answer here is computed from
 * those formulas, row by row, never by pqt.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define FILE_RG "tests/data/table_rg.parquet"
#define NROWS 10000

static bool i32_null(int64_t id) { return id % 7 == 0; }
static bool f64_null(int64_t id) { return id % 11 == 0; }
static bool f64_nan(int64_t id) { return !f64_null(id) && id % 13 == 0; }
static bool s_null(int64_t id) { return id % 5 == 0; }

static pqt_table *open_filtered(const char *const *rules, int n, int threads, int64_t lo,
                                int64_t hi)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (lo) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo));
    if (hi) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi));
    for (int i = 0; i < n; i++) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rules[i]));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(FILE_RG, o, &t));
    pqt_opts_free(o);
    return t;
}

/* The table's id column must be exactly the ids keep() accepts within [lo, hi]; i32 and the
 * row index are checked row by row against the formulas. */
static void check_rows(pqt_table *t, bool (*keep)(int64_t), int64_t lo, int64_t hi)
{
    int64_t want = 0;
    for (int64_t id = lo; id <= hi; id++) want += keep(id);
    CHECK_EQ_I64(pqt_table_nrows(t), want);
    int64_t *ids = NULL, *ri = NULL, n = 0;
    int32_t *i32 = NULL;
    uint8_t *i32_valid = NULL;
    REQUIRE_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&ids, NULL, &n));
    CHECK_EQ_I64(n, want);
    REQUIRE_OK(pqt_table_get_alloc(t, "i32", PQT_INT32, (void **)&i32, &i32_valid, &n));
    CHECK_EQ_I64(n, want);
    REQUIRE_OK(pqt_table_get_alloc(t, "parquet_row_index", PQT_INT64, (void **)&ri, NULL, &n));
    int64_t k = 0, bad = 0;
    for (int64_t id = lo; id <= hi && k < want; id++) {
        if (!keep(id)) continue;
        bool valid = !i32_valid || (i32_valid[k >> 3] >> (k & 7) & 1);
        if (ids[k] != id || ri[k] != id || valid == i32_null(id) ||
            (valid && i32[k] != 3 * id)) {
            if (bad++ == 0)
                printf("row %lld: id %lld (want %lld), row index %lld, i32 %s %d\n",
                       (long long)k + 1, (long long)ids[k], (long long)id, (long long)ri[k],
                       valid ? "valid" : "null", valid ? i32[k] : 0);
        }
        k++;
    }
    CHECK_EQ_I64(bad, 0);
    pqt_free(ids);
    pqt_free(i32);
    pqt_free(i32_valid);
    pqt_free(ri);
}

static bool above_9000(int64_t id) { return id > 9000; }
static bool i32_above(int64_t id) { return !i32_null(id) && 3 * id > 29000; }
static bool f64_above(int64_t id) { return !f64_null(id) && !f64_nan(id) && id * 0.5 > 4000; }
static bool f64_not_above(int64_t id) { return !f64_null(id) && (f64_nan(id) || !(id * 0.5 > 4000)); }
static bool f32_from_1000(int64_t id) { return id / 4.0 >= 1000; }
static bool from_4000(int64_t id) { return id >= 4000; }
static bool s_151(int64_t id) { return id == 151; }
static bool s_null_or_small(int64_t id) { return s_null(id) || id < 20; }
static bool none(int64_t id) { return id < 0; }

static void explain_has(pqt_table *t, const char *needle)
{
    char buf[8192];
    pqt_table_explain(t, buf, sizeof buf);
    if (!strstr(buf, needle)) {
        printf("explain lacks '%s':\n%s", needle, buf);
        CHECK(0);
    }
}

static void test_values_and_pruning(int threads)
{
    const char *r1[] = {"id > 9000"};
    pqt_table *t = open_filtered(r1, 1, threads, 0, 0);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), NROWS);
    check_rows(t, above_9000, 1, NROWS);
    /* rows 1..8192 are four row groups whose max id is <= 8192: never read */
    explain_has(t, "row group 1: pruned by statistics (id > 9000)");
    explain_has(t, "row group 4: pruned by statistics");
    explain_has(t, "row group 5: filtered, 1000 of 1808 rows kept");
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 1808);
    pqt_scan_counts sc;
    REQUIRE_OK(pqt_table_scan_stats(t, &sc));
    CHECK_EQ_I64(sc.row_groups, 5);
    CHECK_EQ_I64(sc.row_groups_pruned_stats, 4);
    CHECK_EQ_I64(sc.row_groups_all, 0);
    pqt_table_close(t);

    const char *r2[] = {"i32 > 29000"};
    t = open_filtered(r2, 1, threads, 0, 0);
    check_rows(t, i32_above, 1, NROWS);
    pqt_table_close(t);

    /* NaN > x is false, null is unknown: both dropped; `not` keeps NaN, still drops null */
    const char *r3[] = {"f64 > 4000"};
    t = open_filtered(r3, 1, threads, 0, 0);
    check_rows(t, f64_above, 1, NROWS);
    pqt_table_close(t);
    const char *r3n[] = {"not (f64 > 4000)"};
    t = open_filtered(r3n, 1, threads, 0, 0);
    check_rows(t, f64_not_above, 1, NROWS);
    pqt_table_close(t);

    const char *r4[] = {"s == \"s151\"", "id>100"};
    t = open_filtered(r4, 2, threads, 0, 0);
    check_rows(t, s_151, 1, NROWS);
    pqt_table_close(t);

    const char *r5[] = {"s is_null or id < 20"};
    t = open_filtered(r5, 1, threads, 0, 0);
    check_rows(t, s_null_or_small, 1, NROWS);
    pqt_table_close(t);

    const char *r6[] = {"id < 0"};
    t = open_filtered(r6, 1, threads, 0, 0);
    check_rows(t, none, 1, NROWS);
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 0);
    pqt_table_close(t);
}

/* A slice first, then the filter within it; bounds in survivor numbering. */
static void test_slice(int threads)
{
    const char *r[] = {"f32 >= 1000"};
    pqt_table *t = open_filtered(r, 1, threads, 2000, 5000);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 3001);
    check_rows(t, f32_from_1000, 2000, 5000);
    explain_has(t, "row group 1: pruned by statistics (f32 >= 1000)");
    /* DuckDB writes no nan_count: a float chunk may hold NaN, so no ALL proof for floats */
    explain_has(t, "row group 3: filtered, 904 of 904 rows kept");
    explain_has(t, "row group 4: outside the slice");
    int64_t *b = NULL;
    int n = 0;
    REQUIRE_OK(pqt_table_row_group_bounds(t, 0, &b, &n));
    CHECK_EQ_I64(n, 5);
    int64_t want[10] = {1, 0, 1, 97, 98, 1001, 1002, 1001, 1002, 1001};
    for (int i = 0; i < 10; i++) CHECK_EQ_I64(b[i], want[i]);
    pqt_free(b);
    REQUIRE_OK(pqt_table_row_group_bounds(t, 1, &b, &n));
    CHECK_EQ_I64(b[2], 2049); /* the physical form is the file's */
    pqt_free(b);
    pqt_table_close(t);

    const char *ri[] = {"id >= 4000"};
    t = open_filtered(ri, 1, threads, 2000, 5000);
    check_rows(t, from_4000, 2000, 5000);
    explain_has(t, "row group 3: every row passes by statistics, 904 rows kept");
    pqt_scan_counts sc;
    REQUIRE_OK(pqt_table_scan_stats(t, &sc));
    CHECK_EQ_I64(sc.row_groups, 3);
    CHECK_EQ_I64(sc.row_groups_pruned_stats, 1);
    CHECK_EQ_I64(sc.row_groups_all, 1);
    /* the filter decoded row group 2's 2048 ids (1 is pruned, 3 passes whole); check_rows
     * then read the 1001 survivors */
    CHECK_EQ_I64(pqt_table_scan_values(t, "id"), 2048 + 1001);
    pqt_table_close(t);
}

static void test_clone_keeps_plan(void)
{
    const char *r[] = {"id > 9000"};
    pqt_table *t = open_filtered(r, 1, 1, 0, 0), *c = NULL;
    REQUIRE_OK(pqt_table_clone(t, &c));
    pqt_table_close(t);
    check_rows(c, above_9000, 1, NROWS);
    explain_has(c, "row group 1: pruned by statistics");
    pqt_table_close(c);
}

/* A LIST column's width is measured over the table's own rows (its scope, as a slice's row
 * groups are a slice's), reading only the pages holding them. lst is [id] when id % 3 == 1,
 * [id, id + 1] when id % 3 == 2 and [] when id % 3 == 0 (make_table_data.mjs): ragged over
 * the file, uniform over ids 1, 4, 7 and 9001. */
static void test_list_width_scope(void)
{
    int kind = 0, width = -1;
    pqt_table *whole = open_filtered(NULL, 0, 1, 0, 0);
    CHECK_OK(pqt_table_kind(whole, "lst", &kind));
    CHECK_EQ_I64(kind, PQT_INT32 | PQT_LIST);
    pqt_table_close(whole);

    const char *uniform[] = {"id in (1, 4, 7, 9001)"};
    pqt_table *t = open_filtered(uniform, 1, 2, 0, 0);
    CHECK_OK(pqt_table_kind(t, "lst", &kind));
    CHECK_OK(pqt_table_width(t, "lst", &width));
    CHECK_EQ_I64(kind, PQT_INT32 | PQT_VECTOR);
    CHECK_EQ_I64(width, 1);
    void *data = NULL;
    uint8_t *valid = NULL;
    int64_t n = 0;
    CHECK_OK(pqt_table_get_alloc(t, "lst", 0, &data, &valid, &n));
    static const int32_t want[] = {1, 4, 7, 9001};
    CHECK_EQ_I64(n, 4);
    if (n == 4) CHECK(memcmp(data, want, sizeof want) == 0);
    pqt_free(data);
    pqt_free(valid);
    /* measured and read over two row groups' pages, never the other three */
    CHECK(pqt_table_scan_values(t, "lst") <= 2 * 2 * 2048);
    pqt_table_close(t);

    const char *ragged[] = {"id <= 3"};
    t = open_filtered(ragged, 1, 1, 0, 0);
    CHECK_OK(pqt_table_kind(t, "lst", &kind));
    CHECK_EQ_I64(kind, PQT_INT32 | PQT_LIST);
    pqt_table_close(t);
}

/* pqt_opts_set_filter copies: the filter may go before the open. */
static void test_filter_object(void)
{
    pqt_filter *f = NULL;
    REQUIRE_OK(pqt_filter_new(&f));
    int64_t ids[] = {5, 2050, 9999, 77777};
    REQUIRE_OK(pqt_filter_add_in(f, "id", PQT_INT64, ids, 4, NULL, 0));
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_filter(o, f));
    pqt_filter_free(f);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(FILE_RG, o, &t));
    int64_t *v = NULL, n = 0;
    REQUIRE_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&v, NULL, &n));
    CHECK_EQ_I64(n, 3);
    CHECK_EQ_I64(v[0], 5);
    CHECK_EQ_I64(v[1], 2050);
    CHECK_EQ_I64(v[2], 9999);
    pqt_free(v);
    pqt_table_close(t);
    /* NULL removes the filter */
    REQUIRE_OK(pqt_opts_set_filter(o, NULL));
    REQUIRE_OK(pqt_table_open(FILE_RG, o, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), NROWS);
    pqt_table_close(t);
    pqt_opts_free(o);
}

static void expect_bad(const char *rule, const char *needle)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    pqt_status st = pqt_opts_set_str(o, PQT_OPT_FILTER, rule);
    pqt_table *t = NULL;
    if (st == PQT_OK) st = pqt_table_open(FILE_RG, o, &t);
    CHECK_EQ_I64(st, PQT_BAD_FILTER);
    CHECK(t == NULL);
    if (!strstr(pqt_errmsg(), needle)) {
        printf("message '%s' lacks '%s'\n", pqt_errmsg(), needle);
        CHECK(0);
    }
    pqt_opts_free(o);
}

static void test_errors(void)
{
    expect_bad("idd > 3", "did you mean 'id'");
    expect_bad("id > \"x\"", "id");
    expect_bad("lst > 3", "lst");
    expect_bad("vec > 3", "vec");
    expect_bad("id >", "character");
    CHECK_EQ_I64(pqt_opts_set_int(NULL, PQT_OPT_FILTER, 1), PQT_MISUSE);
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_FILTER, 1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_opts_set_str(o, PQT_OPT_THREADS, "2"), PQT_MISUSE);
    /* a rule that fails to parse leaves the options as they were: no filter */
    CHECK_EQ_I64(pqt_opts_set_str(o, PQT_OPT_FILTER, "id >"), PQT_BAD_FILTER);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(FILE_RG, o, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), NROWS);
    pqt_table_close(t);
    pqt_opts_free(o);
}

int main(void)
{
    test_values_and_pruning(1);
    test_values_and_pruning(2);
    test_slice(1);
    test_slice(2);
    test_clone_keeps_plan();
    test_list_width_scope();
    test_filter_object();
    test_errors();
    return pqt_test_done("test_table_open_filter");
}
