/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sort_grammar.c - the text form of sort keys (docs/sort.md): what each key
 * means (checked through the order it gives on a small table whose answer is written out by
 * hand), every error text, the limits, and that a refused call changes nothing (options,
 * table rows, residency, generation).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define CHECK_MSG(sub)                                                                             \
    do {                                                                                           \
        if (!strstr(pqt_errmsg(), sub)) {                                                          \
            fprintf(stderr, "%s:%d: message '%s' lacks '%s'\n", __FILE__, __LINE__, pqt_errmsg(),  \
                    sub);                                                                          \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* rows (tag): a = 2 1 2 1 null ; b = 10 20 30 40 50 ; "main.inner.age" = 5 4 3 2 1 */
static pqt_table *small_table(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t a[5] = {2, 1, 2, 1, 0}, b[5] = {10, 20, 30, 40, 50}, age[5] = {5, 4, 3, 2, 1};
    int32_t tag[5] = {1, 2, 3, 4, 5};
    uint8_t av = 0x0f;
    REQUIRE_OK(pqt_table_add_column(t, "a", PQT_INT32, 1, a, &av, 5, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "b", PQT_INT32, 1, b, NULL, 5, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "main.inner.age", PQT_INT32, 1, age, NULL, 5, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "tag", PQT_INT32, 1, tag, NULL, 5, NULL));
    return t;
}

/* The tags argsort gives for keys, as a string "21345". */
static void order_is(const char *keys, const char *want)
{
    pqt_table *t = small_table();
    int64_t perm[5];
    char got[8] = "";
    pqt_status st = pqt_table_argsort_by(t, keys, NULL, perm, NULL, 0, NULL);
    if (st != PQT_OK) {
        fprintf(stderr, "'%s': %s\n", keys, pqt_errmsg());
        pqt_test_failures++;
    } else {
        for (int i = 0; i < 5; i++) got[i] = (char)('0' + perm[i]);
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "%s:%d: keys '%s' gave %s, want %s\n", __FILE__, __LINE__, keys, got,
                    want);
            pqt_test_failures++;
        }
    }
    pqt_table_close(t);
}

static void test_meanings(void)
{
    order_is("a", "24135");                 /* 1 1 2 2 null; ties in row order */
    order_is("a asc", "24135");
    order_is("a ASCENDING", "24135");
    order_is("a desc", "13245");            /* values reversed, null still last */
    order_is("a Descending", "13245");
    order_is("-a", "13245");
    order_is("a nulls_first", "52413");
    order_is("-a nulls_first", "51324");
    order_is("a desc NULLS_FIRST", "51324");
    order_is("a nulls_first desc", "51324"); /* either order of the two words */
    order_is("a nulls_last", "24135");
    order_is("a, -b", "42315");
    order_is("a;b desc", "42315");
    order_is("  a  ,\t-b  ", "42315");
    order_is("-a; -b", "31425");
    order_is("main.inner.age", "54321");     /* a dotted name is one column */
    order_is("-main.inner.age", "12345");
    order_is("a, a desc", "24135");          /* a key named twice: the second ties */
}

/* Every refusal: status, docs/sort.md's wording, and nothing changed. */
static void bad(const char *keys, const char *msg)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    bool blank = strspn(keys, " \t") == strlen(keys); /* set_sort: blank removes the sort */
    CHECK_EQ_I64(pqt_opts_set_sort(o, keys), blank ? PQT_OK : PQT_BAD_SORT);
    if (!blank) CHECK_MSG(msg);
    CHECK_EQ_I64(pqt_opts_set_str(o, PQT_OPT_SORT, keys), PQT_BAD_SORT);
    CHECK_MSG(msg);
    pqt_opts_free(o);
    pqt_table *t = small_table();
    uint64_t g = pqt_table_generation(t);
    int64_t perm[5] = {9, 9, 9, 9, 9}, offs[6] = {9, 9, 9, 9, 9, 9}, ng = 9;
    int sorted = 9;
    CHECK_EQ_I64(pqt_table_sort_by(t, keys, NULL), PQT_BAD_SORT);
    CHECK_MSG(msg);
    CHECK_EQ_I64(pqt_table_top_n(t, keys, NULL, 2), PQT_BAD_SORT);
    CHECK_EQ_I64(pqt_table_argsort_by(t, keys, NULL, perm, offs, 0, &ng), PQT_BAD_SORT);
    CHECK_EQ_I64(pqt_table_is_sorted_by(t, keys, NULL, &sorted), PQT_BAD_SORT);
    CHECK_MSG(msg);
    CHECK_EQ_I64(perm[0], 9);
    CHECK_EQ_I64(offs[0], 9);
    CHECK_EQ_I64(ng, 9);
    CHECK_EQ_I64(sorted, 9);
    CHECK_EQ_I64(pqt_table_nrows(t), 5);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_table_close(t);
}

