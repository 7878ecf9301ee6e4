/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_lit.c - literals of the filter language (layer: scan).
 *
 * Bare numbers (docs/filters.md, "Values": sign, digits, fraction, e/E exponent; inf; hex floats
 * outside lists; a bare nan and Fortran d-exponents refused), booleans, ISO-8601 dates / times /
 * timestamps (civil time, no time-zone arithmetic), and exact conversion between the time
 * units of the Parquet TIME and TIMESTAMP logical types (MILLIS, MICROS, NANOS).
 * Decimal text is converted with the C library's strtod, after swapping '.' for the
 * locale's radix character so a host program's setlocale cannot change a rule's meaning.
 */
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scan/filter_int.h"
#include "util/pct.h"

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int word_is(const char *s, int64_t len, const char *w)
{
    int64_t n = (int64_t)strlen(w);
    if (len != n) return 0;
    for (int64_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != w[i]) return 0;
    return 1;
}

/* 0x<hex>[.<hex>][p<exp>] after the sign: mantissa kept to 60 bits (later digits only move
 * the exponent), scaled with ldexp. */
static int parse_hex(const char *s, int64_t len, double *d_ret, int *integral_ret)
{
    int64_t i = 2;
    uint64_t m = 0;
    int exp2 = 0, ndig = 0, frac = 0, dot = 0;
    for (; i < len; i++) {
        int h = pqt_hex_digit((unsigned char)s[i]);
        if (s[i] == '.' && !dot) {
            dot = 1;
            continue;
        }
        if (h < 0) break;
        ndig++;
        if (m >> 56) {
            if (!dot) exp2 += 4; /* digit beyond 60 bits: only its weight counts */
        } else {
            m = m << 4 | (uint64_t)h;
            if (dot) frac += 4;
        }
    }
    if (!ndig) return -1;
    if (i < len) {
        if (lower((unsigned char)s[i]) != 'p') return -1;
        i++;
        int sign = 1;
        if (i < len && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
        if (i >= len) return -1;
        long e = 0;
        for (; i < len; i++) {
            if (!is_digit((unsigned char)s[i])) return -1;
            if (e < 100000) e = e * 10 + (s[i] - '0');
        }
        exp2 += (int)(sign * e);
    }
    *d_ret = ldexp((double)m, exp2 - frac);
    *integral_ret = !dot && exp2 - frac >= 0;
    return 0;
}

/* [digits][.digits][e[+-]digits] with at least one mantissa digit. */
static int decimal_syntax(const char *s, int64_t len, int *plain_int)
{
    int64_t i = 0;
    int ndig = 0;
    while (i < len && is_digit((unsigned char)s[i])) i++, ndig++;
    *plain_int = i == len && ndig > 0;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && is_digit((unsigned char)s[i])) i++, ndig++;
    }
    if (!ndig) return -1;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) i++;
        int nexp = 0;
        while (i < len && is_digit((unsigned char)s[i])) i++, nexp++;
        if (!nexp) return -1;
    }
    return i == len ? 0 : -1;
}

static double to_double(const char *s, int64_t len)
{
    char buf[600];
    const char *radix = localeconv()->decimal_point;
    size_t rlen = radix && *radix ? strlen(radix) : 1;
    size_t o = 0;
    for (int64_t i = 0; i < len && o + rlen + 1 < sizeof buf; i++) {
        if (s[i] == '.' && radix && *radix) {
            memcpy(buf + o, radix, rlen);
            o += rlen;
        } else {
            buf[o++] = s[i];
        }
    }
    buf[o] = '\0';
    return strtod(buf, NULL);
}

