/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_copy_rows.c - pqt_table_copy_rows: a few rows of some columns as a new in-memory
 * table (layer: table; Fortran out%append(row)).
 *
 * A streaming writer appends whole tables; appending one row of a table means handing it a
 * table of that row. Cloning the table and narrowing the clone would copy every resident
 * column whole for each row, so this gathers only the asked rows of only the asked columns.
 * A column the table has not read is read first, as any value access reads it, and stays
 * resident: appending row after row of a table reads each column once.
 * One exception: a DECIMAL column still as read from the file is written from the file's
 * exact unscaled values (write_conv.c), which an in-memory copy no longer has. Then the copy
 * is a clone of the table narrowed to the rows, still attached to the file (as
 * pqt_write_table_mask makes it): its resident columns are copied whole first.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* Append to c a slot like s holding b (taken on success). */
static pqt_status add_copy(pqt_table *c, const pqt_tcol *s, pqt_colbuf *b, const char *call)
{
    char *nm = pqt_strdup(s->name), *un = pqt_strdup(s->unit ? s->unit : "");
    pqt_tcol *d = NULL;
    pqt_status st = nm && un ? pqt_tbl_slot_add(c, &d) : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    if (st != PQT_OK) {
        pqt_mem_free(nm);
        pqt_mem_free(un);
        return st;
    }
    d->name = nm;
    d->unit = un;
    d->file_col = -1;
    d->kind = s->kind;
    d->width = s->width;
    d->kind_known = true;
    d->time_unit = s->time_unit;
    d->residency = PQT_RES_FULL;
    d->added = true;
    d->buf = *b;
    memset(b, 0, sizeof *b);
    return PQT_OK;
}

/* Column ci is a DECIMAL as read from t's file, in file order: the rows a writer takes from
 * it must come from the file (the same test as pqt_wconv_decimal_source in write_conv.c,
 * which this layer cannot call). */
static bool file_decimal(const pqt_table *t, int ci)
{
    const pqt_tcol *c = &t->cols[ci];
    if (c->file_col < 0 || !t->f || t->detached || t->plan.perm) return false;
    const pqt_col *fc = pqt_file_col(t->f, c->file_col);
    return fc->conv == PQT_CONV_DECIMAL && !c->added && !c->user_written && !c->decode_kind &&
           PQT_KIND_ELEMENT(c->kind) == PQT_FLOAT64;
}

/* The clone of t narrowed to rows row_lo..row_hi (1-based), attached to the file. */
static pqt_status narrowed_clone(pqt_table *t, int64_t row_lo, int64_t row_hi, pqt_table **ret)
{
    uint8_t *keep = pqt_calloc((size_t)t->nrows + 1, 1);
    if (!keep) return pqt_err(PQT_NOMEM, "pqt_table_copy_rows: out of memory");
    memset(keep + row_lo - 1, 1, (size_t)(row_hi - row_lo + 1));
    pqt_table *c = NULL;
    pqt_status st = pqt_table_clone(t, &c);
    if (st == PQT_OK) st = pqt_table_filter_rows_mask(c, keep);
    pqt_mem_free(keep);
    if (st != PQT_OK) {
        pqt_table_close(c);
        return st;
    }
    *ret = c;
    return PQT_OK;
}

pqt_status pqt_table_copy_rows(pqt_table *t, const char *const *names, int n, int64_t row_lo,
                               int64_t row_hi, pqt_table **ret)
{
    const char *call = "pqt_table_copy_rows";
    if (!t || !ret || n < 0 || (n > 0 && !names))
        return pqt_err(PQT_MISUSE, "%s: bad arguments (NULL table, names or ret, or n < 0)", call);
    if (row_lo < 1 || row_hi < row_lo || row_hi > t->nrows)
        return pqt_err(PQT_RANGE, "%s: %s: rows %lld..%lld requested, the table has %lld rows",
                       call, pqt_tbl_where(t), (long long)row_lo, (long long)row_hi,
                       (long long)t->nrows);
    PQT_TRY(pqt_tbl_check_present(t, call, names, n));
    for (int k = 0; k < n; k++) {
        int ci = pqt_tbl_find(t, names[k]);
        if (ci >= 0 && file_decimal(t, ci)) return narrowed_clone(t, row_lo, row_hi, ret);
    }
    int64_t nrows = row_hi - row_lo + 1;
    int64_t *idx = pqt_malloc_array((size_t)nrows, sizeof *idx);
    pqt_table *c = NULL;
    pqt_status st = idx ? pqt_table_new(&c) : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    for (int64_t i = 0; st == PQT_OK && i < nrows; i++) idx[i] = row_lo - 1 + i;
    if (st == PQT_OK) {
        c->nrows = nrows;
        c->nrows_known = true;
    }
    for (int k = 0; st == PQT_OK && k < n; k++) {
        if (pqt_tbl_find(c, names[k]) >= 0) continue; /* a name listed twice is one column */
        int ci = -1;
        st = pqt_tbl_resident(t, call, names[k], &ci);
        if (st != PQT_OK) break;
        const pqt_tcol *s = &t->cols[ci];
        pqt_colbuf b;
        st = pqt_tbl_buf_gather(&s->buf, NULL, idx, nrows, (s->kind & PQT_VECTOR) ? s->width : 0,
                                &b);
        if (st == PQT_OK && (st = add_copy(c, s, &b, call)) != PQT_OK) pqt_colbuf_free(&b);
    }
    pqt_mem_free(idx);
    if (st != PQT_OK) {
        pqt_table_close(c);
        return st;
    }
    *ret = c;
    return PQT_OK;
}
