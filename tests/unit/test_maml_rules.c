/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_maml_rules.c - a read-in MAML's extra: filter:, extra: sort: and fields: qc: at table
 * open (docs/maml.md): file column names, joined with the
 * caller's rules in internal names; MAML sort keys first; qc merged per column (MAML wins,
 * an empty qc: claims the column); problems reported at open with their MAML lines, all of
 * them at once; and one table combining remap + filter + sort + qc + slice + clone.
 * Truth: tests/data/table_rg.parquet (tests/data/make_table_data.mjs, DuckDB): 10000 rows in
 * row groups of 2048; id = row number, i32 = 3 id (NULL when id % 7 == 0), f32 = id / 4,
 * s = 's' || id (NULL when id % 5 == 0). Every expected row list below is computed by hand
 * from those formulas.
 */
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

#define RG "tests/data/table_rg.parquet"

static pqt_opts *opts_with(const char *maml)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_maml_text(o, maml));
    return o;
}

static pqt_table *open_or_null(const pqt_opts *o)
{
    pqt_table *t = NULL;
    if (pqt_table_open(RG, o, &t) != PQT_OK) fprintf(stderr, "open: %s\n", pqt_errmsg());
    return t;
}

/* The int64 column name of t as a list, checked against want[0..n). */
static void check_ids(pqt_table *t, const char *name, const int64_t *want, int64_t n)
{
    CHECK_EQ_I64(pqt_table_nrows(t), n);
    if (pqt_table_nrows(t) != n) return;
    int64_t *v = calloc((size_t)n + 1, sizeof *v);
    CHECK_OK(pqt_table_get(t, name, PQT_INT64, v, (size_t)n * sizeof *v, NULL, 0));
    for (int64_t i = 0; i < n; i++)
        if (v[i] != want[i]) {
            fprintf(stderr, "row %lld: %s = %lld, want %lld\n", (long long)i + 1, name,
                    (long long)v[i], (long long)want[i]);
            CHECK(v[i] == want[i]);
            break;
        }
    free(v);
}

static void test_filter_file_names(void)
{
    /* the MAML names the file's id; the caller names the internal n */
    pqt_opts *o = opts_with("extra:\n  remap:\n    - n: id\n  filter:\n    - id <= 100\n"
                            "    - id in (42, 49, 56, 300) or id > 95\n");
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "n > 40"));
    pqt_table *t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    /* 40 < id <= 100 and (id in (42, 49, 56, 300) or id > 95) */
    const int64_t want[] = {42, 49, 56, 96, 97, 98, 99, 100};
    check_ids(t, "n", want, 8);
    /* one program: the MAML's id <= 100 refutes row groups 2..5 by their statistics */
    char plan[4096];
    pqt_table_explain(t, plan, sizeof plan);
    CHECK(strstr(plan, "row group 2: pruned by statistics") != NULL);
    CHECK(strstr(plan, "row group 5: pruned by statistics") != NULL);
    pqt_table_close(t);
    /* the MAML alone, no caller filter */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  filter: ['id > 9996']\n"));
    REQUIRE_OK(pqt_opts_set_filter(o, NULL));
    t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    const int64_t tail[] = {9997, 9998, 9999, 10000};
    check_ids(t, "id", tail, 4);
    pqt_table_close(t);
    pqt_opts_free(o);
}

static void test_filter_shadowed_file_name(void)
{
    /* - id: i32 shadows the file's id: a MAML filter on file i32 reaches it under id, and
     * the caller's id is the same column; the file's own id is unreachable */
    pqt_opts *o = opts_with("extra:\n  remap:\n    - id: i32\n  filter:\n    - i32 < 30\n");
    pqt_table *t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    /* 3 id < 30, not null: id 1..9 (7 is null) -> values 3 6 9 12 15 18 24 27 */
    const int64_t want[] = {3, 6, 9, 12, 15, 18, 24, 27};
    check_ids(t, "id", want, 8);
    pqt_table_close(t);
    /* the file's own id, which no table column reads, is still filtered by: file id < 4
     * keeps rows 1..3, where the internal id (file i32) is 3, 6, 9 */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  remap:\n    - id: i32\n  filter:\n"
                                         "    - id < 4\n"));
    t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    const int64_t first3[] = {3, 6, 9};
    check_ids(t, "id", first3, 3);
    char plan[2048];
    pqt_table_explain(t, plan, sizeof plan);
    CHECK(strstr(plan, "1. `id (file column)` < 4") != NULL);
    CHECK(strstr(plan, "row group 2: pruned by statistics") != NULL);
    pqt_table_close(t);
    /* it cannot be a sort key: no slot reads it */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  remap:\n    - id: i32\n  sort: [id]\n"));
    CHECK(pqt_table_open(RG, o, &t) == PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "line 4: extra: sort: key 'id' names a file column that has no "
                               "table column") != NULL);
    pqt_opts_free(o);
}

