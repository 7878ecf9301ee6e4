/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bloom_prune.c - bloom filters as other writers make them, and broken ones.
 *
 * parquet-mr wrote the corpus's data_index_bloom_encoding_stats.parquet and
 * data_index_bloom_encoding_with_length.parquet (one row group, a bloom filter on the string
 * column `String`; the second also records bloom_filter_length): every value the file holds
 * must pass its filter (a bloom never has false negatives, so one that refutes a present
 * value hashes differently from parquet-mr), and values it does not hold must be refuted
 * (bar the rare false positive). Filters that are broken -- a bitset claimed larger than the
 * file, an offset past the end, an unknown algorithm, a size not a power of two, a length
 * too short, a header that is not Thrift -- are ignored: the rows stay right, nothing is
 * pruned, and the read costs no allocation the file cannot justify.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/meta.h"
#include "memcount.h"
#include "pqt.h"
#include "testutil.h"
#include "torture_write.h"

#define S(s) ((tw_bound){(s), sizeof(s) - 1})

static const char *const corpus[] = {
    "tests/data/parquet-testing/data/data_index_bloom_encoding_stats.parquet",
    "tests/data/parquet-testing/data/data_index_bloom_encoding_with_length.parquet",
};

/* The file's 14 values (parquet-testing's README and `pqt cat`). */
static const char *const present[] = {"Hello", "This is", "a",     "test",      "How",
                                      "are you", "doing ", "today", "the quick", "brown fox",
                                      "jumps",   "over",   "the lazy", "dog"};
/* Not in the file, yet inside its statistics' [min "Hello", max "today"]: only the bloom
 * filter can refute them. */
static const char *const absent[] = {"doing", "brown", "fox",  "jump", "lazy",
                                     "quick", "is",    "hello", "over ", "test!"};

typedef struct outcome {
    int64_t rows;
    pqt_scan_counts c;
} outcome;

static bool query(const char *path, const char *rule, int threads, bool bloom, outcome *o)
{
    pqt_opts *opts = NULL;
    pqt_table *t = NULL;
    memset(o, 0, sizeof *o);
    if (pqt_opts_new(&opts) != PQT_OK) return false;
    bool ok = pqt_opts_set_int(opts, PQT_OPT_THREADS, threads) == PQT_OK &&
              pqt_opts_set_str(opts, PQT_OPT_FILTER, rule) == PQT_OK &&
              pqt_opts_set_int(opts, PQT_OPT_PUSHDOWN_BLOOM, bloom) == PQT_OK &&
              pqt_table_open(path, opts, &t) == PQT_OK;
    pqt_opts_free(opts);
    if (!ok) {
        fprintf(stderr, "%s `%s`: %s\n", path, rule, pqt_errmsg());
        pqt_test_failures++;
        return false;
    }
    o->rows = pqt_table_nrows(t);
    CHECK_OK(pqt_table_scan_stats(t, &o->c));
    pqt_table_close(t);
    return true;
}

static void rule_eq(char *buf, size_t n, const char *v)
{
    snprintf(buf, n, "String == \"%s\"", v);
}

