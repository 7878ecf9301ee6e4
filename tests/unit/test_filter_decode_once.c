/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_decode_once.c - a filter column two conjuncts name is decoded once per row
 * group (docs/pruning.md, "Each column decoded once"): the later conjunct compacts the kept
 * values to the rows still selected.
 *
 * The file is written here: 4 row groups of 3000 rows (plain, no dictionary), x = row % 20
 * (null when row % 13 == 0), y = row % 7 as a double (null when row % 11 == 0), s = "s" and
 * row % 10 (null when row % 17 == 0). Two pairs of conjuncts share a column: `x < 9` with
 * `x > 1 or y > 2`, and `s != "s5"` with `s == "s3" or x == 0`. Checked on 1 and 3 threads,
 * with the adaptive order on and off: the surviving rows equal a plain loop's (three-valued:
 * a null compares unknown), and x and s each decoded exactly once (values_decoded: one per
 * non-null row), where decoding per conjunct decodes them again for the first conjunct's
 * survivors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"

enum { RG_ROWS = 3000, NRG = 4, NROWS = RG_ROWS * NRG };

static int x_valid(int64_t r)
{
    return r % 13 != 0;
}
static int y_valid(int64_t r)
{
    return r % 11 != 0;
}
static int s_valid(int64_t r)
{
    return r % 17 != 0;
}
static int64_t x_at(int64_t r)
{
    return r % 20;
}
static double y_at(int64_t r)
{
    return (double)(r % 7);
}
static int s_digit(int64_t r)
{
    return (int)(r % 10);
}

static void write_file(const char *path)
{
    int64_t *x = malloc(NROWS * sizeof *x), *off = malloc((NROWS + 1) * sizeof *off);
    double *y = malloc(NROWS * sizeof *y);
    char *bytes = malloc(NROWS * 2);
    uint8_t *xv = calloc(NROWS / 8 + 1, 1), *yv = calloc(NROWS / 8 + 1, 1),
            *sv = calloc(NROWS / 8 + 1, 1);
    REQUIRE_OK(x && off && y && bytes && xv && yv && sv ? PQT_OK : PQT_NOMEM);
    off[0] = 0;
    for (int64_t r = 0; r < NROWS; r++) {
        x[r] = x_at(r);
        y[r] = y_at(r);
        bytes[2 * r] = 's';
        bytes[2 * r + 1] = (char)('0' + s_digit(r));
        off[r + 1] = 2 * (r + 1);
        xv[r / 8] |= (uint8_t)(x_valid(r) << (r % 8));
        yv[r / 8] |= (uint8_t)(y_valid(r) << (r % 8));
        sv[r / 8] |= (uint8_t)(s_valid(r) << (r % 8));
    }
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "x", PQT_INT64, 1, x, xv, NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "y", PQT_FLOAT64, 1, y, yv, NROWS, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, off, bytes, sv, NROWS, NULL));
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG_ROWS));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1)); /* mkstemp made it */
    CHECK_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    free(x);
    free(off);
    free(y);
    free(bytes);
    free(xv);
    free(yv);
    free(sv);
}

/* `x < 9` and `x > 1 or y > 2` */
static int keep_xy(int64_t r)
{
    if (!x_valid(r) || x_at(r) >= 9) return 0;
    return x_at(r) > 1 || (y_valid(r) && y_at(r) > 2);
}

/* `s != "s5"` and `s == "s3" or x == 0` */
static int keep_sx(int64_t r)
{
    if (!s_valid(r) || s_digit(r) == 5) return 0;
    return s_digit(r) == 3 || (x_valid(r) && x_at(r) == 0);
}

static void check(const char *path, const char *r1, const char *r2, int (*keep)(int64_t),
                  const char *shared, int threads, int adaptive)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_PUSHDOWN_ADAPTIVE, adaptive));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, r1));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, r2));
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(path, o, &t));
    pqt_opts_free(o);
    /* decoded once: every value of the four row groups (nulls have none), no more */
    int64_t got = pqt_table_scan_values(t, shared), want = 0;
    for (int64_t r = 0; r < NROWS; r++)
        want += shared[0] == 'x' ? x_valid(r) : s_valid(r);
    if (got != want)
        printf("%s and %s, threads %d, adaptive %d: %s decoded %lld values, want %lld\n", r1, r2,
               threads, adaptive, shared, (long long)got, (long long)want);
    CHECK_EQ_I64(got, want);
    int64_t *ri = NULL, n = 0;
    REQUIRE_OK(pqt_table_get_alloc(t, "parquet_row_index", PQT_INT64, (void **)&ri, NULL, &n));
    int64_t k = 0, bad = 0;
    for (int64_t r = 0; r < NROWS; r++) {
        if (!keep(r)) continue;
        if (k >= n || ri[k] != r + 1) {
            if (bad++ == 0)
                printf("%s and %s: survivor %lld is row %lld, want %lld\n", r1, r2,
                       (long long)k + 1, k < n ? (long long)ri[k] : -1LL, (long long)r + 1);
        }
        k++;
    }
    CHECK_EQ_I64(n, k);
    CHECK_EQ_I64(bad, 0);
    pqt_free(ri);
    pqt_table_close(t);
}

int main(void)
{
    char path[] = "/tmp/pqt_test_decode_once_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE_OK(fd >= 0 ? PQT_OK : PQT_IO);
    close(fd);
    write_file(path);
    for (int threads = 1; threads <= 3; threads += 2)
        for (int adaptive = 0; adaptive <= 1; adaptive++) {
            check(path, "x < 9", "x > 1 or y > 2", keep_xy, "x", threads, adaptive);
            check(path, "x > 1 or y > 2", "x < 9", keep_xy, "x", threads, adaptive);
            check(path, "s != \"s5\"", "s == \"s3\" or x == 0", keep_sx, "s", threads, adaptive);
        }
    remove(path);
    return pqt_test_done("test_filter_decode_once");
}
