/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_rows.c - rows a caller selects and row groups cut on request:
 * pqt_table_filter_rows_mask (in memory: gathered; over a file: still attached, never-read
 * columns read only the kept rows, the row index names file rows), pqt_write_table_mask
 * (only the kept rows written, the table unchanged), pqt_writer_flush (a row group cut at
 * once) and pqt_writer_write_chunk (exactly one row group whatever PQT_WOPT_ROW_GROUP_ROWS
 * says; pending rows cut first; no row is PQT_MISUSE and the writer stays usable). Truth:
 * the values the test put in, read back from the written files; the row groups from the
 * footer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

static char g_dir[256];

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", g_dir, name);
}

/* id = 1..n (int64), x = id * 0.5 with id % 4 == 0 null, s = "r<id>", v = (id, -id) int32 */
static pqt_table *sample(int64_t n)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t *id = calloc((size_t)n, sizeof *id), *so = calloc((size_t)n + 1, sizeof *so);
    double *x = calloc((size_t)n, sizeof *x);
    int32_t *v = calloc((size_t)n * 2, sizeof *v);
    uint8_t *xv = calloc((size_t)n / 8 + 1, 1);
    char *bytes = calloc((size_t)n * 24 + 1, 1);
    REQUIRE_OK(!id || !so || !x || !v || !xv || !bytes);
    size_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        id[i] = i + 1;
        x[i] = (double)(i + 1) * 0.5;
        if ((i + 1) % 4 != 0) xv[i / 8] |= (uint8_t)(1u << (i % 8));
        v[2 * i] = (int32_t)(i + 1);
        v[2 * i + 1] = (int32_t)-(i + 1);
        at += (size_t)sprintf(bytes + at, "r%lld", (long long)(i + 1));
        so[i + 1] = (int64_t)at;
    }
    CHECK_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, xv, n, "m"));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, so, bytes, NULL, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "v", PQT_INT32 | PQT_VECTOR, 2, v, NULL, n, NULL));
    free(id);
    free(so);
    free(x);
    free(v);
    free(xv);
    free(bytes);
    return t;
}

static int residency(const pqt_table *t, const char *name)
{
    int r = -1;
    CHECK_OK(pqt_table_residency(t, name, &r));
    return r;
}

/* The ids of t (up to cap), their count returned. */
static int64_t ids_of(pqt_table *t, int64_t *out, int64_t cap)
{
    int64_t n = pqt_table_nrows(t);
    if (n > cap) return -1;
    CHECK_OK(pqt_table_get(t, "id", PQT_INT64, out, (size_t)n * sizeof *out, NULL, 0));
    return n;
}

/* Every column of a row of t agrees with sample()'s formulas for that id. */
static void check_rows_match_ids(pqt_table *t)
{
    int64_t n = pqt_table_nrows(t), id[64];
    REQUIRE_OK(n > 64);
    CHECK_EQ_I64(ids_of(t, id, 64), n);
    double x[64];
    uint8_t xv[8] = {0};
    int32_t v[128];
    CHECK_OK(pqt_table_get(t, "x", PQT_FLOAT64, x, (size_t)n * sizeof *x, xv, sizeof xv));
    CHECK_OK(pqt_table_get(t, "v", PQT_INT32, v, (size_t)n * 2 * sizeof *v, NULL, 0));
    for (int64_t i = 0; i < n; i++) {
        int valid = xv[i / 8] >> (i % 8) & 1;
        CHECK_EQ_I64(valid, id[i] % 4 != 0);
        if (valid) CHECK(x[i] == (double)id[i] * 0.5);
        CHECK_EQ_I64(v[2 * i], id[i]);
        CHECK_EQ_I64(v[2 * i + 1], -id[i]);
        const char *p = NULL;
        int64_t len = 0;
        int isnull = 1;
        char want[32];
        snprintf(want, sizeof want, "r%lld", (long long)id[i]);
        CHECK_OK(pqt_table_get_string(t, "s", i + 1, 0, &p, &len, &isnull));
        CHECK(!isnull && len == (int64_t)strlen(want) && p && memcmp(p, want, (size_t)len) == 0);
    }
}

