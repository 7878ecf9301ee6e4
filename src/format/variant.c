/* SPDX-License-Identifier: Apache-2.0 */
/*
 * variant.c - one VARIANT value (metadata + value bytes) to JSON text (layer: format).
 *
 * The encoding rules relied on, and the JSON each type becomes, are written down in
 * docs/variant.md. Everything is read through bounds-checked helpers: a length, offset or
 * field id that points outside its buffer is PQT_CORRUPT naming the byte offset in the value
 * (or metadata), nesting is limited to VARIANT_MAX_DEPTH, and the text may not grow past a
 * budget proportional to the input, so overlapping offsets cannot expand a few bytes into
 * gigabytes.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pqt.h"
#include "util/buf.h"
#include "util/civil.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"

#define VARIANT_MAX_DEPTH 128

typedef struct vmeta {
    const uint8_t *p;
    size_t n;
    unsigned osz;    /* offset size in bytes, 1..4 */
    uint64_t nkeys;  /* dictionary size */
    size_t offs_at;  /* byte where the offsets start */
    size_t bytes_at; /* byte where the key bytes start */
} vmeta;

typedef struct vctx {
    vmeta m;
    const uint8_t *v;
    size_t vn;
    pqt_buf *out;
    size_t budget; /* text bytes still allowed */
} vctx;

static pqt_status bad(const char *what, size_t at)
{
    return pqt_err(PQT_CORRUPT, "corrupt VARIANT: %s (value byte %zu)", what, at);
}

static pqt_status put(vctx *c, const void *s, size_t n)
{
    if (n > c->budget)
        return pqt_err(PQT_CORRUPT,
                       "corrupt VARIANT: its JSON text grows past %zu bytes for "
                       "%zu value bytes (overlapping offsets?)",
                       c->out->len + c->budget, c->vn);
    c->budget -= n;
    return pqt_buf_append(c->out, s, n);
}

