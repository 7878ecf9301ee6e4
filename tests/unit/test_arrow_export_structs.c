/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export_structs.c - struct fields of an Arrow export carry their own nulls
 * (issue 34): each struct level's validity bitmap and null_count come from its group's
 * definition levels, in one batch and cut into batches at any row, unread and resident,
 * with a filter and a sort at open; a list inside the struct is a large_list field of it;
 * a table whose rows no longer follow its file exports
 * structs without nulls (documented). Every batch passes arrow_check.c.
 * Truth: tests/data/struct_nulls.parquet as DuckDB reads it (`SELECT id, s IS NULL,
 * s.t IS NULL FROM 'struct_nulls.parquet'`): s is null in row 2 only, s.t in rows 2, 3
 * and 6 (row 6: s present with every leaf null; row 4: s.t present, s.t.x null).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/arrow_int.h"
#include "arrow_batches.h"
#include "arrow_check.h"
#include "pqt_arrow.h"
#include "testutil.h"

#define NULLS "tests/data/struct_nulls.parquet"

static const char *all_cols[] = {"id", "s.a", "s.b", "s.t.x", "s.l", "z"};

/* By id (1..6): s present, s.t present. */
static const int s_present[7] = {0, 1, 0, 1, 1, 1, 1};
static const int t_present[7] = {0, 1, 0, 0, 1, 1, 0};

/* Every table row of bs: s's and s.t's validity equal the truth for the row's id. */
static void check_rows(const ab_batches *bs, int64_t nrows)
{
    int64_t seen = 0;
    for (int k = 0; k < bs->n; k++) {
        const struct ArrowSchema *ss, *ts, *is;
        const struct ArrowArray *s, *tt, *id;
        CHECK(ab_child(&bs->schema, &bs->b[k], "s", &ss, &s));
        CHECK(ab_child(&bs->schema, &bs->b[k], "id", &is, &id));
        if (!s || !id) return;
        CHECK(ab_child(ss, s, "t", &ts, &tt));
        if (!tt) return;
        CHECK(!strcmp(ss->format, "+s") && (ss->flags & ARROW_FLAG_NULLABLE));
        int64_t s_nulls = 0, t_nulls = 0;
        for (int64_t r = 0; r < bs->b[k].length; r++, seen++) {
            int32_t v = ((const int32_t *)id->buffers[1])[id->offset + r];
            CHECK(v >= 1 && v <= 6);
            if (v < 1 || v > 6) continue;
            CHECK_EQ_I64(ab_bit(s->buffers[0], s->offset + r), s_present[v]);
            CHECK_EQ_I64(ab_bit(tt->buffers[0], tt->offset + r), t_present[v]);
            s_nulls += !s_present[v];
            t_nulls += !t_present[v];
        }
        CHECK_EQ_I64(s->null_count, s_nulls);
        CHECK_EQ_I64(tt->null_count, t_nulls);
    }
    CHECK_EQ_I64(seen, nrows);
}

