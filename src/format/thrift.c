/* SPDX-License-Identifier: Apache-2.0 */
/*
 * thrift.c - Thrift compact-protocol reader: the out-of-line half (layer: format).
 *
 * Implements the decoding rules of the compact protocol spec
 * (thrift/doc/specs/thrift-compact-protocol.md) that parquet-format relies on: ULEB128
 * varints with zigzag signed ints, delta or long-form field ids, bools folded into the field
 * type, length-prefixed binary, list/set/map headers, and skipping of any value so that
 * fields added to parquet.thrift after this reader was written are ignored.
 *
 * Hostile input rules: a varint is at most 10 bytes and 64 bits; a length or element count
 * never exceeds the bytes left (so allocation is bounded by the input size and a loop over
 * elements always consumes input); nesting is capped at PQT_THRIFT_MAX_DEPTH.
 */
#include "format/thrift.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/le.h"

void pqt_thrift_init(pqt_thrift_reader *r, const uint8_t *buf, size_t n, int64_t base_offset,
                     const char *what)
{
    r->start = buf;
    r->p = buf;
    r->end = buf + n;
    r->base_offset = base_offset;
    r->what = what ? what : "thrift data";
    r->depth = 0;
}

pqt_status pqt_thrift_corrupt_at(const pqt_thrift_reader *r, const uint8_t *pos, const char *fmt,
                                 ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    long long off = (long long)(r->base_offset + (int64_t)(pos - r->start));
    return pqt_err(PQT_CORRUPT, "corrupt %s at byte %lld: %s", r->what, off, detail);
}

const char *pqt_thrift_type_name(uint8_t type)
{
    static const char *const names[] = {"stop",   "bool",   "bool", "i8",  "i16", "i32",    "i64",
                                        "double", "binary", "list", "set", "map", "struct", "uuid"};
    return type < sizeof names / sizeof names[0] ? names[type] : "invalid";
}

pqt_status pqt_thrift_read_uvarint_slow(pqt_thrift_reader *r, uint64_t *v)
{
    switch (pqt_get_uvarint(&r->p, r->end, v)) {
    case PQT_UVARINT_OK:
        return PQT_OK;
    case PQT_UVARINT_TRUNCATED:
        return pqt_thrift_corrupt_at(r, r->p, "varint runs past the end (%zu bytes left)",
                                     pqt_thrift_remaining(r));
    case PQT_UVARINT_OVERFLOW:
        return pqt_thrift_corrupt_at(r, r->p, "varint overflows 64 bits");
    default:
        return pqt_thrift_corrupt_at(r, r->p, "varint longer than 10 bytes");
    }
}

pqt_status pqt_thrift_read_i32(pqt_thrift_reader *r, int32_t *v)
{
    const uint8_t *at = r->p;
    uint64_t u;
    PQT_TRY(pqt_thrift_read_uvarint(r, &u));
    if (PQT_UNLIKELY(u > UINT32_MAX))
        return pqt_thrift_corrupt_at(r, at, "varint %llu does not fit an i32",
                                     (unsigned long long)u);
    *v = (int32_t)pqt_unzigzag(u);
    return PQT_OK;
}

pqt_status pqt_thrift_read_i16(pqt_thrift_reader *r, int16_t *v)
{
    const uint8_t *at = r->p;
    uint64_t u;
    PQT_TRY(pqt_thrift_read_uvarint(r, &u));
    if (PQT_UNLIKELY(u > UINT16_MAX))
        return pqt_thrift_corrupt_at(r, at, "varint %llu does not fit an i16",
                                     (unsigned long long)u);
    *v = (int16_t)pqt_unzigzag(u);
    return PQT_OK;
}

pqt_status pqt_thrift_read_i8(pqt_thrift_reader *r, int8_t *v)
{
    if (PQT_UNLIKELY(r->p >= r->end)) return pqt_thrift_corrupt_at(r, r->p, "i8 runs past the end");
    *v = (int8_t)*r->p++;
    return PQT_OK;
}

pqt_status pqt_thrift_read_int(pqt_thrift_reader *r, uint8_t type, int64_t *v)
{
    switch (type) {
    case PQT_TT_I8: {
        int8_t b = 0;
        PQT_TRY(pqt_thrift_read_i8(r, &b));
        *v = b;
        return PQT_OK;
    }
    case PQT_TT_I16:
    case PQT_TT_I32:
    case PQT_TT_I64:
        return pqt_thrift_read_i64(r, v);
    default:
        return pqt_thrift_corrupt_at(r, r->p, "expected an integer, found wire type %s",
                                     pqt_thrift_type_name(type));
    }
}

