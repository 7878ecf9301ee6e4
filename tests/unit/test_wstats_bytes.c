/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_wstats_bytes.c - the writer's min/max of BYTE_ARRAY values (compared by 8-byte keys
 * first) against a memcmp model: random batches of short values made of the bytes that break
 * prefix tricks (0x00 inside and at the end, 0x80, 0xFF, shared 8-byte prefixes, empty
 * values, one value a prefix of another), folded in several batches as a page's values are.
 */
#include <string.h>

#include "testutil.h"
#include "write/write_int.h"

static uint64_t rng = 11;

static int model_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    size_t m = an < bn ? an : bn;
    int r = m ? memcmp(a, b, m) : 0;
    return r ? r : (an < bn ? -1 : an > bn);
}

int main(void)
{
    static const uint8_t alphabet[] = {0x00, 0x01, 'a', 'b', 0x7F, 0x80, 0xFF};
    pqt_wcol c;
    memset(&c, 0, sizeof c);
    c.ptype = PQT_PT_BYTE_ARRAY;
    uint8_t bytes[64 * 16];
    int64_t offsets[65];
    int bad = 0;
    for (int round = 0; round < 3000; round++) {
        pqt_wstats s;
        memset(&s, 0, sizeof s);
        const uint8_t *mlo = NULL, *mhi = NULL;
        size_t mlon = 0, mhin = 0;
        uint8_t keep_lo[16], keep_hi[16];
        for (int batch = 0; batch < 3; batch++) {
            int n = 1 + (int)(pqt_test_rand(&rng) % 64);
            int64_t at = 0;
            for (int i = 0; i < n; i++) {
                offsets[i] = at;
                /* lengths around 8, and values sharing the first 8 bytes "aaaaaaaa" */
                size_t len = (size_t)(pqt_test_rand(&rng) % 13);
                bool shared = pqt_test_rand(&rng) % 2;
                for (size_t j = 0; j < len; j++)
                    bytes[at + (int64_t)j] =
                        shared && j < 8 ? 'a'
                                        : alphabet[pqt_test_rand(&rng) % sizeof alphabet];
                at += (int64_t)len;
            }
            offsets[n] = at;
            CHECK_OK(pqt_wstats_add(&s, &c, NULL, offsets, bytes, n));
            for (int i = 0; i < n; i++) {
                const uint8_t *x = bytes + offsets[i];
                size_t xn = (size_t)(offsets[i + 1] - offsets[i]);
                if (!mlo || model_cmp(x, xn, mlo, mlon) < 0) {
                    memcpy(keep_lo, x, xn);
                    mlo = keep_lo;
                    mlon = xn;
                }
                if (!mhi || model_cmp(x, xn, mhi, mhin) > 0) {
                    memcpy(keep_hi, x, xn);
                    mhi = keep_hi;
                    mhin = xn;
                }
            }
        }
        if (!s.has_minmax || model_cmp(s.min.data, s.min.len, mlo, mlon) != 0 ||
            model_cmp(s.max.data, s.max.len, mhi, mhin) != 0) {
            if (bad++ < 5) fprintf(stderr, "round %d: min or max differs from the model\n", round);
        }
        pqt_wstats_free(&s);
    }
    CHECK(bad == 0);
    return pqt_test_done("test_wstats_bytes");
}
