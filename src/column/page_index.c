/* SPDX-License-Identifier: Apache-2.0 */
/*
 * page_index.c - a column chunk's page index, read and checked (layer: column).
 *
 * PageIndex.md: the OffsetIndex gives each data page's byte range and first row, the
 * ColumnIndex its bounds. Both are hints the reader may skip work by, never the only truth:
 * an index that does not fit its chunk (pages out of order, outside the chunk's bytes, rows
 * not starting at 0 or past the row group, page counts that disagree) is reported unusable
 * and the chunk is read without it. Only I/O and memory failures are errors.
 *
 * An open file decodes each chunk's offset index once (pqt_oindex_cache): the filter pass
 * and every later read of the chunk share the pages, or the verdict that they are unusable.
 */
#include "column/column_int.h"
#include "util/error.h"
#include "util/io.h"
#include "util/mem.h"

/* One chunk's offset index as decoded: pages in arena (empty when not usable). */
typedef struct oi_entry {
    pqt_arena arena;
    pqt_offset_index oi;
    bool ok;
} oi_entry;

/* rg_base[rg] + chunk column -> entry; laid out on first use, from the footer's counts. */
typedef struct oi_table {
    int64_t nchunks;
    int64_t *rg_base; /* n_row_groups + 1 */
    _Atomic(oi_entry *) *entries;
} oi_table;

struct pqt_oindex_cache {
    const pqt_file_meta *meta;
    _Atomic(oi_table *) table; /* NULL until a chunk's index is first asked for */
};

pqt_oindex_cache *pqt_oindex_cache_new(const pqt_file_meta *meta)
{
    pqt_oindex_cache *c = pqt_calloc(1, sizeof *c);
    if (c) c->meta = meta;
    return c;
}

static void entry_free(oi_entry *e)
{
    if (!e) return;
    pqt_arena_free(&e->arena);
    pqt_mem_free(e);
}

static void table_free(oi_table *t)
{
    if (!t) return;
    for (int64_t i = 0; i < t->nchunks; i++)
        entry_free(atomic_load(&t->entries[i]));
    pqt_mem_free(t->entries);
    pqt_mem_free(t->rg_base);
    pqt_mem_free(t);
}

void pqt_oindex_cache_free(pqt_oindex_cache *c)
{
    if (!c) return;
    table_free(atomic_load(&c->table));
    pqt_mem_free(c);
}

/* The cache's table, laid out by the first caller (racing callers: the first to publish
 * wins, the others free theirs). NULL without memory: the caller decodes uncached. */
static oi_table *cache_table(pqt_oindex_cache *c)
{
    oi_table *t = atomic_load_explicit(&c->table, memory_order_acquire);
    if (t) return t;
    const pqt_file_meta *m = c->meta;
    t = pqt_calloc(1, sizeof *t);
    if (!t) return NULL;
    t->rg_base = pqt_malloc_array((size_t)m->n_row_groups + 1, sizeof *t->rg_base);
    if (!t->rg_base) {
        table_free(t);
        return NULL;
    }
    for (int rg = 0; rg < m->n_row_groups; rg++) {
        t->rg_base[rg] = t->nchunks;
        t->nchunks += m->row_groups[rg].ncolumns > 0 ? m->row_groups[rg].ncolumns : 0;
    }
    t->rg_base[m->n_row_groups] = t->nchunks;
    t->entries = pqt_calloc((size_t)t->nchunks + 1, sizeof *t->entries);
    if (!t->entries) {
        t->nchunks = 0;
        table_free(t);
        return NULL;
    }
    oi_table *none = NULL;
    if (atomic_compare_exchange_strong_explicit(&c->table, &none, t, memory_order_acq_rel,
                                                memory_order_acquire))
        return t;
    table_free(t);
    return none;
}

/* Decode the structure at [off, off + len) with dec; *ok false when it is not one. */
static pqt_status load(const pqt_chunk_src *src, int64_t off, int32_t len, pqt_arena *a,
                       void *out, bool is_column_index, bool *ok)
{
    *ok = false;
    if (off < 4 || len <= 0 || off > src->file_size - len) return PQT_OK;
    pqt_io_buf raw = pqt_io_buf_take(src->io);
    const uint8_t *bytes;
    pqt_status st = pqt_io_view(src->io, off, (size_t)len, &raw, &bytes);
    if (st == PQT_OK) {
        pqt_err_mute(); /* a malformed index is not an error of the read */
        pqt_status dst = is_column_index
                             ? pqt_meta_decode_column_index(bytes, (size_t)len, off, a, out)
                             : pqt_meta_decode_offset_index(bytes, (size_t)len, off, a, out);
        pqt_err_unmute();
        if (dst == PQT_NOMEM) st = pqt_err(PQT_NOMEM, "out of memory reading a page index");
        *ok = dst == PQT_OK;
    }
    pqt_io_buf_give(src->io, &raw);
    return st;
}

void pqt_chunk_byte_range(const pqt_column_meta *cm, int64_t *start, int64_t *len)
{
    *start = cm->data_page_offset;
    /* Some writers store 0 for "no dictionary page": only an offset before the data pages
     * can be a dictionary page (dict-page-offset-zero.parquet). */
    if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
        cm->dictionary_page_offset < *start)
        *start = cm->dictionary_page_offset;
    *len = cm->total_compressed_size;
}

