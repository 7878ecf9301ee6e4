/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_codec.c - every codec adapter round-trips data compressed by the codec's own
 * library (random and compressible inputs, several sizes), with and without a reusable
 * ctx; the special forms (two concatenated gzip members, a zlib stream under GZIP, two
 * zstd frames, Hadoop-framed LZ4 with 2 frames and raw LZ4 under the LZ4 codec) decode;
 * truncated or garbled input and a wrong expected size give PQT_CORRUPT; LZO and unknown
 * codecs give PQT_UNSUPPORTED_CODEC. Outputs live in exact-size heap blocks for ASan.
 */
#include <stdlib.h>
#include <string.h>

#include <brotli/encode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "codec/codec.h"
#include "format/meta.h"
#include "testutil.h"

static uint64_t rng = 99;

typedef struct blob {
    uint8_t *p;
    size_t n;
} blob;

static void append(blob *b, const void *src, size_t n)
{
    b->p = realloc(b->p, b->n + n + 1);
    if (n) memcpy(b->p + b->n, src, n);
    b->n += n;
}

/* ---------------- compressors (the libraries' own) ---------------- */

static blob c_snappy(const uint8_t *in, size_t n)
{
    size_t cap = snappy_max_compressed_length(n);
    blob b = {malloc(cap + 1), cap};
    CHECK(snappy_compress((const char *)in, n, (char *)b.p, &b.n) == SNAPPY_OK);
    return b;
}

/* windowBits 15 + 16: gzip member; 15: zlib stream */
static void deflate_into(blob *b, const uint8_t *in, size_t n, int window_bits)
{
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    CHECK(deflateInit2(&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    size_t cap = deflateBound(&zs, (uLong)n) + 32;
    uint8_t *tmp = malloc(cap);
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)n;
    zs.next_out = tmp;
    zs.avail_out = (uInt)cap;
    CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    append(b, tmp, cap - zs.avail_out);
    deflateEnd(&zs);
    free(tmp);
}

static blob c_gzip(const uint8_t *in, size_t n)
{
    blob b = {0};
    deflate_into(&b, in, n, 15 + 16);
    return b;
}

static blob c_gzip2(const uint8_t *in, size_t n) /* two members */
{
    blob b = {0};
    deflate_into(&b, in, n / 3, 15 + 16);
    deflate_into(&b, in + n / 3, n - n / 3, 15 + 16);
    return b;
}

static blob c_zlib(const uint8_t *in, size_t n)
{
    blob b = {0};
    deflate_into(&b, in, n, 15);
    return b;
}

static blob c_zstd(const uint8_t *in, size_t n)
{
    size_t cap = ZSTD_compressBound(n);
    blob b = {malloc(cap + 1), 0};
    b.n = ZSTD_compress(b.p, cap, in, n, 3);
    CHECK(!ZSTD_isError(b.n));
    return b;
}

static blob c_zstd2(const uint8_t *in, size_t n) /* two frames */
{
    blob a = c_zstd(in, n / 2), c = c_zstd(in + n / 2, n - n / 2);
    append(&a, c.p, c.n);
    free(c.p);
    return a;
}

static blob c_lz4raw(const uint8_t *in, size_t n)
{
    int cap = LZ4_compressBound((int)n);
    blob b = {malloc((size_t)cap + 1), 0};
    int r = LZ4_compress_default((const char *)in, (char *)b.p, (int)n, cap);
    CHECK(r > 0);
    b.n = (size_t)r;
    return b;
}

static void put_be32(blob *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    append(b, x, 4);
}

/* Hadoop framing by hand: [BE usize][BE csize][block], here 2 frames */
static blob c_lz4hadoop(const uint8_t *in, size_t n)
{
    blob b = {0};
    size_t half = n / 2;
    const size_t part[2][2] = {{0, half}, {half, n - half}};
    for (int f = 0; f < 2; f++) {
        blob blk = c_lz4raw(in + part[f][0], part[f][1]);
        put_be32(&b, (uint32_t)part[f][1]);
        put_be32(&b, (uint32_t)blk.n);
        append(&b, blk.p, blk.n);
        free(blk.p);
    }
    return b;
}

static blob c_brotli(const uint8_t *in, size_t n)
{
    size_t cap = BrotliEncoderMaxCompressedSize(n) + 16;
    blob b = {malloc(cap), cap};
    CHECK(BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, n, in, &b.n, b.p));
    return b;
}

