/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_filter.c - the filter language on rows in memory: pqt_table_row_mask and
 * pqt_table_filter_rows (layer: table; docs/filters.md, "Rows in memory").
 *
 * A rule is compiled against the table's columns as their lookup names spell them (so a
 * renamed column is filtered by its new name) by the same compiler and vectorized
 * evaluator the filter at open uses, so a rule selects the same rows everywhere. Columns
 * the program reads are made resident by the ordinary first touch; evaluation runs over
 * the resident buffers in batches of BATCH rows, so the evaluator's scratch stays small.
 *
 * filter_rows on a table still attached to its file and in file order refines the read
 * plan instead of detaching: columns not read yet read only the survivors later, the row
 * index keeps naming file rows, row_group_bounds answers in survivor numbering. Any other
 * table gathers its resident columns and detaches, as pqt_table_delete_rows does. Both
 * build every new buffer before committing, so a failure changes nothing (columns this
 * call read are forgotten again, as pqt_table_sort_by does).
 */
#include <string.h>

#include "scan/filter.h"
#include "table/table_int.h"
#include "util/mem.h"

/* Rows per evaluation batch: a multiple of 8 (and of 64), so every batch's validity bits
 * start on a byte of the column's bitmap and can be passed without copying. */
#define BATCH ((int64_t)1 << 16)

/* The virtual row index is offered when has_column would answer 1 for it. */
static bool virtual_ri(const pqt_table *t)
{
    return t->f && t->ri_possible && !t->detached && pqt_tbl_find(t, PQT_TBL_ROW_INDEX) < 0;
}

pqt_status pqt_tbl_scan_cols(const pqt_table *t, pqt_scan_col **cols_ret, int *n_ret)
{
    int nslots = t->ncols;
    bool vri = virtual_ri(t);
    pqt_scan_col *cols = pqt_calloc((size_t)nslots + 2, sizeof *cols);
    if (!cols)
        return pqt_err(PQT_NOMEM, "out of memory listing the columns of %s", pqt_tbl_where(t));
    /* pqt_tbl_find's rule: a top-level file column whose name holds dots wins over a struct
     * leaf spelled alike, otherwise the first slot. The compiler takes the first entry of a
     * name, so top-level file columns go first, then every other slot in slot order. */
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < nslots; i++) {
            const pqt_tcol *c = &t->cols[i];
            bool top = t->f && c->file_col >= 0 && pqt_file_col(t->f, c->file_col)->top_level;
            if (top != (pass == 0)) continue;
            int ek = PQT_KIND_ELEMENT(c->kind);
            cols[n].name = c->name;
            cols[n].kind = c->kind; /* an unmeasured LIST still carries PQT_LIST: refused */
            cols[n].unit = ek == PQT_TIME || ek == PQT_TIMESTAMP ? c->time_unit : -1;
            n++;
        }
    }
    if (vri) {
        cols[n].name = PQT_TBL_ROW_INDEX;
        cols[n].kind = PQT_INT64;
        cols[n].unit = -1;
        n++;
    }
    *cols_ret = cols;
    *n_ret = n;
    return PQT_OK;
}

/* What a compiled filter reads: for each program slot the table slot, or -1 for the
 * virtual row index. */
typedef struct fplan {
    pqt_fprog *prog;
    int nslots;
    int *ci;
} fplan;

static void fplan_free(fplan *fp)
{
    pqt_scan_prog_free(fp->prog);
    pqt_mem_free(fp->ci);
    memset(fp, 0, sizeof *fp);
}

static pqt_status compile(const pqt_table *t, const char *call, const pqt_filter *f, fplan *fp)
{
    memset(fp, 0, sizeof *fp);
    pqt_scan_col *cols = NULL;
    int n = 0;
    PQT_TRY(pqt_tbl_scan_cols(t, &cols, &n));
    pqt_status st = pqt_scan_compile(f, cols, n, &fp->prog);
    if (st != PQT_OK) {
        pqt_mem_free(cols);
        pqt_err_prefix("%s: %s: ", call, pqt_tbl_where(t));
        return st;
    }
    fp->nslots = pqt_scan_prog_ncols(fp->prog);
    fp->ci = pqt_malloc_array((size_t)fp->nslots + 1, sizeof *fp->ci);
    if (!fp->ci) st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    for (int s = 0; s < fp->nslots && st == PQT_OK; s++) {
        /* the list was ordered the way pqt_tbl_find decides, so a name finds its own slot
         * again; the only name without a slot is the virtual row index (-1) */
        fp->ci[s] = pqt_tbl_find(t, cols[pqt_scan_prog_col(fp->prog, s)].name);
    }
    pqt_mem_free(cols);
    if (st != PQT_OK) fplan_free(fp);
    return st;
}

