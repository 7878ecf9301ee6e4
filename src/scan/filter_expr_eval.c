/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_eval.c - vectorized evaluation of computed predicates (layer: scan).
 *
 * A batch is cut into chunks of 1024 rows; a chunk with no selected row is skipped. In a
 * chunk every node of the tree fills its own buffer (1024 values, INT or FLOAT, plus validity
 * words) from its arguments' buffers: one switch per node, then a tight loop over the rows. A
 * row is null when an argument is; a zero divisor nulls the row (SQL). INT + - * and unary
 * minus check overflow with the compiler's overflow builtins, gathered as bits; an overflow
 * on a selected, non-null row is PQT_RANGE naming the expression, its operands and the row.
 * Comparisons between INT and FLOAT are exact (no rounding of the integer through double).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"

#define CH 1024
#define CW (CH / 64)

typedef struct ectx {
    const fcmp *c;
    const char *text; /* spans of the nodes are relative to it */
    const pqt_scan_vec *vecs;
    xv *vals;        /* nres * CH */
    uint64_t *valid; /* nres * CW */
    int64_t n, row0, m;
    const uint64_t *sel; /* the chunk's selection words */
    int muted;
} ectx;

static inline xv *VAL(const ectx *E, const xnode *x)
{
    return E->vals + (size_t)x->res * CH;
}
static inline uint64_t *VB(const ectx *E, const xnode *x)
{
    return E->valid + (size_t)x->res * CW;
}

static inline uint64_t tail(int64_t m, int64_t w)
{
    int64_t r = m - (w << 6);
    return r >= 64 ? ~0ULL : r <= 0 ? 0 : (1ULL << r) - 1;
}

static void load_validity(const ectx *E, const pqt_scan_vec *v, uint64_t *out)
{
    int64_t nw = (E->m + 63) >> 6, nbytes = (E->n + 7) >> 3;
    for (int64_t w = 0; w < nw; w++) {
        if (!v->validity) {
            out[w] = tail(E->m, w);
            continue;
        }
        int64_t at = (E->row0 >> 3) + (w << 3);
        uint64_t x = 0;
        if (at + 8 <= nbytes)
            x = pqt_load_le64(v->validity + at);
        else
            for (int k = 0; k < 8 && at + k < nbytes; k++)
                x |= (uint64_t)v->validity[at + k] << (8 * k);
        out[w] = x & tail(E->m, w);
    }
}

static pqt_status range_err(const ectx *E, const xnode *x, int64_t j, const char *fmt, ...)
    PQT_PRINTF(4, 5);
static pqt_status range_err(const ectx *E, const xnode *x, int64_t j, const char *fmt, ...)
{
    if (E->muted) return PQT_RANGE;
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return pqt_err(PQT_RANGE,
                   "filter rule '%s': %.*s overflows int64 (%s) at row %lld of the batch", E->text,
                   (int)(x->hi - x->lo), E->text + x->lo, what, (long long)(E->row0 + j));
}

/* The first row of bits (a word index and bit) as a chunk row. */
static int64_t first_row(const uint64_t *bits, int64_t nw)
{
    for (int64_t w = 0; w < nw; w++)
        if (bits[w]) return (w << 6) + __builtin_ctzll(bits[w]);
    return 0;
}

static pqt_status load_col(const ectx *E, const xnode *x)
{
    const pqt_scan_vec *v = &E->vecs[x->slot];
    uint64_t *vb = VB(E, x);
    load_validity(E, v, vb);
    xv *o = VAL(E, x);
    int64_t m = E->m, r0 = E->row0;
    switch (x->kind) {
    case PQT_INT32:
    case PQT_DATE: {
        const int32_t *d = (const int32_t *)v->data + r0;
        for (int64_t j = 0; j < m; j++)
            o[j].i = d[j];
        break;
    }
    case PQT_INT64:
    case PQT_TIME:
    case PQT_TIMESTAMP:
        memcpy(o, (const int64_t *)v->data + r0, (size_t)m * sizeof *o);
        break;
    case PQT_UINT64: {
        const uint64_t *d = (const uint64_t *)v->data + r0;
        int64_t nw = (m + 63) >> 6;
        uint64_t big[CW] = {0}, any = 0;
        for (int64_t j = 0; j < m; j++) {
            o[j].i = (int64_t)d[j];
            big[j >> 6] |= (d[j] >> 63) << (j & 63);
        }
        for (int64_t w = 0; w < nw; w++)
            any |= big[w] &= vb[w] & E->sel[w];
        if (any) {
            int64_t j = first_row(big, nw);
            if (E->muted) return PQT_RANGE;
            return pqt_err(PQT_RANGE,
                           "filter rule '%s': column '%s' holds %llu at row %lld of the batch, "
                           "beyond int64, which expressions compute in",
                           E->text, x->col, (unsigned long long)d[j], (long long)(r0 + j));
        }
        break;
    }
    case PQT_FLOAT32: {
        const float *d = (const float *)v->data + r0;
        for (int64_t j = 0; j < m; j++)
            o[j].d = d[j];
        break;
    }
    case PQT_FLOAT64:
        memcpy(o, (const double *)v->data + r0, (size_t)m * sizeof *o);
        break;
    case PQT_BOOL: {
        const uint8_t *d = (const uint8_t *)v->data + r0;
        for (int64_t j = 0; j < m; j++)
            o[j].i = d[j] != 0;
        break;
    }
    default: /* strings are read where they are compared */
        break;
    }
    return PQT_OK;
}

