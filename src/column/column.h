/* SPDX-License-Identifier: Apache-2.0 */
/*
 * column.h - the column-chunk reader: pages -> values in a destination (layer: column).
 *
 * Reads one column chunk of one row group, obeying a row selection (util/sel.h), and
 * writes exactly the selected rows, in order, into a pqt_colbuf at a given row offset.
 * Pages holding no selected row are skipped before they are decompressed. Implements
 * parquet-format's page structure (data page v1 and v2, dictionary pages, CRC32,
 * definition/repetition levels) on top of the codec and encoding layers.
 */
#ifndef PQT_COLUMN_H
#define PQT_COLUMN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "codec/codec.h"
#include "encoding/encoding.h"
#include "format/meta.h"
#include "format/schema.h"
#include "pqt.h"
#include "util/buf.h"
#include "util/io.h"
#include "util/sel.h"

/* Where a column's values go. Scalars: element i = row i. Lists: elements appended, with
 * list_offsets per row. Fixed-size element data is contiguous; strings are int64 offsets
 * (one more than elements) into str_bytes. validity/row_validity are LSB-first bitmaps,
 * 1 = present, allocated only when the column can hold nulls. */
typedef struct pqt_colbuf {
    int elem_kind;
    bool is_list;
    size_t elem_nbytes;    /* 0 for strings */
    int64_t nrows;         /* rows written so far (lists) or allocated (scalars) */
    int64_t nelem, elem_cap; /* elements written (lists) / allocated */
    int64_t elem_limit;      /* lists: elements may grow up to this (the chunks' value
                              * counts) when it exceeds elem_cap; 0: no growth */
    void *data;
    uint8_t *validity;
    int64_t *str_offsets;
    pqt_buf str_bytes;
    int64_t *list_offsets; /* nrows + 1 */
    uint8_t *row_validity;
    int64_t rows_cap;
    bool data_borrowed; /* data belongs to the caller: not freed here */
    /* the arrays belong to this owner, shared with what was exported from them (an Arrow
     * array, src/arrow/): pqt_colbuf_free drops this colbuf's reference instead */
    struct pqt_colbuf_share *share;
} pqt_colbuf;

/* Allocate a colbuf for nrows rows of col; elem_cap bounds list elements (ignored for
 * scalars). Everything is allocated once here; validity starts all-absent. borrowed_data,
 * when not NULL, is caller memory for the values of a fixed-width scalar column. */
pqt_status pqt_colbuf_alloc(pqt_colbuf *b, const pqt_col *col, int64_t nrows, int64_t elem_cap,
                            void *borrowed_data);
/* As pqt_colbuf_alloc, taking the arrays of spare (a colbuf done with; NULL: none) where
 * they are large enough instead of allocating; spare is left empty. */
pqt_status pqt_colbuf_alloc_reusing(pqt_colbuf *b, const pqt_col *col, int64_t nrows,
                                    int64_t elem_cap, void *borrowed_data, pqt_colbuf *spare);
void pqt_colbuf_free(pqt_colbuf *b);
/* As pqt_colbuf_free, its large arrays kept for the next large allocation (another column's
 * read of the same size soon): pqt_mem_free_recycled. */
void pqt_colbuf_free_recycled(pqt_colbuf *b);
/* A reference-counted owner of a colbuf's arrays, so that they outlive the colbuf (zero-copy
 * export: the table frees, evicts or reloads the column while an exported array still reads
 * them). pqt_colbuf_share_take moves b's arrays under the owner (b keeps pointing at them and holds
 * one reference, dropped by pqt_colbuf_free) and returns a new reference in *ret for the
 * caller, dropped with pqt_colbuf_share_drop from any thread; the last drop frees the arrays.
 * A colbuf whose arrays changed since (a bitmap allocated for a first null) is shared anew
 * over the old owner: arrays exported before keep what they had, later ones see the change.
 * A colbuf whose data is the caller's (data_borrowed) cannot be shared: PQT_MISUSE. Shared
 * arrays are never taken as a spare (pqt_colbuf_alloc_reusing) nor grown. */
typedef struct pqt_colbuf_share pqt_colbuf_share;
pqt_status pqt_colbuf_share_take(pqt_colbuf *b, pqt_colbuf_share **ret);
void pqt_colbuf_share_drop(pqt_colbuf_share *s);
/* One more reference to s (dropped with pqt_colbuf_share_drop). */
void pqt_colbuf_share_ref(pqt_colbuf_share *s);
/* The shared arrays, read-only: alive while a reference is held. */
const pqt_colbuf *pqt_colbuf_share_arrays(const pqt_colbuf_share *s);
/* Whether arrays of b are read by anyone else (a reference besides b's own, to its owner or to
 * an older owner it shares arrays with): a write into them would show through an export, so
 * the writer copies first (copy on write). */
bool pqt_colbuf_shared(const pqt_colbuf *b);
/* Whether b's data array belongs to its owner (b shared it): replacing the array must leave
 * it to the owner instead of freeing it. */
