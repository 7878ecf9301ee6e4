/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_variant.c - pqt_variant_to_json against the parquet-testing variant examples and
 * hand-built byte strings (docs/variant.md), and its refusals of broken or hostile bytes.
 *
 * Truth for the corpus examples (tests/data/variant/, copied from parquet-testing's variant/
 * folder; see tests/data/variant/NOTE.md) is that folder's data_dictionary.json, in the JSON
 * layout docs/variant.md fixes: the dictionary's "2025-04-16 12:34:56.78-04:00" is the
 * instant 2025-04-16T16:34:56.780000Z, its "12:33:54:123456" the time 12:33:54.123456, its
 * decimal16 1.2345678912345678e+16 the exact 12345678912345678.90 (the value bytes hold
 * 1234567891234567890 at scale 2), its float 1234567940.0 the float32 1234567936, printed as
 * the shortest text that reads back to it, 1234568000.0. The hand-built bytes are written
 * from the encoding rules, their JSON computed by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"

static size_t slurp(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return (size_t)-1;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void corpus(const char *name, const char *want)
{
    static unsigned char m[1 << 16], v[1 << 16];
    char p[256];
    snprintf(p, sizeof p, "tests/data/variant/%s.metadata", name);
    size_t mn = slurp(p, m, sizeof m);
    snprintf(p, sizeof p, "tests/data/variant/%s.value", name);
    size_t vn = slurp(p, v, sizeof v);
    CHECK(mn != (size_t)-1 && vn != (size_t)-1);
    char *j = NULL;
    size_t len = 0;
    CHECK_OK(pqt_variant_to_json(m, mn, v, vn, &j, &len));
    if (j && strcmp(j, want) != 0) {
        fprintf(stderr, "%s: got %s\n   want %s\n", name, j, want);
        CHECK(0);
    }
    if (j) CHECK_EQ_I64((int64_t)len, (int64_t)strlen(want));
    pqt_free(j);
}

/* metadata with no keys, and with the keys "a", "bb" */
static const unsigned char NOKEYS[] = {0x01, 0x00, 0x00};
static const unsigned char KEYS[] = {0x11, 0x02, 0x00, 0x01, 0x03, 'a', 'b', 'b'};

static void hand(const unsigned char *m, size_t mn, const unsigned char *v, size_t vn,
                 const char *want, int line)
{
    char *j = NULL;
    pqt_status st = pqt_variant_to_json(m, mn, v, vn, &j, NULL);
    if (st != PQT_OK || strcmp(j, want) != 0) {
        fprintf(stderr, "line %d: got %s (%s), want %s\n", line, st == PQT_OK ? j : "error",
                st == PQT_OK ? "" : pqt_errmsg(), want);
        CHECK(0);
    }
    pqt_free(j);
}
#define HAND(v, want) hand(NOKEYS, sizeof NOKEYS, v, sizeof v, want, __LINE__)
#define HANDK(v, want) hand(KEYS, sizeof KEYS, v, sizeof v, want, __LINE__)
#define P(t) (unsigned char)((t) << 2) /* a primitive's first byte */

static void refused(const unsigned char *m, size_t mn, const unsigned char *v, size_t vn,
                    const char *part, int line)
{
    char *j = (char *)"untouched";
    pqt_status st = pqt_variant_to_json(m, mn, v, vn, &j, NULL);
    if (st != PQT_CORRUPT || !strstr(pqt_errmsg(), part) || strcmp(j, "untouched") != 0) {
        fprintf(stderr, "line %d: status %d, message '%s', want PQT_CORRUPT with '%s'\n", line,
                (int)st, pqt_errmsg(), part);
        CHECK(0);
    }
}
#define REFUSED(v, part) refused(NOKEYS, sizeof NOKEYS, v, sizeof v, part, __LINE__)

static void primitives(void)
{
    const unsigned char i8[] = {P(3), 0xfe};
    HAND(i8, "-2");
    const unsigned char i16[] = {P(4), 0x00, 0x80};
    HAND(i16, "-32768");
    const unsigned char i32[] = {P(5), 0xff, 0xff, 0xff, 0x7f};
    HAND(i32, "2147483647");
    const unsigned char i64[] = {P(6), 0, 0, 0, 0, 0, 0, 0, 0x80};
    HAND(i64, "-9223372036854775808");
    const unsigned char dbl[] = {P(7), 0, 0, 0, 0, 0, 0, 0xf8, 0x3f}; /* 1.5 */
    HAND(dbl, "1.5");
    const unsigned char nan[] = {P(7), 0, 0, 0, 0, 0, 0, 0xf8, 0x7f};
    HAND(nan, "\"NaN\"");
    const unsigned char inf[] = {P(14), 0, 0, 0x80, 0xff}; /* float -infinity */
    HAND(inf, "\"-Infinity\"");
    const unsigned char f32[] = {P(14), 0xcd, 0xcc, 0xcc, 0x3d}; /* 0.1f */
    HAND(f32, "0.1");
    const unsigned char d4[] = {P(8), 1, 0xf1, 0xff, 0xff, 0xff}; /* -15 at scale 1 */
    HAND(d4, "-1.5");
    const unsigned char d8[] = {P(9), 3, 0x01, 0, 0, 0, 0, 0, 0, 0}; /* 1 at scale 3 */
    HAND(d8, "0.001");
    /* -(2^64) at scale 0: low word 0, high word -1 */
    const unsigned char d16[] = {P(10), 0,    0,    0,    0,    0,    0,    0,    0,
                                 0,     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    HAND(d16, "-18446744073709551616");
    const unsigned char date[] = {P(11), 0xff, 0xff, 0xff, 0xff}; /* day -1 */
    HAND(date, "\"1969-12-31\"");
    const unsigned char ts[] = {P(12), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    HAND(ts, "\"1969-12-31T23:59:59.999999Z\"");
    const unsigned char tsntz[] = {P(13), 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0}; /* 1 s */
    HAND(tsntz, "\"1970-01-01T00:00:01.000000\"");
    const unsigned char tsn[] = {P(18), 1, 0, 0, 0, 0, 0, 0, 0};
    HAND(tsn, "\"1970-01-01T00:00:00.000000001Z\"");
    const unsigned char tsnntz[] = {P(19), 0, 0xca, 0x9a, 0x3b, 0, 0, 0, 0}; /* 1e9 ns */
    HAND(tsnntz, "\"1970-01-01T00:00:01.000000000\"");
    const unsigned char tm[] = {P(17), 0x01, 0, 0, 0, 0, 0, 0, 0};
    HAND(tm, "\"00:00:00.000001\"");
    const unsigned char bin[] = {P(15), 2, 0, 0, 0, 0x00, 0xff};
    HAND(bin, "\"AP8=\"");
    const unsigned char str[] = {P(16), 3, 0, 0, 0, 'a', '"', 'b'};
    HAND(str, "\"a\\\"b\"");
    const unsigned char uuid[] = {P(20), 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                  0x88,  0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    HAND(uuid, "\"00112233-4455-6677-8899-aabbccddeeff\"");
    const unsigned char t[] = {P(1)}, f[] = {P(2)}, n[] = {P(0)};
    HAND(t, "true");
    HAND(f, "false");
    HAND(n, "null");
    /* short string (basic type 1, length in the header): escapes, and a byte that is not
     * UTF-8 becomes U+FFFD */
    const unsigned char ss[] = {(unsigned char)(6 << 2 | 1), '\\', '\n', 0x01, 0xff, 0xc3, 0xa9};
    HAND(ss, "\"\\\\\\n\\u0001\xef\xbf\xbd\xc3\xa9\"");
}

static void containers(void)
{
    /* object {"a": 1, "bb": "x"}: 1-byte ids and offsets, fields in key order */
    const unsigned char obj[] = {0x02, 2, 0, 1, 0, 2, 4, P(3), 1, (1 << 2) | 1, 'x'};
    HANDK(obj, "{\"a\":1,\"bb\":\"x\"}");
    /* the same keys with 2-byte ids and 2-byte offsets and a 4-byte count (is_large):
     * header bits offset size - 1 = 1, id size - 1 = 1 (<< 2), is_large (<< 4) */
    const unsigned char big2[] = {(unsigned char)(((1 | 1 << 2 | 1 << 4) << 2) | 2),
                                  2,
                                  0,
                                  0,
                                  0,
                                  0,
                                  0,
                                  1,
                                  0,
                                  0,
                                  0,
                                  1,
                                  0,
                                  3,
                                  0,
                                  P(2),
                                  (1 << 2) | 1,
                                  'y'};
    HANDK(big2, "{\"a\":false,\"bb\":\"y\"}");
    /* array [[], [null, 7]] with an empty array and a nested one; is_large count */
    const unsigned char arr[] = {(unsigned char)((1 << 2) << 2 | 3),
                                 2,
                                 0,
                                 0,
                                 0,
                                 0,
                                 3,
                                 11,
                                 0x03,
                                 0,
                                 0, /* [] */
                                 0x03,
                                 2,
                                 0,
                                 1,
                                 3,
                                 P(0),
                                 P(3),
                                 7}; /* [null, 7] */
    HAND(arr, "[[],[null,7]]");
}

static void broken(void)
{
    const unsigned char cut[] = {P(6), 1, 2, 3};
    REFUSED(cut, "cut short");
    const unsigned char prim[] = {P(21)};
    REFUSED(prim, "unknown primitive type");
    const unsigned char slen[] = {P(16), 9, 0, 0, 0, 'a'};
    REFUSED(slen, "runs past the value");
    const unsigned char sshort[] = {(unsigned char)(5 << 2 | 1), 'a'};
    REFUSED(sshort, "short string runs past");
    /* object naming key 0 with no keys in the metadata */
    const unsigned char noid[] = {0x02, 1, 0, 0, 1, P(0)};
    REFUSED(noid, "field id past the metadata dictionary");
    /* element offset 5 past the 1 byte of elements */
    const unsigned char off[] = {0x03, 1, 5, 1, P(0)};
    REFUSED(off, "offset past the elements");
    /* the last offset claims more elements than the value holds */
    const unsigned char tot[] = {0x03, 1, 0, 9, P(0)};
    REFUSED(tot, "elements run past the value");
    const unsigned char empty[] = {P(0)};
    const unsigned char badver[] = {0x02, 0x00, 0x00};
    refused(badver, sizeof badver, empty, sizeof empty, "version 2", __LINE__);
    const unsigned char badkeys[] = {0x01, 0x05, 0x00};
    refused(badkeys, sizeof badkeys, empty, sizeof empty, "5 keys", __LINE__);
    /* key bytes past the metadata's end */
    const unsigned char keyrun[] = {0x01, 0x01, 0x00, 0x09, 'a'};
    const unsigned char obj[] = {0x02, 1, 0, 0, 1, P(0)};
    refused(keyrun, sizeof keyrun, obj, sizeof obj, "key 0 runs past", __LINE__);
    char *j = NULL;
    CHECK_EQ_I64(pqt_variant_to_json(NOKEYS, sizeof NOKEYS, empty, 1, NULL, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_variant_to_json(NOKEYS, sizeof NOKEYS, NULL, 1, &j, NULL), PQT_MISUSE);

    /* 200 nested one-element arrays (2-byte offsets): deeper than 128 */
    static unsigned char deep[200 * 6 + 1];
    size_t n = 0;
    for (int i = 0; i < 200; i++) {
        size_t rest = 6 * (size_t)(199 - i) + 1; /* bytes of the element */
        deep[n++] = (1 << 2) | 3;
        deep[n++] = 1;
        deep[n++] = 0, deep[n++] = 0;
        deep[n++] = (unsigned char)(rest & 255), deep[n++] = (unsigned char)(rest >> 8);
    }
    deep[n++] = P(0);
    refused(NOKEYS, sizeof NOKEYS, deep, n, "deeper than 128", __LINE__);

    /* a bomb: three levels of 255-element arrays whose every offset is 0, so each element is
     * the same inner array: 255^3 nulls (80 MB of text) from 1543 bytes */
    static unsigned char bomb[3 * 514 + 1];
    n = 0;
    for (int lvl = 0; lvl < 3; lvl++) {
        size_t rest = (size_t)(2 - lvl) * 514 + 1;
        bomb[n++] = (1 << 2) | 3;
        bomb[n++] = 255;
        for (int i = 0; i < 255; i++)
            bomb[n++] = 0, bomb[n++] = 0;
        bomb[n++] = (unsigned char)(rest & 255), bomb[n++] = (unsigned char)(rest >> 8);
    }
    bomb[n++] = P(0);
    refused(NOKEYS, sizeof NOKEYS, bomb, n, "grows past", __LINE__);
}

int main(void)
{
    corpus("primitive_null", "null");
    corpus("primitive_boolean_true", "true");
    corpus("primitive_boolean_false", "false");
    corpus("primitive_int8", "42");
    corpus("primitive_int16", "1234");
    corpus("primitive_int32", "123456");
    corpus("primitive_int64", "1234567890123456789");
    corpus("primitive_double", "1234567890.1234");
    corpus("primitive_float", "1234568000.0");
    corpus("primitive_decimal4", "12.34");
    corpus("primitive_decimal8", "12345678.90");
    corpus("primitive_decimal16", "12345678912345678.90");
    corpus("primitive_date", "\"2025-04-16\"");
    corpus("primitive_time", "\"12:33:54.123456\"");
    corpus("primitive_timestamp", "\"2025-04-16T16:34:56.780000Z\"");
    corpus("primitive_timestampntz", "\"2025-04-16T12:34:56.780000\"");
    corpus("primitive_timestamp_nanos", "\"2024-11-07T12:33:54.123456789Z\"");
    corpus("primitive_timestampntz_nanos", "\"2024-11-07T12:33:54.123456789\"");
    corpus("primitive_binary", "\"AxM33q2+78r+\"");
    corpus("primitive_uuid", "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\"");
    corpus("short_string", "\"Less than 64 bytes (\xe2\x9d\xa4\xef\xb8\x8f with utf8)\"");
    corpus("primitive_string",
           "\"This string is longer than 64 bytes and therefore does not fit in a short_string "
           "and it also includes several non ascii characters such as \xf0\x9f\x90\xa2, "
           "\xf0\x9f\x92\x96, \xe2\x99\xa5\xef\xb8\x8f, \xf0\x9f\x8e\xa3 and \xf0\x9f\xa4\xa6!!\"");
    corpus("object_empty", "{}");
    corpus("array_empty", "[]");
    corpus("array_primitive", "[2,1,5,9]");
    corpus("object_primitive",
           "{\"boolean_false_field\":false,\"boolean_true_field\":true,\"double_field\":"
           "1.23456789,\"int_field\":1,\"null_field\":null,\"string_field\":\"Apache Parquet\","
           "\"timestamp_field\":\"2025-04-16T12:34:56.78\"}");
    corpus("object_nested",
           "{\"id\":1,\"observation\":{\"location\":\"In the Volcano\",\"time\":\"12:34:56\","
           "\"value\":{\"humidity\":456,\"temperature\":123}},\"species\":{\"name\":\"lava "
           "monster\",\"population\":6789}}");
    corpus("array_nested",
           "[{\"id\":1,\"thing\":{\"names\":[\"Contrarian\",\"Spider\"]}},null,{\"id\":2,"
           "\"names\":[\"Apple\",\"Ray\",null],\"type\":\"if\"}]");
    primitives();
    containers();
    broken();
    return pqt_test_done("test_variant");
}