static void fill_lit(const ectx *E, const xnode *x)
{
    xv *o = VAL(E, x);
    uint64_t *vb = VB(E, x);
    for (int64_t j = 0; j < E->m; j++)
        o[j].i = x->i;
    if (x->type == XT_FLOAT)
        for (int64_t j = 0; j < E->m; j++)
            o[j].d = x->d;
    for (int64_t w = 0; w < (E->m + 63) >> 6; w++)
        vb[w] = tail(E->m, w);
}

static void to_float(const ectx *E, const xnode *x)
{
    if (x->type != XT_INT && x->type != XT_BOOL) return;
    xv *o = VAL(E, x);
    for (int64_t j = 0; j < E->m; j++)
        o[j].d = (double)o[j].i;
}

static void and_valid(const ectx *E, const xnode *x)
{
    uint64_t *vb = VB(E, x);
    int64_t nw = (E->m + 63) >> 6;
    for (int64_t w = 0; w < nw; w++)
        vb[w] = tail(E->m, w);
    for (int32_t k = 0; k < x->nargs; k++) {
        const uint64_t *a = VB(E, x->args[k]);
        for (int64_t w = 0; w < nw; w++)
            vb[w] &= a[w];
    }
}

/* INT overflow bits of op over the chunk; o receives the (wrapped) results. */
#define INT_OVF(EXPR)                                                                              \
    for (int64_t w = 0; w < nw; w++) {                                                             \
        uint64_t f = 0;                                                                            \
        int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;                                         \
        for (int64_t jj = 0; jj < e; jj++) {                                                       \
            int64_t j = (w << 6) + jj;                                                             \
            f |= (uint64_t)(EXPR) << jj;                                                           \
        }                                                                                          \
        ovf[w] = f;                                                                                \
    }

static pqt_status check_ovf(const ectx *E, const xnode *x, uint64_t *ovf, const char *sym)
{
    int64_t nw = (E->m + 63) >> 6;
    const uint64_t *vb = VB(E, x);
    uint64_t any = 0;
    for (int64_t w = 0; w < nw; w++)
        any |= ovf[w] &= vb[w] & E->sel[w];
    if (!any) return PQT_OK;
    int64_t j = first_row(ovf, nw);
    const xv *a = VAL(E, x->args[0]);
    if (x->op == XO_CALL && x->nargs == 1)
        return range_err(E, x, j, "%s(%lld)", sym, (long long)a[j].i);
    if (x->op == XO_CALL)
        return range_err(E, x, j, "%s(%lld, %lld)", sym, (long long)a[j].i,
                         (long long)x->args[1]->i);
    if (x->nargs == 1) return range_err(E, x, j, "%s%lld", sym, (long long)a[j].i);
    const xv *b = VAL(E, x->args[1]);
    return range_err(E, x, j, "%lld %s %lld", (long long)a[j].i, sym, (long long)b[j].i);
}

static pqt_status eval_node(const ectx *E, const xnode *x);

