/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_like.h - SQL LIKE / ILIKE patterns (layer: scan). Private to src/scan/filter_*.c.
 *
 * docs/filters.md, "SQL spellings": `%` is any run of characters, `_` exactly one UTF-8
 * character, an ESCAPE character (none unless given) makes the next character literal;
 * ILIKE folds ASCII letters only. A pattern is compiled once (pqt_scan_like_build): the
 * shapes `abc`, `abc%`, `%abc`, `%abc%` become ==, starts_with, ends_with and contains (and
 * keep every pushdown those have); any other is a token string run by pqt_scan_like_match.
 */
#ifndef PQT_SCAN_FILTER_LIKE_H
#define PQT_SCAN_FILTER_LIKE_H

#include "scan/filter_int.h"

/* fleaf.pat: what each byte of fleaf.s is */
enum { PQT_LIKE_BYTE = 0, PQT_LIKE_ONE = 1, PQT_LIKE_ANY = 2 };

/* Compile clause n (FOP_LIKE or FOP_ILIKE, its pattern in n->val) of rule into lf, whose
 * kind (string), col and negate are already set. PQT_BAD_FILTER for a pattern that is not a
 * quoted string or ends with its escape character; lf's allocations are released by
 * pqt_scan_leaf_free. */
pqt_status pqt_scan_like_build(const frule *rule, const fnode *n, fleaf *lf);

/* The optional `ESCAPE 'c'` after a LIKE pattern ending at byte at of text (the clause
 * starting at clause_lo): fills c->like_esc and moves *end_ret past it; nothing when the next
 * word is not escape. PQT_BAD_FILTER when the escape is not one quoted character. */
pqt_status pqt_scan_like_escape(const char *text, int32_t nbytes, int32_t clause_lo, int32_t at,
                                fnode *c, int32_t *end_ret);

/* Bytes of the UTF-8 character at s[i] (i < n): a lead byte and the continuation bytes that
 * follow it, up to what it announces; any other byte is one character of its own. */
static inline int64_t pqt_scan_utf8_step(const char *s, int64_t i, int64_t n)
{
    uint8_t b = (uint8_t)s[i];
    int64_t want = b < 0xC0 ? 0 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : b < 0xF8 ? 3 : 0, k = 1;
    while (k <= want && i + k < n && ((uint8_t)s[i + k] & 0xC0) == 0x80)
        k++;
    return k;
}

/* Whether the string s[0, n) matches the compiled pattern (p, k: m tokens); fold: ILIKE (the
 * pattern's letters are already lowercase). The classic single-backtrack wildcard match:
 * on a mismatch, the last % takes one more character. No allocation; O(n * m) at worst. */
static inline int pqt_scan_like_match(const char *s, int64_t n, const char *p, const uint8_t *k,
                                      int64_t m, int fold)
{
    int64_t i = 0, j = 0, star = -1, mark = 0;
    while (i < n) {
        if (j < m && k[j] == PQT_LIKE_ANY) {
            star = j++;
            mark = i;
            continue;
        }
        if (j < m && k[j] == PQT_LIKE_ONE) {
            i += pqt_scan_utf8_step(s, i, n);
            j++;
            continue;
        }
        if (j < m) {
            uint8_t c = (uint8_t)s[i];
            if (fold && c >= 'A' && c <= 'Z') c = (uint8_t)(c + 32);
            if (c == (uint8_t)p[j]) {
                i++;
                j++;
                continue;
            }
        }
        if (star < 0) return 0;
        j = star + 1;
        mark += pqt_scan_utf8_step(s, mark, n);
        i = mark;
    }
    while (j < m && k[j] == PQT_LIKE_ANY)
        j++;
    return j == m;
}

#endif
