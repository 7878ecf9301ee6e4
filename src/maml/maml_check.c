/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maml_check.c - validation of a parsed MAML (layer: maml): the errors of docs/maml.md
 * (docs/maml.md, "Problems reported") that need no parquet file. Each problem is recorded with its
 * line; the verdict turns them into one PQT_BAD_MAML listing all of them. Checks against a file (a
 * remap target it lacks) are made at open (src/table/table_maml.c).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "maml/maml.h"
#include "util/error.h"
#include "util/mem.h"

static bool is_time_unit(const char *s, size_t n)
{
    static const char *const units[] = {"ms",    "us",     "ns",   "milli", "millis",
                                        "micro", "micros", "nano", "nanos"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i]) == n && !strncasecmp(s, units[i], n)) return true;
    return false;
}

/* time[unit], timestamp[unit], timestamp[unit,utc], timestamp[utc]: the bracket's content. */
static bool valid_time_args(const char *s, size_t n, bool timestamp)
{
    const char *comma = memchr(s, ',', n);
    if (!comma) return is_time_unit(s, n) || (timestamp && n == 3 && !strncasecmp(s, "utc", 3));
    size_t a = (size_t)(comma - s);
    return timestamp && is_time_unit(s, a) && n - a - 1 == 3 && !strncasecmp(comma + 1, "utc", 3);
}

static bool valid_data_type(const char *t)
{
    static const char *const plain[] = {"int32",  "int64", "float32", "float64", "boolean",
                                        "string", "date",  "time",    "timestamp", "struct"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!strcasecmp(t, plain[i])) return true;
    size_t n = strlen(t);
    const char *open = strchr(t, '[');
    if (!open || n < 3 || t[n - 1] != ']') return false;
    size_t head = (size_t)(open - t), inner = n - head - 2;
    if (head == 4 && !strncasecmp(t, "time", 4)) return valid_time_args(open + 1, inner, false);
    if (head == 9 && !strncasecmp(t, "timestamp", 9)) return valid_time_args(open + 1, inner, true);
    if ((head == 4 && !strncasecmp(t, "list", 4)) || (head == 3 && !strncasecmp(t, "map", 3))) {
        char elem[128];
        if (inner == 0 || inner >= sizeof elem) return false;
        memcpy(elem, open + 1, inner);
        elem[inner] = '\0';
        return valid_data_type(elem);
    }
    return false;
}

static bool is_temporal(const char *t)
{
    return !strncasecmp(t, "date", 4) || !strncasecmp(t, "time", 4);
}

static bool is_container(const char *t)
{
    return !strncasecmp(t, "list", 4) || !strncasecmp(t, "map", 3) || !strcasecmp(t, "struct");
}

static bool positive_int_or_auto(const char *s)
{
    if (!strcasecmp(s, "auto")) return true;
    if (!*s) return false;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p)) return false;
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    return errno == 0 && v > 0 && v <= 2147483647;
}

