/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_expr_stats.c - what statistics prove about computed predicates
 * (pqt_scan_cmp_prove, src/scan/filter_expr_prove.c) is sound and useful.
 *
 * Property: random rows of 1-3 columns (ranges near zero, near the int64 limits, with inf,
 * nulls, NaN, -0), their honest statistics, sometimes weakened (no counts, no bounds, loose
 * bounds, no order); a random expression tree over them (+ - * / // %, unary minus, every
 * numeric function, literals including 0); a random comparison. The truth is a plain row by
 * row reference evaluator written here from docs/filters.md (int64 with overflow as an
 * error, double, null for a zero divisor, NaN compares false): NONE must mean no row is TRUE
 * and none fails; ALL must mean every row is TRUE. The prover must also say NONE or ALL
 * often enough to be worth having. Cone boxes get a property run of their own, and hand
 * cases pin the colour cut, the magnitude from a flux, cone near ra 0/360 and the poles,
 * overflow, nulls, NaN and time units.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "testutil.h"

#define NR 48
#define PI 3.14159265358979323846
#define DEG (PI / 180.0)
#define RAD (180.0 / PI)

typedef struct tcol {
    int kind; /* PQT_INT64 or PQT_FLOAT64 */
    int64_t iv[NR];
    double dv[NR];
    uint8_t null[NR];
} tcol;

static uint64_t seed = 0x5eed30;
static uint64_t rnd(void)
{
    return pqt_test_rand(&seed);
}
static int pick(int n)
{
    return (int)(rnd() % (uint64_t)n);
}
static double unit(void)
{
    return (double)(rnd() >> 11) / 9007199254740992.0;
}

/* ---- expression trees ---- */

static xnode *node(int op, int type)
{
    xnode *x = calloc(1, sizeof *x);
    x->op = (uint8_t)op;
    x->type = (uint8_t)type;
    x->unit = -1;
    x->res = -1;
    return x;
}

static xnode *col(int slot, int kind)
{
    xnode *x = node(XO_COL, kind == PQT_FLOAT64 || kind == PQT_FLOAT32 ? XT_FLOAT : XT_INT);
    x->slot = slot;
    x->kind = kind;
    return x;
}

static xnode *lit_i(int64_t v)
{
    xnode *x = node(XO_LIT, XT_INT);
    x->i = v;
    return x;
}

static xnode *lit_d(double v)
{
    xnode *x = node(XO_LIT, XT_FLOAT);
    x->d = v;
    return x;
}

static xnode *op2(int op, xnode *a, xnode *b)
{
    int ints = a->type == XT_INT && (!b || b->type == XT_INT);
    xnode *x = node(op, op == XO_DIV || !ints ? XT_FLOAT : XT_INT);
    x->nargs = b ? 2 : 1;
    x->args = calloc(2, sizeof *x->args);
    x->args[0] = a;
    x->args[1] = b;
    return x;
}

static xnode *fn(int f, int n, xnode *a, xnode *b, xnode *c, xnode *d, xnode *e)
{
    int t = XT_FLOAT;
    if (f == FF_ISNAN || f == FF_ISFINITE || f == FF_CONE) t = XT_BOOL;
    if ((f == FF_ABS || f == FF_FLOOR || f == FF_CEIL || f == FF_ROUND) && a->type == XT_INT)
        t = XT_INT;
    xnode *x = node(XO_CALL, t);
    x->fn = (uint8_t)f;
    x->nargs = n;
    x->args = calloc(5, sizeof *x->args);
    xnode *v[5] = {a, b, c, d, e};
    for (int k = 0; k < n; k++)
        x->args[k] = v[k];
    return x;
}

static void xfree(xnode *x)
{
    if (!x) return;
    for (int k = 0; k < x->nargs; k++)
        xfree(x->args[k]);
    free(x->args);
    free(x);
}

/* ---- the reference evaluator ---- */

enum { V_VAL = 0, V_NULL, V_ERR };
typedef struct rv {
    int st, isf;
    int64_t i;
    double d;
} rv;

static double fd(rv v)
{
    return v.isf ? v.d : (double)v.i;
}

static rv ev(const xnode *x, const tcol *cols, int row);

/* degrees as docs/filters.md defines them: exact at multiples of 90 (reduced to [-45, 45]) */
static double sind(double x)
{
    if (!isfinite(x)) return NAN;
    double r = fmod(x, 360.0), q = round(r / 90.0), y = (r - 90.0 * q) * DEG;
    int k = (int)fmod(q, 4.0);
    if (k < 0) k += 4;
    double v = k == 0 ? sin(y) : k == 1 ? cos(y) : k == 2 ? -sin(y) : -cos(y);
    return v == 0 ? 0.0 * x : v;
}

static double cosd(double x)
{
    if (!isfinite(x)) return NAN;
    double r = fmod(fabs(x), 360.0), q = round(r / 90.0), y = (r - 90.0 * q) * DEG;
    int k = (int)q % 4;
    double v = k == 0 ? cos(y) : k == 1 ? -sin(y) : k == 2 ? -cos(y) : sin(y);
    return v == 0 ? 0.0 : v;
}

