/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_prove_fn.c - the ranges the functions of the filter language give, and cone's
 * bounding box (layer: scan); docs/pruning.md, "Expressions: what statistics can prove".
 *
 * A monotone function maps the bounds; results of the math library are widened by a relative
 * 1e-12. A range the function is not defined on all of says NaN may come. cone(ra, dec, ra0,
 * dec0, r) can be TRUE only inside the box of dec in [dec0 - r, dec0 + r] and, unless the cone
 * holds a pole, ra within asin(sin r / cos dec0) of ra0 around the circle; r and the ra
 * half-width are widened by 1e-9 (relative and absolute), far above the rounding of the
 * evaluator's haversine.
 */
#include <math.h>

#include "scan/filter_expr_range.h"

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)
#define RAD (180.0 / PI)

/* cone: may any row be inside? Every argument as FLOAT, ra0/dec0/r points. */
static int cone_may(const rng *ra, const rng *dec, const rng *a0, const rng *d0, const rng *rr)
{
    if (a0->dlo != a0->dhi || d0->dlo != d0->dhi || rr->dlo != rr->dhi) return 1;
    double ra0 = a0->dlo, dec0 = d0->dlo, r = rr->dlo;
    if (r < 0) return 0; /* the evaluator: r >= 0 && ... */
    if (!isfinite(ra0) || !(fabs(dec0) <= 90) || !(r < 180)) return 1;
    if (!(dec->dlo >= -90 && dec->dhi <= 90)) return 1; /* a dec off the sphere: no box */
    r = r * (1 + 1e-9) + 1e-9;
    if (dec->dhi < dec0 - r || dec->dlo > dec0 + r) return 0;
    if (fabs(dec0) + r >= 90) return 1; /* holds a pole: every ra */
    double w = asin(sin(r * DEG) / cos(dec0 * DEG)) * RAD;
    w = w * (1 + 1e-9) + 1e-9;
    if (!(fabs(ra->dlo) <= 1e6 && fabs(ra->dhi) <= 1e6 && fabs(ra0) <= 1e6)) return 1;
    double a = ra->dlo - ra0, b = ra->dhi - ra0;
    if (b - a >= 360) return 1;
    /* the first window [360k - w, 360k + w] not wholly below a; does it start by b? */
    double k = ceil((a - w) / 360);
    return 360 * k - w <= b + 1e-9;
}

/* Whether a point c + period k lies in [lo, hi] (widened by a margin far above rounding). */
static int holds(double lo, double hi, double c, double period)
{
    double m = 1e-9 * (1 + fabs(lo) + fabs(hi));
    double k = ceil((lo - m - c) / period);
    return c + period * k <= hi + m;
}

/* sin, cos, sind, cosd over finite [lo, hi] shorter than a period: between the values at
 * the ends, or 1 / -1 where a peak or trough lies inside. Widened by 1e-12 for the math
 * library and the degrees' reduction; else [-1, 1]. */
static void trig(rng *o, int fn, double lo, double hi)
{
    int deg = fn == FF_SIND || fn == FF_COSD, cosine = fn == FF_COS || fn == FF_COSD;
    double period = deg ? 360 : 2 * PI, quarter = period / 4;
    if (!(isfinite(lo) && isfinite(hi) && hi - lo < period && fabs(lo) < 1e6 && fabs(hi) < 1e6)) {
        set_f(o, -1, 1, -1);
        return;
    }
    double peak = cosine ? 0 : quarter; /* sin peaks at a quarter period, cos at 0 */
    double vl = deg ? fmod(lo, 360) * DEG : lo, vh = deg ? fmod(hi, 360) * DEG : hi;
    vl = cosine ? cos(vl) : sin(vl);
    vh = cosine ? cos(vh) : sin(vh);
    double mx = holds(lo, hi, peak, period) ? 1 : fmax(vl, vh) + 1e-12;
    double mn = holds(lo, hi, peak + 2 * quarter, period) ? -1 : fmin(vl, vh) - 1e-12;
    set_f(o, fmax(mn, -1), fmin(mx, 1), -1);
}

