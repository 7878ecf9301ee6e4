/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_view.c - a table as a reader of tables sees it (table_view.h; layer: table): the
 * one place outside the table's own files that knows its slots, plan and file.
 */
#include "table/table_view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "table/table_int.h"
#include "util/bits.h"
#include "util/mem.h"

int pqt_tview_ncols(const pqt_table *t)
{
    return t->ncols;
}

void pqt_tview_describe(const pqt_table *t, int slot, pqt_tview_col *out)
{
    const pqt_tcol *c = &t->cols[slot];
    const pqt_col *fc = c->file_col >= 0 && t->f ? pqt_file_col(t->f, c->file_col) : NULL;
    /* residency and kind_known are published last (table_int.h): one load each */
    bool resident = c->residency == PQT_RES_FULL;
    bool known = c->kind_known;
    const pqt_colbuf *b = resident ? &c->buf : NULL;
    out->name = c->name;
    out->unit = c->unit ? c->unit : "";
    out->kind = c->kind;
    out->width = c->width;
    out->kind_known = known;
    if (b)
        out->elem_kind = b->elem_kind;
    else if (known)
        out->elem_kind = PQT_KIND_ELEMENT(c->kind);
    else if (c->decode_kind)
        out->elem_kind = c->decode_kind;
    else
        out->elem_kind = fc ? fc->elem_kind : PQT_KIND_ELEMENT(c->kind);
    out->is_list = b ? b->is_list : ((c->kind & (PQT_VECTOR | PQT_LIST)) || (fc && fc->is_list));
    out->time_unit = c->time_unit;
    out->cast = c->decode_kind != 0;
    out->added = c->added;
    out->as_read = !c->added && !c->user_written && !c->decode_kind;
    out->buf = b;
    out->fcol = fc;
    out->leaf = fc ? &pqt_file_footer(t->f)->schema[fc->leaf_schema_idx] : NULL;
    out->in_struct = fc && !fc->is_list && pqt_file_node_depth(t->f, fc->leaf_schema_idx) > 1;
}

int pqt_tview_find(const pqt_table *t, const char *name)
{
    return pqt_tbl_find(t, name);
}

const char *pqt_tview_where(const pqt_table *t)
{
    return pqt_tbl_where(t);
}

const char *pqt_tview_file_path(const pqt_table *t)
{
    return t->f ? pqt_file_path(t->f) : NULL;
}

bool pqt_tview_detached(const pqt_table *t)
{
    return t->detached;
}

bool pqt_tview_attached(const pqt_table *t)
{
    return t->f && !t->detached;
}

bool pqt_tview_permuted(const pqt_table *t)
{
    return t->plan.perm != NULL;
}

int pqt_tview_kv(const pqt_table *t, const pqt_kv **kv_ret)
{
    *kv_ret = t->f ? pqt_file_footer(t->f)->kv : NULL;
    return t->f ? pqt_file_footer(t->f)->nkv : 0;
}

int pqt_tview_nrg(const pqt_table *t)
{
    return t->plan.nrg;
}

int pqt_tview_threads(const pqt_table *t)
{
    return t->threads;
}

int64_t pqt_tview_rg_rows(const pqt_table *t, int rg, int64_t *first_ret)
{
    if (first_ret) *first_ret = t->plan.dst_row[rg];
    return t->plan.sel[rg].nsel;
}

pqt_status pqt_tview_read_rg(pqt_table *t, int slot, int rg, bool unscaled, pqt_read_counters *rc,
                             pqt_colbuf *b, pqt_colbuf *spare, pqt_chunk_ctx **cxp)
{
    const pqt_tcol *c = &t->cols[slot];
    const pqt_plan *p = &t->plan;
    const pqt_col *fc = pqt_file_col(t->f, c->file_col);
    pqt_col dc;
    if (!*cxp) PQT_TRY(pqt_chunk_ctx_new(cxp));
    if (unscaled) {
        PQT_TRY(pqt_file_decimal_col(t->f, c->file_col, &dc));
        fc = &dc;
    }
    pqt_read_src src = pqt_file_read_src(t->f);
    pqt_read_req rq = pqt_read_req_group(&src, fc, p, rg);
    rq.counters = rc;
    rq.spare = spare;
    rq.serial_cx = *cxp;
    pqt_status st = pqt_read_column(&rq, b);
    if (st == PQT_OK && c->decode_kind) {
        st = pqt_tbl_buf_convert(b, c->decode_kind, c->cast_exact, c->name);
        if (st != PQT_OK) pqt_colbuf_free(b);
    }
    if (st != PQT_OK) pqt_err_prefix("column '%s', row group %d: ", c->name, rg + 1);
    return st;
}

pqt_status pqt_tview_read_unscaled(pqt_table *t, int slot, pqt_colbuf *out)
{
    return pqt_tbl_read_decimal_buf(t, slot, out, NULL);
}

