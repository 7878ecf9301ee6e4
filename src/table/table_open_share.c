/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_open_share.c - one share of an open's rows, for one of several processes opening the
 * same file or dataset (layer: table). docs/mpi.md, "The share".
 *
 * Every process computes every share from the same footers, so the shares need no message
 * to agree: they are disjoint, cover the rows, and lie in process order. What is shared is
 * what the open can still produce after what the footers alone decide: the slice, the
 * partition and HEALPix pruning already narrowed the plan, and the filter's statistics
 * refute row groups here; the filter pass then runs within each share.
 */
#include <stdio.h>
#include <string.h>

#include "scan/scan.h"
#include "table/table_int.h"
#include "util/mem.h"

/* keep[rg] = false for the row groups the filter's footer statistics refute. */
static pqt_status refute_by_stats(const pqt_table *t, const pqt_filter *filter, bool *keep)
{
    pqt_scan_col *cols = NULL;
    int ncols = 0;
    PQT_TRY(pqt_tbl_scan_cols_at_open(t, &cols, &ncols));
    pqt_fprog *prog = NULL;
    pqt_status st = pqt_scan_compile(filter, cols, ncols, &prog);
    const pqt_col **slot_col = NULL;
    if (st == PQT_OK) st = pqt_tbl_filter_slot_cols(t, prog, ncols, &slot_col);
    int nslots = st == PQT_OK ? pqt_scan_prog_ncols(prog) : 0;
    pqt_scan_stats *stats = pqt_calloc((size_t)nslots + 1, sizeof *stats);
    if (st == PQT_OK && !stats)
        st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
    const pqt_file_meta *meta = pqt_file_footer(t->f);
    for (int rg = 0; st == PQT_OK && rg < t->plan.nrg; rg++) {
        if (!keep[rg]) continue;
        for (int s = 0; s < nslots; s++) {
            memset(&stats[s], 0, sizeof stats[s]);
            stats[s].null_count = stats[s].nan_count = -1;
            if (slot_col[s]) pqt_scan_chunk_stats(meta, slot_col[s], rg, &stats[s]);
        }
        keep[rg] = pqt_scan_prog_prove(prog, stats, t->plan.sel[rg].nrows) != PQT_TRI_NONE;
    }
    if (st != PQT_OK) pqt_err_prefix("pqt_table_open: %s: filter: ", pqt_file_path(t->f));
    pqt_mem_free(stats);
    pqt_mem_free(slot_col);
    pqt_scan_prog_free(prog);
    pqt_mem_free(cols);
    return st;
}

/* Compressed bytes of row group rg (its chunks' sizes when the total is missing). */
static int64_t rg_bytes(const pqt_file_meta *m, int rg)
{
    const pqt_row_group *g = &m->row_groups[rg];
    if (g->has_total_compressed_size && g->total_compressed_size > 0)
        return g->total_compressed_size;
    int64_t n = 0;
    for (int c = 0; c < g->ncolumns; c++)
        if (g->columns[c].meta.total_compressed_size > 0)
            n += g->columns[c].meta.total_compressed_size;
    return n;
}

/* The share (0-based) a unit at [at, at + w) of total belongs to: the one holding its middle,
 * so a large row group goes to the share it mostly falls in. */
static int owner_of(int64_t at, int64_t w, int64_t total, int nparts)
{
    unsigned __int128 mid = (unsigned __int128)(uint64_t)at * 2 + (uint64_t)w;
    int k = (int)(mid * (unsigned)nparts / ((unsigned __int128)(uint64_t)total * 2));
    return k < nparts ? k : nparts - 1;
}

/* The first of the selected rows numbered [lo, hi) (0-based, counting from the first
 * selected row of every kept row group in order) that part gets. */
static int64_t row_cut(int64_t total, int part, int nparts)
{
    return (int64_t)((unsigned __int128)(uint64_t)total * (unsigned)part / (unsigned)nparts);
}

/* The row (row-group relative) of sel's k-th selected row (0-based); nrows when none. */
static int64_t nth_selected(const pqt_sel *sel, int64_t k)
{
    pqt_sel_cursor cur = {0};
    int64_t start, len;
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &start, &len)) {
        if (k < len) return start + k;
        k -= len;
    }
    return sel->nrows;
}

