/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_ds_hive.c - hive partition keys of a dataset's paths (src/dataset/hive.c): key=value
 * directory components only (never the file name), keys outermost first in order of first
 * appearance, a key missing from some paths (null there), __HIVE_DEFAULT_PARTITION__ as null,
 * percent-decoding of keys and values, int64 typing at its edges, and a key twice in one path
 * refused with the path named. Expected values are written out by hand, or are what DuckDB
 * wrote and read back (duckdb_names).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw, symlink, mkdtemp */
#endif
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset/listing.h"
#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

static char top[] = "/tmp/pqt_test_ds_hive_XXXXXX";

static void mkfile(const char *rel)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    for (char *s = p + strlen(top) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) CHECK(!"mkdir");
        *s = '/';
    }
    FILE *f = fopen(p, "w");
    REQUIRE_OK(f ? PQT_OK : PQT_IO);
    fclose(f);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

/* Value of key k of member i is want (NULL: null). */
static void value_is(const pqt_ds_list *l, int64_t i, int k, const char *want)
{
    const char *got = l->values[i * l->nkeys + k];
    if (want ? got && strcmp(got, want) == 0 : got == NULL) return;
    fprintf(stderr, "  member %lld ('%s') key '%s': got %s%s%s, want %s%s%s\n", (long long)i,
            l->rel[i], l->keys[k], got ? "'" : "", got ? got : "NULL", got ? "'" : "",
            want ? "'" : "", want ? want : "NULL", want ? "'" : "");
    CHECK(!"hive value differs");
}

static void keys_are(const pqt_ds_list *l, const char *const *want, const bool *is_int, int n)
{
    CHECK_EQ_I64(l->nkeys, n);
    for (int k = 0; k < n && k < l->nkeys; k++) {
        if (strcmp(l->keys[k], want[k]) != 0) {
            fprintf(stderr, "  key %d: got '%s', want '%s'\n", k, l->keys[k], want[k]);
            CHECK(!"key differs");
        }
        CHECK_EQ_I64(l->key_is_int[k], is_int[k]);
    }
}

/* A directory written the way Spark and DuckDB write one. */
static void directory(void)
{
    mkfile("d/year=2020/month=01/a.parquet");
    mkfile("d/year=2020/month=02/b.parquet");
    mkfile("d/year=2021/month=1/x=5.parquet"); /* a file name is never a key */
    mkfile("d/year=__HIVE_DEFAULT_PARTITION__/month=3/c.parquet");
    mkfile("d/year=2022/e.parquet"); /* no month */
    mkfile("d/survey=a%2Fb%3Dc%25%20d/year=2023/f.parquet");
    mkfile("d/plain/year=2024/g.parquet"); /* a folder without '=' is no key */
    mkfile("d/_SUCCESS");
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/d", top);
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_open(spec, true, &l));
    /* sorted bytewise: plain/ < survey= < year=2020 < ... < year=__HIVE... ('_' > '2') */
    static const char *const rel[] = {"plain/year=2024/g.parquet",
                                      "survey=a%2Fb%3Dc%25%20d/year=2023/f.parquet",
                                      "year=2020/month=01/a.parquet",
                                      "year=2020/month=02/b.parquet",
                                      "year=2021/month=1/x=5.parquet",
                                      "year=2022/e.parquet",
                                      "year=__HIVE_DEFAULT_PARTITION__/month=3/c.parquet"};
    CHECK_EQ_I64(l.n, 7);
    for (int i = 0; i < 7 && i < l.n; i++)
        CHECK(strcmp(l.rel[i], rel[i]) == 0);
    /* month=01 keeps its zero: a string (as DuckDB reads it) */
    keys_are(&l, (const char *const[]){"year", "survey", "month"}, (const bool[]){1, 0, 0}, 3);
    if (l.nkeys == 3 && l.n == 7) {
        static const char *const want[7][3] = {{"2024", NULL, NULL}, {"2023", "a/b=c% d", NULL},
                                               {"2020", NULL, "01"}, {"2020", NULL, "02"},
                                               {"2021", NULL, "1"},  {"2022", NULL, NULL},
                                               {NULL, NULL, "3"}};
        for (int i = 0; i < 7; i++)
            for (int k = 0; k < 3; k++)
                value_is(&l, i, k, want[i][k]);
    }
    pqt_ds_list_free(&l);
    CHECK(l.nkeys == 0 && l.keys == NULL && l.values == NULL);

    /* hive off: no keys */
    CHECK_OK(pqt_ds_list_open(spec, false, &l));
    CHECK(l.n == 7 && l.nkeys == 0 && l.keys == NULL && l.values == NULL);
    pqt_ds_list_free(&l);

    /* a glob below a partition folder: keys from the part after the root only */
    snprintf(spec, sizeof spec, "%s/d/year=2020/*/*.parquet", top);
    CHECK_OK(pqt_ds_list_open(spec, true, &l));
    CHECK_EQ_I64(l.n, 2);
    keys_are(&l, (const char *const[]){"month"}, (const bool[]){0}, 1);
    if (l.nkeys == 1 && l.n == 2) {
        value_is(&l, 0, 0, "01");
        value_is(&l, 1, 0, "02");
    }
    pqt_ds_list_free(&l);
}

