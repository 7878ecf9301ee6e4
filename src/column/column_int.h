/* SPDX-License-Identifier: Apache-2.0 */
/*
 * column_int.h - state shared by the files of the column layer (private).
 */
#ifndef PQT_COLUMN_INT_H
#define PQT_COLUMN_INT_H

#include "column/column.h"

/* Value conversions (page_convert.c), chosen once per page by pqt_page_conv_pick: decode k
 * dense values of the page (cx->vdec) converted into base (esz bytes a slot), or into a
 * string destination (bytes appended to dst->str_bytes, each value's end in ends). */
typedef pqt_status (*pqt_conv_fixed_fn)(pqt_chunk_ctx *cx, const pqt_col *col, int type_len,
                                        int64_t k, size_t esz, uint8_t *base);
typedef pqt_status (*pqt_conv_bytes_fn)(pqt_chunk_ctx *cx, int type_len, int64_t k, pqt_colbuf *dst,
                                        int64_t *ends);
typedef struct pqt_page_conv {
    pqt_conv_fixed_fn fixed; /* fixed-width destinations, else NULL */
    pqt_conv_bytes_fn bytes; /* string destinations, else NULL */
    int type_len;
    bool dict_spread; /* values as stored are the destination's: dictionary lookups may
                       * write them in place (page_values.c emit_dict_spread) */
} pqt_page_conv;

/* The conversion for values of col (physical type ptype, type_len) into dst's kind. */
void pqt_page_conv_pick(const pqt_col *col, int ptype, int type_len, const pqt_colbuf *dst,
                        pqt_page_conv *out);

struct pqt_chunk_ctx {
    pqt_codec_ctx *codec;
    pqt_buf page;     /* decompressed data page */
    pqt_buf dict_raw; /* decompressed dictionary page */
    pqt_dict dict;
    bool have_dict;
    bool want_codes;  /* emit dictionary codes (int32) instead of values (predicates) */
    bool dict_refuted; /* codes mode: no row of a dictionary-encoded page passes */
    pqt_vdec *vdec;
    pqt_buf present;  /* one byte per level entry: 1 = value present */
    pqt_buf defs;     /* definition levels (uint8) */
    pqt_buf reps;     /* repetition levels (uint8) */
    pqt_buf scratch;  /* physical values awaiting conversion */
    pqt_buf ends;     /* int64 ends of BYTE_ARRAY values */
    pqt_buf slots;    /* list element slots: 1 = present value */
    pqt_buf tmpbytes; /* BYTE_ARRAY values awaiting conversion (decimals) */
    pqt_buf gather;   /* a whole page's values, for gathering a fragmented selection */
    size_t page_lent, dict_lent; /* bytes of page / dict_raw borrowed from the budget */
    size_t page_hint; /* the source's largest decompressed chunk (pqt_io_expect_pages) */
    int64_t nvalues_out; /* non-null values written by the emitters (pqt_read_counters) */
    pqt_buf *sink_reps, *sink_defs; /* pqt_chunk_ctx_set_level_sink, else NULL */
    bool levels_only; /* pqt_chunk_ctx_set_levels_only: levels to the sink, no values */
    pqt_page_conv conv; /* the page's value conversion (page_values.c init_values) */
};

/* Make b (cx->page or cx->dict_raw) hold nbytes for a decompressed page, contents not kept.
 * Large buffers are borrowed from a budget shared by all threads (waiting for it), and
 * given back by pqt_page_buf_release. PQT_LIMIT when one page alone exceeds the budget. */
pqt_status pqt_page_buf_reserve(pqt_chunk_ctx *cx, pqt_buf *b, size_t nbytes);
/* Free cx's borrowed buffers and give their bytes back (after each chunk). */
void pqt_page_buf_release(pqt_chunk_ctx *cx);
/* Tests: set the budget (bytes all threads may hold in large page buffers at once; it
 * starts at 1 GiB) and read the most held at once since the last set. */
void pqt_page_budget_set(size_t nbytes);
size_t pqt_page_budget_peak(void);

/* One walk over the pages of a column chunk (chunk_reader.c), shared with the page
 * decoders (page_decode.c). */
