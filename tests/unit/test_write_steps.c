/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_steps.c - how the writer feeds rows to its columns (src/write/write_steps.c):
 *  - the same table written with 1 thread, 2 threads and 3 threads, each with and without the
 *    background writes, gives byte-identical files (the DATE key pinned): parallel steps are
 *    the serial writer's twin; the same for a copy of a file read row group by row group
 *    through a filter (pqt copy's path), with row groups of the output straddling the
 *    source's, and for a copy of struct columns (their groups' levels decided before the
 *    columns' tasks);
 *  - PQT_WOPT_ROW_GROUP_NBYTES: 1000-byte strings, no codec, a 1 MiB limit: every row
 *    group but the last holds between 0.6 and 1.35 MiB of values, the first one too (the
 *    writer's first step is short, so its rate is known before a row group fills), and the
 *    values read back as written;
 *  - a streaming writer given batches of 1, 7 and 1000 rows cuts row groups every
 *    PQT_WOPT_ROW_GROUP_ROWS rows exactly;
 *  - a copy under the default limits ends its row groups where the source's end (three of
 *    600,000 rows stay three, not 1,048,576 + 751,424; a filtered copy of 900,000 rows from
 *    two of them is one), and with PQT_WOPT_ROW_GROUP_ROWS given cuts exactly there; values
 *    as written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"

static char g_dir[256];

static uint8_t *slurp(const char *path, long *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    *n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)*n + 1);
    if (b && fread(b, 1, (size_t)*n, fp) != (size_t)*n) {
        free(b);
        b = NULL;
    }
    fclose(fp);
    return b;
}

static pqt_write_opts *opts(int threads, int background, int64_t rg_rows)
{
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_THREADS, threads));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_BACKGROUND_IO, background));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, rg_rows));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 4096));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, "2026-12-02T00:00:00"));
    return o;
}

/* Write t (or the table opened from src with filter) with every thread count and both I/O
 * modes; all files must equal the first. */
static void same_bytes(pqt_table *t, const char *src, const char *filter, int64_t rg_rows,
                       const char *tag)
{
    uint8_t *first = NULL;
    long first_n = 0;
    int nfiles = 0;
    for (int threads = 1; threads <= 3; threads++) {
        for (int bg = 0; bg <= 1; bg++) {
            /* one path: the file's name is written in its metadata */
            char p[300];
            snprintf(p, sizeof p, "%s/%s.parquet", g_dir, tag);
            remove(p);
            pqt_table *tt = t;
            if (src) {
                pqt_opts *ro = NULL;
                REQUIRE_OK(pqt_opts_new(&ro));
                if (filter) CHECK_OK(pqt_opts_set_str(ro, PQT_OPT_FILTER, filter));
                REQUIRE_OK(pqt_table_open(src, ro, &tt));
                pqt_opts_free(ro);
            }
            pqt_write_opts *o = opts(threads, bg, rg_rows);
            CHECK_OK(pqt_write_table(tt, p, o));
            pqt_write_opts_free(o);
            if (src) pqt_table_close(tt);
            long n = 0;
            uint8_t *b = slurp(p, &n);
            REQUIRE_OK(b == NULL);
            if (!first) {
                first = b;
                first_n = n;
            } else {
                CHECK_EQ_I64(n, first_n);
                if (n == first_n && memcmp(b, first, (size_t)n) != 0) {
                    fprintf(stderr, "%s: %d threads, background %d: other bytes\n", tag, threads, bg);
                    CHECK(0);
                }
                free(b);
            }
            nfiles++;
        }
    }
    CHECK_EQ_I64(nfiles, 6);
    free(first);
}