static pqt_status arith(const ectx *E, const xnode *x)
{
    const xnode *xa = x->args[0], *xb = x->nargs > 1 ? x->args[1] : NULL;
    int64_t m = E->m, nw = (m + 63) >> 6;
    uint64_t ovf[CW];
    and_valid(E, x);
    xv *o = VAL(E, x);
    const xv *a = VAL(E, xa), *b = xb ? VAL(E, xb) : NULL;
    uint64_t *vb = VB(E, x);
    if (x->type == XT_INT) {
        switch (x->op) {
        case XO_NEG:
            INT_OVF(__builtin_sub_overflow((int64_t)0, a[j].i, &o[j].i))
            return check_ovf(E, x, ovf, "-");
        case XO_ADD:
            INT_OVF(__builtin_add_overflow(a[j].i, b[j].i, &o[j].i))
            return check_ovf(E, x, ovf, "+");
        case XO_SUB:
            INT_OVF(__builtin_sub_overflow(a[j].i, b[j].i, &o[j].i))
            return check_ovf(E, x, ovf, "-");
        case XO_MUL:
            INT_OVF(__builtin_mul_overflow(a[j].i, b[j].i, &o[j].i))
            return check_ovf(E, x, ovf, "*");
        case XO_IDIV:
        case XO_MOD: {
            /* a zero divisor is null; INT64_MIN // -1 overflows, INT64_MIN % -1 is 0 */
            int idiv = x->op == XO_IDIV;
            for (int64_t w = 0; w < nw; w++) {
                uint64_t z = 0, f = 0;
                int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;
                for (int64_t jj = 0; jj < e; jj++) {
                    int64_t j = (w << 6) + jj, p = a[j].i, q = b[j].i;
                    int zero = q == 0, m1 = q == -1;
                    z |= (uint64_t)zero << jj;
                    f |= (uint64_t)(idiv && m1 && p == INT64_MIN) << jj;
                    int64_t qq = zero || m1 ? 1 : q; /* no trap: fixed up below */
                    int64_t r = idiv ? p / qq : p % qq;
                    o[j].i = m1 ? (idiv ? (int64_t)(0 - (uint64_t)p) : 0) : r;
                }
                vb[w] &= ~z;
                ovf[w] = f;
            }
            return check_ovf(E, x, ovf, idiv ? "//" : "%");
        }
        default:
            break;
        }
        return PQT_OK;
    }
    to_float(E, xa);
    if (xb) to_float(E, xb);
    switch (x->op) {
    case XO_NEG:
        for (int64_t j = 0; j < m; j++)
            o[j].d = -a[j].d;
        break;
    case XO_ADD:
        for (int64_t j = 0; j < m; j++)
            o[j].d = a[j].d + b[j].d;
        break;
    case XO_SUB:
        for (int64_t j = 0; j < m; j++)
            o[j].d = a[j].d - b[j].d;
        break;
    case XO_MUL:
        for (int64_t j = 0; j < m; j++)
            o[j].d = a[j].d * b[j].d;
        break;
    default: /* / // %: a zero divisor is null */
        for (int64_t w = 0; w < nw; w++) {
            uint64_t z = 0;
            int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;
            for (int64_t jj = 0; jj < e; jj++)
                z |= (uint64_t)(b[(w << 6) + jj].d == 0) << jj;
            vb[w] &= ~z;
        }
        if (x->op == XO_DIV)
            for (int64_t j = 0; j < m; j++)
                o[j].d = a[j].d / b[j].d;
        else if (x->op == XO_IDIV)
            for (int64_t j = 0; j < m; j++)
                o[j].d = trunc(a[j].d / b[j].d);
        else
            for (int64_t j = 0; j < m; j++)
                o[j].d = fmod(a[j].d, b[j].d);
        break;
    }
    return PQT_OK;
}

