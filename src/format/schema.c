/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schema.c - flatten the Parquet schema tree into the columns a table lists (layer: format).
 *
 * Implements the nesting rules of parquet-format LogicalTypes.md ("Nested Types",
 * including the backward-compatibility rules for two-level and unannotated lists).
 * The schema arrives as a depth-first list of SchemaElements; we walk it once,
 * tracking definition and repetition levels, and emit one pqt_col per
 * user-addressable column (see schema.h). The primitive -> kind mapping lives in
 * schema_kind.c.
 */
#include "format/schema.h"

#include <stdio.h>
#include <string.h>

#include "format/schema_int.h"
#include "util/error.h"
#include "util/mem.h"

#define MAX_NESTING 64

typedef struct walker {
    const pqt_file_meta *meta;
    pqt_arena *arena;
    bool binary_as_string;
    int pos;         /* next schema element to visit */
    int leaf_count;  /* chunk columns seen so far */
    pqt_col *cols;
    int ncols, cap;
    int32_t *node_col; /* per schema node: the column it names, -1 if none */
    const char **field_name; /* per node: a top-level field's unique name (NULL: none renamed) */
    const char *texts[64]; /* interned physical/logical texts (open addressing) */
} walker;

/* One arena copy per distinct text: a wide file has a million leaves and a handful of
 * types. When the table is full, texts are simply copied. */
