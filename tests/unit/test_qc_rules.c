/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_qc_rules.c - the qc rule grammar of docs/qc.md (pqt_qc_add): every example of
 * that page, the three miss states, each error with its message, and the options that carry
 * rules (pqt_opts_set_qc, PQT_OPT_QC_SOFT). No file is read here (test_qc_table.c does).
 * Truth: the spec's examples, normalised by hand into pqt_qc_describe's wording.
 */
#include <string.h>

#include "pqt.h"
#include "testutil.h"

/* The one-rule description of `rule`, or "ERROR <status>". */
static const char *describe1(const char *rule)
{
    static char buf[512];
    pqt_qc *qc;
    REQUIRE_OK(pqt_qc_new(&qc));
    pqt_status st = pqt_qc_add(qc, rule);
    if (st != PQT_OK) snprintf(buf, sizeof buf, "ERROR %s", pqt_status_name(st));
    else pqt_qc_describe(qc, buf, sizeof buf);
    pqt_qc_free(qc);
    return buf;
}

#define CHECK_DESC(rule, want)                                                                     \
    do {                                                                                           \
        const char *got_ = describe1(rule);                                                        \
        if (strcmp(got_, want) != 0) {                                                             \
            fprintf(stderr, "%s:%d: rule \"%s\": got \"%s\", want \"%s\"\n", __FILE__, __LINE__,   \
                    rule, got_, want);                                                             \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* pqt_qc_add(rule) fails with PQT_MISUSE, a message holding `part`, and adds nothing. */
#define CHECK_BAD(rule, part)                                                                      \
    do {                                                                                           \
        pqt_qc *qc_;                                                                               \
        REQUIRE_OK(pqt_qc_new(&qc_));                                                              \
        pqt_status st_ = pqt_qc_add(qc_, rule);                                                    \
        CHECK_EQ_I64(st_, PQT_MISUSE);                                                             \
        if (!strstr(pqt_errmsg(), part)) {                                                         \
            fprintf(stderr, "%s:%d: rule \"%s\": message \"%s\" lacks \"%s\"\n", __FILE__,         \
                    __LINE__, rule, pqt_errmsg(), part);                                           \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
        CHECK_EQ_I64(pqt_qc_nrules(qc_), 0);                                                       \
        pqt_qc_free(qc_);                                                                          \
    } while (0)

static void test_examples(void)
{
    /* docs/qc.md's examples */
    CHECK_DESC("mass, >0", "qc: column 'mass': min > 0\n");
    CHECK_DESC("ra, >=0, <=360, Null", "qc: column 'ra': min >= 0, max <= 360, Nulls expected\n");
    CHECK_DESC("dec, , <=90", "qc: column 'dec': max <= 90\n");
    CHECK_DESC("ra,,, Null", "qc: column 'ra': Nulls expected\n");
    CHECK_DESC("mag, 5", "qc: column 'mag': min >= 5\n"); /* a bare value is inclusive */
    CHECK_DESC("mass, >0, <=1000, Null", "qc: column 'mass': min > 0, max <= 1000, Nulls expected\n");
    CHECK_DESC("flag, , , NA", "qc: column 'flag': Nulls expected\n");
    /* more shapes */
    CHECK_DESC("x, , 7", "qc: column 'x': max <= 7\n");
    CHECK_DESC("x, 0, 360", "qc: column 'x': min >= 0, max <= 360\n"); /* ≡ ">=0", "<=360" */
    CHECK_DESC("x, , <7.5", "qc: column 'x': max < 7.5\n");
    CHECK_DESC("x, > -3e2", "qc: column 'x': min > -3e2\n");
    CHECK_DESC("  x  ", "qc: column 'x': checks nothing\n");
    CHECK_DESC("x,", "qc: column 'x': checks nothing\n");
    CHECK_DESC("a.b.c, >= 'lo', <= \"hi\"", "qc: column 'a.b.c': min >= lo, max <= hi\n");
    /* the three miss states: absent, Null/NA in any case, present but empty */
    CHECK_DESC("x, 1, 2", "qc: column 'x': min >= 1, max <= 2\n");
    CHECK_DESC("x, 1, 2, null", "qc: column 'x': min >= 1, max <= 2, Nulls expected\n");
    CHECK_DESC("x, 1, 2, NULL", "qc: column 'x': min >= 1, max <= 2, Nulls expected\n");
    CHECK_DESC("x, 1, 2, na", "qc: column 'x': min >= 1, max <= 2, Nulls expected\n");
    CHECK_DESC("x, 1, 2,", "qc: column 'x': min >= 1, max <= 2, Nulls not expected\n");
    CHECK_DESC("x,,,", "qc: column 'x': Nulls not expected\n");
    CHECK_DESC("x, , ,  ", "qc: column 'x': Nulls not expected\n");
    /* integers are kept as written: no rounding past 2^53 */
    CHECK_DESC("big, >9007199254740993", "qc: column 'big': min > 9007199254740993\n");
    CHECK_DESC("big, , 9223372036854775807", "qc: column 'big': max <= 9223372036854775807\n");
    CHECK_DESC("big, -9223372036854775808", "qc: column 'big': min >= -9223372036854775808\n");
}

static void test_errors(void)
{
    CHECK_BAD(", >0", "has no column name");
    CHECK_BAD("  , 1, 2", "has no column name");
    CHECK_BAD("a, 1, 2, Null, x", "more than four fields");
    CHECK_BAD("a,,,,", "more than four fields");
    CHECK_BAD("a, <5", "the min field takes >= or > (or a bare value, meaning >=), not '<'");
    CHECK_BAD("a, <=5", "not '<='");
    CHECK_BAD("a, , >5", "the max field takes <= or < (or a bare value, meaning <=), not '>'");
    CHECK_BAD("a, , >=5", "not '>='");
    CHECK_BAD("a, >=", "the min operator >= has no value");
    CHECK_BAD("a, >  ", "the min operator > has no value");
    CHECK_BAD("a, , <", "the max operator < has no value");
    CHECK_BAD("a, =5", "not '='");
    CHECK_BAD("a,,, maybe", "the miss field is 'maybe'");
    CHECK_BAD("a,,, Nil", "takes Null or NA");
    CHECK_BAD("a, nan", "the min bound 'nan' is not finite");
    CHECK_BAD("a, , <-Infinity", "the max bound '-Infinity' is not finite");
    CHECK_BAD("a, , <=inf", "the max bound 'inf' is not finite");
    CHECK_BAD("a, 1e999", "the min bound '1e999' is not finite");
    CHECK_BAD("a, 18446744073709551616", "outside the 64-bit range"); /* 2^64 */
    CHECK_BAD("a, , 99999999999999999999", "outside the 64-bit range");
    CHECK_BAD("a, , -99999999999999999999", "outside the 64-bit range");

    /* one rule per column; a failed add changes nothing */
    pqt_qc *qc;
    REQUIRE_OK(pqt_qc_new(&qc));
    CHECK_OK(pqt_qc_add(qc, "a, 1"));
    CHECK_EQ_I64(pqt_qc_add(qc, " a ,2"), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "column 'a' already has a rule") != NULL);
    CHECK_EQ_I64(pqt_qc_add(qc, "b, <1"), PQT_MISUSE);
    CHECK_EQ_I64(pqt_qc_nrules(qc), 1);
    CHECK_OK(pqt_qc_add(qc, "   ")); /* all blank: a no-op */
    CHECK_OK(pqt_qc_add(qc, ""));
    CHECK_EQ_I64(pqt_qc_nrules(qc), 1);
    CHECK_OK(pqt_qc_add(qc, "b, , 3"));
    char buf[256];
    int64_t n = pqt_qc_describe(qc, buf, sizeof buf);
    CHECK(strcmp(buf, "qc: column 'a': min >= 1\nqc: column 'b': max <= 3\n") == 0);
    CHECK_EQ_I64(n, (int64_t)strlen(buf));
    CHECK_EQ_I64(pqt_qc_describe(qc, NULL, 0), n); /* the size, snprintf-style */
    pqt_qc_clear(qc);
    CHECK_EQ_I64(pqt_qc_nrules(qc), 0);
    CHECK_OK(pqt_qc_add(qc, "a, 2")); /* cleared: the name is free again */
    CHECK_EQ_I64(pqt_qc_add(NULL, "a"), PQT_MISUSE);
    CHECK_EQ_I64(pqt_qc_add(qc, NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_qc_new(NULL), PQT_MISUSE);
    CHECK_EQ_I64(pqt_qc_nrules(NULL), 0);
    pqt_qc_free(qc);
    pqt_qc_free(NULL);
}

static void test_options(void)
{
    CHECK(strcmp(pqt_status_name(PQT_QC), "PQT_QC") == 0);
    CHECK_EQ_I64(PQT_QC, 60);
    CHECK_EQ_I64(PQT_OPT_QC_SOFT, 16);
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, 1));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, 0));
    CHECK_EQ_I64(pqt_opts_set_int(o, PQT_OPT_QC_SOFT, 2), PQT_MISUSE);
    CHECK(strstr(pqt_errmsg(), "PQT_OPT_QC_SOFT takes 0 (hard) or 1 (soft), got 2") != NULL);
    pqt_qc *qc;
    REQUIRE_OK(pqt_qc_new(&qc));
    CHECK_OK(pqt_qc_add(qc, "a, 1"));
    CHECK_OK(pqt_opts_set_qc(o, qc));
    CHECK_OK(pqt_opts_set_qc(o, qc)); /* replaces */
    CHECK_OK(pqt_opts_set_qc(o, NULL));
    CHECK_EQ_I64(pqt_opts_set_qc(NULL, qc), PQT_MISUSE);
    pqt_qc_free(qc);
    pqt_opts_free(o);
}

int main(void)
{
    test_examples();
    test_errors();
    test_options();
    return pqt_test_done("test_qc_rules");
}
