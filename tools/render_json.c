/* SPDX-License-Identifier: Apache-2.0 */
/*
 * render_json.c - value rendering for the pqt tool (see render.h).
 *
 * Owns the text form of every kind: the jsonl contract (stable: tests and other tools
 * parse it), and the plain-text variants csv and table build on. Date arithmetic is
 * Howard Hinnant's civil_from_days, exact for negative day counts and far years.
 */
#include "render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rb_put(rbuf *b, const char *s, size_t n)
{
    if (b->cap - b->len < n + 1) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            fputs("pqt: out of memory\n", stderr);
            exit(1);
        }
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void rb_puts(rbuf *b, const char *s)
{
    rb_put(b, s, strlen(s));
}
void rb_putc(rbuf *b, char c)
{
    rb_put(b, &c, 1);
}

void rb_free(rbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/* ---- dates and times ---- */

void civil_from_days(int64_t z, int64_t *year, int *month, int *day)
{
    /* Shift the epoch to 0000-03-01 so that leap days fall at the end of a year; eras are
     * 400-year cycles of 146097 days. */
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *day = (int)(doy - (153 * mp + 2) / 5 + 1);
    *month = (int)(mp < 10 ? mp + 3 : mp - 9);
    *year = yoe + era * 400 + (*month <= 2);
}

void render_date(rbuf *b, int64_t days)
{
    int64_t y;
    int m, d;
    char tmp[64];
    civil_from_days(days, &y, &m, &d);
    if (y < 0)
        snprintf(tmp, sizeof tmp, "-%04lld-%02d-%02d", -(long long)y, m, d);
    else
        snprintf(tmp, sizeof tmp, "%04lld-%02d-%02d", (long long)y, m, d);
    rb_puts(b, tmp);
}

static const int64_t ticks_per_sec[] = {1000, 1000000, 1000000000};
static const int frac_digits[] = {3, 6, 9};

/* Time of day for 0 <= ticks; hours are not wrapped, so out-of-range values stay visible. */
static void time_of_day(rbuf *b, int64_t ticks, int unit)
{
    int64_t tps = ticks_per_sec[unit];
    int64_t secs = ticks / tps, frac = ticks % tps;
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%02lld:%02d:%02d.%0*lld", (long long)(secs / 3600),
             (int)(secs / 60 % 60), (int)(secs % 60), frac_digits[unit], (long long)frac);
    rb_puts(b, tmp);
}

void render_time(rbuf *b, int64_t ticks, int unit)
{
    if (unit < 0 || unit > 2) unit = 1;
    if (ticks < 0) {
        /* Not a time of day, but a bare count would not say what it is: wrapped modulo 24
         * hours, as a clock would (-03:51:39 is 20:08:21; docs/output.md, "Times"). */
        int64_t per_day = ticks_per_sec[unit] * 86400;
        ticks %= per_day;
        if (ticks < 0) ticks += per_day;
    }
    time_of_day(b, ticks, unit);
}

void render_timestamp(rbuf *b, int64_t ticks, int unit, int utc)
{
    if (unit < 0 || unit > 2) unit = 1;
    int64_t per_day = ticks_per_sec[unit] * 86400;
    int64_t days = ticks / per_day, rem = ticks % per_day;
    if (rem < 0) { /* C division truncates; instants before 1970 belong to the earlier day */
        rem += per_day;
        days--;
    }
    render_date(b, days);
    rb_putc(b, 'T');
    time_of_day(b, rem, unit);
    if (utc) rb_putc(b, 'Z');
}

/* pqt_format_float* text; the words NaN/Infinity/-Infinity are quoted in JSON. */
static void put_number_text(rbuf *b, const char *tmp, size_t n, int json)
{
    int word = tmp[0] == 'N' || tmp[0] == 'I' || (tmp[0] == '-' && tmp[1] == 'I');
    if (json && word) rb_putc(b, '"');
    rb_put(b, tmp, n);
    if (json && word) rb_putc(b, '"');
}

void render_double(rbuf *b, double d, int json)
{
    char tmp[PQT_NUMBER_TEXT_MAX + 8];
    put_number_text(b, tmp, pqt_format_float64(d, tmp, sizeof tmp), json);
}

void render_float(rbuf *b, float f, int json)
{
    char tmp[PQT_NUMBER_TEXT_MAX + 8];
    put_number_text(b, tmp, pqt_format_float32(f, tmp, sizeof tmp), json);
}

/* ---- strings ---- */

