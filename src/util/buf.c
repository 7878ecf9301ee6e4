/* SPDX-License-Identifier: Apache-2.0 */
/*
 * buf.c - growable buffer and bump arena (layer: util).
 */
#include "buf.h"

#include <string.h>

#include "error.h"
#include "mem.h"

pqt_status pqt_buf_reserve(pqt_buf *b, size_t cap)
{
    if (cap <= b->cap) return PQT_OK;
    if (b->fixed)
        return pqt_err(PQT_CORRUPT, "%zu bytes do not fit the %zu the metadata allows", cap,
                       b->cap);
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap < cap) {
        if (ncap > SIZE_MAX / 2) {
            ncap = cap;
            break;
        }
        ncap *= 2;
    }
    uint8_t *p = pqt_realloc_sized(b->data, b->len, ncap);
    if (!p) return pqt_err(PQT_NOMEM, "out of memory growing a buffer to %zu bytes", ncap);
    b->data = p;
    b->cap = ncap;
    return PQT_OK;
}

pqt_status pqt_buf_append(pqt_buf *b, const void *src, size_t nbytes)
{
    PQT_TRY(pqt_buf_reserve_more(b, nbytes));
    if (nbytes) memcpy(b->data + b->len, src, nbytes);
    b->len += nbytes;
    return PQT_OK;
}

void pqt_buf_free(pqt_buf *b)
{
    if (!b->fixed) pqt_mem_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void pqt_buf_free_recycled(pqt_buf *b)
{
    if (!b->fixed) pqt_mem_free_recycled(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

struct pqt_arena_block {
    pqt_arena_block *next;
    size_t pad_; /* keeps data 16-byte aligned */
    unsigned char data[];
};

#define ARENA_BLOCK_NBYTES (64 * 1024)

void *pqt_arena_alloc(pqt_arena *a, size_t nbytes)
{
    size_t need = (nbytes + 15) & ~(size_t)15;
    if (need < nbytes) return NULL;
    if (!a->head || a->cap - a->used < need) {
        size_t bsize = need > ARENA_BLOCK_NBYTES ? need : ARENA_BLOCK_NBYTES;
        if (bsize > SIZE_MAX - sizeof(pqt_arena_block)) return NULL;
        pqt_arena_block *blk = pqt_malloc(sizeof(pqt_arena_block) + bsize);
        if (!blk) return NULL;
        blk->next = a->head;
        a->head = blk;
        a->used = 0;
        a->cap = bsize;
    }
    void *p = a->head->data + a->used;
    a->used += need;
    memset(p, 0, nbytes);
    return p;
}

void *pqt_arena_alloc_array(pqt_arena *a, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    return pqt_arena_alloc(a, n * size);
}

void pqt_arena_free(pqt_arena *a)
{
    pqt_arena_block *b = a->head;
    while (b) {
        pqt_arena_block *next = b->next;
        pqt_mem_free(b);
        b = next;
    }
    a->head = NULL;
    a->used = a->cap = 0;
}
