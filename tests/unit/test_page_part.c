/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page_part.c - reads that keep a few rows of big pages, decompressed only in part
 * (page_decode.c, page_sparse): a SNAPPY page in the 64 KiB blocks holding kept rows, a ZSTD
 * page up to the last one. Two files built here, one compressed by libsnappy and one by
 * libzstd (each library's own compressor), one 300,000-row page per column:
 *   a  INT64 optional, v1, no null  (DuckDB's shape: levels inside the compressed bytes)
 *   b  DOUBLE required, v1
 *   c  INT32 optional, v2, no null  (levels stored uncompressed before the values)
 *   d  INT64 optional, v1, every 97th row null  (not sparse: nulls shift the values)
 *   e  INT64 required, v1; snappy: a hand-made stream whose copies reach 80,000 bytes back,
 *      past their 64 KiB block (valid, not block-local); zstd: a frame streamed with a 128 MiB
 *      window, more than the page (both decompressed whole)
 * Every kept value is compared with the value the generator wrote, for selections of one
 * row, a few scattered rows, rows near the start, the first and last rows, and a dense one;
 * pages_sparse counts the pages decompressed in part, against each codec's rule. Garbled
 * streams read in part must end in PQT_OK or PQT_CORRUPT, in bounds (ASan in CI).
 */
#include <snappy-c.h>
#include <string.h>
#include <zstd.h>
#include <unistd.h>

#include "api/file_int.h"
#include "column/column.h"
#include "format/meta.h"
#include "pqbuild.h"
#include "testutil.h"

#define N 300000
#define PERIOD 10000 /* e repeats every PERIOD values (80,000 bytes) */

static uint64_t rng = 5;
static char path[256];
static int64_t chunk_at[5], chunk_nbytes[5]; /* where write_file put each column's chunk */

static int64_t a_val(int64_t i) { return i * 7919 + 3; }
static double b_val(int64_t i) { return (double)i * 0.5 - 1000.0; }
static int32_t c_val(int64_t i) { return (int32_t)(i ^ 0x5a5a); }
static int d_null(int64_t i) { return i % 97 == 0; }
static int64_t d_val(int64_t i) { return -i; }
static int64_t e_val(int64_t i) { return (i % PERIOD) * 3 + 1; }

static int codec; /* PQT_CODEC_SNAPPY or PQT_CODEC_ZSTD: the file being built and read */

static void zstd_body(pqb *out, const pqb *raw, int wide_window)
{
    size_t cap = ZSTD_compressBound(raw->n);
    char *c = malloc(cap);
    size_t n;
    if (!wide_window) {
        n = ZSTD_compress(c, cap, raw->b, raw->n, 3);
    } else { /* streamed without a size: the frame keeps its 2^27-byte window */
        ZSTD_CCtx *cc = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 27);
        /* half first, so that the size is not known when the frame header is written */
        ZSTD_inBuffer in = {raw->b, raw->n / 2, 0};
        ZSTD_outBuffer o = {c, cap, 0};
        size_t left = ZSTD_compressStream2(cc, &o, &in, ZSTD_e_continue);
        in.size = raw->n;
        while (!ZSTD_isError(left) && (left = ZSTD_compressStream2(cc, &o, &in, ZSTD_e_end)) != 0)
            ;
        n = ZSTD_isError(left) ? left : o.pos;
        ZSTD_freeCCtx(cc);
    }
    REQUIRE_OK(ZSTD_isError(n) ? PQT_CORRUPT : PQT_OK);
    pqb_bytes(out, c, n);
    free(c);
}

static void snappy_body(pqb *out, const pqb *raw)
{
    size_t cap = snappy_max_compressed_length(raw->n), n = cap;
    char *c = malloc(cap);
    REQUIRE_OK(snappy_compress((const char *)raw->b, raw->n, c, &n) != SNAPPY_OK);
    pqb_bytes(out, c, n);
    free(c);
}

/* e's page: a literal of the first PERIOD values, then 64-byte copies from PERIOD * 8 back. */
static void far_copies_body(pqb *out, const pqb *raw)
{
    pqb_uvar(out, raw->n);
    size_t lit = PERIOD * 8;
    pqb_u8(out, 62 << 2); /* a literal whose length - 1 follows in 3 bytes */
    pqb_u8(out, (uint8_t)(lit - 1));
    pqb_u8(out, (uint8_t)((lit - 1) >> 8));
    pqb_u8(out, (uint8_t)((lit - 1) >> 16));
    pqb_bytes(out, raw->b, lit);
    for (size_t pos = lit; pos < raw->n; pos += 64) {
        size_t len = raw->n - pos < 64 ? raw->n - pos : 64;
        pqb_u8(out, (uint8_t)(((len - 1) << 2) | 3)); /* copy, 4-byte offset */
        pqb_le32(out, (uint32_t)lit);
    }
}

static void page(pqb *w, int type, const pqb *raw, const pqb *body, int32_t levels_n, int nulls)
{
    pqb h = {0};
    pqb_page p = {.type = type, .uncompressed_size = (int32_t)(raw->n + (size_t)levels_n),
                  .compressed_size = (int32_t)(body->n + (size_t)levels_n), .num_values = N,
                  .encoding = PQT_ENC_PLAIN, .num_nulls = nulls, .num_rows = N,
                  .def_nbytes = levels_n};
    pqb_page_header(&h, &p);
    pqb_bytes(w, h.b, h.n);
    pqb_free(&h);
}

static void write_file(void)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_col cols[5] = {{"a", PQT_PT_INT64, PQT_REP_OPTIONAL, false, 0},
                       {"b", PQT_PT_DOUBLE, PQT_REP_REQUIRED, false, 0},
                       {"c", PQT_PT_INT32, PQT_REP_OPTIONAL, false, 0},
                       {"d", PQT_PT_INT64, PQT_REP_OPTIONAL, false, 0},
                       {"e", PQT_PT_INT64, PQT_REP_REQUIRED, false, 0}};
    pqb_chunk ch[5];
    for (int c = 0; c < 5; c++) {
        pqb raw = {0}, body = {0}, lv = {0};
        int type = c == 2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA;
        int nulls = 0;
        if (c == 0 || c == 3) { /* v1 levels: [4-byte length][RLE runs] */
            pqb runs = {0};
            if (c == 0) {
                pqb_rle_run(&runs, N, 1, 1);
            } else {
                for (int64_t i = 0; i < N; i += 97) { /* null, then 96 present */
                    pqb_rle_run(&runs, 1, 0, 1);
                    pqb_rle_run(&runs, (uint64_t)(N - i - 1 < 96 ? N - i - 1 : 96), 1, 1);
                    nulls++;
                }
            }
            pqb_le32(&raw, (uint32_t)runs.n);
            pqb_bytes(&raw, runs.b, runs.n);
            pqb_free(&runs);
        }
        if (c == 2) pqb_rle_run(&lv, N, 1, 1);
        for (int64_t i = 0; i < N; i++) {
            int64_t v64;
            double vd;
            int32_t v32;
            switch (c) {
            case 0: v64 = a_val(i); pqb_bytes(&raw, &v64, 8); break;
            case 1: vd = b_val(i); pqb_bytes(&raw, &vd, 8); break;
            case 2: v32 = c_val(i); pqb_bytes(&raw, &v32, 4); break;
            case 3: if (!d_null(i)) { v64 = d_val(i); pqb_bytes(&raw, &v64, 8); } break;
            default: v64 = e_val(i); pqb_bytes(&raw, &v64, 8);
            }
        }
        if (codec == PQT_CODEC_ZSTD) zstd_body(&body, &raw, c == 4);
        else if (c == 4) far_copies_body(&body, &raw);
        else snappy_body(&body, &raw);
        int64_t off = (int64_t)w.n;
        page(&w, type, &raw, &body, (int32_t)lv.n, nulls);
        pqb_bytes(&w, lv.b, lv.n);
        pqb_bytes(&w, body.b, body.n);
        ch[c] = (pqb_chunk){off, (int64_t)w.n - off, N, (int64_t)(raw.n + lv.n + 100), codec};
        chunk_at[c] = off;
        chunk_nbytes[c] = (int64_t)w.n - off;
        pqb_free(&raw);
        pqb_free(&body);
        pqb_free(&lv);
    }
    int64_t rows[1] = {N};
    pqb_footer(&w, cols, 5, 1, rows, ch);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&w);
}

