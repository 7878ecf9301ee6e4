/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_copy.c - copies of every column shape (strings, vectors, lists, row ranges),
 * setting and nulling strings/vectors/lists, the lookup helpers (column_index,
 * require_columns, has_nulls), drop/keep of several columns, delete_rows/truncate, the
 * PQT_NOT_FOUND outcome of every by-name call, and "a failed call changes nothing" under
 * allocation-failure injection.
 *
 * Expected values come from the formulas DuckDB wrote tests/data/table_rg.parquet with
 * (tests/data/make_table_data.mjs), and from the DuckDB reading of the corpus file
 * list_columns.parquet: int64_list [[1,2,3],[NULL,1],[4]], utf8_list [["abc","efg","hij"],
 * NULL,["efg",NULL,"hij","xyz"]].
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

#define RG "tests/data/table_rg.parquet"
#define LISTS "tests/data/parquet-testing/data/list_columns.parquet"

static pqt_table *open_slice(const char *path, int64_t lo, int64_t hi)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    if (pqt_opts_new(&o) != PQT_OK) return NULL;
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi));
    REQUIRE_OK(pqt_table_open(path, o, &t));
    pqt_opts_free(o);
    return t;
}

static pqt_table *open_whole(const char *path)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    return t;
}

static int bit(const uint8_t *v, int64_t i) { return v[i >> 3] >> (i & 7) & 1; }

/* Strings of table_rg's s column, rows lo..hi of the file: "s<id>", NULL every 5th. */
static void check_strings_slice(int64_t lo, int64_t hi)
{
    pqt_table *t = open_slice(RG, lo, hi);
    if (!t) return;
    int64_t n = hi - lo + 1, nelem = -1, nbytes = -1, want_bytes = 0;
    for (int64_t id = lo; id <= hi; id++)
        if (id % 5) want_bytes += snprintf(NULL, 0, "s%lld", (long long)id);
    CHECK_OK(pqt_table_get_sizes(t, "s", &nelem, &nbytes));
    CHECK_EQ_I64(nelem, n);
    CHECK_EQ_I64(nbytes, want_bytes);
    int64_t *offs = calloc((size_t)n + 1, sizeof *offs);
    char *bytes = calloc((size_t)nbytes + 1, 1);
    uint8_t *val = calloc((size_t)(n + 7) / 8, 1);
    /* too small: PQT_MISUSE naming the need, nothing written */
    offs[0] = -7;
    CHECK_EQ_I64(pqt_table_get_strings(t, "s", offs, n + 1, bytes, (size_t)nbytes - 1, val,
                                       (size_t)(n + 7) / 8),
                 PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "need") != NULL);
    CHECK_EQ_I64(offs[0], -7);
    CHECK_OK(pqt_table_get_strings(t, "s", offs, n + 1, bytes, (size_t)nbytes, val,
                                   (size_t)(n + 7) / 8));
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t id = lo + i;
        char want[32];
        snprintf(want, sizeof want, "s%lld", (long long)id);
        int64_t len = offs[i + 1] - offs[i];
        if (id % 5 == 0) bad += bit(val, i) != 0 || len != 0;
        else bad += !bit(val, i) || len != (int64_t)strlen(want) ||
                    memcmp(bytes + offs[i], want, (size_t)len) != 0;
    }
    CHECK_EQ_I64(bad, 0);
    /* library-allocated form: same answer, NUL after the last string */
    int64_t *o2 = NULL, n2 = 0;
    char *b2 = NULL;
    uint8_t *v2 = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(t, "s", &o2, &b2, &v2, &n2));
    CHECK_EQ_I64(n2, n);
    if (o2 && b2 && v2) {
        CHECK(memcmp(o2, offs, (size_t)(n + 1) * sizeof *o2) == 0);
        CHECK(memcmp(b2, bytes, (size_t)nbytes) == 0 && b2[nbytes] == '\0');
        CHECK(memcmp(v2, val, (size_t)n / 8) == 0);
    }
    pqt_free(o2);
    pqt_free(b2);
    pqt_free(v2);
    free(offs);
    free(bytes);
    free(val);
    /* a string column is not a fixed-width copy, nor a list */
    double d;
    CHECK_EQ_I64(pqt_table_get(t, "s", 0, &d, sizeof d, NULL, 0), PQT_KIND);
    int64_t lo2[2];
    CHECK_EQ_I64(pqt_table_get_list(t, "s", 0, lo2, 2, NULL, 0, NULL, 0, NULL, 0), PQT_KIND);
    CHECK_EQ_I64(pqt_table_get_strings(t, "id", lo2, 2, NULL, 0, NULL, 0), PQT_KIND);
    CHECK(strstr(pqt_errmsg(), "int64") != NULL);
    pqt_table_close(t);
}

static void test_get_strings(void)
{
    check_strings_slice(1, 10000);
    check_strings_slice(2040, 2060); /* crosses a row-group boundary */
}

