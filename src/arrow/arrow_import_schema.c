/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import_schema.c - an Arrow stream's schema read into the columns pqt will hold
 * (layer: arrow). The format strings are those of the Arrow C Data Interface; the mapping
 * is docs/arrow.md's "Import" table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/arrow_import.h"
#include "util/error.h"
#include "util/mem.h"

/* A field's metadata larger than this is not looked into (it is the producer's memory, of
 * no stated size: a sane bound keeps a corrupt count from walking far). */
#define META_MAX_ENTRIES 4096
#define META_MAX_LEN (1 << 20)

typedef struct parse_ctx {
    pqt_aimp_col *cols;
    int ncols, cap;
} parse_ctx;

static int32_t load_i32(const char *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The value of key in Arrow's binary field metadata (int32 count, then int32-length-prefixed
 * keys and values), as a fresh string into *ret (NULL when absent). */
static pqt_status meta_value(const char *meta, const char *key, char **ret)
{
    *ret = NULL;
    if (!meta) return PQT_OK;
    int32_t n = load_i32(meta);
    const char *p = meta + 4;
    size_t klen = strlen(key);
    for (int32_t i = 0; i < n && i < META_MAX_ENTRIES; i++) {
        int32_t kl = load_i32(p);
        if (kl < 0 || kl > META_MAX_LEN) return PQT_OK;
        const char *k = p + 4;
        int32_t vl = load_i32(k + kl);
        if (vl < 0 || vl > META_MAX_LEN) return PQT_OK;
        const char *v = k + kl + 4;
        if ((size_t)kl == klen && memcmp(k, key, klen) == 0) {
            *ret = pqt_strndup(v, (size_t)vl);
            return *ret ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
        }
        p = v + vl;
    }
    return PQT_OK;
}

static bool parse_uint(const char *s, char stop, int64_t *v, const char **end)
{
    char *e;
    long long x = strtoll(s, &e, 10);
    if (e == s || x < 0 || *e != stop) return false;
    *v = x;
    *end = e;
    return true;
}

static pqt_status unsupported(const char *name, const char *format)
{
    return pqt_err(PQT_UNSUPPORTED_TYPE, "field '%s': Arrow format '%s' is not a type pqt can hold",
                   name, format);
}

static bool time_unit_of(char c, int *unit, int64_t *mult)
{
    *mult = 1;
    switch (c) {
    case 's':
        *unit = PQT_UNIT_MILLIS, *mult = 1000;
        return true;
    case 'm':
        *unit = PQT_UNIT_MILLIS;
        return true;
    case 'u':
        *unit = PQT_UNIT_MICROS;
        return true;
    case 'n':
        *unit = PQT_UNIT_NANOS;
        return true;
    default:
        return false;
    }
}

/* The integer types a dictionary's indices may have. */
static bool integer_type(pqt_aimp_type t)
{
    return t >= PQT_AT_INT8 && t <= PQT_AT_UINT64;
}

/* A leaf format into v, *kind and *unit; false when pqt cannot hold it. */
static bool leaf_format(const char *f, pqt_aimp_val *v, int *kind, int *unit)
{
    static const struct {
        const char *f;
        pqt_aimp_type t;
        int kind;
    } simple[] = {
        {"c", PQT_AT_INT8, PQT_INT32},          {"C", PQT_AT_UINT8, PQT_INT32},
        {"s", PQT_AT_INT16, PQT_INT32},         {"S", PQT_AT_UINT16, PQT_INT32},
        {"i", PQT_AT_INT32, PQT_INT32},         {"I", PQT_AT_UINT32, PQT_INT64},
        {"l", PQT_AT_INT64, PQT_INT64},         {"L", PQT_AT_UINT64, PQT_UINT64},
        {"e", PQT_AT_FLOAT16, PQT_FLOAT32},     {"f", PQT_AT_FLOAT32, PQT_FLOAT32},
        {"g", PQT_AT_FLOAT64, PQT_FLOAT64},     {"b", PQT_AT_BOOL, PQT_BOOL},
        {"u", PQT_AT_UTF8, PQT_STRING},         {"U", PQT_AT_LARGE_UTF8, PQT_STRING},
        {"vu", PQT_AT_UTF8_VIEW, PQT_STRING},   {"z", PQT_AT_BINARY, PQT_BINARY},
        {"Z", PQT_AT_LARGE_BINARY, PQT_BINARY}, {"vz", PQT_AT_BINARY_VIEW, PQT_BINARY},
        {"tdD", PQT_AT_DATE32, PQT_DATE},       {"tdm", PQT_AT_DATE64, PQT_DATE},
    };
    memset(v, 0, sizeof *v);
    *unit = -1;
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (strcmp(f, simple[i].f) == 0) {
            v->type = simple[i].t;
            *kind = simple[i].kind;
            return true;
        }
    const char *end;
    int64_t a;
    if (f[0] == 'w' && f[1] == ':') {
        if (!parse_uint(f + 2, '\0', &a, &end) || a < 1 || a > INT32_MAX) return false;
        v->type = PQT_AT_FIXED_BINARY, v->size = (int32_t)a, *kind = PQT_BINARY;
        return true;
    }
    if (f[0] == 'd' && f[1] == ':') {
        /* precision, scale, optional bit width (128 when absent) */
        if (!parse_uint(f + 2, ',', &a, &end) || a < 1) return false;
        char *e;
        long long scale = strtoll(end + 1, &e, 10);
        if (e == end + 1 || scale < -1000 || scale > 1000) return false;
        int64_t bits = 128;
        if (*e == ',' && !parse_uint(e + 1, '\0', &bits, &end)) return false;
        if (*e != ',' && *e != '\0') return false;
        if (bits != 32 && bits != 64 && bits != 128) return false;
        v->type = PQT_AT_DECIMAL, v->size = (int32_t)bits, v->scale = (int32_t)scale;
        *kind = PQT_FLOAT64;
        return true;
    }
    if (f[0] == 't' && f[1] == 't' && f[2] && !f[3]) {
        if (!time_unit_of(f[2], unit, &v->mult)) return false;
        v->type = PQT_AT_TIME, v->time32 = f[2] == 's' || f[2] == 'm', *kind = PQT_TIME;
        return true;
    }
    if (f[0] == 't' && f[1] == 's' && f[2] && f[3] == ':') {
        if (!time_unit_of(f[2], unit, &v->mult)) return false;
        v->type = PQT_AT_TIMESTAMP, *kind = PQT_TIMESTAMP;
        return true;
    }
    return false;
}

