/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_range.h - value ranges of expression nodes, for the statistics prover (layer:
 * scan). Private to filter_expr_prove.c (operators, columns, the comparison) and
 * filter_expr_prove_fn.c (functions, cone's box); docs/pruning.md, "Expressions: what
 * statistics can prove".
 */
#ifndef PQT_SCAN_FILTER_EXPR_RANGE_H
#define PQT_SCAN_FILTER_EXPR_RANGE_H

#include <math.h>
#include <stdint.h>

#include "scan/filter_expr.h"

enum { R_INT = 0, R_FLOAT, R_OTHER };

/* What the rows of one node can be. Bounds are meaningful only when val is set. */
typedef struct rng {
    uint8_t t;   /* R_INT, R_FLOAT, R_OTHER (strings, lists: only null-ness is tracked) */
    uint8_t nul; /* a row may be null */
    uint8_t nan; /* a row may be NaN (FLOAT) */
    uint8_t val; /* a row may be a number (not null, not NaN) */
    uint8_t err; /* evaluating a row may fail */
    int unit;    /* temporal: the time unit (else -1) */
    int64_t lo, hi;
    double dlo, dhi;
} rng;

static inline void to_float(rng *r)
{
    if (r->t != R_INT) return;
    r->t = R_FLOAT;
    r->dlo = (double)r->lo; /* rounding to nearest is monotone */
    r->dhi = (double)r->hi;
    r->nan = 0;
}

static inline double dn(double x, double rel)
{
    if (isinf(x)) return x;
    return nextafter(x - fabs(x) * rel, -INFINITY);
}

static inline double up(double x, double rel)
{
    if (isinf(x)) return x;
    return nextafter(x + fabs(x) * rel, INFINITY);
}

#define LIBM 1e-12

static inline void set_f(rng *r, double lo, double hi, double rel)
{
    if (isnan(lo) || isnan(hi)) { /* a corner at 0 * inf or inf - inf: anything */
        r->dlo = -INFINITY;
        r->dhi = INFINITY;
        r->nan = 1;
        return;
    }
    r->dlo = rel < 0 ? lo : dn(lo, rel);
    r->dhi = rel < 0 ? hi : up(hi, rel);
}

static inline int has_inf(const rng *r)
{
    return r->dlo == -INFINITY || r->dhi == INFINITY;
}
static inline int has_zero(const rng *r)
{
    return r->dlo <= 0 && r->dhi >= 0;
}

/* Function x->fn over its arguments' ranges a[0 .. n - 1] (converted in place as the
 * evaluator converts them): fills o's type and bounds and may set nan, val (cleared when no
 * value can come), nul and err. o arrives with nul, nan and err ORed from the arguments and
 * val set when every argument may hold a value. */
void pqt_scan_range_call(const xnode *x, rng *a, int n, rng *o);

#endif
