/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_threads.c - the lazy table and OpenMP: the per-thread slice pattern,
 * the refusal of changes to a shared table inside a parallel region, and parallel
 * prefetch against its serial twin.
 *
 * Truth: tests/data/table_big.parquet holds v = 1..2500000 (DuckDB, make_table_data.mjs),
 * so the total is n (n + 1) / 2.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define BIG "tests/data/table_big.parquet"
#define RG "tests/data/table_rg.parquet"

static void test_per_thread_slices(void)
{
    int64_t *bounds = NULL;
    int nrg = 0;
    CHECK_OK(pqt_row_group_bounds(BIG, &bounds, &nrg));
    CHECK_EQ_I64(nrg, 25);
    if (!bounds) return;
    int64_t total = 0, errors = 0, rows = 0;
#pragma omp parallel for num_threads(2) reduction(+ : total, errors, rows) schedule(dynamic, 1)
    for (int rg = 0; rg < nrg; rg++) {
        pqt_opts *o = NULL;
        pqt_table *mine = NULL;
        int64_t *x = NULL, n = 0;
        if (pqt_opts_new(&o) != PQT_OK) {
            errors++;
            continue;
        }
        pqt_opts_set_int(o, PQT_OPT_ROW_LO, bounds[2 * rg]);
        pqt_opts_set_int(o, PQT_OPT_ROW_HI, bounds[2 * rg + 1]);
        /* a table opened inside the region is this thread's own: lazy reads are allowed */
        if (pqt_table_open(BIG, o, &mine) != PQT_OK ||
            pqt_table_get_alloc(mine, "v", 0, (void **)&x, NULL, &n) != PQT_OK) {
            fprintf(stderr, "thread %d: %s\n", omp_get_thread_num(), pqt_errmsg());
            errors++;
        } else {
            for (int64_t i = 0; i < n; i++) total += x[i];
            rows += n;
            /* so are its own structural changes and its row index */
            int64_t r = 0;
            if (pqt_table_get_value(mine, PQT_ROW_INDEX, 1, 0, 0, &r, sizeof r, NULL) != PQT_OK ||
                r != bounds[2 * rg])
                errors++;
        }
        pqt_free(x);
        pqt_table_close(mine);
        pqt_opts_free(o);
    }
    CHECK_EQ_I64(errors, 0);
    CHECK_EQ_I64(rows, 2500000);
    /* single-threaded read of the whole file */
    pqt_opts *o;
    pqt_opts_new(&o);
    pqt_opts_set_int(o, PQT_OPT_THREADS, 1);
    pqt_table *t = NULL;
    int64_t *x = NULL, n = 0, serial = 0;
    REQUIRE_OK(pqt_table_open(BIG, o, &t));
    CHECK_OK(pqt_table_get_alloc(t, "v", 0, (void **)&x, NULL, &n));
    for (int64_t i = 0; x && i < n; i++) serial += x[i];
    CHECK_EQ_I64(serial, (int64_t)2500000 * 2500001 / 2);
    CHECK_EQ_I64(total, serial);
    pqt_free(x);
    pqt_table_close(t);
    pqt_opts_free(o);
    pqt_free(bounds);
}

static void test_shared_table_refusals(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    if (!t) return;
    const char *pre[] = {"id"};
    CHECK_OK(pqt_table_prefetch(t, pre, 1));
    int refused_touch = 0, refused_ri = 0, refused_add = 0, refused_drop = 0, ok_reads = 0,
        named_prefetch = 0, refused_width = 0;
#pragma omp parallel num_threads(2) reduction(+ : refused_touch, refused_ri, refused_add, \
                                              refused_drop, ok_reads, named_prefetch, refused_width)
    {
        int64_t v = 0;
        /* resident: safe from every thread */
        if (pqt_table_get_value(t, "id", 5, 0, 0, &v, sizeof v, NULL) == PQT_OK && v == 5) ok_reads++;
        /* first touch, first row-index request, structural change: refused */
        if (pqt_table_get_value(t, "i32", 1, 0, 0, &v, sizeof v, NULL) == PQT_PARALLEL) {
            refused_touch++;
            named_prefetch += strstr(pqt_errmsg(), "pqt_table_prefetch") != NULL;
        }
        if (pqt_table_get_value(t, PQT_ROW_INDEX, 1, 0, 0, &v, sizeof v, NULL) == PQT_PARALLEL)
            refused_ri++;
        int32_t one = 1;
        if (pqt_table_add_column(t, "new", PQT_INT32, 1, &one, NULL, 1, NULL) == PQT_PARALLEL)
            refused_add++;
        if (pqt_table_drop_column(t, "f32") == PQT_PARALLEL) refused_drop++;
        int w;
        if (pqt_table_width(t, "lst", &w) == PQT_PARALLEL) refused_width++;
    }
    CHECK_EQ_I64(ok_reads, 2);
    CHECK_EQ_I64(refused_touch, 2);
    CHECK_EQ_I64(named_prefetch, 2);
    CHECK_EQ_I64(refused_ri, 2);
    CHECK_EQ_I64(refused_add, 2);
    CHECK_EQ_I64(refused_drop, 2);
    CHECK_EQ_I64(refused_width, 2);
    /* nothing changed */
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    /* prefetch before the region, then every thread may read */
    const char *more[] = {PQT_ROW_INDEX, "i32"};
    CHECK_OK(pqt_table_prefetch(t, more, 2));
    int good = 0;