pqt_status pqt_thrift_read_double(pqt_thrift_reader *r, double *v)
{
    if (PQT_UNLIKELY(pqt_thrift_remaining(r) < 8))
        return pqt_thrift_corrupt_at(r, r->p, "double runs past the end (%zu bytes left)",
                                     pqt_thrift_remaining(r));
    uint64_t u = pqt_load_le64(r->p);
    memcpy(v, &u, sizeof *v);
    r->p += 8;
    return PQT_OK;
}

pqt_status pqt_thrift_read_binary(pqt_thrift_reader *r, const uint8_t **data, uint32_t *len)
{
    const uint8_t *at = r->p;
    uint64_t u;
    PQT_TRY(pqt_thrift_read_uvarint(r, &u));
    if (PQT_UNLIKELY(u > pqt_thrift_remaining(r) || u > UINT32_MAX))
        return pqt_thrift_corrupt_at(r, at, "binary of %llu bytes runs past the end (%zu left)",
                                     (unsigned long long)u, pqt_thrift_remaining(r));
    *data = r->p;
    *len = (uint32_t)u;
    r->p += u;
    return PQT_OK;
}

pqt_status pqt_thrift_read_bool_elem(pqt_thrift_reader *r, bool *v)
{
    if (PQT_UNLIKELY(r->p >= r->end))
        return pqt_thrift_corrupt_at(r, r->p, "bool runs past the end");
    uint8_t b = *r->p;
    /* The spec says 1/0, the Java and C++ writers emit 1/2: accept both. */
    if (PQT_UNLIKELY(b > 2)) return pqt_thrift_corrupt_at(r, r->p, "bool byte 0x%02x", b);
    *v = b == 1;
    r->p++;
    return PQT_OK;
}

pqt_status pqt_thrift_read_field_slow(pqt_thrift_reader *r, int16_t *last_id, pqt_thrift_field *f)
{
    const uint8_t *at = r->p;
    if (PQT_UNLIKELY(r->p >= r->end))
        return pqt_thrift_corrupt_at(r, at, "struct runs past the end (no stop byte)");
    uint8_t b = *r->p;
    uint8_t delta = (uint8_t)(b >> 4), type = (uint8_t)(b & 0x0f);
    if (b == 0) {
        r->p++;
        f->type = PQT_TT_STOP;
        f->id = 0;
        return PQT_OK;
    }
    if (type == PQT_TT_STOP || type > PQT_TT_UUID)
        return pqt_thrift_corrupt_at(r, at, "field header 0x%02x has invalid wire type %u", b,
                                     type);
    r->p++;
    int16_t id = 0;
    if (delta != 0) {
        if (*last_id > 32767 - delta)
            return pqt_thrift_corrupt_at(r, at, "field id %d + %u overflows an i16", *last_id,
                                         delta);
        id = (int16_t)(*last_id + delta);
    } else {
        PQT_TRY(pqt_thrift_read_i16(r, &id)); /* long form: explicit zigzag i16 id */
    }
    f->type = type;
    f->id = id;
    f->bool_val = type == PQT_TT_TRUE;
    *last_id = id;
    return PQT_OK;
}

/* Fewest bytes one element of `type` can occupy inside a container. */
static size_t min_elem_nbytes(uint8_t type)
{
    switch (type) {
    case PQT_TT_DOUBLE:
        return 8;
    case PQT_TT_UUID:
        return 16;
    default:
        return 1;
    }
}

static bool valid_elem_type(uint8_t type)
{
    return type != PQT_TT_STOP && type <= PQT_TT_UUID;
}

pqt_status pqt_thrift_read_list_header(pqt_thrift_reader *r, uint8_t *elem_type, uint32_t *count)
{
    const uint8_t *at = r->p;
    if (PQT_UNLIKELY(r->p >= r->end))
        return pqt_thrift_corrupt_at(r, at, "list header runs past the end");
    uint8_t b = *r->p++;
    uint8_t type = (uint8_t)(b & 0x0f);
    uint64_t n = b >> 4;
    if (n == 15) PQT_TRY(pqt_thrift_read_uvarint(r, &n)); /* long form: size follows */
    /* An empty list carries no element, so its type nibble proves nothing: writers leave 0
     * there. Only a list that holds elements must name a real type. */
    if (n == 0) {
        *elem_type = type;
        *count = 0;
        return PQT_OK;
    }
    if (PQT_UNLIKELY(!valid_elem_type(type)))
        return pqt_thrift_corrupt_at(r, at, "list has invalid element type %u", type);
    size_t per = min_elem_nbytes(type);
    if (PQT_UNLIKELY(n > INT32_MAX || n > pqt_thrift_remaining(r) / per))
        return pqt_thrift_corrupt_at(
            r, at, "list of %llu %s elements does not fit in the %zu bytes left",
            (unsigned long long)n, pqt_thrift_type_name(type), pqt_thrift_remaining(r));
    *elem_type = type;
    *count = (uint32_t)n;
    return PQT_OK;
}

