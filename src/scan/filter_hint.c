/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_hint.c - what to write instead, for a rule that failed and looks like SQL or C
 * (layer: scan; docs/filters.md, "Errors").
 *
 * Called once a rule has failed (to parse, or to compile against columns), so it never
 * changes what a rule means: it reads the rule's tokens for a spelling another language
 * uses and this one does not (x = null, &&, ||, !x, ~ and regexp, in without parentheses,
 * is true, 2018/01/01, between 1, 2, a double-quoted column name) and puts the form that
 * works into the message, in parentheses before its " at character N". The first spelling
 * found, reading the table below in order, wins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/filter_lex.h"
#include "util/error.h"

#define MAX_TOKS 256

typedef struct hctx {
    const char *t;
    ftok tok[MAX_TOKS];
    int n;
    int lo, hi; /* the tokens of the failing clause (around the message's position) */
    const pqt_scan_col *cols;
    int ncols;
} hctx;

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int len_of(const ftok *k)
{
    return (int)(k->hi - k->lo);
}

/* token i is the word w, in any case */
static int is_word(const hctx *H, int i, const char *w)
{
    if (i < 0 || i >= H->n || H->tok[i].type != TK_WORD) return 0;
    const ftok *k = &H->tok[i];
    int l = len_of(k);
    if ((int)strlen(w) != l) return 0;
    for (int j = 0; j < l; j++)
        if (lower((unsigned char)H->t[k->lo + j]) != w[j]) return 0;
    return 1;
}

static int all_opchars(const char *s, int len)
{
    for (int i = 0; i < len; i++)
        if (!strchr("<>=!/", s[i])) return 0;
    return len > 0;
}

/* The column a clause starts with: token i as written (a name or a backquoted name). */
static const char *col_text(const hctx *H, int i, int *len)
{
    if (i < 0 || i >= H->n || (H->tok[i].type != TK_WORD && H->tok[i].type != TK_BQUOTED)) {
        *len = 1;
        return "x";
    }
    *len = len_of(&H->tok[i]);
    return H->t + H->tok[i].lo;
}

/* x = null, x != null, x==null */
static int hint_null(const hctx *H, char *buf, size_t cap)
{
    for (int i = H->lo; i < H->hi; i++) {
        const ftok *k = &H->tok[i];
        int l = len_of(k);
        if (k->type != TK_WORD || l < 4) continue;
        const char *w = H->t + k->lo;
        if (lower((unsigned char)w[l - 4]) != 'n' || lower((unsigned char)w[l - 3]) != 'u' ||
            lower((unsigned char)w[l - 2]) != 'l' || lower((unsigned char)w[l - 1]) != 'l')
            continue;
        const char *op = w;
        int oplen = l - 4, c = i - 1;
        if (oplen == 0) { /* the operator is the word before */
            if (i < 1 || H->tok[i - 1].type != TK_WORD) continue;
            op = H->t + H->tok[i - 1].lo;
            oplen = len_of(&H->tok[i - 1]);
            c = i - 2;
        }
        /* the operator may be glued to the column (x==null) */
        int cstart = 0;
        while (oplen - cstart > 0 && !all_opchars(op + cstart, oplen - cstart))
            cstart++;
        if (oplen - cstart <= 0) continue;
        int neg = op[cstart] == '!' || op[cstart] == '<' || op[cstart] == '/';
        int clen;
        const char *col = cstart ? op : col_text(H, c, &clen);
        if (cstart) clen = cstart;
        snprintf(buf, cap, "a comparison with null is never true: write '%.*s is %snull'",
                 clen > 64 ? 64 : clen, col, neg ? "not " : "");
        return 1;
    }
    return 0;
}

