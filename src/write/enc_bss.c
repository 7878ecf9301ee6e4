/* SPDX-License-Identifier: Apache-2.0 */
/*
 * enc_bss.c - the BYTE_STREAM_SPLIT encoder (layer: write).
 *
 * parquet-format Encodings.md "Byte Stream Split (BYTE_STREAM_SPLIT = 9)": for values of K
 * bytes, K streams one after the other, stream k holding byte k of every value. Floats
 * compress better so (their exponent bytes line up). Widths 4 and 8 get loops with a
 * constant stride; FLBA any width.
 */
#include <string.h>

#include "util/error.h"
#include "write/enc.h"

static inline void split(uint8_t *out, const uint8_t *in, size_t n, const size_t w)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < w; k++)
            out[k * n + i] = in[i * w + k];
}

pqt_status pqt_enc_byte_stream_split(pqt_buf *out, const void *values, size_t n, size_t width)
{
    if (width == 0)
        return pqt_err(PQT_MISUSE, "BYTE_STREAM_SPLIT encoding needs a value width above 0");
    if (n > SIZE_MAX / width)
        return pqt_err(PQT_LIMIT, "BYTE_STREAM_SPLIT encoding: %zu values of %zu bytes overflow", n,
                       width);
    if (n == 0) return PQT_OK;
    PQT_TRY(pqt_buf_reserve_more(out, n * width));
    uint8_t *p = out->data + out->len;
    switch (width) {
    case 4:
        split(p, values, n, 4);
        break;
    case 8:
        split(p, values, n, 8);
        break;
    default:
        split(p, values, n, width);
        break;
    }
    out->len += n * width;
    return PQT_OK;
}
