/* SPDX-License-Identifier: Apache-2.0 */
/*
 * thrift.h - Thrift compact-protocol reader (layer: format).
 *
 * Parquet serializes its footer, page headers, page index and bloom filter headers with the
 * Thrift compact protocol (thrift/doc/specs/thrift-compact-protocol.md). This is the reader
 * half: a cursor over a caller-owned buffer plus typed reads. It knows nothing about the
 * Parquet structs; format/meta_decode*.c walk those with it.
 *
 * Every read is bounds-checked against the buffer. Failures return PQT_CORRUPT with a message
 * "corrupt <what> at byte <absolute file offset>: ...", where the offset is base_offset plus
 * the cursor position, so a user can find the bad bytes with a hex dump. Page headers are
 * decoded once per page, so the common one-byte varint and field header are inline here.
 */
#ifndef PQT_FORMAT_THRIFT_H
#define PQT_FORMAT_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pqt.h"
#include "util/error.h"
#include "util/le.h"

/* Compact-protocol wire types. In a struct field header TRUE/FALSE carry the bool value
 * itself; as a list element type either one means "bool, one byte per element". */
enum {
    PQT_TT_STOP = 0,
    PQT_TT_TRUE = 1,
    PQT_TT_FALSE = 2,
    PQT_TT_I8 = 3,
    PQT_TT_I16 = 4,
    PQT_TT_I32 = 5,
    PQT_TT_I64 = 6,
    PQT_TT_DOUBLE = 7,
    PQT_TT_BINARY = 8,
    PQT_TT_LIST = 9,
    PQT_TT_SET = 10,
    PQT_TT_MAP = 11,
    PQT_TT_STRUCT = 12,
    PQT_TT_UUID = 13
};

/* Deeper nesting than any Parquet struct needs; bounds recursion on hostile input. */
#define PQT_THRIFT_MAX_DEPTH 64

typedef struct pqt_thrift_reader {
    const uint8_t *start; /* buf[0] */
    const uint8_t *p;     /* cursor */
    const uint8_t *end;
    int64_t base_offset; /* file offset of buf[0], for messages only */
    const char *what;    /* "footer", "page header", ... for messages */
    int depth;           /* structs/containers currently open */
} pqt_thrift_reader;

typedef struct pqt_thrift_field {
    int16_t id;
    uint8_t type;  /* PQT_TT_*; PQT_TT_STOP ends the struct */
    bool bool_val; /* for PQT_TT_TRUE / PQT_TT_FALSE fields */
} pqt_thrift_field;

void pqt_thrift_init(pqt_thrift_reader *r, const uint8_t *buf, size_t n, int64_t base_offset,
                     const char *what);

/* Record PQT_CORRUPT with "corrupt <what> at byte <offset of pos>: <fmt>". pos must lie
 * within [start, end]. Returns PQT_CORRUPT. */
pqt_status pqt_thrift_corrupt_at(const pqt_thrift_reader *r, const uint8_t *pos, const char *fmt,
                                 ...) PQT_PRINTF(3, 4);

static inline size_t pqt_thrift_remaining(const pqt_thrift_reader *r)
{
    return (size_t)(r->end - r->p);
}

static inline int64_t pqt_thrift_offset(const pqt_thrift_reader *r)
{
    return r->base_offset + (int64_t)(r->p - r->start);
}

/* Multi-byte path of pqt_thrift_read_uvarint: rejects varints over 10 bytes or 64 bits. */
pqt_status pqt_thrift_read_uvarint_slow(pqt_thrift_reader *r, uint64_t *v);

static inline pqt_status pqt_thrift_read_uvarint(pqt_thrift_reader *r, uint64_t *v)
{
    if (PQT_LIKELY(r->p < r->end && *r->p < 0x80)) {
        *v = *r->p++;
        return PQT_OK;
    }
    return pqt_thrift_read_uvarint_slow(r, v);
}

/* Zigzag varint as i64 (any width of varint the file wrote). */
static inline pqt_status pqt_thrift_read_i64(pqt_thrift_reader *r, int64_t *v)
{
    uint64_t u;
    PQT_TRY(pqt_thrift_read_uvarint(r, &u));
    *v = pqt_unzigzag(u);
    return PQT_OK;
}

