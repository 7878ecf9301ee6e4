/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sample_rows.c - sampling at open (issue 12): the rows kept equal the independent
 * model's (tests/sample_model.py, pasted in sample_model_rows.h); a sampled slice keeps
 * exactly the whole-file sample's rows inside it; threads 1 and 2 and a clone agree; with a
 * filter the rows are sample AND filter and row groups the filter prunes are never read;
 * kept counts are binomial; a drawn seed is reported and reproduces the rows.
 *
 * tests/data/table_rg.parquet (DuckDB, tests/data/make_table_data.mjs): 10000 rows in row
 * groups of 2048, id = 1-based row number, i32 = 3 id (NULL when id % 7 == 0).
 * tests/data/table_big.parquet: 2,500,000 rows, v = 1-based row number, row groups of 102400.
 */
#include <math.h>
#include <string.h>

#include "pqt.h"
#include "sample_model_rows.h"
#include "testutil.h"

#define FILE_RG "tests/data/table_rg.parquet"
#define FILE_BIG "tests/data/table_big.parquet"
#define NROWS 10000

typedef struct sample_args {
    double fraction; /* NAN: not set */
    int64_t seed;    /* 0: not set */
    int threads;
    int64_t lo, hi;  /* 0: not set */
    const char *filter;
} sample_args;

static pqt_table *open_sampled(const char *path, const sample_args *a)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, a->threads));
    if (!isnan(a->fraction)) REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, a->fraction));
    if (a->seed) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, a->seed));
    if (a->lo) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, a->lo));
    if (a->hi) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, a->hi));
    if (a->filter) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, a->filter));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(path, o, &t));
    pqt_opts_free(o);
    return t;
}

static int64_t *get_i64(pqt_table *t, const char *name, int64_t *n)
{
    int64_t *v = NULL;
    REQUIRE_OK(pqt_table_get_alloc(t, name, PQT_INT64, (void **)&v, NULL, n));
    return v;
}

/* The table's id column and row index are exactly the 1-based rows want0 + 1 (0-based model
 * rows) that fall in [lo, hi] and pass keep (NULL: all). */
static void check_model(pqt_table *t, const int64_t *want0, int64_t nwant, int64_t lo,
                        int64_t hi, int (*keep)(int64_t id))
{
    int64_t want[NROWS], n = 0;
    for (int64_t i = 0; i < nwant; i++) {
        int64_t id = want0[i] + 1;
        if (id >= lo && id <= hi && (!keep || keep(id))) want[n++] = id;
    }
    CHECK_EQ_I64(pqt_table_nrows(t), n);
    int64_t nid = 0, nri = 0;
    int64_t *ids = get_i64(t, "id", &nid), *ri = get_i64(t, "parquet_row_index", &nri);
    CHECK_EQ_I64(nid, n);
    CHECK_EQ_I64(nri, n);
    int64_t bad = 0;
    for (int64_t i = 0; i < n && i < nid; i++)
        if ((ids[i] != want[i] || ri[i] != want[i]) && bad++ == 0)
            fprintf(stderr, "row %lld: id %lld, row index %lld, model %lld\n", (long long)i + 1,
                    (long long)ids[i], (long long)ri[i], (long long)want[i]);
    CHECK_EQ_I64(bad, 0);
    pqt_free(ids);
    pqt_free(ri);
}

static void test_model_rows(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        sample_args a = {0.01, 42, threads, 0, 0, NULL};
        pqt_table *t = open_sampled(FILE_RG, &a);
        CHECK(pqt_table_sample_fraction(t) == 0.01);
        CHECK_EQ_I64(pqt_table_sample_seed(t), 42);
        CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), NROWS);
        check_model(t, seed42_p001, MODEL_NROWS(seed42_p001), 1, NROWS, NULL);
        pqt_table_close(t);

        a = (sample_args){0.05, INT64_MAX, threads, 0, 0, NULL};
        t = open_sampled(FILE_RG, &a);
        check_model(t, seedmax_p005, MODEL_NROWS(seedmax_p005), 1, NROWS, NULL);
        pqt_table_close(t);

        /* a slice: the model's rows of 1..200, and only 200 rows before the sample */
        a = (sample_args){0.5, 4294967301, threads, 1, 200, NULL};
        t = open_sampled(FILE_RG, &a);
        CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 200);
        check_model(t, seed2p32_p05, MODEL_NROWS(seed2p32_p05), 1, 200, NULL);
        pqt_table_close(t);
    }
}

