/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export.c - a table as Arrow (pqt_arrow.h): every batch of every stream passes
 * the full-depth validator (arrow_check.c), every value equals what the table's own getters
 * give on a second, untouched table (and, where the file's meaning matters, hand-computed
 * values: decimals' unscaled integers, UUID bytes, halffloat bits, timezones), at batch_rows
 * 0 / 1 / 7 / more than the rows, with a filter and a sort at open, columns resident or not,
 * and after pqt_table_close before the release (the zero copy survives the table). The leak
 * count of private blocks returns to 0 after every release.
 *
 * Truth: tests/data/write_types.parquet (DuckDB, tests/data/make_write_types.mjs: row i's
 * DECIMAL(p,s) unscaled value is (i - 20) * 101 * 10^max(0, p - 5), -(10^p - 1) at i = 0 and
 * 10^p - 1 at i = 1, every column NULL when i % 7 = 3; u is all zeros at i = 0, all 0xff at
 * i = 1), rewritten here in row groups of 16 rows; kinds_binary_map.parquet (make_kinds.mjs:
 * m = {a:1, b:2}, NULL, {}, {c:NULL, d:4}); the corpus' float16_nonzeros_and_nans.parquet
 * (NULL, 1, -2, NaN, 0, -1, -0, 2); vec_direct.parquet (vectors and lists).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/arrow_int.h"
#include "arrow_check.h"
#include "format/thrift.h"
#include "pqbuild.h"
#include "pqt_arrow.h"
#include "testutil.h"

#define TYPES "tests/data/write_types.parquet"
#define MAPS "tests/data/kinds_binary_map.parquet"
#define HALF "tests/data/parquet-testing/data/float16_nonzeros_and_nans.parquet"
#define VECS "tests/data/vec_direct.parquet"
#define MAXB 5100

static char rg_path[256];

typedef struct batches {
    struct ArrowSchema schema;
    struct ArrowArray b[MAXB];
    int64_t first[MAXB + 1]; /* table row of each batch's first row */
    int n;
} batches;

static int bit(const void *bm, int64_t i)
{
    return !bm || (((const uint8_t *)bm)[i >> 3] >> (i & 7)) & 1;
}

static pqt_table *open_with(const char *path, const char *filter, const char *sort)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    CHECK_OK(pqt_opts_new(&o));
    if (filter) CHECK_OK(pqt_opts_set_str(o, PQT_OPT_FILTER, filter));
    if (sort) CHECK_OK(pqt_opts_set_sort(o, sort));
    CHECK_OK(pqt_table_open(path, o, &t));
    pqt_opts_free(o);
    return t;
}

/* Pull every batch of t's stream into *bs, validating each; 0 on success. */
static int pull(pqt_table *t, const char *const *cols, int ncols, int64_t batch_rows, batches *bs)
{
    struct ArrowArrayStream s;
    memset(bs, 0, sizeof *bs);
    if (pqt_table_export_arrow_stream(t, cols, ncols, batch_rows, &s) != PQT_OK) {
        fprintf(stderr, "export: %s\n", pqt_errmsg());
        return 1;
    }
    int r = s.get_schema(&s, &bs->schema);
    CHECK_EQ_I64(r, 0);
    int64_t rows = 0;
    while (r == 0 && bs->n < MAXB) {
        struct ArrowArray a;
        r = s.get_next(&s, &a);
        if (r != 0) {
            fprintf(stderr, "get_next: %d %s\n", r, s.get_last_error(&s));
            break;
        }
        if (!a.release) break;
        char why[512];
        if (arrow_check_array(&bs->schema, &a, why, sizeof why)) {
            fprintf(stderr, "batch %d invalid: %s\n", bs->n, why);
            pqt_test_failures++;
        }
        CHECK(a.length > 0);
        bs->first[bs->n] = rows;
        rows += a.length;
        bs->b[bs->n++] = a; /* a move */
    }
    bs->first[bs->n] = rows;
    s.release(&s);
    CHECK(s.release == NULL);
    CHECK_EQ_I64(rows, pqt_table_nrows(t));
    return r;
}

static void release_all(batches *bs)
{
    for (int i = 0; i < bs->n; i++) {
        bs->b[i].release(&bs->b[i]);
        CHECK(bs->b[i].release == NULL);
    }
    if (bs->schema.release) bs->schema.release(&bs->schema);
    bs->n = 0;
}

