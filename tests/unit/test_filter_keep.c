/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_keep.c - a filter column is decoded once (docs/pruning.md, "A filter column
 * kept for the payload"): the values the filter pass decoded are what a later read of the
 * column returns, without decoding it again.
 *
 * The file is written here: 4 row groups of 3000 rows, no dictionary, one column of each
 * kind a filter keeps (int32, int64, float, double, bool, string; each null on its own rows)
 * (i64 never null) and id = the row (never null, never filtered). The truth is the generator: every
 * value read after a filtered open is compared with the formula at the row parquet_row_index names,
 * and the rows with a plain C loop over the rules. Checked: every kind read through get_alloc
 * (handed over), get (copied), get with a widening (a first touch) and get_strings_alloc; the
 * counter filter_values_reused (each kept column counted once, 0 with PQT_OPT_FILTER_KEEP_BYTES 0,
 * without the read, and when fewer than half the rows pass); a budget for some columns only; most
 * rows passing (decoded in place); 2 threads; a sort, a top-n, a sample, a limit; a clone; qc rules (hard:
 * the open fails; soft: as many warnings as without keeping); statistics proving a row group (the
 * column is then read again); and allocation failures injected through the open, which either fails
 * or keeps right values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

enum { RG_ROWS = 3000, NRG = 4, NROWS = RG_ROWS * NRG };

static int v_i32(int64_t r)
{
    return r % 13 != 0;
}
static int v_i64(int64_t r)
{
    return r >= 0;
} /* never null: statistics prove i64 < 30000 */
static int v_f32(int64_t r)
{
    return r % 11 != 0;
}
static int v_f64(int64_t r)
{
    return r % 17 != 0;
}
static int v_b(int64_t r)
{
    return r % 19 != 0;
}
static int v_s(int64_t r)
{
    return r % 23 != 0;
}
static int32_t i32_at(int64_t r)
{
    return (int32_t)(r % 100);
}
static int64_t i64_at(int64_t r)
{
    return r * 3;
}
static float f32_at(int64_t r)
{
    return (float)(r % 50) * 0.5f;
}
static double f64_at(int64_t r)
{
    return (double)(r % 40) * 0.25;
}
static int b_at(int64_t r)
{
    return r % 3 == 0;
}
static int s_digit(int64_t r)
{
    return (int)(r % 10);
}

/* The rules every open below filters by, and the same in C (a null compares unknown). */
static const char *const RULES[] = {"i32 < 95", "f64 >= 0.25 or s == \"v3\"", "b or f32 > 1",
                                    "s != \"v7\"", "i64 < 34500"};
enum { NRULES = 5 };
/* A second set keeping most rows (most of each row group is then decoded straight into the
 * kept block, and a dense selection is evaluated on every row): i32 and f32 kept. */
static const char *const RULES_B[] = {"i32 != 5", "f32 != 3"};
/* A third keeping about a fifth of the rows: nothing is kept (docs/pruning.md: below half
 * the copy would cost every open more than it saves). */
static const char *const RULES_LOW[] = {"i32 < 60", "f64 >= 1 or s == \"v3\"", "b or f32 > 10",
                                        "s != \"v7\"", "i64 < 30000"};
static int passes_low(int64_t r)
{
    if (!v_i32(r) || i32_at(r) >= 60) return 0;
    if (!((v_f64(r) && f64_at(r) >= 1) || (v_s(r) && s_digit(r) == 3))) return 0;
    if (!((v_b(r) && b_at(r)) || (v_f32(r) && f32_at(r) > 10))) return 0;
    if (!v_s(r) || s_digit(r) == 7) return 0;
    return i64_at(r) < 30000;
}
static int set_b; /* the set in use: 0 RULES, 1 RULES_B, 2 RULES_LOW */
static int passes_b(int64_t r)
{
    return v_i32(r) && i32_at(r) != 5 && v_f32(r) && f32_at(r) != 3;
}
static int passes(int64_t r)
{
    if (set_b == 1) return passes_b(r);
    if (set_b == 2) return passes_low(r);
    if (!v_i32(r) || i32_at(r) >= 95) return 0;
    if (!((v_f64(r) && f64_at(r) >= 0.25) || (v_s(r) && s_digit(r) == 3))) return 0;
    if (!((v_b(r) && b_at(r)) || (v_f32(r) && f32_at(r) > 1))) return 0;
    if (!v_s(r) || s_digit(r) == 7) return 0;
    return v_i64(r) && i64_at(r) < 34500;
}

static void write_file(const char *path)
{
    int32_t *i32 = malloc(NROWS * sizeof *i32);
    int64_t *i64 = malloc(NROWS * sizeof *i64), *id = malloc(NROWS * sizeof *id);
    float *f32 = malloc(NROWS * sizeof *f32);
    double *f64 = malloc(NROWS * sizeof *f64);
    uint8_t *b = malloc(NROWS);
    int64_t *off = malloc((NROWS + 1) * sizeof *off);
    char *bytes = malloc(NROWS * 2);
    uint8_t *v[6];
    for (int k = 0; k < 6; k++)
        v[k] = calloc(NROWS / 8 + 1, 1);
    REQUIRE_OK(i32 && i64 && id && f32 && f64 && b && off && bytes && v[5] ? PQT_OK : PQT_NOMEM);
    off[0] = 0;
    for (int64_t r = 0; r < NROWS; r++) {
        id[r] = r;
        i32[r] = i32_at(r);
        i64[r] = i64_at(r);
        f32[r] = f32_at(r);
        f64[r] = f64_at(r);
        b[r] = (uint8_t)b_at(r);
        bytes[2 * r] = 'v';
        bytes[2 * r + 1] = (char)('0' + s_digit(r));
        off[r + 1] = 2 * (r + 1);
        int valid[6] = {v_i32(r), v_i64(r), v_f32(r), v_f64(r), v_b(r), v_s(r)};
        for (int k = 0; k < 6; k++)
            v[k][r / 8] |= (uint8_t)(valid[k] << (r % 8));
    }
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "i32", PQT_INT32, 1, i32, v[0], NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "i64", PQT_INT64, 1, i64, v[1], NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "f32", PQT_FLOAT32, 1, f32, v[2], NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "f64", PQT_FLOAT64, 1, f64, v[3], NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "b", PQT_BOOL, 1, b, v[4], NROWS, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, off, bytes, v[5], NROWS, NULL));
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG_ROWS));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1)); /* mkstemp made it */
    CHECK_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    free(i32);
    free(i64);
    free(id);
    free(f32);
    free(f64);
    free(b);
    free(off);
    free(bytes);
    for (int k = 0; k < 6; k++)
        free(v[k]);
}

