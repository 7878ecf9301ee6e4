/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_resolve.c - one clause against one column (layer: scan).
 *
 * Names resolve against the compile list (an unknown one suggests the nearest name by edit
 * distance); vectors, lists, maps and descent paths are refused (docs/filters.md, "What can be
 * filtered"). The operator must suit the column's kind ("Operators") and the value is converted
 * into the column's domain (docs/pruning.md, "Literals in the column's domain"): an integer column
 * compared with a real or an out-of-range literal becomes an exact integer comparison or a constant
 * (int_col < 2.5 is int_col <= 2, int32_col == 3e9 is never true); a uint64 column compares in
 * unsigned order, exactly to 2^64 - 1, with a negative literal below every value
 * (docs/filters.md); a float32 column compares with the literal rounded to float32; temporal
 * literals become counts of the column's unit, refused when more precise than it holds (a date
 * takes no time of day); sets become hash tables of the members the column can hold (timestamps
 * by instant whatever their unit).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scan/filter_lex.h"
#include "scan/filter_like.h"
#include "scan/filter_resolve.h"
#include "util/mem.h"

static const char *kind_text(int k)
{
    static const char *const names[] = {"none",   "int32", "int64", "float32",   "float64", "bool",
                                        "string", "date",  "time",  "timestamp", "uint64"};
    return k >= 0 && k <= PQT_UINT64 ? names[k] : "unsupported";
}

typedef struct rctx {
    const frule *rule;
    const fnode *n;
    const char *col;
    int kind, unit;
} rctx;

static pqt_status rfail(const rctx *R, int32_t at, const char *fmt, ...) PQT_PRINTF(3, 4);
static pqt_status rfail(const rctx *R, int32_t at, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!R->rule->text)
        return pqt_err(PQT_BAD_FILTER, "filter set on column '%s' (pqt_filter_add_in): %s",
                       R->n->col, msg);
    return pqt_scan_fail(R->rule->text, at, "filter rule '%.*s': %s", (int)(R->n->hi - R->n->lo),
                         R->rule->text + R->n->lo, msg);
}

static pqt_status oom(void) { return pqt_err(PQT_NOMEM, "out of memory compiling a filter"); }

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Levenshtein distance, case-insensitive, over at most the first 128 bytes of each name. */
static int edit_distance(const char *a, const char *b)
{
    int la = (int)strnlen(a, 128), lb = (int)strnlen(b, 128);
    int row[129], prev[129];
    for (int j = 0; j <= lb; j++) prev[j] = j;
    for (int i = 1; i <= la; i++) {
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]));
            int del = prev[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, row, sizeof(int) * (size_t)(lb + 1));
    }
    return prev[lb];
}

static pqt_status resolve(const frule *rule, const fnode *n, const pqt_scan_col *cols, int ncols,
                          int *col_ret)
{
    for (int i = 0; i < ncols; i++) {
        if (strcmp(cols[i].name, n->col) != 0) continue;
        int k = cols[i].kind, e = PQT_KIND_ELEMENT(k);
        const char *why = NULL;
        char buf[300];
        if (k & PQT_VECTOR)
            why = "is a vector column; filtering only supports scalar columns";
        else if (k & PQT_LIST)
            why = "is a variable-length list column; filtering only supports scalar columns";
        else if (e == PQT_BINARY)
            why = "is binary; filtering does not support binary columns (a file's plain "
                  "BYTE_ARRAY text can be opened as string: PQT_OPT_BINARY_AS_STRING)";
        else if (e < PQT_INT32 || e > PQT_UINT64 || k != e)
            why = "has a type that filtering does not support";
        if (why) {
            snprintf(buf, sizeof buf, "filter column '%s' %s", n->col, why);
            if (!rule->text) return pqt_err(PQT_BAD_FILTER, "%s (pqt_filter_add_in)", buf);
            return pqt_scan_fail(rule->text, n->col_lo, "%s", buf);
        }
        *col_ret = i;
        return PQT_OK;
    }
    char hint[200] = "";
    if (strstr(n->col, "[]") || strchr(n->col, '{')) {
        snprintf(hint, sizeof hint, "a descent path is not filterable: %s (filters apply to "
                 "scalar columns and struct leaves only)", n->col);
    } else {
        int best = -1, bd = 1 << 30;
        for (int i = 0; i < ncols; i++) {
            int d = edit_distance(n->col, cols[i].name);
            if (d < bd) bd = d, best = i;
        }
        snprintf(hint, sizeof hint, "unknown column in filter: %s", n->col);
        if (best >= 0)
            snprintf(hint + strlen(hint), sizeof hint - strlen(hint), " (did you mean '%.64s'?)",
                     cols[best].name);
    }
    if (!rule->text) return pqt_err(PQT_BAD_FILTER, "%s (pqt_filter_add_in)", hint);
    char show[200];
    pqt_scan_rule_show(rule->text, rule->nbytes, show, sizeof show);
    return pqt_scan_fail(rule->text, n->col_lo, "%s in rule '%s'", hint, show);
}

