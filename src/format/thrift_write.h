/* SPDX-License-Identifier: Apache-2.0 */
/*
 * thrift_write.h - Thrift compact-protocol writer (layer: format).
 *
 * The writer half of thrift.h (thrift/doc/specs/thrift-compact-protocol.md): appends a
 * struct, field by field, to a pqt_buf. Field ids are delta-encoded against the previous
 * field of the same struct (short form for deltas 1..15, long form otherwise), integers are
 * zigzag varints (i8 is one raw byte), bools live in the field header's type nibble, and
 * list headers use the long form from 15 elements on.
 *
 * Errors latch: the first failure (out of memory, a length Thrift cannot carry, nesting
 * past PQT_THRIFT_MAX_DEPTH) is kept in w->st, every later call does nothing, and the caller
 * checks once with pqt_thrift_write_status. The buffer may then hold a partial struct; the
 * caller (format/meta_encode.c) truncates it back to where it started.
 */
#ifndef PQT_FORMAT_THRIFT_WRITE_H
#define PQT_FORMAT_THRIFT_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/thrift.h"
#include "pqt.h"
#include "util/buf.h"

typedef struct pqt_thrift_writer {
    pqt_buf *out;
    pqt_status st;                             /* first failure, PQT_OK so far */
    int depth;                                 /* structs currently open */
    int16_t last_id[PQT_THRIFT_MAX_DEPTH + 1]; /* previous field id of each open struct */
} pqt_thrift_writer;

/* Start writing at the end of *out (which the caller owns and frees). */
void pqt_thrift_write_init(pqt_thrift_writer *w, pqt_buf *out);
/* PQT_OK, or the first failure (its message already recorded). Also PQT_MISUSE when
 * structs are still open, so a forgotten struct_end is caught. */
pqt_status pqt_thrift_write_status(const pqt_thrift_writer *w);

/* ---- structs and fields ---- */
/* Open a struct (the top-level one, a list element, or after pqt_thrift_write_field with
 * type PQT_TT_STRUCT); struct_end writes its STOP byte. */
void pqt_thrift_write_struct_begin(pqt_thrift_writer *w);
void pqt_thrift_write_struct_end(pqt_thrift_writer *w);
/* A field header of wire type `type` for field `id` (> 0) of the open struct. Ids need not
 * ascend (a descending id takes the long form), but parquet's do. Not for bools. */
void pqt_thrift_write_field(pqt_thrift_writer *w, int16_t id, uint8_t type);

/* Header and value in one call. */
void pqt_thrift_write_field_bool(pqt_thrift_writer *w, int16_t id, bool v);
void pqt_thrift_write_field_i8(pqt_thrift_writer *w, int16_t id, int8_t v);
void pqt_thrift_write_field_i16(pqt_thrift_writer *w, int16_t id, int16_t v);
void pqt_thrift_write_field_i32(pqt_thrift_writer *w, int16_t id, int32_t v);
void pqt_thrift_write_field_i64(pqt_thrift_writer *w, int16_t id, int64_t v);
void pqt_thrift_write_field_double(pqt_thrift_writer *w, int16_t id, double v);
/* binary or string of n bytes (n <= INT32_MAX, else PQT_LIMIT). */
void pqt_thrift_write_field_binary(pqt_thrift_writer *w, int16_t id, const void *data, size_t n);
/* Field header of type struct, then struct_begin: close with struct_end. */
void pqt_thrift_write_field_struct_begin(pqt_thrift_writer *w, int16_t id);
/* A struct field holding an empty struct (the members of Parquet's marker unions). */
void pqt_thrift_write_field_empty_struct(pqt_thrift_writer *w, int16_t id);
/* Field header of type list, then the list header: write `count` elements next. */
void pqt_thrift_write_field_list_begin(pqt_thrift_writer *w, int16_t id, uint8_t elem_type,
                                       size_t count);

/* ---- bare values (list elements) ---- */
/* list<elem_type> header for count elements (count <= INT32_MAX, else PQT_LIMIT). A bool
 * list uses elem_type PQT_TT_TRUE and pqt_thrift_write_bool_elem. */
void pqt_thrift_write_list_header(pqt_thrift_writer *w, uint8_t elem_type, size_t count);
void pqt_thrift_write_bool_elem(pqt_thrift_writer *w, bool v);
void pqt_thrift_write_i8(pqt_thrift_writer *w, int8_t v);
void pqt_thrift_write_i32(pqt_thrift_writer *w, int32_t v);
void pqt_thrift_write_i64(pqt_thrift_writer *w, int64_t v);
void pqt_thrift_write_double(pqt_thrift_writer *w, double v);
void pqt_thrift_write_binary(pqt_thrift_writer *w, const void *data, size_t n);
/* Unsigned LEB128 varint, as is (no zigzag). */
void pqt_thrift_write_uvarint(pqt_thrift_writer *w, uint64_t v);

#endif
