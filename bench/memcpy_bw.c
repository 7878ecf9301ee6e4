/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memcpy_bw.c - memory bandwidth as memcpy sees it: copy a large buffer (default 512 MiB,
 * far beyond the caches) split over T OpenMP threads; a warm-up copy, then `runs` timed
 * copies. Bandwidth counts the bytes copied once (not read + write).
 *
 *   memcpy_bw [--threads T] [--runs R] [--mib M]
 *
 * One JSON line: {"engine":"memcpy","threads":T,"bytes":..,"times_ms":[..],"median":..,
 *                 "min":..,"max":..,"gbps":..}   (gbps from the median, 1 GB = 1e9 bytes)
 */
#define _POSIX_C_SOURCE 200809L

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"

#define MAX_RUNS 100

static void copy(char *dst, const char *src, size_t n, int threads)
{
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t per = (n / (size_t)nt + 4095) & ~(size_t)4095;
        size_t lo = per * (size_t)t, hi = lo + per > n ? n : lo + per;
        if (lo < hi) memcpy(dst + lo, src + lo, hi - lo);
    }
}

int main(int argc, char **argv)
{
    int threads = 1, runs = 5;
    size_t mib = 512;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--mib")) mib = (size_t)atol(argv[i + 1]);
        else runs = 0;
    }
    if (threads < 1 || runs < 1 || runs > MAX_RUNS || mib < 1 || argc % 2 == 0) {
        fprintf(stderr, "usage: memcpy_bw [--threads T] [--runs R] [--mib M]\n");
        return 2;
    }
    size_t n = mib << 20;
    char *src = malloc(n), *dst = malloc(n);
    if (!src || !dst) {
        printf("{\"engine\":\"memcpy\",\"threads\":%d,\"error\":\"out of memory\"}\n", threads);
        return 0;
    }
    /* First touch by the threads that will copy (and no lazily-mapped zero pages). */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; i += 4096) {
        src[i] = (char)(i >> 12);
        dst[i] = 0;
    }
    double t[MAX_RUNS];
    copy(dst, src, n, threads); /* warm-up */
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_ms();
        copy(dst, src, n, threads);
        t[r] = bench_now_ms() - t0;
    }
    unsigned check = 0;
    for (size_t i = 0; i < n; i += 1 << 20) check += (unsigned char)dst[i];

    printf("{\"engine\":\"memcpy\",\"threads\":%d,\"bytes\":%zu,\"check\":%u,\"times_ms\":[", threads, n,
           check);
    for (int r = 0; r < runs; r++) printf("%s%.6f", r ? "," : "", t[r]);
    qsort(t, (size_t)runs, sizeof t[0], bench_cmp_double);
    double med = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    printf("],\"median\":%.6f,\"min\":%.6f,\"max\":%.6f,\"gbps\":%.3f}\n", med, t[0], t[runs - 1],
           (double)n / (med * 1e6));
    free(src);
    free(dst);
    return 0;
}
