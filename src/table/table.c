/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table.c - opening and closing tables and the queries that read nothing (layer: table): the
 * top of the table's files, calling the open's steps below it; the services those steps
 * share (lookup, warnings, holds) are in table_base.c.
 *
 * Opening reads the footer and schema only (pqt_file_open) and builds one slot per file
 * column plus the read plan; no column data is touched. The row index is not a slot until
 * it is first requested (table_rowindex.c).
 */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api/snapshot.h"
#include "maml/maml.h"
#include "table/table_int.h"
#include "util/mem.h"
#include "util/philox.h"
#include "util/suggest.h"

static pqt_status table_alloc(pqt_table **ret)
{
    pqt_table *t = pqt_calloc(1, sizeof *t);
    if (!t) return pqt_err(PQT_NOMEM, "out of memory creating a table");
    t->open_level = omp_get_level();
    t->sample_fraction = 1.0; /* every row, until an open settles a sample */
    atomic_init(&t->owner, 0);
    t->opts.verify_crc = true;
    *ret = t;
    return PQT_OK;
}

pqt_status pqt_table_new(pqt_table **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_table_new: ret is NULL");
    return table_alloc(ret);
}

/* The slot of file column i named name. */
static pqt_status add_file_slot(pqt_table *t, int i, const char *name)
{
    const pqt_col *fc = pqt_file_col(t->f, i);
    pqt_tcol *c;
    PQT_TRY(pqt_tbl_slot_add(t, &c));
    c->name = pqt_strdup(name);
    c->unit = pqt_strdup("");
    if (!c->name || !c->unit)
        return pqt_err(PQT_NOMEM, "out of memory opening %s", pqt_file_path(t->f));
    c->file_col = i;
    c->time_unit = fc->time_unit;
    if (fc->elem_kind == PQT_NONE) {
        c->kind = PQT_NONE;
        c->kind_known = true;
        c->width = 1;
    } else if (fc->is_list) {
        /* settled by pqt_tbl_resolve_kind or by the first read */
        c->kind = fc->elem_kind | PQT_LIST;
        c->width = 0;
        c->kind_known = false;
    } else {
        c->kind = fc->kind;
        c->width = 1;
        c->kind_known = true;
    }
    return PQT_OK;
}

/* Slots per file column, in file order: its own name, or the internal names a MAML's
 * extra: remap: gives it (one slot each, in the MAML's order; docs/maml.md). A file column
 * named like the row index is unreachable under its own name (the name is reserved) and is
 * dropped with a warning, as is one whose own name a remap entry took for another column. */
static pqt_status add_file_slots(pqt_table *t, const pqt_maml *m)
{
    const pqt_schema *s = pqt_file_schema(t->f);
    for (int i = 0; i < s->ncols; i++) {
        const pqt_col *fc = &s->cols[i];
        int lo = 0, hi = 0;
        pqt_maml_remap_targets(m, fc->path, &lo, &hi);
        for (int j = lo; j < hi; j++)
            PQT_TRY(add_file_slot(t, i, m->remap[m->remap_by_file[j]].internal));
        if (hi > lo || pqt_maml_remap_is_internal(m, fc->path)) continue;
        if (strcmp(fc->path, PQT_TBL_ROW_INDEX) == 0) {
            pqt_tbl_warn("%s: the file's own column '%s' is dropped: the name is reserved for "
                         "the row-index column (a MAML's extra: remap: can give it another "
                         "name)",
                         pqt_file_path(t->f), PQT_TBL_ROW_INDEX);
            continue;
        }
        PQT_TRY(add_file_slot(t, i, fc->path));
    }
    return PQT_OK;
}

/* The operations an open applies to the slice's plan, in order (read/plan.h): the filter
 * restricts it, the sample restricts what the filter kept (it draws for survivors only), and
 * a sort orders it (a top-n first keeps the row groups that can hold its rows) or a limit
 * alone cuts it. Each step settles nrows and the extent. A limit without a sort also stops
 * the filter pass once it has found the rows (docs/pruning.md, "A limit stops the pass"). */
