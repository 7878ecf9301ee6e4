/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_api.c - the public pqt_filter object (layer: scan).
 *
 * docs/filters.md, "Sets": rules are parsed when added (syntax and limits), sets are copied
 * and de-duplicated when bound, several rules combine with AND. Nothing here knows a schema;
 * filter_compile.c applies a filter to a column list. Every call builds what it adds first
 * and commits it last, so a failed call leaves the filter as it was.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_lex.h"
#include "util/bits.h"
#include "util/mem.h"

static pqt_status oom(void) { return pqt_err(PQT_NOMEM, "out of memory growing a filter"); }

pqt_status pqt_filter_new(pqt_filter **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_filter_new: ret is NULL");
    pqt_filter *f = pqt_calloc(1, sizeof *f);
    if (!f) return oom();
    *ret = f;
    return PQT_OK;
}

static void set_free(fset *s)
{
    pqt_mem_free(s->name);
    pqt_mem_free(s->iv);
    pqt_mem_free(s->dv);
    pqt_mem_free(s->soff);
    pqt_mem_free(s->sbytes);
    memset(s, 0, sizeof *s);
}

void pqt_filter_clear(pqt_filter *f)
{
    if (!f) return;
    for (int i = 0; i < f->nrules; i++) {
        pqt_mem_free(f->rules[i].text);
        pqt_scan_node_free(f->rules[i].root);
    }
    for (int i = 0; i < f->nsets; i++) set_free(&f->sets[i]);
    f->nrules = f->nsets = f->nnodes = 0;
}

void pqt_filter_free(pqt_filter *f)
{
    if (!f) return;
    pqt_filter_clear(f);
    pqt_mem_free(f->rules);
    pqt_mem_free(f->sets);
    pqt_mem_free(f);
}

static pqt_status reserve_rule(pqt_filter *f)
{
    if (f->nrules < f->rules_cap) return PQT_OK;
    int cap = f->rules_cap ? 2 * f->rules_cap : 4;
    frule *r = pqt_realloc(f->rules, (size_t)cap * sizeof *r);
    if (!r) return oom();
    f->rules = r;
    f->rules_cap = cap;
    return PQT_OK;
}

static pqt_status reserve_set(pqt_filter *f)
{
    if (f->nsets < f->sets_cap) return PQT_OK;
    int cap = f->sets_cap ? 2 * f->sets_cap : 4;
    fset *s = pqt_realloc(f->sets, (size_t)cap * sizeof *s);
    if (!s) return oom();
    f->sets = s;
    f->sets_cap = cap;
    return PQT_OK;
}

pqt_status pqt_filter_add(pqt_filter *f, const char *rule)
{
    if (!f || !rule) return pqt_err(PQT_MISUSE, "pqt_filter_add: %s is NULL", f ? "rule" : "f");
    size_t len = strnlen(rule, PQT_FILTER_MAX_RULE_NBYTES + 1);
    fnode *root = NULL;
    int nn = 0, implicit_and = f->nrules > 0;
    pqt_status st = pqt_scan_parse(rule, (int32_t)len, f->nnodes + implicit_and, &root, &nn);
    if (st != PQT_OK) return pqt_scan_hint(rule, (int32_t)len, NULL, 0, st);
    char *text = pqt_strndup(rule, len);
    if (!text || reserve_rule(f) != PQT_OK) {
        pqt_mem_free(text);
        pqt_scan_node_free(root);
        return oom();
    }
    f->rules[f->nrules++] = (frule){text, (int32_t)len, root};
    f->nnodes += nn + implicit_and;
    return PQT_OK;
}

