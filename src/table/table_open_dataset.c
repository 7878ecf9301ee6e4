/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_open_dataset.c - a dataset's open: prune files before their footers are read, then
 * merge the rest (layer: table). docs/datasets.md.
 *
 * Cheapest first. A file's partition values are known from its path alone: the filter is
 * proved on them as if they were the statistics of a one-row row group (min = max = the
 * value), with the filter's other columns unknown, so a file the filter refutes is never
 * opened. The same prover, the same rules: `year in (2019, 2021)`, `survey like 'gaia%'` and
 * `year + 1 > 2020` prune as they would prune a row group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/healpix.h"
#include "scan/scan.h"
#include "table/table_int.h"
#include "util/mem.h"

/* Statistics of the slots from member i's hive values (unknown for other columns). */
static void member_stats(const pqt_table *t, const pqt_fprog *prog, const int *slot_file_col,
                         int64_t i, pqt_scan_stats *stats)
{
    for (int s = 0; s < pqt_scan_prog_ncols(prog); s++) {
        pqt_scan_stats *st = &stats[s];
        memset(st, 0, sizeof *st);
        st->null_count = -1;
        st->nan_count = -1;
        const char *v;
        if (slot_file_col[s] >= 0 && pqt_file_ds_hive_value(t->f, slot_file_col[s], i, &v))
            pqt_scan_value_stats(v, pqt_file_col(t->f, slot_file_col[s])->kind == PQT_INT64, st);
    }
}

/* keep[i] = false for every member the filter refutes on its partition values. */
static pqt_status prune_by_partition(const pqt_table *t, const pqt_filter *filter, bool *keep)
{
    pqt_scan_col *cols = NULL;
    int ncols = 0;
    PQT_TRY(pqt_tbl_scan_cols_at_open(t, &cols, &ncols));
    pqt_fprog *prog = NULL;
    pqt_status st = pqt_scan_compile(filter, cols, ncols, &prog);
    if (st != PQT_OK) {
        pqt_mem_free(cols);
        pqt_err_prefix("pqt_table_open: %s: filter: ", pqt_file_path(t->f));
        return st;
    }
    int nslots = pqt_scan_prog_ncols(prog);
    int *slot_file_col = pqt_malloc_array((size_t)nslots + 1, sizeof *slot_file_col);
    pqt_scan_stats *stats = pqt_malloc_array((size_t)nslots + 1, sizeof *stats);
    if (!slot_file_col || !stats) {
        st = pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
    } else {
        bool any = false;
        for (int s = 0; s < nslots; s++) {
            int ci = pqt_scan_prog_col(prog, s);
            const char *v;
            slot_file_col[s] = ci < t->ncols ? t->cols[ci].file_col : -1;
            any |= slot_file_col[s] >= 0 && pqt_file_ds_hive_value(t->f, slot_file_col[s], 0, &v);
        }
        for (int64_t i = 0; any && i < pqt_file_ds_nmembers(t->f); i++) {
            member_stats(t, prog, slot_file_col, i, stats);
            keep[i] = pqt_scan_prog_prove(prog, stats, 1) != PQT_TRI_NONE;
        }
    }
    pqt_mem_free(stats);
    pqt_mem_free(slot_file_col);
    pqt_scan_prog_free(prog);
    pqt_mem_free(cols);
    return st;
}

pqt_status pqt_tbl_dataset_at_open(pqt_table *t, const pqt_filter *filter)
{
    int64_t n = pqt_file_ds_nmembers(t->f);
    bool *keep = pqt_malloc_array((size_t)n + 1, sizeof *keep);
    if (!keep) return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
    for (int64_t i = 0; i < n; i++)
        keep[i] = true;
    pqt_status st = PQT_OK;
    if (pqt_scan_filter_nrules(filter) > 0 && !(t->opts.pushdown_off & PQT_PD_STATS) &&
        t->opts.row_lo == 0 && t->opts.row_hi == 0) /* a slice numbers every file's rows */
        st = prune_by_partition(t, filter, keep);
    if (st == PQT_OK) st = pqt_file_ds_finish(t->f, keep);
    pqt_mem_free(keep);
    return st;
}

