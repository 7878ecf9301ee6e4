/* SPDX-License-Identifier: Apache-2.0 */
/*
 * torture_write.c - see torture_write.h. Thrift comes from pqbuild.c.
 */
#include "torture_write.h"

#include <stdlib.h>
#include <string.h>

#include "format/meta.h"
#include "format/thrift.h"
#include "bloom_build.h"
#include "pqbuild.h"

static size_t width(const tw_file *f)
{
    switch (f->ptype) {
    case PQT_PT_INT32:
    case PQT_PT_FLOAT:
        return 4;
    case PQT_PT_INT64:
    case PQT_PT_DOUBLE:
        return 8;
    case PQT_PT_INT96:
        return 12;
    case PQT_PT_FIXED_LEN_BYTE_ARRAY:
        return (size_t)f->type_length;
    default:
        return 0; /* BYTE_ARRAY */
    }
}

/* an absent bound (a null page's) is written empty */
static const void *bound_bytes(tw_bound b)
{
    return b.p ? b.p : "";
}

static bool present(const tw_rg *g, int64_t r)
{
    return !g->valid || g->valid[r];
}

/* the PLAIN bytes of row r's value */
static void plain_value(pqb *w, const tw_file *f, const tw_rg *g, int64_t r)
{
    size_t wd = width(f);
    if (wd) {
        pqb_bytes(w, (const char *)g->vals + (size_t)r * wd, wd);
        return;
    }
    const char *s = ((const char *const *)g->vals)[r];
    pqb_le32(w, (uint32_t)strlen(s));
    pqb_bytes(w, s, strlen(s));
}

static bool same_value(const tw_file *f, const tw_rg *g, int64_t a, int64_t b)
{
    size_t wd = width(f);
    if (wd) return !memcmp((const char *)g->vals + a * wd, (const char *)g->vals + b * wd, wd);
    return !strcmp(((const char *const *)g->vals)[a], ((const char *const *)g->vals)[b]);
}

/* Dictionary codes of the present values of rows [0, nrows): the index of each value's first
 * occurrence among the distinct ones (code[r]); *ndist_ret distinct values, first[] their rows. */
static void dict_codes(const tw_file *f, const tw_rg *g, int64_t nrows, int64_t *code,
                       int64_t *first, int64_t *ndist_ret)
{
    int64_t nd = 0;
    for (int64_t r = 0; r < nrows; r++) {
        if (!present(g, r)) continue;
        int64_t d = 0;
        while (d < nd && !same_value(f, g, first[d], r))
            d++;
        if (d == nd) first[nd++] = r;
        code[r] = d;
    }
    *ndist_ret = nd;
}

static int bit_width(int64_t n)
{
    int bw = 0;
    while (n > ((int64_t)1 << bw))
        bw++;
    return bw;
}

/* A data page v1 of rows [r0, r1): definition levels (optional column), then the values,
 * PLAIN or as dictionary codes. */
static void data_page(pqb *out, const tw_file *f, const tw_rg *g, int64_t r0, int64_t r1,
                      bool codes, const int64_t *code, int bw)
{
    pqb body = {0};
    if (!f->required) {
        pqb lv = {0};
        for (int64_t r = r0; r < r1;) {
            int64_t e = r;
            while (e < r1 && present(g, e) == present(g, r))
                e++;
            pqb_rle_run(&lv, (uint64_t)(e - r), present(g, r) ? 1u : 0u, 1);
            r = e;
        }
        pqb_le32(&body, (uint32_t)lv.n);
        pqb_bytes(&body, lv.b, lv.n);
        pqb_free(&lv);
    }
    if (codes) {
        pqb_u8(&body, (uint8_t)bw);
        for (int64_t r = r0; r < r1; r++)
            if (present(g, r)) pqb_rle_run(&body, 1, (uint32_t)code[r], bw);
    } else {
        for (int64_t r = r0; r < r1; r++)
            if (present(g, r)) plain_value(&body, f, g, r);
    }
    pqb_page ph = {.type = PQT_PAGE_DATA,
                   .uncompressed_size = (int32_t)body.n,
                   .compressed_size = (int32_t)body.n,
                   .num_values = (int32_t)(r1 - r0),
                   .encoding = codes ? PQT_ENC_RLE_DICTIONARY : PQT_ENC_PLAIN};
    pqb hdr = {0};
    pqb_page_header(&hdr, &ph);
    pqb_bytes(out, hdr.b, hdr.n);
    pqb_bytes(out, body.b, body.n);
    pqb_free(&hdr);
    pqb_free(&body);
}

