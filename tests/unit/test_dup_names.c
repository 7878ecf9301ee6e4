/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dup_names.c - top-level fields that share a name get unique column names
 * (docs/output.md): tests/data/dup_names.parquet (tests/data/make_dup_names.mjs) has the
 * fields a, a, a_1, s {b}, s {c}, read as a, a_2, a_1, s.b, s_1.c. By name, every column is
 * reached, by the file API and the table alike; the schema tree keeps the file's names.
 */
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"

int main(void)
{
    pqt_file *f;
    REQUIRE_OK(pqt_file_open("tests/data/dup_names.parquet", NULL, &f));
    CHECK_EQ_I64(pqt_file_ncols(f), 5);
    static const char *const paths[] = {"a", "a_2", "a_1", "s.b", "s_1.c"};
    for (int c = 0; c < 5; c++) {
        CHECK(strcmp(pqt_file_column_path(f, c), paths[c]) == 0);
        int col = -1;
        CHECK_OK(pqt_file_find_column(f, paths[c], &col));
        CHECK_EQ_I64(col, c);
    }
    /* values: the second a holds 10, 20 (hand-written in the generator) */
    int32_t v[2] = {0};
    CHECK_OK(pqt_file_read_into(f, 1, 1, 2, v, sizeof v, NULL));
    CHECK_EQ_I64(v[0], 10);
    CHECK_EQ_I64(v[1], 20);
    /* nodes: 1 a, 2 a, 3 a_1, 4 s, 5 b, 6 s, 7 c */
    CHECK(strcmp(pqt_file_node_name(f, 2), "a") == 0);
    CHECK(strcmp(pqt_file_node_read_name(f, 2), "a_2") == 0);
    CHECK(strcmp(pqt_file_node_read_name(f, 1), "a") == 0);
    CHECK(strcmp(pqt_file_node_read_name(f, 6), "s_1") == 0);
    CHECK(strcmp(pqt_file_node_read_name(f, 7), "c") == 0);
    CHECK(pqt_file_node_read_name(f, 99) == NULL);
    pqt_file_close(f);

    pqt_table *t;
    REQUIRE_OK(pqt_table_open("tests/data/dup_names.parquet", NULL, &t));
    for (int c = 0; c < 5; c++)
        CHECK(strcmp(pqt_table_column_name(t, c), paths[c]) == 0);
    int64_t w[2] = {0};
    CHECK_OK(pqt_table_get(t, "a_2", PQT_INT64, w, sizeof w, NULL, 0));
    CHECK_EQ_I64(w[0], 10);
    CHECK_OK(pqt_table_get(t, "a_1", PQT_INT64, w, sizeof w, NULL, 0));
    CHECK_EQ_I64(w[0], 100);
    pqt_table_close(t);
    return pqt_test_done("test_dup_names");
}
