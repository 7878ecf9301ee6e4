/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_mpi_write.c - every rank's rows into one shared file and into a dataset (pqt_mpi.h
 * "Writing"), run under mpiexec with 1 to 4 ranks. Each rank's rows depend on its rank
 * (ints, doubles and strings with nulls, a list column); rank 1 has none. Rank 0 reads the
 * result back serially with pqt and compares every value with the concatenation in rank
 * order, computed here from the rank numbers (not from pqt's output): the shared file of
 * pqt_write_table_mpi, of the streaming writer (several writes per rank, small row groups),
 * of ranks that all have no rows, and the dataset of pqt_write_dataset_mpi. Failures leave
 * no file and no temporary file, and every rank gets the error naming the failing rank: a
 * rank whose table has other columns, a rank whose write fails mid-stream, a path that
 * exists. With 4 ranks, the file is compared with DuckDB's reading of the same
 * deterministic file (tests/data/mpi_write_duckdb.txt, made by
 * tests/data/make_mpi_write_expect.mjs).
 */
#define _GNU_SOURCE /* mkdtemp, as the unit tests get it from CMake */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi_testutil.h"
#include "pqt_file.h"
#include "pqt_mpi.h"

/* A check that cannot go on failing (every rank stops) and a string comparison. */
#define REQUIRE_OK(expr)                                                                           \
    do {                                                                                           \
        pqt_status rs_ = (expr);                                                                   \
        if (rs_ != PQT_OK) {                                                                       \
            fprintf(stderr, "rank %d: %s:%d: %s returned %d: %s (required)\n", mpi_test_rank,      \
                    __FILE__, __LINE__, #expr, (int)rs_, pqt_errmsg());                            \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
        }                                                                                          \
    } while (0)
#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        if (strcmp((got), (want)) != 0) {                                                          \
            fprintf(stderr, "rank %d: %s:%d: '%s', want '%s'\n", mpi_test_rank, __FILE__,          \
                    __LINE__, (got), (want));                                                      \
            mpi_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

static int g_rank, g_size;
static char g_dir[256];

/* Rows of rank r: 0 for rank 1, else 5 + 7 r (5, -, 19, 26). */
static int rank_rows(int r)
{
    return r == 1 ? 0 : 5 + 7 * r;
}

/* Rank r's rows [lo, lo + n): id = 1000 r + i; x = i / 2 + r (null when i % 5 == 3);
 * s = "r<r>-<i>" (null when i % 4 == 1); v = i % 3 int32 (id + j). */
static pqt_table *rows_of(int r, int lo, int n)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t *id = calloc((size_t)n + 1, sizeof *id), *so = calloc((size_t)n + 1, sizeof *so);
    int64_t *vo = calloc((size_t)n + 1, sizeof *vo);
    double *x = calloc((size_t)n + 1, sizeof *x);
    int32_t *v = calloc((size_t)n * 3 + 1, sizeof *v);
    uint8_t *xv = calloc((size_t)n / 8 + 1, 1), *sv = calloc((size_t)n / 8 + 1, 1);
    char *sb = calloc((size_t)n * 16 + 1, 1);
    size_t at = 0;
    for (int k = 0; k < n; k++) {
        int i = lo + k;
        id[k] = 1000 * r + i;
        x[k] = i / 2.0 + r;
        if (i % 5 != 3) xv[k / 8] |= (uint8_t)(1u << (k % 8));
        if (i % 4 != 1) {
            sv[k / 8] |= (uint8_t)(1u << (k % 8));
            at += (size_t)sprintf(sb + at, "r%d-%d", r, i);
        }
        so[k + 1] = (int64_t)at;
        vo[k + 1] = vo[k] + i % 3;
        for (int j = 0; j < i % 3; j++)
            v[vo[k] + j] = (int32_t)(id[k] + j);
    }
    REQUIRE_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, n, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, xv, n, "m"));
    REQUIRE_OK(pqt_table_add_string_column(t, "s", 1, so, sb, sv, n, NULL));
    REQUIRE_OK(pqt_table_add_list_column(t, "v", PQT_INT32, vo, NULL, v, NULL, n, NULL));
    free(id), free(so), free(vo), free(x), free(v), free(xv), free(sv), free(sb);
    return t;
}

