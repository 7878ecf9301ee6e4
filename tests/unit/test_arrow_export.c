/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export.c - a table as Arrow (pqt_arrow.h), every kind: every batch of every
 * stream passes the full-depth validator (arrow_check.c), every value equals what the
 * table's own getters give on a second, untouched table (and, where the file's meaning
 * matters, hand-computed values: decimals' unscaled integers, UUID bytes, timezones), at
 * batch_rows 0 / 1 / 7 / more than the rows, with a filter and a sort at open, columns
 * resident or not, after pqt_table_close before the release (the zero copy survives the
 * table: a batch's data pointer is the table's view pointer, at an offset); one column and
 * the schema alone; a table detached by an in-memory sort; the errors that leave *out
 * untouched. The leak count of private blocks returns to 0 after every release.
 * Truth: tests/data/write_types.parquet (DuckDB, tests/data/make_write_types.mjs: row i's
 * DECIMAL(p,s) unscaled value is (i - 20) * 101 * 10^max(0, p - 5), -(10^p - 1) at i = 0 and
 * 10^p - 1 at i = 1, every column NULL when i % 7 = 3; u is all zeros at i = 0, all 0xff at
 * i = 1), rewritten here in row groups of 16 rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/arrow_int.h"
#include "arrow_batches.h"
#include "arrow_check.h"
#include "pqt_arrow.h"
#include "testutil.h"

static char ab_rg_path[256];

/* The file's row number i of table row r (column "i" of the export). */
static int64_t row_i(const ab_batches *bs, int64_t r, int *null)
{
    const struct ArrowSchema *cs;
    const struct ArrowArray *a;
    int64_t j;
    if (!ab_locate(bs, "i", r, &cs, &a, &j)) return -1;
    *null = !ab_bit(a->buffers[0], j);
    return ((const int64_t *)a->buffers[1])[j];
}

/* DECIMAL(p, s) unscaled of row i, make_write_types.mjs's formula. */
static __int128 unscaled(int p, int64_t i)
{
    __int128 top = 1;
    for (int k = 0; k < p; k++)
        top *= 10;
    top -= 1;
    if (i == 0) return -top;
    if (i == 1) return top;
    __int128 v = (__int128)((i - 20) * 101);
    for (int k = 0; k < p - 5; k++)
        v *= 10;
    return v;
}

static void compare_decimal(const ab_batches *bs, const char *name, int p, int s, int64_t nrows)
{
    char fmt[32];
    snprintf(fmt, sizeof fmt, "d:%d,%d", p, s);
    CHECK(!strcmp(ab_format(bs, name), fmt));
    for (int64_t r = 0; r < nrows; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        int inull = 0;
        int64_t i = row_i(bs, r, &inull);
        if (!ab_locate(bs, name, r, &cs, &a, &j) || inull) continue;
        int valid = ab_bit(a->buffers[0], j);
        CHECK_EQ_I64(valid, i % 7 != 3);
        if (!valid) continue;
        __int128 got;
        memcpy(&got, (const char *)a->buffers[1] + 16 * j, 16);
        if (got != unscaled(p, i)) {
            fprintf(stderr, "%s row %lld (i %lld): unscaled differs\n", name, (long long)r,
                    (long long)i);
            pqt_test_failures++;
            return;
        }
    }
}

