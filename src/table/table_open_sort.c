/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_open_sort.c - a sort and a row limit given at open (layer: table): they order and
 * cut the read plan after the filter (docs/sort.md).
 *
 * The key columns are read over the surviving rows only and ordered by the one sort engine
 * (sort_engine.c); a top-n keeps them resident for its n rows, a full sort releases them. The plan
 * then gets the permutation (table row -> plan row, and its inverse), so every other column is
 * later read straight into sorted position (table_read.c). With a limit the engine selects the
 * first n rows (a bounded selection, not a full sort) and the plan's selections are narrowed to
 * them, so other columns decode the kept rows only. A limit without a sort keeps the first n
 * survivors.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/sort_spec.h"
#include "table/sort_decimal.h"
#include "table/sort_engine.h"
#include "table/table_int.h"
#include "util/mem.h"

/* The row index as a key: the file rows of the plan, no slot (a file column of that name
 * is dropped at open; a MAML may give the name to another column, which then wins). */
static bool is_row_index_key(const pqt_table *t, const char *name)
{
    return t->ri_possible && strcmp(name, PQT_TBL_ROW_INDEX) == 0;
}

pqt_status pqt_tbl_sort_check(const pqt_table *t, const pqt_sort_spec *spec)
{
    for (int i = 0; i < spec->nkeys; i++) {
        const char *name = spec->names[i];
        int ci = pqt_tbl_find(t, name);
        if (ci < 0 && is_row_index_key(t, name)) continue; /* made from the plan at open */
        if (ci < 0) {
            char hint[300];
            return pqt_err(PQT_BAD_SORT, "pqt_table_open: %s: sort key '%s' names no column%s",
                           t->f->path, name, pqt_tbl_suggest(t, name, hint, sizeof hint));
        }
        const pqt_tcol *c = &t->cols[ci];
        if (c->kind == PQT_NONE)
            return pqt_err(PQT_BAD_SORT, "pqt_table_open: %s: sort key '%s' has a type this "
                                         "library cannot read",
                           t->f->path, name);
        if (c->kind & (PQT_LIST | PQT_VECTOR))
            return pqt_err(PQT_BAD_SORT, "pqt_table_open: %s: sort key '%s' is a "
                                         "variable-length list column; sorting only supports "
                                         "scalar columns",
                           t->f->path, name);
    }
    return PQT_OK;
}

