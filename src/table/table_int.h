/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_int.h - layout of pqt_table, the lazy table, shared by the files of src/table/
 * (layer: table, private).
 *
 * A table is a list of column slots over an optional file. Each slot knows its lookup
 * name, the file column it reads (or none: added columns, the row index), its kind, width
 * and unit before any read, and holds its values in one pqt_colbuf once resident.
 *
 * Which rows the table holds is decided once, at open, by the read plan: the slice, one
 * row-group-relative selection per physical row group (a slice is one run; a filter or a
 * sample is a refined selection) and an optional permutation (a read-time sort).
 * Every column read, the row index and row_group_bounds are computed from the plan, so a
 * later column sees exactly the rows and order the first one did, and a clone that copies
 * the plan sees them too.
 */
#ifndef PQT_TABLE_INT_H
#define PQT_TABLE_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "api/file_access.h"
#include "column/column.h"
#include "pqt.h"
#include "read/plan.h"
#include "scan/filter.h"
#include "scan/qc.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/sel.h"

#define PQT_TBL_ROW_INDEX "parquet_row_index"
#define PQT_TBL_FILE_COL "parquet_file" /* a dataset's virtual column: each row's file */


typedef struct pqt_tcol {
    char *name;        /* lookup name (rename changes only this) */
    int file_col;      /* column of the file read on first touch; -1 when none */
    int kind;          /* element kind | PQT_VECTOR / PQT_LIST; see kind_known */
    int width;         /* 1 scalars, w vectors, 0 lists */
    /* false only for a LIST column whose width is not measured yet; atomic because another
     * thread may look while the width is being measured (set last, after kind and width) */
    _Atomic bool kind_known;
    int decode_kind;   /* element kind a cast before first touch asked for (0 = none) */
    bool cast_exact;
    int time_unit;     /* pqt_time_unit or -1 */
    char *unit;        /* physical unit ("" = none), owned */
    /* PQT_RES_EMPTY or PQT_RES_FULL; atomic because a thread may test it while another
     * makes the column resident (set last: seeing FULL means seeing buf) */
    _Atomic int residency;
    bool added;        /* made by add_column/copy_column: no file to re-read from */
    bool user_written; /* values written by the caller (set, set_null, ...) */
    bool is_row_index;
    pqt_colbuf buf;    /* values when resident */
    /* values decoded for this slot by every read of it (pqt_read_counters' sense); atomic
     * because columns read in parallel add their own while others look */
    _Atomic int64_t values_decoded;
    int qc_rule; /* 1 + the qc rule bound to this slot at open (table_qc.c); 0: none */
    /* values the open's filter pass decoded for this never-read slot, in the table's rows
     * and order: its first read takes them instead of decoding (table_filter_keep.c); NULL:
     * none. Touched only under the table's hold. */
    pqt_colbuf *kept;
} pqt_tcol;

typedef struct pqt_tbl_qc pqt_tbl_qc; /* table_qc.c */

struct pqt_table {
    pqt_file *f;            /* NULL for an in-memory table */
    pqt_opts opts;          /* what the file was opened with (clone reopens with it) */
    int threads;            /* 0 = all cores */
    int open_level;         /* omp_get_level() at open: deeper levels share this table */
    atomic_uintptr_t owner; /* the thread changing the table (table.c's hold), or 0 */
    int hold_depth;         /* nested holds of that thread (only it touches this) */
    bool detached;          /* the row set changed: the file no longer describes the rows */
    const char *detached_by; /* the call that detached it (static string) */
    _Atomic bool ri_possible; /* the virtual row index can still be produced */
    _Atomic bool pf_possible; /* a dataset's virtual parquet_file can still be produced */
    bool nrows_known;       /* in-memory: the first add_column fixed nrows */
    pqt_plan plan;
    char *explain;          /* what a filter and a sample at open decided, or NULL */
    double sample_fraction; /* the sample settled at open (pqt_table_sample_fraction) */
    int64_t sample_seed;    /* the seed the draw used, 0 when nothing was drawn */
    int64_t nrows;
    int64_t nrows_unfiltered;
    int64_t rg_extent;
    pqt_tcol *cols;
    /* atomic: the first request of the row index adds a slot, and bumps the generation,
     * while other threads may be looking names up (see pqt_tbl_slot_next) */
    _Atomic int ncols;
    int cap;
    /* the name index behind pqt_tbl_find (table_names.c), or NULL */
    _Atomic(struct pqt_tbl_names *) names;
    _Atomic uint64_t generation;
    /* ---- scan counters (table_scan.c; a clone starts at zero) ---- */
    pqt_read_counters scan; /* every read of the file this table made (its columns' values
                               also go to their slots) */
    /* row groups the slice covers (set at open, before any filter), and what the open's
     * filter pass decided for them (the row-group fields of pqt_scan_counts) */
    int64_t scan_rg_total;
    pqt_io_net_counts net0; /* the source's network counters when the counting began */
    pqt_scan_counts scan_rg;
    int64_t healpix_pruned; /* row groups a cone's HEALPix ranges pruned (HATS) */
    int64_t files_pruned_stats; /* a dataset's members whose every row group the filter's
                                   statistics pruned (table_open_dataset.c) */
    pqt_tbl_qc *qc;         /* qc rules bound at open (table_qc.c), or NULL */
    struct pqt_maml *maml;  /* the read-in MAML (a reference; table_maml.c), or NULL */
    struct pqt_tbl_keep *keep; /* filter columns staged during the open (table_filter_keep.c) */
};

