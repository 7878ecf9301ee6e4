/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_compile.c - a parsed predicate over expressions, typed against the columns
 * (layer: scan).
 *
 * docs/filters.md, "Expressions": columns become INT (integer kinds; uint64 values must fit
 * int64 when they are used), FLOAT (float kinds), BOOL, STR or a temporal type; arithmetic takes
 * numbers only; a comparison takes two numbers (compared exactly across INT and FLOAT), two
 * strings, two bools or two values of one temporal kind. Literal-only subtrees are evaluated
 * here (a constant overflow is an error now, not at every row). When what is left is
 * `column op literal` (5 < x, x > 2 * 3, flag, isnan(x)), the predicate becomes the plain
 * clause the clause grammar would have built, so statistics, dictionaries, page indexes and
 * bloom filters keep applying; everything else becomes an fcmp.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_lex.h"
#include "scan/filter_resolve.h"
#include "util/mem.h"

typedef struct xctx {
    const frule *rule;
    const fnode *n;
    const pqt_scan_col *cols;
    int ncols;
    pqt_scan_slot_fn slot_fn;
    void *slot_ctx;
    int32_t base; /* n->lo: node spans are kept relative to the predicate */
} xctx;

static pqt_status oom(void)
{
    return pqt_err(PQT_NOMEM, "out of memory compiling a filter");
}

static pqt_status xfail(const xctx *C, int32_t at, const char *fmt, ...) PQT_PRINTF(3, 4);
static pqt_status xfail(const xctx *C, int32_t at, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *t = C->rule->text;
    return pqt_scan_fail(t, at, "filter rule '%.*s'%s", (int)(C->n->hi - C->n->lo), t + C->n->lo,
                         msg);
}

static const char *type_text(const xnode *x)
{
    switch (x->type) {
    case XT_INT:
        return "an integer";
    case XT_FLOAT:
        return "a float";
    case XT_BOOL:
        return "a bool";
    case XT_STR:
        return "a string";
    case XT_DATE:
        return "a date";
    case XT_TIME:
        return "a time";
    case XT_TIMESTAMP:
        return "a timestamp";
    default:
        return "a list";
    }
}

/* What x is, for messages: "'name' (string column)" or "'text'". */
static void describe(const xctx *C, const xnode *x, char *buf, size_t cap)
{
    if (x->op == XO_COL)
        snprintf(buf, cap, "'%s' is %s column", x->col, pqt_scan_kind_text(x->kind));
    else
        snprintf(buf, cap, "'%.*s' is %s", (int)(x->hi - x->lo), C->rule->text + C->base + x->lo,
                 type_text(x));
}

void pqt_scan_xnode_free(xnode *x)
{
    if (!x) return;
    for (int32_t k = 0; k < x->nargs; k++)
        pqt_scan_xnode_free(x->args[k]);
    pqt_mem_free(x->args);
    pqt_mem_free(x->col);
    pqt_mem_free(x->s);
    pqt_mem_free(x);
}

void pqt_scan_cmp_free(fcmp *c)
{
    if (!c) return;
    pqt_scan_xnode_free(c->lhs);
    pqt_scan_xnode_free(c->rhs);
    pqt_mem_free(c->slots);
    pqt_mem_free(c->text);
    pqt_mem_free(c);
}

static int numeric(const xnode *x)
{
    return x->type == XT_INT || x->type == XT_FLOAT;
}

static int col_type(int kind)
{
    switch (kind) {
    case PQT_INT32:
    case PQT_INT64:
    case PQT_UINT64:
        return XT_INT;
    case PQT_FLOAT32:
    case PQT_FLOAT64:
        return XT_FLOAT;
    case PQT_BOOL:
        return XT_BOOL;
    case PQT_STRING:
        return XT_STR;
    case PQT_DATE:
        return XT_DATE;
    case PQT_TIME:
        return XT_TIME;
    default:
        return XT_TIMESTAMP;
    }
}

static pqt_status build(xctx *C, const pexpr *p, xnode **ret);

