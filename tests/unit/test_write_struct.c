/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_struct.c - a copy keeps struct columns as structs (issue 14). The source is
 * tests/data/struct_nulls.parquet, written by DuckDB (make_struct_nulls.mjs):
 *   id INTEGER, s STRUCT(a INTEGER, b VARCHAR, t STRUCT(x DOUBLE), l INTEGER[]), z VARCHAR
 * with nulls at both levels. Checked against the generator's hand-known rows: the copy's
 * schema elements (group names, repetition, children, order), its values read back by pqt,
 * and its definition/repetition levels decoded from the page bytes (uncompressed v1 pages,
 * no dictionary), which say whether a struct or only its leaf is null: exactly the
 * source's (row 4's t and row 6's s are present structs of null leaves), also for a
 * filtered, sorted copy; a leaf the caller made present makes its struct present; a table
 * detached from its file writes a group present only where a leaf under it is not null
 * (docs/writing.md). Also: a
 * partial selection keeps a group of the selected leaves, leaves of a group come together
 * where its first leaf is, in-memory "s.a" columns and renamed leaves stay top-level, and
 * a top-level column named like a struct is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/file_int.h"
#include "encoding/encoding.h"
#include "format/meta.h"
#include "pqt_file.h"
#include "testutil.h"

static const char *SRC = "tests/data/struct_nulls.parquet";
static char g_dir[256];

static void out_path(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", g_dir, name);
    unlink(buf);
}

/* The copy's schema, one node a line: depth, name, repetition, children. */
static void schema_is(const char *path, const char *const *want, int n)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    CHECK_EQ_I64(pqt_file_nnodes(f), n);
    for (int k = 0; k < n && k < pqt_file_nnodes(f); k++) {
        char got[256];
        snprintf(got, sizeof got, "%d %s %s %d", pqt_file_node_depth(f, k), pqt_file_node_name(f, k),
                 k == 0 ? "-" : pqt_file_node_repetition(f, k), pqt_file_node_nchildren(f, k));
        if (strcmp(got, want[k]) != 0) {
            fprintf(stderr, "%s node %d: '%s', want '%s'\n", path, k, got, want[k]);
            CHECK(0);
        }
    }
    pqt_file_close(f);
}

static int bit_width(int max)
{
    int w = 0;
    while ((1 << w) <= max) w++;
    return w;
}

/* Levels of leaf `leaf` (row group 1's first data page: uncompressed v1, so the body is
 * [4-byte length, repetition RLE] when max_rep > 0, then [4-byte length, definition RLE]). */
static void levels_of(const char *path, int leaf, int max_rep, int max_def, int n, uint32_t *rep,
                      uint32_t *def)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    const pqt_column_meta *m = &f->meta.row_groups[0].columns[leaf].meta;
    FILE *fp = fopen(path, "rb");
    size_t cap = 4096;
    uint8_t *raw = malloc(cap);
    REQUIRE_OK(fp && fseek(fp, (long)m->data_page_offset, SEEK_SET) == 0 ? PQT_OK : PQT_IO);
    size_t got = fread(raw, 1, cap, fp);
    fclose(fp);
    pqt_page_header h;
    size_t hn = 0;
    REQUIRE_OK(pqt_meta_decode_page_header(raw, got, 0, &h, &hn));
    CHECK_EQ_I64(h.num_values, n);
    const uint8_t *p = raw + hn;
    for (int pass = 0; pass < 2; pass++) {
        int max = pass == 0 ? max_rep : max_def;
        uint32_t *out = pass == 0 ? rep : def;
        if (max == 0) continue;
        uint32_t len;
        memcpy(&len, p, 4);
        pqt_rle_dec d;
        REQUIRE_OK(pqt_rle_init(&d, bit_width(max), p + 4, len));
        REQUIRE_OK(pqt_rle_get_u32(&d, n, out));
        p += 4 + len;
    }
    free(raw);
    pqt_file_close(f);
}

