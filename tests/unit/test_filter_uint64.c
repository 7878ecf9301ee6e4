/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_uint64.c - a UINT_64 column filtered, pruned, sorted and top-n'd in unsigned
 * order, exactly past 2^63 (issue 28).
 *
 * The file: four row groups of 200 rows, u (UINT_64) then id (0..799), each value four times
 * (so that a dictionary pays):
 *   rg 0  u = id / 4               [0, 49]        every tenth row (id % 10 == 9) null
 *   rg 1  u = 2^63 - 25 + k/4      [2^63 - 25, 2^63 + 24]   (straddles 2^63)
 *   rg 2  u = 2^64 - 1 - 2 (k/4)   odd values of [2^64 - 99, 2^64 - 1]
 *   rg 3  u = 10^19 + 2 (k/4)      even values of [10^19, 10^19 + 98]
 * (k = id - 200 g), written by our writer twice: plain pages of ~256 bytes with a page index
 * and a bloom filter on u, and dictionary-encoded. Truth: the rows each rule keeps, computed
 * here with C's uint64 comparisons; the row groups statistics refute or accept whole, the
 * pages the column index refutes (from the offset index's page boundaries), and the row
 * groups the bloom filter and the dictionary refute, worked out by hand from the ranges
 * above. With a signed reading of the bounds, rg 2's bounds would be negative and rg 1's
 * would cross zero: the counts below tell the orders apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/file_int.h"
#include "format/meta.h"
#include "oi_read.h"
#include "pqt_file.h"
#include "testutil.h"

#define NRG 4
#define PER 200
#define N (NRG * PER)
#define P63 9223372036854775808ULL
#define E19 10000000000000000000ULL

static uint64_t u[N];
static uint8_t valid[N / 8];
static char g_dir[64], plain_path[128], dict_path[128];

static void make_data(void)
{
    for (int r = 0; r < N; r++) {
        int g = r / PER, k = r % PER;
        uint64_t q = (uint64_t)k / 4;
        u[r] = g == 0 ? (uint64_t)r / 4
             : g == 1 ? P63 - 25 + q
             : g == 2 ? UINT64_MAX - 2 * q
                      : E19 + 2 * q;
        if (!(g == 0 && r % 10 == 9)) valid[r / 8] |= (uint8_t)(1u << (r % 8));
    }
}

static int present(int r) { return valid[r / 8] >> (r % 8) & 1; }

static void write_file(const char *path, int dictionary)
{
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t id[N];
    for (int r = 0; r < N; r++) id[r] = r;
    CHECK_OK(pqt_table_add_column(t, "u", PQT_UINT64, 1, u, valid, N, NULL));
    CHECK_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, N, NULL));
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, PER));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, dictionary));
    if (!dictionary) {
        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 256));
        CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_BLOOM_COLUMN, "u"));
    }
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* ---- the rules and their truth ---- */

enum { LT, LE, GT, GE, EQ, NE, IN, NOT_IN, RANGE };
typedef struct rule_case {
    const char *rule;
    int op;
    uint64_t a, b; /* the literal (RANGE: a < u < b); IN: the set below */
    int neg;       /* the literal is negative: below every value */
    int64_t pruned_stats, all; /* row groups, plain file, every pushdown on */
} rule_case;

static const uint64_t in_set[] = {5, P63 - 1, P63, UINT64_MAX, E19 + 2};

static const rule_case cases[] = {
    {"u > 9223372036854775808", GT, P63, 0, 0, 1, 2},
    {"u >= 9223372036854775808", GE, P63, 0, 0, 1, 2},
    {"u < 9223372036854775808", LT, P63, 0, 0, 2, 0},
    {"u <= 9223372036854775807", LE, P63 - 1, 0, 0, 2, 0},
    {"u == 18446744073709551615", EQ, UINT64_MAX, 0, 0, 3, 0},
    {"u /= 18446744073709551615", NE, UINT64_MAX, 0, 0, 0, 2},
    {"u > 18446744073709551615", GT, UINT64_MAX, 0, 0, 4, 0},
    {"u >= 18446744073709551000", GE, 18446744073709551000ULL, 0, 0, 3, 1},
    {"u >= 10000000000000000000", GE, E19, 0, 0, 2, 2},
    {"u < 1e19", LT, E19, 0, 0, 2, 1},
    {"u > -1", GT, 0, 0, 1, 0, 3},
    {"u < 0", LT, 0, 0, 1, 4, 0},
    {"u == -5", EQ, 0, 0, 1, 4, 0},
    {"u /= -5", NE, 0, 0, 1, 0, 3},
    {"u < 100.5", LE, 100, 0, 0, 3, 0},
    {"u >= 9.2233720368547758e18", GE, P63, 0, 0, 1, 2}, /* the double is 2^63 exactly */
    {"u > 10000000000000000000 and u < 10000000000000000100", RANGE, E19, E19 + 100, 0, 3, 0},
    {"u in (5, 9223372036854775807, 9223372036854775808, 18446744073709551615, -1, "
     "10000000000000000002, 18446744073709551616)", IN, 0, 0, 0, 0, 0},
    {"u not_in (5, 9223372036854775807, 9223372036854775808, 18446744073709551615, -1, "
     "10000000000000000002, 18446744073709551616)", NOT_IN, 0, 0, 0, 0, 0},
};