static pqt_status build_col(xctx *C, const pexpr *p, xnode *x)
{
    int ci = 0;
    PQT_TRY(pqt_scan_col_find(C->rule, p->name, p->lo, C->cols, C->ncols, &ci));
    const pqt_scan_col *col = &C->cols[ci];
    if ((col->kind == PQT_TIME || col->kind == PQT_TIMESTAMP) && (col->unit < 0 || col->unit > 2))
        return xfail(C, p->lo, ": column '%s' has no time unit", col->name);
    PQT_TRY(C->slot_fn(C->slot_ctx, ci, &x->slot));
    x->kind = col->kind;
    x->type = (uint8_t)col_type(col->kind);
    x->unit = col->kind == PQT_TIME || col->kind == PQT_TIMESTAMP ? col->unit : -1;
    if (!(x->col = pqt_strdup(col->name))) return oom();
    return PQT_OK;
}

/* A number written with '.', an exponent or in hex is FLOAT in arithmetic even when its value
 * is integral (flit.is_int also marks 1e10 and 16777216.0, for exact comparisons with integer
 * columns). */
static int spelled_real(const char *s, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == 'x' || s[i] == 'X') return 1;
    return 0;
}

static pqt_status build_lit(const flit *l, xnode *x)
{
    switch (l->cls) {
    case FLIT_BOOL:
        x->type = XT_BOOL;
        x->i = l->i;
        return PQT_OK;
    case FLIT_STR:
        x->type = XT_STR;
        x->slen = l->len;
        x->s = pqt_strndup(l->s, (size_t)l->len);
        return x->s ? PQT_OK : oom();
    default:
        x->type = l->is_int ? XT_INT : XT_FLOAT;
        x->i = l->i;
        x->d = l->d; /* a uint64-only literal is a float in arithmetic */
        return PQT_OK;
    }
}

static pqt_status check_call(xctx *C, const pexpr *p, xnode *x)
{
    const char *name = pqt_scan_func_name(x->fn);
    for (int32_t k = 0; k < x->nargs; k++) {
        const xnode *a = x->args[k];
        int ok = x->fn == FF_LENGTH ? a->type == XT_STR : numeric(a);
        if (!ok) {
            char d[300];
            describe(C, a, d, sizeof d);
            return xfail(C, p->args[k]->lo, ": %s() takes %s; %s", name,
                         x->fn == FF_LENGTH ? "a string" : "numbers", d);
        }
    }
    switch (x->fn) {
    case FF_ABS:
    case FF_FLOOR:
    case FF_CEIL:
        x->type = x->args[0]->type;
        break;
    case FF_ROUND:
        x->type = x->args[0]->type;
        if (x->nargs == 2 && x->type == XT_INT &&
            !(x->args[1]->op == XO_LIT && x->args[1]->type == XT_INT))
            return xfail(C, p->args[1]->lo,
                         ": round() of an integer takes its digits as an integer literal%s", "");
        break;
    case FF_LENGTH:
        x->type = XT_INT;
        break;
    case FF_ISNAN:
    case FF_ISFINITE:
    case FF_CONE:
        x->type = XT_BOOL;
        break;
    default:
        x->type = XT_FLOAT;
    }
    return PQT_OK;
}

