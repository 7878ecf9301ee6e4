/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_dict.c - a conjunct decided on a chunk's dictionary alone (layer: scan;
 * docs/pruning.md, "Per row group" step 4, "Dictionary fallback").
 *
 * When every data page of a chunk is dictionary encoded, each value of the chunk is one of
 * the dictionary's entries (or null), so a one-column conjunct evaluated on the entries (and
 * on a null) decides the chunk: no entry passing refutes it, all passing accept it. Whether
 * every data page is dictionary encoded is known before the pages are read only from
 * ColumnMetaData.encoding_stats; a writer may fall back to PLAIN pages mid-chunk, and the
 * dictionary says nothing about those. We trust encoding_stats as written: a chunk without
 * them proves nothing here, but the evaluation (pqt_scan_dict_eval) still lets the filter
 * pass skip the chunk's dictionary-encoded pages when no entry passes (scan_pass.c).
 */
#include <string.h>

#include "scan/scan.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/mem.h"

/* Largest dictionary page read for a proof (compressed or not). Writers cap their dictionary
 * pages near 1 MiB (parquet-mr, arrow, DuckDB) before falling back to PLAIN; ClickHouse reads
 * up to 1 MB for the same check. A larger one costs more than the proof tends to save. */
#define DICT_PROVE_MAX_NBYTES ((size_t)2 << 20)

bool pqt_scan_chunk_all_dict(const pqt_column_meta *cm)
{
    int64_t ndict = 0;
    if (cm->n_encoding_stats <= 0 || !cm->encoding_stats) return false;
    for (int i = 0; i < cm->n_encoding_stats; i++) {
        const pqt_page_enc_stats *es = &cm->encoding_stats[i];
        if (es->count < 0) return false;
        if (es->page_type != PQT_PAGE_DATA && es->page_type != PQT_PAGE_DATA_V2) continue;
        if (es->count == 0) continue;
        if (es->encoding != PQT_ENC_PLAIN_DICTIONARY && es->encoding != PQT_ENC_RLE_DICTIONARY)
            return false;
        ndict += es->count;
    }
    return ndict > 0; /* stats naming no data page describe nothing */
}

/* Whether conjunct k keeps a null of its column: evaluated on one null row. */
static pqt_status null_passes(const pqt_scan_pass *ps, int k, int s, pqt_scan_vec *vecs,
                              pqt_scan_scratch *scratch, bool *ret)
{
    static const int64_t zero[4] = {0, 0, 0, 0}; /* a null's slot: any kind, or offsets 0, 0 */
    static const uint8_t absent = 0;
    uint8_t keep = 0;
    vecs[s] = (pqt_scan_vec){zero, "", &absent};
    PQT_TRY(pqt_scan_conj_eval(ps->prog, k, vecs, 1, NULL, &keep, NULL, scratch));
    *ret = keep & 1;
    return PQT_OK;
}

pqt_status pqt_scan_dict_eval(const pqt_scan_pass *ps, pqt_chunk_ctx *cx, int rg, int k,
                              pqt_dict_eval *ret)
{
    memset(ret, 0, sizeof *ret);
    const pqt_fprog *p = ps->prog;
    if (pqt_scan_conj_ncols(p, k) != 1 || pqt_scan_conj_is_callback(p, k)) return PQT_OK;
    int s = pqt_scan_conj_cols(p, k)[0];
    const pqt_col *c = ps->slot_col[s];
    if (!c || c->is_list || c->max_rep > 0) return PQT_OK; /* the row index, or lists */

    pqt_chunk_src src = *ps->src;
    src.counters = ps->counters ? &ps->counters[s] : NULL;
    pqt_colbuf d;
    bool ok = false;
    PQT_TRY(pqt_chunk_read_dict(cx, &src, rg, c, DICT_PROVE_MAX_NBYTES, &d, &ok));
    if (!ok) return PQT_OK;

    int nslots = pqt_scan_prog_ncols(p);
    int64_t n = d.nrows;
    pqt_scan_vec *vecs = pqt_calloc((size_t)nslots, sizeof *vecs);
    uint8_t *keep = pqt_malloc((size_t)(n + 7) / 8 + 8);
    pqt_scan_scratch scratch = {0};
    pqt_status st = vecs && keep ? PQT_OK
                                 : pqt_err(PQT_NOMEM, "out of memory evaluating the dictionary "
                                                      "of column '%s'", c->path);
    if (st == PQT_OK) {
        bool str = PQT_KIND_IS_BYTES(d.elem_kind);
        vecs[s] = (pqt_scan_vec){str ? (const void *)d.str_offsets : d.data,
                                 (const char *)d.str_bytes.data, NULL};
        /* muted: a computed conjunct may overflow on an entry no row uses (docs/filters.md,
         * "Expressions"); the rows are then evaluated instead */
        pqt_err_mute();
        st = pqt_scan_conj_eval(p, k, vecs, n, NULL, keep, &ret->npass, &scratch);
        if (st == PQT_OK) st = null_passes(ps, k, s, vecs, &scratch, &ret->null_passes);
        pqt_err_unmute();
        if (st == PQT_NOMEM)
            st = pqt_err(PQT_NOMEM, "out of memory evaluating the dictionary of column '%s'",
                         c->path);
    }
    bool skip = st == PQT_RANGE;
    if (skip) st = PQT_OK;
    if (st == PQT_OK && !skip) {
        ret->ok = true;
        ret->nentries = n;
        ret->keep = keep;
        keep = NULL;
    }
    pqt_scan_scratch_free(&scratch);
    pqt_mem_free(keep);
    pqt_mem_free(vecs);
    pqt_colbuf_free(&d);
    if (st != PQT_OK) {
        memset(ret, 0, sizeof *ret);
        pqt_err_prefix("column '%s', dictionary: ", c->path);
    }
    return st;
}

