/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page_span_counts.c - which count bounds a flat column's pages (issue 28):
 *   - a chunk whose metadata says num_values 0 while its one page holds 8 values and the row
 *     group says 8 rows reads its 8 values (required INT32, optional INT64 with nulls; v1
 *     and v2 pages): the row group's num_rows is what a flat chunk must hold;
 *   - the same chunk under a row group of 7 rows is refused (pages hold more rows than the
 *     row group's 7), and so is a row group of 9 (the chunk holds 8 rows, not 9).
 * Truth: the values written, by construction.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "format/meta.h"
#include "pqbuild.h"
#include "pqt_file.h"
#include "testutil.h"

static char path[256];

static void put_page(pqb *w, const pqb_page *p, const void *body, size_t n)
{
    pqb h = {0};
    pqb_page_header(&h, p);
    pqb_bytes(w, h.b, h.n);
    pqb_bytes(w, body, n);
    pqb_free(&h);
}

/* One row group of `rows` rows; column 0 required INT32 0..7 (one page), column 1 optional
 * INT64 with rows 2 and 5 null (values 100 + row); both chunks claim num_values `nv`. */
static void write_file(int v2, int64_t rows, int64_t nv)
{
    pqb w = {0}, page = {0}, body = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_chunk ch[2];
    /* column 0: PLAIN int32, no levels */
    for (int i = 0; i < 8; i++)
        pqb_le32(&body, (uint32_t)i);
    pqb_page p = {.type = v2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA,
                  .uncompressed_size = (int32_t)body.n,
                  .compressed_size = (int32_t)body.n,
                  .num_values = 8,
                  .encoding = PQT_ENC_PLAIN,
                  .num_nulls = 0,
                  .num_rows = 8};
    put_page(&page, &p, body.b, body.n);
    ch[0] = (pqb_chunk){(int64_t)w.n, (int64_t)page.n, nv, (int64_t)page.n, PQT_CODEC_UNCOMPRESSED};
    pqb_bytes(&w, page.b, page.n);
    /* column 1: definition levels 1 1 0 1 1 0 1 1, then 6 PLAIN int64 */
    page.n = body.n = 0;
    pqb lv = {0};
    pqb_rle_run(&lv, 2, 1, 1);
    pqb_rle_run(&lv, 1, 0, 1);
    pqb_rle_run(&lv, 2, 1, 1);
    pqb_rle_run(&lv, 1, 0, 1);
    pqb_rle_run(&lv, 2, 1, 1);
    if (!v2) pqb_le32(&body, (uint32_t)lv.n);
    pqb_bytes(&body, lv.b, lv.n);
    for (int i = 0; i < 8; i++) {
        if (i == 2 || i == 5) continue;
        pqb_le32(&body, (uint32_t)(100 + i));
        pqb_le32(&body, 0);
    }
    p.uncompressed_size = p.compressed_size = (int32_t)body.n;
    p.num_nulls = 2;
    p.def_nbytes = v2 ? (int32_t)lv.n : 0;
    put_page(&page, &p, body.b, body.n);
    ch[1] = (pqb_chunk){(int64_t)w.n, (int64_t)page.n, nv, (int64_t)page.n, PQT_CODEC_UNCOMPRESSED};
    pqb_bytes(&w, page.b, page.n);
    pqb_col cols[2] = {{"a", PQT_PT_INT32, PQT_REP_REQUIRED, false, 0},
                       {"b", PQT_PT_INT64, PQT_REP_OPTIONAL, false, 0}};
    pqb_footer(&w, cols, 2, 1, &rows, ch);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&lv);
    pqb_free(&w);
    pqb_free(&page);
    pqb_free(&body);
}

static bool has(const char *s)
{
    return strstr(pqt_errmsg(), s) != NULL;
}

static void test_zero_num_values(void)
{
    for (int v2 = 0; v2 <= 1; v2++) {
        for (int threads = 1; threads <= 2; threads++) {
            write_file(v2, 8, 0);
            pqt_opts *o;
            REQUIRE_OK(pqt_opts_new(&o));
            CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
            pqt_file *f = NULL;
            REQUIRE_OK(pqt_file_open(path, o, &f));
            pqt_array *a = NULL, *b = NULL;
            CHECK_OK(pqt_file_read(f, 0, 1, 8, &a));
            CHECK_OK(pqt_file_read(f, 1, 1, 8, &b));
            if (a && b) {
                const int32_t *av = pqt_array_data(a);
                const int64_t *bv = pqt_array_data(b);
                const uint8_t *bval = pqt_array_validity(b);
                CHECK_EQ_I64(pqt_array_nrows(a), 8);
                for (int i = 0; i < 8; i++) {
                    CHECK_EQ_I64(av[i], i);
                    bool null = i == 2 || i == 5;
                    CHECK_EQ_I64(bval && (bval[i / 8] >> (i % 8) & 1), !null);
                    CHECK_EQ_I64(bv[i], null ? 0 : 100 + i);
                }
            }
            pqt_array_free(a);
            pqt_array_free(b);
            /* rows 4..6 by a range, and rows 2, 3, 8 by a selection */
            a = NULL;
            CHECK_OK(pqt_file_read(f, 1, 4, 6, &a));
            if (a) {
                const int64_t *bv = pqt_array_data(a);
                CHECK(bv[0] == 103 && bv[1] == 104 && bv[2] == 0);
                pqt_array_free(a);
            }
            int64_t r[] = {2, 3, 8, 8};
            pqt_selection *sel = NULL;
            REQUIRE_OK(pqt_selection_from_ranges(r, 2, 8, &sel));
            a = NULL;
            CHECK_OK(pqt_file_read_selected(f, 0, 0, sel, &a));
            if (a) {
                const int32_t *av = pqt_array_data(a);
                CHECK(pqt_array_nrows(a) == 3 && av[0] == 1 && av[1] == 2 && av[2] == 7);
                pqt_array_free(a);
            }
            pqt_selection_free(sel);
            pqt_file_close(f);
            pqt_opts_free(o);
        }
        /* corrupt twins: the page holds more rows than the row group, or fewer */
        write_file(v2, 7, 0);
        pqt_file *f = NULL;
        REQUIRE_OK(pqt_file_open(path, NULL, &f));
        pqt_array *a = NULL;
        CHECK_EQ_I64(pqt_file_read(f, 0, 1, 7, &a), PQT_CORRUPT);
        CHECK(has("column 'a'") && has("pages hold more rows than the row group's 7"));
        CHECK_EQ_I64(pqt_file_read(f, 1, 1, 7, &a), PQT_CORRUPT);
        CHECK(has("column 'b'") && has("pages hold more rows than the row group's 7"));
        pqt_file_close(f);
        write_file(v2, 9, 9);
        REQUIRE_OK(pqt_file_open(path, NULL, &f));
        CHECK_EQ_I64(pqt_file_read(f, 0, 1, 9, &a), PQT_CORRUPT);
        CHECK(has("column chunk holds 8 rows, the row group has 9"));
        pqt_file_close(f);
    }
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_page_span_counts_%d.parquet", (int)getpid());
    test_zero_num_values();
    unlink(path);
    return pqt_test_done("test_page_span_counts");
}
