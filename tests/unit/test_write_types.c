/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_types.c - a copy keeps the source's schema (issue 14, CLI paragraph). The
 * source is tests/data/write_types.parquet, written by DuckDB (make_write_types.mjs: one
 * column of every type). It is copied with pqt_write_table three ways (lazily, with a
 * read-time order, and with its decimal columns made resident as doubles first), and each
 * copy is checked through the file-level metadata API against the source and against values
 * computed here from the generator's formulas: physical and logical types, FIXED_LEN_BYTE_ARRAY
 * lengths, repetition, key-value metadata, the exact unscaled decimals, the chunk statistics
 * of decimals (signed order; hand-computed per row group) and UUIDs (unsigned byte order),
 * and the column index of the decimal leaves page by page (decoded from the file's bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/file_int.h"
#include "format/meta.h"
#include "oi_read.h"
#include "pqt_file.h"
#include "testutil.h"

static const char *SRC = "tests/data/write_types.parquet";
#define NROWS 40
#define RG_ROWS 8

static char g_dir[256];

typedef __int128 i128;

/* The generator's DECIMAL(p, s) unscaled value of row i (0-based); valid unless i % 7 == 3. */
static i128 unscaled(int p, int i)
{
    i128 top = 1;
    for (int k = 0; k < p; k++) top *= 10;
    top -= 1;
    if (i == 0) return -top;
    if (i == 1) return top;
    i128 v = (i128)((i - 20) * 101);
    for (int k = 0; k < p - 5; k++) v *= 10;
    return v;
}

static bool row_null(int i)
{
    return i % 7 == 3;
}

static void decimal_text(i128 v, int scale, char *buf, size_t cap)
{
    pqt_format_decimal((int64_t)(v >> 64), (uint64_t)v, scale, buf, cap);
}

static int node_of(const pqt_file *f, const char *name)
{
    for (int n = 1; n < pqt_file_nnodes(f); n++)
        if (pqt_file_node_depth(f, n) == 1 && strcmp(pqt_file_node_name(f, n), name) == 0) return n;
    return -1;
}

static int leaf_of(const pqt_file *f, const char *name)
{
    int node = node_of(f, name);
    for (int l = 0; l < pqt_file_nleaves(f); l++)
        if (pqt_file_leaf_node(f, l) == node) return l;
    return -1;
}

static void node_logical(const pqt_file *f, int node, char *buf, size_t cap)
{
    buf[0] = 0;
    CHECK_OK(pqt_file_node_logical(f, node, buf, cap, NULL));
}

/* Field `name` of the copy has the physical type, length and logical type given. */
static void type_is(const pqt_file *f, const char *name, const char *phys, int32_t len,
                    const char *logical)
{
    int n = node_of(f, name);
    REQUIRE_OK(n > 0 ? PQT_OK : PQT_NOT_FOUND);
    char lt[128];
    node_logical(f, n, lt, sizeof lt);
    if (strcmp(pqt_file_node_physical(f, n), phys) != 0 || pqt_file_node_type_length(f, n) != len ||
        strcmp(lt, logical) != 0) {
        fprintf(stderr, "%s: %s(%d) %s, want %s(%d) %s\n", name, pqt_file_node_physical(f, n),
                (int)pqt_file_node_type_length(f, n), lt, phys, (int)len, logical);
        CHECK(0);
    }
}

/* Every top-level field of the source has the same name, position, repetition, physical
 * type, length and logical type in the copy (the struct too: a group again). */
static void same_schema(const pqt_file *src, const pqt_file *cp)
{
    int pos_src = 0, pos_cp = 0;
    for (int n = 1; n < pqt_file_nnodes(src); n++) {
        if (pqt_file_node_depth(src, n) != 1) continue;
        pos_src++;
        const char *name = pqt_file_node_name(src, n);
        int m = node_of(cp, name);
        CHECK(m > 0);
        if (m <= 0) continue;
        pos_cp = 0;
        for (int k = 1; k <= m; k++) pos_cp += pqt_file_node_depth(cp, k) == 1;
        CHECK_EQ_I64(pos_cp, pos_src);
        char a[128], b[128];
        node_logical(src, n, a, sizeof a);
        node_logical(cp, m, b, sizeof b);
        if (strcmp(pqt_file_node_physical(src, n), pqt_file_node_physical(cp, m)) != 0 ||
            pqt_file_node_type_length(src, n) != pqt_file_node_type_length(cp, m) ||
            strcmp(a, b) != 0 ||
            strcmp(pqt_file_node_repetition(src, n), pqt_file_node_repetition(cp, m)) != 0) {
            fprintf(stderr, "%s: source %s %s(%d) %s, copy %s %s(%d) %s\n", name,
                    pqt_file_node_repetition(src, n), pqt_file_node_physical(src, n),
                    (int)pqt_file_node_type_length(src, n), a, pqt_file_node_repetition(cp, m),
                    pqt_file_node_physical(cp, m), (int)pqt_file_node_type_length(cp, m), b);
            CHECK(0);
        }
    }
}

/* Row r (0-based) of the copy is source row perm(r). */
static int src_row(int r, bool reversed)
{
    return reversed ? NROWS - 1 - r : r;
}

static i128 element(const pqt_array *a, int64_t e)
{
    const int64_t *d = pqt_array_data(a);
    if (pqt_array_kind(a) == PQT_INT64) return d[e];
    /* shifted as unsigned: a negative high word shifted signed is undefined */
    return (i128)((unsigned __int128)(uint64_t)d[2 * e] |
                  ((unsigned __int128)(uint64_t)d[2 * e + 1] << 64));
}

static void decimals_exact(pqt_file *f, const char *name, int p, int s, bool reversed)
{
    int col = -1;
    REQUIRE_OK(pqt_file_find_column(f, name, &col));
    int fp = 0, fs = 0;
    CHECK_OK(pqt_file_column_decimal(f, col, &fp, &fs));
    CHECK_EQ_I64(fp, p);
    CHECK_EQ_I64(fs, s);
    pqt_array *a = NULL;
    REQUIRE_OK(pqt_file_read_decimal(f, col, 1, NROWS, &a));
    const uint8_t *v = pqt_array_validity(a);
    for (int r = 0; r < NROWS; r++) {
        int i = src_row(r, reversed);
        bool present = !v || (v[r >> 3] >> (r & 7) & 1);
        CHECK_EQ_I64(present, !row_null(i));
        if (present && element(a, r) != unscaled(p, i)) {
            char got[64], want[64];
            decimal_text(element(a, r), s, got, sizeof got);
            decimal_text(unscaled(p, i), s, want, sizeof want);
            fprintf(stderr, "%s row %d: %s, want %s\n", name, r + 1, got, want);
            CHECK(0);
        }
    }
    pqt_array_free(a);
}

/* Chunk min/max of a decimal leaf per row group: hand-computed over the rows of the group. */
static void decimal_stats(const pqt_file *f, const char *name, int p, int s, bool reversed)
{
    int leaf = leaf_of(f, name);
    REQUIRE_OK(leaf >= 0 ? PQT_OK : PQT_NOT_FOUND);
    for (int rg = 0; rg < pqt_file_nrow_groups(f); rg++) {
        bool any = false;
        i128 lo = 0, hi = 0;
        for (int r = rg * RG_ROWS; r < (rg + 1) * RG_ROWS && r < NROWS; r++) {
            int i = src_row(r, reversed);
            if (row_null(i)) continue;
            i128 u = unscaled(p, i);
            if (!any || u < lo) lo = u;
            if (!any || u > hi) hi = u;
            any = true;
        }
        char want[64], got[64];
        for (int which = PQT_STAT_MIN; which <= PQT_STAT_MAX; which++) {
            decimal_text(which == PQT_STAT_MIN ? lo : hi, s, want, sizeof want);
            CHECK_OK(pqt_file_chunk_stat_text(f, rg, leaf, which, got, sizeof got, NULL));
            if (strcmp(got, want) != 0) {
                fprintf(stderr, "%s row group %d %s: %s, want %s\n", name, rg + 1,
                        which == PQT_STAT_MIN ? "min" : "max", got, want);
                CHECK(0);
            }
        }
    }
}

/* A column index bound as the leaf stores it: INT32 / INT64 little-endian, FIXED_LEN_BYTE_ARRAY
 * big-endian two's complement. */
static i128 bound_value(const char *phys, const uint8_t *b, uint32_t n)
{
    if (strcmp(phys, "INT32") == 0) {
        int32_t x;
        memcpy(&x, b, 4);
        return x;
    }
    if (strcmp(phys, "INT64") == 0) {
        int64_t x;
        memcpy(&x, b, 8);
        return x;
    }
    i128 v = (int8_t)b[0];
    for (uint32_t k = 1; k < n; k++) v = v * 256 + b[k];
    return v;
}

/* The column index of a decimal leaf in every row group: each page's bounds are the signed
 * min/max of the unscaled values of its rows (pages found from the offset index). */
static void decimal_column_index(const char *path, const pqt_file *f, const char *name, int p,
                                 bool reversed)
{
    int leaf = leaf_of(f, name);
    const char *phys = pqt_file_node_physical(f, pqt_file_leaf_node(f, leaf));
    FILE *fp = fopen(path, "rb");
    REQUIRE_OK(fp ? PQT_OK : PQT_IO);
    pqt_file *ff = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &ff));
    int npages_total = 0;
    for (int rg = 0; rg < pqt_file_nrow_groups(f); rg++) {
        pqt_arena a = {0};
        const pqt_column_chunk *cc = &ff->meta.row_groups[rg].columns[leaf];
        REQUIRE_OK(cc->has_column_index ? PQT_OK : PQT_CORRUPT);
        pqt_offset_index oi;
        test_read_offset_index(path, cc, &a, &oi);
        uint8_t *raw = malloc((size_t)cc->column_index_length);
        REQUIRE_OK(fseek(fp, (long)cc->column_index_offset, SEEK_SET) == 0 &&
                           fread(raw, 1, (size_t)cc->column_index_length, fp) ==
                               (size_t)cc->column_index_length
                       ? PQT_OK
                       : PQT_IO);
        pqt_column_index ci;
        REQUIRE_OK(pqt_meta_decode_column_index(raw, (size_t)cc->column_index_length,
                                                cc->column_index_offset, &a, &ci));
        CHECK_EQ_I64(ci.npages, oi.npages);
        for (int pg = 0; pg < ci.npages; pg++) {
            int64_t r0 = rg * RG_ROWS + oi.pages[pg].first_row_index;
            int64_t r1 = pg + 1 < oi.npages ? rg * RG_ROWS + oi.pages[pg + 1].first_row_index
                                            : (rg + 1) * RG_ROWS;
            if (r1 > NROWS) r1 = NROWS;
            bool any = false;
            i128 lo = 0, hi = 0;
            for (int64_t r = r0; r < r1; r++) {
                int i = src_row((int)r, reversed);
                if (row_null(i)) continue;
                i128 u = unscaled(p, i);
                if (!any || u < lo) lo = u;
                if (!any || u > hi) hi = u;
                any = true;
            }
            CHECK_EQ_I64(ci.null_pages[pg], !any);
            if (!any) continue;
            CHECK(bound_value(phys, ci.min_values[pg], ci.min_lens[pg]) == lo);
            CHECK(bound_value(phys, ci.max_values[pg], ci.max_lens[pg]) == hi);
            npages_total++;
        }
        free(raw);
        pqt_arena_free(&a);
    }
    CHECK(npages_total > pqt_file_nrow_groups(f)); /* small pages: several per chunk */
    pqt_file_close(ff);
    fclose(fp);
}

