/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_batches.h - what the Arrow export tests share (tests/unit/test_arrow_export*.c): pull
 * every batch of a table's stream, validating each with arrow_check.c; find a table row's
 * value in the batches; compare a column's values with a table's own getters.
 */
#ifndef PQT_TEST_ARROW_BATCHES_H
#define PQT_TEST_ARROW_BATCHES_H

#include <stddef.h>
#include <stdint.h>

#include "pqt_arrow.h"

#define AB_MAXB 5100

/* Every batch of one stream, with the table row each starts at. */
typedef struct ab_batches {
    struct ArrowSchema schema;
    struct ArrowArray b[AB_MAXB];
    int64_t first[AB_MAXB + 1]; /* table row of each batch's first row */
    int n;
} ab_batches;

/* Bit i of bm; a NULL bitmap has every bit set. */
int ab_bit(const void *bm, int64_t i);
/* path opened with a filter and sort at open (each may be NULL). */
pqt_table *ab_open(const char *path, const char *filter, const char *sort);
/* Pull every batch of t's stream into *bs, validating each; 0 on success. The stream is
 * released before the batches (they must not need it). */
int ab_pull(pqt_table *t, const char *const *cols, int ncols, int64_t batch_rows, ab_batches *bs);
/* Release every batch and the schema. */
void ab_release(ab_batches *bs);
/* The child of struct (s, a) named name, descending "x.y" into struct x when no child has the
 * whole name; a may be NULL. */
int ab_child(const struct ArrowSchema *s, const struct ArrowArray *a, const char *name,
             const struct ArrowSchema **cs, const struct ArrowArray **ca);
/* Row r of the table: the leaf array of column name and its index (offset applied). */
int ab_locate(const ab_batches *bs, const char *name, int64_t r, const struct ArrowSchema **cs,
              const struct ArrowArray **ca, int64_t *j);
/* The format of field name, "(absent)" when none. */
const char *ab_format(const ab_batches *bs, const char *name);
/* Every row of scalar column name in bs equals truth's getters. */
void ab_compare_scalar(pqt_table *truth, const ab_batches *bs, const char *name);
/* List or vector column name (element kind `kind`) against pqt_table_get_list_alloc. */
void ab_compare_list(pqt_table *truth, const ab_batches *bs, const char *name, int kind);
/* tests/data/write_types.parquet rewritten in row groups of 16 rows (16, 16, 8) at a
 * temporary path (into path[0..cap)). */
void ab_write_rg(char *path, size_t cap);

#endif
