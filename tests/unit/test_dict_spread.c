/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dict_spread.c - dictionary pages with nulls, placed value by value in one pass.
 *
 * A dictionary of 3 doubles and a data page of bit-packed codes (width 2) over 16 rows with
 * nulls go through the flat-page emitter: each present row must get dict[code] and each
 * null row 0 with its validity bit clear; a code of 3 (one past the dictionary) must be a
 * PQT_CORRUPT naming the index, found in the same pass.
 */
#include <string.h>

#include "column/column_int.h"
#include "testutil.h"

static void run(uint8_t bad_code)
{
    pqt_chunk_ctx *cx;
    CHECK_OK(pqt_chunk_ctx_new(&cx));
    const double dict_vals[3] = {1.5, -2.25, 1e300};
    CHECK_OK(pqt_dict_load(&cx->dict, PQT_PT_DOUBLE, 0, (const uint8_t *)dict_vals,
                           sizeof dict_vals, 3));
    cx->have_dict = true;
    /* 16 rows, every third null: 11 present values */
    uint8_t present[16];
    int npresent = 0;
    for (int i = 0; i < 16; i++) npresent += present[i] = (uint8_t)(i % 3 != 0);
    uint8_t codes[16];
    for (int i = 0; i < npresent; i++) codes[i] = (uint8_t)(i % 3);
    if (bad_code) codes[7] = bad_code;
    /* page: bit width 2, one bit-packed run of 2 groups of 8 (16 codes, 11 used) */
    uint8_t page[1 + 1 + 4];
    page[0] = 2;
    page[1] = (uint8_t)((2 << 1) | 1);
    memset(page + 2, 0, 4);
    for (int i = 0; i < npresent; i++) page[2 + i / 4] |= (uint8_t)(codes[i] << (2 * (i % 4)));
    pqt_page_view pv = {.values = page, .values_nbytes = sizeof page,
                        .encoding = PQT_ENC_RLE_DICTIONARY, .nlevels = 16, .nrows = 16,
                        .nvalues = npresent, .present = present};
    pqt_col col = {.path = "x", .kind = PQT_FLOAT64, .elem_kind = PQT_FLOAT64, .width = 1,
                   .nullable = true, .max_def = 1, .conv = PQT_CONV_NONE};
    pqt_colbuf b;
    CHECK_OK(pqt_colbuf_alloc(&b, &col, 16, 0, NULL));
    pqt_sel all = {0};
    pqt_sel_init_all(&all, 16);
    int64_t out_row = 0;
    pqt_status st = pqt_page_emit_flat(cx, &col, PQT_PT_DOUBLE, 0, &pv, &all, 0, &b, &out_row);
    if (bad_code) {
        CHECK_EQ_I64(st, PQT_CORRUPT);
        CHECK(strstr(pqt_errmsg(), "dictionary index 3 out of range") != NULL);
    } else {
        CHECK_OK(st);
        const double *d = b.data;
        for (int i = 0, j = 0; i < 16; i++) {
            int bit = (b.validity[i >> 3] >> (i & 7)) & 1;
            CHECK_EQ_I64(bit, present[i]);
            if (present[i]) CHECK(d[i] == dict_vals[codes[j++]]);
            else CHECK(d[i] == 0.0);
        }
    }
    pqt_colbuf_free(&b);
    pqt_chunk_ctx_free(cx);
}

int main(void)
{
    run(0);
    run(3);
    return pqt_test_done("test_dict_spread");
}
