/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_encoding.c - the writer's dictionary decisions (docs/writing.md): a column whose
 * dictionary passes its limit in the first row group is written PLAIN in that row group (the
 * index pages already made are redone, so no chunk mixes a dictionary with PLAIN pages) and
 * in every later row group, even when their values would suit a dictionary; a low-cardinality
 * column keeps its dictionary in every row group. Checked from the files' column-chunk
 * encodings and sizes: with no codec a PLAIN chunk of 4000 int64 holds all 32,000 value
 * bytes plus page headers only (a dictionary in front would make it smaller there, so the
 * lower bound catches a dictionary kept), and with zstd each fallen-back chunk is exactly as
 * large as the same chunk written with the dictionary off. Values read back as written (hand
 * formulas), with page v1 and v2, nulls and a vector column, and a filter at open that
 * locates pages through the rewritten offset index.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

enum { NROWS = 12000, RG = 4000, W = 3 };

static char g_dir[256];

/* Row group 1 is high cardinality (each value twice, sorted); later ones a constant. */
static int64_t hi_of(int64_t i)
{
    return i < RG ? i / 2 : 7;
}

static int64_t vec_of(int64_t i, int j)
{
    return i < RG ? (W * i + j) / 2 : 1;
}

static int s_null(int64_t i)
{
    return i % 7 == 3;
}

static void s_of(int64_t i, char *buf, size_t cap)
{
    if (i < RG) snprintf(buf, cap, "v%lld", (long long)(i / 2));
    else snprintf(buf, cap, "c");
}

static pqt_table *make_table(void)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t *hi = malloc(NROWS * sizeof *hi), *vec = malloc((size_t)NROWS * W * sizeof *vec);
    int32_t *lo = malloc(NROWS * sizeof *lo);
    int64_t *off = malloc((NROWS + 1) * sizeof *off);
    char *bytes = malloc((size_t)NROWS * 16);
    uint8_t *sv = calloc(NROWS / 8 + 1, 1);
    REQUIRE_OK(!hi || !vec || !lo || !off || !bytes || !sv);
    off[0] = 0;
    for (int64_t i = 0; i < NROWS; i++) {
        hi[i] = hi_of(i);
        lo[i] = (int32_t)(i % 5);
        for (int j = 0; j < W; j++) vec[i * W + j] = vec_of(i, j);
        char b[32];
        s_of(i, b, sizeof b);
        size_t n = s_null(i) ? 0 : strlen(b);
        memcpy(bytes + off[i], b, n);
        off[i + 1] = off[i] + (int64_t)n;
        if (!s_null(i)) sv[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    CHECK_OK(pqt_table_add_column(t, "hi", PQT_INT64, 1, hi, NULL, NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "lo", PQT_INT32, 1, lo, NULL, NROWS, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "s", 1, off, bytes, sv, NROWS, NULL));
    CHECK_OK(pqt_table_add_column(t, "vec", PQT_INT64 | PQT_VECTOR, W, vec, NULL, NROWS, NULL));
    free(hi);
    free(vec);
    free(lo);
    free(off);
    free(bytes);
    free(sv);
    return t;
}

static pqt_write_opts *opts_for(const char *codec, int page_version, int dictionary)
{
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_CODEC, codec));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_VERSION, page_version));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, dictionary));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG));
    /* pages of ~256 int64: the first page of "hi" is half distinct (no first-page rule),
     * and several index pages exist when its dictionary passes 4096 bytes (512 entries) */
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 2048));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY_NBYTES, 4096));
    return o;
}

static int has_dict(const pqt_file *f, int rg, int leaf)
{
    for (int i = 0; i < pqt_file_chunk_nencodings(f, rg, leaf); i++)
        if (strcmp(pqt_file_chunk_encoding(f, rg, leaf, i), "RLE_DICTIONARY") == 0) return 1;
    return 0;
}

