/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_direct.c - decompress a PLAIN fixed-width page straight into its destination
 * (layer: column).
 *
 * The common path decompresses a page into scratch and then copies its values into the
 * column: two passes over every byte. When a flat page is wholly selected, PLAIN, and its
 * values need no conversion, the values' final bytes are exactly the decompressed bytes,
 * so they can be written in place:
 *   - a stream of values only (data page v2, whose levels are stored uncompressed, or a
 *     v1 page of a required column) is decompressed by the codec straight into the column;
 *   - a v1 page whose definition levels precede the values inside one SNAPPY stream is
 *     parsed here when the stream holds only literals (incompressible data such as random
 *     doubles, which snappy stores verbatim): the level bytes go to scratch and the literal
 *     bytes of the values are copied from the file into the column once.
 * Anything else returns PQT_NOT_FOUND ("not applicable") and the caller takes the common
 * path. Parquet-format: data pages; snappy's format description (framing_format.txt,
 * format_description.txt of the snappy project) for the literal elements.
 */
#include <string.h>

#include "column/column_int.h"
#include "column/page_levels.h"
#include "util/error.h"

#define WHOLE_STREAM UINT64_MAX

/* Walk the literal elements of the snappy stream src[0..n): copy bytes [a, b) of its output
 * into out, or with out NULL and b = WHOLE_STREAM only check that the stream is all
 * literals adding up to its stated length (before anything is written, so a fallback leaves
 * the destination untouched). PQT_NOT_FOUND for a copy element (libsnappy's job);
 * PQT_CORRUPT for a malformed stream. *total_ret: the length stated in the preamble. */
static pqt_status snappy_literals(const uint8_t *src, size_t n, uint64_t a, uint64_t b,
                                  uint8_t *out, uint64_t *total_ret)
{
    const uint8_t *p = src, *end = src + n;
    uint64_t total = 0;
    for (int shift = 0;; shift += 7) {
        if (p == end || shift > 28) return pqt_err(PQT_CORRUPT, "SNAPPY data: bad length preamble");
        uint8_t c = *p++;
        total |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) break;
    }
    *total_ret = total;
    uint64_t pos = 0;
    while (p < end && pos < b) {
        uint8_t tag = *p++;
        if (tag & 3) return PQT_NOT_FOUND; /* a back-reference */
        uint64_t len = tag >> 2;
        if (len >= 60) {
            int nb = (int)len - 59;
            if (end - p < nb) return pqt_err(PQT_CORRUPT, "SNAPPY data: literal length cut short");
            len = 0;
            for (int i = 0; i < nb; i++) len |= (uint64_t)p[i] << (8 * i);
            p += nb;
        }
        len += 1;
        if ((uint64_t)(end - p) < len) return pqt_err(PQT_CORRUPT, "SNAPPY data: literal past the end");
        uint64_t s = pos > a ? pos : a, e = b - pos < len ? b : pos + len;
        if (out && s < e) memcpy(out + (s - a), p + (s - pos), (size_t)(e - s));
        p += len;
        pos += len;
    }
    if (b == WHOLE_STREAM) {
        if (pos != total)
            return pqt_err(PQT_CORRUPT, "SNAPPY data holds %llu bytes, its preamble says %llu",
                           (unsigned long long)pos, (unsigned long long)total);
        return PQT_OK;
    }
    if (pos < b) return pqt_err(PQT_CORRUPT, "SNAPPY data ends before its stated length");
    return PQT_OK;
}

static bool direct_kind(const pqt_col *col, int ptype, const pqt_colbuf *dst)
{
    if (col->conv != PQT_CONV_NONE || dst->is_list || PQT_KIND_IS_BYTES(dst->elem_kind)) return false;
    if (ptype != PQT_PT_INT32 && ptype != PQT_PT_INT64 && ptype != PQT_PT_FLOAT &&
        ptype != PQT_PT_DOUBLE)
        return false;
    return dst->elem_nbytes == (ptype == PQT_PT_INT32 || ptype == PQT_PT_FLOAT ? 4u : 8u);
}

/* Levels already decoded into present (or none null): spread and mark validity. */
static void finish(const pqt_page_direct *pd, pqt_colbuf *dst, int64_t row)
{
    uint8_t *base = (uint8_t *)dst->data + (size_t)row * dst->elem_nbytes;
    if (pd->present && pd->nvalues < pd->nrows)
        pqt_page_expand(base, dst->elem_nbytes, pd->present, pd->nrows, pd->nvalues);
    if (dst->validity) pqt_bitmap_set_from_bytes(dst->validity, row, pd->present, pd->nrows);
}

/* A v1 page of a column with no null: its stream is [4-byte length L][L level bytes][values],
 * and the values' place is known, so the codec may write the whole stream ending exactly
 * there, with the small level prefix landing on the end of the rows before. Those rows are
 * this thread's own (owns_rows_before): their bytes are saved and put back. If the prefix is
 * not what no-null data implies, the page goes the common way (it rewrites its own rows). */
