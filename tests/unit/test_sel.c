/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_sel.c - property test of the row selection against a plain bool-array model.
 * Random sequences of init (all, none, range, bools, bitmap, runs), intersect, refine, and,
 * or, not and copy; after each step every query (count, any, run iteration over random
 * windows, the row list, the bitmap) must agree with the model. Allocation failures injected
 * into and/or/not/refine must leave the selected rows as they were.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/mem.h"
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
    /* the row list and the bitmap */
    int64_t *rows = malloc((size_t)total * sizeof *rows + 1);
    pqt_sel_rows(sel, rows);
    int64_t k = 0;
    for (int64_t i = 0; i < nrows && k <= total; i++)
        if (model[i]) {
            if (k < total) CHECK_EQ_I64(rows[k], i);
            k++;
        }
    CHECK_EQ_I64(k, total);
    free(rows);
    size_t nbytes = (size_t)(nrows + 7) / 8;
    uint8_t *bits = malloc(nbytes + 1);
    bits[nbytes] = 0xA5; /* sentinel: nothing past the bitmap is written */
    pqt_sel_to_bitmap(sel, bits);
    CHECK_EQ_I64(bits[nbytes], 0xA5);
    for (int64_t i = 0; i < (int64_t)nbytes * 8; i++)
        CHECK_EQ_I64((bits[i >> 3] >> (i & 7)) & 1, i < nrows ? model[i] : 0);
    free(bits);
    /* representations stay normalized */
    if (total == 0) CHECK(sel->kind == PQT_SEL_NONE);
    if (total == nrows) CHECK(sel->kind == PQT_SEL_ALL);
    if (sel->kind == PQT_SEL_BITS && nrows % 64)
        CHECK_EQ_I64(sel->words[(nrows - 1) / 64] >> (nrows % 64), 0);
}

/* Random runs in random order, some overlapping, touching or empty. */
static int64_t random_runs(pqt_run *runs, int64_t cap, int64_t nrows)
{
    int64_t n = rnd(cap + 1);
    for (int64_t k = 0; k < n; k++) {
        int64_t s = rnd(nrows), l = rnd(k % 3 == 0 ? nrows - s + 1 : 8);
        if (s + l > nrows) l = nrows - s;
        runs[k] = (pqt_run){s, l};
        if (k > 0 && rnd(4) == 0) runs[k].start = runs[k - 1].start + runs[k - 1].len; /* touch */
        if (runs[k].start + runs[k].len > nrows) runs[k] = (pqt_run){nrows - 1, 1};
    }
    return n;
}

/* A fresh selection built by a random constructor, with its model. */
static void make_random(pqt_sel *sel, uint8_t *model, int64_t nrows)
{
    int start = (int)rnd(6);
    if (start == 0) {
        pqt_sel_init_all(sel, nrows);
        memset(model, 1, (size_t)nrows);
    } else if (start == 1) {
        pqt_sel_init_none(sel, nrows);
        memset(model, 0, (size_t)nrows);
    } else if (start == 2) {
        int64_t lo = rnd(nrows), hi = lo + rnd(nrows - lo + 1);
        CHECK_OK(pqt_sel_init_range(sel, nrows, lo, hi));
        for (int64_t i = 0; i < nrows; i++) model[i] = i >= lo && i < hi;
    } else if (start == 3) {
        int density = (int)rnd(101);
        for (int64_t i = 0; i < nrows; i++) model[i] = rnd(100) < density;
        CHECK_OK(pqt_sel_init_bools(sel, nrows, model));
    } else if (start == 4) {
        /* a bitmap whose padding bits past nrows are set: they must be ignored */
        size_t nbytes = (size_t)(nrows + 7) / 8;
        uint8_t *bits = malloc(nbytes);
        int density = (int)rnd(101);
        for (size_t b = 0; b < nbytes; b++) bits[b] = (uint8_t)pqt_test_rand(&rng);
        for (int64_t i = 0; i < nrows; i++) {
            int on = rnd(100) < density;
            bits[i >> 3] = (uint8_t)((bits[i >> 3] & ~(1u << (i & 7))) | (unsigned)on << (i & 7));
            model[i] = (uint8_t)on;
        }
        CHECK_OK(pqt_sel_init_bitmap(sel, nrows, bits));
        free(bits);
    } else {
        pqt_run runs[64];
        int64_t n = random_runs(runs, rnd(2) ? 64 : 6, nrows);
        memset(model, 0, (size_t)nrows);
        for (int64_t k = 0; k < n; k++)
            for (int64_t i = runs[k].start; i < runs[k].start + runs[k].len; i++) model[i] = 1;
        CHECK_OK(pqt_sel_init_runs(sel, nrows, runs, n));
    }
}

/* One random and/or/not/refine with an allocation failure injected after k allocations: either it
 * succeeds with the right answer, or it fails with PQT_NOMEM and the rows are unchanged. */
static int64_t nomem_seen; /* the failure path must really be taken */