static void test_get_vectors(void)
{
    pqt_table *t = open_slice(RG, 2001, 2100);
    if (!t) return;
    int k = 0, w = 0;
    CHECK_OK(pqt_table_kind(t, "vec", &k));
    CHECK_OK(pqt_table_width(t, "vec", &w));
    CHECK_EQ_I64(k, PQT_FLOAT32 | PQT_VECTOR);
    CHECK_EQ_I64(w, 3);
    size_t nb = 0;
    CHECK_OK(pqt_table_get_nbytes(t, "vec", PQT_FLOAT64, &nb));
    CHECK_EQ_I64(nb, 100 * 3 * 8);
    int64_t nelem = 0, sb = -1;
    CHECK_OK(pqt_table_get_sizes(t, "vec", &nelem, &sb));
    CHECK_EQ_I64(nelem, 300);
    CHECK_EQ_I64(sb, 0);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "vec", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY); /* sizes of a vector come from the schema */
    double *x = calloc(300, sizeof *x);
    CHECK_OK(pqt_table_get(t, "vec", PQT_FLOAT64, x, 300 * sizeof *x, NULL, 0));
    int bad = 0;
    for (int i = 0; i < 100; i++) {
        double id = 2001 + i;
        bad += x[3 * i] != id || x[3 * i + 1] != id + 0.5 || x[3 * i + 2] != -id;
    }
    CHECK_EQ_I64(bad, 0);
    /* int conversions are not widenings */
    CHECK_EQ_I64(pqt_table_get(t, "vec", PQT_INT64, x, 300 * sizeof *x, NULL, 0), PQT_KIND);
    CHECK(strstr(pqt_errmsg(), "float32") != NULL);
    /* alloc form keeps the stored kind */
    void *d = NULL;
    uint8_t *v = (uint8_t *)1;
    int64_t ne = 0;
    CHECK_OK(pqt_table_get_alloc(t, "vec", 0, &d, &v, &ne));
    CHECK_EQ_I64(ne, 300);
    CHECK(v == NULL); /* no nulls */
    if (d) CHECK(((float *)d)[3 * 99 + 2] == -2100.0f);
    pqt_free(d);
    /* a row range: rows 48..50 of the slice are file rows 2048..2050 (across groups) */
    double r3[9];
    uint8_t rv[2] = {0, 0};
    CHECK_OK(pqt_table_get_range(t, "vec", 48, 50, PQT_FLOAT64, r3, sizeof r3, rv, sizeof rv));
    CHECK(r3[0] == 2048 && r3[1] == 2048.5 && r3[2] == -2048 && r3[8] == -2050);
    CHECK_EQ_I64(rv[0], 0xff);
    CHECK_EQ_I64(rv[1] & 1, 1);
    CHECK_EQ_I64(pqt_table_get_range(t, "vec", 99, 101, PQT_FLOAT64, r3, sizeof r3, NULL, 0),
                 PQT_RANGE);
    CHECK(strstr(pqt_errmsg(), "99..101") && strstr(pqt_errmsg(), "1..100"));
    CHECK_EQ_I64(pqt_table_get_range(t, "vec", 5, 4, PQT_FLOAT64, r3, sizeof r3, NULL, 0), PQT_RANGE);
    CHECK_EQ_I64(pqt_table_get_range(t, "vec", 1, 3, PQT_FLOAT64, r3, sizeof r3 - 1, NULL, 0),
                 PQT_MISUSE);
    /* scalar range with nulls and widening: i32 rows 1..10 = file rows 2001..2010 */
    int64_t iv[10];
    uint8_t ivv[2] = {0, 0};
    CHECK_OK(pqt_table_get_range(t, "i32", 1, 10, PQT_INT64, iv, sizeof iv, ivv, sizeof ivv));
    bad = 0;
    for (int i = 0; i < 10; i++) {
        int64_t id = 2001 + i;
        bad += id % 7 == 0 ? (iv[i] != 0 || bit(ivv, i)) : (iv[i] != id * 3 || !bit(ivv, i));
    }
    CHECK_EQ_I64(bad, 0);
    /* a vector through the list copy: offsets 0, 3, 6, ... */
    int64_t *lo = NULL;
    float *lv = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "vec", 0, &lo, (void **)&lv, NULL, NULL, &ne));
    CHECK_EQ_I64(ne, 300);
    if (lo && lv) CHECK(lo[0] == 0 && lo[1] == 3 && lo[100] == 300 && lv[3] == 2002.0f);
    pqt_free(lo);
    pqt_free(lv);
    free(x);
    pqt_table_close(t);
}

