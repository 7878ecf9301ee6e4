/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_rle.c - the RLE / bit-packed hybrid decoder (src/encoding/rle_bp.c).
 *
 * Property test: random value sequences (bit widths 0..32, long repeats and noise mixed)
 * are encoded by the reference encoder of tests/ref/ref_rle.c into a random mix of RLE and
 * bit-packed runs, then read back with random alternations of get_u32, get_u8, skip and
 * count_eq; every result must equal the model array. The reference decoder is checked too.
 * Hostile input: every truncated prefix and random garbage must give the same verdict as
 * the reference decoder (PQT_CORRUPT, never a crash); buffers are exact-size heap copies so
 * AddressSanitizer sees any over-read.
 */
#include <stdlib.h>
#include <string.h>

#include "../ref/ref_rle.c"
#include "encoding/encoding.h"
#include "testutil.h"

static uint64_t seed = 42;
static uint64_t rnd(void) { return pqt_test_rand(&seed); }

static uint32_t *gen_values(int bw, size_t n)
{
    uint32_t *v = malloc((n ? n : 1) * sizeof *v);
    const uint32_t mask = bw == 32 ? 0xffffffffu : (1u << bw) - 1;
    size_t i = 0;
    while (i < n) {
        size_t len = 1 + rnd() % (rnd() % 3 ? 8 : 300);
        int repeat = rnd() % 2;
        uint32_t x = (uint32_t)rnd() & mask;
        for (size_t k = 0; k < len && i < n; k++, i++) v[i] = repeat ? x : (uint32_t)rnd() & mask;
    }
    return v;
}

/* Copy into an exact-size heap block so over-reads are caught. */
static uint8_t *exact_copy(const uint8_t *p, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    if (n) memcpy(c, p, n);
    return c;
}

static void check_roundtrip(int bw, size_t n)
{
    uint32_t *vals = gen_values(bw, n);
    ref_out o = {0};
    ref_rle_encode(&o, bw, vals, n, rnd);
    uint8_t *data = exact_copy(o.data, o.len);
    uint32_t *got = malloc((n + 1) * sizeof *got);
    uint8_t *got8 = malloc(n + 1);

    CHECK_EQ_I64(ref_rle_decode(data, o.len, bw, (int64_t)n, got), 0);
    CHECK(memcmp(got, vals, n * sizeof *got) == 0);

    pqt_rle_dec d;
    CHECK_OK(pqt_rle_init(&d, bw, data, o.len));
    memset(got, 0, n * sizeof *got);
    CHECK_OK(pqt_rle_get_u32(&d, (int64_t)n, got));
    CHECK(memcmp(got, vals, n * sizeof *got) == 0);

    /* random split points */
    for (int rep = 0; rep < 4; rep++) {
        CHECK_OK(pqt_rle_init(&d, bw, data, o.len));
        size_t pos = 0;
        while (pos < n) {
            size_t k = 1 + rnd() % (rnd() % 4 ? 40 : 400);
            if (k > n - pos) k = n - pos;
            int op = (int)(rnd() % 4);
            if (op == 0) {
                CHECK_OK(pqt_rle_get_u32(&d, (int64_t)k, got));
                if (memcmp(got, vals + pos, k * sizeof *got) != 0) {
                    fprintf(stderr, "bw %d n %zu: get_u32 mismatch at %zu+%zu\n", bw, n, pos, k);
                    pqt_test_failures++;
                }
            } else if (op == 1 && bw <= 8) {
                CHECK_OK(pqt_rle_get_u8(&d, (int64_t)k, got8));
                for (size_t i = 0; i < k; i++)
                    if (got8[i] != vals[pos + i]) {
                        fprintf(stderr, "bw %d: get_u8 mismatch at %zu\n", bw, pos + i);
                        pqt_test_failures++;
                        break;
                    }
            } else if (op == 2) {
                CHECK_OK(pqt_rle_skip(&d, (int64_t)k));
            } else {
                uint32_t probe = vals[pos + rnd() % k];
                int64_t cnt = -1, want = 0;
                for (size_t i = 0; i < k; i++) want += vals[pos + i] == probe;
                CHECK_OK(pqt_rle_count_eq(&d, (int64_t)k, probe, &cnt));
                CHECK_EQ_I64(cnt, want);
            }
            pos += k;
        }
    }

    /* Asking for more than the runs hold is corrupt unless padding covers it. */
    CHECK_OK(pqt_rle_init(&d, bw, data, o.len));
    CHECK_OK(pqt_rle_skip(&d, (int64_t)n));

    /* every prefix: same verdict as the reference, and identical values when ok */
    size_t step = o.len > 600 ? o.len / 300 : 1;
    for (size_t cut = 0; cut < o.len; cut += step) {
        uint8_t *pre = exact_copy(o.data, cut);
        int ref = ref_rle_decode(pre, cut, bw, (int64_t)n, got);
        uint32_t *mine = malloc((n + 1) * sizeof *mine);
        CHECK_OK(pqt_rle_init(&d, bw, pre, cut));
        pqt_status st = pqt_rle_get_u32(&d, (int64_t)n, mine);
        CHECK_EQ_I64(st, ref == 0 ? PQT_OK : PQT_CORRUPT);
        if (st == PQT_OK) CHECK(memcmp(mine, vals, n * sizeof *mine) == 0);
        if (st == PQT_CORRUPT) CHECK(strstr(pqt_errmsg(), "RLE/bit-packed data") != NULL);
        CHECK_OK(pqt_rle_init(&d, bw, pre, cut));
        st = pqt_rle_skip(&d, (int64_t)n);
        CHECK_EQ_I64(st, ref == 0 ? PQT_OK : PQT_CORRUPT);
        int64_t cnt;
        CHECK_OK(pqt_rle_init(&d, bw, pre, cut));
        st = pqt_rle_count_eq(&d, (int64_t)n, 0, &cnt);
        CHECK_EQ_I64(st, ref == 0 ? PQT_OK : PQT_CORRUPT);
        free(mine);
        free(pre);
    }
    free(o.data);
    free(data);
    free(got);
    free(got8);
    free(vals);
}

