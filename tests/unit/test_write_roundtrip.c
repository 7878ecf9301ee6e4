/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_write_roundtrip.c - tables written by pqt_write_table read back identical (issue 14):
 * random in-memory tables of every kind (nulls, NaN, +-0, infinities, integer extremes, empty
 * and unicode strings, vectors with null elements, an all-null and a NaN-only column,
 * required and nullable columns) at 0, 1, 5 and 3000 rows, with every codec x data page
 * v1/v2 x dictionary on/off (and a dictionary limit small enough to fall back to PLAIN
 * mid-chunk), row groups of 1 row and many pages; then every readable column of every
 * corpus file (lists with nulls and empty lists, decimals, INT96, narrow and unsigned
 * integers, ...) written whole and written from a lazy slice (columns read one row group
 * at a time), each compared value by value with pqt's own reading of the source.
 */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pqt_file.h"
#include "testutil.h"

static char g_dir[256];

static int bit(const uint8_t *v, int64_t i) { return !v || (v[i >> 3] >> (i & 7) & 1); }

/* Column `name` of a and b hold the same rows: kind, width, time unit, offsets, validity and
 * the bytes of every present value. */
static int same_column(pqt_table *a, pqt_table *b, const char *name, const char *ctx)
{
    pqt_column_view va, vb;
    memset(&va, 0, sizeof va);
    memset(&vb, 0, sizeof vb);
    va.struct_size = vb.struct_size = sizeof va;
    if (pqt_table_column(a, name, 0, &va) != PQT_OK) {
        fprintf(stderr, "%s: source column '%s': %s\n", ctx, name, pqt_errmsg());
        return 0;
    }
    if (pqt_table_column(b, name, 0, &vb) != PQT_OK) {
        fprintf(stderr, "%s: written column '%s': %s\n", ctx, name, pqt_errmsg());
        return 0;
    }
    const char *why = NULL;
    int64_t at = -1;
    /* a 0-row vector too: its width comes back from the column.<name>.col_size entry */
    if (va.kind != vb.kind) why = "kind";
    else if (va.width != vb.width) why = "width";
    else if (va.nrows != vb.nrows) why = "nrows";
    else if (va.nelem != vb.nelem) why = "nelem";
    else if (va.time_unit != vb.time_unit) why = "time unit";
    else if ((va.list_offsets == NULL) != (vb.list_offsets == NULL)) why = "list offsets";
    for (int64_t r = 0; !why && va.list_offsets && r <= va.nrows; r++)
        if (va.list_offsets[r] != vb.list_offsets[r]) why = "list offset", at = r;
    for (int64_t r = 0; !why && va.list_offsets && r < va.nrows; r++)
        if (bit(va.row_validity, r) != bit(vb.row_validity, r)) why = "row validity", at = r;
    size_t en = pqt_kind_elem_nbytes(PQT_KIND_ELEMENT(va.kind));
    for (int64_t e = 0; !why && e < va.nelem; e++) {
        if (bit(va.validity, e) != bit(vb.validity, e)) {
            why = "validity", at = e;
        } else if (bit(va.validity, e)) {
            if (va.str_offsets) {
                int64_t la = va.str_offsets[e + 1] - va.str_offsets[e];
                int64_t lb = vb.str_offsets[e + 1] - vb.str_offsets[e];
                if (la != lb || memcmp(va.str_bytes + va.str_offsets[e], vb.str_bytes + vb.str_offsets[e], (size_t)la))
                    why = "string", at = e;
            } else if (memcmp((const char *)va.data + e * (int64_t)en, (const char *)vb.data + e * (int64_t)en, en)) {
                why = "value", at = e;
            }
        }
    }
    if (why) {
        fprintf(stderr, "%s: column '%s' (%s): %s differs at %lld\n", ctx, name,
                pqt_kind_name(va.kind), why, (long long)at);
        return 0;
    }
    return 1;
}

