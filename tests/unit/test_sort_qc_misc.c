/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sort_qc_misc.c - the issue-12 behaviours the other sort/qc/sample tests left open
 * (docs/sort.md, qc.md, sampling.md; the mapping is in TESTING.md):
 *   - a failed call changes nothing, under every allocation failure (pqt_mem_fail_after):
 *     top_n, argsort_by with groups, is_sorted_by and the text forms on unread file keys,
 *     table open with sort + limit + filter + sample + qc (nothing returned), clone of a
 *     sorted table, pqt_opts_set_sort (the keys in force stay), pqt_qc_add,
 *     pqt_table_validate_qc (residency as found) and a soft qc first touch (no warning
 *     until a read commits);
 *   - sample, then sort, then limit at open, and qc over exactly the sampled rows, against
 *     the independent sample model (sample_model_rows.h);
 *   - time and timestamp keys; qc min/max refused on time/timestamp columns, miss enforced;
 *   - struct and map columns refused as keys (at open and on tables), a dotted leaf of a
 *     real file accepted;
 *   - detaching: a moving sort_by leaves never-read columns unreadable, a later sort on one
 *     fails and changes nothing, views taken before are stale (generation), argsort and a
 *     no-op sort are not structural;
 *   - with a filter, the sort key is read only in the surviving row groups and released; a
 *     clone of a top-n table reads its unread columns for the kept rows in order; a slice
 *     takes a limit; pqt_opts_set_qc replaces and clears.
 * Truth: hand-computed rows and messages; tests/data/table_rg.parquet's formulas (id = row,
 * i32 = 3 id, NULL when id % 7 == 0; f64 = id / 2, NULL when id % 11 == 0, NaN when
 * id % 13 == 0; s = 's' id, NULL when id % 5 == 0; row groups of 2048).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff_write.h"
#include "format/meta.h"
#include "pqt.h"
#include "sample_model_rows.h"
#include "testutil.h"
#include "util/mem.h"

#define RG "tests/data/table_rg.parquet"
#define NROWS 10000
#define CORPUS "tests/data/parquet-testing/data/"

#define CHECK_HAS(hay, needle)                                                                     \
    do {                                                                                           \
        if (!strstr((hay), (needle))) {                                                            \
            fprintf(stderr, "%s:%d: \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, (hay), (needle));  \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

static bool i32_null(int64_t id) { return id % 7 == 0; }

static pqt_opts *opts_new(void)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, 1)); /* the injection counter is per thread */
    return o;
}

static pqt_table *open_rg(pqt_opts *o)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, o, &t));
    return t;
}

/* ---- warnings ---- */
static int nwarn;
static char last_warn[1024];
static void on_warning(void *user, const char *msg)
{
    (void)user;
    nwarn++;
    snprintf(last_warn, sizeof last_warn, "%s", msg);
}

/* ---- a failed call changes nothing ---- */

typedef struct snap {
    int ncols;
    int64_t nrows;
    uint64_t gen;
    int detached;
    int res[16];
    double sum[16]; /* of resident int and float columns, weighted by position */
} snap;

static snap take(pqt_table *t)
{
    snap s;
    memset(&s, 0, sizeof s);
    s.ncols = pqt_table_ncols(t);
    s.nrows = pqt_table_nrows(t);
    s.gen = pqt_table_generation(t);
    s.detached = pqt_table_is_detached(t);
    for (int i = 0; i < s.ncols && i < 16; i++) {
        const char *nm = pqt_table_column_name(t, i);
        pqt_table_residency(t, nm, &s.res[i]);
        if (s.res[i] != PQT_RES_FULL) continue;
        pqt_column_view v = {.struct_size = sizeof v};
        if (pqt_table_column(t, nm, 0, &v) != PQT_OK) continue;
        for (int64_t e = 0; e < v.nelem; e++) {
            double x = v.kind == PQT_FLOAT64 ? ((const double *)v.data)[e]
                       : v.kind == PQT_INT64 ? (double)((const int64_t *)v.data)[e]
                       : v.kind == PQT_INT32 ? ((const int32_t *)v.data)[e]
                                             : 0;
            if (!isnan(x)) s.sum[i] += x * (double)(e + 1);
        }
    }
    return s;
}

static bool same(const snap *a, const snap *b)
{
    if (a->ncols != b->ncols || a->nrows != b->nrows || a->gen != b->gen ||
        a->detached != b->detached)
        return false;
    for (int i = 0; i < a->ncols && i < 16; i++)
        if (a->res[i] != b->res[i] || a->sum[i] != b->sum[i]) return false;
    return true;
}

typedef pqt_status (*op_fn)(pqt_table *t, void *arg);

/* Run op on a fresh table with allocation n failing, n = 0, 1, ... until it succeeds: every
 * failure must be PQT_NOMEM and leave the table as it was. Returns the failures seen. */
