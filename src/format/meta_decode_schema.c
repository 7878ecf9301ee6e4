/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta_decode_schema.c - SchemaElement and the LogicalType union (layer: format).
 *
 * Implements parquet.thrift's SchemaElement (fields 1-10) and LogicalType with the members a
 * reader must interpret: DECIMAL (scale, precision), TIME/TIMESTAMP (isAdjustedToUTC and the
 * TimeUnit union, MILLIS/MICROS/NANOS -> pqt_time_unit 0/1/2) and INTEGER (bitWidth,
 * isSigned). Every other member, including ones newer than this file, is recorded by its
 * field id and skipped: format/schema.c decides what an unknown logical type means. Absent
 * optional enums are -1 so "not set" differs from value 0.
 */
#include "format/meta.h"
#include "format/meta_decode_int.h"
#include "format/thrift.h"
#include "util/error.h"

/* ---- LogicalType (a union of mostly empty structs) ---- */

static pqt_status dec_time_unit(pqt_thrift_reader *r, int8_t *unit)
{
    int16_t last;
    pqt_thrift_field f;
    *unit = -1;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_read_field(r, &last, &f));
        if (f.type == PQT_TT_STOP) break;
        /* MILLIS=1, MICROS=2, NANOS=3 map onto pqt_time_unit 0/1/2; anything newer is -1 */
        if (f.id >= 1 && f.id <= 3) *unit = (int8_t)(f.id - 1);
        PQT_TRY(pqt_thrift_skip(r, f.type));
    }
    pqt_thrift_struct_end(r);
    return PQT_OK;
}

/* TimeType and TimestampType share their layout: isAdjustedToUTC, unit. */
static pqt_status dec_time(pqt_thrift_reader *r, const char *sname, pqt_logical_type *lt)
{
    static const uint8_t T[] = {0, PQT_TT_TRUE, PQT_TT_STRUCT};
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        if (f.id == 1) {
            PQT_TRY(pqt_thrift_field_bool(r, &f, sname, "isAdjustedToUTC", &lt->utc));
            MARK(1);
        } else if (f.id == 2) {
            PQT_TRY(pqt_thrift_field_struct(r, &f, sname, "unit"));
            PQT_TRY(dec_time_unit(r, &lt->unit));
            MARK(2);
        } else {
            PQT_TRY(pqt_thrift_skip(r, f.type));
        }
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, at, sname, "isAdjustedToUTC", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, at, sname, "unit", 2);
    return PQT_OK;
}

/* DecimalType {scale, precision} and IntType {bitWidth, isSigned}. */
static pqt_status dec_decimal_or_int(pqt_thrift_reader *r, bool is_int, pqt_logical_type *lt)
{
    static const uint8_t TD[] = {0, PQT_TT_I32, PQT_TT_I32}, TI[] = {0, PQT_TT_I32, PQT_TT_TRUE};
    const char *sname = is_int ? "IntType" : "DecimalType";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    uint32_t seen = 0;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, is_int ? TI : TD, 3));
        if (f.type == PQT_TT_STOP) break;
        if (is_int && f.id == 1) {
            int32_t w;
            PQT_TRY(pqt_thrift_field_i32(r, &f, sname, "bitWidth", &w));
            lt->bit_width = (int16_t)(w < INT16_MIN ? INT16_MIN : w > INT16_MAX ? INT16_MAX : w);
        } else if (is_int && f.id == 2) {
            PQT_TRY(pqt_thrift_field_bool(r, &f, sname, "isSigned", &lt->is_signed));
        } else if (!is_int && f.id == 1) {
            PQT_TRY(pqt_thrift_field_i32(r, &f, sname, "scale", &lt->scale));
        } else if (!is_int && f.id == 2) {
            PQT_TRY(pqt_thrift_field_i32(r, &f, sname, "precision", &lt->precision));
        } else {
            PQT_TRY(pqt_thrift_skip(r, f.type));
            continue;
        }
        MARK(f.id);
    }
    pqt_thrift_struct_end(r);
    if (!SEEN(1)) return pqt_thrift_missing(r, at, sname, is_int ? "bitWidth" : "scale", 1);
    if (!SEEN(2)) return pqt_thrift_missing(r, at, sname, is_int ? "isSigned" : "precision", 2);
    return PQT_OK;
}