/* The child of struct (s, a) named name, descending "x.y" into struct x when no child has the
 * whole name. */
static int child(const struct ArrowSchema *s, const struct ArrowArray *a, const char *name,
                 const struct ArrowSchema **cs, const struct ArrowArray **ca)
{
    for (int64_t i = 0; i < s->n_children; i++)
        if (!strcmp(s->children[i]->name, name)) {
            *cs = s->children[i];
            *ca = a ? a->children[i] : NULL;
            return 1;
        }
    const char *dot = strchr(name, '.');
    if (!dot) return 0;
    for (int64_t i = 0; i < s->n_children; i++)
        if (strlen(s->children[i]->name) == (size_t)(dot - name) &&
            !strncmp(s->children[i]->name, name, (size_t)(dot - name)) &&
            !strcmp(s->children[i]->format, "+s"))
            return child(s->children[i], a ? a->children[i] : NULL, dot + 1, cs, ca);
    return 0;
}

/* Row r of the table: the leaf array of column name and its index (offset applied). */
static int locate(const batches *bs, const char *name, int64_t r, const struct ArrowSchema **cs,
                  const struct ArrowArray **ca, int64_t *j)
{
    int k = 0;
    while (k < bs->n && bs->first[k + 1] <= r)
        k++;
    if (k >= bs->n || !child(&bs->schema, &bs->b[k], name, cs, ca)) return 0;
    *j = (*ca)->offset + r - bs->first[k];
    return 1;
}

static const char *format_of(const batches *bs, const char *name)
{
    const struct ArrowSchema *cs;
    const struct ArrowArray *ca;
    return child(&bs->schema, NULL, name, &cs, &ca) ? cs->format : "(absent)";
}

/* Every row of scalar column name in bs equals truth's getters. */
static void compare_scalar(pqt_table *truth, const batches *bs, const char *name)
{
    int kind = 0;
    CHECK_OK(pqt_table_kind(truth, name, &kind));
    int64_t n = pqt_table_nrows(truth);
    int bad = 0;
    for (int64_t r = 0; r < n && bad < 3; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        if (!locate(bs, name, r, &cs, &a, &j)) {
            fprintf(stderr, "%s: row %lld not found\n", name, (long long)r);
            bad++;
            continue;
        }
        int valid = bit(a->buffers[0], j), is_null = -1;
        const char *f = cs->format;
        int ok = 1;
        if (!strcmp(f, "U") || !strcmp(f, "Z")) {
            const char *p;
            int64_t len;
            CHECK_OK(pqt_table_get_string(truth, name, r + 1, 0, &p, &len, &is_null));
            const int64_t *o = a->buffers[1];
            if (valid && !is_null)
                ok = o[j + 1] - o[j] == len &&
                     !memcmp((const char *)a->buffers[2] + o[j], p, (size_t)len);
        } else {
            uint8_t want[16] = {0};
            CHECK_OK(pqt_table_get_value(truth, name, r + 1, 0, kind, want, sizeof want, &is_null));
            if (valid && !is_null) {
                if (!strcmp(f, "b"))
                    ok = bit(a->buffers[1], j) == want[0];
                else if (!strcmp(f, "ttm"))
                    ok = ((const int32_t *)a->buffers[1])[j] == *(int64_t *)want;
                else if (!strcmp(f, "i") || !strcmp(f, "f") || !strcmp(f, "tdD"))
                    ok = !memcmp((const char *)a->buffers[1] + 4 * j, want, 4);
                else if (!strcmp(f, "e"))
                    ok = 0; /* checked by test_half */
                else
                    ok = !memcmp((const char *)a->buffers[1] + 8 * j, want, 8);
            }
        }
        if (valid == is_null || !ok) {
            fprintf(stderr, "%s row %lld: arrow valid %d, table null %d, values equal %d\n", name,
                    (long long)r, valid, is_null, ok);
            bad++;
            pqt_test_failures++;
        }
    }
}

