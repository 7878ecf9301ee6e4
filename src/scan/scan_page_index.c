/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_page_index.c - the column index prunes pages of a filter column (layer: scan;
 * pushdown.md §2.2 step 3). Being written: until then no page is pruned.
 */
#include "scan/scan.h"

pqt_status pqt_scan_page_index_prune(const pqt_scan_pass *ps, int rg, int k, pqt_sel *sel,
                                     int64_t *pruned_ret)
{
    (void)ps, (void)rg, (void)k, (void)sel, (void)pruned_ret;
    return PQT_OK;
}
