/* SPDX-License-Identifier: Apache-2.0 */
/*
 * http_get.c - a whole small answer over the HTTP client: one blocking request at a time,
 * repeated after the faults range requests repeat, with their backoff, bounds and counters
 * (layer: remote). S3 listings and the small files of a catalogue come this way.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "remote/curl_api.h"
#include "remote/http.h"
#include "remote/http_int.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/mem.h"

typedef struct answer {
    pqt_http *h;
    pqt_http_body *b;
    pqt_buf buf;
    size_t max;
    bool too_big, nomem;
} answer;

static size_t on_header(char *line, size_t size, size_t nitems, void *p)
{
    answer *a = p;
    size_t len = size * nitems, k = a->b->want_header ? strlen(a->b->want_header) : 0;
    if (len >= 5 && strncmp(line, "HTTP/", 5) == 0) a->b->header[0] = 0; /* a new answer */
    if (k == 0 || len <= k || line[k] != ':' || strncasecmp(line, a->b->want_header, k) != 0)
        return len;
    const char *v = line + k + 1, *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    size_t n = (size_t)(end - v);
    if (n < sizeof a->b->header) {
        memcpy(a->b->header, v, n);
        a->b->header[n] = 0;
    }
    return len;
}

static size_t on_body(char *data, size_t size, size_t nitems, void *p)
{
    answer *a = p;
    size_t len = size * nitems;
    pqt_http_note(a->h, 0, (long long)len, 0);
    if (a->buf.len + len > a->max) {
        a->too_big = true;
        return 0;
    }
    if (pqt_buf_append(&a->buf, data, len) != PQT_OK) {
        a->nomem = true;
        return 0;
    }
    return len;
}

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* One attempt: *retry when its fault is one to repeat; why says what went wrong. */
static pqt_status attempt(answer *a, const char *url, bool *retry, char *why, size_t cap)
{
    *retry = false;
    why[0] = 0;
    a->buf.len = 0;
    a->too_big = a->nomem = false;
    a->b->status = 0;
    a->b->header[0] = 0;
    CURL *e = curl_easy_init();
    if (!e) return pqt_err(PQT_NOMEM, "%s: out of memory for a request", url);
    char errbuf[CURL_ERROR_SIZE] = "";
    pqt_status st = pqt_http_easy_common(a->h, e, url);
    if (st == PQT_OK) {
        curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(e, CURLOPT_HEADERDATA, a);
        curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(e, CURLOPT_WRITEDATA, a);
        curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
        pqt_http_note(a->h, 1, 0, 0);
        CURLcode rc = curl_easy_perform(e);
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &a->b->status);
        if (a->nomem) {
            st = pqt_err(PQT_NOMEM, "%s: out of memory", url);
        } else if (a->too_big) {
            st = pqt_err(PQT_CORRUPT, "%s: an answer bigger than %zu bytes", url, a->max);
        } else if (rc != CURLE_OK) {
            snprintf(why, cap, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
            *retry = pqt_http_curl_retryable(rc);
        } else if (a->b->status >= 500 || a->b->status == 429 || a->b->status == 408) {
            char code[112] = "";
            if (pqt_buf_reserve(&a->buf, a->buf.len + 1) == PQT_OK) {
                a->buf.data[a->buf.len] = 0;
                pqt_http_error_code((const char *)a->buf.data, code, sizeof code);
            }
            snprintf(why, cap, "HTTP %ld%s", a->b->status, code);
            *retry = true;
        }
    }
    curl_easy_cleanup(e);
    return st;
}

pqt_status pqt_http_get(pqt_http *h, const char *url, size_t max, pqt_http_body *b)
{
    if (!url) url = h->url;
    b->data = NULL;
    b->len = 0;
    answer a = {.h = h, .b = b, .max = max};
    char why[CURL_ERROR_SIZE + 128];
    int64_t first = pqt_http_now_ms();
    pqt_status st = PQT_OK;
    for (int attempts = 1;; attempts++) {
        bool retry;
        st = attempt(&a, url, &retry, why, sizeof why);
        if (st != PQT_OK || !why[0]) break;
        int64_t wait = pqt_http_backoff_ms(attempts);
        if (!retry || attempts > h->o.retries || /* -1: never */
            pqt_http_now_ms() + wait - first > h->o.retry_ms) {
            char tries[48] = "";
            if (attempts > 1) snprintf(tries, sizeof tries, " (after %d attempts)", attempts);
            st = pqt_err(PQT_IO, "%s: %s%s", url, why, tries);
            break;
        }
        pqt_http_note(h, 0, 0, 1);
        sleep_ms(wait);
    }
    if (st == PQT_OK && pqt_buf_reserve(&a.buf, a.buf.len + 1) != PQT_OK)
        st = pqt_err(PQT_NOMEM, "%s: out of memory", url);
    if (st != PQT_OK) {
        pqt_buf_free(&a.buf);
        return st;
    }
    a.buf.data[a.buf.len] = 0;
    b->data = (char *)a.buf.data;
    b->len = a.buf.len;
    return PQT_OK;
}
