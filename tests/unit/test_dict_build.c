/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dict_build.c - the dictionary builder (write/dict_build.c).
 *
 * Truth: a linear-search model (entries in order of first appearance, compared as bytes),
 * and the reader: the builder's dictionary page loads with pqt_dict_load to the model's
 * entries, and an RLE_DICTIONARY data page of its indices (bit width byte + the hybrid
 * encoder) decodes through pqt_vdec back to the input values. Every dictionary type, runs
 * and noise, batches of many sizes, -0.0 / 0.0 and NaN payloads as distinct entries, empty
 * strings; the byte limit refuses a batch with nothing added, also after the table grew
 * inside it; reset; misuse.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "encoding/encoding.h"
#include "format/meta.h"
#include "testutil.h"
#include "write/enc.h"

/* ---- the model: entries as byte strings, linear search ---- */
typedef struct model {
    uint8_t **vals;
    size_t *lens;
    size_t n, cap, plain;
} model;

static uint32_t model_add(model *m, const uint8_t *v, size_t len, bool is_ba)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->lens[i] == len && memcmp(m->vals[i], v, len) == 0) return (uint32_t)i;
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->vals = realloc(m->vals, m->cap * sizeof *m->vals);
        m->lens = realloc(m->lens, m->cap * sizeof *m->lens);
    }
    m->vals[m->n] = malloc(len + 1);
    memcpy(m->vals[m->n], v, len);
    m->lens[m->n] = len;
    m->plain += len + (is_ba ? 4 : 0);
    return (uint32_t)m->n++;
}

static void model_free(model *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->vals[i]);
    free(m->vals);
    free(m->lens);
    memset(m, 0, sizeof *m);
}

/* ---- inputs ---- */
typedef struct input {
    int ptype, type_len;
    size_t n, width; /* width 0: BYTE_ARRAY */
    uint8_t *fixed;  /* n * width */
    int64_t *off;    /* BYTE_ARRAY: n + 1 */
    uint8_t *data;
} input;

/* n values from a domain of `domain` distinct values, in runs when `runs`. */
static input make_input(int ptype, int type_len, size_t n, uint64_t domain, bool runs,
                        uint64_t *rng)
{
    input in = {.ptype = ptype, .type_len = type_len, .n = n};
    in.width = ptype == PQT_PT_BYTE_ARRAY ? 0 : pqt_ptype_nbytes(ptype, type_len);
    if (in.width) {
        in.fixed = malloc(n * in.width + 1);
    } else {
        in.off = malloc((n + 1) * sizeof *in.off);
        in.data = malloc(n * 24 + 1);
        in.off[0] = 0;
    }
    uint64_t key = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = pqt_test_rand(rng);
        if (!runs || r % 5 == 0) key = pqt_test_rand(rng) % domain;
        if (in.width) {
            uint8_t *p = in.fixed + i * in.width;
            /* the key spread over the bytes, high ones too (doubles differ there) */
            for (size_t b = 0; b < in.width; b++)
                p[b] = (uint8_t)((key * 0x9e3779b97f4a7c15ull) >> (8 * (b % 8))) ^ (uint8_t)b;
            if (ptype == PQT_PT_DOUBLE && key < 4) {
                const double sp[4] = {0.0, -0.0, NAN, -NAN};
                memcpy(p, &sp[key], 8);
                if (key == 3) p[0] ^= 1; /* another NaN payload */
            }
            if (ptype == PQT_PT_FLOAT && key < 3) {
                const float sp[3] = {0.0f, -0.0f, NAN};
                memcpy(p, &sp[key], 4);
            }
        } else {
            size_t len = key % 7 == 0 ? 0 : (size_t)(key % 23);
            for (size_t b = 0; b < len; b++)
                in.data[in.off[i] + b] = (uint8_t)(key >> (b % 8 * 3)) + (uint8_t)b;
            in.off[i + 1] = in.off[i] + (int64_t)len;
        }
    }
    return in;
}

static void input_free(input *in)
{
    free(in->fixed);
    free(in->off);
    free(in->data);
}

