/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_maml_parse.c - the MAML model and its validation (src/maml/): the format rules of
 * docs/maml.md ("Format rules"), each problem with its line, several problems listed at once,
 * YAML edge cases, and the size and line caps. Expected lines are counted by hand from the
 * texts below and tests/data/maml/.
 */
#include <stdio.h>
#include <string.h>

#include "maml/maml.h"
#include "pqt.h"
#include "testutil.h"
#include "util/mem.h"

/* Parse and check (read-in rules, or strict); the model, problems included. */
static pqt_maml *parse(const char *text, bool strict)
{
    pqt_maml *m = NULL;
    if (pqt_maml_parse_text(text, strlen(text), "t.maml", &m) != PQT_OK) return NULL;
    if (pqt_maml_check(m, strict) != PQT_OK) {
        pqt_maml_unref(m);
        return NULL;
    }
    return m;
}

static const char *problems(const pqt_maml *m)
{
    return m->problems.data ? (const char *)m->problems.data : "";
}

/* The problem text holds want (exact substring, line number included). */
static int has(const pqt_maml *m, const char *want)
{
    static char copy[1 << 18];
    size_t n = m->problems.len < sizeof copy - 1 ? m->problems.len : sizeof copy - 1;
    memcpy(copy, problems(m), n);
    copy[n] = '\0';
    if (strstr(copy, want)) return 1;
    fprintf(stderr, "missing problem '%s' in:\n%s\n", want, copy);
    return 0;
}

static void expect_one(const char *text, const char *want)
{
    pqt_maml *m = parse(text, false);
    CHECK(m != NULL);
    if (!m) return;
    CHECK_EQ_I64(m->nproblems, 1);
    CHECK(has(m, want));
    pqt_maml_unref(m);
}

static void test_top_level_keys(void)
{
    /* every allowed section, in mixed case; values as strings */
    const char *ok = "survey: S\nDATASET: D\nTable: T\nversion: 1.0\ndate: 2024-01-01\n"
                     "author: A\ncoauthors: [B, C]\ndois: []\ndepends: []\ndescription: x\n"
                     "comments: [c1]\nlicense: L\nkeywords: [k1, k2]\nMAML_version: 1\n"
                     "keyarray: []\nExtra: {}\nFields: []\n";
    pqt_maml *m = parse(ok, false);
    CHECK(m && m->nproblems == 0);
    if (m) {
        CHECK(!strcmp(pqt_maml_value(m, "table"), "T"));
        CHECK(!strcmp(pqt_maml_value(m, "TABLE"), "T"));
        CHECK(!strcmp(pqt_maml_value(m, "version"), "1.0")); /* every value is a string */
        CHECK(!strcmp(pqt_maml_value(m, "keywords"), "k1;k2"));
        CHECK(!strcmp(pqt_maml_value(m, "coauthors"), "B;C"));
        CHECK(pqt_maml_value(m, "extra") == NULL);
        pqt_maml_unref(m);
    }
    expect_one("table: t\ncol_map:\n  - a: b\n", "line 2: unknown section 'col_map'");
    expect_one("table: t\nremap: []\n", "line 2: unknown section 'remap'");
    expect_one("table: t\nTABLE: u\n", "line 2: section 'TABLE' appears twice");
}

static void test_values_case_sensitive(void)
{
    pqt_maml *m = parse("fields:\n  - NAME: Mass\n    UNIT: Kg\n  - name: mass\n    unit: "
                        "UnitLess\n",
                        false);
    CHECK(m && m->nproblems == 0); /* Mass and mass are two fields */
    if (!m) return;
    CHECK_EQ_I64(m->nfields, 2);
    CHECK(pqt_maml_field_find(m, "Mass") && !strcmp(pqt_maml_field_find(m, "Mass")->unit, "Kg"));
    CHECK(pqt_maml_field_find(m, "MASS") == NULL);
    CHECK(!strcmp(pqt_maml_field_find(m, "mass")->unit, "UnitLess")); /* the table maps it */
    pqt_maml_unref(m);
}

