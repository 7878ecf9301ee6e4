/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_mem_hostile.c - memory a file cannot justify is never allocated (issue 9).
 *
 * Every file is built here (pqbuild.h) with one lie in it, and read through the public
 * API while memcount.h counts the library's heap:
 *   - a list page whose levels claim 2^31-1 entries in a chunk whose footer says 3 (v1 and
 *     v2 pages; and a second page claiming more than the first left): refused before the
 *     level buffers are made (it cost 6.3 GB and up to 19 s), naming the page;
 *   - a footer claiming 2^31 values for 3 rows: PQT_CORRUPT (it was "out of memory");
 *     and the honest twin, a row of 100,000 null elements in a few bytes of RLE, still
 *     reads (list elements grow as the pages show them);
 *   - decompression bombs: zstd and gzip pages claiming 64 MiB in a chunk whose
 *     total_uncompressed_size says 1,255 bytes; a snappy page claiming more than snappy can
 *     expand; an INT64 page claiming more than its values can take; a page decompressing
 *     to more than it claims (the codec stops at the claim);
 *   - 8 row groups sharing one honest-looking 48 MiB zstd page read by 4 threads: the
 *     decompression budget bounds what is held at once (measured in a child process).
 * Truth: the byte counts and messages each lie implies, computed by hand.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "column/column_int.h"
#include "format/meta.h"
#include "memcount.h"
#include "pqbuild.h"
#include "pqt_file.h"
#include "testutil.h"

#define MiB ((int64_t)1 << 20)

/* AddressSanitizer keeps freed memory in quarantine: peak RSS says nothing there. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_MEANINGFUL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_MEANINGFUL 0
#endif
#endif
#ifndef RSS_MEANINGFUL
#define RSS_MEANINGFUL 1
#endif

static char path[256];

static void put_page(pqb *w, const pqb_page *p, const void *body, size_t n)
{
    pqb h = {0};
    pqb_page_header(&h, p);
    pqb_bytes(w, h.b, h.n);
    pqb_bytes(w, body, n);
    pqb_free(&h);
}

/* v1 list levels: [len][rep runs][len][def runs] for list<int32> (max_rep 1, max_def 3). */
static void list_levels(pqb *body, const uint64_t *rep, int nrep, const uint64_t *def, int ndef)
{
    pqb lv = {0};
    for (int i = 0; i < nrep; i += 2) pqb_rle_run(&lv, rep[i], (uint32_t)rep[i + 1], 1);
    pqb_le32(body, (uint32_t)lv.n);
    pqb_bytes(body, lv.b, lv.n);
    lv.n = 0;
    for (int i = 0; i < ndef; i += 2) pqb_rle_run(&lv, def[i], (uint32_t)def[i + 1], 2);
    pqb_le32(body, (uint32_t)lv.n);
    pqb_bytes(body, lv.b, lv.n);
    pqb_free(&lv);
}

/* Open `path` and read column 0 over all rows; returns the status, the array in *a_ret
 * (when asked) and the most heap the read held beyond what was held before it. */
static pqt_status read_all(int threads, pqt_array **a_ret, int64_t *peak_ret)
{
    pqt_opts *o;
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_BINARY_AS_STRING, 1));
    REQUIRE_OK(pqt_file_open(path, o, &f));
    pqt_opts_free(o);
    memcount_reset_peak();
    int64_t before = memcount_get().inuse;
    pqt_array *a = NULL;
    pqt_status st = pqt_file_read(f, 0, 1, pqt_file_nrows(f), &a);
    *peak_ret = memcount_get().peak - before;
    if (a_ret) *a_ret = a;
    else pqt_array_free(a);
    pqt_file_close(f);
    return st;
}

static bool has(const char *s) { return strstr(pqt_errmsg(), s) != NULL; }

/* A list<int32> chunk of one row group: `pages` built by the caller, footer num_values nv. */
static void write_list_file(const pqb *pages, int64_t nv, int64_t rows)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_chunk ch = {(int64_t)w.n, (int64_t)pages->n, nv, (int64_t)pages->n, PQT_CODEC_UNCOMPRESSED};
    pqb_bytes(&w, pages->b, pages->n);
    pqb_col c = {"l", PQT_PT_INT32, PQT_REP_OPTIONAL, true, 0};
    pqb_footer(&w, &c, 1, 1, &rows, &ch);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&w);
}

