/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sort_open.c - a sort and a limit given at table open (issue 12, docs/sort.md): the order of
 * the rows against an independent model, and against the table calls (sort_by, argsort_by, top_n,
 * is_sorted_by after an unsorted open), threads 1 and 2, with and without a filter and a limit; the
 * key columns resident, other columns read into sorted position, the row index, slices refused,
 * bounds, clone, explain, errors.
 *
 * tests/data/table_rg.parquet was written by DuckDB (tests/data/make_table_data.mjs) from
 * formulas of the 1-based row number id: 10000 rows in row groups of 2048, i32 = 3 id (NULL
 * when id % 7 == 0), f32 = id / 4, f64 = id / 2 (NULL when id % 11 == 0, NaN when id % 13
 * == 0), s = 's' id (NULL when id % 5 == 0). The model sorts the ids with qsort and a
 * comparator written out here from those formulas and the documented placement (values,
 * NaN, nulls; desc reverses values only; nulls_first: nulls, NaN, values), ties broken by
 * id (the file order), which is what stability means. pqt is never its own truth.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define FILE_RG "tests/data/table_rg.parquet"
#define NROWS 10000

/* ---- the model ---- */
enum { K_ID, K_I32, K_F32, K_F64, K_S };
typedef struct mkey {
    int col;
    bool desc, nulls_first;
} mkey;
static mkey model_keys[4];
static int model_nkeys;

static bool is_null(int col, int64_t id)
{
    return (col == K_I32 && id % 7 == 0) || (col == K_F64 && id % 11 == 0) ||
           (col == K_S && id % 5 == 0);
}
static bool is_nan(int col, int64_t id) { return col == K_F64 && !is_null(col, id) && id % 13 == 0; }

/* Value order of two present, non-NaN values of col. */
static int value_cmp(int col, int64_t a, int64_t b)
{
    switch (col) {
    case K_S: {
        char x[32], y[32];
        snprintf(x, sizeof x, "s%lld", (long long)a);
        snprintf(y, sizeof y, "s%lld", (long long)b);
        int c = strcmp(x, y);
        return (c > 0) - (c < 0);
    }
    default: /* every other column is increasing in id */
        return (a > b) - (a < b);
    }
}

/* placement rank: values 0, NaN 1, null 2; nulls_first: null 0, NaN 1, values 2 */
static int rank_of(const mkey *k, int64_t id)
{
    int cls = is_null(k->col, id) ? 2 : is_nan(k->col, id) ? 1 : 0;
    return k->nulls_first ? 2 - cls : cls;
}

static int model_cmp(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    for (int i = 0; i < model_nkeys; i++) {
        const mkey *k = &model_keys[i];
        int ra = rank_of(k, a), rb = rank_of(k, b);
        if (ra != rb) return ra < rb ? -1 : 1;
        if (is_null(k->col, a) || is_nan(k->col, a)) continue; /* a whole class ties */
        int c = value_cmp(k->col, a, b);
        if (k->desc) c = -c;
        if (c) return c;
    }
    return (a > b) - (a < b); /* stable: file order */
}

/* The ids the model keeps: passing keep (NULL = all), sorted, at most limit (< 0: all). */
static int64_t model_ids(bool (*keep)(int64_t), int64_t limit, int64_t *out)
{
    int64_t n = 0;
    for (int64_t id = 1; id <= NROWS; id++)
        if (!keep || keep(id)) out[n++] = id;
    if (model_nkeys > 0) qsort(out, (size_t)n, sizeof *out, model_cmp);
    return limit >= 0 && limit < n ? limit : n;
}

/* ---- the cases ---- */
typedef struct sort_case {
    const char *text; /* as pqt takes it */
    int nkeys;
    mkey keys[4];
} sort_case;

static const sort_case cases[] = {
    {"f64", 1, {{K_F64, 0, 0}}},
    {"f64 desc", 1, {{K_F64, 1, 0}}},
    {"-f64", 1, {{K_F64, 1, 0}}},
    {"f64 nulls_first", 1, {{K_F64, 0, 1}}},
    {"-f64 NULLS_FIRST", 1, {{K_F64, 1, 1}}},
    {"f64 ascending, i32 descending", 2, {{K_F64, 0, 0}, {K_I32, 1, 0}}},
    {"f64 nulls_first; -i32 nulls_first", 2, {{K_F64, 0, 1}, {K_I32, 1, 1}}},
    {"s desc", 1, {{K_S, 1, 0}}},
    {"s", 1, {{K_S, 0, 0}}},
    {" i32 ; f64 desc ; s ", 3, {{K_I32, 0, 0}, {K_F64, 1, 0}, {K_S, 0, 0}}},
    {"-f32", 1, {{K_F32, 1, 0}}},
    {"id desc", 1, {{K_ID, 1, 0}}},
};

