/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff_write_int.h - what the two halves of the differential test's writer share:
 * diff_write_val.c (values, their orders, statistics bounds, value encodings, compression)
 * and diff_write.c (level entries, pages, chunks, page index, footer).
 */
#ifndef PQT_TEST_DIFF_WRITE_INT_H
#define PQT_TEST_DIFF_WRITE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "diff_write.h"
#include "pqbuild.h"

/* the seed every choice comes from, set by dw_write */
extern uint64_t *dw_rng;
/* bounds follow the deprecated min/max fields' signed order while set */
extern int dw_legacy;

uint64_t dw_rnd64(void);
int64_t dw_rn(int64_t n);
int dw_pct(int p);

/* values: a row of a flat column, an element of a list column (value id) */
int dw_present(const dw_col *c, int64_t r);
size_t dw_ptype_width(int pt);
const uint8_t *dw_val(const dw_col *c, int64_t r, size_t *len);
double dw_fval(int pt, const uint8_t *p);
int dw_is_float(int pt);
int dw_cmp(const dw_col *c, const uint8_t *a, size_t la, const uint8_t *b, size_t lb);

/* statistics bounds */
#define BMAX 64
typedef struct dw_mm {
    int has; /* a non-null, non-NaN value exists */
    uint8_t lo[BMAX], hi[BMAX];
    size_t llen, hlen;
    int lo_exact, hi_exact;
    int64_t nulls, nans, nonnull;
} dw_mm;
void dw_scan_mm(const dw_col *c, const int64_t *vids, int64_t nv, int64_t nulls, dw_mm *m);
void dw_shape(int pt, dw_mm *m, dw_info *info);

/* encodings */
typedef struct dw_dict {
    int64_t *ids;   /* value id of each entry */
    uint32_t *code; /* per present value of the chunk */
    int64_t n;
} dw_dict;
int dw_bits_of(uint64_t v);
void dw_hybrid(pqb *o, const uint32_t *v, size_t n, int bw);
int dw_make_dict(const dw_col *c, const int64_t *vids, int64_t nv, dw_dict *d);
void dw_plain(pqb *o, const dw_col *c, const int64_t *rows, size_t n);
void dw_values(pqb *o, const dw_col *c, const int64_t *rows, size_t n, int enc, const dw_dict *d,
               const uint32_t *codes);
void dw_compress(pqb *dst, const uint8_t *src, size_t n, int codec);

#endif
