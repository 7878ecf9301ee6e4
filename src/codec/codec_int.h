/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_int.h - the adapters behind pqt_codec_decompress (layer: codec, private).
 * Only files under src/codec/ include this. Each adapter owns one system library, keeps
 * its reusable state in the ctx (created on first use), and returns PQT_CORRUPT with
 * the codec and sizes in the message; codec.c dispatches and owns the ctx.
 */
#ifndef PQT_CODEC_INT_H
#define PQT_CODEC_INT_H

#include "codec.h"

struct pqt_codec_ctx {
    void *gzip; /* z_stream, inflateInit2 done (codec_gzip.c) */
    void *zstd; /* ZSTD_DCtx (codec_zstd.c) */
    void *zstd_prefix; /* ZSTD_DCtx streaming a prefix (zstd_prefix.c) */
    void *zstd_c;     /* ZSTD_CCtx (codec_compress.c) */
    void *gzip_c;     /* z_stream, deflateInit2 done at gzip_c_level (codec_compress.c) */
    int gzip_c_level;
};

/* Every adapter: decompress src[0..src_nbytes) into exactly dst_nbytes bytes at dst. */
pqt_status pqt_codec_snappy_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                       size_t dst_nbytes);
/* ctx NULL: a temporary z_stream / ZSTD_DCtx for this call only. */
pqt_status pqt_codec_gzip_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_nbytes,
                                     uint8_t *dst, size_t dst_nbytes);
void pqt_codec_gzip_free(pqt_codec_ctx *ctx);
pqt_status pqt_codec_zstd_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_nbytes,
                                     uint8_t *dst, size_t dst_nbytes);
void pqt_codec_zstd_free(pqt_codec_ctx *ctx);
void pqt_zstd_prefix_free(pqt_codec_ctx *ctx);
pqt_status pqt_codec_lz4_raw_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                        size_t dst_nbytes);
pqt_status pqt_codec_lz4_hadoop_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                           size_t dst_nbytes);
pqt_status pqt_codec_brotli_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                       size_t dst_nbytes);

/* Frees the compression states of ctx (codec_compress.c). */
void pqt_codec_compress_free(pqt_codec_ctx *ctx);

/* The one wording for "wrong size" so every codec reports it alike:
 * "SNAPPY data decompresses to N bytes, page header says M". */
pqt_status pqt_codec_size_mismatch(int codec, size_t got_nbytes, size_t want_nbytes);

#endif
