/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_parse.c - expressions, the grammar's lowest levels (layer: scan).
 *
 * docs/filters.md, "Grammar": sum := product {(+|-) product}, product := unary {(*|/|//|%)
 * unary}, unary := - unary | primary, primary := number | string | ISO date/time | true |
 * false | name | `name` | name(args) | ( sum ). Tokens are split here at the operator
 * characters (the clause grammar's words run to the next space). A minus before a number is
 * part of the literal, so `v > -2` stays a plain clause. Predicates: filter_expr_pred.c.
 */
#include <stdio.h>
#include <string.h>

#include "scan/filter_expr_parse.h"
#include "util/mem.h"

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
void pqt_scan_xlex(const char *t, int32_t n, int32_t at, xtok *k)
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

int pqt_scan_xword_is(const char *t, const xtok *k, const char *w)
{
    int32_t len = k->hi - k->lo;
    if (k->type != XK_IDENT || (int32_t)strlen(w) != len) return 0;
    for (int32_t i = 0; i < len; i++)
        if (lower((unsigned char)t[k->lo + i]) != w[i]) return 0;
    return 1;
}

int pqt_scan_xshow_len(int32_t lo, int32_t hi)
{
    return hi - lo > 40 ? 40 : (int)(hi - lo);
}

void pqt_scan_xnext(xparser *X)
{
    pqt_scan_xlex(X->P->t, X->end, X->k.hi, &X->k);
}

pqt_status pqt_scan_xunexpected(xparser *X, const char *what)
{
    const char *t = X->P->t;
    xtok k = X->k;
    if (k.type == XK_END) return XFAIL(X, k.lo, k.hi, " ends where %s is expected", what);
    if (k.type == XK_BAD && (t[k.lo] == '"' || t[k.lo] == '\'' || t[k.lo] == '`'))
        return XFAIL(X, k.lo, k.hi, " has an unterminated %s",
                     t[k.lo] == '`' ? "backquoted name" : "quoted value");
    return XFAIL(X, k.lo, k.hi, ": expected %s but found '%.*s'", what,
                 pqt_scan_xshow_len(k.lo, k.hi), t + k.lo);
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

pexpr *pqt_scan_pexpr_copy(const pexpr *x)
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
        if (!(c->args[k] = pqt_scan_pexpr_copy(x->args[k])))
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

/* A literal word (number, true/false, inf) or the reason it is none; 1 if it is a literal. */
static pqt_status literal_word(xparser *X, int number, pexpr **ret, int *is_lit)
{
    const char *t = X->P->t, *why = NULL;
    xtok k = X->k;
    flit lit;
    *is_lit = 0;
    if (pqt_scan_lit_bare(t + k.lo, k.hi - k.lo, 1, &lit, &why) != 0) {
        if (!number && !pqt_scan_xword_is(t, &k, "nan")) return PQT_OK;
        return XFAIL(X, k.lo, k.hi, ": '%.*s' %s", pqt_scan_xshow_len(k.lo, k.hi), t + k.lo, why);
    }
    if (k.hi - k.lo > PQT_FILTER_MAX_VALUE_NBYTES)
        return XFAIL(X, k.lo, k.hi, ": a value is longer than %d characters",
                     PQT_FILTER_MAX_VALUE_NBYTES);
    PQT_TRY(mk(X, XO_LIT, k.lo, k.hi, ret));
    lit.lo = k.lo;
    lit.hi = k.hi;
    (*ret)->lit = lit;
    *is_lit = 1;
    pqt_scan_xnext(X);
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
                     pqt_scan_xshow_len(name.lo, name.hi), t + name.lo, pqt_scan_func_name(best));
    }
    PQT_TRY(pqt_scan_p_level(X->P, name.lo));
    PQT_TRY(pqt_scan_p_count(X->P, name.lo));
    pexpr *x = NULL;
    PQT_TRY(mk(X, XO_CALL, name.lo, name.hi, &x));
    x->fn = (int16_t)fn;
    int32_t cap = 0;
    pqt_status st = PQT_OK;
    pqt_scan_xnext(X); /* '(' */
    pqt_scan_xnext(X);
    if (X->k.type != XK_RP) {
        for (;;) {
            pexpr *a = NULL;
            if ((st = pqt_scan_xsum(X, &a)) != PQT_OK) goto fail;
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
                pqt_scan_xnext(X);
                continue;
            }
            if (X->k.type == XK_RP) break;
            st = pqt_scan_xunexpected(X, "',' or ')' in the arguments");
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
    pqt_scan_xnext(X);
    *ret = x;
    return PQT_OK;
fail:
    pqt_scan_pexpr_free(x);
    return st;
}

pqt_status pqt_scan_xprimary(xparser *X, pexpr **ret)
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
        pqt_scan_xnext(X);
        return PQT_OK;
    }
    case XK_IDENT: {
        xtok after;
        pqt_scan_xlex(t, X->end, k.hi, &after);
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
        pqt_scan_xnext(X);
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
        pqt_scan_xnext(X);
        return PQT_OK;
    }
    case XK_LP: {
        PQT_TRY(pqt_scan_p_level(X->P, k.lo));
        pqt_scan_xnext(X);
        pexpr *x = NULL;
        PQT_TRY(pqt_scan_xsum(X, &x));
        if (X->k.type != XK_RP) {
            pqt_scan_pexpr_free(x);
            return pqt_scan_xunexpected(X, "')'");
        }
        X->P->depth--;
        x->lo = k.lo; /* the span takes the parentheses (messages quote them) */
        x->hi = X->k.hi;
        pqt_scan_xnext(X);
        *ret = x;
        return PQT_OK;
    }
    default:
        return pqt_scan_xunexpected(X, "a value, a column or '('");
    }
nomem:
    pqt_scan_pexpr_free(*ret);
    *ret = NULL;
    return oom();
}

static pqt_status parse_unary(xparser *X, pexpr **ret)
{
    if (X->k.type != XK_ARITH || X->k.op != XO_SUB) return pqt_scan_xprimary(X, ret);
    int32_t lo = X->k.lo;
    PQT_TRY(pqt_scan_p_level(X->P, lo));
    pqt_scan_xnext(X);
    if (pqt_scan_xword_is(X->P->t, &X->k, "nan")) /* -nan is one word to its reader */
        return XFAIL(X, lo, X->k.hi,
                     ": '%.*s' is not a value; use is_nan / is_not_nan to test "
                     "for NaN",
                     pqt_scan_xshow_len(lo, X->k.hi), X->P->t + lo);
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
        pqt_scan_xnext(X);
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

pqt_status pqt_scan_xsum(xparser *X, pexpr **ret)
{
    pexpr *a = NULL;
    PQT_TRY(parse_product(X, &a));
    while (X->k.type == XK_ARITH && (X->k.op == XO_ADD || X->k.op == XO_SUB)) {
        int op = X->k.op;
        pqt_scan_xnext(X);
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
