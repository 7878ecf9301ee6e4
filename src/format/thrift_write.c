/* SPDX-License-Identifier: Apache-2.0 */
/*
 * thrift_write.c - Thrift compact-protocol writer (layer: format).
 *
 * thrift/doc/specs/thrift-compact-protocol.md, the encoding half. Every call checks the
 * latch first so a failed write leaves later calls inert; the longest single item (a field
 * header with a long-form id, or a list header) is reserved before it is written, so each
 * item is all-or-nothing in the buffer.
 */
#include "format/thrift_write.h"

#include <string.h>

#include "util/error.h"
#include "util/le.h"

/* Longest varint of a 64-bit value. */
enum { UVARINT_MAX = 10 };

void pqt_thrift_write_init(pqt_thrift_writer *w, pqt_buf *out)
{
    w->out = out;
    w->st = PQT_OK;
    w->depth = 0;
    w->last_id[0] = 0;
}

pqt_status pqt_thrift_write_status(const pqt_thrift_writer *w)
{
    if (w->st != PQT_OK) return w->st;
    if (w->depth != 0)
        return pqt_err(PQT_MISUSE, "Thrift writer finished with %d struct(s) still open", w->depth);
    return PQT_OK;
}

/* Room for n more bytes, or latch the failure. */
static bool room(pqt_thrift_writer *w, size_t n)
{
    if (PQT_UNLIKELY(w->st != PQT_OK)) return false;
    pqt_status st = pqt_buf_reserve_more(w->out, n);
    if (PQT_UNLIKELY(st != PQT_OK)) {
        w->st = st;
        return false;
    }
    return true;
}

/* Unchecked appends after room(). */
static inline void put_byte(pqt_thrift_writer *w, uint8_t b)
{
    w->out->data[w->out->len++] = b;
}

static inline void put_uvarint(pqt_thrift_writer *w, uint64_t v)
{
    uint8_t *end = pqt_put_uvarint(w->out->data + w->out->len, v);
    w->out->len = (size_t)(end - w->out->data);
}

static void limit(pqt_thrift_writer *w, const char *what, size_t n)
{
    if (w->st == PQT_OK)
        w->st = pqt_err(PQT_LIMIT, "Thrift %s of %zu exceeds the format's limit of %d", what, n,
                        INT32_MAX);
}

void pqt_thrift_write_uvarint(pqt_thrift_writer *w, uint64_t v)
{
    if (room(w, UVARINT_MAX)) put_uvarint(w, v);
}

void pqt_thrift_write_i8(pqt_thrift_writer *w, int8_t v)
{
    if (room(w, 1)) put_byte(w, (uint8_t)v);
}

void pqt_thrift_write_i32(pqt_thrift_writer *w, int32_t v)
{
    if (room(w, 5)) put_uvarint(w, pqt_zigzag(v));
}

void pqt_thrift_write_i64(pqt_thrift_writer *w, int64_t v)
{
    if (room(w, UVARINT_MAX)) put_uvarint(w, pqt_zigzag(v));
}

void pqt_thrift_write_double(pqt_thrift_writer *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (!room(w, 8)) return;
    pqt_store_le64(w->out->data + w->out->len, bits);
    w->out->len += 8;
}

void pqt_thrift_write_binary(pqt_thrift_writer *w, const void *data, size_t n)
{
    if (n > INT32_MAX) {
        limit(w, "binary length", n);
        return;
    }
    if (!room(w, 5 + n)) return;
    put_uvarint(w, n);
    if (n) memcpy(w->out->data + w->out->len, data, n);
    w->out->len += n;
}

void pqt_thrift_write_bool_elem(pqt_thrift_writer *w, bool v)
{
    /* 1 true, 2 false as Thrift's own C++ and Java writers do; every reader takes it. */
    if (room(w, 1)) put_byte(w, v ? PQT_TT_TRUE : PQT_TT_FALSE);
}

void pqt_thrift_write_list_header(pqt_thrift_writer *w, uint8_t elem_type, size_t count)
{
    if (count > INT32_MAX) {
        limit(w, "list length", count);
        return;
    }
    if (!room(w, 1 + 5)) return;
    if (count < 15) {
        put_byte(w, (uint8_t)(count << 4 | elem_type));
    } else {
        put_byte(w, (uint8_t)(0xf0 | elem_type));
        put_uvarint(w, count);
    }
}

