/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_parse.c - the grammar of the filter language (layer: scan).
 *
 * docs/filters.md, "Grammar", by recursive descent: or_expr := and_expr {OR and_expr}, and_expr :=
 * not_expr {AND not_expr}, not_expr := NOT not_expr | primary, primary := '(' expr ')' |
 * clause. AND and OR chains become n-ary nodes. The limits (depth: each '(' and each
 * 'not' one level; nodes across every rule of the filter) and the error messages are here.
 * A clause is COLUMN OP [VALUE]. Besides parquet-fortran's spaced form, a plain identifier may
 * have its symbolic operator glued on (v>3), a backquoted name may hold anything, and the
 * operator may be glued to its value (v >3). When parquet-fortran's reading applies (the word
 * after the first one is an operator) it wins, so `x>y > 3` still names a column "x>y".
 * Values are classified here (numbers, booleans, strings, lists, @sets); their types are
 * settled against the column in filter_compile.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_like.h"
#include "scan/filter_parse.h"
#include "util/mem.h"

pqt_status pqt_scan_p_oom(void) { return pqt_err(PQT_NOMEM, "out of memory parsing a filter rule"); }
#define oom pqt_scan_p_oom

pqt_status pqt_scan_p_lex(parser *P, int32_t at, ftok *tok)
{
    if (pqt_scan_lex(P->t, P->n, at, tok) == 0) return PQT_OK;
    return pqt_scan_fail(P->t, tok->lo, "filter expression '%s' has an unterminated %s", P->show,
                         P->t[tok->lo] != '`' ? "quoted value" : "backquoted name");
}

#define lex_at pqt_scan_p_lex

static pqt_status advance(parser *P) { return lex_at(P, P->tok.hi, &P->tok); }

/* Token text for a message, cut at 40 bytes. */
static int show_len(int32_t lo, int32_t hi) { return hi - lo > 40 ? 40 : (int)(hi - lo); }

pqt_status pqt_scan_p_count(parser *P, int32_t at)
{
    if (P->base + ++P->nodes <= PQT_FILTER_MAX_NODES) return PQT_OK;
    return pqt_scan_fail(P->t, at,
                         "filter expression has more terms than the supported limit (%d nodes): "
                         "'%s'",
                         PQT_FILTER_MAX_NODES, P->show);
}

pqt_status pqt_scan_p_level(parser *P, int32_t at)
{
    if (++P->depth <= PQT_FILTER_MAX_DEPTH) return PQT_OK;
    return pqt_scan_fail(P->t, at,
                         "filter expression is nested deeper than the supported limit (%d "
                         "levels): '%s'",
                         PQT_FILTER_MAX_DEPTH, P->show);
}

void pqt_scan_node_free(fnode *n)
{
    if (!n) return;
    for (int32_t k = 0; k < n->nkids; k++) pqt_scan_node_free(n->kids[k]);
    pqt_mem_free(n->kids);
    pqt_mem_free(n->col);
    pqt_mem_free(n->val.s);
    for (int32_t k = 0; k < n->nitems; k++) pqt_mem_free(n->items[k].s);
    pqt_mem_free(n->items);
    pqt_mem_free(n->set_name);
    for (int32_t k = 0; k < n->cb_ncols; k++) pqt_mem_free(n->cb_cols[k]);
    pqt_mem_free(n->cb_cols);
    pqt_scan_pexpr_free(n->xl);
    pqt_scan_pexpr_free(n->xr);
    pqt_mem_free(n);
}

/* "filter rule '<clause>'" + message, the clause being the rule text [lo, hi). */
#define CLAUSE_FAIL(P, lo, hi, at, fmt, ...)                                                       \
    pqt_scan_fail((P)->t, (at), "filter rule '%.*s'" fmt, (int)((hi) - (lo)), (P)->t + (lo),       \
                  __VA_ARGS__)

static pqt_status too_long(parser *P, int32_t at)
{
    return pqt_scan_fail(P->t, at,
                         "filter rule exceeds an internal length limit: %s (a column name holds "
                         "at most %d characters, a value %d)",
                         P->show, PQT_FILTER_MAX_NAME_NBYTES, PQT_FILTER_MAX_VALUE_NBYTES);
}

/* The operator after a name ending at `after`: glued (name>3) or the next word (name >3,
 * name > 3, name in ...). Fills the op span and the rest of its word (a glued value). */