static void mask_in_memory(void)
{
    pqt_table *t = sample(10);
    uint8_t all[10], keep[10] = {1, 0, 2, 0, 0, 1, 0, 0, 0, 1}; /* any nonzero keeps */
    memset(all, 1, sizeof all);
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_table_filter_rows_mask(t, all));
    CHECK_EQ_I64(pqt_table_generation(t), g); /* every row kept: nothing changed */
    CHECK_EQ_I64(pqt_table_filter_rows_mask(t, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_filter_rows_mask(NULL, keep), PQT_MISUSE);
    CHECK_OK(pqt_table_filter_rows_mask(t, keep));
    int64_t id[16];
    CHECK_EQ_I64(ids_of(t, id, 16), 4);
    CHECK(id[0] == 1 && id[1] == 3 && id[2] == 6 && id[3] == 10);
    CHECK(pqt_table_generation(t) > g);
    check_rows_match_ids(t);
    pqt_table_close(t);
}

/* A file written from sample(40) in row groups of 10: masking keeps it attached. */
static void mask_over_file(const char *src)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(src, NULL, &t));
    const char *idname[] = {"id"};
    CHECK_OK(pqt_table_prefetch(t, idname, 1));
    uint8_t keep[40] = {0};
    keep[0] = keep[4] = keep[22] = keep[39] = 1;
    CHECK_OK(pqt_table_filter_rows_mask(t, keep));
    CHECK_EQ_I64(pqt_table_nrows(t), 4);
    CHECK(!pqt_table_is_detached(t));
    CHECK_EQ_I64(residency(t, "x"), PQT_RES_EMPTY);
    check_rows_match_ids(t); /* x, v, s read now: only the kept rows */
    int64_t ri[4];
    CHECK_OK(pqt_table_get(t, PQT_ROW_INDEX, PQT_INT64, ri, sizeof ri, NULL, 0));
    CHECK(ri[0] == 1 && ri[1] == 5 && ri[2] == 23 && ri[3] == 40);
    pqt_table_close(t);
}

static void write_mask(const char *src)
{
    char p[300], q[300];
    path_of(p, sizeof p, "mask_mem.parquet");
    pqt_table *t = sample(12);
    uint8_t keep[12] = {0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1};
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_write_table_mask(t, keep, p, NULL));
    CHECK_EQ_I64(pqt_table_nrows(t), 12); /* the caller's table does not change */
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(p, NULL, &t));
    int64_t id[16];
    CHECK_EQ_I64(ids_of(t, id, 16), 4);
    CHECK(id[0] == 2 && id[1] == 3 && id[2] == 8 && id[3] == 12);
    check_rows_match_ids(t);
    pqt_table_close(t);

    /* from a file: columns never read read only the kept rows; the row index names file
     * rows */
    REQUIRE_OK(pqt_table_open(src, NULL, &t));
    uint8_t k40[40] = {0};
    k40[9] = k40[10] = k40[31] = 1;
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_ROW_INDEX_NAME, "row"));
    path_of(q, sizeof q, "mask_file.parquet");
    CHECK_OK(pqt_write_table_mask(t, k40, q, o));
    CHECK_EQ_I64(pqt_table_nrows(t), 40);
    CHECK_EQ_I64(residency(t, "x"), PQT_RES_EMPTY);
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(q, NULL, &t));
    CHECK_EQ_I64(ids_of(t, id, 16), 3);
    CHECK(id[0] == 10 && id[1] == 11 && id[2] == 32);
    int64_t row[3];
    CHECK_OK(pqt_table_get(t, "row", PQT_INT64, row, sizeof row, NULL, 0));
    CHECK(row[0] == 10 && row[1] == 11 && row[2] == 32);
    check_rows_match_ids(t);
    pqt_table_close(t);

    /* a table sorted at open (id descending): the kept rows in that order, every column */
    pqt_opts *so = NULL;
    REQUIRE_OK(pqt_opts_new(&so));
    REQUIRE_OK(pqt_opts_set_sort(so, "-id"));
    REQUIRE_OK(pqt_table_open(src, so, &t));
    pqt_opts_free(so);
    memset(k40, 0, sizeof k40);
    k40[0] = k40[1] = k40[39] = 1; /* table rows 1, 2, 40: ids 40, 39, 1 */
    path_of(q, sizeof q, "mask_sorted.parquet");
    CHECK_OK(pqt_write_table_mask(t, k40, q, NULL));
    CHECK_EQ_I64(residency(t, "x"), PQT_RES_EMPTY);
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(q, NULL, &t));
    CHECK_EQ_I64(ids_of(t, id, 16), 3);
    CHECK(id[0] == 40 && id[1] == 39 && id[2] == 1);
    check_rows_match_ids(t);
    pqt_table_close(t);

    /* every row kept, or no mask: an ordinary write; a failure names the path */
    path_of(q, sizeof q, "mask_file.parquet");
    REQUIRE_OK(pqt_table_open(src, NULL, &t));
    CHECK_EQ_I64(pqt_write_table_mask(t, k40, q, NULL), PQT_EXISTS);
    CHECK(strstr(pqt_errmsg(), "mask_file.parquet") != NULL);
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    CHECK_OK(pqt_write_table_mask(t, NULL, q, o));
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(q, NULL, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), 40);
    pqt_table_close(t);
    pqt_write_opts_free(o);
}

