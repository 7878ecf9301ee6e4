/* SPDX-License-Identifier: Apache-2.0 */
/* example_mpi.c - a consumer of an installed pqt-mpi (tests/packaging/run.sh): a collective
 * open of FILE; rank 0 prints the rows of all ranks together and the ranks' count, every rank
 * its share. Built with pkg-config pqt-mpi and with CMake find_package(pqt-mpi). */
#include <mpi.h>
#include <stdio.h>

#include <pqt_mpi.h>

int main(int argc, char **argv)
{
    int rank = 0, size = 1, rc = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pqt_table *t = NULL;
    int64_t global = -1, first = -1;
    if (argc != 2) {
        if (rank == 0) fprintf(stderr, "usage: %s FILE.parquet\n", argv[0]);
    } else if (pqt_table_open_mpi(MPI_COMM_WORLD, argv[1], NULL, &t) != PQT_OK ||
               pqt_table_mpi_rows(MPI_COMM_WORLD, t, &global, &first) != PQT_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], pqt_errmsg());
    } else {
        printf("rank %d: rows %lld..%lld\n", rank, (long long)first,
               (long long)(first + pqt_table_nrows(t) - 1));
        if (rank == 0) {
            printf("pqt_version_number %u\n", pqt_version_number());
            printf("%s: %lld rows, %d columns\n", argv[1], (long long)global, pqt_table_ncols(t));
            printf("ranks: %d\n", size);
        }
        rc = 0;
    }
    pqt_table_close(t);
    MPI_Finalize();
    return rc;
}