static pqt_status plan_at_open(pqt_table *t, const pqt_filter *filter, const pqt_sort_spec *sort,
                               int64_t limit)
{
    pqt_status st = PQT_OK;
    if (pqt_scan_filter_nrules(filter) > 0)
        st = pqt_tbl_filter_at_open(t, filter, sort && sort->nkeys > 0 ? -1 : limit);
    if (st == PQT_OK) st = pqt_tbl_sample_at_open(t);
    if (st == PQT_OK && (sort || limit >= 0)) st = pqt_tbl_sort_at_open(t, sort, limit);
    /* the filter columns the pass kept become resident for the rows and order decided */
    if (st == PQT_OK)
        pqt_tbl_keep_install(t);
    else
        pqt_tbl_keep_drop(t);
    return st;
}

/* The slice of the open's rows (all of them unless PQT_OPT_ROW_LO/HI), as the plan. */
static pqt_status plan_slice_at_open(pqt_table *t, const char *path)
{
    int64_t n = pqt_file_nrows(t->f);
    int64_t lo = 1, hi = n;
    if (t->opts.row_lo != 0 || t->opts.row_hi != 0) {
        lo = t->opts.row_lo != 0 ? t->opts.row_lo : 1;
        hi = t->opts.row_hi != 0 ? t->opts.row_hi : n;
        if (lo < 1 || hi > n || lo > hi)
            return pqt_err(PQT_RANGE,
                           "pqt_table_open: %s: rows %lld..%lld requested, the %s has %lld rows "
                           "(row_lo must be >= 1, row_hi <= %lld, row_lo <= row_hi; nothing is "
                           "clamped)",
                           path, (long long)lo, (long long)hi,
                           pqt_file_is_dataset(t->f) ? "dataset" : "file", (long long)n,
                           (long long)n);
    }
    PQT_TRY(pqt_plan_slice(&t->plan, pqt_file_footer(t->f), lo - 1, hi));
    if (pqt_file_is_dataset(t->f)) PQT_TRY(pqt_tbl_dataset_row_shift(t));
    t->scan_rg_total = pqt_tbl_scan_rg_covered(&t->plan);
    pqt_tbl_plan_settled(t);
    t->nrows_unfiltered = hi - lo + 1;
    t->nrows_known = true;
    t->ri_possible = true;
    return PQT_OK;
}

/* One share of an open for several processes (pqt_table_open_share). */
typedef struct open_share {
    int part, nparts;
} open_share;

/* A share cannot take a sort or a limit: both rank every process's rows together. */
static pqt_status check_share_rules(const pqt_table *t, const pqt_sort_spec *sort,
                                    const pqt_opts *opts)
{
    const char *what = sort ? "a sort" : opts && opts->limit_plus1 > 0 ? "a limit" : NULL;
    if (!what) return PQT_OK;
    return pqt_err(PQT_MISUSE, "pqt_table_open_share: %s: %s at open needs the rows of every "
                               "share at once, which one share does not have; open without "
                               "it (a sort across processes is not available)",
                   pqt_file_path(t->f), what);
}

/* Open a table over the file f (taken over, also on failure): a file whose footer is read,
 * or a dataset whose members' footers are merged here, once the filter has pruned them by
 * their partition values (table_open_dataset.c). share: NULL, or the share to keep. */
