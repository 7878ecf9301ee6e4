/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_compile.c - a pqt_filter compiled against a column list (layer: scan).
 *
 * NOT is pushed into the clauses (De Morgan over and/or, exact in Kleene logic; a negated
 * clause swaps its true and false rows), AND/OR chains are flattened, and the AND of all
 * rules is split into conjuncts, each listing the column slots it reads. Slots are numbered
 * in order of first use. The program owns copies of every literal and set, so the filter
 * may change afterwards (docs/filters.md: clearing a filter does not disturb a table).
 */
#include <stdbool.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_lex.h"
#include "scan/filter_resolve.h"
#include "util/error.h"
#include "util/mem.h"

static pqt_status oom(void) { return pqt_err(PQT_NOMEM, "out of memory compiling a filter"); }

typedef struct cctx {
    const pqt_filter *f;
    const pqt_scan_col *cols;
    int ncols;
    pqt_fprog *p;
    int *slot_of; /* per column of the list: its slot, or -1 */
} cctx;

static void expr_free(fexpr *e)
{
    if (!e) return;
    pqt_scan_cb_free(e->cb);
    pqt_scan_cmp_free(e->cmp);
    for (int32_t k = 0; k < e->nkids; k++) expr_free(e->kids[k]);
    pqt_mem_free(e->kids);
    if (e->type == FX_LEAF) pqt_scan_leaf_free(&e->leaf);
    pqt_mem_free(e);
}

static pqt_status slot_for(cctx *C, int ci, int *slot_ret)
{
    pqt_fprog *p = C->p;
    if (C->slot_of[ci] < 0) {
        int n = p->ncols + 1;
        int *cols = pqt_realloc(p->cols, (size_t)n * sizeof *cols);
        if (cols) p->cols = cols;
        int *kinds = cols ? pqt_realloc(p->kinds, (size_t)n * sizeof *kinds) : NULL;
        if (kinds) p->kinds = kinds;
        int *units = kinds ? pqt_realloc(p->units, (size_t)n * sizeof *units) : NULL;
        if (!units) return oom();
        p->units = units;
        p->cols[p->ncols] = ci;
        p->kinds[p->ncols] = C->cols[ci].kind;
        p->units[p->ncols] = C->cols[ci].unit;
        C->slot_of[ci] = p->ncols++;
    }
    *slot_ret = C->slot_of[ci];
    return PQT_OK;
}

static pqt_status push_kid(fexpr *e, fexpr *k, int32_t *cap)
{
    if (e->nkids == *cap) {
        *cap = *cap ? 2 * *cap : 4;
        fexpr **kids = pqt_realloc(e->kids, (size_t)*cap * sizeof *kids);
        if (!kids) return oom();
        e->kids = kids;
    }
    e->kids[e->nkids++] = k;
    return PQT_OK;
}

static pqt_status slot_cb(void *ctx, int ci, int *slot_ret) { return slot_for(ctx, ci, slot_ret); }

/* A clause column word that names no column but reads as arithmetic (g-r > 0.5, written in
 * the spaced form that lets a name hold any character) is the expression. */
static int word_is_expr(const cctx *C, const frule *rule, const fnode *n)
{
    if (!rule->text || !n->col || n->op > FOP_NE || rule->text[n->col_lo] == '`') return 0;
    int arith = 0;
    for (const char *p = n->col; *p; p++)
        arith |= *p == '+' || *p == '-' || *p == '*' || *p == '/' || *p == '%' || *p == '(';
    if (!arith) return 0;
    for (int i = 0; i < C->ncols; i++)
        if (strcmp(C->cols[i].name, n->col) == 0) return 0;
    return 1;
}

