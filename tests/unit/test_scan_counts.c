/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_scan_counts.c - the scan counters (pqt_table_scan_stats, pqt_table_scan_values) are
 * exact.
 *
 * Truth: (1) a file written here by pqbuild.c whose every page is known by construction
 * (a required column of 3 PLAIN pages, an optional dictionary column with nulls, a LIST
 * column of v1 pages with an offset index in one row group and none in the other);
 * (2) DuckDB-written tests/data/table_rg.parquet, its chunk sizes as DuckDB's
 * parquet_metadata() reports them and its non-null count from its formula; (3) the
 * corpus' alltypes_tiny_pages.parquet, whose writer's offset index lists its pages.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/file_int.h"
#include "format/meta.h"
#include "pqbuild.h"
#include "pqt_file.h"
#include "oi_read.h"
#include "testutil.h"
#include "util/mem.h"

static char path[256];

#define RG_ROWS 12
#define NRG 2
/* what the writer below put in the file, per row group: bytes of each column's chunk */
static int64_t chunk_nbytes[NRG][3];
/* bytes of each page of l in row group 1 (its offset index lets a read fetch pages alone) */
static int32_t l_page_nbytes[3];

static void data_page(pqb *w, int32_t nvals, int enc, const pqb *body)
{
    pqb h = {0};
    pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = (int32_t)body->n,
                  .compressed_size = (int32_t)body->n, .num_values = nvals, .encoding = enc};
    pqb_page_header(&h, &p);
    pqb_bytes(w, h.b, h.n);
    pqb_bytes(w, body->b, body->n);
    pqb_free(&h);
}

/* [4-byte length][levels] of one v1 level stream made of RLE runs (counts, values). */
static void v1_levels(pqb *w, int nruns, const int *counts, const int *values, int bw)
{
    pqb r = {0};
    for (int i = 0; i < nruns; i++) pqb_rle_run(&r, (uint64_t)counts[i], (uint32_t)values[i], bw);
    pqb_le32(w, (uint32_t)r.n);
    pqb_bytes(w, r.b, r.n);
    pqb_free(&r);
}

/* Per row group of 12 rows:
 *   a  INT32 required: 3 PLAIN pages of 4 rows (values rg * 100 + row);
 *   b  INT32 optional: a dictionary page {10, 20, 30}, then 2 RLE_DICTIONARY pages of 6 rows:
 *      rows 0-3 present (code 2), 4-5 null; rows 6-8 present (code 0), 9-11 null;
 *   l  LIST<INT32> (optional list, optional element): 3 v1 pages of 4 rows, one element per
 *      row; an offset index for row group 1's chunk only. */
