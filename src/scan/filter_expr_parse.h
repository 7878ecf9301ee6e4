/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_parse.h - the expression grammar's tokens and parser state, shared by
 * filter_expr_parse.c (sums, products, primaries) and filter_expr_pred.c (predicates)
 * (layer: scan). Private to src/scan/filter_*.c.
 */
#ifndef PQT_SCAN_FILTER_EXPR_PARSE_H
#define PQT_SCAN_FILTER_EXPR_PARSE_H

#include "scan/filter_expr.h"
#include "scan/filter_parse.h"

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

typedef struct xparser {
    parser *P;
    int32_t lo;  /* the predicate's first byte */
    int32_t end; /* the rule end, or the span end for pqt_scan_pexpr_span */
    xtok k;
} xparser;

#define XFAIL(X, at, hi, fmt, ...)                                                                 \
    pqt_scan_fail((X)->P->t, (at), "filter rule '%.*s'" fmt, (int)((hi) - (X)->lo),                \
                  (X)->P->t + (X)->lo, __VA_ARGS__)

/* The token at byte at of t[0, n). A quoted run the rule ends inside is XK_BAD. */
void pqt_scan_xlex(const char *t, int32_t n, int32_t at, xtok *k);
/* k is the word w (ASCII case ignored). */
int pqt_scan_xword_is(const char *t, const xtok *k, const char *w);
void pqt_scan_xnext(xparser *X);
/* "expected WHAT but found ..." at the current token. */
pqt_status pqt_scan_xunexpected(xparser *X, const char *what);
int pqt_scan_xshow_len(int32_t lo, int32_t hi);
pexpr *pqt_scan_pexpr_copy(const pexpr *x);
pqt_status pqt_scan_xsum(xparser *X, pexpr **ret);
pqt_status pqt_scan_xprimary(xparser *X, pexpr **ret);

#endif