static pqt_status op_after(parser *P, int32_t lo, int32_t after, int *op, int32_t *op_lo,
                           int32_t *op_hi, int32_t *rest_lo, int32_t *rest_hi)
{
    const char *t = P->t;
    ftok nt;
    int32_t at = after, e;
    if (!(at < P->n && pqt_scan_is_opchar((unsigned char)t[at]))) {
        PQT_TRY(lex_at(P, after, &nt));
        if (nt.type != TK_WORD || pqt_scan_keyword(t, &nt) != KW_NONE)
            return CLAUSE_FAIL(P, lo, after, lo, " is missing an operator%s", "");
        int wop = pqt_scan_match_wordop(t + nt.lo, nt.hi - nt.lo);
        if (wop >= 0) {
            *op = wop;
            *op_lo = nt.lo;
            *op_hi = nt.hi;
            return PQT_OK;
        }
        at = nt.lo;
    }
    for (e = at; e < P->n && pqt_scan_is_wordchar((unsigned char)t[e]);) e++;
    /* the whole run of operator characters must be one operator (v =< 3 is not v = "<3") */
    int32_t oe = at;
    while (oe < e && pqt_scan_is_opchar((unsigned char)t[oe])) oe++;
    int len = pqt_scan_match_symop(t + at, oe - at, op);
    if (!len || len != oe - at) {
        if (oe == at) oe = e;
        return CLAUSE_FAIL(P, lo, e, at, " has an unknown operator '%.*s'", show_len(at, oe),
                           t + at);
    }
    *op_lo = at;
    *op_hi = at + len;
    if (at + len < e) {
        *rest_lo = at + len;
        *rest_hi = e;
    }
    return PQT_OK;
}

static pqt_status bare_value(parser *P, int32_t lo, int32_t vlo, int32_t vhi, int allow_hex,
                             flit *lit, int item)
{
    const char *why;
    int iso = pqt_scan_iso_value(P->t, vlo, vhi, lit); /* 2018-01-01 unquoted */
    if (iso) return iso > 0 ? PQT_OK : oom();
    if (pqt_scan_lit_bare(P->t + vlo, vhi - vlo, allow_hex, lit, &why) != 0) {
        if (item)
            return CLAUSE_FAIL(P, lo, vhi, vlo, ": element %d of the list, '%.*s', %s", item,
                               show_len(vlo, vhi), P->t + vlo, why);
        return CLAUSE_FAIL(P, lo, vhi, vlo, ": '%.*s' %s", show_len(vlo, vhi), P->t + vlo, why);
    }
    lit->lo = vlo;
    lit->hi = vhi;
    return PQT_OK;
}

pqt_status pqt_scan_p_quoted(parser *P, const ftok *tok, flit *lit)
{
    memset(lit, 0, sizeof *lit);
    lit->cls = FLIT_STR;
    lit->lo = tok->lo;
    lit->hi = tok->hi;
    lit->s = pqt_scan_unquote(P->t, tok, &lit->len);
    return lit->s ? PQT_OK : oom();
}