static void domain(int kind, int64_t *kmin, int64_t *kmax)
{
    if (kind == PQT_INT32 || kind == PQT_DATE) {
        *kmin = INT32_MIN;
        *kmax = INT32_MAX;
    } else if (kind == PQT_BOOL) {
        *kmin = 0;
        *kmax = 1;
    } else {
        *kmin = INT64_MIN;
        *kmax = INT64_MAX;
    }
}

/* An ordered comparison (op in LT..EQ) of an integer domain against an exact integer i or, when
 * !exact, a double d (non-integral, out of range or infinite). */
static void norm_int(fleaf *lf, int op, int exact, int64_t i, double d)
{
    int64_t kmin, kmax;
    domain(lf->kind, &kmin, &kmax);
    int above = exact ? i > kmax : d >= 9223372036854775808.0 || d > (double)kmax;
    int below = exact ? i < kmin : d < (double)kmin;
    lf->op = (uint8_t)op;
    if (above) {
        lf->op = op == FOP_LT || op == FOP_LE ? FOP_TRUE : FOP_FALSE;
    } else if (below) {
        lf->op = op == FOP_GT || op == FOP_GE ? FOP_TRUE : FOP_FALSE;
    } else if (exact) {
        lf->i = i;
    } else if (op == FOP_EQ) {
        lf->op = FOP_FALSE;
    } else if (op == FOP_LT || op == FOP_LE) {
        lf->op = FOP_LE;
        lf->i = (int64_t)floor(d);
    } else {
        lf->op = FOP_GE;
        lf->i = (int64_t)ceil(d);
    }
}

/* An ordered comparison of a uint64 column (values held by pqt_scan_u64_in) against a
 * literal: integers exact to 2^64 - 1, a negative value below every value (u64 > -1 is
 * true on every row, u64 == -1 on none), a real rounded toward the column as for int64. */
static void norm_u64(fleaf *lf, int op, const flit *lit)
{
    double d = lit->d;
    if (lit->is_u64 || (lit->is_int && lit->i >= 0)) {
        norm_int(lf, op, 1, pqt_scan_u64_in(lit->is_u64 ? lit->u : (uint64_t)lit->i), 0);
    } else if (lit->is_int || d < 0) {
        norm_int(lf, op, 0, 0, -INFINITY);
    } else if (d >= 18446744073709551616.0) {
        norm_int(lf, op, 0, 0, INFINITY);
    } else if (d == floor(d)) { /* integral, written with an exponent: exact as a double */
        norm_int(lf, op, 1, pqt_scan_u64_in((uint64_t)d), 0);
    } else { /* below 2^53: floor and ceil are exact */
        lf->op = (uint8_t)(op == FOP_EQ                   ? FOP_FALSE
                           : op == FOP_LT || op == FOP_LE ? FOP_LE
                                                          : FOP_GE);
        lf->i = pqt_scan_u64_in((uint64_t)(op == FOP_LT || op == FOP_LE ? floor(d) : ceil(d)));
    }
}

/* A float32 comparison with a finite literal beyond FLT_MAX: only an infinity compares
 * differently from every finite float. */
static void norm_float32(fleaf *lf, int op, double d)
{
    float f = (float)d;
    lf->op = (uint8_t)op;
    lf->f = f;
    lf->d = f;
    if (!isinf(f) || isinf(d)) return;
    int up = d > 0;
    lf->f = up ? INFINITY : -INFINITY;
    lf->d = lf->f;
    if (op == FOP_EQ) lf->op = FOP_FALSE;
    else if (up) lf->op = op == FOP_GT || op == FOP_GE ? FOP_EQ : FOP_LT;
    else lf->op = op == FOP_GT || op == FOP_GE ? FOP_GT : FOP_EQ;
}

