/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_maml.c - a read-in MAML at table open (layer: table; docs/maml.md): the checks that
 * need the file (a remap target it lacks), the units of fields: given to the slots before
 * any read, the table-level keys (pqt_table_maml_value), and pqt_maml_check_alloc, the
 * whole report behind `pqt maml check`.
 *
 * extra: remap: names the slots table.c makes (an internal name reads its file column, as
 * after a rename). extra: filter:, extra: sort: and fields: qc: are checked here with the
 * remap (one report) and joined with the caller's rules in table_maml_rules.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "maml/maml.h"
#include "table/table_int.h"
#include "util/buf.h"
#include "util/mem.h"

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Append one "line N: ..." per remap target f lacks to b; returns the count (-1: no memory).
 * The file's paths are sorted once, so a long remap against a wide file stays cheap. */
static int missing_targets(const pqt_maml *m, const pqt_file *f, pqt_buf *b)
{
    if (m->nremap == 0) return 0;
    int ncols = pqt_file_ncols(f);
    const char **paths = pqt_malloc_array(ncols ? (size_t)ncols : 1, sizeof *paths);
    if (!paths) return -1;
    for (int i = 0; i < ncols; i++)
        paths[i] = pqt_file_col(f, i)->path;
    qsort(paths, (size_t)ncols, sizeof *paths, str_cmp);
    int n = 0;
    for (int i = 0; i < m->nremap && n >= 0; i++) {
        const char *want = m->remap[i].file;
        if (bsearch(&want, paths, (size_t)ncols, sizeof *paths, str_cmp)) continue;
        if (n >= PQT_MAML_MAX_PROBLEMS) { /* counted, not kept: as pqt_maml_problem does */
            n++;
            continue;
        }
        char line[400];
        int len = snprintf(line, sizeof line,
                           "%sline %d: extra: remap: '%s' maps to '%s', which is not a column "
                           "of the file",
                           b->len ? "\n" : "", m->remap[i].line, m->remap[i].internal, want);
        n = pqt_buf_append(b, line, (size_t)len) == PQT_OK ? n + 1 : -1;
    }
    pqt_mem_free(paths);
    return n;
}

pqt_status pqt_tbl_maml_slice_check(const pqt_opts *opts, const char *name)
{
    if (!opts || !opts->maml || !opts->maml->sort.n || (opts->row_lo == 0 && opts->row_hi == 0))
        return PQT_OK;
    return pqt_err(PQT_BAD_MAML, "pqt_table_open: %s: MAML %s: line %d: extra: sort: on a slice "
                                 "(PQT_OPT_ROW_LO/PQT_OPT_ROW_HI): a sort orders the whole "
                                 "file's rows",
                   name ? name : "(unnamed)", opts->maml->source, opts->maml->sort.lines[0]);
}

pqt_status pqt_tbl_maml_check_file(const pqt_table *t, const pqt_maml *m)
{
    if (!m) return PQT_OK;
    pqt_buf b = {0};
    int nbad = missing_targets(m, t->f, &b);
    if (nbad >= 0) { /* the rules' problems in the same report: every problem at once */
        int n = pqt_tbl_maml_rule_problems(m, t->f, &b);
        nbad = n < 0 ? -1 : nbad + n;
    }
    for (int i = 0; i < m->nremap && nbad >= 0; i++) {
        if (strcmp(m->remap[i].internal, PQT_TBL_ROW_INDEX) != 0) continue;
        char line[300];
        int len = snprintf(line, sizeof line,
                           "%sline %d: extra: remap: '%s' is the row-index column's name",
                           b.len ? "\n" : "", m->remap[i].line, PQT_TBL_ROW_INDEX);
        nbad = pqt_buf_append(&b, line, (size_t)len) == PQT_OK ? nbad + 1 : -1;
    }
    if (nbad == 0) return PQT_OK;
    pqt_status st = nbad < 0
                        ? pqt_err(PQT_NOMEM, "pqt_table_open: out of memory")
                        : pqt_err(PQT_BAD_MAML, "pqt_table_open: %s: MAML %s: %d problem%s:\n%.*s",
                                  pqt_file_path(t->f), m->source, nbad, nbad == 1 ? "" : "s",
                                  (int)(b.len < 800 ? b.len : 800), (const char *)b.data);
    pqt_buf_free(&b);
    return st;
}

