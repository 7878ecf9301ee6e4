/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sel.c - the row selection (layer: util). See sel.h for the representations.
 *
 * RUNS is the natural form of slices and page pruning; BITS the natural form of a
 * predicate result. Mutations go through a bool-free path: runs are rebuilt by merging,
 * bitmaps by word operations, and normalize() picks the smaller representation
 * (BITS when nruns * 32 > nrows, the arrow-rs crossover; back to RUNS when nruns * 512 < nrows).
 */
#include "util/sel.h"

#include <stdlib.h>
#include <string.h>

#include "util/bits.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"

static int64_t nwords(int64_t nrows) { return (nrows + 63) / 64; }
static int64_t nblocks(int64_t nrows) { return (nrows + PQT_SEL_BLOCK_ROWS - 1) / PQT_SEL_BLOCK_ROWS; }

static pqt_status oom(void) { return pqt_err(PQT_NOMEM, "out of memory growing a row selection"); }

static pqt_status reserve_runs(pqt_sel *sel, int64_t n)
{
    if (n <= sel->runs_cap) return PQT_OK;
    int64_t cap = sel->runs_cap ? sel->runs_cap : 8;
    while (cap < n) cap *= 2;
    pqt_run *r = pqt_realloc(sel->runs, (size_t)cap * sizeof *r);
    if (!r) return oom();
    sel->runs = r;
    sel->runs_cap = cap;
    return PQT_OK;
}

/* Words and summary are (re)allocated to the row count; contents undefined. */
static pqt_status reserve_bits(pqt_sel *sel)
{
    size_t nw = (size_t)nwords(sel->nrows), nb = (size_t)nblocks(sel->nrows);
    uint64_t *w = pqt_realloc(sel->words, (nw ? nw : 1) * sizeof *w);
    if (!w) return oom();
    sel->words = w;
    uint8_t *s = pqt_realloc(sel->summary, nb ? nb : 1);
    if (!s) return oom();
    sel->summary = s;
    return PQT_OK;
}

void pqt_sel_init_all(pqt_sel *sel, int64_t nrows)
{
    sel->kind = nrows > 0 ? PQT_SEL_ALL : PQT_SEL_NONE;
    sel->nrows = nrows;
    sel->nsel = nrows > 0 ? nrows : 0;
    sel->nruns = 0;
}

void pqt_sel_init_none(pqt_sel *sel, int64_t nrows)
{
    sel->kind = PQT_SEL_NONE;
    sel->nrows = nrows;
    sel->nsel = 0;
    sel->nruns = 0;
}

void pqt_sel_free(pqt_sel *sel)
{
    pqt_mem_free(sel->runs);
    pqt_mem_free(sel->words);
    pqt_mem_free(sel->summary);
    memset(sel, 0, sizeof *sel);
}

pqt_status pqt_sel_init_range(pqt_sel *sel, int64_t nrows, int64_t lo, int64_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > nrows) hi = nrows;
    if (lo >= hi) {
        pqt_sel_init_none(sel, nrows);
        return PQT_OK;
    }
    if (lo == 0 && hi == nrows) {
        pqt_sel_init_all(sel, nrows);
        return PQT_OK;
    }
    PQT_TRY(reserve_runs(sel, 1));
    sel->kind = PQT_SEL_RUNS;
    sel->nrows = nrows;
    sel->runs[0].start = lo;
    sel->runs[0].len = hi - lo;
    sel->nruns = 1;
    sel->nsel = hi - lo;
    return PQT_OK;
}

static void build_summary(pqt_sel *sel)
{
    int64_t nb = nblocks(sel->nrows);
    int64_t wpb = PQT_SEL_BLOCK_ROWS / 64;
    int64_t nw = nwords(sel->nrows);
    for (int64_t b = 0; b < nb; b++) {
        int64_t w0 = b * wpb, w1 = w0 + wpb < nw ? w0 + wpb : nw;
        int64_t rows = (w1 - w0) * 64;
        if (b == nb - 1) rows = sel->nrows - b * PQT_SEL_BLOCK_ROWS;
        int64_t cnt = 0;
        for (int64_t w = w0; w < w1; w++) cnt += pqt_popcount64(sel->words[w]);
        sel->summary[b] = cnt == 0 ? 0 : cnt == rows ? 1 : 2;
    }
}