static int hint_symbols(const hctx *H, char *buf, size_t cap)
{
    for (int i = H->lo; i < H->hi; i++) {
        const ftok *k = &H->tok[i];
        if (k->type != TK_WORD) continue;
        const char *w = H->t + k->lo;
        int l = len_of(k);
        for (int j = 0; j + 1 < l; j++) {
            if (w[j] == '&' && w[j + 1] == '&') {
                snprintf(buf, cap, "write 'and' for '&&'");
                return 1;
            }
            if (w[j] == '|' && w[j + 1] == '|') {
                snprintf(buf, cap, "write 'or' for '||'");
                return 1;
            }
        }
        if (l > 1 && w[0] == '!' && w[1] != '=' && w[1] != '~') {
            snprintf(buf, cap, "write 'not %.*s' for '%.*s'", l - 1 > 64 ? 64 : l - 1, w + 1,
                     l > 64 ? 64 : l, w);
            return 1;
        }
    }
    return 0;
}

static int hint_regex(const hctx *H, char *buf, size_t cap)
{
    static const char *const words[] = {"regexp", "rlike", "similar", "glob"};
    for (int i = H->lo; i < H->hi; i++) {
        const ftok *k = &H->tok[i];
        if (k->type != TK_WORD) continue;
        int hit = memchr(H->t + k->lo, '~', (size_t)len_of(k)) != NULL;
        for (size_t j = 0; j < sizeof words / sizeof words[0] && !hit; j++)
            hit = is_word(H, i, words[j]);
        /* regexp_matches(...), regexp_like(...) */
        for (int j = 0; j < 7 && !hit && len_of(k) > 7; j++)
            if (lower((unsigned char)H->t[k->lo + j]) != "regexp_"[j])
                break;
            else if (j == 6)
                hit = 1;
        if (!hit) continue;
        snprintf(buf, cap,
                 "regular expressions are not supported: write like with %% for any run and _ "
                 "for one character, such as name like 'a%%'");
        return 1;
    }
    return 0;
}

/* x in 1, 2 -> x in (1, 2) */
static int hint_in(const hctx *H, char *buf, size_t cap)
{
    for (int i = H->lo; i + 1 < H->n && i < H->hi; i++) {
        if (!is_word(H, i, "in") && !is_word(H, i, "not_in")) continue;
        const ftok *v = &H->tok[i + 1];
        if (v->type == TK_LP || v->type == TK_RP || (v->type == TK_WORD && H->t[v->lo] == '@'))
            continue;
        int j = i + 1;
        while (j < H->n && H->tok[j].type != TK_LP && H->tok[j].type != TK_RP &&
               !is_word(H, j, "and") && !is_word(H, j, "or"))
            j++;
        int clen, vlen = (int)(H->tok[j - 1].hi - v->lo);
        const char *col = col_text(H, i - 1, &clen);
        snprintf(buf, cap, "write the list in parentheses: '%.*s %.*s (%.*s)'",
                 clen > 64 ? 64 : clen, col, len_of(&H->tok[i]), H->t + H->tok[i].lo,
                 vlen > 80 ? 80 : vlen, H->t + v->lo);
        return 1;
    }
    return 0;
}

/* flag is true / is false / is not true / is not false */
static int hint_is_bool(const hctx *H, char *buf, size_t cap)
{
    for (int i = H->lo > 1 ? H->lo : 1; i + 1 < H->n && i < H->hi; i++) {
        if (!is_word(H, i, "is")) continue;
        int neg = is_word(H, i + 1, "not"), b = i + 1 + neg;
        int t = is_word(H, b, "true"), f = is_word(H, b, "false");
        if (!t && !f) continue;
        int clen;
        const char *c = col_text(H, i - 1, &clen);
        int v = t != neg; /* the value asked for */
        if (!neg)
            snprintf(buf, cap, "write '%.*s == %s'%s", clen, c, v ? "true" : "false",
                     v ? ", or the column alone" : "");
        else
            snprintf(buf, cap, "write '%.*s == %s or %.*s is null'", clen, c, v ? "true" : "false",
                     clen, c);
        return 1;
    }
    return 0;
}

static int digits(const char *s, int n)
{
    int k = 0;
    while (k < n && s[k] >= '0' && s[k] <= '9')
        k++;
    return k;
}

