/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_plain_dict.c - PLAIN, dictionary and RLE-boolean value decoding through pqt_vdec
 * (src/encoding/plain.c, dict.c, vdec.c).
 *
 * For every physical type, random values are written PLAIN and dictionary-encoded (a PLAIN
 * dictionary page plus RLE/bit-packed codes from the reference encoder in tests/ref), then
 * read back with random interleavings of decode(k) and skip(k); the result must equal the
 * model "decode everything, then drop the skipped values". Error cases: dictionary index
 * out of range, BYTE_ARRAY length past the end, encodings not valid for a type, unknown
 * encodings, asking past the page, and every truncated prefix of a page (never a crash).
 */
#include <stdlib.h>
#include <string.h>

#include "../ref/ref_rle.c"
#include "encoding/encoding_int.h"
#include "format/meta.h"
#include "testutil.h"

static uint64_t seed = 7;
static uint64_t rnd(void) { return pqt_test_rand(&seed); }

/* A column of model values: fixed-size values in `fixed` (w bytes each) or byte arrays. */
typedef struct model {
    int ptype, type_len;
    size_t w; /* decoded size, 0 for BYTE_ARRAY */
    size_t n;
    uint8_t *fixed;
    uint8_t **ba;
    uint32_t *ba_len;
} model;

static void model_free(model *m)
{
    free(m->fixed);
    if (m->ba)
        for (size_t i = 0; i < m->n; i++) free(m->ba[i]);
    free(m->ba);
    free(m->ba_len);
}

static model gen_model(int ptype, int type_len, size_t n)
{
    model m = {ptype, type_len, pqt_ptype_nbytes(ptype, type_len), n, NULL, NULL, NULL};
    if (ptype == PQT_PT_BYTE_ARRAY) {
        m.ba = calloc(n + 1, sizeof *m.ba);
        m.ba_len = calloc(n + 1, sizeof *m.ba_len);
        for (size_t i = 0; i < n; i++) {
            m.ba_len[i] = (uint32_t)(rnd() % (rnd() % 8 ? 12 : 200));
            m.ba[i] = malloc(m.ba_len[i] + 1);
            for (uint32_t k = 0; k < m.ba_len[i]; k++) m.ba[i][k] = (uint8_t)rnd();
        }
    } else {
        m.fixed = malloc(n * m.w + 1);
        for (size_t i = 0; i < n * m.w; i++) m.fixed[i] = (uint8_t)rnd();
        if (ptype == PQT_PT_BOOLEAN)
            for (size_t i = 0; i < n; i++) m.fixed[i] &= 1;
    }
    return m;
}

static void put_bytes(ref_out *o, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) ref_put(o, ((const uint8_t *)p)[i]);
}

static void put_u32le(ref_out *o, uint32_t v)
{
    for (int i = 0; i < 4; i++) ref_put(o, (uint8_t)(v >> (8 * i)));
}

/* PLAIN encoding of the model (the test host is little-endian). */
static ref_out plain_encode(const model *m)
{
    ref_out o = {0};
    if (m->ptype == PQT_PT_BOOLEAN) {
        for (size_t i = 0; i < (m->n + 7) / 8; i++) ref_put(&o, 0);
        for (size_t i = 0; i < m->n; i++) o.data[i / 8] |= (uint8_t)(m->fixed[i] << (i % 8));
    } else if (m->ptype == PQT_PT_BYTE_ARRAY) {
        for (size_t i = 0; i < m->n; i++) {
            put_u32le(&o, m->ba_len[i]);
            put_bytes(&o, m->ba[i], m->ba_len[i]);
        }
    } else {
        put_bytes(&o, m->fixed, m->n * m->w);
    }
    return o;
}

