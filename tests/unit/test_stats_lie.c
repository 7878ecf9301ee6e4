/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stats_lie.c - metadata that lies must not corrupt a parallel read.
 *
 * List columns decode row groups in parallel into element windows laid out from the
 * statistics (no null => one element per level entry). Here the statistics of the ragged
 * list column of tests/data/table_rg.parquet (which has null and empty lists) are patched in
 * memory to claim no null: the 2-thread read must notice and still equal the 1-thread read.
 * String windows are bounded by each chunk's uncompressed size: patching that size down
 * must make the windowed read fall back or fail cleanly, never overrun.
 */
#include <string.h>

#include "api/file_int.h"
#include "testutil.h"

static void same_array(const pqt_array *a, const pqt_array *b)
{
    int64_t n = pqt_array_nrows(a);
    CHECK_EQ_I64(pqt_array_nrows(b), n);
    const int64_t *la = pqt_array_list_offsets(a), *lb = pqt_array_list_offsets(b);
    if (la && lb) {
        CHECK(memcmp(la, lb, (size_t)(n + 1) * 8) == 0);
        CHECK(memcmp(pqt_array_data(a), pqt_array_data(b), (size_t)la[n] * 4) == 0);
    }
    const int64_t *sa = pqt_array_str_offsets(a), *sb = pqt_array_str_offsets(b);
    if (sa && sb) {
        CHECK(memcmp(sa, sb, (size_t)(n + 1) * 8) == 0);
        CHECK(memcmp(pqt_array_bytes(a), pqt_array_bytes(b), (size_t)sa[n]) == 0);
    }
}

static pqt_file *open_threads(int threads)
{
    pqt_opts *o;
    pqt_file *f = NULL;
    CHECK_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    REQUIRE_OK(pqt_file_open("tests/data/table_rg.parquet", o, &f));
    pqt_opts_free(o);
    return f;
}

int main(void)
{
    pqt_file *f1 = open_threads(1), *f2 = open_threads(2);
    int lst, s;
    CHECK_OK(pqt_file_find_column(f1, "lst", &lst));
    CHECK_OK(pqt_file_find_column(f1, "s", &s));
    int64_t n = pqt_file_nrows(f1);
    for (int rg = 0; rg < f2->meta.n_row_groups; rg++) {
        pqt_column_meta *cm = &f2->meta.row_groups[rg].columns[f2->schema.cols[lst].chunk_col].meta;
        cm->has_stats = true;
        cm->stats.has_null_count = true;
        cm->stats.null_count = 0; /* a lie: the column has null and empty lists */
    }
    pqt_array *a = NULL, *b = NULL;
    CHECK_OK(pqt_file_read(f1, lst, 1, n, &a));
    CHECK_OK(pqt_file_read(f2, lst, 1, n, &b));
    if (a && b) same_array(a, b);
    pqt_array_free(a);
    pqt_array_free(b);

    /* string windows: a chunk claiming fewer bytes than its strings take */
    for (int rg = 0; rg < f2->meta.n_row_groups; rg++)
        f2->meta.row_groups[rg].columns[f2->schema.cols[s].chunk_col].meta.total_uncompressed_size = 40;
    a = b = NULL;
    CHECK_OK(pqt_file_read(f1, s, 1, n, &a));
    pqt_status st = pqt_file_read(f2, s, 1, n, &b);
    CHECK(st == PQT_OK || st == PQT_CORRUPT);
    if (st == PQT_OK && a && b) same_array(a, b);
    if (st == PQT_CORRUPT) CHECK(strstr(pqt_errmsg(), "column 's'") != NULL);
    pqt_array_free(a);
    pqt_array_free(b);
    pqt_file_close(f1);
    pqt_file_close(f2);
    return pqt_test_done("test_stats_lie");
}
