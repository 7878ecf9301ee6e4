/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_parse.h - the parser's state and the pieces the clause grammar (filter_parse.c) and
 * the expression grammar (filter_expr_parse.c) share (layer: scan). Private to
 * src/scan/filter_*.c.
 */
#ifndef PQT_SCAN_FILTER_PARSE_H
#define PQT_SCAN_FILTER_PARSE_H

#include "scan/filter_lex.h"

enum { P_START, P_LP, P_AND, P_OR, P_NOT, P_OTHER };

typedef struct parser {
    const char *t;
    int32_t n;
    ftok tok;
    int prev;
    int32_t prev_lo, prev_hi;
    int depth, nodes, base;
    char show[200];
} parser;

pqt_status pqt_scan_p_oom(void);
/* The token at byte at (an unterminated quote is an error). */
pqt_status pqt_scan_p_lex(parser *P, int32_t at, ftok *tok);
/* One more node toward PQT_FILTER_MAX_NODES / one more level toward PQT_FILTER_MAX_DEPTH. */
pqt_status pqt_scan_p_count(parser *P, int32_t at);
pqt_status pqt_scan_p_level(parser *P, int32_t at);
/* The value, list or set after clause c's operator [op_lo, op_hi); *end_ret: the clause end. */
pqt_status pqt_scan_p_value(parser *P, fnode *c, int32_t lo, int32_t op_lo, int32_t op_hi,
                            int32_t *end_ret);
/* A quoted token as a string literal. */
pqt_status pqt_scan_p_quoted(parser *P, const ftok *tok, flit *lit);
/* The clause at P->tok in parquet-fortran's form (COLUMN OP VALUE); P->tok is left after it. */
pqt_status pqt_scan_p_clause(parser *P, fnode **ret);

/* ---- the expression grammar (filter_expr_parse.c) ---- */

/* One predicate starting at P->tok (docs/filters.md, "Grammar"): e1 cmp e2, e IS [NOT] NULL,
 * e [NOT] BETWEEN a AND b, e [NOT] IN (...), e [NOT] LIKE|ILIKE 'p', e word-operator, or a
 * bare boolean expression. Predicates of the form `column op literal` come back as FN_CLAUSE
 * nodes; others as FN_PRED. P->tok is left after it. */
pqt_status pqt_scan_p_pred(parser *P, fnode **ret);

#endif