static void test_line_limit(void)
{
    static char text[4000];
    size_t n = (size_t)snprintf(text, sizeof text, "table: t\ndescription: ");
    memset(text + n, 'x', 1015); /* "description: " is 13: line 2 is 1028 characters */
    n += 1015;
    n += (size_t)snprintf(text + n, sizeof text - n, "\nsurvey: ok\n");
    pqt_maml *m = parse(text, false);
    CHECK(m && m->nproblems == 1);
    if (m) {
        CHECK(has(m, "line 2: the line is 1028 characters long; a MAML line is at most 1024"));
        /* nothing is cut: the long value is read whole */
        CHECK_EQ_I64(strlen(pqt_maml_value(m, "description")), 1015);
        pqt_maml_unref(m);
    }
    /* exactly 1024 characters (plus CRLF) is fine; multi-byte characters count once */
    n = (size_t)snprintf(text, sizeof text, "description: ");
    memset(text + n, 'y', 1011);
    n += 1011;
    memcpy(text + n, "\r\n", 3);
    m = parse(text, false);
    CHECK(m && m->nproblems == 0);
    pqt_maml_unref(m);
    n = (size_t)snprintf(text, sizeof text, "description: ");
    for (int i = 0; i < 1011; i++, n += 2) memcpy(text + n, "\xC3\xA9", 2); /* é */
    text[n] = '\0';
    m = parse(text, false);
    CHECK(m && m->nproblems == 0);
    pqt_maml_unref(m);
}

static void test_crlf_bom_comments(void)
{
    pqt_maml *m = parse("\xEF\xBB\xBF# a comment\r\ntable: t # trailing\r\nfields:\r\n"
                        "  - name: a   # the first\r\n    unit: m\r\n",
                        false);
    CHECK(m && m->nproblems == 0);
    if (!m) return;
    CHECK(!strcmp(pqt_maml_value(m, "table"), "t"));
    CHECK(!strcmp(pqt_maml_field_find(m, "a")->unit, "m")); /* no stray \r */
    pqt_maml_unref(m);
}

static void test_yaml_shapes(void)
{
    /* anchors and aliases */
    pqt_maml *m = parse("table: &t cat\nsurvey: *t\nfields:\n  - &f {name: a, unit: deg}\n", false);
    CHECK(m && m->nproblems == 0);
    if (m) {
        CHECK(!strcmp(pqt_maml_value(m, "survey"), "cat"));
        CHECK(!strcmp(pqt_maml_field_find(m, "a")->unit, "deg"));
        pqt_maml_unref(m);
    }
    /* flow style throughout, quoted keys */
    m = parse("{\"table\": 't', 'fields': [{\"name\": \"a b\", 'unit': 'km/s'}]}", false);
    CHECK(m && m->nproblems == 0);
    if (m) {
        CHECK(!strcmp(pqt_maml_field_find(m, "a b")->unit, "km/s"));
        pqt_maml_unref(m);
    }
    /* empty documents: nothing, only a comment, an empty stream marker */
    const char *empties[] = {"", "# nothing\n", "---\n", "---\n...\n"};
    for (size_t i = 0; i < sizeof empties / sizeof empties[0]; i++) {
        m = parse(empties[i], false);
        CHECK(m && m->nproblems == 0 && m->ntop == 0 && m->nfields == 0);
        pqt_maml_unref(m);
        m = parse(empties[i], true); /* a write schema needs table: and fields: */
        CHECK(m && m->nproblems == 2);
        pqt_maml_unref(m);
    }
    /* a tab in indentation is not YAML: one problem with its line */
    m = parse("table: t\nfields:\n\t- name: a\n", false);
    CHECK(m && m->nproblems == 1);
    if (m) {
        CHECK(has(m, "line 3: not valid YAML"));
        pqt_maml_unref(m);
    }
    /* a document that is not a block of sections */
    expect_one("- a\n- b\n", "line 1: a MAML is a block of sections");
    /* an alias bomb stops at the visit cap instead of walking every copy: one block of 2000
     * keys, aliased 600 times as a field entry (1.2 million visits from 40 kB of text) */
    static char bomb[64 << 10];
    size_t n = (size_t)snprintf(bomb, sizeof bomb, "fields:\n  - &m {name: a");
    for (int i = 0; i < 2000; i++) n += (size_t)snprintf(bomb + n, sizeof bomb - n, ", k%d: 0", i);
    n += (size_t)snprintf(bomb + n, sizeof bomb - n, "}\n");
    for (int i = 0; i < 600; i++) n += (size_t)snprintf(bomb + n, sizeof bomb - n, "  - *m\n");
    m = parse(bomb, false);
    CHECK(m != NULL);
    if (m) {
        CHECK(has(m, "the document expands to more than 1000000 nodes"));
        CHECK(m->nproblems > 1000); /* counted ... */
        CHECK(m->problems.len < 200000); /* ... but not all kept */
        pqt_maml_unref(m);
    }
}