static pqt_status build(xctx *C, const pexpr *p, xnode **ret)
{
    xnode *x = pqt_calloc(1, sizeof *x);
    if (!x) return oom();
    x->op = p->op;
    x->fn = (uint8_t)p->fn;
    x->lo = p->lo - C->base;
    x->hi = p->hi - C->base;
    x->unit = -1;
    x->res = -1;
    x->slot = -1;
    pqt_status st = PQT_OK;
    if (p->nargs && !(x->args = pqt_calloc((size_t)p->nargs, sizeof *x->args))) st = oom();
    for (int32_t k = 0; k < p->nargs && st == PQT_OK; k++) {
        if (p->fn == FF_LENGTH && p->op == XO_CALL && p->args[k]->op == XO_COL) {
            /* a list's length would need its offsets in the filter pass */
            for (int i = 0; i < C->ncols; i++)
                if (strcmp(C->cols[i].name, p->args[k]->name) == 0 && (C->cols[i].kind & PQT_LIST))
                    st = xfail(C, p->args[k]->lo,
                               ": length() of the list column '%s' is not supported yet (length() "
                               "takes a string)",
                               C->cols[i].name);
        }
        if (st == PQT_OK) st = build(C, p->args[k], &x->args[k]);
        if (st == PQT_OK) x->nargs++;
    }
    if (st == PQT_OK) {
        switch (p->op) {
        case XO_COL:
            st = build_col(C, p, x);
            break;
        case XO_LIT:
            st = build_lit(&p->lit, x);
            if (x->type == XT_INT && C->rule->text &&
                spelled_real(C->rule->text + p->lo, p->hi - p->lo))
                x->type = XT_FLOAT;
            break;
        case XO_CALL:
            st = check_call(C, p, x);
            break;
        default: {
            int all_int = 1;
            for (int32_t k = 0; k < x->nargs && st == PQT_OK; k++) {
                const xnode *a = x->args[k];
                if (!numeric(a)) {
                    char d[300];
                    describe(C, a, d, sizeof d);
                    st = xfail(C, p->args[k]->lo,
                               ": arithmetic takes numbers; %s (compare strings, bools and "
                               "dates directly, without arithmetic)",
                               d);
                }
                all_int &= a->type == XT_INT;
            }
            x->type = all_int && p->op != XO_DIV ? XT_INT : XT_FLOAT;
        }
        }
    }
    if (st == PQT_OK && x->op != XO_COL && x->op != XO_LIT) {
        int lits = 1;
        for (int32_t k = 0; k < x->nargs; k++)
            lits &= x->args[k]->op == XO_LIT;
        if (lits) st = pqt_scan_xnode_fold(x, C->rule->text + C->base);
        if (st == PQT_BAD_FILTER) { /* a constant overflowed: say where */
            char msg[700];
            snprintf(msg, sizeof msg, "%s", pqt_errmsg());
            st = pqt_scan_fail(C->rule->text, C->base + x->lo, "%s", msg);
        }
    }
    if (st != PQT_OK) {
        pqt_scan_xnode_free(x);
        return st;
    }
    *ret = x;
    return PQT_OK;
}

/* Comparable: numbers with numbers, else the same type (temporals of one kind). */
static pqt_status check_cmp(xctx *C, const xnode *a, const xnode *b)
{
    if ((numeric(a) && numeric(b)) || (a->type == b->type && a->type != XT_LIST)) return PQT_OK;
    char da[300], db[300];
    describe(C, a, da, sizeof da);
    describe(C, b, db, sizeof db);
    return xfail(C, C->n->op_lo, ": cannot compare these: %s, %s", da, db);
}

/* The literal x as it was written, for a plain clause. */
static pqt_status lit_of(const xnode *x, int32_t base, flit *l)
{
    memset(l, 0, sizeof *l);
    l->lo = base + x->lo;
    l->hi = base + x->hi;
    switch (x->type) {
    case XT_BOOL:
        l->cls = FLIT_BOOL;
        l->i = x->i;
        return PQT_OK;
    case XT_STR:
        l->cls = FLIT_STR;
        l->len = x->slen;
        l->s = pqt_strndup(x->s, (size_t)x->slen);
        return l->s ? PQT_OK : oom();
    case XT_INT:
        l->cls = FLIT_NUM;
        l->is_int = 1;
        l->i = x->i;
        l->d = (double)x->i;
        return PQT_OK;
    default:
        l->cls = FLIT_NUM;
        l->d = x->d;
        return PQT_OK;
    }
}

/* column op literal as the clause the clause grammar builds */
static pqt_status as_leaf(xctx *C, const pqt_filter *f, const char *col, int32_t col_lo, int op,
                          const xnode *lit, int negate, fleaf *lf, int *col_ret)
{
    fnode c;
    memset(&c, 0, sizeof c);
    c.type = FN_CLAUSE;
    c.op = (uint8_t)op;
    c.lo = C->n->lo;
    c.hi = C->n->hi;
    c.col = (char *)(uintptr_t)col;
    c.col_lo = col_lo;
    c.op_lo = C->n->op_lo;
    c.set_idx = -1;
    if (lit) PQT_TRY(lit_of(lit, C->base, &c.val));
    pqt_status st = pqt_scan_leaf_build(f, C->rule, &c, negate, C->cols, C->ncols, col_ret, lf);
    pqt_mem_free(c.val.s);
    return st;
}

