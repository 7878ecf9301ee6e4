/* SPDX-License-Identifier: Apache-2.0 */
/*
 * delta_bp.c - DELTA_BINARY_PACKED decoder (layer: encoding).
 *
 * Implements parquet-format Encodings.md "Delta Encoding (DELTA_BINARY_PACKED = 5)":
 * a header <block size> <miniblocks per block> <total count> <zigzag first value>,
 * then blocks of <zigzag min delta> <one bit width byte per miniblock> <miniblocks>.
 * Values are reconstructed in uint64 arithmetic so that wrap-around deltas (which the
 * spec allows) are well defined; INT32 output is the low 32 bits of the same sum.
 *
 * Also the length decoder under DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY, which
 * need pqt_dbp_finish() to learn where the lengths end. The decoder is a small state
 * machine (block -> miniblock -> group of 32) so decode and skip can stop anywhere.
 */
#include <string.h>

#include "encoding_int.h"
#include "util/error.h"
#include "util/le.h"

/* Geometry sanity limits. The spec only requires multiples (128 / 32); real writers use
 * 128..2048-value blocks. The cap keeps one block header from claiming absurd counts. */
#define DBP_MAX_BLOCK_SIZE (1u << 20)
#define DBP_MAX_MINIBLOCKS 256u /* size of pqt_dbp_dec.bit_widths */

/* ULEB128 into *v; false when truncated or longer than 64 bits. */
static inline bool read_uleb(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    return pqt_get_uvarint(pp, end, v) == PQT_UVARINT_OK;
}

pqt_status pqt_dbp_init(pqt_dbp_dec *d, const uint8_t *p, size_t n)
{
    memset(d, 0, sizeof(*d));
    const uint8_t *end = p + n;
    uint64_t bs, mbs, total, first;
    if (PQT_UNLIKELY(!read_uleb(&p, end, &bs) || !read_uleb(&p, end, &mbs) ||
                     !read_uleb(&p, end, &total) || !read_uleb(&p, end, &first)))
        return pqt_err(PQT_CORRUPT, "DELTA_BINARY_PACKED: header truncated (%zu bytes)", n);
    if (PQT_UNLIKELY(bs == 0 || bs % 128 != 0 || bs > DBP_MAX_BLOCK_SIZE))
        return pqt_err(PQT_CORRUPT,
                       "DELTA_BINARY_PACKED: block size %llu is not a positive multiple of 128 "
                       "up to %u",
                       (unsigned long long)bs, DBP_MAX_BLOCK_SIZE);
    if (PQT_UNLIKELY(mbs == 0 || mbs > DBP_MAX_MINIBLOCKS || bs % mbs != 0 || (bs / mbs) % 32 != 0))
        return pqt_err(PQT_CORRUPT,
                       "DELTA_BINARY_PACKED: %llu miniblocks do not split a block of %llu values "
                       "into multiples of 32",
                       (unsigned long long)mbs, (unsigned long long)bs);
    /* Every block needs at least its min delta byte and its bit width bytes, so the total
     * count cannot promise more blocks than the data holds. This bounds what callers
     * (DLBA/DBA) allocate from the count. */
    if (total > 1) {
        uint64_t blocks = (total - 1) / bs + ((total - 1) % bs != 0);
        if (PQT_UNLIKELY(blocks > (uint64_t)(end - p) / (1 + mbs)))
            return pqt_err(
                PQT_CORRUPT, "DELTA_BINARY_PACKED: %llu values need %llu blocks, only %zu bytes",
                (unsigned long long)total, (unsigned long long)blocks, (size_t)(end - p));
    }
    d->p = p;
    d->end = end;
    d->block_size = bs;
    d->miniblocks_per_block = mbs;
    d->values_per_miniblock = bs / mbs;
    d->total_values = total;
    d->values_left = total;
    d->last_value = pqt_unzigzag(first);
    d->first_pending = total > 0;
    d->miniblock_idx = mbs; /* forces a block header read on first need */
    d->miniblock_left = 0;
    d->buf_pos = d->buf_len = 0;
    return PQT_OK;
}

/* Move to the next miniblock that holds values, reading a block header when the current
 * block is used up. Checks the bit width and that the bytes needed for the values still to
 * come (packed_left) are present: the last miniblock may lack its padding, which some
 * writers omit. */
static pqt_status next_miniblock(pqt_dbp_dec *d, uint64_t packed_left)
{
    if (d->miniblock_idx >= d->miniblocks_per_block) {
        uint64_t zz;
        if (PQT_UNLIKELY(!read_uleb(&d->p, d->end, &zz)))
            return pqt_err(PQT_CORRUPT, "DELTA_BINARY_PACKED: block header truncated");
        d->min_delta = pqt_unzigzag(zz);
        if (PQT_UNLIKELY((uint64_t)(d->end - d->p) < d->miniblocks_per_block))
            return pqt_err(PQT_CORRUPT, "DELTA_BINARY_PACKED: miniblock bit widths truncated");
        /* Widths of miniblocks past the last value may be arbitrary (spec), so they are
         * validated only when a miniblock is actually entered. */
        memcpy(d->bit_widths, d->p, d->miniblocks_per_block);
        d->p += d->miniblocks_per_block;
        d->miniblock_idx = 0;
    }
    int w = d->bit_widths[d->miniblock_idx];
    if (PQT_UNLIKELY(w > 64))
        return pqt_err(PQT_CORRUPT, "DELTA_BINARY_PACKED: bit width %d exceeds 64", w);
    uint64_t vpm = d->values_per_miniblock;
    uint64_t want = packed_left < vpm ? packed_left : vpm;
    uint64_t need = (want * (uint64_t)w + 7) / 8;
    uint64_t full = vpm * (uint64_t)w / 8;
    uint64_t avail = (uint64_t)(d->end - d->p);
    if (PQT_UNLIKELY(need > avail))
        return pqt_err(PQT_CORRUPT, "DELTA_BINARY_PACKED: miniblock needs %llu bytes, %llu remain",
                       (unsigned long long)need, (unsigned long long)avail);
    d->mb_p = d->p;
    d->p += full < avail ? full : avail;
    d->miniblock_left = vpm;
    d->miniblock_idx++;
    return PQT_OK;
}

