/* SPDX-License-Identifier: Apache-2.0 */
/*
 * expr_gen.h - random tables and random rules for test_filter_expr_diff.c (issue 30): the
 * table's values come from pools of edge values (INT64_MIN/MAX, values past 2^53, NaN,
 * +-inf, +-0, subnormals, multibyte UTF-8, dates, timestamps) with nulls; the rules are
 * random trees (depth <= 4) of arithmetic, functions, comparisons, IS [NOT] NULL, [NOT]
 * BETWEEN, [NOT] IN, [NOT] LIKE/ILIKE, bare booleans, and/or/not, rendered as text with the
 * fewest parentheses the precedence needs (and some spare ones).
 * Needs rnd()/coin() from the including file.
 */
#ifndef PQT_TEST_EXPR_GEN_H
#define PQT_TEST_EXPR_GEN_H

#include <stdarg.h>
#include <stdio.h>

#include "expr_ref.h"

static int64_t rnd(int64_t n);
static int coin(int pct);

/* ---- data ---- */

static const int64_t i32pool[] = {-7, -2, -1, 0, 1, 2, 3, 7, 100, INT32_MIN, INT32_MAX, 45, 90};
static const int64_t i64pool[] = {-7,
                                  -2,
                                  -1,
                                  0,
                                  1,
                                  2,
                                  3,
                                  7,
                                  1000,
                                  -1000,
                                  9007199254740991LL,
                                  9007199254740993LL,
                                  -9007199254740993LL,
                                  3000000000LL};
static const int64_t bigpool[] = {
    INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 0, 1, -1, 4611686018427387904LL, -3};
static const double f64pool[] = {NAN,       INFINITY,
                                 -INFINITY, 0.0,
                                 -0.0,      5e-324,
                                 1e308,     1.7976931348623157e308,
                                 0.5,       -2.5,
                                 3,         1e10,
                                 0.1,       9007199254740992.0,
                                 90,        180,
                                 45,        -90,
                                 1000,      1e-300,
                                 2.5,       -7};
static const char *const strpool[] = {"",
                                      "a",
                                      "ab",
                                      "abc",
                                      "B",
                                      "\xc3\xa9",
                                      ("\xc3\xa9" "a"),
                                      "\xe6\x97\xa5\xe6\x9c\xac",
                                      "a'b",
                                      "A%b",
                                      "obj-0001",
                                      "OBJ-0002",
                                      "x_y",
                                      "xay",
                                      "Abc"};
#define NSTR ((int)(sizeof strpool / sizeof strpool[0]))
static const int64_t dpool[] = {0, 17532, 17531, 17533, 19753, -25508, 11016, -1, 20000};
/* 2018-01-01T12:00:00, 2018-01-01, 1970-01-01T00:00:00.000001, ... in micros */
static const int64_t tspool[] = {
    1514808000000000LL, 1514764800000000LL, 1LL, 0, -1, 1514808000000001LL,
    1706659200000000LL, -2208988800000000LL};
#define NP(a) ((int)(sizeof a / sizeof a[0]))

