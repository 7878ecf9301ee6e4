/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_meta.c - `pqt meta FILE`: what the footer says about the file. File totals, then
 * per row group (numbered from 1) its rows and bytes and per column chunk: codec,
 * encodings, value count, sizes, statistics, page index and bloom filter; last, the
 * key-value metadata with each value cut to one line. --format json writes the same as
 * one JSON document (values whole). Reads the footer only.
 */
#include <string.h>

#include "tools.h"

static const char usage[] =
    "usage: pqt meta FILE [-f|--format text|json]\n"
    "\n"
    "Print the metadata of a Parquet file: rows, row groups, and per column chunk the codec,\n"
    "encodings, sizes, statistics, page index and bloom filter; then the key-value\n"
    "metadata. Only the footer is read. Row groups are numbered from 1.\n"
    "  -f, --format F   text (default) or json\n"
    "  -h, --help       this text\n"
    "\n"
    "--format json writes one JSON object with these keys, in this order:\n"
    "  file, created_by (null when absent), nrows, nrow_groups, ncols, nleaves,\n"
    "  row_groups: each {row_group (1-based), first_row, last_row (1-based, inclusive),\n"
    "    nrows, nbytes (uncompressed), compressed_nbytes,\n"
    "    chunks: one per leaf, each {path (dotted leaf path), type (\"uint32\",\n"
    "      \"decimal(9,3)\", \"timestamp[us, UTC]\": as pqt schema names it), physical,\n"
    "      logical (\"\" when\n"
    "      none), codec, encodings (array), nvals, compressed_nbytes, uncompressed_nbytes,\n"
    "      statistics {min, max (typed: integers, decimals (exact) and floats as JSON\n"
    "      numbers; booleans; strings as JSON strings, cut after 40 characters with \"…\";\n"
    "      NaN, Infinity, dates, times, timestamps and 0x-hex bytes as strings of the text\n"
    "      output; null when absent), min_exact, max_exact (bool; null\n"
    "      when unknown), null_count, distinct_count, nan_count (null when absent)},\n"
    "      offset_index, column_index, bloom_filter (bool)};\n"
    "      an encrypted chunk has null codec, encodings, sizes and statistics}},\n"
    "  key_value_metadata: each {key, value (whole; null when absent)}.\n";

static const argopt opts[] = {{"--format", 'f', 1}, {NULL, 0, 0}};

/* Key-value values are shown on one line of at most this many characters. */
#define KV_VALUE_MAX 80

static const char *yes_no(int v)
{
    return v > 0 ? "yes" : "no";
}

/* Parts of the statistics line are comma-separated. */
static void sep(rbuf *b)
{
    if (b->len) rb_puts(b, ", ");
}

static void stat_text(const pqt_file *f, int rg, int leaf, int which, rbuf *b)
{
    char tmp[1024];
    size_t n = 0;
    if (pqt_file_chunk_stat_text(f, rg, leaf, which, tmp, sizeof tmp, &n) != PQT_OK) return;
    sep(b);
    rb_puts(b, which == PQT_STAT_MIN ? "min " : "max ");
    rb_puts(b, tmp);
    if (pqt_file_chunk_stat_exact(f, rg, leaf, which) == 0) rb_puts(b, " (not exact)");
}

static void stat_count(const pqt_file *f, int rg, int leaf, int which, const char *name, rbuf *b)
{
    int64_t v = pqt_file_chunk_stat_count(f, rg, leaf, which);
    if (v < 0) return;
    char tmp[64];
    sep(b);
    snprintf(tmp, sizeof tmp, "%s %lld", name, (long long)v);
    rb_puts(b, tmp);
}

