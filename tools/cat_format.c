/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_format.c - the csv and jsonl output of `pqt cat`, one batch of rows at a time.
 *
 * jsonl is the stable machine format (one JSON object per row, keys in column order; see
 * tests/golden); csv is RFC 4180 with a header line, nulls as empty fields, empty strings
 * as "" and arrays as JSON text. Neither ever shortens a value.
 *
 * Speed: rows go straight into the sink's buffer. Each column gets a writer once
 * (cat_plan_writers); plain integers, floats, booleans and strings, and arrays of the plain
 * numbers, are written by a switch in the row loop (integers without printf, floats through
 * the one function cat_put_float); every other kind -- dates, times, decimals, unsigned
 * integers, strings inside arrays -- goes through render_cell, which owns how a value looks.
 * PQT_CAT_GENERIC=1 sends every value through render_cell: the tests compare both ways.
 */
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "cat.h"

/* ---- numbers ---- */

static const char digit_pairs[201] = "00010203040506070809"
                                     "10111213141516171819"
                                     "20212223242526272829"
                                     "30313233343536373839"
                                     "40414243444546474849"
                                     "50515253545556575859"
                                     "60616263646566676869"
                                     "70717273747576777879"
                                     "80818283848586878889"
                                     "90919293949596979899";

static inline unsigned ndigits(uint64_t v)
{
    unsigned n = 1;
    for (;;) {
        if (v < 10) return n;
        if (v < 100) return n + 1;
        if (v < 1000) return n + 2;
        if (v < 10000) return n + 3;
        v /= 10000;
        n += 4;
    }
}

/* Decimal digits of v at p (at most 20 bytes); returns the end. */
static inline char *put_u64(char *p, uint64_t v)
{
    unsigned n = ndigits(v);
    char *e = p + n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        e[0] = digit_pairs[2 * r];
        e[1] = digit_pairs[2 * r + 1];
    }
    if (v >= 10) {
        p[0] = digit_pairs[2 * v];
        p[1] = digit_pairs[2 * v + 1];
    } else {
        p[0] = (char)('0' + v);
    }
    return p + n;
}

static inline char *put_i64(char *p, int64_t v)
{
    if (v >= 0) return put_u64(p, (uint64_t)v);
    *p++ = '-';
    return put_u64(p, 0 - (uint64_t)v);
}

char *cat_put_float(char *p, double d, int is_f32, int json)
{
    /* The library's shortest round-trip text of the value's own type, as render_cell. */
    size_t n = is_f32 ? pqt_format_float32((float)d, p, CAT_FLOAT_MAX - 2)
                      : pqt_format_float64(d, p, CAT_FLOAT_MAX - 2);
    if (json && (p[0] == 'N' || p[0] == 'I' || (p[0] == '-' && p[1] == 'I'))) {
        memmove(p + 1, p, n); /* NaN and the infinities are not JSON numbers: quoted */
        p[0] = '"';
        p[n + 1] = '"';
        return p + n + 2;
    }
    return p + n;
}

/* ---- choosing a writer ---- */

/* Whether the logical type leaves the value's text to its physical kind alone. Anything
 * else (decimals, unsigned, JSON, UUID, FLOAT16, ...) goes through render_cell. */
static int plain_logical(const char *lg, int elem)
{
    if (!lg || !lg[0]) return 1;
    static const char *const ints[] = {"INT_8",           "INT_16",           "INT_32",
                                       "INT_64",          "INTEGER(8,true)",  "INTEGER(16,true)",
                                       "INTEGER(32,true)", "INTEGER(64,true)", NULL};
    if (elem == PQT_INT32 || elem == PQT_INT64) {
        for (int i = 0; ints[i]; i++)
            if (strcmp(lg, ints[i]) == 0) return 1;
        return 0;
    }
    if (elem == PQT_STRING) return strcmp(lg, "STRING") == 0 || strcmp(lg, "UTF8") == 0;
    return 0;
}

static int scalar_writer(int elem)
{
    switch (elem) {
    case PQT_INT32: return W_I32;
    case PQT_INT64: return W_I64;
    case PQT_FLOAT32: return W_F32;
    case PQT_FLOAT64: return W_F64;
    case PQT_BOOL: return W_BOOL;
    case PQT_STRING: return W_STR;
    default: return W_GENERIC;
    }
}