static int flip(int op)
{
    return op == FOP_LT   ? FOP_GT
           : op == FOP_GT ? FOP_LT
           : op == FOP_LE ? FOP_GE
           : op == FOP_GE ? FOP_LE
                          : op;
}

static void number(xnode *x, int32_t *nres, uint8_t *used, int nused)
{
    x->res = (*nres)++;
    if (x->op == XO_COL && x->slot >= 0 && x->slot < nused) used[x->slot] = 1;
    for (int32_t k = 0; k < x->nargs; k++)
        number(x->args[k], nres, used, nused);
}

static int max_slot(const xnode *x)
{
    int m = x->op == XO_COL ? x->slot : -1;
    for (int32_t k = 0; k < x->nargs; k++) {
        int s = max_slot(x->args[k]);
        if (s > m) m = s;
    }
    return m;
}

static pqt_status finish(xctx *C, int op, int negate, xnode *l, xnode *r, fcmp **ret)
{
    fcmp *c = pqt_calloc(1, sizeof *c);
    if (!c) {
        pqt_scan_xnode_free(l);
        pqt_scan_xnode_free(r);
        return oom();
    }
    c->lhs = l;
    c->rhs = r;
    static const uint8_t base[FOP_COUNT] = {[FOP_LT] = FOP_LT,
                                            [FOP_LE] = FOP_LE,
                                            [FOP_GT] = FOP_GT,
                                            [FOP_GE] = FOP_GE,
                                            [FOP_EQ] = FOP_EQ,
                                            [FOP_NE] = FOP_EQ,
                                            [FOP_IS_NULL] = FOP_IS_NULL,
                                            [FOP_IS_NOT_NULL] = FOP_IS_NULL,
                                            [FOP_IS_NAN] = FOP_IS_NAN,
                                            [FOP_IS_NOT_NAN] = FOP_IS_NAN,
                                            [FOP_IS_FINITE] = FOP_IS_FINITE,
                                            [FOP_IS_NOT_FINITE] = FOP_IS_FINITE,
                                            [FOP_TRUE] = FOP_TRUE};
    c->op = base[op];
    c->negate = (uint8_t)((negate != 0) ^ (op == FOP_NE || op == FOP_IS_NOT_NULL ||
                                           op == FOP_IS_NOT_NAN || op == FOP_IS_NOT_FINITE));
    int ms = max_slot(l);
    if (r && max_slot(r) > ms) ms = max_slot(r);
    uint8_t used[256] = {0};
    uint8_t *u = ms < 256 ? used : pqt_calloc((size_t)ms + 1, 1);
    c->text = pqt_strndup(C->rule->text + C->n->lo, (size_t)(C->n->hi - C->n->lo));
    if (!u || !c->text) {
        if (u && u != used) pqt_mem_free(u);
        pqt_scan_cmp_free(c);
        return oom();
    }
    number(l, &c->nres, u, ms + 1);
    if (r) number(r, &c->nres, u, ms + 1);
    int n = 0;
    for (int s = 0; s <= ms; s++)
        n += u[s];
    c->slots = pqt_malloc_array((size_t)(n ? n : 1), sizeof *c->slots);
    if (c->slots)
        for (int s = 0; s <= ms; s++)
            if (u[s]) c->slots[c->nslots++] = s;
    if (u != used) pqt_mem_free(u);
    if (!c->slots) {
        pqt_scan_cmp_free(c);
        return oom();
    }
    *ret = c;
    return PQT_OK;
}

