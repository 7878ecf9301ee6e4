/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_pushdown_torture.c - docs/pruning.md's scenario 10, the statistics torture set: every
 * query gives the rows a read with every mechanism off gives (threads 1 and 2), as many as
 * counted by hand from the values below, and each mechanism prunes exactly the row groups and
 * pages it may legally prune -- no fewer (pruning wherever legal), no more (never where not).
 *
 * Files come from torture_write.c, so each statistic is exactly what a given writer (or a
 * broken one) puts there. Covered: NaN values and NaN bounds, all-NaN chunks, ±0 bounds of
 * either sign, truncated and exact string bounds, the deprecated signed-order fields for
 * strings and UINT_32, unsigned order, decimal, INT96 and FLOAT16 bounds (never used), and the page
 * index with null pages (a row group all of whose pages are refuted).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/meta.h"
#include "pqt.h"
#include "testutil.h"
#include "torture_write.h"

#define B(x) ((tw_bound){&(x), sizeof(x)})
#define S(s) ((tw_bound){(s), sizeof(s) - 1})
#define NOSTATS ((tw_stats){0})

/* What one query must give: rows kept, and what each mechanism proved. */
typedef struct expect {
    const char *rule;
    int64_t rows;
    int64_t pruned_stats, all, pruned_index, pages_pruned, pruned_dict, pruned_bloom;
} expect;

static char path[256];

static pqt_table *open_rule(const char *rule, int threads, bool pushdown)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rule));
    for (int m = PQT_OPT_PUSHDOWN_STATS; !pushdown && m <= PQT_OPT_PUSHDOWN_ADAPTIVE; m++)
        CHECK_OK(pqt_opts_set_int(o, (pqt_opt)m, 0));
    pqt_status st = pqt_table_open(path, o, &t);
    pqt_opts_free(o);
    if (st != PQT_OK) {
        fprintf(stderr, "%s: open with `%s` failed: %s\n", path, rule, pqt_errmsg());
        pqt_test_failures++;
        return NULL;
    }
    return t;
}

/* The kept rows' file row indexes (pqt_free), *n_ret of them. */
static int64_t *kept(pqt_table *t, int64_t *n_ret)
{
    void *data = NULL;
    uint8_t *valid = NULL;
    *n_ret = 0;
    CHECK_OK(pqt_table_get_alloc(t, PQT_ROW_INDEX, PQT_INT64, &data, &valid, n_ret));
    pqt_free(valid);
    return data;
}

static void check_query(const char *name, const expect *e)
{
    pqt_table *ref = open_rule(e->rule, 1, false);
    if (!ref) return;
    int64_t nref;
    int64_t *rref = kept(ref, &nref);
    pqt_scan_counts off;
    CHECK_OK(pqt_table_scan_stats(ref, &off));
    if (nref != e->rows || off.row_groups_pruned_stats || off.row_groups_all ||
        off.pages_pruned_index || off.row_groups_pruned_dictionary || off.bloom_filters_read) {
        fprintf(stderr,
                "%s `%s`, every mechanism off: %lld rows (expected %lld), counted "
                "%lld/%lld/%lld/%lld/%lld\n",
                name, e->rule, (long long)nref, (long long)e->rows,
                (long long)off.row_groups_pruned_stats, (long long)off.row_groups_all,
                (long long)off.pages_pruned_index, (long long)off.row_groups_pruned_dictionary,
                (long long)off.bloom_filters_read);
        pqt_test_failures++;
    }
    for (int threads = 1; threads <= 2; threads++) {
        pqt_table *t = open_rule(e->rule, threads, true);
        if (!t) continue;
        int64_t n;
        int64_t *r = kept(t, &n);
        pqt_scan_counts c;
        CHECK_OK(pqt_table_scan_stats(t, &c));
        bool same = n == nref && (n == 0 || !memcmp(r, rref, (size_t)n * sizeof *r));
        if (!same || c.row_groups_pruned_stats != e->pruned_stats || c.row_groups_all != e->all ||
            c.row_groups_pruned_index != e->pruned_index ||
            c.pages_pruned_index != e->pages_pruned ||
            c.row_groups_pruned_dictionary != e->pruned_dict ||
            c.row_groups_pruned_bloom != e->pruned_bloom) {
            fprintf(stderr,
                    "%s `%s` (%d threads): %lld rows%s (expected %lld); pruned by stats %lld "
                    "(expected %lld), whole %lld (%lld), by the page index %lld (%lld), pages "
                    "%lld (%lld), by the dictionary %lld (%lld), by blooms %lld (%lld)\n",
                    name, e->rule, threads, (long long)n, same ? "" : ", not the reference's",
                    (long long)e->rows, (long long)c.row_groups_pruned_stats,
                    (long long)e->pruned_stats, (long long)c.row_groups_all, (long long)e->all,
                    (long long)c.row_groups_pruned_index, (long long)e->pruned_index,
                    (long long)c.pages_pruned_index, (long long)e->pages_pruned,
                    (long long)c.row_groups_pruned_dictionary, (long long)e->pruned_dict,
                    (long long)c.row_groups_pruned_bloom, (long long)e->pruned_bloom);
            pqt_test_failures++;
        }
        pqt_free(r);
        pqt_table_close(t);
    }
    pqt_free(rref);
    pqt_table_close(ref);
}

