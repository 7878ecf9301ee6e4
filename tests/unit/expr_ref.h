/* SPDX-License-Identifier: Apache-2.0 */
/*
 * expr_ref.h - the slow twin of the filter language's expressions (issue 30) for
 * test_filter_expr_diff.c: a row-at-a-time evaluator written from docs/filters.md's rules
 * (INT is exact int64 and overflow is an error, FLOAT is IEEE, `/` is FLOAT, `//` and `%`
 * truncate, a zero divisor gives null, null in gives null, INT against FLOAT compares
 * exactly, Kleene logic, NaN compares false except `!=`), sharing no code with src/scan.
 *
 * A predicate's result is the SET of truth values an acceptable implementation may give
 * (bits M_F, M_T, M_U), so that two honest implementations that differ only in the last
 * bits of a transcendental function (log, sind, pow, cone ...) are not called different:
 * such results are carried as an interval [lo, hi] wide enough for any libm or degree
 * reduction, and a comparison the interval cannot decide gives {F, T}. Exact operations
 * (integers, + - * / of doubles, sqrt, floor ...) on exact inputs stay exact. An overflow
 * makes the value "any" and is recorded (xr_ovf_any; xr_ovf_unc when the node is evaluated
 * on every row whatever other parts say: not below an and/or).
 */
#ifndef PQT_TEST_EXPR_REF_H
#define PQT_TEST_EXPR_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- the table: one slot per column of the generated file ---- */

enum {
    C_I32,
    C_I64,
    C_BIG,
    C_F64,
    C_F32,
    C_RA,
    C_DEC,
    C_G,
    C_R,
    C_FLUX,
    C_S,
    C_S2,
    C_B,
    C_D,
    C_TS,
    XNC
};
enum { T_INT, T_FLT, T_STR, T_BOOL, T_DATE, T_TS };
static const int xcls[XNC] = {T_INT, T_INT, T_INT, T_FLT, T_FLT,  T_FLT,  T_FLT, T_FLT,
                              T_FLT, T_FLT, T_STR, T_STR, T_BOOL, T_DATE, T_TS};
static const char *const xname[XNC] = {"i32", "i64",         "big", "f64", "f32", "ra", "dec", "g",
                                       "r",   "`flux (Jy)`", "s",   "s2",  "b",   "d",  "ts"};

#define XN_MAX 2048
#define XSB_MAX (XN_MAX * 16)
static int64_t xi[XNC][XN_MAX];      /* ints, bool, date (days), timestamp (micros) */
static double xd[XNC][XN_MAX];       /* floats (f32: its float value) */
static int64_t xsoff[2][XN_MAX + 1]; /* s, s2 */
static char xsb[2][XSB_MAX];
static uint8_t xvalid[XNC][XN_MAX / 8 + 1];
static int64_t xnrows;

static int xpresent(int c, int64_t r)
{
    return (xvalid[c][r >> 3] >> (r & 7)) & 1;
}

/* ---- the expression tree ---- */

enum {
    X_COL,
    X_INT,
    X_FLT,
    X_STR,
    X_BOOLLIT,
    X_TEMP,
    X_NEG,
    X_ADD,
    X_SUB,
    X_MUL,
    X_DIV,
    X_IDIV,
    X_MOD,
    X_FN,
    P_CMP,
    P_ISNULL,
    P_BETWEEN,
    P_IN,
    P_LIKE,
    P_AND,
    P_OR,
    P_NOT,
    P_BOOL,
    P_FN
};
enum {
    F_ABS,
    F_SQRT,
    F_LOG,
    F_LOG10,
    F_EXP,
    F_FLOOR,
    F_CEIL,
    F_ROUND,
    F_SIN,
    F_COS,
    F_TAN,
    F_ASIN,
    F_ACOS,
    F_ATAN,
    F_SIND,
    F_COSD,
    F_TAND,
    F_ASIND,
    F_ACOSD,
    F_ATAND,
    F_LENGTH,
    F_POW,
    F_ATAN2,
    F_ATAN2D,
    F_ISNAN,
    F_ISFINITE,
    F_CONE,
    NFN
};
static const char *const fn_name[NFN] = {
    "abs",   "sqrt",  "log",    "log10", "exp",   "floor",  "ceil",  "round",    "sin",
    "cos",   "tan",   "asin",   "acos",  "atan",  "sind",   "cosd",  "tand",     "asind",
    "acosd", "atand", "length", "pow",   "atan2", "atan2d", "isnan", "isfinite", "cone"};
