/* SPDX-License-Identifier: Apache-2.0 */
/*
 * buf.h - growable byte buffer and bump arena (layer: util).
 *
 * pqt_buf is the reusable scratch for decompressed pages and string bytes: it
 * grows geometrically and is never shrunk, so steady-state reads do not allocate.
 * pqt_arena holds footer metadata: many small allocations, one free.
 */
#ifndef PQT_UTIL_BUF_H
#define PQT_UTIL_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pqt.h"

typedef struct pqt_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    bool fixed; /* a window into memory owned elsewhere: never reallocated or freed here */
} pqt_buf;

/* Make room for at least `cap` bytes in total (contents kept). */
pqt_status pqt_buf_reserve(pqt_buf *b, size_t cap);
/* Make room for `extra` more bytes after len. */
static inline pqt_status pqt_buf_reserve_more(pqt_buf *b, size_t extra)
{
    if (b->cap - b->len >= extra) return PQT_OK;
    return pqt_buf_reserve(b, b->len + extra);
}
pqt_status pqt_buf_append(pqt_buf *b, const void *src, size_t nbytes);
void pqt_buf_free(pqt_buf *b);
/* Free b's bytes to the large-block cache (mem.h) when a like-sized buffer follows soon. */
void pqt_buf_free_recycled(pqt_buf *b);

typedef struct pqt_arena_block pqt_arena_block;
typedef struct pqt_arena {
    pqt_arena_block *head;
    size_t used, cap;
} pqt_arena;

/* 16-byte-aligned, zeroed memory that lives until pqt_arena_free. NULL on failure/overflow. */
void *pqt_arena_alloc(pqt_arena *a, size_t nbytes);
void *pqt_arena_alloc_array(pqt_arena *a, size_t n, size_t size);
void pqt_arena_free(pqt_arena *a);

#endif
