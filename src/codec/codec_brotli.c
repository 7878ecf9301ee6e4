/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_brotli.c - BROTLI adapter over libbrotlidec (layer: codec).
 *
 * Implements Compression.md "BROTLI" (RFC 7932 streams, no framing). The one-shot
 * BrotliDecoderDecompress is given exactly the page header's size, so a stream that
 * wants more room fails there instead of writing past dst; a shorter one is reported
 * with both sizes.
 */
#include <brotli/decode.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"

pqt_status pqt_codec_brotli_decompress(const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                                       size_t dst_nbytes)
{
    size_t out = dst_nbytes;
    BrotliDecoderResult r = BrotliDecoderDecompress(src_nbytes, src, &out, dst);
    if (PQT_UNLIKELY(r != BROTLI_DECODER_RESULT_SUCCESS))
        return pqt_err(PQT_CORRUPT,
                       "BROTLI data (%zu bytes) is corrupt, truncated or decompresses to more "
                       "than %zu bytes",
                       src_nbytes, dst_nbytes);
    if (PQT_UNLIKELY(out != dst_nbytes))
        return pqt_codec_size_mismatch(PQT_CODEC_BROTLI, out, dst_nbytes);
    return PQT_OK;
}