static int hexv(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* u: 16 bytes equal to the table's text parsed here; rows 0 and 1 hand-known. */
static void compare_uuid(pqt_table *truth, const ab_batches *bs, int64_t nrows)
{
    CHECK(!strcmp(ab_format(bs, "u"), "w:16"));
    const struct ArrowSchema *cs;
    const struct ArrowArray *ca;
    CHECK(ab_child(&bs->schema, NULL, "u", &cs, &ca) && cs->metadata &&
          memmem(cs->metadata, 64, "arrow.uuid", 10));
    for (int64_t r = 0; r < nrows; r++) {
        const struct ArrowArray *a;
        int64_t j, len;
        int inull = 0, is_null = 0;
        int64_t i = row_i(bs, r, &inull);
        if (!ab_locate(bs, "u", r, &cs, &a, &j)) continue;
        const char *p;
        CHECK_OK(pqt_table_get_string(truth, "u", r + 1, 0, &p, &len, &is_null));
        CHECK_EQ_I64(ab_bit(a->buffers[0], j), !is_null);
        if (is_null) continue;
        const uint8_t *got = (const uint8_t *)a->buffers[1] + 16 * j;
        uint8_t want[16];
        for (int k = 0, c = 0; k < 36; k++) {
            if (p[k] == '-') continue;
            want[c / 2] = (uint8_t)(c % 2 ? want[c / 2] | hexv(p[k]) : hexv(p[k]) << 4);
            c++;
        }
        if (!inull && i <= 1) memset(want, i == 0 ? 0 : 0xff, 16);
        CHECK(!memcmp(got, want, 16));
    }
}

static const char *scalars[] = {"i",     "i8",   "i16",  "u8",   "u16",  "u32",   "u64",   "js",
                                "en",    "dt",   "t_us", "t_ns", "ts_s", "ts_ms", "ts_us", "ts_ns",
                                "ts_tz", "st.a", "st.b", "f32",  "f64",  "b",     "s"};

/* Everything of the write_types table t (after filter/sort at open) against truth. */
static void check_types(pqt_table *t, pqt_table *truth, int64_t batch_rows, int64_t want_batches)
{
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, batch_rows, bs), 0);
    if (want_batches >= 0) CHECK_EQ_I64(bs->n, want_batches);
    for (size_t k = 0; k < sizeof scalars / sizeof *scalars; k++)
        ab_compare_scalar(truth, bs, scalars[k]);
    int64_t n = pqt_table_nrows(truth);
    compare_decimal(bs, "d4_2", 4, 2, n);
    compare_decimal(bs, "d9_3", 9, 3, n);
    compare_decimal(bs, "d18_4", 18, 4, n);
    compare_decimal(bs, "d38_10", 38, 10, n);
    compare_decimal(bs, "d25_0", 25, 0, n);
    compare_uuid(truth, bs, n);
    ab_compare_list(truth, bs, "li", PQT_INT32);
    CHECK(!strcmp(ab_format(bs, "ts_tz"), "tsu:UTC"));
    CHECK(!strcmp(ab_format(bs, "ts_us"), "tsu:"));
    CHECK(!strcmp(ab_format(bs, "ts_ms"), "tsm:"));
    CHECK(!strcmp(ab_format(bs, "ts_ns"), "tsn:"));
    CHECK(!strcmp(ab_format(bs, "t_us"), "ttu"));
    CHECK(!strcmp(ab_format(bs, "t_ns"), "ttn"));
    CHECK(!strcmp(ab_format(bs, "dt"), "tdD"));
    CHECK(!strcmp(ab_format(bs, "u64"), "L"));
    CHECK(!strcmp(ab_format(bs, "b"), "b"));
    CHECK(!strcmp(ab_format(bs, "s"), "U"));
    CHECK(!strcmp(ab_format(bs, "st"), "+s"));
    CHECK(!strcmp(ab_format(bs, "li"), "+L"));
    ab_release(bs);
    free(bs);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* The rewritten file in row groups of 16 rows: ab_batches 16, 16, 8 at batch_rows 0. */
static void test_batch_sizes(void)
{
    int64_t sizes[] = {0, 1, 7, 1000};
    int64_t want[] = {3, 40, 6, 1};
    pqt_table *truth = ab_open(ab_rg_path, NULL, NULL);
    for (int k = 0; k < 4; k++) {
        pqt_table *t = ab_open(ab_rg_path, NULL, NULL);
        check_types(t, truth, sizes[k], want[k]);
        pqt_table_close(t);
    }
    pqt_table_close(truth);
}

