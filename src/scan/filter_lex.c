/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_lex.c - tokens of the filter language (layer: scan).
 *
 * docs/filters.md, "Grammar": whitespace separates tokens, parentheses delimit themselves, a
 * double- or single-quoted run is one token (a doubled quote inside one is a literal quote),
 * keywords and/or/not (and the operators like/ilike) are case-insensitive whole words. Our
 * extensions: a backquoted run is one column name (`` inside it is a literal backquote); the
 * symbolic operators also take the spellings = != <>. Positions in messages are 1-based characters
 * (UTF-8 code points) of the rule, so a rule holding unicode is counted as a person reads it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_lex.h"
#include "util/error.h"
#include "util/mem.h"

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

int pqt_scan_is_wordchar(int c)
{
    return !is_space(c) && c != '(' && c != ')' && c != '"' && c != '\'' && c != '`' && c != '\0';
}

int pqt_scan_is_opchar(int c) { return c == '<' || c == '>' || c == '=' || c == '!' || c == '/'; }

int pqt_scan_is_identchar(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.' || c == '$' || c >= 0x80;
}

/* Scan a quoted run opening at t[at] == q; returns the offset after the closing quote, or -1
 * when the rule ends first. A doubled quote is a literal one. */
static int32_t quoted_end(const char *t, int32_t n, int32_t at, char q)
{
    for (int32_t i = at + 1; i < n; i++) {
        if (t[i] != q) continue;
        if (i + 1 < n && t[i + 1] == q) {
            i++;
            continue;
        }
        return i + 1;
    }
    return -1;
}

int pqt_scan_lex(const char *t, int32_t n, int32_t at, ftok *tok)
{
    while (at < n && is_space((unsigned char)t[at])) at++;
    tok->lo = at;
    if (at >= n) {
        tok->type = TK_END;
        tok->hi = at;
        return 0;
    }
    char c = t[at];
    if (c == '(' || c == ')') {
        tok->type = c == '(' ? TK_LP : TK_RP;
        tok->hi = at + 1;
        return 0;
    }
    if (c == '"' || c == '\'' || c == '`') {
        int32_t e = quoted_end(t, n, at, c);
        tok->type = c == '`' ? TK_BQUOTED : TK_QUOTED; /* 'abc' is SQL's spelling of "abc" */
        tok->hi = e < 0 ? n : e;
        return e < 0 ? -1 : 0;
    }
    int32_t e = at;
    while (e < n && pqt_scan_is_wordchar((unsigned char)t[e])) e++;
    tok->type = TK_WORD;
    tok->hi = e;
    return 0;
}