static void run(const char *name, const tw_file *f, const expect *e, int n)
{
    if (!tw_write(path, f)) {
        fprintf(stderr, "%s: cannot write %s\n", name, path);
        pqt_test_failures++;
        return;
    }
    for (int i = 0; i < n; i++)
        check_query(name, &e[i]);
}

#define RUN(name, f, e) run(name, f, e, (int)(sizeof(e) / sizeof(e)[0]))

/* NaN: a writer's nan_count, an all-NaN chunk without bounds, a NaN max (parquet-cpp < 1.4). */
static void nan_doubles(bool column_orders)
{
    static double v0[] = {1, 2, 3, 4}, v1[] = {5, NAN, 6, 7}, v2[] = {NAN, NAN, NAN, NAN},
                  v3[] = {8, NAN, 9, 10};
    static double one = 1, four = 4, five = 5, seven = 7, eight = 8, nan = NAN;
    tw_rg g[] = {
        {.nrows = 4, .vals = v0, .st = {true, B(one), B(four), false, -1, -1, 0, 0}},
        {.nrows = 4, .vals = v1, .st = {true, B(five), B(seven), false, -1, -1, 0, 1}},
        {.nrows = 4, .vals = v2, .st = {true, {0}, {0}, false, -1, -1, 0, 4}},
        {.nrows = 4, .vals = v3, .st = {true, B(eight), B(nan), false, -1, -1, 0, -1}},
    };
    tw_file f = {.ptype = PQT_PT_DOUBLE, .column_orders = column_orders, .nrg = 4, .rgs = g};
    static const expect e[] = {
        /* rg0 max 4; rg2 all NaN (4 NaN of 4 rows, no null); rg3's NaN max is ignored */
        {"x > 6.5", 4, 2, 0, 0, 0, 0, 0},
        /* rg0 whole (no NaN, no null); rg2 none; rg1 and rg3 hold NaN */
        {"x < 100", 10, 1, 1, 0, 0, 0, 0},
        {"x is_nan", 6, 1, 1, 0, 0, 0, 0},
        /* x <= 5 or NaN: rg0 and rg2 whole */
        {"not x > 5", 11, 0, 2, 0, 0, 0, 0},
    };
    RUN(column_orders ? "nan" : "nan, no column_orders", &f, e);
}

/* ±0: min +0 over a -0 value, max -0 (the spec: read a 0 min as -0, a 0 max as +0). */
static void signed_zeros(bool column_orders)
{
    static float v0[] = {-0.0f, 1, 2, 3}, v1[] = {-1, -0.0f, -0.0f, -2};
    static float pz = 0.0f, nz = -0.0f, three = 3, m2 = -2;
    tw_rg g[] = {
        {.nrows = 4, .vals = v0, .st = {true, B(pz), B(three), false, -1, -1, 0, 0}},
        {.nrows = 4, .vals = v1, .st = {true, B(m2), B(nz), false, -1, -1, 0, 0}},
    };
    tw_file f = {.ptype = PQT_PT_FLOAT, .column_orders = column_orders, .nrg = 2, .rgs = g};
    static const expect e[] = {
        {"x == 0", 3, 0, 0, 0, 0, 0, 0}, {"x < 0", 2, 1, 0, 0, 0, 0, 0},
        {"x > 0", 3, 1, 0, 0, 0, 0, 0},  {"x >= 0", 6, 0, 1, 0, 0, 0, 0},
        {"x <= 0", 5, 0, 1, 0, 0, 0, 0},
    };
    RUN(column_orders ? "signed zeros" : "signed zeros, no column_orders", &f, e);
}

