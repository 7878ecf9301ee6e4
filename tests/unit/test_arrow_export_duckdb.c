/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export_duckdb.c - Arrow export against a consumer that is not ours: DuckDB (its
 * C library, loaded by tests/unit/duckdb_dl.c; absent: exit 77, skipped). pqt's stream of
 * tests/data/write_types.parquet (every type DuckDB writes: narrow and unsigned integers,
 * decimals of 4 to 38 digits, UUID, JSON, dates, times, timestamps in four units and with a
 * time zone, a struct, a list, floats, booleans, strings; nulls in every column) is scanned
 * by DuckDB, and every column, row by row as DuckDB's own text, equals what DuckDB's
 * read_parquet of the same file gives: at batch_rows 0 and 7, columns unread and resident,
 * with a filter and a sort at open (the truth then filtered and sorted by DuckDB). The struct
 * is compared whole: null structs are null (their group's definition levels); so is
 * struct_nulls.parquet's nested struct with a list inside.
 * Truth: DuckDB reading the Parquet file itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/arrow_int.h"
#include "duckdb_dl.h"
#include "pqt_arrow.h"
#include "testutil.h"

#define TYPES "tests/data/write_types.parquet"
#define STRUCTS "tests/data/struct_nulls.parquet"

/* Every column: its expression over the view and over read_parquet (the same text). */
static const char *cols[] = {"i",    "i8",    "i16",    "u8",    "u16",   "u32",   "u64",   "d4_2",
                             "d9_3", "d18_4", "d38_10", "d25_0", "u",     "js",    "en",    "dt",
                             "t_us", "t_ns",  "ts_s",   "ts_ms", "ts_us", "ts_ns", "ts_tz", "st",
                             "li",   "f32",   "f64",    "b",     "s"};

/* pqt's stream as DuckDB gets it. DuckDB 1.5.6 releases every array and the stream but not
 * the schemas it asks for: it gets copies whose release does nothing, and the test releases
 * pqt's schemas after the scan, so that the leak count (and LeakSanitizer) can hold pqt to
 * account for everything else. */
typedef struct wrap {
    struct ArrowArrayStream inner;
    struct ArrowSchema own[64];
    int nown;
} wrap;

static void keep_release(struct ArrowSchema *s)
{
    s->release = NULL;
}

static int w_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    wrap *w = s->private_data;
    if (w->nown >= 64) return ENOMEM;
    int r = w->inner.get_schema(&w->inner, &w->own[w->nown]);
    if (r) return r;
    *out = w->own[w->nown++];
    out->release = keep_release;
    return 0;
}

static int w_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    wrap *w = s->private_data;
    return w->inner.get_next(&w->inner, out);
}

static const char *w_last_error(struct ArrowArrayStream *s)
{
    wrap *w = s->private_data;
    return w->inner.get_last_error(&w->inner);
}

static void w_release(struct ArrowArrayStream *s)
{
    wrap *w = s->private_data;
    w->inner.release(&w->inner);
    s->release = NULL;
}

/* Run sql over the stream as view v; the schemas DuckDB kept released after. */
static char *scan(pqt_duck *d, struct ArrowArrayStream *in, const char *sql)
{
    wrap w;
    memset(&w, 0, sizeof w);
    w.inner = *in; /* a move */
    in->release = NULL;
    struct ArrowArrayStream s = {w_get_schema, w_get_next, w_last_error, w_release, &w};
    char *got = pqt_duck_scan_text(d, &s, "v", sql);
    for (int i = 0; i < w.nown; i++)
        w.own[i].release(&w.own[i]);
    return got;
}

/* The rows of `select` over pqt's stream of t and over the file, compared column by column. */
static void compare(pqt_duck *d, pqt_table *t, int64_t batch_rows, const char *where,
                    const char *order)
{
    for (size_t k = 0; k < sizeof cols / sizeof *cols; k++) {
        char sql[512], ref[512];
        /* a struct whole: a null st is NULL, a present one shows its fields */
        char expr[64];
        snprintf(expr, sizeof expr, "\"%s\"::VARCHAR", cols[k]);
        snprintf(sql, sizeof sql, "SELECT i, %s FROM v %s", expr, order);
        snprintf(ref, sizeof ref, "SELECT i, %s FROM read_parquet('%s') %s %s", expr, TYPES, where,
                 order);
        struct ArrowArrayStream s;
        /* the struct st is its leaves st.a, st.b gathered */
        const char *names[3] = {"i", cols[k], NULL};
        int n = k == 0 ? 1 : 2;
        if (!strcmp(cols[k], "st")) names[1] = "st.a", names[2] = "st.b", n = 3;
        if (pqt_table_export_arrow_stream(t, names, n, batch_rows, &s) != PQT_OK) {
            fprintf(stderr, "%s: %s\n", cols[k], pqt_errmsg());
            pqt_test_failures++;
            continue;
        }
        if (k == 0) snprintf(sql, sizeof sql, "SELECT i, i::VARCHAR FROM v %s", order);
        char *got = scan(d, &s, sql);
        char *want = pqt_duck_text(d, ref);
        if (!got || !want) fprintf(stderr, "%s: %s\n", cols[k], pqt_duck_error(d));
        if (got && want && strcmp(got, want)) {
            fprintf(stderr,
                    "%s (batch_rows %lld, %s): pqt's stream gives\n%.600s\nthe file\n%.600s\n",
                    cols[k], (long long)batch_rows, where, got, want);
            pqt_test_failures++;
        }
        CHECK(got && want);
        free(got);
        free(want);
    }
}