/* The UUID column: the source's values, and chunk bounds in unsigned byte order (for
 * lowercase hex text, the order of the strings). */
static void uuids(pqt_file *src, pqt_file *cp, bool reversed)
{
    int cs = -1, cc = -1;
    REQUIRE_OK(pqt_file_find_column(src, "u", &cs));
    REQUIRE_OK(pqt_file_find_column(cp, "u", &cc));
    pqt_array *a = NULL, *b = NULL;
    REQUIRE_OK(pqt_file_read(src, cs, 1, NROWS, &a));
    REQUIRE_OK(pqt_file_read(cp, cc, 1, NROWS, &b));
    const int64_t *oa = pqt_array_str_offsets(a), *ob = pqt_array_str_offsets(b);
    const uint8_t *va = pqt_array_validity(a), *vb = pqt_array_validity(b);
    int leaf = leaf_of(cp, "u");
    char lo[40] = "", hi[40] = "";
    for (int r = 0; r < NROWS; r++) {
        int i = src_row(r, reversed);
        bool pa = !va || (va[i >> 3] >> (i & 7) & 1), pb = !vb || (vb[r >> 3] >> (r & 7) & 1);
        CHECK_EQ_I64(pa, !row_null(i));
        CHECK_EQ_I64(pb, pa);
        if (pa && pb) {
            CHECK_EQ_I64(ob[r + 1] - ob[r], 36);
            CHECK(oa[i + 1] - oa[i] == 36 &&
                  memcmp(pqt_array_bytes(a) + oa[i], pqt_array_bytes(b) + ob[r], 36) == 0);
            char u[37];
            memcpy(u, pqt_array_bytes(b) + ob[r], 36);
            u[36] = 0;
            if (!lo[0] || strcmp(u, lo) < 0) memcpy(lo, u, 37);
            if (!hi[0] || strcmp(u, hi) > 0) memcpy(hi, u, 37);
        }
        if (r % RG_ROWS == RG_ROWS - 1 || r == NROWS - 1) {
            char got[64];
            CHECK_OK(pqt_file_chunk_stat_text(cp, r / RG_ROWS, leaf, PQT_STAT_MIN, got, sizeof got, NULL));
            CHECK(strcmp(got, lo) == 0);
            CHECK_OK(pqt_file_chunk_stat_text(cp, r / RG_ROWS, leaf, PQT_STAT_MAX, got, sizeof got, NULL));
            CHECK(strcmp(got, hi) == 0);
            lo[0] = hi[0] = 0;
        }
    }
    pqt_array_free(a);
    pqt_array_free(b);
}