static int inject(pqt_table *(*mk)(void), op_fn op, void *arg, const char *what)
{
    int fails = 0;
    for (long n = 0; n < 5000; n++) {
        pqt_table *t = mk();
        snap before = take(t);
        pqt_mem_fail_after(n);
        pqt_status st = op(t, arg);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            pqt_table_close(t);
            if (getenv("PQT_TEST_VERBOSE")) fprintf(stderr, "%s: %d failure points\n", what, fails);
            return fails;
        }
        fails++;
        snap after = take(t);
        if (st != PQT_NOMEM || !same(&before, &after)) {
            fprintf(stderr, "%s: allocation %ld failing gave %d (%s) and %s\n", what, n, st,
                    pqt_errmsg(), same(&before, &after) ? "no change" : "CHANGED the table");
            pqt_test_failures++;
        }
        pqt_table_close(t);
    }
    fprintf(stderr, "%s: never succeeded\n", what);
    pqt_test_failures++;
    return fails;
}

/* two row groups' worth of rows, nothing read */
static pqt_table *slice_unread(void)
{
    pqt_opts *o = opts_new();
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 2001));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 2100));
    pqt_table *t = open_rg(o);
    pqt_opts_free(o);
    return t;
}

/* the same with id read */
static pqt_table *slice_id_read(void)
{
    pqt_table *t = slice_unread();
    const char *id = "id";
    REQUIRE_OK(pqt_table_prefetch(t, &id, 1));
    return t;
}

static pqt_status op_top_n(pqt_table *t, void *arg)
{
    (void)arg;
    const char *k[2] = {"i32", "s"};
    int desc[2] = {1, 0}, nf[2] = {1, 0};
    return pqt_table_top_n_names(t, k, 2, desc, nf, 30);
}

static pqt_status op_top_n_text(pqt_table *t, void *arg)
{
    (void)arg;
    return pqt_table_top_n(t, "-f64 nulls_first; s", NULL, 7);
}

static pqt_status op_sort_text(pqt_table *t, void *arg)
{
    (void)arg;
    return pqt_table_sort_by(t, "s desc, id", NULL);
}

static int64_t perm[NROWS], offs[NROWS + 1];
static int sorted_flag;

static pqt_status op_argsort(pqt_table *t, void *arg)
{
    (void)arg;
    perm[0] = offs[0] = -7;
    int64_t ng = -7;
    pqt_status st = pqt_table_argsort_by(t, "i32 nulls_first, -f64", NULL, perm, offs, 1,
                                              &ng);
    if (st != PQT_OK && (perm[0] != -7 || offs[0] != -7 || ng != -7)) {
        fprintf(stderr, "argsort_by: a failed call wrote its outputs\n");
        pqt_test_failures++;
    }
    return st;
}

static pqt_status op_is_sorted(pqt_table *t, void *arg)
{
    (void)arg;
    sorted_flag = -7;
    const char *k[2] = {"s", "f64"};
    pqt_status st = pqt_table_is_sorted_by_names(t, k, 2, NULL, NULL, &sorted_flag);
    if (st != PQT_OK && sorted_flag != -7) {
        fprintf(stderr, "is_sorted_by: a failed call wrote its output\n");
        pqt_test_failures++;
    }
    return st;
}

static pqt_status op_validate(pqt_table *t, void *arg)
{
    (void)arg;
    return pqt_table_validate_qc(t);
}

static pqt_table *qc_table(bool soft)
{
    pqt_opts *o = opts_new();
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "i32, >0"));
    REQUIRE_OK(pqt_qc_add(qc, "f64, , <=1000")); /* rows 2001..2100: f64 up to 1050 */
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc);
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, soft));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 2001));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 2100));
    pqt_table *t = open_rg(o);
    pqt_opts_free(o);
    return t;
}
static pqt_table *qc_table_soft(void) { return qc_table(true); }

static pqt_status op_get_soft(pqt_table *t, void *arg)
{
    (void)arg;
    int n0 = nwarn;
    const char *k = "f64";
    pqt_status st = pqt_table_prefetch(t, &k, 1);
    if (st != PQT_OK && nwarn != n0) {
        fprintf(stderr, "soft qc: a failed read sent a warning: %s\n", last_warn);
        pqt_test_failures++;
    }
    return st;
}

/* The table open options every injected open uses. */
static pqt_opts *big_opts(void)
{
    pqt_opts *o = opts_new();
    REQUIRE_OK(pqt_opts_set_sort(o, "-f64, s"));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 30));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "id > 5000"));
    REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, 0.5));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 3));
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "i32, >0"));
    REQUIRE_OK(pqt_qc_add(qc, "f64, >=0"));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc);
    return o;
}

static int64_t *ids_of(pqt_table *t, int64_t *n)
{
    int64_t *v = NULL;
    *n = 0;
    CHECK_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&v, NULL, n));
    return v;
}

