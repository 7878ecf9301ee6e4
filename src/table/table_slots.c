/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_slots.c - column slots and the buffers that hold their values (layer: table).
 *
 * Every column's values live in one pqt_colbuf, the same layout the column reader decodes
 * into, so a first touch hands its buffer over without a copy. Columns made in memory use
 * the same layout: a vector column is a list buffer with offsets i * width and no null
 * rows. Gather (pick rows by index, with null rows) is the one primitive behind sort,
 * append and row copies; it drops the bytes of null strings, so a null string is always an
 * empty range.
 */
#include <math.h>
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* Room for `need` slots. */
static pqt_status slots_reserve(pqt_table *t, int need)
{
    if (need <= t->cap) return PQT_OK;
    int cap = t->cap ? t->cap * 2 : 8;
    if (cap < need) cap = need;
    pqt_tcol *cols = pqt_realloc(t->cols, (size_t)cap * sizeof *cols);
    if (!cols) return pqt_err(PQT_NOMEM, "out of memory adding a column slot");
    t->cols = cols;
    t->cap = cap;
    return PQT_OK;
}

pqt_status pqt_tbl_slot_next(pqt_table *t, pqt_tcol **ret)
{
    PQT_TRY(slots_reserve(t, t->ncols + 1));
    pqt_tcol *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->file_col = -1;
    c->time_unit = -1;
    c->residency = PQT_RES_EMPTY;
    *ret = c;
    return PQT_OK;
}

pqt_status pqt_tbl_slot_add(pqt_table *t, pqt_tcol **ret)
{
    /* keep one slot to spare: the row index, which a read may add while other threads look
     * names up, then takes it without moving the slots under them */
    PQT_TRY(slots_reserve(t, t->ncols + 2));
    PQT_TRY(pqt_tbl_slot_next(t, ret));
    pqt_tbl_names_drop(t);
    t->ncols++;
    return PQT_OK;
}

void pqt_tbl_slot_free(pqt_tcol *c)
{
    pqt_tbl_keep_free_col(c);
    pqt_mem_free(c->name);
    pqt_mem_free(c->unit);
    pqt_colbuf_free(&c->buf);
    memset(c, 0, sizeof *c);
}

void pqt_tbl_slot_remove(pqt_table *t, int ci)
{
    pqt_tbl_names_drop(t);
    pqt_tbl_slot_free(&t->cols[ci]);
    memmove(&t->cols[ci], &t->cols[ci + 1], (size_t)(t->ncols - ci - 1) * sizeof *t->cols);
    t->ncols--;
}

static size_t elem_nbytes(int k) { return pqt_kind_elem_nbytes(k); }

pqt_status pqt_tbl_buf_new(pqt_colbuf *b, int elem_kind, bool is_list, int vec_width,
                           bool nullable, int64_t nrows, int64_t nelem)
{
    memset(b, 0, sizeof *b);
    if (!is_list) nelem = nrows;
    if (vec_width > 0) nelem = nrows * vec_width;
    b->elem_kind = elem_kind;
    b->is_list = is_list;
    b->elem_nbytes = elem_nbytes(elem_kind);
    b->nrows = nrows;
    b->nelem = nelem;
    b->elem_cap = nelem;
    b->rows_cap = nrows;
    if (PQT_KIND_IS_BYTES(elem_kind)) {
        b->str_offsets = pqt_calloc((size_t)nelem + 1, sizeof(int64_t));
        if (!b->str_offsets) goto oom;
    } else {
        b->data = pqt_calloc((size_t)nelem + 1, b->elem_nbytes);
        if (!b->data) goto oom;
    }
    if (nullable) {
        b->validity = pqt_malloc((size_t)(nelem + 7) / 8 + 1);
        if (!b->validity) goto oom;
        memset(b->validity, 0xff, (size_t)(nelem + 7) / 8 + 1);
    }
    if (is_list) {
        b->list_offsets = pqt_calloc((size_t)nrows + 1, sizeof(int64_t));
        if (!b->list_offsets) goto oom;
        if (vec_width > 0)
            for (int64_t i = 0; i <= nrows; i++) b->list_offsets[i] = i * vec_width;
    }
    return PQT_OK;
oom:
    pqt_colbuf_free(b);
    return pqt_err(PQT_NOMEM, "out of memory allocating a column of %lld rows", (long long)nrows);
}

