/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sort_table.c - the sort calls on tables (docs/sort.md): sort_by, top_n,
 * argsort_by (with groups) and is_sorted_by agree with each other and with a model -- qsort
 * over row numbers with a comparator written out here per kind, ties broken by row number
 * (stability) -- on random data full of ties, nulls, NaN, -0.0, infinities, extreme
 * integers and strings sharing long prefixes or differing only by a trailing zero byte.
 * Placement by hand on small tables; no-op sorts do not detach; argsort changes nothing.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

enum { C_I32, C_I64, C_U64, C_F32, C_F64, C_BOOL, C_STR, C_DATE, NCOLS };
static const char *const col_names[NCOLS] = {"i32", "i64", "u64", "f32", "f64", "bool", "str", "date"};

static const char *const strs[] = {"", "a", "ab", "ab\0", "abcdefgh", "abcdefghi", "abcdefgh\xff",
                                   "abcdefgg", "b", "\xff"};
static const int str_lens[] = {0, 1, 2, 3, 8, 9, 9, 8, 1, 1};

typedef struct data {
    int n;
    int32_t *i32, *date;
    int64_t *i64;
    uint64_t *u64;
    float *f32;
    double *f64;
    uint8_t *b;
    int *str; /* index into strs */
    bool *null[NCOLS];
} data;

static data D;
static int model_cols[4], model_nkeys;
static bool model_desc[4], model_nf[4];

static int cmp_val(int col, int x, int y)
{
#define CMP(a, b) (((a) > (b)) - ((a) < (b)))
    switch (col) {
    case C_I32: return CMP(D.i32[x], D.i32[y]);
    case C_DATE: return CMP(D.date[x], D.date[y]);
    case C_I64: return CMP(D.i64[x], D.i64[y]);
    case C_U64: return CMP(D.u64[x], D.u64[y]);
    case C_F32: return CMP(D.f32[x], D.f32[y]); /* -0.0 == 0.0 here */
    case C_F64: return CMP(D.f64[x], D.f64[y]);
    case C_BOOL: return CMP(D.b[x], D.b[y]);
    default: {
        int a = D.str[x], b = D.str[y];
        int m = str_lens[a] < str_lens[b] ? str_lens[a] : str_lens[b];
        int c = memcmp(strs[a], strs[b], (size_t)m);
        if (c) return c < 0 ? -1 : 1;
        return CMP(str_lens[a], str_lens[b]);
    }
    }
#undef CMP
}

static bool nan_at(int col, int x)
{
    return (col == C_F32 && isnan(D.f32[x])) || (col == C_F64 && isnan(D.f64[x]));
}

/* placement rank: values 0, NaN 1, null 2 -- reversed with nulls_first */
static int rank_at(int k, int x)
{
    int col = model_cols[k];
    int cls = D.null[col][x] ? 2 : nan_at(col, x) ? 1 : 0;
    return model_nf[k] ? 2 - cls : cls;
}

static int model_keys_cmp(int x, int y, int nkeys)
{
    for (int k = 0; k < nkeys; k++) {
        int rx = rank_at(k, x), ry = rank_at(k, y);
        if (rx != ry) return rx < ry ? -1 : 1;
        if (D.null[model_cols[k]][x] || nan_at(model_cols[k], x)) continue;
        int c = cmp_val(model_cols[k], x, y);
        if (model_desc[k]) c = -c;
        if (c) return c;
    }
    return 0;
}

static int model_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = model_keys_cmp(x, y, model_nkeys);
    return c ? c : (x > y) - (x < y);
}

static uint64_t rnd(uint64_t *s, uint64_t m) { return pqt_test_rand(s) % m; }

