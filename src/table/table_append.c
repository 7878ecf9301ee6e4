/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_append.c - appending the rows of one table to another (layer: table).
 *
 * Every column of the source must exist in the destination with the same kind, width,
 * time unit and physical unit; there is no unit conversion, so km/h into m/s is an error.
 * Destination columns the source lacks get null rows. All checks and all new buffers come
 * first; the commit at the end cannot fail, so a failed append changes nothing. Adding rows
 * changes the row set, so the destination detaches from its file.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

static const char *or_empty(const char *s) { return s ? s : ""; }

static const char *time_unit_name(int u)
{
    switch (u) {
    case PQT_UNIT_MILLIS:
        return "milliseconds";
    case PQT_UNIT_MICROS:
        return "microseconds";
    case PQT_UNIT_NANOS:
        return "nanoseconds";
    }
    return "no time unit";
}

/* Kind, width, time unit and unit of dst column di and src column si agree. Kind and width
 * say what the values are (PQT_KIND); the units say what they measure (PQT_UNIT_MISMATCH). */
static pqt_status check_match(pqt_table *t, int di, pqt_table *o, int si, const char *call)
{
    PQT_TRY(pqt_tbl_resolve_kind(t, di, call));
    PQT_TRY(pqt_tbl_resolve_kind(o, si, call));
    const pqt_tcol *d = &t->cols[di], *s = &o->cols[si];
    if (d->kind != s->kind || d->width != s->width)
        return pqt_err(PQT_KIND, "%s: column '%s' is %s (width %d) here but %s (width %d) in the "
                                 "appended table",
                       call, d->name, pqt_kind_name(d->kind), d->width, pqt_kind_name(s->kind),
                       s->width);
    if (d->time_unit != s->time_unit)
        return pqt_err(PQT_UNIT_MISMATCH, "%s: column '%s' is %s in %s here but in %s in the "
                                          "appended table; there is no unit conversion",
                       call, d->name, pqt_kind_name(d->kind), time_unit_name(d->time_unit),
                       time_unit_name(s->time_unit));
    if (strcmp(or_empty(d->unit), or_empty(s->unit)) != 0)
        return pqt_err(PQT_UNIT_MISMATCH, "%s: column '%s' has unit '%s' here but '%s' in the "
                                          "appended table; there is no unit conversion",
                       call, d->name, or_empty(d->unit), or_empty(s->unit));
    return PQT_OK;
}

pqt_status pqt_table_append(pqt_table *t, pqt_table *other)
{
    const char *call = "pqt_table_append";
    if (!t || !other) return pqt_err(PQT_MISUSE, "%s: NULL table", call);
    if (t == other) return pqt_err(PQT_MISUSE, "%s: a table cannot be appended to itself", call);
    PQT_TBL_HOLD(t, call, "appending rows");
    /* map every source column to its destination slot, checking as we go */
    int *dst_of = pqt_calloc((size_t)other->ncols + 1, sizeof *dst_of);
    int *src_of = pqt_calloc((size_t)t->ncols + 1, sizeof *src_of);
    pqt_colbuf *nb = pqt_calloc((size_t)t->ncols + 1, sizeof *nb);
    int64_t *idx = NULL;
    pqt_status st = PQT_OK;
    if (!dst_of || !src_of || !nb) {
        st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
        goto done;
    }
    for (int i = 0; i < t->ncols; i++) src_of[i] = -1;
    for (int j = 0; j < other->ncols && st == PQT_OK; j++) {
        const char *nm = other->cols[j].name;
        int di = pqt_tbl_find(t, nm);
        if (di < 0) {
            char hint[300];
            st = pqt_err(PQT_NOT_FOUND, "%s: %s: no column '%s'%s (the appended table has one)",
                         call, pqt_tbl_where(t), nm, pqt_tbl_suggest(t, nm, hint, sizeof hint));
            break;
        }
        st = check_match(t, di, other, j, call);
        dst_of[j] = di;
        src_of[di] = j;
    }
    if (st != PQT_OK || !other->nrows_known || other->nrows == 0) goto done; /* nothing to add */
    /* the source's values: read what it has not read yet (columns this table holds) */
    for (int j = 0; j < other->ncols && st == PQT_OK; j++) {
        if (other->cols[j].kind == PQT_NONE) continue;
        if (t->cols[dst_of[j]].residency != PQT_RES_FULL) continue; /* unreadable after detach */
        st = pqt_tbl_touch(other, j, call);
    }
    if (st != PQT_OK) goto done;
    int64_t n0 = t->nrows, n1 = other->nrows, n = n0 + n1;
    idx = pqt_malloc_array((size_t)n + 1, sizeof *idx);
    if (!idx) {
        st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
        goto done;
    }
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        const pqt_tcol *d = &t->cols[i];
        /* never-read columns are not read: the detach below makes them unreadable */
        if (d->residency != PQT_RES_FULL) continue;
        int j = src_of[i];
        for (int64_t r = 0; r < n0; r++) idx[r] = r;
        for (int64_t r = 0; r < n1; r++) idx[n0 + r] = j >= 0 ? -r - 2 : -1;
        st = pqt_tbl_buf_gather(&d->buf, j >= 0 ? &other->cols[j].buf : NULL, idx, n,
                                (d->kind & PQT_VECTOR) ? d->width : 0, &nb[i]);
    }
    if (st != PQT_OK) goto done;
    pqt_tbl_install_rows(t, nb, n, call);
done:
    if (nb)
        for (int i = 0; i < t->ncols; i++) pqt_colbuf_free(&nb[i]);
    pqt_mem_free(nb);
    pqt_mem_free(idx);
    pqt_mem_free(dst_of);
    pqt_mem_free(src_of);
    return st;
}
