/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dict_prove.c - a conjunct decided on a chunk's dictionary page (docs/pruning.md,
 * step 4): a value absent from the dictionary refutes the row group, a dictionary every entry of
 * which passes accepts it -- only when encoding_stats say every data page is dictionary
 * encoded, and only as far as nulls allow. Every query gives the rows a read with every
 * mechanism off gives (threads 1 and 2), as many as counted by hand from the values below,
 * and the dictionary prunes exactly the row groups it may: with statistics on (null counts
 * known) and off (nulls then possible in every optional column). Hostile dictionary pages
 * (sizes that lie) are not used and cost no large allocation.
 *
 * Files come from torture_write.c: dictionary chunks with or without a PLAIN fallback page
 * (whose values are not in the dictionary) and with or without encoding_stats.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/meta.h"
#include "memcount.h"
#include "pqt.h"
#include "testutil.h"
#include "torture_write.h"

#define B(x) ((tw_bound){&(x), sizeof(x)})
/* statistics holding a null count and nothing else: they refute nothing by bounds */
#define NULLS(n) ((tw_stats){true, {0}, {0}, false, -1, -1, (n), -1})

typedef struct expect {
    const char *rule;
    int64_t rows;
    int64_t pruned_stats, all, pruned_dict; /* every mechanism on */
    int64_t dict_only_pruned, dict_only_all; /* statistics off */
} expect;

static char path[256];
static int nrg_written;

enum { MODE_OFF, MODE_ON, MODE_NO_STATS };

