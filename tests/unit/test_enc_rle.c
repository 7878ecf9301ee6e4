/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_enc_rle.c - the RLE/bit-packed hybrid encoder (write/enc_rle.c).
 *
 * Truth: hand-computed bytes from Encodings.md's rules (its own 0..7 at 3 bits example, an
 * RLE run, padding, a literal completed from a repeat's head), and the reader's decoder
 * (encoding/rle_bp.c) on random inputs: lengths 0, 1, 7, 8, 9, 15, 16, 17, 1000 and 5000,
 * every width 0..32, noise, runs, mixes, constants; levels as uint16 likewise. The output
 * never exceeds pqt_enc_rle_max_nbytes, and appends after what the buffer held.
 */
#include <stdlib.h>
#include <string.h>

#include "encoding/encoding.h"
#include "format/meta.h"
#include "testutil.h"
#include "write/enc.h"

static int bytes_eq(const pqt_buf *b, size_t from, const uint8_t *want, size_t n)
{
    if (b->len - from == n && memcmp(b->data + from, want, n) == 0) return 1;
    fprintf(stderr, "  got:");
    for (size_t i = from; i < b->len; i++)
        fprintf(stderr, " %02x", b->data[i]);
    fprintf(stderr, "\n  want:");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %02x", want[i]);
    fprintf(stderr, "\n");
    return 0;
}

static void check_bytes(const uint32_t *v, size_t n, int w, const uint8_t *want, size_t nwant)
{
    pqt_buf b = {0};
    CHECK_OK(pqt_enc_rle_hybrid(&b, v, n, w));
    CHECK(bytes_eq(&b, 0, want, nwant));
    pqt_buf_free(&b);
}