/* The rows of ranks 0 .. g_size - 1 concatenated, as text lines "id|x|s|[v,...]" (NULL for
 * a null), the form tests/data/mpi_write_duckdb.txt has. */
static void expected_line(int r, int i, char *out, size_t cap)
{
    char x[32] = "NULL", s[32] = "NULL", v[64] = "[";
    if (i % 5 != 3) snprintf(x, sizeof x, "%.17g", i / 2.0 + r);
    if (i % 4 != 1) snprintf(s, sizeof s, "r%d-%d", r, i);
    for (int j = 0; j < i % 3; j++)
        snprintf(v + strlen(v), sizeof v - strlen(v), "%s%d", j ? "," : "", 1000 * r + i + j);
    snprintf(out, cap, "%d|%s|%s|%s]", 1000 * r + i, x, s, v);
}

/* Row `row` (1-based) of t in the same form. */
static void read_line(pqt_table *t, int64_t row, const int64_t *vo, const int32_t *vd, char *out,
                      size_t cap)
{
    int64_t id = 0;
    double x = 0;
    int xnull = 0, snull = 0;
    const char *s = NULL;
    int64_t sn = 0;
    CHECK_OK(pqt_table_get_value(t, "id", row, 0, PQT_INT64, &id, sizeof id, NULL));
    CHECK_OK(pqt_table_get_value(t, "x", row, 0, PQT_FLOAT64, &x, sizeof x, &xnull));
    CHECK_OK(pqt_table_get_string(t, "s", row, 0, &s, &sn, &snull));
    char xs[32] = "NULL", ss[64] = "NULL", v[256] = "[";
    if (!xnull) snprintf(xs, sizeof xs, "%.17g", x);
    if (!snull) snprintf(ss, sizeof ss, "%.*s", (int)sn, s);
    for (int64_t e = vo[row - 1]; e < vo[row]; e++)
        snprintf(v + strlen(v), sizeof v - strlen(v), "%s%d", e > vo[row - 1] ? "," : "",
                 (int)vd[e]);
    snprintf(out, cap, "%lld|%s|%s|%s]", (long long)id, xs, ss, v);
}

/* Rank 0: path (a file or a dataset folder) holds the rows of every rank in rank order. */
static void check_rows(const char *path, int64_t want_rgs)
{
    if (g_rank != 0) return;
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_open(path, NULL, &t));
    if (!t) return;
    int64_t total = 0;
    for (int r = 0; r < g_size; r++)
        total += rank_rows(r);
    CHECK_EQ_I64(pqt_table_nrows(t), total);
    int64_t *vo = NULL;
    void *vd = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "v", PQT_INT32, &vo, &vd, NULL, NULL, NULL));
    int64_t row = 0;
    for (int r = 0; r < g_size && vo && pqt_table_nrows(t) == total; r++) {
        for (int i = 0; i < rank_rows(r); i++) {
            char want[256], got[256];
            expected_line(r, i, want, sizeof want);
            read_line(t, ++row, vo, vd, got, sizeof got);
            CHECK_STR(got, want);
        }
    }
    pqt_free(vo);
    pqt_free(vd);
    pqt_table_close(t);
    if (want_rgs < 0) return;
    pqt_file *f = NULL;
    CHECK_OK(pqt_file_open(path, NULL, &f));
    if (f) CHECK_EQ_I64(pqt_file_nrow_groups(f), want_rgs);
    pqt_file_close(f);
}

/* Entries of g_dir (rank 0's view, given to every rank). */
static int entries(void)
{
    int n = 0;
    if (g_rank == 0) {
        DIR *d = opendir(g_dir);
        for (struct dirent *e; d && (e = readdir(d)) != NULL;)
            n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
        if (d) closedir(d);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return n;
}

static pqt_write_opts *options(int64_t rg_rows)
{
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, rg_rows));
    REQUIRE_OK(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, "2026-12-06T12:00:00"));
    return o;
}

