/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_open.c - a collective open: rank 0 reads the metadata once, every rank opens its share
 * (libpqt_mpi; docs/mpi.md, "Reading").
 *
 * Rank 0 opens its own share recording the listing and footers it read
 * (pqt_table_open_share), broadcasts those bytes, and every other rank opens its share from
 * them, reading no footer. The shares need no further message: each rank computes them all
 * from the same footers.
 */
#include <stdlib.h>

#include "mpi_common.h"
#include "pqt_file.h"
#include "pqt_mpi.h"

pqt_status pqt_table_open_mpi(MPI_Comm comm, const char *path, const pqt_opts *opts,
                              pqt_table **ret)
{
    int rank = 0, size = 1;
    int rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return pqt_mpi_check(rc, "pqt_table_open_mpi: MPI_Comm_rank/size");
    pqt_status st = PQT_OK;
    if (!path || !ret)
        st = pqt_set_error(PQT_MISUSE, "pqt_table_open_mpi: path and ret must not be NULL");
    pqt_table *t = NULL;
    void *snap = NULL;
    size_t nsnap = 0;
    if (st == PQT_OK && rank == 0)
        st = pqt_table_open_share(path, opts, 0, size, NULL, 0, &t, &snap, &nsnap);
    if ((st = pqt_mpi_agree(comm, st)) != PQT_OK) {
        pqt_table_close(t);
        pqt_free(snap);
        if (ret) *ret = NULL;
        return st;
    }
    void *got = NULL;
    size_t ngot = 0;
    if (st == PQT_OK) st = pqt_mpi_bcast_bytes(comm, 0, snap, nsnap, &got, &ngot);
    if (st == PQT_OK && rank != 0)
        st = pqt_table_open_share(path, opts, rank, size, got, ngot, &t, NULL, NULL);
    if (rank != 0) free(got);
    pqt_free(snap);
    st = pqt_mpi_agree(comm, st);
    if (st != PQT_OK) {
        pqt_table_close(t);
        if (ret) *ret = NULL;
        return st;
    }
    *ret = t;
    return PQT_OK;
}

pqt_status pqt_table_mpi_rows(MPI_Comm comm, const pqt_table *t, int64_t *nrows_ret,
                              int64_t *first_row_ret)
{
    int rank = 0, size = 1;
    int rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return pqt_mpi_check(rc, "pqt_table_mpi_rows: MPI_Comm_rank/size");
    pqt_status st = t ? PQT_OK : pqt_set_error(PQT_MISUSE, "pqt_table_mpi_rows: t is NULL");
    if ((st = pqt_mpi_agree(comm, st)) != PQT_OK) return st;
    int64_t mine = pqt_table_nrows(t);
    int64_t *all = malloc((size_t)size * sizeof *all);
    st = all ? PQT_OK : pqt_set_error(PQT_NOMEM, "pqt_table_mpi_rows: out of memory");
    if ((st = pqt_mpi_agree(comm, st)) != PQT_OK) {
        free(all);
        return st;
    }
    rc = MPI_Allgather(&mine, 1, MPI_INT64_T, all, 1, MPI_INT64_T, comm);
    if (rc != MPI_SUCCESS) {
        free(all);
        return pqt_mpi_check(rc, "pqt_table_mpi_rows: MPI_Allgather");
    }
    int64_t before = 0, total = 0;
    for (int r = 0; r < size; r++) {
        if (r < rank) before += all[r];
        total += all[r];
    }
    free(all);
    if (nrows_ret) *nrows_ret = total;
    if (first_row_ret) *first_row_ret = before + 1;
    return PQT_OK;
}

int64_t pqt_table_mpi_global_nrows(MPI_Comm comm, const pqt_table *t)
{
    int64_t n = -1;
    return pqt_table_mpi_rows(comm, t, &n, NULL) == PQT_OK ? n : -1;
}

int64_t pqt_table_mpi_first_row(MPI_Comm comm, const pqt_table *t)
{
    int64_t first = -1;
    return pqt_table_mpi_rows(comm, t, NULL, &first) == PQT_OK ? first : -1;
}
