/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_copy.c - copies of the columns table_get.c does not copy: strings (offsets + bytes),
 * lists (offsets + values), a contiguous row range of a fixed-width column, and the size
 * query that tells a caller how much memory each needs (layer: table).
 *
 * Every copy here is normalised: offsets start at 0 whatever the storage holds, a null
 * string or a null list row is an empty range, and null fixed-width elements copy as 0.
 * Checks (kinds, sizes) all come before the first byte is written, so a failed call leaves
 * the caller's buffers as they were.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* Bytes of the non-null strings among elements [0, nelem). */
static int64_t str_total(const pqt_colbuf *b)
{
    int64_t n = 0;
    for (int64_t e = 0; e < b->nelem; e++)
        if (pqt_bit_get(b->validity, e)) n += b->str_offsets[e + 1] - b->str_offsets[e];
    return n;
}

/* First element and element count of a list/vector buffer (offsets may not start at 0). */
static int64_t list_first(const pqt_colbuf *b) { return b->is_list ? b->list_offsets[0] : 0; }
static int64_t list_nelem(const pqt_colbuf *b)
{
    return b->is_list ? b->list_offsets[b->nrows] - b->list_offsets[0] : b->nelem;
}

pqt_status pqt_table_get_sizes(pqt_table *t, const char *name, int64_t *nelem_ret,
                               int64_t *str_nbytes_ret)
{
    const char *call = "pqt_table_get_sizes";
    int ci = -1;
    if (t && name && pqt_tbl_find(t, name) < 0 && pqt_table_has_column(t, name)) {
        /* the virtual row index: one int64 a row, known without building it */
        if (nelem_ret) *nelem_ret = t->nrows;
        if (str_nbytes_ret) *str_nbytes_ret = 0;
        return PQT_OK;
    }
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    PQT_TRY(pqt_tbl_resolve_kind(t, ci, call));
    const pqt_tcol *c = &t->cols[ci];
    int ek = PQT_KIND_ELEMENT(c->kind);
    if (ek == PQT_NONE)
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' has a type this library cannot "
                                             "read",
                       call, name);
    int64_t nelem, nbytes = 0;
    if (!PQT_KIND_IS_BYTES(ek) && !(c->kind & PQT_LIST)) {
        nelem = t->nrows * c->width; /* known from the schema: nothing to read */
    } else {
        PQT_TRY(pqt_tbl_touch(t, ci, call));
        c = &t->cols[ci];
        nelem = list_nelem(&c->buf);
        if (PQT_KIND_IS_BYTES(ek)) nbytes = str_total(&c->buf);
    }
    if (nelem_ret) *nelem_ret = nelem;
    if (str_nbytes_ret) *str_nbytes_ret = nbytes;
    return PQT_OK;
}

/* A resident string column (any shape). */
static pqt_status string_col(pqt_table *t, const char *call, const char *name, int *ci_ret)
{
    PQT_TRY(pqt_tbl_resident(t, call, name, ci_ret));
    const pqt_tcol *c = &t->cols[*ci_ret];
    if (!PQT_KIND_IS_BYTES(c->kind))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s, not a string or binary column (use "
                                 "pqt_table_get)",
                       call, name, pqt_kind_name(c->kind));
    return PQT_OK;
}

/* Elements [first, first + n) of a string buffer: offsets[0..n] from 0, bytes, validity. */
static void fill_strings(const pqt_colbuf *b, int64_t first, int64_t n, int64_t *offs,
                         char *bytes, uint8_t *validity)
{
    int64_t at = 0;
    offs[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t e = first + i;
        bool ok = pqt_bit_get(b->validity, e);
        if (ok) {
            int64_t o0 = b->str_offsets[e], len = b->str_offsets[e + 1] - o0;
            if (len > 0) memcpy(bytes + at, b->str_bytes.data + o0, (size_t)len);
            at += len;
        }
        offs[i + 1] = at;
        if (validity) pqt_bit_set(validity, i, ok);
    }
}

