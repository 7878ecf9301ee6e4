/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_struct.c - struct leaves written inside their groups (layer: write; parquet-format
 * Nested Encoding: definition levels).
 *
 * pqt reads a leaf inside structs as a column named by its dotted path ("s.t.x"), its
 * validity null when the leaf or any group above it is null. The writer puts such a column
 * (read from a file and still under its path name) back inside groups of the source's names
 * and repetitions, so other readers see the source's STRUCT. Columns built in memory, and
 * file columns renamed (in the table or by a MAML col_map:), stay top-level columns: a
 * dotted name alone never makes a struct.
 *
 * The table keeps no group nullness of its own, so a group is written present in a row when
 * any leaf written under it is not null there (a list: not a null list), and null
 * otherwise; a null leaf's definition level counts the optional groups present above it. A
 * present group whose written leaves are all null therefore comes back null
 * (docs/writing.md).
 */
#include <stdlib.h>
#include <string.h>

#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"
#include "write/write_file.h"
#include "write/write_int.h"

void pqt_wstruct_free(pqt_wcol *c)
{
    for (int g = 0; g < c->ngroups; g++) pqt_mem_free(c->group_names[g]);
    pqt_mem_free(c->group_names);
    pqt_mem_free(c->group_opt);
    pqt_mem_free(c->leaf_name);
    c->group_names = NULL;
    c->group_opt = NULL;
    c->leaf_name = NULL;
    c->ngroups = 0;
    c->group_def = 0;
}

int pqt_wstruct_common(const pqt_wcol *a, const pqt_wcol *b)
{
    int n = a->ngroups < b->ngroups ? a->ngroups : b->ngroups, k = 0;
    while (k < n && strcmp(a->group_names[k], b->group_names[k]) == 0) k++;
    return k;
}

/* Groups of output column w when it is a struct leaf of t's file. */
static pqt_status fill_groups(pqt_wcol *w, const pqt_table *t)
{
    if (w->src_slot < 0 || strcmp(w->name, w->src_name) != 0) return PQT_OK;
    int ng = pqt_tview_struct_depth(t, w->src_slot);
    if (ng == 0) return PQT_OK;
    const char *name;
    bool opt;
    pqt_tview_struct_node(t, w->src_slot, ng, &name, &opt);
    w->group_names = pqt_calloc((size_t)ng, sizeof *w->group_names);
    w->group_opt = pqt_calloc((size_t)ng, sizeof *w->group_opt);
    w->leaf_name = pqt_strdup(name);
    if (!w->group_names || !w->group_opt || !w->leaf_name) return pqt_err(PQT_NOMEM, "out of memory");
    w->ngroups = ng;
    for (int g = 0; g < ng; g++) {
        const char *gname;
        pqt_tview_struct_node(t, w->src_slot, g, &gname, &w->group_opt[g]);
        w->group_names[g] = pqt_strdup(gname);
        if (!w->group_names[g]) return pqt_err(PQT_NOMEM, "out of memory");
        w->group_def = (int16_t)(w->group_def + w->group_opt[g]);
    }
    if (!w->maml_set) {
        /* the leaf's (or list's) own repetition is the source's; a null the table holds
         * under required groups only still needs an optional leaf */
        pqt_tview_col c;
        pqt_tview_describe(t, w->src_slot, &c);
        bool nulls = c.buf && (w->is_list ? c.buf->row_validity != NULL : c.buf->validity != NULL);
        w->nullable = opt || (nulls && w->group_def == 0);
    }
    return PQT_OK;
}

/* Place every unplaced column j >= first sharing first's groups 0..depth-1 into order, a
 * group's leaves together where its first leaf is (nested groups alike). */