bool pqt_tbl_row_is_null(const pqt_tcol *c, int64_t i)
{
    const pqt_colbuf *b = &c->buf;
    if (b->is_list && b->row_validity && !pqt_bit_get(b->row_validity, i)) return true;
    if (!b->validity) return false;
    int64_t first = pqt_tbl_row_first(b, i), n = pqt_tbl_row_nelem(b, i);
    /* a variable-length list row with null elements is not itself null */
    if (b->is_list && !(c->kind & PQT_VECTOR)) return false;
    for (int64_t e = 0; e < n; e++)
        if (!pqt_bit_get(b->validity, first + e)) return true;
    return false;
}

/* Source row of idx entry: which buffer, which row; NULL for a null row. */
static const pqt_colbuf *pick(const pqt_colbuf *a, const pqt_colbuf *b, int64_t x, int64_t *row)
{
    if (x >= 0) {
        *row = x;
        return a;
    }
    if (x == -1) return NULL;
    *row = -x - 2;
    return b;
}

/* The common case of a permutation (sort, top-n): rows of one fixed-width scalar buffer,
 * every index valid. One typed loop per element size, no call a value. */
static bool gather_scalar(const pqt_colbuf *a, const int64_t *idx, int64_t n, pqt_colbuf *dst)
{
    size_t es = dst->elem_nbytes;
#define GATHER_(T)                                                                                 \
    for (int64_t i = 0; i < n; i++) ((T *)dst->data)[i] = ((const T *)a->data)[idx[i]];
    switch (es) {
    case 8: GATHER_(uint64_t) break;
    case 4: GATHER_(uint32_t) break;
    case 2: GATHER_(uint16_t) break;
    case 1: GATHER_(uint8_t) break;
    default: return false;
    }
#undef GATHER_
    if (dst->validity) {
        memset(dst->validity, 0, (size_t)(n + 7) / 8);
        for (int64_t i = 0; i < n; i++)
            dst->validity[i >> 3] |= (uint8_t)(pqt_bit_get(a->validity, idx[i]) << (i & 7));
    }
    return true;
}

