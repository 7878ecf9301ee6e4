/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_maml_remap.c - a read-in MAML's extra: remap: (docs/maml.md):
 * lookup by internal name, reads of the file column, shadowing, two internal names on one
 * file column (independent), unit by file name asked by internal name, a filter and
 * a rename in internal names, reload, clone, the row-index name, and the errors at open.
 * Truth: alltypes_plain.parquet's id column is 4 5 6 7 2 3 0 1 and bool_col alternates
 * true/false (parquet-testing, `pqt cat`); table_rowidx.parquet's own parquet_row_index is
 * 100 + a, a = 1..5 (tests/data/make_table_data.mjs, DuckDB).
 */
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define PLAIN "tests/data/parquet-testing/data/alltypes_plain.parquet"

static pqt_table *open_with(const char *file, const char *maml, const char *filter)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_maml_text(o, maml));
    if (filter) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, filter));
    pqt_table *t = NULL;
    pqt_status st = pqt_table_open(file, o, &t);
    if (st != PQT_OK) fprintf(stderr, "open: %s\n", pqt_errmsg());
    pqt_opts_free(o);
    return t;
}

static int res(pqt_table *t, const char *name)
{
    int r = -1;
    CHECK_OK(pqt_table_residency(t, name, &r));
    return r;
}

static void test_lookup_and_read(void)
{
    pqt_table *t = open_with(PLAIN, "fields:\n  - name: id\n    unit: count\n"
                                     "    info: the row id\nextra:\n  remap:\n    - ident: id\n",
                             NULL);
    REQUIRE_OK(t == NULL);
    CHECK(pqt_table_has_column(t, "ident"));
    CHECK(!pqt_table_has_column(t, "id"));
    CHECK_EQ_I64(pqt_table_ncols(t), 11);
    CHECK(!strcmp(pqt_table_column_name(t, 0), "ident")); /* in the file column's place */
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, "ident", &u)); /* declared by file name, asked by internal */
    CHECK(u && !strcmp(u, "count"));
    CHECK_OK(pqt_table_maml_field_value(t, "ident", "info", &u)); /* also by internal name */
    CHECK(u && !strcmp(u, "the row id"));
    CHECK_EQ_I64(res(t, "ident"), PQT_RES_EMPTY); /* remapping reads nothing */
    int32_t v[8];
    CHECK_OK(pqt_table_get(t, "ident", PQT_INT32, v, sizeof v, NULL, 0));
    const int32_t want[8] = {4, 5, 6, 7, 2, 3, 0, 1};
    CHECK(memcmp(v, want, sizeof v) == 0);
    /* reload re-reads the file column; rename changes only the lookup name */
    CHECK_OK(pqt_table_reload(t, "ident", 1));
    CHECK_OK(pqt_table_rename_column(t, "ident", "row_id"));
    memset(v, 0, sizeof v);
    CHECK_OK(pqt_table_get(t, "row_id", PQT_INT32, v, sizeof v, NULL, 0));
    CHECK(memcmp(v, want, sizeof v) == 0);
    pqt_table *c = NULL;
    CHECK_OK(pqt_table_clone(t, &c));
    CHECK(c && pqt_table_has_column(c, "row_id") && !pqt_table_has_column(c, "id"));
    pqt_table_close(c);
    pqt_table_close(t);
}

static void test_shadow_and_twins(void)
{
    /* internal id reads the file's bool_col; the file's own id is unreachable */
    pqt_table *t = open_with(PLAIN, "extra:\n  remap:\n    - id: bool_col\n", NULL);
    REQUIRE_OK(t == NULL);
    CHECK_EQ_I64(pqt_table_ncols(t), 10);
    CHECK(!pqt_table_has_column(t, "bool_col"));
    int kind = -1;
    CHECK_OK(pqt_table_kind(t, "id", &kind));
    CHECK_EQ_I64(kind, PQT_BOOL);
    pqt_table_close(t);
    /* a swap is two remaps, both columns reachable under each other's names */
    t = open_with(PLAIN, "extra:\n  remap:\n    - id: bigint_col\n    - bigint_col: id\n", NULL);
    REQUIRE_OK(t == NULL);
    CHECK_EQ_I64(pqt_table_ncols(t), 11);
    CHECK_OK(pqt_table_kind(t, "id", &kind));
    CHECK_EQ_I64(kind, PQT_INT64);
    CHECK_OK(pqt_table_kind(t, "bigint_col", &kind));
    CHECK_EQ_I64(kind, PQT_INT32);
    pqt_table_close(t);
    /* two internal names on one file column: two independent columns */
    t = open_with(PLAIN, "extra:\n  remap:\n    - a: id\n    - b: id\n", NULL);
    REQUIRE_OK(t == NULL);
    CHECK_EQ_I64(pqt_table_ncols(t), 12);
    int32_t va[8], vb[8];
    const char *first[] = {"a"};
    CHECK_OK(pqt_table_prefetch(t, first, 1));
    CHECK_OK(pqt_table_get(t, "a", PQT_INT32, va, sizeof va, NULL, 0));
    CHECK_EQ_I64(res(t, "a"), PQT_RES_FULL);
    CHECK_EQ_I64(res(t, "b"), PQT_RES_EMPTY); /* its own copy, not read yet */
    CHECK_OK(pqt_table_get(t, "b", PQT_INT32, vb, sizeof vb, NULL, 0));
    CHECK(memcmp(va, vb, sizeof va) == 0 && va[0] == 4);
    CHECK_EQ_I64(res(t, "b"), PQT_RES_EMPTY); /* a read into caller memory keeps it unread */
    CHECK_OK(pqt_table_drop_column(t, "a"));
    CHECK(pqt_table_has_column(t, "b") && !pqt_table_has_column(t, "a"));
    pqt_table_close(t);
}

