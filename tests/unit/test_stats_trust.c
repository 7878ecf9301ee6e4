/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stats_trust.c - statistics are trusted only where docs/pruning.md allows (issue 10).
 *
 * Lying statistics are patched into a copy of DuckDB's tests/data/table_rg.parquet in memory
 * (same-length edits of the footer, so it still parses): row group 1's string max "s999"
 * becomes "s100", which would prune `s == "s151"` away. Where the file's column order makes
 * the bounds trustworthy the lie must bite (the control: it shows the test can fail); where
 * the column order is one pqt does not know, the bounds must not be used and the answer stays
 * right. NaN statistics: DuckDB writes no nan_count, so float chunks may hold NaN and no
 * float bound proves ALL; a NaN max (parquet-cpp < 1.4, nan_in_stats.parquet) is ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *d = malloc((size_t)len);
    if (d && fread(d, 1, (size_t)len, fp) != (size_t)len) {
        free(d);
        d = NULL;
    }
    fclose(fp);
    *n = (size_t)len;
    return d;
}

/* Replace the first `count` occurrences of what (in the footer) by with (same length). */
static int patch(unsigned char *d, size_t n, const void *what, const void *with, size_t len,
                 int count)
{
    uint32_t flen;
    memcpy(&flen, d + n - 8, 4);
    unsigned char *f = d + n - 8 - flen;
    int done = 0;
    for (size_t i = 0; i + len <= flen && done < count; i++)
        if (memcmp(f + i, what, len) == 0) {
            memcpy(f + i, with, len);
            done++;
        }
    return done;
}

static int64_t count_rows(const void *data, size_t n, const char *rule)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rule));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open_mem(data, n, "patched", o, &t));
    int64_t rows = pqt_table_nrows(t);
    pqt_table_close(t);
    pqt_opts_free(o);
    return rows;
}

static void test_unknown_order(void)
{
    size_t n = 0;
    unsigned char *d = slurp("tests/data/table_rg.parquet", &n);
    REQUIRE_OK(d ? PQT_OK : PQT_IO);
    CHECK_EQ_I64(count_rows(d, n, "s == \"s151\""), 1);
    /* the lie: row group 1's max (deprecated max and max_value) below s151 */
    CHECK_EQ_I64(patch(d, n, "\x04s999", "\x04s100", 5, 2), 2);
    CHECK_EQ_I64(count_rows(d, n, "s == \"s151\""), 0); /* trusted order: the lie bites */
    /* column_orders: 7 TYPE_ORDER members (1C 00 00); member 2 is not one pqt knows */
    unsigned char orders[21], unknown[21];
    for (int i = 0; i < 7; i++) memcpy(orders + 3 * i, "\x1c\x00\x00", 3);
    memcpy(unknown, orders, sizeof orders);
    unknown[3 * 4] = 0x2c; /* column 5 is s */
    CHECK_EQ_I64(patch(d, n, orders, unknown, sizeof orders, 1), 1);
    CHECK_EQ_I64(count_rows(d, n, "s == \"s151\""), 1);
    CHECK_EQ_I64(count_rows(d, n, "id == 151"), 1); /* the other columns keep their order */
    free(d);
}

static void test_nan(void)
{
    size_t n = 0;
    unsigned char *d = slurp("tests/data/table_rg.parquet", &n);
    REQUIRE_OK(d ? PQT_OK : PQT_IO);
    /* f64 = id / 2, NULL when id % 11 == 0, NaN when id % 13 == 0 (and not % 11) */
    int64_t nan = 0, big_or_nan = 0;
    for (int64_t id = 1; id <= 10000; id++) {
        if (id % 11 == 0) continue;
        nan += id % 13 == 0;
        big_or_nan += id % 13 == 0 || id * 0.5 > 100;
    }
    CHECK_EQ_I64(count_rows(d, n, "f64 is_nan"), nan);
    CHECK_EQ_I64(count_rows(d, n, "not (f64 <= 100)"), big_or_nan);
    free(d);
    d = slurp("tests/data/parquet-testing/data/nan_in_stats.parquet", &n);
    REQUIRE_OK(d ? PQT_OK : PQT_IO);
    /* x = 1.0, NaN; statistics min 1.0, max NaN */
    CHECK_EQ_I64(count_rows(d, n, "x > 0.5"), 1);
    CHECK_EQ_I64(count_rows(d, n, "x is_nan"), 1);
    CHECK_EQ_I64(count_rows(d, n, "x > 5"), 0);
    CHECK_EQ_I64(count_rows(d, n, "not (x <= 5)"), 1);
    free(d);
}

int main(void)
{
    test_unknown_order();
    test_nan();
    return pqt_test_done("test_stats_trust");
}
