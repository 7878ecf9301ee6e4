/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_plan_ops.c - property test of the read plan's operations (read/plan_ops.c) against a
 * plain model: the list of file rows, one per table row. Random files (row group sizes) and
 * random sequences of slice, restrict, keep_groups, keep, limit, then permute or take; after
 * each step the plan's file rows, row count, destinations and extent must agree with the
 * model. Every operation is also run with an allocation failure injected after k
 * allocations: it either succeeds with the model's answer or fails with PQT_NOMEM and the
 * plan still agrees with the model as it was. A sorted plan refuses to be narrowed.
 */
#include <stdlib.h>
#include <string.h>

#include "read/plan.h"
#include "testutil.h"
#include "util/mem.h"

static uint64_t rng = 2026;

static int64_t rnd(int64_t n)
{
    return n > 0 ? (int64_t)(pqt_test_rand(&rng) % (uint64_t)n) : 0;
}

typedef struct model {
    int64_t *rows; /* 0-based file row of every table row */
    int64_t n;
    bool sorted;
} model;

static void check(const pqt_plan *p, const model *m)
{
    CHECK_EQ_I64(p->nsel, m->n);
    CHECK(!!p->perm == m->sorted);
    int64_t *out = malloc(((size_t)m->n + 1) * sizeof *out);
    CHECK_OK(pqt_plan_file_rows(p, out));
    int bad = 0;
    for (int64_t i = 0; i < m->n && !bad; i++)
        bad = out[i] != m->rows[i] + 1;
    CHECK(!bad);
    free(out);
    int64_t dst = 0, extent = 0;
    for (int rg = 0; rg < p->nrg; rg++) {
        CHECK_EQ_I64(p->dst_row[rg], dst);
        dst += p->sel[rg].nsel;
        if (p->sel[rg].nsel) extent += p->rg_start[rg + 1] - p->rg_start[rg];
    }
    CHECK_EQ_I64(dst, m->n);
    CHECK_EQ_I64(pqt_plan_extent(p), extent);
}

/* The model of a step: keep[i] for table row i (order kept). */
static void model_keep(model *m, const uint8_t *keep)
{
    int64_t k = 0;
    for (int64_t i = 0; i < m->n; i++)
        if (keep[i]) m->rows[k++] = m->rows[i];
    m->n = k;
}

/* The row group of file row r. */
static int group_of(const pqt_plan *p, int64_t r)
{
    int rg = 0;
    while (p->rg_start[rg + 1] <= r)
        rg++;
    return rg;
}

enum { OP_RESTRICT, OP_GROUPS, OP_KEEP, OP_LIMIT, OP_PERMUTE, OP_TAKE, NOPS };

static int64_t nomem_seen;

