/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_read.c - residency: first touch, LIST width measurement, prefetch,
 * materialize_all, reload and evict (layer: table).
 *
 * A column is read through the table's read plan (read/reader.h): allocated once at
 * the table's row count, each covering row group decoded straight into place. Reading
 * builds a new buffer and only then commits it to the slot, so a failure changes nothing.
 * Several columns (prefetch, materialize_all) are decoded in parallel across columns,
 * each column on one thread; a single column decodes its row groups in parallel instead.
 */
#include <string.h>

#include "read/request.h"
#include "table/table_int.h"
#include "util/mem.h"
#include "util/par.h"

/* a table inside a region decodes on its own thread (util/par.h) */
static int effective_threads(const pqt_table *t)
{
    return pqt_par_threads(t->threads);
}

static pqt_status detached_err(const pqt_table *t, const char *call, const char *name)
{
    return pqt_err(PQT_DETACHED, "%s: column '%s' was never read and the table has detached "
                                 "from %s (%s changed its rows): it can no longer be read",
                   call, name, t->f ? pqt_file_path(t->f) : "its file",
                   t->detached_by ? t->detached_by : "a row change");
}

/* Checks every read shares: readable type, a file, attached. */
static pqt_status check_readable(const pqt_table *t, const pqt_tcol *c, const char *call)
{
    if (c->kind == PQT_NONE) {
        const pqt_col *fc = c->file_col >= 0 ? pqt_file_col(t->f, c->file_col) : NULL;
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' has a type this library cannot "
                                             "read (%s)",
                       call, c->name, fc && fc->why_unsupported ? fc->why_unsupported : "unsupported");
    }
    if (c->file_col < 0)
        return pqt_err(PQT_MISUSE, "%s: column '%s' has no values and no file to read them from",
                       call, c->name);
    if (t->detached) return detached_err(t, call, c->name);
    return PQT_OK;
}

/* Row j of b (one row group's rows) to table row to[j] of out; validity to vbytes. */
static void scatter(const pqt_colbuf *b, const int64_t *to, int64_t m, pqt_colbuf *out,
                    uint8_t *vbytes)
{
    size_t w = out->elem_nbytes;
    switch (w) { /* one loop per width: no per-value size test */
    case 8:
        for (int64_t j = 0; j < m; j++)
            ((uint64_t *)out->data)[to[j]] = ((const uint64_t *)b->data)[j];
        break;
    case 4:
        for (int64_t j = 0; j < m; j++)
            ((uint32_t *)out->data)[to[j]] = ((const uint32_t *)b->data)[j];
        break;
    case 2:
        for (int64_t j = 0; j < m; j++)
            ((uint16_t *)out->data)[to[j]] = ((const uint16_t *)b->data)[j];
        break;
    case 1:
        for (int64_t j = 0; j < m; j++)
            ((uint8_t *)out->data)[to[j]] = ((const uint8_t *)b->data)[j];
        break;
    default:
        for (int64_t j = 0; j < m; j++)
            memcpy((char *)out->data + to[j] * (int64_t)w, (const char *)b->data + j * (int64_t)w,
                   w);
    }
    if (vbytes)
        for (int64_t j = 0; j < m; j++)
            vbytes[to[j]] = pqt_bit_get(b->validity, j);
}

/* A fixed-width scalar column of a sorted plan, straight into sorted position: each row
 * group's selected rows are decoded into a scratch of that row group's size and scattered
 * to their table rows (plan.perm_inv), so the column is never held in file order. Row
 * groups go in parallel; validity goes through one byte a row (bits of one byte may belong
 * to several row groups) and is packed at the end. */
