/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_types.c - literals against every kind (docs/filters.md, "Values"): integer
 * columns against reals and out-of-range numbers (exact, no rounding through double), float32
 * columns against literals beyond FLT_MAX, dates, times and timestamps in each unit (precision,
 * range, midnight), strings compared bytewise (unicode included), booleans, uint64 in unsigned
 * order and exact past 2^63 (a negative literal below every value); and the compiled
 * program's shape: conjuncts, their columns, cost, and their text for --explain.
 * Truth: hand-computed rows; epoch day numbers computed by hand (2024-01-31 = day 19753).
 */
#include <math.h>
#include <string.h>

#include "filter_testkit.h"

#define N 7
#define NUL 0
#define D31 19753LL
#define D31MS (D31 * 86400000LL)
static const int32_t q[N] = {1, NUL, 3, 4, NUL, 6, 7};
static const uint8_t q_v[] = {0x6d};
static const int64_t big[N] = {9007199254740993LL, 9007199254740992LL, INT64_MAX, INT64_MIN, 0, 0, 0};
static const float f[N] = {0.1f, 0.2f, 16777216.0f, 3.4e38f, INFINITY, -INFINITY, NAN};
static const int64_t ts_ms[N] = {D31MS, D31MS + 123, D31MS + 1, NUL, -1, 0, 0};
static const uint8_t ts_ms_v[] = {0x77};
static const int64_t ts_ns[N] = {0, 1, NUL, INT64_MAX, INT64_MIN, NUL, NUL};
static const int64_t tm[N] = {0, 43200000, 43200500, NUL, 86399999, NUL, NUL};
static const uint8_t tm_v[] = {0x17};
static const int32_t d[N] = {19753, 19754, NUL, -1, 0, NUL, NUL};
static const uint8_t v_1b[] = {0x1b};
static const int64_t s_off[N + 1] = {0, 1, 2, 4, 5, 5, 8, 10};
static const char s_b[] = "Ba\xc3\xa9zabcab"; /* "B" "a" "é" "z" "" "abc" "ab" */
static const uint8_t b[N] = {1, 0, NUL, 1, 0, NUL, NUL};
static const uint64_t u[N] = {0, 1, 9223372036854775807ULL, 9223372036854775808ULL,
                              18446744073709551615ULL, NUL, 18446744073709551614ULL};
static const uint8_t u_v[] = {0x5f};

static tk_table table(void)
{
    tk_table t = {.nrows = N};
    tk_add(&t, "q", PQT_INT32, -1, q, NULL, q_v);
    tk_add(&t, "big", PQT_INT64, -1, big, NULL, NULL);
    tk_add(&t, "f", PQT_FLOAT32, -1, f, NULL, NULL);
    tk_add(&t, "ts_ms", PQT_TIMESTAMP, PQT_UNIT_MILLIS, ts_ms, NULL, ts_ms_v);
    tk_add(&t, "ts_ns", PQT_TIMESTAMP, PQT_UNIT_NANOS, ts_ns, NULL, v_1b);
    tk_add(&t, "tm", PQT_TIME, PQT_UNIT_MILLIS, tm, NULL, tm_v);
    tk_add(&t, "d", PQT_DATE, -1, d, NULL, v_1b);
    tk_add(&t, "s", PQT_STRING, -1, s_off, s_b, NULL);
    tk_add(&t, "b", PQT_BOOL, -1, b, NULL, v_1b);
    tk_add(&t, "a b", PQT_FLOAT32, -1, f, NULL, NULL);
    tk_add(&t, "u", PQT_UINT64, -1, u, NULL, u_v);
    return t;
}

