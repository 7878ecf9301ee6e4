/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zstd_prefix.c - a zstd page decompressed only as far as asked (layer: codec;
 * zstd_prefix.h).
 *
 * ZSTD_decompressStream with an output buffer that ends where the caller's need ends: each
 * call decodes the blocks that reach it and keeps the rest of the last one for the next
 * call. The decoder keeps its own window, so its memory is bounded here by the page: a
 * frame asking for a window past the page's size (legal, rare, and what a hostile page
 * would do to make it allocate) is left to the one-shot path.
 */
#include "codec/zstd_prefix.h"

#include <zstd.h>
#include <zstd_errors.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"

void pqt_zstd_prefix_free(pqt_codec_ctx *ctx)
{
    ZSTD_freeDCtx(ctx->zstd_prefix);
    ctx->zstd_prefix = NULL;
}

static pqt_status failed(size_t r, const pqt_zstd_prefix *z)
{
    ZSTD_ErrorCode e = ZSTD_getErrorCode(r);
    if (e == ZSTD_error_frameParameter_windowTooLarge) return PQT_NOT_FOUND;
    return pqt_err(PQT_CORRUPT, "ZSTD data (%zu bytes) is corrupt after %zu of %zu bytes: %s",
                   z->src_n, z->dst_pos, z->dst_n, ZSTD_getErrorName(r));
}

pqt_status pqt_zstd_prefix_init(pqt_codec_ctx *ctx, pqt_zstd_prefix *z, const uint8_t *src,
                                size_t src_n, uint8_t *dst, size_t dst_n)
{
    unsigned long long fcs = ZSTD_getFrameContentSize(src, src_n);
    if (fcs == ZSTD_CONTENTSIZE_ERROR)
        return pqt_err(PQT_CORRUPT, "ZSTD data (%zu bytes) does not start with a zstd frame",
                       src_n);
    if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != dst_n &&
        ZSTD_findFrameCompressedSize(src, src_n) == src_n)
        return pqt_codec_size_mismatch(PQT_CODEC_ZSTD, (size_t)fcs, dst_n);
    if (!ctx->zstd_prefix) {
        ctx->zstd_prefix = ZSTD_createDCtx();
        if (!ctx->zstd_prefix) return pqt_err(PQT_NOMEM, "out of memory creating a ZSTD decoder");
    }
    int wlog = 10; /* zstd's smallest window */
    while (wlog < 30 && ((size_t)1 << wlog) < dst_n) wlog++;
    ZSTD_DCtx *d = ctx->zstd_prefix;
    size_t r = ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
    if (!ZSTD_isError(r)) r = ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, wlog);
    if (ZSTD_isError(r)) return pqt_err(PQT_CORRUPT, "ZSTD decoder: %s", ZSTD_getErrorName(r));
    *z = (pqt_zstd_prefix){.dctx = d, .src = src, .src_n = src_n, .dst = dst, .dst_n = dst_n};
    return PQT_OK;
}

pqt_status pqt_zstd_prefix_fill(pqt_zstd_prefix *z, size_t to)
{
    if (to > z->dst_n)
        return pqt_err(PQT_CORRUPT, "ZSTD data: byte %zu asked of a %zu-byte page", to, z->dst_n);
    while (z->dst_pos < to) {
        ZSTD_outBuffer out = {z->dst, to, z->dst_pos};
        ZSTD_inBuffer in = {z->src, z->src_n, z->src_pos};
        size_t r = ZSTD_decompressStream(z->dctx, &out, &in);
        if (ZSTD_isError(r)) return failed(r, z);
        bool moved = out.pos != z->dst_pos || in.pos != z->src_pos;
        z->dst_pos = out.pos;
        z->src_pos = in.pos;
        if (!moved && z->dst_pos < to) /* the input is used up and the frame says no more */
            return pqt_err(PQT_CORRUPT, "ZSTD data (%zu bytes) ends after %zu of %zu bytes",
                           z->src_n, z->dst_pos, z->dst_n);
    }
    return PQT_OK;
}
