/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_nested_list.c - lists of lists read with one offsets array per level (issue 28):
 * pqt_file_read_nested_list on tests/data/nested_lists.parquet (DuckDB,
 * tests/data/make_nested_lists.mjs), id = 1..6:
 *   ll  INTEGER[][]:   [[1, 2], [3]]  NULL  []  [[], NULL, [4, NULL, 5]]  [NULL]  [[6]]
 *   lll INTEGER[][][]: [[[1], [2, 3]], [[]]]  NULL  []  [NULL, [[4, NULL]]]  [[NULL]]  [[[6]]]
 * read whole and by every row range; the column listing (kind none, levels 2 and 3), and
 * errors (a flat column, a bad range, no column).
 * Truth: the levels below, worked out by hand from the rows above; a range's truth is the
 * whole file's cut at its rows.
 */
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"

#define FILE_NL "tests/data/nested_lists.parquet"

typedef struct truth {
    int nlevels;
    int64_t count[3];
    int64_t off[3][8];
    uint8_t valid[3][8];
    int64_t nvalues;
    int32_t values[8];
    uint8_t vvalid[8];
} truth;

static const truth LL = {
    2,
    {6, 7},
    {{0, 2, 2, 2, 5, 6, 7}, {0, 2, 3, 3, 3, 6, 6, 7}},
    {{1, 0, 1, 1, 1, 1}, {1, 1, 1, 0, 1, 0, 1}},
    7,
    {1, 2, 3, 4, 0, 5, 6},
    {1, 1, 1, 1, 0, 1, 1},
};

static const truth LLL = {
    3,
    {6, 6, 6},
    {{0, 2, 2, 2, 4, 5, 6}, {0, 2, 3, 3, 4, 5, 6}, {0, 1, 3, 3, 5, 5, 6}},
    {{1, 0, 1, 1, 1, 1}, {1, 1, 0, 1, 1, 1}, {1, 1, 1, 1, 0, 1}},
    6,
    {1, 2, 3, 4, 0, 6},
    {1, 1, 1, 1, 0, 1},
};

static int bit(const uint8_t *b, int64_t i)
{
    return b ? (b[i >> 3] >> (i & 7)) & 1 : 1;
}

/* n holds rows [a, z) (0-based) of t. */
static void check(const pqt_nested_list *n, const truth *t, int64_t a, int64_t z)
{
    CHECK_EQ_I64(pqt_nested_list_nlevels(n), t->nlevels);
    CHECK_EQ_I64(pqt_nested_list_kind(n), PQT_INT32);
    int64_t lo = a, hi = z; /* the range of lists at the current level */
    for (int k = 0; k < t->nlevels; k++) {
        CHECK_EQ_I64(pqt_nested_list_count(n, k), hi - lo);
        const int64_t *off = pqt_nested_list_offsets(n, k);
        const uint8_t *valid = pqt_nested_list_list_validity(n, k);
        int any_null = 0;
        for (int64_t i = lo; i <= hi && off; i++) {
            CHECK_EQ_I64(off[i - lo], t->off[k][i] - t->off[k][lo]);
            if (i < hi) {
                CHECK_EQ_I64(bit(valid, i - lo), t->valid[k][i]);
                any_null |= !t->valid[k][i];
            }
        }
        CHECK_EQ_I64(valid != NULL, any_null);
        int64_t nlo = t->off[k][lo], nhi = t->off[k][hi];
        lo = nlo;
        hi = nhi;
    }
    CHECK_EQ_I64(pqt_nested_list_nvalues(n), hi - lo);
    const int32_t *v = pqt_nested_list_values(n);
    const uint8_t *vvalid = pqt_nested_list_validity(n);
    int any_null = 0;
    for (int64_t i = lo; i < hi && v; i++) {
        CHECK_EQ_I64(v[i - lo], t->values[i]);
        CHECK_EQ_I64(bit(vvalid, i - lo), t->vvalid[i]);
        any_null |= !t->vvalid[i];
    }
    CHECK_EQ_I64(vvalid != NULL, any_null);
    CHECK(pqt_nested_list_offsets(n, t->nlevels) == NULL);
    CHECK_EQ_I64(pqt_nested_list_count(n, -1), -1);
}