/* A sampled slice keeps exactly the whole-file sample's rows inside it. */
static void test_slices(void)
{
    sample_args a = {0.3, 77, 1, 0, 0, NULL};
    pqt_table *whole = open_sampled(FILE_RG, &a);
    int64_t nall = 0;
    int64_t *all = get_i64(whole, "parquet_row_index", &nall);
    CHECK(nall > 2700 && nall < 3300);
    static const int64_t slices[][2] = {{1, NROWS}, {1, 2048},   {2049, 4096}, {100, 5000},
                                        {2000, 2100}, {9999, NROWS}, {5000, 5000}, {4097, 9000}};
    for (size_t s = 0; s < sizeof slices / sizeof slices[0]; s++)
        for (int threads = 1; threads <= 2; threads++) {
            int64_t lo = slices[s][0], hi = slices[s][1];
            sample_args b = {0.3, 77, threads, lo, hi, NULL};
            pqt_table *t = open_sampled(FILE_RG, &b);
            CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), hi - lo + 1);
            int64_t n = 0, k = 0, bad = 0;
            int64_t *ri = get_i64(t, "parquet_row_index", &n);
            for (int64_t i = 0; i < nall; i++) {
                if (all[i] < lo || all[i] > hi) continue;
                if ((k >= n || ri[k] != all[i]) && bad++ == 0)
                    fprintf(stderr, "slice %lld..%lld: row %lld is %lld, whole file says %lld\n",
                            (long long)lo, (long long)hi, (long long)k + 1,
                            (long long)(k < n ? ri[k] : -1), (long long)all[i]);
                k++;
            }
            CHECK_EQ_I64(k, n);
            CHECK_EQ_I64(bad, 0);
            pqt_free(ri);
            pqt_table_close(t);
        }
    pqt_free(all);
    pqt_table_close(whole);
}

/* Threads 1 and 2 give the same rows and values; a clone of a table whose seed was drawn
 * keeps the same rows, also for a column the source never read. */
static void test_threads_and_clone(void)
{
    sample_args a1 = {0.4, 5, 1, 0, 0, NULL}, a2 = {0.4, 5, 2, 0, 0, NULL};
    pqt_table *t1 = open_sampled(FILE_RG, &a1), *t2 = open_sampled(FILE_RG, &a2);
    CHECK_EQ_I64(pqt_table_nrows(t1), pqt_table_nrows(t2));
    int64_t n1 = 0, n2 = 0;
    int64_t *v1 = get_i64(t1, "i32", &n1), *v2 = get_i64(t2, "i32", &n2);
    CHECK_EQ_I64(n1, n2);
    CHECK(n1 == n2 && memcmp(v1, v2, (size_t)n1 * sizeof *v1) == 0);
    pqt_free(v1);
    pqt_free(v2);
    pqt_table_close(t1);
    pqt_table_close(t2);

    sample_args d = {0.25, 0, 2, 0, 0, NULL};
    pqt_table *src = open_sampled(FILE_RG, &d), *c = NULL;
    REQUIRE_OK(pqt_table_clone(src, &c));
    CHECK_EQ_I64(pqt_table_sample_seed(c), pqt_table_sample_seed(src));
    CHECK(pqt_table_sample_fraction(c) == 0.25);
    CHECK_EQ_I64(pqt_table_nrows(c), pqt_table_nrows(src));
    int64_t nc = 0, ns = 0;
    int64_t *ic = get_i64(c, "id", &nc), *is = get_i64(src, "id", &ns);
    CHECK(nc == ns && memcmp(ic, is, (size_t)nc * sizeof *ic) == 0);
    pqt_free(ic);
    pqt_free(is);
    pqt_table_close(c);
    pqt_table_close(src);
}

static int id_above_9000(int64_t id) { return id > 9000; }
static int i32_above_100(int64_t id) { return id % 7 != 0 && 3 * id > 100; }

/* Sample AND filter; a row group the statistics prune is never read, sampled or not. */
static void test_with_filter(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        sample_args a = {0.01, 42, threads, 0, 0, "id > 9000"};
        pqt_table *t = open_sampled(FILE_RG, &a);
        CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), NROWS);
        pqt_scan_counts sc;
        REQUIRE_OK(pqt_table_scan_stats(t, &sc));
        CHECK_EQ_I64(sc.row_groups_pruned_stats, 4);
        check_model(t, seed42_p001, MODEL_NROWS(seed42_p001), 1, NROWS, id_above_9000);
        /* i32 is read for the survivors of row group 5 (1808 rows) only */
        int64_t n = 0;
        int64_t *v = get_i64(t, "i32", &n);
        int64_t dec = pqt_table_scan_values(t, "i32");
        CHECK(dec > 0 && dec <= 1808);
        pqt_free(v);
        char buf[4096];
        pqt_table_explain(t, buf, sizeof buf);
        CHECK(strstr(buf, "row group 1: pruned by statistics") != NULL);
        CHECK(strstr(buf, "sample: fraction 0.01, seed 42, rule pqt-sample-v1 (bernoulli, philox4x32-10): 9 of "
                          "1000 rows kept") != NULL);
        pqt_table_close(t);

        /* a filter decided on values: the sample is drawn among its survivors */
        a = (sample_args){0.05, INT64_MAX, threads, 0, 0, "i32 > 100"};
        t = open_sampled(FILE_RG, &a);
        check_model(t, seedmax_p005, MODEL_NROWS(seedmax_p005), 1, NROWS, i32_above_100);
        pqt_table_close(t);

        /* and within a slice */
        a = (sample_args){0.5, 4294967301, threads, 1, 200, "i32 > 100"};
        t = open_sampled(FILE_RG, &a);
        check_model(t, seed2p32_p05, MODEL_NROWS(seed2p32_p05), 1, 200, i32_above_100);
        pqt_table_close(t);
    }
}

