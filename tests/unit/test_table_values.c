/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_values.c - reaching values in the lazy table: get with widening, views, row
 * access, prefetch/materialize_all/reload/evict, and the row-index rules.
 *
 * Truth: tests/data/table_rg.parquet, written by DuckDB from formulas of the 1-based row
 * number id (tests/data/make_table_data.mjs):
 *   i32 = 3 id (null when id % 7 == 0)   f32 = id / 4   f64 = id / 2 (null when id % 11 == 0,
 *   NaN when id % 13 == 0)   s = "s<id>" (null when id % 5 == 0)   vec = [id, id + .5, -id]
 *   lst = id % 3 elements id, id + 1, ... (null when id % 17 == 0)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"

#define RG "tests/data/table_rg.parquet"
#define N 10000

static int bit(const uint8_t *v, int64_t i) { return v[i >> 3] >> (i & 7) & 1; }

static void test_get_widening(pqt_table *t)
{
    /* int32 -> int64 widening, with validity */
    int64_t *x = calloc(N, sizeof *x);
    uint8_t *v = calloc(N / 8 + 1, 1);
    size_t nb = 0;
    CHECK_OK(pqt_table_get_nbytes(t, "i32", PQT_INT64, &nb));
    CHECK_EQ_I64(nb, N * 8);
    CHECK_OK(pqt_table_get_nbytes(t, "i32", 0, &nb));
    CHECK_EQ_I64(nb, N * 4);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY); /* a size query reads nothing */
    CHECK_OK(pqt_table_get(t, "i32", PQT_INT64, x, N * 8, v, N / 8 + 1));
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    int bad = 0;
    for (int64_t i = 0; i < N; i++) {
        int64_t id = i + 1;
        if (id % 7 == 0) bad += bit(v, i) != 0 || x[i] != 0;
        else bad += bit(v, i) != 1 || x[i] != 3 * id;
    }
    CHECK_EQ_I64(bad, 0);
    /* float32 -> float64 */
    double *d = calloc(N, sizeof *d);
    CHECK_OK(pqt_table_get(t, "f32", PQT_FLOAT64, d, N * 8, NULL, 0));
    bad = 0;
    for (int64_t i = 0; i < N; i++) bad += d[i] != (double)(float)((i + 1) / 4.0);
    CHECK_EQ_I64(bad, 0);
    /* f64 with nulls and NaN */
    CHECK_OK(pqt_table_get(t, "f64", 0, d, N * 8, v, N / 8 + 1));
    bad = 0;
    for (int64_t i = 0; i < N; i++) {
        int64_t id = i + 1;
        if (id % 11 == 0) bad += bit(v, i) != 0;
        else if (id % 13 == 0) bad += !isnan(d[i]) || !bit(v, i);
        else bad += d[i] != id * 0.5;
    }
    CHECK_EQ_I64(bad, 0);
    /* not a widening: an error naming the stored kind; nothing written */
    CHECK_EQ_I64(pqt_table_get(t, "f64", PQT_INT64, d, N * 8, NULL, 0), PQT_KIND);
    CHECK(strstr(pqt_errmsg(), "float64") != NULL);
    CHECK_EQ_I64(pqt_table_get(t, "i32", PQT_FLOAT64, d, N * 8, NULL, 0), PQT_KIND);
    CHECK_EQ_I64(pqt_table_get(t, "s", 0, d, N * 8, NULL, 0), PQT_KIND);
    /* a buffer too small names the size needed */
    CHECK_EQ_I64(pqt_table_get(t, "i32", PQT_INT64, x, 100, NULL, 0), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "80000") != NULL);
    CHECK_EQ_I64(pqt_table_get(t, "nope", 0, x, N * 8, NULL, 0), PQT_NOT_FOUND);
    /* library-allocated copy */
    int32_t *y = NULL;
    uint8_t *yv = NULL;
    int64_t nel = 0;
    CHECK_OK(pqt_table_get_alloc(t, "i32", 0, (void **)&y, &yv, &nel));
    CHECK_EQ_I64(nel, N);
    CHECK(yv != NULL);
    if (y && yv) CHECK(y[6] == 0 && !bit(yv, 6) && y[7] == 24 && bit(yv, 7));
    pqt_free(y);
    pqt_free(yv);
    int64_t *ids = NULL;
    CHECK_OK(pqt_table_get_alloc(t, "id", 0, (void **)&ids, &yv, &nel));
    CHECK(yv == NULL); /* no nulls: no bitmap */
    pqt_free(ids);
    /* rows by list: any order, duplicates */
    int64_t rows[] = {10000, 1, 7, 7, 5000};
    int64_t out[5];
    uint8_t ov = 0;
    CHECK_OK(pqt_table_get_rows(t, "i32", rows, 5, PQT_INT64, out, sizeof out, &ov, 1));
    CHECK_EQ_I64(out[0], 30000);
    CHECK_EQ_I64(out[1], 3);
    CHECK_EQ_I64(out[2], 0);
    CHECK_EQ_I64(out[3], 0);
    CHECK_EQ_I64(out[4], 15000);
    CHECK_EQ_I64(ov, 0x1 | 0x2 | 0x10);
    int64_t badrow[] = {1, 10001};
    CHECK_EQ_I64(pqt_table_get_rows(t, "i32", badrow, 2, 0, out, sizeof out, NULL, 0), PQT_RANGE);
    CHECK(strstr(pqt_errmsg(), "10001") != NULL);
    free(x);
    free(v);
    free(d);
}