/* Every column of src against the file at path. */
static int same_table(pqt_table *src, const char *path, const char *ctx)
{
    pqt_table *t = NULL;
    if (pqt_table_open(path, NULL, &t) != PQT_OK) {
        fprintf(stderr, "%s: reopen: %s\n", ctx, pqt_errmsg());
        return 0;
    }
    int ok = pqt_table_nrows(t) == pqt_table_nrows(src) && pqt_table_ncols(t) == pqt_table_ncols(src);
    if (!ok)
        fprintf(stderr, "%s: %lld rows x %d cols written, %lld x %d read back\n", ctx,
                (long long)pqt_table_nrows(src), pqt_table_ncols(src), (long long)pqt_table_nrows(t),
                pqt_table_ncols(t));
    for (int i = 0; ok && i < pqt_table_ncols(src); i++) {
        const char *n = pqt_table_column_name(src, i);
        ok = strcmp(n, pqt_table_column_name(t, i)) == 0 && same_column(src, t, n, ctx);
    }
    pqt_table_close(t);
    return ok;
}

/* ---- random in-memory tables ---- */

static void set_bit(uint8_t *v, int64_t i, int on)
{
    if (on) v[i >> 3] |= (uint8_t)(1u << (i & 7));
    else v[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

static pqt_table *random_table(int64_t n, uint64_t seed)
{
    uint64_t s = seed;
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    size_t vb = (size_t)(n * 3 + 8) / 8 + 1;
    uint8_t *valid = calloc(vb, 1), *none = calloc(vb, 1);
    int32_t *i32 = calloc((size_t)n * 3 + 1, 4);
    int64_t *i64 = calloc((size_t)n * 3 + 1, 8);
    float *f32 = calloc((size_t)n + 1, 4);
    double *f64 = calloc((size_t)n * 2 + 1, 8);
    uint8_t *bools = calloc((size_t)n + 1, 1);
    for (int64_t i = 0; i < n * 3; i++) set_bit(valid, i, pqt_test_rand(&s) % 5 != 0);
    static const int32_t x32[] = {INT32_MIN, INT32_MAX, 0, -1, 1};
    static const int64_t x64[] = {INT64_MIN, INT64_MAX, 0, -1, 1};
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = pqt_test_rand(&s);
        i32[i] = r % 7 < 5 ? x32[r % 5] : (int32_t)(r >> 20);
        i64[i] = r % 9 < 5 ? x64[r % 5] : (int64_t)(r >> 3) - (int64_t)(r >> 1);
        static const float fx[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1e-45f, 3.4e38f};
        f32[i] = r % 10 < 6 ? fx[r % 6] : r % 10 == 6 ? NAN : (float)((double)(r >> 11) / 9e12 - 500);
        f64[i] = r % 10 == 0 ? NAN : r % 10 == 1 ? -0.0 : (double)(int64_t)(r >> 8) / 1e6;
        bools[i] = (uint8_t)(r >> 40 & 1);
    }
    CHECK_OK(pqt_table_add_column(t, "i32", PQT_INT32, 1, i32, valid, n, "count"));
    CHECK_OK(pqt_table_add_column(t, "i64_req", PQT_INT64, 1, i64, NULL, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "f32", PQT_FLOAT32, 1, f32, valid, n, "Jy"));
    CHECK_OK(pqt_table_add_column(t, "f64_req", PQT_FLOAT64, 1, f64, NULL, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "bool", PQT_BOOL, 1, bools, valid, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "u64", PQT_UINT64, 1, i64, valid, n, NULL));
    /* dates, times, timestamps: days / micros */
    int32_t *days = calloc((size_t)n + 1, 4);
    int64_t *us = calloc((size_t)n + 1, 8), *ts = calloc((size_t)n + 1, 8);
    for (int64_t i = 0; i < n; i++) {
        days[i] = (int32_t)(i * 37 % 100000) - 50000;
        us[i] = (i * 7919) % 86400000000LL;
        ts[i] = i64[i] / 4;
    }
    CHECK_OK(pqt_table_add_column(t, "date", PQT_DATE, 1, days, valid, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "time", PQT_TIME, 1, us, NULL, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "ts", PQT_TIMESTAMP, 1, ts, valid, n, NULL));
    /* vectors: int32 x 3 with null elements, float64 x 2 required */
    for (int64_t i = 0; i < n * 3; i++) i32[i] = (int32_t)(pqt_test_rand(&s) % 2000) - 1000;
    for (int64_t i = 0; i < n * 2; i++) f64[i] = (double)i / 3.0;
    CHECK_OK(pqt_table_add_column(t, "vec3", PQT_INT32 | PQT_VECTOR, 3, i32, valid, n, "m"));
    CHECK_OK(pqt_table_add_column(t, "vec2_req", PQT_FLOAT64 | PQT_VECTOR, 2, f64, NULL, n, NULL));
    /* NaN-only (with nulls) and all-null columns: no bounds to write */
    for (int64_t i = 0; i < n; i++) f64[i] = NAN;
    CHECK_OK(pqt_table_add_column(t, "nan_only", PQT_FLOAT64, 1, f64, valid, n, NULL));
    CHECK_OK(pqt_table_add_column(t, "all_null", PQT_INT32, 1, i32, none, n, NULL));
    /* strings: empty, unicode, long, repeated (dictionary-friendly) */
    static const char *pool[] = {"", "a", "\xc3\xa9t\xc3\xa9", "\xe6\x98\x9f\xe7\xa9\xba", "NGC 1275",
                                 "a somewhat longer string that crosses sixteen bytes", "zz"};
    int64_t *off = calloc((size_t)n + 1, 8);
    char *bytes = calloc((size_t)n * 64 + 1, 1);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = pqt_test_rand(&s);
        char tmp[80];
        const char *p = r % 3 ? pool[r % 7] : tmp;
        if (!(r % 3)) snprintf(tmp, sizeof tmp, "row-%lld", (long long)(r >> 20));
        size_t l = strlen(p);
        memcpy(bytes + off[i], p, l);
        off[i + 1] = off[i] + (int64_t)l;
    }
    CHECK_OK(pqt_table_add_string_column(t, "str", 1, off, bytes, valid, n, NULL));
    CHECK_OK(pqt_table_add_string_column(t, "str_req", 1, off, bytes, NULL, n, NULL));
    free(valid);
    free(none);
    free(i32);
    free(i64);
    free(f32);
    free(f64);
    free(bools);
    free(days);
    free(us);
    free(ts);
    free(off);
    free(bytes);
    return t;
}

