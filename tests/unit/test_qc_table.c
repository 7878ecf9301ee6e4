/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_qc_table.c - read-time quality control on tables (docs/qc.md): rules bound
 * at open, checked on the first read of a column (get, view, value access, prefetch,
 * materialize_all, a filter at open, pqt_table_validate_qc); hard mode fails that call with
 * PQT_QC and docs/qc.md's message, leaving the column unread and the table unchanged; soft mode
 * warns once per column per kind and keeps the data; the miss states; vectors and lists
 * element-wise; int64 bounds past 2^53; nulls; NaN.
 *
 * Truth: one small file written here (diff_write.c) whose values are listed below; every
 * expected count, range and message is worked out by hand from them.
 *
 *   row  id  ra    big               name  vec      lst             flag  d
 *   1    1   10    9007199254740993  b     [1,2]    [1.0]           1     100
 *   2    2   -5    9007199254740992  a     [3,4]    [2.0, null]     0     200
 *   3    3   400   1                 c     [5,60]   null            1     null
 *   4    4   null  2                 d     [7,8]    []              null  300
 *   5    5   20    3                 null  [9,10]   [5.0,-1.0,3.0]  1     400
 *   6    6   NaN   4                 e     [11,12]  [0.5]           1     500
 *
 * Two row groups of three rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff_write.h"
#include "format/meta.h"
#include "pqt.h"
#include "testutil.h"

static char path[512];

static void write_file(void)
{
    static const int64_t id[6] = {1, 2, 3, 4, 5, 6};
    static double ra[6] = {10, -5, 400, 0, 20, 0};
    ra[5] = NAN;
    static const uint8_t ra_valid[1] = {0x37}; /* row 4 null */
    static const int64_t big[6] = {9007199254740993LL, 9007199254740992LL, 1, 2, 3, 4};
    static const int64_t name_off[7] = {0, 1, 2, 3, 4, 4, 5};
    static const uint8_t name_valid[1] = {0x2F}; /* row 5 null */
    static const int32_t vec[12] = {1, 2, 3, 4, 5, 60, 7, 8, 9, 10, 11, 12};
    static const int64_t vec_off[7] = {0, 2, 4, 6, 8, 10, 12};
    static const double lst[7] = {1.0, 2.0, 0, 5.0, -1.0, 3.0, 0.5};
    static const int64_t lst_off[7] = {0, 1, 3, 3, 3, 6, 7};
    static const uint8_t lst_rvalid[1] = {0x3B}; /* row 3 a null list */
    static const uint8_t lst_evalid[1] = {0x7B}; /* element 3 (row 2's second) null */
    static const uint8_t flag[6] = {1, 0, 1, 0, 1, 1};
    static const uint8_t flag_valid[1] = {0x37};
    static const int32_t d[6] = {100, 200, 0, 300, 400, 500};
    static const uint8_t d_valid[1] = {0x3B};
    dw_col cols[] = {
        {.name = "id", .ptype = PQT_PT_INT64, .required = 1, .vals = id},
        {.name = "ra", .ptype = PQT_PT_DOUBLE, .vals = ra, .valid = ra_valid},
        {.name = "big", .ptype = PQT_PT_INT64, .vals = big},
        {.name = "name", .ptype = PQT_PT_BYTE_ARRAY, .ann = DW_STRING, .vals = name_off,
         .bytes = "bacde", .valid = name_valid},
        {.name = "vec", .ptype = PQT_PT_INT32, .vals = vec, .list = 1, .loff = vec_off},
        {.name = "lst", .ptype = PQT_PT_DOUBLE, .vals = lst, .valid = lst_rvalid, .list = 1,
         .loff = lst_off, .evalid = lst_evalid},
        {.name = "flag", .ptype = PQT_PT_BOOLEAN, .vals = flag, .valid = flag_valid},
        {.name = "d", .ptype = PQT_PT_INT32, .ann = DW_DATE, .vals = d, .valid = d_valid},
    };
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/pqt_qc_%d.parquet", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    int64_t rg_rows[2] = {3, 3};
    uint64_t rng = 12;
    dw_info info = {0};
    if (!dw_write(path, cols, (int)(sizeof cols / sizeof cols[0]), rg_rows, 2, 1, &rng, &info)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* ---- warnings ---- */
static char warns[16][1200];
static int nwarn;
static void on_warning(void *user, const char *msg)
{
    (void)user;
    if (nwarn < 16) snprintf(warns[nwarn], sizeof warns[0], "%s", msg);
    nwarn++;
}

/* Open path with the rules rules[0..n), soft mode, a filter rule (NULL: none), threads. */
static pqt_status open_qc(const char *const *rules, int n, int soft, const char *filter,
                          int threads, pqt_table **t)
{
    pqt_opts *o;
    pqt_qc *qc;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_qc_new(&qc));
    for (int i = 0; i < n; i++) REQUIRE_OK(pqt_qc_add(qc, rules[i]));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc); /* the options hold a copy */
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, soft));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (filter) REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, filter));
    pqt_status st = pqt_table_open(path, o, t);
    pqt_opts_free(o);
    return st;
}

