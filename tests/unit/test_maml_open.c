/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_maml_open.c - a read-in MAML through the public API (docs/maml.md): units of fields:
 * by column name before any read (scan counters and residency prove nothing was read),
 * table-level values, clone, a failed set changing nothing, the checks made at open against
 * the file, the slice refusal before the file is opened, keys not built yet refused, and
 * pqt_maml_check_alloc. File: parquet-testing's alltypes_plain.parquet (columns listed by
 * `pqt schema`); expected units are the ones written in tests/data/maml/.
 */
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define FILE_ "tests/data/parquet-testing/data/alltypes_plain.parquet"
#define DIR_ "tests/data/maml/"

static int unit_is(pqt_table *t, const char *col, const char *want)
{
    const char *u = NULL;
    if (pqt_table_unit(t, col, &u) != PQT_OK || !u) return 0;
    if (!strcmp(u, want)) return 1;
    fprintf(stderr, "%s: unit '%s', want '%s'\n", col, u, want);
    return 0;
}

static void nothing_read(pqt_table *t)
{
    pqt_scan_counts sc;
    CHECK_OK(pqt_table_scan_stats(t, &sc));
    CHECK_EQ_I64(sc.pages_decompressed, 0);
    CHECK_EQ_I64(sc.values_decoded, 0);
    for (int i = 0; i < pqt_table_ncols(t); i++) {
        int res = -1;
        CHECK_OK(pqt_table_residency(t, pqt_table_column_name(t, i), &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY);
    }
}

static void test_units_and_values(void)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_maml(o, DIR_ "alltypes_units.maml"));
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(FILE_, o, &t));
    CHECK(unit_is(t, "double_col", "m/s"));
    CHECK(unit_is(t, "float_col", ""));      /* UNITLESS, any case */
    CHECK(unit_is(t, "id", "Count"));        /* values keep their case */
    CHECK(unit_is(t, "bool_col", ""));       /* not in the MAML */
    CHECK(!pqt_table_has_column(t, "not_in_file")); /* a field the file lacks is ignored */
    nothing_read(t);
    const char *v = NULL;
    CHECK_OK(pqt_table_maml_value(t, "table", &v));
    CHECK(v && !strcmp(v, "alltypes"));
    CHECK_OK(pqt_table_maml_value(t, "SURVEY", &v));
    CHECK(v && !strcmp(v, "testing"));
    CHECK_OK(pqt_table_maml_value(t, "keywords", &v));
    CHECK(v && !strcmp(v, "a;b;c"));
    CHECK(pqt_table_maml_value(t, "author", &v) == PQT_NOT_FOUND);
    CHECK(pqt_table_maml_value(t, "extra", &v) == PQT_NOT_FOUND);
    /* info and ucd of a field, asked by table name */
    CHECK_OK(pqt_table_maml_field_value(t, "double_col", "Info", &v));
    CHECK(v && !strcmp(v, "a speed"));
    CHECK_OK(pqt_table_maml_field_value(t, "double_col", "ucd", &v));
    CHECK(v && !strcmp(v, "phys.veloc;meta.main"));
    CHECK(pqt_table_maml_field_value(t, "double_col", "data_type", &v) == PQT_NOT_FOUND);
    CHECK(pqt_table_maml_field_value(t, "id", "info", &v) == PQT_NOT_FOUND);
    CHECK(pqt_table_maml_field_value(t, "bool_col", "info", &v) == PQT_NOT_FOUND);
    CHECK(pqt_table_maml_field_value(t, "nope", "info", &v) == PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "nope") != NULL);
    CHECK(pqt_table_maml_field_value(t, "id", "colour", &v) == PQT_MISUSE);
    /* the file's own metadata is still there, separately */
    CHECK(pqt_table_meta_value(t, "table", &v) == PQT_NOT_FOUND);

    /* the unit travels with the values: read, then clone */
    double d[8];
    CHECK_OK(pqt_table_get(t, "double_col", PQT_FLOAT64, d, sizeof d, NULL, 0));
    CHECK(d[1] == 10.1); /* alltypes_plain: double_col is 0, 10.1, 0, 10.1, ... */
    CHECK(unit_is(t, "double_col", "m/s"));
    pqt_table *c;
    REQUIRE_OK(pqt_table_clone(t, &c));
    CHECK(unit_is(c, "double_col", "m/s"));
    CHECK(unit_is(c, "id", "Count"));
    CHECK_OK(pqt_table_maml_value(c, "table", &v));
    CHECK(v && !strcmp(v, "alltypes"));
    pqt_table_close(t); /* the clone keeps its own reference */
    CHECK_OK(pqt_table_maml_value(c, "Table", &v));
    CHECK(v && !strcmp(v, "alltypes"));
    pqt_table_close(c);

    /* a failed set changes nothing: the MAML set before still applies */
    CHECK(pqt_opts_set_maml_text(o, "table: t\nbogus: 1\n") == PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "pqt_opts_set_maml_text: ") != NULL);
    CHECK(strstr(pqt_errmsg(), "line 2: unknown section 'bogus'") != NULL);
    REQUIRE_OK(pqt_table_open(FILE_, o, &t));
    CHECK(unit_is(t, "double_col", "m/s"));
    pqt_table_close(t);
    /* the text form, replacing; then NULL removes it */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "fields:\n  - name: id\n    unit: s\n"));
    REQUIRE_OK(pqt_table_open(FILE_, o, &t));
    CHECK(unit_is(t, "id", "s"));
    CHECK(unit_is(t, "double_col", ""));
    CHECK(pqt_table_maml_value(t, "table", &v) == PQT_NOT_FOUND);
    pqt_table_close(t);
    REQUIRE_OK(pqt_opts_set_maml(o, NULL));
    REQUIRE_OK(pqt_table_open(FILE_, o, &t));
    CHECK(unit_is(t, "id", ""));
    pqt_table_close(t);
    /* CRLF line endings */
    REQUIRE_OK(pqt_opts_set_maml(o, DIR_ "crlf.maml"));
    REQUIRE_OK(pqt_table_open(FILE_, o, &t));
    CHECK(unit_is(t, "id", "s"));
    pqt_table_close(t);
    pqt_opts_free(o);
}