/* Unpack the next 32 deltas of the current miniblock into buf. A short tail (padding
 * omitted by the writer) is copied into zeroed scratch first: the kernel reads 4*w bytes. */
static inline void refill(pqt_dbp_dec *d)
{
    int w = d->bit_widths[d->miniblock_idx - 1];
    size_t gbytes = (size_t)w * 4;
    size_t avail = (size_t)(d->end - d->mb_p);
    if (PQT_LIKELY(avail >= gbytes)) {
        pqt_unpack32_u64(d->mb_p, d->buf, w);
        d->mb_p += gbytes;
    } else {
        uint8_t tmp[64 * 4];
        memset(tmp, 0, sizeof(tmp));
        memcpy(tmp, d->mb_p, avail);
        pqt_unpack32_u64(tmp, d->buf, w);
        d->mb_p += avail;
    }
    d->miniblock_left -= 32;
    d->buf_pos = 0;
    d->buf_len = 32;
}

enum { DBP_OUT_I32, DBP_OUT_I64, DBP_OUT_SKIP };

/* The one decoder; `mode` is a constant in each wrapper so the branches on it fold away. */
static inline pqt_status dbp_run(pqt_dbp_dec *d, int64_t n, void *dst, int mode)
{
    if (PQT_UNLIKELY(n < 0 || (uint64_t)n > d->values_left))
        return pqt_err(PQT_CORRUPT, "DELTA_BINARY_PACKED: asked for %lld values, %llu remain",
                       (long long)n, (unsigned long long)d->values_left);
    int32_t *o32 = dst;
    int64_t *o64 = dst;
    int64_t i = 0;
    uint64_t last = (uint64_t)d->last_value;
    if (n > 0 && d->first_pending) {
        if (mode == DBP_OUT_I32) o32[0] = (int32_t)(uint32_t)last;
        if (mode == DBP_OUT_I64) o64[0] = (int64_t)last;
        d->first_pending = false;
        i = 1;
    }
    while (i < n) {
        if (d->buf_pos == d->buf_len) {
            if (d->miniblock_left == 0) {
                /* values_left is settled at the end of the call; the i values already
                 * produced here are no longer packed ones */
                pqt_status st = next_miniblock(d, d->values_left - (uint64_t)i);
                if (PQT_UNLIKELY(st != PQT_OK)) {
                    d->last_value = (int64_t)last;
                    d->values_left -= (uint64_t)i;
                    return st;
                }
            }
            refill(d);
        }
        int64_t k = d->buf_len - d->buf_pos;
        if (k > n - i) k = n - i;
        const uint64_t *b = d->buf + d->buf_pos;
        const uint64_t md = (uint64_t)d->min_delta;
        if (mode == DBP_OUT_I32) {
            for (int64_t j = 0; j < k; j++) {
                last += b[j] + md;
                o32[i + j] = (int32_t)(uint32_t)last;
            }
        } else if (mode == DBP_OUT_I64) {
            for (int64_t j = 0; j < k; j++) {
                last += b[j] + md;
                o64[i + j] = (int64_t)last;
            }
        } else {
            uint64_t s = 0;
            for (int64_t j = 0; j < k; j++)
                s += b[j];
            last += s + md * (uint64_t)k;
        }
        d->buf_pos += (int)k;
        i += k;
    }
    d->last_value = (int64_t)last;
    d->values_left -= (uint64_t)n;
    return PQT_OK;
}

pqt_status pqt_dbp_decode_i32(pqt_dbp_dec *d, int64_t n, int32_t *out)
{
    return dbp_run(d, n, out, DBP_OUT_I32);
}

pqt_status pqt_dbp_decode_i64(pqt_dbp_dec *d, int64_t n, int64_t *out)
{
    return dbp_run(d, n, out, DBP_OUT_I64);
}

/* Skipping still has to sum the deltas (the next value depends on them), but it stores
 * nothing: one unpack and one reduction per group of 32. */
pqt_status pqt_dbp_skip(pqt_dbp_dec *d, int64_t n)
{
    return dbp_run(d, n, NULL, DBP_OUT_SKIP);
}

pqt_status pqt_dbp_finish(pqt_dbp_dec *d, const uint8_t **end_ret)
{
    PQT_TRY(dbp_run(d, (int64_t)d->values_left, NULL, DBP_OUT_SKIP));
    /* d->p already stands past the last entered miniblock (its padding included when
     * present); miniblocks after the last value carry no bytes. */
    *end_ret = d->p;
    return PQT_OK;
}
