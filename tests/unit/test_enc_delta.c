/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_enc_delta.c - DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
 * BYTE_STREAM_SPLIT encoders (write/enc_delta.c, write/enc_bss.c).
 *
 * Truth: Encodings.md's own examples computed by hand for this writer's block layout (128
 * values, 4 miniblocks) and its BYTE_STREAM_SPLIT example; the reader's decoders through
 * pqt_vdec on random inputs: lengths around the block and miniblock edges (0, 1, 2, 32, 33,
 * 127..130, 1000, 5000), full-range values whose deltas wrap (INT32_MIN/INT32_MAX
 * alternating needs all 32 bits; INT64 extremes all 64), sorted, constant; strings with
 * shared prefixes, empty and long ones; every BYTE_STREAM_SPLIT width.
 */
#include <stdlib.h>
#include <string.h>

#include "encoding/encoding.h"
#include "format/meta.h"
#include "testutil.h"
#include "write/enc.h"

static int bytes_eq(const pqt_buf *b, const uint8_t *want, size_t n)
{
    if (b->len == n && memcmp(b->data, want, n) == 0) return 1;
    fprintf(stderr, "  got:");
    for (size_t i = 0; i < b->len; i++)
        fprintf(stderr, " %02x", b->data[i]);
    fprintf(stderr, "\n");
    return 0;
}

static void test_hand_bytes(void)
{
    pqt_buf b = {0};
    static const int32_t ex1[] = {1, 2, 3, 4, 5};
    CHECK_OK(pqt_enc_delta_bp_i32(&b, ex1, 5));
    static const uint8_t ex1_b[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0};
    CHECK(bytes_eq(&b, ex1_b, sizeof ex1_b));

    b.len = 0;
    static const int64_t ex2[] = {7, 5, 3, 1, 2, 3, 4, 5};
    CHECK_OK(pqt_enc_delta_bp_i64(&b, ex2, 8));
    static const uint8_t ex2_b[] = {0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0x00, 0x00,
                                    0x00, 0xc0, 0x3f, 0,    0,    0,    0,    0,    0};
    CHECK(bytes_eq(&b, ex2_b, sizeof ex2_b));

    b.len = 0; /* no values: the header alone */
    CHECK_OK(pqt_enc_delta_bp_i32(&b, NULL, 0));
    static const uint8_t none_b[] = {0x80, 0x01, 0x04, 0x00, 0x00};
    CHECK(bytes_eq(&b, none_b, sizeof none_b));

    b.len = 0;
    static const uint8_t f3[12] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11,
                                   0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
    CHECK_OK(pqt_enc_byte_stream_split(&b, f3, 3, 4));
    static const uint8_t f3_b[12] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4,
                                     0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
    CHECK(bytes_eq(&b, f3_b, sizeof f3_b));
    CHECK(pqt_enc_byte_stream_split(&b, f3, 3, 0) == PQT_MISUSE);
    CHECK(b.len == 12);

    /* DELTA_LENGTH_BYTE_ARRAY of "ab", "": lengths 2, 0 (delta -2), then "ab" */
    b.len = 0;
    static const int64_t off[3] = {0, 2, 2};
    CHECK_OK(pqt_enc_delta_length_bytes(&b, off, (const uint8_t *)"ab", 2));
    static const uint8_t dl_b[] = {0x80, 0x01, 0x04, 0x02, 0x04, 0x03, 0, 0, 0, 0, 'a', 'b'};
    CHECK(bytes_eq(&b, dl_b, sizeof dl_b));
    pqt_buf_free(&b);
}

/* ---- integers through the reader ---- */

