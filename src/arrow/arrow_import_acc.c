/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import_acc.c - the rows of every batch gathered per column, then made one in-memory
 * table (layer: arrow). Appending each batch to a table would copy the rows already there
 * again (pqt_table_append gathers into new buffers); gathering the converted values in
 * growing buffers and adding each column once copies every value a fixed number of times.
 */
#include <string.h>

#include "arrow/arrow_import.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"

static pqt_status append_i64(pqt_buf *b, int64_t v)
{
    return pqt_buf_append(b, &v, sizeof v);
}

/* n bits of src (NULL: all set) appended at bit `at` of the bitmap in b. */
static pqt_status append_bits(pqt_buf *b, int64_t at, const uint8_t *src, int64_t n)
{
    size_t need = (size_t)(at + n + 7) / 8 + 1;
    if (need > b->len) {
        PQT_TRY(pqt_buf_reserve(b, need));
        memset(b->data + b->len, 0, need - b->len);
        b->len = need;
    }
    if (src)
        pqt_bits_copy(b->data, at, src, 0, n);
    else
        pqt_bits_set_range(b->data, at, n);
    return PQT_OK;
}

pqt_status pqt_aimp_acc_push(pqt_aimp_acc *a, const pqt_aimp_col *col, int64_t n,
                             const pqt_aimp_vals *v, const int64_t *list_offsets,
                             const uint8_t *row_valid)
{
    int64_t nelem = v->n;
    if (PQT_KIND_IS_BYTES(col->kind)) {
        if (a->offsets.len == 0) PQT_TRY(append_i64(&a->offsets, 0));
        int64_t base = (int64_t)a->bytes.len;
        PQT_TRY(pqt_buf_reserve_more(&a->offsets, (size_t)nelem * sizeof(int64_t)));
        for (int64_t i = 1; i <= nelem; i++) {
            int64_t o = base + v->offsets[i];
            memcpy(a->offsets.data + a->offsets.len, &o, sizeof o);
            a->offsets.len += sizeof o;
        }
        if (v->offsets[nelem] > 0)
            PQT_TRY(pqt_buf_append(&a->bytes, v->bytes, (size_t)v->offsets[nelem]));
    } else if (nelem > 0) {
        PQT_TRY(pqt_buf_append(&a->data, v->data, (size_t)nelem * pqt_kind_elem_nbytes(col->kind)));
    }
    if (col->nullable) PQT_TRY(append_bits(&a->valid, a->nelem, v->valid, nelem));
    if (list_offsets) {
        if (a->list_offsets.len == 0) PQT_TRY(append_i64(&a->list_offsets, 0));
        for (int64_t i = 1; i <= n; i++)
            PQT_TRY(append_i64(&a->list_offsets, a->nelem + list_offsets[i]));
        if (col->nullable) PQT_TRY(append_bits(&a->row_valid, a->nrows, row_valid, n));
    }
    a->nelem += nelem;
    a->nrows += n;
    return PQT_OK;
}

static void acc_free(pqt_aimp_acc *a)
{
    pqt_buf_free(&a->data);
    pqt_buf_free(&a->offsets);
    pqt_buf_free(&a->bytes);
    pqt_buf_free(&a->valid);
    pqt_buf_free(&a->list_offsets);
    pqt_buf_free(&a->row_valid);
    memset(a, 0, sizeof *a);
}

void pqt_aimp_acc_free(pqt_aimp_acc *acc, int ncols)
{
    for (int i = 0; acc && i < ncols; i++)
        acc_free(&acc[i]);
}

pqt_status pqt_aimp_acc_table(const pqt_aimp_schema *cs, pqt_aimp_acc *acc, pqt_table **ret)
{
    *ret = NULL;
    pqt_table *t = NULL;
    PQT_TRY(pqt_table_new(&t));
    static const int64_t zero = 0; /* the one offset of no element or no row */
    pqt_status st = PQT_OK;
    for (int i = 0; i < cs->ncols && st == PQT_OK; i++) {
        const pqt_aimp_col *col = &cs->cols[i];
        pqt_aimp_acc *a = &acc[i];
        bool list = col->shape == 'l' || col->shape == 'L';
        pqt_aimp_vals v = {.kind = col->kind, .n = a->nelem, .data = a->data.data};
        v.offsets = a->offsets.len ? (int64_t *)a->offsets.data : (int64_t *)&zero;
        v.bytes = (const char *)a->bytes.data;
        v.valid = a->valid.data;
        uint8_t *row_valid = a->row_valid.data;
        const int64_t *lo = !list                 ? NULL
                            : a->list_offsets.len ? (int64_t *)a->list_offsets.data
                                                  : &zero;
        st = pqt_aimp_add_column(t, col, a->nrows, &v, lo, &row_valid);
        /* what add_column allocated for a column with no row is its own */
        if (v.valid != a->valid.data) pqt_mem_free(v.valid);
        if (row_valid != a->row_valid.data) pqt_mem_free(row_valid);
        acc_free(a); /* the table holds its copy: peak memory about one column over the table */
    }
    if (st != PQT_OK) {
        pqt_table_close(t);
        return st;
    }
    *ret = t;
    return PQT_OK;
}