/* Pages in row order inside the chunk, first rows strictly increasing from 0. */
static bool offsets_fit(const pqt_offset_index *oi, const pqt_column_meta *cm, int64_t rg_rows)
{
    int64_t start, len;
    pqt_chunk_byte_range(cm, &start, &len);
    if (oi->npages < 1 || len <= 0 || start > INT64_MAX - len) return false;
    int64_t end = start + len, prev_end = start;
    for (int i = 0; i < oi->npages; i++) {
        const pqt_page_location *p = &oi->pages[i];
        if (p->compressed_page_size <= 0 || p->offset < prev_end ||
            p->offset > end - p->compressed_page_size)
            return false;
        if (i == 0 ? p->first_row_index != 0
                   : p->first_row_index <= oi->pages[i - 1].first_row_index)
            return false;
        if (p->first_row_index >= rg_rows) return false;
        prev_end = p->offset + p->compressed_page_size;
    }
    return true;
}

/* Read, decode and check the index (counted as one offset index read). */
static pqt_status decode_offset_index(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                      pqt_arena *a, pqt_offset_index *oi, bool *ok)
{
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_column_chunk *cc = &g->columns[col->chunk_col];
    PQT_TRY(load(src, cc->offset_index_offset, cc->offset_index_length, a, oi, false, ok));
    if (*ok) *ok = offsets_fit(oi, &cc->meta, g->num_rows);
    if (src->counters)
        atomic_fetch_add_explicit(&src->counters->offset_index_reads, 1, memory_order_relaxed);
    return PQT_OK;
}

/* The cached decode of the chunk: the entry published first wins; a loser frees its own. */
static pqt_status cached_offset_index(const pqt_chunk_src *src, _Atomic(oi_entry *) *slot, int rg,
                                      const pqt_col *col, pqt_offset_index *oi, bool *ok)
{
    oi_entry *e = atomic_load_explicit(slot, memory_order_acquire);
    if (!e) {
        oi_entry *mine = pqt_calloc(1, sizeof *mine);
        if (!mine) return pqt_err(PQT_NOMEM, "out of memory reading a page index");
        pqt_status st = decode_offset_index(src, rg, col, &mine->arena, &mine->oi, &mine->ok);
        if (st != PQT_OK) { /* an I/O failure is not a verdict: nothing is cached */
            entry_free(mine);
            return st;
        }
        if (!mine->ok) { /* the verdict is all that is kept of an unusable index */
            pqt_arena_free(&mine->arena);
            mine->oi = (pqt_offset_index){0};
        }
        oi_entry *none = NULL;
        if (atomic_compare_exchange_strong_explicit(slot, &none, mine, memory_order_acq_rel,
                                                    memory_order_acquire))
            e = mine;
        else {
            entry_free(mine);
            e = none;
        }
    }
    *ok = e->ok;
    if (e->ok) *oi = e->oi;
    return PQT_OK;
}

static pqt_status offset_index_in(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                  pqt_arena *a, pqt_offset_index *oi, bool *ok)
{
    const pqt_row_group *g = &src->meta->row_groups[rg];
    const pqt_column_chunk *cc = &g->columns[col->chunk_col];
    *ok = false;
    if (!cc->has_offset_index || !cc->has_meta) return PQT_OK;
    pqt_oindex_cache *c = src->oindex;
    oi_table *t = c && c->meta == src->meta ? cache_table(c) : NULL;
    if (t && rg >= 0 && rg < src->meta->n_row_groups && col->chunk_col >= 0 &&
        col->chunk_col < t->rg_base[rg + 1] - t->rg_base[rg])
        return cached_offset_index(src, &t->entries[t->rg_base[rg] + col->chunk_col], rg, col, oi,
                                   ok);
    return decode_offset_index(src, rg, col, a, oi, ok);
}

static pqt_status page_index_in(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                pqt_arena *a, pqt_column_index *ci, pqt_offset_index *oi,
                                bool *ok)
{
    const pqt_column_chunk *cc = &src->meta->row_groups[rg].columns[col->chunk_col];
    *ok = false;
    if (!cc->has_column_index) return PQT_OK;
    PQT_TRY(pqt_chunk_offset_index(src, rg, col, a, oi, ok));
    if (!*ok) return PQT_OK;
    PQT_TRY(load(src, cc->column_index_offset, cc->column_index_length, a, ci, true, ok));
    if (*ok) *ok = ci->npages == oi->npages;
    return PQT_OK;
}

pqt_status pqt_chunk_offset_index(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                  pqt_arena *a, pqt_offset_index *oi, bool *ok)
{
    if (!src->members || src->member >= 0) return offset_index_in(src, rg, col, a, oi, ok);
    pqt_chunk_src one;
    PQT_TRY(pqt_chunk_src_at(src, rg, &one));
    pqt_status st = offset_index_in(&one, rg, col, a, oi, ok);
    pqt_chunk_src_done(&one);
    return st;
}

pqt_status pqt_chunk_page_index(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                pqt_arena *a, pqt_column_index *ci, pqt_offset_index *oi,
                                bool *ok)
{
    if (!src->members || src->member >= 0) return page_index_in(src, rg, col, a, ci, oi, ok);
    pqt_chunk_src one;
    PQT_TRY(pqt_chunk_src_at(src, rg, &one));
    pqt_status st = page_index_in(&one, rg, col, a, ci, oi, ok);
    pqt_chunk_src_done(&one);
    return st;
}