/* The value type of field f (plain or dictionary-encoded) into col. */
static pqt_status value_type(const struct ArrowSchema *f, pqt_aimp_col *col)
{
    const struct ArrowSchema *vf = f->dictionary ? f->dictionary : f;
    if (!vf->format) return pqt_err(PQT_CORRUPT, "field '%s': no format", col->name);
    if (vf->n_children != 0 || (f->dictionary && vf->dictionary))
        return unsupported(col->name, vf->format);
    if (!leaf_format(vf->format, &col->val, &col->kind, &col->time_unit))
        return unsupported(col->name, vf->format);
    if (f->dictionary) {
        pqt_aimp_val iv;
        int ik, iu;
        if (!leaf_format(f->format, &iv, &ik, &iu) || !integer_type(iv.type))
            return pqt_err(PQT_UNSUPPORTED_TYPE, "field '%s': dictionary indices of format '%s'",
                           col->name, f->format);
        col->val.index_type = iv.type;
    }
    char *ext = NULL;
    PQT_TRY(meta_value(vf->metadata, "ARROW:extension:name", &ext));
    if (ext && strcmp(ext, "arrow.uuid") == 0 && col->val.type == PQT_AT_FIXED_BINARY &&
        col->val.size == 16) {
        col->val.type = PQT_AT_UUID;
        col->kind = PQT_STRING;
    }
    pqt_mem_free(ext);
    return PQT_OK;
}

static pqt_status push_col(parse_ctx *cx, pqt_aimp_col **ret)
{
    if (cx->ncols == cx->cap) {
        int cap = cx->cap ? cx->cap * 2 : 16;
        pqt_aimp_col *c = pqt_realloc(cx->cols, (size_t)cap * sizeof *c);
        if (!c) return pqt_err(PQT_NOMEM, "out of memory");
        cx->cols = c, cx->cap = cap;
    }
    *ret = &cx->cols[cx->ncols++];
    memset(*ret, 0, sizeof **ret);
    return PQT_OK;
}

static pqt_status parse_field(parse_ctx *cx, const struct ArrowSchema *f, const char *prefix,
                              bool parent_nullable, int depth);

static pqt_status parse_children(parse_ctx *cx, const struct ArrowSchema *f, const char *name,
                                 bool nullable, int depth)
{
    if (f->n_children < 0 || (f->n_children > 0 && !f->children))
        return pqt_err(PQT_CORRUPT, "field '%s': %lld children and no child list",
                       name ? name : "(schema)", (long long)f->n_children);
    for (int64_t i = 0; i < f->n_children; i++) {
        if (!f->children[i])
            return pqt_err(PQT_CORRUPT, "field '%s': child %lld is NULL", name ? name : "(schema)",
                           (long long)i);
        PQT_TRY(parse_field(cx, f->children[i], name, nullable, depth + 1));
    }
    return PQT_OK;
}

