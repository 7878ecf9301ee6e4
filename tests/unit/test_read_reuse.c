/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_read_reuse.c - a row group read into recycled buffers (pqt_read_column with a spare,
 * as the writer reads a copy's columns) equals the same row group read into fresh ones: the
 * model is the plain read. Every column of a DuckDB file of 5 row groups (nulls, strings,
 * fixed and ragged lists) is read row group by row group forwards and backwards (the spare
 * larger, then smaller, than the read needs), with spares from another column of another
 * kind, and with one decoding context kept across the reads; values, validity, offsets and
 * the spare left empty are compared.
 */
#include <string.h>

#include "api/file_int.h"
#include "column/column.h"
#include "testutil.h"
#include "util/sel.h"

static int bit(const uint8_t *bm, int64_t i)
{
    return bm ? (bm[i >> 3] >> (i & 7)) & 1 : 1;
}

/* 0 when a and b hold the same rows. */
static int differ(const pqt_colbuf *a, const pqt_colbuf *b)
{
    if (a->nrows != b->nrows || a->nelem != b->nelem || a->is_list != b->is_list) return 1;
    int64_t ne = a->nelem, nr = a->nrows;
    if (!a->validity != !b->validity || !a->row_validity != !b->row_validity) return 2;
    for (int64_t i = 0; a->validity && i < ne; i++)
        if (bit(a->validity, i) != bit(b->validity, i)) return 3;
    for (int64_t i = 0; a->row_validity && i < nr; i++)
        if (bit(a->row_validity, i) != bit(b->row_validity, i)) return 4;
    if (a->is_list && memcmp(a->list_offsets, b->list_offsets, (size_t)(nr + 1) * 8) != 0)
        return 5;
    if (a->str_offsets) {
        if (!b->str_offsets) return 6;
        for (int64_t i = 0; i <= ne; i++)
            if (a->str_offsets[i] - a->str_offsets[0] != b->str_offsets[i] - b->str_offsets[0])
                return 7;
        size_t n = (size_t)(a->str_offsets[ne] - a->str_offsets[0]);
        if (n && memcmp(a->str_bytes.data + a->str_offsets[0], b->str_bytes.data + b->str_offsets[0], n))
            return 8;
        return 0;
    }
    for (int64_t i = 0; i < ne; i++)
        if (bit(a->validity, i) &&
            memcmp((const uint8_t *)a->data + (size_t)i * a->elem_nbytes,
                   (const uint8_t *)b->data + (size_t)i * b->elem_nbytes, a->elem_nbytes) != 0)
            return 9;
    return 0;
}

static int empty(const pqt_colbuf *b)
{
    return !b->data && !b->validity && !b->str_offsets && !b->str_bytes.data &&
           !b->list_offsets && !b->row_validity;
}

static void read_rg(pqt_file *f, int col, int rg, pqt_colbuf *out, pqt_colbuf *spare,
                    pqt_chunk_ctx *cx)
{
    int64_t n = pqt_file_row_group_nrows(f, rg), zero = 0;
    pqt_sel sel;
    memset(&sel, 0, sizeof sel);
    pqt_sel_init_all(&sel, n);
    pqt_read_req rq = {.src = pqt_file_read_src(f),
                       .col = &f->schema.cols[col],
                       .rg0 = rg,
                       .nrg = 1,
                       .sels = &sel,
                       .dst_row = &zero,
                       .nrows = n,
                       .threads = 1,
                       .spare = spare,
                       .serial_cx = cx};
    CHECK_OK(pqt_read_column(&rq, out));
    pqt_sel_free(&sel);
}

int main(void)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open("tests/data/table_rg.parquet", NULL, &f));
    int nrg = pqt_file_nrow_groups(f), ncol = f->schema.ncols;
    CHECK_EQ_I64(nrg, 5);
    CHECK_EQ_I64(ncol, 7);
    pqt_chunk_ctx *cx = NULL;
    REQUIRE_OK(pqt_chunk_ctx_new(&cx));
    int compared = 0;
    for (int c = 0; c < ncol; c++) {
        for (int pass = 0; pass < 3; pass++) {
            pqt_colbuf spare;
            memset(&spare, 0, sizeof spare);
            for (int i = 0; i < nrg; i++) {
                int rg = pass == 1 ? nrg - 1 - i : i;
                if (pass == 2) { /* a spare from another column (another kind) */
                    pqt_colbuf_free(&spare);
                    read_rg(f, (c + 3) % ncol, (rg + 1) % nrg, &spare, NULL, NULL);
                }
                pqt_colbuf fresh, reused;
                read_rg(f, c, rg, &fresh, NULL, NULL);
                read_rg(f, c, rg, &reused, &spare, pass == 0 ? cx : NULL);
                CHECK(empty(&spare));
                int d = differ(&fresh, &reused);
                if (d) fprintf(stderr, "column %d row group %d pass %d: differ (%d)\n", c, rg, pass, d);
                CHECK_EQ_I64(d, 0);
                compared++;
                pqt_colbuf_free(&fresh);
                spare = reused; /* the next read takes these buffers */
            }
            pqt_colbuf_free(&spare);
        }
    }
    CHECK_EQ_I64(compared, 7 * 5 * 3);
    pqt_chunk_ctx_free(cx);
    pqt_file_close(f);
    return pqt_test_done("test_read_reuse");
}