static void print_chunk(const pqt_file *f, int rg, int leaf)
{
    rbuf b = {0};
    int node = pqt_file_leaf_node(f, leaf);
    rb_puts(&b, "  ");
    tool_node_path(f, node, &b);
    rb_puts(&b, ": ");
    tool_type_label_node(f, node, &b);
    rb_puts(&b, " (");
    rb_puts(&b, pqt_file_node_physical(f, node));
    rbuf logical = {0};
    tool_node_logical(f, node, &logical);
    if (logical.len) {
        rb_puts(&b, " ");
        rb_puts(&b, logical.p);
    }
    rb_free(&logical);
    rb_puts(&b, ")");
    puts(b.p);
    rb_free(&b);

    const char *codec = pqt_file_chunk_codec(f, rg, leaf);
    if (!codec) {
        puts("    no column metadata (encrypted column)");
        return;
    }
    int nenc = pqt_file_chunk_nencodings(f, rg, leaf);
    for (int i = 0; i < nenc; i++) {
        if (i) rb_putc(&b, ',');
        rb_puts(&b, pqt_file_chunk_encoding(f, rg, leaf, i));
    }
    printf("    codec %s, encodings %s, %lld values, %lld bytes (%lld uncompressed)\n", codec,
           nenc > 0 ? b.p : "none", (long long)pqt_file_chunk_nvals(f, rg, leaf),
           (long long)pqt_file_chunk_compressed_nbytes(f, rg, leaf),
           (long long)pqt_file_chunk_uncompressed_nbytes(f, rg, leaf));
    rb_free(&b);

    stat_text(f, rg, leaf, PQT_STAT_MIN, &b);
    stat_text(f, rg, leaf, PQT_STAT_MAX, &b);
    stat_count(f, rg, leaf, PQT_STAT_NULL_COUNT, "nulls", &b);
    stat_count(f, rg, leaf, PQT_STAT_DISTINCT_COUNT, "distinct", &b);
    stat_count(f, rg, leaf, PQT_STAT_NAN_COUNT, "NaNs", &b);
    printf("    statistics: %s\n", b.len ? b.p : "none");
    rb_free(&b);

    int oi = pqt_file_chunk_has_offset_index(f, rg, leaf);
    int ci = pqt_file_chunk_has_column_index(f, rg, leaf);
    const char *pi = oi > 0 && ci > 0 ? "yes"
                     : oi > 0         ? "offset index only"
                     : ci > 0         ? "column index only"
                                      : "no";
    printf("    page index: %s, bloom filter: %s\n", pi,
           yes_no(pqt_file_chunk_has_bloom_filter(f, rg, leaf)));
}

/* The value on one line: its first line, control characters escaped, cut with "…". */
static void print_kv(const pqt_file *f, int i)
{
    const char *key = pqt_file_kv_key(f, i);
    const char *value = NULL;
    rbuf b = {0};
    rb_puts(&b, "  ");
    render_text_string(&b, key ? key : "", key ? strlen(key) : 0, 1);
    if (key && pqt_file_meta_value(f, key, &value) == PQT_OK && value) {
        rb_puts(&b, " = ");
        size_t n = strcspn(value, "\r\n");
        size_t cut = tool_text_prefix(value, n, KV_VALUE_MAX);
        render_text_string(&b, value, cut, 1);
        if (cut < strlen(value)) rb_puts(&b, "…");
    }
    puts(b.p);
    rb_free(&b);
}

/* ---- --format json ---- */

/* Whether s[0..n) is a JSON number: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)? */
static int json_number(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    if (i >= n || s[i] < '0' || s[i] > '9') return 0;
    if (s[i] == '0')
        i++;
    else
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    if (i < n && s[i] == '.') {
        if (++i >= n || s[i] < '0' || s[i] > '9') return 0;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= n || s[i] < '0' || s[i] > '9') return 0;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    return i == n;
}

/* A statistic as a typed JSON value, its text as pqt_file_chunk_stat_text gives it: numbers
 * (integers, decimals exactly, floats) as JSON numbers written as that text, booleans as
 * true/false, strings as JSON strings without the text's quotes; the rest (NaN, Infinity,
 * dates, times, timestamps, 0x-hex bytes) as JSON strings of the text. */
static void json_stat_value(jw *w, const pqt_file *f, int leaf, const char *t, size_t n)
{
    const char *phys = pqt_file_node_physical(f, pqt_file_leaf_node(f, leaf));
    if (json_number(t, n) || (phys && strcmp(phys, "BOOLEAN") == 0 &&
                              (strcmp(t, "true") == 0 || strcmp(t, "false") == 0))) {
        jw_raw(w, t, n);
        return;
    }
    if (n >= 1 && t[0] == '"') {
        /* the text is a JSON string already unless it has \xNN (bytes that are not UTF-8) */
        size_t end = n >= 2 && t[n - 1] == '"' ? n - 1 : n;
        char body[1024];
        size_t bn = end - 1 < sizeof body - 1 ? end - 1 : sizeof body - 1;
        memcpy(body, t + 1, bn);
        body[bn] = '\0';
        if (!strstr(body, "\\x")) {
            rbuf r = {0};
            rb_putc(&r, '"');
            rb_put(&r, body, bn);
            rb_putc(&r, '"');
            jw_raw(w, r.p, r.len);
            rb_free(&r);
        } else {
            jw_str(w, body);
        }
        return;
    }
    jw_str(w, t);
}

