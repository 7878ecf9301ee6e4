/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_dropna.c - pqt_table_dropna: any / all / at least k present, named or resident
 * columns, a name given twice counted once, vectors (a null element nulls the row), refusals
 * changing nothing. Expected rows are worked out by hand in the comments.
 */
#include <string.h>

#include "pqt.h"
#include "testutil.h"

/* a: rows 2, 4 null; b: rows 3, 4 null; c: no null; v: width 2, row 1's second element null.
 * Present per row (a, b, c): r1 3, r2 2, r3 2, r4 1, r5 3. */
static pqt_table *five(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t a[5] = {1, 2, 3, 4, 5}, c[5] = {1, 2, 3, 4, 5};
    double b[5] = {.5, 1.5, 2.5, 3.5, 4.5};
    float v[10] = {0};
    uint8_t av = 0x15, bv = 0x13, vv = 0xfd;
    uint8_t vvs[2] = {vv, 0xff};
    CHECK_OK(pqt_table_add_column(t, "a", PQT_INT32, 1, a, &av, 5, NULL));
    CHECK_OK(pqt_table_add_column(t, "b", PQT_FLOAT64, 1, b, &bv, 5, NULL));
    CHECK_OK(pqt_table_add_column(t, "c", PQT_INT32, 1, c, NULL, 5, NULL));
    CHECK_OK(pqt_table_add_column(t, "v", PQT_FLOAT32 | PQT_VECTOR, 2, v, vvs, 5, NULL));
    return t;
}

/* The values of int32 column name (c holds the row numbers) as one number: 1,3,5 -> 135. */
static long long ids(pqt_table *t, const char *name)
{
    int32_t got[5] = {0};
    int64_t n = pqt_table_nrows(t);
    CHECK_OK(pqt_table_get(t, name, 0, got, (size_t)n * sizeof got[0], NULL, 0));
    long long r = 0;
    for (int64_t i = 0; i < n; i++)
        r = r * 10 + got[i];
    return r;
}

int main(void)
{
    const char *ab[2] = {"a", "b"}, *abc[3] = {"a", "b", "c"}, *aa[2] = {"a", "a"};
    const char *miss[3] = {"a", "zz", "yy"}, *cv[2] = {"c", "v"};
    /* every resident column, any null: rows 1 (v null), 2, 3, 4 go; row 5 stays */
    pqt_table *t = five();
    CHECK_OK(pqt_table_dropna(t, NULL, 0, -1));
    CHECK_EQ_I64(ids(t, "c"), 5);
    pqt_table_close(t);
    /* a and b, all null: row 4 goes */
    t = five();
    CHECK_OK(pqt_table_dropna(t, ab, 2, 1));
    CHECK_EQ_I64(ids(t, "c"), 1235);
    pqt_table_close(t);
    /* a, b, c, at least 2 present: row 4 (1 present) goes */
    t = five();
    CHECK_OK(pqt_table_dropna(t, abc, 3, 2));
    CHECK_EQ_I64(ids(t, "c"), 1235);
    pqt_table_close(t);
    /* a named twice counts once: any -> rows 2, 4 go; at least 2 of one column -> none stay */
    t = five();
    CHECK_OK(pqt_table_dropna(t, aa, 2, -1));
    CHECK_EQ_I64(ids(t, "c"), 135);
    CHECK_OK(pqt_table_dropna(t, aa, 2, 2));
    CHECK_EQ_I64(pqt_table_nrows(t), 0);
    pqt_table_close(t);
    /* a vector row with a null element is a null row */
    t = five();
    CHECK_OK(pqt_table_dropna(t, cv, 2, -1));
    CHECK_EQ_I64(ids(t, "c"), 2345);
    pqt_table_close(t);
    /* refusals and no-ops change nothing */
    t = five();
    uint64_t g = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_dropna(t, miss, 3, -1), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "'zz'") && strstr(pqt_errmsg(), "'yy'"));
    CHECK_EQ_I64(pqt_table_dropna(t, ab, 2, -2), PQT_MISUSE);
    CHECK_OK(pqt_table_dropna(t, ab, 2, 0));
    CHECK_OK(pqt_table_dropna(t, ab, 0, -1));
    const char *conly[1] = {"c"};
    CHECK_OK(pqt_table_dropna(t, conly, 1, -1));
    CHECK_EQ_I64(pqt_table_nrows(t), 5);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_table_close(t);
    return pqt_test_done("test_table_dropna");
}