/* Is row i of column c, as read into b at slot k, what the generator wrote? */
static int value_ok(int c, const pqt_colbuf *b, int64_t k, int64_t i)
{
    int valid = !b->validity || ((b->validity[k >> 3] >> (k & 7)) & 1);
    if (c == 3 && d_null(i)) return !valid;
    if (!valid) return 0;
    int64_t v64;
    double vd;
    int32_t v32;
    switch (c) {
    case 0: memcpy(&v64, (const uint8_t *)b->data + k * 8, 8); return v64 == a_val(i);
    case 1: memcpy(&vd, (const uint8_t *)b->data + k * 8, 8); return vd == b_val(i);
    case 2: memcpy(&v32, (const uint8_t *)b->data + k * 4, 4); return v32 == c_val(i);
    case 3: memcpy(&v64, (const uint8_t *)b->data + k * 8, 8); return v64 == d_val(i);
    default: memcpy(&v64, (const uint8_t *)b->data + k * 8, 8); return v64 == e_val(i);
    }
}

/* Read column c under the selection `keep`; return pages_sparse, or -1 on a failure. */
static int64_t read_check(pqt_file *f, pqt_chunk_ctx *cx, int c, const uint8_t *keep,
                          const char *what)
{
    pqt_read_counters rc = {0};
    pqt_chunk_src src = {f->io, f->path, f->file_size, &f->meta, true, true, &rc, NULL, NULL, -1};
    const pqt_col *col = &f->schema.cols[c];
    pqt_sel sel;
    memset(&sel, 0, sizeof sel);
    CHECK_OK(pqt_sel_init_bools(&sel, N, keep));
    pqt_colbuf b;
    CHECK_OK(pqt_colbuf_alloc(&b, col, sel.nsel, N, NULL));
    int64_t ret = -1;
    if (pqt_chunk_read(cx, &src, 0, col, &sel, &b, 0) != PQT_OK) {
        fprintf(stderr, "column %s, %s: %s\n", col->path, what, pqt_errmsg());
        pqt_test_failures++;
    } else {
        int64_t k = 0, bad = 0;
        for (int64_t i = 0; i < N; i++)
            if (keep[i]) bad += !value_ok(c, &b, k++, i);
        if (bad) {
            fprintf(stderr, "column %s, %s: %lld of %lld kept rows wrong\n", col->path, what,
                    (long long)bad, (long long)k);
            pqt_test_failures++;
        }
        ret = (int64_t)rc.pages_sparse;
    }
    pqt_colbuf_free(&b);
    pqt_sel_free(&sel);
    return ret;
}

