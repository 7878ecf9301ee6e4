/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_nested.c - lists of lists read with one offsets array per level (layer: api).
 *
 * A list<list<T>> column (any depth of standard 3-level LISTs, schema.h's pqt_nest) is read
 * by the ordinary list reader as a list of its value slots, with the chunk's repetition and
 * definition levels handed back (pqt_chunk_ctx_set_level_sink); the levels then rebuild
 * every level's lists (parquet-format's record assembly for nested repeated fields):
 *
 *   an entry with repetition level r begins a new list at levels r .. nlevels-1 (r = 0: a
 *   new row, whose own list is level 0), each one an item of the list above it, going
 *   deeper while its definition level says the list begun holds an item (def >=
 *   elem_def[k]); past the last level it is a value slot. A list is null when def <
 *   list_def[k], empty when list_def[k] <= def < elem_def[k].
 *
 * Covering row groups are read whole (every entry is needed to place the rows) and only the
 * rows asked for are kept.
 */
#include <string.h>

#include "api/file_int.h"
#include "column/column.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/sel.h"

struct pqt_nested_list {
    int nlevels;
    int kind;
    size_t elem_nbytes;
    int64_t count[PQT_NEST_MAX_LEVELS]; /* lists at each level (level 0: rows) */
    pqt_buf off[PQT_NEST_MAX_LEVELS];   /* int64 offsets, count + 1 each */
    pqt_buf valid[PQT_NEST_MAX_LEVELS]; /* a byte per list while built, then a bitmap */
    bool has_null[PQT_NEST_MAX_LEVELS];
    pqt_buf values; /* nvalues x elem_nbytes */
    pqt_buf vvalid; /* a byte per value while built, then a bitmap */
    bool value_null;
    int64_t nvalues;
};

void pqt_nested_list_free(pqt_nested_list *n)
{
    if (!n) return;
    for (int k = 0; k < PQT_NEST_MAX_LEVELS; k++) {
        pqt_buf_free(&n->off[k]);
        pqt_buf_free(&n->valid[k]);
    }
    pqt_buf_free(&n->values);
    pqt_buf_free(&n->vvalid);
    pqt_mem_free(n);
}

/* Room for `more` entries' worth of lists and values: each entry adds at most one list per
 * level and one value, so the assembly loop writes without checking. */
static pqt_status reserve_all(pqt_nested_list *n, int64_t more)
{
    for (int k = 0; k < n->nlevels; k++) {
        PQT_TRY(pqt_buf_reserve(&n->off[k], (size_t)(n->count[k] + more + 1) * sizeof(int64_t)));
        PQT_TRY(pqt_buf_reserve(&n->valid[k], (size_t)(n->count[k] + more + 1)));
    }
    PQT_TRY(pqt_buf_reserve(&n->values, (size_t)(n->nvalues + more + 1) * n->elem_nbytes));
    PQT_TRY(pqt_buf_reserve(&n->vvalid, (size_t)(n->nvalues + more + 1)));
    return PQT_OK;
}

/* The entries of one row group (reps, defs: ne each; b: its value slots) of rows [a, z)
 * appended to n. */
static pqt_status assemble(pqt_nested_list *n, const pqt_nest *nest, const uint8_t *reps,
                           const uint8_t *defs, int64_t ne, const pqt_colbuf *b, int64_t a,
                           int64_t z)
{
    PQT_TRY(reserve_all(n, ne));
    const int N = nest->nlevels;
    const int16_t *list_def = nest->list_def, *elem_def = nest->elem_def;
    const int16_t max_def = nest->leaf.max_def;
    int64_t *off[PQT_NEST_MAX_LEVELS];
    uint8_t *valid[PQT_NEST_MAX_LEVELS];
    for (int k = 0; k < N; k++) {
        off[k] = (int64_t *)n->off[k].data;
        valid[k] = n->valid[k].data;
    }
    uint8_t *vals = n->values.data, *vvalid = n->vvalid.data;
    const uint8_t *src = (const uint8_t *)b->data;
    const size_t esz = n->elem_nbytes;
    int64_t row = -1, slot = 0;
    for (int64_t i = 0; i < ne; i++) {
        int r = reps[i], d = defs[i];
        row += r == 0;
        bool leaf = d >= elem_def[N - 1];
        if (leaf && PQT_UNLIKELY(slot >= b->nelem))
            return pqt_err(PQT_CORRUPT, "levels hold more value slots than the %lld read",
                           (long long)b->nelem);
        if (row < a || row >= z) {
            slot += leaf;
            continue;
        }
        int k = r;
        for (; k < N; k++) {
            int64_t c = n->count[k]++;
            off[k][c] = k + 1 < N ? n->count[k + 1] : n->nvalues;
            valid[k][c] = d >= list_def[k];
            if (d < elem_def[k]) break;
        }
        if (k == N) {
            bool present =
                d == max_def && (!b->validity || (b->validity[slot >> 3] >> (slot & 7) & 1));
            memcpy(vals + (size_t)n->nvalues * esz, src + (size_t)slot * esz, esz);
            vvalid[n->nvalues++] = present;
            slot++;
        }
    }
    if (slot != b->nelem)
        return pqt_err(PQT_CORRUPT, "levels hold %lld value slots, %lld were read", (long long)slot,
                       (long long)b->nelem);
    return PQT_OK;
}

