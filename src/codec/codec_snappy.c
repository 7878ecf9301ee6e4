/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_snappy.c - SNAPPY adapter over libsnappy's C API (layer: codec).
 *
 * Implements Compression.md "SNAPPY": the raw snappy block format, no framing. The
 * uncompressed length sits in the block's varint preamble, so a size disagreeing with
 * the page header is caught before any output is written.
 */
#include <snappy-c.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"

pqt_status pqt_codec_snappy_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                       size_t dst_nbytes)
{
    size_t ulen = 0;
    if (PQT_UNLIKELY(snappy_uncompressed_length((const char *)src, src_nbytes, &ulen) != SNAPPY_OK))
        return pqt_err(PQT_CORRUPT, "SNAPPY data (%zu bytes) has no valid length preamble",
                       src_nbytes);
    if (PQT_UNLIKELY(ulen != dst_nbytes))
        return pqt_codec_size_mismatch(PQT_CODEC_SNAPPY, ulen, dst_nbytes);
    size_t out = dst_nbytes;
    if (PQT_UNLIKELY(snappy_uncompress((const char *)src, src_nbytes, (char *)dst, &out) !=
                     SNAPPY_OK))
        return pqt_err(PQT_CORRUPT, "SNAPPY data (%zu bytes) is corrupt", src_nbytes);
    if (PQT_UNLIKELY(out != dst_nbytes))
        return pqt_codec_size_mismatch(PQT_CODEC_SNAPPY, out, dst_nbytes);
    return PQT_OK;
}
