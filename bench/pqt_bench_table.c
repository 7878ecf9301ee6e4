/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_bench_table.c - the workloads that go through the table, the way the README tells
 * users to read: pqt_table_open (with filters at open where the workload filters), then
 * pqt_table_get_alloc (or get_strings_alloc) per column into fresh memory, compute, pqt_free.
 *
 *   W1t, W5t, W9t   W1, W5, W9 on the README's path (beside the tuned file-level path)
 *   FSUM            filters at open (--filter RULE, repeatable), then the count of the table's
 *                   rows and the sums of the --sum columns: W2, W3, W4, W14..W16
 *   W2n, W3n, W4n   "no pushdown": open unfiltered, read the filter column whole, build a
 *                   row mask by hand in C, then read each --sum column whole and sum its rows
 *                   under the mask
 *   W13, W13h, W13n cone search (--cone RA0,DEC0,R in degrees, --cone-k S0,C0,CR the
 *                   constants the peers use), then the sums of the --sum payload columns:
 *                   W13 opens with a filter of bounding-box rules (dec and ra ranges) and the
 *                   exact distance as a callback predicate (pqt_filter_add_callback), so the
 *                   payload is decoded for the cone's rows only; W13h opens with the box
 *                   rules only and tests the distance in C on the box's rows (as
 *                   examples/selection_loop.c does); W13n reads ra, dec and the payload whole (no
 *                   pushdown).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_bench.h"

#define MAX_SUMS 6
/* pi / 180 exactly as DuckDB's radians() and Rust's to_radians() compute it */
#define DEG_TO_RAD (3.14159265358979323846 / 180.0)

/* Options with the run's threads and CRC setting, plus b's filter rules when `filtered`,
 * or the filter object `filter` when given. */
pqt_status bench_open_table_with(bench *b, int filtered, const pqt_filter *filter, pqt_table **t)
{
    pqt_opts *o = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_THREADS, b->threads);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_VERIFY_CRC, b->crc);
    for (int k = 0; filtered && st == PQT_OK && k < b->nfilters; k++)
        st = pqt_opts_set_str(o, PQT_OPT_FILTER, b->filters[k]);
    if (st == PQT_OK && filter) st = pqt_opts_set_filter(o, filter);
    if (st == PQT_OK) st = pqt_table_open(b->path, o, t);
    pqt_opts_free(o);
    return st;
}

static pqt_status open_table(bench *b, int filtered, pqt_table **t)
{
    return bench_open_table_with(b, filtered, NULL, t);
}

/* Split b->sum_cols ("a,b,c") into names[] (pointers into buf). */
static int sum_names(bench *b, const char *dflt, char *buf, size_t cap, const char **names)
{
    const char *src = b->sum_cols ? b->sum_cols : dflt;
    if (!src || strlen(src) >= cap) return bench_fail(b, "--sum: missing or too long");
    strcpy(buf, src);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == MAX_SUMS) return bench_fail(b, "--sum: at most %d columns", MAX_SUMS);
        names[n++] = tok;
    }
    return n;
}

/* Sum of a fixed-width numeric column, read whole with pqt_table_get_alloc (fresh memory,
 * freed here); only rows with keep[i] != 0 when keep is given. Nulls copy as 0, which is
 * what SQL's sum ignoring nulls gives. Integer columns sum exactly in int64. */
static int sum_get_alloc(bench *b, pqt_table *t, const char *name, const uint8_t *keep,
                         double *sum)
{
    void *d = NULL;
    int kind = 0, rc = -1;
    int64_t n = 0;
    CK(b, pqt_table_kind(t, name, &kind));
    CK(b, pqt_table_get_alloc(t, name, 0, &d, NULL, &n));
    const int th = b->threads;
    if (kind == PQT_FLOAT64 && !keep) {
        *sum = bench_sum_f64(d, (size_t)n, th);
    } else if (kind == PQT_FLOAT32 && !keep) {
        *sum = bench_sum_f32(d, (size_t)n, th);
    } else if (kind == PQT_FLOAT64 || kind == PQT_FLOAT32) {
        double s = 0;
        const double *d64 = d;
        const float *d32 = d;
        if (kind == PQT_FLOAT64) {
#pragma omp parallel for num_threads(th) reduction(+ : s) schedule(static)
            for (int64_t i = 0; i < n; i++) s += keep[i] ? d64[i] : 0.0;
        } else {
#pragma omp parallel for num_threads(th) reduction(+ : s) schedule(static)
            for (int64_t i = 0; i < n; i++) s += keep[i] ? (double)d32[i] : 0.0;
        }
        *sum = s;
    } else if (kind == PQT_INT64 || kind == PQT_INT32) {
        int64_t s = 0;
        const int64_t *i64 = d;
        const int32_t *i32 = d;
        if (kind == PQT_INT64) {
#pragma omp parallel for num_threads(th) reduction(+ : s) schedule(static)
            for (int64_t i = 0; i < n; i++) s += !keep || keep[i] ? i64[i] : 0;
        } else {
#pragma omp parallel for num_threads(th) reduction(+ : s) schedule(static)
            for (int64_t i = 0; i < n; i++) s += !keep || keep[i] ? i32[i] : 0;
        }
        *sum = (double)s;
    } else {
        bench_fail(b, "column %s has kind %s, expected a number", name, pqt_kind_name(kind));
        goto out;
    }
    rc = 0;
out:
    pqt_free(d);
    return rc;
}

