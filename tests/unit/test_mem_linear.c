/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_mem_linear.c - the cost of every command is linear in the file's structure (issue 9).
 *
 * Work is counted, not timed: memcount.h counts the library's allocations (calls and bytes),
 * and each bound compares a file with 10x more structure against a smaller one.
 *   - 10,000 row groups read row group by row group, as `pqt cat` does: the setup of each
 *     read was a selection for every row group of the file (10,000 x 72 bytes a call,
 *     quadratic over the file); now it is the same per call as with 1,000 row groups.
 *   - 100,000 leaves: opening costs the same per leaf as 10,000 leaves, and less than
 *     600 bytes a leaf with one row group (about 800 before); walking every schema node
 *     with pqt_file_node_column/depth/parent allocates nothing (each call walked and
 *     allocated the whole schema before); reading every column costs the same per column.
 *   - node queries on a small nested schema give the hand-computed tree.
 * Truth: values written by pqbuild (row group g, column c holds g * 7 + c) and the tree.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "format/meta.h"
#include "memcount.h"
#include "pqbuild.h"
#include "pqt_file.h"
#include "testutil.h"

static char path[256];

/* nrg row groups x ncols INT32 columns, one row each: row group g, column c holds g*7+c.
 * With list_first, column 0 is a list<int32> instead (for the tree test). */
static void write_file(int nrg, int ncols)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_col *cols = calloc((size_t)ncols, sizeof *cols);
    char(*names)[16] = calloc((size_t)ncols, 16);
    pqb_chunk *ch = calloc((size_t)nrg * (size_t)ncols, sizeof *ch);
    int64_t *rows = calloc((size_t)nrg, sizeof *rows);
    for (int c = 0; c < ncols; c++) {
        snprintf(names[c], 16, "c%d", c);
        cols[c] = (pqb_col){names[c], PQT_PT_INT32, PQT_REP_REQUIRED, false, 0};
    }
    pqb h = {0};
    for (int g = 0; g < nrg; g++) {
        rows[g] = 1;
        for (int c = 0; c < ncols; c++) {
            pqb_page p = {.type = PQT_PAGE_DATA, .uncompressed_size = 4, .compressed_size = 4,
                          .num_values = 1, .encoding = PQT_ENC_PLAIN};
            h.n = 0;
            pqb_page_header(&h, &p);
            int64_t off = (int64_t)w.n;
            pqb_bytes(&w, h.b, h.n);
            pqb_le32(&w, (uint32_t)(g * 7 + c));
            ch[(size_t)g * (size_t)ncols + (size_t)c] =
                (pqb_chunk){off, (int64_t)w.n - off, 1, (int64_t)w.n - off, PQT_CODEC_UNCOMPRESSED};
        }
    }
    pqb_footer(&w, cols, ncols, nrg, rows, ch);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&h);
    pqb_free(&w);
    free(cols);
    free(names);
    free(ch);
    free(rows);
}

static pqt_file *open1(void)
{
    pqt_opts *o;
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, 1));
    REQUIRE_OK(pqt_file_open(path, o, &f));
    pqt_opts_free(o);
    return f;
}

/* Read every (row group, column) as its own one-row range, checking the value; returns
 * the bytes allocated per read. */
static double read_by_row_group(pqt_file *f)
{
    int nrg = pqt_file_nrow_groups(f), ncols = pqt_file_ncols(f), bad = 0;
    memcount m0 = memcount_get();
    for (int g = 0; g < nrg; g++) {
        for (int c = 0; c < ncols; c++) {
            pqt_array *a = NULL;
            if (pqt_file_read(f, c, g + 1, g + 1, &a) != PQT_OK ||
                ((const int32_t *)pqt_array_data(a))[0] != g * 7 + c)
                bad++;
            pqt_array_free(a);
        }
    }
    memcount m1 = memcount_get();
    CHECK_EQ_I64(bad, 0);
    return (double)(m1.nbytes - m0.nbytes) / ((double)nrg * ncols);
}

