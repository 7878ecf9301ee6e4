/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_expr.h - computed predicates of the filter language (layer: scan). Private to
 * src/scan/filter_*.c.
 *
 * A predicate whose sides are not simply "a column" and "a literal" (g - r > 0.5, ra > dec,
 * cone(ra, dec, 10, 20, 0.5), -2.5 * log10(flux) + 22.5 < 21) compiles to an fcmp: a
 * comparison between two expression trees (xnode), or a test on one. Predicates that reduce
 * to `column op literal` keep compiling to an fleaf (filter_int.h), so every pushdown keeps
 * working; a literal-only subtree is folded into one XO_LIT at compile.
 *
 * Types (docs/filters.md, "Expressions"): INT is int64 (int8..int64, uint8..uint32 and uint64
 * values that fit), FLOAT is double (float32, float64); + - * and unary minus on INT x INT are
 * exact or a PQT_RANGE error; / always gives FLOAT; // and % on INT truncate toward zero; a
 * zero divisor gives null; null in any operand gives null.
 *
 * The compiled form is read-only once built: several threads evaluate and prove with it at
 * once (the evaluator's buffers live in the caller's pqt_scan_scratch).
 */
#ifndef PQT_SCAN_FILTER_EXPR_H
#define PQT_SCAN_FILTER_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "scan/filter_int.h"

/* Result type of an expression node. */
enum {
    XT_NONE = 0,
    XT_INT,       /* int64_t */
    XT_FLOAT,     /* double */
    XT_BOOL,      /* 0/1 */
    XT_STR,       /* bytes (only a column or a literal: no string arithmetic) */
    XT_DATE,      /* days since 1970-01-01 (int64 in expressions) */
    XT_TIME,      /* count of `unit` since midnight */
    XT_TIMESTAMP, /* count of `unit` since the epoch */
    XT_LIST       /* a LIST column: only as the argument of length() */
};

/* Node operations. */
enum {
    XO_COL = 0, /* a column slot */
    XO_LIT,     /* a literal (also every folded literal-only subtree) */
    XO_NEG,     /* unary minus: args[0] */
    XO_ADD,     /* args[0] + args[1] */
    XO_SUB,
    XO_MUL,
    XO_DIV,  /* / : always FLOAT */
    XO_IDIV, /* // : INT x INT -> INT (truncated toward zero); FLOAT: trunc(a / b) */
    XO_MOD,  /* %  : INT x INT -> INT (sign of the dividend); FLOAT: fmod */
    XO_CALL, /* function fn over args[0 .. nargs - 1] */
    XO_COUNT
};

/* Functions (names case-insensitive; the table with argument counts is in filter_func.c). */
enum {
    FF_ABS = 0,
    FF_SQRT,
    FF_LOG, /* natural */
    FF_LOG10,
    FF_EXP,
    FF_POW, /* pow(x, y) */
    FF_FLOOR,
    FF_CEIL,
    FF_ROUND, /* round(x) or round(x, digits): half away from zero */
    FF_SIN,   /* radians */
    FF_COS,
    FF_TAN,
    FF_ASIN,
    FF_ACOS,
    FF_ATAN,
    FF_ATAN2, /* atan2(y, x) */
    FF_SIND,  /* degrees */
    FF_COSD,
    FF_TAND,
    FF_ASIND,
    FF_ACOSD,
    FF_ATAND,
    FF_ATAN2D,
    FF_LENGTH,   /* UTF-8 characters of a string, elements of a list: INT */
    FF_ISNAN,    /* BOOL */
    FF_ISFINITE, /* BOOL */
    FF_CONE,     /* cone(ra, dec, ra0, dec0, radius): BOOL, every argument in degrees */
    FF_COUNT
};

typedef struct xnode {
    uint8_t op;   /* XO_* */
    uint8_t type; /* XT_*: the result type */
    uint8_t fn;   /* XO_CALL: FF_* */
    int32_t nargs;
    struct xnode **args; /* XO_NEG: 1, binary ops: 2, XO_CALL: the arguments (owned) */
    /* XO_COL */
    int32_t slot; /* the column's slot in the program (pqt_fprog) */
    int kind;     /* the column's kind as compiled (PQT_*; PQT_LIST flag for XT_LIST) */
    char *col;    /* the column's name (owned), for messages and --explain */
    /* temporal types (XT_DATE/TIME/TIMESTAMP, column or literal): the unit (else -1) */
    int unit;
    /* XO_LIT: i for XT_INT/XT_BOOL/temporal, d for XT_FLOAT, s/slen for XT_STR (owned) */
    int64_t i;
    double d;
    char *s;
    int64_t slen;
    /* evaluator: index of this node's result buffer in the scratch (-1: none needed) */
    int32_t res;
    int32_t lo, hi; /* byte span in fcmp.text (messages) */
} xnode;

/* A computed predicate: the comparison node FX_CMP of fexpr (filter_int.h).
 *   op FOP_LT, LE, GT, GE, EQ: lhs op rhs (NE is EQ negated), both sides numbers (INT/FLOAT,
 *      compared exactly across the two), or both strings (bytewise), bools, or the same
 *      temporal type (units converted).
 *   op FOP_IS_NULL: lhs is null; FOP_IS_NAN / FOP_IS_FINITE: lhs (numeric) is NaN / finite.
 *   op FOP_TRUE: lhs (XT_BOOL) is true (a boolean function or column used as a predicate).
 * rhs is NULL for the unary ops. negate swaps true and false; a null row stays unknown
 * (dropped) except under is_null, exactly as fleaf. */