static void integers(const tk_table *t)
{
    CHECK_ROWS(t, "q < 2.5", "0");
    CHECK_ROWS(t, "q <= 2.5", "0");
    CHECK_ROWS(t, "q > 2.5", "2 3 5 6");
    CHECK_ROWS(t, "q >= 2.5", "2 3 5 6");
    CHECK_ROWS(t, "q == 3.0", "2");
    CHECK_ROWS(t, "q == 3.5", "");
    CHECK_ROWS(t, "q /= 3.5", "0 2 3 5 6");
    CHECK_ROWS(t, "q < 1e30", "0 2 3 5 6");
    CHECK_ROWS(t, "q > 1e30", "");
    CHECK_ROWS(t, "q > -inf", "0 2 3 5 6");
    CHECK_ROWS(t, "q < -inf", "");
    CHECK_ROWS(t, "q == 3e9", "");
    CHECK_ROWS(t, "q /= 3e9", "0 2 3 5 6");
    CHECK_ROWS(t, "q < 3000000000", "0 2 3 5 6");
    CHECK_ROWS(t, "q > -3000000000", "0 2 3 5 6");
    CHECK_ROWS(t, "q >= 7", "6");
    CHECK_ROWS(t, "q > 6.999", "6");
    CHECK_ROWS(t, "q < -2.5", "");
    CHECK_ROWS(t, "q in (3, 7, 3000000000)", "2 6");
    CHECK_ROWS(t, "q in (1e0, 6)", "0 5"); /* an integral real is that integer */
    /* int64 beyond 2^53: compared exactly, not through double */
    CHECK_ROWS(t, "big == 9007199254740993", "0");
    CHECK_ROWS(t, "big > 9007199254740992", "0 2");
    CHECK_ROWS(t, "big < 1e19", "0 1 2 3 4 5 6");
    CHECK_ROWS(t, "big == 9.3e18", "");
    CHECK_ROWS(t, "big >= 9223372036854775807", "2");
    CHECK_ROWS(t, "big <= -9223372036854775808", "3");
    CHECK_ROWS(t, "big > 9223372036854775808", ""); /* beyond int64: as a real, 2^63 */
    CHECK_ROWS(t, "big > 9.223372036854775807e18", "");
    CHECK_ROWS(t, "big >= -9.223372036854775808e18", "0 1 2 3 4 5 6");
    CHECK_ROWS(t, "big in (9007199254740993, 99999999999999999999)", "0");
}

static void floats(const tk_table *t)
{
    /* a float32 column compares with the literal rounded to float32 */
    CHECK_ROWS(t, "f == 0.1", "0");
    CHECK_ROWS(t, "f > 0.1", "1 2 3 4");
    CHECK_ROWS(t, "f == 16777217", "2");
    /* beyond FLT_MAX: only infinities compare differently from every float */
    CHECK_ROWS(t, "f > 1e39", "4");
    CHECK_ROWS(t, "f >= 1e39", "4");
    CHECK_ROWS(t, "f < 1e39", "0 1 2 3 5");
    CHECK_ROWS(t, "f <= 1e39", "0 1 2 3 5");
    CHECK_ROWS(t, "f == 1e39", "");
    CHECK_ROWS(t, "f /= 1e39", "0 1 2 3 4 5 6");
    CHECK_ROWS(t, "f > -1e39", "0 1 2 3 4");
    CHECK_ROWS(t, "f < -1e39", "5");
    CHECK_ROWS(t, "not f < -1e39", "0 1 2 3 4 6");
    CHECK_ROWS(t, "f in (0.1, 1e39)", "0");
    CHECK_ROWS(t, "f is_nan", "6");
    CHECK_ROWS(t, "f is_finite", "0 1 2 3");
    CHECK_ROWS(t, "f < inf", "0 1 2 3 5");
    CHECK_ROWS(t, "`a b` == -inf", "5");
}