static void check_ints(const void *v, size_t n, bool is32)
{
    pqt_buf b = {0};
    if (is32)
        CHECK_OK(pqt_enc_delta_bp_i32(&b, v, n));
    else
        CHECK_OK(pqt_enc_delta_bp_i64(&b, v, n));
    pqt_vdec *d = NULL;
    REQUIRE_OK(pqt_vdec_new(&d));
    const size_t w = is32 ? 4 : 8;
    uint8_t *got = malloc(n * w + 1);
    CHECK_OK(pqt_vdec_init(d, PQT_ENC_DELTA_BINARY_PACKED, is32 ? PQT_PT_INT32 : PQT_PT_INT64, 0,
                           b.data, b.len, (int64_t)n, NULL));
    CHECK_OK(pqt_vdec_decode(d, (int64_t)n, got));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (memcmp(got + i * w, (const uint8_t *)v + i * w, w) != 0) bad = i;
    if (bad != n) fprintf(stderr, "  %s n %zu: value %zu differs\n", is32 ? "i32" : "i64", n, bad);
    CHECK(bad == n);
    pqt_vdec_free(d);
    free(got);
    pqt_buf_free(&b);
}

enum { P_NOISE, P_SMALL, P_SORTED, P_CONST, P_EXTREME, NP };

static void test_ints(void)
{
    static const size_t lens[] = {0, 1, 2, 32, 33, 127, 128, 129, 130, 1000, 5000};
    uint64_t rng = 17;
    int32_t *a = malloc(5000 * sizeof *a);
    int64_t *c = malloc(5000 * sizeof *c);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (int p = 0; p < NP; p++) {
            size_t n = lens[li];
            int64_t acc = (int64_t)pqt_test_rand(&rng);
            for (size_t i = 0; i < n; i++) {
                uint64_t r = pqt_test_rand(&rng);
                switch (p) {
                case P_NOISE:
                    c[i] = (int64_t)r;
                    break;
                case P_SMALL:
                    c[i] = (int64_t)(r % 200) - 100;
                    break;
                case P_SORTED:
                    acc += (int64_t)(r % 1000);
                    c[i] = acc;
                    break;
                case P_CONST:
                    c[i] = -42;
                    break;
                default:
                    c[i] = i % 2 ? INT64_MAX : INT64_MIN;
                    break;
                }
                a[i] = p == P_EXTREME ? (i % 2 ? INT32_MAX : INT32_MIN) : (int32_t)c[i];
            }
            check_ints(a, n, true);
            check_ints(c, n, false);
        }
    free(a);
    free(c);
}

/* ---- strings ---- */

static void check_strings(const int64_t *off, const uint8_t *data, size_t n, int enc)
{
    pqt_buf b = {0};
    if (enc == PQT_ENC_DELTA_LENGTH_BYTE_ARRAY)
        CHECK_OK(pqt_enc_delta_length_bytes(&b, off, data, n));
    else
        CHECK_OK(pqt_enc_delta_bytes(&b, off, data, n));
    pqt_vdec *d = NULL;
    REQUIRE_OK(pqt_vdec_new(&d));
    CHECK_OK(pqt_vdec_init(d, enc, PQT_PT_BYTE_ARRAY, 0, b.data, b.len, (int64_t)n, NULL));
    pqt_buf bytes = {0};
    int64_t *ends = malloc((n + 1) * sizeof *ends);
    pqt_ba_out o = {&bytes, ends};
    CHECK_OK(pqt_vdec_decode_ba(d, (int64_t)n, &o));
    int64_t prev = 0;
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++) {
        int64_t len = off[i + 1] - off[i];
        if (ends[i] - prev != len ||
            (len && memcmp(bytes.data + prev, data + off[i], (size_t)len) != 0))
            bad = i;
        prev = ends[i];
    }
    if (bad != n) fprintf(stderr, "  encoding %d n %zu: value %zu differs\n", enc, n, bad);
    CHECK(bad == n);
    pqt_vdec_free(d);
    pqt_buf_free(&bytes);
    pqt_buf_free(&b);
    free(ends);
}

