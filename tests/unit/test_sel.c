/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sel.c - property test of the row selection against a plain bool-array model.
 * Random sequences of init/intersect/refine; after each step every query (count, any,
 * run iteration over random windows) must agree with the model.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/sel.h"

static uint64_t rng = 12345;

static int64_t rnd(int64_t n) { return n > 0 ? (int64_t)(pqt_test_rand(&rng) % (uint64_t)n) : 0; }

static void check_against(const pqt_sel *sel, const uint8_t *model, int64_t nrows)
{
    int64_t total = 0;
    for (int64_t i = 0; i < nrows; i++) total += model[i];
    CHECK_EQ_I64(sel->nsel, total);
    for (int q = 0; q < 20; q++) {
        int64_t lo = rnd(nrows + 1), hi = lo + rnd(nrows + 1 - lo);
        int64_t cnt = 0;
        for (int64_t i = lo; i < hi; i++) cnt += model[i];
        CHECK_EQ_I64(pqt_sel_count(sel, lo, hi), cnt);
        CHECK_EQ_I64(pqt_sel_any(sel, lo, hi), cnt > 0);
        /* runs rebuild exactly the model's selected rows in the window */
        uint8_t *seen = calloc((size_t)nrows + 1, 1);
        pqt_sel_cursor cur;
        pqt_sel_seek(sel, &cur, lo);
        int64_t s, l, prev_end = -1, nruns = 0;
        while (pqt_sel_next_run(sel, &cur, lo, hi, &s, &l)) {
            CHECK(l > 0 && s >= lo && s + l <= hi);
            CHECK(s > prev_end); /* ascending and not adjacent */
            prev_end = s + l;
            for (int64_t i = s; i < s + l; i++) seen[i] = 1;
            nruns++;
        }
        CHECK_EQ_I64(pqt_sel_nruns_in(sel, lo, hi), nruns);
        for (int64_t i = lo; i < hi; i++) CHECK_EQ_I64(seen[i], model[i]);
        free(seen);
    }
}

int main(void)
{
    for (int trial = 0; trial < 300; trial++) {
        int64_t nrows = 1 + rnd(trial % 3 == 0 ? 10000 : 300);
        uint8_t *model = malloc((size_t)nrows);
        pqt_sel sel;
        memset(&sel, 0, sizeof sel);
        int start = (int)rnd(3);
        if (start == 0) {
            pqt_sel_init_all(&sel, nrows);
            memset(model, 1, (size_t)nrows);
        } else if (start == 1) {
            int64_t lo = rnd(nrows), hi = lo + rnd(nrows - lo + 1);
            CHECK_OK(pqt_sel_init_range(&sel, nrows, lo, hi));
            for (int64_t i = 0; i < nrows; i++) model[i] = i >= lo && i < hi;
        } else {
            int density = (int)rnd(100);
            for (int64_t i = 0; i < nrows; i++) model[i] = rnd(100) < density;
            CHECK_OK(pqt_sel_init_bools(&sel, nrows, model));
        }
        check_against(&sel, model, nrows);
        for (int step = 0; step < 6; step++) {
            int op = (int)rnd(3);
            if (op == 0) {
                int64_t lo = rnd(nrows), hi = lo + rnd(nrows - lo + 1);
                CHECK_OK(pqt_sel_intersect_range(&sel, lo, hi));
                for (int64_t i = 0; i < nrows; i++)
                    if (i < lo || i >= hi) model[i] = 0;
            } else if (op == 1) {
                pqt_run runs[8];
                int64_t n = 0, pos = 0;
                while (n < 8 && pos < nrows) {
                    int64_t s = pos + rnd(nrows / 4 + 1), l = 1 + rnd(nrows / 4 + 1);
                    if (s >= nrows) break;
                    if (s + l > nrows) l = nrows - s;
                    runs[n++] = (pqt_run){s, l};
                    pos = s + l + 1;
                }
                CHECK_OK(pqt_sel_intersect_runs(&sel, runs, n));
                uint8_t *in = calloc((size_t)nrows, 1);
                for (int64_t k = 0; k < n; k++)
                    for (int64_t i = runs[k].start; i < runs[k].start + runs[k].len; i++) in[i] = 1;
                for (int64_t i = 0; i < nrows; i++) model[i] &= in[i];
                free(in);
            } else {
                int64_t nsel = sel.nsel;
                uint8_t *keep = malloc((size_t)nsel + 1);
                int density = (int)rnd(101);
                for (int64_t k = 0; k < nsel; k++) keep[k] = rnd(100) < density;
                CHECK_OK(pqt_sel_refine(&sel, keep));
                int64_t k = 0;
                for (int64_t i = 0; i < nrows; i++)
                    if (model[i]) model[i] = keep[k++];
                free(keep);
            }
            check_against(&sel, model, nrows);
        }
        pqt_sel_free(&sel);
        free(model);
    }
    return pqt_test_done("test_sel");
}