static void set_valid(int c, int64_t r, int v)
{
    if (v)
        xvalid[c][r >> 3] |= (uint8_t)(1u << (r & 7));
    else
        xvalid[c][r >> 3] &= (uint8_t) ~(1u << (r & 7));
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

/* A random table; one float column sorted so that statistics can decide row groups. */
static void make_xtable(int64_t n)
{
    xnrows = n;
    int nullpct[XNC];
    for (int c = 0; c < XNC; c++)
        nullpct[c] = coin(15) ? 0 : coin(5) ? 100 : (int)rnd(25);
    int64_t so[2] = {0, 0};
    for (int64_t r = 0; r < n; r++) {
        for (int c = 0; c < XNC; c++)
            set_valid(c, r, rnd(100) >= nullpct[c]);
        xi[C_I32][r] = i32pool[rnd(NP(i32pool))];
        xi[C_I64][r] = i64pool[rnd(NP(i64pool))];
        xi[C_BIG][r] = bigpool[rnd(NP(bigpool))];
        xd[C_F64][r] = f64pool[rnd(NP(f64pool))];
        xd[C_F32][r] = (float)f64pool[rnd(NP(f64pool))];
        xd[C_RA][r] = coin(3) ? (coin(50) ? NAN : 360 + rnd(20)) : (double)rnd(360000) / 1000;
        xd[C_DEC][r] = coin(2) ? NAN : (double)(rnd(180001) - 90000) / 1000;
        xd[C_G][r] = 14 + (double)rnd(10000) / 1000;
        xd[C_R][r] = 13 + (double)rnd(10000) / 1000;
        xd[C_FLUX][r] = coin(5) ? f64pool[rnd(NP(f64pool))] : (double)rnd(100000) / 7;
        for (int k = 0; k < 2; k++) {
            const char *s = strpool[rnd(NSTR)];
            size_t l = strlen(s);
            memcpy(xsb[k] + so[k], s, l);
            xsoff[k][r] = so[k];
            so[k] += (int64_t)l;
        }
        xi[C_B][r] = rnd(2);
        xi[C_D][r] = dpool[rnd(NP(dpool))];
        xi[C_TS][r] = tspool[rnd(NP(tspool))];
    }
    xsoff[0][n] = so[0];
    xsoff[1][n] = so[1];
    int sc = coin(50) ? C_G : coin(50) ? C_R : C_F64;
    qsort(xd[sc], (size_t)n, sizeof(double), cmp_dbl);
}

/* ---- rules ---- */

static xn xpool[8192];
static int nxpool;

static xn *xnew(int op)
{
    xn *e = &xpool[nxpool++ % 8192];
    memset(e, 0, sizeof *e);
    e->op = op;
    return e;
}

static xn *col_node(int c)
{
    xn *e = xnew(X_COL);
    e->col = c;
    return e;
}

/* INT literals as written; the first NI32SAFE are exact as float32 too */
static const char *const intlits[] = {
    "0", "1", "2", "3", "7", "10", "1000", "2147483648", "9007199254740993", "9223372036854775807"};
#define NI32SAFE 8
/* FLOAT literals: the first NF32SAFE are exact as float32 (a bare float32 column compares
 * with the literal rounded to float32, the old rule: keep clear of it) */
static const char *const fltlits[] = {"0.0",
                                      "0.5",
                                      "2.5",
                                      "1.5",
                                      "1e10",
                                      "16777216.0",
                                      "9223372036854775808",
                                      "inf",
                                      "0.25",
                                      "0.1",
                                      "1e300",
                                      "9007199254740993.0",
                                      "2.5e-1",
                                      "1e19"};
#define NF32SAFE 9

static xn *num_lit(int f32safe)
{
    xn *e;
    if (coin(55)) {
        e = xnew(X_INT);
        e->text = intlits[rnd(f32safe ? NI32SAFE : NP(intlits))];
        e->i = strtoll(e->text, NULL, 10);
    } else {
        e = xnew(X_FLT);
        e->text = fltlits[rnd(f32safe ? NF32SAFE : NP(fltlits))];
        e->d = strtod(e->text, NULL);
    }
    /* a negative literal: unary minus (not of 2^63: whether -9223372036854775808 is the INT
     * INT64_MIN or a FLOAT is not a rule this test decides) */
    if (coin(25) && strcmp(e->text, "0") != 0 && strcmp(e->text, "9223372036854775808") != 0) {
        xn *n = xnew(X_NEG);
        n->nk = 1;
        n->k[0] = e;
        return n;
    }
    return e;
}

static int has_col(const xn *e)
{
    if (e->op == X_COL) return 1;
    for (int k = 0; k < e->nk; k++)
        if (has_col(e->k[k])) return 1;
    return 0;
}

static int num_col(void)
{
    static const int cols[] = {C_I32, C_I64, C_I64,  C_F64, C_F64, C_F32,
                               C_G,   C_R,   C_FLUX, C_RA,  C_DEC, C_BIG};
    int c = cols[rnd(NP(cols))];
    return c == C_BIG && coin(50) ? C_I64 : c;
}

static xn *gen_num(int depth)
{
    if (depth <= 0 || coin(30)) return coin(75) ? col_node(num_col()) : num_lit(0);
    int pick = (int)rnd(100);
    xn *e;
    if (pick < 50) {
        static const int ops[] = {X_ADD, X_SUB, X_MUL, X_DIV, X_IDIV, X_MOD, X_ADD, X_SUB};
        e = xnew(ops[rnd(NP(ops))]);
        e->nk = 2;
        e->k[0] = gen_num(depth - 1);
        e->k[1] = has_col(e->k[0]) ? gen_num(depth - 1) : col_node(num_col());
        if (coin(50)) { /* literals on either side */
            xn *t = e->k[0];
            e->k[0] = e->k[1], e->k[1] = t;
        }
    } else if (pick < 58) {
        e = xnew(X_NEG);
        e->nk = 1;
        e->k[0] = coin(70) ? col_node(num_col()) : gen_num(depth - 1);
        if (!has_col(e->k[0])) e->k[0] = col_node(num_col());
    } else if (pick < 64) {
        e = xnew(X_FN);
        e->sub = F_LENGTH;
        e->nk = 1;
        e->k[0] = col_node(coin(50) ? C_S : C_S2);
    } else {
        e = xnew(X_FN);
        e->sub = coin(12) ? F_POW + (int)rnd(3) : (int)rnd(F_LENGTH);
        e->nk = e->sub >= F_POW ? 2 : 1;
        for (int k = 0; k < e->nk; k++)
            e->k[k] = gen_num(depth - 1);
        if (!has_col(e->k[0]) && (e->nk == 1 || !has_col(e->k[1]))) e->k[0] = col_node(num_col());
    }
    return e;
}

/* a numeric expression naming at least one column */
static xn *gen_numc(int depth)
{
    xn *e = gen_num(depth);
    return has_col(e) ? e : col_node(num_col());
}

static xn *str_lit(void)
{
    xn *e = xnew(X_STR);
    e->s = strpool[rnd(NSTR)];
    return e;
}

static xn *temp_lit(int t)
{
    static const char *const dl[] = {"2018-01-01", "1970-01-01", "2024-01-31",
                                     "1900-03-01", "2000-02-29", "2018-01-02"};
    static const int64_t dv[] = {17532, 0, 19753, -25508, 11016, 17533};
    static const char *const tl[] = {
        "2018-01-01T12:00:00", "2018-01-01", "1970-01-01T00:00:00.000001",
        "2024-01-31T00:00:00", "1900-01-01", "2018-01-01T12:00:00.000001Z"};
    static const int64_t tv[] = {1514808000000000LL, 1514764800000000LL,  1,
                                 1706659200000000LL, -2208988800000000LL, 1514808000000001LL};
    xn *e = xnew(X_TEMP);
    int k = (int)rnd(6);
    e->sub = t;
    e->text = t == T_DATE ? dl[k] : tl[k];
    e->i = t == T_DATE ? dv[k] : tv[k];
    return e;
}

/* T_INT or T_FLT: the type an arithmetic expression has (COMMON rules: / is FLOAT; abs,
 * floor, ceil, round keep an INT; length is INT; other functions FLOAT) */
static int num_type(const xn *e)
{
    switch (e->op) {
    case X_COL:
        return xcls[e->col];
    case X_INT:
        return T_INT;
    case X_FLT:
        return T_FLT;
    case X_NEG:
        return num_type(e->k[0]);
    case X_DIV:
        return T_FLT;
    case X_FN:
        if (e->sub == F_LENGTH) return T_INT;
        if (e->sub == F_ABS || (e->sub >= F_FLOOR && e->sub <= F_ROUND)) return num_type(e->k[0]);
        return T_FLT;
    default:
        return num_type(e->k[0]) == T_INT && num_type(e->k[1]) == T_INT ? T_INT : T_FLT;
    }
}

/* an INT literal (a list of an INT expression holds integers only: a real there is refused) */
static xn *int_lit(void)
{
    xn *e;
    do
        e = num_lit(0);
    while (num_type(e) != T_INT);
    return e;
}

/* A bare float32 column against a literal compiles to the old leaf, which rounds the literal
 * to float32 (documented): such a column gets literals every float32 holds exactly. A float64
 * column compares integer literals exactly, past 2^53 too, so it takes any literal. */
static int is_bare_f32(const xn *e)
{
    return e->op == X_COL && e->col == C_F32;
}

static xn *gen_leafpred(int depth)
{
    int pick = (int)rnd(100);
    xn *e;
    if (pick < 40) { /* numbers against numbers */
        e = xnew(P_CMP);
        e->sub = (int)rnd(6);
        e->nk = 2;
        e->k[0] = gen_num(depth);
        e->k[1] = coin(50) ? gen_num(depth - 1) : num_lit(is_bare_f32(e->k[0]));
        if (!has_col(e->k[0]) && !has_col(e->k[1])) e->k[0] = col_node(num_col());
        if (is_bare_f32(e->k[0]) && !has_col(e->k[1])) e->k[1] = num_lit(1);
        if (is_bare_f32(e->k[1]) && !has_col(e->k[0])) e->k[0] = num_lit(1);
        if (coin(30)) {
            xn *t = e->k[0];
            e->k[0] = e->k[1], e->k[1] = t;
        }
        return e;
    }
    if (pick < 50) { /* strings, booleans, dates, timestamps */
        e = xnew(P_CMP);
        e->sub = (int)rnd(6);
        e->nk = 2;
        int kind = (int)rnd(4);
        if (kind == 0) {
            e->k[0] = col_node(coin(50) ? C_S : C_S2);
            e->k[1] = coin(30) ? col_node(e->k[0]->col == C_S ? C_S2 : C_S) : str_lit();
        } else if (kind == 1) {
            e->k[0] = col_node(C_B);
            e->k[1] = xnew(X_BOOLLIT);
            e->k[1]->i = coin(50);
            e->sub = coin(50) ? Q_EQ : Q_NE;
        } else {
            int c = kind == 2 ? C_D : C_TS;
            e->k[0] = col_node(c);
            e->k[1] = temp_lit(xcls[c]);
        }
        if (coin(20)) {
            xn *t = e->k[0];
            e->k[0] = e->k[1], e->k[1] = t;
        }
        return e;
    }
    if (pick < 58) {
        e = xnew(P_ISNULL);
        e->neg = coin(50);
        e->nk = 1;
        e->k[0] = coin(40) ? col_node((int)rnd(XNC)) : gen_numc(depth);
        return e;
    }
    if (pick < 68) {
        e = xnew(P_BETWEEN);
        e->neg = coin(30);
        e->nk = 3;
        if (coin(20)) {
            int c = coin(50) ? C_D : C_TS;
            e->k[0] = col_node(c);
            e->k[1] = temp_lit(xcls[c]);
            e->k[2] = temp_lit(xcls[c]);
        } else {
            e->k[0] = coin(40) ? col_node(num_col()) : gen_numc(depth);
            int safe = is_bare_f32(e->k[0]);
            e->k[1] = num_lit(safe);
            e->k[2] = num_lit(safe);
        }
        return e;
    }
    if (pick < 76) {
        e = xnew(P_IN);
        e->neg = coin(40);
        int str = coin(35);
        /* IN takes a column: an expression on the left is refused with a hint to compare it */
        e->k[0] = str ? col_node(coin(50) ? C_S : C_S2) : col_node(num_col());
        e->nk = 2 + (int)rnd(4);
        for (int k = 1; k < e->nk; k++)
            e->k[k] = str                          ? str_lit()
                      : num_type(e->k[0]) == T_INT ? int_lit()
                                                   : num_lit(is_bare_f32(e->k[0]));
        return e;
    }
    if (pick < 84) {
        static const char *const pats[] = {
            "a%",  "%b",  "%",  "_", "__",        "a_",  "%\xc3\xa9%", "\xe6\x97\xa5_",
            "abc", "A%",  "%%", "",  "obj-0001%", "%-%", "_b%",        "%_%",
            "x_y", "a'b", "%B"};
        e = xnew(P_LIKE);
        e->neg = coin(30);
        e->ci = coin(30);
        e->nk = 1;
        e->k[0] = col_node(coin(50) ? C_S : C_S2);
        e->s = pats[rnd(NP(pats))];
        return e;
    }
    if (pick < 88) {
        e = xnew(P_BOOL);
        e->col = C_B;
        return e;
    }
    e = xnew(P_FN);
    if (pick < 95) {
        e->sub = coin(50) ? F_ISNAN : F_ISFINITE;
        e->nk = 1;
        e->k[0] = gen_numc(depth);
        return e;
    }
    static const char *const c0[] = {"10", "180.5", "0", "359.9", "45"};
    static const char *const c1[] = {"-30", "0", "89.5", "-89.9", "45"};
    static const char *const cr[] = {"5", "0.5", "30", "180", "90", "0"};
    e->sub = F_CONE;
    e->nk = 5;
    e->k[0] = col_node(C_RA);
    e->k[1] = col_node(C_DEC);
    const char *const *lists[3] = {c0, c1, cr};
    for (int k = 0; k < 3; k++) {
        xn *l = xnew(X_FLT);
        l->text = lists[k][rnd(k == 2 ? 6 : 5)];
        l->d = strtod(l->text, NULL);
        e->k[2 + k] = l;
    }
    return e;
}

static xn *gen_pred(int depth)
{
    if (depth <= 1 || coin(40)) return gen_leafpred(depth < 1 ? 1 : depth);
    if (coin(20)) {
        xn *e = xnew(P_NOT);
        e->nk = 1;
        e->k[0] = gen_pred(depth - 1);
        return e;
    }
    xn *e = xnew(coin(50) ? P_AND : P_OR);
    e->nk = 2 + (int)coin(25);
    for (int k = 0; k < e->nk; k++)
        e->k[k] = gen_pred(depth - 1);
    return e;
}

/* ---- text ---- */

typedef struct tbuf {
    char s[4096];
    int n;
} tbuf;

static void tput(tbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->s + b->n, sizeof b->s - (size_t)b->n, fmt, ap);
    va_end(ap);
    if (w > 0) b->n += w;
    if (b->n >= (int)sizeof b->s) b->n = (int)sizeof b->s - 1;
}

