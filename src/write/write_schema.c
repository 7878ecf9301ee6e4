/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_schema.c - the output columns of a table and their schema elements (layer: write;
 * parquet-format LogicalTypes.md, and the 3-level LIST of its Nested Types section).
 *
 * A column read from a file keeps the file's physical and logical type when its values are
 * the file's own (no cast, a conversion that is exact both ways), so a copy shows other
 * readers the source's types: narrow and unsigned integers, TIME(MILLIS) as INT32, JSON,
 * ENUM, DECIMAL (its unscaled integers, write_conv.c), UUID. Everything else is written in
 * the natural type of its kind.
 */
#include <stdint.h>
#include <string.h>

#include "api/file_int.h" /* the writer still reads pqt_file fields */
#include "maml/maml.h"
#include "table/table_view.h"
#include "util/error.h"
#include "util/mem.h"
#include "write/write_int.h"

static void natural_type(pqt_wcol *w)
{
    pqt_logical_type *lt = &w->logical;
    memset(lt, 0, sizeof *lt);
    w->converted = -1;
    w->type_length = 0;
    switch (w->elem_kind) {
    case PQT_INT32: w->ptype = PQT_PT_INT32; break;
    case PQT_INT64: w->ptype = PQT_PT_INT64; break;
    case PQT_UINT64:
        w->ptype = PQT_PT_INT64;
        lt->id = PQT_LT_INTEGER;
        lt->bit_width = 64;
        lt->is_signed = false;
        w->converted = PQT_CT_UINT_64;
        w->unsigned_cmp = true;
        break;
    case PQT_FLOAT32: w->ptype = PQT_PT_FLOAT; break;
    case PQT_FLOAT64: w->ptype = PQT_PT_DOUBLE; break;
    case PQT_BOOL: w->ptype = PQT_PT_BOOLEAN; break;
    case PQT_STRING:
        w->ptype = PQT_PT_BYTE_ARRAY;
        lt->id = PQT_LT_STRING;
        w->converted = PQT_CT_UTF8;
        break;
    case PQT_BINARY: w->ptype = PQT_PT_BYTE_ARRAY; break; /* plain bytes, no annotation */
    case PQT_DATE:
        w->ptype = PQT_PT_INT32;
        lt->id = PQT_LT_DATE;
        w->converted = PQT_CT_DATE;
        break;
    case PQT_TIME:
        lt->id = PQT_LT_TIME;
        lt->unit = (int8_t)w->time_unit;
        lt->utc = w->utc;
        if (w->time_unit == PQT_UNIT_MILLIS) {
            w->ptype = PQT_PT_INT32;
            w->narrow32 = true;
            w->converted = PQT_CT_TIME_MILLIS;
        } else {
            w->ptype = PQT_PT_INT64;
            if (w->time_unit == PQT_UNIT_MICROS) w->converted = PQT_CT_TIME_MICROS;
        }
        break;
    case PQT_TIMESTAMP:
        w->ptype = PQT_PT_INT64;
        lt->id = PQT_LT_TIMESTAMP;
        lt->unit = (int8_t)w->time_unit;
        lt->utc = w->utc;
        /* the converted types mean UTC-adjusted instants: none for a local timestamp */
        if (w->utc && w->time_unit == PQT_UNIT_MILLIS) w->converted = PQT_CT_TIMESTAMP_MILLIS;
        if (w->utc && w->time_unit == PQT_UNIT_MICROS) w->converted = PQT_CT_TIMESTAMP_MICROS;
        break;
    default: break;
    }
}

/* Bytes of the smallest two's complement that holds every DECIMAL(p) unscaled value:
 * floor((8n - 1) * log10(2)) digits fit in n bytes. */
static int32_t decimal_nbytes(int p)
{
    int32_t n = 1;
    while ((int)((8.0 * n - 1) * 0.30102999566398119521) < p) n++;
    return n;
}

/* A DECIMAL the table still holds as read: the file's precision and scale, on the file's
 * INT32 / INT64 / FIXED_LEN_BYTE_ARRAY (a BYTE_ARRAY decimal becomes the fixed length its
 * precision needs), values the unscaled integers read again (never the rounded doubles). */