pqt_status pqt_tbl_buf_gather(const pqt_colbuf *a, const pqt_colbuf *b, const int64_t *idx,
                              int64_t n, int vec_width, pqt_colbuf *dst)
{
    if (!b && !a->is_list && !a->str_offsets && vec_width <= 0 && a->elem_nbytes > 0) {
        bool all_rows = true;
        for (int64_t i = 0; i < n && all_rows; i++) all_rows = idx[i] >= 0;
        if (all_rows) {
            PQT_TRY(pqt_tbl_buf_new(dst, a->elem_kind, false, 0, a->validity != NULL, n, n));
            if (gather_scalar(a, idx, n, dst)) return PQT_OK;
            pqt_colbuf_free(dst);
        }
    }
    bool is_list = a->is_list;
    bool has_null_rows = false, elem_nullable = a->validity || (b && b->validity);
    int64_t nelem = 0, nbytes = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r;
        const pqt_colbuf *s = pick(a, b, idx[i], &r);
        if (!s) {
            has_null_rows = true;
            nelem += vec_width > 0 ? vec_width : is_list ? 0 : 1;
            continue;
        }
        int64_t f = pqt_tbl_row_first(s, r), k = pqt_tbl_row_nelem(s, r);
        if (is_list && s->row_validity && !pqt_bit_get(s->row_validity, r)) has_null_rows = true;
        nelem += k;
        for (int64_t e = 0; s->str_offsets && e < k; e++) /* a null string holds no bytes */
            if (pqt_bit_get(s->validity, f + e))
                nbytes += s->str_offsets[f + e + 1] - s->str_offsets[f + e];
    }
    /* null rows of a scalar or vector column are null elements; of a list, null rows */
    bool nullable = elem_nullable || (has_null_rows && (!is_list || vec_width > 0));
    PQT_TRY(pqt_tbl_buf_new(dst, a->elem_kind, is_list, vec_width, nullable, n, nelem));
    if (is_list && vec_width <= 0 && (has_null_rows || a->row_validity || (b && b->row_validity))) {
        dst->row_validity = pqt_malloc((size_t)(n + 7) / 8 + 1);
        if (!dst->row_validity) {
            pqt_colbuf_free(dst);
            return pqt_err(PQT_NOMEM, "out of memory gathering rows");
        }
        memset(dst->row_validity, 0xff, (size_t)(n + 7) / 8 + 1);
    }
    if (nbytes > 0 && pqt_buf_reserve(&dst->str_bytes, (size_t)nbytes) != PQT_OK) {
        pqt_colbuf_free(dst);
        return pqt_err(PQT_NOMEM, "out of memory gathering rows");
    }
    size_t es = dst->elem_nbytes;
    int64_t out = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r;
        const pqt_colbuf *s = pick(a, b, idx[i], &r);
        int64_t k;
        if (!s) {
            k = vec_width > 0 ? vec_width : is_list ? 0 : 1;
            for (int64_t e = 0; e < k; e++) {
                if (dst->validity) pqt_bit_set(dst->validity, out + e, false);
                if (dst->str_offsets) dst->str_offsets[out + e + 1] = (int64_t)dst->str_bytes.len;
            }
            if (dst->row_validity) pqt_bit_set(dst->row_validity, i, false);
        } else {
            int64_t f = pqt_tbl_row_first(s, r);
            k = pqt_tbl_row_nelem(s, r);
            if (dst->row_validity && s->row_validity && !pqt_bit_get(s->row_validity, r))
                pqt_bit_set(dst->row_validity, i, false);
            if (s->str_offsets) {
                for (int64_t e = 0; e < k; e++) {
                    int64_t o0 = s->str_offsets[f + e], o1 = s->str_offsets[f + e + 1];
                    if (!pqt_bit_get(s->validity, f + e)) o1 = o0;
                    if (o1 == o0) { /* all-empty strings may have no byte buffer at all */
                        dst->str_offsets[out + e + 1] = (int64_t)dst->str_bytes.len;
                        continue;
                    }
                    uint8_t *to = dst->str_bytes.data + dst->str_bytes.len;
                    const uint8_t *from = s->str_bytes.data + o0;
                    if (o1 - o0 > 16) memcpy(to, from, (size_t)(o1 - o0));
                    else /* short strings (most): a byte loop beats a call */
                        for (int64_t j = 0; j < o1 - o0; j++) to[j] = from[j];
                    dst->str_bytes.len += (size_t)(o1 - o0);
                    dst->str_offsets[out + e + 1] = (int64_t)dst->str_bytes.len;
                }
            } else if (k > 0) {
                memcpy((char *)dst->data + (size_t)out * es, (const char *)s->data + (size_t)f * es,
                       (size_t)k * es);
            }
            if (dst->validity)
                for (int64_t e = 0; e < k; e++)
                    pqt_bit_set(dst->validity, out + e, pqt_bit_get(s->validity, f + e));
        }
        out += k;
        if (is_list) dst->list_offsets[i + 1] = out;
    }
    return PQT_OK;
}

pqt_status pqt_tbl_buf_copy(const pqt_colbuf *src, int vec_width, pqt_colbuf *dst)
{
    int64_t *idx = pqt_malloc_array((size_t)src->nrows + 1, sizeof *idx);
    if (!idx) return pqt_err(PQT_NOMEM, "out of memory copying a column");
    for (int64_t i = 0; i < src->nrows; i++) idx[i] = i;
    pqt_status st = pqt_tbl_buf_gather(src, NULL, idx, src->nrows, vec_width, dst);
    pqt_mem_free(idx);
    return st;
}

pqt_status pqt_tbl_own(pqt_table *t, pqt_tcol *c, const char *call)
{
    if (c->residency != PQT_RES_FULL || !pqt_colbuf_shared(&c->buf)) return PQT_OK;
    pqt_colbuf nb;
    pqt_status st = pqt_tbl_buf_copy(&c->buf, (c->kind & PQT_VECTOR) ? c->width : 0, &nb);
    if (st != PQT_OK) {
        pqt_err_prefix("%s: column '%s': copying its exported arrays: ", call, c->name);
        return st;
    }
    pqt_colbuf_free(&c->buf); /* the export's references keep the old arrays */
    c->buf = nb;
    t->generation++;
    return PQT_OK;
}

static bool numeric(int k)
{
    return k == PQT_INT32 || k == PQT_INT64 || k == PQT_UINT64 || k == PQT_FLOAT32 ||
           k == PQT_FLOAT64;
}

