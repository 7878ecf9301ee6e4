/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_rle.c - libFuzzer target for the RLE / bit-packed hybrid decoder.
 *
 * Input: [bit width][op count k][k op bytes][run data]. Each op byte picks get_u32, get_u8,
 * skip or count_eq and a count (small, or a power of two up to 2^29 so that long skips over
 * short data are tried too). Outputs go to exact-size heap blocks so that a decoder writing
 * one value too many is caught.
 */
#include "fuzz.h"
#include "encoding/encoding.h"

/* Decode calls write n values, so they are capped to keep the harness's own buffer small;
 * skips and counts write nothing and take the full range. */
#define MAX_DECODE 65536

static int64_t op_count(uint8_t b)
{
    const int c = b >> 2;
    return c < 40 ? c : (int64_t)1 << (c - 34);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    const int bw = (int)(fz_take(&in, 1) % 33);
    const int nops = (int)(fz_take(&in, 1) % 16);
    fz_in ops = fz_split(&in, (size_t)nops);
    uint8_t *runs = fz_dup(in);
    if (!runs) return 0;

    pqt_rle_dec d;
    if (pqt_rle_init(&d, bw, runs, in.n) != PQT_OK) goto done;
    /* With no ops, decode everything a little at a time until the data is exhausted. */
    for (int i = 0; i < (nops ? (int)ops.n : 64); i++) {
        const uint8_t b = nops ? ops.p[i] : 0x20; /* 8 values per get_u32 */
        int64_t n = op_count(b);
        pqt_status st = PQT_OK;
        switch (b & 3) {
        case 0:
        case 1:
            if (n > MAX_DECODE) n = MAX_DECODE;
            if ((b & 3) == 1 && bw <= 8) {
                uint8_t *out = malloc(n ? (size_t)n : 1);
                if (out) st = pqt_rle_get_u8(&d, n, out);
                free(out);
            } else {
                uint32_t *out = malloc(n ? (size_t)n * sizeof *out : 1);
                if (out) st = pqt_rle_get_u32(&d, n, out);
                free(out);
            }
            break;
        case 2: st = pqt_rle_skip(&d, n); break;
        default: {
            int64_t count = -1;
            st = pqt_rle_count_eq(&d, n, (uint32_t)b >> 4, &count);
            if (st == PQT_OK && (count < 0 || count > n)) abort();
        }
        }
        if (st != PQT_OK) break;
    }
done:
    free(runs);
    return 0;
}