static void test_extra_free_form(void)
{
    pqt_maml *m = parse("extra:\n  whatever: {deep: [1, {x: y}]}\n  Remap:\n    - mass: MASS_KG\n"
                        "    - ra: dec\n  FILTER:\n    - 'mass > 1'\n  sort: ['-mass']\n",
                        false);
    CHECK(m && m->nproblems == 0);
    if (!m) return;
    CHECK_EQ_I64(m->nremap, 2);
    CHECK(!strcmp(m->remap[0].internal, "mass") && !strcmp(m->remap[0].file, "MASS_KG"));
    CHECK(!strcmp(m->remap[1].internal, "ra") && !strcmp(m->remap[1].file, "dec"));
    CHECK_EQ_I64(m->remap[1].line, 5);
    CHECK(m->filter.n == 1 && !strcmp(m->filter.items[0], "mass > 1"));
    CHECK(m->sort.n == 1 && !strcmp(m->sort.items[0], "-mass"));
    pqt_maml_unref(m);
    expect_one("extra:\n  remap:\n    - a: b\n      c: d\n", "line 3: extra: remap: each entry");
}

/* A key of extra: written twice (the same or another case) is one problem naming it and both
 * lines; the first list is kept whole. These once wrote the second list into a buffer sized
 * for the first (a heap overflow) or left NULL entries ('(null)' is not a declared field). */
static void test_extra_duplicate_keys(void)
{
    expect_one("extra:\n  filter:\n    - 'a > 1'\n  FILTER:\n    - 'a > 1'\n    - 'b > 2'\n"
               "    - 'c > 3'\n",
               "line 4: extra: key 'FILTER' appears twice (first on line 2)");
    expect_one("extra:\n  sort: [a]\n  sort: [a, b, c, d]\n",
               "line 3: extra: key 'sort' appears twice (first on line 2)");
    expect_one("fields:\n  - name: a\nextra:\n  protected_cols: a\n  Protected_Cols: a;a;a\n",
               "line 5: extra: key 'Protected_Cols' appears twice (first on line 4)");
    expect_one("extra:\n  nullable_cols: [x, y]\n  nullable_cols: [x]\n",
               "line 3: extra: key 'nullable_cols' appears twice (first on line 2)");
    expect_one("extra:\n  remap:\n    - a: b\n  REMAP:\n    - c: d\n",
               "line 4: extra: key 'REMAP' appears twice (first on line 2)");
    expect_one("extra:\n  col_map:\n    - a: b\n  col_map:\n    - c: d\n",
               "line 4: extra: key 'col_map' appears twice (first on line 2)");
    pqt_maml *m = parse("extra:\n  filter: ['a > 1']\n  Filter: ['b > 2', 'c > 3']\n"
                        "  sort: [x]\n  SORT: [y, z]\n  remap:\n    - p: q\n  Remap:\n"
                        "    - r: s\n",
                        false);
    CHECK(m && m->nproblems == 3);
    if (!m) return;
    CHECK(m->filter.n == 1 && !strcmp(m->filter.items[0], "a > 1"));
    CHECK(m->sort.n == 1 && !strcmp(m->sort.items[0], "x"));
    CHECK(m->nremap == 1 && !strcmp(m->remap[0].internal, "p"));
    CHECK(pqt_maml_verdict(m, "test") == PQT_BAD_MAML);
    pqt_maml_unref(m);
    /* other free-form keys of extra: may repeat in any case: they are not read */
    m = parse("extra:\n  note: a\n  Note: b\n", false);
    CHECK(m && m->nproblems == 0);
    pqt_maml_unref(m);
}