/* A qc bound "[op] value": the operator must face the right way for its side. */
static pqt_status check_bound(pqt_maml *m, const pqt_maml_field *f, const char *b, bool is_min)
{
    const char *name = f->name ? f->name : "?", *side = is_min ? "min" : "max";
    const char *p = b;
    while (*p == ' ') p++;
    bool op = *p == '<' || *p == '>';
    if (op && ((*p == '<') == is_min))
        return pqt_maml_problem(m, f->line, "field '%s': qc %s: '%s' has the operator of %s "
                                            "(min takes > or >=, max < or <=)",
                                name, side, b, is_min ? "max" : "min");
    if (op) p += p[1] == '=' ? 2 : 1;
    while (*p == ' ') p++;
    if (!*p) return pqt_maml_problem(m, f->line, "field '%s': qc %s: '%s' has no value", name, side, b);
    if (!f->data_type) return PQT_OK; /* read-in MAML: checked against the file's column */
    if (is_temporal(f->data_type) || is_container(f->data_type))
        return pqt_maml_problem(m, f->line, "field '%s': qc %s: bounds are not supported on a "
                                            "%s column (miss: is)",
                                name, side, f->data_type);
    char *end;
    errno = 0;
    if (!strcasecmp(f->data_type, "int32") || !strcasecmp(f->data_type, "int64")) {
        long long v = strtoll(p, &end, 10);
        bool i32 = !strcasecmp(f->data_type, "int32");
        if (*end || errno || (i32 && (v < -2147483648LL || v > 2147483647LL)))
            return pqt_maml_problem(m, f->line, "field '%s': qc %s: '%s' is not an exact %s",
                                    name, side, p, f->data_type);
    } else if (!strcasecmp(f->data_type, "float32") || !strcasecmp(f->data_type, "float64")) {
        double v = strtod(p, &end);
        if (*end || !isfinite(v))
            return pqt_maml_problem(m, f->line, "field '%s': qc %s: '%s' is not a finite number",
                                    name, side, p);
    }
    return PQT_OK;
}

static pqt_status check_field(pqt_maml *m, const pqt_maml_field *f, bool strict)
{
    const char *name = f->name ? f->name : "?";
    if (strict && !f->data_type)
        PQT_TRY(pqt_maml_problem(m, f->line, "field '%s' has no data_type:", name));
    if (strict && f->data_type && !valid_data_type(f->data_type))
        PQT_TRY(pqt_maml_problem(m, f->line, "field '%s': unknown data_type '%s'", name,
                                 f->data_type));
    if (f->col_size && !positive_int_or_auto(f->col_size))
        PQT_TRY(pqt_maml_problem(m, f->line, "field '%s': col_size '%s' is neither a positive "
                                             "integer nor auto",
                                 name, f->col_size));
    if (f->array_size && !positive_int_or_auto(f->array_size))
        PQT_TRY(pqt_maml_problem(m, f->line, "field '%s': array_size '%s' is neither a "
                                             "positive integer nor auto",
                                 name, f->array_size));
    if (f->array_size && f->data_type && !strcasecmp(f->array_size, "auto") &&
        strcasecmp(f->data_type, "string"))
        PQT_TRY(pqt_maml_problem(m, f->line, "field '%s': array_size: auto is for string "
                                             "columns, not %s",
                                 name, f->data_type));
    if (f->qc_min) PQT_TRY(check_bound(m, f, f->qc_min, true));
    if (f->qc_max) PQT_TRY(check_bound(m, f, f->qc_max, false));
    if (f->qc_miss && *f->qc_miss && strcasecmp(f->qc_miss, "null") &&
        strcasecmp(f->qc_miss, "na"))
        PQT_TRY(pqt_maml_problem(m, f->line, "field '%s': qc miss: '%s' is not Null, NA or "
                                             "empty",
                                 name, f->qc_miss));
    return PQT_OK;
}

/* Names given twice, found by sorting (a hostile MAML can hold a million entries, so no
 * pairwise scan): fields' names, or remap's internal names. Each repeat is reported at its
 * own line, naming the first. */
typedef struct named {
    const char *name;
    int line, order;
} named;

static int named_cmp(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

static pqt_status check_repeats(pqt_maml *m, bool remap)
{
    int n = remap ? m->nremap : m->nfields;
    if (n < 2) return PQT_OK;
    named *v = pqt_malloc_array((size_t)n, sizeof *v);
    if (!v) return pqt_err(PQT_NOMEM, "out of memory checking a MAML");
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *name = remap ? m->remap[i].internal : m->fields[i].name;
        if (!name || !*name) continue;
        v[k++] = (named){name, remap ? m->remap[i].line : m->fields[i].line, i};
    }
    qsort(v, (size_t)k, sizeof *v, named_cmp);
    pqt_status st = PQT_OK;
    for (int i = 1, first = 0; i < k && st == PQT_OK; i++) {
        if (strcmp(v[i].name, v[first].name) != 0) {
            first = i;
            continue;
        }
        st = remap ? pqt_maml_problem(m, v[i].line, "extra: remap: internal name '%s' is "
                                                    "declared twice (first on line %d)",
                                      v[i].name, v[first].line)
                   : pqt_maml_problem(m, v[i].line, "field '%s' is declared twice (first on "
                                                    "line %d)",
                                      v[i].name, v[first].line);
    }
    pqt_mem_free(v);
    return st;
}

