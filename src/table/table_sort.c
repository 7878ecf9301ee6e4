/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_sort.c - sorting a table's rows in memory: pqt_table_sort_by, top_n, argsort_by,
 * is_sorted_by and their text forms (layer: table).
 *
 * Every call orders rows through the one engine (sort_engine.c), so they agree row for row
 * with each other and with a read-time sort. Keys are validated before anything is read;
 * key columns not resident are read (a first touch); a call that fails forgets what it read
 * and built. Rows that move or go change the row set: resident columns are gathered and the
 * table detaches; an order already right changes nothing (no detach, no new generation).
 */
#include <string.h>

#include "scan/sort_spec.h"
#include "table/sort_decimal.h"
#include "table/sort_engine.h"
#include "table/table_int.h"
#include "util/mem.h"
#include "util/par.h"

/* One sort call on a table: its resolved keys and what a failure must restore. */
typedef struct sort_call {
    pqt_table *t;
    const char *call;
    pqt_sort_key sk[2 * PQT_SORT_MAX_KEYS]; /* engine keys: an int128 decimal key gives two */
    int nkeys;                              /* engine keys in sk */
    int upto[PQT_SORT_MAX_KEYS + 1];        /* engine keys of the first i keys */
    pqt_sort_exact ex[PQT_SORT_MAX_KEYS];   /* decimal keys in exact order (sort_decimal.h) */
    int ncols0;
    uint64_t gen0;
    bool ri0;
    bool *was_res;
} sort_call;

/* Check the keys against t, then read the ones not resident. The caller holds t. */
static pqt_status keys_begin(sort_call *sc, pqt_table *t, const char *call,
                             const char *const *names, int nkeys, const bool *desc,
                             const bool *nulls_first)
{
    memset(sc, 0, sizeof *sc);
    sc->t = t;
    sc->call = call;
    if (nkeys > PQT_SORT_MAX_KEYS)
        return pqt_err(PQT_BAD_SORT, "%s: too many sort keys (maximum %d): %d given", call,
                       PQT_SORT_MAX_KEYS, nkeys);
    /* names and kinds first: a bad key is reported before anything is read */
    for (int i = 0; i < nkeys; i++) {
        int ci = -1;
        if (!names[i]) return pqt_err(PQT_MISUSE, "%s: sort key %d is NULL", call, i + 1);
        if (pqt_tbl_find(t, names[i]) < 0 && pqt_table_has_column(t, names[i])) continue;
        PQT_TRY(pqt_tbl_lookup(t, call, names[i], &ci));
        const pqt_tcol *c = &t->cols[ci];
        if (c->kind == PQT_NONE)
            return pqt_err(PQT_KIND, "%s: sort key '%s' has a type this library cannot read",
                           call, names[i]);
        if ((c->kind & PQT_LIST) || !c->kind_known)
            return pqt_err(PQT_KIND, "%s: sort key '%s' is a variable-length list column; "
                                     "sorting only supports scalar columns",
                           call, names[i]);
        if (c->kind & PQT_VECTOR)
            return pqt_err(PQT_KIND, "%s: sort key '%s' is %s; sorting only supports scalar "
                                     "columns",
                           call, names[i], pqt_kind_name(c->kind));
    }
    sc->was_res = pqt_calloc((size_t)t->ncols + 1, sizeof *sc->was_res);
    if (!sc->was_res) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    sc->ncols0 = t->ncols;
    sc->gen0 = t->generation;
    sc->ri0 = t->ri_possible;
    for (int i = 0; i < sc->ncols0; i++) sc->was_res[i] = t->cols[i].residency == PQT_RES_FULL;
    int kci[PQT_SORT_MAX_KEYS];
    for (int i = 0; i < nkeys; i++) PQT_TRY(pqt_tbl_resident(t, call, names[i], &kci[i]));
    /* slots may have moved while reading (the row index adds one): take pointers now */
    int n = 0;
    for (int i = 0; i < nkeys; i++) {
        const pqt_tcol *c = &t->cols[kci[i]];
        bool d = desc && desc[i], nf = nulls_first && nulls_first[i];
        PQT_TRY(pqt_sort_exact_read(t, kci[i], pqt_par_threads(t->threads), &sc->ex[i]));
        if (sc->ex[i].nparts) pqt_sort_exact_keys(&sc->ex[i], d, nf, sc->sk, &n);
        else sc->sk[n++] = (pqt_sort_key){&c->buf, PQT_KIND_ELEMENT(c->kind), d, nf};
        sc->upto[i + 1] = n;
    }
    sc->nkeys = n;
    return PQT_OK;
}