/* ---- table_maml.c ---- */
/* Before the slots are made (m may be NULL): PQT_BAD_MAML listing every remap target the file
 * lacks, every internal name that is the reserved row-index name and every problem of the
 * MAML's filter, sort and qc against the file (pqt_tbl_maml_rule_problems). */
pqt_status pqt_tbl_maml_check_file(const pqt_table *t, const struct pqt_maml *m);
/* Apply the MAML m (may be NULL) to a table whose file slots exist (remapped names made by
 * table.c): the units of fields: (file names); t keeps a reference. Reads nothing. */
pqt_status pqt_tbl_maml_at_open(pqt_table *t, struct pqt_maml *m);
/* PQT_BAD_MAML when opts' MAML has a non-empty extra: sort: and opts make a slice. */
pqt_status pqt_tbl_maml_slice_check(const pqt_opts *opts, const char *name);

/* ---- table_maml_rules.c ---- */
/* The MAML's extra: filter:, extra: sort: and fields: qc: checked against file f (NULL:
 * their syntax only): one "line N: what" per problem appended to b ("\n" between); the
 * count (past PQT_MAML_MAX_PROBLEMS counted, not kept), -1 when out of memory. */
int pqt_tbl_maml_rule_problems(const struct pqt_maml *m, const pqt_file *f, struct pqt_buf *b);
/* The rules an open runs once the MAML's are joined with the caller's (docs/maml.md). */
typedef struct pqt_tbl_open_rules {
    pqt_filter *filter;          /* the caller's rules, then the MAML's; NULL: the caller's */
    struct pqt_sort_spec *sort;  /* the MAML's keys, then the caller's; NULL: the caller's */
    pqt_qc *qc;                  /* merged per column; NULL: the caller's */
} pqt_tbl_open_rules;
/* Build them for a table whose slots exist (opts' MAML already checked against the file). */
pqt_status pqt_tbl_maml_rules(const pqt_table *t, const pqt_opts *opts, pqt_tbl_open_rules *r);
void pqt_tbl_open_rules_free(pqt_tbl_open_rules *r);

/* ---- table_names.c ---- */
typedef struct pqt_tbl_names pqt_tbl_names;
/* Slot index of a lookup name, -1 when absent (the virtual row index is absent): a hash
 * lookup once the table is wide, so naming every column is linear. */
int pqt_tbl_find(const pqt_table *t, const char *name);
/* Forget the name index: call after adding, removing, renaming or moving slots (the row
 * index excepted, see table_names.c), and when closing. */
void pqt_tbl_names_drop(pqt_table *t);

/* ---- table.c ---- */
/* The file path of t, or "in-memory table": how messages name the table. */
const char *pqt_tbl_where(const pqt_table *t);
/* "; did you mean 'x'?" for a name t lacks (the closest column name), or "", into buf. */
const char *pqt_tbl_suggest(const pqt_table *t, const char *name, char *buf, size_t cap);
/* Slot of name or PQT_NOT_FOUND with a message naming `call`, the table, the column and the
 * closest name ("CALL: FILE: no column 'mas'; did you mean 'mass'?"). */