static void test_failures_change_nothing(void)
{
    CHECK(inject(slice_unread, op_top_n, NULL, "top_n (unread keys)") > 0);
    CHECK(inject(slice_id_read, op_top_n_text, NULL, "top_n_text") > 0);
    CHECK(inject(slice_id_read, op_sort_text, NULL, "sort_by_text") > 0);
    CHECK(inject(slice_unread, op_argsort, NULL, "argsort_by_text (groups)") > 0);
    CHECK(inject(slice_unread, op_is_sorted, NULL, "is_sorted_by") > 0);
    CHECK(inject(slice_id_read, op_is_sorted, NULL, "is_sorted_by (id resident)") > 0);

    /* validate_qc in soft mode: f64 breaks its max; on failure nothing is resident */
    nwarn = 0;
    pqt_set_warning_callback(on_warning, NULL);
    CHECK(inject(qc_table_soft, op_validate, NULL, "validate_qc (soft)") > 0);
    /* a soft first touch: no warning until a read commits; then one */
    nwarn = 0;
    CHECK(inject(qc_table_soft, op_get_soft, NULL, "prefetch with soft qc") > 0);
    CHECK_EQ_I64(nwarn, 1);
    CHECK_HAS(last_warn, "qc violation for column 'f64': declared max <= 1000, data range "
                         "[1000.5, 1050.0], ");
    pqt_set_warning_callback(NULL, NULL);

    /* an open with every transform: a failure returns nothing; success gives the rows an
     * open without injection gives */
    pqt_opts *o = big_opts();
    pqt_table *ref = open_rg(o);
    int64_t nref = 0, *want = ids_of(ref, &nref);
    CHECK(nref == 30);
    int fails = 0;
    for (long n = 0; n < 20000; n++) {
        pqt_table *t = (pqt_table *)&fails;
        pqt_mem_fail_after(n);
        pqt_status st = pqt_table_open(RG, o, &t);
        pqt_mem_fail_after(-1);
        if (st != PQT_OK) {
            fails++;
            if (st != PQT_NOMEM || t != (pqt_table *)&fails) {
                fprintf(stderr, "open: allocation %ld failing gave %d (%s)%s\n", n, st,
                        pqt_errmsg(), t != (pqt_table *)&fails ? " and returned a table" : "");
                pqt_test_failures++;
            }
            continue;
        }
        int64_t ngot = 0, *got = ids_of(t, &ngot);
        CHECK(ngot == nref && got && want && memcmp(got, want, (size_t)ngot * sizeof *got) == 0);
        pqt_free(got);
        pqt_table_close(t);
        break;
    }
    if (getenv("PQT_TEST_VERBOSE")) fprintf(stderr, "open: %d failure points\n", fails);
    CHECK(fails > 10);

    /* clone of the sorted table: a failure returns nothing and leaves the source as it was */
    fails = 0;
    for (long n = 0; n < 5000; n++) {
        pqt_table *c = (pqt_table *)&fails;
        snap before = take(ref);
        pqt_mem_fail_after(n);
        pqt_status st = pqt_table_clone(ref, &c);
        pqt_mem_fail_after(-1);
        snap after = take(ref);
        CHECK(same(&before, &after));
        if (st != PQT_OK) {
            fails++;
            CHECK_EQ_I64(st, PQT_NOMEM);
            CHECK(c == (pqt_table *)&fails);
            continue;
        }
        int64_t ngot = 0, *got = ids_of(c, &ngot);
        CHECK(ngot == nref && got && want && memcmp(got, want, (size_t)ngot * sizeof *got) == 0);
        pqt_free(got);
        pqt_table_close(c);
        break;
    }
    CHECK(fails > 0);
    pqt_free(want);
    pqt_table_close(ref);
    pqt_opts_free(o);

    /* pqt_opts_set_sort: a failure keeps the keys in force */
    fails = 0;
    for (long n = 0; n < 100; n++) {
        o = opts_new();
        REQUIRE_OK(pqt_opts_set_sort(o, "id desc"));
        pqt_mem_fail_after(n);
        pqt_status st = pqt_opts_set_sort(o, "f64, s desc, i32 nulls_first");
        pqt_mem_fail_after(-1);
        pqt_table *t = open_rg(o);
        char buf[2048];
        pqt_table_explain(t, buf, sizeof buf);
        pqt_table_close(t);
        pqt_opts_free(o);
        if (st == PQT_OK) {
            CHECK_HAS(buf, "sort: f64 asc, s desc, i32 asc nulls_first\n");
            break;
        }
        fails++;
        CHECK_EQ_I64(st, PQT_NOMEM);
        CHECK_HAS(buf, "sort: id desc\n");
    }
    CHECK(fails > 0);

    /* pqt_qc_add: a failure adds nothing */
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "a, 1"));
    fails = 0;
    for (long n = 0; n < 100; n++) {
        pqt_mem_fail_after(n);
        pqt_status st = pqt_qc_add(qc, "b, >=2, <9, Null");
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) break;
        fails++;
        CHECK_EQ_I64(st, PQT_NOMEM);
        CHECK_EQ_I64(pqt_qc_nrules(qc), 1);
    }
    CHECK(fails > 0);
    CHECK_EQ_I64(pqt_qc_nrules(qc), 2);
    pqt_qc_free(qc);
}

/* ---- sample, then sort, then limit; qc sees the sampled rows ---- */

static int64_t model_ids[200];
static int cmp_i32_desc(const void *pa, const void *pb) /* i32 desc, nulls last, ties by id */
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    if (i32_null(a) != i32_null(b)) return i32_null(a) ? 1 : -1;
    if (i32_null(a)) return (a > b) - (a < b);
    return (a < b) - (a > b);
}