void pqt_thrift_write_struct_begin(pqt_thrift_writer *w)
{
    if (PQT_UNLIKELY(w->st != PQT_OK)) return;
    if (PQT_UNLIKELY(w->depth >= PQT_THRIFT_MAX_DEPTH)) {
        w->st =
            pqt_err(PQT_LIMIT, "Thrift structs nested deeper than %d levels", PQT_THRIFT_MAX_DEPTH);
        return;
    }
    w->last_id[++w->depth] = 0;
}

void pqt_thrift_write_struct_end(pqt_thrift_writer *w)
{
    if (PQT_UNLIKELY(w->st != PQT_OK)) return;
    if (PQT_UNLIKELY(w->depth <= 0)) {
        w->st = pqt_err(PQT_MISUSE, "Thrift struct_end without a struct open");
        return;
    }
    if (!room(w, 1)) return;
    put_byte(w, PQT_TT_STOP);
    w->depth--;
}

void pqt_thrift_write_field(pqt_thrift_writer *w, int16_t id, uint8_t type)
{
    if (PQT_UNLIKELY(w->st != PQT_OK)) return;
    if (PQT_UNLIKELY(w->depth <= 0 || id <= 0)) {
        w->st = pqt_err(PQT_MISUSE, "Thrift field %d written %s", (int)id,
                        w->depth <= 0 ? "outside a struct" : "with an id below 1");
        return;
    }
    if (!room(w, 1 + 3)) return;
    int delta = id - w->last_id[w->depth];
    if (delta > 0 && delta <= 15) {
        put_byte(w, (uint8_t)(delta << 4 | type));
    } else {
        put_byte(w, type);
        put_uvarint(w, pqt_zigzag(id));
    }
    w->last_id[w->depth] = id;
}

void pqt_thrift_write_field_bool(pqt_thrift_writer *w, int16_t id, bool v)
{
    pqt_thrift_write_field(w, id, v ? PQT_TT_TRUE : PQT_TT_FALSE);
}

void pqt_thrift_write_field_i8(pqt_thrift_writer *w, int16_t id, int8_t v)
{
    pqt_thrift_write_field(w, id, PQT_TT_I8);
    pqt_thrift_write_i8(w, v);
}

void pqt_thrift_write_field_i16(pqt_thrift_writer *w, int16_t id, int16_t v)
{
    pqt_thrift_write_field(w, id, PQT_TT_I16);
    pqt_thrift_write_i32(w, v);
}

void pqt_thrift_write_field_i32(pqt_thrift_writer *w, int16_t id, int32_t v)
{
    pqt_thrift_write_field(w, id, PQT_TT_I32);
    pqt_thrift_write_i32(w, v);
}

void pqt_thrift_write_field_i64(pqt_thrift_writer *w, int16_t id, int64_t v)
{
    pqt_thrift_write_field(w, id, PQT_TT_I64);
    pqt_thrift_write_i64(w, v);
}

void pqt_thrift_write_field_double(pqt_thrift_writer *w, int16_t id, double v)
{
    pqt_thrift_write_field(w, id, PQT_TT_DOUBLE);
    pqt_thrift_write_double(w, v);
}

void pqt_thrift_write_field_binary(pqt_thrift_writer *w, int16_t id, const void *data, size_t n)
{
    pqt_thrift_write_field(w, id, PQT_TT_BINARY);
    pqt_thrift_write_binary(w, data, n);
}

void pqt_thrift_write_field_struct_begin(pqt_thrift_writer *w, int16_t id)
{
    pqt_thrift_write_field(w, id, PQT_TT_STRUCT);
    pqt_thrift_write_struct_begin(w);
}

void pqt_thrift_write_field_empty_struct(pqt_thrift_writer *w, int16_t id)
{
    pqt_thrift_write_field_struct_begin(w, id);
    pqt_thrift_write_struct_end(w);
}

void pqt_thrift_write_field_list_begin(pqt_thrift_writer *w, int16_t id, uint8_t elem_type,
                                       size_t count)
{
    pqt_thrift_write_field(w, id, PQT_TT_LIST);
    pqt_thrift_write_list_header(w, elem_type, count);
}
