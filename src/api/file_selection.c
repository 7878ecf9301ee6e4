/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_selection.c - the public row selection (pqt_selection) and the selective read of one
 * row group, pqt_file_read_selected (layer: api).
 *
 * The filter pass by hand: a program reads a column for the rows still selected, evaluates
 * its own predicate, refines the selection and reads the next column for the survivors only.
 * The selection is the library's own pqt_sel (util/sel.h) behind an opaque handle, with the
 * API's 1-based rows converted here; the read is the table's selective path
 * (the one reader, read/reader.h, over one row group), so pages holding no selected row are skipped
 * before decompression exactly as for a sliced or filtered table. parquet-format: a row
 * group's column chunk, its pages and, for lists, the offset index (PageLocation.first_row_index).
 */
#include <string.h>

#include "api/file_int.h"
#include "util/error.h"
#include "util/mem.h"

struct pqt_selection {
    pqt_sel sel;
};

/* Bitmaps are sized by nrows / 64 words; beyond this the arithmetic could overflow long
 * before any real row group (int32 rows in practice) comes near. */
#define MAX_SEL_NROWS ((int64_t)1 << 62)

static pqt_status check_nrows(const char *fn, int64_t nrows)
{
    if (nrows < 0 || nrows > MAX_SEL_NROWS)
        return pqt_err(PQT_MISUSE, "%s: nrows %lld is outside 0..2^62", fn, (long long)nrows);
    return PQT_OK;
}

static pqt_status alloc_selection(const char *fn, pqt_selection **ret, pqt_selection **s_ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "%s: ret is NULL", fn);
    *s_ret = pqt_calloc(1, sizeof **s_ret);
    if (!*s_ret) return pqt_err(PQT_NOMEM, "%s: out of memory", fn);
    return PQT_OK;
}

/* Hand a built selection out, or free it when building failed. */
static pqt_status finish(pqt_status st, pqt_selection *s, pqt_selection **ret)
{
    if (st != PQT_OK) {
        pqt_selection_free(s);
        return st;
    }
    *ret = s;
    return PQT_OK;
}

pqt_status pqt_selection_new(int64_t nrows, int all, pqt_selection **ret)
{
    pqt_selection *s;
    PQT_TRY(check_nrows("pqt_selection_new", nrows));
    PQT_TRY(alloc_selection("pqt_selection_new", ret, &s));
    if (all) pqt_sel_init_all(&s->sel, nrows);
    else pqt_sel_init_none(&s->sel, nrows);
    return finish(PQT_OK, s, ret);
}

pqt_status pqt_selection_from_bitmap(const uint8_t *bits, int64_t nrows, pqt_selection **ret)
{
    pqt_selection *s;
    PQT_TRY(check_nrows("pqt_selection_from_bitmap", nrows));
    if (!bits && nrows > 0) return pqt_err(PQT_MISUSE, "pqt_selection_from_bitmap: bits is NULL");
    PQT_TRY(alloc_selection("pqt_selection_from_bitmap", ret, &s));
    if (nrows == 0) pqt_sel_init_none(&s->sel, 0);
    return finish(nrows ? pqt_sel_init_bitmap(&s->sel, nrows, bits) : PQT_OK, s, ret);
}

pqt_status pqt_selection_from_bools(const uint8_t *keep, int64_t nrows, pqt_selection **ret)
{
    pqt_selection *s;
    PQT_TRY(check_nrows("pqt_selection_from_bools", nrows));
    if (!keep && nrows > 0) return pqt_err(PQT_MISUSE, "pqt_selection_from_bools: keep is NULL");
    PQT_TRY(alloc_selection("pqt_selection_from_bools", ret, &s));
    if (nrows == 0) pqt_sel_init_none(&s->sel, 0);
    return finish(nrows ? pqt_sel_init_bools(&s->sel, nrows, keep) : PQT_OK, s, ret);
}

pqt_status pqt_selection_from_ranges(const int64_t *lo_hi, int64_t nranges, int64_t nrows,
                                     pqt_selection **ret)
{
    const char *fn = "pqt_selection_from_ranges";
    PQT_TRY(check_nrows(fn, nrows));
    if (nranges < 0 || nranges > INT64_MAX / 2)
        return pqt_err(PQT_MISUSE, "%s: nranges %lld is negative or too large", fn,
                       (long long)nranges);
    if (!lo_hi && nranges > 0) return pqt_err(PQT_MISUSE, "%s: lo_hi is NULL", fn);
    if (!ret) return pqt_err(PQT_MISUSE, "%s: ret is NULL", fn);
    /* Check every range before building anything, so the first bad one is named. */
    for (int64_t k = 0; k < nranges; k++) {
        int64_t lo = lo_hi[2 * k], hi = lo_hi[2 * k + 1];
        bool empty = lo >= 1 && lo <= nrows + 1 && hi == lo - 1;
        if (!empty && (lo < 1 || hi > nrows || lo > hi))
            return pqt_err(PQT_RANGE, "%s: range %lld is rows %lld..%lld, outside the "
                                      "selection's rows 1..%lld",
                           fn, (long long)k + 1, (long long)lo, (long long)hi, (long long)nrows);
    }
    pqt_run *runs = pqt_malloc_array((size_t)(nranges > 0 ? nranges : 1), sizeof *runs);
    if (!runs) return pqt_err(PQT_NOMEM, "%s: out of memory for %lld ranges", fn, (long long)nranges);
    for (int64_t k = 0; k < nranges; k++)
        runs[k] = (pqt_run){lo_hi[2 * k] - 1, lo_hi[2 * k + 1] - lo_hi[2 * k] + 1};
    pqt_selection *s;
    pqt_status st = alloc_selection(fn, ret, &s);
    if (st == PQT_OK) st = finish(pqt_sel_init_runs(&s->sel, nrows, runs, nranges), s, ret);
    pqt_mem_free(runs);
    return st;
}

