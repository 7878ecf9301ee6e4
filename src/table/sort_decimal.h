/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sort_decimal.h - DECIMAL sort keys in exact order (layer: table, private). A decimal column
 * is held as float64, the double nearest each value; from precision 16 on, distinct values
 * can round to one double, so a sort on the doubles would tie them. A key on a decimal
 * column that still reads from its file orders by the unscaled integers instead (one scale
 * per column, so they order as the values do): an int64 key up to precision 18, and from
 * 19 to 38 two keys, the high half (signed) then the low half (unsigned) of the int128.
 * Precision 15 and below keeps the doubles, which order those values exactly already.
 */
#ifndef PQT_TABLE_SORT_DECIMAL_H
#define PQT_TABLE_SORT_DECIMAL_H

#include "table/sort_engine.h"
#include "table/table_int.h"

typedef struct pqt_sort_exact {
    pqt_colbuf raw;     /* the unscaled integers, PQT_INT64 or PQT_INT128, owned */
    pqt_colbuf part[2]; /* PQT_INT128: high (int64) and low (uint64) halves; validity borrowed */
    int nparts;         /* engine keys it gives; 0: not exact (use the column's float64s) */
} pqt_sort_exact;

/* Read slot ci's unscaled decimals in the table's row order (through the plan; threads)
 * when ci is a scalar DECIMAL of precision 16..38 that still holds the file's values and t
 * reads from its file; otherwise *e is left empty (nparts 0) and nothing is read. Read
 * errors (message not prefixed), PQT_NOMEM; *e is empty on failure. */
pqt_status pqt_sort_exact_read(pqt_table *t, int ci, int threads, pqt_sort_exact *e);
/* Append e's engine keys (nparts of them) with the flags to keys[*n]. */
void pqt_sort_exact_keys(const pqt_sort_exact *e, bool desc, bool nulls_first,
                         pqt_sort_key *keys, int *n);
void pqt_sort_exact_free(pqt_sort_exact *e);

#endif
