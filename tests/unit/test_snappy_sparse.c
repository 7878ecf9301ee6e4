/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_snappy_sparse.c - codec/snappy_sparse.c against the data libsnappy compressed: random
 * forward sequences of ranges, each filled range compared with the original bytes, over
 * data shaped like real pages (sequential int64, random doubles, long runs that become
 * overlapping copies, short text) and sizes around the 64 KiB block. A hand-made stream
 * whose copy reaches into the block before must be refused (PQT_NOT_FOUND) when that block
 * was stepped over, and decoded when it was not; truncated and garbled streams must fail
 * cleanly or decode in bounds (ASan in CI).
 */
#include <snappy-c.h>
#include <string.h>

#include "codec/snappy_sparse.h"
#include "testutil.h"

static uint64_t rng = 11;

static void make_data(int shape, uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (shape) {
        case 0: /* sequential little-endian int64, as an id column */
            d[i] = (uint8_t)(((i / 8) + 1) >> (8 * (i % 8)));
            break;
        case 1: /* random bytes: long literals */
            d[i] = (uint8_t)pqt_test_rand(&rng);
            break;
        case 2: /* runs of one byte: copies with offsets shorter than their length */
            d[i] = (uint8_t)((i / 1000) % 3);
            break;
        default: /* words from a small vocabulary */
            d[i] = (uint8_t)("the quick brown fox jumps "[(i * 7 + i / 26) % 26]);
        }
    }
}

/* Fill random forward ranges; every filled range must match the original. */
static void ranges_match(int shape, size_t n)
{
    uint8_t *orig = malloc(n + 1), *out = malloc(n + 1);
    size_t cap = snappy_max_compressed_length(n);
    char *comp = malloc(cap);
    make_data(shape, orig, n);
    size_t cn = cap;
    REQUIRE_OK(snappy_compress((const char *)orig, n, comp, &cn) != SNAPPY_OK);
    for (int round = 0; round < 20; round++) {
        memset(out, 0xA5, n + 1);
        pqt_snappy_sparse s;
        CHECK_OK(pqt_snappy_sparse_init(&s, (const uint8_t *)comp, cn, out, n));
        size_t from = 0;
        /* a few wide ranges, or many narrow ones (a scattered selection of values, which
         * steps over most of each literal and may need a rewind for a copy) */
        int nranges = round % 2 ? 1 + (int)(pqt_test_rand(&rng) % 12)
                                : 1 + (int)(pqt_test_rand(&rng) % 3000);
        size_t widest = round % 2 ? 200 : 16;
        for (int k = 0; k < nranges && n > 0; k++) {
            from += (size_t)(pqt_test_rand(&rng) % (n / (size_t)nranges + 1));
            if (from >= n) break;
            size_t to = from + 1 + (size_t)(pqt_test_rand(&rng) % widest);
            if (to > n) to = n;
            pqt_status st = pqt_snappy_sparse_fill(&s, from, to);
            CHECK_EQ_I64(st, PQT_OK);
            if (st != PQT_OK || memcmp(out + from, orig + from, to - from) != 0) {
                fprintf(stderr, "shape %d, n %zu: bytes %zu..%zu differ\n", shape, n, from, to);
                pqt_test_failures++;
                break;
            }
            from = to;
        }
        /* the whole block, in one fill from the start, is the original */
        memset(out, 0xA5, n + 1);
        CHECK_OK(pqt_snappy_sparse_init(&s, (const uint8_t *)comp, cn, out, n));
        CHECK_OK(pqt_snappy_sparse_fill(&s, 0, n));
        CHECK(n == 0 || memcmp(out, orig, n) == 0);
        CHECK(out[n] == 0xA5); /* nothing written past the end */
    }
    free(orig);
    free(out);
    free(comp);
}

/* Preamble 70004 (varint), a 65536-byte and a 4464-byte literal, a 4-byte copy from 69990
 * bytes back (output byte 10): valid snappy, but not block-local. */
static size_t far_copy_stream(uint8_t *c, uint8_t *lit)
{
    size_t k = 0;
    uint32_t total = 70004;
    while (total >= 0x80) {
        c[k++] = (uint8_t)(total | 0x80);
        total >>= 7;
    }
    c[k++] = (uint8_t)total;
    size_t i = 0;
    for (uint32_t len = 65536; i < 70000; len = 70000 - 65536) {
        c[k++] = 62 << 2; /* literal, length - 1 in the next 3 bytes */
        uint32_t l = len - 1;
        c[k++] = (uint8_t)l;
        c[k++] = (uint8_t)(l >> 8);
        c[k++] = (uint8_t)(l >> 16);
        for (uint32_t j = 0; j < len; j++, i++) c[k++] = lit[i] = (uint8_t)(i * 31 + 7);
    }
    c[k++] = (uint8_t)(((4 - 1) << 2) | 3); /* copy, 4-byte offset */
    for (int b = 0; b < 4; b++) c[k++] = (uint8_t)(69990u >> (8 * b));
    return k;
}

