/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_mutate.c - column-structural changes: add, drop, rename, copy, cast, set,
 * set_null/clear_null (layer: table).
 *
 * None of these changes the row set, so none detaches the table. Each validates everything
 * first and builds any new buffer before touching the slot, so a failure changes nothing;
 * each is a structural change (refused inside a parallel region on a shared table, bumps
 * the generation) unless it turns out to change nothing.
 */
#include <stdint.h>
#include <string.h>

#include "table/table_int.h"
#include "util/bits.h"
#include "util/mem.h"

static bool fixed_width_elem(int ek)
{
    return (ek >= PQT_INT32 && ek <= PQT_TIMESTAMP && ek != PQT_STRING) || ek == PQT_UINT64;
}

static bool numeric(int k)
{
    return k == PQT_INT32 || k == PQT_INT64 || k == PQT_UINT64 || k == PQT_FLOAT32 ||
           k == PQT_FLOAT64;
}

/* A name a new column may take. */
static pqt_status check_new_name(const pqt_table *t, const char *call, const char *name)
{
    if (!name || !name[0]) return pqt_err(PQT_MISUSE, "%s: the column name is empty", call);
    if (strcmp(name, PQT_TBL_ROW_INDEX) == 0)
        return pqt_err(PQT_MISUSE, "%s: '%s' is reserved for the row-index column", call, name);
    if (pqt_tbl_find(t, name) >= 0)
        return pqt_err(PQT_MISUSE, "%s: the table already has a column '%s'", call, name);
    return PQT_OK;
}

/* Lookup that builds the row index when it is asked for by name (a request, like get). */
static pqt_status lookup_or_ri(pqt_table *t, const char *call, const char *name, int *ci)
{
    if (t && name && pqt_tbl_find(t, name) < 0 && strcmp(name, PQT_TBL_ROW_INDEX) == 0 &&
        t->ri_possible && t->f)
        return pqt_tbl_row_index(t, call, ci);
    return pqt_tbl_lookup(t, call, name, ci);
}

/* Append a finished in-memory column; takes ownership of b on success. */
static pqt_status add_slot(pqt_table *t, const char *call, const char *name, int kind, int width,
                           int time_unit, const char *unit, int64_t nrows, pqt_colbuf *b)
{
    char *nm = pqt_strdup(name), *un = pqt_strdup(unit ? unit : "");
    pqt_tcol *c = NULL;
    pqt_status st = nm && un ? pqt_tbl_slot_add(t, &c) : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    if (st != PQT_OK) {
        pqt_mem_free(nm);
        pqt_mem_free(un);
        return st;
    }
    c->name = nm;
    c->unit = un;
    c->kind = kind;
    c->width = width;
    c->kind_known = true;
    c->time_unit = time_unit;
    c->residency = PQT_RES_FULL;
    c->added = true;
    c->buf = *b;
    if (!t->nrows_known) {
        t->nrows = nrows;
        t->nrows_known = true;
    }
    t->generation++;
    return PQT_OK;
}

static pqt_status check_add(pqt_table *t, const char *call, const char *name, int64_t nrows)
{
    if (!t) return pqt_err(PQT_MISUSE, "%s: table is NULL", call);
    PQT_TBL_HOLD(t, call, "adding a column");
    PQT_TRY(check_new_name(t, call, name));
    if (nrows < 0) return pqt_err(PQT_MISUSE, "%s: column '%s': negative row count", call, name);
    if (t->nrows_known && nrows != t->nrows)
        return pqt_err(PQT_MISUSE, "%s: column '%s' has %lld rows, the table has %lld", call, name,
                       (long long)nrows, (long long)t->nrows);
    return PQT_OK;
}

static void copy_bits(uint8_t *dst, const uint8_t *src, int64_t n)
{
    pqt_bits_copy(dst, 0, src, 0, n);
}

