/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bss.c - BYTE_STREAM_SPLIT decoder: round trips for 4-, 8-, 2-, 16- and 1-byte values
 * (the specialized and the generic gather paths) under random decode/skip interleavings,
 * and the init size checks. Input lives in exact-size heap blocks so ASan sees overreads.
 */
#include <stdlib.h>
#include <string.h>

#include "encoding/encoding_int.h"
#include "testutil.h"

static uint64_t rng = 777;

/* Reference encoder, straight from Encodings.md: byte k of value i goes to stream k. */
static uint8_t *bss_encode(const uint8_t *vals, size_t n, size_t w)
{
    uint8_t *out = malloc(n * w + 1);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < w; k++)
            out[k * n + i] = vals[i * w + k];
    return out;
}

static void roundtrip(size_t w, size_t n)
{
    uint8_t *vals = malloc(n * w + 1);
    for (size_t i = 0; i < n * w; i++)
        vals[i] = (uint8_t)pqt_test_rand(&rng);
    uint8_t *enc = bss_encode(vals, n, w);
    uint8_t *out = malloc(n * w + 1);

    /* all at once */
    pqt_bss_dec d;
    CHECK_OK(pqt_bss_init(&d, w, enc, n * w, (int64_t)n));
    CHECK_OK(pqt_bss_decode(&d, (int64_t)n, out));
    CHECK(n == 0 || memcmp(out, vals, n * w) == 0);
    CHECK_EQ_I64(pqt_bss_decode(&d, 1, out), PQT_CORRUPT);

    /* interleaved decode(k)/skip(k) against the model */
    for (int round = 0; round < 4; round++) {
        CHECK_OK(pqt_bss_init(&d, w, enc, n * w, (int64_t)n));
        size_t pos = 0;
        while (pos < n) {
            size_t k = 1 + pqt_test_rand(&rng) % (pqt_test_rand(&rng) & 1 ? 5 : 70);
            if (k > n - pos) k = n - pos;
            if (pqt_test_rand(&rng) % 3 == 0) {
                CHECK_OK(pqt_bss_skip(&d, (int64_t)k));
            } else {
                CHECK_OK(pqt_bss_decode(&d, (int64_t)k, out));
                if (memcmp(out, vals + pos * w, k * w) != 0) {
                    fprintf(stderr, "BSS w=%zu n=%zu: values %zu..%zu differ\n", w, n, pos,
                            pos + k);
                    CHECK(0);
                }
            }
            pos += k;
        }
        CHECK_EQ_I64(pqt_bss_skip(&d, 1), PQT_CORRUPT);
    }
    free(vals);
    free(enc);
    free(out);
}

/* Floats and doubles as real typed values (the common case the 4/8 paths serve). */
static void typed(void)
{
    float f[100];
    double g[100];
    for (int i = 0; i < 100; i++) {
        f[i] = (float)i * 1.25f - 7.0f;
        g[i] = (double)i / 3.0 - 11.0;
    }
    uint8_t *ef = bss_encode((const uint8_t *)f, 100, 4);
    uint8_t *eg = bss_encode((const uint8_t *)g, 100, 8);
    float fo[100];
    double go[100];
    pqt_bss_dec d;
    CHECK_OK(pqt_bss_init(&d, 4, ef, 400, 100));
    CHECK_OK(pqt_bss_skip(&d, 10));
    CHECK_OK(pqt_bss_decode(&d, 90, (uint8_t *)fo));
    CHECK(fo[0] == f[10] && fo[89] == f[99]);
    CHECK_OK(pqt_bss_init(&d, 8, eg, 800, 100));
    CHECK_OK(pqt_bss_decode(&d, 100, (uint8_t *)go));
    CHECK(memcmp(go, g, sizeof(g)) == 0);
    free(ef);
    free(eg);
}

static void bad_sizes(void)
{
    uint8_t b[64] = {0};
    pqt_bss_dec d;
    CHECK_EQ_I64(pqt_bss_init(&d, 4, b, 63, 16), PQT_CORRUPT); /* not n * w */
    CHECK_EQ_I64(pqt_bss_init(&d, 4, b, 64, 15), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_bss_init(&d, 0, b, 0, 0), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_bss_init(&d, 8, b, 64, -8), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_bss_init(&d, 16, b, 0, INT64_MAX), PQT_CORRUPT); /* n * w overflows */
    CHECK_OK(pqt_bss_init(&d, 4, b, 0, 0));
    CHECK_OK(pqt_bss_decode(&d, 0, b));
    CHECK_EQ_I64(pqt_bss_decode(&d, -1, b), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_bss_skip(&d, 1), PQT_CORRUPT);
}

int main(void)
{
    static const size_t widths[] = {4, 8, 2, 16, 1, 3, 12};
    static const size_t counts[] = {0, 1, 7, 64, 1001};
    for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
        for (size_t j = 0; j < sizeof(counts) / sizeof(counts[0]); j++)
            roundtrip(widths[i], counts[j]);
    typed();
    bad_sizes();
    return pqt_test_done("test_bss");
}