static void test_sort_maml_first(void)
{
    /* MAML: i32 desc nulls_first (file name); caller: -n breaks the ties (the two nulls) */
    pqt_opts *o = opts_with("extra:\n  remap:\n    - n: id\n  filter: ['id > 90', 'id <= 100']\n"
                            "  sort:\n    - i32 desc nulls_first\n");
    pqt_table *t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    /* without a caller key the nulls (91, 98) keep file order */
    const int64_t alone[] = {91, 98, 100, 99, 97, 96, 95, 94, 93, 92};
    check_ids(t, "n", alone, 10);
    pqt_table_close(t);
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_SORT, "-n"));
    t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    const int64_t tied[] = {98, 91, 100, 99, 97, 96, 95, 94, 93, 92};
    check_ids(t, "n", tied, 10);
    char plan[4096];
    pqt_table_explain(t, plan, sizeof plan);
    CHECK(strstr(plan, "sort: i32 desc nulls_first, n desc") != NULL);
    pqt_table_close(t);
    /* nulls_last and a plain key; two keys in MAML order */
    REQUIRE_OK(pqt_opts_set_sort(o, NULL));
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  filter: ['id >= 11', 'id <= 16']\n"
                                         "  sort:\n    - s nulls_last\n    - -f32\n"));
    t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    /* s: s11 s12 s13 s14 NULL(15) s16 -> by string, null last */
    const int64_t by_s[] = {11, 12, 13, 14, 16, 15};
    check_ids(t, "id", by_s, 6);
    pqt_table_close(t);
    pqt_opts_free(o);
}

static void test_sort_errors(void)
{
    pqt_opts *o = opts_with("extra:\n  sort:\n    - nope\n    - vec\n    - 'id sideways'\n"
                            "  filter:\n    - 'id >'\n    - 'zz == 1'\n");
    pqt_table *t = NULL;
    CHECK(pqt_table_open(RG, o, &t) == PQT_BAD_MAML);
    CHECK(t == NULL);
    const char *e = pqt_errmsg();
    CHECK(strstr(e, "5 problems") != NULL);
    CHECK(strstr(e, "line 3: extra: sort: key 'nope' is not a column of the file") != NULL);
    CHECK(strstr(e, "line 4: extra: sort: key 'vec' is a list column") != NULL);
    CHECK(strstr(e, "line 5: extra: sort: sort key 'id sideways' has an unrecognized "
                    "direction 'sideways'") != NULL);
    CHECK(strstr(e, "line 7: extra: filter: filter rule 'id >' is missing a value") != NULL);
    CHECK(strstr(e, "line 8: extra: filter (file column names): unknown column in filter: "
                    "zz") != NULL);
    /* a slice with a MAML sort: refused before the file is opened */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  sort: ['-id']\n"));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 10));
    CHECK(pqt_table_open("/nonexistent/x.parquet", o, &t) == PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "MAML text: line 2: extra: sort: on a slice") != NULL);
    pqt_opts_free(o);
}