pqt_status pqt_table_add_column(pqt_table *t, const char *name, int kind, int width,
                                const void *data, const uint8_t *validity, int64_t nrows,
                                const char *unit)
{
    const char *call = "pqt_table_add_column";
    PQT_TRY(check_add(t, call, name, nrows));
    int ek = PQT_KIND_ELEMENT(kind);
    bool vec = (kind & PQT_VECTOR) != 0;
    if (!fixed_width_elem(ek) || (kind & ~(0x1f | PQT_VECTOR)))
        return pqt_err(PQT_KIND, "%s: column '%s': kind %s is not a fixed-width scalar or vector "
                                 "kind (strings: pqt_table_add_string_column)",
                       call, name, pqt_kind_name(kind));
    if (vec ? width < 1 : width != 1)
        return pqt_err(PQT_MISUSE, "%s: column '%s': width %d does not fit kind %s", call, name,
                       width, pqt_kind_name(kind));
    int64_t nelem = nrows * width;
    if (!data && nelem > 0) return pqt_err(PQT_MISUSE, "%s: column '%s': data is NULL", call, name);
    pqt_colbuf b;
    PQT_TRY(pqt_tbl_buf_new(&b, ek, vec, vec ? width : 0, validity != NULL, nrows, nelem));
    if (nelem > 0) memcpy(b.data, data, (size_t)nelem * b.elem_nbytes);
    if (validity) copy_bits(b.validity, validity, nelem);
    int tu = ek == PQT_TIME || ek == PQT_TIMESTAMP ? PQT_UNIT_MICROS : -1;
    pqt_status st = add_slot(t, call, name, kind, width, tu, unit, nrows, &b);
    if (st != PQT_OK) pqt_colbuf_free(&b);
    return st;
}

pqt_status pqt_table_add_string_column(pqt_table *t, const char *name, int width,
                                       const int64_t *offsets, const char *bytes,
                                       const uint8_t *validity, int64_t nrows, const char *unit)
{
    const char *call = "pqt_table_add_string_column";
    PQT_TRY(check_add(t, call, name, nrows));
    if (!offsets) return pqt_err(PQT_MISUSE, "%s: column '%s': offsets is NULL", call, name);
    if (width < 1) return pqt_err(PQT_MISUSE, "%s: column '%s': width %d < 1", call, name, width);
    bool vec = width > 1;
    int64_t nelem = nrows * width;
    for (int64_t i = 0; i < nelem; i++)
        if (offsets[i + 1] < offsets[i] || offsets[0] < 0)
            return pqt_err(PQT_MISUSE, "%s: column '%s': offsets decrease at %s %lld", call, name,
                           vec ? "string" : "row", (long long)i + 1);
    int64_t nbytes = offsets[nelem] - offsets[0];
    if (nbytes > 0 && !bytes) return pqt_err(PQT_MISUSE, "%s: column '%s': bytes is NULL", call, name);
    pqt_colbuf b;
    PQT_TRY(pqt_tbl_buf_new(&b, PQT_STRING, vec, vec ? width : 0, validity != NULL, nrows, nelem));
    if (nbytes > 0 && pqt_buf_append(&b.str_bytes, bytes + offsets[0], (size_t)nbytes) != PQT_OK) {
        pqt_colbuf_free(&b);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    for (int64_t i = 0; i <= nelem; i++) b.str_offsets[i] = offsets[i] - offsets[0];
    if (validity) copy_bits(b.validity, validity, nelem);
    int kind = vec ? PQT_STRING | PQT_VECTOR : PQT_STRING;
    pqt_status st = add_slot(t, call, name, kind, width, -1, unit, nrows, &b);
    if (st != PQT_OK) pqt_colbuf_free(&b);
    return st;
}

pqt_status pqt_table_drop_column(pqt_table *t, const char *name)
{
    const char *call = "pqt_table_drop_column";
    if (!t || !name) return pqt_err(PQT_MISUSE, "%s: NULL argument", call);
    int ci = pqt_tbl_find(t, name);
    if (ci < 0 && strcmp(name, PQT_TBL_ROW_INDEX) == 0 && pqt_table_has_column(t, name)) {
        /* dropping the virtual row index: no slot to remove, but it is gone for good */
        PQT_TBL_HOLD(t, call, "dropping a column");
        t->ri_possible = false;
        t->generation++;
        return PQT_OK;
    }
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    PQT_TBL_HOLD(t, call, "dropping a column");
    pqt_tbl_slot_remove(t, ci);
    t->generation++;
    return PQT_OK;
}

pqt_status pqt_table_rename_column(pqt_table *t, const char *old_name, const char *new_name)
{
    const char *call = "pqt_table_rename_column";
    int ci = -1;
    PQT_TRY(pqt_tbl_lookup(t, call, old_name, &ci));
    PQT_TBL_HOLD(t, call, "renaming a column");
    if (new_name && strcmp(old_name, new_name) == 0) return PQT_OK; /* changes nothing */
    PQT_TRY(check_new_name(t, call, new_name));
    char *nm = pqt_strdup(new_name);
    if (!nm) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    pqt_tbl_names_drop(t);
    pqt_mem_free(t->cols[ci].name);
    t->cols[ci].name = nm;
    t->generation++;
    return PQT_OK;
}

pqt_status pqt_table_copy_column(pqt_table *t, const char *src, const char *dst, int to_kind,
                                 int exact)
{
    const char *call = "pqt_table_copy_column";
    int ci = -1;
    if (!t) return pqt_err(PQT_MISUSE, "%s: table is NULL", call);
    PQT_TBL_HOLD(t, call, "copying a column");
    PQT_TRY(check_new_name(t, call, dst));
    PQT_TRY(pqt_tbl_resident(t, call, src, &ci));
    const pqt_tcol *c = &t->cols[ci];
    int ek = PQT_KIND_ELEMENT(c->kind);
    if (to_kind != 0 && to_kind != ek && (!numeric(ek) || !numeric(to_kind)))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s; copies convert between numeric kinds "
                                 "only, not to %s",
                       call, src, pqt_kind_name(c->kind), pqt_kind_name(to_kind));
    pqt_colbuf b;
    PQT_TRY(pqt_tbl_buf_copy(&c->buf, (c->kind & PQT_VECTOR) ? c->width : 0, &b));
    if (to_kind) {
        pqt_status st = pqt_tbl_buf_convert(&b, to_kind, exact != 0, src);
        if (st != PQT_OK) {
            pqt_colbuf_free(&b);
            return st;
        }
    }
    /* read what is needed before add_slot may move the slots */
    int kind = to_kind ? (c->kind & ~0x1f) | to_kind : c->kind;
    int width = c->width, tu = c->time_unit;
    char *unit = pqt_strdup(c->unit);
    pqt_status st = unit ? add_slot(t, call, dst, kind, width, tu, unit, t->nrows, &b)
                         : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    pqt_mem_free(unit);
    if (st != PQT_OK) pqt_colbuf_free(&b);
    return st;
}