/* Zigzag varint that must fit in i32. */
pqt_status pqt_thrift_read_i32(pqt_thrift_reader *r, int32_t *v);
/* Zigzag varint that must fit in i16. */
pqt_status pqt_thrift_read_i16(pqt_thrift_reader *r, int16_t *v);
/* One raw byte, two's complement (compact i8 is not a varint). */
pqt_status pqt_thrift_read_i8(pqt_thrift_reader *r, int8_t *v);
/* Any integer wire type (I8, I16, I32, I64) as int64; PQT_CORRUPT for other types. Lets
 * decoders accept a writer that used a wider or narrower integer than parquet.thrift. */
pqt_status pqt_thrift_read_int(pqt_thrift_reader *r, uint8_t type, int64_t *v);
/* 8 bytes little-endian IEEE 754. */
pqt_status pqt_thrift_read_double(pqt_thrift_reader *r, double *v);
/* binary/string: *data points into the buffer, len checked against the bytes left. */
pqt_status pqt_thrift_read_binary(pqt_thrift_reader *r, const uint8_t **data, uint32_t *len);
/* A bool list element: one byte, 1 = true, 0 or 2 = false (writers differ). */
pqt_status pqt_thrift_read_bool_elem(pqt_thrift_reader *r, bool *v);

/* Open a struct (depth check); pair with pqt_thrift_struct_end. *last_id must start at 0
 * and is the per-struct state for delta-encoded field ids. */
static inline pqt_status pqt_thrift_struct_begin(pqt_thrift_reader *r, int16_t *last_id)
{
    if (PQT_UNLIKELY(r->depth >= PQT_THRIFT_MAX_DEPTH))
        return pqt_thrift_corrupt_at(r, r->p, "nesting deeper than %d levels",
                                     PQT_THRIFT_MAX_DEPTH);
    r->depth++;
    *last_id = 0;
    return PQT_OK;
}

static inline void pqt_thrift_struct_end(pqt_thrift_reader *r)
{
    r->depth--;
}

/* Skip a struct field's value of wire type `type` (a bool field has no value bytes). */
pqt_status pqt_thrift_skip(pqt_thrift_reader *r, uint8_t type);

/* Long-form and error paths of pqt_thrift_read_field. */
pqt_status pqt_thrift_read_field_slow(pqt_thrift_reader *r, int16_t *last_id, pqt_thrift_field *f);

/* Next field header of the current struct; f->type == PQT_TT_STOP at its end. */
static inline pqt_status pqt_thrift_read_field(pqt_thrift_reader *r, int16_t *last_id,
                                               pqt_thrift_field *f)
{
    if (PQT_LIKELY(r->p < r->end)) {
        uint8_t b = *r->p;
        uint8_t delta = (uint8_t)(b >> 4), type = (uint8_t)(b & 0x0f);
        if (b == 0) {
            r->p++;
            f->type = PQT_TT_STOP;
            f->id = 0;
            return PQT_OK;
        }
        /* short form: delta in 1..15, a valid type, and no i16 overflow */
        if (PQT_LIKELY(delta != 0 && type != 0 && type <= PQT_TT_UUID && *last_id <= 32767 - 15)) {
            r->p++;
            f->type = type;
            f->id = (int16_t)(*last_id + delta);
            f->bool_val = type == PQT_TT_TRUE;
            *last_id = f->id;
            return PQT_OK;
        }
    }
    return pqt_thrift_read_field_slow(r, last_id, f);
}

/* Does field f match the expected wire type table `want` (indexed by field id; 0 = no
 * expectation)? In the table PQT_TT_I32 stands for any integer type, PQT_TT_TRUE for bool and
 * PQT_TT_LIST for list or set. */