static void test_sample_then_sort(void)
{
    int64_t n = MODEL_NROWS(seed42_p001);
    for (int64_t i = 0; i < n; i++) model_ids[i] = seed42_p001[i] + 1;
    qsort(model_ids, (size_t)n, sizeof *model_ids, cmp_i32_desc);
    for (int limit = -1; limit <= 10; limit += 11) {
        pqt_opts *o = opts_new();
        REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, 0.01));
        REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 42));
        REQUIRE_OK(pqt_opts_set_sort(o, "-i32"));
        if (limit >= 0) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
        pqt_table *t = open_rg(o);
        pqt_opts_free(o);
        int64_t want_n = limit >= 0 ? limit : n, got_n = 0;
        CHECK_EQ_I64(pqt_table_nrows(t), want_n);
        CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), NROWS);
        CHECK_EQ_I64(pqt_table_sample_seed(t), 42);
        int64_t *got = ids_of(t, &got_n);
        int64_t bad = got_n != want_n;
        for (int64_t i = 0; got && i < got_n && i < want_n; i++) bad += got[i] != model_ids[i];
        CHECK_EQ_I64(bad, 0);
        pqt_free(got);
        char buf[4096];
        pqt_table_explain(t, buf, sizeof buf);
        CHECK_HAS(buf, "sample: fraction 0.01, seed 42, rule pqt-sample-v1");
        CHECK_HAS(buf, "sort: i32 desc\n");
        pqt_table_close(t);
    }

    /* qc over the sampled rows: i32 <= 15000 (id <= 5000), checked on first touch */
    int64_t lo = INT64_MAX, hi = INT64_MIN, nvalid = 0, nout = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t id = seed42_p001[i] + 1;
        if (i32_null(id)) continue;
        nvalid++;
        lo = 3 * id < lo ? 3 * id : lo;
        hi = 3 * id > hi ? 3 * id : hi;
        nout += 3 * id > 15000;
    }
    pqt_opts *o = opts_new();
    REQUIRE_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, 0.01));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 42));
    REQUIRE_OK(pqt_opts_set_sort(o, "id desc"));
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "i32, , <=15000"));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc);
    pqt_table *t = open_rg(o);
    pqt_opts_free(o);
    int32_t v[200];
    CHECK_EQ_I64(pqt_table_get(t, "i32", 0, v, sizeof v, NULL, 0), PQT_QC);
    char want[400];
    snprintf(want, sizeof want, "qc violation for column 'i32': declared max <= 15000, data range "
                                "[%lld, %lld], %lld of %lld valid element(s) out of range",
             (long long)lo, (long long)hi, (long long)nout, (long long)nvalid);
    CHECK_HAS(pqt_errmsg(), want);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    pqt_table_close(t);
}

/* ---- time and timestamp keys and rules ---- */

static char tpath[512];

/*   row  id  t (TIME us)    ts (TIMESTAMP ms)
 *   1    1   3600000000     1000
 *   2    2   null           -5
 *   3    3   0              null
 *   4    4   86399999999    1000
 *   5    5   3600000000     0
 *   6    6   5              2000          (two row groups of three rows) */
static void write_time_file(void)
{
    static const int64_t id[6] = {1, 2, 3, 4, 5, 6};
    static const int64_t tv[6] = {3600000000LL, 0, 0, 86399999999LL, 3600000000LL, 5};
    static const uint8_t t_valid[1] = {0x3D}; /* row 2 null */
    static const int64_t ts[6] = {1000, -5, 0, 1000, 0, 2000};
    static const uint8_t ts_valid[1] = {0x3B}; /* row 3 null */
    dw_col cols[] = {
        {.name = "id", .ptype = PQT_PT_INT64, .required = 1, .vals = id},
        {.name = "t", .ptype = PQT_PT_INT64, .ann = DW_TIME, .unit = PQT_UNIT_MICROS, .vals = tv,
         .valid = t_valid},
        {.name = "ts", .ptype = PQT_PT_INT64, .ann = DW_TS, .unit = PQT_UNIT_MILLIS, .vals = ts,
         .valid = ts_valid},
    };
    const char *tmp = getenv("TMPDIR");
    snprintf(tpath, sizeof tpath, "%s/pqt_sortqc_%d.parquet", tmp && *tmp ? tmp : "/tmp",
             (int)getpid());
    int64_t rg_rows[2] = {3, 3};
    uint64_t rng = 5;
    dw_info info = {0};
    if (!dw_write(tpath, cols, 3, rg_rows, 2, 1, &rng, &info)) {
        fprintf(stderr, "cannot write %s\n", tpath);
        exit(1);
    }
}

static void order_at_open(const char *keys, const char *want)
{
    pqt_opts *o = opts_new();
    REQUIRE_OK(pqt_opts_set_sort(o, keys));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(tpath, o, &t));
    pqt_opts_free(o);
    int64_t ids[6] = {0};
    CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
    char got[8] = "";
    for (int i = 0; i < 6; i++) got[i] = (char)('0' + ids[i]);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "sort '%s' at open gave %s, want %s\n", keys, got, want);
        pqt_test_failures++;
    }
    /* the same order from argsort_by on an unsorted open */
    pqt_table *u = NULL;
    REQUIRE_OK(pqt_table_open(tpath, NULL, &u));
    int64_t p[6] = {0};
    CHECK_OK(pqt_table_argsort_by(u, keys, NULL, p, NULL, 0, NULL));
    for (int i = 0; i < 6; i++) got[i] = (char)('0' + p[i]);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "argsort '%s' gave %s, want %s\n", keys, got, want);
        pqt_test_failures++;
    }
    pqt_table_close(u);
    pqt_table_close(t);
}