/* An escaped NUL ("\0" in a double-quoted string) would cut a value short where it is read as
 * C text: each is a problem naming its key, its field and its line, as libyaml refuses a raw
 * NUL. */
static void test_nul_in_values(void)
{
    expect_one("fields:\n  - name: id\nextra:\n  filter:\n    - \"id < 3\\0 and id > 100000\"\n",
               "line 5: filter: \"id < 3\\0 and id > 100000\" holds a NUL character (\\0)");
    expect_one("fields:\n  - name: a\n    unit: \"k\\0m\"\n",
               "line 3: field 'a': unit: \"k\\0m\" holds a NUL character");
    expect_one("fields:\n  - name: \"a\\0b\"\n", "line 2: name: \"a\\0b\" holds a NUL character");
    expect_one("table: \"\\0\"\n", "line 1: table: \"\\0\" holds a NUL character");
    pqt_maml *m = parse("\"na\\0me\": x\n", false); /* and the section 'na' is unknown */
    CHECK(m && has(m, "line 1: \"na\\0me\" holds a NUL character"));
    pqt_maml_unref(m);
    expect_one("extra:\n  remap:\n    - a: \"B\\0C\"\n", "line 3: a: \"B\\0C\" holds a NUL");
    expect_one("extra:\n  sort: [\"x\\0\"]\n", "line 2: sort: \"x\\0\" holds a NUL");
    /* a raw NUL is not YAML at all */
    m = NULL;
    REQUIRE_OK(pqt_maml_parse_text("table: a\0b\n", 11, "t.maml", &m));
    CHECK(m->nproblems == 1 && has(m, "line 1: not valid YAML"));
    pqt_maml_unref(m);
    /* the other escapes stay values; an aliased NUL is one problem */
    m = parse("table: \"a\\tb\\x41\"\nsurvey: &s \"x\\0\"\ndataset: *s\nauthor: *s\n", false);
    CHECK(m && m->nproblems == 1);
    if (m) {
        CHECK(!strcmp(pqt_maml_value(m, "table"), "a\tbA"));
        CHECK(has(m, "line 2: survey: \"x\\0\" holds a NUL character"));
        CHECK(pqt_maml_verdict(m, "test") == PQT_BAD_MAML);
        pqt_maml_unref(m);
    }
}

/* Deep nesting and huge documents are refused, each naming its line, before libyaml builds
 * the document: 100,000 nested '[' once took 22 s (the scanner's work per token grows with
 * the flow depth) and 600,000 fields 520 MiB. The tests assert the refusal and that nothing
 * was built; the pass stops at the line named, so the work is bounded by construction. */