static void write_file(void)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_col cols[3] = {{"a", PQT_PT_INT32, PQT_REP_REQUIRED, false, 0},
                       {"b", PQT_PT_INT32, PQT_REP_OPTIONAL, false, 0},
                       {"l", PQT_PT_INT32, PQT_REP_OPTIONAL, true, 0}};
    pqb_chunk ch[NRG * 3];
    pqb_chunk_extra ex[NRG * 3];
    memset(ch, 0, sizeof ch);
    memset(ex, 0, sizeof ex);
    int64_t l_pages[3];
    for (int g = 0; g < NRG; g++) {
        /* a */
        int64_t off = (int64_t)w.n;
        for (int p = 0; p < 3; p++) {
            pqb body = {0};
            for (int r = 0; r < 4; r++) pqb_le32(&body, (uint32_t)(g * 100 + p * 4 + r));
            data_page(&w, 4, PQT_ENC_PLAIN, &body);
            pqb_free(&body);
        }
        ch[g * 3] = (pqb_chunk){off, (int64_t)w.n - off, RG_ROWS, (int64_t)w.n - off,
                                PQT_CODEC_UNCOMPRESSED};
        /* b */
        off = (int64_t)w.n;
        {
            pqb h = {0}, d = {0};
            for (int i = 1; i <= 3; i++) pqb_le32(&d, (uint32_t)(10 * i));
            pqb_page p = {.type = PQT_PAGE_DICTIONARY, .uncompressed_size = (int32_t)d.n,
                          .compressed_size = (int32_t)d.n, .num_values = 3};
            pqb_page_header(&h, &p);
            pqb_bytes(&w, h.b, h.n);
            pqb_bytes(&w, d.b, d.n);
            pqb_free(&h);
            pqb_free(&d);
        }
        int64_t first_data = (int64_t)w.n;
        for (int p = 0; p < 2; p++) {
            pqb body = {0};
            int present = p == 0 ? 4 : 3;
            int counts[2] = {present, 6 - present}, values[2] = {1, 0};
            v1_levels(&body, 2, counts, values, 1);
            pqb_u8(&body, 2); /* code bit width */
            pqb_rle_run(&body, (uint64_t)present, p == 0 ? 2u : 0u, 2);
            data_page(&w, 6, PQT_ENC_RLE_DICTIONARY, &body);
            pqb_free(&body);
        }
        ch[g * 3 + 1] = (pqb_chunk){first_data, (int64_t)w.n - off, RG_ROWS, (int64_t)w.n - off,
                                    PQT_CODEC_UNCOMPRESSED};
        ex[g * 3 + 1].dict_offset = off;
        /* l */
        off = (int64_t)w.n;
        for (int p = 0; p < 3; p++) {
            pqb body = {0};
            int four = 4, zero = 0, three = 3;
            v1_levels(&body, 1, &four, &zero, 1);  /* reps: every entry starts a row */
            v1_levels(&body, 1, &four, &three, 2); /* defs: every element present */
            for (int r = 0; r < 4; r++) pqb_le32(&body, (uint32_t)(g * 1000 + p * 4 + r));
            l_pages[p] = (int64_t)w.n;
            data_page(&w, 4, PQT_ENC_PLAIN, &body);
            l_page_nbytes[p] = (int32_t)((int64_t)w.n - l_pages[p]);
            pqb_free(&body);
        }
        ch[g * 3 + 2] = (pqb_chunk){off, (int64_t)w.n - off, RG_ROWS, (int64_t)w.n - off,
                                    PQT_CODEC_UNCOMPRESSED};
        if (g == 0) {
            int64_t first_rows[3] = {0, 4, 8};
            int64_t oi = (int64_t)w.n;
            pqb_offset_index(&w, 3, l_pages, l_page_nbytes, first_rows);
            ex[2].oi_offset = oi;
            ex[2].oi_nbytes = (int32_t)((int64_t)w.n - oi);
        }
        for (int c = 0; c < 3; c++) chunk_nbytes[g][c] = ch[g * 3 + c].nbytes;
    }
    int64_t rows[NRG] = {RG_ROWS, RG_ROWS};
    pqb_footer_ext(&w, cols, 3, NRG, rows, ch, ex);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&w);
}

static pqt_table *open_slice(const char *file, int64_t lo, int64_t hi, int threads)
{
    pqt_opts *o;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    if (lo > 0) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_LO, lo));
    if (hi > 0) REQUIRE_OK(pqt_opts_set_int(o, PQT_OPT_ROW_HI, hi));
    pqt_table *t;
    REQUIRE_OK(pqt_table_open(file, o, &t));
    pqt_opts_free(o);
    return t;
}

static pqt_scan_counts stats(const pqt_table *t)
{
    pqt_scan_counts s;
    memset(&s, 0x55, sizeof s);
    CHECK_OK(pqt_table_scan_stats(t, &s));
    return s;
}

static void prefetch1(pqt_table *t, const char *name) { CHECK_OK(pqt_table_prefetch(t, &name, 1)); }

/* Expected counts, by hand from the construction above. */
static void check_counts(const pqt_scan_counts *s, int64_t rgs, int64_t pages, int64_t skipped,
                         int64_t dict, int64_t values, int64_t bytes, int line)
{
    if (s->row_groups != rgs || s->pages != pages || s->pages_skipped != skipped ||
        s->pages_decompressed != pages - skipped || s->dictionary_pages_read != dict ||
        s->values_decoded != values || s->bytes_read != bytes || s->row_groups_pruned_stats != 0 ||
        s->row_groups_all != 0) {
        fprintf(stderr,
                "line %d: got rg %lld pages %lld skipped %lld decompressed %lld dict %lld "
                "values %lld bytes %lld; want rg %lld pages %lld skipped %lld dict %lld values "
                "%lld bytes %lld\n",
                line, (long long)s->row_groups, (long long)s->pages, (long long)s->pages_skipped,
                (long long)s->pages_decompressed, (long long)s->dictionary_pages_read,
                (long long)s->values_decoded, (long long)s->bytes_read, (long long)rgs,
                (long long)pages, (long long)skipped, (long long)dict, (long long)values,
                (long long)bytes);
        pqt_test_failures++;
    }
}

