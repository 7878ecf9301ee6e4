/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schema_kind.c - what each primitive leaf is read as (layer: format).
 *
 * Implements the kind mapping of parquet-format LogicalTypes.md onto pqt's kinds. Unsigned
 * integers stay exact: UINT_8/16 fit int32, UINT_32 widens to int64, UINT_64 is uint64.
 * The LogicalType annotation wins over the legacy ConvertedType; the converted
 * TIMESTAMP_MILLIS/MICROS and TIME_* types are UTC-adjusted, as the spec says.
 * BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY without an annotation are PQT_BINARY (bytes, not promised
 * to be UTF-8), or PQT_STRING for plain BYTE_ARRAY under PQT_OPT_BINARY_AS_STRING.
 * Anything we cannot represent exactly is PQT_NONE with a reason, never a guess.
 */
#include <stdio.h>
#include <string.h>

#include "format/schema_int.h"

static void set_none(pqt_col *c, const char *why)
{
    c->elem_kind = PQT_NONE;
    c->why_unsupported = why;
}

static void set_time(pqt_col *c, int kind, int unit, bool utc)
{
    c->elem_kind = kind;
    c->time_unit = unit;
    c->utc = utc;
}

static void classify_logical(const pqt_schema_elem *e, pqt_col *c)
{
    const pqt_logical_type *lt = &e->logical;
    int pt = e->type;
    switch (lt->id) {
    case PQT_LT_STRING:
    case PQT_LT_ENUM:
    case PQT_LT_JSON:
        if (pt == PQT_PT_BYTE_ARRAY) c->elem_kind = PQT_STRING;
        else set_none(c, "string annotation on a non-BYTE_ARRAY column");
        return;
    case PQT_LT_UUID:
        if (pt == PQT_PT_FIXED_LEN_BYTE_ARRAY && e->type_length == 16) {
            c->elem_kind = PQT_STRING;
            c->conv = PQT_CONV_UUID;
        } else {
            set_none(c, "UUID not stored as FIXED_LEN_BYTE_ARRAY(16)");
        }
        return;
    case PQT_LT_FLOAT16:
        if (pt == PQT_PT_FIXED_LEN_BYTE_ARRAY && e->type_length == 2) {
            c->elem_kind = PQT_FLOAT32;
            c->conv = PQT_CONV_FLOAT16;
        } else {
            set_none(c, "FLOAT16 not stored as FIXED_LEN_BYTE_ARRAY(2)");
        }
        return;
    case PQT_LT_DECIMAL:
        if (pt == PQT_PT_INT32 || pt == PQT_PT_INT64 || pt == PQT_PT_BYTE_ARRAY ||
            (pt == PQT_PT_FIXED_LEN_BYTE_ARRAY && e->type_length > 0 && e->type_length <= 32)) {
            c->elem_kind = PQT_FLOAT64;
            c->conv = PQT_CONV_DECIMAL;
            c->decimal_scale = lt->scale;
            c->decimal_precision = lt->precision;
        } else {
            set_none(c, "DECIMAL with an unsupported physical type");
        }
        return;
    case PQT_LT_DATE:
        if (pt == PQT_PT_INT32) c->elem_kind = PQT_DATE;
        else set_none(c, "DATE not stored as INT32");
        return;
    case PQT_LT_TIME:
        if (lt->unit == PQT_UNIT_MILLIS && pt == PQT_PT_INT32) {
            set_time(c, PQT_TIME, PQT_UNIT_MILLIS, lt->utc);
            c->conv = PQT_CONV_TIME_MS;
        } else if ((lt->unit == PQT_UNIT_MICROS || lt->unit == PQT_UNIT_NANOS) &&
                   pt == PQT_PT_INT64) {
            set_time(c, PQT_TIME, lt->unit, lt->utc);
        } else {
            set_none(c, "TIME with an unknown unit or physical type");
        }
        return;
    case PQT_LT_TIMESTAMP:
        if (pt == PQT_PT_INT64 && lt->unit >= 0 && lt->unit <= 2) set_time(c, PQT_TIMESTAMP, lt->unit, lt->utc);
        else set_none(c, "TIMESTAMP with an unknown unit or physical type");
        return;
    case PQT_LT_INTEGER:
        if (pt == PQT_PT_INT32 && lt->bit_width <= 32) {
            if (lt->bit_width == 32 && !lt->is_signed) {
                c->elem_kind = PQT_INT64;
                c->conv = PQT_CONV_I32_TO_I64;
            } else {
                c->elem_kind = PQT_INT32;
            }
        } else if (pt == PQT_PT_INT64 && lt->bit_width == 64) {
            c->elem_kind = lt->is_signed ? PQT_INT64 : PQT_UINT64;
        } else {
            set_none(c, "INTEGER annotation with an unsupported width");
        }
        return;
    case PQT_LT_UNKNOWN:
        set_none(c, "UNKNOWN (always-null) logical type");
        return;
    case PQT_LT_BSON:
        set_none(c, "BSON");
        return;
    case PQT_LT_MAP:
    case PQT_LT_LIST:
        set_none(c, "MAP/LIST annotation on a primitive");
        return;
    default:
        set_none(c, "unknown logical type");
        return;
    }
}

