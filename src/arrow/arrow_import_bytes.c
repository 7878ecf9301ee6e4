/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import_bytes.c - Arrow's byte-string layouts converted to pqt's (int64 offsets from 0
 * into one byte buffer; layer: arrow): offsets of 32 or 64 bits into a data buffer, 16-byte
 * views into variadic buffers, fixed-size binary, and arrow.uuid as the text pqt reads a
 * UUID column as. Each checks what the interface lets it check before reading: offsets
 * monotone from >= 0, views inside their buffer's stated size.
 */
#include <string.h>

#include "arrow/arrow_import.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"

/* "u", "U", "z", "Z": offsets of width ow (4 or 8) into one data buffer. */
pqt_status pqt_aimp_offset_values(const pqt_aimp_col *col, const struct ArrowArray *a, int64_t phys,
                                  int64_t n, int ow, pqt_aimp_vals *out)
{
    out->offsets = pqt_calloc((size_t)n + 1, sizeof(int64_t));
    if (!out->offsets) return pqt_err(PQT_NOMEM, "out of memory");
    if (n == 0) return PQT_OK;
    if (!a->buffers[1])
        return pqt_err(PQT_CORRUPT, "field '%s': no offsets buffer for %lld values", col->name,
                       (long long)n);
    const int32_t *o32 = a->buffers[1];
    const int64_t *o64 = a->buffers[1];
    int64_t first = ow == 4 ? o32[phys] : o64[phys], prev = first;
    if (first < 0)
        return pqt_err(PQT_CORRUPT, "field '%s': offset %lld of element 0 is negative", col->name,
                       (long long)first);
    for (int64_t i = 1; i <= n; i++) {
        int64_t o = ow == 4 ? o32[phys + i] : o64[phys + i];
        if (o < prev)
            return pqt_err(PQT_CORRUPT,
                           "field '%s': offsets decrease at element %lld (%lld < %lld)", col->name,
                           (long long)i, (long long)o, (long long)prev);
        out->offsets[i] = o - first;
        prev = o;
    }
    if (prev > first && !a->buffers[2])
        return pqt_err(PQT_CORRUPT, "field '%s': no data buffer for %lld bytes", col->name,
                       (long long)(prev - first));
    out->bytes = (const char *)a->buffers[2] + first;
    return PQT_OK;
}

/* "vu", "vz": 16-byte views, inline up to 12 bytes, else into a variadic buffer whose size
 * the last buffer states. */
pqt_status pqt_aimp_view_values(const pqt_aimp_col *col, const struct ArrowArray *a, int64_t phys,
                                int64_t n, pqt_aimp_vals *out)
{
    out->offsets = pqt_calloc((size_t)n + 1, sizeof(int64_t));
    if (!out->offsets) return pqt_err(PQT_NOMEM, "out of memory");
    if (n == 0) return PQT_OK;
    int64_t nvar = a->n_buffers - 3;
    const int64_t *sizes = a->buffers[a->n_buffers - 1];
    const uint8_t *views = a->buffers[1];
    if (!views || (nvar > 0 && !sizes))
        return pqt_err(PQT_CORRUPT, "field '%s': no views or variadic sizes buffer", col->name);
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *vw = views + (size_t)(phys + i) * 16;
        int32_t len, idx, off;
        memcpy(&len, vw, 4);
        const uint8_t *p = vw + 4;
        if (out->valid && !pqt_bit_get(out->valid, i)) len = 0;
        if (len < 0)
            return pqt_err(PQT_CORRUPT, "field '%s': element %lld has length %d", col->name,
                           (long long)i, len);
        if (len > 12) {
            memcpy(&idx, vw + 8, 4);
            memcpy(&off, vw + 12, 4);
            if (idx < 0 || idx >= nvar || !a->buffers[2 + idx] || off < 0 ||
                (int64_t)off + len > sizes[idx])
                return pqt_err(PQT_CORRUPT,
                               "field '%s': element %lld views bytes %d..%lld of buffer %d, "
                               "outside the %lld variadic buffers' sizes",
                               col->name, (long long)i, off, (long long)off + len - 1, idx,
                               (long long)nvar);
            p = (const uint8_t *)a->buffers[2 + idx] + off;
        }
        PQT_TRY(pqt_buf_append(&out->own, p, (size_t)len));
        out->offsets[i + 1] = (int64_t)out->own.len;
    }
    out->bytes = (const char *)out->own.data;
    return PQT_OK;
}

/* "w:N": fixed-size binary; arrow.uuid as pqt reads UUID, 36 characters of lowercase hex. */
pqt_status pqt_aimp_fixed_binary_values(const pqt_aimp_col *col, const struct ArrowArray *a,
                                        int64_t phys, int64_t n, pqt_aimp_vals *out)
{
    out->offsets = pqt_calloc((size_t)n + 1, sizeof(int64_t));
    if (!out->offsets) return pqt_err(PQT_NOMEM, "out of memory");
    if (n == 0) return PQT_OK;
    const uint8_t *src = a->buffers[1];
    if (!src)
        return pqt_err(PQT_CORRUPT, "field '%s': no data buffer for %lld values", col->name,
                       (long long)n);
    size_t w = (size_t)col->val.size;
    if (col->val.type == PQT_AT_FIXED_BINARY) {
        for (int64_t i = 0; i <= n; i++)
            out->offsets[i] = i * (int64_t)w;
        out->bytes = (const char *)src + (size_t)phys * w;
        return PQT_OK;
    }
    PQT_TRY(pqt_buf_reserve(&out->own, (size_t)n * 36 + 1));
    char *t = (char *)out->own.data;
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *u = src + (size_t)(phys + i) * 16;
        char *d = t + i * 36;
        for (int k = 0, j = 0; k < 16; k++) {
            if (k == 4 || k == 6 || k == 8 || k == 10) d[j++] = '-';
            d[j++] = "0123456789abcdef"[u[k] >> 4];
            d[j++] = "0123456789abcdef"[u[k] & 15];
        }
        out->offsets[i + 1] = (i + 1) * 36;
    }
    out->own.len = (size_t)n * 36;
    out->bytes = t;
    return PQT_OK;
}
