/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_select.c - reading a column under per-row-group selections (layer: api).
 *
 * The table's read plan is one pqt_sel per physical row group (a slice is one run per
 * covering group; a filter or sample will be a refined selection). This reads exactly
 * the selected rows of every row group straight into their places in one destination
 * allocated once, so no row group is copied twice and non-aligned slices are trimmed by
 * the decoder. Kept apart from file_read.c, which serves the range-based public calls.
 */
#include <stdio.h>
#include <string.h>

#include "api/file_select.h"
#include "column/column.h"
#include "util/error.h"
#include "util/mem.h"

/* Where each row group's list elements start when that is known before decoding: every
 * covering chunk's statistics say it holds no null (so each level entry is one element and
 * num_values counts them), and every row group but the last is read whole. Then row groups
 * can decode in parallel, each into its own element range. */
static bool list_element_bases(const pqt_file_meta *m, const pqt_col *c, int rg0,
                               const pqt_sel *sels, const int64_t *dst_row, int first, int last,
                               int64_t *base)
{
    int64_t next_row = 0, next_elem = 0;
    for (int rg = first; rg <= last; rg++) {
        if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
        const pqt_column_meta *cm = &m->row_groups[rg0 + rg].columns[c->chunk_col].meta;
        if (dst_row[rg] != next_row || !cm->has_stats || !cm->stats.has_null_count ||
            cm->stats.null_count != 0 || (rg < last && sels[rg].kind != PQT_SEL_ALL))
            return false;
        base[rg] = next_elem;
        next_row += sels[rg].nsel;
        next_elem += cm->num_values;
    }
    return true;
}

/* Uncompressed bytes a chunk can really hold: its total_uncompressed_size, unless its
 * compressed bytes (within the file) cannot expand that far with its codec. -1 if negative. */
