/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_dataset.c - pqt_write_dataset and pqt_write_metadata_summary: the folders a
 * hive dataset gets (nulls, percent-encoding, bool and date keys), each file's rows (the
 * partition's rows of a hand-built table, in table order, without the key columns), the
 * _metadata summary (a footer-only file pqt_file_open opens: row groups, rows, every chunk's
 * file_path, statistics equal to the files' own and to hand-computed bounds), the
 * _common_metadata schema, a file-backed table (sorted by the write, and already in
 * partition order), struct leaves (the definition levels of s.a in each partition: the
 * struct's nulls are each row's own), and failures that leave nothing behind (a float key, too many
 * partitions, a non-empty directory, a missing key, schemas that differ). Truth: the
 * folder names and row sets worked out by hand below.
 */
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/file_access.h"
#include "column/column.h"
#include "column/page_levels.h"
#include "format/footer.h"
#include "pqt_file.h"
#include "testutil.h"
#include "util/buf.h"
#include "util/io.h"
#include "util/mem.h"

static char g_dir[256];

/* 12 rows: id 1..12; survey and year the keys; x = id / 4 (null for id 6); s = "s<id>";
 * flag = id odd; d = 2024-02-29 for id <= 6, else 1969-12-31. */
static const char *const SURVEY[12] = {"a", "b",    "a", "a/b", NULL,         "a",
                                       "b", "x=y%", "a", NULL,  "\xc3\xa9:?", "a"};
static const int32_t YEAR[12] = {2020, 2021, 2021, 2020, 2020, 2020,
                                 0,    2021, 2021, 2020, 2020, 2020};

static pqt_table *sample(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t id[12], so[13] = {0}, ss[13] = {0};
    double x[12];
    int32_t d[12];
    uint8_t flag[12], sv[2] = {0}, yv[2] = {0}, xv[2] = {0};
    char sb[200] = "", vb[200] = "";
    size_t at = 0, vat = 0;
    for (int i = 0; i < 12; i++) {
        id[i] = i + 1;
        x[i] = (double)(i + 1) / 4;
        flag[i] = (uint8_t)((i + 1) % 2);
        d[i] = i < 6 ? 19782 : -1; /* 2024-02-29, 1969-12-31 */
        if (SURVEY[i]) {
            sv[i / 8] |= (uint8_t)(1u << (i % 8));
            memcpy(sb + at, SURVEY[i], strlen(SURVEY[i]));
            at += strlen(SURVEY[i]);
        }
        so[i + 1] = (int64_t)at;
        if (i != 6) yv[i / 8] |= (uint8_t)(1u << (i % 8));
        if (i != 5) xv[i / 8] |= (uint8_t)(1u << (i % 8));
        vat += (size_t)sprintf(vb + vat, "s%d", i + 1);
        ss[i + 1] = (int64_t)vat;
    }
    REQUIRE_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, 12, NULL));
    REQUIRE_OK(pqt_table_add_string_column(t, "survey", 1, so, sb, sv, 12, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "year", PQT_INT32, 1, YEAR, yv, 12, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, xv, 12, "m"));
    REQUIRE_OK(pqt_table_add_string_column(t, "s", 1, ss, vb, NULL, 12, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "flag", PQT_BOOL, 1, flag, NULL, 12, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "d", PQT_DATE, 1, d, NULL, 12, NULL));
    return t;
}

/* The partitions by (survey, year), in the order written (strings bytewise, nulls last). */
static const struct {
    const char *folder;
    int ids[4];
} PARTS[] = {
    {"survey=a/year=2020", {1, 6, 12}},
    {"survey=a/year=2021", {3, 9}},
    {"survey=a%2Fb/year=2020", {4}},
    {"survey=b/year=2021", {2}},
    {"survey=b/year=__HIVE_DEFAULT_PARTITION__", {7}},
    {"survey=x%3Dy%25/year=2021", {8}},
    {"survey=\xc3\xa9%3A%3F/year=2020", {11}},
    {"survey=__HIVE_DEFAULT_PARTITION__/year=2020", {5, 10}},
};
#define NPARTS (int)(sizeof PARTS / sizeof PARTS[0])

