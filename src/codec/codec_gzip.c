/* SPDX-License-Identifier: Apache-2.0 */
/*
 * codec_gzip.c - GZIP adapter over zlib's inflate (layer: codec).
 *
 * Implements Compression.md "GZIP": RFC 1952 members, and several of them back to back
 * (readers should accept that; parquet-testing's concatenated_gzip_members.parquet has
 * it). windowBits 15 + 32 lets zlib detect gzip or zlib headers, since some old writers
 * emitted zlib streams under the GZIP codec. The z_stream lives in the ctx and is
 * inflateReset between pages and between members, so steady state does not allocate;
 * zlib's own allocations are routed through util/mem.h.
 */
#include <limits.h>
#include <stdbool.h>
#include <zlib.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"
#include "util/mem.h"

static voidpf zalloc_cb(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return pqt_malloc_array(items, size);
}

static void zfree_cb(voidpf opaque, voidpf p)
{
    (void)opaque;
    pqt_mem_free(p);
}

static pqt_status stream_new(z_stream **ret)
{
    z_stream *zs = pqt_calloc(1, sizeof(z_stream));
    if (!zs) return pqt_err(PQT_NOMEM, "out of memory creating a GZIP decoder");
    zs->zalloc = zalloc_cb;
    zs->zfree = zfree_cb;
    if (inflateInit2(zs, 15 + 32) != Z_OK) {
        pqt_mem_free(zs);
        return pqt_err(PQT_NOMEM, "out of memory creating a GZIP decoder");
    }
    *ret = zs;
    return PQT_OK;
}

static void stream_free(z_stream *zs)
{
    if (!zs) return;
    inflateEnd(zs);
    pqt_mem_free(zs);
}

void pqt_codec_gzip_free(pqt_codec_ctx *ctx)
{
    stream_free(ctx->gzip);
    ctx->gzip = NULL;
}

/* Inflate member after member until the input ends. Once dst is full, output goes to a
 * one-byte probe: a member that only has its trailer (or an empty member) left is fine,
 * one more byte of data means the page header's size is wrong. */
static pqt_status inflate_all(z_stream *zs, const uint8_t *src, size_t src_nbytes, uint8_t *dst,
                              size_t dst_nbytes)
{
    uint8_t probe;
    bool probing = false;
    zs->next_in = (Bytef *)(uintptr_t)src; /* zlib's API is not const-correct */
    zs->avail_in = (uInt)src_nbytes;
    zs->next_out = dst;
    zs->avail_out = (uInt)dst_nbytes;
    for (;;) {
        int ret = inflate(zs, Z_NO_FLUSH);
        size_t got = probing ? dst_nbytes + 1 - zs->avail_out : dst_nbytes - zs->avail_out;
        if (PQT_UNLIKELY(got > dst_nbytes))
            return pqt_err(PQT_CORRUPT,
                           "GZIP data decompresses to more than %zu bytes, page header says %zu",
                           dst_nbytes, dst_nbytes);
        if (ret == Z_STREAM_END) {
            if (zs->avail_in == 0) {
                if (PQT_UNLIKELY(got != dst_nbytes))
                    return pqt_codec_size_mismatch(PQT_CODEC_GZIP, got, dst_nbytes);
                return PQT_OK;
            }
            /* more input: another gzip member follows */
            if (PQT_UNLIKELY(inflateReset(zs) != Z_OK))
                return pqt_err(PQT_CORRUPT, "GZIP decoder reset failed");
            continue;
        }
        if (ret == Z_OK || ret == Z_BUF_ERROR) {
            if (zs->avail_out == 0) { /* only before probing: a probe byte returned above */
                probing = true;
                zs->next_out = &probe;
                zs->avail_out = 1;
                continue;
            }
            if (PQT_UNLIKELY(zs->avail_in == 0))
                return pqt_err(PQT_CORRUPT,
                               "GZIP data is truncated: %zu bytes out, page header says %zu", got,
                               dst_nbytes);
            if (ret == Z_OK) continue; /* progress was made; go on */
            /* Z_BUF_ERROR with room on both sides means no progress: never spin */
        }
        if (ret == Z_MEM_ERROR) return pqt_err(PQT_NOMEM, "out of memory in GZIP decoder");
        return pqt_err(PQT_CORRUPT, "GZIP data is corrupt after %zu bytes out%s%s", got,
                       zs->msg ? ": " : "", zs->msg ? zs->msg : "");
    }
}

pqt_status pqt_codec_gzip_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_nbytes,
                                     uint8_t *dst, size_t dst_nbytes)
{
    /* uInt is 32 bits; pages are bounded by i32 sizes in the page header anyway */
    if (PQT_UNLIKELY(src_nbytes > UINT_MAX || dst_nbytes > UINT_MAX))
        return pqt_err(PQT_LIMIT, "GZIP page of %zu -> %zu bytes exceeds 4 GiB", src_nbytes,
                       dst_nbytes);
    z_stream *zs = NULL;
    if (ctx && ctx->gzip) {
        zs = ctx->gzip;
        if (PQT_UNLIKELY(inflateReset(zs) != Z_OK))
            return pqt_err(PQT_CORRUPT, "GZIP decoder reset failed");
    } else {
        PQT_TRY(stream_new(&zs));
        if (ctx) ctx->gzip = zs;
    }
    pqt_status st = inflate_all(zs, src, src_nbytes, dst, dst_nbytes);
    if (!ctx) stream_free(zs);
    return st;
}
