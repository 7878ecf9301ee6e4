/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_bloom_build_lib.c - the split-block bloom filter builder (write/bloom_build.c).
 *
 * Truth: (1) sizes computed by hand from the bits-per-value formula (ndv 1000 at 1% is
 * 1210 bytes, so 2 KiB; a million is 2 MiB; the caps); (2) xxHash64's published values for
 * "" and "abc"; (3) a reference insert written here from BloomFilter.md's pseudo-code, which
 * must set the same bits; (4) the reader's probe (column/bloom.c, pqt_chunk_bloom_absent)
 * over a file image holding the filter: every inserted value is found, both through the
 * per-block and the whole-bitset paths, and the measured false-positive rate of values never
 * inserted is near the fpp asked for.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "column/column.h"
#include "format/meta.h"
#include "format/schema.h"
#include "testutil.h"
#include "util/io.h"
#include "write/enc.h"

static size_t nbytes_for(uint64_t ndv, double fpp)
{
    pqt_bloom_builder *b = NULL;
    REQUIRE_OK(pqt_bloom_builder_new(&b, ndv, fpp));
    size_t n = pqt_bloom_builder_nbytes(b);
    pqt_bloom_builder_free(b);
    return n;
}

static void test_sizes(void)
{
    CHECK_EQ_I64(nbytes_for(0, 0.01), 32);
    CHECK_EQ_I64(nbytes_for(10, 0.01), 32);     /* 12 bytes */
    CHECK_EQ_I64(nbytes_for(1000, 0.01), 2048); /* 9.68 bits a value: 1210 bytes */
    CHECK_EQ_I64(nbytes_for(1000000, 0.01), 2 << 20);
    CHECK_EQ_I64(nbytes_for(1000000, 0.1), 1 << 20); /* 5.0 bits: 625 KB */
    CHECK_EQ_I64(nbytes_for(1000000000, 0.001), 128 << 20);
    pqt_bloom_builder *b = NULL;
    CHECK(pqt_bloom_builder_new(&b, 10, 0.0) == PQT_MISUSE);
    CHECK(pqt_bloom_builder_new(&b, 10, 1.0) == PQT_MISUSE);
    CHECK(pqt_bloom_builder_new(&b, 10, NAN) == PQT_MISUSE);
}

static void test_hash(void)
{
    CHECK(pqt_bloom_hash("", 0) == 0xef46db3751d8e999ull);
    CHECK(pqt_bloom_hash(NULL, 0) == 0xef46db3751d8e999ull);
    CHECK(pqt_bloom_hash("abc", 3) == 0x44bc2cf5ad770999ull);
}

/* BloomFilter.md's block_insert, byte by byte. */
static void ref_insert(uint8_t *bits, size_t nbytes, uint64_t h)
{
    static const uint32_t salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                     0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
    uint64_t z = nbytes / 32;
    uint64_t block = ((h >> 32) * z) >> 32;
    uint32_t x = (uint32_t)h;
    for (int i = 0; i < 8; i++) {
        uint32_t bit = (uint32_t)(x * salt[i]) >> 27;
        bits[32 * block + 4 * i + bit / 8] |= (uint8_t)(1u << (bit % 8));
    }
}

/* A file image "PAR1" + filter + 8 bytes, and what the probe needs to find the filter. */
typedef struct image {
    pqt_buf file;
    pqt_io *io;
    pqt_column_chunk cc;
    pqt_row_group rg;
    pqt_file_meta meta;
    pqt_col col;
    pqt_chunk_src src;
} image;

static void image_open(image *im, const pqt_bloom_builder *b, bool with_length)
{
    memset(im, 0, sizeof *im);
    CHECK_OK(pqt_buf_append(&im->file, "PAR1", 4));
    CHECK_OK(pqt_bloom_builder_write(b, &im->file));
    int64_t len = (int64_t)im->file.len - 4;
    CHECK_OK(pqt_buf_append(&im->file, "\0\0\0\0PAR1", 8));
    REQUIRE_OK(pqt_io_open_mem(im->file.data, im->file.len, "bloom.parquet", &im->io));
    im->cc.has_meta = true;
    im->cc.meta.bloom_filter_offset = 4;
    im->cc.meta.has_bloom_filter_offset = true;
    im->cc.meta.bloom_filter_length = (int32_t)len;
    im->cc.meta.has_bloom_filter_length = with_length;
    im->rg.columns = &im->cc;
    im->rg.ncolumns = 1;
    im->meta.row_groups = &im->rg;
    im->meta.n_row_groups = 1;
    im->src.io = im->io;
    im->src.path = "bloom.parquet";
    im->src.file_size = (int64_t)im->file.len;
    im->src.meta = &im->meta;
}

