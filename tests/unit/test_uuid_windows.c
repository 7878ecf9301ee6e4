/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_uuid_windows.c - a UUID column (FIXED_LEN_BYTE_ARRAY(16), read as 36-character text)
 * read in parallel row-group windows: each window is sized from its chunk, and a UUID's text
 * is larger than its stored bytes (a sorted open failed with "bytes do not fit").
 *
 * tests/data/uuid_sort.parquet (DuckDB, tests/data/make_uuid_sort.mjs): 8000 rows in four
 * row groups; i = 0..7999, u = the UUID spelled by md5(i), NULL when i % 5 == 0. The model
 * is the same column read serially (one thread), which takes no window; a sort by i keeps
 * file order, so the two must agree row for row, and every value is 36 characters.
 */
#include <stdio.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define FILE_UUID "tests/data/uuid_sort.parquet"
#define NROWS 8000

typedef struct strings {
    int64_t *off;
    char *bytes;
    uint8_t *valid;
    int64_t n;
} strings;

static void read_u(int threads, const char *sort, strings *out)
{
    pqt_opts *o;
    pqt_table *t;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (sort) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_SORT, sort));
    REQUIRE_OK(pqt_table_open(FILE_UUID, o, &t));
    REQUIRE_OK(pqt_table_get_strings_alloc(t, "u", &out->off, &out->bytes, &out->valid,
                                           &out->n));
    pqt_table_close(t);
    pqt_opts_free(o);
}

static int valid_at(const uint8_t *v, int64_t i) { return !v || ((v[i >> 3] >> (i & 7)) & 1); }

int main(void)
{
    strings serial, sorted, plain;
    read_u(1, NULL, &serial);
    read_u(2, "i", &sorted);
    read_u(2, NULL, &plain);
    CHECK_EQ_I64(serial.n, NROWS);
    int64_t nnull = 0, bad_len = 0;
    for (int64_t r = 0; r < NROWS; r++) {
        int v = valid_at(serial.valid, r);
        nnull += !v;
        if (v && serial.off[r + 1] - serial.off[r] != 36) bad_len++;
    }
    CHECK_EQ_I64(nnull, NROWS / 5);
    CHECK_EQ_I64(bad_len, 0);
    const strings *got[2] = {&sorted, &plain};
    for (int k = 0; k < 2; k++) {
        CHECK_EQ_I64(got[k]->n, NROWS);
        int64_t diff = 0;
        for (int64_t r = 0; r < NROWS && got[k]->n == NROWS; r++) {
            int a = valid_at(serial.valid, r), b = valid_at(got[k]->valid, r);
            int64_t la = serial.off[r + 1] - serial.off[r], lb = got[k]->off[r + 1] - got[k]->off[r];
            if (a != b || (a && (la != lb || memcmp(serial.bytes + serial.off[r],
                                                    got[k]->bytes + got[k]->off[r], (size_t)la))))
                diff++;
        }
        CHECK_EQ_I64(diff, 0);
    }
    strings *all[3] = {&serial, &sorted, &plain};
    for (int k = 0; k < 3; k++) {
        pqt_free(all[k]->off);
        pqt_free(all[k]->bytes);
        pqt_free(all[k]->valid);
    }
    return pqt_test_done("test_uuid_windows");
}
