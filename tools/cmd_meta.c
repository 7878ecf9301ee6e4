/*
 * cmd_meta.c - `pqt meta FILE`: what the footer says about the file. File totals, then
 * per row group its rows and bytes and per column chunk: codec, encodings, value count,
 * sizes, statistics, page index and bloom filter; last, the key-value metadata with each
 * value cut to one line.
 */
#include <string.h>

#include "tools.h"

static const char usage[] = "usage: pqt meta FILE\n"
                            "\n"
                            "Print the metadata of a Parquet file: rows, row groups, and per\n"
                            "column chunk the codec, encodings, sizes, statistics, page index\n"
                            "and bloom filter; then the key-value metadata.\n"
                            "  -h, --help   this text\n";

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

int cmd_meta(int argc, char **argv)
{
    const char *path = NULL;
    int rc = tool_file_operand(argc, argv, "meta", usage, &path);
    if (rc >= 0) return rc;

    pqt_file *f;
    if (tool_open(path, &f) != EXIT_OK) return EXIT_FAIL;
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