/* Sign of the double d minus the integer a literal spells exactly (int64 i, or uint64 u). */
static int double_vs_exact(double d, const flit *lit)
{
    if (lit->is_u64) {
        if (d >= 18446744073709551616.0) return 1;
        uint64_t v = (uint64_t)d;
        return (v > lit->u) - (v < lit->u);
    }
    if (d >= 9223372036854775808.0) return 1;
    if (d < -9223372036854775808.0) return -1;
    int64_t v = (int64_t)d;
    return (v > lit->i) - (v < lit->i);
}

/* A float64 comparison with an integer literal: exact, as an expression compares, also past
 * 2^53 where the literal has no double. Such a literal lies strictly between two neighbouring
 * doubles, so < and <= become <= the lower one, > and >= become >= the upper, == never holds. */
static void norm_float64(fleaf *lf, int op, const flit *lit)
{
    lf->op = (uint8_t)op;
    lf->d = lit->d;
    if (!(lit->is_int || lit->is_u64) || !isfinite(lit->d)) return;
    int c = double_vs_exact(lit->d, lit);
    if (c == 0) return;
    double below = c > 0 ? nextafter(lit->d, -INFINITY) : lit->d;
    double above = c > 0 ? lit->d : nextafter(lit->d, INFINITY);
    if (op == FOP_EQ) lf->op = FOP_FALSE;
    else if (op == FOP_LT || op == FOP_LE) {
        lf->op = FOP_LE;
        lf->d = below;
    } else {
        lf->op = FOP_GE;
        lf->d = above;
    }
}

/* A quoted temporal literal in the column's unit: *range 0 (value in *v), +1 / -1 beyond
 * every value the column can hold. */
static pqt_status temporal(const rctx *R, const flit *lit, int item, int64_t *v, int *range)
{
    const char *what = R->kind == PQT_DATE   ? "a double-quoted date such as \"2024-01-31\""
                       : R->kind == PQT_TIME ? "a double-quoted time of day such as \"12:30:00\""
                                             : "a double-quoted date or timestamp such as "
                                               "\"2024-01-31T12:30:00\"";
    char el[40] = "";
    if (item) snprintf(el, sizeof el, "element %d of the list ", item);
    if (lit->cls != FLIT_STR)
        return rfail(R, lit->lo, "%scolumn '%s' is %s; its value is %s", el, R->col,
                     kind_text(R->kind), what);
    int64_t days, nanos;
    int has_date, has_time;
    const char *why;
    if (pqt_scan_lit_iso(lit->s, lit->len, &days, &nanos, &has_date, &has_time, &why) != 0)
        return rfail(R, lit->lo, "%s\"%.40s\" %s", el, lit->s, why);
    if (has_date != (R->kind != PQT_TIME))
        return rfail(R, lit->lo, "%scolumn '%s' is %s; its value is %s", el, R->col,
                     kind_text(R->kind), what);
    /* a date holds no time of day: one written (even midnight) is a mistake to report, not
     * a comparison to make (docs/filters.md) */
    if (R->kind == PQT_DATE && has_time)
        return rfail(R, lit->lo, "%s\"%.40s\" has a time of day; column '%s' is date, its value "
                     "is a date alone such as \"2024-01-31\"", el, lit->s, R->col);
    int r = 0;
    *range = 0;
    if (R->kind == PQT_DATE) {
        *v = days;
    } else if (R->kind == PQT_TIME) {
        r = pqt_scan_unit_convert(nanos, PQT_UNIT_NANOS, R->unit, v);
    } else {
        r = pqt_scan_lit_instant(days, nanos, R->unit, v);
    }
    if (r == 1) {
        static const char *const un[] = {"ms", "us", "ns"};
        return rfail(R, lit->lo, "%s\"%.40s\" is more precise than column '%s' (%s[%s]) holds", el,
                     lit->s, R->col, kind_text(R->kind), un[R->unit]);
    }
    if (r == 2) *range = days > 0 ? 1 : -1;
    return PQT_OK;
}

/* An unquoted ISO literal (2018-01-01) against a column that is not temporal: what it was
 * taken for, and what to write instead. */
static pqt_status iso_misuse(const rctx *R, const flit *lit, int item)
{
    const char *what = memchr(lit->s, 'T', (size_t)lit->len) ? "a timestamp"
                       : memchr(lit->s, '-', (size_t)lit->len) ? "a date"
                                                               : "a time of day";
    char el[40] = "";
    if (item) snprintf(el, sizeof el, "element %d of the list, ", item);
    if (R->kind == PQT_STRING)
        return rfail(R, lit->lo, "%s%.40s unquoted is %s; quote it to compare a string: '%.40s'",
                     el, lit->s, what, lit->s);
    return rfail(R, lit->lo, "%s%.40s unquoted is %s; column '%s' is %s", el, lit->s, what,
                 R->col, kind_text(R->kind));
}

