/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sample_philox.c - Philox4x32 against Random123's published known-answer vectors
 * (tests/kat_vectors of DEShawResearch/random123: counter[4] key[2] -> output[4], 7 and 10
 * rounds), the frozen sampling rule against the independent Python model's rows (also past
 * 2^32 and 2^40, where the counter's high word matters), and fresh seeds.
 */
#include <string.h>

#include "sample_model_rows.h"
#include "scan/sample.h"
#include "testutil.h"
#include "util/philox.h"

static const struct {
    int rounds;
    uint32_t ctr[4], key[2], want[4];
} kat[] = {
    {7, {0, 0, 0, 0}, {0, 0}, {0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
    {7,
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}},
    {7,
     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}},
    {10, {0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {10,
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {10,
     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

static void test_kat(void)
{
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint32_t out[4];
        pqt_philox4x32(kat[i].ctr, kat[i].key, kat[i].rounds, out);
        for (int w = 0; w < 4; w++)
            if (out[w] != kat[i].want[w]) {
                fprintf(stderr, "KAT %zu word %d: %08x, want %08x\n", i, w, out[w],
                        kat[i].want[w]);
                CHECK(0);
            }
        /* in place, as the header allows */
        uint32_t io[4];
        memcpy(io, kat[i].ctr, sizeof io);
        pqt_philox4x32(io, kat[i].key, kat[i].rounds, io);
        CHECK(memcmp(io, kat[i].want, sizeof io) == 0);
    }
}

/* The rule over rows lo..hi keeps exactly want[0..n). */
static void check_rule(int64_t seed, double p, int64_t lo, int64_t hi, const int64_t *want,
                       int64_t n)
{
    int64_t k = 0, bad = 0;
    for (int64_t r = lo; r <= hi; r++) {
        bool model = k < n && want[k] == r;
        if (model) k++;
        if (pqt_sample_keep(seed, p, (uint64_t)r) != model && bad++ == 0)
            fprintf(stderr, "seed %lld fraction %g row %lld: library %d, model %d\n",
                    (long long)seed, p, (long long)r, !model, model);
    }
    CHECK_EQ_I64(k, n);
    CHECK_EQ_I64(bad, 0);
}

static void test_rule_against_model(void)
{
    check_rule(42, 0.01, 0, 9999, seed42_p001, MODEL_NROWS(seed42_p001));
    check_rule(INT64_MAX, 0.05, 0, 9999, seedmax_p005, MODEL_NROWS(seedmax_p005));
    check_rule(4294967301, 0.5, 0, 199, seed2p32_p05, MODEL_NROWS(seed2p32_p05));
    check_rule(123, 0.5, 4294967290, 4294967301, seed123_near2p32, MODEL_NROWS(seed123_near2p32));
    check_rule(123, 0.5, INT64_C(1099511627776), INT64_C(1099511627800), seed123_near2p40,
               MODEL_NROWS(seed123_near2p40));
    check_rule(1, 0.3, 0, 63, seed1_p03, MODEL_NROWS(seed1_p03));
    /* the comparison is u < p: a smaller fraction keeps a subset of a larger one's rows */
    int64_t bad = 0;
    for (uint64_t r = 0; r < 5000; r++)
        bad += pqt_sample_keep(99, 0.2, r) && !pqt_sample_keep(99, 0.3, r);
    CHECK_EQ_I64(bad, 0);
}

/* The batch form (SSE2 pairs on x86-64) gives the verdicts of the one-row form, for runs of
 * any length and bit offset, at rows where a pair straddles 2^32 and near 2^64. */
static void test_batch_equals_rule(void)
{
    uint64_t state = 12345;
    static const uint64_t bases[] = {0, 4294967290u, UINT64_C(1) << 40, UINT64_MAX - 40};
    int64_t bad = 0;
    for (int it = 0; it < 400; it++) {
        int64_t seed = (int64_t)(pqt_test_rand(&state) >> 1) | 1;
        double p = (double)(pqt_test_rand(&state) >> 11) * 0x1p-53;
        uint64_t row = bases[it % 4] + pqt_test_rand(&state) % 8;
        int64_t n = (int64_t)(pqt_test_rand(&state) % 30), k = (int64_t)(pqt_test_rand(&state) % 9);
        uint8_t keep[8] = {0};
        int64_t kept = pqt_sample_keep_bits(seed, p * 0x1p53, row, n, keep, k), want = 0;
        for (int64_t j = 0; j < n; j++) {
            bool one = pqt_sample_keep(seed, p, row + (uint64_t)j);
            want += one;
            bad += one != (bool)(keep[(k + j) >> 3] >> ((k + j) & 7) & 1);
        }
        for (int64_t b = 0; b < 64; b++) /* nothing outside bits k .. k + n - 1 */
            bad += (b < k || b >= k + n) && (keep[b >> 3] >> (b & 7) & 1);
        CHECK_EQ_I64(kept, want);
    }
    CHECK_EQ_I64(bad, 0);
}

static void test_fresh_seeds(void)
{
    int64_t seen[64];
    for (int i = 0; i < 64; i++) {
        seen[i] = pqt_philox_fresh_seed();
        CHECK(seen[i] > 0);
        for (int j = 0; j < i; j++) CHECK(seen[i] != seen[j]);
    }
}

int main(void)
{
    test_kat();
    test_rule_against_model();
    test_batch_equals_rule();
    test_fresh_seeds();
    return pqt_test_done("test_sample_philox");
}