static pqt_status table_open_file(pqt_file *f, const pqt_opts *opts, const open_share *share,
                                  pqt_table **ret)
{
    pqt_table *t = NULL;
    pqt_tbl_open_rules rules = {0}; /* a MAML's filter, sort and qc joined with the caller's */
    pqt_status st = table_alloc(&t);
    if (st != PQT_OK) {
        pqt_file_close(f);
        return st;
    }
    if (opts) t->opts = *opts;
    t->opts.filter = NULL; /* the options own it; the plan keeps what the filter decided */
    t->opts.qc = NULL;     /* likewise; the table binds its own copy (t->qc) */
    t->opts.sort = NULL;   /* likewise: the plan's permutation is what the sort decided */
    t->opts.maml = NULL;   /* the table takes its own reference (t->maml) */
    t->threads = t->opts.threads;
    t->f = f;
    const char *path = pqt_file_path(f);
    t->ri_possible = true;
    st = pqt_tbl_maml_check_file(t, opts ? opts->maml : NULL);
    if (st != PQT_OK) goto fail;
    st = add_file_slots(t, opts ? opts->maml : NULL);
    if (st != PQT_OK) goto fail;
    st = pqt_tbl_maml_at_open(t, opts ? opts->maml : NULL);
    if (st != PQT_OK) goto fail;
    st = pqt_tbl_maml_rules(t, opts, &rules);
    if (st != PQT_OK) goto fail;
    const pqt_qc *qc = rules.qc ? rules.qc : opts ? opts->qc : NULL;
    const pqt_filter *filter = rules.filter ? rules.filter : opts ? opts->filter : NULL;
    const pqt_sort_spec *sort = rules.sort ? rules.sort : opts ? opts->sort : NULL;
    if (share) {
        st = check_share_rules(t, sort, opts);
        if (st != PQT_OK) goto fail;
    }
    if (pqt_file_is_dataset(f)) {
        st = pqt_tbl_dataset_at_open(t, filter);
        if (st != PQT_OK) goto fail;
    }
    st = plan_slice_at_open(t, path);
    if (st != PQT_OK) goto fail;
    t->pf_possible = pqt_file_is_dataset(f);
    if (pqt_file_is_dataset(f) && pqt_scan_filter_nrules(filter) > 0) {
        st = pqt_tbl_dataset_healpix(t, filter);
        if (st != PQT_OK) goto fail;
    }
    if (share) {
        st = pqt_tbl_share_at_open(t, filter, share->part, share->nparts, t->opts.share_by_rows);
        if (st != PQT_OK) goto fail;
    }
    st = pqt_tbl_qc_bind(t, qc, opts && opts->qc_soft);
    if (st != PQT_OK) goto fail;
    if (sort) {
        st = pqt_tbl_sort_check(t, sort);
        if (st != PQT_OK) goto fail;
    }
    char share_line[160] = "";
    if (share)
        pqt_tbl_share_line(t, share->part, share->nparts, t->opts.share_by_rows, share_line,
                           sizeof share_line);
    st = plan_at_open(t, filter, sort, opts ? opts->limit_plus1 - 1 : -1);
    if (st == PQT_OK && share) st = pqt_tbl_explain_add(t, share_line);
    if (st == PQT_OK && pqt_file_is_dataset(f)) st = pqt_tbl_dataset_explain(t);
    if (st != PQT_OK) goto fail;
    pqt_tbl_open_rules_free(&rules);
    *ret = t;
    return PQT_OK;
fail:
    pqt_tbl_open_rules_free(&rules);
    pqt_table_close(t);
    return st;
}

/* Open a table over the source io (its reference is taken over, also on failure). */
static pqt_status table_open_io(pqt_io *io, const pqt_opts *opts, pqt_table **ret)
{
    pqt_file *f;
    PQT_TRY(pqt_file_open_io(io, opts, &f));
    return table_open_file(f, opts, NULL, ret);
}

/* A slice refuses a sort before the file is opened: a slice's rows are the ones the caller
 * chose, and a sort orders the whole file's. */
static pqt_status check_slice_sort(const pqt_opts *opts, const char *name)
{
    PQT_TRY(pqt_tbl_maml_slice_check(opts, name));
    if (!opts || !opts->sort || (opts->row_lo == 0 && opts->row_hi == 0)) return PQT_OK;
    return pqt_err(PQT_MISUSE, "pqt_table_open: %s: a slice (PQT_OPT_ROW_LO/PQT_OPT_ROW_HI) "
                               "cannot be sorted: a sort orders the whole file's rows; sort the "
                               "whole file, or the slice afterwards with pqt_table_sort_by",
                   name ? name : "(unnamed)");
}

