/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_limit.c - a limit with a filter and no sort stops the filter pass once the
 * first N survivors are found in file order (docs/pruning.md, "A limit stops the pass").
 *
 * The file is written here: 40 row groups of 1000 rows, one page each (plain, page CRCs,
 * statistics on), y = 1 on the rows match() picks and a distinct marker value elsewhere (so
 * a byte of one row can be found and flipped), p = 3 * row. Row groups 2, 6, 10, ... (0-based
 * index % 4 == 2) hold no match: statistics prune them. The survivors of "y == 1" are
 * computed by a plain loop over match(), never by pqt. Checked on 1, 2 and 4 threads: exactly
 * the first N survivors; the explain line names the row group the limit was reached in; on
 * one thread the counters show no later row group was decoded nor read (values_decoded,
 * bytes_read); N = 0 and N beyond the survivors; a corrupt row group after the stop is never
 * seen and one before it fails the open; with a sample, the first N rows that pass the filter
 * and the sample.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"

enum { RG_ROWS = 1000, NRG = 40, NROWS = RG_ROWS * NRG };

static const int64_t MARK = INT64_C(0x5A17000000000000);

static int match(int64_t row)
{
    if ((row / RG_ROWS) % 4 == 2) return 0;
    return (uint64_t)(row * INT64_C(2654435761)) % 53 == 0;
}

static int64_t y_at(int64_t row)
{
    return match(row) ? 1 : MARK + row;
}

static int64_t surv[NROWS]; /* 0-based rows of the survivors, in file order */
static int64_t nsurv;

static void write_file(const char *path)
{
    int64_t *y = malloc(NROWS * sizeof *y), *p = malloc(NROWS * sizeof *p);
    REQUIRE_OK(y && p ? PQT_OK : PQT_NOMEM);
    for (int64_t i = 0; i < NROWS; i++) {
        y[i] = y_at(i);
        p[i] = 3 * i;
        if (match(i)) surv[nsurv++] = i;
    }
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "y", PQT_INT64, 1, y, NULL, NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "p", PQT_INT64, 1, p, NULL, NROWS, NULL));
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_CODEC, PQT_WRITE_UNCOMPRESSED));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_CRC, 1));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG_ROWS));
    CHECK_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    free(y);
    free(p);
}

/* Flip a byte of y's value in 0-based row `row` (its little-endian bytes, found by search). */
static void flip_y(const char *path, int64_t row)
{
    FILE *fp = fopen(path, "r+b");
    REQUIRE_OK(fp ? PQT_OK : PQT_IO);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    uint8_t *b = malloc((size_t)n);
    REQUIRE_OK(b ? PQT_OK : PQT_NOMEM);
    fseek(fp, 0, SEEK_SET);
    REQUIRE_OK(fread(b, 1, (size_t)n, fp) == (size_t)n ? PQT_OK : PQT_IO);
    uint64_t v = (uint64_t)y_at(row);
    uint8_t want[8];
    for (int k = 0; k < 8; k++)
        want[k] = (uint8_t)(v >> (8 * k));
    long at = -1;
    for (long i = 0; i + 8 <= n && at < 0; i++)
        if (memcmp(b + i, want, 8) == 0) at = i;
    REQUIRE_OK(at >= 0 ? PQT_OK : PQT_NOT_FOUND);
    uint8_t c = (uint8_t)(b[at] ^ 0x01);
    fseek(fp, at, SEEK_SET);
    fwrite(&c, 1, 1, fp);
    fclose(fp);
    free(b);
}

/* Open with "y == 1", limit (< 0: none), a sample when fraction > 0. */
static pqt_status open_limited(const char *path, int threads, int64_t limit, double fraction,
                               pqt_table **t)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "y == 1"));
    if (limit >= 0) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
    if (fraction > 0) {
        CHECK_OK(pqt_opts_set_double(o, PQT_OPT_SAMPLE_FRACTION, fraction));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_SAMPLE_SEED, 42));
    }
    *t = NULL;
    pqt_status st = pqt_table_open(path, o, t);
    pqt_opts_free(o);
    return st;
}

