/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_filter_rows.c - the filter language on rows in memory: pqt_table_row_mask_with and
 * pqt_table_filter_rows_with (and their _rule forms).
 *
 * Truth: tests/data/filter_rows_expect.tsv holds, for 36 rules over corpus files and a
 * DuckDB-written file, the rows DuckDB keeps for an SQL predicate of the same meaning
 * (tests/data/make_filter_rows_expect.mjs); table_rg.parquet and table_big.parquet values
 * are formulas of the row number (tests/data/make_table_data.mjs); the in-memory table's
 * rows are computed here by hand from the values put in.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define RG "tests/data/table_rg.parquet"
#define BIG "tests/data/table_big.parquet"
#define EXPECT "tests/data/filter_rows_expect.tsv"

/* "kind:v1,v2,..." -> values for pqt_filter_bind / add_in (strings point into spec). */
static pqt_status add_set(pqt_filter *f, const char *name, bool bind, int negate, char *spec)
{
    char *colon = strchr(spec, ':');
    if (!colon) return PQT_MISUSE;
    *colon = '\0';
    char *vals[64];
    int n = pqt_test_split(colon + 1, ',', vals, 64);
    int32_t i32[64];
    int64_t i64[64];
    double f64[64];
    const void *data = NULL;
    int kind = 0;
    for (int k = 0; k < n; k++) {
        i32[k] = (int32_t)atoi(vals[k]);
        i64[k] = atoll(vals[k]);
        f64[k] = atof(vals[k]);
    }
    if (strcmp(spec, "i32") == 0)
        kind = PQT_INT32, data = i32;
    else if (strcmp(spec, "i64") == 0)
        kind = PQT_INT64, data = i64;
    else if (strcmp(spec, "f64") == 0)
        kind = PQT_FLOAT64, data = f64;
    else
        kind = PQT_STRING, data = vals;
    return bind ? pqt_filter_bind(f, name, kind, data, n, NULL)
                : pqt_filter_add_in(f, name, kind, data, n, NULL, negate);
}

static pqt_filter *build_filter(const char *rule, char *binds, char *addin)
{
    pqt_filter *f = NULL;
    REQUIRE_OK(pqt_filter_new(&f));
    if (*rule) CHECK_OK(pqt_filter_add(f, rule));
    if (*binds) {
        char *sets[8];
        int n = pqt_test_split(binds, ';', sets, 8);
        for (int k = 0; k < n; k++) {
            char *eq = strchr(sets[k], '=');
            *eq = '\0';
            CHECK_OK(add_set(f, sets[k], true, 0, eq + 1));
        }
    }
    if (*addin) {
        char *eq = strchr(addin, '=');
        int negate = eq > addin && eq[-1] == '!';
        eq[-negate] = '\0';
        CHECK_OK(add_set(f, addin, false, negate, eq + 1));
    }
    return f;
}

/* "a-b,c,..." -> keep[0..n) bytes; returns the rows listed. */
static int64_t parse_rows(char *runs, uint8_t *keep, int64_t n)
{
    memset(keep, 0, (size_t)n);
    int64_t cnt = 0;
    for (char *p = runs; *p;) {
        char *end;
        int64_t lo = strtoll(p, &end, 10), hi = lo;
        if (*end == '-') hi = strtoll(end + 1, &end, 10);
        for (int64_t r = lo; r <= hi; r++)
            if (r >= 1 && r <= n) keep[r - 1] = 1, cnt++;
        p = *end == ',' ? end + 1 : end;
    }
    return cnt;
}

static int elem_nbytes(int kind)
{
    return (int)pqt_kind_elem_nbytes(kind);
}

/* Every scalar column of `filtered` (never read before unless `read` says so) equals the
 * unfiltered table's values at the kept rows: the refined plan reads only survivors. */