/* Convert one value; integers travel as __int128 so int64 and uint64 both fit exactly. *ok
 * false when the value does not survive (exact casts then fail; others write 0 for a value
 * out of range, C rounding for floats). */
static void conv_one(const void *src, int from, void *dst, int to, bool *ok)
{
    __int128 iv = 0;
    double dv = 0;
    bool is_int = from == PQT_INT32 || from == PQT_INT64 || from == PQT_UINT64;
    switch (from) {
    case PQT_INT32: iv = *(const int32_t *)src; break;
    case PQT_INT64: iv = *(const int64_t *)src; break;
    case PQT_UINT64: iv = *(const uint64_t *)src; break;
    case PQT_FLOAT32: dv = *(const float *)src; break;
    default: dv = *(const double *)src; break;
    }
    switch (to) {
    case PQT_INT32:
        if (is_int) {
            if (iv < INT32_MIN || iv > INT32_MAX) *ok = false, iv = 0;
            *(int32_t *)dst = (int32_t)iv;
        } else {
            if (!(dv >= INT32_MIN && dv <= INT32_MAX) || dv != trunc(dv)) *ok = false;
            *(int32_t *)dst = dv >= INT32_MIN && dv <= INT32_MAX ? (int32_t)dv : 0;
        }
        break;
    case PQT_INT64:
        if (is_int) {
            if (iv < INT64_MIN || iv > INT64_MAX) *ok = false, iv = 0;
            *(int64_t *)dst = (int64_t)iv;
        } else {
            /* 2^63 is exactly representable; anything at or above it does not fit */
            bool fits = dv >= -9223372036854775808.0 && dv < 9223372036854775808.0;
            if (!fits || dv != trunc(dv)) *ok = false;
            *(int64_t *)dst = fits ? (int64_t)dv : 0;
        }
        break;
    case PQT_UINT64:
        if (is_int) {
            if (iv < 0 || iv > (__int128)UINT64_MAX) *ok = false, iv = 0;
            *(uint64_t *)dst = (uint64_t)iv;
        } else {
            bool fits = dv >= 0 && dv < 18446744073709551616.0;
            if (!fits || dv != trunc(dv)) *ok = false;
            *(uint64_t *)dst = fits ? (uint64_t)dv : 0;
        }
        break;
    case PQT_FLOAT32: {
        float fv = is_int ? (float)iv : (float)dv;
        if (is_int ? (__int128)fv != iv : (!isnan(dv) && (double)fv != dv)) *ok = false;
        *(float *)dst = fv;
        break;
    }
    default: {
        double d = is_int ? (double)iv : dv;
        if (is_int && (__int128)d != iv) *ok = false;
        *(double *)dst = d;
        break;
    }
    }
}

pqt_status pqt_tbl_buf_convert(pqt_colbuf *b, int to, bool exact, const char *name)
{
    int from = b->elem_kind;
    if (from == to) return PQT_OK;
    if (!numeric(from) || !numeric(to))
        return pqt_err(PQT_KIND, "column '%s': cannot convert %s to %s (numeric kinds only)", name,
                       pqt_kind_name(from), pqt_kind_name(to));
    size_t es = elem_nbytes(to);
    void *nd = pqt_malloc_array((size_t)b->nelem + 1, es);
    if (!nd) return pqt_err(PQT_NOMEM, "out of memory converting column '%s'", name);
    for (int64_t i = 0; i < b->nelem; i++) {
        bool ok = true;
        conv_one((const char *)b->data + (size_t)i * b->elem_nbytes, from, (char *)nd + (size_t)i * es,
                 to, &ok);
        /* a null element has no value to lose */
        if (!ok && exact && pqt_bit_get(b->validity, i)) {
            pqt_mem_free(nd);
            return pqt_err(PQT_OVERFLOW, "column '%s': element %lld does not survive the "
                                         "conversion from %s to %s exactly",
                           name, (long long)i + 1, pqt_kind_name(from), pqt_kind_name(to));
        }
    }
    /* shared data stays with its owner (an export still reads it) */
    if (!b->data_borrowed && !pqt_colbuf_data_shared(b)) pqt_mem_free(b->data);
    b->data = nd;
    b->data_borrowed = false;
    b->elem_kind = to;
    b->elem_nbytes = es;
    return PQT_OK;
}