static pqt_status read_scattered(pqt_table *t, const pqt_col *fc, int threads,
                                 pqt_read_counters *rc, pqt_colbuf *out, void *borrowed_data)
{
    const pqt_plan *p = &t->plan;
    PQT_TRY(pqt_colbuf_alloc(out, fc, p->nsel, 0, borrowed_data));
    uint8_t *vbytes = out->validity ? pqt_calloc((size_t)p->nsel + 1, 1) : NULL;
    pqt_status st = PQT_OK;
    if (out->validity && !vbytes) {
        st = pqt_err(PQT_NOMEM, "out of memory reading column '%s'", fc->path);
        goto done;
    }
    int nthr = threads > 1 && p->nrg > 1 ? threads : 1;
    pqt_read_src src = pqt_file_read_src(t->f);
    pqt_par_fail pf;
    pqt_par_fail_init(&pf);
#pragma omp parallel num_threads(nthr) if (nthr > 1)
    {
        pqt_par_thread th;
        pqt_par_enter(&th);
#pragma omp for schedule(dynamic, 1)
        for (int rg = 0; rg < p->nrg; rg++) {
            int64_t m = p->sel[rg].nsel;
            if (m == 0 || pqt_par_skip(&pf, rg)) continue;
            pqt_colbuf b;
            pqt_read_req rq = pqt_read_req_group(&src, fc, p, rg);
            rq.counters = rc;
            pqt_status rst = pqt_read_column(&rq, &b);
            pqt_par_fail_note(&pf, rg, rst, &th);
            if (rst != PQT_OK) continue;
            scatter(&b, p->perm_inv + p->dst_row[rg], m, out, vbytes);
            pqt_colbuf_free(&b);
        }
        pqt_par_leave(&th);
    }
    st = pqt_par_fail_raise(&pf);
    if (st == PQT_OK && vbytes) {
        memset(out->validity, 0, ((size_t)p->nsel + 7) / 8);
        for (int64_t i = 0; i < p->nsel; i++)
            out->validity[i >> 3] |= (uint8_t)(vbytes[i] << (i & 7));
    }
done:
    pqt_mem_free(vbytes);
    if (st != PQT_OK) pqt_colbuf_free(out);
    return st;
}

/* The plan's rows of file column fc in plan order (borrowed_data: see pqt_read_req). */
static pqt_status read_plan(pqt_table *t, const pqt_col *fc, int threads, pqt_read_counters *rc,
                            pqt_colbuf *out, void *borrowed_data)
{
    pqt_read_src src = pqt_file_read_src(t->f);
    pqt_read_req rq = pqt_read_req_plan(&src, fc, &t->plan);
    rq.threads = threads;
    rq.counters = rc;
    rq.borrowed_data = borrowed_data;
    return pqt_read_column(&rq, out);
}

/* Read column c through the plan into out; settles kind/width. Writes nothing of t but
 * its scan counters (atomic), so different columns may be read at once. */
static pqt_status read_column(pqt_table *t, pqt_tcol *c, int threads, pqt_colbuf *out,
                              int *kind_ret, int *width_ret)
{
    const pqt_col *fc = pqt_file_col(t->f, c->file_col);
    const pqt_plan *p = &t->plan;
    pqt_colbuf b;
    pqt_read_counters rc = {0};
    bool scatter = p->perm && p->perm_inv && !fc->is_list && !PQT_KIND_IS_BYTES(fc->elem_kind);
    if (scatter) { /* read a row group at a time: the source hears of all of them first */
        pqt_read_src src = pqt_file_read_src(t->f);
        pqt_read_req rq = pqt_read_req_plan(&src, fc, p);
        pqt_read_hint(&rq, 1);
    }
    pqt_status rst = scatter ? read_scattered(t, fc, threads, &rc, &b, NULL)
                             : read_plan(t, fc, threads, &rc, &b, NULL);
    pqt_tbl_scan_add(t, c, &rc);
    if (rst != PQT_OK) return rst;
    int kind = c->kind, width = c->width;
    pqt_status st = PQT_OK;
    if (fc->is_list) {
        int uw = pqt_colbuf_uniform_width(&b);
        int fw = 0;
        /* no rows to measure: the file's width if it knows one without reading (a writer's
         * col_size entry in a file without rows, or an earlier measurement) */
        if (!c->kind_known && b.nrows == 0 &&
            pqt_file_list_width(t->f, c->file_col, 0, &fw) == PQT_OK && fw > 0)
            uw = fw;
        if (!c->kind_known) {
            /* the read settles the width as a side effect: one pass, not two */
            kind = fc->elem_kind | (uw > 0 ? PQT_VECTOR : PQT_LIST);
            width = uw > 0 ? uw : 0;
        } else if ((kind & PQT_VECTOR) && uw != width && b.nrows > 0) {
            st = pqt_err(PQT_CORRUPT, "column '%s': rows disagree with the measured width %d",
                         c->name, width);
        }
    }
    if (st == PQT_OK && p->perm && !scatter) {
        /* strings and lists are variable-length: read in plan order, then gathered */
        pqt_colbuf g;
        st = pqt_tbl_buf_gather(&b, NULL, p->perm, p->nsel, (kind & PQT_VECTOR) ? width : 0, &g);
        if (st == PQT_OK) {
            pqt_colbuf_free(&b);
            b = g;
        }
    }
    if (st == PQT_OK && c->decode_kind) {
        st = pqt_tbl_buf_convert(&b, c->decode_kind, c->cast_exact, c->name);
        if (st == PQT_OK) kind = (kind & ~0x1f) | c->decode_kind;
    }
    if (st != PQT_OK) {
        pqt_colbuf_free(&b);
        return st;
    }
    *out = b;
    *kind_ret = kind;
    *width_ret = width;
    return PQT_OK;
}

