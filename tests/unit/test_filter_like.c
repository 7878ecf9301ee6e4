/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_like.c - the SQL spellings below the grammar (docs/filters.md, "SQL
 * spellings"): LIKE / ILIKE (% any run, _ one UTF-8 character, ESCAPE, ASCII-only case
 * folding, the empty pattern, %%), NOT LIKE with nulls, their --explain text, single-quoted
 * strings, unquoted ISO dates / times / timestamps against every temporal kind and unit (and
 * the hint when one meets another kind), the ISO lexer itself, and the pushdown a LIKE keeps:
 * its literal prefix prunes row groups by statistics and its pattern by the dictionary like
 * starts_with, an exact pattern is probed in bloom filters.
 * Truth: hand-written match tables; hand-counted rows of a file whose row groups are laid
 * out below; epoch days computed by hand (2018-01-01 = day 17532).
 */
#include <string.h>
#include <unistd.h>

#include "filter_testkit.h"
#include "pqt.h"
#include "scan/filter_lex.h"

/* ---- an in-memory string column ---- */

#define NS 15
/* 0 abc, 1 aXc, 2 ABC, 3 "", 4 a%c, 5 a_c, 6 héllo, 7 hello, 8 ab, 9 abcabc, 10 null,
 * 11 a\c, 12 日本語, 13 xabcx, 14 it's */
static const char s_bytes[] = "abcaXcABCa%ca_ch\xc3\xa9llohelloababcabca\\c"
                              "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9exabcxit's";
static const int64_t s_off[NS + 1] = {0, 3, 6, 9, 9, 12, 15, 21, 26, 28, 34, 34, 37, 46, 51, 55};
static const uint8_t s_valid[] = {0xff, 0x7b}; /* row 10 null */
static const int64_t x[NS] = {0};
static const uint8_t flag[NS] = {0};

static tk_table strings(void)
{
    tk_table t = {.nrows = NS};
    tk_add(&t, "s", PQT_STRING, -1, s_off, s_bytes, s_valid);
    tk_add(&t, "x", PQT_INT64, -1, x, NULL, NULL);
    tk_add(&t, "flag", PQT_BOOL, -1, flag, NULL, NULL);
    return t;
}