static pqt_status puts_(vctx *c, const char *s)
{
    return put(c, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 when invalid. */
static size_t utf8_len(const uint8_t *s, size_t n)
{
    uint8_t b = s[0];
    size_t k;
    uint32_t cp;
    if (b < 0x80) return 1;
    if (b >= 0xc2 && b <= 0xdf)
        k = 2, cp = b & 0x1f;
    else if (b >= 0xe0 && b <= 0xef)
        k = 3, cp = b & 0x0f;
    else if (b >= 0xf0 && b <= 0xf4)
        k = 4, cp = b & 0x07;
    else
        return 0;
    if (k > n) return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return k;
}

/* A JSON string literal: ", \ and control characters escaped, valid UTF-8 passed through,
 * any other byte as U+FFFD. */
static pqt_status json_string(vctx *c, const uint8_t *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    PQT_TRY(put(c, "\"", 1));
    size_t run = 0; /* bytes copied as they are, flushed before an escape */
    for (size_t i = 0; i < n;) {
        uint8_t b = s[i];
        size_t k = b >= 0x20 && b != '"' && b != '\\' ? utf8_len(s + i, n - i) : 0;
        if (k) {
            i += k;
            run += k;
            continue;
        }
        PQT_TRY(put(c, s + i - run, run));
        run = 0;
        char e[8];
        if (b == '"' || b == '\\')
            e[0] = '\\', e[1] = (char)b, e[2] = 0;
        else if (b == '\n')
            memcpy(e, "\\n", 3);
        else if (b == '\r')
            memcpy(e, "\\r", 3);
        else if (b == '\t')
            memcpy(e, "\\t", 3);
        else if (b < 0x20)
            memcpy(e, "\\u00", 4), e[4] = hex[b >> 4], e[5] = hex[b & 15], e[6] = 0;
        else
            memcpy(e, "\xef\xbf\xbd", 4);
        PQT_TRY(puts_(c, e));
        i++;
    }
    PQT_TRY(put(c, s + n - run, run));
    return put(c, "\"", 1);
}

static pqt_status base64(vctx *c, const uint8_t *s, size_t n)
{
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    PQT_TRY(put(c, "\"", 1));
    for (size_t i = 0; i < n; i += 3) {
        uint32_t x = (uint32_t)s[i] << 16;
        if (i + 1 < n) x |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < n) x |= s[i + 2];
        char q[4] = {al[x >> 18 & 63], al[x >> 12 & 63], i + 1 < n ? al[x >> 6 & 63] : '=',
                     i + 2 < n ? al[x & 63] : '='};
        PQT_TRY(put(c, q, 4));
    }
    return put(c, "\"", 1);
}


static int date_text(char *b, size_t cap, int64_t days)
{
    int64_t y;
    int m, d;
    pqt_civil_from_days(days, &y, &m, &d);
    return snprintf(b, cap, y < 0 ? "-%04lld-%02d-%02d" : "%04lld-%02d-%02d",
                    (long long)(y < 0 ? -y : y), m, d);
}

/* "HH:MM:SS.fff..." for ticks in [0, one day) of `per` ticks a second, `digits` digits. */
static int tod_text(char *b, size_t cap, int64_t ticks, int64_t per, int digits)
{
    int64_t s = ticks / per;
    return snprintf(b, cap, "%02lld:%02d:%02d.%0*lld", (long long)(s / 3600), (int)(s / 60 % 60),
                    (int)(s % 60), digits, (long long)(ticks % per));
}

static pqt_status timestamp(vctx *c, int64_t t, int64_t per, int digits, int utc)
{
    int64_t day = per * 86400, days = t / day, rem = t % day;
    if (rem < 0) rem += day, days--;
    char b[96];
    int n = date_text(b, sizeof b, days);
    b[n++] = 'T';
    n += tod_text(b + n, sizeof b - (size_t)n, rem, per, digits);
    if (utc) b[n++] = 'Z';
    b[n++] = '"';
    PQT_TRY(put(c, "\"", 1));
    return put(c, b, (size_t)n);
}

static pqt_status number_text(vctx *c, const char *b)
{
    /* NaN and the infinities are no JSON numbers: quoted, as pqt cat prints them */
    if (b[0] == 'N' || b[0] == 'I' || (b[0] == '-' && b[1] == 'I')) {
        PQT_TRY(put(c, "\"", 1));
        PQT_TRY(puts_(c, b));
        return put(c, "\"", 1);
    }
    return puts_(c, b);
}

/* Primitive type id `t` whose payload starts at value byte `at`. */
static pqt_status primitive(vctx *c, int t, size_t at)
{
    static const signed char size[21] = {0, 0, 0, 1, 2,  4,  8, 8, 5, 9, 17,
                                         4, 8, 8, 4, -1, -1, 8, 8, 8, 16};
    if (t > 20) return bad("unknown primitive type", at - 1);
    size_t avail = c->vn - at;
    if (size[t] >= 0 && (size_t)size[t] > avail) return bad("primitive value cut short", at - 1);
    const uint8_t *p = c->v + at;
    char b[96];
    switch (t) {
    case 0:
        return puts_(c, "null");
    case 1:
        return puts_(c, "true");
    case 2:
        return puts_(c, "false");
    case 3:
        snprintf(b, sizeof b, "%d", (int)(int8_t)p[0]);
        return puts_(c, b);
    case 4:
        snprintf(b, sizeof b, "%d", (int)(int16_t)pqt_load_le16(p));
        return puts_(c, b);
    case 5:
        snprintf(b, sizeof b, "%ld", (long)(int32_t)pqt_load_le32(p));
        return puts_(c, b);
    case 6:
        snprintf(b, sizeof b, "%lld", (long long)(int64_t)pqt_load_le64(p));
        return puts_(c, b);
    case 7: {
        uint64_t x = pqt_load_le64(p);
        double d;
        memcpy(&d, &x, 8);
        pqt_format_float64(d, b, sizeof b);
        return number_text(c, b);
    }
    case 14: {
        uint32_t x = (uint32_t)pqt_load_le32(p);
        float f;
        memcpy(&f, &x, 4);
        pqt_format_float32(f, b, sizeof b);
        return number_text(c, b);
    }
    case 8:
    case 9:
    case 10: { /* scale byte, then the unscaled little-endian two's complement */
        int scale = p[0];
        if (scale > 38) return bad("decimal scale above 38", at);
        unsigned w = (unsigned)size[t] - 1;
        uint64_t lo = pqt_load_le_n(p + 1, w < 8 ? w : 8);
        int64_t hi;
        if (w == 16) {
            hi = (int64_t)pqt_load_le64(p + 9);
        } else {
            if (w < 8 && (lo >> (8 * w - 1) & 1)) lo |= ~0ull << (8 * w); /* sign-extend */
            hi = (int64_t)lo < 0 ? -1 : 0;
        }
        pqt_format_decimal(hi, lo, scale, b, sizeof b);
        return puts_(c, b);
    }
    case 11:
        PQT_TRY(put(c, "\"", 1));
        date_text(b, sizeof b, (int32_t)pqt_load_le32(p));
        PQT_TRY(puts_(c, b));
        return put(c, "\"", 1);
    case 12:
        return timestamp(c, (int64_t)pqt_load_le64(p), 1000000, 6, 1);
    case 13:
        return timestamp(c, (int64_t)pqt_load_le64(p), 1000000, 6, 0);
    case 18:
        return timestamp(c, (int64_t)pqt_load_le64(p), 1000000000, 9, 1);
    case 19:
        return timestamp(c, (int64_t)pqt_load_le64(p), 1000000000, 9, 0);
    case 17: {
        int64_t t64 = (int64_t)pqt_load_le64(p);
        if (t64 < 0 || t64 >= 86400000000ll)
            snprintf(b, sizeof b, "\"%lld\"", (long long)t64);
        else
            b[0] = '"', tod_text(b + 1, sizeof b - 2, t64, 1000000, 6), strcat(b, "\"");
        return puts_(c, b);
    }
    case 15:
    case 16: {
        if (avail < 4) return bad("length of a binary or string cut short", at - 1);
        uint64_t n = pqt_load_le32(p);
        if (n > avail - 4) return bad("binary or string runs past the value", at - 1);
        return t == 15 ? base64(c, p + 4, (size_t)n) : json_string(c, p + 4, (size_t)n);
    }
    default: { /* 20: UUID, 16 bytes big-endian */
        static const char hex[] = "0123456789abcdef";
        int k = 0;
        b[k++] = '"';
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) b[k++] = '-';
            b[k++] = hex[p[i] >> 4];
            b[k++] = hex[p[i] & 15];
        }
        b[k++] = '"';
        return put(c, b, (size_t)k);
    }
    }
}

