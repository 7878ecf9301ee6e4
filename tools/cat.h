/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat.h - the parts of `pqt cat` shared by its files: the output sink (cat_sink.c), the csv
 * and jsonl writers (cat_format.c), the table layout (cat_table.c), the display width of
 * text (text_width.c) and the column state that cmd_cat.c fills batch by batch.
 *
 * Data flow: cat_run.c reads every printed column over one batch of rows (cat_read.c:
 * about 16 MiB of values, never past a row group), points each column's colview at the
 * arrays, hands the batch to the writer of the format and frees it. csv and jsonl read the
 * next batch on a second thread while writing this one (cat_pipe.c). Nothing holds more
 * than two batches, so memory does not grow with the file.
 */
#ifndef PQT_TOOLS_CAT_H
#define PQT_TOOLS_CAT_H

#include <string.h>

#include "tools.h"

/* ---- output sink (cat_sink.c) ---- */

/* Output is built in one buffer and handed to write(2) in blocks of about SINK_BLOCK bytes;
 * every write is checked. A reader that closes the pipe ends the output quietly (status
 * SINK_CLOSED); any other failure is reported once on stderr (SINK_ERROR). */
#define SINK_BLOCK ((size_t)1 << 20)
enum { SINK_OK, SINK_CLOSED, SINK_ERROR };

typedef struct cat_sink {
    char *p;
    size_t len, cap;
    int fd;
    int status;
} cat_sink;

void sink_init(cat_sink *s, int fd);
void sink_free(cat_sink *s);
/* Write out everything buffered. 0, or -1 once the output has failed (s->status says how). */
int sink_flush(cat_sink *s);
/* Make room for n more bytes (the tool exits when memory runs out, like rbuf). */
void sink_grow(cat_sink *s, size_t n);

static inline char *sink_room(cat_sink *s, size_t n)
{
    if (s->cap - s->len < n) sink_grow(s, n);
    return s->p + s->len;
}
static inline void sink_put(cat_sink *s, const char *x, size_t n)
{
    if (!n) return; /* x, and the buffer, may be NULL then */
    memcpy(sink_room(s, n), x, n);
    s->len += n;
}
static inline void sink_putc(cat_sink *s, char c)
{
    *sink_room(s, 1) = c;
    s->len++;
}
static inline void sink_puts(cat_sink *s, const char *x)
{
    sink_put(s, x, strlen(x));
}
static inline void sink_pad(cat_sink *s, size_t n)
{
    if (!n) return;
    memset(sink_room(s, n), ' ', n);
    s->len += n;
}
/* After each row: hand a full block to the kernel. 0, or -1 when the output failed. */
static inline int sink_row_done(cat_sink *s)
{
    return s->len >= SINK_BLOCK ? sink_flush(s) : s->status == SINK_OK ? 0 : -1;
}

/* ---- display width (text_width.c) ---- */

/* Terminal cells of one code point: 2 for East Asian wide and emoji, 0 for combining marks
 * and zero-width characters, 1 otherwise. Independent of the locale. */
int cat_char_width(uint32_t cp);
/* Cells of UTF-8 text s[0..n). */
size_t cat_text_width(const char *s, size_t n);
/* Bytes of the longest prefix of s[0..n) that fits in `cells` cells (never splitting a
 * character; zero-width marks stay with their base); its cells into *cells_ret (may be
 * NULL). */
size_t cat_text_prefix(const char *s, size_t n, size_t cells, size_t *cells_ret);

/* ---- columns and the writers ---- */

enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSONL, FORMAT_TSV, FORMAT_JSONARR };
/* FORMAT_* of a --format name, any case ("CSV"); -1 for none (cat_format.c). */
int cat_format_parse(const char *name);

/* How csv and jsonl write a column: a direct loop for plain kinds, render_cell for the rest
 * (dates, times, decimals, unsigned, strings in arrays, ...). */
enum { W_GENERIC, W_I32, W_I64, W_F32, W_F64, W_BOOL, W_STR, W_ARRAY };

/* How the table may shorten a column's text. */
enum { ELIDE_NEVER, ELIDE_TEXT, ELIDE_ELEMENTS };

typedef struct cat_col {
    int col;       /* file column (-1 for the row index) */
    int row_index; /* the virtual parquet_row_index: each row's 1-based file row, int64 */
    char *path; /* a copy: the file handle may be reopened */
    const char *kind_name;
    char *label; /* the file's type (tool_type_label), once planned */
    int kind, unit, utc;
    int is_list;     /* a Parquet LIST: kind known from the first batch read */
    int planned;     /* writer and layout chosen (on the first batch) */
    int writer;      /* W_* */
    int elem_writer; /* W_ARRAY: W_I32..W_BOOL of the elements */
    int right_align; /* table: numbers line up on the right */
    int dec_precision, dec_scale; /* DECIMAL up to precision 38: read unscaled (else 0) */
    int is_int96;
    int elide;       /* table: ELIDE_* */
    int hidden;      /* table: does not fit the terminal, not read */
    char *key;       /* jsonl: what comes before the value: ',', closing and opening
                      * braces of structs, "name": (cat_json_keys) */
    size_t key_len;
    colview v;       /* the current batch */
    char *phys_unit;      /* --maml: the column's unit (NULL or "": none), table header */
    int leaf;             /* a chunk of this column, for size estimates (-1: none) */
    double row_nbytes;    /* decoded bytes a row, estimated then measured */
    int variant_meta;     /* a VARIANT's value leaf: 1 + the index of its metadata column */
} cat_col;

