/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt.h - the public C API of pqt, a reader and writer of Apache Parquet files: tables,
 * options, filters, quality control and the writer, grouped by object below. The
 * file-level tier (pqt_file, arrays, selections, footer inspection) is pqt_file.h, which
 * includes this header. docs/stability.md says what stays fixed across releases.
 *
 * Conventions (they hold for every call below unless its contract says otherwise):
 *  - Every fallible call returns pqt_status; PQT_OK (0) is success. On failure the
 *    message of the failure is pqt_errmsg() on the calling thread, and the call has
 *    changed nothing: out-parameters and handles are left as they were.
 *  - Row numbers are 1-based and inclusive (lo..hi), 64-bit.
 *  - Handles are opaque; each open or new call has a close or free call, and freeing NULL is a no-op.
 *  - A handle is used by one thread at a time; separate handles (even on the same
 *    file) may be used concurrently from different threads.
 *  - Strings returned by accessors live as long as the handle they came from.
 *  - The library never aborts and never prints.
 */
#ifndef PQT_H
#define PQT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PQT_BUILDING) && defined(__GNUC__)
#define PQT_API __attribute__((visibility("default")))
#else
#define PQT_API
#endif

#define PQT_VERSION_MAJOR 0
#define PQT_VERSION_MINOR 1
#define PQT_VERSION_PATCH 0
#define PQT_VERSION_NUMBER (PQT_VERSION_MAJOR * 10000 + PQT_VERSION_MINOR * 100 + PQT_VERSION_PATCH)
#define PQT_VERSION_STRING "0.1.0"

/* Version of the library actually linked (compare with PQT_VERSION_NUMBER). */
PQT_API unsigned pqt_version_number(void);

/* ------------------------------------------------------------------------------------------
 * Status, errors, warnings and memory.
 *
 * Status codes. The numbers are fixed forever; they are grouped by class:
 *   1..9 lookup, 10..19 I/O, 20..29 corrupt input, 30..39 unsupported input,
 *   40..49 memory, 50..69 misuse by the caller, 70..79 limits.
 * ------------------------------------------------------------------------------------------ */
#define PQT_STATUS_LIST(X)                                                                         \
    X(PQT_OK, 0, "ok")                                                                             \
    X(PQT_NOT_FOUND, 1, "not found")                                                               \
    X(PQT_IO, 10, "I/O error")                                                                     \
    X(PQT_EXISTS, 11, "file exists")                                                               \
    X(PQT_CORRUPT, 20, "corrupt file")                                                             \
    X(PQT_CORRUPT_PAGE, 21, "corrupt page")                                                        \
    X(PQT_UNSUPPORTED, 30, "unsupported")                                                          \
    X(PQT_UNSUPPORTED_ENCRYPTED, 31, "encrypted files are not supported")                          \
    X(PQT_UNSUPPORTED_CODEC, 32, "codec not supported")                                            \
    X(PQT_UNSUPPORTED_TYPE, 33, "column type not supported")                                       \
    X(PQT_UNSUPPORTED_ENCODING, 34, "encoding not supported")                                      \
    X(PQT_NOMEM, 40, "out of memory")                                                              \
    X(PQT_MISUSE, 50, "invalid argument")                                                          \
    X(PQT_RANGE, 51, "row range outside the table")                                                \
    X(PQT_KIND, 52, "kind mismatch")                                                               \
    X(PQT_PARALLEL, 53, "refused inside a parallel region")                                        \
    X(PQT_DETACHED, 54, "table is detached from its file")                                         \
    X(PQT_UNIT_MISMATCH, 55, "unit mismatch")                                                      \
    X(PQT_BAD_FILTER, 56, "bad filter rule")                                                       \
    X(PQT_CALLBACK, 57, "a filter callback reported failure")                                      \
    X(PQT_BAD_SORT, 58, "bad sort key")                                                            \
    X(PQT_BAD_MAML, 59, "bad MAML")                                                                \
    X(PQT_QC, 60, "quality-control rule violated")                                                 \
    X(PQT_PROTECTED, 61, "protected column holds nulls")                                           \
    X(PQT_LIMIT, 70, "limit exceeded")                                                             \
    X(PQT_OVERFLOW, 71, "value does not fit the destination kind")                              \
    X(PQT_SCHEMA_MISMATCH, 72, "files of a dataset disagree on a column")

typedef enum pqt_status {
#define PQT_STATUS_ENUM_(name, num, text) name = num,
    PQT_STATUS_LIST(PQT_STATUS_ENUM_)
#undef PQT_STATUS_ENUM_
} pqt_status;

/* Symbolic name of a status ("PQT_CORRUPT"); "PQT_UNKNOWN" for other numbers. Static storage. */
PQT_API const char *pqt_status_name(pqt_status st);

/* Message of the last failed pqt call on this thread: "" until a call on this thread fails;
 * after that, the message of the most recent failure, which successful calls leave unchanged
 * (a success does not clear it, so test the status, not the message, to see whether a call
 * failed). Failures on other threads never change it. Never NULL. The pointer is to this
 * thread's storage and the text is valid until the next failing pqt call on this thread. */
PQT_API const char *pqt_errmsg(void);

/* Warnings the library raises while it works (a file column named parquet_row_index
 * dropped at open; qc violations in soft mode, PQT_OPT_QC_SOFT). By default there is no callback and warnings are discarded -- the library
 * never prints. fn NULL restores the default. Process-wide; set it before opening tables
 * (not synchronized with concurrent opens). fn may be called from any thread that opens a
 * table or reads a column; message lives for the duration of the call. */
typedef void (*pqt_warning_fn)(void *user, const char *message);
PQT_API void pqt_set_warning_callback(pqt_warning_fn fn, void *user);

/* Free memory the library allocated for the caller. A block over 32 MiB may be kept (at most
 * 16 blocks, 1 GiB) for the library's next large allocation instead of going back to the
 * system, so that a loop of get_alloc / pqt_free does not zero fresh pages every time; the
 * kernel may still reclaim kept pages under memory pressure. */
PQT_API void pqt_free(void *p);

/* ------------------------------------------------------------------------------------------
 * Kinds: what a column is read as. A scalar column has one of the element kinds; a
 * fixed-width vector column (LIST whose rows all have the same length, fixed_size_list) has
 * width > 1 and the PQT_VECTOR bit; a variable-length LIST column has the PQT_LIST bit.
 * ------------------------------------------------------------------------------------------ */
typedef enum pqt_kind {
    PQT_NONE = 0,      /* listed but unreadable */
    PQT_INT32 = 1,     /* int32_t */
    PQT_INT64 = 2,     /* int64_t */
    PQT_FLOAT32 = 3,   /* float */
    PQT_FLOAT64 = 4,   /* double */
    PQT_BOOL = 5,      /* uint8_t, 0 or 1 */
    PQT_STRING = 6,    /* int64_t offsets (n + 1) into a byte buffer, UTF-8, not terminated */
    PQT_DATE = 7,      /* int32_t days since 1970-01-01 */
    PQT_TIME = 8,      /* int64_t since midnight, in the column's time unit */
    PQT_TIMESTAMP = 9, /* int64_t since 1970-01-01T00:00:00, in the column's time unit */
    PQT_UINT64 = 10,   /* uint64_t: INTEGER(64,false) / UINT_64 columns, read exactly */
    PQT_INT128 = 11,   /* 16 bytes per element, int64_t pairs {low, high}: the low 64 bits (as
                        * unsigned) then the high 64 bits (signed) of a two's-complement value,
                        * i.e. a little-endian __int128 on little-endian machines. Only the
                        * unscaled values of wide decimals come in it (pqt_file_read_decimal,
                        * pqt_table_get_decimal_alloc); no column is stored as int128 */
    PQT_BINARY = 12,   /* bytes, stored exactly like PQT_STRING (int64_t offsets (n + 1) into a
                        * byte buffer) but not promised to be UTF-8: BYTE_ARRAY and
                        * FIXED_LEN_BYTE_ARRAY columns without a string or other annotation */
    PQT_VECTOR = 0x20, /* flag: fixed-width vector of the element kind */
    PQT_LIST = 0x40    /* flag: variable-length list of the element kind */
} pqt_kind;

#define PQT_KIND_ELEMENT(k) ((k) & 0x1f)
/* Whether a kind's elements are byte strings held as offsets + bytes (PQT_STRING, PQT_BINARY);
 * every call that takes or gives string storage takes or gives binary storage the same way. */
#define PQT_KIND_IS_BYTES(k) (PQT_KIND_ELEMENT(k) == PQT_STRING || PQT_KIND_ELEMENT(k) == PQT_BINARY)

typedef enum pqt_time_unit { PQT_UNIT_MILLIS = 0, PQT_UNIT_MICROS = 1, PQT_UNIT_NANOS = 2 } pqt_time_unit;

/* Name of a kind ("float64", "list<int32>", ...). Static storage. */
PQT_API const char *pqt_kind_name(int kind);

/* Bytes per element of a kind's values array (strings: 0; bool: 1). */
PQT_API size_t pqt_kind_elem_nbytes(int kind);

/* ------------------------------------------------------------------------------------------
 * Options: one opaque object with typed setters, shared by every open call.
 * ------------------------------------------------------------------------------------------ */
typedef struct pqt_opts pqt_opts;

typedef enum pqt_opt {
    PQT_OPT_THREADS = 1,          /* int: 0 = all cores (default), 1 = no threads */
    PQT_OPT_VERIFY_CRC = 2,       /* int: 1 = verify page CRC32 when present (default), 0 = skip */
    PQT_OPT_BINARY_AS_STRING = 3, /* int: 1 = read plain BYTE_ARRAY as string (old Hive/Impala) */
    PQT_OPT_ROW_LO = 4,           /* int64 >= 1: first row of the slice, 1-based (table open) */
    PQT_OPT_ROW_HI = 5,           /* int64 >= 1: last row of the slice, inclusive (table open) */
    /* int: pqt_time_unit INT96 timestamps are read in (file and table open): PQT_UNIT_NANOS
     * (default) keeps Impala's nanoseconds but holds only the years 1677..2262 -- a value
     * outside is PQT_OVERFLOW naming this option; PQT_UNIT_MICROS holds +-292,000 years
     * (sub-microsecond digits are cut, rounding toward the past); PQT_UNIT_MILLIS holds every
     * INT96 value. The column's time unit reports the choice. */
    PQT_OPT_INT96_UNIT = 6,
    /* text (pqt_opts_set_str): one filter rule (docs/filters.md) for table open, AND-combined
     * with the rules set before; repeatable. Parsed when set (PQT_BAD_FILTER). */
    PQT_OPT_FILTER = 7,
    /* int, 1 (default) or 0: each mechanism a filter at open uses to avoid reading rows
     * (docs/filters.md says what each prunes when). Results never depend on them; turning
     * one off is for measuring and testing. */
    PQT_OPT_PUSHDOWN_STATS = 8,      /* footer statistics prune or accept whole row groups */
    PQT_OPT_PUSHDOWN_PAGE_INDEX = 9, /* column index prunes pages, offset index skips their I/O */
    PQT_OPT_PUSHDOWN_DICTIONARY = 10, /* predicates on dictionary entries, absent values */
    PQT_OPT_PUSHDOWN_BLOOM = 11,     /* bloom filters refute == and in */
    /* conjuncts re-ranked by measured selectivity, selection kind and decode-then-filter chosen
     * per row group; 0 = the cost order, always refining */
    PQT_OPT_PUSHDOWN_ADAPTIVE = 12,
    /* int64 >= 0: keep at most this many rows (table open; docs/sort.md). With a sort, the
     * first n rows of the sorted order (a top-n: the keys are read over the surviving rows,
     * every other column only for the n kept); without one, the first n rows that survive
     * the filter. Unset: every row. */
    PQT_OPT_LIMIT = 13,
    /* double (pqt_opts_set_double): keep each row of a table open with this probability
     * (docs/sampling.md). Never set, or >= 1: every row; 0: no row; negative or NaN is
     * refused when set. Applied to the rows the slice and the filter keep. */
    PQT_OPT_SAMPLE_FRACTION = 14,
    /* int64: the sample's seed; the same (fraction, seed) keeps the same rows of a file, on
     * every machine and release. <= 0 (the default): the open draws one, which
     * pqt_table_sample_seed reports. */
    PQT_OPT_SAMPLE_SEED = 15,
    /* int, 0 (default) or 1: how a table open with qc rules (pqt_opts_set_qc) treats a
     * violation: 0 fails the call that read the column with PQT_QC; 1 sends the message
     * through the warning callback (pqt_set_warning_callback) and goes on (docs/qc.md) */
    PQT_OPT_QC_SOFT = 16,
    /* text (pqt_opts_set_str): sort keys for table open (docs/sort.md), appended after the
     * keys set before; "survey, -mass", "group asc; mass desc nulls_first". Parsed when set
     * (PQT_BAD_SORT). */
    PQT_OPT_SORT = 17,
    /* int, datasets (a directory or glob opened as one table; docs/datasets.md): 1 (the
     * default) turns key=value folders into columns, 0 reads the files' columns only */
    PQT_OPT_HIVE = 18,
    /* int, datasets: 0 (the default) every file must have the dataset's columns; 1 unions
     * them by name: a column a file lacks reads as nulls there */
    PQT_OPT_UNION_BY_NAME = 19,
    /* int, an open split among processes (pqt_table_open_mpi, pqt_table_open_share;
     * docs/mpi.md): how the rows are shared, a pqt_share_by */
    PQT_OPT_SHARE_BY = 20,
    /* int64 >= 0, table open with a filter: the filter columns the filter pass decodes
     * as values are kept for the table's reads, up to this many bytes in all (default
     * PQT_FILTER_KEEP_BYTES_DEFAULT; 0 keeps none): a later read of such a column costs no
     * decode, and pqt_table_get_alloc hands the kept block over without a copy (docs/
     * pruning.md, "A filter column kept for the payload": only where at least half the rows
     * pass, and where every row group decoded the column as values). The memory is what a
     * read of the column would hold; pqt_table_evict drops it. pqt_scan_counts.
     * filter_values_reused counts the values reads took this way. */
    PQT_OPT_FILTER_KEEP_BYTES = 21,
    /* int64, files opened by URL (http://, https://; docs/remote.md). 0 (the default) or an
     * unset option means the default given in brackets. The first request: the file's last
     * N bytes, which hold the footer of nearly every file [65536] */
    PQT_OPT_REMOTE_FOOTER_HINT = 22,
    /* ranges a read will need that lie at most this many bytes apart are fetched by one
     * request [1 MiB] ... */
    PQT_OPT_REMOTE_COALESCE_GAP = 23,
    /* ... of at most this many bytes [16 MiB] */
    PQT_OPT_REMOTE_COALESCE_MAX = 24,
    PQT_OPT_REMOTE_IN_FLIGHT = 25, /* requests at once [8] */
    /* a request that meets a 5xx, a timeout, a reset or a short body is repeated, with
     * exponential backoff, at most this many times (>= 0) [4] ... */
    PQT_OPT_REMOTE_RETRIES = 26,
    PQT_OPT_REMOTE_RETRY_MS = 27,   /* ... and never later than this after its first [10000] */
    PQT_OPT_REMOTE_TIMEOUT_MS = 28, /* one request, start to last byte [60000] */
    /* bytes fetched ahead and kept for reads, per open file [256 MiB] */
    PQT_OPT_REMOTE_CACHE_BYTES = 29
} pqt_opt;
/* 256 MiB: a double column of 32M survivors, more than one row group per thread of any
 * file, little next to the columns a table holds once read. */
