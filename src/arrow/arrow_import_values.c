/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import_values.c - the values of one Arrow leaf array converted to pqt's storage
 * (layer: arrow): integers widened, FLOAT16 and decimals to floats, dates and times to pqt's
 * units, dictionaries decoded; strings and binaries in arrow_import_bytes.c.
 *
 * The C Data Interface gives no buffer sizes, only lengths: what can be checked is checked
 * before a byte is read (buffer counts, lengths against the elements asked for, offsets
 * monotone and inside their child, view ranges inside their variadic buffer's stated size,
 * dictionary indices inside the dictionary).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arrow/arrow_import.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/half.h"
#include "util/mem.h"

#define MS_PER_DAY 86400000

void pqt_aimp_vals_free(pqt_aimp_vals *v)
{
    pqt_mem_free(v->data);
    pqt_mem_free(v->offsets);
    pqt_mem_free(v->valid);
    pqt_buf_free(&v->own);
    memset(v, 0, sizeof *v);
}

pqt_status pqt_aimp_check_node(const struct ArrowArray *a, const char *name, int nbuf,
                               int64_t start, int64_t n)
{
    if (!a) return pqt_err(PQT_CORRUPT, "field '%s': the array is NULL", name);
    if (a->length < 0 || a->offset < 0 || a->n_buffers < 0 || a->n_children < 0)
        return pqt_err(PQT_CORRUPT,
                       "field '%s': negative length %lld, offset %lld or buffer/child count", name,
                       (long long)a->length, (long long)a->offset);
    if (a->length > INT64_MAX / 16 - a->offset)
        return pqt_err(PQT_CORRUPT, "field '%s': offset %lld + length %lld is too large", name,
                       (long long)a->offset, (long long)a->length);
    if (a->n_buffers < nbuf || (nbuf > 0 && !a->buffers))
        return pqt_err(PQT_CORRUPT, "field '%s': %lld buffers, its type needs %d", name,
                       (long long)a->n_buffers, nbuf);
    if (a->n_children > 0 && !a->children)
        return pqt_err(PQT_CORRUPT, "field '%s': %lld children and no child list", name,
                       (long long)a->n_children);
    if (start < 0 || n < 0 || start > a->length || n > a->length - start)
        return pqt_err(PQT_CORRUPT,
                       "field '%s': elements %lld..%lld are needed of an array of length %lld",
                       name, (long long)start, (long long)(start + n - 1), (long long)a->length);
    return PQT_OK;
}

pqt_status pqt_aimp_validity(const struct ArrowArray *a, int64_t start, int64_t n, uint8_t **ret)
{
    *ret = NULL;
    /* a bitmap may be absent when nothing is null; a null_count of 0 says it need not be read */
    if (n == 0 || a->n_buffers < 1 || !a->buffers[0] || a->null_count == 0) return PQT_OK;
    const uint8_t *bm = a->buffers[0];
    if (pqt_bits_all_set(bm, a->offset + start, n)) return PQT_OK;
    uint8_t *v = pqt_calloc((size_t)(n + 7) / 8 + 1, 1);
    if (!v) return pqt_err(PQT_NOMEM, "out of memory");
    pqt_bits_copy(v, 0, bm, a->offset + start, n);
    *ret = v;
    return PQT_OK;
}

static int buffers_of(const pqt_aimp_val *v)
{
    switch (v->type) {
    case PQT_AT_UTF8:
    case PQT_AT_LARGE_UTF8:
    case PQT_AT_BINARY:
    case PQT_AT_LARGE_BINARY:
        return 3;
    case PQT_AT_UTF8_VIEW:
    case PQT_AT_BINARY_VIEW:
        return 3; /* validity, views, (variadic...), sizes */
    default:
        return 2;
    }
}

static double decimal_value(const uint8_t *p, int bits)
{
    if (bits == 32) {
        int32_t x;
        memcpy(&x, p, 4);
        return (double)x;
    }
    if (bits == 64) {
        int64_t x;
        memcpy(&x, p, 8);
        return (double)x;
    }
    uint64_t lo;
    int64_t hi;
    memcpy(&lo, p, 8);
    memcpy(&hi, p + 8, 8);
    /* a value that fits int64 converts exactly once (lo alone as a double would round) */
    if ((hi == 0 && lo <= INT64_MAX) || (hi == -1 && lo > INT64_MAX)) return (double)(int64_t)lo;
    return (double)hi * 18446744073709551616.0 + (double)lo;
}

