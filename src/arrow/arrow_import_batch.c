/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import_batch.c - one Arrow record batch (a struct array) into an in-memory table of
 * the columns arrow_import_schema.c found (layer: arrow).
 *
 * The schema and the array are walked together. A struct's offset and validity pass down to
 * its children (child element = the struct's physical index; a null struct makes its
 * leaves null); a list's offsets pick its child's elements; a fixed_size_list's elements
 * are width per row. Each leaf's values are converted (arrow_import_values.c) and either
 * added to the batch's own table (arrow_import_add.c) or appended to the column's
 * accumulator (arrow_import_acc.c).
 */
#include <string.h>

#include "arrow/arrow_import.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"

typedef struct walk {
    const pqt_aimp_schema *cs;
    int next;          /* the column the walk reaches next */
    pqt_table *t;      /* the batch's table, or NULL when acc takes the rows */
    pqt_aimp_acc *acc; /* one accumulator per column, or NULL */
    bool empty;        /* the template: no array at all */
} walk;

/* *v &= mask over n rows, each row covering rep bits of *v (allocated when NULL). */
static pqt_status and_mask(uint8_t **v, const uint8_t *mask, int64_t n, int64_t rep)
{
    if (!mask) return PQT_OK;
    if (!*v) PQT_TRY(pqt_aimp_all_valid(n * rep, v));
    for (int64_t i = 0; i < n; i++)
        if (!pqt_bit_get(mask, i))
            for (int64_t k = 0; k < rep; k++)
                pqt_bit_set(*v, i * rep + k, false);
    return PQT_OK;
}

static pqt_status check_nulls(const pqt_aimp_col *col, const uint8_t *v, int64_t n,
                              const char *what)
{
    if (col->nullable || !v) return PQT_OK;
    for (int64_t i = 0; i < n; i++)
        if (!pqt_bit_get(v, i))
            return pqt_err(PQT_CORRUPT, "field '%s' is declared not nullable and %s %lld is null",
                           col->name, what, (long long)i);
    return PQT_OK;
}

/* Column ci's n rows of this batch (v the values: n * width elements for vectors, the list
 * elements for lists; list_offsets and row_valid for lists) into the batch's table or the
 * column's accumulator. */
static pqt_status emit(walk *w, int ci, int64_t n, pqt_aimp_vals *v, const int64_t *list_offsets,
                       uint8_t **row_valid)
{
    const pqt_aimp_col *col = &w->cs->cols[ci];
    PQT_TRY(check_nulls(col, v->valid, v->n, "element"));
    if (w->acc) return pqt_aimp_acc_push(&w->acc[ci], col, n, v, list_offsets, *row_valid);
    return pqt_aimp_add_column(w->t, col, n, v, list_offsets, row_valid);
}

/* A list column's rows: offsets (int32 or int64) of rows phys .. phys + n - 1 of a, checked
 * against its child, into *lo_ret (rebased to 0) and the child's first element. */
static pqt_status list_offsets(const pqt_aimp_col *col, const struct ArrowArray *a, int64_t phys,
                               int64_t n, int64_t **lo_ret, int64_t *first_ret)
{
    int64_t *lo = pqt_calloc((size_t)n + 1, sizeof *lo);
    if (!lo) return pqt_err(PQT_NOMEM, "out of memory");
    *lo_ret = lo;
    *first_ret = 0;
    if (n == 0) return PQT_OK;
    if (!a->buffers[1])
        return pqt_err(PQT_CORRUPT, "field '%s': no list offsets buffer for %lld rows", col->name,
                       (long long)n);
    bool large = col->shape == 'L';
    const int32_t *o32 = a->buffers[1];
    const int64_t *o64 = a->buffers[1];
    int64_t first = large ? o64[phys] : o32[phys], prev = first;
    if (first < 0)
        return pqt_err(PQT_CORRUPT, "field '%s': list offset %lld of row 0 is negative", col->name,
                       (long long)first);
    for (int64_t i = 1; i <= n; i++) {
        int64_t o = large ? o64[phys + i] : o32[phys + i];
        if (o < prev)
            return pqt_err(PQT_CORRUPT,
                           "field '%s': list offsets decrease at row %lld (%lld < %lld)", col->name,
                           (long long)i, (long long)o, (long long)prev);
        lo[i] = o - first;
        prev = o;
    }
    if (prev > a->children[0]->length)
        return pqt_err(PQT_CORRUPT,
                       "field '%s': list offsets reach element %lld of a child of length %lld",
                       col->name, (long long)prev, (long long)a->children[0]->length);
    *first_ret = first;
    return PQT_OK;
}

