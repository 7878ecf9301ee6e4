/* SPDX-License-Identifier: Apache-2.0 */
/*
 * s3_list.c - every key below a prefix of a bucket, by ListObjectsV2 pages (layer: remote).
 * docs/remote.md "S3". One curl easy handle of its own, signed by pqt_s3_apply; the HTTP
 * client's retries and counters do not apply to it yet (the lead may route it through them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "remote/s3.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/mem.h"

/* consecutive empty pages that still say "truncated" before the listing gives up */
#define MAX_EMPTY_PAGES 100

typedef struct body {
    pqt_buf b;
    size_t max; /* bytes an answer may have */
    bool too_big, nomem;
    char region[64]; /* x-amz-bucket-region of the answer, when it names one */
} body;

/* S3 names the bucket's region in x-amz-bucket-region on an answer from the wrong one (301,
 * 400): kept for the error message, the one mistake a user cannot see from an HTTP status. */
static size_t on_header(char *line, size_t size, size_t nitems, void *ud)
{
    body *bd = ud;
    size_t n = size * nitems;
    static const char name[] = "x-amz-bucket-region:";
    size_t m = sizeof name - 1;
    if (n > m && strncasecmp(line, name, m) == 0) {
        const char *v = line + m;
        size_t len = n - m;
        while (len > 0 && (*v == ' ' || *v == '\t'))
            v++, len--;
        while (len > 0 && (v[len - 1] == '\r' || v[len - 1] == '\n' || v[len - 1] == ' '))
            len--;
        size_t k = 0;
        for (; k < len && k + 1 < sizeof bd->region; k++) {
            char c = v[k];
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) break;
            bd->region[k] = c;
        }
        bd->region[k == len ? k : 0] = '\0';
    }
    return n;
}

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *ud)
{
    body *bd = ud;
    size_t n = size * nmemb;
    if (bd->b.len + n > bd->max) {
        bd->too_big = true;
        return 0;
    }
    if (pqt_buf_append(&bd->b, ptr, n) != PQT_OK) {
        bd->nomem = true;
        return 0;
    }
    return n;
}

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

/* GET url into bd; *http the status (0 when no answer came). */
static pqt_status get(CURL *easy, const pqt_s3_target *t, const char *url, const char *what,
                      body *bd, long *http)
{
    char errbuf[CURL_ERROR_SIZE] = "";
    curl_easy_reset(easy);
    PQT_TRY(pqt_s3_apply(easy, t));
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, bd);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, bd);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT, 30L);
    /* a server that stops sending: less than 1 byte/s for 60 s ends the request */
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, 60L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    CURLcode rc = curl_easy_perform(easy);
    *http = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, http);
    if (bd->nomem) return pqt_err(PQT_NOMEM, "%s: out of memory", what);
    if (bd->too_big)
        return pqt_err(PQT_CORRUPT, "%s: an answer bigger than %zu bytes", what, bd->max);
    if (rc != CURLE_OK)
        return pqt_err(PQT_IO, "%s: %s", what, errbuf[0] ? errbuf : curl_easy_strerror(rc));
    return PQT_OK;
}

/* The error of a non-200 answer, with S3's code and message when it sent them, and the
 * bucket's region when it is not the one asked. */
static pqt_status http_error(const body *bd, long http, const char *region, const char *what)
{
    pqt_s3_page pg;
    pqt_err_mute(); /* an answer that is not an S3 error document only loses its details */
    bool parsed = pqt_s3_xml_page((const char *)bd->b.data, bd->b.len, what, &pg) == PQT_OK;
    pqt_err_unmute();
    char hint[320] = "";
    if (bd->region[0] && strcmp(bd->region, region) != 0)
        snprintf(hint, sizeof hint, ": the bucket is in region %s, not %s (set AWS_REGION=%s)",
                 bd->region, region, bd->region);
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
static pqt_status one_page(CURL *easy, const pqt_s3_target *t, const char *prefix, int max_keys,
                           char **token, const char *what, pqt_s3_page *out, int *empty)
{
    char *url = page_url(t, prefix, *token, max_keys);
    if (!url) return pqt_err(PQT_NOMEM, "%s: out of memory", what);
    body bd = {.max = PQT_S3_MAX_PAGE_BYTES};
    long http = 0;
    pqt_status st = get(easy, t, url, what, &bd, &http);
    pqt_mem_free(url);
    pqt_s3_page pg = {0};
    if (st == PQT_OK && http != 200) st = http_error(&bd, http, t->region, what);
    if (st == PQT_OK) st = pqt_s3_xml_page((const char *)bd.b.data, bd.b.len, what, &pg);
    pqt_buf_free(&bd.b);
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

pqt_status pqt_s3_list(const pqt_s3_target *t, const char *prefix, int max_keys, pqt_s3_page *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (!t || !t->bucket_url || !out) return pqt_err(PQT_MISUSE, "S3 listing: no bucket given");
    if (!prefix) prefix = "";
    char what[512];
    snprintf(what, sizeof what, "listing %.300s/ prefix '%.150s'", t->bucket_url, prefix);
    PQT_TRY(pqt_curl_load(what));
    CURL *easy = curl_easy_init();
    if (!easy) return pqt_err(PQT_NOMEM, "%s: libcurl cannot make a handle", what);
    char *token = NULL;
    int empty = 0;
    pqt_status st;
    do
        st = one_page(easy, t, prefix, max_keys, &token, what, out, &empty);
    while (st == PQT_OK && token);
    pqt_mem_free(token);
    curl_easy_cleanup(easy);
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
    pqt_status loaded = pqt_curl_load(url);
    if (loaded != PQT_OK) {
        pqt_mem_free(url);
        return loaded;
    }
    CURL *easy = curl_easy_init();
    body bd = {.max = max};
    long http = 0;
    pqt_status st = easy ? get(easy, t, url, url, &bd, &http)
                         : pqt_err(PQT_NOMEM, "%s: libcurl cannot make a handle", url);
    if (st == PQT_OK && http != 200) st = http_error(&bd, http, t->region, url);
    if (st == PQT_OK && pqt_buf_reserve(&bd.b, bd.b.len + 1) != PQT_OK)
        st = pqt_err(PQT_NOMEM, "%s: out of memory", url);
    if (st == PQT_OK) {
        bd.b.data[bd.b.len] = 0;
        *len = bd.b.len;
        *ret = (char *)bd.b.data;
        bd.b.data = NULL;
    }
    pqt_buf_free(&bd.b);
    if (easy) curl_easy_cleanup(easy);
    pqt_mem_free(url);
    return st;
}
