/* SPDX-License-Identifier: Apache-2.0 */
/*
 * philox.c - fresh seeds for counter-based draws (layer: util). The generator itself is
 * inline in philox.h.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "util/philox.h"

static atomic_uint_fast64_t seeds_drawn;

/* 64 bits of the operating system's randomness, or 0 when there is none to be had. */
static uint64_t os_random(void)
{
    uint64_t v = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    if (read(fd, &v, sizeof v) != (ssize_t)sizeof v) v = 0;
    close(fd);
    return v;
}

int64_t pqt_philox_fresh_seed(void)
{
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t n = atomic_fetch_add(&seeds_drawn, 1) + 1;
    uint64_t t = (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
    uint64_t os = os_random();
    /* Philox itself as the mixer: the draw count is the counter, so calls within one clock
     * tick still differ; the clock and the OS bytes are the key and the rest of it. */
    uint32_t ctr[4] = {(uint32_t)n, (uint32_t)(n >> 32), (uint32_t)os, (uint32_t)(os >> 32)};
    uint32_t key[2] = {(uint32_t)t, (uint32_t)(t >> 32) ^ (uint32_t)getpid()};
    uint32_t out[4];
    pqt_philox4x32_10(ctr, key, out);
    int64_t seed = (int64_t)((((uint64_t)out[1] << 32) | out[0]) >> 1);
    return seed > 0 ? seed : (int64_t)n; /* n >= 1: never 0 */
}