/* Random decode/skip interleaving over a vdec against the model. */
static void check_vdec(pqt_vdec *vd, const model *m, const char *what)
{
    size_t pos = 0;
    uint8_t *dst = malloc(m->n * (m->w ? m->w : 1) + 1);
    int64_t *ends = malloc((m->n + 1) * sizeof *ends);
    pqt_buf bytes = {0};
    while (pos < m->n) {
        size_t k = 1 + rnd() % (rnd() % 4 ? 20 : 1500);
        if (k > m->n - pos) k = m->n - pos;
        if (rnd() % 3 == 0) {
            CHECK_OK(pqt_vdec_skip(vd, (int64_t)k));
        } else if (m->ptype == PQT_PT_BYTE_ARRAY) {
            bytes.len = 5; /* appends must start at the current length */
            pqt_buf_reserve(&bytes, 5);
            pqt_ba_out out = {&bytes, ends};
            CHECK_OK(pqt_vdec_decode_ba(vd, (int64_t)k, &out));
            int64_t prev = 5;
            for (size_t i = 0; i < k; i++) {
                const size_t l = m->ba_len[pos + i];
                if (ends[i] - prev != (int64_t)l ||
                    (l && memcmp(bytes.data + prev, m->ba[pos + i], l) != 0)) {
                    fprintf(stderr, "%s: BYTE_ARRAY value %zu differs\n", what, pos + i);
                    pqt_test_failures++;
                    break;
                }
                prev = ends[i];
            }
        } else {
            CHECK_OK(pqt_vdec_decode(vd, (int64_t)k, dst));
            if (memcmp(dst, m->fixed + pos * m->w, k * m->w) != 0) {
                fprintf(stderr, "%s: values %zu..%zu differ\n", what, pos, pos + k);
                pqt_test_failures++;
            }
        }
        pos += k;
    }
    /* The page is used up: one more value is corrupt, zero more is fine. */
    CHECK_OK(pqt_vdec_skip(vd, 0));
    CHECK_EQ_I64(pqt_vdec_skip(vd, 1), PQT_CORRUPT);
    pqt_buf_free(&bytes);
    free(ends);
    free(dst);
}

static int min_width(uint64_t maxv)
{
    int w = 0;
    while (w < 32 && (maxv >> w) != 0) w++;
    return w;
}

/* Dictionary page (PLAIN) + data page (bit width byte, codes) for the model. */
static void check_dict(pqt_vdec *vd, int ptype, int type_len, size_t n)
{
    size_t dn = 1 + rnd() % (rnd() % 2 ? 10 : 3000);
    model dm = gen_model(ptype, type_len, dn);
    ref_out dpage = plain_encode(&dm);
    uint8_t *dcopy = malloc(dpage.len + 1);
    memcpy(dcopy, dpage.data, dpage.len);
    pqt_dict dict;
    memset(&dict, 0, sizeof dict);
    CHECK_OK(pqt_dict_load(&dict, ptype, type_len, dcopy, dpage.len, (int64_t)dn));
    /* loading twice reuses the buffers and gives the same dictionary */
    CHECK_OK(pqt_dict_load(&dict, ptype, type_len, dcopy, dpage.len, (int64_t)dn));
    CHECK_EQ_I64(dict.n, dn);

    uint32_t *codes = malloc((n + 1) * sizeof *codes);
    size_t i = 0;
    while (i < n) {
        size_t len = 1 + rnd() % 50;
        uint32_t c = (uint32_t)(rnd() % dn);
        int rep = rnd() % 2;
        for (size_t k = 0; k < len && i < n; k++, i++) codes[i] = rep ? c : (uint32_t)(rnd() % dn);
    }
    int bw = min_width(dn - 1);
    if (rnd() % 4 == 0) bw += (int)(rnd() % (33 - bw));
    ref_out page = {0};
    ref_put(&page, (uint8_t)bw);
    ref_rle_encode(&page, bw, codes, n, rnd);
    uint8_t *pcopy = malloc(page.len + 1);
    memcpy(pcopy, page.data, page.len);

    model m = {ptype, type_len, dm.w, n, NULL, NULL, NULL};
    if (ptype == PQT_PT_BYTE_ARRAY) {
        m.ba = calloc(n + 1, sizeof *m.ba);
        m.ba_len = calloc(n + 1, sizeof *m.ba_len);
        for (i = 0; i < n; i++) {
            m.ba_len[i] = dm.ba_len[codes[i]];
            m.ba[i] = malloc(m.ba_len[i] + 1);
            memcpy(m.ba[i], dm.ba[codes[i]], m.ba_len[i]);
        }
    } else {
        m.fixed = malloc(n * m.w + 1);
        for (i = 0; i < n; i++) memcpy(m.fixed + i * m.w, dm.fixed + codes[i] * m.w, m.w);
    }
    int enc = rnd() % 2 ? PQT_ENC_RLE_DICTIONARY : PQT_ENC_PLAIN_DICTIONARY;
    CHECK_OK(pqt_vdec_init(vd, enc, ptype, type_len, pcopy, page.len, (int64_t)n, &dict));
    CHECK(pqt_vdec_is_dict(vd));
    check_vdec(vd, &m, "dictionary");

    /* codes instead of values */
    CHECK_OK(pqt_vdec_init(vd, enc, ptype, type_len, pcopy, page.len, (int64_t)n, &dict));
    uint32_t *got = malloc((n + 1) * sizeof *got);
    size_t half = n / 3;
    CHECK_OK(pqt_vdec_skip(vd, (int64_t)half));
    CHECK_OK(pqt_vdec_decode_codes(vd, (int64_t)(n - half), got));
    CHECK(memcmp(got, codes + half, (n - half) * sizeof *got) == 0);

    /* every prefix of the data page: ok or PQT_CORRUPT, never a crash */
    uint8_t *dst = malloc(n * (m.w ? m.w : 1) + 1);
    int64_t *ends = malloc((n + 1) * sizeof *ends);
    pqt_buf bytes = {0};
    size_t step = page.len > 200 ? page.len / 100 : 1;
    for (size_t cut = 0; cut < page.len; cut += step) {
        uint8_t *pre = malloc(cut ? cut : 1);
        memcpy(pre, page.data, cut);
        pqt_status st = pqt_vdec_init(vd, enc, ptype, type_len, pre, cut, (int64_t)n, &dict);
        if (st == PQT_OK) {
            if (ptype == PQT_PT_BYTE_ARRAY) {
                bytes.len = 0;
                pqt_ba_out out = {&bytes, ends};
                st = pqt_vdec_decode_ba(vd, (int64_t)n, &out);
            } else {
                st = pqt_vdec_decode(vd, (int64_t)n, dst);
            }
        }
        CHECK(st == PQT_OK || st == PQT_CORRUPT);
        free(pre);
    }
    pqt_buf_free(&bytes);
    free(ends);
    free(dst);
    free(got);
    model_free(&m);
    free(pcopy);
    free(page.data);
    free(codes);
    pqt_dict_free(&dict);
    free(dcopy);
    free(dpage.data);
    model_free(&dm);
}

