/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_bench.c - W1 and W9 handed to DuckDB through pqt's Arrow stream, against DuckDB
 * reading the file itself (issue 34; bench/arrow_run.sh drives it, docs/benchmarks.md).
 *
 *   pqt_arrow_bench --mode duckdb|resident|lazy --workload W1|W9 --file F [--threads T]
 *                   [--runs R]
 *
 *   duckdb    DuckDB's own read: SELECT ... FROM read_parquet(F)
 *   resident  pqt reads the workload's columns first (not timed); timed: export the stream
 *             and DuckDB's Arrow scan of it (the hand-off without a copy)
 *   lazy      timed: pqt_table_open, export, DuckDB's scan; columns read batch by batch
 *
 * One mode per process, so that its peak RSS is its own. DuckDB is loaded at run time
 * (tests/unit/duckdb_dl.h: PQT_LIBDUCKDB or bench/peers). Output: one JSON line with the
 * median, min and max of the timed runs (after one warm-up), the result, and three peaks of
 * RSS: once DuckDB is loaded (base), once a resident mode's columns are read (before), and
 * at the end, so that what the stream itself holds is end - before.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_clock.h"
#include "duckdb_dl.h"
#include "pqt.h"
#include "pqt_arrow.h"

typedef struct workload {
    const char *id;
    const char *columns[4];
    int ncols;
    const char *select; /* the aggregate over a source named %s */
} workload;

static const workload WORKLOADS[] = {
    {"W1",
     {"ra", "dec", "mass", "z"},
     4,
     "SELECT sum(ra), sum(dec), sum(mass), sum(z::DOUBLE) FROM %s"},
    {"W9", {"mag"}, 1, "SELECT sum(m::DOUBLE) FROM (SELECT unnest(mag) AS m FROM %s)"},
};

static void die(const char *what, const char *why)
{
    fprintf(stderr, "pqt_arrow_bench: %s: %s\n", what, why);
    exit(1);
}

/* One timed run of mode; the result's text into *text (malloc'd). */
static double run_once(pqt_duck *d, const char *mode, const workload *w, const char *file,
                       int threads, pqt_table *resident, char **text)
{
    char sql[512];
    double t0 = bench_now_ms();
    if (strcmp(mode, "duckdb") == 0) {
        char src[400];
        snprintf(src, sizeof src, "read_parquet('%s')", file);
        snprintf(sql, sizeof sql, w->select, src);
        *text = pqt_duck_text(d, sql);
        if (!*text) die("DuckDB", pqt_duck_error(d));
        return bench_now_ms() - t0;
    }
    pqt_table *t = resident;
    if (!t) {
        pqt_opts *o;
        pqt_opts_new(&o);
        pqt_opts_set_int(o, PQT_OPT_THREADS, threads);
        if (pqt_table_open(file, o, &t) != PQT_OK) die(file, pqt_errmsg());
        pqt_opts_free(o);
    }
    struct ArrowArrayStream s;
    if (pqt_table_export_arrow_stream(t, w->columns, w->ncols, 0, &s) != PQT_OK)
        die("export", pqt_errmsg());
    snprintf(sql, sizeof sql, w->select, "pqt_stream");
    *text = pqt_duck_scan_text(d, &s, "pqt_stream", sql);
    if (!*text) die("DuckDB's Arrow scan", pqt_duck_error(d));
    if (!resident) pqt_table_close(t);
    return bench_now_ms() - t0;
}

int main(int argc, char **argv)
{
    const char *mode = "duckdb", *wid = "W1", *file = NULL;
    int threads = 1, runs = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--mode") == 0)
            mode = argv[i + 1];
        else if (strcmp(argv[i], "--workload") == 0)
            wid = argv[i + 1];
        else if (strcmp(argv[i], "--file") == 0)
            file = argv[i + 1];
        else if (strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
        else
            die(argv[i], "unknown option");
    }
    const workload *w = NULL;
    for (size_t k = 0; k < sizeof WORKLOADS / sizeof WORKLOADS[0]; k++)
        if (strcmp(WORKLOADS[k].id, wid) == 0) w = &WORKLOADS[k];
    if (!w || !file || runs < 1 || threads < 1 ||
        (strcmp(mode, "duckdb") && strcmp(mode, "resident") && strcmp(mode, "lazy")))
        die("usage",
            "--mode duckdb|resident|lazy --workload W1|W9 --file F [--threads T] [--runs R]");

    char why[512];
    pqt_duck *d = NULL;
    int rc = pqt_duck_open(&d, why, sizeof why);
    if (rc == 1) {
        fprintf(stderr, "pqt_arrow_bench: skipped: %s\n", why);
        return PQT_DUCK_SKIP;
    }
    if (rc != 0) die("DuckDB", why);
    char set[64];
    snprintf(set, sizeof set, "SET threads = %d", threads);
    free(pqt_duck_text(d, set));
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long maxrss_base_kb = ru.ru_maxrss; /* DuckDB loaded, nothing read */

    pqt_table *resident = NULL;
    long maxrss_before_kb = maxrss_base_kb; /* resident: the peak once the columns are read */
    if (strcmp(mode, "resident") == 0) {
        pqt_opts *o;
        pqt_opts_new(&o);
        pqt_opts_set_int(o, PQT_OPT_THREADS, threads);
        if (pqt_table_open(file, o, &resident) != PQT_OK) die(file, pqt_errmsg());
        pqt_opts_free(o);
        if (pqt_table_prefetch(resident, w->columns, w->ncols) != PQT_OK)
            die("prefetch", pqt_errmsg());
        getrusage(RUSAGE_SELF, &ru);
        maxrss_before_kb = ru.ru_maxrss;
    }
    double *ms = calloc((size_t)runs, sizeof *ms);
    char *text = NULL;
    for (int r = -1; r < runs; r++) { /* run -1 warms up */
        free(text);
        double t = run_once(d, mode, w, file, threads, resident, &text);
        if (r >= 0) ms[r] = t;
    }
    qsort(ms, (size_t)runs, sizeof *ms, bench_cmp_double);
    getrusage(RUSAGE_SELF, &ru);
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '\n')
        text[--n] = '\0';
    printf("{\"mode\":\"%s\",\"workload\":\"%s\",\"file\":\"%s\",\"threads\":%d,\"runs\":%d,"
           "\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"maxrss_kb\":%ld,"
           "\"maxrss_base_kb\":%ld,\"maxrss_before_kb\":%ld,\"result\":\"%s\"}\n",
           mode, w->id, file, threads, runs, ms[runs / 2], ms[0], ms[runs - 1], ru.ru_maxrss,
           maxrss_base_kb, maxrss_before_kb, text);
    free(text);
    free(ms);
    pqt_table_close(resident);
    pqt_duck_close(d);
    return 0;
}
