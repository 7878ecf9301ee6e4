/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_dataset_merge.c - the kept members' footers merged into the dataset's one footer
 * (layer: api). docs/datasets.md.
 *
 * Footers are read once each, in parallel, and only for members the partition values kept
 * and _metadata does not describe. Each member's schema must be the dataset's, leaf for leaf
 * (name, physical and logical type, repetition); with union by name a member may lack
 * top-level leaves, which then read as nulls (constant chunks, column/chunk_src.c), and may
 * hold them in another order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/file_ds.h"
#include "api/file_int.h"
#include "api/snapshot.h"
#include "format/footer.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"
#include "util/par.h"

/* ---- which member each of _metadata's row groups belongs to ---- */

typedef struct rel_ix {
    const char *rel;
    int64_t i;
} rel_ix;

static int cmp_rel(const void *a, const void *b)
{
    return strcmp(((const rel_ix *)a)->rel, ((const rel_ix *)b)->rel);
}

/* sum_rg[g]: the member of _metadata's row group g (by its chunks' file_path), or -1 (a file
 * not listed: ignored); covered[i]: _metadata describes member i. */
static pqt_status summary_members(pqt_file_ds *ds, int64_t *sum_rg, bool *covered)
{
    const pqt_ds_list *l = &ds->list;
    rel_ix *order = pqt_malloc_array((size_t)l->n + 1, sizeof *order);
    if (!order) return pqt_err(PQT_NOMEM, "out of memory reading %s/_metadata", l->root);
    for (int64_t i = 0; i < l->n; i++)
        order[i] = (rel_ix){l->rel[i], i};
    qsort(order, (size_t)l->n, sizeof *order, cmp_rel);
    for (int g = 0; g < ds->summary.n_row_groups; g++) {
        const pqt_row_group *rg = &ds->summary.row_groups[g];
        const char *fp = rg->ncolumns > 0 ? rg->columns[0].file_path : NULL;
        sum_rg[g] = -1;
        int64_t lo = 0, hi = l->n;
        while (fp && lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            int c = strcmp(order[mid].rel, fp);
            if (c == 0) {
                sum_rg[g] = order[mid].i;
                break;
            }
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (sum_rg[g] >= 0) covered[sum_rg[g]] = true;
    }
    pqt_mem_free(order);
    return PQT_OK;
}

/* ---- footers read in parallel ---- */

/* The first read of a member's footer: its last 16 KiB, which hold the footer of a file of a
 * few dozen columns and row groups (a longer footer costs a second read). 64 KiB for each of
 * thousands of small files was a third of a dataset's open. */
#define MEMBER_TAIL_NBYTES ((int64_t)16 * 1024)

/* Member i's footer: from the snapshot's bytes when it has them (the file is not opened),
 * else read. */
static pqt_status read_member(pqt_file_ds *ds, int64_t i)
{
    pqt_snap_footer *e = ds->snap ? &ds->snap->member[i] : NULL;
    if (pqt_snap_has(e)) {
        ds->member_size[i] = e->file_size;
        return pqt_snap_footer_bytes(e, pqt_ioset_path(ds->set, i), &ds->member_arena[i],
                                     &ds->member_meta[i]);
    }
    pqt_io *io;
    PQT_TRY(pqt_ioset_get(ds->set, i, -1, &io));
    ds->member_size[i] = io->size;
    pqt_status st = pqt_snap_footer_io(ds->snap, e, io, MEMBER_TAIL_NBYTES, &ds->member_arena[i],
                                       &ds->member_meta[i]);
    pqt_ioset_put(ds->set, io);
    return st;
}

/* A recording open: member i's footer bytes fetched into the snapshot, not decoded. */
static pqt_status fetch_member(pqt_file_ds *ds, int64_t i)
{
    pqt_io *io;
    PQT_TRY(pqt_ioset_get(ds->set, i, -1, &io));
    pqt_status st = pqt_snap_fetch(&ds->snap->member[i], io, MEMBER_TAIL_NBYTES);
    pqt_ioset_put(ds->set, io);
    return st;
}

/* fn(ds, i) for every member with todo[i] (ntodo of them), in parallel; the lowest failing
 * member's status. */
static pqt_status each_member(pqt_file_ds *ds, const bool *todo, int64_t ntodo, int threads,
                              pqt_status (*fn)(pqt_file_ds *, int64_t))
{
    pqt_par_fail pf;
    pqt_par_fail_init(&pf);
#pragma omp parallel num_threads(pqt_par_threads_for(threads, ntodo))
    {
        pqt_par_thread th;
        pqt_par_enter(&th);
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < ds->list.n; i++) {
            if (!todo[i] || pqt_par_skip(&pf, i)) continue;
            pqt_par_fail_note(&pf, i, fn(ds, i), &th);
        }
        pqt_par_leave(&th);
    }
    return pqt_par_fail_raise(&pf);
}

