/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_meaning.c - what filter rules mean: every example of docs/filters.md with its
 * stated meaning, its Null/NaN table row by row, the set truth table and copying rules
 * of docs/filters.md, and several rules (pqt_filter_add) AND-combined.
 * Truth: the rows each rule keeps, computed by hand from the small tables below.
 */
#include <math.h>
#include <string.h>

#include "filter_testkit.h"
#include "scan/filter_int.h"

#define N 8
#define NUL 0 /* placeholder value of a null row */
static const double mass[N] = {2e12, 1e12, NAN, NUL, 5e12, 0, 1.5e12, -INFINITY};
static const uint8_t mass_v[] = {0xf7};
static const int32_t quality[N] = {1, NUL, 3, 4, NUL, 6, 7, 8};
static const uint8_t quality_v[] = {0xed};
static const double ra[N] = {190, 360, 180, NUL, 400, 270, 0, NAN};
static const uint8_t ra_v[] = {0xf7};
static const double x[N] = {5, 4, NAN, NUL, 6, -INFINITY, 5.5, -0.0};
static const double flux[N] = {1, NAN, INFINITY, NUL, -INFINITY, 2, 0, -0.0};
static const uint8_t flag[N] = {1, 0, 1, NUL, 0, 1, 0, 1};
static const uint8_t row3_null[] = {0xf7};
/* "abell 1 (core)" "abell 1" "" null "x" "abell 1 (core)" "ABELL 1 (CORE)" "é" */
static const int64_t name_off[N + 1] = {0, 14, 21, 21, 21, 22, 36, 50, 52};
static const char name_b[] = "abell 1 (core)abell 1xabell 1 (core)ABELL 1 (CORE)\xc3\xa9";
/* days: 2024-01-30, 2024-01-31, 2024-02-01, null, 1970-01-01, 2023-12-31, 2024-01-31, 2100-01-01 */
static const int32_t obs_date[N] = {19752, 19753, 19754, NUL, 0, 19722, 19753, 47482};
#define D31 (19753LL * 86400000000LL) /* 2024-01-31T00:00:00 in microseconds */
static const int64_t obs_ts[N] = {D31, D31 + 1, D31 - 1, NUL, 0, D31, D31 + 86400000000LL, -1};
static const int64_t field_id[N] = {3, 5, 9, NUL, 4, 10, 3, -9};
/* "test" "commissioning" "main" null "deep" "main" "Test" "main" */
static const int64_t survey_off[N + 1] = {0, 4, 17, 21, 21, 25, 29, 33, 37};
static const char survey_b[] = "testcommissioningmaindeepmainTestmain";
static const double z_spec[N] = {0.1, 0.2, NAN, NUL, INFINITY, 0.5, 0.3, 0.4};
static const int32_t age[N] = {30, 36, 40, NUL, 35, 99, 0, 50};
/* "S18a" "S17" "S18" null "xS18" "S1" "S180" "" */
static const int64_t field_off[N + 1] = {0, 4, 7, 10, 10, 14, 16, 20, 20};
static const char field_b[] = "S18aS17S18xS18S1S180";

static tk_table examples(void)
{
    tk_table t = {.nrows = N};
    tk_add(&t, "mass", PQT_FLOAT64, -1, mass, NULL, mass_v);
    tk_add(&t, "quality", PQT_INT32, -1, quality, NULL, quality_v);
    tk_add(&t, "ra", PQT_FLOAT64, -1, ra, NULL, ra_v);
    tk_add(&t, "x", PQT_FLOAT64, -1, x, NULL, row3_null);
    tk_add(&t, "flux", PQT_FLOAT64, -1, flux, NULL, row3_null);
    tk_add(&t, "flag", PQT_BOOL, -1, flag, NULL, row3_null);
    tk_add(&t, "name", PQT_STRING, -1, name_off, name_b, row3_null);
    tk_add(&t, "obs_date", PQT_DATE, -1, obs_date, NULL, row3_null);
    tk_add(&t, "obs_ts", PQT_TIMESTAMP, PQT_UNIT_MICROS, obs_ts, NULL, row3_null);
    tk_add(&t, "field_id", PQT_INT64, -1, field_id, NULL, row3_null);
    tk_add(&t, "survey", PQT_STRING, -1, survey_off, survey_b, row3_null);
    tk_add(&t, "z_spec", PQT_FLOAT64, -1, z_spec, NULL, row3_null);
    tk_add(&t, "main.inner.age", PQT_INT32, -1, age, NULL, row3_null);
    tk_add(&t, "field", PQT_STRING, -1, field_off, field_b, row3_null);
    return t;
}