static void check_columns_follow(pqt_table *all, pqt_table *filtered, const uint8_t *keep,
                                 const char *what)
{
    int failures0 = pqt_test_failures;
    int64_t n = pqt_table_nrows(all);
    for (int c = 0; c < pqt_table_ncols(all); c++) {
        const char *name = pqt_table_column_name(all, c);
        int kind = 0;
        CHECK_OK(pqt_table_kind(all, name, &kind));
        if (kind == PQT_NONE || (kind & (PQT_VECTOR | PQT_LIST))) continue;
        if (kind == PQT_STRING) {
            int64_t *oa = NULL, *ob = NULL, na = 0, nb = 0;
            char *ba = NULL, *bb = NULL;
            uint8_t *va = NULL, *vb = NULL;
            CHECK_OK(pqt_table_get_strings_alloc(all, name, &oa, &ba, &va, &na));
            CHECK_OK(pqt_table_get_strings_alloc(filtered, name, &ob, &bb, &vb, &nb));
            int64_t k = 0;
            for (int64_t i = 0; oa && ob && i < n; i++) {
                if (!keep[i]) continue;
                bool pa = !va || (va[i >> 3] >> (i & 7) & 1),
                     pb = !vb || (vb[k >> 3] >> (k & 7) & 1);
                CHECK(k < nb && pa == pb);
                CHECK(oa[i + 1] - oa[i] == ob[k + 1] - ob[k] &&
                      memcmp(ba + oa[i], bb + ob[k], (size_t)(oa[i + 1] - oa[i])) == 0);
                k++;
            }
            CHECK_EQ_I64(k, nb);
            pqt_free(oa), pqt_free(ob), pqt_free(ba), pqt_free(bb), pqt_free(va), pqt_free(vb);
            continue;
        }
        void *da = NULL, *db = NULL;
        uint8_t *va = NULL, *vb = NULL;
        int64_t na = 0, nb = 0;
        CHECK_OK(pqt_table_get_alloc(all, name, 0, &da, &va, &na));
        CHECK_OK(pqt_table_get_alloc(filtered, name, 0, &db, &vb, &nb));
        int es = elem_nbytes(kind);
        int64_t k = 0;
        for (int64_t i = 0; da && db && i < n; i++) {
            if (!keep[i]) continue;
            bool pa = !va || (va[i >> 3] >> (i & 7) & 1), pb = !vb || (vb[k >> 3] >> (k & 7) & 1);
            CHECK(k < nb && pa == pb);
            if (pa) CHECK(memcmp((char *)da + i * es, (char *)db + k * es, (size_t)es) == 0);
            k++;
        }
        CHECK_EQ_I64(k, nb);
        pqt_free(da), pqt_free(db), pqt_free(va), pqt_free(vb);
    }
    if (pqt_test_failures != failures0) fprintf(stderr, "  (columns after %s)\n", what);
}

