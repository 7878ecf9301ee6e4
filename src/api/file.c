/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file.c - the low-level public API: options, footer-only open, column metadata,
 * row-group bounds (layer: api). Reads live in file_read.c. A handle reads one source
 * (util/io.h): a path, a caller's descriptor or a caller's memory.
 */
#include <string.h>

#include "api/file_ds.h"
#include "api/file_int.h"
#include "api/snapshot.h"
#include "format/footer.h"
#include "maml/maml.h"
#include "scan/filter.h"
#include "scan/qc.h"
#include "scan/sort_spec.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/suggest.h"

pqt_status pqt_opts_new(pqt_opts **ret)
{
    pqt_opts *o = pqt_calloc(1, sizeof *o);
    if (!o) return pqt_err(PQT_NOMEM, "out of memory creating options");
    o->threads = 0;
    o->verify_crc = true;
    *ret = o;
    return PQT_OK;
}

void pqt_opts_free(pqt_opts *opts)
{
    if (!opts) return;
    pqt_filter_free(opts->filter);
    pqt_qc_free(opts->qc);
    if (opts->sort) pqt_sort_spec_free(opts->sort);
    pqt_mem_free(opts->sort);
    pqt_maml_unref(opts->maml);
    pqt_mem_free(opts);
}

/* Append (replace = false) or set the sort keys of text; a failure leaves o as it was. */
static pqt_status opts_sort(pqt_opts *o, const char *text, bool replace, const char *call)
{
    pqt_sort_spec *s = pqt_calloc(1, sizeof *s);
    if (!s) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    pqt_status st = PQT_OK;
    if (!replace && o->sort) st = pqt_sort_spec_copy(s, o->sort);
    bool empty = true;
    for (const char *p = text; *p && empty; p++) empty = *p == ' ' || *p == '\t';
    if (st == PQT_OK && !(replace && empty)) st = pqt_sort_spec_parse(s, text, call);
    if (st != PQT_OK) {
        pqt_sort_spec_free(s);
        pqt_mem_free(s);
        return st;
    }
    if (o->sort) pqt_sort_spec_free(o->sort);
    pqt_mem_free(o->sort);
    if (s->nkeys == 0) {
        pqt_mem_free(s);
        s = NULL;
    }
    o->sort = s;
    return PQT_OK;
}

pqt_status pqt_opts_set_sort(pqt_opts *o, const char *keys)
{
    if (!o) return pqt_err(PQT_MISUSE, "pqt_opts_set_sort: options handle is NULL");
    return opts_sort(o, keys ? keys : "", true, "pqt_opts_set_sort");
}

pqt_status pqt_opts_set_str(pqt_opts *o, pqt_opt opt, const char *value)
{
    if (!o || !value)
        return pqt_err(PQT_MISUSE, "pqt_opts_set_str: %s is NULL", o ? "value" : "options handle");
    if (opt == PQT_OPT_SORT) return opts_sort(o, value, false, "pqt_opts_set_str(PQT_OPT_SORT)");
    if (opt != PQT_OPT_FILTER)
        return pqt_err(PQT_MISUSE, "pqt_opts_set_str: option %d takes no text", (int)opt);
    bool fresh = !o->filter;
    if (fresh) PQT_TRY(pqt_filter_new(&o->filter));
    pqt_status st = pqt_filter_add(o->filter, value);
    if (st != PQT_OK && fresh) { /* a failed set leaves opts as it was */
        pqt_filter_free(o->filter);
        o->filter = NULL;
    }
    return st;
}

pqt_status pqt_opts_set_filter(pqt_opts *o, const pqt_filter *filter)
{
    if (!o) return pqt_err(PQT_MISUSE, "pqt_opts_set_filter: options handle is NULL");
    pqt_filter *copy = NULL;
    if (filter) PQT_TRY(pqt_scan_filter_copy(filter, &copy));
    pqt_filter_free(o->filter);
    o->filter = copy;
    return PQT_OK;
}

pqt_status pqt_opts_set_qc(pqt_opts *o, const pqt_qc *qc)
{
    if (!o) return pqt_err(PQT_MISUSE, "pqt_opts_set_qc: options handle is NULL");
    pqt_qc *copy = NULL;
    PQT_TRY(pqt_scan_qc_copy(qc, &copy));
    pqt_qc_free(o->qc);
    o->qc = copy;
    return PQT_OK;
}

