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
#include <stdio.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/sort_spec.h"
#include "table/sort_decimal.h"
#include "table/sort_engine.h"
#include "table/table_int.h"
#include "util/mem.h"
#include "util/par.h"

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
                           pqt_file_path(t->f), name, pqt_tbl_suggest(t, name, hint, sizeof hint));
        }
        const pqt_tcol *c = &t->cols[ci];
        if (c->kind == PQT_NONE)
            return pqt_err(PQT_BAD_SORT,
                           "pqt_table_open: %s: sort key '%s' has a type this "
                           "library cannot read",
                           pqt_file_path(t->f), name);
        if (c->kind & (PQT_LIST | PQT_VECTOR))
            return pqt_err(PQT_BAD_SORT,
                           "pqt_table_open: %s: sort key '%s' is a "
                           "variable-length list column; sorting only supports "
                           "scalar columns",
                           pqt_file_path(t->f), name);
    }
    return PQT_OK;
}

pqt_status pqt_tbl_explain_add(pqt_table *t, const char *line)
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

/* A limit without a sort: the plan keeps its first `limit` rows. */
static pqt_status limit_only(pqt_table *t, int64_t limit)
{
    pqt_status st = pqt_plan_limit(&t->plan, limit);
    if (st != PQT_OK) {
        pqt_err_prefix("pqt_table_open: %s: ", pqt_file_path(t->f));
        return st;
    }
    char line[128];
    snprintf(line, sizeof line, "limit: the first %lld rows kept\n", (long long)limit);
    return pqt_tbl_explain_add(t, line);
}

/* One sort at open, stage by stage: the keys read over the plan, the order, the plan's
 * permutation and, for a top-n, the key columns made resident. */
typedef struct open_sort {
    pqt_table *t;
    const pqt_sort_spec *spec;
    const char *path;
    int threads;
    int64_t n;            /* plan rows sorted */
    int64_t keep_n;       /* rows kept: n, or the limit of a top-n */
    pqt_colbuf first_key; /* the first key as the top-n pass read it (elem_kind 0: not) */
    pqt_colbuf kb[PQT_SORT_MAX_KEYS];
    int kci[PQT_SORT_MAX_KEYS];
    pqt_sort_exact ex[PQT_SORT_MAX_KEYS]; /* decimal keys in exact order (sort_decimal.h) */
    int64_t *idx;                         /* the order: keep_n plan rows */
    pqt_colbuf sorted[PQT_SORT_MAX_KEYS]; /* a top-n's keys over its kept rows, in order */
    pqt_tbl_qc_note *notes;               /* with sorted: their qc warnings */
} open_sort;

static void open_sort_free(open_sort *o)
{
    pqt_colbuf_free(&o->first_key); /* kept only when the sort failed before taking it */
    for (int i = 0; i < o->spec->nkeys; i++) {
        pqt_sort_exact_free(&o->ex[i]);
        /* The key values (and string offsets) were read for this sort only: large blocks go
         * to the cache (mem.c), so the next open sorting a file this size reads its keys
         * into memory already faulted in rather than fresh zeroed pages. */
        if (!o->kb[i].data_borrowed) {
            pqt_free(o->kb[i].data);
            o->kb[i].data = NULL;
        }
        pqt_free(o->kb[i].str_offsets);
        o->kb[i].str_offsets = NULL;
        pqt_colbuf_free(&o->kb[i]);
        pqt_colbuf_free(&o->sorted[i]);
    }
    pqt_mem_free(o->notes);
    pqt_mem_free(o->idx);
}

/* A top-n on a first key without nulls_first reads only the row groups that can hold one
 * of its rows (statistics, PQT_OPT_PUSHDOWN_STATS); the key as read is kept for the sort. */
static pqt_status prune_groups(open_sort *o, int64_t limit)
{
    pqt_table *t = o->t;
    const pqt_sort_spec *spec = o->spec;
    if (limit < 0 || limit >= t->plan.nsel || spec->nulls_first[0] ||
        (t->opts.pushdown_off & PQT_PD_STATS))
        return PQT_OK;
    int nread = 0, of = 0;
    PQT_TRY(pqt_tbl_top_n_row_groups(t, spec->names[0], spec->desc[0], limit, o->threads, &nread,
                                     &of, &o->first_key));
    if (nread == of) return PQT_OK;
    char line[1024];
    snprintf(line, sizeof line,
             "top-n: the keys of %d of %d row groups read (the statistics of "
             "'%s' rule out the rest)\n",
             nread, of, spec->names[0]);
    return pqt_tbl_explain_add(t, line);
}

