/* SPDX-License-Identifier: Apache-2.0 */
/*
 * qc.h - read-time quality control (docs/qc.md): the rule grammar and the rules object
 * behind the public pqt_qc (qc_rule.c), and the check of one column's values against one
 * rule (qc_check.c) (layer: scan).
 *
 * A rule knows no file: its syntax is checked when it is added, its column and the types of
 * its bounds when a table binds it at open (table_qc.c). The check runs over a column as
 * read (a pqt_colbuf) and only counts; what to do with a violation is the table's business.
 */
#ifndef PQT_SCAN_QC_H
#define PQT_SCAN_QC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "column/column.h"
#include "pqt.h"

/* The three states of `miss:` (docs/qc.md). */
typedef enum pqt_qc_miss {
    PQT_QC_MISS_UNSAID = 0,   /* no fourth field: nulls are not checked */
    PQT_QC_MISS_EXPECTED = 1, /* Null / NA: nulls expected, not checked */
    PQT_QC_MISS_FORBIDDEN = 2 /* an empty fourth field: any null is a violation */
} pqt_qc_miss;

/* One bound as written. A plain integer is kept exactly (is_int; above INT64_MAX and at
 * most 2^64 - 1: is_u64, for uint64 columns); a number with a decimal point or an exponent is
 * a finite double (is_float); anything else (or a quoted value) is a string literal. text is
 * the value as written, quotes removed. */
typedef struct pqt_qc_bound {
    bool set;
    bool strict; /* '>' or '<' (bare values and >= / <= are inclusive) */
    bool is_int;
    bool is_float;
    bool is_u64;
    int64_t i;
    uint64_t u; /* is_u64 */
    double d;
    char *text;
} pqt_qc_bound;

typedef struct pqt_qc_rule {
    char *column;
    pqt_qc_bound min, max;
    pqt_qc_miss miss;
} pqt_qc_rule;

struct pqt_qc {
    pqt_qc_rule *rules;
    int n, cap;
};

/* An independent copy of src (NULL gives NULL). PQT_NOMEM. */
pqt_status pqt_scan_qc_copy(const pqt_qc *src, pqt_qc **ret);
/* The rule of column name, or NULL. */
const pqt_qc_rule *pqt_scan_qc_find(const pqt_qc *qc, const char *name);
/* PQT_KIND (message naming the rule's column, the bound and the kind) when r's bounds do
 * not fit a column of element kind elem_kind: min/max on a date, time or timestamp; a bound
 * that is not an exact in-range integer on an integer column; a non-number on a float
 * column. Booleans accept anything (never enforced), strings take any literal. */
pqt_status pqt_scan_qc_fit(const pqt_qc_rule *r, int elem_kind);
/* "min >= 0, max <= 360" (the declared bounds only), into buf (snprintf semantics). */
size_t pqt_scan_qc_bounds_text(const pqt_qc_rule *r, char *buf, size_t cap);

/* What one column's values say about a rule. The data range is over present elements that
 * are not NaN; the string range points into the column checked (valid while it lives). */
typedef struct pqt_qc_eval {
    int64_t nelem;  /* elements, a null list row counting as one */
    int64_t nvalid; /* present elements */
    int64_t nnull;  /* null elements (and null list rows) */
    int64_t nout;   /* present elements outside the bounds */
    bool any;       /* the range below holds something */
    int kind;       /* element kind of the column checked */
    int64_t ilo, ihi;
    uint64_t ulo, uhi;
    double dlo, dhi;
    const char *slo, *shi;
    int64_t nslo, nshi;
} pqt_qc_eval;

/* Count b's elements against r. Reads b only; thread-safe. */
void pqt_scan_qc_eval(const pqt_qc_rule *r, const pqt_colbuf *b, pqt_qc_eval *e);
/* Whether e breaks r's range / its miss: declared empty. */
static inline bool pqt_scan_qc_range_bad(const pqt_qc_eval *e) { return e->nout > 0; }
static inline bool pqt_scan_qc_null_bad(const pqt_qc_rule *r, const pqt_qc_eval *e)
{
    return r->miss == PQT_QC_MISS_FORBIDDEN && e->nnull > 0;
}
/* The violation texts of docs/qc.md, into buf (snprintf semantics):
 * range: "declared min >= 0, max <= 360, data range [-5, 400], 2 of 5 valid element(s) out
 *        of range"
 * null:  "2 of 1000 element(s) are Null (qc: miss: is declared empty, so Nulls are not
 *        expected here)" */
size_t pqt_scan_qc_range_text(const pqt_qc_rule *r, const pqt_qc_eval *e, char *buf, size_t cap);
size_t pqt_scan_qc_null_text(const pqt_qc_eval *e, char *buf, size_t cap);

#endif