static void test_checks_at_open(void)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    pqt_table *t = NULL;
    /* remap targets the file lacks: both named, at open */
    REQUIRE_OK(pqt_opts_set_maml(o, DIR_ "seed_remap.maml"));
    CHECK(pqt_table_open(FILE_, o, &t) == PQT_BAD_MAML);
    CHECK(t == NULL);
    CHECK(strstr(pqt_errmsg(), "2 problems") != NULL);
    CHECK(strstr(pqt_errmsg(), "line 5: extra: remap: 'mass' maps to 'MASS_KG', which is not a "
                               "column of the file") != NULL);
    CHECK(strstr(pqt_errmsg(), "line 6: extra: remap: 'ra' maps to 'RA_J2000'") != NULL);
    /* a sort on a slice: refused before the file is opened (this path does not exist) */
    REQUIRE_OK(pqt_opts_set_maml_text(o, "table: t\nextra:\n  sort:\n    - '-id'\n"));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 2));
    CHECK(pqt_table_open("/nonexistent/x.parquet", o, &t) == PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "MAML text: line 4: extra: sort: on a slice") != NULL);
    pqt_opts_free(o);
}

static void test_check_alloc(void)
{
    char *report = NULL;
    int n = -1;
    CHECK(pqt_maml_check_alloc(DIR_ "many_problems.maml", NULL, &report, &n) == PQT_BAD_MAML);
    CHECK_EQ_I64(n, 11);
    CHECK(report && strstr(report, "line 24: extra: remap: internal name 'x' is declared twice"));
    pqt_free(report);
    /* alone the examples' remap MAML is fine; against a file without its columns it is not */
    CHECK_OK(pqt_maml_check_alloc(DIR_ "seed_remap.maml", NULL, &report, &n));
    CHECK(report == NULL && n == 0);
    CHECK(pqt_maml_check_alloc(DIR_ "seed_remap.maml", FILE_, &report, &n) == PQT_BAD_MAML);
    CHECK_EQ_I64(n, 2);
    CHECK(report && strstr(report, "line 5: extra: remap: 'mass' maps to 'MASS_KG'"));
    pqt_free(report);
    CHECK(pqt_maml_check_alloc(DIR_ "absent.maml", NULL, &report, &n) == PQT_IO);
}

int main(void)
{
    test_units_and_values();
    test_checks_at_open();
    test_check_alloc();
    return pqt_test_done("test_maml_open");
}
