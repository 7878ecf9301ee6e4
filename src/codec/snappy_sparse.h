/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snappy_sparse.h - a snappy block decoded only where asked (layer: codec).
 *
 * A reader that keeps ten rows of a million-row page needs a few hundred bytes of its
 * 8 MB. Snappy cannot seek, but its tags can be stepped over without writing their output,
 * and the encoders in use (Google's snappy, which Arrow, DuckDB and parquet-java call; Rust's
 * snap; Go's snappy) compress 64 KiB blocks independently, so a copy never reaches back past
 * the start of its block. fill() steps over the tags before the first byte asked for and
 * writes from there: a literal (incompressible doubles are nothing else) is copied only
 * where asked, so a scattered 1% of a page costs its bytes, not the page. A copy that needs
 * bytes stepped over rewinds to the start of its 64 KiB block and writes the block from
 * there. A copy that reaches back past its block (a valid stream from some other encoder) is
 * PQT_NOT_FOUND: decompress the page whole.
 */
#ifndef PQT_SNAPPY_SPARSE_H
#define PQT_SNAPPY_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "pqt.h"

typedef struct pqt_snappy_sparse {
    const uint8_t *in, *in_end; /* the next tag */
    uint8_t *out;               /* out_n bytes; only the filled ranges are ever written */
    size_t out_n;
    size_t pos;        /* the output the tags before `in` produce */
    size_t valid_from; /* out[valid_from, valid_end) is written; valid_end >= pos: the */
    size_t valid_end;  /* literal at `in` may be written in part */
    const uint8_t *blk_in; /* the tag at the start of the current 64 KiB block, and */
    size_t blk_pos;        /* its output position: where a copy's miss rewinds to */
    size_t rewound;        /* the block so rewound (written on from then), or SIZE_MAX */
} pqt_snappy_sparse;

/* Read the block's length preamble, which must be out_n. PQT_CORRUPT otherwise. */
pqt_status pqt_snappy_sparse_init(pqt_snappy_sparse *s, const uint8_t *in, size_t in_n,
                                  uint8_t *out, size_t out_n);

/* Make out[from, to) hold the decompressed bytes. Calls go forward: `from` never below the
 * previous call's. PQT_CORRUPT for a malformed block (the message gives the byte offset of
 * the tag); PQT_NOT_FOUND when a copy reaches back past what was written. */
pqt_status pqt_snappy_sparse_fill(pqt_snappy_sparse *s, size_t from, size_t to);

#endif