static rv ev_call(const xnode *x, const rv *a)
{
    rv o = {V_VAL, 1, 0, 0};
    int f = x->fn;
    if (x->type == XT_INT) { /* abs, floor, ceil, round of an integer */
        o.isf = 0;
        int64_t v = a[0].i;
        if (f == FF_ABS) {
            if (v == INT64_MIN) o.st = V_ERR;
            o.i = v < 0 ? -v : v;
            return o;
        }
        int64_t dg = f == FF_ROUND && x->nargs == 2 ? a[1].i : 0;
        o.i = v;
        if (dg >= 0) return o;
        unsigned __int128 p = 1;
        for (int64_t k = 0; k < -dg && p <= (unsigned __int128)UINT64_MAX; k++)
            p *= 10;
        unsigned __int128 mag = v < 0 ? (unsigned __int128)(0 - (uint64_t)v) : (uint64_t)v;
        unsigned __int128 q = mag / p, rem = mag % p;
        if (rem >= p - rem) q++;
        unsigned __int128 r = q * p;
        if (r > (unsigned __int128)INT64_MAX + (v < 0))
            o.st = V_ERR;
        else
            o.i = v < 0 ? (int64_t)(0 - (uint64_t)r) : (int64_t)r;
        return o;
    }
    double p = fd(a[0]), q = x->nargs > 1 ? fd(a[1]) : 0;
    if (f == FF_ISNAN || f == FF_ISFINITE || f == FF_CONE) {
        o.isf = 0;
        if (f == FF_ISNAN)
            o.i = isnan(p) != 0;
        else if (f == FF_ISFINITE)
            o.i = isfinite(p) != 0;
        else {
            double ra0 = fd(a[2]), dec0 = fd(a[3]), r = fd(a[4]);
            double sd = sin((q - dec0) * (DEG / 2)), sa = sin((p - ra0) * (DEG / 2));
            double h = sd * sd + cos(q * DEG) * cos(dec0 * DEG) * sa * sa;
            double sr = sin((r < 180 ? r : 180) * (DEG / 2));
            o.i = r >= 0 && (h <= sr * sr || (r >= 180 && h == h));
        }
        return o;
    }
    switch (f) {
    case FF_ABS:
        o.d = fabs(p);
        break;
    case FF_SQRT:
        o.d = sqrt(p);
        break;
    case FF_LOG:
        o.d = log(p);
        break;
    case FF_LOG10:
        o.d = log10(p);
        break;
    case FF_EXP:
        o.d = exp(p);
        break;
    case FF_POW:
        o.d = pow(p, q);
        break;
    case FF_FLOOR:
        o.d = floor(p);
        break;
    case FF_CEIL:
        o.d = ceil(p);
        break;
    case FF_ROUND:
        if (x->nargs == 1) {
            o.d = round(p);
        } else if (!isfinite(p) || !(fabs(q) <= 308)) {
            o.d = isnan(q) ? NAN : p;
        } else {
            double m = pow(10.0, fabs(trunc(q)));
            double r = q >= 0 ? round(p * m) / m : round(p / m) * m;
            o.d = isfinite(r) ? r : p;
        }
        break;
    case FF_SIN:
        o.d = sin(p);
        break;
    case FF_COS:
        o.d = cos(p);
        break;
    case FF_TAN:
        o.d = tan(p);
        break;
    case FF_ASIN:
        o.d = asin(p);
        break;
    case FF_ACOS:
        o.d = acos(p);
        break;
    case FF_ATAN:
        o.d = atan(p);
        break;
    case FF_ATAN2:
        o.d = atan2(p, q);
        break;
    case FF_SIND:
        o.d = sind(p);
        break;
    case FF_COSD:
        o.d = cosd(p);
        break;
    case FF_TAND:
        o.d = sind(p) / cosd(p);
        break;
    case FF_ASIND:
        o.d = asin(p) * RAD;
        break;
    case FF_ACOSD:
        o.d = acos(p) * RAD;
        break;
    case FF_ATAND:
        o.d = atan(p) * RAD;
        break;
    default:
        o.d = atan2(p, q) * RAD;
        break;
    }
    return o;
}

static rv ev(const xnode *x, const tcol *cols, int row)
{
    rv o = {V_VAL, x->type == XT_FLOAT, 0, 0};
    if (x->op == XO_COL) {
        const tcol *c = &cols[x->slot];
        if (c->null[row]) o.st = V_NULL;
        o.i = c->iv[row];
        o.d = c->dv[row];
        return o;
    }
    if (x->op == XO_LIT) {
        o.i = x->i;
        o.d = x->d;
        return o;
    }
    rv a[5];
    memset(a, 0, sizeof a);
    int null = 0;
    for (int k = 0; k < x->nargs; k++) {
        a[k] = ev(x->args[k], cols, row);
        if (a[k].st == V_ERR) return a[k];
        null |= a[k].st == V_NULL;
    }
    if (null) {
        o.st = V_NULL;
        return o;
    }
    if (x->op == XO_CALL) return ev_call(x, a);
    if (x->type == XT_INT) {
        int64_t p = a[0].i, q = x->nargs > 1 ? a[1].i : 0;
        int bad = 0;
        switch (x->op) {
        case XO_NEG:
            bad = __builtin_sub_overflow((int64_t)0, p, &o.i);
            break;
        case XO_ADD:
            bad = __builtin_add_overflow(p, q, &o.i);
            break;
        case XO_SUB:
            bad = __builtin_sub_overflow(p, q, &o.i);
            break;
        case XO_MUL:
            bad = __builtin_mul_overflow(p, q, &o.i);
            break;
        case XO_IDIV:
            if (q == 0)
                o.st = V_NULL;
            else if (p == INT64_MIN && q == -1)
                bad = 1;
            else
                o.i = p / q;
            break;
        default:
            if (q == 0)
                o.st = V_NULL;
            else
                o.i = q == -1 ? 0 : p % q;
            break;
        }
        if (bad) o.st = V_ERR;
        return o;
    }
    double p = fd(a[0]), q = x->nargs > 1 ? fd(a[1]) : 0;
    switch (x->op) {
    case XO_NEG:
        o.d = -p;
        break;
    case XO_ADD:
        o.d = p + q;
        break;
    case XO_SUB:
        o.d = p - q;
        break;
    case XO_MUL:
        o.d = p * q;
        break;
    default:
        if (q == 0)
            o.st = V_NULL;
        else if (x->op == XO_DIV)
            o.d = p / q;
        else if (x->op == XO_IDIV)
            o.d = trunc(p / q);
        else
            o.d = fmod(p, q);
        break;
    }
    return o;
}

