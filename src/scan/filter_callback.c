/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_callback.c - predicates written in C (pqt_filter_add_callback) inside the filter
 * program (layer: scan).
 *
 * A callback is a conjunct of its own: it is ordered with the others, runs only on rows still
 * alive and refines the selection like a built-in clause (docs/filters.md, "Predicates in C").
 * When some rows of a batch are no longer alive, the alive rows are gathered into a compact
 * batch first, so the callback never sees (or pays for) a dropped row.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_int.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/suggest.h"

#define PQT_CB_MAX_COLS 16

pqt_status pqt_filter_add_callback(pqt_filter *f, const char *const *columns, int ncols,
                                   pqt_filter_fn fn, void *user)
{
    const char *call = "pqt_filter_add_callback";
    if (!f || !fn || !columns || ncols < 1 || ncols > PQT_CB_MAX_COLS)
        return pqt_err(PQT_MISUSE, "%s: a filter, a function and 1 to %d column names are needed",
                       call, PQT_CB_MAX_COLS);
    for (int k = 0; k < ncols; k++) {
        size_t len = columns[k] ? strlen(columns[k]) : 0;
        if (len == 0 || len > PQT_FILTER_MAX_NAME_NBYTES)
            return pqt_err(PQT_BAD_FILTER, "%s: column name %d must be 1 to %d characters", call,
                           k + 1, PQT_FILTER_MAX_NAME_NBYTES);
    }
    int implicit_and = f->nrules > 0;
    if (f->nnodes + implicit_and + 1 > PQT_FILTER_MAX_NODES)
        return pqt_err(PQT_BAD_FILTER, "%s: filter expression has more terms than the supported "
                                       "limit (%d nodes)",
                       call, PQT_FILTER_MAX_NODES);
    fnode *c = pqt_calloc(1, sizeof *c);
    bool ok = c && (c->cb_cols = pqt_calloc((size_t)ncols, sizeof *c->cb_cols));
    for (int k = 0; ok && k < ncols; k++) {
        ok = (c->cb_cols[k] = pqt_strdup(columns[k])) != NULL;
        if (ok) c->cb_ncols++;
    }
    if (ok && f->nrules == f->rules_cap) {
        int cap = f->rules_cap ? 2 * f->rules_cap : 4;
        frule *r = pqt_realloc(f->rules, (size_t)cap * sizeof *r);
        if (r) {
            f->rules = r;
            f->rules_cap = cap;
        }
        ok = r != NULL;
    }
    if (!ok) {
        pqt_scan_node_free(c);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    c->type = FN_CALLBACK;
    c->set_idx = -1;
    c->cb_fn = fn;
    c->cb_user = user;
    f->rules[f->nrules++] = (frule){NULL, 0, c};
    f->nnodes += 1 + implicit_and;
    return PQT_OK;
}

pqt_status pqt_scan_cb_resolve(const fnode *n, int k, const pqt_scan_col *cols, int ncols,
                               int *ci_ret)
{
    const char *name = n->cb_cols[k];
    for (int i = 0; i < ncols; i++) {
        if (strcmp(cols[i].name, name) != 0) continue;
        if (cols[i].kind & (PQT_VECTOR | PQT_LIST))
            return pqt_err(PQT_BAD_FILTER, "filter callback: column '%s' holds %s: a callback "
                                           "takes scalar columns",
                           name, (cols[i].kind & PQT_VECTOR) ? "vectors" : "lists");
        if (PQT_KIND_ELEMENT(cols[i].kind) == PQT_NONE)
            return pqt_err(PQT_BAD_FILTER, "filter callback: column '%s' has a type this library "
                                           "cannot read",
                           name);
        *ci_ret = i;
        return PQT_OK;
    }
    pqt_suggest sg;
    pqt_suggest_init(&sg, name);
    for (int i = 0; i < ncols; i++) pqt_suggest_offer(&sg, cols[i].name);
    char hint[160];
    return pqt_err(PQT_BAD_FILTER, "filter callback: no column '%s'%s", name,
                   pqt_suggest_text(&sg, hint, sizeof hint));
}

void pqt_scan_cb_free(fcb *cb)
{
    if (!cb) return;
    if (cb->names)
        for (int k = 0; k < cb->n; k++) pqt_mem_free(cb->names[k]);
    pqt_mem_free(cb->names);
    pqt_mem_free(cb->slots);
    pqt_mem_free(cb);
}

static bool bit(const uint64_t *w, int64_t i) { return w[i >> 6] >> (i & 63) & 1; }

/* The m alive rows of one column (rows[] lists them) gathered into owned buffers. */
typedef struct packed {
    void *data;
    char *bytes;
    uint8_t *validity;
} packed;

static void packed_free(packed *p)
{
    pqt_mem_free(p->data);
    pqt_mem_free(p->bytes);
    pqt_mem_free(p->validity);
}

static pqt_status pack(int kind, const pqt_scan_vec *v, const int64_t *rows, int64_t m, packed *p)
{
    memset(p, 0, sizeof *p);
    if (v->validity) {
        if (!(p->validity = pqt_calloc((size_t)(m + 7) / 8 + 1, 1))) goto oom;
        for (int64_t j = 0; j < m; j++)
            pqt_bit_or(p->validity, j, pqt_bit_get(v->validity, rows[j]));
    }
    if (kind == PQT_STRING) {
        const int64_t *off = v->data;
        int64_t total = 0;
        for (int64_t j = 0; j < m; j++) total += off[rows[j] + 1] - off[rows[j]];
        int64_t *noff = p->data = pqt_malloc_array((size_t)m + 1, sizeof *noff);
        if (!noff || !(p->bytes = pqt_malloc((size_t)total + 1))) goto oom;
        noff[0] = 0;
        for (int64_t j = 0; j < m; j++) {
            int64_t len = off[rows[j] + 1] - off[rows[j]];
            memcpy(p->bytes + noff[j], v->bytes + off[rows[j]], (size_t)len);
            noff[j + 1] = noff[j] + len;
        }
        return PQT_OK;
    }
    size_t w = pqt_kind_elem_nbytes(kind);
    if (!(p->data = pqt_malloc_array((size_t)m + 1, w))) goto oom;
    for (int64_t j = 0; j < m; j++)
        memcpy((char *)p->data + (size_t)j * w, (const char *)v->data + (size_t)rows[j] * w, w);
    return PQT_OK;
oom:
    packed_free(p);
    return pqt_err(PQT_NOMEM, "out of memory gathering %lld rows for a filter callback",
                   (long long)m);
}

pqt_status pqt_scan_cb_eval(const pqt_fprog *p, const fcb *cb, const pqt_scan_vec *vecs,
                            int64_t n, const uint64_t *sel, uint64_t *out)
{
    int64_t nw = (n + 63) >> 6, m = 0;
    for (int64_t w = 0; w < nw; w++) m += pqt_popcount64(sel[w]);
    memset(out, 0, (size_t)nw * sizeof *out);
    if (m == 0) return PQT_OK;
    pqt_batch_col cols[PQT_CB_MAX_COLS];
    packed pk[PQT_CB_MAX_COLS];
    memset(pk, 0, sizeof pk);
    int64_t *rows = NULL;
    uint8_t *keep = pqt_calloc((size_t)(m + 7) / 8 + 1, 1);
    pqt_status st = keep ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory for a filter callback");
    bool compact = m < n;
    if (st == PQT_OK && compact) {
        rows = pqt_malloc_array((size_t)m, sizeof *rows);
        if (!rows) st = pqt_err(PQT_NOMEM, "out of memory for a filter callback");
        for (int64_t i = 0, j = 0; rows && i < n; i++)
            if (bit(sel, i)) rows[j++] = i;
    }
    for (int k = 0; k < cb->n && st == PQT_OK; k++) {
        int s = cb->slots[k], kind = PQT_KIND_ELEMENT(p->kinds[s]);
        const pqt_scan_vec *v = &vecs[s];
        cols[k] = (pqt_batch_col){cb->names[k], kind, p->units[s], v->data, v->bytes, v->validity};
        if (!compact) continue;
        st = pack(kind, v, rows, m, &pk[k]);
        cols[k].data = pk[k].data;
        cols[k].bytes = pk[k].bytes;
        cols[k].validity = pk[k].validity;
    }
    if (st == PQT_OK) {
        int rc = cb->fn(cb->user, cols, cb->n, m, keep);
        if (rc != 0) {
            char names[256] = "";
            size_t at = 0;
            for (int k = 0; k < cb->n && at < sizeof names; k++)
                at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", k ? ", " : "",
                                       cb->names[k]);
            st = pqt_err(PQT_CALLBACK, "filter callback over (%s) returned %d", names, rc);
        }
    }
    if (st == PQT_OK) {
        for (int64_t j = 0; j < m; j++) {
            if (!pqt_bit_get(keep, j)) continue;
            int64_t i = compact ? rows[j] : j;
            out[i >> 6] |= 1ULL << (i & 63);
        }
        /* a callback may only drop rows: a bit set for a row not alive is ignored */
        for (int64_t w = 0; w < nw; w++) out[w] &= sel[w];
    }
    for (int k = 0; k < cb->n; k++) packed_free(&pk[k]);
    pqt_mem_free(rows);
    pqt_mem_free(keep);
    return st;
}