/* How an open is made and read. */
typedef struct how {
    const char *what;
    int threads;
    int64_t keep_bytes; /* -1: the default */
    int stats;          /* PQT_OPT_PUSHDOWN_STATS */
    const char *sort;   /* NULL: none */
    int64_t limit;      /* -1: none */
    double sample;      /* 0: none */
    const char *qc;     /* NULL: none */
    int qc_soft;
} how;

static long fail_at = -1; /* the allocation the next open fails (-1: none) */

static pqt_status open_with(const char *path, const how *h, pqt_table **t)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, h->threads));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_PUSHDOWN_STATS, h->stats));
    if (h->keep_bytes >= 0) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_FILTER_KEEP_BYTES, h->keep_bytes));
    for (int k = 0; k < (set_b == 1 ? 2 : NRULES); k++)
        CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER,
                                  set_b == 1   ? RULES_B[k]
                                  : set_b == 2 ? RULES_LOW[k]
                                               : RULES[k]));
    if (h->sort) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_SORT, h->sort));
    if (h->limit >= 0) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, h->limit));
    if (h->sample > 0) {
        CHECK_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, h->sample));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 42));
    }
    pqt_qc *qc = NULL;
    if (h->qc) {
        REQUIRE_OK(pqt_qc_new(&qc));
        CHECK_OK(pqt_qc_add(qc, h->qc));
        CHECK_OK(pqt_opts_set_qc(o, qc));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, h->qc_soft));
    }
    pqt_mem_fail_after(fail_at);
    pqt_status st = pqt_table_open(path, o, t);
    pqt_mem_fail_after(-1);
    pqt_qc_free(qc);
    pqt_opts_free(o);
    return st;
}