static void check_garbage(void)
{
    for (int rep = 0; rep < 3000; rep++) {
        size_t len = rnd() % 64;
        uint8_t *p = malloc(len ? len : 1);
        for (size_t i = 0; i < len; i++) p[i] = (uint8_t)rnd();
        int bw = (int)(rnd() % 33);
        int64_t n = (int64_t)(rnd() % 300);
        uint32_t *a = malloc((size_t)(n + 1) * sizeof *a), *b = malloc((size_t)(n + 1) * sizeof *b);
        int ref = ref_rle_decode(p, len, bw, n, a);
        pqt_rle_dec d;
        CHECK_OK(pqt_rle_init(&d, bw, p, len));
        pqt_status st = pqt_rle_get_u32(&d, n, b);
        CHECK_EQ_I64(st, ref == 0 ? PQT_OK : PQT_CORRUPT);
        if (st == PQT_OK && ref == 0) CHECK(memcmp(a, b, (size_t)n * sizeof *a) == 0);
        CHECK_OK(pqt_rle_init(&d, bw, p, len));
        CHECK_EQ_I64(pqt_rle_skip(&d, n), ref == 0 ? PQT_OK : PQT_CORRUPT);
        free(a);
        free(b);
        free(p);
    }
}

static void check_errors(void)
{
    pqt_rle_dec d;
    uint32_t out[16];
    static const uint8_t ok[] = {0x10, 0x01};
    CHECK_EQ_I64(pqt_rle_init(&d, 33, ok, 2), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "RLE/bit-packed data") != NULL);
    CHECK_EQ_I64(pqt_rle_init(&d, -1, ok, 2), PQT_CORRUPT);
    /* 6-byte varint header */
    static const uint8_t longv[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x01};
    CHECK_OK(pqt_rle_init(&d, 1, longv, sizeof longv));
    CHECK_EQ_I64(pqt_rle_get_u32(&d, 1, out), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "varint") != NULL);
    /* header varint cut off */
    static const uint8_t cutv[] = {0x80};
    CHECK_OK(pqt_rle_init(&d, 1, cutv, sizeof cutv));
    CHECK_EQ_I64(pqt_rle_get_u32(&d, 1, out), PQT_CORRUPT);
    /* RLE value 5 in bit width 2 */
    static const uint8_t big[] = {0x10, 0x05};
    CHECK_OK(pqt_rle_init(&d, 2, big, sizeof big));
    CHECK_EQ_I64(pqt_rle_get_u32(&d, 1, out), PQT_CORRUPT);
    /* RLE value bytes missing (width 9 needs 2) */
    static const uint8_t shortv[] = {0x10, 0x05};
    CHECK_OK(pqt_rle_init(&d, 9, shortv, sizeof shortv));
    CHECK_EQ_I64(pqt_rle_get_u32(&d, 1, out), PQT_CORRUPT);
    /* empty data */
    CHECK_OK(pqt_rle_init(&d, 3, ok, 0));
    CHECK_EQ_I64(pqt_rle_get_u32(&d, 1, out), PQT_CORRUPT);
    CHECK_OK(pqt_rle_get_u32(&d, 0, out));
    /* bit width 0: every value is 0, RLE run of 8 with no value bytes */
    static const uint8_t zero[] = {0x10};
    CHECK_OK(pqt_rle_init(&d, 0, zero, sizeof zero));
    memset(out, 0xff, sizeof out);
    CHECK_OK(pqt_rle_get_u32(&d, 8, out));
    for (int i = 0; i < 8; i++) CHECK_EQ_I64(out[i], 0);
    /* u8 output for a width over 8 is a misuse */
    CHECK_OK(pqt_rle_init(&d, 9, ok, 2));
    CHECK_EQ_I64(pqt_rle_get_u8(&d, 1, (uint8_t *)out), PQT_MISUSE);
    /* the spec example: 0..7 in width 3 */
    static const uint8_t ex[] = {0x03, 0x88, 0xc6, 0xfa};
    CHECK_OK(pqt_rle_init(&d, 3, ex, sizeof ex));
    CHECK_OK(pqt_rle_get_u32(&d, 8, out));
    for (int i = 0; i < 8; i++) CHECK_EQ_I64(out[i], i);
    /* a huge bit-packed header with little data: only the values present are readable */
    static const uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 0x07, 0xff};
    CHECK_OK(pqt_rle_init(&d, 1, huge, sizeof huge));
    CHECK_OK(pqt_rle_skip(&d, 8));
    CHECK_EQ_I64(pqt_rle_skip(&d, 1), PQT_CORRUPT);
}

int main(void)
{
    for (int bw = 0; bw <= 32; bw++) {
        check_roundtrip(bw, 0);
        check_roundtrip(bw, 1 + rnd() % 20);
        check_roundtrip(bw, 100 + rnd() % 1000);
        check_roundtrip(bw, 3000 + rnd() % 3000);
    }
    check_garbage();
    check_errors();
    return pqt_test_done("test_rle");
}