pqt_status pqt_tbl_dataset_row_shift(pqt_table *t)
{
    int nrg = t->plan.nrg;
    int64_t *shift = pqt_malloc_array((size_t)nrg + 1, sizeof *shift);
    if (!shift) return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
    for (int rg = 0; rg < nrg; rg++)
        shift[rg] = t->plan.rg_start[rg] - pqt_file_rg_file_row0(t->f, rg);
    pqt_status st = pqt_plan_set_ri_shift(&t->plan, shift);
    pqt_mem_free(shift);
    return st;
}

int64_t pqt_tbl_dataset_files_pruned(const pqt_table *t, const pqt_rg_verdict *v)
{
    int64_t n = 0, cur = -1;
    bool covered = false, all_pruned = true;
    for (int rg = 0; rg <= t->plan.nrg; rg++) {
        int64_t m = rg < t->plan.nrg ? pqt_file_ds_rg_member(t->f, rg) : -2;
        if (m != cur) { /* members' row groups are consecutive */
            n += covered && all_pruned;
            cur = m;
            covered = false;
            all_pruned = true;
        }
        if (rg == t->plan.nrg || v[rg].what == PQT_RG_UNCOVERED) continue;
        covered = true;
        all_pruned &= v[rg].what == PQT_RG_PRUNED || v[rg].what == PQT_RG_PRUNED_INDEX ||
                      v[rg].what == PQT_RG_PRUNED_DICT || v[rg].what == PQT_RG_PRUNED_BLOOM;
    }
    return n;
}

/* ---- HATS: row groups by their HEALPix pixel ranges ---- */

/* Whether [lo, hi] (inclusive pixel numbers at order 29 shifted to the column's order)
 * meets one of the n half-open ranges r (sorted). */
static bool meets_ranges(const int64_t *r, int64_t n, int64_t lo, int64_t hi)
{
    int64_t a = 0, b = n; /* the first range ending after lo */
    while (a < b) {
        int64_t m = a + (b - a) / 2;
        if (r[2 * m + 1] <= lo)
            a = m + 1;
        else
            b = m;
    }
    return a < n && r[2 * a] <= hi;
}

/* keep_rg[rg] &= the row group's pixel column may hold a pixel of the cone's ranges. */
static pqt_status keep_by_cone(const pqt_table *t, const pqt_col *col, int order,
                               const pqt_scan_cone *c, bool *keep_rg)
{
    int64_t *r = NULL, n = 0;
    PQT_TRY(pqt_hpx_cone_ranges(c->ra0, c->dec0, c->radius, pqt_hpx_cone_order(c->radius), &r, &n));
    int shift = 2 * (PQT_HPX_MAX_ORDER - order);
    for (int64_t k = 0; k < n && shift > 0; k++) { /* to the column's order, still covering */
        r[2 * k] >>= shift;
        r[2 * k + 1] = (r[2 * k + 1] + ((int64_t)1 << shift) - 1) >> shift;
    }
    const pqt_file_meta *meta = pqt_file_footer(t->f);
    for (int rg = 0; rg < t->plan.nrg; rg++) {
        if (!keep_rg[rg]) continue;
        pqt_scan_stats st;
        pqt_scan_chunk_stats(meta, col, rg, &st);
        if ((st.flags & (PQT_SST_MIN | PQT_SST_MAX)) != (PQT_SST_MIN | PQT_SST_MAX) ||
            (st.flags & (PQT_SST_NO_ORDER | PQT_SST_SIGNED_ORDER | PQT_SST_UNSIGNED)))
            continue;
        keep_rg[rg] = meets_ranges(r, n, st.min.i, st.max.i);
    }
    pqt_mem_free(r);
    return PQT_OK;
}

