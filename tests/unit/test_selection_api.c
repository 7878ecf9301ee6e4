/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_selection_api.c - the public pqt_selection and pqt_file_read_selected (the filter
 * pass by hand), through pqt.h only.
 *
 * 1. Every constructor and operation against a bool-array model kept in the test, 1-based
 *    rows at the edge, the documented errors (with the numbers they must name), and "a
 *    failed call changes nothing" under injected allocation failures.
 * 2. pqt_file_read_selected equals "read the whole row group with pqt_file_read, then pick
 *    the rows" for random selections (all, none, bitmaps sparse to dense, unordered ranges,
 *    single rows, combinations) over corpus and tests/data files: scalars of every kind,
 *    strings, nulls, vectors and lists, many pages with offset indexes, several row groups.
 * 3. Pages with no selected row are not decompressed: a zstd chunk whose third page is
 *    garbage reads fine around it and fails, naming page 3, when a row of it is selected.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/meta.h"
#include "pqbuild.h"
#include "pqt_file.h"
#include "testutil.h"
#include "util/mem.h"

static uint64_t rng = 20240610;

static int64_t rnd(int64_t n) { return n > 0 ? (int64_t)(pqt_test_rand(&rng) % (uint64_t)n) : 0; }

static int has(const char *s) { return strstr(pqt_errmsg(), s) != NULL; }

static int bit(const uint8_t *bm, int64_t i) { return bm ? (bm[i >> 3] >> (i & 7)) & 1 : 1; }

/* The selection says exactly the model's rows: count, to_rows (1-based) and to_bitmap. */
static void check_model(const pqt_selection *s, const uint8_t *model, int64_t nrows)
{
    int64_t total = 0;
    for (int64_t i = 0; i < nrows; i++) total += model[i] != 0;
    CHECK_EQ_I64(pqt_selection_nrows(s), nrows);
    CHECK_EQ_I64(pqt_selection_count(s), total);
    int64_t *rows = malloc((size_t)total * sizeof *rows + 8);
    CHECK_OK(pqt_selection_to_rows(s, rows, total));
    int64_t k = 0;
    for (int64_t i = 0; i < nrows; i++)
        if (model[i]) {
            if (k < total) CHECK_EQ_I64(rows[k], i + 1);
            k++;
        }
    free(rows);
    size_t nb = (size_t)(nrows + 7) / 8;
    uint8_t *bits = malloc(nb + 1);
    memset(bits, 0xEE, nb + 1);
    CHECK_OK(pqt_selection_to_bitmap(s, bits, nb));
    for (int64_t i = 0; i < (int64_t)nb * 8; i++) CHECK_EQ_I64(bit(bits, i), i < nrows && model[i]);
    CHECK_EQ_I64(bits[nb], 0xEE);
    free(bits);
}

