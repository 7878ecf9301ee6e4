/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_resolve.h - one parsed clause compiled against one column (layer: scan). Private to
 * src/scan/filter_*.c.
 */
#ifndef PQT_SCAN_FILTER_RESOLVE_H
#define PQT_SCAN_FILTER_RESOLVE_H

#include "scan/filter_int.h"

/* Resolve clause n (of rule) against cols and fill lf (negate: the clause sits under an odd
 * number of NOTs). *col_ret = index into cols. On failure lf may hold allocations:
 * pqt_scan_leaf_free releases them (also safe on a zeroed leaf). */
pqt_status pqt_scan_leaf_build(const pqt_filter *f, const frule *rule, const fnode *n, int negate,
                               const pqt_scan_col *cols, int ncols, int *col_ret, fleaf *lf);
void pqt_scan_leaf_free(fleaf *lf);

/* The column named name (written at byte at of the rule) as an index into cols, with the
 * messages of a clause's column (nearest name, vectors, lists, unsupported kinds). */
pqt_status pqt_scan_col_find(const frule *rule, const char *name, int32_t at,
                             const pqt_scan_col *cols, int ncols, int *ci_ret);
/* "int64", "string", ... for messages. */
const char *pqt_scan_kind_text(int kind);

#endif
