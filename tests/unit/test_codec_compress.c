/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_codec_compress.c - page compression (codec/codec_compress.c).
 *
 * Truth: the reader's decompression (pqt_codec_decompress, each library's own decoder)
 * gives back the input for every codec the writer offers, on empty, 1-byte, random and
 * repetitive inputs, with and without a reused ctx and at several levels; each output stays
 * within pqt_codec_compress_bound and starts with its format's magic (gzip 1f 8b, zstd
 * 28 b5 2f fd, snappy's length varint). Repetitive data shrinks. Errors: a small
 * destination, levels out of range and the codecs not written.
 */
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "format/meta.h"
#include "testutil.h"

static const int codecs[] = {PQT_CODEC_UNCOMPRESSED, PQT_CODEC_SNAPPY, PQT_CODEC_GZIP,
                             PQT_CODEC_BROTLI,       PQT_CODEC_ZSTD,   PQT_CODEC_LZ4_RAW};
enum { NCODECS = sizeof codecs / sizeof codecs[0] };

/* Levels worth trying per codec (0 = default first). */
static int levels_of(int codec, int *lv)
{
    switch (codec) {
    case PQT_CODEC_GZIP:
        lv[0] = 0, lv[1] = 1, lv[2] = 9;
        return 3;
    case PQT_CODEC_BROTLI:
        lv[0] = 0, lv[1] = 1, lv[2] = 5;
        return 3;
    case PQT_CODEC_ZSTD:
        lv[0] = 0, lv[1] = -3, lv[2] = 19;
        return 3;
    case PQT_CODEC_LZ4_RAW:
        lv[0] = 0, lv[1] = 2, lv[2] = 9;
        return 3;
    default:
        lv[0] = 0;
        return 1;
    }
}

static void roundtrip(pqt_codec_ctx *ctx, int codec, int level, const uint8_t *src, size_t n,
                      size_t *out_n_ret)
{
    size_t bound = pqt_codec_compress_bound(codec, n);
    CHECK(bound >= (codec == PQT_CODEC_UNCOMPRESSED ? n : 1));
    uint8_t *dst = malloc(bound + 1), *back = malloc(n + 1);
    size_t out_n = 0;
    CHECK_OK(pqt_codec_compress(ctx, codec, level, src, n, dst, bound, &out_n));
    CHECK(out_n <= bound);
    if (codec == PQT_CODEC_UNCOMPRESSED) CHECK(out_n == n && memcmp(dst, src, n) == 0);
    if (codec == PQT_CODEC_GZIP) CHECK(out_n >= 18 && dst[0] == 0x1f && dst[1] == 0x8b);
    if (codec == PQT_CODEC_ZSTD)
        CHECK(out_n >= 4 && dst[0] == 0x28 && dst[1] == 0xb5 && dst[2] == 0x2f && dst[3] == 0xfd);
    if (codec == PQT_CODEC_SNAPPY && n < 128) CHECK(out_n >= 1 && dst[0] == n);
    int st = pqt_codec_decompress(ctx, codec, dst, out_n, back, n);
    if (st != PQT_OK)
        fprintf(stderr, "  %s level %d, %zu bytes -> %zu: %s\n", pqt_codec_name(codec), level, n,
                out_n, pqt_errmsg());
    CHECK(st == PQT_OK);
    CHECK(n == 0 || memcmp(back, src, n) == 0);
    if (out_n_ret) *out_n_ret = out_n;
    free(dst);
    free(back);
}

