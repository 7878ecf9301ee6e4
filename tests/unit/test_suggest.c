/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_suggest.c - a column name that matches nothing is reported with the closest name, by
 * the file API and by every kind of table lookup: "FILE: no column 'mas'; did you mean
 * 'mass'?" (issue 8). Names are those DuckDB wrote into examples/catalogue.parquet (id, name,
 * ra, dec, mass, z, quality, flag, survey, obs_date, mag) and tests/data/dotted_names.parquet
 * (struct a {b, c} and a top-level "a.b").
 */
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"
#include "util/suggest.h"

#define CAT "examples/catalogue.parquet"

static void check_msg(const char *want, int line)
{
    if (strcmp(pqt_errmsg(), want) != 0) {
        fprintf(stderr, "%s:%d: message\n  got:  %s\n  want: %s\n", __FILE__, line, pqt_errmsg(),
                want);
        pqt_test_failures++;
    }
}
#define CHECK_MSG(want) check_msg(want, __LINE__)

/* The distance rules on their own: close typos, case, swaps, last part of a path. */
static const char *best(const char *want, const char *const *cands)
{
    static char buf[300];
    pqt_suggest s;
    pqt_suggest_init(&s, want);
    for (int i = 0; cands[i]; i++)
        pqt_suggest_offer(&s, cands[i]);
    return pqt_suggest_text(&s, buf, sizeof buf);
}

static void test_rules(void)
{
    const char *const cols[] = {"id", "mass", "magnitude_r", "phot.flux", "MaSs2", NULL};
    CHECK(strcmp(best("mas", cols), "; did you mean 'mass'?") == 0);
    CHECK(strcmp(best("MASS", cols), "; did you mean 'mass'?") == 0);    /* case first */
    CHECK(strcmp(best("mass2", cols), "; did you mean 'MaSs2'?") == 0);  /* case-insensitive */
    CHECK(strcmp(best("msas", cols), "; did you mean 'mass'?") == 0);    /* one swap */
    CHECK(strcmp(best("magnitud_g", cols), "; did you mean 'magnitude_r'?") == 0); /* 2 of 10 */
    CHECK(strcmp(best("flux", cols), "; did you mean 'phot.flux'?") == 0); /* last part */
    CHECK(strcmp(best("nope", cols), "") == 0); /* nothing close: no suggestion */
    CHECK(strcmp(best("ix", cols), "; did you mean 'id'?") == 0);
    CHECK(strcmp(best("zz", cols), "") == 0);
    const char *const none[] = {NULL};
    CHECK(strcmp(best("mas", none), "") == 0);
}

static void test_file(void)
{
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(CAT, NULL, &f));
    int col = -7;
    CHECK_EQ_I64(pqt_file_find_column(f, "mas", &col), PQT_NOT_FOUND);
    CHECK_MSG(CAT ": no column 'mas'; did you mean 'mass'?");
    CHECK_EQ_I64(col, -7); /* a failed call changes nothing */
    CHECK_EQ_I64(pqt_file_find_column(f, "Survey", &col), PQT_NOT_FOUND);
    CHECK_MSG(CAT ": no column 'Survey'; did you mean 'survey'?");
    CHECK_EQ_I64(pqt_file_find_column(f, "obsdate", &col), PQT_NOT_FOUND);
    CHECK_MSG(CAT ": no column 'obsdate'; did you mean 'obs_date'?");
    CHECK_EQ_I64(pqt_file_find_column(f, "nope", &col), PQT_NOT_FOUND);
    CHECK_MSG(CAT ": no column 'nope'");
    CHECK_OK(pqt_file_find_column(f, "mass", &col));
    CHECK_EQ_I64(col, 4);
    pqt_file_close(f);

    REQUIRE_OK(pqt_file_open("tests/data/dotted_names.parquet", NULL, &f));
    CHECK_EQ_I64(pqt_file_find_column(f, "a.d", &col), PQT_NOT_FOUND);
    CHECK_MSG("tests/data/dotted_names.parquet: no column 'a.d'; did you mean 'a.b'?");
    CHECK_EQ_I64(pqt_file_find_column(f, "c", &col), PQT_NOT_FOUND);
    CHECK_MSG("tests/data/dotted_names.parquet: no column 'c'; did you mean 'a.c'?");
    pqt_file_close(f);
}

static void test_table(void)
{
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(CAT, NULL, &t));
    int k = 0;
    CHECK_EQ_I64(pqt_table_kind(t, "mas", &k), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_kind: " CAT ": no column 'mas'; did you mean 'mass'?");
    double x[1000];
    CHECK_EQ_I64(pqt_table_get(t, "RA", PQT_FLOAT64, x, sizeof x, NULL, 0), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_get: " CAT ": no column 'RA'; did you mean 'ra'?");
    CHECK_EQ_I64(pqt_table_get(t, "nope", PQT_FLOAT64, x, sizeof x, NULL, 0), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_get: " CAT ": no column 'nope'");
    /* the virtual row index is a name the table has, so it can be suggested */
    CHECK_EQ_I64(pqt_table_kind(t, "parquet_row_idx", &k), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_kind: " CAT ": no column 'parquet_row_idx'; did you mean "
              "'parquet_row_index'?");
    /* several names at once: each said the same way */
    const char *keep[] = {"id", "mas", "nope", "quality"};
    CHECK_EQ_I64(pqt_table_keep_columns(t, keep, 4), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_keep_columns: " CAT ": 2 columns missing: no column 'mas'; did "
              "you mean 'mass'?; no column 'nope'");
    const char *keep1[] = {"id", "mas"};
    CHECK_EQ_I64(pqt_table_keep_columns(t, keep1, 2), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_keep_columns: " CAT ": no column 'mas'; did you mean 'mass'?");
    CHECK_EQ_I64(pqt_table_ncols(t), 11); /* nothing was dropped */
    const char *keys[] = {"qualty"};
    CHECK_EQ_I64(pqt_table_sort_by_names(t, keys, 1, NULL, NULL), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_sort_by_names: " CAT ": no column 'qualty'; did you mean 'quality'?");
    CHECK_OK(pqt_table_drop_column(t, "mass"));
    CHECK_EQ_I64(pqt_table_drop_column(t, "mass"), PQT_NOT_FOUND);
    CHECK_MSG("pqt_table_drop_column: " CAT ": no column 'mass'");
    pqt_table_close(t);
}

int main(void)
{
    test_rules();
    test_file();
    test_table();
    return pqt_test_done("test_suggest");
}
