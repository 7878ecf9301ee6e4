/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_scan.c - what reading a table cost: pqt_table_scan_stats and
 * pqt_table_scan_values (layer: table).
 *
 * The column layer counts pages, dictionary pages, values and bytes of every chunk read
 * exactly (column.h, pqt_read_counters) into a block the caller supplies; every read the
 * table makes (first touch, prefetch, decoding straight into caller memory, LIST width
 * measurement, unscaled decimals, the open's filter pass) passes a block of its own and
 * adds it here once, to the table and to the column's slot. The row-group counts come from
 * the read plan at open. Nothing here reads the file.
 */
#include <string.h>

#include "table/table_int.h"

int64_t pqt_tbl_scan_rg_covered(const pqt_plan *p)
{
    int64_t n = 0;
    for (int rg = 0; p->sel && rg < p->nrg; rg++) n += p->sel[rg].nsel > 0;
    return n;
}

void pqt_tbl_scan_add(pqt_table *t, pqt_tcol *c, const pqt_read_counters *rc)
{
    pqt_read_counters_add(&t->scan, rc);
    if (c)
        atomic_fetch_add_explicit(&c->values_decoded,
                                  atomic_load_explicit(&rc->values_decoded, memory_order_relaxed),
                                  memory_order_relaxed);
}

void pqt_tbl_scan_reset(pqt_table *t)
{
    memset(&t->scan, 0, sizeof t->scan); /* a table no other thread sees yet */
    t->scan_rg_total = 0;
    memset(&t->scan_rg, 0, sizeof t->scan_rg);
    if (t->f) pqt_file_net_counts(t->f, &t->net0);
    for (int i = 0; i < t->ncols; i++) atomic_store(&t->cols[i].values_decoded, 0);
}

pqt_status pqt_table_scan_stats(const pqt_table *t, pqt_scan_counts *ret)
{
    if (!t || !ret)
        return pqt_err(PQT_MISUSE, "pqt_table_scan_stats: table and ret must not be NULL");
    memset(ret, 0, sizeof *ret);
    /* an in-memory table never read a file (all zero); a detached one keeps what it read */
    if (!t->f) return PQT_OK;
    const memory_order r = memory_order_relaxed;
    *ret = t->scan_rg; /* the filter pass's row-group fields */
    ret->row_groups = t->scan_rg_total;
    ret->pages = atomic_load_explicit(&t->scan.pages, r);
    ret->pages_skipped = atomic_load_explicit(&t->scan.pages_skipped, r);
    ret->pages_decompressed = atomic_load_explicit(&t->scan.pages_decompressed, r);
    ret->dictionary_pages_read = atomic_load_explicit(&t->scan.dict_pages, r);
    ret->values_decoded = atomic_load_explicit(&t->scan.values_decoded, r);
    ret->bytes_read = atomic_load_explicit(&t->scan.bytes_read, r);
    pqt_ds_counts c = pqt_file_ds_counts(t->f);
    ret->files = c.files;
    ret->files_pruned_partition = c.files_pruned_partition;
    ret->footers_read = c.footers_read + c.summary_used;
    ret->files_pruned_stats = t->files_pruned_stats;
    ret->row_groups_pruned_stats += t->healpix_pruned;
    pqt_io_net_counts net;
    pqt_file_net_counts(t->f, &net);
    ret->requests = net.requests - t->net0.requests;
    ret->bytes_fetched = net.bytes_fetched - t->net0.bytes_fetched;
    ret->retries = net.retries - t->net0.retries;
    return PQT_OK;
}

int64_t pqt_table_scan_values(const pqt_table *t, const char *name)
{
    if (!t || !name) return -1;
    int ci = pqt_tbl_find(t, name);
    if (ci >= 0) return atomic_load_explicit(&t->cols[ci].values_decoded, memory_order_relaxed);
    /* the virtual row index is a column of the table, but never decoded from the file */
    return pqt_table_has_column(t, name) ? 0 : -1;
}