static int g_nfiles;
static int count_cb(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb;
    (void)f;
    if (flag == FTW_F && strstr(p, ".parquet")) g_nfiles++;
    return 0;
}

static int count_parquet(const char *dir)
{
    g_nfiles = 0;
    nftw(dir, count_cb, 16, FTW_PHYS);
    return g_nfiles;
}

/* Entries of dir other than . and .. whose name contains part (NULL: any). */
static int entries(const char *dir, const char *part)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && (!part || strstr(e->d_name, part)))
            n++;
    closedir(d);
    return n;
}

static bool exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

/* The file of partition p holds exactly its rows, in table order, without the keys. */
static void check_part(const char *dir, int p)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/part-0.parquet", dir, PARTS[p].folder);
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_open(path, NULL, &t));
    if (!t) {
        fprintf(stderr, "missing %s\n", path);
        return;
    }
    int n = 0;
    while (n < 4 && PARTS[p].ids[n])
        n++;
    CHECK_EQ_I64(pqt_table_nrows(t), n);
    CHECK(!pqt_table_has_column(t, "survey") && !pqt_table_has_column(t, "year"));
    CHECK_EQ_I64(pqt_table_ncols(t), 5);
    for (int r = 0; r < n && pqt_table_nrows(t) == n; r++) {
        int id = PARTS[p].ids[r];
        int64_t v = 0;
        double x = 0;
        int isnull = 0;
        CHECK_OK(pqt_table_get_value(t, "id", r + 1, 0, PQT_INT64, &v, sizeof v, NULL));
        CHECK_EQ_I64(v, id);
        CHECK_OK(pqt_table_get_value(t, "x", r + 1, 0, PQT_FLOAT64, &x, sizeof x, &isnull));
        CHECK(isnull == (id == 6) && (isnull || x == id / 4.0));
        const char *s = NULL;
        int64_t len = 0;
        char want[8];
        snprintf(want, sizeof want, "s%d", id);
        CHECK_OK(pqt_table_get_string(t, "s", r + 1, 0, &s, &len, NULL));
        CHECK(len == (int64_t)strlen(want) && memcmp(s, want, (size_t)len) == 0);
    }
    pqt_table_close(t);
    pqt_file *f = NULL;
    CHECK_OK(pqt_file_open(path, NULL, &f));
    if (f) pqt_test_meta_is(f, "column.x.unit", "m"); /* the unit written with the column */
    pqt_file_close(f);
}

static void footer(const char *path, pqt_arena *a, pqt_file_meta *m)
{
    pqt_io *io = NULL;
    REQUIRE_OK(pqt_io_open_path(path, &io));
    REQUIRE_OK(pqt_footer_read_io(io, a, m));
    pqt_io_unref(io);
}