static void test_filter_in_internal_names(void)
{
    pqt_table *t = open_with(PLAIN, "extra:\n  remap:\n    - ident: id\n", "ident > 5");
    REQUIRE_OK(t == NULL);
    CHECK_EQ_I64(pqt_table_nrows(t), 2); /* 6 and 7 */
    int32_t v[2];
    CHECK_OK(pqt_table_get(t, "ident", PQT_INT32, v, sizeof v, NULL, 0));
    CHECK(v[0] == 6 && v[1] == 7);
    pqt_table_close(t);
    /* the file name is not a table name any more */
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  remap:\n    - ident: id\n"));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "id > 5"));
    CHECK(pqt_table_open(PLAIN, o, &t) == PQT_BAD_FILTER);
    pqt_opts_free(o);
}

static void test_row_index_name(void)
{
    /* the file's own parquet_row_index is reachable only through a remap */
    pqt_table *t = open_with("tests/data/table_rowidx.parquet",
                             "extra:\n  remap:\n    - src_index: parquet_row_index\n", NULL);
    REQUIRE_OK(t == NULL);
    CHECK_EQ_I64(pqt_table_ncols(t), 2);
    int64_t v[5], ri[5];
    CHECK_OK(pqt_table_get(t, "src_index", PQT_INT64, v, sizeof v, NULL, 0));
    CHECK(v[0] == 101 && v[4] == 105);
    CHECK_OK(pqt_table_get(t, "parquet_row_index", PQT_INT64, ri, sizeof ri, NULL, 0));
    CHECK(ri[0] == 1 && ri[4] == 5); /* the automatic one */
    pqt_table_close(t);
}

static void test_errors(void)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_set_maml_text(o, "extra:\n  remap:\n    - a: nope\n    - "
                                         "parquet_row_index: id\n    - b: zilch\n"));
    CHECK(pqt_table_open(PLAIN, o, &t) == PQT_BAD_MAML && t == NULL);
    CHECK(strstr(pqt_errmsg(), "3 problems") != NULL);
    CHECK(strstr(pqt_errmsg(), "line 3: extra: remap: 'a' maps to 'nope'") != NULL);
    CHECK(strstr(pqt_errmsg(), "line 5: extra: remap: 'b' maps to 'zilch'") != NULL);
    CHECK(strstr(pqt_errmsg(), "line 4: extra: remap: 'parquet_row_index' is the row-index") !=
          NULL);
    /* a duplicated internal name fails when the MAML is set */
    CHECK(pqt_opts_set_maml_text(o, "extra:\n  remap:\n    - a: id\n    - a: bool_col\n") ==
          PQT_BAD_MAML);
    pqt_opts_free(o);
}

/* A long MAML stays cheap: 50,000 internal names on one file column and 50,000 fields (the
 * lookups sort; a pairwise scan would take billions of comparisons), then 50,000 targets
 * the file lacks, all counted. */
static void test_many_entries(void)
{
    enum { N = 50000 };
    size_t cap = (size_t)N * 64 + 64, n = 0;
    char *text = malloc(cap);
    REQUIRE_OK(text == NULL);
    n += (size_t)snprintf(text + n, cap - n, "fields:\n");
    for (int i = 0; i < N; i++) n += (size_t)snprintf(text + n, cap - n, "  - f%d: {unit: u%d}\n", i, i);
    n += (size_t)snprintf(text + n, cap - n, "  - id: {unit: s}\nextra:\n  remap:\n");
    for (int i = 0; i < N; i++) n += (size_t)snprintf(text + n, cap - n, "    - i%d: id\n", i);
    pqt_table *t = open_with(PLAIN, text, NULL);
    REQUIRE_OK(t == NULL);
    CHECK_EQ_I64(pqt_table_ncols(t), 10 + N); /* id itself is replaced by its N names */
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, "i49999", &u));
    CHECK(u && !strcmp(u, "s"));
    CHECK(!strcmp(pqt_table_column_name(t, N - 1), "i49999")); /* in the MAML's order */
    pqt_table_close(t);
    n = (size_t)snprintf(text, cap, "extra:\n  remap:\n");
    for (int i = 0; i < N; i++) n += (size_t)snprintf(text + n, cap - n, "    - i%d: nope%d\n", i, i);
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_maml_text(o, text));
    CHECK(pqt_table_open(PLAIN, o, &t) == PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "50000 problems") != NULL);
    pqt_opts_free(o);
    free(text);
}

