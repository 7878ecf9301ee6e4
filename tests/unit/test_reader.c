/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_reader.c - the one reader (read/reader.h): every strategy against the serial one.
 *
 * A file of 12 row groups written by pqt's writer (dictionary off, small pages, so strings
 * can be windowed and selections skip pages by the offset index) holds an int64 column
 * with nulls, a double column, strings with nulls, a list<int32> without nulls (lists
 * windowed), a list<int32> with null rows, empty lists and null elements, and a list of
 * strings. Random plans (per row group NONE, ALL, a range or random rows; also "every row
 * group whole but the last", the lists' windowed case) over random spans of row groups are
 * read with 1 thread (the serial strategy, the slow twin) and 2 threads; both must agree
 * value for value, and the int64 and string columns must also equal the written arrays at
 * the selected file rows (independent truth). Each parallel strategy must have run.
 * Then the lists' fallback: statistics patched to claim no nulls for the column that has
 * them make the windows wrong, and the read must fall back to the serial strategy and
 * still give the serial result.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api/file_int.h"
#include "read/request.h"
#include "testutil.h"
#include "util/sel.h"

#define NROWS 3000
#define RG_ROWS 250

static int bit(const uint8_t *bm, int64_t i)
{
    return bm ? (bm[i >> 3] >> (i & 7)) & 1 : 1;
}

/* 0 when a and b hold the same rows (as test_read_reuse.c compares). */
static int differ(const pqt_colbuf *a, const pqt_colbuf *b)
{
    if (a->nrows != b->nrows || a->is_list != b->is_list) return 1;
    int64_t nr = a->nrows, ne = a->is_list ? a->list_offsets[nr] : nr;
    if (a->is_list &&
        (b->list_offsets[nr] != ne || a->list_offsets[0] != 0 || b->list_offsets[0] != 0))
        return 2;
    for (int64_t i = 0; i < ne; i++)
        if (bit(a->validity, i) != bit(b->validity, i)) return 3;
    for (int64_t i = 0; a->is_list && i < nr; i++)
        if (bit(a->row_validity, i) != bit(b->row_validity, i)) return 4;
    if (a->is_list && memcmp(a->list_offsets, b->list_offsets, (size_t)(nr + 1) * 8) != 0) return 5;
    if (a->str_offsets) {
        if (!b->str_offsets) return 6;
        for (int64_t i = 0; i <= ne; i++)
            if (a->str_offsets[i] - a->str_offsets[0] != b->str_offsets[i] - b->str_offsets[0])
                return 7;
        size_t n = (size_t)(a->str_offsets[ne] - a->str_offsets[0]);
        if (n &&
            memcmp(a->str_bytes.data + a->str_offsets[0], b->str_bytes.data + b->str_offsets[0], n))
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

/* The written columns, kept as truth. */
static int64_t ival[NROWS];
static uint8_t ivalid[NROWS / 8 + 1];
static int64_t soff[NROWS + 1];
static char sbytes[NROWS * 12];
static uint8_t svalid[NROWS / 8 + 1];

static void set_bit(uint8_t *bm, int64_t i, int v)
{
    if (v) bm[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static void write_file(const char *path)
{
    static double dval[NROWS];
    static int64_t voff[NROWS + 1], loff[NROWS + 1], sloff[NROWS + 1];
    static int32_t velem[NROWS * 4], lelem[NROWS * 4];
    static uint8_t lvalid[NROWS / 2 + 1], lrow[NROWS / 8 + 1];
    uint64_t rs = 7;
    int64_t nb = 0, nv = 0, nl = 0;
    for (int64_t i = 0; i < NROWS; i++) {
        ival[i] = (int64_t)(pqt_test_rand(&rs) % 100000) - 50000;
        set_bit(ivalid, i, i % 7 != 3);
        dval[i] = (double)i * 0.25;
        soff[i] = nb;
        set_bit(svalid, i, i % 11 != 5);
        nb += snprintf(sbytes + nb, 12, "s%lld", (long long)(i * 37 % 1000));
        voff[i] = nv; /* 1..4 elements, never null */
        for (int k = 0, n = 1 + (int)(i % 4); k < n; k++)
            velem[nv++] = (int32_t)(i * 10 + k);
        loff[i] = nl; /* 0..3 elements, some null; every 9th row null */
        set_bit(lrow, i, i % 9 != 4);
        for (int k = 0, n = (int)(i % 4); k < n; k++) {
            set_bit(lvalid, nl, (i + k) % 5 != 0);
            lelem[nl++] = (int32_t)(i - k);
        }
        sloff[i] = i; /* one string each: the strings column's i-th string */
    }
    soff[NROWS] = nb;
    voff[NROWS] = nv;
    loff[NROWS] = nl;
    sloff[NROWS] = NROWS;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    REQUIRE_OK(pqt_table_add_column(t, "i", PQT_INT64, 1, ival, ivalid, NROWS, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "d", PQT_FLOAT64, 1, dval, NULL, NROWS, NULL));
    REQUIRE_OK(pqt_table_add_string_column(t, "s", 1, soff, sbytes, svalid, NROWS, NULL));
    REQUIRE_OK(pqt_table_add_list_column(t, "v", PQT_INT32, voff, NULL, velem, NULL, NROWS, NULL));
    REQUIRE_OK(
        pqt_table_add_list_column(t, "l", PQT_INT32, loff, lrow, lelem, lvalid, NROWS, NULL));
    REQUIRE_OK(
        pqt_table_add_string_list_column(t, "sl", sloff, NULL, soff, sbytes, svalid, NROWS, NULL));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, 0));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, RG_ROWS));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 300));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    REQUIRE_OK(pqt_write_table(t, path, o));
    pqt_write_opts_free(o);
    pqt_table_close(t);
}