/* The whole file in one batch: the bitmaps by hand, bit by bit. */
static void test_bitmaps(void)
{
    pqt_table *t = ab_open(NULLS, NULL, NULL);
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 0, bs), 0);
    CHECK_EQ_I64(bs->n, 1);
    const struct ArrowSchema *ss, *ts;
    const struct ArrowArray *s, *tt;
    CHECK(ab_child(&bs->schema, &bs->b[0], "s", &ss, &s));
    CHECK(s && ab_child(ss, s, "t", &ts, &tt));
    if (s && tt) {
        CHECK(s->buffers[0] && tt->buffers[0]);
        /* rows 1..6 -> bits 0..5: s 1 0 1 1 1 1, s.t 1 0 0 1 1 0 */
        CHECK_EQ_I64(((const uint8_t *)s->buffers[0])[0] & 0x3f, 0x3d);
        CHECK_EQ_I64(((const uint8_t *)tt->buffers[0])[0] & 0x3f, 0x19);
        CHECK_EQ_I64(s->null_count, 1);
        CHECK_EQ_I64(tt->null_count, 3);
    }
    /* the list s.l is s's field l, a large_list: [1,2], NULL, NULL, [], [NULL,3], NULL */
    const struct ArrowSchema *ls;
    const struct ArrowArray *l;
    CHECK(s && ab_child(ss, s, "l", &ls, &l));
    CHECK(!ab_child(&bs->schema, &bs->b[0], "s.l", &ls, &l) || !strcmp(ls->name, "l"));
    if (s && ab_child(ss, s, "l", &ls, &l)) {
        CHECK(!strcmp(ls->format, "+L"));
        static const int64_t len[6] = {2, 0, 0, 0, 2, 0};
        static const int present[6] = {1, 0, 0, 1, 1, 0};
        const int64_t *o = l->buffers[1];
        const struct ArrowArray *item = l->children[0];
        const int32_t *iv = item->buffers[1];
        for (int r = 0; r < 6; r++) {
            CHECK_EQ_I64(o[l->offset + r + 1] - o[l->offset + r], len[r]);
            CHECK_EQ_I64(ab_bit(l->buffers[0], l->offset + r), present[r]);
        }
        CHECK_EQ_I64(l->null_count, 3);
        int64_t e0 = o[l->offset], e4 = o[l->offset + 4];
        CHECK(iv[item->offset + e0] == 1 && iv[item->offset + e0 + 1] == 2);
        CHECK(!ab_bit(item->buffers[0], item->offset + e4) && iv[item->offset + e4 + 1] == 3);
    }
    /* s's children in the file's order: a, b, t, l */
    if (ss) CHECK(ss->n_children == 4 && !strcmp(ss->children[3]->name, "l"));
    ab_release(bs);
    free(bs);
    pqt_table_close(t);
}

/* Cut at every row count, unread and resident, filtered and sorted at open. */
static void test_batches(void)
{
    static const struct {
        const char *filter, *sort;
        int64_t nrows;
    } opens[] = {{NULL, NULL, 6}, {"id != 4", NULL, 5}, {NULL, "-id", 6}, {"id > 1", "-z", 5}};
    for (size_t o = 0; o < sizeof opens / sizeof *opens; o++)
        for (int resident = 0; resident < 2; resident++)
            for (int64_t br = 0; br <= 7; br++) {
                pqt_table *t = ab_open(NULLS, opens[o].filter, opens[o].sort);
                if (resident) CHECK_OK(pqt_table_prefetch(t, all_cols, 6));
                ab_batches *bs = calloc(1, sizeof *bs);
                CHECK_EQ_I64(ab_pull(t, NULL, 0, br, bs), 0);
                check_rows(bs, opens[o].nrows);
                ab_release(bs);
                free(bs);
                pqt_table_close(t);
            }
}

/* A table whose rows no longer follow its file (detached by an in-memory sort) cannot read
 * its groups' levels: its structs have no nulls, as docs/arrow.md says. */
static void test_detached(void)
{
    pqt_table *t = ab_open(NULLS, NULL, NULL);
    CHECK_OK(pqt_table_prefetch(t, all_cols, 6));
    CHECK_OK(pqt_table_sort_by(t, "-id", NULL));
    ab_batches *bs = calloc(1, sizeof *bs);
    CHECK_EQ_I64(ab_pull(t, NULL, 0, 0, bs), 0);
    const struct ArrowSchema *ss;
    const struct ArrowArray *s;
    CHECK(ab_child(&bs->schema, &bs->b[0], "s", &ss, &s));
    if (s) CHECK(s->buffers[0] == NULL && s->null_count == 0);
    ab_release(bs);
    free(bs);
    pqt_table_close(t);
}

int main(void)
{
    test_bitmaps();
    test_batches();
    test_detached();
    CHECK_EQ_I64(pqt_arrow_live_blocks(), 0);
    return pqt_test_done("test_arrow_export_structs");
}
