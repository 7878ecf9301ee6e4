/* SPDX-License-Identifier: Apache-2.0 */
/*
 * s3.h - S3 addressing, credentials, request signing and ListObjectsV2 (layer: remote).
 * docs/remote.md "S3" states the rules: s3_resolve.c turns an s3:// URL (or an http(s) dataset
 * prefix on an S3-compatible endpoint) into the URL to fetch, the region and the credentials
 * of the environment; s3_apply.c makes a curl handle sign its request with libcurl's SigV4;
 * s3_xml.c reads one ListObjectsV2 answer; s3_list.c pages through a listing.
 * Nothing here reads a Parquet file.
 */
#ifndef PQT_REMOTE_S3_H
#define PQT_REMOTE_S3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


#include "pqt.h"
#include "remote/curl_api.h"

/* Where an object or a bucket prefix lives and how to sign for it. Owned strings. */
typedef struct pqt_s3_target {
    char *url;        /* the object's URL (bucket_url + "/" + key, the key URI-encoded) */
    char *bucket_url; /* the bucket: ENDPOINT/bucket (path style) or https://bucket.s3.REGION.
                         amazonaws.com (virtual-hosted style); ListObjectsV2 goes here */
    char *bucket;
    char *key;        /* the key as given, not encoded ("" for a whole bucket) */
    char *region;     /* AWS_REGION, AWS_DEFAULT_REGION, else us-east-1 */
    char *access_key; /* NULL: anonymous, the request is not signed */
    char *secret_key;
    char *session_token; /* AWS_SESSION_TOKEN, or NULL */
    /* signed targets: the provider string of CURLOPT_AWS_SIGV4 and the headers S3 wants on a
     * signed request (pqt_s3_apply), made once by pqt_s3_resolve */
    char *sigv4;
    struct curl_slist *headers;
} pqt_s3_target;

/* True for "s3://..." (the scheme in any case). */
bool pqt_s3_is_url(const char *s);

/* True for "http://..." or "https://..." (the scheme in any case). */
bool pqt_s3_is_http_url(const char *s);

/* Resolve url into *out (zeroed first):
 * - s3://bucket/key: virtual-hosted style https://bucket.s3.REGION.amazonaws.com/key, or path
 *   style https://s3.REGION.amazonaws.com/bucket/key for a bucket name with a '.' (a dotted
 *   bucket does not match the wildcard certificate), or ENDPOINT/bucket/key when
 *   AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL is set (MinIO, Ceph, the test server). The key is
 *   taken literally (no percent-decoding) and URI-encoded by S3's rules.
 * - http(s)://host[:port]/bucket/key: an S3-compatible endpoint addressed path style (dataset
 *   prefixes listed with ListObjectsV2); the URL's path is percent-decoded into bucket and key.
 *   It is signed only when its scheme://host[:port] is the configured endpoint, so credentials
 *   never sign a request to another host.
 * Credentials: AWS_ACCESS_KEY_ID with AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN when set);
 * neither set is anonymous; one without the other is PQT_MISUSE.
 * Errors name the URL: PQT_MISUSE (no bucket, a bucket, region or endpoint with characters
 * they cannot have, a URL of another scheme), PQT_NOMEM. On failure *out is zeroed. */
pqt_status pqt_s3_resolve(const char *url, pqt_s3_target *out);

/* Make t's sigv4 and headers (nothing for an anonymous target); pqt_s3_resolve calls it.
 * PQT_NOMEM. */
pqt_status pqt_s3_prepare(pqt_s3_target *t);

/* Free what t owns and zero it (a zeroed target is fine). */
void pqt_s3_target_free(pqt_s3_target *t);

/* Make easy sign its request for t (nothing for an anonymous target): CURLOPT_AWS_SIGV4
 * "aws:amz:REGION:s3", the key and secret as user name and password, and as
 * CURLOPT_HTTPHEADER t's own list of the headers S3 wants on a signed request:
 * x-amz-content-sha256 (the hash of the empty body: every request pqt makes is a GET) and
 * x-amz-security-token with a session token. t must outlive the transfer; a caller with
 * headers of its own uses pqt_s3_apply_headers. Ranges go as CURLOPT_RANGE (unsigned, which
 * S3 accepts). PQT_IO naming t->url when curl refuses an option (a libcurl without SigV4). */
