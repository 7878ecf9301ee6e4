/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_stats.c - what pqt_write_table records besides the values (issue 14): exact
 * chunk min/max and null counts per row group (hand-computed below), no bounds for a NaN-only
 * chunk and no column index for its NaN-only page, -0.0 / +0.0 zero bounds, unsigned order
 * for uint64, bytewise order for UTF-8 strings; bloom filters only on the columns asked, which
 * a filter at open uses to refute a row group and never to drop a present value; page CRCs
 * that catch a flipped byte the same file without CRCs lets through; the row-index column.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

static char g_dir[256];

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", g_dir, name);
}

static void stat_is(const pqt_file *f, int rg, int leaf, int which, const char *want)
{
    char buf[128];
    size_t n = 0;
    pqt_status st = pqt_file_chunk_stat_text(f, rg, leaf, which, buf, sizeof buf, &n);
    if (!want) {
        CHECK_EQ_I64(st, PQT_NOT_FOUND);
        return;
    }
    CHECK_OK(st);
    if (st == PQT_OK && strcmp(buf, want) != 0) {
        fprintf(stderr, "row group %d leaf %d %s: '%s', want '%s'\n", rg, leaf,
                which == PQT_STAT_MIN ? "min" : "max", buf, want);
        CHECK(0);
    }
}

static pqt_table *known_table(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int32_t i[8] = {5, -3, 0, 7, 100, 100, 100, 100};
    uint8_t v_i = 0xfb; /* row 3 (index 2) null */
    CHECK_OK(pqt_table_add_column(t, "i", PQT_INT32, 1, i, &v_i, 8, NULL));
    double f[8] = {NAN, NAN, 0, NAN, 0.0, -0.0, 2.5, NAN};
    CHECK_OK(pqt_table_add_column(t, "f", PQT_FLOAT64, 1, f, &v_i, 8, NULL));
    uint64_t u[8] = {1, UINT64_MAX, 3, 2, 9, 8, 7, 6};
    CHECK_OK(pqt_table_add_column(t, "u", PQT_UINT64, 1, u, NULL, 8, NULL));
    const char *s[8] = {"b", "a", "", "", "zz", "\xc3\xa9", "x", "y"};
    int64_t off[9] = {0};
    char bytes[64];
    for (int k = 0; k < 8; k++) {
        memcpy(bytes + off[k], s[k], strlen(s[k]));
        off[k + 1] = off[k] + (int64_t)strlen(s[k]);
    }
    uint8_t v_s = 0xf7; /* row 4 (index 3) null */
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, off, bytes, &v_s, 8, NULL));
    return t;
}

static void statistics_and_bloom(void)
{
    char p[300];
    path_of(p, sizeof p, "stats.parquet");
    pqt_table *t = known_table();
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 4));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_BLOOM_COLUMN, "s"));
    CHECK_EQ_I64(pqt_write_opts_set_str(o, PQT_WOPT_CODEC, "lzo"), PQT_MISUSE);
    CHECK_EQ_I64(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_VERSION, 3), PQT_MISUSE);
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), 2);
    /* leaves: i 0, f 1, u 2, s 3 */
    stat_is(f, 0, 0, PQT_STAT_MIN, "-3");
    stat_is(f, 0, 0, PQT_STAT_MAX, "7");
    CHECK_EQ_I64(pqt_file_chunk_stat_count(f, 0, 0, PQT_STAT_NULL_COUNT), 1);
    stat_is(f, 1, 0, PQT_STAT_MIN, "100");
    stat_is(f, 1, 0, PQT_STAT_MAX, "100");
    CHECK_EQ_I64(pqt_file_chunk_stat_count(f, 1, 0, PQT_STAT_NULL_COUNT), 0);
    stat_is(f, 0, 1, PQT_STAT_MIN, NULL); /* NaN-only (and a null): no bounds */
    stat_is(f, 0, 1, PQT_STAT_MAX, NULL);
    CHECK_EQ_I64(pqt_file_chunk_stat_count(f, 0, 1, PQT_STAT_NULL_COUNT), 1);
    char negz[32], posz[32];
    pqt_format_float64(-0.0, negz, sizeof negz);
    pqt_format_float64(2.5, posz, sizeof posz);
    stat_is(f, 1, 1, PQT_STAT_MIN, negz);
    stat_is(f, 1, 1, PQT_STAT_MAX, posz);
    stat_is(f, 0, 2, PQT_STAT_MIN, "1");
    stat_is(f, 0, 2, PQT_STAT_MAX, "18446744073709551615");
    stat_is(f, 0, 3, PQT_STAT_MIN, "\"\"");
    stat_is(f, 0, 3, PQT_STAT_MAX, "\"b\"");
    stat_is(f, 1, 3, PQT_STAT_MIN, "\"x\"");
    stat_is(f, 1, 3, PQT_STAT_MAX, "\"\xc3\xa9\"");
    CHECK_EQ_I64(pqt_file_chunk_stat_count(f, 0, 3, PQT_STAT_NULL_COUNT), 1);
    CHECK_EQ_I64(pqt_file_chunk_stat_exact(f, 0, 0, PQT_STAT_MIN), 1);
    for (int rg = 0; rg < 2; rg++) {
        for (int leaf = 0; leaf < 4; leaf++) {
            CHECK_EQ_I64(pqt_file_chunk_has_offset_index(f, rg, leaf), 1);
            CHECK_EQ_I64(pqt_file_chunk_has_column_index(f, rg, leaf), rg == 0 && leaf == 1 ? 0 : 1);
            CHECK_EQ_I64(pqt_file_chunk_has_bloom_filter(f, rg, leaf), leaf == 3);
        }
    }
    pqt_file_close(f);
    /* the bloom filter refutes "ab" in row group 1 (within its bounds "" .. "b"); statistics
     * refute row group 2; "b" is present and must survive every mechanism */
    const char *rules[2] = {"s == \"ab\"", "s == \"b\""};
    for (int k = 0; k < 2; k++) {
        pqt_opts *ro = NULL;
        REQUIRE_OK(pqt_opts_new(&ro));
        CHECK_OK(pqt_opts_set_int(ro, PQT_OPT_PUSHDOWN_DICTIONARY, 0));
        CHECK_OK(pqt_opts_set_int(ro, PQT_OPT_PUSHDOWN_PAGE_INDEX, 0));
        CHECK_OK(pqt_opts_set_str(ro, PQT_OPT_FILTER, rules[k]));
        pqt_table *ft = NULL;
        REQUIRE_OK(pqt_table_open(p, ro, &ft));
        CHECK_EQ_I64(pqt_table_nrows(ft), k);
        pqt_scan_counts sc;
        CHECK_OK(pqt_table_scan_stats(ft, &sc));
        if (k == 0) CHECK_EQ_I64(sc.row_groups_pruned_bloom, 1);
        pqt_table_close(ft);
        pqt_opts_free(ro);
    }
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* Flip the first byte of the 8-byte pattern in the file at path; 1 when found. */
static int flip_pattern(const char *path, uint64_t pattern)
{
    FILE *fp = fopen(path, "r+b");
    if (!fp) return 0;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    unsigned char *b = malloc((size_t)n);
    fseek(fp, 0, SEEK_SET);
    int found = 0;
    if (fread(b, 1, (size_t)n, fp) == (size_t)n) {
        for (long i = 0; i + 8 <= n && !found; i++) {
            if (memcmp(b + i, &pattern, 8) == 0) {
                fseek(fp, i, SEEK_SET);
                fputc(b[i] ^ 0x01, fp);
                found = 1;
            }
        }
    }
    free(b);
    fclose(fp);
    return found;
}

