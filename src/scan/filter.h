/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter.h - the compiled filter for the read engine (layer: scan).
 *
 * The public pqt_filter (include/pqt.h) holds rules as text parsed into trees; it knows no
 * schema. The engine compiles it against the columns of a file or table:
 *
 *   pqt_scan_compile(filter, cols, ncols, &prog)   names -> columns, literals -> each column's
 *                                                   domain; every error is PQT_BAD_FILTER
 *   pqt_scan_prog_nconj / _conj_cols              the top-level AND split into conjuncts, each
 *                                                   with the column slots it reads
 *   pqt_scan_conj_prove / pqt_scan_prog_prove      NONE / SOME / ALL from statistics (no I/O)
 *   pqt_scan_conj_eval / pqt_scan_prog_eval        a keep-bitmap over a batch of decoded values
 *
 * A slot is a column the program reads (0 .. pqt_scan_prog_ncols - 1); pqt_scan_prog_col
 * maps it back to the index in the list it was compiled against. A program is read-only once
 * compiled: several threads may evaluate and prove with it at once, each with its own
 * pqt_scan_scratch. It owns copies of everything it needs, so the filter may be cleared or
 * freed afterwards. Semantics: docs/filters.md; statistics: docs/pruning.md.
 */
#ifndef PQT_SCAN_FILTER_H
#define PQT_SCAN_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "pqt.h"

/* One column a rule may name: full dotted path, kind as pqt_file_column_kind reports it
 * (flags included, so vectors and lists are refused with their own message), time unit for
 * PQT_TIME/PQT_TIMESTAMP (else -1). The first entry with a given name wins, so list an
 * exact top-level name before a struct path spelling the same. */
typedef struct pqt_scan_col {
    const char *name;
    int kind;
    int unit;
} pqt_scan_col;

typedef struct pqt_fprog pqt_fprog;

/* A deep copy of f (rules and sets), for options that keep a filter. PQT_NOMEM. */
pqt_status pqt_scan_filter_copy(const pqt_filter *f, pqt_filter **ret);
/* The top-level conjuncts of f (of every rule) that read only the columns names[0..n), as a
 * new filter (*ret; no rules when none does): implied by f (filter_project.c). PQT_NOMEM. */
pqt_status pqt_scan_filter_project(const pqt_filter *f, const char *const *names, int n,
                                   pqt_filter **ret);
/* The top-level conjuncts of f that are cone(ra, dec, ra0, dec0, radius) on the columns
 * named ra and dec with a literal centre and radius (filter_project.c): the first max into
 * out, the number found returned. A HEALPix-partitioned dataset prunes by them. */
typedef struct pqt_scan_cone {
    double ra0, dec0, radius;
} pqt_scan_cone;
int pqt_scan_filter_cones(const pqt_filter *f, const char *ra, const char *dec,
                          pqt_scan_cone *out, int max);
/* Rules of f (0 for NULL): a filter without rules keeps every row. */
int pqt_scan_filter_nrules(const pqt_filter *f);

/* Compile every rule of f. Errors (PQT_BAD_FILTER): unknown column (suggesting the nearest
 * name), unfilterable column, an operator or value that does not fit the column, an unknown
 * @set; the message names the rule and the character. PQT_NOMEM. An empty filter compiles
 * to a program with no conjuncts (keeps every row). */
pqt_status pqt_scan_compile(const pqt_filter *f, const pqt_scan_col *cols, int ncols,
                            pqt_fprog **ret);
void pqt_scan_prog_free(pqt_fprog *p);

int pqt_scan_prog_ncols(const pqt_fprog *p);
int pqt_scan_prog_col(const pqt_fprog *p, int slot); /* index into the compile list */
int pqt_scan_prog_nconj(const pqt_fprog *p);
int pqt_scan_conj_ncols(const pqt_fprog *p, int k);
const int *pqt_scan_conj_cols(const pqt_fprog *p, int k); /* slots, ascending */
/* Conjunct k is a callback (it must see rows, not dictionary entries). */
bool pqt_scan_conj_is_callback(const pqt_fprog *p, int k);
/* Relative cost of evaluating conjunct k per row (leaves weighted by kind: bool/int 1,
 * float 2, string 5, sets +1), a seed for ordering conjuncts. */
int pqt_scan_conj_cost(const pqt_fprog *p, int k);
/* The conjunct as rule text, normalized (NOT pushed into the clauses), for --explain.
 * snprintf semantics: returns the full length. */
int64_t pqt_scan_conj_text(const pqt_fprog *p, int k, char *buf, size_t cap);

/* One value a membership conjunct asks for, in its column's domain: i for integer and
 * temporal kinds (uint64: the value's bits), d for float64 (f for float32), s/slen for
 * strings. */
typedef struct pqt_scan_probe_val {
    int kind;
    int64_t i;
    double d;
    float f;
    const char *s;
    int64_t slen;
} pqt_scan_probe_val;
/* true: the value may be present (stop probing). */
typedef bool (*pqt_scan_probe_fn)(void *user, const pqt_scan_probe_val *v);
/* When conjunct k is true only for a finite set of values of its one column (==, in, an OR
 * of them, an AND holding one), hand each to fn: 1 as soon as fn says one may be present, 0 when none may be;
 * -1 when k is not such a conjunct (fn never called). */
