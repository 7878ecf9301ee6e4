/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_pushdown.c - the pqt engine of the pushdown scenarios (bench/pushdown.mjs): one filtered
 * read on one file, a warm-up run then `runs` timed runs, one JSON line on stdout.
 *
 *   pqt_pushdown --file F [--filter RULE]... [--cols a,b,c] [--pushdown 1|0] [--threads 1]
 *                [--runs 5]
 *
 * Each run goes the README's way: options with the rules (PQT_OPT_FILTER, one per --filter,
 * AND-combined in the order given), pqt_table_open, the survivors' count (pqt_table_nrows),
 * then every --cols column into fresh memory (pqt_table_get_alloc / get_strings_alloc),
 * folded into a checksum, pqt_free, pqt_table_close. --pushdown 0 sets every
 * PQT_OPT_PUSHDOWN_* option to 0: the same reader and projection without any pruning (the
 * baseline of docs/pruning.md, "Scenarios"). No --cols: the count only.
 *
 * Checksum (what the peers compute in SQL / Polars): the count, then per column
 *   numbers: the sum (nulls count 0, as SQL's sum skips them; integers exact in int64)
 *   bool: the number of true values;  strings: the total length in bytes;
 *   FLOAT[5] vectors: the sum of every element.
 * The record also carries pqt_table_scan_stats of the last run (after the columns were read,
 * so payload pages count too), and the process CPU time of each run (cpu_ms): on a machine
 * shared with other work a steadier measure than the wall clock.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pqt.h"

#define MAX_RUNS 100
#define MAX_RULES 8
#define MAX_COLS 16

typedef struct run_cfg {
    const char *path;
    const char *rules[MAX_RULES];
    int nrules;
    const char *cols[MAX_COLS];
    int ncols;
    int pushdown;
    int threads;
    char err[1024];
} run_cfg;

static double now_ms(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int fail(run_cfg *c, const char *what, pqt_status st)
{
    snprintf(c->err, sizeof c->err, "%s: %s: %s", what, pqt_status_name(st), pqt_errmsg());
    return -1;
}

static pqt_status open_filtered(const run_cfg *c, pqt_table **t)
{
    pqt_opts *o = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_THREADS, c->threads);
    for (int k = 0; st == PQT_OK && k < c->nrules; k++)
        st = pqt_opts_set_str(o, PQT_OPT_FILTER, c->rules[k]);
    for (int opt = PQT_OPT_PUSHDOWN_STATS; st == PQT_OK && !c->pushdown &&
                                           opt <= PQT_OPT_PUSHDOWN_ADAPTIVE;
         opt++)
        st = pqt_opts_set_int(o, (pqt_opt)opt, 0);
    if (st == PQT_OK) st = pqt_table_open(c->path, o, t);
    pqt_opts_free(o);
    return st;
}

/* The checksum of one column of the open table, read into fresh memory. */
static int column_checksum(run_cfg *c, pqt_table *t, const char *name, double *out)
{
    int kind = 0;
    pqt_status st = pqt_table_kind(t, name, &kind);
    if (st != PQT_OK) return fail(c, name, st);
    if (kind == PQT_STRING) {
        int64_t *off = NULL, n = 0;
        char *bytes = NULL;
        uint8_t *valid = NULL;
        st = pqt_table_get_strings_alloc(t, name, &off, &bytes, &valid, &n);
        if (st == PQT_OK) *out = (double)(off[n] - off[0]); /* a null is an empty range */
        pqt_free(off);
        pqt_free(bytes);
        pqt_free(valid);
        return st == PQT_OK ? 0 : fail(c, name, st);
    }
    void *d = NULL;
    int64_t n = 0;
    st = pqt_table_get_alloc(t, name, 0, &d, NULL, &n);
    if (st != PQT_OK) return fail(c, name, st);
    int rc = 0;
    switch (PQT_KIND_ELEMENT(kind)) { /* a vector gives n = rows x width elements */
    case PQT_INT32: {
        int64_t s = 0;
        for (int64_t i = 0; i < n; i++) s += ((const int32_t *)d)[i];
        *out = (double)s;
        break;
    }
    case PQT_INT64: {
        int64_t s = 0;
        for (int64_t i = 0; i < n; i++) s += ((const int64_t *)d)[i];
        *out = (double)s;
        break;
    }
    case PQT_FLOAT32: {
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += ((const float *)d)[i];
        *out = s;
        break;
    }
    case PQT_FLOAT64: {
        double s = 0;
        for (int64_t i = 0; i < n; i++) s += ((const double *)d)[i];
        *out = s;
        break;
    }
    case PQT_BOOL: {
        int64_t s = 0;
        for (int64_t i = 0; i < n; i++) s += ((const uint8_t *)d)[i] != 0;
        *out = (double)s;
        break;
    }
    default:
        snprintf(c->err, sizeof c->err, "column %s: kind %s has no checksum here", name,
                 pqt_kind_name(kind));
        rc = -1;
    }
    pqt_free(d);
    return rc;
}

/* One run: v[0] the count, v[1 + k] the checksum of column k; the scan counters. */
static int one_run(run_cfg *c, double *v, pqt_scan_counts *sc)
{
    pqt_table *t = NULL;
    pqt_status st = open_filtered(c, &t);
    if (st != PQT_OK) return fail(c, "pqt_table_open", st);
    int rc = 0;
    v[0] = (double)pqt_table_nrows(t);
    for (int k = 0; rc == 0 && k < c->ncols; k++) rc = column_checksum(c, t, c->cols[k], &v[1 + k]);
    if (rc == 0 && (st = pqt_table_scan_stats(t, sc)) != PQT_OK) rc = fail(c, "pqt_table_scan_stats", st);
    pqt_table_close(t);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n sorted values. */
static double median(const double *v, int n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

static long peak_rss_kb(void)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (fp && fgets(line, sizeof line, fp))
        if (!strncmp(line, "VmHWM:", 6)) kb = strtol(line + 6, NULL, 10);
    if (fp) fclose(fp);
    return kb;
}

static void print_counters(const pqt_scan_counts *s)
{
#define CNT(f) printf("%s\"" #f "\":%lld", first ? "" : ",", (long long)s->f), first = 0
    int first = 1;
    printf(",\"counters\":{");
    CNT(row_groups);
    CNT(row_groups_pruned_stats);
    CNT(row_groups_all);
    CNT(row_groups_pruned_index);
    CNT(row_groups_pruned_dictionary);
    CNT(row_groups_pruned_bloom);
    CNT(pages);
    CNT(pages_skipped);
    CNT(pages_decompressed);
    CNT(pages_pruned_index);
    CNT(dictionary_pages_read);
    CNT(bloom_filters_read);
    CNT(values_decoded);
    CNT(bytes_read);
    CNT(row_groups_sel_runs);
    CNT(row_groups_sel_bitmap);
    CNT(row_groups_decode_then_filter);
    printf("}");
#undef CNT
}

static int usage(void)
{
    fprintf(stderr, "usage: pqt_pushdown --file F [--filter RULE]... [--cols a,b,c] "
                    "[--pushdown 1|0] [--threads T] [--runs R]\n");
    return 2;
}

int main(int argc, char **argv)
{
    static run_cfg c = {.pushdown = 1, .threads = 1};
    static char colbuf[1024];
    int runs = 5;
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val) return usage();
        if (!strcmp(a, "--file")) c.path = val;
        else if (!strcmp(a, "--filter") && c.nrules < MAX_RULES) c.rules[c.nrules++] = val;
        else if (!strcmp(a, "--cols") && strlen(val) < sizeof colbuf) {
            strcpy(colbuf, val);
            char *save = NULL;
            for (char *tok = strtok_r(colbuf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (c.ncols == MAX_COLS) return usage();
                c.cols[c.ncols++] = tok;
            }
        } else if (!strcmp(a, "--pushdown")) c.pushdown = atoi(val);
        else if (!strcmp(a, "--threads")) c.threads = atoi(val);
        else if (!strcmp(a, "--runs")) runs = atoi(val);
        else return usage();
    }
    if (!c.path || c.threads < 1 || runs < 1 || runs > MAX_RUNS) return usage();

    double first[1 + MAX_COLS] = {0}, v[1 + MAX_COLS], t[MAX_RUNS], cpu[MAX_RUNS];
    pqt_scan_counts sc;
    memset(&sc, 0, sizeof sc);
    int nv = 1 + c.ncols, ok = one_run(&c, first, &sc) == 0; /* warm-up */
    for (int r = 0; ok && r < runs; r++) {
        double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
        ok = one_run(&c, v, &sc) == 0;
        t[r] = now_ms(CLOCK_MONOTONIC) - t0;
        cpu[r] = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        for (int k = 0; ok && k < nv; k++)
            if (!(fabs(v[k] - first[k]) <= 1e-9 * fmax(fabs(v[k]), fabs(first[k])))) {
                snprintf(c.err, sizeof c.err, "answer changed between runs (value %d: %.17g vs %.17g)",
                         k, v[k], first[k]);
                ok = 0;
            }
    }

    printf("{\"engine\":\"pqt\",\"pushdown\":%d,\"threads\":%d", c.pushdown, c.threads);
    if (ok) {
        printf(",\"values\":[");
        for (int k = 0; k < nv; k++) printf("%s%.17g", k ? "," : "", first[k]);
        printf("],\"times_ms\":[");
        for (int r = 0; r < runs; r++) printf("%s%.6f", r ? "," : "", t[r]);
        printf("],\"cpu_ms\":[");
        for (int r = 0; r < runs; r++) printf("%s%.6f", r ? "," : "", cpu[r]);
        qsort(cpu, (size_t)runs, sizeof cpu[0], cmp_double);
        qsort(t, (size_t)runs, sizeof t[0], cmp_double);
        printf("],\"median\":%.6f,\"min\":%.6f,\"max\":%.6f", median(t, runs), t[0], t[runs - 1]);
        printf(",\"cpu_median\":%.6f,\"cpu_min\":%.6f,\"cpu_max\":%.6f", median(cpu, runs), cpu[0],
               cpu[runs - 1]);
        print_counters(&sc);
    } else {
        printf(",\"error\":");
        json_str(c.err);
    }
    printf(",\"maxrss_kb\":%ld}\n", peak_rss_kb());
    return 0;
}
