/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page_span.c - list rows that go on across data pages (issue 28).
 *
 * A list<int32> column (optional list, optional elements) of 6 rows per row group:
 *     r1 [1, 2, 3, 4, 5]   spans pages 1-2
 *     r2 null
 *     r3 []
 *     r4 [6, null, 7, 8, 9, 10, 11]   spans pages 3-4-5 (page 4 starts no row)
 *     r5 [12, null]
 *     r6 [13]
 * written as v1 and as v2 pages (the v2 headers' num_rows count a continued row too, as the
 * writer that made such files does), two row groups, with an offset index that is usable
 * (four pages, each starting a row; a row is the page's where it starts) or not (the page
 * starting no row). Read whole, by every row range, and by every one of the 64 selections of
 * a row group's rows, threads 1 and 2. Corrupt twins: a first page starting inside a row, a
 * row group claiming fewer or more rows than the pages start, an offset index whose rows
 * disagree with the levels.
 * Truth: the rows above, written by hand.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "format/meta.h"
#include "pqbuild.h"
#include "pqt_file.h"
#include "testutil.h"

static char path[256];

#define NROWS 6
#define NENT 17
#define NUL -1 /* a null element */

/* The rows: length -1 for a null list. */
static const int row_len[NROWS] = {5, -1, 0, 7, 2, 1};
static const int row_val[NROWS][7] = {{1, 2, 3, 4, 5},           {0},       {0},
                                      {6, NUL, 7, 8, 9, 10, 11}, {12, NUL}, {13}};

/* Level entries of the rows (rep, def): def 0 null list, 1 empty, 2 null element, 3 value. */
static int ent_rep[NENT], ent_def[NENT], ent_val[NENT];

static void make_entries(void)
{
    int e = 0;
    for (int r = 0; r < NROWS; r++) {
        if (row_len[r] <= 0) {
            ent_rep[e] = 0;
            ent_def[e] = row_len[r] < 0 ? 0 : 1;
            ent_val[e++] = 0;
            continue;
        }
        for (int i = 0; i < row_len[r]; i++) {
            ent_rep[e] = i > 0;
            ent_def[e] = row_val[r][i] == NUL ? 2 : 3;
            ent_val[e++] = row_val[r][i];
        }
    }
    REQUIRE_OK(e == NENT ? PQT_OK : PQT_MISUSE);
}

/* RLE runs of one entry each: simple and exact. */
static void levels(pqb *out, const int *lv, int a, int b, int bw)
{
    for (int i = a; i < b; i++)
        pqb_rle_run(out, 1, (uint32_t)lv[i], bw);
}

typedef struct layout {
    int npages;
    int split[8]; /* entry where each page starts, then NENT */
    int v2;
    int oi; /* write an offset index */
    int64_t rg_rows;
    int first_rep; /* 1: the first page's first entry says it continues a row */
    int oi_shift;  /* added to the offset index's last first_row_index */
} layout;

/* Pages of one chunk into w; their offsets and sizes for the offset index. */
static void write_chunk(pqb *w, const layout *L, int64_t *page_off, int32_t *page_n,
                        int64_t *first_rows)
{
    int64_t rows_before = 0;
    for (int p = 0; p < L->npages; p++) {
        int a = L->split[p], b = L->split[p + 1];
        int rep[NENT];
        memcpy(rep, ent_rep, sizeof rep);
        if (L->first_rep && p == 0) rep[0] = 1;
        pqb rl = {0}, dl = {0}, vals = {0}, body = {0};
        levels(&rl, rep, a, b, 1);
        levels(&dl, ent_def, a, b, 2);
        int starts = 0, nulls = 0;
        for (int i = a; i < b; i++) {
            starts += rep[i] == 0;
            nulls += ent_def[i] < 3;
            if (ent_def[i] == 3) pqb_le32(&vals, (uint32_t)ent_val[i]);
        }
        if (L->v2) {
            pqb_bytes(&body, rl.b, rl.n);
            pqb_bytes(&body, dl.b, dl.n);
        } else {
            pqb_le32(&body, (uint32_t)rl.n);
            pqb_bytes(&body, rl.b, rl.n);
            pqb_le32(&body, (uint32_t)dl.n);
            pqb_bytes(&body, dl.b, dl.n);
        }
        pqb_bytes(&body, vals.b, vals.n);
        /* num_rows as the writer of such files counts: rows touched, a continued one too */
        pqb_page ph = {.type = L->v2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA,
                       .uncompressed_size = (int32_t)body.n,
                       .compressed_size = (int32_t)body.n,
                       .num_values = b - a,
                       .encoding = PQT_ENC_PLAIN,
                       .num_nulls = nulls,
                       .num_rows = starts + (rep[a] != 0),
                       .rep_nbytes = L->v2 ? (int32_t)rl.n : 0,
                       .def_nbytes = L->v2 ? (int32_t)dl.n : 0};
        page_off[p] = (int64_t)w->n;
        pqb h = {0};
        pqb_page_header(&h, &ph);
        pqb_bytes(w, h.b, h.n);
        pqb_bytes(w, body.b, body.n);
        page_n[p] = (int32_t)((int64_t)w->n - page_off[p]);
        first_rows[p] = rows_before;
        rows_before += starts;
        pqb_free(&h);
        pqb_free(&rl);
        pqb_free(&dl);
        pqb_free(&vals);
        pqb_free(&body);
    }
    first_rows[L->npages - 1] += L->oi_shift;
}

