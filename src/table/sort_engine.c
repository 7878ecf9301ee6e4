/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sort_engine.c - the one sort engine (layer: table): stable multi-key ordering of rows,
 * top-k selection, and the comparison every other sort question uses (docs/sort.md, "Order").
 *
 * Each key maps a row to a placement class and a 64-bit code whose unsigned order is the
 * key's value order: integers with the sign bit flipped, floats by their bits (negatives
 * inverted, -0.0 folded into 0.0), strings by their first 8 bytes big-endian; descending
 * inverts the code, so it reverses values only. Classes put NaN after values and nulls
 * after NaN (nulls_first: nulls, NaN, values). A key level is sorted by a stable
 * partition into classes, then a stable LSD radix sort of (code, row) pairs; strings whose
 * prefixes tie are finished by a merge sort on their bytes. Rows tied on a key are handed
 * to the next key group by group. Stability comes from every step being stable, never
 * from a tie-break on the row number, so "original order" is the order given.
 */
#include <math.h>
#include <omp.h>
#include <string.h>

#include "table/sort_engine.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"

enum { CLS_VALUE, CLS_NAN, CLS_NULL };

typedef struct code_row {
    uint64_t code;
    int64_t row;
} code_row;

static inline uint64_t string_code(const pqt_colbuf *b, int64_t r)
{
    const int64_t *o = b->str_offsets;
    int64_t len = o[r + 1] - o[r];
    const unsigned char *s = (const unsigned char *)b->str_bytes.data + o[r];
    uint64_t c = 0;
    for (int i = 0; i < 8; i++) c = c << 8 | (i < len ? s[i] : 0);
    return c;
}

/* The class (CLS_*) and, for values, the code of row r: what orders it under k. */
static inline __attribute__((always_inline)) int key_at(const pqt_sort_key *k, int64_t r,
                                                       uint64_t *code)
{
    const pqt_colbuf *b = k->b;
    if (!pqt_bit_get(b->validity, r)) return CLS_NULL;
    uint64_t c;
    switch (k->ek) {
    case PQT_INT32:
    case PQT_DATE:
        c = (uint64_t)(int64_t)((const int32_t *)b->data)[r] ^ (UINT64_C(1) << 63);
        break;
    case PQT_INT64:
    case PQT_TIME:
    case PQT_TIMESTAMP:
        c = (uint64_t)((const int64_t *)b->data)[r] ^ (UINT64_C(1) << 63);
        break;
    case PQT_UINT64:
        c = ((const uint64_t *)b->data)[r];
        break;
    case PQT_BOOL:
        c = ((const uint8_t *)b->data)[r] != 0;
        break;
    case PQT_STRING:
    case PQT_BINARY:
        c = string_code(b, r);
        break;
    case PQT_FLOAT32: {
        float x = ((const float *)b->data)[r];
        if (isnan(x)) return CLS_NAN;
        c = pqt_sort_code_f64(x);
        break;
    }
    default: {
        double x = ((const double *)b->data)[r];
        if (isnan(x)) return CLS_NAN;
        c = pqt_sort_code_f64(x);
        break;
    }
    }
    *code = k->desc ? ~c : c;
    return CLS_VALUE;
}

/* Placement rank of a class under k: values, NaN, nulls -- or nulls, NaN, values. */
static inline int class_rank(const pqt_sort_key *k, int cls)
{
    return k->nulls_first ? 2 - cls : cls;
}

static int cmp_strings(const pqt_colbuf *b, int64_t x, int64_t y)
{
    const int64_t *o = b->str_offsets;
    int64_t lx = o[x + 1] - o[x], ly = o[y + 1] - o[y], m = lx < ly ? lx : ly;
    int c = m > 0 ? memcmp(b->str_bytes.data + o[x], b->str_bytes.data + o[y], (size_t)m) : 0;
    if (c) return c < 0 ? -1 : 1;
    return lx < ly ? -1 : lx > ly;
}

static int cmp_key(const pqt_sort_key *k, int64_t a, int64_t b)
{
    uint64_t ca = 0, cb = 0;
    int ka = class_rank(k, key_at(k, a, &ca)), kb = class_rank(k, key_at(k, b, &cb));
    if (ka != kb) return ka < kb ? -1 : 1;
    if (ka != class_rank(k, CLS_VALUE)) return 0; /* NaNs tie, nulls tie */
    if (ca != cb) return ca < cb ? -1 : 1;
    if (!PQT_KIND_IS_BYTES(k->ek)) return 0;
    int c = cmp_strings(k->b, a, b);
    return k->desc ? -c : c;
}

