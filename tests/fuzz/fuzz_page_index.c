/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_page_index.c - libFuzzer target for the page index and bloom filter structures:
 * the first input byte picks ColumnIndex, OffsetIndex or BloomFilterHeader (or all three),
 * the rest is the serialized structure. Every decoded pointer is read back.
 */
#include "fuzz.h"
#include "format/meta.h"

static volatile size_t sink;

static void touch(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) sink += b[i];
}

static void column_index(const uint8_t *p, size_t n)
{
    pqt_arena arena = {0};
    pqt_column_index ci;
    if (pqt_meta_decode_column_index(p, n, 0, &arena, &ci) == PQT_OK) {
        touch(ci.null_pages, (size_t)ci.npages * sizeof *ci.null_pages);
        for (int i = 0; i < ci.npages; i++) {
            touch(ci.min_values[i], ci.min_lens[i]);
            touch(ci.max_values[i], ci.max_lens[i]);
        }
        if (ci.null_counts) touch(ci.null_counts, (size_t)ci.npages * sizeof *ci.null_counts);
    }
    pqt_arena_free(&arena);
}

static void offset_index(const uint8_t *p, size_t n)
{
    pqt_arena arena = {0};
    pqt_offset_index oi;
    if (pqt_meta_decode_offset_index(p, n, 0, &arena, &oi) == PQT_OK)
        touch(oi.pages, (size_t)oi.npages * sizeof *oi.pages);
    pqt_arena_free(&arena);
}

static void bloom_header(const uint8_t *p, size_t n)
{
    pqt_bloom_header bh;
    size_t hn = 0;
    if (pqt_meta_decode_bloom_header(p, n, 0, &bh, &hn) == PQT_OK && (hn == 0 || hn > n))
        abort(); /* the header must lie inside what the decoder was given */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    const int which = data[0] % 4;
    const uint8_t *p = data + 1;
    const size_t n = size - 1;
    if (which == 0 || which == 3) column_index(p, n);
    if (which == 1 || which == 3) offset_index(p, n);
    if (which == 2 || which == 3) bloom_header(p, n);
    return 0;
}
