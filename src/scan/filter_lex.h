/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_lex.h - tokens of the filter language, shared by the parser and the compiler
 * (layer: scan). Private to src/scan/filter_*.c.
 */
#ifndef PQT_SCAN_FILTER_LEX_H
#define PQT_SCAN_FILTER_LEX_H

#include "scan/filter_int.h"
#include "util/error.h"

enum { TK_END = 0, TK_LP, TK_RP, TK_WORD, TK_QUOTED, TK_BQUOTED };
enum { KW_NONE = 0, KW_AND, KW_OR, KW_NOT };

typedef struct ftok {
    int type;
    int32_t lo, hi; /* byte span, quotes included */
} ftok;

/* The token at or after byte offset at. Returns -1 for a quoted run that the rule ends
 * inside (tok->lo is its opening quote, tok->hi the end of the rule). */
int pqt_scan_lex(const char *text, int32_t nbytes, int32_t at, ftok *tok);
/* Contents of a (back)quoted token, doubled quotes collapsed; NUL-terminated, owned by the
 * caller (pqt_mem_free). NULL when out of memory. */
char *pqt_scan_unquote(const char *text, const ftok *tok, int64_t *len_ret);
int pqt_scan_keyword(const char *text, const ftok *tok); /* KW_* */
int pqt_scan_is_wordchar(int c);
int pqt_scan_is_opchar(int c);
int pqt_scan_is_identchar(int c);
/* Longest symbolic operator at s (>= <= == /= != <> > < =): its length and *op, or 0. */
int pqt_scan_match_symop(const char *s, int32_t len, int *op);
/* The operator spelled exactly by s[0..len) (word or symbolic), or -1. */
int pqt_scan_match_wordop(const char *s, int32_t len);
/* Length of an unquoted ISO-8601 literal starting at text[at] (a date 2018-01-31, a timestamp
 * 2018-01-31T12:30:00.25 with an optional final Z, or a time of day 12:30 / 12:30:00.5) that
 * ends at a character no name could continue; 0 when there is none. */
int32_t pqt_scan_lex_iso(const char *text, int32_t nbytes, int32_t at);
/* When text[lo, hi) is exactly an unquoted ISO literal (pqt_scan_lex_iso): lit becomes that
 * string flagged is_iso (resolve takes it against date, time and timestamp columns as the
 * quoted form, and refuses it elsewhere with a hint) and 1 is returned; -1 out of memory;
 * 0 when it is not one (lit untouched). */
int pqt_scan_iso_value(const char *text, int32_t lo, int32_t hi, flit *lit);
/* PQT_BAD_FILTER with the formatted message and " at character N" (N from byte offset at of
 * text; no position when text is NULL). */
pqt_status pqt_scan_fail(const char *text, int32_t at, const char *fmt, ...) PQT_PRINTF(3, 4);

#endif
