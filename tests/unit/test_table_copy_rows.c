/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_copy_rows.c - the table calls the Fortran writer uses: pqt_table_copy_rows
 * (rows of chosen columns as a new in-memory table: values, nulls, units, vectors of
 * strings; range and missing-name errors; columns read once and kept),
 * pqt_table_add_string_column (a vector of strings; width and offset errors) and
 * pqt_table_check_qc (write-side qc: warnings counted, the mask honoured, residency as found,
 * bad rules refused before anything is read).
 *
 * Truth: hand-built tables, and parquet-testing's alltypes_plain.parquet (8 rows, id =
 * 4 5 6 7 2 3 0 1).
 */
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define ALLTYPES "tests/data/parquet-testing/data/alltypes_plain.parquet"

/* id 1..4 (int64, unit "n"), x = 1.5 null 3.5 4.5, s = vector of strings of width 2:
 * ("a" "bb") ("" null) ("c" "d") ("e" "fff"). */
static pqt_table *make(void)
{
    const int64_t id[4] = {1, 2, 3, 4};
    const double x[4] = {1.5, 0, 3.5, 4.5};
    const uint8_t xv[1] = {0x0d}; /* rows 1, 3, 4 */
    const char bytes[] = "abbcdefff";
    const int64_t off[9] = {0, 1, 3, 3, 3, 4, 5, 6, 9};
    const uint8_t sv[1] = {0xf7}; /* every string but the 4th */
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, 4, "n"));
    REQUIRE_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, xv, 4, NULL));
    REQUIRE_OK(pqt_table_add_string_column(t, "s", 2, off, bytes, sv, 4, NULL));
    return t;
}

static void check_string(pqt_table *t, const char *name, int64_t row, int elem, const char *want)
{
    const char *p = NULL;
    int64_t n = -1;
    int nul = -1;
    CHECK_OK(pqt_table_get_string(t, name, row, elem, &p, &n, &nul));
    if (!want) {
        CHECK(nul == 1);
        return;
    }
    CHECK(nul == 0 && n == (int64_t)strlen(want) && memcmp(p, want, (size_t)n) == 0);
}

static void test_string_vector(void)
{
    pqt_table *t = make();
    int kind = 0, width = 0;
    CHECK_OK(pqt_table_kind(t, "s", &kind));
    CHECK_OK(pqt_table_width(t, "s", &width));
    CHECK_EQ_I64(kind, PQT_STRING | PQT_VECTOR);
    CHECK_EQ_I64(width, 2);
    check_string(t, "s", 1, 2, "bb");
    check_string(t, "s", 2, 1, "");
    check_string(t, "s", 2, 2, NULL);
    check_string(t, "s", 4, 2, "fff");
    pqt_table_close(t);
    /* one row of width 2 whose second string's offsets decrease; width 0 */
    const int64_t bad[3] = {0, 2, 1};
    pqt_table *e = NULL;
    REQUIRE_OK(pqt_table_new(&e));
    CHECK_EQ_I64(pqt_table_add_string_column(e, "w", 0, bad, "ab", NULL, 1, NULL), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "width 0 < 1") != NULL);
    CHECK_EQ_I64(pqt_table_add_string_column(e, "w", 2, bad, "ab", NULL, 1, NULL), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "offsets decrease at string 2") != NULL);
    CHECK_EQ_I64(pqt_table_ncols(e), 0);
    pqt_table_close(e);
}

static void test_copy_rows(void)
{
    pqt_table *t = make(), *c = NULL;
    const char *names[3] = {"s", "x", "s"};
    CHECK_OK(pqt_table_copy_rows(t, names, 3, 2, 3, &c));
    CHECK_EQ_I64(pqt_table_nrows(c), 2);
    CHECK_EQ_I64(pqt_table_ncols(c), 2); /* s named twice is one column */
    CHECK(strcmp(pqt_table_column_name(c, 0), "s") == 0);
    check_string(c, "s", 1, 1, "");
    check_string(c, "s", 1, 2, NULL);
    check_string(c, "s", 2, 1, "c");
    check_string(c, "s", 2, 2, "d");
    int nul = -1;
    CHECK_OK(pqt_table_is_null(c, "x", 1, 0, &nul));
    CHECK(nul == 1);
    double v = 0;
    CHECK_OK(pqt_table_get_value(c, "x", 2, 1, 0, &v, sizeof v, &nul));
    CHECK(nul == 0 && v == 3.5);
    CHECK_EQ_I64(pqt_table_has_column(c, "id"), 0);
    pqt_table_close(c);

    const char *one[1] = {"id"};
    c = NULL;
    CHECK_OK(pqt_table_copy_rows(t, one, 1, 4, 4, &c));
    const char *unit = NULL;
    CHECK_OK(pqt_table_unit(c, "id", &unit));
    CHECK(unit && strcmp(unit, "n") == 0);
    int64_t id = 0;
    CHECK_OK(pqt_table_get_value(c, "id", 1, 1, 0, &id, sizeof id, &nul));
    CHECK_EQ_I64(id, 4);
    pqt_table_close(c);

    /* errors leave *ret alone */
    c = NULL;
    CHECK_EQ_I64(pqt_table_copy_rows(t, one, 1, 0, 1, &c), PQT_RANGE);
    CHECK_EQ_I64(pqt_table_copy_rows(t, one, 1, 3, 5, &c), PQT_RANGE);
    CHECK(strstr(pqt_errmsg(), "rows 3..5 requested, the table has 4 rows") != NULL);
    CHECK_EQ_I64(pqt_table_copy_rows(t, one, 1, 3, 2, &c), PQT_RANGE);
    const char *missing[2] = {"nope", "zip"};
    CHECK_EQ_I64(pqt_table_copy_rows(t, missing, 2, 1, 1, &c), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "'nope'") != NULL && strstr(pqt_errmsg(), "'zip'") != NULL);
    CHECK(c == NULL);
    pqt_table_close(t);
}

