/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff_write.c - the differential test's Parquet writer (diff_write.h): level entries,
 * pages (v1, v2), chunks, the page index, the footer; values and their encodings are in
 * diff_write_val.c. Follows parquet-format: DataPageV2 and levels per Encodings.md,
 * PageIndex.md for ColumnIndex and OffsetIndex, parquet.thrift for the structures (field ids
 * as in pqbuild.c). Statistics are always true: they may be absent, partial or loose
 * (truncated strings, NaN or legacy signed-order bounds), never wrong.
 */
#include "diff_write_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bloom_build.h"
#include "format/meta.h"
#include "format/thrift.h"
#include "testutil.h"

/* ---- chunks ---- */

typedef struct chunk {
    int64_t offset, data_off, dict_off, tot_unc, tot_comp, num_values;
    int has_dict, codec, encs[8], nenc;
    /* ColumnMetaData.encoding_stats: data pages by [v2][encoding]; written for most chunks
     * (parquet-mr and arrow write them, DuckDB and Polars do not) */
    int32_t enc_pages[2][10];
    int enc_stats;
    int has_stats, has_nc, has_nan, flag_exact;
    int stat_fields; /* 1: min_value/max_value; 2: the deprecated min/max; 3: both */
    dw_mm legacy;
    dw_mm m;
    pqb ci, oi;
    int64_t ci_off, oi_off;
    int64_t r0, nrows;              /* the rows it holds */
    int64_t bloom_off, bloom_len; /* 0: no bloom filter */
} chunk;

/* ColumnMetaData.encoding_stats (field 13): the dictionary page, then the data pages by page
 * type and encoding, each with its count. */
static void enc_stat(pqb *w, int page_type, int encoding, int32_t count)
{
    pqb_begin(w);
    pqb_i32(w, 1, page_type);
    pqb_i32(w, 2, encoding);
    pqb_i32(w, 3, count);
    pqb_end(w);
}

static void enc_stats(pqb *w, const chunk *k)
{
    int n = k->has_dict;
    for (int v2 = 0; v2 < 2; v2++)
        for (int e = 0; e < 10; e++) n += k->enc_pages[v2][e] > 0;
    pqb_list(w, 13, PQT_TT_STRUCT, n);
    if (k->has_dict) enc_stat(w, PQT_PAGE_DICTIONARY, PQT_ENC_PLAIN, 1);
    for (int v2 = 0; v2 < 2; v2++)
        for (int e = 0; e < 10; e++)
            if (k->enc_pages[v2][e] > 0)
                enc_stat(w, v2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA, e, k->enc_pages[v2][e]);
}

static void add_enc(chunk *k, int e)
{
    for (int i = 0; i < k->nenc; i++)
        if (k->encs[i] == e) return;
    k->encs[k->nenc++] = e;
}

static int max_def(const dw_col *c) { return c->list ? 3 : c->group ? 2 : c->required ? 0 : 1; }

static int pick_enc(const dw_col *c)
{
    static const int ints[] = {PQT_ENC_PLAIN, PQT_ENC_RLE_DICTIONARY, PQT_ENC_DELTA_BINARY_PACKED,
                               PQT_ENC_BYTE_STREAM_SPLIT};
    static const int flts[] = {PQT_ENC_PLAIN, PQT_ENC_RLE_DICTIONARY, PQT_ENC_BYTE_STREAM_SPLIT};
    static const int strs[] = {PQT_ENC_PLAIN, PQT_ENC_RLE_DICTIONARY,
                               PQT_ENC_DELTA_LENGTH_BYTE_ARRAY, PQT_ENC_DELTA_BYTE_ARRAY};
    switch (c->ptype) {
    case PQT_PT_BOOLEAN: return dw_pct(50) ? PQT_ENC_PLAIN : PQT_ENC_RLE;
    case PQT_PT_INT32:
    case PQT_PT_INT64: return ints[dw_rn(4)];
    case PQT_PT_FLOAT:
    case PQT_PT_DOUBLE: return flts[dw_rn(3)];
    default: return strs[dw_rn(4)];
    }
}