static int64_t reused(const pqt_table *t)
{
    pqt_scan_counts c;
    REQUIRE_OK(pqt_table_scan_stats(t, &c));
    return c.filter_values_reused;
}

static int bit(const uint8_t *v, int64_t i)
{
    return !v || (v[i >> 3] >> (i & 7) & 1);
}

/* Every column of t against the formulas at the rows its row index names; the rows are
 * the survivors (all of them, in file order, unless `subset`: a sample, a limit or a sort
 * may drop or reorder them, which the row index then says). `how` picks the read of each
 * fixed-width column: 0 get_alloc, 1 get, 2 get widened to int64/double. Returns rows. */
static int64_t check_values(const char *what, pqt_table *t, int subset, int how_read)
{
    int64_t n = pqt_table_nrows(t), bad = 0;
    int64_t *ri = NULL, nri = 0;
    REQUIRE_OK(pqt_table_get_alloc(t, "parquet_row_index", PQT_INT64, (void **)&ri, NULL, &nri));
    CHECK_EQ_I64(nri, n);
    if (!subset) { /* exactly the survivors, in file order */
        int64_t k = 0;
        for (int64_t r = 0; r < NROWS; r++)
            if (passes(r)) bad += k >= n || ri[k++] != r + 1;
        CHECK_EQ_I64(k, n);
    }
    for (int64_t i = 0; i < n; i++)
        bad += !passes(ri[i] - 1);
    static const char *const cols[] = {"i32", "i64", "f32", "f64", "b"};
    static const int kinds[] = {PQT_INT32, PQT_INT64, PQT_FLOAT32, PQT_FLOAT64, PQT_BOOL};
    for (int c = 0; c < 5; c++) {
        int k = how_read == 2 && c < 4 ? (c < 2 ? PQT_INT64 : PQT_FLOAT64) : kinds[c];
        size_t es = pqt_kind_elem_nbytes(k);
        void *d = NULL;
        uint8_t *v = NULL;
        if (how_read == 0) {
            int64_t m = 0;
            REQUIRE_OK(pqt_table_get_alloc(t, cols[c], k, &d, &v, &m));
            CHECK_EQ_I64(m, n);
        } else {
            d = calloc((size_t)n + 1, es);
            v = calloc((size_t)n / 8 + 1, 1);
            REQUIRE_OK(pqt_table_get(t, cols[c], k, d, (size_t)n * es, v, (size_t)n / 8 + 1));
        }
        for (int64_t i = 0; i < n; i++) {
            int64_t r = ri[i] - 1;
            int valid = c == 0   ? v_i32(r)
                        : c == 1 ? v_i64(r)
                        : c == 2 ? v_f32(r)
                        : c == 3 ? v_f64(r)
                                 : v_b(r);
            if (bit(v, i) != valid) {
                if (bad++ < 3)
                    printf("%s: %s row %lld: validity %d, want %d\n", what, cols[c],
                           (long long)r + 1, bit(v, i), valid);
                continue;
            }
            if (!valid) continue;
            double got = k == PQT_INT32     ? ((int32_t *)d)[i]
                         : k == PQT_INT64   ? (double)((int64_t *)d)[i]
                         : k == PQT_FLOAT32 ? ((float *)d)[i]
                         : k == PQT_FLOAT64 ? ((double *)d)[i]
                                            : ((uint8_t *)d)[i];
            double want = c == 0   ? i32_at(r)
                          : c == 1 ? (double)i64_at(r)
                          : c == 2 ? f32_at(r)
                          : c == 3 ? f64_at(r)
                                   : b_at(r);
            if (got != want && bad++ < 3)
                printf("%s: %s row %lld: %g, want %g\n", what, cols[c], (long long)r + 1, got,
                       want);
        }
        if (how_read == 0) {
            pqt_free(d);
            pqt_free(v);
        } else {
            free(d);
            free(v);
        }
    }
    int64_t *off = NULL, m = 0;
    char *bytes = NULL;
    uint8_t *sv = NULL;
    REQUIRE_OK(pqt_table_get_strings_alloc(t, "s", &off, &bytes, &sv, &m));
    CHECK_EQ_I64(m, n);
    for (int64_t i = 0; i < n; i++) {
        int64_t r = ri[i] - 1;
        if (bit(sv, i) != v_s(r)) {
            if (bad++ < 3)
                printf("%s: s row %lld: validity %d\n", what, (long long)r + 1, bit(sv, i));
            continue;
        }
        if (v_s(r) &&
            (off[i + 1] - off[i] != 2 || bytes[off[i]] != 'v' ||
             bytes[off[i] + 1] != '0' + s_digit(r)) &&
            bad++ < 3)
            printf("%s: s row %lld: '%.*s'\n", what, (long long)r + 1, (int)(off[i + 1] - off[i]),
                   bytes + off[i]);
    }
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(sv);
    pqt_free(ri);
    if (bad) printf("%s: %lld wrong\n", what, (long long)bad);
    CHECK_EQ_I64(bad, 0);
    return n;
}

