/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_prop_ref.h - random tables and the plain reference evaluator shared by
 * test_filter_prop.c and test_filter_stats.c: every kind (nulls, NaN, +-0, +-inf, unicode
 * strings, dates, times and timestamps in every unit, a dotted leaf, a name that needs
 * backquotes), and a row-at-a-time Kleene evaluator that compares values the plainest way it
 * can (exact integer-vs-real comparison, (second, nanosecond) instants, libc memcmp), sharing
 * no code with src/scan.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "filter_testkit.h"

static uint64_t rng = 20240131;
static int64_t rnd(int64_t n) { return n > 0 ? (int64_t)(pqt_test_rand(&rng) % (uint64_t)n) : 0; }
static int coin(int pct) { return rnd(100) < pct; }

enum { C_I32, C_I64, C_F32, C_F64, C_B, C_S, C_D, C_TMS, C_TUS, C_TNS, C_TSMS, C_TSUS, C_TSNS,
       C_LEAF, C_FJY, NCOL };
/* names[] may be pointed elsewhere by a test that maps the slots onto a file's columns
 * (test_filter_open_diff.c); the kinds and units stay. */
static const char *names[NCOL] = {"i32",   "i64",   "f32",   "f64",   "b",
                                  "s",     "d",     "t_ms",  "t_us",  "t_ns",
                                  "ts_ms", "ts_us", "ts_ns", "st.leaf", "f (Jy)"};
static const int kinds[NCOL] = {PQT_INT32, PQT_INT64, PQT_FLOAT32, PQT_FLOAT64, PQT_BOOL,
                                PQT_STRING, PQT_DATE, PQT_TIME, PQT_TIME, PQT_TIME,
                                PQT_TIMESTAMP, PQT_TIMESTAMP, PQT_TIMESTAMP, PQT_INT32, PQT_FLOAT64};
static const int units[NCOL] = {-1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 0, 1, 2, -1, -1};

#ifndef MAXN /* rows of a table; a test may ask for more */
#define MAXN 700
#endif
#ifndef MAXSB /* bytes of the string column */
#define MAXSB (MAXN * 8)
#endif
static int32_t i32v[NCOL][MAXN];
static int64_t i64v[NCOL][MAXN + 1];
static float f32v[MAXN];
static double f64v[NCOL][MAXN];
static uint8_t u8v[MAXN];
static char sbytes[MAXSB];
static uint8_t valid[NCOL][MAXN / 8 + 1];
static int64_t nrows;

static const char *const spool[] = {"", "a", "ab", "abc", "b", "B", "\xc3\xa9", "\xc3\xa9\x61",
                                    "\xe6\x97\xa5\xe6\x9c\xac", "a\"b", "zz", "ab c", "S18"};
#define NSPOOL 13
static const double fpool[] = {-INFINITY, -2.5, -1, -0.0, 0, 0.5, 1, 2.5, INFINITY, NAN,
                               1e300, -1e-300, 0.1, 16777216, 3.4e38};
#define NFPOOL 15
static const int64_t ipool[] = {-5, -2, -1, 0, 1, 2, 3, 5, INT32_MIN, INT32_MAX,
                                INT64_MIN, INT64_MAX, 9007199254740993LL, 3000000000LL};
static const int64_t dpool[] = {-719528, -1, 0, 1, 19753, 19754, 2932896, -135140, 120000};
/* instants (second, nanosecond): 1600, 2300 and 0000 are beyond nanosecond timestamps */
static const int64_t ipool_sec[] = {0, -1, 19753LL * 86400, 19753LL * 86400, 19753LL * 86400,
                                    19753LL * 86400 + 43200, 1, -86400, 9000000000LL,
                                    -11676096000LL, 10413792000LL, -62167219200LL};
static const int64_t ipool_ns[] = {0, 999000000, 0, 123000000, 123456789, 500000, 0, 0, 0, 0, 0, 0};
#define NIPOOL 12

static int64_t per_sec(int u) { return u == 0 ? 1000 : u == 1 ? 1000000 : 1000000000; }

static int is_int_col(int c) { return c == C_I32 || c == C_I64 || c == C_LEAF; }
static int is_flt_col(int c) { return c == C_F32 || c == C_F64 || c == C_FJY; }
static int is_time_col(int c) { return c >= C_TMS && c <= C_TNS; }