/* Keep the selected rows [lo, hi) of the kept row groups' selected rows in order. */
static pqt_status share_rows(pqt_table *t, const bool *keep, int part, int nparts)
{
    int nrg = t->plan.nrg;
    int64_t total = 0;
    for (int rg = 0; rg < nrg; rg++)
        if (keep[rg]) total += t->plan.sel[rg].nsel;
    int64_t lo = row_cut(total, part, nparts), hi = row_cut(total, part + 1, nparts);
    pqt_sel *sels = NULL;
    PQT_TRY(pqt_plan_sels_copy(&t->plan, &sels));
    pqt_status st = PQT_OK;
    int64_t at = 0; /* selected rows of the kept row groups before rg */
    for (int rg = 0; st == PQT_OK && rg < nrg; rg++) {
        pqt_sel *s = &sels[rg];
        int64_t n = keep[rg] ? s->nsel : 0;
        int64_t a = lo > at ? lo - at : 0, b = hi - at < n ? hi - at : n;
        if (!keep[rg] || a >= b) {
            pqt_sel_init_none(s, s->nrows);
        } else if (a > 0 || b < n) {
            int64_t r0 = nth_selected(s, a), r1 = b < n ? nth_selected(s, b) : s->nrows;
            st = pqt_sel_intersect_range(s, r0, r1);
        }
        at += n;
    }
    if (st != PQT_OK) {
        pqt_plan_sels_free(sels, nrg);
        return st;
    }
    return pqt_plan_restrict(&t->plan, sels);
}

pqt_status pqt_tbl_share_at_open(pqt_table *t, const pqt_filter *filter, int part, int nparts,
                                 bool by_rows)
{
    int nrg = t->plan.nrg;
    bool *keep = pqt_malloc_array((size_t)nrg + 1, sizeof *keep);
    if (!keep) return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
    for (int rg = 0; rg < nrg; rg++)
        keep[rg] = t->plan.sel[rg].nsel > 0;
    pqt_status st = PQT_OK;
    if (pqt_scan_filter_nrules(filter) > 0 && !(t->opts.pushdown_off & PQT_PD_STATS))
        st = refute_by_stats(t, filter, keep);
    if (st == PQT_OK && by_rows) st = share_rows(t, keep, part, nparts);
    if (st == PQT_OK && !by_rows) {
        const pqt_file_meta *m = pqt_file_footer(t->f);
        int64_t total = 0, at = 0;
        bool by_bytes = true;
        for (int rg = 0; rg < nrg; rg++)
            if (keep[rg]) total += rg_bytes(m, rg);
        if (total <= 0) { /* no sizes (constant chunks only): balance by rows */
            by_bytes = false;
            for (int rg = 0; rg < nrg; rg++)
                if (keep[rg]) total += t->plan.sel[rg].nsel;
        }
        for (int rg = 0; rg < nrg; rg++) {
            if (!keep[rg]) continue;
            int64_t w = by_bytes ? rg_bytes(m, rg) : t->plan.sel[rg].nsel;
            keep[rg] = owner_of(at, w, total, nparts) == part;
            at += w;
        }
        st = pqt_plan_keep_groups(&t->plan, keep);
    }
    pqt_mem_free(keep);
    if (st != PQT_OK) return st;
    pqt_tbl_plan_settled(t);
    t->nrows_unfiltered = t->plan.nsel;
    return PQT_OK;
}

void pqt_tbl_share_line(const pqt_table *t, int part, int nparts, bool by_rows, char *line,
                        size_t cap)
{
    int first = -1, last = -1;
    for (int rg = 0; rg < t->plan.nrg; rg++)
        if (t->plan.sel[rg].nsel > 0) {
            if (first < 0) first = rg;
            last = rg;
        }
    int at = snprintf(line, cap, "share %d of %d (%s): ", part + 1, nparts,
                      by_rows ? "exact rows" : "row groups balanced by bytes");
    if (at < 0 || (size_t)at >= cap) return;
    if (first < 0)
        snprintf(line + at, cap - (size_t)at, "no rows\n");
    else
        snprintf(line + at, cap - (size_t)at, "row groups %d-%d, %lld rows before the filter\n",
                 first + 1, last + 1, (long long)t->nrows_unfiltered);
}
