/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_mutate.c - changing tables: in-memory tables, add/drop/rename/copy/cast/set,
 * nulls, append with its unit check, sort_by, clone, the detached state and the
 * generation counter. Expected values are computed by hand in the comments; the sort is
 * also checked against a naive insertion sort (its slow twin) on random data.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define RG "tests/data/table_rg.parquet"

static void test_in_memory(void)
{
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_new(&t));
    if (!t) return;
    CHECK_EQ_I64(pqt_table_nrows(t), 0);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 0);
    CHECK_EQ_I64(pqt_table_row_group_extent(t), 0);
    CHECK(strcmp(pqt_table_filename(t), "") == 0);
    CHECK(!pqt_table_has_column(t, PQT_ROW_INDEX));
    int64_t r;
    CHECK_EQ_I64(pqt_table_get_value(t, PQT_ROW_INDEX, 1, 0, 0, &r, 8, NULL), PQT_NOT_FOUND);
    int64_t *b;
    int nb;
    CHECK_EQ_I64(pqt_table_row_group_bounds(t, 1, &b, &nb), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "in memory") != NULL);
    CHECK_EQ_I64(pqt_table_row_group_bounds(t, 0, &b, &nb), PQT_MISUSE);
    const char *mv;
    CHECK_EQ_I64(pqt_table_meta_value(t, "k", &mv), PQT_MISUSE);
    /* the first column fixes nrows */
    double speed[4] = {3.0, 1.0, 2.0, 1.0};
    CHECK_OK(pqt_table_add_column(t, "speed", PQT_FLOAT64, 1, speed, NULL, 4, "m/s"));
    CHECK_EQ_I64(pqt_table_nrows(t), 4);
    int32_t five[5] = {0};
    uint64_t g = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_add_column(t, "bad", PQT_INT32, 1, five, NULL, 5, NULL), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "5 rows") && strstr(pqt_errmsg(), "has 4"));
    CHECK_EQ_I64(pqt_table_add_column(t, "speed", PQT_FLOAT64, 1, speed, NULL, 4, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_add_column(t, PQT_ROW_INDEX, PQT_FLOAT64, 1, speed, NULL, 4, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_generation(t), g); /* failures change nothing */
    CHECK_EQ_I64(pqt_table_ncols(t), 1);
    const char *u = NULL;
    CHECK_OK(pqt_table_unit(t, "speed", &u));
    CHECK(u && strcmp(u, "m/s") == 0);
    int32_t id[4] = {10, 20, 30, 40};
    uint8_t idv = 0x0b; /* row 3 null */
    CHECK_OK(pqt_table_add_column(t, "id", PQT_INT32, 1, id, &idv, 4, NULL));
    int64_t offs[5] = {0, 1, 3, 3, 6};
    CHECK_OK(pqt_table_add_string_column(t, "name", 1, offs, "abbccc", NULL, 4, NULL));
    float vec[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_OK(pqt_table_add_column(t, "v2", PQT_FLOAT32 | PQT_VECTOR, 2, vec, NULL, 4, NULL));
    int isnull = 0;
    CHECK_OK(pqt_table_is_null(t, "id", 3, 0, &isnull));
    CHECK_EQ_I64(isnull, 1);
    int res;
    CHECK_OK(pqt_table_residency(t, "id", &res));
    CHECK_EQ_I64(res, PQT_RES_FULL);
    /* reload and evict: nothing to re-read from */
    CHECK_EQ_I64(pqt_table_reload(t, "id", 1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_evict(t, "id", 1), PQT_MISUSE);
    /* copy with conversion; cast exact and not */
    CHECK_OK(pqt_table_copy_column(t, "id", "id64", PQT_INT64, 1));
    int k;
    CHECK_OK(pqt_table_kind(t, "id64", &k));
    CHECK_EQ_I64(k, PQT_INT64);
    CHECK_OK(pqt_table_cast(t, "speed", PQT_INT32, 1));
    CHECK_OK(pqt_table_kind(t, "speed", &k));
    CHECK_EQ_I64(k, PQT_INT32);
    double half[4] = {0.5, 1, 2, 3};
    CHECK_OK(pqt_table_add_column(t, "h", PQT_FLOAT64, 1, half, NULL, 4, NULL));
    g = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_cast(t, "h", PQT_INT64, 1), PQT_OVERFLOW);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    CHECK_OK(pqt_table_kind(t, "h", &k));
    CHECK_EQ_I64(k, PQT_FLOAT64);
    CHECK_OK(pqt_table_cast(t, "h", PQT_FLOAT64, 1)); /* already that kind: nothing */
    CHECK_EQ_I64(pqt_table_generation(t), g);
    CHECK_EQ_I64(pqt_table_cast(t, "name", PQT_INT64, 1), PQT_KIND);
    CHECK_EQ_I64(pqt_table_cast(t, "nope", PQT_INT64, 1), PQT_NOT_FOUND);
    /* set: exact kind and size */
    int32_t s4[4] = {7, 8, 9, 10};
    CHECK_EQ_I64(pqt_table_set(t, "speed", s4, 12, NULL), PQT_MISUSE);
    CHECK_OK(pqt_table_set(t, "speed", s4, sizeof s4, NULL));
    int32_t got = 0;
    CHECK_OK(pqt_table_get_value(t, "speed", 4, 0, 0, &got, 4, NULL));
    CHECK_EQ_I64(got, 10);
    /* set_null / clear_null, on a column without a bitmap yet: a structural change */
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_set_null(t, "speed", 2, 0));
    CHECK(pqt_table_generation(t) > g);
    CHECK_OK(pqt_table_is_null(t, "speed", 2, 0, &isnull));
    CHECK_EQ_I64(isnull, 1);
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_clear_null(t, "speed", 2, 0));
    CHECK_EQ_I64(pqt_table_generation(t), g);
    CHECK_OK(pqt_table_is_null(t, "speed", 2, 0, &isnull));
    CHECK_EQ_I64(isnull, 0);
    CHECK_OK(pqt_table_set_null(t, "v2", 1, 2));
    CHECK_OK(pqt_table_is_null(t, "v2", 1, 0, &isnull));
    CHECK_EQ_I64(isnull, 1);
    CHECK_OK(pqt_table_is_null(t, "v2", 1, 1, &isnull));
    CHECK_EQ_I64(isnull, 0);
    CHECK_EQ_I64(pqt_table_set_null(t, "v2", 5, 0), PQT_RANGE);
    /* rename / drop */
    CHECK_OK(pqt_table_rename_column(t, "h", "half"));
    CHECK_EQ_I64(pqt_table_rename_column(t, "half", "id"), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_rename_column(t, "half", ""), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_rename_column(t, "nope", "x"), PQT_NOT_FOUND);
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_rename_column(t, "half", "half"));
    CHECK_EQ_I64(pqt_table_generation(t), g);
    CHECK_OK(pqt_table_drop_column(t, "half"));
    CHECK_EQ_I64(pqt_table_drop_column(t, "half"), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_ncols(t), 5);
    pqt_table_close(t);
}