static pqt_table *open_rule(const char *rule, int threads, int mode, pqt_status *st_ret)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, rule));
    for (int m = PQT_OPT_PUSHDOWN_STATS; mode == MODE_OFF && m <= PQT_OPT_PUSHDOWN_ADAPTIVE; m++)
        CHECK_OK(pqt_opts_set_int(o, (pqt_opt)m, 0));
    if (mode == MODE_NO_STATS) CHECK_OK(pqt_opts_set_int(o, PQT_OPT_PUSHDOWN_STATS, 0));
    pqt_status st = pqt_table_open(path, o, &t);
    pqt_opts_free(o);
    if (st_ret) *st_ret = st;
    else if (st != PQT_OK) {
        fprintf(stderr, "%s: open with `%s` failed: %s\n", path, rule, pqt_errmsg());
        pqt_test_failures++;
    }
    return st == PQT_OK ? t : NULL;
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
    pqt_table *ref = open_rule(e->rule, 1, MODE_OFF, NULL);
    if (!ref) return;
    int64_t nref;
    int64_t *rref = kept(ref, &nref);
    pqt_scan_counts off;
    CHECK_OK(pqt_table_scan_stats(ref, &off));
    if (nref != e->rows || off.row_groups_pruned_dictionary || off.row_groups_all) {
        fprintf(stderr, "%s `%s`, every mechanism off: %lld rows (expected %lld)\n", name,
                e->rule, (long long)nref, (long long)e->rows);
        pqt_test_failures++;
    }
    for (int mode = MODE_ON; mode <= MODE_NO_STATS; mode++)
        for (int threads = 1; threads <= 2; threads++) {
            pqt_table *t = open_rule(e->rule, threads, mode, NULL);
            if (!t) continue;
            int64_t n;
            int64_t *r = kept(t, &n);
            pqt_scan_counts c;
            CHECK_OK(pqt_table_scan_stats(t, &c));
            bool same = n == nref && (n == 0 || !memcmp(r, rref, (size_t)n * sizeof *r));
            int64_t ps = mode == MODE_ON ? e->pruned_stats : 0;
            int64_t all = mode == MODE_ON ? e->all : e->dict_only_all;
            int64_t pd = mode == MODE_ON ? e->pruned_dict : e->dict_only_pruned;
            if (!same || c.row_groups_pruned_stats != ps || c.row_groups_all != all ||
                c.row_groups_pruned_dictionary != pd) {
                fprintf(stderr,
                        "%s `%s` (%s, %d threads): %lld rows%s (expected %lld); pruned by "
                        "stats %lld (expected %lld), whole %lld (%lld), by the dictionary "
                        "%lld (%lld)\n",
                        name, e->rule, mode == MODE_ON ? "all on" : "statistics off", threads,
                        (long long)n, same ? "" : ", not the reference's", (long long)e->rows,
                        (long long)c.row_groups_pruned_stats, (long long)ps,
                        (long long)c.row_groups_all, (long long)all,
                        (long long)c.row_groups_pruned_dictionary, (long long)pd);
                pqt_test_failures++;
            }
            /* refuted by the dictionary everywhere: only dictionary pages were read */
            if (pd == nrg_written && (c.pages_decompressed != 0 ||
                                      c.dictionary_pages_read != nrg_written)) {
                fprintf(stderr, "%s `%s`: every row group refuted by its dictionary, yet %lld "
                                "data pages decompressed and %lld dictionary pages read\n",
                        name, e->rule, (long long)c.pages_decompressed,
                        (long long)c.dictionary_pages_read);
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
    nrg_written = f->nrg;
    if (!tw_write(path, f)) {
        fprintf(stderr, "%s: cannot write %s\n", name, path);
        pqt_test_failures++;
        return;
    }
    for (int i = 0; i < n; i++)
        check_query(name, &e[i]);
}

#define RUN(name, f, e) run(name, f, e, (int)(sizeof(e) / sizeof(e)[0]))

/* Strings with nulls: null counts known (0 or 2) in three row groups, unknown in the last. */
static void strings(void)
{
    static const char *v0[] = {"apple", "pear", "apple", "fig", "pear", "apple"},
                      *v1[] = {"kiwi", "", "kiwi", "plum", "", "plum"},
                      *v2[] = {"fig", "fig", "fig", "fig", "fig", "fig"},
                      *v3[] = {"apple", "kiwi", "", "date", "date", "kiwi"};
    static const uint8_t n1[] = {1, 0, 1, 1, 0, 1}, n3[] = {1, 1, 0, 1, 1, 1};
    tw_rg g[] = {
        {.nrows = 6, .vals = v0, .st = NULLS(0), .dict = TW_DICT_ALL, .enc_stats = true},
        {.nrows = 6, .vals = v1, .valid = n1, .st = NULLS(2), .dict = TW_DICT_ALL,
         .enc_stats = true},
        {.nrows = 6, .vals = v2, .st = NULLS(0), .dict = TW_DICT_ALL, .enc_stats = true},
        {.nrows = 6, .vals = v3, .valid = n3, .dict = TW_DICT_ALL, .enc_stats = true},
    };
    tw_file f = {.ptype = PQT_PT_BYTE_ARRAY, .logical = TW_L_STRING, .nrg = 4, .rgs = g};
    static const expect e[] = {
        /* rule, rows, on: pruned by stats, all, by dictionary; stats off: by dictionary, all */
        {"x == \"zzz\"", 0, 0, 0, 4, 4, 0},
        {"x == \"apple\"", 4, 0, 0, 2, 2, 0},
        /* row group 3 is all "fig" and null-free: accepted (with its null count only) */
        {"x == \"fig\"", 7, 0, 1, 2, 2, 0},
        {"x /= \"fig\"", 14, 0, 0, 1, 1, 0},
        /* a null passes: refuted only where statistics count no null, by the statistics */
        {"x is_null", 3, 2, 0, 0, 0, 0},
        {"x is_not_null", 21, 0, 2, 0, 0, 0},
        {"x in (\"kiwi\", \"plum\")", 6, 0, 0, 2, 2, 0},
        {"x starts_with \"p\"", 4, 0, 0, 2, 2, 0},
        {"x ends_with \"e\"", 6, 0, 0, 2, 2, 0},
        /* true for every entry and for null: accepted whatever the nulls */
        {"x == \"fig\" or x is_null", 10, 0, 1, 0, 0, 1},
        {"not x == \"zzz\"", 21, 0, 2, 0, 0, 0},
    };
    RUN("strings", &f, e);
}

/* int64, required: a chunk with a PLAIN fallback page (40 and 20 only there), one without
 * encoding_stats, and one whose every value is 20. */
static void ints(void)
{
    static int64_t v0[] = {1, 2, 3, 1, 2, 3}, v1[] = {10, 30, 10, 20, 40, 20},
                   v2[] = {5, 6, 7, 5, 6, 7}, v3[] = {20, 20, 20, 20, 20, 20};
    static int64_t lo = -1000, hi = 1000; /* wide but true page bounds: the index refutes none */
    tw_rg g[] = {
        {.nrows = 6, .vals = v0, .dict = TW_DICT_ALL, .enc_stats = true},
        {.nrows = 6, .vals = v1, .dict = TW_DICT_FALLBACK, .enc_stats = true, .npages = 2,
         .pages = {{3, false, B(lo), B(hi), 0}, {3, false, B(lo), B(hi), 0}}},
        {.nrows = 6, .vals = v2, .dict = TW_DICT_ALL, .enc_stats = false},
        {.nrows = 6, .vals = v3, .dict = TW_DICT_ALL, .enc_stats = true},
    };
    tw_file f = {.ptype = PQT_PT_INT64, .required = true, .nrg = 4, .rgs = g};
    static const expect e[] = {
        {"x == 20", 8, 0, 1, 1, 1, 1},
        {"x == 99", 0, 0, 0, 2, 2, 0},
        /* only in the PLAIN page: its dictionary lacks it, the row group is not refuted */
        {"x == 40", 1, 0, 0, 2, 2, 0},
        {"x > 2", 20, 0, 1, 0, 0, 1},
        {"x < 0", 0, 0, 0, 2, 2, 0},
        {"x in (2, 5)", 4, 0, 0, 1, 1, 0},
    };
    RUN("ints", &f, e);
}

/* doubles with NaN, ±0 and a null. */
static void doubles(void)
{
    static double v0[] = {1.5, NAN, 2.5, 0, 1.5, NAN}, v1[] = {0.0, -0.0, 3.0, 3.0, 0.0, 3.0};
    static const uint8_t n0[] = {1, 1, 1, 0, 1, 1};
    tw_rg g[] = {
        {.nrows = 6, .vals = v0, .valid = n0, .st = NULLS(1), .dict = TW_DICT_ALL,
         .enc_stats = true},
        {.nrows = 6, .vals = v1, .st = NULLS(0), .dict = TW_DICT_ALL, .enc_stats = true},
    };
    tw_file f = {.ptype = PQT_PT_DOUBLE, .nrg = 2, .rgs = g};
    static const expect e[] = {
        {"x == 0", 3, 0, 0, 1, 1, 0},
        {"x is_nan", 2, 0, 0, 1, 1, 0},
        {"x /= 3", 8, 0, 0, 0, 0, 0},
        {"x /= 7", 11, 0, 1, 0, 0, 0},
        {"x > 2", 4, 0, 0, 0, 0, 0},
        {"x < 0", 0, 0, 0, 2, 2, 0},
        {"x <= 0", 3, 0, 0, 1, 1, 0},
    };
    RUN("doubles", &f, e);
}

/* Without encoding_stats (DuckDB's and Polars' files) no row group is proven, but a conjunct
 * no dictionary entry nor null passes skips the chunk's dictionary-encoded pages undecompressed
 * while filtering on codes; a PLAIN fallback page makes the row group read values. */
static void no_enc_stats(void)
{
    static const char *v0[] = {"a", "b", "", "a"}, *v1[] = {"c", "c", "d", "d"},
                      *v2[] = {"a", "c", "zzz", "a"};
    static const uint8_t n0[] = {1, 1, 0, 1};
    /* wide but true page bounds: the page index refutes no page */
    tw_rg g[] = {
        {.nrows = 4, .vals = v0, .valid = n0, .dict = TW_DICT_ALL},
        {.nrows = 4, .vals = v1, .dict = TW_DICT_ALL},
        {.nrows = 4, .vals = v2, .dict = TW_DICT_FALLBACK, .npages = 2,
         .pages = {{2, false, {"a", 1}, {"zzzz", 4}, 0}, {2, false, {"a", 1}, {"zzzz", 4}, 0}}},
    };
    tw_file f = {.ptype = PQT_PT_BYTE_ARRAY, .logical = TW_L_STRING, .nrg = 3, .rgs = g};
    CHECK(tw_write(path, &f));
    static const struct {
        const char *rule;
        int64_t rows, pages_on, pages_off; /* data pages decompressed */
    } q[] = {
        /* Off: 1 + 1 + 4 (row group 3 is read on codes until its PLAIN page, 2 pages, then
         * again on values, 2 more). On: a refuted row group 0, row group 3's coded page is
         * skipped in the codes attempt (1 + 2). */
        {"x == \"q\"", 0, 3, 6},
        {"x == \"zzz\"", 1, 3, 6},
        {"x == \"a\"", 4, 1 + 0 + 4, 6},
        {"x starts_with \"d\"", 2, 0 + 1 + 3, 6},
        /* a null passes: no page is refuted */
        {"x == \"q\" or x is_null", 1, 6, 6},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        pqt_table *ref = open_rule(q[i].rule, 1, MODE_OFF, NULL);
        if (!ref) continue;
        int64_t nref;
        int64_t *rref = kept(ref, &nref);
        pqt_scan_counts off;
        CHECK_OK(pqt_table_scan_stats(ref, &off));
        CHECK_EQ_I64(nref, q[i].rows);
        CHECK_EQ_I64(off.pages_decompressed, q[i].pages_off);
        for (int threads = 1; threads <= 2; threads++) {
            pqt_table *t = open_rule(q[i].rule, threads, MODE_ON, NULL);
            if (!t) continue;
            int64_t n;
            int64_t *r = kept(t, &n);
            pqt_scan_counts c;
            CHECK_OK(pqt_table_scan_stats(t, &c));
            bool same = n == nref && (n == 0 || !memcmp(r, rref, (size_t)n * sizeof *r));
            if (!same || c.pages_decompressed != q[i].pages_on ||
                c.row_groups_pruned_dictionary != 0) {
                fprintf(stderr, "no encoding_stats `%s` (%d threads): %lld rows%s (expected "
                                "%lld), %lld pages decompressed (expected %lld), %lld row "
                                "groups pruned by the dictionary (expected 0)\n",
                        q[i].rule, threads, (long long)n, same ? "" : ", not the reference's",
                        (long long)q[i].rows, (long long)c.pages_decompressed,
                        (long long)q[i].pages_on, (long long)c.row_groups_pruned_dictionary);
                pqt_test_failures++;
            }
            pqt_free(r);
            pqt_table_close(t);
        }
        pqt_free(rref);
        pqt_table_close(ref);
    }
}

/* The same for a column of another kind (int64, nullable), read on codes only to skip its
 * refuted pages: statistics whose range holds the value cannot refute it. */
static void no_enc_stats_ints(void)
{
    static int64_t v0[] = {10, 30, 0, 10}, v1[] = {5, 50, 5, 50}, v2[] = {10, 10, 20, 7};
    static const uint8_t n0[] = {1, 1, 0, 1};
    static int64_t i5 = 5, i10 = 10, i30 = 30, i50 = 50, lo = 0, hi = 100;
    tw_rg g[] = {
        {.nrows = 4, .vals = v0, .valid = n0, .dict = TW_DICT_ALL,
         .st = {true, B(i10), B(i30), false, -1, -1, 1, -1}},
        {.nrows = 4, .vals = v1, .dict = TW_DICT_ALL,
         .st = {true, B(i5), B(i50), false, -1, -1, 0, -1}},
        {.nrows = 4, .vals = v2, .dict = TW_DICT_FALLBACK, .npages = 2,
         .pages = {{2, false, B(lo), B(hi), 0}, {2, false, B(lo), B(hi), 0}}},
    };
    tw_file f = {.ptype = PQT_PT_INT64, .nrg = 3, .rgs = g};
    CHECK(tw_write(path, &f));
    static const struct {
        const char *rule;
        int64_t rows, pages_on, pages_off;
    } q[] = {
        /* row group 3: its coded page skipped, its PLAIN page read on codes (1), then both
         * pages on values (2) */
        {"x == 20", 1, 0 + 0 + 3, 4},
        {"x == 30", 1, 1 + 0 + 3, 4},
        {"x == 20 or x is_null", 2, 4, 4},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        pqt_table *ref = open_rule(q[i].rule, 1, MODE_OFF, NULL);
        if (!ref) continue;
        int64_t nref;
        int64_t *rref = kept(ref, &nref);
        pqt_scan_counts off;
        CHECK_OK(pqt_table_scan_stats(ref, &off));
        CHECK_EQ_I64(nref, q[i].rows);
        CHECK_EQ_I64(off.pages_decompressed, q[i].pages_off);
        for (int threads = 1; threads <= 2; threads++) {
            pqt_table *t = open_rule(q[i].rule, threads, MODE_ON, NULL);
            if (!t) continue;
            int64_t n;
            int64_t *r = kept(t, &n);
            pqt_scan_counts c;
            CHECK_OK(pqt_table_scan_stats(t, &c));
            bool same = n == nref && (n == 0 || !memcmp(r, rref, (size_t)n * sizeof *r));
            if (!same || c.pages_decompressed != q[i].pages_on ||
                c.row_groups_pruned_dictionary != 0 || c.row_groups_pruned_stats != 0) {
                fprintf(stderr, "ints, no encoding_stats `%s` (%d threads): %lld rows%s "
                                "(expected %lld), %lld pages decompressed (expected %lld), "
                                "pruned %lld by the dictionary, %lld by statistics (expected 0)\n",
                        q[i].rule, threads, (long long)n, same ? "" : ", not the reference's",
                        (long long)q[i].rows, (long long)c.pages_decompressed,
                        (long long)q[i].pages_on, (long long)c.row_groups_pruned_dictionary,
                        (long long)c.row_groups_pruned_stats);
                pqt_test_failures++;
            }
            pqt_free(r);
            pqt_table_close(t);
        }
        pqt_free(rref);
        pqt_table_close(ref);
    }
}

/* Dictionary pages whose sizes lie are not used for proofs (the reader itself tolerates
 * these lies), and a count no page can hold fails the read as it does with pushdown off;
 * neither costs an allocation of the size claimed. */
static void hostile(void)
{
    static const char *v0[] = {"a", "b", "a"}, *v1[] = {"a", "b", "c"}, *v2[] = {"b", "b", "a"};
    tw_rg g[] = {
        {.nrows = 3, .vals = v0, .st = NULLS(0), .dict = TW_DICT_ALL, .enc_stats = true,
         .dict_claim_nbytes = 0x7fffffff},
        {.nrows = 3, .vals = v1, .st = NULLS(0), .dict = TW_DICT_ALL, .enc_stats = true,
         .claim_total_nbytes = 4},
        {.nrows = 3, .vals = v2, .st = NULLS(0), .dict = TW_DICT_ALL, .enc_stats = true},
    };
    tw_file f = {.ptype = PQT_PT_BYTE_ARRAY, .logical = TW_L_STRING, .nrg = 3, .rgs = g};
    static const expect e[] = {
        {"x == \"zzz\"", 0, 0, 0, 1, 1, 0},
        {"x == \"c\"", 1, 0, 0, 1, 1, 0},
        {"x /= \"zzz\"", 9, 0, 1, 0, 0, 0},
    };
    memcount_reset_peak();
    int64_t before = memcount_get().inuse;
    RUN("hostile sizes", &f, e);
    int64_t peak = memcount_get().peak - before;
    if (peak > (int64_t)16 << 20) {
        fprintf(stderr, "hostile sizes: %lld bytes held at once\n", (long long)peak);
        pqt_test_failures++;
    }

    /* 2^30 entries claimed by a page of a few bytes */
    tw_rg h[] = {{.nrows = 3, .vals = v0, .st = NULLS(0), .dict = TW_DICT_ALL, .enc_stats = true,
                  .dict_claim_nvalues = 1 << 30}};
    tw_file fh = {.ptype = PQT_PT_BYTE_ARRAY, .logical = TW_L_STRING, .nrg = 1, .rgs = h};
    CHECK(tw_write(path, &fh));
    pqt_status st_off = PQT_OK;
    pqt_table *t = open_rule("x == \"zzz\"", 1, MODE_OFF, &st_off);
    pqt_table_close(t);
    CHECK_EQ_I64(st_off, PQT_CORRUPT);
    for (int threads = 1; threads <= 2; threads++) {
        memcount_reset_peak();
        before = memcount_get().inuse;
        pqt_status st = PQT_OK;
        t = open_rule("x == \"zzz\"", threads, MODE_ON, &st);
        pqt_table_close(t);
        CHECK_EQ_I64(st, st_off);
        peak = memcount_get().peak - before;
        if (peak > (int64_t)16 << 20) {
            fprintf(stderr, "2^30 entries claimed: %lld bytes held at once\n", (long long)peak);
            pqt_test_failures++;
        }
    }
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_dict_prove_%d.parquet", (int)getpid());
    strings();
    ints();
    doubles();
    no_enc_stats();
    no_enc_stats_ints();
    hostile();
    unlink(path);
    return pqt_test_done("test_dict_prove");
}
