/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mem.c - allocation wrappers with overflow checks and failure injection (layer: util).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* madvise */
#endif
#include "mem.h"

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

void *pqt_malloc(size_t nbytes)
{
    if (injected_failure()) return NULL;
#ifdef MADV_HUGEPAGE
    if (nbytes >= HUGE_ALLOC_NBYTES) {
        void *p = NULL;
        size_t rounded = (nbytes + HUGE_PAGE_NBYTES - 1) & ~(HUGE_PAGE_NBYTES - 1);
        if (posix_memalign(&p, HUGE_PAGE_NBYTES, rounded) != 0) return NULL;
        madvise(p, rounded, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(nbytes ? nbytes : 1);
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
    /* a growing buffer that becomes large moves to huge pages once, like pqt_malloc */
    if (nbytes < HUGE_ALLOC_NBYTES || old_nbytes >= HUGE_ALLOC_NBYTES) return pqt_realloc(p, nbytes);
    void *q = pqt_malloc(nbytes);
    if (!q) return NULL;
    if (p && old_nbytes) memcpy(q, p, old_nbytes < nbytes ? old_nbytes : nbytes);
    free(p);
    return q;
}

void *pqt_malloc_pages(size_t nbytes)
{
#ifdef MADV_HUGEPAGE
    if (nbytes >= HUGE_ALLOC_NBYTES) return pqt_malloc(nbytes); /* 2 MiB aligned already */
#endif
    if (injected_failure()) return NULL;
    void *p = NULL;
    return posix_memalign(&p, 4096, nbytes ? nbytes : 1) == 0 ? p : NULL;
}

void *pqt_malloc_array(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    return pqt_malloc(n * size);
}

void pqt_mem_free(void *p) { free(p); }

void pqt_free(void *p) { free(p); }

char *pqt_strndup(const char *s, size_t n)
{
    char *d = pqt_malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *pqt_strdup(const char *s) { return pqt_strndup(s, strlen(s)); }