/* a string literal in single quotes ('' inside) or double quotes ("" inside) */
static int str_left; /* rendering a comparison's left side */

static void put_str(tbuf *b, const char *s)
{
    /* a double-quoted string on a comparison's left is refused (reported, issue 30) */
    char q = coin(70) || str_left ? '\'' : '"';
    tput(b, "%c", q);
    for (; *s; s++)
        tput(b, *s == q ? "%c%c" : "%c", *s, *s);
    tput(b, "%c", q);
}

/* precedence: 1 or, 2 and, 3 not, 4 predicate, 5 + -, 6 * / // %, 7 unary minus, 8 atom */
static int prec_of(const xn *e)
{
    switch (e->op) {
    case P_OR:
        return 1;
    case P_AND:
        return 2;
    case P_NOT:
        return 3;
    case X_ADD:
    case X_SUB:
        return 5;
    case X_MUL:
    case X_DIV:
    case X_IDIV:
    case X_MOD:
        return 6;
    case X_NEG:
        return 7;
    default:
        return e->op >= P_CMP ? 4 : 8;
    }
}

static void render(tbuf *b, const xn *e, int need);

static void render_kid(tbuf *b, const xn *e, int need)
{
    if (prec_of(e) < need || coin(4)) {
        tput(b, "(");
        render(b, e, 0);
        tput(b, ")");
    } else {
        render(b, e, need);
    }
}