pqt_status pqt_tbl_lookup(const pqt_table *t, const char *call, const char *name, int *ci_ret);
/* After an operation on t's plan at open (read/plan.h): nrows and the extent follow it. */
void pqt_tbl_plan_settled(pqt_table *t);
/* PQT_PARALLEL when called inside a parallel region deeper than the one that opened t. */
pqt_status pqt_tbl_check_serial(const pqt_table *t, const char *call, const char *what);

/* The one-thread-at-a-time rule for changes. Whatever changes a table -- a first touch, the
 * row index, measuring a LIST width, a structural change, a clone's reading of it -- holds
 * it for the rest of the calling function: PQT_TBL_HOLD(t, call, what) first applies
 * pqt_tbl_check_serial (OpenMP regions), then takes t's atomic owner flag, or returns
 * PQT_PARALLEL when another thread (pthreads or any other) holds it. Holds nest on one
 * thread; the flag is dropped when the declaring scope ends (cleanup attribute, so every
 * return path drops it). A thread that only reads resident columns takes no hold, and
 * published state (residency, kind_known) is atomic, so it sees whole columns or none. */
typedef struct pqt_tbl_hold {
    pqt_table *t; /* NULL when nothing is held */
} pqt_tbl_hold;
pqt_status pqt_tbl_hold_take(pqt_tbl_hold *h, const pqt_table *t, const char *call,
                             const char *what);
void pqt_tbl_hold_drop(pqt_tbl_hold *h);
#define PQT_TBL_HOLD(t, call, what)                                                                \
    pqt_tbl_hold pqt_tbl_hold_ __attribute__((cleanup(pqt_tbl_hold_drop))) = {NULL};            \
    PQT_TRY(pqt_tbl_hold_take(&pqt_tbl_hold_, (t), (call), (what)))
/* PQT_NOT_FOUND naming every name of names[0..n) the table cannot use (has_column). */
pqt_status pqt_tbl_check_present(const pqt_table *t, const char *call, const char *const *names,
                                 int n);
/* Forward an open-time warning to the caller's callback (nothing when none is set). */
void pqt_tbl_warn(const char *fmt, ...) PQT_PRINTF(1, 2);

/* ---- table_slots.c: slots and column buffers ---- */
pqt_status pqt_tbl_slot_add(pqt_table *t, pqt_tcol **ret); /* zeroed slot at the end */
/* A zeroed slot just past the end, not yet counted: fill it, then ncols++ publishes it
 * whole to threads looking names up. slot_add keeps one slot to spare, so taking it (the
 * row index does) never moves the slots. */
pqt_status pqt_tbl_slot_next(pqt_table *t, pqt_tcol **ret);
void pqt_tbl_slot_free(pqt_tcol *c);
void pqt_tbl_slot_remove(pqt_table *t, int ci);
/* Allocate a buffer of nrows rows (nelem elements for lists, offsets set for vectors of
 * width w > 0). Strings start with empty bytes. Validity allocated all-valid if nullable. */
pqt_status pqt_tbl_buf_new(pqt_colbuf *b, int elem_kind, bool is_list, int vec_width,
                           bool nullable, int64_t nrows, int64_t nelem);
/* dst = rows of srcs picked by idx: idx[i] >= 0 is row idx[i] of a, <= -2 is row
 * -idx[i] - 2 of b, -1 a null row (b may be NULL). Shape (kind, list-ness) of a. */
/* A change of the row set succeeded: install the new buffers nb[i] of the resident columns
 * (taking them over), set nrows, detach from the file and bump the generation. */
void pqt_tbl_install_rows(pqt_table *t, pqt_colbuf *nb, int64_t nrows, const char *call);
/* Commit survivors on a table still in file order over its file: the refined plan np
 * replaces the plan, nb[i] the resident buffers (both taken); the table stays attached. */
void pqt_tbl_commit_attached(pqt_table *t, pqt_plan *np, pqt_colbuf *nb, int64_t nkeep);

pqt_status pqt_tbl_buf_gather(const pqt_colbuf *a, const pqt_colbuf *b, const int64_t *idx,
                              int64_t n, int vec_width, pqt_colbuf *dst);
