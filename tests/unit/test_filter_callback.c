/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_callback.c - predicates written in C (pqt_filter_add_callback) at table open.
 *
 * On DuckDB's tests/data/table_rg.parquet (formulas of the 1-based row id, see
 * make_table_data.mjs): a callback sees exactly the rows still alive after cheaper rules, in
 * the layout of its kinds (values, string offsets, validity), and its keep bits decide the
 * survivors; a failing callback fails the open with PQT_CALLBACK and leaves nothing open.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pqt.h"
#include "scan/filter.h"
#include "testutil.h"

#define FILE_RG "tests/data/table_rg.parquet"

typedef struct seen {
    atomic_llong rows;  /* rows handed to the callback */
    atomic_llong wrong; /* rows whose values broke the formulas */
    int fail_with;
} seen;

/* Keep id % 3 == 0 with i32 present; check id, i32 = 3 id (null when id % 7 == 0), s. */
static int keep_thirds(void *user, const pqt_batch_col *cols, int ncols, int64_t n, uint8_t *keep)
{
    seen *sn = user;
    if (sn->fail_with) return sn->fail_with;
    if (ncols != 3 || cols[0].kind != PQT_INT64 || cols[1].kind != PQT_INT32 ||
        cols[2].kind != PQT_STRING || strcmp(cols[1].name, "i32") != 0) {
        sn->wrong += n;
        return 0;
    }
    const int64_t *id = cols[0].data, *off = cols[2].data;
    const int32_t *i32 = cols[1].data;
    long long wrong = 0;
    for (int64_t i = 0; i < n; i++) {
        bool i32_ok = !cols[1].validity || (cols[1].validity[i >> 3] >> (i & 7) & 1);
        bool s_ok = !cols[2].validity || (cols[2].validity[i >> 3] >> (i & 7) & 1);
        if (i32_ok == (id[i] % 7 == 0) || (i32_ok && i32[i] != 3 * id[i])) wrong++;
        if (s_ok == (id[i] % 5 == 0)) wrong++;
        if (s_ok) {
            char want[32];
            int len = snprintf(want, sizeof want, "s%lld", (long long)id[i]);
            if (off[i + 1] - off[i] != len || memcmp(cols[2].bytes + off[i], want, (size_t)len))
                wrong++;
        }
        if (id[i] % 3 == 0 && i32_ok) keep[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    sn->rows += n;
    sn->wrong += wrong;
    return 0;
}

static pqt_table *open_with(pqt_filter *f, int threads, pqt_status want)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    REQUIRE_OK(pqt_opts_set_filter(o, f));
    pqt_table *t = NULL;
    CHECK_EQ_I64(pqt_table_open(FILE_RG, o, &t), want);
    pqt_opts_free(o);
    return t;
}

static void test_alive_rows_only(int threads)
{
    seen sn = {0};
    const char *cols[] = {"id", "i32", "s"};
    pqt_filter *f = NULL;
    REQUIRE_OK(pqt_filter_new(&f));
    REQUIRE_OK(pqt_filter_add_callback(f, cols, 3, keep_thirds, &sn));
    REQUIRE_OK(pqt_filter_add(f, "id < 5000 and f32 > 100")); /* cheaper: evaluated first */
    pqt_table *t = open_with(f, threads, PQT_OK);
    pqt_filter_free(f);
    /* alive when the callback runs: 400 < id < 5000 (f32 = id / 4) */
    CHECK_EQ_I64(sn.rows, 4599);
    CHECK_EQ_I64(sn.wrong, 0);
    int64_t want = 0;
    for (int64_t id = 401; id < 5000; id++) want += id % 3 == 0 && id % 7 != 0;
    CHECK_EQ_I64(pqt_table_nrows(t), want);
    int64_t *ids = NULL, n = 0;
    REQUIRE_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&ids, NULL, &n));
    int64_t k = 0, bad = 0;
    for (int64_t id = 401; id < 5000 && k < n; id++)
        if (id % 3 == 0 && id % 7 != 0) bad += ids[k++] != id;
    CHECK_EQ_I64(bad, 0);
    pqt_free(ids);
    char plan[4096];
    pqt_table_explain(t, plan, sizeof plan);
    CHECK(strstr(plan, "callback(id, i32, s)") != NULL);
    pqt_table_close(t);
}

