/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_oindex_once.c - an open file decodes each chunk's offset index once (issue 29): the
 * filter pass and every read of the chunk after it share the decode, also under parallel
 * reads, and an index the reader rejects is rejected once and stays rejected.
 *
 * Truth: a file written here with pqt's writer, a = row, b = 3 * row, in row groups of
 * RG_ROWS rows and pages of about 100 values, every chunk with an offset index (checked
 * from its footer). The filter a in [1500, 2600) keeps rows of row groups 2 and 3 only
 * (hand-computed from RG_ROWS), so reading a and b after it needs exactly 2 * 2 offset
 * indexes. The pages of a chunk's index are compared with the file's own bytes (oi_read.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/file_int.h"
#include "column/column.h"
#include "format/meta.h"
#include "oi_read.h"
#include "pqt.h"
#include "table/table_int.h"
#include "testutil.h"

#define NROWS 4000
#define RG_ROWS 1000
#define LO 1500
#define HI 2600

static char path[64];

static void write_file(void)
{
    static int64_t a[NROWS], b[NROWS];
    for (int64_t i = 0; i < NROWS; i++) {
        a[i] = i;
        b[i] = 3 * i;
    }
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, "a", PQT_INT64, 1, a, NULL, NROWS, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "b", PQT_INT64, 1, b, NULL, NROWS, NULL));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG_ROWS));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 800));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* Every chunk has an offset index of several pages: the premise of the counts below. */
static void check_premise(void)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), NROWS / RG_ROWS);
    for (int rg = 0; rg < NROWS / RG_ROWS; rg++)
        for (int leaf = 0; leaf < 2; leaf++) {
            CHECK_EQ_I64(pqt_file_chunk_has_offset_index(f, rg, leaf), 1);
            pqt_arena a = {0};
            pqt_offset_index oi;
            test_read_offset_index(path, &f->meta.row_groups[rg].columns[leaf], &a, &oi);
            CHECK(oi.npages > 2);
            pqt_arena_free(&a);
        }
    pqt_file_close(f);
}

/* Filter on a, read a and b: values right, and one decode per chunk read. */
static void filtered_table(int threads)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_int(o, PQT_OPT_THREADS, threads));
    CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "a >= 1500 and a < 2600"));
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(path, o, &t));
    pqt_opts_free(o);
    for (int pass = 0; pass < 2; pass++) /* a second read decodes nothing more */
        for (int k = 0; k < 2; k++) {
            int64_t *d = NULL, n = 0;
            uint8_t *v = NULL;
            CHECK_OK(pqt_table_get_alloc(t, k ? "b" : "a", PQT_INT64, (void **)&d, &v, &n));
            CHECK_EQ_I64(n, HI - LO);
            int64_t bad = 0;
            for (int64_t i = 0; d && i < n; i++)
                bad += d[i] != (k ? 3 : 1) * (LO + i);
            CHECK_EQ_I64(bad, 0);
            pqt_free(d);
            pqt_free(v);
        }
    /* row groups 2 and 3 (rows 1000..2999) hold [1500, 2600); two columns each */
    CHECK_EQ_I64(atomic_load(&t->scan.offset_index_reads), 2 * 2);
    pqt_table_close(t);
}

static int64_t decodes(const pqt_read_counters *rc)
{
    return atomic_load(&rc->offset_index_reads);
}

/* pqt_chunk_offset_index itself: with a cache the second ask shares the first decode (the
 * same pages), without one it decodes again; a rejected index is rejected once. */
