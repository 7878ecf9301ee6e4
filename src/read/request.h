/* SPDX-License-Identifier: Apache-2.0 */
/*
 * request.h - the one reader's interface: a plan's selections for one column into one
 * destination (layer: read; reader.c executes it).
 *
 * Every column read of the library (range reads, selection reads, a table's first touch,
 * the writer's copies) is one pqt_read_req handed to pqt_read_column. The reader sizes the
 * destination once, picks one of four named strategies and runs it; a strategy whose
 * premise turns out false falls back to the serial one explicitly.
 */
#ifndef PQT_READ_REQUEST_H
#define PQT_READ_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "format/meta.h"
#include "format/schema.h"
#include "read/plan.h"
#include "util/io.h"
#include "util/sel.h"

/* What the reader needs of a file (api/ fills it from its pqt_file): the reader never sees
 * the file handle, so it sits below api/ and table/. Borrowed: valid while the file is. */
typedef struct pqt_read_src {
    pqt_io *io;
    const char *path;
    int64_t file_size;
    const pqt_file_meta *meta;
    bool verify_crc;
    pqt_oindex_cache *oindex; /* the file's decoded offset indexes (NULL: none kept) */
    const pqt_chunk_members *members; /* a dataset's member files (NULL: one file) */
} pqt_read_src;

/* How a read was carried out. Values are only for tests and counters. */
typedef enum pqt_read_strategy {
    PQT_READ_NOTHING = 0, /* nothing selected: an empty column */
    PQT_READ_SERIAL,      /* row groups in order on the calling thread (lists append) */
    PQT_READ_FIXED_PAR,   /* fixed-width scalars: row groups in parallel, each in place */
    PQT_READ_STRINGS_WIN, /* strings: each row group in its own byte window, closed up */
    PQT_READ_LISTS_WIN,   /* lists: element windows laid out from the statistics */
} pqt_read_strategy;

/* One read: row group rg0 + i of column col under sels[i] (row-group relative; NONE skips
 * it) lands at destination row dst_row[i], for i in [0, nrg); nrows is the sum of the
 * selections. Work and memory are proportional to nrg, not to the file. */
typedef struct pqt_read_req {
    pqt_read_src src;
    const pqt_col *col;
    int rg0, nrg;
    const pqt_sel *sels;
    const int64_t *dst_row;
    int64_t nrows;
    int threads;                 /* > 1 allows the parallel strategies */
    pqt_read_counters *counters; /* NULL = none; what the read cost, also when it fails */
    void *borrowed_data;         /* NULL, or caller memory for fixed-width scalar values */
    pqt_colbuf *spare;           /* NULL, or a colbuf done with: its arrays are reused where
                                    large enough and it is left empty (also on failure) */
    pqt_chunk_ctx *serial_cx;    /* NULL, or the decoding context of a serial read */
    pqt_read_strategy *used;     /* NULL, or receives the strategy that produced b */
} pqt_read_req;

/* A request for the whole of plan p (its selections and destinations) of column col:
 * threads 1, no counters, nothing borrowed; the caller sets the rest. */
pqt_read_req pqt_read_req_plan(const pqt_read_src *src, const pqt_col *col, const pqt_plan *p);
/* A request for row group rg of plan p alone, into a buffer of its own (its rows from 0):
 * threads 1, no counters, nothing borrowed; the caller sets the rest. */
pqt_read_req pqt_read_req_group(const pqt_read_src *src, const pqt_col *col, const pqt_plan *p,
                                int rg);

/* Execute rq into b, which is allocated here at rq->nrows rows. On failure b is left
 * freed and the message names the file, column and row group; PQT_MISUSE for row groups
 * outside the file, PQT_UNSUPPORTED_TYPE for a column that cannot be read. Only reads the
 * file: several requests may run at once on one source, for different columns. */
pqt_status pqt_read_column(const pqt_read_req *rq, pqt_colbuf *b);

/* reader_hint.c: tell the source of rqs[0..n) (one source) every byte range the reads will
 * fetch, so that a remote source fetches them ahead (coalesced, several requests at once);
 * nothing for a local source or a dataset. Never fails: a read reports its own failures. */
void pqt_read_hint(const pqt_read_req *rqs, int n);

/* reader_width.c: the width every row of LIST column c shares over the rows plan p holds
 * (NULL: the whole file). A plan narrowed below its slice (filtered, sampled) is read once
 * over its rows (threads, as pqt_read_req). Otherwise the footer first (a uniform non-null
 * list has exactly w level entries a row), then, with measure, each covering row group read
 * whole, stopping at the first that disagrees. *w_ret: > 0 the width, -1 rows disagree,
 * PQT_READ_WIDTH_NO_ROWS no rows to measure, 0 (measure 0 only) the data must tell. What
 * is read is counted into rc (NULL = none), also on failure. */
#define PQT_READ_WIDTH_NO_ROWS (-2)
pqt_status pqt_read_list_width(const pqt_read_src *src, const pqt_col *c, const pqt_plan *p,
                               int threads, int measure, pqt_read_counters *rc, int *w_ret);

#endif
