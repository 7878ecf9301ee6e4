/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_maml.c - the write-side MAML (docs/writing.md, issue 14):
 * protected_cols: are written REQUIRED and a null in one is refused with PQT_PROTECTED naming
 * the column and row, leaving the target path untouched; nullable_cols: are written OPTIONAL
 * though they hold no null; the two lists overlapping, or naming a column the table lacks, is
 * PQT_BAD_MAML listing the problems. col_map: writes columns under their output names
 * (streaming writer tables matched by internal name), refusing an unknown internal name, an
 * undeclared or colliding output name. The written schema is read back with pqt's file API.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

static char g_dir[256];

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", g_dir, name);
}

/* a: no nulls; b: no nulls; c: row 3 null */
static pqt_table *three_cols(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t a[4] = {1, 2, 3, 4};
    double b[4] = {0.5, 1.5, 2.5, 3.5};
    int64_t c[4] = {10, 20, 30, 40};
    uint8_t v_c = 0xb; /* rows 1, 2, 4 valid */
    CHECK_OK(pqt_table_add_column(t, "a", PQT_INT32, 1, a, NULL, 4, NULL));
    CHECK_OK(pqt_table_add_column(t, "b", PQT_FLOAT64, 1, b, NULL, 4, NULL));
    CHECK_OK(pqt_table_add_column(t, "c", PQT_INT64, 1, c, &v_c, 4, NULL));
    return t;
}

static const char *repetition_of(const pqt_file *f, const char *name)
{
    for (int k = 1; k < pqt_file_nnodes(f); k++)
        if (strcmp(pqt_file_node_name(f, k), name) == 0) return pqt_file_node_repetition(f, k);
    return "(absent)";
}

