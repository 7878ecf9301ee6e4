/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dict.c - dictionary pages and dictionary-coded data pages (layer: encoding).
 *
 * Implements parquet-format Encodings.md "Dictionary Encoding (PLAIN_DICTIONARY = 2 and
 * RLE_DICTIONARY = 8)": the dictionary page is PLAIN (decoded here into reusable buffers);
 * a data page is one byte of code bit width followed by RLE/bit-packed codes (rle_bp.c).
 *
 * Codes are decoded in stack batches of DICT_BATCH, the whole batch is checked against
 * the dictionary size with one branch (a max-reduction the compiler vectorizes), then a
 * per-value-size gather loop copies values straight into the caller's array. A hostile code
 * is reported, never used as an index.
 */
#include <string.h>

#include "encoding/encoding_int.h"
#include "format/meta.h"
#include "util/error.h"
#include "util/mem.h"

#define DICT_BATCH 1024

pqt_status pqt_dict_load(pqt_dict *d, int ptype, int type_len, const uint8_t *p, size_t n,
                         int64_t num_values)
{
    d->ptype = ptype;
    d->type_len = type_len;
    d->n = 0;
    d->values.len = 0;
    if (PQT_UNLIKELY(num_values < 0))
        return pqt_err(PQT_CORRUPT, "dictionary page: negative entry count %lld",
                       (long long)num_values);
    pqt_plain_dec pd;
    PQT_TRY(pqt_plain_init(&pd, ptype, type_len, p, n));
    if (ptype == PQT_PT_BYTE_ARRAY) {
        /* Every entry takes at least its 4-byte length, which bounds the allocation by the
         * page size before anything is allocated. */
        if (PQT_UNLIKELY((uint64_t)num_values > n / 4))
            return pqt_err(PQT_CORRUPT, "dictionary page: %lld BYTE_ARRAY entries cannot fit "
                                        "in %zu bytes", (long long)num_values, n);
        const size_t need = (size_t)num_values + 1;
        if (d->offsets_cap < need) {
            int64_t *o = pqt_realloc(d->offsets, need * sizeof *o);
            if (!o)
                return pqt_err(PQT_NOMEM, "out of memory for %zu dictionary offsets", need);
            d->offsets = o;
            d->offsets_cap = need;
        }
        d->offsets[0] = 0;
        pqt_ba_out out = {&d->values, d->offsets + 1};
        PQT_TRY(pqt_plain_decode_ba(&pd, num_values, &out));
    } else {
        const size_t w = pqt_ptype_nbytes(ptype, type_len);
        const uint64_t max_vals = ptype == PQT_PT_BOOLEAN ? (uint64_t)n * 8 : n / w;
        if (PQT_UNLIKELY((uint64_t)num_values > max_vals))
            return pqt_err(PQT_CORRUPT, "dictionary page: %lld entries of %zu bytes cannot "
                                        "fit in %zu bytes", (long long)num_values, w, n);
        PQT_TRY(pqt_buf_reserve(&d->values, (size_t)num_values * w));
        PQT_TRY(pqt_plain_decode(&pd, num_values, d->values.data));
        d->values.len = (size_t)num_values * w;
    }
    d->n = num_values;
    return PQT_OK;
}

void pqt_dict_free(pqt_dict *d)
{
    if (!d) return;
    pqt_buf_free(&d->values);
    pqt_mem_free(d->offsets);
    d->offsets = NULL;
    d->offsets_cap = 0;
    d->n = 0;
}

pqt_status pqt_dict_codes_init(pqt_rle_dec *r, const uint8_t *p, size_t n)
{
    /* A page without non-null values may carry no bytes at all. */
    if (n == 0) return pqt_rle_init(r, 0, p, 0);
    const int bw = p[0];
    if (PQT_UNLIKELY(bw > 32))
        return pqt_err(PQT_CORRUPT, "dictionary-coded data: code bit width %d is over 32", bw);
    return pqt_rle_init(r, bw, p + 1, n - 1);
}

