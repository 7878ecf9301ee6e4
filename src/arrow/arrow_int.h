/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_int.h - what the files of the Arrow export share (layer: arrow; docs/arrow.md).
 *
 * The export sits on top of the table and sees it through table/table_view.h only. A column
 * is described once (pqt_ax_col: its Arrow format and how its values become Arrow buffers),
 * then each batch of rows of it becomes one ArrowArray from a pqt_colbuf whose arrays are
 * held by a reference-counted owner (pqt_colbuf_share): the array references the owner, so
 * zero-copy buffers outlive the table.
 */
#ifndef PQT_ARROW_INT_H
#define PQT_ARROW_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "pqt_arrow.h"
#include "pqt_file.h"
#include "table/table_view.h"

/* How one element kind's values become an Arrow array's buffers. */
typedef enum pqt_ax_how {
    PQT_AX_PLAIN,   /* fixed-width values as they are: zero copy */
    PQT_AX_BYTES,   /* int64 offsets + bytes (large_utf8, large_binary): zero copy */
    PQT_AX_BOOL,    /* one byte per value -> one bit: a copy */
    PQT_AX_HALF,    /* FLOAT16 read as float32 -> halffloat, exactly */
    PQT_AX_TIME32,  /* TIME(MILLIS) read as int64 -> time32[ms] */
    PQT_AX_DECIMAL, /* unscaled int64 / int128 -> decimal128 (sign-extended) */
    PQT_AX_UUID     /* 36-char text -> fixed_size_binary(16) */
} pqt_ax_how;

/* The shape of a column: what holds its elements. */
typedef enum pqt_ax_shape {
    PQT_AX_SCALAR,
    PQT_AX_VECTOR, /* fixed_size_list of width */
    PQT_AX_LIST,   /* large_list */
    PQT_AX_MAP     /* map<key, value>: slot reads the keys, vslot the values */
} pqt_ax_shape;

/* One element type: its format and conversion. */
typedef struct pqt_ax_elem {
    pqt_ax_how how;
    char format[40];
    int decimal_nbytes; /* PQT_AX_DECIMAL: 16 (decimal128) */
    bool nullable;      /* elements may be null */
} pqt_ax_elem;

/* One exported column (a field of the batch, or a leaf of a struct field). */
typedef struct pqt_ax_col {
    int slot, vslot; /* table slots (vslot: a map's values, else -1) */
    pqt_ax_shape shape;
    int width;          /* PQT_AX_VECTOR */
    bool rows_nullable; /* lists and maps: rows may be null */
    bool unscaled;      /* read the DECIMAL's unscaled integers */
    pqt_ax_elem elem, velem;
    const char *name; /* the field's name (a struct leaf's own name; a map's name) */
    int depth;        /* struct groups above it (pqt_tview_struct_depth) */
} pqt_ax_col;

/* Describe the columns to export: names[0..n) (NULL: every readable column) into *cols_ret
 * (*n_ret entries, pqt_mem_free), maps paired. Errors as pqt_table_export_arrow_stream. */
pqt_status pqt_ax_describe(pqt_table *t, const char *const *names, int n, const char *call,
                           pqt_ax_col **cols_ret, int *n_ret);
/* The batch schema: a struct with one child per top-level field (struct leaves gathered). */
pqt_status pqt_ax_schema(pqt_table *t, const pqt_ax_col *cols, int ncols, struct ArrowSchema *out);
/* The end of the run of columns from i (< end) inside the same struct group at level g as
 * column i (whose depth is > g): consecutive columns of one group become one struct field. */
int pqt_ax_group_end(pqt_table *t, const pqt_ax_col *cols, int i, int end, int g);
/* One column's field alone. */
pqt_status pqt_ax_schema_col(pqt_table *t, const pqt_ax_col *c, struct ArrowSchema *out);

/* n rows of a column's values: rows [r0, r0 + n) of s, the key (or only) values, and of a
 * map's values rows [vr0, vr0 + n) of vs (else NULL); arrays made from them reference the
 * owners. */
pqt_status pqt_ax_array(const pqt_ax_col *c, pqt_colbuf_share *s, int64_t r0, pqt_colbuf_share *vs,
                        int64_t vr0, int64_t n, struct ArrowArray *out);
/* A struct array of n rows taking over kids[0..nkids) (moved, released with it; on failure
 * they are released). present: one byte per row, 0 where the struct is null (a validity
 * bitmap of its own); NULL: no row null. */
pqt_status pqt_ax_struct(int64_t n, const uint8_t *present, struct ArrowArray *kids, int nkids,
                         struct ArrowArray *out);

/* Private blocks of exported arrays and schemas alive now (each made adds one, each release
 * takes it back): tests assert it returns to 0. */
int64_t pqt_arrow_live_blocks(void);
void pqt_ax_live_add(int64_t d);

#endif
