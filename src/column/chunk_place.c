/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chunk_place.c - a column chunk read from the file straight into its rows (layer: column).
 *
 * A whole chunk of fixed-width PLAIN values with no null is, in the file, its values with a
 * little framing around them: page headers, the level run that says "no null", and -- for
 * SNAPPY -- a tag in front of each 64 KiB block, since the encoders store an incompressible
 * block (random doubles) as one literal. The usual read copies the chunk into a buffer and
 * then its values into the destination: every byte crosses memory twice. Here each page is
 * read with one small read (its header, the levels, the first tag) and one scattered read
 * (preadv) that lands the values in their rows and the tags in a scratch array, so the
 * values cross memory once (docs/pruning.md, "A chunk read into place").
 *
 * Nothing is taken on trust: the layout the scattered read assumes (block lengths, tags)
 * must add up to the page's compressed size before it is issued, and every tag it brought
 * must be the one assumed. Anything else -- a dictionary, a null, a copy in the stream, a
 * CRC to verify, an index page -- is PQT_NOT_FOUND, and the caller reads the chunk the usual
 * way, which rewrites every row this one wrote and reports any damage.
 */
#include <stdatomic.h>
#include <string.h>

#include "column/column_int.h"
#include "column/page_levels.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_LITTLE_ENDIAN 0 /* PLAIN is little-endian: the values need swapping */
#else
#define HOST_LITTLE_ENDIAN 1
#endif

#define HEAD_NBYTES 4096

static _Atomic int64_t placed_total; /* chunks read into place (tests) */

int64_t pqt_chunk_placed_total(void)
{
    return atomic_load_explicit(&placed_total, memory_order_relaxed);
} /* a page header, the level run and the first tag fit */
#define SNAPPY_BLOCK ((size_t)1 << 16)
#define PLACE_MIN_NBYTES ((int64_t)256 << 10) /* smaller chunks: two reads cost more */

/* The snappy tag of a literal of len bytes: (len - 1) in 0, 1, 2, 3 or 4 extra bytes. */
static size_t literal_tag(size_t len, uint8_t tag[5])
{
    size_t m = len - 1;
    if (m < 60) {
        tag[0] = (uint8_t)(m << 2);
        return 1;
    }
    size_t nb = m < 0x100 ? 1 : m < 0x10000 ? 2 : m < 0x1000000 ? 3 : 4;
    tag[0] = (uint8_t)((59 + nb) << 2);
    for (size_t i = 0; i < nb; i++)
        tag[1 + i] = (uint8_t)(m >> (8 * i));
    return 1 + nb;
}

/* Can this chunk be read into place at all (before any byte of it is read)? */
static bool chunk_qualifies(const pqt_chunk_walk *w, const pqt_sel *sel, const pqt_colbuf *dst,
                            int64_t dst_row, int64_t len)
{
    const pqt_col *c = w->col;
    const pqt_column_meta *cm = w->cm;
    if (w->src->io->mem || sel->kind != PQT_SEL_ALL || len < PLACE_MIN_NBYTES) return false;
    if (!HOST_LITTLE_ENDIAN || c->max_rep > 0 || c->is_list || c->conv != PQT_CONV_NONE)
        return false;
    if (cm->codec != PQT_CODEC_SNAPPY && cm->codec != PQT_CODEC_UNCOMPRESSED) return false;
    if (w->ptype != PQT_PT_INT32 && w->ptype != PQT_PT_INT64 && w->ptype != PQT_PT_FLOAT &&
        w->ptype != PQT_PT_DOUBLE)
        return false;
    if (PQT_KIND_IS_BYTES(dst->elem_kind) || dst->is_list ||
        dst->elem_nbytes != (w->ptype == PQT_PT_INT32 || w->ptype == PQT_PT_FLOAT ? 4u : 8u))
        return false;
    if (dst_row < 0 || dst_row + w->rg_rows > dst->nrows) return false;
    for (int i = 0; i < cm->n_encodings; i++)
        if (cm->encodings[i] != PQT_ENC_PLAIN && cm->encodings[i] != PQT_ENC_RLE &&
            cm->encodings[i] != PQT_ENC_BIT_PACKED)
            return false;
    return true;
}

/* One page's plan: the bytes of its head already read, where its values start in the
 * page's value stream, and the stream's framing. */
typedef struct page_plan {
    int64_t nrows;
    int64_t end;          /* file offset just past the page */
    int64_t stream_at;    /* file offset of the value stream (a snappy stream's preamble) */
    size_t stream_nbytes; /* its compressed bytes */
    size_t values_from;   /* where the values start in the decompressed stream */
    size_t stream_unc;    /* the decompressed stream's bytes */
    bool snappy;
} page_plan;

/* The page whose header starts at head[0] (file offset at, head_n bytes read): checked for a
 * layout this file can place, else PQT_NOT_FOUND. */
