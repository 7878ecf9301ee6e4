/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bloom_build.h - split-block bloom filters as writers make them (tests only), per
 * parquet-format BloomFilter.md: xxhash64 (seed 0) of a value's PLAIN bytes (a string's
 * without its length), a block chosen by the hash's top 32 bits, one bit per 32-bit word by
 * the low 32 bits times that word's salt.
 */
#ifndef PQT_TEST_BLOOM_BUILD_H
#define PQT_TEST_BLOOM_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "pqbuild.h"

/* Add the value of n bytes at p to the bitset of nbytes (a multiple of 32). */
void bb_insert(uint8_t *bits, uint32_t nbytes, const void *p, size_t n);
/* A BloomFilterHeader claiming num_bytes; algorithm_field 1 is SPLIT_BLOCK (another number
 * writes an algorithm no reader knows). Hash XXHASH, compression UNCOMPRESSED. */
void bb_header(pqb *w, int32_t num_bytes, int algorithm_field);

#endif
