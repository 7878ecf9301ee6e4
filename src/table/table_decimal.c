/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_decimal.c - the exact values of a table's DECIMAL columns (layer: table).
 *
 * A decimal column is resident as float64 (the nearest double); its unscaled integers are
 * read again from the file through the table's read plan (slice and read-time order) with
 * the api layer's unscaled conversion, never derived from the rounded doubles. Only a column
 * that still holds the file's decimal values qualifies: renamed is fine, cast, copied,
 * caller-written or detached is not. Parquet-format: LogicalTypes.md, DECIMAL.
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* The file column behind table column ci when it is still the file's decimal. */
static pqt_status decimal_source(pqt_table *t, const char *call, const char *name, int *ci_ret,
                                 const pqt_col **fc_ret)
{
    int ci = -1;
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    const pqt_col *fc = c->file_col >= 0 && t->f ? pqt_file_col(t->f, c->file_col) : NULL;
    if (!fc || fc->conv != PQT_CONV_DECIMAL)
        return pqt_err(PQT_KIND, "%s: column '%s' is not a DECIMAL column of the file", call, name);
    if (c->added || c->user_written || c->decode_kind || PQT_KIND_ELEMENT(c->kind) != PQT_FLOAT64)
        return pqt_err(PQT_KIND,
                       "%s: column '%s' no longer holds the file's decimals (it was "
                       "cast or written)",
                       call, name);
    *ci_ret = ci;
    *fc_ret = fc;
    return PQT_OK;
}

pqt_status pqt_table_decimal(pqt_table *t, const char *name, int *precision_ret, int *scale_ret)
{
    int ci = -1;
    const pqt_col *fc = NULL;
    PQT_TRY(decimal_source(t, "pqt_table_decimal", name, &ci, &fc));
    if (precision_ret) *precision_ret = fc->decimal_precision;
    if (scale_ret) *scale_ret = fc->decimal_scale;
    return PQT_OK;
}

pqt_status pqt_tbl_read_decimal_buf(pqt_table *t, int ci, pqt_colbuf *out, int *kind_ret)
{
    pqt_col dc;
    PQT_TRY(pqt_file_decimal_col(t->f, t->cols[ci].file_col, &dc));
    const pqt_plan *p = &t->plan;
    pqt_colbuf b;
    pqt_read_counters rc = {0};
    pqt_read_src src = pqt_file_read_src(t->f);
    pqt_read_req rq = pqt_read_req_plan(&src, &dc, p);
    rq.counters = &rc;
    pqt_status rst = pqt_read_column(&rq, &b);
    pqt_tbl_scan_add(t, &t->cols[ci], &rc);
    PQT_TRY(rst);
    if (p->perm) {
        int w = (t->cols[ci].kind & PQT_VECTOR) ? t->cols[ci].width : 0;
        pqt_colbuf g;
        pqt_status st = pqt_tbl_buf_gather(&b, NULL, p->perm, p->nsel, w, &g);
        pqt_colbuf_free(&b);
        PQT_TRY(st);
        b = g;
    }
    *out = b;
    if (kind_ret) *kind_ret = dc.elem_kind;
    return PQT_OK;
}

pqt_status pqt_table_get_decimal_alloc(pqt_table *t, const char *name, void **data_ret,
                                       uint8_t **validity_ret, int64_t *nelem_ret, int *kind_ret)
{
    const char *call = "pqt_table_get_decimal_alloc";
    if (!data_ret) return pqt_err(PQT_MISUSE, "%s: data_ret is NULL", call);
    int ci = -1;
    const pqt_col *fc = NULL;
    PQT_TRY(decimal_source(t, call, name, &ci, &fc));
    if (t->detached)
        return pqt_err(PQT_DETACHED,
                       "%s: column '%s': the table has detached from %s, so its "
                       "decimals cannot be read again",
                       call, name, pqt_file_path(t->f));
    PQT_TRY(pqt_tbl_check_serial(t, call, "reading the file again"));
    /* a value access: a column with a qc rule not checked yet (not resident) is checked now,
     * on its float64 values, as its first read would (docs/qc.md) */
    PQT_TRY(pqt_tbl_qc_probe(t, ci, call));
    pqt_colbuf b;
    int kind = 0;
    PQT_TRY(pqt_tbl_read_decimal_buf(t, ci, &b, &kind));
    pqt_status st = PQT_OK;
    bool any_null = false;
    for (int64_t i = 0; b.validity && !any_null && i < b.nelem; i++)
        any_null = !pqt_bit_get(b.validity, i);
    size_t es = pqt_kind_elem_nbytes(kind);
    void *d = pqt_malloc_array((size_t)b.nelem + 1, es);
    uint8_t *v = validity_ret && any_null ? pqt_calloc((size_t)(b.nelem + 7) / 8 + 1, 1) : NULL;
    if (!d || (validity_ret && any_null && !v)) {
        pqt_mem_free(d);
        pqt_mem_free(v);
        pqt_colbuf_free(&b);
        return pqt_err(PQT_NOMEM, "%s: out of memory copying column '%s'", call, name);
    }
    if (b.nelem > 0) memcpy(d, b.data, (size_t)b.nelem * es);
    /* null slots hold 0 whatever the gather left there */
    for (int64_t i = 0; b.validity && i < b.nelem; i++)
        if (!pqt_bit_get(b.validity, i)) memset((char *)d + (size_t)i * es, 0, es);
    if (v) pqt_tbl_copy_validity(&b, 0, b.nelem, v, 0);
    *data_ret = d;
    if (validity_ret) *validity_ret = v;
    if (nelem_ret) *nelem_ret = b.nelem;
    if (kind_ret) *kind_ret = kind;
    pqt_colbuf_free(&b);
    return st;
}