static void check_copy(const char *path, bool reversed)
{
    pqt_file *src = NULL, *cp = NULL;
    REQUIRE_OK(pqt_file_open(SRC, NULL, &src));
    REQUIRE_OK(pqt_file_open(path, NULL, &cp));
    CHECK_EQ_I64(pqt_file_nrows(cp), NROWS);
    CHECK_EQ_I64(pqt_file_nrow_groups(cp), (NROWS + RG_ROWS - 1) / RG_ROWS);
    same_schema(src, cp);
    /* written out by hand too, so a reader change cannot make both sides agree wrongly */
    type_is(cp, "i8", "INT32", 0, "INT_8");
    type_is(cp, "u16", "INT32", 0, "UINT_16");
    type_is(cp, "u32", "INT32", 0, "UINT_32");
    type_is(cp, "u64", "INT64", 0, "UINT_64");
    type_is(cp, "d4_2", "INT32", 0, "DECIMAL(4,2)");
    type_is(cp, "d9_3", "INT32", 0, "DECIMAL(9,3)");
    type_is(cp, "d18_4", "INT64", 0, "DECIMAL(18,4)");
    type_is(cp, "d38_10", "FIXED_LEN_BYTE_ARRAY", 16, "DECIMAL(38,10)");
    type_is(cp, "d25_0", "FIXED_LEN_BYTE_ARRAY", 16, "DECIMAL(25,0)");
    type_is(cp, "u", "FIXED_LEN_BYTE_ARRAY", 16, "UUID");
    type_is(cp, "js", "BYTE_ARRAY", 0, "JSON");
    type_is(cp, "en", "BYTE_ARRAY", 0, "UTF8");
    type_is(cp, "t_ns", "INT64", 0, "TIME(NANOS,false)");
    type_is(cp, "ts_ms", "INT64", 0, "TIMESTAMP(MILLIS,false)");
    type_is(cp, "ts_ns", "INT64", 0, "TIMESTAMP(NANOS,false)");
    type_is(cp, "ts_tz", "INT64", 0, "TIMESTAMP(MICROS,true)");
    const char *v = NULL;
    CHECK_OK(pqt_file_meta_value(cp, "origin", &v));
    CHECK(v && strcmp(v, "duckdb") == 0);
    CHECK_OK(pqt_file_meta_value(cp, "note", &v));
    CHECK(v && strcmp(v, "every type") == 0);
    static const struct {
        const char *name;
        int p, s;
    } dec[] = {{"d4_2", 4, 2}, {"d9_3", 9, 3}, {"d18_4", 18, 4}, {"d38_10", 38, 10}, {"d25_0", 25, 0}};
    for (size_t k = 0; k < sizeof dec / sizeof dec[0]; k++) {
        decimals_exact(cp, dec[k].name, dec[k].p, dec[k].s, reversed);
        decimal_stats(cp, dec[k].name, dec[k].p, dec[k].s, reversed);
        decimal_column_index(path, cp, dec[k].name, dec[k].p, reversed);
    }
    uuids(src, cp, reversed);
    pqt_file_close(src);
    pqt_file_close(cp);
}