/* sign(i - d) exactly, 2 for NaN */
static int cmp_id(int64_t i, double d)
{
    if (isnan(d)) return 2;
    long double li = (long double)i, ld = (long double)d; /* 64-bit mantissa: exact */
    return (li > ld) - (li < ld);
}

enum { T = 1, F = 2, U = 4, E = 8 };

static int truth(const fcmp *c, const tcol *cols, int row)
{
    rv a = ev(c->lhs, cols, row), b = {V_VAL, 0, 0, 0};
    if (c->rhs) b = ev(c->rhs, cols, row);
    if (a.st == V_ERR || b.st == V_ERR) return E;
    int r;
    if (c->op == FOP_IS_NULL) {
        r = a.st == V_NULL ? T : F;
    } else if (a.st == V_NULL || b.st == V_NULL) {
        return U;
    } else if (c->op == FOP_IS_NAN) {
        r = a.isf && isnan(a.d) ? T : F;
    } else if (c->op == FOP_IS_FINITE) {
        r = !a.isf || isfinite(a.d) ? T : F;
    } else if (c->op == FOP_TRUE) {
        r = a.i != 0 ? T : F;
    } else {
        int s;
        if (a.isf && b.isf)
            s = isnan(a.d) || isnan(b.d) ? 2 : (a.d > b.d) - (a.d < b.d);
        else if (!a.isf && b.isf)
            s = cmp_id(a.i, b.d);
        else if (a.isf)
            s = cmp_id(b.i, a.d), s = s == 2 ? 2 : -s;
        else
            s = (a.i > b.i) - (a.i < b.i);
        int v = s == 2            ? 0
                : c->op == FOP_LT ? s < 0
                : c->op == FOP_LE ? s <= 0
                : c->op == FOP_GT ? s > 0
                : c->op == FOP_GE ? s >= 0
                                  : s == 0;
        r = v ? T : F;
    }
    if (c->negate) r = r == T ? F : T;
    return r;
}

/* ---- random columns and their statistics ---- */

static int64_t ri(int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    return span == UINT64_MAX ? (int64_t)rnd() : (int64_t)((uint64_t)lo + rnd() % (span + 1));
}

static void gen_col(tcol *c, pqt_scan_stats *st)
{
    memset(c, 0, sizeof *c);
    c->kind = pick(2) ? PQT_INT64 : PQT_FLOAT64;
    int64_t ilo = 0, ihi = 0;
    double dlo = 0, dhi = 0;
    if (c->kind == PQT_INT64) {
        switch (pick(6)) {
        case 0:
            ilo = ri(-10, 10), ihi = ri(ilo, 12);
            break;
        case 1:
            ilo = ri(0, 100), ihi = ri(ilo, 200);
            break;
        case 2:
            ilo = ri(-1000000, 0), ihi = ri(0, 1000000);
            break;
        case 3:
            ilo = ri(INT64_C(1) << 31, INT64_C(1) << 32), ihi = ilo + ri(0, INT64_C(1) << 33);
            break;
        case 4:
            ihi = INT64_MAX - ri(0, 3), ilo = ihi - ri(0, 100);
            break;
        default:
            ilo = INT64_MIN + ri(0, 3), ihi = ilo + ri(0, 100);
            break;
        }
    } else {
        switch (pick(7)) {
        case 0:
            dlo = unit() * 20 - 10, dhi = dlo + unit() * 5;
            break;
        case 1:
            dlo = unit() * 3, dhi = dlo + unit() * 3;
            break;
        case 2:
            dlo = 0, dhi = pick(2) ? 0 : 1;
            break;
        case 3:
            dlo = -INFINITY, dhi = unit() * 10;
            break;
        case 4:
            dlo = unit(), dhi = INFINITY;
            break;
        case 5:
            dlo = -1e300, dhi = 1e300;
            break;
        default:
            dlo = unit() * 2 - 1, dhi = dlo + unit();
            break;
        }
    }
    int npol = pick(10), nanpol = pick(10);
    for (int r = 0; r < NR; r++) {
        int how = r < 2 ? r : pick(8);
        if (c->kind == PQT_INT64) {
            int64_t v = how == 0 ? ilo : how == 1 ? ihi : ri(ilo, ihi);
            if (how == 2 && ilo <= 0 && ihi >= 0) v = 0;
            if (how == 3 && ilo <= -1 && ihi >= -1) v = -1;
            c->iv[r] = v;
        } else {
            double v = how == 0 ? dlo : how == 1 ? dhi : 0;
            if (how >= 2) {
                double a = isinf(dlo) ? -1e6 : dlo, b = isinf(dhi) ? 1e6 : dhi;
                v = a + (b - a) * unit();
                if (v < dlo) v = dlo;
                if (v > dhi) v = dhi;
            }
            if (how == 2 && dlo <= 0 && dhi >= 0) v = -0.0;
            c->dv[r] = v;
        }
        c->null[r] = npol == 0 || (npol < 4 && r >= 2 && pick(4) == 0);
        if (c->kind == PQT_FLOAT64 && !c->null[r] &&
            (nanpol == 0 || (nanpol < 4 && r >= 2 && pick(4) == 0)))
            c->dv[r] = NAN;
    }
    /* honest statistics of what was drawn */
    memset(st, 0, sizeof *st);
    int64_t nulls = 0, nans = 0, nv = 0;
    for (int r = 0; r < NR; r++) {
        if (c->null[r]) {
            nulls++;
            continue;
        }
        if (c->kind == PQT_FLOAT64 && isnan(c->dv[r])) {
            nans++;
            continue;
        }
        if (c->kind == PQT_INT64) {
            if (!nv || c->iv[r] < st->min.i) st->min.i = c->iv[r];
            if (!nv || c->iv[r] > st->max.i) st->max.i = c->iv[r];
        } else {
            if (!nv || c->dv[r] < st->min.d) st->min.d = c->dv[r];
            if (!nv || c->dv[r] > st->max.d) st->max.d = c->dv[r];
        }
        nv++;
    }
    st->null_count = pick(4) ? nulls : -1;
    st->nan_count = c->kind == PQT_FLOAT64 && pick(4) ? nans : -1;
    if (nv) st->flags = PQT_SST_MIN | PQT_SST_MAX | PQT_SST_MIN_EXACT | PQT_SST_MAX_EXACT;
    /* weakened, as real writers leave them */
    int w = pick(16);
    if (w == 0) st->flags &= ~(unsigned)PQT_SST_MIN;
    if (w == 1) st->flags &= ~(unsigned)PQT_SST_MAX;
    if (w == 2) st->flags |= PQT_SST_NO_ORDER;
    if (w == 3 && c->kind == PQT_FLOAT64) st->min.d -= 1, st->max.d += 0.5;
    if (w == 4 && c->kind == PQT_INT64 && st->min.i > INT64_MIN + 5) st->min.i -= 5;
}

