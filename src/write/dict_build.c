/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dict_build.c - the dictionary of a column chunk being written (layer: write).
 *
 * parquet-format Encodings.md "Dictionary Encoding (PLAIN_DICTIONARY = 2 and
 * RLE_DICTIONARY = 8)": distinct values in order of first appearance, the dictionary page
 * their PLAIN encoding, data pages their indices. An open-addressing table (linear probing,
 * load at most 1/2) of entry numbers + 1 over the entries' stored bytes and 32-bit hashes;
 * each value is hashed once, and the loops are specialised by value width (4, 8, FLBA,
 * BYTE_ARRAY) so the hot path has no call through a pointer. A batch that would take the
 * dictionary past its byte limit is undone (entries, bytes and slots), so the caller can
 * switch that batch and the rest of the chunk to PLAIN.
 */
#include <string.h>
/* header-only: the hash inlines into the loops that call it */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "format/meta.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"
#include "write/enc.h"

enum { MIN_SLOTS = 256 };
#define MAX_ENTRIES ((uint32_t)INT32_MAX)

struct pqt_dict_builder {
    int ptype;
    size_t width; /* bytes per fixed-size value; 0 for BYTE_ARRAY */
    size_t max_bytes;
    uint32_t count;
    size_t plain_nbytes;
    uint32_t *slots;  /* entry + 1, 0 = empty */
    size_t mask;      /* slots - 1 (a power of two) */
    uint32_t *hashes; /* per entry */
    size_t hashes_cap;
    pqt_buf values;   /* fixed: count * width bytes; BYTE_ARRAY: the entries' bytes */
    int64_t *offsets; /* BYTE_ARRAY: count + 1 offsets into values */
    size_t offsets_cap;
};

/* ---- hashing ---- */

static inline uint32_t hash_u64(uint64_t x)
{
    x ^= x >> 32; /* doubles differ in their high bits: fold them down first */
    x *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(x >> 32);
}

static inline uint32_t hash_bytes(const void *p, size_t n)
{
    return (uint32_t)XXH3_64bits(p, n);
}

/* ---- lifetime ---- */

pqt_status pqt_dict_builder_new(pqt_dict_builder **ret, int physical_type, int type_length,
                                size_t max_dict_bytes)
{
    size_t width;
    switch (physical_type) {
    case PQT_PT_INT32:
    case PQT_PT_FLOAT:
        width = 4;
        break;
    case PQT_PT_INT64:
    case PQT_PT_DOUBLE:
        width = 8;
        break;
    case PQT_PT_BYTE_ARRAY:
        width = 0;
        break;
    case PQT_PT_FIXED_LEN_BYTE_ARRAY:
        if (type_length <= 0)
            return pqt_err(PQT_MISUSE,
                           "dictionary of FIXED_LEN_BYTE_ARRAY needs a type length "
                           "above 0, not %d",
                           type_length);
        width = (size_t)type_length;
        break;
    default:
        return pqt_err(PQT_MISUSE,
                       "no dictionary for physical type %d (BOOLEAN and INT96 "
                       "are not dictionary encoded)",
                       physical_type);
    }
    pqt_dict_builder *b = pqt_calloc(1, sizeof *b);
    uint32_t *slots = pqt_calloc(MIN_SLOTS, sizeof *slots);
    if (!b || !slots) {
        pqt_mem_free(b);
        pqt_mem_free(slots);
        return pqt_err(PQT_NOMEM, "out of memory creating a dictionary builder");
    }
    b->ptype = physical_type;
    b->width = width;
    b->max_bytes = max_dict_bytes;
    b->slots = slots;
    b->mask = MIN_SLOTS - 1;
    /* never NULL, so an empty first entry still has an address */
    if (pqt_buf_reserve(&b->values, 256) != PQT_OK) {
        pqt_dict_builder_free(b);
        return pqt_err(PQT_NOMEM, "out of memory creating a dictionary builder");
    }
    *ret = b;
    return PQT_OK;
}

void pqt_dict_builder_free(pqt_dict_builder *b)
{
    if (!b) return;
    pqt_mem_free(b->slots);
    pqt_mem_free(b->hashes);
    pqt_mem_free(b->offsets);
    pqt_buf_free(&b->values);
    pqt_mem_free(b);
}

void pqt_dict_builder_reset(pqt_dict_builder *b)
{
    memset(b->slots, 0, (b->mask + 1) * sizeof *b->slots);
    b->count = 0;
    b->plain_nbytes = 0;
    b->values.len = 0;
}

uint32_t pqt_dict_builder_count(const pqt_dict_builder *b)
{
    return b->count;
}

size_t pqt_dict_builder_value_nbytes(const pqt_dict_builder *b)
{
    return b->width;
}

size_t pqt_dict_builder_plain_nbytes(const pqt_dict_builder *b)
{
    return b->plain_nbytes;
}

void pqt_dict_builder_entries(const pqt_dict_builder *b, const uint8_t **data_ret,
                              const int64_t **offsets_ret)
{
    static const int64_t no_entries = 0;
    *data_ret = b->values.data;
    *offsets_ret = b->width ? NULL : b->offsets ? b->offsets : &no_entries;
}