/* Set / clear rows [s, e) of a bitmap, a word at a time. */
static void set_range(uint64_t *words, int64_t s, int64_t e)
{
    while (s < e) {
        int64_t w = s / 64, bit = s % 64;
        int64_t take = 64 - bit < e - s ? 64 - bit : e - s;
        words[w] |= take == 64 ? ~0ULL : ((1ULL << take) - 1) << bit;
        s += take;
    }
}

static void clear_range(uint64_t *words, int64_t s, int64_t e)
{
    while (s < e) {
        int64_t w = s / 64, bit = s % 64;
        int64_t take = 64 - bit < e - s ? 64 - bit : e - s;
        words[w] &= ~(take == 64 ? ~0ULL : ((1ULL << take) - 1) << bit);
        s += take;
    }
}

/* Runs -> bitmap (kind becomes BITS). On failure the runs are untouched. */
static pqt_status runs_to_bits(pqt_sel *sel)
{
    PQT_TRY(reserve_bits(sel));
    memset(sel->words, 0, (size_t)nwords(sel->nrows) * sizeof(uint64_t));
    for (int64_t i = 0; i < sel->nruns; i++)
        set_range(sel->words, sel->runs[i].start, sel->runs[i].start + sel->runs[i].len);
    build_summary(sel);
    sel->kind = PQT_SEL_BITS;
    return PQT_OK;
}

/* Any non-empty selection -> BITS, for word-wise operations. On failure sel is untouched. */
static pqt_status to_bits(pqt_sel *sel)
{
    if (sel->kind == PQT_SEL_RUNS) return runs_to_bits(sel);
    if (sel->kind != PQT_SEL_ALL) return PQT_OK;
    PQT_TRY(reserve_bits(sel));
    memset(sel->words, 0, (size_t)nwords(sel->nrows) * sizeof(uint64_t));
    set_range(sel->words, 0, sel->nrows);
    build_summary(sel);
    sel->kind = PQT_SEL_BITS;
    return PQT_OK;
}

/* Bitmap -> runs (kind becomes RUNS); words stay allocated for reuse. */
static pqt_status bits_to_runs(pqt_sel *sel)
{
    int64_t n = 0;
    pqt_sel_cursor cur = {0};
    int64_t s, l;
    sel->kind = PQT_SEL_BITS;
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &s, &l)) n++;
    PQT_TRY(reserve_runs(sel, n));
    cur.pos = 0;
    n = 0;
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &s, &l)) {
        sel->runs[n].start = s;
        sel->runs[n].len = l;
        n++;
    }
    sel->nruns = n;
    sel->kind = PQT_SEL_RUNS;
    return PQT_OK;
}

/* Picks the smaller representation. It never fails: when a conversion cannot get memory the
 * current representation stays (it means the same rows), and no message is recorded, so a
 * mutation that has succeeded is never reported as failed (and never half done). */
static void normalize(pqt_sel *sel)
{
    if (sel->nsel == 0) {
        pqt_sel_init_none(sel, sel->nrows);
        return;
    }
    if (sel->nsel == sel->nrows) {
        pqt_sel_init_all(sel, sel->nrows);
        return;
    }
    pqt_err_mute();
    if (sel->kind == PQT_SEL_RUNS && sel->nruns * 32 > sel->nrows) {
        (void)runs_to_bits(sel);
    } else if (sel->kind == PQT_SEL_BITS) {
        int64_t runs = pqt_sel_nruns_in(sel, 0, sel->nrows);
        if (runs * 512 < sel->nrows) (void)bits_to_runs(sel);
    }
    pqt_err_unmute();
}

