/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_rowindex.c - the row-index column "parquet_row_index" (layer: table).
 *
 * It holds, for every table row, the 1-based physical row of the file the row came from.
 * It costs 8 bytes a row, so it is virtual until first requested (get, column view,
 * prefetch, any value access by its name): has_column answers true before that while ncols
 * and column names do not list it. The first request turns it into an ordinary in-memory
 * slot, listed last; from then on it sorts and appends with everything else. It is built
 * from the read plan (selections, then the permutation), so a filtered or sorted table
 * will report its surviving rows in its own order without any change here.
 *
 * Rules: materialize_all does not create it; dropping it is permanent; a
 * detached table cannot produce it; an in-memory table has none; the first request inside
 * a parallel region on a shared table is refused (it adds a slot).
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

pqt_status pqt_tbl_row_index(pqt_table *t, const char *call, int *ci_ret)
{
    int ci = pqt_tbl_find(t, PQT_TBL_ROW_INDEX);
    if (ci >= 0) {
        *ci_ret = ci;
        return PQT_OK;
    }
    if (!t->f)
        return pqt_err(PQT_NOT_FOUND, "%s: %s: no column '%s': it was not read from a file",
                       call, pqt_tbl_where(t), PQT_TBL_ROW_INDEX);
    if (!t->ri_possible)
        return pqt_err(PQT_NOT_FOUND, "%s: %s: no column '%s': it was dropped, which is "
                                      "permanent (reopen the file to get it back)",
                       call, pqt_tbl_where(t), PQT_TBL_ROW_INDEX);
    if (t->detached)
        return pqt_err(PQT_DETACHED,
                       "%s: '%s' cannot be built: the table has detached from %s "
                       "(%s changed its rows), so its rows no longer name file "
                       "rows; request it before changing the row set",
                       call, PQT_TBL_ROW_INDEX, pqt_file_path(t->f),
                       t->detached_by ? t->detached_by : "a row change");
    PQT_TBL_HOLD(t, call, "the first request for the row index");
    ci = pqt_tbl_find(t, PQT_TBL_ROW_INDEX); /* built by the thread that held t before us? */
    if (ci >= 0) {
        *ci_ret = ci;
        return PQT_OK;
    }
    pqt_colbuf b;
    PQT_TRY(pqt_tbl_buf_new(&b, PQT_INT64, false, 0, false, t->nrows, t->nrows));
    pqt_status st = pqt_plan_file_rows(&t->plan, (int64_t *)b.data);
    char *name = st == PQT_OK ? pqt_strdup(PQT_TBL_ROW_INDEX) : NULL;
    char *unit = name ? pqt_strdup("") : NULL;
    pqt_tcol *c = NULL;
    if (st == PQT_OK && (!name || !unit)) st = pqt_err(PQT_NOMEM, "out of memory");
    if (st == PQT_OK) st = pqt_tbl_slot_next(t, &c);
    if (st != PQT_OK) {
        pqt_colbuf_free(&b);
        pqt_mem_free(name);
        pqt_mem_free(unit);
        return st;
    }
    c->name = name;
    c->unit = unit;
    c->kind = PQT_INT64;
    c->width = 1;
    c->kind_known = true;
    c->residency = PQT_RES_FULL;
    c->is_row_index = true;
    c->buf = b;
    int ci_new = t->ncols;
    t->ncols++;             /* publishes the whole slot */
    t->ri_possible = false; /* built once: from now on it is an ordinary slot */
    t->generation++;
    *ci_ret = ci_new;
    return PQT_OK;
}

/* ---- parquet_file: a dataset's rows name their file (docs/datasets.md) ----
 * Virtual by the same rules as the row index: listed by no name query until first asked
 * for, then an ordinary string slot. Each row holds its file's path relative to the
 * dataset's root. */

bool pqt_tbl_file_col_possible(const pqt_table *t, const char *name)
{
    return name && t && t->f && t->pf_possible && !t->detached &&
           strcmp(name, PQT_TBL_FILE_COL) == 0 && pqt_tbl_find(t, name) < 0;
}

/* The member of every table row (plan order, then the permutation). */
static pqt_status row_members(const pqt_table *t, int64_t *out)
{
    const pqt_plan *p = &t->plan;
    for (int rg = 0; rg < p->nrg; rg++) {
        int64_t m = pqt_file_ds_rg_member(t->f, rg);
        for (int64_t k = 0; k < p->sel[rg].nsel; k++) out[p->dst_row[rg] + k] = m;
    }
    if (!p->perm) return PQT_OK;
    int64_t *tmp = pqt_malloc_array((size_t)p->nsel + 1, sizeof *tmp);
    if (!tmp) return pqt_err(PQT_NOMEM, "out of memory building %s", PQT_TBL_FILE_COL);
    for (int64_t i = 0; i < p->nsel; i++) tmp[i] = out[p->perm[i]];
    memcpy(out, tmp, (size_t)p->nsel * sizeof *out);
    pqt_mem_free(tmp);
    return PQT_OK;
}

pqt_status pqt_tbl_file_col(pqt_table *t, const char *call, int *ci_ret)
{
    int ci = pqt_tbl_find(t, PQT_TBL_FILE_COL);
    if (ci >= 0) {
        *ci_ret = ci;
        return PQT_OK;
    }
    PQT_TBL_HOLD(t, call, "the first request for the file column");
    ci = pqt_tbl_find(t, PQT_TBL_FILE_COL);
    if (ci >= 0) {
        *ci_ret = ci;
        return PQT_OK;
    }
    int64_t n = t->nrows;
    int64_t *mem = pqt_malloc_array((size_t)n + 1, sizeof *mem);
    pqt_status st = mem ? row_members(t, mem) : pqt_err(PQT_NOMEM, "out of memory");
    size_t nbytes = 0;
    for (int64_t i = 0; st == PQT_OK && i < n; i++)
        nbytes += strlen(pqt_file_ds_member(t->f, mem[i]));
    pqt_colbuf b = {0};
    if (st == PQT_OK) st = pqt_tbl_buf_new(&b, PQT_STRING, false, 0, false, n, n);
    if (st == PQT_OK) st = pqt_buf_reserve(&b.str_bytes, nbytes + 1);
    for (int64_t i = 0; st == PQT_OK && i < n; i++) {
        const char *s = pqt_file_ds_member(t->f, mem[i]);
        size_t len = strlen(s);
        memcpy(b.str_bytes.data + b.str_bytes.len, s, len);
        b.str_bytes.len += len;
        b.str_offsets[i + 1] = (int64_t)b.str_bytes.len;
    }
    pqt_mem_free(mem);
    char *name = st == PQT_OK ? pqt_strdup(PQT_TBL_FILE_COL) : NULL;
    char *unit = name ? pqt_strdup("") : NULL;
    pqt_tcol *c = NULL;
    if (st == PQT_OK && (!name || !unit)) st = pqt_err(PQT_NOMEM, "out of memory");
    if (st == PQT_OK) st = pqt_tbl_slot_next(t, &c);
    if (st != PQT_OK) {
        pqt_colbuf_free(&b);
        pqt_mem_free(name);
        pqt_mem_free(unit);
        return st;
    }
    c->name = name;
    c->unit = unit;
    c->kind = PQT_STRING;
    c->width = 1;
    c->kind_known = true;
    c->residency = PQT_RES_FULL;
    c->buf = b;
    int ci_new = t->ncols;
    t->ncols++;
    t->pf_possible = false;
    t->generation++;
    *ci_ret = ci_new;
    return PQT_OK;
}
