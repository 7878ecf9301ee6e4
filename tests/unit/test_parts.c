/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_parts.c - reads with 2 threads (row groups decoded in parallel, straight into place)
 * equal reads with 1. tests/data/table_rg.parquet has 5 row groups with fixed-width, string,
 * vector and ragged list columns, examples/catalogue.parquet plain and dictionary strings;
 * random row ranges are read both ways and compared exactly.
 */
#include <string.h>

#include "pqt_file.h"
#include "testutil.h"

static uint64_t rng = 7;

static int bits_equal(const uint8_t *a, const uint8_t *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int x = a ? (a[i >> 3] >> (i & 7)) & 1 : 1, y = b ? (b[i >> 3] >> (i & 7)) & 1 : 1;
        if (x != y) return 0;
    }
    return 1;
}

static void compare(const pqt_array *a, const pqt_array *b, const char *what)
{
    CHECK_EQ_I64(pqt_array_kind(a), pqt_array_kind(b));
    CHECK_EQ_I64(pqt_array_nrows(a), pqt_array_nrows(b));
    int64_t nrows = pqt_array_nrows(a), nelem = nrows;
    const int64_t *la = pqt_array_list_offsets(a), *lb = pqt_array_list_offsets(b);
    if (la && lb) {
        CHECK(memcmp(la, lb, (size_t)(nrows + 1) * 8) == 0);
        CHECK(bits_equal(pqt_array_row_validity(a), pqt_array_row_validity(b), nrows));
        nelem = la[nrows];
    } else if (pqt_array_kind(a) & PQT_VECTOR) {
        nelem = nrows * pqt_array_width(a);
    }
    CHECK(bits_equal(pqt_array_validity(a), pqt_array_validity(b), nelem));
    const int64_t *sa = pqt_array_str_offsets(a), *sb = pqt_array_str_offsets(b);
    if (sa && sb) {
        int ok = 1;
        for (int64_t i = 0; i <= nelem; i++) ok &= sa[i] - sa[0] == sb[i] - sb[0];
        ok &= memcmp(pqt_array_bytes(a) + sa[0], pqt_array_bytes(b) + sb[0],
                     (size_t)(sa[nelem] - sa[0])) == 0;
        if (!ok) fprintf(stderr, "%s: strings differ\n", what);
        CHECK(ok);
    } else {
        size_t esz = pqt_kind_elem_nbytes(pqt_array_kind(a));
        CHECK(memcmp(pqt_array_data(a), pqt_array_data(b), (size_t)nelem * esz) == 0);
    }
}

static int check_file(const char *path)
{
    pqt_opts *o1, *o2;
    pqt_file *f1, *f2;
    CHECK_OK(pqt_opts_new(&o1));
    CHECK_OK(pqt_opts_new(&o2));
    CHECK_OK(pqt_opts_set_int(o1, PQT_OPT_THREADS, 1));
    CHECK_OK(pqt_opts_set_int(o2, PQT_OPT_THREADS, 2));
    REQUIRE_OK(pqt_file_open(path, o1, &f1));
    REQUIRE_OK(pqt_file_open(path, o2, &f2));
    CHECK(pqt_file_nrow_groups(f1) >= 2);
    int64_t n = pqt_file_nrows(f1);
    int tested = 0;
    for (int c = 0; c < pqt_file_ncols(f1); c++) {
        int k = pqt_file_column_kind(f1, c);
        if (k == PQT_NONE) continue;
        for (int trial = 0; trial < 10; trial++) {
            int64_t lo = 1 + (int64_t)(pqt_test_rand(&rng) % (uint64_t)n);
            int64_t hi = lo + (int64_t)(pqt_test_rand(&rng) % (uint64_t)(n - lo + 1));
            if (trial == 0) lo = 1, hi = n;
            pqt_array *a = NULL, *b = NULL;
            CHECK_OK(pqt_file_read(f1, c, lo, hi, &a));
            CHECK_OK(pqt_file_read(f2, c, lo, hi, &b));
            if (a && b) compare(a, b, pqt_file_column_path(f1, c));
            pqt_array_free(a);
            pqt_array_free(b);
            tested++;
        }
    }
    pqt_file_close(f1);
    pqt_file_close(f2);
    pqt_opts_free(o1);
    pqt_opts_free(o2);
    return tested;
}

int main(void)
{
    CHECK(check_file("tests/data/table_rg.parquet") >= 40);
    /* 2 row groups: PLAIN strings (name), dictionary strings (survey: their bytes outgrow the
     * chunk, so they must not take the windowed parallel path), a FLOAT[5] vector */
    CHECK(check_file("examples/catalogue.parquet") >= 40);
    return pqt_test_done("test_parts");
}
