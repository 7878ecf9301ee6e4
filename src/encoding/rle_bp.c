/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rle_bp.c - the RLE / bit-packed hybrid decoder (layer: encoding).
 *
 * Implements parquet-format Encodings.md "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)"
 * for definition/repetition levels, dictionary codes and RLE booleans. The data is a
 * sequence of runs, each behind a ULEB128 header: an RLE run repeats one value stored in
 * ceil(bit_width / 8) bytes; a bit-packed run holds groups of 8 values packed LSB-first.
 *
 * Work is done per run, never per value: RLE runs become a memset or fill loop (and O(1) for
 * skip and count_eq), bit-packed runs go 32 values at a time through the generated kernels
 * of unpack_gen.c, straight into the caller's array when it asks for whole groups.
 * A writer may cut the last bit-packed run short of its header's group count (only
 * padding is lost), so a run is clamped to the whole values present; asking for a value that
 * is not there is PQT_CORRUPT. Nothing here ever reads at or past `end`.
 */
#include <string.h>

#include "encoding/encoding_int.h"
#include "util/error.h"
#include "util/le.h"

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Parse the run header at d->p. Called only when the current run is exhausted, so the cost
 * (and the bounds checks) are paid once per run. */
static pqt_status next_run(pqt_rle_dec *d, int64_t want)
{
    const uint8_t *p = d->p, *end = d->end;
    if (PQT_UNLIKELY(p >= end))
        return pqt_err(PQT_CORRUPT, "RLE/bit-packed data ends with %lld value(s) still to read",
                       (long long)want);
    /* Run lengths are at most 2^31 - 1 (spec note 3), so the header fits in 32 bits and
     * takes at most 5 varint bytes. */
    uint32_t h = 0;
    for (int shift = 0;; shift += 7) {
        if (PQT_UNLIKELY(p >= end))
            return pqt_err(PQT_CORRUPT, "RLE/bit-packed data: run header varint runs past the "
                                        "end of the data");
        const uint8_t b = *p++;
        if (PQT_UNLIKELY(shift == 28 && (b & 0xf0)))
            return pqt_err(PQT_CORRUPT, "RLE/bit-packed data: run header varint longer than 32 "
                                        "bits");
        h |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) break;
    }
    const int bw = d->bit_width;
    if (h & 1) {
        /* 8 values of bw bits take exactly bw bytes. */
        const uint64_t ngroups = h >> 1;
        uint64_t nbytes = ngroups * (uint64_t)bw;
        int64_t nvals = (int64_t)ngroups * 8;
        const uint64_t avail = (uint64_t)(end - p);
        if (nbytes > avail) {
            nvals = (int64_t)(avail * 8 / (uint64_t)bw);
            nbytes = avail;
        }
        d->lit_left = nvals;
        d->lit_p = p;
        d->p = p + nbytes;
    } else {
        const int vbytes = (bw + 7) / 8;
        if (PQT_UNLIKELY(end - p < vbytes))
            return pqt_err(PQT_CORRUPT, "RLE/bit-packed data: RLE run value (%d bytes) runs "
                                        "past the end of the data", vbytes);
        uint32_t v = 0;
        for (int i = 0; i < vbytes; i++) v |= (uint32_t)p[i] << (8 * i);
        if (PQT_UNLIKELY(bw < 32 && (v >> bw) != 0))
            return pqt_err(PQT_CORRUPT, "RLE/bit-packed data: RLE run value %u does not fit "
                                        "in bit width %d", v, bw);
        d->rle_left = h >> 1;
        d->rle_value = v;
        d->p = p + vbytes;
    }
    return PQT_OK;
}

pqt_status pqt_rle_refill(pqt_rle_dec *d, int64_t want)
{
    while (d->lit_buf_pos >= d->lit_buf_len && d->rle_left == 0 && d->lit_left == 0)
        PQT_TRY(next_run(d, want));
    return PQT_OK;
}

/* Unpack the next (up to) 32 values of the current bit-packed run into lit_buf. Only the
 * run's last chunk can lack 4*bw readable bytes; it goes through a zeroed copy. */
static void fill_lit_buf(pqt_rle_dec *d)
{
    const int bw = d->bit_width;
    const size_t need = 4 * (size_t)bw;
    const size_t avail = (size_t)(d->end - d->lit_p);
    const int k = (int)min64(d->lit_left, 32);
    if (PQT_LIKELY(avail >= need)) {
        pqt_unpack32_u32(d->lit_p, d->lit_buf, bw);
        d->lit_p += need;
    } else {
        uint8_t tmp[4 * 32];
        memset(tmp, 0, sizeof tmp);
        memcpy(tmp, d->lit_p, avail);
        pqt_unpack32_u32(tmp, d->lit_buf, bw);
        d->lit_p = d->end;
    }
    d->lit_left -= k;
    d->lit_buf_pos = 0;
    d->lit_buf_len = k;
}

pqt_status pqt_rle_init(pqt_rle_dec *d, int bit_width, const uint8_t *p, size_t n)
{
    memset(d, 0, sizeof *d);
    if (PQT_UNLIKELY(bit_width < 0 || bit_width > 32))
        return pqt_err(PQT_CORRUPT, "RLE/bit-packed data: bit width %d is not in 0..32",
                       bit_width);
    d->bit_width = bit_width;
    d->p = p;
    d->end = p + n;
    d->lit_p = p;
    return PQT_OK;
}

/* The one decode loop; `u8` is a compile-time constant in both wrappers, so each gets its
 * own specialized copy. */
