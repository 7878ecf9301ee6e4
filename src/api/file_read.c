/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_read.c - reading a column over a row range, pqt_array, and LIST width discovery
 * (layer: api).
 *
 * A range read allocates the destination once at the range's size and decodes each
 * covering row group straight into its place under a one-run selection, so a slice that
 * is not aligned to row groups is trimmed inside the decoder. Fixed-width scalar columns
 * decode their row groups in parallel (OpenMP) when threads allow; strings and lists
 * append and so go in order.
 */
#include <stdio.h>
#include <string.h>

#include "api/file_int.h"
#include "column/column.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/par.h"

pqt_status pqt_file_check_readable(const pqt_file *f, int col)
{
    if (!f) return pqt_err(PQT_MISUSE, "file handle is NULL");
    if (col < 0 || col >= f->schema.ncols)
        return pqt_err(PQT_NOT_FOUND, "%s: no column %d (the file has %d)", f->path, col,
                       f->schema.ncols);
    const pqt_col *c = &f->schema.cols[col];
    if (c->elem_kind == PQT_NONE)
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' cannot be read: %s (physical %s%s%s)",
                       f->path, c->path, c->why_unsupported ? c->why_unsupported : "unsupported",
                       c->physical, c->logical[0] ? ", logical " : "", c->logical);
    return PQT_OK;
}

static pqt_status check_range(const pqt_file *f, int64_t lo, int64_t hi)
{
    if (lo < 1 || hi > f->meta.num_rows || lo > hi)
        return pqt_err(PQT_RANGE, "%s: rows %lld..%lld requested, the file has %lld rows",
                       f->path, (long long)lo, (long long)hi, (long long)f->meta.num_rows);
    return PQT_OK;
}

pqt_read_src pqt_file_read_src(const pqt_file *f)
{
    return (pqt_read_src){f->io,        f->path,   f->file_size, &f->meta,
                          f->verify_crc, f->oindex, pqt_file_members(f)};
}

pqt_status pqt_file_read_colbuf(pqt_file *f, const pqt_col *c, int64_t lo, int64_t hi,
                                pqt_read_counters *counters, pqt_colbuf *b,
                                void *borrowed_data)
{
    /* A range is one run per covering row group: the selection read does the rest. Only
     * the covering row groups are set up, so reading a file row group by row group stays
     * linear in its row groups. */
    int rg0, n;
    pqt_plan_range_groups(&f->meta, lo, hi, &rg0, &n);
    pqt_sel *sels = pqt_calloc((size_t)n + 1, sizeof *sels);
    int64_t *dst_row = pqt_calloc((size_t)n + 1, sizeof *dst_row);
    pqt_status st = sels && dst_row ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
    if (st == PQT_OK) st = pqt_plan_range_sels(&f->meta, rg0, n, lo, hi, sels, dst_row);
    if (st == PQT_OK) {
        pqt_read_req rq = {.src = pqt_file_read_src(f),
                           .col = c,
                           .rg0 = rg0,
                           .nrg = n,
                           .sels = sels,
                           .dst_row = dst_row,
                           .nrows = hi - lo,
                           .threads = pqt_par_threads(f->threads),
                           .counters = counters,
                           .borrowed_data = borrowed_data};
        st = pqt_read_column(&rq, b);
    }
    for (int i = 0; sels && i < n; i++) pqt_sel_free(&sels[i]);
    pqt_mem_free(sels);
    pqt_mem_free(dst_row);
    return st;
}

pqt_status pqt_file_will_read(pqt_file *f, const int *cols, int ncols, int64_t lo, int64_t hi)
{
    if (!f || ncols < 0 || (ncols > 0 && !cols))
        return pqt_err(PQT_MISUSE, "pqt_file_will_read: NULL file or columns, or ncols < 0");
    for (int k = 0; k < ncols; k++)
        if (cols[k] < 0 || cols[k] >= f->schema.ncols)
            return pqt_err(PQT_MISUSE, "%s: pqt_file_will_read: column %d out of range 0..%d",
                           f->path, cols[k], f->schema.ncols - 1);
    PQT_TRY(check_range(f, lo, hi));
    pqt_read_src src = pqt_file_read_src(f);
    if (ncols == 0 || !src.io || !src.io->ops || src.members) return PQT_OK; /* local */
    int rg0, n;
    pqt_plan_range_groups(&f->meta, lo - 1, hi, &rg0, &n);
    pqt_sel *sels = pqt_calloc((size_t)n + 1, sizeof *sels);
    int64_t *dst_row = pqt_calloc((size_t)n + 1, sizeof *dst_row);
    pqt_read_req *rqs = pqt_calloc((size_t)ncols, sizeof *rqs);
    /* a hint that cannot be made costs only the requests it would have saved */
    if (sels && dst_row && rqs &&
        pqt_plan_range_sels(&f->meta, rg0, n, lo - 1, hi, sels, dst_row) == PQT_OK) {
        int m = 0;
        for (int k = 0; k < ncols; k++) {
            const pqt_col *c = &f->schema.cols[cols[k]];
            if (c->elem_kind == PQT_NONE) continue;
            rqs[m++] = (pqt_read_req){.src = src, .col = c, .rg0 = rg0, .nrg = n, .sels = sels,
                                      .dst_row = dst_row, .nrows = hi - lo + 1};
        }
        pqt_read_hint(rqs, m);
    }
    for (int i = 0; sels && i < n; i++) pqt_sel_free(&sels[i]);
    pqt_mem_free(sels);
    pqt_mem_free(dst_row);
    pqt_mem_free(rqs);
    return PQT_OK;
}