/* Page boundaries: one page, pages of k rows, or random cuts. Returns the page count. */
static int split(int64_t n, int64_t *starts)
{
    int np = 1;
    starts[0] = 0;
    int mode = (int)dw_rn(4);
    if (mode == 1) {
        int64_t k = n / 64 + 1 + dw_rn(n / 4 + 1);
        for (int64_t s = k; s < n && np < 64; s += k) starts[np++] = s;
    } else if (mode >= 2) {
        int want = 2 + (int)dw_rn(8);
        for (int i = 0; i < want && n > 1; i++) {
            int64_t s = 1 + dw_rn(n - 1), j = np;
            int dup = 0;
            for (int q = 0; q < np; q++) dup |= starts[q] == s;
            if (dup) continue;
            while (j > 0 && starts[j - 1] > s) starts[j] = starts[j - 1], j--;
            starts[j] = s;
            np++;
        }
    }
    starts[np] = n;
    return np;
}

/* The level entries of rows r0..r0+n: definition and repetition levels, the value id of
 * each present value, where each row's entries start (n + 1). */
typedef struct ents {
    int64_t n, nv, *row_at, *vid, *vat; /* vat[e]: present values before entry e */
    uint32_t *def, *rep;
} ents;

static void make_ents(const dw_col *c, int64_t r0, int64_t n, ents *E)
{
    int64_t cap = n + 1, md = max_def(c);
    if (c->list) cap += c->loff[r0 + n] - c->loff[r0];
    E->row_at = malloc(((size_t)n + 1) * sizeof *E->row_at);
    E->vid = malloc((size_t)cap * sizeof *E->vid);
    E->vat = malloc(((size_t)cap + 1) * sizeof *E->vat);
    E->def = malloc((size_t)cap * sizeof *E->def);
    E->rep = malloc((size_t)cap * sizeof *E->rep);
    E->n = E->nv = 0;
#define ENT(d, r, v)                                                                               \
    do {                                                                                           \
        E->def[E->n] = (uint32_t)(d), E->rep[E->n] = (uint32_t)(r), E->vat[E->n] = E->nv;          \
        if ((v) >= 0) E->vid[E->nv++] = (v);                                                       \
        E->n++;                                                                                    \
    } while (0)
    for (int64_t r = r0; r < r0 + n; r++) {
        E->row_at[r - r0] = E->n;
        if (!c->list) {
            int pr = dw_present(c, r);
            ENT(pr ? md : c->group ? dw_rn(2) : 0, 0, pr ? r : -1);
        } else if (!dw_present(c, r)) {
            ENT(0, 0, -1);
        } else if (c->loff[r + 1] == c->loff[r]) {
            ENT(1, 0, -1);
        } else {
            for (int64_t e = c->loff[r]; e < c->loff[r + 1]; e++) {
                int pr = !c->evalid || ((c->evalid[e >> 3] >> (e & 7)) & 1);
                ENT(pr ? 3 : 2, e > c->loff[r], pr ? e : -1);
            }
        }
    }
#undef ENT
    E->row_at[n] = E->n;
    E->vat[E->n] = E->nv;
}

static void free_ents(ents *E)
{
    free(E->row_at);
    free(E->vid);
    free(E->vat);
    free(E->def);
    free(E->rep);
}

