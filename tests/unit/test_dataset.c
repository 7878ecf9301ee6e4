/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dataset.c - many files as one table (docs/datasets.md), checked against values known
 * by construction.
 *
 * A hive folder of three files, written here: part=1/a.parquet (ids 1..100),
 * part=2/b.parquet (ids 101..250), part=__HIVE_DEFAULT_PARTITION__/c.parquet (ids
 * 251..300), x = 2 * id, each file in row groups of 40 rows. Sorted path order is the order
 * above ('1' < '2' < '_'), so the table's id column is 1..300. Checked: values, the part
 * column (int64, null for the default partition), parquet_row_index (the row within its own
 * file), parquet_file, slices across files, filters pruning files by partition value before
 * their footers are read and by statistics, clones, the schema-mismatch error naming both
 * files and the column, the union option, empty files, a member deleted before it is read,
 * and 10,000 small files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"

#define REQUIRE(cond) REQUIRE_OK((cond) ? PQT_OK : PQT_MISUSE)

static char root[256];

static void write_ids(const char *path, int64_t lo, int64_t hi, int64_t rg_rows, int with_x,
                      int x_as_string)
{
    int64_t n = hi - lo + 1;
    int64_t *id = malloc((size_t)(n + 1) * sizeof *id), *x = malloc((size_t)(n + 1) * sizeof *x);
    int64_t *off = malloc((size_t)(n + 1) * sizeof *off);
    char *bytes = malloc((size_t)(n + 1) * 24);
    REQUIRE_OK(id && x && off && bytes ? PQT_OK : PQT_NOMEM);
    off[0] = 0;
    for (int64_t i = 0; i < n; i++) {
        id[i] = lo + i;
        x[i] = 2 * (lo + i);
        off[i + 1] = off[i] + sprintf(bytes + off[i], "%lld", (long long)x[i]);
    }
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, n, NULL));
    if (with_x && !x_as_string)
        CHECK_OK(pqt_table_add_column(t, "x", PQT_INT64, 1, x, NULL, n, NULL));
    if (with_x && x_as_string)
        CHECK_OK(pqt_table_add_string_column(t, "x", 1, off, bytes, NULL, n, NULL));
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, rg_rows));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    CHECK_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    free(id);
    free(x);
    free(off);
    free(bytes);
}

static void mkdirs(const char *path)
{
    char p[512];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0700);
            *s = '/';
        }
    mkdir(p, 0700);
}

static const char *at(const char *rel)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", root, rel);
    return buf[k];
}

static pqt_table *open_with(const char *path, const char *filter, int64_t lo, int64_t hi,
                            int union_by_name)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    if (filter) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, filter));
    if (lo) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo));
    if (hi) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi));
    if (union_by_name) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_UNION_BY_NAME, 1));
    pqt_table *t = NULL;
    pqt_status st = pqt_table_open(path, o, &t);
    pqt_opts_free(o);
    if (st != PQT_OK) {
        fprintf(stderr, "open %s: %s\n", path, pqt_errmsg());
        return NULL;
    }
    return t;
}

static int64_t *get_i64(pqt_table *t, const char *name, uint8_t **valid, int64_t *n)
{
    void *d = NULL;
    CHECK_OK(pqt_table_get_alloc(t, name, PQT_INT64, &d, valid, n));
    return d;
}

