/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec.h - one dispatch over the system compression libraries (layer: codec).
 *
 * Implements the codecs of parquet-format Compression.md: UNCOMPRESSED, SNAPPY,
 * GZIP (zlib; several concatenated gzip members allowed), BROTLI, ZSTD, LZ4_RAW
 * and LZ4 (the Hadoop-framed form, falling back to raw LZ4 block as other readers
 * do). LZO and unknown codecs are PQT_UNSUPPORTED_CODEC. A pqt_codec_ctx holds the
 * per-thread reusable decoder state so the hot path does not allocate.
 */
#ifndef PQT_CODEC_H
#define PQT_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pqt.h"

typedef struct pqt_codec_ctx pqt_codec_ctx;

pqt_status pqt_codec_ctx_new(pqt_codec_ctx **ret);
void pqt_codec_ctx_free(pqt_codec_ctx *ctx);

/* True when `codec` (parquet CompressionCodec value) can be decompressed. */
bool pqt_codec_supported(int codec);
/* "SNAPPY", "ZSTD", ...; "UNKNOWN(n)" style names are not returned: unknown gives "UNKNOWN". */
const char *pqt_codec_name(int codec);

/* The most bytes `codec` can produce from src_nbytes of input, from the format's own
 * limits: UNCOMPRESSED 1:1, SNAPPY about 21:1 (a 3-byte copy of 64 bytes), LZ4 about 255:1
 * (one length byte per 255 bytes of match), GZIP 1032:1 (a 258-byte match in 2 bits), ZSTD
 * 32768:1 (a 4-byte RLE block of 128 KiB), with slack for headers. BROTLI has no useful
 * bound: INT64_MAX, as for an unknown codec. A page claiming more is corrupt whatever its
 * bytes hold, so its buffer need not be allocated to find out. */
int64_t pqt_codec_max_nbytes(int codec, int64_t src_nbytes);

/* Decompress src[0..src_nbytes) into dst, which must receive exactly dst_nbytes bytes
 * (the page header's uncompressed size). PQT_CORRUPT when the input is malformed or the
 * output size differs; PQT_UNSUPPORTED_CODEC for LZO/unknown. ctx may be NULL (slower:
 * state is created per call). The message says the codec and sizes, not the column:
 * callers prefix that. */
pqt_status pqt_codec_decompress(pqt_codec_ctx *ctx, int codec, const uint8_t *src,
                                size_t src_nbytes, uint8_t *dst, size_t dst_nbytes);

/* ---- compression (codec_compress.c), for the writer ---- */

/* The most bytes pqt_codec_compress can write for n input bytes (0 for a codec it cannot
 * write, or an n the codec's library cannot take). */
size_t pqt_codec_compress_bound(int codec, size_t n);

/* Compress src[0..n) into dst[0..cap), *out_n = bytes written. codec: UNCOMPRESSED, SNAPPY,
 * GZIP (a gzip member, as Compression.md asks), BROTLI, ZSTD or LZ4_RAW; LZO, the framed
 * LZ4 and unknown codecs are PQT_UNSUPPORTED_CODEC (write LZ4_RAW instead).
 * level 0 = the codec's default: ZSTD 3, GZIP 6, BROTLI 8 (Arrow's choice; the library's 11
 * is too slow for data pages), LZ4_RAW the fast compressor; otherwise ZSTD any of its levels
 * (negative = faster), GZIP 1..9, BROTLI 1..11, LZ4_RAW 1..2 fast and 3..12 high compression;
 * SNAPPY has none. A level outside these is PQT_MISUSE. ctx may be NULL (state made per
 * call); with a ctx, ZSTD and GZIP reuse their compressor, so one ctx per thread.
 * PQT_LIMIT when cap is too small (cap >= the bound always suffices) or n is more than the
 * library takes; PQT_NOMEM. */
pqt_status pqt_codec_compress(pqt_codec_ctx *ctx, int codec, int level, const uint8_t *src,
                              size_t n, uint8_t *dst, size_t cap, size_t *out_n);

#endif
