/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_sidecar.c - the `.maml` sidecar of a written file (layer: write; docs/writing.md,
 * PQT_WOPT_WRITE_MAML). Without a write-side MAML: a read-in MAML derived from the output
 * columns (name, data_type, unit; table: = the file's stem), so opening the file with it
 * gives the units back. With one: its source verbatim, but fields: entries of columns not
 * written cut out (unless none would remain) and the PQT_WOPT_METADATA entries added as
 * keyarray: items, edited at byte ranges libyaml reports so the rest is untouched.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "maml/maml.h"

#include "util/error.h"
#include "util/mem.h"
#include "write/write_file.h"

char *pqt_sidecar_path(const char *path)
{
    size_t n = strlen(path);
    const char *ext = ".parquet";
    size_t en = strlen(ext);
    if (n > en && strcmp(path + n - en, ext) == 0) n -= en; /* replace .parquet, else append */
    char *s = pqt_malloc(n + 6);
    if (!s) return NULL;
    memcpy(s, path, n);
    memcpy(s + n, ".maml", 6);
    return s;
}

static const char *elem_type(const pqt_wcol *c, char *buf, size_t cap)
{
    static const char *units[3] = {"ms", "us", "ns"};
    const char *u = c->time_unit >= 0 && c->time_unit <= 2 ? units[c->time_unit] : "us";
    switch (c->elem_kind) {
    case PQT_INT32: return "int32";
    case PQT_FLOAT32: return "float32";
    case PQT_FLOAT64: return "float64";
    case PQT_BOOL: return "boolean";
    case PQT_STRING:
    case PQT_BINARY: return "string"; /* MAML has no bytes type */
    case PQT_DATE: return "date";
    case PQT_TIME: snprintf(buf, cap, "time[%s]", u); return buf;
    case PQT_TIMESTAMP:
        snprintf(buf, cap, c->utc ? "timestamp[%s,utc]" : "timestamp[%s]", u);
        return buf;
    default: return "int64"; /* int64, uint64 (no unsigned type in MAML) */
    }
}

/* A YAML single-quoted scalar: quotes doubled, so any name or unit survives. */
static pqt_status put_quoted(pqt_buf *b, const char *s)
{
    PQT_TRY(pqt_buf_append(b, "'", 1));
    for (const char *p = s; *p; p++) {
        if (*p == '\'') PQT_TRY(pqt_buf_append(b, "'", 1));
        PQT_TRY(pqt_buf_append(b, p, 1));
    }
    return pqt_buf_append(b, "'", 1);
}

pqt_status pqt_sidecar_text(const pqt_wcol *cols, int n, const char *path, pqt_buf *out)
{
    if (n == 0) return pqt_err(PQT_MISUSE, "a table without columns gets no MAML sidecar");
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *side = pqt_sidecar_path(base);
    if (!side) return pqt_err(PQT_NOMEM, "out of memory");
    side[strlen(side) - 5] = '\0'; /* the stem */
    pqt_status st = pqt_buf_append(out, "table: ", 7);
    if (st == PQT_OK) st = put_quoted(out, side);
    pqt_mem_free(side);
    PQT_TRY(st);
    PQT_TRY(pqt_buf_append(out, "\nfields:\n", 9));
    for (int i = 0; i < n; i++) {
        char tb[40], lb[60];
        const char *ty = elem_type(&cols[i], tb, sizeof tb);
        if (cols[i].is_list) {
            snprintf(lb, sizeof lb, "list[%s]", ty);
            ty = lb;
        }
        PQT_TRY(pqt_buf_append(out, "  - name: ", 10));
        PQT_TRY(put_quoted(out, cols[i].name));
        PQT_TRY(pqt_buf_append(out, "\n    data_type: ", 16));
        PQT_TRY(pqt_buf_append(out, ty, strlen(ty)));
        if (cols[i].unit && cols[i].unit[0]) {
            PQT_TRY(pqt_buf_append(out, "\n    unit: ", 11));
            PQT_TRY(put_quoted(out, cols[i].unit));
        }
        PQT_TRY(pqt_buf_append(out, "\n", 1));
    }
    return PQT_OK;
}

/* ---- the verbatim sidecar of a writer given a MAML (docs/writing.md) ---- */

static size_t line_start(const char *s, size_t i)
{
    while (i > 0 && s[i - 1] != '\n') i--;
    return i;
}

/* Start of the line holding the "-" of the sequence item whose content starts at i. */
static size_t dash_line(const char *s, size_t i)
{
    size_t j = i;
    while (j > 0 && strchr(" \t\r\n", s[j - 1])) j--;
    if (j > 0 && s[j - 1] == '-') j--;
    return line_start(s, j);
}

/* Where a block collection ending at mark index e ends: the start of the next token's line,
 * or the end of the text. */
static size_t block_end(const char *s, size_t n, size_t e)
{
    return e >= n ? n : line_start(s, e);
}

static yaml_node_t *root_value(yaml_document_t *d, const char *key, yaml_node_t **key_ret)
{
    yaml_node_t *root = yaml_document_get_root_node(d);
    if (!root || root->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && !strcasecmp((const char *)k->data.scalar.value, key)) {
            if (key_ret) *key_ret = k;
            return yaml_document_get_node(d, p->value);
        }
    }
    return NULL;
}