pqt_status pqt_table_get_strings(pqt_table *t, const char *name, int64_t *offsets,
                                 int64_t noffsets, char *bytes, size_t bytes_nbytes,
                                 uint8_t *validity, size_t validity_nbytes)
{
    const char *call = "pqt_table_get_strings";
    int ci = -1;
    PQT_TRY(string_col(t, call, name, &ci));
    const pqt_colbuf *b = &t->cols[ci].buf;
    int64_t n = list_nelem(b), first = list_first(b), nb = str_total(b);
    if (!offsets || noffsets < n + 1)
        return pqt_err(PQT_MISUSE, "%s: column '%s': offsets holds %lld entries, %lld strings "
                                   "need %lld",
                       call, name, (long long)(offsets ? noffsets : 0), (long long)n,
                       (long long)n + 1);
    if ((!bytes && nb > 0) || bytes_nbytes < (size_t)nb)
        return pqt_err(PQT_MISUSE, "%s: column '%s': bytes holds %zu bytes, the strings need "
                                   "%lld",
                       call, name, bytes ? bytes_nbytes : (size_t)0, (long long)nb);
    if (validity && validity_nbytes < (size_t)(n + 7) / 8)
        return pqt_err(PQT_MISUSE, "%s: column '%s': validity holds %zu bytes, %lld strings "
                                   "need %lld",
                       call, name, validity_nbytes, (long long)n, (long long)(n + 7) / 8);
    fill_strings(b, first, n, offsets, bytes, validity);
    return PQT_OK;
}

/* The strings of b copied into fresh memory (the answer of get_strings_alloc). */
static pqt_status strings_copy_alloc(const pqt_colbuf *b, const char *call, const char *name,
                                     int64_t **offsets_ret, char **bytes_ret,
                                     uint8_t **validity_ret, int64_t *nelem_ret)
{
    int64_t n = list_nelem(b), first = list_first(b), nb = str_total(b);
    bool any_null = false;
    for (int64_t i = 0; b->validity && !any_null && i < n; i++)
        any_null = !pqt_bit_get(b->validity, first + i);
    int64_t *o = pqt_malloc_array((size_t)n + 1, sizeof *o);
    char *by = pqt_malloc((size_t)nb + 1);
    uint8_t *v = validity_ret && any_null ? pqt_calloc((size_t)(n + 7) / 8 + 1, 1) : NULL;
    if (!o || !by || (validity_ret && any_null && !v)) {
        pqt_mem_free(o);
        pqt_mem_free(by);
        pqt_mem_free(v);
        return pqt_err(PQT_NOMEM, "%s: out of memory copying column '%s'", call, name);
    }
    fill_strings(b, first, n, o, by, v);
    by[nb] = '\0';
    *offsets_ret = o;
    *bytes_ret = by;
    if (validity_ret) *validity_ret = v;
    if (nelem_ret) *nelem_ret = n;
    return PQT_OK;
}

/* Whether any null string of b (elements 0..n-1) holds bytes; whether any is null. Whole
 * words of present strings are skipped with one test. */
static bool null_strings_hold_bytes(const pqt_colbuf *b, int64_t n, bool *any_null)
{
    bool hold = false;
    *any_null = false;
    for (int64_t e = 0; b->validity && e < n;) {
        if ((e & 63) == 0 && n - e >= 64) {
            uint64_t w;
            memcpy(&w, b->validity + (e >> 3), sizeof w);
            if (w == UINT64_MAX) {
                e += 64;
                continue;
            }
        }
        if (!pqt_bit_get(b->validity, e)) {
            *any_null = true;
            hold |= b->str_offsets[e + 1] != b->str_offsets[e];
        }
        e++;
    }
    return hold;
}

/* get_strings_alloc of a never-read column: read without making it resident and hand the
 * read's own offsets, bytes and validity over, so the strings are decoded once and held
 * once (null strings closed up to empty ranges in place first, when a decoder left bytes
 * in one). */