typedef struct written {
    int64_t offset, dict_offset, data_offset, nbytes;
    int64_t oi_offset, ci_offset;
    int32_t oi_nbytes, ci_nbytes;
    int ndata_dict, ndata_plain;
    pqb oi, ci;
    int64_t bloom_offset;
    int32_t bloom_total; /* header + bitset */
} written;

static void write_chunk(pqb *out, const tw_file *f, const tw_rg *g, written *wr)
{
    wr->offset = (int64_t)out->n;
    int64_t *code = calloc((size_t)g->nrows + 1, sizeof *code);
    int64_t *first = calloc((size_t)g->nrows + 1, sizeof *first);
    int64_t nd = 0;
    int bw = 0;
    if (g->dict != TW_DICT_NONE) {
        /* a writer falls back to PLAIN when its dictionary fills up: the dictionary holds
         * the values of the dictionary-encoded pages only */
        int64_t coded = g->nrows;
        if (g->dict == TW_DICT_FALLBACK)
            coded = g->npages > 0 ? g->nrows - g->pages[g->npages - 1].nrows : 0;
        dict_codes(f, g, coded, code, first, &nd);
        bw = bit_width(nd) ? bit_width(nd) : 1;
        pqb body = {0}, hdr = {0};
        for (int64_t d = 0; d < nd; d++)
            plain_value(&body, f, g, first[d]);
        pqb_page ph = {.type = PQT_PAGE_DICTIONARY,
                       .uncompressed_size = g->dict_claim_nbytes ? g->dict_claim_nbytes
                                                                 : (int32_t)body.n,
                       .compressed_size = (int32_t)body.n,
                       .num_values = g->dict_claim_nvalues ? g->dict_claim_nvalues
                                                           : (int32_t)nd};
        pqb_page_header(&hdr, &ph);
        wr->dict_offset = (int64_t)out->n;
        pqb_bytes(out, hdr.b, hdr.n);
        pqb_bytes(out, body.b, body.n);
        pqb_free(&hdr);
        pqb_free(&body);
    }
    wr->data_offset = (int64_t)out->n;
    int np = g->npages > 0 ? g->npages : 1;
    int64_t offs[8], firsts[8];
    int32_t lens[8];
    int64_t r0 = 0;
    for (int p = 0; p < np; p++) {
        int64_t r1 = g->npages > 0 ? r0 + g->pages[p].nrows : g->nrows;
        bool codes = g->dict == TW_DICT_ALL || (g->dict == TW_DICT_FALLBACK && p < np - 1);
        offs[p] = (int64_t)out->n;
        firsts[p] = r0;
        data_page(out, f, g, r0, r1, codes, code, bw);
        lens[p] = (int32_t)((int64_t)out->n - offs[p]);
        wr->ndata_dict += codes;
        wr->ndata_plain += !codes;
        r0 = r1;
    }
    wr->nbytes = (int64_t)out->n - wr->offset;
    if (g->npages > 0) {
        pqb_offset_index(&wr->oi, np, offs, lens, firsts);
        pqb *ci = &wr->ci;
        ci->depth = 0;
        pqb_begin(ci);
        pqb_list(ci, 1, PQT_TT_TRUE, np);
        for (int p = 0; p < np; p++)
            pqb_bool_elem(ci, g->pages[p].null_page);
        pqb_list(ci, 2, PQT_TT_BINARY, np);
        for (int p = 0; p < np; p++)
            pqb_bin_n(ci, bound_bytes(g->pages[p].min), g->pages[p].min.n);
        pqb_list(ci, 3, PQT_TT_BINARY, np);
        for (int p = 0; p < np; p++)
            pqb_bin_n(ci, bound_bytes(g->pages[p].max), g->pages[p].max.n);
        pqb_i32(ci, 4, PQT_ORDER_UNORDERED);
        if (g->pages[0].nulls >= 0) {
            pqb_list(ci, 5, PQT_TT_I64, np);
            for (int p = 0; p < np; p++)
                pqb_zz(ci, g->pages[p].nulls);
        }
        pqb_end(ci);
    }
    free(code);
    free(first);
}