/* A YAML double-quoted scalar: any key or value survives (line ends, quotes, controls). */
static pqt_status put_dq(pqt_buf *b, const char *s, size_t n)
{
    PQT_TRY(pqt_buf_append(b, "\"", 1));
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char e[8];
        if (c == '"' || c == '\\') snprintf(e, sizeof e, "\\%c", c);
        else if (c == '\n') snprintf(e, sizeof e, "\\n");
        else if (c == '\t') snprintf(e, sizeof e, "\\t");
        else if (c < 0x20 || c == 0x7f) snprintf(e, sizeof e, "\\x%02x", c);
        else e[0] = 0;
        PQT_TRY(e[0] ? pqt_buf_append(b, e, strlen(e)) : pqt_buf_append(b, s + i, 1));
    }
    return pqt_buf_append(b, "\"", 1);
}

static pqt_status put_spaces(pqt_buf *b, size_t n)
{
    for (size_t i = 0; i < n; i++) PQT_TRY(pqt_buf_append(b, " ", 1));
    return PQT_OK;
}

/* The runtime entries "key=value" as keyarray: items: block items (dash at column dash,
 * keys at column body) or, flow, "{key: .., value: ..}" separated by ", ". */
static pqt_status keyarray_items(pqt_buf *b, char *const *kv, int nkv, bool flow, size_t dash,
                                 size_t body, bool lead_comma)
{
    for (int i = 0; i < nkv; i++) {
        const char *eq = strchr(kv[i], '=');
        if (flow) {
            if (i > 0 || lead_comma) PQT_TRY(pqt_buf_append(b, ", ", 2));
            PQT_TRY(pqt_buf_append(b, "{key: ", 6));
            PQT_TRY(put_dq(b, kv[i], (size_t)(eq - kv[i])));
            PQT_TRY(pqt_buf_append(b, ", value: ", 9));
            PQT_TRY(put_dq(b, eq + 1, strlen(eq + 1)));
            PQT_TRY(pqt_buf_append(b, "}", 1));
            continue;
        }
        PQT_TRY(put_spaces(b, dash));
        PQT_TRY(pqt_buf_append(b, "- ", 2));
        PQT_TRY(put_spaces(b, body > dash + 2 ? body - dash - 2 : 0));
        PQT_TRY(pqt_buf_append(b, "key: ", 5));
        PQT_TRY(put_dq(b, kv[i], (size_t)(eq - kv[i])));
        PQT_TRY(pqt_buf_append(b, "\n", 1));
        PQT_TRY(put_spaces(b, body > dash + 2 ? body : dash + 2));
        PQT_TRY(pqt_buf_append(b, "value: ", 7));
        PQT_TRY(put_dq(b, eq + 1, strlen(eq + 1)));
        PQT_TRY(pqt_buf_append(b, "\n", 1));
    }
    return PQT_OK;
}

static bool written(const pqt_wcol *cols, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(cols[i].name, name) == 0) return true;
    return false;
}

/* Mark the fields: items naming no written column as dropped (keep[] = 0), unless none
 * would remain; a flow list, items sharing a line, or a count that differs from the
 * model's are left alone. */
