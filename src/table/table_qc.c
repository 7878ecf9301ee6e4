/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_qc.c - read-time quality control on a table (docs/qc.md): the rules
 * bound to file columns at open, the one check every read from the file goes through, the
 * soft-mode warnings (layer: table); pqt_table_validate_qc, which reads, is in table_qc_write.c.
 *
 * A rule binds at open to the slot its column name finds (slot.qc_rule), which a rename or
 * a dropped neighbour does not change; two internal names of one file column (a MAML remap)
 * keep their own rules. Columns made in memory (add, copy, the row index) never have one. The check
 * runs on a column's values as read, before they are committed, so a hard violation leaves the
 * column unread and the table as it was. Soft warnings are sent only once the read has
 * committed, at most once per column for each kind (range, nulls).
 */
#include <stdio.h>
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

struct pqt_tbl_qc {
    pqt_qc *rules;       /* the table's own copy */
    int *file_col;       /* per rule: the file column it checks */
    bool *warned_range;  /* per rule: the soft warning of each kind was sent */
    bool *warned_null;
    bool soft;
};

void pqt_tbl_qc_free(pqt_tbl_qc *q)
{
    if (!q) return;
    pqt_qc_free(q->rules);
    pqt_mem_free(q->file_col);
    pqt_mem_free(q->warned_range);
    pqt_mem_free(q->warned_null);
    pqt_mem_free(q);
}

static pqt_status qc_alloc(int n, bool soft, pqt_tbl_qc **ret)
{
    pqt_tbl_qc *q = pqt_calloc(1, sizeof *q);
    if (q) {
        q->file_col = pqt_calloc((size_t)n + 1, sizeof *q->file_col);
        q->warned_range = pqt_calloc((size_t)n + 1, sizeof *q->warned_range);
        q->warned_null = pqt_calloc((size_t)n + 1, sizeof *q->warned_null);
        q->soft = soft;
    }
    if (!q || !q->file_col || !q->warned_range || !q->warned_null) {
        pqt_tbl_qc_free(q);
        return pqt_err(PQT_NOMEM, "out of memory binding qc rules");
    }
    *ret = q;
    return PQT_OK;
}

pqt_status pqt_tbl_qc_bind(pqt_table *t, const pqt_qc *qc, bool soft)
{
    if (!qc || qc->n == 0) return PQT_OK;
    pqt_tbl_qc *q;
    PQT_TRY(qc_alloc(qc->n, soft, &q));
    pqt_status st = pqt_scan_qc_copy(qc, &q->rules);
    for (int i = 0; st == PQT_OK && i < qc->n; i++) {
        const pqt_qc_rule *r = &qc->rules[i];
        int ci = pqt_tbl_find(t, r->column);
        if (ci < 0 && strcmp(r->column, PQT_TBL_ROW_INDEX) == 0) {
            st = pqt_err(PQT_NOT_FOUND,
                         "pqt_table_open: %s: qc rule for column '%s': the row "
                         "index is generated, not read from the file, so qc "
                         "does not apply to it",
                         pqt_file_path(t->f), r->column);
            break;
        }
        if (ci < 0) {
            char hint[300];
            st = pqt_err(PQT_NOT_FOUND,
                         "pqt_table_open: %s: qc rule for column '%s': no column "
                         "'%s'%s",
                         pqt_file_path(t->f), r->column, r->column,
                         pqt_tbl_suggest(t, r->column, hint, sizeof hint));
            break;
        }
        const pqt_tcol *c = &t->cols[ci];
        if (c->kind == PQT_NONE) {
            const pqt_col *fc = pqt_file_col(t->f, c->file_col);
            st = pqt_err(PQT_UNSUPPORTED_TYPE,
                         "pqt_table_open: %s: qc rule for column '%s': "
                         "the column cannot be read (%s)",
                         pqt_file_path(t->f), r->column,
                         fc->why_unsupported ? fc->why_unsupported : "unsupported type");
            break;
        }
        st = pqt_scan_qc_fit(r, PQT_KIND_ELEMENT(c->kind));
        if (st != PQT_OK) {
            pqt_err_prefix("pqt_table_open: %s: ", pqt_file_path(t->f));
            break;
        }
        q->file_col[i] = c->file_col;
    }
    for (int i = 0; st == PQT_OK && i < qc->n; i++)
        t->cols[pqt_tbl_find(t, qc->rules[i].column)].qc_rule = i + 1;
    if (st != PQT_OK) {
        pqt_tbl_qc_free(q);
        return st;
    }
    t->qc = q;
    return PQT_OK;
}