pqt_status pqt_opts_set_double(pqt_opts *o, pqt_opt opt, double v)
{
    if (!o) return pqt_err(PQT_MISUSE, "pqt_opts_set_double: options handle is NULL");
    if (opt != PQT_OPT_SAMPLE_FRACTION)
        return pqt_err(PQT_MISUSE, "pqt_opts_set_double: option %d takes no double (only "
                                   "PQT_OPT_SAMPLE_FRACTION does)",
                       (int)opt);
    /* written as !(v >= 0) so that NaN is refused too */
    if (!(v >= 0)) {
        char text[40];
        pqt_format_float64(v, text, sizeof text);
        return pqt_err(PQT_MISUSE, "PQT_OPT_SAMPLE_FRACTION = %s: a sample fraction is >= 0 "
                                   "(0 keeps no row, 1 or more keeps every row)",
                       text);
    }
    o->sample_set = true;
    o->sample_fraction = v;
    return PQT_OK;
}

pqt_status pqt_opts_set_int(pqt_opts *o, pqt_opt opt, int64_t v)
{
    if (!o) return pqt_err(PQT_MISUSE, "options handle is NULL");
    switch (opt) {
    case PQT_OPT_THREADS:
        if (v < 0 || v > 4096) return pqt_err(PQT_MISUSE, "threads must be 0..4096, got %lld", (long long)v);
        o->threads = (int)v;
        return PQT_OK;
    case PQT_OPT_VERIFY_CRC:
        o->verify_crc = v != 0;
        return PQT_OK;
    case PQT_OPT_BINARY_AS_STRING:
        o->binary_as_string = v != 0;
        return PQT_OK;
    /* Rows are 1-based: 0 is not a way to say "unset" (an unset bound is never set), so a
     * bound below 1 is refused here rather than silently meaning the whole file. */
    case PQT_OPT_ROW_LO:
        if (v < 1)
            return pqt_err(PQT_MISUSE, "PQT_OPT_ROW_LO = %lld: rows are 1-based, the first row is "
                                       "1 (leave the option unset to start at row 1)",
                           (long long)v);
        o->row_lo = v;
        return PQT_OK;
    case PQT_OPT_ROW_HI:
        if (v < 1)
            return pqt_err(PQT_MISUSE, "PQT_OPT_ROW_HI = %lld: rows are 1-based, the last row is "
                                       "at least 1 (leave the option unset to end at the last row)",
                           (long long)v);
        o->row_hi = v;
        return PQT_OK;
    case PQT_OPT_INT96_UNIT:
        if (v < PQT_UNIT_MILLIS || v > PQT_UNIT_NANOS)
            return pqt_err(PQT_MISUSE, "PQT_OPT_INT96_UNIT must be a pqt_time_unit (0..2), "
                                       "got %lld",
                           (long long)v);
        o->int96_unit_plus1 = (int)v + 1;
        return PQT_OK;
    case PQT_OPT_FILTER:
        return pqt_err(PQT_MISUSE, "PQT_OPT_FILTER is text: set it with pqt_opts_set_str");
    case PQT_OPT_SORT:
        return pqt_err(PQT_MISUSE, "PQT_OPT_SORT is text: set it with pqt_opts_set_str or "
                                   "pqt_opts_set_sort");
    case PQT_OPT_LIMIT:
        if (v < 0 || v == INT64_MAX)
            return pqt_err(PQT_MISUSE, "PQT_OPT_LIMIT = %lld: the row limit must be >= 0",
                           (long long)v);
        o->limit_plus1 = v + 1;
        return PQT_OK;
    case PQT_OPT_PUSHDOWN_STATS:
    case PQT_OPT_PUSHDOWN_PAGE_INDEX:
    case PQT_OPT_PUSHDOWN_DICTIONARY:
    case PQT_OPT_PUSHDOWN_BLOOM:
    case PQT_OPT_PUSHDOWN_ADAPTIVE: {
        if (v != 0 && v != 1)
            return pqt_err(PQT_MISUSE, "pushdown option %d takes 1 (on) or 0 (off), got %lld",
                           (int)opt, (long long)v);
        unsigned bit = 1u << (opt - PQT_OPT_PUSHDOWN_STATS);
        o->pushdown_off = v ? o->pushdown_off & ~bit : o->pushdown_off | bit;
        return PQT_OK;
    }
    case PQT_OPT_QC_SOFT:
        if (v != 0 && v != 1)
            return pqt_err(PQT_MISUSE, "PQT_OPT_QC_SOFT takes 0 (hard) or 1 (soft), got %lld",
                           (long long)v);
        o->qc_soft = v != 0;
        return PQT_OK;
    case PQT_OPT_SAMPLE_FRACTION:
        return pqt_err(PQT_MISUSE, "PQT_OPT_SAMPLE_FRACTION is a double: set it with "
                                   "pqt_opts_set_double");
    case PQT_OPT_HIVE:
    case PQT_OPT_UNION_BY_NAME:
        if (v != 0 && v != 1)
            return pqt_err(PQT_MISUSE, "%s takes 0 or 1, got %lld",
                           opt == PQT_OPT_HIVE ? "PQT_OPT_HIVE" : "PQT_OPT_UNION_BY_NAME",
                           (long long)v);
        if (opt == PQT_OPT_HIVE) o->hive_off = v == 0;
        else o->union_by_name = v != 0;
        return PQT_OK;
    case PQT_OPT_SHARE_BY:
        if (v != PQT_SHARE_BYTES && v != PQT_SHARE_ROWS)
            return pqt_err(PQT_MISUSE, "PQT_OPT_SHARE_BY takes PQT_SHARE_BYTES (0) or "
                                       "PQT_SHARE_ROWS (1), got %lld",
                           (long long)v);
        o->share_by_rows = v == PQT_SHARE_ROWS;
        return PQT_OK;
    case PQT_OPT_FILTER_KEEP_BYTES:
        if (v < 0 || v == INT64_MAX)
            return pqt_err(PQT_MISUSE,
                           "PQT_OPT_FILTER_KEEP_BYTES = %lld: the budget must be "
                           ">= 0 bytes (0 keeps no filter column)",
                           (long long)v);
        o->keep_bytes_plus1 = v + 1;
        return PQT_OK;
    case PQT_OPT_REMOTE_FOOTER_HINT:
    case PQT_OPT_REMOTE_COALESCE_GAP:
    case PQT_OPT_REMOTE_COALESCE_MAX:
    case PQT_OPT_REMOTE_IN_FLIGHT:
    case PQT_OPT_REMOTE_RETRIES:
    case PQT_OPT_REMOTE_RETRY_MS:
    case PQT_OPT_REMOTE_TIMEOUT_MS:
    case PQT_OPT_REMOTE_CACHE_BYTES: {
        bool retries = opt == PQT_OPT_REMOTE_RETRIES;
        int64_t hi = opt == PQT_OPT_REMOTE_IN_FLIGHT ? 256 : retries ? 100 : (int64_t)1 << 40;
        if (v < 0 || v > hi)
            return pqt_err(PQT_MISUSE, "remote option %d = %lld: out of range 0..%lld", (int)opt,
                           (long long)v, (long long)hi);
        o->remote[opt - PQT_OPT_REMOTE_FOOTER_HINT] = retries ? v + 1 : v;
        return PQT_OK;
    }
    case PQT_OPT_SAMPLE_SEED: /* every value is one: <= 0 asks the open to draw a seed */
        o->sample_seed = v;
        return PQT_OK;
    }
    return pqt_err(PQT_MISUSE, "unknown option %d", (int)opt);
}