static void test_errors(void)
{
    bad("", "empty sort key");
    bad("   ", "empty sort key");
    bad("a,,b", "empty sort key");
    bad("a;", "empty sort key");
    bad("-", "sort key '-' names no column");
    bad("- ", "names no column");
    bad("a up", "sort key 'a up' has an unrecognized direction 'up' (expected asc, ascending, "
                "desc or descending)");
    bad("a asc desc", "has an unrecognized direction 'desc'");
    bad("a nulls_first nulls_last", "unrecognized direction 'nulls_last'");
    bad("-a desc", "sort key '-a desc' has both the '-' shorthand and an explicit direction; use "
                   "one or the other");
    bad("-a asc", "explicit direction; use one or the other");
    char name[80];
    memset(name, 'x', 65);
    name[65] = 0;
    bad(name, "sort key column name is too long (maximum 64 characters): xxxxx");
    memset(name, 'y', 64); /* 64 is allowed: fails later, as a missing column */
    name[64] = 0;
    pqt_table *t = small_table();
    CHECK_EQ_I64(pqt_table_sort_by(t, name, NULL), PQT_NOT_FOUND);
    pqt_table_close(t);
    char many[200] = "";
    for (int i = 0; i < 17; i++) strcat(many, i ? ",a" : "a");
    bad(many, "too many sort keys (maximum 16)");
    char longkey[400];
    memset(longkey, ' ', sizeof longkey);
    memcpy(longkey, "a", 1);
    memcpy(longkey + 330, "desc", 5);
    bad(longkey, "is too long (maximum 320 characters)");
    /* 16 keys are fine */
    many[strlen(many) - 2] = 0;
    t = small_table();
    CHECK_OK(pqt_table_sort_by(t, many, NULL));
    pqt_table_close(t);
}

/* Options: PQT_OPT_SORT appends, pqt_opts_set_sort replaces, a refused set changes
 * nothing; PQT_OPT_LIMIT's range. The keys in force are seen through explain at open. */
static void test_options(void)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_SORT, "f64 desc"));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_SORT, "i32 nulls_first, s"));
    CHECK_EQ_I64(pqt_opts_set_str(o, PQT_OPT_SORT, "id sideways"), PQT_BAD_SORT);
    CHECK_EQ_I64(pqt_opts_set_sort(o, "-id asc"), PQT_BAD_SORT);
    CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_SORT, 1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_LIMIT, -1), PQT_MISUSE);
    CHECK_MSG("PQT_OPT_LIMIT = -1");
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, 4));
    CHECK_EQ_I64(pqt_opts_set_str(o, PQT_OPT_LIMIT, "4"), PQT_MISUSE);
    CHECK_EQ_I64(pqt_opts_set_str(o, PQT_OPT_SORT, NULL), PQT_MISUSE);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/table_rg.parquet", o, &t));
    char buf[1024];
    pqt_table_explain(t, buf, sizeof buf);
    CHECK(strstr(buf, "sort: f64 desc, i32 asc nulls_first, s asc\n") != NULL);
    CHECK_EQ_I64(pqt_table_nrows(t), 4);
    pqt_table_close(t);
    CHECK_OK(pqt_opts_set_sort(o, "-id"));
    REQUIRE_OK(pqt_table_open("tests/data/table_rg.parquet", o, &t));
    pqt_table_explain(t, buf, sizeof buf);
    CHECK(strstr(buf, "sort: id desc\n") != NULL);
    int64_t ids[4] = {0};
    CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
    CHECK_EQ_I64(ids[0], 10000);
    CHECK_EQ_I64(ids[3], 9997);
    pqt_table_close(t);
    CHECK_OK(pqt_opts_set_sort(o, NULL)); /* no sort: the limit keeps the first rows */
    REQUIRE_OK(pqt_table_open("tests/data/table_rg.parquet", o, &t));
    CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
    CHECK_EQ_I64(ids[0], 1);
    CHECK_EQ_I64(ids[3], 4);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_opts_set_sort(NULL, "a"), PQT_MISUSE);
    pqt_opts_free(o);
}

