/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_common.c - one status for every rank of a collective call (libpqt_mpi).
 *
 * A rank's failure becomes every rank's: the ranks agree on the first failing rank with one
 * MPI_Allreduce, which then broadcasts its status and message. So a caller can branch on the
 * status without deadlocking the ranks that succeeded.
 */
#include "mpi_common.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_file.h"

/* pqt's message buffer is 1 KiB; the agreed message is cut to it */
#define MSG_NBYTES 1024

pqt_status pqt_mpi_check(int rc, const char *what)
{
    if (rc == MPI_SUCCESS) return PQT_OK;
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, text, &len);
    char msg[MSG_NBYTES];
    snprintf(msg, sizeof msg, "%s failed: %s", what, text);
    return pqt_set_error(PQT_IO, msg);
}

pqt_status pqt_mpi_agree(MPI_Comm comm, pqt_status local)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = local == PQT_OK ? size : rank, first = size;
    int rc = MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS) return pqt_mpi_check(rc, "MPI_Allreduce (agreeing on a status)");
    if (first == size) return PQT_OK;
    struct {
        int status;
        char msg[MSG_NBYTES];
    } what;
    memset(&what, 0, sizeof what);
    if (rank == first) {
        what.status = (int)local;
        snprintf(what.msg, sizeof what.msg, "rank %d: %s", rank, pqt_errmsg());
    }
    rc = MPI_Bcast(&what, (int)sizeof what, MPI_BYTE, first, comm);
    if (rc != MPI_SUCCESS) return pqt_mpi_check(rc, "MPI_Bcast (a rank's error)");
    what.msg[sizeof what.msg - 1] = '\0';
    return pqt_set_error((pqt_status)what.status, what.msg);
}

/* Bytes go in pieces of this size, so a rank that cannot hold them all still takes part. */
#define PIECE_NBYTES ((uint64_t)4 << 20)

pqt_status pqt_mpi_bcast_bytes(MPI_Comm comm, int root, const void *buf, size_t n,
                               void **buf_ret, size_t *n_ret)
{
    /* where a rank without memory receives (and drops) the pieces: the others must not be
     * left waiting in the broadcast; the caller agrees on the status afterwards */
    static uint8_t scratch[PIECE_NBYTES];
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    uint64_t len = n;
    int rc = MPI_Bcast(&len, 1, MPI_UINT64_T, root, comm);
    if (rc != MPI_SUCCESS) return pqt_mpi_check(rc, "MPI_Bcast (a length)");
    uint8_t *p = (uint8_t *)buf;
    pqt_status st = PQT_OK;
    if (rank != root) {
        p = len < SIZE_MAX ? malloc((size_t)len + 1) : NULL;
        if (!p) {
            char msg[128];
            snprintf(msg, sizeof msg, "out of memory receiving %llu bytes of metadata from "
                                      "rank %d",
                     (unsigned long long)len, root);
            st = pqt_set_error(PQT_NOMEM, msg);
        }
    }
    for (uint64_t at = 0; at < len && rc == MPI_SUCCESS; at += PIECE_NBYTES) {
        int piece = (int)(len - at < PIECE_NBYTES ? len - at : PIECE_NBYTES);
        rc = MPI_Bcast(p ? (void *)(p + at) : (void *)scratch, piece, MPI_BYTE, root, comm);
    }
    if (rc != MPI_SUCCESS) st = pqt_mpi_check(rc, "MPI_Bcast (metadata bytes)");
    if (st != PQT_OK) {
        if (rank != root) free(p);
        return st;
    }
    *buf_ret = p;
    *n_ret = (size_t)len;
    return PQT_OK;
}
