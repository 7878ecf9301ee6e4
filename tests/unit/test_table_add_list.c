/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_add_list.c - pqt_table_add_list_column: a variable-length list column built from
 * caller arrays (an empty list, a null list whose elements must be dropped, a null element,
 * offsets that do not start at 0), read back from the table and, after pqt_write_table, from
 * the file, against the hand-written expectation; a list whose rows all have three elements
 * reads back from the file as a vector of width 3; a list of strings (an empty string, a
 * null string, a null row holding a string, an empty list) the same way; refused inputs leave
 * the table as it was.
 */
#include <string.h>
#include <unistd.h>

#include "pqt.h"
#include "testutil.h"

#define NROWS 5

/* rows: [1.5, 2.5], [], null (its 8.8 dropped), [null, 4.5], [5.5]; offsets start at 1 */
static const double data[] = {-1, 1.5, 2.5, 8.8, 3.5, 4.5, 5.5};
static const int64_t offsets[NROWS + 1] = {1, 3, 3, 4, 6, 7};
static const uint8_t row_valid[] = {0x1b}; /* rows 0, 1, 3, 4 */
static const uint8_t elem_valid[] = {0x6f}; /* element 4 (3.5) null */

/* What a reader must see: per row, null or the elements with their presence. */
static void check_lists(pqt_table *t, const char *where)
{
    int64_t *off = NULL, nelem = -1;
    double *vals = NULL;
    uint8_t *valid = NULL, *rvalid = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "hits", PQT_FLOAT64, &off, (void **)&vals, &valid,
                                      &rvalid, &nelem));
    if (!off || !vals) {
        fprintf(stderr, "%s: no list came back\n", where);
        pqt_test_failures++;
        return;
    }
    static const int64_t want_off[NROWS + 1] = {0, 2, 2, 2, 4, 5};
    static const double want_vals[] = {1.5, 2.5, 0, 4.5, 5.5};
    static const int want_valid[] = {1, 1, 0, 1, 1};
    static const int want_row[] = {1, 1, 0, 1, 1};
    CHECK_EQ_I64(nelem, 5);
    for (int i = 0; i <= NROWS; i++) CHECK_EQ_I64(off[i], want_off[i]);
    for (int i = 0; i < NROWS; i++)
        CHECK_EQ_I64(rvalid ? (rvalid[i >> 3] >> (i & 7)) & 1 : 1, want_row[i]);
    for (int e = 0; e < 5 && nelem == 5; e++) {
        int v = valid ? (valid[e >> 3] >> (e & 7)) & 1 : 1;
        CHECK_EQ_I64(v, want_valid[e]);
        if (v && vals[e] != want_vals[e]) {
            fprintf(stderr, "%s: element %d is %g, want %g\n", where, e, vals[e], want_vals[e]);
            pqt_test_failures++;
        }
    }
    pqt_free(off);
    pqt_free(vals);
    pqt_free(valid);
    pqt_free(rvalid);
}

/* tags: ["a", ""], null (its "zz" dropped), [], [null, "dddd"], ["é"] */
static const char tag_bytes[] = "xaZZddddé";
/* strings "a", "", "ZZ", null, "dddd", "é" */
static const int64_t tag_offsets[] = {1, 2, 2, 4, 4, 8, 10};
static const int64_t tag_lists[NROWS + 1] = {0, 2, 3, 3, 5, 6};
static const uint8_t tag_rows[] = {0x1d};  /* rows 0, 2, 3, 4 */
static const uint8_t tag_valid[] = {0x37}; /* string 3 null */

static void check_tags(pqt_table *t, const char *where)
{
    int64_t *off = NULL;
    uint8_t *rvalid = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "tags", PQT_STRING, &off, NULL, NULL, &rvalid, NULL));
    char *bytes = NULL;
    int64_t *soff = NULL;
    uint8_t *svalid = NULL;
    int64_t n = 0;
    CHECK_OK(pqt_table_get_strings_alloc(t, "tags", &soff, &bytes, &svalid, &n));
    static const int64_t want_off[NROWS + 1] = {0, 2, 2, 2, 4, 5};
    static const char *want[] = {"a", "", NULL, "dddd", "\xc3\xa9"};
    if (!off || !soff || n != 5) {
        fprintf(stderr, "%s: tags came back with %lld strings\n", where, (long long)n);
        pqt_test_failures++;
    } else {
        for (int i = 0; i <= NROWS; i++) CHECK_EQ_I64(off[i], want_off[i]);
        CHECK(rvalid && !((rvalid[0] >> 1) & 1) && (rvalid[0] & 1));
        for (int e = 0; e < 5; e++) {
            int v = svalid ? (svalid[e >> 3] >> (e & 7)) & 1 : 1;
            CHECK_EQ_I64(v, want[e] != NULL);
            if (v && want[e] &&
                (soff[e + 1] - soff[e] != (int64_t)strlen(want[e]) ||
                 memcmp(bytes + soff[e], want[e], strlen(want[e])) != 0)) {
                fprintf(stderr, "%s: string %d differs\n", where, e);
                pqt_test_failures++;
            }
        }
    }
    pqt_free(off);
    pqt_free(rvalid);
    pqt_free(bytes);
    pqt_free(soff);
    pqt_free(svalid);
}