static void like_table(const tk_table *t)
{
    CHECK_ROWS(t, "s like 'abc'", "0");
    CHECK_ROWS(t, "s like 'a_c'", "0 1 4 5 11");
    CHECK_ROWS(t, "s like 'a%c'", "0 1 4 5 9 11");
    CHECK_ROWS(t, "s like 'h_llo'", "6 7"); /* é is one character */
    CHECK_ROWS(t, "s like 'h__llo'", "");   /* ... not two */
    CHECK_ROWS(t, "s like '___'", "0 1 2 4 5 11 12");
    CHECK_ROWS(t, "s like ''", "3");
    CHECK_ROWS(t, "s like '%'", "0 1 2 3 4 5 6 7 8 9 11 12 13 14");
    CHECK_ROWS(t, "s like '%%'", "0 1 2 3 4 5 6 7 8 9 11 12 13 14");
    CHECK_ROWS(t, "s like '_%'", "0 1 2 4 5 6 7 8 9 11 12 13 14");
    CHECK_ROWS(t, "s like '%bc'", "0 9");
    CHECK_ROWS(t, "s like '%bc%'", "0 9 13");
    CHECK_ROWS(t, "s like 'ab%'", "0 8 9");
    CHECK_ROWS(t, "s like '%c%c'", "9");
    CHECK_ROWS(t, "s like 'a%b%c'", "0 9");
    CHECK_ROWS(t, "s like '%\xe6\x97\xa5_\xe8\xaa\x9e'", "12");
    CHECK_ROWS(t, "s like '%a_'", "8");
    CHECK_ROWS(t, "s like '%%%_%%c'", "0 1 4 5 9 11");
    CHECK_ROWS(t, "s like 'abc_'", "");
    /* no escape unless one is given (as DuckDB): \ is an ordinary character */
    CHECK_ROWS(t, "s like 'a\\%c'", "11");
    CHECK_ROWS(t, "s like 'a\\%c' escape '\\'", "4");
    CHECK_ROWS(t, "s like 'a\\_c' ESCAPE '\\'", "5");
    CHECK_ROWS(t, "s like 'a\\\\c' escape '\\'", "11");
    CHECK_ROWS(t, "s like '%\\%%' escape '\\'", "4");
    CHECK_ROWS(t, "s like 'a!%c' escape '!'", "4");
    CHECK_ROWS(t, "s like 'a\xc3\xa9%c' escape '\xc3\xa9'", "4"); /* a two-byte escape */
    CHECK_ROWS(t, "s like '_!_%' escape \"!\"", "5");
    /* ILIKE folds ASCII letters only */
    CHECK_ROWS(t, "s ilike 'ABC'", "0 2");
    CHECK_ROWS(t, "s ilike 'a_C'", "0 1 2 4 5 11");
    CHECK_ROWS(t, "s ilike 'H\xc3\x89LLO'", ""); /* É is not é here */
    CHECK_ROWS(t, "s ilike 'H_LLO'", "6 7");
    CHECK_ROWS(t, "s ilike '%BC%'", "0 2 9 13");
    CHECK_ROWS(t, "s ilike '%\\%%' escape '\\'", "4");
    CHECK_ROWS(t, "s ilike 'IT''S'", "14");
    /* keywords in any case; NOT keeps nulls out */
    CHECK_ROWS(t, "s LIKE 'abc'", "0");
    CHECK_ROWS(t, "s Ilike 'abc'", "0 2");
    CHECK_ROWS(t, "not s like 'a%c'", "2 3 6 7 8 12 13 14");
    CHECK_ROWS(t, "not s like 'ab%'", "1 2 3 4 5 6 7 11 12 13 14");
    CHECK_ROWS(t, "s like 'a%c' or s is_null", "0 1 4 5 9 10 11");
    /* errors */
    CHECK_BAD(t, "x like 'a%'",
              "filter rule 'x like 'a%'': like applies only to string "
              "columns; column 'x' is int64",
              3);
    CHECK_BAD(t, "s like 5", "like takes a quoted pattern such as 'abc%'", 8);
    CHECK_BAD(t, "s like 2018-01-01", "like takes a quoted pattern", 8);
    CHECK_BAD(t, "s like 'abc\\' escape '\\'",
              "the pattern ends with its escape character '\\' (write it twice for a literal "
              "one)",
              8);
    CHECK_BAD(t, "s like 'abc' escape 'ab'",
              "filter rule 's like 'abc' escape': escape takes one character in quotes, such as "
              "escape '\\'",
              14);
    CHECK_BAD(t, "s like 'abc' escape", "escape takes one character in quotes", 14);
    CHECK_BAD(t, "s like 'abc' escape ''", "escape takes one character in quotes", 14);
}

static void quotes(const tk_table *t)
{
    CHECK_ROWS(t, "s == 'abc'", "0");
    CHECK_ROWS(t, "s=='abc'", "0");
    CHECK_ROWS(t, "s == 'it''s'", "14");
    CHECK_ROWS(t, "s == \"it's\"", "14");
    CHECK_ROWS(t, "s in ('abc', \"ab\", 'it''s')", "0 8 14");
    CHECK_ROWS(t, "s not_in ('abc','ab')", "1 2 3 4 5 6 7 9 11 12 13 14");
    CHECK_ROWS(t, "s == ''", "3");
    CHECK_ROWS(t, "s == 'a b' or s == '(x)' or s == 'and'", "");
    CHECK_BAD(t, "s == 'abc", "filter expression 's == 'abc' has an unterminated quoted value", 6);
    CHECK_BAD(t, "s in ('abc, 'x')",
              "the list after 'in'/'not_in' expects ',' or ')' but found 'x'",
              14); /* 'abc, ' is one string */
    CHECK_BAD(t, "s in ('abc', 'x)", "unterminated quoted value", 14);
}