static int is_space_c(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The written-out list after in / not_in; t[lp] is its '('. Returns the offset after ')'. */
static pqt_status parse_list(parser *P, fnode *c, int32_t lo, int32_t lp, int32_t *end_ret)
{
    const char *t = P->t;
    int32_t p = lp + 1, cap = 0;
    int expect = 1;
    for (;;) {
        while (p < P->n && is_space_c(t[p])) p++;
        if (p >= P->n)
            return CLAUSE_FAIL(P, lo, P->n, lp,
                               ": the list after 'in'/'not_in' is missing its closing ')'%s", "");
        char ch = t[p];
        if (ch == ')') {
            if (c->nitems == 0)
                return CLAUSE_FAIL(P, lo, p + 1, lp, ": the list after 'in'/'not_in' is empty%s",
                                   "");
            if (expect)
                return CLAUSE_FAIL(P, lo, p + 1, p,
                                   ": the list after 'in'/'not_in' has an empty element %d",
                                   c->nitems + 1);
            p++;
            break;
        }
        if (!expect) {
            if (ch != ',')
                return CLAUSE_FAIL(P, lo, p + 1, p,
                                   ": the list after 'in'/'not_in' expects ',' or ')' but found "
                                   "'%c'",
                                   ch);
            expect = 1;
            p++;
            continue;
        }
        if (ch == ',')
            return CLAUSE_FAIL(P, lo, p + 1, p,
                               ": the list after 'in'/'not_in' has an empty element %d",
                               c->nitems + 1);
        if (ch == '(')
            return CLAUSE_FAIL(P, lo, p + 1, p,
                               ": a list after 'in'/'not_in' may not contain a nested '('%s", "");
        if (c->nitems == cap) {
            cap = cap ? 2 * cap : 8;
            flit *it = pqt_realloc(c->items, (size_t)cap * sizeof *it);
            if (!it) return oom();
            c->items = it;
        }
        flit *lit = &c->items[c->nitems];
        memset(lit, 0, sizeof *lit);
        if (ch == '"' || ch == '\'' || ch == '`') {
            ftok q;
            PQT_TRY(lex_at(P, p, &q));
            if (ch == '`')
                return CLAUSE_FAIL(P, lo, q.hi, p,
                                   ": element %d of the list is a backquoted name, not a value",
                                   c->nitems + 1);
            PQT_TRY(pqt_scan_p_quoted(P, &q, lit));
            p = q.hi;
        } else {
            int32_t e = p;
            while (e < P->n && !is_space_c(t[e]) && t[e] != ',' && t[e] != '(' && t[e] != ')' &&
                   t[e] != '"' && t[e] != '\'' && t[e] != '`')
                e++;
            PQT_TRY(bare_value(P, lo, p, e, 0, lit, c->nitems + 1));
            p = e;
        }
        c->nitems++;
        expect = 0;
    }
    if (p - lp > PQT_FILTER_MAX_VALUE_NBYTES) return too_long(P, lp);
    *end_ret = p;
    return PQT_OK;
}

static int is_valueless(int op) { return op >= FOP_IS_NULL && op <= FOP_IS_NOT_FINITE; }

/* The value (or set, or nothing) after the operator; sets *end_ret to the clause end. */
static pqt_status parse_value(parser *P, fnode *c, int32_t lo, int32_t op_lo, int32_t op_hi,
                              int32_t rest_lo, int32_t rest_hi, int32_t *end_ret)
{
    const char *t = P->t;
    const char *opname = pqt_scan_fop_name(c->op);
    ftok nt = {TK_END, op_hi, op_hi};
    if (rest_lo < 0) PQT_TRY(lex_at(P, op_hi, &nt));
    int is_value = rest_lo >= 0 || (nt.type == TK_WORD && pqt_scan_keyword(t, &nt) == KW_NONE) ||
                   nt.type == TK_QUOTED || nt.type == TK_BQUOTED;
    if (is_valueless(c->op)) {
        if (is_value) {
            int32_t vlo = rest_lo >= 0 ? rest_lo : nt.lo, vhi = rest_lo >= 0 ? rest_hi : nt.hi;
            return CLAUSE_FAIL(P, lo, vhi, vlo, ": %s takes no value", opname);
        }
        *end_ret = op_hi;
        return PQT_OK;
    }
    if (c->op == FOP_IN || c->op == FOP_NOT_IN) {
        if (nt.type == TK_LP) return parse_list(P, c, lo, nt.lo, end_ret);
        if (!is_value)
            return CLAUSE_FAIL(P, lo, op_hi, op_lo,
                               " is missing a set after '%s' (write it as '%s @name' for a bound "
                               "set, or as '%s (1, 2, 3)')",
                               opname, opname, opname);
        if (nt.type != TK_WORD || t[nt.lo] != '@')
            return CLAUSE_FAIL(P, lo, nt.hi, nt.lo,
                               ": '%s' takes either a bound set named with a leading '@' (%s "
                               "@name) or a list in parentheses (%s (1, 2, 3))",
                               opname, opname, opname);
        if (nt.hi - nt.lo == 1)
            return CLAUSE_FAIL(P, lo, nt.hi, nt.lo, ": '@' must be followed by a set name%s", "");
        c->set_name = pqt_strndup(t + nt.lo + 1, (size_t)(nt.hi - nt.lo - 1));
        if (!c->set_name) return oom();
        c->set_lo = nt.lo;
        *end_ret = nt.hi;
        return PQT_OK;
    }
    if (!is_value)
        return CLAUSE_FAIL(P, lo, op_hi, op_lo, " is missing a value after '%.*s'",
                           (int)(op_hi - op_lo), t + op_lo);
    int32_t vlo = rest_lo >= 0 ? rest_lo : nt.lo, vhi = rest_lo >= 0 ? rest_hi : nt.hi;
    /* the limit counts a quoted value's characters, not its quotes */
    int quoted = rest_lo < 0 && nt.type == TK_QUOTED;
    if (vhi - vlo - 2 * quoted > PQT_FILTER_MAX_VALUE_NBYTES) return too_long(P, vlo);
    if (rest_lo < 0 && nt.type == TK_BQUOTED)
        return CLAUSE_FAIL(P, lo, vhi, vlo,
                           ": comparing two columns is not supported; a value is a number, true, "
                           "false or a double-quoted string%s",
                           "");
    if (rest_lo < 0 && nt.type == TK_QUOTED) PQT_TRY(pqt_scan_p_quoted(P, &nt, &c->val));
    else PQT_TRY(bare_value(P, lo, vlo, vhi, 1, &c->val, 0));
    *end_ret = vhi;
    if (c->op == FOP_LIKE || c->op == FOP_ILIKE) /* [ESCAPE 'c'] */
        return pqt_scan_like_escape(t, P->n, lo, vhi, c, end_ret);
    return PQT_OK;
}

pqt_status pqt_scan_p_value(parser *P, fnode *c, int32_t lo, int32_t op_lo, int32_t op_hi,
                            int32_t *end_ret)
{
    return parse_value(P, c, lo, op_lo, op_hi, -1, -1, end_ret);
}

static int plain_ident(const char *s, int32_t len)
{
    if (len <= 0) return 0;
    for (int32_t i = 0; i < len; i++)
        if (!pqt_scan_is_identchar((unsigned char)s[i])) return 0;
    return 1;
}

pqt_status pqt_scan_p_clause(parser *P, fnode **ret)
{
    const char *t = P->t;
    ftok ct = P->tok;
    int32_t lo = ct.lo, op_lo = -1, op_hi = -1, rest_lo = -1, rest_hi = -1, end = 0;
    int op = -1;
    pqt_status st;
    fnode *c = pqt_calloc(1, sizeof *c);
    if (!c) return oom();
    c->type = FN_CLAUSE;
    c->set_idx = -1;
    c->lo = c->col_lo = lo;
    if (ct.type == TK_BQUOTED) {
        int64_t len;
        c->col = pqt_scan_unquote(t, &ct, &len);
        if (!c->col) goto nomem;
        if (len == 0) {
            st = CLAUSE_FAIL(P, lo, ct.hi, lo, ": the backquoted column name is empty%s", "");
            goto fail;
        }
        if (len > PQT_FILTER_MAX_NAME_NBYTES) goto toolong;
        st = op_after(P, lo, ct.hi, &op, &op_lo, &op_hi, &rest_lo, &rest_hi);
    } else {
        ftok nt;
        if ((st = lex_at(P, ct.hi, &nt)) != PQT_OK) goto fail;
        int wop = nt.type == TK_WORD ? pqt_scan_match_wordop(t + nt.lo, nt.hi - nt.lo) : -1;
        int32_t k = ct.lo;
        while (k < ct.hi && !pqt_scan_is_opchar((unsigned char)t[k])) k++;
        int32_t name_hi = ct.hi;
        if (wop >= 0) { /* parquet-fortran's spaced form */
            op = wop;
            op_lo = nt.lo;
            op_hi = nt.hi;
            st = PQT_OK;
        } else if (k < ct.hi && plain_ident(t + ct.lo, k - ct.lo)) { /* v>3 */
            name_hi = k;
            st = op_after(P, lo, k, &op, &op_lo, &op_hi, &rest_lo, &rest_hi);
        } else {
            st = op_after(P, lo, ct.hi, &op, &op_lo, &op_hi, &rest_lo, &rest_hi);
        }
        if (name_hi - ct.lo > PQT_FILTER_MAX_NAME_NBYTES) goto toolong;
        c->col = pqt_strndup(t + ct.lo, (size_t)(name_hi - ct.lo));
        if (!c->col) goto nomem;
    }
    if (st != PQT_OK) goto fail;
    c->op = (uint8_t)op;
    c->op_lo = op_lo;
    if ((st = parse_value(P, c, lo, op_lo, op_hi, rest_lo, rest_hi, &end)) != PQT_OK) goto fail;
    c->hi = end;
    if ((st = pqt_scan_p_count(P, lo)) != PQT_OK) goto fail;
    if ((st = lex_at(P, end, &P->tok)) != PQT_OK) goto fail;
    P->prev = P_OTHER;
    *ret = c;
    return PQT_OK;
toolong:
    st = too_long(P, lo);
    goto fail;
nomem:
    st = oom();
fail:
    pqt_scan_node_free(c);
    return st;
}

/* Where a failed attempt stopped: the character of "at character N" in its message. */
static int err_pos(const char *m)
{
    const char *at = NULL;
    for (const char *p = strstr(m, " at character "); p; p = strstr(p + 1, " at character "))
        at = p;
    return at ? atoi(at + 14) : 0;
}

static int arith_char(char c) { return c == '+' || c == '-' || c == '*' || c == '/' || c == '%'; }

static int at_boundary(const parser *P)
{
    return P->tok.type == TK_END || P->tok.type == TK_RP ||
           pqt_scan_keyword(P->t, &P->tok) == KW_AND || pqt_scan_keyword(P->t, &P->tok) == KW_OR;
}

/* One predicate. parquet-fortran's clause (COLUMN OP VALUE, where a column name may hold any
 * character) is read first, so every rule it reads keeps its meaning; when it fails, or an
 * arithmetic operator follows it, the expression grammar reads the predicate instead. Of two
 * failures the one that read further is reported, the clause's on a tie. The attempts' messages
 * are caught (a rule that parses leaves no message behind). */
static pqt_status clause_or_pred(parser *P, fnode **ret)
{
    parser start = *P;
    fnode *c = NULL, *e = NULL;
    char cmsg[1024] = "", pmsg[1024] = "";
    pqt_err_target prev = pqt_err_redirect(cmsg, sizeof cmsg);
    pqt_status st = pqt_scan_p_clause(P, &c);
    pqt_err_restore(prev);
    if (st == PQT_OK && !(P->tok.type == TK_WORD && arith_char(P->t[P->tok.lo]))) {
        *ret = c;
        return PQT_OK;
    }
    if (st != PQT_OK && st != PQT_BAD_FILTER) return pqt_err(st, "%s", cmsg);
    parser after_clause = *P;
    int cpos = st == PQT_OK ? pqt_scan_charpos(P->t, P->tok.lo) : err_pos(cmsg);
    *P = start;
    prev = pqt_err_redirect(pmsg, sizeof pmsg);
    pqt_status pst = pqt_scan_p_pred(P, &e);
    pqt_err_restore(prev);
    if (pst != PQT_OK && pst != PQT_BAD_FILTER) {
        pqt_scan_node_free(c);
        return pqt_err(pst, "%s", pmsg);
    }
    int ppos = pst != PQT_OK ? err_pos(pmsg) : pqt_scan_charpos(P->t, P->tok.lo);
    /* a word glued to '(' is a function call, which only the expression grammar reads */
    int call = start.tok.type == TK_WORD && start.tok.hi < P->n && P->t[start.tok.hi] == '(';
    if ((pst == PQT_OK && at_boundary(P)) || ppos > cpos || (call && ppos >= cpos)) {
        pqt_scan_node_free(c);
        if (pst != PQT_OK) return pqt_err(pst, "%s", pmsg);
        P->prev = P_OTHER;
        *ret = e;
        return PQT_OK;
    }
    pqt_scan_node_free(e);
    if (c) {
        *P = after_clause;
        *ret = c;
        return PQT_OK;
    }
    return pqt_err(PQT_BAD_FILTER, "%s", cmsg);
}

static pqt_status parse_chain(parser *P, int type, fnode **ret);

static pqt_status parse_primary(parser *P, fnode **ret)
{
    const char *t = P->t;
    ftok tok = P->tok;
    switch (tok.type) {
    case TK_LP: {
        /* (g - r) > 0.5: a parenthesised expression starting a predicate */
        parser start = *P;
        fnode *e = NULL;
        char pmsg[256];
        pqt_err_target prev = pqt_err_redirect(pmsg, sizeof pmsg);
        pqt_status pst = pqt_scan_p_pred(P, &e);
        pqt_err_restore(prev);
        if (pst == PQT_OK && at_boundary(P)) {
            P->prev = P_OTHER;
            *ret = e;
            return PQT_OK;
        }
        pqt_scan_node_free(e);
        if (pst == PQT_NOMEM) return pqt_err(pst, "%s", pmsg);
        *P = start;
        PQT_TRY(pqt_scan_p_level(P, tok.lo));
        P->prev = P_LP;
        P->prev_lo = tok.lo;
        PQT_TRY(advance(P));
        if (P->tok.type == TK_RP)
            return pqt_scan_fail(t, tok.lo, "filter expression '%s' has an empty '()' group",
                                 P->show);
        e = NULL;
        PQT_TRY(parse_chain(P, FN_OR, &e));
        ftok cl = P->tok;
        pqt_status st = PQT_OK;
        if (cl.type == TK_END)
            st = pqt_scan_fail(t, tok.lo, "filter expression '%s' has an unbalanced '('", P->show);
        else if (cl.type == TK_WORD)
            st = pqt_scan_fail(t, cl.lo, "filter expression '%s': unexpected '%.*s' (a missing "
                               "and/or?)", P->show, show_len(cl.lo, cl.hi), t + cl.lo);
        else if (cl.type != TK_RP)
            st = pqt_scan_fail(t, cl.lo, "filter expression '%s' expected ')' but found '%.*s'",
                               P->show, show_len(cl.lo, cl.hi), t + cl.lo);
        if (st == PQT_OK) st = advance(P);
        if (st != PQT_OK) {
            pqt_scan_node_free(e);
            return st;
        }
        P->depth--;
        P->prev = P_OTHER;
        *ret = e;
        return PQT_OK;
    }
    case TK_WORD: {
        int kw = pqt_scan_keyword(t, &tok);
        if (kw == KW_AND || kw == KW_OR)
            return pqt_scan_fail(t, tok.lo,
                                 "filter expression '%s' has a dangling '%.*s' with no clause on "
                                 "one side of it",
                                 P->show, (int)(tok.hi - tok.lo), t + tok.lo);
        return clause_or_pred(P, ret);
    }
    case TK_BQUOTED:
        return clause_or_pred(P, ret);
    case TK_END:
    case TK_RP:
        if ((P->prev == P_AND || P->prev == P_OR) && tok.type == TK_RP)
            return pqt_scan_fail(t, P->prev_lo,
                                 "filter expression '%s' has a dangling '%.*s' with no clause "
                                 "on one side of it",
                                 P->show, (int)(P->prev_hi - P->prev_lo), t + P->prev_lo);
        if (P->prev != P_START && P->prev != P_LP && tok.type == TK_END)
            return pqt_scan_fail(t, P->prev_lo,
                                 "filter expression '%s' ends after an operator; a clause is "
                                 "missing",
                                 P->show);
        if (P->prev == P_NOT)
            return pqt_scan_fail(t, tok.lo,
                                 "filter expression '%s': unexpected ')' after 'not'; a clause "
                                 "is missing",
                                 P->show);
        if (tok.type == TK_RP)
            return pqt_scan_fail(t, tok.lo, "filter expression '%s' has an unbalanced ')'",
                                 P->show);
        if (P->prev == P_LP)
            return pqt_scan_fail(t, P->prev_lo, "filter expression '%s' has an unbalanced '('",
                                 P->show);
        return pqt_scan_fail(NULL, 0, "empty filter rule");
    default:
        /* 'abc' == name: a single-quoted literal may start a predicate (a double-quoted one
         * may not: it reads as a misplaced value) */
        if (tok.type == TK_QUOTED && t[tok.lo] == '\'') return clause_or_pred(P, ret);
        return pqt_scan_fail(t, tok.lo,
                             "filter expression '%s': unexpected '%.*s'; a clause starts with a "
                             "column name",
                             P->show, show_len(tok.lo, tok.hi), t + tok.lo);
    }
}

static pqt_status parse_not(parser *P, fnode **ret)
{
    if (pqt_scan_keyword(P->t, &P->tok) != KW_NOT) return parse_primary(P, ret);
    int32_t lo = P->tok.lo;
    PQT_TRY(pqt_scan_p_level(P, lo));
    PQT_TRY(pqt_scan_p_count(P, lo));
    P->prev = P_NOT;
    P->prev_lo = lo;
    P->prev_hi = P->tok.hi;
    PQT_TRY(advance(P));
    fnode *kid = NULL;
    PQT_TRY(parse_not(P, &kid));
    P->depth--;
    fnode *n = pqt_calloc(1, sizeof *n);
    fnode **kids = pqt_malloc(sizeof *kids);
    if (!n || !kids) {
        pqt_mem_free(n);
        pqt_mem_free(kids);
        pqt_scan_node_free(kid);
        return oom();
    }
    n->type = FN_NOT;
    n->lo = lo;
    n->hi = kid->hi;
    n->nkids = 1;
    n->kids = kids;
    kids[0] = kid;
    *ret = n;
    return PQT_OK;
}

/* and_expr (type FN_AND) or or_expr (FN_OR), as one n-ary node. */
static pqt_status parse_chain(parser *P, int type, fnode **ret)
{
    fnode **kids = NULL;
    int32_t nk = 0, cap = 0;
    pqt_status st = PQT_OK;
    int kw = type == FN_OR ? KW_OR : KW_AND;
    for (;;) {
        fnode *k = NULL;
        st = type == FN_OR ? parse_chain(P, FN_AND, &k) : parse_not(P, &k);
        if (st != PQT_OK) goto fail;
        if (nk == cap) {
            cap = cap ? 2 * cap : 4;
            fnode **nkids = pqt_realloc(kids, (size_t)cap * sizeof *kids);
            if (!nkids) {
                pqt_scan_node_free(k);
                st = oom();
                goto fail;
            }
            kids = nkids;
        }
        kids[nk++] = k;
        if (pqt_scan_keyword(P->t, &P->tok) != kw) break;
        if ((st = pqt_scan_p_count(P, P->tok.lo)) != PQT_OK) goto fail;
        P->prev = type == FN_OR ? P_OR : P_AND;
        P->prev_lo = P->tok.lo;
        P->prev_hi = P->tok.hi;
        if ((st = advance(P)) != PQT_OK) goto fail;
    }
    if (nk == 1) {
        *ret = kids[0];
        pqt_mem_free(kids);
        return PQT_OK;
    }
    fnode *n = pqt_calloc(1, sizeof *n);
    if (!n) {
        st = oom();
        goto fail;
    }
    n->type = (uint8_t)type;
    n->lo = kids[0]->lo;
    n->hi = kids[nk - 1]->hi;
    n->nkids = nk;
    n->kids = kids;
    *ret = n;
    return PQT_OK;
fail:
    for (int32_t i = 0; i < nk; i++) pqt_scan_node_free(kids[i]);
    pqt_mem_free(kids);
    return st;
}

pqt_status pqt_scan_parse(const char *text, int32_t nbytes, int base_nodes, fnode **root_ret,
                          int *nnodes_ret)
{
    if (nbytes > PQT_FILTER_MAX_RULE_NBYTES)
        return pqt_scan_fail(NULL, 0,
                             "filter rule is longer than the supported limit (%d characters)",
                             PQT_FILTER_MAX_RULE_NBYTES);
    parser P;
    memset(&P, 0, sizeof P);
    P.t = text;
    P.n = nbytes;
    P.base = base_nodes;
    P.prev = P_START;
    pqt_scan_rule_show(text, nbytes, P.show, sizeof P.show);
    PQT_TRY(lex_at(&P, 0, &P.tok));
    if (P.tok.type == TK_END) return pqt_scan_fail(NULL, 0, "empty filter rule");
    fnode *root = NULL;
    PQT_TRY(parse_chain(&P, FN_OR, &root));
    if (P.tok.type != TK_END) {
        ftok tk = P.tok;
        pqt_scan_node_free(root);
        if (tk.type == TK_RP)
            return pqt_scan_fail(text, tk.lo, "filter expression '%s' has an unbalanced ')'",
                                 P.show);
        return pqt_scan_fail(text, tk.lo,
                             "filter expression '%s': unexpected '%.*s' (a missing and/or?)",
                             P.show, show_len(tk.lo, tk.hi), text + tk.lo);
    }
    *root_ret = root;
    *nnodes_ret = P.nodes;
    return PQT_OK;
}