/* Every case of the fixture: row_mask and filter_rows against DuckDB's rows. */
static void test_fixture(void)
{
    char *text = pqt_test_read_text(EXPECT);
    REQUIRE_OK(text ? PQT_OK : PQT_IO);
    int ncases = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        char *fld[6];
        if (pqt_test_split(line, '\t', fld, 6) != 6) {
            CHECK(!"malformed fixture line");
            continue;
        }
        ncases++;
        const char *file = fld[0], *rule = fld[1];
        int64_t count = atoll(fld[4]);
        int failures0 = pqt_test_failures;
        pqt_filter *f = build_filter(rule, fld[2], fld[3]);
        pqt_table *t0 = NULL, *t1 = NULL, *t2 = NULL;
        REQUIRE_OK(pqt_table_open(file, NULL, &t0));
        REQUIRE_OK(pqt_table_open(file, NULL, &t1));
        REQUIRE_OK(pqt_table_open(file, NULL, &t2));
        int64_t n = pqt_table_nrows(t0);
        uint8_t *want = malloc((size_t)n), *mask = malloc((size_t)n), *mask2 = malloc((size_t)n);
        CHECK_EQ_I64(parse_rows(fld[5], want, n), count);

        /* row_mask reports and changes nothing */
        uint64_t g1 = pqt_table_generation(t1);
        int nc1 = pqt_table_ncols(t1);
        memset(mask, 7, (size_t)n);
        CHECK_OK(pqt_table_row_mask_with(t1, f, mask));
        CHECK(memcmp(mask, want, (size_t)n) == 0);
        CHECK_EQ_I64(pqt_table_nrows(t1), n);
        CHECK_EQ_I64(pqt_table_generation(t1), g1);
        CHECK_EQ_I64(pqt_table_ncols(t1), nc1); /* the row index stayed virtual */
        if (*rule && !*fld[2] && !*fld[3]) {
            memset(mask2, 7, (size_t)n);
            CHECK_OK(pqt_table_row_mask(t1, rule, mask2));
            CHECK(memcmp(mask2, want, (size_t)n) == 0);
        }

        /* filter_rows keeps those rows and stays attached */
        uint64_t g2 = pqt_table_generation(t2);
        CHECK_OK(pqt_table_filter_rows_with(t2, f));
        CHECK_EQ_I64(pqt_table_nrows(t2), count);
        CHECK_EQ_I64(pqt_table_nrows_unfiltered(t2), n);
        CHECK_EQ_I64(pqt_table_is_detached(t2), 0);
        CHECK(count == n ? pqt_table_generation(t2) == g2 : pqt_table_generation(t2) != g2);
        /* the same rule through row_mask on the filtered table keeps every row */
        uint8_t *all = malloc((size_t)count + 1);
        CHECK_OK(pqt_table_row_mask_with(t2, f, all));
        int64_t nall = 0;
        for (int64_t i = 0; i < count; i++)
            nall += all[i] == 1;
        CHECK_EQ_I64(nall, count);
        free(all);
        /* the row index names the survivors' file rows */
        int64_t *ri = NULL, nri = 0;
        CHECK_OK(pqt_table_get_alloc(t2, PQT_ROW_INDEX, 0, (void **)&ri, NULL, &nri));
        CHECK_EQ_I64(nri, count);
        int64_t k = 0;
        for (int64_t i = 0; ri && i < n; i++)
            if (want[i]) CHECK_EQ_I64(k < nri ? ri[k++] : -1, i + 1);
        pqt_free(ri);
        check_columns_follow(t0, t2, want, rule);
        if (pqt_test_failures != failures0)
            fprintf(stderr, "  in case %d: %s: '%s' %s %s\n", ncases, file, rule, fld[2], fld[3]);
        free(want), free(mask), free(mask2);
        pqt_table_close(t0), pqt_table_close(t1), pqt_table_close(t2);
        pqt_filter_free(f);
    }
    CHECK_EQ_I64(ncases, 36);
    free(text);
}

/* table_rg.parquet: id = row, i32 = 3 id (null id % 7 == 0), f32 = id / 4, f64 = id / 2
 * (null id % 11 == 0, NaN id % 13 == 0), s = "s<id>" (null id % 5 == 0), lst = id % 3
 * elements id, id + 1, ... (null id % 17 == 0); row groups of 2048 rows. */
static void check_rg_values(pqt_table *t, const int64_t *ids, int64_t n)
{
    CHECK_EQ_I64(pqt_table_nrows(t), n);
    float *f32 = NULL;
    int32_t *i32 = NULL;
    uint8_t *v32 = NULL;
    int64_t m = 0;
    CHECK_OK(pqt_table_get_alloc(t, "f32", 0, (void **)&f32, NULL, &m));
    CHECK_EQ_I64(m, n);
    for (int64_t i = 0; f32 && i < n; i++)
        CHECK(f32[i] == (float)ids[i] / 4.0f);
    CHECK_OK(pqt_table_get_alloc(t, "i32", 0, (void **)&i32, &v32, &m));
    for (int64_t i = 0; i32 && i < n; i++) {
        bool present = !v32 || (v32[i >> 3] >> (i & 7) & 1);
        CHECK(present == (ids[i] % 7 != 0));
        if (present) CHECK_EQ_I64(i32[i], 3 * ids[i]);
    }
    int64_t *off = NULL;
    char *bytes = NULL;
    uint8_t *vs = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(t, "s", &off, &bytes, &vs, &m));
    CHECK_EQ_I64(m, n);
    for (int64_t i = 0; off && i < n; i++) {
        bool present = !vs || (vs[i >> 3] >> (i & 7) & 1);
        CHECK(present == (ids[i] % 5 != 0));
        char want[32];
        snprintf(want, sizeof want, "s%lld", (long long)ids[i]);
        if (present)
            CHECK(off[i + 1] - off[i] == (int64_t)strlen(want) &&
                  memcmp(bytes + off[i], want, strlen(want)) == 0);
    }
    int64_t *lo = NULL;
    int32_t *le = NULL;
    uint8_t *lrv = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "lst", 0, &lo, (void **)&le, NULL, &lrv, &m));
    for (int64_t i = 0; lo && i < n; i++) {
        bool present = !lrv || (lrv[i >> 3] >> (i & 7) & 1);
        CHECK(present == (ids[i] % 17 != 0));
        int64_t len = lo[i + 1] - lo[i];
        CHECK_EQ_I64(len, present ? ids[i] % 3 : 0);
        for (int64_t e = 0; e < len; e++)
            CHECK_EQ_I64(le[lo[i] + e], ids[i] + e);
    }
    int64_t *ri = NULL;
    CHECK_OK(pqt_table_get_alloc(t, PQT_ROW_INDEX, 0, (void **)&ri, NULL, &m));
    for (int64_t i = 0; ri && i < n; i++)
        CHECK_EQ_I64(ri[i], ids[i]);
    pqt_free(f32), pqt_free(i32), pqt_free(v32), pqt_free(off), pqt_free(bytes), pqt_free(vs);
    pqt_free(lo), pqt_free(le), pqt_free(lrv), pqt_free(ri);
}