static void write_file(const layout *L)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_chunk ch[2];
    pqb_chunk_extra ex[2] = {{0}};
    int64_t off[2][8], first[2][8];
    int32_t nb[2][8];
    for (int g = 0; g < 2; g++) {
        int64_t start = (int64_t)w.n;
        write_chunk(&w, L, off[g], nb[g], first[g]);
        int64_t len = (int64_t)w.n - start;
        ch[g] = (pqb_chunk){start, len, NENT, len, PQT_CODEC_UNCOMPRESSED};
    }
    for (int g = 0; L->oi && g < 2; g++) {
        ex[g].oi_offset = (int64_t)w.n;
        pqb_offset_index(&w, L->npages, off[g], nb[g], first[g]);
        ex[g].oi_nbytes = (int32_t)((int64_t)w.n - ex[g].oi_offset);
    }
    pqb_col c = {"l", PQT_PT_INT32, PQT_REP_OPTIONAL, true, 0};
    int64_t rows[2] = {L->rg_rows, L->rg_rows};
    pqb_footer_ext(&w, &c, 1, 2, rows, ch, ex);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&w);
}

static bool bit(const uint8_t *b, int64_t i)
{
    return b && (b[i >> 3] >> (i & 7) & 1);
}

/* a holds rows rows[0..n) (0-based rows of the 6-row truth), as truth says. */
static void check_rows(const pqt_array *a, const int *rows, int n, int line)
{
    int bad0 = pqt_test_failures;
    CHECK_EQ_I64(pqt_array_nrows(a), n);
    if (pqt_array_nrows(a) != n) return;
    int kind = pqt_array_kind(a);
    const int32_t *v = pqt_array_data(a);
    const uint8_t *valid = pqt_array_validity(a), *rvalid = pqt_array_row_validity(a);
    const int64_t *off = pqt_array_list_offsets(a);
    int w = pqt_array_width(a);
    for (int k = 0; k < n; k++) {
        int r = rows[k], len = row_len[r];
        int64_t e0, e1;
        bool null_row;
        if (kind & PQT_LIST) {
            e0 = off[k];
            e1 = off[k + 1];
            null_row = rvalid && !bit(rvalid, k);
        } else {
            CHECK(kind & PQT_VECTOR);
            e0 = (int64_t)k * w;
            e1 = e0 + w;
            null_row = false;
        }
        CHECK_EQ_I64(null_row, len < 0);
        CHECK_EQ_I64(e1 - e0, len < 0 ? 0 : len);
        for (int i = 0; len > 0 && i < len && e0 + i < e1; i++) {
            bool is_null = row_val[r][i] == NUL;
            CHECK_EQ_I64(valid ? !bit(valid, e0 + i) : 0, is_null);
            CHECK_EQ_I64(v[e0 + i], is_null ? 0 : row_val[r][i]);
        }
    }
    if (pqt_test_failures != bad0) fprintf(stderr, "  (from line %d)\n", line);
}

