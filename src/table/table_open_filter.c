/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_open_filter.c - a filter given at open narrows the read plan (layer: table).
 *
 * The filter is compiled against the table's columns (and the virtual row index), then the
 * scan layer's filter pass narrows a copy of the plan's per-row-group selections, which then
 * restricts the plan (read/plan.h, an operation on it): row groups the
 * statistics refute are never read, the rest keep only the rows passing. Every later read
 * goes through the plan, so payload columns decode survivors only. Everything is decided
 * here, at open, before the table is returned: nrows counts survivors from the start.
 */
#include <stdio.h>
#include <string.h>

#include "scan/scan.h"
#include "table/table_int.h"
#include "util/mem.h"
#include "util/par.h"
#include "util/philox.h"

/* With a MAML: the file columns no slot reads (its remap shadows them), in file order, into
 * hidden (may be NULL); their count, -1 when out of memory. */
static int hidden_file_cols(const pqt_table *t, int *hidden)
{
    if (!t->maml) return 0;
    int nf = pqt_file_ncols(t->f), n = 0;
    bool *read = pqt_calloc((size_t)nf + 1, sizeof *read);
    if (!read) return -1;
    for (int i = 0; i < t->ncols; i++)
        if (t->cols[i].file_col >= 0) read[t->cols[i].file_col] = true;
    for (int k = 0; k < nf; k++)
        if (!read[k] && pqt_file_col(t->f, k)->elem_kind != PQT_NONE) {
            if (hidden) hidden[n] = k;
            n++;
        }
    pqt_mem_free(read);
    return n;
}

pqt_status pqt_tbl_scan_cols_at_open(const pqt_table *t, pqt_scan_col **cols_ret, int *n_ret)
{
    int n = t->ncols, nh = hidden_file_cols(t, NULL);
    int *hidden = nh > 0 ? pqt_malloc_array((size_t)nh, sizeof *hidden) : NULL;
    if (nh > 0 && hidden && hidden_file_cols(t, hidden) != nh) nh = -1;
    /* the hidden names live after the list, in the same block */
    size_t names = 0;
    for (int k = 0; k < nh && hidden; k++)
        names += strlen(pqt_file_col(t->f, hidden[k])->path) + sizeof " (file column)";
    pqt_scan_col *cols =
        nh < 0 || (nh > 0 && !hidden)
            ? NULL
            : pqt_malloc_array(1, ((size_t)n + 1 + (size_t)nh) * sizeof *cols + names);
    if (!cols) {
        pqt_mem_free(hidden);
        return pqt_err(PQT_NOMEM, "out of memory listing columns for a filter");
    }
    for (int i = 0; i < n; i++) {
        const pqt_tcol *c = &t->cols[i];
        cols[i] = (pqt_scan_col){c->name, c->kind, c->time_unit};
    }
    cols[n] = (pqt_scan_col){PQT_TBL_ROW_INDEX, PQT_INT64, -1};
    char *at = (char *)(cols + n + 1 + nh);
    for (int k = 0; k < nh; k++) {
        const pqt_col *fc = pqt_file_col(t->f, hidden[k]);
        int len = sprintf(at, PQT_TBL_HIDDEN_FMT, fc->path);
        cols[n + 1 + k] =
            (pqt_scan_col){at, fc->is_list ? fc->elem_kind | PQT_LIST : fc->kind, fc->time_unit};
        at += len + 1;
    }
    pqt_mem_free(hidden);
    *cols_ret = cols;
    *n_ret = n + 1 + nh;
    return PQT_OK;
}

/* The line saying where a limit stopped the pass, into line (cap bytes): "limit N reached in
 * row group R of G: row groups A-B not read", or that it was not reached. */