/* Copy values into a new set (sorted, distinct). The kind code may carry a time unit. */
static pqt_status set_copy(const char *what, int kind, const void *values, int64_t n,
                           const uint8_t *valid, fset *s)
{
    int ek = kind & 0xff, unit = (kind >> 8) - 1;
    memset(s, 0, sizeof *s);
    if (n < 0 || (n > 0 && !values))
        return pqt_err(PQT_MISUSE, "%s: %s", what, n < 0 ? "n < 0" : "values is NULL");
    if (ek == PQT_BOOL)
        return pqt_err(PQT_BAD_FILTER,
                       "%s: sets of booleans are not supported (write flag == true)", what);
    int timed = ek == PQT_TIME || ek == PQT_TIMESTAMP;
    int known = ek == PQT_INT32 || ek == PQT_INT64 || ek == PQT_UINT64 || ek == PQT_FLOAT32 ||
                ek == PQT_FLOAT64 || ek == PQT_STRING || ek == PQT_DATE || timed;
    if (!known || (kind & ~0x3ff) || (timed ? unit < 0 || unit > 2 : unit != -1))
        return pqt_err(PQT_MISUSE,
                       "%s: kind %d is not a set kind (int32, int64, uint64, float32, float64, "
                       "string, date, or PQT_KIND_UNIT(PQT_TIME or PQT_TIMESTAMP, unit))",
                       what, kind);
    s->kind = ek;
    s->unit = timed ? unit : -1;
    size_t cnt = (size_t)(n ? n : 1);
    if (ek == PQT_FLOAT32 || ek == PQT_FLOAT64) {
        if (!(s->dv = pqt_malloc_array(cnt, sizeof *s->dv))) return oom();
        for (int64_t i = 0; i < n; i++) {
            if (!pqt_bit_get(valid, i)) continue;
            double d = ek == PQT_FLOAT32 ? ((const float *)values)[i] : ((const double *)values)[i];
            if (isnan(d))
                return pqt_err(PQT_BAD_FILTER,
                               "%s: value %lld is NaN; NaN is never a member of a set (test it "
                               "with is_nan)",
                               what, (long long)i + 1);
            s->dv[s->n++] = d;
        }
        s->n = pqt_scan_sort_doubles(s->dv, s->n);
    } else if (ek == PQT_STRING) {
        const char *const *sv = values;
        size_t total = 0;
        for (int64_t i = 0; i < n; i++)
            if (pqt_bit_get(valid, i) && sv[i]) total += strlen(sv[i]);
        int64_t *off = pqt_malloc_array(cnt + 1, sizeof *off);
        char *bytes = pqt_malloc(total ? total : 1);
        int64_t *perm = NULL, np = 0, m = 0;
        pqt_status st = off && bytes ? PQT_OK : oom();
        if (st == PQT_OK) {
            off[0] = 0;
            for (int64_t i = 0; i < n; i++) {
                if (!pqt_bit_get(valid, i) || !sv[i]) continue;
                size_t l = strlen(sv[i]);
                memcpy(bytes + off[m], sv[i], l);
                off[m + 1] = off[m] + (int64_t)l;
                m++;
            }
            st = pqt_scan_sort_strings(off, bytes, m, &perm, &np);
        }
        if (st == PQT_OK) {
            s->soff = pqt_malloc_array((size_t)np + 1, sizeof *s->soff);
            s->sbytes = pqt_malloc(total ? total : 1);
            if (!s->soff || !s->sbytes) st = oom();
        }
        if (st == PQT_OK) {
            s->soff[0] = 0;
            for (int64_t i = 0; i < np; i++) {
                int64_t l = off[perm[i] + 1] - off[perm[i]];
                memcpy(s->sbytes + s->soff[i], bytes + off[perm[i]], (size_t)l);
                s->soff[i + 1] = s->soff[i] + l;
            }
            s->n = np;
        }
        pqt_mem_free(off);
        pqt_mem_free(bytes);
        pqt_mem_free(perm);
        return st;
    } else {
        /* uint64 values are kept as their bits (the order of the copy only de-duplicates) */
        if (!(s->iv = pqt_malloc_array(cnt, sizeof *s->iv))) return oom();
        int narrow = ek == PQT_INT32 || ek == PQT_DATE;
        for (int64_t i = 0; i < n; i++)
            if (pqt_bit_get(valid, i))
                s->iv[s->n++] = narrow ? ((const int32_t *)values)[i] : ((const int64_t *)values)[i];
        s->n = pqt_scan_sort_ints(s->iv, s->n);
    }
    return PQT_OK;
}

static int find_set(const pqt_filter *f, const char *name)
{
    for (int i = 0; i < f->nsets; i++)
        if (f->sets[i].name && strcmp(f->sets[i].name, name) == 0) return i;
    return -1;
}

static pqt_status too_many_sets(const char *what)
{
    return pqt_err(PQT_BAD_FILTER, "%s: a filter holds at most %d sets", what, PQT_FILTER_MAX_SETS);
}

pqt_status pqt_filter_bind(pqt_filter *f, const char *name, int kind, const void *values,
                           int64_t n, const uint8_t *valid)
{
    if (!f || !name) return pqt_err(PQT_MISUSE, "pqt_filter_bind: %s is NULL", f ? "name" : "f");
    size_t len = strlen(name);
    int ok = len > 0 && len <= PQT_FILTER_MAX_NAME_NBYTES;
    for (size_t i = 0; ok && i < len; i++) ok = pqt_scan_is_wordchar((unsigned char)name[i]);
    if (!ok)
        return pqt_err(PQT_BAD_FILTER,
                       "pqt_filter_bind: set name '%.80s' must be 1 to %d characters without "
                       "spaces, parentheses or quotes",
                       name, PQT_FILTER_MAX_NAME_NBYTES);
    int at = find_set(f, name);
    if (at < 0 && f->nsets >= PQT_FILTER_MAX_SETS) return too_many_sets("pqt_filter_bind");
    char what[120];
    snprintf(what, sizeof what, "pqt_filter_bind, set '%s'", name);
    fset s;
    pqt_status st = set_copy(what, kind, values, n, valid, &s);
    if (st == PQT_OK && !(s.name = pqt_strdup(name))) st = oom();
    if (st == PQT_OK && at < 0) st = reserve_set(f);
    if (st != PQT_OK) {
        set_free(&s);
        return st;
    }
    if (at >= 0) {
        set_free(&f->sets[at]);
        f->sets[at] = s;
    } else {
        f->sets[f->nsets++] = s;
    }
    return PQT_OK;
}

