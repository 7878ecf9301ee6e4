/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_codec.c - libFuzzer target for the decompression dispatch.
 *
 * Input: [codec][expected size: 3 bytes, below 1 MiB][compressed bytes]. The output block
 * is exactly the expected size on the heap. The same input is decompressed twice through
 * one context and once without one: the three runs must agree (status and bytes), which
 * catches decoder state left behind by a failed call.
 */
#include "fuzz.h"
#include "codec/codec.h"

#define MAX_OUT (1u << 20) /* the harness's output block; a page may be larger, not here */

static pqt_codec_ctx *ctx; /* reused across inputs, as a reader thread reuses it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    const int codec = (int)(fz_take(&in, 1) % 9); /* 8: unknown; 3: LZO, unsupported */
    const size_t out_n = (size_t)(fz_take(&in, 3) % MAX_OUT);
    if (!ctx && pqt_codec_ctx_new(&ctx) != PQT_OK) return 0;
    uint8_t *src = fz_dup(in);
    uint8_t *out[3] = {malloc(out_n ? out_n : 1), malloc(out_n ? out_n : 1),
                       malloc(out_n ? out_n : 1)};
    if (!src || !out[0] || !out[1] || !out[2]) goto done;

    pqt_status st[3];
    for (int i = 0; i < 3; i++)
        st[i] = pqt_codec_decompress(i < 2 ? ctx : NULL, codec, src, in.n, out[i], out_n);
    if (st[0] != st[1] || st[0] != st[2]) abort();
    if (st[0] == PQT_OK && out_n &&
        (memcmp(out[0], out[1], out_n) != 0 || memcmp(out[0], out[2], out_n) != 0))
        abort();
    (void)pqt_codec_supported(codec);
    (void)pqt_codec_name(codec);
done:
    for (int i = 0; i < 3; i++) free(out[i]);
    free(src);
    return 0;
}