int main(void)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(FILE_NL, NULL, &f));
    REQUIRE_OK(pqt_file_ncols(f) == 3 ? PQT_OK : PQT_CORRUPT);
    CHECK_EQ_I64(pqt_file_column_kind(f, 1), PQT_NONE);
    CHECK_EQ_I64(pqt_file_column_kind(f, 2), PQT_NONE);
    CHECK(strcmp(pqt_file_column_unsupported_reason(f, 1), "list of lists") == 0);
    CHECK_EQ_I64(pqt_file_column_nested_levels(f, 0), 0);
    CHECK_EQ_I64(pqt_file_column_nested_levels(f, 1), 2);
    CHECK_EQ_I64(pqt_file_column_nested_levels(f, 2), 3);
    CHECK_EQ_I64(pqt_file_column_nested_levels(f, 3), 0);
    const truth *truths[2] = {&LL, &LLL};
    for (int c = 1; c <= 2; c++) {
        for (int64_t lo = 1; lo <= 6; lo++) {
            for (int64_t hi = lo - 1; hi <= 6; hi++) {
                pqt_nested_list *n = NULL;
                CHECK_OK(pqt_file_read_nested_list(f, c, lo, hi, &n));
                if (n) check(n, truths[c - 1], lo - 1, hi);
                pqt_nested_list_free(n);
            }
        }
    }
    /* errors change nothing */
    pqt_nested_list *n = NULL;
    CHECK_EQ_I64(pqt_file_read_nested_list(f, 0, 1, 6, &n), PQT_KIND);
    CHECK(n == NULL && strstr(pqt_errmsg(), "column 'id' is not a list of lists"));
    CHECK_EQ_I64(pqt_file_read_nested_list(f, 1, 0, 6, &n), PQT_RANGE);
    CHECK_EQ_I64(pqt_file_read_nested_list(f, 1, 1, 7, &n), PQT_RANGE);
    CHECK(n == NULL && strstr(pqt_errmsg(), "rows 1..7 requested, the file has 6 rows"));
    CHECK_EQ_I64(pqt_file_read_nested_list(f, 3, 1, 6, &n), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_file_read_nested_list(f, 1, 1, 6, NULL), PQT_MISUSE);
    CHECK(n == NULL);
    pqt_nested_list_free(NULL);
    CHECK_EQ_I64(pqt_nested_list_nlevels(NULL), 0);
    pqt_file_close(f);

    /* the table: whole, a slice (rows 3..5), and refused where rows are not a file slice */
    for (int64_t lo = 1; lo <= 3; lo += 2) {
        pqt_opts *o;
        REQUIRE_OK(pqt_opts_new(&o));
        if (lo > 1) {
            REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo));
            REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 5));
        }
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_open(FILE_NL, o, &t));
        pqt_opts_free(o);
        CHECK_OK(pqt_table_get_nested_list(t, "lll", &n));
        if (n) check(n, &LLL, lo - 1, lo > 1 ? 5 : 6);
        pqt_nested_list_free(n);
        n = NULL;
        CHECK_EQ_I64(pqt_table_get_nested_list(t, "id", &n), PQT_KIND);
        CHECK_EQ_I64(pqt_table_get_nested_list(t, "lx", &n), PQT_NOT_FOUND);
        CHECK(n == NULL && strstr(pqt_errmsg(), "no column 'lx'"));
        pqt_table_close(t);
    }
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "id > 2"));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(FILE_NL, o, &t));
    pqt_opts_free(o);
    CHECK_EQ_I64(pqt_table_get_nested_list(t, "ll", &n), PQT_UNSUPPORTED);
    CHECK(n == NULL && strstr(pqt_errmsg(), "pqt_file_read_nested_list"));
    pqt_table_close(t);
    return pqt_test_done("test_nested_list");
}