/* ---- random expressions and predicates ---- */

static int g_ncols;
static const tcol *g_cols;

static xnode *gen_lit(void)
{
    static const double ds[] = {0, 0.5, -0.5, 1, 2.5, -2.5, 22.5, 1e300, INFINITY, -0.0};
    switch (pick(4)) {
    case 0:
        return lit_i(ri(-3, 3));
    case 1:
        return lit_d(ds[pick(10)]);
    case 2:
        return lit_d(unit() * 20 - 10);
    default:
        return lit_i(ri(-1000, 1000));
    }
}

static xnode *gen(int depth)
{
    if (depth == 0 || pick(4) == 0) {
        if (pick(4) == 0) return gen_lit();
        int s = pick(g_ncols);
        return col(s, g_cols[s].kind);
    }
    int k = pick(16);
    if (k < 7) {
        static const int ops[] = {XO_NEG, XO_ADD, XO_SUB, XO_MUL, XO_DIV, XO_IDIV, XO_MOD};
        int op = ops[k];
        xnode *a = gen(depth - 1);
        return op2(op, a, op == XO_NEG ? NULL : pick(2) ? gen(depth - 1) : gen_lit());
    }
    static const int fs[] = {FF_ABS,   FF_SQRT,  FF_LOG,   FF_LOG10, FF_EXP,   FF_POW,
                             FF_FLOOR, FF_CEIL,  FF_ROUND, FF_SIN,   FF_COS,   FF_TAN,
                             FF_ASIN,  FF_ACOS,  FF_ATAN,  FF_ATAN2, FF_SIND,  FF_COSD,
                             FF_TAND,  FF_ASIND, FF_ACOSD, FF_ATAND, FF_ATAN2D};
    int f = fs[pick((int)(sizeof fs / sizeof fs[0]))];
    xnode *a = gen(depth - 1);
    if (f == FF_POW) return fn(f, 2, a, pick(3) ? gen_lit() : gen(depth - 1), 0, 0, 0);
    if (f == FF_ATAN2 || f == FF_ATAN2D) return fn(f, 2, a, gen(depth - 1), 0, 0, 0);
    if (f == FF_ROUND && pick(2))
        return fn(f, 2, a, a->type == XT_INT ? lit_i(ri(-20, 2)) : lit_i(ri(-3, 3)), 0, 0, 0);
    return fn(f, 1, a, 0, 0, 0, 0);
}

static fcmp *gen_pred(void)
{
    fcmp *c = calloc(1, sizeof *c);
    c->negate = (uint8_t)pick(2);
    int k = pick(20);
    if (k < 14) {
        static const int ops[] = {FOP_LT, FOP_LE, FOP_GT, FOP_GE, FOP_EQ};
        c->op = (uint8_t)ops[pick(5)];
        c->lhs = gen(1 + pick(3));
        c->rhs = pick(2) ? gen_lit() : gen(pick(3));
    } else if (k < 16) {
        c->op = FOP_IS_NULL;
        c->lhs = gen(1 + pick(2));
    } else if (k < 18) {
        c->op = pick(2) ? FOP_IS_NAN : FOP_IS_FINITE;
        c->lhs = gen(1 + pick(2));
    } else {
        c->op = FOP_TRUE;
        c->lhs = fn(pick(2) ? FF_ISNAN : FF_ISFINITE, 1, gen(1 + pick(2)), 0, 0, 0, 0);
    }
    return c;
}

static void cfree(fcmp *c)
{
    xfree(c->lhs);
    xfree(c->rhs);
    free(c);
}

static void print_x(const xnode *x)
{
    static const char *ops[] = {"col", "lit", "neg", "+", "-", "*", "/", "//", "%", "call"};
    if (x->op == XO_COL)
        fprintf(stderr, "c%d", x->slot);
    else if (x->op == XO_LIT && x->type == XT_FLOAT)
        fprintf(stderr, "%.17g", x->d);
    else if (x->op == XO_LIT)
        fprintf(stderr, "%lld", (long long)x->i);
    else {
        if (x->op == XO_CALL)
            fprintf(stderr, "f%d(", x->fn);
        else
            fprintf(stderr, "%s(", ops[x->op]);
        for (int k = 0; k < x->nargs; k++) {
            if (k) fprintf(stderr, ", ");
            print_x(x->args[k]);
        }
        fprintf(stderr, ")");
    }
}

