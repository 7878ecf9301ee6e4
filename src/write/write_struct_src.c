/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_struct_src.c - which struct groups the source file holds present, row by row, for
 * the writer (layer: write; parquet-format Nested Encoding, Data Pages).
 *
 * A table keeps a struct leaf's validity only (null when the leaf or a group above it is
 * null), so a present struct whose leaves are all null would come back null. When the
 * table is still attached to its file and its rows map to file rows (pqt_plan_file_rows,
 * as the row index does), the writer reads again, once per pqt_writer_write, the
 * definition levels of one leaf under each written optional group (levels only: pages are
 * decompressed, values never decoded) and keeps one byte per table row: the group is
 * present in the source. write_struct.c writes the group present where the source had it
 * or where a written leaf under it is not null.
 */
#include <string.h>

#include "codec/codec.h"
#include "column/column.h"
#include "encoding/encoding.h"
#include "format/meta.h"
#include "read/plan.h"
#include "table/table_int.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"
#include "write/write_file.h"
#include "write/write_int.h"

static int bit_width(int max)
{
    int w = 0;
    while ((1 << w) <= max) w++;
    return w;
}

static bool descends(const pqt_file *f, int node, int anc)
{
    for (int p = node; p >= 0; p = f->schema.node_parent[p])
        if (p == anc) return true;
    return false;
}

/* n levels of bit width bw from p[0..len) into out. */
static pqt_status levels(const uint8_t *p, size_t len, int max, int64_t n, uint32_t *out)
{
    pqt_rle_dec d;
    PQT_TRY(pqt_rle_init(&d, bit_width(max), p, len));
    return pqt_rle_get_u32(&d, n, out);
}

/* The definition level of the first level of every row of leaf `leaf` (schema node lnode)
 * in row group rg, into row_def[0..num_rows). *ok false when a page holds levels in the
 * old BIT_PACKED encoding (the caller then goes without). */
