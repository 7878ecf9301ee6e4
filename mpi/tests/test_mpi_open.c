/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_mpi_open.c - pqt_table_open_mpi under mpiexec -n 1..4: the ranks' rows, concatenated
 * in rank order, are the rows of the serial open of the same file or dataset with the same
 * options (ids and row indexes compared value for value), for one file and for hive and HATS
 * datasets, with and without filters, slices and samples, by bytes and by rows; ranks left
 * without rows; the footers read once in all (rank 0), and the same error on every rank.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi_testutil.h"
#include "pqt_mpi.h"

typedef struct open_case {
    const char *path;
    const char *filter; /* NULL: none */
    int by;             /* PQT_SHARE_* */
    int64_t row_lo, row_hi;
    double sample; /* 0: none */
    const char *id;     /* the column compared */
    int expect;         /* EVERY_RANK: every rank holds rows; ONE_RANK: one holds them all */
} open_case;
enum { ANY = 0, EVERY_RANK = 1, ONE_RANK = 2 };

static pqt_opts *make_opts(const open_case *c, int with_share)
{
    pqt_opts *o = NULL;
    CHECK_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, 2));
    if (c->filter) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, c->filter));
    if (with_share) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_SHARE_BY, c->by));
    if (c->row_lo) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, c->row_lo));
    if (c->row_hi) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, c->row_hi));
    if (c->sample > 0) CHECK_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, c->sample));
    return o;
}