static void make_data(uint64_t *s, int n)
{
    static const double fv[] = {-INFINITY, -1.5, -0.0, 0.0, 2.0, INFINITY, NAN, 1e300};
    static const int64_t iv[] = {INT64_MIN, -1, 0, 1, INT64_MAX, 1LL << 40};
    static const uint64_t uv[] = {0, 1, UINT64_C(1) << 63, UINT64_MAX, 12345};
    D.n = n;
    D.i32 = malloc(sizeof(int32_t) * (size_t)n);
    D.date = malloc(sizeof(int32_t) * (size_t)n);
    D.i64 = malloc(sizeof(int64_t) * (size_t)n);
    D.u64 = malloc(sizeof(uint64_t) * (size_t)n);
    D.f32 = malloc(sizeof(float) * (size_t)n);
    D.f64 = malloc(sizeof(double) * (size_t)n);
    D.b = malloc((size_t)n);
    D.str = malloc(sizeof(int) * (size_t)n);
    for (int c = 0; c < NCOLS; c++) D.null[c] = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++) {
        D.i32[i] = (int32_t)rnd(s, 7) - 3;
        D.date[i] = (int32_t)rnd(s, 1000) - 500;
        D.i64[i] = iv[rnd(s, 6)];
        D.u64[i] = uv[rnd(s, 5)];
        D.f32[i] = (float)fv[rnd(s, 8)];
        D.f64[i] = fv[rnd(s, 8)];
        D.b[i] = (uint8_t)rnd(s, 2);
        D.str[i] = (int)rnd(s, 10);
        for (int c = 0; c < NCOLS; c++) D.null[c][i] = rnd(s, 6) == 0;
    }
}

static void free_data(void)
{
    free(D.i32);
    free(D.date);
    free(D.i64);
    free(D.u64);
    free(D.f32);
    free(D.f64);
    free(D.b);
    free(D.str);
    for (int c = 0; c < NCOLS; c++) free(D.null[c]);
}

static uint8_t *bits_of(const bool *null, int n)
{
    uint8_t *v = calloc((size_t)n / 8 + 1, 1);
    for (int i = 0; i < n; i++)
        if (!null[i]) v[i / 8] |= (uint8_t)(1u << (i % 8));
    return v;
}

static pqt_table *table_of_data(void)
{
    int n = D.n;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    const void *arrs[NCOLS] = {D.i32, D.i64, D.u64, D.f32, D.f64, D.b, NULL, D.date};
    const int kinds[NCOLS] = {PQT_INT32, PQT_INT64, PQT_UINT64, PQT_FLOAT32, PQT_FLOAT64,
                              PQT_BOOL, PQT_STRING, PQT_DATE};
    for (int c = 0; c < NCOLS; c++) {
        uint8_t *v = bits_of(D.null[c], n);
        if (c == C_STR) {
            int64_t *off = malloc(sizeof(int64_t) * (size_t)(n + 1));
            char *bytes = malloc((size_t)n * 10 + 1);
            off[0] = 0;
            for (int i = 0; i < n; i++) {
                memcpy(bytes + off[i], strs[D.str[i]], (size_t)str_lens[D.str[i]]);
                off[i + 1] = off[i] + str_lens[D.str[i]];
            }
            REQUIRE_OK(pqt_table_add_string_column(t, "str", 1, off, bytes, v, n, NULL));
            free(off);
            free(bytes);
        } else if (kinds[c] == PQT_UINT64) {
            /* add_column takes uint64 columns? if not, skip them from the keys */
            if (pqt_table_add_column(t, col_names[c], kinds[c], 1, arrs[c], v, n, NULL) != PQT_OK) {
                free(v);
                continue;
            }
        } else {
            REQUIRE_OK(pqt_table_add_column(t, col_names[c], kinds[c], 1, arrs[c], v, n, NULL));
        }
        free(v);
    }
    int32_t *tag = malloc(sizeof(int32_t) * (size_t)n);
    for (int i = 0; i < n; i++) tag[i] = i;
    REQUIRE_OK(pqt_table_add_column(t, "tag", PQT_INT32, 1, tag, NULL, n, NULL));
    free(tag);
    return t;
}