/* read_column, or the values the open's filter kept for c (the caller holds t). */
static pqt_status read_or_kept(pqt_table *t, pqt_tcol *c, int threads, pqt_colbuf *out,
                               int *kind_ret, int *width_ret)
{
    if (!pqt_tbl_keep_take(t, c, out)) return read_column(t, c, threads, out, kind_ret, width_ret);
    *kind_ret = c->kind;
    *width_ret = c->width;
    return PQT_OK;
}

/* Read the slots cis[0..n) (readable) that are not resident and commit them all, or none. */
static pqt_status read_many(pqt_table *t, int *cis, int n, const char *call)
{
    if (n == 0) return PQT_OK;
    PQT_TBL_HOLD(t, call, "a first read of a column");
    /* Another thread may have made some resident between our test and our hold: never read
     * them again, since readers may be copying out of the buffers a commit would free. */
    int m = 0;
    for (int k = 0; k < n; k++)
        if (t->cols[cis[k]].residency != PQT_RES_FULL) cis[m++] = cis[k];
    n = m;
    if (n == 0) return PQT_OK;
    pqt_colbuf *bufs = pqt_calloc((size_t)n, sizeof *bufs);
    int *kinds = pqt_calloc((size_t)n, sizeof *kinds),
        *widths = pqt_calloc((size_t)n, sizeof *widths);
    pqt_tbl_qc_note *notes = pqt_calloc((size_t)n, sizeof *notes);
    pqt_status st = PQT_OK;
    if (!bufs || !kinds || !widths || !notes) {
        st = pqt_err(PQT_NOMEM, "%s: out of memory", call);
        goto done;
    }
    int threads = effective_threads(t);
    pqt_read_src src = pqt_file_read_src(t->f);
    if (n > 1 && src.io->ops) { /* the columns' ranges together: a remote source coalesces
                                   across columns (docs/remote.md) */
        pqt_read_req *rqs = pqt_calloc((size_t)n, sizeof *rqs);
        for (int k = 0; rqs && k < n; k++)
            rqs[k] = pqt_read_req_plan(&src, pqt_file_col(t->f, t->cols[cis[k]].file_col),
                                       &t->plan);
        if (rqs) pqt_read_hint(rqs, n);
        pqt_mem_free(rqs);
    }
    if (n > 1 && threads > 1) {
        /* columns in parallel, each column's row groups on its own thread */
        pqt_par_fail pf;
        pqt_par_fail_init(&pf);
#pragma omp parallel num_threads(pqt_par_threads_for(threads, n))
        {
            pqt_par_thread th; /* the worker's own message stays */
            pqt_par_enter(&th);
#pragma omp for schedule(dynamic, 1)
            for (int k = 0; k < n; k++)
                pqt_par_fail_note(
                    &pf, k, read_or_kept(t, &t->cols[cis[k]], 1, &bufs[k], &kinds[k], &widths[k]),
                    &th);
            pqt_par_leave(&th);
        }
        st = pqt_par_fail_raise(&pf);
    } else {
        for (int k = 0; st == PQT_OK && k < n; k++)
            st = read_or_kept(t, &t->cols[cis[k]], threads, &bufs[k], &kinds[k], &widths[k]);
    }
    if (st != PQT_OK) pqt_err_prefix("%s: ", call);
    /* qc before the commit: a violation in hard mode leaves every column unread */
    for (int k = 0; k < n && st == PQT_OK; k++)
        st = pqt_tbl_qc_check(t, &t->cols[cis[k]], &bufs[k], call, &notes[k]);
    if (st == PQT_OK) {
        for (int k = 0; k < n; k++) {
            pqt_tcol *c = &t->cols[cis[k]];
            pqt_colbuf_free(&c->buf);
            c->buf = bufs[k];
            memset(&bufs[k], 0, sizeof bufs[k]);
            /* A known kind may be read by other threads right now: write only news. The
             * atomic stores come last, so whoever sees them sees the values. */
            if (c->kind != kinds[k]) c->kind = kinds[k];
            if (c->width != widths[k]) c->width = widths[k];
            if (!c->kind_known) c->kind_known = true;
            c->residency = PQT_RES_FULL;
        }
        for (int k = 0; k < n; k++) pqt_tbl_qc_emit(t, &notes[k]);
    }
done:
    if (bufs)
        for (int k = 0; k < n; k++) pqt_colbuf_free(&bufs[k]);
    pqt_mem_free(bufs);
    pqt_mem_free(kinds);
    pqt_mem_free(widths);
    pqt_mem_free(notes);
    return st;
}

