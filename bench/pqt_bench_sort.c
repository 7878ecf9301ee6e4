/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_bench_sort.c - the sort workloads, the way a user asks for them: a table opened with
 * the sort keys (PQT_OPT_SORT) and, for a top-n, a row limit (PQT_OPT_LIMIT); then the id
 * column copied out in sorted order (pqt_table_get into a buffer kept across runs).
 *
 *   W7   the 100 largest masses: sort "-mass", limit 100; [count, sum id, sum id * rank]
 *   W10  the whole catalogue by "survey, -mass": [count, sum id, sum (id mod P)(rank mod P)
 *        mod P, summed] with P = 1000003 (every partial sum is exact in a double)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>

#include "pqt_bench.h"

#define DIGEST_P 1000003

static pqt_status open_sorted(bench *b, const char *keys, int64_t limit, pqt_table **t)
{
    pqt_opts *o = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_THREADS, b->threads);
    if (st == PQT_OK) st = pqt_opts_set_int(o, PQT_OPT_VERIFY_CRC, b->crc);
    if (st == PQT_OK) st = pqt_opts_set_sort(o, keys);
    if (st == PQT_OK && limit >= 0) st = pqt_opts_set_int(o, PQT_OPT_LIMIT, limit);
    if (st == PQT_OK) st = pqt_table_open(b->path, o, t);
    pqt_opts_free(o);
    return st;
}

/* The ids in sorted order into b->buf[0] (kept across runs). */
static int sorted_ids(bench *b, const char *keys, int64_t limit, pqt_table **t, int64_t **ids,
                      int64_t *n)
{
    int rc = -1;
    CK(b, open_sorted(b, keys, limit, t));
    *n = pqt_table_nrows(*t);
    size_t need = (size_t)(*n > 0 ? *n : 1) * sizeof(int64_t);
    if (b->cap[0] < need) {
        free(b->buf[0]);
        b->buf[0] = malloc(need);
        b->cap[0] = b->buf[0] ? need : 0;
        if (!b->buf[0]) return bench_fail(b, "out of memory");
    }
    *ids = b->buf[0];
    CK(b, pqt_table_get(*t, "id", PQT_INT64, *ids, need, NULL, 0));
    rc = 0;
out:
    return rc;
}

int wl_w7(bench *b, double *v, int *nv)
{
    pqt_table *t = NULL;
    int64_t *ids = NULL, n = 0;
    int rc = sorted_ids(b, "-mass", 100, &t, &ids, &n);
    if (rc == 0) {
        double s = 0, w = 0;
        for (int64_t r = 0; r < n; r++) {
            s += (double)ids[r];
            w += (double)ids[r] * (double)(r + 1);
        }
        v[0] = (double)n;
        v[1] = s;
        v[2] = w;
        *nv = 3;
    }
    pqt_table_close(t);
    return rc;
}

int wl_w10(bench *b, double *v, int *nv)
{
    pqt_table *t = NULL;
    int64_t *ids = NULL, n = 0;
    int rc = sorted_ids(b, "survey, -mass", -1, &t, &ids, &n);
    if (rc == 0) {
        int64_t s = 0, d = 0;
        for (int64_t r = 0; r < n; r++) {
            s += ids[r];
            d += ids[r] % DIGEST_P * ((r + 1) % DIGEST_P) % DIGEST_P;
        }
        v[0] = (double)n;
        v[1] = (double)s;
        v[2] = (double)d;
        *nv = 3;
    }
    pqt_table_close(t);
    return rc;
}