static void test_property(void)
{
    uint64_t s = 12;
    for (int iter = 0; iter < 153; iter++) {
        /* small tables, then larger ones; from 4096 rows on, keys with few distinct values
         * take the engine's counting sort (dates, with 1000 values, still the radix sort);
         * the last three pass 65536 rows, where groups of ties on the first key go on to
         * the next keys on several threads (when the machine has them) */
        int n = iter < 10 ? iter : iter < 130 ? 1 + (int)rnd(&s, iter < 100 ? 120 : 3000)
                : iter < 150                  ? 4096 + (int)rnd(&s, 5000)
                                              : 70000 + (int)rnd(&s, 30000);
        make_data(&s, n);
        pqt_table *t = table_of_data();
        bool have_u64 = pqt_table_has_column(t, "u64");
        if (iter == 0) CHECK(have_u64);
        model_nkeys = iter < 150 ? 1 + (int)rnd(&s, 3) : 2 + (int)rnd(&s, 2);
        const char *names[4];
        int desc[4], nf[4];
        for (int k = 0; k < model_nkeys; k++) {
            do model_cols[k] = (int)rnd(&s, NCOLS);
            while (model_cols[k] == C_U64 && !have_u64);
            model_desc[k] = rnd(&s, 2);
            model_nf[k] = rnd(&s, 2);
            names[k] = col_names[model_cols[k]];
            desc[k] = model_desc[k];
            nf[k] = model_nf[k];
        }
        int *order = malloc(sizeof(int) * (size_t)(n + 1));
        for (int i = 0; i < n; i++) order[i] = i;
        qsort(order, (size_t)n, sizeof *order, model_cmp);
        /* argsort with groups on the first gk keys */
        int gk = (int)rnd(&s, (uint64_t)model_nkeys + 1);
        int64_t *perm = malloc(sizeof(int64_t) * (size_t)(n + 1));
        int64_t *offs = malloc(sizeof(int64_t) * (size_t)(n + 2)), ng = -1;
        uint64_t g0 = pqt_table_generation(t);
        CHECK_OK(pqt_table_argsort_by_names(t, names, model_nkeys, desc, nf, perm, offs, gk, &ng));
        CHECK_EQ_I64(pqt_table_generation(t), g0);
        int bad = 0;
        for (int i = 0; i < n; i++) bad += perm[i] != order[i] + 1;
        int64_t want_ng = 0;
        int gkk = gk ? gk : model_nkeys;
        for (int i = 0; i < n; i++) {
            if (i > 0 && model_keys_cmp(order[i - 1], order[i], gkk) == 0) continue;
            bad += offs[want_ng] != i + 1;
            want_ng++;
        }
        CHECK_EQ_I64(ng, want_ng);
        bad += offs[want_ng] != n + 1;
        int sorted = -1;
        CHECK_OK(pqt_table_is_sorted_by_names(t, names, model_nkeys, desc, nf, &sorted));
        int identity = 1;
        for (int i = 0; i < n; i++) identity &= order[i] == i;
        CHECK_EQ_I64(sorted, identity);
        /* top_n on a clone equals the model's prefix */
        pqt_table *c = NULL;
        CHECK_OK(pqt_table_clone(t, &c));
        int64_t k = (int64_t)rnd(&s, (uint64_t)n + 3);
        CHECK_OK(pqt_table_top_n_names(c, names, model_nkeys, desc, nf, k));
        int64_t kk = k < n ? k : n;
        CHECK_EQ_I64(pqt_table_nrows(c), kk);
        int32_t *tags = malloc(sizeof(int32_t) * (size_t)(n + 1));
        CHECK_OK(pqt_table_get(c, "tag", 0, tags, sizeof(int32_t) * (size_t)(n + 1), NULL, 0));
        for (int64_t i = 0; i < kk; i++) bad += tags[i] != order[i];
        pqt_table_close(c);
        /* sort_by equals the model; then it is sorted, and sorting again is a no-op */
        CHECK_OK(pqt_table_sort_by_names(t, names, model_nkeys, desc, nf));
        CHECK_EQ_I64(pqt_table_generation(t) != g0, !identity);
        CHECK_OK(pqt_table_get(t, "tag", 0, tags, sizeof(int32_t) * (size_t)(n + 1), NULL, 0));
        for (int i = 0; i < n; i++) bad += tags[i] != order[i];
        CHECK_OK(pqt_table_is_sorted_by_names(t, names, model_nkeys, desc, nf, &sorted));
        CHECK_EQ_I64(sorted, 1);
        uint64_t g1 = pqt_table_generation(t);
        CHECK_OK(pqt_table_sort_by_names(t, names, model_nkeys, desc, nf));
        CHECK_EQ_I64(pqt_table_generation(t), g1);
        if (bad) {
            fprintf(stderr, "iteration %d (n %d, keys", iter, n);
            for (int q = 0; q < model_nkeys; q++)
                fprintf(stderr, " %s%s%s", names[q], desc[q] ? " desc" : "", nf[q] ? " nf" : "");
            fprintf(stderr, ", gk %d, k %lld): %d wrong\n", gk, (long long)k, bad);
        }
        CHECK_EQ_I64(bad, 0);
        free(tags);
        free(perm);
        free(offs);
        free(order);
        pqt_table_close(t);
        free_data();
    }
}

