/* SPDX-License-Identifier: Apache-2.0 */
/*
 * s3_xml.c - one ListObjectsV2 answer (or an S3 <Error>) read into keys, sizes and ETags
 * (layer: remote). A small reader for the XML S3 writes, not a general parser: elements,
 * attributes skipped, comments, processing instructions, CDATA and the predefined and numeric
 * entities; a DOCTYPE (where entity bombs live) is refused. Everything is bounded: nesting
 * depth, a text's length, keys per page (s3.h), so a hostile answer costs at most its size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/s3.h"
#include "util/error.h"
#include "util/mem.h"

#define MAX_DEPTH 16
#define MAX_NAME 64

/* the element whose text is being collected */
enum field { F_NONE, F_KEY, F_SIZE, F_ETAG, F_TRUNC, F_TOKEN, F_CODE, F_MSG };

typedef struct reader {
    const char *p, *end, *start;
    const char *what;
    char names[MAX_DEPTH][MAX_NAME]; /* the open elements, outermost first */
    int depth;
    bool rooted;   /* the document element has begun */
    bool is_error; /* the root is <Error> */
    enum field field;
    char text[PQT_S3_MAX_KEY + 1]; /* the field's decoded text */
    size_t ntext;
    pqt_s3_object cur; /* the <Contents> being read */
    bool in_contents;
    pqt_s3_page *page;
} reader;

static pqt_status corrupt(const reader *r, const char *why)
{
    return pqt_err(PQT_CORRUPT, "%s: answer not understood at byte %zu: %s", r->what,
                   (size_t)(r->p - r->start), why);
}

static const char *find(const reader *r, const char *s)
{
    size_t n = strlen(s);
    for (const char *q = r->p; q + n <= r->end; q++)
        if (memcmp(q, s, n) == 0) return q;
    return NULL;
}

static pqt_status put_byte(reader *r, unsigned char c)
{
    if (r->ntext >= PQT_S3_MAX_KEY) return corrupt(r, "a text longer than 4096 bytes");
    r->text[r->ntext++] = (char)c;
    return PQT_OK;
}

static pqt_status put_code_point(reader *r, unsigned long cp)
{
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return corrupt(r, "a character reference to no character");
    if (cp < 0x80) return put_byte(r, (unsigned char)cp);
    if (cp < 0x800) {
        PQT_TRY(put_byte(r, (unsigned char)(0xC0 | (cp >> 6))));
    } else if (cp < 0x10000) {
        PQT_TRY(put_byte(r, (unsigned char)(0xE0 | (cp >> 12))));
        PQT_TRY(put_byte(r, (unsigned char)(0x80 | ((cp >> 6) & 0x3F))));
    } else {
        PQT_TRY(put_byte(r, (unsigned char)(0xF0 | (cp >> 18))));
        PQT_TRY(put_byte(r, (unsigned char)(0x80 | ((cp >> 12) & 0x3F))));
        PQT_TRY(put_byte(r, (unsigned char)(0x80 | ((cp >> 6) & 0x3F))));
    }
    return put_byte(r, (unsigned char)(0x80 | (cp & 0x3F)));
}

/* The entity at r->p ('&') into the text. */
static pqt_status entity(reader *r)
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    const char *semi =
        memchr(r->p, ';', (size_t)(r->end - r->p) < 12 ? (size_t)(r->end - r->p) : 12);
    if (!semi) return corrupt(r, "an '&' that starts no entity");
    const char *name = r->p + 1;
    size_t n = (size_t)(semi - name);
    r->p = semi + 1;
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (strlen(named[i].name) == n && memcmp(name, named[i].name, n) == 0)
            return put_byte(r, (unsigned char)named[i].c);
    if (n >= 2 && name[0] == '#') {
        bool hex = name[1] == 'x';
        unsigned long cp = 0;
        size_t i = hex ? 2 : 1;
        if (i == n) return corrupt(r, "an empty character reference");
        for (; i < n; i++) {
            char c = name[i];
            int d = c >= '0' && c <= '9'          ? c - '0'
                    : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                  : -1;
            if (d < 0) return corrupt(r, "a character reference that is not a number");
            cp = cp * (hex ? 16 : 10) + (unsigned long)d;
        }
        return put_code_point(r, cp);
    }
    return corrupt(r, "an unknown entity");
}

/* The field collected by the element named name whose parent is parent. */
static enum field field_of(const reader *r, const char *name)
{
    const char *parent = r->depth > 0 ? r->names[r->depth - 1] : "";
    if (r->depth == 1 && r->is_error) {
        if (strcmp(name, "Code") == 0) return F_CODE;
        if (strcmp(name, "Message") == 0) return F_MSG;
        return F_NONE;
    }
    if (r->depth == 1) {
        if (strcmp(name, "IsTruncated") == 0) return F_TRUNC;
        if (strcmp(name, "NextContinuationToken") == 0) return F_TOKEN;
    }
    if (r->depth == 2 && strcmp(parent, "Contents") == 0) {
        if (strcmp(name, "Key") == 0) return F_KEY;
        if (strcmp(name, "Size") == 0) return F_SIZE;
        if (strcmp(name, "ETag") == 0) return F_ETAG;
    }
    return F_NONE;
}