/* A lazy file table: the named column is read and stays; the others are not read. */
static void test_copy_rows_file(void)
{
    pqt_table *t = NULL, *c = NULL;
    REQUIRE_OK(pqt_table_open(ALLTYPES, NULL, &t));
    const char *names[1] = {"id"};
    CHECK_OK(pqt_table_copy_rows(t, names, 1, 5, 6, &c));
    int32_t id[2] = {0, 0};
    CHECK_OK(pqt_table_get(c, "id", 0, id, sizeof id, NULL, 0));
    CHECK(id[0] == 2 && id[1] == 3);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "id", &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    CHECK_OK(pqt_table_residency(t, "bool_col", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    pqt_table_close(c);
    pqt_table_close(t);
}

static int nwarn_seen;
static char last_warning[1024];
static void on_warning(void *user, const char *msg)
{
    (void)user;
    nwarn_seen++;
    snprintf(last_warning, sizeof last_warning, "%s", msg);
}

static void test_check_qc(void)
{
    pqt_set_warning_callback(on_warning, NULL);
    pqt_table *t = make();
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "x, >=2, <=4, ")); /* 1.5 and 4.5 out; a null forbidden */
    REQUIRE_OK(pqt_qc_add(qc, "id, >=1"));
    int64_t n = -1;
    nwarn_seen = 0;
    CHECK_OK(pqt_table_check_qc(t, qc, NULL, &n));
    CHECK_EQ_I64(n, 2);
    CHECK_EQ_I64(nwarn_seen, 2);
    const uint8_t keep[4] = {0, 0, 1, 0}; /* row 3: x = 3.5, fine */
    CHECK_OK(pqt_table_check_qc(t, qc, keep, &n));
    CHECK_EQ_I64(n, 0);
    const uint8_t keep2[4] = {1, 0, 0, 0}; /* row 1: x = 1.5, out of range */
    CHECK_OK(pqt_table_check_qc(t, qc, keep2, &n));
    CHECK_EQ_I64(n, 1);
    CHECK(strstr(last_warning, "qc violation for column 'x' (written anyway): declared min >= 2, "
                               "max <= 4") != NULL);
    CHECK_OK(pqt_table_check_qc(t, NULL, NULL, &n));
    CHECK_EQ_I64(n, 0);

    /* a rule that cannot apply: refused before anything */
    pqt_qc *bad = NULL;
    REQUIRE_OK(pqt_qc_new(&bad));
    REQUIRE_OK(pqt_qc_add(bad, "xx, >0"));
    CHECK_EQ_I64(pqt_table_check_qc(t, bad, NULL, &n), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "no column 'xx'") != NULL);
    pqt_qc_clear(bad);
    REQUIRE_OK(pqt_qc_add(bad, "id, >1.5"));
    CHECK_EQ_I64(pqt_table_check_qc(t, bad, NULL, &n), PQT_KIND);
    pqt_qc_free(bad);
    pqt_qc_free(qc);
    pqt_table_close(t);

    /* a file column not resident is read for the check and released; no new generation */
    REQUIRE_OK(pqt_table_open(ALLTYPES, NULL, &t));
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "id, , <=5")); /* 6 and 7 out */
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_table_check_qc(t, qc, NULL, &n));
    CHECK_EQ_I64(n, 1);
    CHECK(strstr(last_warning, "2 of 8 valid element(s) out of range") != NULL);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "id", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_qc_free(qc);
    pqt_table_close(t);
    pqt_set_warning_callback(NULL, NULL);
}

int main(void)
{
    test_string_vector();
    test_copy_rows();
    test_copy_rows_file();
    test_check_qc();
    return pqt_test_done("test_table_copy_rows");
}