static void test_level_claims(void)
{
    const int32_t big = INT32_MAX;
    const uint64_t rep[] = {1, 0, (uint64_t)big - 1, 1}, def[] = {(uint64_t)big, 2};
    int64_t peak;
    for (int v2 = 0; v2 <= 1; v2++) {
        pqb body = {0}, pages = {0};
        if (v2) { /* v2: levels without length prefixes, outside the (empty) values */
            pqb lv = {0};
            pqb_rle_run(&lv, 1, 0, 1);
            pqb_rle_run(&lv, (uint64_t)big - 1, 1, 1);
            int32_t rn = (int32_t)lv.n;
            pqb_rle_run(&lv, (uint64_t)big, 2, 2);
            pqb_bytes(&body, lv.b, lv.n);
            pqb_page p = {.type = PQT_PAGE_DATA_V2, .uncompressed_size = (int32_t)body.n,
                          .compressed_size = (int32_t)body.n, .num_values = big,
                          .encoding = PQT_ENC_PLAIN, .num_nulls = big, .num_rows = 1,
                          .rep_nbytes = rn, .def_nbytes = (int32_t)lv.n - rn};
            put_page(&pages, &p, body.b, body.n);
            pqb_free(&lv);
        } else {
            list_levels(&body, rep, 4, def, 2);
            pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)body.n,
                          .compressed_size = (int32_t)body.n, .num_values = big,
                          .encoding = PQT_ENC_PLAIN};
            put_page(&pages, &p, body.b, body.n);
        }
        write_list_file(&pages, 3, 1);
        CHECK_EQ_I64(read_all(1, NULL, &peak), PQT_CORRUPT);
        CHECK(has("column 'l'") && has("page 1:") &&
              has("page holds 2147483647 values, the column chunk's metadata leaves 3 of its 3"));
        CHECK(peak < MiB); /* the level buffers alone were 3 x 2 GiB */
        if (peak >= MiB) fprintf(stderr, "v2=%d: peak %lld bytes\n", v2, (long long)peak);
        pqb_free(&body);
        pqb_free(&pages);
    }

    /* the second page claims more than the first left of the footer's count */
    pqb pages = {0}, body = {0};
    const uint64_t rep2[] = {1, 0, 1, 1}, def2[] = {2, 3};
    list_levels(&body, rep2, 4, def2, 2);
    pqb_le32(&body, 7);
    pqb_le32(&body, 8);
    pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)body.n,
                  .compressed_size = (int32_t)body.n, .num_values = 2, .encoding = PQT_ENC_PLAIN};
    put_page(&pages, &p, body.b, body.n);
    body.n = 0;
    list_levels(&body, rep, 4, def, 2);
    p.uncompressed_size = p.compressed_size = (int32_t)body.n;
    p.num_values = big;
    put_page(&pages, &p, body.b, body.n);
    write_list_file(&pages, 3, 2);
    CHECK_EQ_I64(read_all(1, NULL, &peak), PQT_CORRUPT);
    CHECK(has("page 2:") && has("leaves 1 of its 3"));
    CHECK(peak < MiB);
    pqb_free(&body);
    pqb_free(&pages);
}

static void test_value_count_claims(void)
{
    /* 3 rows [10] [11] [12]; the footer claims 2^31 values */
    pqb pages = {0}, body = {0};
    const uint64_t rep[] = {3, 0}, def[] = {3, 3};
    list_levels(&body, rep, 2, def, 2);
    for (int i = 0; i < 3; i++) pqb_le32(&body, (uint32_t)(10 + i));
    pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)body.n,
                  .compressed_size = (int32_t)body.n, .num_values = 3, .encoding = PQT_ENC_PLAIN};
    put_page(&pages, &p, body.b, body.n);
    write_list_file(&pages, (int64_t)1 << 31, 3);
    int64_t peak;
    for (int threads = 1; threads <= 2; threads++) {
        CHECK_EQ_I64(read_all(threads, NULL, &peak), PQT_CORRUPT);
        CHECK(has("column 'l'") && has("column chunk holds 3 values, its metadata says 2147483648"));
        CHECK(peak < MiB); /* 2^31 elements were 8 GiB of values and 256 MiB of validity */
    }

    /* The honest twin: row 1 holds 100,000 null elements (two RLE runs of levels), row 2
     * holds [10, 11, 12]. Far more entries than bytes: the elements grow as they come. */
    pqb_free(&pages);
    pqb_free(&body);
    const uint64_t rep3[] = {1, 0, 99999, 1, 1, 0, 2, 1}, def3[] = {100000, 2, 3, 3};
    list_levels(&body, rep3, 8, def3, 4);
    for (int i = 0; i < 3; i++) pqb_le32(&body, (uint32_t)(10 + i));
    p.uncompressed_size = p.compressed_size = (int32_t)body.n;
    p.num_values = 100003;
    put_page(&pages, &p, body.b, body.n);
    write_list_file(&pages, 100003, 2);
    pqt_array *a = NULL;
    CHECK_OK(read_all(1, &a, &peak));
    if (a) {
        const int64_t *lo = pqt_array_list_offsets(a);
        const int32_t *v = pqt_array_data(a);
        const uint8_t *valid = pqt_array_validity(a);
        CHECK(lo && lo[0] == 0 && lo[1] == 100000 && lo[2] == 100003);
        CHECK(v && v[100000] == 10 && v[100001] == 11 && v[100002] == 12);
        int nvalid = 0;
        for (int i = 0; valid && i < 100003; i++) nvalid += valid[i >> 3] >> (i & 7) & 1;
        CHECK_EQ_I64(nvalid, 3);
    }
    pqt_array_free(a);
    pqb_free(&pages);
    pqb_free(&body);
}