static int holds(const rule_case *c, uint64_t v)
{
    int member = 0;
    for (size_t i = 0; i < sizeof in_set / sizeof in_set[0]; i++) member |= v == in_set[i];
    switch (c->op) {
    case LT: return !c->neg && v < c->a;
    case LE: return !c->neg && v <= c->a;
    case GT: return c->neg || v > c->a;
    case GE: return c->neg || v >= c->a;
    case EQ: return !c->neg && v == c->a;
    case NE: return c->neg || v != c->a;
    case IN: return member;
    case NOT_IN: return !member;
    default: return v > c->a && v < c->b;
    }
}

static pqt_table *open_rule(const char *path, const char *rule, int pushdown, int threads)
{
    pqt_opts *o;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (rule) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rule));
    static const pqt_opt pd[] = {PQT_OPT_PUSHDOWN_STATS, PQT_OPT_PUSHDOWN_PAGE_INDEX,
                                 PQT_OPT_PUSHDOWN_DICTIONARY, PQT_OPT_PUSHDOWN_BLOOM};
    for (int i = 0; i < 4; i++) CHECK_OK(pqt_opts_set_int(o, pd[i], (pushdown >> i) & 1));
    if (pqt_table_open(path, o, &t) != PQT_OK) {
        fprintf(stderr, "open %s with '%s': %s\n", path, rule ? rule : "", pqt_errmsg());
        pqt_test_failures++;
    }
    pqt_opts_free(o);
    return t;
}

/* The ids a table kept equal the truth's, in file order. */
static void check_ids(pqt_table *t, const rule_case *c, const char *what)
{
    int64_t *id = NULL, n = 0, k = 0;
    uint8_t *v = NULL;
    if (!t) return;
    CHECK_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&id, &v, &n));
    int bad = 0;
    for (int r = 0; r < N; r++) {
        if (!present(r) || !holds(c, u[r])) continue;
        if (k >= n || id[k] != r) bad = 1;
        k++;
    }
    if (bad || k != n) {
        fprintf(stderr, "%s: rule '%s' kept %lld rows, expected %lld (or other rows)\n", what,
                c->rule, (long long)n, (long long)k);
        pqt_test_failures++;
    }
    pqt_free(id);
    pqt_free(v);
}

static void test_rows_and_stats(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rule_case *c = &cases[i];
        for (int f = 0; f < 2; f++) {
            const char *path = f ? dict_path : plain_path;
            for (int pd = 0; pd <= 15; pd += 15) {
                pqt_table *t = open_rule(path, c->rule, pd, 1 + (int)(i % 2));
                check_ids(t, c, f ? "dictionary file" : "plain file");
                if (t && pd == 15 && c->op != IN && c->op != NOT_IN) {
                    pqt_scan_counts sc;
                    CHECK_OK(pqt_table_scan_stats(t, &sc));
                    if (sc.row_groups_pruned_stats != c->pruned_stats ||
                        sc.row_groups_all != c->all) {
                        fprintf(stderr, "rule '%s': %lld row groups pruned by statistics, %lld "
                                        "all; expected %lld, %lld\n",
                                c->rule, (long long)sc.row_groups_pruned_stats,
                                (long long)sc.row_groups_all, (long long)c->pruned_stats,
                                (long long)c->all);
                        pqt_test_failures++;
                    }
                }
                pqt_table_close(t);
            }
        }
    }
}

/* rg 1 holds 2^63 - 25 + k/4; u > 2^63 + 12 keeps k >= 152: the pages of rg 1 whose rows all
 * have k < 152 are refuted by the column index (rg 0 by statistics, rgs 2 and 3 pass whole). */
static void test_page_index(void)
{
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(plain_path, NULL, &f));
    pqt_arena a = {0};
    pqt_offset_index oi;
    test_read_offset_index(plain_path, &f->meta.row_groups[1].columns[0], &a, &oi);
    pqt_file_close(f);
    int64_t prunable = 0;
    for (int i = 0; i < oi.npages; i++) {
        int64_t last = i + 1 < oi.npages ? oi.pages[i + 1].first_row_index - 1 : PER - 1;
        prunable += last < 152;
    }
    CHECK(oi.npages >= 4 && prunable >= 2); /* small pages: several of them */
    static const rule_case c = {"u > 9223372036854775820", GT, P63 + 12, 0, 0, 1, 2};
    pqt_table *t = open_rule(plain_path, c.rule, 15, 1);
    check_ids(t, &c, "page index");
    pqt_scan_counts sc;
    CHECK_OK(pqt_table_scan_stats(t, &sc));
    CHECK_EQ_I64(sc.row_groups_pruned_stats, 1);
    CHECK_EQ_I64(sc.row_groups_all, 2);
    CHECK_EQ_I64(sc.pages_pruned_index, prunable);
    pqt_table_close(t);
    pqt_arena_free(&a);
}

