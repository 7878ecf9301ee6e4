/* SPDX-License-Identifier: Apache-2.0 */
/*
 * remote_io.c - a URL as a util/io.h source: the suffix request at open, a bounded cache of
 * fetched ranges that reads are served from, and the hint that fills it with coalesced
 * requests in flight (layer: remote). docs/remote.md.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "remote/curl_api.h"
#include "remote/http.h"
#include "remote/remote.h"
#include "remote/s3.h"
#include "util/error.h"
#include "util/mem.h"

#define REMOTE_BUSY 4 /* windows fetched at once, by different readers */

typedef struct entry {
    int64_t offset, n;
    uint8_t *data;
} entry;

typedef struct rsrc {
    pqt_http *h;
    pqt_s3_target *s3; /* an S3 object's address and signer: h signs every request with it */
    pqt_remote_opts o;
    pthread_mutex_t mu; /* guards the cache */
    entry *e;           /* oldest first: the oldest go when the cache is full */
    int ne, cap;
    int64_t cached; /* bytes in e */
    /* requests a hint planned beyond what the cache could take at once, in offset order:
     * the read that reaches one fetches it and those after it, a window at a time */
    pqt_io_range *pend;
    int npend;
    pqt_io_range busy[REMOTE_BUSY]; /* windows being fetched (n 0: a free slot) */
    pthread_cond_t cv;              /* a window arrived */
    /* in the registry of open sources (below) once its pqt_io exists */
    char *url;
    pqt_io *io;
    struct rsrc *next_open;
} rsrc;

/* The remote sources open now. Another open of the same URL with the same options takes a
 * reference to the one already open instead of a request of its own: one footer request,
 * one cache and one version of the file for every handle a process opens on it (a command
 * opens a file for its schema, then for its rows). */
static pthread_mutex_t open_mu = PTHREAD_MUTEX_INITIALIZER;
static rsrc *open_list;

static bool same_opts(const pqt_remote_opts *a, const pqt_remote_opts *b)
{
    return a->footer_hint == b->footer_hint && a->coalesce_gap == b->coalesce_gap &&
           a->coalesce_max == b->coalesce_max && a->in_flight == b->in_flight &&
           a->retries == b->retries && a->retry_ms == b->retry_ms &&
           a->timeout_ms == b->timeout_ms && a->cache_bytes == b->cache_bytes &&
           a->tally == b->tally;
}

static pqt_io *open_find(const char *url, const pqt_remote_opts *o)
{
    pqt_io *io = NULL;
    pthread_mutex_lock(&open_mu);
    for (rsrc *s = open_list; s && !io; s = s->next_open)
        if (strcmp(s->url, url) == 0 && same_opts(&s->o, o)) io = pqt_io_ref_if_alive(s->io);
    pthread_mutex_unlock(&open_mu);
    return io;
}

static void open_add(rsrc *s, const char *url, pqt_io *io)
{
    if (!(s->url = pqt_strdup(url))) return; /* not shared: still a working source */
    s->io = io;
    pthread_mutex_lock(&open_mu);
    s->next_open = open_list;
    open_list = s;
    pthread_mutex_unlock(&open_mu);
}

static void open_remove(rsrc *s)
{
    pthread_mutex_lock(&open_mu);
    for (rsrc **p = &open_list; *p; p = &(*p)->next_open)
        if (*p == s) {
            *p = s->next_open;
            break;
        }
    pthread_mutex_unlock(&open_mu);
    pqt_mem_free(s->url);
}

bool pqt_remote_is_url(const char *path)
{
    return strncmp(path, "http://", 7) == 0 || strncmp(path, "https://", 8) == 0 ||
           strncmp(path, "s3://", 5) == 0;
}

/* Keep [offset, offset + n) (data is taken, freed here when it cannot be kept). Under mu. */
static void cache_put(rsrc *s, int64_t offset, int64_t n, uint8_t *data)
{
    if (n > s->o.cache_bytes) {
        pqt_mem_free(data);
        return;
    }
    int drop = 0;
    while (drop < s->ne && s->cached + n > s->o.cache_bytes) {
        s->cached -= s->e[drop].n;
        pqt_mem_free(s->e[drop++].data);
    }
    if (drop > 0) memmove(s->e, s->e + drop, (size_t)(s->ne - drop) * sizeof *s->e);
    s->ne -= drop;
    if (s->ne == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        entry *e = pqt_realloc(s->e, (size_t)cap * sizeof *e);
        if (!e) {
            pqt_mem_free(data);
            return;
        }
        s->e = e;
        s->cap = cap;
    }
    s->e[s->ne++] = (entry){offset, n, data};
    s->cached += n;
}

