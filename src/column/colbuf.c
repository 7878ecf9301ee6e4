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
    case PQT_INT128:
        return 16;
    case PQT_BOOL:
        return 1;
    default:
        return 0;
    }
}

size_t pqt_kind_elem_nbytes(int kind)
{
    return kind_nbytes(PQT_KIND_ELEMENT(kind));
}

/* The arrays of a colbuf when it was shared. A colbuf may change its arrays after that (a
 * validity bitmap allocated when a first null is written): sharing it again makes a new
 * owner over the old one, which frees only the arrays its base does not hold. */
struct pqt_colbuf_share {
    _Atomic int64_t refs;
    pqt_colbuf arrays;             /* share == NULL */
    struct pqt_colbuf_share *base; /* a reference, or NULL */
};

/* Free the arrays of a that are not base's (NULL: all of them). */
static void free_arrays_beyond(pqt_colbuf *a, const pqt_colbuf *base, void (*free_fn)(void *))
{
#define PQT_FREE_BEYOND(f)                                                                         \
    if (!base || a->f != base->f) free_fn(a->f)
    if (!a->data_borrowed) PQT_FREE_BEYOND(data);
    PQT_FREE_BEYOND(validity);
    PQT_FREE_BEYOND(str_offsets);
    if (!a->str_bytes.fixed) PQT_FREE_BEYOND(str_bytes.data);
    PQT_FREE_BEYOND(list_offsets);
    PQT_FREE_BEYOND(row_validity);
#undef PQT_FREE_BEYOND
    memset(a, 0, sizeof *a);
}

static bool same_arrays(const pqt_colbuf *a, const pqt_colbuf *b)
{
    return a->data == b->data && a->validity == b->validity && a->str_offsets == b->str_offsets &&
           a->str_bytes.data == b->str_bytes.data && a->list_offsets == b->list_offsets &&
           a->row_validity == b->row_validity && a->nrows == b->nrows && a->nelem == b->nelem &&
           a->str_bytes.len == b->str_bytes.len;
}

pqt_status pqt_colbuf_share_take(pqt_colbuf *b, pqt_colbuf_share **ret)
{
    if (b->data_borrowed) return pqt_err(PQT_MISUSE, "a column on caller memory cannot be shared");
    if (!b->share || !same_arrays(b, &b->share->arrays)) {
        pqt_colbuf_share *s = pqt_malloc(sizeof *s);
        if (!s) return pqt_err(PQT_NOMEM, "out of memory sharing a column's arrays");
        atomic_init(&s->refs, 1); /* b's */
        s->base = b->share;       /* b's reference to it passes to s */
        s->arrays = *b;
        s->arrays.share = NULL;
        b->share = s;
    }
    atomic_fetch_add(&b->share->refs, 1);
    *ret = b->share;
    return PQT_OK;
}

void pqt_colbuf_share_drop(pqt_colbuf_share *s)
{
    while (s && atomic_fetch_sub(&s->refs, 1) == 1) {
        pqt_colbuf_share *base = s->base;
        free_arrays_beyond(&s->arrays, base ? &base->arrays : NULL, pqt_mem_free);
        pqt_mem_free(s);
        s = base;
    }
}

void pqt_colbuf_share_ref(pqt_colbuf_share *s) { atomic_fetch_add(&s->refs, 1); }

const pqt_colbuf *pqt_colbuf_share_arrays(const pqt_colbuf_share *s) { return &s->arrays; }

bool pqt_colbuf_shared(const pqt_colbuf *b)
{
    /* each owner's base is referenced once by the owner above it: more is someone else */
    for (const pqt_colbuf_share *s = b->share; s; s = s->base)
        if (atomic_load(&s->refs) > 1) return true;
    return false;
}

bool pqt_colbuf_data_shared(const pqt_colbuf *b)
{
    return b->share && b->data == b->share->arrays.data;
}

static void colbuf_free_with(pqt_colbuf *b, void (*free_fn)(void *))
{
    if (b->share) { /* the shared arrays go with the last reference; newer ones now */
        pqt_colbuf_share *s = b->share;
        free_arrays_beyond(b, &s->arrays, free_fn);
        pqt_colbuf_share_drop(s);
        return;
    }
    free_arrays_beyond(b, NULL, free_fn);
}

void pqt_colbuf_free(pqt_colbuf *b) { colbuf_free_with(b, pqt_mem_free); }

void pqt_colbuf_free_recycled(pqt_colbuf *b) { colbuf_free_with(b, pqt_mem_free_recycled); }

/* The spare's array *have when it holds at least need bytes (taken: *have becomes NULL),
 * else fresh memory. Reused memory is already mapped: fresh memory of this size comes from
 * the kernel, zeroed page by page on first touch, which costs as much as the decoding. */
