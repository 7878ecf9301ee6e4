/*
 * test_dotted.c - a top-level column whose name contains a dot is matched exactly before
 * struct paths (tests/data/dotted_names.parquet, written by DuckDB: "a.b" = 1,2,3 beside
 * struct a {b = 10,20,30; c}).
 */
#include "pqt.h"
#include "testutil.h"

int main(void)
{
    pqt_file *f;
    CHECK_OK(pqt_file_open("tests/data/dotted_names.parquet", NULL, &f));
    CHECK_EQ_I64(pqt_file_ncolumns(f), 3);
    int col = -1;
    CHECK_OK(pqt_file_find_column(f, "a.b", &col));
    CHECK_EQ_I64(col, 0);
    int64_t v[3];
    CHECK_OK(pqt_file_read_into(f, col, 1, 3, v, sizeof v, NULL));
    CHECK_EQ_I64(v[0], 1);
    CHECK_EQ_I64(v[2], 3);
    /* the struct leaf keeps its slot and its values */
    CHECK_EQ_I64(pqt_file_column_path(f, 1)[0], 'a');
    CHECK_OK(pqt_file_read_into(f, 1, 1, 3, v, sizeof v, NULL));
    CHECK_EQ_I64(v[1], 20);
    CHECK_OK(pqt_file_find_column(f, "a.c", &col));
    CHECK_EQ_I64(col, 2);
    CHECK_EQ_I64(pqt_file_find_column(f, "a", &col), PQT_NOT_FOUND); /* a struct is not a column */
    pqt_file_close(f);
    return pqt_test_done("test_dotted");
}