/* A predicate over expressions: a plain leaf when it reduces to one, else FX_CMP. */
static pqt_status compile_pred(cctx *C, const frule *rule, const fnode *n, int negate, fexpr *e)
{
    fnode tmp;
    const fnode *pn = n;
    pqt_status st = PQT_OK;
    e->type = FX_LEAF; /* so a failure frees what a leaf build left */
    if (n->type == FN_CLAUSE) {
        memset(&tmp, 0, sizeof tmp);
        tmp = *n;
        tmp.type = FN_PRED;
        tmp.nkids = 0;
        tmp.kids = NULL;
        tmp.xl = tmp.xr = NULL;
        int32_t hi = n->col_lo + (int32_t)strlen(n->col);
        st = pqt_scan_pexpr_span(rule->text, rule->nbytes, n->col_lo, hi, &tmp.xl);
        if (st != PQT_OK) {
            /* not an expression either: the unknown column it names */
            return pqt_scan_leaf_build(C->f, rule, n, negate, C->cols, C->ncols, &(int){0},
                                       &e->leaf);
        }
        tmp.xr = pqt_calloc(1, sizeof *tmp.xr);
        if (!tmp.xr) {
            pqt_scan_pexpr_free(tmp.xl);
            return oom();
        }
        tmp.xr->op = XO_LIT;
        tmp.xr->lit = n->val;
        tmp.xr->lit.s = NULL;
        tmp.xr->lo = n->val.lo;
        tmp.xr->hi = n->val.hi;
        if (n->val.s && !(tmp.xr->lit.s = pqt_strndup(n->val.s, (size_t)n->val.len))) st = oom();
        pn = &tmp;
    }
    int leaf_ok = 0, ci = 0;
    fcmp *cmp = NULL;
    if (st == PQT_OK)
        st = pqt_scan_cmp_build(C->f, rule, pn, negate, C->cols, C->ncols, slot_cb, C, &e->leaf,
                                &leaf_ok, &ci, &cmp);
    if (pn == &tmp) {
        pqt_scan_pexpr_free(tmp.xl);
        pqt_scan_pexpr_free(tmp.xr);
    }
    if (st != PQT_OK) return st;
    if (cmp) {
        e->type = FX_CMP;
        e->cmp = cmp;
        return PQT_OK;
    }
    e->type = FX_LEAF;
    int slot = 0;
    PQT_TRY(slot_for(C, ci, &slot));
    e->leaf.slot = slot;
    return PQT_OK;
}

static pqt_status compile_node(cctx *C, const frule *rule, const fnode *n, int negate,
                               fexpr **ret)
{
    if (n->type == FN_NOT) return compile_node(C, rule, n->kids[0], !negate, ret);
    fexpr *e = pqt_calloc(1, sizeof *e);
    if (!e) return oom();
    pqt_status st = PQT_OK;
    if (n->type == FN_CALLBACK) {
        e->type = FX_CALLBACK;
        fcb *cb = e->cb = pqt_calloc(1, sizeof *cb);
        if (cb) {
            cb->fn = n->cb_fn;
            cb->user = n->cb_user;
            cb->slots = pqt_calloc((size_t)n->cb_ncols, sizeof *cb->slots);
            cb->names = pqt_calloc((size_t)n->cb_ncols, sizeof *cb->names);
        }
        if (!cb || !cb->slots || !cb->names) st = oom();
        for (int32_t k = 0; k < n->cb_ncols && st == PQT_OK; k++) {
            int ci = 0;
            st = pqt_scan_cb_resolve(n, k, C->cols, C->ncols, &ci);
            if (st == PQT_OK) st = slot_for(C, ci, &cb->slots[k]);
            if (st == PQT_OK && !(cb->names[k] = pqt_strdup(C->cols[ci].name))) st = oom();
            if (st == PQT_OK) cb->n++;
        }
    } else if (n->type == FN_PRED || (n->type == FN_CLAUSE && word_is_expr(C, rule, n))) {
        st = compile_pred(C, rule, n, negate, e);
    } else if (n->type == FN_CLAUSE) {
        int ci = 0, slot = 0;
        e->type = FX_LEAF;
        st = pqt_scan_leaf_build(C->f, rule, n, negate, C->cols, C->ncols, &ci, &e->leaf);
        if (st == PQT_OK) st = slot_for(C, ci, &slot);
        if (st == PQT_OK) e->leaf.slot = slot;
    } else {
        /* not (a and b) = (not a) or (not b), and the other way round */
        e->type = (uint8_t)((n->type == FN_AND) != (negate != 0) ? FX_AND : FX_OR);
        int32_t cap = 0;
        for (int32_t i = 0; i < n->nkids && st == PQT_OK; i++) {
            fexpr *k = NULL;
            st = compile_node(C, rule, n->kids[i], negate, &k);
            if (st != PQT_OK) break;
            if (k->type != e->type) {
                st = push_kid(e, k, &cap);
                if (st != PQT_OK) expr_free(k);
                continue;
            }
            for (int32_t j = 0; j < k->nkids && st == PQT_OK; j++) {
                st = push_kid(e, k->kids[j], &cap);
                if (st == PQT_OK) k->kids[j] = NULL;
            }
            expr_free(k);
        }
    }
    if (st != PQT_OK) {
        expr_free(e);
        return st;
    }
    *ret = e;
    return PQT_OK;
}

