/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_meta.c - the key-value entries every written file gets (docs/writing.md,
 * IVOA VOParquet Note 1.0; issue 14): DATE (pinned by PQT_WOPT_FILE_DATE, which
 * shadows a user DATE; else the close time, UTC), name (MAML table: or the file's stem),
 * IVOA.VOTable-Parquet.version and .content compared byte for byte with hand-written VOTable
 * documents (escaping included), column.<name>.col_size of vectors and .array_size of MAML
 * strings (auto resolved to the longest value). A copy of a written file holds each key once,
 * regenerated for the copy. Invalid PQT_WOPT_FILE_DATE values are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

static char g_dir[256];

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", g_dir, name);
}

/* ra [deg], a name that needs escaping, a string, a float32 vector of width 3; 2 rows */
static pqt_table *sample(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    double ra[2] = {1.5, 2.5};
    int32_t n[2] = {1, 2};
    int64_t so[3] = {0, 2, 5};
    float v[6] = {1, 2, 3, 4, 5, 6};
    CHECK_OK(pqt_table_add_column(t, "ra", PQT_FLOAT64, 1, ra, NULL, 2, "deg"));
    CHECK_OK(pqt_table_add_column(t, "n<&>\"'", PQT_INT32, 1, n, NULL, 2, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, so, "abcde", NULL, 2, NULL));
    CHECK_OK(pqt_table_add_column(t, "v", PQT_FLOAT32 | PQT_VECTOR, 3, v, NULL, 2, NULL));
    return t;
}

static const char plain_votable[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<VOTABLE version=\"1.4\" xmlns=\"http://www.ivoa.net/xml/VOTable/v1.3\">\n"
    "<RESOURCE type=\"results\">\n"
    "<TABLE name=\"cat\" nrows=\"2\">\n"
    "<FIELD name=\"ra\" datatype=\"double\" unit=\"deg\"/>\n"
    "<FIELD name=\"n&lt;&amp;&gt;&quot;'\" datatype=\"int\"/>\n"
    "<FIELD name=\"s\" datatype=\"char\" arraysize=\"*\"/>\n"
    "<FIELD name=\"v\" datatype=\"float\" arraysize=\"3\"/>\n"
    "</TABLE>\n"
    "</RESOURCE>\n"
    "</VOTABLE>\n";

/* no MAML, DATE pinned (a user DATE is shadowed) */
static void plain(void)
{
    char p[300];
    path_of(p, sizeof p, "cat.parquet");
    pqt_table *t = sample();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_METADATA, "DATE=user"));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, "2024-02-29T12:34:56"));
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    pqt_test_meta_is(f, "DATE", "2024-02-29T12:34:56");
    CHECK_EQ_I64(pqt_test_key_count(f, "DATE"), 1);
    pqt_test_meta_is(f, "name", "cat");
    pqt_test_meta_is(f, "IVOA.VOTable-Parquet.version", "1.0");
    pqt_test_meta_is(f, "IVOA.VOTable-Parquet.content", plain_votable);
    pqt_test_meta_is(f, "column.ra.unit", "deg");
    pqt_test_meta_is(f, "column.v.col_size", "3");
    pqt_test_meta_is(f, "column.ra.col_size", NULL);
    pqt_test_meta_is(f, "column.s.array_size", NULL); /* no MAML array_size: no entry */
    pqt_file_close(f);
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* not pinned: the close time in UTC; a user DATE wins over it */
static void close_time(void)
{
    char p[300], q[300];
    path_of(p, sizeof p, "now.parquet");
    path_of(q, sizeof q, "user.parquet");
    pqt_table *t = sample();
    char before[32], after[32];
    time_t t0 = time(NULL);
    struct tm tm;
    strftime(before, sizeof before, "%Y-%m-%dT%H:%M:%S", gmtime_r(&t0, &tm));
    REQUIRE_OK(pqt_write_table(t, p, NULL));
    time_t t1 = time(NULL);
    strftime(after, sizeof after, "%Y-%m-%dT%H:%M:%S", gmtime_r(&t1, &tm));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    const char *d = NULL;
    CHECK_OK(pqt_file_meta_value(f, "DATE", &d));
    CHECK(d && strlen(d) == 19 && strcmp(d, before) >= 0 && strcmp(d, after) <= 0);
    pqt_file_close(f);
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_METADATA, "DATE=2001-01-01T00:00:00"));
    REQUIRE_OK(pqt_write_table(t, q, o));
    REQUIRE_OK(pqt_file_open(q, NULL, &f));
    pqt_test_meta_is(f, "DATE", "2001-01-01T00:00:00");
    CHECK_EQ_I64(pqt_test_key_count(f, "DATE"), 1);
    pqt_file_close(f);
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