/* Key `id` of the metadata dictionary. */
static pqt_status key(vctx *c, uint64_t id, size_t at)
{
    const vmeta *m = &c->m;
    if (id >= m->nkeys) return bad("object field id past the metadata dictionary", at);
    uint64_t a = pqt_load_le_n(m->p + m->offs_at + id * m->osz, m->osz);
    uint64_t z = pqt_load_le_n(m->p + m->offs_at + (id + 1) * m->osz, m->osz);
    if (a > z || z > m->n - m->bytes_at)
        return pqt_err(PQT_CORRUPT,
                       "corrupt VARIANT metadata: key %llu runs past the "
                       "dictionary bytes",
                       (unsigned long long)id);
    return json_string(c, m->p + m->bytes_at + a, (size_t)(z - a));
}

static pqt_status value(vctx *c, size_t at, size_t end, int depth);

/* An object (is_obj) or array whose header byte is at `at`; its elements end by `end`. */
static pqt_status container(vctx *c, size_t at, size_t end, int hdr, bool is_obj, int depth)
{
    unsigned osz = (unsigned)(hdr & 3) + 1;
    unsigned isz = is_obj ? (unsigned)(hdr >> 2 & 3) + 1 : 0;
    bool large = is_obj ? (hdr >> 4 & 1) : (hdr >> 2 & 1);
    size_t pos = at + 1;
    unsigned nsz = large ? 4 : 1;
    if (end - pos < nsz) return bad("element count cut short", at);
    uint64_t n = pqt_load_le_n(c->v + pos, nsz);
    pos += nsz;
    /* ids, then n + 1 offsets: all inside the value */
    if (n > (end - pos) / (isz + osz)) return bad("more elements than the value holds", at);
    size_t ids = pos, offs = ids + (size_t)n * isz;
    if (end - offs < (size_t)(n + 1) * osz) return bad("offsets cut short", at);
    size_t base = offs + (size_t)(n + 1) * osz; /* the first element's byte */
    uint64_t total = pqt_load_le_n(c->v + offs + n * osz, osz);
    if (total > end - base) return bad("elements run past the value", at);
    PQT_TRY(put(c, is_obj ? "{" : "[", 1));
    for (uint64_t i = 0; i < n; i++) {
        if (i) PQT_TRY(put(c, ",", 1));
        if (is_obj) {
            PQT_TRY(key(c, pqt_load_le_n(c->v + ids + i * isz, isz), ids + (size_t)i * isz));
            PQT_TRY(put(c, ":", 1));
        }
        uint64_t o = pqt_load_le_n(c->v + offs + i * osz, osz);
        if (o >= total) return bad("element offset past the elements", offs + (size_t)i * osz);
        PQT_TRY(value(c, base + (size_t)o, base + (size_t)total, depth + 1));
    }
    return put(c, is_obj ? "}" : "]", 1);
}