/* Key i's values over the plan rows, in plan order. */
static pqt_status read_key(open_sort *o, int i)
{
    pqt_table *t = o->t;
    const pqt_plan *p = &t->plan;
    if (i == 0 && o->first_key.elem_kind) { /* read by the top-n pass, over this plan */
        o->kb[0] = o->first_key;
        memset(&o->first_key, 0, sizeof o->first_key);
        return PQT_OK;
    }
    if (o->kci[i] < 0) { /* the row index: 1-based file rows, ascending in plan order */
        PQT_TRY(pqt_tbl_buf_new(&o->kb[i], PQT_INT64, false, 0, false, p->nsel, p->nsel));
        return pqt_plan_file_rows(p, (int64_t *)o->kb[i].data);
    }
    pqt_tcol *c = &t->cols[o->kci[i]];
    pqt_read_counters rc = {0};
    pqt_status st = pqt_sort_exact_read(t, o->kci[i], o->threads, &o->ex[i]);
    if (st == PQT_OK && !o->ex[i].nparts) {
        pqt_read_src src = pqt_file_read_src(t->f);
        pqt_read_req rq = pqt_read_req_plan(&src, pqt_file_col(t->f, c->file_col), p);
        rq.threads = o->threads;
        rq.counters = &rc;
        st = pqt_read_column(&rq, &o->kb[i]);
        pqt_tbl_scan_add(t, c, &rc);
    }
    if (st != PQT_OK) pqt_err_prefix("pqt_table_open: %s: sort key '%s': ", o->path, c->name);
    return st;
}

/* The keys, over the surviving rows in plan order (a key named twice is read once). */
static pqt_status read_keys(open_sort *o)
{
    for (int i = 0; i < o->spec->nkeys; i++) {
        o->kci[i] = pqt_tbl_find(o->t, o->spec->names[i]);
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= o->kci[j] == o->kci[i];
        if (!dup) PQT_TRY(read_key(o, i));
    }
    return PQT_OK;
}

/* The order of the plan rows under the keys into o->idx (the first keep_n of it). */
static pqt_status order_rows(open_sort *o)
{
    const pqt_sort_spec *spec = o->spec;
    pqt_sort_key sk[2 * PQT_SORT_MAX_KEYS]; /* an int128 decimal key gives two */
    int nek = 0;
    for (int i = 0; i < spec->nkeys; i++) {
        /* a repeated key uses what its first naming read (later namings read nothing) */
        int first = i;
        for (int j = 0; j < i; j++)
            if (o->kci[j] == o->kci[i]) {
                first = j;
                break;
            }
        if (o->ex[first].nparts) {
            pqt_sort_exact_keys(&o->ex[first], spec->desc[i], spec->nulls_first[i], sk, &nek);
            continue;
        }
        int ek = o->kci[i] < 0 ? PQT_INT64 : PQT_KIND_ELEMENT(o->t->cols[o->kci[i]].kind);
        sk[nek++] = (pqt_sort_key){&o->kb[first], ek, spec->desc[i], spec->nulls_first[i]};
    }
    if (o->keep_n < o->n) {
        int64_t got = 0;
        return pqt_sort_top(sk, nek, o->n, o->keep_n, o->idx, &got, o->threads, "pqt_table_open");
    }
    for (int64_t i = 0; i < o->n; i++)
        o->idx[i] = i;
    return pqt_sort_rows(sk, nek, o->idx, o->n, o->threads, "pqt_table_open");
}

/* A top-n keeps its key columns resident (n rows: a cheap gather); a full sort releases
 * them (docs/sort.md: read whole, then released), since gathering every row of every key
 * (strings above all) costs more than a later first touch that may never come. Keys kept
 * resident are this open's first read of them: their qc rules apply now, to the kept rows
 * (a full sort's keys meet theirs at their first touch). */