/* Length of the valid UTF-8 sequence starting at s[0..n), 0 if the byte starts none
 * (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t k = c < 0x80                 ? 1
               : c >= 0xc2 && c <= 0xdf ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    if (k == 0 || k > n) return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (k == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))) return 0;
    if (k == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))) return 0;
    return k;
}

static void json_escape_body(rbuf *b, const char *str, size_t n, int json)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        size_t run = i;
        /* Copy the longest run that needs no escaping in one go. */
        while (run < n && s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' && s[run] != '\\')
            run++;
        if (run > i) {
            rb_put(b, str + i, run - i);
            i = run;
            continue;
        }
        unsigned c = s[i];
        if (c >= 0x80) {
            size_t k = utf8_seq(s + i, n - i);
            if (k)
                rb_put(b, str + i, k);
            else
                rb_puts(b, json ? "\\ufffd" : "\xef\xbf\xbd");
            i += k ? k : 1;
            continue;
        }
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\n' ? "\\n"
                          : c == '\t' ? "\\t"
                          : c == '\r' ? "\\r"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                                      : NULL;
        char tmp[8];
        if (!esc) {
            snprintf(tmp, sizeof tmp, "\\u%04x", c);
            esc = tmp;
        }
        rb_puts(b, esc);
        i++;
    }
}

void render_json_string(rbuf *b, const char *s, size_t n)
{
    rb_putc(b, '"');
    json_escape_body(b, s, n, 1);
    rb_putc(b, '"');
}

void render_text_string(rbuf *b, const char *str, size_t n, int escape_controls)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        if (escape_controls && (s[i] < 0x20 || s[i] == 0x7f)) {
            char tmp[8];
            snprintf(tmp, sizeof tmp,
                     s[i] == '\n'   ? "\\n"
                     : s[i] == '\t' ? "\\t"
                                    : "\\u%04x",
                     s[i]);
            rb_puts(b, tmp);
            i++;
            continue;
        }
        size_t k = utf8_seq(s + i, n - i);
        if (k)
            rb_put(b, str + i, k);
        else
            rb_puts(b, "\xef\xbf\xbd");
        i += k ? k : 1;
    }
}

/* ---- bytes ---- */

void render_hex(rbuf *b, const uint8_t *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char tmp[128];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        tmp[k++] = hex[s[i] >> 4];
        tmp[k++] = hex[s[i] & 15];
        if (k == sizeof tmp) rb_put(b, tmp, k), k = 0;
    }
    rb_put(b, tmp, k);
}

void render_base64(rbuf *b, const uint8_t *s, size_t n)
{
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char tmp[128];
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t x = (uint32_t)s[i] << 16;
        if (i + 1 < n) x |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < n) x |= s[i + 2];
        tmp[k++] = al[x >> 18 & 63];
        tmp[k++] = al[x >> 12 & 63];
        tmp[k++] = i + 1 < n ? al[x >> 6 & 63] : '=';
        tmp[k++] = i + 2 < n ? al[x & 63] : '=';
        if (k == sizeof tmp) rb_put(b, tmp, k), k = 0;
    }
    rb_put(b, tmp, k);
}

/* ---- cells ---- */

void colview_init(colview *v, const pqt_array *a, int unit, int utc)
{
    v->kind = pqt_array_kind(a);
    v->elem = PQT_KIND_ELEMENT(v->kind);
    v->width = pqt_array_width(a);
    if (v->width < 1) v->width = 1;
    v->unit = unit;
    v->utc = utc;
    v->dec = 0;
    v->scale = 0;
    v->nrows = pqt_array_nrows(a);
    v->data = pqt_array_data(a);
    v->valid = pqt_array_validity(a);
    v->row_valid = pqt_array_row_validity(a);
    v->str_off = pqt_array_str_offsets(a);
    v->list_off = pqt_array_list_offsets(a);
    v->bytes = pqt_array_bytes(a);
    v->meta = NULL;
}

static int bit(const uint8_t *bits, int64_t i);

/* Row i of a VARIANT value column v (binary) with its metadata column v->meta as JSON. */
static int render_variant(rbuf *b, const colview *v, int64_t i, int style)
{
    const colview *m = v->meta;
    if (!bit(v->valid, i) || !bit(m->valid, i)) {
        if (style != STYLE_CSV) rb_puts(b, "null");
        return 0;
    }
    char *j = NULL;
    size_t n = 0;
    if (pqt_variant_to_json(m->bytes + m->str_off[i], (size_t)(m->str_off[i + 1] - m->str_off[i]),
                            v->bytes + v->str_off[i], (size_t)(v->str_off[i + 1] - v->str_off[i]),
                            &j, &n) != PQT_OK) {
        fprintf(stderr, "pqt: %s\n", pqt_errmsg());
        exit(1);
    }
    if (style == STYLE_TABLE) render_text_string(b, j, n, 1);
    else rb_put(b, j, n);
    pqt_free(j);
    return 1;
}

static int bit(const uint8_t *bits, int64_t i)
{
    return !bits || (bits[i >> 3] >> (i & 7)) & 1;
}