static void test_nesting_and_size_caps(void)
{
    enum { DEEP = 100000 };
    char *text = pqt_malloc((size_t)DEEP * 24 + 64);
    REQUIRE_OK(text == NULL);
    /* one '[' a line: refused at the 65th */
    size_t n = 0;
    for (int i = 0; i < DEEP; i++)
        text[n++] = '[', text[n++] = '\n';
    pqt_maml *m = NULL;
    REQUIRE_OK(pqt_maml_parse_text(text, n, "t.maml", &m));
    CHECK_EQ_I64(m->nproblems, 1);
    CHECK(has(m, "line 65: lists and blocks nest more than 64 deep; refused"));
    pqt_maml_unref(m);
    /* block nesting counts too: "k:" indented one more each line */
    n = (size_t)snprintf(text, 64, "table: t\n");
    for (int i = 0; i < 70; i++) {
        memset(text + n, ' ', (size_t)i);
        n += (size_t)i;
        n += (size_t)snprintf(text + n, 8, "k:\n");
    }
    memset(text + n, ' ', 70);
    n += 70;
    n += (size_t)snprintf(text + n, 8, "v\n");
    REQUIRE_OK(pqt_maml_parse_text(text, n, "t.maml", &m));
    CHECK_EQ_I64(m->nproblems, 1);
    /* the root block is on line 1, the block under line N's "k:" starts on line N + 1: line
     * 66's is the 65th level */
    CHECK(has(m, "line 66: lists and blocks nest more than 64 deep"));
    CHECK_EQ_I64(m->ntop, 0); /* nothing built, not even table: */
    pqt_maml_unref(m);
    /* 64 levels are fine: the root block and 63 lists */
    n = (size_t)snprintf(text, 64, "depends: ");
    for (int i = 0; i < 63; i++)
        text[n++] = '[';
    for (int i = 0; i < 63; i++)
        text[n++] = ']';
    text[n++] = '\n';
    REQUIRE_OK(pqt_maml_parse_text(text, n, "t.maml", &m));
    CHECK_EQ_I64(m->nproblems, 0);
    pqt_maml_unref(m);
    /* one node past the cap, in a free-form list of extra: (the root block, 'extra', its
     * block, 'x', the list and 499,996 entries from line 3 on): refused on the last
     * entry's line, 499,998, the first node past the cap */
    pqt_mem_free(text);
    text = pqt_malloc((size_t)PQT_MAML_MAX_NODES * 6 + 64);
    REQUIRE_OK(text == NULL);
    n = (size_t)snprintf(text, 64, "extra:\n  x:\n");
    for (int i = 0; i < PQT_MAML_MAX_NODES - 4; i++)
        memcpy(text + n, "  - k\n", 6), n += 6;
    REQUIRE_OK(pqt_maml_parse_text(text, n, "t.maml", &m));
    CHECK_EQ_I64(m->nproblems, 1);
    CHECK(has(m, "line 499998: the document has more than 500000 nodes (values, lists and "
                 "blocks); refused"));
    pqt_maml_unref(m);
    pqt_mem_free(text);
}