static void check_reads(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        pqt_opts *o;
        REQUIRE_OK(pqt_opts_new(&o));
        CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
        pqt_file *f = NULL;
        REQUIRE_OK(pqt_file_open(path, o, &f));
        pqt_opts_free(o);
        CHECK_EQ_I64(pqt_file_column_kind(f, 0), PQT_INT32 | PQT_LIST);
        /* every row range of the file's 12 rows */
        for (int lo = 1; lo <= 2 * NROWS; lo++) {
            for (int hi = lo; hi <= 2 * NROWS; hi++) {
                pqt_array *a = NULL;
                CHECK_OK(pqt_file_read(f, 0, lo, hi, &a));
                int rows[2 * NROWS], n = 0;
                for (int r = lo; r <= hi; r++)
                    rows[n++] = (r - 1) % NROWS;
                if (a) check_rows(a, rows, n, __LINE__);
                pqt_array_free(a);
            }
        }
        /* every selection of each row group's rows */
        for (int g = 0; g < 2; g++) {
            for (int m = 0; m < 1 << NROWS; m++) {
                uint8_t keep[NROWS];
                int rows[NROWS], n = 0;
                for (int r = 0; r < NROWS; r++) {
                    keep[r] = (uint8_t)(m >> r & 1);
                    if (keep[r]) rows[n++] = r;
                }
                pqt_selection *sel = NULL;
                REQUIRE_OK(pqt_selection_from_bools(keep, NROWS, &sel));
                pqt_array *a = NULL;
                CHECK_OK(pqt_file_read_selected(f, 0, g, sel, &a));
                if (a) check_rows(a, rows, n, __LINE__);
                pqt_array_free(a);
                pqt_selection_free(sel);
            }
        }
        pqt_file_close(f);
    }
}

static bool has(const char *s)
{
    return strstr(pqt_errmsg(), s) != NULL;
}

static pqt_status read_whole(void)
{
    pqt_file *f = NULL;
    pqt_status st = pqt_file_open(path, NULL, &f);
    if (st != PQT_OK) return st;
    pqt_array *a = NULL;
    st = pqt_file_read(f, 0, 1, pqt_file_nrows(f), &a);
    pqt_array_free(a);
    pqt_file_close(f);
    return st;
}

static pqt_status read_selected(int64_t lo, int64_t hi)
{
    pqt_file *f = NULL;
    pqt_status st = pqt_file_open(path, NULL, &f);
    if (st != PQT_OK) return st;
    pqt_selection *sel = NULL;
    int64_t r[2] = {lo, hi};
    st = pqt_selection_from_ranges(r, 1, pqt_file_row_group_nrows(f, 0), &sel);
    pqt_array *a = NULL;
    if (st == PQT_OK) st = pqt_file_read_selected(f, 0, 0, sel, &a);
    pqt_array_free(a);
    pqt_selection_free(sel);
    pqt_file_close(f);
    return st;
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_page_span_%d.parquet", (int)getpid());
    make_entries();
    for (int v2 = 0; v2 <= 1; v2++) {
        /* five pages: r1 spans 1-2, r4 spans 3-4-5; the offset index (page 4 starts no row)
         * is not usable, so pages are found by their headers */
        layout five = {5, {0, 2, 7, 10, 13, NENT}, v2, 1, NROWS, 0, 0};
        write_file(&five);
        check_reads();
        five.oi = 0;
        write_file(&five);
        check_reads();
        /* four pages, each starting a row: the offset index skips pages */
        layout four = {4, {0, 2, 7, 14, NENT}, v2, 1, NROWS, 0, 0};
        write_file(&four);
        check_reads();

        /* corrupt twins */
        layout bad = five;
        bad.first_rep = 1;
        write_file(&bad);
        CHECK_EQ_I64(read_whole(), PQT_CORRUPT);
        CHECK(has("page 1:") && has("starts in the middle of a row") &&
              has("no row began before it"));
        bad = five;
        bad.rg_rows = NROWS - 1;
        write_file(&bad);
        CHECK_EQ_I64(read_whole(), PQT_CORRUPT);
        CHECK(has("pages hold more rows than the row group's 5"));
        bad.rg_rows = NROWS + 1;
        write_file(&bad);
        CHECK_EQ_I64(read_whole(), PQT_CORRUPT);
        CHECK(has("column chunk holds 6 rows, the row group has 7"));
        /* an offset index putting row 5 in page 3 while its levels start only row 4 there
         * (and rows 5 and 6 in page 4): refused by either page */
        bad = four;
        bad.oi_shift = 1;
        write_file(&bad);
        CHECK_EQ_I64(read_selected(4, 4), PQT_CORRUPT);
        CHECK(has("page 3:") && has("1 rows") && has("the offset index says 2"));
        CHECK_EQ_I64(read_selected(6, 6), PQT_CORRUPT);
        CHECK(has("page 4:") && has("pages hold more rows than the row group's 6"));
    }
    unlink(path);
    return pqt_test_done("test_page_span");
}