static char *explain(const pqt_table *t)
{
    int64_t n = pqt_table_explain(t, NULL, 0);
    char *s = malloc((size_t)n + 1);
    REQUIRE_OK(s ? PQT_OK : PQT_NOMEM);
    pqt_table_explain(t, s, (size_t)n + 1);
    return s;
}

/* The table's rows: file rows (row index, 1-based) and p, into ri/pv (n rows). */
static int64_t read_rows(pqt_table *t, int64_t **ri, int64_t **pv)
{
    int64_t n = 0, n2 = 0;
    REQUIRE_OK(pqt_table_get_alloc(t, "parquet_row_index", PQT_INT64, (void **)ri, NULL, &n));
    REQUIRE_OK(pqt_table_get_alloc(t, "p", PQT_INT64, (void **)pv, NULL, &n2));
    CHECK_EQ_I64(n2, n);
    return n;
}

static void check_limit(const char *path, int threads, int64_t limit, int64_t p_bytes_rg)
{
    pqt_table *t;
    REQUIRE_OK(open_limited(path, threads, limit, 0, &t));
    int64_t want = limit < nsurv ? limit : nsurv;
    CHECK_EQ_I64(pqt_table_nrows(t), want);
    /* the row group of the limit-th survivor (0-based), -1 for a limit of 0 */
    int stop = limit == 0 ? -1 : limit <= nsurv ? (int)(surv[limit - 1] / RG_ROWS) : NRG - 1;
    pqt_scan_counts c;
    memset(&c, 0, sizeof c);
    CHECK_OK(pqt_table_scan_stats(t, &c));
    char *text = explain(t), line[200];
    if (limit == 0)
        snprintf(line, sizeof line, "limit 0: no row group read\n");
    else if (stop < NRG - 1)
        snprintf(line, sizeof line, "limit %lld reached in row group %d of %d: row group%s %d",
                 (long long)limit, stop + 1, NRG, stop + 2 < NRG ? "s" : "", stop + 2);
    else
        snprintf(line, sizeof line, "limit %lld: every row group was needed\n", (long long)limit);
    if (!strstr(text, line)) {
        printf("threads %d, limit %lld: want \"%s\" in\n%s", threads, (long long)limit, line, text);
        CHECK(0);
    }
    int64_t visited_pruned = 0; /* row groups up to stop statistics prune: no match */
    for (int rg = 0; rg <= stop; rg++)
        visited_pruned += rg % 4 == 2;
    if (threads == 1) { /* nothing after stop was touched */
        CHECK_EQ_I64(c.row_groups_not_read_limit, NRG - 1 - stop);
        CHECK_EQ_I64(c.row_groups_pruned_stats, visited_pruned);
        CHECK_EQ_I64(c.values_decoded, (stop + 1 - visited_pruned) * RG_ROWS);
    }
    CHECK(c.row_groups_not_read_limit <= NRG - 1 - stop);
    int64_t before = c.bytes_read;
    int64_t *ri = NULL, *pv = NULL;
    int64_t n = read_rows(t, &ri, &pv);
    CHECK_EQ_I64(n, want);
    int64_t bad = 0;
    for (int64_t k = 0; k < n && k < want; k++)
        if (ri[k] != surv[k] + 1 || pv[k] != 3 * surv[k]) {
            if (bad++ == 0)
                printf("threads %d, limit %lld, row %lld: row index %lld p %lld, want %lld "
                       "%lld\n",
                       threads, (long long)limit, (long long)k + 1, (long long)ri[k],
                       (long long)pv[k], (long long)surv[k] + 1, (long long)(3 * surv[k]));
        }
    CHECK_EQ_I64(bad, 0);
    /* the payload reads the row groups up to stop at most, never the unvisited ones */
    CHECK_OK(pqt_table_scan_stats(t, &c));
    CHECK(c.bytes_read - before <= (stop + 1) * p_bytes_rg);
    pqt_free(ri);
    pqt_free(pv);
    free(text);
    pqt_table_close(t);
}

/* Bytes one row group's chunk of p costs to read (every chunk is the same size). */
static int64_t p_bytes_per_rg(const char *path)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 1));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, RG_ROWS));
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(path, o, &t));
    pqt_opts_free(o);
    int64_t *pv = NULL, n = 0;
    REQUIRE_OK(pqt_table_get_alloc(t, "p", PQT_INT64, (void **)&pv, NULL, &n));
    pqt_scan_counts c;
    CHECK_OK(pqt_table_scan_stats(t, &c));
    pqt_free(pv);
    pqt_table_close(t);
    return c.bytes_read;
}