/* Strings: truncated bounds (flags false), exact ones, and bounds without flags. */
static void string_bounds(void)
{
    static const char *v0[] = {"apple", "apricot", "avocado", "azure"};
    static const char *v1[] = {"kiwi", "kiwi", "kiwi", "kiwi"};
    tw_rg g[] = {
        {.nrows = 4, .vals = v0, .st = {true, S("ap"), S("b"), false, 0, 0, 0, -1}},
        {.nrows = 4, .vals = v1, .st = {true, S("kiwi"), S("kiwi"), false, 1, 1, 0, -1}},
        {.nrows = 4, .vals = v1, .st = {true, S("kiwi"), S("kiwi"), false, -1, -1, 0, -1}},
    };
    tw_file f = {.ptype = PQT_PT_BYTE_ARRAY,
                 .logical = TW_L_STRING,
                 .column_orders = true,
                 .nrg = 3,
                 .rgs = g};
    static const expect e[] = {
        /* rg2's bounds carry no exactness flags: bounds only, no "all equal" proof
         * (docs/pruning.md: a truncated min = max is not a constant) */
        {"x == \"kiwi\"", 8, 1, 1, 0, 0, 0, 0},
        {"x starts_with \"ap\"", 2, 2, 0, 0, 0, 0, 0},
        {"x > \"az\"", 9, 0, 2, 0, 0, 0, 0},
        {"x < \"ap\"", 0, 3, 0, 0, 0, 0, 0},
        /* "b" is a bound, not a value: rg0 holds no "b" but may not be pruned */
        {"x == \"b\"", 0, 2, 0, 0, 0, 0, 0},
    };
    RUN("string bounds", &f, e);
}

/* The deprecated min/max in signed byte order, no column_orders: believed only when min ==
 * max. "été" starts with byte 0xC3, negative when signed, so its writer called it the min. */
static void legacy_strings(void)
{
    static const char *v0[] = {"a", "b", "\xc3\xa9t\xc3\xa9"}, *v1[] = {"m", "m"},
                      *v2[] = {"z", "y"};
    tw_rg g[] = {
        {.nrows = 3, .vals = v0, .st = {true, S("\xc3\xa9t\xc3\xa9"), S("b"), true, -1, -1, 0, -1}},
        {.nrows = 2, .vals = v1, .st = {true, S("m"), S("m"), true, -1, -1, 0, -1}},
        {.nrows = 2, .vals = v2, .st = {true, S("y"), S("z"), true, -1, -1, 0, -1}},
    };
    tw_file f = {.ptype = PQT_PT_BYTE_ARRAY, .logical = TW_L_STRING, .nrg = 3, .rgs = g};
    static const expect e[] = {
        {"x > \"c\"", 5, 0, 1, 0, 0, 0, 0},
        {"x < \"c\"", 2, 1, 0, 0, 0, 0, 0},
    };
    RUN("legacy strings", &f, e);
}

/* UINT_32: signed legacy bounds (3e9 reads as negative) and unsigned-order new ones. */
static void unsigned_ints(void)
{
    static uint32_t v0[] = {1, 3000000000u, 5}, v1[] = {7, 7}, v2[] = {7, 9};
    static uint32_t big = 3000000000u, one = 1, five = 5, seven = 7, nine = 9;
    tw_rg legacy[] = {
        {.nrows = 3, .vals = v0, .st = {true, B(big), B(five), true, -1, -1, 0, -1}},
        {.nrows = 2, .vals = v1, .st = {true, B(seven), B(seven), true, -1, -1, 0, -1}},
    };
    tw_file fl = {.ptype = PQT_PT_INT32, .logical = TW_L_UINT32, .nrg = 2, .rgs = legacy};
    static const expect el[] = {
        {"x > 10", 1, 1, 0, 0, 0, 0, 0},
        {"x < 6", 2, 1, 0, 0, 0, 0, 0},
    };
    RUN("unsigned, legacy bounds", &fl, el);

    tw_rg ordered[] = {
        {.nrows = 3, .vals = v0, .st = {true, B(one), B(big), false, -1, -1, 0, -1}},
        {.nrows = 2, .vals = v2, .st = {true, B(seven), B(nine), false, -1, -1, 0, -1}},
    };
    tw_file fo = {.ptype = PQT_PT_INT32,
                  .logical = TW_L_UINT32,
                  .column_orders = true,
                  .nrg = 2,
                  .rgs = ordered};
    static const expect eo[] = {
        {"x > 2000000000", 1, 1, 0, 0, 0, 0, 0},
        {"x < 8", 3, 0, 0, 0, 0, 0, 0},
        {"x >= 1", 5, 0, 2, 0, 0, 0, 0},
    };
    RUN("unsigned, unsigned order", &fo, eo);
}

