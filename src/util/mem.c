/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mem.c - allocation wrappers with overflow checks and failure injection (layer: util), and
 * the large-block cache: freed blocks of 4 MiB and more are kept for the next large request.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* madvise, malloc_usable_size */
#endif
#include "mem.h"

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pqt.h"

static _Thread_local long fail_countdown = -1;

static int injected_failure(void)
{
    if (fail_countdown < 0) return 0;
    if (fail_countdown == 0) return 1;
    fail_countdown--;
    return 0;
}

void pqt_mem_fail_after(long n) { fail_countdown = n; }

/* Column buffers are large and written once: on huge pages they take one page fault per
 * 2 MiB instead of one per 4 KiB (transparent huge pages in madvise mode). */
#define HUGE_ALLOC_NBYTES ((size_t)4 << 20)
#define HUGE_PAGE_NBYTES ((size_t)2 << 20)

/* ---- the large-block cache ----
 * Memory fresh from the kernel is zeroed on first touch, a 2 MiB page at a time: reading a
 * column into new memory spent as long zeroing it as decoding it (the README's pattern,
 * pqt_table_get_alloc then pqt_free, in a loop over runs or files, paid it every time).
 * glibc keeps freed blocks for reuse up to its largest dynamic mmap threshold (32 MiB) and
 * maps every larger one afresh. So pqt_free (the caller giving back what a *_alloc call
 * handed out) keeps a freed block of more than CACHE_MIN_NBYTES that starts on a 2 MiB
 * boundary (pqt_malloc's large blocks) instead of returning it to the C library, and
 * pqt_malloc hands it out again for a request it can hold with at most half of it unused.
 * The library's own plain frees (pqt_mem_free) do not feed it, since most have no like-sized
 * successor and would only sit there, counted in the resident set; the frees that do are
 * named for it: pqt_mem_free_recycled (a used-up read, a page buffer given back, a read
 * buffer outgrown) and the blocks a growing buffer leaves behind in pqt_realloc_sized (a
 * string column's bytes grow the same way in every row group). Smaller blocks stay with glibc: kept here, their frees would no longer
 * raise its thresholds, and it would then trim and re-grow its heap (and fault it in again)
 * on every read.
 * Bounded: CACHE_NBLOCKS blocks and CACHE_MAX_NBYTES bytes, the oldest given back first; a
 * kept block is marked MADV_FREE, so under memory pressure the kernel takes its pages back
 * instead of swapping (a reuse then faults them in again, zeroed). A block's size comes from
 * malloc_usable_size, so nothing is recorded per live block, and a block from anywhere in the
 * malloc family is a valid entry. Off under AddressSanitizer: its quarantine must see every
 * free to catch a use after it. */
#if defined(__SANITIZE_ADDRESS__)
#define CACHE_ENABLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACHE_ENABLED 0
#endif
#endif
#ifndef CACHE_ENABLED
#define CACHE_ENABLED 1
#endif
#define CACHE_NBLOCKS 16
#define CACHE_MIN_NBYTES ((size_t)32 << 20)
#define CACHE_MAX_NBYTES ((size_t)1 << 30)

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER; /* guards both lists below */

typedef struct kept_block {
    void *p;
    size_t nbytes; /* usable bytes */
} kept_block;

/* Freed blocks kept for reuse, oldest first: at most cap of them and max_nbytes in all. */
typedef struct block_list {
    kept_block *b;
    int n, cap;
    size_t nbytes, max_nbytes;
} block_list;

static kept_block large_blocks[CACHE_NBLOCKS]; /* nbytes a multiple of HUGE_PAGE_NBYTES */
static block_list large = {large_blocks, 0, CACHE_NBLOCKS, 0, CACHE_MAX_NBYTES};

static void list_remove(block_list *l, int i)
{
    l->nbytes -= l->b[i].nbytes;
    memmove(&l->b[i], &l->b[i + 1], (size_t)(l->n - i - 1) * sizeof l->b[0]);
    l->n--;
}

/* The smallest kept block holding `nbytes` without wasting more than it uses, its address a
 * multiple of align, or NULL. */
static void *list_take(block_list *l, size_t nbytes, size_t align)
{
    if (!CACHE_ENABLED) return NULL;
    void *p = NULL;
    pthread_mutex_lock(&cache_mu);
    int best = -1;
    for (int i = 0; i < l->n; i++)
        if (l->b[i].nbytes >= nbytes && l->b[i].nbytes / 2 <= nbytes &&
            ((uintptr_t)l->b[i].p & (align - 1)) == 0 &&
            (best < 0 || l->b[i].nbytes < l->b[best].nbytes))
            best = i;
    if (best >= 0) {
        p = l->b[best].p;
        list_remove(l, best);
    }
    pthread_mutex_unlock(&cache_mu);
    return p;
}

/* Keep p (nbytes usable), giving the oldest blocks back to the C library to make room. */
static void list_put(block_list *l, void *p, size_t nbytes)
{
    void *evicted[16]; /* no list holds more (checked below) */
    int nevicted = 0;
    pthread_mutex_lock(&cache_mu);
    while (l->n > 0 && (l->n == l->cap || l->nbytes + nbytes > l->max_nbytes)) {
        evicted[nevicted++] = l->b[0].p;
        list_remove(l, 0);
    }
    l->b[l->n].p = p;
    l->b[l->n].nbytes = nbytes;
    l->n++;
    l->nbytes += nbytes;
    pthread_mutex_unlock(&cache_mu);
    for (int k = 0; k < nevicted; k++)
        free(evicted[k]);
}

static void list_trim(block_list *l)
{
    pthread_mutex_lock(&cache_mu);
    while (l->n > 0) {
        free(l->b[l->n - 1].p);
        list_remove(l, l->n - 1);
    }
    pthread_mutex_unlock(&cache_mu);
}