static void gather(const pqt_wcol *cols, int n, bool *placed, int *order, int *m, int first,
                   int depth)
{
    for (int j = first; j < n; j++) {
        if (placed[j] || (depth > 0 && pqt_wstruct_common(&cols[first], &cols[j]) < depth))
            continue;
        if (cols[j].ngroups == depth) {
            placed[j] = true;
            order[(*m)++] = j;
        } else {
            gather(cols, n, placed, order, m, j, depth + 1);
        }
    }
}

/* A group opened by a column: its path is the column's groups 0..d. */
typedef struct run_start {
    const pqt_wcol *c;
    int d;
} run_start;

static int run_cmp(const void *pa, const void *pb)
{
    const run_start *a = pa, *b = pb;
    if (a->d != b->d) return a->d < b->d ? -1 : 1;
    for (int g = 0; g <= a->d; g++) {
        int r = strcmp(a->c->group_names[g], b->c->group_names[g]);
        if (r) return r;
    }
    return 0;
}

/* Whether some group is opened twice (its leaves not together): gather's scans cost
 * columns x groups, so they run only then (a file's own order never needs them). */
static pqt_status groups_split(const pqt_wcol *cols, int n, bool *split)
{
    int nr = 0;
    for (int k = 0; k < n; k++) {
        int com = k > 0 ? pqt_wstruct_common(&cols[k - 1], &cols[k]) : 0;
        if (cols[k].ngroups > com) nr += cols[k].ngroups - com;
    }
    *split = false;
    if (nr < 2) return PQT_OK;
    run_start *r = pqt_malloc_array((size_t)nr, sizeof *r);
    if (!r) return pqt_err(PQT_NOMEM, "out of memory");
    int m = 0;
    for (int k = 0; k < n; k++) {
        int com = k > 0 ? pqt_wstruct_common(&cols[k - 1], &cols[k]) : 0;
        for (int d = com; d < cols[k].ngroups; d++) r[m++] = (run_start){&cols[k], d};
    }
    qsort(r, (size_t)m, sizeof *r, run_cmp);
    for (int i = 1; i < m && !*split; i++) *split = run_cmp(&r[i - 1], &r[i]) == 0;
    pqt_mem_free(r);
    return PQT_OK;
}

pqt_status pqt_wstruct_apply(pqt_wcol *cols, int n, const pqt_table *t)
{
    bool any = false;
    for (int k = 0; k < n; k++) {
        PQT_TRY(fill_groups(&cols[k], t));
        pqt_wcol *w = &cols[k];
        any = any || w->ngroups > 0;
        if (w->is_list)
            w->max_def = (int16_t)(w->group_def + (w->nullable ? 1 : 0) + 1 + (w->elem_nullable ? 1 : 0));
        else
            w->max_def = (int16_t)(w->group_def + (w->nullable ? 1 : 0));
    }
    if (!any) return PQT_OK;
    /* a top-level column and a group of the same name would be two root fields of one name */
    for (int k = 0; k < n; k++) {
        if (cols[k].ngroups == 0) continue;
        for (int j = 0; j < n; j++)
            if (cols[j].ngroups == 0 && strcmp(cols[j].name, cols[k].group_names[0]) == 0)
                return pqt_err(PQT_MISUSE, "the column '%s' and the struct '%s' (of the leaf "
                                           "'%s') would both be written as the field '%s': "
                                           "rename one (pqt_table_rename_column, a write "
                                           "MAML col_map:) or leave one out",
                               cols[j].name, cols[k].group_names[0], cols[k].name, cols[j].name);
    }
    bool split = false;
    PQT_TRY(groups_split(cols, n, &split));
    if (!split) return PQT_OK;
    bool *placed = pqt_calloc((size_t)n + 1, sizeof *placed);
    int *order = pqt_calloc((size_t)n + 1, sizeof *order);
    pqt_wcol *tmp = pqt_calloc((size_t)n + 1, sizeof *tmp);
    if (!placed || !order || !tmp) {
        pqt_mem_free(placed);
        pqt_mem_free(order);
        pqt_mem_free(tmp);
        return pqt_err(PQT_NOMEM, "out of memory");
    }
    int m = 0;
    gather(cols, n, placed, order, &m, 0, 0);
    for (int k = 0; k < n; k++) tmp[k] = cols[order[k]];
    memcpy(cols, tmp, (size_t)n * sizeof *cols);
    pqt_mem_free(placed);
    pqt_mem_free(order);
    pqt_mem_free(tmp);
    return PQT_OK;
}

