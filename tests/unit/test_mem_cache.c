/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_mem_cache.c - the large-block cache of util/mem.c: a block of more than 32 MiB from
 * pqt_malloc given back with pqt_free (not the library's own pqt_mem_free) comes back for the
 * next request it fits without wasting more than half;
 * smaller blocks, blocks not on a 2 MiB boundary and requests it would waste are not served
 * from it; it never holds more than 16 blocks or 1 GiB; trim empties it; concurrent use from
 * two threads keeps every block distinct while in use.
 *
 * Truth: pointer identity (a reused block is the very pointer freed) and the cache's own
 * counters against the bounds mem.c documents. Blocks are mostly left untouched, so the
 * gigabyte of requests costs address space, not memory.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

#define MiB ((size_t)1 << 20)

static int cached_blocks(void)
{
    int n = 0;
    size_t nbytes = 0;
    pqt_mem_cache_stats(&n, &nbytes);
    return n;
}

static size_t cached_nbytes(void)
{
    int n = 0;
    size_t nbytes = 0;
    pqt_mem_cache_stats(&n, &nbytes);
    return nbytes;
}

/* Two threads allocate, write their id over the first and last bytes, check and free, many
 * times: a block is never handed to both at once. */
static void *churn(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    for (int i = 0; i < 200; i++) {
        size_t n = (40 + (size_t)(i % 3)) * MiB;
        unsigned char *p = pqt_malloc(n);
        if (!p) return (void *)1;
        p[0] = (unsigned char)id;
        p[n - 1] = (unsigned char)id;
        for (volatile int k = 0; k < 1000; k++) {
        }
        if (p[0] != (unsigned char)id || p[n - 1] != (unsigned char)id) return (void *)1;
        pqt_free(p);
    }
    return NULL;
}

int main(void)
{
    if (!pqt_mem_cache_enabled()) {
        printf("test_mem_cache: cache off in this build (AddressSanitizer); nothing to test\n");
        return pqt_test_done("test_mem_cache");
    }
    pqt_mem_cache_trim();
    CHECK_EQ_I64(cached_blocks(), 0);

    /* a freed 40 MiB block is the next 40 MiB block, and serves 30 MiB too */
    unsigned char *a = pqt_malloc(40 * MiB);
    REQUIRE_OK(a == NULL);
    memset(a, 0x11, 40 * MiB); /* touched: this is what a reuse saves faulting again */
    pqt_free(a);
    CHECK_EQ_I64(cached_blocks(), 1);
    CHECK(cached_nbytes() >= 40 * MiB);
    unsigned char *b = pqt_malloc(40 * MiB);
    CHECK(b == a);
    CHECK_EQ_I64(cached_blocks(), 0);
    memset(b, 0x22, 40 * MiB); /* the whole request is usable */
    pqt_mem_free(b); /* the library's own free does not keep it */
    CHECK_EQ_I64(cached_blocks(), 0);
    b = pqt_malloc(40 * MiB);
    pqt_free(b);
    CHECK_EQ_I64(cached_blocks(), 1);
    unsigned char *c = pqt_malloc(30 * MiB);
    CHECK(c == b);
    /* ... but not a request it would waste more than half of */
    pqt_free(c);
    unsigned char *d = pqt_malloc(8 * MiB);
    CHECK(d != c);
    CHECK_EQ_I64(cached_blocks(), 1);
    pqt_free(d); /* 8 MiB: left to the C library */
    CHECK_EQ_I64(cached_blocks(), 1);

    /* not on a 2 MiB boundary (calloc), or small: freed, not kept */
    void *e = pqt_calloc(40 * MiB, 1);
    REQUIRE_OK(e == NULL);
    pqt_free(e);
    void *f = pqt_malloc(1000);
    pqt_free(f);
    pqt_free(NULL);
    CHECK_EQ_I64(cached_blocks(), 1);

    /* bounded: 30 blocks of 40 MiB freed, at most 16 kept; 12 of 100 MiB, at most 1 GiB */
    void *many[30];
    for (int i = 0; i < 30; i++) many[i] = pqt_malloc(40 * MiB);
    for (int i = 0; i < 30; i++) {
        REQUIRE_OK(many[i] == NULL);
        pqt_free(many[i]);
    }
    CHECK_EQ_I64(cached_blocks(), 16);
    for (int i = 0; i < 12; i++) many[i] = pqt_malloc(100 * MiB);
    for (int i = 0; i < 12; i++) {
        REQUIRE_OK(many[i] == NULL);
        pqt_free(many[i]);
    }
    CHECK(cached_nbytes() <= ((size_t)1 << 30));
    CHECK(cached_nbytes() >= (size_t)900 * MiB);
    /* a block larger than the bound itself is never kept */
    void *g = pqt_malloc((size_t)1100 * MiB);
    if (g) {
        int before = cached_blocks();
        pqt_free(g);
        CHECK(cached_blocks() <= before);
        CHECK(cached_nbytes() <= ((size_t)1 << 30));
    }

    pqt_mem_cache_trim();
    CHECK_EQ_I64(cached_blocks(), 0);
    CHECK_EQ_I64((int64_t)cached_nbytes(), 0);

    pthread_t th[2];
    for (uintptr_t i = 0; i < 2; i++) REQUIRE_OK(pthread_create(&th[i], NULL, churn, (void *)(i + 1)));
    for (int i = 0; i < 2; i++) {
        void *r = NULL;
        pthread_join(th[i], &r);
        CHECK(r == NULL);
    }
    pqt_mem_cache_trim();
    return pqt_test_done("test_mem_cache");
}