static bool same_bytes(const uint8_t *a, uint32_t an, const uint8_t *b, uint32_t bn)
{
    return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* _metadata: one row group per file (each file has one), rows 12, every chunk's file_path,
 * statistics equal to the files' own and, for id, to the partition's min and max. */
static void check_summary(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/_metadata", dir);
    pqt_file *f = NULL;
    CHECK_OK(pqt_file_open(path, NULL, &f));
    if (f) {
        CHECK_EQ_I64(pqt_file_nrows(f), 12);
        CHECK_EQ_I64(pqt_file_nrow_groups(f), NPARTS);
        pqt_file_close(f);
    }
    pqt_arena a = {0};
    pqt_file_meta m;
    footer(path, &a, &m);
    CHECK_EQ_I64(m.n_row_groups, NPARTS);
    for (int p = 0; p < NPARTS && p < m.n_row_groups; p++) {
        char rel[256], fp[512];
        snprintf(rel, sizeof rel, "%s/part-0.parquet", PARTS[p].folder);
        snprintf(fp, sizeof fp, "%s/%s", dir, rel);
        pqt_file_meta fm;
        footer(fp, &a, &fm);
        const pqt_row_group *rg = &m.row_groups[p];
        CHECK_EQ_I64(fm.n_row_groups, 1);
        CHECK_EQ_I64(rg->ncolumns, 5);
        CHECK_EQ_I64(rg->num_rows, fm.row_groups[0].num_rows);
        for (int k = 0; k < rg->ncolumns && fm.n_row_groups == 1; k++) {
            const pqt_column_chunk *c = &rg->columns[k], *o = &fm.row_groups[0].columns[k];
            CHECK(c->file_path && strcmp(c->file_path, rel) == 0);
            CHECK(o->file_path == NULL);
            CHECK_EQ_I64(c->meta.data_page_offset, o->meta.data_page_offset);
            const pqt_stats *s = &c->meta.stats, *os = &o->meta.stats;
            CHECK(c->meta.has_stats == o->meta.has_stats);
            CHECK(s->has_min_value == os->has_min_value && s->has_max_value == os->has_max_value);
            CHECK(same_bytes(s->min_value, s->min_value_len, os->min_value, os->min_value_len));
            CHECK(same_bytes(s->max_value, s->max_value_len, os->max_value, os->max_value_len));
            CHECK_EQ_I64(s->null_count, os->null_count);
        }
        /* id (column 0): the partition's first and last id, 8 bytes little-endian */
        int n = 0;
        while (n < 4 && PARTS[p].ids[n])
            n++;
        const pqt_stats *s = &rg->columns[0].meta.stats;
        int64_t lo = 0, hi = 0;
        CHECK(s->min_value_len == 8 && s->max_value_len == 8);
        if (s->min_value_len == 8) memcpy(&lo, s->min_value, 8);
        if (s->max_value_len == 8) memcpy(&hi, s->max_value, 8);
        CHECK_EQ_I64(lo, PARTS[p].ids[0]);
        CHECK_EQ_I64(hi, PARTS[p].ids[n - 1]);
        /* x (column 1): null only in the partition holding id 6 */
        CHECK_EQ_I64(rg->columns[1].meta.stats.null_count, p == 0 ? 1 : 0);
    }
    pqt_arena_free(&a);
    snprintf(path, sizeof path, "%s/_common_metadata", dir);
    CHECK_OK(pqt_file_open(path, NULL, &f));
    if (f) {
        CHECK_EQ_I64(pqt_file_nrow_groups(f), 0);
        CHECK_EQ_I64(pqt_file_ncols(f), 5);
        CHECK(strcmp(pqt_file_column_path(f, 0), "id") == 0);
        CHECK(strcmp(pqt_file_column_path(f, 4), "d") == 0);
        pqt_file_close(f);
    }
}

static const char *const KEYS[2] = {"survey", "year"};

static void layout(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/ds", g_dir);
    pqt_table *t = sample();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_dataset(t, dir, KEYS, 2, o));
    CHECK_EQ_I64(count_parquet(dir), NPARTS);
    CHECK_EQ_I64(entries(dir, NULL), 6 + 2); /* 6 survey folders, _metadata, _common_metadata */
    CHECK_EQ_I64(entries(g_dir, ".tmp-"), 0);
    for (int p = 0; p < NPARTS; p++)
        check_part(dir, p);
    check_summary(dir);
    /* t is unchanged: still 12 rows, its keys still there */
    CHECK_EQ_I64(pqt_table_nrows(t), 12);
    CHECK(pqt_table_has_column(t, "survey"));
    /* an existing empty directory is fine */
    snprintf(dir, sizeof dir, "%s/empty", g_dir);
    REQUIRE_OK(mkdir(dir, 0755));
    const char *flag = "flag";
    CHECK_OK(pqt_write_dataset(t, dir, &flag, 1, o));
    char p[400];
    snprintf(p, sizeof p, "%s/flag=false/part-0.parquet", dir);
    CHECK(exists(p));
    snprintf(p, sizeof p, "%s/flag=true/part-0.parquet", dir);
    CHECK(exists(p));
    CHECK_EQ_I64(count_parquet(dir), 2);
    /* a date key, trailing slash on dir */
    snprintf(dir, sizeof dir, "%s/bydate/", g_dir);
    const char *dk = "d";
    CHECK_OK(pqt_write_dataset(t, dir, &dk, 1, o));
    const char *want[2] = {"d=1969-12-31", "d=2024-02-29"};
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s%s/part-0.parquet", dir, want[i]);
        pqt_table *r = NULL;
        CHECK_OK(pqt_table_open(p, NULL, &r));
        CHECK_EQ_I64(pqt_table_nrows(r), 6);
        int64_t first = 0;
        if (r) CHECK_OK(pqt_table_get_value(r, "id", 1, 0, PQT_INT64, &first, 8, NULL));
        CHECK_EQ_I64(first, i == 0 ? 7 : 1);
        pqt_table_close(r);
    }
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* From a file: shuffled (the write sorts) and already in partition order (no move). */
static void from_file(void)
{
    char src[300], dir[300], p[400];
    snprintf(src, sizeof src, "%s/src.parquet", g_dir);
    pqt_table *t = sample();
    REQUIRE_OK(pqt_write_table(t, src, NULL));
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(src, NULL, &t));
    snprintf(dir, sizeof dir, "%s/fromfile", g_dir);
    CHECK_OK(pqt_write_dataset(t, dir, KEYS, 2, NULL));
    for (int i = 0; i < NPARTS; i++)
        check_part(dir, i);
    check_summary(dir);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "s", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY); /* t kept its residency: the clone read it */
    /* a file in flag order: partitions are runs of the file, the write's sort moves nothing */
    const char *flag = "flag";
    pqt_table_close(t);
    pqt_table *u = sample();
    REQUIRE_OK(pqt_table_sort_by(u, "flag", NULL));
    snprintf(src, sizeof src, "%s/sorted.parquet", g_dir);
    REQUIRE_OK(pqt_write_table(u, src, NULL));
    pqt_table_close(u);
    REQUIRE_OK(pqt_table_open(src, NULL, &t));
    snprintf(dir, sizeof dir, "%s/insorted", g_dir);
    CHECK_OK(pqt_write_dataset(t, dir, &flag, 1, NULL));
    for (int b = 0; b < 2; b++) {
        snprintf(p, sizeof p, "%s/flag=%s/part-0.parquet", dir, b ? "true" : "false");
        pqt_table *r = NULL;
        CHECK_OK(pqt_table_open(p, NULL, &r));
        CHECK_EQ_I64(pqt_table_nrows(r), 6);
        for (int i = 0; r && i < 6; i++) {
            int64_t id = 0;
            CHECK_OK(pqt_table_get_value(r, "id", i + 1, 0, PQT_INT64, &id, 8, NULL));
            CHECK_EQ_I64(id, b ? 2 * i + 1 : 2 * i + 2); /* odd ids are flag = true */
        }
        pqt_table_close(r);
    }
    pqt_table_close(t);
}