static void schema_leaf(pqb *w, const tw_file *f)
{
    static const int conv[] = {-1, PQT_CT_UTF8, PQT_CT_UINT_32, PQT_CT_INT_8, PQT_CT_DECIMAL, -1};
    pqb_begin(w);
    pqb_i32(w, 1, f->ptype);
    if (f->type_length > 0) pqb_i32(w, 2, f->type_length);
    pqb_i32(w, 3, f->required ? PQT_REP_REQUIRED : PQT_REP_OPTIONAL);
    pqb_str(w, 4, "x");
    if (conv[f->logical] >= 0) pqb_i32(w, 6, conv[f->logical]);
    if (f->logical == TW_L_DECIMAL92) {
        pqb_i32(w, 7, 2); /* scale */
        pqb_i32(w, 8, 9); /* precision */
    }
    if (f->logical != TW_L_NONE) {
        pqb_struct(w, 10);
        switch (f->logical) {
        case TW_L_STRING:
            pqb_struct(w, 1);
            break;
        case TW_L_DECIMAL92:
            pqb_struct(w, 5);
            pqb_i32(w, 1, 2);
            pqb_i32(w, 2, 9);
            break;
        case TW_L_FLOAT16:
            pqb_struct(w, 15);
            break;
        default: /* IntType */
            pqb_struct(w, 10);
            pqb_i8(w, 1, f->logical == TW_L_UINT32 ? 32 : 8);
            pqb_bool(w, 2, f->logical != TW_L_UINT32);
            break;
        }
        pqb_end(w);
        pqb_end(w);
    }
    pqb_end(w);
}

static void enc_stat(pqb *w, int page_type, int encoding, int count)
{
    pqb_begin(w);
    pqb_i32(w, 1, page_type);
    pqb_i32(w, 2, encoding);
    pqb_i32(w, 3, count);
    pqb_end(w);
}

static void chunk_meta(pqb *w, const tw_file *f, const tw_rg *g, const written *wr)
{
    pqb_begin(w);
    pqb_i64(w, 2, wr->offset);
    pqb_struct(w, 3);
    pqb_i32(w, 1, f->ptype);
    int nenc = 2 + (g->dict != TW_DICT_NONE) + (g->dict == TW_DICT_FALLBACK);
    pqb_list(w, 2, PQT_TT_I32, nenc);
    pqb_zz(w, PQT_ENC_RLE);
    if (g->dict != TW_DICT_NONE) pqb_zz(w, PQT_ENC_RLE_DICTIONARY);
    if (g->dict != TW_DICT_ALL) pqb_zz(w, PQT_ENC_PLAIN);
    if (g->dict != TW_DICT_NONE) pqb_zz(w, PQT_ENC_PLAIN); /* the dictionary page's */
    pqb_list(w, 3, PQT_TT_BINARY, 1);
    pqb_bin(w, "x");
    pqb_i32(w, 4, 0); /* UNCOMPRESSED */
    pqb_i64(w, 5, g->nrows);
    pqb_i64(w, 6, g->claim_total_nbytes ? g->claim_total_nbytes : wr->nbytes);
    pqb_i64(w, 7, wr->nbytes);
    pqb_i64(w, 9, wr->data_offset);
    if (g->dict != TW_DICT_NONE) pqb_i64(w, 11, wr->dict_offset);
    const tw_stats *s = &g->st;
    if (s->present) {
        pqb_struct(w, 12);
        if (s->legacy) {
            if (s->max.p) pqb_binary(w, 1, s->max.p, s->max.n);
            if (s->min.p) pqb_binary(w, 2, s->min.p, s->min.n);
        }
        if (s->nulls >= 0) pqb_i64(w, 3, s->nulls);
        if (!s->legacy) {
            if (s->max.p) pqb_binary(w, 5, s->max.p, s->max.n);
            if (s->min.p) pqb_binary(w, 6, s->min.p, s->min.n);
            if (s->max_exact >= 0) pqb_bool(w, 7, s->max_exact);
            if (s->min_exact >= 0) pqb_bool(w, 8, s->min_exact);
        }
        if (s->nans >= 0) pqb_i64(w, 9, s->nans);
        pqb_end(w);
    }
    if (g->enc_stats) {
        int n = 1 + (g->dict != TW_DICT_NONE) + (g->dict == TW_DICT_FALLBACK);
        pqb_list(w, 13, PQT_TT_STRUCT, n);
        if (g->dict != TW_DICT_NONE) {
            enc_stat(w, PQT_PAGE_DICTIONARY, PQT_ENC_PLAIN, 1);
            enc_stat(w, PQT_PAGE_DATA, PQT_ENC_RLE_DICTIONARY, wr->ndata_dict);
        }
        if (wr->ndata_plain) enc_stat(w, PQT_PAGE_DATA, PQT_ENC_PLAIN, wr->ndata_plain);
    }
    if (g->bloom_nbytes > 0) {
        pqb_i64(w, 14, g->bloom_flaw == TW_BLOOM_PAST_EOF ? wr->bloom_offset + (1 << 20)
                                                          : wr->bloom_offset);
        if (g->bloom_length || g->bloom_flaw == TW_BLOOM_SHORT_LEN)
            pqb_i32(w, 15, g->bloom_flaw == TW_BLOOM_SHORT_LEN ? wr->bloom_total - 1
                                                               : wr->bloom_total);
    }
    pqb_end(w);
    if (wr->oi_nbytes) {
        pqb_i64(w, 4, wr->oi_offset);
        pqb_i32(w, 5, wr->oi_nbytes);
        pqb_i64(w, 6, wr->ci_offset);
        pqb_i32(w, 7, wr->ci_nbytes);
    }
    pqb_end(w);
}