bool pqt_colbuf_data_shared(const pqt_colbuf *b);
/* Make room for `need` elements of a list colbuf, growing geometrically up to elem_limit:
 * counts from the footer are trusted as a limit, not as an allocation. PQT_CORRUPT past the
 * limit (more elements than the chunks' value counts). */
pqt_status pqt_colbuf_reserve_elems(pqt_colbuf *b, int64_t need);
/* The width every row of a list colbuf shares (no null lists, at least one element), or -1:
 * what decides between a vector and a list kind. */
int pqt_colbuf_uniform_width(const pqt_colbuf *b);

/* Per-thread scratch reused across chunks and pages. */
typedef struct pqt_chunk_ctx pqt_chunk_ctx;
pqt_status pqt_chunk_ctx_new(pqt_chunk_ctx **ret);
void pqt_chunk_ctx_free(pqt_chunk_ctx *cx);

/* What reading cost, added up by every chunk read that is given the block (exact, never
 * sampled). Each chunk read counts into locals and adds them here once at its end (also
 * when it fails: the work was done), so threads reading other chunks may share a block.
 *   pages: data pages walked, one per data page header of every chunk read (each read of
 *     a chunk counts its pages again); always pages_skipped + pages_decompressed;
 *   pages_skipped: data pages never decompressed because no selected row is in them (row
 *     counts from the page header, or for v1 list pages from the offset index), or because
 *     the caller's dictionary evaluation refuted them (pqt_chunk_ctx_set_dict_refuted);
 *   pages_decompressed: data pages decompressed, or used in place when stored
 *     uncompressed (also a page decompressed to count the rows of a v1 list page);
 *   pages_sparse: of those, pages decompressed only in part (page_decode.c, page_sparse):
 *     a snappy page in the 64 KiB blocks holding selected rows, a zstd page up to the last;
 *   dict_pages: dictionary pages read and loaded;
 *   values_decoded: non-null values written into a destination (for lists: present
 *     elements). Not counted: levels, dictionary entries, values a decoder passes over
 *     for rows not selected, and null slots;
 *   bytes_read: bytes of the column chunk fetched from the source (its whole range from
 *     the dictionary page on, total_compressed_size, by pread or by reference into
 *     memory); the offset index is not counted;
 *   offset_index_reads: offset indexes read and decoded (pqt_chunk_offset_index), usable
 *     or not; one taken from the file's cache (pqt_oindex_cache) is not counted. */
typedef struct pqt_read_counters {
    _Atomic int64_t pages, pages_skipped, pages_decompressed, pages_sparse, dict_pages,
        values_decoded, bytes_read, offset_index_reads;
} pqt_read_counters;

/* Add the counters of `from` (a quiescent block) to `to` (which other threads may update). */
void pqt_read_counters_add(pqt_read_counters *to, const pqt_read_counters *from);

/* Codes mode, for predicates evaluated on a dictionary: while on, reads write each present
 * value's dictionary code (uint32, into an int32 pqt_colbuf) instead of the value, and a page
 * that is not dictionary encoded fails with PQT_UNSUPPORTED_ENCODING (the caller reads
 * values instead). pqt_chunk_ctx_dict: the dictionary of the chunk read last (NULL when it
 * had none). */
void pqt_chunk_ctx_set_codes(pqt_chunk_ctx *cx, bool on);
const pqt_dict *pqt_chunk_ctx_dict(const pqt_chunk_ctx *cx);
/* Also in codes mode (flat columns), the caller's word that no row of a dictionary-encoded
 * data page of the next chunk read passes (it evaluated the chunk's dictionary, and nulls,
 * with pqt_chunk_read_dict): those pages are not decompressed, and their selected rows get
 * code PQT_CODE_REFUTED, present. Pages of other encodings are read as usual; a second
 * dictionary page in the chunk withdraws the word. Counted as pages skipped. */
#define PQT_CODE_REFUTED UINT32_MAX
void pqt_chunk_ctx_set_dict_refuted(pqt_chunk_ctx *cx, bool on);
/* Lists of lists: every level entry a list read decodes is appended to reps and defs (one
 * byte each; a page whose entries all hold a value appends max_def), for the caller to
 * rebuild the inner lists from. Only with a selection of every row (no page skipped).
 * NULL, NULL turns it off. */
void pqt_chunk_ctx_set_level_sink(pqt_chunk_ctx *cx, pqt_buf *reps, pqt_buf *defs);

/* The offset indexes of one open file's chunks, each decoded at most once (page_index.c):
 * the first pqt_chunk_offset_index of a chunk decodes it, usable or not, and every later
 * one, from any thread, shares the verdict. Memory: a pointer per chunk, allocated on
 * first use, plus what the index bytes read decode to. Owned by the open file. */
typedef struct pqt_oindex_cache pqt_oindex_cache;
/* An empty cache for the chunks of meta (which must outlive it); NULL without memory. */
pqt_oindex_cache *pqt_oindex_cache_new(const pqt_file_meta *meta);
void pqt_oindex_cache_free(pqt_oindex_cache *c);