/* Decimal(9,2) on INT32: bounds are unscaled integers; never used (10.00 is stored 1000,
 * so `x < 15` on unscaled bounds would drop rg1). */
static void decimals(void)
{
    static int32_t v0[] = {150, 250, -100}, v1[] = {1000, 2000};
    static int32_t m100 = -100, p250 = 250, k1 = 1000, k2 = 2000;
    tw_rg g[] = {
        {.nrows = 3, .vals = v0, .st = {true, B(m100), B(p250), false, -1, -1, 0, -1}},
        {.nrows = 2, .vals = v1, .st = {true, B(k1), B(k2), false, -1, -1, 0, -1}},
    };
    tw_file f = {.ptype = PQT_PT_INT32,
                 .logical = TW_L_DECIMAL92,
                 .column_orders = true,
                 .nrg = 2,
                 .rgs = g};
    static const expect e[] = {
        {"x < 15", 4, 0, 0, 0, 0, 0, 0},
        {"x > 5", 2, 0, 0, 0, 0, 0, 0},
    };
    RUN("decimal", &f, e);
}

/* INT96 timestamps (nanoseconds of the day, then the Julian day): their bounds have no
 * defined order and must never be used, here a lie that would drop the row group. */
static void int96(void)
{
    static uint8_t v[3][12], lie[12];
    static const int32_t days[3] = {2440588 + 10000, 2440588 + 11000, 2440588 + 20000};
    for (int i = 0; i < 3; i++)
        memcpy(&v[i][8], &days[i], 4);
    memcpy(lie, v[0], 12);
    tw_rg g[] = {{.nrows = 3, .vals = v, .st = {true, B(lie), B(lie), false, -1, -1, 0, -1}}};
    tw_file f = {.ptype = PQT_PT_INT96, .nrg = 1, .rgs = g};
    static const expect e[] = {{"x > \"2000-01-01\"", 2, 0, 0, 0, 0, 0, 0}};
    RUN("int96", &f, e);
}

/* FLOAT16 (2-byte FIXED_LEN_BYTE_ARRAY): bounds are not used, here a lie (min = max = 1.0). */
static void half_floats(void)
{
    static const uint8_t v[3][2] = {{0x00, 0x3c}, {0x00, 0x40}, {0x00, 0xc0}}; /* 1, 2, -2 */
    tw_rg g[] = {{.nrows = 3, .vals = v, .st = {true, {v[0], 2}, {v[0], 2}, false, -1, -1, 0, -1}}};
    tw_file f = {.ptype = PQT_PT_FIXED_LEN_BYTE_ARRAY,
                 .type_length = 2,
                 .logical = TW_L_FLOAT16,
                 .column_orders = true,
                 .nrg = 1,
                 .rgs = g};
    static const expect e[] = {{"x > 1.5", 1, 0, 0, 0, 0, 0, 0}, {"x < 0", 1, 0, 0, 0, 0, 0, 0}};
    RUN("float16", &f, e);
}

/* The page index: null pages (confirmed by null counts), a row group every page of which is
 * refuted while its footer has no statistics. */
static void null_pages(void)
{
    static int64_t v0[] = {1, 2, 3, 4, 0, 0, 0, 0, 10, 11, 0, 12};
    static const uint8_t ok0[] = {1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1};
    static int64_t v1[] = {20, 21, 22, 23, 30, 31, 32, 33};
    static int64_t one = 1, four = 4, ten = 10, twelve = 12, k20 = 20, k23 = 23, k30 = 30, k33 = 33;
    tw_rg g[] = {
        {.nrows = 12,
         .vals = v0,
         .valid = ok0,
         .st = {true, B(one), B(twelve), false, -1, -1, 5, -1},
         .npages = 3,
         .pages = {{4, false, B(one), B(four), 0},
                   {4, true, {0}, {0}, 4},
                   {4, false, B(ten), B(twelve), 1}}},
        {.nrows = 8,
         .vals = v1,
         .st = NOSTATS,
         .npages = 2,
         .pages = {{4, false, B(k20), B(k23), 0}, {4, false, B(k30), B(k33), 0}}},
    };
    tw_file f = {.ptype = PQT_PT_INT64, .column_orders = true, .nrg = 2, .rgs = g};
    static const expect e[] = {
        {"x is_null", 5, 0, 0, 1, 3, 0, 0},
        {"x > 5", 11, 0, 0, 0, 2, 0, 0},
        {"x == 2", 1, 0, 0, 1, 4, 0, 0},
        {"x == 25", 0, 1, 0, 1, 2, 0, 0},
    };
    RUN("null pages", &f, e);
}