static const char maml_votable[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<VOTABLE version=\"1.4\" xmlns=\"http://www.ivoa.net/xml/VOTable/v1.3\">\n"
    "<RESOURCE type=\"results\">\n"
    "<TABLE name=\"Gal &amp; Stars\" nrows=\"2\">\n"
    "<DESCRIPTION>two &lt;b&gt; lines</DESCRIPTION>\n"
    "<FIELD name=\"ra\" datatype=\"double\" unit=\"deg\" ucd=\"pos.eq.ra;meta.main\">\n"
    "<DESCRIPTION>right \"ascension\" &amp; more</DESCRIPTION>\n"
    "</FIELD>\n"
    "<FIELD name=\"s\" datatype=\"char\" arraysize=\"8*\"/>\n"
    "<FIELD name=\"t\" datatype=\"char\" arraysize=\"5*\"/>\n"
    "</TABLE>\n"
    "</RESOURCE>\n"
    "</VOTABLE>\n";

/* a MAML: table:, description:, info/ucd/unit and array_size (a number, auto) */
static void with_maml(void)
{
    char p[300];
    path_of(p, sizeof p, "maml.parquet");
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    double ra[2] = {1.5, 2.5};
    int64_t so[3] = {0, 2, 5}, to[3] = {0, 1, 6};
    CHECK_OK(pqt_table_add_column(t, "ra", PQT_FLOAT64, 1, ra, NULL, 2, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, so, "abcde", NULL, 2, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "t", 1, to, "ahello", NULL, 2, NULL));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_MAML_TEXT,
        "table: Gal & Stars\n"
        "description: two <b> lines\n"
        "fields:\n"
        "  - name: ra\n    data_type: float64\n    unit: deg\n"
        "    info: right \"ascension\" & more\n    ucd: pos.eq.ra;meta.main\n"
        "  - name: s\n    data_type: string\n    array_size: 8\n"
        "  - name: t\n    data_type: string\n    array_size: auto\n"));
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    pqt_test_meta_is(f, "name", "Gal & Stars");
    pqt_test_meta_is(f, "column.s.array_size", "8");
    pqt_test_meta_is(f, "column.t.array_size", "5");
    pqt_test_meta_is(f, "IVOA.VOTable-Parquet.content", maml_votable);
    pqt_file_close(f);
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* a copy of a written file: each key once, regenerated (name, DATE, nrows of the copy) */
static void copy_no_duplicates(void)
{
    char p[300], q[300];
    path_of(p, sizeof p, "cat.parquet"); /* written by plain() */
    path_of(q, sizeof q, "copy.parquet");
    pqt_table *t = NULL;
    pqt_opts *ro = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    REQUIRE_OK(pqt_opts_set_int(ro, PQT_OPT_ROW_HI, 1));
    REQUIRE_OK(pqt_table_open(p, ro, &t));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, "2025-01-02T03:04:05"));
    REQUIRE_OK(pqt_write_table(t, q, o));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(q, NULL, &f));
    const char *keys[] = {"DATE", "name", "IVOA.VOTable-Parquet.version",
                          "IVOA.VOTable-Parquet.content", "column.v.col_size", "column.ra.unit"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) CHECK_EQ_I64(pqt_test_key_count(f, keys[i]), 1);
    pqt_test_meta_is(f, "DATE", "2025-01-02T03:04:05");
    pqt_test_meta_is(f, "name", "copy");
    pqt_test_meta_is(f, "column.v.col_size", "3"); /* measured from the rows read lazily */
    const char *c = NULL;
    CHECK_OK(pqt_file_meta_value(f, "IVOA.VOTable-Parquet.content", &c));
    CHECK(c && strstr(c, "<TABLE name=\"copy\" nrows=\"1\">\n") != NULL);
    CHECK(c && strstr(c, "<FIELD name=\"v\" datatype=\"float\" arraysize=\"3\"/>\n") != NULL);
    pqt_file_close(f);
    pqt_write_opts_free(o);
    pqt_opts_free(ro);
    pqt_table_close(t);
}

