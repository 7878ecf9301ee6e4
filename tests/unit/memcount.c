/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memcount.c - the --wrap allocator hooks of memcount.h (tests only).
 */
#include "memcount.h"

#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
int __wrap_posix_memalign(void **p, size_t align, size_t n);

static _Atomic uint64_t ncalls, nbytes;
static _Atomic int64_t inuse, peak;

static void held(void *p, uint64_t requested)
{
    atomic_fetch_add_explicit(&ncalls, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&nbytes, requested, memory_order_relaxed);
    if (!p) return;
    int64_t now = atomic_fetch_add_explicit(&inuse, (int64_t)malloc_usable_size(p),
                                            memory_order_relaxed) +
                  (int64_t)malloc_usable_size(p);
    int64_t pk = atomic_load_explicit(&peak, memory_order_relaxed);
    while (now > pk && !atomic_compare_exchange_weak(&peak, &pk, now)) {
    }
}

static void released(void *p)
{
    if (p) atomic_fetch_sub_explicit(&inuse, (int64_t)malloc_usable_size(p), memory_order_relaxed);
}

void *__wrap_malloc(size_t n)
{
    void *p = __real_malloc(n);
    held(p, n);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = __real_calloc(n, size);
    held(p, (uint64_t)n * size);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = __real_realloc(p, n);
    if (q || n == 0) {
        atomic_fetch_sub_explicit(&inuse, (int64_t)old, memory_order_relaxed);
        held(q, n);
    }
    return q;
}

void __wrap_free(void *p)
{
    released(p);
    __real_free(p);
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    int r = __real_posix_memalign(p, align, n);
    held(r == 0 ? *p : NULL, n);
    return r;
}

memcount memcount_get(void)
{
    memcount m = {atomic_load(&ncalls), atomic_load(&nbytes), atomic_load(&inuse),
                  atomic_load(&peak)};
    return m;
}

void memcount_reset_peak(void) { atomic_store(&peak, atomic_load(&inuse)); }