static pqt_status set_str(reader *r, char **dst)
{
    if (*dst) return corrupt(r, "an element twice");
    r->text[r->ntext] = '\0';
    *dst = pqt_strndup(r->text, r->ntext);
    return *dst ? PQT_OK : pqt_err(PQT_NOMEM, "%s: out of memory", r->what);
}

/* The collected text is complete: store it. */
static pqt_status end_field(reader *r)
{
    r->text[r->ntext] = '\0';
    switch (r->field) {
    case F_KEY:
        if (r->ntext == 0) return corrupt(r, "an empty Key");
        return set_str(r, &r->cur.key);
    case F_ETAG:
        return set_str(r, &r->cur.etag);
    case F_TOKEN:
        return set_str(r, &r->page->next_token);
    case F_CODE:
        return set_str(r, &r->page->err_code);
    case F_MSG:
        return set_str(r, &r->page->err_msg);
    case F_SIZE: {
        if (r->ntext == 0 || r->ntext > 18 || strspn(r->text, "0123456789") != r->ntext)
            return corrupt(r, "a Size that is not a count of bytes");
        r->cur.size = strtoll(r->text, NULL, 10);
        return PQT_OK;
    }
    case F_TRUNC:
        if (strcmp(r->text, "true") == 0)
            r->page->truncated = true;
        else if (strcmp(r->text, "false") != 0)
            return corrupt(r, "IsTruncated not true or false");
        return PQT_OK;
    case F_NONE:
        return PQT_OK;
    }
    return PQT_OK;
}

static pqt_status add_object(reader *r)
{
    pqt_s3_page *pg = r->page;
    if (!r->cur.key || r->cur.size < 0) return corrupt(r, "a Contents without Key or Size");
    if (pg->n >= PQT_S3_MAX_PAGE_KEYS) return corrupt(r, "more keys than a page holds");
    if (pg->n == pg->cap) {
        int64_t cap = pg->cap ? pg->cap * 2 : 64;
        pqt_s3_object *o = pqt_realloc(pg->obj, (size_t)cap * sizeof *o);
        if (!o) return pqt_err(PQT_NOMEM, "%s: out of memory", r->what);
        pg->obj = o;
        pg->cap = cap;
    }
    pg->obj[pg->n++] = r->cur;
    memset(&r->cur, 0, sizeof r->cur);
    return PQT_OK;
}

/* The name at r->p (after '<' or '</'), without a namespace prefix, into buf. */
static pqt_status tag_name(reader *r, char *buf)
{
    const char *s = r->p;
    while (r->p < r->end && !strchr(" \t\r\n/>", *r->p))
        r->p++;
    size_t n = (size_t)(r->p - s);
    const char *colon = memchr(s, ':', n);
    if (colon) {
        n -= (size_t)(colon + 1 - s);
        s = colon + 1;
    }
    if (n == 0 || n >= MAX_NAME) return corrupt(r, "an element name empty or too long");
    memcpy(buf, s, n);
    buf[n] = '\0';
    return PQT_OK;
}

/* Element `name` ended (its end tag, or an empty element): its text is the field's value, and
 * the end of a top-level Contents is one object. */
static pqt_status element_ended(reader *r, const char *name)
{
    if (r->field != F_NONE) {
        PQT_TRY(end_field(r));
        r->field = F_NONE;
    }
    if (r->depth == 1 && r->in_contents && strcmp(name, "Contents") == 0) {
        r->in_contents = false;
        return add_object(r);
    }
    return PQT_OK;
}

static pqt_status open_tag(reader *r)
{
    char name[MAX_NAME];
    PQT_TRY(tag_name(r, name));
    /* skip attributes: up to '>' outside quotes */
    char quote = 0;
    while (r->p < r->end && (quote || *r->p != '>')) {
        if (quote && *r->p == quote)
            quote = 0;
        else if (!quote && (*r->p == '"' || *r->p == '\''))
            quote = *r->p;
        r->p++;
    }
    if (r->p >= r->end) return corrupt(r, "an element that does not end");
    bool empty = r->p[-1] == '/';
    r->p++;
    if (r->depth == 0) {
        if (r->rooted) return corrupt(r, "a second document element");
        r->rooted = true;
        if (strcmp(name, "Error") == 0)
            r->is_error = true;
        else if (strcmp(name, "ListBucketResult") != 0)
            return corrupt(r, "neither a ListBucketResult nor an Error");
    }
    if (r->depth == 1 && !r->is_error && strcmp(name, "Contents") == 0) {
        memset(&r->cur, 0, sizeof r->cur);
        r->cur.size = -1;
        r->in_contents = true;
    }
    if (r->field != F_NONE) return corrupt(r, "an element inside a text field");
    enum field f = field_of(r, name);
    if (empty) {
        r->field = f;
        r->ntext = 0;
        return element_ended(r, name);
    }
    if (r->depth == MAX_DEPTH) return corrupt(r, "elements nested too deep");
    memcpy(r->names[r->depth++], name, strlen(name) + 1);
    r->field = f;
    r->ntext = 0;
    return PQT_OK;
}