int pqt_sort_cmp(const pqt_sort_key *keys, int nkeys, int64_t a, int64_t b)
{
    for (int i = 0; i < nkeys; i++) {
        int c = cmp_key(&keys[i], a, b);
        if (c) return c;
    }
    return 0;
}

/* LSD radix digits: 11 bits, 6 passes over 64-bit codes (2048 counters a pass stay in L1/L2
 * while the scatter's 2048 write streams stay few enough for the cache). */
#define RADIX_BITS 11
#define RADIX_PASSES 6
#define RADIX_SIZE (1 << RADIX_BITS)

/* Few distinct codes (a survey name, a flag, a small enum): a counting sort by rank is one
 * scatter instead of a radix pass per digit. Codes are numbered as first seen (a small
 * open-addressing table), the numbers go to ord[], the distinct codes are ranked, and the
 * rows are counted and placed by rank. false, with p untouched, past 256 distinct codes
 * (found early for data that has many). */
#define FEW_CODES 256
static bool sort_few_codes(code_row *p, code_row *tmp, int64_t n, uint8_t *ord)
{
    uint64_t table[2 * FEW_CODES], distinct[FEW_CODES];
    int16_t at[2 * FEW_CODES]; /* table slot -> first-seen number, -1 empty */
    int nd = 0;
    memset(at, 0xff, sizeof at);
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = p[i].code;
        unsigned h = (unsigned)((c * UINT64_C(0x9E3779B97F4A7C15)) >> 55); /* 9 bits */
        while (at[h] >= 0 && table[h] != c) h = (h + 1) & (2 * FEW_CODES - 1);
        if (at[h] < 0) {
            if (nd == FEW_CODES) return false;
            table[h] = c;
            at[h] = (int16_t)nd;
            distinct[nd++] = c;
        }
        ord[i] = (uint8_t)at[h];
    }
    /* rank of each first-seen number: sort the distinct codes (at most 256) */
    int idx[FEW_CODES];
    for (int j = 0; j < nd; j++) idx[j] = j;
    for (int j = 1; j < nd; j++) {
        int x = idx[j], m = j;
        while (m > 0 && distinct[idx[m - 1]] > distinct[x]) {
            idx[m] = idx[m - 1];
            m--;
        }
        idx[m] = x;
    }
    int64_t start[FEW_CODES];
    uint8_t rank[FEW_CODES];
    for (int r = 0; r < nd; r++) rank[idx[r]] = (uint8_t)r;
    memset(start, 0, sizeof start);
    for (int64_t i = 0; i < n; i++) start[rank[ord[i]]]++;
    int64_t sum = 0;
    for (int r = 0; r < nd; r++) {
        int64_t c = start[r];
        start[r] = sum;
        sum += c;
    }
    for (int64_t i = 0; i < n; i++) tmp[start[rank[ord[i]]]++] = p[i];
    memcpy(p, tmp, (size_t)n * sizeof *p);
    return true;
}

/* Stable sort of p[0..n) by code: insertion for a few, counting by rank for few distinct
 * codes, else LSD radix, skipping the digits every code shares. hist: RADIX_PASSES *
 * RADIX_SIZE counters of scratch; ord: n bytes of scratch. */
static void sort_codes(code_row *p, code_row *tmp, int64_t n, int64_t *hist, uint8_t *ord)
{
    if (n < 64) {
        for (int64_t i = 1; i < n; i++) {
            code_row x = p[i];
            int64_t j = i;
            while (j > 0 && p[j - 1].code > x.code) {
                p[j] = p[j - 1];
                j--;
            }
            p[j] = x;
        }
        return;
    }
    if (n >= 4096 && sort_few_codes(p, tmp, n, ord)) return;
    const uint64_t mask = RADIX_SIZE - 1;
    memset(hist, 0, sizeof *hist * RADIX_PASSES * RADIX_SIZE);
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = p[i].code;
        for (int d = 0; d < RADIX_PASSES; d++) hist[d * RADIX_SIZE + (c >> (RADIX_BITS * d) & mask)]++;
    }
    code_row *src = p, *dst = tmp;
    for (int d = 0; d < RADIX_PASSES; d++) {
        int64_t *h = hist + d * RADIX_SIZE;
        int shift = RADIX_BITS * d;
        if (h[src[0].code >> shift & mask] == n) continue; /* one digit: the pass is a no-op */
        int64_t sum = 0;
        for (int v = 0; v < RADIX_SIZE; v++) {
            int64_t c = h[v];
            h[v] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; i++) dst[h[src[i].code >> shift & mask]++] = src[i];
        code_row *x = src;
        src = dst;
        dst = x;
    }
    if (src != p) memcpy(p, src, (size_t)n * sizeof *p);
}