/* parquet-mr up to 1.2.8 left the dictionary page header out of a chunk's
 * total_compressed_size, so its pages run past the recorded end (PARQUET-816; the corpus'
 * nation.dict-malformed.parquet). For files it wrote ("parquet-mr" without a version, or a
 * version below 1.2.9) every chunk may reach 100 bytes further, never past the file. */
void pqt_meta_pad_old_parquet_mr(pqt_file_meta *m, int64_t file_size)
{
    const char *cb = m->created_by;
    if (!cb || strncmp(cb, "parquet-mr", 10) != 0) return;
    int v[3] = {0, 0, 0};
    const char *p = strstr(cb, "version ");
    if (p) {
        p += 8;
        for (int i = 0; i < 3 && *p >= '0' && *p <= '9'; i++) {
            long x = 0;
            while (*p >= '0' && *p <= '9' && x < 100000) x = x * 10 + (*p++ - '0');
            v[i] = (int)x;
            if (*p == '.') p++;
        }
    }
    if (v[0] > 1 || (v[0] == 1 && (v[1] > 2 || (v[1] == 2 && v[2] >= 9)))) return;
    for (int g = 0; g < m->n_row_groups; g++) {
        for (int c = 0; c < m->row_groups[g].ncolumns; c++) {
            pqt_column_meta *cm = &m->row_groups[g].columns[c].meta;
            int64_t start, len;
            pqt_chunk_byte_range(cm, &start, &len);
            if (start < 0 || len < 0 || start > file_size || len > file_size - start) continue;
            int64_t room = file_size - start - len;
            cm->total_compressed_size += room < 100 ? room : 100;
        }
    }
}