/* Copy what the cache holds of [offset, offset + n) from its start; returns the bytes copied
 * (a prefix of the range). Under mu. */
static int64_t cache_get(const rsrc *s, uint8_t *buf, int64_t n, int64_t offset)
{
    int64_t done = 0;
    for (bool found = true; found && done < n;) {
        found = false;
        int64_t at = offset + done;
        for (int i = s->ne - 1; i >= 0; i--) {
            const entry *e = &s->e[i];
            if (at < e->offset || at >= e->offset + e->n) continue;
            int64_t k = e->offset + e->n - at;
            if (k > n - done) k = n - done;
            memcpy(buf + done, e->data + (at - e->offset), (size_t)k);
            done += k;
            found = true;
            break;
        }
    }
    return done;
}

static bool cache_covers(const rsrc *s, int64_t offset, int64_t n)
{
    for (int i = 0; i < s->ne; i++)
        if (offset >= s->e[i].offset && offset + n <= s->e[i].offset + s->e[i].n) return true;
    return false;
}

/* Is [offset, offset + n) inside one of ranges r[0..nr)? */
static bool inside(const pqt_io_range *r, int nr, int64_t offset, int64_t n)
{
    for (int i = 0; i < nr; i++)
        if (offset >= r[i].offset && offset + n <= r[i].offset + r[i].n) return true;
    return false;
}

/* Fetch win[0..nwin) in flight into the cache (a failure is left to the reads that need the
 * bytes), then clear the busy mark busy. */
static void fetch_window(rsrc *s, const pqt_io_range *win, int nwin, int busy)
{
    pqt_http_req *reqs = pqt_calloc((size_t)nwin + 1, sizeof *reqs);
    int nreq = 0;
    for (int i = 0; reqs && i < nwin; i++) {
        uint8_t *d = pqt_malloc((size_t)win[i].n);
        if (!d) break;
        reqs[nreq++] = (pqt_http_req){.offset = win[i].offset, .n = win[i].n, .dst = d};
    }
    pqt_err_mute();
    pqt_status st = pqt_http_fetch(s->h, reqs, nreq);
    pqt_err_unmute();
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < nreq; i++)
        if (st == PQT_OK) cache_put(s, reqs[i].offset, reqs[i].n, reqs[i].dst);
        else pqt_mem_free(reqs[i].dst);
    s->busy[busy] = (pqt_io_range){0, 0};
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pqt_mem_free(reqs);
}

/* Under mu: take from the planned requests the window starting at pend[i] (at most a
 * quarter of the cache, at least one request) into *win, mark it busy; returns its busy slot,
 * or -1 when every slot is taken. */
static int claim_window(rsrc *s, int i, pqt_io_range **win, int *nwin)
{
    int slot = 0;
    while (slot < REMOTE_BUSY && s->busy[slot].n > 0) slot++;
    if (slot == REMOTE_BUSY) return -1;
    int64_t budget = s->o.cache_bytes / 4;
    int j = i;
    while (j < s->npend && (j == i || s->pend[j].n <= budget)) budget -= s->pend[j++].n;
    *win = pqt_malloc_array((size_t)(j - i), sizeof **win);
    if (!*win) return -1;
    *nwin = j - i;
    memcpy(*win, s->pend + i, (size_t)(j - i) * sizeof **win);
    memmove(s->pend + i, s->pend + j, (size_t)(s->npend - j) * sizeof *s->pend);
    s->npend -= j - i;
    int64_t lo = (*win)[0].offset, hi = (*win)[*nwin - 1].offset + (*win)[*nwin - 1].n;
    s->busy[slot] = (pqt_io_range){lo, hi - lo};
    return slot;
}

/* A read of [offset, +n) missed the cache: wait for the window being fetched that holds it,
 * or fetch the window of planned requests that starts with it. Then the caller looks again. */
static void await_or_fetch(rsrc *s, int64_t offset, int64_t n)
{
    pthread_mutex_lock(&s->mu);
    for (;;) {
        if (inside(s->busy, REMOTE_BUSY, offset, n)) {
            pthread_cond_wait(&s->cv, &s->mu);
            if (cache_covers(s, offset, n)) break;
            continue;
        }
        int i = 0;
        while (i < s->npend && !inside(s->pend + i, 1, offset, n)) i++;
        pqt_io_range *win = NULL;
        int nwin = 0, slot = i < s->npend ? claim_window(s, i, &win, &nwin) : -1;
        pthread_mutex_unlock(&s->mu);
        if (slot >= 0) fetch_window(s, win, nwin, slot);
        pqt_mem_free(win);
        return;
    }
    pthread_mutex_unlock(&s->mu);
}

