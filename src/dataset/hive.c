/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hive.c - hive partition keys: the key=value directory components of a dataset's member paths,
 * percent-decoded, __HIVE_DEFAULT_PARTITION__ as null, and each key typed int64 when every
 * value is a decimal integer (layer: dataset). docs/datasets.md "Hive partitions" is the rule.
 */
#include <string.h>

#include "dataset/listing.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/pct.h"

#define HIVE_NULL "__HIVE_DEFAULT_PARTITION__"

char *pqt_ds_hive_decode(const char *s, size_t n)
{
    char *out = pqt_malloc(n + 1);
    if (out) pqt_percent_decode(s, n, out);
    return out;
}

/* A decimal int64: optional '-', at least one digit, nothing else, in range, and no leading
 * zero (as DuckDB types them: month=01 stays the string "01", which an integer could not give
 * back). */
static bool is_int64(const char *s)
{
    bool neg = *s == '-';
    if (neg) s++;
    if (!*s || (s[0] == '0' && s[1])) return false;
    uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        unsigned d = (unsigned)(*s - '0');
        if (v > (lim - d) / 10) return false;
        v = v * 10 + d;
    }
    return true;
}

/* The next directory component of path at *pos: [*start, *start + *len) holding '=' at *eq
 * (relative to start; 0 when none). False when only the file name is left. */
static bool next_dir_component(const char *path, size_t *pos, size_t *start, size_t *len,
                               size_t *eq)
{
    for (;;) {
        const char *p = path + *pos;
        const char *slash = strchr(p, '/');
        if (!slash) return false;
        *start = *pos;
        *len = (size_t)(slash - p);
        *pos += *len + 1;
        const char *e = memchr(p, '=', *len);
        *eq = e ? (size_t)(e - p) : 0;
        if (*eq > 0) return true;
    }
}

typedef struct keyset {
    char **keys;
    int n, cap;
    int64_t *seen; /* per key: 1 + the index of the last path that had it */
} keyset;

static int key_find(const keyset *ks, const char *key)
{
    for (int k = 0; k < ks->n; k++)
        if (strcmp(ks->keys[k], key) == 0) return k;
    return -1;
}

static pqt_status key_add(keyset *ks, const char *key, const char *path)
{
    if (ks->n == ks->cap) {
        int cap = ks->cap ? ks->cap * 2 : 8;
        char **keys = pqt_realloc(ks->keys, (size_t)cap * sizeof *keys);
        if (keys) ks->keys = keys;
        int64_t *seen = pqt_realloc(ks->seen, (size_t)cap * sizeof *seen);
        if (seen) ks->seen = seen;
        if (!keys || !seen) return pqt_err(PQT_NOMEM, "hive keys of '%s': out of memory", path);
        ks->cap = cap;
    }
    ks->keys[ks->n] = pqt_strdup(key);
    if (!ks->keys[ks->n]) return pqt_err(PQT_NOMEM, "hive keys of '%s': out of memory", path);
    ks->seen[ks->n++] = 0;
    return PQT_OK;
}

static void keyset_free(keyset *ks)
{
    for (int k = 0; k < ks->n; k++)
        pqt_mem_free(ks->keys[k]);
    pqt_mem_free(ks->keys);
    pqt_mem_free(ks->seen);
}

/* Pass 1: the keys, outermost first in order of first appearance; a key twice in one path is
 * an error. */
static pqt_status collect_keys(const pqt_ds_list *l, keyset *ks, char *scratch)
{
    for (int64_t i = 0; i < l->n; i++) {
        const char *path = l->rel[i];
        size_t pos = 0, start, len, eq;
        while (next_dir_component(path, &pos, &start, &len, &eq)) {
            pqt_percent_decode(path + start, eq, scratch);
            int k = key_find(ks, scratch);
            if (k < 0) {
                PQT_TRY(key_add(ks, scratch, path));
                k = ks->n - 1;
            }
            if (ks->seen[k] == i + 1)
                return pqt_err(PQT_CORRUPT, "hive key '%s' appears twice in '%s'", scratch, path);
            ks->seen[k] = i + 1;
        }
    }
    return PQT_OK;
}

/* Pass 2: values[i * nkeys + k]. */
static pqt_status fill_values(const pqt_ds_list *l, const keyset *ks, char **values, char *scratch)
{
    for (int64_t i = 0; i < l->n; i++) {
        const char *path = l->rel[i];
        size_t pos = 0, start, len, eq;
        while (next_dir_component(path, &pos, &start, &len, &eq)) {
            pqt_percent_decode(path + start, eq, scratch);
            int k = key_find(ks, scratch);
            size_t vlen = pqt_percent_decode(path + start + eq + 1, len - eq - 1, scratch);
            if (strcmp(scratch, HIVE_NULL) == 0) continue;
            char *v = pqt_strndup(scratch, vlen);
            if (!v) return pqt_err(PQT_NOMEM, "hive values of '%s': out of memory", path);
            values[i * ks->n + k] = v;
        }
    }
    return PQT_OK;
}

pqt_status pqt_ds_hive_parse(pqt_ds_list *l)
{
    size_t maxlen = 0;
    for (int64_t i = 0; i < l->n; i++) {
        size_t len = strlen(l->rel[i]);
        if (len > maxlen) maxlen = len;
    }
    char *scratch = pqt_malloc(maxlen + 1);
    if (!scratch) return pqt_err(PQT_NOMEM, "hive keys: out of memory");
    keyset ks = {0};
    pqt_status st = collect_keys(l, &ks, scratch);
    if (st != PQT_OK || ks.n == 0) {
        pqt_mem_free(scratch);
        keyset_free(&ks);
        return st;
    }
    char **values = pqt_calloc((size_t)l->n * (size_t)ks.n, sizeof *values);
    bool *is_int = pqt_calloc((size_t)ks.n, sizeof *is_int);
    if (!values || !is_int)
        st = pqt_err(PQT_NOMEM, "hive values of %lld files: out of memory", (long long)l->n);
    if (st == PQT_OK) st = fill_values(l, &ks, values, scratch);
    pqt_mem_free(scratch);
    if (st != PQT_OK) {
        if (values)
            for (int64_t i = 0; i < l->n * ks.n; i++)
                pqt_mem_free(values[i]);
        pqt_mem_free(values);
        pqt_mem_free(is_int);
        keyset_free(&ks);
        return st;
    }
    for (int k = 0; k < ks.n; k++) {
        bool any = false, all = true;
        for (int64_t i = 0; i < l->n && all; i++) {
            const char *v = values[i * ks.n + k];
            if (!v) continue;
            any = true;
            all = is_int64(v);
        }
        is_int[k] = any && all;
    }
    pqt_mem_free(ks.seen);
    l->nkeys = ks.n;
    l->keys = ks.keys;
    l->values = values;
    l->key_is_int = is_int;
    return PQT_OK;
}
