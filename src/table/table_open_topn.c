/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_open_topn.c - a top-n at open reads the keys of the row groups that can hold a kept
 * row only (layer: table).
 *
 * The first key's statistics bound each row group's best value (its max for a descending
 * key, its min for an ascending one). Taking row groups best bound first and reading their
 * keys, once n values read are strictly better than every bound left, no row group left can
 * hold one of the first n rows: NaN and nulls sort after every value (without nulls_first),
 * and a strict comparison keeps ties, which stability may order first, in. The plan is
 * narrowed to the row groups read. The n best values so far are a bounded heap (O(rows
 * log n), O(n) memory), and the key values read are decoded into one buffer over the plan
 * and handed to the sort, which does not read them again: when the statistics rule nothing
 * out (values spread alike over every row group) the pass costs no second decode.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "table/sort_engine.h"
#include "table/table_int.h"
#include "util/bits.h"
#include "util/mem.h"

typedef struct rg_bound {
    int rg;
    uint64_t best; /* the best code any row of it can have (desc: complemented) */
} rg_bound;

static int cmp_bound(const void *a, const void *b)
{
    uint64_t x = ((const rg_bound *)a)->best, y = ((const rg_bound *)b)->best;
    return (x > y) - (x < y);
}

/* Offer the codes of the non-null, non-NaN values of kb's first nrows rows (element kind
 * ek) to the heap of the n best (sort_engine.h: the sort's own codes and heap). */
static void add_codes(const pqt_colbuf *kb, int64_t nrows, int ek, bool desc, uint64_t *h,
                      int64_t *hn, int64_t n)
{
    pqt_sort_key k = {kb, ek, desc, false};
    uint64_t c[PQT_SORT_BLOCK];
    uint8_t ok[PQT_SORT_BLOCK];
    for (int64_t r0 = 0; r0 < nrows; r0 += PQT_SORT_BLOCK) {
        int64_t m = nrows - r0 < PQT_SORT_BLOCK ? nrows - r0 : PQT_SORT_BLOCK;
        pqt_sort_key_codes(&k, r0, m, c, ok);
        pqt_sort_heap_offer(h, hn, n, c, ok, m);
    }
}

/* Move the rows of the row groups `want` keeps from their places under plan p to theirs
 * once p keeps only those groups, in place: the same groups' rows in the same order with
 * the gaps closed, so every move goes left and ascending order is safe. */
static void compact(const pqt_plan *p, const bool *want, char *data, size_t es, uint8_t *v)
{
    int64_t to = 0;
    for (int rg = 0; rg < p->nrg; rg++) {
        if (!want[rg]) continue;
        int64_t k = p->sel[rg].nsel, from = p->dst_row[rg];
        if (k > 0 && from != to) {
            memmove(data + (size_t)to * es, data + (size_t)from * es, (size_t)k * es);
            if (v) pqt_bits_copy(v, to, v, from, k);
        }
        to += k;
    }
}

/* Read the key of the row groups b[from..nb) in one pass (in parallel across them, as any
 * column read) into data/valid at their plan places: when no group left can be ruled out
 * yet, reading them one by one in bound order would only lose the parallel read. */
