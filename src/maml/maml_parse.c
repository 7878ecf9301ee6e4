/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maml_parse.c - reads a MAML (YAML) with libyaml's document loader into the model of
 * maml.h (layer: maml). Format rules of docs/maml.md: keys case-insensitive at every level,
 * values case-sensitive, lines of at most 1024 characters, CRLF accepted; shapes the model
 * does not expect are recorded as problems with their line, never fatal, so one error can
 * list them all. Anchors and aliases resolve through libyaml; the walk counts the nodes it
 * visits so an alias bomb stops instead of expanding.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <yaml.h>

#include "maml/maml.h"
#include "util/error.h"
#include "util/mem.h"

typedef struct walk {
    pqt_maml *m;
    yaml_document_t *doc;
    long visits;
    bool bomb; /* the visit cap was hit (reported once) */
    pqt_status st; /* first PQT_NOMEM */
} walk;

pqt_status pqt_maml_problem(pqt_maml *m, int line, const char *fmt, ...)
{
    /* a hostile MAML can make problems without end: the count goes on, the text stops */
    if (m->nproblems >= PQT_MAML_MAX_PROBLEMS) {
        m->nproblems++;
        return PQT_OK;
    }
    char text[600];
    int off = line > 0 ? snprintf(text, sizeof text, "line %d: ", line) : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + off, sizeof text - (size_t)off, fmt, ap);
    va_end(ap);
    if (m->problems.len) PQT_TRY(pqt_buf_append(&m->problems, "\n", 1));
    PQT_TRY(pqt_buf_append(&m->problems, text, strlen(text)));
    m->nproblems++;
    return PQT_OK;
}

static void note(walk *w, pqt_status st)
{
    if (st != PQT_OK && w->st == PQT_OK) w->st = st;
}

static yaml_node_t *node_at(walk *w, int id)
{
    if (++w->visits > PQT_MAML_MAX_VISITS) {
        if (!w->bomb) { /* recorded even past the problem cap: it explains the rest */
            int count = w->m->nproblems;
            w->m->nproblems = 0;
            note(w, pqt_maml_problem(w->m, 0, "the document expands to more than %d nodes "
                                              "(aliases?); refused",
                                     PQT_MAML_MAX_VISITS));
            w->m->nproblems = count + 1;
        }
        w->bomb = true;
        return NULL;
    }
    return yaml_document_get_node(w->doc, id);
}

static int line_of(const yaml_node_t *n) { return (int)n->start_mark.line + 1; }

static char *scalar_dup(walk *w, const yaml_node_t *n)
{
    char *s = pqt_strndup((const char *)n->data.scalar.value, n->data.scalar.length);
    if (!s) note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
    return s;
}

/* A scalar as text, a list of scalars joined with ";" (ucd:, keywords:), else NULL. */
static char *text_of(walk *w, yaml_node_t *n)
{
    if (!n) return NULL;
    if (n->type == YAML_SCALAR_NODE) return scalar_dup(w, n);
    if (n->type != YAML_SEQUENCE_NODE) return NULL;
    pqt_buf b = {0};
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
         it++) {
        yaml_node_t *e = node_at(w, *it);
        if (!e || e->type != YAML_SCALAR_NODE) {
            pqt_buf_free(&b);
            return NULL;
        }
        if (b.len) note(w, pqt_buf_append(&b, ";", 1));
        note(w, pqt_buf_append(&b, e->data.scalar.value, e->data.scalar.length));
    }
    char *s = pqt_strndup(b.data ? (const char *)b.data : "", b.len);
    pqt_buf_free(&b);
    if (!s) note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
    return s;
}

static const char *key_text(yaml_node_t *k) { return (const char *)k->data.scalar.value; }

/* Store a scalar value in *slot (a repeated key keeps the first and is a problem). */
static void take_scalar(walk *w, char **slot, yaml_node_t *k, yaml_node_t *v, const char *where)
{
    if (*slot) {
        note(w, pqt_maml_problem(w->m, line_of(k), "%s: key '%s' appears twice", where,
                                 key_text(k)));
        return;
    }
    if (v->type != YAML_SCALAR_NODE) {
        note(w, pqt_maml_problem(w->m, line_of(v), "%s: '%s' must be a single value", where,
                                 key_text(k)));
        return;
    }
    *slot = scalar_dup(w, v);
}