/* Values inside a row group's bounds that it does not hold: the bloom filter (plain file) and
 * the dictionary (dictionary file) refute that row group; statistics the others. */
static void test_bloom_dict(void)
{
    static const struct {
        const char *rule;
        int64_t rows;
    } absent[] = {
        {"u == 18446744073709551614", 0},                           /* even: rg 2 holds odd */
        {"u in (10000000000000000001, 10000000000000000097)", 0},   /* odd: rg 3 holds even */
        {"u == 18446744073709551615 or u == 18446744073709551613", 8}, /* present */
    };
    for (int i = 0; i < 3; i++) {
        for (int f = 0; f < 2; f++) {
            /* plain: stats and bloom; dictionary file: stats and dictionary */
            pqt_table *t = open_rule(f ? dict_path : plain_path, absent[i].rule, f ? 5 : 9, 1);
            if (!t) continue;
            CHECK_EQ_I64(pqt_table_nrows(t), absent[i].rows);
            pqt_scan_counts sc;
            CHECK_OK(pqt_table_scan_stats(t, &sc));
            CHECK_EQ_I64(sc.row_groups_pruned_stats, 3);
            int64_t refuted = f ? sc.row_groups_pruned_dictionary : sc.row_groups_pruned_bloom;
            if (refuted != (absent[i].rows ? 0 : 1)) {
                fprintf(stderr, "%s file, rule '%s': %lld row groups refuted, expected %d\n",
                        f ? "dictionary" : "bloom", absent[i].rule, (long long)refuted,
                        absent[i].rows ? 0 : 1);
                pqt_test_failures++;
            }
            if (!f) CHECK_EQ_I64(sc.bloom_filters_read, 1);
            pqt_table_close(t);
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorted at open, ascending and descending, whole and top-n: unsigned order, nulls last. */
static void test_sort(void)
{
    uint64_t want[N];
    int nv = 0;
    for (int r = 0; r < N; r++)
        if (present(r)) want[nv++] = u[r];
    qsort(want, (size_t)nv, sizeof *want, cmp_u64);
    for (int desc = 0; desc < 2; desc++)
        for (int64_t limit = -1; limit <= 30; limit += 31) {
            pqt_opts *o;
            pqt_table *t = NULL;
            REQUIRE_OK(pqt_opts_new(&o));
            CHECK_OK(pqt_opts_set_str(o, PQT_OPT_SORT, desc ? "-u" : "u"));
            if (limit > 0) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
            REQUIRE_OK(pqt_table_open(plain_path, o, &t));
            pqt_opts_free(o);
            uint64_t *d = NULL;
            uint8_t *v = NULL;
            int64_t n = 0;
            CHECK_OK(pqt_table_get_alloc(t, "u", PQT_UINT64, (void **)&d, &v, &n));
            CHECK_EQ_I64(n, limit > 0 ? limit : N);
            int bad = 0;
            for (int64_t i = 0; i < n; i++) {
                int isnull = v && !(v[i / 8] >> (i % 8) & 1);
                if (i < nv) bad |= isnull || d[i] != want[desc ? nv - 1 - i : i];
                else bad |= !isnull; /* nulls last */
            }
            if (bad) {
                fprintf(stderr, "sort %s limit %lld: not in unsigned order\n", desc ? "-u" : "u",
                        (long long)limit);
                pqt_test_failures++;
            }
            if (limit > 0) {
                /* the 30 largest are all in rg 2, the 30 smallest in rg 0: one row group read */
                char buf[4096];
                pqt_table_explain(t, buf, sizeof buf);
                if (!strstr(buf, "top-n: the keys of 1 of 4 row groups read")) {
                    fprintf(stderr, "sort %s limit 30: explain lacks the top-n line:\n%s\n",
                            desc ? "-u" : "u", buf);
                    pqt_test_failures++;
                }
            }
            pqt_free(d);
            pqt_free(v);
            pqt_table_close(t);
        }
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_u64_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) ? PQT_OK : PQT_IO);
    snprintf(plain_path, sizeof plain_path, "%s/plain.parquet", g_dir);
    snprintf(dict_path, sizeof dict_path, "%s/dict.parquet", g_dir);
    make_data();
    write_file(plain_path, 0);
    write_file(dict_path, 1);
    test_rows_and_stats();
    test_page_index();
    test_bloom_dict();
    test_sort();
    if (getenv("KEEP")) return pqt_test_done("test_filter_uint64");
    remove(plain_path);
    remove(dict_path);
    remove(g_dir);
    return pqt_test_done("test_filter_uint64");
}
