/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snappy_sparse.h - a snappy block decoded only where asked (layer: codec).
 *
 * A reader that keeps ten rows of a million-row page needs a few hundred bytes of its
 * 8 MB. Snappy cannot seek, but its tags can be stepped over without writing their output,
 * and the encoders in use (Google's snappy, which Arrow, DuckDB and parquet-java call; Rust's
 * snap; Go's snappy) compress 64 KiB blocks independently, so a copy never reaches back past
 * the start of its block. fill() therefore writes from the start of the 64 KiB block that
 * holds the first byte asked for, and steps over the rest. A copy that does reach further
 * back (a valid stream from some other encoder) is PQT_NOT_FOUND: decompress the block whole.
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
    size_t valid_from; /* out[valid_from, pos) is written */
} pqt_snappy_sparse;

/* Read the block's length preamble, which must be out_n. PQT_CORRUPT otherwise. */
pqt_status pqt_snappy_sparse_init(pqt_snappy_sparse *s, const uint8_t *in, size_t in_n,
                                  uint8_t *out, size_t out_n);

/* Make out[from, to) hold the decompressed bytes. Calls go forward: `from` never below the
 * previous call's. PQT_CORRUPT for a malformed block (the message gives the byte offset of
 * the tag); PQT_NOT_FOUND when a copy reaches back past what was written. */
pqt_status pqt_snappy_sparse_fill(pqt_snappy_sparse *s, size_t from, size_t to);

#endif