/* A random selection over nrows rows by a random public constructor, and its model. */
static pqt_selection *random_selection(int64_t nrows, uint8_t *model, int mode)
{
    pqt_selection *s = NULL;
    switch (mode) {
    case 0:
    case 1:
        REQUIRE_OK(pqt_selection_new(nrows, mode == 0, &s));
        memset(model, mode == 0, (size_t)nrows);
        break;
    case 2:
    case 3:
    case 4: { /* bitmaps: sparse, half, dense; padding bits past nrows set on purpose */
        int per1000 = mode == 2 ? 20 : mode == 3 ? 500 : 980;
        size_t nb = (size_t)(nrows + 7) / 8;
        uint8_t *bits = malloc(nb + 1);
        memset(bits, 0xff, nb + 1);
        for (int64_t i = 0; i < nrows; i++) {
            model[i] = rnd(1000) < per1000;
            if (!model[i]) bits[i >> 3] &= (uint8_t)~(1u << (i & 7));
        }
        REQUIRE_OK(pqt_selection_from_bitmap(bits, nrows, &s));
        free(bits);
        break;
    }
    case 5: { /* unordered, overlapping, touching and empty ranges */
        int64_t n = 1 + rnd(6), lo_hi[16];
        memset(model, 0, (size_t)nrows);
        for (int64_t k = 0; k < n; k++) {
            int64_t lo = 1 + rnd(nrows), hi = lo + rnd(rnd(2) ? nrows - lo + 1 : 5);
            if (hi > nrows) hi = nrows;
            if (k == 2) hi = lo - 1; /* empty */
            if (k == 3 && n > 3) { lo = lo_hi[1] + 1 <= nrows ? lo_hi[1] + 1 : nrows; hi = lo; }
            lo_hi[2 * k] = lo;
            lo_hi[2 * k + 1] = hi;
            for (int64_t r = lo; r <= hi; r++) model[r - 1] = 1;
        }
        REQUIRE_OK(pqt_selection_from_ranges(lo_hi, n, nrows, &s));
        break;
    }
    case 6: { /* one row: the first, the last or any */
        int64_t r = rnd(3) == 0 ? 1 : rnd(2) ? nrows : 1 + rnd(nrows), lo_hi[2] = {r, r};
        memset(model, 0, (size_t)nrows);
        model[r - 1] = 1;
        REQUIRE_OK(pqt_selection_from_ranges(lo_hi, 1, nrows, &s));
        break;
    }
    case 7: { /* every k-th row as bools */
        int64_t every = 1 + rnd(9);
        for (int64_t i = 0; i < nrows; i++) model[i] = i % every == 0;
        REQUIRE_OK(pqt_selection_from_bools(model, nrows, &s));
        break;
    }
    default: { /* a range minus a bitmap: and + not */
        uint8_t *m2 = malloc((size_t)nrows);
        pqt_selection *t = random_selection(nrows, m2, 3);
        int64_t lo_hi[2] = {1 + rnd(nrows), nrows};
        REQUIRE_OK(pqt_selection_from_ranges(lo_hi, 1, nrows, &s));
        CHECK_OK(pqt_selection_not(t));
        CHECK_OK(pqt_selection_and(s, t));
        for (int64_t i = 0; i < nrows; i++) model[i] = i + 1 >= lo_hi[0] && !m2[i];
        pqt_selection_free(t);
        free(m2);
        break;
    }
    }
    return s;
}

/* ---- 1. the selection object ---- */

