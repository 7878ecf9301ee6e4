/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_dropna.c - pqt_table_dropna: remove the rows with too few present values among some
 * columns (layer: table; Fortran %dropna).
 *
 * A row of a column is present as pqt_table_is_null(elem 0) answers 0. The survivors are
 * kept with pqt_table_filter_rows_mask, so a table attached to its file in file order stays
 * attached and removing nothing changes nothing.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* The slots to look at, each once: the named ones made resident (NULL names: the resident
 * slots as they are). *n_ret may be 0. */
static pqt_status pick_columns(pqt_table *t, const char *call, const char *const *names, int n,
                               int **ci_ret, int *n_ret)
{
    *n_ret = 0;
    if (names) {
        PQT_TRY(pqt_tbl_check_present(t, call, names, n));
        /* reading may add the row-index slot: slots are looked up after every read */
        for (int k = 0; k < n; k++) {
            int ci;
            PQT_TRY(pqt_tbl_resident(t, call, names[k], &ci));
        }
    }
    int *ci = pqt_malloc_array((size_t)t->ncols + 1, sizeof *ci);
    bool *seen = pqt_calloc((size_t)t->ncols + 1, sizeof *seen);
    if (!ci || !seen) {
        pqt_mem_free(ci);
        pqt_mem_free(seen);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    int m = 0;
    for (int k = 0; k < (names ? n : t->ncols); k++) {
        int c = names ? pqt_tbl_find(t, names[k]) : k;
        if (c < 0 || seen[c] || t->cols[c].residency != PQT_RES_FULL) continue;
        seen[c] = true;
        ci[m++] = c;
    }
    pqt_mem_free(seen);
    *ci_ret = ci;
    *n_ret = m;
    return PQT_OK;
}

pqt_status pqt_table_dropna(pqt_table *t, const char *const *names, int n, int64_t min_valid)
{
    const char *call = "pqt_table_dropna";
    if (!t || n < 0 || (n > 0 && !names) || min_valid < -1)
        return pqt_err(PQT_MISUSE, "%s: bad arguments", call);
    int *ci = NULL, m = 0;
    PQT_TRY(pick_columns(t, call, names, n, &ci, &m));
    int64_t need = min_valid < 0 ? m : min_valid, nrows = t->nrows;
    if (m == 0 || need == 0) {
        pqt_mem_free(ci);
        return PQT_OK; /* no column to judge by, or every row qualifies */
    }
    uint8_t *keep = pqt_malloc((size_t)nrows + 1);
    if (!keep) {
        pqt_mem_free(ci);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    for (int64_t i = 0; i < nrows; i++) {
        int64_t valid = 0;
        for (int k = 0; k < m; k++)
            valid += !pqt_tbl_row_is_null(&t->cols[ci[k]], i);
        keep[i] = valid >= need;
    }
    pqt_mem_free(ci);
    pqt_status st = pqt_table_filter_rows_mask(t, keep);
    pqt_mem_free(keep);
    return st;
}