/* Stable merge sort of rows r[0..n) of a string key by their bytes (tmp: n entries). */
static void sort_strings(const pqt_sort_key *k, int64_t *r, int64_t *tmp, int64_t n)
{
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                int c = cmp_strings(k->b, r[j], r[i]);
                if (k->desc) c = -c;
                tmp[o++] = c < 0 ? r[j++] : r[i++];
            }
            while (i < mid) tmp[o++] = r[i++];
            while (j < hi) tmp[o++] = r[j++];
        }
        memcpy(r, tmp, (size_t)n * sizeof *r);
    }
}

/* Rows whose 8-byte prefix codes tie are all the same string when they share one length of
 * at most 8 bytes (the prefix is the whole string): nothing to finish by bytes. */
static bool same_short(const pqt_colbuf *b, const int64_t *r, int64_t n)
{
    const int64_t *o = b->str_offsets;
    int64_t len = o[r[0] + 1] - o[r[0]];
    if (len > 8) return false;
    for (int64_t i = 1; i < n; i++)
        if (o[r[i] + 1] - o[r[i]] != len) return false;
    return true;
}

typedef struct scratch {
    code_row *p, *t; /* pairs and their radix scratch */
    int64_t *r;      /* rows scratch (string keys only) */
    uint8_t *cls;
    int64_t *hist;   /* radix counters, shared by every level */
} scratch;

static void sort_level(const pqt_sort_key *keys, int nkeys, int lvl, int64_t *rows, int64_t n,
                       scratch s, int threads);

/* Rows [g0, g1) tie under keys[lvl]: strings whose prefixes tie are ordered by their bytes,
 * then each group of ties goes on to the next key. */
static void finish_group(const pqt_sort_key *keys, int nkeys, int lvl, int64_t *rows, int64_t g0,
                         int64_t g1, bool in_values, scratch s, int threads)
{
    const pqt_sort_key *k = &keys[lvl];
    if (in_values && PQT_KIND_IS_BYTES(k->ek) && g1 - g0 > 1 && !same_short(k->b, rows + g0, g1 - g0)) {
        sort_strings(k, rows + g0, s.r + g0, g1 - g0);
        for (int64_t a = g0; a < g1;) {
            int64_t b = a + 1;
            while (b < g1 && cmp_strings(k->b, rows[a], rows[b]) == 0) b++;
            sort_level(keys, nkeys, lvl + 1, rows + a, b - a,
                       (scratch){s.p + a, s.t + a, s.r + a, s.cls + a, s.hist}, threads);
            a = b;
        }
    } else {
        sort_level(keys, nkeys, lvl + 1, rows + g0, g1 - g0,
                   (scratch){s.p + g0, s.t + g0, s.r ? s.r + g0 : NULL, s.cls + g0, s.hist},
                   threads);
    }
}

/* Sort rows[0..n) by keys[lvl..nkeys); s's arrays from the same offset are free to use.
 * threads > 1: large groups of ties go on to the next key in parallel (each group owns its
 * range of every scratch array; each thread its own radix counters). */