static pqt_status file_finish(pqt_file *f, int64_t total);

/* The first read of a file's footer: its last 64 KiB (nearly every footer, in one read). */
#define FOOTER_TAIL_NBYTES ((int64_t)64 * 1024)

pqt_status pqt_file_open_io(pqt_io *io, const pqt_opts *opts, pqt_file **ret)
{
    return pqt_file_open_io_snap(io, opts, NULL, ret);
}

pqt_status pqt_file_open_io_snap(pqt_io *io, const pqt_opts *opts, pqt_snap *snap,
                                 pqt_file **ret)
{
    pqt_file *f = pqt_calloc(1, sizeof *f);
    if (!f) { /* the message first: the name belongs to io */
        pqt_status st = pqt_err(PQT_NOMEM, "out of memory opening %s", io->name);
        pqt_io_unref(io);
        return st;
    }
    f->io = io;
    f->path = io->name;
    f->file_size = io->size;
    f->threads = opts ? opts->threads : 0;
    f->verify_crc = opts ? opts->verify_crc : true;
    f->binary_as_string = opts ? opts->binary_as_string : false;
    const char *path = f->path;
    f->footer_replayed = pqt_snap_replays(snap, snap ? &snap->file : NULL);
    pqt_status st = pqt_snap_footer_io(snap, snap ? &snap->file : NULL, io,
                                       io->tail_hint > 0 ? io->tail_hint : FOOTER_TAIL_NBYTES,
                                       &f->arena, &f->meta);
    if (st != PQT_OK) goto fail;
    st = pqt_schema_build(&f->meta, f->binary_as_string, &f->arena, &f->schema);
    if (st != PQT_OK) {
        pqt_err_prefix("%s: ", path);
        goto fail;
    }
    pqt_schema_set_int96_unit(&f->schema, opts && opts->int96_unit_plus1
                                              ? opts->int96_unit_plus1 - 1 : PQT_UNIT_NANOS);
    int64_t total = 0;
    for (int i = 0; i < f->meta.n_row_groups; i++) {
        int64_t r = f->meta.row_groups[i].num_rows;
        if (r < 0 || total > INT64_MAX - r) {
            st = pqt_err(PQT_CORRUPT, "%s: row group %d has an invalid row count %lld", path, i + 1,
                         (long long)r);
            goto fail;
        }
        total += r;
    }
    st = file_finish(f, total);
    if (st != PQT_OK) goto fail;
    *ret = f;
    return PQT_OK;
fail:
    pqt_file_close(f);
    return st;
}

/* What an open sets up once the row groups are known (total rows): read hints, list widths,
 * the offset-index cache. */
static pqt_status file_finish(pqt_file *f, int64_t total)
{
    pqt_io *io = f->io;
    const char *path = f->path;
    int64_t largest = 0, largest_unc = 0;
    for (int i = 0; i < f->meta.n_row_groups; i++)
        for (int c = 0; c < f->meta.row_groups[i].ncolumns; c++) {
            const pqt_column_meta *cm = &f->meta.row_groups[i].columns[c].meta;
            if (cm->total_compressed_size > largest && cm->total_compressed_size <= f->file_size)
                largest = cm->total_compressed_size;
            if (cm->total_uncompressed_size > largest_unc) largest_unc = cm->total_uncompressed_size;
        }
    if (f->ds) pqt_ioset_expect(f->ds->set, (size_t)largest, (size_t)largest_unc);
    if (!io->mem) pqt_io_expect_reads(io, (size_t)largest);
    pqt_io_expect_pages(io, (size_t)largest_unc);
    /* The row groups are what can be read; some writers leave FileMetaData.num_rows at 0
     * (repeated_no_annotation.parquet), so their sum is the file's row count. */
    f->meta.num_rows = total;
    f->list_width = pqt_calloc((size_t)f->schema.ncols + 1, sizeof *f->list_width);
    f->oindex = pqt_oindex_cache_new(&f->meta);
    if (!f->list_width || !f->oindex)
        return pqt_err(PQT_NOMEM, "out of memory opening %s", path);
    return PQT_OK;
}