static pqt_status plan_page(const pqt_chunk_walk *w, const uint8_t *head, size_t head_n, int64_t at,
                            int64_t chunk_end, page_plan *pp)
{
    pqt_page_header h;
    size_t hlen;
    pqt_err_mute();
    pqt_status st = pqt_meta_decode_page_header(head, head_n, at, &h, &hlen);
    pqt_err_unmute();
    if (st != PQT_OK) return PQT_NOT_FOUND;
    bool v2 = h.type == PQT_PAGE_DATA_V2;
    if ((h.type != PQT_PAGE_DATA && !v2) || h.encoding != PQT_ENC_PLAIN ||
        (h.has_crc && w->src->verify_crc) || h.compressed_size < 0 || h.uncompressed_size < 0 ||
        h.num_values <= 0 || (int64_t)hlen + h.compressed_size > chunk_end - at)
        return PQT_NOT_FOUND;
    const uint8_t *body = head + hlen;
    size_t in_head = head_n - hlen; /* body bytes already read */
    size_t esz = w->ptype == PQT_PT_INT32 || w->ptype == PQT_PT_FLOAT ? 4 : 8;
    *pp = (page_plan){.nrows = h.num_values, .end = at + (int64_t)hlen + h.compressed_size};
    size_t levels_nbytes = 0; /* v2: levels in front of the stream, outside it */
    if (v2) {
        if (h.rep_levels_nbytes != 0 || h.def_levels_nbytes < 0 || h.num_nulls != 0 ||
            h.num_rows != h.num_values || (size_t)h.def_levels_nbytes > in_head ||
            h.def_levels_nbytes > h.compressed_size)
            return PQT_NOT_FOUND;
        levels_nbytes = (size_t)h.def_levels_nbytes;
        if (w->col->max_def > 0 &&
            !pqt_levels_all_max(body, levels_nbytes, w->col->max_def, h.num_values))
            return PQT_NOT_FOUND;
        pp->snappy = h.is_compressed && w->cm->codec == PQT_CODEC_SNAPPY;
    } else {
        pp->snappy = w->cm->codec == PQT_CODEC_SNAPPY;
    }
    pp->stream_at = at + (int64_t)hlen + (int64_t)levels_nbytes;
    pp->stream_nbytes = (size_t)h.compressed_size - levels_nbytes;
    pp->stream_unc = (size_t)h.uncompressed_size - levels_nbytes;
    const uint8_t *s = body + levels_nbytes;
    size_t s_in_head = in_head - levels_nbytes, unc_at = 0; /* bytes before the output */
    if (pp->snappy) {
        uint64_t total = 0;
        size_t i = 0;
        for (;; i++) { /* the preamble: the decompressed length */
            if (i >= s_in_head || i == 5) return PQT_NOT_FOUND;
            total |= (uint64_t)(s[i] & 0x7f) << (7 * i);
            if (!(s[i] & 0x80)) break;
        }
        if (total != pp->stream_unc || total == 0) return PQT_NOT_FOUND;
        unc_at = i + 1; /* the first tag; the levels (v1) are the first literal's start */
        uint8_t tag[5];
        size_t first = total < SNAPPY_BLOCK ? total : SNAPPY_BLOCK, tn = literal_tag(first, tag);
        if (unc_at + tn > s_in_head || memcmp(s + unc_at, tag, tn) != 0) return PQT_NOT_FOUND;
        unc_at += tn;
    } else if (pp->stream_unc != pp->stream_nbytes) {
        return PQT_NOT_FOUND;
    }
    /* literals only: the stream is its content plus framing, never less */
    if (pp->stream_unc > pp->stream_nbytes) return PQT_NOT_FOUND;
    if (!v2 && w->col->max_def > 0) { /* v1: [4-byte length][RLE levels] before the values */
        const uint8_t *p = s + unc_at;
        size_t left = s_in_head - unc_at, lv_n = 0;
        const uint8_t *lv = NULL;
        if (unc_at >= s_in_head || h.def_level_encoding != PQT_ENC_RLE) return PQT_NOT_FOUND;
        pqt_err_mute();
        st = pqt_levels_take_v1(&p, &left, PQT_ENC_RLE, &lv, &lv_n);
        pqt_err_unmute();
        if (st != PQT_OK || !pqt_levels_all_max(lv, lv_n, w->col->max_def, h.num_values))
            return PQT_NOT_FOUND;
        pp->values_from = 4 + lv_n;
    }
    if (pp->stream_unc < pp->values_from ||
        (pp->stream_unc - pp->values_from) / esz != (size_t)h.num_values ||
        (pp->stream_unc - pp->values_from) % esz != 0)
        return PQT_NOT_FOUND;
    return PQT_OK;
}