static void write_chunk(pqb *f, const dw_col *c, int64_t r0, int64_t n, int page_index, chunk *k,
                        dw_info *info)
{
    memset(k, 0, sizeof *k);
    k->r0 = r0, k->nrows = n;
    k->offset = (int64_t)f->n;
    k->codec = dw_pct(50) ? PQT_CODEC_UNCOMPRESSED : PQT_CODEC_SNAPPY;
    info->snappy_chunks += k->codec == PQT_CODEC_SNAPPY;
    info->chunks++;
    k->enc_stats = info->chunks % 4 != 0; /* not drawn: the files stay what the seed made */
    ents E;
    make_ents(c, r0, n, &E);
    k->num_values = E.n;
    int enc = pick_enc(c), md = max_def(c), dbw = dw_bits_of((uint64_t)md);
    dw_dict d = {0};
    int npd = 1 << 30; /* pages that use the dictionary */
    if (enc == PQT_ENC_RLE_DICTIONARY && !dw_make_dict(c, E.vid, E.nv, &d)) enc = PQT_ENC_PLAIN;
    int64_t starts[80];
    int np = split(n, starts);
    if (enc == PQT_ENC_RLE_DICTIONARY) {
        k->has_dict = 1;
        info->dict_chunks++;
        if (np > 1 && dw_pct(30)) { /* fallback to PLAIN, as writers do when a dictionary grows */
            npd = 1 + (int)dw_rn(np - 1);
            info->fallback_chunks++;
        }
        pqb raw = {0}, comp = {0};
        dw_plain(&raw, c, d.ids, (size_t)d.n);
        dw_compress(&comp, raw.b, raw.n, k->codec);
        k->dict_off = (int64_t)f->n;
        pqb_page pg = {.type = PQT_PAGE_DICTIONARY, .uncompressed_size = (int32_t)raw.n,
                       .compressed_size = (int32_t)comp.n, .num_values = (int32_t)d.n};
        size_t h0 = f->n;
        pqb_page_header(f, &pg);
        k->tot_unc += (int64_t)(f->n - h0 + raw.n);
        k->tot_comp += (int64_t)(f->n - h0 + comp.n);
        pqb_bytes(f, comp.b, comp.n);
        pqb_free(&raw);
        pqb_free(&comp);
        add_enc(k, PQT_ENC_PLAIN);
    }
    add_enc(k, PQT_ENC_RLE);
    int v1_dict_enc = dw_pct(50) ? PQT_ENC_PLAIN_DICTIONARY : PQT_ENC_RLE_DICTIONARY;
    dw_mm pm[80];
    int any_nan_page = 0;
    pqb oi = {0};
    pqb_begin(&oi);
    pqb_list(&oi, 1, PQT_TT_STRUCT, np);
    for (int p = 0; p < np; p++) {
        int64_t e0 = E.row_at[starts[p]], e1 = E.row_at[starts[p + 1]], ne = e1 - e0;
        int64_t v0 = E.vat[e0], nv = E.vat[e1] - v0;
        dw_scan_mm(c, E.vid + v0, nv, ne - nv, &pm[p]);
        dw_shape(c->ptype, &pm[p], info);
        any_nan_page |= pm[p].nonnull > 0 && !pm[p].has;
        int v2 = dw_pct(30);
        int e = enc == PQT_ENC_RLE_DICTIONARY && p >= npd ? PQT_ENC_PLAIN : enc;
        if (e == PQT_ENC_RLE_DICTIONARY && !v2) e = v1_dict_enc;
        add_enc(k, e);
        k->enc_pages[v2][e]++;
        info->enc_pages[e == PQT_ENC_PLAIN_DICTIONARY ? PQT_ENC_RLE_DICTIONARY : e]++;
        info->pages++;
        info->v2_pages += v2;
        pqb rep = {0}, lev = {0}, vals = {0}, body = {0};
        if (c->list) dw_hybrid(&rep, E.rep + e0, (size_t)ne, 1);
        if (md > 0) dw_hybrid(&lev, E.def + e0, (size_t)ne, dbw);
        dw_values(&vals, c, E.vid + v0, (size_t)nv, e, &d, d.code ? d.code + v0 : NULL);
        pqb_page pg = {.type = v2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA, .num_values = (int32_t)ne,
                       .encoding = e};
        size_t unc;
        if (v2) {
            int comp = k->codec != PQT_CODEC_UNCOMPRESSED && dw_pct(80);
            pqb_bytes(&body, rep.b, rep.n);
            pqb_bytes(&body, lev.b, lev.n);
            dw_compress(&body, vals.b, vals.n, comp ? k->codec : PQT_CODEC_UNCOMPRESSED);
            unc = rep.n + lev.n + vals.n;
            pg.num_nulls = (int32_t)(ne - nv);
            pg.num_rows = (int32_t)(starts[p + 1] - starts[p]);
            pg.rep_nbytes = (int32_t)rep.n;
            pg.def_nbytes = (int32_t)lev.n;
            pg.v2_uncompressed = !comp;
        } else {
            pqb raw = {0};
            if (c->list) {
                pqb_le32(&raw, (uint32_t)rep.n);
                pqb_bytes(&raw, rep.b, rep.n);
            }
            if (md > 0) {
                pqb_le32(&raw, (uint32_t)lev.n);
                pqb_bytes(&raw, lev.b, lev.n);
            }
            pqb_bytes(&raw, vals.b, vals.n);
            dw_compress(&body, raw.b, raw.n, k->codec);
            unc = raw.n;
            pqb_free(&raw);
        }
        pg.uncompressed_size = (int32_t)unc;
        pg.compressed_size = (int32_t)body.n;
        size_t h0 = f->n;
        if (p == 0) k->data_off = (int64_t)h0;
        pqb_page_header(f, &pg);
        k->tot_unc += (int64_t)(f->n - h0 + unc);
        k->tot_comp += (int64_t)(f->n - h0 + body.n);
        pqb_bytes(f, body.b, body.n);
        pqb_begin(&oi);
        pqb_i64(&oi, 1, (int64_t)h0);
        pqb_i32(&oi, 2, (int64_t)(f->n - h0));
        pqb_i64(&oi, 3, starts[p]);
        pqb_end(&oi);
        pqb_free(&rep);
        pqb_free(&lev);
        pqb_free(&vals);
        pqb_free(&body);
    }
    pqb_end(&oi);
    free(d.ids);
    free(d.code);
    /* chunk statistics */
    k->has_stats = dw_pct(90);
    info->stats_chunks += k->has_stats;
    k->has_nc = dw_pct(85);
    k->has_nan = dw_is_float(c->ptype) && dw_pct(50);
    k->flag_exact = dw_pct(50);
    dw_scan_mm(c, E.vid, E.nv, E.n - E.nv, &k->m);
    dw_shape(c->ptype, &k->m, info);
    k->stat_fields = dw_pct(80) ? 1 : dw_pct(50) ? 2 : 3;
    info->legacy_stats += k->has_stats && k->stat_fields > 1;
    dw_legacy = 1;
    dw_scan_mm(c, E.vid, E.nv, E.n - E.nv, &k->legacy);
    dw_legacy = 0;
    if (dw_is_float(c->ptype) && k->m.nans > 0 && dw_pct(15)) { /* writers that let NaN in */
        dw_mm *m = dw_pct(50) ? &k->m : &k->legacy;
        uint8_t nan[8];
        if (c->ptype == PQT_PT_FLOAT) {
            float fn = NAN;
            memcpy(nan, &fn, 4);
        } else {
            double dn = NAN;
            memcpy(nan, &dn, 8);
        }
        memcpy(dw_pct(50) ? m->hi : m->lo, nan, dw_ptype_width(c->ptype));
        if (!m->has) memcpy(m->lo, nan, 8), memcpy(m->hi, nan, 8);
        m->llen = m->hlen = dw_ptype_width(c->ptype);
        m->has = 1;
        info->nan_bounds += k->has_stats;
    }
    free_ents(&E);
    /* the page index: most chunks; none for a float chunk with a page of NaN only (writers
     * have no bound to give it) */
    if (page_index && dw_pct(92)) {
        k->oi = oi;
        info->offset_index_chunks++;
    } else {
        pqb_free(&oi);
    }
    if (page_index && dw_pct(90) && !any_nan_page) {
        int asc = 1, desc = 1, prev = -1;
        for (int p = 0; p < np; p++) {
            if (!pm[p].has) continue;
            if (prev >= 0) {
                const dw_mm *a = &pm[prev], *b = &pm[p];
                int lo = dw_cmp(c, a->lo, a->llen, b->lo, b->llen);
                int hi = dw_cmp(c, a->hi, a->hlen, b->hi, b->hlen);
                asc &= lo <= 0 && hi <= 0;
                desc &= lo >= 0 && hi >= 0;
            }
            prev = p;
        }
        int order = asc ? PQT_ORDER_ASCENDING : desc ? PQT_ORDER_DESCENDING : PQT_ORDER_UNORDERED;
        if (dw_pct(20)) order = PQT_ORDER_UNORDERED; /* always allowed */
        pqb *ci = &k->ci;
        pqb_begin(ci);
        pqb_list(ci, 1, PQT_TT_TRUE, np);
        for (int p = 0; p < np; p++) pqb_bool_elem(ci, pm[p].nonnull == 0);
        pqb_list(ci, 2, PQT_TT_BINARY, np);
        for (int p = 0; p < np; p++) pqb_bin_n(ci, pm[p].lo, pm[p].has ? pm[p].llen : 0);
        pqb_list(ci, 3, PQT_TT_BINARY, np);
        for (int p = 0; p < np; p++) pqb_bin_n(ci, pm[p].hi, pm[p].has ? pm[p].hlen : 0);
        pqb_i32(ci, 4, order);
        if (dw_pct(80)) {
            pqb_list(ci, 5, PQT_TT_I64, np);
            for (int p = 0; p < np; p++) pqb_zz(ci, pm[p].nulls);
        }
        pqb_end(ci);
        info->column_index_chunks++;
    }
}