/* The unscaled integers of slot ci, a DECIMAL column still as read, in the table's rows
 * (plan and read-time order): read again from the file into *out (element kind *kind_ret,
 * PQT_INT64 or PQT_INT128). table_decimal.c; the caller checks the column qualifies. */
pqt_status pqt_tbl_read_decimal_buf(pqt_table *t, int ci, pqt_colbuf *out, int *kind_ret);
/* Deep copy. */
pqt_status pqt_tbl_buf_copy(const pqt_colbuf *src, int vec_width, pqt_colbuf *dst);
/* Convert the elements of a fixed-width buffer to element kind `to` (numeric kinds). exact:
 * PQT_OVERFLOW when a value does not survive the round trip. name is for messages. */
pqt_status pqt_tbl_buf_convert(pqt_colbuf *b, int to, bool exact, const char *name);
/* Copy on write: before values are written in place into c's arrays, give c arrays of its
 * own when an export still reads them (pqt_colbuf_shared), so exported arrays never change.
 * Moving the arrays is a structural change (views point at the old ones): the generation
 * is bumped; nothing happens when no one else reads them. Call under the table's hold. */
pqt_status pqt_tbl_own(pqt_table *t, pqt_tcol *c, const char *call);
/* Elements in row i of a resident column. */
static inline int64_t pqt_tbl_row_nelem(const pqt_colbuf *b, int64_t i)
{
    return b->is_list ? b->list_offsets[i + 1] - b->list_offsets[i] : 1;
}
static inline int64_t pqt_tbl_row_first(const pqt_colbuf *b, int64_t i)
{
    return b->is_list ? b->list_offsets[i] : i;
}
/* Row i null: list row absent, or (scalars/vectors) any element null. */
bool pqt_tbl_row_is_null(const pqt_tcol *c, int64_t i);

/* ---- table_get.c: copies ---- */
/* The element kind a copy of c produces for to_kind (0 = stored; widening int32 -> int64,
 * float32 -> float64), or PQT_KIND naming the stored kind. Fixed-width columns only. */
pqt_status pqt_tbl_copy_kind(const pqt_tcol *c, int to_kind, const char *call, int *out);
/* PQT_OVERFLOW naming the column, the 1-based row and the value when a copy of elements
 * first..first+n-1 of b as kind `to` would not hold a value exactly (uint64 -> int64 only);
 * called before anything is written, so a refused copy changes nothing. */
pqt_status pqt_tbl_check_fit(const pqt_colbuf *b, int64_t first, int64_t n, int to,
                             const char *call, const char *name);
/* Copy n elements from element `first` of b into dst as element kind `to` (nulls as 0). */
void pqt_tbl_copy_elems(const pqt_colbuf *b, int64_t first, int64_t n, void *dst, int to);
/* Copy n validity bits from element `first` of b to bits at.. of v. */
void pqt_tbl_copy_validity(const pqt_colbuf *b, int64_t first, int64_t n, uint8_t *v, int64_t at);
/* PQT_RANGE naming the row unless 1 <= row <= nrows. */
pqt_status pqt_tbl_check_row(const pqt_table *t, const char *call, const char *name, int64_t row);

/* ---- table_read.c: residency ---- */
/* Make column ci resident (first touch). `call` names the public call for messages. */
pqt_status pqt_tbl_touch(pqt_table *t, int ci, const char *call);
/* Settle kind/width of a LIST column (may read, see pqt.h). */
/* Copies of a never-read column straight into caller memory, leaving it unread (so the
 * column is held once, not in the table and again in the copy). direct_slot: the slot of
 * a fixed-width scalar file column a copy of to_kind can take this way (stored kind, no
 * conversion, not resident), or -1. read_direct: decode its rows through
 * the plan into dst (nrows elements); b owns the validity (pqt_colbuf_free, which leaves
 * dst alone), built only when want_validity or a qc rule may need it; on failure dst holds
 * partial values and nothing else changed. */
int pqt_tbl_direct_slot(const pqt_table *t, const char *name, int to_kind);
pqt_status pqt_tbl_read_direct(pqt_table *t, int ci, const char *call, void *dst,
                               bool want_validity, pqt_colbuf *b);
