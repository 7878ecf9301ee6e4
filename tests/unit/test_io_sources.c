/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_io_sources.c - a file opened from memory or from a descriptor reads exactly as the
 * same file opened by path (pqt_file_open_mem/_fd, pqt_table_open_mem/_fd; issue 9).
 *
 * Truth: the path-opened read of the same bytes, compared byte for byte (values, validity,
 * offsets, string bytes), and for files that fail, the same status and message (the memory
 * and descriptor sources are given the path as their name). Files: every .parquet in tests/data
 * and every parquet-testing data/ and bad_data/ file. Plus: truncated memory buffers (every
 * prefix of a file, and a file whose middle is cut out) give a clean status; a clone of a
 * memory table shares the caller's bytes; the descriptor is the caller's to close.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

static uint8_t *slurp(const char *path, size_t *n_ret)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(fp);
    *n_ret = (size_t)n;
    return b;
}

static int bit(const uint8_t *bm, int64_t i) { return !bm || (bm[i >> 3] >> (i & 7) & 1); }

/* Two reads of the same column agree byte for byte. */
static void same_array(const char *path, int col, const pqt_array *a, const pqt_array *b)
{
    int bad = 0;
    int64_t nrows = pqt_array_nrows(a);
    int kind = pqt_array_kind(a), width = pqt_array_width(a);
    bad |= nrows != pqt_array_nrows(b) || kind != pqt_array_kind(b) || width != pqt_array_width(b);
    const int64_t *lo_a = pqt_array_list_offsets(a), *lo_b = pqt_array_list_offsets(b);
    int64_t nelem = nrows;
    if (!bad && (kind & PQT_LIST)) {
        bad |= !lo_a || !lo_b || memcmp(lo_a, lo_b, (size_t)(nrows + 1) * 8) != 0;
        if (!bad) nelem = lo_a[nrows];
    } else if (kind & PQT_VECTOR) {
        nelem = nrows * width;
    }
    if (!bad && PQT_KIND_IS_BYTES(PQT_KIND_ELEMENT(kind))) {
        const int64_t *oa = pqt_array_str_offsets(a), *ob = pqt_array_str_offsets(b);
        bad |= !oa || !ob || memcmp(oa, ob, (size_t)(nelem + 1) * 8) != 0;
        if (!bad)
            bad |= memcmp(pqt_array_bytes(a) + oa[0], pqt_array_bytes(b) + ob[0],
                          (size_t)(oa[nelem] - oa[0])) != 0;
    } else if (!bad) {
        size_t esz = pqt_kind_elem_nbytes(kind);
        bad |= memcmp(pqt_array_data(a), pqt_array_data(b), (size_t)nelem * esz) != 0;
    }
    const uint8_t *va = pqt_array_validity(a), *vb = pqt_array_validity(b);
    for (int64_t i = 0; !bad && i < nelem; i++) bad |= bit(va, i) != bit(vb, i);
    const uint8_t *ra = pqt_array_row_validity(a), *rb = pqt_array_row_validity(b);
    for (int64_t i = 0; !bad && (kind & PQT_LIST) && i < nrows; i++) bad |= bit(ra, i) != bit(rb, i);
    if (bad) {
        fprintf(stderr, "%s column %d: reads differ\n", path, col);
        pqt_test_failures++;
    }
}