/* A dataset's member files (api/file_dataset.c): row group rg (of the merged footer) is row
 * group rg_local[rg] of member rg_member[rg]; member i was size[i] bytes when its footer was
 * read (-1: not read, the footer came from a summary file). */
typedef struct pqt_chunk_members {
    struct pqt_ioset *set;
    const int64_t *rg_member;
    const int32_t *rg_local;
    const int64_t *size;
} pqt_chunk_members;

/* What the reader needs of the file: its source, size, name and options. */
typedef struct pqt_chunk_src {
    pqt_io *io;         /* chunks are read in place (memory) or into its pooled buffers */
    const char *path;
    int64_t file_size;
    const pqt_file_meta *meta;
    bool verify_crc;
    bool serial;        /* row groups are read in order by one thread into this destination */
    pqt_read_counters *counters; /* what the reads cost is added here; NULL counts nothing */
    pqt_oindex_cache *oindex;    /* the file's decoded offset indexes; NULL decodes each time */
    /* a dataset: each row group's chunks are in one of these files (NULL: all in io) */
    const pqt_chunk_members *members;
    int64_t member;              /* with members: the member io is (pqt_chunk_src_at), or -1 */
} pqt_chunk_src;

/* The source of row group rg's chunks into *out: src itself for one file; for a dataset the
 * member holding rg (opened on first use: PQT_IO naming it when it is gone or changed), with
 * its path and size, held until pqt_chunk_src_done. Every entry point below does this. */
pqt_status pqt_chunk_src_at(const pqt_chunk_src *src, int rg, pqt_chunk_src *out);
void pqt_chunk_src_done(pqt_chunk_src *s);
/* Row group rg as messages number it: 1-based within its own file. */
int pqt_chunk_src_rg_no(const pqt_chunk_src *src, int rg);

/* The page index of column col's chunk in row group rg (page_index.c), decoded into arena a,
 * or, with src->oindex, the offset index borrowed from the cache (it lives as long as the
 * cache): *ok false when the chunk has none or it does not fit the chunk (then it must not
 * be used). Fails only for I/O and memory (nothing is cached then). pqt_chunk_page_index
 * needs both indexes; its column index is decoded into a each time. */
pqt_status pqt_chunk_offset_index(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                  pqt_arena *a, pqt_offset_index *oi, bool *ok);
pqt_status pqt_chunk_page_index(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                pqt_arena *a, pqt_column_index *ci, pqt_offset_index *oi,
                                bool *ok);
/* The split-block bloom filter of col's chunk in row group rg (bloom.c), probed with n xxhash64
 * values: *absent_ret true when none of them is in it, *read_ret true when a filter was read.
 * No usable filter (absent, malformed, unknown algorithm, hash or compression, a size its
 * place in the file cannot hold) leaves both false. Fails only for I/O. */
pqt_status pqt_chunk_bloom_absent(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                  const uint64_t *hashes, int64_t n, bool *absent_ret,
                                  bool *read_ret);
/* Byte range of a column chunk: from its dictionary page (when there is one) to the end of
 * its data pages. Unchecked: the caller checks it against the file. */
void pqt_chunk_byte_range(const pqt_column_meta *cm, int64_t *start, int64_t *len);

/* The byte ranges pqt_chunk_read of col in row group rg under sel will fetch, appended to
 * (*ranges)[*n..] (grown with pqt_realloc; *cap its room): the whole chunk, or with an offset
 * index and pages nobody selected, the dictionary page and each run of wanted pages. Nothing
 * for a chunk the read would refuse (it reports that), nor for a dataset's row group. Fails
 * only for I/O (reading the offset index) and memory. */
pqt_status pqt_chunk_ranges(const pqt_chunk_src *src, int rg, const pqt_col *col,
                            const pqt_sel *sel, pqt_io_range **ranges, int *n, int *cap);

/* Read column `col` of row group `rg` under selection `sel` (row-group relative) into
 * dst starting at row dst_row (scalars) or after dst's last row (lists; dst_row must equal
 * dst->nrows). Errors name the column, row group and page. */
pqt_status pqt_chunk_read(pqt_chunk_ctx *cx, const pqt_chunk_src *src, int rg, const pqt_col *col,
                          const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row);

/* The dictionary page of column col's chunk in row group rg (chunk_dict.c), alone: its
 * entries decoded as a read of the chunk would decode values (the column's kind and
 * conversion) into dst, one row per entry, none null (dst->nrows entries; free with
 * pqt_colbuf_free). *ok false, dst empty, when it is not usable: the chunk has no dictionary
 * page, it is corrupt, or it is larger than max_nbytes (compressed or not) or than the
 * chunk's sizes allow -- checked before anything is allocated. Scalar columns only. Fails
 * only for I/O and memory (the message names the file, column and row group). Counts
 * dict_pages and bytes_read into src->counters. */
pqt_status pqt_chunk_read_dict(pqt_chunk_ctx *cx, const pqt_chunk_src *src, int rg,
                               const pqt_col *col, size_t max_nbytes, pqt_colbuf *dst,
                               bool *ok);

#endif
