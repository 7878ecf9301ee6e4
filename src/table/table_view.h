/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_view.h - a table as a reader of tables sees it (layer: table). The writer reaches
 * tables through this header only, never through the table's layout (table_int.h).
 *
 * A column is described whole by one call: its name, kind, units, resident values and the
 * file column it reads. A column not resident is read row group by row group in the order
 * of the table's plan (pqt_tview_read_rg), or made resident (pqt_tview_touch). Nothing here
 * changes which rows the table holds.
 */
#ifndef PQT_TABLE_VIEW_H
#define PQT_TABLE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "format/meta.h"
#include "format/schema.h"
#include "pqt.h"
#include "read/plan.h"
#include "util/error.h"

/* One column (slot) of a table, as pqt_tview_describe sees it. Pointers point into the
 * table: valid until its next structural change or a read of this column. */
typedef struct pqt_tview_col {
    const char *name;      /* lookup name */
    const char *unit;      /* physical unit, "" when none */
    int kind;              /* element kind | PQT_VECTOR / PQT_LIST; PQT_NONE: pqt cannot read it */
    int width;             /* 1 scalars, w vectors, 0 lists (or not measured yet) */
    bool kind_known;       /* false only for a LIST column whose width is not measured yet */
    int elem_kind;         /* the element kind its values have, or will have once read */
    bool is_list;          /* its values have list offsets (vectors and lists) */
    int time_unit;         /* pqt_time_unit, or -1 */
    bool cast;             /* a cast before the first read: a read converts to elem_kind */
    bool added;            /* made by add_column/copy_column: no file to read it again from */
    bool as_read;          /* its values are the file's as read: not added, written or cast */
    const pqt_colbuf *buf; /* the values when resident, else NULL */
    const pqt_col *fcol;   /* the file column it reads; NULL: none (added, row index,
                              in-memory table) */
    const pqt_schema_elem *leaf; /* fcol's primitive leaf in the file's schema (with fcol) */
    bool in_struct;              /* fcol is a leaf (not a list) inside a group of the file */
} pqt_tview_col;

/* Slots of t (the row index counts once requested). */
int pqt_tview_ncols(const pqt_table *t);
/* Describe slot `slot` (0 <= slot < pqt_tview_ncols) into *out. Reads nothing. */
void pqt_tview_describe(const pqt_table *t, int slot, pqt_tview_col *out);
/* Slot of a lookup name, -1 when absent. */
int pqt_tview_find(const pqt_table *t, const char *name);
/* How messages name t: its file's path, or "in-memory table". */
const char *pqt_tview_where(const pqt_table *t);
/* Its file's path, NULL for an in-memory table (also after a detach). */
const char *pqt_tview_file_path(const pqt_table *t);
/* Whether the row set changed since the open (the file no longer describes the rows). */
bool pqt_tview_detached(const pqt_table *t);
/* Whether t still reads from its file: it has one and is not detached. */
bool pqt_tview_attached(const pqt_table *t);
/* Whether the plan orders rows (a read-time sort): then row groups interleave. */
bool pqt_tview_permuted(const pqt_table *t);
/* The key-value metadata of t's file: the count (0 for an in-memory table), *kv_ret the
 * entries (owned by the file). */
int pqt_tview_kv(const pqt_table *t, const pqt_kv **kv_ret);

/* The file t reads (NULL for an in-memory table) and its plan, for a walk of the source's own
 * pages (write_struct_src.c) through the file's accessors (api/file_access.h). */
const pqt_file *pqt_tview_file(const pqt_table *t);
const pqt_plan *pqt_tview_plan(const pqt_table *t);

/* ---- rows through the plan (an attached table) ---- */
/* Physical row groups of the plan. */
int pqt_tview_nrg(const pqt_table *t);
/* The threads t was opened with (PQT_OPT_THREADS: 0 = all cores), for reads made for it. */
int pqt_tview_threads(const pqt_table *t);
/* Rows the plan takes from row group rg; *first_ret (may be NULL): the table row (0-based)
 * its first one lands at, when the plan is not permuted. */
int64_t pqt_tview_rg_rows(const pqt_table *t, int rg, int64_t *first_ret);
/* Read slot's rows of row group rg through the plan into b (its arrays taken from spare, a
 * colbuf done with, where large enough), decoding with *cxp (made on first use), the
 * read's cost added to *rc. unscaled: a DECIMAL column's unscaled integers (int64 up to
 * precision 18, else int128), not its doubles; else a cast converts. Only reads: step
 * threads may read different slots at once. On failure b is freed and the message names
 * the column and the row group. */
