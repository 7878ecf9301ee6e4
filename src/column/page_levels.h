/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_levels.h - one data page's repetition and definition levels, in one place
 * (layer: column).
 *
 * A page's levels are RLE/bit-packed streams of bit width ceil(log2(max + 1)). A v1 page puts
 * each in front of its values, inside the compressed bytes, behind a 4-byte little-endian
 * length; a v2 page stores them uncompressed before the values, their lengths in the header.
 * Every reader of levels (the page decoder, the direct and part-decompressing paths, and
 * through pqt_chunk_read the writer's struct-source walk) goes through these calls: one
 * parse of the length prefix, one bit width, one decode that refuses a level above the
 * maximum, one count of what is present. docs/levels.md states the rules.
 */
#ifndef PQT_COLUMN_PAGE_LEVELS_H
#define PQT_COLUMN_PAGE_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "column/column.h"

/* Bits per level of a column whose levels go up to max_level (0: no levels stored). */
static inline int pqt_level_bit_width(int max_level)
{
    int w = 0;
    while (max_level >> w)
        w++;
    return w;
}

/* The length a v1 level stream's 4-byte little-endian prefix p[0..4) announces, checked
 * against len, the bytes of the page from the prefix on (only p[0..4) is read: the rest
 * may not be decompressed yet). PQT_CORRUPT when either runs past the page. */
pqt_status pqt_levels_v1_nbytes(const uint8_t *p, size_t len, size_t *nbytes);

/* A v1 page's level stream at the front of *p (*len bytes): [4-byte LE length][RLE data].
 * Sets *lv / *lv_n to the RLE data and advances *p / *len past it. Errors:
 * PQT_UNSUPPORTED_ENCODING when encoding is not RLE (BIT_PACKED levels), PQT_CORRUPT when
 * the prefix or the stream it announces runs past the page. Nothing changes on failure. */
pqt_status pqt_levels_take_v1(const uint8_t **p, size_t *len, int encoding, const uint8_t **lv,
                              size_t *lv_n);

/* Decode n levels of a stream lv[0..lv_n) (no length prefix) into out[0..n). PQT_CORRUPT
 * naming the level when one is above max_level, or when the stream holds fewer than n. */
pqt_status pqt_levels_decode(const uint8_t *lv, size_t lv_n, int max_level, int64_t n,
                             uint8_t *out);

/* Are the n levels of lv one RLE run of max_level (found in O(1))? false when not, or when
 * the stream is malformed (a decode then says why). */
bool pqt_levels_all_max(const uint8_t *lv, size_t lv_n, int max_level, int64_t n);

/* How many of present[0..n) (each byte 0 or 1) are 1: eight per multiply. Inline: the
 * sparse paths call it per kept row. */
static inline int64_t pqt_levels_count_present(const uint8_t *present, int64_t n)
{
    int64_t nn = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, present + i, 8);
        nn += (int64_t)((w * 0x0101010101010101ULL) >> 56);
    }
    for (; i < n; i++) nn += present[i];
    return nn;
}

/* Presence of a flat column's n rows from its definition levels lv[0..lv_n): *npresent
 * rows hold a value; *present is one byte per row (1 = a value) in cx's scratch, or NULL
 * when every row does (one RLE run of max_def: counted in O(1), nothing decoded). The
 * decoded levels are then in cx's defs buffer (pqt_page_levels.defs). */
pqt_status pqt_levels_presence(pqt_chunk_ctx *cx, int max_def, const uint8_t *lv, size_t lv_n,
                               int64_t n, const uint8_t **present, int64_t *npresent);

/* Where the parts of a prepared data page are: v2 level streams (stored uncompressed,
 * before the values), and the bytes that follow them: v1 levels then values, or v2 values.
 * pqt_page_levels_take advances p / len past a v1 page's levels. */
typedef struct pqt_page_parts {
    const uint8_t *rep, *def;
    size_t rep_n, def_n;
    const uint8_t *p;
    size_t len;
} pqt_page_parts;

/* A page's levels, decoded and counted. Arrays live in the chunk context's scratch (valid
 * until its next page). */
typedef struct pqt_page_levels {
    int64_t n;              /* level entries (the header's num_values) */
    const uint8_t *reps;    /* n repetition levels; NULL when max_rep is 0 */
    const uint8_t *defs;    /* n definition levels; NULL when every one is max_def */
    const uint8_t *present; /* n bytes, 1 = the entry holds a value; NULL when all do */
    int64_t npresent;       /* entries holding a value */
    /* lists: the first ncont entries continue the row the page before began (rep != 0
     * before the first 0); nrows_started rows start in the page. Flat: 0 and n. */
    int64_t ncont, nrows_started;
    size_t nbytes; /* bytes of pp->p the levels took (v1: length prefixes included) */
} pqt_page_levels;

/* The levels of data page h (v1 or v2) of a column with max_rep / max_def: a v1 page's
 * taken from the front of pp->p (advanced past them, leaving the values), a v2 page's from
 * pp->rep / pp->def. reps_known: the page's repetition levels, decoded already (a v2 list
 * page, placed before it was decompressed), else NULL. Flat pages count presence only
 * (defs then hold the levels only when some row is null). Errors name the level above the
 * maximum, the stream that runs past the page, or the level encoding not supported. */
pqt_status pqt_page_levels_take(pqt_chunk_ctx *cx, const pqt_page_header *h, int max_rep,
                                int max_def, const uint8_t *reps_known, pqt_page_parts *pp,
                                pqt_page_levels *out);

/* Rows of a list page from its repetition levels reps[0..n) (0 starts a row): *ncont
 * leading entries continue the row before, *nrows rows start in it. */
void pqt_levels_rows(const uint8_t *reps, int64_t n, int64_t *ncont, int64_t *nrows);

/* Levels only: while on, pqt_chunk_read decodes each data page's levels (with every check
 * a read makes) and hands them to the level sink (pqt_chunk_ctx_set_level_sink, flat
 * columns too: their repetition levels are 0), but decodes no value and writes nothing to
 * its destination. Needs a selection of every row. */
void pqt_chunk_ctx_set_levels_only(pqt_chunk_ctx *cx, bool on);

#endif
