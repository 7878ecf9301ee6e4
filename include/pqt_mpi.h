/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_mpi.h - pqt under MPI (library libpqt_mpi; pkg-config pqt-mpi, CMake pqt::pqt_mpi):
 * one collective open gives every rank its share of a file or a dataset, and every rank
 * writes its rows into one shared Parquet file. docs/mpi.md.
 *
 * The component is optional: the core library (pqt.h, libpqt) never depends on MPI. Every
 * call here is collective over comm (every rank calls it, in the same order) and every rank
 * returns the same status: when a call fails on any rank, each rank's pqt_errmsg() holds the
 * first failing rank's message, prefixed with "rank R: ", and nothing changed on any rank.
 */
#ifndef PQT_MPI_H
#define PQT_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "pqt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Reading ---- */

/* Open path (a file, a directory, a glob or a HATS catalogue, as pqt_table_open) on every
 * rank of comm, each rank getting its share of the rows. Collective.
 *
 * Rank 0 lists the dataset and reads every footer it needs (and _metadata) once, then
 * broadcasts their raw bytes; the other ranks parse them and read no footer (docs/mpi.md).
 * opts (the same on every rank) apply as in pqt_table_open: the slice (PQT_OPT_ROW_LO/HI) and
 * the file pruning first, then the share, then filter, sample and qc within each share.
 *
 * The share (pqt_opts PQT_OPT_SHARE_BY, set by the caller or left at its default):
 *  - PQT_SHARE_BYTES (default): contiguous row groups, balanced by compressed bytes over the
 *    row groups the open's statistics pruning kept; rank r holds earlier row groups than r+1.
 *  - PQT_SHARE_ROWS: exact row counts (the kept rows split as evenly as possible), cutting
 *    inside row groups.
 * More ranks than row groups: some ranks hold zero rows (not an error). The ranks' rows,
 * concatenated in rank order, are the rows of the serial open with the same opts.
 * A sort at open (PQT_OPT_SORT, a MAML's sort) or a limit (PQT_OPT_LIMIT) is refused
 * (PQT_MISUSE): both need every rank's rows.
 * Errors: as pqt_table_open, on every rank. On failure *ret is NULL on every rank. */
PQT_API pqt_status pqt_table_open_mpi(MPI_Comm comm, const char *path, const pqt_opts *opts,
                                      pqt_table **ret);

/* The rows of every rank's table t together (after filters) into *nrows_ret, and the 1-based
 * number of this rank's first row in that global numbering (rank 0: 1; a rank holding no
 * rows: the number its next row would have) into *first_row_ret. Either pointer may be NULL.
 * Collective (one MPI_Allgather of the ranks' pqt_table_nrows). PQT_MISUSE for a NULL t. */
PQT_API pqt_status pqt_table_mpi_rows(MPI_Comm comm, const pqt_table *t, int64_t *nrows_ret,
                                      int64_t *first_row_ret);
/* The two halves of pqt_table_mpi_rows, each collective: the global row count, and this
 * rank's first row (1-based); -1 on failure (pqt_errmsg says why). */
PQT_API int64_t pqt_table_mpi_global_nrows(MPI_Comm comm, const pqt_table *t);
PQT_API int64_t pqt_table_mpi_first_row(MPI_Comm comm, const pqt_table *t);

/* ---- Writing ---- */

#ifdef __cplusplus
}
#endif

#endif
