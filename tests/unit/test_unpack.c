/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_unpack.c - the generated bit-unpacking kernels (src/encoding/unpack_gen.c).
 *
 * Every width 0..32 (u32) and 0..64 (u64) against a bit-by-bit reference on random and
 * all-ones input. Inputs are heap blocks of exactly 4 * width bytes, so a kernel reading
 * one byte too far shows up under AddressSanitizer.
 */
#include <stdlib.h>
#include <string.h>

#include "encoding/encoding.h"
#include "testutil.h"

static uint64_t seed = 12345;

/* Value i of width w, LSB-first, one bit at a time. */
static uint64_t slow_value(const uint8_t *in, int w, int i)
{
    uint64_t v = 0;
    for (int b = 0; b < w; b++) {
        uint64_t bit = (uint64_t)i * (uint64_t)w + (uint64_t)b;
        v |= (uint64_t)((in[bit / 8] >> (bit % 8)) & 1) << b;
    }
    return v;
}

static void check_width(int w, int max_w, int fill)
{
    size_t nbytes = 4 * (size_t)w;
    uint8_t *in = malloc(nbytes ? nbytes : 1);
    for (size_t i = 0; i < nbytes; i++)
        in[i] = fill < 0 ? (uint8_t)pqt_test_rand(&seed) : (uint8_t)fill;
    uint32_t o32[32];
    uint64_t o64[32];
    memset(o32, 0xab, sizeof o32);
    memset(o64, 0xab, sizeof o64);
    if (max_w == 32) {
        pqt_unpack32_u32(in, o32, w);
        for (int i = 0; i < 32; i++) CHECK_EQ_I64(o32[i], slow_value(in, w, i));
    } else {
        pqt_unpack32_u64(in, o64, w);
        for (int i = 0; i < 32; i++)
            if (o64[i] != slow_value(in, w, i)) {
                fprintf(stderr, "u64 width %d value %d: %llx != %llx\n", w, i,
                        (unsigned long long)o64[i], (unsigned long long)slow_value(in, w, i));
                pqt_test_failures++;
            }
    }
    free(in);
}

int main(void)
{
    for (int rep = 0; rep < 20; rep++) {
        for (int w = 0; w <= 32; w++) check_width(w, 32, -1);
        for (int w = 0; w <= 64; w++) check_width(w, 64, -1);
    }
    for (int w = 0; w <= 32; w++) check_width(w, 32, 0xff);
    for (int w = 0; w <= 64; w++) check_width(w, 64, 0xff);
    for (int w = 0; w <= 64; w++) check_width(w, 64, 0);
    return pqt_test_done("test_unpack");
}
