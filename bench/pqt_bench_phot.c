/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_bench_phot.c - W14..W16, the photometric cuts, written in C for the rows beside pqt's
 * expression (the FSUM row, which hands pqt the cut as one filter rule):
 *
 *   PCB    (W14c..W16c) the cut as a callback predicate at open (pqt_filter_add_callback),
 *          AND the --filter helper rules, which statistics can prune with; the --sum payload
 *          is then decoded for the survivors only
 *   PNONE  (W14n..W16n) no pushdown: open unfiltered, the cut's columns read whole with
 *          pqt_table_get_alloc, the row mask in C, the --sum columns read whole and summed
 *          under it
 *
 * --phot colour,A,B is `g - r > A and r < B` (columns g, r); --phot mag,M is
 * `-2.5 * log10(flux) + 22.5 < M` (column flux). Each is the peers' expression operation for
 * operation in doubles, so every engine keeps the same rows; a null in any of the cut's
 * columns drops the row, as SQL's unknown does.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_bench.h"

int bench_parse_phot(bench *b, const char *arg)
{
    char name[16];
    double x, y;
    int n = sscanf(arg, "%15[a-z],%lf,%lf", name, &x, &y);
    if (n == 3 && !strcmp(name, "colour")) {
        b->phot = PHOT_COLOUR;
        b->phot_b = y;
    } else if (n == 2 && !strcmp(name, "mag")) {
        b->phot = PHOT_MAG;
    } else {
        return -1;
    }
    b->phot_a = x;
    return 0;
}

/* The cut's columns, in the order the kernels take them; their number. */
static int phot_columns(const bench *b, const char **names)
{
    if (b->phot == PHOT_COLOUR) {
        names[0] = "g";
        names[1] = "r";
        return 2;
    }
    names[0] = "flux";
    return 1;
}

static inline int present(const uint8_t *valid, int64_t i)
{
    return !valid || (valid[i >> 3] >> (i & 7) & 1);
}

/* The cut on row i of x (g or flux) and y (r; unused for mag), both present. */
static inline int phot_test(const bench *b, const double *x, const double *y, int64_t i)
{
    if (b->phot == PHOT_COLOUR) return x[i] - y[i] > b->phot_a && y[i] < b->phot_b;
    return -2.5 * log10(x[i]) + 22.5 < b->phot_a;
}

/* PCB's callback: pqt hands it the rows the other conjuncts left alive. */
static int phot_callback(void *user, const pqt_batch_col *cols, int ncols, int64_t n, uint8_t *keep)
{
    const bench *b = user;
    for (int c = 0; c < ncols; c++)
        if (cols[c].kind != PQT_FLOAT64) return 1;
    const double *x = cols[0].data, *y = ncols > 1 ? cols[1].data : NULL;
    const uint8_t *vx = cols[0].validity, *vy = ncols > 1 ? cols[1].validity : NULL;
    for (int64_t i = 0; i < n; i++)
        if (present(vx, i) && present(vy, i) && phot_test(b, x, y, i))
            keep[i >> 3] = (uint8_t)(keep[i >> 3] | 1u << (i & 7));
    return 0;
}

int wl_pcb(bench *b, double *v, int *nv)
{
    const char *cols[2];
    pqt_filter *filter = NULL;
    pqt_table *t = NULL;
    int rc = -1;
    if (b->phot == PHOT_NONE) return bench_fail(b, "PCB needs --phot");
    int nc = phot_columns(b, cols);
    CK(b, pqt_filter_new(&filter));
    for (int k = 0; k < b->nfilters; k++)
        CK(b, pqt_filter_add(filter, b->filters[k]));
    CK(b, pqt_filter_add_callback(filter, cols, nc, phot_callback, b));
    CK(b, bench_open_table_with(b, 0, filter, &t));
    rc = bench_count_and_sums(b, t, NULL, pqt_table_nrows(t), v, nv);
    if (rc == 0 && pqt_table_scan_stats(t, &b->scan) == PQT_OK) b->have_scan = 1;
out:
    pqt_table_close(t);
    pqt_filter_free(filter);
    return rc;
}

int wl_pnone(bench *b, double *v, int *nv)
{
    const char *cols[2];
    void *d[2] = {NULL, NULL};
    uint8_t *valid[2] = {NULL, NULL};
    pqt_table *t = NULL;
    uint8_t *keep = NULL;
    int rc = -1;
    if (b->phot == PHOT_NONE) return bench_fail(b, "PNONE needs --phot");
    int nc = phot_columns(b, cols);
    CK(b, bench_open_table_with(b, 0, NULL, &t));
    int64_t n = pqt_table_nrows(t);
    for (int c = 0; c < nc; c++) {
        int kind = 0;
        CK(b, pqt_table_kind(t, cols[c], &kind));
        if (kind != PQT_FLOAT64) {
            bench_fail(b, "%s is %s, expected float64", cols[c], pqt_kind_name(kind));
            goto out;
        }
        CK(b, pqt_table_get_alloc(t, cols[c], 0, &d[c], &valid[c], NULL));
    }
    if (!(keep = malloc((size_t)n + 1))) {
        bench_fail(b, "out of memory");
        goto out;
    }
    const double *x = d[0], *y = d[1];
    const uint8_t *vx = valid[0], *vy = valid[1];
    int64_t kept = 0;
#pragma omp parallel for num_threads(b->threads) reduction(+ : kept) schedule(static)
    for (int64_t i = 0; i < n; i++) {
        keep[i] = (uint8_t)(present(vx, i) && present(vy, i) && phot_test(b, x, y, i));
        kept += keep[i];
    }
    rc = bench_count_and_sums(b, t, keep, kept, v, nv);
    if (rc == 0 && pqt_table_scan_stats(t, &b->scan) == PQT_OK) b->have_scan = 1;
out:
    for (int c = 0; c < 2; c++) {
        pqt_free(d[c]);
        pqt_free(valid[c]);
    }
    free(keep);
    pqt_table_close(t);
    return rc;
}