#define PQT_FILTER_KEEP_BYTES_DEFAULT ((int64_t)256 << 20)

typedef enum pqt_share_by {
    PQT_SHARE_BYTES = 0, /* default: whole row groups, balanced by their compressed bytes */
    PQT_SHARE_ROWS = 1   /* exact row counts, cutting inside row groups */
} pqt_share_by;

/* Create options with defaults. *ret is owned by the caller; free with pqt_opts_free. */
PQT_API pqt_status pqt_opts_new(pqt_opts **ret);
PQT_API void pqt_opts_free(pqt_opts *opts);
/* Set an integer option. PQT_MISUSE for an unknown option or a value out of its range
 * (the message names the option and the value); a failed set leaves opts as it was.
 * PQT_OPT_ROW_LO and PQT_OPT_ROW_HI take rows >= 1: 0 or below is an error, not "unset";
 * a bound never set means the start / the end of the file. */
PQT_API pqt_status pqt_opts_set_int(pqt_opts *opts, pqt_opt opt, int64_t value);
/* Set a text option: PQT_OPT_FILTER adds one rule (copied; PQT_BAD_FILTER for a syntax error,
 * with the character); PQT_OPT_SORT appends sort keys (PQT_BAD_SORT, see docs/sort.md).
 * PQT_MISUSE for another option or a NULL value. A failed set leaves opts as it was. */
PQT_API pqt_status pqt_opts_set_str(pqt_opts *opts, pqt_opt opt, const char *value);
/* Set a floating-point option: PQT_OPT_SAMPLE_FRACTION. PQT_MISUSE (naming the option and
 * the value) for a negative or NaN fraction, or for an option that takes no double; a
 * failed set leaves opts as it was. */
PQT_API pqt_status pqt_opts_set_double(pqt_opts *opts, pqt_opt opt, double value);
/* Filter the rows a table open keeps (pqt_table_open: only rows for which every rule is TRUE).
 * opts takes a copy of filter's rules and sets (the filter may change or go afterwards); it
 * replaces the rules set before, PQT_OPT_FILTER ones included. NULL removes the filter.
 * Names and types are checked at open (PQT_BAD_FILTER), before any data is read. A rule whose
 * integer arithmetic overflows int64 on a row fails the open with PQT_RANGE, naming the
 * operands and the row (docs/filters.md, "Expressions"). */
typedef struct pqt_filter pqt_filter;
PQT_API pqt_status pqt_opts_set_filter(pqt_opts *opts, const pqt_filter *filter);
/* Quality-control rules a table open enforces (pqt_qc, below; docs/qc.md). opts takes a
 * copy (the qc object may change or go afterwards) and replaces the rules set before; NULL
 * removes them. Columns and bound types are checked at open. PQT_MISUSE for a NULL opts. */
typedef struct pqt_qc pqt_qc;
PQT_API pqt_status pqt_opts_set_qc(pqt_opts *opts, const pqt_qc *qc);
/* Sort the rows a table open keeps (docs/sort.md): keys is the text form of the sort keys
 * ("survey, -mass"; see PQT_SORT_MAX_KEYS for the grammar), replacing the keys set before
 * (PQT_OPT_SORT ones included); NULL or "" removes the sort. Parsed now: PQT_BAD_SORT with
 * the key and the reason. Column names and kinds are checked at open (PQT_BAD_SORT), before
 * any data is read. The filter runs first, the sort orders the survivors; a slice
 * (PQT_OPT_ROW_LO/HI) cannot be sorted (PQT_MISUSE at open, before the file is opened). */
PQT_API pqt_status pqt_opts_set_sort(pqt_opts *opts, const char *keys);
/* A read-in MAML describing the file a table open reads (docs/maml.md): a YAML sidecar giving
 * its columns units (fields: ... unit:) and table-level keys (pqt_table_maml_value).
 * pqt_opts_set_maml reads the file at path, pqt_opts_set_maml_text takes the text (copied);
 * both parse and validate now and replace the MAML set before; NULL removes it. Errors:
 * PQT_BAD_MAML with every problem found, each with its line (unknown section or field key,
 * a line over 1024 characters, a duplicated field or remap name, a bad col_size, array_size
 * or qc bound, protected_cols naming no field, YAML syntax), also for a file over 16 MiB
 * (refused by its size, unread); PQT_IO when path cannot be read; PQT_MISUSE for a NULL
 * opts. A failed set leaves opts as it was. What needs the file (a remap target it lacks, a
 * remap to the name parquet_row_index) is checked at open, before any data is read
 * (PQT_BAD_MAML). Not supported yet (a table open refuses them with PQT_UNSUPPORTED rather
 * than ignore them): non-empty extra: filter:, extra: sort: and fields: qc:. */
PQT_API pqt_status pqt_opts_set_maml(pqt_opts *opts, const char *path);
PQT_API pqt_status pqt_opts_set_maml_text(pqt_opts *opts, const char *text);
/* Validate the MAML at maml_path alone (parquet_path NULL) or against the parquet file at
 * parquet_path, listing every problem: *report_ret (free with pqt_free; NULL when there is
 * none) holds one "line N: what" per line and *nproblems_ret their count. Returns PQT_OK
 * when there is no problem, PQT_BAD_MAML when there are (message: the first ones), PQT_IO
 * or the open errors of the parquet file, PQT_MISUSE for NULL arguments. */
PQT_API pqt_status pqt_maml_check_alloc(const char *maml_path, const char *parquet_path,
                                        char **report_ret, int *nproblems_ret);

/* ------------------------------------------------------------------------------------------
 * Tables: open, close, copy. The lazy table.
 *
 * pqt_table_open reads the footer and schema only; every column's values are read the
 * first time something needs them (residency PQT_RES_EMPTY -> PQT_RES_FULL), each column
 * allocated once at the table's row count with every covering row group decoded straight
 * into its place. Rules that hold for every pqt_table_* call unless its contract says
 * otherwise:
 *  - Rows are 1-based in the table's own numbering (a slice counts from its row_lo).
 *    Column positions (pqt_table_column_name) are 0-based, like pqt_file_* columns.
 *  - A call naming a column that the table does not have returns PQT_NOT_FOUND (a status of
 *    its own, so it can be tested without reading the message) and changes nothing.
 *  - A failed call changes nothing: the table, its columns and the out-parameters are as
 *    they were.
 *  - Threads: one thread at a time may use a table, with one exception. Inside an OpenMP
 *    parallel region, a table opened OUTSIDE the region may be read by every thread as long
 *    as what they read is resident (get, column views, is_null, element access, queries).
 *    Anything that would change it there -- a first touch of a column, the first request for
 *    the row index, measuring a LIST width, any structural change -- is refused with
 *    PQT_PARALLEL and a message naming pqt_table_prefetch: prefetch before the region. A
 *    table opened inside the region belongs to the thread that opened it and is not
 *    restricted. Different tables may be used concurrently from different threads.
 *    Threads of any other kind (pthreads, C11 threads) sharing one table get the same
 *    protection for overlapping changes: while one thread makes a column resident, builds
 *    the row index, measures a LIST width or makes a structural change, another thread's
 *    change or first touch is refused with PQT_PARALLEL (the same message), never answered
 *    with wrong data; a column another thread has made resident is read whole. What is not
 *    detected is a change that STARTS while another thread is inside a read: prefetch, and
 *    finish changes, before sharing a table.
 *  - "Structural change": add/drop/keep/rename/copy/cast/set (all forms)/append/sort_by/
 *    delete_rows/truncate/evict/reload, the first request for the row index, a set_null that
 *    has to allocate a null bitmap or that nulls a list row holding elements, a write into
 *    (or a view of) a column whose arrays an Arrow export still reads: the table moves to a
 *    copy of its own (copy on write, pqt_arrow.h). Each bumps
 *    pqt_table_generation() and ends the life of column views; a call that changes nothing
 *    bumps nothing.
 *  - Detached: a change of the row set (sort_by that moves rows, append of rows,
 *    delete_rows/truncate that remove rows) cuts the table loose from its file. Resident
 *    columns stay; reading a never-read column, building the row index and row_group_bounds
 *    are then PQT_DETACHED errors saying so.
 *  - Ownership: the table owns everything it hands out by pointer (names, units, views,
 *    strings); those live until the next structural change or pqt_table_close. Memory a
 *    *_alloc call returns belongs to the caller and is freed with pqt_free. Copies into
 *    caller buffers are sized by a query (pqt_table_get_nbytes, pqt_table_get_sizes); a
 *    buffer that is too small is PQT_MISUSE naming the size needed, and nothing is written.
 *  - Errors every by-name call can give besides its own: PQT_NOT_FOUND (no such column),
 *    PQT_MISUSE (NULL table or name), and -- for calls that read values -- the read errors of
 *    a first touch (PQT_IO, PQT_CORRUPT*, PQT_UNSUPPORTED_*, PQT_NOMEM, PQT_QC for a column
 *    breaking its qc rule: docs/qc.md), PQT_DETACHED and PQT_PARALLEL as described above.
 * ------------------------------------------------------------------------------------------ */
typedef struct pqt_table pqt_table;

/* The reserved name of the row-index column. */
#define PQT_ROW_INDEX "parquet_row_index"

/* Residency of a column (PQT_RES_PARTIAL is reserved and never returned). */
typedef enum pqt_residency { PQT_RES_EMPTY = 0, PQT_RES_PARTIAL = 1, PQT_RES_FULL = 2 } pqt_residency;

/* Open path as a lazy table; reads the footer and schema only. opts may be NULL. Options
 * used: PQT_OPT_THREADS (threads for decoding several row groups or columns at once: 0 =
 * all cores, 1 = none; inside a parallel region a table decodes on its own thread),
 * PQT_OPT_VERIFY_CRC, PQT_OPT_BINARY_AS_STRING, PQT_OPT_INT96_UNIT, and the slice
 * PQT_OPT_ROW_LO/PQT_OPT_ROW_HI
 * (1-based, inclusive; setting either one makes a slice, the other defaulting to 1 / the
 * last row; neither set: the whole file). A slice reads only the row groups covering it.
 * PQT_OPT_FILTER, then PQT_OPT_SAMPLE_FRACTION/PQT_OPT_SAMPLE_SEED, narrow the rows further
 * (a row is kept when it passes both; docs/sampling.md).
 * *ret is owned by the caller: free with pqt_table_close.
 * Errors: PQT_RANGE when row_hi is past the file's last row or row_lo > row_hi (a bound
 * below 1 is refused when it is set: pqt_opts_set_int);
 * the message names the range asked for and the file's row count (nothing is clamped);
 * PQT_IO, PQT_CORRUPT*, PQT_UNSUPPORTED_ENCRYPTED as for pqt_file_open; PQT_NOMEM.
 * With qc rules (pqt_opts_set_qc, PQT_OPT_QC_SOFT; docs/qc.md): PQT_NOT_FOUND, PQT_KIND or
 * PQT_UNSUPPORTED_TYPE for a rule that does not fit the file, and PQT_QC when a column the
 * filter reads at open breaks its rule (hard mode). */
PQT_API pqt_status pqt_table_open(const char *path, const pqt_opts *opts, pqt_table **ret);
/* Datasets (docs/datasets.md): pqt_table_open also takes a directory (every *.parquet file
 * below it, in sorted path order; names starting with '.' or '_' skipped), a glob ('*', '?',
 * '[...]', '**'), a hive folder (key=value directories become columns, PQT_OPT_HIVE) or a
 * HATS catalogue, read as one table: rows numbered 1..N across the files in that order,
 * parquet_row_index the row within its own file, the virtual column parquet_file (the path
 * relative to the dataset's root). A filter prunes files by their partition values before
 * any of their footers is read. Errors besides pqt_table_open's name the file:
 * PQT_NOT_FOUND (nothing matched), PQT_SCHEMA_MISMATCH (two files disagree on a column;
 * PQT_OPT_UNION_BY_NAME reads a column a file lacks as nulls there).
 * pqt_table_open_files opens the n files of paths (n >= 1) in that order as one dataset. */
