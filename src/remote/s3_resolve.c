/* SPDX-License-Identifier: Apache-2.0 */
/*
 * s3_resolve.c - an s3:// URL (or an http(s) prefix on an S3-compatible endpoint) to the URL to
 * fetch, its region and the environment's credentials (layer: remote). docs/remote.md "S3".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "remote/s3.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/pct.h"

#define DEFAULT_REGION "us-east-1"

bool pqt_s3_is_url(const char *s)
{
    return s && strncasecmp(s, "s3://", 5) == 0;
}

bool pqt_s3_is_http_url(const char *s)
{
    return s && (strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0);
}

void pqt_s3_target_free(pqt_s3_target *t)
{
    if (!t) return;
    pqt_mem_free(t->url);
    pqt_mem_free(t->bucket_url);
    pqt_mem_free(t->bucket);
    pqt_mem_free(t->key);
    pqt_mem_free(t->region);
    pqt_mem_free(t->access_key);
    pqt_mem_free(t->secret_key);
    pqt_mem_free(t->session_token);
    pqt_mem_free(t->sigv4);
    curl_slist_free_all(t->headers);
    memset(t, 0, sizeof *t);
}

static bool unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

bool pqt_s3_uri_encode(const char *s, size_t n, bool keep_slash, char *buf, size_t cap, size_t *len)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t j = *len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (unreserved(c) || (keep_slash && c == '/')) {
            if (j + 2 > cap) return false;
            buf[j++] = (char)c;
        } else {
            if (j + 4 > cap) return false;
            buf[j++] = '%';
            buf[j++] = hex[c >> 4];
            buf[j++] = hex[c & 15];
        }
    }
    if (j + 1 > cap) return false;
    buf[j] = '\0';
    *len = j;
    return true;
}

/* The value of the first of the environment variables a, b that is set and not empty. */
static const char *env2(const char *a, const char *b)
{
    const char *v = getenv(a);
    if ((!v || !*v) && b) v = getenv(b);
    return v && *v ? v : NULL;
}

/* Every byte of s is one of the lower-case letters, digits or the bytes of extra. */
static bool made_of(const char *s, size_t n, const char *extra)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c && strchr(extra, c));
        if (!ok) return false;
    }
    return n > 0;
}

/* A bucket name S3-compatible stores accept (S3 itself is stricter: 3-63 bytes, lower case);
 * anything else could break out of the host name or the path. */
