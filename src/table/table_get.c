/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_get.c - reaching values: copies with widening, zero-copy views and row-level access
 * (layer: table).
 *
 * Copies widen only int32 -> int64 and float32 -> float64 (the two conversions that lose
 * nothing), and give uint64 as int64 when every copied value fits (checked before anything
 * is written); anything else must ask for the stored kind or cast explicitly. Views never
 * convert: a kind mismatch is an error naming the stored kind. All row numbers here are
 * 1-based in the table's own numbering and are converted to 0-based once, at the top of
 * each call.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* The element kind a copy produces, or PQT_KIND. */
pqt_status pqt_tbl_copy_kind(const pqt_tcol *c, int to_kind, const char *call, int *out)
{
    int ek = PQT_KIND_ELEMENT(c->kind);
    if ((c->kind & PQT_LIST) || PQT_KIND_IS_BYTES(ek) || ek == PQT_NONE)
        return pqt_err(PQT_KIND, "%s: column '%s' is %s: copies take fixed-width columns (use "
                                 "pqt_table_column for its storage)",
                       call, c->name, pqt_kind_name(c->kind));
    if (to_kind == 0 || to_kind == ek || (to_kind == PQT_INT64 && ek == PQT_INT32) ||
        (to_kind == PQT_FLOAT64 && ek == PQT_FLOAT32) ||
        (to_kind == PQT_INT64 && ek == PQT_UINT64)) {
        *out = to_kind ? to_kind : ek;
        return PQT_OK;
    }
    if (ek == PQT_UINT64)
        return pqt_err(PQT_KIND, "%s: column '%s' is %s: a copy gives uint64, or int64 when every "
                                 "value fits; for %s convert explicitly with "
                                 "pqt_table_cast(t, \"%s\", PQT_%s, 0) (values above 2^53 round)",
                       call, c->name, pqt_kind_name(c->kind), pqt_kind_name(to_kind), c->name,
                       to_kind == PQT_FLOAT64 ? "FLOAT64" : to_kind == PQT_FLOAT32 ? "FLOAT32"
                                                                                  : "INT32");
    return pqt_err(PQT_KIND, "%s: column '%s' is stored as %s; a copy gives the stored kind or "
                             "widens int32 -> int64, float32 -> float64, not %s",
                   call, c->name, pqt_kind_name(c->kind), pqt_kind_name(to_kind));
}

/* Row (0-based) holding element e of b. */
static int64_t row_of_elem(const pqt_colbuf *b, int64_t e)
{
    if (!b->is_list) return e;
    int64_t lo = 0, hi = b->nrows; /* list_offsets[lo] <= e < list_offsets[hi] */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (b->list_offsets[mid] <= e) lo = mid;
        else hi = mid;
    }
    return lo;
}

pqt_status pqt_tbl_check_fit(const pqt_colbuf *b, int64_t first, int64_t n, int to,
                             const char *call, const char *name)
{
    if (b->elem_kind != PQT_UINT64 || to != PQT_INT64) return PQT_OK;
    const uint64_t *v = (const uint64_t *)b->data + first;
    uint64_t any = 0;
    for (int64_t i = 0; i < n; i++) any |= v[i]; /* one pass; the search runs only on a hit */
    if (!(any >> 63)) return PQT_OK;
    for (int64_t i = 0; i < n; i++)
        if ((v[i] >> 63) && pqt_bit_get(b->validity, first + i))
            return pqt_err(PQT_OVERFLOW, "%s: column '%s', row %lld: uint64 value %llu does not "
                                         "fit int64; nothing was copied (get it as PQT_UINT64)",
                           call, name, (long long)row_of_elem(b, first + i) + 1,
                           (unsigned long long)v[i]);
    return PQT_OK;
}

/* Zero the slots of dst (es bytes each) whose elements first..first+n-1 are null in
 * validity (NULL: none is); whether any was. Whole 64-bit words of present elements are
 * skipped with one test: columns declared optional hold no null in most rows, and a test
 * per element cost a sixth of a column read. */