/* The file's row number i of table row r (column "i" of the export). */
static int64_t row_i(const batches *bs, int64_t r, int *null)
{
    const struct ArrowSchema *cs;
    const struct ArrowArray *a;
    int64_t j;
    if (!locate(bs, "i", r, &cs, &a, &j)) return -1;
    *null = !bit(a->buffers[0], j);
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

static void compare_decimal(const batches *bs, const char *name, int p, int s, int64_t nrows)
{
    char fmt[32];
    snprintf(fmt, sizeof fmt, "d:%d,%d", p, s);
    CHECK(!strcmp(format_of(bs, name), fmt));
    for (int64_t r = 0; r < nrows; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        int inull = 0;
        int64_t i = row_i(bs, r, &inull);
        if (!locate(bs, name, r, &cs, &a, &j) || inull) continue;
        int valid = bit(a->buffers[0], j);
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
static void compare_uuid(pqt_table *truth, const batches *bs, int64_t nrows)
{
    CHECK(!strcmp(format_of(bs, "u"), "w:16"));
    const struct ArrowSchema *cs;
    const struct ArrowArray *ca;
    CHECK(child(&bs->schema, NULL, "u", &cs, &ca) && cs->metadata &&
          memmem(cs->metadata, 64, "arrow.uuid", 10));
    for (int64_t r = 0; r < nrows; r++) {
        const struct ArrowArray *a;
        int64_t j, len;
        int inull = 0, is_null = 0;
        int64_t i = row_i(bs, r, &inull);
        if (!locate(bs, "u", r, &cs, &a, &j)) continue;
        const char *p;
        CHECK_OK(pqt_table_get_string(truth, "u", r + 1, 0, &p, &len, &is_null));
        CHECK_EQ_I64(bit(a->buffers[0], j), !is_null);
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

/* List or vector column name against pqt_table_get_list_alloc. */
static void compare_list(pqt_table *truth, const batches *bs, const char *name, int kind)
{
    int64_t *off = NULL;
    void *data = NULL;
    uint8_t *valid = NULL, *rvalid = NULL;
    CHECK_OK(pqt_table_get_list_alloc(truth, name, kind, &off, &data, &valid, &rvalid, NULL));
    size_t w = kind == PQT_INT32 || kind == PQT_FLOAT32 ? 4 : kind == PQT_BOOL ? 1 : 8;
    int64_t n = pqt_table_nrows(truth);
    int bad = 0;
    for (int64_t r = 0; r < n && off && bad < 3; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        if (!locate(bs, name, r, &cs, &a, &j)) {
            bad++, pqt_test_failures++;
            continue;
        }
        int64_t e0, e1;
        if (!strncmp(cs->format, "+w:", 3)) {
            int64_t width = atoi(cs->format + 3);
            e0 = j * width, e1 = e0 + width;
        } else {
            CHECK(!strcmp(cs->format, "+L"));
            e0 = ((const int64_t *)a->buffers[1])[j], e1 = ((const int64_t *)a->buffers[1])[j + 1];
            if (bit(a->buffers[0], j) != bit(rvalid, r)) bad++, pqt_test_failures++;
        }
        const struct ArrowArray *c = a->children[0];
        if (e1 - e0 != off[r + 1] - off[r]) {
            fprintf(stderr, "%s row %lld: %lld elements, table %lld\n", name, (long long)r,
                    (long long)(e1 - e0), (long long)(off[r + 1] - off[r]));
            bad++, pqt_test_failures++;
            continue;
        }
        for (int64_t e = 0; e < e1 - e0; e++) {
            int64_t ce = c->offset + e0 + e, te = off[r] + e;
            int cv = bit(c->buffers[0], ce), tv = bit(valid, te);
            int same = cv == tv;
            if (same && cv) {
                if (kind == PQT_BOOL)
                    same = bit(c->buffers[1], ce) == ((uint8_t *)data)[te];
                else
                    same = !memcmp((const char *)c->buffers[1] + w * ce, (char *)data + w * te, w);
            }
            if (!same) {
                fprintf(stderr, "%s row %lld element %lld differs\n", name, (long long)r,
                        (long long)e);
                bad++, pqt_test_failures++;
                break;
            }
        }
    }
    pqt_free(off), pqt_free(data), pqt_free(valid), pqt_free(rvalid);
}

static const char *scalars[] = {"i",     "i8",   "i16",  "u8",   "u16",  "u32",   "u64",   "js",
                                "en",    "dt",   "t_us", "t_ns", "ts_s", "ts_ms", "ts_us", "ts_ns",
                                "ts_tz", "st.a", "st.b", "f32",  "f64",  "b",     "s"};

/* Everything of the write_types table t (after filter/sort at open) against truth. */
static void check_types(pqt_table *t, pqt_table *truth, int64_t batch_rows, int64_t want_batches)
{
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, batch_rows, bs), 0);
    if (want_batches >= 0) CHECK_EQ_I64(bs->n, want_batches);
    for (size_t k = 0; k < sizeof scalars / sizeof *scalars; k++)
        compare_scalar(truth, bs, scalars[k]);
    int64_t n = pqt_table_nrows(truth);
    compare_decimal(bs, "d4_2", 4, 2, n);
    compare_decimal(bs, "d9_3", 9, 3, n);
    compare_decimal(bs, "d18_4", 18, 4, n);
    compare_decimal(bs, "d38_10", 38, 10, n);
    compare_decimal(bs, "d25_0", 25, 0, n);
    compare_uuid(truth, bs, n);
    compare_list(truth, bs, "li", PQT_INT32);
    CHECK(!strcmp(format_of(bs, "ts_tz"), "tsu:UTC"));
    CHECK(!strcmp(format_of(bs, "ts_us"), "tsu:"));
    CHECK(!strcmp(format_of(bs, "ts_ms"), "tsm:"));
    CHECK(!strcmp(format_of(bs, "ts_ns"), "tsn:"));
    CHECK(!strcmp(format_of(bs, "t_us"), "ttu"));
    CHECK(!strcmp(format_of(bs, "t_ns"), "ttn"));
    CHECK(!strcmp(format_of(bs, "dt"), "tdD"));
    CHECK(!strcmp(format_of(bs, "u64"), "L"));
    CHECK(!strcmp(format_of(bs, "b"), "b"));
    CHECK(!strcmp(format_of(bs, "s"), "U"));
    CHECK(!strcmp(format_of(bs, "st"), "+s"));
    CHECK(!strcmp(format_of(bs, "li"), "+L"));
    release_all(bs);
    free(bs);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* The rewritten file in row groups of 16 rows: batches 16, 16, 8 at batch_rows 0. */
static void test_batch_sizes(void)
{
    int64_t sizes[] = {0, 1, 7, 1000};
    int64_t want[] = {3, 40, 6, 1};
    pqt_table *truth = open_with(rg_path, NULL, NULL);
    for (int k = 0; k < 4; k++) {
        pqt_table *t = open_with(rg_path, NULL, NULL);
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
                pqt_table *truth = open_with(rg_path, filters[k], sorts[k]);
                pqt_table *t = open_with(rg_path, filters[k], sorts[k]);
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

/* A resident column is handed over in place; batches outlive pqt_table_close. */
static void test_zero_copy(void)
{
    pqt_table *t = open_with(rg_path, NULL, NULL);
    pqt_table *truth = open_with(rg_path, NULL, NULL);
    pqt_column_view vi = {.struct_size = sizeof vi}, vs = {.struct_size = sizeof vs};
    CHECK_OK(pqt_table_column(t, "i", 0, &vi));
    CHECK_OK(pqt_table_column(t, "s", 0, &vs));
    batches *bs = calloc(1, sizeof *bs);
    const char *cols[] = {"i", "s", "d18_4", "u"};
    CHECK_EQ_I64(pull(t, cols, 4, 7, bs), 0);
    CHECK_EQ_I64(bs->n, 6);
    const struct ArrowArray *ai = bs->b[2].children[0], *as = bs->b[2].children[1];
    CHECK(ai->buffers[1] == vi.data);
    CHECK_EQ_I64(ai->offset, 14);
    CHECK(as->buffers[1] == vs.str_offsets && as->buffers[2] == vs.str_bytes);
    CHECK_EQ_I64(as->offset, 14);
    /* the stream and table gone, the batches still read right */
    pqt_table_close(t);
    char why[512];
    for (int k = 0; k < bs->n; k++)
        if (arrow_check_array(&bs->schema, &bs->b[k], why, sizeof why)) {
            fprintf(stderr, "after close: %s\n", why);
            pqt_test_failures++;
        }
    compare_scalar(truth, bs, "i");
    compare_scalar(truth, bs, "s");
    compare_decimal(bs, "d18_4", 18, 4, 40);
    compare_uuid(truth, bs, 40);
    /* children moved out of a batch and released alone, parent after */
    struct ArrowArray moved = *bs->b[0].children[1];
    bs->b[0].children[1]->release = NULL;
    moved.release(&moved);
    CHECK(moved.release == NULL);
    release_all(bs);
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
    pqt_table *t = open_with(rg_path, NULL, NULL);
    pqt_table *truth = open_with(rg_path, NULL, NULL);
    const char *names[] = {"i", "d38_10", "li", "st.b", "b"};
    for (int k = 0; k < 5; k++) {
        batches *bs = calloc(1, sizeof *bs);
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
        CHECK_OK(pqt_ax_struct(40, kids, 1, &bs->b[0]));
        bs->n = 1, bs->first[1] = 40;
        if (k == 0 || k == 3 || k == 4) compare_scalar(truth, bs, names[k]);
        if (k == 2) compare_list(truth, bs, "li", PQT_INT32);
        if (k == 1) {
            /* no "i" here: rows are the file's (row r is i = r) */
            for (int64_t r = 0; r < 40; r++) {
                const struct ArrowArray *c = bs->b[0].children[0];
                if (r % 7 == 3) {
                    CHECK(!bit(c->buffers[0], c->offset + r));
                    continue;
                }
                __int128 got;
                memcpy(&got, (const char *)c->buffers[1] + 16 * (c->offset + r), 16);
                CHECK(got == unscaled(38, r));
            }
        }
        release_all(bs);
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

/* Maps as map<key, value>: hand-known rows. */
static void test_map(void)
{
    pqt_table *t = open_with(MAPS, NULL, NULL);
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 0, bs), 0);
    const struct ArrowSchema *ms;
    const struct ArrowArray *m;
    CHECK(child(&bs->schema, &bs->b[0], "m", &ms, &m));
    if (m && !strcmp(ms->format, "+m")) {
        const int32_t *o = m->buffers[1];
        const struct ArrowArray *keys = m->children[0]->children[0];
        const struct ArrowArray *vals = m->children[0]->children[1];
        CHECK_EQ_I64(m->offset, 0);
        CHECK_EQ_I64(o[1] - o[0], 2);
        CHECK(!bit(m->buffers[0], 1));
        CHECK_EQ_I64(o[3] - o[2], 0);
        CHECK(bit(m->buffers[0], 2));
        CHECK_EQ_I64(o[4] - o[3], 2);
        const int64_t *ko = keys->buffers[1];
        const char *kb = keys->buffers[2];
        CHECK(ko[keys->offset + 1] - ko[keys->offset] == 1 && kb[ko[keys->offset]] == 'a');
        const int32_t *v = vals->buffers[1];
        CHECK_EQ_I64(v[vals->offset + 0], 1);
        CHECK_EQ_I64(v[vals->offset + 1], 2);
        CHECK(!bit(vals->buffers[0], vals->offset + o[3])); /* c: NULL */
        CHECK_EQ_I64(v[vals->offset + o[3] + 1], 4);        /* d: 4 */
        CHECK(kb[ko[keys->offset + o[3] + 1]] == 'd');
    } else {
        fprintf(stderr, "m is %s\n", ms ? ms->format : "absent");
        pqt_test_failures++;
    }
    CHECK(!strcmp(format_of(bs, "b"), "Z"));
    release_all(bs);
    /* batches of 1 and 3 rows: entry counts and nulls per row, keys and values of row 3 */
    static const int entries[4] = {2, 0, 0, 2};
    for (int64_t br = 1; br <= 3; br += 2) {
        CHECK_EQ_I64(pull(t, NULL, 0, br, bs), 0);
        for (int64_t r = 0; r < 4; r++) {
            const struct ArrowSchema *cs;
            const struct ArrowArray *a;
            int64_t j;
            if (!locate(bs, "m", r, &cs, &a, &j)) {
                pqt_test_failures++;
                continue;
            }
            const int32_t *o = a->buffers[1];
            CHECK_EQ_I64(o[j + 1] - o[j], entries[r]);
            CHECK_EQ_I64(bit(a->buffers[0], j), r != 1);
            if (r != 3) continue;
            const struct ArrowArray *keys = a->children[0]->children[0];
            const struct ArrowArray *vals = a->children[0]->children[1];
            const int64_t *ko = keys->buffers[1];
            CHECK(((const char *)keys->buffers[2])[ko[keys->offset + o[j]]] == 'c');
            CHECK(!bit(vals->buffers[0], vals->offset + o[j]));
            CHECK_EQ_I64(((const int32_t *)vals->buffers[1])[vals->offset + o[j] + 1], 4);
        }
        CHECK(!strcmp(format_of(bs, "n"), "+m"));
        release_all(bs);
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
    snprintf(copy, sizeof copy, "%s.map2.parquet", rg_path);
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
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 3, bs), 0);
    static const int entries[4] = {2, 0, 0, 2};
    for (int64_t r = 0; r < 8; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        if (!locate(bs, "m", r, &cs, &a, &j) || strcmp(cs->format, "+m")) {
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
        CHECK(!bit(vals->buffers[0], vals->offset + o[j]));
        CHECK_EQ_I64(((const int32_t *)vals->buffers[1])[vals->offset + o[j] + 1], 4);
    }
    release_all(bs);
    free(bs);
    pqt_table_close(t);
    unlink(copy);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* FLOAT16 back to its exact bits. */
static void test_half(void)
{
    pqt_table *t = open_with(HALF, NULL, NULL);
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 3, bs), 0);
    static const uint16_t want[8] = {0, 0x3C00, 0xC000, 0x7E00, 0x0000, 0xBC00, 0x8000, 0x4000};
    CHECK(!strcmp(format_of(bs, "x"), "e"));
    for (int64_t r = 0; r < 8 && pqt_table_nrows(t) == 8; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        CHECK(locate(bs, "x", r, &cs, &a, &j));
        CHECK_EQ_I64(bit(a->buffers[0], j), r != 0);
        uint16_t h = ((const uint16_t *)a->buffers[1])[j];
        if (r == 3)
            CHECK((h & 0x7C00) == 0x7C00 && (h & 0x3FF)); /* a NaN */
        else if (r)
            CHECK_EQ_I64(h, want[r]);
    }
    release_all(bs);
    free(bs);
    pqt_table_close(t);
}

/* Vectors as fixed_size_list, read by row group and resident. */
static void test_vectors(void)
{
    const char *names[] = {"vf", "vd", "vi", "vl", "vb", "ln"};
    int kinds[] = {PQT_FLOAT32, PQT_FLOAT64, PQT_INT32, PQT_INT64, PQT_BOOL, PQT_FLOAT32};
    for (int64_t br = 0; br <= 700; br += 700) {
        pqt_table *t = open_with(VECS, NULL, NULL);
        pqt_table *truth = open_with(VECS, NULL, NULL);
        batches *bs = calloc(1, sizeof *bs);
        CHECK_EQ_I64(pull(t, names, 6, br, bs), 0);
        CHECK(!strncmp(format_of(bs, "vf"), "+w:", 3));
        for (int k = 0; k < 6; k++)
            compare_list(truth, bs, names[k], kinds[k]);
        release_all(bs);
        free(bs);
        pqt_table_close(t);
        pqt_table_close(truth);
    }
}

/* The value of key in Arrow field metadata, or NULL (into buf). */
static const char *meta_get(const char *m, const char *key, char *buf, size_t cap)
{
    if (!m) return NULL;
    int32_t n, l;
    memcpy(&n, m, 4), m += 4;
    for (int i = 0; i < n; i++) {
        memcpy(&l, m, 4), m += 4;
        int hit = (size_t)l == strlen(key) && !memcmp(m, key, (size_t)l);
        m += l;
        memcpy(&l, m, 4), m += 4;
        if (hit && (size_t)l < cap) {
            memcpy(buf, m, (size_t)l);
            buf[l] = 0;
            return buf;
        }
        m += l;
    }
    return NULL;
}

/* Units and a MAML's info and ucd travel as field metadata. */
static void test_metadata(void)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    CHECK_OK(pqt_opts_new(&o));
    CHECK_OK(pqt_opts_set_maml(o, "tests/data/maml/alltypes_units.maml"));
    CHECK_OK(pqt_table_open("tests/data/parquet-testing/data/alltypes_plain.parquet", o, &t));
    pqt_opts_free(o);
    struct ArrowSchema s;
    CHECK_OK(pqt_table_export_arrow_schema(t, NULL, 0, &s));
    const struct ArrowSchema *d = NULL, *id = NULL;
    const struct ArrowArray *unused;
    CHECK(child(&s, NULL, "double_col", &d, &unused) && child(&s, NULL, "id", &id, &unused));
    char buf[128];
    const char *v;
    if (d) {
        CHECK((v = meta_get(d->metadata, "unit", buf, sizeof buf)) && !strcmp(v, "m/s"));
        CHECK((v = meta_get(d->metadata, "description", buf, sizeof buf)) && !strcmp(v, "a speed"));
        CHECK((v = meta_get(d->metadata, "ucd", buf, sizeof buf)) &&
              !strcmp(v, "phys.veloc;meta.main"));
    }
    if (id) {
        CHECK((v = meta_get(id->metadata, "unit", buf, sizeof buf)) && !strcmp(v, "Count"));
        CHECK(!meta_get(id->metadata, "description", buf, sizeof buf));
    }
    s.release(&s);
    /* the whole table through the stream, validated */
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 3, bs), 0);
    pqt_table *truth = NULL;
    CHECK_OK(
        pqt_table_open("tests/data/parquet-testing/data/alltypes_plain.parquet", NULL, &truth));
    compare_scalar(truth, bs, "id");
    compare_scalar(truth, bs, "double_col");
    compare_scalar(truth, bs, "bool_col");
    release_all(bs);
    free(bs);
    pqt_table_close(truth);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* A table made in memory: every column resident, no file, batches of 65,536 rows. */
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
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 0, bs), 0);
    CHECK_EQ_I64(bs->n, 2);
    CHECK_EQ_I64(bs->b[0].length, 65536);
    for (int64_t r = 0; r < N; r += 997) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        CHECK(locate(bs, "x", r, &cs, &a, &j));
        CHECK_EQ_I64(bit(a->buffers[0], j), r % 5 != 0);
        if (r % 5) CHECK_EQ_I64(((const int64_t *)a->buffers[1])[j], r * 3 - 7);
    }
    int64_t nulls1 = 0;
    for (int64_t i = 65536; i < N; i++)
        nulls1 += i % 5 == 0;
    CHECK_EQ_I64(bs->b[1].children[0]->null_count, nulls1);
    /* the column dropped and the table closed: the batches still hold the values */
    CHECK_OK(pqt_table_drop_column(t, "x"));
    pqt_table_close(t);
    const struct ArrowArray *a = bs->b[1].children[0];
    CHECK_EQ_I64(((const int64_t *)a->buffers[1])[a->offset + 1], (65536 + 1) * 3 - 7);
    release_all(bs);
    free(bs);
    free(x);
    free(valid);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* Struct leaves inside nested groups: one struct field per group, validated. */
