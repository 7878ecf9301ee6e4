/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_sort.c - pqt_table_sort_by: stable in-memory sort by scalar key columns
 * (layer: table).
 *
 * Order per key: values ascending (or descending), then NaN (float keys), then nulls; a
 * key's nulls_first moves only its nulls to the front, and descending reverses only the
 * values, so NaN and nulls stay after them (anchor-spec section 2). Stability comes from a
 * merge sort of row numbers, not from a tie-break, so equal rows keep their order. Rows
 * that move change the row set's order: every resident column is permuted and the table
 * detaches; an order that is already right changes nothing at all.
 */
#include <math.h>
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

typedef struct sort_key {
    const pqt_colbuf *b;
    int ek;
    bool desc, nulls_first;
} sort_key;

static int cmp_num(double x, double y) { return x < y ? -1 : x > y; }

static int cmp_key(const sort_key *k, int64_t a, int64_t b)
{
    bool na = !pqt_tbl_bit(k->b->validity, a), nb = !pqt_tbl_bit(k->b->validity, b);
    if (na || nb) {
        if (na && nb) return 0;
        int c = na ? 1 : -1; /* nulls after values ... */
        return k->nulls_first ? -c : c; /* ... unless this key puts them first */
    }
    int c;
    switch (k->ek) {
    case PQT_INT32:
    case PQT_DATE: {
        int32_t x = ((const int32_t *)k->b->data)[a], y = ((const int32_t *)k->b->data)[b];
        c = x < y ? -1 : x > y;
        break;
    }
    case PQT_INT64:
    case PQT_TIME:
    case PQT_TIMESTAMP: {
        int64_t x = ((const int64_t *)k->b->data)[a], y = ((const int64_t *)k->b->data)[b];
        c = x < y ? -1 : x > y;
        break;
    }
    case PQT_UINT64: {
        uint64_t x = ((const uint64_t *)k->b->data)[a], y = ((const uint64_t *)k->b->data)[b];
        c = x < y ? -1 : x > y;
        break;
    }
    case PQT_BOOL: {
        uint8_t x = ((const uint8_t *)k->b->data)[a], y = ((const uint8_t *)k->b->data)[b];
        c = x < y ? -1 : x > y;
        break;
    }
    case PQT_STRING: {
        const int64_t *o = k->b->str_offsets;
        int64_t la = o[a + 1] - o[a], lb = o[b + 1] - o[b];
        int64_t m = la < lb ? la : lb;
        c = m > 0 ? memcmp(k->b->str_bytes.data + o[a], k->b->str_bytes.data + o[b], (size_t)m) : 0;
        if (c == 0) c = la < lb ? -1 : la > lb;
        else c = c < 0 ? -1 : 1;
        break;
    }
    default: {
        double x = k->ek == PQT_FLOAT32 ? ((const float *)k->b->data)[a] : ((const double *)k->b->data)[a];
        double y = k->ek == PQT_FLOAT32 ? ((const float *)k->b->data)[b] : ((const double *)k->b->data)[b];
        bool xn = isnan(x), yn = isnan(y);
        if (xn || yn) return xn && yn ? 0 : xn ? 1 : -1; /* NaN after values, either direction */
        c = cmp_num(x, y);
        break;
    }
    }
    return k->desc ? -c : c;
}

static int cmp_rows(const sort_key *keys, int nkeys, int64_t a, int64_t b)
{
    for (int i = 0; i < nkeys; i++) {
        int c = cmp_key(&keys[i], a, b);
        if (c) return c;
    }
    return 0;
}

