/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_qc_eval.c - the qc check on hand-made column buffers (src/scan/qc_check.c), for the
 * kinds and comparisons a small file does not reach: uint64 beyond int64, float bounds
 * against integers past 2^53 (compared exactly, not through doubles), integer bounds
 * against floats, float32 text, strings and their order, empty columns. Truth: the counts
 * and texts worked out by hand for each buffer.
 */
#include <math.h>
#include <string.h>

#include "scan/qc.h"
#include "testutil.h"

static pqt_qc *qc;

static const pqt_qc_rule *rule(const char *text)
{
    pqt_qc_clear(qc);
    REQUIRE_OK(pqt_qc_add(qc, text));
    return &qc->rules[0];
}

static pqt_colbuf buf(int kind, void *data, int64_t n, uint8_t *validity)
{
    pqt_colbuf b;
    memset(&b, 0, sizeof b);
    b.elem_kind = kind;
    b.nrows = b.nelem = n;
    b.data = data;
    b.validity = validity;
    return b;
}

/* The range text of rule r over b, or "ok" when nothing is out of range. */
static const char *range_of(const pqt_qc_rule *r, const pqt_colbuf *b)
{
    static char text[512];
    pqt_qc_eval e;
    pqt_scan_qc_eval(r, b, &e);
    if (!pqt_scan_qc_range_bad(&e)) return "ok";
    pqt_scan_qc_range_text(r, &e, text, sizeof text);
    return text;
}

