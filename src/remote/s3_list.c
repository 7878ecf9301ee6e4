/* SPDX-License-Identifier: Apache-2.0 */
/*
 * s3_list.c - every key below a prefix of a bucket, by ListObjectsV2 pages (layer: remote).
 * docs/remote.md "S3". The pages come through the HTTP client (pqt_http_get), signed by
 * pqt_s3_sign: a listing is retried after the faults a read is retried after.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote/http.h"
#include "remote/s3.h"
#include "util/error.h"
#include "util/mem.h"

/* consecutive empty pages that still say "truncated" before the listing gives up */
#define MAX_EMPTY_PAGES 100

/* bucket_url?continuation-token=T&list-type=2&max-keys=M&prefix=P: the parameters in the
 * canonical order and encoding of SigV4, so the query libcurl signs as sent is canonical. */
static char *page_url(const pqt_s3_target *t, const char *prefix, const char *token, int max_keys)
{
    size_t cap = strlen(t->bucket_url) + 3 * strlen(prefix) + 3 * (token ? strlen(token) : 0) + 96;
    char *u = pqt_malloc(cap);
    if (!u) return NULL;
    size_t len = (size_t)snprintf(u, cap, "%s?", t->bucket_url);
    if (token) {
        len += (size_t)snprintf(u + len, cap - len, "continuation-token=");
        pqt_s3_uri_encode(token, strlen(token), false, u, cap, &len);
        len += (size_t)snprintf(u + len, cap - len, "&");
    }
    len += (size_t)snprintf(u + len, cap - len, "list-type=2&");
    if (max_keys > 0) len += (size_t)snprintf(u + len, cap - len, "max-keys=%d&", max_keys);
    len += (size_t)snprintf(u + len, cap - len, "prefix=");
    pqt_s3_uri_encode(prefix, strlen(prefix), false, u, cap, &len);
    return u;
}

/* GET url whole (at most max bytes) through h: its retries, connections and signing. */
static pqt_status get(pqt_http *h, const char *url, const char *what, size_t max, pqt_http_body *bd)
{
    /* S3 names the bucket's region on an answer from the wrong one (301, 400): kept for the
     * error message, the one mistake a user cannot see from an HTTP status */
    bd->want_header = "x-amz-bucket-region";
    pqt_status st = pqt_http_get(h, url, max, bd);
    if (st != PQT_OK && strcmp(what, url) != 0) pqt_err_prefix("%s: ", what);
    return st;
}

/* The error of a non-200 answer, with S3's code and message when it sent them, and the
 * bucket's region when it is not the one asked. */
