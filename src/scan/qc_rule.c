/* SPDX-License-Identifier: Apache-2.0 */
/*
 * qc_rule.c - the qc rule grammar of docs/qc.md and the public pqt_qc object
 * (layer: scan).
 *
 *   rule := column [ ',' [ min ] [ ',' [ max ] [ ',' [ miss ] ] ] ]      at most 4 fields
 *   min  := ( '>=' | '>' ) value | value        (bare value: >=)
 *   max  := ( '<=' | '<' ) value | value        (bare value: <=)
 *   miss := '' | Null | NA                      (case-insensitive)
 *
 * Syntax is checked when a rule is added; the column and the bounds' types when a table
 * binds the rules at open (pqt_scan_qc_fit).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scan/qc.h"
#include "util/error.h"
#include "util/mem.h"

static void rule_free(pqt_qc_rule *r)
{
    pqt_mem_free(r->column);
    pqt_mem_free(r->min.text);
    pqt_mem_free(r->max.text);
    memset(r, 0, sizeof *r);
}

pqt_status pqt_qc_new(pqt_qc **ret)
{
    if (!ret) return pqt_err(PQT_MISUSE, "pqt_qc_new: ret is NULL");
    pqt_qc *qc = pqt_calloc(1, sizeof *qc);
    if (!qc) return pqt_err(PQT_NOMEM, "pqt_qc_new: out of memory");
    *ret = qc;
    return PQT_OK;
}

void pqt_qc_clear(pqt_qc *qc)
{
    if (!qc) return;
    for (int i = 0; i < qc->n; i++) rule_free(&qc->rules[i]);
    qc->n = 0;
}

void pqt_qc_free(pqt_qc *qc)
{
    if (!qc) return;
    pqt_qc_clear(qc);
    pqt_mem_free(qc->rules);
    pqt_mem_free(qc);
}

int pqt_qc_nrules(const pqt_qc *qc) { return qc ? qc->n : 0; }

const pqt_qc_rule *pqt_scan_qc_find(const pqt_qc *qc, const char *name)
{
    for (int i = 0; qc && i < qc->n; i++)
        if (strcmp(qc->rules[i].column, name) == 0) return &qc->rules[i];
    return NULL;
}

/* s[0..n) without blanks at either end. */
static void trim(const char **s, size_t *n)
{
    while (*n > 0 && isspace((unsigned char)(*s)[0])) (*s)++, (*n)--;
    while (*n > 0 && isspace((unsigned char)(*s)[*n - 1])) (*n)--;
}

static bool is_int_text(const char *s, size_t n)
{
    size_t k = n > 0 && (s[0] == '+' || s[0] == '-') ? 1 : 0;
    if (k == n) return false;
    for (; k < n; k++)
        if (!isdigit((unsigned char)s[k])) return false;
    return true;
}

/* Digits, signs, one point, an exponent: what a float bound may be made of. */
static bool is_float_text(const char *s, size_t n)
{
    bool digit = false;
    for (size_t k = 0; k < n; k++) {
        char c = s[k];
        if (isdigit((unsigned char)c)) digit = true;
        else if (c != '+' && c != '-' && c != '.' && c != 'e' && c != 'E') return false;
    }
    return digit;
}

static bool is_nonfinite_word(const char *s, size_t n)
{
    if (n > 0 && (s[0] == '+' || s[0] == '-')) s++, n--;
    return (n == 3 && (strncasecmp(s, "nan", 3) == 0 || strncasecmp(s, "inf", 3) == 0)) ||
           (n == 8 && strncasecmp(s, "infinity", 8) == 0);
}