static void prune_fields(yaml_document_t *d, const char *s, size_t n, const pqt_maml *m,
                         const pqt_wcol *cols, int ncols, uint8_t *keep)
{
    yaml_node_t *seq = root_value(d, "fields", NULL);
    if (!seq || seq->type != YAML_SEQUENCE_NODE || seq->data.sequence.style == YAML_FLOW_SEQUENCE_STYLE)
        return;
    int ni = (int)(seq->data.sequence.items.top - seq->data.sequence.items.start);
    if (ni != m->nfields || ni == 0) return;
    int nkept = 0;
    for (int i = 0; i < ni; i++)
        nkept += !m->fields[i].name || written(cols, ncols, m->fields[i].name);
    if (nkept == 0 || nkept == ni) return;
    size_t *at = pqt_calloc((size_t)ni + 1, sizeof *at);
    if (!at) return; /* out of memory: the sidecar keeps every field */
    for (int i = 0; i < ni; i++) {
        yaml_node_t *e = yaml_document_get_node(d, seq->data.sequence.items.start[i]);
        at[i] = e ? dash_line(s, e->start_mark.index) : 0;
        if (!e || (i > 0 && at[i] <= at[i - 1])) {
            pqt_mem_free(at);
            return;
        }
    }
    at[ni] = block_end(s, n, seq->end_mark.index);
    for (int i = 0; i < ni; i++)
        if (m->fields[i].name && !written(cols, ncols, m->fields[i].name))
            memset(keep + at[i], 0, at[i + 1] - at[i]);
    pqt_mem_free(at);
}

pqt_status pqt_sidecar_verbatim(const char *src, size_t n, const pqt_maml *m,
                                const pqt_wcol *cols, int ncols, char *const *kv, int nkv,
                                pqt_buf *out)
{
    if (ncols == 0) return pqt_err(PQT_MISUSE, "a table without columns gets no MAML sidecar");
    uint8_t *keep = pqt_malloc(n + 1);
    if (!keep) return pqt_err(PQT_NOMEM, "out of memory");
    memset(keep, 1, n + 1);
    yaml_parser_t parser;
    yaml_document_t doc;
    bool parsed = false, inited = yaml_parser_initialize(&parser) != 0;
    if (inited) {
        yaml_parser_set_input_string(&parser, (const unsigned char *)src, n);
        parsed = yaml_parser_load(&parser, &doc) != 0;
    }
    /* where the runtime entries go, and how */
    size_t ins = n, dash = 2, body = 4;
    bool flow = false, lead_comma = false, new_section = true;
    pqt_buf items = {0};
    pqt_status st = PQT_OK;
    if (parsed) {
        prune_fields(&doc, src, n, m, cols, ncols, keep);
        yaml_node_t *key = NULL, *ka = nkv ? root_value(&doc, "keyarray", &key) : NULL;
        if (ka && ka->type == YAML_SEQUENCE_NODE && ka->data.sequence.style == YAML_FLOW_SEQUENCE_STYLE) {
            flow = true;
            new_section = false;
            ins = ka->end_mark.index > 0 ? ka->end_mark.index - 1 : 0; /* before the "]" */
            lead_comma = ka->data.sequence.items.top > ka->data.sequence.items.start;
        } else if (ka && ka->type == YAML_SEQUENCE_NODE &&
                   ka->data.sequence.items.top > ka->data.sequence.items.start) {
            yaml_node_t *first = yaml_document_get_node(&doc, ka->data.sequence.items.start[0]);
            if (first) {
                size_t dl = dash_line(src, first->start_mark.index);
                size_t d0 = dl;
                while (d0 < n && (src[d0] == ' ' || src[d0] == '\t')) d0++;
                dash = d0 - dl;
                body = first->start_mark.index - line_start(src, first->start_mark.index);
                ins = block_end(src, n, ka->end_mark.index);
                new_section = false;
            }
        } else if (ka && ka->type == YAML_SCALAR_NODE && ka->data.scalar.length == 0 &&
                   ka->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
            /* "keyarray:" with nothing: the items go on the lines after it */
            const char *nl = memchr(src + key->end_mark.index, '\n', n - key->end_mark.index);
            ins = nl ? (size_t)(nl - src) + 1 : n;
            dash = key->start_mark.index - line_start(src, key->start_mark.index) + 2;
            body = dash + 2;
            new_section = false;
        }
        yaml_document_delete(&doc);
    }
    if (inited) yaml_parser_delete(&parser);
    if (nkv > 0) {
        bool need_nl = !flow && ins == n && n > 0 && src[n - 1] != '\n';
        if (need_nl) st = pqt_buf_append(&items, "\n", 1);
        if (st == PQT_OK && new_section) st = pqt_buf_append(&items, "keyarray:\n", 10);
        if (st == PQT_OK) st = keyarray_items(&items, kv, nkv, flow, dash, body, lead_comma);
    }
    for (size_t i = 0; i <= n && st == PQT_OK; i++) {
        if (i == ins && items.len) st = pqt_buf_append(out, items.data, items.len);
        if (st == PQT_OK && i < n && keep[i]) st = pqt_buf_append(out, src + i, 1);
    }
    pqt_buf_free(&items);
    pqt_mem_free(keep);
    return st;
}