pqt_status pqt_s3_apply(CURL *easy, const pqt_s3_target *t);

/* pqt_s3_apply with the signed-request headers appended (copied) to the caller's *headers,
 * which the caller sets as CURLOPT_HTTPHEADER and frees after the transfer; libcurl signs
 * every header of that list. PQT_NOMEM too; *headers is unchanged on failure. */
pqt_status pqt_s3_apply_headers(CURL *easy, const pqt_s3_target *t, struct curl_slist **headers);

/* pqt_s3_apply in the shape of the HTTP client's sign hook: target is a pqt_s3_target. */
pqt_status pqt_s3_sign(void *curl_easy, void *target);

/* Append s[0..n) URI-encoded by S3's rules to buf at *len (cap bytes; NUL kept after it):
 * every byte but A-Z a-z 0-9 - . _ ~ becomes %XX (upper-case hex); '/' is kept when keep_slash
 * (object keys) and encoded otherwise (query values). False when it does not fit. */
bool pqt_s3_uri_encode(const char *s, size_t n, bool keep_slash, char *buf, size_t cap,
                       size_t *len);

/* ---- ListObjectsV2 ---- */

typedef struct pqt_s3_object {
    char *key; /* the whole key, entities decoded */
    int64_t size;
    char *etag; /* as the server quoted it, or NULL */
} pqt_s3_object;

/* One page of a listing, as the server answered it (s3_xml.c). */
typedef struct pqt_s3_page {
    pqt_s3_object *obj;
    int64_t n, cap;
    bool truncated;
    char *next_token; /* NextContinuationToken, or NULL */
    char *err_code;   /* an <Error> answer: Code and Message, or NULL */
    char *err_msg;
} pqt_s3_page;

/* Bounds on what one answer may hold: a key longer than S3 allows, a page bigger than any
 * ListObjectsV2 page, or more keys than a page can have is PQT_CORRUPT. */
#define PQT_S3_MAX_KEY 4096
#define PQT_S3_MAX_PAGE_BYTES (32u << 20)
#define PQT_S3_MAX_PAGE_KEYS 100000

/* Read the n bytes of XML at xml (a ListBucketResult or an Error) into *page (zeroed first).
 * what names the request in errors. PQT_CORRUPT (not XML this reader takes: unbalanced or
 * too deeply nested tags, an unknown entity, an element or page past the bounds above, a Size
 * that is not a count), PQT_NOMEM. On failure *page is zeroed. */
pqt_status pqt_s3_xml_page(const char *xml, size_t n, const char *what, pqt_s3_page *page);

void pqt_s3_page_free(pqt_s3_page *page);

/* Every object whose key starts with prefix in t's bucket (t->key is ignored), sorted by key
 * bytewise, into *out (its n objects; cap unused): one GET ?list-type=2 per page, following
 * continuation tokens; max_keys > 0 asks pages of at most that many keys (0: the server's
 * default, 1000 on S3). Through an HTTP client of its own (http.h, pqt_http_get), signed
 * by pqt_s3_sign: 5xx answers and transfer faults are retried as reads are.
 * Errors name the bucket URL and prefix: PQT_NOT_FOUND (HTTP 404, NoSuchBucket), PQT_IO (any
 * other HTTP status, with S3's error code and message, or curl's error text; a server that
 * repeats a continuation token), PQT_CORRUPT (an answer pqt_s3_xml_page refuses, more than
 * PQT_S3_MAX_LIST_KEYS keys), PQT_NOMEM. On failure *out is zeroed. */
#define PQT_S3_MAX_LIST_KEYS 10000000
pqt_status pqt_s3_list(const pqt_s3_target *t, const char *prefix, int max_keys, pqt_s3_page *out);

/* GET the object key of t's bucket whole into *ret (NUL-terminated, its length in *len): small
 * files of a dataset (HATS properties and partition lists). PQT_CORRUPT past max bytes,
 * PQT_NOT_FOUND for HTTP 404, PQT_IO for another status or a transfer error (naming the URL),
 * PQT_NOMEM. *ret is NULL on failure. */
pqt_status pqt_s3_get_text(const pqt_s3_target *t, const char *key, size_t max, char **ret,
                           size_t *len);

#endif