pqt_status pqt_sel_init_bools(pqt_sel *sel, int64_t nrows, const uint8_t *keep)
{
    sel->nrows = nrows;
    PQT_TRY(reserve_bits(sel));
    int64_t nw = nwords(nrows), cnt = 0;
    for (int64_t w = 0; w < nw; w++) {
        uint64_t word = 0;
        int64_t base = w * 64, lim = nrows - base < 64 ? nrows - base : 64;
        for (int64_t b = 0; b < lim; b++) word |= (uint64_t)(keep[base + b] != 0) << b;
        sel->words[w] = word;
        cnt += pqt_popcount64(word);
    }
    build_summary(sel);
    sel->kind = PQT_SEL_BITS;
    sel->nsel = cnt;
    sel->nruns = 0;
    normalize(sel);
    return PQT_OK;
}

pqt_status pqt_sel_copy(pqt_sel *dst, const pqt_sel *src)
{
    dst->nrows = src->nrows;
    if (src->kind == PQT_SEL_RUNS) {
        PQT_TRY(reserve_runs(dst, src->nruns));
        memcpy(dst->runs, src->runs, (size_t)src->nruns * sizeof *src->runs);
    } else if (src->kind == PQT_SEL_BITS) {
        PQT_TRY(reserve_bits(dst));
        memcpy(dst->words, src->words, (size_t)nwords(src->nrows) * sizeof(uint64_t));
        memcpy(dst->summary, src->summary, (size_t)nblocks(src->nrows));
    }
    dst->kind = src->kind;
    dst->nsel = src->nsel;
    dst->nruns = src->kind == PQT_SEL_RUNS ? src->nruns : 0;
    return PQT_OK;
}

pqt_status pqt_sel_intersect_range(pqt_sel *sel, int64_t lo, int64_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > sel->nrows) hi = sel->nrows;
    pqt_run r = {lo, hi > lo ? hi - lo : 0};
    if (r.len == 0) {
        pqt_sel_init_none(sel, sel->nrows);
        return PQT_OK;
    }
    return pqt_sel_intersect_runs(sel, &r, 1);
}

pqt_status pqt_sel_intersect_runs(pqt_sel *sel, const pqt_run *runs, int64_t nruns)
{
    if (sel->kind == PQT_SEL_NONE) return PQT_OK;
    if (sel->kind == PQT_SEL_ALL) {
        PQT_TRY(reserve_runs(sel, nruns));
        int64_t n = 0, cnt = 0;
        for (int64_t i = 0; i < nruns; i++) {
            int64_t s = runs[i].start < 0 ? 0 : runs[i].start;
            int64_t e = runs[i].start + runs[i].len;
            if (e > sel->nrows) e = sel->nrows;
            if (e <= s) continue;
            if (n && sel->runs[n - 1].start + sel->runs[n - 1].len == s) {
                sel->runs[n - 1].len += e - s;
            } else {
                sel->runs[n].start = s;
                sel->runs[n].len = e - s;
                n++;
            }
            cnt += e - s;
        }
        sel->kind = PQT_SEL_RUNS;
        sel->nruns = n;
        sel->nsel = cnt;
        normalize(sel);
    return PQT_OK;
    }
    if (sel->kind == PQT_SEL_RUNS) {
        /* Merge-intersect into a fresh array, then swap in. */
        pqt_run *out = pqt_malloc_array((size_t)(sel->nruns + nruns + 1), sizeof *out);
        if (!out) return oom();
        int64_t i = 0, j = 0, n = 0, cnt = 0;
        while (i < sel->nruns && j < nruns) {
            int64_t a0 = sel->runs[i].start, a1 = a0 + sel->runs[i].len;
            int64_t b0 = runs[j].start, b1 = b0 + runs[j].len;
            int64_t s = a0 > b0 ? a0 : b0, e = a1 < b1 ? a1 : b1;
            if (s < e) {
                if (n && out[n - 1].start + out[n - 1].len == s) out[n - 1].len += e - s;
                else out[n++] = (pqt_run){s, e - s};
                cnt += e - s;
            }
            if (a1 < b1) i++;
            else j++;
        }
        pqt_mem_free(sel->runs);
        sel->runs = out;
        sel->runs_cap = sel->nruns + nruns + 1;
        sel->nruns = n;
        sel->nsel = cnt;
        normalize(sel);
    return PQT_OK;
    }
    /* BITS: clear every bit outside the runs. */
    int64_t prev_end = 0, cnt = 0;
    for (int64_t k = 0; k <= nruns; k++) {
        int64_t s = k < nruns ? runs[k].start : sel->nrows;
        if (s > sel->nrows) s = sel->nrows;
        clear_range(sel->words, prev_end, s);
        if (k < nruns) prev_end = runs[k].start + runs[k].len;
        if (prev_end > sel->nrows) prev_end = sel->nrows;
    }
    for (int64_t w = 0; w < nwords(sel->nrows); w++) cnt += pqt_popcount64(sel->words[w]);
    sel->nsel = cnt;
    build_summary(sel);
    normalize(sel);
    return PQT_OK;
}

