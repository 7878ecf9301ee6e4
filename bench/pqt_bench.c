/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_bench.c - the pqt engine of the benchmark: one workload on one file at one thread
 * count, a warm-up run then `runs` timed runs, one JSON line on stdout.
 *
 *   pqt_bench --workload W1 --file catalogue.parquet [--threads 1] [--runs 5] [--crc 1]
 *             [--evict BUILD/bench/pqt_evict]
 *
 * --evict makes the runs cold (W1c, W3c): the tool (bench/evict.c) drops the file's pages from
 * the page cache before the warm-up and before every timed run, untimed; the record then
 * carries "evict":{"method":..,"pages":..,"before":[..],"after":[..]} (resident pages).
 *
 * Output: {"engine":"pqt","workload":"W1","threads":1,"crc":1,"rss_start_kb":..,
 *          "maxrss_kb":..,["scan":{...},]"values":[...],"times_ms":[...],"cpu_ms_median":..,
 *          "cpu_ms_min":..,"median":..,"min":..,"max":..}  or  {..., "error":"..."}
 * (exit status 0 either way; bench.mjs also copes with a crash or a hang).
 *
 * Every timed run opens the file afresh (pqt_file_open ... pqt_file_close), reads only the
 * columns the workload needs and computes its checksum. Fixed-width columns are read with
 * pqt_file_read_into into buffers allocated once per process (the warm-up run grows them),
 * so the timed runs do not measure malloc and first-touch page faults.
 *
 * Table workloads (the README's path, filters at open, W13) live in pqt_bench_table.c; W14..W16's
 * cuts in C (callback, no pushdown) in pqt_bench_phot.c. FSUM, PCB and PNONE put the last run's
 * pqt_table_scan_stats (row groups, pruned by statistics, values decoded) in "scan".
 * Memory: the record carries rss_start_kb (VmRSS before the warm-up) and maxrss_kb (VmHWM,
 * the process's peak resident set, read after the last run): one process per cell, so this is
 * the cell's peak.
 *
 * Adding a workload: write `int wl_xxx(bench *b, double *v, int *nv)` and add one line to
 * WORKLOADS below (and its entry in workloads.mjs).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "evict_run.h"
#include "pqt_bench.h"
#include "pqt_file.h"

#define MAX_RUNS 100

int bench_fail(bench *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, sizeof b->err, fmt, ap);
    va_end(ap);
    return -1;
}

static void *grow(void **p, size_t *cap, size_t nbytes)
{
    if (nbytes == 0) nbytes = 1;
    if (*cap >= nbytes) return *p;
    free(*p);
    *p = malloc(nbytes);
    *cap = *p ? nbytes : 0;
    return *p;
}

/* CPU time of the whole process (every thread): on a machine shared with other work, a
 * steadier measure of what a run costs than the wall clock (cpu_ms_* in the record). */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Open b->path with the run's options: PQT_OPT_THREADS = threads (or 1 when asked). */
static pqt_status open_file(bench *b, int threads, pqt_file **f)
{
    pqt_opts *o = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_THREADS, threads);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_VERIFY_CRC, b->crc);
    if (st == PQT_OK) st = pqt_file_open(b->path, o, f);
    pqt_opts_free(o);
    return st;
}

static int find(bench *b, pqt_file *f, const char *name, int *col)
{
    if (pqt_file_find_column(f, name, col) != PQT_OK)
        return bench_fail(b, "column %s not found in %s", name, b->path);
    return 0;
}

/* Sums with 8 independent accumulators: a single running sum is bound by the latency of
 * one floating-point add per element, which is how a naive loop loses to the peers' SIMD
 * sums. Each thread of the OpenMP loop sums its own share this way. */
double bench_sum_f64(const double *d, size_t n, int threads)
{
    double s = 0;
#pragma omp parallel num_threads(threads) reduction(+ : s)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
        double a[8] = {0};
        size_t i = lo;
        for (; i + 8 <= hi; i += 8)
            for (int k = 0; k < 8; k++) a[k] += d[i + (size_t)k];
        for (; i < hi; i++) a[0] += d[i];
        s += ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
    }
    return s;
}