static void test_row_groups(void)
{
    double per_read[2];
    const int nrgs[2] = {1000, 10000};
    for (int i = 0; i < 2; i++) {
        write_file(nrgs[i], 2);
        pqt_file *f = open1();
        CHECK_EQ_I64(pqt_file_nrow_groups(f), nrgs[i]);
        per_read[i] = read_by_row_group(f);
        pqt_file_close(f);
    }
    fprintf(stderr, "bytes allocated per row-group read: %.0f (1k row groups), %.0f (10k)\n",
            per_read[0], per_read[1]);
    CHECK(per_read[1] <= per_read[0] * 1.1 + 64); /* was 10x: 72 bytes x every row group */
    CHECK(per_read[1] < 4096);
}

static void test_wide(void)
{
    const int nleaves[2] = {10000, 100000};
    double open_per_leaf[2], read_per_col[2];
    for (int i = 0; i < 2; i++) {
        write_file(1, nleaves[i]);
        memcount_reset_peak();
        int64_t before = memcount_get().inuse;
        pqt_file *f = open1();
        memcount m = memcount_get();
        open_per_leaf[i] = (double)(m.peak - before) / nleaves[i];
        CHECK_EQ_I64(pqt_file_nleaves(f), nleaves[i]);

        /* every node: its column, depth and parent, with no allocation at all */
        int nnodes = pqt_file_nnodes(f), bad = 0;
        CHECK_EQ_I64(nnodes, nleaves[i] + 1);
        memcount m0 = memcount_get();
        for (int node = 0; node < nnodes; node++) {
            bad += pqt_file_node_column(f, node) != node - 1;
            bad += pqt_file_node_depth(f, node) != (node > 0);
            bad += pqt_file_node_parent(f, node) != (node > 0 ? 0 : -1);
        }
        memcount m1 = memcount_get();
        CHECK_EQ_I64(bad, 0);
        CHECK_EQ_I64(m1.ncalls - m0.ncalls, 0);

        read_per_col[i] = read_by_row_group(f);
        pqt_file_close(f);
    }
    fprintf(stderr, "open: %.0f / %.0f bytes a leaf; read: %.0f / %.0f bytes a column "
                    "(10k / 100k leaves)\n",
            open_per_leaf[0], open_per_leaf[1], read_per_col[0], read_per_col[1]);
    /* linear: 10x the leaves cost 10x the bytes, give or take the 2 MiB rounding of each
     * large block (huge pages: util/mem.c) */
    CHECK(open_per_leaf[1] * nleaves[1] <= open_per_leaf[0] * nleaves[0] * 11 + (12 << 20));
    CHECK(open_per_leaf[1] < 600);
    CHECK(read_per_col[1] <= read_per_col[0] * 1.1 + 64);
}

/* root { l (LIST) { list { element } }, x } : columns l and x */
static void test_tree(void)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_col cols[2] = {{"l", PQT_PT_INT32, PQT_REP_OPTIONAL, true, 0},
                       {"x", PQT_PT_INT32, PQT_REP_REQUIRED, false, 0}};
    pqb_footer(&w, cols, 2, 0, NULL, NULL);
    REQUIRE_OK(pqb_write_file(&w, path) ? PQT_OK : PQT_IO);
    pqb_free(&w);
    pqt_file *f = open1();
    static const int col[] = {-1, 0, -1, -1, 1}, depth[] = {0, 1, 2, 3, 1},
                     parent[] = {-1, 0, 1, 2, 0};
    CHECK_EQ_I64(pqt_file_nnodes(f), 5);
    for (int n = 0; n < 5; n++) {
        CHECK_EQ_I64(pqt_file_node_column(f, n), col[n]);
        CHECK_EQ_I64(pqt_file_node_depth(f, n), depth[n]);
        CHECK_EQ_I64(pqt_file_node_parent(f, n), parent[n]);
    }
    CHECK_EQ_I64(pqt_file_node_column(f, 5), -1);
    CHECK_EQ_I64(pqt_file_node_parent(f, -1), -1);
    pqt_file_close(f);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_mem_linear_%d.parquet", (int)getpid());
    test_row_groups();
    test_wide();
    test_tree();
    unlink(path);
    return pqt_test_done("test_mem_linear");
}
