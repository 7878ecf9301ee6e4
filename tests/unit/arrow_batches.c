/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_batches.c - what the Arrow export tests share (arrow_batches.h).
 */
#include "arrow_batches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow_check.h"
#include "testutil.h"

int ab_bit(const void *bm, int64_t i)
{
    return !bm || (((const uint8_t *)bm)[i >> 3] >> (i & 7)) & 1;
}

pqt_table *ab_open(const char *path, const char *filter, const char *sort)
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
int ab_pull(pqt_table *t, const char *const *cols, int ncols, int64_t batch_rows, ab_batches *bs)
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
    while (r == 0 && bs->n < AB_MAXB) {
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

void ab_release(ab_batches *bs)
{
    for (int i = 0; i < bs->n; i++) {
        bs->b[i].release(&bs->b[i]);
        CHECK(bs->b[i].release == NULL);
    }
    if (bs->schema.release) bs->schema.release(&bs->schema);
    bs->n = 0;
}

/* The ab_child of struct (s, a) named name, descending "x.y" into struct x when no ab_child has the
 * whole name. */
int ab_child(const struct ArrowSchema *s, const struct ArrowArray *a, const char *name,
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
            return ab_child(s->children[i], a ? a->children[i] : NULL, dot + 1, cs, ca);
    return 0;
}

/* Row r of the table: the leaf array of column name and its index (offset applied). */
int ab_locate(const ab_batches *bs, const char *name, int64_t r, const struct ArrowSchema **cs,
              const struct ArrowArray **ca, int64_t *j)
{
    int k = 0;
    while (k < bs->n && bs->first[k + 1] <= r)
        k++;
    if (k >= bs->n || !ab_child(&bs->schema, &bs->b[k], name, cs, ca)) return 0;
    *j = (*ca)->offset + r - bs->first[k];
    return 1;
}

const char *ab_format(const ab_batches *bs, const char *name)
{
    const struct ArrowSchema *cs;
    const struct ArrowArray *ca;
    return ab_child(&bs->schema, NULL, name, &cs, &ca) ? cs->format : "(absent)";
}

/* Every row of scalar column name in bs equals truth's getters. */
void ab_compare_scalar(pqt_table *truth, const ab_batches *bs, const char *name)
{
    int kind = 0;
    CHECK_OK(pqt_table_kind(truth, name, &kind));
    int64_t n = pqt_table_nrows(truth);
    int bad = 0;
    for (int64_t r = 0; r < n && bad < 3; r++) {
        const struct ArrowSchema *cs;
        const struct ArrowArray *a;
        int64_t j;
        if (!ab_locate(bs, name, r, &cs, &a, &j)) {
            fprintf(stderr, "%s: row %lld not found\n", name, (long long)r);
            bad++;
            continue;
        }
        int valid = ab_bit(a->buffers[0], j), is_null = -1;
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
                    ok = ab_bit(a->buffers[1], j) == want[0];
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

/* List or vector column name against pqt_table_get_list_alloc. */
void ab_compare_list(pqt_table *truth, const ab_batches *bs, const char *name, int kind)
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
        if (!ab_locate(bs, name, r, &cs, &a, &j)) {
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
            if (ab_bit(a->buffers[0], j) != ab_bit(rvalid, r)) bad++, pqt_test_failures++;
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
            int cv = ab_bit(c->buffers[0], ce), tv = ab_bit(valid, te);
            int same = cv == tv;
            if (same && cv) {
                if (kind == PQT_BOOL)
                    same = ab_bit(c->buffers[1], ce) == ((uint8_t *)data)[te];
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

void ab_write_rg(char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/pqt_arrow_rg_%d.parquet", (int)getpid());
    pqt_table *src = ab_open("tests/data/write_types.parquet", NULL, NULL);
    pqt_write_opts *wo = NULL;
    CHECK_OK(pqt_write_opts_new(&wo));
    CHECK_OK(pqt_write_opts_set_int(wo, PQT_WOPT_ROW_GROUP_ROWS, 16));
    CHECK_OK(pqt_write_table(src, path, wo));
    pqt_write_opts_free(wo);
    pqt_table_close(src);
}