/* Read rows lo..hi of column col as described by c (the schema's column, or a copy of it
 * with another conversion). */
static pqt_status read_array(pqt_file *f, int col, const pqt_col *c, int64_t lo, int64_t hi,
                             pqt_array **ret)
{
    pqt_array *a = pqt_calloc(1, sizeof *a);
    if (!a) return pqt_err(PQT_NOMEM, "out of memory");
    pqt_status st = pqt_file_read_colbuf(f, c, lo - 1, hi, NULL, &a->buf, NULL);
    if (st != PQT_OK) {
        pqt_mem_free(a);
        return st;
    }
    a->nrows = hi - lo + 1;
    a->kind = c->elem_kind;
    a->width = 1;
    if (c->is_list) {
        int w = pqt_colbuf_uniform_width(&a->buf);
        if (w > 0) {
            a->kind |= PQT_VECTOR;
            a->width = w;
        } else {
            a->kind |= PQT_LIST;
            a->width = 0;
        }
        /* a whole-file read settles the width as a side effect */
        if (lo == 1 && hi == f->meta.num_rows && f->list_width[col] == 0)
            f->list_width[col] = w > 0 ? w : -1;
    }
    *ret = a;
    return PQT_OK;
}

pqt_status pqt_file_read(pqt_file *f, int col, int64_t lo, int64_t hi, pqt_array **ret)
{
    PQT_TRY(pqt_file_check_readable(f, col));
    PQT_TRY(check_range(f, lo, hi));
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_file_read: ret is NULL");
    return read_array(f, col, &f->schema.cols[col], lo, hi, ret);
}

pqt_status pqt_file_column_decimal(const pqt_file *f, int col, int *precision_ret,
                                   int *scale_ret)
{
    if (!f || col < 0 || col >= f->schema.ncols)
        return pqt_err(PQT_MISUSE, "pqt_file_column_decimal: column %d out of range", col);
    const pqt_col *c = &f->schema.cols[col];
    if (c->conv != PQT_CONV_DECIMAL)
        return pqt_err(PQT_KIND, "%s: column '%s' is not a DECIMAL (physical %s%s%s)", f->path,
                       c->path, c->physical, c->logical[0] ? ", logical " : "", c->logical);
    if (precision_ret) *precision_ret = c->decimal_precision;
    if (scale_ret) *scale_ret = c->decimal_scale;
    return PQT_OK;
}

pqt_status pqt_file_decimal_col(const pqt_file *f, int col, pqt_col *out)
{
    const pqt_col *c = &f->schema.cols[col];
    if (c->conv != PQT_CONV_DECIMAL)
        return pqt_err(PQT_KIND, "%s: column '%s' is not a DECIMAL (physical %s%s%s)", f->path,
                       c->path, c->physical, c->logical[0] ? ", logical " : "", c->logical);
    if (c->decimal_precision > 38 || c->decimal_precision < 1)
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' is DECIMAL with precision %d: "
                                             "unscaled values are given up to precision 38",
                       f->path, c->path, (int)c->decimal_precision);
    *out = *c;
    out->conv = PQT_CONV_DECIMAL_UNSCALED;
    out->elem_kind = c->decimal_precision <= 18 ? PQT_INT64 : PQT_INT128;
    if (out->kind != PQT_NONE) out->kind = (out->kind & ~0x1f) | out->elem_kind;
    return PQT_OK;
}

pqt_status pqt_file_read_decimal(pqt_file *f, int col, int64_t lo, int64_t hi, pqt_array **ret)
{
    PQT_TRY(pqt_file_check_readable(f, col));
    PQT_TRY(check_range(f, lo, hi));
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_file_read_decimal: ret is NULL");
    pqt_col dc;
    PQT_TRY(pqt_file_decimal_col(f, col, &dc));
    return read_array(f, col, &dc, lo, hi, ret);
}

