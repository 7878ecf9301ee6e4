/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_opt_rows.c - the slice options PQT_OPT_ROW_LO / PQT_OPT_ROW_HI: rows are 1-based, so a
 * bound below 1 is an error when it is set (never a silent "unset" that reads the whole file),
 * with a message naming the option and the value; a failed set changes nothing; a bound never
 * set means the start / the end of the file.
 *
 * Truth: tests/data/table_rg.parquet, written by DuckDB (tests/data/make_table_data.mjs):
 * 10000 rows whose id column is the 1-based row number.
 */
#include <stdint.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define RG "tests/data/table_rg.parquet"

/* Open RG with opts; check the table holds rows lo..hi of the file (ids lo..hi). */
static void check_rows(const pqt_opts *o, int64_t lo, int64_t hi)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, o, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), hi - lo + 1);
    int64_t first = -1, last = -1;
    int isnull = 1;
    CHECK_OK(pqt_table_get_value(t, "id", 1, 0, PQT_INT64, &first, sizeof first, &isnull));
    CHECK_OK(pqt_table_get_value(t, "id", hi - lo + 1, 0, PQT_INT64, &last, sizeof last, &isnull));
    CHECK_EQ_I64(first, lo);
    CHECK_EQ_I64(last, hi);
    pqt_table_close(t);
}

static void test_below_one_is_refused(void)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    const int64_t bad[] = {0, -1, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[64];
        CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_ROW_LO, bad[i]), PQT_MISUSE);
        snprintf(want, sizeof want, "PQT_OPT_ROW_LO = %lld", (long long)bad[i]);
        CHECK(strstr(pqt_errmsg(), want) != NULL);
        CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_ROW_HI, bad[i]), PQT_MISUSE);
        snprintf(want, sizeof want, "PQT_OPT_ROW_HI = %lld", (long long)bad[i]);
        CHECK(strstr(pqt_errmsg(), want) != NULL);
    }
    /* nothing was set: the whole file */
    check_rows(o, 1, 10000);
    pqt_opts_free(o);
}

static void test_failed_set_keeps_the_slice(void)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 101));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 110));
    CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 0), PQT_MISUSE);
    CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 0), PQT_MISUSE);
    check_rows(o, 101, 110);
    pqt_opts_free(o);
}

static void test_unset_bounds(void)
{
    check_rows(NULL, 1, 10000);
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    check_rows(o, 1, 10000); /* options, but no bound set */
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 2049)); /* only the end: from row 1 */
    check_rows(o, 1, 2049);
    pqt_opts_free(o);
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 9999)); /* only the start: to the last row */
    check_rows(o, 9999, 10000);
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 1)); /* 1 is the first row, not an error */
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 1));
    check_rows(o, 1, 1);
    pqt_opts_free(o);
}

int main(void)
{
    test_below_one_is_refused();
    test_failed_set_keeps_the_slice();
    test_unset_bounds();
    return pqt_test_done("test_opt_rows");
}
