/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snappy_sparse.c - a snappy block decoded only where asked (layer: codec; snappy_sparse.h).
 *
 * The block format (snappy's format_description.txt): a varint of the uncompressed length,
 * then tags. The low two bits of a tag's first byte give its kind: 00 a literal of
 * (byte >> 2) + 1 bytes (60..63: the length - 1 follows in 1..4 little-endian bytes), 01 a
 * copy of 4 + ((byte >> 2) & 7) bytes with an 11-bit offset, 10 and 11 copies of
 * (byte >> 2) + 1 bytes with a 2- or 4-byte offset.
 */
#include "codec/snappy_sparse.h"

#include <string.h>

#include "codec_int.h"
#include "format/meta.h"
#include "util/error.h"
#include "util/le.h"

#define BLOCK ((size_t)1 << 16) /* what the encoders compress independently */

typedef struct {
    size_t len;             /* output bytes */
    size_t nbytes;          /* input bytes, the literal's data included */
    size_t offset;          /* copies: how far back */
    const uint8_t *literal; /* literals: their data; NULL for a copy */
} tag;

static pqt_status truncated(const pqt_snappy_sparse *s)
{
    return pqt_err(PQT_CORRUPT, "SNAPPY data ends after %zu of the %zu bytes it promises",
                   s->pos, s->out_n);
}

/* The tag at p (p < end). PQT_CORRUPT when it runs past the input. */
static inline pqt_status read_tag(const uint8_t *p, const uint8_t *end, tag *t)
{
    unsigned b = p[0];
    size_t left = (size_t)(end - p);
    switch (b & 3) {
    case 0: {
        size_t len = (b >> 2) + 1, hdr = 1;
        if (len > 60) {
            size_t nb = len - 60;
            if (PQT_UNLIKELY(left < 1 + nb)) return PQT_CORRUPT;
            len = 0;
            for (size_t i = 0; i < nb; i++) len |= (size_t)p[1 + i] << (8 * i);
            len += 1;
            hdr += nb;
        }
        if (PQT_UNLIKELY(left - hdr < len)) return PQT_CORRUPT;
        *t = (tag){.len = len, .nbytes = hdr + len, .offset = 0, .literal = p + hdr};
        return PQT_OK;
    }
    case 1:
        if (PQT_UNLIKELY(left < 2)) return PQT_CORRUPT;
        *t = (tag){.len = 4 + ((b >> 2) & 7), .nbytes = 2, .offset = ((size_t)(b >> 5) << 8) | p[1]};
        return PQT_OK;
    case 2:
        if (PQT_UNLIKELY(left < 3)) return PQT_CORRUPT;
        *t = (tag){.len = (b >> 2) + 1, .nbytes = 3, .offset = pqt_load_le16(p + 1)};
        return PQT_OK;
    default:
        if (PQT_UNLIKELY(left < 5)) return PQT_CORRUPT;
        *t = (tag){.len = (b >> 2) + 1, .nbytes = 5,
                   .offset = pqt_load_le32(p + 1)};
        return PQT_OK;
    }
}

pqt_status pqt_snappy_sparse_init(pqt_snappy_sparse *s, const uint8_t *in, size_t in_n,
                                  uint8_t *out, size_t out_n)
{
    uint64_t v = 0;
    size_t i = 0;
    for (;; i++) {
        if (i == in_n || i == 5)
            return pqt_err(PQT_CORRUPT, "SNAPPY data (%zu bytes) has no valid length preamble",
                           in_n);
        v |= (uint64_t)(in[i] & 0x7f) << (7 * i);
        if (!(in[i] & 0x80)) break;
    }
    if (v > UINT32_MAX)
        return pqt_err(PQT_CORRUPT, "SNAPPY data (%zu bytes) has no valid length preamble", in_n);
    if (v != out_n) return pqt_codec_size_mismatch(PQT_CODEC_SNAPPY, (size_t)v, out_n);
    *s = (pqt_snappy_sparse){.in = in + i + 1, .in_end = in + in_n, .out = out, .out_n = out_n,
                             .blk_in = in + i + 1, .rewound = SIZE_MAX};
    return PQT_OK;
}

/* Step over the tags that end at or before `stop`, writing nothing: a table-free decode
 * of each tag's length and size, which is all a skipped tag costs. */
static pqt_status skip_to(pqt_snappy_sparse *s, size_t stop)
{
    const uint8_t *in = s->in, *end = s->in_end;
    size_t pos = s->pos;
    pqt_status st = PQT_OK;
    while (pos < stop) {
        if (PQT_UNLIKELY(in >= end)) {
            st = PQT_CORRUPT;
            break;
        }
        tag t;
        if (PQT_UNLIKELY(read_tag(in, end, &t) != PQT_OK)) {
            st = PQT_CORRUPT;
            break;
        }
        if (pos + t.len > stop) break; /* it reaches into what is wanted: the writer's */
        in += t.nbytes;
        pos += t.len;
    }
    s->in = in;
    s->pos = pos;
    return st == PQT_OK ? PQT_OK : truncated(s);
}

/* Write until out[.., to) is done, from valid_end on: a literal only as far as asked (the
 * rest of it stays for a later call), a copy whole, from its source, which must be written. */
static pqt_status write_to(pqt_snappy_sparse *s, size_t to)
{
    while (s->valid_end < to) {
        if (PQT_UNLIKELY(s->in >= s->in_end)) return truncated(s);
        tag t;
        if (PQT_UNLIKELY(read_tag(s->in, s->in_end, &t) != PQT_OK)) return truncated(s);
        size_t end = s->pos + t.len;
        if (PQT_UNLIKELY(end > s->out_n))
            return pqt_err(PQT_CORRUPT, "SNAPPY data writes past the %zu bytes it promises",
                           s->out_n);
        size_t a = s->pos > s->valid_end ? s->pos : s->valid_end;
        if (t.literal) {
            size_t b = end < to ? end : to;
            memcpy(s->out + a, t.literal + (a - s->pos), b - a);
            s->valid_end = b;
            if (b < end) return PQT_OK; /* the rest of this literal is not asked for yet */
        } else {
            size_t n = end - a;
            if (PQT_UNLIKELY(t.offset == 0 || t.offset > a))
                return pqt_err(PQT_CORRUPT, "SNAPPY copy at output byte %zu reaches %zu bytes "
                                            "back",
                               a, t.offset);
            if (a - t.offset < s->valid_from) return PQT_NOT_FOUND; /* its source was skipped */
            uint8_t *d = s->out + a;
            const uint8_t *from = d - t.offset;
            if (t.offset >= n) {
                memcpy(d, from, n);
            } else {
                for (size_t i = 0; i < n; i++) d[i] = from[i]; /* overlapping: a repeat */
            }
            s->valid_end = end;
        }
        s->in += t.nbytes;
        s->pos = end;
    }
    return PQT_OK;
}

pqt_status pqt_snappy_sparse_fill(pqt_snappy_sparse *s, size_t from, size_t to)
{
    if (from > to || to > s->out_n)
        return pqt_err(PQT_CORRUPT, "SNAPPY data: bytes %zu..%zu asked of a %zu-byte block", from,
                       to, s->out_n);
    if (from == to) return PQT_OK;
    if (from < s->valid_from) return PQT_NOT_FOUND;
    if (to <= s->valid_end) return PQT_OK;
    size_t block = from & ~(BLOCK - 1);
    /* a gap: step over the tags that end before it, unless a copy's miss rewound this block
     * already: then go on writing it, or every later run of the block would step, miss a
     * copy's source and rewind again */
    if (from > s->valid_end && block != s->rewound) {
        if (block > s->pos) {
            PQT_TRY(skip_to(s, block));
            s->blk_in = s->in;
            s->blk_pos = s->pos;
        }
        PQT_TRY(skip_to(s, from));
        s->valid_from = s->valid_end = from;
    }
    pqt_status st = write_to(s, to);
    if (st != PQT_NOT_FOUND || s->valid_from <= s->blk_pos) return st;
    /* a copy needs bytes that were stepped over: write its block from the start */
    s->in = s->blk_in;
    s->pos = s->valid_from = s->valid_end = s->blk_pos;
    s->rewound = block;
    return write_to(s, to);
}
