/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_rename.c - pqt_scan_filter_rename (layer: scan): the clause columns of parsed rules
 * replaced in the tree. The rule text keeps the names as written, so a compile error still
 * quotes what its author wrote.
 */
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_rename.h"
#include "util/error.h"
#include "util/mem.h"

static pqt_status rename_name(char **name, pqt_scan_rename_fn fn, void *user)
{
    const char *to = fn(user, *name);
    if (!to) return pqt_err(PQT_NOMEM, "out of memory renaming filter columns");
    if (strcmp(to, *name) != 0) {
        char *copy = pqt_strdup(to);
        if (!copy) return pqt_err(PQT_NOMEM, "out of memory renaming filter columns");
        pqt_mem_free(*name);
        *name = copy;
    }
    return PQT_OK;
}

/* the columns an expression names (FN_PRED) */
static pqt_status rename_x(pexpr *x, pqt_scan_rename_fn fn, void *user)
{
    if (!x) return PQT_OK;
    if (x->op == XO_COL && x->name) PQT_TRY(rename_name(&x->name, fn, user));
    for (int32_t k = 0; k < x->nargs; k++) PQT_TRY(rename_x(x->args[k], fn, user));
    return PQT_OK;
}

static pqt_status rename_node(fnode *n, pqt_scan_rename_fn fn, void *user)
{
    PQT_TRY(rename_x(n->xl, fn, user));
    PQT_TRY(rename_x(n->xr, fn, user));
    if (n->type == FN_CLAUSE && n->col) {
        const char *to = fn(user, n->col);
        if (!to) return pqt_err(PQT_NOMEM, "out of memory renaming filter columns");
        if (strcmp(to, n->col) != 0) {
            char *copy = pqt_strdup(to);
            if (!copy) return pqt_err(PQT_NOMEM, "out of memory renaming filter columns");
            pqt_mem_free(n->col);
            n->col = copy;
        }
    }
    for (int32_t k = 0; k < n->nkids; k++)
        PQT_TRY(rename_node(n->kids[k], fn, user));
    return PQT_OK;
}

pqt_status pqt_scan_filter_rename(pqt_filter *f, int first, pqt_scan_rename_fn fn, void *user)
{
    for (int i = first < 0 ? 0 : first; f && i < f->nrules; i++)
        if (f->rules[i].root) PQT_TRY(rename_node(f->rules[i].root, fn, user));
    return PQT_OK;
}
