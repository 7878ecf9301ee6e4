/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_parse.c - the filter language's syntax: every error of docs/filters.md with its
 * message fragment and the 1-based character it points at, the limits, the issue-10
 * extensions (!= <> =, operators without spaces, backquoted names, dotted leaves) meaning
 * what their spaced forms mean, and the public pqt_filter calls' contracts.
 * Truth: the spec's tables and hand-counted positions; rows kept by an extension are
 * compared with the rows kept by parquet-fortran's own spelling, which test_filter_meaning.c
 * checks against hand-computed answers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "filter_testkit.h"
#include "scan/filter_int.h"
#include "util/mem.h"

static const int64_t v[] = {1, 3, 4, 5, 3, -2};
static const double x[] = {5, 4, NAN, 0, 6, -INFINITY};
static const uint8_t x_valid[] = {0x37}; /* row 3 null */
static const double mass[] = {2e12, 1e12, 5e11, 1e13, 0, 1e12};
static const int64_t name_off[] = {0, 3, 6, 20, 20, 23, 25};
static const char name_bytes[] = "abca\"babell 1 (core)x y\xc3\xa9";
static const uint8_t flag[] = {1, 0, 1, 0, 0, 1};
static const double flux[] = {1, -1, 2, 0, NAN, 3};
static const int64_t xy[] = {10, 1, 2, 3, 4, 5};
static const int32_t age[] = {30, 36, 40, 0, 35, 99};
static const uint8_t age_valid[] = {0x37};

static tk_table table(void)
{
    tk_table t = {.nrows = 6};
    tk_add(&t, "v", PQT_INT64, -1, v, NULL, NULL);
    tk_add(&t, "x", PQT_FLOAT64, -1, x, NULL, x_valid);
    tk_add(&t, "mass", PQT_FLOAT64, -1, mass, NULL, NULL);
    tk_add(&t, "name", PQT_STRING, -1, name_off, name_bytes, NULL);
    tk_add(&t, "flag", PQT_BOOL, -1, flag, NULL, NULL);
    tk_add(&t, "flux (Jy)", PQT_FLOAT64, -1, flux, NULL, NULL);
    tk_add(&t, "x>y", PQT_INT64, -1, xy, NULL, NULL);
    tk_add(&t, "main.inner.age", PQT_INT32, -1, age, NULL, age_valid);
    tk_add(&t, "android", PQT_INT64, -1, v, NULL, NULL);
    tk_add(&t, "nothing", PQT_INT64, -1, v, NULL, NULL);
    tk_add(&t, "vec", PQT_INT32 | PQT_VECTOR, -1, v, NULL, NULL);
    tk_add(&t, "lst", PQT_INT32 | PQT_LIST, -1, v, NULL, NULL);
    tk_add(&t, "mp", PQT_NONE, -1, v, NULL, NULL);
    return t;
}

static char *repeat(const char *s, int n, const char *tail)
{
    size_t l = strlen(s), tl = strlen(tail);
    char *r = malloc(l * (size_t)n + tl + 1);
    for (int i = 0; i < n; i++) memcpy(r + l * (size_t)i, s, l);
    memcpy(r + l * (size_t)n, tail, tl + 1);
    return r;
}

