/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_parts.c - parts of one file written by several writers, assembled in one
 * process without MPI (pqt_file.h "Parts of one file"): three parts (the middle one without
 * rows, the last one written in two batches) read back as the rows of the three tables
 * concatenated (values worked out from the row numbers below, not read from pqt's output);
 * every offset of the footer lands on what it names (each page header the offset index
 * lists, the dictionary and first data pages, the column indexes, the bloom filters), and
 * the offset index's page locations moved by their part's start; ordinals 0..n-1; the
 * key-value entries from every part (the VOTable's row count, a vector's width); a filter
 * answered through the page index and the bloom filters. Failures leave no file: parts of
 * different schemas (the message names the part and the column), a corrupt footer, footer 0
 * not part 0's, an existing file without PQT_WOPT_OVERWRITE.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/footer.h"
#include "format/meta.h"
#include "pqt_file.h"
#include "testutil.h"
#include "util/buf.h"
#include "util/io.h"

static char g_dir[256];

/* Part p's row i: id = 1000 p + i; x = i / 2 (null when i % 5 == 3); s = "r<p>-<i>" (null
 * when i % 4 == 1); v = a list of i % 3 int32 (id + j); w = a vector of 2 int32 (i, -i). */
static const int NROWS[3] = {23, 0, 31};

static pqt_table *rows_of(int p, int lo, int n)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    int64_t *id = calloc((size_t)n + 1, sizeof *id), *so = calloc((size_t)n + 1, sizeof *so);
    int64_t *vo = calloc((size_t)n + 1, sizeof *vo);
    double *x = calloc((size_t)n + 1, sizeof *x);
    int32_t *v = calloc((size_t)n * 3 + 1, sizeof *v), *w = calloc((size_t)n * 2 + 1, sizeof *w);
    uint8_t *xv = calloc((size_t)n / 8 + 1, 1), *sv = calloc((size_t)n / 8 + 1, 1);
    char *sb = calloc((size_t)n * 16 + 1, 1);
    size_t at = 0;
    for (int r = 0; r < n; r++) {
        int i = lo + r;
        id[r] = 1000 * p + i;
        x[r] = i / 2.0;
        if (i % 5 != 3) xv[r / 8] |= (uint8_t)(1u << (r % 8));
        if (i % 4 != 1) {
            sv[r / 8] |= (uint8_t)(1u << (r % 8));
            at += (size_t)sprintf(sb + at, "r%d-%d", p, i);
        }
        so[r + 1] = (int64_t)at;
        vo[r + 1] = vo[r] + i % 3;
        for (int j = 0; j < i % 3; j++)
            v[vo[r] + j] = (int32_t)(id[r] + j);
        w[2 * r] = i;
        w[2 * r + 1] = -i;
    }
    REQUIRE_OK(pqt_table_add_column(t, "id", PQT_INT64, 1, id, NULL, n, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, xv, n, "m"));
    REQUIRE_OK(pqt_table_add_string_column(t, "s", 1, so, sb, sv, n, NULL));
    REQUIRE_OK(pqt_table_add_list_column(t, "v", PQT_INT32, vo, NULL, v, NULL, n, NULL));
    REQUIRE_OK(pqt_table_add_column(t, "w", PQT_INT32 | PQT_VECTOR, 2, w, NULL, n, NULL));
    free(id), free(so), free(vo), free(x), free(v), free(w), free(xv), free(sv), free(sb);
    return t;
}

static pqt_write_opts *options(void)
{
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 7)); /* several per part */
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 40));   /* several pages each */
    REQUIRE_OK(pqt_write_opts_set_str(o, PQT_WOPT_BLOOM_COLUMN, "id"));
    REQUIRE_OK(pqt_write_opts_set_str(o, PQT_WOPT_FILE_DATE, "2026-12-06T12:00:00"));
    return o;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* The three parts: part 0 by pqt_write_table_part, part 1 without rows, part 2 by a
 * streaming part writer in two batches. */