pqt_status pqt_table_cast(pqt_table *t, const char *name, int to_kind, int exact)
{
    const char *call = "pqt_table_cast";
    int ci = -1;
    PQT_TRY(lookup_or_ri(t, call, name, &ci));
    pqt_tcol *c = &t->cols[ci];
    int ek = PQT_KIND_ELEMENT(c->kind);
    if (!numeric(ek) || !numeric(to_kind))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s; cast converts between int32, int64, "
                                 "float32 and float64 only, not to %s",
                       call, name, pqt_kind_name(c->kind), pqt_kind_name(to_kind));
    if (ek == to_kind) return PQT_OK; /* changes nothing */
    PQT_TBL_HOLD(t, call, "casting a column");
    if (c->residency == PQT_RES_FULL)
        PQT_TRY(pqt_tbl_buf_convert(&c->buf, to_kind, exact != 0, name));
    /* a later reload (or the first touch) decodes into the cast kind */
    c->decode_kind = to_kind;
    c->cast_exact = exact != 0;
    c->kind = (c->kind & ~0x1f) | to_kind;
    t->generation++;
    return PQT_OK;
}

pqt_status pqt_table_set(pqt_table *t, const char *name, const void *data, size_t data_nbytes,
                         const uint8_t *validity)
{
    const char *call = "pqt_table_set";
    int ci = -1;
    PQT_TRY(lookup_or_ri(t, call, name, &ci));
    PQT_TRY(pqt_tbl_resolve_kind(t, ci, call));
    pqt_tcol *c = &t->cols[ci];
    int ek = PQT_KIND_ELEMENT(c->kind);
    if ((c->kind & PQT_LIST) || !fixed_width_elem(ek))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s: set takes fixed-width columns", call, name,
                       pqt_kind_name(c->kind));
    int64_t nelem = t->nrows * c->width;
    size_t need = (size_t)nelem * pqt_kind_elem_nbytes(ek);
    if ((!data && need > 0) || data_nbytes != need)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %zu bytes given, %lld elements of %s are %zu",
                       call, name, data_nbytes, (long long)nelem, pqt_kind_name(ek), need);
    PQT_TBL_HOLD(t, call, "setting a column");
    bool vec = (c->kind & PQT_VECTOR) != 0;
    pqt_colbuf b;
    PQT_TRY(pqt_tbl_buf_new(&b, ek, vec, vec ? c->width : 0, validity != NULL, t->nrows, nelem));
    if (need > 0) memcpy(b.data, data, need);
    if (validity) copy_bits(b.validity, validity, nelem);
    pqt_colbuf_free(&c->buf);
    c->buf = b;
    c->residency = PQT_RES_FULL;
    c->user_written = true;
    t->generation++;
    return PQT_OK;
}

