/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_rows.c - writing chosen rows and cutting row groups on request: pqt_write_table_mask,
 * pqt_writer_flush and pqt_writer_write_chunk (layer: write; Fortran
 * parquet_write_table(row_mask=), out%flush(), parquet_write_table_chunk).
 *
 * A mask is applied to a clone of the table (pqt_table_clone, then
 * pqt_table_filter_rows_mask), so the caller's table never changes and the writer sees an
 * ordinary table: columns never read stay lazy and read only the kept rows, the row index
 * still names file rows, the source's metadata is still there to copy. The cost is a copy
 * of the resident columns while the rows are written.
 * A chunk is one row group: the pending rows are cut first and, for this one write, the
 * row-group limits are set to exactly the chunk's rows, so nothing splits it.
 */
#include <stdint.h>

#include "util/error.h"
#include "write/write_file.h"

/* Rows keep selects (n entries); all of them when keep is NULL. */
static int64_t kept_rows(const uint8_t *keep, int64_t n)
{
    if (!keep) return n;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) k += keep[i] != 0;
    return k;
}

/* *ret = a clone of t holding only the rows keep selects (caller closes it). */
static pqt_status masked_clone(pqt_table *t, const uint8_t *keep, pqt_table **ret)
{
    pqt_table *c = NULL;
    PQT_TRY(pqt_table_clone(t, &c));
    /* A table sorted at open cannot narrow its plan: the mask detaches the clone, after
     * which a column it never read is unreadable. Its writes read columns whole anyway. */
    pqt_status st = pqt_tview_attached(c) && pqt_tview_permuted(c) ? pqt_table_materialize_all(c)
                                                                   : PQT_OK;
    if (st == PQT_OK) st = pqt_table_filter_rows_mask(c, keep);
    if (st != PQT_OK) {
        pqt_table_close(c);
        return st;
    }
    *ret = c;
    return PQT_OK;
}

pqt_status pqt_write_table_mask(pqt_table *t, const uint8_t *keep, const char *path,
                                const pqt_write_opts *opts)
{
    const char *call = "pqt_write_table_mask";
    if (!t) return pqt_err(PQT_MISUSE, "%s: the table is NULL", call);
    int64_t nrows = pqt_table_nrows(t);
    if (!keep || kept_rows(keep, nrows) == nrows) return pqt_write_table(t, path, opts);
    pqt_table *c = NULL;
    pqt_status st = masked_clone(t, keep, &c);
    if (st != PQT_OK) {
        pqt_err_prefix("%s: %s: ", call, path ? path : "(no path)");
        return st;
    }
    st = pqt_write_table(c, path, opts);
    pqt_table_close(c);
    return st;
}

pqt_status pqt_writer_flush(pqt_writer *w)
{
    const char *call = "pqt_writer_flush";
    if (!w) return pqt_err(PQT_MISUSE, "%s: the writer is NULL", call);
    if (w->failed)
        return pqt_err(PQT_MISUSE, "%s: %s: an earlier write failed; only pqt_writer_abort "
                                   "remains",
                       call, w->path);
    pqt_status st = pqt_writer_flush_rg(w);
    if (st != PQT_OK) {
        w->failed = true;
        pqt_err_prefix("%s: %s: ", call, w->path);
        pqt_writer_keep_failure(w, st);
    }
    return st;
}

pqt_status pqt_writer_write_chunk(pqt_writer *w, pqt_table *t, const uint8_t *keep)
{
    const char *call = "pqt_writer_write_chunk";
    if (!w || !t) return pqt_err(PQT_MISUSE, "%s: writer or table is NULL", call);
    int64_t nrows = pqt_table_nrows(t), n = kept_rows(keep, nrows);
    if (n == 0)
        return pqt_err(PQT_MISUSE, "%s: %s: the chunk has no rows (%s); a row group needs at "
                                   "least one",
                       call, w->path, nrows == 0 ? "the table is empty" : "the mask keeps none");
    PQT_TRY(pqt_writer_flush(w)); /* rows written before are a row group of their own */
    pqt_table *c = NULL;
    if (keep && n < nrows) {
        pqt_status st = masked_clone(t, keep, &c);
        if (st != PQT_OK) {
            pqt_err_prefix("%s: %s: ", call, w->path);
            return st; /* the writer holds nothing of it: still usable */
        }
    }
    int64_t rows = w->o.rg_rows, nbytes = w->o.rg_nbytes;
    w->o.rg_rows = n;
    w->o.rg_nbytes = INT64_MAX;
    pqt_status st = pqt_writer_write(w, c ? c : t);
    w->o.rg_rows = rows;
    w->o.rg_nbytes = nbytes;
    if (st == PQT_OK) st = pqt_writer_flush(w);
    pqt_table_close(c);
    return st;
}