/* zero rows: a vector's width comes from the template */
static void zero_rows(void)
{
    char p[300];
    path_of(p, sizeof p, "empty.pq");
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    float v[1] = {0};
    CHECK_OK(pqt_table_add_column(t, "v", PQT_FLOAT32 | PQT_VECTOR, 4, v, NULL, 0, NULL));
    REQUIRE_OK(pqt_write_table(t, p, NULL));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    pqt_test_meta_is(f, "column.v.col_size", "4");
    pqt_test_meta_is(f, "name", "empty.pq"); /* the stem drops only .parquet, as the sidecar's */
    pqt_file_close(f);
    pqt_table_close(t);
}

static void bad_dates(void)
{
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    const char *bad[] = {"2023-02-29T00:00:00", "2024-13-01T00:00:00", "2024-01-01 00:00:00",
                         "2024-01-01T24:00:00", "2024-04-31T00:00:00", "2024-01-01T00:00",
                         "2024-01-01T00:00:60", "24-01-01T00:00:00Z"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_I64(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, bad[i]), PQT_MISUSE);
        CHECK(strstr(pqt_errmsg(), bad[i]) != NULL);
    }
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, "2000-02-29T23:59:59"));
    CHECK_EQ_I64(pqt_write_opts_set_int(o, PQT_WOPT_FILE_DATE, 1), PQT_MISUSE);
    pqt_write_opts_free(o);
}

/* SOURCE_DATE_EPOCH (seconds since 1970) is the DATE when set and well formed, ignored
 * otherwise; PQT_WOPT_FILE_DATE "" writes no DATE entry, not even a user's */
static void source_date(void)
{
    char p[300];
    path_of(p, sizeof p, "epoch.parquet");
    pqt_table *t = sample();
    pqt_file *f = NULL;
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1); /* 2023-11-14T22:13:20Z by hand: */
    REQUIRE_OK(pqt_write_table(t, p, NULL));      /* 19675 days + 80000 s */
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    pqt_test_meta_is(f, "DATE", "2023-11-14T22:13:20");
    pqt_file_close(f);
    remove(p);
    setenv("SOURCE_DATE_EPOCH", "0", 1);
    REQUIRE_OK(pqt_write_table(t, p, NULL));
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    pqt_test_meta_is(f, "DATE", "1970-01-01T00:00:00");
    pqt_file_close(f);
    remove(p);
    const char *bad[] = {"", "-5", "17e8", "1700000000 ", "253402300800"}; /* ignored */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("SOURCE_DATE_EPOCH", bad[i], 1);
        REQUIRE_OK(pqt_write_table(t, p, NULL));
        REQUIRE_OK(pqt_file_open(p, NULL, &f));
        const char *d = NULL;
        CHECK_OK(pqt_file_meta_value(f, "DATE", &d));
        CHECK(d && strncmp(d, "2024", 4) >= 0); /* the clock's */
        pqt_file_close(f);
        remove(p);
    }
    unsetenv("SOURCE_DATE_EPOCH");
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_METADATA, "DATE=user"));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, ""));
    REQUIRE_OK(pqt_write_table(t, p, o));
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    CHECK_EQ_I64(pqt_test_key_count(f, "DATE"), 0);
    pqt_test_meta_is(f, "name", "epoch");
    pqt_file_close(f);
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_meta_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    plain();
    close_time();
    with_maml();
    copy_no_duplicates();
    zero_rows();
    bad_dates();
    source_date();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_meta");
}