static const char *codecs[] = {"none", "snappy", "gzip", "brotli", "zstd", "lz4_raw"};

static void roundtrip_random(void)
{
    static const int64_t sizes[] = {0, 1, 5, 3000};
    char path[300];
    snprintf(path, sizeof path, "%s/rt.parquet", g_dir);
    int ncases = 0;
    for (size_t si = 0; si < 4; si++) {
        pqt_table *t = random_table(sizes[si], 42 + si);
        for (int c = 0; c < 6; c++) {
            for (int v = 1; v <= 2; v++) {
                for (int d = 0; d <= 1; d++) {
                    pqt_write_opts *o = NULL;
                    REQUIRE_OK(pqt_write_opts_new(&o));
                    CHECK_OK(pqt_write_opts_set_str(o, PQT_WOPT_CODEC, codecs[c]));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_VERSION, v));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY, d));
                    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
                    if (sizes[si] == 5) CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 1));
                    if (sizes[si] == 3000) {
                        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 1100));
                        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 700));
                        if (c == 4) CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_DICTIONARY_NBYTES, 300));
                    }
                    if (c == 2) CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_CRC, 1));
                    if (c == 3) CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_THREADS, 2));
                    char ctx[128];
                    snprintf(ctx, sizeof ctx, "random n=%lld %s v%d dict=%d", (long long)sizes[si],
                             codecs[c], v, d);
                    pqt_status st = pqt_write_table(t, path, o);
                    if (st != PQT_OK) fprintf(stderr, "%s: write: %s\n", ctx, pqt_errmsg());
                    CHECK(st == PQT_OK);
                    if (st == PQT_OK) CHECK(same_table(t, path, ctx));
                    pqt_write_opts_free(o);
                    ncases++;
                }
            }
        }
        /* shape checks once per size: required stays required, row groups as asked */
        pqt_file *f = NULL;
        REQUIRE_OK(pqt_file_open(path, NULL, &f));
        int col;
        CHECK_OK(pqt_file_find_column(f, "i64_req", &col));
        CHECK_EQ_I64(pqt_file_column_nullable(f, col), 0);
        CHECK_OK(pqt_file_find_column(f, "i32", &col));
        CHECK_EQ_I64(pqt_file_column_nullable(f, col), 1);
        CHECK_EQ_I64(pqt_file_nrows(f), sizes[si]);
        CHECK_EQ_I64(pqt_file_nrow_groups(f), sizes[si] == 0 ? 0 : sizes[si] == 5 ? 5 : sizes[si] == 3000 ? 3 : 1);
        CHECK(strncmp(pqt_file_created_by(f), "pqt version ", 12) == 0);
        const char *u = NULL;
        CHECK_OK(pqt_file_meta_value(f, "column.f32.unit", &u));
        CHECK(u && strcmp(u, "Jy") == 0);
        pqt_file_close(f);
        pqt_table_close(t);
    }
    CHECK_EQ_I64(ncases, 4 * 6 * 2 * 2);
}

