/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_run.c - the order of work of `pqt cat` once the file is open and the columns are
 * picked: stream the rows batch by batch (cat_read.c) through the writer of the format,
 * or, for the table on a terminal, read just the first and last PREVIEW_ROWS rows.
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cat.h"

/* Rows a terminal sees at each end of a long table. */
#define PREVIEW_ROWS 10

/* Rows lo..hi (1-based, inclusive), batch by batch through the writer of the format, on
 * this thread. EXIT_OK, EXIT_FAIL (a read failed, reported) or -1 (the output failed). */
static int stream(cat_reader *rd, cat_out *o, int64_t lo, int64_t hi)
{
    cat_batch b = cat_batch_new(o);
    int rc = EXIT_OK;
    cat_reader_start(rd, lo, hi);
    while (rc == EXIT_OK && cat_next_batch(rd, o, &b)) {
        if (cat_batch_read(rd, o, &b) != EXIT_OK) {
            sink_flush(&o->sink); /* the rows read so far, then the error */
            cat_reader_report(rd);
            rc = EXIT_FAIL;
            break;
        }
        cat_batch_view(o, &b);
        int64_t n = b.nrows;
        int wrc;
        if (o->format == FORMAT_TABLE) {
            cat_table_collect(o, n);
            o->nrows_out += n;
            wrc = cat_table_emit(o, -1);
        } else {
            wrc = cat_write_rows(o, n);
        }
        cat_batch_free(&b, o->ncols);
        /* Each batch shows as soon as it is read. */
        if (wrc != 0 || sink_flush(&o->sink) != 0) rc = -1;
    }
    cat_batch_done(&b, o->ncols);
    return rc;
}

/* Collect rows lo..hi for the table without printing them (the preview). */
static int collect_rows(cat_reader *rd, cat_out *o, int64_t lo, int64_t hi)
{
    cat_batch b = cat_batch_new(o);
    int rc = EXIT_OK;
    cat_reader_start(rd, lo, hi);
    while (rc == EXIT_OK && cat_next_batch(rd, o, &b)) {
        if (cat_batch_read(rd, o, &b) != EXIT_OK) {
            cat_reader_report(rd);
            rc = EXIT_FAIL;
            break;
        }
        cat_batch_view(o, &b);
        cat_table_collect(o, b.nrows);
        cat_batch_free(&b, o->ncols);
    }
    cat_batch_done(&b, o->ncols);
    return rc;
}

/* The exit status once the output failed: a reader that went away is not an error. */
static int output_status(const cat_out *o)
{
    return o->sink.status == SINK_CLOSED ? EXIT_OK : EXIT_FAIL;
}

int cat_print(cat_reader *rd, cat_out *o, int64_t lo, int64_t hi, int64_t limit, int all)
{
    int rc = EXIT_OK;
    /* A closed pipe is a write error (EPIPE) the sink ends quietly on, rather than a signal
     * that kills the process wherever it is. */
    signal(SIGPIPE, SIG_IGN);
#ifdef M_MMAP_THRESHOLD
    /* Every batch allocates and frees the same large buffers (pages, columns); glibc's
     * sliding threshold would move them onto the heap, where they fragment and the
     * resident size creeps up batch after batch. Mapped, they go back when freed. */
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
#endif
    sink_init(&o->sink, STDOUT_FILENO);
    int64_t total = hi - lo + 1;
    int64_t end = limit >= 0 && limit < total ? lo + limit - 1 : hi;
    cat_reader_plan(rd, o);
    char line[160];
    if (o->format == FORMAT_TABLE) {
        cat_term term;
        cat_term_detect(&term);
        cat_table_new(o, &term);
        if (term.is_tty && !all && limit < 0 && total > 2 * PREVIEW_ROWS) {
            /* A terminal gets the first and last rows; the whole table is one option away. */
            rc = collect_rows(rd, o, lo, lo + PREVIEW_ROWS - 1);
            if (rc == EXIT_OK) rc = collect_rows(rd, o, hi - PREVIEW_ROWS + 1, hi);
            if (rc != EXIT_OK) return rc;
            if (cat_table_emit(o, PREVIEW_ROWS) != 0) goto failed;
            snprintf(line, sizeof line,
                     "%lld rows, %d shown (the first %d and the last %d): --all prints every "
                     "row, and so does a pipe",
                     (long long)total, 2 * PREVIEW_ROWS, PREVIEW_ROWS, PREVIEW_ROWS);
            if (cat_table_finish(o, line) != 0) goto failed;
            return rc;
        }
    }
    if (end >= lo) {
        if (o->format != FORMAT_TABLE && !getenv("PQT_CAT_ONE_THREAD")) {
            cat_reader_start(rd, lo, end);
            rc = cat_stream_piped(rd, o);
        } else {
            rc = stream(rd, o, lo, end);
        }
        if (rc < 0) goto failed;
        if (rc != EXIT_OK) return rc;
    }
    if (o->format == FORMAT_TABLE) {
        if (o->nrows_out == total)
            snprintf(line, sizeof line, "%lld row%s", (long long)total, total == 1 ? "" : "s");
        else
            snprintf(line, sizeof line, "showing %lld of %lld rows", (long long)o->nrows_out,
                     (long long)total);
        if (cat_table_finish(o, line) != 0) goto failed;
    } else if (cat_write_end(o) != 0) {
        goto failed;
    }
    return rc;
failed:
    return output_status(o);
}

void cat_out_free(cat_out *o)
{
    cat_table_free(o);
    sink_free(&o->sink);
    rb_free(&o->cell);
    for (int c = 0; c < o->ncols; c++) {
        free(o->cols[c].key);
        free(o->cols[c].label);
        free(o->cols[c].path);
        free(o->cols[c].phys_unit);
    }
    free(o->cols);
    free(o->jorder);
    free(o->jend);
    o->jorder = NULL;
    o->jend = NULL;
    o->cols = NULL;
    o->ncols = 0;
}