static pqt_table *open1(const char *rule, int soft)
{
    pqt_table *t = NULL;
    REQUIRE_OK(open_qc(&rule, 1, soft, NULL, 1, &t));
    return t;
}

static int residency(pqt_table *t, const char *name)
{
    int r = -1;
    CHECK_OK(pqt_table_residency(t, name, &r));
    return r;
}

#define CHECK_MSG(want)                                                                            \
    do {                                                                                           \
        char want_[1200];                                                                          \
        snprintf(want_, sizeof want_, "%s", want);                                                 \
        if (strcmp(pqt_errmsg(), want_) != 0) {                                                    \
            fprintf(stderr, "%s:%d: message\n  got  \"%s\"\n  want \"%s\"\n", __FILE__, __LINE__,  \
                    pqt_errmsg(), want_);                                                          \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        if (strcmp(got, want) != 0) {                                                              \
            fprintf(stderr, "%s:%d:\n  got  \"%s\"\n  want \"%s\"\n", __FILE__, __LINE__, got,     \
                    want);                                                                         \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

static char want[1200];
#define WANT(...) (snprintf(want, sizeof want, __VA_ARGS__), want)

static const char *RA_RANGE = "declared min >= 0, max <= 360, data range [-5.0, 400.0], 2 of 5 "
                              "valid element(s) out of range";
static const char *NULLS_1_OF_6 = "1 of 6 element(s) are Null (qc: miss: is declared empty, so "
                                  "Nulls are not expected here)";

/* Hard mode through every kind of first touch: the call fails with PQT_QC and the message,
 * the column stays unread, the table unchanged. */
static void test_hard_first_touch(void)
{
    pqt_table *t = open1("ra, >=0, <=360", 0);
    CHECK_EQ_I64(pqt_table_scan_values(t, "ra"), 0); /* opening read nothing */
    uint64_t gen = pqt_table_generation(t);
    double v[6];
    CHECK_EQ_I64(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_MSG(WANT("pqt_table_get: %s: qc violation for column 'ra': %s", path, RA_RANGE));
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);
    CHECK(pqt_table_generation(t) == gen);

    pqt_column_view view = {.struct_size = sizeof view};
    CHECK_EQ_I64(pqt_table_column(t, "ra", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'ra': %s", path, RA_RANGE));
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);

    double x = -1;
    CHECK_EQ_I64(pqt_table_get_value(t, "ra", 1, 0, 0, &x, sizeof x, NULL), PQT_QC);
    CHECK(x == -1); /* nothing written */

    /* several columns in one pass: none becomes resident, id included */
    const char *names[2] = {"id", "ra"};
    CHECK_EQ_I64(pqt_table_prefetch(t, names, 2), PQT_QC);
    CHECK_MSG(WANT("pqt_table_prefetch: %s: qc violation for column 'ra': %s", path, RA_RANGE));
    CHECK_EQ_I64(residency(t, "id"), PQT_RES_EMPTY);
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);

    CHECK_EQ_I64(pqt_table_materialize_all(t), PQT_QC);
    CHECK_MSG(WANT("pqt_table_materialize_all: %s: qc violation for column 'ra': %s", path,
                   RA_RANGE));
    for (int i = 0; i < pqt_table_ncols(t); i++)
        CHECK_EQ_I64(residency(t, pqt_table_column_name(t, i)), PQT_RES_EMPTY);
    CHECK(pqt_table_generation(t) == gen);

    /* columns without a rule read as ever */
    int64_t ids[6];
    CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
    CHECK_EQ_I64(ids[5], 6);
    CHECK_OK(pqt_table_prefetch(t, names, 1));
    CHECK_EQ_I64(residency(t, "id"), PQT_RES_FULL);

    /* a rename keeps the rule (it is bound to the file column) and the message says the
     * name in use */
    CHECK_OK(pqt_table_rename_column(t, "ra", "ra2"));
    CHECK_EQ_I64(pqt_table_column(t, "ra2", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'ra2': %s", path, RA_RANGE));

    /* a clone carries the rules */
    pqt_table *c;
    REQUIRE_OK(pqt_table_clone(t, &c));
    CHECK_EQ_I64(pqt_table_column(c, "ra2", 0, &view), PQT_QC);
    pqt_table_close(c);
    pqt_table_close(t);

    /* the parallel prefetch (columns on two threads) commits nothing either */
    const char *rule = "ra, >=0, <=360";
    REQUIRE_OK(open_qc(&rule, 1, 0, NULL, 2, &t));
    const char *three[3] = {"id", "big", "ra"};
    CHECK_EQ_I64(pqt_table_prefetch(t, three, 3), PQT_QC);
    CHECK_MSG(WANT("pqt_table_prefetch: %s: qc violation for column 'ra': %s", path, RA_RANGE));
    CHECK_EQ_I64(residency(t, "id"), PQT_RES_EMPTY);
    CHECK_EQ_I64(residency(t, "big"), PQT_RES_EMPTY);
    pqt_table_close(t);
}

/* The three states of miss: (docs/qc.md) on a column with one null. */
static void test_miss_states(void)
{
    static const char *const ok_rules[] = {"ra", "ra,,,Null", "ra, , , NA", "ra, -10, 500",
                                           "ra, -10, 500, null"};
    for (size_t i = 0; i < sizeof ok_rules / sizeof ok_rules[0]; i++) {
        pqt_table *t = open1(ok_rules[i], 0);
        double v[6];
        CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
        CHECK(v[2] == 400 && v[1] == -5);
        pqt_table_close(t);
    }
    pqt_table *t = open1("ra,,,", 0); /* declared empty: nulls are not expected */
    pqt_column_view view = {.struct_size = sizeof view};
    CHECK_EQ_I64(pqt_table_column(t, "ra", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'ra': %s", path, NULLS_1_OF_6));
    pqt_table_close(t);
    /* both kinds at once, in one message */
    t = open1("ra, >=0, <=360, ", 0);
    CHECK_EQ_I64(pqt_table_column(t, "ra", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'ra': %s; %s", path, RA_RANGE,
                   NULLS_1_OF_6));
    pqt_table_close(t);
    /* a column without nulls passes a declared-empty miss */
    t = open1("big,,,", 0);
    CHECK_OK(pqt_table_column(t, "big", 0, &view));
    pqt_table_close(t);
    /* booleans: min/max accepted and never enforced, miss enforced; dates: miss enforced */
    t = open1("flag, 5, 7", 0);
    CHECK_OK(pqt_table_column(t, "flag", 0, &view));
    pqt_table_close(t);
    t = open1("flag, , , ", 0);
    CHECK_EQ_I64(pqt_table_column(t, "flag", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'flag': %s", path,
                   NULLS_1_OF_6));
    pqt_table_close(t);
    t = open1("d,,,", 0);
    CHECK_EQ_I64(pqt_table_column(t, "d", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'd': %s", path, NULLS_1_OF_6));
    pqt_table_close(t);
}

/* Integers are compared as integers: 2^53 + 1 is not 2^53. */
static void test_int64_exact(void)
{
    static const struct {
        const char *rule, *declared;
        int nout;
    } cases[] = {
        {"big, , <=9007199254740992", "max <= 9007199254740992", 1},
        {"big, , <9007199254740993", "max < 9007199254740993", 1},
        {"big, , <=9007199254740993", NULL, 0},
        {"big, >=9007199254740993", "min >= 9007199254740993", 5},
        {"big, >9007199254740992", "min > 9007199254740992", 5},
        {"big, >=1, <=9007199254740993", NULL, 0},
        {"big, >1", "min > 1", 1},
        /* a float bound on an int column is refused at open (below); an int bound on a
         * float column compares exactly too: covered by ra's 0 and 360 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pqt_table *t = open1(cases[i].rule, 0);
        int64_t v[6];
        pqt_status st = pqt_table_get(t, "big", 0, v, sizeof v, NULL, 0);
        if (cases[i].nout == 0) {
            CHECK_OK(st);
            CHECK(v[0] == 9007199254740993LL);
        } else {
            CHECK_EQ_I64(st, PQT_QC);
            CHECK_MSG(WANT("pqt_table_get: %s: qc violation for column 'big': declared %s, data "
                           "range [1, 9007199254740993], %d of 6 valid element(s) out of range",
                           path, cases[i].declared, cases[i].nout));
        }
        pqt_table_close(t);
    }
}

/* Vectors and lists element by element; strings bytewise. */
static void test_elementwise(void)
{
    pqt_column_view view = {.struct_size = sizeof view};
    pqt_table *t = open1("vec, , <=50", 0);
    CHECK_EQ_I64(pqt_table_column(t, "vec", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'vec': declared max <= 50, "
                   "data range [1, 60], 1 of 12 valid element(s) out of range",
                   path));
    CHECK_EQ_I64(residency(t, "vec"), PQT_RES_EMPTY);
    pqt_table_close(t);
    t = open1("vec, 1, 60", 0); /* inclusive at both ends */
    CHECK_OK(pqt_table_column(t, "vec", 0, &view));
    CHECK_EQ_I64(view.kind, PQT_INT32 | PQT_VECTOR);
    CHECK_EQ_I64(view.width, 2);
    pqt_table_close(t);
    t = open1("vec, >1", 0); /* exclusive */
    CHECK_EQ_I64(pqt_table_column(t, "vec", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'vec': declared min > 1, data "
                   "range [1, 60], 1 of 12 valid element(s) out of range",
                   path));
    pqt_table_close(t);

    /* a list: 7 elements (one null) and one null row; min over the 6 present */
    t = open1("lst, >=0, , ", 0);
    CHECK_EQ_I64(pqt_table_column(t, "lst", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'lst': declared min >= 0, data "
                   "range [-1.0, 5.0], 1 of 6 valid element(s) out of range; 2 of 8 element(s) "
                   "are Null (qc: miss: is declared empty, so Nulls are not expected here)",
                   path));
    pqt_table_close(t);
    t = open1("lst, -1, 5, Null", 0);
    CHECK_OK(pqt_table_column(t, "lst", 0, &view));
    CHECK_EQ_I64(view.nelem, 7);
    pqt_table_close(t);

    t = open1("name, >=b", 0);
    CHECK_EQ_I64(pqt_table_column(t, "name", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'name': declared min >= b, "
                   "data range ['a', 'e'], 1 of 5 valid element(s) out of range",
                   path));
    pqt_table_close(t);
    t = open1("name, a, <'e'", 0);
    CHECK_EQ_I64(pqt_table_column(t, "name", 0, &view), PQT_QC);
    CHECK_MSG(WANT("pqt_table_column: %s: qc violation for column 'name': declared min >= a, "
                   "max < e, data range ['a', 'e'], 1 of 5 valid element(s) out of range",
                   path));
    pqt_table_close(t);
    t = open1("name, a, e", 0);
    CHECK_OK(pqt_table_column(t, "name", 0, &view));
    pqt_table_close(t);

    /* NaN is never out of range: only -5 and 400 are (above), so [-5, 400] passes */
    t = open1("ra, -5, 400", 0);
    double v[6];
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
    CHECK(isnan(v[5]));
    pqt_table_close(t);
    t = open1("ra, >-5, <400", 0);
    CHECK_EQ_I64(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_MSG(WANT("pqt_table_get: %s: qc violation for column 'ra': declared min > -5, max < "
                   "400, data range [-5.0, 400.0], 2 of 5 valid element(s) out of range",
                   path));
    pqt_table_close(t);
}

/* Soft mode: the same text through the warning callback, once per column per kind, and the
 * data intact. */
static void test_soft(void)
{
    nwarn = 0;
    pqt_set_warning_callback(on_warning, NULL);
    pqt_table *t = open1("ra, >=0, <=360, ", 1);
    CHECK_EQ_I64(nwarn, 0);
    double v[6];
    uint8_t valid[1] = {0};
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, valid, sizeof valid));
    CHECK(v[0] == 10 && v[1] == -5 && v[2] == 400 && v[3] == 0 && v[4] == 20 && isnan(v[5]));
    CHECK_EQ_I64(valid[0] & 0x3F, 0x37);
    CHECK_EQ_I64(nwarn, 2);
    if (nwarn == 2) {
        CHECK_STR(warns[0], WANT("pqt_table_get: %s: qc violation for column 'ra': %s", path,
                                 RA_RANGE));
        CHECK_STR(warns[1], WANT("pqt_table_get: %s: qc violation for column 'ra': %s", path,
                                 NULLS_1_OF_6));
    }
    /* read again (unread after a direct copy), make resident, evict, re-read: no repeat */
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
    const char *ra = "ra";
    CHECK_OK(pqt_table_prefetch(t, &ra, 1));
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_FULL);
    CHECK_OK(pqt_table_evict(t, "ra", 0));
    pqt_column_view view = {.struct_size = sizeof view};
    CHECK_OK(pqt_table_column(t, "ra", 0, &view));
    CHECK_EQ_I64(view.nrows, 6);
    CHECK(((const double *)view.data)[2] == 400);
    CHECK_OK(pqt_table_reload(t, "ra", 0));
    CHECK_EQ_I64(nwarn, 2);
    pqt_table_close(t);

    /* each column warns on its own; a kind already warned stays quiet */
    static const char *const rules[] = {"ra, >=0, <=360", "big, , <=9007199254740992, ",
                                        "name, , , Null"};
    nwarn = 0;
    REQUIRE_OK(open_qc(rules, 3, 1, NULL, 2, &t));
    CHECK_OK(pqt_table_materialize_all(t));
    CHECK_EQ_I64(nwarn, 2); /* ra's range and big's range; big has no null, name is fine */
    if (nwarn == 2) {
        CHECK_STR(warns[0], WANT("pqt_table_materialize_all: %s: qc violation for column 'ra': "
                                 "%s", path, RA_RANGE));
        CHECK_STR(warns[1], WANT("pqt_table_materialize_all: %s: qc violation for column 'big': "
                                 "declared max <= 9007199254740992, data range [1, "
                                 "9007199254740993], 1 of 6 valid element(s) out of range",
                                 path));
    }
    int64_t b[6];
    CHECK_OK(pqt_table_get(t, "big", 0, b, sizeof b, NULL, 0));
    CHECK(b[0] == 9007199254740993LL && b[5] == 4);
    pqt_table_close(t);
    pqt_set_warning_callback(NULL, NULL);
}

/* A filter at open is a first touch of its columns: checked at open, over the rows the
 * filter keeps, and nothing stays resident. */
static void test_filter_at_open(void)
{
    const char *rule = "ra, >=0, <=360";
    pqt_table *t = NULL;
    /* ids 1, 2, 3, 5 pass id != 6; of them ra <= 360 keeps 10, -5, 20 (400 fails, the null
     * is unknown); -5 is out of range */
    CHECK_EQ_I64(open_qc(&rule, 1, 0, "id != 6 and ra <= 360", 1, &t), PQT_QC);
    CHECK_MSG(WANT("pqt_table_open: %s: qc violation for column 'ra': declared min >= 0, max <= "
                   "360, data range [-5.0, 20.0], 1 of 3 valid element(s) out of range",
                   path));
    CHECK(t == NULL);
    /* the filter does not name ra: nothing checked at open */
    REQUIRE_OK(open_qc(&rule, 1, 0, "id >= 2", 1, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), 5);
    double v[5];
    CHECK_EQ_I64(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_MSG(WANT("pqt_table_get: %s: qc violation for column 'ra': declared min >= 0, max <= "
                   "360, data range [-5.0, 400.0], 2 of 4 valid element(s) out of range",
                   path));
    pqt_table_close(t);
    /* a filter that keeps only good values: the open passes, ra is still unread */
    REQUIRE_OK(open_qc(&rule, 1, 0, "ra >= 0 and ra <= 360", 1, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), 2);
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
    CHECK(v[0] == 10 && v[1] == 20);
    pqt_table_close(t);
    /* soft: the warning comes from the open, once */
    nwarn = 0;
    pqt_set_warning_callback(on_warning, NULL);
    REQUIRE_OK(open_qc(&rule, 1, 1, "id != 6 and ra <= 360", 1, &t));
    CHECK_EQ_I64(nwarn, 1);
    if (nwarn == 1)
        CHECK_STR(warns[0], WANT("pqt_table_open: %s: qc violation for column 'ra': declared "
                                 "min >= 0, max <= 360, data range [-5.0, 20.0], 1 of 3 valid "
                                 "element(s) out of range",
                                 path));
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
    CHECK(v[0] == 10 && v[1] == -5 && v[2] == 20);
    CHECK_EQ_I64(nwarn, 1);
    pqt_table_close(t);
    pqt_set_warning_callback(NULL, NULL);
}

/* pqt_table_validate_qc: checks every ruled column not resident, leaves residency as found. */
static void test_validate(void)
{
    static const char *const rules[] = {"big, >=1", "ra, >=0, <=360", "id, 1, 6"};
    pqt_table *t = NULL;
    REQUIRE_OK(open_qc(rules, 3, 0, NULL, 1, &t));
    const char *id = "id";
    CHECK_OK(pqt_table_prefetch(t, &id, 1));
    uint64_t gen = pqt_table_generation(t);
    CHECK_EQ_I64(pqt_table_validate_qc(t), PQT_QC);
    CHECK_MSG(WANT("pqt_table_validate_qc: %s: qc violation for column 'ra': %s", path, RA_RANGE));
    CHECK_EQ_I64(residency(t, "id"), PQT_RES_FULL);
    CHECK_EQ_I64(residency(t, "big"), PQT_RES_EMPTY);
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);
    CHECK(pqt_table_generation(t) == gen);
    pqt_table_close(t);

    /* a rule never touched is never reported, until validate_qc */
    t = open1("vec, , <=50", 0);
    int64_t ids[6];
    CHECK_OK(pqt_table_get(t, "id", 0, ids, sizeof ids, NULL, 0));
    CHECK_EQ_I64(pqt_table_validate_qc(t), PQT_QC);
    CHECK(strstr(pqt_errmsg(), "column 'vec'") != NULL);
    CHECK_EQ_I64(residency(t, "vec"), PQT_RES_EMPTY);
    /* detached: a no-op */
    CHECK_OK(pqt_table_truncate(t, 2));
    CHECK(pqt_table_is_detached(t));
    CHECK_OK(pqt_table_validate_qc(t));
    pqt_table_close(t);

    /* passing rules: OK, and residency untouched */
    t = open1("ra, -5, 400", 0);
    CHECK_OK(pqt_table_validate_qc(t));
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);
    pqt_table_close(t);

    /* soft: the warnings, once */
    nwarn = 0;
    pqt_set_warning_callback(on_warning, NULL);
    REQUIRE_OK(open_qc(rules, 3, 1, NULL, 1, &t));
    CHECK_OK(pqt_table_validate_qc(t));
    CHECK_OK(pqt_table_validate_qc(t));
    CHECK_EQ_I64(nwarn, 1);
    if (nwarn == 1)
        CHECK_STR(warns[0], WANT("pqt_table_validate_qc: %s: qc violation for column 'ra': %s",
                                 path, RA_RANGE));
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);
    pqt_table_close(t);
    pqt_set_warning_callback(NULL, NULL);

    /* no rules, an in-memory table: no-ops */
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    CHECK_OK(pqt_table_validate_qc(t));
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_validate_qc(t));
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_table_validate_qc(NULL), PQT_MISUSE);
}

/* The rows checked are the table's: a slice's; and table operations that read a column
 * (sort_by, filter_rows, row_mask) are first touches too. */
static void test_slice_and_table_ops(void)
{
    pqt_opts *o;
    pqt_qc *qc;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, "ra, >=0, <=360"));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 3));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 6));
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(path, o, &t));
    double v[4];
    /* rows 3..6: 400, null, 20, NaN -> present 400, 20, NaN; 400 is out */
    CHECK_EQ_I64(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_MSG(WANT("pqt_table_get: %s: qc violation for column 'ra': declared min >= 0, max <= "
                   "360, data range [20.0, 400.0], 1 of 3 valid element(s) out of range",
                   path));
    pqt_table_close(t);
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, 1)); /* the slice 1..1: ra = 10, in range */
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, 1));
    REQUIRE_OK(pqt_table_open(path, o, &t));
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
    CHECK(v[0] == 10);
    pqt_table_close(t);
    pqt_qc_free(qc);
    pqt_opts_free(o);

    t = open1("ra, >=0, <=360", 0);
    const char *key = "ra";
    CHECK_EQ_I64(pqt_table_sort_by_names(t, &key, 1, NULL, NULL), PQT_QC);
    CHECK(strstr(pqt_errmsg(), "pqt_table_sort_by_names") != NULL);
    CHECK_EQ_I64(pqt_table_filter_rows(t, "ra > 0"), PQT_QC);
    uint8_t keep[6];
    CHECK_EQ_I64(pqt_table_row_mask(t, "ra > 0", keep), PQT_QC);
    CHECK_EQ_I64(pqt_table_nrows(t), 6);
    CHECK(!pqt_table_is_detached(t));
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_EMPTY);
    CHECK_OK(pqt_table_filter_rows(t, "id > 3")); /* id has no rule */
    CHECK_EQ_I64(pqt_table_nrows(t), 3);
    /* rows 4..6 now: null, 20, NaN -> nothing out of range */
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
    CHECK(v[1] == 20);
    pqt_table_close(t);
}