/* lst of table_rg: id % 3 elements [id, id + 1, ...], NULL when id % 17 == 0. */
static void test_get_lists(void)
{
    pqt_table *t = open_slice(RG, 2030, 2060);
    if (!t) return;
    int64_t n = 31;
    int k = 0;
    CHECK_OK(pqt_table_kind(t, "lst", &k));
    CHECK_EQ_I64(k, PQT_INT32 | PQT_LIST);
    int64_t nelem = 0, want = 0;
    for (int64_t id = 2030; id <= 2060; id++) want += id % 17 ? id % 3 : 0;
    CHECK_OK(pqt_table_get_sizes(t, "lst", &nelem, NULL));
    CHECK_EQ_I64(nelem, want);
    int64_t offs[32];
    int64_t *vals = calloc((size_t)nelem + 1, sizeof *vals);
    uint8_t ev[16] = {0}, rv[4] = {0};
    CHECK_EQ_I64(pqt_table_get_list(t, "lst", PQT_INT64, offs, 31, vals, (size_t)nelem * 8, NULL,
                                    0, NULL, 0),
                 PQT_MISUSE); /* offsets need nrows + 1 */
    CHECK_OK(pqt_table_get_list(t, "lst", PQT_INT64, offs, 32, vals, (size_t)nelem * 8, ev,
                                sizeof ev, rv, sizeof rv));
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t id = 2030 + i, cnt = offs[i + 1] - offs[i];
        if (id % 17 == 0) {
            bad += bit(rv, i) || cnt != 0;
            continue;
        }
        bad += !bit(rv, i) || cnt != id % 3;
        for (int64_t e = 0; e < cnt; e++) bad += vals[offs[i] + e] != id + e || !bit(ev, offs[i] + e);
    }
    CHECK_EQ_I64(bad, 0);
    CHECK_EQ_I64(offs[0], 0);
    /* alloc form, stored kind int32 */
    int64_t *o2 = NULL, ne = 0;
    int32_t *v2 = NULL;
    uint8_t *ev2 = (uint8_t *)1, *rv2 = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "lst", 0, &o2, (void **)&v2, &ev2, &rv2, &ne));
    CHECK_EQ_I64(ne, nelem);
    CHECK(ev2 == NULL); /* no null element */
    CHECK(rv2 != NULL); /* row 2040 - 2029 = 11 is a null list (2040 = 17 * 120) */
    if (rv2) CHECK(!bit(rv2, 10) && bit(rv2, 9));
    if (o2 && v2) CHECK(memcmp(o2, offs, sizeof offs) == 0 && v2[0] == 2030 && v2[1] == 2031);
    pqt_free(o2);
    pqt_free(v2);
    pqt_free(ev2);
    pqt_free(rv2);
    CHECK_EQ_I64(pqt_table_get_list(t, "lst", PQT_FLOAT64, offs, 32, NULL, 0, NULL, 0, NULL, 0),
                 PQT_KIND);
    CHECK_EQ_I64(pqt_table_get_list(t, "id", 0, offs, 32, NULL, 0, NULL, 0, NULL, 0), PQT_KIND);
    /* a list is not a fixed-width copy */
    CHECK_EQ_I64(pqt_table_get(t, "lst", 0, vals, (size_t)nelem * 8, NULL, 0), PQT_KIND);
    free(vals);
    pqt_table_close(t);

    /* lists of strings and of int64 from another writer */
    REQUIRE_OK(pqt_table_open(LISTS, NULL, &t));
    if (!t) return;
    int64_t lo[4], so[9], sn = 0, sbytes = 0;
    char sb[64];
    uint8_t sv[2] = {0}, srv[1] = {0};
    CHECK_OK(pqt_table_get_sizes(t, "utf8_list", &sn, &sbytes));
    CHECK_EQ_I64(sn, 7);
    CHECK_EQ_I64(sbytes, 18); /* abc efg hij + efg hij xyz */
    CHECK_EQ_I64(pqt_table_get_list(t, "utf8_list", 0, lo, 4, sb, sizeof sb, NULL, 0, NULL, 0),
                 PQT_KIND);
    CHECK_OK(pqt_table_get_list(t, "utf8_list", 0, lo, 4, NULL, 0, NULL, 0, srv, 1));
    CHECK(lo[0] == 0 && lo[1] == 3 && lo[2] == 3 && lo[3] == 7);
    CHECK_EQ_I64(srv[0] & 7, 5); /* row 2 null */
    CHECK_OK(pqt_table_get_strings(t, "utf8_list", so, 8, sb, sizeof sb, sv, sizeof sv));
    CHECK(memcmp(sb, "abcefghijefghijxyz", 18) == 0);
    CHECK(so[0] == 0 && so[3] == 9 && so[4] == 12 && so[5] == 12 && so[7] == 18);
    CHECK(memcmp(sb + so[6], "xyz", 3) == 0);
    CHECK_EQ_I64(sv[0], 0x6f); /* element 5 (the NULL of row 3) absent */
    int64_t *io = NULL, in = 0;
    int64_t *iv = NULL;
    uint8_t *iev = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "int64_list", 0, &io, (void **)&iv, &iev, NULL, &in));
    CHECK_EQ_I64(in, 6);
    if (io && iv && iev)
        CHECK(io[1] == 3 && io[2] == 5 && iv[2] == 3 && iv[3] == 0 && !bit(iev, 3) && iv[4] == 1 &&
              iv[5] == 4);
    pqt_free(io);
    pqt_free(iv);
    pqt_free(iev);
    pqt_table_close(t);
}