typedef struct cat_table cat_table; /* cat_table.c */
struct cat_out;
/* Point each VARIANT value column's view at its metadata column's (after the views change). */
void cat_link_variants(struct cat_out *o);

typedef struct cat_out {
    int format;
    cat_col *cols;
    int ncols;
    cat_sink sink;
    rbuf cell;         /* scratch for one rendered value */
    int started;       /* header written */
    int64_t nrows_out; /* rows written so far */
    cat_table *table;
    int *jorder; /* jsonl: the columns in the order their keys are written */
    char *jend;  /* jsonl: what ends a row ("}" and the structs' braces) */
    size_t jend_len;
} cat_out;

/* ---- exact values (cat_exact.c) ---- */
typedef struct cat_open_args {
    int no_crc, binary_as_string;
} cat_open_args;
/* Open path with the cat options and PQT_OPT_INT96_UNIT = int96_unit. */
pqt_status cat_open(const char *path, const cat_open_args *a, int int96_unit, pqt_file **ret);
/* Fill the decimal and INT96 facts of a column being printed (c->col set). */
void cat_col_exact(cat_col *c, const pqt_file *f);
/* Read rows lo..hi of c: unscaled integers for decimals, else pqt_file_read. */
pqt_status cat_read(pqt_file *f, const cat_col *c, int64_t lo, int64_t hi, pqt_array **ret);
/* c->v for array a (a decimal column's view prints its unscaled values with the scale). */
void cat_view(cat_col *c, const pqt_array *a);
/* Before printing rows lo..hi: reopen *f with the finest INT96 unit that holds every INT96
 * value printed (ns, us, ms), updating the columns' units. EXIT_OK or EXIT_FAIL. */
int cat_settle_int96(pqt_file **f, const char *path, const cat_open_args *args, cat_out *o,
                     int64_t lo, int64_t hi);
/* "pqt: FILE: warning: column 'x' not shown: why" on stderr. */
void cat_warn_unreadable(const pqt_file *f, const char *path, int col);

/* csv / jsonl (cat_format.c): choose how column c is written (once, when its kind is
 * known); write rows 0..nrows-1 of the current batch, the csv header first (nrows 0 writes
 * just the header, if not yet written). 0, or -1 when the output failed. */
void cat_plan_column(cat_out *o, const pqt_file *f, cat_col *c);
int cat_write_rows(cat_out *o, int64_t nrows);
/* After the last row: the csv/tsv header if no row came, json's closing "]"; flushed. 0, or
 * -1 when the output failed. */
int cat_write_end(cat_out *o);
/* jsonl keys. f non-NULL: the leaves of a struct nest as objects ({"s":{"a":1,"b":2}}), the
 * members of one struct written together at the place of the first one printed; f NULL
 * (--dotted-keys, a MAML's names): flat keys, the column names as they are ("s.a"). Called
 * once the columns are picked; cat_write_rows makes flat keys if it was not. */
void cat_json_keys(cat_out *o, const pqt_file *f);
/* The table header's type names before any row is read (cat_plan_column settles them). */
void cat_label_columns(cat_out *o, const pqt_file *f);
/* The one place a floating-point value becomes text in csv and jsonl; json: NaN and the
 * infinities as JSON strings. Writes at most CAT_FLOAT_MAX bytes at p, returns the end. */
#define CAT_FLOAT_MAX 48
char *cat_put_float(char *p, double d, int is_f32, int json);

/* reading (cat_read.c): the file handle, the batches and their sizes. Rows are output
 * rows: the file's own, or with --where the survivors 1..nmap, output row i being file row
 * map[i - 1] (cat_where.c). */
typedef struct cat_reader {
    pqt_file *f;
    const char *path;
    pqt_table *t;          /* --where: the filtered table (its plan, its counters) */
    const int64_t *map;    /* --where: survivors' file rows, increasing (NULL: none) */
    int64_t nmap;
    int measured;          /* a batch has been read: the sizes are measured */
    int64_t next, end;     /* the output rows still to read */
    int rg;                /* row group of the last batch, and its last row */
    int64_t rg_last;
    char err[1024];        /* why the last read failed (cat_reader_report) */
} cat_reader;