static void read_qc(walk *w, pqt_maml_field *f, yaml_node_t *q)
{
    f->has_qc = true;
    if (q->type == YAML_SCALAR_NODE && q->data.scalar.length == 0) return; /* empty block */
    if (q->type != YAML_MAPPING_NODE) {
        note(w, pqt_maml_problem(w->m, line_of(q), "field '%s': qc: must be a block of min:, "
                                                   "max: and miss:",
                                 f->name ? f->name : "?"));
        return;
    }
    for (yaml_node_pair_t *p = q->data.mapping.pairs.start; p < q->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node_at(w, p->key), *v = node_at(w, p->value);
        if (!k || !v) return;
        if (k->type != YAML_SCALAR_NODE) continue;
        const char *key = key_text(k);
        char **slot = !strcasecmp(key, "min")    ? &f->qc_min
                      : !strcasecmp(key, "max")  ? &f->qc_max
                      : !strcasecmp(key, "miss") ? &f->qc_miss
                                                 : NULL;
        if (!slot) {
            note(w, pqt_maml_problem(w->m, line_of(k), "field '%s': unknown qc key '%s' "
                                                       "(min, max, miss)",
                                     f->name ? f->name : "?", key));
            continue;
        }
        take_scalar(w, slot, k, v, "qc");
    }
}

/* The sub-keys of one field block into f. */
static void read_field_keys(walk *w, pqt_maml_field *f, yaml_node_t *map)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = node_at(w, p->key), *v = node_at(w, p->value);
        if (!k || !v) return;
        if (k->type != YAML_SCALAR_NODE) {
            note(w, pqt_maml_problem(w->m, line_of(k), "a field key must be a word"));
            continue;
        }
        const char *key = key_text(k);
        if (!strcasecmp(key, "qc")) {
            if (f->has_qc)
                note(w, pqt_maml_problem(w->m, line_of(k), "field: key 'qc' appears twice"));
            else
                read_qc(w, f, v);
            continue;
        }
        if (!strcasecmp(key, "ucd")) {
            if (f->ucd) {
                note(w, pqt_maml_problem(w->m, line_of(k), "field: key 'ucd' appears twice"));
                continue;
            }
            f->ucd = text_of(w, v);
            if (!f->ucd)
                note(w, pqt_maml_problem(w->m, line_of(v), "field: ucd: must be a value or a "
                                                           "list of values"));
            continue;
        }
        char **slot = !strcasecmp(key, "name")         ? &f->name
                      : !strcasecmp(key, "data_type")  ? &f->data_type
                      : !strcasecmp(key, "unit")       ? &f->unit
                      : !strcasecmp(key, "info")       ? &f->info
                      : !strcasecmp(key, "col_size")   ? &f->col_size
                      : !strcasecmp(key, "array_size") ? &f->array_size
                                                       : NULL;
        if (!strcasecmp(key, "source")) continue; /* read only by the table-type generator */
        if (!slot) {
            note(w, pqt_maml_problem(w->m, line_of(k), "unknown field key '%s' (name, "
                                                       "data_type, col_size, array_size, "
                                                       "unit, info, ucd, qc, source)",
                                     key));
            continue;
        }
        take_scalar(w, slot, k, v, "field");
    }
}

static bool is_field_key(const char *key)
{
    static const char *const keys[] = {"name", "data_type", "col_size", "array_size", "unit",
                                       "info", "ucd",       "qc",       "source"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcasecmp(key, keys[i])) return true;
    return false;
}

static void read_fields(walk *w, yaml_node_t *seq)
{
    pqt_maml *m = w->m;
    m->has_fields = true;
    if (seq->type == YAML_SCALAR_NODE && seq->data.scalar.length == 0) return;
    if (seq->type != YAML_SEQUENCE_NODE) {
        note(w, pqt_maml_problem(m, line_of(seq), "fields: must be a list of field entries"));
        return;
    }
    size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    if (n == 0) return;
    m->fields = pqt_calloc(n, sizeof *m->fields);
    if (!m->fields) return note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
    for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top;
         it++) {
        yaml_node_t *e = node_at(w, *it);
        if (!e) return;
        pqt_maml_field *f = &m->fields[m->nfields++];
        f->line = line_of(e);
        if (e->type != YAML_MAPPING_NODE) {
            note(w, pqt_maml_problem(m, f->line, "a fields: entry must be a block of keys"));
            continue;
        }
        yaml_node_pair_t *p0 = e->data.mapping.pairs.start;
        yaml_node_t *k0 = p0 < e->data.mapping.pairs.top ? node_at(w, p0->key) : NULL;
        yaml_node_t *v0 = k0 ? node_at(w, p0->value) : NULL;
        /* the map form "- MASS_KG: {unit: kg}": one key that is not a field key, holding
         * the field's block (or nothing) */
        if (k0 && v0 && e->data.mapping.pairs.top - p0 == 1 && k0->type == YAML_SCALAR_NODE &&
            !is_field_key(key_text(k0)) &&
            (v0->type == YAML_MAPPING_NODE ||
             (v0->type == YAML_SCALAR_NODE && v0->data.scalar.length == 0))) {
            f->name = scalar_dup(w, k0);
            if (v0->type == YAML_MAPPING_NODE) read_field_keys(w, f, v0);
            continue;
        }
        read_field_keys(w, f, e);
    }
}