pqt_status pqt_tbl_touch(pqt_table *t, int ci, const char *call)
{
    pqt_tcol *c = &t->cols[ci];
    if (c->residency == PQT_RES_FULL) return PQT_OK;
    PQT_TRY(check_readable(t, c, call));
    return read_many(t, &ci, 1, call);
}

pqt_status pqt_tbl_resident(pqt_table *t, const char *call, const char *name, int *ci_ret)
{
    int ci = pqt_tbl_find(t, name);
    if (ci < 0 && name && strcmp(name, PQT_TBL_ROW_INDEX) == 0 && t && t->ri_possible && t->f)
        return pqt_tbl_row_index(t, call, ci_ret);
    if (ci < 0 && pqt_tbl_file_col_possible(t, name)) return pqt_tbl_file_col(t, call, ci_ret);
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    PQT_TRY(pqt_tbl_touch(t, ci, call));
    *ci_ret = ci;
    return PQT_OK;
}

int pqt_tbl_direct_slot(const pqt_table *t, const char *name, int to_kind)
{
    int ci = pqt_tbl_find(t, name);
    if (ci < 0) return -1;
    const pqt_tcol *c = &t->cols[ci];
    if (c->residency == PQT_RES_FULL || !c->kind_known || c->file_col < 0 || t->detached ||
        c->kind == PQT_NONE || (c->kind & (PQT_VECTOR | PQT_LIST)) || c->decode_kind ||
        (t->plan.perm && !t->plan.perm_inv) || pqt_file_col(t->f, c->file_col)->is_list)
        return -1;
    int ek = PQT_KIND_ELEMENT(c->kind);
    if (PQT_KIND_IS_BYTES(ek) || ek == PQT_UINT64 || (to_kind != 0 && to_kind != ek)) return -1;
    return ci;
}

/* A first read's outcome st (its message prefixed with call), then c's qc rule on what it
 * made (b, freed on a violation). */
static pqt_status first_read_checked(pqt_table *t, pqt_tcol *c, pqt_status st, const char *call,
                                     pqt_colbuf *b, pqt_tbl_qc_note *note)
{
    if (st != PQT_OK) {
        pqt_err_prefix("%s: ", call);
        return st;
    }
    st = pqt_tbl_qc_check(t, c, b, call, note);
    if (st != PQT_OK) pqt_colbuf_free(b);
    return st;
}

