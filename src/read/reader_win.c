/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reader_win.c - the windowed strategies: strings and lists decoded in parallel, each row
 * group into its own window of the destination (layer: read).
 *
 * Strings and lists append, so in order they go one row group after another. When every
 * row group's share of the destination is known before decoding, each gets its own window
 * and they decode in parallel: a string chunk's bytes are bounded by what it stores, a
 * list chunk's elements by its value count when its statistics say it holds no null.
 */
#include <string.h>

#include "read/reader_int.h"
#include "util/error.h"
#include "util/mem.h"

void pqt_read_win_free(pqt_read_job *j)
{
    pqt_mem_free(j->elem_base);
    pqt_mem_free(j->elem_end);
    pqt_mem_free(j->win);
    j->elem_base = j->elem_end = j->win = j->kth = NULL;
}

/* Where each row group's list elements start when that is known before decoding: every
 * covering chunk's statistics say it holds no null (so each level entry is one element and
 * num_values counts them), and every row group but the last is read whole. Then row groups
 * can decode in parallel, each into its own element range. */
static bool list_element_bases(const pqt_read_job *j, int64_t *base)
{
    const pqt_read_req *rq = j->rq;
    int64_t next_row = 0, next_elem = 0;
    for (int rg = j->first; rg <= j->last; rg++) {
        const pqt_sel *s = &rq->sels[rg];
        if (!pqt_read_used(s)) continue;
        const pqt_column_meta *cm = &j->groups[rg].columns[rq->col->chunk_col].meta;
        if (rq->dst_row[rg] != next_row || !cm->has_stats || !cm->stats.has_null_count ||
            cm->stats.null_count != 0 || (rg < j->last && s->kind != PQT_SEL_ALL))
            return false;
        base[rg] = next_elem;
        next_row += s->nsel;
        next_elem += cm->num_values;
    }
    return true;
}

bool pqt_read_lists_win_fits(pqt_read_job *j, pqt_colbuf *b)
{
    /* windows need every element allocated up front: the caller checked b holds them all */
    int nrg = j->rq->nrg;
    j->elem_base = pqt_calloc((size_t)nrg, sizeof *j->elem_base);
    j->elem_end = pqt_calloc((size_t)nrg, sizeof *j->elem_end);
    if (!j->elem_base || !j->elem_end || !list_element_bases(j, j->elem_base)) return false;
    for (int rg = j->first; rg <= j->last; rg++)
        b->list_offsets[j->rq->dst_row[rg]] = j->elem_base[rg];
    return true;
}

/* This row group's own window of rows and elements; a window never grows. */
static pqt_status list_rg(pqt_read_job *j, pqt_chunk_ctx *cx, int rg, pqt_colbuf *b, void *arg)
{
    (void)arg;
    const pqt_read_req *rq = j->rq;
    pqt_colbuf view = *b;
    view.nrows = rq->dst_row[rg];
    view.nelem = j->elem_base[rg];
    view.elem_cap = j->elem_base[rg] + j->groups[rg].columns[rq->col->chunk_col].meta.num_values;
    view.elem_limit = view.elem_cap;
    pqt_status st =
        pqt_chunk_read(cx, &j->src, rq->rg0 + rg, rq->col, &rq->sels[rg], &view, view.nrows);
    j->elem_end[rg] = view.nelem;
    return st;
}

pqt_status pqt_read_lists_win(pqt_read_job *j, pqt_colbuf *b, bool *retry)
{
    PQT_TRY(pqt_read_parallel(j, b, list_rg, NULL));
    /* The windows were laid out from the statistics; a row group with fewer elements means
     * they were wrong (nulls after all). */
    const pqt_read_req *rq = j->rq;
    for (int rg = j->first; rg < j->last; rg++) {
        if (!pqt_read_used(&rq->sels[rg])) continue;
        int64_t nv = j->groups[rg].columns[rq->col->chunk_col].meta.num_values;
        if (j->elem_end[rg] - j->elem_base[rg] != nv) *retry = true;
    }
    b->nrows = rq->nrows;
    b->nelem = j->elem_end[j->last];
    return PQT_OK;
}

/* Bytes a chunk's strings may take, when they cannot exceed what it stores: PLAIN and
 * DELTA_LENGTH_BYTE_ARRAY copy bytes out of the pages; a dictionary or DELTA_BYTE_ARRAY
 * page can expand, so such chunks have no bound (-1). The 16 spare bytes are the
 * decoders' fixed-size copy slack. */