static const uint8_t *value_at(const input *in, size_t i, size_t *len)
{
    if (in->width) {
        *len = in->width;
        return in->fixed + i * in->width;
    }
    *len = (size_t)(in->off[i + 1] - in->off[i]);
    return in->data + in->off[i];
}

static int add_batch(pqt_dict_builder *b, const input *in, size_t from, size_t k, uint32_t *idx)
{
    if (in->width) return pqt_dict_builder_add_fixed(b, in->fixed + from * in->width, k, idx);
    return pqt_dict_builder_add_bytes(b, in->off + from, in->data, k, idx);
}

/* The dictionary page loads to the model; the indices as an RLE_DICTIONARY page decode to
 * the input. */
static void check_with_reader(const pqt_dict_builder *b, const model *m, const input *in,
                              const uint32_t *idx)
{
    pqt_buf page = {0};
    CHECK_OK(pqt_dict_builder_write_plain(b, &page));
    CHECK(page.len == m->plain && pqt_dict_builder_plain_nbytes(b) == m->plain);
    pqt_dict d = {0};
    CHECK_OK(pqt_dict_load(&d, in->ptype, in->type_len, page.data ? page.data : (uint8_t *)"",
                           page.len, (int64_t)m->n));
    CHECK(d.n == (int64_t)m->n);
    for (size_t e = 0; e < m->n && d.n == (int64_t)m->n; e++) {
        if (in->width) {
            CHECK(memcmp(d.values.data + e * in->width, m->vals[e], in->width) == 0);
        } else {
            CHECK(d.offsets[e + 1] - d.offsets[e] == (int64_t)m->lens[e]);
            CHECK(m->lens[e] == 0 ||
                  memcmp(d.values.data + d.offsets[e], m->vals[e], m->lens[e]) == 0);
        }
    }
    const uint8_t *data;
    const int64_t *offs;
    pqt_dict_builder_entries(b, &data, &offs);
    CHECK(!in->width == !!offs);

    /* the data page */
    pqt_buf dp = {0};
    int w = pqt_enc_bit_width(m->n ? m->n - 1 : 0);
    uint8_t wb = (uint8_t)w;
    CHECK_OK(pqt_buf_append(&dp, &wb, 1));
    CHECK_OK(pqt_enc_rle_hybrid(&dp, idx, in->n, w));
    pqt_vdec *v = NULL;
    REQUIRE_OK(pqt_vdec_new(&v));
    CHECK_OK(pqt_vdec_init(v, PQT_ENC_RLE_DICTIONARY, in->ptype, in->type_len, dp.data, dp.len,
                           (int64_t)in->n, &d));
    if (in->width) {
        uint8_t *got = malloc(in->n * in->width + 1);
        CHECK_OK(pqt_vdec_decode(v, (int64_t)in->n, got));
        CHECK(memcmp(got, in->fixed, in->n * in->width) == 0);
        free(got);
    } else {
        pqt_buf bytes = {0};
        int64_t *ends = malloc((in->n + 1) * sizeof *ends);
        pqt_ba_out o = {&bytes, ends};
        CHECK_OK(pqt_vdec_decode_ba(v, (int64_t)in->n, &o));
        int64_t prev = 0;
        size_t bad = in->n;
        for (size_t i = 0; i < in->n; i++) {
            size_t len;
            const uint8_t *want = value_at(in, i, &len);
            if (bad == in->n && ((size_t)(ends[i] - prev) != len ||
                                 (len && memcmp(bytes.data + prev, want, len) != 0)))
                bad = i;
            prev = ends[i];
        }
        CHECK(bad == in->n);
        pqt_buf_free(&bytes);
        free(ends);
    }
    pqt_vdec_free(v);
    pqt_dict_free(&d);
    pqt_buf_free(&dp);
    pqt_buf_free(&page);
}

