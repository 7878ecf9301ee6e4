/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bits.c - pqt_bit_get/set/or, pqt_bits_set_range, pqt_bits_all_set and pqt_bits_copy
 * against bit-by-bit models over random bitmaps and ranges (copies between bitmaps and left
 * moves within one), and the writer paths it chooses: a column with a bitmap whose nulls sit
 * in a few places (ranges without nulls take the no-bitmap path, the rest the per-value one)
 * written with small pages and read back value by value, nulls exactly where they were.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"
#include "util/bits.h"

static uint64_t rng = 2026;

static int64_t rnd(int64_t n) { return n > 0 ? (int64_t)(pqt_test_rand(&rng) % (uint64_t)n) : 0; }

static bool model_all_set(const uint8_t *bm, int64_t start, int64_t n)
{
    for (int64_t i = start; i < start + n; i++)
        if (!(bm[i / 8] & (1u << (i % 8)))) return false;
    return true;
}

static void property(void)
{
    enum { NBITS = 1000 };
    uint8_t bm[NBITS / 8 + 1];
    int agree = 0, set = 0;
    for (int round = 0; round < 4000; round++) {
        memset(bm, 0xFF, sizeof bm);
        int nclear = (int)rnd(3); /* mostly all set: the answer must turn on one bit */
        for (int k = 0; k < nclear; k++) {
            int64_t i = rnd(NBITS);
            bm[i / 8] &= (uint8_t) ~(1u << (i % 8));
        }
        int64_t start = rnd(NBITS), n = rnd(NBITS - start + 1);
        bool want = model_all_set(bm, start, n);
        agree += pqt_bits_all_set(bm, start, n) == want;
        set += want;
    }
    CHECK_EQ_I64(agree, 4000);
    CHECK(set > 500 && set < 3500); /* both answers were asked for */
}

/* f64 with a bitmap, nulls at rows 70000..70009 and 199999 only (lists with sparse nulls:
 * test_write_roundtrip). */
static void write_read_back(void)
{
    enum { N = 200000 };
    double *x = malloc(N * sizeof *x);
    uint8_t *valid = malloc(N / 8 + 1);
    REQUIRE_OK(x && valid ? PQT_OK : PQT_NOMEM);
    memset(valid, 0xFF, N / 8 + 1);
    for (int64_t i = 0; i < N; i++) x[i] = (double)i * 0.5;
    for (int64_t i = 70000; i < 70010; i++) valid[i / 8] &= (uint8_t) ~(1u << (i % 8));
    valid[(N - 1) / 8] &= (uint8_t) ~(1u << ((N - 1) % 8));

    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, valid, N, NULL));
    char dir[] = "/tmp/pqt_test_bits_XXXXXX";
    REQUIRE_OK(mkdtemp(dir) ? PQT_OK : PQT_IO);
    char path[64];
    snprintf(path, sizeof path, "%s/x.parquet", dir);
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 4096));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 65536));
    CHECK_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);

    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    double *y = malloc(N * sizeof *y);
    uint8_t *yv = malloc(N / 8 + 1);
    REQUIRE_OK(y && yv ? PQT_OK : PQT_NOMEM);
    CHECK_OK(pqt_table_get(t, "x", 0, y, N * sizeof *y, yv, N / 8 + 1));
    int64_t bad = 0, nulls = 0;
    for (int64_t i = 0; i < N; i++) {
        bool want_null = (i >= 70000 && i < 70010) || i == N - 1;
        bool is_null = !(yv[i / 8] & (1u << (i % 8)));
        nulls += is_null;
        if (is_null != want_null || (!is_null && y[i] != (double)i * 0.5)) bad++;
    }
    CHECK_EQ_I64(bad, 0);
    CHECK_EQ_I64(nulls, 11);
    pqt_table_close(t);
    unlink(path);
    rmdir(dir);
    free(x);
    free(valid);
    free(y);
    free(yv);
}

/* pqt_bits_copy: every offset pair mod 8 and lengths across byte boundaries, between two
 * bitmaps and moved left within one; bits outside the target range must not change. */
