/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import_add.c - one imported column, converted, into a table through the table's add
 * calls (layer: arrow): what the batch walk (arrow_import_batch.c) does per batch and the
 * accumulator (arrow_import_acc.c) once per column.
 */
#include <string.h>

#include "arrow/arrow_import.h"
#include "table/table_int.h"
#include "util/error.h"
#include "util/mem.h"

/* n bits all set: the validity a nullable column gets when nothing in it is null, so the
 * writer's template and every batch agree that the column is optional. */
pqt_status pqt_aimp_all_valid(int64_t n, uint8_t **ret)
{
    *ret = pqt_malloc((size_t)(n + 7) / 8 + 1);
    if (!*ret) return pqt_err(PQT_NOMEM, "out of memory");
    memset(*ret, 0xff, (size_t)(n + 7) / 8 + 1);
    return PQT_OK;
}

/* What add_column cannot set: the time unit, and the binary kind of bytes not promised to be
 * UTF-8. */
static void settle_slot(pqt_table *t, const pqt_aimp_col *col)
{
    int ci = pqt_tbl_find(t, col->name);
    if (ci < 0) return;
    pqt_tcol *c = &t->cols[ci];
    if (col->time_unit >= 0) c->time_unit = col->time_unit;
    if (col->kind == PQT_BINARY) {
        c->kind = (c->kind & ~0x1f) | PQT_BINARY;
        c->buf.elem_kind = PQT_BINARY;
    }
}

pqt_status pqt_aimp_add_column(pqt_table *t, const pqt_aimp_col *col, int64_t n, pqt_aimp_vals *v,
                               const int64_t *list_offsets, uint8_t **row_valid)
{
    int64_t nelem = v->n;
    if (col->nullable && !v->valid) PQT_TRY(pqt_aimp_all_valid(nelem, &v->valid));
    if (col->nullable && list_offsets && !*row_valid) PQT_TRY(pqt_aimp_all_valid(n, row_valid));
    bool bytes = PQT_KIND_IS_BYTES(col->kind);
    pqt_status st;
    if (list_offsets)
        st = bytes ? pqt_table_add_string_list_column(t, col->name, list_offsets, *row_valid,
                                                      v->offsets, v->bytes, v->valid, n, col->unit)
                   : pqt_table_add_list_column(t, col->name, col->kind, list_offsets, *row_valid,
                                               v->data, v->valid, n, col->unit);
    else if (bytes)
        st = pqt_table_add_string_column(t, col->name, col->width, v->offsets, v->bytes, v->valid,
                                         n, col->unit);
    else
        st = pqt_table_add_column(t, col->name, col->kind | (col->shape == 'v' ? PQT_VECTOR : 0),
                                  col->width, v->data, v->valid, n, col->unit);
    if (st == PQT_OK) settle_slot(t, col);
    return st;
}