static void make_parts(const char *path, const pqt_write_opts *o, pqt_part **parts)
{
    pqt_table *t0 = rows_of(0, 0, NROWS[0]);
    REQUIRE_OK(pqt_write_table_part(t0, path, o, 0, &parts[0]));
    pqt_table *t1 = rows_of(1, 0, 0);
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open_part(&w, path, t1, o, 1));
    CHECK(pqt_writer_temp_path(w) == NULL); /* the spool has no name */
    REQUIRE_OK(pqt_writer_close_part(w, &parts[1]));
    REQUIRE_OK(pqt_writer_open_part(&w, path, t1, o, 2));
    pqt_table *a = rows_of(2, 0, 12), *b = rows_of(2, 12, NROWS[2] - 12);
    REQUIRE_OK(pqt_writer_write(w, a));
    REQUIRE_OK(pqt_writer_write(w, b));
    REQUIRE_OK(pqt_writer_close_part(w, &parts[2]));
    pqt_table_close(t0), pqt_table_close(t1), pqt_table_close(a), pqt_table_close(b);
    CHECK_EQ_I64(pqt_part_nrows(parts[0]), NROWS[0]);
    CHECK_EQ_I64(pqt_part_nrows(parts[1]), 0);
    CHECK_EQ_I64(pqt_part_nbytes(parts[1]), 0);
    CHECK_EQ_I64(pqt_part_nrows(parts[2]), NROWS[2]);
}

/* Steps 2-4 of the contract for parts[0..n); the status of the assembly or the commit. */
static pqt_status assemble(pqt_part **parts, const void **footers, size_t *fn, int n)
{
    char *tmp = NULL;
    pqt_status st = pqt_shared_file_create(parts[0], &tmp);
    if (st != PQT_OK) return st;
    int64_t at = 4;
    for (int k = 0; k < n; k++) {
        if (!footers[k]) footers[k] = pqt_part_footer(parts[k], &fn[k]);
        if (st == PQT_OK) st = pqt_part_write_to(parts[k], tmp, at);
        at += pqt_part_nbytes(parts[k]);
    }
    int64_t tail_at = 0;
    void *tail = NULL;
    size_t tn = 0;
    if (st == PQT_OK) st = pqt_part_assemble(parts[0], n, footers, fn, &tail_at, &tail, &tn);
    if (st == PQT_OK) CHECK_EQ_I64(tail_at, at);
    if (st == PQT_OK) st = pqt_shared_file_commit(parts[0], tmp, tail_at, tail, tn);
    if (st != PQT_OK) pqt_shared_file_remove(tmp);
    pqt_free(tail);
    pqt_free(tmp);
    return st;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    REQUIRE_OK(fp ? PQT_OK : PQT_IO);
    fseek(fp, 0, SEEK_END);
    *n = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc(*n + 1);
    REQUIRE_OK(fread(b, 1, *n, fp) == *n ? PQT_OK : PQT_IO);
    fclose(fp);
    return b;
}

/* A page header of type `type` at byte off whose size (header + body) is nbytes (0: any). */
static void page_at(const uint8_t *b, size_t n, int64_t off, int type, int32_t nbytes)
{
    pqt_page_header h;
    size_t hn = 0;
    CHECK(off >= 4 && (size_t)off < n);
    if (off < 4 || (size_t)off >= n) return;
    CHECK_OK(pqt_meta_decode_page_header(b + off, n - (size_t)off, off, &h, &hn));
    CHECK_EQ_I64(h.type, type);
    if (nbytes) CHECK_EQ_I64((int64_t)hn + h.compressed_size, nbytes);
}

/* Every offset of the footer names what it should; the offset indexes' pages lie inside
 * their part: part 0 is [4, 4 + n0), part 2 right after (part 1 has no bytes). */