#define CHECK_TEXT(got, want)                                                                      \
    do {                                                                                           \
        const char *g_ = (got);                                                                    \
        if (strcmp(g_, want) != 0) {                                                               \
            fprintf(stderr, "%s:%d:\n  got  \"%s\"\n  want \"%s\"\n", __FILE__, __LINE__, g_,      \
                    want);                                                                         \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

static void test_int64_against_float_bounds(void)
{
    int64_t v[3] = {9007199254740993LL, -9007199254740993LL, 0};
    pqt_colbuf b = buf(PQT_INT64, v, 3, NULL);
    /* 9.007199254740992e15 is 2^53 exactly; 2^53 + 1 is above it, -(2^53 + 1) below -2^53.
     * Through doubles both would equal their bound. */
    CHECK_TEXT(range_of(rule("x, , <=9.007199254740992e15"), &b),
               "declared max <= 9.007199254740992e15, data range [-9007199254740993, "
               "9007199254740993], 1 of 3 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("x, >=-9.007199254740992e15"), &b),
               "declared min >= -9.007199254740992e15, data range [-9007199254740993, "
               "9007199254740993], 1 of 3 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("x, -9007199254740993, 9007199254740993"), &b), "ok");
    /* fractions: 0 is inside [-0.5, 0.5], outside (0.5, ...), and -0.5 < 0 */
    CHECK_TEXT(range_of(rule("x, -1e16, 1e16"), &b), "ok");
    int64_t z[1] = {0};
    pqt_colbuf bz = buf(PQT_INT64, z, 1, NULL);
    CHECK_TEXT(range_of(rule("x, -0.5, 0.5"), &bz), "ok");
    CHECK_TEXT(range_of(rule("x, >0.5"), &bz),
               "declared min > 0.5, data range [0, 0], 1 of 1 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("x, , <-0.5"), &bz),
               "declared max < -0.5, data range [0, 0], 1 of 1 valid element(s) out of range");
    /* bounds beyond int64 as floats */
    CHECK_TEXT(range_of(rule("x, -1e19, 1e19"), &b), "ok");
    CHECK_TEXT(range_of(rule("x, 1e19"), &b),
               "declared min >= 1e19, data range [-9007199254740993, 9007199254740993], 3 of 3 "
               "valid element(s) out of range");
}

static void test_uint64(void)
{
    uint64_t v[3] = {18446744073709551615ULL, 0, 9223372036854775808ULL};
    pqt_colbuf b = buf(PQT_UINT64, v, 3, NULL);
    CHECK_TEXT(range_of(rule("u, , <=9223372036854775807"), &b),
               "declared max <= 9223372036854775807, data range [0, 18446744073709551615], 2 of "
               "3 valid element(s) out of range");
    /* 1.8446744073709552e19 is 2^64: above every uint64 */
    CHECK_TEXT(range_of(rule("u, , <1.8446744073709552e19"), &b), "ok");
    CHECK_TEXT(range_of(rule("u, >-1"), &b), "ok"); /* refused at open; still right here */
    /* bounds past 2^63 are exact: no rounding through double */
    CHECK_TEXT(range_of(rule("u, , <=18446744073709551614"), &b),
               "declared max <= 18446744073709551614, data range [0, 18446744073709551615], 1 of "
               "3 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("u, 9223372036854775808, 18446744073709551615"), &b),
               "declared min >= 9223372036854775808, max <= 18446744073709551615, data range [0, "
               "18446744073709551615], 1 of 3 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("u, >9223372036854775808, <18446744073709551615"), &b),
               "declared min > 9223372036854775808, max < 18446744073709551615, data range [0, "
               "18446744073709551615], 3 of 3 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("u, 9223372036854775807"), &b),
               "declared min >= 9223372036854775807, data range [0, 18446744073709551615], 1 of "
               "3 valid element(s) out of range");
    /* an int64 value is below a bound past 2^63 (refused at open on an int64 column) */
    int64_t iv[2] = {INT64_MAX, -1};
    pqt_colbuf bi = buf(PQT_INT64, iv, 2, NULL);
    CHECK_TEXT(range_of(rule("i, , <9223372036854775808"), &bi), "ok");
    double dv[2] = {1.8446744073709552e19, 0};
    pqt_colbuf bd = buf(PQT_FLOAT64, dv, 2, NULL);
    CHECK_TEXT(range_of(rule("f, , 18446744073709551615"), &bd),
               "declared max <= 18446744073709551615, data range [0.0, 18446744073709552000.0], 1 "
               "of 2 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("u, >0"), &b),
               "declared min > 0, data range [0, 18446744073709551615], 1 of 3 valid element(s) "
               "out of range");
}

static void test_floats(void)
{
    double d[5] = {0.5, NAN, -0.25, 2.0, 1e300};
    uint8_t valid[1] = {0x0F}; /* the last (1e300) is null */
    pqt_colbuf b = buf(PQT_FLOAT64, d, 5, valid);
    /* present: 0.5, NaN, -0.25, 2.0; NaN is neither out of range nor in the data range */
    CHECK_TEXT(range_of(rule("f, 0, 1"), &b),
               "declared min >= 0, max <= 1, data range [-0.25, 2.0], 2 of 4 valid element(s) out "
               "of range");
    CHECK_TEXT(range_of(rule("f, -0.25, 2"), &b), "ok");
    CHECK_TEXT(range_of(rule("f, >-0.25, <2"), &b),
               "declared min > -0.25, max < 2, data range [-0.25, 2.0], 2 of 4 valid element(s) "
               "out of range");
    pqt_qc_eval e;
    pqt_scan_qc_eval(rule("f,,,"), &b, &e);
    CHECK_EQ_I64(e.nnull, 1);
    CHECK_EQ_I64(e.nelem, 5);
    CHECK_EQ_I64(e.nvalid, 4);
    CHECK(pqt_scan_qc_null_bad(&qc->rules[0], &e));
    char text[256];
    pqt_scan_qc_null_text(&e, text, sizeof text);
    CHECK_TEXT(text, "1 of 5 element(s) are Null (qc: miss: is declared empty, so Nulls are not "
                     "expected here)");
    pqt_scan_qc_eval(rule("f,,,NA"), &b, &e);
    CHECK(!pqt_scan_qc_null_bad(&qc->rules[0], &e));

    float g[2] = {0.1f, 3.5f};
    pqt_colbuf bg = buf(PQT_FLOAT32, g, 2, NULL);
    CHECK_TEXT(range_of(rule("g, , <3.5"), &bg),
               "declared max < 3.5, data range [0.1, 3.5], 1 of 2 valid element(s) out of range");
    /* all NaN: no data range and nothing out of range */
    double n[2] = {NAN, NAN};
    pqt_colbuf bn = buf(PQT_FLOAT64, n, 2, NULL);
    pqt_scan_qc_eval(rule("n, 0, 1"), &bn, &e);
    CHECK(!e.any);
    CHECK_EQ_I64(e.nout, 0);
    CHECK_EQ_I64(e.nvalid, 2);
}

static void test_strings_and_empty(void)
{
    const char *bytes = "abcabcd";
    int64_t off[4] = {0, 2, 3, 7}; /* "ab", "c", "abcd" */
    pqt_colbuf b = buf(PQT_STRING, NULL, 3, NULL);
    b.str_offsets = off;
    b.str_bytes.data = (uint8_t *)bytes;
    /* "ab" < "abc" (a prefix first) < "abcd" < "c" */
    CHECK_TEXT(range_of(rule("s, >=abc"), &b),
               "declared min >= abc, data range ['ab', 'c'], 1 of 3 valid element(s) out of range");
    CHECK_TEXT(range_of(rule("s, ab, c"), &b), "ok");
    CHECK_TEXT(range_of(rule("s, , <c"), &b),
               "declared max < c, data range ['ab', 'c'], 1 of 3 valid element(s) out of range");
    /* docs/qc.md: a string column takes any literal, a number too, compared as its text:
     * "10" < "5" < "9" < "a" byte by byte */
    const char *digits = "109a";
    int64_t doff[4] = {0, 2, 3, 4}; /* "10", "9", "a" */
    pqt_colbuf d = buf(PQT_STRING, NULL, 3, NULL);
    d.str_offsets = doff;
    d.str_bytes.data = (uint8_t *)digits;
    CHECK_TEXT(range_of(rule("s, 0, 5"), &d),
               "declared min >= 0, max <= 5, data range ['10', 'a'], 2 of 3 valid element(s) "
               "out of range");
    pqt_colbuf e0 = buf(PQT_INT32, NULL, 0, NULL);
    pqt_qc_eval e;
    pqt_scan_qc_eval(rule("x, 1, 2,"), &e0, &e);
    CHECK_EQ_I64(e.nelem, 0);
    CHECK_EQ_I64(e.nout, 0);
    CHECK(!pqt_scan_qc_null_bad(&qc->rules[0], &e));
    uint8_t bools[2] = {0, 1};
    pqt_colbuf bb = buf(PQT_BOOL, bools, 2, NULL);
    CHECK_TEXT(range_of(rule("b, 5, 7"), &bb), "ok"); /* never enforced */
}

int main(void)
{
    REQUIRE_OK(pqt_qc_new(&qc));
    test_int64_against_float_bounds();
    test_uint64();
    test_floats();
    test_strings_and_empty();
    pqt_qc_free(qc);
    return pqt_test_done("test_qc_eval");
}