int pqt_scan_lit_bare(const char *s, int64_t len, int allow_hex, flit *lit, const char **why)
{
    memset(lit, 0, sizeof *lit);
    if (word_is(s, len, "true") || word_is(s, len, "false")) {
        lit->cls = FLIT_BOOL;
        lit->i = lower((unsigned char)s[0]) == 't';
        return 0;
    }
    int neg = 0;
    const char *b = s;
    int64_t n = len;
    if (n > 0 && (b[0] == '+' || b[0] == '-')) {
        neg = b[0] == '-';
        b++;
        n--;
    }
    if (word_is(b, n, "nan")) {
        *why = "is not a value; use is_nan / is_not_nan to test for NaN";
        return -1;
    }
    lit->cls = FLIT_NUM;
    if (word_is(b, n, "inf") || word_is(b, n, "infinity")) {
        lit->d = neg ? -INFINITY : INFINITY;
        return 0;
    }
    if (n > 2 && b[0] == '0' && lower((unsigned char)b[1]) == 'x') {
        if (!allow_hex) {
            *why = "is a hexadecimal number, which a list does not accept";
            return -1;
        }
        int integral;
        if (parse_hex(b, n, &lit->d, &integral) != 0) goto bad;
        lit->is_hex = 1;
        if (neg) lit->d = -lit->d;
        if (integral && fabs(lit->d) < 9223372036854775808.0) {
            lit->is_int = 1;
            lit->i = (int64_t)lit->d;
        }
        return 0;
    }
    int plain_int;
    if (decimal_syntax(b, n, &plain_int) != 0) goto bad;
    if (plain_int) {
        /* exact int64 when it fits: digits accumulated negatively reach INT64_MIN */
        int64_t v = 0;
        int over = 0;
        for (int64_t i = 0; i < n && !over; i++) {
            int dg = b[i] - '0';
            if (v < (INT64_MIN + dg) / 10) over = 1;
            else v = v * 10 - dg;
        }
        if (!over && (neg || v != INT64_MIN)) {
            lit->is_int = 1;
            lit->i = neg ? v : -v;
            lit->d = (double)lit->i;
            return 0;
        }
        /* above INT64_MAX: exact as uint64 when it fits (uint64 columns compare it exactly) */
        uint64_t u = 0;
        over = neg;
        for (int64_t i = 0; i < n && !over; i++) {
            unsigned dg = (unsigned)(b[i] - '0');
            if (u > (UINT64_MAX - dg) / 10) over = 1;
            else u = u * 10 + dg;
        }
        if (!over) {
            lit->is_u64 = 1;
            lit->u = u;
        }
    }
    lit->d = to_double(s, len);
    if (!plain_int && lit->d == floor(lit->d) && fabs(lit->d) < 9223372036854775808.0) {
        lit->is_int = 1;
        lit->i = (int64_t)lit->d;
    }
    return 0;
bad:
    lit->cls = FLIT_NONE;
    *why = "is not a number, true or false (a string value is written in double quotes)";
    for (int64_t i = 1; i + 1 < len; i++)
        if (lower((unsigned char)s[i]) == 'd' && is_digit((unsigned char)s[i - 1]))
            *why = "is not a number (a Fortran 'd' exponent is not accepted: write 1e3)";
    return -1;
}