pqt_status pqt_file_ds_finish(pqt_file *f, const bool *keep)
{
    pqt_file_ds *ds = f->ds;
    if (!ds || ds->merged) return PQT_OK;
    pqt_status st = pqt_file_ds_merge(ds, keep, f->threads, f->binary_as_string);
    ds->snap = NULL; /* the open's snapshot lives no longer than the open */
    PQT_TRY(st);
    f->meta = ds->meta;
    int64_t size = 0;
    for (int64_t i = 0; i < ds->list.n; i++)
        if (ds->member_kept[i]) size += ds->member_size[i] >= 0 ? ds->member_size[i] : 0;
    for (int g = 0; g < f->meta.n_row_groups; g++) /* members known only from _metadata */
        if (ds->member_size[ds->rg_member[g]] < 0)
            for (int c = 0; c < f->meta.row_groups[g].ncolumns; c++)
                size += f->meta.row_groups[g].columns[c].meta.total_compressed_size > 0
                            ? f->meta.row_groups[g].columns[c].meta.total_compressed_size
                            : 0;
    f->file_size = size;
    return file_finish(f, f->meta.num_rows);
}

const pqt_chunk_members *pqt_file_members(const pqt_file *f)
{
    return f->ds && f->ds->merged ? &f->ds->members : NULL;
}

void pqt_opts_remote(const pqt_opts *opts, pqt_remote_opts *ret)
{
    *ret = (pqt_remote_opts){0};
    if (!opts) return;
    const int64_t *r = opts->remote;
    *ret = (pqt_remote_opts){.footer_hint = r[0], .coalesce_gap = r[1], .coalesce_max = r[2],
                             .in_flight = (int)r[3], .retries = r[4] ? (int)r[4] - 1 : 0,
                             .retry_ms = r[5], .timeout_ms = r[6], .cache_bytes = r[7]};
    if (r[4] == 1) ret->retries = -1; /* none, as asked */
}

pqt_status pqt_file_source_open(const char *path, const pqt_opts *opts, pqt_io **ret)
{
    pqt_remote_opts ro;
    pqt_opts_remote(opts, &ro);
    return pqt_source_open(path, &ro, ret);
}

pqt_status pqt_file_open(const char *path, const pqt_opts *opts, pqt_file **ret)
{
    if (!path || !ret) return pqt_err(PQT_MISUSE, "pqt_file_open: path and ret must not be NULL");
    if (pqt_file_spec_is_dataset(path)) {
        pqt_file *f;
        PQT_TRY(pqt_file_open_dataset(path, NULL, 0, opts, &f));
        pqt_status st = pqt_file_ds_finish(f, NULL);
        if (st != PQT_OK) {
            pqt_file_close(f);
            return st;
        }
        *ret = f;
        return PQT_OK;
    }
    pqt_io *io;
    PQT_TRY(pqt_file_source_open(path, opts, &io));
    return pqt_file_open_io(io, opts, ret);
}

pqt_status pqt_file_open_fd(int fd, const char *name, const pqt_opts *opts, pqt_file **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_file_open_fd: ret must not be NULL");
    pqt_io *io;
    PQT_TRY(pqt_io_open_fd(fd, name, &io));
    return pqt_file_open_io(io, opts, ret);
}

pqt_status pqt_file_open_mem(const void *data, size_t nbytes, const char *name,
                             const pqt_opts *opts, pqt_file **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_file_open_mem: ret must not be NULL");
    pqt_io *io;
    PQT_TRY(pqt_io_open_mem(data, nbytes, name, &io));
    return pqt_file_open_io(io, opts, ret);
}

pqt_status pqt_file_reopen(const pqt_file *f, const pqt_opts *opts, pqt_file **ret)
{
    if (!f->ds) return pqt_file_open_io(pqt_io_ref(f->io), opts, ret);
    /* a dataset is immutable once merged: the copy shares it */
    pqt_file *g = pqt_calloc(1, sizeof *g);
    if (!g) return pqt_err(PQT_NOMEM, "out of memory opening %s", f->path);
    *g = (pqt_file){.path = f->path, .io = pqt_io_ref(f->io), .file_size = f->file_size,
                    .meta = f->meta, .schema = f->schema, .threads = f->threads,
                    .verify_crc = f->verify_crc, .binary_as_string = f->binary_as_string,
                    .ds = pqt_file_ds_ref(f->ds)};
    atomic_init(&g->paths, NULL);
    (void)opts;
    pqt_status st = file_finish(g, g->meta.num_rows);
    if (st != PQT_OK) {
        pqt_file_close(g);
        return st;
    }
    *ret = g;
    return PQT_OK;
}