static int64_t nsurvivors(void)
{
    int64_t n = 0;
    for (int64_t r = 0; r < NROWS; r++)
        n += passes(r);
    return n;
}

/* Open as h says, check the rows and values read by `how_read`, and the counter: `kept`
 * columns (every filter column: 6) reused, once each. */
static void run(const char *path, const how *h, int subset, int how_read, int kept)
{
    pqt_table *t;
    REQUIRE_OK(open_with(path, h, &t));
    CHECK_EQ_I64(reused(t), 0); /* nothing read yet */
    int64_t n = check_values(h->what, t, subset, how_read);
    if (reused(t) != n * kept)
        printf("%s: %lld values reused, want %lld\n", h->what, (long long)reused(t),
               (long long)(n * kept));
    CHECK_EQ_I64(reused(t), n * kept);
    /* a second read of each is from the table (resident) or decoded again (handed over) */
    check_values(h->what, t, subset, how_read);
    pqt_table_close(t);
}

static int warnings;
static void on_warning(void *user, const char *msg)
{
    (void)user;
    (void)msg;
    warnings++;
}

/* A qc rule on a filter column the survivors break (i32 < 95 passes, the rule wants <= 50). */
static void qc_rules(const char *path)
{
    how h = {"qc hard", 1, -1, 0, NULL, -1, 0, "i32, >=0, <=50", 0};
    pqt_table *t = NULL;
    CHECK(open_with(path, &h, &t) == PQT_QC); /* checked over the filter's rows at open */
    CHECK(t == NULL);
    /* soft: the warnings a filtered open and a first read give, kept or not */
    pqt_set_warning_callback(on_warning, NULL);
    int count[2];
    for (int keep = 0; keep <= 1; keep++) {
        how s = {"qc soft", 1, keep ? -1 : 0, 0, NULL, -1, 0, "i32, >=0, <=50", 1};
        warnings = 0;
        REQUIRE_OK(open_with(path, &s, &t));
        CHECK(warnings >= 1);
        int32_t *d = NULL;
        REQUIRE_OK(pqt_table_get_alloc(t, "i32", 0, (void **)&d, NULL, NULL));
        pqt_free(d);
        count[keep] = warnings;
        CHECK_EQ_I64(reused(t), keep ? pqt_table_nrows(t) : 0);
        pqt_table_close(t);
    }
    CHECK_EQ_I64(count[0], count[1]);
    pqt_set_warning_callback(NULL, NULL);
}

/* A clone reads its own columns; the table's kept values stay the table's. */
static void clone(const char *path)
{
    how h = {"clone", 1, -1, 0, NULL, -1, 0, NULL, 0};
    pqt_table *t, *c;
    REQUIRE_OK(open_with(path, &h, &t));
    REQUIRE_OK(pqt_table_clone(t, &c));
    check_values("clone", c, 0, 0);
    CHECK_EQ_I64(reused(c), 0);
    pqt_table_close(c);
    check_values("clone's original", t, 0, 0);
    CHECK_EQ_I64(reused(t), pqt_table_nrows(t) * 6);
    pqt_table_close(t);
}

/* An allocation failure at each point of the open (the hook fails one allocation): the open
 * either fails, leaving nothing, or succeeds with right values (a piece or an assembly short
 * of memory only means that column is read again). */