static pqt_schema_elem group_elem(const char *name, int rep, int nchildren)
{
    pqt_schema_elem e;
    memset(&e, 0, sizeof e);
    e.name = name;
    e.type = -1;
    e.repetition = rep;
    e.num_children = nchildren;
    e.converted_type = -1;
    return e;
}

/* Children of the group at depth d opened by column i: the leaves directly in it and the
 * groups opened inside it, up to the end of its run. */
static int group_children(const pqt_wcol *c, int n, int i, int d)
{
    int count = 0;
    for (int j = i; j < n; j++) {
        int com = j == i ? c[j].ngroups : pqt_wstruct_common(&c[j - 1], &c[j]);
        if (j > i && pqt_wstruct_common(&c[i], &c[j]) < d + 1) break;
        if (c[j].ngroups == d + 1 || j == i || com < d + 2) count++;
    }
    return count;
}

pqt_status pqt_wstruct_schema(const pqt_wcol *c, int n, pqt_arena *a, pqt_schema_elem **elems_ret,
                              int *nelems_ret)
{
    int ne = 1, roots = 0;
    for (int i = 0; i < n; i++) {
        int com = i > 0 ? pqt_wstruct_common(&c[i - 1], &c[i]) : 0;
        ne += (c[i].is_list ? 3 : 1) + c[i].ngroups - com;
        if (c[i].ngroups == 0 || com == 0) roots++;
    }
    pqt_schema_elem *e = pqt_arena_alloc_array(a, (size_t)ne, sizeof *e);
    if (!e) return pqt_err(PQT_NOMEM, "out of memory building the schema");
    int k = 0;
    e[k++] = group_elem("schema", -1, roots);
    for (int i = 0; i < n; i++) {
        const pqt_wcol *w = &c[i];
        int com = i > 0 ? pqt_wstruct_common(&c[i - 1], w) : 0;
        for (int d = com; d < w->ngroups; d++)
            e[k++] = group_elem(w->group_names[d], w->group_opt[d] ? PQT_REP_OPTIONAL : PQT_REP_REQUIRED,
                                group_children(c, n, i, d));
        const char *name = w->leaf_name ? w->leaf_name : w->name;
        bool leaf_opt = w->is_list ? w->elem_nullable : w->nullable;
        if (w->is_list) {
            pqt_schema_elem g = group_elem(name, w->nullable ? PQT_REP_OPTIONAL : PQT_REP_REQUIRED, 1);
            g.converted_type = PQT_CT_LIST;
            g.logical.id = PQT_LT_LIST;
            e[k++] = g;
            e[k++] = group_elem("list", PQT_REP_REPEATED, 1);
        }
        pqt_schema_elem l = group_elem(w->is_list ? "element" : name,
                                       leaf_opt ? PQT_REP_OPTIONAL : PQT_REP_REQUIRED, 0);
        l.type = w->ptype;
        l.type_length = w->type_length;
        l.converted_type = w->converted;
        l.logical = w->logical;
        if (w->logical.id == PQT_LT_DECIMAL) { /* the converted type's fields, for old readers */
            l.has_scale = l.has_precision = true;
            l.scale = w->logical.scale;
            l.precision = w->logical.precision;
        }
        e[k++] = l;
    }
    *elems_ret = e;
    *nelems_ret = ne;
    return PQT_OK;
}