pqt_status pqt_selection_copy(const pqt_selection *sel, pqt_selection **ret)
{
    if (!sel) return pqt_err(PQT_MISUSE, "pqt_selection_copy: sel is NULL");
    pqt_selection *s;
    PQT_TRY(alloc_selection("pqt_selection_copy", ret, &s));
    return finish(pqt_sel_copy(&s->sel, &sel->sel), s, ret);
}

void pqt_selection_free(pqt_selection *sel)
{
    if (!sel) return;
    pqt_sel_free(&sel->sel);
    pqt_mem_free(sel);
}

int64_t pqt_selection_nrows(const pqt_selection *sel) { return sel ? sel->sel.nrows : -1; }
int64_t pqt_selection_count(const pqt_selection *sel) { return sel ? sel->sel.nsel : -1; }

static pqt_status check_pair(const char *fn, const pqt_selection *a, const pqt_selection *b)
{
    if (!a || !b) return pqt_err(PQT_MISUSE, "%s: %s is NULL", fn, a ? "b" : "a");
    if (a->sel.nrows != b->sel.nrows)
        return pqt_err(PQT_MISUSE, "%s: the selections are over different row counts: a has "
                                   "%lld rows, b has %lld",
                       fn, (long long)a->sel.nrows, (long long)b->sel.nrows);
    return PQT_OK;
}

/* pqt_sel's set operations fail only with PQT_NOMEM and then keep the rows as they were,
 * which is this API's "a failed call changes nothing". */
pqt_status pqt_selection_and(pqt_selection *a, const pqt_selection *b)
{
    PQT_TRY(check_pair("pqt_selection_and", a, b));
    return a == b ? PQT_OK : pqt_sel_and(&a->sel, &b->sel);
}

pqt_status pqt_selection_or(pqt_selection *a, const pqt_selection *b)
{
    PQT_TRY(check_pair("pqt_selection_or", a, b));
    return a == b ? PQT_OK : pqt_sel_or(&a->sel, &b->sel);
}

pqt_status pqt_selection_not(pqt_selection *sel)
{
    if (!sel) return pqt_err(PQT_MISUSE, "pqt_selection_not: sel is NULL");
    return pqt_sel_not(&sel->sel);
}

pqt_status pqt_selection_refine(pqt_selection *sel, const uint8_t *keep, int64_t n)
{
    if (!sel) return pqt_err(PQT_MISUSE, "pqt_selection_refine: sel is NULL");
    if (n != sel->sel.nsel)
        return pqt_err(PQT_MISUSE, "pqt_selection_refine: %lld verdicts for %lld selected rows "
                                   "(one verdict per selected row)",
                       (long long)n, (long long)sel->sel.nsel);
    if (!keep && n > 0) return pqt_err(PQT_MISUSE, "pqt_selection_refine: keep is NULL");
    return pqt_sel_refine(&sel->sel, keep);
}

pqt_status pqt_selection_to_rows(const pqt_selection *sel, int64_t *rows, int64_t cap)
{
    if (!sel) return pqt_err(PQT_MISUSE, "pqt_selection_to_rows: sel is NULL");
    int64_t n = sel->sel.nsel;
    if (cap < n || (!rows && n > 0))
        return pqt_err(PQT_MISUSE, "pqt_selection_to_rows: rows %s %lld entries, the selection "
                                   "has %lld rows",
                       rows ? "holds" : "is NULL for", (long long)cap, (long long)n);
    if (n == 0) return PQT_OK;
    pqt_sel_rows(&sel->sel, rows);
    for (int64_t i = 0; i < n; i++) rows[i] += 1; /* the API's rows are 1-based */
    return PQT_OK;
}

pqt_status pqt_selection_to_bitmap(const pqt_selection *sel, uint8_t *bits, size_t nbytes)
{
    if (!sel) return pqt_err(PQT_MISUSE, "pqt_selection_to_bitmap: sel is NULL");
    size_t need = (size_t)((sel->sel.nrows + 7) / 8);
    if (nbytes < need || (!bits && need > 0))
        return pqt_err(PQT_MISUSE, "pqt_selection_to_bitmap: bits %s %zu bytes, %lld rows need "
                                   "%zu",
                       bits ? "holds" : "is NULL for", nbytes, (long long)sel->sel.nrows, need);
    if (need > 0) pqt_sel_to_bitmap(&sel->sel, bits);
    return PQT_OK;
}