/* key_is_int at the edges of int64, via the caller's list (kept in its order). */
static void typing(void)
{
    static const struct {
        const char *v;
        bool is_int;
    } cases[] = {
        {"0", 1},
        {"-5", 1},
        {"-0", 1},
        {"10", 1},
        {"007", 0},
        {"00", 0},
        {"-01", 0},
        {"9223372036854775807", 1},
        {"-9223372036854775808", 1},
        {"9223372036854775808", 0},
        {"-9223372036854775809", 0},
        {"99999999999999999999", 0},
        {"+5", 0},
        {"1.5", 0},
        {"1e3", 0},
        {"", 0},
        {"-", 0},
        {" 1", 0},
        {"%31", 1}, /* decoded first: "1" */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char p0[128], p1[128];
        snprintf(p0, sizeof p0, "k=%s/a.parquet", cases[c].v);
        snprintf(p1, sizeof p1, "k=__HIVE_DEFAULT_PARTITION__/b.parquet");
        const char *paths[] = {p0, p1, "c.parquet"};
        pqt_ds_list l;
        CHECK_OK(pqt_ds_list_paths(paths, 3, true, &l));
        CHECK_EQ_I64(l.nkeys, 1);
        if (l.nkeys == 1) {
            if (l.key_is_int[0] != cases[c].is_int)
                fprintf(stderr, "  value '%s': key_is_int %d\n", cases[c].v, l.key_is_int[0]);
            CHECK_EQ_I64(l.key_is_int[0], cases[c].is_int);
            value_is(&l, 1, 0, NULL);
            value_is(&l, 2, 0, NULL);
        }
        pqt_ds_list_free(&l);
    }
    /* only nulls: nothing says integer, so a string */
    const char *nulls[] = {"k=__HIVE_DEFAULT_PARTITION__/a.parquet", "b.parquet"};
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_paths(nulls, 2, true, &l));
    CHECK(l.nkeys == 1 && !l.key_is_int[0]);
    pqt_ds_list_free(&l);
    /* one string among integers makes the key a string */
    const char *mixed[] = {"k=1/a.parquet", "k=2/b.parquet", "k=two/c.parquet"};
    CHECK_OK(pqt_ds_list_paths(mixed, 3, true, &l));
    CHECK(l.nkeys == 1 && !l.key_is_int[0]);
    CHECK(strcmp(l.rel[2], "k=two/c.parquet") == 0);
    pqt_ds_list_free(&l);
}

static void decoding(void)
{
    const char *paths[] = {"/data/a%20b=%41%2f%2F/x.parquet", "/data/a%20b=100%/y.parquet",
                           "/data/a%20b=%zz%4/z.parquet", "/data/a%20b=x=y/w.parquet",
                           "/data/=v/k=/e.parquet"};
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_paths(paths, 5, true, &l));
    /* "=v" has an empty key: no key; "k=" is key k with the empty string */
    keys_are(&l, (const char *const[]){"a b", "k"}, (const bool[]){0, 0}, 2);
    if (l.nkeys == 2) {
        value_is(&l, 0, 0, "A//");
        value_is(&l, 1, 0, "100%");
        value_is(&l, 2, 0, "%zz%4");
        value_is(&l, 3, 0, "x=y");
        value_is(&l, 4, 0, NULL);
        value_is(&l, 4, 1, "");
    }
    pqt_ds_list_free(&l);
    char *s = pqt_ds_hive_decode("%e2%82%ac1%", 11);
    CHECK(s && strcmp(s, "\xe2\x82\xac"
                         "1%") == 0);
    pqt_mem_free(s);
}