/* One column chunk of one page; rows row groups share it. pad adds unreferenced bytes so
 * that the file is large enough for the claims to look plausible. */
static void write_page_file(int ptype, int codec, const pqb_page *p, const pqb *data,
                            int64_t total_unc, int64_t rows_per_rg, int nrg, size_t pad)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    for (size_t i = 0; i < pad; i++) pqb_u8(&w, 0);
    int64_t off = (int64_t)w.n;
    put_page(&w, p, data->b, data->n);
    pqb_chunk ch[8];
    int64_t rows[8];
    for (int i = 0; i < nrg; i++) {
        ch[i] = (pqb_chunk){off, (int64_t)w.n - off, rows_per_rg, total_unc, codec};
        rows[i] = rows_per_rg;
    }
    pqb_col c = {"s", ptype, PQT_REP_REQUIRED, false, 0};
    pqb_footer(&w, &c, 1, nrg, rows, ch);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&w);
}

static void zstd_zeros(pqb *out, size_t n)
{
    uint8_t *z = calloc(1, n);
    size_t cap = ZSTD_compressBound(n);
    out->n = 0;
    pqb_bytes(out, NULL, 0);
    uint8_t *c = malloc(cap);
    size_t k = ZSTD_compress(c, cap, z, n, 1);
    REQUIRE_OK(ZSTD_isError(k) ? PQT_IO : PQT_OK);
    pqb_bytes(out, c, k);
    free(c);
    free(z);
}

static void gzip_zeros(pqb *out, size_t n)
{
    uint8_t *z = calloc(1, n);
    z_stream zs = {0};
    REQUIRE_OK(deflateInit2(&zs, 1, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK ? PQT_OK : PQT_IO);
    uLong cap = deflateBound(&zs, (uLong)n);
    uint8_t *c = malloc(cap);
    zs.next_in = z;
    zs.avail_in = (uInt)n;
    zs.next_out = c;
    zs.avail_out = (uInt)cap;
    REQUIRE_OK(deflate(&zs, Z_FINISH) == Z_STREAM_END ? PQT_OK : PQT_IO);
    out->n = 0;
    pqb_bytes(out, c, zs.total_out);
    deflateEnd(&zs);
    free(c);
    free(z);
}

static void test_bombs(void)
{
    pqb data = {0};
    int64_t peak;
    /* zstd and gzip pages claiming 64 MiB in a chunk that says 1,255 bytes */
    for (int gz = 0; gz <= 1; gz++) {
        if (gz) gzip_zeros(&data, (size_t)(64 * MiB));
        else zstd_zeros(&data, (size_t)(64 * MiB));
        pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)(64 * MiB),
                      .compressed_size = (int32_t)data.n, .num_values = 1,
                      .encoding = PQT_ENC_PLAIN};
        write_page_file(PQT_PT_BYTE_ARRAY, gz ? PQT_CODEC_GZIP : PQT_CODEC_ZSTD, &p, &data, 1255,
                        1, 1, 0);
        CHECK_EQ_I64(read_all(1, NULL, &peak), PQT_CORRUPT);
        CHECK(has("page 1:") && has("page claims 67108864 uncompressed bytes; the column "
                                    "chunk's total_uncompressed_size leaves"));
        CHECK(peak < MiB); /* was the whole 64 MiB (1 GiB in the files) */
    }

    /* 300 bytes of SNAPPY cannot expand to 16 MiB, whatever the chunk claims */
    data.n = 0;
    for (int i = 0; i < 300; i++) pqb_u8(&data, (uint8_t)(i * 37));
    pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)(16 * MiB),
                  .compressed_size = 300, .num_values = 1, .encoding = PQT_ENC_PLAIN};
    write_page_file(PQT_PT_BYTE_ARRAY, PQT_CODEC_SNAPPY, &p, &data, 16 * MiB, 1, 1, 0);
    CHECK_EQ_I64(read_all(1, NULL, &peak), PQT_CORRUPT);
    CHECK(has("300 bytes of SNAPPY cannot hold more than"));
    CHECK(peak < MiB);

    /* one INT64 value cannot take 16 MiB: 1 x (8 + 2) + 1024 bytes at most */
    zstd_zeros(&data, (size_t)(16 * MiB));
    p.compressed_size = (int32_t)data.n;
    write_page_file(PQT_PT_INT64, PQT_CODEC_ZSTD, &p, &data, 16 * MiB, 1, 1, 0);
    CHECK_EQ_I64(read_all(1, NULL, &peak), PQT_CORRUPT);
    CHECK(has("its values cannot take more than 1034"));
    CHECK(peak < MiB);

    /* a page claiming 1 MiB whose data holds 16 MiB: the codec stops at the claim */
    for (int gz = 0; gz <= 1; gz++) {
        if (gz) gzip_zeros(&data, (size_t)(16 * MiB));
        else zstd_zeros(&data, (size_t)(16 * MiB));
        p.uncompressed_size = (int32_t)MiB;
        p.compressed_size = (int32_t)data.n;
        write_page_file(PQT_PT_BYTE_ARRAY, gz ? PQT_CODEC_GZIP : PQT_CODEC_ZSTD, &p, &data, MiB,
                        1, 1, 0);
        CHECK_EQ_I64(read_all(1, NULL, &peak), PQT_CORRUPT);
        CHECK(has(gz ? "GZIP data decompresses to more than 1048576 bytes"
                     : "ZSTD data decompresses to 16777216 bytes, page header says 1048576"));
        /* the 1 MiB page, the 1 MiB string-bytes hint, zlib's state: not the 16 MiB */
        CHECK(peak < 4 * MiB);
        if (peak >= 4 * MiB) fprintf(stderr, "gz=%d: peak %lld bytes\n", gz, (long long)peak);
    }
    pqb_free(&data);
}

