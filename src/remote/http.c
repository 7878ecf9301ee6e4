/* SPDX-License-Identifier: Apache-2.0 */
/*
 * http.c - range requests through libcurl's multi interface: several in flight, faults
 * repeated with exponential backoff, every answer checked against the file's first size and
 * validator (layer: remote). RFC 9110 sections 14 (ranges) and 8.8 (validators).
 *
 * A server that ignores Range answers 200 with the whole file: the body is read as it streams,
 * only the asked bytes are kept, and the transfer stops at the range's end, so no answer is
 * ever held whole.
 */
#include "remote/http.h"
#include "remote/http_int.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "remote/curl_api.h"
#include "util/error.h"
#include "util/mem.h"

/* One transfer: a request, its attempts, and what the answer's headers said. */
typedef struct xfer {
    pqt_http *h;
    pqt_http_req *req;
    CURL *easy;
    int attempts;
    int64_t first_ms, due_ms; /* first attempt; when the next may start */
    bool running, done;
    /* the current answer */
    long status;
    int64_t cr_first, cr_total; /* Content-Range (-1: none) */
    int64_t clen;               /* Content-Length (-1: none) */
    char etag[PQT_HTTP_VALIDATOR], lastmod[PQT_HTTP_VALIDATOR];
    int64_t body_at;            /* body bytes received */
    int64_t keep_from;          /* file offset of body byte 0 */
    bool body_started, stopped; /* stopped: the write callback ended a 200 at the range end */
    char why[160];              /* why the write callback refused the body */
    char err_body[512];         /* the start of an error answer's body (S3's <Code>) */
    size_t err_len;
} xfer;

/* Defaults here, with the client that uses them (remote.h). */
void pqt_remote_opts_resolve(const pqt_remote_opts *opts, pqt_remote_opts *ret)
{
    pqt_remote_opts o = opts ? *opts : (pqt_remote_opts){0};
    if (o.footer_hint <= 0) o.footer_hint = PQT_REMOTE_FOOTER_HINT;
    if (o.coalesce_gap <= 0) o.coalesce_gap = PQT_REMOTE_COALESCE_GAP;
    if (o.coalesce_max <= 0) o.coalesce_max = PQT_REMOTE_COALESCE_MAX;
    if (o.in_flight <= 0) o.in_flight = PQT_REMOTE_IN_FLIGHT;
    if (o.retries == 0) o.retries = PQT_REMOTE_RETRIES; /* -1 (none) stays: resolving twice is
                                                           resolving once */
    else if (o.retries < 0) o.retries = -1;
    if (o.retry_ms <= 0) o.retry_ms = PQT_REMOTE_RETRY_MS;
    if (o.timeout_ms <= 0) o.timeout_ms = PQT_REMOTE_TIMEOUT_MS;
    if (o.cache_bytes <= 0) o.cache_bytes = PQT_REMOTE_CACHE_BYTES;
    *ret = o;
}

int64_t pqt_http_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void share_lock(CURL *e, curl_lock_data d, curl_lock_access a, void *p)
{
    (void)e, (void)a;
    pthread_mutex_lock(&((pqt_http *)p)->lock[d]);
}

static void share_unlock(CURL *e, curl_lock_data d, void *p)
{
    (void)e;
    pthread_mutex_unlock(&((pqt_http *)p)->lock[d]);
}

pqt_status pqt_http_new(const char *url, const pqt_remote_opts *opts, pqt_http_sign_fn sign,
                        void *sign_ctx, pqt_http **ret)
{
    PQT_TRY(pqt_curl_load(url)); /* also curl_global_init, once */
    pqt_http *h = pqt_calloc(1, sizeof *h);
    if (!h || !(h->url = pqt_strdup(url))) {
        pqt_mem_free(h);
        return pqt_err(PQT_NOMEM, "out of memory opening %s", url);
    }
    pqt_remote_opts_resolve(opts, &h->o);
    h->sign = sign;
    h->sign_ctx = sign_ctx;
    h->size = -1;
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&h->lock[i], NULL);
    h->share = curl_share_init();
    if (h->share) {
        curl_share_setopt(h->share, CURLSHOPT_LOCKFUNC, share_lock);
        curl_share_setopt(h->share, CURLSHOPT_UNLOCKFUNC, share_unlock);
        curl_share_setopt(h->share, CURLSHOPT_USERDATA, h);
        curl_share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
        curl_share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
        curl_share_setopt(h->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    }
    *ret = h;
    return PQT_OK;
}

