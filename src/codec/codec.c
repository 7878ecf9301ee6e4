/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec.c - codec dispatch and the reusable decompression context (layer: codec).
 *
 * Implements the codec list of parquet-format Compression.md (enum CompressionCodec in
 * parquet.thrift). UNCOMPRESSED is handled here; each real codec lives in its own
 * adapter file (codec_snappy.c, codec_gzip.c, codec_zstd.c, codec_lz4.c,
 * codec_brotli.c). The ctx only holds the library states that are expensive to create
 * (zlib's z_stream, zstd's DCtx) so a column reader decompressing page after page does
 * not allocate; snappy, lz4 and brotli's one-shot API need no state.
 */
#include <string.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"
#include "util/mem.h"

pqt_status pqt_codec_ctx_new(pqt_codec_ctx **ret)
{
    *ret = pqt_calloc(1, sizeof(pqt_codec_ctx));
    if (!*ret) return pqt_err(PQT_NOMEM, "out of memory creating a codec context");
    return PQT_OK;
}

void pqt_codec_ctx_free(pqt_codec_ctx *ctx)
{
    if (!ctx) return;
    pqt_codec_gzip_free(ctx);
    pqt_codec_zstd_free(ctx);
    pqt_zstd_prefix_free(ctx);
    pqt_codec_compress_free(ctx);
    pqt_mem_free(ctx);
}

pqt_status pqt_codec_decompress(pqt_codec_ctx *ctx, int codec, const uint8_t *src,
                                size_t src_nbytes, uint8_t *dst, size_t dst_nbytes)
{
    /* An empty page needs no library (and some reject empty input, e.g. snappy): writers
     * emit compressed_page_size 0 for pages without values. */
    if (src_nbytes == 0 && dst_nbytes == 0 && pqt_codec_supported(codec)) return PQT_OK;
    switch (codec) {
    case PQT_CODEC_UNCOMPRESSED:
        /* An uncompressed page whose two sizes differ is lying about one of them. */
        if (PQT_UNLIKELY(src_nbytes != dst_nbytes))
            return pqt_err(PQT_CORRUPT, "UNCOMPRESSED page has %zu bytes, page header says %zu",
                           src_nbytes, dst_nbytes);
        if (dst_nbytes) memcpy(dst, src, dst_nbytes);
        return PQT_OK;
    case PQT_CODEC_SNAPPY:
        return pqt_codec_snappy_decompress(src, src_nbytes, dst, dst_nbytes);
    case PQT_CODEC_GZIP:
        return pqt_codec_gzip_decompress(ctx, src, src_nbytes, dst, dst_nbytes);
    case PQT_CODEC_BROTLI:
        return pqt_codec_brotli_decompress(src, src_nbytes, dst, dst_nbytes);
    case PQT_CODEC_LZ4:
        return pqt_codec_lz4_hadoop_decompress(src, src_nbytes, dst, dst_nbytes);
    case PQT_CODEC_ZSTD:
        return pqt_codec_zstd_decompress(ctx, src, src_nbytes, dst, dst_nbytes);
    case PQT_CODEC_LZ4_RAW:
        return pqt_codec_lz4_raw_decompress(src, src_nbytes, dst, dst_nbytes);
    case PQT_CODEC_LZO:
        return pqt_err(PQT_UNSUPPORTED_CODEC, "codec LZO not supported");
    default:
        return pqt_err(PQT_UNSUPPORTED_CODEC, "codec %d not supported", codec);
    }
}