static void section_1_9(void)
{
    tk_table t = examples();
    CHECK_ROWS(&t, "mass > 1.0e12", "0 4 6");                                   /* Null, NaN out */
    CHECK_ROWS(&t, "mass > 1.0e12 and quality is_not_null", "0 6");
    CHECK_ROWS(&t, "(ra > 180 and ra <= 360) or ra is_null", "0 1 3 5");
    CHECK_ROWS(&t, "not x > 5", "0 1 2 5 7");                                   /* NaN kept */
    /* a or b and c = a or (b and c): the other grouping keeps only row 0 */
    CHECK_ROWS(&t, "x > 5 or mass > 1e12 and quality < 5", "0 4 6");
    CHECK_ROWS(&t, "x > 5 or (mass > 1e12 and quality < 5)", "0 4 6");
    CHECK_ROWS(&t, "(x > 5 or mass > 1e12) and quality < 5", "0");
    CHECK_ROWS(&t, "not x > 5 and x < 5", "1 5 7"); /* (not a) and b */
    CHECK_ROWS(&t, "flux is_finite", "0 5 6 7");
    CHECK_ROWS(&t, "flux is_nan or flux is_null", "1 3");
    CHECK_ROWS(&t, "flag == true", "0 2 5 7");
    CHECK_ROWS(&t, "name == \"abell 1 (core)\"", "0 5");
    CHECK_ROWS(&t, "obs_date >= \"2024-01-31\"", "1 2 6 7");
    CHECK_ROWS(&t, "obs_ts == \"2024-01-31\"", "0 5"); /* midnight */
    CHECK_ROWS(&t, "field_id in (3, 5, 9)", "0 1 2 6");
    CHECK_ROWS(&t, "survey not_in (\"test\", \"commissioning\") and z_spec is_finite", "5 6 7");
    CHECK_ROWS(&t, "main.inner.age > 35", "1 2 5 7");
    CHECK_ROWS(&t, "x /= 5", "1 2 4 5 6 7"); /* NaN kept, Null dropped */
    CHECK_ROWS(&t, "field starts_with \"S18\"", "0 2 6");
    const char *two[] = {"mass > 1e12", "quality < 5"};
    CHECK(strcmp(tk_rows(&t, two, 2, NULL), "0") == 0);
    /* parquet-fortran refuses v>3 (missing an operator); issue 10 makes it mean v > 3 */
    CHECK_ROWS(&t, "quality>3", "3 5 6 7");
    CHECK_BAD(&t, "x == nan", "use is_nan", 6);

    /* ID in @wanted or flag == 7 (flag an integer column here) */
    static const int64_t id[5] = {1, 2, 3, 4, 5};
    static const int32_t iflag[5] = {7, 0, 7, NUL, 0};
    static const uint8_t iflag_v[] = {0x17};
    tk_table t2 = {.nrows = 5};
    tk_add(&t2, "ID", PQT_INT64, -1, id, NULL, NULL);
    tk_add(&t2, "flag", PQT_INT32, -1, iflag, NULL, iflag_v);
    pqt_filter *f;
    CHECK_OK(pqt_filter_new(&f));
    int64_t wanted[] = {4, 2, 99, 2};
    CHECK_OK(pqt_filter_bind(f, "wanted", PQT_INT64, wanted, 4, NULL));
    wanted[0] = 5; /* copied at bind: later changes do not count */
    const char *r = "ID in @wanted or flag == 7";
    CHECK(strcmp(tk_rows(&t2, &r, 1, f), "0 1 2 3") == 0);
    CHECK_EQ_I64(f->sets[0].n, 3); /* de-duplicated */
    pqt_filter_free(f);
}

