/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_bloom.c - bloom filters refute == and in (layer: scan; docs/pruning.md).
 *
 * A bloom filter holds the xxhash64 of each value's PLAIN bytes in the physical type, so a
 * literal is hashed as the file stores it: an INT8 or UINT_32 column's value as its int32
 * bytes, a float32 column's literal rounded to float32, a string's bytes without a length.
 * -0.0 and +0.0 are equal but hash apart: a zero probes both. A literal the column cannot
 * store cannot be present; a column whose stored form is not the value's (decimal, INT96,
 * half float, UUID, booleans) is not probed.
 */
#include <stdint.h>
#include <string.h>
#include <xxhash.h>

#include "scan/scan.h"
#include "util/error.h"
#include "util/mem.h"

typedef struct probe_ctx {
    const pqt_col *col;
    int ptype;
    uint64_t *hashes;
    int64_t n, cap;
    bool unusable; /* a value not hashed as the file would: prove nothing */
    bool nomem;
} probe_ctx;

static bool add_hash(probe_ctx *c, const void *p, size_t n)
{
    if (c->n == c->cap) {
        int64_t cap = c->cap ? 2 * c->cap : 16;
        uint64_t *h = pqt_realloc(c->hashes, (size_t)cap * sizeof *h);
        if (!h) return c->nomem = true;
        c->hashes = h, c->cap = cap;
    }
    c->hashes[c->n++] = XXH64(p, n, 0);
    return false;
}

static bool add_le(probe_ctx *c, uint64_t x, int nbytes)
{
    uint8_t b[8];
    for (int i = 0; i < nbytes; i++) b[i] = (uint8_t)(x >> (8 * i));
    return add_hash(c, b, (size_t)nbytes);
}

static bool add_float(probe_ctx *c, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if (f == 0 && add_le(c, u ^ 0x80000000u, 4)) return true; /* the other zero */
    return add_le(c, u, 4);
}

static bool add_double(probe_ctx *c, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    if (d == 0 && add_le(c, u ^ 0x8000000000000000ull, 8)) return true;
    return add_le(c, u, 8);
}

/* pqt_scan_probe_fn: hash one value as stored; true stops (unusable or out of memory) */
static bool collect(void *user, const pqt_scan_probe_val *v)
{
    probe_ctx *c = user;
    pqt_conv conv = c->col->conv;
    bool integral = v->kind == PQT_INT32 || v->kind == PQT_INT64 || v->kind == PQT_DATE ||
                    v->kind == PQT_TIME || v->kind == PQT_TIMESTAMP || v->kind == PQT_UINT64;
    switch (c->ptype) {
    case PQT_PT_INT32: {
        int64_t lo = INT32_MIN, hi = INT32_MAX;
        if (conv == PQT_CONV_I32_TO_I64 || conv == PQT_CONV_U32_WIDEN) lo = 0, hi = UINT32_MAX;
        else if (conv != PQT_CONV_NONE && conv != PQT_CONV_TIME_MS) break;
        if (!integral) break;
        if (v->i < lo || v->i > hi) return false; /* cannot be stored, cannot be present */
        return add_le(c, (uint32_t)v->i, 4);
    }
    case PQT_PT_INT64:
        if (conv != PQT_CONV_NONE || !integral) break;
        return add_le(c, (uint64_t)v->i, 8);
    case PQT_PT_FLOAT:
        if (conv != PQT_CONV_NONE || v->kind != PQT_FLOAT32) break;
        return add_float(c, v->f);
    case PQT_PT_DOUBLE:
        if (conv != PQT_CONV_NONE || v->kind != PQT_FLOAT64) break;
        return add_double(c, v->d);
    case PQT_PT_BYTE_ARRAY:
        if (conv != PQT_CONV_NONE || v->kind != PQT_STRING) break;
        return add_hash(c, v->s, (size_t)v->slen);
    default: break;
    }
    return c->unusable = true;
}

pqt_status pqt_scan_bloom_prove(const pqt_scan_pass *ps, int rg, int k, pqt_tri *ret,
                                int *read_ret)
{
    *ret = PQT_TRI_SOME;
    if (pqt_scan_conj_ncols(ps->prog, k) != 1 || pqt_scan_conj_is_callback(ps->prog, k))
        return PQT_OK;
    const pqt_col *col = ps->slot_col[pqt_scan_conj_cols(ps->prog, k)[0]];
    if (!col || col->is_list) return PQT_OK;
    const pqt_file_meta *meta = ps->src->meta;
    if (!meta->row_groups[rg].columns[col->chunk_col].meta.has_bloom_filter_offset)
        return PQT_OK;
    probe_ctx c = {.col = col, .ptype = meta->schema[col->leaf_schema_idx].type};
    int probed = pqt_scan_conj_probe(ps->prog, k, collect, &c);
    pqt_status st = PQT_OK;
    if (c.nomem) {
        st = pqt_err(PQT_NOMEM, "out of memory probing the bloom filter of '%s'", col->path);
    } else if (probed == 0 && !c.unusable && c.n > 0) {
        bool absent, read;
        st = pqt_chunk_bloom_absent(ps->src, rg, col, c.hashes, c.n, &absent, &read);
        if (st == PQT_OK) {
            *read_ret += read;
            if (absent) *ret = PQT_TRI_NONE;
        }
    }
    pqt_mem_free(c.hashes);
    return st;
}