/* Each problem of docs/maml.md on its own, with its line. */
static void test_each_error(void)
{
    expect_one("fields:\n  - name: a\n  - name: b\n  - name: a\n",
               "line 4: field 'a' is declared twice (first on line 2)");
    expect_one("fields:\n  - name: ''\n", "line 2: a field has an empty name");
    expect_one("fields:\n  - unit: m\n", "line 2: a field has no name");
    expect_one("fields:\n  - name: a\n    col_size: -2\n",
               "line 2: field 'a': col_size '-2' is neither a positive integer nor auto");
    expect_one("fields:\n  - name: a\n    array_size: big\n",
               "line 2: field 'a': array_size 'big' is neither");
    expect_one("fields:\n  - name: a\n    data_type: int64\n    array_size: auto\n",
               "array_size: auto is for string columns, not int64");
    expect_one("fields:\n  - name: a\n    data_type: timestamp[us]\n    qc:\n      min: 0\n",
               "line 2: field 'a': qc min: bounds are not supported on a timestamp[us] column");
    expect_one("fields:\n  - name: a\n    qc:\n      min: '< 0'\n",
               "field 'a': qc min: '< 0' has the operator of max");
    expect_one("fields:\n  - name: a\n    qc:\n      max: '>= 0'\n",
               "field 'a': qc max: '>= 0' has the operator of min");
    expect_one("fields:\n  - name: a\n    data_type: int32\n    qc:\n      max: 3000000000\n",
               "qc max: '3000000000' is not an exact int32");
    expect_one("fields:\n  - name: a\n    data_type: float64\n    qc:\n      max: .nan\n",
               "qc max: '.nan' is not a finite number");
    expect_one("fields:\n  - name: a\n    qc:\n      miss: none\n",
               "field 'a': qc miss: 'none' is not Null, NA or empty");
    expect_one("fields:\n  - name: a\nextra:\n  protected_cols: a;b\n",
               "line 4: extra: protected_cols: 'b' is not a declared field");
    expect_one("fields:\n  - name: a\n    Colour: red\n", "line 3: unknown field key 'Colour'");
    expect_one("fields:\n  - name: a\n    qc:\n      mini: 1\n", "line 4: field 'a': unknown qc key");
    expect_one("extra:\n  remap:\n    - a: x\n    - b: y\n    - a: z\n",
               "line 5: extra: remap: internal name 'a' is declared twice (first on line 3)");
    /* fine: miss Null/NA/empty in any case, bounds with and without operators */
    pqt_maml *m = parse("fields:\n  - name: a\n    data_type: int64\n    qc:\n      min: '>= -5'\n"
                        "      max: 9223372036854775807\n      miss: na\n  - name: b\n"
                        "    qc:\n      miss:\n  - name: c\n    qc:\n",
                        false);
    CHECK(m && m->nproblems == 0);
    if (m) {
        CHECK(m->fields[1].has_qc && m->fields[1].qc_miss && !*m->fields[1].qc_miss);
        CHECK(m->fields[2].has_qc && !m->fields[2].qc_min && !m->fields[2].qc_miss);
        pqt_maml_unref(m);
    }
}

static void test_strict(void)
{
    pqt_maml *m = parse("table: ''\nfields:\n  - name: a\n  - name: b\n    data_type: float128\n"
                        "  - name: c\n    data_type: list[timestamp[ms,utc]]\n"
                        "  - name: d\n    data_type: time[s]\n",
                        true);
    CHECK(m && m->nproblems == 4);
    if (!m) return;
    CHECK(has(m, "table: is missing or empty"));
    CHECK(has(m, "line 3: field 'a' has no data_type:"));
    CHECK(has(m, "line 4: field 'b': unknown data_type 'float128'"));
    CHECK(has(m, "line 8: field 'd': unknown data_type 'time[s]'"));
    pqt_maml_unref(m);
}

/* Several problems in one file: all of them, each with its line. */
static void test_all_listed(void)
{
    pqt_maml *m = NULL;
    REQUIRE_OK(pqt_maml_parse_file("tests/data/maml/many_problems.maml", &m));
    CHECK_OK(pqt_maml_check(m, false));
    CHECK_EQ_I64(m->nproblems, 11);
    CHECK(has(m, "line 2: unknown section 'col_map'"));
    CHECK(has(m, "line 6: unknown field key 'colour'"));
    CHECK(has(m, "line 7: field 'a' is declared twice (first on line 5)"));
    CHECK(has(m, "line 7: field 'a': col_size '0'"));
    CHECK(has(m, "line 9: field 's': array_size: auto is for string columns, not int32"));
    CHECK(has(m, "line 9: field 's': qc min: '< 3' has the operator of max"));
    CHECK(has(m, "line 9: field 's': qc max: 'x' is not an exact int32"));
    CHECK(has(m, "line 9: field 's': qc miss: 'maybe'"));
    CHECK(has(m, "line 16: field 'd': qc min: bounds are not supported on a date column"));
    CHECK(has(m, "line 21: extra: protected_cols: 'nope'"));
    CHECK(has(m, "line 24: extra: remap: internal name 'x' is declared twice (first on line 23)"));
    /* the error message: status, source, count, and the problems */
    CHECK(pqt_maml_verdict(m, "test") == PQT_BAD_MAML);
    CHECK(strstr(pqt_errmsg(), "many_problems.maml: 11 problems:") != NULL);
    CHECK(strstr(pqt_errmsg(), "line 2: unknown section 'col_map'") != NULL);
    pqt_maml_unref(m);
}