/* top_n on 100000 rows with values placed first: the selection runs in stretches, one per
 * thread (when the machine has several), and must still give the model's first k rows. */
static void test_top_n_large(void)
{
    uint64_t s = 99;
    make_data(&s, 100000);
    static const struct {
        int col, desc;
        int64_t k;
    } cases[] = {{C_F64, 0, 1}, {C_F64, 1, 100}, {C_I32, 0, 30000}, {C_STR, 1, 777}, {C_I64, 0, 90000}};
    int *order = malloc(sizeof(int) * 100000);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pqt_table *t = table_of_data();
        model_nkeys = 2;
        model_cols[0] = cases[c].col;
        model_desc[0] = cases[c].desc;
        model_nf[0] = false;
        model_cols[1] = C_DATE;
        model_desc[1] = true;
        model_nf[1] = false;
        for (int i = 0; i < 100000; i++) order[i] = i;
        qsort(order, 100000, sizeof *order, model_cmp);
        const char *names[2] = {col_names[cases[c].col], "date"};
        int desc[2] = {cases[c].desc, 1};
        CHECK_OK(pqt_table_top_n_names(t, names, 2, desc, NULL, cases[c].k));
        int32_t *tags = malloc(sizeof(int32_t) * (size_t)cases[c].k);
        CHECK_OK(pqt_table_get(t, "tag", 0, tags, sizeof(int32_t) * (size_t)cases[c].k, NULL, 0));
        int64_t bad = 0;
        for (int64_t i = 0; i < cases[c].k; i++) bad += tags[i] != order[i];
        CHECK_EQ_I64(bad, 0);
        free(tags);
        pqt_table_close(t);
    }
    free(order);
    free_data();
}

/* top_n on data ordered against the key: every row ranks among the best seen so far, so
 * the selection's list of rows that entered its heap overflows and the rows are collected
 * again by the limit; and ties at the limit kept in row order. v = row / 10 (ascending, ten
 * rows a value), nulls on every 13th row. Hand-computed answers. */
