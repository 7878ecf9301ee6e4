/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_bench.c - the reading half of `make bench-mpi` (bench/mpi_run.sh): a collective open,
 * and W1 over every rank's share.
 *
 *   mpirun -np 4 pqt_mpi_bench --mode open --path DATASET [--runs 5] [--every-rank]
 *   mpirun -np 2 pqt_mpi_bench --mode w1 --path catalogue.parquet [--runs 5] [--threads 1]
 *
 * open: pqt_table_open_mpi (rank 0 reads the footers, the others replay them), or with
 *   --every-rank each rank's own pqt_table_open of the whole dataset (what a program does
 *   without a collective open: every rank reads every footer).
 * w1: open collectively, then the README's path (pqt_table_get_alloc) of ra, dec, mass and z
 *   on every rank's share, summed with MPI_Allreduce.
 * A run's time is from a barrier to the end of the slowest rank. Prints one JSON line on rank
 * 0: {"bench":..,"ranks":..,"seconds":[..],"footers_read":..,"rows":..,"sums":[..]}.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "pqt_mpi.h"

static int rank, size;

static void die(const char *what)
{
    fprintf(stderr, "rank %d: %s: %s\n", rank, what, pqt_errmsg());
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static double sum_column(pqt_table *t, const char *name)
{
    void *data = NULL;
    uint8_t *valid = NULL;
    int64_t n = 0;
    if (pqt_table_get_alloc(t, name, PQT_FLOAT64, &data, &valid, &n) != PQT_OK) die(name);
    const double *v = data;
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        if (!valid || (valid[i / 8] >> (i % 8) & 1)) s += v[i];
    pqt_free(data);
    pqt_free(valid);
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = "open", *path = NULL;
    int runs = 5, threads = 1, every = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mode") && i + 1 < argc) mode = argv[++i];
        else if (!strcmp(argv[i], "--path") && i + 1 < argc) path = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--every-rank")) every = 1;
        else {
            if (rank == 0) fprintf(stderr, "mpi_bench: unknown argument %s\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (!path) {
        if (rank == 0) fprintf(stderr, "mpi_bench: --path is required\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    pqt_opts *o;
    if (pqt_opts_new(&o) != PQT_OK || pqt_opts_set_int(o, PQT_OPT_THREADS, threads) != PQT_OK)
        die("options");
    double *secs = calloc((size_t)runs, sizeof *secs);
    int64_t footers = 0, rows = 0;
    double sums[4] = {0};
    for (int r = 0; r < runs; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        pqt_table *t = NULL;
        if (every) {
            if (pqt_table_open(path, o, &t) != PQT_OK) die("pqt_table_open");
        } else if (pqt_table_open_mpi(MPI_COMM_WORLD, path, o, &t) != PQT_OK) {
            die("pqt_table_open_mpi");
        }
        double mine[4] = {0};
        if (!strcmp(mode, "w1")) {
            static const char *const cols[] = {"ra", "dec", "mass", "z"};
            for (int k = 0; k < 4; k++)
                mine[k] = sum_column(t, cols[k]);
            MPI_Allreduce(mine, sums, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double dt = MPI_Wtime() - t0, worst = 0;
        MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        secs[r] = worst;
        pqt_scan_counts sc;
        pqt_table_scan_stats(t, &sc);
        int64_t f = sc.footers_read, n = pqt_table_nrows(t);
        MPI_Allreduce(&f, &footers, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&n, &rows, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        pqt_table_close(t);
    }
    if (rank == 0) {
        printf("{\"bench\":\"%s\",\"ranks\":%d,\"threads\":%d,\"every_rank\":%d,\"seconds\":[", mode,
               size, threads, every);
        for (int r = 0; r < runs; r++)
            printf("%s%.6f", r ? "," : "", secs[r]);
        printf("],\"footers_read\":%lld,\"rows\":%lld,\"sums\":[%.17g,%.17g,%.17g,%.17g]}\n",
               (long long)footers, (long long)rows, sums[0], sums[1], sums[2], sums[3]);
    }
    free(secs);
    pqt_opts_free(o);
    MPI_Finalize();
    return 0;
}
