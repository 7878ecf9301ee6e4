/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_qc_write.c - the qc checks a caller asks for (layer: table): pqt_table_check_qc, rules
 * checked on the values a table is about to write (docs/qc.md, "Write-side qc": warnings only,
 * the write goes on), and pqt_table_validate_qc, the read-time rules run over every column now.
 *
 * Read-time qc (table_qc.c) binds rules at open and checks values as they come from the
 * file. A write checks what the table holds now, whatever its origin (read, added, set),
 * so the rules are bound here, at the call, to the columns by name; every rule is checked
 * against the table before anything is read, so a rule that cannot apply is an error and
 * not a warning. Violations go to the warning callback, one per column and kind, and are
 * counted. A column read only for the check is released again: residency is as found.
 */
#include <stdio.h>
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* Every rule names a readable column whose kind its bounds fit; nothing is read. */
static pqt_status bind_rules(const pqt_table *t, const pqt_qc *qc, const char *call)
{
    for (int i = 0; i < qc->n; i++) {
        const pqt_qc_rule *r = &qc->rules[i];
        int ci = pqt_tbl_find(t, r->column);
        if (ci < 0) {
            char hint[300];
            return pqt_err(PQT_NOT_FOUND, "%s: %s: qc rule for column '%s': no column '%s'%s",
                           call, pqt_tbl_where(t), r->column, r->column,
                           pqt_tbl_suggest(t, r->column, hint, sizeof hint));
        }
        const pqt_tcol *c = &t->cols[ci];
        if (c->kind == PQT_NONE && c->residency != PQT_RES_FULL)
            return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: %s: qc rule for column '%s': the column "
                                                 "cannot be read",
                           call, pqt_tbl_where(t), r->column);
        pqt_status st = pqt_scan_qc_fit(r, PQT_KIND_ELEMENT(c->kind));
        if (st != PQT_OK) {
            pqt_err_prefix("%s: %s: ", call, pqt_tbl_where(t));
            return st;
        }
    }
    return PQT_OK;
}

/* Check slot ci's values (the rows keep selects, or all) against r; warn and count. */
static pqt_status check_one(const pqt_table *t, int ci, const pqt_qc_rule *r, const int64_t *idx,
                            int64_t nkeep, const char *call, int64_t *nwarn)
{
    const pqt_tcol *c = &t->cols[ci];
    const pqt_colbuf *b = &c->buf;
    pqt_colbuf kept;
    memset(&kept, 0, sizeof kept);
    if (idx) {
        PQT_TRY(pqt_tbl_buf_gather(b, NULL, idx, nkeep, (c->kind & PQT_VECTOR) ? c->width : 0,
                                   &kept));
        b = &kept;
    }
    pqt_qc_eval e;
    pqt_scan_qc_eval(r, b, &e);
    char text[700];
    if (pqt_scan_qc_range_bad(&e)) {
        pqt_scan_qc_range_text(r, &e, text, sizeof text);
        pqt_tbl_warn("%s: %s: qc violation for column '%s' (written anyway): %s", call,
                     pqt_tbl_where(t), c->name, text);
        (*nwarn)++;
    }
    if (pqt_scan_qc_null_bad(r, &e)) {
        pqt_scan_qc_null_text(&e, text, sizeof text);
        pqt_tbl_warn("%s: %s: qc violation for column '%s' (written anyway): %s", call,
                     pqt_tbl_where(t), c->name, text);
        (*nwarn)++;
    }
    pqt_colbuf_free(&kept);
    return PQT_OK;
}

pqt_status pqt_table_check_qc(pqt_table *t, const pqt_qc *qc, const uint8_t *keep,
                              int64_t *nwarnings_ret)
{
    const char *call = "pqt_table_check_qc";
    if (!t || !nwarnings_ret) return pqt_err(PQT_MISUSE, "%s: table and nwarnings_ret are needed", call);
    *nwarnings_ret = 0;
    if (!qc || qc->n == 0) return PQT_OK;
    PQT_TRY(bind_rules(t, qc, call));
    PQT_TBL_HOLD(t, call, "a write-side qc check");
    int64_t *idx = NULL, nkeep = 0;
    if (keep) {
        idx = pqt_malloc_array((size_t)t->nrows + 1, sizeof *idx);
        if (!idx) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        for (int64_t i = 0; i < t->nrows; i++)
            if (keep[i]) idx[nkeep++] = i;
    }
    pqt_status st = PQT_OK;
    int64_t nwarn = 0;
    for (int i = 0; i < qc->n && st == PQT_OK; i++) {
        int ci = pqt_tbl_find(t, qc->rules[i].column);
        pqt_tcol *c = &t->cols[ci];
        bool was_resident = c->residency == PQT_RES_FULL;
        st = pqt_tbl_touch(t, ci, call);
        if (st == PQT_OK) st = check_one(t, ci, &qc->rules[i], idx, nkeep, call, &nwarn);
        /* read only for the check: dropped again, so the table is as it was (no structural
         * change: nothing could point at values that were not there before the call) */
        if (!was_resident && c->residency == PQT_RES_FULL) {
            pqt_colbuf_free(&c->buf);
            c->residency = PQT_RES_EMPTY;
        }
    }
    pqt_mem_free(idx);
    *nwarnings_ret = nwarn;
    return st;
}

/* Every column with a rule read and checked now (the reads go through table_read.c). */
pqt_status pqt_table_validate_qc(pqt_table *t)
{
    const char *call = "pqt_table_validate_qc";
    if (!t) return pqt_err(PQT_MISUSE, "%s: table is NULL", call);
    if (!t->qc || !t->f || t->detached) return PQT_OK; /* nothing it could check */
    for (int ci = 0; ci < t->ncols; ci++) PQT_TRY(pqt_tbl_qc_probe(t, ci, call));
    return PQT_OK;
}
