/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_filter_keep.c - a filter column decoded once (layer: table; docs/pruning.md, "A
 * filter column kept for the payload").
 *
 * Before the filter pass the open chooses, under PQT_OPT_FILTER_KEEP_BYTES, the filter
 * columns the pass may hand out (pqt_scan_keep: fixed-width values into one block sized for
 * the slice's rows, validity and strings as pieces per row group). After the pass, a column
 * handed out by every row group that kept a row is assembled over the filtered plan (staged:
 * its qc rule is checked on it, as the open checks every filter column); at the end of the
 * open, after the sample, the sort and the limit, it is compacted and ordered to the final
 * plan and installed as the column's resident values, the state a first read leaves. A
 * column some row group did not hand out (decoded as dictionary codes, proved by statistics
 * or a dictionary, past the budget) is not staged: it is read on first touch, as before.
 * Keeping is never a reason for an open to fail: a piece that cannot be made or assembled
 * only means the column is read again.
 */
#include <string.h>

#include "scan/scan.h"
#include "table/table_int.h"
#include "util/mem.h"

/* The columns staged between the filter pass and the end of the open. */
struct pqt_tbl_keep {
    int n;
    int *ci;          /* n slots */
    pqt_colbuf *bufs; /* n columns over sels, in file order */
    pqt_sel *sels;    /* the plan's selections when staged (plan.nrg) */
};

/* A kept block dropped unread goes to the large-block cache (pqt_free, mem.c): the next
 * open's block of this size then takes memory already faulted in, not fresh zeroed pages. */
static void free_values(pqt_colbuf *b)
{
    if (!b->data_borrowed) pqt_free(b->data);
    b->data = NULL;
    pqt_colbuf_free(b);
}

static int64_t budget(const pqt_table *t)
{
    return t->opts.keep_bytes_plus1 > 0 ? t->opts.keep_bytes_plus1 - 1
                                        : PQT_FILTER_KEEP_BYTES_DEFAULT;
}

/* What keeping file column fc over the plan may hold: the values and validity, and for
 * strings the chunks' uncompressed bytes (their values cannot take more). */
static int64_t cost(const pqt_table *t, const pqt_col *fc)
{
    const pqt_plan *p = &t->plan;
    int64_t n = p->nsel, bytes = (n + 7) / 8;
    size_t w = pqt_kind_elem_nbytes(fc->elem_kind);
    if (!PQT_KIND_IS_BYTES(fc->elem_kind)) return bytes + n * (int64_t)w;
    const pqt_file_meta *m = pqt_file_footer(t->f);
    bytes += 8 * (n + 1);
    for (int rg = 0; rg < p->nrg; rg++) {
        if (p->sel[rg].nsel == 0 || fc->chunk_col >= m->row_groups[rg].ncolumns) continue;
        int64_t u = m->row_groups[rg].columns[fc->chunk_col].meta.total_uncompressed_size;
        bytes += u > 0 ? u : 0;
    }
    return bytes;
}

void pqt_tbl_keep_pass_free(pqt_tbl_keep_pass *kp, int nrg)
{
    for (int k = 0; k < kp->nkeep; k++) {
        pqt_free(kp->keep[k].values);
        for (int rg = 0; kp->keep[k].pieces && rg < nrg; rg++)
            pqt_scan_keep_piece_free(&kp->keep[k].pieces[rg]);
        pqt_mem_free(kp->keep[k].pieces);
    }
    pqt_mem_free(kp->keep);
    pqt_mem_free(kp->ci);
    pqt_mem_free(kp->dst_row);
    memset(kp, 0, sizeof *kp);
}

void pqt_tbl_keep_pass_prepare(const pqt_table *t, const pqt_fprog *prog,
                               const pqt_col *const *slot_col, pqt_tbl_keep_pass *kp)
{
    memset(kp, 0, sizeof *kp);
    int nslots = pqt_scan_prog_ncols(prog), nrg = t->plan.nrg;
    int64_t left = budget(t);
    if (left <= 0 || t->plan.nsel == 0 || t->plan.perm) return;
    kp->keep = pqt_calloc((size_t)nslots + 1, sizeof *kp->keep);
    kp->ci = pqt_calloc((size_t)nslots + 1, sizeof *kp->ci);
    kp->dst_row = pqt_malloc_array((size_t)nrg + 1, sizeof *kp->dst_row);
    if (!kp->keep || !kp->ci || !kp->dst_row) {
        pqt_tbl_keep_pass_free(kp, nrg);
        return;
    }
    memcpy(kp->dst_row, t->plan.dst_row, (size_t)nrg * sizeof *kp->dst_row);
    for (int s = 0; s < nslots; s++) {
        int ci = pqt_scan_prog_col(prog, s);
        const pqt_col *fc = slot_col[s];
        if (ci >= t->ncols || !pqt_scan_keepable(fc)) continue; /* the row index, hidden */
        const pqt_tcol *c = &t->cols[ci];
        if (c->residency == PQT_RES_FULL || c->decode_kind || c->kind != fc->kind) continue;
        int64_t need = cost(t, fc);
        if (need > left) continue;
        pqt_scan_keep *k = &kp->keep[kp->nkeep];
        k->slot = s;
        k->pieces = pqt_calloc((size_t)nrg + 1, sizeof *k->pieces);
        size_t w = pqt_kind_elem_nbytes(fc->elem_kind);
        if (!PQT_KIND_IS_BYTES(fc->elem_kind))
            k->values = pqt_malloc_array((size_t)t->plan.nsel, w);
        if (!k->pieces || (!PQT_KIND_IS_BYTES(fc->elem_kind) && !k->values)) {
            pqt_mem_free(k->pieces);
            pqt_mem_free(k->values);
            memset(k, 0, sizeof *k);
            continue; /* short of memory: this column is read again, as without keeping */
        }
        kp->ci[kp->nkeep++] = ci;
        left -= need;
    }
}

/* Keep column k of the pass over t's (filtered) plan into *out; false when some row group
 * that kept rows did not hand it out, or memory ran short. */
static bool assemble(pqt_table *t, pqt_tbl_keep_pass *kp, int k, const pqt_col *fc, pqt_colbuf *out)
{
    const pqt_plan *p = &t->plan;
    pqt_scan_keep *kk = &kp->keep[k];
    int64_t bytes = 0;
    for (int rg = 0; rg < p->nrg; rg++) {
        const pqt_scan_keep_piece *pc = &kk->pieces[rg];
        int64_t n = p->sel[rg].nsel;
        if (n > 0 && (!pc->ok || pc->nrows != n)) return false;
        if (n > 0 && !kk->values) bytes += pc->str_offsets[n];
    }
    if (p->nsel == 0) return false;
    pqt_err_mute();
    pqt_status st = PQT_OK;
    if (kk->values) {
        /* the survivors move down to their rows in the filtered plan (in row-group order:
         * every row lands at or before where it was) */
        size_t w = pqt_kind_elem_nbytes(fc->elem_kind);
        char *v = kk->values;
        for (int rg = 0; rg < p->nrg; rg++) {
            int64_t n = p->sel[rg].nsel;
            if (n > 0 && p->dst_row[rg] != kp->dst_row[rg])
                memmove(v + p->dst_row[rg] * (int64_t)w, v + kp->dst_row[rg] * (int64_t)w,
                        (size_t)n * w);
        }
        /* no shrinking realloc: a block this large would be copied to fresh memory; the
         * pages past the survivors were never touched (row groups' survivors start their
         * segments) or hold a row group's first survivors: they cost no more than that */
        st = pqt_colbuf_alloc(out, fc, p->nsel, 0, kk->values);
        if (st == PQT_OK) {
            out->data_borrowed = false; /* the block is the column's from now on */
            kk->values = NULL;
        }
    } else {
        st = pqt_colbuf_alloc(out, fc, p->nsel, 0, NULL);
        if (st == PQT_OK && bytes > 0) {
            st = pqt_buf_reserve(&out->str_bytes, (size_t)bytes);
            if (st != PQT_OK) pqt_colbuf_free(out); /* the offsets and validity it made */
        }
        if (st == PQT_OK) {
            int64_t base = 0;
            out->str_offsets[0] = 0;
            for (int rg = 0; rg < p->nrg; rg++) {
                const pqt_scan_keep_piece *pc = &kk->pieces[rg];
                int64_t n = p->sel[rg].nsel, at = p->dst_row[rg],
                        nb = n > 0 ? pc->str_offsets[n] : 0;
                if (nb > 0) memcpy(out->str_bytes.data + base, pc->str_bytes.data, (size_t)nb);
                for (int64_t i = 1; i <= n; i++)
                    out->str_offsets[at + i] = base + pc->str_offsets[i];
                base += nb;
            }
            out->str_bytes.len = (size_t)base;
        }
    }
    pqt_err_unmute();
    if (st != PQT_OK) return false;
    if (out->validity)
        for (int rg = 0; rg < p->nrg; rg++) {
            const pqt_scan_keep_piece *pc = &kk->pieces[rg];
            int64_t n = p->sel[rg].nsel;
            if (n == 0) continue;
            if (pc->validity)
                pqt_bits_copy(out->validity, p->dst_row[rg], pc->validity, 0, n);
            else
                pqt_bits_set_range(out->validity, p->dst_row[rg], n);
        }
    return true;
}

void pqt_tbl_keep_stage(pqt_table *t, pqt_tbl_keep_pass *kp, const pqt_col *const *slot_col)
{
    int nrg = t->plan.nrg;
    if (kp->nkeep == 0) return;
    pqt_tbl_keep *st = pqt_calloc(1, sizeof *st);
    if (st) {
        st->ci = pqt_calloc((size_t)kp->nkeep, sizeof *st->ci);
        st->bufs = pqt_calloc((size_t)kp->nkeep, sizeof *st->bufs);
    }
    pqt_err_mute();
    bool ok = st && st->ci && st->bufs && pqt_plan_sels_copy(&t->plan, &st->sels) == PQT_OK;
    pqt_err_unmute();
    for (int k = 0; ok && k < kp->nkeep; k++) {
        pqt_colbuf b;
        memset(&b, 0, sizeof b);
        if (!assemble(t, kp, k, slot_col[kp->keep[k].slot], &b)) continue;
        st->ci[st->n] = kp->ci[k];
        st->bufs[st->n++] = b;
    }
    pqt_tbl_keep_pass_free(kp, nrg);
    if (ok && st->n > 0) {
        pqt_tbl_keep_drop(t);
        t->keep = st;
        return;
    }
    if (st) {
        t->keep = st; /* freed the one way */
        pqt_tbl_keep_drop(t);
    }
}

void pqt_tbl_keep_drop(pqt_table *t)
{
    pqt_tbl_keep *st = t->keep;
    if (!st) return;
    for (int k = 0; st->bufs && k < st->n; k++)
        free_values(&st->bufs[k]);
    pqt_plan_sels_free(st->sels, t->plan.nrg);
    pqt_mem_free(st->bufs);
    pqt_mem_free(st->ci);
    pqt_mem_free(st);
    t->keep = NULL;
}

pqt_status pqt_tbl_keep_qc_probe(pqt_table *t, int ci, const char *call)
{
    const pqt_tbl_keep *st = t->keep;
    for (int k = 0; st && k < st->n; k++) {
        if (st->ci[k] != ci) continue;
        pqt_tcol *c = &t->cols[ci];
        if (!pqt_tbl_qc_has_rule(t, c)) return PQT_OK;
        pqt_tbl_qc_note note;
        PQT_TRY(pqt_tbl_qc_check(t, c, &st->bufs[k], call, &note));
        pqt_tbl_qc_emit(t, &note);
        return PQT_OK;
    }
    return pqt_tbl_qc_probe(t, ci, call);
}

/* Staged column b (the rows of the staged selections, file order) to the rows and order of
 * t's plan as it ends the open; false when memory ran short. */
static bool follow_plan(pqt_table *t, const pqt_sel *staged, pqt_colbuf *b)
{
    const pqt_plan *p = &t->plan;
    bool same = true;
    for (int rg = 0; rg < p->nrg && same; rg++)
        same = staged[rg].nsel == p->sel[rg].nsel;
    if (!same) pqt_scan_compact_rows(b, staged, p->sel, p->nrg);
    if (!p->perm) return true;
    pqt_colbuf g;
    pqt_err_mute();
    pqt_status st = pqt_tbl_buf_gather(b, NULL, p->perm, p->nsel, 0, &g);
    pqt_err_unmute();
    if (st != PQT_OK) return false;
    pqt_colbuf_free(b);
    *b = g;
    return true;
}

void pqt_tbl_keep_install(pqt_table *t)
{
    pqt_tbl_keep *st = t->keep;
    for (int k = 0; st && k < st->n; k++) {
        pqt_tcol *c = &t->cols[st->ci[k]];
        pqt_colbuf *b = &st->bufs[k];
        /* a top-n's key is resident already; a table with no rows left holds nothing */
        if (c->residency == PQT_RES_FULL || c->kept || t->plan.nsel == 0 ||
            !follow_plan(t, st->sels, b))
            continue;
        pqt_colbuf *kb = pqt_malloc(sizeof *kb);
        if (!kb) continue;
        *kb = *b;
        memset(b, 0, sizeof *b);
        c->kept = kb;
    }
    pqt_tbl_keep_drop(t);
}

void pqt_tbl_keep_free_col(pqt_tcol *c)
{
    if (!c->kept) return;
    free_values(c->kept);
    pqt_mem_free(c->kept);
    c->kept = NULL;
}

void pqt_tbl_keep_forget(pqt_table *t)
{
    for (int i = 0; i < t->ncols; i++)
        pqt_tbl_keep_free_col(&t->cols[i]);
}

/* The kept values of c leave it: what they save counts (reads in parallel count theirs). */
static void taken(pqt_table *t, pqt_tcol *c, pqt_colbuf *out)
{
    *out = *c->kept;
    pqt_mem_free(c->kept);
    c->kept = NULL;
    __atomic_fetch_add(&t->scan_rg.filter_values_reused, out->nelem, __ATOMIC_RELAXED);
}

bool pqt_tbl_keep_take(pqt_table *t, pqt_tcol *c, pqt_colbuf *out)
{
    if (!c->kept) return false;
    taken(t, c, out);
    return true;
}

bool pqt_tbl_keep_take_into(pqt_table *t, pqt_tcol *c, void *dst, pqt_colbuf *b)
{
    if (!c->kept) return false;
    taken(t, c, b);
    if (b->nelem > 0) memcpy(dst, b->data, (size_t)b->nelem * b->elem_nbytes);
    if (!b->data_borrowed) pqt_free(b->data); /* to the large-block cache, as free_values */
    b->data = dst; /* as a direct read leaves it: the values are the caller's */
    b->data_borrowed = true;
    return true;
}

pqt_status pqt_tbl_keep_handover(pqt_table *t, int ci, const char *call, void **data_ret,
                                 pqt_colbuf *b)
{
    *data_ret = NULL;
    PQT_TBL_HOLD(t, call, "a first read of a column");
    pqt_tcol *c = &t->cols[ci];
    if (!c->kept) return PQT_OK;
    pqt_tbl_qc_note note;
    PQT_TRY(pqt_tbl_qc_check(t, c, c->kept, call, &note)); /* hard mode: nothing changes */
    taken(t, c, b);
    *data_ret = b->data;
    b->data_borrowed = true; /* the block is the caller's now */
    pqt_tbl_qc_emit(t, &note);
    return PQT_OK;
}