static pqt_status open_time_qc(const char *rule, pqt_table **t)
{
    pqt_opts *o = opts_new();
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, rule));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc);
    *t = NULL;
    pqt_status st = pqt_table_open(tpath, o, t);
    pqt_opts_free(o);
    return st;
}

static void test_time_keys_and_rules(void)
{
    write_time_file();
    /* t asc: 0 (3), 5 (6), 3.6e9 (1, 5: ts desc breaks the tie: 1000 then 0), 86399999999 (4),
     * null (2) */
    order_at_open("t, -ts", "361542");
    /* ts desc, nulls first: null (3), 2000 (6), 1000 (1, 4 in file order), 0 (5), -5 (2) */
    order_at_open("-ts nulls_first", "361452");
    order_at_open("ts, t desc", "254163"); /* -5, 0, 1000 (4 before 1: t desc), 2000, null */

    pqt_table *t = NULL;
    CHECK_EQ_I64(open_time_qc("t, 0", &t), PQT_KIND);
    CHECK_HAS(pqt_errmsg(), "qc rule for column 't': min/max bounds are not supported");
    CHECK(t == NULL);
    CHECK_EQ_I64(open_time_qc("ts, , <=5000", &t), PQT_KIND);
    CHECK_HAS(pqt_errmsg(), "qc rule for column 'ts': min/max bounds are not supported");
    /* miss: declared empty is enforced on both; Null/NA accepts the null */
    REQUIRE_OK(open_time_qc("ts,,,", &t));
    int64_t v[6];
    CHECK_EQ_I64(pqt_table_get(t, "ts", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_HAS(pqt_errmsg(), "qc violation for column 'ts': 1 of 6 element(s) are Null");
    pqt_table_close(t);
    REQUIRE_OK(open_time_qc("t, , , NA", &t));
    CHECK_OK(pqt_table_get(t, "t", 0, v, sizeof v, NULL, 0));
    CHECK(v[3] == 86399999999LL);
    pqt_table_close(t);
    unlink(tpath);

    /* an INT96 timestamp column of the corpus: min/max refused too */
    pqt_opts *o = opts_new();
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "timestamp_col, 5"));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc);
    CHECK_EQ_I64(pqt_table_open(CORPUS "alltypes_tiny_pages.parquet", o, &t), PQT_KIND);
    CHECK_HAS(pqt_errmsg(), "min/max bounds are not supported on a timestamp column");
    pqt_opts_free(o);
}

/* ---- struct and map keys ---- */