/* A list of strings (filter:, sort:) or "a;b;c" (protected_cols:). */
static void read_list(walk *w, pqt_maml_list *l, yaml_node_t *v, const char *what, bool split)
{
    size_t cap = 0;
    yaml_node_item_t *start = NULL, *top = NULL;
    if (v->type == YAML_SEQUENCE_NODE) {
        start = v->data.sequence.items.start;
        top = v->data.sequence.items.top;
        cap = (size_t)(top - start);
    } else if (v->type == YAML_SCALAR_NODE && split) {
        cap = 1;
        for (size_t i = 0; i < v->data.scalar.length; i++) cap += v->data.scalar.value[i] == ';';
    } else if (v->type == YAML_SCALAR_NODE && v->data.scalar.length == 0) {
        return;
    } else {
        note(w, pqt_maml_problem(w->m, line_of(v), "extra: %s: must be a list of strings", what));
        return;
    }
    if (cap == 0 || l->items) return; /* read once: read_extra refuses a second key */
    l->items = pqt_calloc(cap, sizeof *l->items);
    l->lines = pqt_calloc(cap, sizeof *l->lines);
    if (!l->items || !l->lines) return note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
    if (v->type == YAML_SCALAR_NODE) {
        const char *s = (const char *)v->data.scalar.value, *end = s + v->data.scalar.length;
        while (s <= end && l->n < (int)cap) {
            const char *e = memchr(s, ';', (size_t)(end - s));
            if (!e) e = end;
            const char *a = s, *b = e;
            while (a < b && (*a == ' ' || *a == '\t')) a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '\t')) b--;
            if (b > a) {
                l->lines[l->n] = line_of(v);
                if (!(l->items[l->n++] = pqt_strndup(a, (size_t)(b - a))))
                    return note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
            }
            s = e + 1;
        }
        return;
    }
    for (yaml_node_item_t *it = start; it < top; it++) {
        yaml_node_t *e = node_at(w, *it);
        if (!e) return;
        if (e->type != YAML_SCALAR_NODE) {
            note(w, pqt_maml_problem(w->m, line_of(e), "extra: %s: entries must be strings", what));
            continue;
        }
        l->lines[l->n] = line_of(e);
        if (!(l->items[l->n++] = scalar_dup(w, e))) return;
    }
}

/* A list of single-pair maps: remap: (- internal: FILE_COLUMN) or col_map: (- internal:
 * output); the entries go to pairs and npairs, key first. */
static void read_pairs(walk *w, yaml_node_t *v, const char *what, const char *shape,
                       pqt_maml_pair **pairs, int *npairs)
{
    pqt_maml *m = w->m;
    if (v->type == YAML_SCALAR_NODE && v->data.scalar.length == 0) return;
    if (v->type != YAML_SEQUENCE_NODE) {
        note(w, pqt_maml_problem(m, line_of(v), "extra: %s: must be a list of '- %s' entries",
                                 what, shape));
        return;
    }
    size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
    if (n == 0 || *pairs) return;
    *pairs = pqt_calloc(n, sizeof **pairs);
    if (!*pairs) return note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++) {
        yaml_node_t *e = node_at(w, *it);
        if (!e) return;
        yaml_node_t *k = NULL, *t = NULL;
        if (e->type == YAML_MAPPING_NODE &&
            e->data.mapping.pairs.top - e->data.mapping.pairs.start == 1) {
            k = node_at(w, e->data.mapping.pairs.start->key);
            t = k ? node_at(w, e->data.mapping.pairs.start->value) : NULL;
        }
        if (!k || !t || k->type != YAML_SCALAR_NODE || t->type != YAML_SCALAR_NODE ||
            k->data.scalar.length == 0 || t->data.scalar.length == 0) {
            if (!w->bomb)
                note(w, pqt_maml_problem(m, line_of(e), "extra: %s: each entry is one '%s' pair",
                                         what, shape));
            continue;
        }
        pqt_maml_pair *p = &(*pairs)[(*npairs)++];
        p->line = line_of(e);
        p->internal = scalar_dup(w, k);
        p->file = scalar_dup(w, t);
    }
}

static const char *const extra_keys[] = {"remap", "col_map",        "filter",
                                         "sort",  "protected_cols", "nullable_cols"};