pqt_status pqt_thrift_read_map_header(pqt_thrift_reader *r, uint8_t *key_type, uint8_t *val_type,
                                      uint32_t *count)
{
    const uint8_t *at = r->p;
    uint64_t n;
    PQT_TRY(pqt_thrift_read_uvarint(r, &n));
    if (n == 0) {
        *key_type = *val_type = PQT_TT_STOP;
        *count = 0;
        return PQT_OK;
    }
    if (PQT_UNLIKELY(r->p >= r->end))
        return pqt_thrift_corrupt_at(r, at, "map header runs past the end");
    uint8_t b = *r->p++;
    uint8_t kt = (uint8_t)(b >> 4), vt = (uint8_t)(b & 0x0f);
    if (PQT_UNLIKELY(!valid_elem_type(kt) || !valid_elem_type(vt)))
        return pqt_thrift_corrupt_at(r, at, "map has invalid key/value types 0x%02x", b);
    size_t per = min_elem_nbytes(kt) + min_elem_nbytes(vt);
    if (PQT_UNLIKELY(n > INT32_MAX || n > pqt_thrift_remaining(r) / per))
        return pqt_thrift_corrupt_at(r, at,
                                     "map of %llu entries does not fit in the %zu bytes left",
                                     (unsigned long long)n, pqt_thrift_remaining(r));
    *key_type = kt;
    *val_type = vt;
    *count = (uint32_t)n;
    return PQT_OK;
}

static pqt_status skip_value(pqt_thrift_reader *r, uint8_t type, bool in_container);

static pqt_status skip_bytes(pqt_thrift_reader *r, size_t n, const char *what)
{
    if (PQT_UNLIKELY(pqt_thrift_remaining(r) < n))
        return pqt_thrift_corrupt_at(r, r->p, "%s runs past the end (%zu bytes left)", what,
                                     pqt_thrift_remaining(r));
    r->p += n;
    return PQT_OK;
}

static pqt_status skip_struct(pqt_thrift_reader *r)
{
    int16_t last;
    pqt_thrift_field f;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_read_field(r, &last, &f));
        if (f.type == PQT_TT_STOP) break;
        PQT_TRY(skip_value(r, f.type, false));
    }
    pqt_thrift_struct_end(r);
    return PQT_OK;
}

/* Lists and maps count toward the depth cap too: list<list<...>> recurses just the same. */
static pqt_status skip_container(pqt_thrift_reader *r, uint8_t type)
{
    int16_t unused;
    uint32_t n;
    PQT_TRY(pqt_thrift_struct_begin(r, &unused));
    if (type == PQT_TT_MAP) {
        uint8_t kt, vt;
        PQT_TRY(pqt_thrift_read_map_header(r, &kt, &vt, &n));
        for (uint32_t i = 0; i < n; i++) {
            PQT_TRY(skip_value(r, kt, true));
            PQT_TRY(skip_value(r, vt, true));
        }
    } else {
        uint8_t et;
        PQT_TRY(pqt_thrift_read_list_header(r, &et, &n));
        for (uint32_t i = 0; i < n; i++)
            PQT_TRY(skip_value(r, et, true));
    }
    pqt_thrift_struct_end(r);
    return PQT_OK;
}

static pqt_status skip_value(pqt_thrift_reader *r, uint8_t type, bool in_container)
{
    uint64_t u;
    const uint8_t *data;
    uint32_t len;
    switch (type) {
    case PQT_TT_TRUE:
    case PQT_TT_FALSE:
        /* A bool field's value lives in its header; a bool element is one byte. */
        return in_container ? skip_bytes(r, 1, "bool") : PQT_OK;
    case PQT_TT_I8:
        return skip_bytes(r, 1, "i8");
    case PQT_TT_I16:
    case PQT_TT_I32:
    case PQT_TT_I64:
        return pqt_thrift_read_uvarint(r, &u);
    case PQT_TT_DOUBLE:
        return skip_bytes(r, 8, "double");
    case PQT_TT_UUID:
        return skip_bytes(r, 16, "uuid");
    case PQT_TT_BINARY:
        return pqt_thrift_read_binary(r, &data, &len);
    case PQT_TT_LIST:
    case PQT_TT_SET:
    case PQT_TT_MAP:
        return skip_container(r, type);
    case PQT_TT_STRUCT:
        return skip_struct(r);
    default:
        return pqt_thrift_corrupt_at(r, r->p, "cannot skip a value of invalid wire type %u", type);
    }
}