enum { Q_LT, Q_LE, Q_GT, Q_GE, Q_EQ, Q_NE };

typedef struct xn {
    int op;
    int sub;              /* P_CMP: Q_*; X_FN/P_FN: F_*; X_TEMP: T_DATE/T_TS */
    int neg;              /* IS NOT NULL, NOT BETWEEN/IN/LIKE */
    int ci;               /* ILIKE */
    int col;              /* X_COL, P_BOOL */
    int64_t i;            /* X_INT, X_BOOLLIT, X_TEMP (days or micros) */
    double d;             /* X_FLT */
    const char *s, *text; /* X_STR, LIKE pattern; the literal as written */
    int nk;
    struct xn *k[6];
} xn;

/* ---- values ---- */

enum { V_OK, V_NULL, V_ANY };
typedef struct rv {
    int st, t, fz; /* fz: [lo, hi] holds what any implementation gives; d is ours */
    int64_t i;
    double d, lo, hi;
    const char *s;
    int64_t sl;
} rv;

enum { M_F = 1, M_T = 2, M_U = 4, M_ALL = 7 };

static int xr_ovf_any, xr_ovf_unc; /* set by an overflowing row; the caller resets them */

static rv rv_null(void)
{
    return (rv){.st = V_NULL};
}
static rv rv_any(void)
{
    return (rv){.st = V_ANY};
}
static rv rv_int(int64_t i)
{
    return (rv){.st = V_OK, .t = T_INT, .i = i};
}
static rv rv_flt(double d)
{
    return (rv){.st = V_OK, .t = T_FLT, .d = d, .lo = d, .hi = d};
}
static double rv_dbl(const rv *v)
{
    return v->t == T_INT ? (double)v->i : v->d;
}
static double rv_lo(const rv *v)
{
    return v->t == T_INT ? (double)v->i : v->lo;
}
static double rv_hi(const rv *v)
{
    return v->t == T_INT ? (double)v->i : v->hi;
}

/* A fuzzy FLOAT from our value d and candidate bounds c[0..n): "any" when NaN-ness is not
 * certain, exact NaN or inf when every candidate agrees. */
static rv rv_fuzz(double d, const double *c, int n, double widen)
{
    int nan = isnan(d), allnan = nan;
    double lo = d, hi = d;
    for (int k = 0; k < n; k++) {
        nan |= isnan(c[k]);
        allnan &= isnan(c[k]);
        if (c[k] < lo) lo = c[k];
        if (c[k] > hi) hi = c[k];
    }
    if (allnan) return rv_flt(NAN);
    if (nan) return rv_any();
    if (isfinite(lo)) lo -= widen;
    if (isfinite(hi)) hi += widen;
    rv v = rv_flt(d);
    v.fz = 1, v.lo = lo, v.hi = hi;
    return v;
}

static double tol(double y)
{
    return 1e-12 * (1 + fabs(y));
}

/* the value of column c at row r */
static rv col_val(int c, int64_t r)
{
    if (!xpresent(c, r)) return rv_null();
    rv v = {.st = V_OK, .t = xcls[c]};
    if (v.t == T_FLT) return rv_flt(xd[c][r]);
    if (v.t == T_STR) {
        int k = c == C_S2;
        v.s = xsb[k] + xsoff[k][r];
        v.sl = xsoff[k][r + 1] - xsoff[k][r];
        return v;
    }
    v.i = xi[c][r];
    return v;
}

static rv ovf(int unc)
{
    xr_ovf_any = 1;
    if (unc) xr_ovf_unc = 1;
    return rv_any();
}