static void test_append(void)
{
    pqt_table *a = NULL, *b = NULL, *c = NULL;
    CHECK_OK(pqt_table_new(&a));
    CHECK_OK(pqt_table_new(&b));
    CHECK_OK(pqt_table_new(&c));
    if (!a || !b || !c) return;
    double va[2] = {1, 2}, vb[3] = {3, 4, 5};
    int32_t ka[2] = {1, 2};
    CHECK_OK(pqt_table_add_column(a, "v", PQT_FLOAT64, 1, va, NULL, 2, "m/s"));
    CHECK_OK(pqt_table_add_column(a, "k", PQT_INT32, 1, ka, NULL, 2, NULL));
    CHECK_OK(pqt_table_add_column(b, "v", PQT_FLOAT64, 1, vb, NULL, 3, "km/h"));
    /* a unit mismatch is an error: no unit conversion */
    uint64_t g = pqt_table_generation(a);
    CHECK_EQ_I64(pqt_table_append(a, b), PQT_UNIT_MISMATCH); /* more in test_append_units.c */
    CHECK(strstr(pqt_errmsg(), "km/h") && strstr(pqt_errmsg(), "m/s"));
    CHECK_EQ_I64(pqt_table_nrows(a), 2);
    CHECK_EQ_I64(pqt_table_generation(a), g);
    CHECK_OK(pqt_table_add_column(c, "v", PQT_FLOAT64, 1, vb, NULL, 3, "m/s"));
    CHECK_OK(pqt_table_append(a, c));
    CHECK_EQ_I64(pqt_table_nrows(a), 5);
    double out[5];
    CHECK_OK(pqt_table_get(a, "v", 0, out, sizeof out, NULL, 0));
    CHECK(out[0] == 1 && out[1] == 2 && out[2] == 3 && out[4] == 5);
    /* k is missing from c: null-filled */
    int isnull = 0;
    CHECK_OK(pqt_table_is_null(a, "k", 3, 0, &isnull));
    CHECK_EQ_I64(isnull, 1);
    CHECK_OK(pqt_table_is_null(a, "k", 2, 0, &isnull));
    CHECK_EQ_I64(isnull, 0);
    const char *u;
    CHECK_OK(pqt_table_unit(a, "v", &u));
    CHECK(strcmp(u, "m/s") == 0);
    /* kind mismatch and unknown columns */
    pqt_table *d = NULL;
    CHECK_OK(pqt_table_new(&d));
    int32_t vi[1] = {1};
    CHECK_OK(pqt_table_add_column(d, "v", PQT_INT32, 1, vi, NULL, 1, "m/s"));
    CHECK_EQ_I64(pqt_table_append(a, d), PQT_KIND);
    CHECK(strstr(pqt_errmsg(), "int32") && strstr(pqt_errmsg(), "float64"));
    CHECK_OK(pqt_table_add_column(c, "extra", PQT_FLOAT64, 1, vb, NULL, 3, NULL));
    CHECK_EQ_I64(pqt_table_append(a, c), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "'extra'") != NULL);
    CHECK_EQ_I64(pqt_table_nrows(a), 5);
    CHECK_EQ_I64(pqt_table_append(a, a), PQT_MISUSE);
    pqt_table_close(a);
    pqt_table_close(b);
    pqt_table_close(c);
    pqt_table_close(d);
}