static void test_constructors_and_errors(void)
{
    pqt_selection *s = NULL, *t = NULL;
    /* ranges: unordered, overlapping, touching, empty -> rows 2..5, 8..10 of 12 */
    const int64_t r1[] = {8, 9, 3, 5, 2, 4, 10, 10, 7, 6, 13, 12};
    REQUIRE_OK(pqt_selection_from_ranges(r1, 6, 12, &s));
    const uint8_t m1[12] = {0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0};
    check_model(s, m1, 12);
    /* refine: one verdict per selected row (7), in row order -> rows 2, 5, 10 */
    const uint8_t keep[7] = {1, 0, 0, 1, 0, 0, 7};
    CHECK_EQ_I64(pqt_selection_refine(s, keep, 6), PQT_MISUSE);
    CHECK(has("6 verdicts for 7 selected rows"));
    check_model(s, m1, 12); /* unchanged */
    CHECK_OK(pqt_selection_refine(s, keep, 7));
    const uint8_t m2[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    check_model(s, m2, 12);
    /* out-of-range ranges are PQT_RANGE naming the range and nrows; nothing is made */
    const int64_t bad[][2] = {{0, 3}, {5, 13}, {6, 4}, {14, 13}, {-3, -4}};
    for (int k = 0; k < 5; k++) {
        int64_t lo_hi[4] = {1, 2, bad[k][0], bad[k][1]};
        t = (pqt_selection *)&t; /* must stay as it is */
        pqt_selection *keep_t = t;
        CHECK_EQ_I64(pqt_selection_from_ranges(lo_hi, 2, 12, &t), PQT_RANGE);
        CHECK(t == keep_t);
        char want[96];
        snprintf(want, sizeof want, "range 2 is rows %lld..%lld, outside the selection's rows 1..12",
                 (long long)bad[k][0], (long long)bad[k][1]);
        CHECK(has(want));
        t = NULL;
    }
    const int64_t edge[] = {13, 12}; /* empty at nrows + 1: allowed */
    CHECK_OK(pqt_selection_from_ranges(edge, 1, 12, &t));
    CHECK_EQ_I64(pqt_selection_count(t), 0);
    /* and / or of different row counts: PQT_MISUSE naming both, a unchanged */
    pqt_selection *u = NULL;
    REQUIRE_OK(pqt_selection_new(13, 1, &u));
    CHECK_EQ_I64(pqt_selection_and(s, u), PQT_MISUSE);
    CHECK(has("a has 12 rows, b has 13"));
    CHECK_EQ_I64(pqt_selection_or(s, u), PQT_MISUSE);
    check_model(s, m2, 12);
    /* self and / or change nothing; not twice is the identity */
    CHECK_OK(pqt_selection_and(s, s));
    CHECK_OK(pqt_selection_or(s, s));
    check_model(s, m2, 12);
    CHECK_OK(pqt_selection_not(s));
    uint8_t m3[12];
    for (int i = 0; i < 12; i++) m3[i] = !m2[i];
    check_model(s, m3, 12);
    CHECK_OK(pqt_selection_not(s));
    check_model(s, m2, 12);
    /* or with an empty-range selection and with all */
    CHECK_OK(pqt_selection_or(s, t));
    check_model(s, m2, 12);
    pqt_selection *all = NULL;
    REQUIRE_OK(pqt_selection_new(12, 1, &all));
    CHECK_OK(pqt_selection_or(s, all));
    const uint8_t ones[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    check_model(s, ones, 12);
    /* buffers too small: PQT_MISUSE naming the size, nothing written */
    int64_t rows[11];
    rows[0] = -7;
    CHECK_EQ_I64(pqt_selection_to_rows(s, rows, 11), PQT_MISUSE);
    CHECK(has("rows holds 11 entries, the selection has 12 rows"));
    CHECK_EQ_I64(rows[0], -7);
    uint8_t bits[2] = {0x5a, 0x5a};
    CHECK_EQ_I64(pqt_selection_to_bitmap(s, bits, 1), PQT_MISUSE);
    CHECK(has("12 rows need 2"));
    CHECK_EQ_I64(bits[0], 0x5a);
    /* bitmap: padding ignored; row r is bit (r - 1) % 8 of byte (r - 1) / 8 */
    const uint8_t bm[2] = {0x81, 0xF8}; /* rows 1, 8, then 12 (bits 4..7 of byte 1: 12..16) */
    pqt_selection *b = NULL;
    REQUIRE_OK(pqt_selection_from_bitmap(bm, 12, &b));
    const uint8_t m4[12] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1};
    check_model(b, m4, 12);
    /* misuse */
    CHECK_EQ_I64(pqt_selection_new(-1, 1, &u), PQT_MISUSE);
    CHECK_EQ_I64(pqt_selection_new(5, 1, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_selection_from_bitmap(NULL, 5, &u), PQT_MISUSE);
    CHECK_EQ_I64(pqt_selection_from_ranges(NULL, 1, 5, &u), PQT_MISUSE);
    CHECK_EQ_I64(pqt_selection_refine(NULL, keep, 1), PQT_MISUSE);
    CHECK_EQ_I64(pqt_selection_count(NULL), -1);
    CHECK_EQ_I64(pqt_selection_nrows(NULL), -1);
    pqt_selection_free(NULL);
    /* zero rows */
    pqt_selection *z = NULL;
    REQUIRE_OK(pqt_selection_from_bitmap(NULL, 0, &z));
    CHECK_EQ_I64(pqt_selection_count(z), 0);
    CHECK_OK(pqt_selection_not(z));
    CHECK_EQ_I64(pqt_selection_count(z), 0);
    CHECK_OK(pqt_selection_to_rows(z, NULL, 0));
    CHECK_OK(pqt_selection_refine(z, NULL, 0));
    pqt_selection_free(z);
    pqt_selection_free(b);
    pqt_selection_free(all);
    pqt_selection_free(u);
    pqt_selection_free(t);
    pqt_selection_free(s);
}

/* Random sequences of public operations against the model, with allocation failures
 * injected: a failed call returns PQT_NOMEM and leaves the rows (and *ret) as they were. */
static void test_ops_property(void)
{
    int64_t nomem = 0;
    for (int trial = 0; trial < 300; trial++) {
        int64_t nrows = 1 + rnd(trial % 4 == 0 ? 20000 : 200);
        uint8_t *model = malloc((size_t)nrows), *om = malloc((size_t)nrows);
        pqt_selection *s = random_selection(nrows, model, (int)rnd(9));
        check_model(s, model, nrows);
        for (int step = 0; step < 8; step++) {
            int op = (int)rnd(5);
            pqt_selection *o = random_selection(nrows, om, (int)rnd(9));
            uint8_t *keep = malloc((size_t)pqt_selection_count(s) + 1);
            for (int64_t k = 0; k < pqt_selection_count(s); k++) keep[k] = rnd(3) != 0;
            long fail_at = rnd(3) == 0 ? (long)rnd(3) : -1;
            pqt_selection *copy = (pqt_selection *)&fail_at, *copy_before = copy;
            pqt_mem_fail_after(fail_at);
            pqt_status st = op == 0   ? pqt_selection_and(s, o)
                            : op == 1 ? pqt_selection_or(s, o)
                            : op == 2 ? pqt_selection_not(s)
                            : op == 3 ? pqt_selection_refine(s, keep, pqt_selection_count(s))
                                      : pqt_selection_copy(s, &copy);
            pqt_mem_fail_after(-1);
            if (st == PQT_OK) {
                int64_t k = 0;
                if (op == 4) {
                    check_model(copy, model, nrows);
                    CHECK_OK(pqt_selection_not(copy)); /* the copy is its own */
                    pqt_selection_free(copy);
                }
                for (int64_t i = 0; i < nrows && op < 4; i++)
                    model[i] = op == 0   ? model[i] && om[i]
                               : op == 1 ? model[i] || om[i]
                               : op == 2 ? !model[i]
                                         : model[i] ? keep[k++] != 0 : 0;
            } else {
                CHECK_EQ_I64(st, PQT_NOMEM);
                CHECK(copy == copy_before);
                nomem++;
            }
            check_model(s, model, nrows);
            check_model(o, om, nrows); /* b never changes */
            pqt_selection_free(o);
            free(keep);
        }
        /* constructors under failure leave *ret alone */
        for (long k = 0; k < 3; k++) {
            pqt_selection *t = (pqt_selection *)&k;
            pqt_mem_fail_after(k);
            pqt_status st = pqt_selection_from_bools(model, nrows, &t);
            pqt_mem_fail_after(-1);
            if (st == PQT_OK) {
                check_model(t, model, nrows);
                pqt_selection_free(t);
                break;
            }
            CHECK_EQ_I64(st, PQT_NOMEM);
            CHECK(t == (pqt_selection *)&k);
        }
        pqt_selection_free(s);
        free(model);
        free(om);
    }
    CHECK(nomem > 20);
}

/* ---- 2. pqt_file_read_selected equals read-whole-then-pick ---- */

static int same_elem(const pqt_array *a, int64_t i, const pqt_array *b, int64_t j)
{
    if (bit(pqt_array_validity(a), i) != bit(pqt_array_validity(b), j)) return 0;
    if (PQT_KIND_IS_BYTES(pqt_array_kind(a))) {
        const int64_t *oa = pqt_array_str_offsets(a), *ob = pqt_array_str_offsets(b);
        int64_t la = oa[i + 1] - oa[i], lb = ob[j + 1] - ob[j];
        return la == lb && memcmp(pqt_array_bytes(a) + oa[i], pqt_array_bytes(b) + ob[j],
                                  (size_t)la) == 0;
    }
    size_t e = pqt_kind_elem_nbytes(PQT_KIND_ELEMENT(pqt_array_kind(a)));
    return memcmp((const char *)pqt_array_data(a) + i * (int64_t)e,
                  (const char *)pqt_array_data(b) + j * (int64_t)e, e) == 0;
}

/* sub holds rows[0..n) (1-based within the row group) of whole, in order, shaped as
 * pqt_file_read shapes those rows. */
static int64_t compare_picked(const pqt_array *whole, const pqt_array *sub, const int64_t *rows,
                              int64_t n, const char *what)
{
    int64_t bad = 0;
    int kind = pqt_array_kind(whole);
    CHECK_EQ_I64(pqt_array_nrows(sub), n);
    CHECK_EQ_I64(PQT_KIND_ELEMENT(pqt_array_kind(sub)), PQT_KIND_ELEMENT(kind));
    if (!(kind & (PQT_LIST | PQT_VECTOR))) {
        CHECK_EQ_I64(pqt_array_kind(sub), kind);
        CHECK_EQ_I64(pqt_array_width(sub), 1);
        for (int64_t k = 0; k < n; k++) bad += !same_elem(whole, rows[k] - 1, sub, k);
    } else {
        const int64_t *lw = pqt_array_list_offsets(whole), *ls = pqt_array_list_offsets(sub);
        const uint8_t *vw = pqt_array_row_validity(whole), *vs = pqt_array_row_validity(sub);
        int64_t width = -1; /* the shape pqt_file_read gives these rows */
        for (int64_t k = 0; k < n; k++) {
            int64_t r = rows[k] - 1, len = lw[r + 1] - lw[r];
            if (k == 0) width = len;
            if (len != width || len < 1 || !bit(vw, r)) width = 0;
            if (bit(vw, r) != bit(vs, k) || len != ls[k + 1] - ls[k]) {
                bad++;
                continue;
            }
            for (int64_t e = 0; e < len; e++) bad += !same_elem(whole, lw[r] + e, sub, ls[k] + e);
        }
        if (n == 0) width = 0;
        CHECK_EQ_I64(pqt_array_kind(sub),
                     PQT_KIND_ELEMENT(kind) | (width > 0 ? PQT_VECTOR : PQT_LIST));
        CHECK_EQ_I64(pqt_array_width(sub), width > 0 ? width : 0);
    }
    if (bad) fprintf(stderr, "%s: %lld rows differ\n", what, (long long)bad);
    return bad;
}

static const char *files[] = {
    "tests/data/parquet-testing/data/alltypes_plain.parquet",
    "tests/data/parquet-testing/data/alltypes_plain.snappy.parquet",
    "tests/data/parquet-testing/data/alltypes_dictionary.parquet",
    "tests/data/parquet-testing/data/alltypes_tiny_pages.parquet",
    "tests/data/parquet-testing/data/alltypes_tiny_pages_plain.parquet",
    "tests/data/parquet-testing/data/int32_with_null_pages.parquet",
    "tests/data/parquet-testing/data/nullable.impala.parquet",
    "tests/data/parquet-testing/data/nulls.snappy.parquet",
    "tests/data/parquet-testing/data/list_columns.parquet",
    "tests/data/parquet-testing/data/datapage_v2.snappy.parquet",
    "tests/data/parquet-testing/data/delta_byte_array.parquet",
    "tests/data/parquet-testing/data/delta_encoding_optional_column.parquet",
    "tests/data/parquet-testing/data/byte_stream_split.zstd.parquet",
    "tests/data/parquet-testing/data/rle_boolean_encoding.parquet",
    "tests/data/parquet-testing/data/data_index_bloom_encoding_stats.parquet",
    "tests/data/parquet-testing/data/fixed_length_decimal.parquet",
    "tests/data/parquet-testing/data/int96_from_spark.parquet",
    "tests/data/parquet-testing/data/repeated_no_annotation.parquet",
    "tests/data/list_pages.parquet",
    "tests/data/table_rg.parquet",
    "tests/data/exact_values.parquet",
};

static void test_read_selected(void)
{
    int64_t reads = 0, bad = 0, into = 0;
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_INT96_UNIT, PQT_UNIT_MICROS)); /* Spark's INT96 */
    for (size_t fi = 0; fi < sizeof files / sizeof *files; fi++) {
        pqt_file *f = NULL;
        REQUIRE_OK(pqt_file_open(files[fi], o, &f));
        int64_t first = 1;
        for (int rg = 0; rg < pqt_file_nrow_groups(f); rg++) {
            int64_t nrows = pqt_file_row_group_nrows(f, rg);
            uint8_t *model = malloc((size_t)nrows + 1);
            for (int col = 0; col < pqt_file_ncols(f); col++) {
                if (pqt_file_column_kind(f, col) == PQT_NONE) continue;
                pqt_array *whole = NULL;
                REQUIRE_OK(pqt_file_read(f, col, first, first + nrows - 1, &whole));
                int kind = pqt_array_kind(whole);
                for (int mode = 0; mode < 9; mode++) {
                    pqt_selection *s = random_selection(nrows, model, mode);
                    int64_t n = pqt_selection_count(s);
                    int64_t *rows = malloc((size_t)n * sizeof *rows + 8);
                    CHECK_OK(pqt_selection_to_rows(s, rows, n));
                    pqt_array *sub = NULL;
                    CHECK_OK(pqt_file_read_selected(f, col, rg, s, &sub));
                    char what[512];
                    snprintf(what, sizeof what, "%s col %d rg %d mode %d", files[fi], col, rg,
                             mode);
                    if (sub) bad += compare_picked(whole, sub, rows, n, what);
                    reads++;
                    /* fixed-width scalars also into caller memory */
                    if (!(kind & (PQT_LIST | PQT_VECTOR)) && !PQT_KIND_IS_BYTES(kind)) {
                        size_t e = pqt_kind_elem_nbytes(kind);
                        uint8_t *data = malloc((size_t)n * e + 1);
                        uint8_t *valid = malloc((size_t)(n + 7) / 8 + 1);
                        CHECK_OK(pqt_file_read_selected_into(f, col, rg, s, data, (size_t)n * e,
                                                             valid));
                        for (int64_t k = 0; sub && k < n; k++) {
                            int vk = bit(pqt_array_validity(sub), k);
                            CHECK_EQ_I64(bit(valid, k), vk);
                            if (vk) CHECK(memcmp(data + k * (int64_t)e,
                                                 (const char *)pqt_array_data(sub) + k * (int64_t)e,
                                                 e) == 0);
                        }
                        into++;
                        free(data);
                        free(valid);
                    } else {
                        CHECK_EQ_I64(pqt_file_read_selected_into(f, col, rg, s, NULL, 0, NULL),
                                     PQT_KIND);
                    }
                    pqt_array_free(sub);
                    free(rows);
                    pqt_selection_free(s);
                }
                pqt_array_free(whole);
            }
            free(model);
            first += nrows;
        }
        pqt_file_close(f);
    }
    pqt_opts_free(o);
    CHECK_EQ_I64(bad, 0);
    CHECK(reads > 1000);
    CHECK(into > 500);
    fprintf(stderr, "test_selection_api: %lld selective reads, %lld into caller memory\n",
            (long long)reads, (long long)into);
}