static bool keep_gappy(int64_t id) { return id > 700 && (id < 4000 || id > 6500); }
static bool keep_none(int64_t id) { (void)id; return false; }

static pqt_table *open_with(const char *sort, const char *rule, int64_t limit, int threads)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (sort) REQUIRE_OK(pqt_opts_set_sort(o, sort));
    if (rule) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rule));
    if (limit >= 0) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(FILE_RG, o, &t));
    pqt_opts_free(o);
    return t;
}

/* ids of t (read into sorted position), compared with want[0..n); also the row index and
 * the strings (gathered path) agree with the ids. */
static void check_ids(pqt_table *t, const int64_t *want, int64_t n, const char *what)
{
    CHECK_EQ_I64(pqt_table_nrows(t), n);
    int64_t *ids = NULL, *ri = NULL, got = -1;
    CHECK_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&ids, NULL, &got));
    CHECK_EQ_I64(got, n);
    int64_t bad = 0;
    for (int64_t i = 0; ids && i < n && i < got; i++) bad += ids[i] != want[i];
    if (bad) fprintf(stderr, "%s: %lld rows out of place\n", what, (long long)bad);
    CHECK_EQ_I64(bad, 0);
    CHECK_OK(pqt_table_get_alloc(t, "parquet_row_index", PQT_INT64, (void **)&ri, NULL, &got));
    bad = 0;
    for (int64_t i = 0; ri && i < n && i < got; i++) bad += ri[i] != want[i];
    CHECK_EQ_I64(bad, 0);
    int64_t *off = NULL;
    char *bytes = NULL;
    uint8_t *valid = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(t, "s", &off, &bytes, &valid, &got));
    bad = 0;
    for (int64_t i = 0; off && i < n && i < got; i++) {
        char x[32];
        int len = snprintf(x, sizeof x, "s%lld", (long long)want[i]);
        bool present = !valid || (valid[i / 8] >> (i % 8) & 1);
        if (present != !is_null(K_S, want[i])) bad++;
        else if (present && (off[i + 1] - off[i] != len || memcmp(bytes + off[i], x, (size_t)len)))
            bad++;
    }
    CHECK_EQ_I64(bad, 0);
    /* a column made resident (prefetch) is scattered into the table's buffer, validity
     * included; get_alloc of an unread one above went straight into the caller's memory */
    const char *pre[] = {"i32", "f32"};
    CHECK_OK(pqt_table_prefetch(t, pre, 2));
    pqt_column_view v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    CHECK_OK(pqt_table_column(t, "i32", PQT_INT32, &v));
    bad = 0;
    for (int64_t i = 0; v.data && i < n && i < v.nrows; i++) {
        bool present = !v.validity || (v.validity[i / 8] >> (i % 8) & 1);
        if (present != !is_null(K_I32, want[i])) bad++;
        else if (present && ((const int32_t *)v.data)[i] != 3 * want[i]) bad++;
    }
    CHECK_EQ_I64(bad, 0);
    CHECK_OK(pqt_table_column(t, "f32", PQT_FLOAT32, &v));
    bad = 0;
    for (int64_t i = 0; v.data && i < n && i < v.nrows; i++)
        bad += ((const float *)v.data)[i] != (float)want[i] / 4;
    CHECK_EQ_I64(bad, 0);
    pqt_free(ids);
    pqt_free(ri);
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(valid);
}

/* One case: open sorted (with limit and filter) against the model, then the table calls on
 * an unsorted open against the same answer and each other. */