static bool zero_null_slots(const uint8_t *validity, int64_t first, int64_t n, void *dst,
                            size_t es)
{
    bool any = false;
    char *d = dst;
    for (int64_t i = 0; validity && i < n;) {
        int64_t j = first + i;
        if ((j & 63) == 0 && n - i >= 64) {
            uint64_t w;
            memcpy(&w, validity + (j >> 3), sizeof w);
            if (w == UINT64_MAX) {
                i += 64;
                continue;
            }
        }
        if (!(validity[j >> 3] >> (j & 7) & 1)) {
            any = true;
            if (d) memset(d + (size_t)i * es, 0, es);
        }
        i++;
    }
    return any;
}

/* Whether any of elements 0..n-1 is null. */
static bool any_null_in(const uint8_t *validity, int64_t n)
{
    return zero_null_slots(validity, 0, n, NULL, 0);
}

/* Copy n elements from element `first` of b into dst as kind `to`. */
void pqt_tbl_copy_elems(const pqt_colbuf *b, int64_t first, int64_t n, void *dst, int to)
{
    const char *src = (const char *)b->data + (size_t)first * b->elem_nbytes;
    if (to == b->elem_kind || (to == PQT_INT64 && b->elem_kind == PQT_UINT64)) {
        memcpy(dst, src, (size_t)n * b->elem_nbytes); /* uint64 -> int64: checked to fit */
    } else if (to == PQT_INT64) {
        for (int64_t i = 0; i < n; i++) ((int64_t *)dst)[i] = ((const int32_t *)src)[i];
    } else {
        for (int64_t i = 0; i < n; i++) ((double *)dst)[i] = ((const float *)src)[i];
    }
    /* nulls copy as 0 whatever the decoder left in their slots */
    zero_null_slots(b->validity, first, n, dst, pqt_kind_elem_nbytes(to));
}

void pqt_tbl_copy_validity(const pqt_colbuf *b, int64_t first, int64_t n, uint8_t *v, int64_t at)
{
    int64_t i = 0;
    if ((first & 7) == 0 && (at & 7) == 0) { /* byte-aligned: whole bytes at once */
        size_t nbytes = (size_t)(n >> 3);
        if (b->validity) memcpy(v + (at >> 3), b->validity + (first >> 3), nbytes);
        else memset(v + (at >> 3), 0xff, nbytes);
        i = (int64_t)nbytes * 8;
    }
    for (; i < n; i++) pqt_bit_set(v, at + i, pqt_bit_get(b->validity, first + i));
}

pqt_status pqt_table_get_nbytes(pqt_table *t, const char *name, int to_kind, size_t *nbytes_ret)
{
    const char *call = "pqt_table_get_nbytes";
    int ci = -1, k = 0;
    if (t && name && pqt_tbl_find(t, name) < 0 && pqt_table_has_column(t, name)) {
        /* the virtual row index: int64, known without building it */
        if (to_kind != 0 && to_kind != PQT_INT64)
            return pqt_err(PQT_KIND, "%s: '%s' is int64", call, name);
        if (nbytes_ret) *nbytes_ret = (size_t)t->nrows * 8;
        return PQT_OK;
    }
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    PQT_TRY(pqt_tbl_resolve_kind(t, ci, call));
    PQT_TRY(pqt_tbl_copy_kind(&t->cols[ci], to_kind, call, &k));
    if (nbytes_ret)
        *nbytes_ret = (size_t)t->nrows * (size_t)t->cols[ci].width * pqt_kind_elem_nbytes(k);
    return PQT_OK;
}

static pqt_status check_dst(const char *call, const char *name, int64_t nelem, int k,
                            const void *dst, size_t dst_nbytes, const uint8_t *validity,
                            size_t validity_nbytes)
{
    size_t need = (size_t)nelem * pqt_kind_elem_nbytes(k);
    if ((!dst && need > 0) || dst_nbytes < need)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %zu bytes given, %lld elements of %s need %zu",
                       call, name, dst_nbytes, (long long)nelem, pqt_kind_name(k), need);
    if (validity && validity_nbytes < (size_t)(nelem + 7) / 8)
        return pqt_err(PQT_MISUSE, "%s: column '%s': validity holds %zu bytes, %lld elements need "
                                   "%lld",
                       call, name, validity_nbytes, (long long)nelem, (long long)(nelem + 7) / 8);
    return PQT_OK;
}

/* After a direct read: nulls read as 0 whatever the decoder left in their slots; the
 * caller's validity (when given) gets the bits. Frees b (not dst). Returns whether any
 * value is null. */