static pqt_status parse_field(parse_ctx *cx, const struct ArrowSchema *f, const char *prefix,
                              bool parent_nullable, int depth)
{
    const char *own = f->name ? f->name : "";
    size_t plen = prefix ? strlen(prefix) + 1 : 0;
    char *name = pqt_malloc(plen + strlen(own) + 1);
    if (!name) return pqt_err(PQT_NOMEM, "out of memory");
    if (prefix)
        sprintf(name, "%s.%s", prefix, own);
    else
        strcpy(name, own);
    pqt_status st = PQT_OK;
    bool nullable = parent_nullable || (f->flags & ARROW_FLAG_NULLABLE);
    if (depth > 64) {
        st = pqt_err(PQT_UNSUPPORTED_TYPE, "field '%s': structs nested deeper than 64", name);
    } else if (!f->format) {
        st = pqt_err(PQT_CORRUPT, "field '%s': no format", name);
    } else if (strcmp(f->format, "+s") == 0 && !f->dictionary) {
        st = parse_children(cx, f, name, nullable, depth);
    } else {
        pqt_aimp_col *col = NULL;
        st = push_col(cx, &col);
        if (st == PQT_OK) {
            col->name = name, name = NULL;
            col->nullable = nullable;
            col->shape = 's', col->width = 1;
            const struct ArrowSchema *leaf = f;
            int64_t w = 0;
            const char *end;
            if (strcmp(f->format, "+l") == 0 || strcmp(f->format, "+L") == 0 ||
                (f->format[0] == '+' && f->format[1] == 'w' && f->format[2] == ':' &&
                 parse_uint(f->format + 3, '\0', &w, &end))) {
                if (f->n_children != 1 || !f->children || !f->children[0])
                    st = pqt_err(PQT_CORRUPT, "field '%s': a list with %lld children", col->name,
                                 (long long)f->n_children);
                else if (f->dictionary)
                    st = unsupported(col->name, f->format);
                else if (f->format[1] == 'w' && (w < 1 || w > INT32_MAX / 2))
                    st = pqt_err(PQT_UNSUPPORTED_TYPE, "field '%s': fixed_size_list of %lld",
                                 col->name, (long long)w);
                leaf = st == PQT_OK ? f->children[0] : f;
                col->shape = f->format[1] == 'w' ? 'v' : f->format[1];
                col->width = f->format[1] == 'w' ? (int)w : 0;
                col->nullable = col->nullable || (leaf->flags & ARROW_FLAG_NULLABLE);
            }
            if (st == PQT_OK && leaf->format && leaf->format[0] == '+')
                st = unsupported(col->name, f->format); /* lists of lists, maps, unions */
            if (st == PQT_OK) st = value_type(leaf, col);
            if (st == PQT_OK) st = meta_value(f->metadata, "unit", &col->unit);
        }
    }
    pqt_mem_free(name);
    return st;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A table's column names are unique, not empty and not the row index's: Arrow's need not be
 * (two fields "a", or a field "s.a" beside a struct s with a child a). */
static pqt_status check_names(const pqt_aimp_schema *s)
{
    for (int i = 0; i < s->ncols; i++)
        if (!s->cols[i].name[0] || strcmp(s->cols[i].name, PQT_ROW_INDEX) == 0)
            return pqt_err(PQT_UNSUPPORTED, "field %d is named '%s', which a column cannot be",
                           i + 1, s->cols[i].name);
    const char **names = pqt_malloc_array((size_t)s->ncols + 1, sizeof *names);
    if (!names) return pqt_err(PQT_NOMEM, "out of memory");
    for (int i = 0; i < s->ncols; i++)
        names[i] = s->cols[i].name;
    qsort(names, (size_t)s->ncols, sizeof *names, name_cmp);
    pqt_status st = PQT_OK;
    for (int i = 1; i < s->ncols && st == PQT_OK; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            st = pqt_err(PQT_UNSUPPORTED, "two fields make the column '%s'", names[i]);
    pqt_mem_free(names);
    return st;
}

void pqt_aimp_schema_free(pqt_aimp_schema *s)
{
    for (int i = 0; i < s->ncols; i++) {
        pqt_mem_free(s->cols[i].name);
        pqt_mem_free(s->cols[i].unit);
    }
    pqt_mem_free(s->cols);
    s->cols = NULL, s->ncols = 0;
}

pqt_status pqt_aimp_schema_parse(const struct ArrowSchema *s, pqt_aimp_schema *out)
{
    memset(out, 0, sizeof *out);
    if (!s->format || strcmp(s->format, "+s") != 0)
        return pqt_err(PQT_UNSUPPORTED_TYPE,
                       "the stream's schema has format '%s', not a struct of columns ('+s')",
                       s->format ? s->format : "(none)");
    parse_ctx cx = {0};
    pqt_status st = parse_children(&cx, s, NULL, false, 0);
    out->cols = cx.cols, out->ncols = cx.ncols;
    if (st == PQT_OK) st = check_names(out);
    if (st != PQT_OK) pqt_aimp_schema_free(out);
    return st;
}