static pqt_table *memory_table(int64_t n)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t *a = malloc((size_t)n * 8), *off = malloc((size_t)(n + 1) * 8);
    double *v = malloc((size_t)n * 3 * sizeof *v);
    char *bytes = malloc((size_t)n * 12);
    uint8_t *valid = calloc((size_t)n / 8 + 1, 1);
    REQUIRE_OK(!a || !off || !v || !bytes || !valid);
    off[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        a[i] = i * 3 - 7;
        for (int j = 0; j < 3; j++) v[i * 3 + j] = (double)i / (j + 1);
        int len = snprintf(bytes + off[i], 12, "r%lld", (long long)(i % 977));
        off[i + 1] = off[i] + len;
        if (i % 5 != 2) valid[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    CHECK_OK(pqt_table_add_column(t, "a", PQT_INT64, 1, a, valid, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "v", PQT_FLOAT64 | PQT_VECTOR, 3, v, NULL, n, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, off, bytes, valid, n, NULL));
    free(a);
    free(off);
    free(v);
    free(bytes);
    free(valid);
    return t;
}

static void byte_limit(void)
{
    enum { N = 6000, LEN = 1000 };
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t *off = malloc((N + 1) * sizeof *off);
    char *bytes = malloc((size_t)N * LEN);
    REQUIRE_OK(!off || !bytes);
    uint64_t s = 5;
    off[0] = 0;
    for (int64_t i = 0; i < N; i++) {
        for (int j = 0; j < LEN; j++) bytes[i * LEN + j] = (char)('a' + pqt_test_rand(&s) % 26);
        off[i + 1] = off[i] + LEN;
    }
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, off, bytes, NULL, N, NULL));
    char p[300];
    snprintf(p, sizeof p, "%s/bytes.parquet", g_dir);
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_CODEC, "none"));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_NBYTES, 1 << 20));
    CHECK_OK(pqt_write_table(t, p, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    int nrg = pqt_file_nrow_groups(f);
    int64_t rows = 0;
    /* 6 MB of values: 5 or 6 row groups of about 1 MiB */
    CHECK(nrg >= 5 && nrg <= 7);
    for (int rg = 0; rg < nrg; rg++) {
        int64_t b = pqt_file_row_group_nbytes(f, rg);
        rows += pqt_file_row_group_nrows(f, rg);
        if (b > (int64_t)(1.35 * (1 << 20)) || (rg < nrg - 1 && b < (int64_t)(0.6 * (1 << 20))))
            fprintf(stderr, "row group %d of %d: %lld bytes, %lld rows\n", rg + 1, nrg,
                    (long long)b, (long long)pqt_file_row_group_nrows(f, rg));
        CHECK(b <= (int64_t)(1.35 * (1 << 20)));
        if (rg < nrg - 1) CHECK(b >= (int64_t)(0.6 * (1 << 20)));
    }
    CHECK_EQ_I64(rows, N);
    pqt_file_close(f);
    pqt_table *back = NULL;
    REQUIRE_OK(pqt_table_open(p, NULL, &back));
    int64_t *o2 = NULL, n = 0;
    char *b2 = NULL;
    uint8_t *v2 = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(back, "s", &o2, &b2, &v2, &n));
    CHECK_EQ_I64(n, N);
    CHECK(n == N && o2[N] - o2[0] == (int64_t)N * LEN && memcmp(b2 + o2[0], bytes, (size_t)N * LEN) == 0);
    pqt_free(o2);
    pqt_free(b2);
    pqt_free(v2);
    pqt_table_close(back);
    free(off);
    free(bytes);
}

static void streaming_batches(void)
{
    pqt_table *t = memory_table(1000);
    char p[300];
    snprintf(p, sizeof p, "%s/stream.parquet", g_dir);
    pqt_write_opts *o = opts(2, 1, 64);
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open(&w, p, t, o));
    pqt_write_opts_free(o);
    /* batches of 1, 7 and 1000 rows: 1 + 7 + 1000 + 1 + 7 = 1016 rows */
    int64_t sizes[] = {1, 7, 1000, 1, 7}, total = 0;
    for (int i = 0; i < 5; i++) {
        pqt_table *b = memory_table(sizes[i]);
        CHECK_OK(pqt_writer_write(w, b));
        pqt_table_close(b);
        total += sizes[i];
    }
    CHECK_OK(pqt_writer_close(w));
    pqt_table_close(t);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), (int)((total + 63) / 64));
    for (int rg = 0; rg < pqt_file_nrow_groups(f); rg++)
        CHECK_EQ_I64(pqt_file_row_group_nrows(f, rg), rg < 15 ? 64 : total - 15 * 64);
    pqt_file_close(f);
    pqt_table *back = NULL;
    REQUIRE_OK(pqt_table_open(p, NULL, &back));
    int64_t *a = NULL, n = 0;
    uint8_t *val = NULL;
    CHECK_OK(pqt_table_get_alloc(back, "a", PQT_INT64, (void **)&a, &val, &n));
    CHECK_EQ_I64(n, total);
    /* batch k's row i holds i * 3 - 7, null when i % 5 == 2 */
    int bad = 0;
    int64_t row = 0;
    for (int k = 0; k < 5 && a && val; k++)
        for (int64_t i = 0; i < sizes[k]; i++, row++) {
            int valid = val[row >> 3] >> (row & 7) & 1;
            if (valid != (i % 5 != 2) || (valid && a[row] != i * 3 - 7)) bad++;
        }
    CHECK_EQ_I64(bad, 0);
    pqt_free(a);
    pqt_free(val);
    pqt_table_close(back);
}

