/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sort_decimal.c - DECIMAL sort keys order by their exact values (issue 12 deferred
 * item; sort_decimal.h), at open (with and without a limit) and through every table call
 * (sort_by, top_n, argsort_by with groups, is_sorted_by), while the column still reads as
 * float64.
 *
 * tests/data/decimal_sort.parquet (DuckDB, tests/data/make_decimal_sort.mjs), id = 1..12:
 *   d18 DECIMAL(18,0) = 2^53 + ((7 id) % 12) - 6, NULL when id = 5
 *   d38 DECIMAL(38,2), unscaled s (2^70 + ((5 id) % 12) - 6), s = -1 when id % 3 == 0, else 1;
 *       NULL when id = 9
 * The float64s of d18 tie in pairs and those of d38 in two groups (one per sign): only the
 * integers order them. The model computes the integers from the formulas (int64 and
 * __int128 arithmetic) and sorts the ids with qsort, ties (none but the nulls) by id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

#define FILE_DEC "tests/data/decimal_sort.parquet"
#define N 12

static int64_t d18(int64_t id) { return 9007199254740992LL + (7 * id) % 12 - 6; }
static __int128 d38(int64_t id)
{
    __int128 a = ((__int128)1 << 70) + (5 * id) % 12 - 6;
    return id % 3 == 0 ? -a : a;
}
static int null18(int64_t id) { return id == 5; }
static int null38(int64_t id) { return id == 9; }

static int m_col, m_desc, m_nf; /* the model's key: 18 or 38 */

static int model_cmp(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    int na = m_col == 18 ? null18(a) : null38(a), nb = m_col == 18 ? null18(b) : null38(b);
    if (na != nb) return (na ? 1 : -1) * (m_nf ? -1 : 1);
    if (!na) {
        int c = m_col == 18 ? (d18(a) > d18(b)) - (d18(a) < d18(b))
                            : (d38(a) > d38(b)) - (d38(a) < d38(b));
        if (c) return m_desc ? -c : c;
    }
    return (a > b) - (a < b);
}

static void model(int col, int desc, int nf, int64_t *out)
{
    m_col = col, m_desc = desc, m_nf = nf;
    for (int i = 0; i < N; i++) out[i] = i + 1;
    qsort(out, N, sizeof *out, model_cmp);
}

static void check_ids(const int64_t *got, const int64_t *want, int64_t n, const char *what)
{
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: position %lld is id %lld, want %lld\n", what, (long long)i + 1,
                    (long long)got[i], (long long)want[i]);
            pqt_test_failures++;
            return;
        }
}

static const struct {
    const char *keys;
    int col, desc, nf;
} cases[] = {
    {"d18", 18, 0, 0},           {"-d18", 18, 1, 0},      {"d18 nulls_first", 18, 0, 1},
    {"d38", 38, 0, 0},           {"d38 desc", 38, 1, 0},  {"-d38 nulls_first", 38, 1, 1},
};

static void test_at_open(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int limit = -1; limit <= 4; limit += 5) {
            int64_t want[N];
            model(cases[c].col, cases[c].desc, cases[c].nf, want);
            pqt_opts *o = NULL;
            REQUIRE_OK(pqt_opts_new(&o));
            REQUIRE_OK(pqt_opts_set_sort(o, cases[c].keys));
            if (limit >= 0) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
            pqt_table *t = NULL;
            REQUIRE_OK(pqt_table_open(FILE_DEC, o, &t));
            pqt_opts_free(o);
            int64_t n = limit >= 0 ? limit : N, ids[N] = {0};
            CHECK_EQ_I64(pqt_table_nrows(t), n);
            CHECK_OK(pqt_table_get(t, "id", 0, ids, (size_t)n * sizeof *ids, NULL, 0));
            char what[80];
            snprintf(what, sizeof what, "open sort '%s' limit %d", cases[c].keys, limit);
            check_ids(ids, want, n, what);
            /* still a float64 column, and its exact values follow the rows */
            int kind = 0;
            CHECK_OK(pqt_table_kind(t, cases[c].col == 18 ? "d18" : "d38", &kind));
            CHECK_EQ_I64(kind, PQT_FLOAT64);
            void *ex = NULL;
            int64_t ne = 0;
            int ek = 0;
            CHECK_OK(pqt_table_get_decimal_alloc(t, cases[c].col == 18 ? "d18" : "d38", &ex, NULL,
                                                 &ne, &ek));
            CHECK_EQ_I64(ne, n);
            for (int64_t i = 0; ex && i < ne; i++) {
                int64_t id = ids[i];
                if (cases[c].col == 18 && !null18(id))
                    CHECK(((const int64_t *)ex)[i] == d18(id));
                if (cases[c].col == 38 && !null38(id)) {
                    __int128 v;
                    memcpy(&v, (const char *)ex + 16 * i, 16);
                    CHECK(v == d38(id));
                }
            }
            pqt_free(ex);
            int sorted = -1;
            CHECK_OK(pqt_table_is_sorted_by(t, cases[c].keys, NULL, &sorted));
            CHECK_EQ_I64(sorted, 1);
            pqt_table_close(t);
        }
}

