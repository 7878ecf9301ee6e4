/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_expr_diff.c - differential test of the filter language's expressions and SQL
 * spellings (issue 30): random rules (expr_gen.h: arithmetic, functions, column against
 * column, IS NULL, BETWEEN, IN, LIKE/ILIKE, bare booleans, and/or/not, depth <= 4) over
 * generated files (int32, int64 with INT64_MIN/MAX and values past 2^53, float64 with NaN,
 * +-inf, +-0, subnormals and huge values, float32, strings with multibyte UTF-8, bool, date,
 * timestamp, nulls; several row groups, statistics, dictionaries, page indexes, blooms by
 * diff_write.c) against the row-at-a-time reference of expr_ref.h.
 * Each filter runs three ways: a table open on 1 or 2 threads with every pushdown on, one on
 * 2 or 1 threads with every pushdown off (rules as PQT_OPT_FILTER text or as a pqt_filter),
 * and pqt_table_row_mask_with on the unfiltered table. The kept rows (parquet_row_index) must
 * be the reference's, except rows whose verdict two honest implementations may give
 * differently (the last bits of a transcendental function; see expr_ref.h). A rule whose
 * rows overflow int64 may fail with PQT_RANGE; it must when the overflow is on every row's
 * path (one rule, not below and/or) and nothing can skip a row (pushdown off, row mask);
 * PQT_RANGE without an overflowing row, or any other failure, is a bug.
 * PQT_EXPR_DIFF_ITERS=n multiplies the files (soak runs). A failure prints the rule, the
 * configuration and the first differing row with its values, and keeps the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"

static uint64_t rng = 0x6578707231ULL; /* "expr1" */
static int64_t rnd(int64_t n)
{
    return n > 0 ? (int64_t)(pqt_test_rand(&rng) % (uint64_t)n) : 0;
}
static int coin(int pct)
{
    return rnd(100) < pct;
}

#include "diff_write.h"
#include "expr_gen.h"
#include "format/meta.h"

#define MAXRULES 3

static struct {
    int64_t rules, filters, opens, masks, kept, dropped, unsure_rows, ovf_filters, ovf_errors;
    int64_t strict_ovf, refused, printed;
    int64_t rg_pruned, rg_all; /* row groups statistics settled (pushdown on) */
    int64_t print_max;         /* PQT_EXPR_DIFF_PRINT: failures printed in full (12) */
} tot;

/* ---- writing the table ---- */

static int write_xtable(const char *path)
{
    static int32_t i32[XN_MAX], d32[XN_MAX];
    static float f32[XN_MAX];
    static uint8_t b8[XN_MAX];
    for (int64_t r = 0; r < xnrows; r++) {
        i32[r] = (int32_t)xi[C_I32][r];
        d32[r] = (int32_t)xi[C_D][r];
        f32[r] = (float)xd[C_F32][r];
        b8[r] = (uint8_t)xi[C_B][r];
    }
    static const char *const plain[XNC] = {"i32", "i64", "big", "f64", "f32",
                                           "ra",  "dec", "g",   "r",   "flux (Jy)",
                                           "s",   "s2",  "b",   "d",   "ts"};
    dw_col cols[XNC];
    for (int c = 0; c < XNC; c++) {
        dw_col *w = &cols[c];
        memset(w, 0, sizeof *w);
        w->name = plain[c];
        w->valid = xvalid[c];
        switch (xcls[c]) {
        case T_INT:
            w->ptype = c == C_I32 ? PQT_PT_INT32 : PQT_PT_INT64;
            w->vals = c == C_I32 ? (const void *)i32 : (const void *)xi[c];
            break;
        case T_FLT:
            w->ptype = c == C_F32 ? PQT_PT_FLOAT : PQT_PT_DOUBLE;
            w->vals = c == C_F32 ? (const void *)f32 : (const void *)xd[c];
            break;
        case T_STR:
            w->ptype = PQT_PT_BYTE_ARRAY;
            w->ann = DW_STRING;
            w->vals = xsoff[c == C_S2];
            w->bytes = xsb[c == C_S2];
            break;
        case T_BOOL:
            w->ptype = PQT_PT_BOOLEAN, w->vals = b8;
            break;
        case T_DATE:
            w->ptype = PQT_PT_INT32, w->ann = DW_DATE, w->vals = d32;
            break;
        default:
            w->ptype = PQT_PT_INT64, w->ann = DW_TS, w->unit = PQT_UNIT_MICROS;
            w->vals = xi[c];
        }
    }
    int64_t rg[6];
    int nrg = 1 + (int)rnd(6);
    int64_t left = xnrows;
    for (int g = 0; g < nrg; g++) {
        rg[g] = g == nrg - 1 ? left : 1 + rnd(left - (nrg - 1 - g));
        left -= rg[g];
    }
    uint64_t wr = pqt_test_rand(&rng);
    dw_info info;
    memset(&info, 0, sizeof info);
    return dw_write(path, cols, XNC, rg, nrg, 1, &wr, &info);
}