static double fop(int op, double x, double y)
{
    switch (op) {
    case X_ADD:
        return x + y;
    case X_SUB:
        return x - y;
    case X_MUL:
        return x * y;
    case X_DIV:
        return x / y;
    case X_IDIV:
        return trunc(x / y);
    default:
        return fmod(x, y);
    }
}

static rv arith(int op, rv a, rv b, int unc)
{
    if (a.st == V_NULL || b.st == V_NULL) return rv_null();
    if (a.st == V_ANY || b.st == V_ANY) return rv_any();
    if (a.t == T_INT && b.t == T_INT && op != X_DIV) {
        int64_t x = a.i, y = b.i, z = 0;
        switch (op) {
        case X_ADD:
            return __builtin_add_overflow(x, y, &z) ? ovf(unc) : rv_int(z);
        case X_SUB:
            return __builtin_sub_overflow(x, y, &z) ? ovf(unc) : rv_int(z);
        case X_MUL:
            return __builtin_mul_overflow(x, y, &z) ? ovf(unc) : rv_int(z);
        case X_IDIV:
            if (y == 0) return rv_null();
            return x == INT64_MIN && y == -1 ? ovf(unc) : rv_int(x / y);
        default:
            if (y == 0) return rv_null();
            return rv_int(y == -1 ? 0 : x % y);
        }
    }
    double x = rv_dbl(&a), y = rv_dbl(&b);
    int divides = op == X_DIV || op == X_IDIV || op == X_MOD;
    if (divides && !b.fz && y == 0) return rv_null();
    if (!a.fz && !b.fz) return rv_flt(fop(op, x, y));
    double al = rv_lo(&a), ah = rv_hi(&a), bl = rv_lo(&b), bh = rv_hi(&b);
    if (divides && bl <= 0 && bh >= 0) return rv_any(); /* the divisor may be zero */
    double c[4] = {fop(op, al, bl), fop(op, al, bh), fop(op, ah, bl), fop(op, ah, bh)};
    if (op == X_MOD) { /* fmod is continuous only while the quotient's integer part stays */
        double q[4] = {trunc(al / bl), trunc(al / bh), trunc(ah / bl), trunc(ah / bh)};
        if (q[0] != q[1] || q[0] != q[2] || q[0] != q[3]) return rv_any();
    }
    return rv_fuzz(fop(op, x, y), c, 4, 0);
}

/* degrees reduced exactly first: the best any implementation can do, others within tol */
static double dsin(double x)
{
    return sin(fmod(x, 360.0) * (M_PI / 180));
}
static double dcos(double x)
{
    return cos(fmod(x, 360.0) * (M_PI / 180));
}
static double dtan(double x)
{
    return tan(fmod(x, 360.0) * (M_PI / 180));
}

static double fn1(int f, double x)
{
    switch (f) {
    case F_ABS:
        return fabs(x);
    case F_SQRT:
        return sqrt(x);
    case F_LOG:
        return log(x);
    case F_LOG10:
        return log10(x);
    case F_EXP:
        return exp(x);
    case F_FLOOR:
        return floor(x);
    case F_CEIL:
        return ceil(x);
    case F_ROUND:
        return round(x);
    case F_SIN:
        return sin(x);
    case F_COS:
        return cos(x);
    case F_TAN:
        return tan(x);
    case F_ASIN:
        return asin(x);
    case F_ACOS:
        return acos(x);
    case F_ATAN:
        return atan(x);
    case F_SIND:
        return dsin(x);
    case F_COSD:
        return dcos(x);
    case F_TAND:
        return dtan(x);
    case F_ASIND:
        return asin(x) * (180 / M_PI);
    case F_ACOSD:
        return acos(x) * (180 / M_PI);
    default:
        return atan(x) * (180 / M_PI);
    }
}

static int exact_fn(int f)
{
    return f <= F_SQRT || (f >= F_FLOOR && f <= F_ROUND);
}
static int periodic_fn(int f)
{
    return (f >= F_SIN && f <= F_TAN) || (f >= F_SIND && f <= F_TAND);
}