/* extra: is free-form; only the keys read here are looked at. Keys are case-insensitive, so
 * "filter:" and "FILTER:" are the same key: a second one is a problem (YAML's mapping keys
 * are unique), never merged into or written over the first. */
static void read_extra(walk *w, yaml_node_t *v)
{
    if (v->type != YAML_MAPPING_NODE) return;
    int first[sizeof extra_keys / sizeof extra_keys[0]] = {0}; /* line of each key seen */
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node_at(w, p->key), *x = node_at(w, p->value);
        if (!k || !x) return;
        if (k->type != YAML_SCALAR_NODE) continue;
        const char *key = key_text(k);
        size_t i = 0;
        while (i < sizeof extra_keys / sizeof extra_keys[0] && strcasecmp(key, extra_keys[i]))
            i++;
        if (i == sizeof extra_keys / sizeof extra_keys[0]) continue;
        if (first[i]) {
            note(w, pqt_maml_problem(w->m, line_of(k),
                                     "extra: key '%s' appears twice (first on line %d)",
                                     key, first[i]));
            continue;
        }
        first[i] = line_of(k);
        if (!strcasecmp(key, "remap"))
            read_pairs(w, x, "remap", "internal_name: FILE_COLUMN", &w->m->remap, &w->m->nremap);
        else if (!strcasecmp(key, "col_map"))
            read_pairs(w, x, "col_map", "internal_name: output_name", &w->m->col_map,
                       &w->m->ncol_map);
        else if (!strcasecmp(key, "filter")) read_list(w, &w->m->filter, x, "filter", false);
        else if (!strcasecmp(key, "sort")) read_list(w, &w->m->sort, x, "sort", false);
        else if (!strcasecmp(key, "protected_cols"))
            read_list(w, &w->m->protected_cols, x, "protected_cols", true);
        else if (!strcasecmp(key, "nullable_cols"))
            read_list(w, &w->m->nullable_cols, x, "nullable_cols", true);
    }
}

/* The entries of a list section, kept for the key-value embedding (docs/writing.md). */
static void read_items(walk *w, pqt_maml_kv *kv, yaml_node_t *v)
{
    if (v->type != YAML_SEQUENCE_NODE) return;
    size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
    if (n == 0) return;
    kv->items = pqt_calloc(n, sizeof *kv->items);
    if (!kv->items) return note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
         it++) {
        yaml_node_t *e = node_at(w, *it);
        if (!e) return;
        pqt_maml_item *x = &kv->items[kv->nitems++];
        if (e->type == YAML_SCALAR_NODE) {
            x->text = scalar_dup(w, e);
            continue;
        }
        if (e->type != YAML_MAPPING_NODE) continue;
        size_t np = (size_t)(e->data.mapping.pairs.top - e->data.mapping.pairs.start);
        if (np == 0) continue;
        x->sub = pqt_calloc(np, sizeof *x->sub);
        if (!x->sub) return note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
        for (yaml_node_pair_t *p = e->data.mapping.pairs.start; p < e->data.mapping.pairs.top;
             p++) {
            yaml_node_t *k = node_at(w, p->key), *y = node_at(w, p->value);
            if (!k || !y) return;
            if (k->type != YAML_SCALAR_NODE || y->type != YAML_SCALAR_NODE) continue;
            pqt_maml_pair *q = &x->sub[x->nsub++];
            q->line = line_of(k);
            q->internal = scalar_dup(w, k);
            q->file = scalar_dup(w, y);
        }
    }
}

static const char *const top_keys[] = {
    "survey",   "dataset",     "table",      "version", "date",    "author",
    "coauthors", "dois",       "depends",    "description", "comments", "license",
    "keywords", "maml_version", "keyarray",  "extra",   "fields"};

