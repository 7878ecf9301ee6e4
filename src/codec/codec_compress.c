/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_compress.c - page compression for the writer (layer: codec).
 *
 * The compressing half of codec.c, per parquet-format Compression.md: SNAPPY (raw snappy),
 * GZIP (one gzip member: deflate with the gzip wrapper), BROTLI, ZSTD (one frame, content
 * size recorded), LZ4_RAW (a bare LZ4 block). The framed LZ4 codec is deprecated and LZO is
 * not written. ZSTD's CCtx and zlib's deflate stream are expensive to set up (zlib allocates
 * ~256 KiB), so a ctx keeps them across pages; snappy, LZ4 and brotli's one-shot calls need
 * no state.
 */
#include <brotli/encode.h>
#include <limits.h>
#include <lz4.h>
#include <lz4hc.h>
#include <snappy-c.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"
#include "util/mem.h"

enum { GZIP_DEFAULT = 6, BROTLI_DEFAULT = 8, BROTLI_WINDOW = 22 };

static voidpf zalloc_cb(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return pqt_malloc_array(items, size);
}

static void zfree_cb(voidpf opaque, voidpf p)
{
    (void)opaque;
    pqt_mem_free(p);
}

static void deflate_free(z_stream *zs)
{
    if (!zs) return;
    deflateEnd(zs);
    pqt_mem_free(zs);
}

void pqt_codec_compress_free(pqt_codec_ctx *ctx)
{
    ZSTD_freeCCtx(ctx->zstd_c);
    ctx->zstd_c = NULL;
    deflate_free(ctx->gzip_c);
    ctx->gzip_c = NULL;
}

size_t pqt_codec_compress_bound(int codec, size_t n)
{
    switch (codec) {
    case PQT_CODEC_UNCOMPRESSED:
        return n;
    case PQT_CODEC_SNAPPY:
        return n > UINT32_MAX ? 0 : snappy_max_compressed_length(n);
    case PQT_CODEC_GZIP:
        /* zlib's bound, and the gzip header and trailer's 12 bytes over zlib's */
        return n > UINT_MAX - 1024 ? 0 : (size_t)compressBound((uLong)n) + 32;
    case PQT_CODEC_BROTLI:
        return BrotliEncoderMaxCompressedSize(n);
    case PQT_CODEC_ZSTD: {
        size_t b = ZSTD_compressBound(n);
        return ZSTD_isError(b) ? 0 : b;
    }
    case PQT_CODEC_LZ4_RAW:
        return n > LZ4_MAX_INPUT_SIZE ? 0 : (size_t)LZ4_compressBound((int)n);
    default:
        return 0;
    }
}

static pqt_status too_small(int codec, size_t n, size_t cap)
{
    return pqt_err(PQT_LIMIT, "%s output of %zu bytes does not fit %zu bytes",
                   pqt_codec_name(codec), n, cap);
}

static pqt_status bad_level(int codec, int level)
{
    return pqt_err(PQT_MISUSE, "%s compression level %d is out of range", pqt_codec_name(codec),
                   level);
}

static pqt_status zstd_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t n,
                                uint8_t *dst, size_t cap, size_t *out_n)
{
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())
        return bad_level(PQT_CODEC_ZSTD, level);
    ZSTD_CCtx *cc = ctx ? ctx->zstd_c : NULL;
    if (!cc) {
        cc = ZSTD_createCCtx();
        if (!cc) return pqt_err(PQT_NOMEM, "out of memory creating a ZSTD compressor");
        if (ctx) ctx->zstd_c = cc;
    }
    /* level 0 is zstd's own default (3) */
    size_t r = ZSTD_compressCCtx(cc, dst, cap, src, n, level);
    if (!ctx) ZSTD_freeCCtx(cc);
    if (ZSTD_isError(r)) {
        if (ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall)
            return too_small(PQT_CODEC_ZSTD, n, cap);
        return pqt_err(PQT_NOMEM, "ZSTD compression of %zu bytes failed: %s", n,
                       ZSTD_getErrorName(r));
    }
    *out_n = r;
    return PQT_OK;
}