static pqt_status rs_read(void *ctx, void *buf, size_t n, int64_t offset)
{
    rsrc *s = ctx;
    pthread_mutex_lock(&s->mu);
    int64_t have = cache_get(s, buf, (int64_t)n, offset);
    bool planned = s->npend > 0 || inside(s->busy, REMOTE_BUSY, offset + have, (int64_t)n - have);
    pthread_mutex_unlock(&s->mu);
    if (have == (int64_t)n) return PQT_OK;
    if (planned) {
        await_or_fetch(s, offset + have, (int64_t)n - have);
        pthread_mutex_lock(&s->mu);
        have += cache_get(s, (uint8_t *)buf + have, (int64_t)n - have, offset + have);
        pthread_mutex_unlock(&s->mu);
        if (have == (int64_t)n) return PQT_OK;
    }
    /* the rest, exactly: into the caller's buffer, and a copy kept when it is small (a page
     * header read before its page, a footer structure read twice) */
    pqt_http_req r = {.offset = offset + have, .n = (int64_t)n - have,
                      .dst = (uint8_t *)buf + have};
    PQT_TRY(pqt_http_fetch(s->h, &r, 1));
    if (r.n <= ((int64_t)1 << 20)) {
        uint8_t *copy = pqt_malloc(r.n > 0 ? (size_t)r.n : 1);
        if (copy) {
            memcpy(copy, r.dst, (size_t)r.n);
            pthread_mutex_lock(&s->mu);
            cache_put(s, r.offset, r.n, copy);
            pthread_mutex_unlock(&s->mu);
        }
    }
    return PQT_OK;
}

static int by_offset(const void *a, const void *b)
{
    const pqt_io_range *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The hint: ranges neither held, planned nor being fetched are coalesced into requests; the
 * first window is fetched now, the rest is planned for the reads that reach it. */
static void rs_will_read(void *ctx, const pqt_io_range *ranges, int n)
{
    rsrc *s = ctx;
    pqt_io_range *want = pqt_malloc_array((size_t)n, sizeof *want);
    if (!want) return;
    int k = 0;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < n; i++)
        if (ranges[i].n > 0 && !cache_covers(s, ranges[i].offset, ranges[i].n) &&
            !inside(s->pend, s->npend, ranges[i].offset, ranges[i].n) &&
            !inside(s->busy, REMOTE_BUSY, ranges[i].offset, ranges[i].n))
            want[k++] = ranges[i];
    pthread_mutex_unlock(&s->mu);
    int64_t gap = s->o.coalesce_gap, max = s->o.coalesce_max;
    if (pqt_http_range_ignored(s->h)) /* every request streams from byte 0: one is cheapest */
        gap = max = s->o.cache_bytes / 4;
    int64_t cap = pqt_range_plan_cap(want, k, max);
    pqt_io_range *plan = cap < INT32_MAX ? pqt_malloc_array((size_t)cap, sizeof *plan) : NULL;
    int np = plan ? pqt_range_plan(want, k, gap, max, plan) : 0;
    pqt_mem_free(want);
    if (np == 0) {
        pqt_mem_free(plan);
        return;
    }
    pthread_mutex_lock(&s->mu);
    pqt_io_range *all = pqt_realloc(s->pend, (size_t)(s->npend + np) * sizeof *all);
    if (all) {
        memcpy(all + s->npend, plan, (size_t)np * sizeof *plan);
        s->pend = all;
        s->npend += np;
        qsort(s->pend, (size_t)s->npend, sizeof *s->pend, by_offset);
    }
    int i = 0;
    while (all && i < s->npend && s->pend[i].offset != plan[0].offset) i++;
    pqt_io_range *win = NULL;
    int nwin = 0, slot = all && i < s->npend ? claim_window(s, i, &win, &nwin) : -1;
    pthread_mutex_unlock(&s->mu);
    if (slot >= 0) fetch_window(s, win, nwin, slot);
    pqt_mem_free(win);
    pqt_mem_free(plan);
}

static void rs_counts(void *ctx, pqt_io_net_counts *ret) { pqt_http_counts(((rsrc *)ctx)->h, ret); }

static void rs_close(void *ctx)
{
    rsrc *s = ctx;
    open_remove(s);
    for (int i = 0; i < s->ne; i++) pqt_mem_free(s->e[i].data);
    pqt_mem_free(s->e);
    pqt_mem_free(s->pend);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    pqt_http_free(s->h);
    pqt_s3_target_free(s->s3);
    pqt_mem_free(s->s3);
    pqt_mem_free(s);
}