/* Rules that do not fit the file are refused at open, before any data is read. */
static void test_open_errors(void)
{
    static const struct {
        const char *rule;
        pqt_status st;
        const char *msg;
    } cases[] = {
        {"mas, >0", PQT_NOT_FOUND, "qc rule for column 'mas': no column 'mas'"},
        {"parquet_row_index, 1", PQT_NOT_FOUND, "the row index is generated"},
        {"big, 1.5", PQT_KIND, "qc rule for column 'big': the min bound '1.5' is not an integer, "
                               "and the column is int64"},
        {"vec, , 2147483648", PQT_KIND, "qc rule for column 'vec': the max bound 2147483648 is "
                                        "outside the range of the column's kind int32"},
        {"big, , 9223372036854775808", PQT_KIND, "qc rule for column 'big': the max bound "
                                                 "9223372036854775808 is outside the range of "
                                                 "the column's kind int64"},
        {"ra, abc", PQT_KIND, "the min bound 'abc' is not a number, and the column is float64"},
        {"d, 5", PQT_KIND, "qc rule for column 'd': min/max bounds are not supported on a date "
                           "column"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pqt_table *t = NULL;
        CHECK_EQ_I64(open_qc(&cases[i].rule, 1, 0, NULL, 1, &t), cases[i].st);
        if (!strstr(pqt_errmsg(), cases[i].msg) || !strstr(pqt_errmsg(), "pqt_table_open: ")) {
            fprintf(stderr, "rule \"%s\": message \"%s\" lacks \"%s\"\n", cases[i].rule,
                    pqt_errmsg(), cases[i].msg);
            pqt_test_failures++;
        }
        CHECK(t == NULL);
    }
    /* strings take any literal, even one that looks like a number */
    pqt_table *t = open1("name, 5", 0);
    pqt_column_view view = {.struct_size = sizeof view};
    CHECK_OK(pqt_table_column(t, "name", 0, &view)); /* "5" < "a": every name passes */
    pqt_table_close(t);
}

/* Sort at open: a top-n keeps its key columns resident, so their rules are checked at open
 * over the kept rows; a full sort releases its keys, which meet their rules at first touch.
 * ra by id: 10, -5, 400, null, 20, NaN. */
static pqt_status open_sorted(const char *rule, int soft, const char *keys, int64_t limit,
                              pqt_table **t)
{
    pqt_opts *o;
    pqt_qc *qc;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_qc_new(&qc));
    REQUIRE_OK(pqt_qc_add(qc, rule));
    REQUIRE_OK(pqt_opts_set_qc(o, qc));
    pqt_qc_free(qc);
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, soft));
    REQUIRE_OK(pqt_opts_set_sort(o, keys));
    if (limit >= 0) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_LIMIT, limit));
    pqt_status st = pqt_table_open(path, o, t);
    pqt_opts_free(o);
    return st;
}