/* The caller's values as a read-only pqt_colbuf, so the gather that builds every other
 * buffer builds this one too (offsets need not start at 0; null list rows drop their
 * elements). vec_offsets: scratch for a vector's row offsets (nrows + 1), or NULL. */
static void caller_buf(pqt_colbuf *src, int ek, bool is_list, const void *data,
                       const uint8_t *validity, const int64_t *str_offsets, const char *bytes,
                       const int64_t *list_offsets, const uint8_t *row_validity, int64_t nrows,
                       int64_t nelem)
{
    memset(src, 0, sizeof *src);
    src->elem_kind = ek;
    src->is_list = is_list;
    src->elem_nbytes = pqt_kind_elem_nbytes(ek);
    src->nrows = nrows;
    src->nelem = nelem;
    src->data = (void *)(uintptr_t)data;
    src->validity = (uint8_t *)(uintptr_t)validity;
    src->str_offsets = (int64_t *)(uintptr_t)str_offsets;
    src->str_bytes.data = (uint8_t *)(uintptr_t)bytes;
    src->list_offsets = (int64_t *)(uintptr_t)list_offsets;
    src->row_validity = (uint8_t *)(uintptr_t)row_validity;
}

/* Gather the caller's buffer into a new one: every row in order, null list rows as -1. */
static pqt_status build_from(const pqt_colbuf *src, int vec_width, int64_t nrows, pqt_colbuf *out)
{
    int64_t *idx = pqt_malloc_array((size_t)nrows + 1, sizeof *idx);
    if (!idx) return pqt_err(PQT_NOMEM, "out of memory copying a column");
    bool varlist = src->is_list && vec_width <= 0;
    for (int64_t i = 0; i < nrows; i++)
        idx[i] = varlist && src->row_validity && !pqt_bit_get(src->row_validity, i) ? -1 : i;
    pqt_status st = pqt_tbl_buf_gather(src, NULL, idx, nrows, vec_width, out);
    pqt_mem_free(idx);
    return st;
}

/* Non-decreasing offsets[0..n], starting at >= 0. */
static pqt_status check_offsets(const char *call, const char *name, const char *what,
                                const int64_t *o, int64_t n)
{
    if (!o) return pqt_err(PQT_MISUSE, "%s: column '%s': %s is NULL", call, name, what);
    if (o[0] < 0)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %s start at %lld", call, name, what,
                       (long long)o[0]);
    for (int64_t i = 0; i < n; i++)
        if (o[i + 1] < o[i])
            return pqt_err(PQT_MISUSE, "%s: column '%s': %s decrease at entry %lld", call, name,
                           what, (long long)i + 1);
    return PQT_OK;
}

/* Replace column ci's values by b (owned from here on). */
static void commit_values(pqt_table *t, int ci, pqt_colbuf *b)
{
    pqt_tcol *c = &t->cols[ci];
    pqt_colbuf_free(&c->buf);
    c->buf = *b;
    memset(b, 0, sizeof *b);
    c->residency = PQT_RES_FULL;
    c->user_written = true;
    t->generation++;
}

pqt_status pqt_table_add_list_column(pqt_table *t, const char *name, int kind,
                                     const int64_t *list_offsets, const uint8_t *row_validity,
                                     const void *data, const uint8_t *validity, int64_t nrows,
                                     const char *unit)
{
    const char *call = "pqt_table_add_list_column";
    PQT_TRY(check_add(t, call, name, nrows));
    int ek = PQT_KIND_ELEMENT(kind);
    if (!fixed_width_elem(ek) || (kind & ~(0x1f | PQT_LIST)))
        return pqt_err(PQT_KIND, "%s: column '%s': kind %s is not a list of fixed-width "
                                 "elements (strings: pqt_table_add_string_list_column)",
                       call, name, pqt_kind_name(kind));
    PQT_TRY(check_offsets(call, name, "list_offsets", list_offsets, nrows));
    int64_t nelem = list_offsets[nrows];
    if (!data && nelem > 0) return pqt_err(PQT_MISUSE, "%s: column '%s': data is NULL", call, name);
    pqt_colbuf src, b;
    caller_buf(&src, ek, true, data, validity, NULL, NULL, list_offsets, row_validity, nrows,
               nelem);
    PQT_TRY(build_from(&src, 0, nrows, &b));
    int tu = ek == PQT_TIME || ek == PQT_TIMESTAMP ? PQT_UNIT_MICROS : -1;
    pqt_status st = add_slot(t, call, name, ek | PQT_LIST, 0, tu, unit, nrows, &b);
    if (st != PQT_OK) pqt_colbuf_free(&b);
    return st;
}