static void test_nested_struct(void)
{
    pqt_table *t = open_with("tests/data/struct_nulls.parquet", NULL, NULL);
    pqt_table *truth = open_with("tests/data/struct_nulls.parquet", NULL, NULL);
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 4, bs), 0);
    CHECK(!strcmp(format_of(bs, "s"), "+s"));
    int nc = pqt_table_ncols(truth);
    for (int c = 0; c < nc; c++) {
        const char *name = pqt_table_column_name(truth, c);
        int kind = 0;
        CHECK_OK(pqt_table_kind(truth, name, &kind));
        if (kind & (PQT_LIST | PQT_VECTOR))
            compare_list(truth, bs, name, PQT_KIND_ELEMENT(kind));
        else
            compare_scalar(truth, bs, name);
    }
    release_all(bs);
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

/* A table sorted in memory detaches: its resident columns export (one batch of 65,536 rows
 * at most), its unread ones are no longer readable and are left out; named, they fail. */
static void test_detached(void)
{
    pqt_table *t = open_with(rg_path, NULL, NULL);
    pqt_table *truth = open_with(rg_path, NULL, "-i");
    pqt_column_view v = {.struct_size = sizeof v};
    CHECK_OK(pqt_table_column(t, "s", 0, &v));
    CHECK_OK(pqt_table_sort_by(t, "-i", NULL));
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 0, bs), 0);
    CHECK_EQ_I64(bs->n, 1);
    CHECK_EQ_I64(bs->schema.n_children, 2); /* i (the key, read by the sort) and s */
    compare_scalar(truth, bs, "i");
    compare_scalar(truth, bs, "s");
    release_all(bs);
    free(bs);
    struct ArrowArrayStream s;
    const char *named[] = {"f64"};
    CHECK(pqt_table_export_arrow_stream(t, named, 1, 0, &s) != PQT_OK);
    CHECK(strstr(pqt_errmsg(), "f64") != NULL);
    pqt_table_close(t);
    pqt_table_close(truth);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* A read failing while the stream is pulled: EIO and the pqt message; a stream released
 * unpulled leaks nothing. */