double bench_sum_f32(const float *d, size_t n, int threads)
{
    double s = 0;
#pragma omp parallel num_threads(threads) reduction(+ : s)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
        double a[8] = {0};
        size_t i = lo;
        for (; i + 8 <= hi; i += 8)
            for (int k = 0; k < 8; k++) a[k] += (double)d[i + (size_t)k];
        for (; i < hi; i++) a[0] += (double)d[i];
        s += ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
    }
    return s;
}

/* Sum of a double / float column over rows lo..hi, read into buffer slot `slot`. */
static int sum_column(bench *b, pqt_file *f, const char *name, int64_t lo, int64_t hi, int slot,
                      double *sum)
{
    int col;
    if (find(b, f, name, &col)) return -1;
    int kind = pqt_file_column_kind(f, col);
    size_t n = (size_t)(hi - lo + 1);
    size_t esz = kind == PQT_FLOAT32 ? sizeof(float) : sizeof(double);
    if (kind != PQT_FLOAT32 && kind != PQT_FLOAT64)
        return bench_fail(b, "column %s is %s, expected float32/float64", name, pqt_kind_name(kind));
    void *data = grow(&b->buf[slot], &b->cap[slot], n * esz);
    if (!data) return bench_fail(b, "out of memory");
    CK(b, pqt_file_read_into(f, col, lo, hi, data, n * esz, NULL));
    *sum = kind == PQT_FLOAT64 ? bench_sum_f64(data, n, b->threads) : bench_sum_f32(data, n, b->threads);
    return 0;
out:
    return -1;
}

/* ---- the workloads -------------------------------------------------------------------- */

/* W1: sum of ra, dec, mass, z over all rows. */
static int wl_w1(bench *b, double *v, int *nv)
{
    static const char *cols[] = {"ra", "dec", "mass", "z"};
    pqt_file *f = NULL;
    int rc = -1;
    CK(b, open_file(b, b->threads, &f));
    int64_t n = pqt_file_nrows(f);
    for (int c = 0; c < 4; c++)
        if (sum_column(b, f, cols[c], 1, n, 0, &v[c])) goto out;
    *nv = 4;
    rc = 0;
out:
    pqt_file_close(f);
    return rc;
}

/* Open the file and sum one float column over all its rows. */
static int sum_whole_column(bench *b, const char *name, double *v, int *nv)
{
    pqt_file *f = NULL;
    int rc = -1;
    CK(b, open_file(b, b->threads, &f));
    if (sum_column(b, f, name, 1, pqt_file_nrows(f), 0, &v[0])) goto out;
    *nv = 1;
    rc = 0;
out:
    pqt_file_close(f);
    return rc;
}

/* W1ra: sum of ra over the whole file (the baseline of S1). */
static int wl_w1ra(bench *b, double *v, int *nv) { return sum_whole_column(b, "ra", v, nv); }

/* S1: the middle quarter of the row groups (at least one), sum of ra. */
static int wl_s1(bench *b, double *v, int *nv)
{
    pqt_file *f = NULL;
    int rc = -1;
    CK(b, open_file(b, b->threads, &f));
    int nrg = pqt_file_nrow_groups(f);
    if (nrg < 1) {
        bench_fail(b, "no row groups");
        goto out;
    }
    int k = (nrg + 2) / 4; /* round(nrg / 4) */
    if (k < 1) k = 1;
    int first = (nrg - k) / 2;
    int64_t lo = 1;
    for (int g = 0; g < first; g++) lo += pqt_file_row_group_nrows(f, g);
    int64_t hi = lo - 1;
    for (int g = first; g < first + k; g++) hi += pqt_file_row_group_nrows(f, g);
    if (sum_column(b, f, "ra", lo, hi, 0, &v[1])) goto out;
    v[0] = (double)(hi - lo + 1);
    *nv = 2;
    rc = 0;
out:
    pqt_file_close(f);
    return rc;
}

