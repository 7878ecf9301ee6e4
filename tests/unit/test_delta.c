/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_delta.c - DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY
 * decoders against small reference encoders written here from Encodings.md.
 *
 * Round trips over geometries, counts and value shapes (extremes, wrap-around deltas);
 * random interleavings of decode(k)/skip(k) compared with the plain array model;
 * corrupt input (every truncated prefix, bad geometry, huge bit widths, negative lengths,
 * prefix longer than the previous value) must give PQT_CORRUPT and never read out of
 * bounds (truncated copies live in exact-size heap blocks for ASan).
 */
#include <stdlib.h>
#include <string.h>

#include "encoding/encoding_int.h"
#include "testutil.h"

static uint64_t rng = 12345;
static uint64_t rnd(void)
{
    return pqt_test_rand(&rng);
}
static uint64_t rnd_below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

/* ---------------- reference encoder ---------------- */

typedef struct enc {
    uint8_t *p;
    size_t len, cap;
} enc;

static void put_byte(enc *e, uint8_t b)
{
    if (e->len == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 256;
        e->p = realloc(e->p, e->cap);
    }
    e->p[e->len++] = b;
}

static void put_bytes(enc *e, const void *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put_byte(e, ((const uint8_t *)src)[i]);
}

static void put_uleb(enc *e, uint64_t v)
{
    while (v >= 0x80) {
        put_byte(e, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    put_byte(e, (uint8_t)v);
}

static void put_zigzag(enc *e, int64_t v)
{
    put_uleb(e, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static int bits_of(uint64_t v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

typedef struct dbp_opts {
    uint64_t bs, mbs;
    bool int32;      /* deltas computed with 32-bit wrap, as INT32 writers do */
    bool no_padding; /* omit padding of the last miniblock (lenient writers) */
    bool junk;       /* random padding bits and random widths of unused miniblocks */
} dbp_opts;

/* Encode v[0..n) as DELTA_BINARY_PACKED following Encodings.md step by step. */
static void dbp_encode(enc *e, const int64_t *v, size_t n, const dbp_opts *o)
{
    put_uleb(e, o->bs);
    put_uleb(e, o->mbs);
    put_uleb(e, n);
    put_zigzag(e, n ? v[0] : 0);
    uint64_t vpm = o->bs / o->mbs;
    int64_t *deltas = malloc(o->bs * sizeof(int64_t) + 1);
    uint64_t *rel = malloc(o->bs * sizeof(uint64_t) + 1);
    for (size_t start = 1; start < n; start += o->bs) {
        size_t cnt = n - start < o->bs ? n - start : o->bs;
        int64_t mind = INT64_MAX;
        for (size_t i = 0; i < cnt; i++) {
            if (o->int32) {
                int32_t d = (int32_t)((uint32_t)v[start + i] - (uint32_t)v[start + i - 1]);
                deltas[i] = d;
            } else {
                deltas[i] = (int64_t)((uint64_t)v[start + i] - (uint64_t)v[start + i - 1]);
            }
            if (deltas[i] < mind) mind = deltas[i];
        }
        put_zigzag(e, mind);
        for (size_t i = 0; i < cnt; i++) {
            rel[i] = (uint64_t)deltas[i] - (uint64_t)mind;
            if (o->int32) rel[i] = (uint32_t)rel[i];
        }
        size_t nmb_used = (cnt + vpm - 1) / vpm;
        int widths[256];
        for (size_t m = 0; m < o->mbs; m++) {
            if (m < nmb_used) {
                uint64_t mx = 0;
                for (size_t i = m * vpm; i < cnt && i < (m + 1) * vpm; i++)
                    if (rel[i] > mx) mx = rel[i];
                widths[m] = bits_of(mx);
                put_byte(e, (uint8_t)widths[m]);
            } else {
                put_byte(e, o->junk ? (uint8_t)rnd() : 0);
            }
        }
        for (size_t m = 0; m < nmb_used; m++) {
            int w = widths[m];
            size_t nv = (m + 1) * vpm <= cnt ? vpm : cnt - m * vpm;
            size_t nbits = (o->no_padding ? nv : vpm) * (size_t)w;
            size_t nbytes = (nbits + 7) / 8;
            size_t base = e->len;
            for (size_t b = 0; b < nbytes; b++)
                put_byte(e, 0);
            for (size_t i = 0; i < vpm; i++) {
                uint64_t x = i < nv ? rel[m * vpm + i] : (o->junk ? rnd() : 0);
                for (int b = 0; b < w; b++) {
                    size_t bit = i * (size_t)w + (size_t)b;
                    if (bit >= nbits) break;
                    if ((x >> b) & 1) e->p[base + bit / 8] |= (uint8_t)(1u << (bit % 8));
                }
            }
        }
    }
    free(deltas);
    free(rel);
}

/* ---------------- DELTA_BINARY_PACKED ---------------- */

static void gen_values(int64_t *v, size_t n, int shape, bool int32)
{
    int64_t x = (int64_t)rnd();
    for (size_t i = 0; i < n; i++) {
        switch (shape) {
        case 0:
            v[i] = (int64_t)rnd();
            break;
        case 1:
            x += (int64_t)rnd_below(200) - 100;
            v[i] = x;
            break;
        case 2:
            v[i] = 42;
            break;
        case 3: { /* extremes: maximal wrap-around deltas */
            static const int64_t ex[] = {INT64_MIN, INT64_MAX, 0, -1, 1, INT64_MIN + 1};
            v[i] = ex[rnd_below(6)];
            break;
        }
        case 4:
            v[i] = (int64_t)i * 1000003;
            break;
        default:
            v[i] = (rnd() & 1) ? (int64_t)rnd() : (int64_t)rnd_below(16);
            break;
        }
        if (int32) {
            if (shape == 3) {
                static const int32_t ex32[] = {INT32_MIN, INT32_MAX, 0, -1, 1};
                v[i] = ex32[rnd_below(5)];
            } else {
                v[i] = (int32_t)(uint32_t)v[i];
            }
        }
    }
}

/* Decode everything from a fresh decoder in random decode/skip steps and compare. */
static void check_interleaved(const uint8_t *buf, size_t len, const int64_t *v, size_t n,
                              bool int32)
{
    pqt_dbp_dec d;
    CHECK_OK(pqt_dbp_init(&d, buf, len));
    CHECK_EQ_I64(pqt_dbp_total(&d), n);
    int64_t *o64 = malloc((n + 1) * sizeof(int64_t));
    int32_t *o32 = malloc((n + 1) * sizeof(int32_t));
    size_t pos = 0;
    while (pos < n) {
        size_t k = 1 + rnd_below(rnd() & 1 ? 7 : 100);
        if (k > n - pos) k = n - pos;
        int op = (int)rnd_below(3);
        if (op == 0) {
            CHECK_OK(pqt_dbp_skip(&d, (int64_t)k));
        } else if (op == 1 || int32) {
            CHECK_OK(pqt_dbp_decode_i32(&d, (int64_t)k, o32));
            for (size_t i = 0; i < k; i++)
                if (o32[i] != (int32_t)(uint32_t)v[pos + i]) {
                    CHECK_EQ_I64(o32[i], (int32_t)(uint32_t)v[pos + i]);
                    break;
                }
        } else {
            CHECK_OK(pqt_dbp_decode_i64(&d, (int64_t)k, o64));
            for (size_t i = 0; i < k; i++)
                if (o64[i] != v[pos + i]) {
                    CHECK_EQ_I64(o64[i], v[pos + i]);
                    break;
                }
        }
        pos += k;
    }
    /* one past the end is corrupt, not a crash */
    CHECK(pqt_dbp_skip(&d, 1) == PQT_CORRUPT);
    free(o64);
    free(o32);
}

static void test_dbp_roundtrip(void)
{
    static const uint64_t geo[][2] = {{128, 4}, {256, 8}, {128, 1}, {1024, 8}, {128, 2}};
    static const size_t counts[] = {0, 1, 2, 31, 32, 33, 127, 128, 129, 1000, 4097};
    for (size_t g = 0; g < sizeof(geo) / sizeof(geo[0]); g++)
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
            for (int shape = 0; shape < 6; shape++)
                for (int variant = 0; variant < 4; variant++) {
                    size_t n = counts[c];
                    bool int32 = variant & 1;
                    dbp_opts o = {geo[g][0], geo[g][1], int32, (variant & 2) != 0,
                                  (variant & 2) == 0};
                    int64_t *v = malloc((n + 1) * sizeof(int64_t));
                    gen_values(v, n, shape, int32);
                    enc e = {0};
                    dbp_encode(&e, v, n, &o);

                    /* whole decode, and finish() lands exactly on the end */
                    pqt_dbp_dec d;
                    CHECK_OK(pqt_dbp_init(&d, e.p, e.len));
                    int64_t *out = malloc((n + 1) * sizeof(int64_t));
                    int32_t *out32 = malloc((n + 1) * sizeof(int32_t));
                    if (int32) {
                        CHECK_OK(pqt_dbp_decode_i32(&d, (int64_t)n, out32));
                        for (size_t i = 0; i < n; i++)
                            out[i] = out32[i];
                    } else {
                        CHECK_OK(pqt_dbp_decode_i64(&d, (int64_t)n, out));
                    }
                    if (n && memcmp(out, v, n * sizeof(int64_t)) != 0) {
                        fprintf(stderr, "mismatch geo %zu n %zu shape %d variant %d\n", g, n, shape,
                                variant);
                        CHECK(0);
                    }
                    const uint8_t *end = NULL;
                    CHECK_OK(pqt_dbp_finish(&d, &end));
                    CHECK(end == e.p + e.len);

                    /* finish() without decoding first also finds the end */
                    CHECK_OK(pqt_dbp_init(&d, e.p, e.len));
                    CHECK_OK(pqt_dbp_finish(&d, &end));
                    CHECK(end == e.p + e.len);

                    check_interleaved(e.p, e.len, v, n, int32);
                    free(v);
                    free(out);
                    free(out32);
                    free(e.p);
                }
}

/* Decode all values of buf[0..len) copied into an exact-size heap block. */
static pqt_status dbp_decode_copy(const uint8_t *buf, size_t len, int64_t *out, size_t *n_ret)
{
    uint8_t *cp = malloc(len ? len : 1);
    if (len) memcpy(cp, buf, len);
    pqt_dbp_dec d;
    pqt_status st = pqt_dbp_init(&d, cp, len);
    if (st == PQT_OK) {
        *n_ret = pqt_dbp_total(&d);
        if (*n_ret > 100000)
            st = PQT_CORRUPT; /* a truncated count would be nonsense anyway */
        else
            st = pqt_dbp_decode_i64(&d, (int64_t)*n_ret, out);
    }
    if (st == PQT_OK) {
        const uint8_t *end;
        st = pqt_dbp_finish(&d, &end);
        if (st == PQT_OK && (end < cp || end > cp + len)) st = PQT_MISUSE; /* flagged below */
    }
    free(cp);
    return st;
}

static void test_dbp_truncation(void)
{
    for (int variant = 0; variant < 2; variant++) {
        size_t n = 300;
        int64_t v[300];
        gen_values(v, n, 0, false);
        dbp_opts o = {128, 4, false, variant == 1, false};
        enc e = {0};
        dbp_encode(&e, v, n, &o);
        int64_t out[300];
        for (size_t cut = 0; cut < e.len; cut++) {
            size_t got = 0;
            pqt_status st = dbp_decode_copy(e.p, cut, out, &got);
            if (variant == 1) {
                /* no padding: every byte is needed */
                CHECK_EQ_I64(st, PQT_CORRUPT);
            } else {
                /* cutting only padding may still decode, but then correctly */
                CHECK(st == PQT_CORRUPT || st == PQT_OK);
                if (st == PQT_OK) CHECK(got == n && memcmp(out, v, sizeof(v)) == 0);
            }
        }
        free(e.p);
    }
}

static void test_dbp_corrupt(void)
{
    int64_t out[512];
    size_t got;
    /* bad geometries: block size 0, not a multiple of 128, absurd; miniblocks 0, not a divisor,
     * values per miniblock not a multiple of 32 */
    static const uint64_t bad[][2] = {{0, 1},   {100, 1}, {129, 1}, {1ull << 40, 1},
                                      {128, 0}, {128, 3}, {128, 8}, {128, 1000}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        enc e = {0};
        put_uleb(&e, bad[i][0]);
        put_uleb(&e, bad[i][1]);
        put_uleb(&e, 5);
        put_zigzag(&e, 1);
        for (int k = 0; k < 64; k++)
            put_byte(&e, 0);
        CHECK_EQ_I64(dbp_decode_copy(e.p, e.len, out, &got), PQT_CORRUPT);
        free(e.p);
    }
    /* bit width 65 and 255 in a needed miniblock */
    for (int w = 65; w <= 255; w += 190) {
        enc e = {0};
        put_uleb(&e, 128);
        put_uleb(&e, 4);
        put_uleb(&e, 10);
        put_zigzag(&e, 0);
        put_zigzag(&e, 0);
        put_byte(&e, (uint8_t)w);
        for (int k = 0; k < 3 + 32 * 8; k++)
            put_byte(&e, 0xff);
        CHECK_EQ_I64(dbp_decode_copy(e.p, e.len, out, &got), PQT_CORRUPT);
        free(e.p);
    }
    /* a huge count with no blocks behind it fails at init, before anyone allocates */
    {
        enc e = {0};
        put_uleb(&e, 128);
        put_uleb(&e, 4);
        put_uleb(&e, UINT64_MAX);
        put_zigzag(&e, 0);
        put_zigzag(&e, 0);
        for (int k = 0; k < 4; k++)
            put_byte(&e, 0);
        pqt_dbp_dec d;
        CHECK_EQ_I64(pqt_dbp_init(&d, e.p, e.len), PQT_CORRUPT);
        free(e.p);
    }
    /* over-long varint */
    {
        uint8_t b[16];
        memset(b, 0xff, sizeof(b));
        CHECK_EQ_I64(dbp_decode_copy(b, sizeof(b), out, &got), PQT_CORRUPT);
    }
    /* asking for more than total */
    {
        int64_t v[3] = {1, 2, 3};
        dbp_opts o = {128, 4, false, false, false};
        enc e = {0};
        dbp_encode(&e, v, 3, &o);
        pqt_dbp_dec d;
        CHECK_OK(pqt_dbp_init(&d, e.p, e.len));
        CHECK_EQ_I64(pqt_dbp_decode_i64(&d, 4, out), PQT_CORRUPT);
        CHECK_OK(pqt_dbp_decode_i64(&d, 3, out));
        CHECK(out[0] == 1 && out[2] == 3);
        free(e.p);
    }
    /* random garbage never crashes */
    for (int t = 0; t < 3000; t++) {
        uint8_t b[64];
        size_t len = rnd_below(sizeof(b));
        for (size_t i = 0; i < len; i++)
            b[i] = (uint8_t)rnd();
        if (len > 0) b[0] = (uint8_t)(0x80 | (rnd() & 1)); /* 128 or 129 as block size */
        if (len > 1) b[1] = 1;
        if (len > 2) b[2] = (uint8_t)(rnd() & 0x7f);
        (void)dbp_decode_copy(b, len, out, &got);
    }
}

/* ---------------- byte array encoders ---------------- */

typedef struct strs {
    size_t n;
    uint8_t **v;
    size_t *len;
} strs;

static strs gen_strs(size_t n, int fixed, bool shared_prefixes)
{
    strs s = {n, calloc(n + 1, sizeof(uint8_t *)), calloc(n + 1, sizeof(size_t))};
    for (size_t i = 0; i < n; i++) {
        size_t len = fixed ? (size_t)fixed : rnd_below(rnd() & 1 ? 4 : 40);
        s.v[i] = malloc(len + 1);
        s.len[i] = len;
        size_t keep = 0;
        if (shared_prefixes && i > 0) {
            keep = rnd_below((s.len[i - 1] < len ? s.len[i - 1] : len) + 1);
            memcpy(s.v[i], s.v[i - 1], keep);
        }
        for (size_t k = keep; k < len; k++)
            s.v[i][k] = (uint8_t)('a' + rnd_below(3));
    }
    return s;
}

static void free_strs(strs *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    free(s->len);
}

static const dbp_opts LEN_OPTS = {128, 4, true, false, false};

static void dlba_encode(enc *e, const strs *s)
{
    int64_t *l = malloc((s->n + 1) * sizeof(int64_t));
    for (size_t i = 0; i < s->n; i++)
        l[i] = (int64_t)s->len[i];
    dbp_encode(e, l, s->n, &LEN_OPTS);
    for (size_t i = 0; i < s->n; i++)
        put_bytes(e, s->v[i], s->len[i]);
    free(l);
}

static void dba_encode(enc *e, const strs *s)
{
    int64_t *pre = malloc((s->n + 1) * sizeof(int64_t));
    int64_t *suf = malloc((s->n + 1) * sizeof(int64_t));
    for (size_t i = 0; i < s->n; i++) {
        size_t p = 0;
        if (i > 0)
            while (p < s->len[i] && p < s->len[i - 1] && s->v[i][p] == s->v[i - 1][p])
                p++;
        pre[i] = (int64_t)p;
        suf[i] = (int64_t)(s->len[i] - p);
    }
    dbp_encode(e, pre, s->n, &LEN_OPTS);
    dbp_encode(e, suf, s->n, &LEN_OPTS);
    for (size_t i = 0; i < s->n; i++)
        put_bytes(e, s->v[i] + pre[i], (size_t)suf[i]);
    free(pre);
    free(suf);
}

/* Compare n output values (ends relative to bytes at base) with s->v[pos..]. */
static void check_ba(const pqt_buf *bytes, const int64_t *ends, size_t base, const strs *s,
                     size_t pos, size_t n)
{
    size_t prev = base;
    for (size_t i = 0; i < n; i++) {
        size_t end = (size_t)ends[i];
        if (end - prev != s->len[pos + i] ||
            (s->len[pos + i] && memcmp(bytes->data + prev, s->v[pos + i], s->len[pos + i]))) {
            fprintf(stderr, "byte array value %zu differs\n", pos + i);
            CHECK(0);
            return;
        }
        prev = end;
    }
}

/* kind 0 = DLBA, 1 = DBA (BYTE_ARRAY), 2 = DBA decode_fixed */
static void check_ba_interleaved(int kind, const uint8_t *buf, size_t len, const strs *s,
                                 int type_len)
{
    pqt_dlba_dec dl;
    pqt_dba_dec db;
    memset(&dl, 0, sizeof(dl));
    memset(&db, 0, sizeof(db));
    for (int round = 0; round < 2; round++) { /* the second init reuses the buffers */
        if (kind == 0)
            CHECK_OK(pqt_dlba_init(&dl, buf, len));
        else
            CHECK_OK(pqt_dba_init(&db, buf, len, type_len));
        pqt_buf bytes = {0};
        int64_t *ends = malloc((s->n + 1) * sizeof(int64_t));
        uint8_t *fixed = malloc(s->n * (size_t)(type_len > 0 ? type_len : 1) + 1);
        size_t pos = 0;
        while (pos < s->n) {
            size_t k = 1 + rnd_below(rnd() & 1 ? 5 : 80);
            if (k > s->n - pos) k = s->n - pos;
            if (rnd() % 3 == 0) {
                CHECK_OK(kind == 0 ? pqt_dlba_skip(&dl, (int64_t)k)
                                   : pqt_dba_skip(&db, (int64_t)k));
            } else if (kind == 2) {
                CHECK_OK(pqt_dba_decode_fixed(&db, (int64_t)k, fixed));
                for (size_t i = 0; i < k; i++)
                    CHECK(memcmp(fixed + i * (size_t)type_len, s->v[pos + i], (size_t)type_len) ==
                          0);
            } else {
                size_t base = bytes.len;
                pqt_ba_out out = {&bytes, ends};
                CHECK_OK(kind == 0 ? pqt_dlba_decode(&dl, (int64_t)k, &out)
                                   : pqt_dba_decode(&db, (int64_t)k, &out));
                check_ba(&bytes, ends, base, s, pos, k);
            }
            pos += k;
        }
        CHECK_EQ_I64(kind == 0 ? pqt_dlba_skip(&dl, 1) : pqt_dba_skip(&db, 1), PQT_CORRUPT);
        pqt_buf_free(&bytes);
        free(ends);
        free(fixed);
    }
    pqt_dlba_free(&dl);
    pqt_dba_free(&db);
}

/* Init + decode everything from an exact-size copy; returns the first failure. */
static pqt_status ba_decode_copy(int kind, const uint8_t *buf, size_t len, int type_len)
{
    uint8_t *cp = malloc(len ? len : 1);
    if (len) memcpy(cp, buf, len);
    pqt_dlba_dec dl;
    pqt_dba_dec db;
    memset(&dl, 0, sizeof(dl));
    memset(&db, 0, sizeof(db));
    pqt_status st = kind == 0 ? pqt_dlba_init(&dl, cp, len) : pqt_dba_init(&db, cp, len, type_len);
    if (st == PQT_OK) {
        int64_t n = kind == 0 ? dl.nvalues : db.nvalues;
        pqt_buf bytes = {0};
        int64_t *ends = malloc((size_t)(n + 1) * sizeof(int64_t));
        pqt_ba_out out = {&bytes, ends};
        st = kind == 0 ? pqt_dlba_decode(&dl, n, &out) : pqt_dba_decode(&db, n, &out);
        free(ends);
        pqt_buf_free(&bytes);
    }
    pqt_dlba_free(&dl);
    pqt_dba_free(&db);
    free(cp);
    return st;
}

static void test_byte_arrays(void)
{
    static const size_t counts[] = {0, 1, 2, 33, 1000};
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        for (int shared = 0; shared < 2; shared++) {
            strs s = gen_strs(counts[c], 0, shared);
            enc e = {0};
            dlba_encode(&e, &s);
            check_ba_interleaved(0, e.p, e.len, &s, 0);
            free(e.p);
            e = (enc){0};
            dba_encode(&e, &s);
            check_ba_interleaved(1, e.p, e.len, &s, 0);
            free(e.p);
            free_strs(&s);
            /* FIXED_LEN_BYTE_ARRAY through DELTA_BYTE_ARRAY */
            s = gen_strs(counts[c], 16, shared);
            e = (enc){0};
            dba_encode(&e, &s);
            check_ba_interleaved(2, e.p, e.len, &s, 16);
            check_ba_interleaved(1, e.p, e.len, &s, 16);
            free(e.p);
            free_strs(&s);
        }
    }
}

static void test_byte_arrays_corrupt(void)
{
    /* every truncated prefix: corrupt or (when only padding went) ok; never a crash */
    for (int kind = 0; kind < 2; kind++) {
        strs s = gen_strs(100, 0, true);
        enc e = {0};
        if (kind == 0)
            dlba_encode(&e, &s);
        else
            dba_encode(&e, &s);
        for (size_t cut = 0; cut < e.len; cut++) {
            pqt_status st = ba_decode_copy(kind, e.p, cut, 0);
            CHECK(st == PQT_CORRUPT);
        }
        CHECK_OK(ba_decode_copy(kind, e.p, e.len, 0));
        free(e.p);
        free_strs(&s);
    }
    /* negative length */
    {
        int64_t l[3] = {2, -1, 3};
        enc e = {0};
        dbp_encode(&e, l, 3, &LEN_OPTS);
        put_bytes(&e, "abcdefgh", 8);
        CHECK_EQ_I64(ba_decode_copy(0, e.p, e.len, 0), PQT_CORRUPT);
        free(e.p);
    }
    /* lengths summing past the bytes */
    {
        int64_t l[2] = {3, 6};
        enc e = {0};
        dbp_encode(&e, l, 2, &LEN_OPTS);
        put_bytes(&e, "abcdefgh", 8);
        CHECK_EQ_I64(ba_decode_copy(0, e.p, e.len, 0), PQT_CORRUPT);
        free(e.p);
    }
    /* DBA: prefix longer than the previous value; first prefix not 0; negative suffix;
     * count mismatch; FLBA length mismatch */
    static const int64_t cases[][2][3] = {
        {{0, 4, 0}, {3, 1, 1}}, /* value 1 takes 4 bytes of a 3-byte value */
        {{1, 0, 0}, {3, 1, 1}}, /* value 0 has a prefix */
        {{0, 1, 0}, {3, -1, 2}},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        enc e = {0};
        dbp_encode(&e, cases[i][0], 3, &LEN_OPTS);
        dbp_encode(&e, cases[i][1], 3, &LEN_OPTS);
        put_bytes(&e, "abcdefghijkl", 12);
        CHECK_EQ_I64(ba_decode_copy(1, e.p, e.len, 0), PQT_CORRUPT);
        free(e.p);
    }
    {
        int64_t pre[3] = {0, 1, 1}, suf[2] = {2, 1};
        enc e = {0};
        dbp_encode(&e, pre, 3, &LEN_OPTS);
        dbp_encode(&e, suf, 2, &LEN_OPTS);
        put_bytes(&e, "abcdefgh", 8);
        CHECK_EQ_I64(ba_decode_copy(1, e.p, e.len, 0), PQT_CORRUPT);
        free(e.p);
    }
    {
        int64_t pre[2] = {0, 1}, suf[2] = {2, 2}; /* lengths 2, 3 */
        enc e = {0};
        dbp_encode(&e, pre, 2, &LEN_OPTS);
        dbp_encode(&e, suf, 2, &LEN_OPTS);
        put_bytes(&e, "abcd", 4);
        CHECK_OK(ba_decode_copy(1, e.p, e.len, 0));
        CHECK_EQ_I64(ba_decode_copy(1, e.p, e.len, 2), PQT_CORRUPT);
        free(e.p);
    }
    /* random garbage never crashes */
    for (int t = 0; t < 3000; t++) {
        uint8_t b[48];
        size_t len = rnd_below(sizeof(b));
        for (size_t i = 0; i < len; i++)
            b[i] = (uint8_t)rnd();
        if (len > 1) {
            b[0] = 0x80;
            b[1] = 1;
        }
        (void)ba_decode_copy((int)(t & 1), b, len, 0);
    }
}

int main(void)
{
    test_dbp_roundtrip();
    test_dbp_truncation();
    test_dbp_corrupt();
    test_byte_arrays();
    test_byte_arrays_corrupt();
    return pqt_test_done("test_delta");
}
