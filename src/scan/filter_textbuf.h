/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_textbuf.h - the bounded text buffer the filter's renderers write into (layer: scan):
 * snprintf semantics, the length counts what did not fit. Private to src/scan/filter_*.c.
 */
#ifndef PQT_SCAN_FILTER_TEXTBUF_H
#define PQT_SCAN_FILTER_TEXTBUF_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

typedef struct tbuf {
    char *buf;
    size_t cap;
    int64_t len;
} tbuf;

static inline void put(tbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, b->len++)
        if ((size_t)b->len + 1 < b->cap) b->buf[b->len] = s[i];
    if (b->cap) b->buf[(size_t)b->len < b->cap ? (size_t)b->len : b->cap - 1] = '\0';
}

static inline void puts_(tbuf *b, const char *s) { put(b, s, strlen(s)); }

static inline void putf(tbuf *b, const char *fmt, ...) PQT_PRINTF(2, 3);
static inline void putf(tbuf *b, const char *fmt, ...)
{
    char tmp[96];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(b, tmp, n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* s between quotes q, a q inside written twice */
static inline void put_quoted(tbuf *b, const char *s, int64_t len, char q)
{
    put(b, &q, 1);
    for (int64_t i = 0; i < len; i++) {
        put(b, s + i, 1);
        if (s[i] == q) put(b, &q, 1);
    }
    put(b, &q, 1);
}

#endif