static pqt_status strings_alloc_transient(pqt_table *t, int ci, const char *call,
                                          int64_t **offsets_ret, char **bytes_ret,
                                          uint8_t **validity_ret, int64_t *nelem_ret)
{
    pqt_colbuf b;
    PQT_TRY(pqt_tbl_read_transient(t, ci, call, &b));
    const char *name = t->cols[ci].name;
    int64_t n = list_nelem(&b);
    if (list_first(&b) != 0 || b.str_bytes.fixed || !b.str_offsets || b.str_offsets[0] != 0) {
        pqt_status st =
            strings_copy_alloc(&b, call, name, offsets_ret, bytes_ret, validity_ret, nelem_ret);
        pqt_colbuf_free(&b);
        return st;
    }
    bool any_null;
    int64_t *o = b.str_offsets;
    if (null_strings_hold_bytes(&b, n, &any_null)) {
        int64_t at = 0, prev = o[0];
        for (int64_t e = 0; e < n; e++) {
            int64_t o0 = prev, len = o[e + 1] - o0;
            prev = o[e + 1];
            if (pqt_bit_get(b.validity, e)) {
                if (len > 0 && at != o0)
                    memmove(b.str_bytes.data + at, b.str_bytes.data + o0, (size_t)len);
                at += len;
            }
            o[e + 1] = at;
        }
    }
    size_t nb = (size_t)o[n];
    if (b.str_bytes.cap < nb + 1 && pqt_buf_reserve(&b.str_bytes, nb + 1) != PQT_OK) {
        pqt_colbuf_free(&b);
        return pqt_err(PQT_NOMEM, "%s: out of memory copying column '%s'", call, name);
    }
    b.str_bytes.data[nb] = '\0';
    *offsets_ret = o;
    *bytes_ret = (char *)b.str_bytes.data;
    b.str_offsets = NULL;
    b.str_bytes.data = NULL;
    if (validity_ret) {
        *validity_ret = any_null ? b.validity : NULL;
        if (any_null) {
            b.validity = NULL;
            if (n & 7) (*validity_ret)[n >> 3] &= (uint8_t)((1u << (n & 7)) - 1); /* 0 past n */
        }
    }
    if (nelem_ret) *nelem_ret = n;
    pqt_colbuf_free(&b);
    return PQT_OK;
}

pqt_status pqt_table_get_strings_alloc(pqt_table *t, const char *name, int64_t **offsets_ret,
                                       char **bytes_ret, uint8_t **validity_ret, int64_t *nelem_ret)
{
    const char *call = "pqt_table_get_strings_alloc";
    if (!offsets_ret || !bytes_ret)
        return pqt_err(PQT_MISUSE, "%s: offsets_ret and bytes_ret must not be NULL", call);
    int ci = pqt_tbl_transient_slot(t, name);
    if (ci >= 0 && PQT_KIND_IS_BYTES(t->cols[ci].kind))
        return strings_alloc_transient(t, ci, call, offsets_ret, bytes_ret, validity_ret,
                                       nelem_ret);
    PQT_TRY(string_col(t, call, name, &ci));
    return strings_copy_alloc(&t->cols[ci].buf, call, name, offsets_ret, bytes_ret, validity_ret,
                              nelem_ret);
}

/* A resident list or vector column and the element kind its copy gives; string elements
 * give kind PQT_STRING (offsets and validity only). */
static pqt_status list_col(pqt_table *t, const char *call, const char *name, int to_kind,
                           int *ci_ret, int *k_ret)
{
    PQT_TRY(pqt_tbl_resident(t, call, name, ci_ret));
    const pqt_tcol *c = &t->cols[*ci_ret];
    if (!(c->kind & (PQT_LIST | PQT_VECTOR)))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s, not a list or vector column (use %s)",
                       call, name, pqt_kind_name(c->kind),
                       PQT_KIND_IS_BYTES(c->kind) ? "pqt_table_get_strings" : "pqt_table_get");
    int ek = PQT_KIND_ELEMENT(c->kind);
    if (PQT_KIND_IS_BYTES(ek)) {
        if (to_kind != 0 && to_kind != ek)
            return pqt_err(PQT_KIND, "%s: column '%s' is %s; strings do not convert to %s", call,
                           name, pqt_kind_name(c->kind), pqt_kind_name(to_kind));
        *k_ret = ek;
        return PQT_OK;
    }
    pqt_tcol tmp = *c;
    tmp.kind = ek; /* the elements are fixed-width even when the rows are not */
    return pqt_tbl_copy_kind(&tmp, to_kind, call, k_ret);
}