/* ---- one filter ---- */

typedef struct xfilter {
    xn *roots[MAXRULES];
    tbuf texts[MAXRULES];
    int nr;
    pqt_filter *f;
    uint8_t *want; /* per row: the reference's truth set (M_*) */
    int ovf_any;   /* some row overflows somewhere */
    int ovf_unc;   /* ... on a path every row takes (one rule, not below and/or) */
} xfilter;

static void print_row(int64_t r)
{
    fprintf(stderr, "    row %lld:", (long long)r + 1);
    for (int c = 0; c < XNC; c++) {
        fprintf(stderr, " %s=", xname[c]);
        if (!xpresent(c, r)) {
            fprintf(stderr, "null");
            continue;
        }
        switch (xcls[c]) {
        case T_FLT:
            fprintf(stderr, "%.17g", xd[c][r]);
            break;
        case T_STR: {
            int k = c == C_S2;
            fprintf(stderr, "'%.*s'", (int)(xsoff[k][r + 1] - xsoff[k][r]), xsb[k] + xsoff[k][r]);
            break;
        }
        default:
            fprintf(stderr, "%lld", (long long)xi[c][r]);
        }
    }
    fprintf(stderr, "\n");
}

static void fail_head(const xfilter *X, const char *path, const char *how)
{
    tot.printed++;
    fprintf(stderr, "MISMATCH (%s), file %s:\n", how, path);
    for (int k = 0; k < X->nr; k++)
        fprintf(stderr, "    rule: %s\n", X->texts[k].s);
    pqt_test_failures++;
}

/* got[r] (0/1 per row) against the reference; returns 1 on a difference */
static int compare_rows(const xfilter *X, const uint8_t *got, const char *path, const char *how)
{
    for (int64_t r = 0; r < xnrows; r++) {
        int m = X->want[r];
        int ok = got[r] ? (m & M_T) != 0 : (m & (M_F | M_U)) != 0;
        if (ok) continue;
        if (tot.printed < tot.print_max) {
            fail_head(X, path, how);
            fprintf(stderr, "    first differing row %lld: expected %s, got %s\n", (long long)r + 1,
                    m == M_T ? "kept" : "dropped", got[r] ? "kept" : "dropped");
            print_row(r);
        } else {
            pqt_test_failures++;
        }
        return 1;
    }
    return 0;
}

/* A status against the reference's overflow verdict: 1 when rows should be compared. */
static int check_status(const xfilter *X, pqt_status st, int strict, const char *path,
                        const char *how)
{
    if (st == PQT_OK && !(strict && X->ovf_unc)) return 1;
    if (st == PQT_RANGE && X->ovf_any) {
        tot.ovf_errors++;
        return 0;
    }
    if (st == PQT_BAD_FILTER) { /* a rule of the language refused when applied */
        if (tot.refused++ < tot.print_max) {
            fprintf(stderr, "REFUSED at open (%s):\n", how);
            for (int k = 0; k < X->nr; k++)
                fprintf(stderr, "    rule: %s\n", X->texts[k].s);
            fprintf(stderr, "    %s\n", pqt_errmsg());
        }
        pqt_test_failures++;
        return 0;
    }
    if (tot.printed < tot.print_max) {
        fail_head(X, path, how);
        if (st == PQT_OK)
            fprintf(stderr, "    succeeded, but every row is evaluated and some overflows int64\n");
        else
            fprintf(stderr, "    failed (%s): %s%s\n", pqt_status_name(st), pqt_errmsg(),
                    X->ovf_any ? "" : " (no row overflows)");
    } else {
        pqt_test_failures++;
    }
    return 0;
}