static void run_case(const sort_case *c, const char *rule, bool (*keep)(int64_t), int64_t limit,
                     int threads)
{
    static int64_t want[NROWS], all[NROWS];
    model_nkeys = c->nkeys;
    memcpy(model_keys, c->keys, sizeof c->keys);
    int64_t n = model_ids(keep, limit, want);
    int64_t nall = model_ids(keep, -1, all);
    char what[200];
    snprintf(what, sizeof what, "sort '%s' filter '%s' limit %lld threads %d", c->text,
             rule ? rule : "", (long long)limit, threads);
    /* at open */
    pqt_table *t = open_with(c->text, rule, limit, threads);
    check_ids(t, want, n, what);
    int sorted = -1;
    CHECK_OK(pqt_table_is_sorted_by(t, c->text, NULL, &sorted));
    CHECK_EQ_I64(sorted, 1);
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_table_sort_by(t, c->text, NULL)); /* a no-op: nothing moves */
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_table_close(t);
    /* on a table opened unsorted: argsort, is_sorted, top_n, sort_by */
    t = open_with(NULL, rule, -1, threads);
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)(nall + 1));
    CHECK_OK(pqt_table_argsort_by(t, c->text, NULL, perm, NULL, 0, NULL));
    int64_t *ids = NULL, got = 0, bad = 0;
    CHECK_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&ids, NULL, &got));
    for (int64_t i = 0; ids && i < nall; i++) bad += ids[perm[i] - 1] != all[i];
    CHECK_EQ_I64(bad, 0);
    CHECK_OK(pqt_table_is_sorted_by(t, c->text, NULL, &sorted));
    CHECK_EQ_I64(sorted, nall < 2 ? 1 : 0);
    /* columns not resident become unreadable when rows move: read id first */
    const char *idn = "id";
    CHECK_OK(pqt_table_prefetch(t, &idn, 1));
    pqt_table *u = NULL;
    CHECK_OK(pqt_table_clone(t, &u));
    if (limit >= 0) CHECK_OK(pqt_table_top_n(t, c->text, NULL, limit));
    else CHECK_OK(pqt_table_sort_by(t, c->text, NULL));
    pqt_free(ids);
    ids = NULL;
    CHECK_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&ids, NULL, &got));
    CHECK_EQ_I64(got, n);
    bad = 0;
    for (int64_t i = 0; ids && i < n && i < got; i++) bad += ids[i] != want[i];
    CHECK_EQ_I64(bad, 0);
    /* the full sort's prefix is the top-n */
    if (u) {
        CHECK_OK(pqt_table_sort_by(u, c->text, NULL));
        int64_t *uid = NULL;
        CHECK_OK(pqt_table_get_alloc(u, "id", PQT_INT64, (void **)&uid, NULL, &got));
        bad = 0;
        for (int64_t i = 0; uid && ids && i < n; i++) bad += uid[i] != ids[i];
        CHECK_EQ_I64(bad, 0);
        pqt_free(uid);
    }
    if (bad) fprintf(stderr, "%s: table calls disagree\n", what);
    pqt_free(ids);
    free(perm);
    pqt_table_close(u);
    pqt_table_close(t);
}

static void test_against_model(void)
{
    const int64_t limits[] = {-1, 0, 1, 37, 2500, 20000};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int th = 1; th <= 2; th++)
            for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
                /* every case at threads 1; a third of them at 2 threads (keeps the run short) */
                if (th == 2 && (c + l) % 3 != 0) continue;
                if (l % 2 == 1 && c % 2 == 1) continue;
                run_case(&cases[c], NULL, NULL, limits[l], th);
                run_case(&cases[c], "id > 700 and (id < 4000 or id > 6500)", keep_gappy, limits[l], th);
            }
    run_case(&cases[0], "id < 0", keep_none, 5, 1);
    run_case(&cases[5], "id < 0", keep_none, -1, 2);
}

/* A limit without a sort: the first n survivors, the other columns read for them only. */
static void test_limit_only(void)
{
    static int64_t want[NROWS];
    model_nkeys = 0;
    int64_t n = model_ids(NULL, 100, want);
    pqt_table *t = open_with(NULL, NULL, 100, 1);
    check_ids(t, want, n, "limit 100");
    /* 100 rows: only the first row group is covered */
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 2048);
    int64_t *b = NULL;
    int nb = 0;
    CHECK_OK(pqt_table_row_group_bounds(t, 0, &b, &nb)); /* not sorted: the default form works */
    if (b && nb == 5) {
        CHECK_EQ_I64(b[0], 1);
        CHECK_EQ_I64(b[1], 100);
        CHECK_EQ_I64(b[2], 101);
        CHECK_EQ_I64(b[3], 100);
    }
    pqt_free(b);
    pqt_table_close(t);
    n = model_ids(keep_gappy, 1000, want);
    t = open_with(NULL, "id > 700 and (id < 4000 or id > 6500)", 1000, 2);
    check_ids(t, want, n, "filter + limit 1000");
    pqt_table_close(t);
    t = open_with(NULL, NULL, 0, 1);
    CHECK_EQ_I64(pqt_table_nrows(t), 0);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), NROWS);
    pqt_table_close(t);
}

/* Top-n at open reads the other columns only for the kept rows; keys stay resident. */
static void test_topn_reads_kept_rows(void)
{
    pqt_table *t = open_with("-id", NULL, 10, 1);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "id", &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    int32_t v[10];
    uint8_t valid[2] = {0, 0};
    CHECK_OK(pqt_table_get(t, "i32", 0, v, sizeof v, valid, sizeof valid));
    /* ids 10000 .. 9991: i32 = 3 id, null for 9996 and 9989+7 = 9996 only */
    for (int i = 0; i < 10; i++) {
        int64_t id = 10000 - i;
        bool present = valid[i / 8] >> (i % 8) & 1;
        CHECK_EQ_I64(present, id % 7 != 0);
        if (present) CHECK_EQ_I64(v[i], 3 * id);
    }
    /* every row is in the last row group: the others are not covered */
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 10000 - 4 * 2048);
    CHECK_EQ_I64(pqt_table_scan_values(t, "i32"), 9); /* 10 rows, one null */
    pqt_table_close(t);
}

