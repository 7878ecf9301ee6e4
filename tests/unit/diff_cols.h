/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff_cols.h - columns of a table in one shape for test_filter_open_diff.c: read by one of
 * several routes (pqt_table_get_alloc, which decodes a never-read column straight into the
 * caller's memory; pqt_table_get into a caller buffer; pqt_table_get_range in pieces;
 * pqt_table_get_rows in a random order; a zero-copy view; the string and list calls for
 * those kinds), then compared row by row
 * with another table's rows: validity, values byte for byte (NaN payloads and -0 included),
 * string bytes, list shapes. A dfile holds every column of a file's unfiltered table so read.
 */
#ifndef PQT_TEST_DIFF_COLS_H
#define PQT_TEST_DIFF_COLS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

enum { M_ALLOC, M_GET, M_RANGE, M_ROWS, M_VIEW, NMETHOD };
static const char *const method_name[NMETHOD] = {"get_alloc", "get", "get_range", "get_rows",
                                                 "view"};

typedef struct dcol {
    const char *name;
    int kind, ek; /* kind with flags (PQT_NONE: unreadable, skipped); element kind */
    int method;
    int own;      /* 1: pointers from *_alloc (pqt_free); 2: from malloc (free); 0: a view */
    size_t esz;
    int64_t nrows, nelem;
    void *data;          /* fixed-width elements */
    uint8_t *valid;      /* per element; NULL = all present */
    int64_t *loff;       /* vectors and lists: nrows + 1 element offsets */
    uint8_t *rvalid;     /* lists: per row; NULL = none null */
    int64_t *soff;       /* strings: per element */
    char *sb;
} dcol;

static int dbit(const uint8_t *m, int64_t i) { return !m || ((m[i >> 3] >> (i & 7)) & 1); }

static void dcol_free(dcol *c)
{
    void *p[6] = {c->data, c->valid, c->loff, c->rvalid, c->soff, c->sb};
    for (int i = 0; i < 6; i++) {
        if (c->own == 1) pqt_free(p[i]);
        if (c->own == 2) free(p[i]);
    }
    memset(c, 0, sizeof *c);
}

/* rows lo..hi (1-based) of a fixed-width scalar column in two or three pieces */
static pqt_status read_ranges(pqt_table *t, dcol *c, uint64_t *rs)
{
    int64_t n = c->nrows;
    c->data = malloc((size_t)n * c->esz + 8);
    c->valid = calloc((size_t)n / 8 + 2, 1);
    uint8_t *vb = malloc((size_t)n / 8 + 2);
    int64_t lo = 1;
    while (lo <= n) {
        int64_t hi = lo + (int64_t)(pqt_test_rand(rs) % (uint64_t)(n - lo + 1));
        if (pqt_test_rand(rs) % 3 == 0) hi = n;
        size_t nb = (size_t)(hi - lo + 1) * c->esz;
        pqt_status st = pqt_table_get_range(t, c->name, lo, hi, 0, (char *)c->data +
                                            (size_t)(lo - 1) * c->esz, nb, vb,
                                            (size_t)(hi - lo + 1 + 7) / 8);
        if (st != PQT_OK) {
            free(vb);
            return st;
        }
        for (int64_t i = 0; i < hi - lo + 1; i++)
            if (dbit(vb, i)) c->valid[(lo - 1 + i) >> 3] |= (uint8_t)(1u << ((lo - 1 + i) & 7));
        lo = hi + 1;
    }
    free(vb);
    return PQT_OK;
}

/* every row of a fixed-width scalar column, asked for in a random order, put back in place */
static pqt_status read_rows(pqt_table *t, dcol *c, uint64_t *rs)
{
    int64_t n = c->nrows;
    int64_t *rows = malloc((size_t)n * sizeof *rows);
    char *tmp = malloc((size_t)n * c->esz + 8);
    uint8_t *vb = calloc((size_t)n / 8 + 2, 1);
    for (int64_t i = 0; i < n; i++) rows[i] = i + 1;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(pqt_test_rand(rs) % (uint64_t)(i + 1)), x = rows[i];
        rows[i] = rows[j], rows[j] = x;
    }
    c->data = malloc((size_t)n * c->esz + 8);
    c->valid = calloc((size_t)n / 8 + 2, 1);
    pqt_status st = pqt_table_get_rows(t, c->name, rows, n, 0, tmp, (size_t)n * c->esz, vb,
                                       (size_t)(n + 7) / 8);
    for (int64_t i = 0; st == PQT_OK && i < n; i++) {
        int64_t r = rows[i] - 1;
        memcpy((char *)c->data + (size_t)r * c->esz, tmp + (size_t)i * c->esz, c->esz);
        if (dbit(vb, i)) c->valid[r >> 3] |= (uint8_t)(1u << (r & 7));
    }
    free(rows);
    free(tmp);
    free(vb);
    return st;
}