static void page_crc(void)
{
    const uint64_t pattern = 0x1122334455667788ULL;
    int64_t v[64];
    for (int k = 0; k < 64; k++) v[k] = (int64_t)(pattern + (uint64_t)k * 0x100000000ULL);
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "v", PQT_INT64, 1, v, NULL, 64, NULL));
    for (int crc = 0; crc <= 1; crc++) {
        char p[300];
        path_of(p, sizeof p, crc ? "crc.parquet" : "nocrc.parquet");
        pqt_write_opts *o = NULL;
        REQUIRE_OK(pqt_write_opts_new(&o));
        CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_CODEC, "none"));
        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_STATISTICS, 0));
        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_INDEX, 0));
        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_CRC, crc));
        REQUIRE_OK(pqt_write_table(t, p, o));
        pqt_write_opts_free(o);
        CHECK(flip_pattern(p, (uint64_t)v[10]));
        pqt_table *r = NULL;
        REQUIRE_OK(pqt_table_open(p, NULL, &r));
        int64_t got[64];
        pqt_status st = pqt_table_get(r, "v", 0, got, sizeof got, NULL, 0);
        if (crc) {
            CHECK(st != PQT_OK);
            CHECK(strstr(pqt_errmsg(), "CRC") != NULL || strstr(pqt_errmsg(), "crc") != NULL);
        } else {
            CHECK_OK(st);
            CHECK(got[10] != v[10] && got[11] == v[11]);
        }
        pqt_table_close(r);
    }
    pqt_table_close(t);
}

static void row_index_column(void)
{
    char p[300];
    path_of(p, sizeof p, "rowidx.parquet");
    pqt_opts *ro = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    CHECK_OK(pqt_opts_set_str(ro, PQT_OPT_FILTER, "id > 4000 and id <= 4100"));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open("tests/data/table_rg.parquet", ro, &t));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_ROW_INDEX_NAME, "file_row"));
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_table *r = NULL;
    REQUIRE_OK(pqt_table_open(p, NULL, &r));
    int64_t n = pqt_table_nrows(t);
    CHECK_EQ_I64(n, 100);
    CHECK_EQ_I64(pqt_table_nrows(r), n);
    int64_t *a = calloc((size_t)n, 8), *b = calloc((size_t)n, 8), *id = calloc((size_t)n, 8);
    CHECK_OK(pqt_table_get(t, PQT_ROW_INDEX, 0, a, (size_t)n * 8, NULL, 0));
    CHECK_OK(pqt_table_get(r, "file_row", 0, b, (size_t)n * 8, NULL, 0));
    CHECK_OK(pqt_table_get(r, "id", PQT_INT64, id, (size_t)n * 8, NULL, 0));
    for (int64_t i = 0; i < n; i++) {
        CHECK_EQ_I64(a[i], b[i]);
        CHECK_EQ_I64(b[i], id[i]); /* table_rg's id is its 1-based file row */
        CHECK_EQ_I64(id[i], 4001 + i);
    }
    free(a);
    free(b);
    free(id);
    pqt_table_close(r);
    pqt_table_close(t);
    pqt_opts_free(ro);
    pqt_write_opts_free(o);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_stats_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    statistics_and_bloom();
    page_crc();
    row_index_column();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_stats");
}