/* ---- footer ---- */

static void schema_leaf(pqb *w, const dw_col *c, int rep)
{
    static const int conv_time[3] = {PQT_CT_TIME_MILLIS, PQT_CT_TIME_MICROS, -1};
    static const int conv_ts[3] = {PQT_CT_TIMESTAMP_MILLIS, PQT_CT_TIMESTAMP_MICROS, -1};
    int conv = c->ann == DW_STRING   ? PQT_CT_UTF8
               : c->ann == DW_UINT32 ? PQT_CT_UINT_32
               : c->ann == DW_DATE   ? PQT_CT_DATE
               : c->ann == DW_TIME ? conv_time[c->unit]
               : c->ann == DW_TS   ? conv_ts[c->unit]
                                   : -1;
    pqb_begin(w);
    pqb_i32(w, 1, c->ptype);
    pqb_i32(w, 3, rep);
    pqb_str(w, 4, c->name);
    if (conv >= 0) pqb_i32(w, 6, conv);
    /* legacy writers give the converted type alone */
    if (c->ann != DW_NONE && (conv < 0 || dw_pct(80))) {
        pqb_struct(w, 10);
        int id = c->ann == DW_STRING   ? 1
                 : c->ann == DW_DATE   ? 6
                 : c->ann == DW_TIME   ? 7
                 : c->ann == DW_UINT32 ? 10
                                       : 8;
        pqb_struct(w, id);
        if (c->ann == DW_UINT32) { /* IntType: bitWidth 32, isSigned false */
            pqb_i8(w, 1, 32);
            pqb_bool(w, 2, false);
        }
        if (c->ann == DW_TIME || c->ann == DW_TS) {
            pqb_bool(w, 1, dw_pct(50));
            pqb_struct(w, 2);
            pqb_struct(w, c->unit + 1);
            pqb_end(w);
            pqb_end(w);
        }
        pqb_end(w);
        pqb_end(w);
    }
    pqb_end(w);
}

