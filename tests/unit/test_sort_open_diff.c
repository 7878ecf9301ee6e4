/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sort_open_diff.c - differential test of sort, top-n, filter and sample composed at
 * table open (issue 12; docs/sort.md, docs/sampling.md), on files written here by diff_write.c
 * (the filter differential's generator, diff_gen.h): several row groups and pages, every
 * encoding, true statistics in every shape writers give them (absent, a NaN bound, a +-0
 * bound, deprecated signed-order min/max, truncated strings), columns often clustered so
 * that a top-n can skip row groups by statistics, nulls, NaN, +-0, +-inf, unicode strings,
 * dates, times and timestamps in three units, a dotted struct leaf, a UINT_32 column and a
 * LIST payload column.
 *
 * Each session opens a file with 1 to 3 random keys (any scalar kind, asc/desc,
 * nulls_first), a random limit, sometimes a filter (i32 >= v, or a row-index range) and
 * sometimes a sample, at 1 or 2 threads. The expected rows: the survivors (filter by the
 * plain predicate here; the sample's rows, when there is one, taken from an unsorted open
 * with the same sample -- the sample itself is checked against an independent model in
 * test_sample_rows.c), ordered by qsort with a comparator written out here from the values
 * written (placement: values, NaN, nulls; desc reverses values only; nulls_first: nulls,
 * NaN, values; -0.0 ties 0.0; strings bytewise; ties by file row = stability), cut at the
 * limit. The sorted table must give those rows: nrows, the row index, and every column's
 * values and validity (read by a random route: straight into caller memory, get, ranges,
 * rows, views; the LIST column too), is_sorted_by true, and its explain's sort line.
 * PQT_DIFF_ITERS=n multiplies the files (soak runs); a failure keeps its file.
 */
#define MAXN 8192
#define MAXSB (MAXN * 24)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "filter_prop_ref.h"
#include "filter_prop_gen.h"

#include <unistd.h>

#include "diff_cols.h"
#include "diff_write.h"
#include "format/meta.h"
#include "diff_gen.h"
#pragma GCC diagnostic pop

/* ---- the model ---- */

typedef struct mkey {
    int slot;
    int desc, nulls_first;
} mkey;
static mkey mkeys[3];
static int nmkeys;

/* placement class: 0 value, 1 NaN, 2 null */
#define SLOT_RI NCOL /* the row index as a key: the 1-based file row, never null */

static int class_of(int c, int64_t r)
{
    if (c == SLOT_RI) return 0;
    if (!present(c, r)) return 2;
    if (c == C_F32) return isnan(f32v[r]) ? 1 : 0;
    if (c == C_F64 || c == C_FJY) return isnan(f64v[c][r]) ? 1 : 0;
    return 0;
}

/* order of two values of slot c (both present, not NaN) */
static int value_cmp(int c, int64_t a, int64_t b)
{
    switch (c) {
    case SLOT_RI: return (a > b) - (a < b);
    case C_F32: return (f32v[a] > f32v[b]) - (f32v[a] < f32v[b]); /* -0.0 == 0.0 */
    case C_F64:
    case C_FJY: return (f64v[c][a] > f64v[c][b]) - (f64v[c][a] < f64v[c][b]);
    case C_B: return (u8v[a] > u8v[b]) - (u8v[a] < u8v[b]);
    case C_S: {
        int64_t la = i64v[C_S][a + 1] - i64v[C_S][a], lb = i64v[C_S][b + 1] - i64v[C_S][b];
        int m = memcmp(sbytes + i64v[C_S][a], sbytes + i64v[C_S][b], (size_t)(la < lb ? la : lb));
        if (m) return m < 0 ? -1 : 1;
        return (la > lb) - (la < lb);
    }
    case C_I32:
    case C_LEAF:
    case C_D: return (i32v[c][a] > i32v[c][b]) - (i32v[c][a] < i32v[c][b]);
    default: return (i64v[c][a] > i64v[c][b]) - (i64v[c][a] < i64v[c][b]);
    }
}

static int model_cmp(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    for (int k = 0; k < nmkeys; k++) {
        const mkey *m = &mkeys[k];
        int ca = class_of(m->slot, a), cb = class_of(m->slot, b);
        if (m->nulls_first) ca = 2 - ca, cb = 2 - cb;
        if (ca != cb) return ca < cb ? -1 : 1;
        if (class_of(m->slot, a) != 0) continue; /* NaNs tie, nulls tie */
        int v = value_cmp(m->slot, a, b);
        if (m->desc) v = -v;
        if (v) return v;
    }
    return (a > b) - (a < b); /* stable: file order */
}

/* ---- one session ---- */

static struct {
    int64_t sessions, rows, limited, filtered, sampled, threads2, topn_skipped, ri_keys;
} tot;

static int64_t want_rows[MAXN], sample_rows[MAXN];
static uint8_t in_sample[MAXN];

static void fail_ctx(dfile *F, const char *keys, int64_t limit, const char *rule, double frac,
                     int64_t seed, int threads)
{
    fprintf(stderr, "  file %s: keys '%s' limit %lld filter '%s' sample %g,%lld threads %d\n",
            F->path, keys, (long long)limit, rule ? rule : "", frac, (long long)seed, threads);
    F->keep_file = 1;
}

static pqt_opts *session_opts(int threads, const char *rule, double frac, int64_t seed)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (rule) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rule));
    if (frac >= 0) {
        CHECK_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, frac));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, seed));
    }
    return o;
}

