/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export_shapes.c - the shapes and conversions of an Arrow export (issue 34):
 * maps (also with keys resident and values read by row group, over two files), FLOAT16 as
 * halffloat bits, vectors as fixed_size_list and lists as large_list, nested struct groups,
 * an export surviving evict and reload, an in-memory table outliving drop and close,
 * TIME(MILLIS) as time32[ms]. Every batch is validated (arrow_check.c) and the leak count of
 * private blocks returns to 0.
 * Truth: kinds_binary_map.parquet (make_kinds.mjs: m = {a:1, b:2}, NULL, {}, {c:NULL, d:4});
 * the corpus' float16_nonzeros_and_nans.parquet (NULL, 1, -2, NaN, 0, -1, -0, 2) as bits by
 * hand; vec_direct.parquet and struct_nulls.parquet through the table's getters; a
 * TIME(MILLIS) file written here with pqbuild (values known by construction); an in-memory
 * table's values computed here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/arrow_int.h"
#include "arrow_batches.h"
#include "arrow_check.h"
#include "format/thrift.h"
#include "pqbuild.h"
#include "pqt_arrow.h"
#include "testutil.h"

#define MAPS "tests/data/kinds_binary_map.parquet"
#define HALF "tests/data/parquet-testing/data/float16_nonzeros_and_nans.parquet"
#define VECS "tests/data/vec_direct.parquet"

static char ab_rg_path[256];

/* Maps as map<key, value>: hand-known rows. */
static void test_map(void)
{
    pqt_table *t = ab_open(MAPS, NULL, NULL);
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 0, bs), 0);
    const struct ArrowSchema *ms;
    const struct ArrowArray *m;
    CHECK(ab_child(&bs->schema, &bs->b[0], "m", &ms, &m));
    if (m && !strcmp(ms->format, "+m")) {
        const int32_t *o = m->buffers[1];
        const struct ArrowArray *keys = m->children[0]->children[0];
        const struct ArrowArray *vals = m->children[0]->children[1];
        CHECK_EQ_I64(m->offset, 0);
        CHECK_EQ_I64(o[1] - o[0], 2);
        CHECK(!ab_bit(m->buffers[0], 1));
        CHECK_EQ_I64(o[3] - o[2], 0);
        CHECK(ab_bit(m->buffers[0], 2));
        CHECK_EQ_I64(o[4] - o[3], 2);
        const int64_t *ko = keys->buffers[1];
        const char *kb = keys->buffers[2];
        CHECK(ko[keys->offset + 1] - ko[keys->offset] == 1 && kb[ko[keys->offset]] == 'a');
        const int32_t *v = vals->buffers[1];
        CHECK_EQ_I64(v[vals->offset + 0], 1);
        CHECK_EQ_I64(v[vals->offset + 1], 2);
        CHECK(!ab_bit(vals->buffers[0], vals->offset + o[3])); /* c: NULL */
        CHECK_EQ_I64(v[vals->offset + o[3] + 1], 4);           /* d: 4 */
        CHECK(kb[ko[keys->offset + o[3] + 1]] == 'd');
    } else {
        fprintf(stderr, "m is %s\n", ms ? ms->format : "absent");
        pqt_test_failures++;
    }
    CHECK(!strcmp(ab_format(bs, "b"), "Z"));
    ab_release(bs);
    /* ab_batches of 1 and 3 rows: entry counts and nulls per row, keys and values of row 3 */
    static const int entries[4] = {2, 0, 0, 2};
    for (int64_t br = 1; br <= 3; br += 2) {
        CHECK_EQ_I64(ab_pull(t, NULL, 0, br, bs), 0);
        for (int64_t r = 0; r < 4; r++) {
            const struct ArrowSchema *cs;
            const struct ArrowArray *a;
            int64_t j;
            if (!ab_locate(bs, "m", r, &cs, &a, &j)) {
                pqt_test_failures++;
                continue;
            }
            const int32_t *o = a->buffers[1];
            CHECK_EQ_I64(o[j + 1] - o[j], entries[r]);
            CHECK_EQ_I64(ab_bit(a->buffers[0], j), r != 1);
            if (r != 3) continue;
            const struct ArrowArray *keys = a->children[0]->children[0];
            const struct ArrowArray *vals = a->children[0]->children[1];
            const int64_t *ko = keys->buffers[1];
            CHECK(((const char *)keys->buffers[2])[ko[keys->offset + o[j]]] == 'c');
            CHECK(!ab_bit(vals->buffers[0], vals->offset + o[j]));
            CHECK_EQ_I64(((const int32_t *)vals->buffers[1])[vals->offset + o[j] + 1], 4);
        }
        CHECK(!strcmp(ab_format(bs, "n"), "+m"));
        ab_release(bs);
    }
    free(bs);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* A map over two files (two row groups of 4 rows), its keys resident and its values not:
 * each is fed on its own, the values joined across the row groups, the keys sliced in place. */
