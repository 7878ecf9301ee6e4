/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_chunk_place.c - column chunks read from the file straight into their rows
 * (column/chunk_place.c) against the same file read from memory, which never takes that
 * path (a memory source has nothing to scatter from): files written with random doubles,
 * int64s and floats (snappy stores them as literals: placed), sequential int32s (snappy
 * finds copies: declined), columns with nulls (declined) and without, SNAPPY, UNCOMPRESSED
 * and ZSTD, data page v1 and v2, one page or many per chunk, with and without page CRCs
 * (verified: declined), several row groups, at 1 and 2 threads. Every value and validity
 * bit must match, and the placed path must have run where it applies and not elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "column/column_int.h"
#include "pqt_file.h"
#include "testutil.h"

static uint64_t rng = 2026;

/* Every column of the file at path, read into place from the path, equals its read from
 * memory; placed[c]: the chunks of column c placed. */
static void compare_file(const char *path, int threads, int64_t *placed)
{
    size_t n = 0;
    char *mem = pqt_test_read_file(path, &n);
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    pqt_file *fp = NULL, *fm = NULL;
    REQUIRE_OK(pqt_file_open(path, o, &fp));
    REQUIRE_OK(pqt_file_open_mem(mem, n, "mem", o, &fm));
    int64_t rows = pqt_file_nrows(fp);
    for (int c = 0; c < pqt_file_ncols(fp); c++) {
        int64_t before = pqt_chunk_placed_total();
        size_t nb = (size_t)rows * 8 + 8, vb = (size_t)(rows + 7) / 8 + 1;
        uint8_t *a = malloc(nb), *b = malloc(nb), *va = malloc(vb), *vm = malloc(vb);
        memset(a, 0xA5, nb);
        memset(b, 0x5A, nb);
        CHECK_OK(pqt_file_read_into(fp, c, 1, rows, a, nb, va));
        CHECK_OK(pqt_file_read_into(fm, c, 1, rows, b, nb, vm));
        size_t used = (size_t)rows * pqt_kind_elem_nbytes(pqt_file_column_kind(fp, c));
        if (memcmp(a, b, used) != 0 || memcmp(va, vm, (size_t)(rows + 7) / 8) != 0) {
            fprintf(stderr, "%s: column %d differs placed vs memory\n", path, c);
            pqt_test_failures++;
        }
        /* and with no validity asked for (no bitmap built at all) */
        memset(a, 0xA5, nb);
        CHECK_OK(pqt_file_read_into(fp, c, 1, rows, a, nb, NULL));
        CHECK(memcmp(a, b, used) == 0);
        placed[c] = pqt_chunk_placed_total() - before;
        free(a);
        free(b);
        free(va);
        free(vm);
    }
    pqt_file_close(fp);
    pqt_file_close(fm);
    pqt_opts_free(o);
    free(mem);
}

int main(void)
{
    char dir[] = "/tmp/pqt_place_XXXXXX", path[600];
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/t.parquet", dir);
    const int64_t n = 300000;
    double *f64 = malloc((size_t)n * 8);
    int64_t *i64 = malloc((size_t)n * 8);
    float *f32 = malloc((size_t)n * 4);
    int32_t *seq = malloc((size_t)n * 4);
    uint8_t *valid = malloc((size_t)(n + 7) / 8), *all = malloc((size_t)(n + 7) / 8);
    memset(all, 0xff, (size_t)(n + 7) / 8);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = pqt_test_rand(&rng);
        memcpy(&f64[i], &r, 8);
        if (f64[i] != f64[i]) f64[i] = (double)i; /* no NaN: compared as bytes anyway */
        i64[i] = (int64_t)pqt_test_rand(&rng);
        f32[i] = (float)(r >> 11) * 0x1p-53f;
        seq[i] = (int32_t)i;
    }
    for (int64_t i = 0; i < (n + 7) / 8; i++)
        valid[i] = (uint8_t)pqt_test_rand(&rng) | 0x11;
    static const char *const codecs[] = {"snappy", "uncompressed", "zstd"};
    for (int c = 0; c < 3; c++)
        for (int v = 1; v <= 2; v++)
            for (int crc = 0; crc < 2; crc++)
                for (int small = 0; small < 2; small++) {
                    pqt_table *t = NULL;
                    REQUIRE_OK(pqt_table_new(&t));
                    /* required and nullable-without-nulls: placed; with nulls, or copies: not */
                    CHECK_OK(pqt_table_add_column(t, "f64", PQT_FLOAT64, 1, f64, NULL, n, NULL));
                    CHECK_OK(pqt_table_add_column(t, "i64", PQT_INT64, 1, i64, NULL, n, NULL));
                    CHECK_OK(pqt_table_add_column(t, "f32", PQT_FLOAT32, 1, f32, NULL, n, NULL));
                    CHECK_OK(pqt_table_add_column(t, "f64_opt", PQT_FLOAT64, 1, f64, all, n, NULL));
                    CHECK_OK(
                        pqt_table_add_column(t, "f64_nulls", PQT_FLOAT64, 1, f64, valid, n, NULL));
                    CHECK_OK(pqt_table_add_column(t, "seq", PQT_INT32, 1, seq, NULL, n, NULL));
                    pqt_write_opts *o = NULL;
                    REQUIRE_OK(pqt_write_opts_new(&o));
                    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_CODEC, codecs[c]));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_VERSION, v));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_CRC, crc));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 120000));
                    /* pages of 64 KiB + change (several per chunk, blocks cut mid-value) or
                     * one page per chunk */
                    CHECK_OK(
                        pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, small ? 70001 : 4 << 20));
                    CHECK_OK(pqt_write_table(t, path, o));
                    pqt_write_opts_free(o);
                    pqt_table_close(t);
                    for (int threads = 1; threads <= 2; threads++) {
                        int64_t placed[6] = {0};
                        compare_file(path, threads, placed);
                        /* f64, i64 and f64_opt (columns 0, 1, 3): three row groups placed by
                         * each of two reads when the codec allows it and no CRC is to be
                         * verified (CRCs are, by default); f64_nulls (4) never */
                        int64_t want = c < 2 && !crc ? 2 * 3 : 0;
                        static const int cols[] = {0, 1, 3};
                        for (int k = 0; k < 3; k++)
                            if (placed[cols[k]] != want) {
                                fprintf(stderr,
                                        "%s v%d crc %d small %d threads %d: column %d: "
                                        "%lld chunks placed, want %lld\n",
                                        codecs[c], v, crc, small, threads, cols[k],
                                        (long long)placed[cols[k]], (long long)want);
                                pqt_test_failures++;
                            }
                        CHECK_EQ_I64(placed[4], 0);
                    }
                }
    unlink(path);
    rmdir(dir);
    free(f64);
    free(i64);
    free(f32);
    free(seq);
    free(valid);
    free(all);
    return pqt_test_done("test_chunk_place");
}