pqt_status pqt_tbl_dataset_healpix(pqt_table *t, const pqt_filter *filter)
{
    const char *ra, *dec, *pixcol;
    int order, ci;
    enum { MAX_CONES = 16 };
    pqt_scan_cone cones[MAX_CONES];
    if ((t->opts.pushdown_off & PQT_PD_STATS) || !pqt_file_ds_hats(t->f, &ra, &dec) ||
        !pqt_file_ds_healpix_col(t->f, &pixcol, &order) || order < 0 || order > PQT_HPX_MAX_ORDER ||
        pqt_file_find_column(t->f, pixcol, &ci) != PQT_OK)
        return PQT_OK;
    const pqt_col *col = pqt_file_col(t->f, ci);
    if (col->kind != PQT_INT64 && col->kind != PQT_INT32 && col->kind != PQT_UINT64) return PQT_OK;
    int n = pqt_scan_filter_cones(filter, ra, dec, cones, MAX_CONES);
    if (n == 0) return PQT_OK;
    bool *keep_rg = pqt_malloc_array((size_t)t->plan.nrg + 1, sizeof *keep_rg);
    if (!keep_rg)
        return pqt_err(PQT_NOMEM, "pqt_table_open: %s: out of memory", pqt_file_path(t->f));
    for (int rg = 0; rg < t->plan.nrg; rg++)
        keep_rg[rg] = t->plan.sel[rg].nsel > 0;
    pqt_status st = PQT_OK;
    for (int c = 0; c < n && c < MAX_CONES && st == PQT_OK; c++)
        st = keep_by_cone(t, col, order, &cones[c], keep_rg);
    int64_t pruned = 0;
    for (int rg = 0; rg < t->plan.nrg; rg++)
        pruned += !keep_rg[rg] && t->plan.sel[rg].nsel > 0;
    if (st == PQT_OK && pruned > 0) st = pqt_plan_keep_groups(&t->plan, keep_rg);
    if (st == PQT_OK) {
        t->healpix_pruned = pruned;
        pqt_tbl_plan_settled(t);
    }
    pqt_mem_free(keep_rg);
    return st;
}

/* ---- what the open of a dataset decided, for the explain text ---- */

pqt_status pqt_tbl_dataset_explain(pqt_table *t)
{
    pqt_ds_counts c = pqt_file_ds_counts(t->f);
    char line[512];
    snprintf(line, sizeof line,
             "dataset: %lld files, %lld kept, %lld pruned by partition values before any "
             "footer was read, %lld pruned whole by statistics; %lld footers read%s\n",
             (long long)c.files, (long long)(c.files - c.files_pruned_partition),
             (long long)c.files_pruned_partition, (long long)t->files_pruned_stats,
             (long long)(c.footers_read + c.summary_used),
             c.summary_used ? " (the _metadata summary)" : "");
    PQT_TRY(pqt_tbl_explain_add(t, line));
    if (t->healpix_pruned > 0) {
        snprintf(line, sizeof line,
                 "HEALPix: %lld row groups held no pixel the cone can meet (_healpix_29 "
                 "statistics) and were dropped before the filter (listed above as outside the "
                 "slice)\n",
                 (long long)t->healpix_pruned);
        PQT_TRY(pqt_tbl_explain_add(t, line));
    }
    const char *ra, *dec;
    if (!pqt_file_ds_hats(t->f, &ra, &dec)) return PQT_OK;
    enum { SHOW = 64 }; /* partitions named; the rest counted */
    char buf[SHOW * 24 + 128];
    int len = snprintf(buf, sizeof buf, "HATS partitions kept (Norder/Npix):");
    int64_t shown = 0, kept = 0;
    for (int64_t i = 0; i < pqt_file_ds_nmembers(t->f); i++) {
        if (!pqt_file_ds_member_kept(t->f, i)) continue;
        int order;
        int64_t pix;
        pqt_file_ds_member_pixel(t->f, i, &order, &pix);
        kept++;
        if (shown < SHOW && len < (int)sizeof buf - 64) {
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %d/%lld", order, (long long)pix);
            shown++;
        }
    }
    if (kept > shown)
        len += snprintf(buf + len, sizeof buf - (size_t)len, " and %lld more",
                        (long long)(kept - shown));
    snprintf(buf + len, sizeof buf - (size_t)len, "\n");
    return pqt_tbl_explain_add(t, buf);
}
