/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_append_units.c - pqt_table_append refuses columns whose units differ with their own
 * status, PQT_UNIT_MISMATCH (not PQT_MISUSE or PQT_KIND), and a message naming the column and
 * both units: physical units (m/s vs km/h, a unit vs none) and time units (microseconds from
 * pqt_table_add_column vs nanoseconds, which pqt reads INT96 timestamps as). A refused append
 * changes nothing; kind and width mismatches keep PQT_KIND.
 *
 * Truth: hand-built tables, and parquet-testing's alltypes_plain.parquet (8 rows; its
 * timestamp_col is INT96, read as nanoseconds).
 */
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define ALLTYPES "tests/data/parquet-testing/data/alltypes_plain.parquet"

static pqt_table *one_column(const char *name, int kind, const void *v, int64_t n, const char *unit)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, name, kind, 1, v, NULL, n, unit));
    return t;
}

static void test_status_is_its_own(void)
{
    CHECK(PQT_UNIT_MISMATCH == 55); /* fixed forever, in the misuse group (50..69) */
    CHECK(strcmp(pqt_status_name(PQT_UNIT_MISMATCH), "PQT_UNIT_MISMATCH") == 0);
    CHECK(PQT_UNIT_MISMATCH != PQT_MISUSE && PQT_UNIT_MISMATCH != PQT_KIND);
}

static void test_physical_units(void)
{
    const double v2[2] = {1, 2}, v3[3] = {3, 4, 5};
    pqt_table *a = one_column("speed", PQT_FLOAT64, v2, 2, "m/s");
    pqt_table *b = one_column("speed", PQT_FLOAT64, v3, 3, "km/h");
    pqt_table *none = one_column("speed", PQT_FLOAT64, v3, 3, NULL);
    uint64_t g = pqt_table_generation(a);
    CHECK_EQ_I64(pqt_table_append(a, b), PQT_UNIT_MISMATCH);
    CHECK(strstr(pqt_errmsg(), "column 'speed' has unit 'm/s' here but 'km/h' in the appended "
                               "table") != NULL);
    CHECK_EQ_I64(pqt_table_append(a, none), PQT_UNIT_MISMATCH);
    CHECK(strstr(pqt_errmsg(), "'speed' has unit 'm/s' here but '' in the appended") != NULL);
    CHECK_EQ_I64(pqt_table_append(none, a), PQT_UNIT_MISMATCH);
    CHECK(strstr(pqt_errmsg(), "'speed' has unit '' here but 'm/s' in the appended") != NULL);
    /* nothing changed */
    CHECK_EQ_I64(pqt_table_nrows(a), 2);
    CHECK_EQ_I64(pqt_table_nrows(none), 3);
    CHECK_EQ_I64(pqt_table_generation(a), g);
    /* kind still says PQT_KIND, even with a unit mismatch as well */
    const int32_t k[1] = {7};
    pqt_table *c = one_column("speed", PQT_INT32, k, 1, "km/h");
    CHECK_EQ_I64(pqt_table_append(a, c), PQT_KIND);
    /* the same unit appends */
    pqt_table *d = one_column("speed", PQT_FLOAT64, v3, 3, "m/s");
    CHECK_OK(pqt_table_append(a, d));
    CHECK_EQ_I64(pqt_table_nrows(a), 5);
    pqt_table_close(a);
    pqt_table_close(b);
    pqt_table_close(c);
    pqt_table_close(d);
    pqt_table_close(none);
}

static void test_time_units(void)
{
    pqt_table *f = NULL;
    REQUIRE_OK(pqt_table_open(ALLTYPES, NULL, &f));
    const char *keep[1] = {"timestamp_col"};
    REQUIRE_OK(pqt_table_keep_columns(f, keep, 1));
    int unit = -1;
    CHECK_OK(pqt_table_time_unit(f, "timestamp_col", &unit));
    CHECK_EQ_I64(unit, PQT_UNIT_NANOS);
    /* a timestamp column of the same name in microseconds (2009-03-01T00:00:00) */
    const int64_t us[1] = {1235865600000000};
    pqt_table *t = one_column("timestamp_col", PQT_TIMESTAMP, us, 1, NULL);
    CHECK_OK(pqt_table_time_unit(t, "timestamp_col", &unit));
    CHECK_EQ_I64(unit, PQT_UNIT_MICROS);
    CHECK_EQ_I64(pqt_table_append(t, f), PQT_UNIT_MISMATCH);
    CHECK(strstr(pqt_errmsg(), "column 'timestamp_col' is timestamp in microseconds here but in "
                               "nanoseconds in the appended table") != NULL);
    CHECK_EQ_I64(pqt_table_nrows(t), 1);
    CHECK_EQ_I64(pqt_table_append(f, t), PQT_UNIT_MISMATCH);
    CHECK(strstr(pqt_errmsg(), "in nanoseconds here but in microseconds") != NULL);
    CHECK_EQ_I64(pqt_table_nrows(f), 8);
    /* the same time unit appends */
    pqt_table *u = one_column("timestamp_col", PQT_TIMESTAMP, us, 1, NULL);
    CHECK_OK(pqt_table_append(t, u));
    CHECK_EQ_I64(pqt_table_nrows(t), 2);
    pqt_table_close(u);
    pqt_table_close(t);
    pqt_table_close(f);
}

int main(void)
{
    test_status_is_its_own();
    test_physical_units();
    test_time_units();
    return pqt_test_done("test_append_units");
}