static void levels_are(const char *path, const char *name, int leaf, int max_rep, int max_def,
                       const uint32_t *want_rep, const uint32_t *want_def, int n)
{
    uint32_t rep[32] = {0}, def[32] = {0};
    levels_of(path, leaf, max_rep, max_def, n, rep, def);
    for (int i = 0; i < n; i++) {
        if (def[i] != want_def[i] || (max_rep > 0 && rep[i] != want_rep[i])) {
            fprintf(stderr, "%s: level %d: rep %u def %u, want rep %u def %u\n", name, i,
                    rep[i], def[i], max_rep > 0 ? want_rep[i] : 0, want_def[i]);
            CHECK(0);
        }
    }
}

static void int_is(pqt_table *t, const char *col, int64_t row, int elem, int64_t want, bool null)
{
    int64_t v = -1;
    int is_null = -1;
    CHECK_OK(pqt_table_get_value(t, col, row, elem, PQT_INT64, &v, sizeof v, &is_null));
    if (is_null != (int)null || (!null && v != want)) {
        fprintf(stderr, "%s row %lld elem %d: %lld null %d\n", col, (long long)row, elem,
                (long long)v, is_null);
        CHECK(0);
    }
}

static void str_is(pqt_table *t, const char *col, int64_t row, const char *want)
{
    const char *p = NULL;
    int64_t n = 0;
    int is_null = -1;
    CHECK_OK(pqt_table_get_string(t, col, row, 0, &p, &n, &is_null));
    bool ok = want ? is_null == 0 && n == (int64_t)strlen(want) && memcmp(p, want, (size_t)n) == 0
                   : is_null == 1;
    if (!ok) {
        fprintf(stderr, "%s row %lld: '%.*s' null %d, want %s\n", col, (long long)row, (int)n, p,
                is_null, want ? want : "null");
        CHECK(0);
    }
}

static void full_copy(void)
{
    char path[300];
    out_path(path, sizeof path, "full.parquet");
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_CODEC, PQT_WRITE_UNCOMPRESSED));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    static const char *const want[] = {
        "0 schema - 3",          "1 id optional 0", "1 s optional 4",      "2 a optional 0",
        "2 b optional 0",        "2 t optional 1",  "3 x optional 0",      "2 l optional 1",
        "3 list repeated 1",     "4 element optional 0", "1 z optional 0"};
    schema_is(path, want, 11);
    /* levels, from the generator's rows (s null only in row 2; t present in rows 1, 4, 5) */
    static const uint32_t a_def[] = {2, 0, 1, 1, 2, 1};
    static const uint32_t x_def[] = {3, 0, 1, 2, 3, 1};
    static const uint32_t l_def[] = {4, 4, 0, 1, 2, 3, 4, 1};
    static const uint32_t l_rep[] = {0, 1, 0, 0, 0, 0, 1, 0};
    levels_are(path, "s.a", 1, 0, 2, NULL, a_def, 6);
    levels_are(path, "s.t.x", 3, 0, 3, NULL, x_def, 6);
    levels_are(path, "s.l", 4, 1, 4, l_rep, l_def, 8);
    /* the values pqt reads back are the source's */
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    CHECK_EQ_I64(pqt_table_ncols(t), 6);
    const char *names[] = {"id", "s.a", "s.b", "s.t.x", "s.l", "z"};
    for (int i = 0; i < 6; i++) CHECK(strcmp(pqt_table_column_name(t, i), names[i]) == 0);
    for (int r = 1; r <= 6; r++) int_is(t, "id", r, 0, r, false);
    int_is(t, "s.a", 1, 0, 1, false);
    int_is(t, "s.a", 5, 0, 5, false);
    for (int r = 2; r <= 6; r++)
        if (r != 5) int_is(t, "s.a", r, 0, 0, true);
    const char *b[] = {"x", NULL, "y", NULL, NULL, NULL};
    const char *z[] = {"z1", "z2", NULL, "z4", "z5", "z6"};
    for (int r = 1; r <= 6; r++) {
        str_is(t, "s.b", r, b[r - 1]);
        str_is(t, "z", r, z[r - 1]);
    }
    double x = 0;
    int null = -1;
    CHECK_OK(pqt_table_get_value(t, "s.t.x", 5, 0, PQT_FLOAT64, &x, sizeof x, &null));
    CHECK(x == 5.5 && null == 0);
    CHECK_OK(pqt_table_is_null(t, "s.t.x", 4, 0, &null));
    CHECK(null == 1);
    int_is(t, "s.l", 1, 2, 2, false);
    int_is(t, "s.l", 5, 1, 0, true);
    int_is(t, "s.l", 5, 2, 3, false);
    CHECK_OK(pqt_table_is_null(t, "s.l", 3, 0, &null));
    CHECK(null == 1);
    CHECK_OK(pqt_table_is_null(t, "s.l", 4, 0, &null));
    CHECK(null == 0); /* the empty list */
    pqt_table_close(t);
    unlink(path);
}

