/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi_common.h - what every collective call of libpqt_mpi shares: one status for all ranks.
 */
#ifndef PQT_MPI_COMMON_H
#define PQT_MPI_COMMON_H

#include <mpi.h>
#include <stddef.h>

#include "pqt.h"

/* The status every rank returns from a collective step: PQT_OK when every rank's local status
 * is PQT_OK; else the first failing rank's status, and on every rank pqt_errmsg() becomes
 * "rank R: " and that rank's message (the failing rank's own message is prefixed too). A
 * failure of MPI itself is PQT_IO naming the MPI call. Collective. */
pqt_status pqt_mpi_agree(MPI_Comm comm, pqt_status local);

/* An MPI return code as a pqt status (PQT_IO with MPI's error string and the call's name). */
pqt_status pqt_mpi_check(int rc, const char *what);

/* The bytes n of rank root's buf broadcast to every rank into a fresh pqt_malloc'd buffer
 * (*buf_ret; root's own stays its own: *buf_ret = buf there). Sizes above INT_MAX are sent in
 * pieces. Collective. */
pqt_status pqt_mpi_bcast_bytes(MPI_Comm comm, int root, const void *buf, size_t n,
                               void **buf_ret, size_t *n_ret);

#endif
