/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page_index_prune.c - the column index prunes pages, the offset index skips their
 * bytes, and a lying index changes nothing (issue 11). A row group every page of which is refuted is
 * counted in test_pushdown_torture.
 *
 * Truth: the corpus' alltypes_tiny_pages.parquet (parquet-mr, 325 small pages per column,
 * exact integer bounds in its column index). The rows and the pages that may be pruned are
 * computed here from the values themselves, read whole with every mechanism off: a page is
 * prunable exactly when none of its values can pass, its bytes are the offset index's. And
 * datapage_v1-snappy-compressed-checksum.parquet, whose writer (statistics off) marks every
 * page a null page although none holds a null: using that index would drop every row.
 */
#include <stdlib.h>
#include <string.h>

#include "api/file_int.h"
#include "format/meta.h"
#include "pqt_file.h"
#include "oi_read.h"
#include "testutil.h"

static const char *tiny = "tests/data/parquet-testing/data/alltypes_tiny_pages.parquet";
static const char *lying = "tests/data/parquet-testing/data/datapage_v1-snappy-compressed-checksum.parquet";

static pqt_table *open_with(const char *path, const char *rule, int page_index, int threads)
{
    pqt_opts *o;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (rule) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rule));
    if (!page_index) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_PUSHDOWN_PAGE_INDEX, 0));
    CHECK_OK(pqt_table_open(path, o, &t));
    pqt_opts_free(o);
    return t;
}

/* Column col as int64 values, read whole. */
static int64_t *read_ints(const char *path, const char *col, int64_t *n_ret)
{
    pqt_table *t = open_with(path, NULL, 0, 1);
    int64_t *d = NULL;
    uint8_t *v = NULL;
    int64_t n = 0;
    REQUIRE_OK(pqt_table_get_alloc(t, col, PQT_INT64, (void **)&d, &v, &n));
    int64_t *out = malloc((size_t)n * sizeof *out + 1);
    memcpy(out, d, (size_t)n * sizeof *out);
    pqt_free(d);
    pqt_free(v);
    pqt_table_close(t);
    *n_ret = n;
    return out;
}

/* The offset index of column leaf of row group 1, as the file holds it. */
static void offset_index(const char *path, int leaf, pqt_arena *a, pqt_offset_index *oi)
{
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    test_read_offset_index(path, &f->meta.row_groups[0].columns[leaf], a, oi);
    pqt_file_close(f);
}

/* `id` in [lo, hi]: rows, pruned pages and bytes fetched, with and without the index. */
static void check_id_range(const int64_t *id, int64_t n, const pqt_offset_index *oi, int64_t lo,
                           int64_t hi)
{
    int64_t want = 0, prunable = 0, kept_bytes = 0;
    for (int64_t r = 0; r < n; r++) want += id[r] >= lo && id[r] <= hi;
    for (int i = 0; i < oi->npages; i++) {
        int64_t r0 = oi->pages[i].first_row_index;
        int64_t r1 = i + 1 < oi->npages ? oi->pages[i + 1].first_row_index : n;
        int64_t mn = INT64_MAX, mx = INT64_MIN; /* what exact bounds of the page say */
        for (int64_t r = r0; r < r1; r++) {
            mn = id[r] < mn ? id[r] : mn;
            mx = id[r] > mx ? id[r] : mx;
        }
        int any = mx >= lo && mn <= hi;
        prunable += !any;
        if (any) kept_bytes += oi->pages[i].compressed_page_size;
    }
    char rule[96];
    snprintf(rule, sizeof rule, "id >= %lld and id <= %lld", (long long)lo, (long long)hi);
    for (int threads = 1; threads <= 2; threads++)
        for (int on = 0; on <= 1; on++) {
            pqt_table *t = open_with(tiny, rule, on, threads);
            pqt_scan_counts sc;
            CHECK_OK(pqt_table_scan_stats(t, &sc));
            CHECK_EQ_I64(pqt_table_nrows(t), want);
            /* the kept rows are the rows holding such ids */
            int64_t k = 0;
            int64_t *d = NULL;
            uint8_t *v = NULL;
            int64_t m = 0;
            CHECK_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&d, &v, &m));
            for (int64_t r = 0; r < n && k < m; r++)
                if (id[r] >= lo && id[r] <= hi) CHECK_EQ_I64(d[k++], id[r]);
            CHECK_EQ_I64(k, want);
            pqt_free(d);
            pqt_free(v);
            if (want == n) { /* statistics prove every row passes: id is never read */
                CHECK_EQ_I64(sc.row_groups_all, 1);
                CHECK_EQ_I64(sc.bytes_read, 0);
            } else if (on) {
                CHECK_EQ_I64(sc.pages_pruned_index, prunable);
                /* the filter column fetched only the pages the index kept */
                CHECK_EQ_I64(sc.bytes_read, kept_bytes);
                CHECK_EQ_I64(sc.pages_decompressed, oi->npages - prunable);
            } else {
                CHECK_EQ_I64(sc.pages_pruned_index, 0);
                CHECK_EQ_I64(sc.row_groups_pruned_index, 0);
            }
            pqt_table_close(t);
        }
}

/* A payload column reads only the pages holding survivors: its own offset index, whose
 * page boundaries differ from the filter column's. */
static void check_payload(const int64_t *id, int64_t n)
{
    int64_t nb = 0;
    int64_t *bigint = read_ints(tiny, "bigint_col", &nb);
    REQUIRE_OK(nb == n ? PQT_OK : PQT_CORRUPT);
    pqt_table *t = open_with(tiny, "id < 50", 1, 1);
    int64_t *d = NULL;
    uint8_t *v = NULL;
    int64_t m = 0, k = 0;
    CHECK_OK(pqt_table_get_alloc(t, "bigint_col", PQT_INT64, (void **)&d, &v, &m));
    for (int64_t r = 0; r < n; r++)
        if (id[r] < 50) CHECK_EQ_I64(d[k++], bigint[r]);
    CHECK_EQ_I64(k, m);
    pqt_scan_counts sc;
    CHECK_OK(pqt_table_scan_stats(t, &sc));
    CHECK(sc.pages_skipped > 0);
    pqt_free(d);
    pqt_free(v);
    pqt_table_close(t);
    free(bigint);
}

static void check_lying_index(void)
{
    int64_t n = 0, want = 0;
    int64_t *a = read_ints(lying, "a", &n);
    for (int64_t r = 0; r < n; r++) want += a[r] < -5;
    CHECK(want > 0);
    pqt_table *t = open_with(lying, "a < -5", 1, 1);
    CHECK_EQ_I64(pqt_table_nrows(t), want);
    pqt_scan_counts sc;
    CHECK_OK(pqt_table_scan_stats(t, &sc));
    CHECK_EQ_I64(sc.pages_pruned_index, 0);
    pqt_table_close(t);
    free(a);
}

int main(void)
{
    int64_t n = 0;
    int64_t *id = read_ints(tiny, "id", &n);
    pqt_arena a = {0};
    pqt_offset_index oi;
    offset_index(tiny, 0, &a, &oi);
    CHECK(oi.npages > 100);
    check_id_range(id, n, &oi, 4000, 4000);  /* a point */
    check_id_range(id, n, &oi, 100, 600);    /* a range */
    check_id_range(id, n, &oi, -10, 100000); /* everything */
    check_payload(id, n);
    check_lying_index();
    pqt_arena_free(&a);
    free(id);
    return pqt_test_done("test_page_index_prune");
}