static void run_open(const xfilter *X, const char *path, int threads, int pd_on, int as_text)
{
    char how[96];
    snprintf(how, sizeof how, "open, %d thread%s, pushdown %s, rules as %s", threads,
             threads > 1 ? "s" : "", pd_on ? "on" : "off", as_text ? "text" : "pqt_filter");
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    for (int b = 0; b < 5 && !pd_on; b++)
        CHECK_OK(pqt_opts_set_int(o, (pqt_opt)(PQT_OPT_PUSHDOWN_STATS + b), 0));
    pqt_status st = PQT_OK;
    if (as_text)
        for (int k = 0; k < X->nr && st == PQT_OK; k++)
            st = pqt_opts_set_str(o, PQT_OPT_FILTER, X->texts[k].s);
    else
        CHECK_OK(pqt_opts_set_filter(o, X->f));
    pqt_table *t = NULL;
    if (st == PQT_OK) st = pqt_table_open(path, o, &t);
    pqt_opts_free(o);
    tot.opens++;
    if (!check_status(X, st, !pd_on, path, how)) {
        pqt_table_close(t);
        return;
    }
    int64_t *ri = NULL, n = 0;
    uint8_t *vb = NULL;
    static uint8_t got[XN_MAX];
    memset(got, 0, sizeof got);
    if (pqt_table_nrows(t) > 0) {
        CHECK_OK(pqt_table_get_alloc(t, PQT_ROW_INDEX, 0, (void **)&ri, &vb, &n));
        for (int64_t i = 0; i < n; i++)
            if (ri[i] >= 1 && ri[i] <= xnrows) got[ri[i] - 1] = 1;
    }
    CHECK_EQ_I64(n, pqt_table_nrows(t));
    if (!compare_rows(X, got, path, how) && pd_on) {
        pqt_scan_counts sc;
        CHECK_OK(pqt_table_scan_stats(t, &sc));
        tot.rg_pruned += sc.row_groups_pruned_stats;
        tot.rg_all += sc.row_groups_all;
    }
    pqt_free(ri);
    pqt_free(vb);
    pqt_table_close(t);
}

static void run_mask(const xfilter *X, pqt_table *t, const char *path)
{
    static uint8_t got[XN_MAX];
    memset(got, 0, sizeof got);
    tot.masks++;
    pqt_status st = pqt_table_row_mask_with(t, X->f, got);
    if (check_status(X, st, 1, path, "pqt_table_row_mask_with"))
        compare_rows(X, got, path, "pqt_table_row_mask_with");
}

/* A random filter of 1 to 3 rules and the reference's verdicts; 0 when pqt refuses a rule
 * (a failure: every generated rule is in the language). */
static int make_xfilter(xfilter *X, const char *path)
{
    nxpool = 0;
    X->nr = coin(75) ? 1 : 2 + (int)coin(50);
    CHECK_OK(pqt_filter_new(&X->f));
    for (int k = 0; k < X->nr; k++) {
        X->roots[k] = gen_pred(1 + (int)rnd(4));
        X->texts[k].n = 0;
        X->texts[k].s[0] = '\0';
        render(&X->texts[k], X->roots[k], 0);
        tot.rules++;
        if (pqt_filter_add(X->f, X->texts[k].s) != PQT_OK) {
            if (tot.refused++ < tot.print_max)
                fprintf(stderr, "REFUSED rule: %s\n    %s\n", X->texts[k].s, pqt_errmsg());
            pqt_test_failures++;
            (void)path;
            return 0;
        }
    }
    X->ovf_any = X->ovf_unc = 0;
    for (int64_t r = 0; r < xnrows; r++) {
        int m = M_T;
        xr_ovf_any = xr_ovf_unc = 0;
        for (int k = 0; k < X->nr; k++) {
            const xn *root = X->roots[k];
            int unc = X->nr == 1 && root->op != P_AND && root->op != P_OR;
            m = m_and(m, eval_p(root, r, unc));
        }
        X->ovf_any |= xr_ovf_any;
        X->ovf_unc |= xr_ovf_unc;
        X->want[r] = (uint8_t)m;
        tot.unsure_rows += m != M_T && (m & M_T);
        tot.kept += m == M_T;
        tot.dropped += !(m & M_T);
    }
    tot.ovf_filters += X->ovf_any;
    tot.strict_ovf += X->ovf_unc;
    return 1;
}

