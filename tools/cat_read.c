/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_read.c - how `pqt cat` reads: every printed column over one batch of rows at a time,
 * through the low-level range read (pqt_file_read decodes only the pages that hold the
 * rows asked for).
 *
 * A batch holds about BATCH_NBYTES of decoded values and never crosses a row group. The
 * first batch is a probe of PROBE_ROWS rows (output starts at once; strings and lists get
 * measured); every later one is sized from what the previous one measured. Big batches
 * matter: a page is decompressed whole for every batch that needs a row of it, and some
 * writers (DuckDB) put a whole column chunk in one page. The table format keeps the text
 * of a batch, so its batches stay at TABLE_BATCH_ROWS.
 *
 * The library reads chunks with pread into buffers it reuses, so nothing of the file stays
 * resident between batches.
 */
#include <stdlib.h>

#include "cat.h"

#define BATCH_ROWS (1 << 20)
#define TABLE_BATCH_ROWS 65536
#define BATCH_NBYTES ((double)(16 << 20))
#define PROBE_ROWS 4096

int cat_reader_open(cat_reader *rd, const char *path, const cat_open_args *args)
{
    memset(rd, 0, sizeof *rd);
    rd->path = path;
    return cat_open(path, args, PQT_UNIT_NANOS, &rd->f) == PQT_OK ? EXIT_OK : tool_fail(path);
}

void cat_reader_close(cat_reader *rd)
{
    pqt_file_close(rd->f);
    rd->f = NULL;
    pqt_table_close(rd->t); /* the map is its row index */
    rd->t = NULL;
    rd->map = NULL;
}

/* A leaf (column chunk) of each printed column: the footer's sizes feed the estimates. One
 * pass over the leaves, then one over the printed columns: a file of many thousand columns
 * plans in linear time. */
void cat_reader_plan(cat_reader *rd, cat_out *o)
{
    const pqt_file *f = rd->f;
    int nleaves = pqt_file_nleaves(f), ncols = pqt_file_ncols(f);
    int *first_leaf = malloc(sizeof(int) * ((size_t)ncols + 1));
    char *list = calloc((size_t)ncols + 1, 1);
    if (!first_leaf || !list) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    for (int c = 0; c < ncols; c++)
        first_leaf[c] = -1;
    for (int leaf = 0; leaf < nleaves; leaf++) {
        int node = pqt_file_leaf_node(f, leaf);
        while (node > 0 && pqt_file_node_column(f, node) < 0)
            node = pqt_file_node_parent(f, node);
        int col = node > 0 ? pqt_file_node_column(f, node) : -1;
        if (col < 0 || col >= ncols || first_leaf[col] >= 0) continue;
        first_leaf[col] = leaf;
        list[col] = node != pqt_file_leaf_node(f, leaf);
    }
    for (int c = 0; c < o->ncols; c++) { /* a MAP's leaves are lists named by their own nodes */
        int k = 0, w = 0;
        if (!o->cols[c].is_list && pqt_file_column_shape(rd->f, o->cols[c].col, 0, &k, &w) == PQT_OK &&
            (k & PQT_LIST))
            o->cols[c].is_list = 1;
    }
    for (int c = 0; c < o->ncols; c++) {
        cat_col *col = &o->cols[c];
        if (col->row_index || col->leaf >= 0 || col->col < 0 || col->col >= ncols) continue;
        col->leaf = first_leaf[col->col];
        if (col->leaf >= 0) col->is_list = list[col->col];
    }
    free(first_leaf);
    free(list);
    for (int c = 0; c < o->ncols; c++) {
        cat_col *col = &o->cols[c];
        /* The kind of a LIST column says whether every row has the same length, which the
         * library may learn only by reading the whole column: it is taken from the first
         * batch instead ("list<...>" either way). */
        col->kind = col->row_index ? PQT_INT64
                    : col->is_list ? PQT_NONE
                                   : pqt_file_column_kind(f, col->col);
        col->kind_name = col->is_list ? "list" : pqt_kind_name(col->kind);
        int elem = PQT_KIND_ELEMENT(col->kind);
        col->row_nbytes = PQT_KIND_IS_BYTES(elem) ? 8 : (double)pqt_kind_elem_nbytes(elem);
        if (col->is_list) col->row_nbytes = 64; /* a guess; the probe batch measures it */
    }
    /* A VARIANT's value leaf prints as JSON when its metadata leaf is printed too. */
    for (int c = 0; c < o->ncols; c++) {
        if (pqt_file_column_variant(f, o->cols[c].col) != 2) continue;
        const char *vp = o->cols[c].path;
        size_t n = strlen(vp) - 5; /* "<v>.value" -> "<v>." */
        for (int k = 0; k < o->ncols; k++)
            if (pqt_file_column_variant(f, o->cols[k].col) == 1 &&
                strncmp(o->cols[k].path, vp, n) == 0 && strcmp(o->cols[k].path + n, "metadata") == 0) {
                o->cols[c].variant_meta = k + 1;
                o->cols[c].kind_name = "variant";
            }
    }
}

