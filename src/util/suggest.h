/* SPDX-License-Identifier: Apache-2.0 */
/*
 * suggest.h - "did you mean ...?" for a name that matched nothing (layer: util).
 *
 * A failed lookup offers every candidate name to a pqt_suggest and asks for the closest:
 * a case-insensitive match wins, then the smallest edit distance (insertions, deletions,
 * substitutions and swaps of neighbours, ignoring ASCII case) when it is small enough to be
 * a typo. Only failures pay for this; the lookups themselves stay plain string compares.
 */
#ifndef PQT_UTIL_SUGGEST_H
#define PQT_UTIL_SUGGEST_H

#include <stddef.h>

typedef struct pqt_suggest {
    const char *want; /* the name that was not found */
    const char *best; /* closest candidate so far, NULL when none is close enough */
    int best_dist;
} pqt_suggest;

void pqt_suggest_init(pqt_suggest *s, const char *want);
/* Consider one candidate (NULL is ignored). Dotted paths also match on their last part, so
 * "mag" finds "phot.mag". The pointer is kept: it must outlive the pqt_suggest. */
void pqt_suggest_offer(pqt_suggest *s, const char *cand);
/* "; did you mean 'X'?" into buf (cap bytes, NUL-terminated, cut if needed), or "" when no
 * candidate was close. Returns buf. */
const char *pqt_suggest_text(const pqt_suggest *s, char *buf, size_t cap);

#endif