static void check_offsets(const char *path, const int64_t *part_end)
{
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    pqt_arena a = {0};
    pqt_io *io = NULL;
    pqt_file_meta m;
    REQUIRE_OK(pqt_io_open_path(path, &io));
    REQUIRE_OK(pqt_footer_read_io(io, &a, &m));
    pqt_io_unref(io);
    CHECK_EQ_I64(m.num_rows, NROWS[0] + NROWS[2]);
    CHECK_EQ_I64(m.n_row_groups, 4 + 5); /* 23 rows by 7: 4; 31 rows by 7: 5 */
    int64_t rows = 0;
    for (int g = 0; g < m.n_row_groups; g++) {
        const pqt_row_group *rg = &m.row_groups[g];
        CHECK(rg->has_ordinal && rg->ordinal == g);
        int part = g < 4 ? 0 : 2;
        int64_t lo = part == 0 ? 4 : part_end[0], hi = part == 0 ? part_end[0] : part_end[2];
        CHECK(rg->file_offset >= lo && rg->file_offset < hi);
        CHECK_EQ_I64(rg->num_rows, g == 3 ? 2 : g == 8 ? 3 : 7);
        rows += rg->num_rows;
        for (int c = 0; c < rg->ncolumns; c++) {
            const pqt_column_chunk *cc = &rg->columns[c];
            const pqt_column_meta *cm = &cc->meta;
            if (cm->has_dictionary_page_offset)
                page_at(b, n, cm->dictionary_page_offset, PQT_PAGE_DICTIONARY, 0);
            page_at(b, n, cm->data_page_offset, PQT_PAGE_DATA, 0);
            CHECK(cc->has_offset_index && cc->has_column_index);
            if (!cc->has_offset_index || !cc->has_column_index) continue;
            CHECK(cc->offset_index_offset >= part_end[2] && cc->column_index_offset >= part_end[2]);
            pqt_offset_index oi;
            CHECK_OK(pqt_meta_decode_offset_index(b + cc->offset_index_offset,
                                                  (size_t)cc->offset_index_length,
                                                  cc->offset_index_offset, &a, &oi));
            CHECK(oi.npages >= 1);
            for (int i = 0; i < oi.npages; i++) {
                CHECK(oi.pages[i].offset >= lo && oi.pages[i].offset < hi);
                page_at(b, n, oi.pages[i].offset, PQT_PAGE_DATA, oi.pages[i].compressed_page_size);
            }
            CHECK(oi.npages < 1 || oi.pages[0].offset == cm->data_page_offset);
            pqt_column_index ci;
            CHECK_OK(pqt_meta_decode_column_index(b + cc->column_index_offset,
                                                  (size_t)cc->column_index_length,
                                                  cc->column_index_offset, &a, &ci));
            CHECK_EQ_I64(ci.npages, oi.npages);
            CHECK(cm->has_bloom_filter_offset == (c == 0));
            if (cm->has_bloom_filter_offset) {
                pqt_bloom_header bh;
                size_t hn = 0;
                CHECK(cm->bloom_filter_offset >= lo && cm->bloom_filter_offset < hi);
                CHECK_OK(pqt_meta_decode_bloom_header(b + cm->bloom_filter_offset,
                                                      n - (size_t)cm->bloom_filter_offset,
                                                      cm->bloom_filter_offset, &bh, &hn));
                CHECK_EQ_I64((int64_t)hn + bh.num_bytes, cm->bloom_filter_length);
            }
        }
    }
    CHECK_EQ_I64(rows, m.num_rows);
    pqt_arena_free(&a);
    free(b);
}

/* The file's rows are part 0's then part 2's, each value as rows_of made it. */
static void check_values(const char *path)
{
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), NROWS[0] + NROWS[2]);
    int64_t r = 0;
    for (int p = 0; p < 3; p++) {
        for (int i = 0; i < NROWS[p]; i++) {
            r++;
            int64_t id = 0;
            double x = 0;
            int isnull = 0;
            CHECK_OK(pqt_table_get_value(t, "id", r, 0, PQT_INT64, &id, sizeof id, NULL));
            CHECK_EQ_I64(id, 1000 * p + i);
            CHECK_OK(pqt_table_get_value(t, "x", r, 0, PQT_FLOAT64, &x, sizeof x, &isnull));
            CHECK(isnull == (i % 5 == 3) && (isnull || x == i / 2.0));
            const char *s = NULL;
            int64_t len = 0;
            char want[32];
            snprintf(want, sizeof want, "r%d-%d", p, i);
            CHECK_OK(pqt_table_get_string(t, "s", r, 0, &s, &len, &isnull));
            CHECK(isnull == (i % 4 == 1) &&
                  (isnull || (len == (int64_t)strlen(want) && memcmp(s, want, (size_t)len) == 0)));
            for (int j = 0; j < 2; j++) {
                int32_t e = 0;
                CHECK_OK(pqt_table_get_value(t, "w", r, j + 1, PQT_INT32, &e, sizeof e, NULL));
                CHECK_EQ_I64(e, j ? -i : i);
            }
        }
    }
    int64_t *off = NULL, nelem = 0;
    void *data = NULL;
    CHECK_OK(pqt_table_get_list_alloc(t, "v", PQT_INT32, &off, &data, NULL, NULL, &nelem));
    r = 0;
    int64_t want_n = 0;
    for (int p = 0; p < 3 && off; p++) {
        for (int i = 0; i < NROWS[p]; i++, r++) {
            CHECK_EQ_I64(off[r + 1] - off[r], i % 3);
            for (int j = 0; j < i % 3 && off[r + 1] - off[r] == i % 3; j++)
                CHECK_EQ_I64(((int32_t *)data)[off[r] + j], 1000 * p + i + j);
            want_n += i % 3;
        }
    }
    CHECK_EQ_I64(nelem, want_n);
    pqt_free(off);
    pqt_free(data);
    pqt_table_close(t);
}