/* ---- corpus files ---- */

/* Read every column of t; drop those pqt cannot read. Returns the columns kept. */
static int keep_readable(pqt_table *t)
{
    for (int i = pqt_table_ncols(t) - 1; i >= 0; i--) {
        const char *n = pqt_table_column_name(t, i);
        pqt_column_view v;
        memset(&v, 0, sizeof v);
        v.struct_size = sizeof v;
        if (pqt_table_column(t, n, 0, &v) != PQT_OK) {
            char *nm = strdup(n);
            CHECK_OK(pqt_table_drop_column(t, nm));
            free(nm);
        }
    }
    return pqt_table_ncols(t);
}

/* Columns the writer left out with a warning (a MAP's fields): not in the copy, by design. */
static char g_unwritten[16][256];
static int g_nunwritten;

static void note_unwritten(void *user, const char *msg)
{
    (void)user;
    const char *p = strstr(msg, "column '"), *q = p ? strstr(p + 8, "' is not written") : NULL;
    if (!q || g_nunwritten == 16 || q - (p + 8) >= 255) return;
    memcpy(g_unwritten[g_nunwritten], p + 8, (size_t)(q - (p + 8)));
    g_unwritten[g_nunwritten++][q - (p + 8)] = '\0';
}

static int roundtrip_file(const char *src, const char *out)
{
    pqt_table *t = NULL;
    if (pqt_table_open(src, NULL, &t) != PQT_OK) return 0;
    if (keep_readable(t) == 0) {
        pqt_table_close(t);
        return 0;
    }
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_NBYTES, 2000));
    g_nunwritten = 0;
    pqt_set_warning_callback(note_unwritten, NULL);
    pqt_status st = pqt_write_table(t, out, o);
    pqt_set_warning_callback(NULL, NULL);
    for (int i = 0; i < g_nunwritten; i++) CHECK_OK(pqt_table_drop_column(t, g_unwritten[i]));
    if (pqt_table_ncols(t) == 0) {
        pqt_write_opts_free(o);
        pqt_table_close(t);
        return 0;
    }
    if (st == PQT_MISUSE && strstr(pqt_errmsg(), "no reader could tell apart")) {
        /* a top-level column named "a.b" beside struct a's leaf b: both are table columns
         * "a.b", and struct leaves are written as top-level columns (docs/writing.md) */
        pqt_write_opts_free(o);
        pqt_table_close(t);
        return 0;
    }
    if (st != PQT_OK) fprintf(stderr, "%s: write: %s\n", src, pqt_errmsg());
    CHECK(st == PQT_OK);
    int ok = st == PQT_OK && same_table(t, out, src);
    CHECK(ok);
    /* the lazy path: a slice whose columns are read one row group at a time */
    int64_t nrows = pqt_table_nrows(t);
    if (ok && nrows > 2) {
        pqt_opts *ro = NULL;
        REQUIRE_OK(pqt_opts_new(&ro));
        CHECK_OK(pqt_opts_set_int(ro, PQT_OPT_ROW_LO, 2));
        CHECK_OK(pqt_opts_set_int(ro, PQT_OPT_ROW_HI, nrows - 1));
        pqt_table *s = NULL;
        REQUIRE_OK(pqt_table_open(src, ro, &s));
        const char **names = calloc((size_t)pqt_table_ncols(t), sizeof *names);
        for (int i = 0; i < pqt_table_ncols(t); i++) names[i] = pqt_table_column_name(t, i);
        CHECK_OK(pqt_table_keep_columns(s, names, pqt_table_ncols(t)));
        free(names);
        CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_PAGE_VERSION, 2));
        st = pqt_write_table(s, out, o);
        if (st != PQT_OK) fprintf(stderr, "%s (slice): write: %s\n", src, pqt_errmsg());
        CHECK(st == PQT_OK);
        int res = 0;
        CHECK_OK(pqt_table_residency(s, pqt_table_column_name(s, 0), &res));
        CHECK_EQ_I64(res, PQT_RES_EMPTY); /* written without being made resident */
        CHECK(st == PQT_OK && same_table(s, out, "slice"));
        pqt_table_close(s);
        pqt_opts_free(ro);
    }
    pqt_write_opts_free(o);
    pqt_table_close(t);
    return ok;
}