pqt_status pqt_thrift_skip(pqt_thrift_reader *r, uint8_t type)
{
    return skip_value(r, type, false);
}

pqt_status pqt_thrift_skip_elem(pqt_thrift_reader *r, uint8_t type)
{
    return skip_value(r, type, true);
}

/* ---- typed field reads for the metadata decoders ---- */

static pqt_status wrong_type(const pqt_thrift_reader *r, const pqt_thrift_field *f,
                             const char *sname, const char *fname, const char *want)
{
    /* r->p is just past the field header: point the message at the header byte. */
    return pqt_thrift_corrupt_at(r, r->p > r->start ? r->p - 1 : r->p,
                                 "%s.%s (field %d) has wire type %s, expected %s", sname, fname,
                                 f->id, pqt_thrift_type_name(f->type), want);
}

static pqt_status field_int(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                            const char *fname, int64_t lo, int64_t hi, int64_t *v)
{
    if (PQT_UNLIKELY(!pqt_thrift_is_int(f->type)))
        return wrong_type(r, f, sname, fname, "an integer");
    const uint8_t *at = r->p;
    PQT_TRY(pqt_thrift_read_int(r, f->type, v));
    if (PQT_UNLIKELY(*v < lo || *v > hi))
        return pqt_thrift_corrupt_at(r, at, "%s.%s (field %d) value %lld is out of range", sname,
                                     fname, f->id, (long long)*v);
    return PQT_OK;
}

pqt_status pqt_thrift_field_i32(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                const char *fname, int32_t *v)
{
    int64_t x = 0;
    PQT_TRY(field_int(r, f, sname, fname, INT32_MIN, INT32_MAX, &x));
    *v = (int32_t)x;
    return PQT_OK;
}

pqt_status pqt_thrift_field_i64(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                const char *fname, int64_t *v)
{
    return field_int(r, f, sname, fname, INT64_MIN, INT64_MAX, v);
}

pqt_status pqt_thrift_field_bool(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                 const char *fname, bool *v)
{
    if (PQT_UNLIKELY(!pqt_thrift_is_bool(f->type))) return wrong_type(r, f, sname, fname, "bool");
    *v = f->bool_val;
    return PQT_OK;
}

pqt_status pqt_thrift_field_binary(pqt_thrift_reader *r, const pqt_thrift_field *f,
                                   const char *sname, const char *fname, const uint8_t **data,
                                   uint32_t *len)
{
    if (PQT_UNLIKELY(f->type != PQT_TT_BINARY)) return wrong_type(r, f, sname, fname, "binary");
    return pqt_thrift_read_binary(r, data, len);
}

pqt_status pqt_thrift_field_struct(pqt_thrift_reader *r, const pqt_thrift_field *f,
                                   const char *sname, const char *fname)
{
    if (PQT_UNLIKELY(f->type != PQT_TT_STRUCT)) return wrong_type(r, f, sname, fname, "struct");
    return PQT_OK;
}

pqt_status pqt_thrift_field_list(pqt_thrift_reader *r, const pqt_thrift_field *f, const char *sname,
                                 const char *fname, uint8_t elem_type, uint8_t *elem_type_ret,
                                 uint32_t *count)
{
    if (PQT_UNLIKELY(f->type != PQT_TT_LIST && f->type != PQT_TT_SET))
        return wrong_type(r, f, sname, fname, "list");
    const uint8_t *at = r->p;
    uint8_t et = PQT_TT_STOP;
    PQT_TRY(pqt_thrift_read_list_header(r, &et, count));
    bool ok = elem_type == PQT_TT_I32    ? pqt_thrift_is_int(et)
              : elem_type == PQT_TT_TRUE ? pqt_thrift_is_bool(et)
                                         : et == elem_type;
    *elem_type_ret = et;
    /* An empty list's element type is whatever the writer had handy; do not judge it. */
    if (PQT_UNLIKELY(!ok && *count > 0))
        return pqt_thrift_corrupt_at(r, at, "%s.%s (field %d) is a list of %s, expected %s", sname,
                                     fname, f->id, pqt_thrift_type_name(et),
                                     pqt_thrift_type_name(elem_type));
    return PQT_OK;
}

pqt_status pqt_thrift_missing(const pqt_thrift_reader *r, const uint8_t *struct_at,
                              const char *sname, const char *fname, int id)
{
    return pqt_thrift_corrupt_at(r, struct_at, "%s is missing required field %s (field %d)", sname,
                                 fname, id);
}