/* The row groups of the file at p, and its column "i" holding first + row. */
static void check_groups(const char *p, int ngroups, const int64_t *nrows, int32_t first)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), ngroups);
    for (int rg = 0; rg < ngroups && rg < pqt_file_nrow_groups(f); rg++)
        CHECK_EQ_I64(pqt_file_row_group_nrows(f, rg), nrows[rg]);
    pqt_file_close(f);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(p, NULL, &t));
    int32_t *v = NULL;
    uint8_t *val = NULL;
    int64_t n = 0, bad = 0;
    CHECK_OK(pqt_table_get_alloc(t, "i", PQT_INT32, (void **)&v, &val, &n));
    for (int64_t r = 0; v && r < n; r++) bad += v[r] != first + (int32_t)r;
    CHECK_EQ_I64(bad, 0);
    pqt_free(v);
    pqt_free(val);
    pqt_table_close(t);
}

static void copy_to(const char *src, const char *filter, const char *dst, int64_t rg_rows)
{
    pqt_opts *ro = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    if (filter) CHECK_OK(pqt_opts_set_str(ro, PQT_OPT_FILTER, filter));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(src, ro, &t));
    pqt_opts_free(ro);
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    if (rg_rows > 0) CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, rg_rows));
    CHECK_OK(pqt_write_table(t, dst, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

static void source_row_groups(void)
{
    enum { N = 1800000 };
    int32_t *x = malloc(N * sizeof *x);
    REQUIRE_OK(x == NULL);
    for (int32_t i = 0; i < N; i++) x[i] = i;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "i", PQT_INT32, 1, x, NULL, N, NULL));
    free(x);
    char src[300], dst[300];
    snprintf(src, sizeof src, "%s/src600k.parquet", g_dir);
    snprintf(dst, sizeof dst, "%s/copy600k.parquet", g_dir);
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 600000));
    CHECK_OK(pqt_write_table(t, src, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);

    copy_to(src, NULL, dst, 0);
    check_groups(dst, 3, (const int64_t[]){600000, 600000, 600000}, 0);
    copy_to(src, NULL, dst, 1048576);
    check_groups(dst, 2, (const int64_t[]){1048576, 751424}, 0);
    copy_to(src, "i >= 900000", dst, 0); /* 300,000 rows of one source group, 600,000 of the next */
    check_groups(dst, 1, (const int64_t[]){900000}, 900000);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_steps_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    pqt_table *t = memory_table(50000);
    same_bytes(t, NULL, NULL, 7000, "memory");
    pqt_table_close(t);
    /* the DuckDB file of 5 row groups of 2000 rows, filtered, into row groups of 1500 */
    same_bytes(NULL, "tests/data/table_rg.parquet", "id > 1300", 1500, "copy");
    same_bytes(NULL, "tests/data/table_rg.parquet", NULL, 3000, "whole");
    /* struct groups rebuilt from the source's presence, in row groups of 2 rows */
    same_bytes(NULL, "tests/data/struct_nulls.parquet", NULL, 2, "structs");
    same_bytes(NULL, "tests/data/struct_nulls.parquet", "id > 1", 4, "structs_filtered");
    byte_limit();
    streaming_batches();
    source_row_groups();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_steps");
}