/* The definition level of s.a in the one row of f (0: s null, 1: s present, a null; 2: a). */
static int struct_def(const char *path)
{
    pqt_file *f = NULL;
    CHECK_OK(pqt_file_open(path, NULL, &f));
    if (!f) return -1;
    int col = -1, def = -1;
    CHECK_OK(pqt_file_find_column(f, "s.a", &col));
    pqt_chunk_ctx *cx = NULL;
    REQUIRE_OK(pqt_chunk_ctx_new(&cx));
    pqt_buf reps = {0}, defs = {0};
    pqt_sel all = {0};
    pqt_sel_init_all(&all, pqt_file_row_group_nrows(f, 0));
    pqt_colbuf none = {0};
    pqt_chunk_src src = pqt_file_chunk_src(f);
    src.serial = true;
    pqt_chunk_ctx_set_level_sink(cx, &reps, &defs);
    pqt_chunk_ctx_set_levels_only(cx, true);
    if (col >= 0)
        CHECK_OK(pqt_chunk_read(cx, &src, 0, &pqt_file_schema(f)->cols[col], &all, &none, 0));
    if (defs.len == 1) def = defs.data[0];
    pqt_sel_free(&all);
    pqt_buf_free(&reps);
    pqt_buf_free(&defs);
    pqt_chunk_ctx_free(cx);
    pqt_file_close(f);
    return def;
}