static void image_close(image *im)
{
    pqt_io_unref(im->io);
    pqt_buf_free(&im->file);
}

static bool probe_absent(image *im, const uint64_t *h, int64_t n)
{
    bool absent = false, read = false;
    CHECK_OK(pqt_chunk_bloom_absent(&im->src, 0, &im->col, h, n, &absent, &read));
    CHECK(read);
    return absent;
}

static double run(uint64_t ndv, double fpp, bool with_length)
{
    pqt_bloom_builder *b = NULL;
    REQUIRE_OK(pqt_bloom_builder_new(&b, ndv, fpp));
    size_t nbytes = pqt_bloom_builder_nbytes(b);
    uint8_t *ref = calloc(1, nbytes);
    uint64_t *hs = malloc(ndv * sizeof *hs);
    for (uint64_t i = 0; i < ndv; i++) {
        int64_t v = (int64_t)(i * 7919 + 13); /* INT64 values, hashed as their PLAIN bytes */
        hs[i] = pqt_bloom_hash(&v, 8);
        ref_insert(ref, nbytes, hs[i]);
    }
    pqt_bloom_builder_insert(b, hs[0]);
    pqt_bloom_builder_insert_many(b, hs + 1, ndv - 1);

    image im;
    image_open(&im, b, with_length);
    pqt_bloom_header h;
    size_t hdr = 0;
    CHECK_OK(pqt_meta_decode_bloom_header(im.file.data + 4, im.file.len - 4, 4, &h, &hdr));
    CHECK(h.num_bytes == (int32_t)nbytes && h.algorithm_id == 1 && h.hash_id == 1 &&
          h.compression_id == 1);
    CHECK(memcmp(im.file.data + 4 + hdr, ref, nbytes) == 0); /* the same bits as the spec's */

    /* every inserted value present: one at a time, and all at once (whole-bitset path) */
    int missed = 0;
    for (uint64_t i = 0; i < ndv; i += 1 + ndv / 500)
        missed += probe_absent(&im, &hs[i], 1);
    CHECK(missed == 0);
    CHECK(!probe_absent(&im, hs, (int64_t)ndv));

    /* values never inserted: the false-positive rate */
    const int ntry = 20000;
    int fp = 0;
    for (int i = 0; i < ntry; i++) {
        int64_t v = -1 - i * 7919LL; /* negative: never inserted */
        uint64_t x = pqt_bloom_hash(&v, 8);
        fp += !probe_absent(&im, &x, 1);
    }
    double rate = (double)fp / ntry;
    if (getenv("PQT_TEST_VERBOSE") || rate > 2 * fpp + 0.002)
        fprintf(stderr, "  ndv %llu fpp %g: %zu bytes, measured %g\n", (unsigned long long)ndv, fpp,
                nbytes, rate);
    CHECK(rate <= 2 * fpp + 0.002);
    image_close(&im);

    /* reset: nothing is in it */
    pqt_bloom_builder_reset(b);
    image_open(&im, b, true);
    CHECK(probe_absent(&im, hs, 1));
    image_close(&im);

    pqt_bloom_builder_free(b);
    free(ref);
    free(hs);
    return rate;
}

int main(void)
{
    test_sizes();
    test_hash();
    run(1000, 0.01, true);
    run(5000, 0.05, false);
    run(30000, 0.001, true);
    /* a filter filled to its size: 4096 bytes at 1% hold 3384 values (9.68 bits each),
     * where the rate measured must be close to 1% from both sides */
    CHECK_EQ_I64(nbytes_for(3384, 0.01), 4096);
    CHECK_EQ_I64(nbytes_for(3385, 0.01), 8192);
    double rate = run(3384, 0.01, true);
    CHECK(rate > 0.005 && rate < 0.02);
    return pqt_test_done("test_bloom_build_lib");
}