static void read_root(walk *w, yaml_node_t *root)
{
    pqt_maml *m = w->m;
    if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0) return;
    if (root->type != YAML_MAPPING_NODE) {
        note(w, pqt_maml_problem(m, line_of(root), "a MAML is a block of sections "
                                                   "('table: ...', 'fields: ...')"));
        return;
    }
    size_t n = (size_t)(root->data.mapping.pairs.top - root->data.mapping.pairs.start);
    m->top = pqt_calloc(n ? n : 1, sizeof *m->top);
    if (!m->top) return note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
    bool seen[sizeof top_keys / sizeof top_keys[0]] = {false};
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = node_at(w, p->key), *v = node_at(w, p->value);
        if (!k || !v) return;
        if (k->type != YAML_SCALAR_NODE) {
            note(w, pqt_maml_problem(m, line_of(k), "a section name must be a word"));
            continue;
        }
        const char *key = key_text(k);
        size_t i = 0;
        while (i < sizeof top_keys / sizeof top_keys[0] && strcasecmp(key, top_keys[i])) i++;
        if (i == sizeof top_keys / sizeof top_keys[0]) {
            note(w, pqt_maml_problem(m, line_of(k), "unknown section '%s'", key));
            continue;
        }
        if (seen[i]) {
            note(w, pqt_maml_problem(m, line_of(k), "section '%s' appears twice", key));
            continue;
        }
        seen[i] = true;
        if (!strcmp(top_keys[i], "fields")) {
            read_fields(w, v);
            continue;
        }
        if (!strcmp(top_keys[i], "extra")) {
            read_extra(w, v);
            continue;
        }
        pqt_maml_kv *kv = &m->top[m->ntop++];
        kv->line = line_of(k);
        kv->key = pqt_strdup(top_keys[i]);
        if (!kv->key) note(w, pqt_err(PQT_NOMEM, "out of memory reading a MAML"));
        kv->value = text_of(w, v);
        read_items(w, kv, v);
    }
}

/* Lines longer than the limit are problems of their own (the parser still reads them: the
 * point is that nothing is cut silently). */
static pqt_status check_lines(pqt_maml *m, const char *text, size_t nbytes)
{
    size_t start = 0;
    int line = 1;
    for (size_t i = 0; i <= nbytes; i++) {
        if (i < nbytes && text[i] != '\n') continue;
        size_t len = i - start;
        if (len && text[start + len - 1] == '\r') len--;
        if (line == 1 && len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) len -= 3;
        /* characters, not bytes: UTF-8 continuation bytes do not count */
        size_t nchars = 0;
        for (size_t j = start; j < start + len; j++) nchars += ((unsigned char)text[j] & 0xC0) != 0x80;
        if (nchars > PQT_MAML_MAX_LINE)
            PQT_TRY(pqt_maml_problem(m, line, "the line is %zu characters long; a MAML line is "
                                              "at most %d",
                                     nchars, PQT_MAML_MAX_LINE));
        start = i + 1;
        line++;
    }
    return PQT_OK;
}

/* ---- bounds, before the document is built ---- */

/* One pass over libyaml's events, stopping at the first list or block nested deeper than
 * PQT_MAML_MAX_DEPTH, or at the first node past PQT_MAML_MAX_NODES: each is a problem naming
 * its line and *ok_ret is false (the document is not loaded). The pass holds one event at a
 * time, and the scanner's per-token work stays bounded by the depth it is allowed. A syntax
 * error ends the pass with *ok_ret true: the loader reports it. */
static pqt_status check_shape(pqt_maml *m, const char *text, size_t nbytes, bool *ok_ret)
{
    *ok_ret = true;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return pqt_err(PQT_NOMEM, "out of memory reading a MAML");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, nbytes);
    pqt_status st = PQT_OK;
    long depth = 0, nodes = 0;
    for (bool done = false; !done;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            if (parser.error == YAML_MEMORY_ERROR)
                st = pqt_err(PQT_NOMEM, "out of memory reading a MAML");
            break;
        }
        int line = (int)ev.start_mark.line + 1;
        bool open = ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT;
        if (open && ++depth > PQT_MAML_MAX_DEPTH) {
            st = pqt_maml_problem(m, line, "lists and blocks nest more than %d deep; refused",
                                  PQT_MAML_MAX_DEPTH);
            *ok_ret = false;
        } else if ((open || ev.type == YAML_SCALAR_EVENT) && ++nodes > PQT_MAML_MAX_NODES) {
            st = pqt_maml_problem(m, line,
                                  "the document has more than %d nodes (values, lists "
                                  "and blocks); refused",
                                  PQT_MAML_MAX_NODES);
            *ok_ret = false;
        }
        if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) depth--;
        /* the loader reads the first document only */
        done = !*ok_ret || ev.type == YAML_DOCUMENT_END_EVENT || ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return st;
}

/* ---- NUL characters ---- */

static bool has_nul(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE && n->data.scalar.length &&
           memchr(n->data.scalar.value, 0, n->data.scalar.length);
}

/* The key of the 'name:' pair of mapping node id map, when it has a NUL-free scalar one. */
static const char *block_name(yaml_document_t *doc, int map)
{
    yaml_node_t *b = map ? yaml_document_get_node(doc, map) : NULL;
    if (!b || b->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = b->data.mapping.pairs.start; p < b->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE && !has_nul(k) &&
            !has_nul(v) && !strcasecmp(key_text(k), "name"))
            return (const char *)v->data.scalar.value;
    }
    return NULL;
}