/* struct_nulls.parquet (DuckDB; make_struct_nulls.mjs) by z: the rows move (z null sorts
 * last), so each struct is present where a written leaf under it is not null (docs/writing.md,
 * "Structs", a detached table): id 1 a = 1; 2 s null; 3 s present, a null (b = 'y'); 4 s
 * present (l = []); 5 a = 5; 6 every leaf null: s null. */
static void structs(void)
{
    char dir[300], p[400];
    snprintf(dir, sizeof dir, "%s/structs", g_dir);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/struct_nulls.parquet", NULL, &t));
    const char *z = "z";
    CHECK_OK(pqt_write_dataset(t, dir, &z, 1, NULL));
    pqt_table_close(t);
    const char *folder[6] = {"z1", "z2", "__HIVE_DEFAULT_PARTITION__", "z4", "z5", "z6"};
    const int want[6] = {2, 0, 1, 1, 2, 0};
    for (int i = 0; i < 6; i++) {
        snprintf(p, sizeof p, "%s/z=%s/part-0.parquet", dir, folder[i]);
        int d = struct_def(p);
        if (d != want[i]) fprintf(stderr, "%s: definition level %d, want %d\n", p, d, want[i]);
        CHECK_EQ_I64(d, want[i]);
    }
}

/* An empty string is the folder k= (as DuckDB writes and reads it), apart from the null's;
 * a key needing no escape in a name that does (the key is encoded too). */
static void empty_string(void)
{
    char dir[300], p[400];
    snprintf(dir, sizeof dir, "%s/empty_string", g_dir);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    const int64_t off[4] = {0, 0, 1, 1}, id[3] = {1, 2, 3};
    const uint8_t valid = 0x3; /* rows 1 and 2: "" and "x"; row 3 null */
    REQUIRE_OK(pqt_table_add_string_column(t, "k/v", 1, off, "x", &valid, 3, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, 3, NULL));
    const char *k = "k/v";
    CHECK_OK(pqt_write_dataset(t, dir, &k, 1, NULL));
    const char *folder[3] = {"k%2Fv=", "k%2Fv=x", "k%2Fv=__HIVE_DEFAULT_PARTITION__"};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s/part-0.parquet", dir, folder[i]);
        pqt_table *r = NULL;
        CHECK_OK(pqt_table_open(p, NULL, &r));
        int64_t v = 0;
        if (r) CHECK_OK(pqt_table_get_value(r, "id", 1, 0, PQT_INT64, &v, 8, NULL));
        CHECK_EQ_I64(v, i + 1);
        pqt_table_close(r);
    }
    pqt_table_close(t);
}

/* Every allocation failing in turn: PQT_NOMEM (or success once past the last), and a
 * failure leaves no directory, no temporary sibling and the table as it was. */
static void out_of_memory(void)
{
    char dir[300];
    snprintf(dir, sizeof dir, "%s/oom", g_dir);
    pqt_table *t = sample();
    int done = 0;
    for (long k = 0; k < 100000 && !done; k++) {
        pqt_mem_fail_after(k);
        pqt_status st = pqt_write_dataset(t, dir, KEYS, 2, NULL);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            done = 1;
            break;
        }
        if (st != PQT_NOMEM) fprintf(stderr, "allocation %ld: %s\n", k, pqt_errmsg());
        CHECK_EQ_I64(st, PQT_NOMEM);
        CHECK(!exists(dir));
        CHECK_EQ_I64(entries(g_dir, ".tmp-"), 0);
        CHECK_EQ_I64(pqt_table_nrows(t), 12);
    }
    CHECK(done);
    CHECK_EQ_I64(count_parquet(dir), NPARTS);
    pqt_table_close(t);
}

