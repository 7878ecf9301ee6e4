/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_pass.c - the filter pass: statistics, then conjuncts on decoded values, row group by
 * row group, refining each row group's selection (layer: scan; docs/pruning.md,
 * "Per row group", steps 1 and 5). Every conjunct decodes its own columns under the selection as it
 * stands when its turn comes, so all of its vectors hold the same rows and a later conjunct never
 * decodes a row an earlier one dropped. A column a later conjunct of the same row group also
 * names is kept after it is decoded, and the later conjunct compacts it to the rows still
 * selected (the selection only narrows) instead of decoding it again: each filter column is
 * decoded once per row group (docs/pruning.md, "Each column decoded once").
 */
#include <stdlib.h>
#include <string.h>

#include "scan/sample.h"
#include "scan/scan.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/par.h"

void pqt_scan_conj_order(const pqt_fprog *p, int *order)
{
    int n = pqt_scan_prog_nconj(p);
    for (int k = 0; k < n; k++) order[k] = k;
    /* insertion sort by cost, stable: the rules' own order breaks ties */
    for (int i = 1; i < n; i++) {
        int k = order[i], j = i;
        while (j > 0 && pqt_scan_conj_cost(p, order[j - 1]) > pqt_scan_conj_cost(p, k)) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
}

/* Per-thread state: the chunk reader's scratch, the evaluator's, and the batch. */
typedef struct worker {
    pqt_chunk_ctx *cx;
    pqt_scan_scratch scratch;
    pqt_colbuf *bufs; /* per slot, decoded for the current conjunct */
    void **values;    /* per slot: fixed-width values, reused across row groups (fresh
                         memory for every row group would cost a page fault per 4 KiB) */
    size_t *values_cap;
    int64_t **rowidx; /* per slot that is the row index: 1-based file rows */
    pqt_scan_vec *vecs;
    pqt_scan_stats *stats;
    uint8_t *keep_bits;
    int64_t keep_cap;
    pqt_sel base, dense; /* decode-then-filter: the rows before the conjuncts, one's verdict */
    pqt_dict_eval *evals; /* per conjunct: its dictionary's evaluation in row group eval_rg[k] */
    int *eval_rg;
    int nconj;
    bool *kept;          /* per slot: bufs[s] holds the rows of kept_sel[s], for a later conjunct */
    pqt_sel *kept_sel;   /* per slot: the selection bufs[s] was decoded under, or compacted to */
    uint8_t *keep_after; /* per slot: a conjunct after the current one needs it */
    const int *keep_of;  /* per slot: its index in ps->keep, or -1 (NULL: nothing kept) */
    const struct conj_seen *seen; /* what the conjuncts kept so far, across threads */
} worker;

static void worker_free(worker *w, int nslots)
{
    pqt_chunk_ctx_free(w->cx);
    pqt_scan_scratch_free(&w->scratch);
    if (w->bufs)
        for (int s = 0; s < nslots; s++) pqt_colbuf_free(&w->bufs[s]);
    if (w->rowidx)
        for (int s = 0; s < nslots; s++) pqt_mem_free(w->rowidx[s]);
    if (w->values)
        for (int s = 0; s < nslots; s++) pqt_mem_free(w->values[s]);
    pqt_mem_free(w->values);
    pqt_mem_free(w->values_cap);
    pqt_mem_free(w->bufs);
    pqt_mem_free(w->rowidx);
    pqt_mem_free(w->vecs);
    pqt_mem_free(w->stats);
    pqt_mem_free(w->keep_bits);
    pqt_sel_free(&w->base);
    pqt_sel_free(&w->dense);
    if (w->evals)
        for (int k = 0; k < w->nconj; k++) pqt_scan_dict_eval_free(&w->evals[k]);
    pqt_mem_free(w->evals);
    pqt_mem_free(w->eval_rg);
    if (w->kept_sel)
        for (int s = 0; s < nslots; s++)
            pqt_sel_free(&w->kept_sel[s]);
    pqt_mem_free(w->kept_sel);
    pqt_mem_free(w->kept);
    pqt_mem_free(w->keep_after);
    memset(w, 0, sizeof *w);
}

static pqt_status worker_init(worker *w, int nslots, int nconj)
{
    memset(w, 0, sizeof *w);
    w->nconj = nconj;
    w->evals = pqt_calloc((size_t)nconj + 1, sizeof *w->evals);
    w->eval_rg = pqt_malloc_array((size_t)nconj + 1, sizeof *w->eval_rg);
    if (w->eval_rg)
        for (int k = 0; k < nconj; k++) w->eval_rg[k] = -1;
    size_t n = (size_t)nslots + 1;
    w->bufs = pqt_calloc(n, sizeof *w->bufs);
    w->rowidx = pqt_calloc(n, sizeof *w->rowidx);
    w->vecs = pqt_calloc(n, sizeof *w->vecs);
    w->stats = pqt_calloc(n, sizeof *w->stats);
    w->values = pqt_calloc(n, sizeof *w->values);
    w->values_cap = pqt_calloc(n, sizeof *w->values_cap);
    w->kept = pqt_calloc(n, sizeof *w->kept);
    w->kept_sel = pqt_calloc(n, sizeof *w->kept_sel);
    w->keep_after = pqt_calloc(n, sizeof *w->keep_after);
    if (!w->bufs || !w->rowidx || !w->vecs || !w->stats || !w->values || !w->values_cap ||
        !w->evals || !w->eval_rg || !w->kept || !w->kept_sel || !w->keep_after) {
        worker_free(w, nslots);
        return pqt_err(PQT_NOMEM, "out of memory starting a filter pass");
    }
    pqt_status st = pqt_chunk_ctx_new(&w->cx);
    if (st != PQT_OK) worker_free(w, nslots);
    return st;
}

static void row_index_stats(const pqt_scan_pass *ps, int rg, pqt_scan_stats *st)
{
    memset(st, 0, sizeof *st);
    st->flags = PQT_SST_MIN | PQT_SST_MAX | PQT_SST_MIN_EXACT | PQT_SST_MAX_EXACT;
    int64_t shift = ps->ri_shift ? ps->ri_shift[rg] : 0;
    st->min.i = ps->rg_start[rg] - shift + 1;
    st->max.i = ps->rg_start[rg + 1] - shift;
    st->null_count = 0;
    st->nan_count = 0;
}

/* The 1-based file rows of the selected rows of row group rg. */
static pqt_status row_index_values(const pqt_scan_pass *ps, int rg, const pqt_sel *sel,
                                   int64_t **out)
{
    int64_t *v = pqt_malloc_array((size_t)sel->nsel + 1, sizeof *v);
    if (!v) return pqt_err(PQT_NOMEM, "out of memory for the row index of row group %d", rg + 1);
    pqt_sel_cursor cur = {0};
    int64_t start, len, k = 0, base = ps->rg_start[rg] - (ps->ri_shift ? ps->ri_shift[rg] : 0) + 1;
    while (pqt_sel_next_run(sel, &cur, 0, sel->nrows, &start, &len))
        for (int64_t r = 0; r < len; r++) v[k++] = base + start + r;
    *out = v;
    return PQT_OK;
}

/* Slot s's reusable value buffer, grown to hold nbytes (and a little slack). */
static pqt_status slot_values(worker *w, int s, size_t nbytes, const char *path, void **ret)
{
    size_t need = nbytes + 64;
    if (w->values_cap[s] < need) {
        pqt_mem_free(w->values[s]);
        w->values_cap[s] = 0;
        if (!(w->values[s] = pqt_malloc(need)))
            return pqt_err(PQT_NOMEM, "out of memory decoding column '%s'", path);
        w->values_cap[s] = need;
    }
    *ret = w->values[s];
    return PQT_OK;
}

/* ---- each column decoded once per row group (docs/pruning.md, "Each column decoded once") */

/* A slot whose decoded values can be kept and compacted: flat, fixed width or strings. */
bool pqt_scan_keepable(const pqt_col *c)
{
    return c && !c->is_list && c->max_rep == 0 &&
           (PQT_KIND_IS_BYTES(c->elem_kind) || pqt_kind_elem_nbytes(c->elem_kind) > 0);
}

static void kept_drop(worker *w, int s)
{
    if (!w->kept[s]) return;
    w->kept[s] = false;
    pqt_colbuf_free(&w->bufs[s]);
}

/* Move n rows of b from row src to row dst <= src (in place: every later move reads beyond
 * what this one writes); *dbyte: where the strings' bytes so far end. */
static void kept_move(pqt_colbuf *b, bool str, size_t width, int64_t dst, int64_t src, int64_t n,
                      int64_t *dbyte)
{
    if (str) {
        int64_t *off = b->str_offsets, lo = off[src], hi = off[src + n];
        if (hi > lo) /* no bytes at all: the buffer may be NULL */
            memmove(b->str_bytes.data + *dbyte, b->str_bytes.data + lo, (size_t)(hi - lo));
        for (int64_t j = 0; j < n; j++)
            off[dst + j] = *dbyte + (off[src + j] - lo);
        *dbyte += hi - lo;
    } else if (dst != src) {
        memmove((char *)b->data + dst * (int64_t)width, (char *)b->data + src * (int64_t)width,
                (size_t)n * width);
    }
    if (b->validity && dst != src) pqt_bits_copy(b->validity, dst, b->validity, src, n);
}

/* kept_move for a want that is a bitmap (a scattered result: runs would cost a call a row):
 * the rows of have, held in b from buffer row hbase, compacted to rows *d_io on of out (b's
 * own values, in place, or another block) by one typed loop over the set bits; the validity
 * is compacted in place. */
static void compact_by_bits(pqt_colbuf *b, size_t width, const pqt_sel *have, const pqt_sel *want,
                            int64_t hbase, int64_t *d_io, void *out)
{
    int64_t d0 = *d_io, d = d0, hs, hl, base = hbase;
    pqt_sel_cursor hc = {0};
    while (pqt_sel_next_run(have, &hc, 0, have->nrows, &hs, &hl)) {
        /* in place, a row lands at or before its own place, after it was read */
#define COMPACT_(T)                                                                                \
    {                                                                                              \
        T *x = out;                                                                                \
        const T *src = (const T *)b->data + base - hs;                                             \
        for (int64_t wi = hs >> 6; wi <= (hs + hl - 1) >> 6; wi++) {                               \
            uint64_t word = pqt_sel_word_in(want, wi, hs, hs + hl);                                \
            while (word) {                                                                         \
                x[d++] = src[(wi << 6) + __builtin_ctzll(word)];                                   \
                word &= word - 1;                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
        switch (width) {
        case 8:
            COMPACT_(uint64_t) break;
        case 4:
            COMPACT_(uint32_t) break;
        case 2:
            COMPACT_(uint16_t) break;
        default:
            COMPACT_(uint8_t) break;
        }
#undef COMPACT_
        base += hl;
    }
    uint8_t *v = b->validity;
    if (v && pqt_bits_all_set(v, hbase, have->nsel)) {
        pqt_bits_set_range(v, d0, d - d0);
    } else if (v) {
        int64_t dv = d0;
        base = hbase;
        memset(&hc, 0, sizeof hc);
        while (pqt_sel_next_run(have, &hc, 0, have->nrows, &hs, &hl)) {
            for (int64_t wi = hs >> 6; wi <= (hs + hl - 1) >> 6; wi++) {
                uint64_t word = pqt_sel_word_in(want, wi, hs, hs + hl);
                while (word) {
                    int64_t r = (wi << 6) + __builtin_ctzll(word);
                    pqt_bit_set(v, dv++, pqt_bit_get(v, base + (r - hs)));
                    word &= word - 1;
                }
            }
            base += hl;
        }
    }
    *d_io = d;
}

void pqt_scan_compact_rows(pqt_colbuf *b, const pqt_sel *have, const pqt_sel *want, int nrg)
{
    bool str = PQT_KIND_IS_BYTES(b->elem_kind);
    size_t width = pqt_kind_elem_nbytes(b->elem_kind);
    int64_t d = 0, dbyte = 0, gbase = 0; /* gbase: buffer row of row group g's first row */
    for (int g = 0; g < nrg; g++) {
        const pqt_sel *h = &have[g], *wt = &want[g];
        if (wt->nsel == h->nsel) { /* the same rows: the block moves whole */
            if (h->nsel > 0) kept_move(b, str, width, d, gbase, h->nsel, &dbyte);
            d += h->nsel;
            gbase += h->nsel;
            continue;
        }
        if (!str && wt->kind == PQT_SEL_BITS &&
            (width == 8 || width == 4 || width == 2 || width == 1)) {
            compact_by_bits(b, width, h, wt, gbase, &d, b->data);
            gbase += h->nsel;
            continue;
        }
        pqt_sel_cursor hc = {0}, wc = {0};
        int64_t hs = 0, hl = 0, hbase = gbase, ws, wl;
        bool hok = pqt_sel_next_run(h, &hc, 0, h->nrows, &hs, &hl);
        while (pqt_sel_next_run(wt, &wc, 0, wt->nrows, &ws, &wl)) {
            while (wl > 0 && hok) {
                if (ws >= hs + hl) { /* want's rows lie in a later run of have */
                    hbase += hl;
                    hok = pqt_sel_next_run(h, &hc, 0, h->nrows, &hs, &hl);
                    continue;
                }
                int64_t n = hs + hl - ws < wl ? hs + hl - ws : wl;
                kept_move(b, str, width, d, hbase + (ws - hs), n, &dbyte);
                d += n;
                ws += n;
                wl -= n;
            }
        }
        gbase += h->nsel;
    }
    if (str) b->str_offsets[d] = dbyte;
    if (b->nelem == b->nrows) b->nelem = d;
    b->nrows = d;
}

/* Slot s was kept holding the rows of kept_sel[s]: compact it in place to the rows of want,
 * which are a subset (the selection only narrows within a row group). */
static pqt_status kept_compact(worker *w, int s, const pqt_sel *want)
{
    pqt_sel *have = &w->kept_sel[s];
    if (want->nsel == have->nsel) return PQT_OK; /* the same rows */
    pqt_scan_compact_rows(&w->bufs[s], have, want, 1);
    return pqt_sel_copy(have, want);
}

/* What evaluating each conjunct on values did so far, across threads: rows in and out. */
typedef struct conj_seen {
    _Atomic int64_t in, out;
} conj_seen;

/* Whether the conjuncts measured so far keep at least half the rows they see: a column kept
 * for the payload is then decoded straight into its place (the copy of the survivors would
 * cost more than the pages it touches beyond them); before any measurement, and when fewer
 * pass, it is decoded into the thread's reused buffer and only the survivors are copied. */
static bool most_pass(const pqt_scan_pass *ps, const worker *w)
{
    double p = 1;
    bool measured = false;
    for (int k = 0; k < pqt_scan_prog_nconj(ps->prog); k++) {
        int64_t in = w->seen[k].in, out = w->seen[k].out;
        if (in <= 0) continue;
        p *= (double)out / (double)in;
        measured = true;
    }
    return measured && p >= 0.5;
}

/* Decode the slots of conjunct k for the rows sel holds into w's vectors: a slot kept from an
 * earlier conjunct is compacted to them instead; one a later conjunct needs (keep_after) is
 * kept. */
static pqt_status decode_conj(const pqt_scan_pass *ps, worker *w, int rg, int k,
                              const pqt_sel *sel)
{
    int nc = pqt_scan_conj_ncols(ps->prog, k);
    const int *slots = pqt_scan_conj_cols(ps->prog, k);
    for (int j = 0; j < nc; j++) {
        int s = slots[j];
        const pqt_col *c = ps->slot_col[s];
        if (!c) {
            PQT_TRY(row_index_values(ps, rg, sel, &w->rowidx[s]));
            w->vecs[s] = (pqt_scan_vec){w->rowidx[s], NULL, NULL};
            continue;
        }
        pqt_colbuf *b = &w->bufs[s];
        if (w->kept[s] && sel->nsel <= w->kept_sel[s].nsel) {
            PQT_TRY(kept_compact(w, s, sel));
            bool str = PQT_KIND_IS_BYTES(b->elem_kind);
            w->vecs[s] = (pqt_scan_vec){str ? (const void *)b->str_offsets : b->data,
                                        (const char *)b->str_bytes.data, b->validity};
            continue;
        }
        kept_drop(w, s); /* decoded under fewer rows than asked (decode then filter) */
        void *into = NULL;
        size_t width = pqt_kind_elem_nbytes(c->elem_kind);
        const pqt_scan_keep *kp =
            w->keep_of && w->keep_of[s] >= 0 ? &ps->keep[w->keep_of[s]] : NULL;
        if (kp && kp->values && !__atomic_load_n(&kp->given_up, __ATOMIC_RELAXED) &&
            most_pass(ps, w))
            into = (char *)kp->values + ps->keep_dst_row[rg] * (int64_t)width;
        else if (!PQT_KIND_IS_BYTES(c->elem_kind) && !c->is_list && width > 0)
            PQT_TRY(slot_values(w, s, (size_t)sel->nsel * width, c->path, &into));
        PQT_TRY(pqt_colbuf_alloc(b, c, sel->nsel, 0, into));
        pqt_chunk_src src = *ps->src;
        src.counters = ps->counters ? &ps->counters[s] : NULL;
        PQT_TRY(pqt_chunk_read(w->cx, &src, rg, c, sel, b, 0));
        bool str = PQT_KIND_IS_BYTES(b->elem_kind);
        w->vecs[s] = (pqt_scan_vec){str ? (const void *)b->str_offsets : b->data,
                                    (const char *)b->str_bytes.data, b->validity};
        if (w->keep_after[s] && pqt_scan_keepable(c)) {
            PQT_TRY(pqt_sel_copy(&w->kept_sel[s], sel));
            w->kept[s] = true;
        }
    }
    return PQT_OK;
}

/* After conjunct k: its slots are freed, but for those a later conjunct needs. */
static void release_conj(const pqt_scan_pass *ps, worker *w, int k)
{
    int nc = pqt_scan_conj_ncols(ps->prog, k);
    const int *slots = pqt_scan_conj_cols(ps->prog, k);
    for (int j = 0; j < nc; j++) {
        if (w->kept[slots[j]] && w->keep_after[slots[j]]) continue;
        w->kept[slots[j]] = false;
        pqt_colbuf_free(&w->bufs[slots[j]]);
        pqt_mem_free(w->rowidx[slots[j]]);
        w->rowidx[slots[j]] = NULL;
    }
}

static pqt_status keep_room(worker *w, int64_t n)
{
    if (n <= w->keep_cap) return PQT_OK;
    pqt_mem_free(w->keep_bits);
    w->keep_bits = pqt_malloc((size_t)(n + 7) / 8 + 8);
    w->keep_cap = w->keep_bits ? n : 0;
    if (!w->keep_cap) return pqt_err(PQT_NOMEM, "out of memory for a selection of %lld rows",
                                     (long long)n);
    return PQT_OK;
}

/* A flat column whose chunk in rg says it is dictionary encoded (some page at least). */
static bool dict_encoded(const pqt_scan_pass *ps, const pqt_col *c, int rg)
{
    if (!c || c->is_list || c->max_rep > 0) return false;
    const pqt_column_meta *cm = &ps->src->meta->row_groups[rg].columns[c->chunk_col].meta;
    for (int i = 0; i < cm->n_encodings; i++)
        if (cm->encodings[i] == PQT_ENC_PLAIN_DICTIONARY || cm->encodings[i] == PQT_ENC_RLE_DICTIONARY)
            return true;
    return false;
}

/* A string column whose chunk says it is dictionary encoded. */
static bool dict_encoded_string(const pqt_scan_pass *ps, const pqt_col *c, int rg)
{
    return c && PQT_KIND_IS_BYTES(c->elem_kind) && c->conv == PQT_CONV_NONE && dict_encoded(ps, c, rg);
}

/* Conjunct k's dictionary evaluation in row group rg, kept for its codes (NULL: none). */
static pqt_dict_eval *cached_eval(worker *w, int rg, int k)
{
    return w->eval_rg[k] == rg && w->evals[k].ok ? &w->evals[k] : NULL;
}

static void keep_eval(worker *w, int rg, int k, pqt_dict_eval *e)
{
    pqt_scan_dict_eval_free(&w->evals[k]);
    w->evals[k] = *e;
    w->eval_rg[k] = e->ok ? rg : -1;
    memset(e, 0, sizeof *e);
}

/* Conjunct k on another dictionary-encoded column whose dictionary refutes it (no entry, nor
 * a null, passes) where encoding_stats could not prove the row group: its codes are read with
 * the dictionary-encoded pages refuted, so none is decompressed; when that read holds only
 * refuted rows (every page was dictionary encoded) no row passes and *done is set. Anything
 * else -- a PLAIN page, a second dictionary, any failure -- leaves *done false and the
 * conjunct to the values, which also report any error. */
static void apply_conj_refuted(const pqt_scan_pass *ps, worker *w, int rg, int k, pqt_sel *sel,
                               bool *done)
{
    *done = false;
    int s = pqt_scan_conj_cols(ps->prog, k)[0];
    const pqt_col *c = ps->slot_col[s];
    if ((ps->pushdown_off & PQT_PD_DICTIONARY) || !dict_encoded(ps, c, rg) ||
        pqt_scan_chunk_all_dict(&ps->src->meta->row_groups[rg].columns[c->chunk_col].meta))
        return;
    pqt_err_mute();
    pqt_dict_eval de = {0};
    pqt_status st = pqt_scan_dict_eval(ps, w->cx, rg, k, &de);
    pqt_colbuf *b = &w->bufs[s];
    bool read = false;
    if (st == PQT_OK && de.ok && de.npass == 0 && !de.null_passes) {
        pqt_col codes_col = *c;
        codes_col.kind = codes_col.elem_kind = PQT_INT32;
        codes_col.conv = PQT_CONV_NONE;
        int64_t n = sel->nsel;
        void *into = NULL;
        st = slot_values(w, s, (size_t)n * 4, c->path, &into);
        if (st == PQT_OK) st = pqt_colbuf_alloc(b, &codes_col, n, 0, into);
        if (st == PQT_OK) {
            read = true;
            pqt_chunk_src src = *ps->src;
            src.counters = ps->counters ? &ps->counters[s] : NULL;
            pqt_chunk_ctx_set_dict_refuted(w->cx, true);
            pqt_chunk_ctx_set_codes(w->cx, true);
            st = pqt_chunk_read(w->cx, &src, rg, &codes_col, sel, b, 0);
            pqt_chunk_ctx_set_codes(w->cx, false);
            pqt_chunk_ctx_set_dict_refuted(w->cx, false);
        }
        if (st == PQT_OK) {
            const uint32_t *codes = b->data;
            bool all = true;
            for (int64_t i = 0; i < n && all; i++)
                all = codes[i] == PQT_CODE_REFUTED || !pqt_bit_get(b->validity, i);
            if (all) {
                pqt_sel_init_none(sel, sel->nrows);
                *done = true;
            }
        }
    }
    if (read) pqt_colbuf_free(b);
    pqt_scan_dict_eval_free(&de);
    pqt_err_unmute();
}

/* docs/pruning.md, step 4: a one-column conjunct on a dictionary-encoded string chunk is
 * evaluated once per dictionary entry (plus once for null), then each row tests its code's
 * bit: no string of the rows is materialized. PQT_UNSUPPORTED_ENCODING when a page turns
 * out not to be dictionary encoded (the caller then reads values). */
static pqt_status apply_conj_codes(const pqt_scan_pass *ps, worker *w, int rg, int k, pqt_sel *sel,
                                   int64_t *nkeep_ret)
{
    int s = pqt_scan_conj_cols(ps->prog, k)[0];
    pqt_col codes_col = *ps->slot_col[s];
    codes_col.kind = codes_col.elem_kind = PQT_INT32;
    int64_t n = sel->nsel;
    void *into = NULL;
    PQT_TRY(slot_values(w, s, (size_t)n * 4, codes_col.path, &into));
    pqt_colbuf *b = &w->bufs[s];
    PQT_TRY(pqt_colbuf_alloc(b, &codes_col, n, 0, into));
    pqt_chunk_src src = *ps->src;
    src.counters = ps->counters ? &ps->counters[s] : NULL;
    /* No entry passing (nor a null) refutes every dictionary-encoded page: those are then
     * not decompressed (docs/pruning.md, step 4). Needed where encoding_stats cannot prove
     * the whole chunk (absent, as DuckDB and Polars write files); where they can, the proof
     * already found a passing entry or null. */
    pqt_status st = PQT_OK;
    const pqt_column_meta *cm = &ps->src->meta->row_groups[rg].columns[codes_col.chunk_col].meta;
    pqt_dict_eval *de = cached_eval(w, rg, k);
    bool refuted = false;
    if (!de && !(ps->pushdown_off & PQT_PD_DICTIONARY) && !pqt_scan_chunk_all_dict(cm)) {
        pqt_dict_eval e = {0};
        st = pqt_scan_dict_eval(ps, w->cx, rg, k, &e);
        keep_eval(w, rg, k, &e);
        de = cached_eval(w, rg, k);
        refuted = de && de->npass == 0 && !de->null_passes;
    }
    if (st != PQT_OK) {
        pqt_colbuf_free(b);
        return st;
    }
    pqt_chunk_ctx_set_dict_refuted(w->cx, refuted);
    pqt_chunk_ctx_set_codes(w->cx, true);
    st = pqt_chunk_read(w->cx, &src, rg, &codes_col, sel, b, 0);
    pqt_chunk_ctx_set_codes(w->cx, false);
    pqt_chunk_ctx_set_dict_refuted(w->cx, false);
    const pqt_dict *d = pqt_chunk_ctx_dict(w->cx);
    if (st == PQT_OK && !d) st = pqt_err(PQT_UNSUPPORTED_ENCODING, "no dictionary");
    if (st != PQT_OK) {
        pqt_colbuf_free(b);
        return st;
    }
    /* the entries, then one null entry (code dn) for the rows without a value */
    int64_t dn = d->n;
    uint8_t *dvalid = pqt_malloc((size_t)(dn + 1) / 8 + 9);
    uint8_t *dkeep = pqt_malloc((size_t)(dn + 1) / 8 + 9);
    int64_t *doff = pqt_malloc_array((size_t)dn + 2, sizeof *doff);
    if (!dvalid || !dkeep || !doff) st = pqt_err(PQT_NOMEM, "out of memory evaluating a dictionary");
    if (st == PQT_OK && de && de->nentries == dn) {
        /* the dictionary was evaluated already (proof or refutation): its verdicts, then null's */
        memcpy(dkeep, de->keep, (size_t)(dn + 7) / 8);
        pqt_bit_set(dkeep, dn, de->null_passes);
    } else if (st == PQT_OK) {
        memset(dvalid, 0xff, (size_t)(dn + 1) / 8 + 9);
        pqt_bit_set(dvalid, dn, false);
        memcpy(doff, d->offsets, (size_t)(dn + 1) * sizeof *doff);
        doff[dn + 1] = doff[dn];
        w->vecs[s] = (pqt_scan_vec){doff, (const char *)d->values.data, dvalid};
        st = pqt_scan_conj_eval(ps->prog, k, w->vecs, dn + 1, NULL, dkeep, NULL, &w->scratch);
    }
    if (st == PQT_OK) {
        uint8_t *lut = pqt_malloc((size_t)dn + 2);
        if (!lut) st = pqt_err(PQT_NOMEM, "out of memory evaluating a dictionary");
        else
            *nkeep_ret = pqt_scan_codes_verdict(b->data, b->validity, n, dkeep, dn,
                                                pqt_bit_get(dkeep, dn), lut, w->keep_bits);
        pqt_mem_free(lut);
    }
    pqt_mem_free(dvalid);
    pqt_mem_free(dkeep);
    pqt_mem_free(doff);
    pqt_colbuf_free(b);
    return st;
}

/* Evaluate conjunct k over the rows sel holds and narrow sel to those passing. */
static pqt_status apply_conj(const pqt_scan_pass *ps, worker *w, int rg, int k, pqt_sel *sel)
{
    int64_t n = sel->nsel;
    pqt_status st = keep_room(w, n);
    /* a column kept from an earlier conjunct is served from its values: the codes and the
     * refutation below would read it again, into the same buffer */
    bool one =
        pqt_scan_conj_ncols(ps->prog, k) == 1 && !w->kept[pqt_scan_conj_cols(ps->prog, k)[0]];
    if (st == PQT_OK && one && !pqt_scan_conj_is_callback(ps->prog, k) &&
        dict_encoded_string(ps, ps->slot_col[pqt_scan_conj_cols(ps->prog, k)[0]], rg)) {
        int64_t nkeep = 0;
        pqt_err_mute();
        st = apply_conj_codes(ps, w, rg, k, sel, &nkeep);
        pqt_err_unmute();
        if (st == PQT_OK) return nkeep < n ? pqt_sel_refine_bits(sel, w->keep_bits) : PQT_OK;
        if (st != PQT_UNSUPPORTED_ENCODING && st != PQT_RANGE)
            return apply_conj_codes(ps, w, rg, k, sel, &nkeep);
        /* a page fell back to plain values, or a computed conjunct overflowed on an entry no
         * row may use: evaluate on values */
        st = PQT_OK;
    } else if (st == PQT_OK && one && !pqt_scan_conj_is_callback(ps->prog, k)) {
        bool done = false;
        apply_conj_refuted(ps, w, rg, k, sel, &done);
        if (done) return PQT_OK;
    }
    if (st == PQT_OK) st = decode_conj(ps, w, rg, k, sel);
    int64_t nkeep = 0;
    if (st == PQT_OK)
        st = pqt_scan_conj_eval(ps->prog, k, w->vecs, n, NULL, w->keep_bits, &nkeep, &w->scratch);
    if (st == PQT_OK && nkeep < n) st = pqt_sel_refine_bits(sel, w->keep_bits);
    release_conj(ps, w, k);
    return st;
}

/* A selection keeping at least this share of the rows the conjuncts started from is dense:
 * decoding a column under it costs a gather per page, more than decoding every row and
 * evaluating them all (docs/pruning.md, "Decode then filter"; arrow-rs #9415 finds plain
 * materialization wins from 30-50% kept for payload, a filter column needs denser). */
#define DENSE_NUM 9
#define DENSE_DEN 10

static bool is_dense(const pqt_sel *sel, const pqt_sel *base)
{
    return sel->kind == PQT_SEL_BITS && sel->nsel * DENSE_DEN >= base->nsel * DENSE_NUM;
}

/* Conjunct k evaluated on every row of base (not only the alive ones), its verdict ANDed
 * into sel: the decode-then-filter fallback for a dense selection. */
static pqt_status apply_conj_dense(const pqt_scan_pass *ps, worker *w, int rg, int k,
                                   pqt_sel *sel)
{
    PQT_TRY(pqt_sel_copy(&w->dense, &w->base));
    PQT_TRY(apply_conj(ps, w, rg, k, &w->dense));
    return pqt_sel_and(sel, &w->dense);
}

/* This row group's order: by rows removed per unit of cost, measured on the row groups done
 * so far (docs/pruning.md, "Conjunct order"); an unmeasured conjunct counts
 * as keeping half its rows. Ties keep the cost order, so the first row groups use it. */
static void adapt_order(const pqt_fprog *p, const int *base, const conj_seen *seen, int *order)
{
    int n = pqt_scan_prog_nconj(p);
    double score[64];
    if (n > 64) {
        memcpy(order, base, (size_t)n * sizeof *order);
        return;
    }
    for (int i = 0; i < n; i++) {
        int k = base[i];
        int64_t in = seen[k].in, out = seen[k].out;
        double pass = in > 0 ? (double)out / (double)in : 0.5;
        score[k] = (1.0 - pass) / (double)(pqt_scan_conj_cost(p, k) > 0 ? pqt_scan_conj_cost(p, k) : 1);
        int j = i;
        while (j > 0 && score[order[j - 1]] < score[k]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
}

/* Row group refuted by conjunct k through mechanism `what`. */
static void refute(pqt_sel *sel, pqt_rg_verdict *v, int what, int k)
{
    pqt_sel_init_none(sel, sel->nrows);
    v->what = what;
    v->by_conj = k;
    v->rows_out = 0;
}

/* Steps 1-4 of docs/pruning.md for the conjuncts statistics left: bloom filters and the
 * dictionary refute or accept a conjunct without reading a data page, the page index narrows
 * the rows to decode. Returns with v->what set when the row group was refuted. */
static pqt_status prove_aux(const pqt_scan_pass *ps, worker *w, int rg, const int *base,
                            bool *alive, int *nalive, pqt_sel *sel, pqt_rg_verdict *v)
{
    int nconj = pqt_scan_prog_nconj(ps->prog);
    unsigned off = ps->pushdown_off;
    for (int i = 0; i < nconj; i++) {
        int k = base[i];
        if (!alive[k] || pqt_scan_conj_is_callback(ps->prog, k)) continue;
        pqt_tri t = PQT_TRI_SOME;
        if (!(off & PQT_PD_BLOOM)) PQT_TRY(pqt_scan_bloom_prove(ps, rg, k, &t, &v->blooms_read));
        if (t == PQT_TRI_NONE) {
            refute(sel, v, PQT_RG_PRUNED_BLOOM, k);
            return PQT_OK;
        }
        if (!(off & PQT_PD_PAGE_INDEX)) {
            PQT_TRY(pqt_scan_page_index_prune(ps, rg, k, sel, &v->pages_pruned));
            if (sel->nsel == 0) {
                refute(sel, v, PQT_RG_PRUNED_INDEX, k);
                return PQT_OK;
            }
        }
        if (!(off & PQT_PD_DICTIONARY)) {
            pqt_dict_eval e;
            PQT_TRY(pqt_scan_dict_prove(ps, w->cx, rg, k, &t, &e));
            keep_eval(w, rg, k, &e);
        }
        if (t == PQT_TRI_NONE) {
            refute(sel, v, PQT_RG_PRUNED_DICT, k);
            return PQT_OK;
        }
        if (t == PQT_TRI_ALL) {
            v->dict_all = true;
            alive[k] = false;
            (*nalive)--;
        }
    }
    return PQT_OK;
}

/* keep_after for the conjunct at position i of order: the slots an alive conjunct after it
 * names. */
static void set_keep_after(const pqt_scan_pass *ps, worker *w, const int *order, const bool *alive,
                           int i)
{
    int nslots = pqt_scan_prog_ncols(ps->prog), nconj = pqt_scan_prog_nconj(ps->prog);
    for (int s = 0; s < nslots; s++)
        w->keep_after[s] = 0;
    for (int j = i + 1; j < nconj; j++) {
        int k = order[j];
        if (!alive[k]) continue;
        int nc = pqt_scan_conj_ncols(ps->prog, k);
        const int *slots = pqt_scan_conj_cols(ps->prog, k);
        for (int c = 0; c < nc; c++)
            w->keep_after[slots[c]] = 1;
    }
    for (int k = 0; w->keep_of && k < ps->nkeep; k++) /* kept for the payload, to the end */
        w->keep_after[ps->keep[k].slot] = 1;
}

static pqt_status filter_row_group_in(const pqt_scan_pass *ps, worker *w, const int *base,
                                      conj_seen *seen, bool *alive, int *order, int rg,
                                      pqt_sel *sel, pqt_rg_verdict *v)
{
    memset(v, 0, sizeof *v);
    if (sel->nsel == 0) return PQT_OK;
    v->rows_in = sel->nsel;
    int nslots = pqt_scan_prog_ncols(ps->prog), nconj = pqt_scan_prog_nconj(ps->prog);
    int64_t rg_rows = ps->rg_start[rg + 1] - ps->rg_start[rg];
    bool use_stats = !(ps->pushdown_off & PQT_PD_STATS);
    for (int s = 0; s < nslots && use_stats; s++) {
        if (ps->slot_col[s]) pqt_scan_chunk_stats(ps->src->meta, ps->slot_col[s], rg, &w->stats[s]);
        else row_index_stats(ps, rg, &w->stats[s]);
    }
    int nalive = 0;
    for (int i = 0; i < nconj; i++) {
        int k = base[i];
        pqt_tri t = use_stats ? pqt_scan_conj_prove(ps->prog, k, w->stats, rg_rows) : PQT_TRI_SOME;
        if (t == PQT_TRI_NONE) {
            refute(sel, v, PQT_RG_PRUNED, k);
            return PQT_OK;
        }
        alive[k] = t != PQT_TRI_ALL;
        nalive += alive[k];
    }
    pqt_status st = prove_aux(ps, w, rg, base, alive, &nalive, sel, v);
    if (st != PQT_OK) {
        pqt_err_prefix("row group %d: ", rg + 1);
        return st;
    }
    if (v->what != PQT_RG_UNCOVERED) return PQT_OK;
    if (nalive == 0) {
        v->what = PQT_RG_ALL;
        v->rows_out = sel->nsel;
        return PQT_OK;
    }
    v->what = PQT_RG_FILTERED;
    bool adaptive = !(ps->pushdown_off & PQT_PD_ADAPTIVE), dense_used = false;
    if (adaptive) adapt_order(ps->prog, base, seen, order);
    else memcpy(order, base, (size_t)nconj * sizeof *order);
    if (adaptive) st = pqt_sel_copy(&w->base, sel);
    for (int i = 0; st == PQT_OK && i < nconj && sel->nsel > 0; i++) {
        int k = order[i];
        if (!alive[k]) continue;
        int64_t before = sel->nsel;
        bool dense = adaptive && !pqt_scan_conj_is_callback(ps->prog, k) && is_dense(sel, &w->base);
        dense_used |= dense;
        set_keep_after(ps, w, order, alive, i);
        st = dense ? apply_conj_dense(ps, w, rg, k, sel) : apply_conj(ps, w, rg, k, sel);
        if (st != PQT_OK) {
            pqt_err_prefix("row group %d: ", rg + 1);
            return st;
        }
        seen[k].in += before;
        seen[k].out += sel->nsel;
        if (v->nconj_read < PQT_RG_ORDER_MAX) v->order[v->nconj_read] = k;
        v->nconj_read++;
    }
    if (st != PQT_OK) {
        pqt_err_prefix("row group %d: ", rg + 1);
        return st;
    }
    v->rows_out = sel->nsel;
    v->sel_kind = dense_used                ? PQT_SELK_DECODE_THEN_FILTER
                  : sel->kind == PQT_SEL_BITS ? PQT_SELK_BITMAP
                  : sel->nsel > 0           ? PQT_SELK_RUNS
                                            : PQT_SELK_NONE;
    return PQT_OK;
}

/* ---- a limit stops the pass (docs/pruning.md, "A limit stops the pass") ----
 * Row groups finish in any order; the frontier walks them in file order as they finish and
 * sums the rows each contributes, so the row group the limit is reached in (stop) is known
 * only once every row group before it is done. A worker does not start a row group after
 * stop; one started before stop was known is dropped afterwards. */
typedef struct limit_state {
    int64_t want;     /* rows to find */
    int64_t found;    /* in the row groups before frontier */
    int frontier;     /* the first row group not known done, in file order */
    _Atomic int stop; /* the row group the limit was reached in; nrg while not (-1: limit 0) */
    uint8_t *done;    /* per row group: filtered (or nothing to filter) */
    int64_t *count;   /* per row group: rows toward the limit */
} limit_state;

/* The rows of sel (row group rg) that count toward the limit: with a sample, those it keeps. */
static pqt_status limit_count(const pqt_scan_pass *ps, int rg, const pqt_sel *sel, int64_t *ret)
{
    *ret = sel->nsel;
    if (!ps->sampled || sel->nsel == 0 || ps->sample_fraction >= 1) return PQT_OK;
    if (ps->sample_fraction <= 0 || ps->sample_seed <= 0) {
        *ret = 0; /* a fraction of 0 keeps nothing */
        return PQT_OK;
    }
    /* the sample pass on a copy: the same rule the open applies after the filter */
    pqt_sel copy;
    memset(&copy, 0, sizeof copy);
    pqt_status st = pqt_sel_copy(&copy, sel);
    if (st == PQT_OK)
        st = pqt_scan_sample(&copy, 1, &ps->rg_start[rg], ps->sample_fraction, ps->sample_seed, 1);
    if (st == PQT_OK) *ret = copy.nsel;
    pqt_sel_free(&copy);
    return st;
}

/* Row group rg done with count rows toward the limit; walk the frontier. Caller holds the
 * lock (or is alone). */
static void limit_advance(limit_state *ls, int nrg, int rg, int64_t count)
{
    if (rg >= 0) {
        ls->done[rg] = 1;
        ls->count[rg] = count;
    }
    while (ls->frontier < nrg && ls->done[ls->frontier] && atomic_load(&ls->stop) == nrg) {
        ls->found += ls->count[ls->frontier];
        if (ls->found >= ls->want) atomic_store(&ls->stop, ls->frontier);
        ls->frontier++;
    }
}

static void limit_note(const pqt_scan_pass *ps, limit_state *ls, int rg, int64_t count)
{
#pragma omp critical(pqt_scan_limit)
    limit_advance(ls, ps->nrg, rg, count);
}

static pqt_status limit_init(const pqt_scan_pass *ps, const pqt_sel *sels, limit_state *ls)
{
    memset(ls, 0, sizeof *ls);
    ls->want = ps->limit_plus1 - 1;
    atomic_init(&ls->stop, ls->want <= 0 ? -1 : ps->nrg);
    ls->done = pqt_calloc((size_t)ps->nrg + 1, 1);
    ls->count = pqt_calloc((size_t)ps->nrg + 1, sizeof *ls->count);
    if (!ls->done || !ls->count) {
        pqt_mem_free(ls->done);
        pqt_mem_free(ls->count);
        return pqt_err(PQT_NOMEM, "out of memory starting a filter pass");
    }
    for (int rg = 0; rg < ps->nrg; rg++)
        ls->done[rg] = sels[rg].nsel == 0;
    limit_advance(ls, ps->nrg, -1, 0);
    return PQT_OK;
}

/* After the pass: the row groups after stop keep nothing, whatever a worker read ahead. */
static void limit_finish(const pqt_scan_pass *ps, limit_state *ls, pqt_sel *sels,
                         pqt_rg_verdict *verdicts)
{
    for (int rg = atomic_load(&ls->stop) + 1; rg < ps->nrg; rg++) {
        pqt_rg_verdict *v = &verdicts[rg];
        int64_t in = v->rows_in; /* set before the pass: 0 outside the slice */
        if (in == 0) continue;
        /* statistics alone read nothing; anything else read the file */
        bool ahead = v->what != PQT_RG_UNCOVERED && v->what != PQT_RG_PRUNED &&
                     !(v->what == PQT_RG_ALL && !v->dict_all);
        memset(v, 0, sizeof *v);
        v->what = PQT_RG_LIMIT;
        v->rows_in = in;
        v->read_ahead = ahead;
        pqt_sel_init_none(&sels[rg], sels[rg].nrows);
    }
    pqt_mem_free(ls->done);
    pqt_mem_free(ls->count);
}

/* The columns kept for the payload, at the end of row group rg: compacted to its final
 * selection sel and handed out as its pieces (scan.h). Never fails: a piece that cannot be
 * made is left not ok, and the column is read again later. */
static void hand_out(const pqt_scan_pass *ps, worker *w, int rg, const pqt_sel *sel)
{
    /* Where fewer than half the rows pass, the survivors are not copied out: the copy would
     * cost every filtered open (W4 measured +12-17%), also when the column is never read
     * again. A column is kept only when every row group kept it, so one such row group
     * gives it up for all (given_up: no more copies for it). */
    bool most = most_pass(ps, w);
    for (int k = 0; k < ps->nkeep; k++) {
        int s = ps->keep[k].slot;
        pqt_scan_keep_piece *pc = &ps->keep[k].pieces[rg];
        pqt_scan_keep_piece_free(pc);
        if (sel->nsel == 0) {
            pc->ok = true;
            continue;
        }
        /* not decoded as values here (or strings in memory the buffer does not own) */
        if (!w->kept[s] || w->bufs[s].str_bytes.fixed ||
            __atomic_load_n(&ps->keep[k].given_up, __ATOMIC_RELAXED))
            continue;
        pqt_colbuf *b = &w->bufs[s];
        int64_t n = sel->nsel;
        bool in_place = ps->keep[k].values &&
                        (char *)b->data == (char *)ps->keep[k].values +
                                               ps->keep_dst_row[rg] * (int64_t)b->elem_nbytes;
        if (!most && !in_place) {
            __atomic_store_n(&ps->keep[k].given_up, 1, __ATOMIC_RELAXED);
            continue;
        }
        char *to = ps->keep[k].values
                       ? (char *)ps->keep[k].values + ps->keep_dst_row[rg] * (int64_t)b->elem_nbytes
                       : NULL;
        size_t width = b->elem_nbytes;
        pqt_status st = PQT_OK;
        if (to && (char *)b->data != to && sel->kind == PQT_SEL_BITS && width >= 1 && width <= 8 &&
            (width & (width - 1)) == 0 && n < w->kept_sel[s].nsel) {
            /* scattered survivors in the thread's buffer: gathered straight to their place */
            int64_t d = 0;
            compact_by_bits(b, width, &w->kept_sel[s], sel, 0, &d, to);
            b->nrows = b->nelem = d;
        } else {
            pqt_err_mute();
            st = kept_compact(w, s, sel);
            pqt_err_unmute();
            if (st == PQT_OK && to && (char *)b->data != to) memcpy(to, b->data, (size_t)n * width);
        }
        if (st != PQT_OK) continue;
        if (!to) {
            pc->str_offsets = b->str_offsets;
            pc->str_bytes = b->str_bytes;
            b->str_offsets = NULL;
            memset(&b->str_bytes, 0, sizeof b->str_bytes);
        }
        pc->validity = b->validity;
        b->validity = NULL;
        pc->nrows = n;
        pc->ok = true;
    }
}

void pqt_scan_keep_piece_free(pqt_scan_keep_piece *p)
{
    pqt_mem_free(p->validity);
    pqt_mem_free(p->str_offsets);
    pqt_buf_free(&p->str_bytes);
    memset(p, 0, sizeof *p);
}

/* One row group; the columns kept for later conjuncts go at its end, whatever happened. */
static pqt_status filter_row_group(const pqt_scan_pass *ps, worker *w, const int *base,
                                   conj_seen *seen, bool *alive, int *order, int rg, pqt_sel *sel,
                                   pqt_rg_verdict *v)
{
    pqt_status st = filter_row_group_in(ps, w, base, seen, alive, order, rg, sel, v);
    if (st == PQT_OK && w->keep_of) hand_out(ps, w, rg, sel);
    int nslots = pqt_scan_prog_ncols(ps->prog);
    for (int s = 0; s < nslots; s++) {
        kept_drop(w, s);
        w->keep_after[s] = 0;
    }
    return st;
}

/* Before the pass, over a remote source: the small structures the pass reads per row group
 * (page indexes, dictionary pages) of the row groups the statistics leave in, announced at
 * once, so they travel in a few coalesced requests in flight rather than one round trip each
 * (docs/remote.md). Data pages are not announced: the pass may prune them. */
static void hint_remote(const pqt_scan_pass *ps, const pqt_sel *sels)
{
    pqt_io *io = ps->src->io;
    int nslots = pqt_scan_prog_ncols(ps->prog), nconj = pqt_scan_prog_nconj(ps->prog);
    if (!io->ops || ps->src->members || nslots == 0) return;
    pqt_scan_stats *stats = pqt_calloc((size_t)nslots, sizeof *stats);
    pqt_io_range *r = NULL;
    int n = 0, cap = 0;
    bool use_stats = !(ps->pushdown_off & PQT_PD_STATS);
    for (int rg = 0; stats && rg < ps->nrg; rg++) {
        if (sels[rg].nsel == 0) continue;
        int64_t rg_rows = ps->rg_start[rg + 1] - ps->rg_start[rg];
        for (int s = 0; s < nslots && use_stats; s++) {
            if (ps->slot_col[s]) pqt_scan_chunk_stats(ps->src->meta, ps->slot_col[s], rg, &stats[s]);
            else row_index_stats(ps, rg, &stats[s]);
        }
        bool refuted = false;
        for (int k = 0; k < nconj && use_stats && !refuted; k++)
            refuted = pqt_scan_conj_prove(ps->prog, k, stats, rg_rows) == PQT_TRI_NONE;
        for (int s = 0; s < nslots && !refuted; s++) {
            if (!ps->slot_col[s]) continue;
            const pqt_column_chunk *cc = &ps->src->meta->row_groups[rg].columns[ps->slot_col[s]->chunk_col];
            pqt_io_range add[3];
            int na = 0;
            if (!(ps->pushdown_off & PQT_PD_PAGE_INDEX)) {
                if (cc->has_column_index)
                    add[na++] = (pqt_io_range){cc->column_index_offset, cc->column_index_length};
                if (cc->has_offset_index)
                    add[na++] = (pqt_io_range){cc->offset_index_offset, cc->offset_index_length};
            }
            const pqt_column_meta *cm = &cc->meta;
            if (!(ps->pushdown_off & PQT_PD_DICTIONARY) && cc->has_meta &&
                cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
                cm->data_page_offset > cm->dictionary_page_offset) {
                /* a dictionary page's header is read first, 256 bytes at most */
                int64_t len = cm->data_page_offset - cm->dictionary_page_offset;
                add[na++] = (pqt_io_range){cm->dictionary_page_offset, len > 256 ? len : 256};
            }
            for (int i = 0; i < na; i++) {
                if (n == cap) {
                    int c2 = cap ? 2 * cap : 64;
                    pqt_io_range *g = pqt_realloc(r, (size_t)c2 * sizeof *g);
                    if (!g) goto done;
                    r = g;
                    cap = c2;
                }
                r[n++] = add[i];
            }
        }
    }
    /* ranges past the file's end are the reads' to report: the source refuses them here */
    for (int i = 0; i < n; i++)
        if (r[i].offset < 0 || r[i].n <= 0 || r[i].offset > io->size - r[i].n) r[i].n = 0;
    pqt_io_will_read(io, r, n);
done:
    pqt_mem_free(r);
    pqt_mem_free(stats);
}

pqt_status pqt_scan_filter(const pqt_scan_pass *ps, pqt_sel *sels, pqt_rg_verdict *verdicts)
{
    int nconj = pqt_scan_prog_nconj(ps->prog), nslots = pqt_scan_prog_ncols(ps->prog);
    for (int rg = 0; rg < ps->nrg; rg++) {
        memset(&verdicts[rg], 0, sizeof verdicts[rg]);
        verdicts[rg].rows_in = verdicts[rg].rows_out = sels[rg].nsel;
    }
    if (nconj == 0 && ps->limit_plus1 <= 0) return PQT_OK;
    limit_state lim_store, *lim = NULL;
    if (ps->limit_plus1 > 0) {
        PQT_TRY(limit_init(ps, sels, &lim_store));
        lim = &lim_store;
    }
    int *order = pqt_malloc_array((size_t)nconj + 1, sizeof *order);
    conj_seen *seen = pqt_calloc((size_t)nconj + 1, sizeof *seen);
    if (!order || !seen) {
        pqt_mem_free(order);
        pqt_mem_free(seen);
        if (lim) limit_finish(ps, lim, sels, verdicts);
        return pqt_err(PQT_NOMEM, "out of memory ordering a filter");
    }
    pqt_scan_conj_order(ps->prog, order);
    hint_remote(ps, sels);
    int *keep_of = NULL;
    if (ps->nkeep > 0) {
        if (!(keep_of = pqt_malloc_array((size_t)nslots + 1, sizeof *keep_of))) {
            pqt_mem_free(order);
            pqt_mem_free(seen);
            if (lim) limit_finish(ps, lim, sels, verdicts);
            return pqt_err(PQT_NOMEM, "out of memory starting a filter pass");
        }
        for (int s = 0; s < nslots; s++)
            keep_of[s] = -1;
        for (int k = 0; k < ps->nkeep; k++)
            keep_of[ps->keep[k].slot] = k;
    }
    int nwork = 0;
    for (int rg = 0; rg < ps->nrg; rg++) nwork += sels[rg].nsel > 0;
    int threads = pqt_par_threads_for(ps->threads, nwork);
    pqt_par_fail fail; /* the lowest row group that failed reports (a worker's start: -1) */
    pqt_par_fail_init(&fail);
#pragma omp parallel num_threads(threads)
    {
        worker w;
        pqt_par_thread th;
        pqt_par_enter(&th);
        bool *alive = pqt_calloc((size_t)nconj + 1, sizeof *alive);
        int *my_order = alive ? pqt_calloc((size_t)nconj + 1, sizeof *my_order) : NULL;
        if (!my_order) {
            pqt_mem_free(alive);
            alive = NULL;
        }
        pqt_status my_st = alive ? worker_init(&w, nslots, nconj)
                                 : pqt_err(PQT_NOMEM, "out of memory starting a filter pass");
        bool ready = my_st == PQT_OK;
        if (ready) {
            w.keep_of = keep_of;
            w.seen = seen;
        }
        pqt_par_fail_note(&fail, -1, my_st, &th); /* a worker that could not start */
        /* monotonic: row groups are handed out in file order, so a limit's row groups come
         * first and little is read ahead of it (correctness does not depend on it) */
#pragma omp for schedule(monotonic : dynamic, 1)
        for (int rg = 0; rg < ps->nrg; rg++) {
            if (!ready || sels[rg].nsel == 0 || pqt_par_skip(&fail, rg)) continue;
            if (lim && rg > atomic_load(&lim->stop)) continue; /* past the limit */
            pqt_status st = filter_row_group(ps, &w, order, seen, alive, my_order, rg, &sels[rg],
                                             &verdicts[rg]);
            int64_t count = 0;
            if (st == PQT_OK && lim) st = limit_count(ps, rg, &sels[rg], &count);
            if (st == PQT_OK && lim) limit_note(ps, lim, rg, count);
            pqt_par_fail_note(&fail, rg, st, &th);
        }
        pqt_par_leave(&th);
        if (ready) worker_free(&w, nslots);
        pqt_mem_free(alive);
        pqt_mem_free(my_order);
    }
    pqt_mem_free(order);
    pqt_mem_free(seen);
    pqt_mem_free(keep_of);
    /* a failure after the row group the limit was reached in was never needed: it is not one */
    bool failed = lim ? atomic_load(&fail.task) <= atomic_load(&lim->stop)
                      : atomic_load(&fail.task) != INT64_MAX;
    if (lim) limit_finish(ps, lim, sels, verdicts);
    return failed ? pqt_par_fail_raise(&fail) : PQT_OK;
}