/* The snappy preamble of a stream of n decompressed bytes (a varint) into p; its length. */
static size_t preamble(size_t n, uint8_t p[10])
{
    size_t k = 0;
    for (;; n >>= 7) {
        p[k++] = (uint8_t)((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
        if (n < 0x80) return k;
    }
}

/* Read page pp's values into out (nrows * esz bytes): its stream, from file offset
 * pp->stream_at, scattered so that values land in out and the framing (preamble, tags, level
 * bytes) in scratch; then the tags read are compared with those the layout assumed. */
static pqt_status place_page(pqt_chunk_walk *w, const page_plan *pp, uint8_t *out)
{
    pqt_chunk_ctx *cx = w->cx;
    const size_t unc = pp->stream_unc, skip = pp->values_from;
    size_t nblocks = pp->snappy ? (unc + SNAPPY_BLOCK - 1) / SNAPPY_BLOCK : 1;
    size_t niov = 3 * nblocks + 1, frame_cap = 10 + 5 * nblocks + skip;
    PQT_TRY(pqt_buf_reserve(&cx->scratch, niov * sizeof(struct iovec) + frame_cap));
    struct iovec *iov = (struct iovec *)cx->scratch.data;
    uint8_t *framing = (uint8_t *)(iov + niov), tag[10];
    size_t n = 0, fn = 0, total = 0, tn;
    if (pp->snappy) {
        tn = preamble(unc, tag);
        iov[n++] = (struct iovec){framing + fn, tn};
        fn += tn;
        total += tn;
    }
    for (size_t b = 0; b < nblocks; b++) {
        size_t lo = b * SNAPPY_BLOCK,
               blen = pp->snappy && unc - lo > SNAPPY_BLOCK ? SNAPPY_BLOCK : unc - lo;
        if (pp->snappy) {
            tn = literal_tag(blen, tag);
            iov[n++] = (struct iovec){framing + fn, tn};
            fn += tn;
            total += tn;
        }
        size_t lv = skip > lo ? (skip - lo < blen ? skip - lo : blen) : 0;
        if (lv > 0) {
            iov[n++] = (struct iovec){framing + fn, lv};
            fn += lv;
            total += lv;
        }
        if (blen > lv) {
            iov[n++] = (struct iovec){out + (lo + lv - skip), blen - lv};
            total += blen - lv;
        }
    }
    if (total != pp->stream_nbytes) return PQT_NOT_FOUND; /* not all literals: it has copies */
    PQT_TRY(pqt_io_readv(w->src->io, iov, (int)n, pp->stream_at));
    w->n_bytes += (int64_t)total;
    if (!pp->snappy) return PQT_OK;
    /* the framing read must be the framing assumed */
    fn = preamble(unc, tag);
    if (memcmp(framing, tag, fn) != 0) return PQT_NOT_FOUND;
    for (size_t b = 0; b < nblocks; b++) {
        size_t lo = b * SNAPPY_BLOCK, blen = unc - lo > SNAPPY_BLOCK ? SNAPPY_BLOCK : unc - lo;
        tn = literal_tag(blen, tag);
        if (memcmp(framing + fn, tag, tn) != 0) return PQT_NOT_FOUND;
        fn += tn + (skip > lo ? (skip - lo < blen ? skip - lo : blen) : 0);
    }
    return PQT_OK;
}

pqt_status pqt_chunk_read_placed(pqt_chunk_walk *w, int64_t start, int64_t len, const pqt_sel *sel,
                                 pqt_colbuf *dst, int64_t dst_row)
{
    if (!chunk_qualifies(w, sel, dst, dst_row, len)) return PQT_NOT_FOUND;
    uint8_t head[HEAD_NBYTES];
    const int64_t end = start + len;
    int64_t at = start, rows = 0;
    while (rows < w->rg_rows) {
        if (at >= end) return PQT_NOT_FOUND;
        size_t hn = end - at < HEAD_NBYTES ? (size_t)(end - at) : HEAD_NBYTES;
        PQT_TRY(pqt_io_read(w->src->io, head, hn, at));
        w->n_bytes += (int64_t)hn;
        page_plan pp;
        if (plan_page(w, head, hn, at, end, &pp) != PQT_OK || pp.nrows > w->rg_rows - rows)
            return PQT_NOT_FOUND;
        uint8_t *out = (uint8_t *)dst->data + (size_t)(dst_row + rows) * dst->elem_nbytes;
        PQT_TRY(place_page(w, &pp, out));
        w->page_no++;
        w->n_pages++;
        w->n_decompressed += pp.snappy;
        w->cx->nvalues_out += pp.nrows;
        if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, dst_row + rows, NULL, pp.nrows);
        rows += pp.nrows;
        at = pp.end;
    }
    atomic_fetch_add_explicit(&placed_total, 1, memory_order_relaxed);
    return PQT_OK;
}