typedef struct codec_case {
    const char *name;
    int codec;
    blob (*compress)(const uint8_t *, size_t);
} codec_case;

static const codec_case CASES[] = {
    {"snappy", PQT_CODEC_SNAPPY, c_snappy},
    {"gzip", PQT_CODEC_GZIP, c_gzip},
    {"gzip 2 members", PQT_CODEC_GZIP, c_gzip2},
    {"zlib under GZIP", PQT_CODEC_GZIP, c_zlib},
    {"zstd", PQT_CODEC_ZSTD, c_zstd},
    {"zstd 2 frames", PQT_CODEC_ZSTD, c_zstd2},
    {"lz4 raw", PQT_CODEC_LZ4_RAW, c_lz4raw},
    {"lz4 hadoop 2 frames", PQT_CODEC_LZ4, c_lz4hadoop},
    {"raw lz4 block under LZ4", PQT_CODEC_LZ4, c_lz4raw},
    {"brotli", PQT_CODEC_BROTLI, c_brotli},
};
#define NCASES (sizeof(CASES) / sizeof(CASES[0]))

static uint8_t *gen(size_t n, bool compressible)
{
    uint8_t *p = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        p[i] = compressible ? (uint8_t)("parquet columns "[(i / 7) % 16] + (i % 97 == 0))
                            : (uint8_t)pqt_test_rand(&rng);
    return p;
}

/* Decompress into an exact-size heap block and compare. */
static pqt_status decomp(pqt_codec_ctx *ctx, int codec, const blob *c, size_t want,
                         const uint8_t *expect)
{
    uint8_t *src = malloc(c->n ? c->n : 1); /* exact size: overreads are ASan errors */
    if (c->n) memcpy(src, c->p, c->n);
    uint8_t *out = malloc(want ? want : 1);
    pqt_status st = pqt_codec_decompress(ctx, codec, src, c->n, out, want);
    if (st == PQT_OK && expect && want && memcmp(out, expect, want) != 0) st = PQT_MISUSE;
    free(out);
    free(src);
    return st;
}

static void test_roundtrips(pqt_codec_ctx *ctx)
{
    static const size_t sizes[] = {1, 100, 4096, 100003};
    for (size_t c = 0; c < NCASES; c++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (int comp = 0; comp < 2; comp++) {
                size_t n = sizes[s];
                uint8_t *in = gen(n, comp);
                blob b = CASES[c].compress(in, n);
                pqt_status st = decomp(ctx, CASES[c].codec, &b, n, in);
                if (st != PQT_OK)
                    fprintf(stderr, "%s n=%zu compressible=%d: %d %s\n", CASES[c].name, n, comp, st,
                            pqt_errmsg());
                CHECK_OK(st);
                /* the wrong expected size, either way, is corrupt */
                CHECK_EQ_I64(decomp(ctx, CASES[c].codec, &b, n + 1, NULL), PQT_CORRUPT);
                CHECK_EQ_I64(decomp(ctx, CASES[c].codec, &b, n - 1, NULL), PQT_CORRUPT);
                /* every codec notices truncation (a few cut points) */
                for (int k = 0; k < 6; k++) {
                    blob t = b;
                    t.n = k < 3 ? (size_t)k : b.n - 1 - pqt_test_rand(&rng) % (b.n < 8 ? 1 : 8);
                    if (t.n >= b.n) continue;
                    pqt_status ts = decomp(ctx, CASES[c].codec, &t, n, NULL);
                    if (ts != PQT_CORRUPT)
                        fprintf(stderr, "%s n=%zu cut at %zu of %zu: %d\n", CASES[c].name, n, t.n,
                                b.n, ts);
                    CHECK_EQ_I64(ts, PQT_CORRUPT);
                }
                /* flipped bytes: a status, or (a flipped literal) other bytes; never a crash */
                for (int k = 0; k < 20; k++) {
                    blob f = {malloc(b.n + 1), b.n};
                    memcpy(f.p, b.p, b.n);
                    f.p[pqt_test_rand(&rng) % b.n] ^= (uint8_t)(1 + pqt_test_rand(&rng) % 255);
                    pqt_status fs = decomp(ctx, CASES[c].codec, &f, n, NULL);
                    CHECK(fs == PQT_OK || fs == PQT_CORRUPT);
                    free(f.p);
                }
                free(b.p);
                free(in);
            }
}

static void test_empty_and_garbage(pqt_codec_ctx *ctx)
{
    /* zero-byte pages compressed by each library */
    for (size_t c = 0; c < NCASES; c++) {
        uint8_t dummy = 0;
        blob b = CASES[c].compress(&dummy, 0);
        pqt_status st = decomp(ctx, CASES[c].codec, &b, 0, NULL);
        if (st != PQT_OK) fprintf(stderr, "%s empty: %s\n", CASES[c].name, pqt_errmsg());
        CHECK_OK(st);
        free(b.p);
    }
    /* random garbage is corrupt for every codec */
    static const int codecs[] = {PQT_CODEC_SNAPPY, PQT_CODEC_GZIP,    PQT_CODEC_ZSTD,
                                 PQT_CODEC_LZ4,    PQT_CODEC_LZ4_RAW, PQT_CODEC_BROTLI};
    for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++)
        for (int t = 0; t < 50; t++) {
            blob g = {gen(1 + pqt_test_rand(&rng) % 200, false), 0};
            g.n = 1 + pqt_test_rand(&rng) % 200;
            g.p = realloc(g.p, g.n);
            for (size_t i = 0; i < g.n; i++)
                g.p[i] = (uint8_t)pqt_test_rand(&rng);
            CHECK_EQ_I64(decomp(ctx, codecs[c], &g, 1000, NULL), PQT_CORRUPT);
            free(g.p);
        }
    /* Hadoop framing that claims more than the input holds falls back and then fails */
    {
        blob h = {0};
        put_be32(&h, 10);
        put_be32(&h, 1000);
        append(&h, "abcdefgh", 8);
        CHECK_EQ_I64(decomp(ctx, PQT_CODEC_LZ4, &h, 10, NULL), PQT_CORRUPT);
        free(h.p);
    }
}