/* Eight verdict bytes (nonzero: keep) as eight bits, first byte lowest: a byte's high bit
 * says nonzero, and one multiply gathers the eight (no two partial products overlap). */
static inline uint64_t pack8_verdicts(const uint8_t *v)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    uint64_t x = pqt_load_le64(v);
    uint64_t nonzero = (((x & low7) + low7) | x) & ~low7;
    return ((nonzero >> 7) * 0x0102040810204080ULL) >> 56;
}

pqt_status pqt_sel_refine(pqt_sel *sel, const uint8_t *keep)
{
    if (sel->kind == PQT_SEL_NONE) return PQT_OK;
    PQT_TRY(to_bits(sel));
    /* Walk selected rows in order, clearing the ones the verdict rejects. */
    int64_t k = 0, cnt = 0;
    int64_t nw = nwords(sel->nrows);
    for (int64_t w = 0; w < nw; w++) {
        uint64_t word = sel->words[w], out = word;
        if (word == UINT64_MAX) { /* 64 selected rows: their verdicts packed */
            out = 0;
            for (int b = 0; b < 8; b++) out |= pack8_verdicts(keep + k + 8 * b) << (8 * b);
            k += 64;
        }
        while (word != UINT64_MAX && word) {
            int bit = __builtin_ctzll(word);
            if (!keep[k++]) out &= ~(1ULL << bit);
            word &= word - 1;
        }
        sel->words[w] = out;
        cnt += pqt_popcount64(out);
    }
    sel->nsel = cnt;
    build_summary(sel);
    normalize(sel);
    return PQT_OK;
}

static int64_t popcount_words(const uint64_t *words, int64_t nw)
{
    int64_t cnt = 0;
    for (int64_t w = 0; w < nw; w++) cnt += pqt_popcount64(words[w]);
    return cnt;
}

/* 64 bits of an LSB-first bitmap starting at bit `at` (bits past nbits read as 0). */
static uint64_t load_bits_at(const uint8_t *bits, int64_t at, int64_t nbits)
{
    uint64_t v = 0;
    int64_t byte = at >> 3, shift = at & 7, nbytes = (nbits + 7) >> 3;
    for (int64_t b = 0; b < 9 && byte + b < nbytes; b++) {
        uint64_t x = bits[byte + b];
        int64_t pos = 8 * b - shift;
        if (pos >= 64) break;
        v |= pos >= 0 ? x << pos : x >> -pos;
    }
    if (nbits - at < 64) v &= nbits - at <= 0 ? 0 : (1ULL << (nbits - at)) - 1;
    return v;
}