static pqt_status chunk_row_defs(const pqt_file *f, int rg, int leaf, int max_def, int max_rep,
                                 uint8_t *row_def, bool *ok)
{
    const pqt_row_group *g = &f->meta.row_groups[rg];
    const pqt_column_meta *cm = &g->columns[leaf].meta;
    int64_t start, len;
    pqt_chunk_byte_range(cm, &start, &len);
    if (start < 4 || len <= 0 || len > f->file_size || start > f->file_size - len)
        return pqt_err(PQT_CORRUPT, "column chunk byte range [%lld, +%lld) is outside the file",
                       (long long)start, (long long)len);
    uint8_t *raw = pqt_malloc((size_t)len);
    pqt_buf unc = {0}, lv = {0};
    if (!raw) return pqt_err(PQT_NOMEM, "out of memory");
    pqt_status st = pqt_io_read(f->io, raw, (size_t)len, start);
    int64_t pos = 0, row = 0, nrows = g->num_rows;
    while (st == PQT_OK && pos < len && row < nrows) {
        pqt_page_header h;
        size_t hn = 0;
        st = pqt_meta_decode_page_header(raw + pos, (size_t)(len - pos), start + pos, &h, &hn);
        if (st != PQT_OK) break;
        const uint8_t *body = raw + pos + hn;
        if (h.compressed_size < 0 || h.uncompressed_size < 0 ||
            (int64_t)hn + h.compressed_size > len - pos) {
            st = pqt_err(PQT_CORRUPT, "a page at byte %lld runs past its chunk", (long long)(start + pos));
            break;
        }
        pos += (int64_t)hn + h.compressed_size;
        if (h.type != PQT_PAGE_DATA && h.type != PQT_PAGE_DATA_V2) continue;
        int64_t n = h.num_values;
        if (n < 0) {
            st = pqt_err(PQT_CORRUPT, "a page at byte %lld has %lld values", (long long)(start + pos),
                         (long long)n);
            break;
        }
        const uint8_t *rp = NULL, *dp = NULL;
        size_t rn = 0, dn = 0;
        if (h.type == PQT_PAGE_DATA_V2) {
            if (h.rep_levels_nbytes < 0 || h.def_levels_nbytes < 0 ||
                (int64_t)h.rep_levels_nbytes + h.def_levels_nbytes > h.compressed_size) {
                st = pqt_err(PQT_CORRUPT, "page levels past the page");
                break;
            }
            rp = body, rn = (size_t)h.rep_levels_nbytes;
            dp = body + rn, dn = (size_t)h.def_levels_nbytes;
        } else {
            if ((max_rep > 0 && h.rep_level_encoding != PQT_ENC_RLE) ||
                (max_def > 0 && h.def_level_encoding != PQT_ENC_RLE)) {
                *ok = false;
                break;
            }
            const uint8_t *p = body;
            size_t avail = (size_t)h.compressed_size;
            if (cm->codec != PQT_WRITE_UNCOMPRESSED) {
                st = pqt_buf_reserve(&unc, (size_t)h.uncompressed_size + 1);
                if (st == PQT_OK)
                    st = pqt_codec_decompress(NULL, cm->codec, body, (size_t)h.compressed_size,
                                              unc.data, (size_t)h.uncompressed_size);
                if (st != PQT_OK) break;
                p = unc.data;
                avail = (size_t)h.uncompressed_size;
            }
            for (int pass = 0; pass < 2; pass++) {
                if ((pass == 0 ? max_rep : max_def) == 0) continue;
                uint32_t l32 = 0;
                if (avail < 4) break;
                memcpy(&l32, p, 4);
                if (l32 > avail - 4) {
                    avail = 0;
                    break;
                }
                if (pass == 0) rp = p + 4, rn = l32;
                else dp = p + 4, dn = l32;
                p += 4 + l32;
                avail -= 4 + l32;
            }
            if (!dp || (max_rep > 0 && !rp)) {
                st = pqt_err(PQT_CORRUPT, "page levels past the page");
                break;
            }
        }
        st = pqt_buf_reserve(&lv, (size_t)n * 2 * sizeof(uint32_t) + 8);
        if (st != PQT_OK) break;
        uint32_t *defs = (uint32_t *)lv.data, *reps = defs + n;
        st = levels(dp, dn, max_def, n, defs);
        if (st == PQT_OK && max_rep > 0) st = levels(rp, rn, max_rep, n, reps);
        for (int64_t k = 0; st == PQT_OK && k < n; k++) {
            if (max_rep > 0 && reps[k] != 0) continue;
            if (row >= nrows) {
                st = pqt_err(PQT_CORRUPT, "more rows in the pages than the row group's %lld",
                             (long long)nrows);
                break;
            }
            row_def[row++] = (uint8_t)(defs[k] > 255 ? 255 : defs[k]);
        }
    }
    if (st == PQT_OK && *ok && row != nrows)
        st = pqt_err(PQT_CORRUPT, "%lld rows in the pages, the row group has %lld", (long long)row,
                     (long long)nrows);
    pqt_mem_free(raw);
    pqt_buf_free(&unc);
    pqt_buf_free(&lv);
    return st;
}