/* With a sample: the first N of the rows passing filter and sample (the full open's). */
static void check_sampled(const char *path, int threads, int64_t limit)
{
    pqt_table *full, *t;
    REQUIRE_OK(open_limited(path, threads, -1, 0.5, &full));
    REQUIRE_OK(open_limited(path, threads, limit, 0.5, &t));
    int64_t *ri = NULL, *pv = NULL, *fri = NULL, *fpv = NULL;
    int64_t nf = read_rows(full, &fri, &fpv), n = read_rows(t, &ri, &pv);
    CHECK(nf > limit); /* the sample keeps about half of the survivors */
    CHECK_EQ_I64(n, limit);
    for (int64_t k = 0; k < n && k < nf; k++)
        CHECK_EQ_I64(ri[k], fri[k]);
    CHECK_EQ_I64(pqt_table_sample_seed(t), 42);
    pqt_scan_counts c;
    CHECK_OK(pqt_table_scan_stats(t, &c));
    CHECK(c.row_groups_not_read_limit > 0 || threads > 1);
    pqt_free(ri);
    pqt_free(pv);
    pqt_free(fri);
    pqt_free(fpv);
    pqt_table_close(full);
    pqt_table_close(t);
}

int main(void)
{
    char dir[] = "/tmp/pqt_test_filter_limit_XXXXXX";
    REQUIRE_OK(mkdtemp(dir) ? PQT_OK : PQT_IO);
    char path[80];
    snprintf(path, sizeof path, "%s/x.parquet", dir);
    write_file(path);
    CHECK(nsurv > 300);
    int64_t p_rg = p_bytes_per_rg(path);
    CHECK(p_rg >= RG_ROWS * 8);

    const int64_t limits[] = {0, 1, 5, 37, 200, nsurv - 1, nsurv, nsurv + 10};
    const int threads[] = {1, 2, 4};
    for (int ti = 0; ti < 3; ti++)
        for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++)
            check_limit(path, threads[ti], limits[li], p_rg);
    for (int ti = 0; ti < 3; ti++)
        check_sampled(path, threads[ti], 40);

    /* a corrupt page in row group 30 (0-based 29): never seen by a limit found before it,
     * on any schedule; the open fails when the limit needs it, or without a limit */
    int64_t bad_row = 29 * RG_ROWS + 500; /* not a min or max: those are in the page header */
    while (match(bad_row))
        bad_row++;
    flip_y(path, bad_row);
    for (int round = 0; round < 30; round++) {
        int th = threads[round % 3];
        pqt_table *t;
        pqt_status st = open_limited(path, th, 37, 0, &t);
        CHECK_OK(st);
        if (st != PQT_OK) continue;
        CHECK_EQ_I64(pqt_table_nrows(t), 37);
        int64_t *ri = NULL, *pv = NULL;
        int64_t n = read_rows(t, &ri, &pv);
        for (int64_t k = 0; k < n && k < 37; k++)
            CHECK_EQ_I64(ri[k], surv[k] + 1);
        pqt_free(ri);
        pqt_free(pv);
        pqt_table_close(t);
    }
    int64_t need = 0; /* a limit reached only after row group 30 */
    while (need < nsurv && surv[need] < 30 * RG_ROWS)
        need++;
    for (int ti = 0; ti < 3; ti++)
        for (int k = 0; k < 2; k++) {
            pqt_table *t = NULL;
            pqt_status st = open_limited(path, threads[ti], k ? -1 : need + 1, 0, &t);
            CHECK(st != PQT_OK);
            if (st == PQT_OK) {
                pqt_table_close(t);
                continue;
            }
            const char *m = pqt_errmsg();
            if (!strstr(m, "row group 30")) {
                printf("threads %d: message '%s' does not name row group 30\n", threads[ti], m);
                CHECK(0);
            }
        }
    unlink(path);
    rmdir(dir);
    return pqt_test_done("test_filter_limit");
}
