/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqbuild.h - a tiny Parquet writer for tests: hand-built page headers and footers.
 *
 * Tests that need a hostile or extreme file (a page claiming 2^31-1 levels, a footer
 * claiming more values than the pages hold, 10k row groups, 100k leaves) generate it here
 * instead of committing blobs. Only what such files need: a Thrift compact-protocol writer,
 * PageHeader (v1, v2, dictionary), RLE/bit-packed runs, and a FileMetaData for flat columns
 * and 3-level LIST columns. Every field value is the caller's, so any of them can lie.
 */
#ifndef PQT_TEST_PQBUILD_H
#define PQT_TEST_PQBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer with a compact-protocol writer on top. */
typedef struct pqb {
    uint8_t *b;
    size_t n, cap;
    int16_t last[32];
    int depth;
} pqb;

void pqb_free(pqb *w);
void pqb_bytes(pqb *w, const void *p, size_t n);
void pqb_u8(pqb *w, uint8_t x);
void pqb_le32(pqb *w, uint32_t x);
void pqb_uvar(pqb *w, uint64_t v);
/* Thrift struct fields: begin/end a struct, then typed fields by id. */
void pqb_begin(pqb *w);
void pqb_end(pqb *w);
void pqb_i32(pqb *w, int id, int64_t v);
void pqb_i64(pqb *w, int id, int64_t v);
void pqb_bool(pqb *w, int id, bool v);
void pqb_str(pqb *w, int id, const char *s);
void pqb_struct(pqb *w, int id); /* field header + begin; close with pqb_end */
void pqb_list(pqb *w, int id, int elem_type, int n);
void pqb_zz(pqb *w, int64_t v);  /* a bare list element of an integer list */
void pqb_bin(pqb *w, const char *s);

/* RLE/bit-packed hybrid: one RLE run of `count` copies of `value` at bit width bw. */
void pqb_rle_run(pqb *w, uint64_t count, uint32_t value, int bw);

/* A page header. uncompressed_size / compressed_size are written as given. */
typedef struct pqb_page {
    int type;                 /* PQT_PAGE_DATA, _DATA_V2, _DICTIONARY */
    int32_t uncompressed_size, compressed_size;
    int32_t num_values;
    int encoding;             /* values encoding (PQT_ENC_*) */
    int32_t num_nulls, num_rows; /* v2 */
    int32_t def_nbytes, rep_nbytes; /* v2 */
    bool v2_uncompressed;     /* v2 is_compressed = false */
} pqb_page;
void pqb_page_header(pqb *w, const pqb_page *p);

/* One column of the schema: a flat primitive, or a 3-level LIST <name> (optional) ->
 * list (repeated) -> element (optional) of that primitive. */
typedef struct pqb_col {
    const char *name;
    int ptype;       /* PQT_PT_* */
    int repetition;  /* of the flat column or of the LIST group */
    bool list;
    int type_length; /* FIXED_LEN_BYTE_ARRAY */
} pqb_col;

/* Where one column chunk's bytes are in the file and what the footer says about it. */
typedef struct pqb_chunk {
    int64_t offset, nbytes;       /* byte range of the chunk (data_page_offset = offset) */
    int64_t num_values;
    int64_t total_uncompressed;   /* the claim; tests set it to whatever they test */
    int codec;
} pqb_chunk;

/* What some chunks have beyond pqb_chunk (0 = absent): the dictionary page's offset (the
 * chunk then starts there and pqb_chunk.offset is its first data page), and where an
 * OffsetIndex of it is (pqb_offset_index). */
typedef struct pqb_chunk_extra {
    int64_t dict_offset;
    int64_t oi_offset;
    int32_t oi_nbytes;
} pqb_chunk_extra;

/* Append an OffsetIndex of n pages (offset, compressed_page_size incl. header,
 * first_row_index of each) to w. */
void pqb_offset_index(pqb *w, int n, const int64_t *offsets, const int32_t *nbytes,
                      const int64_t *first_rows);

/* Append a FileMetaData for ncols columns and nrg row groups (rg_rows[rg] rows each,
 * chunks[rg * ncols + c]) plus its length and "PAR1" to w, which holds "PAR1" and the chunk
 * bytes already. */
void pqb_footer(pqb *w, const pqb_col *cols, int ncols, int nrg, const int64_t *rg_rows,
                const pqb_chunk *chunks);
/* The same with extra[rg * ncols + c] for every chunk (extra may be NULL). */
void pqb_footer_ext(pqb *w, const pqb_col *cols, int ncols, int nrg, const int64_t *rg_rows,
                    const pqb_chunk *chunks, const pqb_chunk_extra *extra);
/* pqb_footer where flat column c is a field of an optional struct named group[c] (NULL: top
 * level); neighbouring columns naming the same group share it. */
void pqb_footer_groups(pqb *w, const pqb_col *cols, const char *const *group, int ncols, int nrg,
                       const int64_t *rg_rows, const pqb_chunk *chunks);

/* -- Used by diff_write.c (the differential test's file writer): raw binary fields and
 * list elements (statistics bounds may hold NUL bytes), bool list elements (1 true, 2 false,
 * as the Java and C++ writers emit them) and an i8 field (IntType.bitWidth). -- */
void pqb_binary(pqb *w, int id, const void *p, size_t n);
void pqb_bin_n(pqb *w, const void *p, size_t n);
void pqb_bool_elem(pqb *w, bool v);
void pqb_i8(pqb *w, int id, int v);

/* Write w's bytes to path; false on failure. */
bool pqb_write_file(const pqb *w, const char *path);

#endif