/* present[table row] for group node gnode of t's file: its definition level reached. */
static pqt_status group_rows(const pqt_table *t, int gnode, uint8_t *present, bool *ok)
{
    const pqt_file *f = t->f;
    const pqt_schema_elem *s = f->meta.schema;
    /* the group's level, and a leaf under it: the first without a repeated node below */
    int gdef = 0;
    for (int p = gnode; p > 0; p = f->schema.node_parent[p]) gdef += s[p].repetition != PQT_REP_REQUIRED;
    int leaf = -1, lnode = -1, nleaf = 0, first = -1, first_node = -1;
    for (int k = 1; k < f->meta.nschema && leaf < 0; k++) {
        if (s[k].num_children > 0) continue;
        if (descends(f, k, gnode)) {
            bool rep = false;
            for (int p = k; p != gnode; p = f->schema.node_parent[p]) rep = rep || s[p].repetition == PQT_REP_REPEATED;
            if (first < 0) first = nleaf, first_node = k;
            if (!rep) leaf = nleaf, lnode = k;
        }
        nleaf++;
    }
    if (leaf < 0) leaf = first, lnode = first_node;
    if (leaf < 0) {
        *ok = false;
        return PQT_OK;
    }
    int max_def = 0, max_rep = 0;
    for (int p = lnode; p > 0; p = f->schema.node_parent[p]) {
        max_def += s[p].repetition != PQT_REP_REQUIRED;
        max_rep += s[p].repetition == PQT_REP_REPEATED;
    }
    const pqt_plan *pl = &t->plan;
    int64_t nfile = pl->nrg > 0 ? pl->rg_start[pl->nrg] : 0;
    uint8_t *fdef = pqt_calloc((size_t)nfile + 1, 1);
    int64_t *rows = pqt_malloc_array((size_t)t->nrows + 1, sizeof *rows);
    pqt_status st = fdef && rows ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory");
    for (int rg = 0; rg < pl->nrg && st == PQT_OK && *ok; rg++)
        if (pl->sel[rg].nsel > 0)
            st = chunk_row_defs(f, rg, leaf, max_def, max_rep, fdef + pl->rg_start[rg], ok);
    if (st == PQT_OK && *ok) st = pqt_plan_file_rows(pl, rows);
    for (int64_t r = 0; st == PQT_OK && *ok && r < t->nrows; r++)
        present[r] = fdef[rows[r] - 1] >= gdef;
    if (st != PQT_OK) pqt_err_prefix("%s, struct '%s': reading its levels: ", f->path, s[gnode].name);
    pqt_mem_free(fdef);
    pqt_mem_free(rows);
    return st;
}

/* The group node at depth d + 1 above table slot `slot`'s leaf, when the slot is a file
 * column under its path; else -1. */
static int source_group(const pqt_table *t, int slot, int d)
{
    const pqt_tcol *c = &t->cols[slot];
    if (c->file_col < 0) return -1;
    const pqt_file *f = t->f;
    const pqt_col *fc = &f->schema.cols[c->file_col];
    if (fc->top_level || strcmp(c->name, fc->path) != 0) return -1;
    int node = fc->leaf_schema_idx;
    while (node >= 0 && f->schema.node_col[node] != c->file_col) node = f->schema.node_parent[node];
    int depth = node >= 0 ? pqt_file_node_depth(f, node) : -1;
    while (node >= 0 && depth > d + 1) {
        node = f->schema.node_parent[node];
        depth--;
    }
    return depth == d + 1 && node > 0 && f->meta.schema[node].num_children > 0 ? node : -1;
}

void pqt_wstruct_source_free(pqt_writer *w)
{
    for (int i = 0; i < w->nwsrc; i++) pqt_mem_free(w->wsrc[i].present);
    pqt_mem_free(w->wsrc);
    w->wsrc = NULL;
    w->nwsrc = 0;
}

pqt_status pqt_wstruct_source(pqt_writer *w, pqt_table *t, const int *slots)
{
    pqt_wstruct_source_free(w);
    const pqt_wcol *c = w->cols;
    int nc = w->ncols;
    if (!t->f || t->detached || t->plan.nsel != t->nrows || t->nrows == 0) return PQT_OK;
    for (int k = 0; k < nc; k++) {
        int com = k > 0 ? pqt_wstruct_common(&c[k - 1], &c[k]) : 0;
        for (int d = com; d < c[k].ngroups; d++) {
            if (!c[k].group_opt[d]) continue;
            int gnode = -1;
            for (int j = k; j < nc && gnode < 0 && pqt_wstruct_common(&c[k], &c[j]) > d; j++)
                if (slots[j] >= 0) gnode = source_group(t, slots[j], d);
            if (gnode < 0) continue;
            uint8_t *present = pqt_malloc((size_t)t->nrows + 1);
            if (!present) return pqt_err(PQT_NOMEM, "out of memory");
            bool ok = true;
            pqt_status st = group_rows(t, gnode, present, &ok);
            if (st == PQT_OK && ok) {
                pqt_wstruct_src *s = pqt_realloc(w->wsrc, (size_t)(w->nwsrc + 1) * sizeof *s);
                if (!s) st = pqt_err(PQT_NOMEM, "out of memory");
                else {
                    w->wsrc = s;
                    s[w->nwsrc++] = (pqt_wstruct_src){k, d, present};
                    present = NULL;
                }
            }
            pqt_mem_free(present);
            if (st != PQT_OK) return st;
        }
    }
    return PQT_OK;
}