static rv func1(int f, rv a, int unc)
{
    if (a.st != V_OK) return a;
    if (f == F_LENGTH) { /* UTF-8 characters: bytes that do not continue one */
        int64_t n = 0;
        for (int64_t k = 0; k < a.sl; k++)
            n += ((unsigned char)a.s[k] & 0xC0) != 0x80;
        return rv_int(n);
    }
    if (a.t == T_INT && f == F_ABS)
        return a.i == INT64_MIN ? ovf(unc) : rv_int(a.i < 0 ? -a.i : a.i);
    if (a.t == T_INT && (f == F_FLOOR || f == F_CEIL || f == F_ROUND)) return a;
    double x = rv_dbl(&a), y = fn1(f, x);
    if (exact_fn(f) && !a.fz) return rv_flt(y);
    if ((f == F_TAND && fmod(x, 90.0) == 0 && fmod(x, 180.0) != 0) ||
        (periodic_fn(f) && a.fz && f == F_TAND))
        return rv_any(); /* a pole: inf, a huge number or NaN are all fair */
    double lo = rv_lo(&a), hi = rv_hi(&a), w = exact_fn(f) ? 0 : tol(y);
    double c[2] = {fn1(f, lo), fn1(f, hi)};
    if (f == F_ABS && lo < 0 && hi > 0) c[0] = 0;
    if (periodic_fn(f)) { /* not monotone: the interval's width bounds what it misses */
        double slope = f == F_TAN ? 2 * (1 + y * y) : 1;
        w += (hi - lo) * slope + (f >= F_SIND ? 1e-17 * fabs(x) : 0);
    }
    return rv_fuzz(y, c, 2, w);
}

static double fn2(int f, double x, double y)
{
    if (f == F_POW) return pow(x, y);
    if (f == F_ATAN2) return atan2(x, y);
    return atan2(x, y) * (180 / M_PI);
}

static rv func2(int f, rv a, rv b)
{
    if (a.st == V_NULL || b.st == V_NULL) return rv_null();
    if (a.st == V_ANY || b.st == V_ANY) return rv_any();
    double x = rv_dbl(&a), y = rv_dbl(&b), z = fn2(f, x, y);
    if (!isfinite(z) && !a.fz && !b.fz) return rv_flt(z);
    double c[4] = {fn2(f, rv_lo(&a), rv_lo(&b)), fn2(f, rv_lo(&a), rv_hi(&b)),
                   fn2(f, rv_hi(&a), rv_lo(&b)), fn2(f, rv_hi(&a), rv_hi(&b))};
    if ((a.fz || b.fz) && f != F_POW) { /* atan2 jumps across the negative x axis */
        if (c[0] != c[3] && fabs(c[0] - c[3]) > 1) return rv_any();
    }
    return rv_fuzz(z, c, 4, tol(z) + 1e-9 * fabs(z) * (a.fz || b.fz));
}

static rv eval_x(const xn *e, int64_t r, int unc)
{
    switch (e->op) {
    case X_COL:
        return col_val(e->col, r);
    case X_INT:
        return rv_int(e->i);
    case X_FLT:
        return rv_flt(e->d);
    case X_STR:
        return (rv){.st = V_OK, .t = T_STR, .s = e->s, .sl = (int64_t)strlen(e->s)};
    case X_BOOLLIT:
        return (rv){.st = V_OK, .t = T_BOOL, .i = e->i};
    case X_TEMP:
        return (rv){.st = V_OK, .t = e->sub, .i = e->i};
    case X_NEG: {
        rv a = eval_x(e->k[0], r, unc);
        if (a.st != V_OK) return a;
        if (a.t == T_INT) return a.i == INT64_MIN ? ovf(unc) : rv_int(-a.i);
        rv v = rv_flt(-a.d);
        v.fz = a.fz, v.lo = -a.hi, v.hi = -a.lo;
        return v;
    }
    case X_FN:
        if (e->nk == 2) return func2(e->sub, eval_x(e->k[0], r, unc), eval_x(e->k[1], r, unc));
        return func1(e->sub, eval_x(e->k[0], r, unc), unc);
    default:
        return arith(e->op, eval_x(e->k[0], r, unc), eval_x(e->k[1], r, unc), unc);
    }
}