/* Parse one bound field f[0..n) (trimmed, not empty). which is "min" or "max". */
static pqt_status parse_bound(const char *rule, const char *which, const char *f, size_t n,
                              pqt_qc_bound *b)
{
    const char *good = which[1] == 'i' ? ">" : "<", *bad = which[1] == 'i' ? "<" : ">";
    if (f[0] == bad[0])
        return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': the %s field takes %s= or %s (or a "
                                   "bare value, meaning %s=), not '%.*s'",
                       rule, which, good, good, good, n > 1 && f[1] == '=' ? 2 : 1, f);
    if (f[0] == '=' || f[0] == '!')
        return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': the %s field takes %s= or %s (or a "
                                   "bare value), not '%.*s'",
                       rule, which, good, good, n > 1 && f[1] == '=' ? 2 : 1, f);
    b->set = true;
    if (f[0] == good[0]) {
        size_t op = n > 1 && f[1] == '=' ? 2 : 1;
        b->strict = op == 1;
        f += op;
        n -= op;
        trim(&f, &n);
        if (n == 0)
            return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': the %s operator %s has no value",
                           rule, which, b->strict ? good : which[1] == 'i' ? ">=" : "<=");
    }
    if (n >= 2 && (f[0] == '\'' || f[0] == '"') && f[n - 1] == f[0]) {
        b->text = pqt_strndup(f + 1, n - 2); /* quoted: a string literal, never a number */
        return b->text ? PQT_OK : pqt_err(PQT_NOMEM, "pqt_qc_add: out of memory");
    }
    b->text = pqt_strndup(f, n);
    if (!b->text) return pqt_err(PQT_NOMEM, "pqt_qc_add: out of memory");
    if (is_nonfinite_word(f, n))
        return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': the %s bound '%s' is not finite "
                                   "(bounds must be finite numbers)",
                       rule, which, b->text);
    if (is_int_text(f, n)) {
        /* exact: 9007199254740993 must not become 9007199254740992 */
        errno = 0;
        char *end;
        long long v = strtoll(b->text, &end, 10);
        if (errno == ERANGE && b->text[0] != '-') { /* a uint64 column's values go that far */
            errno = 0;
            unsigned long long u = strtoull(b->text, &end, 10);
            if (errno != ERANGE) {
                b->is_u64 = true;
                b->u = (uint64_t)u;
                b->d = (double)u;
                return PQT_OK;
            }
        }
        if (errno == ERANGE)
            return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': the integer %s bound '%s' is "
                                       "outside the 64-bit range (-9223372036854775808.."
                                       "18446744073709551615)",
                           rule, which, b->text);
        b->is_int = true;
        b->i = (int64_t)v;
        b->d = (double)v;
        return PQT_OK;
    }
    if (is_float_text(f, n)) {
        char *end;
        double v = strtod(b->text, &end);
        if (*end == '\0') {
            if (!isfinite(v))
                return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': the %s bound '%s' is not "
                                           "finite (bounds must be finite numbers)",
                               rule, which, b->text);
            b->is_float = true;
            b->d = v;
        }
    }
    return PQT_OK; /* otherwise a string literal */
}

static pqt_status parse_rule(const char *rule, pqt_qc_rule *r)
{
    const char *field[4];
    size_t len[4];
    int nf = 0;
    const char *p = rule;
    for (;;) {
        const char *comma = strchr(p, ',');
        if (nf == 4)
            return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s' has more than four fields "
                                       "(column, min, max, miss)",
                           rule);
        field[nf] = p;
        len[nf] = comma ? (size_t)(comma - p) : strlen(p);
        trim(&field[nf], &len[nf]);
        nf++;
        if (!comma) break;
        p = comma + 1;
    }
    if (len[0] == 0)
        return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s' has no column name (the first field)",
                       rule);
    if (!(r->column = pqt_strndup(field[0], len[0])))
        return pqt_err(PQT_NOMEM, "pqt_qc_add: out of memory");
    if (nf > 1 && len[1] > 0) PQT_TRY(parse_bound(rule, "min", field[1], len[1], &r->min));
    if (nf > 2 && len[2] > 0) PQT_TRY(parse_bound(rule, "max", field[2], len[2], &r->max));
    if (nf > 3) {
        if (len[3] == 0) r->miss = PQT_QC_MISS_FORBIDDEN;
        else if ((len[3] == 4 && strncasecmp(field[3], "null", 4) == 0) ||
                 (len[3] == 2 && strncasecmp(field[3], "na", 2) == 0))
            r->miss = PQT_QC_MISS_EXPECTED;
        else
            return pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': the miss field is '%.*s'; it "
                                       "takes Null or NA (nulls expected) or nothing (nulls not "
                                       "expected)",
                           rule, (int)len[3], field[3]);
    }
    return PQT_OK;
}

pqt_status pqt_qc_add(pqt_qc *qc, const char *rule)
{
    if (!qc || !rule)
        return pqt_err(PQT_MISUSE, "pqt_qc_add: %s is NULL", qc ? "rule" : "qc handle");
    const char *s = rule;
    size_t n = strlen(rule);
    trim(&s, &n);
    if (n == 0) return PQT_OK; /* an all-blank rule says nothing */
    pqt_qc_rule r;
    memset(&r, 0, sizeof r);
    pqt_status st = parse_rule(rule, &r);
    if (st == PQT_OK && pqt_scan_qc_find(qc, r.column))
        st = pqt_err(PQT_MISUSE, "pqt_qc_add: rule '%s': column '%s' already has a rule (one "
                                 "rule per column)",
                     rule, r.column);
    if (st == PQT_OK && qc->n == qc->cap) {
        int cap = qc->cap ? qc->cap * 2 : 8;
        pqt_qc_rule *nr = pqt_realloc(qc->rules, (size_t)cap * sizeof *nr);
        if (!nr) st = pqt_err(PQT_NOMEM, "pqt_qc_add: out of memory");
        else {
            qc->rules = nr;
            qc->cap = cap;
        }
    }
    if (st != PQT_OK) {
        rule_free(&r);
        return st;
    }
    qc->rules[qc->n++] = r;
    return PQT_OK;
}