static void test_read_errors(void)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open("tests/data/table_rg.parquet", NULL, &f));
    int64_t rows0 = pqt_file_row_group_nrows(f, 0), rows1 = pqt_file_row_group_nrows(f, 1);
    pqt_selection *s = NULL, *wrong = NULL;
    REQUIRE_OK(pqt_selection_new(rows0, 1, &s));
    REQUIRE_OK(pqt_selection_new(rows0 + 1, 1, &wrong));
    pqt_array *a = (pqt_array *)&s, *keep = a;
    CHECK_EQ_I64(pqt_file_read_selected(f, 0, 0, wrong, &a), PQT_MISUSE);
    char want[160];
    snprintf(want, sizeof want, "row group 1 (index 0) has %lld rows, the selection is over %lld",
             (long long)rows0, (long long)rows0 + 1);
    CHECK(has(want));
    CHECK(a == keep);
    CHECK_EQ_I64(pqt_file_read_selected(f, 0, pqt_file_nrow_groups(f), s, &a), PQT_MISUSE);
    CHECK(has("no row group index 5 (0-based; the file has 5 row groups)"));
    CHECK_EQ_I64(pqt_file_read_selected(f, -1, 0, s, &a), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_file_read_selected(f, 0, -1, s, &a), PQT_MISUSE);
    CHECK_EQ_I64(pqt_file_read_selected(f, 99, 0, s, &a), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_file_read_selected(f, 0, 0, NULL, &a), PQT_MISUSE);
    CHECK_EQ_I64(pqt_file_read_selected(f, 0, 0, s, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_file_read_selected(NULL, 0, 0, s, &a), PQT_MISUSE);
    CHECK(a == keep);
    /* into: too small a destination names the size needed */
    int64_t buf[4];
    CHECK_EQ_I64(pqt_file_read_selected_into(f, 0, 0, s, buf, sizeof buf, NULL), PQT_MISUSE);
    snprintf(want, sizeof want, "%lld rows of int64 need %lld", (long long)rows0,
             (long long)rows0 * 8);
    CHECK(has(want));
    /* a selection of row group 1 read from row group 2 when they have the same rows: the
     * rows are the second group's (a selection knows no file) */
    if (rows0 == rows1) {
        pqt_array *b = NULL;
        REQUIRE_OK(pqt_file_read_selected(f, 0, 1, s, &b));
        const int64_t *id = pqt_array_data(b);
        CHECK_EQ_I64(pqt_array_nrows(b), rows1);
        pqt_array *w = NULL;
        REQUIRE_OK(pqt_file_read(f, 0, rows0 + 1, rows0 + rows1, &w));
        CHECK(memcmp(id, pqt_array_data(w), (size_t)rows1 * 8) == 0);
        pqt_array_free(w);
        pqt_array_free(b);
    }
    pqt_selection_free(wrong);
    pqt_selection_free(s);
    pqt_file_close(f);
}