pqt_status pqt_scan_cmp_build(const pqt_filter *f, const frule *rule, const fnode *n, int negate,
                              const pqt_scan_col *cols, int ncols, pqt_scan_slot_fn slot_fn,
                              void *slot_ctx, fleaf *lf, int *leaf_ok, int *col_ret, fcmp **cmp_ret)
{
    xctx C = {rule, n, cols, ncols, slot_fn, slot_ctx, n->lo};
    *leaf_ok = 0;
    *cmp_ret = NULL;
    int op = n->op;
    const pexpr *pl = n->xl;
    if (op == FOP_TRUE && pl->op == XO_COL) {
        /* a bare column: a predicate only when it is bool */
        for (int i = 0; i < ncols; i++) {
            if (strcmp(cols[i].name, pl->name) != 0) continue;
            if (cols[i].kind != PQT_BOOL) break;
            xnode t = {.type = XT_BOOL, .i = 1, .lo = pl->lo - n->lo, .hi = pl->hi - n->lo};
            *leaf_ok = 1;
            return as_leaf(&C, f, pl->name, pl->lo, FOP_EQ, &t, negate, lf, col_ret);
        }
        return xfail(&C, pl->lo,
                     " is missing an operator (a column alone is a predicate only when it is "
                     "bool: flag, not flag)%s",
                     "");
    }
    const pexpr *pr = n->xr;
    if (pr && pr->op == XO_COL && !pr->quoted) {
        /* v == abc: a word on the right naming no column was meant as a value */
        int found = 0;
        for (int i = 0; i < ncols && !found; i++)
            found = strcmp(cols[i].name, pr->name) == 0;
        if (!found) {
            /* the nearest column name, as an unknown column's message gives it */
            char near[120] = "";
            int ci = 0;
            if (pqt_scan_col_find(rule, pr->name, pr->lo, cols, ncols, &ci) != PQT_OK) {
                const char *m = strstr(pqt_errmsg(), " (did you mean '");
                const char *e = m ? strstr(m, "'?)") : NULL;
                if (e) snprintf(near, sizeof near, "%.*s", (int)(e + 3 - m), m);
            }
            return xfail(&C, pr->lo,
                         ": '%s' is not a number, true or false (a string value is written in "
                         "double quotes), nor a column of the table%s",
                         pr->name, near);
        }
    }
    xnode *l = NULL, *r = NULL;
    PQT_TRY(build(&C, pl, &l));
    pqt_status st = n->xr ? build(&C, n->xr, &r) : PQT_OK;
    if (st == PQT_OK && r) {
        const xnode *col = NULL, *lit = NULL;
        if (l->op == XO_COL && r->op == XO_LIT)
            col = l, lit = r;
        else if (l->op == XO_LIT && r->op == XO_COL)
            col = r, lit = l, op = flip(op);
        if (col) {
            *leaf_ok = 1;
            st = as_leaf(&C, f, col->col, C.base + col->lo, op, lit, negate, lf, col_ret);
            goto done;
        }
        st = check_cmp(&C, l, r);
    } else if (st == PQT_OK && op == FOP_TRUE) {
        if (l->type != XT_BOOL) {
            char d[300];
            describe(&C, l, d, sizeof d);
            st = xfail(&C, pl->lo, ": a predicate compares values; %s, not a bool%s", d, "");
        } else if (l->op == XO_CALL && (l->fn == FF_ISNAN || l->fn == FF_ISFINITE) &&
                   l->args[0]->op == XO_COL && l->args[0]->type == XT_FLOAT) {
            *leaf_ok = 1; /* isnan(x) is x is_nan, with its pushdown */
            st = as_leaf(&C, f, l->args[0]->col, C.base + l->args[0]->lo,
                         l->fn == FF_ISNAN ? FOP_IS_NAN : FOP_IS_FINITE, NULL, negate, lf, col_ret);
            goto done;
        }
    } else if (st == PQT_OK &&
               (op == FOP_IS_NAN || op == FOP_IS_NOT_NAN || op == FOP_IS_FINITE ||
                op == FOP_IS_NOT_FINITE) &&
               !numeric(l)) {
        char d[300];
        describe(&C, l, d, sizeof d);
        st = xfail(&C, n->op_lo, ": %s applies to numbers; %s", pqt_scan_fop_name(op), d);
    }
    if (st == PQT_OK) return finish(&C, op, negate, l, r, cmp_ret);
done:
    pqt_scan_xnode_free(l);
    pqt_scan_xnode_free(r);
    return st;
}