PQT_API pqt_status pqt_table_open_files(const char *const *paths, int64_t n,
                                        const pqt_opts *opts, pqt_table **ret);
/* pqt_table_open over a file in memory or behind a descriptor, with the contracts of
 * pqt_file_open_mem and pqt_file_open_fd (the memory must outlive the table and every clone
 * of it; the descriptor is duplicated). Clones share the bytes or the descriptor. */
PQT_API pqt_status pqt_table_open_mem(const void *data, size_t nbytes, const char *name,
                                      const pqt_opts *opts, pqt_table **ret);
PQT_API pqt_status pqt_table_open_fd(int fd, const char *name, const pqt_opts *opts,
                                     pqt_table **ret);

/* An empty in-memory table: no file, no row index, no row groups. The first
 * pqt_table_add_column fixes its row count. *ret is owned by the caller: free with
 * pqt_table_close. Errors: PQT_MISUSE (ret NULL), PQT_NOMEM. */
PQT_API pqt_status pqt_table_new(pqt_table **ret);

/* Free the table, its values and its file handle. NULL is a no-op; never fails. Views,
 * names and strings obtained from t end here; memory from *_alloc calls does not (it is
 * the caller's). Not while another thread uses t. */
PQT_API void pqt_table_close(pqt_table *t);

/* Deep copy of t into *ret (caller frees with pqt_table_close). Resident columns are
 * copied; unread columns stay lazy: the clone reopens the file with the same options and
 * the same read plan, so they come back with the same rows. A detached table gives a
 * detached clone. Units, casts and the row index (built or still virtual) carry over.
 * Errors: PQT_IO etc. if the file cannot be reopened, PQT_NOMEM; PQT_PARALLEL (inside a
 * region on a shared table, since reopening is I/O the region did not plan). */
PQT_API pqt_status pqt_table_clone(const pqt_table *t, pqt_table **ret);

/* Rows row_lo..row_hi (1-based, inclusive) of the columns names[0..n) of t as a new
 * in-memory table *ret (caller frees with pqt_table_close), in the order named (a name
 * given twice is one column), with their kinds, widths, units, time units and nulls. Only
 * those rows are copied, so a streaming writer can take one row of a large table
 * (pqt_writer_write of the copy) without a copy of the whole table. A named column t has
 * not read is read first and stays resident, as a get would leave it; "parquet_row_index"
 * builds the row index. One exception: when a named column is a DECIMAL still as read from
 * t's file and t is in file order (a writer writes such a column from the file's exact
 * values, which a copy would not have), *ret is instead pqt_table_clone of t narrowed to the
 * rows (pqt_table_filter_rows_mask): every column, still attached to the file, with t's
 * resident columns copied whole first. Errors: PQT_RANGE (naming the rows and the table's count) unless
 * 1 <= row_lo <= row_hi <= nrows; PQT_NOT_FOUND naming every missing name; read errors as
 * for a first read; PQT_MISUSE for NULL t or ret, n < 0, or names NULL with n > 0.
 * On failure *ret is unchanged and t keeps what the call read. */
PQT_API pqt_status pqt_table_copy_rows(pqt_table *t, const char *const *names, int n,
                                       int64_t row_lo, int64_t row_hi, pqt_table **ret);

/* ------------------------------------------------------------------------------------------
 * Tables: shape, columns, metadata and residency (none of the queries reads values).
 * ------------------------------------------------------------------------------------------ */
/* -- Queries that read nothing (NULL t gives 0 / NULL). -- */
/* Rows every column holds. */
PQT_API int64_t pqt_table_nrows(const pqt_table *t);
/* Rows before any read-time transform (filter, sample): the slice's length or the file's
 * rows; captured at open and kept after a detach. 0 for an in-memory table. */
PQT_API int64_t pqt_table_nrows_unfiltered(const pqt_table *t);
/* The sample the table was opened with (docs/sampling.md), settled at open: the fraction
 * in effect (1.0 when no sample was asked for or the fraction was >= 1; 0.0 for a NULL t)
 * and the seed the draw used when 0 < fraction < 1 -- the one given
 * (PQT_OPT_SAMPLE_SEED > 0) or the one drawn -- else 0 (nothing is drawn). Opening the file again with this fraction
 * and seed keeps the same rows; a clone keeps them too. */
PQT_API double pqt_table_sample_fraction(const pqt_table *t);
PQT_API int64_t pqt_table_sample_seed(const pqt_table *t);
/* Rows held by the row groups covering the table (what reading a column costs); 0 for an
 * in-memory table. */
PQT_API int64_t pqt_table_row_group_extent(const pqt_table *t);
/* Columns in slots (file order, then added columns; the row index is counted only once it
 * has been requested, and is then listed last at the time it was built). */
PQT_API int pqt_table_ncols(const pqt_table *t);
/* Name of column i (0-based); NULL when out of range. Valid until the next structural
 * change. */
PQT_API const char *pqt_table_column_name(const pqt_table *t, int i);
/* 1 when `name` can be used: a slot, or the row index of a file-backed attached table that
 * has not dropped it (before it is built, while ncols does not count it). 0 otherwise. */
PQT_API int pqt_table_has_column(const pqt_table *t, const char *name);
/* Position (0-based, as for pqt_table_column_name) of a column. PQT_NOT_FOUND for a missing
 * name, and for the row index before it is built (it has no position until then). Reads
 * nothing; valid until the next structural change. */
PQT_API pqt_status pqt_table_column_index(const pqt_table *t, const char *name, int *index_ret);
/* PQT_OK when every one of names[0..n) can be used (pqt_table_has_column); otherwise
 * PQT_NOT_FOUND with a message naming every missing one. Reads nothing. */
PQT_API pqt_status pqt_table_require_columns(const pqt_table *t, const char *const *names,
                                             int n);
/* Kind (pqt_kind with PQT_VECTOR/PQT_LIST flag; PQT_NONE for an unreadable column) and
 * width (1 scalar, w vector, 0 list). For a variable-length LIST column not yet measured,
 * these two MAY READ: the footer of the covering row groups first, then a scan of those row
 * groups one at a time (a slice measures over its own row groups); nothing stays resident.
 * The row index reads as PQT_INT64. Errors: PQT_NOT_FOUND; PQT_PARALLEL when a measurement
 * is needed inside a region on a shared table; read errors of the scan. */
PQT_API pqt_status pqt_table_kind(pqt_table *t, const char *name, int *kind_ret);
PQT_API pqt_status pqt_table_width(pqt_table *t, const char *name, int *width_ret);
/* Time unit (pqt_time_unit) of a TIME/TIMESTAMP column, -1 for other kinds. PQT_NOT_FOUND. */
PQT_API pqt_status pqt_table_time_unit(const pqt_table *t, const char *name, int *unit_ret);
/* Physical unit of the column ("" when none; "m/s" from add_column). *unit_ret lives until
 * the next structural change. PQT_NOT_FOUND. */
PQT_API pqt_status pqt_table_unit(const pqt_table *t, const char *name, const char **unit_ret);
/* PQT_RES_FULL once read (or created in memory), else PQT_RES_EMPTY (also for unreadable
 * columns and for the row index before it is built). PQT_NOT_FOUND. */
PQT_API pqt_status pqt_table_residency(const pqt_table *t, const char *name, int *res_ret);
/* 1 when the column's type can be read (a LIST of readable elements counts, ragged or not),
 * 0 for MAP/INTERVAL/binary/... columns, which keep a slot but hold no values. */
PQT_API pqt_status pqt_table_is_supported(const pqt_table *t, const char *name, int *ret);
/* Whether the column may hold nulls, without reading: *ret 0 means none for certain, 1 means
 * there are some (resident column: exact -- a null element or a null list row) or there may
 * be some (unread column: from the footer, 1 unless the column is required or every covering
 * chunk's statistics count zero nulls; an empty list may count as a null there). The row
 * index answers 0. PQT_NOT_FOUND. */
PQT_API pqt_status pqt_table_has_nulls(const pqt_table *t, const char *name, int *ret);
/* Source file path (for a table opened from memory or a descriptor, the name given at open),
 * "" for an in-memory table. Lives as long as t. */
PQT_API const char *pqt_table_filename(const pqt_table *t);
/* Value of a key of the file's key-value metadata (snapshot at open; answers after a
 * detach). *value_ret lives as long as t. Errors: PQT_NOT_FOUND for an absent key (no
 * message set); PQT_MISUSE for an in-memory table. */
PQT_API pqt_status pqt_table_meta_value(const pqt_table *t, const char *key,
                                        const char **value_ret);
/* Value of a table-level key of the MAML the table was opened with (pqt_opts_set_maml; keys
 * case-insensitive: "table", "survey", "Author"); a list of values answers them joined with
 * ";". *value_ret lives as long as t. PQT_NOT_FOUND (no message) when the table has no MAML,
 * the key is absent or holds a block rather than values; PQT_MISUSE for NULL arguments. */
PQT_API pqt_status pqt_table_maml_value(const pqt_table *t, const char *key,
                                        const char **value_ret);
/* A fields: key of the MAML entry for column `name` (the table's name; the entry is found by
 * the file column it reads): key "info", "ucd" (a list joined with ";") or "data_type",
 * case-insensitive, as written in the MAML. *value_ret lives as long as t. Reads nothing.
 * PQT_NOT_FOUND with a message for a column t lacks; PQT_NOT_FOUND without one when the
 * table has no MAML, the column has no entry (or reads no file column) or the entry lacks
 * the key; PQT_MISUSE for NULL arguments or another key. */
PQT_API pqt_status pqt_table_maml_field_value(const pqt_table *t, const char *name,
                                              const char *key, const char **value_ret);
/* The file column that column `name` (the table's name) reads: its path in the file, which
 * differs from name for a column remapped by a MAML (extra: remap:) or renamed. *path_ret
 * lives as long as t. Reads nothing. PQT_NOT_FOUND with a message for a column t lacks;
 * PQT_NOT_FOUND without one for a column read from no file (added, copied, the row index, or
 * any column of an in-memory table); PQT_MISUSE for NULL arguments. */
PQT_API pqt_status pqt_table_file_column(const pqt_table *t, const char *name,
                                         const char **path_ret);
/* 1 when the table has detached from its file (see above). */
PQT_API int pqt_table_is_detached(const pqt_table *t);
/* Counter bumped by every structural change. A view taken at generation g is valid while
 * pqt_table_generation(t) == g. */
PQT_API uint64_t pqt_table_generation(const pqt_table *t);

/* One entry per physical row group of the file, index-aligned with pqt_row_group_bounds:
 * *bounds_ret holds 2 * *n_ret int64 (lo, hi per row group), caller frees with pqt_free.
 * physical != 0: the file's own rows (the planning form). physical == 0: this table's own
 * row numbering; a row group that contributes no rows gets an empty range (lo > hi, lo being
 * the row the next contributing group starts at). Reads nothing.
 * Errors: PQT_MISUSE for an in-memory table (it has no row groups) and for the default form
 * on a table whose rows are permuted by a read-time sort; PQT_DETACHED for a detached table;
 * each message names the table's file and why. */
PQT_API pqt_status pqt_table_row_group_bounds(const pqt_table *t, int physical,
                                              int64_t **bounds_ret, int *n_ret);

/* Datasets (docs/datasets.md): the files a table reads (1 for a table over one file, 0 in
 * memory), file i's path relative to the dataset's root (1-based; the path itself for one
 * file; NULL out of range), and where physical row group rg (1-based, as the bounds number
 * them) lives: *file_ret its file (1-based) and *rg_in_file_ret its row group within that
 * file (1-based). Files pruned at open read no row group. Errors: PQT_MISUSE (in-memory
 * table, NULL), PQT_RANGE for rg outside 1..the row groups. */
PQT_API int64_t pqt_table_nfiles(const pqt_table *t);
PQT_API const char *pqt_table_file_name(const pqt_table *t, int64_t i);
PQT_API pqt_status pqt_table_row_group_file(const pqt_table *t, int rg, int64_t *file_ret,
                                            int *rg_in_file_ret);

/* First and last row (1-based, inclusive) of every row group, from the footer alone.
 * *bounds_ret holds 2 * n entries (lo, hi per row group); free with pqt_free. */
PQT_API pqt_status pqt_row_group_bounds(const char *path, int64_t **bounds_ret, int *n_ret);

/* -- Residency control. -- */
/* Read the named columns now, in one pass, decoding them in parallel across columns (and
 * across row groups for a single column) as PQT_OPT_THREADS allows. Resident columns are
 * skipped (no I/O). PQT_ROW_INDEX among the names builds the row index. All names are
 * checked first (PQT_NOT_FOUND names the first missing one); on any failure no column
 * becomes resident. Call it before a parallel region that shares the table. */
PQT_API pqt_status pqt_table_prefetch(pqt_table *t, const char *const *names, int n);
/* Read every column not yet read (not the row index, which is never created by this). Skips
 * unreadable columns. PQT_DETACHED if a never-read column can no longer be read. */
PQT_API pqt_status pqt_table_materialize_all(pqt_table *t);
/* Re-read a column from the file, discarding what is in memory (every call re-reads; a cast
 * column is re-read into its cast kind). Refused (PQT_MISUSE) for columns made in memory
 * (add/copy, the row index) and, unless force != 0, for columns holding values the caller
 * wrote (set, set_null, clear_null); PQT_DETACHED on a detached table. */