/* P1: the lazy table: open, prefetch ra, dec, mass, z in one call (parallel across columns
 * with threads), sum them through zero-copy views. Reported at 1 vs 2 threads. */
static int wl_p1(bench *b, double *v, int *nv)
{
    static const char *const names[] = {"ra", "dec", "mass", "z"};
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    int rc = -1;
    CK(b, pqt_opts_new(&o));
    CK(b, pqt_opts_set_int(o, PQT_OPT_THREADS, b->threads));
    CK(b, pqt_opts_set_int(o, PQT_OPT_VERIFY_CRC, b->crc));
    CK(b, pqt_table_open(b->path, o, &t));
    CK(b, pqt_table_prefetch(t, names, 4));
    for (int k = 0; k < 4; k++) {
        pqt_column_view view;
        memset(&view, 0, sizeof view);
        view.struct_size = sizeof view;
        CK(b, pqt_table_column(t, names[k], 0, &view));
        double s = 0;
        if (view.kind == PQT_FLOAT64) {
            s = bench_sum_f64(view.data, (size_t)view.nrows, b->threads);
        } else if (view.kind == PQT_FLOAT32) {
            s = bench_sum_f32(view.data, (size_t)view.nrows, b->threads);
        } else {
            bench_fail(b, "column %s has kind %s", names[k], pqt_kind_name(view.kind));
            goto out;
        }
        v[k] = s;
    }
    *nv = 4;
    rc = 0;
out:
    pqt_table_close(t);
    pqt_opts_free(o);
    return rc;
}

/* W5: total length in bytes of `name`. */
static int wl_w5(bench *b, double *v, int *nv)
{
    pqt_file *f = NULL;
    pqt_array *a = NULL;
    int rc = -1, col;
    CK(b, open_file(b, b->threads, &f));
    if (find(b, f, "name", &col)) goto out;
    CK(b, pqt_file_read(f, col, 1, pqt_file_nrows(f), &a));
    const int64_t *off = pqt_array_str_offsets(a);
    if (!off) {
        bench_fail(b, "name: no string offsets (kind %s)", pqt_kind_name(pqt_array_kind(a)));
        goto out;
    }
    v[0] = (double)(off[pqt_array_nrows(a)] - off[0]);
    *nv = 1;
    rc = 0;
out:
    pqt_array_free(a);
    pqt_file_close(f);
    return rc;
}

/* W6: count and sum of non-null `quality` (int32, ~5% null). */
static int wl_w6(bench *b, double *v, int *nv)
{
    pqt_file *f = NULL;
    int rc = -1, col;
    CK(b, open_file(b, b->threads, &f));
    if (find(b, f, "quality", &col)) goto out;
    if (pqt_file_column_kind(f, col) != PQT_INT32) {
        bench_fail(b, "quality is %s, expected int32", pqt_kind_name(pqt_file_column_kind(f, col)));
        goto out;
    }
    int64_t n = pqt_file_nrows(f);
    int32_t *d = grow(&b->buf[0], &b->cap[0], (size_t)n * sizeof(int32_t));
    uint8_t *valid = grow((void **)&b->valid, &b->valid_cap, (size_t)(n + 7) / 8);
    if (!d || !valid) {
        bench_fail(b, "out of memory");
        goto out;
    }
    CK(b, pqt_file_read_into(f, col, 1, n, d, (size_t)n * sizeof(int32_t), valid));
    /* pqt_file_read_into stores 0 in null rows (pqt.h): the sum needs no validity test, and
     * the count is a popcount of the bitmap (whose bits past n are 0). */
    int64_t cnt = 0, sum = 0;
    const int64_t nbytes = (n + 7) / 8, nwords = nbytes / 8;
#pragma omp parallel for num_threads(b->threads) reduction(+ : sum) schedule(static)
    for (int64_t i = 0; i < n; i++) sum += d[i];
    /* population count 8 bytes at a time (SWAR: no POPCNT instruction is assumed) */
#pragma omp parallel for num_threads(b->threads) reduction(+ : cnt) schedule(static)
    for (int64_t i = 0; i < nwords; i++) {
        uint64_t x;
        memcpy(&x, valid + 8 * i, 8);
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
        cnt += (int64_t)((x * 0x0101010101010101ULL) >> 56);
    }
    for (int64_t i = nwords * 8; i < nbytes; i++)
        for (int k = 0; k < 8; k++) cnt += (valid[i] >> k) & 1;
    v[0] = (double)cnt;
    v[1] = (double)sum;
    *nv = 2;
    rc = 0;
out:
    pqt_file_close(f);
    return rc;
}