/* Every column of the file opened three ways reads the same; failures fail alike. */
static void check_file(const char *path, int *nread)
{
    size_t n;
    uint8_t *bytes = slurp(path, &n);
    if (!bytes) {
        fprintf(stderr, "cannot read %s\n", path);
        pqt_test_failures++;
        return;
    }
    int fd = open(path, O_RDONLY);
    pqt_file *fp = NULL, *fm = NULL, *fd_f = NULL;
    pqt_status sp = pqt_file_open(path, NULL, &fp);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", pqt_errmsg());
    pqt_status sm = pqt_file_open_mem(bytes, n, path, NULL, &fm);
    CHECK_EQ_I64(sm, sp);
    if (sp != PQT_OK && strcmp(msg, pqt_errmsg()) != 0) {
        fprintf(stderr, "%s: open messages differ:\n  %s\n  %s\n", path, msg, pqt_errmsg());
        pqt_test_failures++;
    }
    pqt_status sd = pqt_file_open_fd(fd, path, NULL, &fd_f);
    CHECK_EQ_I64(sd, sp);
    close(fd); /* the handle has its own descriptor */
    if (sp == PQT_OK && sm == PQT_OK && sd == PQT_OK) {
        CHECK(strcmp(pqt_file_path(fm), path) == 0);
        int64_t rows = pqt_file_nrows(fp);
        for (int c = 0; rows > 0 && c < pqt_file_ncols(fp); c++) {
            pqt_array *ap = NULL, *am = NULL, *ad = NULL;
            sp = pqt_file_read(fp, c, 1, rows, &ap);
            snprintf(msg, sizeof msg, "%s", pqt_errmsg());
            sm = pqt_file_read(fm, c, 1, rows, &am);
            if (sm != sp || (sp != PQT_OK && strcmp(msg, pqt_errmsg()) != 0)) {
                fprintf(stderr, "%s column %d: path %d (%s), memory %d (%s)\n", path, c, sp, msg,
                        sm, pqt_errmsg());
                pqt_test_failures++;
            }
            sd = pqt_file_read(fd_f, c, 1, rows, &ad);
            CHECK_EQ_I64(sd, sp);
            if (sp == PQT_OK && sm == PQT_OK) same_array(path, c, ap, am);
            if (sp == PQT_OK && sd == PQT_OK) same_array(path, c, ap, ad);
            *nread += sp == PQT_OK;
            pqt_array_free(ap);
            pqt_array_free(am);
            pqt_array_free(ad);
        }
    }
    pqt_file_close(fp);
    pqt_file_close(fm);
    pqt_file_close(fd_f);
    free(bytes);
}

static void check_dir(const char *dir, int *nfiles, int *nread)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "missing input folder %s\n", dir);
        pqt_test_failures++;
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 8 || strcmp(e->d_name + len - 8, ".parquet") != 0) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        check_file(path, nread);
        (*nfiles)++;
    }
    closedir(d);
}

/* Every prefix of a file in memory (an exact-size allocation, so a sanitizer sees any read
 * past it) is refused at open with PQT_CORRUPT, or -- when the tail is whole -- opens. */
static void test_truncated_buffers(void)
{
    const char *path = "tests/data/table_rg.parquet";
    size_t n;
    uint8_t *bytes = slurp(path, &n);
    REQUIRE_OK(bytes ? PQT_OK : PQT_IO);
    for (size_t len = 0; len < n; len += len < 64 ? 1 : 997) {
        uint8_t *p = malloc(len ? len : 1);
        memcpy(p, bytes, len);
        pqt_file *f = NULL;
        pqt_status st = pqt_file_open_mem(p, len, "cut.parquet", NULL, &f);
        CHECK_EQ_I64(st, PQT_CORRUPT);
        CHECK(f == NULL);
        CHECK(strstr(pqt_errmsg(), "cut.parquet") != NULL);
        free(p);
    }
    /* the middle cut out: magic and footer intact, so it opens, but the chunks the footer
     * places in the missing bytes are outside the buffer: a clean error naming them */
    size_t cut = n / 3;
    uint8_t *p = malloc(n - cut);
    memcpy(p, bytes, 4);
    memcpy(p + 4, bytes + 4 + cut, n - cut - 4);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open_mem(p, n - cut, "middle.parquet", NULL, &t));
    int64_t *ids = NULL, ne = 0;
    pqt_status st = pqt_table_get_alloc(t, "id", 0, (void **)&ids, NULL, &ne);
    CHECK(st == PQT_CORRUPT || st == PQT_CORRUPT_PAGE || st == PQT_IO);
    CHECK(strstr(pqt_errmsg(), "middle.parquet") != NULL);
    pqt_table_close(t);
    free(p);
    free(bytes);
}

