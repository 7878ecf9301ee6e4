/* SPDX-License-Identifier: Apache-2.0 */
/*
 * zstd_prefix.h - a zstd page decompressed only as far as asked (layer: codec).
 *
 * A read keeping a row or two of a page (a top-n's ids) needs the page only up to its last
 * kept value. zstd cannot skip, but it can stop: the frame is streamed into the page buffer
 * until the bytes asked for are there, and the rest is never decoded.
 */
#ifndef PQT_ZSTD_PREFIX_H
#define PQT_ZSTD_PREFIX_H

#include <stddef.h>
#include <stdint.h>

#include "codec/codec.h"

typedef struct pqt_zstd_prefix {
    void *dctx; /* the ctx's streaming decoder */
    const uint8_t *src;
    size_t src_n, src_pos;
    uint8_t *dst;
    size_t dst_n, dst_pos; /* dst[0, dst_pos) is decoded */
} pqt_zstd_prefix;

/* Start decoding the frames in src (whose content must be dst_n bytes) into dst, with ctx's
 * streaming decoder. PQT_NOT_FOUND when the frame asks for a window larger than the page
 * (decompress it whole instead); PQT_CORRUPT, PQT_NOMEM. */
pqt_status pqt_zstd_prefix_init(pqt_codec_ctx *ctx, pqt_zstd_prefix *z, const uint8_t *src,
                                size_t src_n, uint8_t *dst, size_t dst_n);

/* Decode until dst[0, to) holds its bytes. PQT_CORRUPT (with the byte counts) when the
 * data is malformed or ends first; PQT_NOT_FOUND as for init. */
pqt_status pqt_zstd_prefix_fill(pqt_zstd_prefix *z, size_t to);

#endif