/* Run a 4-thread read in a child process (its own peak RSS) under `budget`; the child
 * reports status, peak RSS (KiB) and the budget's peak through a pipe. */
static void read_in_child(size_t budget, int64_t out[3])
{
    int fd[2];
    REQUIRE_OK(pipe(fd) == 0 ? PQT_OK : PQT_IO);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        pqt_page_budget_set(budget);
        int64_t peak, r[3];
        r[0] = read_all(4, NULL, &peak);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        r[1] = ru.ru_maxrss;
        r[2] = (int64_t)pqt_page_budget_peak();
        if (r[0] != PQT_OK) fprintf(stderr, "child: %s\n", pqt_errmsg());
        _exit(write(fd[1], r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fd[1]);
    CHECK(read(fd[0], out, 3 * sizeof *out) == (ssize_t)(3 * sizeof *out));
    close(fd[0]);
    int wst;
    waitpid(pid, &wst, 0);
    CHECK(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
}

static void test_budget(void)
{
    /* 8 row groups of one empty string each, all pointing at one zstd page of 48 MiB of
     * zeros that their chunks claim honestly (the file is padded to make that plausible).
     * Read by 4 threads, each row group's page needs a 48 MiB buffer. */
    pqb data = {0};
    zstd_zeros(&data, (size_t)(48 * MiB));
    pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)(48 * MiB),
                  .compressed_size = (int32_t)data.n, .num_values = 1, .encoding = PQT_ENC_PLAIN};
    write_page_file(PQT_PT_BYTE_ARRAY, PQT_CODEC_ZSTD, &p, &data, 48 * MiB, 1, 8,
                    (size_t)(1 * MiB));
    int64_t r[3] = {-1, -1, -1};
    read_in_child((size_t)(64 * MiB), r);
    CHECK_EQ_I64(r[0], PQT_OK);
    CHECK(r[2] > 0 && r[2] <= 64 * MiB); /* one page at a time: 4 x 48 MiB without it */
    /* KiB: one 48 MiB page plus the process (157 MB without the budget) */
    if (RSS_MEANINGFUL) CHECK(r[1] < 110 * 1024);
    fprintf(stderr, "budget 64 MiB: peak RSS %lld KiB, budget peak %lld\n", (long long)r[1],
            (long long)r[2]);
    if (getenv("PQT_TEST_BUDGET_CONTROL")) { /* the same read with the default 1 GiB */
        read_in_child((size_t)1 << 30, r);
        fprintf(stderr, "budget 1 GiB: peak RSS %lld KiB, budget peak %lld\n", (long long)r[1],
                (long long)r[2]);
    }
    /* a page larger than the whole budget is a limit, not a wait */
    read_in_child((size_t)(32 * MiB), r);
    CHECK_EQ_I64(r[0], PQT_LIMIT);
    pqb_free(&data);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_mem_hostile_%d.parquet", (int)getpid());
    test_level_claims();
    test_value_count_claims();
    test_bombs();
    test_budget();
    unlink(path);
    return pqt_test_done("test_mem_hostile");
}