static void sort_level(const pqt_sort_key *keys, int nkeys, int lvl, int64_t *rows, int64_t n,
                       scratch s, int threads)
{
    if (lvl >= nkeys || n < 2) return;
    const pqt_sort_key *k = &keys[lvl];
    int64_t count[3] = {0, 0, 0};
    for (int64_t i = 0; i < n; i++) {
        uint64_t c = 0;
        int rank = class_rank(k, key_at(k, rows[i], &c));
        s.cls[i] = (uint8_t)rank;
        s.p[i].code = c;
        s.p[i].row = rows[i];
        count[rank]++;
    }
    /* stable partition by class rank into t, then back */
    int64_t at[3] = {0, count[0], count[0] + count[1]};
    for (int64_t i = 0; i < n; i++) s.t[at[s.cls[i]]++] = s.p[i];
    memcpy(s.p, s.t, (size_t)n * sizeof *s.p);
    int vrank = class_rank(k, CLS_VALUE);
    int64_t v0 = vrank == 0 ? 0 : count[0] + count[1], nv = count[vrank];
    sort_codes(s.p + v0, s.t + v0, nv, s.hist, s.cls + v0); /* cls is spent: scratch */
    for (int64_t i = 0; i < n; i++) rows[i] = s.p[i].row;
    /* groups of ties under this key: [starts[g], starts[g + 1]) */
    bool need_next = lvl + 1 < nkeys || PQT_KIND_IS_BYTES(k->ek);
    if (!need_next) return;
    int64_t ng = 0, *starts = NULL;
    bool par = threads > 1 && n >= (1 << 16) && lvl + 1 < nkeys;
    for (int pass = par ? 0 : 1; pass < 2; pass++) {
        if (pass == 1 && par) {
            starts = pqt_malloc_array((size_t)ng + 1, sizeof *starts);
            if (!starts) par = false;
            ng = 0;
        }
        for (int64_t g0 = 0; g0 < n;) {
            int64_t g1 = g0 + 1;
            bool in_values = g0 >= v0 && g0 < v0 + nv;
            if (in_values) {
                while (g1 < v0 + nv && s.p[g1].code == s.p[g0].code) g1++;
            } else {
                /* a whole NaN or null class ties: g1 is the end of g0's class segment */
                int64_t seg_end = count[0];
                if (g0 >= seg_end) seg_end += count[1];
                if (g0 >= seg_end) seg_end = n;
                g1 = seg_end;
            }
            if (par && starts) starts[ng] = g0;
            else if (!par) finish_group(keys, nkeys, lvl, rows, g0, g1, in_values, s, threads);
            ng++;
            g0 = g1;
        }
    }
    if (!par || !starts) return;
    /* radix counters of each thread's own, or the groups go one after another */
    int64_t *hists = ng > 1 ? pqt_malloc_array((size_t)threads * RADIX_PASSES * RADIX_SIZE,
                                               sizeof *hists)
                            : NULL;
    starts[ng] = n;
    if (!hists) {
        for (int64_t g = 0; g < ng; g++)
            finish_group(keys, nkeys, lvl, rows, starts[g], starts[g + 1],
                         starts[g] >= v0 && starts[g] < v0 + nv, s, threads);
    } else {
        /* a few large groups (a survey name) or very many small ones: chunks keep the
         * scheduling cost per group small either way */
        int64_t chunk = ng / ((int64_t)threads * 64);
        if (chunk < 1) chunk = 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk)
        for (int64_t g = 0; g < ng; g++) {
            scratch own = s;
            own.hist = hists + (size_t)omp_get_thread_num() * RADIX_PASSES * RADIX_SIZE;
            finish_group(keys, nkeys, lvl, rows, starts[g], starts[g + 1],
                         starts[g] >= v0 && starts[g] < v0 + nv, own, 1);
        }
    }
    pqt_mem_free(hists);
    pqt_mem_free(starts);
}

pqt_status pqt_sort_rows(const pqt_sort_key *keys, int nkeys, int64_t *rows, int64_t n,
                         int threads, const char *call)
{
    if (n < 2 || nkeys < 1) return PQT_OK;
    bool strings = false;
    for (int i = 0; i < nkeys; i++) strings = strings || PQT_KIND_IS_BYTES(keys[i].ek);
    scratch s = {pqt_malloc_array((size_t)n, sizeof *s.p), pqt_malloc_array((size_t)n, sizeof *s.t),
                 strings ? pqt_malloc_array((size_t)n, sizeof *s.r) : NULL,
                 pqt_malloc_array((size_t)n, 1),
                 pqt_malloc_array((size_t)RADIX_PASSES * RADIX_SIZE, sizeof *s.hist)};
    pqt_status st = PQT_OK;
    if (!s.p || !s.t || (strings && !s.r) || !s.cls || !s.hist)
        st = pqt_err(PQT_NOMEM, "%s: out of memory sorting %lld rows", call, (long long)n);
    else
        sort_level(keys, nkeys, 0, rows, n, s, threads);
    /* the pair arrays (16 bytes a row, twice) go to the large-block cache (mem.c): the next
     * sort of a table this size takes them back instead of faulting fresh zeroed pages in */
    pqt_free(s.p);
    pqt_free(s.t);
    pqt_mem_free(s.r);
    pqt_mem_free(s.cls);
    pqt_mem_free(s.hist);
    return st;
}