/* W8: open `wide` (2000 columns, one row group) and sum c1000. */
static int wl_w8(bench *b, double *v, int *nv) { return sum_whole_column(b, "c1000", v, nv); }

/* W9: sum of all elements of `mag` (FLOAT[5]: a vector column of width 5). */
static int wl_w9(bench *b, double *v, int *nv)
{
    pqt_file *f = NULL;
    pqt_array *a = NULL;
    int rc = -1, col;
    CK(b, open_file(b, b->threads, &f));
    if (find(b, f, "mag", &col)) goto out;
    CK(b, pqt_file_read(f, col, 1, pqt_file_nrows(f), &a));
    int w = pqt_array_width(a);
    if (PQT_KIND_ELEMENT(pqt_array_kind(a)) != PQT_FLOAT32 || w < 1) {
        bench_fail(b, "mag read as %s width %d, expected float32 vector", pqt_kind_name(pqt_array_kind(a)), w);
        goto out;
    }
    const float *d = pqt_array_data(a);
    const uint8_t *valid = pqt_array_validity(a);
    int64_t ne = pqt_array_nrows(a) * w;
    /* null elements hold 0 (pqt.h), so the validity bitmap need not be consulted */
    (void)valid;
    double s = bench_sum_f32(d, (size_t)ne, b->threads);
    v[0] = s;
    *nv = 1;
    rc = 0;
out:
    pqt_array_free(a);
    pqt_file_close(f);
    return rc;
}

/* T2: the per-thread pattern. pqt_row_group_bounds, then an OpenMP parallel for over the row
 * groups: each iteration opens its own handle (PQT_OPT_THREADS 1), reads mass over that row
 * group's rows into its thread's buffer and sums it; reduction over the row groups. */
static int wl_t2(bench *b, double *v, int *nv)
{
    int64_t *bounds = NULL;
    int nrg = 0, rc = -1, failed = 0;
    CK(b, pqt_row_group_bounds(b->path, &bounds, &nrg));
    double total = 0;
#pragma omp parallel for num_threads(b->threads) reduction(+ : total) schedule(dynamic, 1)
    for (int g = 0; g < nrg; g++) {
        int t = omp_get_thread_num();
        int64_t lo = bounds[2 * g], hi = bounds[2 * g + 1];
        size_t nbytes = (size_t)(hi - lo + 1) * sizeof(double);
        pqt_file *f = NULL;
        pqt_status st = open_file(b, 1, &f);
        int col = -1;
        if (st == PQT_OK) st = pqt_file_find_column(f, "mass", &col);
        double *d = t < MAX_THREADS ? grow(&b->tbuf[t], &b->tcap[t], nbytes) : NULL;
        if (st == PQT_OK && !d) st = PQT_NOMEM;
        if (st == PQT_OK) st = pqt_file_read_into(f, col, lo, hi, d, nbytes, NULL);
        if (st == PQT_OK) {
            double s = 0;
            for (int64_t i = 0; i <= hi - lo; i++) s += d[i];
            total += s;
        } else {
#pragma omp critical(pqt_bench_err)
            if (!failed) {
                failed = 1;
                bench_fail(b, "row group %d (rows %lld..%lld): %s: %s", g, (long long)lo, (long long)hi,
                     pqt_status_name(st), pqt_errmsg());
            }
        }
        pqt_file_close(f);
    }
    if (failed) goto out;
    v[0] = total;
    *nv = 1;
    rc = 0;
out:
    pqt_free(bounds);
    return rc;
}