pqt_status pqt_table_add_string_list_column(pqt_table *t, const char *name,
                                            const int64_t *list_offsets,
                                            const uint8_t *row_validity, const int64_t *offsets,
                                            const char *bytes, const uint8_t *validity,
                                            int64_t nrows, const char *unit)
{
    const char *call = "pqt_table_add_string_list_column";
    PQT_TRY(check_add(t, call, name, nrows));
    PQT_TRY(check_offsets(call, name, "list_offsets", list_offsets, nrows));
    int64_t nelem = list_offsets[nrows];
    PQT_TRY(check_offsets(call, name, "offsets", offsets, nelem));
    if (!bytes && offsets[nelem] > offsets[0])
        return pqt_err(PQT_MISUSE, "%s: column '%s': bytes is NULL", call, name);
    pqt_colbuf src, b;
    caller_buf(&src, PQT_STRING, true, NULL, validity, offsets, bytes, list_offsets,
               row_validity, nrows, nelem);
    PQT_TRY(build_from(&src, 0, nrows, &b));
    pqt_status st = add_slot(t, call, name, PQT_STRING | PQT_LIST, 0, -1, unit, nrows, &b);
    if (st != PQT_OK) pqt_colbuf_free(&b);
    return st;
}

pqt_status pqt_table_set_strings(pqt_table *t, const char *name, const int64_t *offsets,
                                 const char *bytes, const uint8_t *validity,
                                 const int64_t *list_offsets, const uint8_t *row_validity)
{
    const char *call = "pqt_table_set_strings";
    int ci = -1;
    PQT_TRY(lookup_or_ri(t, call, name, &ci));
    PQT_TRY(pqt_tbl_resolve_kind(t, ci, call));
    const pqt_tcol *c = &t->cols[ci];
    if (!PQT_KIND_IS_BYTES(c->kind))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s, not a string column (use %s)", call, name,
                       pqt_kind_name(c->kind),
                       (c->kind & PQT_LIST) ? "pqt_table_set_list" : "pqt_table_set");
    bool is_list = (c->kind & PQT_LIST) != 0, vec = (c->kind & PQT_VECTOR) != 0;
    int64_t nrows = t->nrows, nelem;
    if (is_list) {
        PQT_TRY(check_offsets(call, name, "list_offsets", list_offsets, nrows));
        nelem = list_offsets[nrows];
    } else {
        if (list_offsets || row_validity)
            return pqt_err(PQT_MISUSE, "%s: column '%s' is %s: list_offsets and row_validity "
                                       "must be NULL",
                           call, name, pqt_kind_name(c->kind));
        nelem = nrows * c->width;
    }
    PQT_TRY(check_offsets(call, name, "offsets", offsets, nelem));
    if (!bytes && offsets[nelem] > offsets[0])
        return pqt_err(PQT_MISUSE, "%s: column '%s': bytes is NULL", call, name);
    PQT_TBL_HOLD(t, call, "setting a column");
    int64_t *vo = NULL;
    if (vec) {
        vo = pqt_malloc_array((size_t)nrows + 1, sizeof *vo);
        if (!vo) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        for (int64_t i = 0; i <= nrows; i++) vo[i] = i * c->width;
    }
    pqt_colbuf src, b;
    caller_buf(&src, PQT_KIND_ELEMENT(c->kind), is_list || vec, NULL, validity, offsets, bytes,
               vec ? vo : list_offsets, is_list ? row_validity : NULL, nrows, nelem);
    pqt_status st = build_from(&src, vec ? c->width : 0, nrows, &b);
    pqt_mem_free(vo);
    if (st != PQT_OK) return st;
    commit_values(t, ci, &b);
    return PQT_OK;
}