/* One branch per batch; the first offending code is only searched for on failure. */
static pqt_status check_codes(const uint32_t *codes, int64_t k, int64_t dict_n)
{
    uint32_t mx = 0;
    for (int64_t i = 0; i < k; i++) mx = codes[i] > mx ? codes[i] : mx;
    if (PQT_LIKELY(k == 0 || (int64_t)mx < dict_n)) return PQT_OK;
    for (int64_t i = 0; i < k; i++)
        if ((int64_t)codes[i] >= dict_n) {
            mx = codes[i];
            break;
        }
    return pqt_err(PQT_CORRUPT, "dictionary index %u out of range (dictionary has %lld entries)",
                   mx, (long long)dict_n);
}

/* Codes are checked a block at a time, while the block is still in the first-level cache,
 * instead of in a second pass over a page's megabytes of them. */
#define CODES_BLOCK 4096

pqt_status pqt_dict_codes(pqt_rle_dec *r, const pqt_dict *dict, int64_t n, uint32_t *codes)
{
    for (int64_t i = 0; i < n; i += CODES_BLOCK) {
        int64_t k = n - i < CODES_BLOCK ? n - i : CODES_BLOCK;
        PQT_TRY(pqt_rle_get_u32(r, k, codes + i));
        PQT_TRY(check_codes(codes + i, k, dict->n));
    }
    return PQT_OK;
}

/* Gather k checked codes of fixed width W; W is a constant in each call below, so the
 * memcpys become single loads and stores. */
static inline void gather_fixed(const uint8_t *vals, const uint32_t *codes, int64_t k,
                                uint8_t *o, const size_t w)
{
    for (int64_t i = 0; i < k; i++) memcpy(o + (size_t)i * w, vals + (size_t)codes[i] * w, w);
}

static inline void fill_fixed(const uint8_t *val, int64_t k, uint8_t *o, const size_t w)
{
    for (int64_t i = 0; i < k; i++) memcpy(o + (size_t)i * w, val, w);
}

/* How many codes to take from the decoder next: an RLE run is served whole (returns 0 and
 * sets *run_ret), a bit-packed run up to its end so that the next call starts on a run. */
static inline pqt_status next_chunk(pqt_rle_dec *r, int64_t n, int64_t *k_ret, int64_t *run_ret)
{
    PQT_TRY(pqt_rle_refill(r, n));
    const int64_t buffered = r->lit_buf_len - r->lit_buf_pos;
    *run_ret = 0;
    if (buffered == 0 && r->rle_left > 0) {
        *run_ret = r->rle_left < n ? r->rle_left : n;
        *k_ret = 0;
        return PQT_OK;
    }
    int64_t k = buffered + r->lit_left;
    if (k > n) k = n;
    if (k > DICT_BATCH) k = DICT_BATCH;
    *k_ret = k;
    return PQT_OK;
}

/* An RLE run of one code: one range check, then a fill. */
static inline pqt_status take_run(pqt_rle_dec *r, const pqt_dict *dict, int64_t k,
                                  uint32_t *code_ret)
{
    const uint32_t c = r->rle_value;
    PQT_TRY(check_codes(&c, 1, dict->n));
    r->rle_left -= k;
    *code_ret = c;
    return PQT_OK;
}