pqt_status pqt_maml_check(pqt_maml *m, bool strict)
{
    if (strict) {
        const char *table = pqt_maml_value(m, "table");
        if (!table || !*table) PQT_TRY(pqt_maml_problem(m, 0, "table: is missing or empty"));
        if (m->nfields == 0) PQT_TRY(pqt_maml_problem(m, 0, "fields: has no entries"));
    }
    for (int i = 0; i < m->nfields; i++) {
        const pqt_maml_field *f = &m->fields[i];
        if (!f->name || !*f->name)
            PQT_TRY(pqt_maml_problem(m, f->line, "a field has %s name",
                                     f->name ? "an empty" : "no"));
        PQT_TRY(check_field(m, f, strict));
    }
    PQT_TRY(check_repeats(m, false));
    PQT_TRY(check_repeats(m, true));
    for (int i = 0; i < m->protected_cols.n; i++) {
        const char *c = m->protected_cols.items[i];
        if (!pqt_maml_field_find(m, c))
            PQT_TRY(pqt_maml_problem(m, m->protected_cols.lines[i], "extra: protected_cols: "
                                                                    "'%s' is not a declared "
                                                                    "field",
                                     c));
    }
    /* a column cannot be both refused nulls and declared to hold them */
    for (int i = 0; i < m->nullable_cols.n; i++)
        for (int j = 0; j < m->protected_cols.n; j++)
            if (strcmp(m->nullable_cols.items[i], m->protected_cols.items[j]) == 0)
                PQT_TRY(pqt_maml_problem(m, m->nullable_cols.lines[i],
                                         "extra: '%s' is both in protected_cols: and in "
                                         "nullable_cols:",
                                         m->nullable_cols.items[i]));
    return PQT_OK;
}

pqt_status pqt_maml_verdict(const pqt_maml *m, const char *call)
{
    if (m->nproblems == 0) return PQT_OK;
    /* the whole list when it fits the message; the count says when it does not */
    char list[900];
    size_t n = m->problems.len < sizeof list - 1 ? m->problems.len : sizeof list - 1;
    memcpy(list, m->problems.data, n);
    list[n] = '\0';
    if (n < m->problems.len) {
        char *nl = strrchr(list, '\n');
        if (nl) *nl = '\0';
    }
    return pqt_err(PQT_BAD_MAML, "%s: %s: %d problem%s:\n%s%s", call, m->source, m->nproblems,
                   m->nproblems == 1 ? "" : "s", list,
                   n < m->problems.len ? "\n... (more: pqt maml check lists them all)" : "");
}

static pqt_status load(pqt_maml *m, pqt_maml **ret)
{
    pqt_status st = pqt_maml_check(m, false);
    if (st == PQT_OK) st = pqt_maml_verdict(m, "MAML");
    if (st != PQT_OK) {
        pqt_maml_unref(m);
        return st;
    }
    *ret = m;
    return PQT_OK;
}

pqt_status pqt_maml_load_file(const char *path, pqt_maml **ret)
{
    pqt_maml *m;
    PQT_TRY(pqt_maml_parse_file(path, &m));
    return load(m, ret);
}

pqt_status pqt_maml_load_text(const char *text, pqt_maml **ret)
{
    if (!text) return pqt_err(PQT_MISUSE, "MAML text is NULL");
    pqt_maml *m;
    PQT_TRY(pqt_maml_parse_text(text, strlen(text), "MAML text", &m));
    return load(m, ret);
}
