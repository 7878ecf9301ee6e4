/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dict_sample.c - whether a chunk's first page is worth a dictionary trial, from a sample
 * (layer: write; enc.h).
 *
 * The writer gives a chunk up to PLAIN when its first page is nearly all distinct values
 * (write_chunk.c). Finding that out by building the page's dictionary costs a hash table of
 * every value: for a column of doubles, megabytes of memory fresh from the kernel per
 * column, only to be thrown away. A sample answers first: SAMPLE values at random positions
 * (a fixed sequence, so files stay reproducible). Among k distinct values in n, the sample
 * shows about SAMPLE^2 / 2 * (1/k - 1/n) pairs of equal values at two positions: none is
 * likely only when k is close to n (for k = n/2 the chance is about 1e-7; duplicates next to
 * each other count like any others, since the positions are not spread evenly), so a
 * sample without such a pair skips a trial the full count would almost surely give up on.
 * A sample with one leaves the decision to the full count, as before.
 */
#include <stdbool.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "write/enc.h"

enum { SAMPLE = 2048, TABLE = 4096 /* a power of two, at least 2 * SAMPLE */ };

bool pqt_dict_sample_distinct(const uint8_t *values, const int64_t *offsets, size_t width,
                              size_t n)
{
    if (n < 4 * (size_t)SAMPLE) return false; /* a small page: the full count is cheap */
    struct {
        uint64_t hash;
        size_t pos; /* + 1; 0: empty */
    } slot[TABLE];
    memset(slot, 0, sizeof slot);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < SAMPLE; i++) {
        /* splitmix64 */
        uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        size_t pos = (size_t)(z % n);
        uint64_t h = offsets ? XXH3_64bits(values + offsets[pos],
                                           (size_t)(offsets[pos + 1] - offsets[pos]))
                             : XXH3_64bits(values + pos * width, width);
        size_t s = (size_t)h & (TABLE - 1);
        for (; slot[s].pos; s = (s + 1) & (TABLE - 1))
            if (slot[s].hash == h && slot[s].pos != pos + 1) return false; /* a repeat */
        slot[s].hash = h;
        slot[s].pos = pos + 1;
    }
    return true;
}
