/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memcount.h - count the library's heap allocations (tests only).
 *
 * Tests that bound memory or work link memcount.c with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=posix_memalign
 * (tests/CMakeLists.txt): every call from the library's static objects (and the test's)
 * then passes through here. Counted: calls, bytes requested in total, and bytes in use now
 * and at the peak (malloc_usable_size), so a test can say "this read allocated at most N
 * bytes" however lazily the kernel maps them, or "this loop did O(1) allocation per call".
 * Allocations made inside shared libraries (zstd, zlib's state) are not seen.
 */
#ifndef PQT_TEST_MEMCOUNT_H
#define PQT_TEST_MEMCOUNT_H

#include <stdint.h>

typedef struct memcount {
    uint64_t ncalls;  /* malloc, calloc, realloc and posix_memalign calls */
    uint64_t nbytes;  /* bytes requested by them, in total */
    int64_t inuse;    /* bytes held now */
    int64_t peak;     /* most bytes held at once since memcount_reset_peak */
} memcount;

memcount memcount_get(void);
/* Start a new peak from what is held now. */
void memcount_reset_peak(void);

#endif