static void test_struct_and_map_keys(void)
{
    static const struct {
        const char *file, *key;
        pqt_status st_open, st_table;
        const char *msg;
    } cases[] = {
        {CORPUS "nested_structs.rust.parquet", "roll_num", PQT_BAD_SORT, PQT_NOT_FOUND,
         "'roll_num'"}, /* a whole struct is not a column */
        {CORPUS "nested_maps.snappy.parquet", "a", PQT_BAD_SORT, PQT_KIND,
         "sort key 'a' has a type this library cannot read"},
        {CORPUS "nested_structs.rust.parquet", "roll_num.max, -PC_CUR.min", PQT_OK, PQT_OK, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pqt_opts *o = opts_new();
        REQUIRE_OK(pqt_opts_set_sort(o, cases[i].key));
        pqt_table *t = NULL;
        CHECK_EQ_I64(pqt_table_open(cases[i].file, o, &t), cases[i].st_open);
        if (cases[i].st_open != PQT_OK) {
            CHECK_HAS(pqt_errmsg(), cases[i].msg);
            CHECK(t == NULL);
        }
        pqt_table_close(t);
        pqt_opts_free(o);
        REQUIRE_OK(pqt_table_open(cases[i].file, NULL, &t));
        uint64_t g = pqt_table_generation(t);
        CHECK_EQ_I64(pqt_table_sort_by(t, cases[i].key, NULL), cases[i].st_table);
        if (cases[i].st_table != PQT_OK) CHECK_HAS(pqt_errmsg(), cases[i].msg);
        CHECK(pqt_table_generation(t) == g); /* one row: nothing moves either way */
        pqt_table_close(t);
    }
}

/* ---- detaching, views, first touches ---- */

static void test_detach_and_views(void)
{
    pqt_table *t = open_rg(NULL);
    pqt_column_view v = {.struct_size = sizeof v};
    CHECK_OK(pqt_table_column(t, "id", 0, &v));
    uint64_t g0 = pqt_table_generation(t);
    CHECK(v.generation == g0);
    /* argsort and is_sorted read their key (a first touch) and are not structural */
    int64_t p[NROWS];
    CHECK_OK(pqt_table_argsort_by(t, "-i32", NULL, p, NULL, 0, NULL));
    CHECK_EQ_I64(p[0], 10000); /* 10000 % 7 = 4: the largest i32, 30000 */
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    CHECK(pqt_table_generation(t) == g0);
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    /* a no-op sort: the view stays current */
    CHECK_OK(pqt_table_sort_by(t, "id", NULL));
    CHECK(pqt_table_generation(t) == v.generation);
    /* a moving sort: the view is stale, never-read columns unreadable */
    CHECK_OK(pqt_table_sort_by(t, "-i32", NULL));
    CHECK(pqt_table_generation(t) != v.generation);
    CHECK_EQ_I64(pqt_table_is_detached(t), 1);
    double d[NROWS];
    CHECK_EQ_I64(pqt_table_get(t, "f64", 0, d, sizeof d, NULL, 0), PQT_DETACHED);
    CHECK_HAS(pqt_errmsg(), "column 'f64' was never read and the table has detached");
    /* a sort on a never-read key fails before anything moves */
    snap before = take(t);
    CHECK_EQ_I64(pqt_table_sort_by(t, "id, s", NULL), PQT_DETACHED);
    CHECK_EQ_I64(pqt_table_top_n(t, "f64", NULL, 3), PQT_DETACHED);
    snap after = take(t);
    CHECK(same(&before, &after));
    /* the resident columns moved together */
    int64_t ids[3];
    int32_t i32[3];
    CHECK_OK(pqt_table_get_range(t, "id", 1, 3, 0, ids, sizeof ids, NULL, 0));
    CHECK_OK(pqt_table_get_range(t, "i32", 1, 3, 0, i32, sizeof i32, NULL, 0));
    for (int i = 0; i < 3; i++) CHECK_EQ_I64(i32[i], 3 * ids[i]);
    CHECK_EQ_I64(ids[0], 10000);
    CHECK_EQ_I64(ids[1], 9999);
    CHECK_EQ_I64(ids[2], 9998);
    pqt_table_close(t);
}

/* With a filter the key is read in the surviving row groups only, and released after a
 * full sort; a clone of a top-n table reads its unread columns for the kept rows. */
static void test_filter_sort_reads(void)
{
    pqt_opts *o = opts_new();
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "id > 9000"));
    REQUIRE_OK(pqt_opts_set_sort(o, "-f64"));
    pqt_table *t = open_rg(o);
    pqt_opts_free(o);
    CHECK_EQ_I64(pqt_table_nrows(t), 1000);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), NROWS);
    int64_t dec = pqt_table_scan_values(t, "f64");
    /* 909 of ids 9001..10000 are not null; the last row group holds 1808 rows */
    CHECK(dec >= 909 && dec <= 10000 - 4 * 2048);
    CHECK_EQ_I64(pqt_table_scan_values(t, "i32"), 0);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "f64", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    int64_t first[3];
    CHECK_OK(pqt_table_get_range(t, "id", 1, 3, 0, first, sizeof first, NULL, 0));
    CHECK_EQ_I64(first[0], 10000); /* 10000 % 11 = 1, % 13 = 3: a value, the largest */
    pqt_table_close(t);

    o = opts_new();
    REQUIRE_OK(pqt_opts_set_sort(o, "s desc"));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 5));
    t = open_rg(o);
    pqt_opts_free(o);
    pqt_table *c = NULL;
    REQUIRE_OK(pqt_table_clone(t, &c));
    /* s desc bytewise: s9999, s9998, s9997, s9996, s9994 (s9995 is null) */
    static const int64_t want[5] = {9999, 9998, 9997, 9996, 9994};
    int64_t got[5] = {0};
    CHECK_OK(pqt_table_get(c, "id", 0, got, sizeof got, NULL, 0));
    for (int i = 0; i < 5; i++) CHECK_EQ_I64(got[i], want[i]);
    CHECK_EQ_I64(pqt_table_nrows(c), 5);
    pqt_table_close(c);
    pqt_table_close(t);

    /* a top-n decompresses, of a payload column, only the pages holding kept rows:
     * alltypes_tiny_pages.parquet (id = 0..7299, one row group, tiny pages with an offset
     * index), the 5 largest ids sit in the last page or two of double_col */
    o = opts_new();
    REQUIRE_OK(pqt_opts_set_sort(o, "-id"));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 5));
    REQUIRE_OK(pqt_table_open(CORPUS "alltypes_tiny_pages.parquet", o, &t));
    pqt_opts_free(o);
    pqt_scan_counts a, b;
    CHECK_OK(pqt_table_scan_stats(t, &a));
    double *dv = NULL;
    int64_t nd = 0;
    CHECK_OK(pqt_table_get_alloc(t, "double_col", 0, (void **)&dv, NULL, &nd));
    CHECK_OK(pqt_table_scan_stats(t, &b));
    CHECK_EQ_I64(nd, 5);
    CHECK_EQ_I64(pqt_table_scan_values(t, "double_col"), 5);
    CHECK(b.pages - a.pages > 100); /* the chunk has hundreds of pages ... */
    CHECK(b.pages_decompressed - a.pages_decompressed >= 1 &&
          b.pages_decompressed - a.pages_decompressed <= 2); /* ... two are decompressed */
    CHECK_EQ_I64(b.pages_skipped - a.pages_skipped,
                 (b.pages - a.pages) - (b.pages_decompressed - a.pages_decompressed));
    int32_t tid[5];
    CHECK_OK(pqt_table_get(t, "id", 0, tid, sizeof tid, NULL, 0));
    for (int i = 0; i < 5; i++) CHECK_EQ_I64(tid[i], 7299 - i);
    pqt_free(dv);
    pqt_table_close(t);

    /* a slice takes a limit (only a sort is refused): its first rows */
    o = opts_new();
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 101));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 200));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 5));
    t = open_rg(o);
    pqt_opts_free(o);
    CHECK_EQ_I64(pqt_table_nrows(t), 5);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 100);
    CHECK_OK(pqt_table_get(t, "id", 0, got, sizeof got, NULL, 0));
    for (int i = 0; i < 5; i++) CHECK_EQ_I64(got[i], 101 + i);
    pqt_table_close(t);
}