PQT_API pqt_status pqt_table_reload(pqt_table *t, const char *name, int force);
/* Drop a column's values, keep its slot (residency back to EMPTY; the next touch re-reads).
 * A no-op for a column not resident. Refused like reload (force for caller-written values). */
PQT_API pqt_status pqt_table_evict(pqt_table *t, const char *name, int force);

/* ------------------------------------------------------------------------------------------
 * Tables: reading values (copies, views, elements, exact decimals, lists of lists).
 * ------------------------------------------------------------------------------------------ */
/* -- Reaching values. Every call here reads the column first if it is not resident (a first
 * touch), with PQT_UNSUPPORTED_TYPE for unreadable columns and PQT_DETACHED for a never-read
 * column of a detached table. -- */

/* Bytes pqt_table_get needs for the column's values as element kind to_kind (0 = the stored
 * kind): nrows * width * element size. Fixed-width scalars and vectors only (PQT_KIND for
 * strings and lists: see pqt_table_get_sizes). Reads nothing except a LIST width
 * measurement. */
PQT_API pqt_status pqt_table_get_nbytes(pqt_table *t, const char *name, int to_kind,
                                        size_t *nbytes_ret);
/* Copy the column's values (nrows * width elements, row-major: row i's elements together,
 * so a vector column comes out as width x nrows) into caller memory dst of dst_nbytes bytes, as element kind to_kind: 0 or the stored
 * element kind, or a widening int32 -> int64, float32 -> float64, or uint64 -> int64 when
 * every copied value fits (checked before anything is written: PQT_OVERFLOW names the
 * column, the 1-based row and the value, and dst is untouched; a uint64 column goes to
 * float64 only through pqt_table_cast). The same rules hold for every copy call below
 * (get_alloc, get_rows, get_range, get_value, get_list). Null elements copy as 0.
 * validity (may be NULL) receives one bit per element, LSB first, 1 = present, and must
 * hold validity_nbytes >= (nelem + 7) / 8. Errors: PQT_KIND (strings/lists, or a conversion
 * that is not a widening; names the stored kind), PQT_MISUSE (buffer too small, naming the
 * size needed), PQT_NOT_FOUND.
 * A column never read before, copied in its stored kind (a fixed-width scalar column; of a
 * table sorted at open, straight into sorted position), is decoded straight into dst and
 * stays unread (residency PQT_RES_EMPTY): the column is held once, in dst. If that read fails, dst holds partial values and the
 * table is unchanged. Any other copy reads the column into the table first (a first touch). */
PQT_API pqt_status pqt_table_get(pqt_table *t, const char *name, int to_kind, void *dst,
                                 size_t dst_nbytes, uint8_t *validity, size_t validity_nbytes);
/* Same, into memory the library allocates: *data_ret (free with pqt_free), *validity_ret
 * (may be NULL; set to NULL when no element is null, else free with pqt_free), *nelem_ret
 * (may be NULL) elements. A never-read column in its stored kind is decoded straight into
 * *data_ret and stays unread, as for pqt_table_get. Any other never-read column (a vector,
 * uint64 given as int64, a widening, a column converted at open) is read once for the call
 * and stays unread too: the table keeps nothing, and in the stored element kind the read's
 * own memory is what *data_ret (and *validity_ret) receive, without a second copy. */
PQT_API pqt_status pqt_table_get_alloc(pqt_table *t, const char *name, int to_kind,
                                       void **data_ret, uint8_t **validity_ret,
                                       int64_t *nelem_ret);
/* Copy the given rows (1-based, any order, duplicates allowed) of a fixed-width column, as
 * pqt_table_get does for the whole column: n * width elements. PQT_RANGE for a row outside
 * 1..nrows (names it). */
PQT_API pqt_status pqt_table_get_rows(pqt_table *t, const char *name, const int64_t *rows,
                                      int64_t n, int to_kind, void *dst, size_t dst_nbytes,
                                      uint8_t *validity, size_t validity_nbytes);
/* Copy rows lo..hi (1-based, inclusive, lo <= hi) of a fixed-width column, as pqt_table_get
 * does for the whole column: (hi - lo + 1) * width elements, validity bits from bit 0.
 * PQT_RANGE (naming the range and the table's rows) unless 1 <= lo <= hi <= nrows. */
PQT_API pqt_status pqt_table_get_range(pqt_table *t, const char *name, int64_t lo, int64_t hi,
                                       int to_kind, void *dst, size_t dst_nbytes,
                                       uint8_t *validity, size_t validity_nbytes);

/* Sizes of a copy of any readable column: *nelem_ret elements (scalars: nrows; vectors:
 * nrows * width; lists: elements over all rows; strings: strings, counting every element
 * of a vector/list of strings) and *str_nbytes_ret bytes of string data (non-null strings
 * only; 0 for other kinds). Either pointer may be NULL. Fixed-width scalars and vectors are
 * answered from the schema; strings and lists read the column (their sizes are in the
 * values). PQT_UNSUPPORTED_TYPE for an unreadable column. */
PQT_API pqt_status pqt_table_get_sizes(pqt_table *t, const char *name, int64_t *nelem_ret,
                                       int64_t *str_nbytes_ret);
/* Copy the strings of a string column (scalar, vector or list of strings; one entry per
 * element, in row order): offsets receives nelem + 1 byte offsets starting at 0 (noffsets
 * entries available), bytes the concatenated UTF-8 (bytes_nbytes available, not
 * terminated), validity (may be NULL) one bit per string, LSB first, 1 = present. A null
 * string is an empty range. Sizes from pqt_table_get_sizes. Errors: PQT_KIND for a
 * non-string column; PQT_MISUSE for a buffer too small (naming the size needed). */
PQT_API pqt_status pqt_table_get_strings(pqt_table *t, const char *name, int64_t *offsets,
                                         int64_t noffsets, char *bytes, size_t bytes_nbytes,
                                         uint8_t *validity, size_t validity_nbytes);
/* Same, into memory the library allocates (each freed with pqt_free): *offsets_ret
 * (nelem + 1), *bytes_ret (NUL-terminated after the last string, so a single string column
 * can be printed directly), *validity_ret (may be NULL; set to NULL when no string is
 * null), *nelem_ret (may be NULL). A never-read column is read once for the call and stays
 * unread (residency PQT_RES_EMPTY): its offsets, bytes and validity as read are what the
 * call returns, so the strings are held once, by the caller. */
PQT_API pqt_status pqt_table_get_strings_alloc(pqt_table *t, const char *name,
                                               int64_t **offsets_ret, char **bytes_ret,
                                               uint8_t **validity_ret, int64_t *nelem_ret);
/* Copy a list (or vector) column: offsets receives nrows + 1 element offsets starting at 0
 * (noffsets entries available), dst the elements (offsets[nrows] of them) as element kind
 * to_kind with the widening rules of pqt_table_get (nulls as 0), validity one bit per
 * element, row_validity one bit per row (1 = the list is present; a null list row has no
 * elements; vectors have no null rows). dst, validity and row_validity may each be NULL to
 * skip them. For a list of strings dst must be NULL: the offsets here and the strings from
 * pqt_table_get_strings together describe it. Errors: PQT_KIND for a scalar column or a
 * conversion that is not a widening; PQT_MISUSE for a buffer too small. */
PQT_API pqt_status pqt_table_get_list(pqt_table *t, const char *name, int to_kind,
                                      int64_t *offsets, int64_t noffsets, void *dst,
                                      size_t dst_nbytes, uint8_t *validity,
                                      size_t validity_nbytes, uint8_t *row_validity,
                                      size_t row_validity_nbytes);
/* Same, into memory the library allocates (each freed with pqt_free): *offsets_ret
 * (nrows + 1, required), *data_ret (may be NULL to skip; must be NULL for strings),
 * *validity_ret and *row_validity_ret (may be NULL; set to NULL when nothing is null),
 * *nelem_ret (may be NULL). */
PQT_API pqt_status pqt_table_get_list_alloc(pqt_table *t, const char *name, int to_kind,
                                            int64_t **offsets_ret, void **data_ret,
                                            uint8_t **validity_ret, uint8_t **row_validity_ret,
                                            int64_t *nelem_ret);

/* A zero-copy view of a column's storage. Set struct_size = sizeof(pqt_column_view) before
 * the call (fields past the caller's size are not written, so old callers keep working).
 * Pointers point into the table and are valid until the next structural change (compare
 * generation with pqt_table_generation) or pqt_table_close. Writing through them is allowed
 * for fixed-width data but is not tracked as "caller-written" (reload will not ask for
 * force). */
typedef struct pqt_column_view {
    size_t struct_size;
    int kind;                    /* pqt_kind with flags */
    int width;                   /* 1 scalar, w vector, 0 list */
    int time_unit;               /* pqt_time_unit or -1 */
    int64_t nrows;
    int64_t nelem;               /* elements in data (nrows * width; list: list_offsets[nrows]) */
    const void *data;            /* nelem elements of the element kind; NULL for strings */
    const uint8_t *validity;     /* per element, LSB first, 1 = present; NULL = none null */
    const uint8_t *row_validity; /* lists: per row; NULL = no row null */
    const int64_t *str_offsets;  /* strings: nelem + 1 byte offsets into str_bytes */
    const char *str_bytes;       /* strings: UTF-8, not terminated */
    const int64_t *list_offsets; /* vectors and lists: nrows + 1 element offsets */
    const char *unit;            /* "" when none */
    uint64_t generation;         /* pqt_table_generation when the view was taken */
} pqt_column_view;

/* Fill *view for column name (reads it first if needed). expect_kind: 0 accepts any kind;
 * otherwise it must equal the stored kind exactly (flags included) -- a view never
 * converts -- else PQT_KIND naming the stored kind. PQT_MISUSE when struct_size is smaller
 * than the fields up to generation. */
PQT_API pqt_status pqt_table_column(pqt_table *t, const char *name, int expect_kind,
                                    pqt_column_view *view);

/* Null test of row `row` (1-based): elem 0 asks about the row (a null list row, or any
 * null element), elem >= 1 about that element of a vector/list row. *is_null_ret is 1/0.
 * PQT_RANGE for a row or element outside the column. */
PQT_API pqt_status pqt_table_is_null(pqt_table *t, const char *name, int64_t row, int elem,
                                     int *is_null_ret);
/* One element of a fixed-width column: row (1-based), elem (1-based within a vector/list
 * row; 0 or 1 for scalars) copied into dst (dst_nbytes >= element size of to_kind) with
 * the widening rules of pqt_table_get; a null element writes 0 and sets *is_null_ret
 * (may be NULL). PQT_RANGE, PQT_KIND, PQT_NOT_FOUND. */
PQT_API pqt_status pqt_table_get_value(pqt_table *t, const char *name, int64_t row, int elem,
                                       int to_kind, void *dst, size_t dst_nbytes,
                                       int *is_null_ret);
/* One string of a string column: *ptr_ret points into the table (not NUL-terminated; valid
 * like a view), *len_ret its bytes; a null gives ptr "" and len 0 and *is_null_ret 1. elem as
 * for pqt_table_get_value (lists of strings). PQT_KIND for non-string columns. */
PQT_API pqt_status pqt_table_get_string(pqt_table *t, const char *name, int64_t row, int elem,
                                        const char **ptr_ret, int64_t *len_ret, int *is_null_ret);

/*
 * Exact decimals. A DECIMAL column (logical or converted type DECIMAL on INT32, INT64,
 * FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY) reads as float64 -- the double nearest each value --
 * everywhere else in this API. These calls give its exact values: the unscaled integers u,
 * value = u / 10^scale (pqt_format_decimal prints them). pqt_file.h has the same for a
 * pqt_file (pqt_file_column_decimal, pqt_file_read_decimal).
 *
 * pqt_table_decimal: *precision_ret and *scale_ret (either may be NULL) of a DECIMAL
 * column. PQT_KIND (with a message) for a column that is not a decimal -- a cheap test;
 * PQT_NOT_FOUND for a missing column. A table column keeps answering after a rename; a
 * cast, copy or caller-written column is no longer a decimal (PQT_KIND).
 *
 * pqt_table_get_decimal_alloc: every unscaled value of a table's DECIMAL column, in the
 * table's rows (slice and read-time order included), into memory the library allocates:
 * *data_ret (pqt_free; nelem elements of *kind_ret, PQT_INT64 (precision <= 18) or
 * PQT_INT128 (19..38), row-major like pqt_table_get), *validity_ret (may be NULL; NULL when
 * nothing is null, else pqt_free), *nelem_ret and *kind_ret (may be NULL). List columns give
 * their elements (use pqt_table_get_list for the offsets). The values are read from the file
 * each call (the resident float64s are not used: they are rounded). Errors: PQT_KIND (not a
 * decimal, or no longer one), PQT_DETACHED (the table has detached from its file),
 * PQT_UNSUPPORTED_TYPE (precision > 38), read errors, PQT_NOMEM.
 */
PQT_API pqt_status pqt_table_decimal(pqt_table *t, const char *name, int *precision_ret,
                                     int *scale_ret);
PQT_API pqt_status pqt_table_get_decimal_alloc(pqt_table *t, const char *name, void **data_ret,
                                               uint8_t **validity_ret, int64_t *nelem_ret,
                                               int *kind_ret);