static void test_hive(void)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/hive", root);
    pqt_table *t = open_with(dir, NULL, 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 300);
    int kind = 0;
    CHECK_OK(pqt_table_kind(t, "part", &kind));
    CHECK(kind == PQT_INT64);
    int64_t n = 0;
    uint8_t *pv = NULL;
    int64_t *id = get_i64(t, "id", NULL, &n), *part = get_i64(t, "part", &pv, &n);
    int64_t *ri = get_i64(t, "parquet_row_index", NULL, &n);
    int bad = 0;
    for (int64_t i = 0; i < 300; i++) {
        int64_t want_part = i < 100 ? 1 : i < 250 ? 2 : -1;
        int64_t want_ri = i < 100 ? i + 1 : i < 250 ? i - 99 : i - 249;
        int valid = pv ? (pv[i / 8] >> (i % 8)) & 1 : 1;
        bad += id[i] != i + 1 || ri[i] != want_ri ||
               (want_part < 0 ? valid : !valid || part[i] != want_part);
    }
    CHECK(bad == 0);
    pqt_free(id);
    pqt_free(part);
    pqt_free(pv);
    pqt_free(ri);
    /* parquet_file: the path relative to the root */
    pqt_column_view v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    CHECK(pqt_table_has_column(t, "parquet_file"));
    CHECK_OK(pqt_table_column(t, "parquet_file", PQT_STRING, &v));
    const char *want[3] = {"part=1/a.parquet", "part=2/b.parquet",
                           "part=__HIVE_DEFAULT_PARTITION__/c.parquet"};
    int64_t rows[3] = {0, 100, 299};
    for (int k = 0; k < 3; k++) {
        int64_t r = rows[k], len = v.str_offsets[r + 1] - v.str_offsets[r];
        CHECK(len == (int64_t)strlen(want[k]) &&
              memcmp(v.str_bytes + v.str_offsets[r], want[k], (size_t)len) == 0);
    }
    /* physical row groups: a.parquet has 3 (40, 40, 20 rows), b.parquet 4, c.parquet 2 */
    int64_t *b = NULL, file = 0;
    int nrg = 0, in_file = 0;
    CHECK_OK(pqt_table_row_group_bounds(t, 1, &b, &nrg));
    CHECK(nrg == 9 && b[6] == 101 && b[7] == 140 && b[17] == 300);
    pqt_free(b);
    CHECK(pqt_table_nfiles(t) == 3);
    CHECK(pqt_table_file_name(t, 2) && strcmp(pqt_table_file_name(t, 2), "part=2/b.parquet") == 0);
    CHECK_OK(pqt_table_row_group_file(t, 4, &file, &in_file));
    CHECK(file == 2 && in_file == 1);
    CHECK_OK(pqt_table_row_group_file(t, 9, &file, &in_file));
    CHECK(file == 3 && in_file == 2);
    CHECK(pqt_table_row_group_file(t, 10, &file, &in_file) == PQT_RANGE);
    /* a clone sees the same rows */
    pqt_table *c = NULL;
    CHECK_OK(pqt_table_clone(t, &c));
    int64_t *cid = get_i64(c, "x", NULL, &n);
    CHECK(n == 300 && cid[0] == 2 && cid[299] == 600);
    pqt_free(cid);
    pqt_table_close(c);
    pqt_table_close(t);

    /* a slice across the files */
    t = open_with(dir, NULL, 95, 105, 0);
    REQUIRE(t);
    id = get_i64(t, "id", NULL, &n);
    CHECK(n == 11 && id[0] == 95 && id[10] == 105);
    pqt_free(id);
    pqt_table_close(t);
    /* a slice past the end names the dataset's rows */
    pqt_table *none = NULL;
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 301));
    CHECK(pqt_table_open(dir, o, &none) == PQT_RANGE && strstr(pqt_errmsg(), "300 rows"));
    pqt_opts_free(o);
}

static void check_counts(pqt_table *t, int64_t files, int64_t by_part, int64_t by_stats,
                         int64_t footers)
{
    pqt_scan_counts c;
    CHECK_OK(pqt_table_scan_stats(t, &c));
    CHECK(c.files == files);
    CHECK(c.files_pruned_partition == by_part);
    CHECK(c.files_pruned_stats == by_stats);
    CHECK(c.footers_read == footers);
    if (c.files != files || c.files_pruned_partition != by_part ||
        c.files_pruned_stats != by_stats || c.footers_read != footers)
        fprintf(stderr, "counts: files %lld, by partition %lld, by stats %lld, footers %lld\n",
                (long long)c.files, (long long)c.files_pruned_partition,
                (long long)c.files_pruned_stats, (long long)c.footers_read);
}