/* A NUL inside a scalar (a "\0" escape: libyaml refuses a raw one) would cut the value short
 * where it is read as C text: the filter "id < 3\0 and id > 9" would run as "id < 3", a name
 * or a unit would lose its tail. Each is a problem naming its key, its field (the block's
 * name:) and its line. Every scalar is checked once, in the node table, so aliases cost
 * nothing; the owners are worked out only once a NUL is found. */
static pqt_status check_nuls(pqt_maml *m, yaml_document_t *doc)
{
    int n = (int)(doc->nodes.top - doc->nodes.start);
    int first = 0;
    for (int i = 0; i < n && !first; i++)
        if (has_nul(&doc->nodes.start[i])) first = i + 1;
    if (!first) return PQT_OK;
    /* node ids start at 1, and a collection comes before what it holds (the loader adds a
     * node at its start), so one pass hands each node its owner: the key whose value it is
     * (or whose value is the sequence holding it) and the block holding that key */
    int *key = pqt_calloc((size_t)n + 1, sizeof *key),
        *block = pqt_calloc((size_t)n + 1, sizeof *block);
    if (!key || !block) {
        pqt_mem_free(key);
        pqt_mem_free(block);
        return pqt_err(PQT_NOMEM, "out of memory reading a MAML");
    }
    for (int id = 1; id <= n; id++) {
        yaml_node_t *c = &doc->nodes.start[id - 1];
        if (c->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *p = c->data.mapping.pairs.start; p < c->data.mapping.pairs.top;
                 p++) {
                if (p->value < 1 || p->value > n || key[p->value]) continue;
                key[p->value] = p->key;
                block[p->value] = block[p->key] = id;
            }
        } else if (c->type == YAML_SEQUENCE_NODE) {
            for (yaml_node_item_t *it = c->data.sequence.items.start;
                 it < c->data.sequence.items.top; it++) {
                if (*it < 1 || *it > n || key[*it]) continue;
                key[*it] = key[id];
                block[*it] = block[id];
            }
        }
    }
    pqt_status st = PQT_OK;
    for (int id = first; id <= n && st == PQT_OK; id++) {
        yaml_node_t *x = &doc->nodes.start[id - 1];
        if (!has_nul(x)) continue;
        /* the text up to 60 bytes, the NULs shown as \0 */
        char shown[200];
        size_t len = 0;
        for (size_t j = 0; j < x->data.scalar.length && j < 60; j++) {
            unsigned char ch = x->data.scalar.value[j];
            if (ch == 0) {
                shown[len++] = '\\';
                shown[len++] = '0';
            } else {
                shown[len++] = ch < 0x20 ? ' ' : (char)ch;
            }
        }
        shown[len] = '\0';
        const char *more = x->data.scalar.length > 60 ? "..." : "";
        yaml_node_t *k = key[id] ? yaml_document_get_node(doc, key[id]) : NULL;
        const char *field = block_name(doc, block[id]);
        char where[300] = "";
        if (field) snprintf(where, sizeof where, "field '%.100s': ", field);
        if (k && k->type == YAML_SCALAR_NODE && !has_nul(k))
            snprintf(where + strlen(where), sizeof where - strlen(where), "%.100s: ", key_text(k));
        st = pqt_maml_problem(m, line_of(x),
                              "%s\"%s\"%s holds a NUL character (\\0), which would cut it "
                              "short; refused",
                              where, shown, more);
    }
    pqt_mem_free(key);
    pqt_mem_free(block);
    return st;
}