/* Row-group bounds in the table's numbering hold exactly the kept rows of each row group
 * (checked through the row index); the physical form is the file's, sample or not. */
static void test_bounds(void)
{
    sample_args a = {0.02, 11, 1, 1500, 7000, "i32 is_not_null"};
    pqt_table *t = open_sampled(FILE_RG, &a);
    int64_t *mine = NULL, *phys = NULL, n = 0;
    int nrg = 0, nrg2 = 0;
    REQUIRE_OK(pqt_table_row_group_bounds(t, 0, &mine, &nrg));
    REQUIRE_OK(pqt_table_row_group_bounds(t, 1, &phys, &nrg2));
    int64_t *ri = get_i64(t, "parquet_row_index", &n);
    CHECK_EQ_I64(nrg, 5);
    CHECK_EQ_I64(nrg2, 5);
    int64_t next = 1;
    for (int rg = 0; rg < nrg && nrg == 5 && nrg2 == 5; rg++) {
        int64_t lo = mine[2 * rg], hi = mine[2 * rg + 1];
        CHECK_EQ_I64(phys[2 * rg], rg * 2048 + 1);
        CHECK_EQ_I64(phys[2 * rg + 1], rg == 4 ? NROWS : (rg + 1) * 2048);
        CHECK_EQ_I64(lo, next); /* contiguous, in order, every kept row once */
        for (int64_t r = lo; r <= hi; r++)
            CHECK(ri[r - 1] >= phys[2 * rg] && ri[r - 1] <= phys[2 * rg + 1]);
        next = hi + 1;
    }
    CHECK_EQ_I64(next - 1, n);
    CHECK(n > 40 && n < 160); /* 2% of the 4715 rows of 1500..7000 with i32 not null */
    for (int64_t i = 0; i < n; i++) CHECK(ri[i] % 7 != 0 && ri[i] >= 1500 && ri[i] <= 7000);
    pqt_free(mine);
    pqt_free(phys);
    pqt_free(ri);
    pqt_table_close(t);
}

/* Kept counts are Binomial(n, p): within 5 sigma, and no pull towards even rows. */
static void test_counts(void)
{
    static const double fractions[] = {0.5, 0.1, 0.01, 0.9, 0.001};
    const int64_t n = 100000;
    for (size_t f = 0; f < sizeof fractions / sizeof fractions[0]; f++)
        for (int64_t seed = 1; seed <= 3; seed++) {
            double p = fractions[f];
            sample_args a = {p, seed, 2, 1, n, NULL};
            pqt_table *t = open_sampled(FILE_BIG, &a);
            int64_t m = 0, even = 0;
            int64_t *v = get_i64(t, "v", &m);
            for (int64_t i = 0; i < m; i++) even += v[i] % 2 == 0;
            double sigma = sqrt(n * p * (1 - p));
            if (fabs((double)m - n * p) > 5 * sigma) {
                fprintf(stderr, "fraction %g seed %lld: %lld kept of %lld\n", p, (long long)seed,
                        (long long)m, (long long)n);
                CHECK(0);
            }
            double half = sqrt(m * 0.25);
            CHECK(fabs((double)even - m * 0.5) <= 5 * half + 1);
            pqt_free(v);
            pqt_table_close(t);
        }
}

/* seed <= 0: the open draws one, reports it, and reopening with it keeps the same rows. */
static void test_drawn_seed(void)
{
    for (int64_t given = 0; given >= -1; given--) {
        pqt_opts *o = NULL;
        REQUIRE_OK(pqt_opts_new(&o));
        REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, 0.2));
        if (given) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, given));
        pqt_table *t = NULL, *u = NULL;
        REQUIRE_OK(pqt_table_open(FILE_RG, o, &t));
        REQUIRE_OK(pqt_table_open(FILE_RG, o, &u));
        pqt_opts_free(o);
        int64_t seed = pqt_table_sample_seed(t);
        CHECK(seed > 0);
        CHECK(pqt_table_sample_seed(u) > 0 && pqt_table_sample_seed(u) != seed);
        sample_args a = {0.2, seed, 1, 0, 0, NULL};
        pqt_table *r = open_sampled(FILE_RG, &a);
        int64_t nt = 0, nr = 0;
        int64_t *it = get_i64(t, "id", &nt), *ir = get_i64(r, "id", &nr);
        CHECK(nt > 1700 && nt < 2300);
        CHECK(nt == nr && memcmp(it, ir, (size_t)nt * sizeof *it) == 0);
        pqt_free(it);
        pqt_free(ir);
        pqt_table_close(t);
        pqt_table_close(u);
        pqt_table_close(r);
    }
}

int main(void)
{
    test_model_rows();
    test_slices();
    test_threads_and_clone();
    test_with_filter();
    test_bounds();
    test_counts();
    test_drawn_seed();
    return pqt_test_done("test_sample_rows");
}
