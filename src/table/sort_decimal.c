/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sort_decimal.c - DECIMAL sort keys in exact order (layer: table; see sort_decimal.h).
 * Parquet-format LogicalTypes.md, DECIMAL: value = unscaled / 10^scale, one scale per column.
 */
#include "table/sort_decimal.h"

#include <string.h>

#include "util/mem.h"

void pqt_sort_exact_free(pqt_sort_exact *e)
{
    for (int k = 0; k < 2; k++) {
        e->part[k].validity = NULL; /* borrowed from raw */
        pqt_colbuf_free(&e->part[k]);
    }
    pqt_colbuf_free(&e->raw);
    e->nparts = 0;
}

/* int128 {low, high} pairs as two int64 columns: high (signed) first, low (unsigned) next
 * order the pairs lexicographically as the int128 values order. */
static pqt_status split_halves(pqt_sort_exact *e)
{
    int64_t n = e->raw.nrows;
    const int64_t *v = e->raw.data;
    int64_t *hi = pqt_malloc_array((size_t)n + 1, sizeof *hi);
    uint64_t *lo = pqt_malloc_array((size_t)n + 1, sizeof *lo);
    if (!hi || !lo) {
        pqt_mem_free(hi);
        pqt_mem_free(lo);
        return pqt_err(PQT_NOMEM, "out of memory sorting by a decimal column");
    }
    for (int64_t r = 0; r < n; r++) {
        lo[r] = (uint64_t)v[2 * r];
        hi[r] = v[2 * r + 1];
    }
    for (int k = 0; k < 2; k++) {
        pqt_colbuf *b = &e->part[k];
        memset(b, 0, sizeof *b);
        b->elem_kind = k ? PQT_UINT64 : PQT_INT64;
        b->elem_nbytes = 8;
        b->nrows = b->nelem = b->elem_cap = b->rows_cap = n;
        b->data = k ? (void *)lo : (void *)hi;
        b->validity = e->raw.validity;
    }
    return PQT_OK;
}

pqt_status pqt_sort_exact_read(pqt_table *t, int ci, int threads, pqt_sort_exact *e)
{
    memset(e, 0, sizeof *e);
    pqt_tcol *c = &t->cols[ci];
    if (!t->f || t->detached || c->file_col < 0 || c->added || c->user_written ||
        c->decode_kind || c->kind != PQT_FLOAT64)
        return PQT_OK;
    const pqt_col *fc = pqt_file_col(t->f, c->file_col);
    if (fc->conv != PQT_CONV_DECIMAL || fc->decimal_precision < 16 || fc->decimal_precision > 38)
        return PQT_OK;
    pqt_col dc;
    PQT_TRY(pqt_file_decimal_col(t->f, c->file_col, &dc));
    const pqt_plan *p = &t->plan;
    pqt_read_counters rc = {0};
    pqt_read_src src = pqt_file_read_src(t->f);
    pqt_read_req rq = pqt_read_req_plan(&src, &dc, p);
    rq.threads = threads;
    rq.counters = &rc;
    pqt_status st = pqt_read_column(&rq, &e->raw);
    pqt_tbl_scan_add(t, c, &rc);
    if (st == PQT_OK && p->perm) { /* the table's order: read-time sorted */
        pqt_colbuf g;
        st = pqt_tbl_buf_gather(&e->raw, NULL, p->perm, p->nsel, 0, &g);
        pqt_colbuf_free(&e->raw);
        if (st == PQT_OK) e->raw = g;
    }
    if (st == PQT_OK && e->raw.elem_kind == PQT_INT128) st = split_halves(e);
    if (st != PQT_OK) {
        pqt_sort_exact_free(e);
        return st;
    }
    e->nparts = e->raw.elem_kind == PQT_INT128 ? 2 : 1;
    return PQT_OK;
}

void pqt_sort_exact_keys(const pqt_sort_exact *e, bool desc, bool nulls_first,
                         pqt_sort_key *keys, int *n)
{
    if (e->nparts == 1) {
        keys[(*n)++] = (pqt_sort_key){&e->raw, PQT_INT64, desc, nulls_first};
        return;
    }
    for (int k = 0; k < e->nparts; k++)
        keys[(*n)++] = (pqt_sort_key){&e->part[k], k ? PQT_UINT64 : PQT_INT64, desc, nulls_first};
}
