/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_codes_verdict.c - property test of the filter pass's verdict from dictionary codes
 * (pqt_scan_codes_verdict, 64 rows per word) against a row-by-row model: random codes
 * (some past the dictionary, as a refuted page leaves them), random nulls or none at all,
 * random entry verdicts, null passing or not, lengths around the 64-row words.
 */
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "testutil.h"

static uint64_t rng = 4242;

static int64_t rnd(int64_t n)
{
    return n > 0 ? (int64_t)(pqt_test_rand(&rng) % (uint64_t)n) : 0;
}

static void one_case(int64_t n, int64_t nentries, bool with_nulls, bool null_passes)
{
    uint32_t *codes = malloc((size_t)n * sizeof *codes + 4);
    uint8_t *valid = calloc((size_t)(n + 7) / 8 + 1, 1);
    uint8_t *entry_keep = calloc((size_t)(nentries + 8) / 8 + 1, 1);
    uint8_t *keep = malloc((size_t)(n + 7) / 8 + 8);
    uint8_t *lut = malloc((size_t)nentries + 2);
    for (int64_t c = 0; c < nentries; c++)
        if (rnd(3) == 0) entry_keep[c / 8] |= (uint8_t)(1u << (c % 8));
    for (int64_t i = 0; i < n; i++) {
        codes[i] = rnd(10) == 0 ? (uint32_t)(nentries + rnd(5)) /* past the entries */
                                : (uint32_t)rnd(nentries);
        if (rnd(10) == 0) codes[i] = 0xFFFFFFFFu; /* PQT_CODE_REFUTED's kind of value */
        if (!with_nulls || rnd(4) != 0) valid[i / 8] |= (uint8_t)(1u << (i % 8));
    }
    memset(keep, 0xA5, (size_t)(n + 7) / 8 + 8); /* stale bits must not survive */
    int64_t got = pqt_scan_codes_verdict(codes, with_nulls ? valid : NULL, n, entry_keep, nentries,
                                         null_passes, lut, keep);
    int64_t want = 0;
    for (int64_t i = 0; i < n; i++) {
        bool present = !with_nulls || (valid[i / 8] >> (i % 8) & 1);
        bool pass = present ? codes[i] < (uint32_t)nentries &&
                                  (entry_keep[codes[i] / 8] >> (codes[i] % 8) & 1)
                            : null_passes;
        want += pass;
        CHECK_EQ_I64(keep[i / 8] >> (i % 8) & 1, pass);
    }
    for (int64_t i = n; i < (n + 7) / 8 * 8; i++)
        CHECK_EQ_I64(keep[i / 8] >> (i % 8) & 1, 0);
    CHECK_EQ_I64(got, want);
    free(codes);
    free(valid);
    free(entry_keep);
    free(keep);
    free(lut);
}

int main(void)
{
    static const int64_t lens[] = {0, 1, 7, 8, 63, 64, 65, 127, 128, 129, 1000, 4097};
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
        for (int nulls = 0; nulls < 2; nulls++)
            for (int np = 0; np < 2; np++) {
                one_case(lens[l], 1, nulls, np);
                one_case(lens[l], 8, nulls, np);
                one_case(lens[l], 1 + rnd(300), nulls, np);
            }
    for (int r = 0; r < 200; r++)
        one_case(rnd(3000), 1 + rnd(70), rnd(2), rnd(2));
    return pqt_test_done("test_codes_verdict");
}