static int expr_depth(const fexpr *e)
{
    int d = 0;
    for (int32_t k = 0; k < e->nkids; k++) {
        int x = expr_depth(e->kids[k]);
        if (x > d) d = x;
    }
    return e->type == FX_LEAF || e->type == FX_CALLBACK || e->type == FX_CMP ? 0 : d + 1;
}

static int expr_cost(const fexpr *e)
{
    if (e->type == FX_CALLBACK) return 8 + 2 * e->cb->n; /* a call, then its columns */
    if (e->type == FX_CMP) return 4 + 2 * e->cmp->nres; /* every node a pass over the rows */
    if (e->type != FX_LEAF) {
        int c = 0;
        for (int32_t k = 0; k < e->nkids; k++) c += expr_cost(e->kids[k]);
        return c;
    }
    const fleaf *lf = &e->leaf;
    int c = lf->kind == PQT_STRING ? 5 : lf->kind == PQT_FLOAT32 || lf->kind == PQT_FLOAT64 ? 2 : 1;
    if (lf->op == FOP_IS_NULL || lf->op == FOP_TRUE || lf->op == FOP_FALSE) c = 1;
    return c + (lf->op == FOP_IN);
}

static void mark_slots(const fexpr *e, uint8_t *used)
{
    if (e->type == FX_LEAF) used[e->leaf.slot] = 1;
    if (e->type == FX_CALLBACK)
        for (int k = 0; k < e->cb->n; k++) used[e->cb->slots[k]] = 1;
    if (e->type == FX_CMP)
        for (int k = 0; k < e->cmp->nslots; k++) used[e->cmp->slots[k]] = 1;
    for (int32_t k = 0; k < e->nkids; k++) mark_slots(e->kids[k], used);
}

static pqt_status add_conj(pqt_fprog *p, fexpr *e, int *cap)
{
    if (p->nconj == *cap) {
        *cap = *cap ? 2 * *cap : 4;
        fconj *c = pqt_realloc(p->conj, (size_t)*cap * sizeof *c);
        if (!c) return oom();
        p->conj = c;
    }
    fconj *c = &p->conj[p->nconj];
    memset(c, 0, sizeof *c);
    c->root = e;
    p->nconj++;
    return PQT_OK;
}

/* Conjuncts reading exactly the same columns become one AND: their columns are decoded
 * once and the second clause runs only on rows the first kept (`id >= 5001 and id <= 5100`
 * decodes id once). Callbacks stay conjuncts of their own. */
static bool same_slots(const fconj *a, const fconj *b)
{
    return a->ncols == b->ncols && memcmp(a->slots, b->slots, (size_t)a->ncols * sizeof *a->slots) == 0;
}

static pqt_status merge_same_columns(pqt_fprog *p)
{
    for (int i = 0; i < p->nconj; i++) {
        fconj *a = &p->conj[i];
        if (a->root->type == FX_CALLBACK) continue;
        for (int j = i + 1; j < p->nconj;) {
            fconj *b = &p->conj[j];
            if (b->root->type == FX_CALLBACK || !same_slots(a, b)) {
                j++;
                continue;
            }
            if (a->root->type != FX_AND) {
                fexpr *and = pqt_calloc(1, sizeof *and);
                if (!and) return oom();
                and->type = FX_AND;
                int32_t cap = 0;
                if (push_kid(and, a->root, &cap) != PQT_OK) {
                    pqt_mem_free(and);
                    return oom();
                }
                a->root = and;
            }
            int32_t cap = a->root->nkids; /* push_kid doubles from the current count */
            fexpr *broot = b->root;
            if (broot->type == FX_AND) {
                for (int32_t k = 0; k < broot->nkids; k++) {
                    PQT_TRY(push_kid(a->root, broot->kids[k], &cap));
                    broot->kids[k] = NULL;
                }
                expr_free(broot);
            } else {
                PQT_TRY(push_kid(a->root, broot, &cap));
            }
            a->cost += b->cost;
            int d = expr_depth(a->root);
            a->depth = d;
            if (d > p->depth) p->depth = d;
            pqt_mem_free(b->slots);
            memmove(b, b + 1, (size_t)(p->nconj - j - 1) * sizeof *b);
            p->nconj--;
        }
    }
    return PQT_OK;
}