static pqt_write_opts *small_groups(void)
{
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG_ROWS));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 24)); /* a few rows a page */
    return o;
}

static void copy_as(const char *name, const char *sort, bool make_resident)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    pqt_opts *ro = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    if (sort) CHECK_OK(pqt_opts_set_sort(ro, sort));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(SRC, ro, &t));
    pqt_opts_free(ro);
    if (make_resident) { /* the table now holds the rounded doubles: they must not be written */
        CHECK_OK(pqt_table_materialize_all(t));
        double d = 0;
        CHECK_OK(pqt_table_get_value(t, "d38_10", 2, 1, PQT_FLOAT64, &d, sizeof d, NULL)); /* i = 1 */
        CHECK(d == 1e28); /* 9999999999999999999999999999.9999999999 rounded */
    }
    pqt_write_opts *o = small_groups();
    CHECK_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
    check_copy(path, sort != NULL);
    unlink(path);
}

/* A streaming writer whose template wrote d4_2 as DECIMAL takes a later table only when its
 * d4_2 is still that file DECIMAL: caller-written doubles are refused (PQT_KIND, naming it). */
static void decimal_template_refuses_doubles(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/stream.parquet", g_dir);
    pqt_table *t = NULL, *t2 = NULL;
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t));
    REQUIRE_OK(pqt_table_open(SRC, NULL, &t2));
    double d[NROWS];
    for (int i = 0; i < NROWS; i++) d[i] = i * 0.25;
    CHECK_OK(pqt_table_set(t2, "d4_2", d, sizeof d, NULL));
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open(&w, path, t, NULL));
    CHECK_OK(pqt_writer_write(w, t));
    CHECK_EQ_I64(pqt_writer_write(w, t2), PQT_KIND);
    CHECK(strstr(pqt_errmsg(), "'d4_2'") && strstr(pqt_errmsg(), "DECIMAL(4,2)"));
    pqt_writer_abort(w);
    CHECK(access(path, F_OK) != 0);
    /* written from the start, the doubles go out as DOUBLE */
    CHECK_OK(pqt_write_table(t2, path, NULL));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    type_is(f, "d4_2", "DOUBLE", 0, "");
    type_is(f, "d9_3", "INT32", 0, "DECIMAL(9,3)");
    pqt_file_close(f);
    unlink(path);
    pqt_table_close(t);
    pqt_table_close(t2);
}

