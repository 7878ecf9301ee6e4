/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_rows.c - removing rows: pqt_table_delete_rows and pqt_table_truncate (layer: table).
 *
 * Both are row-structural: rows that actually go change the row set, so the table detaches
 * from its file (never-read columns become unreadable, the row index can no longer be
 * built). The rows are checked and every resident column's new buffer is built before
 * anything is committed, so a failure changes nothing; a call that removes no row changes
 * nothing at all (no detach, no new generation).
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* Keep the rows whose keep[i] is set (nkeep of them); commit or change nothing. */
static pqt_status keep_rows(pqt_table *t, const char *call, const bool *keep, int64_t nkeep)
{
    PQT_TBL_HOLD(t, call, "removing rows");
    int64_t *idx = pqt_malloc_array((size_t)nkeep + 1, sizeof *idx);
    pqt_colbuf *nb = pqt_calloc((size_t)t->ncols + 1, sizeof *nb);
    pqt_status st = PQT_OK;
    if (!idx || !nb) {
        st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
        goto done;
    }
    int64_t k = 0;
    for (int64_t i = 0; i < t->nrows; i++)
        if (keep[i]) idx[k++] = i;
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        const pqt_tcol *c = &t->cols[i];
        if (c->residency != PQT_RES_FULL) continue; /* unreadable after the detach */
        st = pqt_tbl_buf_gather(&c->buf, NULL, idx, nkeep, (c->kind & PQT_VECTOR) ? c->width : 0,
                                &nb[i]);
    }
    if (st != PQT_OK) goto done;
    pqt_tbl_install_rows(t, nb, nkeep, call);
done:
    if (nb)
        for (int i = 0; i < t->ncols; i++) pqt_colbuf_free(&nb[i]);
    pqt_mem_free(nb);
    pqt_mem_free(idx);
    return st;
}

pqt_status pqt_table_delete_rows(pqt_table *t, const int64_t *rows, int64_t n)
{
    const char *call = "pqt_table_delete_rows";
    if (!t || n < 0 || (n > 0 && !rows)) return pqt_err(PQT_MISUSE, "%s: bad arguments", call);
    for (int64_t k = 0; k < n; k++)
        if (rows[k] < 1 || rows[k] > t->nrows)
            return pqt_err(PQT_RANGE, "%s: row %lld (entry %lld) is outside the table's rows "
                                      "1..%lld; nothing was deleted",
                           call, (long long)rows[k], (long long)k + 1, (long long)t->nrows);
    if (n == 0) return PQT_OK; /* changes nothing */
    bool *keep = pqt_malloc_array((size_t)t->nrows + 1, sizeof *keep);
    if (!keep) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    for (int64_t i = 0; i < t->nrows; i++) keep[i] = true;
    int64_t nkeep = t->nrows;
    for (int64_t k = 0; k < n; k++) { /* a row listed twice goes once */
        if (keep[rows[k] - 1]) nkeep--;
        keep[rows[k] - 1] = false;
    }
    pqt_status st = keep_rows(t, call, keep, nkeep);
    pqt_mem_free(keep);
    return st;
}

pqt_status pqt_table_truncate(pqt_table *t, int64_t n)
{
    const char *call = "pqt_table_truncate";
    if (!t || n < 0) return pqt_err(PQT_MISUSE, "%s: a table and a row count >= 0 are needed", call);
    if (n >= t->nrows) return PQT_OK; /* nothing to remove */
    bool *keep = pqt_malloc_array((size_t)t->nrows + 1, sizeof *keep);
    if (!keep) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    for (int64_t i = 0; i < t->nrows; i++) keep[i] = i < n;
    pqt_status st = keep_rows(t, call, keep, n);
    pqt_mem_free(keep);
    return st;
}

void pqt_tbl_install_rows(pqt_table *t, pqt_colbuf *nb, int64_t nrows, const char *call)
{
    pqt_tbl_keep_forget(t); /* what the open's filter kept holds the old rows */
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].residency != PQT_RES_FULL) continue;
        pqt_colbuf_free(&t->cols[i].buf);
        t->cols[i].buf = nb[i];
        memset(&nb[i], 0, sizeof nb[i]);
    }
    t->nrows = nrows;
    t->nrows_known = true;
    /* the rows no longer come from the file's row groups */
    if (t->f && !t->detached) {
        t->detached = true;
        t->detached_by = call;
    }
    t->generation++;
}