/* Folder names DuckDB 1.5 wrote for these values (COPY ... PARTITION_BY (k)) and the values its
 * read_parquet(..., hive_partitioning = true) gave back: the same values here. */
static void duckdb_names(void)
{
    static const char *const paths[] = {"k=a%2Fb/data_0.parquet",
                                        "k=x%3Dy/data_0.parquet",
                                        "k=50%25/data_0.parquet",
                                        "k=sp%20ace/data_0.parquet",
                                        "k=__HIVE_DEFAULT_PARTITION__/data_0.parquet",
                                        "k=/data_0.parquet",
                                        "k=%C3%A9%23%3F/data_0.parquet",
                                        "k=-12/data_0.parquet"};
    static const char *const want[] = {"a/b", "x=y", "50%",        "sp ace",
                                       NULL,  "",    "\xc3\xa9#?", "-12"};
    pqt_ds_list l;
    CHECK_OK(pqt_ds_list_paths(paths, 8, true, &l));
    keys_are(&l, (const char *const[]){"k"}, (const bool[]){0}, 1);
    if (l.nkeys == 1)
        for (int i = 0; i < 8; i++)
            value_is(&l, i, 0, want[i]);
    pqt_ds_list_free(&l);
    /* and how it typed keys: BIGINT for 1, -12, null; VARCHAR once 007 or +5 joins */
    const char *ints[] = {"k=1/a.parquet", "k=-12/b.parquet",
                          "k=__HIVE_DEFAULT_PARTITION__/c.parquet"};
    CHECK_OK(pqt_ds_list_paths(ints, 3, true, &l));
    CHECK(l.nkeys == 1 && l.key_is_int[0]);
    pqt_ds_list_free(&l);
    const char *zero[] = {"k=1/a.parquet", "k=007/b.parquet"};
    CHECK_OK(pqt_ds_list_paths(zero, 2, true, &l));
    CHECK(l.nkeys == 1 && !l.key_is_int[0]);
    pqt_ds_list_free(&l);
}

static void twice(void)
{
    const char *paths[] = {"k=1/a.parquet", "k=1/j=2/k=3/b.parquet"};
    pqt_ds_list l;
    memset(&l, 0x5A, sizeof l);
    CHECK_EQ_I64(pqt_ds_list_paths(paths, 2, true, &l), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "k=1/j=2/k=3/b.parquet") && strstr(pqt_errmsg(), "'k'"));
    CHECK(l.n == 0 && l.rel == NULL && l.nkeys == 0 && l.values == NULL);
    /* also when percent-encoding hides it */
    mkfile("t/k=1/%6B=2/a.parquet");
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/t", top);
    CHECK_EQ_I64(pqt_ds_list_open(spec, true, &l), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "k=1/%6B=2/a.parquet") != NULL);
    CHECK(l.n == 0 && l.root == NULL);
    CHECK_OK(pqt_ds_list_open(spec, false, &l)); /* without hive it is just a path */
    CHECK_EQ_I64(l.n, 1);
    pqt_ds_list_free(&l);
}

/* Every allocation failing in turn: PQT_NOMEM with the list zeroed, until the listing fits
 * (valgrind and ASan builds see that nothing leaks on the way). */
static void out_of_memory(void)
{
    char spec[1024];
    snprintf(spec, sizeof spec, "%s/d", top);
    pqt_status st = PQT_NOMEM;
    long k = 0;
    for (; k < 10000 && st != PQT_OK; k++) {
        pqt_ds_list l;
        memset(&l, 0x5A, sizeof l);
        pqt_mem_fail_after(k);
        st = pqt_ds_list_open(spec, true, &l);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            CHECK(l.n > 0);
            pqt_ds_list_free(&l);
        } else {
            CHECK_EQ_I64(st, PQT_NOMEM);
            CHECK(l.n == 0 && l.rel == NULL && l.root == NULL && l.values == NULL);
        }
    }
    CHECK_EQ_I64(st, PQT_OK);
    printf("test_ds_hive: a hive directory listed with each of its %ld allocations failing\n",
           k - 1);
}

int main(void)
{
    REQUIRE_OK(mkdtemp(top) ? PQT_OK : PQT_IO);
    directory();
    typing();
    decoding();
    duckdb_names();
    twice();
    out_of_memory();
    nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return pqt_test_done("test_ds_hive");
}