/* End of a sort call: on failure, forget what it read and built (a failed call changes
 * nothing). */
static pqt_status keys_end(sort_call *sc, pqt_status st)
{
    pqt_table *t = sc->t;
    for (int i = 0; i < PQT_SORT_MAX_KEYS; i++) pqt_sort_exact_free(&sc->ex[i]);
    if (st != PQT_OK && sc->was_res) {
        while (t->ncols > sc->ncols0) pqt_tbl_slot_remove(t, t->ncols - 1);
        for (int i = 0; i < sc->ncols0; i++) {
            if (sc->was_res[i] || t->cols[i].residency != PQT_RES_FULL) continue;
            pqt_colbuf_free(&t->cols[i].buf);
            t->cols[i].residency = PQT_RES_EMPTY;
        }
        t->ri_possible = sc->ri0;
        t->generation = sc->gen0;
    }
    pqt_mem_free(sc->was_res);
    sc->was_res = NULL;
    return st;
}

/* Keep rows idx[0..n) of every resident column, in that order; detaches. */
static pqt_status install(pqt_table *t, const int64_t *idx, int64_t n, const char *call)
{
    pqt_colbuf *nb = pqt_calloc((size_t)t->ncols + 1, sizeof *nb);
    if (!nb) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    pqt_status st = PQT_OK;
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        const pqt_tcol *c = &t->cols[i];
        if (c->residency != PQT_RES_FULL) continue;
        st = pqt_tbl_buf_gather(&c->buf, NULL, idx, n, (c->kind & PQT_VECTOR) ? c->width : 0,
                                &nb[i]);
    }
    if (st == PQT_OK) pqt_tbl_install_rows(t, nb, n, call);
    else
        for (int i = 0; i < t->ncols; i++) pqt_colbuf_free(&nb[i]);
    pqt_mem_free(nb);
    return st;
}

/* The flags of the array form as bools (NULL stays NULL). */
static void flags(const int *in, int n, bool *out)
{
    for (int i = 0; i < n; i++) out[i] = in && in[i];
}

/* sort_by (limit < 0) and top_n (limit >= 0) on resolved arguments. */
static pqt_status sort_rows(pqt_table *t, const char *call, const char *const *names, int nkeys,
                            const bool *desc, const bool *nf, int64_t limit)
{
    PQT_TBL_HOLD(t, call, "sorting");
    sort_call sc;
    pqt_status st = keys_begin(&sc, t, call, names, nkeys, desc, nf);
    int64_t n = t->nrows, keep = limit >= 0 && limit < n ? limit : n;
    int64_t *idx = st == PQT_OK ? pqt_malloc_array((size_t)n + 1, sizeof *idx) : NULL;
    if (st == PQT_OK && !idx) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    if (st == PQT_OK && keep < n) {
        int64_t got = 0;
        st = pqt_sort_top(sc.sk, sc.nkeys, n, keep, idx, &got, pqt_par_threads(t->threads), call);
    } else if (st == PQT_OK) {
        for (int64_t i = 0; i < n; i++) idx[i] = i;
        st = pqt_sort_rows(sc.sk, sc.nkeys, idx, n, pqt_par_threads(t->threads), call);
    }
    bool moved = keep < n;
    for (int64_t i = 0; st == PQT_OK && i < keep && !moved; i++) moved = idx[i] != i;
    /* already in order, every row kept: no detach, no new generation */
    if (st == PQT_OK && moved) st = install(t, idx, keep, call);
    pqt_mem_free(idx);
    return keys_end(&sc, st);
}

static pqt_status check_args(pqt_table *t, const char *const *keys, int nkeys, const char *call)
{
    if (!t || !keys || nkeys < 1)
        return pqt_err(PQT_MISUSE, "%s: at least one sort key is needed", call);
    return PQT_OK;
}

