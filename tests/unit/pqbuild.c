/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqbuild.c - the tiny Parquet writer of pqbuild.h (tests only).
 * Field ids follow parquet.thrift (PageHeader, DataPageHeader[V2], DictionaryPageHeader,
 * FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData).
 */
#include "pqbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/meta.h"
#include "format/thrift.h"

void pqb_free(pqb *w)
{
    free(w->b);
    memset(w, 0, sizeof *w);
}

void pqb_bytes(pqb *w, const void *p, size_t n)
{
    if (w->n + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->n + n) cap *= 2;
        uint8_t *b = realloc(w->b, cap);
        if (!b) {
            fputs("pqbuild: out of memory\n", stderr);
            exit(2);
        }
        w->b = b;
        w->cap = cap;
    }
    if (n) memcpy(w->b + w->n, p, n);
    w->n += n;
}

void pqb_u8(pqb *w, uint8_t x) { pqb_bytes(w, &x, 1); }

void pqb_le32(pqb *w, uint32_t x)
{
    uint8_t b[4] = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24)};
    pqb_bytes(w, b, 4);
}

void pqb_uvar(pqb *w, uint64_t v)
{
    while (v >= 0x80) {
        pqb_u8(w, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    pqb_u8(w, (uint8_t)v);
}

void pqb_zz(pqb *w, int64_t v) { pqb_uvar(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

static void field(pqb *w, int id, int type)
{
    int delta = id - w->last[w->depth];
    if (delta > 0 && delta <= 15) {
        pqb_u8(w, (uint8_t)(delta << 4 | type));
    } else {
        pqb_u8(w, (uint8_t)type);
        pqb_zz(w, id);
    }
    w->last[w->depth] = (int16_t)id;
}

void pqb_begin(pqb *w) { w->last[++w->depth] = 0; }

void pqb_end(pqb *w)
{
    pqb_u8(w, 0);
    w->depth--;
}

void pqb_i32(pqb *w, int id, int64_t v)
{
    field(w, id, PQT_TT_I32);
    pqb_zz(w, v);
}

void pqb_i64(pqb *w, int id, int64_t v)
{
    field(w, id, PQT_TT_I64);
    pqb_zz(w, v);
}

void pqb_bool(pqb *w, int id, bool v) { field(w, id, v ? PQT_TT_TRUE : PQT_TT_FALSE); }

void pqb_bin(pqb *w, const char *s)
{
    pqb_uvar(w, strlen(s));
    pqb_bytes(w, s, strlen(s));
}

void pqb_str(pqb *w, int id, const char *s)
{
    field(w, id, PQT_TT_BINARY);
    pqb_bin(w, s);
}

void pqb_struct(pqb *w, int id)
{
    field(w, id, PQT_TT_STRUCT);
    pqb_begin(w);
}

void pqb_list(pqb *w, int id, int elem_type, int n)
{
    field(w, id, PQT_TT_LIST);
    if (n < 15) {
        pqb_u8(w, (uint8_t)(n << 4 | elem_type));
    } else {
        pqb_u8(w, (uint8_t)(0xf0 | elem_type));
        pqb_uvar(w, (uint64_t)n);
    }
}

void pqb_rle_run(pqb *w, uint64_t count, uint32_t value, int bw)
{
    pqb_uvar(w, count << 1);
    for (int i = 0; i < (bw + 7) / 8; i++) pqb_u8(w, (uint8_t)(value >> (8 * i)));
}

void pqb_page_header(pqb *w, const pqb_page *p)
{
    w->depth = 0;
    pqb_begin(w);
    pqb_i32(w, 1, p->type);
    pqb_i32(w, 2, p->uncompressed_size);
    pqb_i32(w, 3, p->compressed_size);
    if (p->type == PQT_PAGE_DATA) {
        pqb_struct(w, 5);
        pqb_i32(w, 1, p->num_values);
        pqb_i32(w, 2, p->encoding);
        pqb_i32(w, 3, PQT_ENC_RLE);
        pqb_i32(w, 4, PQT_ENC_RLE);
        pqb_end(w);
    } else if (p->type == PQT_PAGE_DICTIONARY) {
        pqb_struct(w, 7);
        pqb_i32(w, 1, p->num_values);
        pqb_i32(w, 2, PQT_ENC_PLAIN);
        pqb_end(w);
    } else {
        pqb_struct(w, 8);
        pqb_i32(w, 1, p->num_values);
        pqb_i32(w, 2, p->num_nulls);
        pqb_i32(w, 3, p->num_rows);
        pqb_i32(w, 4, p->encoding);
        pqb_i32(w, 5, p->def_nbytes);
        pqb_i32(w, 6, p->rep_nbytes);
        if (p->v2_uncompressed) pqb_bool(w, 7, false);
        pqb_end(w);
    }
    pqb_end(w);
}

static void schema_elem(pqb *w, int ptype, int type_length, int repetition, const char *name,
                        int nchildren, int converted)
{
    pqb_begin(w);
    if (ptype >= 0) pqb_i32(w, 1, ptype);
    if (type_length > 0) pqb_i32(w, 2, type_length);
    if (repetition >= 0) pqb_i32(w, 3, repetition);
    pqb_str(w, 4, name);
    if (nchildren > 0) pqb_i32(w, 5, nchildren);
    if (converted >= 0) pqb_i32(w, 6, converted);
    pqb_end(w);
}

void pqb_footer(pqb *w, const pqb_col *cols, int ncols, int nrg, const int64_t *rg_rows,
                const pqb_chunk *chunks)
{
    pqb_footer_ext(w, cols, ncols, nrg, rg_rows, chunks, NULL);
}

/* Column c is a field of the same struct as column c - 1. */
static bool group_continues(const char *const *group, int c)
{
    return group && c > 0 && group[c] && group[c - 1] && strcmp(group[c], group[c - 1]) == 0;
}

static void footer(pqb *w, const pqb_col *cols, const char *const *group, int ncols, int nrg,
                   const int64_t *rg_rows, const pqb_chunk *chunks, const pqb_chunk_extra *extra)
{
    static const pqb_chunk_extra none = {0};
    size_t start = w->n;
    int nschema = 1, ntop = 0;
    int64_t nrows = 0;
    for (int c = 0; c < ncols; c++) {
        nschema += cols[c].list ? 3 : 1;
        const char *g = group ? group[c] : NULL;
        if (!g || !group_continues(group, c)) ntop++;
        if (g && !group_continues(group, c)) nschema++;
    }
    for (int rg = 0; rg < nrg; rg++) nrows += rg_rows[rg];
    w->depth = 0;
    pqb_begin(w);
    pqb_i32(w, 1, 2);
    pqb_list(w, 2, PQT_TT_STRUCT, nschema);
    schema_elem(w, -1, 0, -1, "schema", ntop, -1);
    for (int c = 0; c < ncols; c++) {
        const pqb_col *k = &cols[c];
        if (group && group[c] && !group_continues(group, c)) {
            int nkids = 1;
            while (c + nkids < ncols && group_continues(group, c + nkids))
                nkids++;
            schema_elem(w, -1, 0, PQT_REP_OPTIONAL, group[c], nkids, -1);
        }
        if (k->list) {
            schema_elem(w, -1, 0, k->repetition, k->name, 1, PQT_CT_LIST);
            schema_elem(w, -1, 0, PQT_REP_REPEATED, "list", 1, -1);
            schema_elem(w, k->ptype, k->type_length, PQT_REP_OPTIONAL, "element", 0, -1);
        } else {
            schema_elem(w, k->ptype, k->type_length, k->repetition, k->name, 0, -1);
        }
    }
    pqb_i64(w, 3, nrows);
    pqb_list(w, 4, PQT_TT_STRUCT, nrg);
    for (int rg = 0; rg < nrg; rg++) {
        pqb_begin(w);
        pqb_list(w, 1, PQT_TT_STRUCT, ncols);
        int64_t bytes = 0;
        for (int c = 0; c < ncols; c++) {
            const pqb_chunk *ch = &chunks[(size_t)rg * (size_t)ncols + (size_t)c];
            const pqb_chunk_extra *ex = extra ? &extra[(size_t)rg * (size_t)ncols + (size_t)c]
                                              : &none;
            bytes += ch->nbytes;
            pqb_begin(w);
            pqb_i64(w, 2, ch->offset);
            pqb_struct(w, 3);
            pqb_i32(w, 1, cols[c].ptype);
            pqb_list(w, 2, PQT_TT_I32, 2);
            pqb_zz(w, PQT_ENC_PLAIN);
            pqb_zz(w, PQT_ENC_RLE);
            bool in_group = group && group[c];
            pqb_list(w, 3, PQT_TT_BINARY, (cols[c].list ? 3 : 1) + in_group);
            if (in_group) pqb_bin(w, group[c]);
            pqb_bin(w, cols[c].name);
            if (cols[c].list) {
                pqb_bin(w, "list");
                pqb_bin(w, "element");
            }
            pqb_i32(w, 4, ch->codec);
            pqb_i64(w, 5, ch->num_values);
            pqb_i64(w, 6, ch->total_uncompressed);
            pqb_i64(w, 7, ch->nbytes);
            pqb_i64(w, 9, ch->offset);
            if (ex->dict_offset > 0) pqb_i64(w, 11, ex->dict_offset);
            pqb_end(w);
            if (ex->oi_nbytes > 0) {
                pqb_i64(w, 4, ex->oi_offset);
                pqb_i32(w, 5, ex->oi_nbytes);
            }
            pqb_end(w);
        }
        pqb_i64(w, 2, bytes);
        pqb_i64(w, 3, rg_rows[rg]);
        pqb_end(w);
    }
    pqb_end(w);
    pqb_le32(w, (uint32_t)(w->n - start));
    pqb_bytes(w, "PAR1", 4);
}

void pqb_footer_ext(pqb *w, const pqb_col *cols, int ncols, int nrg, const int64_t *rg_rows,
                    const pqb_chunk *chunks, const pqb_chunk_extra *extra)
{
    footer(w, cols, NULL, ncols, nrg, rg_rows, chunks, extra);
}

void pqb_footer_groups(pqb *w, const pqb_col *cols, const char *const *group, int ncols, int nrg,
                       const int64_t *rg_rows, const pqb_chunk *chunks)
{
    footer(w, cols, group, ncols, nrg, rg_rows, chunks, NULL);
}

void pqb_offset_index(pqb *w, int n, const int64_t *offsets, const int32_t *nbytes,
                      const int64_t *first_rows)
{
    w->depth = 0;
    pqb_begin(w);
    pqb_list(w, 1, PQT_TT_STRUCT, n);
    for (int i = 0; i < n; i++) {
        pqb_begin(w);
        pqb_i64(w, 1, offsets[i]);
        pqb_i32(w, 2, nbytes[i]);
        pqb_i64(w, 3, first_rows[i]);
        pqb_end(w);
    }
    pqb_end(w);
}


/* ---- for diff_write.c ---- */

void pqb_bin_n(pqb *w, const void *p, size_t n)
{
    pqb_uvar(w, n);
    pqb_bytes(w, p, n);
}

void pqb_binary(pqb *w, int id, const void *p, size_t n)
{
    field(w, id, PQT_TT_BINARY);
    pqb_bin_n(w, p, n);
}

void pqb_bool_elem(pqb *w, bool v) { pqb_u8(w, v ? 1 : 2); }

void pqb_i8(pqb *w, int id, int v)
{
    field(w, id, PQT_TT_I8);
    pqb_u8(w, (uint8_t)v);
}

bool pqb_write_file(const pqb *w, const char *path)
{
    FILE *fp = fopen(path, "wb");
    if (!fp) return false;
    bool ok = fwrite(w->b, 1, w->n, fp) == w->n;
    return fclose(fp) == 0 && ok;
}
