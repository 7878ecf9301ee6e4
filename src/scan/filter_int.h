/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_int.h - private layout of the filter language (layer: scan).
 *
 * A pqt_filter holds rules as parsed trees (fnode) plus copied, de-duplicated sets (fset);
 * nothing in it knows a schema. Compiling against a column list (filter_compile.c) turns it
 * into a pqt_fprog: NOT pushed into the leaves, AND/OR flattened, literals converted into each
 * column's domain (fleaf), sets into hash tables (cset), and the top-level ANDs split into
 * conjuncts. The evaluator (filter_eval.c) and the statistics prover (filter_stats.c) read
 * only the compiled form. Only files of src/scan/filter_*.c include this header.
 */
#ifndef PQT_SCAN_FILTER_INT_H
#define PQT_SCAN_FILTER_INT_H

#include <stddef.h>
#include <stdint.h>

#include "scan/filter.h"

/* Operators as written (the parser's view). */
typedef enum fop {
    FOP_LT,
    FOP_LE,
    FOP_GT,
    FOP_GE,
    FOP_EQ,
    FOP_NE,
    FOP_IN,
    FOP_NOT_IN,
    FOP_IS_NULL,
    FOP_IS_NOT_NULL,
    FOP_IS_NAN,
    FOP_IS_NOT_NAN,
    FOP_IS_FINITE,
    FOP_IS_NOT_FINITE,
    FOP_STARTS_WITH,
    FOP_ENDS_WITH,
    FOP_CONTAINS,
    FOP_LIKE,  /* SQL LIKE: % any run, _ one character; case-sensitive */
    FOP_ILIKE, /* LIKE ignoring ASCII case */
    /* compiled only: constant on every non-null row (e.g. int_col == 2.5 is FOP_FALSE) */
    FOP_TRUE,
    FOP_FALSE,
    FOP_COUNT
} fop;

const char *pqt_scan_fop_name(int op); /* spelling as written ("/=" for FOP_NE) */

/* A literal as written; its type is settled against the column at compile. */
enum { FLIT_NONE = 0, FLIT_NUM, FLIT_BOOL, FLIT_STR };

typedef struct flit {
    uint8_t cls;
    uint8_t is_int; /* FLIT_NUM: integral and inside int64, so i is exact */
    uint8_t is_u64; /* FLIT_NUM: a decimal integer above INT64_MAX that fits uint64: u is exact */
    uint8_t is_hex;
    uint8_t is_iso; /* FLIT_STR written unquoted as an ISO date, time or timestamp
                       (pqt_scan_iso_value): temporal columns only */
    int32_t lo, hi; /* byte span in the rule text */
    int64_t i;      /* FLIT_NUM when is_int; FLIT_BOOL: 0/1 */
    uint64_t u;     /* FLIT_NUM when is_u64 */
    double d;       /* FLIT_NUM: the value as a double (may be +-inf) */
    char *s;        /* FLIT_STR: the bytes, NUL-terminated, owned */
    int64_t len;
} flit;

enum { FN_AND = 0, FN_OR, FN_NOT, FN_CLAUSE, FN_CALLBACK, FN_PRED /* computed: filter_expr.h */ };

typedef struct fnode {
    uint8_t type;
    uint8_t op;    /* FN_CLAUSE: fop */
    int32_t lo, hi; /* byte span of the clause (or keyword) in its rule */
    int32_t nkids;
    struct fnode **kids;
    /* FN_CLAUSE */
    char *col;
    int32_t col_lo, op_lo;
    flit val;        /* comparison operand */
    flit *items;     /* written-out list after in / not_in */
    int32_t nitems;
    char *set_name;  /* @name after in / not_in */
    int32_t set_lo;
    int32_t set_idx; /* pqt_filter_add_in: index of its own set; else -1 */
    /* FOP_LIKE / FOP_ILIKE: the ESCAPE character (one UTF-8 character, NUL-terminated;
     * empty: none, as DuckDB) and where it was written */
    char like_esc[5];
    int32_t like_esc_lo;
    /* FN_CALLBACK (pqt_filter_add_callback): the named columns, the function, its user */
    char **cb_cols;
    int32_t cb_ncols;
    pqt_filter_fn cb_fn;
    void *cb_user;
    /* FN_PRED: xl op xr (xr NULL for the one-sided ops), as parsed (filter_expr.h) */
    struct pexpr *xl, *xr;
} fnode;