static const struct {
    const char *id;
    workload_fn fn;
} WORKLOADS[] = {
    {"W1", wl_w1},   {"W1ra", wl_w1ra}, {"S1", wl_s1},       {"W5", wl_w5},     {"W6", wl_w6},
    {"W8", wl_w8},   {"W9", wl_w9},     {"T2", wl_t2},       {"P1", wl_p1},     {"W1t", wl_w1t},
    {"W5t", wl_w5t}, {"W9t", wl_w9t},   {"FSUM", wl_fsum},   {"W2n", wl_w2n},   {"W3n", wl_w3n},
    {"W4n", wl_w4n}, {"W13", wl_w13},   {"W13h", wl_w13h},   {"W13n", wl_w13n}, {"W7", wl_w7},
    {"W10", wl_w10}, {"PCB", wl_pcb},   {"PNONE", wl_pnone},
};

/* ---- driver ----------------------------------------------------------------------------- */

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static int agree(const double *a, const double *b, int n)
{
    for (int i = 0; i < n; i++) {
        double tol = 1e-9 * fmax(fabs(a[i]), fabs(b[i]));
        if (!(fabs(a[i] - b[i]) <= tol)) return 0;
    }
    return 1;
}

/* A "Vm...:" line of /proc/self/status in KiB, or -1 (not Linux). */
static long proc_status_kb(const char *field)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    size_t n = strlen(field);
    while (fp && fgets(line, sizeof line, fp))
        if (!strncmp(line, field, n) && line[n] == ':') kb = strtol(line + n + 1, NULL, 10);
    if (fp) fclose(fp);
    return kb;
}

/* A cold run (--evict): drop the file's pages before it, untimed; 0 when not asked. */
static int cold(const char *evict_bin, bench *b, evict_log *ev)
{
    return evict_bin ? evict_run(evict_bin, b->path, ev, b->err, sizeof b->err) : 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: pqt_bench --workload ID --file PATH [--threads T] [--runs R] [--crc 0|1]\n"
            "                 [--filter RULE]... [--sum COL,COL..] [--lo ID --hi ID]\n"
            "                 [--cone RA0,DEC0,R --cone-k SIN_DEC0,COS_DEC0,COS_R]\n"
            "                 [--phot colour,A,B | --phot mag,M] [--evict PQT_EVICT_BIN]\n"
            "workloads:");
    for (size_t i = 0; i < sizeof WORKLOADS / sizeof WORKLOADS[0]; i++)
        fprintf(stderr, " %s", WORKLOADS[i].id);
    fputc('\n', stderr);
}

