/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_page_index.c - the column index prunes pages of a filter column (layer: scan;
 * docs/pruning.md, "Per row group", step 3).
 *
 * Each page's ColumnIndex entry becomes statistics in the prover's terms (scan_stats.c, the
 * same trust rules as the footer's), the conjunct is proved on them, and the rows of the
 * pages it refutes leave the row group's selection. Pages do not line up across columns:
 * the selection is in rows, so every other column (filter or payload) then reads, through
 * its own offset index, only the pages that still hold a selected row. Only flat leaves are
 * pruned (docs/pruning.md, "Nested data"); an index that does not fit its chunk is ignored.
 */
#include <string.h>

#include "scan/scan.h"
#include "util/error.h"
#include "util/mem.h"

/* A page said to hold only nulls must be believable: a required column has none, a null
 * count per page must agree, and without one the chunk's own null count must cover them.
 * parquet-mr with statistics off writes every page as a null page (datapage_v1-*-checksum):
 * an index whose null pages nothing confirms is not used at all. */
static bool null_pages_credible(const pqt_scan_pass *ps, const pqt_col *c, int rg,
                                const pqt_column_index *ci, const pqt_offset_index *oi,
                                int64_t rg_rows)
{
    int64_t null_rows = 0;
    for (int i = 0; i < ci->npages; i++) {
        if (!ci->null_pages[i]) continue;
        int64_t lo = oi->pages[i].first_row_index;
        int64_t rows = (i + 1 < oi->npages ? oi->pages[i + 1].first_row_index : rg_rows) - lo;
        if (c->max_def == 0 || (ci->null_counts && ci->null_counts[i] != rows)) return false;
        null_rows += rows;
    }
    if (null_rows == 0 || ci->null_counts) return true;
    const pqt_column_meta *cm = &ps->src->meta->row_groups[rg].columns[c->chunk_col].meta;
    return cm->has_stats && cm->stats.has_null_count && cm->stats.null_count >= null_rows;
}

static pqt_status prune_pages(const pqt_scan_pass *ps, int rg, int k, int slot,
                              const pqt_column_index *ci, const pqt_offset_index *oi,
                              pqt_sel *sel, int64_t *pruned_ret)
{
    const pqt_col *c = ps->slot_col[slot];
    int nslots = pqt_scan_prog_ncols(ps->prog);
    int64_t rg_rows = ps->rg_start[rg + 1] - ps->rg_start[rg];
    pqt_scan_stats *stats = pqt_calloc((size_t)nslots, sizeof *stats);
    pqt_run *keep = pqt_malloc_array((size_t)oi->npages, sizeof *keep);
    pqt_status st = PQT_OK;
    if (!stats || !keep) st = pqt_err(PQT_NOMEM, "out of memory pruning pages of '%s'", c->path);
    int64_t nkeep = 0, pruned = 0;
    for (int i = 0; st == PQT_OK && i < oi->npages; i++) {
        int64_t lo = oi->pages[i].first_row_index;
        int64_t hi = i + 1 < oi->npages ? oi->pages[i + 1].first_row_index : rg_rows;
        if (!pqt_sel_any(sel, lo, hi)) continue;
        pqt_scan_page_stats(ps->src->meta, c, rg, ci, i, hi - lo, &stats[slot]);
        if (pqt_scan_conj_prove(ps->prog, k, stats, hi - lo) == PQT_TRI_NONE) {
            pruned++;
            continue;
        }
        if (nkeep > 0 && keep[nkeep - 1].start + keep[nkeep - 1].len == lo)
            keep[nkeep - 1].len += hi - lo;
        else keep[nkeep++] = (pqt_run){lo, hi - lo};
    }
    if (st == PQT_OK && pruned > 0) {
        st = pqt_sel_intersect_runs(sel, keep, nkeep);
        if (st == PQT_OK) *pruned_ret += pruned;
    }
    pqt_mem_free(stats);
    pqt_mem_free(keep);
    return st;
}

pqt_status pqt_scan_page_index_prune(const pqt_scan_pass *ps, int rg, int k, pqt_sel *sel,
                                     int64_t *pruned_ret)
{
    if (pqt_scan_conj_ncols(ps->prog, k) != 1 || pqt_scan_conj_is_callback(ps->prog, k))
        return PQT_OK;
    int slot = pqt_scan_conj_cols(ps->prog, k)[0];
    const pqt_col *c = ps->slot_col[slot];
    if (!c || c->max_rep > 0 || c->is_list) return PQT_OK; /* the row index: statistics do it */
    const pqt_column_chunk *cc = &ps->src->meta->row_groups[rg].columns[c->chunk_col];
    if (!cc->has_column_index || !cc->has_offset_index) return PQT_OK;
    pqt_arena a = {0};
    pqt_column_index ci;
    pqt_offset_index oi;
    bool ok = false;
    /* the offset index comes from the file's cache when it has one: the reads of the
     * column after the filter take the same decode; a decode here counts for the slot */
    pqt_chunk_src src = *ps->src;
    src.counters = ps->counters ? &ps->counters[slot] : NULL;
    pqt_status st = pqt_chunk_page_index(&src, rg, c, &a, &ci, &oi, &ok);
    int64_t rg_rows = ps->rg_start[rg + 1] - ps->rg_start[rg];
    if (st == PQT_OK && ok && null_pages_credible(ps, c, rg, &ci, &oi, rg_rows))
        st = prune_pages(ps, rg, k, slot, &ci, &oi, sel, pruned_ret);
    pqt_arena_free(&a);
    return st;
}