static void decimal_type(pqt_wcol *w, const pqt_schema_elem *e, const pqt_col *fc)
{
    int p = fc->decimal_precision;
    memset(&w->logical, 0, sizeof w->logical);
    w->logical.id = PQT_LT_DECIMAL;
    w->logical.precision = p;
    w->logical.scale = fc->decimal_scale;
    w->converted = PQT_CT_DECIMAL;
    w->wconv = PQT_WCONV_DECIMAL;
    w->unsigned_cmp = false;
    w->type_length = 0;
    w->narrow32 = false;
    if (e->type == PQT_PT_INT32 && p <= 9) {
        w->ptype = PQT_PT_INT32;
        w->narrow32 = true; /* the unscaled values arrive as int64 */
    } else if (e->type == PQT_PT_INT64 && p <= 18) {
        w->ptype = PQT_PT_INT64;
    } else {
        w->ptype = PQT_PT_FIXED_LEN_BYTE_ARRAY;
        int32_t need = decimal_nbytes(p);
        w->type_length = e->type == PQT_PT_FIXED_LEN_BYTE_ARRAY && e->type_length >= need
                             ? e->type_length : need;
        w->signed_bytes = true;
    }
}

/* The file's own leaf type when the values read are exactly the file's. */
static void source_type(pqt_wcol *w, const pqt_table *t, const pqt_tview_col *tc)
{
    const pqt_col *fc = tc->fcol;
    const pqt_schema_elem *e = tc->leaf;
    if (fc->conv == PQT_CONV_DECIMAL && pqt_wconv_decimal_source(t, w->src_slot)) {
        decimal_type(w, e, fc);
        return;
    }
    if (fc->conv == PQT_CONV_UUID && tc->as_read && w->elem_kind == PQT_STRING) {
        memset(&w->logical, 0, sizeof w->logical);
        w->logical.id = PQT_LT_UUID;
        w->ptype = PQT_PT_FIXED_LEN_BYTE_ARRAY;
        w->type_length = 16;
        w->converted = -1;
        w->wconv = PQT_WCONV_UUID; /* compared as unsigned bytes, the UUID sort order */
        return;
    }
    bool exact = fc->conv == PQT_CONV_NONE || fc->conv == PQT_CONV_U32_WIDEN ||
                 fc->conv == PQT_CONV_I32_TO_I64 || fc->conv == PQT_CONV_TIME_MS;
    if (!exact || fc->elem_kind != w->elem_kind || e->type == PQT_PT_FIXED_LEN_BYTE_ARRAY ||
        e->type == PQT_PT_INT96)
        return;
    int lid = e->logical.id;
    bool known = lid == PQT_LT_NONE || lid == PQT_LT_STRING || lid == PQT_LT_ENUM ||
                 lid == PQT_LT_DATE || lid == PQT_LT_TIME || lid == PQT_LT_TIMESTAMP ||
                 lid == PQT_LT_INTEGER || lid == PQT_LT_JSON;
    if (!known) return;
    w->ptype = e->type;
    w->logical = e->logical;
    w->converted = e->converted_type;
    if (w->converted == PQT_CT_DECIMAL || w->converted == PQT_CT_INTERVAL) w->converted = -1;
    w->narrow32 = e->type == PQT_PT_INT32 && pqt_kind_elem_nbytes(w->elem_kind) == 8;
    w->unsigned_cmp = (lid == PQT_LT_INTEGER && !e->logical.is_signed) ||
                      (w->converted >= PQT_CT_UINT_8 && w->converted <= PQT_CT_UINT_64);
}

/* Slot `slot` of t reads a leaf inside a struct (read back by its dotted path, like a
 * top-level column of that name). */
static bool struct_leaf(const pqt_table *t, int slot)
{
    if (slot < 0) return false;
    pqt_tview_col c;
    pqt_tview_describe(t, slot, &c);
    return c.in_struct;
}