/* The footers of the members need[i] names: a recording open fetches those it lacks first and
 * hands the snapshot on (the other processes decode while this one does); then each is
 * decoded, from the snapshot's bytes where it has them, else read. */
static pqt_status read_footers(pqt_file_ds *ds, bool *need, int threads)
{
    int64_t n = ds->list.n, todo = 0, fetch = 0, have = 0;
    bool recording = ds->snap && ds->snap->recording;
    for (int64_t i = 0; i < n; i++) {
        bool has = pqt_snap_has(ds->snap ? &ds->snap->member[i] : NULL);
        todo += need[i];
        have += need[i] && has;
        fetch += need[i] && !has && recording;
    }
    if (recording) {
        bool *lacking = pqt_calloc((size_t)n + 1, sizeof *lacking);
        if (!lacking) return pqt_err(PQT_NOMEM, "out of memory reading %s", ds->spec);
        for (int64_t i = 0; i < n; i++)
            lacking[i] = need[i] && !pqt_snap_has(&ds->snap->member[i]);
        pqt_status st = each_member(ds, lacking, fetch, threads, fetch_member);
        pqt_mem_free(lacking);
        PQT_TRY(st);
        ds->footers_read += fetch;
        PQT_TRY(pqt_snap_send(ds->snap));
        have += fetch;
    }
    ds->footers_read += todo - have;
    return each_member(ds, need, todo, threads, read_member);
}

/* ---- schema agreement ---- */

/* Two leaves read alike: the same physical type, levels and conversion into the same kind
 * (how a writer spells the annotation, INT_64 or INTEGER(64) or none, does not matter). */
static bool same_leaf(const pqt_file_meta *am, const pqt_col *a, const pqt_file_meta *bm,
                      const pqt_col *b)
{
    const pqt_schema_elem *ae = &am->schema[a->leaf_schema_idx];
    const pqt_schema_elem *be = &bm->schema[b->leaf_schema_idx];
    return strcmp(a->path, b->path) == 0 && ae->type == be->type &&
           ae->type_length == be->type_length && a->max_def == b->max_def &&
           a->max_rep == b->max_rep && a->conv == b->conv && a->elem_kind == b->elem_kind &&
           a->time_unit == b->time_unit && a->utc == b->utc &&
           a->decimal_scale == b->decimal_scale && a->decimal_precision == b->decimal_precision &&
           a->is_list == b->is_list && a->nchunk_cols == b->nchunk_cols;
}

/* The first n schema elements of a and b are the same field for field (b has no more; the
 * roots' child counts aside: a's counts the hive columns): the leaves then read alike
 * without building b's columns. */
static bool same_elems(const pqt_file_meta *a, const pqt_file_meta *b, int n)
{
    if (b->nschema != n || a->nschema < n) return false;
    for (int e = 0; e < n; e++) {
        const pqt_schema_elem *x = &a->schema[e], *y = &b->schema[e];
        if ((e > 0 && (strcmp(x->name ? x->name : "", y->name ? y->name : "") != 0 ||
                       x->num_children != y->num_children)) ||
            x->type != y->type || x->type_length != y->type_length ||
            x->repetition != y->repetition || x->converted_type != y->converted_type ||
            x->scale != y->scale || x->precision != y->precision ||
            x->logical.id != y->logical.id || x->logical.scale != y->logical.scale ||
            x->logical.precision != y->logical.precision ||
            x->logical.bit_width != y->logical.bit_width || x->logical.unit != y->logical.unit ||
            x->logical.utc != y->logical.utc || x->logical.is_signed != y->logical.is_signed)
            return false;
    }
    return true;
}

/* What differs between two leaves of one path, for messages. */
static const char *leaf_diff(const pqt_file_meta *am, const pqt_col *a, const pqt_file_meta *bm,
                             const pqt_col *b)
{
    if (am->schema[a->leaf_schema_idx].type != bm->schema[b->leaf_schema_idx].type ||
        am->schema[a->leaf_schema_idx].type_length != bm->schema[b->leaf_schema_idx].type_length)
        return "physical types differ (widening is not supported)";
    if (a->max_def != b->max_def || a->max_rep != b->max_rep)
        return "one is required, the other optional, or they nest differently";
    return "their logical types differ";
}