static void *take(void **have, size_t have_nbytes, size_t need)
{
    if (*have && have_nbytes >= need) {
        void *p = *have;
        *have = NULL;
        return p;
    }
    return pqt_malloc(need);
}

static void *take_zeroed(void **have, size_t have_nbytes, size_t need)
{
    if (*have && have_nbytes >= need) {
        void *p = take(have, have_nbytes, need);
        memset(p, 0, need);
        return p;
    }
    return pqt_calloc(need, 1);
}

pqt_status pqt_colbuf_alloc_reusing(pqt_colbuf *b, const pqt_col *col, int64_t nrows,
                                    int64_t elem_cap, void *borrowed_data, pqt_colbuf *spare)
{
    pqt_colbuf none;
    memset(&none, 0, sizeof none);
    if (spare && spare->share) pqt_colbuf_free(spare); /* its arrays are read elsewhere */
    pqt_colbuf *sp = spare && !spare->share ? spare : &none;
    if (sp->data_borrowed) sp->data = NULL;
    size_t sp_elems = (size_t)sp->elem_cap + 1, sp_rows = (size_t)sp->rows_cap + 1;
    memset(b, 0, sizeof *b);
    if (nrows < 0 || elem_cap < 0) {
        pqt_colbuf_free(sp);
        return pqt_err(PQT_MISUSE, "negative column size");
    }
    b->elem_kind = col->elem_kind;
    b->is_list = col->is_list;
    b->elem_nbytes = kind_nbytes(col->elem_kind);
    int64_t nelem = col->is_list ? elem_cap : nrows;
    b->elem_cap = nelem;
    b->rows_cap = nrows;
    bool elem_nullable = col->is_list ? col->max_def > col->elem_def : col->nullable;
    void *have;
    if (PQT_KIND_IS_BYTES(col->elem_kind)) {
        have = sp->str_offsets;
        b->str_offsets = take(&have, sp_elems * 8, ((size_t)nelem + 1) * 8);
        sp->str_offsets = have;
        if (!b->str_offsets) goto oom;
        b->str_offsets[0] = 0;
        if (sp->str_bytes.data && !sp->str_bytes.fixed) {
            b->str_bytes = sp->str_bytes;
            b->str_bytes.len = 0;
            memset(&sp->str_bytes, 0, sizeof sp->str_bytes);
        }
    } else if (borrowed_data) {
        b->data = borrowed_data;
        b->data_borrowed = true;
    } else {
        have = sp->data;
        b->data = take(&have, sp_elems * sp->elem_nbytes, ((size_t)nelem + 1) * b->elem_nbytes);
        sp->data = have;
        if (!b->data) goto oom;
    }
    if (elem_nullable) {
        have = sp->validity;
        b->validity = take_zeroed(&have, sp->validity ? (sp_elems + 6) / 8 + 1 : 0,
                                  (size_t)(nelem + 7) / 8 + 1);
        sp->validity = have;
        if (!b->validity) goto oom;
    }
    if (col->is_list) {
        have = sp->list_offsets;
        b->list_offsets = take(&have, sp->list_offsets ? sp_rows * 8 : 0, ((size_t)nrows + 1) * 8);
        sp->list_offsets = have;
        if (!b->list_offsets) goto oom;
        b->list_offsets[0] = 0;
        if (col->list_def > 0) {
            have = sp->row_validity;
            b->row_validity = take_zeroed(&have, sp->row_validity ? (sp_rows + 6) / 8 + 1 : 0,
                                          (size_t)(nrows + 7) / 8 + 1);
            sp->row_validity = have;
            if (!b->row_validity) goto oom;
        }
        b->nrows = 0;
    } else {
        b->nrows = nrows;
    }
    b->nelem = col->is_list ? 0 : nrows;
    pqt_colbuf_free(sp);
    return PQT_OK;
oom:
    pqt_colbuf_free(sp);
    pqt_colbuf_free(b);
    return pqt_err(PQT_NOMEM, "out of memory allocating column '%s' (%lld rows)", col->path,
                   (long long)nrows);
}

pqt_status pqt_colbuf_alloc(pqt_colbuf *b, const pqt_col *col, int64_t nrows, int64_t elem_cap,
                            void *borrowed_data)
{
    return pqt_colbuf_alloc_reusing(b, col, nrows, elem_cap, borrowed_data, NULL);
}

pqt_status pqt_colbuf_reserve_elems(pqt_colbuf *b, int64_t need)
{
    if (need <= b->elem_cap) return PQT_OK;
    if (b->share) return pqt_err(PQT_MISUSE, "a shared list column cannot grow");
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
    if (PQT_KIND_IS_BYTES(b->elem_kind)) {
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
