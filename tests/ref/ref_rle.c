/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ref_rle.c - slow, spec-shaped reference for the RLE / bit-packed hybrid (tests only).
 *
 * Follows parquet-format Encodings.md "Run Length Encoding / Bit-Packing Hybrid" literally:
 * a ULEB128 run header, then either one repeated value in ceil(bit_width / 8) bytes or
 * groups of 8 values read one bit at a time, LSB first. It shares no code with
 * src/encoding/rle_bp.c, so the two can be compared on any input (differential tests).
 * Same acceptance rules as the library: a value is there if all its bits are inside the
 * data (a bit-packed run may be cut short of its header's group count), a run header is at
 * most 32 bits, an RLE value must fit its bit width.
 *
 * Also holds a simple reference ENCODER used to build test pages. Tests #include this file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define REF_UNUSED __attribute__((unused))
#else
#define REF_UNUSED
#endif

/* Bit i of the data (LSB-first within each byte). */
static int ref_bit(const uint8_t *p, uint64_t i) { return (p[i / 8] >> (i % 8)) & 1; }

/* Decode `count` values; returns 0 on success, -1 where the library must say PQT_CORRUPT. */
REF_UNUSED static int ref_rle_decode(const uint8_t *p, size_t n, int bw, int64_t count,
                                     uint32_t *out)
{
    size_t pos = 0;
    int64_t got = 0;
    if (bw < 0 || bw > 32) return -1;
    while (got < count) {
        /* run header */
        uint64_t h = 0;
        int nb = 0;
        for (;;) {
            if (pos >= n) return -1;
            uint8_t b = p[pos++];
            h |= (uint64_t)(b & 0x7f) << (7 * nb);
            nb++;
            if (!(b & 0x80)) break;
            if (nb == 5) return -1;
        }
        if (h > 0xffffffffull) return -1;
        if (h & 1) {
            uint64_t nvals = (h >> 1) * 8;
            uint64_t bitpos = (uint64_t)pos * 8;
            uint64_t run_bytes = (h >> 1) * (uint64_t)bw;
            for (uint64_t i = 0; i < nvals && got < count; i++) {
                if (bw > 0 && bitpos + (uint64_t)bw > (uint64_t)n * 8) return -1;
                uint32_t v = 0;
                for (int b = 0; b < bw; b++) v |= (uint32_t)ref_bit(p, bitpos++) << b;
                out[got++] = v;
            }
            pos = run_bytes > n - pos ? n : pos + (size_t)run_bytes;
        } else {
            int vbytes = (bw + 7) / 8;
            if ((size_t)vbytes > n - pos) return -1;
            uint32_t v = 0;
            for (int i = 0; i < vbytes; i++) v |= (uint32_t)p[pos + i] << (8 * i);
            pos += (size_t)vbytes;
            if (bw < 32 && (v >> bw) != 0) return -1;
            for (uint64_t i = 0; i < (h >> 1) && got < count; i++) out[got++] = v;
        }
    }
    return 0;
}

/* ---- reference encoder ---- */

typedef struct ref_out {
    uint8_t *data;
    size_t len, cap;
} ref_out;

static void ref_put(ref_out *o, uint8_t b)
{
    if (o->len == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 64;
        o->data = realloc(o->data, o->cap);
        if (!o->data) abort();
    }
    o->data[o->len++] = b;
}

static void ref_put_varint(ref_out *o, uint64_t v)
{
    while (v >= 0x80) {
        ref_put(o, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    ref_put(o, (uint8_t)v);
}

REF_UNUSED static void ref_rle_run(ref_out *o, int bw, uint32_t v, uint64_t count)
{
    ref_put_varint(o, count << 1);
    for (int i = 0; i < (bw + 7) / 8; i++) ref_put(o, (uint8_t)(v >> (8 * i)));
}

/* Bit-pack vals[0..k) as ceil(k/8) groups, padding with zeros. If `truncate`, drop the
 * trailing bytes that hold only padding (as some writers do at the end of the data). */
REF_UNUSED static void ref_bp_run(ref_out *o, int bw, const uint32_t *vals, size_t k,
                                  int truncate)
{
    size_t groups = (k + 7) / 8;
    ref_put_varint(o, ((uint64_t)groups << 1) | 1);
    size_t nbytes = groups * (size_t)bw;
    size_t start = o->len;
    for (size_t i = 0; i < nbytes; i++) ref_put(o, 0);
    uint64_t bit = 0;
    for (size_t i = 0; i < k; i++)
        for (int b = 0; b < bw; b++, bit++)
            if ((vals[i] >> b) & 1) o->data[start + bit / 8] |= (uint8_t)(1u << (bit % 8));
    if (truncate) o->len = start + (size_t)((bit + 7) / 8);
}

/* Encode vals with a random mix of RLE and bit-packed runs. rnd() supplies randomness.
 * Repeats of length >= 8 become RLE runs (sometimes split in two); everything else is packed
 * in multiple-of-8 chunks. Only the final run may be padded. */
REF_UNUSED static void ref_rle_encode(ref_out *o, int bw, const uint32_t *vals, size_t n,
                                      uint64_t (*rnd)(void))
{
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && vals[j] == vals[i]) j++;
        if (j - i >= 8 && (rnd() % 4) != 0) {
            size_t len = j - i;
            if (len > 2 && rnd() % 3 == 0) {
                size_t a = 1 + rnd() % (len - 1);
                ref_rle_run(o, bw, vals[i], a);
                ref_rle_run(o, bw, vals[i], len - a);
            } else {
                ref_rle_run(o, bw, vals[i], len);
            }
            i = j;
            continue;
        }
        /* a literal run of a multiple of 8 values (only the last run may be shorter) */
        size_t k = 8 * (1 + (size_t)(rnd() % (rnd() % 4 ? 12 : 100)));
        if (k > n - i) k = n - i;
        ref_bp_run(o, bw, vals + i, k, i + k == n && rnd() % 2);
        i += k;
    }
}
