/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_struct_rows.c - where a struct group of the file is present, table row by table row
 * (table_view.h; layer: table; parquet-format Nested Encoding, Data Pages).
 *
 * A table keeps a struct leaf's validity only (null when the leaf or a group above it is
 * null), so a present struct whose leaves are all null and a null struct look alike in it.
 * The group's own presence is in the definition levels of any leaf under it: read again
 * (levels only, through the reader's page walk: pages are decompressed and their levels
 * checked as any read checks them, values never decoded) for the rows of the table's plan.
 * The writer keeps a present struct present (write_struct_src.c); the Arrow export gives a
 * struct field its validity bitmap (src/arrow/).
 */
#include <string.h>

#include "api/file_access.h"
#include "column/column.h"
#include "column/page_levels.h"
#include "format/meta.h"
#include "read/plan.h"
#include "table/table_view.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"

static bool descends(const pqt_file *f, int node, int anc)
{
    for (int p = node; p >= 0; p = pqt_file_schema(f)->node_parent[p])
        if (p == anc) return true;
    return false;
}

/* The definition level of the first level of every row of leaf `leaf` (schema node lnode)
 * in row group rg, into row_def[0..num_rows): the reader's own page walk, levels only
 * (pqt_chunk_ctx_set_levels_only), so every check a read makes (page sizes, level bounds,
 * row counts) holds here too. *ok false when a page holds levels in the old BIT_PACKED
 * encoding (the caller then goes without). cx, reps, defs: the caller's, reused. */
static pqt_status chunk_row_defs(const pqt_file *f, int rg, const pqt_col *leaf, pqt_chunk_ctx *cx,
                                 pqt_buf *reps, pqt_buf *defs, uint8_t *row_def, bool *ok)
{
    int64_t nrows = pqt_file_footer(f)->row_groups[rg].num_rows;
    pqt_sel all = {0};
    pqt_sel_init_all(&all, nrows);
    pqt_colbuf none = {0}; /* levels only: nothing is written */
    pqt_chunk_src src = pqt_file_chunk_src(f);
    src.serial = true;
    reps->len = defs->len = 0;
    pqt_chunk_ctx_set_level_sink(cx, reps, defs);
    pqt_chunk_ctx_set_levels_only(cx, true);
    pqt_status st = pqt_chunk_read(cx, &src, rg, leaf, &all, &none, 0);
    pqt_chunk_ctx_set_levels_only(cx, false);
    pqt_chunk_ctx_set_level_sink(cx, NULL, NULL);
    pqt_sel_free(&all);
    if (st == PQT_UNSUPPORTED_ENCODING) {
        *ok = false;
        return PQT_OK;
    }
    PQT_TRY(st);
    int64_t row = 0, n = (int64_t)reps->len;
    const uint8_t *r = reps->data, *d = defs->data;
    for (int64_t k = 0; k < n; k++) {
        if (r[k] != 0) continue;
        if (row >= nrows)
            return pqt_err(PQT_CORRUPT, "more rows in the pages than the row group's %lld",
                           (long long)nrows);
        row_def[row++] = d[k];
    }
    if (row != nrows)
        return pqt_err(PQT_CORRUPT, "%lld rows in the pages, the row group has %lld",
                       (long long)row, (long long)nrows);
    return PQT_OK;
}

/* The leaf under group node gnode whose levels tell where the group is present: a column
 * of its own with the leaf's levels and place, read for its levels only. */
static pqt_col leaf_col(const pqt_file *f, int leaf, int lnode, int max_def, int max_rep)
{
    int c = pqt_file_schema(f)->node_col[lnode];
    pqt_col col = {.path = c >= 0 ? pqt_file_schema(f)->cols[c].path
                                  : pqt_file_footer(f)->schema[lnode].name,
                   .leaf_schema_idx = lnode,
                   .chunk_col = leaf,
                   .nchunk_cols = 1,
                   .max_def = (int16_t)max_def,
                   .max_rep = (int16_t)max_rep,
                   .time_unit = -1};
    return col;
}