static void test_views(pqt_table *t)
{
    pqt_column_view cv;
    memset(&cv, 0, sizeof cv);
    cv.struct_size = sizeof cv;
    /* exact kind or an error naming the stored kind */
    CHECK_EQ_I64(pqt_table_column(t, "f32", PQT_FLOAT64, &cv), PQT_KIND);
    CHECK(strstr(pqt_errmsg(), "stored kind is float32") != NULL);
    CHECK_OK(pqt_table_column(t, "f32", PQT_FLOAT32, &cv));
    CHECK_EQ_I64(cv.nrows, N);
    CHECK(cv.data && ((const float *)cv.data)[3] == 1.0f);
    CHECK_EQ_I64(cv.generation, pqt_table_generation(t));
    /* strings: offsets and bytes */
    CHECK_OK(pqt_table_column(t, "s", 0, &cv));
    CHECK_EQ_I64(cv.kind, PQT_STRING);
    CHECK(cv.str_offsets && cv.str_bytes && cv.validity);
    if (cv.str_offsets) {
        int bad = 0;
        char want[32];
        for (int64_t i = 0; i < N; i++) {
            int64_t id = i + 1;
            int64_t len = cv.str_offsets[i + 1] - cv.str_offsets[i];
            if (id % 5 == 0) {
                bad += bit(cv.validity, i);
                continue;
            }
            snprintf(want, sizeof want, "s%lld", (long long)id);
            bad += len != (int64_t)strlen(want) || memcmp(cv.str_bytes + cv.str_offsets[i], want, (size_t)len);
        }
        CHECK_EQ_I64(bad, 0);
    }
    /* a vector column: nrows * 3 contiguous elements */
    CHECK_OK(pqt_table_column(t, "vec", PQT_FLOAT32 | PQT_VECTOR, &cv));
    CHECK_EQ_I64(cv.width, 3);
    CHECK_EQ_I64(cv.nelem, 3 * N);
    if (cv.data) {
        const float *f = cv.data;
        int bad = 0;
        for (int64_t i = 0; i < N; i++)
            bad += f[3 * i] != (float)(i + 1) || f[3 * i + 1] != (float)(i + 1.5) || f[3 * i + 2] != -(float)(i + 1);
        CHECK_EQ_I64(bad, 0);
    }
    double vv[6];
    int64_t rows[] = {2, 1};
    CHECK_OK(pqt_table_get_rows(t, "vec", rows, 2, PQT_FLOAT64, vv, sizeof vv, NULL, 0));
    CHECK(vv[0] == 2 && vv[1] == 2.5 && vv[2] == -2 && vv[3] == 1);
    float e = 0;
    CHECK_OK(pqt_table_get_value(t, "vec", 4, 2, 0, &e, sizeof e, NULL));
    CHECK(e == 4.5f);
    CHECK_EQ_I64(pqt_table_get_value(t, "vec", 4, 4, 0, &e, sizeof e, NULL), PQT_RANGE);
    /* a variable-length list */
    CHECK_OK(pqt_table_column(t, "lst", 0, &cv));
    CHECK_EQ_I64(cv.kind, PQT_INT32 | PQT_LIST);
    CHECK(cv.list_offsets && cv.row_validity);
    if (cv.list_offsets && cv.row_validity) {
        int bad = 0;
        const int32_t *x = cv.data;
        for (int64_t i = 0; i < N; i++) {
            int64_t id = i + 1, o = cv.list_offsets[i], n = cv.list_offsets[i + 1] - o;
            if (id % 17 == 0) {
                bad += bit(cv.row_validity, i) || n != 0;
                continue;
            }
            bad += !bit(cv.row_validity, i) || n != id % 3;
            for (int64_t k = 0; k < n && n == id % 3; k++) bad += x[o + k] != id + k;
        }
        CHECK_EQ_I64(bad, 0);
    }
    int isnull = -1;
    CHECK_OK(pqt_table_is_null(t, "lst", 17, 0, &isnull));
    CHECK_EQ_I64(isnull, 1);
    CHECK_OK(pqt_table_is_null(t, "lst", 2, 2, &isnull));
    CHECK_EQ_I64(isnull, 0);
    int32_t le = 0;
    CHECK_OK(pqt_table_get_value(t, "lst", 2, 2, PQT_INT32, &le, sizeof le, NULL));
    CHECK_EQ_I64(le, 3);
    CHECK_EQ_I64(pqt_table_get(t, "lst", 0, &le, 4, NULL, 0), PQT_KIND);
    CHECK_EQ_I64(pqt_table_column(t, "nope", 0, &cv), PQT_NOT_FOUND);
    cv.struct_size = 8;
    CHECK_EQ_I64(pqt_table_column(t, "s", 0, &cv), PQT_MISUSE);
    /* is_null on scalars */
    CHECK_OK(pqt_table_is_null(t, "i32", 14, 0, &isnull));
    CHECK_EQ_I64(isnull, 1);
    CHECK_OK(pqt_table_is_null(t, "i32", 15, 0, &isnull));
    CHECK_EQ_I64(isnull, 0);
    CHECK_EQ_I64(pqt_table_is_null(t, "i32", 0, 0, &isnull), PQT_RANGE);
    CHECK_EQ_I64(pqt_table_is_null(t, "nope", 1, 0, &isnull), PQT_NOT_FOUND);
}