/* struct_nulls.parquet (null structs, a present struct of null leaves, a null inner group):
 * whole structs, and `s IS NULL` per level, as DuckDB reads the file. The query names every
 * field of the stream: DuckDB 1.5.6's duckdb_arrow_scan reads a projection's columns by
 * their position among the projected ones, as if the producer had dropped the others (with
 * an unprojected field before a projected one it reads the wrong child). */
static void compare_struct_nulls(pqt_duck *d)
{
    static const char *sel = "SELECT id, s IS NULL, s.t IS NULL, s::VARCHAR, z";
    for (int64_t br = 0; br <= 4; br += 4)
        for (int resident = 0; resident < 2; resident++) {
            pqt_table *t = NULL;
            CHECK_OK(pqt_table_open(STRUCTS, NULL, &t));
            const char *all[] = {"id", "s.a", "s.b", "s.t.x", "s.l", "z"};
            if (resident) CHECK_OK(pqt_table_prefetch(t, all, 6));
            struct ArrowArrayStream s;
            CHECK_OK(pqt_table_export_arrow_stream(t, NULL, 0, br, &s));
            char sql[256], ref[256];
            snprintf(sql, sizeof sql, "%s FROM v ORDER BY id", sel);
            snprintf(ref, sizeof ref, "%s FROM read_parquet('%s') ORDER BY id", sel, STRUCTS);
            char *got = scan(d, &s, sql);
            if (!got) fprintf(stderr, "struct_nulls: %s\n", pqt_duck_error(d));
            char *want = pqt_duck_text(d, ref);
            if (!want) fprintf(stderr, "struct_nulls: %s\n", pqt_duck_error(d));
            CHECK(got && want);
            if (got && want && strcmp(got, want)) {
                fprintf(stderr,
                        "struct_nulls (batch_rows %lld): pqt's stream gives\n%s\nthe "
                        "file\n%s\n",
                        (long long)br, got, want);
                pqt_test_failures++;
            }
            free(got);
            free(want);
            pqt_table_close(t);
        }
}

static pqt_table *open_with(const char *filter, const char *sort)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    CHECK_OK(pqt_opts_new(&o));
    if (filter) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, filter));
    if (sort) CHECK_OK(pqt_opts_set_sort(o, sort));
    CHECK_OK(pqt_table_open(TYPES, o, &t));
    pqt_opts_free(o);
    return t;
}

int main(void)
{
    pqt_duck *d = NULL;
    char why[4200] = "";
    int rc = pqt_duck_open(&d, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "test_arrow_export_duckdb: %s\n", why);
        return rc > 0 ? PQT_DUCK_SKIP : 1;
    }
    char *r = pqt_duck_text(d, "SET TimeZone='UTC'");
    free(r);
    for (int64_t br = 0; br <= 7; br += 7) {
        pqt_table *t = open_with(NULL, NULL);
        compare(d, t, br, "", "ORDER BY i");
        /* every column resident: the same through the zero-copy path */
        int nc = pqt_table_ncols(t);
        for (int c = 0; c < nc; c++) {
            pqt_column_view v = {.struct_size = sizeof v};
            CHECK_OK(pqt_table_column(t, pqt_table_column_name(t, c), 0, &v));
        }
        compare(d, t, br, "", "ORDER BY i");
        pqt_table_close(t);
    }
    compare_struct_nulls(d);
    pqt_table *t = open_with("i > 5", "-i");
    compare(d, t, 0, "WHERE i > 5", "ORDER BY i DESC");
    pqt_table_close(t);
    pqt_duck_close(d);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0); /* DuckDB released every array and stream */
    return pqt_test_done("test_arrow_export_duckdb");
}