/* Forget the columns a failed call read (read[i] set), so the call changes nothing. */
static void forget_reads(pqt_table *t, const bool *read, int n)
{
    for (int i = 0; i < n; i++) {
        if (!read[i]) continue;
        pqt_colbuf_free(&t->cols[i].buf);
        t->cols[i].residency = PQT_RES_EMPTY;
    }
}

/* The batch of rows [r0, r0 + BATCH) of a resident scalar column. */
static pqt_scan_vec batch_vec(const pqt_colbuf *b, int64_t r0)
{
    pqt_scan_vec v;
    if (b->str_offsets) {
        v.data = b->str_offsets + r0; /* offsets stay absolute into the bytes */
        v.bytes = (const char *)b->str_bytes.data;
    } else {
        v.data = (const char *)b->data + (size_t)r0 * b->elem_nbytes;
        v.bytes = NULL;
    }
    v.validity = b->validity ? b->validity + (r0 >> 3) : NULL;
    return v;
}

/* Evaluate fp over every row: keep[i] = 1 or 0, *nkeep_ret rows kept. Reads only
 * resident buffers (and the plan, for the virtual row index). */
static pqt_status evaluate(const pqt_table *t, const char *call, const fplan *fp, uint8_t *keep,
                           int64_t *nkeep_ret)
{
    int64_t n = t->nrows, nkeep = 0;
    pqt_scan_vec *vecs = pqt_calloc((size_t)fp->nslots + 1, sizeof *vecs);
    uint8_t *bits = pqt_malloc((size_t)(BATCH >> 3));
    int64_t *ri = NULL;
    pqt_status st = vecs && bits ? PQT_OK : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    for (int s = 0; s < fp->nslots && st == PQT_OK && !ri; s++) {
        if (fp->ci[s] >= 0) continue;
        /* the row index is not built for a filter: its values come from the plan */
        ri = t->plan.nsel == n ? pqt_malloc_array((size_t)n + 1, sizeof *ri) : NULL;
        if (t->plan.nsel != n)
            st = pqt_err(PQT_MISUSE, "%s: the read plan of %s holds %lld rows, the table %lld",
                         call, pqt_tbl_where(t), (long long)t->plan.nsel, (long long)n);
        else
            st = ri ? pqt_plan_file_rows(&t->plan, ri)
                    : pqt_err(PQT_NOMEM, "%s: out of memory for the row index of %lld rows", call,
                              (long long)n);
    }
    /* bit j of a byte of the evaluator's bitmap -> byte j of keep */
    uint8_t spread[256][8];
    for (int v = 0; v < 256; v++)
        for (int j = 0; j < 8; j++)
            spread[v][j] = (uint8_t)(v >> j & 1);
    pqt_scan_scratch sc = {0};
    /* The first batch is the largest, so the evaluator allocates its scratch there and
     * later batches cannot fail: keep is written only by a call that succeeds. */
    for (int64_t r0 = 0; r0 < n && st == PQT_OK; r0 += BATCH) {
        int64_t m = n - r0 < BATCH ? n - r0 : BATCH, k = 0;
        for (int s = 0; s < fp->nslots; s++) {
            if (fp->ci[s] < 0)
                vecs[s] = (pqt_scan_vec){ri + r0, NULL, NULL};
            else
                vecs[s] = batch_vec(&t->cols[fp->ci[s]].buf, r0);
        }
        st = pqt_scan_prog_eval(fp->prog, vecs, m, NULL, bits, &k, &sc);
        if (st != PQT_OK) break;
        int64_t whole = m >> 3;
        for (int64_t j = 0; j < whole; j++)
            memcpy(keep + r0 + 8 * j, spread[bits[j]], 8);
        for (int64_t i = whole << 3; i < m; i++)
            keep[r0 + i] = spread[bits[i >> 3]][i & 7];
        nkeep += k;
    }
    pqt_scan_scratch_free(&sc);
    pqt_mem_free(ri);
    pqt_mem_free(bits);
    pqt_mem_free(vecs);
    if (st == PQT_OK) *nkeep_ret = nkeep;
    return st;
}

/* Compile f against t, read what it needs, evaluate into keep. read (t->ncols entries,
 * zeroed) receives the slots this call made resident: on success the caller may forget
 * them if its own later steps fail; on failure they are already forgotten. */