/* Stable bottom-up merge sort of idx[0..n) using tmp[0..n). */
static void merge_sort(int64_t *idx, int64_t *tmp, int64_t n, const sort_key *keys, int nkeys)
{
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp_rows(keys, nkeys, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
            while (i < mid) tmp[k++] = idx[i++];
            while (j < hi) tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
}

pqt_status pqt_table_sort_by(pqt_table *t, const char *const *keys, int nkeys,
                             const int *descending, const int *nulls_first)
{
    const char *call = "pqt_table_sort_by";
    if (!t || !keys || nkeys < 1)
        return pqt_err(PQT_MISUSE, "%s: at least one sort key is needed", call);
    /* names and kinds first: a bad key is reported before anything is read */
    for (int i = 0; i < nkeys; i++) {
        int ci = -1;
        if (pqt_tbl_find(t, keys[i]) < 0 && pqt_table_has_column(t, keys[i])) continue;
        PQT_TRY(pqt_tbl_lookup(t, call, keys[i], &ci));
        const pqt_tcol *c = &t->cols[ci];
        if (c->kind == PQT_NONE || (c->kind & (PQT_VECTOR | PQT_LIST)) || !c->kind_known)
            return pqt_err(PQT_KIND, "%s: sort key '%s' is %s; sorting takes scalar columns only",
                           call, keys[i], c->kind_known ? pqt_kind_name(c->kind) : "a list column");
    }
    PQT_TBL_HOLD(t, call, "sorting");
    sort_key *sk = pqt_calloc((size_t)nkeys, sizeof *sk);
    if (!sk) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    pqt_status st = PQT_OK;
    int *kci = pqt_calloc((size_t)nkeys, sizeof *kci);
    bool *was_res = pqt_calloc((size_t)t->ncols + 1, sizeof *was_res);
    if (!kci || !was_res) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    /* what a failure must restore: keys this call reads, the row index it may build */
    int ncols0 = t->ncols;
    uint64_t gen0 = t->generation;
    bool ri0 = t->ri_possible;
    for (int i = 0; i < ncols0 && was_res; i++) was_res[i] = t->cols[i].residency == PQT_RES_FULL;
    for (int i = 0; i < nkeys && st == PQT_OK; i++) st = pqt_tbl_resident(t, call, keys[i], &kci[i]);
    /* slots may have moved while reading (the row index adds one): take pointers now */
    for (int i = 0; i < nkeys && st == PQT_OK; i++) {
        const pqt_tcol *c = &t->cols[kci[i]];
        sk[i].b = &c->buf;
        sk[i].ek = PQT_KIND_ELEMENT(c->kind);
        sk[i].desc = descending && descending[i];
        sk[i].nulls_first = nulls_first && nulls_first[i];
    }
    int64_t n = t->nrows;
    int64_t *idx = st == PQT_OK ? pqt_malloc_array((size_t)n + 1, sizeof *idx) : NULL;
    int64_t *tmp = st == PQT_OK ? pqt_malloc_array((size_t)n + 1, sizeof *tmp) : NULL;
    pqt_colbuf *nb = st == PQT_OK ? pqt_calloc((size_t)t->ncols + 1, sizeof *nb) : NULL;
    if (st == PQT_OK && (!idx || !tmp || !nb)) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    if (st != PQT_OK) goto done;
    for (int64_t i = 0; i < n; i++) idx[i] = i;
    merge_sort(idx, tmp, n, sk, nkeys);
    bool moved = false;
    for (int64_t i = 0; i < n && !moved; i++) moved = idx[i] != i;
    if (!moved) goto done; /* already in order: no detach, no new generation */
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        const pqt_tcol *c = &t->cols[i];
        if (c->residency != PQT_RES_FULL) continue;
        st = pqt_tbl_buf_gather(&c->buf, NULL, idx, n, (c->kind & PQT_VECTOR) ? c->width : 0, &nb[i]);
    }
    if (st != PQT_OK) goto done;
    pqt_tbl_install_rows(t, nb, t->nrows, call);
done:
    if (nb)
        for (int i = 0; i < t->ncols; i++) pqt_colbuf_free(&nb[i]);
    if (st != PQT_OK && was_res) {
        /* a failed sort changes nothing: forget what it read and built */
        while (t->ncols > ncols0) pqt_tbl_slot_remove(t, t->ncols - 1);
        for (int i = 0; i < ncols0; i++) {
            if (was_res[i] || t->cols[i].residency != PQT_RES_FULL) continue;
            pqt_colbuf_free(&t->cols[i].buf);
            t->cols[i].residency = PQT_RES_EMPTY;
        }
        t->ri_possible = ri0;
        t->generation = gen0;
    }
    pqt_mem_free(nb);
    pqt_mem_free(idx);
    pqt_mem_free(tmp);
    pqt_mem_free(sk);
    pqt_mem_free(kci);
    pqt_mem_free(was_res);
    return st;
}