static void check_bounds(pqt_table *t, int physical, const int64_t *want, int nrg)
{
    int64_t *b = NULL;
    int n = 0;
    CHECK_OK(pqt_table_row_group_bounds(t, physical, &b, &n));
    CHECK_EQ_I64(n, nrg);
    for (int k = 0; b && k < 2 * nrg && k < 2 * n; k++)
        CHECK_EQ_I64(b[k], want[k]);
    pqt_free(b);
}

/* The attached path: the plan narrows, later reads see only survivors. */
static void test_attached_plan(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    uint64_t g = pqt_table_generation(t);
    int ncols = pqt_table_ncols(t);
    CHECK_OK(pqt_table_filter_rows(t, "id <= 100 or id > 9000"));
    CHECK_EQ_I64(pqt_table_nrows(t), 1100);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 10000);
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    CHECK_EQ_I64(pqt_table_generation(t), g + 1);
    CHECK_EQ_I64(pqt_table_ncols(t), ncols); /* the row index is still virtual */
    /* only the rule's column was read; the two row groups with survivors are the extent */
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "id", &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    CHECK_OK(pqt_table_residency(t, "f32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 2048 + 1808);
    /* survivor numbering with empty ranges (lo = next row, hi = lo - 1); physical unchanged */
    const int64_t sb[10] = {1, 100, 101, 100, 101, 100, 101, 100, 101, 1100};
    const int64_t pb[10] = {1, 2048, 2049, 4096, 4097, 6144, 6145, 8192, 8193, 10000};
    check_bounds(t, 0, sb, 5);
    check_bounds(t, 1, pb, 5);
    int64_t *ids = malloc(10000 * sizeof *ids);
    int64_t n = 0;
    for (int64_t id = 1; id <= 10000; id++)
        if (id <= 100 || id > 9000) ids[n++] = id;
    check_rg_values(t, ids, n); /* f32, i32, s, lst never read before */
    /* a clone keeps the plan */
    pqt_table *c = NULL;
    CHECK_OK(pqt_table_clone(t, &c));
    if (c) {
        CHECK_EQ_I64(pqt_table_nrows(c), 1100);
        int64_t *cr = NULL, m = 0;
        CHECK_OK(pqt_table_get_alloc(c, PQT_ROW_INDEX, 0, (void **)&cr, NULL, &m));
        CHECK(cr && m == 1100 && cr[99] == 100 && cr[100] == 9001);
        pqt_free(cr);
        pqt_table_close(c);
    }

    /* a second filter refines again; the row index (now built) is gathered with the rest */
    CHECK_OK(pqt_table_filter_rows(t, "f64 is_not_null and i32 > 27000 and f64 is_not_nan"));
    n = 0;
    for (int64_t id = 9001; id <= 10000; id++)
        if (id % 7 != 0 && id % 11 != 0 && id % 13 != 0) ids[n++] = id;
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    check_rg_values(t, ids, n);
    const int64_t sb2[10] = {1, 0, 1, 0, 1, 0, 1, 0, 1, n};
    check_bounds(t, 0, sb2, 5);
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 1808);

    /* a filter keeping every row changes nothing */
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_filter_rows(t, "id > 9000"));
    CHECK_EQ_I64(pqt_table_nrows(t), n);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    /* one keeping nothing */
    CHECK_OK(pqt_table_filter_rows(t, "id < 0"));
    CHECK_EQ_I64(pqt_table_nrows(t), 0);
    const int64_t sb3[10] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    check_bounds(t, 0, sb3, 5);
    CHECK_OK(pqt_table_row_mask(t, "id > 0", NULL));
    free(ids);
    pqt_table_close(t);
}