/* The entries made from every part's rows: the VOTable's row count and w's width. */
static void check_kv(const char *path)
{
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(path, NULL, &f));
    pqt_test_meta_is(f, "column.w.col_size", "2");
    pqt_test_meta_is(f, "column.x.unit", "m");
    pqt_test_meta_is(f, "DATE", "2026-12-06T12:00:00");
    const char *vot = NULL;
    CHECK_OK(pqt_file_meta_value(f, "IVOA.VOTable-Parquet.content", &vot));
    CHECK(vot && strstr(vot, "nrows=\"54\""));
    CHECK_EQ_I64(pqt_test_key_count(f, "DATE"), 1);
    pqt_file_close(f);
}

/* A filter on id (bloom filter and page index) finds the one row of part 2. */
static void check_filter(const char *path)
{
    pqt_opts *o = NULL;
    REQUIRE_OK(pqt_opts_new(&o));
    REQUIRE_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, "id == 2017"));
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_open(path, o, &t));
    if (t) {
        CHECK_EQ_I64(pqt_table_nrows(t), 1);
        double x = 0;
        CHECK_OK(pqt_table_get_value(t, "x", 1, 0, PQT_FLOAT64, &x, sizeof x, NULL));
        CHECK(x == 8.5);
    }
    pqt_table_close(t);
    pqt_opts_free(o);
}

static void whole(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/whole.parquet", g_dir);
    pqt_write_opts *o = options();
    pqt_part *parts[3] = {0};
    make_parts(path, o, parts);
    CHECK_EQ_I64(entries(g_dir), 1); /* part 0's temporary file; the spools have no names */
    const void *footers[3] = {0};
    size_t fn[3] = {0};
    CHECK_OK(assemble(parts, footers, fn, 3));
    int64_t end[3] = {4 + pqt_part_nbytes(parts[0]), 0, 0};
    end[1] = end[0];
    end[2] = end[1] + pqt_part_nbytes(parts[2]);
    /* a second assembly of the same part 0 is refused: its entries are filled */
    int64_t at = 0;
    void *tail = NULL;
    size_t tn = 0;
    CHECK(pqt_part_assemble(parts[0], 3, footers, fn, &at, &tail, &tn) == PQT_MISUSE);
    for (int k = 0; k < 3; k++)
        pqt_part_free(parts[k]);
    CHECK_EQ_I64(entries(g_dir), 1);
    check_offsets(path, end);
    check_values(path);
    check_kv(path);
    check_filter(path);
    /* the path exists now: a new shared file is refused without PQT_WOPT_OVERWRITE */
    pqt_table *none = rows_of(1, 0, 0);
    pqt_part *again = NULL;
    CHECK(pqt_write_table_part(none, path, o, 1, &again) == PQT_EXISTS && !again);
    CHECK(strstr(pqt_errmsg(), "whole.parquet exists") != NULL);
    pqt_table_close(none);
    unlink(path);
    pqt_write_opts_free(o);
}

static void free_parts(pqt_part **parts)
{
    for (int k = 0; k < 3; k++) {
        pqt_part_free(parts[k]);
        parts[k] = NULL;
    }
}

/* Failures: the temporary file removed, no file under the name. Each case from fresh
 * parts, as a failed assembly is the end of a file. */
