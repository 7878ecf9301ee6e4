/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_cells.c - copies with a chosen exactness (pqt_table_copy_column_v2). Expected
 * values are computed by hand in the comments.
 */
#include <string.h>

#include "pqt.h"
#include "testutil.h"

static void test_copy_v2(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    double x[3] = {1.5, -2.25, 1e10};
    uint8_t xv = 0x05; /* row 2 null */
    CHECK_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, &xv, 3, "m"));
    /* exact: 1.5 does not survive int32; nothing is added */
    uint64_t g = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_copy_column_v2(t, "x", "xi", PQT_INT32, 1), PQT_OVERFLOW);
    CHECK(!pqt_table_has_column(t, "xi"));
    CHECK_EQ_I64(pqt_table_generation(t), g);
    /* not exact: C's rules, 1.5 -> 1, 1e10 out of int32's range -> 0; the null stays */
    CHECK_OK(pqt_table_copy_column_v2(t, "x", "xi", PQT_INT32, 0));
    int32_t got[3] = {9, 9, 9};
    uint8_t v = 0;
    CHECK_OK(pqt_table_get(t, "xi", 0, got, sizeof got, &v, 1));
    CHECK_EQ_I64(got[0], 1);
    CHECK_EQ_I64(got[1], 0);
    CHECK_EQ_I64(got[2], 0);
    CHECK_EQ_I64(v & 7, 0x05);
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, "xi", &u));
    CHECK(u && strcmp(u, "m") == 0);
    /* the old call is the exact one */
    CHECK_EQ_I64(pqt_table_copy_column(t, "x", "xj", PQT_INT64), PQT_OVERFLOW);
    CHECK_EQ_I64(pqt_table_copy_column_v2(t, "nope", "y", 0, 0), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_copy_column_v2(t, "x", "xi", 0, 0), PQT_MISUSE);
    pqt_table_close(t);
}

int main(void)
{
    test_copy_v2();
    return pqt_test_done("test_table_cells");
}