#pragma omp parallel num_threads(2) reduction(+ : good)
    {
        int64_t v = 0, r = 0;
        if (pqt_table_get_value(t, "i32", 2, 0, PQT_INT64, &v, sizeof v, NULL) == PQT_OK && v == 6 &&
            pqt_table_get_value(t, PQT_ROW_INDEX, 3, 0, 0, &r, sizeof r, NULL) == PQT_OK && r == 3)
            good++;
    }
    CHECK_EQ_I64(good, 2);
    pqt_table_close(t);
}

/* Fast path (prefetch decoding several columns in parallel) against its slow twin (one
 * thread, one column at a time): identical bytes. */
static void test_parallel_prefetch_twin(void)
{
    const char *cols[] = {"id", "i32", "f32", "f64", "s", "vec", "lst"};
    pqt_opts *o1, *o4;
    pqt_opts_new(&o1);
    pqt_opts_new(&o4);
    pqt_opts_set_int(o1, PQT_OPT_THREADS, 1);
    pqt_opts_set_int(o4, PQT_OPT_THREADS, 4);
    for (int slice = 0; slice < 2; slice++) {
        if (slice) {
            pqt_opts_set_int(o1, PQT_OPT_ROW_LO, 1500);
            pqt_opts_set_int(o1, PQT_OPT_ROW_HI, 9000);
            pqt_opts_set_int(o4, PQT_OPT_ROW_LO, 1500);
            pqt_opts_set_int(o4, PQT_OPT_ROW_HI, 9000);
        }
        pqt_table *a = NULL, *b = NULL;
        REQUIRE_OK(pqt_table_open(RG, o1, &a));
        REQUIRE_OK(pqt_table_open(RG, o4, &b));
        if (!a || !b) return;
        CHECK_OK(pqt_table_prefetch(b, cols, 7));
        for (int c = 0; c < 7; c++) {
            pqt_column_view va, vb;
            memset(&va, 0, sizeof va);
            memset(&vb, 0, sizeof vb);
            va.struct_size = vb.struct_size = sizeof va;
            CHECK_OK(pqt_table_column(a, cols[c], 0, &va));
            CHECK_OK(pqt_table_column(b, cols[c], 0, &vb));
            CHECK_EQ_I64(va.kind, vb.kind);
            CHECK_EQ_I64(va.nelem, vb.nelem);
            size_t es = pqt_kind_elem_nbytes(va.kind);
            if (va.data && vb.data) CHECK(memcmp(va.data, vb.data, (size_t)va.nelem * es) == 0);
            if (va.str_offsets)
                CHECK(memcmp(va.str_offsets, vb.str_offsets, (size_t)(va.nelem + 1) * 8) == 0 &&
                      memcmp(va.str_bytes, vb.str_bytes, (size_t)va.str_offsets[va.nelem]) == 0);
            if (va.validity) CHECK(vb.validity && memcmp(va.validity, vb.validity, (size_t)va.nelem / 8) == 0);
        }
        pqt_table_close(a);
        pqt_table_close(b);
    }
    pqt_opts_free(o1);
    pqt_opts_free(o4);
}

int main(void)
{
    test_per_thread_slices();
    test_shared_table_refusals();
    test_parallel_prefetch_twin();
    return pqt_test_done("test_table_threads");
}