static bool finish_direct(pqt_colbuf *b, void *dst, int k, uint8_t *validity)
{
    bool any_null = zero_null_slots(b->validity, 0, b->nelem, dst, pqt_kind_elem_nbytes(k));
    if (validity) pqt_tbl_copy_validity(b, 0, b->nelem, validity, 0);
    pqt_colbuf_free(b);
    return any_null;
}

pqt_status pqt_table_get(pqt_table *t, const char *name, int to_kind, void *dst,
                         size_t dst_nbytes, uint8_t *validity, size_t validity_nbytes)
{
    const char *call = "pqt_table_get";
    int ci = pqt_tbl_direct_slot(t, name, to_kind), k = 0;
    if (ci >= 0) {
        k = PQT_KIND_ELEMENT(t->cols[ci].kind);
        PQT_TRY(check_dst(call, name, t->nrows, k, dst, dst_nbytes, validity, validity_nbytes));
        pqt_colbuf b;
        PQT_TRY(pqt_tbl_read_direct(t, ci, call, dst, validity != NULL, &b));
        finish_direct(&b, dst, k, validity);
        return PQT_OK;
    }
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    PQT_TRY(pqt_tbl_copy_kind(c, to_kind, call, &k));
    const pqt_colbuf *b = &c->buf;
    PQT_TRY(check_dst(call, name, b->nelem, k, dst, dst_nbytes, validity, validity_nbytes));
    PQT_TRY(pqt_tbl_check_fit(b, 0, b->nelem, k, call, name));
    if (b->nelem > 0) pqt_tbl_copy_elems(b, 0, b->nelem, dst, k);
    if (validity) pqt_tbl_copy_validity(b, 0, b->nelem, validity, 0);
    return PQT_OK;
}

/* get_alloc of a never-read column: one allocation, decoded into directly. */
static pqt_status get_alloc_direct(pqt_table *t, int ci, const char *call, void **data_ret,
                                   uint8_t **validity_ret, int64_t *nelem_ret)
{
    int k = PQT_KIND_ELEMENT(t->cols[ci].kind);
    int64_t n = t->nrows;
    void *d = NULL;
    pqt_colbuf b;
    /* values the open's filter kept are handed over whole: no decode, no copy */
    PQT_TRY(pqt_tbl_keep_handover(t, ci, call, &d, &b));
    if (!d) {
        d = pqt_malloc_array((size_t)n + 1, pqt_kind_elem_nbytes(k));
        if (!d)
            return pqt_err(PQT_NOMEM, "%s: out of memory for column '%s'", call, t->cols[ci].name);
        pqt_status st = pqt_tbl_read_direct(t, ci, call, d, validity_ret != NULL, &b);
        if (st != PQT_OK) {
            pqt_mem_free(d);
            return st;
        }
    }
    uint8_t *v = NULL;
    if (validity_ret && any_null_in(b.validity, b.nelem)) {
        if (!(v = pqt_calloc((size_t)(n + 7) / 8 + 1, 1))) {
            pqt_colbuf_free(&b);
            pqt_mem_free(d);
            return pqt_err(PQT_NOMEM, "%s: out of memory for column '%s'", call,
                           t->cols[ci].name);
        }
    }
    finish_direct(&b, d, k, v);
    *data_ret = d;
    if (validity_ret) *validity_ret = v;
    if (nelem_ret) *nelem_ret = n;
    return PQT_OK;
}

/* get_alloc of any other never-read column (vectors, uint64 as int64, decode_kind
 * conversions): read without making it resident, and hand the read's own arrays over when
 * they already are the answer (elements from 0 in the element kind asked for), so the
 * values are decoded once and held once. */