static void test_set_shapes(void)
{
    pqt_table *t = open_slice(RG, 1, 6);
    if (!t) return;
    /* strings: six new values, row 2 null */
    int64_t so[7] = {10, 11, 13, 13, 16, 16, 20}; /* need not start at 0 */
    const char *bytes = "xxxxxxxxxxabbcccdddd";
    uint8_t sv = 0x3d; /* rows 2 (and only 2) null */
    uint64_t g = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_set_strings(t, "s", so, bytes, &sv, so, NULL), PQT_MISUSE);
    int64_t bad_o[7] = {0, 1, 0, 2, 3, 4, 5};
    CHECK_EQ_I64(pqt_table_set_strings(t, "s", bad_o, "abcde", NULL, NULL, NULL), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "decrease at entry 2") != NULL);
    CHECK_EQ_I64(pqt_table_set_strings(t, "id", so, bytes, NULL, NULL, NULL), PQT_KIND);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    CHECK_OK(pqt_table_set_strings(t, "s", so, bytes, &sv, NULL, NULL));
    CHECK(pqt_table_generation(t) > g);
    const char *p;
    int64_t len;
    int isn;
    CHECK_OK(pqt_table_get_string(t, "s", 1, 0, &p, &len, &isn));
    CHECK(len == 1 && p[0] == 'a' && !isn);
    CHECK_OK(pqt_table_get_string(t, "s", 2, 0, &p, &len, &isn));
    CHECK(isn == 1 && len == 0);
    CHECK_OK(pqt_table_get_string(t, "s", 6, 0, &p, &len, &isn));
    CHECK(len == 4 && memcmp(p, "dddd", 4) == 0);
    CHECK_EQ_I64(pqt_table_reload(t, "s", 0), PQT_MISUSE); /* caller-written */
    CHECK(strstr(pqt_errmsg(), "force") != NULL);
    /* set_null / clear_null on a string */
    CHECK_OK(pqt_table_set_null(t, "s", 1, 0));
    CHECK_OK(pqt_table_is_null(t, "s", 1, 0, &isn));
    CHECK_EQ_I64(isn, 1);
    CHECK_OK(pqt_table_clear_null(t, "s", 2, 0));
    CHECK_OK(pqt_table_get_string(t, "s", 2, 0, &p, &len, &isn));
    CHECK(isn == 0 && len == 0); /* a null string clears to "" */
    CHECK_OK(pqt_table_clear_null(t, "s", 1, 0));
    CHECK_OK(pqt_table_get_string(t, "s", 1, 0, &p, &len, &isn));
    CHECK(len == 1 && p[0] == 'a'); /* the value it held comes back */

    /* vectors: set width x nrows, set_null a row nulls its elements */
    float v[18];
    for (int i = 0; i < 18; i++) v[i] = (float)(100 + i);
    CHECK_EQ_I64(pqt_table_set(t, "vec", v, sizeof v - 4, NULL), PQT_MISUSE);
    CHECK_OK(pqt_table_set(t, "vec", v, sizeof v, NULL));
    CHECK_OK(pqt_table_set_null(t, "vec", 2, 0));
    int n1, n2, n3;
    CHECK_OK(pqt_table_is_null(t, "vec", 2, 1, &n1));
    CHECK_OK(pqt_table_is_null(t, "vec", 2, 3, &n2));
    CHECK_OK(pqt_table_is_null(t, "vec", 3, 1, &n3));
    CHECK(n1 == 1 && n2 == 1 && n3 == 0);
    double dv[18];
    uint8_t dvv[3];
    CHECK_OK(pqt_table_get(t, "vec", PQT_FLOAT64, dv, sizeof dv, dvv, sizeof dvv));
    CHECK(dv[0] == 100 && dv[3] == 0 && dv[5] == 0 && dv[6] == 106 && dvv[0] == 0xc7);
    CHECK_OK(pqt_table_clear_null(t, "vec", 2, 2));
    CHECK_OK(pqt_table_get(t, "vec", PQT_FLOAT64, dv, sizeof dv, dvv, sizeof dvv));
    CHECK(dv[4] == 0 && dvv[0] == 0xd7); /* present again, reads 0 */
    CHECK_EQ_I64(pqt_table_set_null(t, "vec", 2, 4), PQT_RANGE);

    /* lists: set_list, null rows drop their elements; set_null makes a null list */
    int32_t lv[8] = {1, 2, 3, 99, 99, 4, 5, 6};
    int64_t lo[7] = {0, 1, 3, 5, 5, 6, 8};
    uint8_t rv = 0x3b; /* row 3 (elements 99, 99) null */
    uint8_t ev = 0x7f; /* element 8 (6) null */
    CHECK_EQ_I64(pqt_table_set_list(t, "lst", lo, &rv, lv, sizeof lv - 4, &ev), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_set_list(t, "vec", lo, &rv, lv, sizeof lv, &ev), PQT_KIND);
    CHECK_OK(pqt_table_set_list(t, "lst", lo, &rv, lv, sizeof lv, &ev));
    int64_t go[7];
    int32_t gv[8];
    uint8_t gev[1], grv[1];
    CHECK_OK(pqt_table_get_list(t, "lst", 0, go, 7, gv, sizeof gv, gev, 1, grv, 1));
    CHECK(go[0] == 0 && go[1] == 1 && go[2] == 3 && go[3] == 3 && go[4] == 3 && go[5] == 4 &&
          go[6] == 6);
    CHECK(gv[0] == 1 && gv[1] == 2 && gv[2] == 3 && gv[3] == 4 && gv[4] == 5 && gv[5] == 0);
    CHECK_EQ_I64(grv[0] & 0x3f, 0x3b);
    CHECK_EQ_I64(gev[0] & 0x3f, 0x1f);
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_set_null(t, "lst", 2, 0)); /* [2, 3] becomes a null list */
    CHECK(pqt_table_generation(t) > g);
    CHECK_OK(pqt_table_get_list(t, "lst", 0, go, 7, gv, sizeof gv, NULL, 0, grv, 1));
    CHECK(go[1] == 1 && go[2] == 1 && go[6] == 4 && gv[1] == 4);
    CHECK_EQ_I64(grv[0] & 0x3f, 0x39);
    CHECK_OK(pqt_table_clear_null(t, "lst", 2, 0)); /* null list -> empty list */
    CHECK_OK(pqt_table_get_list(t, "lst", 0, go, 7, NULL, 0, NULL, 0, grv, 1));
    CHECK(go[2] - go[1] == 0 && (grv[0] & 2));
    CHECK_OK(pqt_table_set_null(t, "lst", 5, 1)); /* element 1 of row 5 (the 4) */
    CHECK_OK(pqt_table_is_null(t, "lst", 5, 1, &n1));
    CHECK_OK(pqt_table_is_null(t, "lst", 4, 0, &n2)); /* an empty list is not null */
    CHECK(n1 == 1 && n2 == 0);
    pqt_table_close(t);

    /* a list of strings, set whole */
    REQUIRE_OK(pqt_table_open(LISTS, NULL, &t));
    if (!t) return;
    int64_t ls[4] = {0, 1, 1, 3}, ss[4] = {0, 2, 2, 5};
    uint8_t lrv = 0x5;                    /* row 2 null */
    uint8_t sev = 0x5;                    /* string 2 null */
    CHECK_EQ_I64(pqt_table_set_strings(t, "utf8_list", ss, "hiyou", &sev, NULL, NULL), PQT_MISUSE);
    CHECK_OK(pqt_table_set_strings(t, "utf8_list", ss, "hiyou", &sev, ls, &lrv));
    int64_t o[4], sn = 0, sbn = 0;
    CHECK_OK(pqt_table_get_sizes(t, "utf8_list", &sn, &sbn));
    CHECK(sn == 3 && sbn == 5);
    CHECK_OK(pqt_table_get_list(t, "utf8_list", 0, o, 4, NULL, 0, NULL, 0, NULL, 0));
    CHECK(o[1] == 1 && o[2] == 1 && o[3] == 3);
    CHECK_OK(pqt_table_get_string(t, "utf8_list", 3, 2, &p, &len, &isn));
    CHECK(len == 3 && memcmp(p, "you", 3) == 0);
    CHECK_OK(pqt_table_get_string(t, "utf8_list", 3, 1, &p, &len, &isn));
    CHECK(isn == 1);
    pqt_table_close(t);
}