static void limit_line(const pqt_table *t, int64_t limit, const pqt_rg_verdict *v, char *line,
                       size_t cap)
{
    int first = -1, last = -1, nrg = t->plan.nrg;
    int64_t ahead = 0;
    for (int rg = 0; rg < nrg; rg++) {
        if (v[rg].what != PQT_RG_LIMIT) continue;
        if (first < 0) first = rg;
        last = rg;
        ahead += v[rg].read_ahead;
    }
    if (first < 0) {
        snprintf(line, cap, "limit %lld: every row group was needed\n", (long long)limit);
        return;
    }
    int at = first == 0 ? snprintf(line, cap, "limit 0: no row group read")
                        : snprintf(line, cap, "limit %lld reached in row group %d of %d",
                                   (long long)limit, first, nrg);
    if (at < 0 || (size_t)at >= cap) return;
    if (first == 0) {
        snprintf(line + at, cap - (size_t)at, "\n");
    } else if (first == last) {
        snprintf(line + at, cap - (size_t)at, ": row group %d not read%s\n", first + 1,
                 ahead ? " (read ahead by a parallel worker, its rows dropped)" : "");
    } else {
        snprintf(line + at, cap - (size_t)at, ": row groups %d-%d not read", first + 1, last + 1);
        at += (int)strlen(line + at);
        if (ahead && (size_t)at < cap)
            snprintf(line + at, cap - (size_t)at,
                     " (%lld read ahead by parallel workers, their rows dropped)",
                     (long long)ahead);
        at += (int)strlen(line + at);
        if ((size_t)at < cap) snprintf(line + at, cap - (size_t)at, "\n");
    }
}

/* The plan part of pqt_table_explain, fixed at open. */
static char *explain_text(const pqt_table *t, const pqt_fprog *prog, const int *order,
                          const pqt_rg_verdict *v, int64_t limit)
{
    pqt_buf b = {0};
    char line[640], conj[512];
    int nconj = pqt_scan_prog_nconj(prog);
    bool ok = true;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        int len_ = snprintf(line, sizeof line, __VA_ARGS__);                                       \
        if (len_ > (int)sizeof line - 1) len_ = (int)sizeof line - 1;                              \
        ok = ok && pqt_buf_append(&b, line, (size_t)len_) == PQT_OK;                               \
    } while (0)
    PUT("filter: %d conjunct%s, by cost (later row groups re-rank by measured selectivity):\n",
        nconj, nconj == 1 ? "" : "s");
    for (int i = 0; i < nconj; i++) {
        pqt_scan_conj_text(prog, order[i], conj, sizeof conj);
        PUT("  %d. %s\n", order[i] + 1, conj);
    }
    for (int rg = 0; rg < t->plan.nrg; rg++) {
        const pqt_rg_verdict *r = &v[rg];
        switch (r->what) {
        case PQT_RG_UNCOVERED:
            PUT("row group %d: outside the slice\n", rg + 1);
            break;
        case PQT_RG_PRUNED:
            pqt_scan_conj_text(prog, r->by_conj, conj, sizeof conj);
            PUT("row group %d: pruned by statistics (%s), %lld rows skipped\n", rg + 1, conj,
                (long long)r->rows_in);
            break;
        case PQT_RG_PRUNED_INDEX:
        case PQT_RG_PRUNED_DICT:
        case PQT_RG_PRUNED_BLOOM:
            pqt_scan_conj_text(prog, r->by_conj, conj, sizeof conj);
            PUT("row group %d: pruned by %s (%s), %lld rows skipped\n", rg + 1,
                r->what == PQT_RG_PRUNED_INDEX  ? "the page index"
                : r->what == PQT_RG_PRUNED_DICT ? "the dictionary"
                                                : "the bloom filter",
                conj, (long long)r->rows_in);
            break;
        case PQT_RG_ALL:
            PUT("row group %d: every row passes by %s, %lld rows kept, no filter column "
                "read\n",
                rg + 1, r->dict_all ? "the dictionary" : "statistics", (long long)r->rows_in);
            break;
        case PQT_RG_LIMIT:
            PUT("row group %d: after the limit, %s\n", rg + 1,
                r->read_ahead ? "read ahead by a parallel worker, its rows dropped" : "not read");
            break;
        default: {
            char ord[64] = "";
            size_t at = 0;
            for (int i = 0; i < r->nconj_read && i < PQT_RG_ORDER_MAX && at < sizeof ord; i++)
                at += (size_t)snprintf(ord + at, sizeof ord - at, "%s%d", i ? ", " : "",
                                       r->order[i] + 1);
            static const char *const kinds[] = {"none", "runs", "bitmap", "decode then filter"};
            PUT("row group %d: filtered, %lld of %lld rows kept (conjuncts %s%s evaluated; "
                "%lld pages pruned by the page index; selection: %s)\n",
                rg + 1, (long long)r->rows_out, (long long)r->rows_in, ord,
                r->nconj_read > PQT_RG_ORDER_MAX ? ", ..." : "", (long long)r->pages_pruned,
                kinds[r->sel_kind & 3]);
        }
        }
    }
    if (limit >= 0) {
        char lim[256];
        limit_line(t, limit, v, lim, sizeof lim);
        PUT("%s", lim);
    }