static void test_pull_failure(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s.bad", rg_path);
    size_t n = 0;
    char *bytes = pqt_test_read_file(rg_path, &n);
    FILE *f = fopen(path, "wb");
    CHECK(bytes && f && fwrite(bytes, 1, n, f) == n);
    fclose(f);
    pqt_table *t = open_with(path, NULL, NULL);
    /* the pages (not the footer) overwritten after the open */
    memset(bytes + 4, 0xEE, n / 2);
    f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, n, f) == n);
    fclose(f);
    struct ArrowArrayStream s;
    CHECK_OK(pqt_table_export_arrow_stream(t, NULL, 0, 0, &s));
    struct ArrowArray a;
    int r = s.get_next(&s, &a);
    CHECK(r == EIO);
    const char *msg = s.get_last_error(&s);
    CHECK(msg && strstr(msg, "column '") && strstr(msg, "row group 1"));
    s.release(&s);
    CHECK_OK(pqt_table_export_arrow_stream(t, NULL, 0, 0, &s));
    s.release(&s);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
    pqt_table_close(t);
    unlink(path);
    free(bytes);
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
    snprintf(path, sizeof path, "%s.time.parquet", rg_path);
    write_time_ms(path);
    pqt_table *t = open_with(path, NULL, NULL);
    CHECK_EQ_I64(pqt_table_nrows(t), 5);
    batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(pull(t, NULL, 0, 2, bs), 0);
    CHECK(!strcmp(format_of(bs, "t"), "ttm"));
    for (int64_t r = 0; r < 5; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        CHECK(locate(bs, "t", r, &cs, &a, &j));
        CHECK(!(cs->flags & ARROW_FLAG_NULLABLE));
        CHECK_EQ_I64(((const int32_t *)a->buffers[1])[j], time_ms[r]);
    }
    compare_scalar(t, bs, "t");
    release_all(bs);
    free(bs);
    pqt_table_close(t);
    unlink(path);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