/* A table in memory: values right (id = 1..10000, DuckDB), clones share the caller's bytes
 * (the name is not a path that exists, so a clone that reopened by name would fail). */
static void test_table_mem_clone(void)
{
    size_t n;
    uint8_t *bytes = slurp("tests/data/table_rg.parquet", &n);
    REQUIRE_OK(bytes ? PQT_OK : PQT_IO);
    pqt_table *t = NULL, *c = NULL;
    REQUIRE_OK(pqt_table_open_mem(bytes, n, "no/such/dir/rg.parquet", NULL, &t));
    CHECK(strcmp(pqt_table_filename(t), "no/such/dir/rg.parquet") == 0);
    CHECK_OK(pqt_table_clone(t, &c));
    pqt_table_close(t); /* the clone still reads the caller's bytes */
    int64_t *ids = NULL, ne = 0;
    if (c) CHECK_OK(pqt_table_get_alloc(c, "id", 0, (void **)&ids, NULL, &ne));
    CHECK_EQ_I64(ne, 10000);
    for (int64_t i = 0; ids && i < ne; i++)
        if (ids[i] != i + 1) {
            CHECK_EQ_I64(ids[i], i + 1);
            break;
        }
    pqt_free(ids);
    pqt_table_close(c);
    free(bytes);
}

/* Descriptors: the caller may close theirs at once; clones share the handle's own copy;
 * a descriptor that is not open, or not a regular file, is PQT_IO. */
static void test_table_fd(void)
{
    int fd = open("tests/data/table_rg.parquet", O_RDONLY);
    REQUIRE_OK(fd >= 0 ? PQT_OK : PQT_IO);
    pqt_table *t = NULL, *c = NULL;
    CHECK_OK(pqt_table_open_fd(fd, NULL, NULL, &t));
    close(fd);
    char want[32];
    snprintf(want, sizeof want, "fd %d", fd);
    if (t) CHECK(strcmp(pqt_table_filename(t), want) == 0);
    if (t) CHECK_OK(pqt_table_clone(t, &c));
    pqt_table_close(t);
    double *v = NULL;
    int64_t ne = 0;
    if (c) CHECK_OK(pqt_table_get_alloc(c, "f64", 0, (void **)&v, NULL, &ne));
    CHECK_EQ_I64(ne, 10000);
    pqt_free(v);
    pqt_table_close(c);
    pqt_file *f = NULL;
    CHECK_EQ_I64(pqt_file_open_fd(fd, "closed", NULL, &f), PQT_IO); /* closed above */
    CHECK(strstr(pqt_errmsg(), "closed") != NULL);
    int dfd = open("tests/data", O_RDONLY);
    CHECK_EQ_I64(pqt_file_open_fd(dfd, NULL, NULL, &f), PQT_IO);
    close(dfd);
    CHECK_EQ_I64(pqt_file_open_mem(NULL, 10, NULL, NULL, &f), PQT_MISUSE);
    CHECK(f == NULL);
}

int main(void)
{
    int nfiles = 0, nread = 0;
    check_dir("tests/data", &nfiles, &nread);
    check_dir("tests/data/parquet-testing/data", &nfiles, &nread);
    check_dir("tests/data/parquet-testing/bad_data", &nfiles, &nread);
    /* the folders hold ~80 files with hundreds of readable columns: a silent empty loop
     * would prove nothing */
    CHECK(nfiles >= 70);
    CHECK(nread >= 300);
    fprintf(stderr, "test_io_sources: %d files, %d column reads compared\n", nfiles, nread);
    test_truncated_buffers();
    test_table_mem_clone();
    test_table_fd();
    return pqt_test_done("test_io_sources");
}