static void not_block_local(void)
{
    static uint8_t c[70110], lit[70000], out[70004];
    size_t cn = far_copy_stream(c, lit);
    pqt_snappy_sparse s;
    CHECK_OK(pqt_snappy_sparse_init(&s, c, cn, out, sizeof out));
    CHECK_EQ_I64(pqt_snappy_sparse_fill(&s, 70000, 70004), PQT_NOT_FOUND);
    /* written without a gap from before the copy's source: the bytes of output 10..13 */
    CHECK_OK(pqt_snappy_sparse_init(&s, c, cn, out, sizeof out));
    CHECK_OK(pqt_snappy_sparse_fill(&s, 5, 20));
    CHECK_OK(pqt_snappy_sparse_fill(&s, 20, 70004));
    CHECK(memcmp(out + 70000, lit + 10, 4) == 0);
    /* a gap after the source: the written bytes are not remembered, the copy is refused */
    CHECK_OK(pqt_snappy_sparse_init(&s, c, cn, out, sizeof out));
    CHECK_OK(pqt_snappy_sparse_fill(&s, 5, 20));
    CHECK_EQ_I64(pqt_snappy_sparse_fill(&s, 69000, 70004), PQT_NOT_FOUND);
    /* only the bytes asked for, after a whole block stepped over */
    CHECK_OK(pqt_snappy_sparse_init(&s, c, cn, out, sizeof out));
    CHECK_OK(pqt_snappy_sparse_fill(&s, 66000, 66010));
    CHECK(memcmp(out + 66000, lit + 66000, 10) == 0);
    /* bytes of a block stepped over cannot be had afterwards */
    CHECK_OK(pqt_snappy_sparse_init(&s, c, cn, out, sizeof out));
    CHECK_OK(pqt_snappy_sparse_fill(&s, 66000, 66010));
    CHECK(memcmp(out + 66000, lit + 66000, 10) == 0);
    CHECK_EQ_I64(pqt_snappy_sparse_fill(&s, 0, 4), PQT_NOT_FOUND);
    /* the libsnappy reference agrees that the stream is valid */
    static uint8_t full[70004];
    size_t fn = sizeof full;
    CHECK(snappy_uncompress((const char *)c, cn, (char *)full, &fn) == SNAPPY_OK);
    CHECK(memcmp(full + 70000, lit + 10, 4) == 0);
}

static void hostile(void)
{
    enum { N = 200000 };
    uint8_t *orig = malloc(N), *out = malloc(N);
    size_t cap = snappy_max_compressed_length(N);
    char *comp = malloc(cap);
    make_data(0, orig, N);
    size_t cn = cap;
    REQUIRE_OK(snappy_compress((const char *)orig, N, comp, &cn) != SNAPPY_OK);
    pqt_snappy_sparse s;
    /* the preamble must name the destination's size */
    CHECK_EQ_I64(pqt_snappy_sparse_init(&s, (const uint8_t *)comp, cn, out, N - 1), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_snappy_sparse_init(&s, (const uint8_t *)comp, 0, out, N), PQT_CORRUPT);
    /* truncated: the end cannot be reached */
    CHECK_OK(pqt_snappy_sparse_init(&s, (const uint8_t *)comp, cn / 2, out, N));
    CHECK_EQ_I64(pqt_snappy_sparse_fill(&s, N - 8, N), PQT_CORRUPT);
    /* asking past the end */
    CHECK_OK(pqt_snappy_sparse_init(&s, (const uint8_t *)comp, cn, out, N));
    CHECK_EQ_I64(pqt_snappy_sparse_fill(&s, 10, N + 1), PQT_CORRUPT);
    /* garbled bytes: any status, but in bounds */
    char *bad = malloc(cn);
    int ok = 0, refused = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(bad, comp, cn);
        int flips = 1 + (int)(pqt_test_rand(&rng) % 8);
        for (int f = 0; f < flips; f++)
            bad[3 + pqt_test_rand(&rng) % (cn - 3)] = (char)pqt_test_rand(&rng);
        if (pqt_snappy_sparse_init(&s, (const uint8_t *)bad, cn, out, N) != PQT_OK) continue;
        size_t from = (size_t)(pqt_test_rand(&rng) % N);
        pqt_status st = pqt_snappy_sparse_fill(&s, from, from + (N - from) / 3);
        if (st == PQT_OK) st = pqt_snappy_sparse_fill(&s, N - 16, N);
        ok += st == PQT_OK;
        refused += st != PQT_OK;
    }
    CHECK(refused > 0); /* some flips must be caught */
    CHECK(ok + refused > 2000);
    free(bad);
    free(orig);
    free(out);
    free(comp);
}

int main(void)
{
    static const size_t sizes[] = {0, 1, 100, 65535, 65536, 65537, 200000, 1 << 20};
    for (int shape = 0; shape < 4; shape++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) ranges_match(shape, sizes[i]);
    not_block_local();
    hostile();
    return pqt_test_done("test_snappy_sparse");
}