static int ndigits(const char *s, int64_t len, int64_t at, int n, int *v)
{
    if (at + n > len) return -1;
    int x = 0;
    for (int k = 0; k < n; k++) {
        if (!is_digit((unsigned char)s[at + k])) return -1;
        x = x * 10 + (s[at + k] - '0');
    }
    *v = x;
    return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int month_days(int y, int m)
{
    static const int md[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : md[m - 1];
}

/* HH:MM[:SS[.f{1,9}]] at s[at..]; returns the index after it or -1. */
static int64_t parse_clock(const char *s, int64_t len, int64_t at, int64_t *nanos,
                           const char **why)
{
    int hh, mm, ss = 0;
    if (ndigits(s, len, at, 2, &hh) || at + 2 >= len || s[at + 2] != ':' ||
        ndigits(s, len, at + 3, 2, &mm)) {
        *why = "is not an ISO-8601 time (HH:MM[:SS[.fffffffff]])";
        return -1;
    }
    at += 5;
    int64_t frac = 0;
    if (at < len && s[at] == ':') {
        if (ndigits(s, len, at + 1, 2, &ss)) {
            *why = "is not an ISO-8601 time (HH:MM[:SS[.fffffffff]])";
            return -1;
        }
        at += 3;
        if (at < len && s[at] == '.') {
            int nd = 0;
            at++;
            while (at < len && is_digit((unsigned char)s[at])) {
                if (++nd > 9) {
                    *why = "has more than 9 fractional digits of a second";
                    return -1;
                }
                frac = frac * 10 + (s[at++] - '0');
            }
            if (!nd) {
                *why = "is not an ISO-8601 time (HH:MM[:SS[.fffffffff]])";
                return -1;
            }
            for (; nd < 9; nd++) frac *= 10;
        }
    }
    if (hh > 23 || mm > 59 || ss > 59) {
        *why = "has an hour, minute or second out of range";
        return -1;
    }
    *nanos = ((int64_t)hh * 3600 + mm * 60 + ss) * 1000000000LL + frac;
    return at;
}

int pqt_scan_lit_iso(const char *s, int64_t len, int64_t *days_ret, int64_t *nanos_ret,
                     int *has_date_ret, int *has_time_ret, const char **why)
{
    int64_t at = 0, nanos = 0, days = 0;
    int has_date = 0, has_time = 0;
    if (len >= 3 && s[2] == ':') {
        at = parse_clock(s, len, 0, &nanos, why);
        if (at < 0) return -1;
        has_time = 1;
    } else {
        int y, m, d;
        if (ndigits(s, len, 0, 4, &y) || len < 10 || s[4] != '-' || ndigits(s, len, 5, 2, &m) ||
            s[7] != '-' || ndigits(s, len, 8, 2, &d)) {
            *why = "is not an ISO-8601 date (YYYY-MM-DD) or timestamp (YYYY-MM-DDTHH:MM:SS)";
            return -1;
        }
        if (m < 1 || m > 12 || d < 1 || d > month_days(y, m)) {
            *why = "is not a date of the calendar";
            return -1;
        }
        days = days_from_civil(y, m, d);
        has_date = 1;
        at = 10;
        if (at < len && (s[at] == 'T' || s[at] == 't' || s[at] == ' ')) {
            at = parse_clock(s, len, at + 1, &nanos, why);
            if (at < 0) return -1;
            has_time = 1;
        }
    }
    if (at < len && (s[at] == 'Z' || s[at] == 'z') && has_time) at++;
    if (at < len) {
        *why = s[at] == '+' || s[at] == '-'
                   ? "has a time-zone offset; time zones are not interpreted (write the stored "
                     "time, or end it with Z)"
                   : "has characters after the date/time";
        return -1;
    }
    *days_ret = days;
    *nanos_ret = nanos;
    *has_date_ret = has_date;
    *has_time_ret = has_time;
    return 0;
}

int64_t pqt_scan_unit_per_sec(int unit)
{
    return unit == PQT_UNIT_MILLIS ? 1000 : unit == PQT_UNIT_MICROS ? 1000000 : 1000000000;
}

int pqt_scan_unit_convert(int64_t v, int from, int to, int64_t *out)
{
    int64_t pf = pqt_scan_unit_per_sec(from), pt = pqt_scan_unit_per_sec(to);
    if (pf == pt) {
        *out = v;
        return 0;
    }
    if (pt > pf) {
        int64_t k = pt / pf;
        if (v > INT64_MAX / k || v < INT64_MIN / k) {
            *out = v > 0 ? INT64_MAX : INT64_MIN;
            return 2;
        }
        *out = v * k;
        return 0;
    }
    int64_t k = pf / pt, q = v / k, r = v % k;
    if (r < 0) q--; /* floor, so an inexact value sits just below its instant */
    *out = q;
    return r != 0;
}

int pqt_scan_lit_instant(int64_t days, int64_t nanos, int unit, int64_t *out)
{
    int64_t ups = pqt_scan_unit_per_sec(unit), per_day = 86400 * ups;
    int64_t sub = 1000000000 / ups;
    if (days > INT64_MAX / per_day - 1 || days < INT64_MIN / per_day + 1) {
        *out = days > 0 ? INT64_MAX : INT64_MIN;
        return 2;
    }
    *out = days * per_day + nanos / sub;
    return nanos % sub != 0;
}