/* Decoded bytes a row of array a takes. */
static double measured_row_nbytes(const pqt_array *a, double old)
{
    int64_t n = pqt_array_nrows(a);
    if (n <= 0) return old;
    int kind = pqt_array_kind(a), elem = PQT_KIND_ELEMENT(kind), width = pqt_array_width(a);
    double esz = PQT_KIND_IS_BYTES(elem) ? 8 : (double)pqt_kind_elem_nbytes(elem);
    double nelem = (double)n * (width > 0 ? width : 1), bytes = 0;
    const int64_t *lo = pqt_array_list_offsets(a), *so = pqt_array_str_offsets(a);
    if (lo) {
        nelem = (double)(lo[n] - lo[0]);
        bytes += 8.0 * (double)(n + 1);
    }
    bytes += nelem * esz;
    if (so) bytes += (double)(so[(int64_t)nelem] - so[0]);
    return bytes / (double)n + 1;
}

void cat_reader_start(cat_reader *rd, int64_t lo, int64_t hi)
{
    rd->next = lo;
    rd->end = hi;
    rd->rg = -1;
    rd->rg_last = 0;
}

int cat_next_batch(cat_reader *rd, const cat_out *o, cat_batch *b)
{
    if (rd->next > rd->end) return 0;
    int64_t row = rd->map ? rd->map[rd->next - 1] : rd->next; /* the file row */
    while (row > rd->rg_last) { /* the row group holding it */
        rd->rg++;
        rd->rg_last += pqt_file_row_group_nrows(rd->f, rd->rg);
    }
    double row_nbytes = 1;
    for (int c = 0; c < o->ncols; c++)
        if (!o->cols[c].hidden) row_nbytes += o->cols[c].row_nbytes;
    double n = BATCH_NBYTES / row_nbytes;
    double max = !rd->measured ? PROBE_ROWS : o->format == FORMAT_TABLE ? TABLE_BATCH_ROWS
                                                                         : BATCH_ROWS;
    if (n > max) n = max;
    int64_t rows = n < 1 ? 1 : (int64_t)n;
    b->rg = rd->rg;
    b->first = rd->next;
    if (rd->map) {
        /* The survivors whose file rows lie within `rows` file rows of this one (they are
         * read as one span) and in its row group. */
        int64_t span_end = rd->rg_last - row + 1 > rows ? row + rows - 1 : rd->rg_last;
        int64_t k = rd->next; /* output row of the batch's last survivor */
        while (k < rd->end && rd->map[k] <= span_end)
            k++;
        b->lo = row;
        b->hi = rd->map[k - 1];
        b->nrows = k - rd->next + 1;
        rd->next = k + 1;
        return 1;
    }
    int64_t last = rd->end < rd->rg_last ? rd->end : rd->rg_last;
    b->lo = rd->next;
    b->hi = last - b->lo + 1 > rows ? b->lo + rows - 1 : last;
    b->nrows = b->hi - b->lo + 1;
    rd->next = b->hi + 1;
    return 1;
}

/* Keep the library's message for cat_reader_report. */
static int failed(cat_reader *rd)
{
    snprintf(rd->err, sizeof rd->err, "%s", pqt_errmsg());
    return EXIT_FAIL;
}