static void dump(const fcmp *c, const tcol *cols, const pqt_scan_stats *st, int ncols, int row)
{
    fprintf(stderr, "  predicate op %d negate %d: ", c->op, c->negate);
    print_x(c->lhs);
    if (c->rhs) fprintf(stderr, " vs "), print_x(c->rhs);
    fprintf(stderr, "\n");
    for (int s = 0; s < ncols; s++)
        fprintf(stderr,
                "  c%d kind %d flags %u min %lld/%.17g max %lld/%.17g nulls %lld nans %lld; "
                "row %d: %s %lld/%.17g\n",
                s, cols[s].kind, st[s].flags, (long long)st[s].min.i, st[s].min.d,
                (long long)st[s].max.i, st[s].max.d, (long long)st[s].null_count,
                (long long)st[s].nan_count, row, cols[s].null[row] ? "null" : "value",
                (long long)cols[s].iv[row], cols[s].dv[row]);
}

static void test_property(void)
{
    /* PQT_PROP_TRIALS / PQT_PROP_SEED: longer or other runs by hand */
    int nnone = 0, nall = 0, bad = 0, trials = 40000;
    if (getenv("PQT_PROP_TRIALS")) trials = atoi(getenv("PQT_PROP_TRIALS"));
    if (getenv("PQT_PROP_SEED")) seed = strtoull(getenv("PQT_PROP_SEED"), NULL, 0);
    for (int t = 0; t < trials && bad < 5; t++) {
        tcol cols[3];
        pqt_scan_stats st[3];
        int nc = 1 + pick(3);
        for (int s = 0; s < nc; s++)
            gen_col(&cols[s], &st[s]);
        g_ncols = nc;
        g_cols = cols;
        fcmp *c = gen_pred();
        pqt_tri v = pqt_scan_cmp_prove(c, st, NR);
        nnone += v == PQT_TRI_NONE;
        nall += v == PQT_TRI_ALL;
        for (int r = 0; r < NR && v != PQT_TRI_SOME; r++) {
            int tv = truth(c, cols, r);
            if ((v == PQT_TRI_NONE && (tv & (T | E))) || (v == PQT_TRI_ALL && tv != T)) {
                fprintf(stderr, "trial %d: proved %s, row %d gives %d\n", t,
                        v == PQT_TRI_NONE ? "NONE" : "ALL", r, tv);
                dump(c, cols, st, nc, r);
                bad++;
                break;
            }
        }
        cfree(c);
    }
    CHECK_EQ_I64(bad, 0);
    printf("property: %d trials, NONE %d, ALL %d\n", trials, nnone, nall);
    CHECK(nnone > trials / 20);
    CHECK(nall > trials / 50);
}

/* ---- cone ---- */

static fcmp *cone_pred(double ra0, double dec0, double r)
{
    fcmp *c = calloc(1, sizeof *c);
    c->op = FOP_TRUE;
    c->lhs =
        fn(FF_CONE, 5, col(0, PQT_FLOAT64), col(1, PQT_FLOAT64), lit_d(ra0), lit_d(dec0), lit_d(r));
    return c;
}

static void box_stats(pqt_scan_stats *st, double ralo, double rahi, double declo, double dechi)
{
    memset(st, 0, 2 * sizeof *st);
    st[0].flags = st[1].flags = PQT_SST_MIN | PQT_SST_MAX;
    st[0].min.d = ralo, st[0].max.d = rahi;
    st[1].min.d = declo, st[1].max.d = dechi;
    st[0].nan_count = st[1].nan_count = 0;
}

static pqt_tri cone_box(double ra0, double dec0, double r, double ralo, double rahi, double declo,
                        double dechi)
{
    pqt_scan_stats st[2];
    box_stats(st, ralo, rahi, declo, dechi);
    fcmp *c = cone_pred(ra0, dec0, r);
    pqt_tri v = pqt_scan_cmp_prove(c, st, 10);
    cfree(c);
    return v;
}