static void classify_converted(const pqt_schema_elem *e, bool binary_as_string, pqt_col *c)
{
    int pt = e->type;
    switch (e->converted_type) {
    case PQT_CT_UTF8:
    case PQT_CT_ENUM:
    case PQT_CT_JSON:
        if (pt == PQT_PT_BYTE_ARRAY) c->elem_kind = PQT_STRING;
        else set_none(c, "string annotation on a non-BYTE_ARRAY column");
        return;
    case PQT_CT_DECIMAL: {
        pqt_schema_elem tmp = *e;
        tmp.logical.id = PQT_LT_DECIMAL;
        tmp.logical.scale = e->has_scale ? e->scale : 0;
        tmp.logical.precision = e->precision;
        classify_logical(&tmp, c);
        return;
    }
    case PQT_CT_DATE:
        if (pt == PQT_PT_INT32) c->elem_kind = PQT_DATE;
        else set_none(c, "DATE not stored as INT32");
        return;
    case PQT_CT_TIME_MILLIS:
        if (pt == PQT_PT_INT32) {
            set_time(c, PQT_TIME, PQT_UNIT_MILLIS, true);
            c->conv = PQT_CONV_TIME_MS;
        } else {
            set_none(c, "TIME_MILLIS not stored as INT32");
        }
        return;
    case PQT_CT_TIME_MICROS:
        if (pt == PQT_PT_INT64) set_time(c, PQT_TIME, PQT_UNIT_MICROS, true);
        else set_none(c, "TIME_MICROS not stored as INT64");
        return;
    case PQT_CT_TIMESTAMP_MILLIS:
    case PQT_CT_TIMESTAMP_MICROS:
        if (pt == PQT_PT_INT64)
            set_time(c, PQT_TIMESTAMP,
                     e->converted_type == PQT_CT_TIMESTAMP_MILLIS ? PQT_UNIT_MILLIS : PQT_UNIT_MICROS,
                     true);
        else set_none(c, "TIMESTAMP converted type not stored as INT64");
        return;
    case PQT_CT_UINT_8:
    case PQT_CT_UINT_16:
    case PQT_CT_INT_8:
    case PQT_CT_INT_16:
    case PQT_CT_INT_32:
        if (pt == PQT_PT_INT32) c->elem_kind = PQT_INT32;
        else set_none(c, "integer annotation on a non-INT32 column");
        return;
    case PQT_CT_UINT_32:
        if (pt == PQT_PT_INT32) {
            c->elem_kind = PQT_INT64;
            c->conv = PQT_CONV_I32_TO_I64;
        } else {
            set_none(c, "UINT_32 not stored as INT32");
        }
        return;
    case PQT_CT_INT_64:
    case PQT_CT_UINT_64:
        if (pt == PQT_PT_INT64) {
            c->elem_kind = e->converted_type == PQT_CT_UINT_64 ? PQT_UINT64 : PQT_INT64;
        } else {
            set_none(c, "64-bit integer annotation on a non-INT64 column");
        }
        return;
    case PQT_CT_INTERVAL:
        set_none(c, "INTERVAL");
        return;
    case PQT_CT_BSON:
        set_none(c, "BSON");
        return;
    default:
        (void)binary_as_string;
        set_none(c, "unknown converted type");
        return;
    }
}