static int64_t string_bytes_bound(const pqt_col *c, const pqt_column_meta *cm, int64_t file_size)
{
    /* a UUID's 16 stored bytes become 36 characters: the chunk's size no longer bounds them */
    if (c->conv == PQT_CONV_UUID) {
        if (cm->num_values < 0 || cm->num_values > file_size * 64) return -1;
        return cm->num_values * 36 + 16;
    }
    for (int i = 0; i < cm->n_encodings; i++) {
        int e = cm->encodings[i];
        if (e != PQT_ENC_PLAIN && e != PQT_ENC_DELTA_LENGTH_BYTE_ARRAY && e != PQT_ENC_RLE &&
            e != PQT_ENC_BIT_PACKED)
            return -1;
    }
    /* a claim no plausible compression of this file supports is not trusted with memory */
    if (cm->total_uncompressed_size < 0 || cm->total_uncompressed_size > file_size * 64) return -1;
    return cm->total_uncompressed_size + 16;
}

/* Scalar strings: each row group decodes into its own byte window (bounded by its chunk's
 * uncompressed size) and its own offsets (one spare slot per row group). */
bool pqt_read_strings_win_fits(pqt_read_job *j, pqt_colbuf *b)
{
    const pqt_read_req *rq = j->rq;
    int nrg = rq->nrg;
    int64_t file_size = rq->src.file_size, nrows = rq->nrows;
    j->win = pqt_calloc((size_t)nrg * 2 + 2, sizeof *j->win);
    if (!j->win) return false;
    j->kth = j->win + nrg + 1;
    int64_t *off = pqt_realloc_sized(b->str_offsets, (size_t)(nrows + 1) * 8,
                                     (size_t)(nrows + j->nused + 1) * 8);
    if (!off) return false;
    b->str_offsets = off;
    /* The windows are allocated whole, so their chunks must be distinct bytes of the file:
     * row groups sharing one chunk would multiply one claim by their number. */
    int64_t w = 0, next_row = 0, stored = 0;
    bool ok = true;
    for (int rg = j->first, k = 0; ok && rg <= j->last; rg++) {
        if (!pqt_read_used(&rq->sels[rg])) continue;
        const pqt_column_meta *cm = &j->groups[rg].columns[rq->col->chunk_col].meta;
        int64_t bound = string_bytes_bound(rq->col, cm, file_size);
        stored += cm->total_compressed_size > 0 ? cm->total_compressed_size : 0;
        ok = rq->dst_row[rg] == next_row && bound >= 0 && w <= INT64_MAX / 2 - bound &&
             stored <= file_size;
        next_row += rq->sels[rg].nsel;
        j->win[rg] = w;
        w += bound;
        j->kth[rg] = k;
        off[rq->dst_row[rg] + k++] = 0;
    }
    /* a refused reservation falls back to appending: not a failure of this call */
    pqt_err_mute();
    ok = ok && pqt_buf_reserve(&b->str_bytes, (size_t)w) == PQT_OK;
    pqt_err_unmute();
    return ok;
}

static pqt_status string_rg(pqt_read_job *j, pqt_chunk_ctx *cx, int rg, pqt_colbuf *b, void *arg)
{
    (void)arg;
    const pqt_read_req *rq = j->rq;
    pqt_colbuf view = *b;
    view.str_offsets = b->str_offsets + j->kth[rg];
    view.str_bytes =
        (pqt_buf){.data = b->str_bytes.data + j->win[rg],
                  .cap = (size_t)string_bytes_bound(
                      rq->col, &j->groups[rg].columns[rq->col->chunk_col].meta, rq->src.file_size),
                  .fixed = true};
    return pqt_chunk_read(cx, &j->src, rq->rg0 + rg, rq->col, &rq->sels[rg], &view,
                          rq->dst_row[rg]);
}

pqt_status pqt_read_strings_win(pqt_read_job *j, pqt_colbuf *b)
{
    PQT_TRY(pqt_read_parallel(j, b, string_rg, NULL));
    /* close up: bytes move left to the cursor, offsets left by their spare slots */
    const pqt_read_req *rq = j->rq;
    int64_t *off = b->str_offsets, cursor = 0;
    for (int rg = j->first, k = 0; rg <= j->last; rg++) {
        if (!pqt_read_used(&rq->sels[rg])) continue;
        int64_t r0 = rq->dst_row[rg], n = rq->sels[rg].nsel, len = off[r0 + k + n];
        memmove(b->str_bytes.data + cursor, b->str_bytes.data + j->win[rg], (size_t)len);
        for (int64_t i = 0; i < n; i++)
            off[r0 + i] = off[r0 + k + i] + cursor;
        cursor += len;
        k++;
    }
    off[rq->nrows] = cursor;
    b->str_bytes.len = (size_t)cursor;
    return PQT_OK;
}
