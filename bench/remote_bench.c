/* SPDX-License-Identifier: Apache-2.0 */
/*
 * remote_bench.c - W1, W2 and W3 (bench/workloads.mjs) read from a local path and from a URL,
 * with the requests, bytes and time of each (`make bench-remote`, bench/remote_run.sh;
 * docs/remote.md, "Requests and coalescing").
 *
 *   pqt_remote_bench FILE URL [--gap N] [--max N] [--in-flight N] [--runs N]
 *
 * One JSON line per workload and source: {"workload":"W2","source":"http","seconds":..,
 * "requests":..,"bytes_fetched":..,"bytes_read":..,"file_bytes":..,"count":..,"sums":[..]}.
 * bytes_read is what the reader took of the column chunks (the same local and remote: the
 * bytes the workload needs); the local line's requests and bytes_fetched are 0.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench_clock.h"
#include "pqt.h"

typedef struct workload {
    const char *id;
    const char *filter; /* NULL: none; "%ID%" is replaced by the W2 range */
    const char *sums[4];
    int nsums;
} workload;

static const workload WORKLOADS[] = {
    {"W1", NULL, {"ra", "dec", "mass", "z"}, 4},
    {"W2", "%ID%", {"ra"}, 1},
    {"W3", "survey == \"rare\"", {"ra", "dec", "mass", "z"}, 4},
};

static int64_t opt_gap = 0, opt_max = 0, opt_in_flight = 0;

static int run(const workload *w, const char *src, const char *label, int64_t nrows,
               int64_t file_bytes)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st == PQT_OK && opt_gap) st = pqt_opts_set_int(o, PQT_OPT_REMOTE_COALESCE_GAP, opt_gap);
    if (st == PQT_OK && opt_max) st = pqt_opts_set_int(o, PQT_OPT_REMOTE_COALESCE_MAX, opt_max);
    if (st == PQT_OK && opt_in_flight)
        st = pqt_opts_set_int(o, PQT_OPT_REMOTE_IN_FLIGHT, opt_in_flight);
    char rule[128];
    if (st == PQT_OK && w->filter) {
        if (strcmp(w->filter, "%ID%") == 0) { /* bench/workloads.mjs w2Range */
            int64_t len = nrows / 100 > 1 ? nrows / 100 : 1, lo = nrows / 2 - len / 2 + 1;
            snprintf(rule, sizeof rule, "id >= %lld and id <= %lld", (long long)lo,
                     (long long)(lo + len - 1));
        } else {
            snprintf(rule, sizeof rule, "%s", w->filter);
        }
        st = pqt_opts_set_str(o, PQT_OPT_FILTER, rule);
    }
    double t0 = (bench_now_ms() / 1e3);
    if (st == PQT_OK) st = pqt_table_open(src, o, &t);
    if (st == PQT_OK) st = pqt_table_prefetch(t, w->sums, w->nsums);
    double sums[4] = {0};
    for (int k = 0; st == PQT_OK && k < w->nsums; k++) {
        void *d = NULL;
        int64_t n = 0;
        st = pqt_table_get_alloc(t, w->sums[k], PQT_FLOAT64, &d, NULL, &n);
        for (int64_t i = 0; st == PQT_OK && i < n; i++) sums[k] += ((double *)d)[i];
        pqt_free(d);
    }
    double dt = (bench_now_ms() / 1e3) - t0;
    pqt_scan_counts c;
    memset(&c, 0, sizeof c);
    if (st == PQT_OK) st = pqt_table_scan_stats(t, &c);
    if (st != PQT_OK) {
        fprintf(stderr, "pqt_remote_bench: %s %s: %s\n", w->id, src, pqt_errmsg());
        pqt_table_close(t);
        pqt_opts_free(o);
        return 1;
    }
    printf("{\"workload\":\"%s\",\"source\":\"%s\",\"seconds\":%.4f,\"requests\":%lld,"
           "\"bytes_fetched\":%lld,\"retries\":%lld,\"bytes_read\":%lld,\"file_bytes\":%lld,"
           "\"count\":%lld,\"sums\":[",
           w->id, label, dt, (long long)c.requests, (long long)c.bytes_fetched,
           (long long)c.retries, (long long)c.bytes_read, (long long)file_bytes,
           (long long)pqt_table_nrows(t));
    for (int k = 0; k < w->nsums; k++) printf("%s%.17g", k ? "," : "", sums[k]);
    printf("]}\n");
    fflush(stdout);
    pqt_table_close(t);
    pqt_opts_free(o);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: pqt_remote_bench FILE URL [--gap N] [--max N] [--in-flight N] "
                        "[--runs N] [--only W1,W2,W3]\n");
        return 2;
    }
    int runs = 1;
    const char *only = NULL;
    for (int i = 3; i + 1 < argc; i += 2) {
        long long v = atoll(argv[i + 1]);
        if (strcmp(argv[i], "--gap") == 0) opt_gap = v;
        else if (strcmp(argv[i], "--max") == 0) opt_max = v;
        else if (strcmp(argv[i], "--in-flight") == 0) opt_in_flight = v;
        else if (strcmp(argv[i], "--runs") == 0) runs = (int)v;
        else if (strcmp(argv[i], "--only") == 0) only = argv[i + 1];
    }
    struct stat sb;
    if (stat(argv[1], &sb) != 0) {
        fprintf(stderr, "pqt_remote_bench: %s: cannot stat\n", argv[1]);
        return 1;
    }
    pqt_table *t = NULL;
    if (pqt_table_open(argv[1], NULL, &t) != PQT_OK) {
        fprintf(stderr, "pqt_remote_bench: %s\n", pqt_errmsg());
        return 1;
    }
    int64_t nrows = pqt_table_nrows(t);
    pqt_table_close(t);
    int rc = 0;
    for (size_t k = 0; k < sizeof WORKLOADS / sizeof *WORKLOADS; k++) {
        if (only && !strstr(only, WORKLOADS[k].id)) continue;
        for (int r = 0; r < runs; r++) {
            rc |= run(&WORKLOADS[k], argv[1], "local", nrows, (int64_t)sb.st_size);
            rc |= run(&WORKLOADS[k], argv[2], "http", nrows, (int64_t)sb.st_size);
        }
    }
    return rc;
}