static bool bucket_ok(const char *b, size_t n)
{
    return n <= 255 && made_of(b, n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ.-_");
}

/* The configured endpoint without trailing '/', or NULL; PQT_MISUSE for a value that is not
 * an http(s) URL. */
static pqt_status endpoint_of(const char *url, char **ret)
{
    *ret = NULL;
    const char *e = env2("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
    if (!e) return PQT_OK;
    if (!pqt_s3_is_http_url(e) || strpbrk(e, " \t\r\n?#"))
        return pqt_err(PQT_MISUSE, "'%s': AWS_ENDPOINT_URL '%s' is not an http:// or https:// URL",
                       url, e);
    size_t n = strlen(e);
    while (n > 0 && e[n - 1] == '/')
        n--;
    *ret = pqt_strndup(e, n);
    return *ret ? PQT_OK : pqt_err(PQT_NOMEM, "'%s': out of memory", url);
}

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return true;
    return false;
}

static pqt_status credentials(const char *url, bool sign, pqt_s3_target *t)
{
    const char *region = env2("AWS_REGION", "AWS_DEFAULT_REGION");
    if (!region) region = DEFAULT_REGION;
    if (strlen(region) > 64 || !made_of(region, strlen(region), "-"))
        return pqt_err(PQT_MISUSE, "'%s': region '%s' is not a region name (a-z, 0-9, '-')", url,
                       region);
    t->region = pqt_strdup(region);
    if (!t->region) return pqt_err(PQT_NOMEM, "'%s': out of memory", url);
    const char *key = env2("AWS_ACCESS_KEY_ID", NULL),
               *secret = env2("AWS_SECRET_ACCESS_KEY", NULL);
    if (!key != !secret)
        return pqt_err(PQT_MISUSE, "'%s': %s is set but %s is not", url,
                       key ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                       key ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
    if (!key || !sign) return PQT_OK;
    const char *token = env2("AWS_SESSION_TOKEN", NULL);
    /* they go into header lines: a control byte would end one */
    if (has_control(key) || has_control(secret) || (token && has_control(token)))
        return pqt_err(PQT_MISUSE, "'%s': the AWS credentials hold a control character", url);
    t->access_key = pqt_strdup(key);
    t->secret_key = pqt_strdup(secret);
    t->session_token = token ? pqt_strdup(token) : NULL;
    if (!t->access_key || !t->secret_key || (token && !t->session_token))
        return pqt_err(PQT_NOMEM, "'%s': out of memory", url);
    return PQT_OK;
}

/* t->url = bucket_url + "/" + the key encoded. */
static pqt_status object_url(const char *url, pqt_s3_target *t)
{
    size_t klen = strlen(t->key), cap = strlen(t->bucket_url) + 2 + 3 * klen + 1;
    char *u = pqt_malloc(cap);
    if (!u) return pqt_err(PQT_NOMEM, "'%s': out of memory", url);
    size_t len = (size_t)snprintf(u, cap, "%s/", t->bucket_url);
    pqt_s3_uri_encode(t->key, klen, true, u, cap, &len); /* fits: cap counts 3 bytes a byte */
    t->url = u;
    return PQT_OK;
}

static char *printf_dup(const char *fmt, const char *a, const char *b, const char *c)
{
    int n = snprintf(NULL, 0, fmt, a, b, c);
    char *s = n < 0 ? NULL : pqt_malloc((size_t)n + 1);
    if (s) snprintf(s, (size_t)n + 1, fmt, a, b, c);
    return s;
}

static pqt_status resolve_s3(const char *url, pqt_s3_target *t)
{
    const char *b = url + 5, *slash = strchr(b, '/');
    size_t blen = slash ? (size_t)(slash - b) : strlen(b);
    if (blen == 0) return pqt_err(PQT_MISUSE, "'%s': no bucket (s3://bucket/key)", url);
    if (!bucket_ok(b, blen))
        return pqt_err(PQT_MISUSE,
                       "'%s': '%.*s' is not a bucket name (letters, digits, '.', '-', "
                       "'_')",
                       url, (int)blen, b);
    t->bucket = pqt_strndup(b, blen);
    t->key = pqt_strdup(slash ? slash + 1 : "");
    if (!t->bucket || !t->key) return pqt_err(PQT_NOMEM, "'%s': out of memory", url);
    char *endpoint = NULL;
    PQT_TRY(endpoint_of(url, &endpoint));
    pqt_status st = credentials(url, true, t);
    if (st == PQT_OK) {
        if (endpoint)
            t->bucket_url = printf_dup("%s/%s%s", endpoint, t->bucket, "");
        else if (strchr(t->bucket, '.'))
            t->bucket_url =
                printf_dup("https://s3.%s.amazonaws.com/%s%s", t->region, t->bucket, "");
        else
            t->bucket_url = printf_dup("https://%s.s3.%s.amazonaws.com", t->bucket, t->region, "");
        st = t->bucket_url ? object_url(url, t) : pqt_err(PQT_NOMEM, "'%s': out of memory", url);
    }
    pqt_mem_free(endpoint);
    return st;
}

/* s[0..n) with %XX decoded (a '%' without two hex digits is kept). */
static char *percent_decode(const char *s, size_t n)
{
    char *d = pqt_malloc(n + 1);
    if (!d) return NULL;
    pqt_percent_decode(s, n, d);
    return d;
}

static pqt_status resolve_http(const char *url, pqt_s3_target *t)
{
    const char *host = strstr(url, "://") + 3;
    size_t end = strcspn(url, "?#");
    const char *path = strchr(host, '/');
    if (path && (size_t)(path - url) >= end) path = NULL;
    size_t hlen = path ? (size_t)(path - host) : end - (size_t)(host - url);
    if (hlen == 0) return pqt_err(PQT_MISUSE, "'%s': no host", url);
    const char *b = path ? path + 1 : url + end;
    const char *bend = memchr(b, '/', (size_t)(url + end - b));
    size_t blen = bend ? (size_t)(bend - b) : (size_t)(url + end - b);
    if (blen == 0) return pqt_err(PQT_MISUSE, "'%s': no bucket (http://host/bucket/prefix/)", url);
    t->bucket = percent_decode(b, blen);
    const char *k = bend ? bend + 1 : url + end;
    t->key = percent_decode(k, (size_t)(url + end - k));
    t->bucket_url = pqt_strndup(url, (size_t)(b + blen - url));
    if (!t->bucket || !t->key || !t->bucket_url)
        return pqt_err(PQT_NOMEM, "'%s': out of memory", url);
    if (!bucket_ok(t->bucket, strlen(t->bucket)))
        return pqt_err(PQT_MISUSE,
                       "'%s': '%s' is not a bucket name (letters, digits, '.', '-', "
                       "'_')",
                       url, t->bucket);
    char *endpoint = NULL;
    PQT_TRY(endpoint_of(url, &endpoint));
    /* sign only for the configured endpoint: a signature is good for any copy of the request
     * made within minutes, so it goes to no other host */
    size_t elen = endpoint ? strlen(endpoint) : 0;
    bool sign = endpoint && (size_t)(b - 1 - url) == elen && strncasecmp(url, endpoint, elen) == 0;
    pqt_mem_free(endpoint);
    PQT_TRY(credentials(url, sign, t));
    return object_url(url, t);
}

pqt_status pqt_s3_resolve(const char *url, pqt_s3_target *out)
{
    if (out) memset(out, 0, sizeof *out);
    if (!url || !out) return pqt_err(PQT_MISUSE, "S3: no URL given");
    pqt_s3_target t = {0};
    pqt_status st;
    if (pqt_s3_is_url(url))
        st = resolve_s3(url, &t);
    else if (pqt_s3_is_http_url(url))
        st = resolve_http(url, &t);
    else
        st = pqt_err(PQT_MISUSE, "'%s': not an s3://, http:// or https:// URL", url);
    if (st == PQT_OK) st = pqt_s3_prepare(&t);
    if (st != PQT_OK) {
        pqt_s3_target_free(&t);
        return st;
    }
    *out = t;
    return PQT_OK;
}