/* A column's values for the survivors of a batch, in buffers of the tool (cat_where.c). */
typedef struct cat_gathered {
    colview v; /* points into the buffers below */
    void *data;
    uint8_t *valid, *row_valid;
    int64_t *str_off, *list_off;
    char *bytes;
    int used;
} cat_gathered;

/* One batch: file rows lo..hi (1-based, inclusive) of row group rg (0-based), printing
 * nrows output rows from output row first (unfiltered: the same rows); arr[c] the values
 * of printed column c as read (NULL for a hidden one, or once gathered into g[c]). */
typedef struct cat_batch {
    int rg;
    int64_t lo, hi;
    int64_t first, nrows;
    pqt_array **arr;
    cat_gathered *g;
} cat_batch;

/* Open (EXIT_OK, or EXIT_FAIL after saying why) and close. */
int cat_reader_open(cat_reader *rd, const char *path, const cat_open_args *args);
void cat_reader_close(cat_reader *rd);
/* Once the columns are picked: the chunk of each column and the first size estimates. */
void cat_reader_plan(cat_reader *rd, cat_out *o);
/* Batches over rows lo..hi: cat_next_batch fills b's range (0 when none is left). */
void cat_reader_start(cat_reader *rd, int64_t lo, int64_t hi);
int cat_next_batch(cat_reader *rd, const cat_out *o, cat_batch *b);
/* Read b's rows of every column that is not hidden into b->arr (the first read of a column
 * settles its writer). EXIT_OK, or EXIT_FAIL with nothing held and the reason kept for
 * cat_reader_report (one line "pqt: FILE: message" on stderr). */
int cat_batch_read(cat_reader *rd, cat_out *o, cat_batch *b);
void cat_reader_report(const cat_reader *rd);
/* Point the columns' colviews at b's arrays; free b's arrays. */
void cat_batch_view(cat_out *o, const cat_batch *b);
void cat_batch_free(cat_batch *b, int ncols);
/* A batch with room for o's columns (the tool exits when memory runs out); done frees
 * its values and that room. */
cat_batch cat_batch_new(const cat_out *o);
void cat_batch_done(cat_batch *b, int ncols);

/* --where (cat_where.c): open the table with the rules over file rows lo..hi (of nrows)
 * and take its row index as rd's map, unless no row or every row of lo..hi passes (map
 * NULL, nmap the survivors). limit >= 0: only the first limit survivors are wanted, and the
 * filter stops once it has them (PQT_OPT_LIMIT). EXIT_OK, or EXIT_FAIL after saying why (a
 * column the file lacks, a value of the wrong type, a read error). */
int cat_where_open(cat_reader *rd, const char *path, const cat_open_args *a, const tool_where *w,
                   int64_t lo, int64_t hi, int64_t nrows, int64_t limit);
/* g = the rows rows[0..n) - base of s (increasing), in g's own buffers. */
void cat_gather(cat_gathered *g, const colview *s, const int64_t *rows, int64_t n, int64_t base);
void cat_gathered_free(cat_gathered *g);
/* g = the file rows of output rows first..first+n-1 (1-based): map[first-1..] or the rows
 * themselves (cat_where.c): the values of the row index column. */
void cat_row_index(cat_gathered *g, const int64_t *map, int64_t first, int64_t n);

/* csv and jsonl with reading and writing on two threads (cat_pipe.c): the next batch is
 * read while this one is written. EXIT_OK, EXIT_FAIL (a read failed, reported) or -1 (the
 * output failed). */
int cat_stream_piped(cat_reader *rd, cat_out *o);

/* --sort (cat_sort.c): the rows of the table rd->t (opened sorted and limited; rd->f is
 * the file for the columns' facts), every printed column read through it, written in
 * batches gathered from its columns. all: no terminal preview. Exit status. */
int cat_print_sorted(cat_reader *rd, cat_out *o, int all);

/* The whole output (cat_run.c): rows lo..hi, at most `limit` of them (-1: no limit); all:
 * no terminal preview. Exit status. cat_out_free releases what o holds. */
int cat_print(cat_reader *rd, cat_out *o, int64_t lo, int64_t hi, int64_t limit, int all);
void cat_out_free(cat_out *o);

/* table (cat_table.c). Terminal: width in cells, 0 = no limit. */
typedef struct cat_term {
    int is_tty;
    size_t width;
} cat_term;
void cat_term_detect(cat_term *t);
int cat_table_new(cat_out *o, const cat_term *t);
/* Render rows 0..nrows-1 of the current batch into the table's cells (no output yet). */
void cat_table_collect(cat_out *o, int64_t nrows);
/* Lay out the collected rows and forget them. The first call fixes which columns fit and
 * writes the header; later calls widen a column whose values need more room (numbers are
 * never cut). gap_after >= 0 puts a row of "…" after that many rows (the preview). */
int cat_table_emit(cat_out *o, int64_t gap_after);
/* Lines after the table: the row count (given by the caller) and the hidden columns. */
int cat_table_finish(cat_out *o, const char *rows_line);
void cat_table_free(cat_out *o);

#endif
