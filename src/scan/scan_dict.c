/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_dict.c - a conjunct decided on a chunk's dictionary alone (layer: scan; pushdown.md
 * §2.2 step 4). Being written: until then nothing is proven here.
 */
#include "scan/scan.h"

pqt_status pqt_scan_dict_prove(const pqt_scan_pass *ps, pqt_chunk_ctx *cx, int rg, int k,
                               pqt_tri *ret)
{
    (void)ps, (void)cx, (void)rg, (void)k;
    *ret = PQT_TRI_SOME;
    return PQT_OK;
}
