/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_cells.c - copies with a chosen exactness (pqt_table_copy_column) and values
 * written into chosen rows (pqt_table_set_rows: order, repeats, nulls, refusals, vectors).
 * Expected values are computed by hand in the comments.
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
    CHECK_EQ_I64(pqt_table_copy_column(t, "x", "xi", PQT_INT32, 1), PQT_OVERFLOW);
    CHECK(!pqt_table_has_column(t, "xi"));
    CHECK_EQ_I64(pqt_table_generation(t), g);
    /* not exact: C's rules, 1.5 -> 1, 1e10 out of int32's range -> 0; the null stays */
    CHECK_OK(pqt_table_copy_column(t, "x", "xi", PQT_INT32, 0));
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
    CHECK_EQ_I64(pqt_table_copy_column(t, "x", "xj", PQT_INT64, 1), PQT_OVERFLOW);
    CHECK_EQ_I64(pqt_table_copy_column(t, "nope", "y", 0, 0), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_copy_column(t, "x", "xi", 0, 0), PQT_MISUSE);
    pqt_table_close(t);
}

static void test_set_rows(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t a[5] = {1, 2, 3, 4, 5};
    uint8_t av = 0x1b; /* row 3 null */
    CHECK_OK(pqt_table_add_column(t, "a", PQT_INT32, 1, a, &av, 5, NULL));
    double d[2] = {0};
    CHECK_OK(pqt_table_add_column(t, "d", PQT_FLOAT64, 1, (double[5]){0}, NULL, 5, NULL));
    /* refusals change nothing: a row outside, a size that is not n elements, a string */
    uint64_t g = pqt_table_generation(t);
    int64_t bad[2] = {2, 6};
    int32_t two[2] = {70, 80};
    CHECK_EQ_I64(pqt_table_set_rows(t, "a", bad, 2, two, sizeof two, NULL, 1), PQT_RANGE);
    CHECK(strstr(pqt_errmsg(), "row 6") != NULL);
    CHECK_EQ_I64(pqt_table_set_rows(t, "a", bad, 1, two, sizeof two, NULL, 1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_set_rows(t, "d", bad, 1, two, 4, NULL, 1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_set_rows(t, "nope", bad, 1, two, 4, NULL, 1), PQT_NOT_FOUND);
    int32_t got[5];
    uint8_t v = 0;
    CHECK_OK(pqt_table_get(t, "a", 0, got, sizeof got, &v, 1));
    CHECK_EQ_I64(got[1], 2);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    /* rows 4, 1, 4: row 4 keeps the last write (30); a written null row (3) becomes present
     * under modify_nulls */
    int64_t r1[4] = {4, 1, 4, 3};
    int32_t x1[4] = {10, 20, 30, 40};
    CHECK_OK(pqt_table_set_rows(t, "a", r1, 4, x1, sizeof x1, NULL, 1));
    CHECK_OK(pqt_table_get(t, "a", 0, got, sizeof got, &v, 1));
    CHECK_EQ_I64(got[0], 20);
    CHECK_EQ_I64(got[1], 2);
    CHECK_EQ_I64(got[2], 40);
    CHECK_EQ_I64(got[3], 30);
    CHECK_EQ_I64(got[4], 5);
    CHECK_EQ_I64(v & 0x1f, 0x1f);
    CHECK_EQ_I64(pqt_table_generation(t), g); /* in place: no structural change */
    /* validity: row 2 becomes null; modify_nulls 0 leaves row 5's flag (set null first) */
    CHECK_OK(pqt_table_set_null(t, "a", 5, 0));
    int64_t r2[2] = {2, 5};
    int32_t x2[2] = {-1, -2};
    uint8_t vv = 0x02; /* first given element null, second present */
    CHECK_OK(pqt_table_set_rows(t, "a", r2, 2, x2, sizeof x2, &vv, 0));
    CHECK_OK(pqt_table_get(t, "a", 0, got, sizeof got, &v, 1));
    CHECK_EQ_I64(v & 0x1f, 0x0d); /* rows 1, 3, 4 present; 2 nulled, 5 still null */
    CHECK_EQ_I64(pqt_table_set_rows(t, "a", r2, 2, x2, sizeof x2, NULL, 1), PQT_OK);
    CHECK_OK(pqt_table_get(t, "a", 0, got, sizeof got, &v, 1));
    CHECK_EQ_I64(v & 0x1f, 0x1f);
    CHECK_EQ_I64(got[4], -2);
    /* a first null into a column without a bitmap is a structural change */
    g = pqt_table_generation(t);
    int64_t r3 = 2;
    uint8_t zero = 0;
    d[0] = 2.5;
    CHECK_OK(pqt_table_set_rows(t, "d", &r3, 1, d, sizeof d[0], &zero, 1));
    CHECK(pqt_table_generation(t) > g);
    int isnull = 0;
    CHECK_OK(pqt_table_is_null(t, "d", 2, 0, &isnull));
    CHECK_EQ_I64(isnull, 1);
    /* a vector: the width elements of each row; strings are refused */
    float vec[6] = {1, 2, 3, 4, 5, 6};
    pqt_table *s = NULL;
    REQUIRE_OK(pqt_table_new(&s));
    CHECK_OK(pqt_table_add_column(s, "v", PQT_FLOAT32 | PQT_VECTOR, 2, vec, NULL, 3, NULL));
    int64_t r4 = 3;
    float nv[2] = {-5, -6};
    CHECK_OK(pqt_table_set_rows(s, "v", &r4, 1, nv, sizeof nv, NULL, 1));
    float gv[6];
    CHECK_OK(pqt_table_get(s, "v", 0, gv, sizeof gv, NULL, 0));
    CHECK(gv[3] == 4 && gv[4] == -5 && gv[5] == -6);
    int64_t offs[4] = {0, 1, 2, 3};
    CHECK_OK(pqt_table_add_string_column(s, "s", 1, offs, "abc", NULL, 3, NULL));
    CHECK_EQ_I64(pqt_table_set_rows(s, "s", &r4, 1, "x", 1, NULL, 1), PQT_KIND);
    pqt_table_close(s);
    pqt_table_close(t);
}

int main(void)
{
    test_copy_v2();
    test_set_rows();
    return pqt_test_done("test_table_cells");
}