static void test_map_mixed(void)
{
    char copy[300];
    snprintf(copy, sizeof copy, "%s.map2.parquet", ab_rg_path);
    size_t n = 0;
    char *bytes = pqt_test_read_file(MAPS, &n);
    FILE *f = fopen(copy, "wb");
    CHECK(bytes && f && fwrite(bytes, 1, n, f) == n);
    fclose(f);
    free(bytes);
    const char *paths[2] = {MAPS, copy};
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_open_files(paths, 2, NULL, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), 8);
    pqt_column_view kv = {.struct_size = sizeof kv};
    CHECK_OK(pqt_table_column(t, "m.key", 0, &kv));
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 3, bs), 0);
    static const int entries[4] = {2, 0, 0, 2};
    for (int64_t r = 0; r < 8; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        if (!ab_locate(bs, "m", r, &cs, &a, &j) || strcmp(cs->format, "+m")) {
            pqt_test_failures++;
            continue;
        }
        const int32_t *o = a->buffers[1];
        CHECK_EQ_I64(o[j + 1] - o[j], entries[r % 4]);
        if (r % 4 != 3) continue;
        const struct ArrowArray *keys = a->children[0]->children[0];
        const struct ArrowArray *vals = a->children[0]->children[1];
        const int64_t *ko = keys->buffers[1];
        CHECK(((const char *)keys->buffers[2])[ko[keys->offset + o[j] + 1]] == 'd');
        CHECK(!ab_bit(vals->buffers[0], vals->offset + o[j]));
        CHECK_EQ_I64(((const int32_t *)vals->buffers[1])[vals->offset + o[j] + 1], 4);
    }
    ab_release(bs);
    free(bs);
    pqt_table_close(t);
    unlink(copy);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* FLOAT16 back to its exact bits. */
static void test_half(void)
{
    pqt_table *t = ab_open(HALF, NULL, NULL);
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 3, bs), 0);
    static const uint16_t want[8] = {0, 0x3C00, 0xC000, 0x7E00, 0x0000, 0xBC00, 0x8000, 0x4000};
    CHECK(!strcmp(ab_format(bs, "x"), "e"));
    for (int64_t r = 0; r < 8 && pqt_table_nrows(t) == 8; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        CHECK(ab_locate(bs, "x", r, &cs, &a, &j));
        CHECK_EQ_I64(ab_bit(a->buffers[0], j), r != 0);
        uint16_t h = ((const uint16_t *)a->buffers[1])[j];
        if (r == 3)
            CHECK((h & 0x7C00) == 0x7C00 && (h & 0x3FF)); /* a NaN */
        else if (r)
            CHECK_EQ_I64(h, want[r]);
    }
    ab_release(bs);
    free(bs);
    pqt_table_close(t);
}

/* Vectors as fixed_size_list, read by row group and resident. */
static void test_vectors(void)
{
    const char *names[] = {"vf", "vd", "vi", "vl", "vb", "ln"};
    int kinds[] = {PQT_FLOAT32, PQT_FLOAT64, PQT_INT32, PQT_INT64, PQT_BOOL, PQT_FLOAT32};
    for (int64_t br = 0; br <= 700; br += 700) {
        pqt_table *t = ab_open(VECS, NULL, NULL);
        pqt_table *truth = ab_open(VECS, NULL, NULL);
        ab_batches *bs = calloc(1, sizeof *bs);
        CHECK_EQ_I64(ab_pull(t, names, 6, br, bs), 0);
        CHECK(!strncmp(ab_format(bs, "vf"), "+w:", 3));
        for (int k = 0; k < 6; k++)
            ab_compare_list(truth, bs, names[k], kinds[k]);
        ab_release(bs);
        free(bs);
        pqt_table_close(t);
        pqt_table_close(truth);
    }
}