static void test_bounds_clone_explain(void)
{
    pqt_table *t = open_with("s desc", "id > 9000", -1, 2);
    int64_t *b = NULL;
    int nb = 0;
    CHECK_EQ_I64(pqt_table_row_group_bounds(t, 0, &b, &nb), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "sorted") != NULL);
    CHECK_OK(pqt_table_row_group_bounds(t, 1, &b, &nb)); /* the physical form answers */
    CHECK_EQ_I64(nb, 5);
    if (b && nb == 5) {
        CHECK_EQ_I64(b[8], 8193);
        CHECK_EQ_I64(b[9], 10000);
    }
    pqt_free(b);
    char buf[2048];
    pqt_table_explain(t, buf, sizeof buf);
    CHECK(strstr(buf, "sort: s desc\n") != NULL);
    /* a clone reads unread columns in the same order */
    pqt_table *c = NULL;
    CHECK_OK(pqt_table_clone(t, &c));
    static int64_t want[NROWS];
    model_nkeys = 1;
    model_keys[0] = (mkey){K_S, 1, 0};
    int64_t n = 0;
    for (int64_t id = 9001; id <= NROWS; id++) want[n++] = id;
    qsort(want, (size_t)n, sizeof *want, model_cmp);
    check_ids(c, want, n, "clone of a sorted table");
    pqt_table_close(c);
    pqt_table_close(t);
    t = open_with("i32 nulls_first, f64", NULL, 3, 1);
    pqt_table_explain(t, buf, sizeof buf);
    CHECK(strstr(buf, "sort: i32 asc nulls_first, f64 asc\n") != NULL);
    CHECK(strstr(buf, "limit: the first 3 rows") != NULL);
    pqt_table_close(t);
}

/* Errors at open: a slice refuses a sort before the file is opened; keys that name no
 * column or a non-scalar one; nothing is returned. */
static void test_open_errors(void)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_sort(o, "id"));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 5));
    pqt_table *t = (pqt_table *)&o; /* a failed open leaves *ret alone */
    /* the file does not exist: refusing before opening it means the message is about the
     * slice, not the path */
    CHECK_EQ_I64(pqt_table_open("tests/data/no_such_file.parquet", o, &t), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "cannot be sorted") != NULL);
    CHECK(t == (pqt_table *)&o);
    pqt_opts_free(o);
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_sort(o, "f6"));
    CHECK_EQ_I64(pqt_table_open(FILE_RG, o, &t), PQT_BAD_SORT);
    CHECK(strstr(pqt_errmsg(), "sort key 'f6' names no column; did you mean") != NULL);
    CHECK_OK(pqt_opts_set_sort(o, "lst"));
    CHECK_EQ_I64(pqt_table_open(FILE_RG, o, &t), PQT_BAD_SORT);
    CHECK(strstr(pqt_errmsg(), "sort key 'lst' is a variable-length list column; sorting only "
                               "supports scalar columns") != NULL);
    CHECK_OK(pqt_opts_set_sort(o, "vec desc"));
    CHECK_EQ_I64(pqt_table_open(FILE_RG, o, &t), PQT_BAD_SORT);
    /* names are checked before the filter reads anything: the filter's own error is later */
    CHECK_OK(pqt_opts_set_sort(o, "nope"));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "also_nope > 1"));
    CHECK_EQ_I64(pqt_table_open(FILE_RG, o, &t), PQT_BAD_SORT);
    CHECK(t == (pqt_table *)&o);
    /* NULL / "" remove the sort; then only the filter fails */
    CHECK_OK(pqt_opts_set_sort(o, ""));
    CHECK_EQ_I64(pqt_table_open(FILE_RG, o, &t), PQT_BAD_FILTER);
    pqt_opts_free(o);
}

/* filter_rows on a table sorted at open: the sorted plan cannot be refined, so the rows are
 * gathered (in sorted order) and the table detaches. */
static void test_filter_rows_after_sort(void)
{
    pqt_table *t = open_with("-id", NULL, -1, 1);
    const char *idn = "id";
    CHECK_OK(pqt_table_prefetch(t, &idn, 1));
    CHECK_OK(pqt_table_filter_rows(t, "id > 9990"));
    CHECK_EQ_I64(pqt_table_nrows(t), 10);
    int64_t ids[10] = {0};
    CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
    for (int i = 0; i < 10; i++) CHECK_EQ_I64(ids[i], 10000 - i);
    CHECK_EQ_I64(pqt_table_is_detached(t), 1);
    pqt_table_close(t);
}

int main(void)
{
    test_filter_rows_after_sort();
    test_against_model();
    test_limit_only();
    test_topn_reads_kept_rows();
    test_bounds_clone_explain();
    test_open_errors();
    return pqt_test_done("test_sort_open");
}