static inline bool pqt_thrift_expected(const uint8_t *want, size_t nwant, const pqt_thrift_field *f)
{
    if (f->id <= 0 || (size_t)f->id >= nwant || want[f->id] == 0) return true;
    switch (want[f->id]) {
    case PQT_TT_I32:
        return f->type >= PQT_TT_I8 && f->type <= PQT_TT_I64;
    case PQT_TT_TRUE:
        return f->type == PQT_TT_TRUE || f->type == PQT_TT_FALSE;
    case PQT_TT_LIST:
        return f->type == PQT_TT_LIST || f->type == PQT_TT_SET;
    default:
        return f->type == want[f->id];
    }
}

/* pqt_thrift_read_field for a struct whose field types are known: a field whose wire type
 * differs from want[id] is skipped as if its id were unknown. Writers have reused ids (a
 * pre-release parquet-mr put a list at ColumnMetaData field 15, which is now the i32
 * bloom_filter_length: data/dict-page-offset-zero.parquet), so for an optional field this is
 * the only safe reading; a required field skipped this way is then reported as missing. */
static inline pqt_status pqt_thrift_next_field(pqt_thrift_reader *r, int16_t *last_id,
                                               pqt_thrift_field *f, const uint8_t *want,
                                               size_t nwant)
{
    for (;;) {
        PQT_TRY(pqt_thrift_read_field(r, last_id, f));
        if (PQT_LIKELY(f->type == PQT_TT_STOP || pqt_thrift_expected(want, nwant, f)))
            return PQT_OK;
        PQT_TRY(pqt_thrift_skip(r, f->type));
    }
}

/* list<T> or set<T> header. *count is checked against the bytes left (every element takes at
 * least one byte) and against INT32_MAX, so callers may allocate count elements. */
pqt_status pqt_thrift_read_list_header(pqt_thrift_reader *r, uint8_t *elem_type, uint32_t *count);
/* map<K,V> header; types are PQT_TT_STOP when count == 0. */
pqt_status pqt_thrift_read_map_header(pqt_thrift_reader *r, uint8_t *key_type, uint8_t *val_type,
                                      uint32_t *count);

/* Skip one list/set/map element of wire type `type` (a bool element takes one byte). */
pqt_status pqt_thrift_skip_elem(pqt_thrift_reader *r, uint8_t type);

/* True for the wire types pqt_thrift_read_int accepts. */
static inline bool pqt_thrift_is_int(uint8_t type)
{
    return type >= PQT_TT_I8 && type <= PQT_TT_I64;
}

static inline bool pqt_thrift_is_bool(uint8_t type)
{
    return type == PQT_TT_TRUE || type == PQT_TT_FALSE;
}

/* Typed reads of a struct field's value, for the metadata decoders. Each checks the field's
 * wire type (any integer type for ints, either bool type for bools) and reports a mismatch as
 * "<sname>.<fname> (field <id>) has wire type <t>, expected <u>". Integers are range-checked
 * into the destination type. */
pqt_status pqt_thrift_field_i32(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                const char *fname, int32_t *v);
pqt_status pqt_thrift_field_i64(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                const char *fname, int64_t *v);
pqt_status pqt_thrift_field_bool(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                 const char *fname, bool *v);
pqt_status pqt_thrift_field_binary(pqt_thrift_reader *r, const pqt_thrift_field *f,
                                   const char *sname, const char *fname, const uint8_t **data,
                                   uint32_t *len);
/* The field must be a struct (the caller then decodes it). */
pqt_status pqt_thrift_field_struct(pqt_thrift_reader *r, const pqt_thrift_field *f,
                                   const char *sname, const char *fname);
/* The field must be a list/set of elem_type (PQT_TT_I32 stands for any integer type,
 * PQT_TT_TRUE for bool); reads its header. *elem_type_ret is the type on the wire, to pass
 * to pqt_thrift_read_int for integer elements. */
pqt_status pqt_thrift_field_list(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                 const char *fname, uint8_t elem_type, uint8_t *elem_type_ret,
                                 uint32_t *count);
/* Reports a required field absent from the struct that started at `struct_at`. */
pqt_status pqt_thrift_missing(const pqt_thrift_reader *r, const uint8_t *struct_at,
                              const char *sname, const char *fname, int id);

/* Name of a wire type for messages ("i32", "struct", "invalid"). Static storage. */
const char *pqt_thrift_type_name(uint8_t type);

#endif