/* Bloom filters (docs/pruning.md, step 2): tried only after statistics leave a conjunct
 * SOME, for ==, in and ORs of them; a literal is hashed as the file stores it (an INT8 or
 * UINT_32 as its int32 bytes, a float32 literal rounded to float32, a string's bytes), and a
 * zero probes both zeros. Every bloom below holds exactly its row group's present values. */
static void blooms(void)
{
    enum { NB = 1024 };
    static int32_t i0[] = {1, 3, 9, 4}, i1[] = {2, 8, 6, 7}, i2[] = {5, 5, 1, 9},
                   i3[] = {5, 1, 9, 2};
    static int32_t one = 1, two = 2, eight = 8, nine = 9;
    tw_rg gi[] = {
        {.nrows = 4, .vals = i0, .st = {true, B(one), B(nine), false, -1, -1, 0, -1},
         .bloom_nbytes = NB},
        {.nrows = 4, .vals = i1, .st = {true, B(two), B(eight), false, -1, -1, 0, -1},
         .bloom_nbytes = NB, .bloom_length = true},
        {.nrows = 4, .vals = i2, .st = {true, B(one), B(nine), false, -1, -1, 0, -1},
         .bloom_nbytes = NB},
        {.nrows = 4, .vals = i3, .st = {true, B(one), B(nine), false, -1, -1, 0, -1}},
    };
    tw_file fi = {.ptype = PQT_PT_INT32,
                  .logical = TW_L_INT8,
                  .required = true,
                  .column_orders = true,
                  .nrg = 4,
                  .rgs = gi};
    static const expect ei[] = {
        /* rg0 and rg1 hold no 5; rg3 has no filter */
        {"x == 5", 3, 0, 0, 0, 0, 0, 2},
        {"x in (6, 7)", 2, 0, 0, 0, 0, 0, 2},
        {"x == 6 or x == 4", 2, 0, 0, 0, 0, 0, 1},
        /* statistics first: no filter is needed */
        {"x == 100", 0, 4, 0, 0, 0, 0, 0},
        /* not a membership test */
        {"x != 5", 13, 0, 0, 0, 0, 0, 0},
        {"x >= 5 and x <= 5", 3, 0, 0, 0, 0, 0, 0},
    };
    RUN("bloom, INT8", &fi, ei);

    static uint32_t u0[] = {1, 3000000000u, 5}, u1[] = {7, 2, 9};
    static uint32_t uone = 1, ubig = 3000000000u, utwo = 2, unine = 9;
    tw_rg gu[] = {
        {.nrows = 3, .vals = u0, .st = {true, B(uone), B(ubig), false, -1, -1, 0, -1},
         .bloom_nbytes = NB},
        {.nrows = 3, .vals = u1, .st = {true, B(utwo), B(unine), false, -1, -1, 0, -1},
         .bloom_nbytes = NB},
    };
    tw_file fu = {.ptype = PQT_PT_INT32,
                  .logical = TW_L_UINT32,
                  .required = true,
                  .column_orders = true,
                  .nrg = 2,
                  .rgs = gu};
    static const expect eu[] = {
        {"x == 3000000000", 1, 1, 0, 0, 0, 0, 0},
        {"x == 5", 1, 0, 0, 0, 0, 0, 1},
        {"x == 7", 1, 0, 0, 0, 0, 0, 1},
        {"x == 2", 1, 0, 0, 0, 0, 0, 1},
        {"x == 4", 0, 0, 0, 0, 0, 0, 2},
    };
    RUN("bloom, UINT_32", &fu, eu);

    static double d0[] = {-0.0, 1.5, 3, -1}, d1[] = {-1, 2, 3, 1};
    static double dm1 = -1, d3 = 3;
    tw_rg gd[] = {
        {.nrows = 4, .vals = d0, .st = {true, B(dm1), B(d3), false, -1, -1, 0, 0},
         .bloom_nbytes = NB},
        {.nrows = 4, .vals = d1, .st = {true, B(dm1), B(d3), false, -1, -1, 0, 0},
         .bloom_nbytes = NB},
    };
    tw_file fd = {.ptype = PQT_PT_DOUBLE,
                  .required = true,
                  .column_orders = true,
                  .nrg = 2,
                  .rgs = gd};
    static const expect ed[] = {
        /* rg0 holds -0.0, which equals 0 but hashes apart from +0.0 */
        {"x == 0", 1, 0, 0, 0, 0, 0, 1},
        {"x == -0.0", 1, 0, 0, 0, 0, 0, 1},
        {"x == 1.5", 1, 0, 0, 0, 0, 0, 1},
        {"x == 1", 1, 0, 0, 0, 0, 0, 1},
        {"x in (2.5, 0.5)", 0, 0, 0, 0, 0, 0, 2},
        {"x == 3", 2, 0, 0, 0, 0, 0, 0},
    };
    RUN("bloom, double", &fd, ed);

    static float f0[] = {0.1f, 0.2f, 0.3f}, f1[] = {0.15f, 0.25f, 0.3f};
    static float flo0 = 0.1f, flo1 = 0.15f, fhi = 0.3f;
    tw_rg gf[] = {
        {.nrows = 3, .vals = f0, .st = {true, B(flo0), B(fhi), false, -1, -1, 0, 0},
         .bloom_nbytes = NB},
        {.nrows = 3, .vals = f1, .st = {true, B(flo1), B(fhi), false, -1, -1, 0, 0},
         .bloom_nbytes = NB},
    };
    tw_file ff = {.ptype = PQT_PT_FLOAT,
                  .required = true,
                  .column_orders = true,
                  .nrg = 2,
                  .rgs = gf};
    static const expect ef[] = {
        /* 0.2 and 0.25 compare as the float32 nearest them */
        {"x == 0.2", 1, 0, 0, 0, 0, 0, 1},
        {"x == 0.25", 1, 0, 0, 0, 0, 0, 1},
        {"x == 0.3", 2, 0, 0, 0, 0, 0, 0},
    };
    RUN("bloom, float", &ff, ef);

    static const char *s0[] = {"apple", "fig", NULL, "kiwi"}, *s1[] = {"banana", "date", "kiwi", NULL};
    static const uint8_t ok0[] = {1, 1, 0, 1}, ok1[] = {1, 1, 1, 0};
    tw_rg gs[] = {
        {.nrows = 4, .vals = s0, .valid = ok0,
         .st = {true, S("apple"), S("kiwi"), false, 1, 1, 1, -1}, .bloom_nbytes = NB},
        {.nrows = 4, .vals = s1, .valid = ok1,
         .st = {true, S("banana"), S("kiwi"), false, 1, 1, 1, -1}, .bloom_nbytes = NB},
    };
    tw_file fs = {.ptype = PQT_PT_BYTE_ARRAY,
                  .logical = TW_L_STRING,
                  .column_orders = true,
                  .nrg = 2,
                  .rgs = gs};
    static const expect es[] = {
        {"x == \"fig\"", 1, 0, 0, 0, 0, 0, 1},
        {"x == \"grape\"", 0, 0, 0, 0, 0, 0, 2},
        {"x == \"kiwi\"", 2, 0, 0, 0, 0, 0, 0},
        {"x in (\"date\", \"fig\")", 2, 0, 0, 0, 0, 0, 0},
        {"x in (\"cherry\", \"fig\")", 1, 0, 0, 0, 0, 0, 1},
        {"x == \"fig\" or x == \"date\"", 2, 0, 0, 0, 0, 0, 0},
        /* one conjunct (one column): its first membership test is probed, so rg1 goes */
        {"x == \"fig\" and x == \"kiwi\"", 0, 0, 0, 0, 0, 0, 1},
        {"x == \"fig\" and x != \"apple\"", 1, 0, 0, 0, 0, 0, 1},
        {"not x == \"fig\"", 5, 0, 0, 0, 0, 0, 0},
        {"x starts_with \"fi\"", 1, 0, 0, 0, 0, 0, 0},
        {"x == \"zzz\"", 0, 2, 0, 0, 0, 0, 0},
    };
    RUN("bloom, strings", &fs, es);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_pushdown_torture_%d.parquet", (int)getpid());
    /* without column_orders float bounds are the same signed comparison (parquet.thrift) */
    for (int orders = 0; orders <= 1; orders++) {
        nan_doubles(orders);
        signed_zeros(orders);
    }
    string_bounds();
    legacy_strings();
    unsigned_ints();
    decimals();
    int96();
    half_floats();
    null_pages();
    blooms();
    unlink(path);
    return pqt_test_done("test_pushdown_torture");
}