static void test_failures(void)
{
    seen sn = {0};
    sn.fail_with = 7;
    const char *cols[] = {"id", "i32", "s"};
    pqt_filter *f = NULL;
    REQUIRE_OK(pqt_filter_new(&f));
    REQUIRE_OK(pqt_filter_add_callback(f, cols, 3, keep_thirds, &sn));
    pqt_table *t = open_with(f, 2, PQT_CALLBACK);
    CHECK(t == NULL);
    CHECK(strstr(pqt_errmsg(), "returned 7") != NULL);
    CHECK(strstr(pqt_errmsg(), "(id, i32, s)") != NULL);
    pqt_filter_clear(f);
    const char *typo[] = {"idd"};
    REQUIRE_OK(pqt_filter_add_callback(f, typo, 1, keep_thirds, &sn));
    t = open_with(f, 1, PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "did you mean 'id'") != NULL);
    pqt_filter_clear(f);
    const char *vec[] = {"vec"};
    REQUIRE_OK(pqt_filter_add_callback(f, vec, 1, keep_thirds, &sn));
    t = open_with(f, 1, PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "vec") != NULL);
    CHECK_EQ_I64(pqt_filter_add_callback(f, cols, 0, keep_thirds, &sn), PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add_callback(f, cols, 3, NULL, &sn), PQT_MISUSE);
    pqt_filter_free(f);
}

/* Through the evaluator directly: rows the first conjunct dropped are gathered out of the
 * batch the callback gets (the compact path), and its bits land on the right rows. */
static int keep_even_values(void *user, const pqt_batch_col *cols, int ncols, int64_t n,
                            uint8_t *keep)
{
    (void)ncols;
    int64_t *got = user;
    const double *x = cols[0].data;
    const int64_t *off = cols[1].data;
    for (int64_t i = 0; i < n; i++) {
        got[i] = (int64_t)x[i] * 100 + (off[i + 1] - off[i]);
        bool present = cols[0].validity[i >> 3] >> (i & 7) & 1;
        if (present && (int64_t)x[i] % 2 == 0) keep[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    got[n] = -1;
    return 0;
}

static void test_compact_batch(void)
{
    /* 10 rows: x = row, null at row 4; name has row % 3 + 1 letters */
    double x[10];
    int64_t off[11] = {0};
    char bytes[64];
    for (int i = 0; i < 10; i++) {
        x[i] = i;
        off[i + 1] = off[i] + i % 3 + 1;
        memset(bytes + off[i], 'a', (size_t)(i % 3 + 1));
    }
    uint8_t valid[2] = {0xEF, 0x03};
    pqt_scan_col cols[] = {{"v", PQT_INT64, -1}, {"x", PQT_FLOAT64, -1}, {"name", PQT_STRING, -1}};
    int64_t v[10];
    for (int i = 0; i < 10; i++) v[i] = i;
    int64_t got[16];
    const char *cbcols[] = {"x", "name"};
    pqt_filter *f = NULL;
    REQUIRE_OK(pqt_filter_new(&f));
    REQUIRE_OK(pqt_filter_add(f, "v >= 3"));
    REQUIRE_OK(pqt_filter_add_callback(f, cbcols, 2, keep_even_values, got));
    pqt_fprog *p = NULL;
    REQUIRE_OK(pqt_scan_compile(f, cols, 3, &p));
    pqt_filter_free(f);
    pqt_scan_vec vecs[3];
    for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
        int c = pqt_scan_prog_col(p, s);
        vecs[s] = c == 0 ? (pqt_scan_vec){v, NULL, NULL}
                : c == 1 ? (pqt_scan_vec){x, NULL, valid}
                         : (pqt_scan_vec){off, bytes, NULL};
    }
    uint8_t sel[2] = {0xFF, 0x01}, keep[2];
    int64_t nkeep = 0;
    pqt_scan_scratch sc = {0};
    REQUIRE_OK(pqt_scan_prog_eval(p, vecs, 10, sel, keep, &nkeep, &sc));
    /* alive for the callback: rows 3, 5..8 (row 9 not selected, row 4 null x but alive) */
    int64_t want_got[] = {301, 400 + 2, 503, 601, 702, 803, -1};
    for (int i = 0; i < 7; i++) CHECK_EQ_I64(got[i], want_got[i]);
    CHECK_EQ_I64(nkeep, 2); /* rows 6 and 8; row 4 is null */
    CHECK_EQ_I64(keep[0], (1 << 6));
    CHECK_EQ_I64(keep[1], 1);
    pqt_scan_scratch_free(&sc);
    pqt_scan_prog_free(p);
}

int main(void)
{
    test_compact_batch();
    test_alive_rows_only(1);
    test_alive_rows_only(2);
    test_failures();
    return pqt_test_done("test_filter_callback");
}