static void run_file(int fi, int nfilters)
{
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/pqt_xdiff_%d_%d.parquet", tmp && *tmp ? tmp : "/tmp",
             (int)getpid(), fi);
    make_xtable(fi % 3 == 0 ? 40 + rnd(200) : 400 + rnd(700));
    if (!write_xtable(path)) {
        fprintf(stderr, "cannot write %s\n", path);
        pqt_test_failures++;
        return;
    }
    int64_t before = pqt_test_failures;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), xnrows);
    xfilter X;
    memset(&X, 0, sizeof X);
    X.want = malloc((size_t)xnrows);
    for (int i = 0; i < nfilters; i++) {
        if (make_xfilter(&X, path)) {
            tot.filters++;
            int a = (int)(i & 1), text = coin(50);
            run_open(&X, path, 1 + a, 1, text);
            run_open(&X, path, 2 - a, 0, !text);
            run_mask(&X, t, path);
        }
        pqt_filter_free(X.f);
        X.f = NULL;
    }
    free(X.want);
    pqt_table_close(t);
    if (pqt_test_failures != before)
        fprintf(stderr, "  (kept %s)\n", path);
    else
        unlink(path);
}

/* ---- the reference itself, on hand-computed cases ---- */

static xn *k2(int op, int sub, xn *a, xn *b)
{
    xn *e = xnew(op);
    e->sub = sub, e->nk = b ? 2 : 1, e->k[0] = a, e->k[1] = b;
    return e;
}
static xn *li(int64_t v)
{
    xn *e = xnew(X_INT);
    e->i = v;
    return e;
}
static xn *lf(double v)
{
    xn *e = xnew(X_FLT);
    e->d = v;
    return e;
}
static xn *like(int c, const char *pat, int ci)
{
    xn *e = k2(P_LIKE, 0, col_node(c), NULL);
    e->s = pat, e->ci = ci;
    return e;
}

static void ref_case(xn *p, int want, int want_ovf, const char *what)
{
    xr_ovf_any = xr_ovf_unc = 0;
    int got = eval_p(p, 0, 1);
    if (got != want || xr_ovf_unc != want_ovf) {
        fprintf(stderr, "reference: %s: truth set %d (overflow %d), expected %d (%d)\n", what, got,
                xr_ovf_unc, want, want_ovf);
        pqt_test_failures++;
    }
}