/* Rows of a mask that are set. */
static int64_t count_mask(const uint8_t *keep, int64_t n, int threads)
{
    int64_t c = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : c) schedule(static)
    for (int64_t i = 0; i < n; i++) c += keep[i];
    return c;
}

/* ---- the README's path ----------------------------------------------------------------- */

/* W1t: W1 through the README's path: pqt_table_open, then per column pqt_table_get_alloc (a
 * copy the caller owns and frees), summed. */
int wl_w1t(bench *b, double *v, int *nv)
{
    static const char *const names[] = {"ra", "dec", "mass", "z"};
    pqt_table *t = NULL;
    int rc = -1;
    CK(b, open_table(b, 0, &t));
    for (int k = 0; k < 4; k++)
        if (sum_get_alloc(b, t, names[k], NULL, &v[k])) goto out;
    *nv = 4;
    rc = 0;
out:
    pqt_table_close(t);
    return rc;
}

/* W5t: W5 through the README's path: pqt_table_get_strings_alloc of `name`, total bytes. */
int wl_w5t(bench *b, double *v, int *nv)
{
    pqt_table *t = NULL;
    int64_t *off = NULL, n = 0;
    char *bytes = NULL;
    uint8_t *valid = NULL;
    int rc = -1;
    CK(b, open_table(b, 0, &t));
    CK(b, pqt_table_get_strings_alloc(t, "name", &off, &bytes, &valid, &n));
    v[0] = (double)(off[n] - off[0]);
    *nv = 1;
    rc = 0;
out:
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(valid);
    pqt_table_close(t);
    return rc;
}

/* W9t: W9 through the README's path: pqt_table_get_alloc of the FLOAT[5] vector `mag`
 * (nrows * 5 elements, row-major), summed. Null elements copy as 0. */
int wl_w9t(bench *b, double *v, int *nv)
{
    pqt_table *t = NULL;
    void *d = NULL;
    int64_t n = 0;
    int kind = 0, rc = -1;
    CK(b, open_table(b, 0, &t));
    CK(b, pqt_table_kind(t, "mag", &kind));
    if (PQT_KIND_ELEMENT(kind) != PQT_FLOAT32) {
        bench_fail(b, "mag is %s, expected a float32 vector", pqt_kind_name(kind));
        goto out;
    }
    CK(b, pqt_table_get_alloc(t, "mag", 0, &d, NULL, &n));
    v[0] = bench_sum_f32(d, (size_t)n, b->threads);
    *nv = 1;
    rc = 0;
out:
    pqt_free(d);
    pqt_table_close(t);
    return rc;
}

/* ---- filters at open, and the same by hand ----------------------------------------------- */

/* v[0] = rows kept, v[1..] = sums of the --sum columns under keep (NULL: every row). */
int bench_count_and_sums(bench *b, pqt_table *t, const uint8_t *keep, int64_t kept, double *v,
                         int *nv)
{
    char buf[256];
    const char *names[MAX_SUMS];
    int ns = sum_names(b, NULL, buf, sizeof buf, names);
    if (ns < 0) return -1;
    v[0] = (double)kept;
    for (int k = 0; k < ns; k++)
        if (sum_get_alloc(b, t, names[k], keep, &v[1 + k])) return -1;
    *nv = 1 + ns;
    return 0;
}

/* FSUM (W2, W3, W4, W14..W16, D1..D5): open with the --filter rules (none for D1, D4: the
 * whole dataset); the table holds the survivors only. `--sum ''` sums nothing (D1: the count
 * alone). A rule pqt refuses (PQT_BAD_FILTER: a spelling this build does not parse yet) is an
 * error starting "unsupported:", which the report shows as an "unsupported" cell. */
int wl_fsum(bench *b, double *v, int *nv)
{
    pqt_table *t = NULL;
    int rc = -1;
    pqt_status st = open_table(b, 1, &t);
    if (st == PQT_BAD_FILTER)
        return bench_fail(b, "unsupported: pqt refuses the rule: %s", pqt_errmsg());
    CK(b, st);
    rc = bench_count_and_sums(b, t, NULL, pqt_table_nrows(t), v, nv);
    if (rc == 0 && pqt_table_scan_stats(t, &b->scan) == PQT_OK) b->have_scan = 1;
out:
    pqt_table_close(t);
    return rc;
}

