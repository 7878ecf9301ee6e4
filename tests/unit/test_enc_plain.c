/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_enc_plain.c - the PLAIN encoder (write/enc_plain.c).
 *
 * Truth: hand-computed bytes (booleans LSB first, length-prefixed strings), and the reader's
 * PLAIN decoder through pqt_vdec (encoding/plain.c) for every physical type on random
 * values of lengths 0, 1, 7, 8, 9 and 1000 (NaN payloads, -0.0, empty and long strings,
 * offsets not starting at 0). Encoders append; bad lengths change nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "encoding/encoding.h"
#include "format/meta.h"
#include "testutil.h"
#include "write/enc.h"

static const size_t lens[] = {0, 1, 7, 8, 9, 1000};
enum { NLENS = sizeof lens / sizeof lens[0] };

static void test_hand_bytes(void)
{
    pqt_buf b = {0};
    static const uint8_t bools[9] = {1, 0, 1, 1, 0, 0, 0, 0, 7};
    CHECK_OK(pqt_enc_plain_bool(&b, bools, 9));
    CHECK(b.len == 2 && b.data[0] == 0x0d && b.data[1] == 0x01);
    b.len = 0;
    CHECK_OK(pqt_enc_plain_bool(&b, bools, 0));
    CHECK(b.len == 0);

    static const int64_t off[4] = {3, 5, 5, 6};
    static const uint8_t data[] = "xyzabq";
    CHECK_OK(pqt_enc_plain_bytes(&b, off, data, 3));
    static const uint8_t want[] = {2, 0, 0, 0, 'a', 'b', 0, 0, 0, 0, 1, 0, 0, 0, 'q'};
    CHECK(b.len == sizeof want && memcmp(b.data, want, sizeof want) == 0);

    const int32_t i32[2] = {1, -2};
    b.len = 0;
    CHECK_OK(pqt_enc_plain_fixed(&b, i32, 2, 4));
    static const uint8_t want32[] = {1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff};
    CHECK(b.len == 8 && memcmp(b.data, want32, 8) == 0);

    /* decreasing offsets: refused, buffer unchanged */
    static const int64_t bad[3] = {0, 4, 2};
    CHECK(pqt_enc_plain_bytes(&b, bad, data, 2) == PQT_MISUSE);
    CHECK(b.len == 8);
    pqt_buf_free(&b);
}

static void decode_fixed(int ptype, int type_len, const pqt_buf *b, size_t from, size_t n,
                         void *dst)
{
    pqt_vdec *d = NULL;
    REQUIRE_OK(pqt_vdec_new(&d));
    const uint8_t *p = b->data ? b->data + from : (const uint8_t *)"";
    CHECK_OK(pqt_vdec_init(d, PQT_ENC_PLAIN, ptype, type_len, p, b->len - from, (int64_t)n, NULL));
    CHECK_OK(pqt_vdec_decode(d, (int64_t)n, dst));
    pqt_vdec_free(d);
}

static void test_fixed_roundtrip(void)
{
    static const struct {
        int ptype, type_len;
        size_t width;
    } types[] = {{PQT_PT_INT32, 0, 4},
                 {PQT_PT_INT64, 0, 8},
                 {PQT_PT_FLOAT, 0, 4},
                 {PQT_PT_DOUBLE, 0, 8},
                 {PQT_PT_INT96, 0, 12},
                 {PQT_PT_FIXED_LEN_BYTE_ARRAY, 3, 3},
                 {PQT_PT_FIXED_LEN_BYTE_ARRAY, 16, 16}};
    uint64_t rng = 1;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int li = 0; li < NLENS; li++) {
            size_t n = lens[li], w = types[t].width;
            uint8_t *v = malloc(n * w + 1), *got = malloc(n * w + 1);
            for (size_t i = 0; i < n * w; i++)
                v[i] = (uint8_t)pqt_test_rand(&rng);
            if (types[t].ptype == PQT_PT_DOUBLE && n >= 2) {
                const double specials[2] = {-0.0, NAN};
                memcpy(v, specials, sizeof specials);
            }
            pqt_buf b = {0};
            CHECK_OK(pqt_buf_append(&b, "ab", 2));
            CHECK_OK(pqt_enc_plain_fixed(&b, v, n, w));
            CHECK(b.len == 2 + n * w);
            decode_fixed(types[t].ptype, types[t].type_len, &b, 2, n, got);
            CHECK(memcmp(got, v, n * w) == 0);
            pqt_buf_free(&b);
            free(v);
            free(got);
        }
}

static void test_bool_roundtrip(void)
{
    uint64_t rng = 2;
    for (int li = 0; li < NLENS; li++) {
        size_t n = lens[li];
        uint8_t *v = malloc(n + 1), *got = malloc(n + 1);
        for (size_t i = 0; i < n; i++)
            v[i] = pqt_test_rand(&rng) % 3 == 0;
        pqt_buf b = {0};
        CHECK_OK(pqt_enc_plain_bool(&b, v, n));
        CHECK(b.len == (n + 7) / 8);
        decode_fixed(PQT_PT_BOOLEAN, 0, &b, 0, n, got);
        CHECK(memcmp(got, v, n) == 0);
        pqt_buf_free(&b);
        free(v);
        free(got);
    }
}

static void test_bytes_roundtrip(void)
{
    uint64_t rng = 3;
    for (int li = 0; li < NLENS; li++) {
        size_t n = lens[li];
        int64_t *off = malloc((n + 1) * sizeof *off);
        uint8_t *data = malloc(n * 300 + 10);
        off[0] = 10; /* values need not start at data[0] */
        for (size_t i = 0; i < n; i++) {
            uint64_t r = pqt_test_rand(&rng);
            size_t len = r % 7 == 0 ? 0 : r % 11 == 0 ? 250 + r % 40 : r % 12;
            for (size_t k = 0; k < len; k++)
                data[off[i] + k] = (uint8_t)pqt_test_rand(&rng);
            off[i + 1] = off[i] + (int64_t)len;
        }
        pqt_buf b = {0};
        CHECK_OK(pqt_enc_plain_bytes(&b, off, data, n));
        CHECK(b.len == 4 * n + (size_t)(off[n] - off[0]));
        pqt_vdec *d = NULL;
        REQUIRE_OK(pqt_vdec_new(&d));
        CHECK_OK(pqt_vdec_init(d, PQT_ENC_PLAIN, PQT_PT_BYTE_ARRAY, 0,
                               b.data ? b.data : (const uint8_t *)"", b.len, (int64_t)n, NULL));
        pqt_buf bytes = {0};
        int64_t *ends = malloc((n + 1) * sizeof *ends);
        pqt_ba_out o = {&bytes, ends};
        CHECK_OK(pqt_vdec_decode_ba(d, (int64_t)n, &o));
        int64_t prev = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t len = off[i + 1] - off[i];
            CHECK(ends[i] - prev == len);
            CHECK(len == 0 || memcmp(bytes.data + prev, data + off[i], (size_t)len) == 0);
            prev = ends[i];
        }
        pqt_vdec_free(d);
        pqt_buf_free(&bytes);
        pqt_buf_free(&b);
        free(ends);
        free(off);
        free(data);
    }
}

int main(void)
{
    test_hand_bytes();
    test_fixed_roundtrip();
    test_bool_roundtrip();
    test_bytes_roundtrip();
    return pqt_test_done("test_enc_plain");
}
