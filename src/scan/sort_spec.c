/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sort_spec.c - the text form of sort keys (layer: scan): "survey, -mass",
 * "group asc; mass desc nulls_first". Grammar, limits and messages of docs/sort.md.
 * A key is split into blank-separated words: the first is the column (after an optional
 * '-'), the rest at most one direction and one nulls placement, in any order.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "scan/sort_spec.h"
#include "util/error.h"
#include "util/mem.h"

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The word's direction: 1 desc, 0 asc, -1 not a direction. */
static int direction_of(const char *w, size_t n)
{
    static const char *const asc[] = {"asc", "ascending"}, *const desc[] = {"desc", "descending"};
    for (int i = 0; i < 2; i++) {
        if (strlen(asc[i]) == n && strncasecmp(w, asc[i], n) == 0) return 0;
        if (strlen(desc[i]) == n && strncasecmp(w, desc[i], n) == 0) return 1;
    }
    return -1;
}

/* The word's nulls placement: 1 first, 0 last, -1 neither. */
static int nulls_of(const char *w, size_t n)
{
    if (n == 11 && strncasecmp(w, "nulls_first", n) == 0) return 1;
    if (n == 10 && strncasecmp(w, "nulls_last", n) == 0) return 0;
    return -1;
}

pqt_status pqt_sort_spec_add(pqt_sort_spec *spec, const char *name, bool desc, bool nulls_first,
                             const char *call)
{
    if (!name || !*name) return pqt_err(PQT_BAD_SORT, "%s: empty sort key", call);
    if (strlen(name) > PQT_SORT_MAX_NAME_NBYTES)
        return pqt_err(PQT_BAD_SORT, "%s: sort key column name is too long (maximum %d "
                                     "characters): %s",
                       call, PQT_SORT_MAX_NAME_NBYTES, name);
    if (spec->nkeys >= PQT_SORT_MAX_KEYS)
        return pqt_err(PQT_BAD_SORT, "%s: too many sort keys (maximum %d): '%s' would be key %d",
                       call, PQT_SORT_MAX_KEYS, name, spec->nkeys + 1);
    char *copy = pqt_strdup(name);
    if (!copy) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    spec->names[spec->nkeys] = copy;
    spec->desc[spec->nkeys] = desc;
    spec->nulls_first[spec->nkeys] = nulls_first;
    spec->nkeys++;
    return PQT_OK;
}

/* Parse key k[0..n) (trimmed, not empty) into spec. */
static pqt_status parse_key(pqt_sort_spec *spec, const char *k, size_t n, const char *call)
{
    char key[PQT_SORT_MAX_KEY_NBYTES + 1];
    if (n > PQT_SORT_MAX_KEY_NBYTES)
        return pqt_err(PQT_BAD_SORT, "%s: sort key '%.40s...' is too long (maximum %d "
                                     "characters)",
                       call, k, PQT_SORT_MAX_KEY_NBYTES);
    memcpy(key, k, n);
    key[n] = 0;
    size_t at = 0;
    bool shorthand = key[0] == '-';
    if (shorthand) at++;
    while (at < n && is_blank(key[at])) at++;
    size_t name_at = at;
    while (at < n && !is_blank(key[at])) at++;
    size_t name_len = at - name_at;
    if (name_len == 0) return pqt_err(PQT_BAD_SORT, "%s: sort key '%s' names no column", call, key);
    int dir = -1, nulls = -1;
    while (at < n) {
        while (at < n && is_blank(key[at])) at++;
        size_t w = at;
        while (at < n && !is_blank(key[at])) at++;
        if (at == w) break;
        int d = direction_of(key + w, at - w), nf = nulls_of(key + w, at - w);
        if (d >= 0 && dir < 0) dir = d;
        else if (nf >= 0 && nulls < 0) nulls = nf;
        else
            return pqt_err(PQT_BAD_SORT, "%s: sort key '%s' has an unrecognized direction "
                                         "'%.*s' (expected asc, ascending, desc or descending)",
                           call, key, (int)(at - w), key + w);
    }
    if (shorthand && dir >= 0)
        return pqt_err(PQT_BAD_SORT, "%s: sort key '%s' has both the '-' shorthand and an "
                                     "explicit direction; use one or the other",
                       call, key);
    key[name_at + name_len] = 0;
    return pqt_sort_spec_add(spec, key + name_at, shorthand || dir == 1, nulls == 1, call);
}

pqt_status pqt_sort_spec_parse(pqt_sort_spec *spec, const char *text, const char *call)
{
    if (!text) return pqt_err(PQT_MISUSE, "%s: sort keys are NULL", call);
    int n0 = spec->nkeys;
    pqt_status st = PQT_OK;
    const char *p = text;
    for (;;) {
        const char *end = p + strcspn(p, ",;");
        const char *a = p, *b = end;
        while (a < b && is_blank(*a)) a++;
        while (b > a && is_blank(b[-1])) b--;
        if (a == b) {
            st = *text ? pqt_err(PQT_BAD_SORT, "%s: empty sort key in '%s'", call, text)
                       : pqt_err(PQT_BAD_SORT, "%s: empty sort key", call);
            break;
        }
        st = parse_key(spec, a, (size_t)(b - a), call);
        if (st != PQT_OK || !*end) break;
        p = end + 1;
    }
    if (st != PQT_OK) /* a failed parse leaves spec as it was */
        while (spec->nkeys > n0) pqt_mem_free(spec->names[--spec->nkeys]);
    return st;
}

void pqt_sort_spec_free(pqt_sort_spec *spec)
{
    for (int i = 0; i < spec->nkeys; i++) pqt_mem_free(spec->names[i]);
    memset(spec, 0, sizeof *spec);
}

pqt_status pqt_sort_spec_copy(pqt_sort_spec *dst, const pqt_sort_spec *src)
{
    pqt_sort_spec s = {0};
    for (int i = 0; i < src->nkeys; i++) {
        pqt_status st = pqt_sort_spec_add(&s, src->names[i], src->desc[i], src->nulls_first[i],
                                          "copying sort keys");
        if (st != PQT_OK) {
            pqt_sort_spec_free(&s);
            return st;
        }
    }
    *dst = s;
    return PQT_OK;
}

int pqt_sort_spec_text(const pqt_sort_spec *spec, char *buf, size_t cap)
{
    size_t at = 0;
    for (int i = 0; i < spec->nkeys; i++) {
        int len = snprintf(at < cap ? buf + at : NULL, at < cap ? cap - at : 0, "%s%s %s%s",
                           i ? ", " : "", spec->names[i], spec->desc[i] ? "desc" : "asc",
                           spec->nulls_first[i] ? " nulls_first" : "");
        at += (size_t)len;
    }
    if (spec->nkeys == 0 && cap > 0) buf[0] = 0;
    return (int)at;
}