pqt_status pqt_table_open(const char *path, const pqt_opts *opts, pqt_table **ret)
{
    if (!path || !ret) return pqt_err(PQT_MISUSE, "pqt_table_open: path and ret must not be NULL");
    PQT_TRY(check_slice_sort(opts, path));
    if (pqt_file_spec_is_dataset(path)) {
        pqt_file *f;
        PQT_TRY(pqt_file_open_dataset(path, NULL, 0, opts, &f));
        return table_open_file(f, opts, NULL, ret);
    }
    pqt_io *io;
    PQT_TRY(pqt_file_source_open(path, opts, &io));
    return table_open_io(io, opts, ret);
}

pqt_status pqt_table_open_share(const char *path, const pqt_opts *opts, int part, int nparts,
                                const void *snapshot, size_t snapshot_nbytes,
                                pqt_snapshot_fn on_snapshot, void *user, pqt_table **ret)
{
    if (!path || !ret || nparts < 1 || part < 0 || part >= nparts || (snapshot && on_snapshot))
        return pqt_err(PQT_MISUSE, "pqt_table_open_share: path and ret are required, 0 <= part "
                                   "(%d) < nparts (%d), and a snapshot is either replayed or "
                                   "recorded, not both",
                       part, nparts);
    PQT_TRY(check_slice_sort(opts, path));
    pqt_snap snap = {0};
    if (snapshot) {
        pqt_status st = pqt_snap_decode(snapshot, snapshot_nbytes, &snap);
        if (st != PQT_OK) {
            pqt_err_prefix("pqt_table_open_share: %s: ", path);
            return st;
        }
    }
    snap.recording = on_snapshot != NULL;
    snap.ready = on_snapshot;
    snap.ready_user = user;
    pqt_snap *sp = snapshot || on_snapshot ? &snap : NULL;
    /* a sample whose seed the open draws: the recording open draws it first, so that every
     * open replaying its snapshot draws the same rows */
    pqt_opts o;
    if (opts && opts->sample_set && opts->sample_seed <= 0 && (snapshot || on_snapshot)) {
        o = *opts;
        if (on_snapshot) snap.sample_seed = pqt_philox_fresh_seed();
        if (snap.sample_seed > 0) o.sample_seed = snap.sample_seed;
        opts = &o;
    }
    bool dataset = snapshot ? snap.is_dataset : pqt_file_spec_is_dataset(path);
    pqt_file *f = NULL;
    pqt_status st;
    if (dataset) {
        st = pqt_file_open_dataset_snap(path, NULL, 0, opts, sp, &f);
    } else {
        pqt_io *io;
        st = pqt_file_source_open(path, opts, &io);
        if (st == PQT_OK) st = pqt_file_open_io_snap(io, opts, sp, &f);
        if (st == PQT_OK) st = pqt_snap_send(sp); /* one footer: the others need no more */
        if (st != PQT_OK) pqt_file_close(f);
    }
    open_share share = {part, nparts};
    pqt_table *t = NULL;
    if (st == PQT_OK) st = table_open_file(f, opts, &share, &t);
    if (st == PQT_OK) st = pqt_snap_send(sp); /* a dataset whose merge read no footer */
    if (st != PQT_OK) pqt_table_close(t);
    pqt_snap_free(&snap);
    if (st == PQT_OK) *ret = t;
    return st;
}

pqt_status pqt_table_open_files(const char *const *paths, int64_t n, const pqt_opts *opts,
                                pqt_table **ret)
{
    if (!paths || n < 1 || !ret)
        return pqt_err(PQT_MISUSE, "pqt_table_open_files: paths (n >= 1) and ret must not be "
                                   "NULL");
    for (int64_t i = 0; i < n; i++)
        if (!paths[i])
            return pqt_err(PQT_MISUSE, "pqt_table_open_files: paths[%lld] is NULL", (long long)i);
    PQT_TRY(check_slice_sort(opts, paths[0]));
    pqt_file *f;
    PQT_TRY(pqt_file_open_dataset(NULL, paths, n, opts, &f));
    return table_open_file(f, opts, NULL, ret);
}

pqt_status pqt_table_open_fd(int fd, const char *name, const pqt_opts *opts, pqt_table **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_table_open_fd: ret must not be NULL");
    PQT_TRY(check_slice_sort(opts, name));
    pqt_io *io;
    PQT_TRY(pqt_io_open_fd(fd, name, &io));
    return table_open_io(io, opts, ret);
}