typedef struct fcmp {
    uint8_t op;
    uint8_t negate;
    xnode *lhs, *rhs;
    int32_t nres;   /* result buffers the evaluator needs (xnode.res < nres) */
    int32_t nslots; /* the column slots the predicate reads, ascending */
    int32_t *slots;
    char *text; /* the predicate as written (owned), for messages */
} fcmp;

/* An expression as parsed (fnode FN_PRED): no schema known yet. */
typedef struct pexpr {
    uint8_t op;     /* XO_COL (name), XO_LIT (lit), XO_NEG, the binary ops, XO_CALL (fn) */
    uint8_t quoted; /* XO_COL: written backquoted */
    int16_t fn;     /* XO_CALL: FF_* */
    int32_t nargs;
    struct pexpr **args; /* owned */
    char *name;          /* XO_COL: the column name (owned) */
    flit lit;            /* XO_LIT (lit.s owned); an unquoted ISO literal is a string */
    int32_t lo, hi;      /* byte span in the rule */
} pexpr;

void pqt_scan_pexpr_free(pexpr *x);
/* Parse the expression that is exactly text[lo, hi) (a clause's column word that names no
 * column: `g-r > 0.5`). PQT_BAD_FILTER when it is not one; PQT_NOMEM. */
pqt_status pqt_scan_pexpr_span(const char *text, int32_t nbytes, int32_t lo, int32_t hi,
                               pexpr **ret);

/* Column slot of list index ci, allocating one on first use (filter_compile.c). */
typedef pqt_status (*pqt_scan_slot_fn)(void *ctx, int ci, int *slot_ret);

/* Compile the parsed predicate n (of rule) against cols. negate: it sits under an odd number
 * of NOTs. On success exactly one of *leaf_ok (1: lf was filled, the predicate reduced to
 * `column op literal`, *col_ret its column) or *cmp_ret (a new fcmp) is set. Errors are
 * PQT_BAD_FILTER naming the rule and the character (an unknown column or function with the
 * nearest name, a wrong argument count, arithmetic on strings, bools or temporals, sides of
 * incompatible types), or PQT_NOMEM. */
pqt_status pqt_scan_cmp_build(const pqt_filter *f, const frule *rule, const fnode *n, int negate,
                              const pqt_scan_col *cols, int ncols, pqt_scan_slot_fn slot_fn,
                              void *slot_ctx, fleaf *lf, int *leaf_ok, int *col_ret,
                              fcmp **cmp_ret);
void pqt_scan_cmp_free(fcmp *c);
void pqt_scan_xnode_free(xnode *x);
/* Replace x, whose arguments are all literals, by the literal it evaluates to (text: the
 * predicate's text, for messages). A null result (a zero divisor) leaves x as it is; INT
 * overflow is PQT_BAD_FILTER. */
pqt_status pqt_scan_xnode_fold(xnode *x, const char *text);

/* out = the rows of sel (nw = (n + 63) / 64 words) where c is TRUE. vecs is indexed by slot.
 * Errors: PQT_RANGE when INT arithmetic overflows on a selected row (the message names the
 * predicate, the operation, the operand values and the row's position in the batch), PQT_NOMEM.
 * muted: on failure set no error message (the caller falls back; dictionary evaluation). */
pqt_status pqt_scan_cmp_eval(const fcmp *c, const pqt_scan_vec *vecs, int64_t n,
                             const uint64_t *sel, uint64_t *out, pqt_scan_scratch *s, int muted);

/* Verdict for c (negate included) over a row group of nrows rows from the statistics of its
 * columns (stats indexed by slot, NULL: nothing known): NONE when no row can be TRUE, ALL when
 * every row is TRUE, else SOME. Pure: no I/O, never fails; must stay sound (interval
 * arithmetic over the bounds, cone through its bounding box). filter_stats.c calls it for
 * FX_CMP. */
pqt_tri pqt_scan_cmp_prove(const fcmp *c, const pqt_scan_stats *stats, int64_t nrows);

/* The predicate as normalized rule text (snprintf semantics: returns the full length). */
int64_t pqt_scan_cmp_text(const fcmp *c, char *buf, size_t cap);

/* One value of an evaluator buffer: INT and BOOL in i, FLOAT in d. */
typedef union xv {
    int64_t i;
    double d;
} xv;

/* Function fn over n rows of FLOAT arguments (BOOL functions write out[j].i = 0/1). */
void pqt_scan_func_float(int fn, const xv *const *args, int nargs, xv *out, int64_t n);

/* Function table (filter_func.c): the id of a name (case-insensitive) or -1; its name;
 * the argument counts it takes. */
int pqt_scan_func_find(const char *name, int64_t len);
const char *pqt_scan_func_name(int fn);
void pqt_scan_func_arity(int fn, int *min_ret, int *max_ret);
/* Edit distance between s[0, len) and the name of fn (for "did you mean"). */
int pqt_scan_func_distance(const char *s, int64_t len, int fn);

#endif