pqt_status pqt_tbl_maml_at_open(pqt_table *t, pqt_maml *m)
{
    if (!m) return PQT_OK;
    /* build every unit first, then commit: a failure changes nothing */
    int ncols = t->ncols;
    char **units = pqt_calloc(ncols ? (size_t)ncols : 1, sizeof *units);
    if (!units) return pqt_err(PQT_NOMEM, "pqt_table_open: out of memory");
    pqt_status st = PQT_OK;
    for (int i = 0; i < ncols && st == PQT_OK; i++) {
        const pqt_tcol *c = &t->cols[i];
        if (c->file_col < 0) continue;
        const pqt_maml_field *f = pqt_maml_field_find(m, pqt_file_col(t->f, c->file_col)->path);
        if (!f || !f->unit) continue;
        units[i] = pqt_strdup(strcasecmp(f->unit, "unitless") ? f->unit : "");
        if (!units[i]) st = pqt_err(PQT_NOMEM, "pqt_table_open: out of memory");
    }
    for (int i = 0; i < ncols; i++) {
        if (!units[i]) continue;
        if (st == PQT_OK) {
            pqt_mem_free(t->cols[i].unit);
            t->cols[i].unit = units[i];
        } else {
            pqt_mem_free(units[i]);
        }
    }
    pqt_mem_free(units);
    if (st == PQT_OK) t->maml = pqt_maml_ref(m);
    return st;
}

pqt_status pqt_table_maml_value(const pqt_table *t, const char *key, const char **value_ret)
{
    if (!t || !key || !value_ret)
        return pqt_err(PQT_MISUSE, "pqt_table_maml_value: NULL argument");
    const char *v = pqt_maml_value(t->maml, key);
    if (!v) return PQT_NOT_FOUND;
    *value_ret = v;
    return PQT_OK;
}

pqt_status pqt_table_maml_field_value(const pqt_table *t, const char *name, const char *key,
                                      const char **value_ret)
{
    const char *call = "pqt_table_maml_field_value";
    if (!t || !name || !key || !value_ret) return pqt_err(PQT_MISUSE, "%s: NULL argument", call);
    bool info = !strcasecmp(key, "info"), ucd = !strcasecmp(key, "ucd");
    if (!info && !ucd && strcasecmp(key, "data_type"))
        return pqt_err(PQT_MISUSE, "%s: key '%s' (info, ucd or data_type)", call, key);
    int ci;
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    if (!t->maml || !t->f || c->file_col < 0 || c->added) return PQT_NOT_FOUND;
    const pqt_maml_field *f = pqt_maml_field_find(t->maml, pqt_file_col(t->f, c->file_col)->path);
    const char *v = !f ? NULL : info ? f->info : ucd ? f->ucd : f->data_type;
    if (!v) return PQT_NOT_FOUND;
    *value_ret = v;
    return PQT_OK;
}

pqt_status pqt_table_file_column(const pqt_table *t, const char *name, const char **path_ret)
{
    if (!t || !name || !path_ret)
        return pqt_err(PQT_MISUSE, "pqt_table_file_column: NULL argument");
    int ci;
    PQT_TRY(pqt_tbl_lookup(t, "pqt_table_file_column", name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    if (!t->f || c->file_col < 0 || c->added || c->is_row_index) return PQT_NOT_FOUND;
    *path_ret = pqt_file_col(t->f, c->file_col)->path;
    return PQT_OK;
}

pqt_status pqt_maml_check_alloc(const char *maml_path, const char *parquet_path,
                                char **report_ret, int *nproblems_ret)
{
    if (!maml_path || !report_ret || !nproblems_ret)
        return pqt_err(PQT_MISUSE, "pqt_maml_check_alloc: NULL argument");
    pqt_maml *m;
    PQT_TRY(pqt_maml_parse_file(maml_path, &m));
    pqt_status st = pqt_maml_check(m, false);
    if (st == PQT_OK && !parquet_path) { /* the rules' syntax, without a file */
        int r = pqt_tbl_maml_rule_problems(m, NULL, &m->problems);
        if (r < 0) st = pqt_err(PQT_NOMEM, "pqt_maml_check_alloc: out of memory");
        else m->nproblems += r;
    }
    if (st == PQT_OK && parquet_path) {
        pqt_file *f = NULL;
        st = pqt_file_open(parquet_path, NULL, &f);
        if (st == PQT_OK) {
            int n = missing_targets(m, f, &m->problems);
            int r = n < 0 ? -1 : pqt_tbl_maml_rule_problems(m, f, &m->problems);
            if (n < 0 || r < 0) st = pqt_err(PQT_NOMEM, "pqt_maml_check_alloc: out of memory");
            else m->nproblems += n + r;
            pqt_file_close(f);
        }
    }
    char *report = NULL;
    if (st == PQT_OK && m->nproblems) {
        report = pqt_strndup((const char *)m->problems.data, m->problems.len);
        if (!report) st = pqt_err(PQT_NOMEM, "pqt_maml_check_alloc: out of memory");
    }
    if (st == PQT_OK) {
        st = pqt_maml_verdict(m, "pqt_maml_check");
        *report_ret = report;
        *nproblems_ret = m->nproblems;
    }
    pqt_maml_unref(m);
    return st;
}