pqt_status pqt_sel_refine_bits(pqt_sel *sel, const uint8_t *keep)
{
    if (sel->kind == PQT_SEL_NONE) return PQT_OK;
    int64_t n = sel->nsel;
    if (sel->kind == PQT_SEL_ALL || (sel->kind == PQT_SEL_RUNS && sel->nruns == 1)) {
        /* selected rows are contiguous: the verdict is the bitmap itself, shifted */
        int64_t start = sel->kind == PQT_SEL_ALL ? 0 : sel->runs[0].start;
        int64_t nrows = sel->nrows;
        PQT_TRY(reserve_bits(sel));
        int64_t nw = nwords(nrows);
        memset(sel->words, 0, (size_t)nw * sizeof *sel->words);
        int64_t w0 = start >> 6, sh = start & 63;
        for (int64_t at = 0, w = w0; at < n; at += 64, w++) {
            uint64_t v = load_bits_at(keep, at, n);
            sel->words[w] |= v << sh;
            if (sh && w + 1 < nw) sel->words[w + 1] |= v >> (64 - sh);
        }
        sel->kind = PQT_SEL_BITS;
        sel->nsel = popcount_words(sel->words, nw);
        sel->nruns = 0;
        build_summary(sel);
        normalize(sel);
        return PQT_OK;
    }
    PQT_TRY(to_bits(sel));
    int64_t k = 0, cnt = 0, nw = nwords(sel->nrows);
    for (int64_t w = 0; w < nw; w++) {
        uint64_t word = sel->words[w], out = 0;
        while (word) {
            int bit = __builtin_ctzll(word);
            out |= (uint64_t)(keep[k >> 3] >> (k & 7) & 1) << bit;
            k++;
            word &= word - 1;
        }
        sel->words[w] = out;
        cnt += pqt_popcount64(out);
    }
    sel->nsel = cnt;
    build_summary(sel);
    normalize(sel);
    return PQT_OK;
}

pqt_status pqt_sel_init_bitmap(pqt_sel *sel, int64_t nrows, const uint8_t *bits)
{
    sel->nrows = nrows;
    PQT_TRY(reserve_bits(sel));
    int64_t nw = nwords(nrows), nbytes = (nrows + 7) / 8;
    for (int64_t w = 0; w < nw; w++) {
        /* bytes to a word by shifts: the same answer on any byte order */
        uint64_t word = 0;
        int64_t b0 = w * 8, lim = nbytes - b0 < 8 ? nbytes - b0 : 8;
        for (int64_t b = 0; b < lim; b++) word |= (uint64_t)bits[b0 + b] << (8 * b);
        sel->words[w] = word;
    }
    if (nrows % 64) sel->words[nw - 1] &= (1ULL << (nrows % 64)) - 1;
    build_summary(sel);
    sel->kind = PQT_SEL_BITS;
    sel->nsel = popcount_words(sel->words, nw);
    sel->nruns = 0;
    normalize(sel);
    return PQT_OK;
}

static int cmp_run_start(const void *pa, const void *pb)
{
    const pqt_run *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

pqt_status pqt_sel_init_runs(pqt_sel *sel, int64_t nrows, const pqt_run *runs, int64_t nruns)
{
    /* sort a copy by start, then merge overlapping and touching runs */
    pqt_run *tmp = pqt_malloc_array((size_t)(nruns > 0 ? nruns : 1), sizeof *tmp);
    if (!tmp) return oom();
    int64_t m = 0;
    for (int64_t i = 0; i < nruns; i++)
        if (runs[i].len > 0) tmp[m++] = runs[i];
    qsort(tmp, (size_t)m, sizeof *tmp, cmp_run_start);
    int64_t n = 0, cnt = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t s = tmp[i].start, e = s + tmp[i].len;
        if (n && tmp[n - 1].start + tmp[n - 1].len >= s) {
            int64_t pe = tmp[n - 1].start + tmp[n - 1].len;
            if (e > pe) tmp[n - 1].len = e - tmp[n - 1].start;
        } else {
            tmp[n++] = (pqt_run){s, e - s};
        }
    }
    for (int64_t i = 0; i < n; i++) cnt += tmp[i].len;
    pqt_mem_free(sel->runs);
    sel->runs = tmp;
    sel->runs_cap = nruns > 0 ? nruns : 1;
    sel->nruns = n;
    sel->kind = PQT_SEL_RUNS;
    sel->nrows = nrows;
    sel->nsel = cnt;
    normalize(sel);
    return PQT_OK;
}

pqt_status pqt_sel_and(pqt_sel *a, const pqt_sel *b)
{
    if (a->kind == PQT_SEL_NONE || b->kind == PQT_SEL_ALL) return PQT_OK;
    if (b->kind == PQT_SEL_NONE) {
        pqt_sel_init_none(a, a->nrows);
        return PQT_OK;
    }
    if (a->kind == PQT_SEL_ALL) return pqt_sel_copy(a, b);
    if (b->kind == PQT_SEL_RUNS) return pqt_sel_intersect_runs(a, b->runs, b->nruns);
    PQT_TRY(to_bits(a)); /* b is BITS */
    int64_t nw = nwords(a->nrows);
    for (int64_t w = 0; w < nw; w++) a->words[w] &= b->words[w];
    a->nsel = popcount_words(a->words, nw);
    build_summary(a);
    normalize(a);
    return PQT_OK;
}

