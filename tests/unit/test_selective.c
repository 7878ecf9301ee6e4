/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_selective.c - property test: selective decode equals decode-all-then-filter.
 *
 * For corpus files covering every encoding, nulls, lists, page v1/v2 and many small pages,
 * every readable column of every row group is decoded once under ALL (the slow twin), then
 * under random selections (single runs, many runs, random bitmaps, sparse and dense); each
 * selected row must equal the corresponding row of the full decode: value bytes, validity,
 * string bytes, list lengths and row validity.
 */
#include <stdlib.h>
#include <string.h>

#include "api/file_int.h"
#include "column/column.h"
#include "testutil.h"

static uint64_t rng = 42;

static int bit(const uint8_t *bm, int64_t i) { return bm ? (bm[i >> 3] >> (i & 7)) & 1 : 1; }

/* Compare element ei of a with element ej of b. */
static int same_elem(const pqt_colbuf *a, int64_t ei, const pqt_colbuf *b, int64_t ej)
{
    if (bit(a->validity, ei) != bit(b->validity, ej)) return 0;
    if (!bit(a->validity, ei)) return 1;
    if (PQT_KIND_IS_BYTES(a->elem_kind)) {
        int64_t la = a->str_offsets[ei + 1] - a->str_offsets[ei];
        int64_t lb = b->str_offsets[ej + 1] - b->str_offsets[ej];
        return la == lb && memcmp(a->str_bytes.data + a->str_offsets[ei],
                                  b->str_bytes.data + b->str_offsets[ej], (size_t)la) == 0;
    }
    size_t e = a->elem_nbytes;
    return memcmp((const uint8_t *)a->data + ei * (int64_t)e, (const uint8_t *)b->data + ej * (int64_t)e, e) == 0;
}

static int same_row(const pqt_colbuf *a, int64_t i, const pqt_colbuf *b, int64_t j)
{
    if (!a->is_list) return same_elem(a, i, b, j);
    if (bit(a->row_validity, i) != bit(b->row_validity, j)) return 0;
    int64_t a0 = a->list_offsets[i], a1 = a->list_offsets[i + 1];
    int64_t b0 = b->list_offsets[j], b1 = b->list_offsets[j + 1];
    if (a1 - a0 != b1 - b0) return 0;
    for (int64_t k = 0; k < a1 - a0; k++)
        if (!same_elem(a, a0 + k, b, b0 + k)) return 0;
    return 1;
}

static void make_selection(pqt_sel *sel, int64_t nrows, int mode, uint8_t *keep)
{
    switch (mode) {
    case 0: { /* one run */
        int64_t lo = (int64_t)(pqt_test_rand(&rng) % (uint64_t)nrows);
        int64_t hi = lo + 1 + (int64_t)(pqt_test_rand(&rng) % (uint64_t)(nrows - lo));
        for (int64_t i = 0; i < nrows; i++) keep[i] = i >= lo && i < hi;
        break;
    }
    case 1: /* sparse */
        for (int64_t i = 0; i < nrows; i++) keep[i] = pqt_test_rand(&rng) % 50 == 0;
        break;
    case 2: /* dense */
        for (int64_t i = 0; i < nrows; i++) keep[i] = pqt_test_rand(&rng) % 4 != 0;
        break;
    default: { /* long runs */
        int on = 0;
        for (int64_t i = 0; i < nrows; i++) {
            if (pqt_test_rand(&rng) % 100 == 0) on = !on;
            keep[i] = (uint8_t)on;
        }
    }
    }
    CHECK_OK(pqt_sel_init_bools(sel, nrows, keep));
}