static void test_lookup_helpers(void)
{
    pqt_table *t = open_whole(RG);
    if (!t) return;
    int ix = -1;
    CHECK_OK(pqt_table_column_index(t, "f64", &ix));
    CHECK_EQ_I64(ix, 3);
    CHECK(strcmp(pqt_table_column_name(t, ix), "f64") == 0);
    CHECK_EQ_I64(pqt_table_column_index(t, "nope", &ix), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_column_index(t, PQT_ROW_INDEX, &ix), PQT_NOT_FOUND);
    CHECK_EQ_I64(ix, 3);
    const char *have[3] = {"id", PQT_ROW_INDEX, "lst"};
    CHECK_OK(pqt_table_require_columns(t, have, 3));
    const char *miss[4] = {"id", "mass", "s", "ra"};
    CHECK_EQ_I64(pqt_table_require_columns(t, miss, 4), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "'mass'") && strstr(pqt_errmsg(), "'ra'") &&
          strstr(pqt_errmsg(), "2 column"));
    /* has_nulls before a read: footer statistics; after: exact */
    int hn = -1, res = -1;
    CHECK_OK(pqt_table_has_nulls(t, "id", &hn));
    CHECK_EQ_I64(hn, 0);
    CHECK_OK(pqt_table_has_nulls(t, "i32", &hn));
    CHECK_EQ_I64(hn, 1);
    CHECK_OK(pqt_table_has_nulls(t, "vec", &hn));
    CHECK_EQ_I64(hn, 0);
    CHECK_OK(pqt_table_residency(t, "i32", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    CHECK_OK(pqt_table_has_nulls(t, PQT_ROW_INDEX, &hn));
    CHECK_EQ_I64(hn, 0);
    CHECK_EQ_I64(pqt_table_has_nulls(t, "nope", &hn), PQT_NOT_FOUND);
    const char *pf[1] = {"f32"};
    CHECK_OK(pqt_table_prefetch(t, pf, 1));
    CHECK_OK(pqt_table_has_nulls(t, "f32", &hn));
    CHECK_EQ_I64(hn, 0);
    CHECK_OK(pqt_table_set_null(t, "f32", 9, 0));
    CHECK_OK(pqt_table_has_nulls(t, "f32", &hn));
    CHECK_EQ_I64(hn, 1);
    pqt_table_close(t);

    /* a slice of i32 rows 8..13 holds no multiple of 7: stats cannot say, the data can */
    t = open_slice(RG, 8, 13);
    if (!t) return;
    const char *i32[1] = {"i32"};
    CHECK_OK(pqt_table_prefetch(t, i32, 1));
    CHECK_OK(pqt_table_has_nulls(t, "i32", &hn));
    CHECK_EQ_I64(hn, 0);
    pqt_table_close(t);
}

static void test_drop_keep(void)
{
    pqt_table *t = open_whole(RG);
    if (!t) return;
    uint64_t g = pqt_table_generation(t);
    const char *bad[3] = {"id", "x1", "x2"};
    CHECK_EQ_I64(pqt_table_drop_columns(t, bad, 3, 0), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "'x1'") && strstr(pqt_errmsg(), "'x2'"));
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    CHECK_EQ_I64(pqt_table_generation(t), g);
    CHECK_OK(pqt_table_drop_columns(t, bad, 3, 1)); /* drops id only */
    CHECK_EQ_I64(pqt_table_ncols(t), 6);
    CHECK(!pqt_table_has_column(t, "id"));
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_drop_columns(t, bad + 1, 2, 1)); /* nothing to drop: no change */
    CHECK_EQ_I64(pqt_table_generation(t), g);
    const char *keep_bad[2] = {"s", "zz"};
    CHECK_EQ_I64(pqt_table_keep_columns(t, keep_bad, 2), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_table_ncols(t), 6);
    const char *keep[3] = {"vec", "s", PQT_ROW_INDEX};
    CHECK_OK(pqt_table_keep_columns(t, keep, 3));
    CHECK_EQ_I64(pqt_table_ncols(t), 2);
    CHECK(strcmp(pqt_table_column_name(t, 0), "s") == 0); /* slot order kept */
    CHECK(strcmp(pqt_table_column_name(t, 1), "vec") == 0);
    CHECK(pqt_table_has_column(t, PQT_ROW_INDEX)); /* named: still usable */
    const char *keep2[1] = {"s"};
    CHECK_OK(pqt_table_keep_columns(t, keep2, 1));
    CHECK(!pqt_table_has_column(t, PQT_ROW_INDEX)); /* not named: gone for good */
    CHECK_EQ_I64(pqt_table_ncols(t), 1);
    g = pqt_table_generation(t);
    CHECK_OK(pqt_table_keep_columns(t, keep2, 1)); /* keeps everything: no change */
    CHECK_EQ_I64(pqt_table_generation(t), g);
    pqt_table_close(t);
}