/* A set bound with pqt_filter_bind or given to pqt_filter_add_in: copied, sorted, distinct. */
typedef struct fset {
    char *name; /* NULL for an add_in set */
    int kind;   /* element kind of the values */
    int unit;   /* PQT_TIME/PQT_TIMESTAMP: its unit; else -1 */
    int64_t n;
    int64_t *iv;    /* integer and temporal kinds */
    double *dv;     /* float kinds; -0 stored as +0, never NaN */
    int64_t *soff;  /* strings: n + 1 offsets into sbytes */
    char *sbytes;
} fset;

typedef struct frule {
    char *text; /* NULL for an add_in clause */
    int32_t nbytes;
    fnode *root;
} frule;

struct pqt_filter {
    frule *rules;
    int nrules, rules_cap;
    fset *sets;
    int nsets, sets_cap;
    int nnodes; /* expression nodes of every rule, plus one implicit AND per extra rule */
};

/* ---- parsing (filter_parse.c) ---- */

/* Parse one rule. base_nodes: nodes the filter already holds (the 1024 limit spans all
 * rules). On success *root_ret and *nnodes_ret (this rule's nodes) are set. */
pqt_status pqt_scan_parse(const char *text, int32_t nbytes, int base_nodes, fnode **root_ret,
                          int *nnodes_ret);
void pqt_scan_node_free(fnode *n);
/* 1-based character (UTF-8 code point) position of byte offset off. */
int pqt_scan_charpos(const char *text, int32_t off);
/* The rule as shown in messages: whole, or cut at a character boundary with "...". */
void pqt_scan_rule_show(const char *text, int32_t nbytes, char *buf, size_t cap);

/* ---- literals (filter_lit.c) ---- */

/* Classify a bare word as a number (decimal, inf, hex float when allow_hex) or boolean.
 * Returns 0 and fills lit, or -1 with a reason in why (a static string). */
int pqt_scan_lit_bare(const char *s, int64_t len, int allow_hex, flit *lit, const char **why);
/* An ISO-8601 literal: days since 1970-01-01 and nanoseconds into the day. has_date/has_time
 * say which parts were written. Returns 0, or -1 with a reason. */
int pqt_scan_lit_iso(const char *s, int64_t len, int64_t *days_ret, int64_t *nanos_ret,
                     int *has_date_ret, int *has_time_ret, const char **why);
/* Units per second of a pqt_time_unit (1e3, 1e6, 1e9). */
int64_t pqt_scan_unit_per_sec(int unit);
/* Convert v from unit `from` to unit `to`: 0 exact, 1 not exact (finer than `to` holds),
 * 2 out of int64 range (*out then saturates toward the sign). */
int pqt_scan_unit_convert(int64_t v, int from, int to, int64_t *out);
/* days + nanoseconds of the day as a count of `unit` since the epoch; returns as above
 * (1: finer than the unit holds, *out floored; 2: out of range, *out saturated). */
int pqt_scan_lit_instant(int64_t days, int64_t nanos, int unit, int64_t *out);

/* ---- compiled program ---- */

/* A uint64 column's values live in the integer domain (leaf literals, sets, statistics
 * bounds) as their bits with the top bit flipped: signed order of the result is the unsigned
 * order of the values, so every integer comparison, set and bound works unchanged. The
 * evaluator compares the stored uint64 values directly. */
#define PQT_SCAN_U64_SIGN (UINT64_C(1) << 63)
static inline int64_t pqt_scan_u64_in(uint64_t u) { return (int64_t)(u ^ PQT_SCAN_U64_SIGN); }
static inline uint64_t pqt_scan_u64_out(int64_t i) { return (uint64_t)i ^ PQT_SCAN_U64_SIGN; }

/* Compiled set in a column's domain: an open-addressing hash table plus the sorted members
 * (for the statistics prover). Integer domains key on the value, float domains on the bits of
 * the double (after -0 -> +0), strings on a hash of the bytes. */
typedef struct cset {
    int64_t n;
    int64_t *sorted_i; /* integer domains */
    double *sorted_d;  /* float domains */
    int64_t *soff;     /* strings: members, sorted bytewise */
    char *sbytes;
    uint64_t mask; /* table slots - 1 */
    int shift;     /* 64 - log2(slots) */
    uint64_t *keys; /* integer/float: key per slot; strings: hash per slot */
    int64_t *slot;  /* member index + 1 per slot, 0 = empty */
    int64_t imin, imax;
    uint8_t *bits; /* integer domains spanning few values: bit v - imin set for a member */
} cset;