/* qsort order of (plan row, position) pairs by plan row (distinct). */
static int cmp_first(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int effective_threads(const pqt_table *t)
{
    int n = t->threads > 0 ? t->threads : omp_get_max_threads();
    if (omp_in_parallel()) n = 1;
    return n < 1 ? 1 : n;
}

/* The plan keeping only the plan rows with keep[j] != 0 (keep NULL: the first n). */
static pqt_status narrow(pqt_table *t, const uint8_t *keep)
{
    pqt_plan np;
    PQT_TRY(pqt_plan_refined(&t->plan, keep, &np));
    pqt_plan_free(&t->plan);
    t->plan = np;
    return PQT_OK;
}

/* Append a line to the explain text (created on first use). */
static pqt_status explain_add(pqt_table *t, const char *line)
{
    const char *old = t->explain ? t->explain : "no filter: every row of the slice is kept\n";
    size_t a = strlen(old), b = strlen(line);
    char *s = pqt_malloc_array(a + b + 1, 1);
    if (!s) return pqt_err(PQT_NOMEM, "pqt_table_open: out of memory");
    memcpy(s, old, a);
    memcpy(s + a, line, b + 1);
    pqt_mem_free(t->explain);
    t->explain = s;
    return PQT_OK;
}

static pqt_status limit_only(pqt_table *t, int64_t limit)
{
    int64_t n = t->plan.nsel;
    if (limit >= n) return PQT_OK;
    uint8_t *keep = pqt_calloc((size_t)n + 1, 1);
    if (!keep) return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", t->f->path);
    memset(keep, 1, (size_t)limit);
    pqt_status st = narrow(t, keep);
    pqt_mem_free(keep);
    return st;
}

pqt_status pqt_tbl_sort_at_open(pqt_table *t, const pqt_sort_spec *spec, int64_t limit)
{
    const char *path = t->f->path;
    char line[1024];
    pqt_status st = PQT_OK;
    if (!spec || spec->nkeys == 0) {
        st = limit >= 0 ? limit_only(t, limit) : PQT_OK;
        if (st == PQT_OK && limit >= 0) {
            snprintf(line, sizeof line, "limit: the first %lld rows kept\n", (long long)limit);
            st = explain_add(t, line);
        }
        goto out;
    }
    int nk = spec->nkeys;
    int64_t nsurv = t->plan.nsel; /* the survivors, before a top-n skips row groups */
    pqt_colbuf first_key; /* the first key as the top-n pass read it (elem_kind 0: not) */
    memset(&first_key, 0, sizeof first_key);
    /* A top-n on a first key without nulls_first reads only the row groups that can hold
     * one of its rows (statistics, PQT_OPT_PUSHDOWN_STATS) */
    if (limit >= 0 && limit < t->plan.nsel && !spec->nulls_first[0] &&
        !(t->opts.pushdown_off & PQT_PD_STATS)) {
        int nread = 0, of = 0;
        st = pqt_tbl_top_n_row_groups(t, spec->names[0], spec->desc[0], limit,
                                      effective_threads(t), &nread, &of, &first_key);
        if (st == PQT_OK && nread < of) {
            snprintf(line, sizeof line, "top-n: the keys of %d of %d row groups read (the "
                                        "statistics of '%s' rule out the rest)\n",
                     nread, of, spec->names[0]);
            st = explain_add(t, line);
        }
        if (st != PQT_OK) {
            pqt_colbuf_free(&first_key);
            goto out;
        }
    }
    int64_t n = t->plan.nsel;
    pqt_colbuf kb[PQT_SORT_MAX_KEYS];
    int kci[PQT_SORT_MAX_KEYS];
    pqt_sort_key sk[2 * PQT_SORT_MAX_KEYS]; /* an int128 decimal key gives two */
    pqt_sort_exact ex[PQT_SORT_MAX_KEYS];  /* decimal keys in exact order (sort_decimal.h) */
    int nek = 0;
    memset(kb, 0, sizeof kb);
    memset(ex, 0, sizeof ex);
    int64_t keep_n = limit >= 0 && limit < n ? limit : n;
    int64_t *idx = pqt_malloc_array((size_t)keep_n + 1, sizeof *idx); /* keep_n: O(n) for a top-n */
    int64_t *inv = pqt_malloc_array((size_t)keep_n + 1, sizeof *inv);
    uint8_t *keep = keep_n < n ? pqt_calloc((size_t)n + 1, 1) : NULL;
    if (!idx || !inv || (keep_n < n && !keep)) {
        st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory sorting %lld rows", path,
                     (long long)n);
        goto done;
    }
    /* the keys, over the surviving rows in plan order (a key named twice is read once) */
    for (int i = 0; i < nk && st == PQT_OK; i++) {
        kci[i] = pqt_tbl_find(t, spec->names[i]);
        int dup = -1;
        for (int j = 0; j < i; j++)
            if (kci[j] == kci[i]) dup = j;
        if (dup >= 0) continue;
        const pqt_plan *p = &t->plan;
        if (i == 0 && first_key.elem_kind) { /* read by the top-n pass, over this plan */
            kb[0] = first_key;
            memset(&first_key, 0, sizeof first_key);
            continue;
        }
        if (kci[i] < 0) { /* the row index: 1-based file rows, ascending in plan order */
            st = pqt_tbl_buf_new(&kb[i], PQT_INT64, false, 0, false, p->nsel, p->nsel);
            if (st == PQT_OK) st = pqt_plan_file_rows(p, (int64_t *)kb[i].data);
            continue;
        }
        pqt_tcol *c = &t->cols[kci[i]];
        pqt_read_counters rc = {0};
        st = pqt_sort_exact_read(t, kci[i], effective_threads(t), &ex[i]);
        if (st == PQT_OK && !ex[i].nparts) {
            pqt_read_src src = pqt_file_read_src(t->f);
            pqt_read_req rq = pqt_read_req_plan(&src, &t->f->schema.cols[c->file_col], p);
            rq.threads = effective_threads(t);
            rq.counters = &rc;
            st = pqt_read_column(&rq, &kb[i]);
            pqt_tbl_scan_add(t, c, &rc);
        }
        if (st != PQT_OK) pqt_err_prefix("pqt_table_open: %s: sort key '%s': ", path, c->name);
    }
    if (st != PQT_OK) goto done;
    for (int i = 0; i < nk; i++) {
        /* a repeated key uses what its first naming read (later namings read nothing) */
        int first = i;
        for (int j = 0; j < i; j++)
            if (kci[j] == kci[i]) {
                first = j;
                break;
            }
        if (ex[first].nparts) {
            pqt_sort_exact_keys(&ex[first], spec->desc[i], spec->nulls_first[i], sk, &nek);
            continue;
        }
        int ek = kci[i] < 0 ? PQT_INT64 : PQT_KIND_ELEMENT(t->cols[kci[i]].kind);
        sk[nek++] = (pqt_sort_key){&kb[first], ek, spec->desc[i], spec->nulls_first[i]};
    }
    if (keep_n < n) {
        int64_t got = 0;
        st = pqt_sort_top(sk, nek, n, keep_n, idx, &got, effective_threads(t), "pqt_table_open");
    } else {
        for (int64_t i = 0; i < n; i++) idx[i] = i;
        st = pqt_sort_rows(sk, nek, idx, n, effective_threads(t), "pqt_table_open");
    }
    if (st != PQT_OK) goto done;
    /* A top-n keeps its key columns resident (n rows: a cheap gather); a full sort releases
     * them (docs/sort.md: read whole, then released), since gathering every row of every
     * key (strings above all) costs more than a later first touch that may never come. */
    pqt_colbuf sorted[PQT_SORT_MAX_KEYS];
    memset(sorted, 0, sizeof sorted);
    bool keep_keys = keep_n < n;
    for (int i = 0; keep_keys && i < nk && st == PQT_OK; i++)
        if (kb[i].elem_kind && kci[i] >= 0)
            st = pqt_tbl_buf_gather(&kb[i], NULL, idx, keep_n, 0, &sorted[i]);
    /* Keys kept resident are this open's first read of them: their qc rules apply now, to
     * the kept rows (a full sort's keys meet theirs at their first touch). */
    pqt_tbl_qc_note *notes = keep_keys ? pqt_calloc((size_t)nk, sizeof *notes) : NULL;
    if (keep_keys && !notes && st == PQT_OK)
        st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", path);
    for (int i = 0; notes && i < nk; i++) notes[i].rule = -1;
    for (int i = 0; notes && i < nk && st == PQT_OK; i++)
        if (kb[i].elem_kind && kci[i] >= 0)
            st = pqt_tbl_qc_check(t, &t->cols[kci[i]], &sorted[i], "pqt_table_open", &notes[i]);
    if (st == PQT_OK && keep) {
        /* narrow the plan to the kept rows; idx then renumbers into the narrowed plan */
        for (int64_t i = 0; i < keep_n; i++) keep[idx[i]] = 1;
        st = narrow(t, keep);
        if (st == PQT_OK) {
            /* a kept row's new number is its rank among the kept rows in plan order: sort
             * (plan row, position) pairs, O(n log n) in the kept rows, not O(rows) memory */
            int64_t *pr = pqt_malloc_array((size_t)keep_n * 2 + 2, sizeof *pr);
            if (!pr) st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", path);
            for (int64_t i = 0; pr && i < keep_n; i++) {
                pr[2 * i] = idx[i];
                pr[2 * i + 1] = i;
            }
            if (pr) qsort(pr, (size_t)keep_n, 2 * sizeof *pr, cmp_first);
            for (int64_t r = 0; pr && r < keep_n; r++) idx[pr[2 * r + 1]] = r;
            pqt_mem_free(pr);
        }
    }
    if (st != PQT_OK) {
        for (int i = 0; i < nk; i++) pqt_colbuf_free(&sorted[i]);
        pqt_mem_free(notes);
        goto done;
    }
    for (int64_t i = 0; i < keep_n; i++) inv[idx[i]] = i;
    t->plan.perm = idx;
    t->plan.perm_inv = inv;
    idx = inv = NULL;
    for (int i = 0; keep_keys && i < nk; i++) {
        if (!kb[i].elem_kind || kci[i] < 0) continue;
        pqt_tcol *c = &t->cols[kci[i]];
        c->buf = sorted[i];
        c->residency = PQT_RES_FULL;
    }
    for (int i = 0; notes && i < nk; i++) pqt_tbl_qc_emit(t, &notes[i]);
    pqt_mem_free(notes);
    {
        int at = snprintf(line, sizeof line, "sort: ");
        pqt_sort_spec_text(spec, line + at, sizeof line - (size_t)at - 64);
        at = (int)strlen(line);
        if (keep_n < nsurv) /* n may be fewer: the row groups a top-n skipped are cut too */
            snprintf(line + at, sizeof line - (size_t)at, "\nlimit: the first %lld rows of the "
                                                          "sorted order kept (of %lld)\n",
                     (long long)keep_n, (long long)nsurv);
        else if (limit >= 0)
            snprintf(line + at, sizeof line - (size_t)at, "\nlimit: %lld (every row kept)\n",
                     (long long)limit);
        else
            snprintf(line + at, sizeof line - (size_t)at, "\n");
        st = explain_add(t, line);
    }
done:
    pqt_colbuf_free(&first_key); /* kept only when the sort failed before taking it */
    for (int i = 0; i < nk; i++) pqt_sort_exact_free(&ex[i]);
    for (int i = 0; i < nk; i++) {
        /* The key values (and string offsets) were read for this sort only: large blocks go
         * to the cache (mem.c), so the next open sorting a file this size reads its keys
         * into memory already faulted in rather than fresh zeroed pages. */
        if (!kb[i].data_borrowed) {
            pqt_free(kb[i].data);
            kb[i].data = NULL;
        }
        pqt_free(kb[i].str_offsets);
        kb[i].str_offsets = NULL;
        pqt_colbuf_free(&kb[i]);
    }
    pqt_mem_free(idx);
    pqt_mem_free(inv);
    pqt_mem_free(keep);
out:
    if (st == PQT_OK) {
        t->nrows = t->plan.nsel;
        t->rg_extent = pqt_plan_extent(&t->plan);
    }
    return st;
}