/* The compiled leaf as --explain writes it: simple shapes are the operator they mean. */
static void text(const tk_table *t)
{
    static const char *const cases[][2] = {
        {"s like 'a_c%'", "s like \"a_c%\""},
        {"s like 'obj%'", "s starts_with \"obj\""},
        {"s like '%obj'", "s ends_with \"obj\""},
        {"s like '%obj%%'", "s contains \"obj\""},
        {"s like 'obj'", "s == \"obj\""},
        {"s like '%'", "s starts_with \"\""},
        {"s ilike 'OB_'", "s ilike \"ob_\""},
        {"s ilike 'OBJ%'", "s ilike \"obj%\""},
        {"s ilike '12-%'", "s starts_with \"12-\""},
        {"s ilike '12-3'", "s == \"12-3\""},
        {"not s like 'a_c'", "not (s like \"a_c\")"},
        {"not s like 'abc'", "s /= \"abc\""},
        {"s like 'a\\%_' escape '\\'", "s like \"a\\%_\" escape \"\\\""},
        {"s like 'a!\\_' escape '!'", "s like \"a\\\\_\" escape \"\\\""},
        {"s like 'a\"_'", "s like \"a\"\"_\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pqt_filter *f;
        REQUIRE_OK(pqt_filter_new(&f));
        CHECK_OK(pqt_filter_add(f, cases[i][0]));
        pqt_status st;
        pqt_fprog *p = tk_compile(t, f, &st);
        CHECK_OK(st);
        char buf[200] = "";
        if (p) pqt_scan_conj_text(p, 0, buf, sizeof buf);
        if (strcmp(buf, cases[i][1]) != 0) {
            fprintf(stderr, "%s: text [%s], expected [%s]\n", cases[i][0], buf, cases[i][1]);
            pqt_test_failures++;
        }
        /* the text is a rule that keeps the same rows */
        char a[200];
        snprintf(a, sizeof a, "%s", tk_rule(t, cases[i][0]));
        const char *b = tk_rule(t, buf);
        if (strcmp(a, b) != 0) {
            fprintf(stderr, "%s: kept [%s]; its text %s kept [%s]\n", cases[i][0], a, buf, b);
            pqt_test_failures++;
        }
        pqt_scan_prog_free(p);
        pqt_filter_free(f);
    }
}

/* ---- random patterns against a reference matcher over code points ---- */

/* UTF-8 (valid) to code points; returns the count. */
static int cps(const char *s, int n, uint32_t *out)
{
    int m = 0;
    for (int i = 0; i < n;) {
        uint8_t b = (uint8_t)s[i];
        int l = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        uint32_t c = l == 1 ? b : b & (0x3F >> (l - 1));
        for (int k = 1; k < l; k++)
            c = c << 6 | ((uint8_t)s[i + k] & 0x3F);
        out[m++] = c;
        i += l;
    }
    return m;
}

/* the definition, by dynamic programming: m[i][j] = text[i..] matches pattern[j..] */
static int ref_like(const uint32_t *t, int nt, const uint32_t *p, int np, int fold)
{
    static unsigned char m[40][40];
    for (int i = nt; i >= 0; i--)
        for (int j = np; j >= 0; j--) {
            if (j == np)
                m[i][j] = i == nt;
            else if (p[j] == '%')
                m[i][j] = m[i][j + 1] || (i < nt && m[i + 1][j]);
            else if (i == nt)
                m[i][j] = 0;
            else {
                uint32_t a = t[i], b = p[j];
                if (fold && a >= 'A' && a <= 'Z') a += 32;
                if (fold && b >= 'A' && b <= 'Z') b += 32;
                m[i][j] = (p[j] == '_' || a == b) && m[i + 1][j + 1];
            }
        }
    return m[0][0];
}

static void random_patterns(void)
{
    static const char *const alpha[] = {"a", "b", "A", "\xc3\xa9", "\xe6\x97\xa5", "%", "_"};
    uint64_t rng = 30;
    enum { NR = 24 };
    char bytes[NR * 40];
    int64_t off[NR + 1] = {0};
    for (int r = 0; r < NR; r++) { /* texts of 0..7 characters, no wildcards */
        int len = (int)(pqt_test_rand(&rng) % 8);
        char *o = bytes + off[r];
        for (int k = 0; k < len; k++) {
            const char *c = alpha[pqt_test_rand(&rng) % 5];
            memcpy(o, c, strlen(c));
            o += strlen(c);
        }
        off[r + 1] = o - bytes;
    }
    tk_table t = {.nrows = NR};
    tk_add(&t, "s", PQT_STRING, -1, off, bytes, NULL);
    for (int iter = 0; iter < 400; iter++) {
        char pat[64] = "";
        int plen = (int)(pqt_test_rand(&rng) % 6);
        for (int k = 0; k < plen; k++)
            strcat(pat, alpha[pqt_test_rand(&rng) % 7]);
        int fold = iter & 1;
        char rule[100], want[400] = "";
        snprintf(rule, sizeof rule, "s %s '%s'", fold ? "ilike" : "like", pat);
        uint32_t pc[40], tc[40];
        int np = cps(pat, (int)strlen(pat), pc);
        for (int r = 0; r < NR; r++) {
            int nt = cps(bytes + off[r], (int)(off[r + 1] - off[r]), tc);
            if (ref_like(tc, nt, pc, np, fold))
                snprintf(want + strlen(want), sizeof want - strlen(want), "%s%d",
                         want[0] ? " " : "", r);
        }
        CHECK_ROWS(&t, rule, want);
    }
}

/* ---- unquoted ISO literals ---- */

#define NT 4
#define D 17532LL /* 2018-01-01 */
#define MSD 86400000LL
static const int32_t d[NT] = {D - 1, D, D + 1, 0};
static const int64_t ts_ms[NT] = {D * MSD, D *MSD + 45000500, (D + 1) * MSD, 0};
static const int64_t ts_us[NT] = {D * MSD * 1000, D *MSD * 1000 + 45000500001LL,
                                  (D + 1) * MSD * 1000, 0};
static const int64_t ts_ns[NT] = {D * MSD * 1000000, D *MSD * 1000000 + 45000500000001LL,
                                  (D + 1) * MSD * 1000000, 0};
static const int64_t tm_ms[NT] = {44999999, 45000000, 45000500, 0};
static const int64_t tm_us[NT] = {44999999999LL, 45000000000LL, 45000000001LL, 0};
static const int64_t tm_ns[NT] = {44999999999999LL, 45000000000000LL, 45000000000001LL, 0};
static const uint8_t t_valid[] = {0x07}; /* row 3 null */
static const int64_t n_off[NT + 1] = {0, 10, 10, 10, 10};
static const int64_t num[NT] = {1, 2, 3, 4};

static tk_table temporals(void)
{
    tk_table t = {.nrows = NT};
    tk_add(&t, "d", PQT_DATE, -1, d, NULL, t_valid);
    tk_add(&t, "ts_ms", PQT_TIMESTAMP, PQT_UNIT_MILLIS, ts_ms, NULL, t_valid);
    tk_add(&t, "ts_us", PQT_TIMESTAMP, PQT_UNIT_MICROS, ts_us, NULL, t_valid);
    tk_add(&t, "ts_ns", PQT_TIMESTAMP, PQT_UNIT_NANOS, ts_ns, NULL, t_valid);
    tk_add(&t, "tm_ms", PQT_TIME, PQT_UNIT_MILLIS, tm_ms, NULL, t_valid);
    tk_add(&t, "tm_us", PQT_TIME, PQT_UNIT_MICROS, tm_us, NULL, t_valid);
    tk_add(&t, "tm_ns", PQT_TIME, PQT_UNIT_NANOS, tm_ns, NULL, t_valid);
    tk_add(&t, "name", PQT_STRING, -1, n_off, "2018-01-01", NULL);
    tk_add(&t, "n", PQT_INT64, -1, num, NULL, NULL);
    tk_add(&t, "flag", PQT_BOOL, -1, flag, NULL, NULL);
    return t;
}

static void iso(const tk_table *t)
{
    /* the unquoted form keeps what the quoted form keeps */
    static const char *const same[][3] = {
        {"d > 2018-01-01", "d > \"2018-01-01\"", "2"},
        {"d >= 2018-01-01", "d >= \"2018-01-01\"", "1 2"},
        {"d>2017-12-31", "d>\"2017-12-31\"", "1 2"},
        {"d in (2017-12-31, 2018-01-02)", "d in (\"2017-12-31\", \"2018-01-02\")", "0 2"},
        {"ts_ms > 2018-01-01", "ts_ms > \"2018-01-01\"", "1 2"},
        {"ts_ms >= 2018-01-01T12:30:00.5", "ts_ms >= \"2018-01-01T12:30:00.5\"", "1 2"},
        {"ts_ms == 2018-01-01T00:00:00Z", "ts_ms == \"2018-01-01T00:00:00Z\"", "0"},
        {"ts_us > 2018-01-01T12:30:00.5", "ts_us > \"2018-01-01T12:30:00.5\"", "1 2"},
        {"ts_ms > 2018-01-01T12:30:00.5", "ts_ms > \"2018-01-01T12:30:00.5\"", "2"},
        {"ts_ns == 2018-01-01T12:30:00.500000001", "ts_ns == \"2018-01-01T12:30:00.500000001\"",
         "1"},
        {"ts_ns < 2018-01-01T12:30", "ts_ns < \"2018-01-01T12:30\"", "0"},
        {"tm_ms < 12:30", "tm_ms < \"12:30\"", "0"},
        {"tm_ms >= 12:30:00.5", "tm_ms >= \"12:30:00.5\"", "2"},
        {"tm_us > 12:30:00", "tm_us > \"12:30:00\"", "2"},
        {"tm_ns == 12:30:00.000000001", "tm_ns == \"12:30:00.000000001\"", "2"},
        {"tm_us in (12:30, 12:29:59.999999)", "tm_us in (\"12:30\", \"12:29:59.999999\")", "0 1"},
        {"not d == 2018-01-01", "not d == \"2018-01-01\"", "0 2"},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        CHECK_ROWS(t, same[i][0], same[i][2]);
        CHECK_ROWS(t, same[i][1], same[i][2]);
    }
    /* the quoted form's errors, at the literal */
    CHECK_BAD(t, "d > 2018-01-01T00:00",
              "\"2018-01-01T00:00\" has a time of day; column 'd' is "
              "date",
              5);
    CHECK_BAD(t, "ts_ms == 2018-01-01T12:30:00.5001",
              "is more precise than column 'ts_ms' (timestamp[ms]) holds", 10);
    CHECK_BAD(t, "tm_ms == 12:30:00.0001", "is more precise than column 'tm_ms' (time[ms]) holds",
              10);
    CHECK_BAD(t, "d == 2018-02-30", "is not a date of the calendar", 6);
    CHECK_BAD(t, "tm_ms == 2018-01-01", "column 'tm_ms' is time; its value is", 10);
    /* another kind: a hint, not a comparison */
    CHECK_BAD(t, "name == 2018-01-01",
              "filter rule 'name == 2018-01-01': 2018-01-01 unquoted is a date; quote it to "
              "compare a string: '2018-01-01'",
              9);
    CHECK_ROWS(t, "name == '2018-01-01'", "0");
    CHECK_BAD(t, "n > 2018-01-01", "2018-01-01 unquoted is a date; column 'n' is int64", 5);
    CHECK_BAD(t, "n > 12:30", "12:30 unquoted is a time of day; column 'n' is int64", 5);
    CHECK_BAD(t, "flag == 2018-01-01T10:00",
              "2018-01-01T10:00 unquoted is a timestamp; column "
              "'flag' is bool",
              9);
    CHECK_BAD(t, "name in ('a', 2018-01-01T10:00)",
              "element 2 of the list, 2018-01-01T10:00 unquoted is a timestamp; quote it to "
              "compare a string: '2018-01-01T10:00'",
              15);
    CHECK_BAD(t, "n in (1, 12:30)",
              "element 2 of the list, 12:30 unquoted is a time of day; "
              "column 'n' is int64",
              10);
    /* not ISO: still a bare value that is no number */
    CHECK_BAD(t, "d > 2018/01/01", "'2018/01/01'", 5);
    CHECK_BAD(t, "tm_ms > 12:30:5", "'12:30:5'", 9);
}

static void lex_iso(void)
{
    static const struct {
        const char *s;
        int len;
    } c[] = {
        {"2018-01-01", 10},
        {"2018-01-01T12:30", 16},
        {"2018-01-01T12:30:00.25Z", 23},
        {"2018-01-01T12:30Z", 17},
        {"12:30", 5},
        {"12:30:00.5", 10},
        {"2018-01-01)", 10},
        {"2018-01-01 and x", 10},
        {"12:30,", 5},
        {"2018-01-01x", 0},
        {"2018-01-01T", 0},
        {"2018-01-01T12", 0},
        {"12:30:5", 0},
        {"12:30:00.", 0},
        {"2018-1-01", 0},
        {"20180101", 0},
        {"1:30", 0},
        {"abc", 0},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        int32_t got = pqt_scan_lex_iso(c[i].s, (int32_t)strlen(c[i].s), 0);
        if (got != c[i].len) {
            fprintf(stderr, "pqt_scan_lex_iso(\"%s\") = %d, expected %d\n", c[i].s, (int)got,
                    c[i].len);
            pqt_test_failures++;
        }
    }
    /* inside a rule, at an offset, bounded by the rule's end */
    const char *r = "d>2018-01-01";
    CHECK_EQ_I64(pqt_scan_lex_iso(r, 12, 2), 10);
    CHECK_EQ_I64(pqt_scan_lex_iso(r, 9, 2), 0); /* cut inside: "2018-01" */
}

/* ---- pushdown on a file: 5 row groups of 4 rows ----
 * rg0 obj-0000a..d; rg1 obj-0001a..d; rg2 obj-0000z obj-0000z obj-0002a obj-0002b (bounds
 * span obj-0001 but no value starts with it); rg3 obj-0002c obj-0002d obj-0003a obj-0003b;
 * rg4 obj-0001e obj-0001f obj-0001g OBJ-0001h. */
static char path[256];

static void write_file(void)
{
    static const char *const v[20] = {
        "obj-0000a", "obj-0000b", "obj-0000c", "obj-0000d", "obj-0001a", "obj-0001b", "obj-0001c",
        "obj-0001d", "obj-0000z", "obj-0000z", "obj-0002a", "obj-0002b", "obj-0002c", "obj-0002d",
        "obj-0003a", "obj-0003b", "obj-0001e", "obj-0001f", "obj-0001g", "OBJ-0001h"};
    char bytes[200];
    int64_t off[21] = {0};
    for (int i = 0; i < 20; i++) {
        memcpy(bytes + off[i], v[i], 9);
        off[i + 1] = off[i] + 9;
    }
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_string_column(t, "name", 1, off, bytes, NULL, 20, NULL));
    pqt_write_opts *o;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 4));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_BLOOM_COLUMN, "name"));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