static void test_built_file(void)
{
    int64_t all_bytes = 0;
    for (int g = 0; g < NRG; g++)
        for (int c = 0; c < 3; c++) all_bytes += chunk_nbytes[g][c];

    /* the whole file: every page decompressed, one dictionary per row group */
    pqt_table *t = open_slice(path, 0, 0, 1);
    pqt_scan_counts s = stats(t);
    check_counts(&s, 2, 0, 0, 0, 0, 0, __LINE__); /* nothing read at open */
    CHECK_EQ_I64(pqt_table_scan_values(t, "a"), 0);
    const char *names[3] = {"a", "b", "l"};
    CHECK_OK(pqt_table_prefetch(t, names, 3));
    s = stats(t);
    check_counts(&s, 2, 16, 0, 2, 24 + 14 + 24, all_bytes, __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(t, "a"), 24);
    CHECK_EQ_I64(pqt_table_scan_values(t, "b"), 14); /* non-null values only */
    CHECK_EQ_I64(pqt_table_scan_values(t, "l"), 24);
    CHECK_EQ_I64(pqt_table_scan_values(t, "parquet_row_index"), 0);
    CHECK_EQ_I64(pqt_table_scan_values(t, "nope"), -1);
    /* the values read are the ones written (b: 30 x4, null x2, 10 x3, null x3) */
    int32_t bv[24];
    uint8_t valid[3];
    CHECK_OK(pqt_table_get(t, "b", 0, bv, sizeof bv, valid, sizeof valid));
    CHECK(bv[0] == 30 && bv[3] == 30 && bv[6] == 10 && bv[8] == 10 && bv[12] == 30);
    CHECK(valid[0] == 0xcf && valid[1] == 0xf1 && valid[2] == 0x1c);
    /* a reload reads again and counts again */
    CHECK_OK(pqt_table_reload(t, "a", 0));
    s = stats(t);
    CHECK_EQ_I64(s.pages, 22);
    CHECK_EQ_I64(pqt_table_scan_values(t, "a"), 48);
    /* a clone starts at zero and counts its own reads */
    pqt_table *c;
    CHECK_OK(pqt_table_clone(t, &c));
    s = stats(c);
    check_counts(&s, 0, 0, 0, 0, 0, 0, __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(c, "a"), 0);
    pqt_table_evict(c, "b", 0);
    prefetch1(c, "b");
    s = stats(c);
    check_counts(&s, 0, 4, 0, 2, 14, chunk_nbytes[0][1] + chunk_nbytes[1][1], __LINE__);
    pqt_table_close(c);
    pqt_table_close(t);

    /* rows 6..9 (row group 1 only): a skips its page of rows 1-4 by its header; b reads its
     * dictionary and both pages (rows 6 null, 7-9 present); l skips by the offset index,
     * and fetches only its pages 2 and 3 */
    t = open_slice(path, 6, 9, 1);
    prefetch1(t, "a");
    s = stats(t);
    check_counts(&s, 1, 3, 1, 0, 4, chunk_nbytes[0][0], __LINE__);
    prefetch1(t, "b");
    s = stats(t);
    check_counts(&s, 1, 5, 1, 1, 7, chunk_nbytes[0][0] + chunk_nbytes[0][1], __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(t, "b"), 3);
    prefetch1(t, "l");
    s = stats(t);
    check_counts(&s, 1, 8, 2, 1, 11,
                 chunk_nbytes[0][0] + chunk_nbytes[0][1] + l_page_nbytes[1] + l_page_nbytes[2],
                 __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(t, "l"), 4);
    pqt_table_close(t);

    /* rows 1..4: b skips its second page, l its last one (offset index: never fetched);
     * l's page 2 starts at row 5 but is read: a list page may begin with the end of the row
     * before (row 4, selected), which only its levels tell */
    t = open_slice(path, 1, 4, 1);
    prefetch1(t, "b");
    s = stats(t);
    check_counts(&s, 1, 2, 1, 1, 4, chunk_nbytes[0][1], __LINE__);
    prefetch1(t, "l");
    s = stats(t);
    check_counts(&s, 1, 5, 2, 1, 8, chunk_nbytes[0][1] + l_page_nbytes[0] + l_page_nbytes[1],
                 __LINE__);
    pqt_table_close(t);

    /* rows 13..16 (row group 2, whose LIST chunk has no offset index): the rows of a v1
     * list page are known only from its levels, so no page can be skipped */
    t = open_slice(path, 13, 16, 1);
    prefetch1(t, "l");
    s = stats(t);
    check_counts(&s, 1, 3, 0, 0, 4, chunk_nbytes[1][2], __LINE__);
    prefetch1(t, "a");
    s = stats(t);
    check_counts(&s, 1, 6, 2, 0, 8, chunk_nbytes[1][2] + chunk_nbytes[1][0], __LINE__);
    pqt_table_close(t);

    /* rows 9..16 span both row groups; a LIST width measured over the slice reads whole
     * row groups (the footer's counts suggest width 1), counted for the column too, but
     * for their levels only: no value is decoded */
    t = open_slice(path, 9, 16, 1);
    int width = 0;
    CHECK_OK(pqt_table_width(t, "l", &width));
    CHECK_EQ_I64(width, 1);
    s = stats(t);
    check_counts(&s, 2, 6, 0, 0, 0, chunk_nbytes[0][2] + chunk_nbytes[1][2], __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(t, "l"), 0);
    pqt_table_close(t);
}

