/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bloom_build.c - a column chunk's split-block bloom filter, built and written (layer: write).
 *
 * parquet-format BloomFilter.md: 32-byte blocks of eight 32-bit words; a value's xxHash64
 * (seed 0, of its PLAIN bytes) picks a block by its top 32 bits (multiplied by the block
 * count, then shifted, so any count works) and sets one bit per word, chosen by the top 5
 * bits of the low 32 bits times that word's salt. Size: the bits per value that parquet-mr
 * and Arrow compute for an ndv and fpp, m = -8 ndv / ln(1 - fpp^(1/8)), rounded up to a
 * power of two bytes between 32 B and 128 MiB (what column/bloom.c accepts). Written as a
 * BloomFilterHeader (SPLIT_BLOCK, XXHASH, UNCOMPRESSED) and the bitset, words little-endian.
 */
#include <math.h>
#include <string.h>
/* header-only: the hash inlines into the loops that call it */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "format/meta_encode.h"
#include "util/error.h"
#include "util/mem.h"
#include "write/enc.h"

enum { MIN_BYTES = 32 };
#define MAX_BYTES ((size_t)128 << 20)

struct pqt_bloom_builder {
    uint32_t *words; /* nbytes / 4, block b at words[8 * b] */
    size_t nbytes;
    uint64_t nblocks;
};

static const uint32_t salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                 0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

static size_t size_for(uint64_t ndv, double fpp)
{
    double bits = -8.0 * (double)ndv / log(1.0 - pow(fpp, 1.0 / 8.0));
    double bytes = bits / 8.0;
    size_t n = MIN_BYTES;
    while (n < MAX_BYTES && (double)n < bytes)
        n *= 2;
    return n;
}

pqt_status pqt_bloom_builder_new(pqt_bloom_builder **ret, uint64_t ndv, double fpp)
{
    if (!(fpp > 0.0 && fpp < 1.0))
        return pqt_err(PQT_MISUSE, "bloom filter false-positive rate %g is not between 0 and 1",
                       fpp);
    size_t nbytes = size_for(ndv, fpp);
    pqt_bloom_builder *b = pqt_calloc(1, sizeof *b);
    uint32_t *words = pqt_calloc(nbytes / 4, sizeof *words);
    if (!b || !words) {
        pqt_mem_free(b);
        pqt_mem_free(words);
        return pqt_err(PQT_NOMEM, "out of memory for a bloom filter of %zu bytes", nbytes);
    }
    b->words = words;
    b->nbytes = nbytes;
    b->nblocks = nbytes / 32;
    *ret = b;
    return PQT_OK;
}

void pqt_bloom_builder_free(pqt_bloom_builder *b)
{
    if (!b) return;
    pqt_mem_free(b->words);
    pqt_mem_free(b);
}

void pqt_bloom_builder_reset(pqt_bloom_builder *b)
{
    memset(b->words, 0, b->nbytes);
}

size_t pqt_bloom_builder_nbytes(const pqt_bloom_builder *b)
{
    return b->nbytes;
}

uint64_t pqt_bloom_hash(const void *plain_bytes, size_t n)
{
    return XXH64(n ? plain_bytes : "", n, 0);
}

static inline void insert_one(uint32_t *words, uint64_t nblocks, uint64_t hash)
{
    uint32_t *block = words + 8 * (((hash >> 32) * nblocks) >> 32);
    const uint32_t key = (uint32_t)hash;
    for (int i = 0; i < 8; i++)
        block[i] |= 1u << ((key * salt[i]) >> 27);
}

void pqt_bloom_builder_insert(pqt_bloom_builder *b, uint64_t hash)
{
    insert_one(b->words, b->nblocks, hash);
}

void pqt_bloom_builder_insert_many(pqt_bloom_builder *b, const uint64_t *hashes, size_t n)
{
    uint32_t *words = b->words;
    const uint64_t nblocks = b->nblocks;
    for (size_t i = 0; i < n; i++)
        insert_one(words, nblocks, hashes[i]);
}

pqt_status pqt_bloom_builder_write(const pqt_bloom_builder *b, pqt_buf *out)
{
    const size_t start = out->len;
    const pqt_bloom_header h = {
        .num_bytes = (int32_t)b->nbytes, .algorithm_id = 1, .hash_id = 1, .compression_id = 1};
    PQT_TRY(pqt_meta_encode_bloom_header(out, &h));
    pqt_status st = pqt_buf_reserve_more(out, b->nbytes);
    if (st != PQT_OK) {
        out->len = start;
        return st;
    }
    uint8_t *p = out->data + out->len;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, b->words, b->nbytes);
#else
    for (size_t i = 0; i < b->nbytes / 4; i++) {
        const uint32_t w = b->words[i];
        p[4 * i] = (uint8_t)w;
        p[4 * i + 1] = (uint8_t)(w >> 8);
        p[4 * i + 2] = (uint8_t)(w >> 16);
        p[4 * i + 3] = (uint8_t)(w >> 24);
    }
#endif
    out->len += b->nbytes;
    return PQT_OK;
}