void cat_plan_column(cat_out *o, const pqt_file *f, cat_col *c)
{
    const char *env = getenv("PQT_CAT_GENERIC");
    int elem = PQT_KIND_ELEMENT(c->kind);
    int w = plain_logical(pqt_file_column_logical(f, c->col), elem) ? scalar_writer(elem)
                                                                     : W_GENERIC;
    c->writer = w;
    if (c->kind & (PQT_VECTOR | PQT_LIST)) {
        /* Strings inside arrays need JSON escaping and csv quote doubling: render_cell. */
        c->writer = w == W_GENERIC || w == W_STR ? W_GENERIC : W_ARRAY;
        c->elem_writer = w;
    }
    if (env && strcmp(env, "1") == 0) c->writer = W_GENERIC;
    (void)o;
    /* The header names the file's type; a decimal read inexactly (above precision 38) says
     * it is printed as float64. */
    if (c->col < 0 && c->label) return; /* a virtual column labels itself */
    rbuf lb = {0};
    const char *lg = pqt_file_column_logical(f, c->col);
    int inexact = !c->dec_precision && lg && strncmp(lg, "DECIMAL", 7) == 0;
    tool_type_label(f, c->col, c->kind, inexact, &lb);
    free(c->label);
    c->label = lb.p;
}

static void *need(void *p);

void cat_label_columns(cat_out *o, const pqt_file *f)
{
    /* the printed columns of each file column, chained in order: nodes times printed
     * columns was 2.5e9 steps for a file of 50,000 columns (issue 28) */
    int nfc = pqt_file_ncols(f);
    int *head = need(malloc((size_t)(nfc > 0 ? nfc : 1) * sizeof *head));
    int *next = need(malloc((size_t)(o->ncols > 0 ? o->ncols : 1) * sizeof *next));
    for (int k = 0; k < nfc; k++)
        head[k] = -1;
    for (int c = o->ncols - 1; c >= 0; c--) {
        int col = o->cols[c].col;
        if (col < 0 || col >= nfc) continue;
        next[c] = head[col];
        head[col] = c;
    }
    int nnodes = pqt_file_nnodes(f);
    for (int i = 0; i < nnodes; i++) {
        int col = pqt_file_node_column(f, i);
        if (col < 0 || col >= nfc) continue;
        /* a LIST field, or a bare repeated primitive: a list until its rows are seen */
        int list = pqt_file_node_nchildren(f, i) > 0 ||
                   strcmp(pqt_file_node_repetition(f, i), "repeated") == 0;
        for (int c = head[col]; c >= 0; c = next[c]) {
            if (o->cols[c].label) continue;
            rbuf lb = {0};
            tool_type_label(f, col, list ? PQT_LIST : 0, 0, &lb);
            o->cols[c].label = lb.p;
        }
    }
    free(head);
    free(next);
}

/* ---- values ---- */

static inline int is_valid(const uint8_t *bits, int64_t i)
{
    return !bits || (bits[i >> 3] >> (i & 7)) & 1;
}

/* One element of a plain kind (ints, floats, bools) at p; returns the end. */
static inline char *put_elem(char *p, const colview *v, int w, int64_t i, int json)
{
    switch (w) {
    case W_I32: return put_i64(p, ((const int32_t *)v->data)[i]);
    case W_I64: return put_i64(p, ((const int64_t *)v->data)[i]);
    case W_F32: return cat_put_float(p, (double)((const float *)v->data)[i], 1, json);
    case W_F64: return cat_put_float(p, ((const double *)v->data)[i], 0, json);
    default: /* W_BOOL */
        if (((const uint8_t *)v->data)[i]) {
            memcpy(p, "true", 4);
            return p + 4;
        }
        memcpy(p, "false", 5);
        return p + 5;
    }
}