/* 2018/01/31 or 31/01/2018 as a value */
static int hint_slash_date(const hctx *H, char *buf, size_t cap)
{
    for (int i = H->lo; i < H->hi; i++) {
        const ftok *k = &H->tok[i];
        if (k->type != TK_WORD) continue;
        const char *w = H->t + k->lo;
        int l = len_of(k), a = 0;
        while (a < l && !(w[a] >= '0' && w[a] <= '9'))
            a++;                                       /* after a glued operator */
        if (a && !all_opchars(w + a - 1, 1)) continue; /* d>2018/01/31 */
        int d1 = digits(w + a, l - a);
        if (!d1 || a + d1 >= l || w[a + d1] != '/') continue;
        int p2 = a + d1 + 1, d2 = digits(w + p2, l - p2);
        if (!d2 || p2 + d2 >= l || w[p2 + d2] != '/') continue;
        int p3 = p2 + d2 + 1, d3 = digits(w + p3, l - p3);
        if (!d3 || p3 + d3 != l) continue;
        if (d1 == 4 && d2 <= 2 && d3 <= 2)
            snprintf(buf, cap, "write a date in ISO-8601: %.4s-%s%.*s-%s%.*s", w + a,
                     d2 == 1 ? "0" : "", d2, w + p2, d3 == 1 ? "0" : "", d3, w + p3);
        else
            snprintf(buf, cap, "write a date in ISO-8601: YYYY-MM-DD, such as 2018-01-31");
        return 1;
    }
    return 0;
}

/* x between 1, 2 */
static int hint_between(const hctx *H, char *buf, size_t cap)
{
    for (int i = H->lo; i + 1 < H->n && i < H->hi; i++) {
        if (!is_word(H, i, "between")) continue;
        const ftok *a = &H->tok[i + 1];
        if (a->type != TK_WORD) continue;
        int al = len_of(a);
        const char *as = H->t + a->lo;
        const ftok *b = i + 2 < H->n ? &H->tok[i + 2] : NULL;
        const char *bs = NULL;
        int bl = 0;
        if (al > 1 && as[al - 1] == ',') { /* between 1, 2 */
            al--;
            if (b && b->type == TK_WORD) bs = H->t + b->lo, bl = len_of(b);
        } else if (b && b->type == TK_WORD && H->t[b->lo] == ',') { /* between 1 ,2 */
            bs = H->t + b->lo + 1, bl = len_of(b) - 1;
            if (!bl && i + 3 < H->n && H->tok[i + 3].type == TK_WORD)
                bs = H->t + H->tok[i + 3].lo, bl = len_of(&H->tok[i + 3]);
        } else {
            continue;
        }
        int clen;
        const char *c = col_text(H, i - 1, &clen);
        if (bs && bl > 0)
            snprintf(buf, cap, "write '%.*s between %.*s and %.*s'", clen > 64 ? 64 : clen, c,
                     al > 40 ? 40 : al, as, bl > 40 ? 40 : bl, bs);
        else
            snprintf(buf, cap, "write '%.*s between LOW and HIGH'", clen > 64 ? 64 : clen, c);
        return 1;
    }
    return 0;
}

/* "mass" > 5: a double-quoted column name (SQL's quoting of names) */
static int hint_quoted_name(const hctx *H, char *buf, size_t cap)
{
    for (int i = H->lo; i < H->hi; i++) {
        const ftok *k = &H->tok[i];
        if (k->type != TK_QUOTED || H->t[k->lo] != '"') continue;
        const char *s = H->t + k->lo + 1;
        int l = len_of(k) - 2, named = 0;
        for (int c = 0; c < H->ncols && !named; c++)
            named = (int)strlen(H->cols[c].name) == l && memcmp(H->cols[c].name, s, (size_t)l) == 0;
        /* without columns (parse time): a string where a clause starts */
        int starts = i == 0 || H->tok[i - 1].type == TK_LP || is_word(H, i - 1, "and") ||
                     is_word(H, i - 1, "or") || is_word(H, i - 1, "not");
        int op_next = i + 1 < H->n && H->tok[i + 1].type == TK_WORD &&
                      all_opchars(H->t + H->tok[i + 1].lo, 1);
        if (!named && !(H->cols == NULL && starts && op_next)) continue;
        if (l <= 0) continue;
        int plain = 1;
        for (int j = 0; j < l; j++)
            plain = plain && pqt_scan_is_identchar((unsigned char)s[j]);
        if (plain)
            snprintf(buf, cap,
                     "double quotes make a string here, not a column name: write %.*s (or `%.*s`)",
                     l > 64 ? 64 : l, s, l > 64 ? 64 : l, s);
        else if (!named) /* a value where a clause starts: no name meant */
            snprintf(buf, cap,
                     "double quotes make a string here: a column name goes in backquotes "
                     "(`%.*s`), a value after the column or in single quotes ('%.*s')",
                     l > 64 ? 64 : l, s, l > 64 ? 64 : l, s);
        else
            snprintf(buf, cap, "double quotes make a string here, not a column name: write `%.*s`",
                     l > 64 ? 64 : l, s);
        return 1;
    }
    return 0;
}