static void footer(pqb *w, const dw_col *cols, int ncols, const int64_t *rg_rows, int nrg,
                   chunk *ch)
{
    size_t start = w->n;
    int ntop = 0, nschema = 1;
    for (int c = 0; c < ncols; c++) {
        int newgroup = cols[c].group && (c == 0 || !cols[c - 1].group ||
                                         strcmp(cols[c - 1].group, cols[c].group) != 0);
        ntop += !cols[c].group || newgroup;
        nschema += 1 + newgroup + 2 * (cols[c].list != 0);
    }
    int64_t nrows = 0;
    for (int g = 0; g < nrg; g++) nrows += rg_rows[g];
    w->depth = 0;
    pqb_begin(w);
    pqb_i32(w, 1, dw_pct(50) ? 1 : 2);
    pqb_list(w, 2, PQT_TT_STRUCT, nschema);
    pqb_begin(w);
    pqb_str(w, 4, "schema");
    pqb_i32(w, 5, ntop);
    pqb_end(w);
    for (int c = 0; c < ncols; c++) {
        const dw_col *k = &cols[c];
        if (k->group && (c == 0 || !cols[c - 1].group || strcmp(cols[c - 1].group, k->group))) {
            int nk = 0;
            while (c + nk < ncols && cols[c + nk].group && !strcmp(cols[c + nk].group, k->group))
                nk++;
            pqb_begin(w);
            pqb_i32(w, 3, PQT_REP_OPTIONAL);
            pqb_str(w, 4, k->group);
            pqb_i32(w, 5, nk);
            pqb_end(w);
        }
        if (k->list) { /* <name> (LIST) -> repeated group list -> optional element */
            pqb_begin(w);
            pqb_i32(w, 3, PQT_REP_OPTIONAL);
            pqb_str(w, 4, k->name);
            pqb_i32(w, 5, 1);
            pqb_i32(w, 6, PQT_CT_LIST);
            pqb_struct(w, 10);
            pqb_struct(w, 3);
            pqb_end(w);
            pqb_end(w);
            pqb_end(w);
            pqb_begin(w);
            pqb_i32(w, 3, PQT_REP_REPEATED);
            pqb_str(w, 4, "list");
            pqb_i32(w, 5, 1);
            pqb_end(w);
            dw_col e = *k;
            e.name = "element";
            schema_leaf(w, &e, PQT_REP_OPTIONAL);
            continue;
        }
        schema_leaf(w, k, k->required && !k->group ? PQT_REP_REQUIRED : PQT_REP_OPTIONAL);
    }
    pqb_i64(w, 3, nrows);
    pqb_list(w, 4, PQT_TT_STRUCT, nrg);
    for (int g = 0; g < nrg; g++) {
        int64_t unc = 0, comp = 0;
        pqb_begin(w);
        pqb_list(w, 1, PQT_TT_STRUCT, ncols);
        for (int c = 0; c < ncols; c++) {
            const chunk *k = &ch[g * ncols + c];
            const dw_col *col = &cols[c];
            unc += k->tot_unc;
            comp += k->tot_comp;
            pqb_begin(w);
            pqb_i64(w, 2, k->offset);
            pqb_struct(w, 3);
            pqb_i32(w, 1, col->ptype);
            pqb_list(w, 2, PQT_TT_I32, k->nenc);
            for (int e = 0; e < k->nenc; e++) pqb_zz(w, k->encs[e]);
            pqb_list(w, 3, PQT_TT_BINARY, col->list ? 3 : col->group ? 2 : 1);
            if (col->group) pqb_bin(w, col->group);
            pqb_bin(w, col->name);
            if (col->list) {
                pqb_bin(w, "list");
                pqb_bin(w, "element");
            }
            pqb_i32(w, 4, k->codec);
            pqb_i64(w, 5, k->num_values);
            pqb_i64(w, 6, k->tot_unc);
            pqb_i64(w, 7, k->tot_comp);
            pqb_i64(w, 9, k->data_off);
            if (k->has_dict) pqb_i64(w, 11, k->dict_off);
            if (k->has_stats) {
                const dw_mm *m = &k->m;
                pqb_struct(w, 12);
                const dw_mm *lg = &k->legacy;
                if (lg->has && (k->stat_fields & 2)) {
                    pqb_binary(w, 1, lg->hi, lg->hlen);
                    pqb_binary(w, 2, lg->lo, lg->llen);
                }
                if (k->has_nc) pqb_i64(w, 3, m->nulls);
                if (m->has && (k->stat_fields & 1)) {
                    pqb_binary(w, 5, m->hi, m->hlen);
                    pqb_binary(w, 6, m->lo, m->llen);
                    if (!m->hi_exact || k->flag_exact) pqb_bool(w, 7, m->hi_exact);
                    if (!m->lo_exact || k->flag_exact) pqb_bool(w, 8, m->lo_exact);
                }
                if (k->has_nan) pqb_i64(w, 9, m->nans);
                pqb_end(w);
            }
            if (k->enc_stats) enc_stats(w, k);
            if (k->bloom_off) {
                pqb_i64(w, 14, k->bloom_off);
                if (k->bloom_off & 1) pqb_i32(w, 15, k->bloom_len); /* optional, since 2.10 */
            }
            pqb_end(w);
            if (k->oi.n) {
                pqb_i64(w, 4, k->oi_off);
                pqb_i32(w, 5, (int64_t)k->oi.n);
            }
            if (k->ci.n) {
                pqb_i64(w, 6, k->ci_off);
                pqb_i32(w, 7, (int64_t)k->ci.n);
            }
            pqb_end(w);
        }
        pqb_i64(w, 2, unc);
        pqb_i64(w, 3, rg_rows[g]);
        pqb_i64(w, 5, ch[g * ncols].offset);
        pqb_i64(w, 6, comp);
        pqb_end(w);
    }
    pqb_str(w, 6, "pqt diff_write (tests/unit/diff_write.c)");
    if (dw_pct(85)) { /* without column_orders, string bounds are legacy signed-order ones */
        pqb_list(w, 7, PQT_TT_STRUCT, ncols);
        for (int c = 0; c < ncols; c++) {
            pqb_begin(w);
            pqb_struct(w, 1);
            pqb_end(w);
            pqb_end(w);
        }
    }
    pqb_end(w);
    pqb_le32(w, (uint32_t)(w->n - start));
    pqb_bytes(w, "PAR1", 4);
}