/* Max-heap of codes: the k smallest seen so far, the largest of them on top. */
static void heap_sift_down(uint64_t *h, int64_t n, int64_t i)
{
    for (;;) {
        int64_t l = 2 * i + 1, m = i;
        if (l < n && h[l] > h[m]) m = l;
        if (l + 1 < n && h[l + 1] > h[m]) m = l + 1;
        if (m == i) return;
        uint64_t x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

static void heap_push(uint64_t *h, int64_t n, uint64_t c)
{
    int64_t i = n;
    h[i] = c;
    while (i > 0 && h[(i - 1) / 2] < h[i]) {
        uint64_t x = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = x;
        i = (i - 1) / 2;
    }
}

/* The usual top-n: values placed first (nulls_last), so when at least k rows hold values,
 * the k-th row is a value. The rows are cut into one stretch per thread; each keeps its k
 * smallest codes in a bounded heap, and the rows that entered it; the k-th smallest of all
 * is the k-th smallest of those heaps together. The rows at or below it (ties included)
 * are among those that entered, in row order, and only they are sorted. PQT_MISUSE (no
 * message) when fewer than k rows hold values. */
#define TOP_MAX_THREADS 64
#define TOP_BLOCK PQT_SORT_BLOCK

/* Can a row of [r0, r0 + n) enter a full heap whose top is `top` (a code at or below it)?
 * Once the heap holds k codes almost no block can: this asks with no store and no branch
 * per row, and only a block that may is coded row by row. Conservative: a null's slot or a
 * NaN may say yes (the block is then looked at exactly); kinds without a fast code say yes. */
static bool block_may_enter(const pqt_sort_key *k, int64_t r0, int64_t n, uint64_t top)
{
    const uint64_t flip = k->desc ? ~UINT64_C(0) : 0, sign = UINT64_C(1) << 63;
    uint64_t hit = 0;
    switch (k->ek) {
    case PQT_FLOAT64: {
        const double *d = (const double *)k->b->data + r0;
        for (int64_t i = 0; i < n; i++) {
            double x = d[i] + 0.0; /* -0.0 becomes 0.0, as pqt_sort_code_f64 folds it */
            uint64_t u;
            memcpy(&u, &x, sizeof u);
            uint64_t c = u ^ ((0 - (u >> 63)) | sign) ^ flip; /* pqt_sort_code_f64, branch-free */
            hit |= c <= top;
        }
        return hit != 0;
    }
    case PQT_INT64:
    case PQT_TIME:
    case PQT_TIMESTAMP: {
        const int64_t *x = (const int64_t *)k->b->data + r0;
        for (int64_t i = 0; i < n; i++) hit |= (((uint64_t)x[i] ^ sign) ^ flip) <= top;
        return hit != 0;
    }
    case PQT_INT32:
    case PQT_DATE: {
        const int32_t *x = (const int32_t *)k->b->data + r0;
        for (int64_t i = 0; i < n; i++) hit |= (((uint64_t)(int64_t)x[i] ^ sign) ^ flip) <= top;
        return hit != 0;
    }
    case PQT_UINT64: { /* the value is its own code */
        const uint64_t *x = (const uint64_t *)k->b->data + r0;
        for (int64_t i = 0; i < n; i++) hit |= (x[i] ^ flip) <= top;
        return hit != 0;
    }
    default:
        return true;
    }
}

/* The codes of rows [r0, r0 + n) of key k (n <= TOP_BLOCK) into c, ok[i] = 1 where the row
 * holds a value (not null, not NaN): the kind is looked at once per block, not per row. */
static void block_codes(const pqt_sort_key *k, int64_t r0, int64_t n, uint64_t *c, uint8_t *ok)
{
    const pqt_colbuf *b = k->b;
    const uint64_t flip = k->desc ? ~UINT64_C(0) : 0, sign = UINT64_C(1) << 63;
    const uint8_t *v = b->validity;
    switch (k->ek) {
    case PQT_FLOAT64: {
        const double *d = (const double *)b->data + r0;
        for (int64_t i = 0; i < n; i++) {
            c[i] = pqt_sort_code_f64(d[i]) ^ flip;
            ok[i] = d[i] == d[i];
        }
        break;
    }
    case PQT_FLOAT32: {
        const float *f = (const float *)b->data + r0;
        for (int64_t i = 0; i < n; i++) {
            c[i] = pqt_sort_code_f64(f[i]) ^ flip;
            ok[i] = f[i] == f[i];
        }
        break;
    }
    case PQT_INT64:
    case PQT_TIME:
    case PQT_TIMESTAMP: {
        const int64_t *x = (const int64_t *)b->data + r0;
        for (int64_t i = 0; i < n; i++) {
            c[i] = ((uint64_t)x[i] ^ sign) ^ flip;
            ok[i] = 1;
        }
        break;
    }
    case PQT_INT32:
    case PQT_DATE: {
        const int32_t *x = (const int32_t *)b->data + r0;
        for (int64_t i = 0; i < n; i++) {
            c[i] = ((uint64_t)(int64_t)x[i] ^ sign) ^ flip;
            ok[i] = 1;
        }
        break;
    }
    case PQT_UINT64: {
        const uint64_t *x = (const uint64_t *)b->data + r0;
        for (int64_t i = 0; i < n; i++) {
            c[i] = x[i] ^ flip;
            ok[i] = 1;
        }
        break;
    }
    default:
        for (int64_t i = 0; i < n; i++) ok[i] = key_at(k, r0 + i, &c[i]) == CLS_VALUE;
        return;
    }
    if (v) /* a null row's slot holds no value, whatever its bytes */
        for (int64_t i = 0; i < n; i++) ok[i] &= (uint8_t)(v[(r0 + i) >> 3] >> ((r0 + i) & 7));
}

void pqt_sort_key_codes(const pqt_sort_key *k, int64_t r0, int64_t n, uint64_t *c, uint8_t *ok)
{
    block_codes(k, r0, n, c, ok);
}

void pqt_sort_heap_offer(uint64_t *h, int64_t *nh, int64_t k, const uint64_t *c, const uint8_t *ok,
                         int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (!ok[i]) continue;
        if (*nh < k)
            heap_push(h, (*nh)++, c[i]);
        else if (c[i] < h[0]) {
            h[0] = c[i];
            heap_sift_down(h, *nh, 0);
        }
    }
}

/* Grow a candidate list by doubling, up to `most` entries; false (list kept) past that. */
static bool cand_room(int64_t **c, int64_t *cap, int64_t most)
{
    if (*cap >= most) return false;
    int64_t to = *cap * 2 < most ? *cap * 2 : most;
    int64_t *g = pqt_realloc_sized(*c, (size_t)*cap * sizeof *g, (size_t)to * sizeof *g);
    if (!g) return false;
    *c = g;
    *cap = to;
    return true;
}

static pqt_status top_values_first(const pqt_sort_key *keys, int nkeys, int64_t n, int64_t k,
                                   int64_t *out, int64_t *nout_ret, int threads,
                                   const char *call)
{
    const pqt_sort_key *k0 = &keys[0];
    int T = threads > 1 && n >= (1 << 16) ? threads : 1;
    if (T > TOP_MAX_THREADS) T = TOP_MAX_THREADS;
    uint64_t *h = pqt_malloc_array((size_t)k * (size_t)T, sizeof *h);
    int64_t nh[TOP_MAX_THREADS], m[TOP_MAX_THREADS], cap[TOP_MAX_THREADS];
    int64_t *cand[TOP_MAX_THREADS];
    bool spilled[TOP_MAX_THREADS];
    /* a row is a candidate when it ranks among the k best seen so far in its stretch; every
     * row of the final k does (the k-th best only improves), and on data in no particular
     * order they are about k ln(n / k). Past `most` (data ordered against the key) the
     * stretch is scanned again for the rows at or below the limit. */
    const int64_t most = 8 * k + 65536;
    if (!h) return pqt_err(PQT_NOMEM, "%s: out of memory selecting %lld rows", call, (long long)k);
#pragma omp parallel for num_threads(T) schedule(static, 1) if (T > 1)
    for (int j = 0; j < T; j++) {
        uint64_t *hh = h + (size_t)k * (size_t)j, codes[TOP_BLOCK];
        uint8_t ok[TOP_BLOCK];
        int64_t cnt = 0, mm = 0, end = n * (j + 1) / T;
        cap[j] = k + 1024;
        cand[j] = pqt_malloc_array((size_t)cap[j], sizeof *cand[j]);
        bool spill = !cand[j];
        for (int64_t r0 = n * j / T; r0 < end; r0 += TOP_BLOCK) {
            int64_t bn = end - r0 < TOP_BLOCK ? end - r0 : TOP_BLOCK;
            if (cnt == k && !block_may_enter(k0, r0, bn, hh[0])) continue;
            block_codes(k0, r0, bn, codes, ok);
            for (int64_t i = 0; i < bn; i++) {
                uint64_t c = codes[i];
                if (!ok[i]) continue;
                if (cnt < k) {
                    heap_push(hh, cnt++, c);
                } else if (c <= hh[0]) {
                    if (c < hh[0]) {
                        hh[0] = c;
                        heap_sift_down(hh, cnt, 0);
                    }
                } else {
                    continue;
                }
                if (!spill && mm == cap[j] && !cand_room(&cand[j], &cap[j], most)) spill = true;
                if (!spill) cand[j][mm++] = r0 + i;
            }
        }
        nh[j] = cnt;
        m[j] = mm;
        spilled[j] = spill;
    }
    /* the k smallest of every heap's contents, in the first heap's room */
    int64_t all = 0;
    for (int j = 0; j < T; j++) all += nh[j];
    if (all < k) {
        pqt_mem_free(h);
        for (int j = 0; j < T; j++) pqt_mem_free(cand[j]);
        return PQT_MISUSE;
    }
    int64_t top = nh[0];
    for (int j = 1; j < T; j++)
        for (int64_t i = 0; i < nh[j]; i++) {
            uint64_t c = h[(size_t)k * (size_t)j + (size_t)i];
            if (top < k) heap_push(h, top++, c);
            else if (c < h[0]) {
                h[0] = c;
                heap_sift_down(h, top, 0);
            }
        }
    uint64_t limit = h[0];
    pqt_mem_free(h);
    pqt_status st = PQT_OK;
#pragma omp parallel for num_threads(T) schedule(static, 1) if (T > 1)
    for (int j = 0; j < T; j++) {
        if (!spilled[j]) { /* the candidates at or below the limit, in row order */
            int64_t kept = 0;
            for (int64_t i = 0; i < m[j]; i++) {
                uint64_t c = 0;
                key_at(k0, cand[j][i], &c);
                if (c <= limit) cand[j][kept++] = cand[j][i];
            }
            m[j] = kept;
            continue;
        }
        m[j] = 0;
        if (!cand[j]) cand[j] = pqt_malloc_array((size_t)cap[j], sizeof *cand[j]);
        uint64_t codes[TOP_BLOCK];
        uint8_t ok[TOP_BLOCK];
        int64_t end = n * (j + 1) / T;
        for (int64_t r0 = n * j / T; cand[j] && r0 < end; r0 += TOP_BLOCK) {
            int64_t bn = end - r0 < TOP_BLOCK ? end - r0 : TOP_BLOCK;
            if (!block_may_enter(k0, r0, bn, limit)) continue;
            block_codes(k0, r0, bn, codes, ok);
            for (int64_t i = 0; i < bn; i++) {
                if (!ok[i] || codes[i] > limit) continue;
                if (m[j] == cap[j] && !cand_room(&cand[j], &cap[j], INT64_MAX / 16)) {
                    pqt_mem_free(cand[j]);
                    cand[j] = NULL;
                    break;
                }
                cand[j][m[j]++] = r0 + i;
            }
        }
    }
    int64_t total = 0;
    for (int j = 0; j < T; j++) {
        if (!cand[j]) st = pqt_err(PQT_NOMEM, "%s: out of memory selecting %lld rows", call, (long long)k);
        total += m[j];
    }
    int64_t *rows = st == PQT_OK ? pqt_malloc_array((size_t)total + 1, sizeof *rows) : NULL;
    if (st == PQT_OK && !rows) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    int64_t off = 0;
    for (int j = 0; st == PQT_OK && j < T; j++) { /* stretches in row order */
        memcpy(rows + off, cand[j], (size_t)m[j] * sizeof *rows);
        off += m[j];
    }
    for (int j = 0; j < T; j++) pqt_mem_free(cand[j]);
    if (st == PQT_OK) st = pqt_sort_rows(keys, nkeys, rows, total, 1, call);
    if (st == PQT_OK) {
        memcpy(out, rows, (size_t)k * sizeof *out);
        *nout_ret = k;
    }
    pqt_mem_free(rows);
    return st;
}

pqt_status pqt_sort_top(const pqt_sort_key *keys, int nkeys, int64_t n, int64_t k,
                        int64_t *out, int64_t *nout_ret, int threads, const char *call)
{
    if (k > n) k = n;
    *nout_ret = 0;
    if (k <= 0) return PQT_OK;
    if (k > n / 16) {
        /* a large k: the bounded heap's O(n log k) scattered accesses cost more than the
         * engine's sort of every row (k = n / 4 of 4M doubles: 10x), so sort all, keep k */
        int64_t *rows = pqt_malloc_array((size_t)n + 1, sizeof *rows);
        if (!rows) return pqt_err(PQT_NOMEM, "%s: out of memory selecting %lld rows", call, (long long)k);
        for (int64_t i = 0; i < n; i++) rows[i] = i;
        pqt_status st = pqt_sort_rows(keys, nkeys, rows, n, threads, call);
        if (st == PQT_OK) {
            memcpy(out, rows, (size_t)k * sizeof *out);
            *nout_ret = k;
        }
        pqt_mem_free(rows);
        return st;
    }
    const pqt_sort_key *k0 = &keys[0];
    if (class_rank(k0, CLS_VALUE) == 0) {
        pqt_status st = top_values_first(keys, nkeys, n, k, out, nout_ret, threads, call);
        if (st != PQT_MISUSE) return st; /* MISUSE: fewer values than k, the general way */
    }
    /* which placement class holds the k-th row of the first key */
    int64_t count[3] = {0, 0, 0};
    for (int64_t r = 0; r < n; r++) {
        uint64_t c;
        count[class_rank(k0, key_at(k0, r, &c))]++;
    }
    int rk = 0;
    int64_t before = 0;
    while (before + count[rk] < k) before += count[rk++];
    int vrank = class_rank(k0, CLS_VALUE);
    /* in the value class, only codes up to the k'-th smallest can be among the first k */
    uint64_t limit = UINT64_MAX;
    if (rk == vrank) {
        int64_t kk = k - before, nh = 0;
        uint64_t *h = pqt_malloc_array((size_t)kk, sizeof *h);
        if (!h) return pqt_err(PQT_NOMEM, "%s: out of memory selecting %lld rows", call, (long long)k);
        for (int64_t r = 0; r < n; r++) {
            uint64_t c;
            if (key_at(k0, r, &c) != CLS_VALUE) continue;
            if (nh < kk) heap_push(h, nh++, c);
            else if (c < h[0]) {
                h[0] = c;
                heap_sift_down(h, nh, 0);
            }
        }
        limit = h[0];
        pqt_mem_free(h);
    }
    /* candidates, in row order (stability): classes ranked before rk, and rk's share */
    int64_t ncand = 0;
    for (int r = 0; r < rk; r++) ncand += count[r];
    int64_t cap = ncand + count[rk];
    int64_t *cand = NULL;
    if (rk == vrank) {
        /* count first: candidates past the limit's ties are never stored */
        int64_t nv = 0;
        for (int64_t r = 0; r < n; r++) {
            uint64_t c;
            nv += key_at(k0, r, &c) == CLS_VALUE && c <= limit;
        }
        cap = ncand + nv;
    }
    cand = pqt_malloc_array((size_t)cap + 1, sizeof *cand);
    if (!cand) return pqt_err(PQT_NOMEM, "%s: out of memory selecting %lld rows", call, (long long)k);
    int64_t m = 0;
    for (int64_t r = 0; r < n; r++) {
        uint64_t c = 0;
        int cls = key_at(k0, r, &c), rank = class_rank(k0, cls);
        if (rank < rk || (rank == rk && (cls != CLS_VALUE || c <= limit))) cand[m++] = r;
    }
    pqt_status st = pqt_sort_rows(keys, nkeys, cand, m, 1, call);
    if (st == PQT_OK) {
        memcpy(out, cand, (size_t)k * sizeof *out);
        *nout_ret = k;
    }
    pqt_mem_free(cand);
    return st;
}