static bool listed(char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

static pqt_status fill_col(pqt_wcol *w, const pqt_table *t, int slot, const pqt_tview_col *c)
{
    const pqt_col *fc = c->fcol;
    const pqt_colbuf *b = c->buf;
    w->src_slot = slot;
    w->elem_kind = c->elem_kind;
    w->is_list = c->is_list;
    w->kind = c->kind_known ? c->kind : (w->elem_kind | PQT_LIST);
    if (c->kind_known && (c->kind & PQT_VECTOR) && c->width > 0) w->tmpl_width = c->width;
    w->time_unit = c->time_unit;
    w->utc = fc ? fc->utc : false;
    if (w->is_list) {
        bool rows_null = b && b->row_validity;
        w->nullable = rows_null || (fc && fc->is_list && fc->list_def >= 1);
        w->elem_nullable = (b && b->validity) || (fc && fc->is_list && fc->max_def > fc->elem_def);
        w->max_def = (int16_t)((w->nullable ? 1 : 0) + 1 + (w->elem_nullable ? 1 : 0));
        w->max_rep = 1;
    } else {
        w->nullable = (b && b->validity) || (fc && fc->nullable);
        w->max_def = w->nullable ? 1 : 0;
    }
    natural_type(w);
    if (fc) source_type(w, t, c);
    w->nbytes_per_value = w->ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY ? w->type_length
                          : PQT_KIND_IS_BYTES(w->elem_kind) ? 16
                                                       : (int64_t)pqt_kind_elem_nbytes(w->elem_kind);
    w->name = pqt_strdup(c->name);
    w->src_name = pqt_strdup(c->name);
    w->unit = pqt_strdup(c->unit);
    if (!w->name || !w->src_name || !w->unit) return pqt_err(PQT_NOMEM, "out of memory");
    return PQT_OK;
}

void pqt_wcols_free(pqt_wcol *c, int n)
{
    if (!c) return;
    for (int i = 0; i < n; i++) {
        pqt_mem_free(c[i].name);
        pqt_mem_free(c[i].src_name);
        pqt_mem_free(c[i].unit);
        pqt_wstruct_free(&c[i]);
    }
    pqt_mem_free(c);
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* *first_ret[k]: the first column before k named as k is, or -1; through a hash of the
 * names, so that a table of 50,000 columns is not checked pair by pair (issue 28: the pairs
 * took 97 s). Freed by the caller. */
static pqt_status first_of_name(const pqt_wcol *cols, int n, int **first_ret)
{
    uint32_t nb = 64;
    while (nb < 2u * (uint32_t)n && nb < (1u << 30))
        nb *= 2;
    int *first = pqt_malloc_array((size_t)n + 1, sizeof *first);
    int *head = pqt_calloc(nb, sizeof *head); /* bucket -> a column + 1, 0 = empty */
    int *next = pqt_malloc_array((size_t)n + 1, sizeof *next); /* chain: column + 1 */
    if (!first || !head || !next) {
        pqt_mem_free(first);
        pqt_mem_free(head);
        pqt_mem_free(next);
        return pqt_err(PQT_NOMEM, "out of memory (a name index of %d columns)", n);
    }
    for (int k = 0; k < n; k++) {
        uint32_t b = name_hash(cols[k].name) & (nb - 1);
        first[k] = -1;
        for (int e = head[b]; e; e = next[e - 1])
            if (strcmp(cols[e - 1].name, cols[k].name) == 0) {
                first[k] = e - 1;
                break;
            }
        if (first[k] >= 0) continue; /* the chain keeps the first of each name only */
        next[k] = head[b];
        head[b] = k + 1;
    }
    pqt_mem_free(head);
    pqt_mem_free(next);
    *first_ret = first;
    return PQT_OK;
}

static pqt_wcol *wcol_named(pqt_wcol *cols, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(cols[k].name, name) == 0) return &cols[k];
    return NULL;
}

/* extra: col_map: (docs/writing.md): each internal name (a column of the table, given
 * once, not also declared un-renamed in fields:) is written under its output name (declared
 * in fields:, clashing with no other written column). Problems go to m. */
static pqt_status apply_col_map(pqt_wcol *cols, int n, pqt_maml *m)
{
    int first = m->nproblems;
    for (int i = 0; i < m->ncol_map; i++) {
        const pqt_maml_pair *p = &m->col_map[i];
        if (!wcol_named(cols, n, p->internal))
            PQT_TRY(pqt_maml_problem(m, p->line, "extra: col_map: '%s' is not a column of the "
                                                 "table", p->internal));
        bool also_output = false; /* a swap declares both names as outputs */
        for (int j = 0; j < m->ncol_map; j++)
            also_output = also_output || strcmp(m->col_map[j].file, p->internal) == 0;
        if (pqt_maml_field_find(m, p->internal) && !also_output)
            PQT_TRY(pqt_maml_problem(m, p->line, "extra: col_map: '%s' is renamed but also "
                                                 "declared under that name in fields:",
                                     p->internal));
        if (!pqt_maml_field_find(m, p->file))
            PQT_TRY(pqt_maml_problem(m, p->line, "extra: col_map: output name '%s' is not a "
                                                 "declared field", p->file));
        for (int j = 0; j < i; j++) {
            if (strcmp(m->col_map[j].internal, p->internal) == 0)
                PQT_TRY(pqt_maml_problem(m, p->line, "extra: col_map: '%s' is mapped twice",
                                         p->internal));
            if (strcmp(m->col_map[j].file, p->file) == 0)
                PQT_TRY(pqt_maml_problem(m, p->line, "extra: col_map: two columns are written "
                                                     "as '%s'", p->file));
        }
    }
    if (m->nproblems > first) return PQT_OK;
    /* rename all at once (a swap a->b, b->a is allowed), then look for clashes */
    char **to = pqt_calloc((size_t)n + 1, sizeof *to);
    if (!to) return pqt_err(PQT_NOMEM, "out of memory");
    for (int i = 0; i < m->ncol_map; i++) {
        pqt_wcol *w = wcol_named(cols, n, m->col_map[i].internal);
        to[w - cols] = m->col_map[i].file;
    }
    pqt_status st = PQT_OK;
    for (int k = 0; k < n && st == PQT_OK; k++) {
        if (!to[k]) continue;
        char *d = pqt_strdup(to[k]);
        if (!d) {
            st = pqt_err(PQT_NOMEM, "out of memory");
            break;
        }
        pqt_mem_free(cols[k].name);
        cols[k].name = d;
    }
    for (int k = 0; k < n && st == PQT_OK; k++)
        for (int j = 0; j < k && st == PQT_OK; j++)
            if (strcmp(cols[j].name, cols[k].name) == 0)
                st = pqt_maml_problem(m, 0, "extra: col_map: the output name '%s' collides "
                                            "with another column of the table",
                                      cols[k].name);
    pqt_mem_free(to);
    return st;
}

/* The write-side MAML (docs/writing.md): col_map: renames; protected columns are
 * written required (a null is refused when rows arrive), nullable_cols: optional; every
 * problem found is listed in one PQT_BAD_MAML. */
static pqt_status apply_maml(pqt_wcol *cols, int n, pqt_maml *m)
{
    if (!m) return PQT_OK;
    pqt_status st = apply_col_map(cols, n, m);
    for (int pass = 0; pass < 2 && st == PQT_OK && m->nproblems == 0; pass++) {
        const pqt_maml_list *l = pass == 0 ? &m->protected_cols : &m->nullable_cols;
        for (int i = 0; i < l->n && st == PQT_OK; i++) {
            pqt_wcol *w = wcol_named(cols, n, l->items[i]);
            if (!w) {
                st = pqt_maml_problem(m, l->lines[i], "extra: %s: '%s' is not a column of the "
                                                      "table",
                                      pass == 0 ? "protected_cols" : "nullable_cols", l->items[i]);
                continue;
            }
            bool opt = pass == 1;
            w->protect = !opt;
            w->nullable = opt;
            w->maml_set = true;
            if (w->is_list) {
                w->elem_nullable = opt;
                w->max_def = (int16_t)((opt ? 2 : 0) + 1);
            } else {
                w->max_def = opt ? 1 : 0;
            }
        }
    }
    if (st == PQT_OK) st = pqt_maml_verdict(m, "write MAML");
    return st;
}

pqt_status pqt_wcols_from_table(pqt_table *t, const pqt_write_opts *o, pqt_maml *mm,
                                pqt_wcol **ret, int *n_ret)
{
    int n = pqt_tview_ncols(t);
    pqt_wcol *cols = pqt_calloc((size_t)n + 2, sizeof *cols);
    if (!cols) return pqt_err(PQT_NOMEM, "out of memory");
    int m = 0;
    pqt_status st = PQT_OK;
    for (int i = 0; i < n && st == PQT_OK; i++) {
        pqt_tview_col cv;
        const pqt_tview_col *c = &cv;
        pqt_tview_describe(t, i, &cv);
        const pqt_col *fc = c->fcol;
        if (c->kind == PQT_NONE && !c->buf) {
            if (!o->leave_out) {
                st = pqt_err(PQT_UNSUPPORTED_TYPE,
                             "column '%s' cannot be written: pqt cannot read its type (%s)",
                             c->name, fc && fc->why_unsupported ? fc->why_unsupported
                                                                : "unsupported");
                break;
            }
            pqt_tview_warn("column '%s' is not written: pqt cannot read its type (%s)", c->name,
                           fc && fc->why_unsupported ? fc->why_unsupported : "unsupported");
            continue;
        }
        if (fc && fc->in_map && !c->added) {
            /* two list columns would not read back as the map they came from */
            if (!o->leave_out) {
                st = pqt_err(PQT_UNSUPPORTED_TYPE,
                             "column '%s' cannot be written: writing MAP columns is not "
                             "supported yet",
                             c->name);
                break;
            }
            pqt_tview_warn("column '%s' is not written: writing MAP columns is not supported yet",
                         c->name);
            continue;
        }
        if (o->row_index_name && strcmp(c->name, o->row_index_name) == 0) {
            st = pqt_err(PQT_MISUSE, "the row index name '%s' is already a column of the table",
                         o->row_index_name);
            break;
        }
        st = fill_col(&cols[m++], t, i, c);
    }
    if (st == PQT_OK && o->row_index_name) {
        pqt_wcol *w = &cols[m++];
        w->src_slot = -2;
        w->elem_kind = PQT_INT64;
        w->kind = PQT_INT64;
        w->time_unit = -1;
        natural_type(w);
        w->nbytes_per_value = 8;
        w->name = pqt_strdup(o->row_index_name);
        w->unit = pqt_strdup("");
        if (!w->name || !w->unit) st = pqt_err(PQT_NOMEM, "out of memory");
    }
    if (st == PQT_OK) st = apply_maml(cols, m, mm);
    if (st == PQT_OK) st = pqt_wstruct_apply(cols, m, t);
    int *first = NULL; /* k -> the first earlier column of its name, or -1 */
    if (st == PQT_OK) st = first_of_name(cols, m, &first);
    for (int k = 0; k < m && st == PQT_OK; k++) {
        int j = first[k];
        if (j >= 0) {
            bool leaf_j = struct_leaf(t, cols[j].src_slot), leaf_k = struct_leaf(t, cols[k].src_slot);
            if (leaf_j != leaf_k)
                st = pqt_err(PQT_MISUSE, "the top-level column '%s' and the leaf '%s' of struct "
                                         "'%.*s' would both be read back as the column '%s' "
                                         "(pqt names a struct leaf by its path), which no "
                                         "reader could tell apart: rename one "
                                         "(pqt_table_rename_column, a write MAML col_map:) "
                                         "or leave one out",
                             cols[k].name, cols[k].name,
                             (int)(strrchr(cols[k].name, '.') ? strrchr(cols[k].name, '.') - cols[k].name : 0),
                             cols[k].name, cols[k].name);
            else
                st = pqt_err(PQT_MISUSE, "two columns are named '%s'", cols[k].name);
            break;
        }
        cols[k].bloom = listed(o->bloom_cols, o->nbloom, cols[k].name);
    }
    for (int b = 0; b < o->nbloom && st == PQT_OK; b++) {
        bool found = false;
        for (int k = 0; k < m; k++) found = found || strcmp(cols[k].name, o->bloom_cols[b]) == 0;
        if (!found)
            st = pqt_err(PQT_NOT_FOUND, "bloom filter column '%s': the table has no such column",
                         o->bloom_cols[b]);
    }
    pqt_mem_free(first);
    if (st != PQT_OK) {
        pqt_wcols_free(cols, m);
        return st;
    }
    *ret = cols;
    *n_ret = m;
    return PQT_OK;
}

pqt_status pqt_wcols_schema(const pqt_wcol *c, int n, pqt_arena *a, pqt_schema_elem **elems_ret,
                            int *nelems_ret)
{
    return pqt_wstruct_schema(c, n, a, elems_ret, nelems_ret);
}
