/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_maml_rules.c - a read-in MAML's read-time rules at table open (layer: table;
 * docs/maml.md): extra: filter:, extra: sort: and
 * fields: qc:. They name FILE columns (the MAML describes the file); the caller's filter,
 * sort and qc name the table's (internal) columns. Each MAML rule is translated to the
 * table's names and joined with the caller's, so one filter program, one sort spec and one
 * qc rule set run through the engines a caller's options use:
 *
 *   filter  the MAML's rules AND-ed after the caller's, compiled as one program (one
 *           pushdown pass, one conjunct order);
 *   sort    the MAML's keys first, the caller's break ties;
 *   qc      per column: a MAML field with a qc: key (even empty) replaces the caller's rule
 *           for that file column; the caller's rules for other columns stay.
 *
 * Everything that can be wrong with these rules is found against the file alone, before the
 * slots are made (pqt_tbl_maml_rule_problems), and reported with the remap problems in one
 * PQT_BAD_MAML, each with its MAML line; building them afterwards can only run out of
 * memory. A file column an extra: remap: leaves without a table column (its name taken by
 * another column, or the file's own parquet_row_index not remapped) is still filtered by,
 * under a hidden name the filter's column list carries (PQT_TBL_HIDDEN_FMT); it cannot be
 * a sort key (the sort reads its keys through slots): a problem naming it. A qc rule on such
 * a column can never run and is ignored, like a field naming a column the file lacks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maml/maml.h"
#include "scan/filter_rename.h"
#include "table/table_int.h"
#include "util/mem.h"

/* The file's column paths sorted, for lookups by name (a MAML may hold many rules). */
typedef struct path_entry {
    const char *path;
    int col;
} path_entry;

typedef struct path_index {
    const pqt_file *f;
    path_entry *e; /* sorted by (path, col) */
    int n;
} path_index;

static int path_cmp(const void *a, const void *b)
{
    const path_entry *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : (x->col > y->col) - (x->col < y->col);
}

static pqt_status index_build(const pqt_file *f, path_index *x)
{
    x->f = f;
    x->n = pqt_file_ncols(f);
    x->e = pqt_malloc_array((size_t)x->n + 1, sizeof *x->e);
    if (!x->e) return pqt_err(PQT_NOMEM, "out of memory checking a MAML");
    for (int i = 0; i < x->n; i++)
        x->e[i] = (path_entry){pqt_file_col(f, i)->path, i};
    qsort(x->e, (size_t)x->n, sizeof *x->e, path_cmp);
    return PQT_OK;
}

/* File column index of path (the first of that path), or -1. */
static int index_find(const path_index *x, const char *path)
{
    int lo = 0, hi = x->n;
    while (lo < hi) { /* the first entry not below path */
        int mid = lo + (hi - lo) / 2;
        if (strcmp(x->e[mid].path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < x->n && !strcmp(x->e[lo].path, path) ? x->e[lo].col : -1;
}

/* The kind a table slot of file column fc reports before any read (as table.c sets it). */
static int file_kind(const pqt_col *fc)
{
    if (fc->elem_kind == PQT_NONE) return PQT_NONE;
    if (fc->is_list) return fc->elem_kind | PQT_LIST;
    return fc->kind;
}

/* Whether file column path gets a table slot (table.c add_file_slots). */
static bool reachable(const pqt_maml *m, const char *path)
{
    int lo = 0, hi = 0;
    pqt_maml_remap_targets(m, path, &lo, &hi);
    if (hi > lo) return true;
    return !pqt_maml_remap_is_internal(m, path) && strcmp(path, PQT_TBL_ROW_INDEX) != 0;
}

/* Collects problems as "line N: ..." lines. */
typedef struct problems {
    pqt_buf *b;
    int n;      /* problems found */
    bool nomem; /* a problem could not be recorded */
} problems;

static void add_problem(problems *p, int line, const char *fmt, ...) PQT_PRINTF(3, 4);

static void add_problem(problems *p, int line, const char *fmt, ...)
{
    p->n++;
    if (p->n > PQT_MAML_MAX_PROBLEMS) return; /* counted, not kept: as pqt_maml_problem does */
    char text[900];
    int at = snprintf(text, sizeof text, "%sline %d: ", p->b->len ? "\n" : "", line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + at, sizeof text - (size_t)at, fmt, ap);
    va_end(ap);
    if (pqt_buf_append(p->b, text, strlen(text)) != PQT_OK) p->nomem = true;
}

/* The failure just recorded, as problem text (PQT_NOMEM is not a problem of the MAML). */
static void add_failure(problems *p, pqt_status st, int line, const char *what)
{
    if (st == PQT_NOMEM) {
        p->nomem = true;
        return;
    }
    add_problem(p, line, "%s: %s", what, pqt_errmsg());
}

/* The file's columns for the filter compiler, by path, then the virtual row index (a file
 * column of that name comes first and wins). */
static pqt_status file_scan_cols(const pqt_file *f, pqt_scan_col **ret)
{
    int n = pqt_file_ncols(f);
    pqt_scan_col *cols = pqt_calloc((size_t)n + 1, sizeof *cols);
    if (!cols) return pqt_err(PQT_NOMEM, "out of memory checking a MAML");
    for (int i = 0; i < n; i++) {
        const pqt_col *fc = pqt_file_col(f, i);
        cols[i] = (pqt_scan_col){fc->path, file_kind(fc), fc->time_unit};
    }
    cols[n] = (pqt_scan_col){PQT_TBL_ROW_INDEX, PQT_INT64, -1};
    *ret = cols;
    return PQT_OK;
}

static void filter_problems(const pqt_maml *m, const pqt_file *f, const path_index *x,
                            const pqt_scan_col *cols, problems *p)
{
    for (int k = 0; k < m->filter.n && !p->nomem; k++) {
        const char *rule = m->filter.items[k];
        int line = m->filter.lines[k];
        pqt_filter *one = NULL;
        pqt_status st = pqt_filter_new(&one);
        if (st == PQT_OK) st = pqt_filter_add(one, rule);
        if (st != PQT_OK) {
            add_failure(p, st, line, "extra: filter");
            pqt_filter_free(one);
            continue;
        }
        pqt_fprog *prog = NULL;
        st = f ? pqt_scan_compile(one, cols, pqt_file_ncols(f) + 1, &prog) : PQT_OK;
        if (st != PQT_OK) add_failure(p, st, line, "extra: filter (file column names)");
        for (int s = 0; prog && s < pqt_scan_prog_ncols(prog); s++) {
            int ci = pqt_scan_prog_col(prog, s);
            if (ci >= pqt_file_ncols(f) || reachable(m, cols[ci].name)) continue;
            /* a column no slot reads is filtered under its hidden name, which must not be
             * a table column's (a pathological remap or file column name) */
            char *hidden = pqt_malloc(strlen(cols[ci].name) + sizeof PQT_TBL_HIDDEN_FMT);
            if (!hidden) {
                p->nomem = true;
                break;
            }
            sprintf(hidden, PQT_TBL_HIDDEN_FMT, cols[ci].name);
            bool taken = pqt_maml_remap_is_internal(m, hidden) ||
                         (index_find(x, hidden) >= 0 && reachable(m, hidden));
            if (!taken) {
                pqt_mem_free(hidden);
                continue;
            }
            add_problem(p, line,
                        "extra: filter: rule '%.200s' names file column '%s', which no table "
                        "column reads, and a table column is named '%s', the name it would be "
                        "filtered under",
                        rule, cols[ci].name, hidden);
            pqt_mem_free(hidden);
        }
        pqt_scan_prog_free(prog);
        pqt_filter_free(one);
    }
}

static void sort_problems(const pqt_maml *m, const path_index *x, problems *p)
{
    pqt_sort_spec spec = {0};
    for (int k = 0; k < m->sort.n && !p->nomem; k++) {
        int line = m->sort.lines[k], n0 = spec.nkeys;
        pqt_status st = pqt_sort_spec_parse(&spec, m->sort.items[k], "extra: sort");
        if (st != PQT_OK) {
            if (st == PQT_NOMEM)
                p->nomem = true;
            else
                add_problem(p, line, "%s", pqt_errmsg());
            continue;
        }
        for (int i = n0; x && i < spec.nkeys; i++) {
            const char *name = spec.names[i];
            int fci = index_find(x, name);
            if (fci < 0) {
                add_problem(p, line,
                            "extra: sort: key '%s' is not a column of the file (the "
                            "MAML's keys name file columns)",
                            name);
                continue;
            }
            const pqt_col *fc = pqt_file_col(x->f, fci);
            int kind = file_kind(fc);
            if (!reachable(m, name))
                add_problem(p, line,
                            "extra: sort: key '%s' names a file column that has no "
                            "table column (extra: remap: gives its name to another "
                            "column, or it is the reserved row-index name): remap it "
                            "to a name of its own to sort by it",
                            name);
            else if (kind == PQT_NONE)
                add_problem(p, line,
                            "extra: sort: key '%s' has a type this library cannot "
                            "read (%s)",
                            name, fc->why_unsupported ? fc->why_unsupported : "unsupported");
            else if (kind & (PQT_LIST | PQT_VECTOR))
                add_problem(p, line,
                            "extra: sort: key '%s' is a list column; sorting only "
                            "supports scalar columns",
                            name);
        }
    }
    pqt_sort_spec_free(&spec);
}

/* One MAML field's qc: as a rule on column `column` (a qc rule's text, parsed by the qc
 * grammar: the MAML's min:, max: and miss: are its fields 2 to 4, an absent miss: leaving
 * the fourth out). */
static pqt_status field_rule(const pqt_maml_field *fd, const char *column, pqt_qc_rule *ret)
{
    const char *min = fd->qc_min ? fd->qc_min : "", *max = fd->qc_max ? fd->qc_max : "";
    if (strchr(min, ',') || strchr(max, ','))
        return pqt_err(PQT_MISUSE, "a qc bound holding ',' is not supported");
    char *text =
        pqt_malloc(strlen(min) + strlen(max) + (fd->qc_miss ? strlen(fd->qc_miss) : 0) + 16);
    pqt_qc *one = NULL;
    pqt_status st = text ? pqt_qc_new(&one) : pqt_err(PQT_NOMEM, "out of memory");
    if (st == PQT_OK) {
        /* the column field is a placeholder: a real name may hold a comma */
        sprintf(text, "c, %s, %s%s%s", min, max, fd->qc_miss ? ", " : "",
                fd->qc_miss ? fd->qc_miss : "");
        st = pqt_qc_add(one, text);
    }
    if (st == PQT_OK) {
        char *name = pqt_strdup(column);
        if (!name)
            st = pqt_err(PQT_NOMEM, "out of memory");
        else {
            *ret = one->rules[0];
            one->n = 0; /* moved out */
            pqt_mem_free(ret->column);
            ret->column = name;
        }
    }
    pqt_qc_free(one);
    pqt_mem_free(text);
    return st;
}

static void rule_free(pqt_qc_rule *r)
{
    pqt_mem_free(r->column);
    pqt_mem_free(r->min.text);
    pqt_mem_free(r->max.text);
    memset(r, 0, sizeof *r);
}

/* Against the file only: a bound that does not fit the column's kind (docs/qc.md); without a
 * file, pqt_maml_check has checked everything (against a declared data_type:). */
static void qc_problems(const pqt_maml *m, const path_index *x, problems *p)
{
    if (!x) return;
    for (int i = 0; i < m->nfields && !p->nomem; i++) {
        const pqt_maml_field *fd = &m->fields[i];
        if (!fd->has_qc || !fd->name) continue;
        int fci = x ? index_find(x, fd->name) : -1;
        if (x && (fci < 0 || !reachable(m, fd->name))) continue; /* ignored */
        pqt_qc_rule r = {0};
        pqt_status st = field_rule(fd, fd->name, &r);
        if (st == PQT_NOMEM) p->nomem = true;
        if (st != PQT_OK) { /* the grammar's problems are pqt_maml_check's to report */
            rule_free(&r);
            continue;
        }
        if (fci >= 0) {
            const pqt_col *fc = pqt_file_col(x->f, fci);
            int kind = file_kind(fc);
            if (kind == PQT_NONE)
                st = pqt_err(PQT_KIND, "the column cannot be read (%s)",
                             fc->why_unsupported ? fc->why_unsupported : "unsupported type");
            else
                st = pqt_scan_qc_fit(&r, PQT_KIND_ELEMENT(kind));
        }
        if (st != PQT_OK) {
            char what[300];
            snprintf(what, sizeof what, "field '%.200s': qc", fd->name);
            add_failure(p, st, fd->line, what);
        }
        rule_free(&r);
    }
}

static bool has_qc(const pqt_maml *m)
{
    for (int i = 0; i < m->nfields; i++)
        if (m->fields[i].has_qc && m->fields[i].name) return true;
    return false;
}

int pqt_tbl_maml_rule_problems(const pqt_maml *m, const pqt_file *f, pqt_buf *b)
{
    if (!m->filter.n && !m->sort.n && !has_qc(m)) return 0;
    problems p = {b, 0, false};
    path_index x = {0};
    pqt_scan_col *cols = NULL;
    if (f && (index_build(f, &x) != PQT_OK || file_scan_cols(f, &cols) != PQT_OK)) {
        pqt_mem_free(x.e);
        return -1;
    }
    /* the checks record errors of their own calls as problem text: keep the caller's */
    filter_problems(m, f, f ? &x : NULL, cols, &p);
    sort_problems(m, f ? &x : NULL, &p);
    qc_problems(m, f ? &x : NULL, &p);
    pqt_mem_free(cols);
    pqt_mem_free(x.e);
    return p.nomem ? -1 : p.n;
}

/* ---- building at open (every problem above is already ruled out) ---- */

/* The first table slot reading file column fci, or -1. */
static int slot_of_file_col(const pqt_table *t, int fci)
{
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].file_col == fci && !t->cols[i].added && !t->cols[i].is_row_index) return i;
    return -1;
}

typedef struct rename_ctx {
    const pqt_table *t;
    const path_index *x;
    char *hidden; /* the last hidden name made */
} rename_ctx;

/* A file column's name -> the table's name for it: a slot's, the hidden name of one no slot
 * reads (table_open_filter.c lists those), the row index its own. NULL: out of memory. */
static const char *table_name(void *user, const char *name)
{
    rename_ctx *r = user;
    int fci = index_find(r->x, name);
    if (fci < 0) return name;
    int ci = slot_of_file_col(r->t, fci);
    if (ci >= 0) return r->t->cols[ci].name;
    pqt_mem_free(r->hidden);
    r->hidden = pqt_malloc(strlen(name) + sizeof PQT_TBL_HIDDEN_FMT);
    if (r->hidden) sprintf(r->hidden, PQT_TBL_HIDDEN_FMT, name);
    return r->hidden;
}

static pqt_status build_filter(const pqt_table *t, const pqt_maml *m, const pqt_filter *caller,
                               const path_index *x, pqt_filter **ret)
{
    pqt_filter *f = NULL;
    pqt_status st =
        pqt_scan_filter_nrules(caller) > 0 ? pqt_scan_filter_copy(caller, &f) : pqt_filter_new(&f);
    if (st != PQT_OK) return st;
    int first = pqt_scan_filter_nrules(f);
    for (int k = 0; k < m->filter.n && st == PQT_OK; k++) {
        st = pqt_filter_add(f, m->filter.items[k]);
        if (st != PQT_OK)
            pqt_err_prefix("MAML %s: line %d: extra: filter: with the caller's filter: ", m->source,
                           m->filter.lines[k]);
    }
    rename_ctx rc = {t, x, NULL};
    if (st == PQT_OK) st = pqt_scan_filter_rename(f, first, table_name, &rc);
    pqt_mem_free(rc.hidden);
    if (st != PQT_OK) {
        pqt_filter_free(f);
        return st;
    }
    *ret = f;
    return PQT_OK;
}

static pqt_status build_sort(const pqt_table *t, const pqt_maml *m, const pqt_sort_spec *caller,
                             const path_index *x, pqt_sort_spec *ret)
{
    pqt_sort_spec s = {0}, own = {0};
    pqt_status st = PQT_OK;
    for (int k = 0; k < m->sort.n && st == PQT_OK; k++)
        st = pqt_sort_spec_parse(&own, m->sort.items[k], "extra: sort");
    rename_ctx rc = {t, x, NULL}; /* every key has a slot (checked against the file) */
    for (int i = 0; i < own.nkeys && st == PQT_OK; i++)
        st = pqt_sort_spec_add(&s, table_name(&rc, own.names[i]), own.desc[i], own.nulls_first[i],
                               "extra: sort");
    for (int i = 0; caller && i < caller->nkeys && st == PQT_OK; i++)
        st = pqt_sort_spec_add(&s, caller->names[i], caller->desc[i], caller->nulls_first[i],
                               "the caller's sort after the MAML's extra: sort:");
    pqt_mem_free(rc.hidden);
    pqt_sort_spec_free(&own);
    if (st != PQT_OK) {
        pqt_sort_spec_free(&s);
        return st;
    }
    *ret = s;
    return PQT_OK;
}

/* Append rule r (moved) to qc. */
static pqt_status qc_push(pqt_qc *qc, pqt_qc_rule *r)
{
    if (qc->n == qc->cap) {
        int cap = qc->cap ? 2 * qc->cap : 8;
        pqt_qc_rule *nr = pqt_realloc(qc->rules, (size_t)cap * sizeof *nr);
        if (!nr) return pqt_err(PQT_NOMEM, "out of memory merging qc rules");
        qc->rules = nr;
        qc->cap = cap;
    }
    qc->rules[qc->n++] = *r;
    memset(r, 0, sizeof *r);
    return PQT_OK;
}

static pqt_status build_qc(const pqt_table *t, const pqt_maml *m, const pqt_qc *caller,
                           const path_index *x, pqt_qc **ret)
{
    pqt_qc *q = NULL;
    PQT_TRY(pqt_qc_new(&q));
    bool *claimed = pqt_calloc((size_t)pqt_file_ncols(t->f) + 1, sizeof *claimed);
    pqt_status st = claimed ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory merging qc rules");
    /* the MAML's rules, under the table's name of their column */
    for (int i = 0; i < m->nfields && st == PQT_OK; i++) {
        const pqt_maml_field *fd = &m->fields[i];
        if (!fd->has_qc || !fd->name) continue;
        int fci = index_find(x, fd->name);
        int ci = fci >= 0 ? slot_of_file_col(t, fci) : -1;
        if (ci < 0 || claimed[fci]) continue; /* unreachable: never read, never checked */
        claimed[fci] = true;
        pqt_qc_rule r = {0};
        st = field_rule(fd, t->cols[ci].name, &r);
        if (st == PQT_OK) st = qc_push(q, &r);
        rule_free(&r);
    }
    /* the caller's, except for columns the MAML claimed (per column, not per bound);
     * a rule naming no column stays, for pqt_tbl_qc_bind to refuse */
    for (int i = 0; caller && i < caller->n && st == PQT_OK; i++) {
        int ci = pqt_tbl_find(t, caller->rules[i].column);
        if (ci >= 0 && t->cols[ci].file_col >= 0 && claimed[t->cols[ci].file_col]) continue;
        pqt_qc *one = NULL;
        pqt_qc tmp = {(pqt_qc_rule *)&caller->rules[i], 1, 1};
        st = pqt_scan_qc_copy(&tmp, &one);
        if (st == PQT_OK) st = qc_push(q, &one->rules[0]);
        pqt_qc_free(one);
    }
    pqt_mem_free(claimed);
    if (st != PQT_OK) {
        pqt_qc_free(q);
        return st;
    }
    *ret = q;
    return PQT_OK;
}


pqt_status pqt_tbl_maml_rules(const pqt_table *t, const pqt_opts *opts, pqt_tbl_open_rules *r)
{
    memset(r, 0, sizeof *r);
    const pqt_maml *m = opts ? opts->maml : NULL;
    if (!m || (!m->filter.n && !m->sort.n && !has_qc(m))) return PQT_OK;
    path_index x = {0};
    PQT_TRY(index_build(t->f, &x));
    pqt_status st = PQT_OK;
    if (m->filter.n) st = build_filter(t, m, opts->filter, &x, &r->filter);
    if (st == PQT_OK && m->sort.n) {
        r->sort = pqt_calloc(1, sizeof *r->sort);
        st = r->sort ? build_sort(t, m, opts->sort, &x, r->sort)
                     : pqt_err(PQT_NOMEM, "out of memory merging sort keys");
    }
    if (st == PQT_OK && has_qc(m)) st = build_qc(t, m, opts->qc, &x, &r->qc);
    pqt_mem_free(x.e);
    if (st != PQT_OK) {
        pqt_err_prefix("pqt_table_open: %s: ", pqt_file_path(t->f));
        pqt_tbl_open_rules_free(r);
    }
    return st;
}

void pqt_tbl_open_rules_free(pqt_tbl_open_rules *r)
{
    pqt_filter_free(r->filter);
    if (r->sort) pqt_sort_spec_free(r->sort);
    pqt_mem_free(r->sort);
    pqt_qc_free(r->qc);
    memset(r, 0, sizeof *r);
}
