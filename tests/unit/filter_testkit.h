/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_testkit.h - a tiny in-memory table for the filter tests: columns in pqt's layout,
 * compile a filter against them, evaluate, and list the rows kept ("0 3 5").
 */
#ifndef PQT_FILTER_TESTKIT_H
#define PQT_FILTER_TESTKIT_H

#include <stdio.h>
#include <string.h>

#include "scan/filter.h"
#include "testutil.h"

#define TK_MAXCOLS 32

typedef struct tk_col {
    const char *name;
    int kind, unit;
    const void *data;      /* values, or int64 offsets for strings */
    const char *bytes;     /* strings */
    const uint8_t *valid;  /* NULL = all present */
} tk_col;

typedef struct tk_table {
    tk_col cols[TK_MAXCOLS];
    int ncols;
    int64_t nrows;
} tk_table;

static inline void tk_add(tk_table *t, const char *name, int kind, int unit, const void *data,
                          const char *bytes, const uint8_t *valid)
{
    t->cols[t->ncols++] = (tk_col){name, kind, unit, data, bytes, valid};
}

/* Compile f against the table; NULL on failure (status in *st_ret, message in pqt_errmsg). */
static inline pqt_fprog *tk_compile(const tk_table *t, const pqt_filter *f, pqt_status *st_ret)
{
    pqt_scan_col cols[TK_MAXCOLS];
    for (int i = 0; i < t->ncols; i++)
        cols[i] = (pqt_scan_col){t->cols[i].name, t->cols[i].kind, t->cols[i].unit};
    pqt_fprog *p = NULL;
    pqt_status st = pqt_scan_compile(f, cols, t->ncols, &p);
    if (st_ret) *st_ret = st;
    return st == PQT_OK ? p : NULL;
}

/* Evaluate p over the whole table into keep (bytes), returning the rows kept. */
static inline int64_t tk_eval(const tk_table *t, const pqt_fprog *p, uint8_t *keep)
{
    pqt_scan_vec vecs[TK_MAXCOLS];
    for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
        const tk_col *c = &t->cols[pqt_scan_prog_col(p, s)];
        vecs[s] = (pqt_scan_vec){c->data, c->bytes, c->valid};
    }
    pqt_scan_scratch sc = {0};
    int64_t nkeep = -1;
    CHECK_OK(pqt_scan_prog_eval(p, vecs, t->nrows, NULL, keep, &nkeep, &sc));
    pqt_scan_scratch_free(&sc);
    return nkeep;
}

static pqt_status tk_last_status;

/* Rows kept by the rules (AND-combined) as "0 3 5", or "ERR: <message>". */
static inline const char *tk_rows(const tk_table *t, const char *const *rules, int nrules,
                                  pqt_filter *f_in)
{
    static char out[1200];
    pqt_filter *f = f_in;
    if (!f) CHECK_OK(pqt_filter_new(&f));
    for (int r = 0; r < nrules; r++) {
        if ((tk_last_status = pqt_filter_add(f, rules[r])) != PQT_OK) {
            snprintf(out, sizeof out, "ERR: %s", pqt_errmsg());
            if (!f_in) pqt_filter_free(f);
            return out;
        }
    }
    pqt_fprog *p = tk_compile(t, f, &tk_last_status);
    if (!f_in) pqt_filter_free(f);
    if (!p) {
        snprintf(out, sizeof out, "ERR: %s", pqt_errmsg());
        return out;
    }
    uint8_t keep[256];
    memset(keep, 0xee, sizeof keep);
    int64_t nkeep = tk_eval(t, p, keep);
    out[0] = '\0';
    int64_t cnt = 0;
    for (int64_t i = 0; i < t->nrows; i++) {
        if (!((keep[i >> 3] >> (i & 7)) & 1)) continue;
        cnt++;
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%lld", out[0] ? " " : "",
                 (long long)i);
    }
    CHECK_EQ_I64(cnt, nkeep);
    /* bits past nrows are zero */
    if (t->nrows % 8) CHECK_EQ_I64(keep[t->nrows / 8] >> (t->nrows % 8), 0);
    pqt_scan_prog_free(p);
    return out;
}

static inline const char *tk_rule(const tk_table *t, const char *rule)
{
    return tk_rows(t, &rule, 1, NULL);
}

#define CHECK_ROWS(t, rule, expect)                                                                \
    do {                                                                                           \
        const char *got_ = tk_rule((t), (rule));                                                   \
        if (strcmp(got_, (expect)) != 0) {                                                         \
            fprintf(stderr, "%s:%d: rule %s: kept [%s], expected [%s]\n", __FILE__, __LINE__,      \
                    (rule), got_, (expect));                                                       \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

/* The rule fails (at add or at compile) with PQT_BAD_FILTER, a message holding frag, and (pos
 * > 0) ending " at character <pos>". */
#define CHECK_BAD(t, rule, frag, pos)                                                              \
    do {                                                                                           \
        const char *got_ = tk_rule((t), (rule));                                                   \
        char tail_[40];                                                                            \
        snprintf(tail_, sizeof tail_, " at character %d", (int)(pos));                            \
        size_t gl_ = strlen(got_), tl_ = strlen(tail_);                                            \
        if (strncmp(got_, "ERR: ", 5) != 0 || !strstr(got_, (frag)) ||                             \
            tk_last_status != PQT_BAD_FILTER ||                             \
            ((pos) > 0 && (gl_ < tl_ || strcmp(got_ + gl_ - tl_, tail_) != 0))) {                  \
            fprintf(stderr, "%s:%d: rule %s: got [%s], expected an error with [%s]%s\n",          \
                    __FILE__, __LINE__, (rule), got_, (frag), tail_);                              \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#endif