/* The row index as a key at open: made from the plan (no column read, none added). */
static void test_row_index_key_at_open(void)
{
    static const struct {
        const char *keys, *filter;
        int64_t limit, n;
        int64_t want[6];
    } cases[] = {
        /* ids 1..20 with i32 null at 7 and 14: nulls first, in reverse file order */
        {"i32 nulls_first, -parquet_row_index", "id <= 20", 4, 4, {14, 7, 1, 2}},
        {"-parquet_row_index", "id <= 100", 3, 3, {100, 99, 98}},
        {"parquet_row_index desc", NULL, -1, NROWS, {10000, 9999, 9998, 9997, 9996, 9995}},
        {"s, parquet_row_index", "id >= 9995", -1, 6, {9996, 9997, 9998, 9999, 9995, 10000}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pqt_opts *o = opts_new();
        REQUIRE_OK(pqt_opts_set_sort(o, cases[c].keys));
        if (cases[c].filter) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, cases[c].filter));
        if (cases[c].limit >= 0) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, cases[c].limit));
        pqt_table *t = open_rg(o);
        pqt_opts_free(o);
        CHECK_EQ_I64(pqt_table_nrows(t), cases[c].n);
        CHECK_EQ_I64(pqt_table_ncols(t), 7); /* the row index is not a column yet */
        int64_t k = cases[c].n < 6 ? cases[c].n : 6, ids[6] = {0}, ri[6] = {0};
        CHECK_OK(pqt_table_get_range(t, "id", 1, k, 0, ids, sizeof ids, NULL, 0));
        CHECK_OK(pqt_table_get_range(t, PQT_ROW_INDEX, 1, k, 0, ri, sizeof ri, NULL, 0));
        for (int64_t i = 0; i < k; i++) {
            CHECK_EQ_I64(ids[i], cases[c].want[i]);
            CHECK_EQ_I64(ri[i], cases[c].want[i]);
        }
        char buf[4096];
        pqt_table_explain(t, buf, sizeof buf);
        CHECK_HAS(buf, "parquet_row_index ");
        pqt_table_close(t);
    }
}

/* pqt_table_get_decimal_alloc is a first touch: the rule is checked before the exact values
 * are returned. int64_decimal.parquet: DECIMAL(10,2) values 1.00 .. 24.00. */
static void test_qc_decimal_alloc(void)
{
    const char *file = CORPUS "int64_decimal.parquet";
    for (int soft = 0; soft <= 1; soft++) {
        pqt_opts *o = opts_new();
        pqt_qc *qc = NULL;
        REQUIRE_OK(pqt_qc_new(&qc));
        REQUIRE_OK(pqt_qc_add(qc, "value, , <=20"));
        REQUIRE_OK(pqt_opts_set_qc(o, qc));
        pqt_qc_free(qc);
        REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, soft));
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_open(file, o, &t));
        pqt_opts_free(o);
        nwarn = 0;
        pqt_set_warning_callback(on_warning, NULL);
        void *data = (void *)&nwarn;
        int64_t n = -1;
        int kind = -1;
        pqt_status st = pqt_table_get_decimal_alloc(t, "value", &data, NULL, &n, &kind);
        const char *want = "qc violation for column 'value': declared max <= 20, data range "
                           "[1.0, 24.0], 4 of 24 valid element(s) out of range";
        if (!soft) {
            CHECK_EQ_I64(st, PQT_QC);
            CHECK_HAS(pqt_errmsg(), want);
            CHECK(data == (void *)&nwarn && n == -1); /* nothing returned */
        } else {
            CHECK_OK(st);
            CHECK_EQ_I64(nwarn, 1);
            CHECK_HAS(last_warn, want);
            CHECK_EQ_I64(kind, PQT_INT64);
            CHECK_EQ_I64(n, 24);
            if (st == PQT_OK) CHECK(((const int64_t *)data)[23] == 2400);
            if (st == PQT_OK) pqt_free(data);
            CHECK_OK(pqt_table_get_decimal_alloc(t, "value", &data, NULL, &n, &kind));
            CHECK_EQ_I64(nwarn, 1); /* once per column */
            pqt_free(data);
        }
        pqt_set_warning_callback(NULL, NULL);
        int res = -1;
        CHECK_OK(pqt_table_residency(t, "value", &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY);
        pqt_table_close(t);
    }
}

/* A top-n whose first key's statistics rule out no row group (every group holds the same
 * range) reads each key value once, the rest of the groups in one pass. 1000 rows in 4 row
 * groups of 250: k = r % 100 (0-based r), null when r % 7 == 3; id = r + 1. */