/* Row validity of a list buffer into rv (1 = the list is present). */
static void fill_row_validity(const pqt_colbuf *b, uint8_t *rv)
{
    for (int64_t i = 0; i < b->nrows; i++)
        pqt_bit_set(rv, i, !b->row_validity || pqt_bit_get(b->row_validity, i));
}

pqt_status pqt_table_get_list(pqt_table *t, const char *name, int to_kind, int64_t *offsets,
                              int64_t noffsets, void *dst, size_t dst_nbytes, uint8_t *validity,
                              size_t validity_nbytes, uint8_t *row_validity,
                              size_t row_validity_nbytes)
{
    const char *call = "pqt_table_get_list";
    int ci = -1, k = 0;
    PQT_TRY(list_col(t, call, name, to_kind, &ci, &k));
    const pqt_colbuf *b = &t->cols[ci].buf;
    int64_t nrows = b->nrows, n = list_nelem(b), first = list_first(b);
    if (!offsets || noffsets < nrows + 1)
        return pqt_err(PQT_MISUSE, "%s: column '%s': offsets holds %lld entries, %lld rows need "
                                   "%lld",
                       call, name, (long long)(offsets ? noffsets : 0), (long long)nrows,
                       (long long)nrows + 1);
    if (PQT_KIND_IS_BYTES(k) && dst)
        return pqt_err(PQT_KIND, "%s: column '%s' is %s: pass dst NULL for the offsets and "
                                 "take the strings with pqt_table_get_strings",
                       call, name, pqt_kind_name(t->cols[ci].kind));
    size_t need = PQT_KIND_IS_BYTES(k) ? 0 : (size_t)n * pqt_kind_elem_nbytes(k);
    if (dst && dst_nbytes < need)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %zu bytes given, %lld elements of %s need "
                                   "%zu",
                       call, name, dst_nbytes, (long long)n, pqt_kind_name(k), need);
    if (validity && validity_nbytes < (size_t)(n + 7) / 8)
        return pqt_err(PQT_MISUSE, "%s: column '%s': validity holds %zu bytes, %lld elements "
                                   "need %lld",
                       call, name, validity_nbytes, (long long)n, (long long)(n + 7) / 8);
    if (row_validity && row_validity_nbytes < (size_t)(nrows + 7) / 8)
        return pqt_err(PQT_MISUSE, "%s: column '%s': row_validity holds %zu bytes, %lld rows "
                                   "need %lld",
                       call, name, row_validity_nbytes, (long long)nrows,
                       (long long)(nrows + 7) / 8);
    if (dst) PQT_TRY(pqt_tbl_check_fit(b, first, n, k, call, name));
    for (int64_t i = 0; i <= nrows; i++) offsets[i] = b->list_offsets[i] - first;
    if (dst && n > 0) pqt_tbl_copy_elems(b, first, n, dst, k);
    if (validity) pqt_tbl_copy_validity(b, first, n, validity, 0);
    if (row_validity) fill_row_validity(b, row_validity);
    return PQT_OK;
}