static void test_qc_merge(void)
{
    pqt_qc *qc;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "n, >= 1000"));       /* claimed by the MAML's empty qc: */
    REQUIRE_OK(pqt_qc_add(qc, "quarter, , <= 10")); /* claimed by the MAML's max: 100 */
    REQUIRE_OK(pqt_qc_add(qc, "i32, >= 0, , "));    /* not claimed: nulls forbidden */
    pqt_opts *o = opts_with("fields:\n  - name: id\n    qc:\n  - name: f32\n    qc:\n"
                            "      min: '> 0'\n      max: 100\n  - name: s\n    qc:\n"
                            "      miss: ''\n  - name: NOT_IN_FILE\n    qc:\n      min: 1\n"
                            "extra:\n  remap:\n    - n: id\n    - quarter: f32\n"
                            "  filter: ['id <= 20']\n");
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_table *t = open_or_null(o);
    REQUIRE_OK(t == NULL); /* n >= 1000 would fail here: the filter checks what it reads */
    const int64_t want[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    check_ids(t, "n", want, 20);
    double q[20];
    CHECK_OK(pqt_table_get(t, "quarter", PQT_FLOAT64, q, sizeof q, NULL, 0)); /* <= 100 */
    CHECK(q[0] == 0.25 && q[19] == 5.0);
    /* the caller's rule on an unclaimed column still runs: i32 holds nulls at 7 and 14 */
    int32_t iv[20];
    CHECK(pqt_table_get(t, "i32", PQT_INT32, iv, sizeof iv, NULL, 0) == PQT_QC);
    CHECK(strstr(pqt_errmsg(), "2 of 20 element(s) are Null") != NULL);
    /* the MAML's own rule: s holds nulls at 5, 10, 15, 20 and miss: is declared empty */
    const char *sp;
    int64_t slen;
    CHECK(pqt_table_get_string(t, "s", 1, 0, &sp, &slen, NULL) == PQT_QC);
    CHECK(strstr(pqt_errmsg(), "qc violation for column 's'") != NULL);
    CHECK(strstr(pqt_errmsg(), "4 of 20 element(s) are Null") != NULL);
    pqt_table_close(t);
    /* the MAML's bound, checked on the MAML's column under its internal name */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "fields:\n  - name: f32\n    qc:\n      max: 2\n"
                                         "extra:\n  remap:\n    - quarter: f32\n"
                                         "  filter: ['id <= 20']\n"));
    pqt_qc_clear(qc);
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    CHECK(pqt_table_get(t, "quarter", PQT_FLOAT64, q, sizeof q, NULL, 0) == PQT_QC);
    CHECK(strstr(pqt_errmsg(),
                 "qc violation for column 'quarter': declared max <= 2, data "
                 "range [0.25, 5.0], 12 of 20 valid element(s) out of range") != NULL);
    pqt_table_close(t);
    /* a bound that does not fit the file's type: a MAML problem at open, with its line */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "fields:\n  - name: id\n    qc:\n      min: 1.5\n"));
    CHECK(pqt_table_open(RG, o, &t) == PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "line 2: field 'id': qc: qc rule for column 'id': the min bound "
                               "'1.5' is not an integer") != NULL);
    pqt_opts_free(o);
    pqt_qc_free(qc);
}

/* remap + filter + sort + qc + units, on a slice (no sort there) and on a whole file, cloned */
static void test_everything_together(void)
{
    static const char *maml = "table: rg\n"
                              "fields:\n"
                              "  - name: id\n"
                              "    unit: count\n"
                              "    qc:\n"
                              "  - name: f32\n"
                              "    unit: deg\n"
                              "    qc:\n"
                              "      min: 0\n"
                              "      max: 100\n"
                              "extra:\n"
                              "  remap:\n"
                              "    - n: id\n"
                              "    - quarter: f32\n"
                              "  filter:\n"
                              "    - id <= 100\n"
                              "  sort:\n"
                              "    - i32 desc nulls_first\n";
    pqt_qc *qc;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "n, >= 1000"));
    REQUIRE_OK(pqt_qc_add(qc, "quarter, , <= 10"));
    pqt_opts *o = opts_with(maml);
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "n > 90"));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_SORT, "-n"));
    pqt_table *t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, "n", &u));
    CHECK(u && !strcmp(u, "count"));
    CHECK_OK(pqt_table_unit(t, "quarter", &u));
    CHECK(u && !strcmp(u, "deg"));
    pqt_table *c = NULL;
    CHECK_OK(pqt_table_clone(t, &c)); /* before any column is read: the clone reads lazily */
    const int64_t want[] = {98, 91, 100, 99, 97, 96, 95, 94, 93, 92};
    for (int k = 0; k < 2; k++) {
        pqt_table *x = k ? c : t;
        if (!x) continue;
        check_ids(x, "n", want, 10);
        double q[10];
        CHECK_OK(pqt_table_get(x, "quarter", PQT_FLOAT64, q, sizeof q, NULL, 0));
        for (int i = 0; i < 10; i++)
            CHECK(q[i] == (double)want[i] / 4);
        const char *p;
        int64_t len;
        int isnull = 0;
        CHECK_OK(pqt_table_get_string(x, "s", 1, 0, &p, &len, &isnull));
        CHECK(!isnull && len == 3 && !memcmp(p, "s98", 3));
        CHECK_OK(pqt_table_get_string(x, "s", 3, 0, &p, &len, &isnull));
        CHECK(isnull); /* id 100 */
        CHECK_OK(pqt_table_unit(x, "quarter", &u));
        CHECK(u && !strcmp(u, "deg"));
    }
    pqt_table_close(c);
    pqt_table_close(t);
    /* the same MAML without its sort on a slice: the filters apply within rows 51..2048 */
    static const char *maml_slice = "fields:\n  - name: id\n    qc:\n"
                                    "extra:\n  remap:\n    - n: id\n  filter:\n"
                                    "    - id <= 100\n";
    REQUIRE_OK(pqt_opts_set_maml_text(o, maml_slice));
    pqt_qc_clear(qc);
    REQUIRE_OK(pqt_qc_add(qc, "n, >= 1000")); /* claimed by the empty qc: again */
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    REQUIRE_OK(pqt_opts_set_sort(o, NULL));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 51));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 2048));
    t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    const int64_t sl[] = {91, 92, 93, 94, 95, 96, 97, 98, 99, 100};
    check_ids(t, "n", sl, 10);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 1998);
    CHECK_OK(pqt_table_clone(t, &c));
    if (c) {
        int64_t ri[10];
        CHECK_OK(pqt_table_get(c, "parquet_row_index", PQT_INT64, ri, sizeof ri, NULL, 0));
        CHECK(ri[0] == 91 && ri[9] == 100);
    }
    pqt_table_close(c);
    pqt_table_close(t);
    pqt_opts_free(o);
    pqt_qc_free(qc);
}