/* Filter and sort at open; the same with every column resident first. */
static void test_filter_sort(void)
{
    const char *filters[] = {"i > 5", NULL, "i != 20"};
    const char *sorts[] = {NULL, "-i", "s, -f64"};
    for (int k = 0; k < 3; k++)
        for (int resident = 0; resident < 2; resident++)
            for (int64_t br = 0; br <= 7; br += 7) {
                pqt_table *truth = ab_open(ab_rg_path, filters[k], sorts[k]);
                pqt_table *t = ab_open(ab_rg_path, filters[k], sorts[k]);
                if (resident) {
                    int64_t nc = pqt_table_ncols(t);
                    for (int64_t c = 0; c < nc; c++) {
                        pqt_column_view v = {.struct_size = sizeof v};
                        CHECK_OK(pqt_table_column(t, pqt_table_column_name(t, (int)c), 0, &v));
                    }
                }
                check_types(t, truth, br, -1);
                pqt_table_close(t);
                pqt_table_close(truth);
            }
}

/* A resident column is handed over in place; ab_batches outlive pqt_table_close. */
static void test_zero_copy(void)
{
    pqt_table *t = ab_open(ab_rg_path, NULL, NULL);
    pqt_table *truth = ab_open(ab_rg_path, NULL, NULL);
    pqt_column_view vi = {.struct_size = sizeof vi}, vs = {.struct_size = sizeof vs};
    CHECK_OK(pqt_table_column(t, "i", 0, &vi));
    CHECK_OK(pqt_table_column(t, "s", 0, &vs));
    ab_batches *bs = calloc(1, sizeof *bs);
    const char *cols[] = {"i", "s", "d18_4", "u"};
    CHECK_EQ_I64(ab_pull(t, cols, 4, 7, bs), 0);
    CHECK_EQ_I64(bs->n, 6);
    const struct ArrowArray *ai = bs->b[2].children[0], *as = bs->b[2].children[1];
    CHECK(ai->buffers[1] == vi.data);
    CHECK_EQ_I64(ai->offset, 14);
    CHECK(as->buffers[1] == vs.str_offsets && as->buffers[2] == vs.str_bytes);
    CHECK_EQ_I64(as->offset, 14);
    /* the stream and table gone, the ab_batches still read right */
    pqt_table_close(t);
    char why[512];
    for (int k = 0; k < bs->n; k++)
        if (arrow_check_array(&bs->schema, &bs->b[k], why, sizeof why)) {
            fprintf(stderr, "after close: %s\n", why);
            pqt_test_failures++;
        }
    ab_compare_scalar(truth, bs, "i");
    ab_compare_scalar(truth, bs, "s");
    compare_decimal(bs, "d18_4", 18, 4, 40);
    compare_uuid(truth, bs, 40);
    /* children moved out of a batch and released alone, parent after */
    struct ArrowArray moved = *bs->b[0].children[1];
    bs->b[0].children[1]->release = NULL;
    moved.release(&moved);
    CHECK(moved.release == NULL);
    ab_release(bs);
    free(bs);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
    pqt_table_close(truth);
}

static void noop_schema(struct ArrowSchema *s)
{
    s->release = NULL;
}