typedef struct pd_case {
    const char *rule;
    int dict; /* PQT_OPT_PUSHDOWN_DICTIONARY */
    int64_t rows, pruned_stats, all, pruned_dict, pruned_bloom;
    const char *plan; /* a fragment of the explain text */
} pd_case;

static void pushdown(void)
{
    static const pd_case cases[] = {
        /* a prefix pattern is starts_with: rg0 and rg3 refuted by their bounds, rg1 accepted by
         * them, rg2 refuted by its dictionary */
        {"name like 'obj-0001%'", 1, 7, 2, 1, 1, 0, "name starts_with \"obj-0001\""},
        {"name starts_with \"obj-0001\"", 1, 7, 2, 1, 1, 0, "name starts_with \"obj-0001\""},
        /* any other pattern: its prefix refutes by bounds alone, the dictionary decides rg1
         * (every entry matches) and rg2 (none) */
        {"name like 'obj-0001_'", 1, 7, 2, 1, 1, 0, "name like \"obj-0001_\""},
        /* ILIKE with a letter in front: no bound is usable, the dictionary refutes rg0, rg2 and
         * rg3 and accepts rg1 and rg4 */
        {"name ilike 'OBJ-0001%'", 1, 8, 0, 2, 3, 0, "name ilike \"obj-0001%\""},
        {"name ilike '%-0001_'", 1, 8, 0, 2, 3, 0, "name ilike \"%-0001_\""},
        /* an exact pattern is ==: with the dictionary off, bloom refutes rg2 and rg4, whose
         * bounds hold obj-0001b; ILIKE with letters is probed by nothing */
        {"name like 'obj-0001b'", 0, 1, 2, 0, 0, 2, "name == \"obj-0001b\""},
        {"name ilike 'obj-0001b'", 0, 1, 0, 0, 0, 0, "name ilike \"obj-0001b\""},
        /* negated: bounds that refute the pattern accept its negation (rg0, rg3), and so does
         * a dictionary (rg2); rg1's dictionary refutes it */
        {"not name like 'obj-0001_'", 1, 13, 0, 3, 1, 0, "not (name like \"obj-0001_\")"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const pd_case *c = &cases[i];
        pqt_opts *o;
        REQUIRE_OK(pqt_opts_new(&o));
        CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, c->rule));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_PUSHDOWN_DICTIONARY, c->dict));
        pqt_table *t = NULL;
        CHECK_OK(pqt_table_open(path, o, &t));
        pqt_opts_free(o);
        if (!t) continue;
        pqt_scan_counts s;
        CHECK_OK(pqt_table_scan_stats(t, &s));
        char plan[4000];
        pqt_table_explain(t, plan, sizeof plan);
        int64_t got[5] = {pqt_table_nrows(t), s.row_groups_pruned_stats, s.row_groups_all,
                          s.row_groups_pruned_dictionary, s.row_groups_pruned_bloom};
        int64_t want[5] = {c->rows, c->pruned_stats, c->all, c->pruned_dict, c->pruned_bloom};
        if (memcmp(got, want, sizeof got) != 0 || !strstr(plan, c->plan)) {
            fprintf(stderr,
                    "%s: rows %lld pruned_stats %lld all %lld pruned_dict %lld pruned_bloom "
                    "%lld; expected %lld %lld %lld %lld %lld and plan with [%s]:\n%s\n",
                    c->rule, (long long)got[0], (long long)got[1], (long long)got[2],
                    (long long)got[3], (long long)got[4], (long long)want[0], (long long)want[1],
                    (long long)want[2], (long long)want[3], (long long)want[4], c->plan, plan);
            pqt_test_failures++;
        }
        pqt_table_close(t);
    }
}

int main(void)
{
    tk_table s = strings(), tt = temporals();
    like_table(&s);
    quotes(&s);
    text(&s);
    random_patterns();
    iso(&tt);
    lex_iso();
    snprintf(path, sizeof path, "/tmp/pqt_test_filter_like_%d.parquet", (int)getpid());
    write_file();
    pushdown();
    unlink(path);
    return pqt_test_done("test_filter_like");
}