static void test_cone_hand(void)
{
    /* a cone of 1 degree at ra 359.5 on the equator reaches ra 0.5 across 0/360 */
    CHECK_EQ_I64(cone_box(359.5, 0, 1, 0, 0.4, -0.5, 0.5), PQT_TRI_SOME);
    CHECK_EQ_I64(cone_box(359.5, 0, 1, 1.0, 2.0, -0.5, 0.5), PQT_TRI_NONE);
    CHECK_EQ_I64(cone_box(359.5, 0, 1, 358, 358.4, -0.5, 0.5), PQT_TRI_NONE);
    CHECK_EQ_I64(cone_box(359.5, 0, 1, 358, 358.6, -0.5, 0.5), PQT_TRI_SOME);
    CHECK_EQ_I64(cone_box(359.5, 0, 1, 10, 350, -0.5, 0.5), PQT_TRI_NONE); /* the middle */
    CHECK_EQ_I64(cone_box(0.5, 0, 1, 359.6, 359.9, -0.5, 0.5), PQT_TRI_SOME);
    CHECK_EQ_I64(cone_box(359.5, 0, 1, 359, 360, 2, 3), PQT_TRI_NONE); /* dec misses */
    /* at dec 80 a 5 degree cone spans asin(sin 5 / cos 80) = 30.13 degrees of ra */
    CHECK_EQ_I64(cone_box(0, 80, 5, 30.2, 50, 79, 81), PQT_TRI_NONE);
    CHECK_EQ_I64(cone_box(0, 80, 5, 25, 29, 79, 81), PQT_TRI_SOME);
    CHECK_EQ_I64(cone_box(0, 80, 5, 330, 331, 79, 81), PQT_TRI_SOME);
    /* holding the north pole: every ra; the dec band still prunes */
    CHECK_EQ_I64(cone_box(0, 89.5, 1, 170, 190, 89.8, 90), PQT_TRI_SOME);
    CHECK_EQ_I64(cone_box(0, 89.5, 1, 170, 190, 80, 88), PQT_TRI_NONE);
    CHECK_EQ_I64(cone_box(123, -90, 2, 0, 360, -87.9, -85), PQT_TRI_NONE);
    CHECK_EQ_I64(cone_box(123, -90, 2, 0, 360, -88.1, -85), PQT_TRI_SOME);
    CHECK_EQ_I64(cone_box(123, -90, 2, 300, 301, -90, -89), PQT_TRI_SOME);
    /* a negative radius holds nothing; a dec beyond the poles is not boxed */
    CHECK_EQ_I64(cone_box(10, 10, -1, 10, 10, 10, 10), PQT_TRI_NONE);
    CHECK_EQ_I64(cone_box(10, 10, 1, 100, 120, 95, 170), PQT_TRI_SOME);
    /* never ALL, and nulls or NaN do not make a pruned box unpruned */
    CHECK_EQ_I64(cone_box(10, 10, 50, 10, 11, 10, 11), PQT_TRI_SOME);
    pqt_scan_stats st[2];
    box_stats(st, 1, 2, -0.5, 0.5);
    st[0].null_count = 3;
    st[1].nan_count = -1;
    fcmp *c = cone_pred(359.5, 0, 1);
    CHECK_EQ_I64(pqt_scan_cmp_prove(c, st, 10), PQT_TRI_NONE);
    c->negate = 1; /* not cone(...): true on every row only when none is null */
    CHECK_EQ_I64(pqt_scan_cmp_prove(c, st, 10), PQT_TRI_SOME);
    st[0].null_count = 0;
    CHECK_EQ_I64(pqt_scan_cmp_prove(c, st, 10), PQT_TRI_ALL);
    cfree(c);
}

/* random cones and boxes, rows inside each box (corners included) */
static void test_cone_property(void)
{
    int nnone = 0, bad = 0, trials = 20000;
    for (int t = 0; t < trials && bad < 5; t++) {
        double ra0 = unit() * 360, dec0 = unit() * 180 - 90, r = unit() * (pick(4) ? 5 : 60);
        if (pick(8) == 0) dec0 = pick(2) ? 90 - unit() : -90 + unit();
        double w = unit() * (pick(3) ? 10 : 90), h = unit() * 10;
        double ralo = ra0 + unit() * 3 * (r + w) - 1.5 * (r + w) - w / 2;
        if (pick(3) == 0) ralo = unit() * 360;
        double declo = dec0 + unit() * 2 * (r + h) - (r + h) - h / 2;
        if (declo < -90) declo = -90;
        double dechi = declo + h > 90 ? 90 : declo + h;
        tcol cols[2];
        memset(cols, 0, sizeof cols);
        cols[0].kind = cols[1].kind = PQT_FLOAT64;
        for (int k = 0; k < NR; k++) {
            cols[0].dv[k] = k < 4 ? (k & 1 ? ralo + w : ralo) : ralo + w * unit();
            cols[1].dv[k] = k < 4 ? (k & 2 ? dechi : declo) : declo + (dechi - declo) * unit();
        }
        pqt_scan_stats st[2];
        box_stats(st, ralo, ralo + w, declo, dechi);
        fcmp *c = cone_pred(ra0, dec0, r);
        pqt_tri v = pqt_scan_cmp_prove(c, st, NR);
        nnone += v == PQT_TRI_NONE;
        for (int k = 0; k < NR && v == PQT_TRI_NONE; k++)
            if (truth(c, cols, k) != F) {
                fprintf(stderr,
                        "cone(%.17g, %.17g, %.17g) pruned box ra [%.17g, %.17g] dec "
                        "[%.17g, %.17g] holding %.17g %.17g\n",
                        ra0, dec0, r, ralo, ralo + w, declo, dechi, cols[0].dv[k], cols[1].dv[k]);
                bad++;
                break;
            }
        CHECK(v != PQT_TRI_ALL);
        cfree(c);
    }
    CHECK_EQ_I64(bad, 0);
    printf("cone: %d trials, NONE %d\n", trials, nnone);
    CHECK(nnone > trials / 5);
}

/* ---- hand cases ---- */

static pqt_scan_stats fstat(double lo, double hi)
{
    pqt_scan_stats s;
    memset(&s, 0, sizeof s);
    s.flags = PQT_SST_MIN | PQT_SST_MAX | PQT_SST_MIN_EXACT | PQT_SST_MAX_EXACT;
    s.min.d = lo, s.max.d = hi;
    return s;
}

static pqt_scan_stats istat(int64_t lo, int64_t hi)
{
    pqt_scan_stats s = fstat(0, 0);
    s.min.i = lo, s.max.i = hi;
    s.nan_count = -1;
    return s;
}

static pqt_tri prove2(int op, xnode *lhs, xnode *rhs, const pqt_scan_stats *st, int negate)
{
    fcmp c = {0};
    c.op = (uint8_t)op;
    c.negate = (uint8_t)negate;
    c.lhs = lhs;
    c.rhs = rhs;
    pqt_tri v = pqt_scan_cmp_prove(&c, st, 100);
    xfree(lhs);
    xfree(rhs);
    return v;
}