static void failures(void)
{
    char dir[300], p[400];
    pqt_table *t = sample();
    snprintf(dir, sizeof dir, "%s/fail", g_dir);
    const char *xk = "x";
    CHECK_EQ_I64(pqt_write_dataset(t, dir, &xk, 1, NULL), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "'x'") && strstr(pqt_errmsg(), "float64"));
    CHECK(!exists(dir));
    const char *missing = "nope";
    CHECK_EQ_I64(pqt_write_dataset(t, dir, &missing, 1, NULL), PQT_NOT_FOUND);
    CHECK(!exists(dir));
    const char *twice[2] = {"year", "year"};
    CHECK_EQ_I64(pqt_write_dataset(t, dir, twice, 2, NULL), PQT_MISUSE);
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_EQ_I64(pqt_write_opts_set_int(o, PQT_WOPT_MAX_PARTITIONS, 0), PQT_MISUSE);
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_MAX_PARTITIONS, 7));
    CHECK_EQ_I64(pqt_write_dataset(t, dir, KEYS, 2, o), PQT_LIMIT);
    CHECK(strstr(pqt_errmsg(), "8 partitions") && strstr(pqt_errmsg(), "7"));
    CHECK(!exists(dir));
    CHECK_EQ_I64(entries(g_dir, ".tmp-"), 0);
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_MAX_PARTITIONS, 8));
    CHECK_OK(pqt_write_dataset(t, dir, KEYS, 2, o));
    /* now dir holds a dataset: a second write is refused and changes nothing */
    CHECK_EQ_I64(pqt_write_dataset(t, dir, KEYS, 2, o), PQT_EXISTS);
    CHECK(strstr(pqt_errmsg(), dir) != NULL);
    CHECK_EQ_I64(count_parquet(dir), NPARTS);
    CHECK_EQ_I64(entries(g_dir, ".tmp-"), 0);
    /* dir is a plain file */
    snprintf(p, sizeof p, "%s/plainfile", g_dir);
    FILE *fp = fopen(p, "w");
    if (fp) fclose(fp);
    CHECK_EQ_I64(pqt_write_dataset(t, p, KEYS, 2, o), PQT_EXISTS);
    pqt_write_opts_free(o);
    /* every column a key */
    pqt_table *k = NULL;
    const char *keep[1] = {"year"};
    REQUIRE_OK(pqt_table_clone(t, &k));
    REQUIRE_OK(pqt_table_keep_columns(k, keep, 1));
    CHECK_EQ_I64(pqt_write_dataset(k, dir, keep, 1, NULL), PQT_MISUSE);
    pqt_table_close(k);
    pqt_table_close(t);
}

/* Summaries of files whose schemas differ, and of files given by hand. */
static void summary_calls(void)
{
    char dir[300], p[400];
    snprintf(dir, sizeof dir, "%s/sum", g_dir);
    REQUIRE_OK(mkdir(dir, 0755));
    pqt_table *t = sample();
    snprintf(p, sizeof p, "%s/one.parquet", dir);
    REQUIRE_OK(pqt_write_table(t, p, NULL));
    REQUIRE_OK(pqt_table_cast(t, "year", PQT_INT64, 1));
    snprintf(p, sizeof p, "%s/two.parquet", dir);
    REQUIRE_OK(pqt_write_table(t, p, NULL));
    pqt_table_close(t);
    const char *files[2] = {"one.parquet", "two.parquet"};
    CHECK_EQ_I64(pqt_write_metadata_summary(dir, files, 2), PQT_SCHEMA_MISMATCH);
    const char *msg = pqt_errmsg();
    CHECK(strstr(msg, "one.parquet") && strstr(msg, "two.parquet") && strstr(msg, "'year'"));
    snprintf(p, sizeof p, "%s/_metadata", dir);
    CHECK(!exists(p));
    CHECK_EQ_I64(entries(dir, NULL), 2);
    CHECK_OK(pqt_write_metadata_summary(dir, files, 1));
    pqt_file *f = NULL;
    CHECK_OK(pqt_file_open(p, NULL, &f));
    if (f) CHECK_EQ_I64(pqt_file_nrows(f), 12);
    pqt_file_close(f);
    const char *abs = "/etc/passwd";
    CHECK_EQ_I64(pqt_write_metadata_summary(dir, &abs, 1), PQT_MISUSE);
    const char *none = "none.parquet";
    CHECK_EQ_I64(pqt_write_metadata_summary(dir, &none, 1), PQT_IO);
    CHECK(strstr(pqt_errmsg(), "none.parquet") != NULL);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_dataset_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    layout();
    from_file();
    structs();
    empty_string();
    out_of_memory();
    failures();
    summary_calls();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_dataset");
}