/* The first column of m whose path is path, or NULL. */
static const pqt_col *find_col(const pqt_schema *s, const char *path)
{
    for (int c = 0; c < s->ncols; c++)
        if (strcmp(s->cols[c].path, path) == 0) return &s->cols[c];
    return NULL;
}

/* map[leaf] = the member's chunk of each dataset file leaf, -1 when the member lacks it
 * (union by name only). PQT_SCHEMA_MISMATCH naming both files and the column. A member
 * without rows holds no chunk to misread: its schema is not checked. */
static pqt_status map_leaves(pqt_file_ds *ds, int64_t i, const pqt_file_meta *mm, int *map,
                             bool binary_as_string)
{
    const pqt_file_meta *dm = &ds->meta;
    const char *member = pqt_ioset_path(ds->set, i);
    for (int k = 0; k < ds->nfile_leaves; k++)
        map[k] = ds->union_by_name ? -1 : k;
    if (mm->n_row_groups == 0) return PQT_OK;
    if (!ds->union_by_name && same_elems(dm, mm, dm->nschema - ds->nhive))
        return PQT_OK; /* the usual case, one writer's files: no columns to build */
    pqt_schema ms;
    pqt_status st = pqt_schema_build(mm, binary_as_string, &ds->member_arena[i], &ms);
    if (st != PQT_OK) {
        pqt_err_prefix("%s: ", member);
        return st;
    }
    const char *hint = ds->union_by_name ? ""
                                         : " (open with PQT_OPT_UNION_BY_NAME to read files "
                                           "whose columns differ)";
    for (int c = 0; c < ds->schema.ncols; c++) {
        const pqt_col *dc = &ds->schema.cols[c];
        if (dc->leaf_schema_idx >= dm->nschema - ds->nhive) continue; /* a hive column */
        const pqt_col *mc = find_col(&ms, dc->path);
        if (!mc) {
            if (ds->union_by_name && dc->top_level) continue; /* nulls there */
            return pqt_err(PQT_SCHEMA_MISMATCH, "%s: column '%s' is in %s but not in %s%s",
                           ds->spec, dc->path, ds->schema_from, member, hint);
        }
        if (!same_leaf(dm, dc, mm, mc))
            return pqt_err(PQT_SCHEMA_MISMATCH, "%s: column '%s' differs between %s and %s: %s%s",
                           ds->spec, dc->path, ds->schema_from, member, leaf_diff(dm, dc, mm, mc),
                           hint);
        for (int k = 0; k < dc->nchunk_cols; k++)
            map[dc->chunk_col + k] = mc->chunk_col + k;
    }
    if (!ds->union_by_name)
        for (int c = 0; c < ms.ncols; c++)
            if (!find_col(&ds->schema, ms.cols[c].path))
                return pqt_err(PQT_SCHEMA_MISMATCH, "%s: column '%s' is in %s but not in %s%s",
                               ds->spec, ms.cols[c].path, member, ds->schema_from, hint);
    return PQT_OK;
}

/* ---- the merged row groups ---- */

/* A constant chunk: every one of rows rows holds value (len bytes), or null (value NULL). */
static void constant_chunk(pqt_column_chunk *c, int ptype, const uint8_t *value, uint32_t len,
                           int64_t rows)
{
    memset(c, 0, sizeof *c);
    c->has_meta = true;
    c->is_constant = true;
    pqt_column_meta *m = &c->meta;
    m->type = ptype;
    m->codec = PQT_CODEC_UNCOMPRESSED;
    m->num_values = rows;
    m->total_uncompressed_size = m->total_compressed_size = value ? rows * ((int64_t)len + 4) : 0;
    m->path_len = 1;
    m->has_stats = true;
    m->stats.has_null_count = true;
    m->stats.null_count = value ? 0 : rows;
    if (value) {
        m->stats.min_value = m->stats.max_value = value;
        m->stats.min_value_len = m->stats.max_value_len = len;
        m->stats.has_min_value = m->stats.has_max_value = true;
        m->stats.is_min_value_exact = m->stats.is_max_value_exact = true;
        m->stats.has_is_min_value_exact = m->stats.has_is_max_value_exact = true;
    }
}

typedef struct hive_val {
    const uint8_t *bytes; /* NULL: null */
    uint32_t len;
} hive_val;