/* Read column name of t by route `method` into c. */
static pqt_status dcol_read(pqt_table *t, const char *name, int method, uint64_t *rs, dcol *c)
{
    memset(c, 0, sizeof *c);
    c->name = name;
    c->method = method;
    c->nrows = pqt_table_nrows(t);
    int sup = 0;
    pqt_status st = pqt_table_is_supported(t, name, &sup);
    if (st != PQT_OK || !sup) return st;
    if ((st = pqt_table_kind(t, name, &c->kind)) != PQT_OK) return st;
    c->ek = PQT_KIND_ELEMENT(c->kind);
    c->esz = pqt_kind_elem_nbytes(c->ek);
    int nested = (c->kind & (PQT_LIST | PQT_VECTOR)) != 0;
    if (method == M_VIEW) {
        pqt_column_view v;
        memset(&v, 0, sizeof v);
        v.struct_size = sizeof v;
        if ((st = pqt_table_column(t, name, 0, &v)) != PQT_OK) return st;
        c->nelem = v.nelem;
        c->data = (void *)v.data;
        c->valid = (uint8_t *)v.validity;
        c->rvalid = (uint8_t *)v.row_validity;
        c->loff = nested ? (int64_t *)v.list_offsets : NULL;
        c->soff = (int64_t *)v.str_offsets;
        c->sb = (char *)v.str_bytes;
        return PQT_OK;
    }
    c->own = 1;
    if (nested) {
        st = pqt_table_get_list_alloc(t, name, 0, &c->loff, PQT_KIND_IS_BYTES(c->ek) ? NULL : &c->data,
                                      &c->valid, &c->rvalid, &c->nelem);
        if (st == PQT_OK && PQT_KIND_IS_BYTES(c->ek))
            st = pqt_table_get_strings_alloc(t, name, &c->soff, &c->sb, NULL, NULL);
        return st;
    }
    if (PQT_KIND_IS_BYTES(c->ek))
        return pqt_table_get_strings_alloc(t, name, &c->soff, &c->sb, &c->valid, &c->nelem);
    c->nelem = c->nrows;
    if (method == M_ALLOC || c->nrows == 0)
        return pqt_table_get_alloc(t, name, 0, &c->data, &c->valid, &c->nelem);
    c->own = 2;
    if (method == M_RANGE) return read_ranges(t, c, rs);
    if (method == M_ROWS) return read_rows(t, c, rs);
    size_t nb = 0;
    if ((st = pqt_table_get_nbytes(t, name, 0, &nb)) != PQT_OK) return st;
    c->data = malloc(nb + 8);
    c->valid = malloc((size_t)c->nrows / 8 + 2);
    return pqt_table_get(t, name, 0, c->data, nb, c->valid, (size_t)c->nrows / 8 + 1);
}

/* element i of a against element j of b: 0 when equal (validity, then value) */
static int elem_diff(const dcol *a, int64_t i, const dcol *b, int64_t j)
{
    int pa = dbit(a->valid, i), pb = dbit(b->valid, j);
    if (pa != pb) return 1;
    if (!pa) return 0;
    if (PQT_KIND_IS_BYTES(a->ek)) {
        int64_t la = a->soff[i + 1] - a->soff[i], lb = b->soff[j + 1] - b->soff[j];
        return la != lb || memcmp(a->sb + a->soff[i], b->sb + b->soff[j], (size_t)la) != 0;
    }
    return memcmp((const char *)a->data + (size_t)i * a->esz,
                  (const char *)b->data + (size_t)j * b->esz, a->esz) != 0;
}

/* Row i of got against row src[i] (0-based) of truth, for every i; returns the rows that
 * differ, printing the first. */
