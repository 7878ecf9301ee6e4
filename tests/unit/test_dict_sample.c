/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_dict_sample.c - pqt_dict_sample_distinct against the exact count it stands in for:
 * pages of int64, doubles and strings with a known number of distinct values k among n, laid
 * out at random, in adjacent runs (a, a, b, b, ...) and in cycles. The sample may only say
 * "nearly all distinct" when k > 0.9 n would hold; it must say so for all-distinct pages
 * (where the dictionary trial is wasted work), and never for pages under 8192 values.
 * Then the writer: a first page of distinct doubles is written PLAIN, one of 20,000 values
 * cycling among 128k rows is dictionary encoded, as before the sample existed.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"
#include "write/enc.h"

static uint64_t rng = 7;

/* Value i of a page of n with k distinct values: random, runs of n / k, or i mod k. */
static int64_t value(int layout, int64_t i, int64_t n, int64_t k, const int64_t *perm)
{
    if (layout == 0) return perm[i] % k;
    if (layout == 1) return i / ((n + k - 1) / k);
    return i % k;
}

static void fixed_pages(void)
{
    const int64_t ns[] = {8192, 100000, 131072};
    for (int a = 0; a < 3; a++) {
        int64_t n = ns[a];
        int64_t *perm = malloc((size_t)n * sizeof *perm), *v = malloc((size_t)n * sizeof *v);
        REQUIRE_OK(perm && v ? PQT_OK : PQT_NOMEM);
        for (int64_t i = 0; i < n; i++) perm[i] = i;
        for (int64_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
            int64_t j = (int64_t)(pqt_test_rand(&rng) % (uint64_t)(i + 1)), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        const double fractions[] = {1.0, 0.95, 0.5, 0.25, 0.01};
        for (int f = 0; f < 5; f++) {
            int64_t k = (int64_t)(fractions[f] * (double)n);
            for (int layout = 0; layout < 3; layout++) {
                for (int64_t i = 0; i < n; i++) v[i] = value(layout, i, n, k, perm) * 7919 + 3;
                bool said = pqt_dict_sample_distinct((const uint8_t *)v, NULL, 8, (size_t)n);
                if (k * 10 <= n * 9 && said) {
                    fprintf(stderr, "n %lld, k %lld, layout %d: called distinct\n", (long long)n,
                            (long long)k, layout);
                    CHECK(0);
                }
                if (k == n) CHECK(said);
            }
        }
        free(perm);
        free(v);
    }
    int64_t few[4096];
    for (int i = 0; i < 4096; i++) few[i] = i;
    CHECK(!pqt_dict_sample_distinct((const uint8_t *)few, NULL, 8, 4096)); /* small: count */
}

static void string_pages(void)
{
    enum { N = 50000 };
    int64_t *off = malloc((N + 1) * sizeof *off);
    char *bytes = malloc(N * 16);
    REQUIRE_OK(off && bytes ? PQT_OK : PQT_NOMEM);
    for (int pass = 0; pass < 2; pass++) {
        off[0] = 0;
        for (int64_t i = 0; i < N; i++) /* distinct, then 1000 names repeating */
            off[i + 1] = off[i] + snprintf(bytes + off[i], 16, "obj%lld",
                                           (long long)(pass ? i % 1000 : i));
        bool said = pqt_dict_sample_distinct((const uint8_t *)bytes, off, 0, N);
        CHECK(said == (pass == 0));
    }
    free(off);
    free(bytes);
}

/* Whether the file's first chunk lists a dictionary encoding. */
static bool chunk_is_dictionary(const char *path)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    bool dict = false;
    for (int i = 0; i < pqt_file_chunk_nencodings(f, 0, 0); i++)
        dict = dict || strstr(pqt_file_chunk_encoding(f, 0, 0, i), "DICTIONARY") != NULL;
    pqt_file_close(f);
    return dict;
}

static void writer_decisions(void)
{
    enum { N = 131072 };
    double *x = malloc(N * sizeof *x);
    REQUIRE_OK(x ? PQT_OK : PQT_NOMEM);
    char dir[] = "/tmp/pqt_dict_sample_XXXXXX", path[64];
    REQUIRE_OK(mkdtemp(dir) ? PQT_OK : PQT_IO);
    snprintf(path, sizeof path, "%s/x.parquet", dir);
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < N; i++) x[i] = pass ? (double)(i % 20000) * 0.25 : (double)i * 0.25;
        pqt_table *t = NULL;
        REQUIRE_OK(pqt_table_new(&t));
        CHECK_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, NULL, N, NULL));
        pqt_write_opts *o = NULL;
        REQUIRE_OK(pqt_write_opts_new(&o));
        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
        CHECK_OK(pqt_write_table(t, path, o));
        pqt_write_opts_free(o);
        pqt_table_close(t);
        CHECK(chunk_is_dictionary(path) == (pass == 1));
    }
    unlink(path);
    rmdir(dir);
    free(x);
}

int main(void)
{
    fixed_pages();
    string_pages();
    writer_decisions();
    return pqt_test_done("test_dict_sample");
}