static pqt_status dec_logical(pqt_thrift_reader *r, pqt_logical_type *lt)
{
    static const uint8_t T[] = {
        [5] = PQT_TT_STRUCT, [7] = PQT_TT_STRUCT, [8] = PQT_TT_STRUCT, [10] = PQT_TT_STRUCT};
    int16_t last;
    pqt_thrift_field f;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        /* A well-formed union has one member; should a writer send more, the last wins. */
        lt->id = f.id;
        switch (f.id) {
        case PQT_LT_DECIMAL:
        case PQT_LT_INTEGER:
            PQT_TRY(pqt_thrift_field_struct(r, &f, "LogicalType",
                                            f.id == PQT_LT_DECIMAL ? "DECIMAL" : "INTEGER"));
            PQT_TRY(dec_decimal_or_int(r, f.id == PQT_LT_INTEGER, lt));
            break;
        case PQT_LT_TIME:
        case PQT_LT_TIMESTAMP:
            PQT_TRY(pqt_thrift_field_struct(r, &f, "LogicalType",
                                            f.id == PQT_LT_TIME ? "TIME" : "TIMESTAMP"));
            PQT_TRY(dec_time(r, f.id == PQT_LT_TIME ? "TimeType" : "TimestampType", lt));
            break;
        default: /* empty marker structs, and members newer than this reader */
            PQT_TRY(pqt_thrift_skip(r, f.type));
        }
    }
    pqt_thrift_struct_end(r);
    return PQT_OK;
}

/* ---- SchemaElement ---- */

pqt_status pqt_meta_decode_schema_elem(pqt_thrift_reader *r, pqt_arena *a, pqt_schema_elem *e)
{
    static const uint8_t T[] = {
        0,          PQT_TT_I32, PQT_TT_I32, PQT_TT_I32, PQT_TT_BINARY, PQT_TT_I32,
        PQT_TT_I32, PQT_TT_I32, PQT_TT_I32, PQT_TT_I32, PQT_TT_STRUCT};
    static const char S[] = "SchemaElement";
    const uint8_t *at = r->p;
    int16_t last;
    pqt_thrift_field f;
    bool has_name = false;
    const uint8_t *name;
    int32_t v;
    e->type = e->repetition = e->converted_type = -1;
    e->logical.unit = -1;
    PQT_TRY(pqt_thrift_struct_begin(r, &last));
    for (;;) {
        PQT_TRY(pqt_thrift_next_field(r, &last, &f, T, sizeof T));
        if (f.type == PQT_TT_STOP) break;
        switch (f.id) {
        case 1:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "type", &v));
            e->type = v;
            break;
        case 2:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "type_length", &e->type_length));
            break;
        case 3:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "repetition_type", &v));
            e->repetition = v;
            break;
        case 4:
            PQT_TRY(pqt_meta_field_str(r, a, &f, S, "name", &name, NULL));
            e->name = (const char *)name;
            has_name = true;
            break;
        case 5:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "num_children", &e->num_children));
            break;
        case 6:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "converted_type", &v));
            e->converted_type = v;
            break;
        case 7:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "scale", &e->scale));
            e->has_scale = true;
            break;
        case 8:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "precision", &e->precision));
            e->has_precision = true;
            break;
        case 9:
            PQT_TRY(pqt_thrift_field_i32(r, &f, S, "field_id", &e->field_id));
            e->has_field_id = true;
            break;
        case 10:
            PQT_TRY(pqt_thrift_field_struct(r, &f, S, "logicalType"));
            PQT_TRY(dec_logical(r, &e->logical));
            break;
        default:
            PQT_TRY(pqt_thrift_skip(r, f.type));
        }
    }
    pqt_thrift_struct_end(r);
    if (!has_name) return pqt_thrift_missing(r, at, S, "name", 4);
    return PQT_OK;
}