static void test_several_problems(void)
{
    /* remap, filter, sort and qc problems of one MAML in one report */
    pqt_opts *o = opts_with("fields:\n"
                            "  - name: id\n"
                            "    qc:\n"
                            "      max: 2.5\n"
                            "extra:\n"
                            "  remap:\n"
                            "    - a: NO_SUCH\n"
                            "  filter:\n"
                            "    - s > 3\n"
                            "  sort:\n"
                            "    - lst\n");
    pqt_table *t = NULL;
    CHECK(pqt_table_open(RG, o, &t) == PQT_BAD_MAML);
    const char *e = pqt_errmsg();
    CHECK(strstr(e, "4 problems") != NULL);
    CHECK(strstr(e, "line 7: extra: remap: 'a' maps to 'NO_SUCH'") != NULL);
    CHECK(strstr(e, "line 9: extra: filter (file column names): ") != NULL);
    CHECK(strstr(e, "line 11: extra: sort: key 'lst' is a list column") != NULL);
    CHECK(strstr(e, "line 2: field 'id': qc") != NULL);
    /* pqt maml check's report holds the same four */
    char *report = NULL;
    int n = 0;
    FILE *f = fopen("tests_maml_rules_tmp.maml", "w");
    REQUIRE_OK(f == NULL);
    fputs("fields:\n  - name: id\n    qc:\n      max: 2.5\nextra:\n  remap:\n    - a: NO_SUCH\n"
          "  filter:\n    - s > 3\n  sort:\n    - lst\n",
          f);
    fclose(f);
    CHECK(pqt_maml_check_alloc("tests_maml_rules_tmp.maml", RG, &report, &n) == PQT_BAD_MAML);
    CHECK_EQ_I64(n, 4);
    pqt_free(report);
    /* without the file only the rules' syntax can be checked: none is wrong */
    CHECK_OK(pqt_maml_check_alloc("tests_maml_rules_tmp.maml", NULL, &report, &n));
    CHECK_EQ_I64(n, 0);
    remove("tests_maml_rules_tmp.maml");
    pqt_opts_free(o);
}

/* parquet_row_index in a MAML's rules: the row index, unless the file has a column of that
 * name (table_rowidx.parquet: a = 1..5, its own parquet_row_index = 100 + a), which only a
 * remap makes reachable; pqt_table_file_column answers the file column behind a name. */