static void temporal(const tk_table *t)
{
    CHECK_ROWS(t, "ts_ms == \"2024-01-31T00:00:00.123\"", "1");
    CHECK_ROWS(t, "ts_ms == \"2024-01-31T00:00:00.123000\"", "1"); /* same instant */
    CHECK_ROWS(t, "ts_ms > \"2024-01-31\"", "1 2");
    CHECK_ROWS(t, "ts_ms < \"1970-01-01\"", "4");
    CHECK_ROWS(t, "ts_ms >= \"2024-01-31 00:00:00.001\"", "1 2");
    CHECK_ROWS(t, "ts_ms == \"2024-01-31T00:00:00Z\"", "0");
    CHECK_ROWS(t, "ts_ms == \"2024-01-31T00:00\"", "0");
    CHECK_ROWS(t, "ts_ms == \"1970-01-01\"", "5 6");
    CHECK_ROWS(t, "ts_ms == \"1969-12-31T23:59:59.999\"", "4");
    CHECK_BAD(t, "ts_ms == \"2024-01-31T00:00:00.1234\"",
              "\"2024-01-31T00:00:00.1234\" is more precise than column 'ts_ms' (timestamp[ms]) holds", 10);
    CHECK_BAD(t, "ts_ms == \"2024-01-31T00:00:00+01:00\"", "has a time-zone offset", 10);
    CHECK_BAD(t, "ts_ms == \"2024-02-30\"", "is not a date of the calendar", 10);
    CHECK_BAD(t, "ts_ms == \"2023-02-29\"", "is not a date of the calendar", 10);
    CHECK_ROWS(t, "ts_ms < \"2024-02-29\"", "0 1 2 4 5 6"); /* a leap day */
    CHECK_BAD(t, "ts_ms == \"24-01-31\"", "is not an ISO-8601 date", 10);
    CHECK_BAD(t, "ts_ms == \"2024-01-31T25:00\"", "out of range", 10);
    CHECK_BAD(t, "ts_ms == \"2024-01-31T10:00:00.1234567890\"", "more than 9 fractional digits", 10);
    CHECK_BAD(t, "ts_ms == 5", "column 'ts_ms' is timestamp; its value is a double-quoted date or timestamp", 10);
    CHECK_BAD(t, "ts_ms == \"12:00\"", "its value is a double-quoted date or timestamp", 10);
    /* nanoseconds hold 1677..2262: literals beyond compare as beyond every value */
    CHECK_ROWS(t, "ts_ns > \"2300-01-01\"", "");
    CHECK_ROWS(t, "ts_ns < \"2300-01-01\"", "0 1 3 4");
    CHECK_ROWS(t, "ts_ns > \"1600-01-01\"", "0 1 3 4");
    CHECK_ROWS(t, "ts_ns < \"1600-01-01\"", "");
    CHECK_ROWS(t, "ts_ns == \"1970-01-01T00:00:00.000000001\"", "1");
    CHECK_ROWS(t, "ts_ns in (\"1970-01-01\", \"2300-01-01\")", "0");
    CHECK_ROWS(t, "tm >= \"12:00\"", "1 2 4");
    CHECK_ROWS(t, "tm == \"12:00:00.5\"", "2");
    CHECK_ROWS(t, "tm == \"00:00\"", "0");
    CHECK_ROWS(t, "tm in (\"23:59:59.999\", \"00:00:00\")", "0 4");
    CHECK_BAD(t, "tm == \"12:00:00.0005\"", "is more precise than column 'tm' (time[ms]) holds", 7);
    CHECK_BAD(t, "tm == \"2024-01-31\"", "column 'tm' is time; its value is a double-quoted time of day", 7);
    CHECK_ROWS(t, "d == \"2024-01-31\"", "0");
    /* a date holds no time of day: one written is an error, midnight included */
    CHECK_BAD(t, "d == \"2024-01-31T00:00:00\"",
              "filter rule 'd == \"2024-01-31T00:00:00\"': \"2024-01-31T00:00:00\" has a time of "
              "day; column 'd' is date, its value is a date alone such as \"2024-01-31\"", 6);
    CHECK_BAD(t, "d >= \"2024-01-31 00:00\"", "has a time of day; column 'd' is date", 6);
    CHECK_BAD(t, "d == \"2024-01-31T10:00\"", "has a time of day; column 'd' is date", 6);
    CHECK_BAD(t, "d in (\"2024-01-31\", \"2024-02-01T00:00:00Z\")",
              "element 2 of the list \"2024-02-01T00:00:00Z\" has a time of day; column 'd' is date",
              21);
    CHECK_ROWS(t, "d < \"1970-01-01\"", "3");
    CHECK_ROWS(t, "d in (\"1969-12-31\", \"2024-02-01\")", "1 3");
    CHECK_ROWS(t, "d > \"0000-01-01\"", "0 1 3 4");
    CHECK_BAD(t, "d in (\"2024-01-31\", 5)", "element 2 of the list column 'd' is date", 21);
    /* a time set in nanoseconds against a millisecond column: by instant */
    pqt_filter *fl;
    CHECK_OK(pqt_filter_new(&fl));
    int64_t noon[] = {43200000000000LL, 1};
    CHECK_OK(pqt_filter_add_in(fl, "tm", PQT_KIND_UNIT(PQT_TIME, PQT_UNIT_NANOS), noon, 2, NULL, 0));
    CHECK(strcmp(tk_rows(t, NULL, 0, fl), "1") == 0);
    pqt_filter_free(fl);
}