static xnode *colour(void)
{
    return op2(XO_SUB, col(0, PQT_FLOAT64), col(1, PQT_FLOAT64));
}

static void test_colour_and_magnitude(void)
{
    /* g - r > 0.5: pruned exactly when max(g) - min(r) <= 0.5 */
    pqt_scan_stats st[2] = {fstat(18, 19.5), fstat(19, 20)};
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_NONE);
    st[0].max.d = 19.5000001;
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_SOME);
    /* every row passes: g - r in [1, 3]; only with no null and no NaN */
    st[0] = fstat(21, 22), st[1] = fstat(19, 20);
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_ALL);
    CHECK_EQ_I64(prove2(FOP_LE, colour(), lit_d(0.5), st, 1), PQT_TRI_ALL); /* not <= */
    st[1].nan_count = -1;
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_SOME);
    st[1].nan_count = 0, st[0].null_count = 1;
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_SOME);
    st[0].null_count = 100; /* every g null: nothing passes */
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_NONE);
    /* bounds nobody can trust prove nothing */
    st[0] = fstat(18, 19.5), st[1] = fstat(19, 20);
    st[1].flags |= PQT_SST_NO_ORDER;
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_SOME);
    st[1] = fstat(19, 20);
    st[1].flags &= ~(unsigned)PQT_SST_MIN;
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(0.5), st, 0), PQT_TRI_SOME);
    /* ra > dec: two columns, no arithmetic */
    st[0] = fstat(10, 20), st[1] = fstat(20, 30);
    CHECK_EQ_I64(prove2(FOP_GT, col(0, PQT_FLOAT64), col(1, PQT_FLOAT64), st, 0), PQT_TRI_NONE);
    CHECK_EQ_I64(prove2(FOP_GE, col(0, PQT_FLOAT64), col(1, PQT_FLOAT64), st, 0), PQT_TRI_SOME);

    /* -2.5 * log10(flux) + 22.5 < 21, i.e. flux > 10^0.6 = 3.98 */
    for (int k = 0; k < 4; k++) {
        static const double lo[] = {0.5, 0, -1, 10}, hi[] = {3.9, 3.9, 3.9, 100};
        pqt_scan_stats f = fstat(lo[k], hi[k]);
        xnode *mag =
            op2(XO_ADD, op2(XO_MUL, lit_d(-2.5), fn(FF_LOG10, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0)),
                lit_d(22.5));
        CHECK_EQ_I64(prove2(FOP_LT, mag, lit_d(21), &f, 0), k < 3 ? PQT_TRI_NONE : PQT_TRI_ALL);
    }
    pqt_scan_stats f = fstat(0.5, 4.0); /* 4 > 3.98: a row may pass */
    xnode *mag =
        op2(XO_ADD, op2(XO_MUL, lit_d(-2.5), fn(FF_LOG10, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0)),
            lit_d(22.5));
    CHECK_EQ_I64(prove2(FOP_LT, mag, lit_d(21), &f, 0), PQT_TRI_SOME);
}

