/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mem.h - the only way src/ allocates (layer: util).
 *
 * All allocation goes through these wrappers so that a grep lint can forbid raw
 * malloc in src/, sizes are overflow-checked in one place, and tests can inject
 * allocation failures (pqt_mem_fail_after).
 */
#ifndef PQT_UTIL_MEM_H
#define PQT_UTIL_MEM_H

#include <stddef.h>
#include <stdint.h>

void *pqt_malloc(size_t nbytes);
void *pqt_calloc(size_t n, size_t size);
void *pqt_realloc(void *p, size_t nbytes);
/* realloc knowing the old size: a buffer growing past a few MiB moves to huge pages, and
 * the blocks it outgrows go to the large-block cache (mem.c). */
void *pqt_realloc_sized(void *p, size_t old_nbytes, size_t nbytes);
/* Page-aligned memory (4 KiB; 2 MiB and huge pages from 4 MiB on), freed with pqt_mem_free:
 * read buffers whose copies run at full speed and fault once per page at most. */
void *pqt_malloc_pages(size_t nbytes);
/* n * size with overflow check; NULL on overflow or failure. */
void *pqt_malloc_array(size_t n, size_t size);
void pqt_mem_free(void *p);
/* Free a block of pqt_malloc's whose like-sized successor is soon allocated again (a
 * decompressed page larger than a thread keeps): from 4 MiB on it goes to the large-block
 * cache, so the next one is not memory fresh from the kernel, zeroed on first touch. */
void pqt_mem_free_recycled(void *p);
char *pqt_strdup(const char *s);
char *pqt_strndup(const char *s, size_t n);

/* pqt_free (public) may keep a block of more than 32 MiB on a 2 MiB boundary for the next
 * large pqt_malloc (mem.c); this gives every block kept back to the C library. */
void pqt_mem_cache_trim(void);
/* 1 when freed large blocks are kept for reuse (0 under AddressSanitizer). */
int pqt_mem_cache_enabled(void);
/* Blocks and bytes the cache holds now (tests). */
void pqt_mem_cache_stats(int *nblocks_ret, size_t *nbytes_ret);

/* Testing hook: make the allocation after the next `n` ones fail (-1 = never). */
void pqt_mem_fail_after(long n);

#endif