pqt_status pqt_tview_group_present(const pqt_table *t, int gnode, uint8_t *present, bool *ok)
{
    const pqt_file *f = pqt_tview_file(t);
    const pqt_schema_elem *s = pqt_file_footer(f)->schema;
    /* the group's level, and a leaf under it: the first without a repeated node below */
    int gdef = 0;
    for (int p = gnode; p > 0; p = pqt_file_schema(f)->node_parent[p])
        gdef += s[p].repetition != PQT_REP_REQUIRED;
    int leaf = -1, lnode = -1, nleaf = 0, first = -1, first_node = -1;
    for (int k = 1; k < pqt_file_footer(f)->nschema && leaf < 0; k++) {
        if (s[k].num_children > 0) continue;
        if (descends(f, k, gnode)) {
            bool rep = false;
            for (int p = k; p != gnode; p = pqt_file_schema(f)->node_parent[p])
                rep = rep || s[p].repetition == PQT_REP_REPEATED;
            if (first < 0) first = nleaf, first_node = k;
            if (!rep) leaf = nleaf, lnode = k;
        }
        nleaf++;
    }
    if (leaf < 0) leaf = first, lnode = first_node;
    if (leaf < 0) {
        *ok = false;
        return PQT_OK;
    }
    int max_def = 0, max_rep = 0;
    for (int p = lnode; p > 0; p = pqt_file_schema(f)->node_parent[p]) {
        max_def += s[p].repetition != PQT_REP_REQUIRED;
        max_rep += s[p].repetition == PQT_REP_REPEATED;
    }
    const pqt_plan *pl = pqt_tview_plan(t);
    const int64_t nrows = pqt_table_nrows(t);
    int64_t nfile = pl->nrg > 0 ? pl->rg_start[pl->nrg] : 0;
    uint8_t *fdef = pqt_calloc((size_t)nfile + 1, 1);
    int64_t *rows = pqt_malloc_array((size_t)nrows + 1, sizeof *rows);
    pqt_status st = fdef && rows ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
    pqt_col lc = leaf_col(f, leaf, lnode, max_def, max_rep);
    pqt_chunk_ctx *cx = NULL;
    pqt_buf reps = {0}, defs = {0};
    if (st == PQT_OK) st = pqt_chunk_ctx_new(&cx);
    for (int rg = 0; rg < pl->nrg && st == PQT_OK && *ok; rg++)
        if (pl->sel[rg].nsel > 0)
            st = chunk_row_defs(f, rg, &lc, cx, &reps, &defs, fdef + pl->rg_start[rg], ok);
    pqt_chunk_ctx_free(cx);
    pqt_buf_free(&reps);
    pqt_buf_free(&defs);
    if (st == PQT_OK && *ok) st = pqt_plan_file_rows(pl, rows);
    for (int64_t r = 0; st == PQT_OK && *ok && r < nrows; r++)
        present[r] = fdef[rows[r] - 1] >= gdef;
    if (st != PQT_OK)
        pqt_err_prefix("%s, struct '%s': reading its levels: ", pqt_file_path(f), s[gnode].name);
    pqt_mem_free(fdef);
    pqt_mem_free(rows);
    return st;
}

int pqt_tview_struct_group(const pqt_table *t, int slot, int d)
{
    pqt_tview_col c;
    pqt_tview_describe(t, slot, &c);
    if (!c.fcol) return -1;
    const pqt_file *f = pqt_tview_file(t);
    const pqt_schema *sc = pqt_file_schema(f);
    const pqt_col *fc = c.fcol;
    if (fc->top_level || strcmp(c.name, fc->path) != 0) return -1;
    int file_col = (int)(fc - sc->cols);
    int node = fc->leaf_schema_idx;
    while (node >= 0 && sc->node_col[node] != file_col)
        node = sc->node_parent[node];
    int depth = node >= 0 ? pqt_file_node_depth(f, node) : -1;
    while (node >= 0 && depth > d + 1) {
        node = pqt_file_schema(f)->node_parent[node];
        depth--;
    }
    return depth == d + 1 && node > 0 && pqt_file_footer(f)->schema[node].num_children > 0 ? node
                                                                                           : -1;
}

bool pqt_tview_rows_follow_file(const pqt_table *t)
{
    const int64_t nrows = pqt_table_nrows(t);
    return pqt_tview_attached(t) && pqt_tview_plan(t)->nsel == nrows && nrows > 0;
}
