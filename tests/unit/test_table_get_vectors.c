/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_table_get_vectors.c - pqt_table_get_alloc of a never-read vector (and of uint64,
 * widened and converted columns) and pqt_table_get_strings_alloc read the column without
 * making it resident and hand the read's arrays over. They must give exactly what the
 * formulas say and what the resident path gives, value by value, null elements as 0, over
 * whole, sliced, filtered, sorted and empty tables, with 1 and 2 threads; the column stays
 * unread, a later read of it still works, a clone reads it too, and qc rules still apply.
 *
 * Truth: tests/data/vec_direct.parquet, written by DuckDB from formulas of the 1-based row
 * id (tests/data/make_vec_direct.mjs; the formulas are repeated below), 5000 rows in row
 * groups of 2048.
 */
#include <stdlib.h>
#include <string.h>

#include "pqt.h"
#include "testutil.h"

#define VD "tests/data/vec_direct.parquet"

static int bit(const uint8_t *v, int64_t i)
{
    return v ? v[i >> 3] >> (i & 7) & 1 : 1;
}

static int residency(pqt_table *t, const char *name)
{
    int r = -1;
    CHECK_OK(pqt_table_residency(t, name, &r));
    return r;
}

/* ---- the formulas of make_vec_direct.mjs: element k (from 0) of row id ---- */
static int vf_null(int64_t id, int k)
{
    return (id + k) % 7 == 0;
}
static float vf_val(int64_t id, int k)
{
    return (float)(id * 10 + k);
}
static int vd_null(int64_t id, int k)
{
    return k == 1 && id % 13 == 0;
}
static double vd_val(int64_t id, int k)
{
    return (double)id + k * 0.25;
}
static int32_t vi_val(int64_t id, int k)
{
    return (int32_t)(id * (k + 1));
}
static int vl_null(int64_t id, int k)
{
    return id % 11 == k;
}
static int64_t vl_val(int64_t id, int k)
{
    return id * 1000000000000 + k;
}
static int vb_null(int64_t id, int k)
{
    return k == 2 && id % 5 == 0;
}
static uint8_t vb_val(int64_t id, int k)
{
    return (id + k) % 2 == 0;
}

typedef struct variant {
    const char *what;
    int64_t lo, hi;     /* a slice (0: none) */
    const char *filter; /* or NULL */
    int mod3;           /* the filter keeps id % 3 == mod3 (-1: no filter) */
    const char *sort;   /* or NULL */
} variant;

static pqt_table *open_variant(const variant *v, int threads, pqt_qc *qc, int soft)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    if (v->lo) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, v->lo));
    if (v->hi) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, v->hi));
    if (v->filter) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, v->filter));
    if (v->sort) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_SORT, v->sort));
    if (qc) REQUIRE_OK(pqt_opts_set_qc(o, qc));
    if (soft) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, 1));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    REQUIRE_OK(pqt_table_open(VD, o, &t));
    pqt_opts_free(o);
    return t;
}

/* The row ids of t, in its row order (the flat int64 column; its own copy path is tested
 * in test_table_get_direct.c), checked against what the variant keeps. */
static int64_t *ids_of(pqt_table *t, const variant *v, int64_t *n_ret)
{
    int64_t *id = NULL, n = -1;
    REQUIRE_OK(pqt_table_get_alloc(t, "id", PQT_INT64, (void **)&id, NULL, &n));
    int64_t bad = 0, want = 0;
    for (int64_t x = 1; x <= 5000; x++)
        want +=
            (!v->lo || x >= v->lo) && (!v->hi || x <= v->hi) && (v->mod3 < 0 || x % 3 == v->mod3);
    CHECK_EQ_I64(n, want);
    for (int64_t i = 1; i < n; i++)
        bad += v->sort ? id[i] >= id[i - 1] : id[i] <= id[i - 1];
    CHECK_EQ_I64(bad, 0);
    *n_ret = n;
    return id;
}

/* get_alloc of vector `name` (width w, element bytes es, kind `to`), compared element by
 * element with the formula through cmp. Returns the data (caller frees) and its validity. */
typedef int (*elem_ok_fn)(const void *data, int64_t e, int64_t id, int k, int present);