static void test_top_n_ordered(void)
{
    enum { N = 200000 };
    double *v = malloc(sizeof(double) * N);
    int32_t *tag = malloc(sizeof(int32_t) * N);
    uint8_t *valid = calloc((N + 7) / 8, 1);
    for (int i = 0; i < N; i++) {
        v[i] = (double)(i / 10);
        tag[i] = i;
        if (i % 13 != 0) valid[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    for (int desc = 0; desc <= 1; desc++) {
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_new(&t));
        REQUIRE_OK(pqt_table_add_column(t, "v", PQT_FLOAT64, 1, v, valid, N, NULL));
        REQUIRE_OK(pqt_table_add_column(t, "tag", PQT_INT32, 1, tag, NULL, N, NULL));
        const char *names[1] = {"v"};
        int d[1] = {desc};
        enum { K = 8 };
        CHECK_OK(pqt_table_top_n_names(t, names, 1, d, NULL, K));
        int32_t got[K];
        CHECK_OK(pqt_table_get(t, "tag", 0, got, sizeof got, NULL, 0));
        /* ascending: 0 on rows 1..9 (row 0 is null); descending: 19999 on rows 199990..199999
         * but 199992 (null): nine ties for eight places, taken in row order */
        int32_t want[K];
        int w = 0;
        for (int i = desc ? 199990 : 0; w < K; i++)
            if (i % 13 != 0) want[w++] = i;
        for (int i = 0; i < K; i++) CHECK_EQ_I64(got[i], want[i]);
        pqt_table_close(t);
    }
    free(v);
    free(tag);
    free(valid);
}

/* Placement by hand: v = 3, null, NaN, -0.0, 1, 0.0, -inf, NaN, null, inf (tags 1..10). */
static void test_placement(void)
{
    double v[10] = {3, 0, NAN, -0.0, 1, 0.0, -INFINITY, NAN, 0, INFINITY};
    uint8_t vv[2] = {0xfd, 0x02}; /* rows 2 and 9 null */
    vv[1] = 0x02;                 /* row 10 (bit 9) present, row 9 (bit 8) null */
    int32_t tag[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    struct {
        const char *keys;
        int32_t want[10];
    } cases[] = {
        /* values (ties -0.0 = 0.0 in row order), NaNs, nulls */
        {"v", {7, 4, 6, 5, 1, 10, 3, 8, 2, 9}},
        {"v desc", {10, 1, 5, 4, 6, 7, 3, 8, 2, 9}},
        {"v nulls_first", {2, 9, 3, 8, 7, 4, 6, 5, 1, 10}},
        {"-v nulls_first", {2, 9, 3, 8, 10, 1, 5, 4, 6, 7}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int dbl = 0; dbl < 2; dbl++) {
            pqt_table *t = NULL;
            REQUIRE_OK(pqt_table_new(&t));
            float f[10];
            for (int i = 0; i < 10; i++) f[i] = (float)v[i];
            REQUIRE_OK(pqt_table_add_column(t, "v", dbl ? PQT_FLOAT64 : PQT_FLOAT32, 1,
                                            dbl ? (const void *)v : (const void *)f, vv, 10, NULL));
            REQUIRE_OK(pqt_table_add_column(t, "tag", PQT_INT32, 1, tag, NULL, 10, NULL));
            CHECK_OK(pqt_table_sort_by(t, cases[c].keys, NULL));
            int32_t got[10];
            CHECK_OK(pqt_table_get(t, "tag", 0, got, sizeof got, NULL, 0));
            for (int i = 0; i < 10; i++) {
                if (got[i] == cases[c].want[i]) continue;
                fprintf(stderr, "'%s' (%s): position %d is tag %d, want %d\n", cases[c].keys,
                        dbl ? "float64" : "float32", i + 1, got[i], cases[c].want[i]);
                pqt_test_failures++;
                break;
            }
            pqt_table_close(t);
        }
    }
    /* groups: all nulls one group, all NaNs one group, -0.0 and 0.0 one group */
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, "v", PQT_FLOAT64, 1, v, vv, 10, NULL));
    int64_t perm[10], offs[11], ng = 0;
    const char *k[] = {"v"};
    CHECK_OK(pqt_table_argsort_by_names(t, k, 1, NULL, NULL, perm, offs, 0, &ng));
    /* -inf | -0.0 0.0 | 1 | 3 | inf | NaN NaN | null null */
    int64_t want_offs[] = {1, 2, 4, 5, 6, 7, 9, 11};
    CHECK_EQ_I64(ng, 7);
    for (int i = 0; i <= 7 && ng == 7; i++) CHECK_EQ_I64(offs[i], want_offs[i]);
    pqt_table_close(t);
    /* an empty table: group_offsets = {1}, no groups */
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, "v", PQT_FLOAT64, 1, v, NULL, 0, NULL));
    offs[0] = 99;
    ng = 99;
    CHECK_OK(pqt_table_argsort_by_names(t, k, 1, NULL, NULL, NULL, offs, 1, &ng));
    CHECK_EQ_I64(offs[0], 1);
    CHECK_EQ_I64(ng, 0);
    pqt_table_close(t);
}

/* A file table: sorting moves rows and detaches; a sort that moves nothing does not. */
static void test_detach(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/table_rg.parquet", NULL, &t));
    CHECK_OK(pqt_table_sort_by(t, "id", NULL)); /* already in order */
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    int sorted = 0;
    CHECK_OK(pqt_table_is_sorted_by(t, "id asc", NULL, &sorted));
    CHECK_EQ_I64(sorted, 1);
    CHECK_OK(pqt_table_top_n(t, "id", NULL, 20000)); /* keeps every row in place */
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    int64_t perm[10000];
    CHECK_OK(pqt_table_argsort_by(t, "-id", NULL, perm, NULL, 0, NULL));
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    CHECK_EQ_I64(perm[0], 10000);
    CHECK_OK(pqt_table_top_n(t, "-f32", NULL, 3));
    CHECK_EQ_I64(pqt_table_is_detached(t), 1);
    CHECK_EQ_I64(pqt_table_nrows(t), 3);
    int64_t ids[3];
    CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
    CHECK_EQ_I64(ids[0], 10000);
    CHECK_EQ_I64(ids[2], 9998);
    pqt_table_close(t);
}

int main(void)
{
    test_placement();
    test_property();
    test_top_n_large();
    test_top_n_ordered();
    test_detach();
    return pqt_test_done("test_sort_table");
}