static void schema_repetition(void)
{
    char p[300];
    path_of(p, sizeof p, "prot.parquet");
    pqt_table *t = three_cols();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\n"
                                    "fields:\n  - name: a\n  - name: b\n"
                                    "extra:\n  protected_cols: a\n  nullable_cols:\n    - b\n"));
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    /* without the MAML a and b (no validity) would both be required, c optional */
    CHECK(strcmp(repetition_of(f, "a"), "required") == 0);
    CHECK(strcmp(repetition_of(f, "b"), "optional") == 0);
    CHECK(strcmp(repetition_of(f, "c"), "optional") == 0);
    pqt_file_close(f);

    /* the same through a MAML file, a;b;c scalar form: c holds a null at row 3 */
    char mp[300], q[300];
    path_of(mp, sizeof mp, "prot.maml");
    path_of(q, sizeof q, "refused.parquet");
    FILE *fp = fopen(mp, "w");
    REQUIRE_OK(fp == NULL);
    fputs("table: t\nfields:\n  - name: a\n  - name: c\nextra:\n  protected_cols: a; c\n", fp);
    fclose(fp);
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML, mp));
    CHECK_EQ_I64(pqt_write_table(t, q, o), PQT_PROTECTED);
    CHECK(strstr(pqt_errmsg(), "'c'") != NULL);
    CHECK(strstr(pqt_errmsg(), "row 3") != NULL);
    struct stat sb;
    CHECK(stat(q, &sb) != 0); /* the target is untouched */

    /* protecting only a (no nulls) writes */
    fp = fopen(mp, "w");
    REQUIRE_OK(fp == NULL);
    fputs("table: t\nfields:\n  - name: a\nextra:\n  protected_cols: [a]\n", fp);
    fclose(fp);
    CHECK_OK(pqt_write_table(t, q, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

static void bad_maml(void)
{
    char p[300];
    path_of(p, sizeof p, "bad.parquet");
    pqt_table *t = three_cols();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    /* two problems at once: an unknown section and a column in both lists */
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nbogus: 1\nfields:\n  - name: a\n"
                                    "extra:\n  protected_cols: a\n  nullable_cols: a\n"));
    CHECK_EQ_I64(pqt_write_table(t, p, o), PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "bogus") != NULL);
    CHECK(strstr(pqt_errmsg(), "both in protected_cols") != NULL);
    /* a declared field the table lacks */
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: zz\n"
                                    "extra:\n  protected_cols: zz\n"));
    CHECK_EQ_I64(pqt_write_table(t, p, o), PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "'zz' is not a column") != NULL);
    struct stat sb;
    CHECK(stat(p, &sb) != 0);
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* col_map: a -> alpha, c -> gamma; protected_cols: names the output alpha */
static void col_map(void)
{
    char p[300];
    path_of(p, sizeof p, "mapped.parquet");
    pqt_table *t = three_cols();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: alpha\n  - name: gamma\n"
                                    "extra:\n  col_map:\n    - a: alpha\n    - c: gamma\n"
                                    "  protected_cols: alpha\n"));
    /* the streaming writer: a second table is matched by the internal names */
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open(&w, p, t, o));
    CHECK_OK(pqt_writer_write(w, t));
    pqt_table *t2 = three_cols();
    CHECK_OK(pqt_writer_write(w, t2));
    REQUIRE_OK(pqt_writer_close(w));
    pqt_table_close(t2);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrows(f), 8);
    CHECK_EQ_I64(pqt_file_nnodes(f), 4);
    const char *want[4] = {"", "alpha", "b", "gamma"};
    for (int k = 1; k < 4 && k < pqt_file_nnodes(f); k++)
        CHECK(strcmp(pqt_file_node_name(f, k), want[k]) == 0);
    CHECK(strcmp(repetition_of(f, "alpha"), "required") == 0);
    CHECK(strcmp(repetition_of(f, "gamma"), "optional") == 0);
    pqt_file_close(f);

    char q[300];
    path_of(q, sizeof q, "mapped_bad.parquet");
    /* every problem at once: an internal name the table lacks, an undeclared output name */
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: alpha\n"
                                    "extra:\n  col_map:\n    - zz: alpha\n    - a: q\n"));
    CHECK_EQ_I64(pqt_write_table(t, q, o), PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "2 problems") != NULL);
    CHECK(strstr(pqt_errmsg(), "'zz' is not a column") != NULL);
    CHECK(strstr(pqt_errmsg(), "'q' is not a declared field") != NULL);
    /* an output name that is another column's */
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: b\n"
                                    "extra:\n  col_map:\n    - a: b\n"));
    CHECK_EQ_I64(pqt_write_table(t, q, o), PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "'b' collides") != NULL);
    /* the internal name also declared un-renamed */
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: alpha\n  - name: a\n"
                                    "extra:\n  col_map:\n    - a: alpha\n"));
    CHECK_EQ_I64(pqt_write_table(t, q, o), PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "'a' is renamed but also declared") != NULL);
    /* a swap is no collision */
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
                                    "table: t\nfields:\n  - name: a\n  - name: b\n"
                                    "extra:\n  col_map:\n    - a: b\n    - b: a\n"));
    REQUIRE_OK(pqt_write_table(t, q, o));
    REQUIRE_OK(pqt_file_open(q, NULL, &f));
    /* the int32 column a is now named b */
    CHECK(strcmp(pqt_file_node_name(f, 1), "b") == 0);
    CHECK(strcmp(pqt_file_node_physical(f, 1), "INT32") == 0);
    CHECK(strcmp(pqt_file_node_physical(f, 2), "DOUBLE") == 0);
    pqt_file_close(f);
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* docs/writing.md: the MAML's sections as key-value entries (expected values by hand) */
static void embedding(void)
{
    char p[300];
    path_of(p, sizeof p, "embed.parquet");
    pqt_table *t = three_cols();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
        "survey: GAMA\n"
        "table: t\n"
        "author:\n  - Ann\n  - Bob\n"
        "coauthors:\n  - Cy\n  - Di\n"
        "comments:\n  - first note\n"
        "keywords:\n  - galaxies\n  - redshift\n"
        "DOIs:\n  - DOI: 10.1/abc\n    type: paper\n  - DOI: 10.2/def\n"
        "depends:\n  - survey: S\n    table: T\n"
        "keyarray:\n  - key: ZP\n    value: '25.0'\n    comment: zero point\n"
        "fields:\n"
        "  - name: alpha\n    data_type: int32\n    unit: deg\n    info: right ascension\n"
        "    ucd:\n      - pos.eq.ra\n      - meta.main\n"
        "  - name: b\n    unit: unitless\n"
        "extra:\n  col_map:\n    - a: alpha\n  secret: nothing\n"));
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    pqt_test_meta_is(f, "column.alpha.unit", "deg");
    pqt_test_meta_is(f, "column.alpha.description", "right ascension");
    pqt_test_meta_is(f, "column.alpha.ucd", "pos.eq.ra;meta.main");
    pqt_test_meta_is(f, "column.alpha.data_type", "int32");
    pqt_test_meta_is(f, "column.b.unit", NULL); /* unitless: no unit */
    pqt_test_meta_is(f, "column.a.unit", NULL);
    pqt_test_meta_is(f, "survey", "GAMA");
    pqt_test_meta_is(f, "table", "t");
    pqt_test_meta_is(f, "author", "Ann");
    CHECK_EQ_I64(pqt_test_key_count(f, "author"), 2);
    pqt_test_meta_is(f, "coauthor_1", "Cy");
    pqt_test_meta_is(f, "coauthor_2", "Di");
    pqt_test_meta_is(f, "comment_1", "first note");
    pqt_test_meta_is(f, "comment_2", NULL);
    pqt_test_meta_is(f, "keywords", "galaxies;redshift");
    pqt_test_meta_is(f, "DOI_1", "10.1/abc");
    pqt_test_meta_is(f, "DOI_2", "10.2/def");
    pqt_test_meta_is(f, "depends_1", "S;;T;");
    pqt_test_meta_is(f, "ZP", "25.0");
    pqt_test_meta_is(f, "keyarray", NULL);
    pqt_test_meta_is(f, "extra", NULL);
    pqt_test_meta_is(f, "secret", NULL);
    pqt_test_meta_is(f, "col_map", NULL);
    pqt_file_close(f);
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