static pqt_status gather_keys(open_sort *o)
{
    int nk = o->spec->nkeys;
    for (int i = 0; i < nk; i++)
        if (o->kb[i].elem_kind && o->kci[i] >= 0)
            PQT_TRY(pqt_tbl_buf_gather(&o->kb[i], NULL, o->idx, o->keep_n, 0, &o->sorted[i]));
    o->notes = pqt_calloc((size_t)nk, sizeof *o->notes);
    if (!o->notes) return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", o->path);
    for (int i = 0; i < nk; i++)
        o->notes[i].rule = -1;
    for (int i = 0; i < nk; i++)
        if (o->kb[i].elem_kind && o->kci[i] >= 0)
            PQT_TRY(pqt_tbl_qc_check(o->t, &o->t->cols[o->kci[i]], &o->sorted[i], "pqt_table_open",
                                     &o->notes[i]));
    return PQT_OK;
}

/* The plan takes the order (a top-n: narrowed to its rows first); a top-n's keys become
 * resident. Nothing fails after the plan changed. */
static pqt_status commit_order(open_sort *o)
{
    pqt_table *t = o->t;
    int64_t *idx = o->idx;
    o->idx = NULL; /* the plan takes it, also on failure */
    pqt_status st = o->keep_n < o->n ? pqt_plan_take(&t->plan, idx, o->keep_n)
                                     : pqt_plan_permute(&t->plan, idx);
    if (st != PQT_OK) {
        pqt_err_prefix("pqt_table_open: %s: ", o->path);
        return st;
    }
    for (int i = 0; o->notes && i < o->spec->nkeys; i++) {
        if (!o->kb[i].elem_kind || o->kci[i] < 0) continue;
        pqt_tcol *c = &t->cols[o->kci[i]];
        c->buf = o->sorted[i];
        memset(&o->sorted[i], 0, sizeof o->sorted[i]);
        c->residency = PQT_RES_FULL;
    }
    for (int i = 0; o->notes && i < o->spec->nkeys; i++)
        pqt_tbl_qc_emit(t, &o->notes[i]);
    return PQT_OK;
}

/* The sort's lines of the explain text; nsurv: the survivors before a top-n skipped row
 * groups (the plan may hold fewer: those groups are cut too). */
static pqt_status explain_sort(open_sort *o, int64_t limit, int64_t nsurv)
{
    char line[1024];
    int at = snprintf(line, sizeof line, "sort: ");
    pqt_sort_spec_text(o->spec, line + at, sizeof line - (size_t)at - 64);
    at = (int)strlen(line);
    if (o->keep_n < nsurv)
        snprintf(line + at, sizeof line - (size_t)at,
                 "\nlimit: the first %lld rows of the "
                 "sorted order kept (of %lld)\n",
                 (long long)o->keep_n, (long long)nsurv);
    else if (limit >= 0)
        snprintf(line + at, sizeof line - (size_t)at, "\nlimit: %lld (every row kept)\n",
                 (long long)limit);
    else
        snprintf(line + at, sizeof line - (size_t)at, "\n");
    return pqt_tbl_explain_add(o->t, line);
}

pqt_status pqt_tbl_sort_at_open(pqt_table *t, const pqt_sort_spec *spec, int64_t limit)
{
    pqt_status st = PQT_OK;
    if (!spec || spec->nkeys == 0) {
        st = limit >= 0 ? limit_only(t, limit) : PQT_OK;
        if (st == PQT_OK) pqt_tbl_plan_settled(t);
        return st;
    }
    open_sort o;
    memset(&o, 0, sizeof o);
    o.t = t;
    o.spec = spec;
    o.path = pqt_file_path(t->f);
    o.threads = pqt_par_threads(t->threads);
    int64_t nsurv = t->plan.nsel;
    st = prune_groups(&o, limit);
    o.n = t->plan.nsel;
    o.keep_n = limit >= 0 && limit < o.n ? limit : o.n;
    if (st == PQT_OK) {
        o.idx = pqt_malloc_array((size_t)o.keep_n + 1, sizeof *o.idx); /* O(n) for a top-n */
        if (!o.idx)
            st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory sorting %lld rows", o.path,
                         (long long)o.n);
    }
    if (st == PQT_OK) st = read_keys(&o);
    if (st == PQT_OK) st = order_rows(&o);
    if (st == PQT_OK && o.keep_n < o.n) st = gather_keys(&o);
    if (st == PQT_OK) st = commit_order(&o);
    if (st == PQT_OK) st = explain_sort(&o, limit, nsurv);
    open_sort_free(&o);
    if (st == PQT_OK) pqt_tbl_plan_settled(t);
    return st;
}
