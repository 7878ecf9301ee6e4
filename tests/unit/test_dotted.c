/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dotted.c - a top-level column whose name contains a dot is matched exactly before
 * struct paths (tests/data/dotted_names.parquet, written by DuckDB: struct a {b = 10,20,30;
 * c} first, then a top-level "a.b" = 1,2,3).
 */
#include "pqt_file.h"
#include "testutil.h"

int main(void)
{
    pqt_file *f;
    REQUIRE_OK(pqt_file_open("tests/data/dotted_names.parquet", NULL, &f));
    CHECK_EQ_I64(pqt_file_ncols(f), 3);
    int col = -1;
    CHECK_OK(pqt_file_find_column(f, "a.b", &col));
    CHECK_EQ_I64(col, 2); /* file order: a.b (struct leaf), a.c, a.b (top level) */
    int64_t v[3];
    CHECK_OK(pqt_file_read_into(f, col, 1, 3, v, sizeof v, NULL));
    CHECK_EQ_I64(v[0], 1);
    CHECK_EQ_I64(v[2], 3);
    /* the struct leaf keeps its slot and its values */
    CHECK_OK(pqt_file_read_into(f, 0, 1, 3, v, sizeof v, NULL));
    CHECK_EQ_I64(v[1], 20);
    CHECK_OK(pqt_file_find_column(f, "a.c", &col));
    CHECK_EQ_I64(col, 1);
    CHECK_EQ_I64(pqt_file_find_column(f, "a", &col), PQT_NOT_FOUND); /* a struct is not a column */
    pqt_file_close(f);

    /* the table resolves the name the same way */
    pqt_table *t;
    REQUIRE_OK(pqt_table_open("tests/data/dotted_names.parquet", NULL, &t));
    int64_t w[3] = {0};
    CHECK_OK(pqt_table_get(t, "a.b", PQT_INT64, w, sizeof w, NULL, 0));
    CHECK_EQ_I64(w[0], 1);
    CHECK_EQ_I64(w[2], 3);
    CHECK_EQ_I64(pqt_table_has_column(t, "a"), 0);
    pqt_table_close(t);
    return pqt_test_done("test_dotted");
}
