/* SPDX-License-Identifier: Apache-2.0 */
/*
 * http.h - byte ranges of one URL over HTTP(S), several at a time, with retries and the
 * check that every answer comes from the same version of the file (layer: remote, private).
 */
#ifndef PQT_REMOTE_HTTP_H
#define PQT_REMOTE_HTTP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "remote/remote.h"

#define PQT_HTTP_VALIDATOR 192 /* bytes kept of an ETag or Last-Modified value */

/* One range request and what its answer said. */
typedef struct pqt_http_req {
    int64_t offset;     /* the first byte asked (ignored for a suffix request) */
    int64_t n;          /* bytes asked; for a suffix request the file's last n */
    bool suffix;
    uint8_t *dst;       /* room for n bytes */
    int64_t got_offset; /* the file offset of dst[0] (a suffix request learns it) */
    int64_t got;        /* bytes in dst */
} pqt_http_req;

/* Signs or decorates a request's handle (the S3 layer: SigV4 and its headers); called on
 * every handle the transfer sets up, after the standard options. */
typedef pqt_status (*pqt_http_sign_fn)(void *curl_easy, void *ctx);

typedef struct pqt_http pqt_http;

/* A client for url (copied). sign may be NULL. Errors: PQT_NOMEM, PQT_IO (curl unusable). */
pqt_status pqt_http_new(const char *url, const pqt_remote_opts *opts, pqt_http_sign_fn sign,
                        void *sign_ctx, pqt_http **ret);
void pqt_http_free(pqt_http *h);
const char *pqt_http_url(const pqt_http *h);
/* Errors name name (copied) instead of the URL: an s3:// URL and the URL fetched for it.
 * PQT_NOMEM. */
pqt_status pqt_http_set_name(pqt_http *h, const char *name);
/* The file's size from the first answer (-1 before it). */
int64_t pqt_http_size(const pqt_http *h);
/* Did the server answer a range request with the whole file (200)? Later requests then read
 * only up to the end of their range and stop (docs/remote.md, "Faults"). */
bool pqt_http_range_ignored(const pqt_http *h);

/* Fetch reqs[0..n), at most opts->in_flight at once, each repeated after a fault within the
 * retry bounds. The first answer of the client fixes the file's size and validator (ETag, else
 * Last-Modified); a later answer with another one is "changed while being read". Not
 * thread-safe for the first call; any number of threads may call it after that.
 * Errors: PQT_IO naming the URL, the byte range and the HTTP status (or curl's text). */
pqt_status pqt_http_fetch(pqt_http *h, pqt_http_req *reqs, int n);

void pqt_http_counts(const pqt_http *h, pqt_io_net_counts *ret);

/* A whole small answer (http_get.c): a listing page, a properties file. */
typedef struct pqt_http_body {
    const char *want_header; /* in: a header whose value to keep (NULL: none) */
    char header[128];        /* its value in the final answer, "" when absent or longer */
    long status;             /* the final answer's HTTP status */
    char *data;              /* the body, NUL after it; pqt_mem_free it */
    size_t len;
} pqt_http_body;

/* GET url (NULL: the client's own) whole into *b, at most max bytes, signed by the client's
 * sign hook, on its connections, with the retries and counters of range requests: a 5xx (or
 * 408, 429) and a timeout or reset are repeated within the same bounds. Any other status is
 * returned in b->status, with its body (the caller reads S3's error from it).
 * Errors name url: PQT_IO (the transfer failed, or a repeated fault outlasted the retries:
 * "HTTP 503 (after 5 attempts)"), PQT_CORRUPT (more than max bytes), PQT_NOMEM. On failure
 * b->data is NULL. */
pqt_status pqt_http_get(pqt_http *h, const char *url, size_t max, pqt_http_body *b);

#endif