static void test_roundtrips(void)
{
    enum { NRAND = 100000, NREP = 1 << 20 };
    uint8_t *rnd = malloc(NRAND), *rep = malloc(NREP);
    uint64_t rng = 11;
    for (size_t i = 0; i < NRAND; i++)
        rnd[i] = (uint8_t)pqt_test_rand(&rng);
    static const char text[] = "ra=123.456 dec=-45.678 mag=17.25 class=GALAXY\n";
    for (size_t i = 0; i < NREP; i++)
        rep[i] = (uint8_t)text[i % (sizeof text - 1)];
    const uint8_t one = 0x5a;

    pqt_codec_ctx *ctx = NULL;
    REQUIRE_OK(pqt_codec_ctx_new(&ctx));
    for (int c = 0; c < NCODECS; c++) {
        int lv[3], nlv = levels_of(codecs[c], lv);
        for (int l = 0; l < nlv; l++)
            for (int use_ctx = 0; use_ctx < 2; use_ctx++) {
                pqt_codec_ctx *x = use_ctx ? ctx : NULL;
                size_t out_n = 0;
                roundtrip(x, codecs[c], lv[l], (const uint8_t *)"", 0, NULL);
                roundtrip(x, codecs[c], lv[l], &one, 1, NULL);
                roundtrip(x, codecs[c], lv[l], rnd, NRAND, NULL);
                roundtrip(x, codecs[c], lv[l], rep, NREP, &out_n);
                if (codecs[c] != PQT_CODEC_UNCOMPRESSED) CHECK(out_n < NREP / 10);
            }
    }
    pqt_codec_ctx_free(ctx);
    free(rnd);
    free(rep);
}

static void test_errors(void)
{
    uint8_t src[4096], dst[64];
    size_t out_n = 99;
    uint64_t rng = 5;
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)pqt_test_rand(&rng);
    for (int c = 0; c < NCODECS; c++) {
        /* random input into 64 bytes cannot fit */
        CHECK(pqt_codec_compress(NULL, codecs[c], 0, src, sizeof src, dst, sizeof dst, &out_n) ==
              PQT_LIMIT);
        CHECK(out_n == 0);
    }
    CHECK(pqt_codec_compress(NULL, PQT_CODEC_LZ4, 0, src, 10, dst, sizeof dst, &out_n) ==
          PQT_UNSUPPORTED_CODEC);
    CHECK(pqt_codec_compress(NULL, PQT_CODEC_LZO, 0, src, 10, dst, sizeof dst, &out_n) ==
          PQT_UNSUPPORTED_CODEC);
    CHECK(pqt_codec_compress(NULL, 42, 0, src, 10, dst, sizeof dst, &out_n) ==
          PQT_UNSUPPORTED_CODEC);
    CHECK(pqt_codec_compress_bound(PQT_CODEC_LZO, 10) == 0);
    CHECK(pqt_codec_compress(NULL, PQT_CODEC_GZIP, 10, src, 10, dst, sizeof dst, &out_n) ==
          PQT_MISUSE);
    CHECK(pqt_codec_compress(NULL, PQT_CODEC_BROTLI, 12, src, 10, dst, sizeof dst, &out_n) ==
          PQT_MISUSE);
    CHECK(pqt_codec_compress(NULL, PQT_CODEC_ZSTD, 1000, src, 10, dst, sizeof dst, &out_n) ==
          PQT_MISUSE);
    CHECK(pqt_codec_compress(NULL, PQT_CODEC_LZ4_RAW, 13, src, 10, dst, sizeof dst, &out_n) ==
          PQT_MISUSE);
    CHECK(pqt_codec_compress(NULL, PQT_CODEC_SNAPPY, 1, src, 10, dst, sizeof dst, &out_n) ==
          PQT_MISUSE);
    /* a ctx survives a failure and a level change */
    pqt_codec_ctx *ctx = NULL;
    REQUIRE_OK(pqt_codec_ctx_new(&ctx));
    CHECK(pqt_codec_compress(ctx, PQT_CODEC_GZIP, 0, src, sizeof src, dst, sizeof dst, &out_n) ==
          PQT_LIMIT);
    roundtrip(ctx, PQT_CODEC_GZIP, 3, src, 100, NULL);
    CHECK(pqt_codec_compress(ctx, PQT_CODEC_ZSTD, 0, src, sizeof src, dst, sizeof dst, &out_n) ==
          PQT_LIMIT);
    roundtrip(ctx, PQT_CODEC_ZSTD, 0, src, 100, NULL);
    pqt_codec_ctx_free(ctx);
}

int main(void)
{
    test_roundtrips();
    test_errors();
    return pqt_test_done("test_codec_compress");
}
