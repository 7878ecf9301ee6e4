/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_parse.c - predicates over expressions, the grammar's lower half (layer: scan).
 *
 * docs/filters.md, "Grammar": predicate := sum [cmp sum | IS [NOT] NULL | [NOT] BETWEEN sum
 * AND sum | [NOT] IN list | [NOT] LIKE|ILIKE string | word-operator], sum := product {(+|-)
 * product}, product := unary {(*|/|//|%) unary}, unary := - unary | primary, primary :=
 * number | string | ISO date/time | true | false | name | `name` | name(args) | ( sum ).
 * Tokens are split here at the operator characters (the clause grammar's words run to the
 * next space). SQL keywords are case-insensitive. A predicate `column op literal` (or
 * `literal op column`, flipped) comes out as the FN_CLAUSE the clause grammar would build,
 * so it keeps every pushdown; BETWEEN becomes two predicates under an AND.
 */
#include <stdio.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_parse.h"
#include "util/mem.h"

enum {
    XK_END = 0,
    XK_LP,
    XK_RP,
    XK_COMMA,
    XK_NUM,
    XK_STR,
    XK_ISO,
    XK_IDENT,
    XK_BQ,
    XK_ARITH,
    XK_CMP,
    XK_BAD
};

typedef struct xtok {
    int type;
    int op; /* XK_ARITH: XO_*; XK_CMP: FOP_* */
    int32_t lo, hi;
} xtok;

#define oom pqt_scan_p_oom

static int is_sp(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static int is_dig(int c)
{
    return c >= '0' && c <= '9';
}
static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}
static int cmp_char(int c)
{
    return c == '<' || c == '>' || c == '=' || c == '!';
}

static int32_t quote_end(const char *t, int32_t n, int32_t at)
{
    char q = t[at];
    for (int32_t i = at + 1; i < n; i++) {
        if (t[i] != q) continue;
        if (i + 1 < n && t[i + 1] == q) {
            i++;
            continue;
        }
        return i + 1;
    }
    return -1;
}

/* A number's extent: digits, '.', exponent with its sign, hex digits, then any name
 * characters glued on (so 1d3 or 12abc is one token the literal rules judge). */
static int32_t number_end(const char *t, int32_t n, int32_t at)
{
    int32_t e = at;
    int hex = e + 1 < n && t[e] == '0' && lower((unsigned char)t[e + 1]) == 'x';
    while (e < n) {
        int c = (unsigned char)t[e];
        int x = lower(c);
        if (pqt_scan_is_identchar(c)) {
            e++;
        } else if ((c == '+' || c == '-') && e > at &&
                   (hex ? lower((unsigned char)t[e - 1]) == 'p'
                        : (x = lower((unsigned char)t[e - 1])) == 'e' || x == 'd')) {
            e++;
        } else {
            break;
        }
    }
    return e;
}

/* The token at byte at. A quoted run the rule ends inside is XK_BAD (lo at the quote). */
static void xlex(const char *t, int32_t n, int32_t at, xtok *k)
{
    while (at < n && is_sp((unsigned char)t[at]))
        at++;
    k->lo = at;
    k->op = 0;
    if (at >= n) {
        k->type = XK_END;
        k->hi = at;
        return;
    }
    int c = (unsigned char)t[at];
    k->hi = at + 1;
    switch (c) {
    case '(':
        k->type = XK_LP;
        return;
    case ')':
        k->type = XK_RP;
        return;
    case ',':
        k->type = XK_COMMA;
        return;
    case '+':
        k->type = XK_ARITH;
        k->op = XO_ADD;
        return;
    case '-':
        k->type = XK_ARITH;
        k->op = XO_SUB;
        return;
    case '*':
        k->type = XK_ARITH;
        k->op = XO_MUL;
        return;
    case '%':
        k->type = XK_ARITH;
        k->op = XO_MOD;
        return;
    case '/':
        if (at + 1 < n && t[at + 1] == '/') {
            k->type = XK_ARITH;
            k->op = XO_IDIV;
            k->hi = at + 2;
        } else if (at + 1 < n && t[at + 1] == '=') {
            k->type = XK_CMP;
            k->op = FOP_NE;
            k->hi = at + 2;
        } else {
            k->type = XK_ARITH;
            k->op = XO_DIV;
        }
        return;
    case '"':
    case '\'':
    case '`': {
        int32_t e = quote_end(t, n, at);
        k->type = e < 0 ? XK_BAD : c == '`' ? XK_BQ : XK_STR;
        k->hi = e < 0 ? n : e;
        return;
    }
    default:
        break;
    }
    if (cmp_char(c)) {
        int32_t e = at;
        while (e < n && cmp_char((unsigned char)t[e]))
            e++;
        int op = -1;
        int len = pqt_scan_match_symop(t + at, e - at, &op);
        k->type = len == e - at ? XK_CMP : XK_BAD;
        k->op = op;
        k->hi = e;
        return;
    }
    if (is_dig(c) || (c == '.' && at + 1 < n && is_dig((unsigned char)t[at + 1]))) {
        int32_t iso = pqt_scan_lex_iso(t, n, at);
        k->type = iso ? XK_ISO : XK_NUM;
        k->hi = iso ? at + iso : number_end(t, n, at);
        return;
    }
    if (pqt_scan_is_identchar(c)) {
        int32_t e = at;
        while (e < n && pqt_scan_is_identchar((unsigned char)t[e]))
            e++;
        k->type = XK_IDENT;
        k->hi = e;
        return;
    }
    k->type = XK_BAD;
}

static int word_is(const char *t, const xtok *k, const char *w)
{
    int32_t len = k->hi - k->lo;
    if (k->type != XK_IDENT || (int32_t)strlen(w) != len) return 0;
    for (int32_t i = 0; i < len; i++)
        if (lower((unsigned char)t[k->lo + i]) != w[i]) return 0;
    return 1;
}

typedef struct xparser {
    parser *P;
    int32_t lo;  /* the predicate's first byte */
    int32_t end; /* the rule end, or the span end for pqt_scan_pexpr_span */
    xtok k;
} xparser;

static int show_len(int32_t lo, int32_t hi)
{
    return hi - lo > 40 ? 40 : (int)(hi - lo);
}

#define XFAIL(X, at, hi, fmt, ...)                                                                 \
    pqt_scan_fail((X)->P->t, (at), "filter rule '%.*s'" fmt, (int)((hi) - (X)->lo),                \
                  (X)->P->t + (X)->lo, __VA_ARGS__)

static void next(xparser *X)
{
    xlex(X->P->t, X->end, X->k.hi, &X->k);
}

static pqt_status unexpected(xparser *X, const char *what)
{
    const char *t = X->P->t;
    xtok k = X->k;
    if (k.type == XK_END) return XFAIL(X, k.lo, k.hi, " ends where %s is expected", what);
    if (k.type == XK_BAD && (t[k.lo] == '"' || t[k.lo] == '\'' || t[k.lo] == '`'))
        return XFAIL(X, k.lo, k.hi, " has an unterminated %s",
                     t[k.lo] == '`' ? "backquoted name" : "quoted value");
    return XFAIL(X, k.lo, k.hi, ": expected %s but found '%.*s'", what, show_len(k.lo, k.hi),
                 t + k.lo);
}

void pqt_scan_pexpr_free(pexpr *x)
{
    if (!x) return;
    for (int32_t k = 0; k < x->nargs; k++)
        pqt_scan_pexpr_free(x->args[k]);
    pqt_mem_free(x->args);
    pqt_mem_free(x->name);
    pqt_mem_free(x->lit.s);
    pqt_mem_free(x);
}

static pexpr *pexpr_copy(const pexpr *x)
{
    pexpr *c = pqt_calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *x;
    c->args = NULL;
    c->nargs = 0;
    c->name = NULL;
    c->lit.s = NULL;
    int ok = 1;
    if (x->name && !(c->name = pqt_strdup(x->name))) ok = 0;
    if (ok && x->lit.s && !(c->lit.s = pqt_strndup(x->lit.s, (size_t)x->lit.len))) ok = 0;
    if (ok && x->nargs && !(c->args = pqt_calloc((size_t)x->nargs, sizeof *c->args))) ok = 0;
    for (int32_t k = 0; ok && k < x->nargs; k++) {
        if (!(c->args[k] = pexpr_copy(x->args[k])))
            ok = 0;
        else
            c->nargs++;
    }
    if (!ok) {
        pqt_scan_pexpr_free(c);
        return NULL;
    }
    return c;
}

static pqt_status mk(xparser *X, int op, int32_t lo, int32_t hi, pexpr **ret)
{
    (void)X;
    pexpr *x = pqt_calloc(1, sizeof *x);
    if (!x) return oom();
    x->op = (uint8_t)op;
    x->lo = lo;
    x->hi = hi;
    *ret = x;
    return PQT_OK;
}

static pqt_status parse_sum(xparser *X, pexpr **ret);

/* A literal word (number, true/false, inf) or the reason it is none; 1 if it is a literal. */
static pqt_status literal_word(xparser *X, int number, pexpr **ret, int *is_lit)
{
    const char *t = X->P->t, *why = NULL;
    xtok k = X->k;
    flit lit;
    *is_lit = 0;
    if (pqt_scan_lit_bare(t + k.lo, k.hi - k.lo, 1, &lit, &why) != 0) {
        if (!number && !word_is(t, &k, "nan")) return PQT_OK;
        return XFAIL(X, k.lo, k.hi, ": '%.*s' %s", show_len(k.lo, k.hi), t + k.lo, why);
    }
    if (k.hi - k.lo > PQT_FILTER_MAX_VALUE_NBYTES)
        return XFAIL(X, k.lo, k.hi, ": a value is longer than %d characters",
                     PQT_FILTER_MAX_VALUE_NBYTES);
    PQT_TRY(mk(X, XO_LIT, k.lo, k.hi, ret));
    lit.lo = k.lo;
    lit.hi = k.hi;
    (*ret)->lit = lit;
    *is_lit = 1;
    next(X);
    return PQT_OK;
}

static pqt_status parse_call(xparser *X, pexpr **ret)
{
    const char *t = X->P->t;
    xtok name = X->k;
    int fn = pqt_scan_func_find(t + name.lo, name.hi - name.lo);
    if (fn < 0) {
        int best = -1, bd = 1 << 30;
        for (int f = 0; f < FF_COUNT; f++) {
            int d = pqt_scan_func_distance(t + name.lo, name.hi - name.lo, f);
            if (d < bd) bd = d, best = f;
        }
        return XFAIL(X, name.lo, name.hi, ": unknown function '%.*s' (did you mean '%s'?)",
                     show_len(name.lo, name.hi), t + name.lo, pqt_scan_func_name(best));
    }
    PQT_TRY(pqt_scan_p_level(X->P, name.lo));
    PQT_TRY(pqt_scan_p_count(X->P, name.lo));
    pexpr *x = NULL;
    PQT_TRY(mk(X, XO_CALL, name.lo, name.hi, &x));
    x->fn = (int16_t)fn;
    int32_t cap = 0;
    pqt_status st = PQT_OK;
    next(X); /* '(' */
    next(X);
    if (X->k.type != XK_RP) {
        for (;;) {
            pexpr *a = NULL;
            if ((st = parse_sum(X, &a)) != PQT_OK) goto fail;
            if (x->nargs == cap) {
                cap = cap ? 2 * cap : 4;
                pexpr **na = pqt_realloc(x->args, (size_t)cap * sizeof *na);
                if (!na) {
                    pqt_scan_pexpr_free(a);
                    st = oom();
                    goto fail;
                }
                x->args = na;
            }
            x->args[x->nargs++] = a;
            if (X->k.type == XK_COMMA) {
                next(X);
                continue;
            }
            if (X->k.type == XK_RP) break;
            st = unexpected(X, "',' or ')' in the arguments");
            goto fail;
        }
    }
    int mn, mx;
    pqt_scan_func_arity(fn, &mn, &mx);
    if (x->nargs < mn || x->nargs > mx) {
        char want[32];
        if (mn == mx)
            snprintf(want, sizeof want, "%d", mn);
        else
            snprintf(want, sizeof want, "%d or %d", mn, mx);
        st = XFAIL(X, name.lo, X->k.hi, ": %s() takes %s argument%s, not %d",
                   pqt_scan_func_name(fn), want, mx == 1 ? "" : "s", (int)x->nargs);
        goto fail;
    }
    x->hi = X->k.hi;
    X->P->depth--;
    next(X);
    *ret = x;
    return PQT_OK;
fail:
    pqt_scan_pexpr_free(x);
    return st;
}

static pqt_status parse_primary(xparser *X, pexpr **ret)
{
    const char *t = X->P->t;
    xtok k = X->k;
    int is_lit = 0;
    switch (k.type) {
    case XK_NUM:
        return literal_word(X, 1, ret, &is_lit);
    case XK_STR:
    case XK_ISO: {
        if (k.hi - k.lo - 2 * (k.type == XK_STR) > PQT_FILTER_MAX_VALUE_NBYTES)
            return XFAIL(X, k.lo, k.hi, ": a value is longer than %d characters",
                         PQT_FILTER_MAX_VALUE_NBYTES);
        PQT_TRY(mk(X, XO_LIT, k.lo, k.hi, ret));
        flit *l = &(*ret)->lit;
        l->cls = FLIT_STR;
        l->lo = k.lo;
        l->hi = k.hi;
        if (k.type == XK_STR) {
            ftok q = {TK_QUOTED, k.lo, k.hi};
            l->s = pqt_scan_unquote(t, &q, &l->len);
        } else {
            l->s = pqt_strndup(t + k.lo, (size_t)(k.hi - k.lo));
            l->len = k.hi - k.lo;
        }
        if (!l->s) {
            pqt_scan_pexpr_free(*ret);
            *ret = NULL;
            return oom();
        }
        next(X);
        return PQT_OK;
    }
    case XK_IDENT: {
        xtok after;
        xlex(t, X->end, k.hi, &after);
        if (after.type == XK_LP) return parse_call(X, ret);
        PQT_TRY(literal_word(X, 0, ret, &is_lit));
        if (is_lit) return PQT_OK;
        if (k.hi - k.lo > PQT_FILTER_MAX_NAME_NBYTES)
            return pqt_scan_fail(t, k.lo,
                                 "filter rule exceeds an internal length limit: %s (a column "
                                 "name holds at most %d characters, a value %d)",
                                 X->P->show, PQT_FILTER_MAX_NAME_NBYTES,
                                 PQT_FILTER_MAX_VALUE_NBYTES);
        PQT_TRY(mk(X, XO_COL, k.lo, k.hi, ret));
        if (!((*ret)->name = pqt_strndup(t + k.lo, (size_t)(k.hi - k.lo)))) goto nomem;
        next(X);
        return PQT_OK;
    }
    case XK_BQ: {
        ftok q = {TK_BQUOTED, k.lo, k.hi};
        int64_t len = 0;
        PQT_TRY(mk(X, XO_COL, k.lo, k.hi, ret));
        (*ret)->quoted = 1;
        if (!((*ret)->name = pqt_scan_unquote(t, &q, &len))) goto nomem;
        if (len == 0 || len > PQT_FILTER_MAX_NAME_NBYTES) {
            pqt_scan_pexpr_free(*ret);
            *ret = NULL;
            if (len == 0)
                return XFAIL(X, k.lo, k.hi, ": the backquoted column name is empty%s", "");
            return pqt_scan_fail(t, k.lo, "filter rule exceeds an internal length limit: %s",
                                 X->P->show);
        }
        next(X);
        return PQT_OK;
    }
    case XK_LP: {
        PQT_TRY(pqt_scan_p_level(X->P, k.lo));
        next(X);
        pexpr *x = NULL;
        PQT_TRY(parse_sum(X, &x));
        if (X->k.type != XK_RP) {
            pqt_scan_pexpr_free(x);
            return unexpected(X, "')'");
        }
        X->P->depth--;
        x->lo = k.lo; /* the span takes the parentheses (messages quote them) */
        x->hi = X->k.hi;
        next(X);
        *ret = x;
        return PQT_OK;
    }
    default:
        return unexpected(X, "a value, a column or '('");
    }
nomem:
    pqt_scan_pexpr_free(*ret);
    *ret = NULL;
    return oom();
}

static pqt_status parse_unary(xparser *X, pexpr **ret)
{
    if (X->k.type != XK_ARITH || X->k.op != XO_SUB) return parse_primary(X, ret);
    int32_t lo = X->k.lo;
    PQT_TRY(pqt_scan_p_level(X->P, lo));
    next(X);
    if (word_is(X->P->t, &X->k, "nan")) /* -nan is one word to its reader */
        return XFAIL(X, lo, X->k.hi,
                     ": '%.*s' is not a value; use is_nan / is_not_nan to test "
                     "for NaN",
                     show_len(lo, X->k.hi), X->P->t + lo);
    pexpr *a = NULL;
    PQT_TRY(parse_unary(X, &a));
    X->P->depth--;
    if (a->op == XO_LIT && a->lit.cls == FLIT_NUM) {
        /* a negative number is one literal (v > -2 stays a plain clause) */
        flit *l = &a->lit;
        if (l->is_u64 && l->u == (UINT64_C(1) << 63)) {
            l->is_u64 = 0;
            l->is_int = 1;
            l->i = INT64_MIN;
        } else if (l->is_int && l->i != INT64_MIN) {
            l->i = -l->i;
        } else {
            l->is_int = l->is_u64 = 0;
        }
        l->d = -l->d;
        l->lo = a->lo = lo;
        *ret = a;
        return PQT_OK;
    }
    pqt_status st = pqt_scan_p_count(X->P, lo);
    pexpr *x = NULL;
    if (st == PQT_OK) st = mk(X, XO_NEG, lo, a->hi, &x);
    if (st != PQT_OK) {
        pqt_scan_pexpr_free(a);
        return st;
    }
    x->args = pqt_malloc(sizeof *x->args);
    if (!x->args) {
        pqt_scan_pexpr_free(a);
        pqt_scan_pexpr_free(x);
        return oom();
    }
    x->args[0] = a;
    x->nargs = 1;
    *ret = x;
    return PQT_OK;
}

static pqt_status binary(xparser *X, int op, pexpr *a, pexpr *b, pexpr **ret)
{
    pexpr *x = NULL;
    pqt_status st = pqt_scan_p_count(X->P, a->hi);
    if (st == PQT_OK) st = mk(X, op, a->lo, b->hi, &x);
    if (st == PQT_OK && !(x->args = pqt_malloc(2 * sizeof *x->args))) st = oom();
    if (st != PQT_OK) {
        pqt_scan_pexpr_free(a);
        pqt_scan_pexpr_free(b);
        pqt_scan_pexpr_free(x);
        return st;
    }
    x->args[0] = a;
    x->args[1] = b;
    x->nargs = 2;
    *ret = x;
    return PQT_OK;
}

static pqt_status parse_product(xparser *X, pexpr **ret)
{
    pexpr *a = NULL;
    PQT_TRY(parse_unary(X, &a));
    while (X->k.type == XK_ARITH && X->k.op != XO_ADD && X->k.op != XO_SUB) {
        int op = X->k.op;
        next(X);
        pexpr *b = NULL;
        pqt_status st = parse_unary(X, &b);
        if (st != PQT_OK) {
            pqt_scan_pexpr_free(a);
            return st;
        }
        PQT_TRY(binary(X, op, a, b, &a));
    }
    *ret = a;
    return PQT_OK;
}

static pqt_status parse_sum(xparser *X, pexpr **ret)
{
    pexpr *a = NULL;
    PQT_TRY(parse_product(X, &a));
    while (X->k.type == XK_ARITH && (X->k.op == XO_ADD || X->k.op == XO_SUB)) {
        int op = X->k.op;
        next(X);
        pexpr *b = NULL;
        pqt_status st = parse_product(X, &b);
        if (st != PQT_OK) {
            pqt_scan_pexpr_free(a);
            return st;
        }
        PQT_TRY(binary(X, op, a, b, &a));
    }
    *ret = a;
    return PQT_OK;
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
    pqt_status st = parse_sum(X, &lo);
    if (st == PQT_OK && !word_is(t, &X->k, "and"))
        st = X->k.type == XK_COMMA || X->k.type == XK_END || X->k.type == XK_RP ||
                     X->k.type == XK_IDENT
                 ? XFAIL(X, X->k.lo, X->k.hi,
                         ": between takes 'and' between its bounds (x between 1 and 2)%s", "")
                 : unexpected(X, "'and'");
    if (st == PQT_OK) {
        next(X);
        st = parse_sum(X, &hi);
    }
    if (st == PQT_OK && !(a2 = pexpr_copy(a))) st = oom();
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
        return unexpected(X, "a quoted pattern after like");
    }
    pexpr *p = NULL;
    pqt_status st = parse_primary(X, &p);
    if (st == PQT_OK && word_is(t, &X->k, "escape")) {
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
    next(X);
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
    PQT_TRY(parse_sum(X, &a));
    xtok k = X->k;
    if (k.type == XK_CMP) {
        next(X);
        if (X->k.type == XK_END || X->k.type == XK_RP || word_is(t, &X->k, "and") ||
            word_is(t, &X->k, "or")) {
            pqt_scan_pexpr_free(a);
            return XFAIL(X, k.lo, k.hi, " is missing a value after '%.*s'", (int)(k.hi - k.lo),
                         t + k.lo);
        }
        pexpr *b = NULL;
        pqt_status st = parse_sum(X, &b);
        if (st != PQT_OK) {
            pqt_scan_pexpr_free(a);
            return st;
        }
        return make_pred(X, a, k.op, k.lo, b, b->hi, ret);
    }
    if (k.type == XK_IDENT) {
        int negate = 0;
        int32_t op_lo = k.lo;
        if (word_is(t, &k, "is")) {
            next(X);
            if (word_is(t, &X->k, "not")) {
                negate = 1;
                next(X);
            }
            if (!word_is(t, &X->k, "null")) {
                pqt_scan_pexpr_free(a);
                return XFAIL(X, op_lo, X->k.hi,
                             ": 'is' takes null or not null (x is null, x is not null; is_nan "
                             "and is_finite test floats)%s",
                             "");
            }
            int32_t hi = X->k.hi;
            next(X);
            int op = negate ? FOP_IS_NOT_NULL : FOP_IS_NULL;
            return make_pred(X, a, op, op_lo, NULL, hi, ret);
        }
        if (word_is(t, &k, "not")) {
            next(X);
            negate = 1;
            k = X->k;
        }
        if (word_is(t, &k, "between")) {
            next(X);
            return parse_between(X, a, negate, op_lo, ret);
        }
        if (word_is(t, &k, "like") || word_is(t, &k, "ilike")) {
            int op = lower((unsigned char)t[k.lo]) == 'i' ? FOP_ILIKE : FOP_LIKE;
            next(X);
            return parse_like(X, a, op, negate, op_lo, ret);
        }
        if (word_is(t, &k, "in")) return column_op(X, a, FOP_IN, negate, op_lo, k.hi, ret);
        int wop = negate ? -1 : pqt_scan_match_wordop(t + k.lo, k.hi - k.lo);
        if (wop >= FOP_IS_NAN && wop <= FOP_IS_NOT_FINITE && a->op != XO_COL) {
            next(X);
            return make_pred(X, a, wop, k.lo, NULL, k.hi, ret);
        }
        if (wop >= 0) return column_op(X, a, wop, 0, k.lo, k.hi, ret);
        if (negate) {
            pqt_scan_pexpr_free(a);
            return XFAIL(X, op_lo, k.hi, ": 'not' after a value takes between, in, like or ilike%s",
                         "");
        }
        if (!word_is(t, &k, "and") && !word_is(t, &k, "or")) {
            pqt_scan_pexpr_free(a);
            return XFAIL(X, k.lo, k.hi, " has an unknown operator '%.*s'", show_len(k.lo, k.hi),
                         t + k.lo);
        }
    }
    if (k.type == XK_BAD && k.lo < X->end &&
        !(t[k.lo] == '"' || t[k.lo] == '\'' || t[k.lo] == '`')) {
        pqt_scan_pexpr_free(a);
        int32_t e = k.lo;
        while (e < X->end && !is_sp((unsigned char)t[e]) && e - k.lo < 40)
            e++;
        return XFAIL(X, k.lo, e, " has an unknown operator '%.*s'", show_len(k.lo, e), t + k.lo);
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
    xlex(P->t, P->n, P->tok.lo, &X.k);
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
    xlex(text, hi, lo, &X.k);
    pexpr *x = NULL;
    PQT_TRY(parse_sum(&X, &x));
    if (X.k.type != XK_END) {
        pqt_scan_pexpr_free(x);
        return unexpected(&X, "an operator");
    }
    *ret = x;
    return PQT_OK;
}