pqt_status pqt_sel_or(pqt_sel *a, const pqt_sel *b)
{
    if (a->kind == PQT_SEL_ALL || b->kind == PQT_SEL_NONE) return PQT_OK;
    if (b->kind == PQT_SEL_ALL) {
        pqt_sel_init_all(a, a->nrows);
        return PQT_OK;
    }
    if (a->kind == PQT_SEL_NONE) return pqt_sel_copy(a, b);
    if (a->kind == PQT_SEL_RUNS && b->kind == PQT_SEL_RUNS) {
        /* merge-union into a fresh array, then swap in */
        pqt_run *out = pqt_malloc_array((size_t)(a->nruns + b->nruns), sizeof *out);
        if (!out) return oom();
        int64_t i = 0, j = 0, n = 0, cnt = 0;
        while (i < a->nruns || j < b->nruns) {
            pqt_run r = j >= b->nruns || (i < a->nruns && a->runs[i].start <= b->runs[j].start)
                            ? a->runs[i++]
                            : b->runs[j++];
            int64_t pe = n ? out[n - 1].start + out[n - 1].len : -1;
            if (n && pe >= r.start) {
                if (r.start + r.len > pe) out[n - 1].len = r.start + r.len - out[n - 1].start;
            } else {
                out[n++] = r;
            }
        }
        for (int64_t k = 0; k < n; k++) cnt += out[k].len;
        pqt_mem_free(a->runs);
        a->runs = out;
        a->runs_cap = a->nruns + b->nruns;
        a->nruns = n;
        a->nsel = cnt;
        normalize(a);
        return PQT_OK;
    }
    PQT_TRY(to_bits(a));
    int64_t nw = nwords(a->nrows);
    if (b->kind == PQT_SEL_RUNS) {
        for (int64_t k = 0; k < b->nruns; k++)
            set_range(a->words, b->runs[k].start, b->runs[k].start + b->runs[k].len);
    } else {
        for (int64_t w = 0; w < nw; w++) a->words[w] |= b->words[w];
    }
    a->nsel = popcount_words(a->words, nw);
    build_summary(a);
    normalize(a);
    return PQT_OK;
}

pqt_status pqt_sel_not(pqt_sel *sel)
{
    switch (sel->kind) {
    case PQT_SEL_ALL: pqt_sel_init_none(sel, sel->nrows); return PQT_OK;
    case PQT_SEL_NONE: pqt_sel_init_all(sel, sel->nrows); return PQT_OK;
    case PQT_SEL_RUNS: {
        /* the gaps between runs, plus the head and the tail */
        pqt_run *out = pqt_malloc_array((size_t)sel->nruns + 1, sizeof *out);
        if (!out) return oom();
        int64_t n = 0, at = 0;
        for (int64_t k = 0; k < sel->nruns; k++) {
            if (sel->runs[k].start > at) out[n++] = (pqt_run){at, sel->runs[k].start - at};
            at = sel->runs[k].start + sel->runs[k].len;
        }
        if (at < sel->nrows) out[n++] = (pqt_run){at, sel->nrows - at};
        pqt_mem_free(sel->runs);
        sel->runs = out;
        sel->runs_cap = sel->nruns + 1;
        sel->nruns = n;
        break;
    }
    case PQT_SEL_BITS: {
        int64_t nw = nwords(sel->nrows), nb = nblocks(sel->nrows);
        for (int64_t w = 0; w < nw; w++) sel->words[w] = ~sel->words[w];
        if (sel->nrows % 64) sel->words[nw - 1] &= (1ULL << (sel->nrows % 64)) - 1;
        for (int64_t b = 0; b < nb; b++)
            if (sel->summary[b] != 2) sel->summary[b] ^= 1; /* none <-> all, mixed stays */
        break;
    }
    }
    sel->nsel = sel->nrows - sel->nsel;
    normalize(sel);
    return PQT_OK;
}