/* Exact decimal text of a 128-bit unscaled value (pqt_format_decimal), any scale. */
static void put_decimal(rbuf *b, int64_t hi, uint64_t lo, int scale)
{
    char tmp[96];
    size_t n = pqt_format_decimal(hi, lo, scale, tmp, sizeof tmp);
    if (n < sizeof tmp) {
        rb_put(b, tmp, n);
        return;
    }
    char *big = malloc(n + 1); /* a scale in the hundreds: size the text first */
    if (!big) {
        fputs("pqt: out of memory\n", stderr);
        exit(1);
    }
    pqt_format_decimal(hi, lo, scale, big, n + 1);
    rb_put(b, big, n);
    free(big);
}

/* Element i of the values array. json: write a JSON value (inside arrays in every style). */
static int render_elem(rbuf *b, const colview *v, int64_t i, int style, int json)
{
    if (!bit(v->valid, i)) {
        if (json || style != STYLE_CSV) rb_puts(b, "null");
        return 0;
    }
    char tmp[40];
    switch (v->elem) {
    case PQT_INT32:
        snprintf(tmp, sizeof tmp, "%d", (int)((const int32_t *)v->data)[i]);
        break;
    case PQT_INT64: {
        int64_t x = ((const int64_t *)v->data)[i];
        if (v->dec) { /* exact decimal text: the unscaled integer and the scale */
            put_decimal(b, x < 0 ? -1 : 0, (uint64_t)x, v->scale);
            return 1;
        }
        snprintf(tmp, sizeof tmp, "%lld", (long long)x);
        break;
    }
    case PQT_UINT64:
        snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)((const uint64_t *)v->data)[i]);
        break;
    case PQT_INT128: { /* only unscaled decimals come as int128: {low, high} pairs */
        const int64_t *p = (const int64_t *)v->data + 2 * i;
        put_decimal(b, p[1], (uint64_t)p[0], v->dec ? v->scale : 0);
        return 1;
    }
    case PQT_FLOAT32:
        render_float(b, ((const float *)v->data)[i], json);
        return 1;
    case PQT_FLOAT64:
        render_double(b, ((const double *)v->data)[i], json);
        return 1;
    case PQT_BOOL:
        rb_puts(b, ((const uint8_t *)v->data)[i] ? "true" : "false");
        return 1;
    case PQT_STRING: {
        const char *s = v->bytes + v->str_off[i];
        size_t n = (size_t)(v->str_off[i + 1] - v->str_off[i]);
        if (json)
            render_json_string(b, s, n);
        else
            render_text_string(b, s, n, style == STYLE_TABLE);
        return 1;
    }
    case PQT_BINARY: { /* JSON has no bytes: base64 in a JSON string; plain text: hex */
        const uint8_t *s = (const uint8_t *)v->bytes + v->str_off[i];
        size_t n = (size_t)(v->str_off[i + 1] - v->str_off[i]);
        if (json) rb_putc(b, '"');
        if (json) render_base64(b, s, n);
        else render_hex(b, s, n);
        if (json) rb_putc(b, '"');
        return 1;
    }
    case PQT_DATE:
    case PQT_TIME:
    case PQT_TIMESTAMP:
        if (json) rb_putc(b, '"');
        if (v->elem == PQT_DATE)
            render_date(b, ((const int32_t *)v->data)[i]);
        else if (v->elem == PQT_TIME)
            render_time(b, ((const int64_t *)v->data)[i], v->unit);
        else
            render_timestamp(b, ((const int64_t *)v->data)[i], v->unit, v->utc);
        if (json) rb_putc(b, '"');
        return 1;
    default: /* a kind this tool does not know: say so rather than guess a layout */
        snprintf(tmp, sizeof tmp, "%s", json ? "null" : "?");
        break;
    }
    rb_puts(b, tmp);
    return 1;
}

int render_cell(rbuf *b, const colview *v, int64_t row, int style)
{
    if (v->meta && v->elem == PQT_BINARY && !(v->kind & (PQT_VECTOR | PQT_LIST)))
        return render_variant(b, v, row, style);
    if (!(v->kind & (PQT_VECTOR | PQT_LIST)))
        return render_elem(b, v, row, style, style == STYLE_JSON);
    if (!bit(v->row_valid, row)) {
        if (style != STYLE_CSV) rb_puts(b, "null");
        return 0;
    }
    int64_t lo, hi;
    colview_row_elems(v, row, &lo, &hi);
    /* Arrays are JSON in every format, so csv and table show the same text jsonl does. */
    rb_putc(b, '[');
    for (int64_t i = lo; i < hi; i++) {
        if (i > lo) rb_putc(b, ',');
        render_elem(b, v, i, style, 1);
    }
    rb_putc(b, ']');
    return 1;
}