pqt_status pqt_filter_add_in(pqt_filter *f, const char *column, int kind, const void *values,
                             int64_t n, const uint8_t *valid, int negate)
{
    if (!f || !column)
        return pqt_err(PQT_MISUSE, "pqt_filter_add_in: %s is NULL", f ? "column" : "f");
    size_t len = strlen(column);
    if (len == 0 || len > PQT_FILTER_MAX_NAME_NBYTES)
        return pqt_err(PQT_BAD_FILTER,
                       "pqt_filter_add_in: column name '%.80s' must be 1 to %d characters",
                       column, PQT_FILTER_MAX_NAME_NBYTES);
    if (f->nsets >= PQT_FILTER_MAX_SETS) return too_many_sets("pqt_filter_add_in");
    int implicit_and = f->nrules > 0;
    if (f->nnodes + implicit_and + 1 > PQT_FILTER_MAX_NODES)
        return pqt_err(PQT_BAD_FILTER,
                       "pqt_filter_add_in: filter expression has more terms than the supported "
                       "limit (%d nodes)",
                       PQT_FILTER_MAX_NODES);
    char what[120];
    snprintf(what, sizeof what, "pqt_filter_add_in, column '%.64s'", column);
    fset s;
    pqt_status st = set_copy(what, kind, values, n, valid, &s);
    fnode *c = st == PQT_OK ? pqt_calloc(1, sizeof *c) : NULL;
    if (st == PQT_OK && (!c || !(c->col = pqt_strdup(column)))) st = oom();
    if (st == PQT_OK) st = reserve_set(f);
    if (st == PQT_OK) st = reserve_rule(f);
    if (st != PQT_OK) {
        set_free(&s);
        pqt_scan_node_free(c);
        return st;
    }
    c->type = FN_CLAUSE;
    c->op = negate ? FOP_NOT_IN : FOP_IN;
    c->set_idx = f->nsets;
    f->sets[f->nsets++] = s;
    f->rules[f->nrules++] = (frule){NULL, 0, c};
    f->nnodes += 1 + implicit_and;
    return PQT_OK;
}

static void *dup_bytes(const void *p, size_t n, pqt_status *st)
{
    if (!p || *st != PQT_OK) return NULL;
    void *d = pqt_malloc(n ? n : 1);
    if (!d) {
        *st = oom();
        return NULL;
    }
    memcpy(d, p, n);
    return d;
}

static pqt_status set_dup(const fset *s, fset *d)
{
    pqt_status st = PQT_OK;
    *d = (fset){NULL, s->kind, s->unit, s->n, NULL, NULL, NULL, NULL};
    size_t n = (size_t)s->n;
    if (s->name && !(d->name = pqt_strdup(s->name))) st = oom();
    d->iv = dup_bytes(s->iv, n * sizeof *s->iv, &st);
    d->dv = dup_bytes(s->dv, n * sizeof *s->dv, &st);
    d->soff = dup_bytes(s->soff, (n + 1) * sizeof *s->soff, &st);
    d->sbytes = dup_bytes(s->sbytes, s->soff ? (size_t)s->soff[n] : 0, &st);
    if (st != PQT_OK) set_free(d);
    return st;
}

/* Rules with text are parsed again (the tree is a function of the text); an add_in clause
 * has no text and is rebuilt from its column, operator and set, a callback from its names,
 * function and user pointer. */
pqt_status pqt_scan_filter_copy(const pqt_filter *src, pqt_filter **ret)
{
    pqt_filter *d = NULL;
    PQT_TRY(pqt_filter_new(&d));
    pqt_status st = PQT_OK;
    for (int i = 0; i < src->nsets && st == PQT_OK; i++) {
        st = reserve_set(d);
        if (st == PQT_OK) st = set_dup(&src->sets[i], &d->sets[d->nsets]);
        if (st == PQT_OK) d->nsets++;
    }
    for (int i = 0; i < src->nrules && st == PQT_OK; i++) {
        const frule *r = &src->rules[i];
        if (r->text) {
            st = pqt_filter_add(d, r->text);
            continue;
        }
        if (r->root->type == FN_CALLBACK) {
            st = pqt_filter_add_callback(d, (const char *const *)r->root->cb_cols,
                                         r->root->cb_ncols, r->root->cb_fn, r->root->cb_user);
            continue;
        }
        fnode *c = pqt_calloc(1, sizeof *c);
        if (!c || !(c->col = pqt_strdup(r->root->col)) || reserve_rule(d) != PQT_OK) {
            pqt_scan_node_free(c);
            st = oom();
            break;
        }
        c->type = FN_CLAUSE;
        c->op = r->root->op;
        c->set_idx = r->root->set_idx;
        d->nnodes += 1 + (d->nrules > 0);
        d->rules[d->nrules++] = (frule){NULL, 0, c};
    }
    if (st != PQT_OK) {
        pqt_filter_free(d);
        return st;
    }
    *ret = d;
    return PQT_OK;
}

int pqt_scan_filter_nrules(const pqt_filter *f) { return f ? f->nrules : 0; }