static const char *kw(const char *lower)
{ /* keywords in random case: they are case-insensitive */
    static char buf[8][16];
    static int at;
    char *o = buf[at++ & 7];
    int mode = (int)rnd(4);
    size_t i = 0;
    for (; lower[i] && i < 15; i++)
        o[i] = (char)(mode == 1 || (mode == 2 && i == 0) ? lower[i] - 32 * (lower[i] >= 'a')
                                                         : lower[i]);
    o[i] = '\0';
    return o;
}

static void render(tbuf *b, const xn *e, int need)
{
    (void)need;
    static const char *const cmps[6][3] = {{"<", "<", "<"},   {"<=", "<=", "<="},
                                           {">", ">", ">"},   {">=", ">=", ">="},
                                           {"==", "=", "=="}, {"!=", "<>", "/="}};
    static const char *const arith[] = {"+", "-", "*", "/", "//", "%"};
    switch (e->op) {
    case X_COL:
        tput(b, "%s", xname[e->col]);
        break;
    case X_INT:
    case X_FLT:
        tput(b, "%s", e->text);
        break;
    case X_STR:
        put_str(b, e->s);
        break;
    case X_BOOLLIT:
        tput(b, "%s", kw(e->i ? "true" : "false"));
        break;
    case X_TEMP:
        if (coin(25))
            put_str(b, e->text);
        else
            tput(b, "%s", e->text);
        break;
    case X_NEG:
        tput(b, "-");
        if (e->k[0]->op == X_COL || e->k[0]->op == X_INT || e->k[0]->op == X_FLT ||
            e->k[0]->op == X_FN)
            render(b, e->k[0], 8);
        else {
            tput(b, "(");
            render(b, e->k[0], 0);
            tput(b, ")");
        }
        break;
    case X_ADD:
    case X_SUB:
    case X_MUL:
    case X_DIV:
    case X_IDIV:
    case X_MOD: {
        int p = prec_of(e);
        render_kid(b, e->k[0], p);
        tput(b, " %s ", arith[e->op - X_ADD]);
        render_kid(b, e->k[1], p + 1);
        break;
    }
    case X_FN:
    case P_FN: {
        const char *nm = fn_name[e->sub];
        tput(b, "%s(", coin(15) ? kw(nm) : nm);
        for (int k = 0; k < e->nk; k++) {
            if (k) tput(b, ", ");
            render(b, e->k[k], 0);
        }
        tput(b, ")");
        break;
    }
    case P_CMP:
        str_left = 1;
        render_kid(b, e->k[0], 5);
        str_left = 0;
        tput(b, " %s ", cmps[e->sub][rnd(3)]);
        render_kid(b, e->k[1], 5);
        break;
    case P_ISNULL:
        render_kid(b, e->k[0], 5);
        tput(b, e->neg ? " %s %s %s" : " %s %s", kw("is"), e->neg ? kw("not") : kw("null"),
             kw("null"));
        break;
    case P_BETWEEN:
        render_kid(b, e->k[0], 5);
        if (e->neg) tput(b, " %s", kw("not"));
        tput(b, " %s ", kw("between"));
        render_kid(b, e->k[1], 5);
        tput(b, " %s ", kw("and"));
        render_kid(b, e->k[2], 5);
        break;
    case P_IN:
        render_kid(b, e->k[0], 5);
        tput(b, e->neg ? " %s %s (" : " %s%s (", e->neg ? kw("not") : "", kw("in"));
        for (int k = 1; k < e->nk; k++) {
            if (k > 1) tput(b, ", ");
            render(b, e->k[k], 0);
        }
        tput(b, ")");
        break;
    case P_LIKE:
        render_kid(b, e->k[0], 5);
        if (e->neg) tput(b, " %s", kw("not"));
        tput(b, " %s ", kw(e->ci ? "ilike" : "like"));
        put_str(b, e->s);
        break;
    case P_BOOL:
        tput(b, "%s", xname[e->col]);
        break;
    case P_NOT:
        tput(b, "%s ", kw("not"));
        render_kid(b, e->k[0], 3);
        break;
    default: /* P_AND, P_OR */
        for (int k = 0; k < e->nk; k++) {
            if (k) tput(b, " %s ", kw(e->op == P_AND ? "and" : "or"));
            render_kid(b, e->k[k], prec_of(e) + 1);
        }
    }
}

#endif