/* Fixed-width values into out->data (allocated here); nulls keep what the producer had. */
static pqt_status fixed_values(const pqt_aimp_col *col, const struct ArrowArray *a, int64_t phys,
                               int64_t n, pqt_aimp_vals *out)
{
    const pqt_aimp_val *v = &col->val;
    size_t esz = pqt_kind_elem_nbytes(col->kind);
    out->data = pqt_malloc_array((size_t)n + 1, esz);
    if (!out->data) return pqt_err(PQT_NOMEM, "out of memory");
    if (n == 0) return PQT_OK;
    const void *src = a->buffers[1];
    if (!src)
        return pqt_err(PQT_CORRUPT, "field '%s': no data buffer for %lld values", col->name,
                       (long long)n);
    int32_t *i32 = out->data;
    int64_t *i64 = out->data;
    float *f32 = out->data;
    double *f64 = out->data;
    uint8_t *u8 = out->data;
    switch (v->type) {
    case PQT_AT_INT8:
        for (int64_t i = 0; i < n; i++)
            i32[i] = ((const int8_t *)src)[phys + i];
        break;
    case PQT_AT_UINT8:
        for (int64_t i = 0; i < n; i++)
            i32[i] = ((const uint8_t *)src)[phys + i];
        break;
    case PQT_AT_INT16:
        for (int64_t i = 0; i < n; i++)
            i32[i] = ((const int16_t *)src)[phys + i];
        break;
    case PQT_AT_UINT16:
        for (int64_t i = 0; i < n; i++)
            i32[i] = ((const uint16_t *)src)[phys + i];
        break;
    case PQT_AT_UINT32:
        for (int64_t i = 0; i < n; i++)
            i64[i] = ((const uint32_t *)src)[phys + i];
        break;
    case PQT_AT_INT32:
    case PQT_AT_DATE32:
    case PQT_AT_FLOAT32:
    case PQT_AT_INT64:
    case PQT_AT_UINT64:
    case PQT_AT_FLOAT64:
        memcpy(out->data, (const uint8_t *)src + (size_t)phys * esz, (size_t)n * esz);
        break;
    case PQT_AT_FLOAT16:
        for (int64_t i = 0; i < n; i++)
            f32[i] = pqt_half_to_float(((const uint16_t *)src)[phys + i]);
        break;
    case PQT_AT_BOOL:
        for (int64_t i = 0; i < n; i++)
            u8[i] = pqt_bit_get(src, phys + i);
        break;
    case PQT_AT_DECIMAL: {
        int nb = v->size / 8;
        for (int64_t i = 0; i < n; i++)
            f64[i] = decimal_value((const uint8_t *)src + (size_t)(phys + i) * (size_t)nb, v->size);
        /* as the reader converts a DECIMAL column: the unscaled value over 10^scale */
        double f = pow(10.0, (double)(v->scale < 0 ? -v->scale : v->scale));
        for (int64_t i = 0; v->scale != 0 && i < n; i++)
            f64[i] = v->scale > 0 ? f64[i] / f : f64[i] * f;
        break;
    }
    case PQT_AT_DATE64:
        for (int64_t i = 0; i < n; i++) {
            int64_t ms = ((const int64_t *)src)[phys + i];
            int64_t d = ms / MS_PER_DAY - (ms % MS_PER_DAY < 0);
            i32[i] = (int32_t)(d < INT32_MIN ? INT32_MIN : d > INT32_MAX ? INT32_MAX : d);
        }
        break;
    case PQT_AT_TIME:
    case PQT_AT_TIMESTAMP:
        for (int64_t i = 0; i < n; i++) {
            int64_t x =
                v->time32 ? ((const int32_t *)src)[phys + i] : ((const int64_t *)src)[phys + i];
            if (out->valid && !pqt_bit_get(out->valid, i)) {
                i64[i] = 0; /* a null's slot may hold anything */
                continue;
            }
            if (v->mult != 1 && (x > INT64_MAX / v->mult || x < INT64_MIN / v->mult))
                return pqt_err(PQT_OVERFLOW,
                               "field '%s': value %lld (element %lld) does not fit in milliseconds",
                               col->name, (long long)x, (long long)i);
            i64[i] = x * v->mult;
        }
        break;
    default:
        return pqt_err(PQT_UNSUPPORTED_TYPE, "field '%s': no conversion", col->name);
    }
    return PQT_OK;
}

static pqt_status plain_values(const pqt_aimp_col *col, const struct ArrowArray *a, int64_t start,
                               int64_t n, pqt_aimp_vals *out)
{
    PQT_TRY(pqt_aimp_check_node(a, col->name, buffers_of(&col->val), start, n));
    PQT_TRY(pqt_aimp_validity(a, start, n, &out->valid));
    int64_t phys = a->offset + start;
    switch (col->val.type) {
    case PQT_AT_UTF8:
    case PQT_AT_BINARY:
        return pqt_aimp_offset_values(col, a, phys, n, 4, out);
    case PQT_AT_LARGE_UTF8:
    case PQT_AT_LARGE_BINARY:
        return pqt_aimp_offset_values(col, a, phys, n, 8, out);
    case PQT_AT_UTF8_VIEW:
    case PQT_AT_BINARY_VIEW:
        return pqt_aimp_view_values(col, a, phys, n, out);
    case PQT_AT_FIXED_BINARY:
    case PQT_AT_UUID:
        return pqt_aimp_fixed_binary_values(col, a, phys, n, out);
    default:
        return fixed_values(col, a, phys, n, out);
    }
}