static void run_case(int ptype, int type_len, size_t n, uint64_t domain, bool runs, uint64_t *rng)
{
    input in = make_input(ptype, type_len, n, domain, runs, rng);
    pqt_dict_builder *b = NULL;
    REQUIRE_OK(pqt_dict_builder_new(&b, ptype, type_len, SIZE_MAX));
    uint32_t *idx = malloc((n + 1) * sizeof *idx);
    model m = {0};
    for (int round = 0; round < 2; round++) { /* the second after a reset */
        size_t i = 0;
        while (i < n) {
            size_t k = 1 + pqt_test_rand(rng) % 700;
            if (k > n - i) k = n - i;
            CHECK_OK(add_batch(b, &in, i, k, idx + i));
            i += k;
        }
        size_t bad = n;
        for (size_t j = 0; j < n; j++) {
            size_t len;
            const uint8_t *v = value_at(&in, j, &len);
            if (model_add(&m, v, len, !in.width) != idx[j] && bad == n) bad = j;
        }
        if (bad != n)
            fprintf(stderr, "  ptype %d n %zu domain %llu: index %zu is %u\n", ptype, n,
                    (unsigned long long)domain, bad, idx[bad]);
        CHECK(bad == n);
        CHECK_EQ_I64(pqt_dict_builder_count(b), m.n);
        check_with_reader(b, &m, &in, idx);
        pqt_dict_builder_reset(b);
        CHECK_EQ_I64(pqt_dict_builder_count(b), 0);
        CHECK_EQ_I64(pqt_dict_builder_plain_nbytes(b), 0);
        model_free(&m);
    }
    pqt_dict_builder_free(b);
    free(idx);
    input_free(&in);
}

static void test_types(void)
{
    static const struct {
        int ptype, type_len;
    } types[] = {{PQT_PT_INT32, 0},
                 {PQT_PT_INT64, 0},
                 {PQT_PT_FLOAT, 0},
                 {PQT_PT_DOUBLE, 0},
                 {PQT_PT_BYTE_ARRAY, 0},
                 {PQT_PT_FIXED_LEN_BYTE_ARRAY, 3},
                 {PQT_PT_FIXED_LEN_BYTE_ARRAY, 16}};
    static const size_t ns[] = {0, 1, 7, 1000, 4000};
    static const uint64_t domains[] = {1, 5, 300, 100000};
    uint64_t rng = 99;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
            for (size_t d = 0; d < sizeof domains / sizeof domains[0]; d++)
                for (int runs = 0; runs < 2; runs++)
                    run_case(types[t].ptype, types[t].type_len, ns[a], domains[d], runs, &rng);
}

/* -0.0, 0.0 and two NaN payloads: four entries. */
static void test_float_bits(void)
{
    double v[8] = {0.0, -0.0, NAN, -NAN, 0.0, -0.0, NAN, -NAN};
    pqt_dict_builder *b = NULL;
    uint32_t idx[8];
    REQUIRE_OK(pqt_dict_builder_new(&b, PQT_PT_DOUBLE, 0, 1 << 20));
    CHECK_OK(pqt_dict_builder_add_fixed(b, v, 8, idx));
    CHECK_EQ_I64(pqt_dict_builder_count(b), 4);
    CHECK(idx[0] == 0 && idx[1] == 1 && idx[2] == 2 && idx[3] == 3);
    CHECK(idx[4] == 0 && idx[5] == 1 && idx[6] == 2 && idx[7] == 3);
    pqt_dict_builder_free(b);
}

