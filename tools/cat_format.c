/*
 * cat_format.c - the three output formats of `pqt cat`, written one batch (one row group's
 * part of the requested rows) at a time: jsonl (the stable machine format), csv (RFC 4180
 * quoting) and table (for people: aligned, long values cut with "…", a row-count footer).
 */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

/* Table cells are cut to this many characters, headers to TABLE_HEAD_MAX. Dates, times and
 * timestamps have a fixed form that is useless cut, so they get TABLE_TIME_MAX. */
#define TABLE_CELL_MAX 24
#define TABLE_TIME_MAX 32
#define TABLE_HEAD_MAX 32
/* Rows of the first batch looked at to size the table columns. */
#define TABLE_SAMPLE_ROWS 100

static void flush_line(cat_out *o)
{
    rb_putc(&o->line, '\n');
    fwrite(o->line.p, 1, o->line.len, stdout);
    o->line.len = 0;
}

/* ---- jsonl ---- */

static void jsonl_batch(cat_out *o, int64_t nrows)
{
    for (int64_t r = 0; r < nrows; r++) {
        rb_putc(&o->line, '{');
        for (int c = 0; c < o->ncols; c++) {
            if (c) rb_putc(&o->line, ',');
            render_json_string(&o->line, o->cols[c].path, strlen(o->cols[c].path));
            rb_putc(&o->line, ':');
            render_cell(&o->line, &o->cols[c].v, r, STYLE_JSON);
        }
        rb_putc(&o->line, '}');
        flush_line(o);
    }
}

/* ---- csv ---- */

/* RFC 4180: a field holding a comma, quote or line break is quoted, quotes doubled. An
 * empty string is quoted too, so that it differs from a null (an empty field). */
static void csv_field(rbuf *b, const char *s, size_t n, int force_quote)
{
    int quote = force_quote || n == 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        rb_put(b, s, n);
        return;
    }
    rb_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') rb_putc(b, '"');
        rb_putc(b, s[i]);
    }
    rb_putc(b, '"');
}

static void csv_header(cat_out *o)
{
    for (int c = 0; c < o->ncols; c++) {
        if (c) rb_putc(&o->line, ',');
        csv_field(&o->line, o->cols[c].path, strlen(o->cols[c].path), 0);
    }
    flush_line(o);
}

static void csv_batch(cat_out *o, int64_t nrows)
{
    for (int64_t r = 0; r < nrows; r++) {
        for (int c = 0; c < o->ncols; c++) {
            const colview *v = &o->cols[c].v;
            if (c) rb_putc(&o->line, ',');
            o->cell.len = 0;
            if (!render_cell(&o->cell, v, r, STYLE_CSV)) continue; /* null: empty field */
            int is_array = (v->kind & (PQT_VECTOR | PQT_LIST)) != 0;
            csv_field(&o->line, o->cell.p, o->cell.len, is_array);
        }
        flush_line(o);
    }
}

/* ---- table ---- */

/* Append s cut to `width` characters ("…" marks a cut) and padded to exactly `width`. */
static void table_cell(rbuf *b, const char *s, size_t n, size_t width, int right, int last)
{
    size_t w = tool_text_width(s, n);
    int cut = w > width;
    if (cut) {
        n = tool_text_prefix(s, n, width - 1);
        w = width;
    }
    size_t pad = width - w;
    if (right)
        for (size_t i = 0; i < pad; i++)
            rb_putc(b, ' ');
    rb_put(b, s, n);
    if (cut) rb_puts(b, "…");
    if (!right && !last)
        for (size_t i = 0; i < pad; i++)
            rb_putc(b, ' ');
}

static void table_header(cat_out *o)
{
    for (int pass = 0; pass < 3; pass++) {
        for (int c = 0; c < o->ncols; c++) {
            const char *s = pass == 0 ? o->cols[c].path : o->cols[c].kind_name;
            int last = c == o->ncols - 1;
            if (c) rb_puts(&o->line, "  ");
            if (pass == 2)
                for (size_t i = 0; i < o->width[c]; i++)
                    rb_putc(&o->line, '-');
            else
                table_cell(&o->line, s, strlen(s), o->width[c], o->cols[c].right_align, last);
        }
        flush_line(o);
    }
}

/* Widths come from the header and the first rows of the first batch, and then stay fixed so
 * the whole output lines up; later wider values are cut. */
static void table_size(cat_out *o, int64_t nrows)
{
    o->width = calloc(o->ncols > 0 ? (size_t)o->ncols : 1, sizeof *o->width);
    if (!o->width) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    for (int c = 0; c < o->ncols; c++) {
        int kind = o->cols[c].v.kind;
        size_t max = kind == PQT_DATE || kind == PQT_TIME || kind == PQT_TIMESTAMP ? TABLE_TIME_MAX
                                                                                   : TABLE_CELL_MAX;
        size_t w = tool_text_width(o->cols[c].path, strlen(o->cols[c].path));
        size_t k = tool_text_width(o->cols[c].kind_name, strlen(o->cols[c].kind_name));
        w = w > k ? w : k;
        w = w < TABLE_HEAD_MAX ? w : TABLE_HEAD_MAX;
        for (int64_t r = 0; r < nrows && r < TABLE_SAMPLE_ROWS; r++) {
            o->cell.len = 0;
            render_cell(&o->cell, &o->cols[c].v, r, STYLE_TABLE);
            size_t cw = tool_text_width(o->cell.p, o->cell.len);
            cw = cw < max ? cw : max;
            if (cw > w) w = cw;
        }
        o->width[c] = w > 0 ? w : 1;
    }
}

static void table_batch(cat_out *o, int64_t nrows)
{
    for (int64_t r = 0; r < nrows; r++) {
        for (int c = 0; c < o->ncols; c++) {
            if (c) rb_puts(&o->line, "  ");
            o->cell.len = 0;
            render_cell(&o->cell, &o->cols[c].v, r, STYLE_TABLE);
            table_cell(&o->line, o->cell.p, o->cell.len, o->width[c], o->cols[c].right_align,
                       c == o->ncols - 1);
        }
        flush_line(o);
    }
}

/* ---- dispatch ---- */

static void start(cat_out *o, int64_t nrows)
{
    if (o->started) return;
    o->started = 1;
    if (o->format == FORMAT_CSV) csv_header(o);
    if (o->format == FORMAT_TABLE) {
        table_size(o, nrows);
        table_header(o);
    }
}

void cat_write_batch(cat_out *o, int64_t nrows)
{
    start(o, nrows);
    if (o->format == FORMAT_JSONL)
        jsonl_batch(o, nrows);
    else if (o->format == FORMAT_CSV)
        csv_batch(o, nrows);
    else
        table_batch(o, nrows);
    o->nrows_out += nrows;
    fflush(stdout); /* each batch shows as soon as it is read */
}

void cat_finish(cat_out *o, int64_t total)
{
    start(o, 0);
    if (o->format == FORMAT_TABLE) {
        if (o->nrows_out == total)
            printf("%lld row%s\n", (long long)total, total == 1 ? "" : "s");
        else
            printf("showing %lld of %lld rows\n", (long long)o->nrows_out, (long long)total);
    }
    fflush(stdout);
    free(o->width);
    rb_free(&o->line);
    rb_free(&o->cell);
}
