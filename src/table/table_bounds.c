/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_bounds.c - pqt_table_row_group_bounds: the read plan (read/plan.h) in the planning
 * form (physical rows) or in the table's own numbering (layer: table).
 */
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

pqt_status pqt_table_row_group_bounds(const pqt_table *t, int physical, int64_t **bounds_ret,
                                      int *n_ret)
{
    if (!t || !bounds_ret || !n_ret)
        return pqt_err(PQT_MISUSE, "pqt_table_row_group_bounds: NULL argument");
    if (!t->f)
        return pqt_err(PQT_MISUSE, "pqt_table_row_group_bounds: the table is in memory: it was "
                                   "never read from a file, so it has no row groups");
    if (t->detached)
        return pqt_err(PQT_DETACHED,
                       "pqt_table_row_group_bounds: the table read from %s has "
                       "detached from it (%s changed its rows): its rows no "
                       "longer come from any row group",
                       pqt_file_path(t->f), t->detached_by ? t->detached_by : "a row change");
    const pqt_plan *p = &t->plan;
    if (!physical && p->perm)
        return pqt_err(PQT_MISUSE,
                       "pqt_table_row_group_bounds: the table read from %s is "
                       "sorted: a row group's rows are spread over the table, so "
                       "only the physical form answers",
                       pqt_file_path(t->f));
    int64_t *b = pqt_malloc_array((size_t)p->nrg * 2 + 1, sizeof *b);
    if (!b) return pqt_err(PQT_NOMEM, "out of memory for %d row-group bounds", p->nrg);
    for (int rg = 0; rg < p->nrg; rg++) {
        if (physical) {
            b[2 * rg] = p->rg_start[rg] + 1;
            b[2 * rg + 1] = p->rg_start[rg + 1];
        } else {
            /* rows of this table, 1-based: an empty group gives lo = next row, hi = lo - 1 */
            b[2 * rg] = p->dst_row[rg] + 1;
            b[2 * rg + 1] = p->dst_row[rg] + p->sel[rg].nsel;
        }
    }
    *bounds_ret = b;
    *n_ret = p->nrg;
    return PQT_OK;
}

int64_t pqt_table_nfiles(const pqt_table *t)
{
    if (!t || !t->f) return 0;
    return pqt_file_is_dataset(t->f) ? pqt_file_ds_nmembers(t->f) : 1;
}

const char *pqt_table_file_name(const pqt_table *t, int64_t i)
{
    if (i < 1 || i > pqt_table_nfiles(t)) return NULL;
    return pqt_file_is_dataset(t->f) ? pqt_file_ds_member(t->f, i - 1) : pqt_file_path(t->f);
}

pqt_status pqt_table_row_group_file(const pqt_table *t, int rg, int64_t *file_ret,
                                    int *rg_in_file_ret)
{
    if (!t || !t->f || !file_ret || !rg_in_file_ret)
        return pqt_err(PQT_MISUSE, "pqt_table_row_group_file: %s",
                       t && !t->f ? "the table is in memory: it has no files"
                                  : "NULL argument");
    int nrg = pqt_file_nrow_groups(t->f);
    if (rg < 1 || rg > nrg)
        return pqt_err(PQT_RANGE, "pqt_table_row_group_file: %s: row group %d asked for, %d "
                                  "read",
                       pqt_file_path(t->f), rg, nrg);
    *file_ret = pqt_file_ds_rg_member(t->f, rg - 1) + 1;
    *rg_in_file_ret = pqt_chunk_src_rg_no(&(pqt_chunk_src){.members = pqt_file_members(t->f)},
                                          rg - 1);
    return PQT_OK;
}