pqt_status pqt_tview_file_rows(const pqt_table *t, pqt_colbuf *out)
{
    PQT_TRY(pqt_tbl_buf_new(out, PQT_INT64, false, 0, false, t->nrows, t->nrows));
    pqt_status st = pqt_plan_file_rows(&t->plan, (int64_t *)out->data);
    if (st != PQT_OK) pqt_colbuf_free(out);
    return st;
}

void pqt_tview_add_counters(pqt_table *t, int slot, const pqt_read_counters *rc)
{
    pqt_tbl_scan_add(t, &t->cols[slot], rc);
}

pqt_status pqt_tview_touch(pqt_table *t, int slot, const char *call)
{
    return pqt_tbl_touch(t, slot, call);
}

/* The schema node that names slot's file column (for a list: its LIST node) when the slot
 * reads a leaf inside structs under its path name, else -1. */
static int struct_column_node(const pqt_table *t, int slot)
{
    const pqt_tcol *c = &t->cols[slot];
    if (c->file_col < 0 || !t->f) return -1;
    const pqt_schema *sc = pqt_file_schema(t->f);
    const pqt_col *fc = &sc->cols[c->file_col];
    if (fc->top_level || strcmp(c->name, fc->path) != 0) return -1;
    int node = fc->leaf_schema_idx;
    while (node >= 0 && sc->node_col[node] != c->file_col)
        node = sc->node_parent[node];
    return node;
}

int pqt_tview_struct_depth(const pqt_table *t, int slot)
{
    int node = struct_column_node(t, slot);
    if (node < 0) return 0;
    int ng = 0;
    const pqt_schema *sc = pqt_file_schema(t->f);
    for (int p = sc->node_parent[node]; p > 0; p = sc->node_parent[p]) ng++;
    return ng;
}

void pqt_tview_struct_node(const pqt_table *t, int slot, int g, const char **name_ret,
                           bool *optional_ret)
{
    const pqt_schema *sc = pqt_file_schema(t->f);
    int node = struct_column_node(t, slot);
    for (int up = pqt_tview_struct_depth(t, slot) - g; up > 0; up--)
        node = sc->node_parent[node];
    const pqt_schema_elem *e = &pqt_file_footer(t->f)->schema[node];
    /* a renamed top-level field (a second one of its name) keeps its read name; the
     * column's own node is never one (it has groups above it) */
    const char **renamed = sc->field_name;
    *name_ret = renamed && renamed[node] ? renamed[node] : e->name;
    *optional_ret = e->repetition == PQT_REP_OPTIONAL;
}

pqt_status pqt_tview_hold_take(pqt_tview_hold *h, const pqt_table *t, const char *call,
                               const char *what)
{
    pqt_tbl_hold th = {NULL};
    pqt_status st = pqt_tbl_hold_take(&th, t, call, what);
    h->t = th.t;
    return st;
}

void pqt_tview_hold_drop(pqt_tview_hold *h)
{
    pqt_tbl_hold th = {h->t};
    pqt_tbl_hold_drop(&th);
    h->t = NULL;
}

void pqt_tview_warn(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pqt_tbl_warn("%s", msg);
}

const pqt_file *pqt_tview_file(const pqt_table *t) { return t->f; }

const pqt_plan *pqt_tview_plan(const pqt_table *t) { return &t->plan; }

pqt_status pqt_tview_share(pqt_table *t, int slot, pqt_colbuf_share **ret)
{
    pqt_tcol *c = &t->cols[slot];
    if (c->residency != PQT_RES_FULL)
        return pqt_err(PQT_MISUSE, "column '%s' is not resident: nothing to share", c->name);
    return pqt_colbuf_share_take(&c->buf, ret);
}

pqt_status pqt_tview_buf_concat(const pqt_colbuf *a, int64_t a_first, int64_t a_n,
                                const pqt_colbuf *b, int64_t b_first, int64_t b_n, int vec_width,
                                pqt_colbuf *dst)
{
    int64_t n = a_n + b_n;
    int64_t *idx = pqt_malloc_array((size_t)n + 1, sizeof *idx);
    if (!idx) return pqt_err(PQT_NOMEM, "out of memory joining %lld rows", (long long)n);
    /* gather's -1 is a null list row: a variable-length list keeps its nulls that way */
    bool varlist = a->is_list && vec_width <= 0;
    for (int64_t i = 0; i < a_n; i++) {
        int64_t r = a_first + i;
        idx[i] = varlist && a->row_validity && !pqt_bit_get(a->row_validity, r) ? -1 : r;
    }
    for (int64_t i = 0; i < b_n; i++) {
        int64_t r = b_first + i;
        idx[a_n + i] = varlist && b->row_validity && !pqt_bit_get(b->row_validity, r) ? -1 : -r - 2;
    }
    pqt_status st = pqt_tbl_buf_gather(a, b, idx, n, vec_width, dst);
    pqt_mem_free(idx);
    return st;
}