/* Does the codec's rule decompress this page in part? (page_decode.c, part_pays) */
static int64_t want_part(const uint8_t *keep, int64_t page_bytes)
{
    int64_t runs = 0, end = 0;
    for (int64_t i = 0; i < N; i++) {
        runs += keep[i] && (i == 0 || !keep[i - 1]);
        if (keep[i]) end = i + 1;
    }
    if (codec == PQT_CODEC_SNAPPY) return runs * 2 * 65536 <= page_bytes;
    return runs <= 1024 && end * 4 <= (int64_t)N * 3;
}

/* Garbled pages read in part: bytes of column a's and b's compressed data flipped (the page
 * header left alone), a few rows of the first half kept. Any status but a clean one of
 * OK or CORRUPT, or a read outside the buffers (ASan), fails. */
static void garbled(void)
{
    FILE *fp = fopen(path, "rb");
    REQUIRE_OK(fp ? PQT_OK : PQT_IO);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *orig = malloc((size_t)n), *bytes = malloc((size_t)n);
    REQUIRE_OK(fread(orig, 1, (size_t)n, fp) == (size_t)n ? PQT_OK : PQT_IO);
    fclose(fp);
    uint8_t *keep = calloc(N, 1);
    for (int k = 0; k < 5; k++) keep[pqt_test_rand(&rng) % (N / 2)] = 1;
    pqt_chunk_ctx *cx;
    REQUIRE_OK(pqt_chunk_ctx_new(&cx));
    int reads = 0, corrupt = 0, other = 0;
    for (int round = 0; round < 300; round++) {
        memcpy(bytes, orig, (size_t)n);
        int c = round % 2;
        int64_t body = chunk_at[c] + 64, len = chunk_nbytes[c] - 64; /* past the header */
        for (int f = 0; f < 1 + round % 6; f++)
            bytes[body + (int64_t)(pqt_test_rand(&rng) % (uint64_t)len)] =
                (uint8_t)pqt_test_rand(&rng);
        pqt_file *f;
        if (pqt_file_open_mem(bytes, (size_t)n, "garbled", NULL, &f) != PQT_OK) continue;
        const pqt_col *col = &f->schema.cols[c];
        pqt_chunk_src src = {f->io, f->path, f->file_size, &f->meta, false, true, NULL, NULL, NULL, -1};
        pqt_sel sel;
        memset(&sel, 0, sizeof sel);
        CHECK_OK(pqt_sel_init_bools(&sel, N, keep));
        pqt_colbuf b;
        CHECK_OK(pqt_colbuf_alloc(&b, col, sel.nsel, N, NULL));
        pqt_status st = pqt_chunk_read(cx, &src, 0, col, &sel, &b, 0);
        reads++;
        corrupt += st == PQT_CORRUPT;
        other += st != PQT_OK && st != PQT_CORRUPT;
        pqt_colbuf_free(&b);
        pqt_sel_free(&sel);
        pqt_file_close(f);
    }
    CHECK_EQ_I64(other, 0);
    CHECK(reads > 250);  /* the file opened: the flips are past the footer's reach */
    CHECK(corrupt > 0); /* flips in the stream must be caught somewhere */
    pqt_chunk_ctx_free(cx);
    free(keep);
    free(orig);
    free(bytes);
}