pqt_status pqt_table_sort_by_names(pqt_table *t, const char *const *keys, int nkeys,
                                   const int *descending, const int *nulls_first)
{
    const char *call = "pqt_table_sort_by_names";
    PQT_TRY(check_args(t, keys, nkeys, call));
    bool d[PQT_SORT_MAX_KEYS], nf[PQT_SORT_MAX_KEYS];
    if (nkeys <= PQT_SORT_MAX_KEYS) {
        flags(descending, nkeys, d);
        flags(nulls_first, nkeys, nf);
    }
    return sort_rows(t, call, keys, nkeys, d, nf, -1);
}

pqt_status pqt_table_top_n_names(pqt_table *t, const char *const *keys, int nkeys,
                                 const int *descending, const int *nulls_first, int64_t n)
{
    const char *call = "pqt_table_top_n_names";
    PQT_TRY(check_args(t, keys, nkeys, call));
    if (n < 0) return pqt_err(PQT_MISUSE, "%s: n = %lld: the row count must be >= 0", call, (long long)n);
    bool d[PQT_SORT_MAX_KEYS], nf[PQT_SORT_MAX_KEYS];
    if (nkeys <= PQT_SORT_MAX_KEYS) {
        flags(descending, nkeys, d);
        flags(nulls_first, nkeys, nf);
    }
    return sort_rows(t, call, keys, nkeys, d, nf, n);
}

/* argsort_by and is_sorted_by on resolved arguments: perm NULL asks is_sorted. */
static pqt_status order_of(pqt_table *t, const char *call, const char *const *names, int nkeys,
                           const bool *desc, const bool *nf, int64_t *perm, int64_t *offsets,
                           int group_nkeys, int64_t *ngroups_ret, int *sorted_ret)
{
    if (group_nkeys < 0 || group_nkeys > nkeys || (group_nkeys > 0 && !offsets))
        return pqt_err(PQT_MISUSE, "%s: group_nkeys = %d: it must be 0..%d (the key count), and "
                                   "above 0 only with group_offsets",
                       call, group_nkeys, nkeys);
    PQT_TBL_HOLD(t, call, "reading sort keys");
    sort_call sc;
    pqt_status st = keys_begin(&sc, t, call, names, nkeys, desc, nf);
    int64_t n = t->nrows;
    if (st == PQT_OK && sorted_ret) {
        int sorted = 1;
        for (int64_t i = 1; i < n && sorted; i++)
            sorted = pqt_sort_cmp(sc.sk, sc.nkeys, i - 1, i) <= 0;
        *sorted_ret = sorted;
        return keys_end(&sc, st);
    }
    int64_t *idx = st == PQT_OK ? pqt_malloc_array((size_t)n + 1, sizeof *idx) : NULL;
    if (st == PQT_OK && !idx) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    if (st == PQT_OK) {
        for (int64_t i = 0; i < n; i++) idx[i] = i;
        st = pqt_sort_rows(sc.sk, sc.nkeys, idx, n, pqt_par_threads(t->threads), call);
    }
    if (st == PQT_OK) {
        for (int64_t i = 0; i < n; i++) perm[i] = idx[i] + 1;
        int gk = sc.upto[group_nkeys > 0 ? group_nkeys : nkeys];
        int64_t ng = 0;
        for (int64_t i = 0; offsets && i < n; i++)
            if (i == 0 || pqt_sort_cmp(sc.sk, gk, idx[i - 1], idx[i]) != 0) offsets[ng++] = i + 1;
        if (offsets) offsets[ng] = n + 1;
        if (ngroups_ret) *ngroups_ret = offsets ? ng : 0;
    }
    pqt_mem_free(idx);
    return keys_end(&sc, st);
}

pqt_status pqt_table_argsort_by_names(pqt_table *t, const char *const *keys, int nkeys,
                                      const int *descending, const int *nulls_first, int64_t *perm,
                                      int64_t *group_offsets, int group_nkeys, int64_t *ngroups_ret)
{
    const char *call = "pqt_table_argsort_by_names";
    PQT_TRY(check_args(t, keys, nkeys, call));
    if (!perm && t->nrows > 0) return pqt_err(PQT_MISUSE, "%s: perm is NULL", call);
    bool d[PQT_SORT_MAX_KEYS], nf[PQT_SORT_MAX_KEYS];
    if (nkeys <= PQT_SORT_MAX_KEYS) {
        flags(descending, nkeys, d);
        flags(nulls_first, nkeys, nf);
    }
    return order_of(t, call, keys, nkeys, d, nf, perm, group_offsets, group_nkeys, ngroups_ret,
                    NULL);
}