static void ref_selftest(void)
{
    xnrows = 1;
    memset(xvalid, 0xff, sizeof xvalid);
    set_valid(C_I32, 0, 0); /* i32 null */
    xi[C_I64][0] = -7, xi[C_BIG][0] = INT64_MAX, xd[C_F64][0] = NAN, xd[C_G][0] = 30;
    xi[C_B][0] = 1;
    memcpy(xsb[0], "\xc3\xa9\xe6\x97\xa5", 5), xsoff[0][0] = 0, xsoff[0][1] = 5; /* s = "é日" */
    nxpool = 0;
    xn *i64 = col_node(C_I64), *big = col_node(C_BIG), *f64 = col_node(C_F64);
    ref_case(k2(P_CMP, Q_EQ, k2(X_IDIV, 0, i64, li(2)), li(-3)), M_T, 0, "-7 // 2 = -3");
    ref_case(k2(P_CMP, Q_EQ, k2(X_MOD, 0, i64, li(2)), li(-1)), M_T, 0, "-7 % 2 = -1");
    ref_case(k2(P_CMP, Q_EQ, k2(X_DIV, 0, i64, li(2)), lf(-3.5)), M_T, 0, "-7 / 2 = -3.5");
    ref_case(k2(P_ISNULL, 0, k2(X_DIV, 0, i64, li(0)), NULL), M_T, 0, "-7 / 0 is null");
    ref_case(k2(P_ISNULL, 0, k2(X_MOD, 0, f64, lf(0)), NULL), M_T, 0, "NaN % 0.0 is null");
    ref_case(k2(P_CMP, Q_GT, k2(X_ADD, 0, big, li(1)), li(0)), M_ALL, 1, "INT64_MAX + 1 overflows");
    ref_case(k2(P_CMP, Q_GT, k2(X_ADD, 0, big, lf(1)), li(0)), M_T, 0, "INT64_MAX + 1.0 is FLOAT");
    ref_case(k2(P_CMP, Q_EQ, k2(X_MUL, 0, big, li(-1)), k2(X_ADD, 0, li(INT64_MIN), li(1))), M_T, 0,
             "-INT64_MAX");
    ref_case(k2(P_CMP, Q_GT, li(9007199254740993LL), lf(9007199254740992.0)), M_T, 0,
             "2^53 + 1 > 2^53 exactly");
    ref_case(k2(P_CMP, Q_EQ, k2(X_ADD, 0, li(9007199254740993LL), lf(0)), lf(9007199254740992.0)),
             M_T, 0, "2^53 + 1 + 0.0 rounds");
    ref_case(k2(P_CMP, Q_NE, f64, lf(1)), M_T, 0, "NaN != 1");
    ref_case(k2(P_CMP, Q_EQ, f64, f64), M_F, 0, "NaN == NaN is false");
    ref_case(k2(P_NOT, 0, k2(P_CMP, Q_GT, col_node(C_I32), li(1)), NULL), M_U, 0, "not null > 1");
    xn *o = k2(P_OR, 0, k2(P_CMP, Q_GT, col_node(C_I32), li(1)), k2(P_BOOL, 0, NULL, NULL));
    o->k[1]->col = C_B, o->k[1]->nk = 0;
    ref_case(o, M_T, 0, "unknown or true");
    o = k2(P_AND, 0, k2(P_CMP, Q_GT, k2(X_ADD, 0, big, li(1)), li(0)), k2(P_BOOL, 0, NULL, NULL));
    o->k[1]->col = C_B, o->k[1]->nk = 0;
    ref_case(o, M_ALL, 0, "an overflow below and: not on every row's path");
    ref_case(like(C_S, "__", 0), M_T, 0, "'\u00e9\u65e5' like '__' (characters, not bytes)");
    ref_case(like(C_S, "\xc3\x89%", 1), M_F, 0, "ilike folds ASCII only");
    ref_case(k2(P_CMP, Q_EQ, k2(X_FN, F_LENGTH, col_node(C_S), NULL), li(2)), M_T, 0, "length");
    ref_case(k2(P_CMP, Q_GT, k2(X_FN, F_SIND, col_node(C_G), NULL), lf(0.5)), M_T | M_F, 0,
             "sind(30) > 0.5 is not judged");
    ref_case(k2(P_CMP, Q_GT, k2(X_FN, F_SIND, col_node(C_G), NULL), lf(0.49)), M_T, 0,
             "sind(30) > 0.49");
    ref_case(k2(P_CMP, Q_LT, k2(X_FN, F_LOG, lf(0), NULL), lf(-1e308)), M_T, 0, "log(0) = -inf");
    ref_case(k2(P_CMP, Q_EQ, k2(X_FN, F_ABS, li(-5), NULL), li(5)), M_T, 0, "abs of INT");
    ref_case(k2(P_CMP, Q_GT, k2(X_FN, F_ABS, k2(X_SUB, 0, li(INT64_MIN), li(0)), NULL), li(0)),
             M_ALL, 1, "abs(INT64_MIN) overflows");
    xn *c = xnew(P_FN);
    c->sub = F_CONE, c->nk = 5;
    double cv[5] = {10, 20, 10, 21, 0.999};
    for (int k = 0; k < 5; k++)
        c->k[k] = lf(cv[k]);
    ref_case(c, M_F, 0, "cone: 1 degree apart, radius 0.999");
    c->k[4] = lf(1.001);
    ref_case(c, M_T, 0, "cone: 1 degree apart, radius 1.001");
}

int main(void)
{
    ref_selftest();
    const char *it = getenv("PQT_EXPR_DIFF_ITERS");
    int iters = it && atoi(it) > 0 ? atoi(it) : 1;
    const char *pm = getenv("PQT_EXPR_DIFF_PRINT");
    tot.print_max = pm && atoi(pm) > 0 ? atoi(pm) : 12;
    for (int fi = 0; fi < 8 * iters; fi++)
        run_file(fi, 300);
    fprintf(stderr,
            "test_filter_expr_diff: %lld filters (%lld rules), %lld opens, %lld row masks; "
            "rows kept %lld, dropped %lld, either %lld; filters with an overflowing row %lld "
            "(on every row's path %lld), PQT_RANGE answers %lld\n",
            (long long)tot.filters, (long long)tot.rules, (long long)tot.opens,
            (long long)tot.masks, (long long)tot.kept, (long long)tot.dropped,
            (long long)tot.unsure_rows, (long long)tot.ovf_filters, (long long)tot.strict_ovf,
            (long long)tot.ovf_errors);
    fprintf(stderr,
            "  row groups settled by statistics (pushdown on, rows right): %lld pruned, %lld "
            "passing whole\n",
            (long long)tot.rg_pruned, (long long)tot.rg_all);
    /* not vacuous: most filters compared rows, both verdicts occur, overflow was exercised */
    CHECK(tot.filters > 2000);
    CHECK(tot.kept > 0 && tot.dropped > 0);
    CHECK(tot.strict_ovf > 0 && tot.ovf_errors > 0);
    CHECK(tot.unsure_rows < (tot.kept + tot.dropped) / 20);
    return pqt_test_done("test_filter_expr_diff");
}
