/* SPDX-License-Identifier: Apache-2.0 */
/*
 * suggest.c - the closest name to one that matched nothing (layer: util).
 *
 * Distance is the optimal-string-alignment edit distance (Damerau-Levenshtein without
 * repeated edits of one substring) over ASCII-case-folded bytes, so "MASS" is 0 from "mass"
 * and "msas" (two letters swapped) is 1. A candidate is close enough when its distance is at most a third of the
 * wanted name's length (at least 1): "mas" finds "mass", "nope" finds nothing in "id".
 */
#include "suggest.h"

#include <stdio.h>
#include <string.h>

/* Names longer than this are never suggested (nor looked for): the rows live on the stack. */
#define MAX_NAME 255

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

/* Distance between a[0..na) and b[0..nb), or limit + 1 when it exceeds limit. */
static int distance(const char *a, size_t na, const char *b, size_t nb, int limit)
{
    size_t diff = na > nb ? na - nb : nb - na;
    if (diff > (size_t)limit || na > MAX_NAME || nb > MAX_NAME) return limit + 1;
    int rows[3][MAX_NAME + 1];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = (int)i;
        int row_min = cur[0];
        unsigned char ai = fold((unsigned char)a[i - 1]);
        for (size_t j = 1; j <= nb; j++) {
            unsigned char bj = fold((unsigned char)b[j - 1]);
            int d = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai != bj));
            if (i > 1 && j > 1 && ai == fold((unsigned char)b[j - 2]) &&
                fold((unsigned char)a[i - 2]) == bj && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
            if (d < row_min) row_min = d;
        }
        if (row_min > limit) return limit + 1; /* every later row is at least this */
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[nb] <= limit ? prev[nb] : limit + 1;
}

void pqt_suggest_init(pqt_suggest *s, const char *want)
{
    s->want = want ? want : "";
    s->best = NULL;
    s->best_dist = 0;
}

void pqt_suggest_offer(pqt_suggest *s, const char *cand)
{
    if (!cand || !cand[0]) return;
    size_t nw = strlen(s->want);
    int limit = nw / 3 > 1 ? (int)(nw / 3) : 1;
    /* Rank: twice the distance, plus one for a match on the last part only, so a full-path
     * match wins a tie. */
    int rank = 2 * distance(s->want, nw, cand, strlen(cand), limit);
    const char *dot = strrchr(cand, '.');
    if (dot && dot[1]) {
        int r = 2 * distance(s->want, nw, dot + 1, strlen(dot + 1), limit) + 1;
        if (r < rank) rank = r;
    }
    if (rank > 2 * limit + 1) return;
    if (!s->best || rank < s->best_dist) {
        s->best = cand;
        s->best_dist = rank;
    }
}

const char *pqt_suggest_text(const pqt_suggest *s, char *buf, size_t cap)
{
    if (cap == 0) return buf;
    buf[0] = '\0';
    if (s->best) snprintf(buf, cap, "; did you mean '%s'?", s->best);
    return buf;
}