/* ---- lookup indexes ---- */
typedef struct keyed {
    const char *key;
    int pos;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Positions of the n keys (NULL ones left out) sorted by (key, position) into *ret. */
static pqt_status sort_index(const char *const *keys, int n, int **ret, int *nret)
{
    *ret = NULL;
    *nret = 0;
    if (n == 0) return PQT_OK;
    keyed *v = pqt_malloc_array((size_t)n, sizeof *v);
    int *idx = pqt_malloc_array((size_t)n, sizeof *idx);
    if (!v || !idx) {
        pqt_mem_free(v);
        pqt_mem_free(idx);
        return pqt_err(PQT_NOMEM, "out of memory reading a MAML");
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (keys[i]) v[k++] = (keyed){keys[i], i};
    qsort(v, (size_t)k, sizeof *v, keyed_cmp);
    for (int i = 0; i < k; i++) idx[i] = v[i].pos;
    pqt_mem_free(v);
    *ret = idx;
    *nret = k;
    return PQT_OK;
}

static pqt_status build_indexes(pqt_maml *m)
{
    int n = m->nfields > m->nremap ? m->nfields : m->nremap, unused;
    if (n == 0) return PQT_OK;
    const char **keys = pqt_malloc_array((size_t)n, sizeof *keys);
    if (!keys) return pqt_err(PQT_NOMEM, "out of memory reading a MAML");
    for (int i = 0; i < m->nfields; i++) keys[i] = m->fields[i].name;
    pqt_status st = sort_index(keys, m->nfields, &m->field_by_name, &m->nfield_by_name);
    for (int i = 0; i < m->nremap; i++) keys[i] = m->remap[i].file;
    if (st == PQT_OK) st = sort_index(keys, m->nremap, &m->remap_by_file, &unused);
    for (int i = 0; i < m->nremap; i++) keys[i] = m->remap[i].internal;
    if (st == PQT_OK) st = sort_index(keys, m->nremap, &m->remap_by_internal, &unused);
    pqt_mem_free(keys);
    return st;
}

/* First position in idx[0..n) whose key (key_of) is >= key. */
static int lower_bound(const int *idx, int n, const char *key, const char *(*key_of)(const pqt_maml *, int),
                       const pqt_maml *m)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(key_of(m, idx[mid]), key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static const char *field_name(const pqt_maml *m, int i) { return m->fields[i].name; }
static const char *remap_file(const pqt_maml *m, int i) { return m->remap[i].file; }
static const char *remap_internal(const pqt_maml *m, int i) { return m->remap[i].internal; }

void pqt_maml_remap_targets(const pqt_maml *m, const char *path, int *lo_ret, int *hi_ret)
{
    int lo = m && path ? lower_bound(m->remap_by_file, m->nremap, path, remap_file, m) : 0, hi = lo;
    while (m && path && hi < m->nremap && !strcmp(m->remap[m->remap_by_file[hi]].file, path)) hi++;
    *lo_ret = lo;
    *hi_ret = hi;
}

bool pqt_maml_remap_is_internal(const pqt_maml *m, const char *name)
{
    if (!m || !name || m->nremap == 0) return false;
    int i = lower_bound(m->remap_by_internal, m->nremap, name, remap_internal, m);
    return i < m->nremap && !strcmp(m->remap[m->remap_by_internal[i]].internal, name);
}

pqt_status pqt_maml_parse_text(const char *text, size_t nbytes, const char *source,
                               pqt_maml **ret)
{
    if (!text || !ret) return pqt_err(PQT_MISUSE, "pqt_maml_parse_text: NULL argument");
    pqt_maml *m = pqt_calloc(1, sizeof *m);
    if (!m) return pqt_err(PQT_NOMEM, "out of memory reading a MAML");
    atomic_init(&m->refs, 1);
    m->source = pqt_strdup(source ? source : "MAML text");
    if (!m->source) {
        pqt_maml_unref(m);
        return pqt_err(PQT_NOMEM, "out of memory reading a MAML");
    }
    bool shape_ok = false;
    pqt_status st = check_lines(m, text, nbytes);
    if (st == PQT_OK) st = check_shape(m, text, nbytes, &shape_ok);
    yaml_parser_t parser;
    yaml_document_t doc;
    bool parser_ok = st == PQT_OK && shape_ok && yaml_parser_initialize(&parser);
    if (st == PQT_OK && shape_ok && !parser_ok)
        st = pqt_err(PQT_NOMEM, "out of memory reading a MAML");
    if (parser_ok) {
        yaml_parser_set_input_string(&parser, (const unsigned char *)text, nbytes);
        if (!yaml_parser_load(&parser, &doc)) {
            if (parser.error == YAML_MEMORY_ERROR)
                st = pqt_err(PQT_NOMEM, "out of memory reading a MAML");
            else
                st = pqt_maml_problem(m, (int)parser.problem_mark.line + 1,
                                      "not valid YAML: %s%s%s",
                                      parser.problem ? parser.problem : "syntax error",
                                      parser.context ? " " : "",
                                      parser.context ? parser.context : "");
        } else {
            yaml_node_t *root = yaml_document_get_root_node(&doc);
            walk w = {.m = m, .doc = &doc, .st = PQT_OK};
            st = check_nuls(m, &doc);
            if (root && st == PQT_OK) read_root(&w, root); /* no root: an empty document */
            if (st == PQT_OK) st = w.st;
            if (st == PQT_OK) st = build_indexes(m);
            yaml_document_delete(&doc);
        }
        yaml_parser_delete(&parser);
    }
    if (st != PQT_OK) {
        pqt_maml_unref(m);
        return st;
    }
    *ret = m;
    return PQT_OK;
}

pqt_status pqt_maml_parse_file(const char *path, pqt_maml **ret)
{
    if (!path || !ret) return pqt_err(PQT_MISUSE, "pqt_maml_parse_file: NULL argument");
    FILE *fp = fopen(path, "rb");
    if (!fp) return pqt_err(PQT_IO, "MAML %s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(fp), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(fp);
        return pqt_err(PQT_IO, "MAML %s: not a regular file", path);
    }
    /* refused by size before anything is read: a MAML is a page of text */
    if ((unsigned long long)sb.st_size > PQT_MAML_MAX_NBYTES) {
        fclose(fp);
        return pqt_err(PQT_BAD_MAML, "MAML %s: %lld bytes, a MAML is at most %zu bytes (16 MiB)",
                       path, (long long)sb.st_size, PQT_MAML_MAX_NBYTES);
    }
    size_t n = (size_t)sb.st_size;
    char *text = pqt_malloc(n ? n : 1);
    if (!text) {
        fclose(fp);
        return pqt_err(PQT_NOMEM, "MAML %s: out of memory", path);
    }
    size_t got = n ? fread(text, 1, n, fp) : 0;
    fclose(fp);
    if (got != n) {
        pqt_mem_free(text);
        return pqt_err(PQT_IO, "MAML %s: short read (%zu of %zu bytes)", path, got, n);
    }
    pqt_status st = pqt_maml_parse_text(text, n, path, ret);
    pqt_mem_free(text);
    return st;
}

static void list_free(pqt_maml_list *l)
{
    for (int i = 0; i < l->n; i++) pqt_mem_free(l->items[i]);
    pqt_mem_free(l->items);
    pqt_mem_free(l->lines);
}

pqt_maml *pqt_maml_ref(pqt_maml *m)
{
    if (m) atomic_fetch_add(&m->refs, 1);
    return m;
}

void pqt_maml_unref(pqt_maml *m)
{
    if (!m || atomic_fetch_sub(&m->refs, 1) != 1) return;
    for (int i = 0; i < m->ntop; i++) {
        pqt_mem_free(m->top[i].key);
        pqt_mem_free(m->top[i].value);
        for (int j = 0; j < m->top[i].nitems; j++) {
            pqt_maml_item *x = &m->top[i].items[j];
            pqt_mem_free(x->text);
            for (int k = 0; k < x->nsub; k++) {
                pqt_mem_free(x->sub[k].internal);
                pqt_mem_free(x->sub[k].file);
            }
            pqt_mem_free(x->sub);
        }
        pqt_mem_free(m->top[i].items);
    }
    pqt_mem_free(m->top);
    for (int i = 0; i < m->nfields; i++) {
        pqt_maml_field *f = &m->fields[i];
        char *ss[] = {f->name, f->data_type, f->unit,   f->info,   f->ucd,
                      f->col_size, f->array_size, f->qc_min, f->qc_max, f->qc_miss};
        for (size_t j = 0; j < sizeof ss / sizeof ss[0]; j++) pqt_mem_free(ss[j]);
    }
    pqt_mem_free(m->fields);
    for (int i = 0; i < m->nremap; i++) {
        pqt_mem_free(m->remap[i].internal);
        pqt_mem_free(m->remap[i].file);
    }
    pqt_mem_free(m->remap);
    for (int i = 0; i < m->ncol_map; i++) {
        pqt_mem_free(m->col_map[i].internal);
        pqt_mem_free(m->col_map[i].file);
    }
    pqt_mem_free(m->col_map);
    pqt_mem_free(m->field_by_name);
    pqt_mem_free(m->remap_by_file);
    pqt_mem_free(m->remap_by_internal);
    list_free(&m->filter);
    list_free(&m->sort);
    list_free(&m->protected_cols);
    list_free(&m->nullable_cols);
    pqt_buf_free(&m->problems);
    pqt_mem_free(m->source);
    pqt_mem_free(m);
}

const char *pqt_maml_value(const pqt_maml *m, const char *key)
{
    if (!m || !key) return NULL;
    for (int i = 0; i < m->ntop; i++)
        if (!strcasecmp(m->top[i].key, key)) return m->top[i].value;
    return NULL;
}

const pqt_maml_field *pqt_maml_field_find(const pqt_maml *m, const char *name)
{
    if (!m || !name || m->nfield_by_name == 0) return NULL;
    int i = lower_bound(m->field_by_name, m->nfield_by_name, name, field_name, m);
    if (i == m->nfield_by_name || strcmp(m->fields[m->field_by_name[i]].name, name)) return NULL;
    return &m->fields[m->field_by_name[i]]; /* the first declared of that name */
}