static pqt_status mask_rows(pqt_table *t, const char *call, const pqt_filter *f, uint8_t *keep,
                            int64_t *nkeep_ret, bool *read)
{
    fplan fp;
    PQT_TRY(compile(t, call, f, &fp));
    pqt_status st = PQT_OK;
    pqt_tbl_hold h = {NULL};
    for (int s = 0; s < fp.nslots && st == PQT_OK; s++) {
        int ci = fp.ci[s];
        if (ci < 0 || t->cols[ci].residency == PQT_RES_FULL) continue;
        /* a first touch changes the table: held from here to the end, so the reads can be
         * undone if a later one fails */
        if (!h.t) st = pqt_tbl_hold_take(&h, t, call, "a first read of a column");
        if (st == PQT_OK) st = pqt_tbl_touch(t, ci, call);
        if (st == PQT_OK) read[ci] = true;
    }
    if (st == PQT_OK) st = evaluate(t, call, &fp, keep, nkeep_ret);
    if (st != PQT_OK) {
        forget_reads(t, read, t->ncols);
        memset(read, 0, (size_t)t->ncols * sizeof *read);
    }
    pqt_tbl_hold_drop(&h);
    fplan_free(&fp);
    return st;
}

pqt_status pqt_table_row_mask_with(pqt_table *t, const pqt_filter *filter, uint8_t *keep)
{
    const char *call = "pqt_table_row_mask_with";
    if (!t || !filter || (!keep && t->nrows > 0))
        return pqt_err(PQT_MISUSE, "%s: table, filter and keep must not be NULL", call);
    bool *read = pqt_calloc((size_t)t->ncols + 1, sizeof *read);
    /* the mask is built aside: a computed rule can fail on a later batch (INT overflow,
     * PQT_RANGE) and a failed call leaves keep as it was */
    uint8_t *mask = pqt_malloc((size_t)t->nrows + 1);
    if (!read || !mask) {
        pqt_mem_free(read);
        pqt_mem_free(mask);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    int64_t nkeep = 0;
    pqt_status st = mask_rows(t, call, filter, mask, &nkeep, read);
    if (st == PQT_OK && t->nrows > 0) memcpy(keep, mask, (size_t)t->nrows);
    pqt_mem_free(mask);
    pqt_mem_free(read);
    return st;
}

/* dst = the kept rows of resident column c. A fixed-width scalar column takes one typed,
 * branch-free pass over keep (callgrind, filter_rows keeping half of 2.5M int64 rows: 225M
 * instructions with pqt_tbl_buf_gather's per-row copies, 79M with this pass); strings,
 * vectors and lists go through pqt_tbl_buf_gather with the kept rows' indices, built on
 * first need. */
static pqt_status gather_rows(const pqt_tcol *c, const uint8_t *keep, int64_t nkeep, int64_t **idx,
                              pqt_colbuf *dst)
{
    const pqt_colbuf *b = &c->buf;
    int64_t n = b->nrows, k = 0;
    size_t es = b->elem_nbytes;
    if (b->is_list || b->str_offsets || (es != 1 && es != 4 && es != 8)) {
        if (!*idx) {
            *idx = pqt_malloc_array((size_t)nkeep + 1, sizeof **idx);
            if (!*idx)
                return pqt_err(PQT_NOMEM, "out of memory gathering %lld rows", (long long)nkeep);
            for (int64_t i = 0; i < n; i++)
                if (keep[i]) (*idx)[k++] = i;
        }
        return pqt_tbl_buf_gather(b, NULL, *idx, nkeep, (c->kind & PQT_VECTOR) ? c->width : 0, dst);
    }
    PQT_TRY(pqt_tbl_buf_new(dst, b->elem_kind, false, 0, b->validity != NULL, nkeep, nkeep));
    /* Up to the last kept row, every row is written to d[k] and k advances by keep[i] (0 or
     * 1): fewer than nkeep rows precede it, so d[k] is always in bounds. */
    int64_t last = n - 1;
    while (last >= 0 && !keep[last])
        last--;
#define KEEP_LOOP(T)                                                                               \
    do {                                                                                           \
        const T *s = (const T *)b->data;                                                           \
        T *d = (T *)dst->data;                                                                     \
        for (int64_t i = 0; i <= last; i++) {                                                      \
            d[k] = s[i];                                                                           \
            k += keep[i];                                                                          \
        }                                                                                          \
    } while (0)
    if (es == 1)
        KEEP_LOOP(uint8_t);
    else if (es == 4)
        KEEP_LOOP(uint32_t);
    else
        KEEP_LOOP(uint64_t);
#undef KEEP_LOOP
    if (b->validity) { /* dst starts all-valid: clear the bits of kept nulls */
        uint8_t *dv = dst->validity;
        k = 0;
        for (int64_t i = 0; i <= last;) {
            if ((i & 7) == 0 && i + 8 <= last + 1 && b->validity[i >> 3] == 0xff) {
                uint64_t x; /* 8 rows without a null: only count the kept ones */
                memcpy(&x, keep + i, 8);
                k += (int64_t)((x * 0x0101010101010101ULL) >> 56);
                i += 8;
                continue;
            }
            unsigned clear = keep[i] & ~(unsigned)(b->validity[i >> 3] >> (i & 7)) & 1u;
            dv[k >> 3] = (uint8_t)(dv[k >> 3] & ~(clear << (k & 7)));
            k += keep[i++];
        }
    }
    return PQT_OK;
}

void pqt_tbl_commit_attached(pqt_table *t, pqt_plan *np, pqt_colbuf *nb, int64_t nkeep)
{
    pqt_tbl_keep_forget(t); /* what the open's filter kept holds the old rows */
    for (int i = 0; i < t->ncols; i++) {
        if (t->cols[i].residency != PQT_RES_FULL) continue;
        pqt_colbuf_free(&t->cols[i].buf);
        t->cols[i].buf = nb[i];
        memset(&nb[i], 0, sizeof nb[i]);
    }
    pqt_plan_replace(&t->plan, np);
    t->nrows = nkeep;
    /* row groups left without a survivor are never decoded again */
    t->rg_extent = pqt_plan_extent(&t->plan);
    t->generation++;
}

pqt_status pqt_table_filter_rows_with(pqt_table *t, const pqt_filter *filter)
{
    const char *call = "pqt_table_filter_rows_with";
    if (!t || !filter) return pqt_err(PQT_MISUSE, "%s: table and filter must not be NULL", call);
    PQT_TBL_HOLD(t, call, "filtering rows");
    int64_t n = t->nrows, nkeep = 0;
    uint8_t *keep = pqt_malloc((size_t)n + 1);
    bool *read = pqt_calloc((size_t)t->ncols + 1, sizeof *read);
    int64_t *idx = NULL;
    pqt_colbuf *nb = NULL;
    pqt_plan np;
    memset(&np, 0, sizeof np);
    pqt_status st = keep && read ? PQT_OK : pqt_err(PQT_NOMEM, "%s: out of memory", call);
    if (st == PQT_OK) st = mask_rows(t, call, filter, keep, &nkeep, read);
    if (st != PQT_OK || nkeep == n) goto done; /* keeping every row changes nothing */
    nb = pqt_calloc((size_t)t->ncols + 1, sizeof *nb);
    if (!nb) {
        st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
        goto undo;
    }
    /* in file order over the file: the plan narrows and never-read columns stay readable */
    bool attached = t->f && !t->detached && !t->plan.perm;
    if (attached) {
        st = pqt_plan_refined(&t->plan, keep, &np);
        if (st != PQT_OK) {
            pqt_err_prefix("%s: %s: ", call, pqt_tbl_where(t));
            goto undo;
        }
    }
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        if (t->cols[i].residency == PQT_RES_FULL)
            st = gather_rows(&t->cols[i], keep, nkeep, &idx, &nb[i]);
    }
    if (st != PQT_OK) {
        pqt_err_prefix("%s: %s: ", call, pqt_tbl_where(t));
        goto undo;
    }
    if (attached)
        pqt_tbl_commit_attached(t, &np, nb, nkeep);
    else
        pqt_tbl_install_rows(t, nb, nkeep, call);
    goto done;
undo:
    forget_reads(t, read, t->ncols);
done:
    if (nb)
        for (int i = 0; i < t->ncols; i++)
            pqt_colbuf_free(&nb[i]);
    pqt_plan_free(&np);
    pqt_mem_free(nb);
    pqt_mem_free(idx);
    pqt_mem_free(read);
    pqt_mem_free(keep);
    return st;
}

/* The _rule forms: one rule's text through a filter of its own. */
static pqt_status with_rule(pqt_table *t, const char *call, const char *rule, uint8_t *keep,
                            bool mask)
{
    if (!t || !rule) return pqt_err(PQT_MISUSE, "%s: table and rule must not be NULL", call);
    pqt_filter *f = NULL;
    PQT_TRY(pqt_filter_new(&f));
    pqt_status st = pqt_filter_add(f, rule);
    if (st != PQT_OK)
        pqt_err_prefix("%s: %s: ", call, pqt_tbl_where(t));
    else
        st = mask ? pqt_table_row_mask_with(t, f, keep) : pqt_table_filter_rows_with(t, f);
    pqt_filter_free(f);
    return st;
}

pqt_status pqt_table_filter_rows(pqt_table *t, const char *rule)
{
    return with_rule(t, "pqt_table_filter_rows", rule, NULL, false);
}

pqt_status pqt_table_row_mask(pqt_table *t, const char *rule, uint8_t *keep)
{
    return with_rule(t, "pqt_table_row_mask", rule, keep, true);
}
