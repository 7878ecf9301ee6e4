/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sample_opts.c - PQT_OPT_SAMPLE_FRACTION / PQT_OPT_SAMPLE_SEED (docs/sampling.md):
 * >= 1 keeps every row and draws nothing, 0 keeps none and draws nothing, negative or NaN
 * is PQT_MISUSE naming the option and the value, and a failed set changes nothing; what
 * pqt_table_sample_fraction / pqt_table_sample_seed report in each case. Expected row counts
 * are those of tests/data/table_rg.parquet (10000 rows, DuckDB-written).
 */
#include <math.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define FILE_RG "tests/data/table_rg.parquet"
#define NROWS 10000

static pqt_table *open_with(pqt_opts *o)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(FILE_RG, o, &t));
    return t;
}

static void expect_misuse(pqt_status st, const char *needle1, const char *needle2)
{
    CHECK_EQ_I64(st, PQT_MISUSE);
    const char *m = pqt_errmsg();
    if (!strstr(m, needle1) || (needle2 && !strstr(m, needle2))) {
        fprintf(stderr, "message '%s' lacks '%s' / '%s'\n", m, needle1, needle2 ? needle2 : "");
        CHECK(0);
    }
}

static void test_errors_change_nothing(void)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, 0.25));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 5));
    expect_misuse(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, -0.5),
                  "PQT_OPT_SAMPLE_FRACTION", "-0.5");
    expect_misuse(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, NAN), "PQT_OPT_SAMPLE_FRACTION",
                  "NaN");
    expect_misuse(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, -INFINITY),
                  "PQT_OPT_SAMPLE_FRACTION", "-Infinity");
    expect_misuse(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, -1e-300),
                  "PQT_OPT_SAMPLE_FRACTION", NULL);
    expect_misuse(pqt_opts_set_int(o, PQT_OPT_SAMPLE_FRACTION, 1), "PQT_OPT_SAMPLE_FRACTION",
                  "pqt_opts_set_double");
    expect_misuse(pqt_opts_set_double(o, PQT_OPT_THREADS, 2.0), "takes no double", NULL);
    expect_misuse(pqt_opts_set_double(o, PQT_OPT_SAMPLE_SEED, 2.0), "takes no double", NULL);
    expect_misuse(pqt_opts_set_double(NULL, PQT_OPT_SAMPLE_FRACTION, 0.5), "NULL", NULL);
    /* after every refusal the options still say 0.25 and seed 5: the same rows as fresh
     * options saying so */
    pqt_table *t = open_with(o);
    pqt_opts_free(o);
    CHECK(pqt_table_sample_fraction(t) == 0.25);
    CHECK_EQ_I64(pqt_table_sample_seed(t), 5);
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, 0.25));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 5));
    pqt_table *u = open_with(o);
    pqt_opts_free(o);
    CHECK(pqt_table_nrows(t) > 2000 && pqt_table_nrows(t) < 3000);
    CHECK_EQ_I64(pqt_table_nrows(t), pqt_table_nrows(u));
    pqt_table_close(t);
    pqt_table_close(u);

    /* a refused first set leaves options that sample nothing */
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_EQ_I64(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, -2), PQT_MISUSE);
    t = open_with(o);
    pqt_opts_free(o);
    CHECK_EQ_I64(pqt_table_nrows(t), NROWS);
    CHECK(pqt_table_sample_fraction(t) == 1.0);
    CHECK_EQ_I64(pqt_table_sample_seed(t), 0);
    pqt_table_close(t);
}

/* fraction, seed (0: unset) -> rows, reported fraction and seed */
static void check_edge(double fraction, int64_t seed, int64_t want_rows, double want_fraction,
                       int64_t want_seed)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, fraction));
    if (seed) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, seed));
    pqt_table *t = open_with(o);
    pqt_opts_free(o);
    if (pqt_table_nrows(t) != want_rows || pqt_table_sample_fraction(t) != want_fraction ||
        pqt_table_sample_seed(t) != want_seed) {
        fprintf(stderr, "fraction %g seed %lld: %lld rows, fraction %g, seed %lld\n", fraction,
                (long long)seed, (long long)pqt_table_nrows(t), pqt_table_sample_fraction(t),
                (long long)pqt_table_sample_seed(t));
        CHECK(0);
    }
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), NROWS);
    /* a column reads exactly nrows rows */
    int64_t *v = NULL, n = -1;
    REQUIRE_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&v, NULL, &n));
    CHECK_EQ_I64(n, want_rows);
    pqt_free(v);
    pqt_table_close(t);
}

static void test_edges(void)
{
    check_edge(1.0, 0, NROWS, 1.0, 0);       /* nothing drawn: no seed */
    check_edge(7.5, 0, NROWS, 1.0, 0);       /* >= 1 keeps every row */
    check_edge(INFINITY, 0, NROWS, 1.0, 0);
    check_edge(1.0, 9, NROWS, 1.0, 0);       /* nothing drawn: seed 0 even when given */
    check_edge(0.0, 0, 0, 0.0, 0);           /* 0 keeps none, deterministically */
    check_edge(-0.0, 0, 0, 0.0, 0);
    check_edge(0.0, 9, 0, 0.0, 0);           /* the reported seed is 0 */
    check_edge(1e-300, 3, 0, 1e-300, 3);     /* u < 1e-300 needs u = 0: 2^-53 a row */
    /* the largest fraction below 1 drops a row only when u >= 1 - 2^-53: not in 10000 */
    check_edge(nextafter(1.0, 0.0), 3, NROWS, nextafter(1.0, 0.0), 3);
}

static void test_reports(void)
{
    CHECK(pqt_table_sample_fraction(NULL) == 0.0);
    CHECK_EQ_I64(pqt_table_sample_seed(NULL), 0);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK(pqt_table_sample_fraction(t) == 1.0);
    CHECK_EQ_I64(pqt_table_sample_seed(t), 0);
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(FILE_RG, NULL, &t));
    CHECK(pqt_table_sample_fraction(t) == 1.0);
    CHECK_EQ_I64(pqt_table_sample_seed(t), 0);
    char buf[256];
    pqt_table_explain(t, buf, sizeof buf);
    CHECK(strstr(buf, "sample") == NULL);
    pqt_table_close(t);

    /* a seed without a fraction samples nothing (and draws nothing) */
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 11));
    t = open_with(o);
    pqt_opts_free(o);
    CHECK_EQ_I64(pqt_table_nrows(t), NROWS);
    CHECK(pqt_table_sample_fraction(t) == 1.0);
    CHECK_EQ_I64(pqt_table_sample_seed(t), 0);
    pqt_table_close(t);
}

int main(void)
{
    test_errors_change_nothing();
    test_edges();
    test_reports();
    return pqt_test_done("test_sample_opts");
}