int main(void)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/pqt_test_table_add_list_%d.parquet", (int)getpid());
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t ids[NROWS] = {10, 20, 30, 40, 50};
    REQUIRE_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, ids, NULL, NROWS, NULL));
    CHECK_OK(pqt_table_add_list_column(t, "hits", PQT_FLOAT64, offsets, row_valid, data,
                                       elem_valid, NROWS, "keV"));
    int kind = 0, width = -1;
    CHECK_OK(pqt_table_kind(t, "hits", &kind));
    CHECK_OK(pqt_table_width(t, "hits", &width));
    CHECK_EQ_I64(kind, PQT_FLOAT64 | PQT_LIST);
    CHECK_EQ_I64(width, 0);
    check_lists(t, "in memory");

    /* three int32 per row: a list, read back from a file as a vector of width 3 */
    int32_t tri[3 * NROWS];
    int64_t tri_off[NROWS + 1];
    for (int i = 0; i < 3 * NROWS; i++) tri[i] = i * 7 - 20;
    for (int i = 0; i <= NROWS; i++) tri_off[i] = 3 * i;
    CHECK_OK(pqt_table_add_list_column(t, "tri", PQT_INT32, tri_off, NULL, tri, NULL, NROWS,
                                       NULL));

    CHECK_OK(pqt_table_add_string_list_column(t, "tags", tag_lists, tag_rows, tag_offsets,
                                              tag_bytes, tag_valid, NROWS, NULL));
    CHECK_OK(pqt_table_kind(t, "tags", &kind));
    CHECK_EQ_I64(kind, PQT_STRING | PQT_LIST);
    check_tags(t, "in memory");

    /* refused: nothing changes */
    int ncols = pqt_table_ncols(t);
    int64_t bad_off[NROWS + 1] = {0, 2, 1, 3, 4, 5};
    CHECK_EQ_I64(pqt_table_add_list_column(t, "bad", PQT_FLOAT64, bad_off, NULL, data, NULL,
                                           NROWS, NULL),
                 PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "decrease at entry 2") != NULL);
    CHECK_EQ_I64(pqt_table_add_list_column(t, "bad", PQT_STRING, offsets, NULL, data, NULL,
                                           NROWS, NULL),
                 PQT_KIND);
    CHECK_EQ_I64(pqt_table_add_list_column(t, "bad", PQT_FLOAT64, offsets, NULL, data, NULL,
                                           NROWS - 1, NULL),
                 PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_add_list_column(t, "hits", PQT_FLOAT64, offsets, NULL, data, NULL,
                                           NROWS, NULL),
                 PQT_MISUSE);
    int64_t bad_str[] = {0, 1, 0, 1, 1, 1, 1};
    CHECK_EQ_I64(pqt_table_add_string_list_column(t, "bad", tag_lists, NULL, bad_str, tag_bytes,
                                                  NULL, NROWS, NULL),
                 PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_ncols(t), ncols);

    /* written and read back from the file */
    CHECK_OK(pqt_write_table(t, path, NULL));
    pqt_table_close(t);
    t = NULL;
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    check_lists(t, "from the file");
    check_tags(t, "from the file");
    CHECK_OK(pqt_table_kind(t, "tri", &kind));
    CHECK_OK(pqt_table_width(t, "tri", &width));
    CHECK_EQ_I64(kind, PQT_INT32 | PQT_VECTOR);
    CHECK_EQ_I64(width, 3);
    int32_t got[3 * NROWS];
    CHECK_OK(pqt_table_get(t, "tri", PQT_INT32, got, sizeof got, NULL, 0));
    for (int i = 0; i < 3 * NROWS; i++) CHECK_EQ_I64(got[i], i * 7 - 20);
    pqt_table_close(t);
    unlink(path);
    return pqt_test_done("test_table_add_list");
}