static void check_type(pqt_vdec *vd, int ptype, int type_len)
{
    size_t sizes[] = {0, 1, 7, 8, 33, 1000, 5000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        model m = gen_model(ptype, type_len, n);
        ref_out o = plain_encode(&m);
        uint8_t *copy = malloc(o.len + 1);
        if (o.len) memcpy(copy, o.data, o.len);
        CHECK_OK(pqt_vdec_init(vd, PQT_ENC_PLAIN, ptype, type_len, copy, o.len, (int64_t)n, NULL));
        CHECK(!pqt_vdec_is_dict(vd));
        check_vdec(vd, &m, "PLAIN");
        /* a page that claims more values than its bytes hold */
        if (ptype != PQT_PT_BOOLEAN || n % 8 == 0) {
            CHECK_OK(pqt_vdec_init(vd, PQT_ENC_PLAIN, ptype, type_len, copy, o.len,
                                   (int64_t)n + 1, NULL));
            CHECK_OK(pqt_vdec_skip(vd, (int64_t)n));
            CHECK_EQ_I64(pqt_vdec_skip(vd, 1), PQT_CORRUPT);
        }
        if (ptype == PQT_PT_BOOLEAN) {
            /* RLE booleans: 4-byte length, then width-1 runs */
            uint32_t *bits = malloc((n + 1) * sizeof *bits);
            for (size_t i = 0; i < n; i++) bits[i] = m.fixed[i];
            ref_out r = {0};
            put_u32le(&r, 0);
            ref_rle_encode(&r, 1, bits, n, rnd);
            uint32_t len = (uint32_t)(r.len - 4);
            memcpy(r.data, &len, 4);
            CHECK_OK(pqt_vdec_init(vd, PQT_ENC_RLE, ptype, 0, r.data, r.len, (int64_t)n, NULL));
            check_vdec(vd, &m, "RLE BOOLEAN");
            r.data[0]++;
            CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_RLE, ptype, 0, r.data, r.len, (int64_t)n,
                                       NULL), PQT_CORRUPT);
            free(r.data);
            free(bits);
        }
        if (n) check_dict(vd, ptype, type_len, n);
        free(copy);
        free(o.data);
        model_free(&m);
    }
}

