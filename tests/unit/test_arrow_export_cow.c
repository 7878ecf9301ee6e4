/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export_cow.c - exported Arrow arrays never change (issue 34): a write into a
 * column after its export (pqt_table_set_rows, set_null and clear_null on a column that
 * already has a bitmap, a write through a view taken after the export, a cast)
 * leaves the exported values as they were while the table shows the new ones; the copy is a
 * structural change (generation bumped) only when an export still reads the arrays.
 * Truth: alltypes_plain.parquet's id column is 4 5 6 7 2 3 0 1 (parquet-testing's README,
 * and `duckdb -c "select id from 'alltypes_plain.parquet'"`), written values by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/arrow_int.h"
#include "arrow_check.h"
#include "pqt_arrow.h"
#include "testutil.h"

#define PLAIN "tests/data/parquet-testing/data/alltypes_plain.parquet"

static const int32_t file_ids[8] = {4, 5, 6, 7, 2, 3, 0, 1};

static pqt_table *open_plain(void)
{
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_open(PLAIN, NULL, &t));
    return t;
}

/* Export column id as one array, validated. */
static void export_id(pqt_table *t, struct ArrowSchema *s, struct ArrowArray *a)
{
    char why[256] = "";
    CHECK_OK(pqt_table_export_arrow_array(t, "id", s, a));
    CHECK_EQ_I64(arrow_check_array(s, a, why, sizeof why), 0);
    if (why[0]) fprintf(stderr, "arrow_check: %s\n", why);
}

static int32_t arr_id(const struct ArrowArray *a, int64_t i)
{
    return ((const int32_t *)a->buffers[1])[a->offset + i];
}

static bool arr_valid(const struct ArrowArray *a, int64_t i)
{
    const uint8_t *v = a->buffers[0];
    int64_t k = a->offset + i;
    return !v || (v[k / 8] >> (k % 8)) & 1;
}

static int32_t table_id(pqt_table *t, int64_t row)
{
    int32_t v = -1;
    CHECK_OK(pqt_table_get_value(t, "id", row, 0, PQT_INT32, &v, sizeof v, NULL));
    return v;
}

/* set_rows after an export: the export keeps the file's values, the table has the new. */
static void test_set_rows(void)
{
    pqt_table *t = open_plain();
    struct ArrowSchema s;
    struct ArrowArray a;
    export_id(t, &s, &a);
    uint64_t g = pqt_table_generation(t);
    const int64_t rows[2] = {1, 8};
    const int32_t vals[2] = {100, 800};
    CHECK_OK(pqt_table_set_rows(t, "id", rows, 2, vals, sizeof vals, NULL, 0));
    CHECK(pqt_table_generation(t) == g + 1); /* the table moved to its own copy */
    for (int i = 0; i < 8; i++)
        CHECK_EQ_I64(arr_id(&a, i), file_ids[i]);
    CHECK_EQ_I64(table_id(t, 1), 100);
    CHECK_EQ_I64(table_id(t, 8), 800);
    CHECK_EQ_I64(table_id(t, 2), 5);
    /* nobody else reads the copy: the next write is in place, no structural change */
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_set_rows(t, "id", rows, 1, vals + 1, sizeof vals[1], NULL, 0));
    CHECK(pqt_table_generation(t) == g);
    CHECK_EQ_I64(table_id(t, 1), 800);
    /* a new export shows the new values */
    struct ArrowSchema s2;
    struct ArrowArray a2;
    export_id(t, &s2, &a2);
    CHECK_EQ_I64(arr_id(&a2, 0), 800);
    CHECK_EQ_I64(arr_id(&a2, 7), 800);
    CHECK_EQ_I64(arr_id(&a2, 3), 7);
    pqt_table_close(t); /* the arrays outlive the table */
    for (int i = 0; i < 8; i++)
        CHECK_EQ_I64(arr_id(&a, i), file_ids[i]);
    a.release(&a), s.release(&s), a2.release(&a2), s2.release(&s2);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* An export released before the write: nothing to protect, the write is in place. */
static void test_released_export(void)
{
    pqt_table *t = open_plain();
    struct ArrowSchema s;
    struct ArrowArray a;
    export_id(t, &s, &a);
    a.release(&a), s.release(&s);
    uint64_t g = pqt_table_generation(t);
    const int64_t row = 3;
    const int32_t v = 33;
    CHECK_OK(pqt_table_set_rows(t, "id", &row, 1, &v, sizeof v, NULL, 0));
    CHECK(pqt_table_generation(t) == g);
    CHECK_EQ_I64(table_id(t, 3), 33);
    pqt_table_close(t);
}

/* set_null / clear_null on a column that already has a bitmap: the exported bitmap and
 * null_count stay. */
