/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_page_levels.c - the page-levels service (column/page_levels.c) against the levels it
 * was given (issue 29). Random level streams are encoded here by a naive RLE/bit-packed
 * hybrid encoder (runs and groups of 8 mixed at random, parquet-format Encodings.md), put in
 * a v1 page (each stream behind its 4-byte length, then value bytes) or a v2 page (streams
 * back to back, lengths in the header), and the service's repetition and definition levels,
 * presence, counts, row starts and the bytes it took must be the generated ones, counted
 * naively. A level above the maximum (one the bit width can hold) must fail naming it; so
 * must a length prefix past the page; BIT_PACKED levels are refused as unsupported.
 */
#include <stdio.h>
#include <string.h>

#include "column/page_levels.h"
#include "format/meta.h"
#include "pqt.h"
#include "testutil.h"

static uint64_t g_rng = 0x5eed1e7e15ULL;

static int rnd(int n)
{
    return (int)(pqt_test_rand(&g_rng) % (uint64_t)n);
}

static size_t uvarint(uint64_t h, uint8_t *out)
{
    size_t o = 0;
    do {
        out[o++] = (uint8_t)((h & 0x7f) | (h > 0x7f ? 0x80 : 0));
        h >>= 7;
    } while (h);
    return o;
}

/* Append the hybrid encoding of lv[0..n) at bit width bw to out (returns its length). */
static size_t encode(const uint8_t *lv, int n, int bw, uint8_t *out)
{
    size_t o = 0;
    int i = 0;
    while (i < n) {
        int run = 1;
        while (i + run < n && lv[i + run] == lv[i])
            run++;
        if (run >= 4 || rnd(3) == 0 || n - i < 8) { /* an RLE run (possibly of 1) */
            o += uvarint((uint64_t)run << 1, out + o);
            for (int b = 0; b < (bw + 7) / 8; b++)
                out[o++] = (uint8_t)(lv[i] >> (8 * b));
            i += run;
            continue;
        }
        int groups = 1 + rnd((n - i) / 8); /* bit-packed: whole groups of 8 */
        o += uvarint((uint64_t)groups << 1 | 1, out + o);
        size_t start = o;
        memset(out + o, 0, (size_t)groups * (size_t)bw);
        for (int k = 0; k < groups * 8; k++) {
            uint32_t v = lv[i + k];
            for (int b = 0; b < bw; b++)
                if (v >> b & 1)
                    out[start + (size_t)(k * bw + b) / 8] |= (uint8_t)(1u << ((k * bw + b) % 8));
        }
        o += (size_t)groups * (size_t)bw;
        i += groups * 8;
    }
    return o;
}

typedef struct page {
    uint8_t bytes[8192];
    size_t n;
    pqt_page_header h;
} page;

/* A page of n entries with levels reps/defs (max_rep 0: none): v1 or v2. */
static void build(page *pg, bool v2, const uint8_t *reps, const uint8_t *defs, int n, int max_rep,
                  int max_def)
{
    uint8_t r[4096], d[4096];
    size_t rn = max_rep ? encode(reps, n, pqt_level_bit_width(max_rep), r) : 0;
    size_t dn = max_def ? encode(defs, n, pqt_level_bit_width(max_def), d) : 0;
    memset(&pg->h, 0, sizeof pg->h);
    pg->h.type = v2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA;
    pg->h.num_values = n;
    pg->h.rep_level_encoding = pg->h.def_level_encoding = PQT_ENC_RLE;
    pg->n = 0;
    const uint8_t *s[2] = {r, d};
    size_t sn[2] = {rn, dn};
    for (int k = 0; k < 2; k++) {
        if ((k == 0 ? max_rep : max_def) == 0) continue;
        if (!v2) {
            uint32_t len = (uint32_t)sn[k];
            memcpy(pg->bytes + pg->n, &len, 4);
            pg->n += 4;
        }
        memcpy(pg->bytes + pg->n, s[k], sn[k]);
        pg->n += sn[k];
    }
    pg->h.rep_levels_nbytes = (int32_t)rn;
    pg->h.def_levels_nbytes = (int32_t)dn;
    memset(pg->bytes + pg->n, 0xa5, 16); /* the values */
    pg->n += 16;
}

static pqt_status take(pqt_chunk_ctx *cx, page *pg, int max_rep, int max_def, pqt_page_parts *pp,
                       pqt_page_levels *lv)
{
    memset(pp, 0, sizeof *pp);
    if (pg->h.type == PQT_PAGE_DATA_V2) {
        pp->rep = pg->bytes;
        pp->rep_n = (size_t)pg->h.rep_levels_nbytes;
        pp->def = pg->bytes + pp->rep_n;
        pp->def_n = (size_t)pg->h.def_levels_nbytes;
        pp->p = pp->def + pp->def_n;
        pp->len = pg->n - pp->rep_n - pp->def_n;
    } else {
        pp->p = pg->bytes;
        pp->len = pg->n;
    }
    return pqt_page_levels_take(cx, &pg->h, max_rep, max_def, NULL, pp, lv);
}