static void check_errors(pqt_vdec *vd)
{
    /* dictionary index out of range: dictionary of 5 INT64, code 7 */
    int64_t dv[5] = {10, 11, 12, 13, 14};
    pqt_dict dict;
    memset(&dict, 0, sizeof dict);
    CHECK_OK(pqt_dict_load(&dict, PQT_PT_INT64, 0, (const uint8_t *)dv, sizeof dv, 5));
    uint32_t codes[10] = {0, 1, 2, 3, 4, 7, 0, 0, 0, 0};
    ref_out page = {0};
    ref_put(&page, 3);
    ref_bp_run(&page, 3, codes, 10, 0);
    int64_t out[10];
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_RLE_DICTIONARY, PQT_PT_INT64, 0, page.data, page.len, 10,
                           &dict));
    CHECK_EQ_I64(pqt_vdec_decode(vd, 10, out), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "dictionary index 7 out of range (dictionary has 5 entries)"));
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_RLE_DICTIONARY, PQT_PT_INT64, 0, page.data, page.len, 10,
                           &dict));
    uint32_t cbuf[10];
    CHECK_EQ_I64(pqt_vdec_decode_codes(vd, 10, cbuf), PQT_CORRUPT);
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_RLE_DICTIONARY, PQT_PT_INT64, 0, page.data, page.len, 10,
                           &dict));
    CHECK_OK(pqt_vdec_decode(vd, 5, out));
    CHECK_EQ_I64(out[4], 14);
    /* the same through an RLE run of one bad code */
    static const uint8_t runpage[] = {3, 0x10, 7};
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_RLE_DICTIONARY, PQT_PT_INT64, 0, runpage, sizeof runpage,
                           8, &dict));
    CHECK_EQ_I64(pqt_vdec_decode(vd, 8, out), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "dictionary index 7 out of range (dictionary has 5 entries)"));
    /* bit width byte over 32 */
    page.data[0] = 33;
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_RLE_DICTIONARY, PQT_PT_INT64, 0, page.data, page.len,
                               10, &dict), PQT_CORRUPT);
    /* dictionary missing, dictionary of another type */
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_RLE_DICTIONARY, PQT_PT_INT64, 0, page.data, page.len,
                               10, NULL), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "dictionary page missing"));
    CHECK(pqt_vdec_init(vd, PQT_ENC_RLE_DICTIONARY, PQT_PT_INT32, 0, page.data, page.len, 10,
                        &dict) != PQT_OK);
    free(page.data);

    /* BYTE_ARRAY dictionary with an out-of-range code through the byte-array path */
    static const uint8_t bad[] = {2, 0, 0, 0, 'h', 'i', 1, 0, 0, 0, 'x'};
    CHECK_OK(pqt_dict_load(&dict, PQT_PT_BYTE_ARRAY, 0, bad, sizeof bad, 2));
    static const uint8_t bapage[] = {2, 0x10, 3}; /* width 2, RLE run of 8 x code 3 */
    pqt_buf bytes = {0};
    int64_t ends[8];
    pqt_ba_out bo = {&bytes, ends};
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_PLAIN_DICTIONARY, PQT_PT_BYTE_ARRAY, 0, bapage,
                           sizeof bapage, 8, &dict));
    CHECK_EQ_I64(pqt_vdec_decode_ba(vd, 8, &bo), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "dictionary index 3 out of range (dictionary has 2 entries)"));
    /* dictionary page whose last value runs past the end, or too many entries claimed */
    CHECK_EQ_I64(pqt_dict_load(&dict, PQT_PT_BYTE_ARRAY, 0, bad, sizeof bad - 1, 2), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_dict_load(&dict, PQT_PT_BYTE_ARRAY, 0, bad, sizeof bad, 1000000),
                 PQT_CORRUPT);
    CHECK_EQ_I64(pqt_dict_load(&dict, PQT_PT_DOUBLE, 0, bad, sizeof bad, 2), PQT_CORRUPT);
    pqt_dict_free(&dict);
    pqt_dict_free(&dict);

    /* PLAIN BYTE_ARRAY: length past the end, length prefix cut */
    static const uint8_t ba[] = {3, 0, 0, 0, 'a', 'b', 'c', 9, 0, 0, 0, 'd', 'e'};
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_PLAIN, PQT_PT_BYTE_ARRAY, 0, ba, sizeof ba, 2, NULL));
    bytes.len = 0;
    CHECK_EQ_I64(pqt_vdec_decode_ba(vd, 2, &bo), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "BYTE_ARRAY"));
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_PLAIN, PQT_PT_BYTE_ARRAY, 0, ba, 9, 2, NULL));
    CHECK_EQ_I64(pqt_vdec_skip(vd, 2), PQT_CORRUPT);
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_PLAIN, PQT_PT_BYTE_ARRAY, 0, ba, sizeof ba, 2, NULL));
    CHECK_OK(pqt_vdec_decode_ba(vd, 1, &bo));
    CHECK_EQ_I64(ends[0], 3);
    pqt_buf_free(&bytes);

    /* encodings that do not fit the type, unknown encodings, misuse */
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_DELTA_BINARY_PACKED, PQT_PT_DOUBLE, 0, ba, 4, 1, NULL),
                 PQT_UNSUPPORTED_ENCODING);
    CHECK(strstr(pqt_errmsg(), "encoding DELTA_BINARY_PACKED not valid for physical type DOUBLE"));
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_RLE, PQT_PT_INT32, 0, ba, 4, 1, NULL),
                 PQT_UNSUPPORTED_ENCODING);
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_BIT_PACKED, PQT_PT_INT32, 0, ba, 4, 1, NULL),
                 PQT_UNSUPPORTED_ENCODING);
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_DELTA_LENGTH_BYTE_ARRAY, PQT_PT_INT64, 0, ba, 4, 1,
                               NULL), PQT_UNSUPPORTED_ENCODING);
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_BYTE_STREAM_SPLIT, PQT_PT_BOOLEAN, 0, ba, 4, 1, NULL),
                 PQT_UNSUPPORTED_ENCODING);
    CHECK_EQ_I64(pqt_vdec_init(vd, 42, PQT_PT_INT32, 0, ba, 4, 1, NULL),
                 PQT_UNSUPPORTED_ENCODING);
    CHECK(strstr(pqt_errmsg(), "42"));
    CHECK_EQ_I64(pqt_vdec_init(vd, 1, PQT_PT_INT32, 0, ba, 4, 1, NULL), PQT_UNSUPPORTED_ENCODING);
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_BYTE_STREAM_SPLIT, PQT_PT_DOUBLE, 0, ba, 12, 1, NULL),
                 PQT_CORRUPT);
    /* after a failed init nothing may be decoded */
    CHECK_EQ_I64(pqt_vdec_skip(vd, 1), PQT_MISUSE);
    CHECK_OK(pqt_vdec_init(vd, PQT_ENC_PLAIN, PQT_PT_INT32, 0, ba, 12, 3, NULL));
    CHECK_EQ_I64(pqt_vdec_decode_codes(vd, 1, codes), PQT_MISUSE);
    CHECK_EQ_I64(pqt_vdec_decode_ba(vd, 1, &bo), PQT_MISUSE);
    CHECK_EQ_I64(pqt_vdec_init(vd, PQT_ENC_PLAIN, PQT_PT_FIXED_LEN_BYTE_ARRAY, 0, ba, 12, 3,
                               NULL), PQT_CORRUPT);
    CHECK_EQ_I64(pqt_ptype_nbytes(PQT_PT_INT96, 0), 12);
    CHECK_EQ_I64(pqt_ptype_nbytes(PQT_PT_BYTE_ARRAY, 0), 0);
    CHECK_EQ_I64(pqt_ptype_nbytes(PQT_PT_FIXED_LEN_BYTE_ARRAY, 5), 5);
}

int main(void)
{
    pqt_vdec *vd;
    CHECK_OK(pqt_vdec_new(&vd));
    check_type(vd, PQT_PT_BOOLEAN, 0);
    check_type(vd, PQT_PT_INT32, 0);
    check_type(vd, PQT_PT_INT64, 0);
    check_type(vd, PQT_PT_INT96, 0);
    check_type(vd, PQT_PT_FLOAT, 0);
    check_type(vd, PQT_PT_DOUBLE, 0);
    check_type(vd, PQT_PT_BYTE_ARRAY, 0);
    for (int tl = 1; tl <= 20; tl += 3) check_type(vd, PQT_PT_FIXED_LEN_BYTE_ARRAY, tl);
    check_type(vd, PQT_PT_FIXED_LEN_BYTE_ARRAY, 16);
    check_errors(vd);
    pqt_vdec_free(vd);
    pqt_vdec_free(NULL);
    return pqt_test_done("test_plain_dict");
}