static pqt_status scalar_value(const rctx *R, fleaf *lf, int op)
{
    const flit *lit = &R->n->val;
    int k = R->kind;
    if (lit->is_iso && k != PQT_DATE && k != PQT_TIME && k != PQT_TIMESTAMP)
        return iso_misuse(R, lit, 0);
    if (k == PQT_STRING) {
        if (lit->cls != FLIT_STR)
            return rfail(R, lit->lo, "column '%s' is string; its value must be double-quoted",
                         R->col);
        lf->s = pqt_malloc((size_t)lit->len + 1);
        if (!lf->s) return oom();
        memcpy(lf->s, lit->s, (size_t)lit->len + 1);
        lf->slen = lit->len;
        lf->op = (uint8_t)op;
        return PQT_OK;
    }
    if (k == PQT_BOOL) {
        if (lit->cls != FLIT_BOOL)
            return rfail(R, lit->lo, "column '%s' is bool; its value is true or false", R->col);
        norm_int(lf, op, 1, lit->i, 0);
        return PQT_OK;
    }
    if (k == PQT_DATE || k == PQT_TIME || k == PQT_TIMESTAMP) {
        int64_t v;
        int range;
        PQT_TRY(temporal(R, lit, 0, &v, &range));
        norm_int(lf, op, range == 0, v, range > 0 ? INFINITY : -INFINITY);
        return PQT_OK;
    }
    if (lit->cls != FLIT_NUM)
        return rfail(R, lit->lo, "column '%s' is %s; its value is a number%s", R->col,
                     kind_text(k), lit->cls == FLIT_STR ? ", written without quotes" : "");
    if (k == PQT_FLOAT64) {
        norm_float64(lf, op, lit);
    } else if (k == PQT_FLOAT32) {
        norm_float32(lf, op, lit->d);
    } else if (k == PQT_UINT64) {
        norm_u64(lf, op, lit);
    } else {
        norm_int(lf, op, lit->is_int, lit->i, lit->d);
    }
    return PQT_OK;
}

static int is_int_kind(int k) { return k == PQT_INT32 || k == PQT_INT64 || k == PQT_UINT64; }

static int set_fits(int sk, int ck)
{
    int si = is_int_kind(sk), ci = is_int_kind(ck);
    int sf = sk == PQT_FLOAT32 || sk == PQT_FLOAT64, cf = ck == PQT_FLOAT32 || ck == PQT_FLOAT64;
    return (si && ci) || (sf && cf) || sk == ck;
}

/* Members in the column's domain; those the column cannot hold are left out (they match no
 * row). */
