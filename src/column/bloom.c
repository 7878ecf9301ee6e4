/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bloom.c - a column chunk's split-block bloom filter, read and probed (layer: column).
 *
 * parquet-format BloomFilter.md: a BloomFilterHeader, then num_bytes of 32-byte blocks of
 * eight 32-bit words; a value's xxhash64 picks a block by its top 32 bits and one bit per
 * word by its low 32 bits times a salt. A filter is a hint: one that is absent, malformed,
 * in an algorithm, hash or compression we do not know, or larger than its place in the file
 * is not used. Only I/O and memory failures are errors.
 */
#include <string.h>

#include "column/column_int.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"

enum { BLOOM_MIN_BYTES = 32, BLOOM_MAX_BYTES = 128 << 20, BLOOM_HEADER_MAX = 64 };
/* Up to this many values, each reads its own block; beyond, the whole bitset is read once. */
enum { BLOOM_PROBE_BLOCKS = 64 };

static bool block_has(const uint8_t *block, uint32_t key)
{
    static const uint32_t salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                     0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
    for (int i = 0; i < 8; i++) {
        uint32_t word = (uint32_t)block[4 * i] | (uint32_t)block[4 * i + 1] << 8 |
                        (uint32_t)block[4 * i + 2] << 16 | (uint32_t)block[4 * i + 3] << 24;
        if (!(word >> ((key * salt[i]) >> 27) & 1u)) return false;
    }
    return true;
}

static bool none_present(const uint8_t *bits, uint32_t nbytes, const uint64_t *hashes, int64_t n)
{
    uint64_t nblocks = nbytes / 32;
    for (int64_t i = 0; i < n; i++) {
        uint64_t b = ((hashes[i] >> 32) * nblocks) >> 32;
        if (block_has(bits + 32 * b, (uint32_t)hashes[i])) return false;
    }
    return true;
}

/* The header at off: its size and bitset length, or *ok false. */
static pqt_status read_header(const pqt_chunk_src *src, int64_t off, int64_t avail,
                              size_t *hdr_ret, int32_t *nbytes_ret, bool *ok)
{
    *ok = false;
    size_t len = (size_t)(avail < BLOOM_HEADER_MAX ? avail : BLOOM_HEADER_MAX);
    uint8_t bytes[BLOOM_HEADER_MAX];
    pqt_status st = pqt_io_read(src->io, bytes, len, off);
    if (st == PQT_OK) {
        pqt_bloom_header h;
        pqt_err_mute(); /* a malformed filter is not an error of the read */
        pqt_status dst = pqt_meta_decode_bloom_header(bytes, len, off, &h, hdr_ret);
        pqt_err_unmute();
        *ok = dst == PQT_OK && h.algorithm_id == 1 && h.hash_id == 1 && h.compression_id == 1 &&
              h.num_bytes >= BLOOM_MIN_BYTES && h.num_bytes <= BLOOM_MAX_BYTES &&
              (h.num_bytes & (h.num_bytes - 1)) == 0 &&
              (int64_t)*hdr_ret + h.num_bytes <= avail;
        *nbytes_ret = h.num_bytes;
    }
    return st;
}

static pqt_status bloom_absent_in(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                  const uint64_t *hashes, int64_t n, bool *absent_ret,
                                  bool *read_ret)
{
    *absent_ret = *read_ret = false;
    const pqt_column_meta *cm = &src->meta->row_groups[rg].columns[col->chunk_col].meta;
    if (!cm->has_bloom_filter_offset) return PQT_OK;
    int64_t off = cm->bloom_filter_offset, end = src->file_size - 8; /* before the footer */
    if (off < 4 || off >= end) return PQT_OK;
    int64_t avail = end - off;
    if (cm->has_bloom_filter_length) {
        if (cm->bloom_filter_length <= 0 || cm->bloom_filter_length > avail) return PQT_OK;
        avail = cm->bloom_filter_length;
    }
    size_t hdr = 0;
    int32_t nbytes = 0;
    bool ok;
    PQT_TRY(read_header(src, off, avail, &hdr, &nbytes, &ok));
    if (!ok) return PQT_OK;
    /* Own buffers, not the source's pool: a pooled buffer sized for a 32-byte block would
     * come back to the chunk reader too small for its next column chunk. */
    pqt_status st = PQT_OK;
    int64_t base = off + (int64_t)hdr;
    if (n <= BLOOM_PROBE_BLOCKS) {
        /* a value tests one 32-byte block: read those, not a bitset of up to 128 MiB */
        bool present = false;
        uint64_t nblocks = (uint64_t)nbytes / 32;
        uint8_t block[32];
        for (int64_t i = 0; i < n && !present && st == PQT_OK; i++) {
            uint64_t blk = ((hashes[i] >> 32) * nblocks) >> 32;
            st = pqt_io_read(src->io, block, sizeof block, base + 32 * (int64_t)blk);
            if (st == PQT_OK) present = block_has(block, (uint32_t)hashes[i]);
        }
        if (st == PQT_OK) {
            *read_ret = true;
            *absent_ret = !present;
        }
        return st;
    }
    uint8_t *bits = pqt_malloc((size_t)nbytes);
    if (!bits) return pqt_err(PQT_NOMEM, "out of memory reading a bloom filter of %d bytes",
                              (int)nbytes);
    st = pqt_io_read(src->io, bits, (size_t)nbytes, base);
    if (st == PQT_OK) {
        *read_ret = true;
        *absent_ret = none_present(bits, (uint32_t)nbytes, hashes, n);
    }
    pqt_mem_free(bits);
    return st;
}

pqt_status pqt_chunk_bloom_absent(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                  const uint64_t *hashes, int64_t n, bool *absent_ret,
                                  bool *read_ret)
{
    if (!src->members || src->member >= 0) return bloom_absent_in(src, rg, col, hashes, n, absent_ret, read_ret);
    pqt_chunk_src one;
    PQT_TRY(pqt_chunk_src_at(src, rg, &one));
    pqt_status st = bloom_absent_in(&one, rg, col, hashes, n, absent_ret, read_ret);
    pqt_chunk_src_done(&one);
    return st;
}