/* Field flags follow the file: a required column is not nullable until the caller writes a
 * null into it. */
static void test_flags(void)
{
    pqt_table *t =
        open_with("tests/data/parquet-testing/data/nonnullable.impala.parquet", NULL, NULL);
    struct ArrowSchema s;
    struct ArrowArray a;
    char why[256];
    CHECK_OK(pqt_table_export_arrow_array(t, "ID", &s, &a));
    CHECK(!(s.flags & ARROW_FLAG_NULLABLE));
    CHECK_EQ_I64(arrow_check_array(&s, &a, why, sizeof why), 0);
    a.release(&a);
    s.release(&s);
    CHECK_OK(pqt_table_set_null(t, "ID", 1, 0));
    CHECK_OK(pqt_table_export_arrow_array(t, "ID", &s, &a));
    CHECK(s.flags & ARROW_FLAG_NULLABLE);
    CHECK_EQ_I64(a.null_count, 1);
    CHECK_EQ_I64(arrow_check_array(&s, &a, why, sizeof why), 0);
    a.release(&a);
    s.release(&s);
    pqt_table_close(t);
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
}

static void test_errors(void)
{
    pqt_table *t = open_with(rg_path, NULL, NULL);
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
    /* write_types in row groups of 16 rows, a temporary copy */
    snprintf(rg_path, sizeof rg_path, "/tmp/pqt_arrow_rg_%d.parquet", (int)getpid());
    pqt_table *src = open_with(TYPES, NULL, NULL);
    pqt_write_opts *wo = NULL;
    CHECK_OK(pqt_write_opts_new(&wo));
    CHECK_OK(pqt_write_opts_set_int(wo, PQT_WOPT_ROW_GROUP_ROWS, 16));
    CHECK_OK(pqt_write_table(src, rg_path, wo));
    pqt_write_opts_free(wo);
    pqt_table_close(src);

    test_batch_sizes();
    test_filter_sort();
    test_zero_copy();
    test_array_schema();
    test_map();
    test_map_mixed();
    test_half();
    test_vectors();
    test_metadata();
    test_memory_table();
    test_nested_struct();
    test_detached();
    test_pull_failure();
    test_flags();
    test_time32();
    test_errors();
    unlink(rg_path);
    return pqt_test_done("test_arrow_export");
}