/* docs/filters.md's Null/NaN table, row by row: x = {null, NaN, 7, 5}, y = {6, 0, null, 0} */
static void null_nan_table(void)
{
    static const double xv[4] = {NUL, NAN, 7, 5}, yv[4] = {6, 0, NUL, 0};
    static const uint8_t xv_v[] = {0x0e}, yv_v[] = {0x0b};
    tk_table t = {.nrows = 4};
    tk_add(&t, "x", PQT_FLOAT64, -1, xv, NULL, xv_v);
    tk_add(&t, "y", PQT_FLOAT64, -1, yv, NULL, yv_v);
    CHECK_ROWS(&t, "x > 5", "2");
    CHECK_ROWS(&t, "x >= 5", "2 3");
    CHECK_ROWS(&t, "x < 5", "");
    CHECK_ROWS(&t, "x <= 5", "3");
    CHECK_ROWS(&t, "x == 5", "3");
    CHECK_ROWS(&t, "x /= 5", "1 2");
    CHECK_ROWS(&t, "not x > 5", "1 3");
    CHECK_ROWS(&t, "x is_null", "0");
    CHECK_ROWS(&t, "x is_not_null", "1 2 3");
    CHECK_ROWS(&t, "x is_nan", "1");
    CHECK_ROWS(&t, "x is_not_nan", "2 3");
    CHECK_ROWS(&t, "x is_finite", "2 3");
    CHECK_ROWS(&t, "x is_not_finite", "1");
    CHECK_ROWS(&t, "not x is_nan", "2 3");     /* not unknown is unknown: Null stays out */
    CHECK_ROWS(&t, "not x is_null", "1 2 3");
    CHECK_ROWS(&t, "x > 5 or y > 5", "0 2"); /* Null x kept iff y > 5 */
    CHECK_ROWS(&t, "not (x > 5 or y > 5)", "1 3");
    CHECK_ROWS(&t, "not (x > 5 and y > 5)", "1 3");
    CHECK_ROWS(&t, "not not x > 5", "2");
    CHECK_ROWS(&t, "x > -inf and x < inf", "2 3"); /* is_finite without NaN */
    CHECK_ROWS(&t, "x <= inf", "2 3");
    /* +-0 are one value under IEEE comparison */
    static const double zv[3] = {-0.0, 0.0, 1};
    tk_table tz = {.nrows = 3};
    tk_add(&tz, "z", PQT_FLOAT64, -1, zv, NULL, NULL);
    CHECK_ROWS(&tz, "z == 0", "0 1");
    CHECK_ROWS(&tz, "z == -0.0", "0 1");
    CHECK_ROWS(&tz, "z < 0", "");
    CHECK_ROWS(&tz, "z >= 0", "0 1 2");
    CHECK_ROWS(&tz, "z in (0)", "0 1");
    CHECK_ROWS(&tz, "z in (-0.0, 5)", "0 1");
}

static void sets(void)
{
    /* the set truth table: member, non-member, Null, NaN */
    static const double s[4] = {1, 2, NUL, NAN};
    static const uint8_t s_v[] = {0x0b};
    tk_table t = {.nrows = 4};
    tk_add(&t, "s", PQT_FLOAT64, -1, s, NULL, s_v);
    pqt_filter *f;
    CHECK_OK(pqt_filter_new(&f));
    double one = 1.0;
    CHECK_OK(pqt_filter_bind(f, "one", PQT_FLOAT64, &one, 1, NULL));
    CHECK_OK(pqt_filter_bind(f, "none", PQT_FLOAT64, NULL, 0, NULL));
    const char *r[] = {"s in @one", "s not_in @one", "s in @none", "s not_in @none",
                       "not s in @one"};
    const char *want[] = {"0", "1 3", "", "0 1 3", "1 3"};
    for (int i = 0; i < 5; i++) {
        const char *got = tk_rows(&t, &r[i], 1, f);
        if (strcmp(got, want[i]) != 0) {
            fprintf(stderr, "set rule %s: kept [%s], expected [%s]\n", r[i], got, want[i]);
            pqt_test_failures++;
        }
        pqt_filter_clear(f);
        CHECK_OK(pqt_filter_bind(f, "one", PQT_FLOAT64, &one, 1, NULL));
        CHECK_OK(pqt_filter_bind(f, "none", PQT_FLOAT64, NULL, 0, NULL));
    }
    pqt_filter_free(f);

    /* add_in: one set, one column; negate; valid leaves elements out; strings */
    tk_table e = examples();
    CHECK_OK(pqt_filter_new(&f));
    const char *surveys[] = {"main", NULL, "deep", "test", "main"};
    uint8_t skip_test[] = {0x17}; /* element 4 ("test") left out */
    CHECK_OK(pqt_filter_add_in(f, "survey", PQT_STRING, surveys, 5, skip_test, 0));
    CHECK(strcmp(tk_rows(&e, NULL, 0, f), "2 4 5 7") == 0);
    CHECK_EQ_I64(f->sets[0].n, 2);
    pqt_filter_clear(f);
    CHECK_OK(pqt_filter_add_in(f, "survey", PQT_STRING, surveys, 5, NULL, 1));
    CHECK(strcmp(tk_rows(&e, NULL, 0, f), "1 6") == 0); /* Null row 3 stays out */
    pqt_filter_clear(f);
    /* an int32 set against an int64 column; members it cannot hold are simply absent */
    int32_t ids[] = {3, 9, -9, 2147483647};
    CHECK_OK(pqt_filter_add_in(f, "field_id", PQT_INT32, ids, 4, NULL, 0));
    CHECK(strcmp(tk_rows(&e, NULL, 0, f), "0 2 6 7") == 0);
    pqt_filter_clear(f);
    int64_t big[] = {1, 3000000000LL};
    CHECK_OK(pqt_filter_add_in(f, "quality", PQT_INT64, big, 2, NULL, 0));
    CHECK(strcmp(tk_rows(&e, NULL, 0, f), "0") == 0);
    pqt_filter_clear(f);
    /* kinds that do not fit */
    CHECK_OK(pqt_filter_add_in(f, "mass", PQT_INT64, big, 2, NULL, 0));
    const char *got = tk_rows(&e, NULL, 0, f);
    CHECK(strstr(got, "filter set on column 'mass' (pqt_filter_add_in): the set holds int64 values; "
                      "column 'mass' is float64") != NULL);
    pqt_filter_clear(f);
    int32_t days[] = {19753};
    CHECK_OK(pqt_filter_bind(f, "d", PQT_DATE, days, 1, NULL));
    CHECK_OK(pqt_filter_add(f, "obs_ts in @d"));
    got = tk_rows(&e, NULL, 0, f);
    CHECK(strstr(got, "set '@d' holds date values; column 'obs_ts' is timestamp") != NULL);
    pqt_filter_clear(f);
    CHECK_OK(pqt_filter_add(f, "obs_date in @d")); /* bound after the rule that names it */
    CHECK_OK(pqt_filter_bind(f, "d", PQT_DATE, days, 1, NULL));
    CHECK(strcmp(tk_rows(&e, NULL, 0, f), "1 6") == 0);
    pqt_filter_clear(f);
    /* a timestamp set matches by instant whatever its unit: ns members against a us column */
    int64_t ns[] = {D31 * 1000, D31 * 1000 + 1500 /* 1.5 us: no us value is that instant */,
                    (D31 + 86400000000LL) * 1000, -1000};
    CHECK_OK(pqt_filter_add_in(f, "obs_ts", PQT_KIND_UNIT(PQT_TIMESTAMP, PQT_UNIT_NANOS), ns, 4,
                               NULL, 0));
    CHECK(strcmp(tk_rows(&e, NULL, 0, f), "0 5 6 7") == 0);
    pqt_filter_clear(f);
    int64_t ms[] = {D31 / 1000};
    CHECK_OK(pqt_filter_add_in(f, "obs_ts", PQT_KIND_UNIT(PQT_TIMESTAMP, PQT_UNIT_MILLIS), ms, 1,
                               NULL, 1));
    CHECK(strcmp(tk_rows(&e, NULL, 0, f), "1 2 4 6 7") == 0);
    pqt_filter_free(f);
}

