/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_io_truncate.c - a file that shrinks while it is open gives PQT_IO naming the file and
 * the offset, not SIGBUS (issue 9: `pqt cat` died with exit 135 after 1,468 rows when the
 * file was read through a mapping).
 *
 * Works on copies of tests/data/table_rg.parquet (DuckDB, make_table_data.mjs; 10000 rows:
 * id = 1..10000) in a fresh temporary folder. Truth: the untruncated copy's values, and
 * where the bytes end (the offsets checked are the chunk offsets of the file's footer,
 * which pqt_file_* does not expose, so they are found by reading the column back).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

#define RG "tests/data/table_rg.parquet"

static char dir[64];

/* Copy RG into dir/name; returns the copy's path (static storage per name slot). */
static const char *copy_of(const char *name, char *out, size_t out_n, off_t *size_ret)
{
    snprintf(out, out_n, "%s/%s", dir, name);
    int in = open(RG, O_RDONLY), o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || o < 0) {
        fprintf(stderr, "cannot copy %s to %s: %s\n", RG, out, strerror(errno));
        exit(1);
    }
    char buf[65536];
    ssize_t n;
    off_t total = 0;
    while ((n = read(in, buf, sizeof buf)) > 0) {
        if (write(o, buf, (size_t)n) != n) exit(1);
        total += n;
    }
    close(in);
    close(o);
    *size_ret = total;
    return out;
}

static int contains(const char *s, const char *sub) { return s && strstr(s, sub) != NULL; }

/* Table open, then the file loses everything after its first 100 bytes: every first touch
 * is a clean PQT_IO naming the file and an offset. */
static void test_table_truncated_to_head(void)
{
    char path[128];
    off_t size;
    copy_of("head.parquet", path, sizeof path, &size);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    CHECK(truncate(path, 100) == 0);
    const char *names[] = {"id", "i32", "f64", "s", "vec", "lst"};
    for (int k = 0; k < 6; k++) {
        void *d = NULL;
        int64_t n = 0;
        pqt_status st;
        if (k == 3) {
            char *bytes = NULL;
            int64_t *off = NULL;
            st = pqt_table_get_strings_alloc(t, names[k], &off, &bytes, NULL, &n);
            pqt_free(off);
            pqt_free(bytes);
        } else if (k >= 4) {
            int64_t *lo = NULL;
            st = pqt_table_get_list_alloc(t, names[k], 0, &lo, &d, NULL, NULL, &n);
            pqt_free(lo);
        } else {
            st = pqt_table_get_alloc(t, names[k], 0, &d, NULL, &n);
        }
        pqt_free(d);
        CHECK_EQ_I64(st, PQT_IO);
        CHECK(contains(pqt_errmsg(), path));
        CHECK(contains(pqt_errmsg(), "offset"));
        int res = -1;
        CHECK_OK(pqt_table_residency(t, names[k], &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY); /* a failed call changed nothing */
    }
    pqt_table_close(t);
}

/* The file shrinks inside a column chunk: the pread comes back short. Every column is
 * either read whole and right (it ends before the cut) or refused with PQT_IO; the id
 * column spans the whole file, so it must be refused. */
static void test_file_cut_mid_chunk(void)
{
    char path[128];
    off_t size;
    copy_of("mid.parquet", path, sizeof path, &size);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    int64_t n = pqt_file_nrows(f);
    CHECK_EQ_I64(n, 10000);
    CHECK(truncate(path, size / 2) == 0);
    int col = -1;
    CHECK_OK(pqt_file_find_column(f, "id", &col));
    int64_t *ids = calloc((size_t)n, sizeof *ids);
    pqt_status st = pqt_file_read_into(f, col, 1, n, ids, (size_t)n * sizeof *ids, NULL);
    CHECK_EQ_I64(st, PQT_IO);
    CHECK(contains(pqt_errmsg(), path));
    CHECK(contains(pqt_errmsg(), "offset"));
    /* the first row group of id lies in the first half: still readable, and right */
    int64_t rg1 = pqt_file_row_group_nrows(f, 0);
    CHECK_OK(pqt_file_read_into(f, col, 1, rg1, ids, (size_t)rg1 * sizeof *ids, NULL));
    for (int64_t i = 0; i < rg1; i++)
        if (ids[i] != i + 1) {
            CHECK_EQ_I64(ids[i], i + 1);
            break;
        }
    /* every other column: right or PQT_IO, never a signal */
    for (int c = 0; c < pqt_file_ncols(f); c++) {
        pqt_array *a = NULL;
        st = pqt_file_read(f, c, 1, n, &a);
        CHECK(st == PQT_OK || st == PQT_IO);
        if (st == PQT_IO) CHECK(contains(pqt_errmsg(), path));
        pqt_array_free(a);
    }
    free(ids);
    pqt_file_close(f);
}

/* A table whose column was read before the cut keeps it; an unread one fails cleanly; a
 * clone reads the footer again from the same (now short) source: PQT_IO too. */
static void test_resident_survives(void)
{
    char path[128];
    off_t size;
    copy_of("res.parquet", path, sizeof path, &size);
    pqt_table *t = NULL, *c = NULL;
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    const char *first[] = {"i32"};
    CHECK_OK(pqt_table_prefetch(t, first, 1));
    CHECK(truncate(path, 4) == 0);
    int32_t *v = NULL;
    int64_t n = 0;
    CHECK_OK(pqt_table_get_alloc(t, "i32", 0, (void **)&v, NULL, &n));
    CHECK_EQ_I64(n, 10000);
    pqt_free(v);
    double *d = NULL;
    CHECK_EQ_I64(pqt_table_get_alloc(t, "f64", 0, (void **)&d, NULL, &n), PQT_IO);
    CHECK_EQ_I64(pqt_table_clone(t, &c), PQT_IO);
    CHECK(c == NULL);
    pqt_table_close(c);
    pqt_table_close(t);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/pqt-trunc-XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp %s: %s\n", dir, strerror(errno));
        return 1;
    }
    test_table_truncated_to_head();
    test_file_cut_mid_chunk();
    test_resident_survives();
    const char *names[] = {"head.parquet", "mid.parquet", "res.parquet"};
    char p[128];
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
    return pqt_test_done("test_io_truncate");
}