pqt_status pqt_file_read_into(pqt_file *f, int col, int64_t lo, int64_t hi, void *data,
                              size_t data_nbytes, uint8_t *validity)
{
    PQT_TRY(pqt_file_check_readable(f, col));
    PQT_TRY(check_range(f, lo, hi));
    const pqt_col *c = &f->schema.cols[col];
    if (c->is_list || PQT_KIND_IS_BYTES(c->elem_kind))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s; pqt_file_read_into takes fixed-width "
                                 "scalar columns (use pqt_file_read)",
                       f->path, c->path, c->is_list ? "a list" : "string");
    int64_t n = hi - lo + 1;
    size_t esz = pqt_kind_elem_nbytes(c->elem_kind);
    if (!data || data_nbytes < (size_t)n * esz)
        return pqt_err(PQT_MISUSE, "%s: column '%s': destination holds %zu bytes, %lld rows of "
                                   "%s need %zu",
                       f->path, c->path, data_nbytes, (long long)n, pqt_kind_name(c->elem_kind),
                       (size_t)n * esz);
    /* Decode straight into the caller's memory: a colbuf whose data is borrowed. Without
     * a validity to fill, none is built: null rows are 0 either way, and a bitmap of its
     * own, fresh memory every call, cost a page fault per 32,768 rows. */
    pqt_colbuf b;
    pqt_col no_bitmap = *c;
    if (!validity) no_bitmap.nullable = false;
    PQT_TRY(pqt_file_read_colbuf(f, &no_bitmap, lo - 1, hi, NULL, &b, data));
    if (validity) {
        size_t vb = (size_t)(n + 7) / 8;
        if (b.validity) memcpy(validity, b.validity, vb);
        else {
            memset(validity, 0xff, vb);
            if (n & 7) validity[vb - 1] = (uint8_t)((1u << (n & 7)) - 1);
        }
    }
    pqt_colbuf_free(&b);
    return PQT_OK;
}

/* The width a writer declared for a vector column of a file without rows: the key-value entry
 * column.<path>.col_size (docs/writing.md), a positive integer; else 0. Only consulted when
 * there are no rows, so it can never contradict the data. */
static int declared_width(const pqt_file *f, const pqt_col *c)
{
    for (int rg = 0; rg < f->meta.n_row_groups; rg++)
        if (f->meta.row_groups[rg].num_rows > 0) return 0;
    char key[600];
    int kn = snprintf(key, sizeof key, "column.%s.col_size", c->path);
    if (kn < 0 || (size_t)kn >= sizeof key) return 0;
    for (int i = 0; i < f->meta.nkv; i++) {
        const pqt_kv *e = &f->meta.kv[i];
        if (!e->key || !e->value || e->key_len != (uint32_t)kn || memcmp(e->key, key, (size_t)kn) != 0)
            continue;
        int64_t v = 0;
        uint32_t k = 0;
        for (; k < e->value_len && e->value[k] >= '0' && e->value[k] <= '9' && v <= INT32_MAX; k++)
            v = v * 10 + (e->value[k] - '0');
        return k > 0 && k == e->value_len && v >= 1 && v <= INT32_MAX ? (int)v : 0;
    }
    return 0;
}

pqt_status pqt_file_list_width(pqt_file *f, int col, int measure, int *w_ret)
{
    *w_ret = f->list_width[col];
    if (*w_ret != 0) return PQT_OK;
    const pqt_col *c = &f->schema.cols[col];
    pqt_read_src src = pqt_file_read_src(f);
    int w;
    PQT_TRY(pqt_read_list_width(&src, c, NULL, pqt_par_threads(f->threads), measure, NULL, &w));
    if (w == PQT_READ_WIDTH_NO_ROWS) { /* no rows to measure: the writer's word */
        int dw = declared_width(f, c);
        w = dw > 0 ? dw : -1;
    }
    if (w != 0) f->list_width[col] = w; /* 0: only the data can tell, not read */
    *w_ret = w;
    return PQT_OK;
}

int pqt_file_list_width_discover(pqt_file *f, int col)
{
    int w;
    return pqt_file_list_width(f, col, 1, &w) == PQT_OK ? w : -2;
}

void pqt_array_free(pqt_array *a)
{
    if (!a) return;
    pqt_colbuf_free(&a->buf);
    pqt_mem_free(a);
}

int pqt_array_kind(const pqt_array *a) { return a ? a->kind : PQT_NONE; }
int pqt_array_width(const pqt_array *a) { return a ? a->width : 0; }
int64_t pqt_array_nrows(const pqt_array *a) { return a ? a->nrows : 0; }
const void *pqt_array_data(const pqt_array *a) { return a ? a->buf.data : NULL; }
const uint8_t *pqt_array_validity(const pqt_array *a) { return a ? a->buf.validity : NULL; }
const uint8_t *pqt_array_row_validity(const pqt_array *a) { return a ? a->buf.row_validity : NULL; }
const int64_t *pqt_array_str_offsets(const pqt_array *a) { return a ? a->buf.str_offsets : NULL; }

const char *pqt_array_bytes(const pqt_array *a)
{
    if (!a || !a->buf.str_offsets) return NULL;
    return a->buf.str_bytes.data ? (const char *)a->buf.str_bytes.data : "";
}

const int64_t *pqt_array_list_offsets(const pqt_array *a)
{
    if (!a || !a->buf.is_list) return NULL;
    return a->buf.list_offsets;
}