pqt_status pqt_tbl_read_direct(pqt_table *t, int ci, const char *call, void *dst,
                               bool want_validity, pqt_colbuf *b)
{
    /* held like a first touch: the same refusal inside a shared parallel region */
    PQT_TBL_HOLD(t, call, "a first read of a column");
    pqt_tcol *c = &t->cols[ci];
    const pqt_col *fc = pqt_file_col(t->f, c->file_col);
    /* no bitmap the caller will not see (null rows are 0 either way), unless a qc rule may
     * look at it: fresh memory every call, it cost a page fault per 32,768 rows */
    pqt_col no_bitmap;
    if (!want_validity && !pqt_tbl_qc_has_rule(t, c)) {
        no_bitmap = *fc;
        no_bitmap.nullable = false;
        fc = &no_bitmap;
    }
    const pqt_plan *p = &t->plan;
    pqt_read_counters rc = {0};
    /* a sorted plan scatters straight into the caller's memory, in sorted order; values the
     * open's filter kept are copied there instead (and leave the table: held once) */
    pqt_status st = PQT_OK;
    if (!pqt_tbl_keep_take_into(t, c, dst, b)) {
        st = p->perm ? read_scattered(t, fc, effective_threads(t), &rc, b, dst)
                     : read_plan(t, fc, effective_threads(t), &rc, b, dst);
        pqt_tbl_scan_add(t, c, &rc);
    }
    pqt_tbl_qc_note note;
    /* on a violation dst, the caller's, keeps the values, the table nothing */
    PQT_TRY(first_read_checked(t, c, st, call, b, &note));
    pqt_tbl_qc_emit(t, &note);
    return PQT_OK;
}

int pqt_tbl_transient_slot(const pqt_table *t, const char *name)
{
    int ci = pqt_tbl_find(t, name);
    if (ci < 0) return -1;
    const pqt_tcol *c = &t->cols[ci];
    if (c->residency == PQT_RES_FULL || c->file_col < 0 || t->detached || c->kind == PQT_NONE ||
        c->is_row_index || c->added)
        return -1;
    return ci;
}

pqt_status pqt_tbl_read_transient(pqt_table *t, int ci, const char *call, pqt_colbuf *b)
{
    pqt_tcol *c = &t->cols[ci];
    PQT_TRY(check_readable(t, c, call));
    PQT_TBL_HOLD(t, call, "a first read of a column");
    int kind, width;
    pqt_tbl_qc_note note;
    PQT_TRY(first_read_checked(t, c, read_or_kept(t, c, effective_threads(t), b, &kind, &width),
                               call, b, &note));
    /* the read measured the width: what a resident read would settle (news only, as
     * read_many writes them) */
    if (c->kind != kind) c->kind = kind;
    if (c->width != width) c->width = width;
    if (!c->kind_known) c->kind_known = true;
    pqt_tbl_qc_emit(t, &note);
    return PQT_OK;
}

pqt_status pqt_tbl_qc_probe(pqt_table *t, int ci, const char *call)
{
    pqt_tcol *c = &t->cols[ci];
    if (!pqt_tbl_qc_has_rule(t, c) || c->residency == PQT_RES_FULL) return PQT_OK;
    PQT_TRY(check_readable(t, c, call));
    PQT_TBL_HOLD(t, call, "a qc check of a column");
    pqt_colbuf b;
    int kind, width;
    pqt_status st = read_column(t, c, effective_threads(t), &b, &kind, &width);
    if (st != PQT_OK) {
        pqt_err_prefix("%s: ", call);
        return st;
    }
    pqt_tbl_qc_note note;
    st = pqt_tbl_qc_check(t, c, &b, call, &note);
    pqt_colbuf_free(&b);
    if (st == PQT_OK) pqt_tbl_qc_emit(t, &note);
    return st;
}