static void run_codec(int which)
{
    codec = which;
    write_file();
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    pqt_chunk_ctx *cx;
    REQUIRE_OK(pqt_chunk_ctx_new(&cx));
    uint8_t *keep = malloc(N);
    for (int trial = 0; trial < 15; trial++) {
        memset(keep, 0, N);
        const char *what;
        switch (trial % 5) {
        case 0:
            keep[pqt_test_rand(&rng) % N] = 1;
            what = "one row";
            break;
        case 1:
            for (int k = 0; k < 10; k++) keep[pqt_test_rand(&rng) % N] = 1;
            what = "ten scattered rows";
            break;
        case 2:
            keep[0] = keep[1] = keep[N - 1] = 1;
            what = "the first two and the last row";
            break;
        case 3:
            for (int k = 0; k < 5; k++) keep[pqt_test_rand(&rng) % (N / 2)] = 1;
            what = "five rows in the first half";
            break;
        default:
            for (int64_t i = 0; i < N; i += 10) keep[i] = 1;
            what = "every tenth row";
        }
        for (int c = 0; c < 5; c++) {
            int64_t got = read_check(f, cx, c, keep, what);
            int64_t want = c <= 2 && want_part(keep, (int64_t)N * (c == 2 ? 4 : 8));
            if (got != want) {
                fprintf(stderr, "%s, column %d, %s: pages_sparse %lld, want %lld\n",
                        codec == PQT_CODEC_ZSTD ? "zstd" : "snappy", c, what, (long long)got,
                        (long long)want);
                pqt_test_failures++;
            }
        }
    }
    free(keep);
    pqt_chunk_ctx_free(cx);
    pqt_file_close(f);
    garbled();
    unlink(path);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_page_part_%d.parquet", (int)getpid());
    run_codec(PQT_CODEC_SNAPPY);
    run_codec(PQT_CODEC_ZSTD);
    return pqt_test_done("test_page_part");
}