/*
 * A list of lists of a primitive type (list<list<T>>, list<list<list<T>>>, ... written as
 * standard 3-level LISTs: DuckDB's INTEGER[][], Arrow's list<list<int32>>, Spark's
 * array<array<int>>) is listed with kind PQT_NONE ("list of lists") and read with the calls
 * below, one offsets array per level. Levels count from the outside: level 0 is each row's
 * own list, level nlevels - 1 the innermost lists, which hold the values. For level k,
 * pqt_nested_list_count(n, k) lists (level 0: the rows read) have count + 1 offsets:
 * list i of level k holds items offsets[i] .. offsets[i + 1] - 1 of level k + 1 (lists), or
 * of the values for the innermost level. Nulls: a null list has no item and its bit in
 * pqt_nested_list_list_validity(n, k) is 0 (an empty list's is 1); a null value holds 0
 * and its bit in pqt_nested_list_validity is 0. Bitmaps are LSB first (bit i of byte i / 8)
 * and NULL when nothing at that level is null. Example, INTEGER[][] rows
 * [[1, 2], [3]], NULL, [], [[], NULL, [4, NULL]]:
 *     level 0: count 4, offsets 0 2 2 2 5, validity 1 0 1 1
 *     level 1: count 5, offsets 0 2 3 3 3 5, validity 1 1 1 0 1
 *     values 1 2 3 4 0 (nvalues 5), validity 1 1 1 1 0
 */
typedef struct pqt_nested_list pqt_nested_list;

/* The same for list-of-lists column `name` of a table opened from a file, over the table's
 * rows (never made resident: every call reads the file). Errors: PQT_MISUSE (NULL
 * argument), PQT_NOT_FOUND (no such column, naming the closest), PQT_KIND (not a list of
 * lists), PQT_DETACHED (the table's rows changed after open), PQT_UNSUPPORTED (a table
 * filtered, sampled or sorted at open: its rows are not a slice of the file's; read them
 * with pqt_file_read_nested_list), and pqt_file_read_nested_list's errors. */
PQT_API pqt_status pqt_table_get_nested_list(pqt_table *t, const char *name,
                                             pqt_nested_list **ret);
/* Free n; NULL is a no-op. */
PQT_API void pqt_nested_list_free(pqt_nested_list *n);
/* Levels of n (0 for NULL) and the element kind of its values (PQT_INT32, PQT_FLOAT64, ...). */
PQT_API int pqt_nested_list_nlevels(const pqt_nested_list *n);
PQT_API int pqt_nested_list_kind(const pqt_nested_list *n);
/* Lists at level (0 .. nlevels - 1; level 0: rows), -1 for a level out of range. */
PQT_API int64_t pqt_nested_list_count(const pqt_nested_list *n, int level);
/* count + 1 offsets of the lists at level (see above); NULL for a level out of range. Owned
 * by n. */
PQT_API const int64_t *pqt_nested_list_offsets(const pqt_nested_list *n, int level);
/* Bitmap of the lists at level, 1 = present (not null); NULL when none is null or level is
 * out of range. Owned by n. */
PQT_API const uint8_t *pqt_nested_list_list_validity(const pqt_nested_list *n, int level);
/* Values of the innermost lists: nvalues of the element kind (null values hold 0), and their
 * bitmap (1 = present; NULL when none is null). Owned by n. */
PQT_API int64_t pqt_nested_list_nvalues(const pqt_nested_list *n);
PQT_API const void *pqt_nested_list_values(const pqt_nested_list *n);
PQT_API const uint8_t *pqt_nested_list_validity(const pqt_nested_list *n);

/* ------------------------------------------------------------------------------------------
 * Tables: changing columns and rows.
 * ------------------------------------------------------------------------------------------ */
/* -- Changing a table. All of these are structural changes (see above) and are refused
 * with PQT_PARALLEL inside a region on a shared table. -- */

/* Add a column with values copied from the caller: kind is a fixed-width element kind,
 * optionally | PQT_VECTOR with width w > 1 (width must be 1 otherwise); data holds
 * nrows * width elements; validity (NULL = no nulls) one bit per element, LSB first.
 * TIME/TIMESTAMP columns get PQT_UNIT_MICROS. unit may be NULL or "" (none). The first column
 * of an in-memory table fixes nrows; later ones must match (PQT_MISUSE naming both). An
 * existing name (the row index's included) or an empty one is PQT_MISUSE; a kind that is
 * not a fixed-width scalar or vector kind is PQT_KIND. The new column is listed last. */
PQT_API pqt_status pqt_table_add_column(pqt_table *t, const char *name, int kind, int width,
                                        const void *data, const uint8_t *validity, int64_t nrows,
                                        const char *unit);
/* Add a string column (copied): width 1 is a string column, width > 1 a vector of strings
 * (kind PQT_STRING | PQT_VECTOR, written as a LIST and read back as a vector). It holds
 * nrows * width strings: string k (row k / width, element k % width) is bytes
 * offsets[k] .. offsets[k + 1] - 1, from nrows * width + 1 non-decreasing byte offsets
 * (need not start at 0); validity as above, one bit per string. Errors as for
 * pqt_table_add_column, and PQT_MISUSE for width < 1 or an offset that decreases (naming
 * its string). */
PQT_API pqt_status pqt_table_add_string_column(pqt_table *t, const char *name, int width,
                                               const int64_t *offsets, const char *bytes,
                                               const uint8_t *validity, int64_t nrows,
                                               const char *unit);
/* Add a variable-length list column (copied; kind PQT_LIST | kind): row i holds elements
 * list_offsets[i] .. list_offsets[i + 1] - 1 of data (nrows + 1 non-decreasing offsets from
 * >= 0; data holds at least list_offsets[nrows] elements of the fixed-width element kind
 * `kind`, element e at index e); validity (NULL = no null element) one bit per element of
 * data, indexed the same way; row_validity (NULL = no null row) one bit per row: a null
 * row's elements are dropped. Written as a LIST (pqt_write_table), read back as a list, or
 * as a vector when every row has the same length. Errors as pqt_table_add_column, and
 * PQT_MISUSE for offsets that decrease (naming the entry). */
PQT_API pqt_status pqt_table_add_list_column(pqt_table *t, const char *name, int kind,
                                             const int64_t *list_offsets,
                                             const uint8_t *row_validity, const void *data,
                                             const uint8_t *validity, int64_t nrows,
                                             const char *unit);
/* Add a variable-length list of strings (copied; kind PQT_STRING | PQT_LIST): row i holds
 * strings list_offsets[i] .. list_offsets[i + 1] - 1, string e being bytes offsets[e] ..
 * offsets[e + 1] - 1 (both non-decreasing from >= 0); validity one bit per string, row_validity
 * one bit per row as for pqt_table_add_list_column. Errors as there. */
PQT_API pqt_status pqt_table_add_string_list_column(pqt_table *t, const char *name,
                                                    const int64_t *list_offsets,
                                                    const uint8_t *row_validity,
                                                    const int64_t *offsets, const char *bytes,
                                                    const uint8_t *validity, int64_t nrows,
                                                    const char *unit);
/* Remove a column (never reads it). Dropping PQT_ROW_INDEX is permanent: it is not rebuilt
 * and has_column stops answering 1 (reopen the file to get it back); dropping it before it
 * was built also works. */
PQT_API pqt_status pqt_table_drop_column(pqt_table *t, const char *name);
/* Remove several columns at once. Every name is checked first: unless ignore_missing,
 * PQT_NOT_FOUND names every missing one and nothing is dropped; with ignore_missing missing
 * names are skipped. Duplicates are fine. A call that drops nothing changes nothing. */
PQT_API pqt_status pqt_table_drop_columns(pqt_table *t, const char *const *names, int n,
                                          int ignore_missing);
/* Keep only the named columns (a projection; slot order is kept, not the order of names).
 * Every name is checked first (PQT_NOT_FOUND naming every missing one, nothing dropped).
 * The row index not yet built is kept usable only when it is named; otherwise it is dropped
 * like any other column, for good. */
PQT_API pqt_status pqt_table_keep_columns(pqt_table *t, const char *const *names, int n);
/* Change the lookup name only: the file column read stays the same, so reload still works.
 * new_name must be non-empty, unused, and not PQT_ROW_INDEX (PQT_MISUSE). */
PQT_API pqt_status pqt_table_rename_column(pqt_table *t, const char *old_name,
                                           const char *new_name);
/* Add a copy of column src named dst (reads src first), converted to element kind to_kind
 * (0 = same) with the rules of pqt_table_cast, whose exact it takes: exact != 0 fails with
 * PQT_OVERFLOW for a value the kind cannot hold, exact == 0 converts with C rules (NaN and
 * out-of-range to 0). The copy is an in-memory column. */
PQT_API pqt_status pqt_table_copy_column(pqt_table *t, const char *src, const char *dst,
                                         int to_kind, int exact);
/* Convert a numeric column (int32, int64, uint64, float32, float64; scalar or vector) to
 * another numeric element kind, in place. No-op when already that kind. On an unread column
 * it only records the kind to decode into (no read now; the conversion happens as the values
 * arrive). exact != 0: a value that does not survive the conversion (1.5 to int, 2^40 to
 * int32, NaN to int) is PQT_OVERFLOW naming the column and row -- for an unread column, on
 * its first touch. exact == 0 converts with C rules (NaN and out-of-range to 0). PQT_KIND for
 * non-numeric columns or kinds. */
PQT_API pqt_status pqt_table_cast(pqt_table *t, const char *name, int to_kind, int exact);
/* Replace every value of a fixed-width scalar or vector column: data holds nrows * width
 * elements (row-major, width x nrows) of the exact stored element kind (data_nbytes
 * checked); validity NULL makes every element present, else one bit per element. Values
 * are copied. Does not read the column (it may measure a LIST width). Marks the column
 * caller-written. PQT_KIND for strings and lists (pqt_table_set_strings/_set_list). */
PQT_API pqt_status pqt_table_set(pqt_table *t, const char *name, const void *data,
                                 size_t data_nbytes, const uint8_t *validity);
/* Write the values of some rows of a fixed-width scalar or vector column, in place: rows[k]
 * (1-based, any order) gets the width elements at data[k * width ...] (n * width elements
 * of the exact stored element kind; data_nbytes checked); a row listed twice keeps its last
 * write. validity (NULL = all 1) has one bit per given element: 0 makes the element null;
 * 1 makes it present when modify_nulls != 0 and leaves its null flag as it was when
 * modify_nulls == 0. Every row is checked first (PQT_RANGE naming the first bad one; nothing
 * written). Reads the column first. Marks it caller-written (n > 0). Not a structural change
 * unless a null bitmap had to be allocated or an Arrow export still reads the column's
 * arrays (the table then writes into a copy of its own: pqt_arrow.h). PQT_KIND for strings
 * and lists. */
PQT_API pqt_status pqt_table_set_rows(pqt_table *t, const char *name, const int64_t *rows,
                                      int64_t n, const void *data, size_t data_nbytes,
                                      const uint8_t *validity, int modify_nulls);
/* Replace every value of a string column (copied): offsets (nelem + 1, non-decreasing,
 * need not start at 0) index into bytes; validity (NULL = none null) one bit per string,
 * indexed like offsets. nelem is nrows for a scalar column, nrows * width for a vector of
 * strings, list_offsets[nrows] for a list of strings, for which list_offsets (nrows + 1,
 * non-decreasing) and row_validity (NULL = no null row) give the rows; a null row's strings
 * are dropped. For other shapes list_offsets and row_validity must be NULL. PQT_KIND for a
 * non-string column; PQT_MISUSE for offsets that decrease (naming the entry). */
PQT_API pqt_status pqt_table_set_strings(pqt_table *t, const char *name, const int64_t *offsets,
                                         const char *bytes, const uint8_t *validity,
                                         const int64_t *list_offsets,
                                         const uint8_t *row_validity);
/* Replace every value of a list column of fixed-width elements (copied): list_offsets
 * (nrows + 1, non-decreasing) give each row's elements in data, which holds at least
 * list_offsets[nrows] elements of the exact stored element kind (element e at index e);
 * validity (NULL = none null) one bit per element, indexed the same way; row_validity (NULL
 * = no null row) one bit per row, a null row's elements are dropped. PQT_KIND for a column
 * that is not a list of fixed-width elements; PQT_MISUSE for bad offsets or too few bytes. */
PQT_API pqt_status pqt_table_set_list(pqt_table *t, const char *name, const int64_t *list_offsets,
                                      const uint8_t *row_validity, const void *data,
                                      size_t data_nbytes, const uint8_t *validity);
/* Mark row `row` (elem 0: every element of it; elem >= 1: that element) null / present, for
 * every kind: a scalar's value, a string, every element of a vector row; set_null with elem
 * 0 on a list row makes it a null list (its elements are dropped), clear_null on a null list
 * row makes it an empty list, and clear_null with elem 0 on a list row also clears its
 * elements' nulls. An element that becomes present reads 0 (strings: the string it held,
 * "" for one read as null). Reads the column first. Marks the column caller-written.
 * PQT_RANGE for a row or element outside the column. Not a structural change unless a null
 * bitmap had to be allocated or a list row's elements dropped. */
PQT_API pqt_status pqt_table_set_null(pqt_table *t, const char *name, int64_t row, int elem);
PQT_API pqt_status pqt_table_clear_null(pqt_table *t, const char *name, int64_t row, int elem);
/* Append the rows of `other` to t. Every column of other must exist in t (PQT_NOT_FOUND
 * naming it) with the same kind and width (PQT_KIND naming both) and the same physical unit
 * and time unit (PQT_UNIT_MISMATCH naming the column and both units: there is no unit
 * conversion, km/h into m/s or milliseconds into microseconds is an error; no unit and a
 * unit differ too); columns of t that other lacks get null
 * rows. other's columns are read if needed (other is not otherwise changed). Columns of t
 * never read are not read: the append detaches t, after which they are unreadable. An
 * other with zero rows changes nothing. t and other must be different tables. */