static void failures(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/bad.parquet", g_dir);
    pqt_write_opts *o = options();
    pqt_part *parts[3] = {0};
    /* part 1 with another column */
    make_parts(path, o, parts);
    pqt_table *t = rows_of(1, 0, 4);
    REQUIRE_OK(pqt_table_drop_column(t, "x"));
    pqt_part *odd = NULL;
    REQUIRE_OK(pqt_write_table_part(t, path, o, 1, &odd));
    pqt_table_close(t);
    pqt_part *mixed[3] = {parts[0], odd, parts[2]};
    const void *footers[3] = {0};
    size_t fn[3] = {0};
    CHECK(assemble(mixed, footers, fn, 3) == PQT_SCHEMA_MISMATCH);
    CHECK(strstr(pqt_errmsg(), "part 0 and part 1 have different schemas") != NULL);
    CHECK(strstr(pqt_errmsg(), "column 'x'") != NULL);
    CHECK_EQ_I64(entries(g_dir), 0);
    pqt_part_free(odd);
    free_parts(parts);
    /* a truncated footer */
    make_parts(path, o, parts);
    CHECK_EQ_I64(entries(g_dir), 1); /* part 0's temporary file; the spools have no names */
    const void *f2[3] = {0};
    size_t n2[3] = {0};
    f2[1] = pqt_part_footer(parts[1], &n2[1]);
    n2[1] -= 3;
    CHECK(assemble(parts, f2, n2, 3) == PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "part 1") != NULL);
    CHECK_EQ_I64(entries(g_dir), 0);
    free_parts(parts);
    /* footer 0 must be part 0's own */
    make_parts(path, o, parts);
    const void *f3[3] = {0};
    size_t n3[3] = {0};
    f3[0] = pqt_part_footer(parts[2], &n3[0]);
    CHECK(assemble(parts, f3, n3, 3) == PQT_MISUSE);
    CHECK_EQ_I64(entries(g_dir), 0);
    free_parts(parts);
    /* the name taken after the parts were opened: the shared file is refused, the other
     * file is left as it was */
    make_parts(path, o, parts);
    FILE *fp = fopen(path, "w");
    fclose(fp);
    const void *f4[3] = {0};
    size_t n4[3] = {0};
    CHECK(assemble(parts, f4, n4, 3) == PQT_EXISTS);
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && sb.st_size == 0);
    unlink(path);
    CHECK_EQ_I64(entries(g_dir), 0);
    free_parts(parts);
    /* parts dropped before any assembly: part 0's temporary file goes with it */
    make_parts(path, o, parts);
    free_parts(parts);
    CHECK_EQ_I64(entries(g_dir), 0);
    /* a part writes no sidecar, part 0 included */
    pqt_write_opts *side = options();
    REQUIRE_OK(pqt_write_opts_set_int(side, PQT_WOPT_WRITE_MAML, 1));
    pqt_table *few = rows_of(0, 0, 2);
    for (int k = 0; k < 2; k++) {
        pqt_part *p = NULL;
        CHECK(pqt_write_table_part(few, path, side, k, &p) == PQT_MISUSE && !p);
        CHECK(strstr(pqt_errmsg(), "PQT_WOPT_WRITE_MAML") != NULL);
    }
    CHECK_EQ_I64(entries(g_dir), 0);
    pqt_table_close(few);
    pqt_write_opts_free(side);
    /* and a part writer after a failed write cannot close */
    pqt_writer *w = NULL;
    pqt_table *t1 = rows_of(1, 0, 3), *bad = rows_of(1, 0, 3);
    REQUIRE_OK(pqt_table_drop_column(bad, "s"));
    REQUIRE_OK(pqt_writer_open_part(&w, path, t1, o, 0));
    CHECK(pqt_writer_temp_path(w) != NULL); /* part 0: the shared temporary file */
    CHECK(pqt_writer_write(w, bad) != PQT_OK);
    pqt_part *none = NULL;
    CHECK(pqt_writer_close_part(w, &none) == PQT_NOT_FOUND && none == NULL);
    CHECK(strstr(pqt_errmsg(), "an earlier write failed; nothing was written: ") != NULL);
    CHECK(strstr(pqt_errmsg(), "no column 's'") != NULL);
    pqt_table_close(t1), pqt_table_close(bad);
    CHECK_EQ_I64(entries(g_dir), 0);
    pqt_write_opts_free(o);
}