/* The program owns what it needs: clearing or freeing the filter after compiling changes
 * nothing; the selection passed in limits the rows looked at. */
static void program_is_independent(void)
{
    tk_table e = examples();
    pqt_filter *f;
    CHECK_OK(pqt_filter_new(&f));
    const char *surveys[] = {"main", "deep"};
    CHECK_OK(pqt_filter_bind(f, "s", PQT_STRING, surveys, 2, NULL));
    CHECK_OK(pqt_filter_add(f, "survey in @s and name /= \"x\""));
    pqt_status st;
    pqt_fprog *p = tk_compile(&e, f, &st);
    REQUIRE_OK(st);
    pqt_filter_free(f);
    uint8_t keep[1];
    CHECK_EQ_I64(tk_eval(&e, p, keep), 3);
    CHECK_EQ_I64(keep[0], 0xa4); /* rows 2 5 7 */
    pqt_scan_vec vecs[4];
    for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
        const tk_col *c = &e.cols[pqt_scan_prog_col(p, s)];
        vecs[s] = (pqt_scan_vec){c->data, c->bytes, c->valid};
    }
    uint8_t sel = 0x2f, out = 0xff; /* rows 0 1 2 3 5 */
    int64_t nk;
    pqt_scan_scratch sc = {0};
    CHECK_OK(pqt_scan_prog_eval(p, vecs, N, &sel, &out, &nk, &sc));
    CHECK_EQ_I64(out, 0x24);
    CHECK_EQ_I64(nk, 2);
    CHECK_OK(pqt_scan_conj_eval(p, 0, vecs, N, &sel, &sel, &nk, &sc)); /* keep may be sel */
    CHECK_EQ_I64(sel, 0x24);
    CHECK_EQ_I64(pqt_scan_conj_eval(p, 2, vecs, N, NULL, &out, NULL, &sc), PQT_MISUSE);
    nk = -1;
    CHECK_OK(pqt_scan_prog_eval(p, vecs, 0, NULL, NULL, &nk, &sc)); /* an empty batch */
    CHECK_EQ_I64(nk, 0);
    pqt_scan_scratch_free(&sc);
    pqt_scan_prog_free(p);
}

int main(void)
{
    section_1_9();
    null_nan_table();
    sets();
    program_is_independent();
    return pqt_test_done("test_filter_meaning");
}