static void one_case(pqt_chunk_ctx *cx, int iter)
{
    bool v2 = rnd(2);
    int max_rep = rnd(3) == 0 ? 0 : 1 + rnd(3);
    int max_def = rnd(5) == 0 ? 0 : 1 + rnd(7);
    if (max_rep > max_def) max_def = max_rep; /* a repeated node is not required */
    int n = 1 + rnd(rnd(4) == 0 ? 40 : 600);
    uint8_t reps[700], defs[700];
    /* runs of equal levels, as real pages have, and noise */
    for (int i = 0; i < n; i++) {
        bool keep = i > 0 && rnd(4) != 0;
        reps[i] = max_rep == 0 ? 0 : keep ? reps[i - 1] : (uint8_t)rnd(max_rep + 1);
        defs[i] = max_def == 0 ? 0 : keep ? defs[i - 1] : (uint8_t)rnd(max_def + 1);
    }
    if (max_rep > 0 && rnd(2)) reps[0] = 0;
    page pg;
    build(&pg, v2, reps, defs, n, max_rep, max_def);
    pqt_page_parts pp;
    pqt_page_levels lv;
    pqt_status st = take(cx, &pg, max_rep, max_def, &pp, &lv);
    if (st != PQT_OK) {
        fprintf(stderr, "case %d: %s\n", iter, pqt_errmsg());
        CHECK(0);
        return;
    }
    /* the naive counts */
    int64_t npresent = 0, ncont = 0, nrows = 0;
    bool seen0 = false;
    for (int i = 0; i < n; i++) {
        npresent += defs[i] == max_def;
        if (reps[i] == 0)
            seen0 = true, nrows++;
        else if (!seen0)
            ncont++;
    }
    if (max_rep == 0) ncont = 0, nrows = n;
    CHECK_EQ_I64(lv.n, n);
    CHECK_EQ_I64(lv.npresent, npresent);
    CHECK_EQ_I64(lv.ncont, ncont);
    CHECK_EQ_I64(lv.nrows_started, nrows);
    /* what the levels took: the v1 prefixes and streams; v2's are not in p */
    size_t want_nbytes = v2 ? 0 : pg.n - 16;
    CHECK_EQ_I64((int64_t)lv.nbytes, (int64_t)want_nbytes);
    CHECK_EQ_I64((int64_t)pp.len, 16);
    CHECK(pp.p[0] == 0xa5);
    CHECK((lv.reps != NULL) == (max_rep > 0));
    if (lv.reps) CHECK(memcmp(lv.reps, reps, (size_t)n) == 0);
    if (lv.defs)
        CHECK(memcmp(lv.defs, defs, (size_t)n) == 0);
    else
        CHECK(npresent == n); /* defs left out only when every entry holds a value */
    if (lv.present) {
        for (int i = 0; i < n; i++)
            CHECK(lv.present[i] == (defs[i] == max_def));
    } else {
        CHECK(npresent == n);
    }
    /* a level one above the maximum, where the bit width can hold it, names itself */
    int which = max_rep > 0 && rnd(2) ? 0 : 1, max = which == 0 ? max_rep : max_def;
    if (max == 0 || max + 1 >= (1 << pqt_level_bit_width(max))) return;
    int at = rnd(n);
    (which == 0 ? reps : defs)[at] = (uint8_t)(max + 1);
    build(&pg, v2, reps, defs, n, max_rep, max_def);
    st = take(cx, &pg, max_rep, max_def, &pp, &lv);
    char want[64];
    snprintf(want, sizeof want, "level %d above the maximum %d", max + 1, max);
    CHECK_EQ_I64(st, PQT_CORRUPT);
    if (!strstr(pqt_errmsg(), want)) {
        fprintf(stderr, "case %d: '%s', want '%s'\n", iter, pqt_errmsg(), want);
        CHECK(0);
    }
}

/* v1 streams that lie about their length, and levels in another encoding. */
static void malformed(pqt_chunk_ctx *cx)
{
    uint8_t defs[16] = {1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1};
    page pg;
    build(&pg, false, NULL, defs, 16, 0, 1);
    pqt_page_parts pp;
    pqt_page_levels lv;
    uint32_t big = (uint32_t)pg.n; /* past the page by 4 */
    memcpy(pg.bytes, &big, 4);
    CHECK_EQ_I64(take(cx, &pg, 0, 1, &pp, &lv), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "run past the page") != NULL);
    pg.n = 3; /* not even the prefix */
    CHECK_EQ_I64(take(cx, &pg, 0, 1, &pp, &lv), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "length prefix past the end") != NULL);
    build(&pg, false, NULL, defs, 16, 0, 1);
    pg.h.def_level_encoding = PQT_ENC_BIT_PACKED;
    CHECK_EQ_I64(take(cx, &pg, 0, 1, &pp, &lv), PQT_UNSUPPORTED_ENCODING);
    /* pqt_levels_v1_nbytes alone: the prefix is all it reads */
    uint8_t pre[4] = {10, 0, 0, 0};
    size_t nb = 0;
    CHECK_OK(pqt_levels_v1_nbytes(pre, 14, &nb));
    CHECK_EQ_I64((int64_t)nb, 10);
    CHECK_EQ_I64(pqt_levels_v1_nbytes(pre, 13, &nb), PQT_CORRUPT);
}

int main(void)
{
    pqt_chunk_ctx *cx = NULL;
    REQUIRE_OK(pqt_chunk_ctx_new(&cx));
    for (int i = 0; i < 3000; i++)
        one_case(cx, i);
    malformed(cx);
    pqt_chunk_ctx_free(cx);
    return pqt_test_done("test_page_levels");
}
