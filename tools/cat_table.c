/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_table.c - the table format of `pqt cat`: aligned columns for people.
 *
 * Rules, in order of priority:
 *  - A number (or a date, time, boolean) is never cut. Column widths come from the values
 *    printed: the header takes the widths of the first batch, and a later batch with a
 *    wider value widens that column from then on (rows above it stay as printed; the
 *    output streams, it never holds more than a batch).
 *  - Strings are cut to STRING_CAP cells with a visible "…"; arrays of numbers drop whole
 *    elements ("[1,2,…]"), never digits. csv and jsonl never cut anything.
 *  - With a terminal width (a terminal, or COLUMNS), the table fits it: string columns
 *    shrink first (down to SHRINK_MIN cells), then the columns that still do not fit are
 *    left out and named in a line after the table.
 * Widths are display cells (text_width.c): CJK and emoji count two.
 */
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cat.h"

#define STRING_CAP 32 /* cells of a string before "…" */
#define ARRAY_CAP 64  /* cells of an array of numbers before ",…]" */
#define SHRINK_MIN 16 /* a string column narrowed to fit the terminal keeps this much */
#define GAP 2         /* spaces between columns */

typedef struct tcol {
    rbuf text;     /* the collected cells, one after another */
    size_t *end;   /* end of cell i in text */
    size_t *cells; /* display width of cell i */
    size_t width;  /* current column width */
    size_t cap;    /* elidable columns: most cells a value may take */
} tcol;

struct cat_table {
    cat_term term;
    tcol *tc;
    int64_t nrows, rows_cap;
    int laid_out;
    int nhidden;
};

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    return q;
}