static const char *const RG_FILE = "tests/data/table_rg.parquet";
/* DuckDB's parquet_metadata(): total_compressed_size of each row group's chunk */
static const int64_t RG_I32_NBYTES = 7088 + 7091 + 7090 + 7090 + 6262;
static const int64_t RG_ID_NBYTES = 8985 + 8239 + 8237 + 8237 + 7277;

/* A whole read fetches exactly the chunks' bytes; values: the non-null count (i32 is NULL
 * when id % 7 == 0: 10000 - 1428 = 8572, which DuckDB's count(i32) also gives). Two
 * columns prefetched on 2 threads add up to what each read alone costs; so does one
 * column whose row groups decode on 2 threads, and one decoded straight into the caller's
 * memory. */
static void test_duckdb_file(void)
{
    pqt_scan_counts one[2];
    const char *names[2] = {"i32", "id"};
    for (int k = 0; k < 2; k++) {
        pqt_table *t = open_slice(RG_FILE, 0, 0, 1);
        prefetch1(t, names[k]);
        one[k] = stats(t);
        pqt_table_close(t);
    }
    CHECK_EQ_I64(one[0].bytes_read, RG_I32_NBYTES);
    CHECK_EQ_I64(one[1].bytes_read, RG_ID_NBYTES);
    CHECK_EQ_I64(one[0].values_decoded, 8572);
    CHECK_EQ_I64(one[1].values_decoded, 10000);
    for (int k = 0; k < 2; k++) {
        CHECK_EQ_I64(one[k].row_groups, 5);
        CHECK(one[k].pages >= 5); /* at least one data page per chunk */
        CHECK_EQ_I64(one[k].pages_decompressed, one[k].pages);
        CHECK_EQ_I64(one[k].pages_skipped, 0);
        CHECK_EQ_I64(one[k].dictionary_pages_read, 0); /* DuckDB: no dictionary_page_offset */
    }

    pqt_table *t = open_slice(RG_FILE, 0, 0, 2);
    CHECK_OK(pqt_table_prefetch(t, names, 2));
    pqt_scan_counts s = stats(t);
    check_counts(&s, 5, one[0].pages + one[1].pages, 0, 0, 8572 + 10000,
                 RG_I32_NBYTES + RG_ID_NBYTES, __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(t, "i32"), 8572);
    CHECK_EQ_I64(pqt_table_scan_values(t, "id"), 10000);
    pqt_table_close(t);

    t = open_slice(RG_FILE, 0, 0, 2);
    prefetch1(t, "i32"); /* one column, its 5 row groups on 2 threads */
    s = stats(t);
    check_counts(&s, 5, one[0].pages, 0, 0, 8572, RG_I32_NBYTES, __LINE__);
    int64_t *ids = malloc(10000 * sizeof *ids);
    CHECK_OK(pqt_table_get(t, "id", 0, ids, 10000 * sizeof *ids, NULL, 0));
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "id", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY); /* decoded into ids, not into the table */
    CHECK(ids[0] == 1 && ids[9999] == 10000);
    s = stats(t);
    check_counts(&s, 5, one[0].pages + one[1].pages, 0, 0, 18572, RG_I32_NBYTES + RG_ID_NBYTES,
                 __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(t, "id"), 10000);
    free(ids);
    pqt_table_close(t);
}

