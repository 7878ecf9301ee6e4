/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_text.c - a computed predicate written back as rule text (layer: scan).
 *
 * For --explain: the expression as compiled, literal subtrees folded (2 * 3 reads 6),
 * parentheses only where precedence needs them, columns backquoted when they are not plain
 * names, NOT folded into the operator where one says it (/=, is_not_null).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_lex.h"
#include "scan/filter_textbuf.h"

/* binding strength: sums 1, products 2, unary minus 3, the rest 4 */
static int prec(const xnode *x)
{
    switch (x->op) {
    case XO_ADD:
    case XO_SUB:
        return 1;
    case XO_MUL:
    case XO_DIV:
    case XO_IDIV:
    case XO_MOD:
        return 2;
    case XO_NEG:
        return 3;
    case XO_LIT:
        return x->type == XT_INT ? (x->i < 0 ? 3 : 4) : (x->d < 0 || signbit(x->d) ? 3 : 4);
    default:
        return 4;
    }
}

static void put_x(tbuf *b, const xnode *x);

static void put_arg(tbuf *b, const xnode *x, int need)
{
    int paren = prec(x) < need;
    if (paren) puts_(b, "(");
    put_x(b, x);
    if (paren) puts_(b, ")");
}

static void put_x(tbuf *b, const xnode *x)
{
    static const char *const sym[XO_COUNT] = {
        [XO_ADD] = " + ", [XO_SUB] = " - ",   [XO_MUL] = " * ",
        [XO_DIV] = " / ", [XO_IDIV] = " // ", [XO_MOD] = " % "};
    switch (x->op) {
    case XO_COL: {
        int plain = x->col[0] != '\0';
        for (const char *p = x->col; *p && plain; p++)
            plain = pqt_scan_is_identchar((unsigned char)*p);
        if (plain)
            puts_(b, x->col);
        else
            put_quoted(b, x->col, (int64_t)strlen(x->col), '`');
        return;
    }
    case XO_LIT:
        if (x->type == XT_STR)
            put_quoted(b, x->s, x->slen, '"');
        else if (x->type == XT_BOOL)
            puts_(b, x->i ? "true" : "false");
        else if (x->type == XT_INT)
            putf(b, "%lld", (long long)x->i);
        else if (isinf(x->d))
            puts_(b, x->d > 0 ? "inf" : "-inf");
        else
            putf(b, "%.17g", x->d);
        return;
    case XO_NEG:
        puts_(b, "-");
        put_arg(b, x->args[0], 3);
        return;
    case XO_CALL:
        puts_(b, pqt_scan_func_name(x->fn));
        puts_(b, "(");
        for (int32_t k = 0; k < x->nargs; k++) {
            if (k) puts_(b, ", ");
            put_x(b, x->args[k]);
        }
        puts_(b, ")");
        return;
    default: {
        int p = prec(x);
        put_arg(b, x->args[0], p);
        puts_(b, sym[x->op]);
        put_arg(b, x->args[1], p + 1); /* left-associative: a - (b - c) keeps its parentheses */
        return;
    }
    }
}

int64_t pqt_scan_cmp_text(const fcmp *c, char *buf, size_t cap)
{
    tbuf b = {buf, buf ? cap : 0, 0};
    if (b.cap) buf[0] = '\0';
    int neg = c->negate;
    switch (c->op) {
    case FOP_TRUE:
        if (neg) puts_(&b, "not ");
        put_arg(&b, c->lhs, 4);
        break;
    case FOP_IS_NULL:
    case FOP_IS_NAN:
    case FOP_IS_FINITE:
        put_x(&b, c->lhs);
        puts_(&b, " ");
        puts_(&b, pqt_scan_fop_name(c->op + (neg ? 1 : 0)));
        break;
    case FOP_EQ:
        put_x(&b, c->lhs);
        puts_(&b, neg ? " /= " : " == ");
        put_x(&b, c->rhs);
        break;
    default:
        if (neg) puts_(&b, "not (");
        put_x(&b, c->lhs);
        puts_(&b, " ");
        puts_(&b, pqt_scan_fop_name(c->op));
        puts_(&b, " ");
        put_x(&b, c->rhs);
        if (neg) puts_(&b, ")");
    }
    return b.len;
}