static void values_read_back(const char *path)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), NROWS);
    int64_t *hi = NULL, *vec = NULL, n = 0;
    int32_t *lo = NULL;
    uint8_t *val = NULL;
    CHECK_OK(pqt_table_get_alloc(t, "hi", PQT_INT64, (void **)&hi, &val, &n));
    CHECK_EQ_I64(n, NROWS);
    int bad = 0;
    for (int64_t i = 0; hi && i < NROWS; i++) bad += hi[i] != hi_of(i);
    CHECK_EQ_I64(bad, 0);
    CHECK_OK(pqt_table_get_alloc(t, "lo", PQT_INT32, (void **)&lo, &val, &n));
    for (int64_t i = 0; lo && i < NROWS; i++) bad += lo[i] != i % 5;
    CHECK_EQ_I64(bad, 0);
    CHECK_OK(pqt_table_get_alloc(t, "vec", PQT_INT64, (void **)&vec, &val, &n));
    CHECK_EQ_I64(n, (int64_t)NROWS * W);
    for (int64_t i = 0; vec && i < NROWS; i++)
        for (int j = 0; j < W; j++) bad += vec[i * W + j] != vec_of(i, j);
    CHECK_EQ_I64(bad, 0);
    int64_t *off = NULL;
    char *bytes = NULL;
    uint8_t *sv = NULL;
    CHECK_OK(pqt_table_get_strings_alloc(t, "s", &off, &bytes, &sv, &n));
    CHECK_EQ_I64(n, NROWS);
    for (int64_t i = 0; off && sv && i < NROWS; i++) {
        int valid = sv[i >> 3] >> (i & 7) & 1;
        if (valid == s_null(i)) {
            bad++;
            continue;
        }
        char b[32];
        s_of(i, b, sizeof b);
        if (valid && ((size_t)(off[i + 1] - off[i]) != strlen(b) ||
                      memcmp(bytes + off[i], b, strlen(b)) != 0))
            bad++;
    }
    CHECK_EQ_I64(bad, 0);
    pqt_free(hi);
    pqt_free(lo);
    pqt_free(vec);
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(sv);
    pqt_table_close(t);

    /* hi == 1000 holds for rows 2000 and 2001 (1-based 2001, 2002): pages found through the
     * offset index, whose entries the PLAIN rewrite moved */
    pqt_opts *ro = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    CHECK_OK(pqt_opts_set_str(ro, PQT_OPT_FILTER, "hi == 1000"));
    REQUIRE_OK(pqt_table_open(path, ro, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), 2);
    int64_t *v = NULL;
    CHECK_OK(pqt_table_get_alloc(t, "vec", PQT_INT64, (void **)&v, &val, &n));
    CHECK_EQ_I64(n, 2 * W);
    if (v && n == 2 * W) {
        CHECK_EQ_I64(v[0], vec_of(2000, 0));
        CHECK_EQ_I64(v[5], vec_of(2001, 2));
    }
    pqt_free(v);
    pqt_table_close(t);
    pqt_opts_free(ro);
}

/* Leaves: 0 hi, 1 lo, 2 s, 3 vec. */
static void decisions(int page_version)
{
    char p[300], q[300];
    pqt_table *t = make_table();

    snprintf(p, sizeof p, "%s/none_v%d.parquet", g_dir, page_version);
    pqt_write_opts *o = opts_for("none", page_version, 1);
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_write_opts_free(o);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), 3);
    for (int rg = 0; rg < 3; rg++) {
        /* hi, s and vec gave up in row group 1, so later row groups do not try again */
        CHECK_EQ_I64(has_dict(f, rg, 0), 0);
        CHECK_EQ_I64(has_dict(f, rg, 2), 0);
        CHECK_EQ_I64(has_dict(f, rg, 3), 0);
        /* lo: 5 values, a dictionary in every row group */
        CHECK_EQ_I64(has_dict(f, rg, 1), 1);
        /* 4000 indices of 3 bits (1500 bytes), a 20-byte dictionary, a few headers: far
         * below PLAIN's 16,000 bytes */
        CHECK(pqt_file_chunk_compressed_nbytes(f, rg, 1) < 2500);
    }
    /* hi, row group 1, PLAIN: 4000 x 8 value bytes (required: no levels) and at most 16 page
     * headers (2048-byte pages) of under 64 bytes; a dictionary of 512 entries plus index
     * pages in front of the PLAIN rest would be under 32,000 */
    int64_t hb = pqt_file_chunk_compressed_nbytes(f, 0, 0);
    CHECK(hb >= 32000 && hb <= 32000 + 16 * 64);
    pqt_file_close(f);
    values_read_back(p);

    /* zstd: every fallen-back chunk is exactly the chunk the writer makes without a
     * dictionary (same pages, same bytes) */
    snprintf(p, sizeof p, "%s/zstd_v%d.parquet", g_dir, page_version);
    snprintf(q, sizeof q, "%s/zstd_plain_v%d.parquet", g_dir, page_version);
    o = opts_for("zstd", page_version, 1);
    REQUIRE_OK(pqt_write_table(t, p, o));
    pqt_write_opts_free(o);
    o = opts_for("zstd", page_version, 0);
    REQUIRE_OK(pqt_write_table(t, q, o));
    pqt_write_opts_free(o);
    pqt_file *g = NULL;
    REQUIRE_OK(pqt_file_open(p, NULL, &f));
    REQUIRE_OK(pqt_file_open(q, NULL, &g));
    for (int rg = 0; rg < 3; rg++) {
        for (int leaf = 0; leaf < 4; leaf++) {
            if (leaf == 1) {
                CHECK_EQ_I64(has_dict(f, rg, 1), 1);
                continue;
            }
            CHECK_EQ_I64(pqt_file_chunk_compressed_nbytes(f, rg, leaf),
                         pqt_file_chunk_compressed_nbytes(g, rg, leaf));
        }
    }
    pqt_file_close(f);
    pqt_file_close(g);
    values_read_back(p);
    pqt_table_close(t);
}