static pqt_status leaf(walk *w, int ci, const struct ArrowSchema *f, const struct ArrowArray *a,
                       int64_t start, int64_t n, const uint8_t *mask)
{
    const pqt_aimp_col *col = &w->cs->cols[ci];
    pqt_aimp_vals v = {0};
    uint8_t *row_valid = NULL;
    int64_t *lo = NULL;
    pqt_status st = PQT_OK;
    if (w->empty) {
        static const int64_t zero = 0;
        v.kind = col->kind;
        v.offsets = (int64_t *)&zero;
        st = emit(w, ci, 0, &v, col->shape == 'l' || col->shape == 'L' ? &zero : NULL, &row_valid);
        v.offsets = NULL;
    } else if (col->shape == 's') {
        st = pqt_aimp_values(col, f, a, start, n, &v);
        if (st == PQT_OK) st = and_mask(&v.valid, mask, n, 1);
        if (st == PQT_OK) st = emit(w, ci, n, &v, NULL, &row_valid);
    } else {
        /* a list node: validity, offsets (or a fixed width), one child */
        st = pqt_aimp_check_node(a, col->name, col->shape == 'v' ? 1 : 2, start, n);
        if (st == PQT_OK && (a->n_children != 1 || !a->children[0]))
            st = pqt_err(PQT_CORRUPT, "field '%s': a list array with %lld children", col->name,
                         (long long)a->n_children);
        if (st == PQT_OK) st = pqt_aimp_validity(a, start, n, &row_valid);
        if (st == PQT_OK) st = and_mask(&row_valid, mask, n, 1);
        if (st == PQT_OK) st = check_nulls(col, row_valid, n, "row");
        int64_t phys = st == PQT_OK ? a->offset + start : 0;
        const struct ArrowSchema *cf = f->children[0];
        if (st == PQT_OK && col->shape == 'v' && phys + n > INT64_MAX / 16 / col->width)
            st = pqt_err(PQT_CORRUPT, "field '%s': %lld rows of %d elements overflow", col->name,
                         (long long)(phys + n), col->width);
        if (st == PQT_OK && col->shape == 'v') {
            st = pqt_aimp_values(col, cf, a->children[0], phys * col->width, n * col->width, &v);
            /* a null row of a vector: every element of it null */
            if (st == PQT_OK) st = and_mask(&v.valid, row_valid, n, col->width);
            if (st == PQT_OK) st = emit(w, ci, n, &v, NULL, &row_valid);
        } else if (st == PQT_OK) {
            int64_t first = 0;
            st = list_offsets(col, a, phys, n, &lo, &first);
            if (st == PQT_OK) st = pqt_aimp_values(col, cf, a->children[0], first, lo[n], &v);
            if (st == PQT_OK) st = emit(w, ci, n, &v, lo, &row_valid);
        }
    }
    pqt_aimp_vals_free(&v);
    pqt_mem_free(row_valid);
    pqt_mem_free(lo);
    return st;
}

static pqt_status walk_struct(walk *w, const struct ArrowSchema *f, const struct ArrowArray *a,
                              int64_t start, int64_t n, const uint8_t *mask, const char *name);

static pqt_status walk_field(walk *w, const struct ArrowSchema *f, const struct ArrowArray *a,
                             int64_t start, int64_t n, const uint8_t *mask, const char *name)
{
    if (strcmp(f->format, "+s") == 0 && !f->dictionary)
        return walk_struct(w, f, a, start, n, mask, name);
    if (w->next >= w->cs->ncols) return pqt_err(PQT_CORRUPT, "the schema changed");
    return leaf(w, w->next++, f, a, start, n, mask);
}

static pqt_status walk_struct(walk *w, const struct ArrowSchema *f, const struct ArrowArray *a,
                              int64_t start, int64_t n, const uint8_t *mask, const char *name)
{
    uint8_t *valid = NULL;
    int64_t phys = 0;
    if (!w->empty) {
        PQT_TRY(pqt_aimp_check_node(a, name, 0, start, n));
        if (a->n_children != f->n_children)
            return pqt_err(PQT_CORRUPT, "field '%s': %lld child arrays for %lld child fields", name,
                           (long long)a->n_children, (long long)f->n_children);
        PQT_TRY(pqt_aimp_validity(a, start, n, &valid));
        pqt_status st = and_mask(&valid, mask, n, 1);
        if (st != PQT_OK) {
            pqt_mem_free(valid);
            return st;
        }
        phys = a->offset + start;
    }
    pqt_status st = PQT_OK;
    for (int64_t i = 0; i < f->n_children && st == PQT_OK; i++) {
        const struct ArrowArray *ca = w->empty ? NULL : a->children[i];
        const char *cname = f->children[i]->name ? f->children[i]->name : "";
        if (!w->empty && !ca)
            st = pqt_err(PQT_CORRUPT, "field '%s': child array %lld is NULL", name, (long long)i);
        else
            st = walk_field(w, f->children[i], ca, phys, n, valid, cname);
    }
    pqt_mem_free(valid);
    return st;
}

pqt_status pqt_aimp_batch_table(const pqt_aimp_schema *cs, const struct ArrowSchema *root,
                                const struct ArrowArray *batch, int64_t batch_no, pqt_table **ret)
{
    *ret = NULL;
    walk w = {cs, 0, NULL, NULL, batch == NULL};
    PQT_TRY(pqt_table_new(&w.t));
    int64_t n = batch ? batch->length : 0;
    pqt_status st = walk_struct(&w, root, batch, 0, n, NULL, "(batch)");
    if (st != PQT_OK) {
        if (batch) pqt_err_prefix("batch %lld: ", (long long)batch_no);
        pqt_table_close(w.t);
        return st;
    }
    *ret = w.t;
    return PQT_OK;
}

pqt_status pqt_aimp_batch_append(const pqt_aimp_schema *cs, const struct ArrowSchema *root,
                                 const struct ArrowArray *batch, int64_t batch_no,
                                 pqt_aimp_acc *acc)
{
    walk w = {cs, 0, NULL, acc, false};
    pqt_status st = walk_struct(&w, root, batch, 0, batch->length, NULL, "(batch)");
    if (st != PQT_OK) pqt_err_prefix("batch %lld: ", (long long)batch_no);
    return st;
}
