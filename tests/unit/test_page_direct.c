/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page_direct.c - decompressing PLAIN pages straight into the column.
 *
 * Builds v1 page bodies [level length][RLE/bit-packed definition levels][PLAIN doubles],
 * compresses them with libsnappy itself, and checks pqt_page_decode_direct against the
 * plain model: random doubles (snappy stores them as literals: the in-place path), a page
 * with nulls (values spread, validity set), repetitive data (snappy uses copies: the path
 * must decline and write nothing), a values-only stream through the codec, and damaged
 * literal headers (a clear error, nothing read past the input). Then zstd pages of a column
 * whose statistics promise no null: the stream is written ending at the values' place, the
 * level prefix lands on the rows before and must be put back; a page that has nulls after all
 * must decline and leave the rows before intact.
 */
#include <snappy-c.h>
#include <zstd.h>
#include <stdlib.h>
#include <string.h>

#include "column/column_int.h"
#include "testutil.h"

static uint64_t rng = 99;

/* Page body: 4-byte length, levels (one RLE run of 1s, or bit-packed), n values (present ones). */
static size_t make_page(uint8_t *out, const double *vals, const uint8_t *present, int n)
{
    uint8_t lv[4096];
    size_t lvn = 0;
    int all = 1;
    for (int i = 0; i < n; i++) all &= present[i];
    if (all) {
        lv[lvn++] = (uint8_t)(n << 1); /* RLE run header (n < 64), value 1 */
        lv[lvn++] = 1;
    } else {
        int groups = (n + 7) / 8;
        lv[lvn++] = (uint8_t)((groups << 1) | 1); /* bit-packed, width 1 */
        for (int g = 0; g < groups; g++) {
            uint8_t b = 0;
            for (int k = 0; k < 8 && g * 8 + k < n; k++) b |= (uint8_t)(present[g * 8 + k] << k);
            lv[lvn++] = b;
        }
    }
    memcpy(out, &(uint32_t){(uint32_t)lvn}, 4);
    memcpy(out + 4, lv, lvn);
    size_t pos = 4 + lvn;
    for (int i = 0; i < n; i++)
        if (present[i]) {
            memcpy(out + pos, &vals[i], 8);
            pos += 8;
        }
    return pos;
}

