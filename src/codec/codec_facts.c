/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_facts.c - what the library knows about each codec without running it: whether it is
 * supported, its name, the one "wrong size" message and the largest output a page of it can
 * justify (layer: codec). Apart from the dispatch in codec.c, so the adapters that report
 * through pqt_codec_size_mismatch depend on facts, not on the dispatch that calls them.
 */
#include <stdint.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"

bool pqt_codec_supported(int codec)
{
    switch (codec) {
    case PQT_CODEC_UNCOMPRESSED:
    case PQT_CODEC_SNAPPY:
    case PQT_CODEC_GZIP:
    case PQT_CODEC_BROTLI:
    case PQT_CODEC_LZ4:
    case PQT_CODEC_ZSTD:
    case PQT_CODEC_LZ4_RAW:
        return true;
    default:
        return false;
    }
}

const char *pqt_codec_name(int codec)
{
    switch (codec) {
    case PQT_CODEC_UNCOMPRESSED:
        return "UNCOMPRESSED";
    case PQT_CODEC_SNAPPY:
        return "SNAPPY";
    case PQT_CODEC_GZIP:
        return "GZIP";
    case PQT_CODEC_LZO:
        return "LZO";
    case PQT_CODEC_BROTLI:
        return "BROTLI";
    case PQT_CODEC_LZ4:
        return "LZ4";
    case PQT_CODEC_ZSTD:
        return "ZSTD";
    case PQT_CODEC_LZ4_RAW:
        return "LZ4_RAW";
    default:
        return "UNKNOWN";
    }
}

pqt_status pqt_codec_size_mismatch(int codec, size_t got_nbytes, size_t want_nbytes)
{
    return pqt_err(PQT_CORRUPT, "%s data decompresses to %zu bytes, page header says %zu",
                   pqt_codec_name(codec), got_nbytes, want_nbytes);
}

int64_t pqt_codec_max_nbytes(int codec, int64_t src_nbytes)
{
    int64_t ratio;
    switch (codec) {
    case PQT_CODEC_UNCOMPRESSED: return src_nbytes;
    case PQT_CODEC_SNAPPY: ratio = 22; break;
    case PQT_CODEC_LZ4:
    case PQT_CODEC_LZ4_RAW: ratio = 256; break;
    case PQT_CODEC_GZIP: ratio = 1040; break;
    case PQT_CODEC_ZSTD: ratio = 32768; break;
    default: return INT64_MAX;
    }
    /* 128 KiB: a zstd block's worth of slack for frame and block headers */
    if (src_nbytes < 0 || src_nbytes > (INT64_MAX >> 20) / ratio) return INT64_MAX;
    return src_nbytes * ratio + ((int64_t)128 << 10);
}
