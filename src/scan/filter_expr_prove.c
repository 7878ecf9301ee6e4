/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr_prove.c - what statistics prove about a computed predicate (layer: scan).
 *
 * A placeholder: proves nothing (every row group may hold a TRUE row), which is always sound.
 * Interval arithmetic over the bounds and cone's bounding box replace it.
 */
#include "scan/filter_expr.h"

pqt_tri pqt_scan_cmp_prove(const fcmp *c, const pqt_scan_stats *stats, int64_t nrows)
{
    (void)c;
    (void)stats;
    (void)nrows;
    return PQT_TRI_SOME;
}
