/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_write.c - the shared-file write of `make bench-mpi`: each rank builds its share of N
 * catalogue-like rows in memory, then pqt_write_table_mpi writes every rank's rows into one
 * file; the time is from a barrier before the write to the end of the call on the slowest
 * rank. `--serial` (one rank only) times pqt_write_table of the same rows instead: the one
 * process the shared write is compared with.
 *
 *   mpirun -np 2 pqt_mpi_write --n 10000000 --out /tmp/w.parquet [--runs 3] [--codec snappy]
 *   mpirun -np 1 pqt_mpi_write --n 10000000 --out /tmp/w.parquet --serial
 *
 * Prints one JSON line on rank 0: {"bench":"mpi_write","ranks":..,"serial":..,"rows":..,
 * "bytes":..,"seconds":[run times],"best":..}. The columns are those of the benchmark
 * catalogue (bench/README.md "Data": id, ra, dec, mass, z, quality with 5% nulls, flag,
 * survey, name, mag[5]) from a splitmix64 stream of the row number, so every rank count
 * writes the same rows (not the same values as the DuckDB-made files: only the write is
 * timed).
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pqt.h"
#include "pqt_mpi.h"

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static double u(int64_t i, int k)
{
    return (double)(mix((uint64_t)i * 16 + (uint64_t)k) >> 11) / 9007199254740992.0;
}