pqt_status pqt_table_open_mem(const void *data, size_t nbytes, const char *name,
                              const pqt_opts *opts, pqt_table **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_table_open_mem: ret must not be NULL");
    PQT_TRY(check_slice_sort(opts, name));
    pqt_io *io;
    PQT_TRY(pqt_io_open_mem(data, nbytes, name, &io));
    return table_open_io(io, opts, ret);
}

void pqt_table_close(pqt_table *t)
{
    if (!t) return;
    pqt_tbl_names_drop(t);
    for (int i = 0; i < t->ncols; i++) pqt_tbl_slot_free(&t->cols[i]);
    pqt_mem_free(t->cols);
    pqt_plan_free(&t->plan);
    pqt_mem_free(t->explain);
    pqt_tbl_qc_free(t->qc);
    pqt_maml_unref(t->maml);
    pqt_file_close(t->f);
    pqt_mem_free(t);
}

int64_t pqt_table_nrows(const pqt_table *t) { return t ? t->nrows : 0; }
int64_t pqt_table_nrows_unfiltered(const pqt_table *t) { return t ? t->nrows_unfiltered : 0; }
int64_t pqt_table_row_group_extent(const pqt_table *t) { return t ? t->rg_extent : 0; }
int pqt_table_ncols(const pqt_table *t) { return t ? t->ncols : 0; }
double pqt_table_sample_fraction(const pqt_table *t) { return t ? t->sample_fraction : 0.0; }
int64_t pqt_table_sample_seed(const pqt_table *t) { return t ? t->sample_seed : 0; }
int pqt_table_is_detached(const pqt_table *t) { return t ? t->detached : 0; }
uint64_t pqt_table_generation(const pqt_table *t) { return t ? t->generation : 0; }

const char *pqt_table_column_name(const pqt_table *t, int i)
{
    if (!t || i < 0 || i >= t->ncols) return NULL;
    return t->cols[i].name;
}

const char *pqt_table_filename(const pqt_table *t)
{
    if (!t) return NULL;
    return t->f ? pqt_file_path(t->f) : "";
}

pqt_status pqt_table_meta_value(const pqt_table *t, const char *key, const char **value_ret)
{
    if (!t || !key) return pqt_err(PQT_MISUSE, "pqt_table_meta_value: NULL argument");
    if (!t->f)
        return pqt_err(PQT_MISUSE, "pqt_table_meta_value: an in-memory table has no file "
                                   "metadata");
    return pqt_file_meta_value(t->f, key, value_ret);
}

/* Lookup for metadata queries: the virtual row index answers as an int64 column. */
static pqt_status query_lookup(const pqt_table *t, const char *call, const char *name, int *ci,
                               bool *virtual_ri)
{
    *virtual_ri = false;
    if (t && name && pqt_tbl_find(t, name) < 0 && strcmp(name, PQT_TBL_ROW_INDEX) == 0 &&
        pqt_table_has_column(t, name)) {
        *virtual_ri = true;
        return PQT_OK;
    }
    return pqt_tbl_lookup(t, call, name, ci);
}

pqt_status pqt_table_kind(pqt_table *t, const char *name, int *kind_ret)
{
    int ci = -1;
    bool vri;
    PQT_TRY(query_lookup(t, "pqt_table_kind", name, &ci, &vri));
    if (vri) {
        if (kind_ret) *kind_ret = PQT_INT64;
        return PQT_OK;
    }
    PQT_TRY(pqt_tbl_resolve_kind(t, ci, "pqt_table_kind"));
    if (kind_ret) *kind_ret = t->cols[ci].kind;
    return PQT_OK;
}

pqt_status pqt_table_width(pqt_table *t, const char *name, int *width_ret)
{
    int ci = -1;
    bool vri;
    PQT_TRY(query_lookup(t, "pqt_table_width", name, &ci, &vri));
    if (vri) {
        if (width_ret) *width_ret = 1;
        return PQT_OK;
    }
    PQT_TRY(pqt_tbl_resolve_kind(t, ci, "pqt_table_width"));
    if (width_ret) *width_ret = t->cols[ci].width;
    return PQT_OK;
}

