/*
 * pqt.h - the public C API of pqt, a reader for Apache Parquet files.
 *
 * Conventions (they hold for every call below unless its contract says otherwise):
 *  - Every fallible call returns pqt_status; PQT_OK (0) is success. On failure the
 *    message of the failure is pqt_errmsg() on the calling thread, and the call has
 *    changed nothing: out-parameters and handles are left as they were.
 *  - Row numbers are 1-based and inclusive (lo..hi), 64-bit.
 *  - Handles are opaque; each *_open/*_new has a *_close/*_free, and freeing NULL is a no-op.
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
 * Status codes. The numbers are fixed forever; they are grouped by class:
 *   1..9 lookup, 10..19 I/O, 20..29 corrupt input, 30..39 unsupported input,
 *   40..49 memory, 50..69 misuse by the caller, 70..79 limits.
 * ------------------------------------------------------------------------------------------ */
#define PQT_STATUS_LIST(X)                                                                         \
    X(PQT_OK, 0, "ok")                                                                             \
    X(PQT_NOT_FOUND, 1, "not found")                                                               \
    X(PQT_IO, 10, "I/O error")                                                                     \
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
    X(PQT_LIMIT, 70, "limit exceeded")                                                             \
    X(PQT_OVERFLOW, 71, "value does not fit the destination kind")

typedef enum pqt_status {
#define PQT_STATUS_ENUM_(name, num, text) name = num,
    PQT_STATUS_LIST(PQT_STATUS_ENUM_)
#undef PQT_STATUS_ENUM_
} pqt_status;

/* Symbolic name of a status ("PQT_CORRUPT"); "PQT_UNKNOWN" for other numbers. Static storage. */
PQT_API const char *pqt_status_name(pqt_status st);

/* Message of the last failed call on this thread ("" if none). Valid until the next pqt call
 * on this thread. */
PQT_API const char *pqt_errmsg(void);

/* ------------------------------------------------------------------------------------------
 * Kinds: what a column is read as. A scalar column has one of the nine element kinds; a
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
    PQT_VECTOR = 0x20, /* flag: fixed-width vector of the element kind */
    PQT_LIST = 0x40    /* flag: variable-length list of the element kind */
} pqt_kind;

#define PQT_KIND_ELEMENT(k) ((k) & 0x1f)

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
    PQT_OPT_ROW_LO = 4,           /* int64: first row of the slice, 1-based (table open) */
    PQT_OPT_ROW_HI = 5            /* int64: last row of the slice, inclusive (table open) */
} pqt_opt;

/* Create options with defaults. *ret is owned by the caller; free with pqt_opts_free. */
PQT_API pqt_status pqt_opts_new(pqt_opts **ret);
PQT_API void pqt_opts_free(pqt_opts *opts);
/* Set an integer option. PQT_MISUSE for an unknown option or a value out of its range. */
PQT_API pqt_status pqt_opts_set_int(pqt_opts *opts, pqt_opt opt, int64_t value);

/* ------------------------------------------------------------------------------------------
 * Low-level file reader: footer-only open, metadata queries, leaf column reads.
 * ------------------------------------------------------------------------------------------ */
typedef struct pqt_file pqt_file;

/* Open `path` and read its footer (nothing else). opts may be NULL for defaults.
 * Errors: PQT_IO (cannot open/read, names path), PQT_CORRUPT (bad magic, footer length,
 * metadata; names the byte offset), PQT_UNSUPPORTED_ENCRYPTED. */
PQT_API pqt_status pqt_file_open(const char *path, const pqt_opts *opts, pqt_file **ret);
PQT_API void pqt_file_close(pqt_file *f);

PQT_API const char *pqt_file_path(const pqt_file *f);
PQT_API int64_t pqt_file_nrows(const pqt_file *f);
PQT_API int pqt_file_num_row_groups(const pqt_file *f);
/* Rows of row group rg (0-based index). -1 if rg is out of range. */
PQT_API int64_t pqt_file_row_group_nrows(const pqt_file *f, int rg);
/* Number of leaf columns (struct leaves, list columns counted once, unreadable ones too). */
PQT_API int pqt_file_ncolumns(const pqt_file *f);
/* Column index of a dotted path, or PQT_NOT_FOUND (no message set). */
PQT_API pqt_status pqt_file_find_column(const pqt_file *f, const char *path, int *col_ret);