/* Row groups of ranks' rows cut every n rows. */
static int64_t row_groups(int64_t n)
{
    int64_t g = 0;
    for (int r = 0; r < g_size; r++)
        g += (rank_rows(r) + n - 1) / n;
    return g;
}

static void whole_tables(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/table.parquet", g_dir);
    pqt_write_opts *o = options(4);
    pqt_table *t = rows_of(g_rank, 0, rank_rows(g_rank));
    CHECK_OK(pqt_write_table_mpi(MPI_COMM_WORLD, t, path, o));
    MPI_Barrier(MPI_COMM_WORLD);
    check_rows(path, row_groups(4));
    CHECK_EQ_I64(entries(), 1); /* the file alone: no spool, no temporary file */
    /* the path exists now: every rank gets PQT_EXISTS */
    pqt_status st = pqt_write_table_mpi(MPI_COMM_WORLD, t, path, o);
    CHECK_EQ_I64(st, PQT_EXISTS);
    CHECK(strstr(pqt_errmsg(), "rank 0: ") == pqt_errmsg());
    CHECK(strstr(pqt_errmsg(), "exists") != NULL);
    /* with PQT_WOPT_OVERWRITE the file is replaced */
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    CHECK_OK(pqt_write_table_mpi(MPI_COMM_WORLD, t, path, o));
    MPI_Barrier(MPI_COMM_WORLD);
    check_rows(path, row_groups(4));
    if (g_rank == 0) unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    pqt_table_close(t);
    pqt_write_opts_free(o);
}

/* Several writes per rank (3 rows, then the rest in one write, then none), row groups of 3. */
static void streaming(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/stream.parquet", g_dir);
    pqt_write_opts *o = options(3);
    pqt_table *tmpl = rows_of(g_rank, 0, 0);
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open_mpi(MPI_COMM_WORLD, &w, path, tmpl, o));
    int n = rank_rows(g_rank), first = n < 3 ? n : 3;
    pqt_table *a = rows_of(g_rank, 0, first), *b = rows_of(g_rank, first, n - first);
    CHECK_OK(pqt_writer_write(w, a));
    CHECK_OK(pqt_writer_write(w, b));
    CHECK_OK(pqt_writer_write(w, tmpl));
    CHECK_OK(pqt_writer_close_mpi(MPI_COMM_WORLD, w));
    MPI_Barrier(MPI_COMM_WORLD);
    check_rows(path, row_groups(3));
    CHECK_EQ_I64(entries(), 1);
    if (g_rank == 0) unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    pqt_table_close(a), pqt_table_close(b), pqt_table_close(tmpl);
    pqt_write_opts_free(o);
}