pqt_status pqt_wstruct_path(const pqt_wcol *c, pqt_arena *a, const char *const **path_ret,
                            int *len_ret)
{
    int len = c->ngroups + (c->is_list ? 3 : 1);
    const char **path = pqt_arena_alloc_array(a, (size_t)len, sizeof *path);
    if (!path) return pqt_err(PQT_NOMEM, "out of memory");
    for (int g = 0; g < c->ngroups; g++) path[g] = c->group_names[g];
    path[c->ngroups] = c->leaf_name ? c->leaf_name : c->name;
    if (c->is_list) {
        path[c->ngroups + 1] = "list";
        path[c->ngroups + 2] = "element";
    }
    *path_ret = path;
    *len_ret = len;
    return PQT_OK;
}

bool pqt_wstruct_has_source(const struct pqt_writer *w, int k)
{
    const pqt_wcol *c = w->cols;
    for (int d = 0; d < c[k].ngroups; d++) {
        if (!c[k].group_opt[d]) continue;
        int k0 = k; /* the group's first column: where pqt_wstruct_source keeps it */
        while (k0 > 0 && pqt_wstruct_common(&c[k0 - 1], &c[k]) > d) k0--;
        bool found = false;
        for (int s = 0; s < w->nwsrc && !found; s++) found = w->wsrc[s].k == k0 && w->wsrc[s].d == d;
        if (!found) return false;
    }
    return true;
}

pqt_status pqt_wstruct_rows(pqt_writer *w, const pqt_colbuf *const *bufs, const int64_t *r0s,
                            int64_t at, int64_t n, int64_t row0)
{
    const pqt_wcol *c = w->cols;
    int nc = w->ncols;
    bool any = false;
    for (int k = 0; k < nc; k++) {
        pqt_wchunk *ch = &w->chunks[k];
        ch->struct_def = NULL;
        if (c[k].group_def == 0) continue;
        any = true;
        PQT_TRY(pqt_buf_reserve(&ch->struct_lv, (size_t)n * sizeof(uint16_t)));
        memset(ch->struct_lv.data, 0, (size_t)n * sizeof(uint16_t));
        ch->struct_def = (const uint16_t *)ch->struct_lv.data;
        ch->struct_r0 = r0s[k] + at;
    }
    if (!any) return PQT_OK;
    uint8_t *present = pqt_malloc((size_t)n + 1);
    if (!present) return pqt_err(PQT_NOMEM, "out of memory");
    /* each optional group: the run of columns under it (contiguous: pqt_wstruct_apply) */
    for (int k = 0; k < nc; k++) {
        int com = k > 0 ? pqt_wstruct_common(&c[k - 1], &c[k]) : 0;
        for (int d = com; d < c[k].ngroups; d++) {
            if (!c[k].group_opt[d]) continue;
            int end = k + 1;
            while (end < nc && pqt_wstruct_common(&c[k], &c[end]) > d) end++;
            const uint8_t *src = NULL;
            for (int s = 0; s < w->nwsrc && !src; s++)
                if (w->wsrc[s].k == k && w->wsrc[s].d == d) src = w->wsrc[s].present + row0;
            if (src) memcpy(present, src, (size_t)n);
            else memset(present, 0, (size_t)n);
            for (int j = k; j < end; j++) {
                const pqt_colbuf *b = bufs[j];
                /* a leaf read from the file agrees with the source's presence */
                if (!b) continue;
                int64_t r0 = r0s[j] + at;
                if (!(b->is_list ? b->row_validity : b->validity)) {
                    memset(present, 1, (size_t)n);
                    break;
                }
                const uint8_t *bm = b->is_list ? b->row_validity : b->validity;
                for (int64_t i = 0; i < n; i++) present[i] |= pqt_bit_get(bm, r0 + i);
            }
            for (int j = k; j < end; j++) {
                uint16_t *lv = (uint16_t *)w->chunks[j].struct_lv.data;
                for (int64_t i = 0; i < n; i++) lv[i] = (uint16_t)(lv[i] + present[i]);
            }
        }
    }
    pqt_mem_free(present);
    return PQT_OK;
}