PQT_API pqt_status pqt_table_append(pqt_table *t, pqt_table *other);
/* Remove the listed rows (1-based, any order; a row listed twice goes once). Every row is
 * checked first (PQT_RANGE naming the first bad one; nothing removed). Removing rows
 * detaches the table (never-read columns become unreadable); n == 0 changes nothing. */
PQT_API pqt_status pqt_table_delete_rows(pqt_table *t, const int64_t *rows, int64_t n);
/* Keep the first n rows. n >= nrows changes nothing (no detach); fewer rows detach the
 * table. PQT_MISUSE for n < 0. */
PQT_API pqt_status pqt_table_truncate(pqt_table *t, int64_t n);

/* Keep the rows whose keep[i] is nonzero (keep: pqt_table_nrows bytes), as
 * pqt_table_filter_rows keeps a rule's rows: a table still attached to its file in file
 * order narrows its read plan (never-read columns stay readable), any other gathers its
 * resident columns and detaches. A mask keeping every row changes nothing. */
PQT_API pqt_status pqt_table_filter_rows_mask(pqt_table *t, const uint8_t *keep);
/* Remove the rows with fewer than min_valid present values among the columns names[0..n)
 * (each counted once; a row of a column is present when pqt_table_is_null with elem 0
 * answers 0), keeping the rest as pqt_table_filter_rows_mask keeps them. min_valid -1: every
 * column must be present (drop a row with any null); 1: at least one (drop a row null in
 * all). names NULL (n 0): the columns resident now, none read; named columns are read, and
 * every name is checked first (PQT_NOT_FOUND naming every missing one, nothing removed).
 * No column to judge by, or min_valid 0, removes nothing. PQT_MISUSE for min_valid < -1. */
PQT_API pqt_status pqt_table_dropna(pqt_table *t, const char *const *names, int n,
                                    int64_t min_valid);

/* ------------------------------------------------------------------------------------------
 * Tables: sorting (docs/sort.md).
 * ------------------------------------------------------------------------------------------ */
/*
 * The text form of sort keys, shared by pqt_opts_set_sort, PQT_OPT_SORT and the table calls
 * below: keys separated by ',' or ';', each
 *     [-]COLUMN [asc|ascending|desc|descending] [nulls_first|nulls_last]
 * (words case-insensitive, blanks around keys ignored). "-mass" is "mass desc"; writing both
 * ("-mass desc") is refused. COLUMN is a table column name, dotted struct leaves included
 * ("main.inner.age"); a name with ',', ';', blanks or a leading '-' is only reachable
 * through the _names calls (their names are taken literally). At most
 * PQT_SORT_MAX_KEYS keys, each at most PQT_SORT_MAX_KEY_NBYTES bytes, with a column name of
 * at most PQT_SORT_MAX_NAME_NBYTES bytes. Errors (PQT_BAD_SORT): "empty sort key", "sort
 * key '-' names no column", "sort key 'ra up' has an unrecognized direction 'up' (expected
 * asc, ascending, desc or descending)", "sort key '-dec desc' has both the '-' shorthand and
 * an explicit direction; use one or the other", "sort key column name is too long (maximum
 * 64 characters): NAME", too many keys, a key too long.
 *
 * Order (the one engine behind every sort call, at open and on tables): stable, first key
 * most significant. Per key: values ascending (or descending), then NaN, then nulls;
 * descending reverses the values only; nulls_first puts that key's nulls first, then its
 * NaNs, then the values. -0.0 and 0.0 tie. Sortable kinds: scalar int32, int64, uint64,
 * float32, float64, bool, string (bytewise), date, time, timestamp.
 */
#define PQT_SORT_MAX_KEYS 16
#define PQT_SORT_MAX_KEY_NBYTES 320
#define PQT_SORT_MAX_NAME_NBYTES 64

/* Stable sort of the rows by keys, in the text form above ("survey, -mass"), first key most
 * significant. nulls_first (NULL, or one flag per key) is ORed with the keys' own
 * nulls_first words. Keys are read if needed; other columns are not read. Rows that move
 * detach the table (unread columns become unreadable: prefetch or request the row index
 * first); an order that is already right changes nothing. PQT_BAD_SORT for the text,
 * PQT_KIND for a vector/list key, PQT_NOT_FOUND for a missing column. */
PQT_API pqt_status pqt_table_sort_by(pqt_table *t, const char *keys, const int *nulls_first);
/* Keep the n first rows of the sorted order (a stable sort, then truncate; O(rows) with a
 * bounded selection, not a full sort). n >= nrows keeps every row (sorted). Keys as for
 * pqt_table_sort_by. Rows that move or go detach the table; keeping every row in place
 * changes nothing. PQT_MISUSE for n < 0. */
PQT_API pqt_status pqt_table_top_n(pqt_table *t, const char *keys, const int *nulls_first,
                                   int64_t n);
/* The order pqt_table_sort_by would give, without changing the table (no detach, no new
 * generation; key columns not resident are read, a first touch): perm[0..nrows) receives the
 * 1-based rows in sorted order. group_offsets (NULL, or room for nrows + 1 entries) receives
 * the groups of rows equal on the first group_nkeys keys (0 = all keys; nulls are one group,
 * NaNs another): the 1-based position in perm of each group's first row, then nrows + 1;
 * *ngroups_ret (may be NULL) their number. An empty table gives group_offsets = {1}, 0
 * groups. PQT_MISUSE for group_nkeys outside 0..nkeys or > 0 without group_offsets. */
PQT_API pqt_status pqt_table_argsort_by(pqt_table *t, const char *keys, const int *nulls_first,
                                        int64_t *perm, int64_t *group_offsets, int group_nkeys,
                                        int64_t *ngroups_ret);
/* *sorted_ret = 1 when the rows are already in the order of the keys (pqt_table_sort_by
 * would move nothing), else 0. O(rows), stops at the first row out of order. Changes nothing
 * (key columns not resident are read). */
PQT_API pqt_status pqt_table_is_sorted_by(pqt_table *t, const char *keys, const int *nulls_first,
                                          int *sorted_ret);

/* The same four with the keys as nkeys column names taken literally (for names the text form
 * cannot spell: ',', ';', blanks, a leading '-'; the Fortran module's key lists), and
 * descending / nulls_first as nkeys flags each, or NULL for all 0. Otherwise as the text
 * calls; PQT_MISUSE for nkeys < 1. */
PQT_API pqt_status pqt_table_sort_by_names(pqt_table *t, const char *const *keys, int nkeys,
                                           const int *descending, const int *nulls_first);
PQT_API pqt_status pqt_table_top_n_names(pqt_table *t, const char *const *keys, int nkeys,
                                         const int *descending, const int *nulls_first,
                                         int64_t n);
PQT_API pqt_status pqt_table_argsort_by_names(pqt_table *t, const char *const *keys, int nkeys,
                                              const int *descending, const int *nulls_first,
                                              int64_t *perm, int64_t *group_offsets,
                                              int group_nkeys, int64_t *ngroups_ret);
PQT_API pqt_status pqt_table_is_sorted_by_names(pqt_table *t, const char *const *keys,
                                                int nkeys, const int *descending,
                                                const int *nulls_first, int *sorted_ret);

/* ------------------------------------------------------------------------------------------
 * Filters: the filter language (docs/filters.md), on tables at open and in memory.
 * ------------------------------------------------------------------------------------------ */
/*
 * A pqt_filter collects rules; every rule is a boolean expression over a table's columns and
 * the rules combine with AND. A row is kept only when the whole filter is TRUE (nulls make a
 * comparison unknown, and unknown drops the row). A filter knows no file: a rule's syntax is
 * checked when it is added, its columns and value types when the filter is applied to a
 * table. One filter may be applied to any number of tables; applying it copies what it
 * needs, so the filter may be changed, cleared or freed afterwards. A filter is used by one
 * thread at a time. Every failed call changes nothing.
 */
/* Published limits (docs/filters.md, "Limits"). A rule longer than PQT_FILTER_MAX_RULE_NBYTES
 * bytes, nested deeper than PQT_FILTER_MAX_DEPTH levels (each '(' and each 'not' is one), more than
 * PQT_FILTER_MAX_NODES expression nodes across all rules of a filter (each clause, each
 * and/or/not, and one implicit AND per rule after the first), more than PQT_FILTER_MAX_SETS
 * sets (pqt_filter_bind names plus pqt_filter_add_in calls), a column name over
 * PQT_FILTER_MAX_NAME_NBYTES bytes or a value (a whole written-out list included) over
 * PQT_FILTER_MAX_VALUE_NBYTES bytes is PQT_BAD_FILTER. */
#define PQT_FILTER_MAX_RULE_NBYTES 8192
#define PQT_FILTER_MAX_DEPTH 32
#define PQT_FILTER_MAX_NODES 1024
#define PQT_FILTER_MAX_SETS 64
#define PQT_FILTER_MAX_NAME_NBYTES 64
#define PQT_FILTER_MAX_VALUE_NBYTES 512

/* The kind of a set of times or timestamps, carrying their unit (pqt_time_unit), for
 * pqt_filter_bind and pqt_filter_add_in: PQT_KIND_UNIT(PQT_TIMESTAMP, PQT_UNIT_MICROS). */
#define PQT_KIND_UNIT(kind, unit) ((kind) | (((unit) + 1) << 8))

/* Create an empty filter (keeps every row). *ret is owned by the caller: pqt_filter_free. */
PQT_API pqt_status pqt_filter_new(pqt_filter **ret);
/* Free a filter; NULL is a no-op. Tables it was applied to are not affected. */
PQT_API void pqt_filter_free(pqt_filter *f);
/* Drop every rule and every bound set (the filter keeps every row again). */
PQT_API void pqt_filter_clear(pqt_filter *f);

/* Add one rule (NUL-terminated UTF-8), AND-combined with the rules already added. The rule is
 * parsed now: PQT_BAD_FILTER for a syntax error or a limit, with a message carrying the
 * wording of docs/filters.md, "Errors", and the 1-based character where the problem is ("... at
 * character 7"). Names, operators against kinds and value types are checked when the filter is
 * applied. PQT_MISUSE for a NULL argument. */
PQT_API pqt_status pqt_filter_add(pqt_filter *f, const char *rule);

/* Add the clause `column in <values>` (negate != 0: `column not_in <values>`), AND-combined
 * with the other rules. column is a name as a rule would spell it without backquotes (any
 * characters). kind is the kind of values:
 *   PQT_INT32 / PQT_DATE: int32_t[n]; PQT_INT64: int64_t[n]; PQT_UINT64: uint64_t[n];
 *   PQT_FLOAT32: float[n]; PQT_FLOAT64: double[n]; PQT_STRING: const char *[n]
 *   (NUL-terminated UTF-8; a NULL entry is not a member); PQT_KIND_UNIT(PQT_TIME or
 *   PQT_TIMESTAMP, unit): int64_t[n] in that unit.
 * valid (may be NULL) has one bit per value (LSB first); a 0 bit leaves the value out. The
 * values are copied and de-duplicated now. Integer sets (int32, int64, uint64) fit integer
 * columns (int32, int64, uint64; a member the column cannot hold matches no row), float sets float
 * columns, strings strings, dates dates, times and timestamps their own kind in any unit
 * (matched by instant). An empty set keeps no row (in) or every non-null row (not_in).
 * Errors: PQT_BAD_FILTER for a NaN value (test NaN with is_nan), a set of booleans, an empty
 * or too long column name, too many sets or nodes; PQT_MISUSE for NULL arguments, n < 0 or a
 * kind not listed (a time or timestamp kind without PQT_KIND_UNIT included). */
PQT_API pqt_status pqt_filter_add_in(pqt_filter *f, const char *column, int kind,
                                     const void *values, int64_t n, const uint8_t *valid,
                                     int negate);

/* Bind a named set that rules use as `column in @name` / `column not_in @name`. kind, values,
 * n and valid as for pqt_filter_add_in; copied and de-duplicated now, so the caller's array
 * may change afterwards. Binding a name again replaces its set. name is non-empty, at most
 * PQT_FILTER_MAX_NAME_NBYTES bytes, without spaces, parentheses or quotes (PQT_BAD_FILTER);
 * a rule may name a set bound after it. Errors as for pqt_filter_add_in. */
PQT_API pqt_status pqt_filter_bind(pqt_filter *f, const char *name, int kind, const void *values,
                                   int64_t n, const uint8_t *valid);

/* One column of a batch handed to a callback predicate, in pqt's in-memory layout for its
 * kind (see pqt_kind): data holds n values (strings: n + 1 int64 offsets into bytes);
 * validity has bit i (LSB first) set when row i is present, NULL when every row is. unit is
 * the pqt_time_unit of times and timestamps, else -1. Valid during the call only. */
typedef struct pqt_batch_col {
    const char *name;
    int kind;
    int unit;
    const void *data;
    const char *bytes;
    const uint8_t *validity;
} pqt_batch_col;

/* A predicate written in C: cols[0..ncols) are the columns named at pqt_filter_add_callback,
 * in that order, holding n rows -- only rows still alive, the other conjuncts having dropped
 * theirs. keep ((n + 7) / 8 bytes, zeroed before the call) receives bit i (LSB first) set for
 * each row i to keep. Return 0, or anything else to fail the open (PQT_CALLBACK, naming the
 * value returned). Row groups are filtered in parallel when the table may use threads, so fn
 * may run on several threads at once (with different batches): make it thread-safe or open
 * with PQT_OPT_THREADS 1. */
typedef int (*pqt_filter_fn)(void *user, const pqt_batch_col *cols, int ncols, int64_t n,
                             uint8_t *keep);