static void test_strings(void)
{
    static const size_t lens[] = {0, 1, 2, 33, 129, 1000, 5000};
    uint64_t rng = 23;
    int64_t *off = malloc(5001 * sizeof *off);
    uint8_t *data = malloc(5000 * 400);
    static const char *const stems[] = {"", "a", "apple", "apples", "applesauce", "banana"};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        off[0] = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = pqt_test_rand(&rng);
            const char *s = stems[r % 6];
            size_t sl = strlen(s), tail = r % 13 == 0 ? 300 : (r >> 8) % 5;
            memcpy(data + off[i], s, sl);
            for (size_t k = 0; k < tail; k++)
                data[off[i] + sl + k] = (uint8_t)('a' + (pqt_test_rand(&rng) % 3));
            off[i + 1] = off[i] + (int64_t)(sl + tail);
        }
        check_strings(off, data, n, PQT_ENC_DELTA_LENGTH_BYTE_ARRAY);
        check_strings(off, data, n, PQT_ENC_DELTA_BYTE_ARRAY);
    }
    free(off);
    free(data);
}

/* DELTA_BYTE_ARRAY of FIXED_LEN_BYTE_ARRAY(5) values read back as fixed-size values. */
static void test_delta_flba(void)
{
    enum { N = 300, W = 5 };
    uint8_t v[N * W];
    int64_t off[N + 1];
    uint64_t rng = 3;
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < W; k++)
            v[i * W + k] = (uint8_t)(k < 3 ? (uint64_t)(i / 50) : pqt_test_rand(&rng));
        off[i] = i * W;
    }
    off[N] = N * W;
    pqt_buf b = {0};
    CHECK_OK(pqt_enc_delta_bytes(&b, off, v, N));
    pqt_vdec *d = NULL;
    REQUIRE_OK(pqt_vdec_new(&d));
    CHECK_OK(pqt_vdec_init(d, PQT_ENC_DELTA_BYTE_ARRAY, PQT_PT_FIXED_LEN_BYTE_ARRAY, W, b.data,
                           b.len, N, NULL));
    uint8_t got[N * W];
    CHECK_OK(pqt_vdec_decode(d, N, got));
    CHECK(memcmp(got, v, sizeof v) == 0);
    pqt_vdec_free(d);
    pqt_buf_free(&b);
}

static void test_bss(void)
{
    static const struct {
        int ptype, type_len;
        size_t w;
    } t[] = {{PQT_PT_FLOAT, 0, 4},
             {PQT_PT_DOUBLE, 0, 8},
             {PQT_PT_INT32, 0, 4},
             {PQT_PT_INT64, 0, 8},
             {PQT_PT_FIXED_LEN_BYTE_ARRAY, 3, 3}};
    static const size_t lens[] = {0, 1, 7, 1000};
    uint64_t rng = 8;
    for (size_t ti = 0; ti < sizeof t / sizeof t[0]; ti++)
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            size_t n = lens[li], w = t[ti].w;
            uint8_t *v = malloc(n * w + 1), *got = malloc(n * w + 1);
            for (size_t i = 0; i < n * w; i++)
                v[i] = (uint8_t)pqt_test_rand(&rng);
            pqt_buf b = {0};
            CHECK_OK(pqt_enc_byte_stream_split(&b, v, n, w));
            CHECK(b.len == n * w);
            if (n) {
                pqt_vdec *d = NULL;
                REQUIRE_OK(pqt_vdec_new(&d));
                CHECK_OK(pqt_vdec_init(d, PQT_ENC_BYTE_STREAM_SPLIT, t[ti].ptype, t[ti].type_len,
                                       b.data, b.len, (int64_t)n, NULL));
                CHECK_OK(pqt_vdec_decode(d, (int64_t)n, got));
                CHECK(memcmp(got, v, n * w) == 0);
                pqt_vdec_free(d);
            }
            pqt_buf_free(&b);
            free(v);
            free(got);
        }
}

int main(void)
{
    test_hand_bytes();
    test_ints();
    test_strings();
    test_delta_flba();
    test_bss();
    return pqt_test_done("test_enc_delta");
}