static int vf_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    float x = ((const float *)d)[e];
    return present == !vf_null(id, k) && x == (present ? vf_val(id, k) : 0.0f);
}
static int vf64_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    double x = ((const double *)d)[e];
    return present == !vf_null(id, k) && x == (present ? (double)vf_val(id, k) : 0.0);
}
static int vd_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    double x = ((const double *)d)[e];
    return present == !vd_null(id, k) && x == (present ? vd_val(id, k) : 0.0);
}
static int vi_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    return present && ((const int32_t *)d)[e] == vi_val(id, k);
}
static int vi64_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    return present && ((const int64_t *)d)[e] == vi_val(id, k);
}
static int vl_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    int64_t x = ((const int64_t *)d)[e];
    return present == !vl_null(id, k) && x == (present ? vl_val(id, k) : 0);
}
static int vb_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    uint8_t x = ((const uint8_t *)d)[e];
    return present == !vb_null(id, k) && x == (present ? vb_val(id, k) : 0);
}
static int u_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    (void)k;
    return present && ((const uint64_t *)d)[e] == UINT64_MAX - (uint64_t)id;
}
static int us_ok(const void *d, int64_t e, int64_t id, int k, int present)
{
    (void)k;
    return present && ((const int64_t *)d)[e] == id * 3;
}

typedef struct vcol {
    const char *name;
    int to, width;
    size_t es;
    elem_ok_fn ok;
    int has_null; /* over the whole file */
} vcol;

static const vcol VCOLS[] = {
    {"vf", 0, 5, 4, vf_ok, 1},
    {"vf", PQT_FLOAT64, 5, 8, vf64_ok, 1}, /* widened: a copy out of the read, not resident */
    {"vd", 0, 3, 8, vd_ok, 1},
    {"vi", 0, 2, 4, vi_ok, 0},
    {"vi", PQT_INT64, 2, 8, vi64_ok, 0},
    {"vl", PQT_INT64, 4, 8, vl_ok, 1},
    {"vb", 0, 3, 1, vb_ok, 1},
    {"u", 0, 1, 8, u_ok, 0},           /* uint64 as stored */
    {"us", PQT_INT64, 1, 8, us_ok, 0}, /* uint64 as int64, every value fits */
};
#define NVCOLS ((int)(sizeof VCOLS / sizeof VCOLS[0]))

/* get_alloc of c on t (never read), checked against the formulas over rows ids[0..n). */
static void *check_vcol(pqt_table *t, const vcol *c, const int64_t *ids, int64_t n,
                        uint8_t **valid_ret)
{
    void *d = NULL;
    uint8_t *valid = (uint8_t *)1;
    int64_t ne = -1;
    if (n == 0 && c->width > 1) {
        /* no row to measure a width on: a LIST, refused as a copy (as before) */
        CHECK_EQ_I64(pqt_table_get_alloc(t, c->name, c->to, &d, &valid, &ne), PQT_KIND);
        *valid_ret = NULL;
        return NULL;
    }
    CHECK_OK(pqt_table_get_alloc(t, c->name, c->to, &d, &valid, &ne));
    CHECK_EQ_I64(residency(t, c->name), PQT_RES_EMPTY); /* the table keeps nothing */
    CHECK_EQ_I64(ne, n * c->width);
    CHECK(d != NULL);
    int64_t bad = 0, nnull = 0;
    for (int64_t i = 0; d && i < n; i++)
        for (int k = 0; k < c->width; k++) {
            int64_t e = i * c->width + k;
            int present = bit(valid, e);
            nnull += !present;
            bad += !c->ok(d, e, ids[i], k, present);
        }
    if (bad)
        fprintf(stderr, "column %s as %d: %lld bad elements\n", c->name, c->to, (long long)bad);
    CHECK_EQ_I64(bad, 0);
    CHECK((valid != NULL) == (nnull > 0)); /* validity only when something is null */
    *valid_ret = valid;
    return d;
}

/* Strings of s (scalar, 's' || id, NULL when id % 6 == 0) or vs (['a' || id, 'b' || id],
 * the second NULL when id % 4 == 0): offsets from 0, nulls empty, bytes NUL-terminated. */
