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

/* Every rank's table t (the same columns on every rank) into the one file path, rank 0's
 * rows first, then rank 1's, ...; each rank's rows are cut into row groups of their own (a
 * rank without rows has none). Collective. Rank 0 encodes its rows straight into a temporary
 * file beside path, every other rank into a spool beside path; a prefix sum of the sizes
 * gives each rank its offset in the temporary file, where it copies its bytes; rank 0 gathers the ranks' row-group
 * metadata and writes the page indexes and the footer (docs/mpi.md "Writing"). The file is
 * the one pqt_write_table would write of the ranks' rows concatenated, but for the row
 * groups' bounds; its key-value entries are rank 0's (DATE, a MAML's, PQT_WOPT_METADATA),
 * with the row count, vector widths and string lengths of every rank's rows. o (NULL: the
 * defaults) must be the same on every rank; PQT_WOPT_WRITE_MAML is refused (PQT_MISUSE).
 * path appears only when every rank succeeded; otherwise no file is left (no temporary
 * one either) and every rank gets the first failing rank's error, "rank R: " first. The
 * parts' columns are checked against rank 0's: PQT_SCHEMA_MISMATCH "part 0 and part R
 * have different schemas: they first differ at column 'c'" (part R: rank R's rows).
 * Errors: as pqt_write_table; PQT_EXISTS without PQT_WOPT_OVERWRITE. */
PQT_API pqt_status pqt_write_table_mpi(MPI_Comm comm, pqt_table *t, const char *path,
                                       const pqt_write_opts *o);
/* A streaming writer whose rows, on every rank, go to the one file path as in
 * pqt_write_table_mpi: open collectively (each rank's template_table with the same
 * columns), then pqt_writer_write on each rank as often as it likes (not collective; rows
 * are cut into row groups per rank as the options say), then pqt_writer_close_mpi
 * collectively. On failure *ret is NULL on every rank. A writer that failed a write still
 * takes part in pqt_writer_close_mpi, which then fails on every rank and leaves no file;
 * pqt_writer_abort on one rank alone would leave the others waiting. */
PQT_API pqt_status pqt_writer_open_mpi(MPI_Comm comm, pqt_writer **ret, const char *path,
                                       pqt_table *template_table, const pqt_write_opts *o);
/* Finish the writer of pqt_writer_open_mpi on every rank: the file is named when every rank
 * succeeded (errors as pqt_write_table_mpi). w is freed in every case. Collective. */
PQT_API pqt_status pqt_writer_close_mpi(MPI_Comm comm, pqt_writer *w);
/* One file per rank: rank R's rows to dir/part-RRRRR.parquet (five digits; a rank without
 * rows writes no file, unless no rank has rows: then rank 0 writes its empty one), and rank
 * 0 writes the _metadata and _common_metadata summaries (pqt_write_metadata_summary). dir
 * must not exist or be empty; the files are written into a hidden sibling renamed to dir
 * when every rank succeeded, so dir appears whole or not at all. Collective; errors as
 * pqt_write_table and pqt_write_metadata_summary, PQT_EXISTS for a directory that is not
 * empty, each rank getting the first failing rank's. */
PQT_API pqt_status pqt_write_dataset_mpi(MPI_Comm comm, pqt_table *t, const char *dir,
                                         const pqt_write_opts *o);

#ifdef __cplusplus
}
#endif

#endif