static pqt_status http_error(const pqt_http_body *bd, const char *region, const char *what)
{
    pqt_s3_page pg;
    long http = bd->status;
    pqt_err_mute(); /* an answer that is not an S3 error document only loses its details */
    bool parsed = pqt_s3_xml_page(bd->data, bd->len, what, &pg) == PQT_OK;
    pqt_err_unmute();
    char hint[320] = "";
    const char *in = bd->header;
    bool named = in[0] && strspn(in, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(in);
    if (named && strcmp(in, region) != 0)
        snprintf(hint, sizeof hint, ": the bucket is in region %s, not %s (set AWS_REGION=%s)", in,
                 region, in);
    pqt_status st = http == 404 ? PQT_NOT_FOUND : PQT_IO;
    if (parsed && pg.err_code)
        pqt_err(st, "%s: HTTP %ld (%s: %s)%s", what, http, pg.err_code,
                pg.err_msg ? pg.err_msg : "", hint);
    else
        pqt_err(st, "%s: HTTP %ld%s", what, http, hint);
    if (parsed) pqt_s3_page_free(&pg);
    return st;
}

/* Move pg's objects below prefix onto out (ownership moves; pg keeps the rest). */
static pqt_status take(pqt_s3_page *out, pqt_s3_page *pg, const char *prefix, const char *what)
{
    size_t plen = strlen(prefix);
    if (out->n + pg->n > PQT_S3_MAX_LIST_KEYS)
        return pqt_err(PQT_CORRUPT, "%s: more than %d keys", what, PQT_S3_MAX_LIST_KEYS);
    if (out->n + pg->n > out->cap) {
        int64_t cap = out->cap ? out->cap : 256;
        while (cap < out->n + pg->n)
            cap *= 2;
        pqt_s3_object *o = pqt_realloc(out->obj, (size_t)cap * sizeof *o);
        if (!o) return pqt_err(PQT_NOMEM, "%s: out of memory", what);
        out->obj = o;
        out->cap = cap;
    }
    for (int64_t i = 0; i < pg->n; i++) {
        if (strncmp(pg->obj[i].key, prefix, plen) != 0) continue; /* the server's mistake */
        out->obj[out->n++] = pg->obj[i];
        memset(&pg->obj[i], 0, sizeof pg->obj[i]);
    }
    return PQT_OK;
}

static int cmp_obj(const void *a, const void *b)
{
    return strcmp(((const pqt_s3_object *)a)->key, ((const pqt_s3_object *)b)->key);
}

/* One page: fetch, read, append to out; *token the next page's token (NULL: the last). */
static pqt_status one_page(pqt_http *h, const pqt_s3_target *t, const char *prefix, int max_keys,
                           char **token, const char *what, pqt_s3_page *out, int *empty)
{
    char *url = page_url(t, prefix, *token, max_keys);
    if (!url) return pqt_err(PQT_NOMEM, "%s: out of memory", what);
    pqt_http_body bd;
    pqt_status st = get(h, url, what, PQT_S3_MAX_PAGE_BYTES, &bd);
    pqt_mem_free(url);
    pqt_s3_page pg = {0};
    if (st == PQT_OK && bd.status != 200) st = http_error(&bd, t->region, what);
    if (st == PQT_OK) st = pqt_s3_xml_page(bd.data, bd.len, what, &pg);
    pqt_mem_free(bd.data);
    if (st == PQT_OK && pg.err_code)
        st = pqt_err(PQT_IO, "%s: HTTP 200 with an error (%s: %s)", what, pg.err_code,
                     pg.err_msg ? pg.err_msg : "");
    if (st == PQT_OK && pg.truncated && *token && strcmp(pg.next_token, *token) == 0)
        st = pqt_err(PQT_IO, "%s: the server repeats its continuation token", what);
    if (st == PQT_OK && pg.truncated && pg.n == 0 && ++*empty > MAX_EMPTY_PAGES)
        st = pqt_err(PQT_IO, "%s: %d pages in a row without a key", what, MAX_EMPTY_PAGES);
    if (st == PQT_OK && pg.n > 0) *empty = 0;
    if (st == PQT_OK) st = take(out, &pg, prefix, what);
    if (st == PQT_OK) {
        pqt_mem_free(*token);
        *token = pg.truncated ? pg.next_token : NULL;
        if (pg.truncated) pg.next_token = NULL;
    }
    pqt_s3_page_free(&pg);
    return st;
}

/* An HTTP client for t's bucket, signing for t. */
static pqt_status client(const pqt_s3_target *t, const char *what, pqt_http **h)
{
    pqt_status st = pqt_http_new(t->bucket_url, NULL, pqt_s3_sign, (void *)t, h);
    if (st != PQT_OK) pqt_err_prefix("%s: ", what);
    return st;
}

pqt_status pqt_s3_list(const pqt_s3_target *t, const char *prefix, int max_keys, pqt_s3_page *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (!t || !t->bucket_url || !out) return pqt_err(PQT_MISUSE, "S3 listing: no bucket given");
    if (!prefix) prefix = "";
    char what[512];
    snprintf(what, sizeof what, "listing %.300s/ prefix '%.150s'", t->bucket_url, prefix);
    pqt_http *h;
    PQT_TRY(client(t, what, &h));
    char *token = NULL;
    int empty = 0;
    pqt_status st;
    do
        st = one_page(h, t, prefix, max_keys, &token, what, out, &empty);
    while (st == PQT_OK && token);
    pqt_mem_free(token);
    pqt_http_free(h);
    if (st != PQT_OK) {
        pqt_s3_page_free(out);
        return st;
    }
    if (out->n > 1) qsort(out->obj, (size_t)out->n, sizeof *out->obj, cmp_obj);
    return PQT_OK;
}

pqt_status pqt_s3_get_text(const pqt_s3_target *t, const char *key, size_t max, char **ret,
                           size_t *len)
{
    *ret = NULL;
    *len = 0;
    size_t klen = strlen(key), cap = strlen(t->bucket_url) + 3 * klen + 2;
    char *url = pqt_malloc(cap);
    if (!url) return pqt_err(PQT_NOMEM, "s3 GET '%s': out of memory", key);
    size_t ulen = (size_t)snprintf(url, cap, "%s/", t->bucket_url);
    pqt_s3_uri_encode(key, klen, true, url, cap, &ulen);
    pqt_http *h = NULL;
    pqt_http_body bd = {0};
    pqt_status st = client(t, url, &h);
    if (st == PQT_OK) st = get(h, url, url, max, &bd);
    if (st == PQT_OK && bd.status != 200) st = http_error(&bd, t->region, url);
    if (st == PQT_OK) {
        *len = bd.len;
        *ret = bd.data;
        bd.data = NULL;
    }
    pqt_mem_free(bd.data);
    pqt_http_free(h);
    pqt_mem_free(url);
    return st;
}