/* Failures change nothing; refused kinds; renamed columns; the row index as a column. */
static void test_errors(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    uint64_t g = pqt_table_generation(t);
    static uint8_t keep[10000];
    CHECK_EQ_I64(pqt_table_filter_rows(t, "idd > 3"), PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "did you mean 'id'") != NULL);
    CHECK(strstr(pqt_errmsg(), "pqt_table_filter_rows_with") && strstr(pqt_errmsg(), RG));
    CHECK_EQ_I64(pqt_table_row_mask(t, "f32 > 1 and s == 3", keep), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_table_filter_rows(t, "f32 > 1 and vec > 1"), PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "vec") && strstr(pqt_errmsg(), "scalar columns"));
    CHECK_EQ_I64(pqt_table_filter_rows(t, "lst is_null"), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_table_filter_rows(t, "id in @nothing"), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_table_filter_rows(t, "id >"), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_table_filter_rows(t, ""), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_table_filter_rows_with(t, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_row_mask(t, "id > 1", NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_nrows(t), 10000);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    const char *names[] = {"id", "f32", "s"};
    for (int k = 0; k < 3; k++) {
        int res = -1;
        CHECK_OK(pqt_table_residency(t, names[k], &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY); /* nothing was read for a refused rule */
    }
    /* rules name columns by their names after a rename */
    CHECK_OK(pqt_table_rename_column(t, "id", "ident"));
    CHECK_EQ_I64(pqt_table_filter_rows(t, "id > 9995"), PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "unknown column in filter: id ") != NULL);
    CHECK_EQ_I64(pqt_table_filter_rows(t, "idents > 9995"), PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "did you mean 'ident'") != NULL);
    CHECK_OK(pqt_table_filter_rows(t, "ident > 9995 or parquet_row_index <= 2"));
    int64_t want[] = {1, 2, 9996, 9997, 9998, 9999, 10000};
    check_rg_values(t, want, 7);
    pqt_table_close(t);
}

/* A read that fails after another column was read: the call forgets that column again.
 * In ARROW-GH-41321.parquet column int32 reads and column int64 is corrupt (page 2). */
static void test_failed_read(void)
{
    const char *bad = "tests/data/parquet-testing/bad_data/ARROW-GH-41321.parquet";
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(bad, NULL, &t));
    uint64_t g = pqt_table_generation(t);
    uint8_t keep[5];
    for (int k = 0; k < 2; k++) {
        pqt_status st = k ? pqt_table_filter_rows(t, "int32 > 0 and int64 > 0")
                          : pqt_table_row_mask(t, "int32 > 0 and int64 > 0", keep);
        CHECK_EQ_I64(st, PQT_CORRUPT);
        CHECK(strstr(pqt_errmsg(), "int64") && strstr(pqt_errmsg(), "row group 1"));
        int res = -1;
        CHECK_OK(pqt_table_residency(t, "int32", &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY);
        CHECK_EQ_I64(pqt_table_nrows(t), 5);
        CHECK_EQ_I64(pqt_table_generation(t), g);
    }
    /* the readable column alone filters (int32: -2e9, -1e9, null, 1e9, 2e9) */
    CHECK_OK(pqt_table_row_mask(t, "int32 > 0", keep));
    CHECK(keep[0] == 0 && keep[1] == 0 && keep[2] == 0 && keep[3] == 1 && keep[4] == 1);
    pqt_table_close(t);
}