static void footer(pqb *w, const tw_file *f, const written *wr)
{
    size_t start = w->n;
    int64_t nrows = 0;
    for (int g = 0; g < f->nrg; g++)
        nrows += f->rgs[g].nrows;
    w->depth = 0;
    pqb_begin(w);
    pqb_i32(w, 1, 2);
    pqb_list(w, 2, PQT_TT_STRUCT, 2);
    pqb_begin(w);
    pqb_str(w, 4, "schema");
    pqb_i32(w, 5, 1);
    pqb_end(w);
    schema_leaf(w, f);
    pqb_i64(w, 3, nrows);
    pqb_list(w, 4, PQT_TT_STRUCT, f->nrg);
    for (int g = 0; g < f->nrg; g++) {
        pqb_begin(w);
        pqb_list(w, 1, PQT_TT_STRUCT, 1);
        chunk_meta(w, f, &f->rgs[g], &wr[g]);
        pqb_i64(w, 2, wr[g].nbytes);
        pqb_i64(w, 3, f->rgs[g].nrows);
        pqb_end(w);
    }
    pqb_str(w, 6, "pqt torture_write (tests/unit/torture_write.c)");
    if (f->column_orders) {
        pqb_list(w, 7, PQT_TT_STRUCT, 1);
        pqb_begin(w);
        pqb_struct(w, 1);
        pqb_end(w);
        pqb_end(w);
    }
    pqb_end(w);
    pqb_le32(w, (uint32_t)(w->n - start));
    pqb_bytes(w, "PAR1", 4);
}

static void write_bloom(pqb *out, const tw_file *f, const tw_rg *g, written *wr)
{
    uint32_t nbytes = (uint32_t)g->bloom_nbytes;
    uint8_t *bits = calloc(nbytes, 1);
    size_t wd = width(f);
    for (int64_t r = 0; r < g->nrows; r++) {
        if (!present(g, r)) continue;
        const char *s = wd ? NULL : ((const char *const *)g->vals)[r];
        const void *p = wd ? (const char *)g->vals + (size_t)r * wd : (const void *)s;
        bb_insert(bits, nbytes, p, wd ? wd : strlen(s));
    }
    pqb h = {0};
    if (g->bloom_flaw == TW_BLOOM_GARBAGE) {
        pqb_bytes(&h, "\xff\xff\xff\xff\xff\xff\xff\xff", 8);
    } else {
        int32_t claim = g->bloom_flaw == TW_BLOOM_HUGE       ? (int32_t)1 << 30
                        : g->bloom_flaw == TW_BLOOM_NOT_POW2 ? (int32_t)nbytes - 32
                                                             : (int32_t)nbytes;
        bb_header(&h, claim, g->bloom_flaw == TW_BLOOM_ALGORITHM ? 2 : 1);
    }
    wr->bloom_offset = (int64_t)out->n;
    wr->bloom_total = (int32_t)(h.n + nbytes);
    pqb_bytes(out, h.b, h.n);
    pqb_bytes(out, bits, nbytes);
    pqb_free(&h);
    free(bits);
}

bool tw_write(const char *path, const tw_file *f)
{
    pqb out = {0};
    pqb_bytes(&out, "PAR1", 4);
    written *wr = calloc((size_t)f->nrg, sizeof *wr);
    for (int g = 0; g < f->nrg; g++)
        write_chunk(&out, f, &f->rgs[g], &wr[g]);
    for (int g = 0; g < f->nrg; g++) /* the page index after the data, as writers put it */
        if (wr[g].ci.n) {
            wr[g].ci_offset = (int64_t)out.n;
            wr[g].ci_nbytes = (int32_t)wr[g].ci.n;
            pqb_bytes(&out, wr[g].ci.b, wr[g].ci.n);
            wr[g].oi_offset = (int64_t)out.n;
            wr[g].oi_nbytes = (int32_t)wr[g].oi.n;
            pqb_bytes(&out, wr[g].oi.b, wr[g].oi.n);
        }
    for (int g = 0; g < f->nrg; g++)
        if (f->rgs[g].bloom_nbytes > 0) write_bloom(&out, f, &f->rgs[g], &wr[g]);
    footer(&out, f, wr);
    bool ok = pqb_write_file(&out, path);
    for (int g = 0; g < f->nrg; g++) {
        pqb_free(&wr[g].oi);
        pqb_free(&wr[g].ci);
    }
    free(wr);
    pqb_free(&out);
    return ok;
}
