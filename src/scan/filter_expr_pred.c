/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_pred.c - predicates over expressions (layer: scan).
 *
 * docs/filters.md, "Grammar": predicate := sum cmp sum | sum IS [NOT] NULL | sum [NOT]
 * BETWEEN sum AND sum | column [NOT] IN list | column [NOT] LIKE|ILIKE 'p' | sum
 * word-operator | sum (a bool). A predicate `column op literal` (or `literal op column`,
 * flipped) comes out as the FN_CLAUSE the clause grammar would build, so it keeps every
 * pushdown; BETWEEN becomes two predicates under an AND, NOT BETWEEN / NOT LIKE a NOT above
 * them.
 */
#include <stdio.h>
#include <string.h>

#include "scan/filter_expr_parse.h"
#include "util/mem.h"

#define oom pqt_scan_p_oom

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}
static int is_sp(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int flip(int op)
{
    switch (op) {
    case FOP_LT:
        return FOP_GT;
    case FOP_LE:
        return FOP_GE;
    case FOP_GT:
        return FOP_LT;
    case FOP_GE:
        return FOP_LE;
    default:
        return op;
    }
}

static fnode *node(int type, int op, int32_t lo, int32_t hi)
{
    fnode *n = pqt_calloc(1, sizeof *n);
    if (!n) return NULL;
    n->type = (uint8_t)type;
    n->op = (uint8_t)op;
    n->lo = lo;
    n->hi = hi;
    n->set_idx = -1;
    return n;
}

/* The predicate a op b (b NULL for one-sided ops); takes a and b. A column against a literal
 * is a plain clause. */
static pqt_status make_pred(xparser *X, pexpr *a, int op, int32_t op_lo, pexpr *b, int32_t hi,
                            fnode **ret)
{
    fnode *n = node(FN_PRED, op, X->lo, hi);
    if (!n) {
        pqt_scan_pexpr_free(a);
        pqt_scan_pexpr_free(b);
        return oom();
    }
    n->op_lo = op_lo;
    n->col_lo = a->lo;
    pexpr *col = NULL, *lit = NULL;
    if (b && a->op == XO_COL && b->op == XO_LIT)
        col = a, lit = b;
    else if (b && a->op == XO_LIT && b->op == XO_COL)
        col = b, lit = a, op = flip(op);
    if (!b && a->op == XO_COL && op != FOP_TRUE) col = a;
    if (col) {
        n->type = FN_CLAUSE;
        n->op = (uint8_t)op;
        n->col = col->name;
        n->col_lo = col->lo;
        col->name = NULL;
        if (lit) {
            n->val = lit->lit;
            lit->lit.s = NULL;
        }
        pqt_scan_pexpr_free(a);
        pqt_scan_pexpr_free(b);
    } else {
        n->xl = a;
        n->xr = b;
    }
    *ret = n;
    return PQT_OK;
}

static pqt_status wrap(int type, fnode **kids, int nk, int32_t lo, int32_t hi, fnode **ret)
{
    fnode *n = node(type, 0, lo, hi);
    fnode **k = n ? pqt_malloc((size_t)nk * sizeof *k) : NULL;
    if (!k) {
        pqt_mem_free(n);
        for (int i = 0; i < nk; i++)
            pqt_scan_node_free(kids[i]);
        return oom();
    }
    memcpy(k, kids, (size_t)nk * sizeof *k);
    n->kids = k;
    n->nkids = nk;
    *ret = n;
    return PQT_OK;
}

static pqt_status parse_between(xparser *X, pexpr *a, int negate, int32_t op_lo, fnode **ret)
{
    const char *t = X->P->t;
    pexpr *lo = NULL, *hi = NULL, *a2 = NULL;
    pqt_status st = pqt_scan_xsum(X, &lo);
    if (st == PQT_OK && !pqt_scan_xword_is(t, &X->k, "and"))
        st = X->k.type == XK_COMMA || X->k.type == XK_END || X->k.type == XK_RP ||
                     X->k.type == XK_IDENT
                 ? XFAIL(X, X->k.lo, X->k.hi,
                         ": between takes 'and' between its bounds (x between 1 and 2)%s", "")
                 : pqt_scan_xunexpected(X, "'and'");
    if (st == PQT_OK) {
        pqt_scan_xnext(X);
        st = pqt_scan_xsum(X, &hi);
    }
    if (st == PQT_OK && !(a2 = pqt_scan_pexpr_copy(a))) st = oom();
    if (st == PQT_OK) st = pqt_scan_p_count(X->P, op_lo); /* the second comparison */
    if (st != PQT_OK) {
        pqt_scan_pexpr_free(a);
        pqt_scan_pexpr_free(a2);
        pqt_scan_pexpr_free(lo);
        pqt_scan_pexpr_free(hi);
        return st;
    }
    int32_t end = hi->hi;
    fnode *k[2] = {NULL, NULL};
    st = make_pred(X, a, FOP_GE, op_lo, lo, end, &k[0]);
    if (st != PQT_OK) {
        pqt_scan_pexpr_free(a2);
        pqt_scan_pexpr_free(hi);
        return st;
    }
    st = make_pred(X, a2, FOP_LE, op_lo, hi, end, &k[1]);
    if (st != PQT_OK) {
        pqt_scan_node_free(k[0]);
        return st;
    }
    fnode *and = NULL;
    PQT_TRY(wrap(FN_AND, k, 2, X->lo, end, &and));
    if (!negate) {
        *ret = and;
        return PQT_OK;
    }
    return wrap(FN_NOT, &and, 1, X->lo, end, ret);
}

/* A LIKE / ILIKE pattern: a quoted string (ESCAPE is not taken yet). */
static pqt_status parse_like(xparser *X, pexpr *a, int op, int negate, int32_t op_lo, fnode **ret)
{
    const char *t = X->P->t;
    if (a->op != XO_COL) {
        pqt_scan_pexpr_free(a);
        return XFAIL(X, op_lo, X->k.hi, ": like and ilike apply to a string column%s", "");
    }
    if (X->k.type != XK_STR) {
        pqt_scan_pexpr_free(a);
        return pqt_scan_xunexpected(X, "a quoted pattern after like");
    }
    pexpr *p = NULL;
    pqt_status st = pqt_scan_xprimary(X, &p);
    if (st == PQT_OK && pqt_scan_xword_is(t, &X->k, "escape")) {
        st = XFAIL(X, X->k.lo, X->k.hi, ": ESCAPE is not supported yet%s", "");
        pqt_scan_pexpr_free(p);
    }
    if (st != PQT_OK) {
        pqt_scan_pexpr_free(a);
        return st;
    }
    fnode *n = NULL;
    PQT_TRY(make_pred(X, a, op, op_lo, p, p->hi, &n));
    if (!negate) {
        *ret = n;
        return PQT_OK;
    }
    return wrap(FN_NOT, &n, 1, X->lo, n->hi, ret);
}

/* [NOT] IN and the word operators on a column: the clause grammar's value parsing. */
static pqt_status column_op(xparser *X, pexpr *a, int op, int negate, int32_t op_lo, int32_t op_hi,
                            fnode **ret)
{
    if (a->op != XO_COL) {
        pqt_scan_pexpr_free(a);
        return XFAIL(X, op_lo, op_hi,
                     ": '%.*s' applies to a column, not to an expression (compare the expression "
                     "instead, e.g. with ==)",
                     (int)(op_hi - op_lo), X->P->t + op_lo);
    }
    fnode *c = node(FN_CLAUSE, op, X->lo, op_hi);
    if (!c) {
        pqt_scan_pexpr_free(a);
        return oom();
    }
    c->col = a->name;
    c->col_lo = a->lo;
    c->op_lo = op_lo;
    a->name = NULL;
    pqt_scan_pexpr_free(a);
    int32_t end = 0;
    pqt_status st = pqt_scan_p_value(X->P, c, X->lo, op_lo, op_hi, &end);
    if (st != PQT_OK) {
        pqt_scan_node_free(c);
        return st;
    }
    c->hi = end;
    X->k.hi = end;
    pqt_scan_xnext(X);
    if (!negate) {
        *ret = c;
        return PQT_OK;
    }
    return wrap(FN_NOT, &c, 1, X->lo, end, ret);
}

static pqt_status predicate(xparser *X, fnode **ret)
{
    const char *t = X->P->t;
    pexpr *a = NULL;
    PQT_TRY(pqt_scan_p_count(X->P, X->lo));
    PQT_TRY(pqt_scan_xsum(X, &a));
    xtok k = X->k;
    if (k.type == XK_CMP) {
        pqt_scan_xnext(X);
        if (X->k.type == XK_END || X->k.type == XK_RP || pqt_scan_xword_is(t, &X->k, "and") ||
            pqt_scan_xword_is(t, &X->k, "or")) {
            pqt_scan_pexpr_free(a);
            return XFAIL(X, k.lo, k.hi, " is missing a value after '%.*s'", (int)(k.hi - k.lo),
                         t + k.lo);
        }
        pexpr *b = NULL;
        pqt_status st = pqt_scan_xsum(X, &b);
        if (st != PQT_OK) {
            pqt_scan_pexpr_free(a);
            return st;
        }
        return make_pred(X, a, k.op, k.lo, b, b->hi, ret);
    }
    if (k.type == XK_IDENT) {
        int negate = 0;
        int32_t op_lo = k.lo;
        if (pqt_scan_xword_is(t, &k, "is")) {
            pqt_scan_xnext(X);
            if (pqt_scan_xword_is(t, &X->k, "not")) {
                negate = 1;
                pqt_scan_xnext(X);
            }
            if (!pqt_scan_xword_is(t, &X->k, "null")) {
                pqt_scan_pexpr_free(a);
                return XFAIL(X, op_lo, X->k.hi,
                             ": 'is' takes null or not null (x is null, x is not null; is_nan "
                             "and is_finite test floats)%s",
                             "");
            }
            int32_t hi = X->k.hi;
            pqt_scan_xnext(X);
            int op = negate ? FOP_IS_NOT_NULL : FOP_IS_NULL;
            return make_pred(X, a, op, op_lo, NULL, hi, ret);
        }
        if (pqt_scan_xword_is(t, &k, "not")) {
            pqt_scan_xnext(X);
            negate = 1;
            k = X->k;
        }
        if (pqt_scan_xword_is(t, &k, "between")) {
            pqt_scan_xnext(X);
            return parse_between(X, a, negate, op_lo, ret);
        }
        if (pqt_scan_xword_is(t, &k, "like") || pqt_scan_xword_is(t, &k, "ilike")) {
            int op = lower((unsigned char)t[k.lo]) == 'i' ? FOP_ILIKE : FOP_LIKE;
            pqt_scan_xnext(X);
            return parse_like(X, a, op, negate, op_lo, ret);
        }
        if (pqt_scan_xword_is(t, &k, "in"))
            return column_op(X, a, FOP_IN, negate, op_lo, k.hi, ret);
        int wop = negate ? -1 : pqt_scan_match_wordop(t + k.lo, k.hi - k.lo);
        if (wop >= FOP_IS_NAN && wop <= FOP_IS_NOT_FINITE && a->op != XO_COL) {
            pqt_scan_xnext(X);
            return make_pred(X, a, wop, k.lo, NULL, k.hi, ret);
        }
        if (wop >= 0) return column_op(X, a, wop, 0, k.lo, k.hi, ret);
        if (negate) {
            pqt_scan_pexpr_free(a);
            return XFAIL(X, op_lo, k.hi, ": 'not' after a value takes between, in, like or ilike%s",
                         "");
        }
        if (!pqt_scan_xword_is(t, &k, "and") && !pqt_scan_xword_is(t, &k, "or")) {
            pqt_scan_pexpr_free(a);
            return XFAIL(X, k.lo, k.hi, " has an unknown operator '%.*s'",
                         pqt_scan_xshow_len(k.lo, k.hi), t + k.lo);
        }
    }
    if (k.type == XK_BAD && k.lo < X->end &&
        !(t[k.lo] == '"' || t[k.lo] == '\'' || t[k.lo] == '`')) {
        pqt_scan_pexpr_free(a);
        int32_t e = k.lo;
        while (e < X->end && !is_sp((unsigned char)t[e]) && e - k.lo < 40)
            e++;
        return XFAIL(X, k.lo, e, " has an unknown operator '%.*s'", pqt_scan_xshow_len(k.lo, e),
                     t + k.lo);
    }
    /* a bare boolean expression: a bool column, isnan(x), cone(...) */
    return make_pred(X, a, FOP_TRUE, a->lo, NULL, a->hi, ret);
}

pqt_status pqt_scan_p_pred(parser *P, fnode **ret)
{
    xparser X;
    memset(&X, 0, sizeof X);
    X.P = P;
    X.lo = P->tok.lo;
    X.end = P->n;
    pqt_scan_xlex(P->t, P->n, P->tok.lo, &X.k);
    fnode *n = NULL;
    PQT_TRY(predicate(&X, &n));
    pqt_status st = pqt_scan_p_lex(P, X.k.lo, &P->tok);
    if (st != PQT_OK) {
        pqt_scan_node_free(n);
        return st;
    }
    *ret = n;
    return PQT_OK;
}

pqt_status pqt_scan_pexpr_span(const char *text, int32_t nbytes, int32_t lo, int32_t hi,
                               pexpr **ret)
{
    parser P;
    memset(&P, 0, sizeof P);
    P.t = text;
    P.n = nbytes;
    pqt_scan_rule_show(text, nbytes, P.show, sizeof P.show);
    xparser X;
    memset(&X, 0, sizeof X);
    X.P = &P;
    X.lo = lo;
    X.end = hi;
    pqt_scan_xlex(text, hi, lo, &X.k);
    pexpr *x = NULL;
    PQT_TRY(pqt_scan_xsum(&X, &x));
    if (X.k.type != XK_END) {
        pqt_scan_pexpr_free(x);
        return pqt_scan_xunexpected(&X, "an operator");
    }
    *ret = x;
    return PQT_OK;
}