void pqt_sel_rows(const pqt_sel *sel, int64_t *rows)
{
    int64_t n = 0;
    if (sel->kind == PQT_SEL_BITS) {
        /* set bits directly: a sparse bitmap would cost a call per row through runs */
        int64_t nw = nwords(sel->nrows);
        for (int64_t w = 0; w < nw; w++) {
            uint64_t word = sel->words[w];
            while (word) {
                rows[n++] = w * 64 + __builtin_ctzll(word);
                word &= word - 1;
            }
        }
        return;
    }
    pqt_sel_cursor cur = {0};
    int64_t s, l;
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &s, &l))
        for (int64_t i = 0; i < l; i++) rows[n++] = s + i;
}

void pqt_sel_to_bitmap(const pqt_sel *sel, uint8_t *bits)
{
    int64_t nbytes = (sel->nrows + 7) / 8;
    if (sel->kind == PQT_SEL_BITS) {
        for (int64_t k = 0; k < nbytes; k++) bits[k] = (uint8_t)(sel->words[k / 8] >> (8 * (k % 8)));
        return;
    }
    memset(bits, 0, (size_t)nbytes);
    pqt_sel_cursor cur = {0};
    int64_t s, l;
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &s, &l)) {
        pqt_bits_set_range(bits, s, l);
    }
}

static int64_t bits_count(const pqt_sel *sel, int64_t lo, int64_t hi)
{
    int64_t cnt = 0;
    while (lo < hi) {
        int64_t w = lo / 64, bit = lo % 64;
        int64_t take = 64 - bit < hi - lo ? 64 - bit : hi - lo;
        uint64_t mask = take == 64 ? ~0ULL : ((1ULL << take) - 1) << bit;
        cnt += pqt_popcount64(sel->words[w] & mask);
        lo += take;
    }
    return cnt;
}

int64_t pqt_sel_count(const pqt_sel *sel, int64_t lo, int64_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > sel->nrows) hi = sel->nrows;
    if (lo >= hi) return 0;
    switch (sel->kind) {
    case PQT_SEL_ALL: return hi - lo;
    case PQT_SEL_NONE: return 0;
    case PQT_SEL_BITS: return bits_count(sel, lo, hi);
    case PQT_SEL_RUNS: {
        pqt_sel_cursor cur;
        pqt_sel_seek(sel, &cur, lo);
        int64_t s, l, cnt = 0;
        while (pqt_sel_next_run(sel, &cur, lo, hi, &s, &l)) cnt += l;
        return cnt;
    }
    }
    return 0;
}

bool pqt_sel_any(const pqt_sel *sel, int64_t lo, int64_t hi)
{
    if (lo < 0) lo = 0;
    if (hi > sel->nrows) hi = sel->nrows;
    if (lo >= hi) return false;
    if (sel->kind == PQT_SEL_ALL) return true;
    if (sel->kind == PQT_SEL_NONE) return false;
    if (sel->kind == PQT_SEL_BITS) {
        int64_t b0 = lo / PQT_SEL_BLOCK_ROWS, b1 = (hi - 1) / PQT_SEL_BLOCK_ROWS;
        for (int64_t b = b0; b <= b1; b++) {
            if (sel->summary[b] == 0) continue;
            int64_t s = b * PQT_SEL_BLOCK_ROWS, e = s + PQT_SEL_BLOCK_ROWS;
            if (s < lo) s = lo;
            if (e > hi) e = hi;
            if (sel->summary[b] == 1 || bits_count(sel, s, e) > 0) return true;
        }
        return false;
    }
    pqt_sel_cursor cur;
    pqt_sel_seek(sel, &cur, lo);
    int64_t s, l;
    return pqt_sel_next_run(sel, &cur, lo, hi, &s, &l);
}

/* Runs of a bitmap within [lo, hi), a word at a time: a run starts at each set bit whose
 * lower neighbour is clear (or is lo). A 20%-selected row group has ~2e5 runs per 1e6 rows:
 * walking them one by one cost more than the filter that made them. */
