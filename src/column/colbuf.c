/* SPDX-License-Identifier: Apache-2.0 */
/*
 * colbuf.c - allocation of a column's destination arrays (layer: column).
 *
 * Everything a read writes into is allocated once, at the size the read plan knows
 * (rows of the slice; list elements bounded by the chunks' value counts), so decoding
 * never reallocates except the string byte buffer, which grows geometrically.
 */
#include <string.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/mem.h"

static size_t kind_nbytes(int kind)
{
    switch (kind) {
    case PQT_INT32: case PQT_FLOAT32: case PQT_DATE: return 4;
    case PQT_INT64: case PQT_FLOAT64: case PQT_TIME: case PQT_TIMESTAMP: case PQT_UINT64: return 8;
    case PQT_INT128: return 16;
    case PQT_BOOL: return 1;
    default: return 0;
    }
}

size_t pqt_kind_elem_nbytes(int kind) { return kind_nbytes(PQT_KIND_ELEMENT(kind)); }

void pqt_colbuf_free(pqt_colbuf *b)
{
    if (!b->data_borrowed) pqt_mem_free(b->data);
    pqt_mem_free(b->validity);
    pqt_mem_free(b->str_offsets);
    pqt_buf_free(&b->str_bytes);
    pqt_mem_free(b->list_offsets);
    pqt_mem_free(b->row_validity);
    memset(b, 0, sizeof *b);
}

pqt_status pqt_colbuf_alloc(pqt_colbuf *b, const pqt_col *col, int64_t nrows, int64_t elem_cap,
                            void *borrowed_data)
{
    memset(b, 0, sizeof *b);
    if (nrows < 0 || elem_cap < 0) return pqt_err(PQT_MISUSE, "negative column size");
    b->elem_kind = col->elem_kind;
    b->is_list = col->is_list;
    b->elem_nbytes = kind_nbytes(col->elem_kind);
    int64_t nelem = col->is_list ? elem_cap : nrows;
    b->elem_cap = nelem;
    b->rows_cap = nrows;
    bool elem_nullable = col->is_list ? col->max_def > col->elem_def : col->nullable;
    if (col->elem_kind == PQT_STRING) {
        b->str_offsets = pqt_malloc_array((size_t)nelem + 1, sizeof(int64_t));
        if (!b->str_offsets) goto oom;
        b->str_offsets[0] = 0;
    } else if (borrowed_data) {
        b->data = borrowed_data;
        b->data_borrowed = true;
    } else {
        b->data = pqt_malloc_array((size_t)nelem + 1, b->elem_nbytes);
        if (!b->data) goto oom;
    }
    if (elem_nullable) {
        b->validity = pqt_calloc((size_t)(nelem + 7) / 8 + 1, 1);
        if (!b->validity) goto oom;
    }
    if (col->is_list) {
        b->list_offsets = pqt_malloc_array((size_t)nrows + 1, sizeof(int64_t));
        if (!b->list_offsets) goto oom;
        b->list_offsets[0] = 0;
        if (col->list_def > 0) {
            b->row_validity = pqt_calloc((size_t)(nrows + 7) / 8 + 1, 1);
            if (!b->row_validity) goto oom;
        }
        b->nrows = 0;
    } else {
        b->nrows = nrows;
    }
    b->nelem = col->is_list ? 0 : nrows;
    return PQT_OK;
oom:
    pqt_colbuf_free(b);
    return pqt_err(PQT_NOMEM, "out of memory allocating column '%s' (%lld rows)", col->path,
                   (long long)nrows);
}

pqt_status pqt_colbuf_reserve_elems(pqt_colbuf *b, int64_t need)
{
    if (need <= b->elem_cap) return PQT_OK;
    if (need > b->elem_limit || b->data_borrowed)
        return pqt_err(PQT_CORRUPT, "more list elements (%lld) than the column chunks' value "
                                    "counts (%lld)",
                       (long long)need, (long long)(b->elem_limit > b->elem_cap ? b->elem_limit
                                                                                : b->elem_cap));
    int64_t cap = b->elem_cap > 512 ? b->elem_cap : 512;
    while (cap < need) cap = cap > INT64_MAX / 2 ? INT64_MAX : cap * 2;
    if (cap > b->elem_limit) cap = b->elem_limit;
    if ((uint64_t)cap > SIZE_MAX / 16 - 1) goto oom;
    size_t old_v = (size_t)(b->elem_cap + 7) / 8 + 1, new_v = (size_t)(cap + 7) / 8 + 1;
    if (b->elem_kind == PQT_STRING) {
        int64_t *o = pqt_realloc_sized(b->str_offsets, (size_t)(b->elem_cap + 1) * 8,
                                       (size_t)(cap + 1) * 8);
        if (!o) goto oom;
        b->str_offsets = o;
    } else {
        void *d = pqt_realloc_sized(b->data, (size_t)(b->elem_cap + 1) * b->elem_nbytes,
                                    (size_t)(cap + 1) * b->elem_nbytes);
        if (!d) goto oom;
        b->data = d;
    }
    if (b->validity) {
        uint8_t *v = pqt_realloc_sized(b->validity, old_v, new_v);
        if (!v) goto oom;
        memset(v + old_v, 0, new_v - old_v);
        b->validity = v;
    }
    b->elem_cap = cap;
    return PQT_OK;
oom:
    return pqt_err(PQT_NOMEM, "out of memory growing a list column to %lld elements",
                   (long long)cap);
}

int pqt_colbuf_uniform_width(const pqt_colbuf *b)
{
    if (!b->is_list || b->nrows == 0) return -1;
    int64_t w = b->list_offsets[1] - b->list_offsets[0];
    if (w < 1 || w > INT32_MAX) return -1;
    for (int64_t i = 0; i < b->nrows; i++) {
        if (b->list_offsets[i + 1] - b->list_offsets[i] != w) return -1;
        if (b->row_validity && !((b->row_validity[i >> 3] >> (i & 7)) & 1)) return -1;
    }
    return (int)w;
}