/* The no-pushdown runs: which predicate builds the mask. */
enum hand_pred { PRED_ID_RANGE, PRED_SURVEY_RARE, PRED_MASS_GT };

/* keep[i] = predicate of row i, from the filter column read whole. */
static int hand_mask(bench *b, pqt_table *t, enum hand_pred pred, uint8_t *keep, int64_t n)
{
    void *d = NULL;
    int64_t *off = NULL, nelem = 0;
    char *bytes = NULL;
    uint8_t *valid = NULL;
    int rc = -1;
    const int th = b->threads;
    if (pred == PRED_SURVEY_RARE) {
        /* survey = 'rare'; a null string is an empty range, so it is not 'rare' */
        CK(b, pqt_table_get_strings_alloc(t, "survey", &off, &bytes, &valid, &nelem));
#pragma omp parallel for num_threads(th) schedule(static)
        for (int64_t i = 0; i < n; i++)
            keep[i] = off[i + 1] - off[i] == 4 && memcmp(bytes + off[i], "rare", 4) == 0;
    } else {
        const char *col = pred == PRED_ID_RANGE ? "id" : "mass";
        int kind = 0;
        CK(b, pqt_table_kind(t, col, &kind));
        if (kind != (pred == PRED_ID_RANGE ? PQT_INT64 : PQT_FLOAT64)) {
            bench_fail(b, "%s is %s", col, pqt_kind_name(kind));
            goto out;
        }
        CK(b, pqt_table_get_alloc(t, col, 0, &d, &valid, &nelem));
        if (pred == PRED_ID_RANGE) {
            const int64_t *id = d, lo = b->lo, hi = b->hi;
#pragma omp parallel for num_threads(th) schedule(static)
            for (int64_t i = 0; i < n; i++) keep[i] = id[i] >= lo && id[i] <= hi;
        } else {
            const double *m = d; /* mass > 1e12; NaN compares false */
#pragma omp parallel for num_threads(th) schedule(static)
            for (int64_t i = 0; i < n; i++) keep[i] = m[i] > 1e12;
        }
        /* a null row (value copied as 0) passes neither predicate, nor would it in SQL */
        if (valid)
            for (int64_t i = 0; i < n; i++)
                if (!(valid[i >> 3] >> (i & 7) & 1)) keep[i] = 0;
    }
    rc = 0;
out:
    pqt_free(d);
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(valid);
    return rc;
}

static int no_pushdown(bench *b, enum hand_pred pred, double *v, int *nv)
{
    pqt_table *t = NULL;
    uint8_t *keep = NULL;
    int rc = -1;
    CK(b, open_table(b, 0, &t));
    int64_t n = pqt_table_nrows(t);
    if (!(keep = malloc((size_t)n + 1))) {
        bench_fail(b, "out of memory");
        goto out;
    }
    if (hand_mask(b, t, pred, keep, n)) goto out;
    rc = bench_count_and_sums(b, t, keep, count_mask(keep, n, b->threads), v, nv);
out:
    free(keep);
    pqt_table_close(t);
    return rc;
}

int wl_w2n(bench *b, double *v, int *nv) { return no_pushdown(b, PRED_ID_RANGE, v, nv); }
int wl_w3n(bench *b, double *v, int *nv) { return no_pushdown(b, PRED_SURVEY_RARE, v, nv); }
int wl_w4n(bench *b, double *v, int *nv) { return no_pushdown(b, PRED_MASS_GT, v, nv); }

/* ---- W13: cone search ------------------------------------------------------------------ */

/* Bounding-box rules of the cone (ra0, dec0, r): dec within dec0 +- r; ra within
 * ra0 +- asin(sin r / cos dec0), the cone's widest extent in ra, when the cone reaches
 * neither pole nor the ra = 0/360 seam (else no ra rule: still correct, prunes less). Both
 * widened by 1e-6 degrees so rounding in the bounds never drops a row of the cone. */
static int cone_box(const bench *b, char rules[4][96])
{
    const double eps = 1e-6;
    int n = 0;
    snprintf(rules[n++], 96, "dec >= %.17g", b->dec0 - b->r - eps);
    snprintf(rules[n++], 96, "dec <= %.17g", b->dec0 + b->r + eps);
    if (fabs(b->dec0) + b->r < 89.0) {
        double s = sin(b->r * DEG_TO_RAD) / cos(b->dec0 * DEG_TO_RAD);
        double half = asin(s < 1 ? s : 1) / DEG_TO_RAD + eps;
        if (b->ra0 - half > 0 && b->ra0 + half < 360) {
            snprintf(rules[n++], 96, "ra >= %.17g", b->ra0 - half);
            snprintf(rules[n++], 96, "ra <= %.17g", b->ra0 + half);
        }
    }
    return n;
}

