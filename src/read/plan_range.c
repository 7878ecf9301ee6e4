/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan_range.c - a row range as selections: the one routine that turns file rows [lo, hi)
 * into a one-run selection per covering row group (layer: read). A table's slice plan and
 * the file API's range reads both use it.
 */
#include "read/plan.h"
#include "util/error.h"

void pqt_plan_range_groups(const pqt_file_meta *meta, int64_t lo, int64_t hi, int *rg0_ret,
                           int *n_ret)
{
    /* binary search, so reading a file row group by row group stays linear in them */
    int rg[2] = {0, 0};
    int64_t row[2] = {lo, hi - 1};
    for (int k = 0; lo < hi && k < 2; k++) {
        int a = 0, z = meta->n_row_groups;
        while (a < z) {
            int mid = a + (z - a) / 2;
            const pqt_row_group *g = &meta->row_groups[mid];
            if (g->first_row + g->num_rows > row[k])
                z = mid;
            else
                a = mid + 1;
        }
        rg[k] = a;
    }
    int rg1 = lo < hi ? rg[1] + 1 : 0;
    if (rg1 > meta->n_row_groups) rg1 = meta->n_row_groups;
    *rg0_ret = rg[0];
    *n_ret = rg1 > rg[0] ? rg1 - rg[0] : 0;
}

pqt_status pqt_plan_range_sels(const pqt_file_meta *meta, int rg0, int n, int64_t lo, int64_t hi,
                               pqt_sel *sels, int64_t *dst_row)
{
    int64_t dst = 0;
    for (int i = 0; i < n; i++) {
        const pqt_row_group *g = &meta->row_groups[rg0 + i];
        PQT_TRY(pqt_sel_init_range(&sels[i], g->num_rows, lo - g->first_row, hi - g->first_row));
        dst_row[i] = dst;
        dst += sels[i].nsel;
    }
    return PQT_OK;
}