static void test_pruning(void)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/hive", root);
    /* the partition value: the two other files' footers are never read */
    pqt_table *t = open_with(dir, "part = 2", 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 150);
    check_counts(t, 3, 2, 0, 1);
    int64_t n, *id = get_i64(t, "id", NULL, &n);
    CHECK(n == 150 && id[0] == 101 && id[149] == 250);
    pqt_free(id);
    pqt_table_close(t);
    t = open_with(dir, "part is null and id > 260", 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 40);
    check_counts(t, 3, 2, 0, 1);
    pqt_table_close(t);
    /* the first file is pruned by its values: the schema comes from the first one kept */
    t = open_with(dir, "part in (2, 7) or part is null", 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 200);
    check_counts(t, 3, 1, 0, 2);
    pqt_table_close(t);
    /* statistics: every row group of a.parquet and b.parquet refuted */
    t = open_with(dir, "x > 500", 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 50);
    check_counts(t, 3, 0, 2, 3);
    id = get_i64(t, "parquet_row_index", NULL, &n);
    CHECK(n == 50 && id[0] == 1 && id[49] == 50);
    pqt_free(id);
    pqt_table_close(t);
    /* the row index within its own file, as a rule */
    t = open_with(dir, "parquet_row_index = 1", 0, 0, 0);
    REQUIRE(t);
    id = get_i64(t, "id", NULL, &n);
    CHECK(n == 3 && id[0] == 1 && id[1] == 101 && id[2] == 251);
    pqt_free(id);
    pqt_table_close(t);
    /* nothing kept: no footer but the schema's */
    t = open_with(dir, "part = 9", 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 0);
    pqt_table_close(t);
}

static void test_errors(void)
{
    /* x int64 in one file, string in the other */
    mkdirs(at("mismatch"));
    write_ids(at("mismatch/a.parquet"), 1, 10, 10, 1, 0);
    write_ids(at("mismatch/b.parquet"), 11, 20, 10, 1, 1);
    pqt_table *t = NULL;
    CHECK(pqt_table_open(at("mismatch"), NULL, &t) == PQT_SCHEMA_MISMATCH);
    const char *m = pqt_errmsg();
    CHECK(strstr(m, "'x'") && strstr(m, "a.parquet") && strstr(m, "b.parquet"));
    /* a column one file lacks: an error, or nulls there by name */
    mkdirs(at("union"));
    write_ids(at("union/a.parquet"), 1, 10, 10, 1, 0);
    write_ids(at("union/b.parquet"), 11, 20, 10, 0, 0);
    CHECK(pqt_table_open(at("union"), NULL, &t) == PQT_SCHEMA_MISMATCH);
    CHECK(strstr(pqt_errmsg(), "'x'") && strstr(pqt_errmsg(), "b.parquet"));
    t = open_with(at("union"), NULL, 0, 0, 1);
    REQUIRE(t);
    int64_t n;
    uint8_t *xv = NULL;
    int64_t *x = get_i64(t, "x", &xv, &n);
    int bad = n != 20 || !xv;
    for (int64_t i = 0; !bad && i < 20; i++)
        bad = ((xv[i / 8] >> (i % 8)) & 1) != (i < 10) || (i < 10 && x[i] != 2 * (i + 1));
    CHECK(bad == 0);
    pqt_free(x);
    pqt_free(xv);
    pqt_table_close(t);
    t = open_with(at("union"), "x is null", 0, 0, 1);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 10);
    pqt_table_close(t);
    /* empty files hold no rows and do not disturb the rest */
    mkdirs(at("empty"));
    write_ids(at("empty/a.parquet"), 1, 10, 10, 1, 0);
    write_ids(at("empty/b.parquet"), 1, 0, 10, 1, 0);
    write_ids(at("empty/c.parquet"), 11, 12, 10, 1, 0);
    t = open_with(at("empty"), NULL, 0, 0, 0);
    REQUIRE(t);
    x = get_i64(t, "id", NULL, &n);
    CHECK(n == 12 && x[10] == 11 && x[11] == 12);
    pqt_free(x);
    pqt_table_close(t);
    /* nothing to read */
    mkdirs(at("nothing"));
    CHECK(pqt_table_open(at("nothing"), NULL, &t) == PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "nothing"));
    CHECK(pqt_table_open(at("nothing/*.parquet"), NULL, &t) == PQT_NOT_FOUND);
}