typedef struct pqt_chunk_walk {
    pqt_chunk_ctx *cx;
    const pqt_chunk_src *src;
    const pqt_col *col;
    const pqt_column_meta *cm;
    int ptype, type_len;
    int rg, page_no;
    int64_t rg_rows;
    /* rows of each data page from the offset index (NULL when absent): lets v1 list pages,
     * whose row counts are otherwise only in their levels, be skipped undecompressed */
    const int64_t *oi_rows;
    int oi_npages, data_page_no;
    /* What the footer leaves for the pages still to come: level entries (num_values) and
     * uncompressed bytes (total_uncompressed_size, with slack for writers that get it a
     * little wrong). A page claiming more is refused before anything is allocated for it. */
    int64_t values_left, unc_left;
    /* this read's counts, added to src->counters once at its end */
    int64_t n_pages, n_skipped, n_decompressed, n_sparse, n_dict, n_bytes;
} pqt_chunk_walk;

/* The chunk [start, start + len) read straight into dst's rows from dst_row on, when it is
 * all fixed-width PLAIN values without a null, uncompressed or as SNAPPY literals
 * (chunk_place.c); PQT_NOT_FOUND when it is not (dst's rows may then hold anything: read
 * the chunk the usual way); I/O errors as they come. */
pqt_status pqt_chunk_read_placed(pqt_chunk_walk *w, int64_t start, int64_t len, const pqt_sel *sel,
                                 pqt_colbuf *dst, int64_t dst_row);
/* Chunks read into place so far, in this process (tests). */
int64_t pqt_chunk_placed_total(void);

/* Load a dictionary page into cx->dict. */
pqt_status pqt_page_load_dict(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body);
/* The PLAIN bytes of a dictionary page (body: h->compressed_size bytes): body itself when the
 * chunk is uncompressed, else decompressed into cx->dict_raw (the claim checked first). */
pqt_status pqt_page_dict_plain(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                               const uint8_t **p_ret, size_t *n_ret);
/* Decode the rows of sel in one data page (body: h->compressed_size bytes) into dst:
 * advances *rows_done by the page's rows and *out_row by the selected ones (scalars). */
pqt_status pqt_page_decode_data(pqt_chunk_walk *w, const pqt_page_header *h, const uint8_t *body,
                                const pqt_sel *sel, int64_t *rows_done, pqt_colbuf *dst,
                                int64_t *out_row);

/* One data page, ready for value decoding. */
typedef struct pqt_page_view {
    const uint8_t *values; /* encoded values */
    size_t values_nbytes;
    int encoding;
    int64_t nlevels;       /* level entries (num_values of the header) */
    int64_t nrows;         /* rows (flat: nlevels) */
    int64_t nvalues;       /* non-null values */
    const uint8_t *present; /* nlevels bytes, or NULL when every entry is a present value */
    const uint8_t *defs;    /* nlevels def levels (lists), else NULL */
    const uint8_t *reps;    /* nlevels rep levels (lists), else NULL */
    /* lists: the first ncont entries continue the row the page before began (its last row);
     * cont_selected: that row is selected, so they extend dst's last row */
    int64_t ncont;
    bool cont_selected;
} pqt_page_view;

/* Decode the values of rows selected in [page_row0, page_row0 + pv->nrows) of a flat page
 * into dst, advancing *out_row. */
pqt_status pqt_page_emit_flat(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                              const pqt_page_view *pv, const pqt_sel *sel, int64_t page_row0,
                              pqt_colbuf *dst, int64_t *out_row);

/* Same for a list page (max_rep == 1): rows start where reps == 0; pv->nrows rows start in
 * the page, after pv->ncont entries continuing the previous page's last row. */
pqt_status pqt_page_emit_list(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                              const pqt_page_view *pv, const pqt_sel *sel, int64_t page_row0,
                              pqt_colbuf *dst);

/* Decode k values for l slots (present: which hold one; NULL when all do) at position pos
 * of dst (a row for scalars, an element for lists), converted by cx->conv, which
 * pqt_page_emit_flat / _list chose for the page (ptype, type_len: unused since). */
pqt_status pqt_page_emit_values(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int type_len,
                                const uint8_t *present, int64_t l, int64_t k, pqt_colbuf *dst,
                                int64_t pos);