static pqt_write_opts *plain_opts(void)
{
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_CODEC, PQT_WRITE_UNCOMPRESSED));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    return o;
}

/* The rows in descending id (a read-time sort): each row's levels move with it; a leaf made present in a source-null struct, or nulled, keeps the groups right. */
static void filtered_sorted_and_changed(void)
{
    char path[300];
    out_path(path, sizeof path, "sorted.parquet");
    pqt_opts *ro = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    CHECK_OK(pqt_opts_set_sort(ro, "-id"));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(SRC, ro, &t));
    pqt_opts_free(ro);
    pqt_write_opts *o = plain_opts();
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_table_close(t);
    static const uint32_t x_def[] = {1, 3, 2, 1, 0, 3}; /* rows 6, 5, ..., 1 */
    static const uint32_t a_def[] = {1, 2, 1, 1, 0, 2};
    levels_are(path, "s.t.x", 3, 0, 3, NULL, x_def, 6);
    levels_are(path, "s.a", 1, 0, 2, NULL, a_def, 6);
    unlink(path);

    out_path(path, sizeof path, "changed.parquet");
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    CHECK_OK(pqt_table_clear_null(t, "s.a", 2, 0)); /* row 2's s was null: now present */
    CHECK_OK(pqt_table_set_null(t, "s.a", 1, 0));   /* row 1's s stays present */
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_table_close(t);
    static const uint32_t a2_def[] = {1, 2, 1, 1, 2, 1};
    static const uint32_t b2_def[] = {2, 1, 2, 1, 1, 1};
    static const uint32_t x2_def[] = {3, 1, 1, 2, 3, 1}; /* t stays null in row 2 */
    levels_are(path, "s.a", 1, 0, 2, NULL, a2_def, 6);
    levels_are(path, "s.b", 2, 0, 2, NULL, b2_def, 6);
    levels_are(path, "s.t.x", 3, 0, 3, NULL, x2_def, 6);
    unlink(path);

    /* appending detaches the table: groups are present where a leaf under them is not null */
    out_path(path, sizeof path, "detached.parquet");
    pqt_table *u = NULL;
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    REQUIRE_OK(pqt_table_open(SRC, NULL, &u));
    const char *names[] = {"id", "s.a", "s.b", "s.t.x", "s.l", "z"};
    int null = 0;
    for (int i = 0; i < 6; i++) CHECK_OK(pqt_table_is_null(t, names[i], 1, 0, &null));
    REQUIRE_OK(pqt_table_append(t, u));
    pqt_table_close(u);
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_table_close(t);
    static const uint32_t a3_def[] = {2, 0, 1, 1, 2, 0, 2, 0, 1, 1, 2, 0};
    static const uint32_t x3_def[] = {3, 0, 1, 1, 3, 0, 3, 0, 1, 1, 3, 0};
    levels_are(path, "s.a", 1, 0, 2, NULL, a3_def, 12);
    levels_are(path, "s.t.x", 3, 0, 3, NULL, x3_def, 12);
    unlink(path);
    pqt_write_opts_free(o);
}

