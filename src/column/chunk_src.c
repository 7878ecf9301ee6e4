/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chunk_src.c - which file a row group's chunks are in, and the chunks that are in none
 * (layer: column).
 *
 * A dataset reads as one file whose row groups come from many (api/file_dataset.c): each
 * entry point of this layer first takes the member file of its row group, and messages
 * number row groups within that file. A hive partition's column has one value per file and
 * no pages: its chunks are constant (pqt_column_chunk.is_constant) and written here.
 */
#include <string.h>

#include "column/column_int.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/ioset.h"

pqt_status pqt_chunk_src_at(const pqt_chunk_src *src, int rg, pqt_chunk_src *out)
{
    *out = *src;
    if (!src->members || src->member >= 0) return PQT_OK;
    const pqt_chunk_members *m = src->members;
    int64_t i = m->rg_member[rg];
    pqt_io *io;
    PQT_TRY(pqt_ioset_get(m->set, i, m->size[i], &io));
    out->io = io;
    out->path = pqt_ioset_path(m->set, i);
    out->file_size = io->size;
    out->member = i;
    return PQT_OK;
}

void pqt_chunk_src_done(pqt_chunk_src *s)
{
    if (s->members && s->member >= 0) pqt_ioset_put(s->members->set, s->io);
    s->member = -1;
}

int pqt_chunk_src_rg_no(const pqt_chunk_src *src, int rg)
{
    return src->members ? src->members->rg_local[rg] + 1 : rg + 1;
}

pqt_status pqt_chunk_read_constant(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                   const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row)
{
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_stats *st = &g->columns[col->chunk_col].meta.stats;
    int64_t n = sel->nsel;
    bool null = !st->has_min_value || (st->has_null_count && st->null_count >= g->num_rows);
    if (col->is_list || dst->is_list)
        return pqt_err(PQT_UNSUPPORTED,
                       "%s: column '%s', row group %d: a list column missing "
                       "from this file cannot be read as nulls",
                       src->path, col->path, pqt_chunk_src_rg_no(src, rg));
    if (dst->str_offsets) {
        int64_t *off = dst->str_offsets;
        size_t len = null ? 0 : st->min_value_len;
        if (len > 0) {
            PQT_TRY(pqt_buf_reserve_more(&dst->str_bytes, (size_t)n * len));
            for (int64_t i = 0; i < n; i++) {
                memcpy(dst->str_bytes.data + dst->str_bytes.len, st->min_value, len);
                dst->str_bytes.len += len;
            }
        }
        for (int64_t i = 0; i < n; i++)
            off[dst_row + i + 1] = off[dst_row + i] + (int64_t)len;
    } else {
        uint8_t *base = (uint8_t *)dst->data + (size_t)dst_row * dst->elem_nbytes;
        size_t w = dst->elem_nbytes;
        if (null || st->min_value_len != w)
            memset(base, 0, (size_t)n * w);
        else
            for (int64_t i = 0; i < n; i++)
                memcpy(base + (size_t)i * w, st->min_value, w);
    }
    if (dst->validity && !null) pqt_bits_set_range(dst->validity, dst_row, n);
    if (src->counters && !null)
        atomic_fetch_add_explicit(&src->counters->values_decoded, n, memory_order_relaxed);
    return PQT_OK;
}
