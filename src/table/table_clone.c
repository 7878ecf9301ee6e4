/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_clone.c - pqt_table_clone: a deep copy that keeps unread columns lazy
 * (layer: table).
 *
 * Resident columns are copied. A file-backed clone opens a handle of its own on the same
 * source (util/io.h: the same descriptor or the same caller memory, never the path again)
 * with the same options and copies the read plan, so a column the source never touched
 * comes back with exactly the rows (and order) the source would have read. The handles are
 * separate because two tables must be usable concurrently; the source reads positionally
 * and is safe to share.
 * A detached source gives a detached clone, which still answers file metadata.
 */
#include <string.h>

#include "maml/maml.h"
#include "table/table_int.h"
#include "util/mem.h"

static pqt_status copy_slot(const pqt_tcol *s, pqt_tcol *d)
{
    *d = *s;
    memset(&d->buf, 0, sizeof d->buf);
    d->kept = NULL; /* the filter's kept values stay t's: the clone reads on first touch */
    d->name = pqt_strdup(s->name);
    d->unit = pqt_strdup(s->unit ? s->unit : "");
    if (!d->name || !d->unit) {
        pqt_mem_free(d->name);
        pqt_mem_free(d->unit);
        memset(d, 0, sizeof *d);
        return pqt_err(PQT_NOMEM, "pqt_table_clone: out of memory");
    }
    if (s->residency == PQT_RES_FULL) {
        pqt_status st = pqt_tbl_buf_copy(&s->buf, (s->kind & PQT_VECTOR) ? s->width : 0, &d->buf);
        if (st != PQT_OK) {
            pqt_mem_free(d->name);
            pqt_mem_free(d->unit);
            memset(d, 0, sizeof *d);
            return st;
        }
    }
    return PQT_OK;
}

pqt_status pqt_table_clone(const pqt_table *t, pqt_table **ret)
{
    const char *call = "pqt_table_clone";
    if (!t || !ret) return pqt_err(PQT_MISUSE, "%s: NULL argument", call);
    if (t->f) PQT_TRY(pqt_tbl_check_serial(t, call, "reopening the file for a clone"));
    pqt_table *c = pqt_calloc(1, sizeof *c);
    if (!c) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    /* scalars first; the owned parts are rebuilt below */
    *c = *t;
    c->f = NULL;
    c->qc = NULL;
    c->maml = pqt_maml_ref(t->maml); /* immutable and shared: a clone keeps the same MAML */
    c->explain = NULL; /* rebuilt below: closing a failed clone must not free t's */
    c->cols = NULL;
    c->ncols = c->cap = 0;
    atomic_init(&c->names, NULL); /* t's index is t's */
    memset(&c->plan, 0, sizeof c->plan);
    c->open_level = t->open_level;
    atomic_init(&c->owner, 0); /* a new table: nobody holds it */
    c->hold_depth = 0;
    c->generation = 0;
    pqt_status st = PQT_OK;
    if (t->f) {
        st = pqt_file_reopen(t->f, &t->opts, &c->f);
        if (st == PQT_OK && (pqt_file_nrows(c->f) != pqt_file_nrows(t->f) ||
                             pqt_file_nrow_groups(c->f) != pqt_file_nrow_groups(t->f)))
            st = pqt_err(PQT_IO,
                         "%s: %s changed since the table was opened (%lld rows in %d row "
                         "groups, now %lld in %d)",
                         call, pqt_file_path(t->f), (long long)pqt_file_nrows(t->f),
                         pqt_file_nrow_groups(t->f), (long long)pqt_file_nrows(c->f),
                         pqt_file_nrow_groups(c->f));
        /* the measured LIST widths carry over: the clone need not measure again */
        if (st == PQT_OK) pqt_file_list_widths_share(c->f, t->f);
        if (st == PQT_OK) st = pqt_plan_copy(&c->plan, &t->plan);
        if (st == PQT_OK && t->explain && !(c->explain = pqt_strdup(t->explain)))
            st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
        if (st == PQT_OK) st = pqt_tbl_qc_copy(t->qc, &c->qc);
    }
    if (st == PQT_OK && t->ncols > 0) {
        /* one slot to spare, as pqt_tbl_slot_add keeps: for the row index */
        c->cols = pqt_calloc((size_t)t->ncols + 1, sizeof *c->cols);
        if (!c->cols) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
        else c->cap = t->ncols + 1;
    }
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        st = copy_slot(&t->cols[i], &c->cols[i]);
        if (st == PQT_OK) c->ncols++;
    }
    if (st != PQT_OK) {
        pqt_table_close(c);
        return st;
    }
    pqt_tbl_scan_reset(c);
    *ret = c;
    return PQT_OK;
}