/* One random operation, first under injected failures until it succeeds. */
static void step(pqt_plan *p, model *m)
{
    int op = (int)rnd(NOPS);
    if (m->sorted) { /* a sorted plan refuses to narrow, and changes nothing */
        uint8_t *keep = calloc((size_t)m->n + 1, 1);
        CHECK_EQ_I64(pqt_plan_keep(p, keep), PQT_MISUSE);
        CHECK_EQ_I64(pqt_plan_limit(p, 0), PQT_MISUSE);
        int64_t *perm = pqt_malloc_array((size_t)m->n + 1, sizeof *perm);
        for (int64_t i = 0; i < m->n; i++)
            perm[i] = i;
        CHECK_EQ_I64(pqt_plan_permute(p, perm), PQT_MISUSE); /* perm taken */
        free(keep);
        check(p, m);
        return;
    }
    uint8_t *keep = malloc((size_t)m->n + 1); /* per table row */
    bool *grp = malloc((size_t)p->nrg + 1);   /* per row group */
    int64_t *order = malloc(((size_t)m->n + 1) * sizeof *order);
    int64_t n = rnd(m->n + 2), k = rnd(m->n + 1);
    for (int64_t i = 0; i < m->n; i++)
        keep[i] = rnd(4) != 0;
    for (int rg = 0; rg < p->nrg; rg++)
        grp[rg] = rnd(3) != 0;
    for (int64_t i = 0; i < m->n; i++)
        order[i] = i;
    for (int64_t i = m->n - 1; i > 0; i--) { /* a random permutation of the plan rows */
        int64_t j = rnd(i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    for (long fail = 0;; fail++) {
        pqt_status st;
        pqt_sel *sels = NULL;
        int64_t *perm = NULL;
        if (op == OP_PERMUTE || op == OP_TAKE) { /* the op takes its array */
            perm = pqt_malloc_array((size_t)m->n + 1, sizeof *perm);
            memcpy(perm, order, (size_t)m->n * sizeof *perm);
        }
        if (op == OP_RESTRICT) { /* a step narrowing a working copy (the filter pass) */
            st = pqt_plan_sels_copy(p, &sels);
            for (int rg = 0; st == PQT_OK && rg < p->nrg; rg++)
                if (sels[rg].nsel) st = pqt_sel_refine(&sels[rg], keep + p->dst_row[rg]);
            if (st != PQT_OK) pqt_plan_sels_free(sels, p->nrg);
            CHECK_OK(st);
        }
        pqt_mem_fail_after(fail);
        switch (op) {
        case OP_RESTRICT:
            st = pqt_plan_restrict(p, sels);
            break;
        case OP_GROUPS:
            st = pqt_plan_keep_groups(p, grp);
            break;
        case OP_KEEP:
            st = pqt_plan_keep(p, keep);
            break;
        case OP_LIMIT:
            st = pqt_plan_limit(p, n);
            break;
        case OP_PERMUTE:
            st = pqt_plan_permute(p, perm);
            break;
        default:
            st = pqt_plan_take(p, perm, k);
            break;
        }
        pqt_mem_fail_after(-1);
        if (st == PQT_OK) break;
        CHECK_EQ_I64(st, PQT_NOMEM);
        nomem_seen++;
        check(p, m); /* unchanged */
        if (fail > 64) break;
    }
    switch (op) {
    case OP_RESTRICT:
    case OP_KEEP:
        model_keep(m, keep);
        break;
    case OP_GROUPS:
        for (int64_t i = 0; i < m->n; i++)
            keep[i] = grp[group_of(p, m->rows[i])];
        model_keep(m, keep);
        break;
    case OP_LIMIT:
        if (n < m->n) m->n = n;
        break;
    default: {
        int64_t kk = op == OP_PERMUTE || k > m->n ? m->n : k;
        int64_t *r = malloc(((size_t)kk + 1) * sizeof *r);
        for (int64_t i = 0; i < kk; i++)
            r[i] = m->rows[order[i]];
        memcpy(m->rows, r, (size_t)kk * sizeof *r);
        free(r);
        m->n = kk;
        m->sorted = true;
        break;
    }
    }
    check(p, m);
    free(keep);
    free(grp);
    free(order);
}

int main(void)
{
    for (int trial = 0; trial < 400; trial++) {
        int nrg = (int)rnd(7);
        pqt_file_meta meta;
        memset(&meta, 0, sizeof meta);
        meta.n_row_groups = nrg;
        meta.row_groups = calloc((size_t)nrg + 1, sizeof *meta.row_groups);
        int64_t total = 0;
        for (int rg = 0; rg < nrg; rg++) {
            meta.row_groups[rg].num_rows = rnd(4) == 0 ? 0 : rnd(trial % 5 == 0 ? 5000 : 40);
            meta.row_groups[rg].first_row = total; /* as the footer decoder sets it */
            total += meta.row_groups[rg].num_rows;
        }
        int64_t lo = rnd(total + 1), hi = lo + rnd(total + 1 - lo);
        model m = {malloc(((size_t)total + 1) * sizeof(int64_t)), 0, false};
        for (int64_t r = lo; r < hi; r++)
            m.rows[m.n++] = r;
        pqt_plan p;
        CHECK_OK(pqt_plan_slice(&p, &meta, lo, hi));
        check(&p, &m);
        for (int s = 0, ns = (int)rnd(7); s < ns; s++)
            step(&p, &m);
        pqt_plan_free(&p);
        free(m.rows);
        free(meta.row_groups);
    }
    CHECK(nomem_seen > 100); /* the failure paths were really taken */
    return pqt_test_done("test_plan_ops");
}