/* The hive values of member i as chunk bytes (int64 little-endian, or the text). */
static pqt_status hive_values(pqt_file_ds *ds, int64_t i, hive_val *out)
{
    const pqt_ds_list *l = &ds->list;
    int h = 0;
    for (int e = ds->meta.nschema - ds->nhive; e < ds->meta.nschema; e++, h++) {
        const pqt_schema_elem *el = &ds->meta.schema[e];
        int k = 0;
        while (k < l->nkeys && strcmp(l->keys[k], el->name) != 0)
            k++;
        const char *v = k < l->nkeys ? l->values[i * l->nkeys + k] : NULL;
        out[h] = (hive_val){NULL, 0};
        if (!v) continue;
        if (el->type == PQT_PT_INT64) {
            uint8_t *b = pqt_arena_alloc(&ds->arena, 8);
            if (!b) return pqt_err(PQT_NOMEM, "out of memory merging %s", ds->spec);
            pqt_store_le64(b, (uint64_t)strtoll(v, NULL, 10));
            out[h] = (hive_val){b, 8};
        } else {
            out[h] = (hive_val){(const uint8_t *)v, (uint32_t)strlen(v)};
        }
    }
    return PQT_OK;
}

/* Member i's row groups (from its footer or from _metadata) appended to the merged footer. */
static pqt_status add_member(pqt_file_ds *ds, int64_t i, const pqt_file_meta *mm,
                             const int64_t *sum_rg, int *map, hive_val *hv, int *at,
                             bool binary_as_string)
{
    pqt_file_meta *m = &ds->meta;
    int ncols = ds->nfile_leaves + ds->nhive;
    bool from_summary = mm == &ds->summary;
    if (!from_summary)
        PQT_TRY(map_leaves(ds, i, mm, map, binary_as_string));
    else
        for (int k = 0; k < ds->nfile_leaves; k++)
            map[k] = k;
    PQT_TRY(hive_values(ds, i, hv));
    int local = 0;
    ds->member_row0[i] = m->num_rows;
    for (int g = 0; g < mm->n_row_groups; g++) {
        if (from_summary && sum_rg[g] != i) continue;
        const pqt_row_group *src = &mm->row_groups[g];
        if (src->ncolumns < ds->nfile_leaves && !ds->union_by_name)
            return pqt_err(PQT_CORRUPT, "%s: row group %d has %d columns, the schema %d",
                           pqt_ioset_path(ds->set, i), g + 1, src->ncolumns, ds->nfile_leaves);
        pqt_row_group *rg = &m->row_groups[*at];
        *rg = *src;
        rg->columns = pqt_arena_alloc_array(&ds->arena, (size_t)ncols + 1, sizeof *rg->columns);
        if (!rg->columns) return pqt_err(PQT_NOMEM, "out of memory merging %s", ds->spec);
        rg->ncolumns = ncols;
        for (int k = 0; k < ds->nfile_leaves; k++) {
            if (map[k] >= 0 && map[k] < src->ncolumns) {
                rg->columns[k] = src->columns[map[k]];
                rg->columns[k].file_path = NULL;
            } else {
                int e = 0; /* the leaf's schema element, for its physical type */
                for (int x = 1, seen = 0; x < m->nschema; x++)
                    if (m->schema[x].num_children == 0 && seen++ == k) e = x;
                constant_chunk(&rg->columns[k], m->schema[e].type, NULL, 0, src->num_rows);
            }
        }
        for (int h = 0; h < ds->nhive; h++)
            constant_chunk(&rg->columns[ds->nfile_leaves + h],
                           m->schema[m->nschema - ds->nhive + h].type, hv[h].bytes, hv[h].len,
                           src->num_rows);
        rg->first_row = m->num_rows;
        if (src->num_rows < 0 || m->num_rows > INT64_MAX - src->num_rows)
            return pqt_err(PQT_CORRUPT, "%s: row group %d has an invalid row count %lld",
                           pqt_ioset_path(ds->set, i), local + 1, (long long)src->num_rows);
        m->num_rows += src->num_rows;
        ds->member_rows[i] += src->num_rows;
        ds->rg_member[*at] = i;
        ds->rg_local[*at] = local++;
        (*at)++;
    }
    return PQT_OK;
}