static char *dup_or_null(const char *s, bool *ok)
{
    if (!s) return NULL;
    char *d = pqt_strdup(s);
    if (!d) *ok = false;
    return d;
}

pqt_status pqt_scan_qc_copy(const pqt_qc *src, pqt_qc **ret)
{
    *ret = NULL;
    if (!src) return PQT_OK;
    pqt_qc *qc = NULL; /* gcc -O3 cannot see PQT_TRY set it */
    PQT_TRY(pqt_qc_new(&qc));
    bool ok = true;
    if (src->n > 0) {
        qc->rules = pqt_calloc((size_t)src->n, sizeof *qc->rules);
        ok = qc->rules != NULL;
        qc->cap = ok ? src->n : 0;
    }
    for (int i = 0; ok && i < src->n; i++) {
        pqt_qc_rule *d = &qc->rules[i];
        *d = src->rules[i];
        d->column = dup_or_null(src->rules[i].column, &ok);
        d->min.text = dup_or_null(src->rules[i].min.text, &ok);
        d->max.text = dup_or_null(src->rules[i].max.text, &ok);
        qc->n++;
    }
    if (!ok) {
        pqt_qc_free(qc);
        return pqt_err(PQT_NOMEM, "out of memory copying qc rules");
    }
    *ret = qc;
    return PQT_OK;
}

size_t pqt_scan_qc_bounds_text(const pqt_qc_rule *r, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s%s%s%s%s%s%s", r->min.set ? "min " : "",
                     r->min.set ? (r->min.strict ? "> " : ">= ") : "",
                     r->min.set ? r->min.text : "", r->min.set && r->max.set ? ", " : "",
                     r->max.set ? "max " : "", r->max.set ? (r->max.strict ? "< " : "<= ") : "",
                     r->max.set ? r->max.text : "");
    return n < 0 ? 0 : (size_t)n;
}

int64_t pqt_qc_describe(const pqt_qc *qc, char *buf, size_t cap)
{
    size_t at = 0;
    for (int i = 0; qc && i < qc->n; i++) {
        const pqt_qc_rule *r = &qc->rules[i];
        char bounds[600];
        pqt_scan_qc_bounds_text(r, bounds, sizeof bounds);
        static const char *const miss[] = {"", "Nulls expected", "Nulls not expected"};
        bool has_b = r->min.set || r->max.set;
        int n = snprintf(at < cap ? buf + at : NULL, at < cap ? cap - at : 0,
                         "qc: column '%s': %s%s%s\n", r->column, bounds,
                         has_b && r->miss ? ", " : "",
                         has_b || r->miss ? miss[r->miss] : "checks nothing");
        if (n > 0) at += (size_t)n;
    }
    if (at == 0 && cap > 0) buf[0] = '\0';
    return (int64_t)at;
}

static const char *kind_word(int ek)
{
    return pqt_kind_name(ek);
}

pqt_status pqt_scan_qc_fit(const pqt_qc_rule *r, int ek)
{
    const pqt_qc_bound *bs[2] = {&r->min, &r->max};
    static const char *const which[2] = {"min", "max"};
    for (int k = 0; k < 2; k++) {
        const pqt_qc_bound *b = bs[k];
        if (!b->set) continue;
        switch (ek) {
        case PQT_DATE:
        case PQT_TIME:
        case PQT_TIMESTAMP:
            return pqt_err(PQT_KIND, "qc rule for column '%s': min/max bounds are not supported "
                                     "on a %s column (a miss: check is)",
                           r->column, kind_word(ek));
        case PQT_INT32:
        case PQT_INT64:
        case PQT_UINT64:
            if (!b->is_int && !b->is_u64)
                return pqt_err(PQT_KIND, "qc rule for column '%s': the %s bound '%s' is not an "
                                         "integer, and the column is %s (integer bounds are "
                                         "compared exactly)",
                               r->column, which[k], b->text, kind_word(ek));
            if ((ek == PQT_INT32 && (b->is_u64 || b->i < INT32_MIN || b->i > INT32_MAX)) ||
                (ek == PQT_INT64 && b->is_u64) || (ek == PQT_UINT64 && !b->is_u64 && b->i < 0))
                return pqt_err(PQT_KIND, "qc rule for column '%s': the %s bound %s is outside "
                                         "the range of the column's kind %s",
                               r->column, which[k], b->text, kind_word(ek));
            break;
        case PQT_FLOAT32:
        case PQT_FLOAT64:
            if (!b->is_int && !b->is_u64 && !b->is_float)
                return pqt_err(PQT_KIND, "qc rule for column '%s': the %s bound '%s' is not a "
                                         "number, and the column is %s",
                               r->column, which[k], b->text, kind_word(ek));
            break;
        default: /* strings: any literal; booleans: accepted, never enforced */
            break;
        }
    }
    return PQT_OK;
}