static pqt_status read_rest(pqt_table *t, pqt_tcol *c, const pqt_col *fc, const rg_bound *b,
                            int from, int nb, int threads, char *data, uint8_t **valid)
{
    const pqt_plan *p = &t->plan;
    pqt_sel *sels = pqt_calloc((size_t)p->nrg + 1, sizeof *sels);
    bool *want = pqt_calloc((size_t)p->nrg + 1, sizeof *want);
    if (!sels || !want) {
        pqt_mem_free(sels);
        pqt_mem_free(want);
        return pqt_err(PQT_NOMEM, "pqt_table_open: out of memory choosing the top rows");
    }
    for (int i = from; i < nb; i++) want[b[i].rg] = true;
    for (int rg = 0; rg < p->nrg; rg++) { /* shallow copies, or nothing selected */
        if (want[rg]) sels[rg] = p->sel[rg];
        else pqt_sel_init_none(&sels[rg], p->sel[rg].nrows);
    }
    pqt_colbuf kb;
    pqt_read_counters rc = {0};
    pqt_read_src src = pqt_file_read_src(t->f);
    pqt_read_req rq = pqt_read_req_plan(&src, fc, p);
    rq.sels = sels;
    rq.threads = threads;
    rq.counters = &rc;
    rq.borrowed_data = data;
    pqt_status st = pqt_read_column(&rq, &kb);
    pqt_tbl_scan_add(t, c, &rc);
    bool read = st == PQT_OK; /* kb is ours to free (a failed read freed it) */
    if (st == PQT_OK && kb.validity && !*valid) {
        *valid = pqt_malloc(((size_t)p->nsel + 7) / 8 + 1);
        if (*valid) memset(*valid, 0xff, ((size_t)p->nsel + 7) / 8 + 1);
        else st = pqt_err(PQT_NOMEM, "pqt_table_open: out of memory choosing the top rows");
    }
    for (int rg = 0; st == PQT_OK && kb.validity && rg < p->nrg; rg++)
        if (want[rg])
            pqt_bits_copy(*valid, p->dst_row[rg], kb.validity, p->dst_row[rg], p->sel[rg].nsel);
    if (read) pqt_colbuf_free(&kb); /* the values stay: decoded into data */
    pqt_mem_free(sels);
    pqt_mem_free(want);
    return st;
}