pqt_status pqt_table_get_list_alloc(pqt_table *t, const char *name, int to_kind,
                                    int64_t **offsets_ret, void **data_ret,
                                    uint8_t **validity_ret, uint8_t **row_validity_ret,
                                    int64_t *nelem_ret)
{
    const char *call = "pqt_table_get_list_alloc";
    if (!offsets_ret) return pqt_err(PQT_MISUSE, "%s: offsets_ret must not be NULL", call);
    int ci = -1, k = 0;
    PQT_TRY(list_col(t, call, name, to_kind, &ci, &k));
    const pqt_colbuf *b = &t->cols[ci].buf;
    if (PQT_KIND_IS_BYTES(k) && data_ret)
        return pqt_err(PQT_KIND, "%s: column '%s' is %s: pass data_ret NULL for the offsets and "
                                 "take the strings with pqt_table_get_strings_alloc",
                       call, name, pqt_kind_name(t->cols[ci].kind));
    int64_t nrows = b->nrows, n = list_nelem(b), first = list_first(b);
    if (data_ret) PQT_TRY(pqt_tbl_check_fit(b, first, n, k, call, name));
    bool any_null = false, any_null_row = false;
    for (int64_t i = 0; b->validity && !any_null && i < n; i++)
        any_null = !pqt_bit_get(b->validity, first + i);
    for (int64_t i = 0; b->row_validity && !any_null_row && i < nrows; i++)
        any_null_row = !pqt_bit_get(b->row_validity, i);
    bool want_v = validity_ret && any_null, want_rv = row_validity_ret && any_null_row;
    int64_t *o = pqt_malloc_array((size_t)nrows + 1, sizeof *o);
    void *d = data_ret ? pqt_malloc_array((size_t)n + 1, pqt_kind_elem_nbytes(k)) : NULL;
    uint8_t *v = want_v ? pqt_calloc((size_t)(n + 7) / 8 + 1, 1) : NULL;
    uint8_t *rv = want_rv ? pqt_calloc((size_t)(nrows + 7) / 8 + 1, 1) : NULL;
    if (!o || (data_ret && !d) || (want_v && !v) || (want_rv && !rv)) {
        pqt_mem_free(o);
        pqt_mem_free(d);
        pqt_mem_free(v);
        pqt_mem_free(rv);
        return pqt_err(PQT_NOMEM, "%s: out of memory copying column '%s'", call, name);
    }
    for (int64_t i = 0; i <= nrows; i++) o[i] = b->list_offsets[i] - first;
    if (d && n > 0) pqt_tbl_copy_elems(b, first, n, d, k);
    if (v) pqt_tbl_copy_validity(b, first, n, v, 0);
    if (rv) fill_row_validity(b, rv);
    *offsets_ret = o;
    if (data_ret) *data_ret = d;
    if (validity_ret) *validity_ret = v;
    if (row_validity_ret) *row_validity_ret = rv;
    if (nelem_ret) *nelem_ret = n;
    return PQT_OK;
}

pqt_status pqt_table_get_range(pqt_table *t, const char *name, int64_t lo, int64_t hi,
                               int to_kind, void *dst, size_t dst_nbytes, uint8_t *validity,
                               size_t validity_nbytes)
{
    const char *call = "pqt_table_get_range";
    int ci = -1, k = 0;
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    PQT_TRY(pqt_tbl_copy_kind(c, to_kind, call, &k));
    if (lo < 1 || hi > t->nrows || lo > hi)
        return pqt_err(PQT_RANGE, "%s: column '%s': rows %lld..%lld requested, the table has "
                                  "rows 1..%lld",
                       call, name, (long long)lo, (long long)hi, (long long)t->nrows);
    int64_t w = c->width, nelem = (hi - lo + 1) * w;
    size_t es = pqt_kind_elem_nbytes(k), need = (size_t)nelem * es;
    if (!dst || dst_nbytes < need)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %zu bytes given, %lld elements of %s need "
                                   "%zu",
                       call, name, dst ? dst_nbytes : (size_t)0, (long long)nelem,
                       pqt_kind_name(k), need);
    if (validity && validity_nbytes < (size_t)(nelem + 7) / 8)
        return pqt_err(PQT_MISUSE, "%s: column '%s': validity holds %zu bytes, need %lld", call,
                       name, validity_nbytes, (long long)(nelem + 7) / 8);
    int64_t first = pqt_tbl_row_first(&c->buf, lo - 1);
    PQT_TRY(pqt_tbl_check_fit(&c->buf, first, nelem, k, call, name));
    pqt_tbl_copy_elems(&c->buf, first, nelem, dst, k);
    if (validity) pqt_tbl_copy_validity(&c->buf, first, nelem, validity, 0);
    return PQT_OK;
}