void pqt_schema_classify(const pqt_schema_elem *e, bool binary_as_string, pqt_col *c)
{
    c->conv = PQT_CONV_NONE;
    c->time_unit = -1;
    c->utc = false;
    c->why_unsupported = NULL;
    /* A logical type newer than this reader (a LogicalType union member we do not know) is
     * ignored, as the format asks: the column reads as its converted or physical type. */
    bool known = e->logical.id >= PQT_LT_STRING && e->logical.id <= PQT_LT_GEOGRAPHY &&
                 e->logical.id != 9;
    if (e->logical.id != PQT_LT_NONE && known) {
        classify_logical(e, c);
        return;
    }
    if (e->converted_type >= 0) {
        classify_converted(e, binary_as_string, c);
        return;
    }
    switch (e->type) {
    case PQT_PT_BOOLEAN: c->elem_kind = PQT_BOOL; return;
    case PQT_PT_INT32: c->elem_kind = PQT_INT32; return;
    case PQT_PT_INT64: c->elem_kind = PQT_INT64; return;
    case PQT_PT_INT96:
        set_time(c, PQT_TIMESTAMP, PQT_UNIT_NANOS, false);
        c->conv = PQT_CONV_INT96;
        return;
    case PQT_PT_FLOAT: c->elem_kind = PQT_FLOAT32; return;
    case PQT_PT_DOUBLE: c->elem_kind = PQT_FLOAT64; return;
    case PQT_PT_BYTE_ARRAY:
        c->elem_kind = binary_as_string ? PQT_STRING : PQT_BINARY;
        return;
    case PQT_PT_FIXED_LEN_BYTE_ARRAY:
        /* raw bytes of the declared width (the column layer copies them as binary) */
        if (e->type_length > 0) c->elem_kind = PQT_BINARY;
        else set_none(c, "FIXED_LEN_BYTE_ARRAY without a positive type_length");
        return;
    default:
        set_none(c, "unknown physical type");
        return;
    }
}

void pqt_schema_set_int96_unit(pqt_schema *s, int unit)
{
    for (int i = 0; i < s->ncols; i++)
        if (s->cols[i].conv == PQT_CONV_INT96) s->cols[i].time_unit = unit;
}

