/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_open.c - a collective open: rank 0 reads the metadata once, every rank opens its share
 * (libpqt_mpi; docs/mpi.md, "Reading").
 *
 * Rank 0 opens its own share recording the listing and footers it reads
 * (pqt_table_open_share). As soon as it has read them, before decoding the members'
 * footers, it broadcasts their bytes (a status first: a failure before that point reaches the
 * others instead), and every other rank opens its share from them, reading no footer, while
 * rank 0 decodes its own. The shares need no further message: each rank computes them all
 * from the same footers. A last agreement gives every rank the same status.
 */
#include <stdlib.h>

#include "mpi_common.h"
#include "pqt_file.h"
#include "pqt_mpi.h"

typedef struct root_send {
    MPI_Comm comm;
    int sent;
} root_send;

/* What rank 0 tells the others first: PQT_OK, then the snapshot's bytes follow; else the
 * status its open failed with before it had them (the message comes with the agreement). */
static pqt_status bcast_status(MPI_Comm comm, int *status)
{
    return pqt_mpi_check(MPI_Bcast(status, 1, MPI_INT, 0, comm), "MPI_Bcast (rank 0's status)");
}

/* Rank 0's open calls this once its metadata is read. */
static pqt_status send_snapshot(void *user, const void *bytes, size_t n)
{
    root_send *s = user;
    int ok = PQT_OK;
    s->sent = 1;
    if (bcast_status(s->comm, &ok) != PQT_OK) return PQT_IO;
    void *same = NULL;
    size_t nsame = 0;
    return pqt_mpi_bcast_bytes(s->comm, 0, bytes, n, &same, &nsame);
}

pqt_status pqt_table_open_mpi(MPI_Comm comm, const char *path, const pqt_opts *opts,
                              pqt_table **ret)
{
    int rank = 0, size = 1;
    int rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS) return pqt_mpi_check(rc, "pqt_table_open_mpi: MPI_Comm_rank/size");
    if (ret) *ret = NULL;
    pqt_status st = PQT_OK;
    if (!path || !ret)
        st = pqt_set_error(PQT_MISUSE, "pqt_table_open_mpi: path and ret must not be NULL");
    if ((st = pqt_mpi_agree(comm, st)) != PQT_OK) return st;
    pqt_table *t = NULL;
    if (rank == 0) {
        root_send s = {comm, 0};
        st = pqt_table_open_share(path, opts, 0, size, NULL, 0, send_snapshot, &s, &t);
        if (!s.sent) { /* failed before its metadata was read: the others must not wait */
            int failed = st != PQT_OK ? (int)st : PQT_IO;
            bcast_status(comm, &failed);
        }
    } else {
        int status = PQT_OK;
        st = bcast_status(comm, &status);
        void *got = NULL;
        size_t ngot = 0;
        if (st == PQT_OK && status == PQT_OK) {
            st = pqt_mpi_bcast_bytes(comm, 0, NULL, 0, &got, &ngot);
            if (st == PQT_OK)
                st = pqt_table_open_share(path, opts, rank, size, got, ngot, NULL, NULL, &t);
        }
        free(got);
    }
    st = pqt_mpi_agree(comm, st);
    if (st != PQT_OK) {
        pqt_table_close(t);
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