/* Byte-per-item flags [0, cnt) to a bitmap in place; *has_null: some flag is 0. */
static void pack_bits(pqt_buf *bytes, int64_t cnt, bool *has_null)
{
    uint8_t *p = bytes->data;
    *has_null = false;
    for (int64_t i = 0; i < cnt; i++)
        *has_null |= !p[i];
    for (int64_t i = 0; i < cnt; i += 8) {
        uint8_t v = 0;
        for (int j = 0; j < 8 && i + j < cnt; j++)
            v |= (uint8_t)(p[i + j] << j);
        p[i / 8] = v;
    }
}

/* One row group's rows [a, z) (row-group relative) into n. */
static pqt_status read_rg(pqt_file *f, const pqt_nest *nest, int rg, int64_t a, int64_t z,
                          pqt_chunk_ctx *cx, pqt_buf *reps, pqt_buf *defs, pqt_nested_list *n)
{
    const pqt_row_group *g = &f->meta.row_groups[rg];
    const pqt_column_meta *cm = &g->columns[nest->leaf.chunk_col].meta;
    int64_t nv = cm->num_values;
    if (nv < 0)
        return pqt_err(PQT_CORRUPT, "%s: column '%s', row group %d: bad value count %lld",
                       f->path, nest->leaf.path, rg + 1, (long long)nv);
    /* the value count limits the slots; only what the chunk's bytes justify (8 entries a
     * byte, plus a row each) is allocated up front, the rest as the pages show it */
    int64_t stored = cm->total_compressed_size, just = g->num_rows;
    if (stored > 0 && stored <= f->file_size) just += stored * 8;
    pqt_sel sel = {0};
    pqt_sel_init_all(&sel, g->num_rows);
    pqt_colbuf b;
    PQT_TRY(pqt_colbuf_alloc(&b, &nest->leaf, g->num_rows, nv < just ? nv : just, NULL));
    b.elem_limit = nv;
    n->elem_nbytes = b.elem_nbytes;
    reps->len = defs->len = 0;
    pqt_chunk_src src = {f->io,         f->path, f->file_size, &f->meta,
                         f->verify_crc, true,    NULL,         f->oindex,
                         pqt_file_members(f), -1};
    pqt_chunk_ctx_set_level_sink(cx, reps, defs);
    pqt_status st = pqt_chunk_read(cx, &src, rg, &nest->leaf, &sel, &b, 0);
    pqt_chunk_ctx_set_level_sink(cx, NULL, NULL);
    if (st == PQT_OK) {
        st = assemble(n, nest, reps->data, defs->data, (int64_t)reps->len, &b, a, z);
        if (st != PQT_OK)
            pqt_err_prefix("%s: column '%s', row group %d: ", f->path, nest->leaf.path, rg + 1);
    }
    pqt_colbuf_free(&b);
    pqt_sel_free(&sel);
    return st;
}

int pqt_file_column_nested_levels(const pqt_file *f, int col)
{
    if (!f || col < 0 || col >= f->schema.ncols || !f->schema.cols[col].nest) return 0;
    return f->schema.cols[col].nest->nlevels;
}