/* No rank has rows: a file of no rows with the columns. */
static void no_rows(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/empty.parquet", g_dir);
    pqt_table *t = rows_of(g_rank, 0, 0);
    CHECK_OK(pqt_write_table_mpi(MPI_COMM_WORLD, t, path, NULL));
    if (g_rank == 0) {
        pqt_table *r = NULL;
        CHECK_OK(pqt_table_open(path, NULL, &r));
        if (r) {
            CHECK_EQ_I64(pqt_table_nrows(r), 0);
            CHECK_EQ_I64(pqt_table_ncols(r), 4);
        }
        pqt_table_close(r);
        unlink(path);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    pqt_table_close(t);
}

static void failures(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/bad.parquet", g_dir);
    int bad = g_size - 1; /* the last rank fails */
    /* its table lacks column x: the assembly on rank 0 names its part */
    pqt_table *t = rows_of(g_rank, 0, rank_rows(g_rank));
    if (g_rank == bad && g_size > 1) REQUIRE_OK(pqt_table_drop_column(t, "x"));
    pqt_status st = pqt_write_table_mpi(MPI_COMM_WORLD, t, path, NULL);
    if (g_size > 1) {
        CHECK_EQ_I64(st, PQT_SCHEMA_MISMATCH);
        char want[64];
        snprintf(want, sizeof want, "part 0 and part %d have different schemas", bad);
        CHECK(strstr(pqt_errmsg(), want) != NULL);
        CHECK(strstr(pqt_errmsg(), "column 'x'") != NULL);
    } else {
        CHECK_OK(st);
        if (g_rank == 0) unlink(path);
    }
    CHECK_EQ_I64(entries(), 0);
    pqt_table_close(t);
    /* a streaming write that fails on the last rank (a table without column s) */
    pqt_table *tmpl = rows_of(g_rank, 0, 0), *rows = rows_of(g_rank, 0, 6);
    if (g_rank == bad) REQUIRE_OK(pqt_table_drop_column(rows, "s"));
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open_mpi(MPI_COMM_WORLD, &w, path, tmpl, NULL));
    st = pqt_writer_write(w, rows);
    CHECK_EQ_I64(st, g_rank == bad ? PQT_NOT_FOUND : PQT_OK);
    st = pqt_writer_close_mpi(MPI_COMM_WORLD, w);
    CHECK_EQ_I64(st, PQT_NOT_FOUND);
    char want[32];
    snprintf(want, sizeof want, "rank %d: ", bad);
    CHECK(strstr(pqt_errmsg(), want) == pqt_errmsg());
    CHECK(strstr(pqt_errmsg(), "no column 's'") != NULL);
    CHECK_EQ_I64(entries(), 0);
    pqt_table_close(tmpl), pqt_table_close(rows);
    /* a sidecar cannot be written by parts: every rank refuses at open */
    pqt_write_opts *o = options(4);
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_WRITE_MAML, 1));
    pqt_table *one = rows_of(g_rank, 0, 1);
    CHECK_EQ_I64(pqt_write_table_mpi(MPI_COMM_WORLD, one, path, o), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "PQT_WOPT_WRITE_MAML") != NULL);
    CHECK_EQ_I64(entries(), 0);
    pqt_table_close(one);
    pqt_write_opts_free(o);
}

static void dataset(void)
{
    char dir[300], file[400];
    snprintf(dir, sizeof dir, "%s/ds", g_dir);
    pqt_write_opts *o = options(4);
    pqt_table *t = rows_of(g_rank, 0, rank_rows(g_rank));
    CHECK_OK(pqt_write_dataset_mpi(MPI_COMM_WORLD, t, dir, o));
    MPI_Barrier(MPI_COMM_WORLD);
    check_rows(dir, -1);
    if (g_rank == 0) {
        struct stat sb;
        for (int r = 0; r < g_size; r++) {
            snprintf(file, sizeof file, "%s/part-%05d.parquet", dir, r);
            CHECK((stat(file, &sb) == 0) == (rank_rows(r) > 0));
        }
        snprintf(file, sizeof file, "%s/_metadata", dir);
        pqt_file *f = NULL;
        CHECK_OK(pqt_file_open(file, NULL, &f));
        if (f) CHECK_EQ_I64(pqt_file_nrow_groups(f), row_groups(4));
        pqt_file_close(f);
    }
    /* a folder that is not empty is refused on every rank, and left as it was */
    CHECK_EQ_I64(pqt_write_dataset_mpi(MPI_COMM_WORLD, t, dir, o), PQT_EXISTS);
    CHECK(strstr(pqt_errmsg(), "rank 0: ") == pqt_errmsg());
    CHECK_EQ_I64(entries(), 1);
    if (g_rank == 0) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        CHECK(system(cmd) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* a rank whose file fails: no folder at all */
    if (g_rank == g_size - 1) REQUIRE_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT, "bad: ["));
    pqt_table *one = rows_of(g_rank, 0, 2);
    CHECK(pqt_write_dataset_mpi(MPI_COMM_WORLD, one, dir, o) != PQT_OK);
    char want[32];
    snprintf(want, sizeof want, "rank %d: ", g_size - 1);
    CHECK(strstr(pqt_errmsg(), want) == pqt_errmsg());
    CHECK_EQ_I64(entries(), 0);
    pqt_table_close(one);
    pqt_table_close(t);
    pqt_write_opts_free(o);
}

