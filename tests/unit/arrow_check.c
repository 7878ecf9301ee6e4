/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_check.c - the full-depth Arrow array validator of tests (arrow_check.h). Written
 * from the Arrow columnar format and C Data Interface specifications, sharing no code with
 * src/arrow/: a test of the exporter must not trust the exporter.
 */
#include "arrow_check.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chk {
    char *why;
    size_t cap;
    char path[512];
} chk;

static int fail(chk *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->why && c->cap) snprintf(c->why, c->cap, "%s: %s", c->path[0] ? c->path : "(top)", msg);
    return 1;
}

/* Read the last byte of [p, p + n): a short buffer is a read out of bounds under ASan. */
static volatile uint8_t sink;
static void touch(const void *p, int64_t n)
{
    if (n > 0) sink = ((const uint8_t *)p)[n - 1];
}

static bool bit(const uint8_t *bm, int64_t i)
{
    return (bm[i >> 3] >> (i & 7)) & 1;
}

/* Bytes per element of a fixed-width format, 0 when not fixed width, -1 for bool (bits). */
static int64_t fixed_width(const char *f)
{
    if (!strcmp(f, "b")) return -1;
    if (!strcmp(f, "c") || !strcmp(f, "C")) return 1;
    if (!strcmp(f, "s") || !strcmp(f, "S") || !strcmp(f, "e")) return 2;
    if (!strcmp(f, "i") || !strcmp(f, "I") || !strcmp(f, "f") || !strcmp(f, "tdD") ||
        !strcmp(f, "tts") || !strcmp(f, "ttm"))
        return 4;
    if (!strcmp(f, "l") || !strcmp(f, "L") || !strcmp(f, "g") || !strcmp(f, "tdm") ||
        !strcmp(f, "ttu") || !strcmp(f, "ttn") || !strncmp(f, "ts", 2) || !strncmp(f, "tD", 2))
        return 8;
    if (!strncmp(f, "d:", 2)) {
        int p, s, bits = 128;
        if (sscanf(f + 2, "%d,%d,%d", &p, &s, &bits) < 2) return 0;
        return bits / 8;
    }
    if (!strncmp(f, "w:", 2)) {
        long w = strtol(f + 2, NULL, 10);
        return w > 0 ? w : 0;
    }
    return 0;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 when invalid. */
static int utf8_len(const uint8_t *s, int64_t n)
{
    uint8_t b = s[0];
    int k;
    uint32_t cp;
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF)
        k = 2, cp = b & 0x1F;
    else if (b >= 0xE0 && b <= 0xEF)
        k = 3, cp = b & 0x0F;
    else if (b >= 0xF0 && b <= 0xF4)
        k = 4, cp = b & 0x07;
    else
        return 0;
    if (n < k) return 0;
    for (int i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return k;
}

static int check(chk *c, const struct ArrowSchema *s, const struct ArrowArray *a);

static int check_child(chk *c, const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i,
                       int64_t need)
{
    size_t at = strlen(c->path);
    const struct ArrowSchema *cs = s->children[i];
    const struct ArrowArray *ca = a->children[i];
    snprintf(c->path + at, sizeof c->path - at, "%s%s", at ? "." : "",
             cs && cs->name ? cs->name : "?");
    if (!cs || !ca) return fail(c, "child %lld is NULL", (long long)i);
    if (ca->length < need)
        return fail(c, "child length %lld < %lld needed by the parent", (long long)ca->length,
                    (long long)need);
    int r = check(c, cs, ca);
    c->path[at] = 0;
    return r;
}

/* Offsets [offset, offset + length] of width ow (4 or 8) bytes: non-negative, monotone;
 * *last the last one. */
static int check_offsets(chk *c, const void *buf, int ow, const struct ArrowArray *a, int64_t *last)
{
    if (!buf) return fail(c, "offsets buffer is NULL");
    if ((uintptr_t)buf % 8) return fail(c, "offsets buffer not 8-byte aligned");
    int64_t prev = -1;
    for (int64_t i = a->offset; i <= a->offset + a->length; i++) {
        int64_t o = ow == 4 ? ((const int32_t *)buf)[i] : ((const int64_t *)buf)[i];
        if (o < 0) return fail(c, "offset %lld is negative (%lld)", (long long)i, (long long)o);
        if (o < prev)
            return fail(c, "offsets decrease at %lld (%lld after %lld)", (long long)i, (long long)o,
                        (long long)prev);
        prev = o;
    }
    *last = prev;
    return 0;
}

static int check(chk *c, const struct ArrowSchema *s, const struct ArrowArray *a)
{
    if (!s || !a) return fail(c, "NULL schema or array");
    if (!s->release) return fail(c, "schema released (release NULL)");
    if (!a->release) return fail(c, "array released (release NULL)");
    if (!s->format) return fail(c, "schema has no format");
    const char *f = s->format;
    if (a->length < 0 || a->offset < 0)
        return fail(c, "length %lld, offset %lld", (long long)a->length, (long long)a->offset);
    if (a->n_children != s->n_children)
        return fail(c, "array has %lld children, schema %lld", (long long)a->n_children,
                    (long long)s->n_children);
    if (a->n_children > 0 && (!a->children || !s->children)) return fail(c, "children NULL");
    if (a->dictionary || s->dictionary) return fail(c, "unexpected dictionary");
    int64_t end = a->offset + a->length;
    bool is_struct = !strcmp(f, "+s");
    bool is_list = !strcmp(f, "+l") || !strcmp(f, "+L") || !strcmp(f, "+m");
    bool is_fsl = !strncmp(f, "+w:", 3);
    bool is_var = !strcmp(f, "u") || !strcmp(f, "U") || !strcmp(f, "z") || !strcmp(f, "Z");
    int64_t w = fixed_width(f);
    int64_t nbuf = is_struct || is_fsl ? 1 : is_list ? 2 : is_var ? 3 : w != 0 ? 2 : -1;
    if (nbuf < 0) return fail(c, "format \"%s\" not known to the checker", f);
    if (a->n_buffers != nbuf)
        return fail(c, "format \"%s\" has %lld buffers, needs %lld", f, (long long)a->n_buffers,
                    (long long)nbuf);
    if (!a->buffers) return fail(c, "buffers NULL");
    for (int64_t i = 0; i < nbuf; i++)
        if (a->buffers[i] && (uintptr_t)a->buffers[i] % 8)
            return fail(c, "buffer %lld not 8-byte aligned", (long long)i);
    /* validity against null_count */
    const uint8_t *valid = a->buffers[0];
    int64_t nulls = 0;
    if (valid) {
        if (a->length > 0) touch(valid, (end + 7) / 8);
        for (int64_t i = a->offset; i < end; i++)
            nulls += !bit(valid, i);
    }
    if (!valid && a->null_count != 0 && a->length > 0)
        return fail(c, "null_count %lld without a validity bitmap", (long long)a->null_count);
    if (a->null_count != -1 && a->null_count != nulls)
        return fail(c, "null_count %lld but the validity bitmap has %lld nulls",
                    (long long)a->null_count, (long long)nulls);
    if (nulls > 0 && !(s->flags & ARROW_FLAG_NULLABLE))
        return fail(c, "%lld nulls in a field not flagged nullable", (long long)nulls);
    if (w != 0) {
        if (s->n_children != 0) return fail(c, "fixed-width format with children");
        if (a->length > 0 && !a->buffers[1]) return fail(c, "data buffer NULL");
        if (a->length > 0) touch(a->buffers[1], w < 0 ? (end + 7) / 8 : end * w);
        return 0;
    }
    if (is_var) {
        int ow = f[0] == 'u' || f[0] == 'z' ? 4 : 8;
        int64_t last;
        if (s->n_children != 0) return fail(c, "string format with children");
        if (check_offsets(c, a->buffers[1], ow, a, &last)) return 1;
        if (last > 0 && !a->buffers[2]) return fail(c, "data buffer NULL");
        touch(a->buffers[2], last);
        if (f[0] == 'u' || f[0] == 'U') {
            const uint8_t *d = a->buffers[2];
            for (int64_t i = a->offset; i < end; i++) {
                if (valid && !bit(valid, i)) continue;
                int64_t o0 = ow == 4 ? ((const int32_t *)a->buffers[1])[i]
                                     : ((const int64_t *)a->buffers[1])[i];
                int64_t o1 = ow == 4 ? ((const int32_t *)a->buffers[1])[i + 1]
                                     : ((const int64_t *)a->buffers[1])[i + 1];
                for (int64_t p = o0; p < o1;) {
                    int k = utf8_len(d + p, o1 - p);
                    if (!k)
                        return fail(c, "element %lld: invalid UTF-8 at byte %lld",
                                    (long long)(i - a->offset), (long long)(p - o0));
                    p += k;
                }
            }
        }
        return 0;
    }
    if (is_struct) {
        for (int64_t i = 0; i < s->n_children; i++)
            if (check_child(c, s, a, i, end)) return 1;
        return 0;
    }
    if (is_fsl) {
        long n = strtol(f + 3, NULL, 10);
        if (n <= 0 || s->n_children != 1) return fail(c, "bad fixed_size_list \"%s\"", f);
        return check_child(c, s, a, 0, end * n);
    }
    /* lists and maps */
    if (s->n_children != 1) return fail(c, "list with %lld children", (long long)s->n_children);
    int64_t last;
    if (check_offsets(c, a->buffers[1], f[1] == 'L' ? 8 : 4, a, &last)) return 1;
    if (!strcmp(f, "+m")) {
        const struct ArrowSchema *e = s->children[0];
        if (!e || !e->format || strcmp(e->format, "+s") || e->n_children != 2)
            return fail(c, "map entries are not a struct of two");
        if (e->flags & ARROW_FLAG_NULLABLE) return fail(c, "map entries flagged nullable");
        if (a->children[0] && a->children[0]->null_count != 0)
            return fail(c, "map entries hold nulls");
        if (e->children[0]->flags & ARROW_FLAG_NULLABLE) return fail(c, "map keys nullable");
    }
    return check_child(c, s, a, 0, last);
}

int arrow_check_array(const struct ArrowSchema *schema, const struct ArrowArray *array, char *why,
                      size_t cap)
{
    chk c;
    memset(&c, 0, sizeof c);
    c.why = why;
    c.cap = cap;
    if (why && cap) why[0] = 0;
    return check(&c, schema, array);
}