void cat_reader_report(const cat_reader *rd)
{
    const char *msg = rd->err[0] ? rd->err : "failed";
    /* The library's message often starts with the path already; say it once. */
    size_t n = strlen(rd->path);
    if (strncmp(msg, rd->path, n) == 0 && strncmp(msg + n, ": ", 2) == 0) msg += n + 2;
    tool_msg("pqt: %s: %s", rd->path, msg);
}

int cat_batch_read(cat_reader *rd, cat_out *o, cat_batch *b)
{
    /* the batch's columns announced together: over HTTP or S3 one coalesced request, not
     * one a column (a local file ignores it) */
    int *cols = malloc((size_t)o->ncols * sizeof *cols), n = 0;
    for (int c = 0; cols && c < o->ncols; c++)
        if (!o->cols[c].hidden && !o->cols[c].row_index) cols[n++] = o->cols[c].col;
    if (cols && n > 0) pqt_file_will_read(rd->f, cols, n, b->lo, b->hi);
    free(cols);
    for (int c = 0; c < o->ncols; c++) {
        cat_col *col = &o->cols[c];
        b->arr[c] = NULL;
        if (col->hidden) continue;
        if (col->row_index) { /* made here, not read: the rows' own numbers */
            cat_row_index(&b->g[c], rd->map, rd->map ? b->first : b->lo, b->nrows);
            if (!col->planned) {
                cat_plan_column(o, rd->f, col);
                col->planned = 1;
            }
            continue;
        }
        if (cat_read(rd->f, col, b->lo, b->hi, &b->arr[c]) != PQT_OK) {
            failed(rd);
            cat_batch_free(b, c);
            return EXIT_FAIL;
        }
        if (!col->planned) {
            if (col->is_list) {
                col->kind = PQT_KIND_ELEMENT(pqt_array_kind(b->arr[c])) | PQT_LIST;
                col->kind_name = pqt_kind_name(col->kind);
            }
            cat_plan_column(o, rd->f, col);
            col->planned = 1;
        }
        col->row_nbytes = measured_row_nbytes(b->arr[c], col->row_nbytes);
        if (rd->map) { /* keep the survivors only; the span's array goes at once */
            colview v;
            colview_init(&v, b->arr[c], col->unit, col->utc);
            cat_gather(&b->g[c], &v, rd->map + b->first - 1, b->nrows, b->lo);
            pqt_array_free(b->arr[c]);
            b->arr[c] = NULL;
        }
    }
    rd->measured = 1;
    return EXIT_OK;
}

void cat_link_variants(cat_out *o)
{
    for (int c = 0; c < o->ncols; c++)
        if (o->cols[c].variant_meta) o->cols[c].v.meta = &o->cols[o->cols[c].variant_meta - 1].v;
}

void cat_batch_view(cat_out *o, const cat_batch *b)
{
    for (int c = 0; c < o->ncols; c++) {
        cat_col *col = &o->cols[c];
        if (b->arr[c]) {
            cat_view(col, b->arr[c]);
        } else if (b->g[c].used) { /* as cat_view does for an array */
            col->v = b->g[c].v;
            col->v.dec = col->dec_precision != 0;
            col->v.scale = col->dec_scale;
        }
    }
    cat_link_variants(o);
}

void cat_batch_free(cat_batch *b, int ncols)
{
    for (int c = 0; c < ncols; c++) {
        pqt_array_free(b->arr[c]);
        b->arr[c] = NULL;
        cat_gathered_free(&b->g[c]);
    }
}

cat_batch cat_batch_new(const cat_out *o)
{
    cat_batch b = {0};
    b.arr = calloc((size_t)o->ncols + 1, sizeof *b.arr);
    b.g = calloc((size_t)o->ncols + 1, sizeof *b.g);
    if (!b.arr || !b.g) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    return b;
}

void cat_batch_done(cat_batch *b, int ncols)
{
    cat_batch_free(b, ncols);
    free(b->arr);
    free(b->g);
    b->arr = NULL;
    b->g = NULL;
}
