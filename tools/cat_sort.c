/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_sort.c - `pqt cat --sort KEYS [--limit N]`: the rows come from a table opened with the
 * sort (and the filter and the limit) given to the library, so the library decides the
 * order (one engine, a top-n for a limit) and reads the other columns straight into sorted
 * position. The printed columns are read through the table in one pass (prefetch), exact
 * decimals through pqt_table_get_decimal_alloc, and written in batches gathered from the
 * table's columns, so the writers see ordinary batches. Unlike the streaming cat, the
 * printed rows are held in memory once (a sort needs every row before the first prints).
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "cat.h"

#define SORTED_BATCH_ROWS 65536
#define PREVIEW_ROWS 10

typedef struct sorted_col {
    colview v;   /* the whole column, in the table's (sorted) rows */
    void *dec;   /* exact decimals, or NULL */
    uint8_t *dec_valid;
} sorted_col;

static int fail_table(cat_reader *rd)
{
    fflush(stdout);
    return tool_fail(rd->path);
}

/* Views of every printed column over all rows of the table. */
static int view_columns(cat_reader *rd, cat_out *o, sorted_col *sc)
{
    const char **names = calloc((size_t)o->ncols + 1, sizeof *names);
    if (!names) return EXIT_FAIL;
    for (int c = 0; c < o->ncols; c++) names[c] = o->cols[c].path;
    pqt_status st = pqt_table_prefetch(rd->t, names, o->ncols);
    free(names);
    if (st != PQT_OK) return fail_table(rd);
    for (int c = 0; c < o->ncols; c++) {
        cat_col *col = &o->cols[c];
        pqt_column_view v;
        memset(&v, 0, sizeof v);
        v.struct_size = sizeof v;
        if (pqt_table_column(rd->t, col->path, 0, &v) != PQT_OK) return fail_table(rd);
        colview *w = &sc[c].v;
        w->kind = v.kind;
        w->elem = PQT_KIND_ELEMENT(v.kind);
        w->width = v.width < 1 ? 1 : v.width;
        w->unit = col->unit;
        w->utc = col->utc;
        w->nrows = v.nrows;
        w->data = v.data;
        w->valid = v.validity;
        w->row_valid = v.row_validity;
        w->str_off = v.str_offsets;
        w->list_off = (v.kind & PQT_LIST) ? v.list_offsets : NULL;
        w->bytes = v.str_bytes;
        if (col->dec_precision) {
            int kind = 0;
            if (pqt_table_get_decimal_alloc(rd->t, col->path, &sc[c].dec, &sc[c].dec_valid, NULL,
                                            &kind) != PQT_OK)
                return fail_table(rd);
            w->data = sc[c].dec;
            w->valid = sc[c].dec_valid;
            w->elem = kind;
            w->kind = (v.kind & ~0x1f) | kind;
        }
        if (!col->planned) {
            if (col->is_list) {
                col->kind = w->elem | PQT_LIST;
                col->kind_name = pqt_kind_name(col->kind);
            }
            cat_plan_column(o, rd->f, col);
            col->planned = 1;
        }
    }
    return EXIT_OK;
}

/* Point the columns at rows first..first+n-1 (0-based), gathered into g. */
static void gather_rows(cat_out *o, const sorted_col *sc, cat_gathered *g, int64_t *rows,
                        int64_t first, int64_t n)
{
    for (int64_t i = 0; i < n; i++) rows[i] = first + i;
    for (int c = 0; c < o->ncols; c++) {
        cat_gather(&g[c], &sc[c].v, rows, n, 0);
        o->cols[c].v = g[c].v;
        o->cols[c].v.dec = o->cols[c].dec_precision != 0;
        o->cols[c].v.scale = o->cols[c].dec_scale;
    }
    cat_link_variants(o);
}

int cat_print_sorted(cat_reader *rd, cat_out *o, int all)
{
    signal(SIGPIPE, SIG_IGN); /* a closed pipe ends the sink quietly, as in cat_print */
    sink_init(&o->sink, STDOUT_FILENO);
    cat_reader_plan(rd, o);
    int64_t total = pqt_table_nrows(rd->t);
    sorted_col *sc = calloc((size_t)o->ncols + 1, sizeof *sc);
    cat_gathered *g = calloc((size_t)o->ncols + 1, sizeof *g);
    int64_t *rows = malloc(sizeof(int64_t) * SORTED_BATCH_ROWS);
    int rc = sc && g && rows ? view_columns(rd, o, sc) : EXIT_FAIL;
    char line[160];
    int wrc = 0;
    if (rc == EXIT_OK && o->format == FORMAT_TABLE) {
        cat_term term;
        cat_term_detect(&term);
        cat_table_new(o, &term);
        if (term.is_tty && !all && total > 2 * PREVIEW_ROWS) {
            gather_rows(o, sc, g, rows, 0, PREVIEW_ROWS);
            cat_table_collect(o, PREVIEW_ROWS);
            gather_rows(o, sc, g, rows, total - PREVIEW_ROWS, PREVIEW_ROWS);
            cat_table_collect(o, PREVIEW_ROWS);
            snprintf(line, sizeof line,
                     "%lld rows, %d shown (the first %d and the last %d): --all prints every "
                     "row, and so does a pipe",
                     (long long)total, 2 * PREVIEW_ROWS, PREVIEW_ROWS, PREVIEW_ROWS);
            wrc = cat_table_emit(o, PREVIEW_ROWS) != 0 || cat_table_finish(o, line) != 0;
            goto done;
        }
    }
    for (int64_t first = 0; rc == EXIT_OK && !wrc && first < total; first += SORTED_BATCH_ROWS) {
        int64_t n = total - first < SORTED_BATCH_ROWS ? total - first : SORTED_BATCH_ROWS;
        gather_rows(o, sc, g, rows, first, n);
        if (o->format == FORMAT_TABLE) {
            cat_table_collect(o, n);
            o->nrows_out += n;
            wrc = cat_table_emit(o, -1) != 0;
        } else {
            wrc = cat_write_rows(o, n) != 0;
        }
        wrc = wrc || sink_flush(&o->sink) != 0;
    }
    if (rc == EXIT_OK && !wrc) {
        if (o->format == FORMAT_TABLE) {
            snprintf(line, sizeof line, "%lld row%s", (long long)total, total == 1 ? "" : "s");
            wrc = cat_table_finish(o, line) != 0;
        } else {
            wrc = cat_write_end(o) != 0;
        }
    }
done:
    for (int c = 0; sc && g && c < o->ncols; c++) {
        cat_gathered_free(&g[c]);
        pqt_free(sc[c].dec);
        pqt_free(sc[c].dec_valid);
    }
    free(sc);
    free(g);
    free(rows);
    if (wrc) return o->sink.status == SINK_CLOSED ? EXIT_OK : EXIT_FAIL;
    return rc;
}