static const char *const physical_names[] = {"BOOLEAN", "INT32", "INT64", "INT96",
                                             "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};

static const char *arena_str(pqt_arena *a, const char *s)
{
    size_t n = strlen(s);
    char *d = pqt_arena_alloc(a, n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

void pqt_schema_physical_render(const pqt_schema_elem *e, char *tmp, size_t cap)
{
    if (e->type < 0 || e->type > 7) {
        snprintf(tmp, cap, "TYPE(%d)", e->type);
    } else if (e->type == PQT_PT_FIXED_LEN_BYTE_ARRAY) {
        snprintf(tmp, cap, "FIXED_LEN_BYTE_ARRAY(%d)", (int)e->type_length);
    } else {
        snprintf(tmp, cap, "%s", physical_names[e->type]);
    }
}

const char *pqt_schema_physical_text(const pqt_schema_elem *e, pqt_arena *arena)
{
    char tmp[PQT_SCHEMA_TEXT_NBYTES];
    pqt_schema_physical_render(e, tmp, sizeof tmp);
    return arena_str(arena, tmp);
}

static const char *const unit_names[] = {"MILLIS", "MICROS", "NANOS"};
static const char *const converted_names[] = {
    "UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE", "TIME_MILLIS",
    "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32",
    "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL"};

const char *pqt_schema_logical_text(const pqt_schema_elem *e, pqt_arena *arena)
{
    char tmp[PQT_SCHEMA_TEXT_NBYTES];
    pqt_schema_logical_render(e, tmp, sizeof tmp);
    return arena_str(arena, tmp);
}

void pqt_schema_logical_render(const pqt_schema_elem *e, char *tmp, size_t cap)
{
    const pqt_logical_type *lt = &e->logical;
    const char *unit = (lt->unit >= 0 && lt->unit <= 2) ? unit_names[lt->unit] : "?";
    switch (lt->id) {
    case PQT_LT_NONE:
        if (e->converted_type >= 0 && e->converted_type <= PQT_CT_INTERVAL) {
            if (e->converted_type == PQT_CT_DECIMAL)
                snprintf(tmp, cap, "DECIMAL(%d,%d)", (int)e->precision, (int)e->scale);
            else snprintf(tmp, cap, "%s", converted_names[e->converted_type]);
        } else if (e->converted_type >= 0) {
            snprintf(tmp, cap, "CONVERTED(%d)", e->converted_type);
        } else {
            tmp[0] = '\0';
        }
        break;
    case PQT_LT_STRING: snprintf(tmp, cap, "STRING"); break;
    case PQT_LT_MAP: snprintf(tmp, cap, "MAP"); break;
    case PQT_LT_LIST: snprintf(tmp, cap, "LIST"); break;
    case PQT_LT_ENUM: snprintf(tmp, cap, "ENUM"); break;
    case PQT_LT_DECIMAL:
        snprintf(tmp, cap, "DECIMAL(%d,%d)", (int)lt->precision, (int)lt->scale);
        break;
    case PQT_LT_DATE: snprintf(tmp, cap, "DATE"); break;
    case PQT_LT_TIME:
        snprintf(tmp, cap, "TIME(%s,%s)", unit, lt->utc ? "true" : "false");
        break;
    case PQT_LT_TIMESTAMP:
        snprintf(tmp, cap, "TIMESTAMP(%s,%s)", unit, lt->utc ? "true" : "false");
        break;
    case PQT_LT_INTEGER:
        snprintf(tmp, cap, "INTEGER(%d,%s)", lt->bit_width, lt->is_signed ? "true" : "false");
        break;
    case PQT_LT_UNKNOWN: snprintf(tmp, cap, "UNKNOWN"); break;
    case PQT_LT_JSON: snprintf(tmp, cap, "JSON"); break;
    case PQT_LT_BSON: snprintf(tmp, cap, "BSON"); break;
    case PQT_LT_UUID: snprintf(tmp, cap, "UUID"); break;
    case PQT_LT_FLOAT16: snprintf(tmp, cap, "FLOAT16"); break;
    case PQT_LT_VARIANT: snprintf(tmp, cap, "VARIANT"); break;
    case PQT_LT_GEOMETRY: snprintf(tmp, cap, "GEOMETRY"); break;
    case PQT_LT_GEOGRAPHY: snprintf(tmp, cap, "GEOGRAPHY"); break;
    default: snprintf(tmp, cap, "LOGICAL(%d)", lt->id); break;
    }
}

/* The public kind names live with the kinds, so every layer may name a kind. */
static const char *const kind_names[] = {"none", "int32",  "int64",  "float32",
                                         "float64", "bool", "string", "date",
                                         "time",    "timestamp", "uint64", "int128",
                                         "binary"};

const char *pqt_kind_name(int kind)
{
    static const char *const vec_names[] = {"none", "vector<int32>", "vector<int64>",
                                            "vector<float32>", "vector<float64>", "vector<bool>",
                                            "vector<string>", "vector<date>", "vector<time>",
                                            "vector<timestamp>", "vector<uint64>",
                                            "vector<int128>", "vector<binary>"};
    static const char *const list_names[] = {"none", "list<int32>", "list<int64>",
                                             "list<float32>", "list<float64>", "list<bool>",
                                             "list<string>", "list<date>", "list<time>",
                                             "list<timestamp>", "list<uint64>", "list<int128>",
                                             "list<binary>"};
    int e = PQT_KIND_ELEMENT(kind);
    if (e < 0 || e > PQT_BINARY || (kind & ~(0x1f | PQT_VECTOR | PQT_LIST))) return "unknown";
    if (kind & PQT_LIST) return list_names[e];
    if (kind & PQT_VECTOR) return vec_names[e];
    return kind_names[e];
}