/* A flat column of many small pages: its writer's offset index says where every page's
 * rows start; a slice must skip exactly the pages holding none of its rows. */
static void test_offset_index_truth(void)
{
    const char *file = "tests/data/parquet-testing/data/alltypes_tiny_pages.parquet";
    pqt_file *f;
    REQUIRE_OK(pqt_file_open(file, NULL, &f));
    const pqt_column_chunk *cc = &f->meta.row_groups[0].columns[0]; /* id */
    pqt_arena a = {0};
    pqt_offset_index oi;
    test_read_offset_index(file, cc, &a, &oi);
    int64_t nrows = f->meta.row_groups[0].num_rows, lo = 1000, hi = 1100; /* 0-based [lo, hi) */
    int64_t skipped = 0, wanted_bytes = 0;
    for (int i = 0; i < oi.npages; i++) {
        int64_t r0 = oi.pages[i].first_row_index;
        int64_t r1 = i + 1 < oi.npages ? oi.pages[i + 1].first_row_index : nrows;
        bool skip = r1 <= lo || r0 >= hi;
        skipped += skip;
        if (!skip) wanted_bytes += oi.pages[i].compressed_page_size;
    }
    CHECK(oi.npages > 10 && skipped > 0);

    pqt_table *t = open_slice(file, 0, 0, 1);
    prefetch1(t, "id");
    pqt_scan_counts s = stats(t);
    check_counts(&s, 1, oi.npages, 0, 0, 7300, 37325, __LINE__); /* DuckDB: 37325 bytes */
    pqt_table_close(t);
    t = open_slice(file, lo + 1, hi, 1);
    prefetch1(t, "id");
    s = stats(t);
    /* only the pages holding a wanted row are fetched (no dictionary in this chunk) */
    check_counts(&s, 1, oi.npages, skipped, 0, hi - lo, wanted_bytes, __LINE__);
    pqt_table_close(t);

    pqt_arena_free(&a);
    pqt_file_close(f);
}

static void test_edges(void)
{
    pqt_scan_counts s;
    CHECK_EQ_I64(pqt_table_scan_stats(NULL, &s), PQT_MISUSE);
    pqt_table *t;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_EQ_I64(pqt_table_scan_stats(t, NULL), PQT_MISUSE);
    int64_t v[3] = {1, 2, 3};
    CHECK_OK(pqt_table_add_column(t, "x", PQT_INT64, 1, v, NULL, 3, NULL));
    s = stats(t);
    check_counts(&s, 0, 0, 0, 0, 0, 0, __LINE__);
    CHECK_EQ_I64(pqt_table_scan_values(t, "x"), 0);
    CHECK_EQ_I64(pqt_table_scan_values(t, "parquet_row_index"), -1);
    CHECK_EQ_I64(pqt_table_scan_values(t, NULL), -1);
    CHECK_EQ_I64(pqt_table_scan_values(NULL, "x"), -1);
    pqt_table_close(t);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_scan_counts_%d.parquet", (int)getpid());
    write_file();
    test_built_file();
    test_duckdb_file();
    test_offset_index_truth();
    test_edges();
    unlink(path);
    return pqt_test_done("test_scan_counts");
}