#undef PUT
    if (!ok || pqt_buf_append(&b, "", 1) != PQT_OK) {
        pqt_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

/* The row-group fields of pqt_scan_counts from the pass's verdicts. */
static void tally_verdicts(pqt_scan_counts *c, const pqt_rg_verdict *v, int nrg)
{
    for (int rg = 0; rg < nrg; rg++) {
        c->row_groups_pruned_stats += v[rg].what == PQT_RG_PRUNED;
        c->row_groups_all += v[rg].what == PQT_RG_ALL;
        c->row_groups_pruned_index += v[rg].what == PQT_RG_PRUNED_INDEX;
        c->row_groups_pruned_dictionary += v[rg].what == PQT_RG_PRUNED_DICT;
        c->row_groups_pruned_bloom += v[rg].what == PQT_RG_PRUNED_BLOOM;
        c->row_groups_not_read_limit += v[rg].what == PQT_RG_LIMIT && !v[rg].read_ahead;
        c->pages_pruned_index += v[rg].pages_pruned;
        c->bloom_filters_read += v[rg].blooms_read;
        if (v[rg].what != PQT_RG_FILTERED) continue;
        c->row_groups_sel_runs += v[rg].sel_kind == PQT_SELK_RUNS;
        c->row_groups_sel_bitmap += v[rg].sel_kind == PQT_SELK_BITMAP;
        c->row_groups_decode_then_filter += v[rg].sel_kind == PQT_SELK_DECODE_THEN_FILTER;
    }
}

pqt_status pqt_tbl_filter_slot_cols(const pqt_table *t, const pqt_fprog *prog, int ncols,
                                    const pqt_col ***slot_col_ret)
{
    int nslots = pqt_scan_prog_ncols(prog);
    const pqt_col **slot_col = pqt_calloc((size_t)nslots + 1, sizeof *slot_col);
    int nh = ncols - t->ncols - 1;
    int *hidden = nh > 0 ? pqt_malloc_array((size_t)nh, sizeof *hidden) : NULL;
    if (!slot_col || (nh > 0 && (!hidden || hidden_file_cols(t, hidden) != nh))) {
        pqt_mem_free(hidden);
        pqt_mem_free(slot_col);
        return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory applying a filter",
                       pqt_file_path(t->f));
    }
    for (int s = 0; s < nslots; s++) {
        int ci = pqt_scan_prog_col(prog, s);
        slot_col[s] = ci < t->ncols    ? pqt_file_col(t->f, t->cols[ci].file_col)
                      : ci == t->ncols ? NULL /* the row index */
                                       : pqt_file_col(t->f, hidden[ci - t->ncols - 1]);
    }
    pqt_mem_free(hidden);
    *slot_col_ret = slot_col;
    return PQT_OK;
}