static void test_int_edges(void)
{
    pqt_scan_stats st[2] = {istat(1, 10), istat(INT64_MAX - 5, INT64_MAX)};
    /* a + b may overflow: the evaluator reports it, so nothing is pruned */
    CHECK_EQ_I64(prove2(FOP_LT, op2(XO_ADD, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(0), st, 0),
                 PQT_TRI_SOME);
    CHECK_EQ_I64(prove2(FOP_LT, op2(XO_SUB, col(1, PQT_INT64), col(0, PQT_INT64)), lit_i(0), st, 0),
                 PQT_TRI_NONE);
    st[0] = istat(INT64_C(1) << 32, INT64_C(1) << 33),
    st[1] = istat(INT64_C(1) << 31, INT64_C(1) << 32);
    CHECK_EQ_I64(prove2(FOP_LT, op2(XO_MUL, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(0), st, 0),
                 PQT_TRI_SOME);
    st[1] = istat(-3, -2);
    CHECK_EQ_I64(prove2(FOP_LT, op2(XO_MUL, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(0), st, 0),
                 PQT_TRI_ALL);
    st[0] = istat(INT64_MIN, 0);
    CHECK_EQ_I64(prove2(FOP_GT, op2(XO_NEG, col(0, PQT_INT64), NULL), lit_i(-1), st, 0),
                 PQT_TRI_SOME);
    CHECK_EQ_I64(prove2(FOP_GE, fn(FF_ABS, 1, col(0, PQT_INT64), 0, 0, 0, 0), lit_i(0), st, 0),
                 PQT_TRI_SOME);
    st[0] = istat(INT64_MIN + 1, 0);
    CHECK_EQ_I64(prove2(FOP_GE, fn(FF_ABS, 1, col(0, PQT_INT64), 0, 0, 0, 0), lit_i(0), st, 0),
                 PQT_TRI_ALL);
    /* INT64_MIN // -1 overflows; % -1 does not */
    st[0] = istat(INT64_MIN, -5), st[1] = istat(-1, -1);
    CHECK_EQ_I64(
        prove2(FOP_LT, op2(XO_IDIV, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(0), st, 0),
        PQT_TRI_SOME);
    CHECK_EQ_I64(prove2(FOP_EQ, op2(XO_MOD, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(0), st, 0),
                 PQT_TRI_ALL);
    /* a zero divisor is null: a / 0 holds no row, a / [0, 2] is not ALL */
    st[0] = istat(5, 9), st[1] = istat(0, 0);
    CHECK_EQ_I64(prove2(FOP_GT, op2(XO_DIV, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(0), st, 0),
                 PQT_TRI_NONE);
    st[1] = istat(0, 2);
    CHECK_EQ_I64(
        prove2(FOP_GT, op2(XO_IDIV, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(1), st, 0),
        PQT_TRI_SOME);
    CHECK_EQ_I64(
        prove2(FOP_GT, op2(XO_IDIV, col(0, PQT_INT64), col(1, PQT_INT64)), lit_i(9), st, 0),
        PQT_TRI_NONE);
    /* exact across INT and FLOAT: 2^53 + 1 > 2^53 as a double */
    st[0] = istat((INT64_C(1) << 53) + 1, (INT64_C(1) << 53) + 1);
    CHECK_EQ_I64(prove2(FOP_GT, col(0, PQT_INT64), lit_d(9007199254740992.0), st, 0), PQT_TRI_ALL);
    /* uint64 beyond int64 fails in expressions: never pruned past it */
    pqt_scan_stats u = istat(5, (int64_t)UINT64_C(18446744073709551000));
    u.flags |= PQT_SST_UNSIGNED;
    CHECK_EQ_I64(prove2(FOP_LT, op2(XO_ADD, col(0, PQT_UINT64), lit_i(1)), lit_i(0), &u, 0),
                 PQT_TRI_SOME);
    u.max.i = 1000;
    CHECK_EQ_I64(prove2(FOP_LT, op2(XO_ADD, col(0, PQT_UINT64), lit_i(1)), lit_i(0), &u, 0),
                 PQT_TRI_NONE);
    /* timestamps in ms and us compared in one unit */
    pqt_scan_stats ts[2] = {istat(1000, 2000), istat(1500000, 4000000)};
    xnode *a = col(0, PQT_TIMESTAMP), *b = col(1, PQT_TIMESTAMP);
    a->type = b->type = XT_TIMESTAMP;
    a->unit = PQT_UNIT_MILLIS, b->unit = PQT_UNIT_MICROS;
    CHECK_EQ_I64(prove2(FOP_LT, a, b, ts, 0), PQT_TRI_SOME); /* 2,000,000 us vs 1,500,000 */
    a = col(0, PQT_TIMESTAMP), b = col(1, PQT_TIMESTAMP);
    a->type = b->type = XT_TIMESTAMP;
    a->unit = PQT_UNIT_MICROS, b->unit = PQT_UNIT_MICROS;
    CHECK_EQ_I64(prove2(FOP_LT, a, b, ts, 0), PQT_TRI_ALL);
}

static void test_nan_makers(void)
{
    /* inf - inf, 0 * inf, sqrt(-1): NaN may come, so never ALL */
    pqt_scan_stats st[2] = {fstat(1, INFINITY), fstat(2, INFINITY)};
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(-1e308), st, 0), PQT_TRI_SOME);
    st[1] = fstat(2, 3);
    CHECK_EQ_I64(prove2(FOP_GT, colour(), lit_d(-3), st, 0), PQT_TRI_ALL);
    st[0] = fstat(-1, 4);
    CHECK_EQ_I64(prove2(FOP_GE, fn(FF_SQRT, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(0), st, 0),
                 PQT_TRI_SOME);
    CHECK_EQ_I64(prove2(FOP_GT, fn(FF_SQRT, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(2), st, 0),
                 PQT_TRI_NONE);
    st[0] = fstat(0, 4);
    CHECK_EQ_I64(prove2(FOP_GE, fn(FF_SQRT, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(0), st, 0),
                 PQT_TRI_ALL);
    /* sin is within [-1, 1] */
    st[0] = fstat(-1e6, 1e6);
    CHECK_EQ_I64(prove2(FOP_GT, fn(FF_SIND, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(1.5), st, 0),
                 PQT_TRI_NONE);
    CHECK_EQ_I64(prove2(FOP_LE, fn(FF_COS, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(1), st, 0),
                 PQT_TRI_ALL);
    /* over less than a period, between the ends unless a peak or trough lies inside */
    st[0] = fstat(0, 20); /* sind(20) = 0.342 */
    CHECK_EQ_I64(prove2(FOP_GT, fn(FF_SIND, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(0.5), st, 0),
                 PQT_TRI_NONE);
    st[0] = fstat(-20, 20); /* cosd(20) = 0.940 */
    CHECK_EQ_I64(prove2(FOP_GE, fn(FF_COSD, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(0.9), st, 0),
                 PQT_TRI_ALL);
    st[0] = fstat(350, 370); /* holds 360: cosd reaches 1 */
    CHECK_EQ_I64(
        prove2(FOP_LT, fn(FF_COSD, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(0.9999), st, 0),
        PQT_TRI_SOME);
    st[0] = fstat(1, 2); /* holds pi / 2 */
    CHECK_EQ_I64(prove2(FOP_LT, fn(FF_SIN, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(0.99), st, 0),
                 PQT_TRI_SOME);
    st[0] = fstat(2, 3); /* sin(2) = 0.909 */
    CHECK_EQ_I64(prove2(FOP_LT, fn(FF_SIN, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(0.99), st, 0),
                 PQT_TRI_ALL);
    st[0] = fstat(3, 6.5); /* holds 3 pi / 2: sin reaches -1 */
    CHECK_EQ_I64(
        prove2(FOP_GT, fn(FF_SIN, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(-0.99), st, 0),
        PQT_TRI_SOME);
    CHECK_EQ_I64(prove2(FOP_LT, fn(FF_COS, 1, col(0, PQT_FLOAT64), 0, 0, 0, 0), lit_d(-1), st, 0),
                 PQT_TRI_NONE);
}

int main(void)
{
    test_colour_and_magnitude();
    test_int_edges();
    test_nan_makers();
    test_cone_hand();
    test_cone_property();
    test_property();
    return pqt_test_done("test_filter_expr_stats");
}