/* A random selection of a row group of n rows; whole forces ALL. */
static void random_sel(pqt_sel *s, int64_t n, uint64_t *rs, bool whole)
{
    static uint8_t keep[RG_ROWS];
    switch (whole ? 1 : pqt_test_rand(rs) % 5) {
    case 0:
        pqt_sel_init_none(s, n);
        break;
    case 1:
        pqt_sel_init_all(s, n);
        break;
    case 2: {
        int64_t a = (int64_t)(pqt_test_rand(rs) % (uint64_t)n),
                z = a + (int64_t)(pqt_test_rand(rs) % (uint64_t)(n - a)) + 1;
        CHECK_OK(pqt_sel_init_range(s, n, a, z));
        break;
    }
    default: {
        int every = 1 + (int)(pqt_test_rand(rs) % 40);
        for (int64_t i = 0; i < n; i++)
            keep[i] = pqt_test_rand(rs) % (uint64_t)every == 0;
        CHECK_OK(pqt_sel_init_bools(s, n, keep));
    }
    }
}

/* Row `row` of the truth arrays against destination row d of b. */
static void check_truth(const char *name, const pqt_colbuf *b, int64_t d, int64_t row)
{
    if (!strcmp(name, "i")) {
        CHECK_EQ_I64(bit(b->validity, d), bit(ivalid, row));
        if (bit(ivalid, row)) CHECK_EQ_I64(((const int64_t *)b->data)[d], ival[row]);
    } else if (!strcmp(name, "s")) {
        CHECK_EQ_I64(bit(b->validity, d), bit(svalid, row));
        if (!bit(svalid, row)) return;
        int64_t len = b->str_offsets[d + 1] - b->str_offsets[d];
        CHECK_EQ_I64(len, soff[row + 1] - soff[row]);
        CHECK(len == soff[row + 1] - soff[row] &&
              !memcmp(b->str_bytes.data + b->str_offsets[d], sbytes + soff[row], (size_t)len));
    }
}

static int seen[PQT_READ_LISTS_WIN + 1];

/* One random plan over a random span, every column, 1 and 2 threads. */
static void one_plan(pqt_file *f, uint64_t *rs)
{
    int nrg = pqt_file_nrow_groups(f);
    int rg0 = (int)(pqt_test_rand(rs) % 3), n = nrg - rg0 - (int)(pqt_test_rand(rs) % 3);
    bool lists_case = pqt_test_rand(rs) % 3 == 0;
    pqt_sel sels[16];
    memset(sels, 0, sizeof sels);
    int64_t dst[16], nrows = 0;
    for (int i = 0; i < n; i++) {
        random_sel(&sels[i], f->meta.row_groups[rg0 + i].num_rows, rs, lists_case && i < n - 1);
        dst[i] = nrows;
        nrows += sels[i].nsel;
    }
    pqt_read_src src = pqt_file_read_src(f);
    for (int col = 0; col < f->schema.ncols; col++) {
        const pqt_col *c = &f->schema.cols[col];
        pqt_colbuf serial, par;
        pqt_read_strategy used1 = PQT_READ_NOTHING, used2 = PQT_READ_NOTHING;
        pqt_read_req rq = {.src = src,
                           .col = c,
                           .rg0 = rg0,
                           .nrg = n,
                           .sels = sels,
                           .dst_row = dst,
                           .nrows = nrows,
                           .threads = 1,
                           .used = &used1};
        REQUIRE_OK(pqt_read_column(&rq, &serial));
        CHECK(used1 == (nrows ? PQT_READ_SERIAL : PQT_READ_NOTHING));
        rq.threads = 2;
        rq.used = &used2;
        REQUIRE_OK(pqt_read_column(&rq, &par));
        seen[used2]++;
        int d = differ(&serial, &par);
        if (d)
            fprintf(stderr, "column %s, strategy %d, span %d+%d: differs (%d)\n", c->path,
                    (int)used2, rg0, n, d);
        CHECK_EQ_I64(d, 0);
        for (int i = 0; i < n; i++) { /* truth at every selected file row */
            int64_t *rows = malloc(sizeof *rows * (size_t)(sels[i].nsel + 1));
            pqt_sel_rows(&sels[i], rows);
            for (int64_t k = 0; k < sels[i].nsel; k++)
                check_truth(c->path, &par, dst[i] + k,
                            f->meta.row_groups[rg0 + i].first_row + rows[k]);
            free(rows);
        }
        pqt_colbuf_free(&serial);
        pqt_colbuf_free(&par);
    }
    for (int i = 0; i < n; i++)
        pqt_sel_free(&sels[i]);
}