pqt_status pqt_tbl_filter_at_open(pqt_table *t, const pqt_filter *filter, int64_t limit)
{
    pqt_scan_col *cols = NULL;
    int ncols = 0;
    PQT_TRY(pqt_tbl_scan_cols_at_open(t, &cols, &ncols));
    pqt_fprog *prog = NULL;
    pqt_status st = pqt_scan_compile(filter, cols, ncols, &prog);
    if (st != PQT_OK) {
        pqt_err_prefix("pqt_table_open: %s: ", pqt_file_path(t->f));
        pqt_mem_free(cols);
        return st;
    }
    int nslots = pqt_scan_prog_ncols(prog), nconj = pqt_scan_prog_nconj(prog);
    const pqt_col **slot_col = NULL;
    pqt_tbl_keep_pass kp;
    memset(&kp, 0, sizeof kp);
    pqt_rg_verdict *verdicts = pqt_calloc((size_t)t->plan.nrg + 1, sizeof *verdicts);
    int *order = pqt_calloc((size_t)nconj + 1, sizeof *order);
    pqt_read_counters *counters = pqt_calloc((size_t)nslots + 1, sizeof *counters);
    if (!verdicts || !order || !counters) {
        st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory applying a filter",
                     pqt_file_path(t->f));
        goto done;
    }
    st = pqt_tbl_filter_slot_cols(t, prog, ncols, &slot_col);
    if (st != PQT_OK) goto done;
    pqt_chunk_src src = pqt_file_chunk_src(t->f);
    pqt_scan_pass pass = {&src,
                          prog,
                          slot_col,
                          t->plan.rg_start,
                          t->plan.nrg,
                          pqt_par_threads(t->threads),
                          t->opts.pushdown_off,
                          counters,
                          limit >= 0 ? limit + 1 : 0,
                          t->opts.sample_set,
                          t->opts.sample_fraction,
                          t->opts.sample_seed,
                          t->plan.ri_shift,
                          NULL,
                          0,
                          NULL};
    /* the filter columns the pass hands out, to be the payload's values (a filter column
     * decoded once: docs/pruning.md, "A filter column kept for the payload") */
    pqt_tbl_keep_pass_prepare(t, prog, slot_col, &kp);
    pass.keep = kp.keep;
    pass.nkeep = kp.nkeep;
    pass.keep_dst_row = kp.dst_row;
    /* the rows a limit counts are the sample's: its seed is settled now, and the sample
     * step after the filter draws with it (docs/sampling.md) */
    if (limit >= 0 && pass.sampled && pass.sample_fraction > 0 && pass.sample_fraction < 1 &&
        pass.sample_seed <= 0)
        pass.sample_seed = t->opts.sample_seed = pqt_philox_fresh_seed();
    pqt_sel *sels = NULL;
    st = pqt_plan_sels_copy(&t->plan, &sels);
    if (st == PQT_OK) st = pqt_scan_filter(&pass, sels, verdicts);
    for (int s = 0; s < nslots; s++) { /* what the filter columns cost counts for them */
        int ci = pqt_scan_prog_col(prog, s);
        if (ci < t->ncols) pqt_tbl_scan_add(t, &t->cols[ci], &counters[s]);
    }
    if (st == PQT_OK) {
        st = pqt_plan_restrict(&t->plan, sels); /* takes sels */
        sels = NULL;
    }
    if (st == PQT_OK) pqt_tbl_keep_stage(t, &kp, slot_col);
    pqt_plan_sels_free(sels, t->plan.nrg);
    if (st != PQT_OK) {
        pqt_err_prefix("pqt_table_open: %s: filter: ", pqt_file_path(t->f));
        goto done;
    }
    pqt_tbl_plan_settled(t);
    pqt_scan_conj_order(prog, order);
    t->explain = explain_text(t, prog, order, verdicts, limit);
    if (!t->explain) {
        st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
        goto done;
    }
    tally_verdicts(&t->scan_rg, verdicts, t->plan.nrg);
    if (pqt_file_is_dataset(t->f)) t->files_pruned_stats = pqt_tbl_dataset_files_pruned(t, verdicts);
    /* The filter read its columns: their qc rules are checked now, over the rows it kept
     * (docs/qc.md: qc sees already-filtered rows), on the values kept when there are (else
     * read again and dropped: such a column is still unread when the open returns). */
    for (int s = 0; s < nslots && st == PQT_OK; s++) {
        int ci = pqt_scan_prog_col(prog, s);
        if (ci < t->ncols) st = pqt_tbl_keep_qc_probe(t, ci, "pqt_table_open");
    }
done:
    pqt_tbl_keep_pass_free(&kp, t->plan.nrg);
    pqt_mem_free(order);
    pqt_mem_free(counters);
    pqt_mem_free(verdicts);
    pqt_mem_free(slot_col);
    pqt_scan_prog_free(prog);
    pqt_mem_free(cols);
    return st;
}

int64_t pqt_table_explain(const pqt_table *t, char *buf, size_t cap)
{
    const char *text = !t ? "" : t->explain ? t->explain
                                            : "no filter: every row of the slice is kept\n";
    return snprintf(buf, cap, "%s", text);
}