typedef struct fleaf {
    uint8_t op;     /* base op: LT LE GT GE EQ IN IS_NULL IS_NAN IS_FINITE STARTS ENDS CONTAINS
                       TRUE FALSE */
    uint8_t negate; /* swap true and false (null stays unknown) */
    uint8_t kind;   /* element kind of the column */
    int32_t slot;
    int64_t i;      /* integer domains (int32, int64, bool, date, time, timestamp; uint64 as
                       pqt_scan_u64_in of the value) */
    double d;       /* float64; float32 holds the float value widened */
    float f;        /* float32 */
    char *s;        /* strings (owned) */
    int64_t slen;
    cset *set;      /* IN (owned) */
    /* LIKE / ILIKE (filter_like.c): s holds the pattern one byte per token, pat the token of
     * each byte (PQT_LIKE_*), plen the literal bytes every match starts with (ILIKE: up to the
     * first ASCII letter too), which is what statistics can use */
    uint8_t *pat; /* owned */
    int64_t plen;
    /* where it came from, for rendering */
    char *col;
    int unit;
} fleaf;

enum { FX_AND = 0, FX_OR, FX_LEAF, FX_CALLBACK, FX_CMP /* a computed predicate (filter_expr.h) */ };

/* A compiled callback: its columns as slots in the order named, with names and kinds for the
 * batch it is handed. Always a conjunct of its own (rules are AND-combined). */
typedef struct fcb {
    pqt_filter_fn fn;
    void *user;
    int n;
    int *slots;
    char **names;
} fcb;

typedef struct fexpr {
    uint8_t type;
    int32_t nkids;
    struct fexpr **kids;
    fleaf leaf;
    fcb *cb; /* FX_CALLBACK */
    struct fcmp *cmp; /* FX_CMP (filter_expr.h) */
} fexpr;

typedef struct fconj {
    fexpr *root;
    int ncols;
    int *slots;
    int depth; /* levels of AND/OR below the root */
    int cost;
} fconj;

struct pqt_fprog {
    int ncols;
    int *cols; /* slot -> index into the compile list */
    int *kinds;
    int *units;
    int nconj;
    fconj *conj;
    int depth; /* the deepest conjunct */
};

/* ---- callbacks (filter_callback.c) ---- */
/* Column index of a callback's name in cols (PQT_BAD_FILTER naming the nearest name, or the
 * kind when it is a vector or list). */
pqt_status pqt_scan_cb_resolve(const fnode *n, int k, const pqt_scan_col *cols, int ncols,
                               int *ci_ret);
void pqt_scan_cb_free(fcb *cb);
/* Run callback cb over the rows of sel (nw words over n rows); out = the rows it keeps.
 * Alive rows are gathered into a compact batch first when some are not alive. */
pqt_status pqt_scan_cb_eval(const pqt_fprog *p, const fcb *cb, const pqt_scan_vec *vecs,
                            int64_t n, const uint64_t *sel, uint64_t *out);

void pqt_scan_cset_free(cset *s);
/* Build a hash table over members already in the column domain: n integers (or doubles as
 * their bits) / n strings (offsets + bytes). Sorts and de-duplicates. */
pqt_status pqt_scan_cset_ints(cset *s, const int64_t *v, int64_t n);
pqt_status pqt_scan_cset_doubles(cset *s, const double *v, int64_t n);
pqt_status pqt_scan_cset_strings(cset *s, const int64_t *off, const char *bytes, int64_t n);
/* Sort and de-duplicate in place (the set copy at bind); returns the distinct count. */
int64_t pqt_scan_sort_ints(int64_t *v, int64_t n);
int64_t pqt_scan_sort_doubles(double *v, int64_t n);
/* Strings: sorted order as a permutation, de-duplicated; returns the distinct count. */
pqt_status pqt_scan_sort_strings(const int64_t *off, const char *bytes, int64_t n,
                                 int64_t **perm_ret, int64_t *nperm_ret);

static inline uint64_t pqt_scan_hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t pqt_scan_hash_bytes(const char *p, int64_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)len;
    int64_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        __builtin_memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    uint64_t t = 0;
    for (int k = 0; i < len; i++, k++) t |= (uint64_t)(uint8_t)p[i] << (8 * k);
    return pqt_scan_hash64(h ^ t);
}

/* Bytewise (unsigned) comparison of two strings, shorter first on a common prefix. */
static inline int pqt_scan_strcmp(const char *a, int64_t la, const char *b, int64_t lb)
{
    int64_t m = la < lb ? la : lb;
    for (int64_t i = 0; i < m; i++) {
        uint8_t x = (uint8_t)a[i], y = (uint8_t)b[i];
        if (x != y) return x < y ? -1 : 1;
    }
    return (la > lb) - (la < lb);
}

#endif