static void die(const char *what, pqt_status st)
{
    fprintf(stderr, "pqt_mpi_write: %s: %s (%s)\n", what, pqt_errmsg(), pqt_status_name(st));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

#define TRY(what, e)                                                                               \
    do {                                                                                           \
        pqt_status st_ = (e);                                                                      \
        if (st_ != PQT_OK) die(what, st_);                                                         \
    } while (0)

/* Rows lo + 1 .. lo + n of the catalogue (ids 1-based). */
static pqt_table *catalogue(int64_t lo, int64_t n)
{
    static const char *const surveys[8] = {"sdss", "desi",  "euclid", "lsst",
                                           "gaia", "2mass", "wise",   "rare"};
    size_t m = (size_t)n + 1;
    int64_t *id = malloc(m * sizeof *id), *so = malloc(m * sizeof *so),
            *no = malloc(m * sizeof *no);
    double *ra = malloc(m * sizeof *ra), *dec = malloc(m * sizeof *dec),
           *mass = malloc(m * sizeof *mass);
    float *z = malloc(m * sizeof *z), *mag = malloc(m * 5 * sizeof *mag);
    int32_t *q = malloc(m * sizeof *q);
    uint8_t *qv = calloc(m / 8 + 1, 1), *flag = malloc(m);
    char *sb = malloc(m * 8), *nb = malloc(m * 24);
    if (!id || !so || !no || !ra || !dec || !mass || !z || !mag || !q || !qv || !flag || !sb || !nb)
        die("out of memory building the rows", PQT_NOMEM);
    size_t sat = 0, nat = 0;
    so[0] = no[0] = 0;
    for (int64_t r = 0; r < n; r++) {
        int64_t i = lo + r + 1;
        id[r] = i;
        ra[r] = 360.0 * u(i, 1);
        dec[r] = -90.0 + 180.0 * u(i, 2);
        mass[r] = 1e8 * (1.0 + 99999.0 * u(i, 3));
        z[r] = (float)(3.0 * u(i, 4));
        q[r] = (int32_t)(mix((uint64_t)i * 16 + 6) % 10);
        if (u(i, 5) >= 0.05) qv[r / 8] |= (uint8_t)(1u << (r % 8));
        flag[r] = (uint8_t)(mix((uint64_t)i * 16 + 7) & 1);
        const char *s = u(i, 8) < 0.01 ? surveys[7] : surveys[mix((uint64_t)i * 16 + 9) % 7];
        size_t sl = strlen(s);
        memcpy(sb + sat, s, sl);
        sat += sl;
        so[r + 1] = (int64_t)sat;
        nat += (size_t)snprintf(nb + nat, 24, "obj_%lld", (long long)i);
        no[r + 1] = (int64_t)nat;
        for (int k = 0; k < 5; k++)
            mag[r * 5 + k] = (float)(14.0 + 10.0 * u(i, 10 + k));
    }
    pqt_table *t = NULL;
    TRY("pqt_table_new", pqt_table_new(&t));
    TRY("id", pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, n, NULL));
    TRY("ra", pqt_table_add_column(t, "ra", PQT_FLOAT64, 1, ra, NULL, n, "deg"));
    TRY("dec", pqt_table_add_column(t, "dec", PQT_FLOAT64, 1, dec, NULL, n, "deg"));
    TRY("mass", pqt_table_add_column(t, "mass", PQT_FLOAT64, 1, mass, NULL, n, NULL));
    TRY("z", pqt_table_add_column(t, "z", PQT_FLOAT32, 1, z, NULL, n, NULL));
    TRY("quality", pqt_table_add_column(t, "quality", PQT_INT32, 1, q, qv, n, NULL));
    TRY("flag", pqt_table_add_column(t, "flag", PQT_BOOL, 1, flag, NULL, n, NULL));
    TRY("survey", pqt_table_add_string_column(t, "survey", 1, so, sb, NULL, n, NULL));
    TRY("name", pqt_table_add_string_column(t, "name", 1, no, nb, NULL, n, NULL));
    TRY("mag", pqt_table_add_column(t, "mag", PQT_FLOAT32 | PQT_VECTOR, 5, mag, NULL, n, "mag"));
    free(id), free(so), free(no), free(ra), free(dec), free(mass), free(z), free(mag), free(q);
    free(qv), free(flag), free(sb), free(nb);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int64_t n = 1000000;
    int runs = 3, serial = 0;
    const char *out = "/tmp/pqt_mpi_write.parquet", *codec = NULL;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--n") && a + 1 < argc)
            n = atoll(argv[++a]);
        else if (!strcmp(argv[a], "--out") && a + 1 < argc)
            out = argv[++a];
        else if (!strcmp(argv[a], "--runs") && a + 1 < argc)
            runs = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--codec") && a + 1 < argc)
            codec = argv[++a];
        else if (!strcmp(argv[a], "--serial"))
            serial = 1;
        else {
            if (rank == 0) fprintf(stderr, "pqt_mpi_write: unknown argument %s\n", argv[a]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (n < 1 || runs < 1 || (serial && size != 1)) {
        if (rank == 0)
            fprintf(stderr, "pqt_mpi_write: --n and --runs >= 1; --serial with one rank\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* rank r: rows [n r / size, n (r + 1) / size) */
    int64_t lo = n * rank / size, hi = n * (rank + 1) / size;
    pqt_table *t = catalogue(lo, hi - lo);
    pqt_write_opts *o = NULL;
    TRY("options", pqt_write_opts_new(&o));
    TRY("options", pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    if (codec) TRY("--codec", pqt_write_opts_set_str(o, PQT_WOPT_CODEC, codec));
    double *secs = calloc((size_t)runs, sizeof *secs), best = 0;
    for (int k = 0; k < runs; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        TRY("write",
            serial ? pqt_write_table(t, out, o) : pqt_write_table_mpi(MPI_COMM_WORLD, t, out, o));
        double mine = MPI_Wtime() - t0, slowest = 0;
        MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        secs[k] = slowest;
        if (k == 0 || slowest < best) best = slowest;
    }
    if (rank == 0) {
        struct stat sb;
        long long bytes = stat(out, &sb) == 0 ? (long long)sb.st_size : -1;
        printf("{\"bench\":\"mpi_write\",\"ranks\":%d,\"serial\":%s,\"rows\":%lld,\"bytes\":%lld,"
               "\"seconds\":[",
               size, serial ? "true" : "false", (long long)n, bytes);
        for (int k = 0; k < runs; k++)
            printf("%s%.4f", k ? "," : "", secs[k]);
        printf("],\"best\":%.4f}\n", best);
        unlink(out);
    }
    free(secs);
    pqt_write_opts_free(o);
    pqt_table_close(t);
    MPI_Finalize();
    return 0;
}