static int64_t bits_nruns(const pqt_sel *sel, int64_t lo, int64_t hi)
{
    int64_t n = 0;
    uint64_t below = 0; /* the bit just under the current word, within [lo, hi) */
    for (int64_t w = lo / 64; w * 64 < hi; w++) {
        uint64_t word = sel->words[w];
        if (w * 64 < lo) word &= ~0ULL << (lo % 64);
        if (hi - w * 64 < 64) word &= (1ULL << (hi - w * 64)) - 1;
        n += pqt_popcount64(word & ~((word << 1) | below));
        below = word >> 63;
    }
    return n;
}

int64_t pqt_sel_nruns_in(const pqt_sel *sel, int64_t lo, int64_t hi)
{
    if (hi > sel->nrows) hi = sel->nrows;
    if (lo < 0) lo = 0;
    if (sel->kind == PQT_SEL_BITS) return lo < hi ? bits_nruns(sel, lo, hi) : 0;
    pqt_sel_cursor cur;
    pqt_sel_seek(sel, &cur, lo);
    int64_t s, l, n = 0;
    while (pqt_sel_next_run(sel, &cur, lo, hi, &s, &l)) n++;
    return n;
}

void pqt_sel_seek(const pqt_sel *sel, pqt_sel_cursor *cur, int64_t lo)
{
    if (sel->kind == PQT_SEL_RUNS) {
        /* first run whose end is beyond lo */
        int64_t a = 0, b = sel->nruns;
        while (a < b) {
            int64_t m = a + (b - a) / 2;
            if (sel->runs[m].start + sel->runs[m].len <= lo) a = m + 1;
            else b = m;
        }
        cur->pos = a;
    } else {
        cur->pos = lo < 0 ? 0 : lo;
    }
}

bool pqt_sel_next_run(const pqt_sel *sel, pqt_sel_cursor *cur, int64_t lo, int64_t hi,
                      int64_t *start_ret, int64_t *len_ret)
{
    if (hi > sel->nrows) hi = sel->nrows;
    if (lo < 0) lo = 0;
    switch (sel->kind) {
    case PQT_SEL_NONE: return false;
    case PQT_SEL_ALL:
        if (cur->pos > lo || lo >= hi) return false;
        cur->pos = hi;
        *start_ret = lo;
        *len_ret = hi - lo;
        return true;
    case PQT_SEL_RUNS:
        while (cur->pos < sel->nruns) {
            const pqt_run *r = &sel->runs[cur->pos];
            int64_t s = r->start, e = r->start + r->len;
            if (s >= hi) return false;
            cur->pos++;
            if (s < lo) s = lo;
            if (e > hi) e = hi;
            if (s < e) {
                *start_ret = s;
                *len_ret = e - s;
                return true;
            }
        }
        return false;
    case PQT_SEL_BITS: {
        int64_t r = cur->pos < lo ? lo : cur->pos;
        /* find the next set bit at or after r, skipping empty summary blocks */
        while (r < hi) {
            int64_t blk = r / PQT_SEL_BLOCK_ROWS;
            if (sel->summary[blk] == 0) {
                r = (blk + 1) * PQT_SEL_BLOCK_ROWS;
                continue;
            }
            uint64_t w = sel->words[r / 64] >> (r % 64);
            if (w == 0) {
                r = (r / 64 + 1) * 64;
                continue;
            }
            r += __builtin_ctzll(w);
            break;
        }
        if (r >= hi) {
            cur->pos = hi;
            return false;
        }
        int64_t s = r;
        /* extend over set bits */
        while (r < hi) {
            uint64_t w = ~(sel->words[r / 64] >> (r % 64));
            int64_t avail = 64 - r % 64;
            int64_t ones = w == 0 ? avail : __builtin_ctzll(w);
            if (ones > avail) ones = avail;
            r += ones;
            if (ones < avail) break;
        }
        if (r > hi) r = hi;
        cur->pos = r;
        *start_ret = s;
        *len_ret = r - s;
        return true;
    }
    }
    return false;
}