static void check_strings(pqt_table *t, const char *name, const int64_t *ids, int64_t n,
                          int64_t **off_ret, char **bytes_ret, uint8_t **valid_ret)
{
    int64_t *off = NULL, ne = -1;
    char *bytes = NULL;
    uint8_t *valid = (uint8_t *)1;
    int vec = strcmp(name, "vs") == 0, w = vec ? 2 : 1;
    CHECK_OK(pqt_table_get_strings_alloc(t, name, &off, &bytes, &valid, &ne));
    CHECK_EQ_I64(residency(t, name), PQT_RES_EMPTY);
    CHECK_EQ_I64(ne, n * w);
    int64_t bad = 0, nnull = 0;
    char want[32];
    CHECK(off && off[0] == 0);
    for (int64_t i = 0; off && i < n; i++)
        for (int k = 0; k < w; k++) {
            int64_t e = i * w + k, id = ids[i];
            int null = vec ? k == 1 && id % 4 == 0 : id % 6 == 0;
            snprintf(want, sizeof want, "%s%lld", vec ? (k ? "b" : "a") : "s", (long long)id);
            int64_t len = off[e + 1] - off[e];
            nnull += null;
            if (bit(valid, e) != !null)
                bad++;
            else if (null ? len != 0
                          : len != (int64_t)strlen(want) ||
                                memcmp(bytes + off[e], want, (size_t)len))
                bad++;
        }
    CHECK_EQ_I64(bad, 0);
    CHECK((valid != NULL) == (nnull > 0));
    if (off) CHECK(bytes[off[ne]] == '\0');
    *off_ret = off;
    *bytes_ret = bytes;
    *valid_ret = valid;
}

static void check_variant(const variant *v, int threads)
{
    fprintf(stderr, "-- %s, %d thread(s)\n", v->what, threads);
    pqt_table *t = open_variant(v, threads, NULL, 0);
    int64_t n = 0;
    int64_t *ids = ids_of(t, v, &n);

    /* a clone taken before any read reads the columns on its own */
    pqt_table *clone = NULL;
    CHECK_OK(pqt_table_clone(t, &clone));

    void *data[NVCOLS];
    uint8_t *valid[NVCOLS];
    for (int c = 0; c < NVCOLS; c++)
        data[c] = check_vcol(t, &VCOLS[c], ids, n, &valid[c]);
    int64_t *soff[2];
    char *sbytes[2];
    uint8_t *svalid[2];
    check_strings(t, "s", ids, n, &soff[0], &sbytes[0], &svalid[0]);
    check_strings(t, "vs", ids, n, &soff[1], &sbytes[1], &svalid[1]);

    /* a vector whose rows are not all one width (null rows) is a LIST: refused as before,
     * and still readable as a list afterwards */
    void *d = NULL;
    int null_row = 0;
    for (int64_t i = 0; i < n; i++)
        null_row |= ids[i] % 9 == 0;
    if (null_row || n == 0) {
        CHECK_EQ_I64(pqt_table_get_alloc(t, "ln", 0, &d, NULL, NULL), PQT_KIND);
    } else {
        CHECK_OK(pqt_table_get_alloc(t, "ln", 0, &d, NULL, NULL)); /* every row [id, -id] */
        pqt_free(d);
    }
    d = NULL;
    int64_t *loff = NULL;
    uint8_t *rv = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "ln", 0, &loff, &d, NULL, &rv, NULL));
    int64_t bad = 0;
    for (int64_t i = 0; loff && i < n; i++) {
        int null = ids[i] % 9 == 0;
        int64_t len = loff[i + 1] - loff[i];
        if (bit(rv, i) != !null || len != (null ? 0 : 2))
            bad++;
        else if (!null && (((float *)d)[loff[i]] != (float)ids[i] ||
                           ((float *)d)[loff[i] + 1] != -(float)ids[i]))
            bad++;
    }
    CHECK_EQ_I64(bad, 0);
    pqt_free(loff);
    pqt_free(d);
    pqt_free(rv);

    /* uint64 above int64: refused before anything is written, the column still unread */
    d = NULL;
    if (n > 0) {
        CHECK_EQ_I64(pqt_table_get_alloc(t, "u", PQT_INT64, &d, NULL, NULL), PQT_OVERFLOW);
        CHECK(d == NULL);
        CHECK_EQ_I64(residency(t, "u"), PQT_RES_EMPTY);
    }

    /* the clone gives the same, still without keeping anything */
    for (int c = 0; c < NVCOLS; c++) {
        if (!data[c]) continue;
        void *cd = NULL;
        uint8_t *cv = NULL;
        int64_t ne = -1;
        CHECK_OK(pqt_table_get_alloc(clone, VCOLS[c].name, VCOLS[c].to, &cd, &cv, &ne));
        CHECK(cd && memcmp(cd, data[c], (size_t)ne * VCOLS[c].es) == 0);
        CHECK((cv == NULL) == (valid[c] == NULL));
        if (cv && valid[c]) CHECK(memcmp(cv, valid[c], (size_t)(ne + 7) / 8) == 0);
        pqt_free(cd);
        pqt_free(cv);
    }
    pqt_table_close(clone);

    /* the resident path (after a prefetch) agrees byte for byte, validity included */
    const char *names[] = {"vf", "vd", "vi", "vl", "vb", "u", "us", "s", "vs"};
    CHECK_OK(pqt_table_prefetch(t, names, 9));
    for (int c = 0; c < NVCOLS; c++) {
        CHECK_EQ_I64(residency(t, VCOLS[c].name), PQT_RES_FULL);
        if (!data[c]) continue;
        void *rd = NULL;
        uint8_t *rvv = NULL;
        int64_t ne = -1;
        CHECK_OK(pqt_table_get_alloc(t, VCOLS[c].name, VCOLS[c].to, &rd, &rvv, &ne));
        CHECK_EQ_I64(ne, n * VCOLS[c].width);
        CHECK(rd && memcmp(rd, data[c], (size_t)ne * VCOLS[c].es) == 0);
        CHECK((rvv == NULL) == (valid[c] == NULL));
        if (rvv && valid[c]) CHECK(memcmp(rvv, valid[c], (size_t)(ne + 7) / 8) == 0);
        pqt_free(rd);
        pqt_free(rvv);
    }
    for (int s = 0; s < 2; s++) {
        int64_t *ro = NULL, ne = -1;
        char *rb = NULL;
        uint8_t *rvv = NULL;
        CHECK_OK(pqt_table_get_strings_alloc(t, s ? "vs" : "s", &ro, &rb, &rvv, &ne));
        CHECK(ro && memcmp(ro, soff[s], (size_t)(ne + 1) * 8) == 0);
        CHECK(rb && memcmp(rb, sbytes[s], (size_t)ro[ne] + 1) == 0);
        CHECK((rvv == NULL) == (svalid[s] == NULL));
        if (rvv && svalid[s]) CHECK(memcmp(rvv, svalid[s], (size_t)(ne + 7) / 8) == 0);
        pqt_free(ro);
        pqt_free(rb);
        pqt_free(rvv);
    }

    for (int c = 0; c < NVCOLS; c++) {
        pqt_free(data[c]);
        pqt_free(valid[c]);
    }
    for (int s = 0; s < 2; s++) {
        pqt_free(soff[s]);
        pqt_free(sbytes[s]);
        pqt_free(svalid[s]);
    }
    pqt_free(ids);
    pqt_table_close(t);
}