static pqt_status get_alloc_transient(pqt_table *t, int ci, int to_kind, const char *call,
                                      void **data_ret, uint8_t **validity_ret, int64_t *nelem_ret)
{
    int k = 0;
    /* refusals a known kind can tell come before the read */
    if (t->cols[ci].kind_known) PQT_TRY(pqt_tbl_copy_kind(&t->cols[ci], to_kind, call, &k));
    pqt_colbuf b;
    PQT_TRY(pqt_tbl_read_transient(t, ci, call, &b));
    const pqt_tcol *c = &t->cols[ci];
    pqt_status st = pqt_tbl_copy_kind(c, to_kind, call, &k);
    int64_t first = b.is_list ? b.list_offsets[0] : 0;
    int64_t n = b.is_list ? b.list_offsets[b.nrows] - first : b.nelem;
    if (st == PQT_OK) st = pqt_tbl_check_fit(&b, first, n, k, call, c->name);
    if (st != PQT_OK) {
        pqt_colbuf_free(&b);
        return st;
    }
    void *d = NULL;
    uint8_t *v = NULL;
    size_t es = pqt_kind_elem_nbytes(k);
    if (first == 0 && !b.data_borrowed && b.data && es == b.elem_nbytes) {
        /* same element bytes (uint64 as int64 was checked to fit): the read is the copy */
        bool any_null = zero_null_slots(b.validity, 0, n, b.data, es);
        d = b.data;
        b.data = NULL;
        if (validity_ret && any_null) {
            v = b.validity; /* bits from 0, (n + 7) / 8 bytes at least */
            b.validity = NULL;
            if (n & 7) v[n >> 3] &= (uint8_t)((1u << (n & 7)) - 1); /* as a fresh copy: 0 past n */
        }
    } else {
        bool any_null = b.validity && zero_null_slots(b.validity, first, n, NULL, 0);
        d = pqt_malloc_array((size_t)n + 1, es);
        v = validity_ret && any_null ? pqt_calloc((size_t)(n + 7) / 8 + 1, 1) : NULL;
        if (!d || (validity_ret && any_null && !v)) {
            pqt_mem_free(d);
            pqt_mem_free(v);
            pqt_colbuf_free(&b);
            return pqt_err(PQT_NOMEM, "%s: out of memory copying column '%s'", call, c->name);
        }
        if (n > 0) pqt_tbl_copy_elems(&b, first, n, d, k);
        if (v) pqt_tbl_copy_validity(&b, first, n, v, 0);
    }
    pqt_colbuf_free(&b);
    *data_ret = d;
    if (validity_ret) *validity_ret = v;
    if (nelem_ret) *nelem_ret = n;
    return PQT_OK;
}

pqt_status pqt_table_get_alloc(pqt_table *t, const char *name, int to_kind, void **data_ret,
                               uint8_t **validity_ret, int64_t *nelem_ret)
{
    const char *call = "pqt_table_get_alloc";
    int ci = -1, k = 0;
    if (!data_ret) return pqt_err(PQT_MISUSE, "%s: data_ret is NULL", call);
    int direct = pqt_tbl_direct_slot(t, name, to_kind);
    if (direct >= 0) return get_alloc_direct(t, direct, call, data_ret, validity_ret, nelem_ret);
    int transient = pqt_tbl_transient_slot(t, name);
    if (transient >= 0 && !PQT_KIND_IS_BYTES(PQT_KIND_ELEMENT(t->cols[transient].kind)))
        return get_alloc_transient(t, transient, to_kind, call, data_ret, validity_ret, nelem_ret);
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    PQT_TRY(pqt_tbl_copy_kind(c, to_kind, call, &k));
    const pqt_colbuf *b = &c->buf;
    PQT_TRY(pqt_tbl_check_fit(b, 0, b->nelem, k, call, name));
    bool any_null = any_null_in(b->validity, b->nelem);
    void *d = pqt_malloc_array((size_t)b->nelem + 1, pqt_kind_elem_nbytes(k));
    uint8_t *v = validity_ret && any_null ? pqt_calloc((size_t)(b->nelem + 7) / 8 + 1, 1) : NULL;
    if (!d || (validity_ret && any_null && !v)) {
        pqt_mem_free(d);
        pqt_mem_free(v);
        return pqt_err(PQT_NOMEM, "%s: out of memory copying column '%s'", call, name);
    }
    if (b->nelem > 0) pqt_tbl_copy_elems(b, 0, b->nelem, d, k);
    if (v) pqt_tbl_copy_validity(b, 0, b->nelem, v, 0);
    *data_ret = d;
    if (validity_ret) *validity_ret = v;
    if (nelem_ret) *nelem_ret = b->nelem;
    return PQT_OK;
}