static pqt_status value(vctx *c, size_t at, size_t end, int depth)
{
    if (depth > VARIANT_MAX_DEPTH) return bad("nested deeper than 128 levels", at);
    if (at >= end) return bad("value missing", at);
    int basic = c->v[at] & 3, hdr = c->v[at] >> 2;
    switch (basic) {
    case 0:
        return primitive(c, hdr, at + 1);
    case 1:
        if ((size_t)hdr > end - at - 1) return bad("short string runs past the value", at);
        return json_string(c, c->v + at + 1, (size_t)hdr);
    case 2:
        return container(c, at, end, hdr, true, depth);
    default:
        return container(c, at, end, hdr, false, depth);
    }
}

static pqt_status read_meta(vmeta *m, const uint8_t *p, size_t n)
{
    if (n < 1) return pqt_err(PQT_CORRUPT, "corrupt VARIANT metadata: empty");
    if ((p[0] & 15) != 1)
        return pqt_err(PQT_CORRUPT, "VARIANT metadata version %d (only version 1 is known)",
                       p[0] & 15);
    m->p = p;
    m->n = n;
    m->osz = (unsigned)(p[0] >> 6) + 1;
    if (n < 1 + (size_t)m->osz)
        return pqt_err(PQT_CORRUPT, "corrupt VARIANT metadata: dictionary size cut short");
    m->nkeys = pqt_load_le_n(p + 1, m->osz);
    m->offs_at = 1 + m->osz;
    if (m->nkeys >= (n - m->offs_at) / m->osz)
        return pqt_err(PQT_CORRUPT, "corrupt VARIANT metadata: %llu keys, %zu bytes",
                       (unsigned long long)m->nkeys, n);
    m->bytes_at = m->offs_at + (size_t)(m->nkeys + 1) * m->osz;
    return PQT_OK;
}

pqt_status pqt_variant_to_json(const void *metadata, size_t metadata_nbytes, const void *value_,
                               size_t value_nbytes, char **json_ret, size_t *len_ret)
{
    if (!json_ret || (!metadata && metadata_nbytes) || (!value_ && value_nbytes))
        return pqt_err(PQT_MISUSE, "pqt_variant_to_json: json_ret or a buffer is NULL");
    vctx c = {.v = value_, .vn = value_nbytes};
    PQT_TRY(read_meta(&c.m, metadata, metadata_nbytes));
    pqt_buf out = {0};
    c.out = &out;
    /* generous for real data (a key repeated in every element of an array, escapes), small
     * enough that overlapping offsets cannot make a bomb of a few bytes */
    size_t in = value_nbytes + metadata_nbytes;
    c.budget =
        in > (SIZE_MAX - ((size_t)1 << 20)) / 1024 ? SIZE_MAX : in * 1024 + ((size_t)1 << 20);
    pqt_status st = value(&c, 0, value_nbytes, 0);
    if (st == PQT_OK) st = pqt_buf_append(&out, "", 1);
    if (st != PQT_OK) {
        pqt_buf_free(&out);
        return st;
    }
    *json_ret = (char *)out.data;
    if (len_ret) *len_ret = out.len - 1;
    return PQT_OK;
}