pqt_status pqt_tbl_resolve_kind(pqt_table *t, int ci, const char *call)
{
    pqt_tcol *c = &t->cols[ci];
    if (c->kind_known) return PQT_OK;
    if (t->detached) return detached_err(t, call, c->name);
    PQT_TBL_HOLD(t, call, "measuring the width of a LIST column");
    if (c->kind_known) return PQT_OK; /* measured by the thread that held t before us */
    const pqt_col *fc = pqt_file_col(t->f, c->file_col);
    int w;
    if (t->plan.lo == 0 && t->plan.hi == pqt_file_nrows(t->f) && t->plan.nsel == t->plan.hi) {
        /* the whole file: the file caches the answer for every table on it */
        w = pqt_file_list_width_discover(t->f, c->file_col);
        if (w == -2) {
            pqt_err_prefix("%s: column '%s': ", call, c->name);
            return PQT_CORRUPT;
        }
    } else {
        /* the table's rows are its scope: a slice's covering row groups, or the rows a
         * filter or sample kept */
        pqt_read_src src = pqt_file_read_src(t->f);
        pqt_read_counters rc = {0};
        pqt_status st = pqt_read_list_width(&src, fc, &t->plan, effective_threads(t), 1, &rc, &w);
        pqt_tbl_scan_add(t, c, &rc);
        if (st != PQT_OK) {
            pqt_err_prefix("%s: column '%s': ", call, c->name);
            return st;
        }
        if (w == PQT_READ_WIDTH_NO_ROWS) w = -1;
    }
    int ek = c->decode_kind ? c->decode_kind : fc->elem_kind;
    c->kind = ek | (w > 0 ? PQT_VECTOR : PQT_LIST);
    c->width = w > 0 ? w : 0;
    c->kind_known = true;
    return PQT_OK;
}

