/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_render.c - the value renderings of the pqt tool (tools/render_json.c): civil dates,
 * times, timestamps, floats and string escaping, on hand-computed values. The jsonl output
 * of `pqt cat` is a contract, so these pin it down. The tool's source is compiled in
 * directly: tools/ is not part of the library.
 */
#include <math.h>
#include <string.h>

#include "../../tools/render_json.c"
#include "testutil.h"

/* Render with fn into a fresh buffer and compare with want. */
#define CHECK_RENDER(want, call)                                                                   \
    do {                                                                                           \
        rbuf b_ = {0};                                                                             \
        rbuf *b = &b_;                                                                             \
        call;                                                                                      \
        const char *got_ = b_.p ? b_.p : "";                                                       \
        if (strcmp(got_, (want)) != 0) {                                                           \
            fprintf(stderr, "%s:%d: %s gave '%s', want '%s'\n", __FILE__, __LINE__, #call, got_,   \
                    (want));                                                                       \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
        rb_free(&b_);                                                                              \
    } while (0)

static void test_dates(void)
{
    CHECK_RENDER("1970-01-01", render_date(b, 0));
    CHECK_RENDER("1969-12-31", render_date(b, -1));
    CHECK_RENDER("2024-01-01", render_date(b, 19723));
    CHECK_RENDER("2000-02-29", render_date(b, 11016));  /* leap day of a 400-year leap year */
    CHECK_RENDER("1900-02-28", render_date(b, -25509)); /* 1900 is not a leap year */
    CHECK_RENDER("1900-03-01", render_date(b, -25508));
    CHECK_RENDER("0001-01-01", render_date(b, -719162));
    CHECK_RENDER("0000-01-01", render_date(b, -719528)); /* year 0 is a (proleptic) leap year */
    CHECK_RENDER("-0001-12-31", render_date(b, -719529));
    CHECK_RENDER("9999-12-31", render_date(b, 2932896));
    CHECK_RENDER("10000-01-01", render_date(b, 2932897));
    /* int32 extremes must not overflow inside the era arithmetic. */
    CHECK_RENDER("5881580-07-11", render_date(b, INT32_MAX));
    CHECK_RENDER("-5877641-06-23", render_date(b, INT32_MIN));

    int64_t y;
    int m, d;
    civil_from_days(-1, &y, &m, &d);
    CHECK_EQ_I64(y, 1969);
    CHECK_EQ_I64(m, 12);
    CHECK_EQ_I64(d, 31);
}

static void test_times(void)
{
    CHECK_RENDER("00:00:00.000", render_time(b, 0, PQT_UNIT_MILLIS));
    CHECK_RENDER("00:00:00.000000", render_time(b, 0, PQT_UNIT_MICROS));
    CHECK_RENDER("00:00:00.000000001", render_time(b, 1, PQT_UNIT_NANOS));
    CHECK_RENDER("23:59:59.999", render_time(b, 86399999, PQT_UNIT_MILLIS));
    CHECK_RENDER("23:59:59.999999", render_time(b, 86399999999LL, PQT_UNIT_MICROS));
    CHECK_RENDER("12:34:56.789000", render_time(b, 45296789000LL, PQT_UNIT_MICROS));
    /* negative: wrapped modulo 24 h (-03:51:39 is 20:08:21); past a day: hours kept */
    CHECK_RENDER("20:08:21.000", render_time(b, -13899000, PQT_UNIT_MILLIS));
    CHECK_RENDER("23:59:59.999999999", render_time(b, -1, PQT_UNIT_NANOS));
    CHECK_RENDER("00:00:00.000", render_time(b, -86400000LL * 3, PQT_UNIT_MILLIS));
    CHECK_RENDER("25:00:00.000", render_time(b, 90000000, PQT_UNIT_MILLIS));
}

static void test_timestamps(void)
{
    CHECK_RENDER("1970-01-01T00:00:00.000000", render_timestamp(b, 0, PQT_UNIT_MICROS, 0));
    CHECK_RENDER("1970-01-01T00:00:00.000Z", render_timestamp(b, 0, PQT_UNIT_MILLIS, 1));
    CHECK_RENDER("1969-12-31T23:59:59.999999", render_timestamp(b, -1, PQT_UNIT_MICROS, 0));
    CHECK_RENDER("1969-12-31T23:59:59.999", render_timestamp(b, -1, PQT_UNIT_MILLIS, 0));
    CHECK_RENDER("1969-12-31T00:00:00.000000",
                 render_timestamp(b, -86400000000LL, PQT_UNIT_MICROS, 0));
    CHECK_RENDER("2023-11-14T22:13:20.123456789Z",
                 render_timestamp(b, 1700000000123456789LL, PQT_UNIT_NANOS, 1));
    CHECK_RENDER("1677-09-21T00:12:43.145224192",
                 render_timestamp(b, INT64_MIN, PQT_UNIT_NANOS, 0));
}

static void test_doubles(void)
{
    CHECK_RENDER("\"NaN\"", render_double(b, NAN, 1));
    CHECK_RENDER("NaN", render_double(b, NAN, 0));
    CHECK_RENDER("\"Infinity\"", render_double(b, INFINITY, 1));
    CHECK_RENDER("\"-Infinity\"", render_double(b, -INFINITY, 1));
    /* shortest round trip of the value's own type (pqt_format_float64/32) */
    CHECK_RENDER("0.1", render_double(b, 0.1, 1));
    CHECK_RENDER("1.100000023841858", render_double(b, (double)1.1f, 1));
    CHECK_RENDER("1.1", render_float(b, 1.1f, 1));
    CHECK_RENDER("\"NaN\"", render_float(b, NAN, 1));
    CHECK_RENDER("-Infinity", render_float(b, -INFINITY, 0));
    CHECK_RENDER("-0.0", render_double(b, -0.0, 1));
    CHECK_RENDER("1e+300", render_double(b, 1e300, 1));
    CHECK_RENDER("42.0", render_double(b, 42.0, 1));
}

static void test_strings(void)
{
    /* quote, tab, é (UTF-8 passes through), a control character */
    CHECK_RENDER("\"a\\\"b\\tc\xc3\xa9\\u0001\"", render_json_string(b, "a\"b\tc\xc3\xa9\x01", 8));
    CHECK_RENDER("\"back\\\\slash\\nline\\r\"", render_json_string(b, "back\\slash\nline\r", 16));
    CHECK_RENDER("\"\"", render_json_string(b, "", 0));
    /* invalid UTF-8: a stray byte, a truncated sequence, an overlong form, a surrogate */
    CHECK_RENDER("\"x\\ufffdy\"", render_json_string(b, "x\xffy", 3));
    CHECK_RENDER("\"\\ufffd\"", render_json_string(b, "\xc3", 1));
    CHECK_RENDER("\"\\ufffd\\ufffd\"", render_json_string(b, "\xc0\xaf", 2));
    CHECK_RENDER("\"\\ufffd\\ufffd\\ufffd\"", render_json_string(b, "\xed\xa0\x80", 3));
    CHECK_RENDER("\"\xf0\x9f\x98\x80\"", render_json_string(b, "\xf0\x9f\x98\x80", 4));
    /* an embedded NUL is data, not the end */
    CHECK_RENDER("\"a\\u0000b\"", render_json_string(b, "a\0b", 3));

    CHECK_RENDER("a\"b\tc\xc3\xa9", render_text_string(b, "a\"b\tc\xc3\xa9", 7, 0));
    CHECK_RENDER("a\\nb\\tc", render_text_string(b, "a\nb\tc", 5, 1));
    CHECK_RENDER("x\xef\xbf\xbdy", render_text_string(b, "x\xffy", 3, 0));
}

/* render_cell over a hand-made view: a list column with a null list and a null element. */
static void test_cells(void)
{
    static const int32_t data[] = {1, 0, 3, 4};
    static const uint8_t valid[] = {0x0d};     /* element 1 is null */
    static const uint8_t row_valid[] = {0x05}; /* row 1 is a null list */
    static const int64_t offsets[] = {0, 2, 2, 4};
    colview v = {.kind = PQT_INT32 | PQT_LIST,
                 .elem = PQT_INT32,
                 .width = 1,
                 .unit = -1,
                 .nrows = 3,
                 .data = data,
                 .valid = valid,
                 .row_valid = row_valid,
                 .list_off = offsets};
    CHECK_RENDER("[1,null]", render_cell(b, &v, 0, STYLE_JSON));
    CHECK_RENDER("null", render_cell(b, &v, 1, STYLE_JSON));
    CHECK_RENDER("", render_cell(b, &v, 1, STYLE_CSV));
    CHECK_RENDER("[3,4]", render_cell(b, &v, 2, STYLE_CSV));

    static const double dd[] = {0.1, NAN};
    colview d = {.kind = PQT_FLOAT64, .elem = PQT_FLOAT64, .width = 1, .nrows = 2, .data = dd};
    /* one text in every format */
    CHECK_RENDER("0.1", render_cell(b, &d, 0, STYLE_JSON));
    CHECK_RENDER("0.1", render_cell(b, &d, 0, STYLE_CSV));
    CHECK_RENDER("0.1", render_cell(b, &d, 0, STYLE_TABLE));
    static const float ff[] = {0.1f, 3.0f};
    colview fv = {.kind = PQT_FLOAT32, .elem = PQT_FLOAT32, .width = 1, .nrows = 2, .data = ff};
    CHECK_RENDER("0.1", render_cell(b, &fv, 0, STYLE_JSON));
    CHECK_RENDER("3.0", render_cell(b, &fv, 1, STYLE_CSV));
    CHECK_RENDER("0.1", render_cell(b, &fv, 0, STYLE_TABLE));
    CHECK_RENDER("\"NaN\"", render_cell(b, &d, 1, STYLE_JSON));
    CHECK_RENDER("NaN", render_cell(b, &d, 1, STYLE_CSV));

    static const int32_t days[] = {-1};
    colview dt = {.kind = PQT_DATE, .elem = PQT_DATE, .width = 1, .nrows = 1, .data = days};
    CHECK_RENDER("\"1969-12-31\"", render_cell(b, &dt, 0, STYLE_JSON));
    CHECK_RENDER("1969-12-31", render_cell(b, &dt, 0, STYLE_CSV));

    static const int64_t soff[] = {0, 3};
    colview s = {.kind = PQT_STRING,
                 .elem = PQT_STRING,
                 .width = 1,
                 .nrows = 1,
                 .str_off = soff,
                 .bytes = "a\"b"};
    CHECK_RENDER("\"a\\\"b\"", render_cell(b, &s, 0, STYLE_JSON));
    CHECK_RENDER("a\"b", render_cell(b, &s, 0, STYLE_CSV));
}

int main(void)
{
    test_dates();
    test_times();
    test_timestamps();
    test_doubles();
    test_strings();
    test_cells();
    return pqt_test_done("test_render");
}