/* tests/data/dotted_names.parquet (DuckDB): a struct a {b, c} and a top-level column "a.b".
 * Struct leaves are written as top-level columns named by their path, so both would be "a.b":
 * refused, naming both; once the top-level one is renamed the copy holds both, told apart. */
static void dotted_name_clash(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/dotted.parquet", g_dir);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/dotted_names.parquet", NULL, &t));
    CHECK_EQ_I64(pqt_write_table(t, path, NULL), PQT_MISUSE);
    const char *m = pqt_errmsg();
    CHECK(strstr(m, "top-level column 'a.b'") && strstr(m, "leaf 'a.b' of struct 'a'"));
    CHECK(access(path, F_OK) != 0);
    CHECK_OK(pqt_table_rename_column(t, "a.b", "a_b")); /* the top-level one (exact name first) */
    CHECK_OK(pqt_write_table(t, path, NULL));
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    int64_t v[3] = {0};
    CHECK_OK(pqt_table_get(t, "a_b", PQT_INT64, v, sizeof v, NULL, 0));
    CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3);
    CHECK_OK(pqt_table_get(t, "a.b", PQT_INT64, v, sizeof v, NULL, 0));
    CHECK(v[0] == 10 && v[1] == 20 && v[2] == 30);
    pqt_table_close(t);
    unlink(path);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "%s", "/tmp/pqt_write_types_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) ? PQT_OK : PQT_IO);
    copy_as("lazy.parquet", NULL, false);
    copy_as("sorted.parquet", "-i", false);
    copy_as("resident.parquet", NULL, true);
    decimal_template_refuses_doubles();
    dotted_name_clash();
    rmdir(g_dir);
    return pqt_test_done("test_write_types");
}