static void test_nulls(void)
{
    pqt_table *t = open_plain();
    CHECK_OK(pqt_table_set_null(t, "id", 2, 0)); /* the column's first null: its bitmap */
    struct ArrowSchema s;
    struct ArrowArray a;
    export_id(t, &s, &a);
    CHECK_EQ_I64(a.null_count, 1);
    CHECK_OK(pqt_table_set_null(t, "id", 5, 0));
    CHECK_OK(pqt_table_clear_null(t, "id", 2, 0));
    for (int i = 0; i < 8; i++)
        CHECK(arr_valid(&a, i) == (i != 1));
    CHECK_EQ_I64(arr_id(&a, 4), 2);
    int is_null = -1;
    CHECK_OK(pqt_table_is_null(t, "id", 5, 0, &is_null));
    CHECK_EQ_I64(is_null, 1);
    CHECK_OK(pqt_table_is_null(t, "id", 2, 0, &is_null));
    CHECK_EQ_I64(is_null, 0);
    CHECK_EQ_I64(table_id(t, 2), 0); /* a cleared null reads 0 */
    struct ArrowSchema s2;
    struct ArrowArray a2;
    export_id(t, &s2, &a2);
    CHECK_EQ_I64(a2.null_count, 1);
    CHECK(arr_valid(&a2, 1) && !arr_valid(&a2, 4));
    a2.release(&a2), s2.release(&s2);
    a.release(&a), s.release(&s);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* A view taken after the export points at the table's own copy, so writes through it never
 * reach the export; a view taken before the export is zero copy with it, and ends (the
 * generation moves) when a view or write after the export copies. */
static void test_views(void)
{
    pqt_table *t = open_plain();
    struct ArrowSchema s;
    struct ArrowArray a;
    export_id(t, &s, &a);
    uint64_t g = pqt_table_generation(t);
    pqt_column_view v = {.struct_size = sizeof v};
    CHECK_OK(pqt_table_column(t, "id", 0, &v));
    CHECK(v.data != a.buffers[1]);
    CHECK(v.generation == g + 1 && v.generation == pqt_table_generation(t));
    ((int32_t *)(uintptr_t)v.data)[0] = -1;
    CHECK_EQ_I64(arr_id(&a, 0), 4);
    CHECK_EQ_I64(table_id(t, 1), -1);
    a.release(&a), s.release(&s);

    /* the copy is read by no export now: a second view is the same arrays, no change */
    pqt_column_view v2 = {.struct_size = sizeof v2};
    CHECK_OK(pqt_table_column(t, "id", 0, &v2));
    CHECK(v2.data == v.data && v2.generation == v.generation);

    /* a view taken before an export: the export is zero copy with it ... */
    export_id(t, &s, &a);
    CHECK(a.buffers[1] == v2.data);
    CHECK(pqt_table_generation(t) == v2.generation);
    CHECK_EQ_I64(arr_id(&a, 0), -1);
    /* ... until a new view (to write through) moves the table to a copy: v2 has ended */
    pqt_column_view v3 = {.struct_size = sizeof v3};
    CHECK_OK(pqt_table_column(t, "id", 0, &v3));
    CHECK(v3.data != a.buffers[1]);
    CHECK(v3.generation == v2.generation + 1);
    ((int32_t *)(uintptr_t)v3.data)[1] = -2;
    CHECK_EQ_I64(arr_id(&a, 1), 5);
    CHECK_EQ_I64(table_id(t, 2), -2);
    a.release(&a), s.release(&s);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* A cast of an exported resident column: the export keeps its int32 values alive. */
static void test_cast(void)
{
    pqt_table *t = open_plain();
    struct ArrowSchema s;
    struct ArrowArray a;
    export_id(t, &s, &a);
    CHECK_OK(pqt_table_cast(t, "id", PQT_FLOAT64, 1));
    double d = 0;
    CHECK_OK(pqt_table_get_value(t, "id", 4, 0, PQT_FLOAT64, &d, sizeof d, NULL));
    CHECK(d == 7.0);
    for (int i = 0; i < 8; i++)
        CHECK_EQ_I64(arr_id(&a, i), file_ids[i]);
    pqt_table_close(t);
    for (int i = 0; i < 8; i++)
        CHECK_EQ_I64(arr_id(&a, i), file_ids[i]);
    a.release(&a), s.release(&s);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* Batches pulled from a stream keep their values after the stream is released and the
 * table written. */
static void test_stream(void)
{
    pqt_table *t = open_plain();
    const char *cols[1] = {"id"};
    CHECK_OK(pqt_table_prefetch(t, cols, 1)); /* resident: the batches are zero copy */
    struct ArrowArrayStream st;
    CHECK_OK(pqt_table_export_arrow_stream(t, cols, 1, 3, &st));
    struct ArrowArray b[3];
    for (int i = 0; i < 3; i++)
        CHECK(st.get_next(&st, &b[i]) == 0 && b[i].release);
    st.release(&st);
    const int64_t rows[3] = {1, 4, 7};
    const int32_t vals[3] = {-10, -40, -70};
    CHECK_OK(pqt_table_set_rows(t, "id", rows, 3, vals, sizeof vals, NULL, 0));
    for (int i = 0; i < 8; i++)
        CHECK_EQ_I64(arr_id(b[i / 3].children[0], i % 3), file_ids[i]);
    CHECK_EQ_I64(table_id(t, 4), -40);
    for (int i = 0; i < 3; i++)
        b[i].release(&b[i]);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

int main(void)
{
    test_set_rows();
    test_released_export();
    test_nulls();
    test_views();
    test_cast();
    test_stream();
    return pqt_test_done("test_arrow_export_cow");
}