/* An instant as a count of unit u, if exact and in range. */
static int instant_in(int64_t sec, int64_t ns, int u, int64_t *v)
{
    int64_t ps = per_sec(u), sub = 1000000000 / ps;
    if (ns % sub) return 0;
    if (sec > INT64_MAX / ps - 1 || sec < INT64_MIN / ps + 1) return 0;
    *v = sec * ps + ns / sub;
    return 1;
}

static void to_instant(int64_t v, int u, int64_t *sec, int64_t *ns)
{
    int64_t ps = per_sec(u);
    *sec = v / ps;
    int64_t r = v % ps;
    if (r < 0) r += ps, (*sec)--;
    *ns = r * (1000000000 / ps);
}

static void make_table(int64_t max_rows)
{
    nrows = 1 + rnd(max_rows);
    int64_t so = 0;
    i64v[C_S][0] = 0;
    for (int c = 0; c < NCOL; c++) memset(valid[c], 0, sizeof valid[c]);
    int nullpct = (int)rnd(40);
    for (int64_t r = 0; r < nrows; r++) {
        for (int c = 0; c < NCOL; c++) {
            if (!coin(nullpct)) valid[c][r >> 3] |= (uint8_t)(1 << (r & 7));
        }
        i32v[C_I32][r] = (int32_t)ipool[rnd(10)];
        i32v[C_LEAF][r] = (int32_t)rnd(7) - 3;
        i64v[C_I64][r] = ipool[rnd(14)];
        f32v[r] = (float)fpool[rnd(NFPOOL)];
        f64v[C_F64][r] = fpool[rnd(NFPOOL)];
        f64v[C_FJY][r] = fpool[rnd(NFPOOL)];
        u8v[r] = (uint8_t)rnd(2);
        const char *s = spool[rnd(NSPOOL)];
        memcpy(sbytes + so, s, strlen(s));
        so += (int64_t)strlen(s);
        i64v[C_S][r + 1] = so;
        i32v[C_D][r] = (int32_t)dpool[rnd(9)];
        for (int c = C_TMS; c <= C_TSNS; c++) {
            int u = units[c];
            int64_t v;
            for (;;) {
                int k = (int)rnd(NIPOOL);
                int64_t sec = ipool_sec[k], ns = ipool_ns[k];
                if (is_time_col(c)) sec = ((sec % 86400) + 86400) % 86400;
                if (instant_in(sec, ns, u, &v)) break;
            }
            i64v[c][r] = v;
        }
    }
}

/* ---- the reference ---- */

enum { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_IN, OP_NOTIN, OP_ISNULL, OP_ISNOTNULL,
       OP_ISNAN, OP_ISNOTNAN, OP_ISFIN, OP_ISNOTFIN, OP_SW, OP_EW, OP_CT, NOP };
static const char *const opword[NOP] = {"<", "<=", ">", ">=", "==", "/=", "in", "not_in",
                                        "is_null", "is_not_null", "is_nan", "is_not_nan",
                                        "is_finite", "is_not_finite", "starts_with", "ends_with",
                                        "contains"};

typedef struct tlit {
    int is_real;   /* int columns: d is a real (else i exact) */
    int64_t i;     /* ints, bool, date days */
    double d;      /* floats; reals against ints */
    const char *s; /* strings */
    int64_t sec, ns; /* time / timestamp instants */
    int none;      /* a bound member the reference must never match */
} tlit;

typedef struct tnode {
    int type; /* 0 and, 1 or, 2 not, 3 leaf */
    int nk;
    struct tnode *k[3];
    int col, op;
    tlit lit;
    tlit items[6];
    int nitems;
} tnode;

enum { T_F = 0, T_T = 1, T_U = 2 };

static int present(int c, int64_t r) { return (valid[c][r >> 3] >> (r & 7)) & 1; }

static int sgn(double a, double b) { return a < b ? -1 : a > b ? 1 : a == b ? 0 : 2; }