pqt_status pqt_tbl_check_row(const pqt_table *t, const char *call, const char *name, int64_t row)
{
    if (row < 1 || row > t->nrows)
        return pqt_err(PQT_RANGE, "%s: column '%s': row %lld is outside the table's rows 1..%lld",
                       call, name, (long long)row, (long long)t->nrows);
    return PQT_OK;
}

pqt_status pqt_table_get_rows(pqt_table *t, const char *name, const int64_t *rows, int64_t n,
                              int to_kind, void *dst, size_t dst_nbytes, uint8_t *validity,
                              size_t validity_nbytes)
{
    const char *call = "pqt_table_get_rows";
    int ci = -1, k = 0;
    if (n < 0 || (n > 0 && !rows)) return pqt_err(PQT_MISUSE, "%s: bad row list", call);
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    PQT_TRY(pqt_tbl_copy_kind(c, to_kind, call, &k));
    for (int64_t i = 0; i < n; i++) PQT_TRY(pqt_tbl_check_row(t, call, name, rows[i]));
    int64_t w = c->width, nelem = n * w;
    size_t es = pqt_kind_elem_nbytes(k), need = (size_t)nelem * es;
    if ((!dst && need > 0) || dst_nbytes < need)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %zu bytes given, %lld elements of %s need %zu",
                       call, name, dst_nbytes, (long long)nelem, pqt_kind_name(k), need);
    if (validity && validity_nbytes < (size_t)(nelem + 7) / 8)
        return pqt_err(PQT_MISUSE, "%s: column '%s': validity holds %zu bytes, need %lld", call,
                       name, validity_nbytes, (long long)(nelem + 7) / 8);
    for (int64_t i = 0; i < n; i++)
        PQT_TRY(pqt_tbl_check_fit(&c->buf, pqt_tbl_row_first(&c->buf, rows[i] - 1), w, k, call,
                                  name));
    for (int64_t i = 0; i < n; i++) {
        int64_t first = pqt_tbl_row_first(&c->buf, rows[i] - 1);
        pqt_tbl_copy_elems(&c->buf, first, w, (char *)dst + (size_t)(i * w) * es, k);
        if (validity) pqt_tbl_copy_validity(&c->buf, first, w, validity, i * w);
    }
    return PQT_OK;
}

pqt_status pqt_table_column(pqt_table *t, const char *name, int expect_kind, pqt_column_view *view)
{
    const char *call = "pqt_table_column";
    if (!view || view->struct_size < offsetof(pqt_column_view, generation) + sizeof(uint64_t))
        return pqt_err(PQT_MISUSE, "%s: view is NULL or its struct_size (%zu) is too small; set "
                                   "struct_size = sizeof(pqt_column_view)",
                       call, view ? view->struct_size : (size_t)0);
    int ci = -1;
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    pqt_tcol *c = &t->cols[ci];
    if (expect_kind != 0 && expect_kind != c->kind)
        return pqt_err(PQT_KIND, "%s: column '%s': the view asked for %s but the stored kind is "
                                 "%s; a view never converts -- use pqt_table_get to copy with "
                                 "widening",
                       call, name, pqt_kind_name(expect_kind), pqt_kind_name(c->kind));
    if (pqt_colbuf_shared(&c->buf)) {
        /* the caller may write through the view: not into arrays an export reads */
        PQT_TBL_HOLD(t, call, "copying a column an export reads");
        PQT_TRY(pqt_tbl_own(t, c, call));
    }
    const pqt_colbuf *b = &c->buf;
    size_t sz = view->struct_size;
    memset((char *)view + sizeof view->struct_size, 0,
           (sz < sizeof *view ? sz : sizeof *view) - sizeof view->struct_size);
    view->kind = c->kind;
    view->width = c->width;
    view->time_unit = c->time_unit;
    view->nrows = t->nrows;
    view->nelem = b->nelem;
    view->data = b->data;
    view->validity = b->validity;
    view->row_validity = b->is_list ? b->row_validity : NULL;
    view->str_offsets = b->str_offsets;
    view->str_bytes = b->str_offsets ? (b->str_bytes.data ? (const char *)b->str_bytes.data : "") : NULL;
    view->list_offsets = b->is_list ? b->list_offsets : NULL;
    view->unit = c->unit;
    view->generation = t->generation;
    return PQT_OK;
}