static void test_residency(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    if (!t) return;
    const char *names[] = {"i32", "s", "nope"};
    CHECK_EQ_I64(pqt_table_prefetch(t, names, 3), PQT_NOT_FOUND);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY); /* a failed prefetch reads nothing */
    CHECK_OK(pqt_table_prefetch(t, names, 2));
    CHECK_OK(pqt_table_residency(t, "s", &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    /* materialize_all reads everything but does not create the row index */
    CHECK_OK(pqt_table_materialize_all(t));
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    CHECK(pqt_table_has_column(t, PQT_ROW_INDEX));
    for (int i = 0; i < 7; i++) {
        CHECK_OK(pqt_table_residency(t, pqt_table_column_name(t, i), &res));
        CHECK_EQ_I64(res, PQT_RES_FULL);
    }
    /* evict keeps the slot; the next touch re-reads */
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_table_evict(t, "f32", 0));
    CHECK(pqt_table_generation(t) > g);
    CHECK_OK(pqt_table_residency(t, "f32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    float f = 0;
    CHECK_OK(pqt_table_get_value(t, "f32", 8, 0, 0, &f, sizeof f, NULL));
    CHECK(f == 2.0f);
    /* reload: refused for caller-written values unless forced */
    int32_t z = 0;
    CHECK_OK(pqt_table_set_null(t, "i32", 1, 0));
    CHECK_EQ_I64(pqt_table_reload(t, "i32", 0), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "force") != NULL);
    CHECK_EQ_I64(pqt_table_evict(t, "i32", 0), PQT_MISUSE);
    CHECK_OK(pqt_table_reload(t, "i32", 1));
    int isnull = 1;
    CHECK_OK(pqt_table_get_value(t, "i32", 1, 0, 0, &z, sizeof z, &isnull));
    CHECK(z == 3 && !isnull);
    CHECK_EQ_I64(pqt_table_reload(t, "nope", 0), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_evict(t, "nope", 0), PQT_NOT_FOUND);
    /* rename changes the lookup name only: reload still reads the file column */
    CHECK_OK(pqt_table_rename_column(t, "i32", "triple"));
    CHECK(!pqt_table_has_column(t, "i32"));
    CHECK_OK(pqt_table_reload(t, "triple", 0));
    CHECK_OK(pqt_table_get_value(t, "triple", 2, 0, 0, &z, sizeof z, NULL));
    CHECK_EQ_I64(z, 6);
    /* the row index: built on request, listed last, dropping it is permanent */
    int64_t r = 0;
    CHECK_OK(pqt_table_get_value(t, PQT_ROW_INDEX, 10000, 0, 0, &r, sizeof r, NULL));
    CHECK_EQ_I64(r, 10000);
    CHECK_EQ_I64(pqt_table_ncols(t), 8);
    CHECK_EQ_I64(pqt_table_reload(t, PQT_ROW_INDEX, 1), PQT_MISUSE);
    CHECK_OK(pqt_table_drop_column(t, PQT_ROW_INDEX));
    CHECK(!pqt_table_has_column(t, PQT_ROW_INDEX));
    CHECK_EQ_I64(pqt_table_get_value(t, PQT_ROW_INDEX, 1, 0, 0, &r, sizeof r, NULL), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "permanent") != NULL);
    const char *ri[] = {PQT_ROW_INDEX};
    CHECK_EQ_I64(pqt_table_prefetch(t, ri, 1), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    pqt_table_close(t);
    /* dropping it before it was ever built is permanent too */
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    if (!t) return;
    CHECK_OK(pqt_table_drop_column(t, PQT_ROW_INDEX));
    CHECK(!pqt_table_has_column(t, PQT_ROW_INDEX));
    CHECK_EQ_I64(pqt_table_drop_column(t, PQT_ROW_INDEX), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    /* prefetch of the row index builds it */
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    if (!t) return;
    CHECK_OK(pqt_table_prefetch(t, ri, 1));
    CHECK_EQ_I64(pqt_table_ncols(t), 8);
    CHECK_OK(pqt_table_residency(t, PQT_ROW_INDEX, &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    pqt_table_close(t);
}

/* Property: a column read through the table equals the low-level range read (a different
 * code path: pqt_file_read_into), for random slices. */
static void test_property_slices(void)
{
    uint64_t seed = 42;
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(RG, NULL, &f));
    if (!f) return;
    for (int iter = 0; iter < 20; iter++) {
        int64_t lo = 1 + (int64_t)(pqt_test_rand(&seed) % N);
        int64_t hi = lo + (int64_t)(pqt_test_rand(&seed) % (uint64_t)(N - lo + 1));
        int threads = (int)(pqt_test_rand(&seed) % 3);
        pqt_opts *o;
        pqt_opts_new(&o);
        pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo);
        pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi);
        pqt_opts_set_int(o, PQT_OPT_THREADS, threads);
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_open(RG, o, &t));
        pqt_opts_free(o);
        if (!t) continue;
        int64_t n = hi - lo + 1;
        CHECK_EQ_I64(pqt_table_nrows(t), n);
        double *a = calloc((size_t)n, 8), *b = calloc((size_t)n, 8);
        uint8_t *va = calloc((size_t)n / 8 + 1, 1), *vb = calloc((size_t)n / 8 + 1, 1);
        const char *cols[] = {"f64", "i32"};
        CHECK_OK(pqt_table_prefetch(t, cols, 2));
        CHECK_OK(pqt_table_get(t, "f64", 0, a, (size_t)n * 8, va, (size_t)n / 8 + 1));
        CHECK_OK(pqt_file_read_into(f, 3, lo, hi, b, (size_t)n * 8, vb));
        int bad = 0;
        for (int64_t i = 0; i < n; i++)
            bad += bit(va, i) != bit(vb, i) || (bit(va, i) && memcmp(&a[i], &b[i], 8) != 0);
        CHECK_EQ_I64(bad, 0);
        free(a);
        free(b);
        free(va);
        free(vb);
        pqt_table_close(t);
    }
    pqt_file_close(f);
}

int main(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    if (t) {
        test_get_widening(t);
        test_views(t);
        pqt_table_close(t);
    }
    test_residency();
    test_property_slices();
    return pqt_test_done("test_table_values");
}
