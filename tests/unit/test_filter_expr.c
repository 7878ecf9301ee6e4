/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_expr.c - expressions in the filter language (docs/filters.md, "Expressions",
 * "Functions"): each operator, function and SQL spelling against rows kept computed by hand,
 * INT overflow and zero divisors, exact INT-FLOAT comparison past 2^53, column-to-column
 * comparisons, the errors, the normalized text, and that `literal op column` still compiles to
 * a leaf that statistics prune.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "filter_testkit.h"
#include "util/mem.h"

/* rows:        0      1      2          3       4      5 */
static const int64_t i_[] = {7, -7, INT64_MAX, 4, 0, -3};
static const int32_t j_[] = {2, 2, 1, 0, -1, 3};
static const double g_[] = {1.0, 2.0, 3.5, NAN, 0.5, 1.0};
static const double r_[] = {0.2, 1.8, 2.5, 1.0, 9.0, 0.6};
static const uint8_t r_valid[] = {0x2f}; /* row 4 null */
static const double flux_[] = {1e-4, 1, 10, 0, -1, 1e-3};
static const int64_t name_off[] = {0, 3, 5, 5, 9, 11, 17};
static const char name_bytes[] = "abc\xc3\xa9"
                                 "abcdxy\xce\xb1\xce\xb2\xce\xb3";
static const uint8_t flag_[] = {1, 0, 1, 0, 1, 0};
/* 2^53 + 1 is not a double: compared exactly it is above 2^53 */
static const int64_t big_[] = {9007199254740993, 1, 2, 3, 4, 5};
static const double bf_[] = {9007199254740992.0, 1.5, 2.0, -INFINITY, INFINITY, NAN};
static const double ra_[] = {10, 10, 10.7, 190, 0, 180};
static const double dec_[] = {20, 20.5, 20, -20, 90, 90};
static const int64_t ts_ms[] = {1000, 2000, 0, -1, 5, 7};
static const int64_t ts_us[] = {999999, 2000000, 1, -1000, 5000, 8000};
static const uint64_t u_[] = {1, 2, 3, 4, 5, UINT64_MAX};

static tk_table table(void)
{
    tk_table t = {.nrows = 6};
    tk_add(&t, "i", PQT_INT64, -1, i_, NULL, NULL);
    tk_add(&t, "j", PQT_INT32, -1, j_, NULL, NULL);
    tk_add(&t, "g", PQT_FLOAT64, -1, g_, NULL, NULL);
    tk_add(&t, "r", PQT_FLOAT64, -1, r_, NULL, r_valid);
    tk_add(&t, "flux", PQT_FLOAT64, -1, flux_, NULL, NULL);
    tk_add(&t, "name", PQT_STRING, -1, name_off, name_bytes, NULL);
    tk_add(&t, "flag", PQT_BOOL, -1, flag_, NULL, NULL);
    tk_add(&t, "big", PQT_INT64, -1, big_, NULL, NULL);
    tk_add(&t, "bf", PQT_FLOAT64, -1, bf_, NULL, NULL);
    tk_add(&t, "ra", PQT_FLOAT64, -1, ra_, NULL, NULL);
    tk_add(&t, "dec", PQT_FLOAT64, -1, dec_, NULL, NULL);
    tk_add(&t, "ts", PQT_TIMESTAMP, PQT_UNIT_MILLIS, ts_ms, NULL, NULL);
    tk_add(&t, "ts2", PQT_TIMESTAMP, PQT_UNIT_MICROS, ts_us, NULL, NULL);
    tk_add(&t, "u", PQT_UINT64, -1, u_, NULL, NULL);
    tk_add(&t, "lst", PQT_INT32 | PQT_LIST, -1, j_, NULL, NULL);
    return t;
}