/* The exact test, the peers' expression term for term:
 * sin(dec) sin(dec0) + cos(dec) cos(dec0) cos(ra - ra0) >= cos(r), with sin(dec0), cos(dec0)
 * and cos(r) passed in (--cone-k) so that every engine compares against the same doubles. */
static inline int in_cone(const bench *b, double ra, double dec)
{
    double d = dec * DEG_TO_RAD;
    return sin(d) * b->cone_s0 + cos(d) * b->cone_c0 * cos((ra - b->ra0) * DEG_TO_RAD) >=
           b->cone_cr;
}

/* W13's callback predicate over (ra, dec): pqt hands it the rows the box rules left alive. */
static int cone_callback(void *user, const pqt_batch_col *cols, int ncols, int64_t n,
                         uint8_t *keep)
{
    const bench *b = user;
    if (ncols != 2 || cols[0].kind != PQT_FLOAT64 || cols[1].kind != PQT_FLOAT64) return 1;
    const double *ra = cols[0].data, *dec = cols[1].data;
    const uint8_t *vr = cols[0].validity, *vd = cols[1].validity;
    for (int64_t i = 0; i < n; i++) {
        int present = (!vr || (vr[i >> 3] >> (i & 7) & 1)) && (!vd || (vd[i >> 3] >> (i & 7) & 1));
        if (present && in_cone(b, ra[i], dec[i])) keep[i >> 3] = (uint8_t)(keep[i >> 3] | 1u << (i & 7));
    }
    return 0;
}

/* keep[i] = row i of t in the cone, from ra and dec read whole with pqt_table_get_alloc. */
static int cone_mask(bench *b, pqt_table *t, uint8_t *keep, int64_t n, int64_t *kept)
{
    void *ra = NULL, *dec = NULL;
    int rc = -1;
    CK(b, pqt_table_get_alloc(t, "ra", PQT_FLOAT64, &ra, NULL, NULL));
    CK(b, pqt_table_get_alloc(t, "dec", PQT_FLOAT64, &dec, NULL, NULL));
    const double *pra = ra, *pdec = dec;
    int64_t c = 0;
#pragma omp parallel for num_threads(b->threads) reduction(+ : c) schedule(static)
    for (int64_t i = 0; i < n; i++) {
        keep[i] = (uint8_t)in_cone(b, pra[i], pdec[i]);
        c += keep[i];
    }
    *kept = c;
    rc = 0;
out:
    pqt_free(ra);
    pqt_free(dec);
    return rc;
}

enum cone_mode {
    CONE_CALLBACK, /* W13: box rules + the exact test as a callback, all at open */
    CONE_BY_HAND,  /* W13h: box rules at open, exact test in C on the box's rows */
    CONE_NONE      /* W13n: no pushdown: ra, dec and the payload read whole */
};

static int cone(bench *b, enum cone_mode mode, double *v, int *nv)
{
    static const char *const radec[] = {"ra", "dec"};
    pqt_filter *filter = NULL;
    pqt_table *t = NULL;
    uint8_t *keep = NULL;
    int rc = -1;
    char rules[4][96];
    if (!(b->r > 0)) return bench_fail(b, "W13 needs --cone RA0,DEC0,R and --cone-k S0,C0,CR");
    if (mode != CONE_NONE) {
        int nr = cone_box(b, rules);
        CK(b, pqt_filter_new(&filter));
        for (int k = 0; k < nr; k++) CK(b, pqt_filter_add(filter, rules[k]));
    }
    if (mode == CONE_CALLBACK) CK(b, pqt_filter_add_callback(filter, radec, 2, cone_callback, b));
    CK(b, bench_open_table_with(b, 0, filter, &t));
    int64_t n = pqt_table_nrows(t), kept = n;
    if (mode != CONE_CALLBACK) {
        if (!(keep = malloc((size_t)n + 1))) {
            bench_fail(b, "out of memory");
            goto out;
        }
        if (cone_mask(b, t, keep, n, &kept)) goto out;
    }
    rc = bench_count_and_sums(b, t, keep, kept, v, nv);
out:
    free(keep);
    pqt_table_close(t);
    pqt_filter_free(filter);
    return rc;
}

int wl_w13(bench *b, double *v, int *nv) { return cone(b, CONE_CALLBACK, v, nv); }
int wl_w13h(bench *b, double *v, int *nv) { return cone(b, CONE_BY_HAND, v, nv); }
int wl_w13n(bench *b, double *v, int *nv) { return cone(b, CONE_NONE, v, nv); }