static void test_delete_truncate(void)
{
    pqt_table *t = open_slice(RG, 101, 110);
    if (!t) return;
    const char *pf[2] = {"id", PQT_ROW_INDEX};
    CHECK_OK(pqt_table_prefetch(t, pf, 2));
    uint64_t g = pqt_table_generation(t);
    int64_t none[1] = {0};
    CHECK_OK(pqt_table_delete_rows(t, none, 0));
    CHECK_OK(pqt_table_truncate(t, 10));
    CHECK_OK(pqt_table_truncate(t, 50));
    CHECK(!pqt_table_is_detached(t));
    CHECK_EQ_I64(pqt_table_generation(t), g);
    int64_t rows[4] = {3, 1, 3, 11};
    CHECK_EQ_I64(pqt_table_delete_rows(t, rows, 4), PQT_RANGE);
    CHECK(strstr(pqt_errmsg(), "row 11") != NULL);
    CHECK_EQ_I64(pqt_table_nrows(t), 10);
    CHECK_OK(pqt_table_delete_rows(t, rows, 3)); /* rows 1 and 3 (listed twice) */
    CHECK_EQ_I64(pqt_table_nrows(t), 8);
    CHECK(pqt_table_is_detached(t));
    int64_t id[8], ri[8];
    CHECK_OK(pqt_table_get(t, "id", 0, id, sizeof id, NULL, 0));
    CHECK_OK(pqt_table_get(t, PQT_ROW_INDEX, 0, ri, sizeof ri, NULL, 0));
    CHECK(id[0] == 102 && id[1] == 104 && id[7] == 110 && ri[1] == 104);
    double d[8];
    CHECK_EQ_I64(pqt_table_get(t, "f64", 0, d, sizeof d, NULL, 0), PQT_DETACHED);
    CHECK_OK(pqt_table_truncate(t, 3));
    CHECK_EQ_I64(pqt_table_nrows(t), 3);
    CHECK_OK(pqt_table_get_range(t, "id", 1, 3, 0, id, sizeof id, NULL, 0));
    CHECK(id[2] == 105);
    CHECK_EQ_I64(pqt_table_truncate(t, -1), PQT_MISUSE);
    pqt_table_close(t);
}

