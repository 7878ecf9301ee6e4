/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_select.h - selection-driven column reads for the table layer (layer: api, private).
 */
#ifndef PQT_API_FILE_SELECT_H
#define PQT_API_FILE_SELECT_H

#include "api/file_int.h"
#include "util/sel.h"

/* Read column c of f under one selection per physical row group: sels[rg] (row-group
 * relative; NONE skips the row group) lands at destination row dst_row[rg] of b, which is
 * allocated here at nrows rows (nrows must equal the sum of the selections). Fixed-width
 * scalar columns decode their row groups in parallel when threads > 1; strings and lists
 * append, so they go in order. On failure b is left freed and the message names the
 * column and row group. Only reads f: several calls may run at once on one f for
 * different columns. counters (NULL = none) receives what the read cost (column.h), also
 * when it fails; calls reading at once may share a block. */
pqt_status pqt_file_read_sel(pqt_file *f, const pqt_col *c, const pqt_sel *sels,
                             const int64_t *dst_row, int64_t nrows, int threads,
                             pqt_read_counters *counters, pqt_colbuf *b);
/* As pqt_file_read_sel; borrowed_data (may be NULL) is caller memory for the values of a
 * fixed-width scalar column, decoded into directly. */
pqt_status pqt_file_read_sel_into(pqt_file *f, const pqt_col *c, const pqt_sel *sels,
                                  const int64_t *dst_row, int64_t nrows, int threads,
                                  pqt_read_counters *counters, pqt_colbuf *b,
                                  void *borrowed_data);

/* As pqt_file_read_sel_into over the nrg row groups starting at rg0 only: sels[i] and
 * dst_row[i] belong to row group rg0 + i. Work and memory are proportional to nrg. */
pqt_status pqt_file_read_span(pqt_file *f, const pqt_col *c, int rg0, int nrg,
                              const pqt_sel *sels, const int64_t *dst_row, int64_t nrows,
                              int threads, pqt_read_counters *counters, pqt_colbuf *b,
                              void *borrowed_data);
/* As pqt_file_read_span, b's arrays taken from spare (a colbuf done with, left empty; NULL:
 * none) where large enough, and a serial read decoding with serial_cx (NULL: its own): a
 * caller reading row group after row group maps no new memory. */
pqt_status pqt_file_read_span_reusing(pqt_file *f, const pqt_col *c, int rg0, int nrg,
                                      const pqt_sel *sels, const int64_t *dst_row, int64_t nrows,
                                      int threads, pqt_read_counters *counters, pqt_colbuf *b,
                                      void *borrowed_data, pqt_colbuf *spare,
                                      pqt_chunk_ctx *serial_cx);

#endif