void pqt_scan_dict_eval_free(pqt_dict_eval *e)
{
    pqt_mem_free(e->keep);
    memset(e, 0, sizeof *e);
}

pqt_status pqt_scan_dict_prove(const pqt_scan_pass *ps, pqt_chunk_ctx *cx, int rg, int k,
                               pqt_tri *ret, pqt_dict_eval *eval)
{
    *ret = PQT_TRI_SOME;
    memset(eval, 0, sizeof *eval);
    const pqt_fprog *p = ps->prog;
    if (pqt_scan_conj_ncols(p, k) != 1 || pqt_scan_conj_is_callback(p, k)) return PQT_OK;
    const pqt_col *c = ps->slot_col[pqt_scan_conj_cols(p, k)[0]];
    if (!c || c->is_list || c->max_rep > 0) return PQT_OK;
    const pqt_row_group *g = &ps->src->meta->row_groups[rg];
    if (c->chunk_col >= g->ncolumns || !g->columns[c->chunk_col].has_meta ||
        !pqt_scan_chunk_all_dict(&g->columns[c->chunk_col].meta))
        return PQT_OK;
    pqt_dict_eval e;
    PQT_TRY(pqt_scan_dict_eval(ps, cx, rg, k, &e));
    if (!e.ok) return PQT_OK;
    *eval = e;
    /* nulls are possible unless the column is required or statistics count none */
    bool nulls = c->max_def > 0;
    if (nulls && !(ps->pushdown_off & PQT_PD_STATS)) {
        pqt_scan_stats cs;
        pqt_scan_chunk_stats(ps->src->meta, c, rg, &cs);
        nulls = cs.null_count != 0;
    }
    if (e.npass == 0 && (!e.null_passes || !nulls)) *ret = PQT_TRI_NONE;
    else if (e.npass == e.nentries && (e.null_passes || !nulls)) *ret = PQT_TRI_ALL;
    return PQT_OK;
}

int64_t pqt_scan_codes_verdict(const uint32_t *codes, const uint8_t *valid, int64_t n,
                               const uint8_t *entry_keep, int64_t nentries, bool null_passes,
                               uint8_t *lut, uint8_t *keep)
{
    /* one byte per entry, and a last one (0) for any code past them: PQT_CODE_REFUTED, a
     * page the dictionary refuted whole */
    for (int64_t c = 0; c < nentries; c++) lut[c] = entry_keep[c >> 3] >> (c & 7) & 1;
    lut[nentries] = 0;
    const uint32_t top = (uint32_t)nentries;
    int64_t nkeep = 0;
    for (int64_t i0 = 0; i0 < n; i0 += 64) {
        int lim = n - i0 < 64 ? (int)(n - i0) : 64;
        const uint32_t *c = codes + i0;
        uint64_t word = 0;
        for (int j = 0; j < lim; j++) word |= (uint64_t)lut[c[j] < top ? c[j] : top] << j;
        int nb = (lim + 7) / 8;
        uint64_t v = ~0ULL; /* no validity: no null */
        if (valid) {
            v = 0;
            for (int b = 0; b < nb; b++) v |= (uint64_t)valid[i0 / 8 + b] << (8 * b);
        }
        uint64_t mask = lim == 64 ? ~0ULL : (1ULL << lim) - 1;
        word = (word & v) | (null_passes ? ~v : 0);
        word &= mask;
        for (int b = 0; b < nb; b++) keep[i0 / 8 + b] = (uint8_t)(word >> (8 * b));
        nkeep += pqt_popcount64(word);
    }
    return nkeep;
}
