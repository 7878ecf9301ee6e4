/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_zstd.c - ZSTD adapter over libzstd (layer: codec).
 *
 * Implements Compression.md "ZSTD" (RFC 8878 frames; several frames back to back are
 * decoded as one stream by ZSTD_decompressDCtx). One ZSTD_DCtx lives in the ctx and is
 * reused for every page: creating it costs more than decompressing a small page. When
 * the page holds a single frame that records its content size, a disagreement with the
 * page header is reported before decoding.
 */
#include <zstd.h>
#include <zstd_errors.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"

void pqt_codec_zstd_free(pqt_codec_ctx *ctx)
{
    ZSTD_freeDCtx(ctx->zstd);
    ctx->zstd = NULL;
}

static pqt_status run(ZSTD_DCtx *dctx, const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                      size_t dst_nbytes)
{
    unsigned long long fcs = ZSTD_getFrameContentSize(src, src_nbytes);
    if (PQT_UNLIKELY(fcs == ZSTD_CONTENTSIZE_ERROR))
        return pqt_err(PQT_CORRUPT, "ZSTD data (%zu bytes) does not start with a zstd frame",
                       src_nbytes);
    if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != dst_nbytes &&
        ZSTD_findFrameCompressedSize(src, src_nbytes) == src_nbytes)
        return pqt_codec_size_mismatch(PQT_CODEC_ZSTD, (size_t)fcs, dst_nbytes);
    size_t r = ZSTD_decompressDCtx(dctx, dst, dst_nbytes, src, src_nbytes);
    if (PQT_UNLIKELY(ZSTD_isError(r))) {
        if (ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall)
            return pqt_err(PQT_CORRUPT,
                           "ZSTD data decompresses to more than %zu bytes, page header says %zu",
                           dst_nbytes, dst_nbytes);
        return pqt_err(PQT_CORRUPT, "ZSTD data (%zu bytes) is corrupt: %s", src_nbytes,
                       ZSTD_getErrorName(r));
    }
    if (PQT_UNLIKELY(r != dst_nbytes))
        return pqt_codec_size_mismatch(PQT_CODEC_ZSTD, r, dst_nbytes);
    return PQT_OK;
}

pqt_status pqt_codec_zstd_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_nbytes,
                                     uint8_t *dst, size_t dst_nbytes)
{
    ZSTD_DCtx *dctx = ctx ? ctx->zstd : NULL;
    if (!dctx) {
        dctx = ZSTD_createDCtx();
        if (!dctx) return pqt_err(PQT_NOMEM, "out of memory creating a ZSTD decoder");
        if (ctx) ctx->zstd = dctx;
    }
    pqt_status st = run(dctx, src, src_nbytes, dst, dst_nbytes);
    if (!ctx) ZSTD_freeDCtx(dctx);
    return st;
}