/* Resolve (row, elem) to an element index of a resident column. */
static pqt_status element_at(const pqt_table *t, const pqt_tcol *c, const char *call,
                             int64_t row, int elem, int64_t *e_ret)
{
    PQT_TRY(pqt_tbl_check_row(t, call, c->name, row));
    int64_t n = pqt_tbl_row_nelem(&c->buf, row - 1);
    if (elem == 0 && n == 1) elem = 1;
    if (elem < 1 || elem > n)
        return pqt_err(PQT_RANGE, "%s: column '%s', row %lld: element %d is outside 1..%lld", call,
                       c->name, (long long)row, elem, (long long)n);
    *e_ret = pqt_tbl_row_first(&c->buf, row - 1) + elem - 1;
    return PQT_OK;
}

pqt_status pqt_table_is_null(pqt_table *t, const char *name, int64_t row, int elem,
                             int *is_null_ret)
{
    const char *call = "pqt_table_is_null";
    int ci = -1;
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    PQT_TRY(pqt_tbl_check_row(t, call, name, row));
    int r;
    if (elem == 0) {
        r = pqt_tbl_row_is_null(c, row - 1);
        /* a list row's elements: any null element makes the row "null" too */
        if (!r && c->buf.is_list && c->buf.validity) {
            int64_t f = pqt_tbl_row_first(&c->buf, row - 1), n = pqt_tbl_row_nelem(&c->buf, row - 1);
            for (int64_t e = 0; e < n && !r; e++) r = !pqt_bit_get(c->buf.validity, f + e);
        }
    } else {
        int64_t e;
        PQT_TRY(element_at(t, c, call, row, elem, &e));
        r = !pqt_bit_get(c->buf.validity, e);
    }
    if (is_null_ret) *is_null_ret = r;
    return PQT_OK;
}

pqt_status pqt_table_get_value(pqt_table *t, const char *name, int64_t row, int elem,
                               int to_kind, void *dst, size_t dst_nbytes, int *is_null_ret)
{
    const char *call = "pqt_table_get_value";
    int ci = -1, k = 0;
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    int ek = PQT_KIND_ELEMENT(c->kind);
    if (PQT_KIND_IS_BYTES(ek) || ek == PQT_NONE)
        return pqt_err(PQT_KIND, "%s: column '%s' is %s (use pqt_table_get_string)", call, name,
                       pqt_kind_name(c->kind));
    /* a list element is fixed-width even when the list is not */
    pqt_tcol tmp = *c;
    tmp.kind = ek;
    PQT_TRY(pqt_tbl_copy_kind(&tmp, to_kind, call, &k));
    int64_t e;
    PQT_TRY(element_at(t, c, call, row, elem, &e));
    if (!dst || dst_nbytes < pqt_kind_elem_nbytes(k))
        return pqt_err(PQT_MISUSE, "%s: column '%s': destination holds %zu bytes, %s needs %zu",
                       call, name, dst_nbytes, pqt_kind_name(k), pqt_kind_elem_nbytes(k));
    PQT_TRY(pqt_tbl_check_fit(&c->buf, e, 1, k, call, name));
    pqt_tbl_copy_elems(&c->buf, e, 1, dst, k);
    if (is_null_ret) *is_null_ret = !pqt_bit_get(c->buf.validity, e);
    return PQT_OK;
}

pqt_status pqt_table_get_string(pqt_table *t, const char *name, int64_t row, int elem,
                                const char **ptr_ret, int64_t *len_ret, int *is_null_ret)
{
    const char *call = "pqt_table_get_string";
    int ci = -1;
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    if (!PQT_KIND_IS_BYTES(c->kind))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s, not string or binary", call, name,
                       pqt_kind_name(c->kind));
    int64_t e;
    PQT_TRY(element_at(t, c, call, row, elem, &e));
    bool null = !pqt_bit_get(c->buf.validity, e);
    int64_t o0 = c->buf.str_offsets[e], o1 = c->buf.str_offsets[e + 1];
    if (ptr_ret)
        *ptr_ret = null || o1 == o0 ? "" : (const char *)c->buf.str_bytes.data + o0;
    if (len_ret) *len_ret = null ? 0 : o1 - o0;
    if (is_null_ret) *is_null_ret = null;
    return PQT_OK;
}
