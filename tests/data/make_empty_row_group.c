/* SPDX-License-Identifier: Apache-2.0 */
/*
 * make_empty_row_group.c - tests/data/datasets/edge_empty/b2_empty_row_group.parquet: the
 * columns of edge_empty (id int64, x int32, both optional) in ONE row group of zero rows, each
 * chunk one v1 data page of zero values. Neither DuckDB nor Polars writes such a row group
 * (both write no row group for zero rows), other writers do; DuckDB reads it as zero rows
 * (make_datasets.mjs checks). Built by hand with the tests' Parquet builder:
 *   cc -std=c11 -Iinclude -Isrc -Itests/unit tests/data/make_empty_row_group.c \
 *      tests/unit/pqbuild.c -o /tmp/make_empty_row_group && /tmp/make_empty_row_group OUT
 */
#include <stdio.h>

#include "format/meta.h"
#include "pqbuild.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_empty_row_group OUT.parquet\n");
        return 2;
    }
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_chunk ch[2];
    for (int c = 0; c < 2; c++) {
        /* a v1 page of zero values: its body is the definition levels' 4-byte length, 0 */
        pqb page = {0};
        pqb_le32(&page, 0);
        int64_t at = (int64_t)w.n;
        pqb_page p = {.type = PQT_PAGE_DATA,
                      .uncompressed_size = (int32_t)page.n,
                      .compressed_size = (int32_t)page.n,
                      .num_values = 0,
                      .encoding = PQT_ENC_PLAIN};
        pqb_page_header(&w, &p);
        pqb_bytes(&w, page.b, page.n);
        pqb_free(&page);
        ch[c] = (pqb_chunk){at, (int64_t)w.n - at, 0, (int64_t)w.n - at, PQT_CODEC_UNCOMPRESSED};
    }
    const pqb_col cols[2] = {{"id", PQT_PT_INT64, PQT_REP_OPTIONAL, false, 0},
                             {"x", PQT_PT_INT32, PQT_REP_OPTIONAL, false, 0}};
    const int64_t rows = 0;
    pqb_footer(&w, cols, 2, 1, &rows, ch);
    int ok = pqb_write_file(&w, argv[1]);
    pqb_free(&w);
    return ok ? 0 : 1;
}