static const char *intern(walker *w, const char *s)
{
    uint32_t h = 2166136261u;
    for (const char *p = s; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    for (int i = 0; i < 64; i++) {
        const char **slot = &w->texts[(h + (uint32_t)i) & 63];
        if (*slot && strcmp(*slot, s) == 0) return *slot;
        if (!*slot) {
            size_t n = strlen(s);
            char *d = pqt_arena_alloc(w->arena, n + 1);
            if (d) memcpy(d, s, n + 1);
            return *slot = d;
        }
    }
    size_t n = strlen(s);
    char *d = pqt_arena_alloc(w->arena, n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

static const char *physical_text(walker *w, const pqt_schema_elem *e)
{
    char tmp[PQT_SCHEMA_TEXT_NBYTES];
    pqt_schema_physical_render(e, tmp, sizeof tmp);
    return intern(w, tmp);
}

static const char *logical_text(walker *w, const pqt_schema_elem *e)
{
    char tmp[PQT_SCHEMA_TEXT_NBYTES];
    pqt_schema_logical_render(e, tmp, sizeof tmp);
    return intern(w, tmp);
}

static pqt_status corrupt_tree(const char *what, int idx)
{
    return pqt_err(PQT_CORRUPT, "corrupt schema: %s (schema element %d)", what, idx);
}

static const char *join_path(walker *w, const char *prefix, const char *name)
{
    if (!prefix) return name; /* a top-level field: its name is its path (an arena string) */
    size_t plen = prefix ? strlen(prefix) : 0, nlen = strlen(name);
    char *s = pqt_arena_alloc(w->arena, plen + nlen + 2);
    if (!s) return NULL;
    if (plen) {
        memcpy(s, prefix, plen);
        s[plen] = '.';
        memcpy(s + plen + 1, name, nlen + 1);
    } else {
        memcpy(s, name, nlen + 1);
    }
    return s;
}

/* Every column is named by a distinct schema node other than the root, so nschema - 1
 * slots always suffice: allocated once in the arena, never grown or copied (a doubling
 * array would leave its outgrown copies in the arena, or double the peak on the heap). */
static pqt_col *push_col(walker *w)
{
    if (w->ncols == w->cap) return NULL;
    pqt_col *c = &w->cols[w->ncols++];
    memset(c, 0, sizeof *c);
    c->time_unit = -1;
    c->width = 1;
    return c;
}

static bool is_group(const pqt_schema_elem *e) { return e->num_children > 0 || e->type < 0; }

static bool is_list_annotated(const pqt_schema_elem *e)
{
    return e->logical.id == PQT_LT_LIST || (e->logical.id == PQT_LT_NONE && e->converted_type == PQT_CT_LIST);
}

static bool is_map_annotated(const pqt_schema_elem *e)
{
    return e->logical.id == PQT_LT_MAP ||
           (e->logical.id == PQT_LT_NONE &&
            (e->converted_type == PQT_CT_MAP || e->converted_type == PQT_CT_MAP_KEY_VALUE));
}

/* Skip the subtree at w->pos, counting its leaves; levels of the deepest leaf are returned
 * so an unreadable column still reports them. */
static pqt_status skip_subtree(walker *w, int depth, int *nleaves_ret)
{
    if (depth > MAX_NESTING) return corrupt_tree("nesting deeper than 64 levels", w->pos);
    if (w->pos >= w->meta->nschema) return corrupt_tree("num_children runs past the end", w->pos);
    const pqt_schema_elem *e = &w->meta->schema[w->pos++];
    if (!is_group(e)) {
        (*nleaves_ret)++;
        return PQT_OK;
    }
    for (int i = 0; i < e->num_children; i++) PQT_TRY(skip_subtree(w, depth + 1, nleaves_ret));
    return PQT_OK;
}

/* Emit one unreadable column covering the subtree rooted at w->pos. */
static pqt_status emit_unreadable(walker *w, const char *path, const char *why, int depth)
{
    int first_leaf = w->leaf_count, nleaves = 0;
    int first_idx = w->pos;
    PQT_TRY(skip_subtree(w, depth, &nleaves));
    pqt_col *c = push_col(w);
    if (!c) return pqt_err(PQT_NOMEM, "out of memory building the column list");
    c->path = path;
    c->kind = PQT_NONE;
    c->elem_kind = PQT_NONE;
    c->chunk_col = first_leaf;
    c->nchunk_cols = nleaves;
    c->leaf_schema_idx = first_idx;
    c->why_unsupported = why;
    c->physical = "";
    c->logical = "";
    const pqt_schema_elem *e = &w->meta->schema[first_idx];
    if (!is_group(e)) {
        c->physical = physical_text(w, e);
        c->logical = logical_text(w, e);
    }
    w->leaf_count += nleaves;
    return PQT_OK;
}

/* A primitive leaf read as a scalar column, or as the elements of a list column. */
static pqt_status emit_primitive(walker *w, const char *path, int16_t def, int16_t rep,
                                 bool nullable, pqt_col **col_ret)
{
    int idx = w->pos++;
    const pqt_schema_elem *e = &w->meta->schema[idx];
    pqt_col *c = push_col(w);
    if (!c) return pqt_err(PQT_NOMEM, "out of memory building the column list");
    c->path = path;
    c->leaf_schema_idx = idx;
    c->chunk_col = w->leaf_count++;
    c->nchunk_cols = 1;
    c->max_def = def;
    c->max_rep = rep;
    c->nullable = nullable;
    c->physical = physical_text(w, e);
    c->logical = logical_text(w, e);
    if (!c->physical || !c->logical) return pqt_err(PQT_NOMEM, "out of memory building the column list");
    pqt_schema_classify(e, w->binary_as_string, c);
    c->kind = c->elem_kind;
    *col_ret = c;
    return PQT_OK;
}

static int16_t level_after(int16_t lvl, const pqt_schema_elem *e)
{
    return (int16_t)(lvl + (e->repetition == PQT_REP_OPTIONAL || e->repetition == PQT_REP_REPEATED));
}

static pqt_status visit(walker *w, const char *prefix, int16_t def, int16_t rep, bool nullable,
                        int depth);

/* The standard 3-level LIST at schema index idx: its repeated group, if it is the plain
 * one-child kind (not a legacy list of structs), else NULL. */
static const pqt_schema_elem *plain_repeated(const walker *w, int idx)
{
    const pqt_schema_elem *list = &w->meta->schema[idx];
    if (list->num_children != 1 || idx + 2 >= w->meta->nschema) return NULL;
    const pqt_schema_elem *rep = &w->meta->schema[idx + 1];
    size_t nlen = strlen(list->name);
    if (rep->repetition != PQT_REP_REPEATED || !is_group(rep) || rep->num_children != 1 ||
        !rep->name || strcmp(rep->name, "array") == 0 ||
        (strncmp(rep->name, list->name, nlen) == 0 && strcmp(rep->name + nlen, "_tuple") == 0))
        return NULL;
    return rep;
}

/* A list of lists at list_idx (col: its column; def: the level above it): when every level
 * is a plain 3-level LIST and the innermost element a primitive, its description for
 * pqt_file_read_nested_list, else NULL (it then stays unreadable; so it does when out of
 * memory: the schema still builds). */
static const pqt_nest *describe_nest(walker *w, int list_idx, int16_t def, bool nullable,
                                     const pqt_col *col)
{
    pqt_nest n = {0};
    int idx = list_idx;
    int16_t d = def;
    for (;;) {
        const pqt_schema_elem *list = &w->meta->schema[idx];
        if (n.nlevels == PQT_NEST_MAX_LEVELS || !list->name || !plain_repeated(w, idx))
            return NULL;
        nullable = nullable || list->repetition == PQT_REP_OPTIONAL;
        n.list_def[n.nlevels] = level_after(d, list);
        n.elem_def[n.nlevels] = (int16_t)(n.list_def[n.nlevels] + 1);
        d = n.elem_def[n.nlevels++];
        const pqt_schema_elem *elem = &w->meta->schema[idx + 2];
        if (elem->repetition == PQT_REP_REPEATED) return NULL;
        if (!is_group(elem)) {
            pqt_col *c = &n.leaf;
            c->path = col->path;
            c->physical = physical_text(w, elem);
            c->logical = logical_text(w, elem);
            c->chunk_col = col->chunk_col;
            c->nchunk_cols = 1;
            c->time_unit = -1;
            c->width = 0;
            c->leaf_schema_idx = idx + 2;
            c->max_def = level_after(d, elem);
            c->max_rep = (int16_t)n.nlevels;
            c->list_def = n.list_def[0];
            c->elem_def = n.elem_def[n.nlevels - 1];
            c->is_list = true;
            c->nullable = nullable || elem->repetition == PQT_REP_OPTIONAL;
            pqt_schema_classify(elem, w->binary_as_string, c);
            if (c->elem_kind == PQT_NONE) return NULL;
            c->kind = c->elem_kind | PQT_LIST;
            break;
        }
        if (!is_list_annotated(elem)) return NULL;
        idx += 2;
    }
    pqt_nest *out = pqt_arena_alloc(w->arena, sizeof *out);
    if (out) *out = n;
    return out;
}

/* A LIST-annotated group at w->pos (or a bare repeated primitive when bare != 0). */
static pqt_status visit_list(walker *w, const char *path, int16_t def, int16_t rep,
                             bool nullable, int depth)
{
    int list_idx = w->pos;
    const pqt_schema_elem *list = &w->meta->schema[list_idx];
    int16_t list_def = level_after(def, list);
    bool list_nullable = nullable || list->repetition == PQT_REP_OPTIONAL;
    if (rep > 0) return emit_unreadable(w, path, "list nested in a repeated field", depth);
    if (list->num_children != 1) return emit_unreadable(w, path, "LIST with several children", depth);
    if (list_idx + 1 >= w->meta->nschema) return corrupt_tree("LIST group has no child", list_idx);
    const pqt_schema_elem *repeated = &w->meta->schema[list_idx + 1];
    if (repeated->repetition != PQT_REP_REPEATED)
        return emit_unreadable(w, path, "LIST whose child is not repeated", depth);
    int16_t elem_def = (int16_t)(list_def + 1);
    int16_t elem_rep = (int16_t)(rep + 1);
    int elem_pos;
    const pqt_schema_elem *elem;
    if (!is_group(repeated)) {
        elem_pos = list_idx + 1; /* two-level: the repeated primitive is the element */
        elem = repeated;
    } else {
        size_t nlen = strlen(list->name);
        bool legacy_struct = repeated->num_children != 1 || strcmp(repeated->name, "array") == 0 ||
                             (strncmp(repeated->name, list->name, nlen) == 0 &&
                              strcmp(repeated->name + nlen, "_tuple") == 0);
        if (legacy_struct) return emit_unreadable(w, path, "list of structs", depth);
        elem_pos = list_idx + 2;
        if (elem_pos >= w->meta->nschema) return corrupt_tree("LIST element missing", list_idx);
        elem = &w->meta->schema[elem_pos];
        if (is_group(elem)) {
            const char *why = is_list_annotated(elem) ? "list of lists"
                              : is_map_annotated(elem) ? "list of maps"
                                                       : "list of structs";
            PQT_TRY(emit_unreadable(w, path, why, depth));
            pqt_col *c = &w->cols[w->ncols - 1];
            if (is_list_annotated(elem) && c->nchunk_cols == 1)
                c->nest = describe_nest(w, list_idx, def, nullable, c);
            return PQT_OK;
        }
        if (elem->repetition == PQT_REP_REPEATED)
            return emit_unreadable(w, path, "list of lists", depth);
    }
    int16_t leaf_def = level_after(elem_def, elem);
    w->pos = elem_pos;
    pqt_col *c;
    PQT_TRY(emit_primitive(w, path, leaf_def, elem_rep, list_nullable, &c));
    c->is_list = true;
    c->list_def = list_def;
    c->elem_def = elem_def;
    c->width = 0; /* discovered from the data */
    c->nullable = list_nullable || elem->repetition == PQT_REP_OPTIONAL;
    if (c->elem_kind != PQT_NONE) c->kind = c->elem_kind | PQT_LIST;
    return PQT_OK;
}

/* A MAP-annotated group at w->pos (MAP, or the legacy MAP_KEY_VALUE on the map or on its
 * repeated child): the repeated key/value group is a list of structs whose primitive fields
 * become one list column each, "m.key" and "m.value" (named by the fields' own names), with
 * the same list levels, so their offsets agree row for row. A map whose key or value is
 * itself nested stays one unreadable column. */
static pqt_status visit_map(walker *w, const char *path, int16_t def, int16_t rep,
                            bool nullable, int depth)
{
    int map_idx = w->pos;
    const pqt_schema_elem *map = &w->meta->schema[map_idx];
    if (rep > 0) return emit_unreadable(w, path, "map nested in a repeated field", depth);
    if (map->repetition == PQT_REP_REPEATED)
        return emit_unreadable(w, path, "repeated MAP group", depth);
    if (map->num_children != 1) return emit_unreadable(w, path, "MAP with several children", depth);
    if (map_idx + 1 >= w->meta->nschema) return corrupt_tree("MAP group has no child", map_idx);
    const pqt_schema_elem *kv = &w->meta->schema[map_idx + 1];
    if (kv->repetition != PQT_REP_REPEATED || !is_group(kv))
        return emit_unreadable(w, path, "MAP whose child is not a repeated group", depth);
    if (kv->num_children < 1 || map_idx + 2 + kv->num_children > w->meta->nschema)
        return emit_unreadable(w, path, "MAP without key and value fields", depth);
    for (int i = 0; i < kv->num_children; i++) {
        const pqt_schema_elem *f = &w->meta->schema[map_idx + 2 + i];
        if (is_group(f)) return emit_unreadable(w, path, "map with nested keys or values", depth);
        if (f->repetition == PQT_REP_REPEATED)
            return emit_unreadable(w, path, "map with repeated keys or values", depth);
        if (!f->name) return corrupt_tree("element without a name", map_idx + 2 + i);
    }
    int16_t list_def = level_after(def, map);
    int16_t elem_def = (int16_t)(list_def + 1);
    bool list_nullable = nullable || map->repetition == PQT_REP_OPTIONAL;
    w->node_col[map_idx] = -1; /* "m" names no column; its leaves do */
    w->pos = map_idx + 2;
    for (int i = 0; i < kv->num_children; i++) {
        int idx = w->pos;
        const pqt_schema_elem *f = &w->meta->schema[idx];
        const char *leaf_path = join_path(w, path, f->name);
        if (!leaf_path) return pqt_err(PQT_NOMEM, "out of memory building the column list");
        w->node_col[idx] = w->ncols;
        pqt_col *c;
        PQT_TRY(emit_primitive(w, leaf_path, level_after(elem_def, f), (int16_t)(rep + 1),
                               list_nullable, &c));
        c->is_list = true;
        c->list_def = list_def;
        c->elem_def = elem_def;
        c->width = 0;
        c->nullable = list_nullable || f->repetition == PQT_REP_OPTIONAL;
        c->in_map = true;
        if (c->elem_kind != PQT_NONE) c->kind = c->elem_kind | PQT_LIST;
    }
    return PQT_OK;
}

/* A group annotated VARIANT (docs/variant.md): unshredded, it is a struct of two binary
 * leaves, metadata and value, listed as such and marked so readers can pair them; with a
 * typed_value field (shredded) it is one unreadable column. */
static pqt_status visit_variant(walker *w, const char *path, int16_t def, int16_t rep,
                                bool nullable, int depth)
{
    int idx = w->pos;
    const pqt_schema_elem *e = &w->meta->schema[idx];
    bool shredded = false, has_meta = false, has_value = false, plain = true;
    int nleaves = 0;
    w->pos = idx + 1;
    for (int i = 0; i < e->num_children; i++) {
        if (w->pos >= w->meta->nschema) return corrupt_tree("num_children runs past the end", w->pos);
        const pqt_schema_elem *ch = &w->meta->schema[w->pos];
        const char *n = ch->name ? ch->name : "";
        bool bytes = !is_group(ch) && ch->type == PQT_PT_BYTE_ARRAY && ch->repetition != PQT_REP_REPEATED;
        if (strcmp(n, "typed_value") == 0) shredded = true;
        else if (strcmp(n, "metadata") == 0) has_meta = true, plain = plain && bytes;
        else if (strcmp(n, "value") == 0) has_value = true, plain = plain && bytes;
        else plain = false;
        PQT_TRY(skip_subtree(w, depth + 1, &nleaves));
    }
    w->pos = idx;
    if (shredded || !has_meta || !has_value || !plain) w->node_col[idx] = w->ncols;
    if (shredded)
        return emit_unreadable(w, path, "shredded VARIANT (typed_value) is not supported", depth);
    if (!has_meta || !has_value || !plain)
        return emit_unreadable(w, path, "VARIANT without binary metadata and value fields", depth);
    int first = w->ncols;
    int16_t d = level_after(def, e);
    bool n = nullable || e->repetition == PQT_REP_OPTIONAL;
    w->pos++;
    for (int i = 0; i < e->num_children; i++) PQT_TRY(visit(w, path, d, rep, n, depth + 1));
    for (int i = first; i < w->ncols; i++) {
        pqt_col *c = &w->cols[i];
        if (c->elem_kind != PQT_BINARY) continue; /* a read-as-string open keeps plain leaves */
        size_t pl = strlen(c->path);
        c->variant = pl >= 8 && strcmp(c->path + pl - 8, "metadata") == 0 ? 1 : 2;
    }
    return PQT_OK;
}

static pqt_status visit(walker *w, const char *prefix, int16_t def, int16_t rep, bool nullable,
                        int depth)
{
    if (depth > MAX_NESTING) return corrupt_tree("nesting deeper than 64 levels", w->pos);
    if (w->pos >= w->meta->nschema) return corrupt_tree("num_children runs past the end", w->pos);
    const int idx = w->pos;
    const pqt_schema_elem *e = &w->meta->schema[idx];
    if (!e->name) return corrupt_tree("element without a name", idx);
    const char *name =
        !prefix && w->field_name && w->field_name[idx] ? w->field_name[idx] : e->name;
    const char *path = join_path(w, prefix, name);
    if (!path) return pqt_err(PQT_NOMEM, "out of memory building the column list");
    /* Every branch but a plain struct emits exactly one column, named by this node. */
    if (!is_group(e) || is_list_annotated(e) || is_map_annotated(e) ||
        e->repetition == PQT_REP_REPEATED)
        w->node_col[idx] = w->ncols;

    if (!is_group(e)) {
        if (e->repetition == PQT_REP_REPEATED) {
            /* An unannotated repeated primitive is a list of required elements. */
            if (rep > 0) return emit_unreadable(w, path, "list nested in a repeated field", depth);
            pqt_col *c;
            PQT_TRY(emit_primitive(w, path, (int16_t)(def + 1), (int16_t)(rep + 1), nullable, &c));
            c->is_list = true;
            c->list_def = def;
            c->elem_def = (int16_t)(def + 1);
            c->width = 0;
            if (c->elem_kind != PQT_NONE) c->kind = c->elem_kind | PQT_LIST;
            return PQT_OK;
        }
        pqt_col *c;
        if (rep > 0) return emit_unreadable(w, path, "field inside a repeated group", depth);
        PQT_TRY(emit_primitive(w, path, level_after(def, e), rep,
                               nullable || e->repetition == PQT_REP_OPTIONAL, &c));
        c->top_level = depth == 1;
        return PQT_OK;
    }
    if (is_list_annotated(e)) return visit_list(w, path, def, rep, nullable, depth);
    if (is_map_annotated(e)) return visit_map(w, path, def, rep, nullable, depth);
    if (e->repetition == PQT_REP_REPEATED) return emit_unreadable(w, path, "repeated group", depth);
    if (e->logical.id == PQT_LT_VARIANT) return visit_variant(w, path, def, rep, nullable, depth);
    /* A plain struct: its leaves become columns named by dotted path. */
    int nchildren = e->num_children;
    int16_t d = level_after(def, e);
    bool n = nullable || e->repetition == PQT_REP_OPTIONAL;
    w->pos++;
    for (int i = 0; i < nchildren; i++) PQT_TRY(visit(w, path, d, rep, n, depth + 1));
    return PQT_OK;
}

/* Parent of every node from the pre-order list and num_children (the tree was checked by
 * the walk): one pass with a stack of open groups and their children left. */
static pqt_status node_parents(const pqt_file_meta *m, pqt_arena *arena, int32_t **ret)
{
    int32_t *parent = pqt_arena_alloc_array(arena, (size_t)m->nschema, sizeof *parent);
    int32_t *stack = pqt_malloc_array((size_t)m->nschema * 2, sizeof *stack);
    if (!parent || !stack) {
        pqt_mem_free(stack);
        return pqt_err(PQT_NOMEM, "out of memory indexing %d schema nodes", m->nschema);
    }
    int32_t *left = stack + m->nschema;
    int top = 0;
    for (int i = 0; i < m->nschema; i++) {
        while (top > 0 && left[top - 1] == 0) top--;
        parent[i] = top > 0 ? stack[top - 1] : -1;
        if (top > 0) left[top - 1]--;
        if (m->schema[i].num_children > 0) {
            stack[top] = i;
            left[top++] = m->schema[i].num_children;
        }
    }
    pqt_mem_free(stack);
    *ret = parent;
    return PQT_OK;
}

/* ---- unique top-level names ----
 * Two top-level fields may share a name (Parquet does not forbid it). A by-name lookup
 * would reach only the first, and a JSON row would repeat a key, so every later one is
 * read as NAME_k, the smallest k >= 1 that no top-level field has (docs/output.md). */

/* Names as int32 slots (a wide file has a million fields: 4 bytes a slot, not a pointer):
 * slot value k + 1 names names[k]. */
typedef struct name_set {
    int32_t *slot;
    size_t mask;
    const char **names;
} name_set;

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Insert names[k]; 0 when an equal name was already there. */
static int name_add(name_set *t, int32_t k)
{
    const char *s = t->names[k];
    for (size_t i = name_hash(s) & t->mask;; i = (i + 1) & t->mask) {
        if (!t->slot[i]) {
            t->slot[i] = k + 1;
            return 1;
        }
        if (strcmp(t->names[t->slot[i] - 1], s) == 0) return 0;
    }
}

static int name_has(const name_set *t, const char *s)
{
    for (size_t i = name_hash(s) & t->mask; t->slot[i]; i = (i + 1) & t->mask)
        if (strcmp(t->names[t->slot[i] - 1], s) == 0) return 1;
    return 0;
}

static pqt_status unique_field_names(walker *w, int nfields)
{
    const pqt_file_meta *meta = w->meta;
    pqt_status st = PQT_OK;
    /* the fields' names, then room for as many new ones (only filled when some repeat) */
    const char **names = pqt_malloc_array((size_t)nfields + 1, sizeof *names);
    int32_t *top = pqt_malloc_array((size_t)nfields + 1, sizeof *top);
    size_t cap = 16;
    while (cap < 2 * (size_t)nfields + 2)
        cap *= 2;
    name_set t = {pqt_calloc(cap, sizeof *t.slot), cap - 1, names};
    name_set all = {NULL, 0, NULL}, seen = {NULL, 0, NULL};
    if (!names || !top || !t.slot) {
        st = pqt_err(PQT_NOMEM, "out of memory checking %d top-level names", nfields);
        goto done;
    }
    /* Where each field starts (the walk checks the tree; a bad one stops here the same way). */
    w->pos = 1;
    int n = 0;
    for (; n < nfields; n++) {
        int nleaves = 0;
        if (w->pos < meta->nschema && !meta->schema[w->pos].name) break; /* visit reports it */
        top[n] = w->pos;
        names[n] = meta->schema[w->pos].name;
        st = skip_subtree(w, 1, &nleaves);
        if (st != PQT_OK) goto done;
    }
    w->pos = 1;
    int ndup = 0;
    for (int i = 0; i < n; i++)
        ndup += !name_add(&t, i);
    if (!ndup) goto done;
    /* Some repeat (rare): every name the file has, the first field of a name keeps it,
     * later ones get a suffix no field has; the new names join the set. */
    size_t cap2 = 16;
    while (cap2 < 2 * ((size_t)n + (size_t)ndup) + 2)
        cap2 *= 2;
    const char **names2 = pqt_malloc_array((size_t)n + (size_t)ndup + 1, sizeof *names2);
    all = (name_set){pqt_calloc(cap2, sizeof *all.slot), cap2 - 1, names2};
    seen = (name_set){pqt_calloc(cap2, sizeof *seen.slot), cap2 - 1, names2};
    w->field_name = pqt_arena_alloc_array(w->arena, (size_t)meta->nschema, sizeof *w->field_name);
    if (!names2 || !all.slot || !seen.slot || !w->field_name) {
        pqt_mem_free(names2);
        st = pqt_err(PQT_NOMEM, "out of memory renaming duplicate column names");
        goto done;
    }
    memset(w->field_name, 0, (size_t)meta->nschema * sizeof *w->field_name);
    memcpy(names2, names, (size_t)n * sizeof *names2);
    for (int i = 0; i < n; i++)
        name_add(&all, i);
    int32_t next = n;
    for (int i = 0; i < n && st == PQT_OK; i++) {
        if (name_add(&seen, i)) continue;
        const char *nm = names2[i];
        size_t len = strlen(nm);
        char *s = pqt_arena_alloc(w->arena, len + 24);
        if (!s) {
            st = pqt_err(PQT_NOMEM, "out of memory renaming column '%s'", nm);
            break;
        }
        for (long k = 1;; k++) {
            snprintf(s, len + 24, "%s_%ld", nm, k);
            if (!name_has(&all, s)) break;
        }
        names2[next] = s;
        name_add(&all, next);
        name_add(&seen, next);
        next++;
        w->field_name[top[i]] = s;
    }
    pqt_mem_free(names2);
done:
    pqt_mem_free(all.slot);
    pqt_mem_free(seen.slot);
    pqt_mem_free(top);
    pqt_mem_free(names);
    pqt_mem_free(t.slot);
    return st;
}

static pqt_status build(walker *w, pqt_schema *out)
{
    const pqt_file_meta *meta = w->meta;
    const pqt_schema_elem *root = &meta->schema[0];
    if (root->num_children < 0) return corrupt_tree("negative num_children", 0);
    PQT_TRY(unique_field_names(w, root->num_children));
    for (int i = 0; i < root->num_children; i++) PQT_TRY(visit(w, NULL, 0, 0, false, 1));
    if (w->pos != meta->nschema)
        return corrupt_tree("elements left over after the root's children", w->pos);
    for (int rg = 0; rg < meta->n_row_groups; rg++) {
        if (meta->row_groups[rg].ncolumns != w->leaf_count)
            return pqt_err(PQT_CORRUPT,
                           "corrupt footer: row group %d has %d column chunks, the schema has %d "
                           "leaf columns",
                           rg + 1, meta->row_groups[rg].ncolumns, w->leaf_count);
    }
    PQT_TRY(node_parents(meta, w->arena, &out->node_parent));
    out->cols = w->cols;
    out->ncols = w->ncols;
    out->nleaves = w->leaf_count;
    out->node_col = w->node_col;
    out->field_name = w->field_name;
    return PQT_OK;
}

pqt_status pqt_schema_build(const pqt_file_meta *meta, bool binary_as_string, pqt_arena *arena,
                            pqt_schema *out)
{
    if (meta->nschema < 1) return corrupt_tree("empty schema", 0);
    walker w = {.meta = meta, .arena = arena, .binary_as_string = binary_as_string, .pos = 1};
    w.node_col = pqt_arena_alloc_array(arena, (size_t)meta->nschema, sizeof *w.node_col);
    if (!w.node_col) return pqt_err(PQT_NOMEM, "out of memory indexing %d schema nodes",
                                    meta->nschema);
    for (int i = 0; i < meta->nschema; i++) w.node_col[i] = -1;
    w.cap = meta->nschema;
    w.cols = pqt_arena_alloc_array(arena, (size_t)w.cap, sizeof *w.cols);
    if (!w.cols) return pqt_err(PQT_NOMEM, "out of memory building the column list");
    return build(&w, out);
}