static void check_file(const char *path)
{
    /* the in-place (memory) and the pread paths both serve reads: alternate them */
    static int in_memory = 0;
    in_memory = !in_memory;
    uint8_t *bytes = NULL;
    pqt_file *f;
    pqt_status ost;
    if (in_memory) {
        FILE *fp = fopen(path, "rb");
        long n = -1;
        if (fp && fseek(fp, 0, SEEK_END) == 0) n = ftell(fp);
        if (n >= 0 && fseek(fp, 0, SEEK_SET) == 0) bytes = malloc((size_t)n + 1);
        if (bytes && fread(bytes, 1, (size_t)n, fp) != (size_t)n) n = -1;
        if (fp) fclose(fp);
        ost = n >= 0 && bytes ? pqt_file_open_mem(bytes, (size_t)n, path, NULL, &f) : PQT_IO;
    } else {
        ost = pqt_file_open(path, NULL, &f);
    }
    if (ost != PQT_OK) {
        free(bytes);
        fprintf(stderr, "cannot open %s: %s\n", path, pqt_errmsg());
        pqt_test_failures++;
        return;
    }
    pqt_chunk_ctx *cx;
    CHECK_OK(pqt_chunk_ctx_new(&cx));
    pqt_chunk_src src = {f->io, f->path, f->file_size, &f->meta, true, true, NULL, NULL, NULL, -1};
    pqt_sel all, sel;
    memset(&all, 0, sizeof all);
    memset(&sel, 0, sizeof sel);
    for (int c = 0; c < f->schema.ncols; c++) {
        const pqt_col *col = &f->schema.cols[c];
        if (col->elem_kind == PQT_NONE) continue;
        for (int rg = 0; rg < f->meta.n_row_groups; rg++) {
            int64_t nrows = f->meta.row_groups[rg].num_rows;
            if (nrows == 0) continue;
            int64_t nv = f->meta.row_groups[rg].columns[col->chunk_col].meta.num_values;
            pqt_colbuf full;
            CHECK_OK(pqt_colbuf_alloc(&full, col, nrows, nv, NULL));
            pqt_sel_init_all(&all, nrows);
            if (pqt_chunk_read(cx, &src, rg, col, &all, &full, 0) != PQT_OK) {
                fprintf(stderr, "%s: %s\n", path, pqt_errmsg());
                pqt_test_failures++;
                pqt_colbuf_free(&full);
                continue;
            }
            uint8_t *keep = malloc((size_t)nrows);
            for (int trial = 0; trial < 8; trial++) {
                make_selection(&sel, nrows, trial % 4, keep);
                pqt_colbuf part;
                CHECK_OK(pqt_colbuf_alloc(&part, col, sel.nsel, nv, NULL));
                if (pqt_chunk_read(cx, &src, rg, col, &sel, &part, 0) != PQT_OK) {
                    fprintf(stderr, "%s col %s: %s\n", path, col->path, pqt_errmsg());
                    pqt_test_failures++;
                } else {
                    int64_t j = 0, bad = 0;
                    for (int64_t i = 0; i < nrows; i++) {
                        if (!keep[i]) continue;
                        if (!same_row(&full, i, &part, j)) bad++;
                        j++;
                    }
                    if (bad) {
                        fprintf(stderr, "%s col %s rg %d mode %d: %lld rows differ\n", path,
                                col->path, rg, trial % 4, (long long)bad);
                        pqt_test_failures++;
                    }
                }
                pqt_colbuf_free(&part);
            }
            free(keep);
            pqt_colbuf_free(&full);
        }
    }
    pqt_sel_free(&all);
    pqt_sel_free(&sel);
    pqt_chunk_ctx_free(cx);
    pqt_file_close(f);
    free(bytes);
}

int main(void)
{
    static const char *const files[] = {
        "alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet",
        "delta_binary_packed.parquet", "delta_byte_array.parquet",
        "delta_encoding_optional_column.parquet", "delta_length_byte_array.parquet",
        "byte_stream_split_extended.gzip.parquet", "datapage_v2.snappy.parquet",
        "int32_with_null_pages.parquet", "nullable.impala.parquet", "list_columns.parquet",
        "repeated_primitive_no_list.parquet", "rle_boolean_encoding.parquet",
        "overflow_i16_page_cnt.parquet", "fixed_length_decimal.parquet",
        "byte_array_decimal.parquet", "float16_nonzeros_and_nans.parquet",
        "nested_structs.rust.parquet", "lz4_raw_compressed_larger.parquet",
        "concatenated_gzip_members.parquet", "plain-dict-uncompressed-checksum.parquet",
        "tests/data/list_pages.parquet", "tests/data/table_rg.parquet"};
    char path[512];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (strncmp(files[i], "tests/", 6) == 0) snprintf(path, sizeof path, "%s", files[i]);
        else snprintf(path, sizeof path, "tests/data/parquet-testing/data/%s", files[i]);
        check_file(path);
    }
    return pqt_test_done("test_selective");
}
