/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_clock.h - the clock and the ordering every benchmark program times with: wall
 * milliseconds on the monotonic clock, and doubles sorted for a median, min and max.
 */
#ifndef PQT_BENCH_CLOCK_H
#define PQT_BENCH_CLOCK_H

#include <time.h>

static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* qsort's comparison of doubles, ascending */
static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