static void failures(const char *path)
{
    int failed = 0, ok = 0;
    for (long fail = 0; fail < 700; fail++) {
        how h = {"failure", 1, -1, 0, NULL, -1, 0, NULL, 0};
        pqt_table *t = NULL;
        fail_at = fail;
        pqt_status st = open_with(path, &h, &t);
        fail_at = -1;
        if (st != PQT_OK) {
            CHECK(t == NULL);
            failed++;
            continue;
        }
        ok++;
        char what[64];
        snprintf(what, sizeof what, "allocation %ld failed", fail);
        check_values(what, t, 0, 0);
        pqt_table_close(t);
    }
    CHECK(failed > 0 && ok > 0);
}

int main(void)
{
    char path[] = "/tmp/pqt_test_filter_keep_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE_OK(fd >= 0 ? PQT_OK : PQT_IO);
    close(fd);
    write_file(path);
    CHECK(nsurvivors() > NROWS / 2 && nsurvivors() < NROWS * 3 / 4);
    how basic = {"get_alloc", 1, -1, 0, NULL, -1, 0, NULL, 0};
    run(path, &basic, 0, 0, 6);
    how copied = {"get", 1, -1, 0, NULL, -1, 0, NULL, 0};
    run(path, &copied, 0, 1, 6);
    how widened = {"get widened", 1, -1, 0, NULL, -1, 0, NULL, 0};
    run(path, &widened, 0, 2, 6);
    how threads = {"2 threads", 2, -1, 0, NULL, -1, 0, NULL, 0};
    run(path, &threads, 0, 0, 6);
    how off = {"budget 0", 1, 0, 0, NULL, -1, 0, NULL, 0};
    run(path, &off, 0, 0, 0);
    /* a budget for the 4-byte and 1-byte columns only, in the order the filter names them:
     * i32 (4 B + validity), f64 does not fit, strings do not, b (1 B), f32 (4 B) */
    int64_t n = NROWS, per4 = n * 4 + (n + 7) / 8, per1 = n + (n + 7) / 8;
    how small = {"small budget", 1, 2 * per4 + per1, 0, NULL, -1, 0, NULL, 0};
    run(path, &small, 0, 0, 3);
    how stats = {"statistics on", 1, -1, 1, NULL, -1, 0, NULL, 0};
    run(path, &stats, 0, 0, 5); /* i64 < 34500 is proved for row groups 1-3: read again */
    how sorted = {"sort", 1, -1, 0, "-id", -1, 0, NULL, 0};
    run(path, &sorted, 1, 0, 6);
    how sorted_f = {"sort by a filter column", 2, -1, 0, "f64, -i64", -1, 0, NULL, 0};
    run(path, &sorted_f, 1, 1, 6);
    how topn = {"top-n", 1, -1, 0, "-i64", 25, 0, NULL, 0};
    run(path, &topn, 1, 0, 5); /* the key is resident from the sort */
    how sample = {"sample", 1, -1, 0, NULL, -1, 0.3, NULL, 0};
    run(path, &sample, 1, 0, 6);
    how limit = {"limit", 1, -1, 0, NULL, 100, 0, NULL, 0};
    run(path, &limit, 1, 0, 6);
    how limit2 = {"limit, 2 threads", 2, -1, 0, NULL, 2500, 0, NULL, 0};
    run(path, &limit2, 1, 1, 6);
    set_b = 1;
    CHECK(nsurvivors() > NROWS * 3 / 4);
    how most = {"most rows pass", 1, -1, 0, NULL, -1, 0, NULL, 0};
    run(path, &most, 0, 0, 2);
    how most2 = {"most rows pass, 2 threads, sorted", 2, -1, 0, "-id", -1, 0, NULL, 0};
    run(path, &most2, 1, 1, 2);
    how most3 = {"most rows pass, sampled", 2, -1, 0, NULL, -1, 0.9, NULL, 0};
    run(path, &most3, 1, 2, 2);
    set_b = 2;
    CHECK(nsurvivors() > 1000 && nsurvivors() < NROWS / 2);
    how low = {"a fifth of the rows pass", 1, -1, 0, NULL, -1, 0, NULL, 0};
    run(path, &low, 0, 0, 0);
    how low2 = {"a fifth of the rows pass, 2 threads", 2, -1, 0, NULL, -1, 0, NULL, 0};
    run(path, &low2, 0, 1, 0);
    set_b = 0;
    qc_rules(path);
    clone(path);
    failures(path);
    remove(path);
    return pqt_test_done("test_filter_keep");
}
