/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page_sparse.c - the word-at-a-time counts behind sparse page reads, against byte-
 * and bit-by-bit models: zero bytes (the rows of a list page, from its repetition levels)
 * over random arrays rich in the bytes that break such tricks (0x00, 0x01, 0x7F, 0x80,
 * 0xFF), and pqt_popcount64 over random and edge words. The page paths that use them are
 * checked against whole-page decodes by test_selective.
 */
#include <string.h>

#include "column/column_int.h"
#include "testutil.h"
#include "util/bits.h"

static uint64_t rng = 7;

static uint8_t tricky_byte(void)
{
    static const uint8_t edge[] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
    uint64_t r = pqt_test_rand(&rng);
    return r % 3 == 0 ? (uint8_t)(r >> 8) : edge[(r >> 8) % sizeof edge];
}

static void zero_bytes_property(void)
{
    uint8_t buf[300];
    int bad = 0;
    for (int round = 0; round < 20000; round++) {
        int64_t n = (int64_t)(pqt_test_rand(&rng) % sizeof buf);
        int64_t off = (int64_t)(pqt_test_rand(&rng) % 8); /* unaligned starts */
        if (off + n > (int64_t)sizeof buf) n = (int64_t)sizeof buf - off;
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = tricky_byte();
        int64_t want = 0;
        for (int64_t i = 0; i < n; i++) want += buf[off + i] == 0;
        if (pqt_count_zero_bytes(buf + off, n) != want && bad++ < 5)
            fprintf(stderr, "round %d: n %lld: counted %lld zero bytes, model %lld\n", round,
                    (long long)n, (long long)pqt_count_zero_bytes(buf + off, n),
                    (long long)want);
    }
    CHECK(bad == 0);
    /* hand-made: every byte zero, none zero, the 0x80/0x00 neighbours a borrow would mix */
    memset(buf, 0, 64);
    CHECK_EQ_I64(pqt_count_zero_bytes(buf, 64), 64);
    memset(buf, 0x80, 64);
    CHECK_EQ_I64(pqt_count_zero_bytes(buf, 64), 0);
    const uint8_t mix[16] = {0x80, 0, 0x01, 0, 0xFF, 0, 0x7F, 0, 0, 0, 0x80, 0x80, 0, 1, 2, 0};
    CHECK_EQ_I64(pqt_count_zero_bytes(mix, 16), 8);
    CHECK_EQ_I64(pqt_count_zero_bytes(mix, 0), 0);
}

static void popcount_property(void)
{
    int bad = 0;
    for (int round = 0; round < 100000; round++) {
        uint64_t x = pqt_test_rand(&rng);
        if (round % 4 == 1) x &= pqt_test_rand(&rng); /* sparse */
        if (round % 4 == 2) x |= pqt_test_rand(&rng); /* dense */
        int want = 0;
        for (int b = 0; b < 64; b++) want += (int)(x >> b & 1);
        if (pqt_popcount64(x) != want) bad++;
    }
    CHECK(bad == 0);
    CHECK_EQ_I64(pqt_popcount64(0), 0);
    CHECK_EQ_I64(pqt_popcount64(UINT64_MAX), 64);
    CHECK_EQ_I64(pqt_popcount64(0x8000000000000001ULL), 2);
    CHECK_EQ_I64(pqt_popcount64(0x5555555555555555ULL), 32);
}

int main(void)
{
    zero_bytes_property();
    popcount_property();
    return pqt_test_done("test_page_sparse");
}