static int64_t load_index(const void *p, pqt_aimp_type t, int64_t i)
{
    switch (t) {
    case PQT_AT_INT8:
        return ((const int8_t *)p)[i];
    case PQT_AT_UINT8:
        return ((const uint8_t *)p)[i];
    case PQT_AT_INT16:
        return ((const int16_t *)p)[i];
    case PQT_AT_UINT16:
        return ((const uint16_t *)p)[i];
    case PQT_AT_INT32:
        return ((const int32_t *)p)[i];
    case PQT_AT_UINT32:
        return ((const uint32_t *)p)[i];
    case PQT_AT_UINT64: {
        uint64_t u = ((const uint64_t *)p)[i];
        return u > INT64_MAX ? -1 : (int64_t)u;
    }
    default:
        return ((const int64_t *)p)[i];
    }
}

/* Dictionary-encoded: the whole dictionary converted once, then gathered by index. */
static pqt_status dict_values(const pqt_aimp_col *col, const struct ArrowSchema *f,
                              const struct ArrowArray *a, int64_t start, int64_t n,
                              pqt_aimp_vals *out)
{
    PQT_TRY(pqt_aimp_check_node(a, col->name, 2, start, n));
    if (!a->dictionary)
        return pqt_err(PQT_CORRUPT, "field '%s': dictionary-encoded and no dictionary array",
                       col->name);
    if (n > 0 && !a->buffers[1])
        return pqt_err(PQT_CORRUPT, "field '%s': no indices buffer for %lld values", col->name,
                       (long long)n);
    PQT_TRY(pqt_aimp_validity(a, start, n, &out->valid));
    pqt_aimp_col dcol = *col;
    dcol.val.index_type = 0;
    pqt_aimp_vals dv = {0};
    pqt_status st = pqt_aimp_check_node(a->dictionary, col->name, 0, 0, 0);
    if (st == PQT_OK)
        st = pqt_aimp_values(&dcol, f->dictionary, a->dictionary, 0, a->dictionary->length, &dv);
    bool bytes = PQT_KIND_IS_BYTES(col->kind);
    size_t esz = bytes ? 0 : pqt_kind_elem_nbytes(col->kind);
    if (st == PQT_OK) {
        if (bytes)
            out->offsets = pqt_calloc((size_t)n + 1, sizeof(int64_t));
        else
            out->data = pqt_calloc((size_t)n + 1, esz);
        if (!out->offsets && !out->data) st = pqt_err(PQT_NOMEM, "out of memory");
    }
    for (int64_t i = 0; i < n && st == PQT_OK; i++) {
        bool valid = !out->valid || pqt_bit_get(out->valid, i);
        int64_t k =
            valid ? load_index(a->buffers[1], col->val.index_type, a->offset + start + i) : 0;
        if (valid && (k < 0 || k >= dv.n)) {
            st = pqt_err(PQT_CORRUPT,
                         "field '%s': element %lld has dictionary index %lld, outside "
                         "the dictionary's %lld entries",
                         col->name, (long long)i, (long long)k, (long long)dv.n);
            break;
        }
        if (valid && dv.valid && !pqt_bit_get(dv.valid, k)) {
            if (!out->valid) {
                out->valid = pqt_malloc((size_t)(n + 7) / 8 + 1);
                if (!out->valid) {
                    st = pqt_err(PQT_NOMEM, "out of memory");
                    break;
                }
                memset(out->valid, 0xff, (size_t)(n + 7) / 8 + 1);
            }
            pqt_bit_set(out->valid, i, false);
            valid = false;
        }
        if (bytes) {
            int64_t len = valid ? dv.offsets[k + 1] - dv.offsets[k] : 0;
            if (len > 0) st = pqt_buf_append(&out->own, dv.bytes + dv.offsets[k], (size_t)len);
            out->offsets[i + 1] = (int64_t)out->own.len;
        } else if (valid) {
            memcpy((uint8_t *)out->data + (size_t)i * esz,
                   (const uint8_t *)dv.data + (size_t)k * esz, esz);
        }
    }
    if (bytes) out->bytes = (const char *)out->own.data;
    pqt_aimp_vals_free(&dv);
    return st;
}

pqt_status pqt_aimp_values(const pqt_aimp_col *col, const struct ArrowSchema *f,
                           const struct ArrowArray *a, int64_t start, int64_t n, pqt_aimp_vals *out)
{
    memset(out, 0, sizeof *out);
    out->kind = col->kind;
    out->n = n;
    pqt_status st = col->val.index_type ? dict_values(col, f, a, start, n, out)
                                        : plain_values(col, a, start, n, out);
    if (st != PQT_OK) pqt_aimp_vals_free(out);
    return st;
}