/* docs/filters.md, "Errors": each error, its fragment, its character */
static void anchor_errors(const tk_table *t)
{
    CHECK_BAD(t, "", "empty filter rule", 0);
    CHECK_BAD(t, "  \t ", "empty filter rule", 0);
    CHECK_BAD(t, "name == \"abc", "filter expression 'name == \"abc' has an unterminated quoted value", 9);
    CHECK_BAD(t, "v > 1 b > 2", "filter expression 'v > 1 b > 2': unexpected 'b' (a missing and/or?)", 7);
    CHECK_BAD(t, "v > 1 and", "filter expression 'v > 1 and' ends after an operator; a clause is missing", 7);
    CHECK_BAD(t, "not", "ends after an operator; a clause is missing", 1);
    CHECK_BAD(t, "v > 1 or not", "ends after an operator; a clause is missing", 10);
    CHECK_BAD(t, "()", "filter expression '()' has an empty '()' group", 1);
    CHECK_BAD(t, "v > 1 and ()", "has an empty '()' group", 11);
    CHECK_BAD(t, "(v > 1", "filter expression '(v > 1' has an unbalanced '('", 1);
    CHECK_BAD(t, "((v > 1) or x > 2", "has an unbalanced '('", 1);
    CHECK_BAD(t, "(v > 1 \"x\"", "expected ')' but found '\"x\"'", 8);
    CHECK_BAD(t, "v > 1)", "filter expression 'v > 1)' has an unbalanced ')'", 6);
    CHECK_BAD(t, ")", "has an unbalanced ')'", 1);
    CHECK_BAD(t, "and v > 1", "has a dangling 'and' with no clause on one side of it", 1);
    CHECK_BAD(t, "v > 1 and or x > 2", "has a dangling 'or' with no clause on one side of it", 11);
    CHECK_BAD(t, "(v > 1 or )", "has a dangling 'or' with no clause on one side of it", 8);
    CHECK_BAD(t, "v", "filter rule 'v' is missing an operator", 1);
    CHECK_BAD(t, "v and x > 1", "filter rule 'v' is missing an operator", 1);
    CHECK_BAD(t, "v > 1 and w", "filter rule 'w' is missing an operator", 11);
    CHECK_BAD(t, "v ~ 3", "has an unknown operator '~'", 3);
    CHECK_BAD(t, "v between 3", "filter rule 'v between 3': between takes 'and' between its bounds", 12);
    CHECK_BAD(t, "x IS_NULL", "has an unknown operator 'IS_NULL'", 3); /* operators are lowercase */
    CHECK_BAD(t, "v =< 3", "has an unknown operator '=<'", 3);
    CHECK_BAD(t, "v=>3", "has an unknown operator '=>'", 2);
    CHECK_BAD(t, "x is_null 3", "filter rule 'x is_null 3': is_null takes no value", 11);
    CHECK_BAD(t, "x is_not_finite \"a\"", "is_not_finite takes no value", 17);
    CHECK_BAD(t, "v >", "filter rule 'v >' is missing a value after '>'", 3);
    CHECK_BAD(t, "v > and x > 1", "is missing a value after '>'", 3);
    CHECK_BAD(t, "v /= )", "is missing a value after '/='", 3);
    CHECK_BAD(t, "v in", "filter rule 'v in' is missing a set after 'in' (write it as 'in @name'", 3);
    CHECK_BAD(t, "v not_in and x > 1", "is missing a set after 'not_in'", 3);
    CHECK_BAD(t, "v in 5", "'in' takes either a bound set named with a leading '@'", 6);
    CHECK_BAD(t, "v in \"a\"", "'in' takes either a bound set named with a leading '@'", 6);
    CHECK_BAD(t, "v in @", "'@' must be followed by a set name", 6);
    CHECK_BAD(t, "v in (1, (2))", "a list after 'in'/'not_in' may not contain a nested '('", 10);
    CHECK_BAD(t, "v in (1, 2", "the list after 'in'/'not_in' is missing its closing ')'", 6);
    CHECK_BAD(t, "v in (1, 2 and x > 1)", "expects ',' or ')' but found 'a'", 12);
    CHECK_BAD(t, "v in ()", "the list after 'in'/'not_in' is empty", 6);
    CHECK_BAD(t, "v in (1,,2)", "has an empty element 2", 9);
    CHECK_BAD(t, "v in (1, )", "has an empty element 2", 10);
    CHECK_BAD(t, "name in (\"a\", \"b)", "has an unterminated quoted value", 15);
    /* literals */
    CHECK_BAD(t, "x == nan", "'nan' is not a value; use is_nan", 6);
    CHECK_BAD(t, "x == -NaN", "'-NaN' is not a value; use is_nan", 6);
    CHECK_BAD(t, "x in (1, nan)", "element 2 of the list, 'nan', is not a value; use is_nan", 10);
    CHECK_BAD(t, "v > 1d3", "a Fortran 'd' exponent is not accepted", 5);
    CHECK_BAD(t, "v in (0x10)", "element 1 of the list, '0x10', is a hexadecimal number", 7);
    CHECK_BAD(t, "v == abc", "'abc' is not a number, true or false (a string value is written in double quotes)", 6);
    CHECK_BAD(t, "v in (1, abc)", "element 2 of the list, 'abc', is not a number", 10);
    CHECK_BAD(t, "\"abc\" == v", "unexpected '\"abc\"'; a clause starts with a column name", 1);
}