void pqt_scan_range_call(const xnode *x, rng *a, int n, rng *o)
{
    rng *b = n > 1 ? &a[1] : NULL;
    int fn = x->fn;
    if (fn == FF_LENGTH) {
        o->t = R_INT;
        o->lo = 0;
        o->hi = INT64_MAX;
        return;
    }
    if (fn == FF_CONE) {
        for (int k = 0; k < 5; k++)
            to_float(&a[k]);
        int all = 1;
        for (int k = 0; k < 5; k++)
            all &= a[k].val;
        o->t = R_INT;
        o->nan = 0;
        o->val = 1; /* NaN arguments make FALSE, not NaN */
        o->lo = 0;
        o->hi = all && cone_may(&a[0], &a[1], &a[2], &a[3], &a[4]);
        return;
    }
    if (fn == FF_ISNAN || fn == FF_ISFINITE) {
        int fin = a->val && !(a->t == R_FLOAT && a->dlo == a->dhi && isinf(a->dlo));
        int inf = a->val && a->t == R_FLOAT && has_inf(a);
        int can1 = fn == FF_ISNAN ? a->nan : fin;
        int can0 = fn == FF_ISNAN ? a->val : a->nan || inf;
        o->t = R_INT;
        o->nan = 0;
        o->val = a->val || a->nan;
        o->lo = can0 ? 0 : 1;
        o->hi = can1 ? 1 : 0;
        return;
    }
    if (x->type == XT_INT) { /* abs, floor, ceil, round of an integer */
        o->t = R_INT;
        o->lo = a->lo;
        o->hi = a->hi;
        if (fn == FF_ABS) {
            if (a->lo == INT64_MIN || a->hi == INT64_MIN) { /* abs overflows: no bounds */
                o->err = 1;
                return;
            }
            o->lo = a->lo >= 0 ? a->lo : a->hi <= 0 ? -a->hi : 0;
            o->hi = a->lo >= 0 ? a->hi : a->hi <= 0 ? -a->lo : (-a->lo > a->hi ? -a->lo : a->hi);
        } else if (fn == FF_ROUND && n == 2) {
            const xnode *d = x->args[1];
            if (d->op != XO_LIT || d->type != XT_INT) {
                o->err = 1;
            } else if (d->i < -18) { /* 10^19 and up: the evaluator may overflow or give 0 */
                o->err = 1;
            } else if (d->i < 0) { /* a multiple of p = 10^-digits, within p of the value */
                int64_t p = 1;
                for (int64_t k = 0; k < -d->i && p <= INT64_MAX / 10; k++)
                    p *= 10;
                int bad = __builtin_sub_overflow(a->lo, p, &o->lo);
                bad |= __builtin_add_overflow(a->hi, p, &o->hi);
                if (bad) o->err = 1;
            }
        }
        return;
    }
    for (int k = 0; k < n; k++)
        to_float(&a[k]);
    o->t = R_FLOAT;
    double lo = a->dlo, hi = a->dhi;
    switch (fn) {
    case FF_ABS:
        set_f(o, lo >= 0 ? lo : hi <= 0 ? -hi : 0, fmax(fabs(lo), fabs(hi)), -1);
        break;
    case FF_FLOOR:
        set_f(o, floor(lo), floor(hi), -1);
        break;
    case FF_CEIL:
        set_f(o, ceil(lo), ceil(hi), -1);
        break;
    case FF_SQRT:
    case FF_LOG:
    case FF_LOG10:
        if (lo < 0) o->nan = 1;
        if (hi < 0) {
            o->val = 0;
            break;
        }
        lo = fmax(lo, 0);
        if (fn == FF_SQRT)
            set_f(o, sqrt(lo), sqrt(hi), -1);
        else if (fn == FF_LOG)
            set_f(o, log(lo), log(hi), LIBM);
        else
            set_f(o, log10(lo), log10(hi), LIBM);
        break;
    case FF_EXP:
        set_f(o, exp(lo), exp(hi), LIBM);
        if (o->dlo < 0) o->dlo = 0;
        break;
    case FF_POW: {
        /* only a point exponent over a base the power is monotone on; pow(x, 0) is 1 and
         * pow(1, NaN) is 1, so a NaN argument does not always give NaN */
        double y = b->dlo;
        int point = b->val && !b->nan && b->dlo == b->dhi && isfinite(y);
        o->val = 1;
        if (point && y == 0) {
            o->nan = 0;
            set_f(o, 1, 1, -1);
        } else if (point && a->val && (lo > 0 || (lo >= 0 && y > 0))) {
            o->val = a->val;
            if (y > 0)
                set_f(o, pow(lo, y), pow(hi, y), LIBM);
            else
                set_f(o, pow(hi, y), pow(lo, y), LIBM);
        } else {
            o->nan = 1;
            set_f(o, -INFINITY, INFINITY, -1);
        }
        break;
    }
    case FF_ROUND:
        if (n == 1) {
            set_f(o, round(lo), round(hi), -1);
        } else if (b->dlo == b->dhi && fabs(b->dlo) <= 308) {
            double t = trunc(b->dlo), h = 0.5 * pow(10.0, -t); /* half a unit of the digit */
            set_f(o, lo - h, hi + h, LIBM);
        } else {
            o->nan = 1;
            set_f(o, -INFINITY, INFINITY, -1);
        }
        break;
    case FF_SIN:
    case FF_COS:
    case FF_SIND:
    case FF_COSD:
        if (has_inf(a)) o->nan = 1;
        trig(o, fn, lo, hi);
        break;
    case FF_ASIN:
    case FF_ASIND:
    case FF_ACOS:
    case FF_ACOSD: {
        if (lo < -1 || hi > 1) o->nan = 1;
        if (hi < -1 || lo > 1) {
            o->val = 0;
            break;
        }
        lo = fmax(lo, -1);
        hi = fmin(hi, 1);
        double s = fn == FF_ASIND || fn == FF_ACOSD ? RAD : 1;
        if (fn == FF_ASIN || fn == FF_ASIND)
            set_f(o, asin(lo) * s, asin(hi) * s, LIBM);
        else
            set_f(o, acos(hi) * s, acos(lo) * s, LIBM);
        break;
    }
    case FF_ATAN:
    case FF_ATAND: {
        double s = fn == FF_ATAND ? RAD : 1;
        set_f(o, atan(lo) * s, atan(hi) * s, LIBM);
        break;
    }
    case FF_ATAN2:
        set_f(o, -PI, PI, LIBM);
        break;
    case FF_ATAN2D:
        set_f(o, -180, 180, LIBM);
        break;
    default: /* tan, tand: anything, NaN from inf */
        if (has_inf(a)) o->nan = 1;
        set_f(o, -INFINITY, INFINITY, -1);
        break;
    }
}
