/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_text.c - a compiled conjunct written back as rule text (layer: scan).
 *
 * For --explain and messages: the conjunct as the program evaluates it, in the filter
 * language itself: NOT already pushed into the clauses (x /= 5, not_in, is_not_null, or
 * "not (x > 5)" where no operator says it), literals in the column's domain (int_col < 2.5
 * reads int_col <= 2; dates and timestamps in ISO-8601 with the column's precision).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_lex.h"
#include "scan/filter_textbuf.h"
#include "scan/filter_like.h"
#include "util/civil.h"

static void put_clock(tbuf *b, int64_t v, int unit)
{
    int64_t ups = pqt_scan_unit_per_sec(unit), sec = v / ups, frac = v % ups;
    int digits = unit == PQT_UNIT_MILLIS ? 3 : unit == PQT_UNIT_MICROS ? 6 : 9;
    putf(b, "%02d:%02d:%02d", (int)(sec / 3600), (int)(sec / 60 % 60), (int)(sec % 60));
    if (frac) putf(b, ".%0*lld", digits, (long long)frac);
}

static void put_value(tbuf *b, const fleaf *lf, int64_t i, double d, const char *s, int64_t len)
{
    switch (lf->kind) {
    case PQT_BOOL:
        puts_(b, i ? "true" : "false");
        break;
    case PQT_FLOAT32:
    case PQT_FLOAT64:
        if (isinf(d)) puts_(b, d > 0 ? "inf" : "-inf");
        else putf(b, lf->kind == PQT_FLOAT32 ? "%.9g" : "%.17g", d);
        break;
    case PQT_STRING:
        put_quoted(b, s, len, '"');
        break;
    case PQT_DATE:
    case PQT_TIMESTAMP: {
        int64_t per_day = lf->kind == PQT_DATE ? 1 : 86400 * pqt_scan_unit_per_sec(lf->unit);
        int64_t days = i / per_day, rem = i % per_day, y;
        if (rem < 0) rem += per_day, days--;
        int m, dd;
        pqt_civil_from_days(days, &y, &m, &dd);
        putf(b, "\"%04lld-%02d-%02d", (long long)y, m, dd);
        if (lf->kind == PQT_TIMESTAMP) {
            puts_(b, "T");
            put_clock(b, rem, lf->unit);
        }
        puts_(b, "\"");
        break;
    }
    case PQT_TIME:
        puts_(b, "\"");
        put_clock(b, i, lf->unit);
        puts_(b, "\"");
        break;
    case PQT_UINT64:
        putf(b, "%llu", (unsigned long long)pqt_scan_u64_out(i));
        break;
    default:
        putf(b, "%lld", (long long)i);
    }
}

static void put_col(tbuf *b, const char *c)
{
    int plain = *c != '\0';
    for (const char *p = c; *p && plain; p++) plain = pqt_scan_is_identchar((unsigned char)*p);
    if (plain) puts_(b, c);
    else put_quoted(b, c, (int64_t)strlen(c), '`');
}

/* A LIKE pattern from its tokens: wildcards as written, literal % _ \ escaped by \ (then
 * `escape "\"` follows). */
static void put_pattern(tbuf *b, const fleaf *lf)
{
    int esc = 0;
    puts_(b, "\"");
    for (int64_t i = 0; i < lf->slen; i++) {
        char c = lf->s[i];
        if (lf->pat[i] == PQT_LIKE_BYTE && (c == '%' || c == '_' || c == '\\')) {
            esc = 1;
            puts_(b, "\\");
        }
        put(b, &c, 1);
        if (c == '"') put(b, &c, 1);
    }
    puts_(b, esc ? "\" escape \"\\\"" : "\"");
}

static void put_leaf(tbuf *b, const fleaf *lf)
{
    int neg = lf->negate, op = lf->op;
    if (op == FOP_TRUE || op == FOP_FALSE) {
        /* true / false on every non-null row */
        int t = (op == FOP_TRUE) != neg;
        if (!t) puts_(b, "(");
        put_col(b, lf->col);
        puts_(b, " is_not_null");
        if (!t) {
            puts_(b, " and ");
            put_col(b, lf->col);
            puts_(b, " is_null)");
        }
        return;
    }
    int named = op == FOP_IS_NULL || op == FOP_IS_NAN || op == FOP_IS_FINITE || op == FOP_EQ ||
                op == FOP_IN;
    if (neg && !named) puts_(b, "not (");
    put_col(b, lf->col);
    puts_(b, " ");
    if (op == FOP_EQ) puts_(b, neg ? "/=" : "==");
    else if (named && neg) puts_(b, pqt_scan_fop_name(op + 1)); /* the is_not_ / not_in twin */
    else puts_(b, pqt_scan_fop_name(op));
    if (op == FOP_IN) {
        const cset *s = lf->set;
        puts_(b, " (");
        int64_t shown = s->n < 8 ? s->n : 8;
        for (int64_t k = 0; k < shown; k++) {
            if (k) puts_(b, ", ");
            if (lf->kind == PQT_STRING)
                put_value(b, lf, 0, 0, s->sbytes + s->soff[k], s->soff[k + 1] - s->soff[k]);
            else if (s->sorted_d)
                put_value(b, lf, 0, s->sorted_d[k], NULL, 0);
            else
                put_value(b, lf, s->sorted_i[k], 0, NULL, 0);
        }
        if (s->n > shown) putf(b, ", ... %lld values", (long long)s->n);
        puts_(b, ")");
    } else if (op == FOP_LIKE || op == FOP_ILIKE) {
        puts_(b, " ");
        put_pattern(b, lf);
    } else if (op != FOP_IS_NULL && op != FOP_IS_NAN && op != FOP_IS_FINITE) {
        puts_(b, " ");
        put_value(b, lf, lf->i, lf->d, lf->s, lf->slen);
    }
    if (neg && !named) puts_(b, ")");
}

static void put_expr(tbuf *b, const fexpr *e, int nested)
{
    if (e->type == FX_LEAF) {
        put_leaf(b, &e->leaf);
        return;
    }
    if (e->type == FX_CMP) {
        char tmp[2048];
        int64_t l = pqt_scan_cmp_text(e->cmp, tmp, sizeof tmp);
        put(b, tmp, (size_t)(l < (int64_t)sizeof tmp ? l : (int64_t)sizeof tmp - 1));
        return;
    }
    if (e->type == FX_CALLBACK) {
        puts_(b, "callback(");
        for (int k = 0; k < e->cb->n; k++) {
            if (k) puts_(b, ", ");
            puts_(b, e->cb->names[k]);
        }
        puts_(b, ")");
        return;
    }
    if (nested) puts_(b, "(");
    for (int32_t k = 0; k < e->nkids; k++) {
        if (k) puts_(b, e->type == FX_AND ? " and " : " or ");
        put_expr(b, e->kids[k], 1);
    }
    if (nested) puts_(b, ")");
}

int64_t pqt_scan_conj_text(const pqt_fprog *p, int k, char *buf, size_t cap)
{
    tbuf b = {buf, buf ? cap : 0, 0};
    if (b.cap) buf[0] = '\0';
    if (k < 0 || k >= p->nconj) return 0;
    put_expr(&b, p->conj[k].root, 0);
    return b.len;
}