pqt_status pqt_file_read_nested_list(pqt_file *f, int col, int64_t lo, int64_t hi,
                                     pqt_nested_list **ret)
{
    if (!f || !ret) return pqt_err(PQT_MISUSE, "pqt_file_read_nested_list: NULL argument");
    if (col < 0 || col >= f->schema.ncols)
        return pqt_err(PQT_NOT_FOUND, "%s: no column %d (the file has %d)", f->path, col,
                       f->schema.ncols);
    const pqt_col *c = &f->schema.cols[col];
    const pqt_nest *nest = c->nest;
    if (!nest)
        return pqt_err(PQT_KIND, "%s: column '%s' is not a list of lists of a primitive type%s%s",
                       f->path, c->path, c->why_unsupported ? ": " : " (use pqt_file_read)",
                       c->why_unsupported ? c->why_unsupported : "");
    if (nest->leaf.elem_kind == PQT_STRING)
        return pqt_err(PQT_UNSUPPORTED_TYPE,
                       "%s: column '%s': lists of lists of strings are "
                       "not read yet",
                       f->path, c->path);
    if (lo < 1 || hi > f->meta.num_rows || lo > hi + 1)
        return pqt_err(PQT_RANGE, "%s: rows %lld..%lld requested, the file has %lld rows", f->path,
                       (long long)lo, (long long)hi, (long long)f->meta.num_rows);
    pqt_nested_list *n = pqt_calloc(1, sizeof *n);
    if (!n) return pqt_err(PQT_NOMEM, "out of memory");
    n->nlevels = nest->nlevels;
    n->kind = nest->leaf.elem_kind;
    pqt_chunk_ctx *cx = NULL;
    pqt_buf reps = {0}, defs = {0};
    pqt_status st = pqt_chunk_ctx_new(&cx);
    if (st == PQT_OK) st = reserve_all(n, 0);
    /* rows lo-1 .. hi-1, 0-based, from each row group that holds some */
    for (int rg = 0; st == PQT_OK && rg < f->meta.n_row_groups; rg++) {
        const pqt_row_group *g = &f->meta.row_groups[rg];
        int64_t a = lo - 1 - g->first_row, z = hi - g->first_row;
        if (a < 0) a = 0;
        if (z > g->num_rows) z = g->num_rows;
        if (a >= z) continue;
        st = read_rg(f, nest, rg, a, z, cx, &reps, &defs, n);
    }
    pqt_chunk_ctx_free(cx);
    pqt_buf_free(&reps);
    pqt_buf_free(&defs);
    if (st != PQT_OK) {
        pqt_nested_list_free(n);
        return st;
    }
    for (int k = 0; k < n->nlevels; k++) {
        int64_t *off = (int64_t *)n->off[k].data;
        off[n->count[k]] = k + 1 < n->nlevels ? n->count[k + 1] : n->nvalues;
        pack_bits(&n->valid[k], n->count[k], &n->has_null[k]);
    }
    pack_bits(&n->vvalid, n->nvalues, &n->value_null);
    *ret = n;
    return PQT_OK;
}

int pqt_nested_list_nlevels(const pqt_nested_list *n)
{
    return n ? n->nlevels : 0;
}
int pqt_nested_list_kind(const pqt_nested_list *n)
{
    return n ? n->kind : PQT_NONE;
}
int64_t pqt_nested_list_nvalues(const pqt_nested_list *n)
{
    return n ? n->nvalues : 0;
}

int64_t pqt_nested_list_count(const pqt_nested_list *n, int level)
{
    return n && level >= 0 && level < n->nlevels ? n->count[level] : -1;
}

const int64_t *pqt_nested_list_offsets(const pqt_nested_list *n, int level)
{
    return n && level >= 0 && level < n->nlevels ? (const int64_t *)n->off[level].data : NULL;
}

const uint8_t *pqt_nested_list_list_validity(const pqt_nested_list *n, int level)
{
    if (!n || level < 0 || level >= n->nlevels || !n->has_null[level]) return NULL;
    return n->valid[level].data;
}

const void *pqt_nested_list_values(const pqt_nested_list *n)
{
    return n ? n->values.data : NULL;
}

const uint8_t *pqt_nested_list_validity(const pqt_nested_list *n)
{
    return n && n->value_null ? n->vvalid.data : NULL;
}