/* The array form: names taken literally (a name with ',' or a leading '-' is reachable),
 * argument checks, and a refused call changes nothing. */
static void test_array_form(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t x[3] = {3, 1, 2}, y[3] = {1, 2, 3};
    REQUIRE_OK(pqt_table_add_column(t, "-odd, name", PQT_INT32, 1, x, NULL, 3, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "y", PQT_INT32, 1, y, NULL, 3, NULL));
    const char *k[] = {"-odd, name"};
    int64_t perm[3];
    CHECK_OK(pqt_table_argsort_by_names(t, k, 1, NULL, NULL, perm, NULL, 0, NULL));
    CHECK_EQ_I64(perm[0], 2);
    CHECK_EQ_I64(perm[1], 3);
    CHECK_EQ_I64(perm[2], 1);
    CHECK_EQ_I64(pqt_table_sort_by(t, "-odd, name", NULL), PQT_NOT_FOUND); /* 'odd' */
    const char *seventeen[17];
    for (int i = 0; i < 17; i++) seventeen[i] = "y";
    uint64_t g = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_sort_by_names(t, seventeen, 17, NULL, NULL), PQT_BAD_SORT);
    CHECK_MSG("too many sort keys (maximum 16)");
    CHECK_EQ_I64(pqt_table_sort_by_names(t, seventeen, 0, NULL, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_top_n_names(t, k, 1, NULL, NULL, -1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_top_n(t, "y", NULL, -1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_argsort_by_names(t, k, 1, NULL, NULL, perm, NULL, 1, NULL), PQT_MISUSE);
    int64_t offs[4];
    CHECK_EQ_I64(pqt_table_argsort_by_names(t, k, 1, NULL, NULL, perm, offs, 2, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_argsort_by_names(t, k, 1, NULL, NULL, NULL, NULL, 0, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_is_sorted_by_names(t, k, 1, NULL, NULL, NULL), PQT_MISUSE);
    /* a missing key among good ones: nothing moves */
    const char *mixed[] = {"y", "nope"};
    CHECK_EQ_I64(pqt_table_sort_by_names(t, mixed, 2, NULL, NULL), PQT_NOT_FOUND);
    CHECK_MSG("no column 'nope'");
    CHECK_EQ_I64(pqt_table_generation(t), g);
    int32_t got[3];
    CHECK_OK(pqt_table_get(t, "-odd, name", 0, got, sizeof got, NULL, 0));
    CHECK_EQ_I64(got[0], 3);
    CHECK_EQ_I64(pqt_table_is_detached(t), 0);
    pqt_table_close(t);
}

/* A key that is not a scalar column is refused before anything is read, on a file table
 * too: the other key stays unread. */
static void test_kinds(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/table_rg.parquet", NULL, &t));
    const char *k[] = {"f64", "lst"};
    CHECK_EQ_I64(pqt_table_sort_by_names(t, k, 2, NULL, NULL), PQT_KIND);
    CHECK_MSG("sort key 'lst' is a variable-length list column; sorting only supports scalar "
              "columns");
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "f64", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    CHECK_EQ_I64(pqt_table_is_sorted_by(t, "f64, vec", NULL, &res), PQT_KIND);
    CHECK_MSG("sort key 'vec' is");
    CHECK_EQ_I64(pqt_table_top_n(t, "f64, nope", NULL, 3), PQT_NOT_FOUND);
    CHECK_OK(pqt_table_residency(t, "f64", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    pqt_table_close(t);
}

int main(void)
{
    test_meanings();
    test_errors();
    test_options();
    test_array_form();
    test_kinds();
    return pqt_test_done("test_sort_grammar");
}