pqt_status pqt_tview_read_rg(pqt_table *t, int slot, int rg, bool unscaled, pqt_read_counters *rc,
                             pqt_colbuf *b, pqt_colbuf *spare, pqt_chunk_ctx **cxp);
/* Slot's DECIMAL unscaled integers over every table row (plan and read-time order), into
 * *out (the caller's: pqt_colbuf_free); the column stays as it was. */
pqt_status pqt_tview_read_unscaled(pqt_table *t, int slot, pqt_colbuf *out);
/* The 1-based file row of every table row, into *out (int64, the caller's). */
pqt_status pqt_tview_file_rows(const pqt_table *t, pqt_colbuf *out);
/* Add the cost of reads (rc, quiescent) to t and slot's counters. */
void pqt_tview_add_counters(pqt_table *t, int slot, const pqt_read_counters *rc);
/* Make slot resident (its first touch); `call` names the public call for messages. */
pqt_status pqt_tview_touch(pqt_table *t, int slot, const char *call);

/* ---- zero-copy export (src/arrow/) ---- */
/* A reference to resident slot's arrays (pqt_colbuf_share): they stay alive, unchanged, until
 * the reference is dropped, whatever t does to the slot (free, evict, reload, close).
 * PQT_MISUSE when the slot is not resident. */
pqt_status pqt_tview_share(pqt_table *t, int slot, pqt_colbuf_share **ret);
/* dst = rows [a_first, a_first + a_n) of a then [b_first, b_first + b_n) of b (b may be NULL
 * when b_n is 0), in a fresh colbuf of a's shape (vec_width > 0: a vector of that width):
 * a batch of rows that straddles two row groups' reads. */
pqt_status pqt_tview_buf_concat(const pqt_colbuf *a, int64_t a_first, int64_t a_n,
                                const pqt_colbuf *b, int64_t b_first, int64_t b_n, int vec_width,
                                pqt_colbuf *dst);

/* ---- the file's structs ---- */
/* Groups above slot's file leaf when it reads a leaf inside structs under its path name
 * ("s.t.x": not renamed, not a top-level field); 0 otherwise. */
int pqt_tview_struct_depth(const pqt_table *t, int slot);
/* Node g of that path (0 <= g <= depth): g < depth the g-th group, outermost first, under
 * the name it is read as; g == depth the column's own node (its leaf, or its LIST node). */
void pqt_tview_struct_node(const pqt_table *t, int slot, int g, const char **name_ret,
                           bool *optional_ret);

/* Whether t's rows are rows of its file through its plan (attached, every planned row a table
 * row, at least one): then the file's levels tell where its struct groups are present. */
bool pqt_tview_rows_follow_file(const pqt_table *t);
/* The group node (index in the file's schema) at depth d + 1 above slot's leaf, when the slot
 * is a file column read under its path ("s.t.x"); else -1. d = 0: the outermost group. */
int pqt_tview_struct_group(const pqt_table *t, int slot, int d);
/* present[r] = 1 where group node gnode of t's file is present (not null) in table row r,
 * for every table row (present holds pqt_table_nrows(t)); t's rows must follow its file
 * (pqt_tview_rows_follow_file). One levels-only read of one leaf under the group per row
 * group of the plan. *ok false (nothing else changed) when the group has no leaf or its
 * pages hold levels in the old BIT_PACKED encoding. Messages name the file and the struct. */
pqt_status pqt_tview_group_present(const pqt_table *t, int gnode, uint8_t *present, bool *ok);

/* ---- the one-thread-at-a-time rule (table_int.h's PQT_TBL_HOLD) ---- */
typedef struct pqt_tview_hold {
    pqt_table *t; /* NULL when nothing is held */
} pqt_tview_hold;
pqt_status pqt_tview_hold_take(pqt_tview_hold *h, const pqt_table *t, const char *call,
                               const char *what);
void pqt_tview_hold_drop(pqt_tview_hold *h);
/* Hold t for the rest of the calling scope, or return PQT_PARALLEL. */
#define PQT_TVIEW_HOLD(t, call, what)                                                              \
    pqt_tview_hold pqt_tview_hold_ __attribute__((cleanup(pqt_tview_hold_drop))) = {NULL};         \
    PQT_TRY(pqt_tview_hold_take(&pqt_tview_hold_, (t), (call), (what)))

/* Forward a warning to the caller's callback (pqt_set_warning_callback; nothing when none). */
void pqt_tview_warn(const char *fmt, ...) PQT_PRINTF(1, 2);

#endif