static void test_hand_bytes(void)
{
    CHECK_EQ_I64(pqt_enc_bit_width(0), 0);
    CHECK_EQ_I64(pqt_enc_bit_width(1), 1);
    CHECK_EQ_I64(pqt_enc_bit_width(2), 2);
    CHECK_EQ_I64(pqt_enc_bit_width(3), 2);
    CHECK_EQ_I64(pqt_enc_bit_width(4), 3);
    CHECK_EQ_I64(pqt_enc_bit_width(255), 8);
    CHECK_EQ_I64(pqt_enc_bit_width(256), 9);
    CHECK_EQ_I64(pqt_enc_bit_width(UINT32_MAX), 32);
    CHECK_EQ_I64(pqt_enc_bit_width(UINT64_MAX), 64);

    static const uint32_t seq[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    static const uint8_t seq_b[] = {0x03, 0x88, 0xc6, 0xfa}; /* Encodings.md's example */
    check_bytes(seq, 8, 3, seq_b, sizeof seq_b);

    uint32_t ten5[10];
    for (int i = 0; i < 10; i++)
        ten5[i] = 5;
    static const uint8_t ten5_b[] = {0x14, 0x05};
    check_bytes(ten5, 10, 3, ten5_b, sizeof ten5_b);
    static const uint8_t ten5_w9[] = {0x14, 0x05, 0x00}; /* a 9-bit value takes 2 bytes */
    check_bytes(ten5, 10, 9, ten5_w9, sizeof ten5_w9);
    static const uint8_t ten5_w0[] = {0x14}; /* width 0: a run with no value bytes */
    static const uint32_t zeros[10] = {0};
    check_bytes(zeros, 10, 0, ten5_w0, sizeof ten5_w0);

    static const uint32_t three[3] = {1, 2, 3};
    static const uint8_t three_b[] = {0x03, 0x39, 0x00}; /* one padded group of 2-bit values */
    check_bytes(three, 3, 2, three_b, sizeof three_b);

    /* 1 2 3 then thirteen 4s: the group is completed with five 4s, then an RLE run of 8 */
    uint32_t mix[16] = {1, 2, 3};
    for (int i = 3; i < 16; i++)
        mix[i] = 4;
    static const uint8_t mix_b[] = {0x03, 0xd1, 0x48, 0x92, 0x10, 0x04};
    check_bytes(mix, 16, 3, mix_b, sizeof mix_b);
    /* ... but with only twelve 4s the run left would be 7: all literal, two groups */
    static const uint8_t mix15_b[] = {0x05, 0xd1, 0x48, 0x92, 0x24, 0x49, 0x12};
    check_bytes(mix, 15, 3, mix15_b, sizeof mix15_b);

    /* twelve 4s then 1 2: an RLE run first, then one padded group */
    uint32_t rl[14];
    for (int i = 0; i < 12; i++)
        rl[i] = 4;
    rl[12] = 1;
    rl[13] = 2;
    static const uint8_t rl_b[] = {0x18, 0x04, 0x03, 0x11, 0x00, 0x00};
    check_bytes(rl, 14, 3, rl_b, sizeof rl_b);

    /* 32-bit values, a repeat of exactly 8 */
    uint32_t big[8];
    for (int i = 0; i < 8; i++)
        big[i] = 0xdeadbeefu;
    static const uint8_t big_b[] = {0x10, 0xef, 0xbe, 0xad, 0xde};
    check_bytes(big, 8, 32, big_b, sizeof big_b);

    /* nothing for no values; widths outside 0..32 refused with the buffer unchanged */
    pqt_buf b = {0};
    CHECK_OK(pqt_enc_rle_hybrid(&b, NULL, 0, 5));
    CHECK(b.len == 0);
    CHECK(pqt_enc_rle_hybrid(&b, seq, 8, 33) == PQT_MISUSE);
    CHECK(pqt_enc_levels_u16(&b, NULL, 0, 17) == PQT_MISUSE);
    CHECK(b.len == 0);
    pqt_buf_free(&b);
}

enum { PAT_NOISE, PAT_RUNS, PAT_MIX, PAT_CONST, PAT_ALT, PAT_MAX, NPAT };

static void fill(uint32_t *v, size_t n, int w, int pat, uint64_t *rng)
{
    const uint64_t range = w == 0 ? 1 : (uint64_t)1 << w;
    const uint32_t maxv = (uint32_t)(range - 1);
    size_t i = 0;
    while (i < n) {
        uint64_t r = pqt_test_rand(rng);
        uint32_t x = (uint32_t)(r % range);
        size_t len = 1;
        switch (pat) {
        case PAT_RUNS:
            len = 1 + (r >> 40) % 30;
            break;
        case PAT_MIX:
            len = (r >> 40) % 3 == 0 ? 1 + (r >> 44) % 20 : 1;
            break;
        case PAT_CONST:
            x = maxv;
            len = n;
            break;
        case PAT_ALT:
            x = i % 2 ? maxv : 0;
            break;
        case PAT_MAX:
            x = (r >> 50) % 2 ? maxv : x;
            len = 1 + (r >> 52) % 10;
            break;
        default:
            break;
        }
        for (size_t k = 0; k < len && i < n; k++)
            v[i++] = x;
    }
}

static void roundtrip(const uint32_t *v, size_t n, int w, bool as_levels)
{
    pqt_buf b = {0};
    CHECK_OK(pqt_buf_append(&b, "hdr", 3));
    if (as_levels) {
        uint16_t *l = malloc((n ? n : 1) * sizeof *l);
        for (size_t i = 0; i < n; i++)
            l[i] = (uint16_t)v[i];
        CHECK_OK(pqt_enc_levels_u16(&b, l, n, w));
        free(l);
    } else {
        CHECK_OK(pqt_enc_rle_hybrid(&b, v, n, w));
    }
    CHECK(memcmp(b.data, "hdr", 3) == 0);
    CHECK(b.len - 3 <= pqt_enc_rle_max_nbytes(n, w));
    uint32_t *got = malloc((n ? n : 1) * sizeof *got);
    pqt_rle_dec d;
    CHECK_OK(pqt_rle_init(&d, w, b.data + 3, b.len - 3));
    CHECK_OK(pqt_rle_get_u32(&d, (int64_t)n, got));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (got[i] != v[i]) bad = i;
    if (bad != n)
        fprintf(stderr, "  n %zu width %d levels %d: value %zu is %u, want %u\n", n, w,
                (int)as_levels, bad, got[bad], v[bad]);
    CHECK(bad == n);
    /* only padding may follow the values (a bit-packed run's last group) */
    CHECK(d.rle_left == 0 && d.lit_left < 8 && d.p == b.data + b.len);
    free(got);
    pqt_buf_free(&b);
}

static void test_random(void)
{
    static const size_t lens[] = {0, 1, 7, 8, 9, 15, 16, 17, 1000, 5000};
    uint64_t rng = 42;
    uint32_t *v = malloc(5000 * sizeof *v);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (int w = 0; w <= 32; w++)
            for (int pat = 0; pat < NPAT; pat++) {
                fill(v, lens[li], w, pat, &rng);
                roundtrip(v, lens[li], w, false);
                if (w <= 16) roundtrip(v, lens[li], w, true);
            }
    free(v);
}

/* A long input of mostly one value codes to a few bytes; noise costs w bits per value. */
static void test_sizes(void)
{
    enum { N = 100000 };
    uint32_t *v = malloc(N * sizeof *v);
    pqt_buf b = {0};
    for (int i = 0; i < N; i++)
        v[i] = 1;
    v[N / 2] = 0;
    CHECK_OK(pqt_enc_rle_hybrid(&b, v, N, 1));
    CHECK(b.len < 16);
    uint64_t rng = 7;
    for (int i = 0; i < N; i++)
        v[i] = (uint32_t)(pqt_test_rand(&rng) & 0xfff);
    b.len = 0;
    CHECK_OK(pqt_enc_rle_hybrid(&b, v, N, 12));
    CHECK(b.len >= N * 12 / 8 && b.len <= N * 12 / 8 + 64);
    free(v);
    pqt_buf_free(&b);
}

/* Length-prefixed forms: v1 levels (the prefix counts the runs' bytes) and RLE booleans,
 * read back through pqt_vdec's RLE BOOLEAN decoder. */
static void test_prefixed(void)
{
    pqt_buf b = {0};
    static const uint16_t lv[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK_OK(pqt_buf_append(&b, "z", 1));
    CHECK_OK(pqt_enc_levels_v1(&b, lv, 10, 1));
    static const uint8_t lv_b[] = {'z', 2, 0, 0, 0, 0x14, 0x01};
    CHECK(bytes_eq(&b, 0, lv_b, sizeof lv_b));
    CHECK(pqt_enc_levels_v1(&b, lv, 10, 17) == PQT_MISUSE);
    CHECK(b.len == sizeof lv_b);

    uint64_t rng = 77;
    static const size_t lens[] = {0, 1, 9, 100, 3000};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li];
        uint8_t *v = malloc(n + 1), *got = malloc(n + 1);
        for (size_t i = 0; i < n;) {
            uint64_t r = pqt_test_rand(&rng);
            size_t run = r % 3 ? 1 : 1 + (r >> 8) % 40;
            for (size_t k = 0; k < run && i < n; k++, i++)
                v[i] = (uint8_t)((r >> 20) % 2 ? 0 : 1 + (r >> 30) % 5); /* any non-zero is true */
        }
        b.len = 0;
        CHECK_OK(pqt_enc_bool_rle(&b, v, n));
        uint32_t len = (uint32_t)b.data[0] | (uint32_t)b.data[1] << 8 | (uint32_t)b.data[2] << 16 |
                       (uint32_t)b.data[3] << 24;
        CHECK(len == b.len - 4);
        pqt_vdec *d = NULL;
        REQUIRE_OK(pqt_vdec_new(&d));
        CHECK_OK(pqt_vdec_init(d, PQT_ENC_RLE, PQT_PT_BOOLEAN, 0, b.data, b.len, (int64_t)n, NULL));
        CHECK_OK(pqt_vdec_decode(d, (int64_t)n, got));
        size_t bad = n;
        for (size_t i = 0; i < n && bad == n; i++)
            if (got[i] != (v[i] != 0)) bad = i;
        CHECK(bad == n);
        pqt_vdec_free(d);
        free(v);
        free(got);
    }
    pqt_buf_free(&b);
}

int main(void)
{
    test_prefixed();
    test_hand_bytes();
    test_random();
    test_sizes();
    return pqt_test_done("test_enc_rle");
}