static pqt_status levels_before_values(pqt_chunk_ctx *cx, const pqt_col *col, int codec,
                                       pqt_page_direct *pd, pqt_colbuf *dst, int64_t row)
{
    enum { MAX_PREFIX = 4096 };
    if (!pd->owns_rows_before || !pd->expect_no_nulls) return PQT_NOT_FOUND;
    size_t esz = dst->elem_nbytes;
    int64_t prefix = pd->uncompressed_nbytes - pd->nrows * (int64_t)esz;
    if (prefix < 5 || prefix > MAX_PREFIX || row * (int64_t)esz < prefix) return PQT_NOT_FOUND;
    uint8_t saved[MAX_PREFIX];
    uint8_t *start = (uint8_t *)dst->data + (size_t)row * esz - prefix;
    memcpy(saved, start, (size_t)prefix);
    pqt_status st = pqt_codec_decompress(cx->codec, codec, pd->src, pd->src_nbytes, start,
                                         (size_t)pd->uncompressed_nbytes);
    size_t lv = 0;
    if (st == PQT_OK && pqt_levels_v1_nbytes(start, (size_t)prefix, &lv) == PQT_OK &&
        (int64_t)lv + 4 == prefix) {
        st = pqt_buf_reserve(&cx->page, (size_t)lv + 8);
        if (st == PQT_OK) memcpy(cx->page.data, start + 4, lv);
    } else if (st == PQT_OK) {
        st = PQT_NOT_FOUND;
    }
    memcpy(start, saved, (size_t)prefix);
    if (st != PQT_OK) return st;
    PQT_TRY(pqt_levels_presence(cx, col->max_def, cx->page.data, lv, pd->nrows, &pd->present,
                                &pd->nvalues));
    if (pd->nvalues != pd->nrows) return PQT_NOT_FOUND; /* nulls after all: the common path */
    finish(pd, dst, row);
    return PQT_OK;
}

pqt_status pqt_page_decode_direct(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int codec,
                           pqt_page_direct *pd, pqt_colbuf *dst, int64_t row)
{
    if (!direct_kind(col, ptype, dst) || pd->encoding != PQT_ENC_PLAIN) return PQT_NOT_FOUND;
    if (row + pd->nrows > dst->nrows) return PQT_NOT_FOUND;
    size_t esz = dst->elem_nbytes;
    uint8_t *base = (uint8_t *)dst->data + (size_t)row * esz;

    if (pd->values_only) {
        /* levels (if any) are known: the stream must be exactly the non-null values */
        if ((uint64_t)pd->uncompressed_nbytes != (uint64_t)pd->nvalues * esz) return PQT_NOT_FOUND;
        PQT_TRY(pqt_codec_decompress(cx->codec, codec, pd->src, pd->src_nbytes, base,
                                     (size_t)pd->uncompressed_nbytes));
        finish(pd, dst, row);
        return PQT_OK;
    }

    /* v1: [4-byte level length][levels][values] inside one compressed stream */
    if (pd->max_def <= 0) return PQT_NOT_FOUND;
    if (codec != PQT_CODEC_SNAPPY) return levels_before_values(cx, col, codec, pd, dst, row);
    uint64_t total = 0;
    pqt_status st = snappy_literals(pd->src, pd->src_nbytes, 0, WHOLE_STREAM, NULL, &total);
    if (st == PQT_NOT_FOUND) return levels_before_values(cx, col, codec, pd, dst, row);
    if (st != PQT_OK) return st;
    if (total != (uint64_t)pd->uncompressed_nbytes || total < 4)
        return pqt_err(PQT_CORRUPT, "SNAPPY page decompresses to %llu bytes, its header says %lld",
                       (unsigned long long)total, (long long)pd->uncompressed_nbytes);
    uint8_t lenbuf[4];
    PQT_TRY(snappy_literals(pd->src, pd->src_nbytes, 0, 4, lenbuf, &total));
    size_t lv = 0;
    PQT_TRY(pqt_levels_v1_nbytes(lenbuf, (size_t)total, &lv));
    PQT_TRY(pqt_buf_reserve(&cx->page, (size_t)lv + 8));
    PQT_TRY(snappy_literals(pd->src, pd->src_nbytes, 4, 4 + lv, cx->page.data, &total));
    PQT_TRY(pqt_levels_presence(cx, col->max_def, cx->page.data, (size_t)lv, pd->nrows,
                                &pd->present, &pd->nvalues));
    if (total - 4 - lv != (uint64_t)pd->nvalues * esz) return PQT_NOT_FOUND;
    PQT_TRY(snappy_literals(pd->src, pd->src_nbytes, 4 + lv, total, base, &total));
    finish(pd, dst, row);
    return PQT_OK;
}
