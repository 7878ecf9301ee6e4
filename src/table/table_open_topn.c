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
 * narrowed to the row groups read; the sort then runs over them as before.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/file_select.h"
#include "scan/scan.h"
#include "table/table_int.h"
#include "util/mem.h"

/* Order-preserving code of a value (smaller sorts first, ascending); -0.0 is +0.0. */
static uint64_t int_code(int64_t v) { return (uint64_t)v ^ 0x8000000000000000ull; }

static uint64_t float_code(double d)
{
    if (d == 0) d = 0; /* -0.0 and 0.0 are equal */
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u & 0x8000000000000000ull ? ~u : u | 0x8000000000000000ull;
}

typedef struct rg_bound {
    int rg;
    uint64_t best; /* the best code any row of it can have (desc: complemented) */
} rg_bound;

static int cmp_bound(const void *a, const void *b)
{
    uint64_t x = ((const rg_bound *)a)->best, y = ((const rg_bound *)b)->best;
    return (x > y) - (x < y);
}

static int cmp_code(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The k-th smallest of v[0..n) (k < n); v is reordered. */
static uint64_t kth_smallest(uint64_t *v, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n - 1;
    while (hi - lo > 16) {
        uint64_t pivot = v[lo + (hi - lo) / 2];
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                uint64_t t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return v[k];
    }
    qsort(v + lo, (size_t)(hi - lo + 1), sizeof *v, cmp_code);
    return v[k];
}

/* Append the codes of b's non-null, non-NaN values of element kind ek to *codes. */
static pqt_status add_codes(const pqt_colbuf *b, int ek, bool desc, uint64_t **codes,
                            int64_t *n, int64_t *cap)
{
    if (*n + b->nrows > *cap) {
        int64_t nc = (*n + b->nrows) * 2;
        uint64_t *c = pqt_realloc(*codes, (size_t)nc * sizeof *c);
        if (!c) return pqt_err(PQT_NOMEM, "pqt_table_open: out of memory choosing the top rows");
        *codes = c, *cap = nc;
    }
    for (int64_t r = 0; r < b->nrows; r++) {
        if (b->validity && !((b->validity[r >> 3] >> (r & 7)) & 1)) continue;
        uint64_t c;
        switch (ek) {
        case PQT_INT32:
        case PQT_DATE: c = int_code(((const int32_t *)b->data)[r]); break;
        case PQT_FLOAT32: {
            float f = ((const float *)b->data)[r];
            if (isnan(f)) continue;
            c = float_code(f);
            break;
        }
        case PQT_FLOAT64: {
            double d = ((const double *)b->data)[r];
            if (isnan(d)) continue;
            c = float_code(d);
            break;
        }
        default: c = int_code(((const int64_t *)b->data)[r]); break;
        }
        (*codes)[(*n)++] = desc ? ~c : c;
    }
    return PQT_OK;
}

pqt_status pqt_tbl_top_n_row_groups(pqt_table *t, const char *key, bool desc, int64_t n,
                                    int threads, int *read_ret, int *of_ret)
{
    *read_ret = *of_ret = 0;
    int ci = pqt_tbl_find(t, key);
    if (ci < 0 || n <= 0) return PQT_OK;
    pqt_tcol *c = &t->cols[ci];
    const pqt_col *fc = &t->f->schema.cols[c->file_col];
    int ek = c->kind;
    bool numeric = ek == PQT_INT32 || ek == PQT_INT64 || ek == PQT_DATE || ek == PQT_TIME ||
                   ek == PQT_TIMESTAMP || ek == PQT_FLOAT32 || ek == PQT_FLOAT64;
    if (!numeric || fc->conv != PQT_CONV_NONE || c->decode_kind) return PQT_OK;
    const pqt_plan *p = &t->plan;
    rg_bound *b = pqt_malloc_array((size_t)p->nrg + 1, sizeof *b);
    if (!b) return pqt_err(PQT_NOMEM, "pqt_table_open: out of memory");
    int nb = 0;
    for (int rg = 0; rg < p->nrg; rg++) {
        if (p->sel[rg].nsel == 0) continue;
        pqt_scan_stats st;
        pqt_scan_chunk_stats(&t->f->meta, fc, rg, &st);
        unsigned need = desc ? PQT_SST_MAX : PQT_SST_MIN;
        bool usable = (st.flags & need) &&
                      !(st.flags & (PQT_SST_NO_ORDER | PQT_SST_UNSIGNED | PQT_SST_SIGNED_ORDER));
        const pqt_scan_bound *v = desc ? &st.max : &st.min;
        uint64_t code = ek == PQT_FLOAT32 || ek == PQT_FLOAT64 ? float_code(v->d) : int_code(v->i);
        if (usable && (ek == PQT_FLOAT32 || ek == PQT_FLOAT64) && isnan(v->d)) usable = false;
            b[nb++] = (rg_bound){rg, usable ? (desc ? ~code : code) : 0};
    }
    *of_ret = nb;
    qsort(b, (size_t)nb, sizeof *b, cmp_bound);
    uint64_t *codes = NULL, *scratch = NULL;
    int64_t ncodes = 0, cap = 0;
    int nread = 0;
    pqt_status st = PQT_OK;
    while (nread < nb && st == PQT_OK) {
        int rg = b[nread].rg;
        pqt_colbuf kb;
        pqt_read_counters rc = {0};
        int64_t zero = 0;
        st = pqt_file_read_span(t->f, fc, rg, 1, &p->sel[rg], &zero, p->sel[rg].nsel, threads,
                                &rc, &kb, NULL);
        pqt_tbl_scan_add(t, c, &rc);
        if (st != PQT_OK) break;
        st = add_codes(&kb, ek, desc, &codes, &ncodes, &cap);
        pqt_colbuf_free(&kb);
        nread++;
        if (st != PQT_OK || ncodes < n || nread == nb) continue;
        uint64_t *s = pqt_realloc(scratch, (size_t)ncodes * sizeof *s);
        if (!s) {
            st = pqt_err(PQT_NOMEM, "pqt_table_open: out of memory choosing the top rows");
            break;
        }
        scratch = s;
        memcpy(scratch, codes, (size_t)ncodes * sizeof *scratch);
        if (kth_smallest(scratch, ncodes, n - 1) < b[nread].best) break; /* none left can */
    }
    if (st == PQT_OK && nread < nb) {
        uint8_t *keep = pqt_calloc((size_t)p->nsel + 1, 1);
        if (!keep) st = pqt_err(PQT_NOMEM, "pqt_table_open: out of memory");
        for (int i = 0; keep && i < nread; i++) {
            int rg = b[i].rg;
            memset(keep + p->dst_row[rg], 1, (size_t)p->sel[rg].nsel);
        }
        if (keep) {
            pqt_plan np;
            st = pqt_plan_refined(&t->plan, keep, &np);
            if (st == PQT_OK) {
                pqt_plan_free(&t->plan);
                t->plan = np;
            }
        }
        pqt_mem_free(keep);
    }
    if (st == PQT_OK) *read_ret = nread;
    pqt_mem_free(codes);
    pqt_mem_free(scratch);
    pqt_mem_free(b);
    return st;
}