pqt_status pqt_tbl_qc_copy(const pqt_tbl_qc *src, pqt_tbl_qc **ret)
{
    *ret = NULL;
    if (!src) return PQT_OK;
    int n = src->rules->n;
    pqt_tbl_qc *q;
    PQT_TRY(qc_alloc(n, src->soft, &q));
    pqt_status st = pqt_scan_qc_copy(src->rules, &q->rules);
    if (st != PQT_OK) {
        pqt_tbl_qc_free(q);
        return st;
    }
    memcpy(q->file_col, src->file_col, (size_t)n * sizeof *q->file_col);
    memcpy(q->warned_range, src->warned_range, (size_t)n * sizeof *q->warned_range);
    memcpy(q->warned_null, src->warned_null, (size_t)n * sizeof *q->warned_null);
    *ret = q;
    return PQT_OK;
}

/* The rule checking slot c's values, or -1: only values read from the file are checked. */
static int rule_of(const pqt_table *t, const pqt_tcol *c)
{
    if (!t->qc || c->file_col < 0 || c->added || c->is_row_index) return -1;
    return c->qc_rule - 1;
}

bool pqt_tbl_qc_has_rule(const pqt_table *t, const pqt_tcol *c)
{
    return rule_of(t, c) >= 0;
}

pqt_status pqt_tbl_qc_check(const pqt_table *t, const pqt_tcol *c, const pqt_colbuf *b,
                            const char *call, pqt_tbl_qc_note *note)
{
    memset(note, 0, sizeof *note);
    note->rule = rule_of(t, c);
    if (note->rule < 0) return PQT_OK;
    const pqt_qc_rule *r = &t->qc->rules->rules[note->rule];
    pqt_qc_eval e;
    pqt_scan_qc_eval(r, b, &e);
    bool range = pqt_scan_qc_range_bad(&e), nulls = pqt_scan_qc_null_bad(r, &e);
    if (!range && !nulls) return PQT_OK;
    char rt[700] = "", nt[200] = "";
    if (range) pqt_scan_qc_range_text(r, &e, rt, sizeof rt);
    if (nulls) pqt_scan_qc_null_text(&e, nt, sizeof nt);
    if (!t->qc->soft)
        return pqt_err(PQT_QC, "%s: %s: qc violation for column '%s': %s%s%s", call,
                       pqt_tbl_where(t), c->name, rt, range && nulls ? "; " : "", nt);
    /* soft: the texts wait for the read to commit (pqt_tbl_qc_emit) */
    note->range = range;
    note->nulls = nulls;
    snprintf(note->range_msg, sizeof note->range_msg, "%s: %s: qc violation for column '%s': %s",
             call, pqt_tbl_where(t), c->name, rt);
    snprintf(note->null_msg, sizeof note->null_msg, "%s: %s: qc violation for column '%s': %s",
             call, pqt_tbl_where(t), c->name, nt);
    return PQT_OK;
}

void pqt_tbl_qc_emit(pqt_table *t, const pqt_tbl_qc_note *note)
{
    if (note->rule < 0 || !t->qc) return;
    if (note->range && !t->qc->warned_range[note->rule]) {
        t->qc->warned_range[note->rule] = true;
        pqt_tbl_warn("%s", note->range_msg);
    }
    if (note->nulls && !t->qc->warned_null[note->rule]) {
        t->qc->warned_null[note->rule] = true;
        pqt_tbl_warn("%s", note->null_msg);
    }
}
