/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_get_direct.c - pqt_table_get / get_alloc of a never-read column decode straight
 * into the caller's memory and leave the column unread; they must give exactly what the
 * resident path gives, nulls and slices included, with 1 and 2 threads.
 *
 * Truth: tests/data/table_rg.parquet, written by DuckDB from formulas of the 1-based row id
 * (tests/data/make_table_data.mjs): i32 = id * 3 (NULL when id % 7 == 0), f64 = id * 0.5
 * (NULL when id % 11 == 0, NaN when id % 13 == 0), 10000 rows in row groups of 2048.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define RG "tests/data/table_rg.parquet"

static pqt_table *open_slice(int64_t lo, int64_t hi, int threads)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    REQUIRE_OK(pqt_table_open(RG, o, &t));
    pqt_opts_free(o);
    return t;
}

static int bit(const uint8_t *v, int64_t i) { return v[i >> 3] >> (i & 7) & 1; }

static int residency(pqt_table *t, const char *name)
{
    int r = -1;
    CHECK_OK(pqt_table_residency(t, name, &r));
    return r;
}

static void check_slice(int64_t lo, int64_t hi, int threads)
{
    pqt_table *t = open_slice(lo, hi, threads);
    int64_t n = hi - lo + 1;
    CHECK_EQ_I64(pqt_table_nrows(t), n);

    /* get into caller memory: values and validity from the formulas, column left unread */
    int32_t *i32 = malloc((size_t)n * sizeof *i32);
    uint8_t *v = calloc((size_t)(n + 7) / 8, 1);
    memset(i32, 0x5a, (size_t)n * sizeof *i32); /* nulls must come back as 0, not garbage */
    CHECK_OK(pqt_table_get(t, "i32", PQT_INT32, i32, (size_t)n * sizeof *i32, v, (size_t)(n + 7) / 8));
    CHECK_EQ_I64(residency(t, "i32"), PQT_RES_EMPTY);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t id = lo + i;
        int null = id % 7 == 0;
        if (bit(v, i) != !null || i32[i] != (null ? 0 : id * 3)) bad++;
    }
    CHECK_EQ_I64(bad, 0);

    /* the resident path (a view makes the column resident) agrees value for value */
    int32_t *again = malloc((size_t)n * sizeof *again);
    CHECK_OK(pqt_table_prefetch(t, (const char *const[]){"i32"}, 1));
    CHECK_EQ_I64(residency(t, "i32"), PQT_RES_FULL);
    CHECK_OK(pqt_table_get(t, "i32", PQT_INT32, again, (size_t)n * sizeof *again, NULL, 0));
    CHECK(memcmp(i32, again, (size_t)n * sizeof *i32) == 0);

    /* get_alloc: one allocation, validity only when something is null */
    double *f64 = NULL;
    uint8_t *fv = NULL;
    int64_t ne = -1;
    CHECK_OK(pqt_table_get_alloc(t, "f64", PQT_FLOAT64, (void **)&f64, &fv, &ne));
    CHECK_EQ_I64(ne, n);
    CHECK_EQ_I64(residency(t, "f64"), PQT_RES_EMPTY);
    int any_null = 0;
    bad = 0;
    for (int64_t i = 0; i < n && f64; i++) {
        int64_t id = lo + i;
        int null = id % 11 == 0;
        any_null |= null;
        if (null) bad += (fv && bit(fv, i)) || f64[i] != 0.0;
        else if (id % 13 == 0) bad += !isnan(f64[i]) || (fv && !bit(fv, i));
        else bad += f64[i] != (double)id * 0.5 || (fv && !bit(fv, i));
    }
    CHECK_EQ_I64(bad, 0);
    CHECK((fv != NULL) == any_null);

    /* widening is not direct: the resident path still answers (and makes it resident) */
    int64_t *w = malloc((size_t)n * sizeof *w);
    CHECK_OK(pqt_table_get(t, "i32", PQT_INT64, w, (size_t)n * sizeof *w, NULL, 0));
    for (int64_t i = 0; i < n; i++) bad += w[i] != i32[i];
    CHECK_EQ_I64(bad, 0);

    /* a destination too small is refused before anything is read */
    CHECK_EQ_I64(pqt_table_get(t, "id", PQT_INT64, w, (size_t)n * 8 - 1, NULL, 0), PQT_MISUSE);
    CHECK_EQ_I64(residency(t, "id"), PQT_RES_EMPTY);

    free(i32);
    free(v);
    free(again);
    free(w);
    pqt_free(f64);
    pqt_free(fv);
    pqt_table_close(t);
}

int main(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        check_slice(1, 10000, threads);   /* whole file */
        check_slice(2030, 4100, threads); /* crosses two row-group boundaries */
        check_slice(4097, 4097, threads); /* one row at a row group's start */
    }
    return pqt_test_done("test_table_get_direct");
}