static const pqt_io_ops remote_ops = {rs_read, rs_will_read, rs_counts, rs_close};

/* Is url below the configured S3 endpoint (AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL)? Such a
 * URL (a dataset member below an http(s) prefix) is an S3 object, signed like an s3:// one. */
static bool at_s3_endpoint(const char *url)
{
    const char *e = getenv("AWS_ENDPOINT_URL_S3");
    if (!e || !*e) e = getenv("AWS_ENDPOINT_URL");
    if (!e || !*e || strpbrk(url, "?#")) return false;
    size_t n = strlen(e);
    while (n > 0 && e[n - 1] == '/')
        n--;
    return n > 0 && strncasecmp(url, e, n) == 0 && url[n] == '/';
}

/* The S3 target of url, or NULL for plain HTTP: an s3:// URL always (its errors are the
 * open's), an http(s) URL below the endpoint when it resolves to a signed request. */
static pqt_status s3_target_of(const char *url, pqt_s3_target **ret)
{
    *ret = NULL;
    bool s3 = pqt_s3_is_url(url);
    if (!s3 && !(pqt_s3_is_http_url(url) && at_s3_endpoint(url))) return PQT_OK;
    pqt_s3_target *t = pqt_calloc(1, sizeof *t);
    if (!t) return pqt_err(PQT_NOMEM, "out of memory opening %s", url);
    if (!s3) pqt_err_mute(); /* an http URL that is no S3 object is fetched as it is */
    pqt_status st = pqt_s3_resolve(url, t);
    if (!s3) pqt_err_unmute();
    if (st != PQT_OK || (!s3 && !t->access_key)) {
        pqt_s3_target_free(t);
        pqt_mem_free(t);
        return s3 ? st : PQT_OK;
    }
    *ret = t;
    return PQT_OK;
}

pqt_status pqt_remote_open(const char *url, const pqt_remote_opts *opts, pqt_io **ret)
{
    PQT_TRY(pqt_curl_load(url)); /* here, so an error names an s3:// URL as given */
    pqt_remote_opts want;
    pqt_remote_opts_resolve(opts, &want);
    pqt_io *shared = open_find(url, &want);
    if (shared) {
        *ret = shared;
        return PQT_OK;
    }
    pqt_s3_target *t;
    PQT_TRY(s3_target_of(url, &t));
    rsrc *s = pqt_calloc(1, sizeof *s);
    if (!s) {
        pqt_s3_target_free(t);
        pqt_mem_free(t);
        return pqt_err(PQT_NOMEM, "out of memory opening %s", url);
    }
    s->s3 = t;
    pqt_remote_opts_resolve(opts, &s->o);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    pqt_status st = t ? pqt_http_new(t->url, &s->o, pqt_s3_sign, t, &s->h)
                      : pqt_http_new(url, &s->o, NULL, NULL, &s->h);
    if (st == PQT_OK && t && strcmp(url, t->url) != 0) {
        /* errors name the URL given and the one fetched */
        size_t cap = strlen(url) + strlen(t->url) + 4;
        char *name = pqt_malloc(cap);
        if (name) snprintf(name, cap, "%s: %s", url, t->url);
        st = name ? pqt_http_set_name(s->h, name)
                  : pqt_err(PQT_NOMEM, "out of memory opening %s", url);
        pqt_mem_free(name);
    }
    if (st != PQT_OK) {
        rs_close(s);
        return st;
    }
    /* the file's tail: its size and validator, and nearly always its whole footer */
    pqt_http_req r = {.suffix = true, .n = s->o.footer_hint};
    r.dst = pqt_malloc((size_t)r.n);
    st = r.dst ? pqt_http_fetch(s->h, &r, 1)
               : pqt_err(PQT_NOMEM, "out of memory opening %s", url);
    if (st == PQT_OK) cache_put(s, r.got_offset, r.got, r.dst);
    else pqt_mem_free(r.dst);
    if (st != PQT_OK) {
        rs_close(s);
        return st;
    }
    pqt_io *io;
    PQT_TRY(pqt_io_open_ops(url, pqt_http_size(s->h), &remote_ops, s, &io)); /* closes s */
    io->tail_hint = r.got;
    open_add(s, url, io);
    *ret = io;
    return PQT_OK;
}

pqt_status pqt_source_open(const char *path, const pqt_remote_opts *opts, pqt_io **ret)
{
    if (pqt_remote_is_url(path)) return pqt_remote_open(path, opts, ret);
    return pqt_io_open_path(path, ret);
}
