/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schema.h - the schema tree flattened into the columns a table lists (layer: format).
 *
 * Implements parquet-format's schema and LogicalTypes.md rules for what each leaf is
 * read as. A "column" here is what users name:
 *   - a primitive leaf, possibly inside structs: named by its dotted path "a.b.c";
 *   - a LIST (any legal encoding, incl. legacy 2-level and bare repeated primitives)
 *     whose element is a primitive of a supported kind: one column named by the path
 *     of the LIST field itself, read as a vector or list of the element kind;
 *   - a MAP whose key and value are primitives: one list column per field of its repeated
 *     key/value group, "m.key" and "m.value", sharing list levels (so their offsets agree);
 *   - an unshredded VARIANT group: its two binary leaves "v.metadata" and "v.value";
 *   - anything else nested (maps of nested values, list of lists/structs/maps, shredded
 *     variants): one PQT_NONE column named by the path of the outermost unsupported field,
 *     covering all its leaves.
 * Each column records the chunk column(s) (leaf index in RowGroup.columns) it reads.
 */
#ifndef PQT_FORMAT_SCHEMA_H
#define PQT_FORMAT_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "format/meta.h"
#include "pqt.h"

/* How the leaf's physical values turn into the column's kind. */
typedef enum pqt_conv {
    PQT_CONV_NONE = 0,     /* copy as is (int32, int64, float, double, bool, string) */
    PQT_CONV_I32_TO_I64,   /* uint32 stored as INT32 -> int64 (zero-extended) */
    PQT_CONV_U32_WIDEN,    /* uint8/uint16 stored as INT32: values already fit int32 */
    PQT_CONV_DECIMAL,      /* int32/int64/FLBA/BYTE_ARRAY unscaled -> double / 10^scale */
    PQT_CONV_DECIMAL_UNSCALED, /* the same unscaled integers exactly: int64 or int128 kind
                                  (pqt_file_read_decimal; never set by classification) */
    PQT_CONV_FLOAT16,      /* FLBA(2) half -> float */
    PQT_CONV_INT96,        /* INT96 -> int64 timestamp in the column's time_unit */
    PQT_CONV_UUID,         /* FLBA(16) -> 36-char lowercase string */
    PQT_CONV_TIME_MS       /* TIME(MILLIS) stored as INT32 -> int64 ms */
} pqt_conv;

/* One per column of a file (a million on wide files): pointers first, then ints, then the
 * narrow fields, so nothing is padding. */
typedef struct pqt_nest pqt_nest;

typedef struct pqt_col {
    const char *path;        /* dotted name (a top-level field's is its schema name) */
    const pqt_nest *nest;    /* a list of lists (kind PQT_NONE): how to read it, else NULL */
    const char *physical;    /* "INT64", "FIXED_LEN_BYTE_ARRAY(16)" (shared between columns) */
    const char *logical;     /* "TIMESTAMP(MICROS,true)", "DECIMAL(9,2)", "" (shared) */
    const char *why_unsupported; /* for PQT_NONE: "MAP", "INTERVAL", "BYTE_ARRAY", ... */
    int kind;                /* element kind | PQT_VECTOR / PQT_LIST; PQT_NONE if unreadable */
    int elem_kind;           /* the element kind even when kind is not settled yet */
    int width;               /* 1 for scalars; 0 = LIST width not discovered yet */
    int time_unit;           /* pqt_time_unit for TIME/TIMESTAMP, else -1 */
    pqt_conv conv;
    int32_t decimal_scale;
    int32_t decimal_precision; /* DECIMAL columns (conv PQT_CONV_DECIMAL), else 0 */
    int leaf_schema_idx;     /* index into meta.schema of the primitive leaf (first leaf) */
    int chunk_col;           /* index into RowGroup.columns (first leaf) */
    int nchunk_cols;         /* leaves covered (>1 only for PQT_NONE nested columns) */
    int16_t max_def, max_rep;
    /* LIST structure (is_list only): definition levels at which ... */
    int16_t list_def;        /* def >= list_def: the list itself is present (not null) */
    int16_t elem_def;        /* def >= elem_def: an element slot exists (list not empty) */
    bool top_level;          /* a field of the root itself (its name may contain dots) */
    bool is_list;            /* a LIST column (width discovery applies) */
    bool nullable;           /* some level above or at the leaf is optional */
    bool utc;
    uint8_t variant;         /* leaf of an unshredded VARIANT: 1 metadata, 2 value, else 0 */
    bool in_map;             /* a MAP's key or value field, read as a list column */
} pqt_col;

/* A list of lists of a primitive (list<list<T>>, list<list<list<T>>>, ...: standard 3-level
 * LISTs at every level), listed with kind PQT_NONE and read by pqt_file_read_nested_list.
 * Level k = 0 is the outermost list (the row's), nlevels - 1 the innermost (holding values). */
#define PQT_NEST_MAX_LEVELS 8
struct pqt_nest {
    /* the leaf read as a list of its value slots: max_rep nlevels, list_def = list_def[0],
     * elem_def = elem_def[nlevels - 1]; its kind, conversion and levels as for a list */
    pqt_col leaf;
    int nlevels;
    int16_t list_def[PQT_NEST_MAX_LEVELS]; /* def >= list_def[k]: the level-k list is present */
    int16_t elem_def[PQT_NEST_MAX_LEVELS]; /* def >= elem_def[k]: it holds an element slot */
};

typedef struct pqt_schema {
    pqt_col *cols;
    int ncols;
    int nleaves; /* chunk columns per row group */
    /* per schema node (meta->schema index), computed once so node queries are O(1): */
    int32_t *node_col;    /* the column this node names (its path), or -1 */
    int32_t *node_parent; /* the parent node, -1 for the root */
    /* per node: the name a renamed top-level field is read as (NULL: no field renamed;
     * else NULL for every node keeping its own name) */
    const char **field_name;
} pqt_schema;

/* Build the column list from meta->schema; strings live in arena. binary_as_string maps
 * plain BYTE_ARRAY to string. PQT_CORRUPT for an inconsistent tree (num_children overrun,
 * leaf count not matching the row groups, levels too deep). */
pqt_status pqt_schema_build(const pqt_file_meta *meta, bool binary_as_string, pqt_arena *arena,
                            pqt_schema *out);

/* Read INT96 timestamps in pqt_time_unit `unit` (PQT_OPT_INT96_UNIT; default nanoseconds):
 * sets the time unit of every INT96 column. */
void pqt_schema_set_int96_unit(pqt_schema *s, int unit);

#endif