void pqt_http_free(pqt_http *h)
{
    if (!h) return;
    if (h->share) curl_share_cleanup(h->share);
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&h->lock[i]);
    pqt_mem_free(h->url);
    pqt_mem_free(h->name);
    pqt_mem_free(h);
}

pqt_status pqt_http_set_name(pqt_http *h, const char *name)
{
    char *n = pqt_strdup(name);
    if (!n) return pqt_err(PQT_NOMEM, "out of memory opening %s", name);
    pqt_mem_free(h->name);
    h->name = n;
    return PQT_OK;
}

const char *pqt_http_url(const pqt_http *h) { return h->url; }
const char *pqt_http_shown(const pqt_http *h)
{
    return h->name ? h->name : h->url;
}
int64_t pqt_http_size(const pqt_http *h) { return h->size; }
bool pqt_http_range_ignored(const pqt_http *h) { return atomic_load(&h->range_ignored); }

void pqt_http_counts(const pqt_http *h, pqt_io_net_counts *ret)
{
    ret->requests = atomic_load(&h->requests);
    ret->bytes_fetched = atomic_load(&h->bytes);
    ret->retries = atomic_load(&h->retries);
}

/* "bytes A-B" (inclusive, as HTTP writes ranges) or "the last N bytes". */
static const char *range_text(const pqt_http_req *r, char *buf, size_t cap)
{
    if (r->suffix)
        snprintf(buf, cap, "the last %lld bytes", (long long)r->n);
    else
        snprintf(buf, cap, "bytes %lld-%lld", (long long)r->offset,
                 (long long)(r->offset + r->n - 1));
    return buf;
}

static void copy_value(char *dst, const char *v, size_t len)
{
    while (len > 0 && (v[len - 1] == '\r' || v[len - 1] == '\n' || v[len - 1] == ' ')) len--;
    if (len >= PQT_HTTP_VALIDATOR) len = PQT_HTTP_VALIDATOR - 1;
    memcpy(dst, v, len);
    dst[len] = 0;
}

static size_t on_header(char *line, size_t size, size_t nitems, void *p)
{
    xfer *x = p;
    size_t len = size * nitems;
    if (len >= 5 && strncmp(line, "HTTP/", 5) == 0) { /* a new answer (after a redirect) */
        x->cr_first = x->cr_total = x->clen = -1;
        x->etag[0] = x->lastmod[0] = 0;
        return len;
    }
    const char *colon = memchr(line, ':', len);
    if (!colon) return len;
    size_t klen = (size_t)(colon - line);
    const char *v = colon + 1;
    while (v < line + len && *v == ' ') v++;
    size_t vlen = (size_t)(line + len - v);
    char val[PQT_HTTP_VALIDATOR];
    copy_value(val, v, vlen);
    long long a, b, t;
    if (klen == 13 && strncasecmp(line, "Content-Range", 13) == 0) {
        if (sscanf(val, "bytes %lld-%lld/%lld", &a, &b, &t) == 3 && a >= 0 && b >= a && t > b) {
            x->cr_first = a;
            x->cr_total = t;
        } else if (sscanf(val, "bytes */%lld", &t) == 1 && t >= 0) {
            x->cr_total = t;
        }
    } else if (klen == 14 && strncasecmp(line, "Content-Length", 14) == 0) {
        if (sscanf(val, "%lld", &a) == 1 && a >= 0) x->clen = a;
    } else if (klen == 4 && strncasecmp(line, "ETag", 4) == 0) {
        memcpy(x->etag, val, sizeof val);
    } else if (klen == 13 && strncasecmp(line, "Last-Modified", 13) == 0) {
        memcpy(x->lastmod, val, sizeof val);
    }
    return len;
}