void cat_term_detect(cat_term *t)
{
    const char *force = getenv("PQT_ISATTY");
    int real = isatty(STDOUT_FILENO);
    t->is_tty = force && (force[0] == '0' || force[0] == '1') ? force[0] == '1' : real;
    t->width = 0;
    const char *cols = getenv("COLUMNS");
    char *end;
    long w = cols && cols[0] ? strtol(cols, &end, 10) : 0;
    if (w > 0 && w < 100000 && *end == '\0') {
        t->width = (size_t)w;
        return;
    }
    if (!t->is_tty) return;
    struct winsize ws;
    if (real && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        t->width = ws.ws_col;
    else
        t->width = 80;
}

int cat_table_new(cat_out *o, const cat_term *t)
{
    cat_table *tb = xrealloc(NULL, sizeof *tb);
    memset(tb, 0, sizeof *tb);
    tb->term = *t;
    tb->tc = xrealloc(NULL, sizeof *tb->tc * (size_t)(o->ncols > 0 ? o->ncols : 1));
    memset(tb->tc, 0, sizeof *tb->tc * (size_t)(o->ncols > 0 ? o->ncols : 1));
    o->table = tb;
    return 0;
}

void cat_table_free(cat_out *o)
{
    cat_table *tb = o->table;
    if (!tb) return;
    for (int c = 0; c < o->ncols; c++) {
        rb_free(&tb->tc[c].text);
        free(tb->tc[c].end);
        free(tb->tc[c].cells);
    }
    free(tb->tc);
    free(tb);
    o->table = NULL;
}

void cat_table_collect(cat_out *o, int64_t nrows)
{
    cat_table *tb = o->table;
    if (tb->nrows + nrows > tb->rows_cap) {
        int64_t cap = tb->rows_cap ? tb->rows_cap : 64;
        while (cap < tb->nrows + nrows)
            cap *= 2;
        for (int c = 0; c < o->ncols; c++) {
            tb->tc[c].end = xrealloc(tb->tc[c].end, (size_t)cap * sizeof(size_t));
            tb->tc[c].cells = xrealloc(tb->tc[c].cells, (size_t)cap * sizeof(size_t));
        }
        tb->rows_cap = cap;
    }
    for (int c = 0; c < o->ncols; c++) {
        cat_col *col = &o->cols[c];
        if (col->hidden) continue;
        tcol *t = &tb->tc[c];
        if (!t->cap) { /* the column's first rows: its kind is known now */
            int k = col->kind, elem = PQT_KIND_ELEMENT(k), array = (k & (PQT_VECTOR | PQT_LIST)) != 0;
            col->elide = PQT_KIND_IS_BYTES(elem) ? ELIDE_TEXT : array ? ELIDE_ELEMENTS : ELIDE_NEVER;
            col->right_align = !array && (elem == PQT_INT32 || elem == PQT_INT64 ||
                                          elem == PQT_UINT64 || elem == PQT_FLOAT32 ||
                                          elem == PQT_FLOAT64 || col->dec_precision);
            t->cap = col->elide == ELIDE_TEXT ? STRING_CAP : ARRAY_CAP;
        }
        for (int64_t r = 0; r < nrows; r++) {
            size_t start = t->text.len;
            /* A null is NULL, and a string that reads "NULL" is quoted: the two never look
             * alike (the string "null" prints as it is). */
            if (!render_cell(&t->text, &col->v, r, STYLE_TABLE)) {
                memcpy(t->text.p + start, "NULL", 4);
            } else if (t->text.len - start == 4 && memcmp(t->text.p + start, "NULL", 4) == 0 &&
                       PQT_KIND_ELEMENT(col->kind) == PQT_STRING &&
                       !(col->kind & (PQT_VECTOR | PQT_LIST))) {
                t->text.len = start;
                rb_puts(&t->text, "\"NULL\"");
            }
            t->end[tb->nrows + r] = t->text.len;
            t->cells[tb->nrows + r] = cat_text_width(t->text.p + start, t->text.len - start);
        }
    }
    tb->nrows += nrows;
}

/* ---- one cell ---- */

/* Bytes of the elided form of an array of numbers s[0..n) in at most `width` cells: a prefix
 * ending before a comma, to which ",…]" is added. 0 when not even one element fits. */
static size_t array_cut(const char *s, size_t n, size_t width)
{
    size_t best = 0;
    for (size_t i = 1; i < n && i + 3 <= width; i++)
        if (s[i] == ',') best = i;
    return best;
}

/* Append s (cells wide) in a field of `width` cells: elided when too long, padded on the
 * left (right-aligned) or the right (unless it is the last field of the line). */
static void put_cell(cat_sink *sk, const char *s, size_t n, size_t cells, size_t width, int elide,
                     int right, int last)
{
    const char *tail = "";
    if (cells > width) { /* only elidable text and header names get here */
        size_t k = elide == ELIDE_ELEMENTS ? array_cut(s, n, width) : 0;
        if (k) {
            n = k;
            cells = k + 3;
            tail = ",…]";
        } else if (elide == ELIDE_ELEMENTS && width >= 3) {
            n = 1;
            cells = 3;
            tail = "…]";
        } else {
            size_t w = 0;
            n = width ? cat_text_prefix(s, n, width - 1, &w) : 0;
            cells = w + (width ? 1 : 0);
            tail = width ? "…" : "";
        }
    }
    size_t pad = width > cells ? width - cells : 0;
    if (right) sink_pad(sk, pad);
    sink_put(sk, s, n);
    sink_puts(sk, tail);
    if (!right && !last) sink_pad(sk, pad);
}

/* ---- layout ---- */

static int last_visible(const cat_out *o)
{
    int last = -1;
    for (int c = 0; c < o->ncols; c++)
        if (!o->cols[c].hidden) last = c;
    return last;
}

/* Cells the collected values of column c need (elidable ones up to their cap). */
static size_t values_width(const cat_table *tb, const cat_out *o, int c)
{
    const tcol *t = &tb->tc[c];
    size_t need = 0;
    for (int64_t r = 0; r < tb->nrows; r++)
        if (t->cells[r] > need) need = t->cells[r];
    if (o->cols[c].elide != ELIDE_NEVER && need > t->cap) need = t->cap;
    return need;
}

/* Fit the terminal: leave out the columns on the right that cannot fit even with strings
 * and arrays narrowed to SHRINK_MIN cells, then narrow those (widest first) as far as
 * needed. Numbers, dates and header names keep their width; a single column wider than
 * the terminal is printed as it is (the terminal wraps it). */
static void fit(cat_table *tb, cat_out *o)
{
    size_t W = tb->term.width, floor_total = 0, total = 0;
    int nvis = o->ncols;
    for (int c = 0; c < o->ncols; c++) {
        size_t w = tb->tc[c].width;
        total += w;
        floor_total += o->cols[c].elide == ELIDE_NEVER || w < SHRINK_MIN ? w : SHRINK_MIN;
    }
    total += nvis > 1 ? GAP * (size_t)(nvis - 1) : 0;
    floor_total += nvis > 1 ? GAP * (size_t)(nvis - 1) : 0;
    for (int c = o->ncols - 1; c > 0 && floor_total > W; c--) {
        size_t w = tb->tc[c].width;
        o->cols[c].hidden = 1;
        tb->nhidden++;
        total -= w + GAP;
        floor_total -= (o->cols[c].elide == ELIDE_NEVER || w < SHRINK_MIN ? w : SHRINK_MIN) + GAP;
    }
    while (total > W) {
        int best = -1;
        for (int c = 0; c < o->ncols; c++) {
            size_t w = tb->tc[c].width;
            if (!o->cols[c].hidden && o->cols[c].elide != ELIDE_NEVER && w > SHRINK_MIN &&
                (best < 0 || w > tb->tc[best].width))
                best = c;
        }
        if (best < 0) break;
        tb->tc[best].width--;
        total--;
    }
    for (int c = 0; c < o->ncols; c++)
        if (tb->tc[c].width < tb->tc[c].cap) tb->tc[c].cap = tb->tc[c].width;
}

/* The second header line's text of a column: its kind, and with --maml its unit. */
static const char *kind_line(const cat_col *c, char *buf, size_t cap)
{
    const char *name = c->label ? c->label : c->kind_name;
    if (!c->phys_unit || !c->phys_unit[0]) return name;
    snprintf(buf, cap, "%s [%s]", name, c->phys_unit);
    return buf;
}

static int header(cat_table *tb, cat_out *o)
{
    int last = last_visible(o);
    cat_sink *sk = &o->sink;
    for (int line = 0; line < 3; line++) {
        for (int c = 0; c < o->ncols; c++) {
            if (o->cols[c].hidden) continue;
            size_t w = tb->tc[c].width;
            if (line == 2) {
                memset(sink_room(sk, w), '-', w);
                sk->len += w;
            } else {
                char kl[256];
                const char *s =
                    line == 0 ? o->cols[c].path : kind_line(&o->cols[c], kl, sizeof kl);
                size_t n = strlen(s);
                put_cell(sk, s, n, cat_text_width(s, n), w, ELIDE_TEXT, o->cols[c].right_align,
                         c == last);
            }
            if (c != last) sink_pad(sk, GAP);
        }
        sink_putc(sk, '\n');
    }
    return sink_row_done(sk);
}

int cat_table_emit(cat_out *o, int64_t gap_after)
{
    cat_table *tb = o->table;
    size_t *need = xrealloc(NULL, sizeof *need * (size_t)(o->ncols > 0 ? o->ncols : 1));
    for (int c = 0; c < o->ncols; c++)
        need[c] = o->cols[c].hidden ? 0 : values_width(tb, o, c);
    int rc = 0;
    if (!tb->laid_out) {
        tb->laid_out = 1;
        for (int c = 0; c < o->ncols; c++) {
            char kl[256];
            const char *p = o->cols[c].path, *k = kind_line(&o->cols[c], kl, sizeof kl);
            size_t w = need[c], pw = cat_text_width(p, strlen(p));
            size_t kw = cat_text_width(k, strlen(k));
            w = w > pw ? w : pw;
            w = w > kw ? w : kw;
            tb->tc[c].width = w > 0 ? w : 1;
        }
        if (tb->term.width) fit(tb, o);
        rc = header(tb, o);
    } else {
        for (int c = 0; c < o->ncols; c++)
            if (need[c] > tb->tc[c].width) tb->tc[c].width = need[c];
    }
    free(need);
    int last = last_visible(o);
    cat_sink *sk = &o->sink;
    for (int64_t r = 0; r < tb->nrows && rc == 0; r++) {
        for (int c = 0; c < o->ncols; c++) {
            if (o->cols[c].hidden) continue;
            const tcol *t = &tb->tc[c];
            size_t start = r ? t->end[r - 1] : 0;
            put_cell(sk, t->text.p + start, t->end[r] - start, t->cells[r], t->width,
                     o->cols[c].elide, o->cols[c].right_align, c == last);
            if (c != last) sink_pad(sk, GAP);
        }
        sink_putc(sk, '\n');
        if (r + 1 == gap_after) {
            for (int c = 0; c < o->ncols; c++) {
                if (o->cols[c].hidden) continue;
                put_cell(sk, "…", 3, 1, tb->tc[c].width, ELIDE_NEVER, o->cols[c].right_align,
                         c == last);
                if (c != last) sink_pad(sk, GAP);
            }
            sink_putc(sk, '\n');
        }
        rc = sink_row_done(sk);
    }
    for (int c = 0; c < o->ncols; c++)
        tb->tc[c].text.len = 0;
    tb->nrows = 0;
    return rc;
}

int cat_table_finish(cat_out *o, const char *rows_line)
{
    cat_table *tb = o->table;
    if (!tb->laid_out && cat_table_emit(o, -1) != 0) return -1;
    cat_sink *sk = &o->sink;
    sink_puts(sk, rows_line);
    sink_putc(sk, '\n');
    if (tb->nhidden) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%d column%s not shown (wider than %zu cells):", tb->nhidden,
                 tb->nhidden == 1 ? "" : "s", tb->term.width);
        sink_puts(sk, tmp);
        const char *sep = " ";
        for (int c = 0; c < o->ncols; c++) {
            if (!o->cols[c].hidden) continue;
            sink_puts(sk, sep);
            sink_puts(sk, o->cols[c].path);
            sep = ", ";
        }
        sink_puts(sk, "; pick columns with --columns\n");
    }
    return sink_flush(sk);
}
