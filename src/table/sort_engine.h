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
#include <string.h>

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

/* The order codes a key's values sort by (unsigned order is ascending value order): signed
 * integers with the sign bit flipped, uint64 as itself, floats by their bits (negatives
 * inverted, -0.0 folded into 0.0; NaN is not a value). Descending is the complement. Also
 * for bounds that are not in a column (a row group's statistics, table_open_topn.c). */
static inline uint64_t pqt_sort_code_i64(int64_t v)
{
    return (uint64_t)v ^ (UINT64_C(1) << 63);
}
static inline uint64_t pqt_sort_code_f64(double x)
{
    if (x == 0) x = 0; /* -0.0 ties with 0.0, as < compares them */
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}
#define PQT_SORT_BLOCK 1024
/* The codes of rows [r0, r0 + n) of key k (n <= PQT_SORT_BLOCK) into c, ok[i] = 1 where the
 * row holds a value (not null, not NaN). */
void pqt_sort_key_codes(const pqt_sort_key *k, int64_t r0, int64_t n, uint64_t *c, uint8_t *ok);
/* Offer codes c[i] with ok[i] to a bounded max-heap h of the at most k smallest codes so far
 * (*nh of them; h[0], once *nh == k, is the k-th smallest). */
void pqt_sort_heap_offer(uint64_t *h, int64_t *nh, int64_t k, const uint64_t *c, const uint8_t *ok,
                         int64_t n);

#endif