/* Naming every column of a wide table is linear: 20,000 remapped names on id and 5,000 on
 * int_col, each looked up by name (once 7.5 s of name scans in `pqt schema --maml`). The
 * answers after changes to the table are checked against the positions counted by hand:
 * a rename, a drop, and the row index, which a read adds past the indexed names. */
static void test_wide_lookups(void)
{
    enum { N = 20000, M = 5000 };
    size_t cap = (size_t)(N + M) * 32 + 64, n = 0;
    char *text = malloc(cap);
    REQUIRE_OK(text == NULL);
    n += (size_t)snprintf(text + n, cap - n, "extra:\n  remap:\n");
    for (int i = 0; i < N; i++)
        n += (size_t)snprintf(text + n, cap - n, "    - n%d: id\n", i);
    for (int i = 0; i < M; i++)
        n += (size_t)snprintf(text + n, cap - n, "    - m%d: int_col\n", i);
    pqt_table *t = open_with(PLAIN, text, NULL);
    free(text);
    REQUIRE_OK(t == NULL);
    /* id's names first, then bool_col..smallint_col, int_col's names, bigint_col.. */
    CHECK_EQ_I64(pqt_table_ncols(t), N + M + 9);
    int bad = 0;
    for (int i = 0; i < pqt_table_ncols(t); i++) {
        const char *name = pqt_table_column_name(t, i), *path = NULL;
        int at = -1;
        bad += pqt_table_column_index(t, name, &at) != PQT_OK || at != i;
        bad += pqt_table_file_column(t, name, &path) != PQT_OK ||
               strcmp(path, name[0] == 'n'   ? "id"
                            : name[0] == 'm' ? "int_col"
                                             : name);
    }
    CHECK_EQ_I64(bad, 0);
    int at = -1;
    CHECK_OK(pqt_table_column_index(t, "m4999", &at));
    CHECK_EQ_I64(at, N + 3 + M - 1);
    CHECK(pqt_table_column_index(t, "id", &at) == PQT_NOT_FOUND); /* taken by the remap */
    CHECK(pqt_table_column_index(t, "n20000", &at) == PQT_NOT_FOUND);
    /* a rename: the old name is gone, the new one found where the old one was */
    CHECK_OK(pqt_table_rename_column(t, "n7", "seventh"));
    CHECK(pqt_table_column_index(t, "n7", &at) == PQT_NOT_FOUND);
    CHECK_OK(pqt_table_column_index(t, "seventh", &at));
    CHECK_EQ_I64(at, 7);
    /* a drop moves everything after it */
    const char *drop[] = {"n0", "n1"};
    CHECK_OK(pqt_table_drop_columns(t, drop, 2, 0));
    CHECK(pqt_table_column_index(t, "n0", &at) == PQT_NOT_FOUND);
    CHECK_OK(pqt_table_column_index(t, "seventh", &at));
    CHECK_EQ_I64(at, 5);
    CHECK_OK(pqt_table_column_index(t, "bigint_col", &at));
    CHECK_EQ_I64(at, N + M + 9 - 2 - 6); /* bigint_col .. timestamp_col are the last six */
    /* the row index, added by a read after the names were indexed, is found past them */
    CHECK(pqt_table_column_index(t, "parquet_row_index", &at) == PQT_NOT_FOUND);
    int64_t ri[8];
    CHECK_OK(pqt_table_get(t, "parquet_row_index", PQT_INT64, ri, sizeof ri, NULL, 0));
    CHECK(ri[0] == 1 && ri[7] == 8);
    CHECK_OK(pqt_table_column_index(t, "parquet_row_index", &at));
    CHECK_EQ_I64(at, N + M + 9 - 2);
    CHECK_OK(pqt_table_column_index(t, "m0", &at));
    CHECK_EQ_I64(at, N - 2 + 3);
    pqt_table_close(t);
}

int main(void)
{
    test_many_entries();
    test_wide_lookups();
    test_lookup_and_read();
    test_shadow_and_twins();
    test_filter_in_internal_names();
    test_row_index_name();
    test_errors();
    return pqt_test_done("test_maml_remap");
}