pqt_status pqt_dict_builder_write_plain(const pqt_dict_builder *b, pqt_buf *out)
{
    if (b->width) return pqt_enc_plain_fixed(out, b->values.data, b->count, b->width);
    return pqt_enc_plain_bytes(out, b->offsets, b->values.data, b->count);
}

/* ---- growth and undo ---- */

/* Room for one more entry: the per-entry arrays, and slots kept at most half full. */
static pqt_status make_room(pqt_dict_builder *b)
{
    size_t need = (size_t)b->count + 1;
    if (need > b->hashes_cap) {
        size_t cap = b->hashes_cap ? b->hashes_cap * 2 : 256;
        uint32_t *h = pqt_realloc(b->hashes, cap * sizeof *h);
        if (!h) return pqt_err(PQT_NOMEM, "out of memory growing a dictionary to %zu entries", cap);
        b->hashes = h;
        b->hashes_cap = cap;
    }
    if (!b->width && need + 1 > b->offsets_cap) {
        size_t cap = b->offsets_cap ? b->offsets_cap * 2 : 256;
        int64_t *o = pqt_realloc(b->offsets, cap * sizeof *o);
        if (!o) return pqt_err(PQT_NOMEM, "out of memory growing a dictionary to %zu entries", cap);
        if (!b->offsets) o[0] = 0;
        b->offsets = o;
        b->offsets_cap = cap;
    }
    if (need * 2 > b->mask + 1) {
        size_t nslots = (b->mask + 1) * 2;
        uint32_t *s = pqt_calloc(nslots, sizeof *s);
        if (!s)
            return pqt_err(PQT_NOMEM, "out of memory growing a dictionary table to %zu slots",
                           nslots);
        const size_t mask = nslots - 1;
        /* in entry order, so undo (latest first) stays valid after a rehash */
        for (uint32_t e = 0; e < b->count; e++) {
            size_t i = b->hashes[e] & mask;
            while (s[i])
                i = (i + 1) & mask;
            s[i] = e + 1;
        }
        pqt_mem_free(b->slots);
        b->slots = s;
        b->mask = mask;
    }
    return PQT_OK;
}

/* Remove the entries from `keep` on, latest first: a linear-probing chain through an entry
 * holds only older entries, so emptying the newest slot never cuts an older entry's chain. */
static void undo(pqt_dict_builder *b, uint32_t keep, size_t keep_plain)
{
    for (uint32_t e = b->count; e-- > keep;) {
        size_t i = b->hashes[e] & b->mask;
        while (b->slots[i] != e + 1)
            i = (i + 1) & b->mask;
        b->slots[i] = 0;
    }
    b->count = keep;
    b->plain_nbytes = keep_plain;
    b->values.len = b->width ? (size_t)keep * b->width : keep ? (size_t)b->offsets[keep] : 0;
}

static pqt_status over_limit(const pqt_dict_builder *b, size_t add)
{
    return pqt_err(PQT_LIMIT,
                   "dictionary of %u entries (%zu bytes PLAIN) would pass its limit "
                   "of %zu bytes (or 2^31 - 1 entries) with %zu more bytes",
                   b->count, b->plain_nbytes, b->max_bytes, add);
}

/* Append a new entry of len bytes (the value size for fixed-size types; a constant where
 * the caller's is), found absent at slot `slot`. Growth rehashes, and then the slot is
 * searched again. */
static inline pqt_status insert(pqt_dict_builder *b, const uint8_t *v, size_t len, uint32_t h,
                                size_t slot, uint32_t *entry_ret)
{
    const size_t add = b->width ? len : 4 + len;
    if (PQT_UNLIKELY(b->plain_nbytes + add > b->max_bytes || b->count >= MAX_ENTRIES))
        return over_limit(b, add);
    if (PQT_UNLIKELY((size_t)b->count + 2 > b->hashes_cap ||
                     ((size_t)b->count + 1) * 2 > b->mask + 1 ||
                     (!b->width && (size_t)b->count + 2 > b->offsets_cap))) {
        const size_t mask = b->mask;
        PQT_TRY(make_room(b));
        if (b->mask != mask) {
            slot = h & b->mask;
            while (b->slots[slot])
                slot = (slot + 1) & b->mask;
        }
    }
    PQT_TRY(pqt_buf_reserve_more(&b->values, len));
    if (len) memcpy(b->values.data + b->values.len, v, len);
    b->values.len += len;
    const uint32_t e = b->count++;
    b->hashes[e] = h;
    if (!b->width) b->offsets[e + 1] = (int64_t)b->values.len;
    b->plain_nbytes += add;
    b->slots[slot] = e + 1;
    *entry_ret = e;
    return PQT_OK;
}

/* ---- the hot loops ---- */