/* A bloom filter of the chunk's present values, of a size drawn from 32 bytes (many false
 * positives) to 1 KiB, as writers that add blooms do (booleans and lists get none). */
static void write_bloom(pqb *f, const dw_col *c, chunk *k, uint64_t pick)
{
    uint32_t nbytes = 32u << (pick % 6);
    uint8_t *bits = calloc(nbytes, 1);
    for (int64_t r = k->r0; r < k->r0 + k->nrows; r++) {
        if (!dw_present(c, r)) continue;
        size_t len;
        const uint8_t *p = dw_val(c, r, &len);
        bb_insert(bits, nbytes, p, len);
    }
    pqb h = {0};
    bb_header(&h, (int32_t)nbytes, 1);
    k->bloom_off = (int64_t)f->n;
    k->bloom_len = (int64_t)(h.n + nbytes);
    pqb_bytes(f, h.b, h.n);
    pqb_bytes(f, bits, nbytes);
    pqb_free(&h);
    free(bits);
}

bool dw_write(const char *path, const dw_col *cols, int ncols, const int64_t *rg_rows, int nrg,
              int page_index, uint64_t *rng, dw_info *info)
{
    dw_rng = rng;
    pqb f = {0};
    pqb_bytes(&f, "PAR1", 4);
    chunk *ch = calloc((size_t)nrg * (size_t)ncols, sizeof *ch);
    int64_t r0 = 0;
    for (int g = 0; g < nrg; g++) {
        for (int c = 0; c < ncols; c++)
            write_chunk(&f, &cols[c], r0, rg_rows[g], page_index, &ch[g * ncols + c], info);
        r0 += rg_rows[g];
    }
    /* the page index sits between the last row group and the footer: column indexes first */
    for (int i = 0; i < nrg * ncols; i++)
        if (ch[i].ci.n) {
            ch[i].ci_off = (int64_t)f.n;
            pqb_bytes(&f, ch[i].ci.b, ch[i].ci.n);
        }
    for (int i = 0; i < nrg * ncols; i++)
        if (ch[i].oi.n) {
            ch[i].oi_off = (int64_t)f.n;
            pqb_bytes(&f, ch[i].oi.b, ch[i].oi.n);
        }
    /* Bloom filters on about half the chunks. Drawn from a stream of their own, so the
     * choices above stay those the seed always made. */
    uint64_t pick = *rng ^ 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < nrg * ncols; i++) {
        pick = pick * 6364136223846793005ull + 1442695040888963407ull;
        const dw_col *c = &cols[i % ncols];
        if (c->list || c->ptype == PQT_PT_BOOLEAN || (pick >> 63)) continue;
        write_bloom(&f, c, &ch[i], pick >> 40);
        info->bloom_chunks++;
    }
    footer(&f, cols, ncols, rg_rows, nrg, ch);
    bool ok = pqb_write_file(&f, path);
    for (int i = 0; i < nrg * ncols; i++) {
        pqb_free(&ch[i].ci);
        pqb_free(&ch[i].oi);
    }
    free(ch);
    pqb_free(&f);
    return ok;
}