static void test_topn_no_skip(void)
{
    static int64_t id[1000], k[1000];
    static uint8_t kv[125];
    memset(kv, 0, sizeof kv);
    for (int r = 0; r < 1000; r++) {
        id[r] = r + 1;
        k[r] = r % 100;
        if (r % 7 != 3) kv[r / 8] |= (uint8_t)(1u << (r % 8));
    }
    dw_col cols[] = {
        {.name = "id", .ptype = PQT_PT_INT64, .required = 1, .vals = id},
        {.name = "k", .ptype = PQT_PT_INT64, .vals = k, .valid = kv},
    };
    char p[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(p, sizeof p, "%s/pqt_topn_%d.parquet", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    int64_t rg_rows[4] = {250, 250, 250, 250};
    uint64_t rng = 9;
    dw_info info = {0};
    REQUIRE_OK(dw_write(p, cols, 2, rg_rows, 4, 1, &rng, &info) ? PQT_OK : PQT_IO);
    for (int threads = 1; threads <= 2; threads++) {
        pqt_opts *o = opts_new();
        REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
        REQUIRE_OK(pqt_opts_set_sort(o, "-k"));
        REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 7));
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_open(p, o, &t));
        pqt_opts_free(o);
        /* 99 at r = 99, 199, ..., 999 (null at 199 and 899: r % 7 == 3), the first seven */
        static const int64_t want[7] = {100, 300, 400, 500, 600, 700, 800};
        int64_t got[7] = {0};
        CHECK_OK(pqt_table_get(t, "id", 0, got, sizeof got, NULL, 0));
        for (int i = 0; i < 7; i++) CHECK_EQ_I64(got[i], want[i]);
        CHECK_EQ_I64(pqt_table_scan_values(t, "k"), 1000 - 1000 / 7 - 1); /* once: non-null */
        char buf[2048];
        pqt_table_explain(t, buf, sizeof buf);
        CHECK(strstr(buf, "top-n: the keys of") == NULL); /* nothing ruled out */
        pqt_table_close(t);
    }
    unlink(p);
}

/* qc rules name internal columns (docs/qc.md): two internal names a MAML remaps to one
 * file column keep their own rules; a sort at open takes internal names too.
 * alltypes_plain.parquet: id = 4 5 6 7 2 3 0 1. */
static void test_qc_remapped(void)
{
    pqt_opts *o = opts_new();
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  remap:\n    - a: id\n    - b: id\n"));
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "a, >=100"));
    REQUIRE_OK(pqt_qc_add(qc, "b, , <=7"));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc);
    REQUIRE_OK(pqt_opts_set_sort(o, "-b"));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(CORPUS "alltypes_plain.parquet", o, &t));
    pqt_opts_free(o);
    int32_t v[8];
    CHECK_EQ_I64(pqt_table_get(t, "a", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_HAS(pqt_errmsg(), "qc violation for column 'a': declared min >= 100, data range [0, 7], "
                            "8 of 8 valid element(s) out of range");
    CHECK_OK(pqt_table_get(t, "b", 0, v, sizeof v, NULL, 0)); /* b's own rule holds */
    for (int i = 0; i < 8; i++) CHECK_EQ_I64(v[i], 7 - i);
    pqt_table *c = NULL;
    REQUIRE_OK(pqt_table_clone(t, &c)); /* the clone binds the same way */
    CHECK_EQ_I64(pqt_table_get(c, "a", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_OK(pqt_table_rename_column(c, "b", "bb"));
    CHECK_OK(pqt_table_evict(c, "bb", 0));
    CHECK_OK(pqt_table_get(c, "bb", 0, v, sizeof v, NULL, 0));
    pqt_table_close(c);
    pqt_table_close(t);
}

/* pqt_opts_set_qc replaces the rules set before, NULL removes them. */
static void test_opts_set_qc(void)
{
    pqt_qc *q1 = NULL, *q2 = NULL;
    REQUIRE_OK(pqt_qc_new(&q1));
    REQUIRE_OK(pqt_qc_new(&q2));
    REQUIRE_OK(pqt_qc_add(q1, "id, , <=10"));
    REQUIRE_OK(pqt_qc_add(q2, "i32, >0"));
    pqt_opts *o = opts_new();
    REQUIRE_OK(pqt_opts_set_qc(o, q1));
    REQUIRE_OK(pqt_opts_set_qc(o, q2));
    pqt_qc_free(q1);
    pqt_qc_free(q2);
    pqt_table *t = open_rg(o);
    int64_t *v = NULL, n = 0;
    CHECK_OK(pqt_table_get_alloc(t, "id", 0, (void **)&v, NULL, &n)); /* q1 is gone */
    pqt_free(v);
    CHECK_OK(pqt_table_validate_qc(t)); /* i32 > 0 holds */
    pqt_table_close(t);
    REQUIRE_OK(pqt_opts_set_qc(o, NULL));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "i32 < 0"));
    t = open_rg(o);
    CHECK_EQ_I64(pqt_table_nrows(t), 0);
    pqt_table_close(t);
    pqt_opts_free(o);
}

int main(void)
{
    test_failures_change_nothing();
    test_sample_then_sort();
    test_time_keys_and_rules();
    test_struct_and_map_keys();
    test_detach_and_views();
    test_filter_sort_reads();
    test_opts_set_qc();
    test_row_index_key_at_open();
    test_qc_decimal_alloc();
    test_topn_no_skip();
    test_qc_remapped();
    return pqt_test_done("test_sort_qc_misc");
}