/* An array row as JSON ([1,null,3]); the caller checked the row is not null. */
static void put_array(cat_sink *s, const cat_col *c, int64_t row)
{
    const colview *v = &c->v;
    int64_t lo, hi;
    colview_row_elems(v, row, &lo, &hi);
    sink_putc(s, '[');
    for (int64_t i = lo; i < hi; i++) {
        char *p = sink_room(s, CAT_FLOAT_MAX + 8);
        if (i > lo) *p++ = ',';
        if (is_valid(v->valid, i)) {
            p = put_elem(p, v, c->elem_writer, i, 1);
        } else {
            memcpy(p, "null", 4);
            p += 4;
        }
        s->len = (size_t)(p - s->p);
    }
    sink_putc(s, ']');
}

/* RFC 4180: a field holding a comma, quote or line break is quoted, quotes doubled. An
 * empty string is quoted too, so that it differs from a null (an empty field). */
static void csv_field(cat_sink *s, const char *x, size_t n, int force_quote)
{
    int quote = force_quote || n == 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = x[i] == ',' || x[i] == '"' || x[i] == '\n' || x[i] == '\r';
    if (!quote) {
        sink_put(s, x, n);
        return;
    }
    char *p = sink_room(s, 2 * n + 2);
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (x[i] == '"') *p++ = '"';
        *p++ = x[i];
    }
    *p++ = '"';
    s->len = (size_t)(p - s->p);
}

/* tsv (IANA text/tab-separated-values): no quoting; a tab, line break or backslash in a
 * value is written as \t, \n, \r, \\ (as DuckDB and PostgreSQL read them). */
static void tsv_field(cat_sink *s, const char *x, size_t n)
{
    size_t i = 0;
    while (i < n && x[i] != '\t' && x[i] != '\n' && x[i] != '\r' && x[i] != '\\')
        i++;
    if (i == n) {
        sink_put(s, x, n);
        return;
    }
    char *p = sink_room(s, 2 * n);
    for (i = 0; i < n; i++) {
        char c = x[i];
        if (c == '\t' || c == '\n' || c == '\r' || c == '\\') {
            *p++ = '\\';
            c = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
        }
        *p++ = c;
    }
    s->len = (size_t)(p - s->p);
}

static void text_field(cat_out *o, const char *x, size_t n, int force_quote)
{
    if (o->format == FORMAT_TSV)
        tsv_field(&o->sink, x, n);
    else
        csv_field(&o->sink, x, n, force_quote);
}

/* A string value: bytes that need no escaping are copied as they are; anything else (an
 * escape, a byte of UTF-8 to validate) goes through the renderers. */
static void put_string(cat_out *o, const colview *v, int64_t r, int json)
{
    const char *x = v->bytes + v->str_off[r];
    size_t n = (size_t)(v->str_off[r + 1] - v->str_off[r]);
    const unsigned char *u = (const unsigned char *)x;
    size_t i = 0;
    if (json)
        while (i < n && u[i] >= 0x20 && u[i] < 0x80 && u[i] != '"' && u[i] != '\\')
            i++;
    else
        while (i < n && u[i] < 0x80)
            i++;
    cat_sink *s = &o->sink;
    if (i == n) {
        if (!json) {
            text_field(o, x, n, 0);
            return;
        }
        char *p = sink_room(s, n + 2);
        *p = '"';
        memcpy(p + 1, x, n);
        p[n + 1] = '"';
        s->len += n + 2;
        return;
    }
    o->cell.len = 0;
    if (json) {
        render_json_string(&o->cell, x, n);
        sink_put(s, o->cell.p, o->cell.len);
    } else {
        render_text_string(&o->cell, x, n, 0);
        text_field(o, o->cell.p, o->cell.len, 0);
    }
}