pqt_status pqt_tbl_top_n_row_groups(pqt_table *t, const char *key, bool desc, int64_t n,
                                    int threads, int *read_ret, int *of_ret, pqt_colbuf *key_ret)
{
    *read_ret = *of_ret = 0;
    memset(key_ret, 0, sizeof *key_ret);
    int ci = pqt_tbl_find(t, key);
    if (ci < 0 || n <= 0) return PQT_OK;
    pqt_tcol *c = &t->cols[ci];
    const pqt_col *fc = pqt_file_col(t->f, c->file_col);
    int ek = c->kind;
    bool numeric = ek == PQT_INT32 || ek == PQT_INT64 || ek == PQT_UINT64 || ek == PQT_DATE ||
                   ek == PQT_TIME || ek == PQT_TIMESTAMP || ek == PQT_FLOAT32 ||
                   ek == PQT_FLOAT64;
    if (!numeric || fc->conv != PQT_CONV_NONE || c->decode_kind) return PQT_OK;
    const pqt_plan *p = &t->plan;
    size_t es = pqt_kind_elem_nbytes(ek);
    rg_bound *b = pqt_malloc_array((size_t)p->nrg + 1, sizeof *b);
    uint64_t *heap = pqt_malloc_array((size_t)n + 1, sizeof *heap);
    /* the key's values over the whole plan, each row group decoded into its place: the
     * groups read are handed to the sort (key_ret), not read again */
    char *data = pqt_malloc_array((size_t)p->nsel + 1, es);
    uint8_t *valid = NULL;
    if (!b || !heap || !data) {
        pqt_mem_free(b);
        pqt_mem_free(heap);
        pqt_free(data);
        return pqt_err(PQT_NOMEM, "pqt_table_open: out of memory choosing the top rows");
    }
    int nb = 0;
    for (int rg = 0; rg < p->nrg; rg++) {
        if (p->sel[rg].nsel == 0) continue;
        pqt_scan_stats st;
        pqt_scan_chunk_stats(pqt_file_footer(t->f), fc, rg, &st);
        unsigned need = desc ? PQT_SST_MAX : PQT_SST_MIN;
        /* uint64 bounds are in unsigned order (PQT_SST_UNSIGNED): the value is its code */
        unsigned bad = PQT_SST_NO_ORDER | PQT_SST_SIGNED_ORDER |
                       (ek == PQT_UINT64 ? 0u : (unsigned)PQT_SST_UNSIGNED);
        bool usable = (st.flags & need) && !(st.flags & bad);
        const pqt_scan_bound *v = desc ? &st.max : &st.min;
        uint64_t code = ek == PQT_FLOAT32 || ek == PQT_FLOAT64 ? pqt_sort_code_f64(v->d)
                        : ek == PQT_UINT64                     ? (uint64_t)v->i
                                                               : pqt_sort_code_i64(v->i);
        if (usable && (ek == PQT_FLOAT32 || ek == PQT_FLOAT64) && isnan(v->d)) usable = false;
        b[nb++] = (rg_bound){rg, usable ? (desc ? ~code : code) : 0};
    }
    *of_ret = nb;
    qsort(b, (size_t)nb, sizeof *b, cmp_bound);
    int64_t hn = 0;
    int nread = 0, kind = 0;
    pqt_status st = PQT_OK;
    while (nread < nb && st == PQT_OK) {
        int rg = b[nread].rg;
        int64_t k = p->sel[rg].nsel, at = p->dst_row[rg];
        pqt_colbuf kb;
        pqt_read_counters rc = {0};
        pqt_read_src src = pqt_file_read_src(t->f);
        pqt_read_req rq = pqt_read_req_group(&src, fc, p, rg);
        rq.threads = threads;
        rq.counters = &rc;
        rq.borrowed_data = data + (size_t)at * es;
        st = pqt_read_column(&rq, &kb);
        pqt_tbl_scan_add(t, c, &rc);
        if (st != PQT_OK) break;
        kind = kb.elem_kind;
        if (kb.validity && !valid) {
            valid = pqt_malloc(((size_t)p->nsel + 7) / 8 + 1);
            if (valid) memset(valid, 0xff, ((size_t)p->nsel + 7) / 8 + 1);
            else st = pqt_err(PQT_NOMEM, "pqt_table_open: out of memory choosing the top rows");
        }
        if (valid && kb.validity) pqt_bits_copy(valid, at, kb.validity, 0, k);
        pqt_colbuf view = kb; /* its rows as decoded into their place in data */
        view.data = data + (size_t)at * es;
        add_codes(&view, k, ek, desc, heap, &hn, n);
        pqt_colbuf_free(&kb); /* its values stay: they were decoded into data */
        nread++;
        if (st != PQT_OK || hn < n || nread == nb) continue;
        if (heap[0] < b[nread].best) break; /* n values beat every row group left */
        if (heap[0] >= b[nb - 1].best) { /* none left can be ruled out now: read them all */
            st = read_rest(t, c, fc, b, nread, nb, threads, data, &valid);
            if (st == PQT_OK) nread = nb;
        }
    }
    if (st == PQT_OK && nread < nb) { /* the plan keeps the row groups read */
        bool *want = pqt_calloc((size_t)p->nrg + 1, sizeof *want);
        if (!want) st = pqt_err(PQT_NOMEM, "pqt_table_open: out of memory");
        for (int i = 0; want && i < nread; i++)
            want[b[i].rg] = true;
        if (want) {
            compact(p, want, data, es, valid);
            st = pqt_plan_keep_groups(&t->plan, want);
        }
        pqt_mem_free(want);
    }
    int64_t nrows = p->nsel;
    if (st == PQT_OK) {
        *read_ret = nread;
        key_ret->elem_kind = kind;
        key_ret->elem_nbytes = es;
        key_ret->nrows = key_ret->nelem = key_ret->elem_cap = key_ret->rows_cap = nrows;
        key_ret->data = data;
        key_ret->validity = valid;
    } else {
        pqt_free(data);
        pqt_mem_free(valid);
    }
    pqt_mem_free(heap);
    pqt_mem_free(b);
    return st;
}