/* Column lists, depth and cost of every conjunct, once all slots are known. */
static pqt_status finish(pqt_fprog *p)
{
    uint8_t *used = pqt_malloc((size_t)(p->ncols ? p->ncols : 1));
    if (!used) return oom();
    for (int k = 0; k < p->nconj; k++) {
        fconj *c = &p->conj[k];
        memset(used, 0, (size_t)(p->ncols ? p->ncols : 1));
        mark_slots(c->root, used);
        int n = 0;
        for (int s = 0; s < p->ncols; s++) n += used[s];
        c->slots = pqt_malloc_array((size_t)(n ? n : 1), sizeof *c->slots);
        if (!c->slots) {
            pqt_mem_free(used);
            return oom();
        }
        for (int s = 0; s < p->ncols; s++)
            if (used[s]) c->slots[c->ncols++] = s;
        c->depth = expr_depth(c->root);
        c->cost = expr_cost(c->root);
        if (c->depth > p->depth) p->depth = c->depth;
    }
    pqt_mem_free(used);
    return PQT_OK;
}

pqt_status pqt_scan_compile(const pqt_filter *f, const pqt_scan_col *cols, int ncols,
                            pqt_fprog **ret)
{
    if (!f || !ret || (ncols > 0 && !cols) || ncols < 0)
        return pqt_err(PQT_MISUSE, "pqt_scan_compile: bad arguments");
    pqt_fprog *p = pqt_calloc(1, sizeof *p);
    int *slot_of = pqt_malloc_array((size_t)(ncols ? ncols : 1), sizeof *slot_of);
    if (!p || !slot_of) {
        pqt_mem_free(p);
        pqt_mem_free(slot_of);
        return oom();
    }
    for (int i = 0; i < ncols; i++) slot_of[i] = -1;
    cctx C = {f, cols, ncols, p, slot_of};
    pqt_status st = PQT_OK;
    int cap = 0;
    for (int r = 0; r < f->nrules && st == PQT_OK; r++) {
        fexpr *e = NULL;
        st = compile_node(&C, &f->rules[r], f->rules[r].root, 0, &e);
        if (st != PQT_OK) break;
        if (e->type != FX_AND) {
            st = add_conj(p, e, &cap);
            if (st != PQT_OK) expr_free(e);
            continue;
        }
        for (int32_t k = 0; k < e->nkids && st == PQT_OK; k++) {
            st = add_conj(p, e->kids[k], &cap);
            if (st == PQT_OK) e->kids[k] = NULL;
        }
        expr_free(e);
    }
    if (st == PQT_OK) st = finish(p);
    if (st == PQT_OK) st = merge_same_columns(p);
    pqt_mem_free(slot_of);
    if (st != PQT_OK) {
        pqt_scan_prog_free(p);
        return st;
    }
    *ret = p;
    return PQT_OK;
}

void pqt_scan_prog_free(pqt_fprog *p)
{
    if (!p) return;
    for (int k = 0; k < p->nconj; k++) {
        expr_free(p->conj[k].root);
        pqt_mem_free(p->conj[k].slots);
    }
    pqt_mem_free(p->conj);
    pqt_mem_free(p->cols);
    pqt_mem_free(p->kinds);
    pqt_mem_free(p->units);
    pqt_mem_free(p);
}

int pqt_scan_prog_ncols(const pqt_fprog *p) { return p->ncols; }
int pqt_scan_prog_col(const pqt_fprog *p, int slot)
{
    return slot >= 0 && slot < p->ncols ? p->cols[slot] : -1;
}
int pqt_scan_prog_nconj(const pqt_fprog *p) { return p->nconj; }
int pqt_scan_conj_ncols(const pqt_fprog *p, int k)
{
    return k >= 0 && k < p->nconj ? p->conj[k].ncols : 0;
}
const int *pqt_scan_conj_cols(const pqt_fprog *p, int k)
{
    return k >= 0 && k < p->nconj ? p->conj[k].slots : NULL;
}
bool pqt_scan_conj_is_callback(const pqt_fprog *p, int k)
{
    return k >= 0 && k < p->nconj && p->conj[k].root->type == FX_CALLBACK;
}
int pqt_scan_conj_cost(const pqt_fprog *p, int k)
{
    return k >= 0 && k < p->nconj ? p->conj[k].cost : 0;
}