static int sortable_slot(int c)
{
    /* "f (Jy)" has a blank: the text form cannot name it (only the array form can); a slot
     * named parquet_row_index holds the row numbers (diff_gen.h), as the key means */
    return c != C_FJY;
}

static void run_session(dfile *F)
{
    /* keys */
    char keys[400] = "", expl[600] = "sort: ";
    nmkeys = 1 + (int)rnd(3);
    for (int k = 0; k < nmkeys; k++) {
        int c;
        do c = coin(8) ? SLOT_RI : (int)rnd(NCOL);
        while (c != SLOT_RI && !sortable_slot(c));
        const char *name = c == SLOT_RI ? PQT_ROW_INDEX : names[c];
        tot.ri_keys += strcmp(name, PQT_ROW_INDEX) == 0;
        mkey *m = &mkeys[k];
        m->slot = c;
        m->desc = coin(50);
        m->nulls_first = coin(30);
        int shorthand = m->desc && coin(50);
        const char *dir = m->desc ? (shorthand ? "" : coin(50) ? " desc" : " DESCENDING")
                                  : coin(30) ? " asc" : "";
        size_t at = strlen(keys);
        snprintf(keys + at, sizeof keys - at, "%s%s%s%s%s", k ? (coin(50) ? ", " : ";") : "",
                 shorthand ? "-" : "", name, dir, m->nulls_first ? " nulls_first" : "");
        at = strlen(expl);
        snprintf(expl + at, sizeof expl - at, "%s%s %s%s", k ? ", " : "", name,
                 m->desc ? "desc" : "asc", m->nulls_first ? " nulls_first" : "");
    }
    /* filter, sample, limit, threads */
    char rule[200];
    const char *rp = NULL;
    int64_t lo = 0, hi = nrows, v = 0; /* row-index range (lo, hi], or i32 >= v */
    int which = (int)rnd(4);           /* 0, 1: none; 2: i32; 3: row index */
    if (which == 2) {
        v = ipool[rnd(10)];
        snprintf(rule, sizeof rule, "i32 >= %lld", (long long)v);
        rp = rule;
    } else if (which == 3) {
        lo = rnd(nrows);
        hi = lo + 1 + rnd(nrows - lo);
        snprintf(rule, sizeof rule, "parquet_row_index > %lld and parquet_row_index <= %lld",
                 (long long)lo, (long long)hi);
        rp = rule;
    }
    double frac = coin(30) ? 0.2 + 0.6 * (double)rnd(100) / 100 : -1;
    int64_t seed = 1 + rnd(1000000);
    int threads = coin(40) ? 2 : 1;
    int64_t limit = coin(40) ? -1 : coin(20) ? rnd(3) : rnd(nrows + 3);
    tot.sessions++;
    tot.limited += limit >= 0;
    tot.filtered += rp != NULL;
    tot.sampled += frac >= 0;
    tot.threads2 += threads == 2;

    /* the sample's rows: an unsorted open with the same sample, no filter */
    memset(in_sample, 1, (size_t)nrows);
    if (frac >= 0) {
        pqt_opts *o = session_opts(threads, NULL, frac, seed);
        pqt_table *u = NULL;
        REQUIRE_OK(pqt_table_open(F->path, o, &u));
        pqt_opts_free(o);
        int64_t *ri = NULL, n = 0;
        CHECK_OK(pqt_table_get_alloc(u, PQT_ROW_INDEX, PQT_INT64, (void **)&ri, NULL, &n));
        memset(in_sample, 0, (size_t)nrows);
        for (int64_t i = 0; ri && i < n; i++) in_sample[ri[i] - 1] = 1;
        pqt_free(ri);
        pqt_table_close(u);
    }
    int64_t nw = 0;
    for (int64_t r = 0; r < nrows; r++) {
        int pass = which == 2 ? present(C_I32, r) && i32v[C_I32][r] >= v
                   : which == 3 ? r + 1 > lo && r + 1 <= hi
                                : 1;
        if (pass && in_sample[r]) want_rows[nw++] = r;
    }
    int64_t nsurv = nw;
    qsort(want_rows, (size_t)nw, sizeof *want_rows, model_cmp);
    if (limit >= 0 && limit < nw) nw = limit;
    (void)sample_rows;

    /* the sorted open */
    pqt_opts *o = session_opts(threads, rp, frac, seed);
    CHECK_OK(pqt_opts_set_sort(o, keys));
    if (limit >= 0) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
    pqt_table *t = NULL;
    pqt_status st = pqt_table_open(F->path, o, &t);
    pqt_opts_free(o);
    if (st != PQT_OK) {
        fprintf(stderr, "open failed: %s\n", pqt_errmsg());
        fail_ctx(F, keys, limit, rp, frac, seed, threads);
        pqt_test_failures++;
        return;
    }
    int bad = 0;
    if (pqt_table_nrows(t) != nw || pqt_table_nrows_unfiltered(t) != nrows) {
        fprintf(stderr, "nrows %lld (unfiltered %lld), want %lld (%lld)\n",
                (long long)pqt_table_nrows(t), (long long)pqt_table_nrows_unfiltered(t),
                (long long)nw, (long long)nrows);
        bad++;
    }
    /* the explain names the keys as applied and, for a cut, the kept count */
    char *ex = malloc(8192);
    pqt_table_explain(t, ex, 8192);
    strcat(expl, "\n");
    if (!strstr(ex, expl)) {
        fprintf(stderr, "explain lacks \"%s\":\n%s\n", expl, ex);
        bad++;
    }
    if (strstr(ex, "top-n: the keys of ")) tot.topn_skipped++;
    if (limit >= 0 && limit < nsurv) {
        char lim[120];
        snprintf(lim, sizeof lim, "limit: the first %lld rows of the sorted order kept (of ",
                 (long long)limit);
        if (!strstr(ex, lim)) {
            fprintf(stderr, "explain lacks \"%s\":\n%s\n", lim, ex);
            bad++;
        }
    }
    free(ex);
    /* the rows, by the row index */
    int64_t *ri = NULL, n = 0;
    CHECK_OK(pqt_table_get_alloc(t, PQT_ROW_INDEX, PQT_INT64, (void **)&ri, NULL, &n));
    int64_t off = 0;
    for (int64_t i = 0; ri && i < n && i < nw; i++) off += ri[i] != want_rows[i] + 1;
    if (off || n != nw) {
        for (int64_t i = 0; ri && i < n && i < nw; i++)
            if (ri[i] != want_rows[i] + 1) {
                fprintf(stderr, "row %lld is file row %lld, want %lld (%lld rows out of place)\n",
                        (long long)i + 1, (long long)ri[i], (long long)want_rows[i] + 1,
                        (long long)off);
                break;
            }
        bad++;
    }
    pqt_free(ri);
    /* every column, by a random route, row for row against the unsorted read */
    for (int i = 0; i < F->ncols; i++) {
        const dcol *truth = &F->cols[i];
        if (truth->kind == PQT_NONE) continue;
        dcol got;
        int method = (int)rnd(NMETHOD);
        if (dcol_read(t, truth->name, method, &rng, &got) != PQT_OK) {
            fprintf(stderr, "column %s (%s): %s\n", truth->name, method_name[method],
                    pqt_errmsg());
            bad++;
        } else {
            bad += dcol_compare(truth, &got, want_rows, nw, "sorted open") != 0;
        }
        dcol_free(&got);
    }
    int sorted = -1;
    CHECK_OK(pqt_table_is_sorted_by(t, keys, NULL, &sorted));
    bad += sorted != 1;
    pqt_table_close(t);
    tot.rows += nw;
    if (bad) {
        fail_ctx(F, keys, limit, rp, frac, seed, threads);
        pqt_test_failures++;
    }
}