pqt_status pqt_table_is_sorted_by_names(pqt_table *t, const char *const *keys, int nkeys,
                                        const int *descending, const int *nulls_first,
                                        int *sorted_ret)
{
    const char *call = "pqt_table_is_sorted_by_names";
    PQT_TRY(check_args(t, keys, nkeys, call));
    if (!sorted_ret) return pqt_err(PQT_MISUSE, "%s: sorted_ret is NULL", call);
    bool d[PQT_SORT_MAX_KEYS], nf[PQT_SORT_MAX_KEYS];
    if (nkeys <= PQT_SORT_MAX_KEYS) {
        flags(descending, nkeys, d);
        flags(nulls_first, nkeys, nf);
    }
    return order_of(t, call, keys, nkeys, d, nf, NULL, NULL, 0, NULL, sorted_ret);
}

/* ---- the text forms: one parser (scan/sort_spec.c), then the array form's engine ---- */

static pqt_status parse_text(pqt_table *t, const char *keys, const int *nulls_first,
                             const char *call, pqt_sort_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    if (!t || !keys) return pqt_err(PQT_MISUSE, "%s: table and keys must not be NULL", call);
    PQT_TRY(pqt_sort_spec_parse(spec, keys, call));
    for (int i = 0; nulls_first && i < spec->nkeys; i++)
        spec->nulls_first[i] = spec->nulls_first[i] || nulls_first[i];
    return PQT_OK;
}

pqt_status pqt_table_sort_by(pqt_table *t, const char *keys, const int *nulls_first)
{
    pqt_sort_spec s;
    const char *call = "pqt_table_sort_by";
    PQT_TRY(parse_text(t, keys, nulls_first, call, &s));
    pqt_status st = sort_rows(t, call, (const char *const *)s.names, s.nkeys, s.desc,
                              s.nulls_first, -1);
    pqt_sort_spec_free(&s);
    return st;
}

pqt_status pqt_table_top_n(pqt_table *t, const char *keys, const int *nulls_first, int64_t n)
{
    pqt_sort_spec s;
    const char *call = "pqt_table_top_n";
    if (n < 0) return pqt_err(PQT_MISUSE, "%s: n = %lld: the row count must be >= 0", call, (long long)n);
    PQT_TRY(parse_text(t, keys, nulls_first, call, &s));
    pqt_status st = sort_rows(t, call, (const char *const *)s.names, s.nkeys, s.desc,
                              s.nulls_first, n);
    pqt_sort_spec_free(&s);
    return st;
}

pqt_status pqt_table_argsort_by(pqt_table *t, const char *keys, const int *nulls_first,
                                int64_t *perm, int64_t *group_offsets, int group_nkeys,
                                int64_t *ngroups_ret)
{
    pqt_sort_spec s;
    const char *call = "pqt_table_argsort_by";
    PQT_TRY(parse_text(t, keys, nulls_first, call, &s));
    pqt_status st = !perm && t->nrows > 0 ? pqt_err(PQT_MISUSE, "%s: perm is NULL", call)
                                          : order_of(t, call, (const char *const *)s.names,
                                                     s.nkeys, s.desc, s.nulls_first, perm,
                                                     group_offsets, group_nkeys, ngroups_ret,
                                                     NULL);
    pqt_sort_spec_free(&s);
    return st;
}

pqt_status pqt_table_is_sorted_by(pqt_table *t, const char *keys, const int *nulls_first,
                                  int *sorted_ret)
{
    pqt_sort_spec s;
    const char *call = "pqt_table_is_sorted_by";
    PQT_TRY(parse_text(t, keys, nulls_first, call, &s));
    pqt_status st = !sorted_ret ? pqt_err(PQT_MISUSE, "%s: sorted_ret is NULL", call)
                                : order_of(t, call, (const char *const *)s.names, s.nkeys,
                                           s.desc, s.nulls_first, NULL, NULL, 0, NULL,
                                           sorted_ret);
    pqt_sort_spec_free(&s);
    return st;
}