/* Tables off the attached path: detached, sorted, in memory. */
static void test_gather_paths(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    const char *pre[] = {"id", "f32", "i32", "s", "lst", PQT_ROW_INDEX};
    CHECK_OK(pqt_table_prefetch(t, pre, 6));
    const char *key = "id";
    const int desc = 1;
    CHECK_OK(pqt_table_sort_by_names(t, &key, 1, &desc, NULL)); /* moves rows: detaches */
    CHECK_EQ_I64(pqt_table_is_detached(t), 1);
    CHECK_OK(pqt_table_filter_rows(t, "id <= 5 or id == 7777"));
    int64_t want[] = {7777, 5, 4, 3, 2, 1};
    check_rg_values(t, want, 6);
    /* a never-read column of a detached table cannot be filtered on; nothing changes */
    uint64_t g = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_filter_rows(t, "f64 > 1"), PQT_DETACHED);
    CHECK(strstr(pqt_errmsg(), "f64") != NULL);
    CHECK_EQ_I64(pqt_table_nrows(t), 6);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_table_close(t);

    /* delete_rows detaches too */
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    CHECK_OK(pqt_table_prefetch(t, pre, 6));
    int64_t del = 1;
    CHECK_OK(pqt_table_delete_rows(t, &del, 1));
    CHECK_OK(pqt_table_filter_rows(t, "s starts_with \"s99\" and s ends_with \"1\""));
    int64_t want2[] = {991, 9901, 9911, 9921, 9931, 9941, 9951, 9961, 9971, 9981, 9991};
    check_rg_values(t, want2, 11);
    pqt_table_close(t);
}

/* An in-memory table with 200003 rows: four batches, the last one partial, so validity
 * and string offsets are read at batch starts. x = i, y = i / 2 (NaN i % 1000 == 0, null
 * i % 777 == 0), s = decimal i (null i % 3 == 0), b = i % 2 == 1. */
static void test_in_memory(void)
{
    const int64_t n = 200003;
    int64_t *x = malloc((size_t)n * sizeof *x), *off = malloc((size_t)(n + 1) * sizeof *off);
    double *y = malloc((size_t)n * sizeof *y);
    uint8_t *b = malloc((size_t)n), *yv = calloc((size_t)(n + 7) / 8, 1),
            *sv = calloc((size_t)(n + 7) / 8, 1);
    char *bytes = malloc((size_t)n * 8);
    off[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        x[i] = i;
        y[i] = i % 1000 == 0 ? NAN : (double)i / 2;
        if (i % 777 != 0) yv[i >> 3] |= (uint8_t)(1u << (i & 7));
        if (i % 3 != 0) sv[i >> 3] |= (uint8_t)(1u << (i & 7));
        int len = i % 3 == 0 ? 0 : sprintf(bytes + off[i], "%lld", (long long)i);
        off[i + 1] = off[i] + len;
        b[i] = i % 2 == 1;
    }
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "x", PQT_INT64, 1, x, NULL, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "y", PQT_FLOAT64, 1, y, yv, n, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, off, bytes, sv, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "b", PQT_BOOL, 1, b, NULL, n, NULL));
    const char *rule = "(x >= 65530 and x <= 65545) or y is_nan or (s starts_with \"1999\" "
                       "and b == true) or not y < 99990 or (y is_null and x >= 65536) or "
                       "s ends_with \"13\"";
    uint8_t *want = malloc((size_t)n), *mask = malloc((size_t)n);
    int64_t cnt = 0;
    for (int64_t i = 0; i < n; i++) {
        bool ypresent = i % 777 != 0, ynan = ypresent && i % 1000 == 0;
        bool sw = i % 3 != 0 && strncmp(bytes + off[i], "1999", 4) == 0 && off[i + 1] - off[i] >= 4;
        want[i] = (x[i] >= 65530 && x[i] <= 65545) || ynan || (sw && b[i]) ||
                  (ypresent && (ynan || !(y[i] < 99990))) || (!ypresent && i >= 65536) ||
                  (i % 3 != 0 && i % 100 == 13);
        cnt += want[i];
    }
    CHECK_OK(pqt_table_row_mask(t, rule, mask));
    CHECK(memcmp(mask, want, (size_t)n) == 0);
    CHECK(!pqt_table_has_column(t, PQT_ROW_INDEX));
    CHECK_EQ_I64(pqt_table_row_mask(t, "parquet_row_index > 1", mask), PQT_BAD_FILTER);
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_table_filter_rows(t, rule));
    CHECK_EQ_I64(pqt_table_nrows(t), cnt);
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    CHECK(pqt_table_generation(t) != g);
    int64_t *gx = NULL, m = 0;
    CHECK_OK(pqt_table_get_alloc(t, "x", 0, (void **)&gx, NULL, &m));
    CHECK_EQ_I64(m, cnt);
    int64_t *so = NULL, ns = 0;
    char *sb = NULL;
    uint8_t *svv = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(t, "s", &so, &sb, &svv, &ns));
    int64_t k = 0;
    for (int64_t i = 0; gx && so && i < n; i++) {
        if (!want[i]) continue;
        CHECK_EQ_I64(gx[k], i);
        bool present = !svv || (svv[k >> 3] >> (k & 7) & 1);
        CHECK(present == (i % 3 != 0));
        CHECK(so[k + 1] - so[k] == off[i + 1] - off[i] &&
              memcmp(sb + so[k], bytes + off[i], (size_t)(off[i + 1] - off[i])) == 0);
        k++;
    }
    /* y went through the gather's validity: nulls (i % 777 == 0) stay where they were */
    double *gy = NULL;
    uint8_t *gyv = NULL;
    CHECK_OK(pqt_table_get_alloc(t, "y", 0, (void **)&gy, &gyv, &m));
    CHECK(gyv != NULL);
    k = 0;
    for (int64_t i = 0; gy && gyv && i < n; i++) {
        if (!want[i]) continue;
        bool present = gyv[k >> 3] >> (k & 7) & 1;
        CHECK(present == (i % 777 != 0));
        if (present) CHECK(i % 1000 == 0 ? isnan(gy[k]) : gy[k] == (double)i / 2);
        k++;
    }
    pqt_free(gx), pqt_free(so), pqt_free(sb), pqt_free(svv), pqt_free(gy), pqt_free(gyv);
    pqt_table_close(t);
    free(x), free(off), free(y), free(b), free(yv), free(sv), free(bytes), free(want), free(mask);
}