static void test_sort_at_open(void)
{
    const char *rule = "ra, >=0, <=360";
    pqt_table *t = NULL;
    /* the two largest: 400 and 20 */
    CHECK_EQ_I64(open_sorted(rule, 0, "-ra", 2, &t), PQT_QC);
    CHECK_MSG(WANT("pqt_table_open: %s: qc violation for column 'ra': declared min >= 0, max <= "
                   "360, data range [20.0, 400.0], 1 of 2 valid element(s) out of range",
                   path));
    CHECK(t == NULL);
    /* the two smallest: -5 and 10 */
    CHECK_EQ_I64(open_sorted(rule, 0, "ra", 2, &t), PQT_QC);
    CHECK_MSG(WANT("pqt_table_open: %s: qc violation for column 'ra': declared min >= 0, max <= "
                   "360, data range [-5.0, 10.0], 1 of 2 valid element(s) out of range",
                   path));
    /* soft: one warning from the open, the kept keys resident and right */
    nwarn = 0;
    pqt_set_warning_callback(on_warning, NULL);
    REQUIRE_OK(open_sorted(rule, 1, "-ra", 2, &t));
    CHECK_EQ_I64(nwarn, 1);
    if (nwarn == 1)
        CHECK_STR(warns[0], WANT("pqt_table_open: %s: qc violation for column 'ra': declared "
                                 "min >= 0, max <= 360, data range [20.0, 400.0], 1 of 2 valid "
                                 "element(s) out of range",
                                 path));
    double v[6];
    CHECK_EQ_I64(residency(t, "ra"), PQT_RES_FULL);
    CHECK_OK(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0));
    CHECK(v[0] == 400 && v[1] == 20);
    CHECK_EQ_I64(nwarn, 1);
    pqt_table_close(t);
    pqt_set_warning_callback(NULL, NULL);
    /* a full sort: the open passes, the first touch fails */
    REQUIRE_OK(open_sorted(rule, 0, "-ra", -1, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), 6);
    CHECK_EQ_I64(pqt_table_get(t, "ra", 0, v, sizeof v, NULL, 0), PQT_QC);
    CHECK_MSG(WANT("pqt_table_get: %s: qc violation for column 'ra': %s", path, RA_RANGE));
    pqt_table_close(t);
}

int main(void)
{
    write_file();
    test_hard_first_touch();
    test_miss_states();
    test_int64_exact();
    test_elementwise();
    test_soft();
    test_filter_at_open();
    test_validate();
    test_open_errors();
    test_slice_and_table_ops();
    test_sort_at_open();
    unlink(path);
    return pqt_test_done("test_qc_table");
}