/* Fixed-width values; w is a constant 4 or 8 at the two fast call sites. */
static inline pqt_status add_fixed_w(pqt_dict_builder *b, const uint8_t *vals, size_t n,
                                     uint32_t *idx, const size_t w)
{
    uint32_t last_e = 0;
    const uint8_t *last_v = NULL;
    for (size_t k = 0; k < n; k++) {
        const uint8_t *v = vals + k * w;
        /* runs of one value are common (sorted or repeated data): skip the table */
        if (last_v && (w == 4   ? pqt_load_le32(v) == pqt_load_le32(last_v)
                       : w == 8 ? pqt_load_le64(v) == pqt_load_le64(last_v)
                                : memcmp(v, last_v, w) == 0)) {
            idx[k] = last_e;
            continue;
        }
        const uint32_t h = w == 4   ? hash_u64(pqt_load_le32(v))
                           : w == 8 ? hash_u64(pqt_load_le64(v))
                                    : hash_bytes(v, w);
        const uint8_t *base = b->values.data;
        size_t i = h & b->mask;
        uint32_t e = 0;
        for (;;) {
            const uint32_t s = b->slots[i];
            if (!s) {
                PQT_TRY(insert(b, v, w, h, i, &e));
                break;
            }
            const uint8_t *ev = base + (size_t)(s - 1) * w;
            if (w == 4   ? pqt_load_le32(ev) == pqt_load_le32(v)
                : w == 8 ? pqt_load_le64(ev) == pqt_load_le64(v)
                         : b->hashes[s - 1] == h && memcmp(ev, v, w) == 0) {
                e = s - 1;
                break;
            }
            i = (i + 1) & b->mask;
        }
        idx[k] = last_e = e;
        last_v = v;
    }
    return PQT_OK;
}

pqt_status pqt_dict_builder_add_fixed(pqt_dict_builder *b, const void *values, size_t n,
                                      uint32_t *indices_out)
{
    if (!b->width) return pqt_err(PQT_MISUSE, "BYTE_ARRAY dictionary values go through add_bytes");
    const uint32_t keep = b->count;
    const size_t keep_plain = b->plain_nbytes;
    pqt_status st;
    switch (b->width) {
    case 4:
        st = add_fixed_w(b, values, n, indices_out, 4);
        break;
    case 8:
        st = add_fixed_w(b, values, n, indices_out, 8);
        break;
    default:
        st = add_fixed_w(b, values, n, indices_out, b->width);
        break;
    }
    if (st != PQT_OK) undo(b, keep, keep_plain);
    return st;
}

static pqt_status add_bytes(pqt_dict_builder *b, const int64_t *offsets, const uint8_t *data,
                            size_t n, uint32_t *idx)
{
    for (size_t k = 0; k < n; k++) {
        const int64_t len64 = offsets[k + 1] - offsets[k];
        if (PQT_UNLIKELY(len64 < 0 || len64 > INT32_MAX))
            return pqt_err(len64 < 0 ? PQT_MISUSE : PQT_LIMIT,
                           "dictionary value %zu has length %lld (offsets must not decrease; "
                           "at most %d bytes)",
                           k, (long long)len64, INT32_MAX);
        const size_t len = (size_t)len64;
        const uint8_t *v = len ? data + offsets[k] : (const uint8_t *)"";
        if (k > 0 && len == (size_t)(offsets[k] - offsets[k - 1]) &&
            (len == 0 || memcmp(v, data + offsets[k - 1], len) == 0)) {
            idx[k] = idx[k - 1];
            continue;
        }
        const uint32_t h = hash_bytes(v, len);
        size_t i = h & b->mask;
        uint32_t e = 0;
        for (;;) {
            const uint32_t s = b->slots[i];
            if (!s) {
                PQT_TRY(insert(b, v, len, h, i, &e));
                break;
            }
            const int64_t eo = b->offsets[s - 1];
            if (b->hashes[s - 1] == h && (size_t)(b->offsets[s] - eo) == len &&
                memcmp(b->values.data + eo, v, len) == 0) {
                e = s - 1;
                break;
            }
            i = (i + 1) & b->mask;
        }
        idx[k] = e;
    }
    return PQT_OK;
}

pqt_status pqt_dict_builder_add_bytes(pqt_dict_builder *b, const int64_t *offsets,
                                      const uint8_t *data, size_t n, uint32_t *indices_out)
{
    if (b->width) {
        /* FLBA given as bytes: every value must have the type's length */
        for (size_t k = 0; k < n; k++)
            if (offsets[k + 1] - offsets[k] != (int64_t)b->width)
                return pqt_err(PQT_MISUSE,
                               "FIXED_LEN_BYTE_ARRAY(%zu) dictionary value %zu has "
                               "%lld bytes",
                               b->width, k, (long long)(offsets[k + 1] - offsets[k]));
        /* each value starts at its own offset: add one at a time through the FLBA loop */
        const uint32_t keep = b->count;
        const size_t keep_plain = b->plain_nbytes;
        for (size_t k = 0; k < n; k++) {
            pqt_status st = add_fixed_w(b, data + offsets[k], 1, indices_out + k, b->width);
            if (st != PQT_OK) {
                undo(b, keep, keep_plain);
                return st;
            }
        }
        return PQT_OK;
    }
    const uint32_t keep = b->count;
    const size_t keep_plain = b->plain_nbytes;
    pqt_status st = add_bytes(b, offsets, data, n, indices_out);
    if (st != PQT_OK) undo(b, keep, keep_plain);
    return st;
}
