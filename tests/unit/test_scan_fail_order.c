/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_scan_fail_order.c - the filter pass reports the lowest failed row group whatever the
 * schedule: a file of eight row groups of 32 pages (no statistics, no dictionary, page CRCs)
 * with a byte flipped in the last page of row group 2 and the first page of row group 3 (on
 * two threads, 3 fails first), opened with a filter on 1, 2 and 4 threads many times; every
 * open fails with a CRC error naming row group 2, never 3.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"

enum { RG_ROWS = 32768, NRG = 8, ROUNDS = 60 };

/* The marker every value carries, so its bytes are found in the file. */
static int64_t value_at(int64_t row)
{
    return INT64_C(0x5A17000000000000) + row;
}

static void write_file(const char *path)
{
    int64_t *x = malloc(RG_ROWS * NRG * sizeof *x);
    REQUIRE_OK(x ? PQT_OK : PQT_NOMEM);
    for (int64_t i = 0; i < RG_ROWS * NRG; i++)
        x[i] = value_at(i);
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "x", PQT_INT64, 1, x, NULL, RG_ROWS * NRG, NULL));
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_CODEC, PQT_WRITE_UNCOMPRESSED));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_STATISTICS, 0));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_INDEX, 0));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_CRC, 1));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG_ROWS));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 8192));
    CHECK_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    free(x);
}

/* Flip a byte of the value of file row `row` (its little-endian bytes, found by search). */
static void flip_value(const char *path, int64_t row)
{
    FILE *fp = fopen(path, "r+b");
    REQUIRE_OK(fp ? PQT_OK : PQT_IO);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    uint8_t *b = malloc((size_t)n);
    REQUIRE_OK(b ? PQT_OK : PQT_NOMEM);
    fseek(fp, 0, SEEK_SET);
    REQUIRE_OK(fread(b, 1, (size_t)n, fp) == (size_t)n ? PQT_OK : PQT_IO);
    uint64_t v = (uint64_t)value_at(row);
    uint8_t want[8];
    for (int k = 0; k < 8; k++)
        want[k] = (uint8_t)(v >> (8 * k));
    long at = -1;
    for (long i = 0; i + 8 <= n && at < 0; i++)
        if (memcmp(b + i, want, 8) == 0) at = i;
    REQUIRE_OK(at >= 0 ? PQT_OK : PQT_NOT_FOUND);
    uint8_t c = (uint8_t)(b[at] ^ 0x01);
    fseek(fp, at, SEEK_SET);
    fwrite(&c, 1, 1, fp);
    fclose(fp);
    free(b);
}

int main(void)
{
    char dir[] = "/tmp/pqt_test_scan_fail_XXXXXX";
    REQUIRE_OK(mkdtemp(dir) ? PQT_OK : PQT_IO);
    char path[80];
    snprintf(path, sizeof path, "%s/x.parquet", dir);
    write_file(path);
    flip_value(path, 2 * RG_ROWS - 1); /* row group 2, last page */
    flip_value(path, 2 * RG_ROWS);     /* row group 3, first page */

    int opened = 0, named2 = 0, named3 = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int threads = round % 3 == 0 ? 1 : round % 3 == 1 ? 2 : 4;
        pqt_opts *o;
        REQUIRE_OK(pqt_opts_new(&o));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
        CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "x > 7"));
        pqt_table *t = NULL;
        pqt_status st = pqt_table_open(path, o, &t);
        pqt_opts_free(o);
        if (st == PQT_OK) {
            opened++;
            pqt_table_close(t);
            continue;
        }
        const char *m = pqt_errmsg();
        named2 += strstr(m, "row group 2") != NULL && strstr(m, "CRC") != NULL;
        named3 += strstr(m, "row group 3") != NULL;
        if (round == 0) fprintf(stderr, "message: %s\n", m);
    }
    CHECK_EQ_I64(opened, 0);
    CHECK_EQ_I64(named2, ROUNDS);
    CHECK_EQ_I64(named3, 0);
    unlink(path);
    rmdir(dir);
    return pqt_test_done("test_scan_fail_order");
}