/* Per-column metadata. col is 0-based; out-of-range col gives NULL / PQT_NONE / -1. */
PQT_API const char *pqt_file_column_path(const pqt_file *f, int col);
PQT_API int pqt_file_column_kind(const pqt_file *f, int col);  /* pqt_kind incl. flags */
PQT_API int pqt_file_column_width(const pqt_file *f, int col); /* 1 for scalars */
PQT_API int pqt_file_column_nullable(const pqt_file *f, int col);
PQT_API int pqt_file_column_time_unit(const pqt_file *f, int col); /* pqt_time_unit or -1 */
PQT_API int pqt_file_column_utc(const pqt_file *f, int col);       /* 1 if UTC-adjusted */
/* Parquet's own description: physical type name ("INT64"), logical type ("TIMESTAMP(MICROS,true)",
 * "" if none). */
PQT_API const char *pqt_file_column_physical(const pqt_file *f, int col);
PQT_API const char *pqt_file_column_logical(const pqt_file *f, int col);

/* Key-value metadata of the file. pqt_file_meta_value: PQT_NOT_FOUND if key is absent. */
PQT_API int pqt_file_num_kv(const pqt_file *f);
PQT_API const char *pqt_file_kv_key(const pqt_file *f, int i);
PQT_API pqt_status pqt_file_meta_value(const pqt_file *f, const char *key, const char **value_ret);

/* First and last row (1-based, inclusive) of every row group, from the footer alone.
 * *bounds_ret holds 2 * n entries (lo, hi per row group); free with pqt_free. */
PQT_API pqt_status pqt_row_group_bounds(const char *path, int64_t **bounds_ret, int *n_ret);

/* A column's values as read: library-owned arrays, freed with pqt_array_free. */
typedef struct pqt_array pqt_array;

/* Read column col over rows lo..hi (1-based, inclusive). Only covering row groups are read,
 * each decoded straight into its place. Errors: PQT_RANGE (names range and file rows),
 * PQT_UNSUPPORTED_TYPE (unreadable column), corrupt/codec statuses naming column, row group
 * and page. */
PQT_API pqt_status pqt_file_read(pqt_file *f, int col, int64_t lo, int64_t hi, pqt_array **ret);

/* Read a fixed-width column into caller memory: data must hold (hi-lo+1)*width values of the
 * column's element kind; validity (may be NULL) receives (hi-lo+1+7)/8 bytes, bit i = row i
 * present. PQT_KIND for string and list columns (use pqt_file_read). */
PQT_API pqt_status pqt_file_read_into(pqt_file *f, int col, int64_t lo, int64_t hi, void *data,
                                      size_t data_nbytes, uint8_t *validity);

PQT_API void pqt_array_free(pqt_array *a);
PQT_API int pqt_array_kind(const pqt_array *a);
PQT_API int pqt_array_width(const pqt_array *a);
PQT_API int64_t pqt_array_nrows(const pqt_array *a);
/* Values: nrows*width elements (vector), or offsets[nrows] elements (list). */
PQT_API const void *pqt_array_data(const pqt_array *a);
/* Validity bitmap, bit i (LSB first) = element i present; NULL when nothing can be null. For
 * vectors and lists it covers elements; pqt_array_row_validity covers list rows. */
PQT_API const uint8_t *pqt_array_validity(const pqt_array *a);
PQT_API const uint8_t *pqt_array_row_validity(const pqt_array *a);
/* Strings: nelem + 1 byte offsets into pqt_array_bytes. NULL for other kinds. */
PQT_API const int64_t *pqt_array_str_offsets(const pqt_array *a);
PQT_API const char *pqt_array_bytes(const pqt_array *a);
/* Lists: nrows + 1 element offsets. NULL for other kinds. */
PQT_API const int64_t *pqt_array_list_offsets(const pqt_array *a);

/* Free memory the library allocated for the caller. */
PQT_API void pqt_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