pqt_status pqt_table_prefetch(pqt_table *t, const char *const *names, int n)
{
    const char *call = "pqt_table_prefetch";
    if (!t || (n > 0 && !names) || n < 0) return pqt_err(PQT_MISUSE, "%s: bad arguments", call);
    int *cis = pqt_calloc((size_t)n + 1, sizeof *cis);
    /* slots already listed: a scan of the list per name was quadratic (issue 28) */
    uint8_t *listed = pqt_calloc((size_t)t->ncols + 1, 1);
    if (!cis || !listed) {
        pqt_mem_free(cis);
        pqt_mem_free(listed);
        return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    int nread = 0;
    bool want_ri = false, want_pf = false;
    pqt_status st = PQT_OK;
    for (int k = 0; k < n && st == PQT_OK; k++) {
        int ci = pqt_tbl_find(t, names[k]);
        if (ci < 0 && names[k] && strcmp(names[k], PQT_TBL_ROW_INDEX) == 0 && t->ri_possible &&
            t->f) {
            if (t->detached)
                st = pqt_err(PQT_DETACHED, "%s: the row index cannot be built: the table has "
                                           "detached from %s",
                             call, pqt_file_path(t->f));
            want_ri = true;
            continue;
        }
        if (ci < 0 && pqt_tbl_file_col_possible(t, names[k])) {
            want_pf = true;
            continue;
        }
        st = pqt_tbl_lookup(t, call, names[k], &ci);
        if (st != PQT_OK || t->cols[ci].residency == PQT_RES_FULL) continue;
        st = check_readable(t, &t->cols[ci], call);
        if (st == PQT_OK && !listed[ci]) {
            listed[ci] = 1;
            cis[nread++] = ci;
        }
    }
    pqt_tbl_hold h = {NULL};
    if (st == PQT_OK && (nread > 0 || want_ri || want_pf))
        st = pqt_tbl_hold_take(&h, t, call, "a first read of a column");
    /* the row index goes first: if the reads then fail, it stays built, which is harmless
     * (building it is what asking for it means) and it cannot fail after the reads */
    int ri;
    if (st == PQT_OK && want_ri) st = pqt_tbl_row_index(t, call, &ri);
    if (st == PQT_OK && want_pf) st = pqt_tbl_file_col(t, call, &ri);
    if (st == PQT_OK) st = read_many(t, cis, nread, call);
    pqt_tbl_hold_drop(&h);
    pqt_mem_free(cis);
    pqt_mem_free(listed);
    return st;
}

pqt_status pqt_table_materialize_all(pqt_table *t)
{
    const char *call = "pqt_table_materialize_all";
    if (!t) return pqt_err(PQT_MISUSE, "%s: table is NULL", call);
    int *cis = pqt_calloc((size_t)t->ncols + 1, sizeof *cis);
    if (!cis) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    int n = 0;
    pqt_status st = PQT_OK;
    for (int i = 0; i < t->ncols && st == PQT_OK; i++) {
        pqt_tcol *c = &t->cols[i];
        if (c->residency == PQT_RES_FULL || c->kind == PQT_NONE) continue;
        st = check_readable(t, c, call);
        cis[n++] = i;
    }
    if (st == PQT_OK) st = read_many(t, cis, n, call);
    pqt_mem_free(cis);
    return st;
}

/* Common refusals of reload and evict. */
static pqt_status check_rereadable(pqt_table *t, const char *call, const char *name, int force,
                                   int *ci_ret)
{
    int ci = -1;
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    pqt_tcol *c = &t->cols[ci];
    if (c->is_row_index || c->added || c->file_col < 0)
        return pqt_err(PQT_MISUSE, "%s: column '%s' was %s, not read from the file: there is "
                                   "nothing to re-read it from",
                       call, name, c->is_row_index ? "generated (the row index)" : "made in memory");
    if (t->detached)
        return pqt_err(PQT_DETACHED, "%s: column '%s': the table has detached from %s (%s "
                                     "changed its rows)",
                       call, name, pqt_file_path(t->f), t->detached_by ? t->detached_by : "a row change");
    if (c->user_written && !force)
        return pqt_err(PQT_MISUSE, "%s: column '%s' holds values written by the caller; pass "
                                   "force to discard them",
                       call, name);
    *ci_ret = ci;
    return PQT_OK;
}

pqt_status pqt_table_reload(pqt_table *t, const char *name, int force)
{
    const char *call = "pqt_table_reload";
    int ci = -1;
    PQT_TRY(check_rereadable(t, call, name, force, &ci));
    PQT_TRY(check_readable(t, &t->cols[ci], call));
    PQT_TBL_HOLD(t, call, "reloading a column");
    pqt_colbuf old = t->cols[ci].buf;
    int old_res = t->cols[ci].residency;
    t->cols[ci].residency = PQT_RES_EMPTY;
    memset(&t->cols[ci].buf, 0, sizeof old);
    pqt_status st = read_many(t, &ci, 1, call);
    if (st != PQT_OK) {
        t->cols[ci].buf = old;
        t->cols[ci].residency = old_res;
        return st;
    }
    pqt_colbuf_free(&old);
    t->cols[ci].user_written = false;
    t->generation++;
    return PQT_OK;
}

pqt_status pqt_table_evict(pqt_table *t, const char *name, int force)
{
    const char *call = "pqt_table_evict";
    int ci = -1;
    PQT_TRY(check_rereadable(t, call, name, force, &ci));
    pqt_tcol *c = &t->cols[ci];
    if (c->residency != PQT_RES_FULL && !c->kept) return PQT_OK;
    PQT_TBL_HOLD(t, call, "evicting a column");
    pqt_tbl_keep_free_col(c); /* what the open's filter kept goes too */
    pqt_colbuf_free(&c->buf);
    c->residency = PQT_RES_EMPTY;
    c->user_written = false;
    t->generation++;
    return PQT_OK;
}

/* A list of lists is never resident: it is read from the file over the table's rows, which
 * must be a slice of the file's (docs/architecture.md, "Lists of lists"). */
pqt_status pqt_table_get_nested_list(pqt_table *t, const char *name, pqt_nested_list **ret)
{
    static const char call[] = "pqt_table_get_nested_list";
    if (!t || !name || !ret) return pqt_err(PQT_MISUSE, "%s: NULL argument", call);
    int ci;
    PQT_TRY(pqt_tbl_lookup(t, call, name, &ci));
    const pqt_tcol *c = &t->cols[ci];
    if (!t->f || c->file_col < 0 || !pqt_file_column_nested_levels(t->f, c->file_col))
        return pqt_err(PQT_KIND, "%s: %s: column '%s' is not a list of lists read from the file",
                       call, pqt_tbl_where(t), name);
    if (t->detached) return detached_err(t, call, name);
    if (t->plan.perm || t->plan.nsel != t->plan.hi - t->plan.lo || t->nrows != t->plan.nsel)
        return pqt_err(PQT_UNSUPPORTED, "%s: %s: column '%s': a list of lists is read only "
                                        "over a slice of the file's rows (this table was "
                                        "filtered, sampled or sorted at open); use "
                                        "pqt_file_read_nested_list",
                       call, pqt_tbl_where(t), name);
    return pqt_file_read_nested_list(t->f, c->file_col, t->plan.lo + 1, t->plan.hi, ret);
}