/* table_big.parquet (v = row, 2.5M rows in row groups of 102400): 39 batches over an
 * attached table; survivors scattered over the row groups. */
static void test_big(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(BIG, NULL, &t));
    pqt_filter *f = NULL;
    REQUIRE_OK(pqt_filter_new(&f));
    int64_t set[] = {1, 65536, 65537, 102400, 102401, 1000000, 2499999};
    CHECK_OK(pqt_filter_bind(f, "s", PQT_INT64, set, 7, NULL));
    CHECK_OK(pqt_filter_add(f, "v in @s or v > 2499995"));
    CHECK_OK(pqt_table_filter_rows_with(t, f));
    int64_t want[] = {1,       65536,   65537,   102400,  102401, 1000000,
                      2499996, 2499997, 2499998, 2499999, 2500000};
    CHECK_EQ_I64(pqt_table_nrows(t), 11);
    int64_t *ri = NULL, *v = NULL, m = 0;
    CHECK_OK(pqt_table_get_alloc(t, PQT_ROW_INDEX, 0, (void **)&ri, NULL, &m));
    CHECK_OK(pqt_table_get_alloc(t, "v", 0, (void **)&v, NULL, &m));
    for (int k = 0; ri && v && k < 11; k++) {
        CHECK_EQ_I64(ri[k], want[k]);
        CHECK_EQ_I64(v[k], want[k]);
    }
    /* rows 1..102400 are row group 1; 102401 starts row group 2 */
    int64_t *bd = NULL;
    int nrg = 0;
    CHECK_OK(pqt_table_row_group_bounds(t, 0, &bd, &nrg));
    CHECK(bd && nrg == 25 && bd[0] == 1 && bd[1] == 4 && bd[2] == 5 && bd[3] == 5 && bd[4] == 6 &&
          bd[5] == 5 && bd[2 * 24] == 7 && bd[2 * 24 + 1] == 11);
    pqt_free(bd), pqt_free(ri), pqt_free(v);
    pqt_filter_free(f);
    pqt_table_close(t);
}

int main(void)
{
    test_fixture();
    test_attached_plan();
    test_errors();
    test_failed_read();
    test_gather_paths();
    test_in_memory();
    test_big();
    return pqt_test_done("test_table_filter_rows");
}