static void test_limit(void)
{
    /* INT64 entries take 8 bytes: a limit of 8000 holds 1000 */
    pqt_dict_builder *b = NULL;
    REQUIRE_OK(pqt_dict_builder_new(&b, PQT_PT_INT64, 0, 8000));
    int64_t v[3000];
    uint32_t idx[3000];
    for (int i = 0; i < 3000; i++)
        v[i] = (int64_t)i * 1000003;
    CHECK_OK(pqt_dict_builder_add_fixed(b, v, 100, idx)); /* 100 entries, 256 slots */
    /* 2000 new values: the table grows inside the batch, then the limit refuses it */
    CHECK(pqt_dict_builder_add_fixed(b, v + 100, 2000, idx) == PQT_LIMIT);
    CHECK_EQ_I64(pqt_dict_builder_count(b), 100);
    CHECK_EQ_I64(pqt_dict_builder_plain_nbytes(b), 800);
    /* the old entries are found where they were, the refused ones are new again */
    CHECK_OK(pqt_dict_builder_add_fixed(b, v, 100, idx));
    int ok = 1;
    for (int i = 0; i < 100; i++)
        ok &= idx[i] == (uint32_t)i;
    CHECK(ok);
    CHECK_OK(pqt_dict_builder_add_fixed(b, v + 2000, 900, idx));
    CHECK_EQ_I64(pqt_dict_builder_count(b), 1000);
    CHECK(idx[0] == 100 && idx[899] == 999);
    /* exactly full: one more is refused, a known one is not */
    CHECK(pqt_dict_builder_add_fixed(b, v + 2900, 1, idx) == PQT_LIMIT);
    CHECK_OK(pqt_dict_builder_add_fixed(b, v + 5, 1, idx));
    CHECK(idx[0] == 5);
    pqt_buf page = {0};
    CHECK_OK(pqt_dict_builder_write_plain(b, &page));
    CHECK(page.len == 8000);
    CHECK(memcmp(page.data, v, 800) == 0 && memcmp(page.data + 800, v + 2000, 7200) == 0);
    pqt_buf_free(&page);
    pqt_dict_builder_free(b);

    /* BYTE_ARRAY: 4 + length per entry */
    REQUIRE_OK(pqt_dict_builder_new(&b, PQT_PT_BYTE_ARRAY, 0, 20));
    static const int64_t off[5] = {0, 3, 6, 6, 9};
    static const uint8_t data[] = "abcdefghi";
    CHECK_OK(pqt_dict_builder_add_bytes(b, off, data, 2, idx)); /* "abc" "def": 14 bytes */
    CHECK(pqt_dict_builder_add_bytes(b, off + 2, data, 2, idx) == PQT_LIMIT); /* "" "ghi" */
    CHECK_EQ_I64(pqt_dict_builder_plain_nbytes(b), 14);
    CHECK_OK(pqt_dict_builder_add_bytes(b, off + 2, data, 1, idx)); /* "": 18 */
    CHECK(idx[0] == 2);
    CHECK_EQ_I64(pqt_dict_builder_plain_nbytes(b), 18);
    pqt_dict_builder_free(b);
}

static void test_misuse(void)
{
    pqt_dict_builder *b = NULL;
    CHECK(pqt_dict_builder_new(&b, PQT_PT_BOOLEAN, 0, 100) == PQT_MISUSE);
    CHECK(pqt_dict_builder_new(&b, PQT_PT_INT96, 0, 100) == PQT_MISUSE);
    CHECK(pqt_dict_builder_new(&b, PQT_PT_FIXED_LEN_BYTE_ARRAY, 0, 100) == PQT_MISUSE);
    REQUIRE_OK(pqt_dict_builder_new(&b, PQT_PT_FIXED_LEN_BYTE_ARRAY, 2, 100));
    static const int64_t off[3] = {0, 2, 5};
    uint32_t idx[2];
    CHECK(pqt_dict_builder_add_bytes(b, off, (const uint8_t *)"abcde", 2, idx) == PQT_MISUSE);
    CHECK_OK(pqt_dict_builder_add_bytes(b, off, (const uint8_t *)"abcde", 1, idx));
    CHECK_EQ_I64(pqt_dict_builder_count(b), 1);
    pqt_dict_builder_free(b);
    REQUIRE_OK(pqt_dict_builder_new(&b, PQT_PT_BYTE_ARRAY, 0, 100));
    CHECK(pqt_dict_builder_add_fixed(b, "abcd", 1, idx) == PQT_MISUSE);
    pqt_dict_builder_free(b);
}

int main(void)
{
    test_types();
    test_float_bits();
    test_limit();
    test_misuse();
    return pqt_test_done("test_dict_build");
}