static void test_row_index_names(void)
{
    pqt_opts *o = opts_with("extra:\n  remap:\n    - n: id\n"
                            "  filter: ['parquet_row_index > 9997']\n");
    pqt_table *t = open_or_null(o);
    REQUIRE_OK(t == NULL);
    const int64_t want[] = {9998, 9999, 10000};
    check_ids(t, "n", want, 3);
    const char *path = NULL;
    CHECK_OK(pqt_table_file_column(t, "n", &path));
    CHECK(path && !strcmp(path, "id"));
    CHECK_OK(pqt_table_file_column(t, "s", &path));
    CHECK(path && !strcmp(path, "s"));
    CHECK(pqt_table_file_column(t, "id", &path) == PQT_NOT_FOUND); /* no such table column */
    CHECK_OK(pqt_table_rename_column(t, "n", "m")); /* a rename keeps the file column */
    CHECK_OK(pqt_table_file_column(t, "m", &path));
    CHECK(path && !strcmp(path, "id"));
    CHECK_OK(pqt_table_copy_column(t, "m", "m2", 0, 1));
    CHECK(pqt_table_file_column(t, "m2", &path) == PQT_NOT_FOUND); /* a copy reads no file */
    CHECK(pqt_table_file_column(t, "parquet_row_index", &path) == PQT_NOT_FOUND);
    pqt_table_close(t);
    /* the file's own parquet_row_index, reached through a remap, filtered and sorted by */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  remap:\n    - own: parquet_row_index\n"
                                         "  filter: ['parquet_row_index >= 103']\n"
                                         "  sort: ['-parquet_row_index']\n"));
    t = NULL;
    CHECK_OK(pqt_table_open("tests/data/table_rowidx.parquet", o, &t));
    if (t) {
        const int64_t own[] = {105, 104, 103};
        check_ids(t, "own", own, 3);
        const int64_t a[] = {5, 4, 3};
        check_ids(t, "a", a, 3);
        CHECK_OK(pqt_table_file_column(t, "own", &path));
        CHECK(path && !strcmp(path, "parquet_row_index"));
    }
    pqt_table_close(t);
    /* without the remap the file's column has no table column, and is filtered all the
     * same (a = 3, 4, 5) */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  filter: ['parquet_row_index >= 103']\n"));
    t = NULL;
    CHECK_OK(pqt_table_open("tests/data/table_rowidx.parquet", o, &t));
    if (t) {
        const int64_t a[] = {3, 4, 5};
        check_ids(t, "a", a, 3);
    }
    pqt_table_close(t);
    pqt_opts_free(o);
}

/* Every allocation of an open with a MAML's rules failing in turn: PQT_NOMEM or the table,
 * never another status, a crash or a leak (the sanitizer build checks the leaks). */
static void test_alloc_failures(void)
{
    pqt_qc *qc;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "n, >= 0"));
    REQUIRE_OK(pqt_qc_add(qc, "f64, >= 0"));
    pqt_opts *o = opts_with("fields:\n  - name: id\n    unit: count\n    qc:\n"
                            "  - name: f32\n    qc:\n      max: 100\n"
                            "extra:\n  remap:\n    - n: id\n  filter: ['id <= 100', 'i32 > 3']\n"
                            "  sort: ['i32 desc nulls_first']\n");
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "n > 90"));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_SORT, "-n"));
    int ok = 0, nomem = 0;
    for (long k = 0; k < 3000 && ok == 0; k++) {
        pqt_table *t = NULL;
        pqt_mem_fail_after(k);
        pqt_status st = pqt_table_open(RG, o, &t);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            /* 90 < id <= 100, i32 = 3 id > 3 and not null (91, 98 are): by i32 desc */
            const int64_t want[] = {100, 99, 97, 96, 95, 94, 93, 92};
            check_ids(t, "n", want, 8);
            ok++;
        } else {
            if (st != PQT_NOMEM) fprintf(stderr, "k=%ld: %s\n", k, pqt_errmsg());
            CHECK_EQ_I64(st, PQT_NOMEM);
            CHECK(t == NULL);
            nomem++;
        }
        pqt_table_close(t);
    }
    CHECK(ok == 1 && nomem > 0);
    pqt_opts_free(o);
    pqt_qc_free(qc);
}

int main(void)
{
    test_filter_file_names();
    test_filter_shadowed_file_name();
    test_sort_maml_first();
    test_sort_errors();
    test_qc_merge();
    test_everything_together();
    test_several_problems();
    test_row_index_names();
    test_alloc_failures();
    return pqt_test_done("test_maml_rules");
}