static void test_sort_small(void)
{
    /* key x: 3, null, NaN, 1, 3, -inf, 2 ; tag = original row (1-based) */
    double x[7] = {3, 0, NAN, 1, 3, -INFINITY, 2};
    uint8_t xv = 0x7d; /* row 2 null */
    int32_t tag[7] = {1, 2, 3, 4, 5, 6, 7};
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_new(&t));
    if (!t) return;
    CHECK_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, &xv, 7, NULL));
    CHECK_OK(pqt_table_add_column(t, "tag", PQT_INT32, 1, tag, NULL, 7, NULL));
    const char *keys[] = {"x"};
    int32_t got[7];
    /* ascending: -inf(6) 1(4) 2(7) 3(1) 3(5) NaN(3) null(2) -- stable: 1 before 5 */
    CHECK_OK(pqt_table_sort_by_names(t, keys, 1, NULL, NULL));
    CHECK_OK(pqt_table_get(t, "tag", 0, got, sizeof got, NULL, 0));
    int32_t asc[7] = {6, 4, 7, 1, 5, 3, 2};
    for (int i = 0; i < 7; i++) CHECK_EQ_I64(got[i], asc[i]);
    /* sorting again changes nothing: no new generation */
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_table_sort_by_names(t, keys, 1, NULL, NULL));
    CHECK_EQ_I64(pqt_table_generation(t), g);
    /* descending reverses the values only: 3(1) 3(5) 2 1 -inf, then NaN, then null */
    int desc = 1;
    CHECK_OK(pqt_table_sort_by_names(t, keys, 1, &desc, NULL));
    CHECK(pqt_table_generation(t) > g);
    CHECK_OK(pqt_table_get(t, "tag", 0, got, sizeof got, NULL, 0));
    int32_t dsc[7] = {1, 5, 7, 4, 6, 3, 2};
    for (int i = 0; i < 7; i++) CHECK_EQ_I64(got[i], dsc[i]);
    /* nulls first on this key: nulls, then NaN, then the values (docs/sort.md) */
    int nf = 1;
    CHECK_OK(pqt_table_sort_by_names(t, keys, 1, NULL, &nf));
    CHECK_OK(pqt_table_get(t, "tag", 0, got, sizeof got, NULL, 0));
    int32_t nfirst[7] = {2, 3, 6, 4, 7, 1, 5};
    for (int i = 0; i < 7; i++) CHECK_EQ_I64(got[i], nfirst[i]);
    /* two keys: a string key breaks ties of an int key */
    int64_t offs[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, offs, "bababab", NULL, 7, NULL));
    int32_t grp[7] = {1, 0, 1, 0, 1, 0, 1};
    CHECK_OK(pqt_table_add_column(t, "g", PQT_INT32, 1, grp, NULL, 7, NULL));
    const char *k2[] = {"g", "s"};
    int d2[2] = {1, 0};
    CHECK_OK(pqt_table_sort_by_names(t, k2, 2, d2, NULL));
    /* before: tags 2 3 6 4 7 1 5, g 1 0 1 0 1 0 1, s b a b a b a b
     * g desc: rows with g=1 (tags 2,6,7,5; s all b) then g=0 (3,4,1; s all a), stable */
    CHECK_OK(pqt_table_get(t, "tag", 0, got, sizeof got, NULL, 0));
    int32_t two[7] = {2, 6, 7, 5, 3, 4, 1};
    for (int i = 0; i < 7; i++) CHECK_EQ_I64(got[i], two[i]);
    CHECK_EQ_I64(pqt_table_sort_by_names(t, (const char *const[]){"nope"}, 1, NULL, NULL), PQT_NOT_FOUND);
    float vec[14] = {0};
    CHECK_OK(pqt_table_add_column(t, "vec", PQT_FLOAT32 | PQT_VECTOR, 2, vec, NULL, 7, NULL));
    CHECK_EQ_I64(pqt_table_sort_by_names(t, (const char *const[]){"vec"}, 1, NULL, NULL), PQT_KIND);
    pqt_table_close(t);
}