/* Add a callback predicate over the columns columns[0..ncols) (names as a rule spells them
 * without backquotes; 1 to 16 of them; repeats allowed), AND-combined with the other rules.
 * It takes part in the engine like any rule: conjuncts are ordered by cost (a callback is
 * costed as its columns' decoding plus a fixed call cost) and it sees only rows still alive;
 * statistics prove nothing about it. fn and user are kept as given (user must outlive every
 * open using the filter); the names are copied. Names and kinds are checked when the filter
 * is applied (PQT_BAD_FILTER: unknown column with the nearest name, a vector or list
 * column). PQT_MISUSE: NULL f, fn or columns, ncols out of 1..16; PQT_BAD_FILTER: a name
 * empty or too long, too many nodes. */
PQT_API pqt_status pqt_filter_add_callback(pqt_filter *f, const char *const *columns, int ncols,
                                           pqt_filter_fn fn, void *user);

/* Rows in memory (docs/filters.md, "Rows in memory"): the same parser and evaluator as a filter at
 * open, so a rule selects the same rows everywhere. Columns a rule names are read (first touch) if
 * they are not resident.
 *
 * pqt_table_filter_rows: keep only the rows for which rule (one rule's text, as for
 * pqt_filter_add) is TRUE. On a table still attached to its file (not sorted), the read
 * plan is refined: columns not read yet stay readable and read only the survivors, the row
 * index still maps to file rows. Otherwise resident columns are gathered and the table
 * detaches (as pqt_table_delete_rows). A call that keeps every row changes nothing.
 * pqt_table_row_mask: keep[i] (one byte per table row, caller memory of pqt_table_nrows
 * bytes) = 1 when row i + 1 passes, else 0; the table's rows do not change.
 * The _with forms take a whole pqt_filter instead (several rules, bound sets, callbacks).
 * Errors: PQT_BAD_FILTER (syntax, names, types), reading errors, PQT_RANGE (integer
 * arithmetic in a rule overflows int64 on a row: docs/filters.md, "Expressions"), PQT_NOMEM;
 * a failed call changes nothing. */
PQT_API pqt_status pqt_table_filter_rows(pqt_table *t, const char *rule);
PQT_API pqt_status pqt_table_row_mask(pqt_table *t, const char *rule, uint8_t *keep);
PQT_API pqt_status pqt_table_filter_rows_with(pqt_table *t, const pqt_filter *filter);
PQT_API pqt_status pqt_table_row_mask_with(pqt_table *t, const pqt_filter *filter, uint8_t *keep);

/* What reading a table cost so far: exact counters since open (a clone starts at zero).
 * row_groups: row groups the slice covers; row_groups_pruned_stats: of those, skipped because
 * statistics proved no row passes; row_groups_all: proven to pass whole (no filter column
 * decoded there). pages: data pages of the chunks the table read from; pages_skipped: never
 * decompressed because no wanted row was in them; pages_decompressed: data pages
 * decompressed (or used in place when stored uncompressed); dictionary_pages_read;
 * values_decoded: values (levels excluded) decoded, every column; bytes_read: bytes of
 * column chunks fetched from the file. */
typedef struct pqt_scan_counts {
    int64_t row_groups;
    int64_t row_groups_pruned_stats;
    int64_t row_groups_all;
    int64_t pages;
    int64_t pages_skipped;
    int64_t pages_decompressed;
    int64_t dictionary_pages_read;
    int64_t values_decoded;
    int64_t bytes_read;
    /* finer pushdown (docs/filters.md): row groups refuted by the page index (every page of a
     * conjunct pruned), by a dictionary without a passing entry, by bloom filters */
    int64_t row_groups_pruned_index;
    int64_t row_groups_pruned_dictionary;
    int64_t row_groups_pruned_bloom;
    int64_t pages_pruned_index;   /* filter-column pages the column index refuted */
    int64_t bloom_filters_read;
    /* row groups whose selection after the filter was kept as runs / as a bitmap, and those
     * evaluated by decoding every row first (dense: refining would cost more) */
    int64_t row_groups_sel_runs;
    int64_t row_groups_sel_bitmap;
    int64_t row_groups_decode_then_filter;
    /* row groups a limit without a sort left unread: the first rows were found before them
     * (docs/pruning.md, "A limit stops the pass") */
    int64_t row_groups_not_read_limit;
    /* datasets (docs/datasets.md; 1, 0, 0, 0 for one file): files listed, pruned by their
     * partition values (or a cone's HEALPix pixels) before any read, pruned whole by the
     * statistics of their row groups, and footers read (a _metadata summary counts one) */
    int64_t files;
    int64_t files_pruned_partition;
    int64_t files_pruned_stats;
    int64_t footers_read;
    /* values the filter pass decoded and the table kept as its columns' values, so reading
     * them decoded nothing (PQT_OPT_FILTER_KEEP_BYTES; docs/pruning.md) */
    int64_t filter_values_reused;
    /* a file opened by URL (docs/remote.md; 0 for a local file): HTTP requests sent, the
     * open's included (a repeat after a fault counts again), body bytes received, and
     * requests repeated after a fault. They count the file's source, which a clone shares:
     * a clone starts at zero and then counts what either reads. */
    int64_t requests;
    int64_t bytes_fetched;
    int64_t retries;
} pqt_scan_counts;
PQT_API pqt_status pqt_table_scan_stats(const pqt_table *t, pqt_scan_counts *ret);
/* Values decoded so far for one column (0 when never read). -1 when t has no such column. */
PQT_API int64_t pqt_table_scan_values(const pqt_table *t, const char *name);
/* The read plan as text for people (`pqt --explain`): the filter's conjuncts in evaluation
 * order, each row group's verdict (pruned by statistics and by which conjunct, kept whole,
 * filtered: rows kept of rows read, after a limit: not read), one line a row group; with a
 * limit and no sort, "limit N reached in row group R of G: row groups ... not read" (or
 * "limit N: every row group was needed"); with a sample at open, a last
 * line "sample: fraction P, seed S, rule NAME: K of N rows kept" (docs/sampling.md). The
 * counters are pqt_table_scan_stats (`pqt --explain` prints them after this text). snprintf
 * semantics: returns the full length. */
PQT_API int64_t pqt_table_explain(const pqt_table *t, char *buf, size_t cap);

/* ------------------------------------------------------------------------------------------
 * Quality control (docs/qc.md).
 * ------------------------------------------------------------------------------------------ */
/*
 * A pqt_qc holds read-time quality-control rules, one per column, each in the code form
 *     "column[, min[, max[, miss]]]"        e.g. "ra, >=0, <=360, Null"
 * min is ">= v", "> v" or a bare v (>=); max is "<= v", "< v" or a bare v (<=); a field may
 * be left empty ("dec, , <=90"). miss, the fourth field, has three states: absent (nulls
 * are not checked), Null or NA, any case (nulls expected: not checked), or present but
 * empty ("flag, , , " -- nulls not expected: any null is a violation). A plain integer
 * bound is exact (compared in integer arithmetic, exact past 2^53); a number with a point
 * or an exponent is a finite float; anything else, or a quoted value, is a string literal
 * (strings compare bytewise).
 *
 * Given to a table open (pqt_opts_set_qc), the rules are bound to columns at open: an
 * unknown column is PQT_NOT_FOUND (with the nearest name), a bound that does not fit the
 * column's kind PQT_KIND (min/max on date/time/timestamp columns; a non-integer or
 * out-of-range bound on an integer column; a non-number on a float column), a column that
 * cannot be read PQT_UNSUPPORTED_TYPE. Boolean min/max are accepted and never enforced.
 *
 * Opening reads no data, so a column's rule is checked when the column is first read from
 * the file: any get, view or value access, pqt_table_prefetch, pqt_table_materialize_all,
 * pqt_table_reload, a filter at open that names the column (its values over the rows the
 * filter keeps are checked at open) and pqt_table_validate_qc. min/max run over present
 * elements only (NaN is never out of range), vector and list columns element by element;
 * a null list row counts as one null element. With PQT_OPT_QC_SOFT 0 (the default) a
 * violation fails the call that read the column with PQT_QC and the message
 *     "CALL: FILE: qc violation for column 'ra': declared min >= 0, max <= 360, data range
 *      [-5.0, 400.0], 2 of 5 valid element(s) out of range"
 * (and/or "3 of 10 element(s) are Null (qc: miss: is declared empty, so Nulls are not
 * expected here)"); the column stays unread and the table unchanged. With PQT_OPT_QC_SOFT 1
 * the same text goes to the warning callback, at most once per column for each of the two
 * kinds (range, nulls) over the table's life, and the read succeeds.
 *
 * A pqt_qc is used by one thread at a time; a failed call changes nothing.
 */
/* An empty rule set. *ret is the caller's: pqt_qc_free. PQT_MISUSE (ret NULL), PQT_NOMEM. */
PQT_API pqt_status pqt_qc_new(pqt_qc **ret);
/* Free a rule set; NULL is a no-op. Tables opened with it keep their copy. */
PQT_API void pqt_qc_free(pqt_qc *qc);
/* Drop every rule. */
PQT_API void pqt_qc_clear(pqt_qc *qc);
/* Add one rule (syntax above), parsed now. An all-blank rule is a no-op. PQT_MISUSE, with a
 * message quoting the rule, for: no column name, more than four fields, a reversed operator
 * ("<" in the min field, ">" in the max field), an operator without a value, a miss token
 * other than Null/NA/empty, a non-finite bound (NaN, Infinity), an integer outside int64,
 * a second rule for the same column, a NULL argument. */
PQT_API pqt_status pqt_qc_add(pqt_qc *qc, const char *rule);
/* Rules held (0 for NULL). */
PQT_API int pqt_qc_nrules(const pqt_qc *qc);
/* The rules as text for people (`pqt --explain`), one line each:
 * "qc: column 'ra': min >= 0, max <= 360, Nulls expected". snprintf semantics: returns the
 * full length. */
PQT_API int64_t pqt_qc_describe(const pqt_qc *qc, char *buf, size_t cap);
/* Check every column of t that has a qc rule and is not resident, as a first read would
 * (resident columns were checked when they were read), and release what it read: residency
 * is left exactly as found. Hard mode: PQT_QC for the first column violating its rule (in
 * column order), nothing changed; soft mode: warnings, PQT_OK. A no-op (PQT_OK) for a table
 * without rules, an in-memory table and a detached one. Read errors as for a first touch. */
PQT_API pqt_status pqt_table_validate_qc(pqt_table *t);
/* Write-side qc (docs/qc.md, "Write-side qc": warnings only): check t's values now
 * (read, added or set; the rows keep selects when keep is non-NULL, one byte per row, else
 * every row) against the rules of qc, bound here to t's columns by name. Each column that
 * breaks its rule's range, and each that holds a null its "miss:" forbids, is one warning
 * to the warning callback ("pqt_table_check_qc: WHERE: qc violation for column 'ra'
 * (written anyway): declared min >= 0, ..."), counted in *nwarnings_ret; the call still
 * returns PQT_OK. A ruled column t has not read is read for the check and released again
 * (residency as found). Errors, before anything is read: PQT_NOT_FOUND (a rule's column is
 * missing, with the nearest name), PQT_UNSUPPORTED_TYPE (it cannot be read), PQT_KIND (a
 * bound does not fit its kind, as at open); then read errors as for a first read. qc NULL
 * or without rules: *nwarnings_ret = 0. PQT_MISUSE for NULL t or nwarnings_ret. */
PQT_API pqt_status pqt_table_check_qc(pqt_table *t, const pqt_qc *qc, const uint8_t *keep,
                                      int64_t *nwarnings_ret);

/* ------------------------------------------------------------------------------------------
 * Writing (docs/writing.md): whole tables and a streaming writer.
 * ------------------------------------------------------------------------------------------ */
/*
 * Tables go to Parquet files every other tool reads: one column chunk per table column (a
 * vector or list column as a 3-level LIST, read back as a vector or list), data pages v1 or v2,
 * dictionary encoding falling back to PLAIN when the dictionary grows past its limit, exact
 * min/max statistics with null counts, the column and offset index, optional bloom filters
 * and page CRCs, created_by "pqt version X". The output path is never touched before the
 * writer closes successfully: rows go to "<path>.tmp-XXXXXX" in the same directory, which is
 * flushed to disk and renamed over path at close (and removed on any failure).
 */
typedef struct pqt_write_opts pqt_write_opts;

/* Codecs (parquet CompressionCodec numbers) for PQT_WOPT_CODEC. */
typedef enum pqt_write_codec {
    PQT_WRITE_UNCOMPRESSED = 0,
    PQT_WRITE_SNAPPY = 1,
    PQT_WRITE_GZIP = 2,
    PQT_WRITE_BROTLI = 4,
    PQT_WRITE_ZSTD = 6,
    PQT_WRITE_LZ4_RAW = 7
} pqt_write_codec;

