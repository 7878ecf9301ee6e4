/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_lz4.c - LZ4_RAW and (deprecated) LZ4 adapters over liblz4 (layer: codec).
 *
 * Implements Compression.md "LZ4_RAW" (one LZ4 block, no framing) and "LZ4", which in
 * practice means the undocumented Hadoop framing parquet-mr writes: a sequence of
 * [4-byte big-endian uncompressed size][4-byte big-endian compressed size][LZ4 block].
 * Older parquet-cpp wrote plain LZ4 blocks under the same codec, so, as Arrow does
 * (non_hadoop_lz4_compressed.parquet), when the framing does not parse exactly we
 * retry the whole page as one raw block.
 */
#include <limits.h>
#include <lz4.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"

static inline uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* One raw block into exactly dst_nbytes; -1 on any failure (no message). */
static long raw_block(const uint8_t *src, size_t src_nbytes, uint8_t *dst, size_t dst_nbytes)
{
    if (src_nbytes > INT_MAX || dst_nbytes > INT_MAX) return -1;
    return LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_nbytes, (int)dst_nbytes);
}

pqt_status pqt_codec_lz4_raw_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                        size_t dst_nbytes)
{
    if (PQT_UNLIKELY(src_nbytes > INT_MAX || dst_nbytes > INT_MAX))
        return pqt_err(PQT_LIMIT, "LZ4_RAW page of %zu -> %zu bytes exceeds 2 GiB", src_nbytes,
                       dst_nbytes);
    long r = raw_block(src, src_nbytes, dst, dst_nbytes);
    if (PQT_UNLIKELY(r < 0))
        return pqt_err(PQT_CORRUPT,
                       "LZ4_RAW data (%zu bytes) is corrupt or decompresses to more than %zu "
                       "bytes",
                       src_nbytes, dst_nbytes);
    if (PQT_UNLIKELY((size_t)r != dst_nbytes))
        return pqt_codec_size_mismatch(PQT_CODEC_LZ4_RAW, (size_t)r, dst_nbytes);
    return PQT_OK;
}

/* Hadoop framing; true only when the frames cover src exactly and fill dst exactly. */
static bool hadoop_frames(const uint8_t *src, size_t src_nbytes, uint8_t *dst, size_t dst_nbytes)
{
    size_t out = 0;
    if (src_nbytes < 8) return false;
    while (src_nbytes >= 8) {
        uint32_t usize = be32(src), csize = be32(src + 4);
        src += 8;
        src_nbytes -= 8;
        if (csize > src_nbytes || usize > dst_nbytes - out) return false;
        if (csize > 0 || usize > 0) { /* an empty frame is how Hadoop frames empty input */
            long r = raw_block(src, csize, dst + out, usize);
            if (r < 0 || (size_t)r != usize) return false;
        }
        src += csize;
        src_nbytes -= csize;
        out += usize;
    }
    return src_nbytes == 0 && out == dst_nbytes;
}

pqt_status pqt_codec_lz4_hadoop_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                           size_t dst_nbytes)
{
    if (hadoop_frames(src, src_nbytes, dst, dst_nbytes)) return PQT_OK;
    /* not Hadoop-framed: the old parquet-cpp form, one raw block */
    long r = raw_block(src, src_nbytes, dst, dst_nbytes);
    if (PQT_UNLIKELY(r < 0))
        return pqt_err(PQT_CORRUPT,
                       "LZ4 data (%zu bytes) is neither Hadoop-framed nor a valid LZ4 block of "
                       "%zu bytes",
                       src_nbytes, dst_nbytes);
    if (PQT_UNLIKELY((size_t)r != dst_nbytes))
        return pqt_codec_size_mismatch(PQT_CODEC_LZ4, (size_t)r, dst_nbytes);
    return PQT_OK;
}
