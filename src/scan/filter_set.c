/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_set.c - value sets of in / not_in (layer: scan).
 *
 * docs/filters.md, "Sets": a set is copied and de-duplicated when it is bound (sorted members), and
 * compiled per column into an open-addressing hash table in the column's domain (integers by
 * value, floats by the bits of the double with -0 folded into +0, strings by a hash of the
 * bytes). The sorted members stay beside the table: the statistics prover asks whether any
 * member falls inside a row group's [min, max].
 */
#include <stdlib.h>
#include <string.h>

#include "scan/filter_int.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"

static pqt_status oom(void) { return pqt_err(PQT_NOMEM, "out of memory building a filter set"); }

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_f64(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int64_t pqt_scan_sort_ints(int64_t *v, int64_t n)
{
    if (n <= 1) return n;
    qsort(v, (size_t)n, sizeof *v, cmp_i64);
    int64_t o = 1;
    for (int64_t i = 1; i < n; i++)
        if (v[i] != v[o - 1]) v[o++] = v[i];
    return o;
}

int64_t pqt_scan_sort_doubles(double *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (v[i] == 0) v[i] = 0.0; /* -0 and +0 are one member */
    if (n <= 1) return n;
    qsort(v, (size_t)n, sizeof *v, cmp_f64);
    int64_t o = 1;
    for (int64_t i = 1; i < n; i++)
        if (v[i] != v[o - 1]) v[o++] = v[i];
    return o;
}

static int str_less(const int64_t *off, const char *bytes, int64_t a, int64_t b)
{
    return pqt_scan_strcmp(bytes + off[a], off[a + 1] - off[a], bytes + off[b],
                           off[b + 1] - off[b]) < 0;
}

pqt_status pqt_scan_sort_strings(const int64_t *off, const char *bytes, int64_t n,
                                 int64_t **perm_ret, int64_t *nperm_ret)
{
    int64_t *p = pqt_malloc_array((size_t)(n ? n : 1), sizeof *p);
    int64_t *tmp = pqt_malloc_array((size_t)(n ? n : 1), sizeof *tmp);
    if (!p || !tmp) {
        pqt_mem_free(p);
        pqt_mem_free(tmp);
        return oom();
    }
    for (int64_t i = 0; i < n; i++) p[i] = i;
    /* bottom-up merge sort (stable; qsort has no context argument in C11) */
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) tmp[o++] = str_less(off, bytes, p[j], p[i]) ? p[j++] : p[i++];
            while (i < mid) tmp[o++] = p[i++];
            while (j < hi) tmp[o++] = p[j++];
        }
        memcpy(p, tmp, (size_t)n * sizeof *p);
    }
    pqt_mem_free(tmp);
    int64_t o = n ? 1 : 0;
    for (int64_t i = 1; i < n; i++)
        if (str_less(off, bytes, p[o - 1], p[i])) p[o++] = p[i];
    *perm_ret = p;
    *nperm_ret = o;
    return PQT_OK;
}

void pqt_scan_cset_free(cset *s)
{
    if (!s) return;
    pqt_mem_free(s->sorted_i);
    pqt_mem_free(s->sorted_d);
    pqt_mem_free(s->soff);
    pqt_mem_free(s->sbytes);
    pqt_mem_free(s->keys);
    pqt_mem_free(s->slot);
    pqt_mem_free(s->bits);
    memset(s, 0, sizeof *s);
}

static pqt_status table_alloc(cset *s, int64_t n)
{
    int bits = 3;
    while (bits < 62 && ((int64_t)1 << bits) < 2 * n) bits++;
    size_t slots = (size_t)1 << bits;
    s->keys = pqt_calloc(slots, sizeof *s->keys);
    s->slot = pqt_calloc(slots, sizeof *s->slot);
    if (!s->keys || !s->slot) return oom();
    s->mask = slots - 1;
    s->shift = 64 - bits;
    return PQT_OK;
}