/* A table made in memory: every column resident, no file, ab_batches of 65,536 rows. */
static void test_memory_table(void)
{
    enum { N = 70000 };
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_new(&t));
    int64_t *x = malloc(N * sizeof *x);
    uint8_t *valid = calloc((N + 7) / 8, 1);
    for (int64_t i = 0; i < N; i++) {
        x[i] = i * 3 - 7;
        if (i % 5) valid[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    CHECK_OK(pqt_table_add_column(t, "x", PQT_INT64, 1, x, valid, N, "m"));
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 0, bs), 0);
    CHECK_EQ_I64(bs->n, 2);
    CHECK_EQ_I64(bs->b[0].length, 65536);
    for (int64_t r = 0; r < N; r += 997) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        CHECK(ab_locate(bs, "x", r, &cs, &a, &j));
        CHECK_EQ_I64(ab_bit(a->buffers[0], j), r % 5 != 0);
        if (r % 5) CHECK_EQ_I64(((const int64_t *)a->buffers[1])[j], r * 3 - 7);
    }
    int64_t nulls1 = 0;
    for (int64_t i = 65536; i < N; i++)
        nulls1 += i % 5 == 0;
    CHECK_EQ_I64(bs->b[1].children[0]->null_count, nulls1);
    /* the column dropped and the table closed: the ab_batches still hold the values */
    CHECK_OK(pqt_table_drop_column(t, "x"));
    pqt_table_close(t);
    const struct ArrowArray *a = bs->b[1].children[0];
    CHECK_EQ_I64(((const int64_t *)a->buffers[1])[a->offset + 1], (65536 + 1) * 3 - 7);
    ab_release(bs);
    free(bs);
    free(x);
    free(valid);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* Struct leaves inside nested groups: one struct field per group, validated. */
static void test_nested_struct(void)
{
    pqt_table *t = ab_open("tests/data/struct_nulls.parquet", NULL, NULL);
    pqt_table *truth = ab_open("tests/data/struct_nulls.parquet", NULL, NULL);
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 4, bs), 0);
    CHECK(!strcmp(ab_format(bs, "s"), "+s"));
    int nc = pqt_table_ncols(truth);
    for (int c = 0; c < nc; c++) {
        const char *name = pqt_table_column_name(truth, c);
        int kind = 0;
        CHECK_OK(pqt_table_kind(truth, name, &kind));
        if (kind & (PQT_LIST | PQT_VECTOR))
            ab_compare_list(truth, bs, name, PQT_KIND_ELEMENT(kind));
        else
            ab_compare_scalar(truth, bs, name);
    }
    ab_release(bs);
    free(bs);
    /* a column evicted after its export: the arrays keep the evicted values */
    pqt_column_view v = {.struct_size = sizeof v};
    CHECK_OK(pqt_table_column(t, "id", 0, &v));
    struct ArrowArray a;
    struct ArrowSchema s;
    CHECK_OK(pqt_table_export_arrow_array(t, "id", &s, &a));
    CHECK(a.buffers[1] == v.data);
    CHECK_OK(pqt_table_evict(t, "id", 0));
    CHECK_OK(pqt_table_reload(t, "id", 0));
    char why[256];
    CHECK_EQ_I64(arrow_check_array(&s, &a, why, sizeof why), 0);
    for (int64_t r = 0; r < a.length; r++) {
        int32_t want = 0;
        int is_null = 0;
        CHECK_OK(pqt_table_get_value(truth, "id", r + 1, 0, PQT_INT32, &want, 4, &is_null));
        if (!is_null) CHECK_EQ_I64(((const int32_t *)a.buffers[1])[a.offset + r], want);
    }
    a.release(&a);
    s.release(&s);
    pqt_table_close(t);
    pqt_table_close(truth);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* A file of one required TIME(MILLIS) INT32 column t (converted type only, as old writers
 * make it), 5 rows, written by hand with pqbuild. */