/* How many row groups the explain of `rule` on path says the dictionary decided. */
static int dict_decided(const char *path, const char *rule, int64_t *nrows)
{
    pqt_opts *ro = NULL;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_opts_new(&ro));
    CHECK_OK(pqt_opts_set_str(ro, PQT_OPT_FILTER, rule));
    REQUIRE_OK(pqt_table_open(path, ro, &t));
    *nrows = pqt_table_nrows(t);
    char buf[4096];
    pqt_table_explain(t, buf, sizeof buf);
    int n = 0;
    for (const char *at = buf; (at = strstr(at, "by the dictionary")) != NULL; at++) n++;
    pqt_table_close(t);
    pqt_opts_free(ro);
    return n;
}

/* The writer's encoding_stats say every data page of a dictionary chunk is dictionary
 * encoded, so a reader decides a predicate inside the statistics' range on the dictionary
 * alone: k cycles 10, 20, 30 and t "a", "c", "e" in each of 3 row groups. PLAIN chunks give
 * the dictionary nothing to decide (the control). */
static void dictionary_proofs(void)
{
    enum { N = 3 * RG };
    int32_t *k = malloc(N * sizeof *k);
    int64_t *off = malloc((N + 1) * sizeof *off);
    char *bytes = malloc(N);
    REQUIRE_OK(!k || !off || !bytes);
    off[0] = 0;
    for (int64_t i = 0; i < N; i++) {
        k[i] = (int32_t)(10 * (i % 3 + 1));
        bytes[i] = (char)('a' + 2 * (i % 3));
        off[i + 1] = i + 1;
    }
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "k", PQT_INT32, 1, k, NULL, N, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "t", 1, off, bytes, NULL, N, NULL));
    for (int dictionary = 1; dictionary >= 0; dictionary--) {
        char p[300];
        snprintf(p, sizeof p, "%s/proofs_%d.parquet", g_dir, dictionary);
        pqt_write_opts *o = opts_for("zstd", 1, dictionary);
        CHECK_OK(pqt_write_table(t, p, o));
        pqt_write_opts_free(o);
        int64_t n = -1;
        CHECK_EQ_I64(dict_decided(p, "k == 15", &n), dictionary ? 3 : 0);
        CHECK_EQ_I64(n, 0);
        CHECK_EQ_I64(dict_decided(p, "t == \"b\"", &n), dictionary ? 3 : 0);
        CHECK_EQ_I64(n, 0);
        CHECK_EQ_I64(dict_decided(p, "k != 15", &n), dictionary ? 3 : 0);
        CHECK_EQ_I64(n, N);
        CHECK_EQ_I64(dict_decided(p, "t == \"c\"", &n), 0); /* some rows of each: read */
        CHECK_EQ_I64(n, RG);
    }
    pqt_table_close(t);
    free(k);
    free(off);
    free(bytes);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_encoding_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    decisions(1);
    decisions(2);
    dictionary_proofs();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_encoding");
}