int pqt_scan_conj_probe(const pqt_fprog *p, int k, pqt_scan_probe_fn fn, void *user);

/* ---- evaluation ---- */

/* One column's batch of n rows, in pqt's in-memory layout for its kind (pqt.h): data is
 * int32/int64/float/double/uint8 values, or for strings n + 1 int64 offsets into bytes.
 * validity: bit i (LSB first) = row i present; NULL = every row present. */
typedef struct pqt_scan_vec {
    const void *data;
    const char *bytes;
    const uint8_t *validity;
} pqt_scan_vec;

/* Per-thread working memory of the evaluator; zero it before first use. */
typedef struct pqt_scan_scratch {
    uint64_t *words;
    size_t cap;
    void *xbuf; /* computed predicates' value buffers (filter_expr_eval.c) */
    size_t xcap;
} pqt_scan_scratch;
void pqt_scan_scratch_free(pqt_scan_scratch *s);

/* Evaluate conjunct k over rows 0..n-1 whose bit is set in sel ((n+7)/8 bytes, LSB first;
 * NULL = all rows). vecs is indexed by slot; only the conjunct's slots are read. keep
 * ((n+7)/8 bytes) receives 1 for rows that are selected and for which the conjunct is TRUE
 * (Kleene logic: unknown drops the row); bits past n are 0. keep may be sel itself.
 * *nkeep_ret (may be NULL) = rows kept. Errors: PQT_NOMEM; PQT_RANGE when a computed
 * predicate's integer arithmetic overflows on a selected row (the message names the rule,
 * the operands and the row's position in the batch); PQT_CALLBACK from a callback. keep is
 * then undefined. */
pqt_status pqt_scan_conj_eval(const pqt_fprog *p, int k, const pqt_scan_vec *vecs, int64_t n,
                              const uint8_t *sel, uint8_t *keep, int64_t *nkeep_ret,
                              pqt_scan_scratch *s);
/* The whole program (every conjunct, each only on rows still alive). */
pqt_status pqt_scan_prog_eval(const pqt_fprog *p, const pqt_scan_vec *vecs, int64_t n,
                              const uint8_t *sel, uint8_t *keep, int64_t *nkeep_ret,
                              pqt_scan_scratch *s);

/* ---- statistics ---- */

typedef enum pqt_tri { PQT_TRI_NONE = 0, PQT_TRI_SOME = 1, PQT_TRI_ALL = 2 } pqt_tri;

/* A bound in the column's domain: i for int32/int64/bool/date/time/timestamp (the column's
 * unit) and for uint64 (the value's bits: PQT_SST_UNSIGNED), d for float32/float64 (float32
 * widened), s/len for strings (not terminated). */
typedef struct pqt_scan_bound {
    int64_t i;
    double d;
    const char *s;
    int64_t len;
} pqt_scan_bound;

/* What the footer says of one column chunk, with where it came from (docs/pruning.md). */
enum {
    PQT_SST_MIN = 1,        /* min holds a lower bound */
    PQT_SST_MAX = 2,        /* max holds an upper bound */
    PQT_SST_MIN_EXACT = 4,  /* min is an actual value (not a truncated string) */
    PQT_SST_MAX_EXACT = 8,
    PQT_SST_SIGNED_ORDER = 16, /* bounds compared signed (the deprecated min/max fields, or a
                                  writer known to): for strings and unsigned values they hold
                                  only when min == max */
    PQT_SST_UNSIGNED = 32,  /* uint64 values' bits as int64 (compared unsigned: a uint64
                               column's bounds always are) */
    PQT_SST_NO_ORDER = 64   /* no usable order (INT96, decimal, half float, unknown order) */
};

typedef struct pqt_scan_stats {
    unsigned flags;
    pqt_scan_bound min, max;
    int64_t null_count; /* -1 unknown; a count above the row count is treated as unknown */
    int64_t nan_count;  /* float columns: -1 unknown (NaN then possible) */
} pqt_scan_stats;

/* Verdict for conjunct k over a row group of nrows rows: NONE (no row can be TRUE), ALL
 * (every row is TRUE) or SOME. stats is indexed by slot; NULL means nothing is known. Pure:
 * no I/O, never fails; doubtful statistics only weaken the verdict toward SOME. */
pqt_tri pqt_scan_conj_prove(const pqt_fprog *p, int k, const pqt_scan_stats *stats,
                            int64_t nrows);
/* The whole program: NONE if any conjunct is NONE, ALL if every one is ALL. */
pqt_tri pqt_scan_prog_prove(const pqt_fprog *p, const pqt_scan_stats *stats, int64_t nrows);

/* A partition value (a hive folder's text; NULL: a null) as the statistics of a one-row row
 * group: min = max = the value, int64 when is_int, else a string (filter_project.c). */
void pqt_scan_value_stats(const char *value, bool is_int, pqt_scan_stats *out);

#endif