static int clause_edge(const hctx *H, int i)
{
    return H->tok[i].type == TK_LP || H->tok[i].type == TK_RP || is_word(H, i, "and") ||
           is_word(H, i, "or");
}

/* The failing clause: the tokens around the byte the message's " at character N" names,
 * out to the nearest and / or / parenthesis; the whole rule when there is no position. */
static void window(hctx *H, int32_t nbytes)
{
    H->lo = 0;
    H->hi = H->n;
    const char *m = pqt_errmsg(), *at = NULL;
    for (const char *p = strstr(m, " at character "); p; p = strstr(p + 1, " at character "))
        at = p;
    if (!at) return;
    long pos = strtol(at + 14, NULL, 10);
    int32_t b = 0;
    for (long c = 1; b < nbytes; b++) { /* the byte of character pos */
        if (((unsigned char)H->t[b] & 0xC0) != 0x80 && c++ == pos) break;
    }
    int e = 0;
    while (e < H->n && H->tok[e].hi <= b)
        e++;
    if (e >= H->n) return;
    int lo = e, hi = e + 1;
    while (lo > 0 && !clause_edge(H, lo - 1))
        lo--;
    while (hi < H->n && !clause_edge(H, hi))
        hi++;
    H->lo = lo;
    H->hi = hi;
}

pqt_status pqt_scan_hint(const char *text, int32_t nbytes, const pqt_scan_col *cols, int ncols,
                         pqt_status st)
{
    if (st != PQT_BAD_FILTER || !text) return st;
    hctx H = {.t = text, .cols = cols, .ncols = ncols};
    for (int32_t at = 0; H.n < MAX_TOKS;) {
        ftok k;
        if (pqt_scan_lex(text, nbytes, at, &k) != 0 || k.type == TK_END) break;
        H.tok[H.n++] = k;
        at = k.hi;
    }
    window(&H, nbytes);
    char hint[300];
    int (*const table[])(const hctx *, char *,
                         size_t) = {hint_null,    hint_symbols,    hint_regex,   hint_in,
                                    hint_is_bool, hint_slash_date, hint_between, hint_quoted_name};
    int found = 0;
    for (size_t r = 0; r < sizeof table / sizeof table[0] && !found; r++)
        found = table[r](&H, hint, sizeof hint);
    if (!found) return st;
    /* the hint goes before " at character N", unless the message says it already */
    char msg[1400];
    snprintf(msg, sizeof msg, "%s", pqt_errmsg());
    const char *q = strstr(hint, "write '");
    if (q) {
        char form[200];
        snprintf(form, sizeof form, "%s", q + 7);
        char *e = strchr(form, '\'');
        if (e) *e = '\0';
        if (strchr(form, ' ') && strstr(msg, form)) return st; /* a whole form, not a word */
    }
    size_t ml = strlen(msg), cut = ml;
    const char *at = NULL;
    for (const char *p = strstr(msg, " at character "); p; p = strstr(p + 1, " at character "))
        at = p;
    if (at &&
        digits(at + 14, (int)(ml - (size_t)(at + 14 - msg))) == (int)(ml - (size_t)(at + 14 - msg)))
        cut = (size_t)(at - msg);
    return pqt_err(st, "%.*s (%s)%s", (int)cut, msg, hint, msg + cut);
}