static const int32_t time_ms[5] = {0, 1, 3723004, 86399999, 43200000};

static void write_time_ms(const char *path)
{
    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    pqb_page p = {.type = PQT_PAGE_DATA,
                  .uncompressed_size = 20,
                  .compressed_size = 20,
                  .num_values = 5,
                  .encoding = PQT_ENC_PLAIN};
    int64_t off = (int64_t)w.n;
    pqb_page_header(&w, &p);
    pqb_bytes(&w, time_ms, sizeof time_ms);
    int64_t nbytes = (int64_t)w.n - off;
    size_t start = w.n;
    w.depth = 0;
    pqb_begin(&w);
    pqb_i32(&w, 1, 2);
    pqb_list(&w, 2, PQT_TT_STRUCT, 2);
    pqb_begin(&w); /* root */
    pqb_str(&w, 4, "schema");
    pqb_i32(&w, 5, 1);
    pqb_end(&w);
    pqb_begin(&w); /* t */
    pqb_i32(&w, 1, PQT_PT_INT32);
    pqb_i32(&w, 3, PQT_REP_REQUIRED);
    pqb_str(&w, 4, "t");
    pqb_i32(&w, 6, PQT_CT_TIME_MILLIS);
    pqb_end(&w);
    pqb_i64(&w, 3, 5);
    pqb_list(&w, 4, PQT_TT_STRUCT, 1);
    pqb_begin(&w); /* the row group */
    pqb_list(&w, 1, PQT_TT_STRUCT, 1);
    pqb_begin(&w); /* its column chunk */
    pqb_i64(&w, 2, off);
    pqb_struct(&w, 3);
    pqb_i32(&w, 1, PQT_PT_INT32);
    pqb_list(&w, 2, PQT_TT_I32, 1);
    pqb_zz(&w, PQT_ENC_PLAIN);
    pqb_list(&w, 3, PQT_TT_BINARY, 1);
    pqb_bin(&w, "t");
    pqb_i32(&w, 4, 0);
    pqb_i64(&w, 5, 5);
    pqb_i64(&w, 6, nbytes);
    pqb_i64(&w, 7, nbytes);
    pqb_i64(&w, 9, off);
    pqb_end(&w);
    pqb_end(&w);
    pqb_i64(&w, 2, nbytes);
    pqb_i64(&w, 3, 5);
    pqb_end(&w);
    pqb_end(&w);
    pqb_le32(&w, (uint32_t)(w.n - start));
    pqb_bytes(&w, "PAR1", 4);
    CHECK(pqb_write_file(&w, path));
    pqb_free(&w);
}

/* TIME(MILLIS) (read as int64 milliseconds) as time32[ms]: the file's int32 values. */
static void test_time32(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s.time.parquet", ab_rg_path);
    write_time_ms(path);
    pqt_table *t = ab_open(path, NULL, NULL);
    CHECK_EQ_I64(pqt_table_nrows(t), 5);
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 2, bs), 0);
    CHECK(!strcmp(ab_format(bs, "t"), "ttm"));
    for (int64_t r = 0; r < 5; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        CHECK(ab_locate(bs, "t", r, &cs, &a, &j));
        CHECK(!(cs->flags & ARROW_FLAG_NULLABLE));
        CHECK_EQ_I64(((const int32_t *)a->buffers[1])[j], time_ms[r]);
    }
    ab_compare_scalar(t, bs, "t");
    ab_release(bs);
    free(bs);
    pqt_table_close(t);
    unlink(path);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

int main(void)
{
    ab_write_rg(ab_rg_path, sizeof ab_rg_path);
    test_map();
    test_map_mixed();
    test_half();
    test_vectors();
    test_memory_table();
    test_nested_struct();
    test_time32();
    unlink(ab_rg_path);
    return pqt_test_done("test_arrow_export_shapes");
}
