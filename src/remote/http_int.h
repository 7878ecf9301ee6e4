/* SPDX-License-Identifier: Apache-2.0 */
/*
 * http_int.h - the HTTP client's state and the pieces its two kinds of request share: range
 * transfers (http.c) and whole small bodies (http_get.c) (layer: remote, private to those).
 */
#ifndef PQT_REMOTE_HTTP_INT_H
#define PQT_REMOTE_HTTP_INT_H

#include <pthread.h>

#include "remote/curl_api.h"
#include "remote/http.h"

struct pqt_http {
    char *url;
    char *name; /* what errors name, when not url (an s3:// URL with the URL fetched) */
    pqt_remote_opts o;
    pqt_http_sign_fn sign;
    void *sign_ctx;
    CURLSH *share; /* connections, DNS and TLS sessions kept between requests */
    pthread_mutex_t lock[CURL_LOCK_DATA_LAST];
    int64_t size;                  /* -1 until the first answer */
    char etag[PQT_HTTP_VALIDATOR]; /* the first answer's, "" when it had none */
    char lastmod[PQT_HTTP_VALIDATOR];
    atomic_bool range_ignored;
    atomic_llong requests, bytes, retries;
};

/* Count a request sent, body bytes received, a request repeated: in h and in its tally. */
static inline void pqt_http_note(pqt_http *h, long long requests, long long bytes, long long retries)
{
    const memory_order r = memory_order_relaxed;
    if (requests) atomic_fetch_add_explicit(&h->requests, requests, r);
    if (bytes) atomic_fetch_add_explicit(&h->bytes, bytes, r);
    if (retries) atomic_fetch_add_explicit(&h->retries, retries, r);
    pqt_io_net_tally *t = h->o.tally;
    if (!t) return;
    if (requests) atomic_fetch_add_explicit(&t->requests, requests, r);
    if (bytes) atomic_fetch_add_explicit(&t->bytes_fetched, bytes, r);
    if (retries) atomic_fetch_add_explicit(&t->retries, retries, r);
}

int64_t pqt_http_now_ms(void);
/* Milliseconds before attempt k + 1 (k >= 1): 50, 100, 200, ... at most 2 s. */
int64_t pqt_http_backoff_ms(int k);
/* Is a transfer that ended with this CURLcode worth repeating (timeout, reset, ...)? */
bool pqt_http_curl_retryable(int rc);
/* The URL, or the name errors use instead. */
const char *pqt_http_shown(const pqt_http *h);
/* " (Code)" of an S3 error document at the start of body (NUL-terminated) into buf, or "". */
void pqt_http_error_code(const char *body, char *buf, size_t cap);
/* easy's options for url every request has (redirects, timeout, the shared connections) and
 * the sign hook, last. */
pqt_status pqt_http_easy_common(pqt_http *h, void *easy, const char *url);

#endif