/* Column orders agree across members, else none is trusted (docs/pruning.md). */
static void check_orders(pqt_file_ds *ds)
{
    pqt_file_meta *m = &ds->meta;
    for (int64_t i = 0; i < ds->list.n && m->n_column_orders > 0; i++) {
        const pqt_file_meta *mm = &ds->member_meta[i];
        if (!ds->member_kept[i] || mm->nschema == 0) continue;
        bool same = mm->n_column_orders == ds->nfile_leaves;
        for (int k = 0; same && k < ds->nfile_leaves; k++)
            same = mm->column_orders[k] == m->column_orders[k];
        if (!same) m->n_column_orders = 0;
    }
}

pqt_status pqt_file_ds_merge(pqt_file_ds *ds, const bool *keep, int threads, bool binary_as_string)
{
    int64_t n = ds->list.n;
    int64_t ng = ds->has_summary ? ds->summary.n_row_groups : 0;
    int64_t *sum_rg = pqt_malloc_array((size_t)ng + 1, sizeof *sum_rg);
    bool *covered = pqt_calloc((size_t)n + 1, sizeof *covered);
    bool *need = pqt_calloc((size_t)n + 1, sizeof *need);
    int *map = pqt_malloc_array((size_t)ds->nfile_leaves + 1, sizeof *map);
    hive_val *hv = pqt_malloc_array((size_t)ds->nhive + 1, sizeof *hv);
    pqt_status st = sum_rg && covered && need && map && hv
                        ? PQT_OK
                        : pqt_err(PQT_NOMEM, "out of memory merging %s", ds->spec);
    if (st == PQT_OK && ds->has_summary) st = summary_members(ds, sum_rg, covered);
    for (int64_t i = 0; st == PQT_OK && i < n; i++) {
        ds->member_kept[i] = ds->member_kept[i] && (!keep || keep[i]);
        if (!ds->member_kept[i]) ds->files_pruned_partition++;
        need[i] = ds->member_kept[i] && !covered[i] && ds->member_meta[i].nschema == 0;
    }
    if (st == PQT_OK) st = read_footers(ds, need, threads);
    int64_t nrg = 0;
    for (int64_t i = 0; st == PQT_OK && i < n; i++) {
        if (!ds->member_kept[i]) continue;
        ds->files_kept++;
        if (!covered[i]) nrg += ds->member_meta[i].n_row_groups;
    }
    for (int64_t g = 0; st == PQT_OK && g < ng; g++)
        nrg += sum_rg[g] >= 0 && ds->member_kept[sum_rg[g]];
    if (st == PQT_OK && nrg > INT32_MAX - 1)
        st = pqt_err(PQT_UNSUPPORTED, "%s: %lld row groups in all: at most %d are supported",
                     ds->spec, (long long)nrg, INT32_MAX - 1);
    if (st == PQT_OK) {
        ds->meta.row_groups =
            pqt_arena_alloc_array(&ds->arena, (size_t)nrg + 1, sizeof *ds->meta.row_groups);
        ds->rg_member = pqt_malloc_array((size_t)nrg + 1, sizeof *ds->rg_member);
        ds->rg_local = pqt_malloc_array((size_t)nrg + 1, sizeof *ds->rg_local);
        if (!ds->meta.row_groups || !ds->rg_member || !ds->rg_local)
            st = pqt_err(PQT_NOMEM, "out of memory merging %s (%lld row groups)", ds->spec,
                         (long long)nrg);
    }
    int at = 0;
    for (int64_t i = 0; st == PQT_OK && i < n; i++) {
        if (!ds->member_kept[i]) continue;
        st = add_member(ds, i, covered[i] ? &ds->summary : &ds->member_meta[i], sum_rg, map, hv,
                        &at, binary_as_string);
    }
    if (st == PQT_OK && ds->union_by_name) /* a column some file lacks holds nulls there */
        for (int c = 0; c < ds->schema.ncols; c++) {
            pqt_col *col = &ds->schema.cols[c];
            for (int g = 0; g < at && !col->nullable; g++)
                if (col->chunk_col < ds->meta.row_groups[g].ncolumns &&
                    ds->meta.row_groups[g].columns[col->chunk_col].is_constant)
                    col->nullable = true;
        }
    if (st == PQT_OK) {
        ds->meta.n_row_groups = at;
        check_orders(ds);
        ds->members = (pqt_chunk_members){ds->set, ds->rg_member, ds->rg_local, ds->member_size};
        ds->merged = true;
    }
    pqt_mem_free(sum_rg);
    pqt_mem_free(covered);
    pqt_mem_free(need);
    pqt_mem_free(map);
    pqt_mem_free(hv);
    return st;
}