/* The row groups of a written file. */
static void check_groups(const char *path, const int64_t *want, int n)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), n);
    for (int i = 0; i < n && i < pqt_file_nrow_groups(f); i++)
        CHECK_EQ_I64(pqt_file_row_group_nrows(f, i), want[i]);
    pqt_file_close(f);
}

static void flush_and_chunks(void)
{
    char p[300];
    path_of(p, sizeof p, "chunks.parquet");
    pqt_table *t5 = sample(5), *t1 = sample(1), *empty = NULL;
    REQUIRE_OK(pqt_table_new(&empty));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 2));
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open(&w, p, t5, o));
    CHECK_EQ_I64(pqt_writer_flush(NULL), PQT_MISUSE);
    CHECK_OK(pqt_writer_flush(w)); /* nothing pending: no row group */
    CHECK_OK(pqt_writer_write(w, t1));
    CHECK_OK(pqt_writer_flush(w)); /* 1 */
    CHECK_OK(pqt_writer_flush(w)); /* again: nothing */
    CHECK_OK(pqt_writer_write_chunk(w, t5, NULL)); /* 5, not 2 + 2 + 1 */
    CHECK_OK(pqt_writer_write(w, t1));           /* pending 1, cut by the chunk: 1 */
    uint8_t keep[5] = {0, 1, 0, 1, 1};
    CHECK_OK(pqt_writer_write_chunk(w, t5, keep)); /* 3: ids 2, 4, 5 */
    CHECK_EQ_I64(pqt_table_nrows(t5), 5);         /* the table does not change */
    uint8_t none[5] = {0};
    CHECK_EQ_I64(pqt_writer_write_chunk(w, t5, none), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "keeps none") != NULL);
    CHECK_EQ_I64(pqt_writer_write_chunk(w, empty, NULL), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "empty") != NULL);
    CHECK_OK(pqt_writer_write(w, t5)); /* the writer is still usable: 2 + 2 + 1 */
    CHECK_EQ_I64(pqt_writer_nrows(w), 1 + 5 + 1 + 3 + 5);
    CHECK_OK(pqt_writer_close(w));
    int64_t want[] = {1, 5, 1, 3, 2, 2, 1};
    check_groups(p, want, 7);
    pqt_table *r = NULL;
    REQUIRE_OK(pqt_table_open(p, NULL, &r));
    int64_t id[32], exp[] = {1, 1, 2, 3, 4, 5, 1, 2, 4, 5, 1, 2, 3, 4, 5};
    CHECK_EQ_I64(ids_of(r, id, 32), 15);
    for (int i = 0; i < 15; i++) CHECK_EQ_I64(id[i], exp[i]);
    check_rows_match_ids(r);
    pqt_table_close(r);

    /* a failed chunk leaves the writer unusable, as a failed write does */
    path_of(p, sizeof p, "chunks_bad.parquet");
    REQUIRE_OK(pqt_writer_open(&w, p, t5, o));
    pqt_table *other = NULL;
    REQUIRE_OK(pqt_table_new(&other));
    int32_t wrong[2] = {1, 2};
    CHECK_OK(pqt_table_add_column(other, "id", PQT_INT32, 1, wrong, NULL, 2, NULL));
    CHECK_EQ_I64(pqt_writer_write_chunk(w, other, NULL), PQT_KIND);
    CHECK_EQ_I64(pqt_writer_flush(w), PQT_MISUSE);
    pqt_writer_abort(w);
    CHECK(access(p, F_OK) != 0);
    pqt_table_close(other);
    pqt_write_opts_free(o);
    pqt_table_close(t5);
    pqt_table_close(t1);
    pqt_table_close(empty);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_rows_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    char src[300];
    path_of(src, sizeof src, "src40.parquet");
    pqt_table *t = sample(40);
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 10));
    REQUIRE_OK(pqt_write_table(t, src, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);

    mask_in_memory();
    mask_over_file(src);
    write_mask(src);
    flush_and_chunks();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_rows");
}
