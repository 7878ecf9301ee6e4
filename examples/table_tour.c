/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_tour.c - a tour of the lazy table, written from pqt.h alone: open a file whole and
 * as a slice, row-group bounds in both forms, reading columns (numbers, strings, lists),
 * the row index, prefetch with threads, per-row-group slices, clone, an in-memory sort,
 * and a table built in memory. Run from the repository root:
 *   table_tour [tests/data/table_rg.parquet]
 * tests/test_table_tour.sh checks its output against what DuckDB reads from the same file.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pqt.h"

#define TRY(x)                                                                                     \
    do {                                                                                           \
        if ((x) != PQT_OK) {                                                                       \
            fprintf(stderr, "table_tour: %s: %s\n", #x, pqt_errmsg());                             \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void print_bounds(pqt_table *t, int physical)
{
    int64_t *b;
    int n;
    TRY(pqt_table_row_group_bounds(t, physical, &b, &n));
    printf("  bounds(%s):", physical ? "physical" : "table");
    for (int rg = 0; rg < n; rg++) printf(" %lld..%lld", (long long)b[2 * rg], (long long)b[2 * rg + 1]);
    printf("\n");
    pqt_free(b);
}

static void describe(const char *what, pqt_table *t)
{
    printf("%s: nrows %lld, unfiltered %lld, extent %lld, ncols %d\n", what,
           (long long)pqt_table_nrows(t), (long long)pqt_table_nrows_unfiltered(t),
           (long long)pqt_table_row_group_extent(t), pqt_table_ncols(t));
    print_bounds(t, 1);
    print_bounds(t, 0);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "tests/data/table_rg.parquet";
    pqt_table *whole, *slice, *copy, *mem;

    /* 1. the whole file: schema only, nothing read yet */
    TRY(pqt_table_open(path, NULL, &whole));
    describe("whole", whole);
    for (int i = 0; i < pqt_table_ncols(whole); i++) {
        const char *nm = pqt_table_column_name(whole, i);
        int kind, width, res;
        TRY(pqt_table_kind(whole, nm, &kind));
        TRY(pqt_table_width(whole, nm, &width));
        TRY(pqt_table_residency(whole, nm, &res));
        printf("  column %s: %s, width %d, %s\n", nm, pqt_kind_name(kind), width,
               res == PQT_RES_FULL ? "read" : "not read");
    }

    /* 2. prefetch several columns in one pass, decoded in parallel */
    pqt_opts *opts;
    TRY(pqt_opts_new(&opts));
    TRY(pqt_opts_set_int(opts, PQT_OPT_THREADS, 2));
    pqt_table *par;
    TRY(pqt_table_open(path, opts, &par));
    const char *cols[3] = {"i32", "f64", "s"};
    TRY(pqt_table_prefetch(par, cols, 3));
    int64_t *i32;
    uint8_t *valid;
    int64_t n, sum = 0, nnull = 0;
    TRY(pqt_table_get_alloc(par, "i32", PQT_INT64, (void **)&i32, &valid, &n)); /* widens */
    for (int64_t i = 0; i < n; i++) {
        if (valid && !(valid[i / 8] >> (i % 8) & 1)) nnull++;
        else sum += i32[i];
    }
    printf("prefetch (2 threads): i32 sum %lld, nulls %lld\n", (long long)sum, (long long)nnull);
    pqt_free(i32);
    pqt_free(valid);
    pqt_table_close(par);

    /* 3. the planning pattern: one slice per row group covers every row exactly once */
    int64_t *b;
    int nrg;
    TRY(pqt_row_group_bounds(path, &b, &nrg));
    sum = 0;
    for (int rg = 0; rg < nrg; rg++) {
        pqt_table *mine;
        TRY(pqt_opts_set_int(opts, PQT_OPT_ROW_LO, b[2 * rg]));
        TRY(pqt_opts_set_int(opts, PQT_OPT_ROW_HI, b[2 * rg + 1]));
        TRY(pqt_table_open(path, opts, &mine));
        int64_t *id;
        TRY(pqt_table_get_alloc(mine, "id", 0, (void **)&id, NULL, &n));
        for (int64_t i = 0; i < n; i++) sum += id[i];
        pqt_free(id);
        pqt_table_close(mine);
    }
    pqt_free(b);
    printf("per-row-group slices: %d, id sum %lld\n", nrg, (long long)sum);

    /* 4. a slice: rows 3000..5000 of the file, numbered 1..2001 in the table */
    TRY(pqt_opts_set_int(opts, PQT_OPT_ROW_LO, 3000));
    TRY(pqt_opts_set_int(opts, PQT_OPT_ROW_HI, 5000));
    TRY(pqt_table_open(path, opts, &slice));
    describe("slice 3000..5000", slice);
    double f64[3];
    int isnull;
    TRY(pqt_table_get_range(slice, "f64", 1, 3, 0, f64, sizeof f64, NULL, 0));
    printf("  f64 rows 1..3: %.1f %.1f %.1f\n", f64[0], f64[1], f64[2]);
    const char *s;
    int64_t len;
    printf("  s rows 1..3:");
    for (int64_t r = 1; r <= 3; r++) {
        TRY(pqt_table_get_string(slice, "s", r, 0, &s, &len, &isnull));
        printf(" %.*s", isnull ? 4 : (int)len, isnull ? "null" : s);
    }
    printf("\n");
    int64_t nstr, nbytes, nelem;
    TRY(pqt_table_get_sizes(slice, "s", &nstr, &nbytes));
    TRY(pqt_table_get_sizes(slice, "lst", &nelem, NULL));
    printf("  s: %lld strings, %lld bytes; lst: %lld elements\n", (long long)nstr,
           (long long)nbytes, (long long)nelem);
    int64_t ri[2], rows[2] = {1, 2001};
    TRY(pqt_table_get_rows(slice, PQT_ROW_INDEX, rows, 2, 0, ri, sizeof ri, NULL, 0));
    printf("  row index: first %lld, last %lld\n", (long long)ri[0], (long long)ri[1]);

    /* 5. clone (unread columns stay lazy), then sort the clone in memory */
    TRY(pqt_table_clone(slice, &copy));
    const char *key[1] = {"f64"};
    int desc[1] = {1};
    TRY(pqt_table_sort_by_names(copy, key, 1, desc, NULL)); /* values, then NaN, then nulls */
    printf("sorted clone: detached %d, source detached %d\n", pqt_table_is_detached(copy),
           pqt_table_is_detached(slice));
    for (int64_t r = 1; r <= 3; r++) {
        TRY(pqt_table_get_value(copy, PQT_ROW_INDEX, r, 0, 0, &ri[0], 8, NULL));
        TRY(pqt_table_get_value(copy, "f64", r, 0, 0, &f64[0], 8, NULL));
        printf("  row %lld: file row %lld, f64 %.1f\n", (long long)r, (long long)ri[0], f64[0]);
    }
    TRY(pqt_table_get_value(copy, PQT_ROW_INDEX, 2001, 0, 0, &ri[0], 8, NULL));
    TRY(pqt_table_is_null(copy, "f64", 2001, 0, &isnull));
    printf("  last row: file row %lld, f64 %s\n", (long long)ri[0], isnull ? "null" : "not null");
    pqt_table_close(copy);
    pqt_table_close(slice);
    pqt_table_close(whole);
    pqt_opts_free(opts);

    /* 6. a table built in memory, sorted, read back */
    TRY(pqt_table_new(&mem));
    double speed[4] = {3.5, 1.25, 2.0, 1.25};
    int64_t offs[5] = {0, 3, 7, 11, 14};
    TRY(pqt_table_add_column(mem, "speed", PQT_FLOAT64, 1, speed, NULL, 4, "m/s"));
    TRY(pqt_table_add_string_column(mem, "name", 1, offs, "carbikewalkbus", NULL, 4, NULL));
    const char *by[2] = {"speed", "name"};
    TRY(pqt_table_sort_by_names(mem, by, 2, NULL, NULL));
    int64_t *so;
    char *sb;
    TRY(pqt_table_get_strings_alloc(mem, "name", &so, &sb, NULL, &n));
    TRY(pqt_table_get(mem, "speed", 0, speed, sizeof speed, NULL, 0));
    const char *unit;
    TRY(pqt_table_unit(mem, "speed", &unit));
    printf("in memory (%lld rows, speed in %s):", (long long)pqt_table_nrows(mem), unit);
    for (int64_t i = 0; i < n; i++)
        printf(" %.*s=%.2f", (int)(so[i + 1] - so[i]), sb + so[i], speed[i]);
    printf("\n");
    pqt_free(so);
    pqt_free(sb);
    pqt_table_close(mem);
    return 0;
}