pqt_status pqt_table_set_list(pqt_table *t, const char *name, const int64_t *list_offsets,
                              const uint8_t *row_validity, const void *data, size_t data_nbytes,
                              const uint8_t *validity)
{
    const char *call = "pqt_table_set_list";
    int ci = -1;
    PQT_TRY(lookup_or_ri(t, call, name, &ci));
    PQT_TRY(pqt_tbl_resolve_kind(t, ci, call));
    const pqt_tcol *c = &t->cols[ci];
    int ek = PQT_KIND_ELEMENT(c->kind);
    if (!(c->kind & PQT_LIST) || !fixed_width_elem(ek))
        return pqt_err(PQT_KIND, "%s: column '%s' is %s: set_list takes list columns of "
                                 "fixed-width elements (use %s)",
                       call, name, pqt_kind_name(c->kind),
                       PQT_KIND_IS_BYTES(ek) ? "pqt_table_set_strings" : "pqt_table_set");
    int64_t nrows = t->nrows;
    PQT_TRY(check_offsets(call, name, "list_offsets", list_offsets, nrows));
    int64_t nelem = list_offsets[nrows];
    size_t need = (size_t)nelem * pqt_kind_elem_nbytes(ek);
    if ((!data && need > 0) || data_nbytes < need)
        return pqt_err(PQT_MISUSE, "%s: column '%s': %zu bytes given, %lld elements of %s need "
                                   "%zu",
                       call, name, data ? data_nbytes : (size_t)0, (long long)nelem,
                       pqt_kind_name(ek), need);
    PQT_TBL_HOLD(t, call, "setting a column");
    pqt_colbuf src, b;
    caller_buf(&src, ek, true, data, validity, NULL, NULL, list_offsets, row_validity, nrows,
               nelem);
    PQT_TRY(build_from(&src, 0, nrows, &b));
    commit_values(t, ci, &b);
    return PQT_OK;
}

/* Shared by set_null and clear_null. */
static pqt_status change_null(pqt_table *t, const char *call, const char *name, int64_t row,
                              int elem, bool make_null)
{
    int ci = -1;
    PQT_TRY(pqt_tbl_resident(t, call, name, &ci));
    pqt_tcol *c = &t->cols[ci];
    pqt_colbuf *b = &c->buf;
    if (row < 1 || row > t->nrows)
        return pqt_err(PQT_RANGE, "%s: column '%s': row %lld is outside the table's rows 1..%lld",
                       call, name, (long long)row, (long long)t->nrows);
    int64_t i = row - 1, first = pqt_tbl_row_first(b, i), n = pqt_tbl_row_nelem(b, i);
    bool varlist = b->is_list && !(c->kind & PQT_VECTOR);
    if (elem < 0 || elem > n || (elem == 0 && n == 0 && !varlist))
        return pqt_err(PQT_RANGE, "%s: column '%s', row %lld: element %d is outside 1..%lld", call,
                       name, (long long)row, elem, (long long)n);
    PQT_TBL_HOLD(t, call, "changing nulls");
    if (varlist && elem == 0 && make_null && n > 0) {
        /* a null list holds no elements: rebuild the column without this row's */
        int64_t *idx = pqt_malloc_array((size_t)b->nrows + 1, sizeof *idx);
        if (!idx) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        for (int64_t r = 0; r < b->nrows; r++) idx[r] = r == i ? -1 : r;
        pqt_colbuf nb;
        pqt_status st = pqt_tbl_buf_gather(b, NULL, idx, b->nrows, 0, &nb);
        pqt_mem_free(idx);
        if (st != PQT_OK) return st;
        commit_values(t, ci, &nb);
        return PQT_OK;
    }
    PQT_TRY(pqt_tbl_own(t, c, call)); /* exported arrays never change */
    int64_t e0 = elem ? first + elem - 1 : first, e1 = elem ? e0 + 1 : first + n;
    bool need_vbits = make_null && !b->validity && (!varlist || elem != 0);
    bool need_rbits = make_null && varlist && elem == 0 && !b->row_validity;
    if (need_vbits || need_rbits) {
        /* a new bitmap changes what views see: a structural change */
        int64_t cnt = need_vbits ? b->nelem : b->nrows;
        uint8_t *bm = pqt_malloc((size_t)(cnt + 7) / 8 + 1);
        if (!bm) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
        memset(bm, 0xff, (size_t)(cnt + 7) / 8 + 1);
        if (need_vbits) b->validity = bm;
        else b->row_validity = bm;
        t->generation++;
    }
    if (varlist && elem == 0) {
        if (b->row_validity) pqt_bit_set(b->row_validity, i, !make_null);
        /* clearing: every element too, so is_null(row) answers 0 afterwards */
        if (make_null) e0 = e1;
    }
    for (int64_t e = e0; e < e1 && b->validity; e++) {
        bool was_null = !pqt_bit_get(b->validity, e);
        pqt_bit_set(b->validity, e, !make_null);
        /* an element that becomes present shows 0, not whatever the null slot held */
        if (!make_null && was_null && b->data && b->elem_nbytes)
            memset((char *)b->data + (size_t)e * b->elem_nbytes, 0, b->elem_nbytes);
    }
    c->user_written = true;
    return PQT_OK;
}

