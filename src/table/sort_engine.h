/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sort_engine.h - the one sort engine (layer: table, private): a read-time sort, sort_by,
 * top_n, argsort_by and is_sorted_by all order rows through it, so they agree row for row
 * on ties, NaN and null placement (docs/sort.md, "Order").
 */
#ifndef PQT_TABLE_SORT_ENGINE_H
#define PQT_TABLE_SORT_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "pqt.h"

/* One key: a scalar column's values (element i = row i), its element kind, its flags. */
typedef struct pqt_sort_key {
    const pqt_colbuf *b;
    int ek;
    bool desc, nulls_first;
} pqt_sort_key;

/* Stable sort of rows[0..n) (row numbers into the key buffers): rows equal on every key
 * keep the order they have in rows. threads > 1 shares large groups of ties on one key out
 * to OpenMP threads for the next keys. PQT_NOMEM (message names call). */
pqt_status pqt_sort_rows(const pqt_sort_key *keys, int nkeys, int64_t *rows, int64_t n,
                         int threads, const char *call);
/* The first min(k, n) rows of the stable sorted order of rows 0..n-1 into out (caller
 * memory of min(k, n) entries), *nout_ret their number. O(n) passes over the first key
 * with O(k) memory per thread (threads > 1 share the passes out by stretches of rows), then
 * a sort of the candidates only. PQT_NOMEM. */
pqt_status pqt_sort_top(const pqt_sort_key *keys, int nkeys, int64_t n, int64_t k,
                        int64_t *out, int64_t *nout_ret, int threads, const char *call);
/* -1, 0, 1: row a before, tied with, after row b under the keys. */
int pqt_sort_cmp(const pqt_sort_key *keys, int nkeys, int64_t a, int64_t b);

#endif
