/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_prove.c - what statistics prove about a computed predicate (layer: scan).
 *
 * Interval arithmetic over the bounds of the columns (docs/pruning.md, "Expressions: what
 * statistics can prove"): every node gets what its rows can be - null, NaN, or a number
 * inside [lo, hi] (INT as int64, FLOAT as double) - and whether evaluating it can fail (INT
 * overflow, a uint64 beyond int64). Literals are points. The comparison at the top then gets
 * the set of truth values its rows can take, as filter_stats.c does for a leaf: NONE when
 * TRUE is impossible, ALL when only TRUE is possible. A node that can fail proves nothing
 * (SOME): pruning must not hide the error the evaluator would report.
 *
 * FLOAT + - * / are computed at the corners with the evaluator's own IEEE operations,
 * unwidened: the exact results of a box lie between the exact results at its corners, and
 * rounding to nearest is monotone, so the rounded results lie between the rounded corners (the
 * evaluator runs each node in a loop of its own: no fused multiply-add). That keeps the colour
 * cut exact: a row group whose max(g) - min(r) is 0.5 is pruned by g - r > 0.5. libm functions
 * are widened by a relative 1e-12 (they are not promised to be correctly rounded, nor monotone
 * to the last bit). An operation that can make NaN from its ranges (inf - inf, 0 * inf, sqrt or
 * log of a negative) says so, which forbids ALL. Functions and cone's bounding box are in
 * filter_expr_prove_fn.c.
 */
#include <math.h>

#include "scan/filter_expr_range.h"

enum { TV_T = 1, TV_F = 2, TV_U = 4 };

static void full(rng *r)
{
    r->lo = INT64_MIN;
    r->hi = INT64_MAX;
    r->dlo = -INFINITY;
    r->dhi = INFINITY;
}

static int is_int_kind(int k)
{
    return k == PQT_INT32 || k == PQT_INT64 || k == PQT_DATE || k == PQT_TIME ||
           k == PQT_TIMESTAMP || k == PQT_BOOL || k == PQT_UINT64;
}

/* A column from its statistics, by the trust rules of filter_stats.c. */
static void col_range(const xnode *x, const pqt_scan_stats *st, int64_t nrows, rng *r)
{
    int k = x->kind, fl = k == PQT_FLOAT32 || k == PQT_FLOAT64;
    r->t = fl ? R_FLOAT : is_int_kind(k) ? R_INT : R_OTHER;
    r->unit = x->type == XT_TIME || x->type == XT_TIMESTAMP ? x->unit : -1;
    full(r);
    r->nul = r->val = 1;
    r->nan = (uint8_t)fl;
    if (k == PQT_UINT64) r->lo = 0;
    if (k & PQT_LIST) { /* a list column's chunk statistics describe its elements */
        r->t = R_OTHER;
        return;
    }
    int has_lo = 0, has_hi = 0;
    if (st) {
        int64_t nc = st->null_count;
        int known = nc >= 0 && nc <= nrows;
        int64_t nn = known ? nrows - nc : nrows;
        int nan_known = fl && st->nan_count >= 0 && st->nan_count <= nn;
        r->nul = (uint8_t)(!known || nc > 0);
        int nonnull = !known || nc < nrows;
        r->nan = (uint8_t)(fl && nonnull && (!nan_known || st->nan_count > 0));
        r->val = (uint8_t)(nonnull && !(known && nan_known && st->nan_count == nn));
        unsigned f = st->flags;
        if (!(f & PQT_SST_NO_ORDER) && r->t != R_OTHER) {
            has_lo = (f & PQT_SST_MIN) != 0;
            has_hi = (f & PQT_SST_MAX) != 0;
            int64_t ilo = st->min.i, ihi = st->max.i;
            double dlo = st->min.d, dhi = st->max.d;
            int both = has_lo && has_hi;
            if ((f & PQT_SST_SIGNED_ORDER) && (k == PQT_UINT64 || (f & PQT_SST_UNSIGNED))) {
                /* a wrong order still gets min == max right */
                if (!(both && ilo == ihi)) has_lo = has_hi = 0;
            } else if (f & PQT_SST_UNSIGNED && k != PQT_UINT64) {
                /* signed values bounded in unsigned order: right only on one side of 0 */
                if (fl || !(both && (ilo < 0) == (ihi < 0))) has_lo = has_hi = 0;
            }
            if (fl) {
                if (has_lo && isnan(dlo)) has_lo = 0;
                if (has_hi && isnan(dhi)) has_hi = 0;
                if (has_lo && has_hi && dlo > dhi) has_lo = has_hi = 0;
            } else if (k == PQT_UINT64) {
                if (has_lo && has_hi && (uint64_t)ilo > (uint64_t)ihi) has_lo = has_hi = 0;
                /* values above INT64_MAX fail in expressions */
                if (has_hi && (uint64_t)ihi > (uint64_t)INT64_MAX) has_hi = 0;
                if (has_lo && (uint64_t)ilo > (uint64_t)INT64_MAX) has_lo = has_hi = 0;
            } else if (has_lo && has_hi && ilo > ihi) {
                has_lo = has_hi = 0; /* a lie: believe neither */
            }
            if (has_lo) {
                r->lo = ilo;
                r->dlo = dlo == 0 ? -0.0 : dlo; /* +0 may hide -0 */
            }
            if (has_hi) {
                r->hi = ihi;
                r->dhi = dhi == 0 ? 0.0 : dhi;
            }
        }
    }
    if (k == PQT_UINT64 && !has_hi && r->val) r->err = 1;
}

static void corners(rng *o, const rng *a, const rng *b, int op)
{
    double c[4] = {a->dlo, a->dlo, a->dhi, a->dhi}, e[4] = {b->dlo, b->dhi, b->dlo, b->dhi};
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < 4; k++) {
        double v = op == XO_MUL ? c[k] * e[k] : c[k] / e[k];
        if (isnan(v)) lo = hi = NAN;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    set_f(o, lo, hi, -1);
}

/* FLOAT + - * / // %: o->nul and the validity flags are set by the caller. */
static void float_op(rng *o, const rng *a, const rng *b, int op)
{
    o->t = R_FLOAT;
    switch (op) {
    case XO_ADD:
        if ((a->dhi == INFINITY && b->dlo == -INFINITY) ||
            (a->dlo == -INFINITY && b->dhi == INFINITY))
            o->nan = 1;
        set_f(o, a->dlo + b->dlo, a->dhi + b->dhi, -1);
        break;
    case XO_SUB:
        if ((a->dhi == INFINITY && b->dhi == INFINITY) ||
            (a->dlo == -INFINITY && b->dlo == -INFINITY))
            o->nan = 1;
        set_f(o, a->dlo - b->dhi, a->dhi - b->dlo, -1);
        break;
    case XO_MUL:
        if ((has_zero(a) && has_inf(b)) || (has_inf(a) && has_zero(b))) o->nan = 1;
        corners(o, a, b, XO_MUL);
        break;
    case XO_DIV:
    case XO_IDIV:
        if (has_inf(a) && has_inf(b)) o->nan = 1;
        if (has_zero(b)) { /* a zero divisor is null; others near it are unbounded */
            o->nul = 1;
            o->dlo = -INFINITY;
            o->dhi = INFINITY;
            if (b->dlo == 0 && b->dhi == 0) o->val = 0; /* NaN divisors still make NaN */
            break;
        }
        corners(o, a, b, XO_DIV);
        if (op == XO_IDIV) {
            o->dlo = trunc(o->dlo);
            o->dhi = trunc(o->dhi);
        }
        break;
    default: { /* fmod: |r| <= |a|, |r| < |b|, the sign of a; exact */
        if (has_inf(a)) o->nan = 1;
        if (has_zero(b)) o->nul = 1;
        if (b->dlo == 0 && b->dhi == 0) {
            o->val = 0;
            break;
        }
        double m = fmax(fabs(b->dlo), fabs(b->dhi));
        o->dlo = a->dlo >= 0 ? -0.0 : fmax(a->dlo, -m);
        o->dhi = a->dhi <= 0 ? 0.0 : fmin(a->dhi, m);
        break;
    }
    }
}

static int64_t div0(int64_t a, int64_t b)
{
    return b == -1 ? (int64_t)(0 - (uint64_t)a) : a / b;
}

/* INT + - * // % and unary minus; overflow possible -> err. */
static void int_op(rng *o, const rng *a, const rng *b, int op)
{
    o->t = R_INT;
    int64_t lo = 0, hi = 0;
    int bad = 0;
    switch (op) {
    case XO_NEG:
        bad = a->lo == INT64_MIN || a->hi == INT64_MIN; /* either bound may be the smallest */
        lo = bad ? 0 : -a->hi;
        hi = bad ? 0 : -a->lo;
        break;
    case XO_ADD:
        bad = __builtin_add_overflow(a->lo, b->lo, &lo);
        bad |= __builtin_add_overflow(a->hi, b->hi, &hi);
        break;
    case XO_SUB:
        bad = __builtin_sub_overflow(a->lo, b->hi, &lo);
        bad |= __builtin_sub_overflow(a->hi, b->lo, &hi);
        break;
    case XO_MUL: {
        int64_t c[4], p[4] = {a->lo, a->lo, a->hi, a->hi}, q[4] = {b->lo, b->hi, b->lo, b->hi};
        for (int k = 0; k < 4; k++)
            bad |= __builtin_mul_overflow(p[k], q[k], &c[k]);
        lo = hi = c[0];
        for (int k = 1; k < 4; k++) {
            if (c[k] < lo) lo = c[k];
            if (c[k] > hi) hi = c[k];
        }
        break;
    }
    case XO_IDIV: {
        if (b->lo <= 0 && b->hi >= 0) o->nul = 1;
        /* the divisor's ranges on each side of 0: extremes sit at the corners */
        int64_t part[2][2] = {{b->lo, b->hi < -1 ? b->hi : -1}, {b->lo > 1 ? b->lo : 1, b->hi}};
        int any = 0;
        for (int s = 0; s < 2; s++) {
            int64_t p = part[s][0], q = part[s][1];
            if (p > q || (s == 0 && b->lo > -1) || (s == 1 && b->hi < 1)) continue;
            if (a->lo == INT64_MIN && p <= -1 && q >= -1) bad = 1;
            int64_t c[4] = {div0(a->lo, p), div0(a->lo, q), div0(a->hi, p), div0(a->hi, q)};
            for (int k = 0; k < 4; k++) {
                if (!any || c[k] < lo) lo = c[k];
                if (!any || c[k] > hi) hi = c[k];
                any = 1;
            }
        }
        if (!any) o->val = 0, bad = 0;
        break;
    }
    default: { /* %: the sign of the dividend, |r| < |b|, |r| <= |a| */
        if (b->lo <= 0 && b->hi >= 0) o->nul = 1;
        if (b->lo == 0 && b->hi == 0) {
            o->val = 0;
            break;
        }
        uint64_t ml = b->lo < 0 ? 0 - (uint64_t)b->lo : (uint64_t)b->lo;
        uint64_t mh = b->hi < 0 ? 0 - (uint64_t)b->hi : (uint64_t)b->hi;
        int64_t m1 = (int64_t)((ml > mh ? ml : mh) - 1);
        lo = a->lo >= 0 ? 0 : a->lo > -m1 ? a->lo : -m1;
        hi = a->hi <= 0 ? 0 : a->hi < m1 ? a->hi : m1;
        break;
    }
    }
    if (bad) o->err = 1;
    o->lo = lo;
    o->hi = hi;
}

/* Returns 0 when the node is beyond what the prover models (then: SOME). */
static int eval_node(const xnode *x, const pqt_scan_stats *stats, int64_t nrows, rng *o)
{
    o->t = R_OTHER;
    o->nul = o->nan = o->err = 0;
    o->val = 1;
    o->unit = x->type == XT_TIME || x->type == XT_TIMESTAMP ? x->unit : -1;
    full(o);
    if (x->op == XO_COL) {
        col_range(x, stats ? &stats[x->slot] : NULL, nrows, o);
        return 1;
    }
    if (x->op == XO_LIT) {
        if (x->type == XT_FLOAT) {
            o->t = R_FLOAT;
            o->dlo = o->dhi = x->d;
            if (isnan(x->d)) o->nan = 1, o->val = 0;
        } else if (x->type == XT_STR || x->type == XT_LIST || x->type == XT_NONE) {
            o->t = R_OTHER;
        } else {
            o->t = R_INT;
            o->lo = o->hi = x->i;
        }
        return 1;
    }
    if (x->nargs < 1 || x->nargs > 5) return 0;
    rng a[5];
    int some = 1, nonnull = 1;
    for (int32_t k = 0; k < x->nargs; k++) {
        if (!eval_node(x->args[k], stats, nrows, &a[k])) return 0;
        o->nul |= a[k].nul;
        o->err |= a[k].err;
        o->nan |= a[k].nan;
        some &= a[k].val;
        nonnull &= a[k].val || a[k].nan;
        if (a[k].t == R_OTHER && !(x->op == XO_CALL && x->fn == FF_LENGTH)) return 0;
    }
    if (!nonnull) { /* every row has a null argument */
        o->t = x->type == XT_FLOAT ? R_FLOAT : R_INT;
        o->val = o->nan = 0;
        o->nul = 1;
        return 1;
    }
    o->val = (uint8_t)some;
    if (x->op == XO_CALL) {
        if (x->fn == FF_LENGTH) o->nan = 0;
        pqt_scan_range_call(x, a, x->nargs, o);
    } else if (x->type == XT_INT) {
        int_op(o, &a[0], x->nargs > 1 ? &a[1] : &a[0], x->op);
    } else {
        for (int32_t k = 0; k < x->nargs; k++)
            to_float(&a[k]);
        if (x->op == XO_NEG) {
            o->t = R_FLOAT;
            set_f(o, -a[0].dhi, -a[0].dlo, -1);
        } else if (x->nargs == 2) {
            float_op(o, &a[0], &a[1], x->op);
        } else {
            return 0;
        }
    }
    if (!o->val && !o->nan) o->nul = 1;
    return 1;
}

/* sign(i - d) exactly (d not NaN) */
static int cmp_id(int64_t i, double d)
{
    if (d >= 9223372036854775808.0) return -1;
    if (d < -9223372036854775808.0) return 1;
    double t = trunc(d);
    int64_t ti = (int64_t)t;
    if (i != ti) return i < ti ? -1 : 1;
    return t < d ? -1 : t > d ? 1 : 0;
}

/* sign(bound ia/da of a - bound ib/db of b), exactly, across INT, FLOAT and time units */
static int cmp_b(const rng *a, int64_t ia, double da, const rng *b, int64_t ib, double db)
{
    if (a->t == R_FLOAT && b->t == R_FLOAT) return (da > db) - (da < db);
    if (a->t == R_INT && b->t == R_FLOAT) return cmp_id(ia, db);
    if (a->t == R_FLOAT) return -cmp_id(ib, da);
    if (a->unit >= 0 && b->unit >= 0 && a->unit != b->unit) {
        int64_t ua = pqt_scan_unit_per_sec(a->unit), ub = pqt_scan_unit_per_sec(b->unit);
        __int128 p = (__int128)ia * (ua < ub ? ub / ua : 1);
        __int128 q = (__int128)ib * (ub < ua ? ua / ub : 1);
        return (p > q) - (p < q);
    }
    return (ia > ib) - (ia < ib);
}

/* Truth values that values inside the two ranges can give to a op b. */
static int value_truths(int op, const rng *a, const rng *b)
{
    int c_hl = cmp_b(a, a->hi, a->dhi, b, b->lo, b->dlo); /* sign(a.hi - b.lo) */
    int c_lh = cmp_b(a, a->lo, a->dlo, b, b->hi, b->dhi); /* sign(a.lo - b.hi) */
    switch (op) {
    case FOP_GT:
        return (c_hl > 0 ? TV_T : 0) | (c_lh <= 0 ? TV_F : 0);
    case FOP_GE:
        return (c_hl >= 0 ? TV_T : 0) | (c_lh < 0 ? TV_F : 0);
    case FOP_LT:
        return (c_lh < 0 ? TV_T : 0) | (c_hl >= 0 ? TV_F : 0);
    case FOP_LE:
        return (c_lh <= 0 ? TV_T : 0) | (c_hl > 0 ? TV_F : 0);
    default: { /* EQ: TRUE when they overlap; only TRUE when both are one and the same point */
        int r = c_lh <= 0 && c_hl >= 0 ? TV_T : 0;
        int one = c_lh == 0 && c_hl == 0 && cmp_b(a, a->lo, a->dlo, a, a->hi, a->dhi) == 0 &&
                  cmp_b(b, b->lo, b->dlo, b, b->hi, b->dhi) == 0;
        return r | (one ? 0 : TV_F);
    }
    }
}

static int truths(const fcmp *c, const rng *a, const rng *b)
{
    int r = 0;
    switch (c->op) {
    case FOP_IS_NULL:
        return (a->nul ? TV_T : 0) | (a->val || a->nan ? TV_F : 0);
    case FOP_IS_NAN:
        return (a->nul ? TV_U : 0) | (a->nan ? TV_T : 0) | (a->val ? TV_F : 0);
    case FOP_IS_FINITE: {
        int inf = a->t == R_FLOAT && has_inf(a);
        int fin = a->t != R_FLOAT || !(a->dlo == a->dhi && isinf(a->dlo));
        return (a->nul ? TV_U : 0) | (a->nan ? TV_F : 0) |
               (a->val ? (fin ? TV_T : 0) | (inf ? TV_F : 0) : 0);
    }
    case FOP_TRUE:
        if (a->t != R_INT) return 0;
        r = a->nul ? TV_U : 0;
        if (a->val && !(a->lo == 0 && a->hi == 0)) r |= TV_T;
        if (a->val && a->lo <= 0 && a->hi >= 0) r |= TV_F;
        return r;
    case FOP_LT:
    case FOP_LE:
    case FOP_GT:
    case FOP_GE:
    case FOP_EQ:
        if (!b || a->t == R_OTHER || b->t == R_OTHER) return 0;
        if (a->nul || b->nul) r |= TV_U;
        if ((a->val || a->nan) && (b->val || b->nan)) {
            if (a->nan || b->nan) r |= TV_F; /* NaN compares false */
            if (a->val && b->val) r |= value_truths(c->op, a, b);
        }
        return r;
    default:
        return 0;
    }
}

pqt_tri pqt_scan_cmp_prove(const fcmp *c, const pqt_scan_stats *stats, int64_t nrows)
{
    if (nrows <= 0) return PQT_TRI_NONE;
    rng a, b;
    if (!c->lhs || !eval_node(c->lhs, stats, nrows, &a)) return PQT_TRI_SOME;
    if (c->rhs && !eval_node(c->rhs, stats, nrows, &b)) return PQT_TRI_SOME;
    if (a.err || (c->rhs && b.err)) return PQT_TRI_SOME;
    int r = truths(c, &a, c->rhs ? &b : NULL);
    if (!r) return PQT_TRI_SOME; /* contradictory statistics prove nothing */
    if (c->negate) r = (r & TV_U) | (r & TV_T ? TV_F : 0) | (r & TV_F ? TV_T : 0);
    if (!(r & TV_T)) return PQT_TRI_NONE;
    return r == TV_T ? PQT_TRI_ALL : PQT_TRI_SOME;
}