/* page_sparse.c. Can the page's values be read in place (PLAIN, fixed width, stored as the
 * destination holds them)? */
bool pqt_page_plain_in_place(const pqt_chunk_ctx *cx, const pqt_col *col, int ptype,
                             int type_len, const pqt_page_view *pv, const pqt_colbuf *dst);
/* The m rows a bitmap selection keeps of such a flat page, copied to dst at *out_row. */
pqt_status pqt_page_gather_plain(pqt_chunk_ctx *cx, const pqt_page_view *pv, const pqt_sel *sel,
                                 int64_t page_row0, int64_t m, pqt_colbuf *dst, int64_t *out_row);
/* Zero bytes among p[0..n): the rows of a list page, from its repetition levels. */
/* Makes bytes [from, to) of a page being decompressed hold their values; calls go forward.
 * PQT_NOT_FOUND: the page cannot be had in part (decompress it whole). */
typedef pqt_status (*pqt_page_fill_fn)(void *state, size_t from, size_t to);

/* The rows sel keeps of a flat page of nrows fixed-width values, all present, whose values
 * start at byte values_at of `page`, which fill() decompresses a part at a time: their bytes
 * alone are filled, then copied to dst at *out_row. PQT_NOT_FOUND (dst unchanged) from fill:
 * decompress the page whole instead. */
pqt_status pqt_page_gather_sparse(pqt_chunk_ctx *cx, pqt_page_fill_fn fill, void *state,
                                  const uint8_t *page, size_t values_at, const pqt_sel *sel,
                                  int64_t page_row0, int64_t nrows, pqt_colbuf *dst,
                                  int64_t *out_row);
int64_t pqt_count_zero_bytes(const uint8_t *p, int64_t n);
/* The selected rows of a list page whose every level entry is a present element
 * (pv->defs NULL, pv->nvalues == pv->nlevels). */
pqt_status pqt_page_emit_list_dense(pqt_chunk_ctx *cx, const pqt_col *col, int ptype,
                                    int type_len, const pqt_page_view *pv, const pqt_sel *sel,
                                    int64_t page_row0, pqt_colbuf *dst);

/* A flat page that may be decompressed straight into its destination (page_direct.c). */
typedef struct pqt_page_direct {
    const uint8_t *src;          /* compressed bytes: values only, or v1 levels + values */
    size_t src_nbytes;
    int64_t uncompressed_nbytes;
    bool values_only;            /* levels are known already (v2, or a required column) */
    int encoding;
    int max_def;
    int64_t nrows;               /* rows of the page, all selected */
    int64_t nvalues;             /* non-null values (set by the caller when values_only) */
    const uint8_t *present;      /* per-row presence, NULL when none is null */
    bool expect_no_nulls;        /* the chunk's statistics say it holds no null */
    bool owns_rows_before;       /* rows before this page were written by this thread */
} pqt_page_direct;

/* Decompress the page's values straight into dst at row `row`. PQT_NOT_FOUND when the page
 * does not qualify (nothing written); another status is an error. */
pqt_status pqt_page_decode_direct(pqt_chunk_ctx *cx, const pqt_col *col, int ptype, int codec,
                           pqt_page_direct *pd, pqt_colbuf *dst, int64_t row);

/* Spread k dense values over l slots (present[i] says which), zeroing nulls. */
void pqt_page_expand(uint8_t *base, size_t esz, const uint8_t *present, int64_t l, int64_t k);

/* Set bits [pos, pos+n) of bitmap from present bytes (NULL = all present). Safe when other
 * threads write other bit ranges of the same bitmap. */
void pqt_bitmap_set_from_bytes(uint8_t *bitmap, int64_t pos, const uint8_t *present, int64_t n);

/* chunk_src.c: the rows sel selects of a constant chunk (pqt_column_chunk.is_constant), from
 * dst_row on: its one value, or nulls. No I/O. */
pqt_status pqt_chunk_read_constant(const pqt_chunk_src *src, int rg, const pqt_col *col,
                                   const pqt_sel *sel, pqt_colbuf *dst, int64_t dst_row);

#endif
