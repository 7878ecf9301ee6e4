/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_keep.c - pqt_table_filter_rows_mask: keep the rows a caller's mask selects
 * (layer: table; Fortran %filter_rows(mask)).
 *
 * The same commit rules as pqt_table_filter_rows: a table still attached to its file and in
 * file order narrows its read plan (never-read columns stay readable and read only the
 * survivors, the row index keeps naming file rows); any other table gathers its resident
 * columns and detaches. Every new buffer is built before anything is committed, so a
 * failure changes nothing; a mask keeping every row changes nothing at all.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

pqt_status pqt_table_filter_rows_mask(pqt_table *t, const uint8_t *keep)
{
    const char *call = "pqt_table_filter_rows_mask";
    if (!t || (!keep && t->nrows > 0))
        return pqt_err(PQT_MISUSE, "%s: table and keep must not be NULL", call);
    int64_t n = t->nrows, nkeep = 0;
    for (int64_t i = 0; i < n; i++) nkeep += keep[i] != 0;
    if (nkeep == n) return PQT_OK; /* keeping every row changes nothing */
    PQT_TBL_HOLD(t, call, "filtering rows");
    int64_t *idx = pqt_malloc_array((size_t)nkeep + 1, sizeof *idx);
    pqt_colbuf *nb = pqt_calloc((size_t)t->ncols + 1, sizeof *nb);
    pqt_plan np;
    memset(&np, 0, sizeof np);
    pqt_status st = idx && nb ? PQT_OK : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    int64_t k = 0;
    for (int64_t i = 0; i < n && st == PQT_OK; i++)
        if (keep[i]) idx[k++] = i;
    bool attached = t->f && !t->detached && !t->plan.perm;
    if (st == PQT_OK && attached) st = pqt_plan_refined(&t->plan, keep, &np);
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        const pqt_tcol *c = &t->cols[i];
        if (c->residency != PQT_RES_FULL) continue;
        st = pqt_tbl_buf_gather(&c->buf, NULL, idx, nkeep, (c->kind & PQT_VECTOR) ? c->width : 0,
                                &nb[i]);
    }
    if (st != PQT_OK) {
        pqt_err_prefix("%s: %s: ", call, pqt_tbl_where(t));
    } else if (attached) {
        pqt_tbl_commit_attached(t, &np, nb, nkeep);
    } else {
        pqt_tbl_install_rows(t, nb, nkeep, call);
    }
    for (int i = 0; nb && i < t->ncols; i++) pqt_colbuf_free(&nb[i]);
    pqt_plan_free(&np);
    pqt_mem_free(nb);
    pqt_mem_free(idx);
    return st;
}