char *pqt_scan_unquote(const char *t, const ftok *tok, int64_t *len_ret)
{
    char q = t[tok->lo];
    int32_t lo = tok->lo + 1, hi = tok->hi - 1;
    char *s = pqt_malloc((size_t)(hi - lo) + 1);
    if (!s) return NULL;
    int64_t o = 0;
    for (int32_t i = lo; i < hi; i++) {
        s[o++] = t[i];
        if (t[i] == q) i++; /* doubled quote */
    }
    s[o] = '\0';
    *len_ret = o;
    return s;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int pqt_scan_keyword(const char *t, const ftok *tok)
{
    static const char *const kw[] = {"and", "or", "not"};
    if (tok->type != TK_WORD) return KW_NONE;
    int32_t len = tok->hi - tok->lo;
    for (int k = 0; k < 3; k++) {
        if ((int32_t)strlen(kw[k]) != len) continue;
        int ok = 1;
        for (int32_t i = 0; i < len && ok; i++) ok = lower((unsigned char)t[tok->lo + i]) == kw[k][i];
        if (ok) return KW_AND + k;
    }
    return KW_NONE;
}

static const struct {
    const char *spelling;
    int op;
} symops[] = {{">=", FOP_GE}, {"<=", FOP_LE}, {"==", FOP_EQ}, {"/=", FOP_NE}, {"!=", FOP_NE},
              {"<>", FOP_NE}, {">", FOP_GT},  {"<", FOP_LT},  {"=", FOP_EQ}};

static const char *const op_names[FOP_COUNT] = {
    "<",      "<=",         ">",         ">=",            "==",          "/=",
    "in",     "not_in",     "is_null",   "is_not_null",   "is_nan",      "is_not_nan",
    "is_finite", "is_not_finite", "starts_with", "ends_with", "contains", "like", "ilike",
    "true",   "false"};

const char *pqt_scan_fop_name(int op) { return op >= 0 && op < FOP_COUNT ? op_names[op] : "?"; }

int pqt_scan_match_symop(const char *s, int32_t len, int *op)
{
    for (size_t k = 0; k < sizeof symops / sizeof symops[0]; k++) {
        int32_t l = (int32_t)strlen(symops[k].spelling);
        if (l <= len && memcmp(s, symops[k].spelling, (size_t)l) == 0) {
            *op = symops[k].op;
            return l;
        }
    }
    return 0;
}

int pqt_scan_match_wordop(const char *s, int32_t len)
{
    /* case-sensitive, whole word; like and ilike (SQL keywords) in any case */
    for (int op = FOP_LIKE; op <= FOP_ILIKE; op++) {
        const char *w = op_names[op];
        int32_t i = 0;
        while (i < len && w[i] && lower((unsigned char)s[i]) == w[i])
            i++;
        if (i == len && !w[i]) return op;
    }
    for (int op = FOP_IN; op <= FOP_CONTAINS; op++) {
        if (op == FOP_IN || op == FOP_NOT_IN || op >= FOP_IS_NULL) {
            const char *w = op_names[op];
            if ((int32_t)strlen(w) == len && memcmp(s, w, (size_t)len) == 0) return op;
        }
    }
    int op = -1;
    int32_t l = pqt_scan_match_symop(s, len, &op);
    return l == len ? op : -1;
}

/* n digits at t[at..]: 1 when all are digits and inside the rule. */
static int digits_at(const char *t, int32_t nbytes, int32_t at, int n)
{
    for (int i = 0; i < n; i++)
        if (at + i >= nbytes || t[at + i] < '0' || t[at + i] > '9') return 0;
    return 1;
}

/* hh:mm[:ss[.f...]] at t[at]: its length, or 0. */
static int32_t time_len(const char *t, int32_t nbytes, int32_t at)
{
    if (!digits_at(t, nbytes, at, 2) || at + 2 >= nbytes || t[at + 2] != ':' ||
        !digits_at(t, nbytes, at + 3, 2))
        return 0;
    int32_t e = at + 5;
    if (e < nbytes && t[e] == ':' && digits_at(t, nbytes, e + 1, 2)) {
        e += 3;
        if (e + 1 < nbytes && t[e] == '.' && digits_at(t, nbytes, e + 1, 1))
            for (e++; e < nbytes && t[e] >= '0' && t[e] <= '9';) e++;
    }
    return e - at;
}

int32_t pqt_scan_lex_iso(const char *t, int32_t nbytes, int32_t at)
{
    int32_t e;
    if (digits_at(t, nbytes, at, 4) && at + 4 < nbytes && t[at + 4] == '-' &&
        digits_at(t, nbytes, at + 5, 2) && at + 7 < nbytes && t[at + 7] == '-' &&
        digits_at(t, nbytes, at + 8, 2)) {
        e = at + 10;
        int32_t tl = e < nbytes && t[e] == 'T' ? time_len(t, nbytes, e + 1) : 0;
        if (tl) e += 1 + tl;
        if (tl && e < nbytes && t[e] == 'Z') e++;
    } else {
        int32_t tl = time_len(t, nbytes, at);
        if (!tl) return 0;
        e = at + tl;
    }
    /* 12:30:5 is not 12:30 followed by something */
    if (e < nbytes && (pqt_scan_is_identchar((unsigned char)t[e]) || t[e] == ':')) return 0;
    return e - at;
}

int pqt_scan_iso_value(const char *t, int32_t lo, int32_t hi, flit *lit)
{
    if (hi <= lo || pqt_scan_lex_iso(t, hi, lo) != hi - lo) return 0;
    memset(lit, 0, sizeof *lit);
    lit->cls = FLIT_STR;
    lit->is_iso = 1;
    lit->lo = lo;
    lit->hi = hi;
    lit->len = hi - lo;
    lit->s = pqt_strndup(t + lo, (size_t)(hi - lo));
    return lit->s ? 1 : -1;
}

int pqt_scan_charpos(const char *text, int32_t off)
{
    int pos = 1;
    for (int32_t i = 0; i < off; i++) pos += ((unsigned char)text[i] & 0xC0) != 0x80;
    return pos;
}

void pqt_scan_rule_show(const char *text, int32_t nbytes, char *buf, size_t cap)
{
    const int32_t max = 160;
    if (nbytes <= max) {
        snprintf(buf, cap, "%.*s", (int)nbytes, text);
        return;
    }
    int32_t cut = max - 3;
    while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80) cut--;
    snprintf(buf, cap, "%.*s...", (int)cut, text);
}

pqt_status pqt_scan_fail(const char *text, int32_t at, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!text) return pqt_err(PQT_BAD_FILTER, "%s", msg);
    return pqt_err(PQT_BAD_FILTER, "%s at character %d", msg, pqt_scan_charpos(text, at));
}