static void run_case(const open_case *c)
{
    /* the serial open: every rank reads the whole answer itself */
    pqt_opts *so = make_opts(c, 0), *mo = make_opts(c, 1);
    pqt_table *serial = NULL, *mine = NULL;
    CHECK_OK(pqt_table_open_mpi(MPI_COMM_WORLD, c->path, mo, &mine));
    if (c->sample > 0 && mine) {
        /* the seed rank 0 drew is every rank's: the serial open draws with it */
        int64_t seed = pqt_table_sample_seed(mine), lo = 0, hi = 0;
        MPI_Allreduce(&seed, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&seed, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
        CHECK(seed > 0 && lo == hi);
        CHECK_OK(pqt_opts_set_int(so, PQT_OPT_SAMPLE_SEED, seed));
    }
    CHECK_OK(pqt_table_open(c->path, so, &serial));
    if (!serial || !mine) {
        fprintf(stderr, "rank %d: case %s %s: open failed\n", mpi_test_rank, c->path,
                c->filter ? c->filter : "");
        pqt_table_close(serial);
        pqt_table_close(mine);
        pqt_opts_free(so);
        pqt_opts_free(mo);
        return;
    }
    int64_t ns = pqt_table_nrows(serial), nm = pqt_table_nrows(mine);
    int64_t *want_id = mpi_test_column_i64(serial, c->id);
    int64_t *want_ri = mpi_test_column_i64(serial, "parquet_row_index");
    int64_t *my_id = mpi_test_column_i64(mine, c->id);
    int64_t *my_ri = mpi_test_column_i64(mine, "parquet_row_index");
    int64_t total = 0, total_ri = 0;
    int64_t *got_id = mpi_test_allgather_i64(my_id, nm, &total);
    int64_t *got_ri = mpi_test_allgather_i64(my_ri, nm, &total_ri);
    CHECK_EQ_I64(total, ns);
    int64_t bad = -1;
    for (int64_t i = 0; total == ns && i < ns && bad < 0; i++)
        if (got_id[i] != want_id[i] || got_ri[i] != want_ri[i]) bad = i;
    if (bad >= 0)
        fprintf(stderr, "rank %d: %s [%s]: row %lld: id %lld ri %lld, serial id %lld ri %lld\n",
                mpi_test_rank, c->path, c->filter ? c->filter : "", (long long)bad + 1,
                (long long)got_id[bad], (long long)got_ri[bad], (long long)want_id[bad],
                (long long)want_ri[bad]);
    CHECK(bad < 0);
    if (c->expect == EVERY_RANK) CHECK(nm > 0);
    if (c->expect == ONE_RANK) {
        int holds = nm > 0, holders = 0;
        MPI_Allreduce(&holds, &holders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK_EQ_I64(holders, 1);
        CHECK(nm == 0 || nm == ns);
    }
    /* per-thread slices within the share: the row groups' bounds cover its rows once */
    int64_t *bounds = NULL, covered = 0, next = 1;
    int nb = 0;
    CHECK_OK(pqt_table_row_group_bounds(mine, 0, &bounds, &nb));
    for (int g = 0; bounds && g < nb; g++) {
        if (bounds[2 * g] > bounds[2 * g + 1]) continue;
        CHECK_EQ_I64(bounds[2 * g], next);
        next = bounds[2 * g + 1] + 1;
        covered += bounds[2 * g + 1] - bounds[2 * g] + 1;
    }
    CHECK_EQ_I64(covered, nm);
    pqt_free(bounds);
    /* the global numbering: the row count, and where this rank's rows start in it */
    int64_t global = -1, first = -1;
    CHECK_OK(pqt_table_mpi_rows(MPI_COMM_WORLD, mine, &global, &first));
    CHECK_EQ_I64(global, ns);
    CHECK_EQ_I64(pqt_table_mpi_global_nrows(MPI_COMM_WORLD, mine), ns);
    CHECK_EQ_I64(pqt_table_mpi_first_row(MPI_COMM_WORLD, mine), first);
    if (nm > 0 && first >= 1 && first <= ns) CHECK_EQ_I64(want_id[first - 1], my_id[0]);
    /* metadata once: rank 0 read every footer the serial open read; the others none */
    pqt_scan_counts sc = {0}, mc = {0};
    CHECK_OK(pqt_table_scan_stats(serial, &sc));
    CHECK_OK(pqt_table_scan_stats(mine, &mc));
    int64_t read = mc.footers_read, all_read = 0;
    MPI_Allreduce(&read, &all_read, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK_EQ_I64(all_read, sc.footers_read);
    if (mpi_test_rank != 0) CHECK_EQ_I64(mc.footers_read, 0);
    /* exact rows: shares of the unfiltered rows differ by one at most */
    if (c->by == PQT_SHARE_ROWS && !c->filter && c->sample == 0) {
        int64_t n0 = pqt_table_nrows_unfiltered(mine), lo = 0, hi = 0;
        MPI_Allreduce(&n0, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&n0, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
        CHECK(hi - lo <= 1);
    }
    free(want_id);
    free(want_ri);
    free(my_id);
    free(my_ri);
    free(got_id);
    free(got_ri);
    pqt_table_close(serial);
    pqt_table_close(mine);
    pqt_opts_free(so);
    pqt_opts_free(mo);
}

/* Every rank gets the same status and message when the open fails, and no table. */
static void check_same_error(const char *path, const char *filter, const char *sort,
                             pqt_status want)
{
    pqt_opts *o = NULL;
    CHECK_OK(pqt_opts_new(&o));
    if (filter) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, filter));
    if (sort) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_SORT, sort));
    pqt_table *t = (pqt_table *)o; /* must be reset to NULL */
    pqt_status st = pqt_table_open_mpi(MPI_COMM_WORLD, path, o, &t);
    CHECK_EQ_I64(st, want);
    CHECK(t == NULL);
    char msg[1024], root[1024];
    snprintf(msg, sizeof msg, "%s", pqt_errmsg());
    memcpy(root, msg, sizeof root);
    MPI_Bcast(root, sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD);
    CHECK(strcmp(msg, root) == 0);
    CHECK(strncmp(msg, "rank ", 5) == 0);
    if (mpi_test_rank == 0) printf("same error on every rank: %s\n", msg);
    pqt_opts_free(o);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv);
    const char *big = "fortran/data/big.parquet"; /* 2,000,000 rows, 20 row groups */
    const char *hive = "tests/data/datasets/duckdb_hive";
    const char *phive = "tests/data/datasets/polars_hive";
    const char *hats = "tests/data/datasets/hats_small";
    const char *hats_meta = "tests/data/datasets/hats_small_meta";
    const open_case cases[] = {
        {big, NULL, PQT_SHARE_BYTES, 0, 0, 0, "id", EVERY_RANK},
        {big, NULL, PQT_SHARE_ROWS, 0, 0, 0, "id", EVERY_RANK},
        {big, "id % 7 == 3 and mass > 0.5", PQT_SHARE_BYTES, 0, 0, 0, "id", ANY},
        {big, "id between 250000 and 1300000", PQT_SHARE_ROWS, 0, 0, 0, "id", ANY},
        /* one row group holds every row: the other ranks hold none */
        {big, "id <= 1000", PQT_SHARE_BYTES, 0, 0, 0, "id", ONE_RANK},
        {big, "id > 5000000", PQT_SHARE_BYTES, 0, 0, 0, "id", ANY},
        {big, NULL, PQT_SHARE_BYTES, 150001, 1234567, 0, "id", ANY},
        {big, "id % 2 == 0", PQT_SHARE_ROWS, 99000, 400000, 0, "id", ANY},
        {big, NULL, PQT_SHARE_BYTES, 0, 0, 0.01, "id", ANY},
        {hive, NULL, PQT_SHARE_BYTES, 0, 0, 0, "id", ANY},
        {hive, "year = 2020 and mag < 20", PQT_SHARE_ROWS, 0, 0, 0, "id", ANY},
        {phive, "survey in ('sdss', 'ztf')", PQT_SHARE_BYTES, 0, 0, 0, "id", ANY},
        {hats, "cone(ra, dec, 210, 30, 5)", PQT_SHARE_BYTES, 0, 0, 0, "id", ANY},
        {hats, NULL, PQT_SHARE_ROWS, 0, 0, 0, "id", EVERY_RANK},
        {hats_meta, "dec > 10", PQT_SHARE_BYTES, 0, 0, 0, "id", ANY},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i]);
    check_same_error("tests/data/no/such.parquet", NULL, NULL, PQT_IO);
    check_same_error(big, "no_such_column > 1", NULL, PQT_BAD_FILTER);
    check_same_error(big, NULL, "mass", PQT_MISUSE);
    return mpi_test_finish();
}
