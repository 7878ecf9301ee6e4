/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_vdec.c - libFuzzer target for the value decoders over every encoding and physical
 * type, and for the dictionary they read from.
 *
 * Input: [encoding][physical type][type_len][num_values: 3 bytes][dictionary bytes: 2]
 * [dictionary entries: 2][op count k][k op bytes][dictionary][page data]. The dictionary is
 * loaded (as the page's type) only for the dictionary encodings. Each op byte picks decode,
 * skip, decode of dictionary codes or the wrong decode call for the type, and a count; the
 * decoder itself refuses more values than num_values. Every buffer is exact-size on the heap.
 */
#include "fuzz.h"
#include "encoding/encoding.h"
#include "format/meta.h"

#define MAX_DECODE 65536 /* values per decode call: bounds the harness's own output buffer */

static int64_t op_count(uint8_t b)
{
    const int c = b >> 2;
    return c < 48 ? c : (int64_t)1 << (c - 40); /* up to 2^23: beyond any num_values here */
}

static pqt_status decode_fixed(pqt_vdec *d, int64_t n, size_t w, int codes)
{
    void *dst = malloc(n ? (size_t)n * (codes ? 4 : w ? w : 1) : 1);
    if (!dst) return PQT_NOMEM;
    pqt_status st = codes ? pqt_vdec_decode_codes(d, n, dst) : pqt_vdec_decode(d, n, dst);
    free(dst);
    return st;
}

static pqt_status decode_ba(pqt_vdec *d, int64_t n)
{
    pqt_buf bytes = {0};
    int64_t *ends = malloc(n ? (size_t)n * sizeof *ends : 1);
    if (!ends) return PQT_NOMEM;
    pqt_ba_out out = {&bytes, ends};
    pqt_status st = pqt_vdec_decode_ba(d, n, &out);
    /* Ends must stay inside the bytes appended and never decrease. */
    for (int64_t i = 0; st == PQT_OK && i < n; i++)
        if (ends[i] < (i ? ends[i - 1] : 0) || (size_t)ends[i] > bytes.len) abort();
    free(ends);
    pqt_buf_free(&bytes);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    const int encoding = (int)(fz_take(&in, 1) % 10); /* 0..9: includes the unused 1 */
    const int ptype = (int)(fz_take(&in, 1) % 9);     /* 8: an unknown type */
    const int type_len = (int)(fz_take(&in, 1) % 24); /* 0: refused for FLBA */
    const int64_t num_values = (int64_t)fz_take(&in, 3);
    const size_t dict_nbytes = (size_t)fz_take(&in, 2);
    const int64_t dict_n = (int64_t)fz_take(&in, 2);
    const int nops = (int)(fz_take(&in, 1) % 16);
    fz_in ops = fz_split(&in, (size_t)nops);
    fz_in dict_in = fz_split(&in, dict_nbytes);
    uint8_t *dict_bytes = fz_dup(dict_in), *page = fz_dup(in);
    pqt_vdec *d = NULL;
    pqt_dict dict = {0};
    if (!dict_bytes || !page || pqt_vdec_new(&d) != PQT_OK) goto done;

    const int is_dict = encoding == PQT_ENC_PLAIN_DICTIONARY || encoding == PQT_ENC_RLE_DICTIONARY;
    if (is_dict && pqt_dict_load(&dict, ptype, type_len, dict_bytes, dict_in.n, dict_n) != PQT_OK)
        goto done;
    if (pqt_vdec_init(d, encoding, ptype, type_len, page, in.n, num_values,
                      is_dict ? &dict : NULL) != PQT_OK)
        goto done;
    const size_t w = pqt_ptype_nbytes(ptype, type_len);
    for (int i = 0; i < (nops ? (int)ops.n : 64); i++) {
        const uint8_t b = nops ? ops.p[i] : 0x1c; /* 7 values per decode */
        int64_t n = op_count(b);
        pqt_status st;
        if ((b & 3) == 1) {
            st = pqt_vdec_skip(d, n);
        } else {
            if (n > MAX_DECODE) n = MAX_DECODE;
            const int ba = ptype == PQT_PT_BYTE_ARRAY;
            switch (b & 3) {
            case 0: st = ba ? decode_ba(d, n) : decode_fixed(d, n, w, 0); break;
            case 2: st = decode_fixed(d, n, w, 1); break;
            default: st = ba ? decode_fixed(d, n, w, 0) : decode_ba(d, n); break; /* misuse */
            }
        }
        if (st != PQT_OK && st != PQT_MISUSE) break;
    }
done:
    pqt_vdec_free(d);
    pqt_dict_free(&dict);
    free(dict_bytes);
    free(page);
    return 0;
}