pqt_status pqt_table_time_unit(const pqt_table *t, const char *name, int *unit_ret)
{
    int ci = -1;
    bool vri;
    PQT_TRY(query_lookup(t, "pqt_table_time_unit", name, &ci, &vri));
    if (unit_ret) *unit_ret = vri ? -1 : t->cols[ci].time_unit;
    return PQT_OK;
}

pqt_status pqt_table_unit(const pqt_table *t, const char *name, const char **unit_ret)
{
    int ci = -1;
    bool vri;
    PQT_TRY(query_lookup(t, "pqt_table_unit", name, &ci, &vri));
    if (unit_ret) *unit_ret = vri ? "" : t->cols[ci].unit;
    return PQT_OK;
}

pqt_status pqt_table_residency(const pqt_table *t, const char *name, int *res_ret)
{
    int ci = -1;
    bool vri;
    PQT_TRY(query_lookup(t, "pqt_table_residency", name, &ci, &vri));
    if (res_ret) *res_ret = vri ? PQT_RES_EMPTY : t->cols[ci].residency;
    return PQT_OK;
}

pqt_status pqt_table_is_supported(const pqt_table *t, const char *name, int *ret)
{
    int ci = -1;
    bool vri;
    PQT_TRY(query_lookup(t, "pqt_table_is_supported", name, &ci, &vri));
    if (ret) *ret = vri ? 1 : t->cols[ci].kind != PQT_NONE;
    return PQT_OK;
}

pqt_status pqt_table_column_index(const pqt_table *t, const char *name, int *index_ret)
{
    const char *call = "pqt_table_column_index";
    if (t && name && pqt_tbl_find(t, name) < 0 && pqt_table_has_column(t, name))
        return pqt_err(PQT_NOT_FOUND, "%s: '%s' has no position yet: the row index is listed "
                                      "only once it has been requested",
                       call, name);
    int ci = -1;
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    if (index_ret) *index_ret = ci;
    return PQT_OK;
}

pqt_status pqt_table_require_columns(const pqt_table *t, const char *const *names, int n)
{
    const char *call = "pqt_table_require_columns";
    if (!t || n < 0 || (n > 0 && !names)) return pqt_err(PQT_MISUSE, "%s: bad arguments", call);
    return pqt_tbl_check_present(t, call, names, n);
}

pqt_status pqt_table_has_nulls(const pqt_table *t, const char *name, int *ret)
{
    int ci = -1;
    bool vri;
    PQT_TRY(query_lookup(t, "pqt_table_has_nulls", name, &ci, &vri));
    int r = 0;
    if (vri) {
        r = 0; /* file rows are never null */
    } else if (t->cols[ci].residency == PQT_RES_FULL) {
        const pqt_colbuf *b = &t->cols[ci].buf;
        for (int64_t e = 0; b->validity && !r && e < b->nelem; e++) r = !pqt_bit_get(b->validity, e);
        for (int64_t i = 0; b->is_list && b->row_validity && !r && i < b->nrows; i++)
            r = !pqt_bit_get(b->row_validity, i);
    } else if (t->cols[ci].file_col >= 0) {
        /* from the footer: 0 only when every covering chunk says it holds no null */
        const pqt_col *fc = pqt_file_col(t->f, t->cols[ci].file_col);
        const pqt_plan *p = &t->plan;
        for (int rg = 0; fc->nullable && !r && rg < p->nrg; rg++) {
            if (p->sel[rg].nsel == 0) continue;
            for (int j = 0; j < fc->nchunk_cols && !r; j++) {
                const pqt_column_chunk *ch =
                    &pqt_file_footer(t->f)->row_groups[rg].columns[fc->chunk_col + j];
                r = !ch->has_meta || !ch->meta.has_stats || !ch->meta.stats.has_null_count ||
                    ch->meta.stats.null_count != 0;
            }
        }
    }
    if (ret) *ret = r;
    return PQT_OK;
}