/* Copies that need the column's own buffers (vectors, strings, conversions) without making
 * it resident: transient_slot is the slot of a never-read file column (not the row index,
 * not made in memory, attached), or -1. read_transient reads it through the plan exactly as
 * a first touch would (sorted plans, decode_kind, the width check, qc) into b, which the
 * caller owns and may take arrays out of; the table keeps nothing but the settled kind and
 * width. On failure nothing changed. */
int pqt_tbl_transient_slot(const pqt_table *t, const char *name);
pqt_status pqt_tbl_read_transient(pqt_table *t, int ci, const char *call, pqt_colbuf *b);
pqt_status pqt_tbl_resolve_kind(pqt_table *t, int ci, const char *call);
/* Slot of the row index, creating and filling it on first request. */
pqt_status pqt_tbl_row_index(pqt_table *t, const char *call, int *ci_ret);
/* parquet_file (a dataset's): name is it and it can still be built; build it (as the row
 * index: an ordinary string slot from then on). */
bool pqt_tbl_file_col_possible(const pqt_table *t, const char *name);
pqt_status pqt_tbl_file_col(pqt_table *t, const char *call, int *ci_ret);
/* Lookup that also answers the row-index name by building it; then touches the column. */
pqt_status pqt_tbl_resident(pqt_table *t, const char *call, const char *name, int *ci_ret);

/* ---- table_filter.c: the filter language on the table's rows ---- */
#include "scan/filter.h"
/* The columns a rule may name, as pqt_scan_compile takes them: every slot by its lookup
 * name (after renames) with its kind (an unmeasured LIST column carries PQT_LIST, so it is
 * refused without reading) and time unit, plus "parquet_row_index" (int64) while the row
 * index is still virtual and could be built. Ordered as pqt_tbl_find decides between
 * names spelled alike (a top-level file column first, then slot order), so entry k is the
 * slot pqt_tbl_find(t, cols[k].name) gives, or the virtual row index when that is -1.
 * Names point into t (valid until its next structural change); *cols_ret is freed with
 * pqt_mem_free. Reads nothing. PQT_NOMEM. */
pqt_status pqt_tbl_scan_cols(const pqt_table *t, pqt_scan_col **cols_ret, int *n_ret);

/* ---- table_open_filter.c ---- */
/* The columns a filter at open may name: every slot, then the row index, then (a table with
 * a MAML) each file column no slot reads, under PQT_TBL_HIDDEN_FMT: a MAML's extra: filter:
 * names file columns, and one its remap shadows is still filtered by (table_maml_rules.c). */
pqt_status pqt_tbl_scan_cols_at_open(const pqt_table *t, pqt_scan_col **cols_ret, int *n_ret);
#define PQT_TBL_HIDDEN_FMT "%s (file column)"
/* Narrow t's plan to the rows passing filter; sets nrows, the extent and the explain text.
 * limit >= 0 (a limit without a sort): the row groups after the one where the first limit
 * rows (after the sample, if any) are found keep nothing and are not read; the caller still
 * cuts the plan to the limit. On failure the table is to be closed (it is still being
 * opened). */
pqt_status pqt_tbl_filter_at_open(pqt_table *t, const pqt_filter *filter, int64_t limit);
/* The file column of each slot of prog (compiled against pqt_tbl_scan_cols_at_open's ncols
 * columns): NULL for the row index. *slot_col_ret (pqt_mem_free) has one entry per slot. */
pqt_status pqt_tbl_filter_slot_cols(const pqt_table *t, const pqt_fprog *prog, int ncols,
                                    const pqt_col ***slot_col_ret);

/* ---- table_qc.c: read-time quality control ---- */
/* Bind the rules of qc to t's columns (at open, before any read). PQT_NOT_FOUND for an
 * unknown column, PQT_KIND for a bound that does not fit it, PQT_UNSUPPORTED_TYPE for a
 * column that cannot be read. NULL or empty qc: nothing. */