/* One column alone, and the schema alone. */
static void test_array_schema(void)
{
    pqt_table *t = ab_open(ab_rg_path, NULL, NULL);
    pqt_table *truth = ab_open(ab_rg_path, NULL, NULL);
    const char *names[] = {"i", "d38_10", "li", "st.b", "b"};
    for (int k = 0; k < 5; k++) {
        ab_batches *bs = calloc(1, sizeof *bs);
        struct ArrowSchema s;
        struct ArrowArray a;
        CHECK_OK(pqt_table_export_arrow_array(t, names[k], &s, &a));
        char why[512];
        if (arrow_check_array(&s, &a, why, sizeof why)) {
            fprintf(stderr, "%s: %s\n", names[k], why);
            pqt_test_failures++;
        }
        CHECK(!strcmp(s.name, names[k]));
        CHECK_EQ_I64(a.length, 40);
        /* wrapped as a one-column batch for the comparisons */
        struct ArrowSchema *sp = &s;
        memset(&bs->schema, 0, sizeof bs->schema);
        bs->schema.format = "+s", bs->schema.name = "";
        bs->schema.n_children = 1, bs->schema.children = &sp;
        bs->schema.release = noop_schema;
        struct ArrowArray kids[1] = {a};
        CHECK_OK(pqt_ax_struct(40, NULL, kids, 1, &bs->b[0]));
        bs->n = 1, bs->first[1] = 40;
        if (k == 0 || k == 3 || k == 4) ab_compare_scalar(truth, bs, names[k]);
        if (k == 2) ab_compare_list(truth, bs, "li", PQT_INT32);
        if (k == 1) {
            /* no "i" here: rows are the file's (row r is i = r) */
            for (int64_t r = 0; r < 40; r++) {
                const struct ArrowArray *c = bs->b[0].children[0];
                if (r % 7 == 3) {
                    CHECK(!ab_bit(c->buffers[0], c->offset + r));
                    continue;
                }
                __int128 got;
                memcpy(&got, (const char *)c->buffers[1] + 16 * (c->offset + r), 16);
                CHECK(got == unscaled(38, r));
            }
        }
        ab_release(bs);
        s.release(&s);
        free(bs);
    }
    struct ArrowSchema s;
    CHECK_OK(pqt_table_export_arrow_schema(t, NULL, 0, &s));
    CHECK_EQ_I64(s.n_children, 29); /* 30 columns, st.a and st.b in one struct */
    CHECK(!strcmp(s.format, "+s"));
    s.release(&s);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
    pqt_table_close(t);
    pqt_table_close(truth);
}

/* A table sorted in memory detaches: its resident columns export (one batch of 65,536 rows
 * at most), its unread ones are no longer readable and are left out; named, they fail. */
static void test_detached(void)
{
    pqt_table *t = ab_open(ab_rg_path, NULL, NULL);
    pqt_table *truth = ab_open(ab_rg_path, NULL, "-i");
    pqt_column_view v = {.struct_size = sizeof v};
    CHECK_OK(pqt_table_column(t, "s", 0, &v));
    CHECK_OK(pqt_table_sort_by(t, "-i", NULL));
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 0, bs), 0);
    CHECK_EQ_I64(bs->n, 1);
    CHECK_EQ_I64(bs->schema.n_children, 2); /* i (the key, read by the sort) and s */
    ab_compare_scalar(truth, bs, "i");
    ab_compare_scalar(truth, bs, "s");
    ab_release(bs);
    free(bs);
    struct ArrowArrayStream s;
    const char *named[] = {"f64"};
    CHECK(pqt_table_export_arrow_stream(t, named, 1, 0, &s) != PQT_OK);
    CHECK(strstr(pqt_errmsg(), "f64") != NULL);
    pqt_table_close(t);
    pqt_table_close(truth);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

static void test_errors(void)
{
    pqt_table *t = ab_open(ab_rg_path, NULL, NULL);
    struct ArrowArrayStream s;
    memset(&s, 0x5a, sizeof s);
    const char *bad[] = {"i", "nope"};
    CHECK_EQ_I64(pqt_table_export_arrow_stream(t, bad, 2, 0, &s), PQT_NOT_FOUND);
    CHECK(strstr(pqt_errmsg(), "nope") != NULL);
    CHECK(s.release == (void *)0x5a5a5a5a5a5a5a5aULL); /* untouched */
    CHECK_EQ_I64(pqt_table_export_arrow_stream(t, NULL, 0, -1, &s), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_export_arrow_stream(NULL, NULL, 0, 0, &s), PQT_MISUSE);
    CHECK_EQ_I64(pqt_table_export_arrow_stream(t, bad, -1, 0, &s), PQT_MISUSE);
    struct ArrowArray a;
    CHECK_EQ_I64(pqt_table_export_arrow_array(t, "nope", NULL, &a), PQT_NOT_FOUND);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
    pqt_table_close(t);
}

int main(void)
{
    ab_write_rg(ab_rg_path, sizeof ab_rg_path);
    test_batch_sizes();
    test_filter_sort();
    test_zero_copy();
    test_array_schema();
    test_detached();
    test_errors();
    unlink(ab_rg_path);
    return pqt_test_done("test_arrow_export");
}