/* Row r of column c in csv (json 0) or jsonl (json 1). */
static inline void put_value(cat_out *o, const cat_col *c, int64_t r, int json)
{
    cat_sink *s = &o->sink;
    const colview *v = &c->v;
    int w = c->writer;
    if (w == W_GENERIC) {
        o->cell.len = 0;
        int present = render_cell(&o->cell, v, r, json ? STYLE_JSON : STYLE_CSV);
        if (json)
            sink_put(s, o->cell.p, o->cell.len);
        else if (present)
            text_field(o, o->cell.p, o->cell.len, (v->kind & (PQT_VECTOR | PQT_LIST)) != 0);
        return;
    }
    if (!is_valid(w == W_ARRAY ? v->row_valid : v->valid, r)) {
        if (json) sink_put(s, "null", 4);
        return;
    }
    if (w == W_STR) {
        put_string(o, v, r, json);
    } else if (w == W_ARRAY) {
        /* csv: an array is one quoted field; "NaN" inside needs its quotes doubled. */
        size_t start = s->len;
        if (json || o->format == FORMAT_TSV) { /* JSON text has no tab or line break */
            put_array(s, c, r);
            return;
        }
        sink_putc(s, '"');
        put_array(s, c, r);
        size_t n = s->len - start - 1;
        if (!memchr(s->p + start + 1, '"', n)) {
            sink_putc(s, '"');
            return;
        }
        o->cell.len = 0;
        rb_put(&o->cell, s->p + start + 1, n);
        s->len = start;
        csv_field(s, o->cell.p, o->cell.len, 1);
    } else {
        char *p = sink_room(s, CAT_FLOAT_MAX);
        s->len = (size_t)(put_elem(p, v, w, r, json) - s->p);
    }
}

/* ---- rows ---- */

static int csv_header(cat_out *o)
{
    for (int c = 0; c < o->ncols; c++) {
        if (c) sink_putc(&o->sink, o->format == FORMAT_TSV ? '\t' : ',');
        text_field(o, o->cols[c].path, strlen(o->cols[c].path), 0);
    }
    sink_putc(&o->sink, '\n');
    return sink_row_done(&o->sink);
}

/* ---- jsonl keys ---- */

static char *take_key(rbuf *k)
{
    if (k->p) return k->p;
    char *e = malloc(1); /* the first column of a flat row: nothing before its value */
    if (!e) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    *e = '\0';
    return e;
}

/* The schema nodes from the top-level field down to column c's node (at most 64 levels). */
typedef struct key_path {
    int node[65];
    int n;
} key_path;

static const key_path *sort_paths;
static const int *sort_first;

/* Columns in the order of their first-printed ancestors, level by level: the members of a
 * struct come together where its first printed member is; otherwise the printed order. */
static int cmp_order(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    const key_path *x = &sort_paths[a], *y = &sort_paths[b];
    /* a column without a path (the row index) stands at its own printed place */
    int ta = x->n ? sort_first[x->node[0]] : a, tb = y->n ? sort_first[y->node[0]] : b;
    if (ta != tb) return ta < tb ? -1 : 1;
    for (int l = 1; l < x->n && l < y->n; l++) {
        int ra = sort_first[x->node[l]], rb = sort_first[y->node[l]];
        if (ra != rb) return ra < rb ? -1 : 1;
    }
    return a < b ? -1 : a > b;
}

static void *need(void *p)
{
    if (!p) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    return p;
}