/* Keeping z, s.b, id, s.t.x (as pqt copy --columns does): s holds only b and t{x}. */
static void partial_and_reordered(void)
{
    char path[300];
    out_path(path, sizeof path, "part.parquet");
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    const char *keep[] = {"z", "s.b", "id", "s.t.x"};
    CHECK_OK(pqt_table_keep_columns(t, keep, 4));
    REQUIRE_OK(pqt_write_table(t, path, NULL));
    pqt_table_close(t);
    static const char *const want[] = {"0 schema - 3",   "1 id optional 0", "1 s optional 2",
                                       "2 b optional 0", "2 t optional 1", "3 x optional 0",
                                       "1 z optional 0"};
    schema_is(path, want, 7);
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    str_is(t, "s.b", 3, "y");
    double x = 0;
    int null = -1;
    CHECK_OK(pqt_table_get_value(t, "s.t.x", 1, 0, PQT_FLOAT64, &x, sizeof x, &null));
    CHECK(x == 1.5 && null == 0);
    pqt_table_close(t);
    unlink(path);
}

/* A table built in memory with a dotted name is not a struct; nor is a renamed leaf (the
 * rest of its struct comes together where the struct's first leaf is). */
static void only_file_structs(void)
{
    char path[300];
    out_path(path, sizeof path, "mem.parquet");
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t v[3] = {1, 2, 3};
    REQUIRE_OK(pqt_table_add_column(t, "s.a", PQT_INT32, 1, v, NULL, 3, NULL));
    REQUIRE_OK(pqt_write_table(t, path, NULL));
    pqt_table_close(t);
    static const char *const want_mem[] = {"0 schema - 1", "1 s.a required 0"};
    schema_is(path, want_mem, 2);
    unlink(path);

    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    CHECK_OK(pqt_table_rename_column(t, "s.b", "b2"));
    REQUIRE_OK(pqt_write_table(t, path, NULL));
    pqt_table_close(t);
    static const char *const want_ren[] = {
        "0 schema - 4",      "1 id optional 0",      "1 s optional 3",  "2 a optional 0",
        "2 t optional 1",    "3 x optional 0",       "2 l optional 1",  "3 list repeated 1",
        "4 element optional 0", "1 b2 optional 0",   "1 z optional 0"};
    schema_is(path, want_ren, 11);
    unlink(path);

    /* a top-level column named like the struct: two root fields "s", refused */
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    int32_t six[6] = {0};
    REQUIRE_OK(pqt_table_add_column(t, "s", PQT_INT32, 1, six, NULL, 6, NULL));
    CHECK_EQ_I64(pqt_write_table(t, path, NULL), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "column 's' and the struct 's'") != NULL);
    CHECK(access(path, F_OK) != 0);
    pqt_table_close(t);
    unlink(path);
}

/* A write MAML: a protected struct leaf takes no null (row 2's s is null); a col_map:
 * renamed leaf is a top-level column of its output name. */
static void maml_rules(void)
{
    char path[300];
    out_path(path, sizeof path, "maml.parquet");
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: s.b\nextra:\n  protected_cols: s.b\n"));
    CHECK_EQ_I64(pqt_write_table(t, path, o), PQT_PROTECTED);
    CHECK(strstr(pqt_errmsg(), "'s.b'") && strstr(pqt_errmsg(), "row 2"));
    CHECK(access(path, F_OK) != 0);
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: a_out\n"
                                    "extra:\n  col_map:\n    - s.a: a_out\n"));
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    static const char *const want[] = {
        "0 schema - 4",      "1 id optional 0",      "1 a_out optional 0", "1 s optional 3",
        "2 b optional 0",    "2 t optional 1",       "3 x optional 0",     "2 l optional 1",
        "3 list repeated 1", "4 element optional 0", "1 z optional 0"};
    schema_is(path, want, 11);
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    int_is(t, "a_out", 5, 0, 5, false);
    int_is(t, "a_out", 6, 0, 0, true);
    pqt_table_close(t);
    unlink(path);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "%s", "/tmp/pqt_write_struct_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) ? PQT_OK : PQT_IO);
    full_copy();
    filtered_sorted_and_changed();
    partial_and_reordered();
    only_file_structs();
    maml_rules();
    rmdir(g_dir);
    return pqt_test_done("test_write_struct");
}