static void json_stats(jw *w, const pqt_file *f, int rg, int leaf)
{
    char tmp[1024];
    static const struct {
        const char *key;
        int which;
    } mm[2] = {{"min", PQT_STAT_MIN}, {"max", PQT_STAT_MAX}};
    jw_open(w, '{');
    for (int k = 0; k < 2; k++) {
        jw_key(w, mm[k].key);
        size_t n = 0;
        if (pqt_file_chunk_stat_text(f, rg, leaf, mm[k].which, tmp, sizeof tmp, &n) == PQT_OK)
            json_stat_value(w, f, leaf, tmp, n < sizeof tmp ? n : sizeof tmp - 1);
        else
            jw_null(w);
    }
    for (int k = 0; k < 2; k++) {
        jw_key(w, k == 0 ? "min_exact" : "max_exact");
        int e = pqt_file_chunk_stat_exact(f, rg, leaf, mm[k].which);
        if (e < 0)
            jw_null(w);
        else
            jw_bool(w, e);
    }
    static const struct {
        const char *key;
        int which;
    } counts[3] = {{"null_count", PQT_STAT_NULL_COUNT},
                   {"distinct_count", PQT_STAT_DISTINCT_COUNT},
                   {"nan_count", PQT_STAT_NAN_COUNT}};
    for (int k = 0; k < 3; k++) {
        jw_key(w, counts[k].key);
        int64_t v = pqt_file_chunk_stat_count(f, rg, leaf, counts[k].which);
        if (v < 0)
            jw_null(w);
        else
            jw_int(w, v);
    }
    jw_close(w, '}');
}

static void json_chunk(jw *w, const pqt_file *f, int rg, int leaf)
{
    rbuf b = {0};
    int node = pqt_file_leaf_node(f, leaf);
    jw_open(w, '{');
    jw_key(w, "path");
    tool_node_path(f, node, &b);
    jw_str(w, b.p ? b.p : "");
    jw_key(w, "type");
    b.len = 0;
    tool_type_label_node(f, node, &b);
    jw_str(w, b.p ? b.p : "");
    jw_key(w, "physical");
    jw_str(w, pqt_file_node_physical(f, node));
    jw_key(w, "logical");
    b.len = 0;
    tool_node_logical(f, node, &b);
    jw_str(w, b.p && b.len ? b.p : "");
    rb_free(&b);
    const char *codec = pqt_file_chunk_codec(f, rg, leaf);
    jw_key(w, "codec");
    jw_str(w, codec);
    jw_key(w, "encodings");
    if (codec) {
        jw_open(w, '[');
        int nenc = pqt_file_chunk_nencodings(f, rg, leaf);
        for (int i = 0; i < nenc; i++)
            jw_str(w, pqt_file_chunk_encoding(f, rg, leaf, i));
        jw_close(w, ']');
    } else {
        jw_null(w);
    }
    static const char *const sizes[3] = {"nvals", "compressed_nbytes", "uncompressed_nbytes"};
    int64_t v[3] = {pqt_file_chunk_nvals(f, rg, leaf),
                    pqt_file_chunk_compressed_nbytes(f, rg, leaf),
                    pqt_file_chunk_uncompressed_nbytes(f, rg, leaf)};
    for (int k = 0; k < 3; k++) {
        jw_key(w, sizes[k]);
        if (codec)
            jw_int(w, v[k]);
        else
            jw_null(w);
    }
    jw_key(w, "statistics");
    if (codec)
        json_stats(w, f, rg, leaf);
    else
        jw_null(w);
    jw_key(w, "offset_index");
    jw_bool(w, pqt_file_chunk_has_offset_index(f, rg, leaf) > 0);
    jw_key(w, "column_index");
    jw_bool(w, pqt_file_chunk_has_column_index(f, rg, leaf) > 0);
    jw_key(w, "bloom_filter");
    jw_bool(w, pqt_file_chunk_has_bloom_filter(f, rg, leaf) > 0);
    jw_close(w, '}');
}