static void limits(const tk_table *t)
{
    /* depth: each '(' and each 'not' is a level */
    char *r = repeat("(", 32, "v > 3");
    char *r2 = repeat(")", 32, "");
    char *ok = malloc(strlen(r) + strlen(r2) + 1);
    strcpy(ok, r);
    strcat(ok, r2);
    CHECK_ROWS(t, ok, "2 3");
    char *deep = malloc(strlen(ok) + 3);
    sprintf(deep, "(%s)", ok);
    CHECK_BAD(t, deep, "filter expression is nested deeper than the supported limit (32 levels)", 33);
    free(r), free(r2), free(ok), free(deep);
    r = repeat("not ", 32, "v > 3");
    CHECK_ROWS(t, r, "2 3");
    free(r);
    r = repeat("not ", 33, "v > 3");
    CHECK_BAD(t, r, "nested deeper than the supported limit (32 levels)", 129);
    free(r);
    r = repeat("not (", 16, "v > 3");
    r2 = repeat(")", 16, "");
    ok = malloc(strlen(r) + strlen(r2) + 10);
    sprintf(ok, "%s%s", r, r2);
    CHECK_ROWS(t, ok, "2 3"); /* 32 levels, an even number of nots */
    sprintf(ok, "not %s%s", r, r2);
    CHECK_BAD(t, ok, "nested deeper than the supported limit (32 levels)", 84); /* last '(' */
    free(r), free(r2), free(ok);

    /* nodes: 512 clauses joined by 511 ands = 1023; 513 clauses = 1025 */
    r = repeat("v > 1 and ", 511, "v > 1");
    CHECK_ROWS(t, r, "1 2 3 4");
    pqt_filter *f;
    CHECK_OK(pqt_filter_new(&f));
    CHECK_OK(pqt_filter_add(f, r));
    CHECK_EQ_I64(pqt_filter_add(f, "v > 1"), PQT_BAD_FILTER); /* implicit and + clause: 1025 */
    CHECK(strstr(pqt_errmsg(), "more terms than the supported limit (1024 nodes)") != NULL);
    int64_t one = 1;
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", PQT_INT64, &one, 1, NULL, 0), PQT_BAD_FILTER);
    pqt_filter_clear(f);
    CHECK_OK(pqt_filter_add(f, r));
    free(r);
    r = repeat("v > 1 and ", 510, "v > 1"); /* 1021 nodes */
    pqt_filter_clear(f);
    CHECK_OK(pqt_filter_add(f, r));
    CHECK_OK(pqt_filter_add(f, "v > 1")); /* 1023 */
    CHECK_EQ_I64(pqt_filter_add(f, "v > 1"), PQT_BAD_FILTER); /* 1025 */
    pqt_filter_free(f);
    free(r);
    r = repeat("v > 1 and ", 512, "v > 1");
    CHECK_BAD(t, r, "filter expression has more terms than the supported limit (1024 nodes)", 5121);
    free(r);

    /* a name of 64 characters passes the parser; 65 do not */
    char name[80], rule[200];
    memset(name, 'n', 64);
    name[64] = '\0';
    snprintf(rule, sizeof rule, "%s > 1", name);
    CHECK_BAD(t, rule, "unknown column in filter: nnnn", 1);
    snprintf(rule, sizeof rule, "n%s > 1", name);
    CHECK_BAD(t, rule, "filter rule exceeds an internal length limit: n", 1);
    snprintf(rule, sizeof rule, "`n%s` > 1", name);
    CHECK_BAD(t, rule, "filter rule exceeds an internal length limit", 1);
    /* a value of 512 characters passes; 513 do not */
    r = repeat("a", 512, "\"");
    char *q = malloc(strlen(r) + 20);
    sprintf(q, "name == \"%s", r);
    CHECK_ROWS(t, q, "");
    sprintf(q, "name == \"a%s", r);
    CHECK_BAD(t, q, "filter rule exceeds an internal length limit", 9);
    free(r), free(q);
    r = repeat("1, ", 170, "1)"); /* 5 + 510 + 2 = a list of 514 characters */
    q = malloc(strlen(r) + 20);
    sprintf(q, "v in (%s", r);
    CHECK_BAD(t, q, "filter rule exceeds an internal length limit", 6);
    free(r), free(q);
    /* rule length */
    r = repeat(" ", 8187, "v > 3"); /* 8192 */
    CHECK_ROWS(t, r, "2 3");
    free(r);
    r = repeat(" ", 8188, "v > 3");
    CHECK_BAD(t, r, "filter rule is longer than the supported limit (8192 characters", 0);
    free(r);

    /* sets: 64 */
    CHECK_OK(pqt_filter_new(&f));
    char nm[16];
    for (int i = 0; i < 63; i++) {
        snprintf(nm, sizeof nm, "s%d", i);
        CHECK_OK(pqt_filter_bind(f, nm, PQT_INT64, &one, 1, NULL));
    }
    CHECK_OK(pqt_filter_bind(f, "s0", PQT_INT64, &one, 1, NULL)); /* rebinding is no new set */
    CHECK_OK(pqt_filter_add_in(f, "v", PQT_INT64, &one, 1, NULL, 0)); /* the 64th */
    CHECK_EQ_I64(pqt_filter_bind(f, "s64", PQT_INT64, &one, 1, NULL), PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "at most 64 sets") != NULL);
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", PQT_INT64, &one, 1, NULL, 0), PQT_BAD_FILTER);
    pqt_filter_free(f);
}