static int64_t utf8_len(const char *s, int64_t len)
{
    int64_t c = 0;
    for (int64_t i = 0; i < len; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

static pqt_status call(const ectx *E, const xnode *x)
{
    int64_t m = E->m, nw = (m + 63) >> 6;
    xv *o = VAL(E, x);
    and_valid(E, x);
    const xnode *a0 = x->args[0];
    if (x->fn == FF_LENGTH) {
        if (a0->op == XO_LIT) {
            int64_t l = utf8_len(a0->s, a0->slen);
            for (int64_t j = 0; j < m; j++)
                o[j].i = l;
        } else {
            const pqt_scan_vec *v = &E->vecs[a0->slot];
            const int64_t *off = (const int64_t *)v->data + E->row0;
            for (int64_t j = 0; j < m; j++)
                o[j].i = utf8_len(v->bytes + off[j], off[j + 1] - off[j]);
        }
        return PQT_OK;
    }
    if (x->type == XT_INT) { /* abs, floor, ceil, round of an integer */
        const xv *a = VAL(E, a0);
        if (x->fn == FF_ABS) {
            uint64_t ovf[CW];
            for (int64_t w = 0; w < nw; w++) {
                uint64_t f = 0;
                int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;
                for (int64_t jj = 0; jj < e; jj++) {
                    int64_t j = (w << 6) + jj, v = a[j].i;
                    f |= (uint64_t)(v == INT64_MIN) << jj;
                    o[j].i = v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
                }
                ovf[w] = f;
            }
            return check_ovf(E, x, ovf, "abs");
        }
        int64_t digits = x->fn == FF_ROUND && x->nargs == 2 ? x->args[1]->i : 0;
        if (digits >= 0) {
            memcpy(o, a, (size_t)m * sizeof *o);
            return PQT_OK;
        }
        /* round to a multiple of 10^-digits, half away from zero */
        uint64_t p = 1;
        int big = 0;
        for (int64_t k = 0; k < -digits && !big; k++) {
            if (p > UINT64_MAX / 10)
                big = 1;
            else
                p *= 10;
        }
        uint64_t ovf[CW];
        for (int64_t w = 0; w < nw; w++) {
            uint64_t f = 0;
            int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;
            for (int64_t jj = 0; jj < e; jj++) {
                int64_t j = (w << 6) + jj, v = a[j].i;
                uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
                uint64_t q = big ? 0 : mag / p, rem = big ? mag : mag % p;
                if (!big && rem >= p - rem) q++;
                unsigned __int128 r = (unsigned __int128)q * p;
                int o_f = r > (unsigned __int128)INT64_MAX + (v < 0);
                f |= (uint64_t)o_f << jj;
                o[j].i = o_f ? 0 : v < 0 ? (int64_t)(0 - (uint64_t)r) : (int64_t)r;
            }
            ovf[w] = f;
        }
        return check_ovf(E, x, ovf, "round");
    }
    const xv *args[5];
    for (int32_t k = 0; k < x->nargs && k < 5; k++) {
        to_float(E, x->args[k]);
        args[k] = VAL(E, x->args[k]);
    }
    pqt_scan_func_float(x->fn, args, x->nargs, o, m);
    return PQT_OK;
}

static pqt_status eval_node(const ectx *E, const xnode *x)
{
    for (int32_t k = 0; k < x->nargs; k++)
        PQT_TRY(eval_node(E, x->args[k]));
    switch (x->op) {
    case XO_COL:
        return load_col(E, x);
    case XO_LIT:
        fill_lit(E, x);
        return PQT_OK;
    case XO_CALL:
        return call(E, x);
    default:
        return arith(E, x);
    }
}

/* sign(i - d) exactly, or 2 when d is NaN */
static inline int cmp_int_double(int64_t i, double d)
{
    if (d != d) return 2;
    if (d >= 9223372036854775808.0) return -1;
    if (d < -9223372036854775808.0) return 1;
    double t = trunc(d);
    int64_t ti = (int64_t)t;
    if (i != ti) return i < ti ? -1 : 1;
    return t < d ? -1 : t > d ? 1 : 0;
}

static inline int cmp_str(const ectx *E, const xnode *x, int64_t j, const char **s, int64_t *len)
{
    if (x->op == XO_LIT) {
        *s = x->s;
        *len = x->slen;
        return 0;
    }
    const pqt_scan_vec *v = &E->vecs[x->slot];
    const int64_t *off = (const int64_t *)v->data + E->row0;
    *s = v->bytes + off[j];
    *len = off[j + 1] - off[j];
    return 0;
}

/* sign(a - b) of row j, 2 for unordered (NaN) */
static inline int compare(const ectx *E, const xnode *xa, const xnode *xb, const xv *a, const xv *b,
                          int64_t j, int kind, int64_t fa, int64_t fb)
{
    switch (kind) {
    case 0: /* INT, BOOL, DATE */
        return (a[j].i > b[j].i) - (a[j].i < b[j].i);
    case 1: /* FLOAT */
        return a[j].d != a[j].d || b[j].d != b[j].d ? 2 : (a[j].d > b[j].d) - (a[j].d < b[j].d);
    case 2: { /* INT vs FLOAT */
        return cmp_int_double(a[j].i, b[j].d);
    }
    case 3: { /* FLOAT vs INT */
        int c = cmp_int_double(b[j].i, a[j].d);
        return c == 2 ? 2 : -c;
    }
    case 4: { /* times in two units */
        __int128 p = (__int128)a[j].i * fa, q = (__int128)b[j].i * fb;
        return (p > q) - (p < q);
    }
    default: {
        const char *s, *t;
        int64_t ls, lt;
        cmp_str(E, xa, j, &s, &ls);
        cmp_str(E, xb, j, &t, &lt);
        return pqt_scan_strcmp(s, ls, t, lt);
    }
    }
}

static void eval_cmp(const ectx *E, uint64_t *out)
{
    const fcmp *c = E->c;
    const xnode *xa = c->lhs, *xb = c->rhs;
    int64_t m = E->m, nw = (m + 63) >> 6;
    uint64_t flip = c->negate ? ~0ULL : 0;
    const uint64_t *va = VB(E, xa);
    const xv *a = VAL(E, xa);
    if (!xb) {
        for (int64_t w = 0; w < nw; w++) {
            uint64_t t = 0;
            int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;
            if (c->op == FOP_IS_NULL) {
                out[w] = (~va[w] ^ flip) & E->sel[w] & tail(m, w);
                continue;
            }
            for (int64_t jj = 0; jj < e; jj++) {
                int64_t j = (w << 6) + jj;
                int r = c->op == FOP_TRUE      ? a[j].i != 0
                        : xa->type != XT_FLOAT ? c->op == FOP_IS_FINITE
                        : c->op == FOP_IS_NAN  ? a[j].d != a[j].d
                                               : a[j].d - a[j].d == 0;
                t |= (uint64_t)r << jj;
            }
            out[w] = (t ^ flip) & va[w] & E->sel[w];
        }
        return;
    }
    const uint64_t *vb = VB(E, xb);
    const xv *b = VAL(E, xb);
    int kind, ta = xa->type, tb = xb->type;
    int64_t fa = 1, fb = 1;
    if (ta == XT_STR)
        kind = 5;
    else if (ta == XT_FLOAT && tb == XT_FLOAT)
        kind = 1;
    else if (ta == XT_INT && tb == XT_FLOAT)
        kind = 2;
    else if (ta == XT_FLOAT && tb == XT_INT)
        kind = 3;
    else if ((ta == XT_TIME || ta == XT_TIMESTAMP) && xa->unit != xb->unit) {
        kind = 4;
        int64_t ua = pqt_scan_unit_per_sec(xa->unit), ub = pqt_scan_unit_per_sec(xb->unit);
        fa = ua < ub ? ub / ua : 1;
        fb = ub < ua ? ua / ub : 1;
    } else
        kind = 0;
    int op = c->op;
    if (kind <= 1) { /* the common cases: one loop per operator, no branch per row */
#define CMP_LOOP(F, OP)                                                                            \
    for (int64_t w = 0; w < nw; w++) {                                                             \
        uint64_t s = E->sel[w] & va[w] & vb[w], t = 0;                                             \
        int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;                                         \
        const xv *pa = a + (w << 6), *pb = b + (w << 6);                                           \
        for (int64_t jj = 0; jj < e; jj++)                                                         \
            t |= (uint64_t)(pa[jj].F OP pb[jj].F) << jj;                                           \
        out[w] = (t ^ flip) & s;                                                                   \
    }
#define CMP_OPS(F)                                                                                 \
    switch (op) {                                                                                  \
    case FOP_LT:                                                                                   \
        CMP_LOOP(F, <) break;                                                                      \
    case FOP_LE:                                                                                   \
        CMP_LOOP(F, <=) break;                                                                     \
    case FOP_GT:                                                                                   \
        CMP_LOOP(F, >) break;                                                                      \
    case FOP_GE:                                                                                   \
        CMP_LOOP(F, >=) break;                                                                     \
    default:                                                                                       \
        CMP_LOOP(F, ==) break;                                                                     \
    }
        if (kind == 0) {
            CMP_OPS(i)
        } else {
            CMP_OPS(d) /* IEEE: NaN compares false */
        }
        return;
    }
    for (int64_t w = 0; w < nw; w++) {
        uint64_t s = E->sel[w] & va[w] & vb[w];
        if (!s) {
            out[w] = 0;
            continue;
        }
        uint64_t t = 0;
        int64_t e = m - (w << 6) < 64 ? m - (w << 6) : 64;
        for (int64_t jj = 0; jj < e; jj++) {
            int r = compare(E, xa, xb, a, b, (w << 6) + jj, kind, fa, fb);
            int v = r == 2         ? 0
                    : op == FOP_LT ? r < 0
                    : op == FOP_LE ? r <= 0
                    : op == FOP_GT ? r > 0
                    : op == FOP_GE ? r >= 0
                                   : r == 0;
            t |= (uint64_t)v << jj;
        }
        out[w] = (t ^ flip) & s;
    }
}

pqt_status pqt_scan_cmp_eval(const fcmp *c, const pqt_scan_vec *vecs, int64_t n,
                             const uint64_t *sel, uint64_t *out, pqt_scan_scratch *s, int muted)
{
    size_t need = (size_t)c->nres * (CH * sizeof(xv) + CW * sizeof(uint64_t));
    if (s->xcap < need) {
        void *b = pqt_realloc(s->xbuf, need);
        if (!b) {
            if (muted) return PQT_NOMEM;
            return pqt_err(PQT_NOMEM, "out of memory evaluating a filter expression (%zu bytes)",
                           need);
        }
        s->xbuf = b;
        s->xcap = need;
    }
    ectx E = {c,
              c->text,
              vecs,
              (xv *)s->xbuf,
              (uint64_t *)((char *)s->xbuf + (size_t)c->nres * CH * sizeof(xv)),
              n,
              0,
              0,
              NULL,
              muted};
    for (int64_t r0 = 0; r0 < n; r0 += CH) {
        int64_t w0 = r0 >> 6, m = n - r0 < CH ? n - r0 : CH, nw = (m + 63) >> 6;
        uint64_t any = 0;
        for (int64_t w = 0; w < nw; w++)
            any |= sel[w0 + w];
        if (!any) {
            memset(out + w0, 0, (size_t)nw * sizeof *out);
            continue;
        }
        E.row0 = r0;
        E.m = m;
        E.sel = sel + w0;
        PQT_TRY(eval_node(&E, c->lhs));
        if (c->rhs) PQT_TRY(eval_node(&E, c->rhs));
        eval_cmp(&E, out + w0);
    }
    return PQT_OK;
}

pqt_status pqt_scan_xnode_fold(xnode *x, const char *text)
{
    /* one row, the arguments' buffers 0 .. nargs - 1, the node's nargs */
    int32_t na = x->nargs;
    size_t need = (size_t)(na + 1) * (CH * sizeof(xv) + CW * sizeof(uint64_t));
    void *buf = pqt_malloc(need);
    if (!buf) return pqt_err(PQT_NOMEM, "out of memory compiling a filter expression");
    fcmp c;
    memset(&c, 0, sizeof c);
    c.nres = na + 1;
    c.text = (char *)(uintptr_t)text;
    uint64_t one = 1;
    ectx E = {
        &c, text, NULL, (xv *)buf, (uint64_t *)((char *)buf + (size_t)(na + 1) * CH * sizeof(xv)),
        1,  0,    1,    &one,      0};
    for (int32_t k = 0; k < na; k++)
        x->args[k]->res = k;
    x->res = na;
    pqt_status st = PQT_OK;
    for (int32_t k = 0; k < na; k++)
        fill_lit(&E, x->args[k]);
    st = x->op == XO_CALL ? call(&E, x) : arith(&E, x);
    xv v = VAL(&E, x)[0];
    int valid = (int)(VB(&E, x)[0] & 1);
    for (int32_t k = 0; k < na; k++)
        x->args[k]->res = -1;
    x->res = -1;
    pqt_mem_free(buf);
    if (st == PQT_RANGE) {
        /* the message says "at row 0 of the batch": a constant has no row */
        char msg[600];
        snprintf(msg, sizeof msg, "%s", pqt_errmsg());
        char *at = strstr(msg, " at row ");
        if (at) *at = '\0';
        return pqt_err(PQT_BAD_FILTER, "%s", msg);
    }
    if (st != PQT_OK || !valid) return st;
    for (int32_t k = 0; k < na; k++)
        pqt_scan_xnode_free(x->args[k]);
    pqt_mem_free(x->args);
    x->args = NULL;
    x->nargs = 0;
    x->op = XO_LIT;
    x->i = v.i;
    x->d = v.d;
    if (x->type == XT_FLOAT) x->i = 0;
    return PQT_OK;
}