/* qc rules still hold on the direct paths: hard mode refuses and leaves the column unread,
 * soft mode warns and gives the values. vf's largest element is 5000 * 10 + 4. */
static void check_qc(int threads)
{
    const variant whole = {"whole", 0, 0, NULL, -1, NULL};
    pqt_qc *qc = NULL;
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "vf, >=0, <=40000"));
    REQUIRE_OK(pqt_qc_add(qc, "s, >=a, <=r"));
    pqt_table *t = open_variant(&whole, threads, qc, 0);
    void *d = NULL;
    CHECK_EQ_I64(pqt_table_get_alloc(t, "vf", 0, &d, NULL, NULL), PQT_QC);
    CHECK(d == NULL);
    CHECK_EQ_I64(residency(t, "vf"), PQT_RES_EMPTY);
    int64_t *off = NULL;
    char *bytes = NULL;
    CHECK_EQ_I64(pqt_table_get_strings_alloc(t, "s", &off, &bytes, NULL, NULL), PQT_QC);
    CHECK(off == NULL && bytes == NULL);
    CHECK_EQ_I64(residency(t, "s"), PQT_RES_EMPTY);
    pqt_table_close(t);

    t = open_variant(&whole, threads, qc, 1);
    int64_t n = 0;
    int64_t *ids = ids_of(t, &whole, &n);
    uint8_t *valid = NULL;
    d = check_vcol(t, &VCOLS[0], ids, n, &valid);
    pqt_free(d);
    pqt_free(valid);
    pqt_free(ids);
    pqt_table_close(t);
    pqt_qc_free(qc);
}

int main(void)
{
    static const variant variants[] = {
        {"whole", 0, 0, NULL, -1, NULL},
        {"slice across row groups", 1500, 4200, NULL, -1, NULL},
        {"filtered", 0, 0, "id % 3 == 0", 0, NULL},
        {"sorted", 0, 0, NULL, -1, "id desc"},
        {"filtered and sorted", 0, 0, "id % 3 == 1", 1, "id desc"},
        {"empty", 0, 0, "id % 3 == 7", 7, NULL},
    };
    pqt_set_warning_callback(NULL, NULL);
    for (int threads = 1; threads <= 2; threads++) {
        for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
            check_variant(&variants[v], threads);
        check_qc(threads);
    }
    return pqt_test_done("test_table_get_vectors");
}