#define SAME(t, a, b)                                                                              \
    do {                                                                                           \
        char ra_[1200];                                                                            \
        snprintf(ra_, sizeof ra_, "%s", tk_rule((t), (a)));                                        \
        const char *rb_ = tk_rule((t), (b));                                                       \
        if (strcmp(ra_, rb_) != 0 || strncmp(ra_, "ERR", 3) == 0) {                                \
            fprintf(stderr, "%s:%d: [%s] kept [%s] but [%s] kept [%s]\n", __FILE__, __LINE__, (a), \
                    ra_, (b), rb_);                                                                \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

static void extensions(const tk_table *t)
{
    CHECK_ROWS(t, "v > 3", "2 3");
    SAME(t, "v>3", "v > 3");
    SAME(t, "v >3", "v > 3");
    SAME(t, "v> 3", "v > 3");
    SAME(t, "mass>=1e12", "mass >= 1.0e12");
    SAME(t, "v!=3", "v /= 3");
    SAME(t, "v <> 3", "v /= 3");
    SAME(t, "v<>3", "v /= 3");
    SAME(t, "v = 3", "v == 3");
    SAME(t, "v=3", "v == 3");
    SAME(t, "v>=-2", "v >= -2");
    SAME(t, "v<-1", "v < -1");
    SAME(t, "v/=3", "v /= 3");
    SAME(t, "v>0x1p1", "v > 2"); /* a bare hex float */
    CHECK_ROWS(t, "v > 0x3", "2 3");
    CHECK_ROWS(t, "`flux (Jy)` > 0", "0 2 5");
    SAME(t, "`flux (Jy)`>0", "`flux (Jy)` > 0");
    SAME(t, "`flux (Jy)`  >  0", "`flux (Jy)` > 0");
    CHECK_ROWS(t, "x>y > 3", "0 4 5"); /* parquet-fortran's reading: a column named "x>y" */
    SAME(t, "`x>y` > 3", "x>y > 3");
    CHECK_ROWS(t, "main.inner.age > 35", "1 2 5");
    SAME(t, "main.inner.age>35", "main.inner.age > 35");
    CHECK_ROWS(t, "name == \"abc\"", "0");
    SAME(t, "name==\"abc\"", "name == \"abc\"");
    SAME(t, "name =\"abc\"", "name == \"abc\"");
    CHECK_ROWS(t, "name == \"a\"\"b\"", "1"); /* a doubled quote is one quote */
    CHECK_ROWS(t, "name == \"\xc3\xa9\"", "5");
    SAME(t, "NOT v > 3 And v < 5 OR v == 5", "not v > 3 and v < 5 or v == 5");
    SAME(t, "(v>3)and(v<5)", "v > 3 and v < 5");
    SAME(t, "not(v > 3)", "not v > 3");
    CHECK_ROWS(t, "android > 1", "1 2 3 4"); /* names that start with a keyword */
    CHECK_ROWS(t, "nothing <= 1", "0 5");
    CHECK_BAD(t, "`flux (Jy) > 0", "has an unterminated backquoted name", 1);
    CHECK_BAD(t, "`` > 0", "the backquoted column name is empty", 1);
    CHECK_ROWS(t, "v > `x`", "5"); /* two columns compare (rows 2 NaN, 3 null) */
    CHECK_BAD(t, "v in (`x`)", "element 1 of the list is a backquoted name", 7);
}

static void compile_errors(const tk_table *t)
{
    CHECK_BAD(t, "mas > 1", "unknown column in filter: mas (did you mean 'mass'?) in rule 'mas > 1'", 1);
    CHECK_BAD(t, "v > 1 and `Flux (jy)` > 1", "unknown column in filter: Flux (jy) (did you mean 'flux (Jy)'?)", 11);
    CHECK_BAD(t, "vec > 1", "filter column 'vec' is a vector column; filtering only supports scalar columns", 1);
    CHECK_BAD(t, "lst > 1", "filter column 'lst' is a variable-length list column; filtering only supports scalar columns", 1);
    CHECK_BAD(t, "mp is_null", "filter column 'mp' has a type that filtering does not support", 1);
    CHECK_BAD(t, "events[].id > 1", "a descent path is not filterable: events[].id", 1);
    CHECK_BAD(t, "v > 1 or attrs{key} == \"a\"", "a descent path is not filterable: attrs{key}", 10);
    CHECK_BAD(t, "name > 3", "filter rule 'name > 3': column 'name' is string; its value must be double-quoted", 8);
    CHECK_BAD(t, "v == \"3\"", "column 'v' is int64; its value is a number, written without quotes", 6);
    CHECK_BAD(t, "v == true", "column 'v' is int64; its value is a number", 6);
    CHECK_BAD(t, "flag == 1", "column 'flag' is bool; its value is true or false", 9);
    CHECK_BAD(t, "v is_nan", "is_nan applies only to float columns; column 'v' is int64", 3);
    CHECK_BAD(t, "name is_finite", "is_finite applies only to float columns", 6);
    CHECK_BAD(t, "v starts_with \"a\"", "starts_with applies only to string columns", 3);
    CHECK_BAD(t, "x contains \"a\"", "contains applies only to string columns", 3);
    CHECK_BAD(t, "flag in (1)", "in does not apply to the bool column 'flag'", 6);
    CHECK_BAD(t, "v in @nope", "unknown set '@nope': no set of that name is bound to the filter", 6);
    CHECK_BAD(t, "name in (\"a\", 2)", "element 2 of the list must be double-quoted (column 'name' is string)", 15);
    CHECK_BAD(t, "v in (1, \"2\")", "element 2 of the list is not an integer (column 'v' is int64)", 10);
    CHECK_BAD(t, "v in (1, 2.5)", "element 2 of the list is not an integer", 10);
    CHECK_BAD(t, "x in (1, \"2\")", "element 2 of the list is not a number (column 'x' is float64)", 10);
    CHECK_BAD(t, "name starts_with 5", "column 'name' is string; its value must be double-quoted", 18);
}

static void api(void)
{
    pqt_filter *f = NULL;
    CHECK_EQ_I64(pqt_filter_new(NULL), PQT_MISUSE);
    CHECK_OK(pqt_filter_new(&f));
    CHECK_EQ_I64(pqt_filter_add(f, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add(NULL, "v > 1"), PQT_MISUSE);
    /* a failed add changes nothing */
    CHECK_EQ_I64(pqt_filter_add(f, "v >"), PQT_BAD_FILTER);
    CHECK_EQ_I64(f->nrules, 0);
    CHECK_EQ_I64(f->nnodes, 0);
    CHECK_OK(pqt_filter_add(f, "v > 1 and v < 9"));
    CHECK_EQ_I64(f->nnodes, 3);
    CHECK_OK(pqt_filter_add(f, "not v == 4"));
    CHECK_EQ_I64(f->nnodes, 3 + 1 + 2);
    CHECK_EQ_I64(f->nrules, 2);
    int64_t vals[] = {1, 2};
    float nanv[] = {1, NAN};
    uint8_t skip_nan[] = {0x01};
    CHECK_EQ_I64(pqt_filter_add_in(f, NULL, PQT_INT64, vals, 2, NULL, 0), PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", PQT_INT64, NULL, 2, NULL, 0), PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", PQT_INT64, vals, -1, NULL, 0), PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", 99, vals, 2, NULL, 0), PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", PQT_TIMESTAMP, vals, 2, NULL, 0), PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", PQT_KIND_UNIT(PQT_INT64, 0), vals, 2, NULL, 0),
                 PQT_MISUSE);
    CHECK_EQ_I64(pqt_filter_add_in(f, "v", PQT_BOOL, vals, 2, NULL, 0), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_filter_add_in(f, "", PQT_INT64, vals, 2, NULL, 0), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_filter_bind(f, "s", PQT_FLOAT32, nanv, 2, NULL), PQT_BAD_FILTER);
    CHECK(strstr(pqt_errmsg(), "value 2 is NaN") != NULL);
    CHECK_OK(pqt_filter_bind(f, "s", PQT_FLOAT32, nanv, 2, skip_nan)); /* NaN left out */
    CHECK_EQ_I64(pqt_filter_bind(f, "a b", PQT_INT64, vals, 2, NULL), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_filter_bind(f, "", PQT_INT64, vals, 2, NULL), PQT_BAD_FILTER);
    CHECK_EQ_I64(pqt_filter_bind(f, NULL, PQT_INT64, vals, 2, NULL), PQT_MISUSE);
    CHECK_EQ_I64(f->nrules, 2);
    CHECK_EQ_I64(f->nsets, 1);
    CHECK_OK(pqt_filter_add_in(f, "v", PQT_INT64, vals, 0, NULL, 1)); /* empty not_in */
    CHECK_EQ_I64(f->nrules, 3);
    pqt_filter_clear(f);
    CHECK_EQ_I64(f->nrules, 0);
    CHECK_EQ_I64(f->nsets, 0);
    CHECK_EQ_I64(f->nnodes, 0);
    CHECK_EQ_I64(pqt_status_name(PQT_BAD_FILTER)[4], 'B');
    CHECK(strcmp(pqt_status_name(PQT_BAD_FILTER), "PQT_BAD_FILTER") == 0);
    pqt_filter_free(f);
    pqt_filter_free(NULL);
}

/* Every allocation failure is PQT_NOMEM and leaks nothing (the ASan build checks the leaks);
 * the filter is unchanged by a failed call. */
static void alloc_failures(const tk_table *t)
{
    int reached = 0;
    for (long k = 0; k < 2000 && !reached; k++) {
        pqt_mem_fail_after(k);
        pqt_filter *f = NULL;
        pqt_fprog *p = NULL;
        pqt_status st = pqt_filter_new(&f);
        const char *sv[] = {"abc", "x y", "abc"};
        int64_t iv[] = {3, 1, 3};
        if (st == PQT_OK)
            st = pqt_filter_add(f, "v > 1 and (name in (\"a\", \"b\") or not x is_nan) and "
                                   "mass < 1e12 or `flux (Jy)` /= 2");
        if (st == PQT_OK) st = pqt_filter_bind(f, "s", PQT_STRING, sv, 3, NULL);
        if (st == PQT_OK) st = pqt_filter_add(f, "name not_in @s");
        if (st == PQT_OK) st = pqt_filter_add_in(f, "v", PQT_INT64, iv, 3, NULL, 0);
        if (st == PQT_OK) st = pqt_filter_add(f, "x in (4, 5, 6)");
        if (st == PQT_OK) p = tk_compile(t, f, &st);
        uint8_t keep[1];
        pqt_scan_scratch sc = {0};
        if (st == PQT_OK) {
            pqt_scan_vec vecs[TK_MAXCOLS];
            for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
                const tk_col *c = &t->cols[pqt_scan_prog_col(p, s)];
                vecs[s] = (pqt_scan_vec){c->data, c->bytes, c->valid};
            }
            st = pqt_scan_prog_eval(p, vecs, t->nrows, NULL, keep, NULL, &sc);
        }
        pqt_mem_fail_after(-1);
        if (st != PQT_OK && st != PQT_NOMEM) {
            fprintf(stderr, "allocation failure %ld: status %d: %s\n", k, st, pqt_errmsg());
            pqt_test_failures++;
        }
        if (st == PQT_OK) {
            reached = 1;
            CHECK_EQ_I64(keep[0], 0x02); /* row 1 alone passes all four rules */
        }
        pqt_scan_scratch_free(&sc);
        pqt_scan_prog_free(p);
        pqt_filter_free(f);
    }
    CHECK(reached);
}

int main(void)
{
    tk_table t = table();
    anchor_errors(&t);
    limits(&t);
    extensions(&t);
    compile_errors(&t);
    api();
    alloc_failures(&t);
    return pqt_test_done("test_filter_parse");
}