pqt_status pqt_tbl_qc_bind(pqt_table *t, const pqt_qc *qc, bool soft);
void pqt_tbl_qc_free(pqt_tbl_qc *q);
pqt_status pqt_tbl_qc_copy(const pqt_tbl_qc *src, pqt_tbl_qc **ret); /* for a clone */
/* Whether slot c's values read from the file are checked. */
bool pqt_tbl_qc_has_rule(const pqt_table *t, const pqt_tcol *c);
/* Soft-mode warnings found by a check, sent by pqt_tbl_qc_emit once the read commits. */
typedef struct pqt_tbl_qc_note {
    int rule; /* -1: no rule */
    bool range, nulls;
    char range_msg[1024];
    char null_msg[512];
} pqt_tbl_qc_note;
/* THE check: values b, just read from the file for slot c by `call` and not yet
 * committed, against c's rule. Hard mode: PQT_QC with the message naming call, file,
 * column, declared bounds, data range and counts; nothing changes. Soft mode: PQT_OK, the
 * warnings in *note. No rule: PQT_OK, note->rule = -1. */
pqt_status pqt_tbl_qc_check(const pqt_table *t, const pqt_tcol *c, const pqt_colbuf *b,
                            const char *call, pqt_tbl_qc_note *note);
void pqt_tbl_qc_emit(pqt_table *t, const pqt_tbl_qc_note *note);
/* (table_read.c) Check slot ci's rule by reading it through the plan and dropping what was
 * read: nothing when it has no rule or is resident (checked when it was read). */
pqt_status pqt_tbl_qc_probe(pqt_table *t, int ci, const char *call);
/* ---- table_open_sample.c ---- */
/* Settle the sample of t->opts (fraction, seed: drawn when <= 0 and 0 < fraction < 1) and
 * narrow t's plan to the rows it keeps, after the filter; sets nrows, the extent and the
 * explain text. On failure the table is to be closed (it is still being opened). */
pqt_status pqt_tbl_sample_at_open(pqt_table *t);
/* ---- table_open_topn.c ---- */
/* Before a top-n of n rows at open ordered first by key (desc or not, nulls last): narrow
 * the plan to the row groups that can hold one of them, by the key's statistics and the
 * values of the row groups read to decide. *read_ret of *of_ret row groups kept. When it
 * read (elem_kind != 0), *key_ret holds key's values over the narrowed plan (the caller's:
 * pqt_colbuf_free), so the sort does not read them again. */
pqt_status pqt_tbl_top_n_row_groups(pqt_table *t, const char *key, bool desc, int64_t n,
                                    int threads, int *read_ret, int *of_ret, pqt_colbuf *key_ret);
/* ---- table_open_sort.c ---- */
#include "scan/sort_spec.h"
/* PQT_BAD_SORT naming the key when a sort key at open names no column, or one that is not
 * a readable scalar; reads nothing (called before the filter). */
pqt_status pqt_tbl_sort_check(const pqt_table *t, const pqt_sort_spec *spec);
/* After the filter: order t's plan by spec (NULL or no keys: no sort) and keep at most
 * limit rows (< 0: every row); sets nrows, the extent, the explain text, and for a top-n
 * the key columns resident. On failure the table is to be closed (it is still being opened). */
pqt_status pqt_tbl_sort_at_open(pqt_table *t, const pqt_sort_spec *spec, int64_t limit);

/* ---- table_scan.c: what reading cost ---- */
/* Row groups whose selection in p is not empty (what scan_rg_total counts at open). */
int64_t pqt_tbl_scan_rg_covered(const pqt_plan *p);
/* Add the counters of one read (rc, quiescent) to t and its values to slot c (NULL: a
 * read for no slot). Safe while other threads add theirs. */
void pqt_tbl_scan_add(pqt_table *t, pqt_tcol *c, const pqt_read_counters *rc);
/* Zero every counter of t and its slots (a clone's start). */
void pqt_tbl_scan_reset(pqt_table *t);

/* ---- table_open_dataset.c: a dataset's open (docs/datasets.md) ---- */
/* Prune the members by their partition values (and, for a HATS catalogue, by a cone's
 * pixels) under filter, then merge the kept members' footers (pqt_file_ds_finish). */
pqt_status pqt_tbl_dataset_at_open(pqt_table *t, const pqt_filter *filter);
/* The plan's row-index shift: rows number within their own file. */
pqt_status pqt_tbl_dataset_row_shift(pqt_table *t);
/* HATS: drop the row groups whose HEALPix pixel column cannot hold a pixel of the filter's
 * cones (before the filter pass; counted as pruned by statistics). */
pqt_status pqt_tbl_dataset_healpix(pqt_table *t, const pqt_filter *filter);
/* The lines the explain text ends with for a dataset: files kept and pruned, and for a HATS
 * catalogue the partitions kept. */
