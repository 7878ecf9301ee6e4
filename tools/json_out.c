/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json_out.c - a small writer of indented JSON documents for `pqt schema --format json` and
 * `pqt meta --format json` (see tools.h). It tracks only what it must to place commas and
 * line breaks; keys and values are written in the order the caller gives, so each command's
 * key order is its contract.
 */
#include <inttypes.h>
#include <string.h>

#include "tools.h"

static void indent(jw *w)
{
    rb_putc(&w->b, '\n');
    for (int i = 0; i < w->depth; i++)
        rb_puts(&w->b, "  ");
}

/* Before any value: nothing after a key, else a comma and a new line inside an array. */
static void pre_value(jw *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (w->depth == 0) return;
    if (!w->first) rb_putc(&w->b, ',');
    indent(w);
}

void jw_open(jw *w, char bracket)
{
    pre_value(w);
    rb_putc(&w->b, bracket);
    w->depth++;
    w->first = 1;
}

void jw_close(jw *w, char bracket)
{
    w->depth--;
    if (!w->first) indent(w);
    rb_putc(&w->b, bracket);
    w->first = 0;
    if (w->depth == 0) rb_putc(&w->b, '\n');
}

void jw_key(jw *w, const char *key)
{
    if (!w->first) rb_putc(&w->b, ',');
    indent(w);
    render_json_string(&w->b, key, strlen(key));
    rb_puts(&w->b, ": ");
    w->first = 0;
    w->after_key = 1;
}

void jw_str(jw *w, const char *s)
{
    if (!s) {
        jw_null(w);
        return;
    }
    pre_value(w);
    render_json_string(&w->b, s, strlen(s));
    w->first = 0;
}

void jw_raw(jw *w, const char *text, size_t n)
{
    pre_value(w);
    rb_put(&w->b, text, n);
    w->first = 0;
}

void jw_int(jw *w, int64_t v)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%" PRId64, v);
    pre_value(w);
    rb_puts(&w->b, tmp);
    w->first = 0;
}

void jw_double(jw *w, double v)
{
    char tmp[40];
    pqt_format_float64(v, tmp, sizeof tmp); /* finite values only: JSON has no NaN */
    pre_value(w);
    rb_puts(&w->b, tmp);
    w->first = 0;
}

void jw_bool(jw *w, int v)
{
    pre_value(w);
    rb_puts(&w->b, v ? "true" : "false");
    w->first = 0;
}

void jw_null(jw *w)
{
    pre_value(w);
    rb_puts(&w->b, "null");
    w->first = 0;
}

void jw_flush(jw *w, FILE *out)
{
    if (w->b.len) fwrite(w->b.p, 1, w->b.len, out);
    w->b.len = 0;
}