/* u: 0, 1, 2^63 - 1, 2^63, 2^64 - 1, null, 2^64 - 2 */
static void unsigned64(const tk_table *t)
{
    CHECK_ROWS(t, "u > 9223372036854775807", "3 4 6");
    CHECK_ROWS(t, "u >= 9223372036854775808", "3 4 6");
    CHECK_ROWS(t, "u < 9223372036854775808", "0 1 2");
    CHECK_ROWS(t, "u >= 18446744073709551614", "4 6");
    CHECK_ROWS(t, "u == 18446744073709551615", "4");
    CHECK_ROWS(t, "u /= 18446744073709551615", "0 1 2 3 6");
    CHECK_ROWS(t, "u > 18446744073709551615", "");
    CHECK_ROWS(t, "u <= 18446744073709551615", "0 1 2 3 4 6");
    CHECK_ROWS(t, "u < 18446744073709551616", "0 1 2 3 4 6"); /* 2^64: above every value */
    CHECK_ROWS(t, "u > -1", "0 1 2 3 4 6");                    /* below every value */
    CHECK_ROWS(t, "u == -1", "");
    CHECK_ROWS(t, "u /= -1", "0 1 2 3 4 6");
    CHECK_ROWS(t, "u <= -0.5", "");
    CHECK_ROWS(t, "u > -9223372036854775808", "0 1 2 3 4 6");
    CHECK_ROWS(t, "u < 1.5", "0 1");
    CHECK_ROWS(t, "u == 1.0", "1");
    CHECK_ROWS(t, "u == 1.5", "");
    CHECK_ROWS(t, "u > 9.2233720368547758e18", "4 6"); /* that double is 2^63 */
    CHECK_ROWS(t, "u in (0, 18446744073709551615, -1, 18446744073709551616, 1e30)", "0 4");
    CHECK_ROWS(t, "u not_in (0, 18446744073709551615)", "1 2 3 6");
    CHECK_ROWS(t, "u in (9223372036854775807, 9223372036854775808)", "2 3"); /* bitmap form */
    CHECK_ROWS(t, "u in (1, 18446744073709551614, 3, 5, 7, 9, 11, 13, 15, 17)", "1 6");
    CHECK_BAD(t, "u is_nan", "is_nan applies only to float columns; column 'u' is uint64", 3);
    CHECK_BAD(t, "u == \"5\"", "column 'u' is uint64; its value is a number", 6);
    CHECK_BAD(t, "u in (1, 2.5)", "element 2 of the list is not an integer (column 'u' is uint64)",
              10);
    /* bound sets: uint64 values on any integer column, int64 values on a uint64 column */
    static const uint64_t us[] = {18446744073709551615ULL, 9223372036854775808ULL, 7};
    static const int64_t is[] = {-1, 1, INT64_MAX};
    struct {
        const char *rule;
        const char *want;
    } bound[] = {{"u in @us", "3 4"}, {"u in @is", "1 2"}, {"q in @us", "6"},
                 {"big in @us", ""}, {"u not_in @us", "0 1 2 6"}};
    for (size_t i = 0; i < sizeof bound / sizeof bound[0]; i++) {
        pqt_filter *fl;
        CHECK_OK(pqt_filter_new(&fl));
        CHECK_OK(pqt_filter_bind(fl, "us", PQT_UINT64, us, 3, NULL));
        CHECK_OK(pqt_filter_bind(fl, "is", PQT_INT64, is, 3, NULL));
        CHECK_OK(pqt_filter_add(fl, bound[i].rule));
        const char *got = tk_rows(t, NULL, 0, fl);
        if (strcmp(got, bound[i].want) != 0) {
            fprintf(stderr, "%s:%d: rule %s: kept [%s], expected [%s]\n", __FILE__, __LINE__,
                    bound[i].rule, got, bound[i].want);
            pqt_test_failures++;
        }
        pqt_filter_free(fl);
    }
    pqt_filter *fl;
    CHECK_OK(pqt_filter_new(&fl));
    CHECK_OK(pqt_filter_add_in(fl, "u", PQT_UINT64, us, 3, NULL, 1));
    CHECK(strcmp(tk_rows(t, NULL, 0, fl), "0 1 2 6") == 0);
    pqt_filter_free(fl);
}