/* The first body bytes: where in the file they start, checked against what was asked. */
static bool body_start(xfer *x)
{
    pqt_http_req *r = x->req;
    x->body_started = true;
    if (x->status == 206) {
        if (x->cr_first < 0) {
            snprintf(x->why, sizeof x->why, "a 206 answer without a Content-Range");
            return false;
        }
        if (!r->suffix && x->cr_first != r->offset) {
            snprintf(x->why, sizeof x->why, "the answer starts at byte %lld",
                     (long long)x->cr_first);
            return false;
        }
        x->keep_from = x->cr_first;
        r->got_offset = x->cr_first;
        return true;
    }
    /* 200: the whole file, from byte 0 */
    atomic_store(&x->h->range_ignored, true);
    x->keep_from = 0;
    if (r->suffix) {
        if (x->clen < 0) {
            snprintf(x->why, sizeof x->why,
                     "the server ignores Range and gives no Content-Length");
            return false;
        }
        x->cr_total = x->clen;
        r->got_offset = x->clen > r->n ? x->clen - r->n : 0;
    } else {
        x->cr_total = x->clen;
        r->got_offset = r->offset;
    }
    return true;
}

/* An error page is not kept, but its start is: S3 names the error in its <Code>. */
static size_t keep_error(xfer *x, const char *data, size_t len)
{
    size_t k = sizeof x->err_body - 1 - x->err_len;
    if (k > len) k = len;
    memcpy(x->err_body + x->err_len, data, k);
    x->err_len += k;
    x->err_body[x->err_len] = 0;
    return len;
}

void pqt_http_error_code(const char *body, char *buf, size_t cap)
{
    const char *a = strstr(body, "<Code>"), *b = a ? strstr(a, "</Code>") : NULL;
    buf[0] = 0;
    if (a && b && b - a - 6 > 0 && b - a - 6 < 100)
        snprintf(buf, cap, " (%.*s)", (int)(b - a - 6), a + 6);
}

static size_t on_body(char *data, size_t size, size_t nitems, void *p)
{
    xfer *x = p;
    size_t len = size * nitems;
    pqt_http_note(x->h, 0, (long long)len, 0);
    if (!x->body_started) {
        curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &x->status);
        if (x->status != 200 && x->status != 206) return keep_error(x, data, len);
        if (!body_start(x)) return 0;
    }
    if (x->status != 200 && x->status != 206) return keep_error(x, data, len);
    pqt_http_req *r = x->req;
    int64_t at = x->keep_from + x->body_at; /* file offset of data[0] */
    x->body_at += (int64_t)len;
    int64_t lo = r->got_offset, hi = r->got_offset + r->n;
    int64_t from = at > lo ? at : lo, to = at + (int64_t)len < hi ? at + (int64_t)len : hi;
    if (to > from) {
        memcpy(r->dst + (from - lo), data + (from - at), (size_t)(to - from));
        r->got = to - lo;
    }
    if (x->status == 206 && at + (int64_t)len > hi) {
        snprintf(x->why, sizeof x->why, "the answer is longer than asked");
        return 0;
    }
    if (x->status == 200 && at + (int64_t)len >= hi) { /* the rest of the file is not needed */
        x->stopped = true;
        return 0;
    }
    return len;
}

/* Set up x's handle for its next attempt: the one place a request is made for a URL. */
static pqt_status setup(xfer *x)
{
    pqt_http *h = x->h;
    pqt_http_req *r = x->req;
    CURL *e = curl_easy_init();
    if (!e) return pqt_err(PQT_NOMEM, "%s: out of memory for a request", pqt_http_shown(h));
    x->easy = e;
    x->status = 0;
    x->cr_first = x->cr_total = x->clen = -1;
    x->etag[0] = x->lastmod[0] = x->why[0] = 0;
    x->body_at = 0;
    x->body_started = x->stopped = false;
    x->err_len = 0;
    x->err_body[0] = 0;
    r->got = 0;
    char range[64];
    if (r->suffix)
        snprintf(range, sizeof range, "-%lld", (long long)r->n);
    else
        snprintf(range, sizeof range, "%lld-%lld", (long long)r->offset,
                 (long long)(r->offset + r->n - 1));
    curl_easy_setopt(e, CURLOPT_RANGE, range);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, x);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(e, CURLOPT_PRIVATE, x);
    return pqt_http_easy_common(h, e, h->url);
}

