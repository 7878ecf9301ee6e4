/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta_decode_int.h - helpers shared by the meta_decode*.c files (layer: format, private).
 *
 * The FileMetaData decoder is split by struct family across files; these are the few pieces
 * they share. Nothing outside src/format/meta_decode*.c should include this.
 */
#ifndef PQT_FORMAT_META_DECODE_INT_H
#define PQT_FORMAT_META_DECODE_INT_H

#include "format/meta.h"
#include "format/thrift.h"

/* Each struct decoder also has a table T[] of the wire type parquet.thrift gives each field id,
 * passed to pqt_thrift_next_field (PQT_TT_I32 = any integer, PQT_TT_TRUE = bool). */

/* Required-field bookkeeping: a `uint32_t seen` bit per field id (ids < 32). */
#define SEEN(id) (seen & (1u << (id)))
#define MARK(id) (seen |= (1u << (id)))

/* PQT_NOMEM naming the struct being decoded and the byte reached. */
pqt_status pqt_meta_nomem(const pqt_thrift_reader *r);
/* n elements of `size` bytes from the arena; NULL (and PQT_OK) when n == 0. */
pqt_status pqt_meta_arena_array(const pqt_thrift_reader *r, pqt_arena *a, size_t n, size_t size,
                                void **out);
/* Arena copy of a binary with a NUL after it, so names can be used as C strings. */
pqt_status pqt_meta_copy_bytes(const pqt_thrift_reader *r, pqt_arena *a, const uint8_t *src,
                               uint32_t len, const uint8_t **out);
/* A binary field copied into the arena with a NUL after it (*len_ret may be NULL). */
pqt_status pqt_meta_field_str(pqt_thrift_reader *r, pqt_arena *a, const pqt_thrift_field *f,
                              const char *sname, const char *fname, const uint8_t **out,
                              uint32_t *len_ret);

/* One SchemaElement struct (the list header already read). */
pqt_status pqt_meta_decode_schema_elem(pqt_thrift_reader *r, pqt_arena *a, pqt_schema_elem *e);

#endif
