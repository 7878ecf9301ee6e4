/* SPDX-License-Identifier: Apache-2.0 */
/*
 * remote.h - Parquet files over HTTP(S) through libcurl (layer: remote; includes util only).
 * docs/remote.md.
 *
 * A URL opens as a util/io.h source read through operations: the first request is a suffix
 * range (the file's last footer_hint bytes, which nearly always hold the footer), and it
 * fixes the file's size and ETag; every later read is served from a bounded cache of the
 * ranges fetched, or fetches exactly its range. A hint (pqt_io_will_read) fetches the ranges
 * a read will need ahead, coalesced and several requests at a time. Every failure is a PQT_IO
 * naming the URL, the byte range and the HTTP status or curl's error text.
 */
#ifndef PQT_REMOTE_REMOTE_H
#define PQT_REMOTE_REMOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "pqt.h"
#include "util/io.h"

/* How a remote source requests (pqt.h's PQT_OPT_REMOTE_*; 0 in a field means its default). */
typedef struct pqt_remote_opts {
    int64_t footer_hint;   /* bytes of the first, suffix request */
    int64_t coalesce_gap;  /* ranges at most this far apart are fetched by one request */
    int64_t coalesce_max;  /* no coalesced request is longer (a single longer range is split) */
    int in_flight;         /* requests at once */
    int retries;           /* repeats of a request after a fault (5xx, timeout, reset, short);
                              -1: none */
    int64_t retry_ms;      /* and no repeat starts later than this after the first attempt */
    int64_t timeout_ms;    /* one request, first byte to last */
    int64_t cache_bytes;   /* fetched bytes kept for reads (the hint fetches no more) */
} pqt_remote_opts;

#define PQT_REMOTE_FOOTER_HINT ((int64_t)64 << 10)
#define PQT_REMOTE_COALESCE_GAP ((int64_t)1 << 20)
#define PQT_REMOTE_COALESCE_MAX ((int64_t)16 << 20)
#define PQT_REMOTE_IN_FLIGHT 8
#define PQT_REMOTE_RETRIES 4
#define PQT_REMOTE_RETRY_MS ((int64_t)10000)
#define PQT_REMOTE_TIMEOUT_MS ((int64_t)60000)
#define PQT_REMOTE_CACHE_BYTES ((int64_t)256 << 20)

/* opts with every 0 field replaced by its default (NULL: all defaults). */
void pqt_remote_opts_resolve(const pqt_remote_opts *opts, pqt_remote_opts *ret);

/* Is path a URL this layer opens (http://, https://, s3://)? */
bool pqt_remote_is_url(const char *path);

/* Open url: one suffix request. An s3:// URL (and an http(s) URL below the configured S3
 * endpoint, with credentials) is resolved by pqt_s3_resolve and every request signed; the
 * source owns that target. Errors: PQT_IO naming the URL, the range and the status
 * (also when the server answers without a size), PQT_NOMEM. */
pqt_status pqt_remote_open(const char *url, const pqt_remote_opts *opts, pqt_io **ret);

/* The one way a path or URL becomes a source: a URL opens remotely, anything else as a local
 * path (pqt_io_open_path). opts may be NULL. */
pqt_status pqt_source_open(const char *path, const pqt_remote_opts *opts, pqt_io **ret);

/* The coalescing of a hint (range_plan.c): ranges[0..n) (any order, empty ones dropped)
 * become the requests ret[0..*nret) in offset order, each the union of ranges at most gap
 * apart and at most max long (a single range longer than max becomes several requests).
 * ret has room for pqt_range_plan_cap(ranges, n, max) entries. */
int64_t pqt_range_plan_cap(const pqt_io_range *ranges, int n, int64_t max);
int pqt_range_plan(pqt_io_range *ranges, int n, int64_t gap, int64_t max, pqt_io_range *ret);

#endif