static void run_generated(int nfiles, int sessions, dw_info *info)
{
    const char *tmp = getenv("TMPDIR");
    for (int i = 0; i < nfiles; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/pqt_sortdiff_%d_%d.parquet", tmp && *tmp ? tmp : "/tmp",
                 (int)getpid(), i);
        make_data();
        int64_t rg_rows[8];
        int nrg = 0;
        if (!write_data(path, rg_rows, &nrg, info)) {
            fprintf(stderr, "cannot write %s\n", path);
            pqt_test_failures++;
            return;
        }
        dfile F;
        if (!dfile_load(&F, path, -1, &rng)) {
            fprintf(stderr, "  (kept %s)\n", path);
            continue;
        }
        CHECK_EQ_I64(F.nrows, nrows);
        check_written(&F); /* the values written are what an unsorted read gives */
        for (int s = 0; s < sessions; s++) run_session(&F);
        if (F.keep_file) fprintf(stderr, "  (kept %s)\n", path);
        else unlink(path);
        dfile_free(&F);
    }
}

int main(void)
{
    const char *it = getenv("PQT_DIFF_ITERS");
    int iters = it && atoi(it) > 0 ? atoi(it) : 1;
    rng = 0x736f727431ULL; /* deterministic: "sort1" */
    dw_info info;
    memset(&info, 0, sizeof info);
    run_generated(30 * iters, 8, &info);
    fprintf(stderr,
            "test_sort_open_diff: %lld sorted opens (%lld rows): limited %lld, filtered %lld, "
            "sampled %lld, threads 2 %lld, top-n skipping row groups by statistics %lld, "
            "row-index keys %lld\n",
            (long long)tot.sessions, (long long)tot.rows, (long long)tot.limited,
            (long long)tot.filtered, (long long)tot.sampled, (long long)tot.threads2,
            (long long)tot.topn_skipped, (long long)tot.ri_keys);
    /* the generator must reach the interesting cases, or the test proves little */
    CHECK(tot.topn_skipped > 0 && tot.ri_keys > 0);
    CHECK(tot.sampled > 0 && tot.filtered > 0 && tot.limited > 0);
    return pqt_test_done("test_sort_open_diff");
}