static void test_uncompressed_and_unsupported(void)
{
    uint8_t src[16] = "0123456789abcdef", dst[16];
    CHECK_OK(pqt_codec_decompress(NULL, PQT_CODEC_UNCOMPRESSED, src, 16, dst, 16));
    CHECK(memcmp(src, dst, 16) == 0);
    CHECK_EQ_I64(pqt_codec_decompress(NULL, PQT_CODEC_UNCOMPRESSED, src, 16, dst, 15), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_codec_decompress(NULL, PQT_CODEC_LZO, src, 16, dst, 16),
                 PQT_UNSUPPORTED_CODEC);
    CHECK(strstr(pqt_errmsg(), "codec LZO not supported") != NULL);
    CHECK_EQ_I64(pqt_codec_decompress(NULL, 17, src, 16, dst, 16), PQT_UNSUPPORTED_CODEC);
    CHECK(strstr(pqt_errmsg(), "codec 17 not supported") != NULL);
    CHECK(!pqt_codec_supported(PQT_CODEC_LZO) && !pqt_codec_supported(17) &&
          !pqt_codec_supported(-1));
    for (int c = 0; c <= 7; c++)
        CHECK(pqt_codec_supported(c) == (c != PQT_CODEC_LZO));
    CHECK(strcmp(pqt_codec_name(PQT_CODEC_LZ4_RAW), "LZ4_RAW") == 0);
    CHECK(strcmp(pqt_codec_name(99), "UNKNOWN") == 0);

    /* the size message names the codec and both sizes */
    uint8_t in[300];
    memset(in, 'x', sizeof(in));
    blob b = c_snappy(in, sizeof(in));
    uint8_t out[400];
    CHECK_EQ_I64(pqt_codec_decompress(NULL, PQT_CODEC_SNAPPY, b.p, b.n, out, 400), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "SNAPPY data decompresses to 300 bytes, page header says 400"));
    free(b.p);
}

int main(void)
{
    pqt_codec_ctx *ctx = NULL;
    CHECK_OK(pqt_codec_ctx_new(&ctx));
    test_roundtrips(ctx);  /* one ctx reused across every page: the column reader's pattern */
    test_roundtrips(NULL); /* and the per-call state path */
    test_empty_and_garbage(ctx);
    test_uncompressed_and_unsupported();
    pqt_codec_ctx_free(ctx);
    pqt_codec_ctx_free(NULL);
    return pqt_test_done("test_codec");
}