static pqt_status close_tag(reader *r)
{
    char name[MAX_NAME];
    PQT_TRY(tag_name(r, name));
    while (r->p < r->end && strchr(" \t\r\n", *r->p))
        r->p++;
    if (r->p >= r->end || *r->p != '>') return corrupt(r, "an end tag that does not end");
    r->p++;
    if (r->depth == 0 || strcmp(r->names[r->depth - 1], name) != 0)
        return corrupt(r, "an end tag that closes no open element");
    r->depth--;
    return element_ended(r, name);
}

/* Text outside tags: kept for a field, else it must be blank or inside some element. */
static pqt_status text(reader *r)
{
    const char *lt = memchr(r->p, '<', (size_t)(r->end - r->p));
    const char *stop = lt ? lt : r->end;
    while (r->p < stop) {
        if (r->field == F_NONE) {
            if (r->depth == 0 && !strchr(" \t\r\n", *r->p))
                return corrupt(r, "text outside the document's element");
            r->p++;
        } else if (*r->p == '&') {
            PQT_TRY(entity(r));
            if (r->p > stop) return corrupt(r, "an entity across a tag");
        } else {
            PQT_TRY(put_byte(r, (unsigned char)*r->p++));
        }
    }
    return PQT_OK;
}

static pqt_status markup(reader *r)
{
    size_t left = (size_t)(r->end - r->p);
    const char *close = NULL;
    size_t skip = 0;
    if (left >= 2 && r->p[1] == '?') {
        close = find(r, "?>");
        skip = 2;
    } else if (left >= 4 && memcmp(r->p, "<!--", 4) == 0) {
        close = find(r, "-->");
        skip = 3;
    } else if (left >= 9 && memcmp(r->p, "<![CDATA[", 9) == 0) {
        const char *s = r->p + 9;
        r->p = s;
        close = find(r, "]]>");
        if (!close) return corrupt(r, "a CDATA section that does not end");
        if (r->field == F_NONE && close > s) return corrupt(r, "CDATA outside a text field");
        for (; s < close; s++)
            PQT_TRY(put_byte(r, (unsigned char)*s));
        r->p = close + 3;
        return PQT_OK;
    } else if (left >= 2 && r->p[1] == '!') {
        return corrupt(r, "a DOCTYPE or declaration (not accepted)");
    } else if (left >= 2 && r->p[1] == '/') {
        r->p += 2;
        return close_tag(r);
    } else {
        r->p++;
        return open_tag(r);
    }
    if (!close) return corrupt(r, "a comment or processing instruction that does not end");
    r->p = close + skip;
    return PQT_OK;
}

void pqt_s3_page_free(pqt_s3_page *page)
{
    if (!page) return;
    for (int64_t i = 0; i < page->n; i++) {
        pqt_mem_free(page->obj[i].key);
        pqt_mem_free(page->obj[i].etag);
    }
    pqt_mem_free(page->obj);
    pqt_mem_free(page->next_token);
    pqt_mem_free(page->err_code);
    pqt_mem_free(page->err_msg);
    memset(page, 0, sizeof *page);
}

pqt_status pqt_s3_xml_page(const char *xml, size_t n, const char *what, pqt_s3_page *page)
{
    if (page) memset(page, 0, sizeof *page);
    if (!xml || !page) return pqt_err(PQT_MISUSE, "S3 listing: no answer to read");
    reader *r = pqt_calloc(1, sizeof *r); /* the text buffer is too big for the stack */
    if (!r) return pqt_err(PQT_NOMEM, "%s: out of memory", what);
    *r = (reader){.p = xml, .end = xml + n, .start = xml, .what = what, .page = page};
    pqt_status st = PQT_OK;
    if (n > PQT_S3_MAX_PAGE_BYTES) st = corrupt(r, "an answer bigger than 32 MiB");
    while (st == PQT_OK && r->p < r->end) {
        st = *r->p == '<' ? markup(r) : text(r);
    }
    if (st == PQT_OK && (!r->rooted || r->depth > 0))
        st = corrupt(r, r->rooted ? "the answer ends inside an element" : "no XML element");
    if (st == PQT_OK && !r->is_error && page->truncated && !page->next_token)
        st = corrupt(r, "IsTruncated without a NextContinuationToken");
    pqt_mem_free(r->cur.key);
    pqt_mem_free(r->cur.etag);
    pqt_mem_free(r);
    if (st != PQT_OK) pqt_s3_page_free(page);
    return st;
}