static pqt_status set_value(const rctx *R, const pqt_filter *f, fleaf *lf)
{
    const fnode *n = R->n;
    int k = R->kind;
    const fset *s = NULL;
    if (n->set_idx >= 0) {
        s = &f->sets[n->set_idx];
    } else if (n->set_name) {
        for (int i = 0; i < f->nsets && !s; i++)
            if (f->sets[i].name && strcmp(f->sets[i].name, n->set_name) == 0) s = &f->sets[i];
        if (!s)
            return rfail(R, n->set_lo, "unknown set '@%s': no set of that name is bound to the filter",
                         n->set_name);
    }
    if (s && !set_fits(s->kind, k))
        return rfail(R, n->set_lo, "%s%s%s holds %s values; column '%s' is %s",
                     s->name ? "set '@" : "the set", s->name ? s->name : "", s->name ? "'" : "",
                     kind_text(s->kind), R->col, kind_text(k));
    int64_t cnt = s ? s->n : n->nitems;
    lf->set = pqt_calloc(1, sizeof *lf->set);
    if (!lf->set) return oom();
    if (k == PQT_STRING) {
        if (s) return pqt_scan_cset_strings(lf->set, s->soff, s->sbytes, s->n);
        int64_t *off = pqt_malloc_array((size_t)cnt + 1, sizeof *off), total = 0;
        for (int32_t i = 0; i < n->nitems; i++) total += n->items[i].len;
        char *bytes = pqt_malloc((size_t)(total ? total : 1));
        pqt_status st = off && bytes ? PQT_OK : oom();
        if (off) off[0] = 0;
        for (int32_t i = 0; st == PQT_OK && i < n->nitems; i++) {
            const flit *it = &n->items[i];
            if (it->is_iso)
                st = iso_misuse(R, it, i + 1);
            else if (it->cls != FLIT_STR)
                st = rfail(R, it->lo, "element %d of the list must be double-quoted (column '%s' "
                           "is string)", i + 1, R->col);
            else {
                memcpy(bytes + off[i], it->s, (size_t)it->len);
                off[i + 1] = off[i] + it->len;
            }
        }
        if (st == PQT_OK) st = pqt_scan_cset_strings(lf->set, off, bytes, cnt);
        pqt_mem_free(off);
        pqt_mem_free(bytes);
        return st;
    }
    int fl = k == PQT_FLOAT32 || k == PQT_FLOAT64;
    void *buf = pqt_malloc_array((size_t)(cnt ? cnt : 1), 8);
    if (!buf) return oom();
    int64_t *iv = buf, m = 0, kmin, kmax;
    double *dv = buf;
    domain(k, &kmin, &kmax);
    pqt_status st = PQT_OK;
    for (int64_t i = 0; i < cnt && st == PQT_OK; i++) {
        const flit *it = s ? NULL : &n->items[i];
        if (it && it->is_iso && (fl || is_int_kind(k) || k == PQT_BOOL)) {
            st = iso_misuse(R, it, (int)i + 1);
            break;
        }
        if (fl) {
            double d;
            if (it && it->cls != FLIT_NUM) {
                st = rfail(R, it->lo, "element %d of the list is not a number (column '%s' is %s)",
                           (int)i + 1, R->col, kind_text(k));
                break;
            }
            d = s ? s->dv[i] : it->d;
            /* an integer no double holds equals no float value */
            if (it && (it->is_int || it->is_u64) && isfinite(d) && double_vs_exact(d, it) != 0)
                continue;
            if (k == PQT_FLOAT32) {
                float x = (float)d;
                if (isinf(x) && !isinf(d)) continue; /* no float32 equals it */
                d = x;
            }
            dv[m++] = d;
        } else if (is_int_kind(k)) {
            if (it && (it->cls != FLIT_NUM || (!it->is_int && isfinite(it->d) &&
                                               it->d != floor(it->d)))) {
                st = rfail(R, it->lo, "element %d of the list is not an integer (column '%s' is "
                           "%s)", (int)i + 1, R->col, kind_text(k));
                break;
            }
            /* the member as a uint64 (neg = 0) or an int64 (neg = 1 when below 0); members
             * no value of the column can equal are left out */
            uint64_t u;
            int neg;
            if (it && it->is_u64) {
                u = it->u, neg = 0;
            } else if (it && !it->is_int) { /* integral beyond int64 written as a real */
                if (!(it->d >= 0 && it->d < 18446744073709551616.0)) continue;
                u = (uint64_t)it->d, neg = 0;
            } else if (s && s->kind == PQT_UINT64) {
                u = (uint64_t)s->iv[i], neg = 0;
            } else {
                int64_t v = s ? s->iv[i] : it->i;
                u = (uint64_t)v, neg = v < 0;
            }
            if (k == PQT_UINT64) {
                if (!neg) iv[m++] = pqt_scan_u64_in(u);
            } else if (neg || u <= (uint64_t)INT64_MAX) {
                int64_t v = (int64_t)u; /* neg: the int64 it came from */
                if (v >= kmin && v <= kmax) iv[m++] = v;
            }
        } else { /* date, time, timestamp */
            int64_t v;
            int range = 0;
            if (it) {
                st = temporal(R, it, (int)i + 1, &v, &range);
                if (st != PQT_OK) break;
            } else if (k == PQT_DATE) {
                v = s->iv[i];
            } else if (pqt_scan_unit_convert(s->iv[i], s->unit, R->unit, &v) != 0) {
                continue; /* not an instant the column can hold */
            }
            if (range == 0) iv[m++] = v;
        }
    }
    if (st == PQT_OK)
        st = fl ? pqt_scan_cset_doubles(lf->set, dv, m) : pqt_scan_cset_ints(lf->set, iv, m);
    pqt_mem_free(buf);
    return st;
}