/* Part footers arrive from other processes: a footer whose size field shrinks its part, and
 * every byte of a footer changed in turn, give an error or a file, never a crash (run under
 * the sanitizers in CI). */
static void hostile(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/hostile.parquet", g_dir);
    pqt_write_opts *o = options();
    /* parts are made again and again below: no I/O thread and its staging buffers each */
    REQUIRE_OK(pqt_write_opts_set_int(o, PQT_WOPT_BACKGROUND_IO, 0));
    pqt_part *parts[3] = {0};
    make_parts(path, o, parts);
    const void *f[3];
    size_t n[3];
    for (int k = 0; k < 3; k++)
        f[k] = pqt_part_footer(parts[k], &n[k]);
    uint8_t *copy = malloc(n[2]);
    memcpy(copy, f[2], n[2]);
    copy[8] = 10; /* part 2's bytes: 10, its row groups lie past them */
    for (int i = 9; i < 16; i++)
        copy[i] = 0;
    const void *g[3] = {f[0], f[1], copy};
    int64_t at = 0;
    void *tail = NULL;
    size_t tn = 0;
    CHECK(pqt_part_assemble(parts[0], 3, g, n, &at, &tail, &tn) == PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "part 2: row group 0, column 0: an offset lies outside") != NULL);
    int errors = 0, files = 0;
    for (size_t i = 0; i < n[2]; i += 13) {
        memcpy(copy, f[2], n[2]);
        copy[i] ^= (uint8_t)(0x5a + i);
        pqt_status st = pqt_part_assemble(parts[0], 3, g, n, &at, &tail, &tn);
        if (st != PQT_OK) {
            errors++;
            continue;
        }
        files++; /* a changed statistic, say: assembled; part 0 is spent, so new parts */
        pqt_free(tail);
        free_parts(parts);
        make_parts(path, o, parts);
        size_t was = n[2];
        for (int k = 0; k < 3; k++)
            f[k] = pqt_part_footer(parts[k], &n[k]);
        REQUIRE_OK(n[2] == was ? PQT_OK : PQT_MISUSE); /* the same rows, the same bytes */
        g[0] = f[0];
        g[1] = f[1];
    }
    CHECK(errors > 0);
    free(copy);
    free_parts(parts);
    CHECK_EQ_I64(entries(g_dir), 0);
    pqt_write_opts_free(o);
}

/* The dataset folder calls: files written into the hidden sibling appear together under
 * the name; a folder that is not empty is refused; remove leaves nothing. */
static void dataset_dir(void)
{
    char dir[300], file[400];
    snprintf(dir, sizeof dir, "%s/ds", g_dir);
    char *tmp = NULL;
    REQUIRE_OK(pqt_dataset_dir_create(dir, &tmp));
    CHECK(strstr(tmp, "/.ds.tmp-") != NULL);
    pqt_table *t = rows_of(0, 0, 5);
    snprintf(file, sizeof file, "%s/part-00000.parquet", tmp);
    CHECK_OK(pqt_write_table(t, file, NULL));
    const char *files[1] = {"part-00000.parquet"};
    CHECK_OK(pqt_write_metadata_summary(tmp, files, 1));
    CHECK_EQ_I64(entries(dir), -1); /* nothing under the name yet */
    CHECK_OK(pqt_dataset_dir_commit(tmp, dir));
    pqt_free(tmp);
    CHECK_EQ_I64(entries(dir), 3); /* the file, _metadata, _common_metadata */
    CHECK(pqt_dataset_dir_create(dir, &tmp) == PQT_EXISTS);
    CHECK(strstr(pqt_errmsg(), "pqt_dataset_dir_create: ") == pqt_errmsg());
    CHECK(strstr(pqt_errmsg(), "is not empty") != NULL);
    char other[300];
    snprintf(other, sizeof other, "%s/ds2", g_dir);
    REQUIRE_OK(pqt_dataset_dir_create(other, &tmp));
    snprintf(file, sizeof file, "%s/part-00000.parquet", tmp);
    CHECK_OK(pqt_write_table(t, file, NULL));
    pqt_dataset_dir_remove(tmp);
    pqt_free(tmp);
    CHECK_EQ_I64(entries(g_dir), 1); /* ds alone */
    pqt_table_close(t);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_parts_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    whole();
    failures();
    hostile();
    dataset_dir();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_parts");
}