/* Statistics that claim column l holds no null: the lists' windows are laid out from them,
 * turn out wrong, and the read falls back to the serial strategy. */
static void fallback(pqt_file *f)
{
    int col = -1;
    for (int k = 0; k < f->schema.ncols; k++)
        if (!strcmp(f->schema.cols[k].path, "l") || !strncmp(f->schema.cols[k].path, "l.", 2))
            col = k;
    REQUIRE_OK(col >= 0 ? PQT_OK : PQT_NOT_FOUND);
    const pqt_col *c = &f->schema.cols[col];
    int nrg = f->meta.n_row_groups, ncc = f->meta.row_groups[0].ncolumns;
    pqt_file_meta m = f->meta;
    pqt_row_group *groups = calloc((size_t)nrg, sizeof *groups);
    pqt_column_chunk *chunks = calloc((size_t)nrg * (size_t)ncc, sizeof *chunks);
    pqt_sel *sels = calloc((size_t)nrg, sizeof *sels);
    int64_t *dst = calloc((size_t)nrg, sizeof *dst), nrows = 0;
    for (int rg = 0; rg < nrg; rg++) {
        groups[rg] = f->meta.row_groups[rg];
        memcpy(chunks + rg * ncc, groups[rg].columns, sizeof *chunks * (size_t)ncc);
        groups[rg].columns = chunks + rg * ncc;
        pqt_column_meta *cm = &chunks[rg * ncc + c->chunk_col].meta;
        CHECK(cm->has_stats && cm->stats.has_null_count && cm->stats.null_count > 0);
        cm->stats.null_count = 0;
        pqt_sel_init_all(&sels[rg], groups[rg].num_rows);
        dst[rg] = nrows;
        nrows += groups[rg].num_rows;
    }
    m.row_groups = groups;
    pqt_read_src src = pqt_file_read_src(f);
    pqt_read_src lying = src;
    lying.meta = &m;
    pqt_colbuf want, got;
    pqt_read_strategy used = PQT_READ_NOTHING;
    pqt_read_req rq = {.src = src,
                       .col = c,
                       .nrg = nrg,
                       .sels = sels,
                       .dst_row = dst,
                       .nrows = nrows,
                       .threads = 1};
    REQUIRE_OK(pqt_read_column(&rq, &want));
    rq.src = lying;
    rq.threads = 2;
    rq.used = &used;
    REQUIRE_OK(pqt_read_column(&rq, &got));
    CHECK_EQ_I64(used, PQT_READ_SERIAL);
    CHECK_EQ_I64(differ(&want, &got), 0);
    /* the same claim on column v, whose claim is true: the windows hold */
    for (int k = 0; k < f->schema.ncols; k++)
        if (!strcmp(f->schema.cols[k].path, "v") || !strncmp(f->schema.cols[k].path, "v.", 2))
            rq.col = &f->schema.cols[k];
    pqt_colbuf v;
    REQUIRE_OK(pqt_read_column(&rq, &v));
    CHECK_EQ_I64(used, PQT_READ_LISTS_WIN);
    pqt_colbuf_free(&v);
    pqt_colbuf_free(&want);
    pqt_colbuf_free(&got);
    for (int rg = 0; rg < nrg; rg++)
        pqt_sel_free(&sels[rg]);
    free(sels);
    free(dst);
    free(groups);
    free(chunks);
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/pqt_test_reader_%d.parquet", (int)getpid());
    write_file(path);
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), NROWS / RG_ROWS);
    uint64_t rs = 42;
    for (int k = 0; k < 60; k++)
        one_plan(f, &rs);
    CHECK(seen[PQT_READ_FIXED_PAR] > 0);
    CHECK(seen[PQT_READ_STRINGS_WIN] > 0);
    CHECK(seen[PQT_READ_LISTS_WIN] > 0);
    CHECK(seen[PQT_READ_SERIAL] > 0);
    fallback(f);
    pqt_file_close(f);
    unlink(path);
    return pqt_test_done("test_reader");
}