int main(void)
{
    pqt_chunk_ctx *cx;
    CHECK_OK(pqt_chunk_ctx_new(&cx));
    pqt_col col = {.path = "x", .kind = PQT_FLOAT64, .elem_kind = PQT_FLOAT64, .width = 1,
                   .nullable = true, .max_def = 1, .conv = PQT_CONV_NONE};
    enum { N = 48 };
    double vals[N];
    uint8_t present[N], raw[4096], comp[8192];
    for (int trial = 0; trial < 3; trial++) {
        for (int i = 0; i < N; i++) {
            uint64_t r = pqt_test_rand(&rng);
            memcpy(&vals[i], &r, 8);
            if (vals[i] != vals[i]) vals[i] = (double)i; /* keep NaN out of == checks */
            present[i] = trial == 0 ? 1 : (uint8_t)(r % 3 != 0);
            if (trial == 2) vals[i] = 1.5; /* repetitive: snappy emits copies */
        }
        size_t rn = make_page(raw, vals, present, N);
        size_t cn = sizeof comp;
        CHECK(snappy_compress((const char *)raw, rn, (char *)comp, &cn) == SNAPPY_OK);
        pqt_colbuf b;
        CHECK_OK(pqt_colbuf_alloc(&b, &col, N + 4, 0, NULL));
        memset(b.data, 0x5a, (size_t)(N + 4) * 8);
        pqt_page_direct pd = {.src = comp, .src_nbytes = cn, .uncompressed_nbytes = (int64_t)rn,
                              .encoding = PQT_ENC_PLAIN, .max_def = 1, .nrows = N};
        pqt_status st = pqt_page_decode_direct(cx, &col, PQT_PT_DOUBLE, PQT_CODEC_SNAPPY, &pd, &b, 2);
        const double *d = b.data;
        if (trial < 2) {
            CHECK_OK(st);
            for (int i = 0; i < N; i++) {
                int bit = (b.validity[(i + 2) >> 3] >> ((i + 2) & 7)) & 1;
                CHECK_EQ_I64(bit, present[i]);
                if (present[i]) CHECK(d[i + 2] == vals[i]);
                else CHECK(d[i + 2] == 0.0);
            }
            uint64_t guard;
            memcpy(&guard, &d[0], 8);
            CHECK(guard == 0x5a5a5a5a5a5a5a5aULL); /* rows before the page untouched */
        } else {
            CHECK_EQ_I64(st, PQT_NOT_FOUND);
            uint64_t guard;
            memcpy(&guard, &d[2], 8);
            CHECK(guard == 0x5a5a5a5a5a5a5a5aULL); /* declined: nothing written */
        }
        pqt_colbuf_free(&b);
    }

    /* values only (a required column): the codec writes straight into place */
    pqt_col req = col;
    req.max_def = 0;
    req.nullable = false;
    size_t cn = sizeof comp;
    CHECK(snappy_compress((const char *)vals, sizeof vals, (char *)comp, &cn) == SNAPPY_OK);
    pqt_colbuf b;
    CHECK_OK(pqt_colbuf_alloc(&b, &req, N, 0, NULL));
    pqt_page_direct pd = {.src = comp, .src_nbytes = cn, .uncompressed_nbytes = sizeof vals,
                          .values_only = true, .encoding = PQT_ENC_PLAIN, .nrows = N, .nvalues = N};
    CHECK_OK(pqt_page_decode_direct(cx, &req, PQT_PT_DOUBLE, PQT_CODEC_SNAPPY, &pd, &b, 0));
    CHECK(memcmp(b.data, vals, sizeof vals) == 0);
    pqt_colbuf_free(&b);

    /* damaged literal: a length running past the input is corrupt, not a read past it */
    for (int i = 0; i < N; i++) present[i] = 1;
    for (int i = 0; i < N; i++) vals[i] = (double)pqt_test_rand(&rng);
    size_t rn = make_page(raw, vals, present, N);
    cn = sizeof comp;
    CHECK(snappy_compress((const char *)raw, rn, (char *)comp, &cn) == SNAPPY_OK);
    for (size_t cut = 1; cut < cn; cut += 7) {
        uint8_t *copy = malloc(cut);
        memcpy(copy, comp, cut);
        CHECK_OK(pqt_colbuf_alloc(&b, &col, N, 0, NULL));
        pqt_page_direct p2 = {.src = copy, .src_nbytes = cut, .uncompressed_nbytes = (int64_t)rn,
                              .encoding = PQT_ENC_PLAIN, .max_def = 1, .nrows = N};
        pqt_status st = pqt_page_decode_direct(cx, &col, PQT_PT_DOUBLE, PQT_CODEC_SNAPPY, &p2, &b, 0);
        CHECK(st == PQT_CORRUPT || st == PQT_NOT_FOUND);
        pqt_colbuf_free(&b);
        free(copy);
    }
    /* zstd, levels before values, rows before this page owned by this thread */
    for (int nulls = 0; nulls < 2; nulls++) {
        for (int i = 0; i < N; i++) {
            vals[i] = (double)pqt_test_rand(&rng) / 3.0;
            present[i] = nulls ? (uint8_t)(i % 5 != 0) : 1;
        }
        size_t zraw = make_page(raw, vals, present, N);
        size_t zn = ZSTD_compress(comp, sizeof comp, raw, zraw, 3);
        CHECK(!ZSTD_isError(zn));
        CHECK_OK(pqt_colbuf_alloc(&b, &col, N + 8, 0, NULL));
        double *d = b.data;
        for (int i = 0; i < 8; i++) d[i] = 1000.0 + i; /* the rows before: must survive */
        pqt_page_direct pz = {.src = comp, .src_nbytes = zn, .uncompressed_nbytes = (int64_t)zraw,
                              .encoding = PQT_ENC_PLAIN, .max_def = 1, .nrows = N,
                              .expect_no_nulls = true, .owns_rows_before = true};
        pqt_status st = pqt_page_decode_direct(cx, &col, PQT_PT_DOUBLE, PQT_CODEC_ZSTD, &pz, &b, 8);
        for (int i = 0; i < 8; i++) CHECK(d[i] == 1000.0 + i);
        if (!nulls) {
            CHECK_OK(st);
            for (int i = 0; i < N; i++) CHECK(d[8 + i] == vals[i]);
            for (int i = 0; i < N; i++) CHECK((b.validity[(8 + i) >> 3] >> ((8 + i) & 7)) & 1);
        } else {
            CHECK_EQ_I64(st, PQT_NOT_FOUND); /* the common path takes it from here */
        }
        /* not owning the rows before (a parallel read): never attempted */
        pz.owns_rows_before = false;
        CHECK_EQ_I64(pqt_page_decode_direct(cx, &col, PQT_PT_DOUBLE, PQT_CODEC_ZSTD, &pz, &b, 8),
                     PQT_NOT_FOUND);
        pqt_colbuf_free(&b);
    }
    pqt_chunk_ctx_free(cx);
    return pqt_test_done("test_page_direct");
}