static void test_seed_examples(void)
{
    pqt_maml *m = NULL;
    REQUIRE_OK(pqt_maml_load_file("tests/data/maml/seed_remap.maml", &m));
    CHECK(!strcmp(pqt_maml_value(m, "table"), "input_table"));
    CHECK(m->nremap == 2 && !strcmp(m->remap[1].internal, "ra") &&
          !strcmp(m->remap[1].file, "RA_J2000"));
    pqt_maml_unref(m);
    REQUIRE_OK(pqt_maml_load_file("tests/data/maml/seed_units.maml", &m));
    const pqt_maml_field *f = pqt_maml_field_find(m, "MASS_KG");
    CHECK(f && !strcmp(f->unit, "kg") && !strcmp(f->data_type, "float64"));
    pqt_maml_unref(m);
    /* the seed examples are valid write schemas too, but for the remap one's missing fields */
    REQUIRE_OK(pqt_maml_parse_file("tests/data/maml/seed_units.maml", &m));
    CHECK_OK(pqt_maml_check(m, true));
    CHECK_EQ_I64(m->nproblems, 0);
    pqt_maml_unref(m);
}

/* A hostile oversize MAML is refused by its size: the file is sparse, so reading it would
 * take 100 MB of memory and time; the check must come first. */
static void test_oversize(void)
{
    char path[] = "/tmp/pqt_maml_bigXXXXXX";
    int fd = mkstemp(path);
    REQUIRE_OK(fd < 0);
    FILE *fp = fdopen(fd, "w");
    fputs("table: t\n", fp);
    CHECK(fseek(fp, 100L << 20, SEEK_SET) == 0);
    fputs("\n", fp);
    fclose(fp);
    pqt_maml *m = NULL;
    CHECK(pqt_maml_parse_file(path, &m) == PQT_BAD_MAML);
    CHECK(m == NULL);
    CHECK(strstr(pqt_errmsg(), "104857601 bytes, a MAML is at most 16777216 bytes") != NULL);
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK(pqt_opts_set_maml(o, path) == PQT_BAD_MAML);
    pqt_opts_free(o);
    remove(path);
}

/* Every allocation failing in turn: PQT_NOMEM or success, never a crash or a leak (the
 * sanitizer build checks the leaks), and a failed set leaves the options as they were. */
static void test_alloc_failures(void)
{
    const char *text = "table: t\nkeywords: [a, b]\nfields:\n  - name: a\n    unit: m\n"
                       "    ucd: [x, y]\n    qc:\n      min: 1\n  - b: {unit: s}\nextra:\n"
                       "  remap:\n    - c: a\n  filter: ['a > 1']\n  sort: [a]\n"
                       "  protected_cols: a;b\nbogus: 1\n";
    int ok = 0, nomem = 0;
    for (long k = 0; k < 400; k++) {
        pqt_maml *m = NULL;
        pqt_mem_fail_after(k);
        pqt_status st = pqt_maml_parse_text(text, strlen(text), "t.maml", &m);
        if (st == PQT_OK) st = pqt_maml_check(m, true);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            CHECK_EQ_I64(m->nproblems, 3); /* bogus; a and b lack data_type: (strict) */
            ok++;
        } else {
            CHECK_EQ_I64(st, PQT_NOMEM);
            nomem++;
        }
        pqt_maml_unref(m);
    }
    CHECK(ok > 0 && nomem > 0);
}

int main(void)
{
    test_alloc_failures();
    test_top_level_keys();
    test_values_case_sensitive();
    test_line_limit();
    test_crlf_bom_comments();
    test_yaml_shapes();
    test_extra_free_form();
    test_extra_duplicate_keys();
    test_nul_in_values();
    test_nesting_and_size_caps();
    test_each_error();
    test_strict();
    test_all_listed();
    test_seed_examples();
    test_oversize();
    return pqt_test_done("test_maml_parse");
}