static void roundtrip_corpus(void)
{
    const char *dirs[] = {"tests/data/parquet-testing/data", "tests/data"};
    char out[300], src[600];
    snprintf(out, sizeof out, "%s/corpus.parquet", g_dir);
    int nok = 0;
    for (int d = 0; d < 2; d++) {
        DIR *dp = opendir(dirs[d]);
        REQUIRE_OK(dp == NULL);
        struct dirent *e;
        while ((e = readdir(dp))) {
            size_t l = strlen(e->d_name);
            if (l < 8 || strcmp(e->d_name + l - 8, ".parquet") != 0) continue;
            snprintf(src, sizeof src, "%s/%s", dirs[d], e->d_name);
            nok += roundtrip_file(src, out);
        }
        closedir(dp);
    }
    fprintf(stderr, "corpus files round-tripped: %d\n", nok);
    CHECK(nok >= 60);
}

/* ---- the target path ---- */

static void exists_and_overwrite(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/exists.parquet", g_dir);
    pqt_table *t = random_table(10, 7);
    CHECK_OK(pqt_write_table(t, path, NULL));
    FILE *fp = fopen(path, "rb");
    fseek(fp, 0, SEEK_END);
    long size0 = ftell(fp);
    fclose(fp);
    pqt_table *t2 = random_table(20, 8);
    CHECK_EQ_I64(pqt_write_table(t2, path, NULL), PQT_EXISTS);
    CHECK(strstr(pqt_errmsg(), "exists.parquet") != NULL);
    CHECK(same_table(t, path, "kept"));
    pqt_write_opts *o = NULL;
    REQUIRE_OK(pqt_write_opts_new(&o));
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_OVERWRITE, 1));
    CHECK_OK(pqt_write_table(t2, path, o));
    CHECK(same_table(t2, path, "overwritten"));
    fp = fopen(path, "rb");
    fseek(fp, 0, SEEK_END);
    CHECK(ftell(fp) != size0);
    fclose(fp);
    /* an aborted streaming writer leaves nothing behind */
    char p2[300];
    snprintf(p2, sizeof p2, "%s/aborted.parquet", g_dir);
    pqt_writer *w = NULL;
    CHECK_OK(pqt_writer_open(&w, p2, t, NULL));
    CHECK_OK(pqt_writer_write(w, t));
    CHECK(access(p2, F_OK) != 0);
    pqt_writer_abort(w);
    CHECK(access(p2, F_OK) != 0);
    /* a streaming writer appending three tables: rows in order, row groups cut as asked */
    CHECK_OK(pqt_write_opts_set_int(o, PQT_WOPT_ROW_GROUP_ROWS, 7));
    CHECK_OK(pqt_writer_open(&w, p2, t, o));
    CHECK_OK(pqt_writer_write(w, t));
    CHECK_OK(pqt_writer_write(w, t2));
    CHECK_OK(pqt_writer_write(w, t));
    CHECK_EQ_I64(pqt_writer_nrows(w), 40);
    CHECK_OK(pqt_writer_close(w));
    pqt_table *all = NULL;
    REQUIRE_OK(pqt_table_clone(t, &all));
    CHECK_OK(pqt_table_append(all, t2));
    CHECK_OK(pqt_table_append(all, t));
    CHECK(same_table(all, p2, "streamed"));
    pqt_file *f = NULL;
    REQUIRE_OK(pqt_file_open(p2, NULL, &f));
    CHECK_EQ_I64(pqt_file_nrow_groups(f), 6);
    pqt_file_close(f);
    /* the directory holds no temporary file */
    DIR *dp = opendir(g_dir);
    struct dirent *e;
    while (dp && (e = readdir(dp))) CHECK(strstr(e->d_name, ".tmp-") == NULL);
    if (dp) closedir(dp);
    pqt_table_close(all);
    pqt_table_close(t);
    pqt_table_close(t2);
    pqt_write_opts_free(o);
}