/* 10,000 small files (copies of one: ids 1 and 2), opened, counted and read in path order;
 * a member deleted after the open (closed by then: at most 64 stay open) is an error naming
 * it, not a crash. */
static void test_many(void)
{
    enum { NFILES = 10000 };
    char dir[600], path[700];
    snprintf(dir, sizeof dir, "%s/many", root);
    mkdirs(dir);
    write_ids(at("one.parquet"), 1, 2, 10, 0, 0);
    FILE *in = fopen(at("one.parquet"), "rb");
    REQUIRE(in);
    static char bytes[1 << 16];
    size_t nb = fread(bytes, 1, sizeof bytes, in);
    fclose(in);
    REQUIRE(nb > 0 && nb < sizeof bytes);
    for (int i = 0; i < NFILES; i++) {
        snprintf(path, sizeof path, "%s/f%05d.parquet", dir, i);
        FILE *out = fopen(path, "wb");
        REQUIRE(out && fwrite(bytes, 1, nb, out) == nb);
        fclose(out);
    }
    pqt_table *t = open_with(dir, NULL, 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 2 * NFILES);
    int64_t n, *id = get_i64(t, "id", NULL, &n);
    int bad = n != 2 * NFILES;
    for (int64_t i = 0; !bad && i < n; i++)
        bad = id[i] != i % 2 + 1;
    CHECK(bad == 0);
    pqt_free(id);
    pqt_column_view v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    CHECK_OK(pqt_table_column(t, "parquet_file", PQT_STRING, &v));
    for (int i = 0; i < NFILES && v.str_offsets; i += 997) {
        char want[32];
        int len = snprintf(want, sizeof want, "f%05d.parquet", i);
        int64_t r = 2 * (int64_t)i + 1;
        CHECK(v.str_offsets[r + 1] - v.str_offsets[r] == len &&
              memcmp(v.str_bytes + v.str_offsets[r], want, (size_t)len) == 0);
    }
    pqt_table_close(t);
    /* a glob picks some */
    snprintf(path, sizeof path, "%s/f0000[0-4].parquet", dir);
    t = open_with(path, NULL, 0, 0, 0);
    REQUIRE(t);
    CHECK(pqt_table_nrows(t) == 10);
    pqt_table_close(t);
    /* deleted between the open and the read */
    t = open_with(dir, NULL, 0, 0, 0);
    REQUIRE(t);
    snprintf(path, sizeof path, "%s/f00000.parquet", dir);
    CHECK(unlink(path) == 0);
    void *d = NULL;
    CHECK(pqt_table_get_alloc(t, "id", PQT_INT64, &d, NULL, NULL) == PQT_IO);
    CHECK(strstr(pqt_errmsg(), "f00000.parquet") != NULL);
    pqt_free(d);
    pqt_table_close(t);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/pqt_test_dataset_XXXXXX");
    REQUIRE(mkdtemp(root) != NULL);
    mkdirs(at("hive/part=1"));
    mkdirs(at("hive/part=2"));
    mkdirs(at("hive/part=__HIVE_DEFAULT_PARTITION__"));
    write_ids(at("hive/part=1/a.parquet"), 1, 100, 40, 1, 0);
    write_ids(at("hive/part=2/b.parquet"), 101, 250, 40, 1, 0);
    write_ids(at("hive/part=__HIVE_DEFAULT_PARTITION__/c.parquet"), 251, 300, 40, 1, 0);
    test_hive();
    test_pruning();
    test_errors();
    test_many();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
    return pqt_test_done("test_dataset");
}