void cat_json_keys(cat_out *o, const pqt_file *f)
{
    int n = o->ncols;
    o->jorder = need(malloc((n > 0 ? (size_t)n : 1) * sizeof *o->jorder));
    for (int i = 0; i < n; i++)
        o->jorder[i] = i;
    key_path *paths = need(calloc(n > 0 ? (size_t)n : 1, sizeof *paths));
    int nnodes = f ? pqt_file_nnodes(f) : 0;
    int *col_node = NULL, *first = NULL;
    if (f) {
        int ncols = pqt_file_ncols(f);
        col_node = need(malloc((ncols > 0 ? (size_t)ncols : 1) * sizeof *col_node));
        first = need(malloc((nnodes > 0 ? (size_t)nnodes : 1) * sizeof *first));
        for (int c = 0; c < ncols; c++)
            col_node[c] = -1;
        for (int i = 0; i < nnodes; i++) {
            int c = pqt_file_node_column(f, i);
            if (c >= 0 && c < ncols) col_node[c] = i;
            first[i] = -1;
        }
    }
    for (int i = 0; i < n; i++) {
        key_path *kp = &paths[i];
        if (!f) continue;
        int up[65], k = 0;
        /* a virtual column (parquet_row_index) has no file column: a top-level key */
        int col = o->cols[i].col;
        int own = col >= 0 && col < pqt_file_ncols(f) ? col_node[col] : -1;
        for (int nd = own; nd > 0 && k < 65; nd = pqt_file_node_parent(f, nd)) {
            /* a MAP's repeated key_value group is no level of the key: {"m":{"key":..}} */
            const char *rep = pqt_file_node_repetition(f, nd);
            if (nd != own && rep && !strcmp(rep, "repeated")) continue;
            up[k++] = nd;
        }
        for (int l = 0; l < k; l++) {
            kp->node[l] = up[k - 1 - l];
            if (first[kp->node[l]] < 0) first[kp->node[l]] = i;
        }
        kp->n = k;
    }
    if (f) {
        sort_paths = paths;
        sort_first = first;
        qsort(o->jorder, (size_t)n, sizeof *o->jorder, cmp_order);
    }
    const key_path *prev = NULL;
    for (int j = 0; j < n; j++) {
        cat_col *c = &o->cols[o->jorder[j]];
        const key_path *kp = &paths[o->jorder[j]];
        rbuf k = {0};
        int open = prev && prev->n > 1 ? prev->n - 1 : 0, common = 0;
        while (f && common < open && common < kp->n - 1 && prev->node[common] == kp->node[common])
            common++;
        for (int l = common; l < open; l++)
            rb_putc(&k, '}');
        if (j) rb_putc(&k, ',');
        for (int l = common; f && l < kp->n - 1; l++) {
            const char *name = pqt_file_node_read_name(f, kp->node[l]);
            render_json_string(&k, name, strlen(name));
            rb_puts(&k, ":{");
        }
        const char *leaf =
            f && kp->n > 0 ? pqt_file_node_read_name(f, kp->node[kp->n - 1]) : c->path;
        render_json_string(&k, leaf, strlen(leaf));
        rb_putc(&k, ':');
        free(c->key);
        c->key = take_key(&k);
        c->key_len = k.len;
        prev = kp;
    }
    rbuf e = {0};
    for (int l = 1; prev && f && l < prev->n; l++)
        rb_putc(&e, '}');
    rb_putc(&e, '}');
    free(o->jend);
    o->jend = e.p;
    o->jend_len = e.len;
    free(paths);
    free(col_node);
    free(first);
}

int cat_write_rows(cat_out *o, int64_t nrows)
{
    int json = o->format == FORMAT_JSONL || o->format == FORMAT_JSONARR;
    int array = o->format == FORMAT_JSONARR;
    char sep = o->format == FORMAT_TSV ? '\t' : ',';
    cat_sink *s = &o->sink;
    if (!o->started) {
        o->started = 1;
        if (!json && csv_header(o) != 0) return -1;
        if (json && !o->jorder) cat_json_keys(o, NULL);
        if (array) sink_putc(s, '[');
    }
    for (int64_t r = 0; r < nrows; r++) {
        if (array && o->nrows_out + r > 0) sink_put(s, ",\n", 2);
        if (json) sink_putc(s, '{');
        for (int j = 0; j < o->ncols; j++) {
            const cat_col *col = &o->cols[json ? o->jorder[j] : j];
            if (json)
                sink_put(s, col->key, col->key_len);
            else if (j)
                sink_putc(s, sep);
            put_value(o, col, r, json);
        }
        if (json) sink_put(s, o->jend, o->jend_len);
        if (!array) sink_putc(s, '\n');
        if (sink_row_done(s) != 0) return -1;
    }
    o->nrows_out += nrows;
    return 0;
}

int cat_write_end(cat_out *o)
{
    if (cat_write_rows(o, 0) != 0) return -1;
    if (o->format == FORMAT_JSONARR) sink_puts(&o->sink, o->nrows_out ? "\n]\n" : "]\n");
    return sink_flush(&o->sink);
}

int cat_format_parse(const char *name)
{
    static const char *const names[] = {"table", "csv", "jsonl", "tsv", "json"};
    static const int formats[] = {FORMAT_TABLE, FORMAT_CSV, FORMAT_JSONL, FORMAT_TSV,
                                  FORMAT_JSONARR};
    for (int i = 0; i < 5; i++)
        if (strcasecmp(name, names[i]) == 0) return formats[i];
    return -1;
}
