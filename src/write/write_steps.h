/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_steps.h - where each output column's rows come from, and the step loop that feeds
 * them to the column-chunk writers (write_steps.c; layer: write).
 */
#ifndef PQT_WRITE_STEPS_H
#define PQT_WRITE_STEPS_H

#include "write/write_file.h"

/* One output column's rows: buf holds the table's rows [row0, row0 + nrows). A resident
 * column (or the row index) is one buffer of every row; a column the table has not read is
 * read row group by row group through the table's plan (read set, t and slot given), each
 * buffer released, and its memory reused, once the next one is needed. */
typedef struct pqt_wsrc {
    const pqt_colbuf *buf;
    int64_t row0, nrows;
    bool read;
    pqt_table *t;
    int slot;
    int next_rg;             /* the next physical row group of the plan to read */
    pqt_colbuf tmp, conv;    /* the row group read, and its leaf bytes (write_conv.c) */
    pqt_colbuf spare;        /* the row group before's buffers, for the next read */
    pqt_read_counters rc;    /* added to the table after every step */
} pqt_wsrc;

/* Columns whose leaf wants other bytes than the table's (FIXED_LEN_BYTE_ARRAY decimals,
 * UUID) go to the chunk writer through conv: *buf becomes conv. row0: the table row
 * (1-based) of the buffer's first row, for messages. */
pqt_status pqt_wsrc_convert(const pqt_wcol *c, const pqt_colbuf **buf, pqt_colbuf *conv,
                            int64_t row0);
/* Append the table's rows 0 .. nrows - 1 of every column (srcs[k] for output column k),
 * cutting row groups as the options say. */
pqt_status pqt_writer_add_rows(pqt_writer *w, pqt_wsrc *srcs, int64_t nrows);
void pqt_wsrc_free(pqt_wsrc *s);
/* What a step thread lends each column task it runs: the decoding context of the reads, and
 * the compressor and page buffers of the encoding, none of which holds anything from one
 * task to the next. One set per column was a decompressed page, its levels, a compressor's
 * tables and two page buffers per column, all memory fresh from the kernel (zeroed on
 * first touch, which on some machines costs more than the encoding). */
typedef struct pqt_wthread {
    pqt_chunk_ctx *read_cx;
    pqt_codec_ctx *codec;
    pqt_buf scratch, comp;
} pqt_wthread;
/* Close every column's chunk of the pending row group (the last page, the dictionary page),
 * on the step threads with what they lend. */
pqt_status pqt_writer_finish_chunks(pqt_writer *w);
/* Free the writer's step threads' sets (pqt_writer_add_rows and
 * pqt_writer_finish_chunks make them). */
void pqt_writer_free_threads(pqt_writer *w);

#endif