/* Every call that names a column answers PQT_NOT_FOUND for a name the table lacks. */
static void test_not_found_everywhere(void)
{
    pqt_table *t = open_whole(RG), *o = NULL;
    if (!t) return;
    CHECK_OK(pqt_table_new(&o));
    const char *x = "nope";
    const char *xs[1] = {"nope"};
    int i = 0;
    int64_t v = 0, r1 = 1, off[2], *op = NULL;
    char *cp = NULL;
    size_t nb;
    const char *s;
    char by[4];
    uint8_t u8;
    pqt_column_view view = {.struct_size = sizeof view};
    double dd = 0;
    int64_t nn = 0;
    void *dp = NULL;
    uint64_t g = pqt_table_generation(t);
    int st[40], k = 0;
    st[k++] = pqt_table_kind(t, x, &i);
    st[k++] = pqt_table_width(t, x, &i);
    st[k++] = pqt_table_time_unit(t, x, &i);
    st[k++] = pqt_table_unit(t, x, &s);
    st[k++] = pqt_table_residency(t, x, &i);
    st[k++] = pqt_table_is_supported(t, x, &i);
    st[k++] = pqt_table_has_nulls(t, x, &i);
    st[k++] = pqt_table_column_index(t, x, &i);
    st[k++] = pqt_table_require_columns(t, xs, 1);
    st[k++] = pqt_table_prefetch(t, xs, 1);
    st[k++] = pqt_table_reload(t, x, 1);
    st[k++] = pqt_table_evict(t, x, 1);
    st[k++] = pqt_table_get_nbytes(t, x, 0, &nb);
    st[k++] = pqt_table_get(t, x, 0, &v, 8, NULL, 0);
    st[k++] = pqt_table_get_alloc(t, x, 0, &dp, NULL, NULL);
    st[k++] = pqt_table_get_rows(t, x, &r1, 1, 0, &v, 8, NULL, 0);
    st[k++] = pqt_table_get_range(t, x, 1, 1, 0, &v, 8, NULL, 0);
    st[k++] = pqt_table_get_sizes(t, x, &nn, &nn);
    st[k++] = pqt_table_get_strings(t, x, off, 2, by, 4, NULL, 0);
    st[k++] = pqt_table_get_strings_alloc(t, x, &op, &cp, NULL, NULL);
    st[k++] = pqt_table_get_list(t, x, 0, off, 2, NULL, 0, NULL, 0, NULL, 0);
    st[k++] = pqt_table_get_list_alloc(t, x, 0, &op, NULL, NULL, NULL, NULL);
    st[k++] = pqt_table_column(t, x, 0, &view);
    st[k++] = pqt_table_is_null(t, x, 1, 0, &i);
    st[k++] = pqt_table_get_value(t, x, 1, 0, 0, &dd, 8, &i);
    st[k++] = pqt_table_get_string(t, x, 1, 0, &s, &v, &i);
    st[k++] = pqt_table_drop_column(t, x);
    st[k++] = pqt_table_drop_columns(t, xs, 1, 0);
    st[k++] = pqt_table_keep_columns(t, xs, 1);
    st[k++] = pqt_table_rename_column(t, x, "y");
    st[k++] = pqt_table_copy_column(t, x, "y", 0, 1);
    st[k++] = pqt_table_cast(t, x, PQT_FLOAT64, 1);
    st[k++] = pqt_table_set(t, x, &dd, 8, NULL);
    st[k++] = pqt_table_set_strings(t, x, off, by, NULL, NULL, NULL);
    st[k++] = pqt_table_set_list(t, x, off, NULL, &dd, 8, NULL);
    st[k++] = pqt_table_set_null(t, x, 1, 0);
    st[k++] = pqt_table_clear_null(t, x, 1, 0);
    st[k++] = pqt_table_sort_by_names(t, xs, 1, NULL, NULL);
    double one = 1;
    CHECK_OK(pqt_table_add_column(o, "nope", PQT_FLOAT64, 1, &one, NULL, 1, NULL));
    st[k++] = pqt_table_append(t, o); /* other has a column t lacks */
    for (int j = 0; j < k; j++) {
        if (st[j] != PQT_NOT_FOUND) fprintf(stderr, "not-found call #%d gave %d\n", j, st[j]);
        CHECK_EQ_I64(st[j], PQT_NOT_FOUND);
    }
    (void)u8;
    CHECK_EQ_I64(pqt_table_generation(t), g);
    CHECK_EQ_I64(pqt_table_ncols(t), 7);
    pqt_table_close(o);
    pqt_table_close(t);
}

/* ---- allocation-failure injection: a failed call changes nothing ---- */

typedef struct snap {
    int ncols;
    int64_t nrows;
    uint64_t gen;
    int detached;
    int res[16];
    double sum[16]; /* of resident fixed-width numeric columns, as float64 */
} snap;

static snap take(pqt_table *t)
{
    snap s;
    memset(&s, 0, sizeof s);
    s.ncols = pqt_table_ncols(t);
    s.nrows = pqt_table_nrows(t);
    s.gen = pqt_table_generation(t);
    s.detached = pqt_table_is_detached(t);
    for (int i = 0; i < s.ncols && i < 16; i++) {
        const char *nm = pqt_table_column_name(t, i);
        pqt_table_residency(t, nm, &s.res[i]);
        if (s.res[i] != PQT_RES_FULL) continue;
        pqt_column_view v = {.struct_size = sizeof v};
        if (pqt_table_column(t, nm, 0, &v) != PQT_OK) continue;
        for (int64_t e = 0; e < v.nelem; e++) {
            if (v.kind == PQT_FLOAT64) s.sum[i] += ((const double *)v.data)[e] * (double)(e + 1);
            if (v.kind == PQT_INT64) s.sum[i] += (double)((const int64_t *)v.data)[e] * (double)(e + 1);
            if (v.kind == PQT_INT32) s.sum[i] += ((const int32_t *)v.data)[e] * (double)(e + 1);
        }
    }
    return s;
}

