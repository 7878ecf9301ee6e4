/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_get_nulls.c - copies out of a table zero the slots of null elements and copy
 * validity bits exactly, wherever the nulls sit: copies skip whole 64-bit words of present
 * elements and copy validity a byte at a time when both ends are byte-aligned, so windows
 * start at every offset inside a word and nulls sit just before, on and after word edges.
 *
 * Truth: the values and null positions put into an in-memory table (pqt_table_add_column),
 * so every expected element and bit is known by construction.
 */
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define NROWS 1000

/* 0-based rows that are null in the sparse column: word edges, a byte edge, the ends. */
static const int64_t NULLS[] = {0, 7, 8, 63, 64, 127, 130, 500, 511, 512, 998, 999};

static int bit(const uint8_t *v, int64_t i) { return v[i >> 3] >> (i & 7) & 1; }

static int is_null(int64_t row)
{
    for (size_t k = 0; k < sizeof NULLS / sizeof NULLS[0]; k++)
        if (NULLS[k] == row) return 1;
    return 0;
}

/* get_range of rows lo..hi (1-based) as int32 and widened to int64: values (0 for nulls, the
 * destination pre-filled with garbage) and validity bits against the construction. */
static void check_window(pqt_table *t, int64_t lo, int64_t hi)
{
    int64_t n = hi - lo + 1;
    int32_t d32[NROWS];
    int64_t d64[NROWS];
    uint8_t v[NROWS / 8 + 1];
    memset(d32, 0x5a, sizeof d32);
    memset(d64, 0x5a, sizeof d64);
    memset(v, 0xa5, sizeof v);
    CHECK_OK(pqt_table_get_range(t, "q", lo, hi, 0, d32, sizeof d32, v, sizeof v));
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t row = lo - 1 + i;
        int null = is_null(row);
        bad += d32[i] != (null ? 0 : (int32_t)(row * 3 + 1)) || bit(v, i) != !null;
    }
    memset(v, 0x5a, sizeof v);
    CHECK_OK(pqt_table_get_range(t, "q", lo, hi, PQT_INT64, d64, sizeof d64, v, sizeof v));
    for (int64_t i = 0; i < n; i++) {
        int64_t row = lo - 1 + i;
        int null = is_null(row);
        bad += d64[i] != (null ? 0 : row * 3 + 1) || bit(v, i) != !null;
    }
    if (bad) fprintf(stderr, "window %lld..%lld: %d wrong\n", (long long)lo, (long long)hi, bad);
    CHECK(bad == 0);
}

/* get_alloc hands out a validity bitmap exactly when some element is null, however far the
 * only null is from the start. */
static void check_alloc_one_null(int64_t null_row)
{
    pqt_table *t = NULL;
    int32_t data[NROWS];
    uint8_t valid[NROWS / 8 + 1];
    memset(valid, 0xff, sizeof valid);
    for (int64_t i = 0; i < NROWS; i++) data[i] = (int32_t)i;
    if (null_row >= 0) valid[null_row >> 3] = (uint8_t)(valid[null_row >> 3] & ~(1u << (null_row & 7)));
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, "c", PQT_INT32, 1, data, valid, NROWS, NULL));
    void *d = NULL;
    uint8_t *v = NULL;
    int64_t n = 0;
    CHECK_OK(pqt_table_get_alloc(t, "c", 0, &d, &v, &n));
    CHECK_EQ_I64(n, NROWS);
    CHECK((v != NULL) == (null_row >= 0));
    int bad = 0;
    for (int64_t i = 0; d && i < NROWS; i++) {
        bad += ((const int32_t *)d)[i] != (i == null_row ? 0 : (int32_t)i);
        if (v) bad += bit(v, i) != (i != null_row);
    }
    CHECK(bad == 0);
    pqt_free(d);
    pqt_free(v);
    pqt_table_close(t);
}

int main(void)
{
    pqt_table *t = NULL;
    int32_t data[NROWS];
    uint8_t valid[NROWS / 8 + 1];
    memset(valid, 0, sizeof valid);
    for (int64_t i = 0; i < NROWS; i++) {
        data[i] = is_null(i) ? 12345 : (int32_t)(i * 3 + 1); /* a null's slot holds garbage */
        if (!is_null(i)) valid[i >> 3] = (uint8_t)(valid[i >> 3] | (1u << (i & 7)));
    }
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, "q", PQT_INT32, 1, data, valid, NROWS, NULL));

    /* every start offset within two words, short and long windows */
    for (int64_t lo = 1; lo <= 140; lo++) {
        check_window(t, lo, lo);
        check_window(t, lo, lo + 70 < NROWS ? lo + 70 : NROWS);
        check_window(t, lo, NROWS);
    }
    check_window(t, 449, 600); /* byte-aligned start over the 511/512 pair */
    check_window(t, 993, 1000);

    for (int64_t row = -1; row < NROWS; row += (row < 70 ? 1 : 97)) check_alloc_one_null(row);
    check_alloc_one_null(NROWS - 1);
    pqt_table_close(t);
    return pqt_test_done("test_table_get_nulls");
}
