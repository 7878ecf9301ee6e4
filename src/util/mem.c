/*
 * mem.c - allocation wrappers with overflow checks and failure injection (layer: util).
 */
#include "mem.h"

#include <stdlib.h>
#include <string.h>

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

void *pqt_malloc(size_t nbytes)
{
    if (injected_failure()) return NULL;
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
