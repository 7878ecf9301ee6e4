/*
 * cat_run.c - the order of work of `pqt cat` once the file is open and the columns are
 * picked: stream the rows batch by batch (cat_read.c) through the writer of the format,
 * or, for the table on a terminal, read just the first and last PREVIEW_ROWS rows.
 */
#include <stdlib.h>
#include <unistd.h>

#include "cat.h"

/* Rows a terminal sees at each end of a long table. */
#define PREVIEW_ROWS 10

/* Rows lo..hi (1-based, inclusive) of row group rg, batch by batch through the writer of
 * the format. EXIT_OK, EXIT_FAIL (a read failed, said why), or -1 (the output failed). */
static int stream_rows(cat_reader *rd, cat_out *o, int rg, int64_t lo, int64_t hi)
{
    for (int64_t a = lo; a <= hi;) {
        int64_t n = cat_batch_rows(rd, o);
        int64_t b = hi - a + 1 > n ? a + n - 1 : hi;
        if (cat_batch_read(rd, o, rg, a, b) != EXIT_OK) return EXIT_FAIL;
        int wrc;
        if (o->format == FORMAT_TABLE) {
            cat_table_collect(o, b - a + 1);
            o->nrows_out += b - a + 1;
            wrc = cat_table_emit(o, -1);
        } else {
            wrc = cat_write_rows(o, b - a + 1);
        }
        cat_batch_free(rd, o);
        /* Each batch shows as soon as it is read. */
        if (wrc != 0 || sink_flush(&o->sink) != 0) return -1;
        a = b + 1;
    }
    return EXIT_OK;
}

/* Stream rows lo..hi (1-based, inclusive) row group by row group; returns as stream_rows. */
static int stream(cat_reader *rd, cat_out *o, int64_t lo, int64_t hi)
{
    int nrg = pqt_file_nrow_groups(rd->f);
    int64_t first = 1;
    for (int rg = 0; rg < nrg && first <= hi; rg++) {
        int64_t last = first + pqt_file_row_group_nrows(rd->f, rg) - 1;
        int64_t a = lo > first ? lo : first, b = hi < last ? hi : last;
        first = last + 1;
        if (a > b) continue;
        int rc = stream_rows(rd, o, rg, a, b);
        if (rc != EXIT_OK) return rc;
    }
    return EXIT_OK;
}

/* The row group holding row `row` (1-based), and its first row. */
static int row_group_of(const pqt_file *f, int64_t row, int64_t *first_ret)
{
    int nrg = pqt_file_nrow_groups(f);
    int64_t first = 1;
    for (int rg = 0; rg < nrg; rg++) {
        int64_t n = pqt_file_row_group_nrows(f, rg);
        if (row < first + n) {
            *first_ret = first;
            return rg;
        }
        first += n;
    }
    *first_ret = first;
    return nrg - 1;
}

/* Collect rows lo..hi for the table without printing them (the preview). */
static int collect_rows(cat_reader *rd, cat_out *o, int64_t lo, int64_t hi)
{
    while (lo <= hi) {
        int64_t first;
        int rg = row_group_of(rd->f, lo, &first);
        int64_t last = first + pqt_file_row_group_nrows(rd->f, rg) - 1;
        int64_t b = hi < last ? hi : last;
        if (cat_batch_read(rd, o, rg, lo, b) != EXIT_OK) return EXIT_FAIL;
        cat_table_collect(o, b - lo + 1);
        cat_batch_free(rd, o);
        lo = b + 1;
    }
    return EXIT_OK;
}

/* The exit status once the output failed: a reader that went away is not an error. */
static int output_status(const cat_out *o)
{
    return o->sink.status == SINK_CLOSED ? EXIT_OK : EXIT_FAIL;
}

int cat_print(cat_reader *rd, cat_out *o, int64_t lo, int64_t hi, int64_t limit, int all)
{
    int rc = EXIT_OK;
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
        rc = stream(rd, o, lo, end);
        if (rc < 0) goto failed;
        if (rc != EXIT_OK) {
            sink_flush(&o->sink); /* the rows read so far, then the error */
            return rc;
        }
    }
    if (o->format == FORMAT_TABLE) {
        if (o->nrows_out == total)
            snprintf(line, sizeof line, "%lld row%s", (long long)total, total == 1 ? "" : "s");
        else
            snprintf(line, sizeof line, "showing %lld of %lld rows", (long long)o->nrows_out,
                     (long long)total);
        if (cat_table_finish(o, line) != 0) goto failed;
    } else if (cat_write_rows(o, 0) != 0 || sink_flush(&o->sink) != 0) {
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
        free(o->cols[c].path);
    }
    free(o->cols);
    o->cols = NULL;
    o->ncols = 0;
}
