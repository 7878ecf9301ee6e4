/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_bench.h - what the pqt engine's files share: the run's state, the checked-call macro,
 * the summing kernels and the workload signature (pqt_bench.c is the driver and the file-level
 * workloads; pqt_bench_table.c the table workloads: the README's path, filters, W13).
 */
#ifndef PQT_BENCH_H
#define PQT_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "pqt.h"

#define MAX_VALUES 8
#define MAX_THREADS 256
#define MAX_FILTERS 8

typedef struct bench {
    const char *path;
    int threads;
    int crc;
    char err[1024];
    /* the workload's parameters (from the command line) */
    const char *filters[MAX_FILTERS]; /* --filter RULE (repeatable): rules at table open */
    int nfilters;
    const char *sum_cols; /* --sum a,b,c: the columns whose sums follow the count */
    int64_t lo, hi;       /* --lo, --hi: W2n's id range */
    double ra0, dec0, r;  /* --cone RA0,DEC0,R (degrees): W13 */
    double cone_s0, cone_c0, cone_cr; /* --cone-k: sin(dec0), cos(dec0), cos(r) as the peers have them */
    int phot;                         /* --phot colour,A,B | mag,M: W14..W16's cut in C (PHOT_*) */
    double phot_a, phot_b;
    /* what the last run's filtered open cost (pqt_table_scan_stats), for the record */
    pqt_scan_counts scan;
    int have_scan;
    /* buffers that live across runs (grown, never shrunk) */
    void *buf[4];
    size_t cap[4];
    uint8_t *valid;
    size_t valid_cap;
    void *tbuf[MAX_THREADS]; /* T2: one buffer per OpenMP thread */
    size_t tcap[MAX_THREADS];
} bench;

/* Record an error message in b->err; returns -1. */
int bench_fail(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A pqt call that must succeed: on failure record "<call>: <STATUS>: <message>" and bail. */
#define CK(b, call)                                                                                \
    do {                                                                                           \
        pqt_status st_ = (call);                                                                   \
        if (st_ != PQT_OK) {                                                                       \
            bench_fail((b), "%s: %s: %s", #call, pqt_status_name(st_), pqt_errmsg());              \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

/* Sums of n values with 8 accumulators per thread, `threads` OpenMP threads. */
double bench_sum_f64(const double *d, size_t n, int threads);
double bench_sum_f32(const float *d, size_t n, int threads);

/* A workload: fills v[0..*nv) with its checksum; 0, or -1 with b->err set. */
typedef int (*workload_fn)(bench *b, double *v, int *nv);

/* pqt_bench_table.c */
int wl_w1t(bench *b, double *v, int *nv);
int wl_w5t(bench *b, double *v, int *nv);
int wl_w9t(bench *b, double *v, int *nv);
int wl_fsum(bench *b, double *v, int *nv);
int wl_w2n(bench *b, double *v, int *nv);
int wl_w3n(bench *b, double *v, int *nv);
int wl_w4n(bench *b, double *v, int *nv);
int wl_w13(bench *b, double *v, int *nv);
int wl_w13h(bench *b, double *v, int *nv);
int wl_w13n(bench *b, double *v, int *nv);

/* pqt_bench_table.c, shared with pqt_bench_phot.c */
pqt_status bench_open_table_with(bench *b, int filtered, const pqt_filter *filter, pqt_table **t);
int bench_count_and_sums(bench *b, pqt_table *t, const uint8_t *keep, int64_t kept, double *v,
                         int *nv);

/* pqt_bench_phot.c: W14..W16's cuts (PHOT_COLOUR: g - r > a and r < b; PHOT_MAG:
 * -2.5 * log10(flux) + 22.5 < a) as a callback at open (PCB) and without pushdown (PNONE) */
enum { PHOT_NONE, PHOT_COLOUR, PHOT_MAG };
int bench_parse_phot(bench *b, const char *arg);
int wl_pcb(bench *b, double *v, int *nv);
int wl_pnone(bench *b, double *v, int *nv);

/* pqt_bench_sort.c */
int wl_w7(bench *b, double *v, int *nv);
int wl_w10(bench *b, double *v, int *nv);

#endif
