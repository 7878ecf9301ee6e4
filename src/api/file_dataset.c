/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_dataset.c - open many Parquet files as one: list them, learn the schema, and later
 * merge the footers of the members a filter kept (layer: api). docs/datasets.md.
 *
 * The schema comes from the cheapest file that has it: _common_metadata (a footer without
 * row groups), else _metadata (every member's row groups, so no member footer is read),
 * else the first member's footer (then kept, not read again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/file_ds.h"
#include "api/file_int.h"
#include "api/snapshot.h"
#include "dataset/healpix.h"
#include "dataset/listing.h"
#include "format/footer.h"
#include "scan/filter.h"
#include "util/error.h"
#include "util/mem.h"

bool pqt_file_spec_is_dataset(const char *path)
{
    if (pqt_ds_is_remote(path)) return pqt_ds_remote_is_dataset(path); /* no stat of a URL */
    struct stat sb;
    if (stat(path, &sb) == 0) return S_ISDIR(sb.st_mode);
    return pqt_ds_is_pattern(path);
}

/* The footer of the file at path into a, m: replayed from snapshot entry e when it has one
 * (the file is not opened), else read (and recorded in e when the open records). */
static pqt_status read_footer_path(const pqt_file_ds *ds, pqt_snap_footer *e, const char *path,
                                   pqt_arena *a, pqt_file_meta *m, int64_t *size_ret)
{
    if (pqt_snap_replays(ds->snap, e)) {
        if (size_ret) *size_ret = e->file_size;
        return pqt_snap_footer_bytes(e, path, a, m);
    }
    pqt_io *io;
    PQT_TRY(pqt_source_open(path, &ds->remote, &io));
    pqt_status st = pqt_snap_footer_io(ds->snap, e, io, (int64_t)64 * 1024, a, m);
    if (size_ret) *size_ret = io->size;
    pqt_io_unref(io);
    return st;
}

static char *join(const char *root, const char *name)
{
    size_t n = strlen(root) + strlen(name) + 2;
    char *p = pqt_malloc_array(n, 1);
    if (p) snprintf(p, n, "%s%s%s", root, *root ? "/" : "", name);
    return p;
}

static void ds_free(pqt_file_ds *ds)
{
    if (!ds) return;
    for (int64_t i = 0; ds->member_arena && i < ds->list.n; i++)
        pqt_arena_free(&ds->member_arena[i]);
    pqt_mem_free(ds->member_arena);
    pqt_mem_free(ds->member_meta);
    pqt_mem_free(ds->member_size);
    pqt_mem_free(ds->member_rows);
    pqt_mem_free(ds->member_row0);
    pqt_mem_free(ds->member_kept);
    pqt_mem_free(ds->rg_member);
    pqt_mem_free(ds->rg_local);
    pqt_ioset_free(ds->set);
    pqt_ds_list_free(&ds->list);
    pqt_arena_free(&ds->summary_arena);
    pqt_arena_free(&ds->arena);
    pqt_mem_free(ds->spec);
    pqt_mem_free(ds);
}

void pqt_file_ds_unref(pqt_file_ds *ds)
{
    if (ds && atomic_fetch_sub(&ds->refs, 1) == 1) ds_free(ds);
}

pqt_file_ds *pqt_file_ds_ref(pqt_file_ds *ds)
{
    atomic_fetch_add(&ds->refs, 1);
    return ds;
}

/* A member's source, by path or URL (util/ioset.h cannot know URLs). */
static pqt_status open_member(const char *path, void *ctx, pqt_io **ret)
{
    return pqt_source_open(path, ctx, ret);
}

/* The member sources: root/rel of every member. */
static pqt_status make_set(pqt_file_ds *ds)
{
    int64_t n = ds->list.n;
    char **paths = pqt_calloc((size_t)n + 1, sizeof *paths);
    pqt_status st = paths ? PQT_OK : PQT_NOMEM;
    for (int64_t i = 0; st == PQT_OK && i < n; i++)
        if (!(paths[i] = pqt_ds_member_url(ds->list.root, ds->list.rel[i]))) st = PQT_NOMEM;
    if (st == PQT_OK)
        st = pqt_ioset_new((const char *const *)paths, n, open_member, &ds->remote, &ds->set);
    else
        pqt_err(PQT_NOMEM, "out of memory listing %s", ds->spec);
    for (int64_t i = 0; paths && i < n; i++)
        pqt_mem_free(paths[i]);
    pqt_mem_free(paths);
    return st;
}

/* A top-level field of m named name. */
static bool has_top_field(const pqt_file_meta *m, const char *name)
{
    if (m->nschema < 1) return false;
    for (int i = 1, k = 0; i < m->nschema && k < m->schema[0].num_children; k++) {
        if (strcmp(m->schema[i].name ? m->schema[i].name : "", name) == 0) return true;
        /* skip the field's subtree */
        int todo = 1;
        while (todo > 0 && i < m->nschema)
            todo += m->schema[i++].num_children - 1;
    }
    return false;
}

static int count_leaves(const pqt_file_meta *m)
{
    int n = 0;
    for (int i = 1; i < m->nschema; i++)
        n += m->schema[i].num_children == 0;
    return n;
}

/* The dataset's footer before any row group: src's schema, then a leaf per hive key that
 * is not already a top-level field (int64 when every value is an integer, else string). */
static pqt_status build_schema(pqt_file_ds *ds, const pqt_file_meta *src, bool binary_as_string)
{
    const pqt_ds_list *l = &ds->list;
    int nhive = 0;
    bool *add = pqt_calloc((size_t)l->nkeys + 1, sizeof *add);
    if (!add) return pqt_err(PQT_NOMEM, "out of memory opening %s", ds->spec);
    for (int k = 0; ds->hive && k < l->nkeys; k++)
        if (!has_top_field(src, l->keys[k])) add[k] = true, nhive++;
    pqt_file_meta *m = &ds->meta;
    *m = *src;
    m->row_groups = NULL;
    m->n_row_groups = 0;
    m->num_rows = 0;
    ds->nfile_leaves = count_leaves(src);
    ds->nhive = nhive;
    m->nschema = src->nschema + nhive;
    m->schema = pqt_arena_alloc_array(&ds->arena, (size_t)m->nschema, sizeof *m->schema);
    int norders = src->n_column_orders > 0 ? ds->nfile_leaves + nhive : 0;
    m->column_orders =
        norders ? pqt_arena_alloc_array(&ds->arena, (size_t)norders, sizeof(int32_t)) : NULL;
    if (!m->schema || (norders && !m->column_orders)) {
        pqt_mem_free(add);
        return pqt_err(PQT_NOMEM, "out of memory opening %s", ds->spec);
    }
    memcpy(m->schema, src->schema, (size_t)src->nschema * sizeof *m->schema);
    m->schema[0].num_children += nhive;
    for (int i = 0; i < norders; i++)
        m->column_orders[i] = i < src->n_column_orders ? src->column_orders[i] : 1;
    m->n_column_orders = norders;
    for (int k = 0, at = src->nschema; k < l->nkeys; k++) {
        if (!add[k]) continue;
        pqt_schema_elem *e = &m->schema[at++];
        memset(e, 0, sizeof *e);
        e->name = l->keys[k];
        e->repetition = PQT_REP_OPTIONAL;
        e->converted_type = -1;
        if (l->key_is_int[k]) {
            e->type = PQT_PT_INT64;
        } else {
            e->type = PQT_PT_BYTE_ARRAY;
            e->converted_type = PQT_CT_UTF8;
            e->logical.id = PQT_LT_STRING;
        }
    }
    pqt_mem_free(add);
    pqt_status st = pqt_schema_build(m, binary_as_string, &ds->arena, &ds->schema);
    if (st != PQT_OK) pqt_err_prefix("%s: ", ds->schema_from);
    return st;
}

/* A member's partition values as the statistics of a one-row row group, per slot of prog
 * (slot s reads hive key key_of[s]). */
static void hive_stats(const pqt_ds_list *l, const int *key_of, int nslots, int64_t i,
                       pqt_scan_stats *stats)
{
    for (int s = 0; s < nslots; s++) {
        int k = key_of[s];
        pqt_scan_value_stats(l->values[i * l->nkeys + k], l->key_is_int[k], &stats[s]);
    }
}

/* Before any footer: member_kept[i] false for each member the filter's conjuncts on hive
 * keys alone refute (table_open_dataset.c proves the whole filter once the columns are
 * known). A filter that does not compile here is left to that later step. */
static pqt_status prune_hive(pqt_file_ds *ds, const pqt_filter *filter)
{
    const pqt_ds_list *l = &ds->list;
    if (!ds->hive || l->nkeys == 0 || pqt_scan_filter_nrules(filter) == 0) return PQT_OK;
    pqt_filter *proj = NULL;
    PQT_TRY(pqt_scan_filter_project(filter, (const char *const *)l->keys, l->nkeys, &proj));
    pqt_scan_col *cols = pqt_malloc_array((size_t)l->nkeys + 1, sizeof *cols);
    pqt_fprog *prog = NULL;
    pqt_status st = cols ? PQT_OK : PQT_NOMEM;
    for (int k = 0; st == PQT_OK && k < l->nkeys; k++)
        cols[k] = (pqt_scan_col){l->keys[k], l->key_is_int[k] ? PQT_INT64 : PQT_STRING, -1};
    pqt_status cst = PQT_BAD_FILTER;
    if (st == PQT_OK && pqt_scan_filter_nrules(proj) > 0) {
        pqt_err_mute(); /* a filter that does not compile here says so at the table's open */
        cst = pqt_scan_compile(proj, cols, l->nkeys, &prog);
        pqt_err_unmute();
    }
    if (cst == PQT_OK) {
        int nslots = pqt_scan_prog_ncols(prog);
        int *key_of = pqt_malloc_array((size_t)nslots + 1, sizeof *key_of);
        pqt_scan_stats *stats = pqt_malloc_array((size_t)nslots + 1, sizeof *stats);
        if (key_of && stats) {
            for (int s = 0; s < nslots; s++)
                key_of[s] = pqt_scan_prog_col(prog, s);
            for (int64_t i = 0; i < l->n; i++) {
                hive_stats(l, key_of, nslots, i, stats);
                if (pqt_scan_prog_prove(prog, stats, 1) == PQT_TRI_NONE) ds->member_kept[i] = false;
            }
        } else {
            st = PQT_NOMEM;
        }
        pqt_mem_free(key_of);
        pqt_mem_free(stats);
    }
    pqt_scan_prog_free(prog);
    pqt_mem_free(cols);
    pqt_filter_free(proj);
    return st == PQT_OK ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory opening %s", ds->spec);
}

/* A HATS catalogue: member_kept[i] false for each partition whose HEALPix pixel cannot meet
 * a cone of the filter on the catalogue's ra and dec columns (docs/datasets.md). */
static void prune_cones(pqt_file_ds *ds, const pqt_filter *filter)
{
    const pqt_ds_list *l = &ds->list;
    enum { MAX_CONES = 16 };
    pqt_scan_cone cones[MAX_CONES];
    if (!l->is_hats || !l->hats_ra || !l->hats_dec) return;
    int n = pqt_scan_filter_cones(filter, l->hats_ra, l->hats_dec, cones, MAX_CONES);
    if (n > MAX_CONES) n = MAX_CONES; /* the rest only prune less */
    for (int64_t i = 0; i < l->n; i++)
        for (int c = 0; c < n && ds->member_kept[i]; c++)
            ds->member_kept[i] = pqt_hpx_pixel_may_meet_cone(
                l->hats_order[i], l->hats_pix[i], cones[c].ra0, cones[c].dec0, cones[c].radius);
}

/* Learn the schema: _common_metadata, else _metadata (kept: its row groups serve the merge),
 * else the footer of the first member the partition values kept (kept for the merge). */
static pqt_status learn_schema(pqt_file_ds *ds, bool binary_as_string)
{
    const pqt_ds_list *l = &ds->list;
    pqt_file_meta common = {0};
    const pqt_file_meta *src = NULL;
    char *path = NULL;
    pqt_status st = PQT_OK;
    if (l->has_metadata) {
        path = join(l->root, "_metadata");
        if (!path) return pqt_err(PQT_NOMEM, "out of memory opening %s", ds->spec);
        bool replayed = pqt_snap_replays(ds->snap, ds->snap ? &ds->snap->metadata : NULL);
        st = read_footer_path(ds, ds->snap ? &ds->snap->metadata : NULL, path,
                              &ds->summary_arena, &ds->summary, NULL);
        pqt_mem_free(path);
        if (st != PQT_OK) return st;
        ds->has_summary = true;
        ds->summary_read = !replayed;
        ds->schema_from = "_metadata";
        src = &ds->summary;
    }
    if (l->has_common_metadata) {
        path = join(l->root, "_common_metadata");
        if (!path) return pqt_err(PQT_NOMEM, "out of memory opening %s", ds->spec);
        st = read_footer_path(ds, ds->snap ? &ds->snap->common : NULL, path, &ds->arena,
                              &common, NULL);
        pqt_mem_free(path);
        if (st != PQT_OK) return st;
        ds->schema_from = "_common_metadata";
        src = &common;
    }
    if (!src) {
        if (l->n == 0)
            return pqt_err(PQT_NOT_FOUND, "%s: no Parquet files (*.parquet) found", ds->spec);
        int64_t first = 0;
        while (first < l->n - 1 && !ds->member_kept[first])
            first++;
        bool replayed = pqt_snap_replays(ds->snap, ds->snap ? &ds->snap->member[first] : NULL);
        st = read_footer_path(ds, ds->snap ? &ds->snap->member[first] : NULL,
                              pqt_ioset_path(ds->set, first), &ds->member_arena[first],
                              &ds->member_meta[first], &ds->member_size[first]);
        if (st != PQT_OK) return st;
        ds->footers_read += !replayed;
        ds->schema_from = pqt_ioset_path(ds->set, first);
        src = &ds->member_meta[first];
    }
    return build_schema(ds, src, binary_as_string);
}

pqt_status pqt_file_open_dataset(const char *spec, const char *const *paths, int64_t npaths,
                                 const pqt_opts *opts, pqt_file **ret)
{
    return pqt_file_open_dataset_snap(spec, paths, npaths, opts, NULL, ret);
}

/* The listing: the snapshot's when it replays one, else walked (and recorded). */
static pqt_status list_members(pqt_file_ds *ds, const char *spec, const char *const *paths,
                               int64_t npaths)
{
    pqt_snap *s = ds->snap;
    if (s && !s->recording) {
        if (!s->have_list)
            return pqt_err(PQT_MISUSE, "%s: the metadata snapshot is of a single file, not a "
                                       "dataset",
                           ds->spec);
        pqt_buf b = {0};
        size_t used;
        pqt_status st = pqt_ds_list_encode(&s->list, &b);
        if (st == PQT_OK) st = pqt_ds_list_decode(b.data, b.len, &used, &ds->list);
        pqt_buf_free(&b);
        return st;
    }
    PQT_TRY(paths ? pqt_ds_list_paths(paths, npaths, ds->hive, &ds->list)
                  : pqt_ds_list_open(spec, ds->hive, &ds->list));
    return s ? pqt_snap_set_list(s, &ds->list) : PQT_OK;
}

pqt_status pqt_file_open_dataset_snap(const char *spec, const char *const *paths,
                                      int64_t npaths, const pqt_opts *opts, pqt_snap *snap,
                                      pqt_file **ret)
{
    pqt_file_ds *ds = pqt_calloc(1, sizeof *ds);
    pqt_file *f = pqt_calloc(1, sizeof *f);
    if (ds) atomic_init(&ds->refs, 1);
    if (ds) ds->spec = pqt_strdup(spec ? spec : "(list of files)");
    if (!ds || !f || !ds->spec) {
        ds_free(ds);
        pqt_mem_free(f);
        return pqt_err(PQT_NOMEM, "out of memory opening %s", spec ? spec : "a list of files");
    }
    ds->hive = !(opts && opts->hive_off);
    ds->union_by_name = opts && opts->union_by_name;
    pqt_opts_remote(opts, &ds->remote);
    ds->remote.tally = &ds->net;
    f->ds = ds;
    f->path = ds->spec;
    f->threads = opts ? opts->threads : 0;
    f->verify_crc = opts ? opts->verify_crc : true;
    f->binary_as_string = opts ? opts->binary_as_string : false;
    ds->snap = snap;
    pqt_status st = list_members(ds, spec, paths, npaths);
    if (st == PQT_OK) st = make_set(ds);
    int64_t n = ds->list.n;
    if (st == PQT_OK) {
        ds->member_arena = pqt_calloc((size_t)n + 1, sizeof *ds->member_arena);
        ds->member_meta = pqt_calloc((size_t)n + 1, sizeof *ds->member_meta);
        ds->member_size = pqt_malloc_array((size_t)n + 1, sizeof *ds->member_size);
        ds->member_rows = pqt_calloc((size_t)n + 1, sizeof *ds->member_rows);
        ds->member_row0 = pqt_calloc((size_t)n + 1, sizeof *ds->member_row0);
        ds->member_kept = pqt_calloc((size_t)n + 1, sizeof *ds->member_kept);
        if (!ds->member_arena || !ds->member_meta || !ds->member_size || !ds->member_rows ||
            !ds->member_row0 || !ds->member_kept)
            st =
                pqt_err(PQT_NOMEM, "out of memory opening %s (%lld files)", ds->spec, (long long)n);
        for (int64_t i = 0; st == PQT_OK && i < n; i++) {
            ds->member_size[i] = -1;
            ds->member_kept[i] = true;
        }
    }
    /* A slice numbers the rows of every file, so it needs every footer: files are pruned
     * only without one. PQT_OPT_PUSHDOWN_STATS 0 turns the pruning off too. */
    bool prune = opts && !(opts->pushdown_off & 1u) && opts->row_lo == 0 && opts->row_hi == 0;
    if (st == PQT_OK && prune) st = prune_hive(ds, opts->filter);
    if (st == PQT_OK && prune) prune_cones(ds, opts->filter);
    if (st == PQT_OK) st = learn_schema(ds, f->binary_as_string);
    if (st == PQT_OK) st = pqt_io_open_mem("", 0, ds->spec, &f->io);
    if (st != PQT_OK) {
        pqt_file_close(f);
        return st;
    }
    f->meta = ds->meta;
    f->schema = ds->schema;
    pqt_schema_set_int96_unit(
        &f->schema, opts && opts->int96_unit_plus1 ? opts->int96_unit_plus1 - 1 : PQT_UNIT_NANOS);
    *ret = f;
    return PQT_OK;
}

bool pqt_file_is_dataset(const pqt_file *f)
{
    return f && f->ds;
}
int64_t pqt_file_ds_nmembers(const pqt_file *f)
{
    return f->ds ? f->ds->list.n : 0;
}
const char *pqt_file_ds_member(const pqt_file *f, int64_t i)
{
    return f->ds->list.rel[i];
}

bool pqt_file_ds_hive_value(const pqt_file *f, int col, int64_t i, const char **value)
{
    const pqt_file_ds *ds = f->ds;
    if (!ds || col < 0 || col >= f->schema.ncols) return false;
    int leaf = f->schema.cols[col].leaf_schema_idx, first = ds->meta.nschema - ds->nhive;
    if (leaf < first) return false;
    const char *name = ds->meta.schema[leaf].name;
    const pqt_ds_list *l = &ds->list;
    *value = NULL;
    for (int k = 0; k < l->nkeys; k++)
        if (strcmp(l->keys[k], name) == 0) *value = l->values[i * l->nkeys + k];
    return true;
}

int64_t pqt_file_ds_rg_member(const pqt_file *f, int rg)
{
    return f->ds && f->ds->merged ? f->ds->rg_member[rg] : 0;
}

int64_t pqt_file_rg_file_row0(const pqt_file *f, int rg)
{
    const pqt_row_group *g = &f->meta.row_groups[rg];
    if (!f->ds || !f->ds->merged) return g->first_row;
    return g->first_row - f->ds->member_row0[f->ds->rg_member[rg]];
}

bool pqt_file_ds_hats(const pqt_file *f, const char **ra, const char **dec)
{
    if (!f->ds || !f->ds->list.is_hats) return false;
    *ra = f->ds->list.hats_ra;
    *dec = f->ds->list.hats_dec;
    return true;
}

void pqt_file_ds_member_pixel(const pqt_file *f, int64_t i, int *order, int64_t *pix)
{
    *order = f->ds->list.hats_order[i];
    *pix = f->ds->list.hats_pix[i];
}

void pqt_file_net_counts(const pqt_file *f, pqt_io_net_counts *ret)
{
    if (f && f->ds)
        pqt_io_net_tally_get(&f->ds->net, ret);
    else
        pqt_io_net_counts_get(f ? pqt_file_read_src(f).io : NULL, ret);
}

pqt_ds_counts pqt_file_ds_counts(const pqt_file *f)
{
    pqt_ds_counts c = {0};
    if (f && !f->ds) { /* one file: its footer, unless a snapshot gave it */
        c.files = 1;
        c.footers_read = !f->footer_replayed;
    }
    if (!f || !f->ds) return c;
    c.files = f->ds->list.n;
    c.files_pruned_partition = f->ds->files_pruned_partition;
    c.footers_read = f->ds->footers_read;
    c.summary_used = f->ds->summary_read;
    return c;
}

bool pqt_file_ds_healpix_col(const pqt_file *f, const char **name, int *order)
{
    if (!f->ds || !f->ds->list.is_hats) return false;
    const pqt_ds_list *l = &f->ds->list;
    *name = l->hats_healpix ? l->hats_healpix : "_healpix_29";
    *order = l->hats_healpix_order >= 0 ? l->hats_healpix_order : 29;
    return true;
}

bool pqt_file_ds_member_kept(const pqt_file *f, int64_t i)
{
    return f->ds && f->ds->member_kept[i];
}