static void direct(void)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    const pqt_col *col = &f->schema.cols[1]; /* b */
    pqt_arena ta = {0};
    pqt_offset_index want;
    test_read_offset_index(path, &f->meta.row_groups[2].columns[1], &ta, &want);

    pqt_read_counters rc = {0};
    pqt_oindex_cache *cache = pqt_oindex_cache_new(&f->meta);
    REQUIRE_OK(cache ? PQT_OK : PQT_NOMEM);
    pqt_chunk_src src = {f->io, f->path, f->file_size, &f->meta, true, false, &rc, cache, NULL, -1};
    pqt_offset_index oi1 = {0}, oi2 = {0};
    bool ok1 = false, ok2 = false;
    pqt_arena a = {0};
    CHECK_OK(pqt_chunk_offset_index(&src, 2, col, &a, &oi1, &ok1));
    CHECK_OK(pqt_chunk_offset_index(&src, 2, col, &a, &oi2, &ok2));
    CHECK(ok1 && ok2);
    CHECK_EQ_I64(decodes(&rc), 1);
    CHECK(oi1.pages == oi2.pages); /* the cache's pages, borrowed */
    CHECK_EQ_I64(oi1.npages, want.npages);
    for (int i = 0; ok1 && i < want.npages && i < oi1.npages; i++) {
        CHECK_EQ_I64(oi1.pages[i].offset, want.pages[i].offset);
        CHECK_EQ_I64(oi1.pages[i].compressed_page_size, want.pages[i].compressed_page_size);
        CHECK_EQ_I64(oi1.pages[i].first_row_index, want.pages[i].first_row_index);
    }
    pqt_oindex_cache_free(cache);

    src.oindex = NULL; /* no cache: every ask decodes, as callers building a src by hand get */
    CHECK_OK(pqt_chunk_offset_index(&src, 2, col, &a, &oi1, &ok1));
    CHECK_OK(pqt_chunk_offset_index(&src, 2, col, &a, &oi2, &ok2));
    CHECK(ok1 && ok2);
    CHECK_EQ_I64(decodes(&rc), 3);
    pqt_arena_free(&a);

    /* The same file with row group 3 claiming fewer rows than its pages start at: the
     * index does not fit (a page starts past the row group) and is refused, once. */
    pqt_file_meta short_meta = f->meta;
    pqt_row_group *groups = malloc((size_t)f->meta.n_row_groups * sizeof *groups);
    memcpy(groups, f->meta.row_groups, (size_t)f->meta.n_row_groups * sizeof *groups);
    groups[2].num_rows = want.pages[1].first_row_index; /* page 2 starts at the end */
    short_meta.row_groups = groups;
    cache = pqt_oindex_cache_new(&short_meta);
    REQUIRE_OK(cache ? PQT_OK : PQT_NOMEM);
    memset(&rc, 0, sizeof rc);
    src = (pqt_chunk_src){f->io, f->path, f->file_size, &short_meta, true,
                          false, &rc,     cache,        NULL,        -1};
    ok1 = ok2 = true;
    CHECK_OK(pqt_chunk_offset_index(&src, 2, col, &a, &oi1, &ok1));
    CHECK_OK(pqt_chunk_offset_index(&src, 2, col, &a, &oi2, &ok2));
    CHECK(!ok1 && !ok2);
    CHECK_EQ_I64(decodes(&rc), 1);
    /* the other chunks of that file still fit */
    CHECK_OK(pqt_chunk_offset_index(&src, 1, col, &a, &oi1, &ok1));
    CHECK(ok1);
    CHECK_EQ_I64(decodes(&rc), 2);
    /* a cache of another footer is not used: decoded here, not from it */
    src.meta = &f->meta;
    CHECK_OK(pqt_chunk_offset_index(&src, 2, col, &a, &oi1, &ok1));
    CHECK(ok1);
    CHECK_EQ_I64(decodes(&rc), 3);
    pqt_oindex_cache_free(cache);
    pqt_arena_free(&a);
    free(groups);
    pqt_arena_free(&ta);
    pqt_file_close(f);
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/pqt_test_oindex_once_%d.parquet", (int)getpid());
    write_file();
    check_premise();
    filtered_table(1);
    filtered_table(4);
    direct();
    unlink(path);
    return pqt_test_done("test_oindex_once");
}
