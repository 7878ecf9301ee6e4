/*
 * file_parts.c - parallel reads of the appending kinds: strings and lists (layer: api).
 *
 * Fixed-width columns decode row groups in parallel straight into place because every
 * row has a known slot. Strings and lists append (byte offsets, element offsets), so a
 * row group's place is only known once the ones before it are decoded. With threads,
 * each row group is decoded into its own part in parallel, then the parts are joined in
 * order: one extra copy of the bytes, far cheaper than the decode it parallelizes.
 */
#include <stdio.h>
#include <string.h>

#include "api/file_select.h"
#include "column/column.h"
#include "util/error.h"
#include "util/mem.h"

static void copy_bits(uint8_t *dst, int64_t dpos, const uint8_t *src, int64_t n)
{
    if (!dst) return;
    for (int64_t i = 0; i < n; i++) {
        int v = src ? (src[i >> 3] >> (i & 7)) & 1 : 1;
        int64_t d = dpos + i;
        if (v) dst[d >> 3] |= (uint8_t)(1u << (d & 7));
    }
}

/* Append string elements [0, n) of part p to b's elements at position epos. */
static pqt_status join_strings(pqt_colbuf *b, int64_t epos, const pqt_colbuf *p, int64_t n)
{
    int64_t base = b->str_offsets[epos];
    int64_t nbytes = p->str_offsets[n] - p->str_offsets[0];
    PQT_TRY(pqt_buf_reserve_more(&b->str_bytes, (size_t)nbytes));
    if (nbytes) memcpy(b->str_bytes.data + b->str_bytes.len, p->str_bytes.data, (size_t)nbytes);
    b->str_bytes.len += (size_t)nbytes;
    for (int64_t i = 1; i <= n; i++) b->str_offsets[epos + i] = base + p->str_offsets[i];
    return PQT_OK;
}

static pqt_status join_part(pqt_colbuf *b, int64_t row, const pqt_colbuf *p, int64_t prows)
{
    if (!b->is_list) {
        if (b->elem_kind == PQT_STRING) PQT_TRY(join_strings(b, row, p, prows));
        else memcpy((uint8_t *)b->data + row * (int64_t)b->elem_nbytes, p->data,
                    (size_t)prows * b->elem_nbytes);
        copy_bits(b->validity, row, p->validity, prows);
        return PQT_OK;
    }
    int64_t e0 = b->nelem, n = p->nelem;
    if (e0 + n > b->elem_cap || b->nrows + prows > b->rows_cap)
        return pqt_err(PQT_CORRUPT, "list parts exceed the column's value count");
    if (b->elem_kind == PQT_STRING) PQT_TRY(join_strings(b, e0, p, n));
    else if (n) memcpy((uint8_t *)b->data + e0 * (int64_t)b->elem_nbytes, p->data,
                       (size_t)n * b->elem_nbytes);
    copy_bits(b->validity, e0, p->validity, n);
    for (int64_t i = 1; i <= prows; i++) b->list_offsets[b->nrows + i] = e0 + p->list_offsets[i];
    copy_bits(b->row_validity, b->nrows, p->row_validity, prows);
    b->nrows += prows;
    b->nelem += n;
    return PQT_OK;
}

pqt_status pqt_file_read_parts(pqt_file *f, const pqt_col *c, const pqt_sel *sels,
                               const int64_t *dst_row, int first, int last, int threads,
                               const pqt_chunk_src *src, pqt_colbuf *b)
{
    const pqt_file_meta *m = &f->meta;
    int np = last - first + 1;
    pqt_colbuf *parts = pqt_calloc((size_t)np, sizeof *parts);
    pqt_status *sts = pqt_calloc((size_t)np, sizeof *sts);
    char(*msgs)[256] = pqt_calloc((size_t)np, 256);
    pqt_status st = PQT_OK;
    if (!parts || !sts || !msgs) {
        st = pqt_err(PQT_NOMEM, "out of memory");
        goto done;
    }
#pragma omp parallel num_threads(threads)
    {
        pqt_chunk_ctx *cx = NULL;
        pqt_status tst = pqt_chunk_ctx_new(&cx);
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < np; i++) {
            int rg = first + i;
            if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
            const pqt_column_chunk *cc = &m->row_groups[rg].columns[c->chunk_col];
            int64_t nv = c->is_list ? cc->meta.num_values : 0;
            sts[i] = tst;
            if (sts[i] == PQT_OK) sts[i] = pqt_colbuf_alloc(&parts[i], c, sels[rg].nsel, nv, NULL);
            if (sts[i] == PQT_OK) sts[i] = pqt_chunk_read(cx, src, rg, c, &sels[rg], &parts[i], 0);
            if (sts[i] != PQT_OK) snprintf(msgs[i], 256, "%s", pqt_errmsg());
        }
        pqt_chunk_ctx_free(cx);
    }
    for (int i = 0; i < np && st == PQT_OK; i++) {
        int rg = first + i;
        if (sts[i] != PQT_OK) {
            st = pqt_err(sts[i], "%s", msgs[i]);
            break;
        }
        if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
        st = join_part(b, c->is_list ? b->nrows : dst_row[rg], &parts[i], sels[rg].nsel);
    }
done:
    for (int i = 0; parts && i < np; i++) pqt_colbuf_free(&parts[i]);
    pqt_mem_free(parts);
    pqt_mem_free(sts);
    pqt_mem_free(msgs);
    return st;
}