void pqt_file_close(pqt_file *f)
{
    if (!f) return;
    pqt_io_unref(f->io);
    pqt_arena_free(&f->arena);
    pqt_mem_free(f->list_width);
    pqt_oindex_cache_free(f->oindex);
    pqt_mem_free(atomic_load(&f->paths));
    pqt_file_ds_unref(f->ds);
    pqt_mem_free(f);
}

const char *pqt_file_path(const pqt_file *f) { return f ? f->path : NULL; }
int64_t pqt_file_nrows(const pqt_file *f) { return f ? f->meta.num_rows : -1; }
int pqt_file_nrow_groups(const pqt_file *f) { return f ? f->meta.n_row_groups : -1; }

int64_t pqt_file_row_group_nrows(const pqt_file *f, int rg)
{
    if (!f || rg < 0 || rg >= f->meta.n_row_groups) return -1;
    return f->meta.row_groups[rg].num_rows;
}

int pqt_file_ncols(const pqt_file *f) { return f ? f->schema.ncols : -1; }

static uint32_t path_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The path index of f (built now if there is none), or NULL: scan. Below 32 columns a scan
 * is as cheap and allocates nothing. */
static const int32_t *paths_get(const pqt_file *f)
{
    int n = f->schema.ncols;
    pqt_file *w = (pqt_file *)f; /* the index is a cache: lookups stay logically const */
    int32_t *ix = atomic_load(&w->paths);
    if (ix || n < 32) return ix;
    uint32_t nb = 64;
    while (nb < 2u * (uint32_t)n && nb < (1u << 30))
        nb *= 2;
    int32_t *mine = pqt_calloc((size_t)nb + (size_t)n + 1, sizeof *mine);
    if (!mine) return NULL;
    mine[0] = (int32_t)nb;
    int32_t *head = mine + 1, *next = mine + 1 + nb;
    for (int i = n - 1; i >= 0; i--) { /* pushed from the back: each chain in column order */
        uint32_t b = path_hash(f->schema.cols[i].path) & (nb - 1);
        next[i] = head[b];
        head[b] = i + 1;
    }
    if (atomic_compare_exchange_strong(&w->paths, &ix, mine)) return mine;
    pqt_mem_free(mine); /* another lookup published first: ix is its index */
    return ix;
}

static const pqt_col *col_at(const pqt_file *f, int col)
{
    if (!f || col < 0 || col >= f->schema.ncols) return NULL;
    return &f->schema.cols[col];
}

pqt_status pqt_file_find_column(const pqt_file *f, const char *path, int *col_ret)
{
    if (!f || !path) return pqt_err(PQT_MISUSE, "pqt_file_find_column: NULL argument");
    const int32_t *ix = paths_get(f);
    if (ix) {
        uint32_t nb = (uint32_t)ix[0];
        const int32_t *head = ix + 1, *next = ix + 1 + nb;
        int found = -1; /* the first column of that path, unless a top-level one follows */
        for (int32_t e = head[path_hash(path) & (nb - 1)]; e; e = next[e - 1]) {
            const pqt_col *c = &f->schema.cols[e - 1];
            if (strcmp(c->path, path) != 0) continue;
            if (found < 0) found = e - 1;
            if (c->top_level) {
                found = e - 1;
                break;
            }
        }
        if (found >= 0) {
            if (col_ret) *col_ret = found;
            return PQT_OK;
        }
    } else {
        /* without the index: a top-level column whose own name contains dots wins over a
         * struct path spelled alike */
        for (int i = 0; i < f->schema.ncols; i++) {
            if (f->schema.cols[i].top_level && strcmp(f->schema.cols[i].path, path) == 0) {
                if (col_ret) *col_ret = i;
                return PQT_OK;
            }
        }
        for (int i = 0; i < f->schema.ncols; i++) {
            if (strcmp(f->schema.cols[i].path, path) == 0) {
                if (col_ret) *col_ret = i;
                return PQT_OK;
            }
        }
    }
    /* Only a failure pays for the suggestion. */
    pqt_suggest sg;
    pqt_suggest_init(&sg, path);
    for (int i = 0; i < f->schema.ncols; i++)
        pqt_suggest_offer(&sg, f->schema.cols[i].path);
    char hint[300];
    return pqt_err(PQT_NOT_FOUND, "%s: no column '%s'%s", f->path, path,
                   pqt_suggest_text(&sg, hint, sizeof hint));
}