static inline pqt_status rle_get(pqt_rle_dec *d, int64_t n, void *outv, const int u8)
{
    uint8_t *o8 = outv;
    uint32_t *o32 = outv;
    while (n > 0) {
        if (d->lit_buf_pos < d->lit_buf_len) {
            const int k = (int)min64(n, d->lit_buf_len - d->lit_buf_pos);
            const uint32_t *src = d->lit_buf + d->lit_buf_pos;
            if (u8) {
                for (int i = 0; i < k; i++) o8[i] = (uint8_t)src[i];
                o8 += k;
            } else {
                memcpy(o32, src, (size_t)k * sizeof *o32);
                o32 += k;
            }
            d->lit_buf_pos += k;
            n -= k;
        } else if (d->rle_left > 0) {
            const int64_t k = min64(n, d->rle_left);
            const uint32_t v = d->rle_value;
            if (u8) {
                memset(o8, (int)v, (size_t)k);
                o8 += k;
            } else {
                for (int64_t i = 0; i < k; i++) o32[i] = v;
                o32 += k;
            }
            d->rle_left -= k;
            n -= k;
        } else if (d->lit_left > 0) {
            if (u8 && d->bit_width == 1 && n >= 8 && d->lit_left >= 8) {
                /* Levels of at most 1 (a flat optional column's, a list's repetition):
                 * each packed byte spreads into 8 output bytes by one multiply. lit_left
                 * never counts more values than the run's bytes hold. */
                const int64_t g = min64(n, d->lit_left) / 8;
                const uint8_t *ip = d->lit_p;
                for (int64_t j = 0; j < g; j++) {
                    uint64_t x = ((uint64_t)ip[j] * 0x0101010101010101ULL) & 0x8040201008040201ULL;
                    x = ((x | (x + 0x7F7F7F7F7F7F7F7FULL)) >> 7) & 0x0101010101010101ULL;
                    pqt_store_le64(o8 + 8 * j, x);
                }
                d->lit_p = ip + g;
                d->lit_left -= 8 * g;
                o8 += 8 * g;
                n -= 8 * g;
            } else if (!u8 && n >= 32 && d->lit_left >= 32) {
                /* Whole groups straight into the caller's array. lit_left >= 32 * g
                 * guarantees the 4 * bw * g bytes are inside the run. */
                const int64_t g = min64(n, d->lit_left) / 32;
                const int bw = d->bit_width;
                const uint8_t *ip = d->lit_p;
                for (int64_t j = 0; j < g; j++) {
                    pqt_unpack32_u32(ip, o32, bw);
                    ip += 4 * bw;
                    o32 += 32;
                }
                d->lit_p = ip;
                d->lit_left -= 32 * g;
                n -= 32 * g;
            } else {
                fill_lit_buf(d);
            }
        } else {
            PQT_TRY(next_run(d, n));
        }
    }
    return PQT_OK;
}

pqt_status pqt_rle_get_u32(pqt_rle_dec *d, int64_t n, uint32_t *out)
{
    return rle_get(d, n, out, 0);
}

pqt_status pqt_rle_get_u8(pqt_rle_dec *d, int64_t n, uint8_t *out)
{
    if (PQT_UNLIKELY(d->bit_width > 8))
        return pqt_err(PQT_MISUSE, "RLE/bit-packed data: 8-bit output for bit width %d",
                       d->bit_width);
    return rle_get(d, n, out, 1);
}

pqt_status pqt_rle_skip(pqt_rle_dec *d, int64_t n)
{
    while (n > 0) {
        if (d->lit_buf_pos < d->lit_buf_len) {
            const int k = (int)min64(n, d->lit_buf_len - d->lit_buf_pos);
            d->lit_buf_pos += k;
            n -= k;
        } else if (d->rle_left > 0) {
            const int64_t k = min64(n, d->rle_left);
            d->rle_left -= k;
            n -= k;
        } else if (d->lit_left > 0) {
            /* Jump over whole 8-value groups (bw bytes each) without unpacking them; only a
             * partial group at the end is unpacked. */
            const int64_t g = min64(n, d->lit_left) / 8;
            if (g > 0) {
                d->lit_p += g * d->bit_width;
                d->lit_left -= 8 * g;
                n -= 8 * g;
            } else {
                fill_lit_buf(d);
            }
        } else {
            PQT_TRY(next_run(d, n));
        }
    }
    return PQT_OK;
}

pqt_status pqt_rle_count_eq(pqt_rle_dec *d, int64_t n, uint32_t value, int64_t *count_ret)
{
    int64_t count = 0;
    while (n > 0) {
        if (d->lit_buf_pos < d->lit_buf_len) {
            const int k = (int)min64(n, d->lit_buf_len - d->lit_buf_pos);
            const uint32_t *src = d->lit_buf + d->lit_buf_pos;
            int c = 0;
            for (int i = 0; i < k; i++) c += src[i] == value;
            count += c;
            d->lit_buf_pos += k;
            n -= k;
        } else if (d->rle_left > 0) {
            const int64_t k = min64(n, d->rle_left);
            if (d->rle_value == value) count += k;
            d->rle_left -= k;
            n -= k;
        } else if (d->lit_left > 0 && d->bit_width == 0) {
            /* A 0-bit packed run holds only zeros and no bytes: a few header bytes can
             * claim billions of values, so count them at once, as skip does. */
            const int64_t k = min64(n, d->lit_left);
            if (value == 0) count += k;
            d->lit_left -= k;
            n -= k;
        } else if (d->lit_left > 0) {
            fill_lit_buf(d);
        } else {
            pqt_status st = next_run(d, n);
            if (PQT_UNLIKELY(st != PQT_OK)) {
                *count_ret = count;
                return st;
            }
        }
    }
    *count_ret = count;
    return PQT_OK;
}