pqt_status pqt_table_set_null(pqt_table *t, const char *name, int64_t row, int elem)
{
    return change_null(t, "pqt_table_set_null", name, row, elem, true);
}

pqt_status pqt_table_clear_null(pqt_table *t, const char *name, int64_t row, int elem)
{
    return change_null(t, "pqt_table_clear_null", name, row, elem, false);
}

/* Remove the slots whose flag is set and, when drop_ri, the virtual row index. */
static void remove_marked(pqt_table *t, const bool *drop, bool drop_ri)
{
    int out = 0;
    pqt_tbl_names_drop(t);
    for (int i = 0; i < t->ncols; i++) {
        if (drop[i]) pqt_tbl_slot_free(&t->cols[i]);
        else t->cols[out++] = t->cols[i];
    }
    t->ncols = out;
    if (drop_ri) t->ri_possible = false;
    t->generation++;
}

pqt_status pqt_table_drop_columns(pqt_table *t, const char *const *names, int n,
                                  int ignore_missing)
{
    const char *call = "pqt_table_drop_columns";
    if (!t || n < 0 || (n > 0 && !names)) return pqt_err(PQT_MISUSE, "%s: bad arguments", call);
    if (!ignore_missing) PQT_TRY(pqt_tbl_check_present(t, call, names, n));
    bool *drop = pqt_calloc((size_t)t->ncols + 1, sizeof *drop);
    if (!drop) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    bool any = false, drop_ri = false;
    for (int k = 0; k < n; k++) {
        if (!names[k]) continue;
        int ci = pqt_tbl_find(t, names[k]);
        if (ci >= 0) drop[ci] = any = true;
        else if (strcmp(names[k], PQT_TBL_ROW_INDEX) == 0 && pqt_table_has_column(t, names[k]))
            drop_ri = any = true;
    }
    pqt_tbl_hold h = {NULL};
    pqt_status st = any ? pqt_tbl_hold_take(&h, t, call, "dropping columns") : PQT_OK;
    if (st == PQT_OK && any) remove_marked(t, drop, drop_ri);
    pqt_tbl_hold_drop(&h);
    pqt_mem_free(drop);
    return st;
}

pqt_status pqt_table_keep_columns(pqt_table *t, const char *const *names, int n)
{
    const char *call = "pqt_table_keep_columns";
    if (!t || n < 0 || (n > 0 && !names)) return pqt_err(PQT_MISUSE, "%s: bad arguments", call);
    PQT_TRY(pqt_tbl_check_present(t, call, names, n));
    bool *drop = pqt_calloc((size_t)t->ncols + 1, sizeof *drop);
    if (!drop) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    bool any = false, keep_ri = false;
    for (int i = 0; i < t->ncols; i++) drop[i] = true;
    for (int k = 0; k < n; k++) {
        int ci = pqt_tbl_find(t, names[k]);
        if (ci >= 0) drop[ci] = false;
        else keep_ri = true; /* present but not a slot: the virtual row index */
    }
    for (int i = 0; i < t->ncols; i++) any = any || drop[i];
    bool drop_ri = !keep_ri && pqt_tbl_find(t, PQT_TBL_ROW_INDEX) < 0 &&
                   pqt_table_has_column(t, PQT_TBL_ROW_INDEX);
    any = any || drop_ri;
    pqt_tbl_hold h = {NULL};
    pqt_status st = any ? pqt_tbl_hold_take(&h, t, call, "dropping columns") : PQT_OK;
    if (st == PQT_OK && any) remove_marked(t, drop, drop_ri);
    pqt_tbl_hold_drop(&h);
    pqt_mem_free(drop);
    return st;
}
