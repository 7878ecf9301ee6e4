/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_import_duckdb.c - Arrow import against a producer that is not ours: DuckDB
 * (its C library, loaded by tests/unit/duckdb_dl.c; absent: exit 77, skipped).
 *
 *  1. the harness: a stream built by hand in C, registered in DuckDB as a view and queried
 *     (what a consumer test of pqt's export will do), read as we built it and released;
 *  2. a DuckDB query producing every type pqt imports (integers of every width, unsigned,
 *     floats, booleans, strings plain and as views, blobs, decimals of 9, 18 and 38 digits,
 *     dates, times, timestamps in four units and with a time zone, UUIDs, lists, lists of
 *     strings, fixed-size arrays, structs, enums (dictionaries), with nulls at every level,
 *     several batches) exported by DuckDB as Arrow and written with pqt_write_arrow_stream;
 *     DuckDB's read_parquet of the file gives, row by row as text, what the query itself
 *     gives (decimals compared as doubles, pqt's reading of them; time zones as epochs);
 *  3. the same export through pqt_table_from_arrow_stream, written with pqt_write_table:
 *     the same rows again; and pqt's own reading of the first file equals that table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "duckdb_dl.h"
#include "pqt_arrow.h"
#include "test_arrow_import_build.h"
#include "testutil.h"

static char g_dir[256];

/* 1: x int32 {1, 2, NULL}, s utf8 {"a", "bc", ""} with offset 1 in its buffers */
static void test_harness(pqt_duck *d)
{
    static const int32_t x[] = {1, 2, 77};
    static const uint8_t x_valid[] = {0x03};
    static const int32_t s_off[] = {5, 0, 1, 3, 3};
    static const char s_dat[] = "abc";
    ta_reset();
    ta_stream p;
    memset(&p, 0, sizeof p);
    p.schema = ta_sch_new("+s", "", 2, ta_sch_new("i", "x", 0), ta_sch_new("u", "s", 0));
    p.batches[0] = ta_kids(ta_arr_new(3, 0, 0, 1, NULL), 2, ta_arr_new(3, 0, 1, 2, x_valid, x),
                           ta_arr_new(3, 1, 0, 3, NULL, s_off, s_dat));
    p.nbatch = 1, p.fail_at = -1;
    struct ArrowArrayStream s;
    ta_stream_init(&s, &p);
    char *got =
        pqt_duck_scan_text(d, &s, "hand", "SELECT x, s, length(s) FROM hand ORDER BY x NULLS LAST");
    if (!got) fprintf(stderr, "%s\n", pqt_duck_error(d));
    CHECK(got && strcmp(got, "1|a|1\n2|bc|2\nNULL||0\n") == 0);
    if (got && strcmp(got, "1|a|1\n2|bc|2\nNULL||0\n") != 0) fprintf(stderr, "got:\n%s", got);
    free(got);
    /* DuckDB's arrow scan releases each batch it takes; the schemas it asks for it does not
     * release (DuckDB 1.5.6), so only batches and the stream are counted */
    CHECK_EQ_I64(ta_batch_out, 1);
    CHECK_EQ_I64(ta_batch_rel, 1);
    CHECK_EQ_I64(ta_stream_rel, 1);
}

/* 2: the query, its columns, and how each is compared: ref over the query's table q, back
 * over the file read by DuckDB (NULL: the column itself on both sides). */
typedef struct col_cmp {
    const char *name, *ref, *back;
} col_cmp;

static const col_cmp cols[] = {
    {"id", NULL, NULL},
    {"i8", NULL, NULL},
    {"i16", NULL, NULL},
    {"i32", NULL, NULL},
    {"i64", NULL, NULL},
    {"u8", NULL, NULL},
    {"u16", NULL, NULL},
    {"u32", NULL, NULL},
    {"u64", NULL, NULL},
    {"f32", NULL, NULL},
    {"f64", NULL, NULL},
    {"flag", "flag::INTEGER", "flag::INTEGER"},
    {"s", NULL, NULL},
    {"bin", NULL, NULL},
    {"d", NULL, NULL},
    {"t", NULL, NULL},
    {"ts", NULL, NULL},
    {"tsns", NULL, NULL},
    {"u", NULL, NULL},
    {"lst", NULL, NULL},
    {"slst", NULL, NULL},
    {"vec", "coalesce(vec::DOUBLE[], [NULL, NULL, NULL])", NULL},
    {"e", NULL, NULL},
    {"dec9", "dec9::DOUBLE", NULL},
    {"dec18", "dec18::DOUBLE", NULL},
    /* pqt converts as its Parquet reader does, unscaled / 10^scale; DuckDB splits off the
     * integer part first: the two may differ in the last bit past 2^53 */
    {"dec38", "printf('%.14e', dec38::DOUBLE)", "printf('%.14e', dec38)"},
    {"tss", "epoch_ms(tss)", "epoch_ms(tss)"},
    {"tsms", "epoch_ms(tsms)", "epoch_ms(tsms)"},
    {"tstz", "epoch_us(tstz)", "epoch_us(tstz)"},
    {"st.a", "st.a", "\"st.a\""},
    {"st.b", "st.b", "\"st.b\""},
};
#define NCOLS ((int)(sizeof cols / sizeof cols[0]))

/* The query's columns; every 13th row null in most of them (the CASE of N13). */
#define N13(e, name) "CASE WHEN i % 13 = 5 THEN NULL ELSE " e " END AS " name
/* clang-format off */
static const char *const query_cols[] = {
    "i AS id",
    N13("(i % 200 - 100)::TINYINT", "i8"),
    N13("(i * 7 % 30000 - 15000)::SMALLINT", "i16"),
    N13("(i * 3 - 7000)::INTEGER", "i32"),
    N13("i::BIGINT * 1000000007 - 3000000000000", "i64"),
    N13("(i % 250)::UTINYINT", "u8"),
    N13("(i * 13 % 65000)::USMALLINT", "u16"),
    N13("(4294967295 - i::BIGINT * 800001)::UINTEGER", "u32"),
    N13("(18446744073709551615 - i * 3)::UBIGINT", "u64"),
    N13("(i / 7.0 - 100)::FLOAT", "f32"),
    N13("i / 3.0::DOUBLE - 1e6", "f64"),
    N13("i % 3 = 0", "flag"),
    N13("repeat('s', i % 17) || i", "s"),
    N13("('b' || i)::BLOB", "bin"),
    N13("(i * 1.25 - 99)::DECIMAL(9,2)", "dec9"),
    N13("(i * 12345.678 - 1e7)::DECIMAL(18,3)", "dec18"),
    N13("(i::HUGEINT * 100000000000000000000 - 7)::DECIMAL(38,4)", "dec38"),
    N13("DATE '1960-01-01' + (i * 11)::INTEGER", "d"),
    N13("TIME '00:00:00' + INTERVAL (i * 17) SECOND", "t"),
    N13("TIMESTAMP '1969-12-31 23:00:00' + INTERVAL (i * 77777) MILLISECOND", "ts"),
    N13("make_timestamp_ns(i * 1000000007 - 5000)", "tsns"),
    N13("(TIMESTAMP '1999-01-01' + INTERVAL (i) HOUR)::TIMESTAMP_S", "tss"),
    N13("(TIMESTAMP '1999-01-01' + INTERVAL (i * 1001) MILLISECOND)::TIMESTAMP_MS", "tsms"),
    N13("TIMESTAMPTZ '2020-01-01 00:00:00+00' + INTERVAL (i) MINUTE", "tstz"),
    N13("('0000' || lpad(i::VARCHAR, 4, '0') || '-1234-5678-9abc-def012345678')::UUID", "u"),
    "CASE WHEN i % 5 = 1 THEN NULL WHEN i % 5 = 2 THEN [] ELSE [i, NULL, i * 2]::BIGINT[] END "
        "AS lst",
    "CASE WHEN i % 6 = 1 THEN NULL ELSE ['a' || i, NULL, ''] END AS slst",
    "(CASE WHEN i % 9 = 4 THEN NULL ELSE [i::DOUBLE, i / 2, -i] END)::DOUBLE[3] AS vec",
    "CASE WHEN i % 7 = 3 THEN NULL ELSE {'a': CASE WHEN i % 4 = 0 THEN NULL ELSE i END, "
        "'b': 'x' || i} END AS st",
    N13("(['lo', 'mid', 'hi'])[i % 3 + 1]::mood", "e"),
};
/* clang-format on */
#define NQUERY ((int)(sizeof query_cols / sizeof query_cols[0]))

/* CREATE TABLE q AS the query over 5000 rows (3 DuckDB chunks). */
static char *create_q(pqt_duck *d)
{
    char sql[8192];
    size_t n = (size_t)snprintf(sql, sizeof sql, "CREATE TABLE q AS SELECT ");
    for (int c = 0; c < NQUERY; c++)
        n += (size_t)snprintf(sql + n, sizeof sql - n, "%s%s", c ? ", " : "", query_cols[c]);
    snprintf(sql + n, sizeof sql - n, " FROM range(5000) r(i)");
    return pqt_duck_text(d, sql);
}

/* The rows of the comparison, over q (ref) or over the file (back). */
static char *rows(pqt_duck *d, int back, const char *path)
{
    char sql[8192];
    size_t n = (size_t)snprintf(sql, sizeof sql, "SELECT ");
    for (int c = 0; c < NCOLS; c++) {
        const char *e = back ? cols[c].back : cols[c].ref;
        n += (size_t)snprintf(sql + n, sizeof sql - n, "%s(%s)::VARCHAR", c ? ", " : "",
                              e ? e : cols[c].name);
    }
    if (back)
        snprintf(sql + n, sizeof sql - n, " FROM read_parquet('%s') ORDER BY id", path);
    else
        snprintf(sql + n, sizeof sql - n, " FROM q ORDER BY id");
    char *r = pqt_duck_text(d, sql);
    if (!r) fprintf(stderr, "%s\n", pqt_duck_error(d));
    return r;
}

/* The first line where a and b differ, for the message. */
static void report_diff(const char *what, const char *a, const char *b)
{
    int line = 1;
    while (*a && *a == *b) {
        if (*a == '\n') line++;
        a++, b++;
    }
    fprintf(stderr, "%s: rows differ at line %d:\n  want %.300s\n  got  %.300s\n", what, line, a,
            b);
}

static void compare(pqt_duck *d, const char *what, const char *path)
{
    char *want = rows(d, 0, "");
    char *got = rows(d, 1, path);
    CHECK(want && got);
    if (want && got && strcmp(want, got) != 0) {
        report_diff(what, want, got);
        pqt_test_failures++;
    }
    CHECK(want && strlen(want) > 5000 * 20); /* 5000 rows of about 30 values */
    free(want);
    free(got);
}

/* Two tables with the same columns, kinds and values (pqt's views, element by element). */
static void same_tables(pqt_table *a, pqt_table *b)
{
    CHECK_EQ_I64(pqt_table_nrows(a), pqt_table_nrows(b));
    for (int c = 0; c < NCOLS; c++) {
        pqt_column_view va = {.struct_size = sizeof va}, vb = {.struct_size = sizeof vb};
        if (pqt_table_column(a, cols[c].name, 0, &va) != PQT_OK ||
            pqt_table_column(b, cols[c].name, 0, &vb) != PQT_OK) {
            fprintf(stderr, "column %s: %s\n", cols[c].name, pqt_errmsg());
            pqt_test_failures++;
            continue;
        }
        int ok = va.kind == vb.kind && va.nelem == vb.nelem && va.time_unit == vb.time_unit;
        size_t esz = pqt_kind_elem_nbytes(va.kind);
        for (int64_t e = 0; ok && e < va.nelem; e++) {
            int na = va.validity && !(va.validity[e / 8] >> (e % 8) & 1);
            int nb = vb.validity && !(vb.validity[e / 8] >> (e % 8) & 1);
            ok = na == nb;
            if (!ok || na) continue;
            if (PQT_KIND_IS_BYTES(va.kind)) {
                int64_t la = va.str_offsets[e + 1] - va.str_offsets[e];
                ok = la == vb.str_offsets[e + 1] - vb.str_offsets[e] &&
                     memcmp(va.str_bytes + va.str_offsets[e], vb.str_bytes + vb.str_offsets[e],
                            (size_t)la) == 0;
            } else {
                ok = memcmp((const char *)va.data + e * esz, (const char *)vb.data + e * esz,
                            esz) == 0;
            }
        }
        if (!ok) {
            fprintf(stderr, "column %s: pqt's reading of the file differs from the import\n",
                    cols[c].name);
            pqt_test_failures++;
        }
    }
}

/* views: strings as utf8_view; lossless: UUIDs as arrow.uuid and booleans as int8 (DuckDB's
 * arrow_lossless_conversion), else UUIDs as text and booleans as bits */
static void test_query(pqt_duck *d, int views, int lossless)
{
    char path1[512], path2[512];
    snprintf(path1, sizeof path1, "%s/stream.parquet", g_dir);
    snprintf(path2, sizeof path2, "%s/table.parquet", g_dir);
    free(pqt_duck_text(d, views ? "SET produce_arrow_string_view = true"
                                : "SET produce_arrow_string_view = false"));
    free(pqt_duck_text(d, lossless ? "SET arrow_lossless_conversion = true"
                                   : "SET arrow_lossless_conversion = false"));
    struct ArrowArrayStream s;
    if (pqt_duck_query_arrow(d, "SELECT * FROM q ORDER BY id", &s) != 0) {
        fprintf(stderr, "%s\n", pqt_duck_error(d));
        pqt_test_failures++;
        return;
    }
    CHECK_OK(pqt_write_arrow_stream(path1, &s, NULL));
    CHECK(s.release == NULL);
    compare(d, views ? "pqt_write_arrow_stream (string views, bits)" : "pqt_write_arrow_stream",
            path1);

    pqt_table *t = NULL, *back = NULL;
    if (pqt_duck_query_arrow(d, "SELECT * FROM q ORDER BY id", &s) != 0) return;
    CHECK_OK(pqt_table_from_arrow_stream(&s, &t));
    if (t) {
        CHECK_OK(pqt_write_table(t, path2, NULL));
        compare(d, "pqt_table_from_arrow_stream", path2);
        CHECK_OK(pqt_table_open(path1, NULL, &back));
        if (back) same_tables(t, back);
    }
    pqt_table_close(back);
    pqt_table_close(t);
    unlink(path1);
    unlink(path2);
}

int main(void)
{
    pqt_duck *d = NULL;
    char why[4200] = "";
    int rc = pqt_duck_open(&d, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "test_arrow_import_duckdb: %s\n", why);
        return rc > 0 ? PQT_DUCK_SKIP : 1;
    }
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_arrow_duck_XXXXXX");
    if (!mkdtemp(g_dir)) return 1;
    test_harness(d);
    char *r = pqt_duck_text(d, "CREATE TYPE mood AS ENUM ('lo', 'mid', 'hi')");
    CHECK(r != NULL);
    free(r);
    r = create_q(d);
    if (!r) fprintf(stderr, "%s\n", pqt_duck_error(d));
    CHECK(r != NULL);
    free(r);
    test_query(d, 0, 1);
    test_query(d, 1, 0);
    pqt_duck_close(d);
    rmdir(g_dir);
    return pqt_test_done("test_arrow_import_duckdb");
}
