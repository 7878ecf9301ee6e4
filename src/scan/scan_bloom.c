/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_bloom.c - bloom filters refute == and in (layer: scan; pushdown.md §2.2 step 2).
 * Being written: until then no bloom filter is read and nothing is refuted.
 */
#include "scan/scan.h"

pqt_status pqt_scan_bloom_prove(const pqt_scan_pass *ps, int rg, int k, pqt_tri *ret,
                                int *read_ret)
{
    (void)ps, (void)rg, (void)k, (void)read_ret;
    *ret = PQT_TRI_SOME;
    return PQT_OK;
}