typedef enum pqt_wopt {
    /* int pqt_write_codec, or text "zstd" "snappy" "gzip" "lz4_raw" "brotli" "none"
     * (default zstd) */
    PQT_WOPT_CODEC = 1,
    PQT_WOPT_CODEC_LEVEL = 2,      /* int: the codec's level; unset = the codec's default */
    PQT_WOPT_DICTIONARY = 3,       /* int 1 (default) / 0: dictionary encoding */
    PQT_WOPT_DICTIONARY_NBYTES = 4, /* int64 > 0: a chunk's dictionary limit (default 1 MiB) */
    PQT_WOPT_PAGE_VERSION = 5,     /* int 1 (default) or 2: data page v1 or v2 */
    PQT_WOPT_PAGE_NBYTES = 6,      /* int64 > 0: target bytes of a data page (default 1 MiB) */
    PQT_WOPT_ROW_GROUP_ROWS = 7,   /* int64 > 0: rows of a row group (default 1,048,576; under
                                      the defaults a table read from a file ends a row group
                                      where a source row group ends inside it) */
    PQT_WOPT_ROW_GROUP_NBYTES = 8, /* int64 > 0: a row group is cut past this many encoded
                                      bytes (default 256 MiB) */
    PQT_WOPT_STATISTICS = 9,       /* int 1 (default) / 0: chunk statistics */
    PQT_WOPT_PAGE_INDEX = 10,      /* int 1 (default) / 0: column index and offset index */
    PQT_WOPT_BLOOM_COLUMN = 11,    /* text, repeatable: a column that gets bloom filters */
    PQT_WOPT_BLOOM_NDV = 12,       /* int64 > 0: distinct values a bloom filter is sized for
                                      (default: the row group's rows, at most 1,000,000) */
    PQT_WOPT_BLOOM_FPP = 13,       /* double in (0, 1): false-positive rate (default 0.01) */
    PQT_WOPT_PAGE_CRC = 14,        /* int 0 (default) / 1: CRC32 of every page */
    PQT_WOPT_THREADS = 15,         /* int >= 0: columns encoded in parallel (0 = all cores,
                                      default 1) */
    PQT_WOPT_OVERWRITE = 16,       /* int 0 (default: PQT_EXISTS) / 1: replace an existing file */
    PQT_WOPT_ROW_INDEX_NAME = 17,  /* text: add the file rows of a file-backed table (1-based,
                                      as parquet_row_index) as an int64 column of this name */
    PQT_WOPT_COPY_METADATA = 18,   /* int 1 (default) / 0: copy the source file's key-value
                                      metadata (pqt_table_meta_value) */
    PQT_WOPT_METADATA_KEY = 19,    /* text, repeatable: copy only these keys of it */
    PQT_WOPT_METADATA = 20,        /* text "key=value", repeatable: a key-value entry */
    PQT_WOPT_MAML = 21,            /* text: path of a write-side MAML (docs/writing.md) */
    PQT_WOPT_MAML_TEXT = 22,       /* text: the write-side MAML itself */
    PQT_WOPT_WRITE_MAML = 23,      /* int 0 (default) / 1: write the sidecar <stem>.maml at close */
    PQT_WOPT_FILE_DATE = 24,       /* text YYYY-MM-DDTHH:MM:SS: the DATE key-value entry (default:
                                      the close time, UTC, or the environment's
                                      SOURCE_DATE_EPOCH when it is a count of seconds);
                                      shadows a user DATE entry; "": no DATE entry at all */
    PQT_WOPT_BACKGROUND_IO = 25,   /* int 1 (default) / 0: one extra thread writes the bytes to
                                      the file while the columns are encoded (0: the
                                      encoding thread writes them) */
    PQT_WOPT_LEAVE_OUT = 26,       /* int 1 (default) / 0: a column the writer cannot write (a
                                      kind pqt cannot read, a MAP's key or value) is left out
                                      with a warning; 0: it is PQT_UNSUPPORTED_TYPE naming
                                      the column, before the file is created */
    PQT_WOPT_MAX_PARTITIONS = 27   /* int64 >= 1: pqt_write_dataset refuses more partitions
                                      than this (PQT_LIMIT, default 10,000) */
} pqt_wopt;

/* Write options with the defaults above; free with pqt_write_opts_free (NULL is a no-op). */
PQT_API pqt_status pqt_write_opts_new(pqt_write_opts **ret);
PQT_API void pqt_write_opts_free(pqt_write_opts *o);
/* Set an option. PQT_MISUSE (naming the option and value) for an unknown option, a value
 * out of range, or a setter of the wrong type; a failed set leaves o as it was. */
PQT_API pqt_status pqt_write_opts_set_int(pqt_write_opts *o, pqt_wopt opt, int64_t value);
PQT_API pqt_status pqt_write_opts_set_str(pqt_write_opts *o, pqt_wopt opt, const char *value);
PQT_API pqt_status pqt_write_opts_set_double(pqt_write_opts *o, pqt_wopt opt, double value);

/* Write every readable column of t (resident or not) to path, in slot order; opts may be
 * NULL. Columns t has not read are read one source row group at a time and released, so the
 * memory used is about one row group, whatever the table's size. A column pqt cannot read
 * (PQT_NONE) is left out with a warning (pqt_set_warning_callback). Column units go to the
 * key-value metadata as "column.<name>.unit". A column whose source file column is
 * required, or an in-memory column without validity, is written required. Errors:
 * PQT_EXISTS when path exists (without PQT_WOPT_OVERWRITE), PQT_IO naming the path,
 * PQT_DETACHED for a column that can no longer be read, read errors as for a first read.
 * On failure path is untouched. t keeps its residency. */
PQT_API pqt_status pqt_write_table(pqt_table *t, const char *path, const pqt_write_opts *opts);

/* A streaming writer: the schema is taken from template_table's columns (names, kinds,
 * widths, units, time units, nullability as for pqt_write_table; nothing is read), then
 * pqt_writer_write appends the rows of tables with those columns. A row group is cut every
 * PQT_WOPT_ROW_GROUP_ROWS rows (or past PQT_WOPT_ROW_GROUP_NBYTES). Until pqt_writer_close
 * succeeds, path is untouched. opts is copied. PQT_EXISTS as for pqt_write_table. */
typedef struct pqt_writer pqt_writer;
PQT_API pqt_status pqt_writer_open(pqt_writer **ret, const char *path, pqt_table *template_table,
                                   const pqt_write_opts *opts);
/* Append every row of t. t must have the template's columns (by name, any order; more are
 * ignored) with the same kinds (PQT_KIND naming the column otherwise); a required column
 * with a null is PQT_MISUSE naming it and the row. A failed write leaves the writer
 * unusable: only pqt_writer_abort remains. */
PQT_API pqt_status pqt_writer_write(pqt_writer *w, pqt_table *t);
/* Rows written so far. */
PQT_API int64_t pqt_writer_nrows(const pqt_writer *w);
/* The path of the temporary file the writer fills ("<path>.tmp-XXXXXX" beside path), owned
 * by w and valid until pqt_writer_close or pqt_writer_abort; NULL for a NULL w. For a
 * caller that must remove it where it cannot call the writer (a signal handler: copy the
 * text first, then unlink(2) it, which is async-signal-safe). */
PQT_API const char *pqt_writer_temp_path(const pqt_writer *w);
/* A progress display's hook: fn(user, rows, nbytes) is called on the thread calling
 * pqt_writer_write after each batch of rows taken in (at most 131072 rows), with the rows
 * written so far and the bytes so far (the file's plus the row group being built). fn must
 * not call the writer. NULL removes it. */
typedef void (*pqt_write_progress_fn)(void *user, int64_t rows, int64_t nbytes);
PQT_API void pqt_writer_set_progress(pqt_writer *w, pqt_write_progress_fn fn, void *user);
/* Finish the file (last row group, page indexes, footer), flush it to disk and rename it to
 * the path given at open; frees w whatever happens. On failure the temporary file is removed
 * and path is untouched. */
PQT_API pqt_status pqt_writer_close(pqt_writer *w);
/* Drop the writer and its temporary file; path is untouched. NULL is a no-op. */
PQT_API void pqt_writer_abort(pqt_writer *w);

/* pqt_write_table of only the rows whose keep[i] is nonzero (keep NULL: every row). t does
 * not change: the rows are written from a clone of t narrowed by the mask (resident columns
 * are copied while it writes; never-read columns read only the kept rows; the row index
 * still names file rows; a table sorted at open has its columns read whole first, as
 * pqt_write_table reads them, and cannot give the row index: PQT_DETACHED). Errors as
 * pqt_write_table and pqt_table_clone. */
PQT_API pqt_status pqt_write_table_mask(pqt_table *t, const uint8_t *keep, const char *path,
                                        const pqt_write_opts *opts);
/* Cut the row group being built now (nothing when no row is pending). A failure leaves the
 * writer unusable, as a failed pqt_writer_write does. */
PQT_API pqt_status pqt_writer_flush(pqt_writer *w);
/* Write the rows of t (keep NULL: every row; else those whose keep[i] is nonzero) as exactly
 * one row group: rows pending from earlier writes are cut first, and the row-group limits
 * (PQT_WOPT_ROW_GROUP_ROWS / _NBYTES) do not split it. No row to write (an empty table, a
 * mask keeping none) is PQT_MISUSE and leaves the writer usable; other failures as
 * pqt_writer_write. */
PQT_API pqt_status pqt_writer_write_chunk(pqt_writer *w, pqt_table *t, const uint8_t *keep);

/* Write t's rows as a hive-partitioned dataset under dir (docs/writing.md "Datasets"): one
 * folder level per partition column, dir/k1=v1/k2=v2/part-0.parquet, the partition columns
 * not stored in the files (the folder names hold their values), the rows of each partition in
 * table order, plus dir/_metadata (every file's row groups, each column chunk's file_path
 * relative to dir) and dir/_common_metadata (the schema, no row groups). partition_by:
 * nkeys (1..PQT_SORT_MAX_KEYS) distinct column names of integer (int32, int64, uint64), bool,
 * date or string kind. Folder values: integers in decimal, true/false, YYYY-MM-DD, strings
 * as they are (an empty string: "k="); a null is k=__HIVE_DEFAULT_PARTITION__; keys and
 * values percent-encoded as Spark does, which DuckDB and Polars decode (%XX for control
 * bytes, '"' '#' '%' '\'' '*' '/' ':' '=' '?' '\\' '{' '[' ']' '^' '<' '>' '|'). o as for pqt_write_table, per file (row groups, codec, ...;
 * PQT_WOPT_OVERWRITE is ignored), plus PQT_WOPT_MAX_PARTITIONS (default 10,000). The table
 * is read whole into a clone (t keeps its residency) and stably sorted by the partition
 * columns; a DECIMAL column is then written as DOUBLE unless t was already in partition order.
 * Everything is written to a hidden temporary sibling of dir and renamed into place, so a
 * failure leaves nothing. Errors: PQT_MISUSE (NULL arguments, a key named twice or of
 * another kind, naming the column and kind; every column a key; a table without rows;
 * PQT_WOPT_ROW_INDEX_NAME set), PQT_NOT_FOUND (a missing key), PQT_EXISTS (dir exists and is
 * not an empty directory, naming it), PQT_LIMIT (more partitions than the cap, naming both),
 * PQT_IO naming the path, write errors as pqt_write_table, prefixed by the partition. */
PQT_API pqt_status pqt_write_dataset(pqt_table *t, const char *dir, const char *const *partition_by,
                                     int nkeys, const pqt_write_opts *o);
/* Write dir/_metadata and dir/_common_metadata summarising the Parquet files files[0..nfiles)
 * (paths relative to dir, in that order): each footer read once, the row groups concatenated
 * with each column chunk's file_path set to its file, the key-value metadata and schema the
 * first file's; existing summary files are replaced (each through a temporary file renamed
 * into place). Errors: PQT_MISUSE (no file, an empty or absolute path), PQT_SCHEMA_MISMATCH when a file's
 * schema differs from the first's (naming both files and the first differing column), the
 * footer's errors (PQT_IO, PQT_CORRUPT, ...) naming the file, PQT_IO naming the summary. */
PQT_API pqt_status pqt_write_metadata_summary(const char *dir, const char *const *files, int nfiles);

/* ------------------------------------------------------------------------------------------
 * Number text: the exact text of floats and decimals.
 * ------------------------------------------------------------------------------------------ */
/*
 * Text of numbers, the same in every output of the pqt tool and in the statistics text.
 * Each call writes into buf with snprintf semantics (at most cap - 1 bytes and a NUL; nothing
 * when cap is 0) and returns the full length. PQT_NUMBER_TEXT_MAX bytes always suffice for
 * the float calls. Never fails; thread-safe; no allocation.
 *
 * pqt_format_float64 / pqt_format_float32: the shortest decimal that reads back (strtod /
 * strtof, round to nearest) to exactly v; among several of that length the one nearest v.
 * A float32 is judged as a float: 0.1f gives "0.1", not the digits of the double it
 * widens to. Layout (ECMAScript Number::toString, which JSON readers accept):
 *   - plain notation when 1e-6 <= |v| < 1e21: "0.1", "123.25", "0.000001";
 *   - an integral value in plain notation ends in ".0" ("3.0", "100000000000000000000.0")
 *     so it stays a float when read back;
 *   - otherwise exponent notation: "1e+21", "1.5e-7", "4.9406564584124654e-324" (one digit
 *     before the point, no exponent zero-padding, the sign always written);
 *   - "-0.0" for negative zero, "0.0" for zero;
 *   - the words "NaN", "Infinity", "-Infinity" (not JSON numbers: a JSON writer quotes them).
 *
 * pqt_format_decimal: the exact decimal text of the unscaled integer hi * 2^64 + lo (a
 * 128-bit two's-complement value: hi signed, lo unsigned; an int64 x is hi = x < 0 ? -1 : 0,
 * lo = (uint64_t)x) divided by 10^scale, with exactly `scale` fraction digits: "12.345",
 * "-0.05", "0.00012", "7" for scale 0. A negative scale multiplies: 12 with scale -2 is "1200".
 */
#define PQT_NUMBER_TEXT_MAX 32
PQT_API size_t pqt_format_float64(double v, char *buf, size_t cap);
PQT_API size_t pqt_format_float32(float v, char *buf, size_t cap);
PQT_API size_t pqt_format_decimal(int64_t hi, uint64_t lo, int32_t scale, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

/* The library's own sources see both tiers, so that every PQT_API definition is exported. */
#if defined(PQT_BUILDING)
#include "pqt_file.h"
#endif
#endif