static int same(const snap *a, const snap *b)
{
    if (a->ncols != b->ncols || a->nrows != b->nrows || a->gen != b->gen ||
        a->detached != b->detached)
        return 0;
    for (int i = 0; i < a->ncols && i < 16; i++)
        if (a->res[i] != b->res[i] || !(a->sum[i] == b->sum[i] || (isnan(a->sum[i]) && isnan(b->sum[i]))))
            return 0;
    return 1;
}

static pqt_table *mem_table(void)
{
    pqt_table *t = NULL;
    if (pqt_table_new(&t) != PQT_OK) return NULL;
    double x[6] = {3, 1, 2, 6, 5, 4};
    int64_t y[6] = {1, 2, 3, 4, 5, 6};
    int64_t so[7] = {0, 1, 2, 3, 4, 5, 6};
    pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, NULL, 6, "m");
    pqt_table_add_column(t, "y", PQT_INT64, 1, y, NULL, 6, NULL);
    pqt_table_add_string_column(t, "s", 1, so, "abcdef", NULL, 6, NULL);
    return t;
}

/* Run op with the n-th allocation failing, n = 0, 1, ... until it succeeds; after every
 * failure the table must be exactly as before. Returns the number of failures seen. */
typedef pqt_status (*op_fn)(pqt_table *t, void *arg);

static int inject(pqt_table *(*mk)(void), op_fn op, void *arg, const char *what)
{
    int fails = 0;
    for (long n = 0;; n++) {
        if (n == 5000) {
            fprintf(stderr, "%s: never succeeded\n", what);
            return -1;
        }
        pqt_table *t = mk();
        if (!t) return fails;
        snap before = take(t);
        pqt_mem_fail_after(n);
        pqt_status st = op(t, arg);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            pqt_table_close(t);
            if (getenv("PQT_TEST_VERBOSE")) fprintf(stderr, "%s: %d failure points\n", what, fails);
            break;
        }
        fails++;
        snap after = take(t);
        if (st != PQT_NOMEM || !same(&before, &after)) {
            fprintf(stderr, "%s: allocation %ld failing gave %d (%s) and %s\n", what, n, st,
                    pqt_errmsg(), same(&before, &after) ? "no change" : "CHANGED the table");
            pqt_test_failures++;
        }
        pqt_table_close(t);
    }
    return fails;
}

static pqt_status op_add(pqt_table *t, void *arg)
{
    (void)arg;
    double z[6] = {1, 2, 3, 4, 5, 6};
    return pqt_table_add_column(t, "z", PQT_FLOAT64, 1, z, NULL, 6, "kg");
}

static pqt_status op_append(pqt_table *t, void *arg) { return pqt_table_append(t, arg); }

static pqt_status op_sort(pqt_table *t, void *arg)
{
    const char **keys = arg;
    int desc[2] = {1, 0};
    return pqt_table_sort_by_names(t, keys, 2, desc, NULL);
}

static pqt_status op_set_null_list(pqt_table *t, void *arg)
{
    (void)arg;
    return pqt_table_set_null(t, "lst", 2, 0);
}

static pqt_status op_delete(pqt_table *t, void *arg)
{
    (void)arg;
    int64_t rows[2] = {2, 5};
    return pqt_table_delete_rows(t, rows, 2);
}

static pqt_table *file_table(void)
{
    pqt_table *t = open_slice(RG, 2041, 2056); /* two row groups */
    const char *pf[2] = {"id", "lst"};
    if (t) pqt_table_prefetch(t, pf, 2);
    return t;
}

static pqt_table *file_table_unread(void) { return open_slice(RG, 2041, 2056); }

static void test_failures_change_nothing(void)
{
    CHECK(inject(mem_table, op_add, NULL, "add_column") > 0);
    pqt_table *other = mem_table();
    CHECK(inject(mem_table, op_append, other, "append") > 0);
    pqt_table_close(other);
    const char *mk[2] = {"x", "s"};
    CHECK(inject(mem_table, op_sort, mk, "sort_by (in memory)") > 0);
    /* keys unread: the read itself fails, or a later allocation does and the read is undone */
    const char *fk[2] = {"i32", "f64"};
    CHECK(inject(file_table_unread, op_sort, fk, "sort_by (unread keys)") > 0);
    const char *rk[2] = {"f32", PQT_ROW_INDEX};
    CHECK(inject(file_table, op_sort, rk, "sort_by (row index key)") > 0);
    CHECK(inject(file_table, op_set_null_list, NULL, "set_null (list row)") > 0);
    CHECK(inject(file_table, op_delete, NULL, "delete_rows") > 0);
    other = file_table();
    CHECK(inject(file_table, op_append, other, "append (file table)") > 0);
    pqt_table_close(other);
}

int main(void)
{
    test_get_strings();
    test_get_vectors();
    test_get_lists();
    test_set_shapes();
    test_lookup_helpers();
    test_drop_keep();
    test_delete_truncate();
    test_not_found_everywhere();
    test_failures_change_nothing();
    return pqt_test_done("test_table_copy");
}