static void parquet_mr_files(void)
{
    char rule[128];
    for (size_t f = 0; f < sizeof corpus / sizeof *corpus; f++) {
        for (size_t i = 0; i < sizeof present / sizeof *present; i++) {
            rule_eq(rule, sizeof rule, present[i]);
            for (int threads = 1; threads <= 2; threads++) {
                outcome o;
                if (!query(corpus[f], rule, threads, true, &o)) continue;
                CHECK_EQ_I64(o.rows, 1);
                CHECK_EQ_I64(o.c.bloom_filters_read, 1);
                CHECK_EQ_I64(o.c.row_groups_pruned_bloom, 0);
            }
        }
        int refuted = 0;
        for (size_t i = 0; i < sizeof absent / sizeof *absent; i++) {
            rule_eq(rule, sizeof rule, absent[i]);
            outcome o, off;
            if (!query(corpus[f], rule, 1, true, &o) || !query(corpus[f], rule, 1, false, &off))
                continue;
            CHECK_EQ_I64(o.rows, 0);
            CHECK_EQ_I64(off.rows, 0);
            CHECK_EQ_I64(o.c.bloom_filters_read, 1);
            CHECK_EQ_I64(off.c.bloom_filters_read, 0);
            CHECK_EQ_I64(off.c.row_groups_pruned_bloom, 0);
            refuted += (int)o.c.row_groups_pruned_bloom;
        }
        /* 14 values in a filter of parquet-mr's size: a false positive is rare; ten of ten
         * expected, eight demanded */
        if (refuted < 8) {
            fprintf(stderr, "%s: the bloom filter refuted %d of 10 absent values\n", corpus[f],
                    refuted);
            pqt_test_failures++;
        }
        /* `in`: refuted only when every member is; statistics go first */
        outcome o;
        if (query(corpus[f], "String in (\"doing\", \"lazy\")", 2, true, &o)) {
            CHECK_EQ_I64(o.rows, 0);
            CHECK_EQ_I64(o.c.row_groups_pruned_bloom, 1);
        }
        if (query(corpus[f], "String in (\"doing\", \"dog\")", 2, true, &o)) {
            CHECK_EQ_I64(o.rows, 1);
            CHECK_EQ_I64(o.c.row_groups_pruned_bloom, 0);
        }
        /* past 64 values the whole bitset is read once instead of a block per value */
        char big[2048] = "String in (";
        for (int i = 0; i < 66; i++) {
            char v[16];
            snprintf(v, sizeof v, "%s\"m%02d\"", i ? ", " : "", i);
            strcat(big, v);
        }
        strcat(big, ")");
        if (query(corpus[f], big, 1, true, &o)) {
            CHECK_EQ_I64(o.rows, 0);
            CHECK_EQ_I64(o.c.row_groups_pruned_bloom, 1);
        }
        big[strlen(big) - 1] = '\0';
        strcat(big, ", \"jumps\")");
        if (query(corpus[f], big, 1, true, &o)) {
            CHECK_EQ_I64(o.rows, 1);
            CHECK_EQ_I64(o.c.row_groups_pruned_bloom, 0);
        }
        if (query(corpus[f], "String == \"Zebra\" or String == \"doing\"", 1, true, &o)) {
            CHECK_EQ_I64(o.rows, 0);
            CHECK_EQ_I64(o.c.row_groups_pruned_bloom, 1);
        }
        /* the first file's bounds are in the current fields; the second's only in the
         * deprecated ones, which strings cannot trust (docs/pruning.md) */
        if (query(corpus[f], "String == \"zzz\"", 1, true, &o)) {
            CHECK_EQ_I64(o.rows, 0);
            CHECK_EQ_I64(o.c.row_groups_pruned_stats, f == 0);
            CHECK_EQ_I64(o.c.bloom_filters_read, f != 0);
        }
    }
}

/* Broken filters: read, ignored, and never costly. */
static void flawed_filters(void)
{
    static const char *v0[] = {"apple", "fig", "kiwi"};
    static const char *const names[] = {"sound", "huge", "past EOF", "algorithm",
                                        "not a power of two", "short length", "garbage"};
    char path[256];
    snprintf(path, sizeof path, "/tmp/pqt_test_bloom_prune_%d.parquet", (int)getpid());
    for (int flaw = TW_BLOOM_SOUND; flaw <= TW_BLOOM_GARBAGE; flaw++) {
        tw_rg g[] = {{.nrows = 3,
                      .vals = v0,
                      .st = {true, S("apple"), S("kiwi"), false, 1, 1, 0, -1},
                      .bloom_nbytes = 256,
                      .bloom_flaw = flaw}};
        tw_file f = {.ptype = PQT_PT_BYTE_ARRAY,
                     .logical = TW_L_STRING,
                     .required = true,
                     .column_orders = true,
                     .nrg = 1,
                     .rgs = g};
        if (!tw_write(path, &f)) {
            fprintf(stderr, "cannot write %s\n", path);
            pqt_test_failures++;
            break;
        }
        outcome absent_o, present_o;
        memcount_reset_peak();
        int64_t before = memcount_get().inuse;
        bool ok = query(path, "x == \"grape\"", 1, true, &absent_o) &&
                  query(path, "x == \"fig\"", 2, true, &present_o);
        int64_t peak = memcount_get().peak - before;
        if (!ok) continue;
        int64_t want_pruned = flaw == TW_BLOOM_SOUND;
        if (absent_o.rows != 0 || present_o.rows != 1 ||
            absent_o.c.row_groups_pruned_bloom != want_pruned ||
            present_o.c.row_groups_pruned_bloom != 0 ||
            absent_o.c.bloom_filters_read != want_pruned) {
            fprintf(stderr,
                    "bloom %s: rows %lld/%lld (expected 0/1), pruned %lld (expected %lld), "
                    "filters read %lld\n",
                    names[flaw], (long long)absent_o.rows, (long long)present_o.rows,
                    (long long)absent_o.c.row_groups_pruned_bloom, (long long)want_pruned,
                    (long long)absent_o.c.bloom_filters_read);
            pqt_test_failures++;
        }
        if (peak > (16 << 20)) { /* a 1 GiB claim must not be believed */
            fprintf(stderr, "bloom %s: peak allocation %lld bytes\n", names[flaw],
                    (long long)peak);
            pqt_test_failures++;
        }
    }
    unlink(path);
}

int main(void)
{
    parquet_mr_files();
    flawed_filters();
    return pqt_test_done("test_bloom_prune");
}
