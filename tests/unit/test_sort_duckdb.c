/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sort_duckdb.c - sort (and top-n) at open against DuckDB's ORDER BY.
 *
 * tests/data/sort_expect.tsv holds, for 13 key lists over corpus files (DuckDB, parquet-mr
 * and Impala writers; NaN, ±0, nulls, strings, INT96 timestamps, float16, booleans), the file
 * rows in the order DuckDB's ORDER BY gives when told pqt's placement (values, NaN, nulls;
 * nulls_first: nulls, NaN, values; ties in file order): tests/data/make_sort_expect.mjs made
 * it. pqt opens each file with PQT_OPT_SORT (and PQT_OPT_LIMIT) at threads 1 and 2, and its
 * row index must list the same rows in the same order.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define EXPECT "tests/data/sort_expect.tsv"

/* "a-b,c,..." -> rows in order, *n_ret of them (free) */
static int64_t *parse_runs(char *text, int64_t *n_ret)
{
    int64_t n = 0, cap = 1024;
    int64_t *rows = malloc((size_t)cap * sizeof *rows);
    for (char *p = text; rows && *p;) {
        char *end;
        int64_t a = strtoll(p, &end, 10), b = a;
        if (*end == '-') b = strtoll(end + 1, &end, 10);
        for (int64_t r = a; r <= b; r++) {
            if (n == cap) rows = realloc(rows, (size_t)(cap *= 2) * sizeof *rows);
            if (!rows) break;
            rows[n++] = r;
        }
        p = *end == ',' ? end + 1 : end + strlen(end);
    }
    *n_ret = n;
    return rows;
}

static void check_case(const char *file, const char *keys, int64_t limit, const int64_t *want,
                       int64_t nwant)
{
    for (int threads = 1; threads <= 2; threads++) {
        pqt_opts *o = NULL;
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_opts_new(&o));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
        CHECK_OK(pqt_opts_set_sort(o, keys));
        if (limit >= 0) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
        pqt_status st = pqt_table_open(file, o, &t);
        pqt_opts_free(o);
        if (st != PQT_OK) {
            fprintf(stderr, "%s sorted by `%s`: %s\n", file, keys, pqt_errmsg());
            pqt_test_failures++;
            continue;
        }
        void *data = NULL;
        uint8_t *valid = NULL;
        int64_t n = 0;
        CHECK_OK(pqt_table_get_alloc(t, PQT_ROW_INDEX, PQT_INT64, &data, &valid, &n));
        const int64_t *got = data;
        int64_t bad = -1;
        for (int64_t i = 0; got && i < n && i < nwant && bad < 0; i++)
            if (got[i] != want[i]) bad = i;
        if (n != nwant || bad >= 0) {
            fprintf(stderr, "%s sorted by `%s` limit %lld (%d threads): %lld rows (DuckDB %lld)",
                    file, keys, (long long)limit, threads, (long long)n, (long long)nwant);
            if (bad >= 0)
                fprintf(stderr, "; row %lld is file row %lld, DuckDB's %lld", (long long)bad + 1,
                        (long long)got[bad], (long long)want[bad]);
            fprintf(stderr, "\n");
            pqt_test_failures++;
        }
        pqt_free(data);
        pqt_free(valid);
        pqt_table_close(t);
    }
}

/* A top-n reads the keys of the row groups its first key's statistics leave only:
 * table_rg's f32 is id / 4, rising through five row groups of 2048 rows, so the 30 largest
 * are all in the last one; with PQT_OPT_PUSHDOWN_STATS 0 every row group is read. */
static void top_n_reads_fewer_row_groups(void)
{
    for (int stats = 1; stats >= 0; stats--) {
        pqt_opts *o = NULL;
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_opts_new(&o));
        CHECK_OK(pqt_opts_set_sort(o, "-f32"));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 30));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_PUSHDOWN_STATS, stats));
        REQUIRE_OK(pqt_table_open("tests/data/table_rg.parquet", o, &t));
        pqt_opts_free(o);
        int64_t values = pqt_table_scan_values(t, "f32");
        char explain[2048];
        pqt_table_explain(t, explain, sizeof explain);
        bool said = strstr(explain, "top-n: the keys of 1 of 5 row groups read") != NULL;
        /* the pass reads the last row group's keys, and the sort takes them: read once */
        if (stats ? values != 1808 || !said : values != 10000 || said) {
            fprintf(stderr, "top-n -f32 limit 30, statistics %s: %lld values of f32 decoded\n%s",
                    stats ? "on" : "off", (long long)values, explain);
            pqt_test_failures++;
        }
        float f[30];
        CHECK_OK(pqt_table_get(t, "f32", 0, f, sizeof f, NULL, 0));
        for (int i = 0; i < 30; i++) CHECK(f[i] == (float)(10000 - i) / 4);
        pqt_table_close(t);
    }
}

int main(void)
{
    char *text = pqt_test_read_text(EXPECT);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", EXPECT);
        return 1;
    }
    int ncases = 0;
    for (char *line = text, *next; *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        else next = line + strlen(line);
        char *fld[4];
        if (pqt_test_split(line, '\t', fld, 4) != 4) continue;
        int64_t nwant;
        int64_t *want = parse_runs(fld[3], &nwant);
        check_case(fld[0], fld[1], atoll(fld[2]), want, nwant);
        free(want);
        ncases++;
    }
    free(text);
    CHECK_EQ_I64(ncases, 21);
    top_n_reads_fewer_row_groups();
    return pqt_test_done("test_sort_duckdb");
}