static void op_under_failure(pqt_sel *sel, uint8_t *model, int64_t nrows)
{
    pqt_sel other;
    memset(&other, 0, sizeof other);
    uint8_t *om = malloc((size_t)nrows);
    make_random(&other, om, nrows);
    int op = (int)rnd(4);
    uint8_t *keep = malloc((size_t)sel->nsel + 1); /* refine: a random verdict per selected row */
    for (int64_t k = 0; k < sel->nsel; k++) keep[k] = rnd(2);
    for (long k = 0; k < 4; k++) {
        pqt_mem_fail_after(k);
        pqt_status st = op == 0   ? pqt_sel_and(sel, &other)
                        : op == 1 ? pqt_sel_or(sel, &other)
                        : op == 2 ? pqt_sel_not(sel)
                                  : pqt_sel_refine(sel, keep);
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) {
            int64_t j = 0;
            for (int64_t i = 0; i < nrows; i++)
                model[i] = op == 0   ? model[i] & om[i]
                           : op == 1 ? model[i] | om[i]
                           : op == 2 ? !model[i]
                           : model[i] ? keep[j++] : 0;
            break;
        }
        CHECK_EQ_I64(st, PQT_NOMEM);
        nomem_seen++;
        check_against(sel, model, nrows); /* unchanged */
    }
    pqt_sel_free(&other);
    free(om);
    free(keep);
}

int main(void)
{
    for (int trial = 0; trial < 600; trial++) {
        int64_t nrows = 1 + rnd(trial % 3 == 0 ? 10000 : 300);
        uint8_t *model = malloc((size_t)nrows);
        pqt_sel sel;
        memset(&sel, 0, sizeof sel);
        make_random(&sel, model, nrows);
        check_against(&sel, model, nrows);
        for (int step = 0; step < 10; step++) {
            int op = (int)rnd(9);
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
            } else if (op == 3 || op == 4) {
                pqt_sel other;
                memset(&other, 0, sizeof other);
                uint8_t *om = malloc((size_t)nrows);
                if (rnd(3) == 0) {
                    /* a piece of the complement: its runs touch sel's, a union must merge them */
                    int64_t lo = rnd(nrows), hi = lo + rnd(nrows - lo + 1);
                    CHECK_OK(pqt_sel_copy(&other, &sel));
                    CHECK_OK(pqt_sel_not(&other));
                    CHECK_OK(pqt_sel_intersect_range(&other, lo, hi));
                    for (int64_t i = 0; i < nrows; i++) om[i] = !model[i] && i >= lo && i < hi;
                } else {
                    make_random(&other, om, nrows);
                }
                check_against(&other, om, nrows);
                CHECK_OK(op == 3 ? pqt_sel_and(&sel, &other) : pqt_sel_or(&sel, &other));
                for (int64_t i = 0; i < nrows; i++) model[i] = op == 3 ? model[i] & om[i] : model[i] | om[i];
                check_against(&other, om, nrows); /* b is not changed */
                pqt_sel_free(&other);
                free(om);
            } else if (op == 5) {
                CHECK_OK(pqt_sel_not(&sel));
                for (int64_t i = 0; i < nrows; i++) model[i] = !model[i];
            } else if (op == 6) {
                /* a copy is independent of its source */
                pqt_sel cp;
                memset(&cp, 0, sizeof cp);
                CHECK_OK(pqt_sel_copy(&cp, &sel));
                CHECK_OK(pqt_sel_not(&sel));
                check_against(&cp, model, nrows);
                CHECK_OK(pqt_sel_not(&sel));
                pqt_sel_free(&cp);
            } else if (op == 7) {
                op_under_failure(&sel, model, nrows);
            } else {
                int64_t nsel = sel.nsel;
                uint8_t *keep = malloc((size_t)nsel + 1);
                int density = (int)rnd(101);
                /* a verdict is any nonzero byte (0x80, 0xFF: what word-at-a-time packing of
                 * the bytes could get wrong) */
                static const uint8_t yes[] = {1, 2, 0x7f, 0x80, 0xff};
                for (int64_t k = 0; k < nsel; k++)
                    keep[k] = rnd(100) < density ? yes[rnd(5)] : 0;
                if (rnd(2)) {
                    CHECK_OK(pqt_sel_refine(&sel, keep));
                } else { /* the same verdict as a bitmap */
                    uint8_t *bits = calloc((size_t)nsel / 8 + 1, 1);
                    for (int64_t k = 0; k < nsel; k++)
                        if (keep[k]) bits[k >> 3] |= (uint8_t)(1u << (k & 7));
                    CHECK_OK(pqt_sel_refine_bits(&sel, bits));
                    free(bits);
                }
                int64_t k = 0;
                for (int64_t i = 0; i < nrows; i++)
                    if (model[i]) model[i] = keep[k++] != 0;
                free(keep);
            }
            check_against(&sel, model, nrows);
        }
        pqt_sel_free(&sel);
        free(model);
    }
    CHECK(nomem_seen > 50);
    return pqt_test_done("test_sel");
}