static void copy_property(void)
{
    enum { NB = 400 };
    uint8_t src[NB / 8], dst[NB / 8], want[NB / 8];
    int bad = 0;
    for (int round = 0; round < 20000; round++) {
        for (int i = 0; i < NB / 8; i++) {
            src[i] = (uint8_t)rnd(256);
            dst[i] = (uint8_t)rnd(256);
        }
        int64_t n = rnd(NB / 2), sa = rnd(NB - n), da = rnd(NB - n);
        bool inplace = round % 3 == 0;
        if (inplace) {
            memcpy(dst, src, sizeof dst);
            if (da > sa) {
                int64_t x = da;
                da = sa;
                sa = x;
            }
        }
        memcpy(want, dst, sizeof want);
        for (int64_t i = 0; i < n; i++) { /* a forward per-bit copy: the left move's model */
            int64_t s_i = sa + i, d_i = da + i;
            int v = (inplace ? want : src)[s_i / 8] >> (s_i % 8) & 1;
            if (v) want[d_i / 8] = (uint8_t)(want[d_i / 8] | (1u << (d_i % 8)));
            else want[d_i / 8] = (uint8_t)(want[d_i / 8] & ~(1u << (d_i % 8)));
        }
        pqt_bits_copy(dst, da, inplace ? dst : src, sa, n);
        if (memcmp(dst, want, sizeof dst) != 0 && bad++ < 5)
            fprintf(stderr, "round %d: copy of %lld bits from %lld to %lld%s differs\n", round,
                    (long long)n, (long long)sa, (long long)da, inplace ? " (in place)" : "");
    }
    CHECK(bad == 0);
}

/* Pack a model (one bool per bit) as a bitmap: bit i is bit i % 8 of byte i / 8. */
static void pack_model(const bool *m, int64_t n, uint8_t *out)
{
    memset(out, 0, (size_t)(n + 7) / 8);
    for (int64_t i = 0; i < n; i++)
        if (m[i]) out[i / 8] = (uint8_t)(out[i / 8] + (1 << (i % 8)));
}

/* pqt_bit_get/set/or and pqt_bits_set_range: hand-computed bytes, then random operations
 * against a bool-per-bit model; no other bit may change. */
static void single_bits(void)
{
    uint8_t b[2] = {0, 0};
    pqt_bit_set(b, 3, true);
    pqt_bit_or(b, 9, 1);
    pqt_bit_or(b, 10, 0);
    CHECK(b[0] == 0x08 && b[1] == 0x02);
    pqt_bit_set(b, 3, false);
    CHECK(b[0] == 0x00 && b[1] == 0x02);
    CHECK(pqt_bit_get(b, 9) && !pqt_bit_get(b, 8) && !pqt_bit_get(b, 3));
    CHECK(pqt_bit_get(NULL, 12345)); /* no bitmap: every value present */
    memset(b, 0, sizeof b);
    pqt_bits_set_range(b, 5, 6); /* bits 5..10 */
    CHECK(b[0] == 0xE0 && b[1] == 0x07);

    enum { NB = 300 };
    bool m[NB];
    uint8_t bm[NB / 8 + 1], want[NB / 8 + 1];
    int bad = 0;
    for (int round = 0; round < 5000; round++) {
        for (int i = 0; i < NB; i++) m[i] = rnd(2);
        pack_model(m, NB, bm);
        int op = (int)rnd(4);
        int64_t i = rnd(NB), n = rnd(NB - i + 1);
        bool v = rnd(2);
        if (op == 0) { /* get: every bit */
            for (int64_t k = 0; k < NB; k++) bad += pqt_bit_get(bm, k) != m[k];
            continue;
        }
        if (op == 1) {
            pqt_bit_set(bm, i, v);
            m[i] = v;
        } else if (op == 2) {
            pqt_bit_or(bm, i, v);
            m[i] = m[i] || v;
        } else {
            pqt_bits_set_range(bm, i, n);
            for (int64_t k = i; k < i + n; k++) m[k] = true;
        }
        pack_model(m, NB, want);
        if (memcmp(bm, want, (NB + 7) / 8) != 0 && bad++ < 5)
            fprintf(stderr, "round %d: op %d at %lld (n %lld, v %d) differs\n", round, op,
                    (long long)i, (long long)n, v);
    }
    CHECK(bad == 0);
}

int main(void)
{
    single_bits();
    property();
    copy_property();
    write_read_back();
    return pqt_test_done("test_bits");
}