pqt_status pqt_scan_leaf_build(const pqt_filter *f, const frule *rule, const fnode *n, int negate,
                               const pqt_scan_col *cols, int ncols, int *col_ret, fleaf *lf)
{
    int ci;
    PQT_TRY(resolve(rule, n, cols, ncols, &ci));
    rctx R = {rule, n, n->col, cols[ci].kind, cols[ci].unit};
    if ((R.kind == PQT_TIME || R.kind == PQT_TIMESTAMP) && (R.unit < 0 || R.unit > 2))
        return rfail(&R, n->col_lo, "column '%s' has no time unit", R.col);
    memset(lf, 0, sizeof *lf);
    lf->kind = (uint8_t)R.kind;
    lf->unit = R.unit;
    lf->negate = (uint8_t)(negate != 0);
    if (!(lf->col = pqt_strdup(n->col))) return oom();
    *col_ret = ci;
    int op = n->op, k = R.kind, fl = k == PQT_FLOAT32 || k == PQT_FLOAT64;
    /* a negated operator is its positive twin with true and false swapped (exact in Kleene
     * logic, NaN included: x /= 5 is not (x == 5)) */
    static const uint8_t base[FOP_COUNT] = {
        [FOP_LT] = FOP_LT,          [FOP_LE] = FOP_LE,
        [FOP_GT] = FOP_GT,          [FOP_GE] = FOP_GE,
        [FOP_EQ] = FOP_EQ,          [FOP_NE] = FOP_EQ,
        [FOP_IN] = FOP_IN,          [FOP_NOT_IN] = FOP_IN,
        [FOP_IS_NULL] = FOP_IS_NULL, [FOP_IS_NOT_NULL] = FOP_IS_NULL,
        [FOP_IS_NAN] = FOP_IS_NAN,  [FOP_IS_NOT_NAN] = FOP_IS_NAN,
        [FOP_IS_FINITE] = FOP_IS_FINITE, [FOP_IS_NOT_FINITE] = FOP_IS_FINITE,
        [FOP_STARTS_WITH] = FOP_STARTS_WITH, [FOP_ENDS_WITH] = FOP_ENDS_WITH,
        [FOP_CONTAINS] = FOP_CONTAINS,      [FOP_LIKE] = FOP_LIKE,
        [FOP_ILIKE] = FOP_ILIKE};
    if (op == FOP_NE || op == FOP_NOT_IN || op == FOP_IS_NOT_NULL || op == FOP_IS_NOT_NAN ||
        op == FOP_IS_NOT_FINITE)
        lf->negate ^= 1;
    int bop = base[op];
    const char *opname = pqt_scan_fop_name(op);
    int32_t at = n->op_lo;
    switch (bop) {
    case FOP_IS_NULL:
        lf->op = FOP_IS_NULL;
        return PQT_OK;
    case FOP_IS_NAN:
    case FOP_IS_FINITE:
        if (!fl)
            return rfail(&R, at, "%s applies only to float columns; column '%s' is %s", opname,
                         R.col, kind_text(k));
        lf->op = (uint8_t)bop;
        return PQT_OK;
    case FOP_STARTS_WITH:
    case FOP_ENDS_WITH:
    case FOP_CONTAINS:
        if (k != PQT_STRING)
            return rfail(&R, at, "%s applies only to string columns; column '%s' is %s", opname,
                         R.col, kind_text(k));
        return scalar_value(&R, lf, bop);
    case FOP_LIKE:
    case FOP_ILIKE:
        if (k != PQT_STRING)
            return rfail(&R, at, "%s applies only to string columns; column '%s' is %s", opname,
                         R.col, kind_text(k));
        return pqt_scan_like_build(rule, n, lf);
    case FOP_IN:
        if (k == PQT_BOOL)
            return rfail(&R, at, "%s does not apply to the bool column '%s' (write %s == true)",
                         opname, R.col, R.col);
        lf->op = FOP_IN;
        return set_value(&R, f, lf);
    default:
        return scalar_value(&R, lf, bop);
    }
}

void pqt_scan_leaf_free(fleaf *lf)
{
    pqt_mem_free(lf->s);
    pqt_mem_free(lf->pat);
    pqt_mem_free(lf->col);
    if (lf->set) {
        pqt_scan_cset_free(lf->set);
        pqt_mem_free(lf->set);
    }
    memset(lf, 0, sizeof *lf);
}

pqt_status pqt_scan_col_find(const frule *rule, const char *name, int32_t at,
                             const pqt_scan_col *cols, int ncols, int *ci_ret)
{
    fnode n;
    memset(&n, 0, sizeof n);
    n.col = (char *)(uintptr_t)name; /* read only */
    n.col_lo = at;
    return resolve(rule, &n, cols, ncols, ci_ret);
}

const char *pqt_scan_kind_text(int kind) { return kind_text(kind); }