/* ---- predicates ---- */

/* the set of orders a against b may have: bits 1 less, 2 equal, 4 greater, 8 unordered */
static int orders(const rv *a, const rv *b)
{
    if (a->t == T_STR) {
        int64_t n = a->sl < b->sl ? a->sl : b->sl;
        int m = memcmp(a->s, b->s, (size_t)n);
        if (!m) m = (a->sl > b->sl) - (a->sl < b->sl);
        return m < 0 ? 1 : m > 0 ? 4 : 2;
    }
    if (a->t != T_INT && a->t != T_FLT) return a->i < b->i ? 1 : a->i > b->i ? 4 : 2;
    if (a->t == T_INT && b->t == T_INT) return a->i < b->i ? 1 : a->i > b->i ? 4 : 2;
    if (a->fz || b->fz) {
        double al = rv_lo(a), ah = rv_hi(a), bl = rv_lo(b), bh = rv_hi(b);
        if (isnan(al) || isnan(bl)) return 8;
        return ah < bl ? 1 : al > bh ? 4 : 7;
    }
    if (a->t == T_FLT && b->t == T_FLT) {
        double x = a->d, y = b->d;
        return x < y ? 1 : x > y ? 4 : x == y ? 2 : 8;
    }
    /* INT against FLOAT, exactly (no rounding of the int through a double) */
    int flip = a->t == T_FLT;
    int64_t v = flip ? b->i : a->i;
    double d = flip ? a->d : b->d;
    int o;
    if (isnan(d)) return 8;
    if (d >= 9223372036854775808.0)
        o = 1;
    else if (d < -9223372036854775808.0)
        o = 4;
    else {
        double fl = floor(d);
        int64_t fi = (int64_t)fl;
        o = v != fi ? (v < fi ? 1 : 4) : d == fl ? 2 : 1;
    }
    return flip && o != 2 ? 5 - o : o;
}

static int cmp_mask(int q, rv a, rv b)
{
    if (a.st == V_NULL || b.st == V_NULL) return M_U;
    if (a.st == V_ANY || b.st == V_ANY) return M_ALL;
    static const int yes[6] = {1, 3, 4, 6, 2, 13};
    int o = orders(&a, &b), m = 0;
    for (int bit = 1; bit <= 8; bit <<= 1)
        if (o & bit) m |= yes[q] & bit ? M_T : M_F;
    return m;
}

static int m_not(int m)
{
    return (m & M_U) | (m & M_T ? M_F : 0) | (m & M_F ? M_T : 0);
}

static int m_and(int a, int b)
{
    int m = 0;
    for (int x = 1; x <= 4; x <<= 1)
        for (int y = 1; y <= 4; y <<= 1)
            if ((a & x) && (b & y))
                m |= x == M_F || y == M_F ? M_F : x == M_U || y == M_U ? M_U : M_T;
    return m;
}

static int m_or(int a, int b)
{
    return m_not(m_and(m_not(a), m_not(b)));
}