/* Property: sort_by equals a naive stable insertion sort (the slow twin). */
static void test_sort_property(void)
{
    uint64_t seed = 7;
    for (int iter = 0; iter < 30; iter++) {
        int n = 1 + (int)(pqt_test_rand(&seed) % 200);
        int32_t *a = malloc((size_t)n * 4), *tag = malloc((size_t)n * 4);
        uint8_t *av = calloc((size_t)n / 8 + 1, 1);
        int *order = malloc((size_t)n * sizeof *order);
        for (int i = 0; i < n; i++) {
            a[i] = (int32_t)(pqt_test_rand(&seed) % 10);
            tag[i] = i;
            if (pqt_test_rand(&seed) % 5) av[i / 8] |= (uint8_t)(1u << (i % 8));
            order[i] = i;
        }
        int desc = (int)(pqt_test_rand(&seed) & 1), nf = (int)(pqt_test_rand(&seed) & 1);
        /* slow twin: insertion sort with the documented order */
        for (int i = 1; i < n; i++) {
            int x = order[i], j = i - 1;
            while (j >= 0) {
                int y = order[j];
                int nx = !(av[x / 8] >> (x % 8) & 1), ny = !(av[y / 8] >> (y % 8) & 1);
                int c;
                if (nx || ny) c = nx && ny ? 0 : (nx ? 1 : -1) * (nf ? -1 : 1);
                else c = (a[x] > a[y]) - (a[x] < a[y]), c = desc ? -c : c;
                if (c >= 0) break;
                order[j + 1] = y;
                j--;
            }
            order[j + 1] = x;
        }
        pqt_table *t = NULL;
        CHECK_OK(pqt_table_new(&t));
        CHECK_OK(pqt_table_add_column(t, "a", PQT_INT32, 1, a, av, n, NULL));
        CHECK_OK(pqt_table_add_column(t, "tag", PQT_INT32, 1, tag, NULL, n, NULL));
        const char *keys[] = {"a"};
        CHECK_OK(pqt_table_sort_by_names(t, keys, 1, &desc, &nf));
        int32_t *got = malloc((size_t)n * 4);
        CHECK_OK(pqt_table_get(t, "tag", 0, got, (size_t)n * 4, NULL, 0));
        int bad = 0;
        for (int i = 0; i < n; i++) bad += got[i] != order[i];
        CHECK_EQ_I64(bad, 0);
        pqt_table_close(t);
        free(a);
        free(tag);
        free(av);
        free(order);
        free(got);
    }
}