/* Keep p (being freed) when it is a block of more than min_nbytes; 0 when the caller must
 * free it. */
static int cache_put(void *p, size_t min_nbytes)
{
    if (!CACHE_ENABLED || !p || ((uintptr_t)p & (HUGE_PAGE_NBYTES - 1)) != 0) return 0;
    size_t nbytes = malloc_usable_size(p) & ~(HUGE_PAGE_NBYTES - 1);
    if (nbytes <= min_nbytes || nbytes > CACHE_MAX_NBYTES) return 0;
#ifdef MADV_FREE
    madvise(p, nbytes, MADV_FREE);
#endif
    list_put(&large, p, nbytes);
    return 1;
}

/* ---- the medium-block cache ----
 * Read buffers and page buffers of 256 KiB to 4 MiB (a zstd file's chunks and pages) are
 * given back when their read or file is done. In a worker thread's arena glibc then trims
 * them away, and the next read -- the next column, the next file -- faults fresh zeroed
 * pages in again (a thousand page faults per 1% read of a zstd file at 2 threads). So the
 * frees named for reuse (pqt_mem_free_recycled) keep such blocks too, a few and bounded in
 * bytes, for the next pqt_malloc or pqt_malloc_pages they fit. */
#define MED_MIN_NBYTES ((size_t)256 << 10)
#define MED_NBLOCKS 16
#define MED_MAX_TOTAL ((size_t)8 << 20)

_Static_assert(CACHE_NBLOCKS <= 16 && MED_NBLOCKS <= 16, "list_put evicts at most 16 blocks");

static kept_block med_blocks[MED_NBLOCKS];
static block_list med = {med_blocks, 0, MED_NBLOCKS, 0, MED_MAX_TOTAL};

static void *med_take(size_t nbytes, size_t align)
{
    return nbytes < MED_MIN_NBYTES / 2 ? NULL : list_take(&med, nbytes, align);
}

static int med_put(void *p)
{
    if (!CACHE_ENABLED || !p) return 0;
    size_t nbytes = malloc_usable_size(p);
    if (nbytes < MED_MIN_NBYTES || nbytes >= HUGE_ALLOC_NBYTES) return 0;
    list_put(&med, p, nbytes);
    return 1;
}

void pqt_mem_cache_trim(void)
{
    list_trim(&med);
    list_trim(&large);
}

int pqt_mem_cache_enabled(void) { return CACHE_ENABLED; }

void pqt_mem_cache_stats(int *nblocks_ret, size_t *nbytes_ret)
{
    pthread_mutex_lock(&cache_mu);
    *nblocks_ret = large.n;
    *nbytes_ret = large.nbytes;
    pthread_mutex_unlock(&cache_mu);
}

void *pqt_malloc(size_t nbytes)
{
    if (injected_failure()) return NULL;
#ifdef MADV_HUGEPAGE
    if (nbytes >= HUGE_ALLOC_NBYTES) {
        size_t rounded = (nbytes + HUGE_PAGE_NBYTES - 1) & ~(HUGE_PAGE_NBYTES - 1);
        void *p = list_take(&large, rounded, 1);
        if (p) return p;
        if (posix_memalign(&p, HUGE_PAGE_NBYTES, rounded) != 0) return NULL;
        madvise(p, rounded, MADV_HUGEPAGE);
        return p;
    }
#endif
    void *p = med_take(nbytes, 1);
    return p ? p : malloc(nbytes ? nbytes : 1);
}

void *pqt_calloc(size_t n, size_t size)
{
    if (injected_failure()) return NULL;
    if (n == 0 || size == 0) return calloc(1, 1);
    return calloc(n, size);
}

void *pqt_realloc(void *p, size_t nbytes)
{
    if (injected_failure()) return NULL;
    return realloc(p, nbytes ? nbytes : 1);
}

void *pqt_realloc_sized(void *p, size_t old_nbytes, size_t nbytes)
{
    /* A buffer growing large takes its blocks like pqt_malloc (huge pages, the cache) and
     * gives the one it outgrew to the cache: a column's bytes that grow 4 -> 8 -> 16 MiB in
     * every row group then reuse warm blocks, where realloc would map fresh memory each time
     * (glibc maps and unmaps blocks this large). The copy is of warm bytes, once per doubling. */
    if (nbytes < HUGE_ALLOC_NBYTES) return pqt_realloc(p, nbytes);
    void *q = pqt_malloc(nbytes);
    if (!q) return NULL;
    if (p && old_nbytes) memcpy(q, p, old_nbytes < nbytes ? old_nbytes : nbytes);
    pqt_mem_free_recycled(p);
    return q;
}

void *pqt_malloc_pages(size_t nbytes)
{
#ifdef MADV_HUGEPAGE
    if (nbytes >= HUGE_ALLOC_NBYTES) return pqt_malloc(nbytes); /* 2 MiB aligned already */
#endif
    if (injected_failure()) return NULL;
    void *p = med_take(nbytes, 4096);
    if (p) return p;
    return posix_memalign(&p, 4096, nbytes ? nbytes : 1) == 0 ? p : NULL;
}

void *pqt_malloc_array(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    return pqt_malloc(n * size);
}

void pqt_mem_free(void *p) { free(p); }

void pqt_free(void *p)
{
    if (!cache_put(p, CACHE_MIN_NBYTES)) free(p);
}

void pqt_mem_free_recycled(void *p)
{
    if (!cache_put(p, HUGE_ALLOC_NBYTES - 1) && !med_put(p)) free(p);
}

char *pqt_strndup(const char *s, size_t n)
{
    char *d = pqt_malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *pqt_strdup(const char *s) { return pqt_strndup(s, strlen(s)); }