pqt_status pqt_http_easy_common(pqt_http *h, void *easy, const char *url)
{
    CURL *e = easy;
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)h->o.timeout_ms);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "pqt");
    if (h->share) curl_easy_setopt(e, CURLOPT_SHARE, h->share);
    /* S3 (src/remote/s3_apply.c): pqt_s3_sign signs the request here, through h->sign */
    if (h->sign) return h->sign(e, h->sign_ctx);
    return PQT_OK;
}

bool pqt_http_curl_retryable(int rc)
{
    switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_COULDNT_CONNECT:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
        return true;
    default:
        return false;
    }
}

typedef enum verdict { OK, RETRY, FAIL } verdict;

/* Is x's finished answer the asked bytes of the file's first version? On RETRY and FAIL,
 * why says what went wrong. */
static verdict judge(xfer *x, CURLcode rc, char *why, size_t cap)
{
    pqt_http *h = x->h;
    pqt_http_req *r = x->req;
    if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && x->stopped)) {
        if (x->why[0]) {
            snprintf(why, cap, "HTTP %ld: %s", x->status, x->why);
            return FAIL;
        }
        snprintf(why, cap, "%s", curl_easy_strerror(rc));
        return pqt_http_curl_retryable(rc) ? RETRY : FAIL;
    }
    if (x->status != 200 && x->status != 206) {
        char code[112];
        pqt_http_error_code(x->err_body, code, sizeof code);
        snprintf(why, cap, "HTTP %ld%s", x->status, code);
        return x->status >= 500 || x->status == 429 || x->status == 408 ? RETRY : FAIL;
    }
    if (!x->body_started && !body_start(x)) { /* an empty body */
        snprintf(why, cap, "HTTP %ld: %s", x->status, x->why);
        return FAIL;
    }
    const char *tag = x->etag[0] ? x->etag : "";
    if (h->size >= 0 && ((h->etag[0] && strcmp(h->etag, tag) != 0) ||
                         (!h->etag[0] && h->lastmod[0] && strcmp(h->lastmod, x->lastmod) != 0) ||
                         (x->cr_total >= 0 && x->cr_total != h->size))) {
        snprintf(why, cap,
                 "HTTP %ld: the file changed while being read (ETag %s, Last-Modified %s, "
                 "%lld bytes at open; now %s, %s, %lld)",
                 x->status, h->etag[0] ? h->etag : "none", h->lastmod[0] ? h->lastmod : "none",
                 (long long)h->size, tag[0] ? tag : "none", x->lastmod[0] ? x->lastmod : "none",
                 (long long)x->cr_total);
        return FAIL;
    }
    if (h->size < 0) {
        if (x->cr_total < 0) {
            snprintf(why, cap, "HTTP %ld without the file's size", x->status);
            return FAIL;
        }
        h->size = x->cr_total;
        memcpy(h->etag, x->etag, sizeof h->etag);
        memcpy(h->lastmod, x->lastmod, sizeof h->lastmod);
    }
    int64_t want = r->suffix ? (r->n < h->size ? r->n : h->size) : r->n;
    if (!r->suffix && r->offset + r->n > h->size) {
        snprintf(why, cap, "HTTP %ld: past the end of the file (%lld bytes)", x->status,
                 (long long)h->size);
        return FAIL;
    }
    if (r->got != want) {
        snprintf(why, cap, "HTTP %ld: short body (%lld of %lld bytes)", x->status,
                 (long long)r->got, (long long)want);
        return RETRY;
    }
    return OK;
}

/* Milliseconds before attempt k + 1 (k >= 1): 50, 100, 200, ... at most 2 s. */
int64_t pqt_http_backoff_ms(int k)
{
    int64_t ms = (int64_t)50 << (k - 1 < 6 ? k - 1 : 6);
    return ms < 2000 ? ms : 2000;
}