static void test_detach_and_clone(void)
{
    pqt_opts *o;
    pqt_opts_new(&o);
    pqt_opts_set_int(o, PQT_OPT_ROW_LO, 101);
    pqt_opts_set_int(o, PQT_OPT_ROW_HI, 110);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(RG, o, &t));
    pqt_opts_free(o);
    if (!t) return;
    /* cast before the first read: sets the decode kind only */
    CHECK_OK(pqt_table_cast(t, "id", PQT_FLOAT64, 1));
    int res, k;
    CHECK_OK(pqt_table_residency(t, "id", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    CHECK_OK(pqt_table_kind(t, "id", &k));
    CHECK_EQ_I64(k, PQT_FLOAT64);
    /* clone keeps unread columns lazy, with the same rows */
    pqt_table *c = NULL;
    CHECK_OK(pqt_table_clone(t, &c));
    if (c) {
        CHECK_EQ_I64(pqt_table_nrows(c), 10);
        double d = 0;
        CHECK_OK(pqt_table_get_value(c, "id", 1, 0, 0, &d, 8, NULL));
        CHECK(d == 101.0);
        int32_t v = 0;
        CHECK_OK(pqt_table_get_value(c, "i32", 10, 0, 0, &v, 4, NULL));
        CHECK_EQ_I64(v, 330);
        int64_t r = 0;
        CHECK_OK(pqt_table_get_value(c, PQT_ROW_INDEX, 2, 0, 0, &r, 8, NULL));
        CHECK_EQ_I64(r, 102);
        CHECK_OK(pqt_table_residency(t, "i32", &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY); /* the source is untouched */
        pqt_table_close(c);
    }
    /* sorting moves rows: the table detaches */
    const char *keys[] = {"f32"};
    int desc = 1;
    CHECK_OK(pqt_table_sort_by_names(t, keys, 1, &desc, NULL));
    CHECK(pqt_table_is_detached(t));
    float f = 0;
    CHECK_OK(pqt_table_get_value(t, "f32", 1, 0, 0, &f, 4, NULL));
    CHECK(f == 110 / 4.0f);
    int32_t v = 0;
    CHECK_EQ_I64(pqt_table_get_value(t, "i32", 1, 0, 0, &v, 4, NULL), PQT_DETACHED);
    CHECK(strstr(pqt_errmsg(), "never read") && strstr(pqt_errmsg(), "detached"));
    CHECK(!pqt_table_has_column(t, PQT_ROW_INDEX));
    int64_t r;
    CHECK_EQ_I64(pqt_table_get_value(t, PQT_ROW_INDEX, 1, 0, 0, &r, 8, NULL), PQT_DETACHED);
    int64_t *b;
    int nb;
    CHECK_EQ_I64(pqt_table_row_group_bounds(t, 1, &b, &nb), PQT_DETACHED);
    CHECK_EQ_I64(pqt_table_row_group_bounds(t, 0, &b, &nb), PQT_DETACHED);
    CHECK_EQ_I64(pqt_table_reload(t, "f32", 1), PQT_DETACHED);
    CHECK_EQ_I64(pqt_table_nrows_unfiltered(t), 10); /* captured at open */
    /* a detached clone is detached too */
    CHECK_OK(pqt_table_clone(t, &c));
    if (c) {
        CHECK(pqt_table_is_detached(c));
        CHECK_OK(pqt_table_get_value(c, "f32", 10, 0, 0, &f, 4, NULL));
        CHECK(f == 101 / 4.0f);
        pqt_table_close(c);
    }
    pqt_table_close(t);
    /* the row index requested before the sort is an ordinary column afterwards */
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    if (!t) return;
    const char *pre[] = {PQT_ROW_INDEX, "f32"};
    CHECK_OK(pqt_table_prefetch(t, pre, 2));
    CHECK_OK(pqt_table_sort_by_names(t, keys, 1, &desc, NULL));
    CHECK_OK(pqt_table_get_value(t, PQT_ROW_INDEX, 1, 0, 0, &r, 8, NULL));
    CHECK_EQ_I64(r, 10000);
    pqt_table_close(t);
    /* append onto a file table detaches it; a zero-row append changes nothing */
    REQUIRE_OK(pqt_table_open(RG, NULL, &t));
    pqt_table *e = NULL;
    CHECK_OK(pqt_table_new(&e));
    int64_t ids[2] = {-1, -2};
    CHECK_OK(pqt_table_add_column(e, "id", PQT_INT64, 1, ids, NULL, 0, NULL));
    uint64_t g = pqt_table_generation(t);
    CHECK_OK(pqt_table_append(t, e));
    CHECK(!pqt_table_is_detached(t));
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_table_close(e);
    CHECK_OK(pqt_table_new(&e));
    CHECK_OK(pqt_table_add_column(e, "id", PQT_INT64, 1, ids, NULL, 2, NULL));
    const char *pid[] = {"id"};
    CHECK_OK(pqt_table_prefetch(t, pid, 1));
    CHECK_OK(pqt_table_append(t, e));
    CHECK(pqt_table_is_detached(t));
    CHECK_EQ_I64(pqt_table_nrows(t), 10002);
    int64_t last = 0;
    CHECK_OK(pqt_table_get_value(t, "id", 10002, 0, 0, &last, 8, NULL));
    CHECK_EQ_I64(last, -2);
    const char *mv;
    CHECK_EQ_I64(pqt_table_meta_value(t, "none", &mv), PQT_NOT_FOUND); /* still answers */
    pqt_table_close(e);
    pqt_table_close(t);
}

int main(void)
{
    test_in_memory();
    test_append();
    test_sort_small();
    test_sort_property();
    test_detach_and_clone();
    return pqt_test_done("test_table_mutate");
}