/* A streaming writer does not keep its template: the template closed, a new table (which
 * malloc may place at the same address) with the columns in another order is written by
 * name. */
static void closed_template(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/closed_template.parquet", g_dir);
    int64_t a[3] = {1, 2, 3}, a2[3];
    double x[3] = {0.5, 1.5, 2.5}, x2[3];
    pqt_table *t = NULL;
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "a", PQT_INT64, 1, a, NULL, 3, NULL));
    CHECK_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, NULL, 3, NULL));
    pqt_writer *w = NULL;
    REQUIRE_OK(pqt_writer_open(&w, path, t, NULL));
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_new(&t));
    CHECK_OK(pqt_table_add_column(t, "x", PQT_FLOAT64, 1, x, NULL, 3, NULL));
    CHECK_OK(pqt_table_add_column(t, "a", PQT_INT64, 1, a, NULL, 3, NULL));
    CHECK_OK(pqt_writer_write(w, t));
    CHECK_OK(pqt_writer_close(w));
    pqt_table_close(t);
    REQUIRE_OK(pqt_table_open(path, NULL, &t));
    CHECK_OK(pqt_table_get(t, "a", 0, a2, sizeof a2, NULL, 0));
    CHECK_OK(pqt_table_get(t, "x", 0, x2, sizeof x2, NULL, 0));
    CHECK(memcmp(a, a2, sizeof a) == 0 && memcmp(x, x2, sizeof x) == 0);
    pqt_table_close(t);
}

int main(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/pqt_write_rt_XXXXXX");
    REQUIRE_OK(mkdtemp(g_dir) == NULL);
    roundtrip_random();
    exists_and_overwrite();
    closed_template();
    roundtrip_corpus();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
    return pqt_test_done("test_write_roundtrip");
}