int main(int argc, char **argv)
{
    const char *wid = NULL;
    int runs = 5;
    static bench b = {.threads = 1, .crc = 1};
    static evict_log ev;
    const char *evict_bin = NULL;       /* --evict: a cold run, the file evicted before each run */
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val) {
            usage();
            return 2;
        }
        if (!strcmp(a, "--workload")) wid = val;
        else if (!strcmp(a, "--file")) b.path = val;
        else if (!strcmp(a, "--threads")) b.threads = atoi(val);
        else if (!strcmp(a, "--runs")) runs = atoi(val);
        else if (!strcmp(a, "--crc")) b.crc = atoi(val);
        else if (!strcmp(a, "--filter") && b.nfilters < MAX_FILTERS) b.filters[b.nfilters++] = val;
        else if (!strcmp(a, "--sum")) b.sum_cols = val;
        else if (!strcmp(a, "--evict"))
            evict_bin = val;
        else if (!strcmp(a, "--lo")) b.lo = strtoll(val, NULL, 10);
        else if (!strcmp(a, "--hi")) b.hi = strtoll(val, NULL, 10);
        else if (!strcmp(a, "--cone") && sscanf(val, "%lf,%lf,%lf", &b.ra0, &b.dec0, &b.r) == 3) {
        } else if (!strcmp(a, "--cone-k") &&
                   sscanf(val, "%lf,%lf,%lf", &b.cone_s0, &b.cone_c0, &b.cone_cr) == 3) {
        } else if (!strcmp(a, "--phot") && bench_parse_phot(&b, val) == 0) {
        } else {
            usage();
            return 2;
        }
    }
    workload_fn fn = NULL;
    for (size_t i = 0; wid && i < sizeof WORKLOADS / sizeof WORKLOADS[0]; i++)
        if (!strcmp(WORKLOADS[i].id, wid)) fn = WORKLOADS[i].fn;
    if (!fn || !b.path || b.threads < 1 || b.threads > MAX_THREADS || runs < 1 || runs > MAX_RUNS) {
        usage();
        return 2;
    }

    long rss_start = proc_status_kb("VmRSS");
    double first[MAX_VALUES] = {0}, v[MAX_VALUES] = {0}, t[MAX_RUNS], cpu[MAX_RUNS];
    /* cold runs: the file's pages dropped before the warm-up and each timed run, untimed */
    int nfirst = 0, nv = 0;
    int ok = cold(evict_bin, &b, &ev) == 0 && fn(&b, first, &nfirst) == 0; /* warm-up */
    for (int r = 0; ok && r < runs; r++) {
        if (!(ok = cold(evict_bin, &b, &ev) == 0)) break;
        double t0 = bench_now_ms(), c0 = cpu_ms();
        ok = fn(&b, v, &nv) == 0;
        t[r] = bench_now_ms() - t0;
        cpu[r] = cpu_ms() - c0;
        if (ok && (nv != nfirst || !agree(first, v, nv))) {
            bench_fail(&b, "answer changed between runs (run %d: %.17g vs %.17g)", r + 1, v[0], first[0]);
            ok = 0;
        }
    }

    printf("{\"engine\":\"pqt\",\"workload\":");
    json_str(wid);
    printf(",\"threads\":%d,\"crc\":%d", b.threads, b.crc);
    printf(",\"rss_start_kb\":%ld,\"maxrss_kb\":%ld", rss_start, proc_status_kb("VmHWM"));
    evict_print(&ev);
    if (ok && b.have_scan) /* what the table read (the last run's counters) */
        printf(",\"scan\":{\"row_groups\":%lld,\"pruned_stats\":%lld,\"kept_whole\":%lld,"
               "\"pages_decompressed\":%lld,\"values_decoded\":%lld,\"files\":%lld,"
               "\"files_pruned_partition\":%lld,\"files_pruned_stats\":%lld,"
               "\"footers_read\":%lld}",
               (long long)b.scan.row_groups, (long long)b.scan.row_groups_pruned_stats,
               (long long)b.scan.row_groups_all, (long long)b.scan.pages_decompressed,
               (long long)b.scan.values_decoded, (long long)b.scan.files,
               (long long)b.scan.files_pruned_partition, (long long)b.scan.files_pruned_stats,
               (long long)b.scan.footers_read);
    if (ok) {
        printf(",\"values\":[");
        for (int i = 0; i < nfirst; i++) printf("%s%.17g", i ? "," : "", first[i]);
        printf("],\"times_ms\":[");
        for (int r = 0; r < runs; r++) printf("%s%.6f", r ? "," : "", t[r]);
        qsort(cpu, (size_t)runs, sizeof cpu[0], bench_cmp_double);
        printf("],\"cpu_ms_median\":%.6f,\"cpu_ms_min\":%.6f", cpu[runs / 2], cpu[0]);
        qsort(t, (size_t)runs, sizeof t[0], bench_cmp_double);
        double med = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
        printf(",\"median\":%.6f,\"min\":%.6f,\"max\":%.6f}\n", med, t[0], t[runs - 1]);
    } else {
        printf(",\"error\":");
        json_str(b.err);
        printf("}\n");
    }
    for (int i = 0; i < 4; i++) free(b.buf[i]);
    for (int i = 0; i < MAX_THREADS; i++) free(b.tbuf[i]);
    free(b.valid);
    return 0;
}
