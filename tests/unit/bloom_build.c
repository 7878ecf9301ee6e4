/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bloom_build.c - see bloom_build.h.
 */
#include "bloom_build.h"

#include <xxhash.h>

void bb_insert(uint8_t *bits, uint32_t nbytes, const void *p, size_t n)
{
    static const uint32_t salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                     0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
    uint64_t h = XXH64(p, n, 0);
    uint64_t block = ((h >> 32) * (nbytes / 32)) >> 32;
    for (int i = 0; i < 8; i++) {
        uint32_t bit = ((uint32_t)h * salt[i]) >> 27;
        bits[32 * block + 4 * i + bit / 8] |= (uint8_t)(1u << (bit % 8));
    }
}

void bb_header(pqb *w, int32_t num_bytes, int algorithm_field)
{
    w->depth = 0;
    pqb_begin(w);
    pqb_i32(w, 1, num_bytes);
    pqb_struct(w, 2); /* BloomFilterAlgorithm, a union */
    pqb_struct(w, algorithm_field);
    pqb_end(w);
    pqb_end(w);
    pqb_struct(w, 3); /* BloomFilterHash: XXHASH */
    pqb_struct(w, 1);
    pqb_end(w);
    pqb_end(w);
    pqb_struct(w, 4); /* BloomFilterCompression: UNCOMPRESSED */
    pqb_struct(w, 1);
    pqb_end(w);
    pqb_end(w);
    pqb_end(w);
}
