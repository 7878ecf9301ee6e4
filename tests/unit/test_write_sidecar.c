/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_sidecar.c - the verbatim `.maml` sidecar of a writer given a MAML (docs/writing.md;
 * issue 14): the MAML source byte for byte (comments, quoting, indentation
 * kept) with the fields: entries of columns not written cut out (unless none would remain)
 * and the PQT_WOPT_METADATA entries appended as keyarray: items (to a block list, a flow
 * list, or a new section), each compared with a hand-written expected text; reopening the
 * file with the sidecar (pqt_opts_set_maml) gives the units back.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"

static char g_dir[256];

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", g_dir, name);
}

/* a int32, b float64, c int64; 2 rows */
static pqt_table *three_cols(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t a[2] = {1, 2};
    double b[2] = {0.5, 1.5};
    int64_t c[2] = {10, 20};
    CHECK_OK(pqt_table_add_column(t, "a", PQT_INT32, 1, a, NULL, 2, NULL));
    CHECK_OK(pqt_table_add_column(t, "b", PQT_FLOAT64, 1, b, NULL, 2, NULL));
    CHECK_OK(pqt_table_add_column(t, "c", PQT_INT64, 1, c, NULL, 2, NULL));
    return t;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = 0;
    return buf;
}

/* Write three_cols() to name.parquet with the MAML text and the runtime entries; the
 * sidecar name.maml must be want. */
static void sidecar_is(const char *name, const char *maml, const char *const *kv, int nkv,
                       bool maml_as_file, const char *want)
{
    char p[300], side[300], mp[300];
    snprintf(mp, sizeof mp, "%s/%s.src.yaml", g_dir, name);
    snprintf(p, sizeof p, "%s/%s.parquet", g_dir, name);
    snprintf(side, sizeof side, "%s/%s.maml", g_dir, name);
    pqt_table *t = three_cols();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_WRITE_MAML, 1));
    if (maml_as_file) {
        FILE *fp = fopen(mp, "wb");
        REQUIRE_OK(fp == NULL);
        fputs(maml, fp);
        fclose(fp);
        CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML, mp));
    } else {
        CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT, maml));
    }
    for (int i = 0; i < nkv; i++) CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_METADATA, kv[i]));
    REQUIRE_OK(pqt_write_table(t, p, o));
    const char *got = slurp(side);
    CHECK(got != NULL);
    if (got && strcmp(got, want) != 0) {
        fprintf(stderr, "%s: sidecar\n---\n%s---\nwant\n---\n%s---\n", name, got, want);
        CHECK(0);
    }
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

static const char *unit_of(pqt_table *t, const char *name)
{
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, name, &u));
    return u ? u : "(none)";
}

/* a block keyarray: gets the runtime entries after its own; 'gone' is cut from fields: */
static void block(void)
{
    const char *kv[] = {"run=7", "note=it's \"x\"\tok"};
    sidecar_is("block",
               "# survey catalogue\n"
               "table: t\n"
               "fields:\n"
               "  - name: a\n"
               "    unit: deg   # right ascension\n"
               "  - name: gone\n"
               "    data_type: float64\n"
               "    unit: m\n"
               "  - b:\n"
               "      unit: kg\n"
               "keyarray:\n"
               "  - key: ZP\n"
               "    value: '25.0'\n"
               "extra:\n"
               "  protected_cols: a\n",
               kv, 2, true,
               "# survey catalogue\n"
               "table: t\n"
               "fields:\n"
               "  - name: a\n"
               "    unit: deg   # right ascension\n"
               "  - b:\n"
               "      unit: kg\n"
               "keyarray:\n"
               "  - key: ZP\n"
               "    value: '25.0'\n"
               "  - key: \"run\"\n"
               "    value: \"7\"\n"
               "  - key: \"note\"\n"
               "    value: \"it's \\\"x\\\"\\tok\"\n"
               "extra:\n"
               "  protected_cols: a\n");
    /* the sidecar is a read-in MAML for the file: units and the runtime entry come back */
    char p[300], side[300];
    path_of(p, sizeof p, "block.parquet");
    path_of(side, sizeof side, "block.maml");
    pqt_opts *ro = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    REQUIRE_OK(pqt_opts_set_maml(ro, side));
    pqt_table *r = NULL;
    REQUIRE_OK(pqt_table_open(p, ro, &r));
    CHECK(strcmp(unit_of(r, "a"), "deg") == 0);
    CHECK(strcmp(unit_of(r, "b"), "kg") == 0);
    CHECK(strcmp(unit_of(r, "c"), "") == 0);
    const char *v = NULL;
    CHECK_OK(pqt_table_maml_value(r, "table", &v));
    CHECK(v && strcmp(v, "t") == 0);
    pqt_table_close(r);
    pqt_opts_free(ro);
}

/* no keyarray: a new section at the end (a newline added first); every field unwritten:
 * none is cut */
static void new_section(void)
{
    const char *kv[] = {"k=v"};
    sidecar_is("newsec", "table: t\nfields:\n  - name: x\n  - name: y", kv, 1, false,
               "table: t\nfields:\n  - name: x\n  - name: y\n"
               "keyarray:\n  - key: \"k\"\n    value: \"v\"\n");
}

/* a flow keyarray: the items join the list; the last field of an indentless list is cut */
static void flow(void)
{
    const char *kv[] = {"k=v", "n=1"};
    sidecar_is("flow",
               "table: t\nfields:\n- name: a\n- name: zz\n  unit: m\nkeyarray: [{key: A, value: B}]\n",
               kv, 2, false,
               "table: t\nfields:\n- name: a\n"
               "keyarray: [{key: A, value: B}, {key: \"k\", value: \"v\"}, {key: \"n\", value: \"1\"}]\n");
    sidecar_is("empty_flow", "table: t\nkeyarray: []\nfields:\n  - name: c\n", kv, 1, false,
               "table: t\nkeyarray: [{key: \"k\", value: \"v\"}]\nfields:\n  - name: c\n");
}

/* "keyarray:" with no value; no runtime entries: the text is kept as it is */
static void empty_and_none(void)
{
    const char *kv[] = {"k=v"};
    sidecar_is("emptyka", "table: t\nkeyarray:\nfields:\n  - name: a\n", kv, 1, false,
               "table: t\nkeyarray:\n  - key: \"k\"\n    value: \"v\"\nfields:\n  - name: a\n");
    sidecar_is("none", "table: t   # x\r\nfields:\r\n  - name: a\r\n", NULL, 0, false,
               "table: t   # x\r\nfields:\r\n  - name: a\r\n");
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_sidecar_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    block();
    new_section();
    flow();
    empty_and_none();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_sidecar");
}