pqt_status pqt_dict_decode(pqt_rle_dec *r, const pqt_dict *dict, int64_t n, void *dst)
{
    if (PQT_UNLIKELY(dict->ptype == PQT_PT_BYTE_ARRAY))
        return pqt_err(PQT_MISUSE, "dictionary data: BYTE_ARRAY needs the byte-array decode "
                                   "call");
    uint32_t codes[DICT_BATCH];
    const size_t w = pqt_ptype_nbytes(dict->ptype, dict->type_len);
    const uint8_t *vals = dict->values.data;
    uint8_t *o = dst;
    while (n > 0) {
        int64_t k, run;
        PQT_TRY(next_chunk(r, n, &k, &run));
        if (run > 0) {
            uint32_t c;
            PQT_TRY(take_run(r, dict, run, &c));
            const uint8_t *v = vals + (size_t)c * w;
            switch (w) {
            case 1: memset(o, *v, (size_t)run); break;
            case 4: fill_fixed(v, run, o, 4); break;
            case 8: fill_fixed(v, run, o, 8); break;
            case 12: fill_fixed(v, run, o, 12); break;
            default: fill_fixed(v, run, o, w); break;
            }
            o += (size_t)run * w;
            n -= run;
            continue;
        }
        PQT_TRY(pqt_rle_get_u32(r, k, codes));
        PQT_TRY(check_codes(codes, k, dict->n));
        switch (w) {
        case 1: gather_fixed(vals, codes, k, o, 1); break;
        case 4: gather_fixed(vals, codes, k, o, 4); break;
        case 8: gather_fixed(vals, codes, k, o, 8); break;
        case 12: gather_fixed(vals, codes, k, o, 12); break;
        case 16: gather_fixed(vals, codes, k, o, 16); break;
        default: gather_fixed(vals, codes, k, o, w); break;
        }
        o += (size_t)k * w;
        n -= k;
    }
    return PQT_OK;
}

pqt_status pqt_dict_decode_ba(pqt_rle_dec *r, const pqt_dict *dict, int64_t n, pqt_ba_out *out)
{
    if (PQT_UNLIKELY(dict->ptype != PQT_PT_BYTE_ARRAY))
        return pqt_err(PQT_MISUSE, "dictionary data: byte-array decode on physical type %d",
                       dict->ptype);
    uint32_t codes[DICT_BATCH];
    const int64_t *offs = dict->offsets;
    const uint8_t *vals = dict->values.data;
    int64_t *ends = out->ends;
    while (n > 0) {
        int64_t k, run;
        PQT_TRY(next_chunk(r, n, &k, &run));
        if (run > 0) {
            uint32_t c;
            PQT_TRY(take_run(r, dict, run, &c));
            const size_t l = (size_t)(offs[c + 1] - offs[c]);
            if (PQT_UNLIKELY(l && (uint64_t)run > (SIZE_MAX - 1) / l))
                return pqt_err(PQT_LIMIT, "dictionary data: %lld copies of a %zu-byte value",
                               (long long)run, l);
            /* +1: a run of empty strings into an unused buffer still needs data != NULL for
             * the pointer arithmetic below. */
            PQT_TRY(pqt_buf_reserve_more(out->bytes, (size_t)run * l + 1));
            uint8_t *b = out->bytes->data + out->bytes->len;
            size_t len = out->bytes->len;
            for (int64_t i = 0; i < run; i++) {
                if (l) memcpy(b + (size_t)i * l, vals + offs[c], l);
                len += l;
                ends[i] = (int64_t)len;
            }
            out->bytes->len = len;
            ends += run;
            n -= run;
            continue;
        }
        PQT_TRY(pqt_rle_get_u32(r, k, codes));
        PQT_TRY(check_codes(codes, k, dict->n));
        size_t total = 0;
        for (int64_t i = 0; i < k; i++) total += (size_t)(offs[codes[i] + 1] - offs[codes[i]]);
        PQT_TRY(pqt_buf_reserve_more(out->bytes, total));
        uint8_t *base = out->bytes->data;
        size_t len = out->bytes->len;
        for (int64_t i = 0; i < k; i++) {
            const size_t l = (size_t)(offs[codes[i] + 1] - offs[codes[i]]);
            if (l) memcpy(base + len, vals + offs[codes[i]], l);
            len += l;
            ends[i] = (int64_t)len;
        }
        out->bytes->len = len;
        ends += k;
        n -= k;
    }
    return PQT_OK;
}