static int64_t chunk_bytes_justified(const pqt_column_meta *cm, int64_t file_size)
{
    int64_t tus = cm->total_uncompressed_size, tcs = cm->total_compressed_size;
    if (tus < 0 || tcs < 0) return -1;
    int64_t most = pqt_codec_max_nbytes(cm->codec, tcs < file_size ? tcs : file_size);
    return tus < most ? tus : most;
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

pqt_status pqt_file_read_sel(pqt_file *f, const pqt_col *c, const pqt_sel *sels,
                             const int64_t *dst_row, int64_t nrows, int threads,
                             pqt_read_counters *counters, pqt_colbuf *b)
{
    return pqt_file_read_span(f, c, 0, f->meta.n_row_groups, sels, dst_row, nrows, threads,
                              counters, b, NULL);
}

pqt_status pqt_file_read_sel_into(pqt_file *f, const pqt_col *c, const pqt_sel *sels,
                                  const int64_t *dst_row, int64_t nrows, int threads,
                                  pqt_read_counters *counters, pqt_colbuf *b,
                                  void *borrowed_data)
{
    return pqt_file_read_span(f, c, 0, f->meta.n_row_groups, sels, dst_row, nrows, threads,
                              counters, b, borrowed_data);
}

/* Everything below indexes sels, dst_row and its own arrays by rg, relative to the span;
 * the row group itself is rg0 + rg. The cost is proportional to the span, not the file. */
pqt_status pqt_file_read_span(pqt_file *f, const pqt_col *c, int rg0, int nrg,
                              const pqt_sel *sels, const int64_t *dst_row, int64_t nrows,
                              int threads, pqt_read_counters *counters, pqt_colbuf *b,
                              void *borrowed_data)
{
    return pqt_file_read_span_reusing(f, c, rg0, nrg, sels, dst_row, nrows, threads, counters, b,
                                      borrowed_data, NULL, NULL);
}

pqt_status pqt_file_read_span_reusing(pqt_file *f, const pqt_col *c, int rg0, int nrg,
                                      const pqt_sel *sels, const int64_t *dst_row, int64_t nrows,
                                      int threads, pqt_read_counters *counters, pqt_colbuf *b,
                                      void *borrowed_data, pqt_colbuf *spare,
                                      pqt_chunk_ctx *serial_cx)
{
    const pqt_file_meta *m = &f->meta;
    if (rg0 < 0 || nrg < 0 || rg0 > m->n_row_groups - nrg) {
        if (spare) pqt_colbuf_free(spare);
        return pqt_err(PQT_MISUSE, "%s: row groups %d..%d requested, the file has %d", f->path,
                       rg0 + 1, rg0 + nrg, m->n_row_groups);
    }
    const pqt_row_group *groups = m->row_groups + rg0;
    if (c->elem_kind == PQT_NONE) {
        if (spare) pqt_colbuf_free(spare);
        return pqt_err(PQT_UNSUPPORTED_TYPE, "%s: column '%s' cannot be read: %s", f->path,
                       c->path, c->why_unsupported ? c->why_unsupported : "unsupported type");
    }
    /* List elements are limited by the chunks' value counts, but only what their bytes can
     * justify (8 entries a byte, plus a row each) is allocated up front: a footer claiming
     * 2^31 values in a 1 KiB chunk costs nothing until the pages show the values. */
    int64_t elem_cap = 0, elem_just = nrows, str_nbytes = 0;
    int first = -1, last = -1, nused = 0;
    for (int rg = 0; rg < nrg; rg++) {
        if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
        if (first < 0) first = rg;
        last = rg;
        nused++;
        int64_t u = chunk_bytes_justified(&groups[rg].columns[c->chunk_col].meta, f->file_size);
        if (PQT_KIND_IS_BYTES(c->elem_kind)) {
            /* string bytes never exceed the chunk's uncompressed size: reserve once */
            if (u > 0 && u <= f->file_size * 64 && str_nbytes <= INT64_MAX - u) str_nbytes += u;
        }
        if (c->is_list && u > 0) elem_just = u > (INT64_MAX / 8 - elem_just) / 8
                                                 ? INT64_MAX / 8 : elem_just + u * 8;
        if (c->is_list) {
            /* a chunk's value count bounds the elements it can produce */
            int64_t nv = groups[rg].columns[c->chunk_col].meta.num_values;
            if (nv < 0 || elem_cap > INT64_MAX - nv) {
                if (spare) pqt_colbuf_free(spare);
                return pqt_err(PQT_CORRUPT, "%s: column '%s', row group %d: bad value count %lld",
                               f->path, c->path, rg0 + rg + 1, (long long)nv);
            }
            elem_cap += nv;
        }
    }
    PQT_TRY(pqt_colbuf_alloc_reusing(b, c, nrows, elem_cap < elem_just ? elem_cap : elem_just,
                                     borrowed_data, spare));
    b->elem_limit = elem_cap;
    if (str_nbytes > 0 && pqt_buf_reserve(&b->str_bytes, (size_t)str_nbytes) != PQT_OK)
        b->str_bytes.len = 0; /* only a hint: the buffer still grows on demand */
    pqt_chunk_src src = {f->io, f->path, f->file_size, m, f->verify_crc, false, counters};
    bool appending = c->is_list || PQT_KIND_IS_BYTES(c->elem_kind);
    int64_t *elem_base = NULL, *elem_end = NULL;
    bool windows_wrong = false;
    /* windows need every element allocated up front: only for counts the bytes justify */
    if (c->is_list && !PQT_KIND_IS_BYTES(c->elem_kind) && nused > 1 && threads > 1 &&
        b->elem_cap == elem_cap) {
        elem_base = pqt_calloc((size_t)nrg, sizeof *elem_base);
        elem_end = pqt_calloc((size_t)nrg, sizeof *elem_end);
        if (elem_base && elem_end &&
            list_element_bases(m, c, rg0, sels, dst_row, first, last, elem_base)) {
            appending = false;
            for (int rg = first; rg <= last; rg++) b->list_offsets[dst_row[rg]] = elem_base[rg];
        }
    }
    /* Scalar strings: each row group decodes into its own byte window (bounded by its chunk's
     * uncompressed size) and its own offsets (one spare slot per row group), in parallel;
     * then windows and offsets are closed up in order. */
    int64_t *win = NULL, *kth = NULL; /* byte window and spare-slot index of each row group */
    if (!c->is_list && PQT_KIND_IS_BYTES(c->elem_kind) && nused > 1 && threads > 1) {
        win = pqt_calloc((size_t)nrg * 2 + 2, sizeof *win);
        kth = win ? win + nrg + 1 : NULL;
        int64_t *off = win ? pqt_realloc_sized(b->str_offsets, (size_t)(nrows + 1) * 8,
                                               (size_t)(nrows + nused + 1) * 8)
                           : NULL;
        if (off) {
            b->str_offsets = off;
            /* The windows are allocated whole, so their chunks must be distinct bytes of the
             * file: row groups sharing one chunk would multiply one claim by their number. */
            int64_t w = 0, next_row = 0, stored = 0;
            bool ok = true;
            for (int rg = first, k = 0; ok && rg <= last; rg++) {
                if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
                const pqt_column_meta *cm = &groups[rg].columns[c->chunk_col].meta;
                int64_t bound = string_bytes_bound(c, cm, f->file_size);
                stored += cm->total_compressed_size > 0 ? cm->total_compressed_size : 0;
                ok = dst_row[rg] == next_row && bound >= 0 && w <= INT64_MAX / 2 - bound &&
                     stored <= f->file_size;
                next_row += sels[rg].nsel;
                win[rg] = w;
                w += bound;
                kth[rg] = k;
                off[dst_row[rg] + k++] = 0;
            }
            /* a refused reservation falls back to appending: not a failure of this call */
            pqt_err_mute();
            if (ok && pqt_buf_reserve(&b->str_bytes, (size_t)w) == PQT_OK) appending = false;
            pqt_err_unmute();
        }
        if (appending) {
            pqt_mem_free(win);
            win = NULL;
        }
    }
    bool parallel = !appending && nused > 1 && threads > 1;
    pqt_status st = PQT_OK;
    if (first < 0) {
        /* nothing selected: an empty column */
    } else if (parallel) {
        pqt_status *sts = pqt_calloc((size_t)nrg, sizeof *sts);
        char(*msgs)[256] = pqt_calloc((size_t)nrg, 256);
        if (!sts || !msgs) {
            st = pqt_err(PQT_NOMEM, "out of memory");
        } else {
#pragma omp parallel num_threads(threads)
            {
                char tmsg[256]; /* this thread's failure, handed over below; its own message stays */
                pqt_err_target prev = pqt_err_redirect(tmsg, sizeof tmsg);
                pqt_chunk_ctx *cx = NULL;
                pqt_status tst = pqt_chunk_ctx_new(&cx);
#pragma omp for schedule(dynamic, 1)
                for (int rg = first; rg <= last; rg++) {
                    if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
                    if (c->is_list) {
                        /* this row group's own window of rows and elements */
                        pqt_colbuf view = *b;
                        view.nrows = dst_row[rg];
                        view.nelem = elem_base[rg];
                        view.elem_cap = elem_base[rg] +
                                        groups[rg].columns[c->chunk_col].meta.num_values;
                        view.elem_limit = view.elem_cap; /* a window never grows */
                        sts[rg] = tst != PQT_OK ? tst
                                                : pqt_chunk_read(cx, &src, rg0 + rg, c, &sels[rg], &view, view.nrows);
                        elem_end[rg] = view.nelem;
                    } else if (win) {
                        pqt_colbuf view = *b;
                        view.str_offsets = b->str_offsets + kth[rg];
                        view.str_bytes = (pqt_buf){
                            .data = b->str_bytes.data + win[rg],
                            .cap = (size_t)string_bytes_bound(
                                c, &groups[rg].columns[c->chunk_col].meta, f->file_size),
                            .fixed = true};
                        sts[rg] = tst != PQT_OK ? tst
                                                : pqt_chunk_read(cx, &src, rg0 + rg, c, &sels[rg], &view, dst_row[rg]);
                    } else {
                        sts[rg] = tst != PQT_OK ? tst
                                                : pqt_chunk_read(cx, &src, rg0 + rg, c, &sels[rg], b, dst_row[rg]);
                    }
                    if (sts[rg] != PQT_OK) snprintf(msgs[rg], 256, "%s", tmsg);
                }
                pqt_chunk_ctx_free(cx);
                pqt_err_restore(prev);
            }
            for (int rg = first; rg <= last; rg++) {
                if (sts[rg] != PQT_OK) {
                    st = pqt_err(sts[rg], "%s", msgs[rg]);
                    break;
                }
            }
            if (st == PQT_OK && win) {
                /* close up: bytes move left to the cursor, offsets left by their spare slots */
                int64_t *off = b->str_offsets, cursor = 0;
                for (int rg = first, k = 0; rg <= last; rg++) {
                    if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
                    int64_t r0 = dst_row[rg], n = sels[rg].nsel, len = off[r0 + k + n];
                    memmove(b->str_bytes.data + cursor, b->str_bytes.data + win[rg], (size_t)len);
                    for (int64_t i = 0; i < n; i++) off[r0 + i] = off[r0 + k + i] + cursor;
                    cursor += len;
                    k++;
                }
                off[nrows] = cursor;
                b->str_bytes.len = (size_t)cursor;
            }
            if (st == PQT_OK && c->is_list) {
                /* The windows were laid out from the statistics; a row group with fewer
                 * elements means they were wrong (nulls after all): read again in order. */
                for (int rg = first; rg < last; rg++) {
                    if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
                    int64_t nv = groups[rg].columns[c->chunk_col].meta.num_values;
                    if (elem_end[rg] - elem_base[rg] != nv) windows_wrong = true;
                }
                b->nrows = nrows;
                b->nelem = elem_end[last];
            }
        }
        pqt_mem_free(sts);
        pqt_mem_free(msgs);
    } else {
        pqt_chunk_ctx *cx = serial_cx;
        src.serial = true;
        if (!cx) st = pqt_chunk_ctx_new(&cx);
        for (int rg = first; st == PQT_OK && rg <= last; rg++) {
            if (sels[rg].kind == PQT_SEL_NONE || sels[rg].nsel == 0) continue;
            /* lists append: their destination row is implied by the rows already written */
            st = pqt_chunk_read(cx, &src, rg0 + rg, c, &sels[rg], b, c->is_list ? b->nrows : dst_row[rg]);
        }
        if (cx != serial_cx) pqt_chunk_ctx_free(cx);
    }
    pqt_mem_free(elem_base);
    pqt_mem_free(elem_end);
    pqt_mem_free(win);
    if (windows_wrong) {
        pqt_colbuf_free(b);
        return pqt_file_read_span(f, c, rg0, nrg, sels, dst_row, nrows, 1, counters, b,
                                  borrowed_data);
    }
    if (st == PQT_OK && c->is_list && b->nrows != nrows)
        st = pqt_err(PQT_CORRUPT, "%s: column '%s': read %lld list rows, expected %lld", f->path,
                     c->path, (long long)b->nrows, (long long)nrows);
    if (st != PQT_OK) pqt_colbuf_free(b);
    return st;
}