static void print_json(const pqt_file *f, const char *path)
{
    int nrg = pqt_file_nrow_groups(f), nleaves = pqt_file_nleaves(f);
    jw w = {0};
    jw_open(&w, '{');
    jw_key(&w, "file");
    jw_str(&w, path);
    const char *by = pqt_file_created_by(f);
    jw_key(&w, "created_by");
    jw_str(&w, by && by[0] ? by : NULL);
    jw_key(&w, "nrows");
    jw_int(&w, pqt_file_nrows(f));
    jw_key(&w, "nrow_groups");
    jw_int(&w, nrg);
    jw_key(&w, "ncols");
    jw_int(&w, pqt_file_ncols(f));
    jw_key(&w, "nleaves");
    jw_int(&w, nleaves);
    jw_key(&w, "row_groups");
    jw_open(&w, '[');
    int64_t first = 1;
    for (int rg = 0; rg < nrg; rg++) {
        int64_t n = pqt_file_row_group_nrows(f, rg);
        jw_open(&w, '{');
        jw_key(&w, "row_group");
        jw_int(&w, rg + 1);
        jw_key(&w, "first_row");
        jw_int(&w, first);
        jw_key(&w, "last_row");
        jw_int(&w, first + n - 1);
        jw_key(&w, "nrows");
        jw_int(&w, n);
        jw_key(&w, "nbytes");
        jw_int(&w, pqt_file_row_group_nbytes(f, rg));
        jw_key(&w, "compressed_nbytes");
        jw_int(&w, pqt_file_row_group_compressed_nbytes(f, rg));
        first += n;
        jw_key(&w, "chunks");
        jw_open(&w, '[');
        for (int leaf = 0; leaf < nleaves; leaf++)
            json_chunk(&w, f, rg, leaf);
        jw_close(&w, ']');
        jw_close(&w, '}');
        jw_flush(&w, stdout);
    }
    jw_close(&w, ']');
    jw_key(&w, "key_value_metadata");
    jw_open(&w, '[');
    int nkv = pqt_file_nkv(f);
    for (int i = 0; i < nkv; i++) {
        const char *key = pqt_file_kv_key(f, i), *value = NULL;
        jw_open(&w, '{');
        jw_key(&w, "key");
        jw_str(&w, key ? key : "");
        jw_key(&w, "value");
        /* the first pair with this key: meta_value looks keys up, and duplicate keys are
         * rare enough that the text output shares this */
        jw_str(&w, key && pqt_file_meta_value(f, key, &value) == PQT_OK ? value : NULL);
        jw_close(&w, '}');
    }
    jw_close(&w, ']');
    jw_close(&w, '}');
    jw_flush(&w, stdout);
    rb_free(&w.b);
}

int cmd_meta(int argc, char **argv)
{
    argscan s;
    const char *path = NULL;
    int format = FORMAT_TEXT;
    argscan_init(&s, argc, argv);
    for (int r; (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        if (r != ARG_OPERAND && r != ARG_OPTION) return tool_bad_option("meta", usage, r, s.opt);
        if (r == ARG_OPERAND) {
            if (path) return tool_usage_error("meta", usage, "unexpected argument", s.value);
            path = s.value;
        } else if ((format = tool_doc_format(s.value)) < 0) {
            return tool_usage_error("meta", usage, "unknown --format (text or json)", s.value);
        }
    }
    if (!path) return tool_usage_error("meta", usage, "missing FILE", NULL);

    pqt_file *f;
    if (tool_open(path, &f) != EXIT_OK) return EXIT_FAIL;
    if (format == FORMAT_JSON) {
        print_json(f, path);
        pqt_file_close(f);
        return EXIT_OK;
    }
    int nrg = pqt_file_nrow_groups(f), nleaves = pqt_file_nleaves(f);
    printf("file: %s\n", path);
    const char *by = pqt_file_created_by(f);
    if (by && by[0]) printf("created by: %s\n", by);
    printf("rows: %lld\n", (long long)pqt_file_nrows(f));
    printf("row groups: %d\n", nrg);
    printf("columns: %d (%d leaf chunk%s per row group)\n", pqt_file_ncols(f), nleaves,
           nleaves == 1 ? "" : "s");

    int64_t first = 1;
    for (int rg = 0; rg < nrg; rg++) {
        int64_t n = pqt_file_row_group_nrows(f, rg);
        printf("\nrow group %d: rows %lld..%lld (%lld rows), %lld bytes, %lld compressed\n", rg + 1,
               (long long)first, (long long)(first + n - 1), (long long)n,
               (long long)pqt_file_row_group_nbytes(f, rg),
               (long long)pqt_file_row_group_compressed_nbytes(f, rg));
        first += n;
        for (int leaf = 0; leaf < nleaves; leaf++)
            print_chunk(f, rg, leaf);
    }

    int nkv = pqt_file_nkv(f);
    printf("\nkey-value metadata: %d key%s\n", nkv, nkv == 1 ? "" : "s");
    for (int i = 0; i < nkv; i++)
        print_kv(f, i);
    pqt_file_close(f);
    return EXIT_OK;
}