static void strings_bools(const tk_table *t)
{
    CHECK_ROWS(t, "s < \"a\"", "0 4"); /* bytewise: "B" < "a", "" first */
    CHECK_ROWS(t, "s > \"z\"", "2");   /* UTF-8 bytes above ASCII */
    CHECK_ROWS(t, "s >= \"ab\"", "2 3 5 6");
    CHECK_ROWS(t, "s == \"\"", "4");
    CHECK_ROWS(t, "s starts_with \"\"", "0 1 2 3 4 5 6");
    CHECK_ROWS(t, "s starts_with \"ab\"", "5 6");
    CHECK_ROWS(t, "s ends_with \"bc\"", "5");
    CHECK_ROWS(t, "s ends_with \"\xc3\xa9\"", "2");
    CHECK_ROWS(t, "s contains \"b\"", "5 6");
    CHECK_ROWS(t, "s contains \"\"", "0 1 2 3 4 5 6");
    CHECK_ROWS(t, "s contains \"\xa9\"", "2"); /* byte-exact */
    CHECK_ROWS(t, "not s contains \"b\"", "0 1 2 3 4");
    CHECK_ROWS(t, "s in (\"\", \"\xc3\xa9\")", "2 4");
    CHECK_ROWS(t, "s not_in (\"\", \"\xc3\xa9\")", "0 1 3 5 6");
    CHECK_ROWS(t, "b > false", "0 3");
    CHECK_ROWS(t, "b <= false", "1 4");
    CHECK_ROWS(t, "b /= true", "1 4");
    CHECK_ROWS(t, "b == FALSE", "1 4");
}

static void text_is(const pqt_fprog *p, int k, const char *want, int line)
{
    char buf[400];
    int64_t len = pqt_scan_conj_text(p, k, buf, sizeof buf);
    if (strcmp(buf, want) != 0 || len != (int64_t)strlen(want)) {
        fprintf(stderr, "%s:%d: conjunct %d reads [%s], expected [%s]\n", __FILE__, line, k, buf,
                want);
        pqt_test_failures++;
    }
}

static pqt_fprog *compile1(const tk_table *t, const char *rule)
{
    pqt_filter *fl;
    CHECK_OK(pqt_filter_new(&fl));
    CHECK_OK(pqt_filter_add(fl, rule));
    pqt_status st;
    pqt_fprog *p = tk_compile(t, fl, &st);
    REQUIRE_OK(st);
    pqt_filter_free(fl);
    return p;
}

#define TEXT(t, rule, want)                                                                        \
    do {                                                                                           \
        pqt_fprog *p_ = compile1((t), (rule));                                                     \
        CHECK_EQ_I64(pqt_scan_prog_nconj(p_), 1);                                                  \
        text_is(p_, 0, (want), __LINE__);                                                          \
        pqt_scan_prog_free(p_);                                                                    \
    } while (0)

