/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_like.c - LIKE / ILIKE patterns compiled against a string column (layer: scan).
 *
 * docs/filters.md, "SQL spellings". The pattern is read once: an escape character makes the
 * character after it literal, `%` (runs of them are one) and `_` are wildcards, every other
 * byte is literal (ILIKE: ASCII letters lowercased; the matcher lowercases the row's ASCII
 * letters). A pattern that is a literal with `%` at one end, both ends or none is the
 * starts_with, ends_with, contains or == it means, so it evaluates with those kernels and
 * keeps their pushdown (statistics, page index, dictionary, and bloom for ==); for ILIKE only
 * when the literal holds no ASCII letter (case variants of a letter are far apart in byte
 * order and hash apart). Any other pattern keeps the literal bytes every match starts with
 * (plen) for the statistics prover.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_lex.h"
#include "scan/filter_like.h"
#include "util/mem.h"

static pqt_status lfail(const frule *rule, const fnode *n, int32_t at, const char *fmt, ...)
    PQT_PRINTF(4, 5);
static pqt_status lfail(const frule *rule, const fnode *n, int32_t at, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!rule->text) return pqt_err(PQT_BAD_FILTER, "filter on column '%s': %s", n->col, msg);
    return pqt_scan_fail(rule->text, at, "filter rule '%.*s': %s", (int)(n->hi - n->lo),
                         rule->text + n->lo, msg);
}

static int is_upper(uint8_t c)
{
    return c >= 'A' && c <= 'Z';
}
static int is_letter(uint8_t c)
{
    return is_upper(c) || (c >= 'a' && c <= 'z');
}

/* The token string of the pattern into lf->s / lf->pat (slen tokens). */
static pqt_status tokens(const frule *rule, const fnode *n, int fold, fleaf *lf)
{
    const flit *lit = &n->val;
    const char *p = lit->s, *esc = n->like_esc;
    int64_t len = lit->len, elen = (int64_t)strlen(esc), m = 0;
    lf->s = pqt_malloc((size_t)len + 1);
    lf->pat = pqt_malloc((size_t)len + 1);
    if (!lf->s || !lf->pat) return pqt_err(PQT_NOMEM, "out of memory compiling a filter");
    for (int64_t i = 0; i < len;) {
        if (elen && i + elen <= len && memcmp(p + i, esc, (size_t)elen) == 0) {
            i += elen;
            if (i >= len)
                return lfail(rule, n, lit->lo,
                             "the pattern ends with its escape character '%s' (write it twice "
                             "for a literal one)",
                             esc);
            for (int64_t e = i + pqt_scan_utf8_step(p, i, len); i < e; i++) {
                uint8_t c = (uint8_t)p[i];
                lf->s[m] = (char)(fold && is_upper(c) ? c + 32 : c);
                lf->pat[m++] = PQT_LIKE_BYTE;
            }
            continue;
        }
        uint8_t c = (uint8_t)p[i++];
        if (c == '%' && m > 0 && lf->pat[m - 1] == PQT_LIKE_ANY) continue; /* %% is % */
        lf->s[m] = (char)(fold && is_upper(c) ? c + 32 : c);
        lf->pat[m++] = c == '%' ? PQT_LIKE_ANY : c == '_' ? PQT_LIKE_ONE : PQT_LIKE_BYTE;
    }
    lf->s[m] = '\0';
    lf->slen = m;
    return PQT_OK;
}

/* abc, abc%, %abc, %abc% (literal bytes only between): the op it is, with lf->s narrowed to
 * the literal; -1 for any other shape. */
static int simple_shape(fleaf *lf)
{
    int64_t m = lf->slen, a = 0, b = m;
    int lead = m > 0 && lf->pat[0] == PQT_LIKE_ANY;
    if (lead) a = 1;
    int trail = b > a && lf->pat[b - 1] == PQT_LIKE_ANY;
    if (trail) b--;
    for (int64_t i = a; i < b; i++)
        if (lf->pat[i] != PQT_LIKE_BYTE || (lf->op == FOP_ILIKE && is_letter((uint8_t)lf->s[i])))
            return -1;
    memmove(lf->s, lf->s + a, (size_t)(b - a));
    lf->s[b - a] = '\0';
    lf->slen = b - a;
    if (m == 1 && lead) return FOP_STARTS_WITH; /* '%' alone: every string */
    return lead && trail ? FOP_CONTAINS : lead ? FOP_ENDS_WITH : trail ? FOP_STARTS_WITH : FOP_EQ;
}

pqt_status pqt_scan_like_build(const frule *rule, const fnode *n, fleaf *lf)
{
    const flit *lit = &n->val;
    const char *opname = pqt_scan_fop_name(n->op);
    if (lit->cls != FLIT_STR || lit->is_iso)
        return lfail(rule, n, lit->lo,
                     "%s takes a quoted pattern such as 'abc%%' (%% is any run of characters, "
                     "_ one character)",
                     opname);
    int fold = n->op == FOP_ILIKE;
    lf->op = n->op;
    PQT_TRY(tokens(rule, n, fold, lf));
    int op = simple_shape(lf);
    if (op >= 0) {
        lf->op = (uint8_t)op;
        pqt_mem_free(lf->pat);
        lf->pat = NULL;
        return PQT_OK;
    }
    /* the literal bytes before the first wildcard (ILIKE: and the first letter) */
    int64_t k = 0;
    while (k < lf->slen && lf->pat[k] == PQT_LIKE_BYTE && !(fold && is_letter((uint8_t)lf->s[k])))
        k++;
    lf->plen = k;
    return PQT_OK;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

pqt_status pqt_scan_like_escape(const char *t, int32_t nbytes, int32_t clause_lo, int32_t at,
                                fnode *c, int32_t *end_ret)
{
    ftok w, q;
    if (pqt_scan_lex(t, nbytes, at, &w) != 0 || w.type != TK_WORD || w.hi - w.lo != 6)
        return PQT_OK; /* not ESCAPE: the parser goes on from at */
    for (int i = 0; i < 6; i++)
        if (lower((unsigned char)t[w.lo + i]) != "escape"[i]) return PQT_OK;
    int ok = pqt_scan_lex(t, nbytes, w.hi, &q) == 0 && q.type == TK_QUOTED;
    int32_t len = q.hi - q.lo - 2;
    /* one character: its bytes, no doubled quote */
    ok = ok && len >= 1 && len <= 4 && pqt_scan_utf8_step(t, q.lo + 1, q.hi - 1) == len &&
         t[q.lo + 1] != t[q.lo];
    if (!ok)
        return pqt_scan_fail(t, w.lo,
                             "filter rule '%.*s': escape takes one character in quotes, such as "
                             "escape '\\'",
                             (int)(w.hi - clause_lo), t + clause_lo);
    memcpy(c->like_esc, t + q.lo + 1, (size_t)len);
    c->like_esc[len] = '\0';
    c->like_esc_lo = w.lo;
    *end_ret = q.hi;
    return PQT_OK;
}