/* ---- 3. pages without a selected row are not decompressed ---- */

static void put_page(pqb *w, const pqb_page *p, const void *body, size_t n)
{
    pqb h = {0};
    pqb_page_header(&h, p);
    pqb_bytes(w, h.b, h.n);
    pqb_bytes(w, body, n);
    pqb_free(&h);
}

static void test_pages_skipped(void)
{
    enum { NPAGES = 4, PAGE_ROWS = 100, NROWS = NPAGES * PAGE_ROWS };
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    int64_t off = (int64_t)w.n;
    for (int p = 0; p < NPAGES; p++) {
        int32_t v[PAGE_ROWS];
        for (int i = 0; i < PAGE_ROWS; i++) v[i] = (p * PAGE_ROWS + i) * 3;
        uint8_t z[1024];
        size_t zn = ZSTD_compress(z, sizeof z, v, sizeof v, 1);
        REQUIRE_OK(ZSTD_isError(zn) ? PQT_IO : PQT_OK);
        if (p == 2) memset(z, 0x5a, zn); /* page 3: not zstd at all */
        pqb_page h = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)sizeof v,
                      .compressed_size = (int32_t)zn, .num_values = PAGE_ROWS,
                      .encoding = PQT_ENC_PLAIN};
        put_page(&w, &h, z, zn);
    }
    int64_t rows = NROWS;
    pqb_chunk ch = {off, (int64_t)w.n - off, NROWS, NROWS * 4 + 200, PQT_CODEC_ZSTD};
    pqb_col c = {"v", PQT_PT_INT32, PQT_REP_REQUIRED, false, 0};
    pqb_footer(&w, &c, 1, 1, &rows, &ch);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open_mem(w.b, w.n, "garbled-page-3", NULL, &f));
    /* rows of pages 1, 2 and 4 only (1-based: 1..200 and 301..400), sparse and whole */
    uint8_t keep[NROWS];
    for (int i = 0; i < NROWS; i++) keep[i] = (i < 200 || i >= 300) && i % 7 != 3;
    pqt_selection *s = NULL;
    REQUIRE_OK(pqt_selection_from_bools(keep, NROWS, &s));
    int32_t out[NROWS];
    uint8_t valid[NROWS / 8];
    CHECK_OK(pqt_file_read_selected_into(f, 0, 0, s, out, sizeof out, valid));
    int64_t k = 0;
    for (int i = 0; i < NROWS; i++)
        if (keep[i]) CHECK_EQ_I64(out[k++], i * 3);
    CHECK_EQ_I64(k, pqt_selection_count(s));
    const int64_t around[] = {301, 400, 1, 200};
    pqt_selection *r = NULL;
    REQUIRE_OK(pqt_selection_from_ranges(around, 2, NROWS, &r));
    pqt_array *a = NULL;
    CHECK_OK(pqt_file_read_selected(f, 0, 0, r, &a));
    CHECK_EQ_I64(pqt_array_nrows(a), 300);
    if (a) CHECK_EQ_I64(((const int32_t *)pqt_array_data(a))[200], 300 * 3);
    pqt_array_free(a);
    /* one row of page 3 selected: now it must be decompressed, and it fails there */
    const int64_t one[] = {250, 250};
    pqt_selection *bad = NULL;
    REQUIRE_OK(pqt_selection_from_ranges(one, 1, NROWS, &bad));
    CHECK_OK(pqt_selection_or(bad, r));
    a = NULL;
    pqt_status st = pqt_file_read_selected(f, 0, 0, bad, &a);
    CHECK(st != PQT_OK);
    CHECK(a == NULL);
    CHECK(has("row group 1, page 3"));
    pqt_selection_free(bad);
    pqt_selection_free(r);
    pqt_selection_free(s);
    pqt_file_close(f);
    pqb_free(&w);
}

int main(void)
{
    test_constructors_and_errors();
    test_ops_property();
    test_read_errors();
    test_pages_skipped();
    test_read_selected();
    return pqt_test_done("test_selection_api");
}
