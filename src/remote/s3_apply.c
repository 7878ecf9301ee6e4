/* SPDX-License-Identifier: Apache-2.0 */
/*
 * s3_apply.c - a curl handle signs its request for an S3 target with libcurl's SigV4 (layer:
 * remote). docs/remote.md "S3".
 *
 * libcurl (7.75 on) computes the canonical request, the string to sign and the Authorization
 * header; it signs host, x-amz-date and every header of CURLOPT_HTTPHEADER. 7.88 does not add
 * x-amz-content-sha256, which S3 requires on every signed request, so we add
 * it with the hash of the empty body: right for a GET whichever payload hash a libcurl version
 * signs (7.88 takes the header's value, older ones hash the empty body themselves), where
 * UNSIGNED-PAYLOAD would be right only for the former.
 */
#include <stdio.h>
#include <string.h>

#include "remote/s3.h"
#include "util/error.h"
#include "util/mem.h"

/* SHA-256 of zero bytes */
#define EMPTY_BODY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/* The headers of a signed request for t, as a new list; NULL when out of memory. */
static struct curl_slist *signed_headers(const pqt_s3_target *t)
{
    struct curl_slist *h = curl_slist_append(NULL, "x-amz-content-sha256: " EMPTY_BODY_SHA256);
    if (h && t->session_token) {
        size_t cap = strlen(t->session_token) + 32;
        char *line = pqt_malloc(cap);
        struct curl_slist *h2 = NULL;
        if (line) {
            snprintf(line, cap, "x-amz-security-token: %s", t->session_token);
            h2 = curl_slist_append(h, line);
            pqt_mem_free(line);
        }
        if (!h2) {
            curl_slist_free_all(h);
            h = NULL;
        }
    }
    return h;
}

pqt_status pqt_s3_prepare(pqt_s3_target *t)
{
    if (!t->access_key) return PQT_OK;
    size_t cap = strlen(t->region) + 16;
    t->sigv4 = pqt_malloc(cap);
    if (t->sigv4) snprintf(t->sigv4, cap, "aws:amz:%s:s3", t->region);
    t->headers = signed_headers(t);
    if (!t->sigv4 || !t->headers) return pqt_err(PQT_NOMEM, "'%s': out of memory", t->url);
    return PQT_OK;
}

/* The SigV4 options of a signed t on easy. */
static pqt_status set_sigv4(CURL *easy, const pqt_s3_target *t)
{
    if (!t->sigv4) return pqt_err(PQT_MISUSE, "'%s': a target not made by pqt_s3_resolve", t->url);
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_AWS_SIGV4, t->sigv4);
    /* user name and password apart: an access key may hold the ':' USERPWD splits at */
    if (rc == CURLE_OK) rc = curl_easy_setopt(easy, CURLOPT_USERNAME, t->access_key);
    if (rc == CURLE_OK) rc = curl_easy_setopt(easy, CURLOPT_PASSWORD, t->secret_key);
    if (rc != CURLE_OK)
        return pqt_err(PQT_IO, "'%s': libcurl cannot sign the request (%s)", t->url,
                       curl_easy_strerror(rc));
    return PQT_OK;
}

pqt_status pqt_s3_apply(CURL *easy, const pqt_s3_target *t)
{
    if (!easy || !t) return pqt_err(PQT_MISUSE, "S3: no handle or target to sign");
    if (!t->access_key) return PQT_OK; /* anonymous: an unsigned request */
    PQT_TRY(set_sigv4(easy, t));
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_HTTPHEADER, t->headers);
    if (rc != CURLE_OK)
        return pqt_err(PQT_IO, "'%s': libcurl takes no headers (%s)", t->url,
                       curl_easy_strerror(rc));
    return PQT_OK;
}

pqt_status pqt_s3_apply_headers(CURL *easy, const pqt_s3_target *t, struct curl_slist **headers)
{
    if (!easy || !t || !headers) return pqt_err(PQT_MISUSE, "S3: no handle or target to sign");
    if (!t->access_key) return PQT_OK;
    struct curl_slist *h = signed_headers(t);
    if (!h) return pqt_err(PQT_NOMEM, "'%s': out of memory", t->url);
    pqt_status st = set_sigv4(easy, t);
    if (st != PQT_OK) {
        curl_slist_free_all(h);
        return st;
    }
    /* append our list to the caller's: on failure above, theirs is unchanged */
    if (!*headers) {
        *headers = h;
    } else {
        struct curl_slist *last = *headers;
        while (last->next)
            last = last->next;
        last->next = h;
    }
    return PQT_OK;
}

pqt_status pqt_s3_sign(void *curl_easy, void *target)
{
    return pqt_s3_apply(curl_easy, target);
}