static pqt_status gzip_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t n,
                                uint8_t *dst, size_t cap, size_t *out_n)
{
    if (level == 0) level = GZIP_DEFAULT;
    if (level < 1 || level > 9) return bad_level(PQT_CODEC_GZIP, level);
    if (n > UINT_MAX || cap > UINT_MAX)
        return pqt_err(PQT_LIMIT, "GZIP input of %zu bytes is more than zlib takes at once", n);
    z_stream *zs = ctx ? ctx->gzip_c : NULL;
    if (zs && ctx->gzip_c_level != level) {
        deflate_free(zs);
        ctx->gzip_c = zs = NULL;
    }
    if (!zs) {
        zs = pqt_calloc(1, sizeof *zs);
        if (!zs) return pqt_err(PQT_NOMEM, "out of memory creating a GZIP compressor");
        zs->zalloc = zalloc_cb;
        zs->zfree = zfree_cb;
        /* windowBits 15 + 16: a gzip header and trailer rather than zlib's */
        if (deflateInit2(zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            pqt_mem_free(zs);
            return pqt_err(PQT_NOMEM, "out of memory creating a GZIP compressor");
        }
        if (ctx) {
            ctx->gzip_c = zs;
            ctx->gzip_c_level = level;
        }
    } else {
        deflateReset(zs);
    }
    zs->next_in = (Bytef *)(uintptr_t)src;
    zs->avail_in = (uInt)n;
    zs->next_out = dst;
    zs->avail_out = (uInt)cap;
    int r = deflate(zs, Z_FINISH);
    size_t written = cap - zs->avail_out;
    if (!ctx) deflate_free(zs);
    if (r != Z_STREAM_END) {
        if (r == Z_OK || r == Z_BUF_ERROR) return too_small(PQT_CODEC_GZIP, n, cap);
        return pqt_err(PQT_NOMEM, "GZIP compression of %zu bytes failed (zlib error %d)", n, r);
    }
    *out_n = written;
    return PQT_OK;
}

static pqt_status lz4_compress(int level, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                               size_t *out_n)
{
    if (level < 0 || level > LZ4HC_CLEVEL_MAX) return bad_level(PQT_CODEC_LZ4_RAW, level);
    if (n > LZ4_MAX_INPUT_SIZE)
        return pqt_err(PQT_LIMIT, "LZ4_RAW input of %zu bytes is more than LZ4 takes", n);
    int icap = cap > INT_MAX ? INT_MAX : (int)cap;
    int r = level < LZ4HC_CLEVEL_MIN
                ? LZ4_compress_default((const char *)src, (char *)dst, (int)n, icap)
                : LZ4_compress_HC((const char *)src, (char *)dst, (int)n, icap, level);
    /* 0 means the output did not fit; an empty input still makes a 1-byte block */
    if (r <= 0) return too_small(PQT_CODEC_LZ4_RAW, n, cap);
    *out_n = (size_t)r;
    return PQT_OK;
}

pqt_status pqt_codec_compress(pqt_codec_ctx *ctx, int codec, int level, const uint8_t *src,
                              size_t n, uint8_t *dst, size_t cap, size_t *out_n)
{
    *out_n = 0;
    switch (codec) {
    case PQT_CODEC_UNCOMPRESSED:
        if (cap < n) return too_small(codec, n, cap);
        if (n) memcpy(dst, src, n);
        *out_n = n;
        return PQT_OK;
    case PQT_CODEC_SNAPPY: {
        if (level != 0) return bad_level(codec, level);
        size_t len = cap;
        if (n > UINT32_MAX)
            return pqt_err(PQT_LIMIT, "SNAPPY input of %zu bytes is more than snappy takes", n);
        /* snappy writes up to its bound whatever the input: a smaller cap is refused */
        if (cap < snappy_max_compressed_length(n)) return too_small(codec, n, cap);
        if (snappy_compress((const char *)src, n, (char *)dst, &len) != SNAPPY_OK)
            return too_small(codec, n, cap);
        *out_n = len;
        return PQT_OK;
    }
    case PQT_CODEC_GZIP:
        return gzip_compress(ctx, level, src, n, dst, cap, out_n);
    case PQT_CODEC_BROTLI: {
        if (level == 0) level = BROTLI_DEFAULT;
        if (level < 1 || level > BROTLI_MAX_QUALITY) return bad_level(codec, level);
        size_t len = cap;
        if (!BrotliEncoderCompress(level, BROTLI_WINDOW, BROTLI_MODE_GENERIC, n, src, &len, dst))
            return too_small(codec, n, cap);
        *out_n = len;
        return PQT_OK;
    }
    case PQT_CODEC_ZSTD:
        return zstd_compress(ctx, level, src, n, dst, cap, out_n);
    case PQT_CODEC_LZ4_RAW:
        return lz4_compress(level, src, n, dst, cap, out_n);
    case PQT_CODEC_LZ4:
        return pqt_err(PQT_UNSUPPORTED_CODEC,
                       "codec LZ4 (Hadoop-framed, deprecated) is not written; use LZ4_RAW");
    case PQT_CODEC_LZO:
        return pqt_err(PQT_UNSUPPORTED_CODEC, "codec LZO is not written");
    default:
        return pqt_err(PQT_UNSUPPORTED_CODEC, "codec %d is not written", codec);
    }
}