/* value of row r versus a literal: -1, 0, 1, or 2 (unordered: NaN) */
static int cmp3(int c, int64_t r, const tlit *l)
{
    if (is_int_col(c) || c == C_B || c == C_D) {
        int64_t v = c == C_I64 ? i64v[c][r] : c == C_B ? u8v[r] : i32v[c][r];
        if (!l->is_real) return v < l->i ? -1 : v > l->i;
        double d = l->d;
        if (d >= 9223372036854775808.0) return -1;
        if (d < -9223372036854775808.0) return 1;
        double fl = floor(d);
        int64_t fi = (int64_t)fl;
        if (v != fi) return v < fi ? -1 : 1;
        return d == fl ? 0 : -1;
    }
    if (c == C_F32) {
        float lf = (float)l->d;
        if (isfinite(lf) || !isfinite(l->d)) return sgn(f32v[r], lf);
        return sgn((double)f32v[r], l->d);
    }
    if (is_flt_col(c)) return sgn(f64v[c][r], l->d);
    if (c == C_S) {
        int64_t lo = i64v[C_S][r], len = i64v[C_S][r + 1] - lo, ll = (int64_t)strlen(l->s);
        int m = memcmp(sbytes + lo, l->s, (size_t)(len < ll ? len : ll));
        if (m) return m < 0 ? -1 : 1;
        return len < ll ? -1 : len > ll;
    }
    int64_t sec, ns;
    to_instant(i64v[c][r], units[c], &sec, &ns);
    if (sec != l->sec) return sec < l->sec ? -1 : 1;
    return ns < l->ns ? -1 : ns > l->ns;
}

static int ref_leaf(const tnode *e, int64_t r)
{
    int c = e->col, op = e->op;
    if (op == OP_ISNULL) return !present(c, r);
    if (op == OP_ISNOTNULL) return present(c, r);
    if (!present(c, r)) return T_U;
    double fv = c == C_F32 ? f32v[r] : is_flt_col(c) ? f64v[c][r] : 0;
    switch (op) {
    case OP_ISNAN: return isnan(fv);
    case OP_ISNOTNAN: return !isnan(fv);
    case OP_ISFIN: return isfinite(fv);
    case OP_ISNOTFIN: return !isfinite(fv);
    case OP_IN:
    case OP_NOTIN: {
        int hit = 0;
        for (int k = 0; k < e->nitems && !hit; k++) hit = !e->items[k].none && cmp3(c, r, &e->items[k]) == 0;
        return op == OP_IN ? hit : !hit;
    }
    case OP_SW:
    case OP_EW:
    case OP_CT: {
        const char *s = sbytes + i64v[C_S][r];
        size_t len = (size_t)(i64v[C_S][r + 1] - i64v[C_S][r]), pl = strlen(e->lit.s);
        if (pl > len) return T_F;
        if (op == OP_SW) return memcmp(s, e->lit.s, pl) == 0;
        if (op == OP_EW) return memcmp(s + len - pl, e->lit.s, pl) == 0;
        for (size_t i = 0; i + pl <= len; i++)
            if (memcmp(s + i, e->lit.s, pl) == 0) return T_T;
        return T_F;
    }
    default: break;
    }
    int k = cmp3(c, r, &e->lit);
    switch (op) {
    case OP_LT: return k == -1;
    case OP_LE: return k == -1 || k == 0;
    case OP_GT: return k == 1;
    case OP_GE: return k == 1 || k == 0;
    case OP_EQ: return k == 0;
    default: return k != 0; /* OP_NE: unordered counts as not equal */
    }
}

static int ref_eval(const tnode *e, int64_t r)
{
    if (e->type == 3) return ref_leaf(e, r);
    if (e->type == 2) {
        int v = ref_eval(e->k[0], r);
        return v == T_U ? T_U : !v;
    }
    int acc = e->type == 0 ? T_T : T_F;
    for (int i = 0; i < e->nk; i++) {
        int v = ref_eval(e->k[i], r);
        if (e->type == 0) acc = acc == T_F || v == T_F ? T_F : acc == T_U || v == T_U ? T_U : T_T;
        else acc = acc == T_T || v == T_T ? T_T : acc == T_U || v == T_U ? T_U : T_F;
    }
    return acc;
}

/* Batches of the table for a compiled program, starting at row off (a multiple of 8). */
static void vecs_for(const pqt_fprog *p, pqt_scan_vec *vecs, int64_t off)
{
    for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
        int c = pqt_scan_prog_col(p, s);
        const void *data;
        switch (c) {
        case C_I32: case C_LEAF: case C_D: data = i32v[c] + off; break;
        case C_F32: data = f32v + off; break;
        case C_F64: case C_FJY: data = f64v[c] + off; break;
        case C_B: data = u8v + off; break;
        default: data = i64v[c] + off;
        }
        vecs[s] = (pqt_scan_vec){data, c == C_S ? sbytes : NULL, valid[c] + off / 8};
    }
}