/* With 4 ranks: the file DuckDB read (tests/data/mpi_write_duckdb.txt: the rows, then the
 * row groups' sizes and id statistics) is the one written here, value for value. PQT_MPI_WRITE_KEEP
 * names a copy to keep for the generator. */
static void duckdb_truth(void)
{
    if (g_size != 4) return;
    char path[300];
    snprintf(path, sizeof path, "%s/four.parquet", g_dir);
    pqt_write_opts *o = options(4);
    pqt_table *t = rows_of(g_rank, 0, rank_rows(g_rank));
    CHECK_OK(pqt_write_table_mpi(MPI_COMM_WORLD, t, path, o));
    pqt_table_close(t);
    pqt_write_opts_free(o);
    if (g_rank != 0) return;
    const char *keep = getenv("PQT_MPI_WRITE_KEEP");
    if (keep && *keep) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, keep);
        CHECK(system(cmd) == 0);
    }
    FILE *fp = fopen("tests/data/mpi_write_duckdb.txt", "r");
    CHECK(fp != NULL);
    pqt_table *r = NULL;
    CHECK_OK(pqt_table_open(path, NULL, &r));
    pqt_file *f = NULL;
    CHECK_OK(pqt_file_open(path, NULL, &f));
    if (!fp || !r || !f) return;
    int64_t *vo = NULL;
    void *vd = NULL;
    CHECK_OK(pqt_table_get_list_alloc(r, "v", PQT_INT32, &vo, &vd, NULL, NULL, NULL));
    char line[512], got[256];
    int64_t row = 0;
    int rg = 0;
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "rowgroup ", 9) == 0) { /* "rowgroup <i> <rows> <min> <max>" */
            int i = 0;
            long long n = 0;
            char lo[32] = "", hi[32] = "", got_lo[32] = "", got_hi[32] = "";
            CHECK(sscanf(line + 9, "%d %lld %31s %31s", &i, &n, lo, hi) == 4);
            CHECK_EQ_I64(pqt_file_row_group_nrows(f, i), n);
            CHECK_OK(pqt_file_chunk_stat_text(f, i, 0, PQT_STAT_MIN, got_lo, sizeof got_lo, NULL));
            CHECK_OK(pqt_file_chunk_stat_text(f, i, 0, PQT_STAT_MAX, got_hi, sizeof got_hi, NULL));
            CHECK_STR(got_lo, lo);
            CHECK_STR(got_hi, hi);
            rg++;
            continue;
        }
        CHECK(row < pqt_table_nrows(r));
        if (row >= pqt_table_nrows(r)) break;
        read_line(r, ++row, vo, vd, got, sizeof got);
        CHECK_STR(got, line);
    }
    CHECK_EQ_I64(row, pqt_table_nrows(r));
    CHECK_EQ_I64(rg, pqt_file_nrow_groups(f));
    fclose(fp);
    pqt_free(vo);
    pqt_free(vd);
    pqt_file_close(f);
    pqt_table_close(r);
    unlink(path);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    g_rank = mpi_test_rank;
    g_size = mpi_test_size;
    if (g_rank == 0) {
        snprintf(g_dir, sizeof g_dir, "/tmp/pqt_mpi_write_XXXXXX");
        if (!mkdtemp(g_dir)) g_dir[0] = '\0';
    }
    MPI_Bcast(g_dir, sizeof g_dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    REQUIRE_OK(g_dir[0] ? PQT_OK : PQT_IO);
    whole_tables();
    streaming();
    no_rows();
    failures();
    dataset();
    duckdb_truth();
    MPI_Barrier(MPI_COMM_WORLD);
    if (g_rank == 0) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    }
    return mpi_test_finish();
}