/* LIKE: % any run, _ one UTF-8 character; ci folds ASCII letters only */
static int u8len(unsigned char c)
{
    return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

static int like_at(const char *s, int64_t n, const char *p, int ci)
{
    if (!*p) return n == 0;
    if (*p == '%') {
        for (int64_t k = 0; k <= n; k += k < n ? u8len((unsigned char)s[k]) : 1)
            if (like_at(s + k, n - k, p + 1, ci)) return 1;
        return 0;
    }
    if (n == 0) return 0;
    if (*p == '_') {
        int l = u8len((unsigned char)*s);
        return l <= n && like_at(s + l, n - l, p + 1, ci);
    }
    char a = *s, b = *p;
    if (ci && a >= 'A' && a <= 'Z') a = (char)(a + 32);
    if (ci && b >= 'A' && b <= 'Z') b = (char)(b + 32);
    return a == b && like_at(s + 1, n - 1, p + 1, ci);
}

static int tf(int b)
{
    return b ? M_T : M_F;
}

/* cone(ra, dec, ra0, dec0, radius), all in degrees, by the haversine in long double */
static int cone_mask(rv *a)
{
    for (int k = 0; k < 5; k++)
        if (a[k].st == V_NULL) return M_U;
    for (int k = 0; k < 5; k++)
        if (a[k].st == V_ANY) return M_ALL;
    for (int k = 0; k < 5; k++)
        if (a[k].fz) return M_T | M_F;
    long double rd = 3.14159265358979323846264338327950288L / 180;
    long double ra = rv_dbl(&a[0]), de = rv_dbl(&a[1]), ra0 = rv_dbl(&a[2]), de0 = rv_dbl(&a[3]);
    long double rad = rv_dbl(&a[4]);
    long double sd = sinl((de - de0) * rd / 2), sr = sinl((ra - ra0) * rd / 2);
    long double h = sd * sd + cosl(de * rd) * cosl(de0 * rd) * sr * sr;
    if (h > 1) h = 1;
    long double dist = 2 * asinl(sqrtl(h)) / rd;
    if (isnan((double)dist) || isnan((double)rad)) return M_F;
    if (fabsl(dist - rad) <= 1e-9L * (1 + fabsl(rad))) return M_T | M_F;
    return tf(dist <= rad);
}

static int eval_p(const xn *e, int64_t r, int unc)
{
    switch (e->op) {
    case P_AND:
    case P_OR: {
        int m = eval_p(e->k[0], r, 0);
        for (int k = 1; k < e->nk; k++)
            m = e->op == P_AND ? m_and(m, eval_p(e->k[k], r, 0)) : m_or(m, eval_p(e->k[k], r, 0));
        return m;
    }
    case P_NOT:
        return m_not(eval_p(e->k[0], r, unc));
    case P_BOOL:
        return xpresent(e->col, r) ? tf(xi[e->col][r] != 0) : M_U;
    case P_CMP:
        return cmp_mask(e->sub, eval_x(e->k[0], r, unc), eval_x(e->k[1], r, unc));
    case P_ISNULL: {
        rv a = eval_x(e->k[0], r, unc);
        int m = a.st == V_NULL ? M_T : a.st == V_OK ? M_F : M_T | M_F;
        return e->neg ? m_not(m) : m;
    }
    case P_BETWEEN: {
        rv a = eval_x(e->k[0], r, unc);
        int m = m_and(cmp_mask(Q_GE, a, eval_x(e->k[1], r, unc)),
                      cmp_mask(Q_LE, a, eval_x(e->k[2], r, unc)));
        return e->neg ? m_not(m) : m;
    }
    case P_IN: {
        rv a = eval_x(e->k[0], r, unc);
        int m = M_F;
        for (int k = 1; k < e->nk; k++)
            m = m_or(m, cmp_mask(Q_EQ, a, eval_x(e->k[k], r, unc)));
        return e->neg ? m_not(m) : m;
    }
    case P_LIKE: {
        rv a = eval_x(e->k[0], r, unc);
        if (a.st != V_OK) return a.st == V_NULL ? M_U : M_ALL;
        int m = tf(like_at(a.s, a.sl, e->s, e->ci));
        return e->neg ? m_not(m) : m;
    }
    default: { /* P_FN: isnan, isfinite, cone */
        rv a[5];
        for (int k = 0; k < e->nk; k++)
            a[k] = eval_x(e->k[k], r, unc);
        if (e->sub == F_CONE) return cone_mask(a);
        if (a[0].st != V_OK) return a[0].st == V_NULL ? M_U : M_ALL;
        if (a[0].t == T_INT) return tf(e->sub == F_ISFINITE);
        double lo = rv_lo(&a[0]), hi = rv_hi(&a[0]);
        if (e->sub == F_ISNAN) return tf(isnan(a[0].d));
        int f1 = isfinite(lo), f2 = isfinite(hi);
        return f1 == f2 ? tf(f1) : M_T | M_F;
    }
    }
}

#endif
