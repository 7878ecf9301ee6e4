/* SPDX-License-Identifier: Apache-2.0 */
/* mpi_testutil.c - see mpi_testutil.h. */
#include "mpi_testutil.h"

#include <stdlib.h>
#include <string.h>

int mpi_test_failures = 0;
int mpi_test_rank = 0, mpi_test_size = 1;

void mpi_test_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_test_size);
}

int mpi_test_finish(void)
{
    int any = 0;
    MPI_Allreduce(&mpi_test_failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (mpi_test_rank == 0)
        printf("%s (%d ranks, %d failed checks)\n", any ? "FAIL" : "ok", mpi_test_size, any);
    MPI_Finalize();
    return any ? 1 : 0;
}

int64_t *mpi_test_allgather_i64(const int64_t *v, int64_t n, int64_t *total_ret)
{
    int size = mpi_test_size;
    int *counts = calloc((size_t)size, sizeof *counts), *displs = calloc((size_t)size, sizeof *displs);
    int mine = (int)n;
    MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    int64_t total = 0;
    for (int r = 0; r < size; r++) {
        displs[r] = (int)total;
        total += counts[r];
    }
    int64_t *all = malloc(((size_t)total + 1) * sizeof *all);
    MPI_Allgatherv(v, mine, MPI_INT64_T, all, counts, displs, MPI_INT64_T, MPI_COMM_WORLD);
    free(counts);
    free(displs);
    *total_ret = total;
    return all;
}

int64_t *mpi_test_column_i64(pqt_table *t, const char *name)
{
    void *data = NULL;
    uint8_t *valid = NULL;
    int64_t n = 0;
    if (pqt_table_get_alloc(t, name, PQT_INT64, &data, &valid, &n) != PQT_OK) {
        fprintf(stderr, "rank %d: reading %s: %s\n", mpi_test_rank, name, pqt_errmsg());
        mpi_test_failures++;
        return calloc(1, sizeof(int64_t));
    }
    int64_t *out = malloc(((size_t)n + 1) * sizeof *out);
    memcpy(out, data, (size_t)n * sizeof *out);
    for (int64_t i = 0; valid && i < n; i++)
        if (!(valid[i / 8] >> (i % 8) & 1)) out[i] = INT64_MIN;
    pqt_free(data);
    pqt_free(valid);
    return out;
}