/* The checks both reads share, in pqt_file_read's order: file, column, then the rows. */
static pqt_status check_read(const char *fn, const pqt_file *f, int col, int rg,
                             const pqt_selection *sel)
{
    if (!f) return pqt_err(PQT_MISUSE, "%s: file handle is NULL", fn);
    PQT_TRY(pqt_file_check_readable(f, col));
    if (rg < 0 || rg >= f->meta.n_row_groups)
        return pqt_err(PQT_MISUSE, "%s: %s: no row group index %d (0-based; the file has %d "
                                   "row groups)",
                       fn, f->path, rg, f->meta.n_row_groups);
    if (!sel) return pqt_err(PQT_MISUSE, "%s: sel is NULL", fn);
    int64_t rows = f->meta.row_groups[rg].num_rows;
    if (sel->sel.nrows != rows)
        return pqt_err(PQT_MISUSE, "%s: %s: row group %d (index %d) has %lld rows, the "
                                   "selection is over %lld rows",
                       fn, f->path, rg + 1, rg, (long long)rows, (long long)sel->sel.nrows);
    return PQT_OK;
}

/* Row group rg of column c under sel, serially, into b (borrowed: see pqt_read_req). */
static pqt_status read_one(pqt_file *f, const pqt_col *c, int rg, const pqt_selection *sel,
                           pqt_colbuf *b, void *borrowed)
{
    const int64_t dst_row = 0;
    pqt_read_req rq = {.src = pqt_file_read_src(f),
                       .col = c,
                       .rg0 = rg,
                       .nrg = 1,
                       .sels = &sel->sel,
                       .dst_row = &dst_row,
                       .nrows = sel->sel.nsel,
                       .threads = 1,
                       .borrowed_data = borrowed};
    return pqt_read_column(&rq, b);
}

pqt_status pqt_file_read_selected(pqt_file *f, int col, int rg, const pqt_selection *sel,
                                  pqt_array **ret)
{
    PQT_TRY(check_read("pqt_file_read_selected", f, col, rg, sel));
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_file_read_selected: ret is NULL");
    const pqt_col *c = &f->schema.cols[col];
    pqt_array *a = pqt_calloc(1, sizeof *a);
    if (!a) return pqt_err(PQT_NOMEM, "out of memory");
    /* one row group decodes serially whatever the thread count */
    pqt_status st = read_one(f, c, rg, sel, &a->buf, NULL);
    if (st != PQT_OK) {
        pqt_mem_free(a);
        return st;
    }
    a->nrows = sel->sel.nsel;
    a->kind = c->elem_kind;
    a->width = 1;
    if (c->is_list) {
        /* settled by the rows read, as pqt_file_read settles it over its range */
        int w = pqt_colbuf_uniform_width(&a->buf);
        a->kind |= w > 0 ? PQT_VECTOR : PQT_LIST;
        a->width = w > 0 ? w : 0;
    }
    *ret = a;
    return PQT_OK;
}

pqt_status pqt_file_read_selected_into(pqt_file *f, int col, int rg, const pqt_selection *sel,
                                       void *data, size_t data_nbytes, uint8_t *validity)
{
    PQT_TRY(check_read("pqt_file_read_selected_into", f, col, rg, sel));
    const pqt_col *c = &f->schema.cols[col];
    if (c->is_list || PQT_KIND_IS_BYTES(c->elem_kind))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s; pqt_file_read_selected_into takes "
                                 "fixed-width scalar columns (use pqt_file_read_selected)",
                       f->path, c->path, c->is_list ? "a list" : "string");
    int64_t n = sel->sel.nsel;
    size_t esz = pqt_kind_elem_nbytes(c->elem_kind);
    if ((!data && n > 0) || data_nbytes < (size_t)n * esz)
        return pqt_err(PQT_MISUSE, "%s: column '%s': destination holds %zu bytes, %lld rows of "
                                   "%s need %zu",
                       f->path, c->path, data ? data_nbytes : 0, (long long)n,
                       pqt_kind_name(c->elem_kind), (size_t)n * esz);
    /* decode straight into the caller's memory: a colbuf whose data is borrowed */
    pqt_colbuf b;
    PQT_TRY(read_one(f, c, rg, sel, &b, n > 0 ? data : NULL));
    if (validity && n > 0) {
        size_t vb = (size_t)(n + 7) / 8;
        if (b.validity) {
            memcpy(validity, b.validity, vb);
        } else {
            memset(validity, 0xff, vb);
            if (n & 7) validity[vb - 1] = (uint8_t)((1u << (n & 7)) - 1);
        }
    }
    pqt_colbuf_free(&b);
    return PQT_OK;
}
