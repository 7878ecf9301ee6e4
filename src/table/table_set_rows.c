/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_set_rows.c - pqt_table_set_rows: values written into chosen rows of a resident
 * fixed-width column, in place (layer: table).
 *
 * Unlike pqt_table_set, which replaces the column's buffer, this writes into the one the
 * column has, so views and row handles stay valid: only a first null bitmap (a new pointer
 * views would miss) is a structural change, and so is the copy the table first makes of
 * arrays an Arrow export still reads (copy on write: exported arrays never change).
 * Everything is checked before the first write, so a refused call changes nothing.
 */
#include <stdint.h>
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

pqt_status pqt_table_set_rows(pqt_table *t, const char *name, const int64_t *rows, int64_t n,
                              const void *data, size_t data_nbytes, const uint8_t *validity,
                              int modify_nulls)
{
    const char *call = "pqt_table_set_rows";
    int ci = -1;
    if (!t || n < 0 || (n > 0 && !rows)) return pqt_err(PQT_MISUSE, "%s: bad arguments", call);
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    pqt_tcol *c = &t->cols[ci];
    pqt_colbuf *b = &c->buf;
    int ek = PQT_KIND_ELEMENT(c->kind);
    if ((c->kind & PQT_LIST) || PQT_KIND_IS_BYTES(ek) || b->elem_nbytes == 0)
        return pqt_err(PQT_KIND, "%s: column '%s' is %s: rows are set in fixed-width columns", call,
                       name, pqt_kind_name(c->kind));
    int64_t w = c->width, nelem = n * w;
    size_t esz = b->elem_nbytes, need = (size_t)nelem * esz;
    if ((!data && need > 0) || data_nbytes != need)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %zu bytes given, %lld elements of %s are %zu",
                       call, name, data_nbytes, (long long)nelem, pqt_kind_name(ek), need);
    for (int64_t k = 0; k < n; k++)
        PQT_TRY(pqt_tbl_check_row(t, call, name, rows[k]));
    if (n == 0) return PQT_OK;
    PQT_TBL_HOLD(t, call, "setting rows");
    PQT_TRY(pqt_tbl_own(t, c, call)); /* exported arrays never change */
    bool any_null = false;
    for (int64_t e = 0; validity && !any_null && e < nelem; e++)
        any_null = !pqt_bit_get(validity, e);
    if (any_null && !b->validity) {
        /* a new bitmap changes what views see: a structural change */
        size_t nb = (size_t)(b->nelem + 7) / 8 + 1;
        uint8_t *bm = pqt_malloc(nb);
        if (!bm) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        memset(bm, 0xff, nb);
        b->validity = bm;
        t->generation++;
    }
    const char *src = data;
    for (int64_t k = 0; k < n; k++) {
        int64_t first = pqt_tbl_row_first(b, rows[k] - 1);
        memcpy((char *)b->data + (size_t)first * esz, src + (size_t)(k * w) * esz, (size_t)w * esz);
        for (int64_t e = 0; e < w && b->validity; e++) {
            bool present = pqt_bit_get(validity, k * w + e);
            if (!present || modify_nulls) pqt_bit_set(b->validity, first + e, present);
        }
    }
    c->user_written = true;
    return PQT_OK;
}