const char *pqt_file_column_path(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    return c ? c->path : NULL;
}

int pqt_file_column_nullable(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    return c ? c->nullable : -1;
}

int pqt_file_column_time_unit(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    return c ? c->time_unit : -1;
}

int pqt_file_column_utc(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    return c ? c->utc : -1;
}

const char *pqt_file_column_physical(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    return c ? c->physical : NULL;
}

const char *pqt_file_column_logical(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    return c ? c->logical : NULL;
}

const char *pqt_file_column_unsupported_reason(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    if (!c || c->kind != PQT_NONE) return NULL;
    return c->why_unsupported && c->why_unsupported[0] ? c->why_unsupported : "unsupported";
}

int pqt_file_column_variant(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    return c ? c->variant : 0;
}

int pqt_file_column_kind(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    if (!c) return PQT_NONE;
    if (!c->is_list || c->elem_kind == PQT_NONE) return c->kind;
    int w = pqt_file_list_width_discover((pqt_file *)f, col);
    return c->elem_kind | (w > 0 ? PQT_VECTOR : PQT_LIST);
}

int pqt_file_column_width(const pqt_file *f, int col)
{
    const pqt_col *c = col_at(f, col);
    if (!c) return -1;
    if (!c->is_list) return 1;
    if (c->elem_kind == PQT_NONE) return 0;
    int w = pqt_file_list_width_discover((pqt_file *)f, col);
    return w > 0 ? w : 0;
}

pqt_status pqt_file_column_shape(pqt_file *f, int col, int measure, int *kind_ret,
                                 int *width_ret)
{
    const pqt_col *c = col_at(f, col);
    if (!c)
        return pqt_err(PQT_MISUSE, "pqt_file_column_shape: %s", f ? "column out of range"
                                                                  : "NULL file");
    int kind = c->kind, width = c->is_list ? 0 : 1;
    if (c->is_list && c->elem_kind != PQT_NONE) {
        int w;
        PQT_TRY(pqt_file_list_width(f, col, measure, &w));
        kind = c->elem_kind | (w > 0 ? PQT_VECTOR : PQT_LIST);
        width = w > 0 ? w : w < 0 ? 0 : -1;
    }
    if (kind_ret) *kind_ret = kind;
    if (width_ret) *width_ret = width;
    return PQT_OK;
}

int pqt_file_nkv(const pqt_file *f) { return f ? f->meta.nkv : -1; }

const char *pqt_file_kv_key(const pqt_file *f, int i)
{
    if (!f || i < 0 || i >= f->meta.nkv) return NULL;
    return f->meta.kv[i].key;
}

pqt_status pqt_file_meta_value(const pqt_file *f, const char *key, const char **value_ret)
{
    if (!f || !key) return pqt_err(PQT_MISUSE, "pqt_file_meta_value: NULL argument");
    for (int i = 0; i < f->meta.nkv; i++) {
        if (strcmp(f->meta.kv[i].key, key) == 0) {
            if (value_ret) *value_ret = f->meta.kv[i].value ? f->meta.kv[i].value : "";
            return PQT_OK;
        }
    }
    return PQT_NOT_FOUND;
}

pqt_status pqt_row_group_bounds(const char *path, int64_t **bounds_ret, int *n_ret)
{
    if (!bounds_ret || !n_ret) return pqt_err(PQT_MISUSE, "pqt_row_group_bounds: NULL argument");
    pqt_file *f;
    PQT_TRY(pqt_file_open(path, NULL, &f));
    int n = f->meta.n_row_groups;
    int64_t *b = pqt_malloc_array((size_t)n * 2 + 1, sizeof *b);
    if (!b) {
        pqt_file_close(f);
        return pqt_err(PQT_NOMEM, "out of memory for %d row-group bounds", n);
    }
    int64_t row = 1;
    for (int i = 0; i < n; i++) {
        b[2 * i] = row;
        row += f->meta.row_groups[i].num_rows;
        b[2 * i + 1] = row - 1;
    }
    pqt_file_close(f);
    *bounds_ret = b;
    *n_ret = n;
    return PQT_OK;
}