static void program_shape(const tk_table *t)
{
    pqt_filter *fl;
    CHECK_OK(pqt_filter_new(&fl));
    CHECK_OK(pqt_filter_add(fl, "q > 1 and (s == \"a\" or not f > 0.5) and not (d > \"2024-01-01\" "
                                "and tm is_null)"));
    CHECK_OK(pqt_filter_add(fl, "b == true"));
    int64_t two[] = {1, 0};
    CHECK_OK(pqt_filter_add_in(fl, "big", PQT_INT64, two, 2, NULL, 0));
    pqt_status st;
    pqt_fprog *p = tk_compile(t, fl, &st);
    REQUIRE_OK(st);
    pqt_filter_free(fl);
    CHECK_EQ_I64(pqt_scan_prog_nconj(p), 5);
    CHECK_EQ_I64(pqt_scan_prog_ncols(p), 7);
    static const int want_col[] = {0, 7, 2, 6, 5, 8, 1}; /* q s f d tm b big */
    for (int s = 0; s < 7; s++) CHECK_EQ_I64(pqt_scan_prog_col(p, s), want_col[s]);
    CHECK_EQ_I64(pqt_scan_prog_col(p, 7), -1);
    text_is(p, 0, "q > 1", __LINE__);
    text_is(p, 1, "s == \"a\" or not (f > 0.5)", __LINE__);
    text_is(p, 2, "not (d > \"2024-01-01\") or tm is_not_null", __LINE__);
    text_is(p, 3, "b == true", __LINE__);
    text_is(p, 4, "big in (0, 1)", __LINE__);
    CHECK_EQ_I64(pqt_scan_conj_ncols(p, 1), 2);
    CHECK_EQ_I64(pqt_scan_conj_cols(p, 1)[0], 1);
    CHECK_EQ_I64(pqt_scan_conj_cols(p, 1)[1], 2);
    CHECK_EQ_I64(pqt_scan_conj_cols(p, 2)[0], 3);
    CHECK_EQ_I64(pqt_scan_conj_cols(p, 2)[1], 4);
    CHECK_EQ_I64(pqt_scan_conj_cost(p, 0), 1);
    CHECK_EQ_I64(pqt_scan_conj_cost(p, 1), 7);
    CHECK_EQ_I64(pqt_scan_conj_cost(p, 4), 2);
    char small[6];
    CHECK_EQ_I64(pqt_scan_conj_text(p, 1, small, sizeof small), 25);
    CHECK(strcmp(small, "s == ") == 0);
    CHECK_EQ_I64(pqt_scan_conj_text(p, 1, NULL, 0), 25);
    pqt_scan_prog_free(p);

    /* literals as the program holds them */
    TEXT(t, "q < 2.5", "q <= 2");
    TEXT(t, "q > 2.5", "q >= 3");
    TEXT(t, "q /= 3.5", "q is_not_null");
    TEXT(t, "q == 3e9", "(q is_not_null and q is_null)");
    TEXT(t, "f > 1e39", "f == inf");
    TEXT(t, "not f is_finite", "f is_not_finite");
    TEXT(t, "ts_ms > \"2024-01-31T00:00:00.123\"", "ts_ms > \"2024-01-31T00:00:00.123\"");
    TEXT(t, "ts_ms == \"1969-12-31T23:59:59.999\"", "ts_ms == \"1969-12-31T23:59:59.999\"");
    TEXT(t, "ts_ns == \"1970-01-01T00:00:00.000000001\"", "ts_ns == \"1970-01-01T00:00:00.000000001\"");
    TEXT(t, "tm /= \"12:00:00.5\"", "tm /= \"12:00:00.500\"");
    TEXT(t, "`a b` >= 2", "`a b` >= 2");
    TEXT(t, "s in (\"\xc3\xa9\", \"\", \"a\", \"a\")", "s in (\"\", \"a\", \"\xc3\xa9\")");
    TEXT(t, "s not_in (\"x\"\"y\")", "s not_in (\"x\"\"y\")");
    TEXT(t, "q in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)", "q in (1, 2, 3, 4, 5, 6, 7, 8, ... 10 values)");
    TEXT(t, "not (b == true and s > \"a\")", "b /= true or not (s > \"a\")");
    TEXT(t, "u > 18446744073709551614", "u > 18446744073709551614");
    TEXT(t, "u < 2.5", "u <= 2");
    TEXT(t, "u in (18446744073709551615, 9223372036854775808, 1)",
         "u in (1, 9223372036854775808, 18446744073709551615)");
}

int main(void)
{
    tk_table t = table();
    integers(&t);
    floats(&t);
    temporal(&t);
    unsigned64(&t);
    strings_bools(&t);
    program_shape(&t);
    return pqt_test_done("test_filter_types");
}
