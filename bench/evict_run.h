/* SPDX-License-Identifier: Apache-2.0 */
/*
 * evict_run.h - the cold-cache hook of pqt_bench and pqt_floor: run the pqt_evict tool
 * (bench/evict.c) on a file before a run, outside the timed region, and keep what it saw.
 */
#ifndef PQT_BENCH_EVICT_RUN_H
#define PQT_BENCH_EVICT_RUN_H

#include <stddef.h>

#define EVICT_MAX_RUNS 101

typedef struct {
    char method[16]; /* what pqt_evict ran: drop, fadvise or none */
    long long pages; /* the file's pages */
    int n;           /* evictions recorded (warm-up first) */
    long long before[EVICT_MAX_RUNS], after[EVICT_MAX_RUNS]; /* resident pages */
} evict_log;

/* Run `bin --file path`, wait for it and append its counts to `log`; 0, or -1 with a
 * message in err. */
int evict_run(const char *bin, const char *path, evict_log *log, char *err, size_t errlen);

/* The log as a JSON member `,"evict":{...}` on stdout (nothing when n == 0). */
void evict_print(const evict_log *log);

#endif