pqt_status pqt_tbl_dataset_explain(pqt_table *t);
/* Append a line to the explain text (created on first use; table_open_sort.c). */
pqt_status pqt_tbl_explain_add(pqt_table *t, const char *line);
/* Members whose every row group in the slice the filter pass pruned. */
struct pqt_rg_verdict;
int64_t pqt_tbl_dataset_files_pruned(const pqt_table *t, const struct pqt_rg_verdict *v);

/* ---- table_open_share.c: one share of the open's rows (docs/mpi.md) ---- */
/* Narrow the plan to share part of nparts (0 <= part < nparts): the row groups the filter's
 * statistics cannot refute, cut into nparts contiguous runs balanced by compressed bytes
 * (by_rows false) or into nparts row ranges as even as rows allow (by_rows true). */
pqt_status pqt_tbl_share_at_open(pqt_table *t, const pqt_filter *filter, int part, int nparts,
                                 bool by_rows);
/* The explain line of the share (into line, cap bytes): which row groups and rows it holds. */
void pqt_tbl_share_line(const pqt_table *t, int part, int nparts, bool by_rows, char *line,
                        size_t cap);

/* ---- table_filter_keep.c: a filter column decoded once (docs/pruning.md, "A filter
 * column kept for the payload") ---- */
typedef struct pqt_tbl_keep pqt_tbl_keep;
/* The columns a filter pass over t's plan hands out (scan.h's pqt_scan_keep). */
typedef struct pqt_tbl_keep_pass {
    struct pqt_scan_keep *keep;
    int nkeep;
    int *ci;          /* nkeep slots */
    int64_t *dst_row; /* the plan's dst_row before the pass */
} pqt_tbl_keep_pass;
/* Before the pass: the keepable filter columns of prog that fit PQT_OPT_FILTER_KEEP_BYTES,
 * their blocks and pieces allocated (none when memory is short; never fails). */
void pqt_tbl_keep_pass_prepare(const pqt_table *t, const pqt_fprog *prog,
                               const pqt_col *const *slot_col, pqt_tbl_keep_pass *kp);
void pqt_tbl_keep_pass_free(pqt_tbl_keep_pass *kp, int nrg);
/* After the pass narrowed t's plan: the columns every row group keeping rows handed out,
 * assembled over the plan and staged in t->keep; frees kp. Never fails. */
void pqt_tbl_keep_stage(pqt_table *t, pqt_tbl_keep_pass *kp, const pqt_col *const *slot_col);
/* pqt_tbl_qc_probe for slot ci, on its staged values when it has them (nothing read). */
pqt_status pqt_tbl_keep_qc_probe(pqt_table *t, int ci, const char *call);
/* At the end of an open's plan steps: the staged columns follow the plan (the sample's and
 * the limit's rows, the sort's order) and become their slots' kept values (pqt_tcol.kept);
 * t->keep is freed. Never fails. */
void pqt_tbl_keep_install(pqt_table *t);
/* Free what is staged (an open that failed). */
void pqt_tbl_keep_drop(pqt_table *t);
/* A first read of slot c (the caller holds t): its kept values into *out (the buffer a read
 * would make), true; false when it has none. */
bool pqt_tbl_keep_take(pqt_table *t, pqt_tcol *c, pqt_colbuf *out);
/* A direct read of slot ci (pqt_tbl_read_direct, t held): its kept values copied into dst,
 * *b as the read would set it (data borrowed = dst), true; false when it has none. */
bool pqt_tbl_keep_take_into(pqt_table *t, pqt_tcol *c, void *dst, pqt_colbuf *b);
/* get_alloc of slot ci never read: its kept values handed over whole (*data_ret, the block
 * itself; *b owns the validity, data borrowed), after its qc check as at a first read;
 * *data_ret NULL when it has none. PQT_QC (hard mode: the values stay kept). */
pqt_status pqt_tbl_keep_handover(pqt_table *t, int ci, const char *call, void **data_ret,
                                 pqt_colbuf *b);
/* Free the kept values of every slot (the rows changed) or of slot c. */
void pqt_tbl_keep_forget(pqt_table *t);
void pqt_tbl_keep_free_col(pqt_tcol *c);

#endif