static int64_t dcol_compare(const dcol *truth, const dcol *got, const int64_t *src, int64_t n,
                            const char *ctx)
{
    int64_t bad = 0;
    /* A LIST's width is measured over the row groups a table covers (pqt_table_kind), so a
     * filtered table may hold as a vector what the whole file holds as a list: same rows. */
    int nested = (truth->kind & (PQT_LIST | PQT_VECTOR)) != 0;
    int same = nested ? got->ek == truth->ek && (got->kind & (PQT_LIST | PQT_VECTOR)) != 0
                      : got->kind == truth->kind;
    if (!same || got->nrows != n) {
        fprintf(stderr, "%s: column %s: kind %d rows %lld, expected kind %d rows %lld\n", ctx,
                got->name, got->kind, (long long)got->nrows, truth->kind, (long long)n);
        return 1;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t r = src[i];
        int d = 0;
        if (!nested) {
            d = elem_diff(got, i, truth, r);
        } else {
            int64_t ga = got->loff[i], gn = got->loff[i + 1] - ga;
            int64_t ta = truth->loff[r], tn = truth->loff[r + 1] - ta;
            d = dbit(got->rvalid, i) != dbit(truth->rvalid, r) || gn != tn;
            for (int64_t k = 0; k < gn && !d; k++) d = elem_diff(got, ga + k, truth, ta + k);
        }
        if (d && bad++ == 0)
            fprintf(stderr, "%s: column %s (%s) differs at table row %lld (file row %lld)\n", ctx,
                    got->name, method_name[got->method], (long long)i + 1, (long long)r + 1);
    }
    return bad;
}

/* ---- one file: its fully decoded columns ---- */

typedef struct dfile {
    const char *path;
    pqt_table *t; /* unfiltered, kept open: owns the names */
    int ncols;
    dcol cols[64];
    int64_t nrows;
    int nrg;
    int64_t *rg_lo; /* 0-based first row of each row group, nrg + 1 entries */
    int keep_file;  /* a failure keeps a generated file for reproduction */
    int int96_unit; /* PQT_OPT_INT96_UNIT for every open of the file; -1: the default */
} dfile;

static void file_opts(const dfile *F, pqt_opts *o, int threads)
{
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (F->int96_unit >= 0) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_INT96_UNIT, F->int96_unit));
}

static int dfile_load(dfile *F, const char *path, int int96_unit, uint64_t *rr)
{
    memset(F, 0, sizeof *F);
    F->path = path;
    F->int96_unit = int96_unit;
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    file_opts(F, o, 1);
    pqt_status st = pqt_table_open(path, o, &F->t);
    pqt_opts_free(o);
    if (st != PQT_OK) {
        fprintf(stderr, "%s: open failed: %s\n", path, pqt_errmsg());
        pqt_test_failures++;
        return 0;
    }
    F->nrows = pqt_table_nrows(F->t);
    F->ncols = pqt_table_ncols(F->t);
    if (F->ncols > 64) F->ncols = 64;
    for (int i = 0; i < F->ncols; i++) {
        const char *name = pqt_table_column_name(F->t, i);
        if (dcol_read(F->t, name, M_ALLOC, rr, &F->cols[i]) != PQT_OK) {
            fprintf(stderr, "%s: column %s: %s\n", path, name, pqt_errmsg());
            pqt_test_failures++;
            F->cols[i].kind = PQT_NONE;
        }
    }
    int64_t *b = NULL;
    int n = 0;
    CHECK_OK(pqt_table_row_group_bounds(F->t, 1, &b, &n));
    F->nrg = n;
    F->rg_lo = malloc(((size_t)n + 1) * sizeof *F->rg_lo);
    for (int g = 0; g < n; g++) F->rg_lo[g] = b ? b[2 * g] - 1 : 0;
    F->rg_lo[n] = F->nrows;
    pqt_free(b);
    return 1;
}

static void dfile_free(dfile *F)
{
    for (int i = 0; i < F->ncols; i++) dcol_free(&F->cols[i]);
    pqt_table_close(F->t);
    free(F->rg_lo);
    memset(F, 0, sizeof *F);
}

static const dcol *dfile_col(const dfile *F, const char *name)
{
    for (int i = 0; i < F->ncols; i++)
        if (F->cols[i].kind != PQT_NONE && strcmp(F->cols[i].name, name) == 0) return &F->cols[i];
    return NULL;
}

#endif