/* x's attempt ended: OK, scheduled again, or the call's failure. */
static pqt_status finish(xfer *x, CURLcode rc)
{
    pqt_http *h = x->h;
    char why[1024], rt[80];
    verdict v = judge(x, rc, why, sizeof why);
    curl_easy_cleanup(x->easy);
    x->easy = NULL;
    x->running = false;
    if (v == OK) {
        x->done = true;
        return PQT_OK;
    }
    int64_t now = pqt_http_now_ms();
    if (v == RETRY && x->attempts <= h->o.retries && /* -1: never */
        now + pqt_http_backoff_ms(x->attempts) - x->first_ms <= h->o.retry_ms) {
        x->due_ms = now + pqt_http_backoff_ms(x->attempts);
        pqt_http_note(h, 0, 0, 1);
        return PQT_OK;
    }
    char tries[48] = "";
    if (x->attempts > 1) snprintf(tries, sizeof tries, " (after %d attempts)", x->attempts);
    return pqt_err(PQT_IO, "%s: %s: %s%s", pqt_http_shown(h), range_text(x->req, rt, sizeof rt),
                   why, tries);
}

static pqt_status start(CURLM *m, xfer *x)
{
    PQT_TRY(setup(x));
    if (x->attempts++ == 0) x->first_ms = pqt_http_now_ms();
    x->running = true;
    pqt_http_note(x->h, 1, 0, 0);
    if (curl_multi_add_handle(m, x->easy) != CURLM_OK) {
        curl_easy_cleanup(x->easy);
        x->easy = NULL;
        x->running = false;
        return pqt_err(PQT_IO, "%s: cannot start a request", pqt_http_shown(x->h));
    }
    return PQT_OK;
}

pqt_status pqt_http_fetch(pqt_http *h, pqt_http_req *reqs, int n)
{
    if (n <= 0) return PQT_OK;
    CURLM *m = curl_multi_init();
    xfer *xs = pqt_calloc((size_t)n, sizeof *xs);
    if (!m || !xs) {
        if (m) curl_multi_cleanup(m);
        pqt_mem_free(xs);
        return pqt_err(PQT_NOMEM, "%s: out of memory for %d requests", pqt_http_shown(h), n);
    }
    for (int i = 0; i < n; i++) xs[i] = (xfer){.h = h, .req = &reqs[i]};
    int in_flight = h->o.in_flight > 0 ? h->o.in_flight : 1;
    if (h->size < 0 || pqt_http_range_ignored(h)) in_flight = 1; /* see pqt_http_fetch */
    pqt_status st = PQT_OK;
    int ndone = 0, nrun = 0;
    while (st == PQT_OK && ndone < n) {
        int64_t now = pqt_http_now_ms(), wait = 100;
        for (int i = 0; st == PQT_OK && i < n && nrun < in_flight; i++) {
            xfer *x = &xs[i];
            if (x->done || x->running) continue;
            if (x->due_ms > now) {
                if (x->due_ms - now < wait) wait = x->due_ms - now;
                continue;
            }
            st = start(m, x);
            nrun += st == PQT_OK;
        }
        int still;
        if (st == PQT_OK && curl_multi_perform(m, &still) != CURLM_OK)
            st = pqt_err(PQT_IO, "%s: the transfer failed", pqt_http_shown(h));
        CURLMsg *msg;
        int left;
        while (st == PQT_OK && (msg = curl_multi_info_read(m, &left))) {
            if (msg->msg != CURLMSG_DONE) continue;
            xfer *x;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
            CURLcode rc = msg->data.result;
            curl_multi_remove_handle(m, x->easy);
            nrun--;
            st = finish(x, rc);
            ndone += x->done;
            wait = 0;
        }
        if (st == PQT_OK && ndone < n && wait > 0)
            curl_multi_poll(m, NULL, 0, (int)wait, NULL);
    }
    for (int i = 0; i < n; i++)
        if (xs[i].easy) {
            curl_multi_remove_handle(m, xs[i].easy);
            curl_easy_cleanup(xs[i].easy);
        }
    curl_multi_cleanup(m);
    pqt_mem_free(xs);
    return st;
}
