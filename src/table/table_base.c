/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_base.c - the services every table file shares (layer: table): how messages name a
 * table, name lookup with a suggestion, warnings, the parallel-region rule, holds on a
 * table's columns and settling the row count after a plan operation. Below the open and the
 * reads, which all call it, so none of them calls back up into table.c.
 */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "table/table_int.h"
#include "util/suggest.h"

static pqt_warning_fn warn_fn;
static void *warn_user;

void pqt_set_warning_callback(pqt_warning_fn fn, void *user)
{
    warn_fn = fn;
    warn_user = user;
}

void pqt_tbl_warn(const char *fmt, ...)
{
    if (!warn_fn) return; /* the library never prints unless asked */
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    warn_fn(warn_user, msg);
}

const char *pqt_tbl_where(const pqt_table *t)
{
    return t->f ? pqt_file_path(t->f) : "in-memory table";
}

const char *pqt_tbl_suggest(const pqt_table *t, const char *name, char *buf, size_t cap)
{
    pqt_suggest sg;
    pqt_suggest_init(&sg, name);
    for (int i = 0; i < t->ncols; i++)
        pqt_suggest_offer(&sg, t->cols[i].name);
    if (pqt_tbl_find(t, PQT_TBL_ROW_INDEX) < 0 && pqt_table_has_column(t, PQT_TBL_ROW_INDEX))
        pqt_suggest_offer(&sg, PQT_TBL_ROW_INDEX);
    return pqt_suggest_text(&sg, buf, cap);
}

pqt_status pqt_tbl_lookup(const pqt_table *t, const char *call, const char *name, int *ci_ret)
{
    if (!t || !name) return pqt_err(PQT_MISUSE, "%s: table and column name must not be NULL", call);
    int ci = pqt_tbl_find(t, name);
    if (ci < 0 && strcmp(name, PQT_TBL_ROW_INDEX) == 0 && !t->f)
        return pqt_err(PQT_NOT_FOUND, "%s: %s: no column '%s': it was not read from a file", call,
                       pqt_tbl_where(t), name);
    if (ci < 0 && strcmp(name, PQT_TBL_ROW_INDEX) == 0 && !t->ri_possible)
        return pqt_err(PQT_NOT_FOUND,
                       "%s: %s: no column '%s': it was dropped, which is "
                       "permanent (reopen the file to get it back)",
                       call, pqt_tbl_where(t), name);
    if (ci < 0) {
        char hint[300];
        return pqt_err(PQT_NOT_FOUND, "%s: %s: no column '%s'%s", call, pqt_tbl_where(t), name,
                       pqt_tbl_suggest(t, name, hint, sizeof hint));
    }
    *ci_ret = ci;
    return PQT_OK;
}

pqt_status pqt_tbl_check_serial(const pqt_table *t, const char *call, const char *what)
{
    /* A table opened inside a region belongs to its thread: only levels deeper than the
     * one it was opened at share it. */
    if (omp_get_level() > t->open_level && omp_in_parallel())
        return pqt_err(PQT_PARALLEL,
                       "%s: %s inside an OpenMP parallel region on a table opened outside it "
                       "(%s) is refused: call pqt_table_prefetch (or do the change) before the "
                       "region",
                       call, what, t->f ? pqt_file_path(t->f) : "in-memory table");
    return PQT_OK;
}

/* An address unique to each live thread: who holds a table. */
static _Thread_local char thread_token;

pqt_status pqt_tbl_hold_take(pqt_tbl_hold *h, const pqt_table *ct, const char *call,
                             const char *what)
{
    h->t = NULL;
    if (!ct) return PQT_OK; /* the caller reports the NULL table */
    PQT_TRY(pqt_tbl_check_serial(ct, call, what));
    pqt_table *t = (pqt_table *)ct; /* the flag is the only thing written */
    uintptr_t me = (uintptr_t)&thread_token, cur = 0;
    if (!atomic_compare_exchange_strong_explicit(&t->owner, &cur, me, memory_order_acquire,
                                                 memory_order_relaxed)) {
        if (cur != me)
            return pqt_err(PQT_PARALLEL,
                           "%s: %s while another thread is changing or reading the table (%s) "
                           "is refused: call pqt_table_prefetch (or do the change) before "
                           "sharing the table between threads",
                           call, what, t->f ? pqt_file_path(t->f) : "in-memory table");
        t->hold_depth++;
    } else {
        t->hold_depth = 1;
    }
    h->t = t;
    return PQT_OK;
}

void pqt_tbl_hold_drop(pqt_tbl_hold *h)
{
    pqt_table *t = h->t;
    if (!t) return;
    h->t = NULL;
    /* the release publishes every write made under the hold to the next holder */
    if (--t->hold_depth == 0) atomic_store_explicit(&t->owner, 0, memory_order_release);
}

void pqt_tbl_plan_settled(pqt_table *t)
{
    t->nrows = t->plan.nsel;
    t->rg_extent = pqt_plan_extent(&t->plan);
}

int pqt_table_has_column(const pqt_table *t, const char *name)
{
    if (!t || !name) return 0;
    if (pqt_tbl_find(t, name) >= 0) return 1;
    /* the virtual row index: usable while it can still be built */
    return (strcmp(name, PQT_TBL_ROW_INDEX) == 0 && t->ri_possible && t->f && !t->detached) ||
           pqt_tbl_file_col_possible(t, name);
}

pqt_status pqt_tbl_check_present(const pqt_table *t, const char *call, const char *const *names,
                                 int n)
{
    /* Each missing name as the single-name message says it ("no column 'x'; did you mean
     * 'y'?"), joined by "; " after a count when there are several. */
    char miss[900], hint[300];
    size_t len = 0;
    int nmiss = 0;
    miss[0] = '\0';
    for (int k = 0; k < n; k++) {
        if (names[k] && pqt_table_has_column(t, names[k])) continue;
        nmiss++;
        const char *nm = names[k] ? names[k] : "(NULL)";
        int w = snprintf(miss + len, sizeof miss - len, "%sno column '%s'%s", nmiss > 1 ? "; " : "",
                         nm, names[k] ? pqt_tbl_suggest(t, nm, hint, sizeof hint) : "");
        if (w > 0) len = len + (size_t)w < sizeof miss ? len + (size_t)w : sizeof miss - 1;
    }
    if (nmiss == 0) return PQT_OK;
    if (nmiss == 1) return pqt_err(PQT_NOT_FOUND, "%s: %s: %s", call, pqt_tbl_where(t), miss);
    return pqt_err(PQT_NOT_FOUND, "%s: %s: %d columns missing: %s", call, pqt_tbl_where(t), nmiss,
                   miss);
}