static void table_put(cset *s, uint64_t key, int64_t member)
{
    uint64_t h = pqt_scan_hash64(key) >> s->shift;
    while (s->slot[h]) h = (h + 1) & s->mask;
    s->keys[h] = key;
    s->slot[h] = member + 1;
}

pqt_status pqt_scan_cset_ints(cset *s, const int64_t *v, int64_t n)
{
    memset(s, 0, sizeof *s);
    s->sorted_i = pqt_malloc_array((size_t)(n ? n : 1), sizeof *s->sorted_i);
    if (!s->sorted_i) return oom();
    if (n) memcpy(s->sorted_i, v, (size_t)n * sizeof *v);
    s->n = pqt_scan_sort_ints(s->sorted_i, n);
    PQT_TRY(table_alloc(s, s->n));
    for (int64_t i = 0; i < s->n; i++) table_put(s, (uint64_t)s->sorted_i[i], i);
    s->imin = s->n ? s->sorted_i[0] : 1;
    s->imax = s->n ? s->sorted_i[s->n - 1] : 0;
    /* a dense span (ids, codes) is a bitmap: one load per value instead of a probe */
    uint64_t width = (uint64_t)s->imax - (uint64_t)s->imin; /* span - 1: no wrap at 2^64 */
    uint64_t span = width + 1;
    if (s->n && width < ((uint64_t)1 << 20) && span <= 64 * (uint64_t)s->n + 4096) {
        s->bits = pqt_calloc((size_t)(span + 7) / 8, 1);
        if (!s->bits) return oom();
        for (int64_t i = 0; i < s->n; i++) {
            uint64_t o = (uint64_t)s->sorted_i[i] - (uint64_t)s->imin;
            pqt_bit_or(s->bits, (int64_t)o, 1);
        }
    }
    return PQT_OK;
}

pqt_status pqt_scan_cset_doubles(cset *s, const double *v, int64_t n)
{
    memset(s, 0, sizeof *s);
    s->sorted_d = pqt_malloc_array((size_t)(n ? n : 1), sizeof *s->sorted_d);
    if (!s->sorted_d) return oom();
    if (n) memcpy(s->sorted_d, v, (size_t)n * sizeof *v);
    s->n = pqt_scan_sort_doubles(s->sorted_d, n);
    PQT_TRY(table_alloc(s, s->n));
    for (int64_t i = 0; i < s->n; i++) {
        uint64_t bits;
        memcpy(&bits, &s->sorted_d[i], sizeof bits);
        table_put(s, bits, i);
    }
    return PQT_OK;
}

pqt_status pqt_scan_cset_strings(cset *s, const int64_t *off, const char *bytes, int64_t n)
{
    memset(s, 0, sizeof *s);
    int64_t *perm, np;
    PQT_TRY(pqt_scan_sort_strings(off, bytes, n, &perm, &np));
    int64_t total = 0;
    for (int64_t i = 0; i < np; i++) total += off[perm[i] + 1] - off[perm[i]];
    s->soff = pqt_malloc_array((size_t)np + 1, sizeof *s->soff);
    s->sbytes = pqt_malloc((size_t)(total ? total : 1));
    if (!s->soff || !s->sbytes) {
        pqt_mem_free(perm);
        return oom();
    }
    s->soff[0] = 0;
    for (int64_t i = 0; i < np; i++) {
        int64_t len = off[perm[i] + 1] - off[perm[i]];
        if (len) memcpy(s->sbytes + s->soff[i], bytes + off[perm[i]], (size_t)len);
        s->soff[i + 1] = s->soff[i] + len;
    }
    pqt_mem_free(perm);
    s->n = np;
    PQT_TRY(table_alloc(s, np));
    for (int64_t i = 0; i < np; i++) {
        uint64_t hash = pqt_scan_hash_bytes(s->sbytes + s->soff[i], s->soff[i + 1] - s->soff[i]);
        uint64_t h = hash >> s->shift;
        while (s->slot[h]) h = (h + 1) & s->mask;
        s->keys[h] = hash;
        s->slot[h] = i + 1;
    }
    return PQT_OK;
}