#define CHECK_STR(got, expect)                                                                     \
    do {                                                                                           \
        if (strcmp((got), (expect)) != 0) {                                                        \
            fprintf(stderr, "%s:%d: got [%s]\n  expected [%s]\n", __FILE__, __LINE__, (got),       \
                    (expect));                                                                     \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* Evaluate rule over the table: the status, and the message when it failed. */
static pqt_status eval_status(const tk_table *t, const char *rule, char *msg, size_t cap)
{
    pqt_filter *f = NULL;
    CHECK_OK(pqt_filter_new(&f));
    pqt_status st = pqt_filter_add(f, rule);
    pqt_fprog *p = st == PQT_OK ? tk_compile(t, f, &st) : NULL;
    if (p) {
        pqt_scan_vec vecs[TK_MAXCOLS];
        for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
            const tk_col *c = &t->cols[pqt_scan_prog_col(p, s)];
            vecs[s] = (pqt_scan_vec){c->data, c->bytes, c->valid};
        }
        pqt_scan_scratch sc = {0};
        uint8_t keep[8];
        st = pqt_scan_prog_eval(p, vecs, t->nrows, NULL, keep, NULL, &sc);
        pqt_scan_scratch_free(&sc);
    }
    snprintf(msg, cap, "%s", st == PQT_OK ? "" : pqt_errmsg());
    pqt_scan_prog_free(p);
    pqt_filter_free(f);
    return st;
}

/* The normalized text of the rule's only conjunct. */
static const char *text_of(const tk_table *t, const char *rule)
{
    static char buf[300];
    pqt_filter *f = NULL;
    pqt_status st = PQT_OK;
    CHECK_OK(pqt_filter_new(&f));
    CHECK_OK(pqt_filter_add(f, rule));
    pqt_fprog *p = tk_compile(t, f, &st);
    snprintf(buf, sizeof buf, "ERR");
    if (p && pqt_scan_prog_nconj(p) == 1) pqt_scan_conj_text(p, 0, buf, sizeof buf);
    pqt_scan_prog_free(p);
    pqt_filter_free(f);
    return buf;
}

#define CHECK_TEXT(t, rule, expect)                                                                \
    do {                                                                                           \
        const char *got_ = text_of((t), (rule));                                                   \
        if (strcmp(got_, (expect)) != 0) {                                                         \
            fprintf(stderr, "%s:%d: rule %s: text [%s], expected [%s]\n", __FILE__, __LINE__,      \
                    (rule), got_, (expect));                                                       \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

static void arithmetic(const tk_table *t)
{
    /* g - r: 0.8, 0.2, 1.0, NaN, null, 0.4 */
    CHECK_ROWS(t, "g - r > 0.5", "0 2");
    CHECK_ROWS(t, "g - r > 0.5 and r < 2", "0");
    /* 22.5 - 2.5 log10(flux): 32.5, 22.5, 20, +inf (log10 0 = -inf), NaN (log10 -1), 30 */
    CHECK_ROWS(t, "-2.5 * log10(flux) + 22.5 < 21", "2");
    CHECK_ROWS(t, "-2.5 * log10(flux) + 22.5 < 23", "1 2");
    CHECK_ROWS(t, "-2.5*log10(flux)+22.5>=30", "0 3 5");
    /* % and // truncate toward zero, the remainder takes the dividend's sign */
    CHECK_ROWS(t, "i % 2 == 0", "3 4");
    CHECK_ROWS(t, "i % 2 == -1", "1 5");
    CHECK_ROWS(t, "i // 2 == -3", "1");       /* -7 // 2 */
    CHECK_ROWS(t, "i // 2 == 3", "0");        /* 7 // 2 */
    CHECK_ROWS(t, "(i - 1) // 2 == -2", "5"); /* -4 // 2 */
    CHECK_ROWS(t, "g % 2 == 1.5", "2");       /* fmod(3.5, 2) */
    CHECK_ROWS(t, "g // 2 == 1", "1 2");      /* trunc(1.0), trunc(1.75) */
    /* / is always floating point: 7 / 2 = 3.5 */
    CHECK_ROWS(t, "i / j == 3.5", "0");
    CHECK_ROWS(t, "i / j > 3", "0 2");
    /* a zero divisor is null, for INT and FLOAT alike */
    CHECK_ROWS(t, "i // j is null", "3");
    CHECK_ROWS(t, "i % j is null", "3");
    CHECK_ROWS(t, "i / j is null", "3");
    CHECK_ROWS(t, "g / (j - j) is null", "0 1 2 3 4 5");
    CHECK_ROWS(t, "not (i / j > 3)", "1 4 5"); /* null stays unknown under not */
    CHECK_ROWS(t, "i * j > 0", "0 2");
    CHECK_ROWS(t, "-i < 0", "0 2 3");
    CHECK_ROWS(t, "- - i == 7", "0");
    CHECK_ROWS(t, "i < 100 and i + j * 2 == 11", "0"); /* precedence: 7 + 4 */
    CHECK_ROWS(t, "i < 100 and (i + j) * 2 == 18", "0");
    CHECK_ROWS(t, "i - j - 1 == 4", "0"); /* left-associative: (7 - 2) - 1 */
    CHECK_ROWS(t, "i + 0.5 > 7", "0 2");  /* mixed INT and FLOAT is FLOAT */
    /* uint64 values inside int64 compute; */
    CHECK_ROWS(t, "u < 3 and u * 2 == 4", "1");
}

static void overflow(const tk_table *t)
{
    char msg[600];
    /* row 2 holds INT64_MAX */
    CHECK_EQ_I64(eval_status(t, "i + 1 > 0", msg, sizeof msg), PQT_RANGE);
    CHECK_STR(msg, "filter rule 'i + 1 > 0': i + 1 overflows int64 (9223372036854775807 + 1) at "
                   "row 2 of the batch");
    CHECK_EQ_I64(eval_status(t, "i * j * 3 > 0", msg, sizeof msg), PQT_RANGE);
    CHECK_STR(msg, "filter rule 'i * j * 3 > 0': i * j * 3 overflows int64 (9223372036854775807 "
                   "* 3) at row 2 of the batch");
    CHECK_EQ_I64(eval_status(t, "0 - i - 2 < 0", msg, sizeof msg), PQT_RANGE);
    CHECK_STR(msg, "filter rule '0 - i - 2 < 0': 0 - i - 2 overflows int64 (-9223372036854775807 "
                   "- 2) at row 2 of the batch");
    /* rows an earlier conjunct dropped are not computed */
    CHECK_ROWS(t, "i < 100 and i + 1 > 0", "0 3 4");
    /* a uint64 value past int64 is refused where it is computed with */
    CHECK_EQ_I64(eval_status(t, "u * 1 > 0", msg, sizeof msg), PQT_RANGE);
    CHECK_STR(msg, "filter rule 'u * 1 > 0': column 'u' holds 18446744073709551615 at row 5 of "
                   "the batch, beyond int64, which expressions compute in");
    /* constants are computed at compile */
    CHECK_BAD(t, "9223372036854775807 + 1 > i",
              "filter rule '9223372036854775807 + 1 > i': 9223372036854775807 + 1 overflows int64 "
              "(9223372036854775807 + 1)",
              1);
    CHECK_BAD(t, "abs(-9223372036854775807 - 1) > i", "overflows int64 (abs(-9223372036854775808))",
              1);
    CHECK_ROWS(t, "-9223372036854775807 - 1 < i", "0 1 2 3 4 5");
    CHECK_ROWS(t, "i > 1 // 0", ""); /* null constant: never true */
    CHECK_EQ_I64(eval_status(t, "round(i, -1) > 0", msg, sizeof msg), PQT_RANGE);
    CHECK_STR(msg, "filter rule 'round(i, -1) > 0': round(i, -1) overflows int64 "
                   "(round(9223372036854775807, -1)) at row 2 of the batch");
}

static void comparisons(const tk_table *t)
{
    /* exact INT vs FLOAT: 2^53 + 1 > 2^53 although (double)(2^53 + 1) == 2^53 */
    CHECK_ROWS(t, "big > bf", "0 3");
    CHECK_ROWS(t, "bf < big", "0 3");
    CHECK_ROWS(t, "big == bf", "2");
    CHECK_ROWS(t, "big != bf", "0 1 3 4 5"); /* NaN compares false except != */
    CHECK_ROWS(t, "big + 0 >= bf", "0 2 3");
    /* a float64 column against an integer literal no double holds: exact, like the above
     * (2^53 + 1 lies between the doubles 2^53 and 2^53 + 2) */
    CHECK_ROWS(t, "bf < 9007199254740993", "0 1 2 3");
    CHECK_ROWS(t, "bf <= 9007199254740993", "0 1 2 3");
    CHECK_ROWS(t, "bf > 9007199254740993", "4");
    CHECK_ROWS(t, "9007199254740993 <= bf", "4");
    CHECK_ROWS(t, "bf == 9007199254740993", "");
    CHECK_ROWS(t, "bf != 9007199254740993", "0 1 2 3 4 5");
    CHECK_ROWS(t, "bf between 9007199254740993 and 9007199254740993", "");
    CHECK_ROWS(t, "bf in (9007199254740993, 2)", "2");
    CHECK_ROWS(t, "bf not in (9007199254740993)", "0 1 2 3 4 5");
    CHECK_ROWS(t, "bf >= 9007199254740992", "0 4");
    /* two columns */
    CHECK_ROWS(t, "g > r", "0 1 2 5");
    CHECK_ROWS(t, "g>r", "0 1 2 5");
    CHECK_ROWS(t, "ra > dec", "3 5");
    CHECK_ROWS(t, "i > j", "0 2 3 4");
    CHECK_ROWS(t, "flag == flag", "0 1 2 3 4 5");
    /* timestamps of two units: 1000 ms = 1000000 us */
    CHECK_ROWS(t, "ts > ts2", "0");
    CHECK_ROWS(t, "ts == ts2", "1 3 4");
    /* literal op column is the leaf column op' literal */
    CHECK_ROWS(t, "5 < i", "0 2");
    CHECK_ROWS(t, "2 * 3 <= i", "0 2");
    CHECK_ROWS(t, "-7 == i", "1");
}

static void functions(const tk_table *t)
{
    CHECK_ROWS(t, "abs(i) == 7", "0 1");
    CHECK_ROWS(t, "ABS(g - r) < 0.3", "1");
    CHECK_ROWS(t, "sqrt(g) > 1.2", "1 2");
    CHECK_ROWS(t, "sqrt(-1) == sqrt(-1)", ""); /* NaN */
    CHECK_ROWS(t, "isnan(sqrt(0 - g))", "0 1 2 3 4 5");
    CHECK_ROWS(t, "isnan(sqrt(g - 1))", "3 4");
    CHECK_ROWS(t, "log(flux) < 0", "0 3 5"); /* log(0) = -inf */
    CHECK_ROWS(t, "exp(0) == 1 and log(1) == 0 and log10(1000) == 3", "0 1 2 3 4 5");
    CHECK_ROWS(t, "pow(j, 2) == 4", "0 1");
    CHECK_ROWS(t, "floor(-g) == -4 and ceil(g) == 4", "2");
    CHECK_ROWS(t, "round(g) == 1", "0 4 5"); /* half away from zero: 0.5 -> 1 */
    CHECK_ROWS(t, "round(-2.5) == -3 and round(2.5) == 3", "0 1 2 3 4 5");
    CHECK_ROWS(t, "round(g / 3, 2) == 0.33", "0 5");
    CHECK_ROWS(t, "i < 100 and round(i, -1) == 10", "0");  /* INT stays INT: 7 -> 10 */
    CHECK_ROWS(t, "i < 100 and round(i, -1) == -10", "1"); /* -7 -> -10 */
    CHECK_ROWS(t, "round(1250, -2) == 1300 and round(-1250, -2) == -1300", "0 1 2 3 4 5");
    CHECK_ROWS(t, "sind(180) == 0 and cosd(90) == 0 and sind(90) == 1 and cosd(180) == -1",
               "0 1 2 3 4 5");
    CHECK_ROWS(t, "abs(sind(30) - 0.5) < 1e-15 and abs(tand(45) - 1) < 1e-15", "0 1 2 3 4 5");
    CHECK_ROWS(t, "abs(asind(0.5) - 30) < 1e-12 and abs(acosd(0.5) - 60) < 1e-12", "0 1 2 3 4 5");
    CHECK_ROWS(t, "abs(atan2d(1, 1) - 45) < 1e-12 and abs(atand(1) - 45) < 1e-12", "0 1 2 3 4 5");
    CHECK_ROWS(t, "abs(atan2(1, 0) - asin(1)) < 1e-15 and sin(0) == 0 and cos(0) == 1",
               "0 1 2 3 4 5");
    CHECK_ROWS(t, "abs(tan(atan(2)) - 2) < 1e-15 and acos(1) == 0", "0 1 2 3 4 5");
    /* length counts UTF-8 characters */
    CHECK_ROWS(t, "length(name) == 3", "0 5");
    CHECK_ROWS(t, "length(name) == 1", "1");
    CHECK_ROWS(t, "length(name) > 1 and name > \"a\"", "0 3 4 5");
    CHECK_ROWS(t, "length('h\xc3\xa9llo') == 5", "0 1 2 3 4 5");
    CHECK_ROWS(t, "isnan(g)", "3");
    CHECK_ROWS(t, "not isnan(g)", "0 1 2 4 5");
    CHECK_ROWS(t, "isfinite(log(flux))", "0 1 2 5");
    CHECK_ROWS(t, "isfinite(g / (j - j))", ""); /* null */
    CHECK_ROWS(t, "isnan(i)", "");
    /* cone: 0.5 degrees along a meridian is inside a 0.5 degree cone; 0.7 degrees of RA at
     * dec 20 is 0.658 degrees of sky; both poles are one point */
    CHECK_ROWS(t, "cone(ra, dec, 10, 20, 0.5)", "0 1");
    CHECK_ROWS(t, "cone(ra, dec, 10, 20, 0.66)", "0 1 2");
    CHECK_ROWS(t, "cone(ra, dec, 10, 20, 0.65)", "0 1");
    CHECK_ROWS(t, "cone(ra, dec, 0, 90, 0.1)", "4 5");
    CHECK_ROWS(t, "not cone(ra, dec, 0, 90, 0.1)", "0 1 2 3");
    CHECK_ROWS(t, "cone(90, 0, 0, 0, 90) and not cone(90, 0, 0, 0, 89.9999)", "0 1 2 3 4 5");
    CHECK_ROWS(t, "cone(ra, dec, 190, 20, 180)", "0 1 2 3 4 5");
    CHECK_ROWS(t, "cone(ra, dec, 190, 20, -1)", "");
    CHECK_ROWS(t, "Cone(ra, dec, 10.0, 20.25, 0.25)", "0 1");
}

static void sql(const tk_table *t)
{
    CHECK_ROWS(t, "r is null", "4");
    CHECK_ROWS(t, "r IS NOT NULL", "0 1 2 3 5");
    CHECK_ROWS(t, "g - r is null", "4");
    CHECK_ROWS(t, "g between 1 and 2", "0 1 5");
    CHECK_ROWS(t, "g BETWEEN 1 AND 2 and i > 0", "0");
    CHECK_ROWS(t, "g not between 1 and 2", "2 3 4");   /* NaN is not between */
    CHECK_ROWS(t, "g - r between 0.2 and 0.8", "0 5"); /* 2.0 - 1.8 < 0.2 in binary */
    CHECK_ROWS(t, "flag", "0 2 4");
    CHECK_ROWS(t, "not flag", "1 3 5");
    CHECK_ROWS(t, "flag and i > 0", "0 2");
    CHECK_ROWS(t, "i IN (7, 4)", "0 3");
    CHECK_ROWS(t, "i not in (7, 4)", "1 2 4 5");
    CHECK_ROWS(t, "(g - r) > 0.5", "0 2");
    CHECK_ROWS(t, "(g - r > 0.5) or flag", "0 2 4");
    CHECK_ROWS(t, "g-r > 0.5", "0 2"); /* no column is named "g-r" */
    CHECK_ROWS(t, "name == 'abc'", "0");
    CHECK_ROWS(t, "'abc' == name", "0");
}

static void errors(const tk_table *t)
{
    CHECK_BAD(t, "g + name > 1",
              "filter rule 'g + name > 1': arithmetic takes numbers; 'name' is string column "
              "(compare strings, bools and dates directly, without arithmetic)",
              5);
    CHECK_BAD(t, "sqr(g) > 1", "filter rule 'sqr': unknown function 'sqr' (did you mean 'sqrt'?)",
              1);
    CHECK_BAD(t, "pow(g) > 1", "filter rule 'pow(g)': pow() takes 2 arguments, not 1", 1);
    CHECK_BAD(t, "g > name",
              "filter rule 'g > name': cannot compare these: 'g' is float64 column, 'name' is "
              "string column",
              3);
    CHECK_BAD(t, "ts > i", "cannot compare these: 'ts' is timestamp column, 'i' is int64 column",
              4);
    CHECK_BAD(t, "g between 1", "between takes 'and' between its bounds", 12);
    CHECK_BAD(t, "g + 1",
              "filter rule 'g + 1': a predicate compares values; 'g + 1' is a float, "
              "not a bool",
              1);
    CHECK_BAD(t, "i", "filter rule 'i' is missing an operator", 1);
    CHECK_BAD(t, "length(lst) > 1", "length() of the list column 'lst' is not supported yet", 8);
    CHECK_BAD(t, "g + nope > 1", "unknown column in filter: nope", 5);
    CHECK_BAD(t, "ra > decc",
              "filter rule 'ra > decc': 'decc' is not a number, true or false (a "
              "string value is written in double quotes), nor a column of the "
              "table (did you mean 'dec'?)",
              6);
    CHECK_BAD(t, "g > (1 + ",
              "filter rule 'g > (1 + ' ends where a value, a column or '(' is "
              "expected",
              10);
    CHECK_BAD(t, "length(g) > 1", "length() takes a string; 'g' is float64 column", 8);
    CHECK_BAD(t, "isnan(name)", "isnan() takes numbers; 'name' is string column", 7);
}

static void normalized(const tk_table *t)
{
    CHECK_TEXT(t, "5 < i", "i > 5");
    CHECK_TEXT(t, "2 * 3 >= i", "i <= 6");
    CHECK_TEXT(t, "g - r > 0.5", "g - r > 0.5");
    CHECK_TEXT(t, "i - (j - 1) > 0", "i - (j - 1) > 0");
    CHECK_TEXT(t, "-(i + 1) * 2 < 3", "-(i + 1) * 2 < 3");
    CHECK_TEXT(t, "not (g - r > 0.5)", "not (g - r > 0.5)");
    CHECK_TEXT(t, "g - r != 0.5", "g - r /= 0.5");
    CHECK_TEXT(t, "g + 2 * 3 > r", "g + 6 > r");
    CHECK_TEXT(t, "isnan(g)", "g is_nan");
    CHECK_TEXT(t, "not isnan(g - r)", "not isnan(g - r)");
    CHECK_TEXT(t, "flag", "flag == true");
    CHECK_TEXT(t, "g - r is not null", "g - r is_not_null");
    CHECK_TEXT(t, "cone(ra, dec, 10, 20, 0.5)", "cone(ra, dec, 10, 20, 0.5)");
}

/* 5 < i prunes like i > 5; a computed predicate proves nothing yet but stays sound */
static void pushdown(const tk_table *t)
{
    pqt_filter *f = NULL;
    pqt_status st = PQT_OK;
    CHECK_OK(pqt_filter_new(&f));
    CHECK_OK(pqt_filter_add(f, "5 < i"));
    pqt_fprog *p = tk_compile(t, f, &st);
    CHECK(p != NULL);
    if (p) {
        pqt_scan_stats s;
        memset(&s, 0, sizeof s);
        s.flags = PQT_SST_MIN | PQT_SST_MAX | PQT_SST_MIN_EXACT | PQT_SST_MAX_EXACT;
        s.min.i = 0;
        s.max.i = 5;
        s.null_count = 0;
        s.nan_count = -1;
        CHECK_EQ_I64(pqt_scan_prog_prove(p, &s, 10), PQT_TRI_NONE);
        s.max.i = 6;
        CHECK_EQ_I64(pqt_scan_prog_prove(p, &s, 10), PQT_TRI_SOME);
        s.min.i = 6;
        CHECK_EQ_I64(pqt_scan_prog_prove(p, &s, 10), PQT_TRI_ALL);
        CHECK(pqt_scan_conj_probe(p, 0, NULL, NULL) == -1);
    }
    pqt_scan_prog_free(p);
    pqt_filter_free(f);
}

/* Every allocation failure is PQT_NOMEM, leaking nothing. */
static void alloc_failures(const tk_table *t)
{
    int reached = 0;
    for (long k = 0; k < 3000 && !reached; k++) {
        pqt_mem_fail_after(k);
        pqt_filter *f = NULL;
        pqt_fprog *p = NULL;
        pqt_status st = pqt_filter_new(&f);
        if (st == PQT_OK)
            st = pqt_filter_add(f, "g - r > 0.5 and abs(i) between 1 and 8 or cone(ra, dec, 10, "
                                   "20, 1) and length(name) == 3");
        if (st == PQT_OK) p = tk_compile(t, f, &st);
        uint8_t keep[1] = {0};
        pqt_scan_scratch sc = {0};
        if (st == PQT_OK) {
            pqt_scan_vec vecs[TK_MAXCOLS];
            for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
                const tk_col *c = &t->cols[pqt_scan_prog_col(p, s)];
                vecs[s] = (pqt_scan_vec){c->data, c->bytes, c->valid};
            }
            st = pqt_scan_prog_eval(p, vecs, t->nrows, NULL, keep, NULL, &sc);
        }
        pqt_mem_fail_after(-1);
        if (st != PQT_OK && st != PQT_NOMEM) {
            fprintf(stderr, "allocation failure %ld: status %d: %s\n", k, st, pqt_errmsg());
            pqt_test_failures++;
        }
        if (st == PQT_OK) {
            reached = 1;
            /* row 0: 0.8 > 0.5, |7| in [1, 8]; row 1 is in the cone but its name is one
             * character; row 5's name has 3 but it is far from the cone */
            CHECK_EQ_I64(keep[0], 0x01);
        }
        pqt_scan_scratch_free(&sc);
        pqt_scan_prog_free(p);
        pqt_filter_free(f);
    }
    CHECK(reached);
}

int main(void)
{
    tk_table t = table();
    arithmetic(&t);
    overflow(&t);
    comparisons(&t);
    functions(&t);
    sql(&t);
    errors(&t);
    normalized(&t);
    pushdown(&t);
    alloc_failures(&t);
    return pqt_test_done("test_filter_expr");
}