static const char *unit_of(const pqt_table *t, const char *name)
{
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, name, &u));
    return u ? u : "(none)";
}

/* PQT_WOPT_WRITE_MAML: the sidecar beside the file gives its units back when read in */
static void sidecar(void)
{
    char p[300], side[300], q[300], side2[300];
    path_of(p, sizeof p, "units.parquet");
    path_of(side, sizeof side, "units.maml");
    path_of(q, sizeof q, "it's.pq");
    path_of(side2, sizeof side2, "it's.pq.maml");
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    double a[3] = {1, 2, 3};
    int64_t ts[3] = {0, 1000, 2000};
    CHECK_OK(pqt_table_add_column(t, "ra", PQT_FLOAT64, 1, a, NULL, 3, "deg"));
    CHECK_OK(pqt_table_add_column(t, "mass 'M'", PQT_FLOAT64, 1, a, NULL, 3, "kg"));
    CHECK_OK(pqt_table_add_column(t, "n", PQT_INT64, 1, ts, NULL, 3, NULL));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_WRITE_MAML, 1));
    CHECK_EQ_I64(pqt_write_opts_set_int(o, PQT_WOPT_WRITE_MAML, 2), PQT_MISUSE);
    REQUIRE_OK(pqt_write_table(t, p, o));
    REQUIRE_OK(pqt_write_table(t, q, o));
    struct stat sb;
    CHECK(stat(side, &sb) == 0);
    CHECK(stat(side2, &sb) == 0);
    /* a second write without overwrite: the sidecar exists too */
    CHECK_EQ_I64(pqt_write_table(t, p, o), PQT_EXISTS);
    pqt_table_close(t);
    for (int k = 0; k < 2; k++) {
        pqt_opts *ro = NULL;
        REQUIRE_OK(pqt_opts_new(&ro));
        REQUIRE_OK(pqt_opts_set_maml(ro, k == 0 ? side : side2));
        pqt_table *r = NULL;
        REQUIRE_OK(pqt_table_open(k == 0 ? p : q, ro, &r));
        CHECK(strcmp(unit_of(r, "ra"), "deg") == 0);
        CHECK(strcmp(unit_of(r, "mass 'M'"), "kg") == 0);
        CHECK(strcmp(unit_of(r, "n"), "") == 0);
        const char *v = NULL;
        CHECK_OK(pqt_table_maml_value(r, "table", &v));
        CHECK(v && strcmp(v, k == 0 ? "units" : "it's.pq") == 0);
        CHECK_OK(pqt_table_maml_field_value(r, "ra", "data_type", &v));
        CHECK(v && strcmp(v, "float64") == 0);
        pqt_table_close(r);
        pqt_opts_free(ro);
    }
    pqt_write_opts_free(o);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_maml_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    schema_repetition();
    bad_maml();
    col_map();
    embedding();
    sidecar();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_maml");
}