static void test_table_calls(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int64_t want[N];
        model(cases[c].col, cases[c].desc, cases[c].nf, want);
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_open(FILE_DEC, NULL, &t));
        int64_t perm[N], offs[N + 1], ng = 0;
        CHECK_OK(pqt_table_argsort_by(t, cases[c].keys, NULL, perm, offs, 0, &ng));
        check_ids(perm, want, N, "argsort_by");
        /* every value distinct: 11 groups of one and the null row */
        CHECK_EQ_I64(ng, N);
        int sorted = -1;
        CHECK_OK(pqt_table_is_sorted_by(t, cases[c].keys, NULL, &sorted));
        CHECK_EQ_I64(sorted, 0);
        const char *idn = "id";
        CHECK_OK(pqt_table_prefetch(t, &idn, 1));
        pqt_table *u = NULL;
        CHECK_OK(pqt_table_clone(t, &u));
        CHECK_OK(pqt_table_top_n(u, cases[c].keys, NULL, 3));
        int64_t ids[N] = {0};
        CHECK_OK(pqt_table_get(u, "id", 0, ids, 3 * sizeof *ids, NULL, 0));
        check_ids(ids, want, 3, "top_n");
        pqt_table_close(u);
        CHECK_OK(pqt_table_sort_by(t, cases[c].keys, NULL));
        CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
        check_ids(ids, want, N, "sort_by");
        pqt_table_close(t);
    }
    /* a key on both columns: d18's float64 ties would hand the order to d38 */
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(FILE_DEC, NULL, &t));
    int64_t perm[N], offs[N + 1], ng = 0;
    CHECK_OK(pqt_table_argsort_by(t, "d18, d38", NULL, perm, offs, 1, &ng));
    int64_t want[N];
    model(18, 0, 0, want);
    check_ids(perm, want, N, "argsort d18, d38");
    CHECK_EQ_I64(ng, N); /* grouped on d18 alone: still every row on its own */
    pqt_table_close(t);
}

/* Every allocation failure of an exact-key sort (open and table) changes nothing. */
static void test_failures(void)
{
    int fails = 0;
    for (long n = 0; n < 3000; n++) {
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_open(FILE_DEC, NULL, &t));
        uint64_t g = pqt_table_generation(t);
        pqt_mem_fail_after(n);
        pqt_status st = pqt_table_sort_by(t, "d38 desc, d18", NULL);
        pqt_mem_fail_after(-1);
        int r38 = -1, r18 = -1;
        CHECK_OK(pqt_table_residency(t, "d38", &r38));
        CHECK_OK(pqt_table_residency(t, "d18", &r18));
        if (st == PQT_OK) {
            CHECK_EQ_I64(r38, PQT_RES_FULL);
            pqt_table_close(t);
            break;
        }
        fails++;
        CHECK_EQ_I64(st, PQT_NOMEM);
        CHECK(pqt_table_generation(t) == g && !pqt_table_is_detached(t));
        CHECK(r38 == PQT_RES_EMPTY && r18 == PQT_RES_EMPTY);
        pqt_table_close(t);
    }
    CHECK(fails > 5);
    fails = 0;
    for (long n = 0; n < 3000; n++) {
        pqt_opts *o = NULL;
        REQUIRE_OK(pqt_opts_new(&o));
        REQUIRE_OK(pqt_opts_set_sort(o, "d38, d18 desc"));
        REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 5));
        pqt_table *t = (pqt_table *)&fails;
        pqt_mem_fail_after(n);
        pqt_status st = pqt_table_open(FILE_DEC, o, &t);
        pqt_mem_fail_after(-1);
        pqt_opts_free(o);
        if (st == PQT_OK) {
            int64_t ids[5], want[N];
            model(38, 0, 0, want);
            CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
            check_ids(ids, want, 5, "open after failures");
            pqt_table_close(t);
            break;
        }
        fails++;
        CHECK_EQ_I64(st, PQT_NOMEM);
        CHECK(t == (pqt_table *)&fails);
    }
    CHECK(fails > 5);
}

int main(void)
{
    test_failures();
    test_at_open();
    test_table_calls();
    return pqt_test_done("test_sort_decimal");
}
