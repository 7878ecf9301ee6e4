/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_column_shape.c - pqt_file_column_shape reads data only when asked (issue 8: `pqt
 * schema` reads the footer only). Truth from DuckDB: examples/catalogue.parquet's mag has 5
 * floats in every row, no null rows; list_columns.parquet's int64_list has 1 to 3 elements in
 * its 3 rows (min/max len() in DuckDB; 6 values in the footer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"

#define CAT "examples/catalogue.parquet"

static void test_footer_only(void)
{
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(CAT, NULL, &f));
    int col = -1, kind = -7, width = -7;
    REQUIRE_OK(pqt_file_find_column(f, "mag", &col));
    CHECK_OK(pqt_file_column_shape(f, col, 0, &kind, &width));
    CHECK_EQ_I64(kind, PQT_FLOAT32 | PQT_LIST);
    CHECK_EQ_I64(width, -1); /* only the data can tell */
    CHECK_OK(pqt_file_column_shape(f, col, 1, &kind, &width));
    CHECK_EQ_I64(kind, PQT_FLOAT32 | PQT_VECTOR);
    CHECK_EQ_I64(width, 5);
    /* once measured, the footer-only answer knows it too */
    CHECK_OK(pqt_file_column_shape(f, col, 0, &kind, &width));
    CHECK_EQ_I64(width, 5);
    REQUIRE_OK(pqt_file_find_column(f, "mass", &col));
    CHECK_OK(pqt_file_column_shape(f, col, 0, &kind, &width));
    CHECK_EQ_I64(kind, PQT_FLOAT64);
    CHECK_EQ_I64(width, 1);
    kind = width = -7;
    CHECK_EQ_I64(pqt_file_column_shape(f, 11, 0, &kind, &width), PQT_MISUSE);
    CHECK_EQ_I64(kind, -7); /* a failed call changes nothing */
    pqt_file_close(f);

    REQUIRE_OK(pqt_file_open("tests/data/parquet-testing/data/list_columns.parquet", NULL, &f));
    REQUIRE_OK(pqt_file_find_column(f, "int64_list", &col));
    /* 6 values in 3 rows would fit a width of 2: the footer cannot tell, the data can */
    CHECK_OK(pqt_file_column_shape(f, col, 0, &kind, &width));
    CHECK_EQ_I64(kind, PQT_INT64 | PQT_LIST);
    CHECK_EQ_I64(width, -1);
    CHECK_OK(pqt_file_column_shape(f, col, 1, &kind, &width));
    CHECK_EQ_I64(kind, PQT_INT64 | PQT_LIST);
    CHECK_EQ_I64(width, 0);
    pqt_file_close(f);
}

/* A copy of the catalogue with every byte before the footer zeroed: no data page can be
 * read, so an answer without measure proves nothing was read, and measure reports the read
 * error instead of guessing "list". */
static void test_no_data(void)
{
    FILE *in = fopen(CAT, "rb");
    REQUIRE_OK(in == NULL);
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    CHECK(n > 12 && n < sizeof buf);
    size_t flen = (size_t)buf[n - 8] | (size_t)buf[n - 7] << 8 | (size_t)buf[n - 6] << 16 |
                  (size_t)buf[n - 5] << 24;
    memset(buf + 4, 0, n - 8 - flen - 4);
    char path[] = "/tmp/pqt_shape_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE_OK(fd < 0);
    FILE *out = fdopen(fd, "wb");
    CHECK(fwrite(buf, 1, n, out) == n);
    fclose(out);

    pqt_file *f;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    int col = -1, kind = -7, width = -7;
    REQUIRE_OK(pqt_file_find_column(f, "mag", &col));
    CHECK_OK(pqt_file_column_shape(f, col, 0, &kind, &width));
    CHECK_EQ_I64(width, -1);
    kind = width = -7;
    CHECK_EQ_I64(pqt_file_column_shape(f, col, 1, &kind, &width), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "column 'mag', row group 1, page 1") != NULL);
    CHECK_EQ_I64(kind, -7);
    CHECK_EQ_I64(width, -7);
    pqt_file_close(f);
    remove(path);
}

int main(void)
{
    test_footer_only();
    test_no_data();
    return pqt_test_done("test_column_shape");
}
