/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_file.h - the file-level tier of pqt's public C API: a pqt_file opened on one Parquet
 * file, its leaf columns read into pqt_array values (whole, by row range, or for the rows of
 * a pqt_selection within one row group), exact decimals and lists of lists by file column,
 * VARIANT values, and read-only inspection of the footer (schema tree, column chunks,
 * statistics). Programs that work with tables need only pqt.h, which this header includes;
 * the conventions stated at the top of pqt.h hold here too.
 */
#ifndef PQT_FILE_H
#define PQT_FILE_H

#include "pqt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------
 * Low-level file reader: footer-only open, metadata queries, leaf column reads.
 * ------------------------------------------------------------------------------------------ */
typedef struct pqt_file pqt_file;

/* Open `path` and read its footer (nothing else). opts may be NULL for defaults.
 * Errors: PQT_IO (cannot open/read, names path), PQT_CORRUPT (bad magic, footer length,
 * metadata; names the byte offset), PQT_UNSUPPORTED_ENCRYPTED. */
PQT_API pqt_status pqt_file_open(const char *path, const pqt_opts *opts, pqt_file **ret);
/* Open a Parquet file held in memory: nbytes at data, read in place (never copied). The
 * caller keeps the bytes alive and unchanged until the handle is closed -- and, for a table,
 * until it and every clone of it are closed (clones share the bytes). name (may be NULL:
 * "(memory)") stands for the path in messages and pqt_file_path. Files opened by path or
 * descriptor are read with pread (a file truncated while open gives PQT_IO); to read one
 * through a mapping instead, map it and open the memory (a truncation then raises SIGBUS).
 * Errors as for pqt_file_open (a truncated buffer is PQT_CORRUPT naming the offset);
 * PQT_MISUSE for NULL data with nbytes > 0. */
PQT_API pqt_status pqt_file_open_mem(const void *data, size_t nbytes, const char *name,
                                     const pqt_opts *opts, pqt_file **ret);
/* Open the Parquet file behind the caller's open descriptor fd (a regular file, readable).
 * The descriptor is duplicated: the caller still owns fd and may close it right after this
 * call; the handle closes only its own copy. Reads are positional (pread), so fd's offset is
 * neither used nor moved. name (may be NULL: "fd N") stands for the path in messages.
 * Errors as for pqt_file_open; PQT_IO when fd is not open or not a regular file. */
PQT_API pqt_status pqt_file_open_fd(int fd, const char *name, const pqt_opts *opts,
                                    pqt_file **ret);
PQT_API void pqt_file_close(pqt_file *f);

/* The path given at open (or the name given to pqt_file_open_mem/_fd). Lives as long as f. */
PQT_API const char *pqt_file_path(const pqt_file *f);
PQT_API int64_t pqt_file_nrows(const pqt_file *f);
PQT_API int pqt_file_nrow_groups(const pqt_file *f);
/* Rows of row group rg (0-based index). -1 if rg is out of range. */
PQT_API int64_t pqt_file_row_group_nrows(const pqt_file *f, int rg);
/* Number of leaf columns (struct leaves, list columns counted once, unreadable ones too). */
PQT_API int pqt_file_ncols(const pqt_file *f);
/* Column index of a dotted path. PQT_NOT_FOUND with the message "PATH: no column 'mas'; did
 * you mean 'mass'?" (the closest name, when one is close; nothing is read to find it). */
PQT_API pqt_status pqt_file_find_column(const pqt_file *f, const char *path, int *col_ret);

/* Per-column metadata. col is 0-based; out-of-range col gives NULL / PQT_NONE / -1. */
PQT_API const char *pqt_file_column_path(const pqt_file *f, int col);
/* Kind including the PQT_VECTOR/PQT_LIST flag, and width (1 for scalars, w for vectors, 0 for
 * variable-length lists). For a LIST column these two may READ DATA the first time: the
 * footer settles most ragged columns; otherwise row groups are scanned one at a time until a
 * row disagrees. The answer is cached. Not thread-safe for LIST columns before it is cached. */
PQT_API int pqt_file_column_kind(const pqt_file *f, int col);
PQT_API int pqt_file_column_width(const pqt_file *f, int col);
/* Kind and width of column col, reading data only when asked to. With measure = 0 nothing is
 * read: a LIST column whose width neither the footer nor an earlier read settles (its value
 * counts fit a fixed width) gives *kind_ret = element kind | PQT_LIST and *width_ret = -1,
 * "unknown until measured". With measure = 1 it is settled as pqt_file_column_kind does
 * (scanning row groups until one disagrees), and a failed scan returns its status and
 * message (naming column, row group, page) instead of a guess. Every other column answers
 * as pqt_file_column_kind/_width do. Answers are cached like theirs (the same thread rule).
 * Errors: PQT_MISUSE (NULL f, col out of range); with measure = 1 the read statuses.
 * Outputs are untouched on failure. */
PQT_API pqt_status pqt_file_column_shape(pqt_file *f, int col, int measure, int *kind_ret,
                                         int *width_ret);
PQT_API int pqt_file_column_nullable(const pqt_file *f, int col);
PQT_API int pqt_file_column_time_unit(const pqt_file *f, int col); /* pqt_time_unit or -1 */
PQT_API int pqt_file_column_utc(const pqt_file *f, int col);       /* 1 if UTC-adjusted */
/* Parquet's own description: physical type name ("INT64"), logical type ("TIMESTAMP(MICROS,true)",
 * "" if none). */
PQT_API const char *pqt_file_column_physical(const pqt_file *f, int col);
PQT_API const char *pqt_file_column_logical(const pqt_file *f, int col);
/* Why a PQT_NONE column cannot be read ("MAP", "list of lists", ...; never empty); NULL for a
 * readable column or col out of range. */
PQT_API const char *pqt_file_column_unsupported_reason(const pqt_file *f, int col);

/* Key-value metadata of the file. pqt_file_meta_value: PQT_NOT_FOUND if key is absent. */
PQT_API int pqt_file_nkv(const pqt_file *f);
PQT_API const char *pqt_file_kv_key(const pqt_file *f, int i);
PQT_API pqt_status pqt_file_meta_value(const pqt_file *f, const char *key, const char **value_ret);

/* ------------------------------------------------------------------------------------------
 * Arrays: a column's values as read by the pqt_file_read calls.
 * ------------------------------------------------------------------------------------------ */
/* A column's values as read: library-owned arrays, freed with pqt_array_free. */
typedef struct pqt_array pqt_array;

/* Read column col over rows lo..hi (1-based, inclusive). Only covering row groups are read,
 * each decoded straight into its place. Errors: PQT_RANGE (names range and file rows),
 * PQT_UNSUPPORTED_TYPE (unreadable column), corrupt/codec statuses naming column, row group
 * and page. */
PQT_API pqt_status pqt_file_read(pqt_file *f, int col, int64_t lo, int64_t hi, pqt_array **ret);

/* A hint: columns cols[0..ncols) will be read over rows lo..hi (1-based, inclusive) soon. A
 * file read over HTTP or S3 fetches those bytes now, coalesced into few requests, several in
 * flight (docs/remote.md), so the reads that follow, one column at a time, cost no request
 * each; a local file (or a dataset) ignores it. Results never depend on it: a failure to
 * fetch is reported by the read that needs the bytes. Unreadable columns are skipped.
 * Errors: PQT_RANGE as pqt_file_read, PQT_MISUSE (NULL f, cols NULL with ncols > 0, a column
 * out of range). */
PQT_API pqt_status pqt_file_will_read(pqt_file *f, const int *cols, int ncols, int64_t lo,
                                      int64_t hi);

/* Read a fixed-width column into caller memory: data must hold (hi-lo+1)*width values of the
 * column's element kind; validity (may be NULL) receives (hi-lo+1+7)/8 bytes, bit i = row i
 * present. Null rows hold 0 in data, so a sum needs no validity test. PQT_KIND for string
 * and list columns (use pqt_file_read). */
PQT_API pqt_status pqt_file_read_into(pqt_file *f, int col, int64_t lo, int64_t hi, void *data,
                                      size_t data_nbytes, uint8_t *validity);

PQT_API void pqt_array_free(pqt_array *a);
PQT_API int pqt_array_kind(const pqt_array *a);
PQT_API int pqt_array_width(const pqt_array *a);
PQT_API int64_t pqt_array_nrows(const pqt_array *a);
/* Values: nrows*width elements (vector), or offsets[nrows] elements (list). Null elements
 * of fixed-width kinds hold 0. */
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

/* ------------------------------------------------------------------------------------------
 * Selections: your own predicates, row group by row group (docs/reading.md).
 * ------------------------------------------------------------------------------------------ */
/*
 * A pqt_selection is a set of rows of ONE row group: the rows pqt_file_read_selected returns.
 * With it a program runs predicates the filter language cannot say, the way a filter at open
 * runs its own: read a column for the rows still selected, evaluate anything, refine the
 * selection by the verdicts, and read the next column only for the rows that survive (pages
 * holding no selected row are not decompressed):
 *
 *     pqt_selection *sel;
 *     pqt_selection_new(pqt_file_row_group_nrows(f, rg), 1, &sel);     all rows
 *     pqt_file_read_selected(f, col_a, rg, sel, &a);                    every row of a
 *     ... keep[k] = verdict on row k of a ...
 *     pqt_selection_refine(sel, keep, pqt_array_nrows(a));              the survivors
 *     pqt_file_read_selected(f, col_b, rg, sel, &b);                    b, survivors only
 *
 * Rows are 1-based within the row group (row 1 is its first row) and nrows is the row
 * group's row count (pqt_file_row_group_nrows). A selection knows no file. It is used by one
 * thread at a time; several threads may read with one selection that none of them changes.
 * Every failed call changes nothing: a selection keeps its rows, out-parameters are untouched.
 * Errors every call can give besides its own: PQT_MISUSE for a NULL selection, array or
 * out-parameter (an array may be NULL when it would hold no entry), PQT_NOMEM.
 */
typedef struct pqt_selection pqt_selection;

/* A new selection of nrows (>= 0) rows: all of them (all != 0) or none. *ret belongs to the
 * caller (pqt_selection_free). PQT_MISUSE for nrows < 0. */
PQT_API pqt_status pqt_selection_new(int64_t nrows, int all, pqt_selection **ret);
/* The rows whose bit is set in bits, (nrows + 7) / 8 bytes, LSB first: row r is bit
 * (r - 1) % 8 of bits[(r - 1) / 8], the layout of pqt_array_validity; the bits past nrows in
 * the last byte are ignored. PQT_MISUSE for nrows < 0. */
PQT_API pqt_status pqt_selection_from_bitmap(const uint8_t *bits, int64_t nrows,
                                             pqt_selection **ret);
/* The rows whose byte keep[r - 1] is not 0 (nrows bytes, one per row). PQT_MISUSE for
 * nrows < 0. */
PQT_API pqt_status pqt_selection_from_bools(const uint8_t *keep, int64_t nrows,
                                            pqt_selection **ret);
/* The union of nranges row ranges lo..hi (1-based, inclusive): lo_hi holds 2 * nranges
 * entries lo1, hi1, lo2, hi2, ... The ranges may come in any order, overlap or touch. A range
 * with hi = lo - 1 is empty and allowed for lo in 1..nrows + 1 (pqt_table_row_group_bounds
 * writes such ranges). PQT_RANGE for any other range not inside 1..nrows, naming its index
 * (1-based), lo..hi and nrows; PQT_MISUSE for nranges < 0 or nrows < 0. */
PQT_API pqt_status pqt_selection_from_ranges(const int64_t *lo_hi, int64_t nranges,
                                             int64_t nrows, pqt_selection **ret);
/* An independent copy of sel (pqt_selection_free). */
PQT_API pqt_status pqt_selection_copy(const pqt_selection *sel, pqt_selection **ret);
/* Free a selection; NULL is a no-op. */
PQT_API void pqt_selection_free(pqt_selection *sel);

/* Rows the selection is over, and rows selected. -1 for NULL. */
PQT_API int64_t pqt_selection_nrows(const pqt_selection *sel);
PQT_API int64_t pqt_selection_count(const pqt_selection *sel);

/* a becomes a AND b (rows in both) or a OR b (rows in either); b is not changed and may be a.
 * PQT_MISUSE when their row counts differ, naming both. */
PQT_API pqt_status pqt_selection_and(pqt_selection *a, const pqt_selection *b);
PQT_API pqt_status pqt_selection_or(pqt_selection *a, const pqt_selection *b);
/* sel becomes its complement: the rows it did not select. */
PQT_API pqt_status pqt_selection_not(pqt_selection *sel);
/* Keep only the selected rows whose verdict is not 0: keep holds n bytes, keep[k] the verdict
 * for the (k + 1)-th selected row in row order -- row k + 1 of what pqt_file_read_selected
 * returned for this selection. PQT_MISUSE when n differs from pqt_selection_count, naming
 * both. */
PQT_API pqt_status pqt_selection_refine(pqt_selection *sel, const uint8_t *keep, int64_t n);
/* The selected rows (1-based, ascending) into rows[0 .. count); cap is how many entries rows
 * holds. PQT_MISUSE when cap < pqt_selection_count, naming the count; nothing is written. */
PQT_API pqt_status pqt_selection_to_rows(const pqt_selection *sel, int64_t *rows, int64_t cap);
/* The selection as a bitmap (the layout pqt_selection_from_bitmap reads) into
 * bits[0 .. (nrows + 7) / 8); the bits past nrows in the last byte are written 0. PQT_MISUSE
 * when nbytes is smaller, naming the size needed; nothing is written. */
PQT_API pqt_status pqt_selection_to_bitmap(const pqt_selection *sel, uint8_t *bits,
                                           size_t nbytes);

/* Read column col (0-based, as in pqt_file_read) of row group rg (0-based, as in
 * pqt_file_row_group_nrows) for the rows sel selects only, in row order: *ret has
 * pqt_selection_count rows and is shaped exactly as pqt_file_read's array over the same rows
 * would be (kind, width, values, validity -- a selected null row is returned as null --
 * string offsets and bytes, list offsets and row validity). Like pqt_file_read, a LIST
 * column is PQT_VECTOR when every returned row holds the same number (>= 1) of elements and
 * none is null, else PQT_LIST. Pages holding no selected row are skipped before they are
 * decompressed (a list column's pages are found by the offset index when the chunk has
 * one), and unselected rows inside a page are skipped, not converted; an empty selection
 * reads nothing and gives an array of 0 rows. *ret belongs to the caller (pqt_array_free). The call only reads f and
 * sel. Errors: PQT_NOT_FOUND (no column col), PQT_MISUSE (rg out of range; sel's nrows is not
 * the row group's row count, naming both), PQT_UNSUPPORTED_TYPE (unreadable column), and
 * pqt_file_read's read errors naming column, row group and page. */
PQT_API pqt_status pqt_file_read_selected(pqt_file *f, int col, int rg, const pqt_selection *sel,
                                          pqt_array **ret);
/* The same for a fixed-width scalar column, into caller memory as pqt_file_read_into does:
 * data holds pqt_selection_count values of the column's element kind (data_nbytes bytes;
 * null rows hold 0), validity (may be NULL) receives (count + 7) / 8 bytes, bit k = selected
 * row k + 1 present. PQT_KIND for string and list columns (use pqt_file_read_selected);
 * PQT_MISUSE when data_nbytes is too small, naming the size needed. Errors otherwise as
 * pqt_file_read_selected. */
PQT_API pqt_status pqt_file_read_selected_into(pqt_file *f, int col, int rg,
                                               const pqt_selection *sel, void *data,
                                               size_t data_nbytes, uint8_t *validity);

/* ------------------------------------------------------------------------------------------
 * Exact decimals and lists of lists, by file column.
 * ------------------------------------------------------------------------------------------ */
/*
 * Exact decimals (pqt.h, "Exact decimals", says how a DECIMAL column reads elsewhere).
 *
 * pqt_file_column_decimal: *precision_ret and *scale_ret (either may be NULL) of a DECIMAL
 * column. PQT_KIND (with a message) for a column that is not a decimal -- a cheap test;
 * PQT_MISUSE for col out of range.
 *
 * pqt_file_read_decimal: rows lo..hi (1-based, inclusive) of a DECIMAL column, shaped like
 * pqt_file_read (the same vector/list flags, width, offsets, validity; null elements hold 0)
 * but with element kind PQT_INT64 (precision <= 18: one int64_t per element) or PQT_INT128
 * (19..38: two int64_t per element, the low 64 bits first, see PQT_INT128). Errors: those of
 * pqt_file_read; PQT_KIND (not a decimal); PQT_UNSUPPORTED_TYPE for precision > 38;
 * PQT_OVERFLOW naming the column, row group and page for a stored value wider than its
 * precision allows (a BYTE_ARRAY decimal of more than 16 significant bytes, say).
 */
PQT_API pqt_status pqt_file_column_decimal(const pqt_file *f, int col, int *precision_ret,
                                           int *scale_ret);
PQT_API pqt_status pqt_file_read_decimal(pqt_file *f, int col, int64_t lo, int64_t hi,
                                         pqt_array **ret);

/* List levels of column col when it is a list of lists pqt_file_read_nested_list reads (2
 * for list<list<T>>, at most 8); 0 for any other column or col out of range. */
PQT_API int pqt_file_column_nested_levels(const pqt_file *f, int col);
/* Read rows lo..hi (1-based, inclusive; hi = lo - 1 reads no row) of list-of-lists column
 * col. The row groups holding them are read whole (every level entry places the rows), by
 * the calling thread. *ret belongs to the caller (pqt_nested_list_free); on failure it is
 * untouched. Errors: PQT_MISUSE (NULL f or ret), PQT_NOT_FOUND (no column col), PQT_KIND
 * (not a list of lists: use pqt_file_read; or one pqt_file_column_nested_levels says 0 for,
 * naming why), PQT_UNSUPPORTED_TYPE (lists of lists of strings), PQT_RANGE (names the range
 * and the file's rows), and pqt_file_read's read errors naming column, row group and page. */
PQT_API pqt_status pqt_file_read_nested_list(pqt_file *f, int col, int64_t lo, int64_t hi,
                                             pqt_nested_list **ret);

/* ------------------------------------------------------------------------------------------
 * VARIANT (docs/variant.md). A group annotated VARIANT is listed as its two binary leaves,
 * "<v>.metadata" and "<v>.value" (PQT_BINARY); a shredded one (with a typed_value field) is
 * unreadable. pqt_file_column_variant tells which leaf a column is.
 * ------------------------------------------------------------------------------------------ */
/* 1 when column col is the metadata leaf of an unshredded VARIANT group, 2 when it is the
 * value leaf, 0 otherwise (also for col out of range). */
PQT_API int pqt_file_column_variant(const pqt_file *f, int col);
/* One variant value as JSON text: metadata/value are the bytes of one row of the two leaves.
 * Objects print their fields in stored order with the metadata's keys; numbers exactly
 * (decimals with their scale, floats as pqt_format_float64/32, NaN and infinities as
 * strings); dates, times, timestamps, UUIDs as strings, binary as base64 strings (the rules:
 * docs/variant.md). *json_ret (NUL-terminated; free with pqt_free) and *len_ret (may be NULL)
 * are set only on success. Errors: PQT_MISUSE (json_ret NULL, a NULL buffer with a nonzero
 * size); PQT_CORRUPT for bytes that break the encoding (the message names the byte), nesting
 * deeper than 128, or text growing past 1024 bytes per input byte; PQT_NOMEM. */
PQT_API pqt_status pqt_variant_to_json(const void *metadata, size_t metadata_nbytes,
                                       const void *value, size_t value_nbytes, char **json_ret,
                                       size_t *len_ret);

/* ------------------------------------------------------------------------------------------
 * Parts of one file written by several processes (docs/writing.md "Parts of one file").
 * ------------------------------------------------------------------------------------------ */
/*
 * Several writers -- processes, or the ranks of an MPI job (pqt_mpi.h is built on these
 * calls) -- each write their rows as a PART of one Parquet file, in part order:
 *   1. each writer: pqt_writer_open_part with its part number k, pqt_writer_write (any
 *      number of times), pqt_writer_close_part -- or pqt_write_table_part -- giving a
 *      pqt_part: its data bytes (pqt_part_nbytes) and its footer (pqt_part_footer), plain
 *      bytes another process can be sent. Part 0's bytes go straight into the shared
 *      temporary file "<path>.tmp-XXXXXX" beside path, after the 4-byte head; the others'
 *      to a nameless spool beside path, copied into place in step 3;
 *   2. the writer of part 0: pqt_shared_file_create gives the temporary file's name;
 *   3. each writer: pqt_part_write_to puts its part's bytes at offset 4 + the bytes of the
 *      parts before it (parts 0 .. k-1; a part without rows has none);
 *   4. the writer holding part 0: pqt_part_assemble with every part's footer gives the
 *      tail (page indexes and footer) and its offset, and pqt_shared_file_commit writes it
 *      and gives the file its name. After any failure, pqt_shared_file_remove.
 * The file is then the one pqt_write_table would write of the parts' rows concatenated,
 * except that each part's rows are cut into row groups of their own: statistics, page
 * indexes, bloom filters and dictionaries per chunk as the options say, key-value entries
 * as part 0's writer makes them (DATE, the VOTable's row count, vector widths and string
 * lengths from every part's rows). Every part must be opened with the same path, columns
 * and options (the footers' schemas are checked).
 */
typedef struct pqt_part pqt_part;

/* A streaming writer (pqt_writer_write, pqt_writer_flush, pqt_writer_nrows as for
 * pqt_writer_open) whose rows become part `part` (0-based) of the file path: nothing is
 * created under path's name. Part 0 writes into the shared temporary file beside path
 * (pqt_writer_temp_path names it; removed if the part is freed before the commit); any other
 * part into a spool file created beside path and unlinked at once (pqt_writer_temp_path is
 * NULL). opts is copied. Errors as pqt_writer_open (PQT_EXISTS when path exists without
 * PQT_WOPT_OVERWRITE), and PQT_MISUSE for part < 0. With PQT_WOPT_WRITE_MAML part 0 writes
 * the sidecar at pqt_shared_file_commit; other parts ignore it. pqt_writer_close refuses a
 * part's writer (PQT_MISUSE; the writer is freed, nothing written). */
PQT_API pqt_status pqt_writer_open_part(pqt_writer **ret, const char *path,
                                        pqt_table *template_table, const pqt_write_opts *opts,
                                        int part);
/* Finish a part writer: its last row group written, *ret the part (owned by the caller:
 * pqt_part_free). The writer is freed in every case. Errors: PQT_MISUSE for a writer not
 * opened as a part; after a failed write, that write's status with its message ("an
 * earlier write failed; nothing was written: ..."), so a process that collects the parts
 * can report it; PQT_IO, PQT_NOMEM, PQT_LIMIT. */
PQT_API pqt_status pqt_writer_close_part(pqt_writer *w, pqt_part **ret);
/* pqt_write_table as a part: open, write every row of t, close. Errors as those calls. */
PQT_API pqt_status pqt_write_table_part(pqt_table *t, const char *path, const pqt_write_opts *opts,
                                        int part, pqt_part **ret);
/* The part's data bytes (0 without rows) and rows; 0 for NULL. */
PQT_API int64_t pqt_part_nbytes(const pqt_part *p);
PQT_API int64_t pqt_part_nrows(const pqt_part *p);
/* The part's footer: *nbytes_ret bytes owned by p, valid until pqt_part_free. Copy them to
 * the process assembling the file as they are. */
PQT_API const void *pqt_part_footer(const pqt_part *p, size_t *nbytes_ret);
/* Write the part's bytes into the temporary file tmp (pqt_shared_file_create's) at offset
 * (>= 4) and flush them to disk; nothing is opened for a part without bytes; part 0's bytes,
 * already there, are only flushed (offset must be 4). Errors: PQT_MISUSE, PQT_IO naming tmp
 * and the byte offset. */
PQT_API pqt_status pqt_part_write_to(const pqt_part *p, const char *tmp, int64_t offset);
/* The tail of the file whose part 0 is `first`: footers[k] (footer_nbytes[k] bytes) is part
 * k's footer for k = 0 .. nparts - 1 (footers[0] is first's own). Part k starts at 4 + the
 * bytes of the parts before it; *tail_offset_ret (4 + every part's bytes) is where the tail
 * goes, *tail_ret (free with pqt_free) its *tail_nbytes_ret bytes: the column indexes, the
 * offset indexes (page locations moved to the file's offsets) and the footer with its length
 * and "PAR1". Every part's footer is checked: PQT_SCHEMA_MISMATCH "part 0 and part k have
 * different schemas: they first differ at column 'c'", PQT_CORRUPT naming the part for a
 * footer that is not one or whose offsets leave its part, PQT_LIMIT (2^31 - 1 row groups, a
 * footer past 2^32 - 1 bytes), PQT_NOMEM; PQT_MISUSE for NULL arguments, footers[0] not
 * first's, or a second call on the same first (its key-value entries are filled once). A
 * failed call before that fill changes nothing. */
PQT_API pqt_status pqt_part_assemble(pqt_part *first, int nparts, const void *const *footers,
                                     const size_t *footer_nbytes, int64_t *tail_offset_ret,
                                     void **tail_ret, size_t *tail_nbytes_ret);
/* Drop a part and its spool (NULL is a no-op). */
PQT_API void pqt_part_free(pqt_part *p);
/* The shared temporary file's name, *tmp_ret (free with pqt_free): part 0's own (its writer
 * created it); for another part p, a new "<path>.tmp-XXXXXX" beside p's path holding the head
 * "PAR1" (then PQT_EXISTS when the path exists and p's options have no
 * PQT_WOPT_OVERWRITE, PQT_IO). Errors: PQT_NOMEM, PQT_MISUSE. */
PQT_API pqt_status pqt_shared_file_create(const pqt_part *p, char **tmp_ret);
/* Write the tail (pqt_part_assemble's) into tmp at tail_offset, cut the file there, flush it
 * and give it first's path as pqt_writer_close does (a link that refuses an existing name,
 * or a rename under PQT_WOPT_OVERWRITE), with first's sidecar under PQT_WOPT_WRITE_MAML
 * (PQT_EXISTS, before anything is named, when it exists without PQT_WOPT_OVERWRITE). On
 * failure tmp stays: remove it with pqt_shared_file_remove. Errors: PQT_EXISTS, PQT_IO
 * naming the file, PQT_MISUSE. */
PQT_API pqt_status pqt_shared_file_commit(pqt_part *first, const char *tmp,
                                          int64_t tail_offset, const void *tail,
                                          size_t tail_nbytes);
/* Remove the temporary file tmp (NULL is a no-op). */
PQT_API void pqt_shared_file_remove(const char *tmp);

/* A dataset whose files several processes write (pqt_write_dataset_mpi): the folder is
 * written as a hidden temporary sibling and renamed into place whole, as pqt_write_dataset
 * does. create: dir must not exist or be empty (else PQT_EXISTS); *tmp_ret (free with
 * pqt_free) is the new sibling "parent/.name.tmp-XXXXXX". commit: its files flushed to disk,
 * then renamed to dir (PQT_EXISTS when dir was filled meanwhile; PQT_IO). remove: the
 * sibling and everything in it (NULL is a no-op). */
PQT_API pqt_status pqt_dataset_dir_create(const char *dir, char **tmp_ret);
PQT_API pqt_status pqt_dataset_dir_commit(const char *tmp, const char *dir);
PQT_API void pqt_dataset_dir_remove(const char *tmp);

/* ------------------------------------------------------------------------------------------
 * File inspection (pqt meta / pqt schema).
 * ------------------------------------------------------------------------------------------ */
/*
 * Read-only views of the footer of an open pqt_file, for tools that describe a file. None
 * of these reads the file. Unless a contract says otherwise: f must be an open handle; an
 * index out of range gives NULL (strings), -1 (numbers) or PQT_MISUSE (status calls); the
 * returned strings are owned by the handle (or static) and live until pqt_file_close.
 * Calls that format text write it into a caller buffer with snprintf semantics: buf
 * receives at most cap - 1 bytes and a NUL (nothing when cap is 0), *len_ret (may be NULL)
 * the full length, so a call with cap 0 asks for the size. Truncation is not an error.
 */

/* Which statistic of a column chunk (pqt_file_chunk_stat_*). */
typedef enum pqt_stat {
    PQT_STAT_MIN = 0,
    PQT_STAT_MAX = 1,
    PQT_STAT_NULL_COUNT = 2,
    PQT_STAT_DISTINCT_COUNT = 3,
    PQT_STAT_NAN_COUNT = 4
} pqt_stat;

/* The writer named in the footer ("parquet-cpp-arrow version 15.0.0"); "" when absent. */
PQT_API const char *pqt_file_created_by(const pqt_file *f);

/* Bytes of row group rg (0-based) as the footer records them: total_byte_size (uncompressed
 * data) and the compressed total (the sum of its chunks when the footer omits it). */
PQT_API int64_t pqt_file_row_group_nbytes(const pqt_file *f, int rg);
PQT_API int64_t pqt_file_row_group_compressed_nbytes(const pqt_file *f, int rg);

/*
 * Schema tree: the footer's schema elements in pre-order. Node 0 is the root (the message);
 * a group node has children, a primitive node has none. Nodes are 0-based.
 */
PQT_API int pqt_file_nnodes(const pqt_file *f); /* including the root */
PQT_API const char *pqt_file_node_name(const pqt_file *f, int node);
/* The name the table columns use for a node: its own name, except for a top-level field
 * whose name an earlier top-level field already has. Such a field is read as NAME_k, the
 * smallest k >= 1 that no top-level field has ("a", "a", "a_1" are read as "a", "a_2",
 * "a_1"), so every column has a distinct path that pqt_file_find_column and the table reach;
 * index access is unchanged. Lives as long as f; NULL when node is out of range. */
PQT_API const char *pqt_file_node_read_name(const pqt_file *f, int node);
/* Depth below the root (root 0, top-level fields 1); parent node (-1 for the root). Both walk
 * the tree from the root: O(node). -1 also when out of memory. */
PQT_API int pqt_file_node_depth(const pqt_file *f, int node);
PQT_API int pqt_file_node_parent(const pqt_file *f, int node);
PQT_API int pqt_file_node_nchildren(const pqt_file *f, int node);
/* "required", "optional", "repeated"; "" when the element has no repetition (the root).
 * Static storage. */
PQT_API const char *pqt_file_node_repetition(const pqt_file *f, int node);
/* Physical type name ("INT64", "FIXED_LEN_BYTE_ARRAY", "UNKNOWN" for a number this library
 * does not know); "" for a group. Static storage. The width of a FIXED_LEN_BYTE_ARRAY is
 * pqt_file_node_type_length (0 for other types). */
PQT_API const char *pqt_file_node_physical(const pqt_file *f, int node);
PQT_API int32_t pqt_file_node_type_length(const pqt_file *f, int node);
/* Logical type as text: "TIMESTAMP(MICROS,true)", "DECIMAL(9,2)", "LIST", "STRING"; the
 * converted type ("UTF8", "MAP_KEY_VALUE") when the element has no logical type; "" when it
 * has neither. Into buf (see above). Errors: PQT_MISUSE (node out of range, NULL buf with
 * cap > 0), PQT_NOMEM. */
PQT_API pqt_status pqt_file_node_logical(const pqt_file *f, int node, char *buf, size_t cap,
                                         size_t *len_ret);
/* The table column (pqt_file_column_*) this node is read as: a primitive leaf, a LIST field
 * read as one vector/list column, or the outermost field of an unreadable nested column.
 * -1 for nodes inside such a column and for plain groups (structs, the root). */
PQT_API int pqt_file_node_column(const pqt_file *f, int node);

/*
 * Column chunks. Each row group holds one chunk per primitive leaf ("leaf" below, 0-based,
 * in schema order; a nested unreadable column spans several leaves). rg is 0-based. For a
 * chunk whose metadata is absent (encrypted column) the chunk calls give NULL / -1.
 */
PQT_API int pqt_file_nleaves(const pqt_file *f);
/* Schema node of a leaf (a primitive node), -1 if out of range. */
PQT_API int pqt_file_leaf_node(const pqt_file *f, int leaf);
/* Codec name ("ZSTD", "SNAPPY", "UNCOMPRESSED", "UNKNOWN" for a number not in the format).
 * Static storage. */
PQT_API const char *pqt_file_chunk_codec(const pqt_file *f, int rg, int leaf);
/* The encodings the chunk lists (ColumnMetaData.encodings, in file order), each by name
 * ("PLAIN", "RLE_DICTIONARY", "UNKNOWN"). Static storage. */
PQT_API int pqt_file_chunk_nencodings(const pqt_file *f, int rg, int leaf);
PQT_API const char *pqt_file_chunk_encoding(const pqt_file *f, int rg, int leaf, int i);
/* num_values (values incl. nulls, counting list elements), and total sizes in bytes. */
PQT_API int64_t pqt_file_chunk_nvals(const pqt_file *f, int rg, int leaf);
PQT_API int64_t pqt_file_chunk_compressed_nbytes(const pqt_file *f, int rg, int leaf);
PQT_API int64_t pqt_file_chunk_uncompressed_nbytes(const pqt_file *f, int rg, int leaf);
/* 1 if the chunk has an offset index / a column index (together: the page index) / a bloom
 * filter, 0 if not, -1 if out of range. */
PQT_API int pqt_file_chunk_has_offset_index(const pqt_file *f, int rg, int leaf);
PQT_API int pqt_file_chunk_has_column_index(const pqt_file *f, int rg, int leaf);
PQT_API int pqt_file_chunk_has_bloom_filter(const pqt_file *f, int rg, int leaf);
/* Chunk statistics. which = PQT_STAT_MIN or PQT_STAT_MAX for the text and exactness calls;
 * PQT_STAT_NULL_COUNT, PQT_STAT_DISTINCT_COUNT or PQT_STAT_NAN_COUNT for the count call.
 *
 * pqt_file_chunk_stat_text renders min or max for the leaf's physical and logical type:
 * integers in decimal (unsigned ones unsigned), floats as pqt_format_float64/32 print them
 * (FLOAT and FLOAT16 as float32) including NaN / Infinity / -Infinity, booleans true/false,
 * dates YYYY-MM-DD, times HH:MM:SS.fff[fff[fff]] (a negative time wrapped modulo 24 hours),
 * timestamps YYYY-MM-DDTHH:MM:SS.ffffff (digits of the unit, "Z" if UTC-adjusted, INT96 as
 * nanoseconds), decimals exactly with their scale (pqt_format_decimal; hex when wider than
 * 128 bits), strings "quoted" with JSON escapes
 * (\xNN for bytes that are not UTF-8) and cut after 40 characters with "…", UUIDs in the
 * 8-4-4-4-12 form, other bytes as 0x-hex cut after 32 bytes. It uses min_value/max_value,
 * or the deprecated min/max where their signed order is the type's order (not for byte
 * arrays or unsigned integers). Errors: PQT_NOT_FOUND when the chunk has no such statistic
 * (no message set); PQT_MISUSE for rg/leaf out of range, a bad `which` or a NULL buf with
 * cap > 0. Into buf (see above).
 * pqt_file_chunk_stat_exact: 1 if that min/max is the exact value, 0 if the writer says it
 * is not (a truncated string, say), -1 if unknown or absent.
 * pqt_file_chunk_stat_count: the count, -1 if the chunk does not record it. */
PQT_API pqt_status pqt_file_chunk_stat_text(const pqt_file *f, int rg, int leaf, int which,
                                            char *buf, size_t cap, size_t *len_ret);
PQT_API int pqt_file_chunk_stat_exact(const pqt_file *f, int rg, int leaf, int which);
PQT_API int64_t pqt_file_chunk_stat_count(const pqt_file *f, int rg, int leaf, int which);

/* ------------------------------------------------------------------------------------------
 * One open shared by several processes: the building blocks of pqt_mpi.h, usable with any
 * launcher (docs/mpi.md). No call here communicates.
 * ------------------------------------------------------------------------------------------ */

/* Open share part (0-based) of nparts of path, as pqt_table_open with opts, keeping only the
 * part's rows (PQT_OPT_SHARE_BY: whole row groups balanced by compressed bytes, or exact
 * rows). Every process that opens the same path with the same opts and nparts gets disjoint
 * shares, in part order, whose rows together are the rows of pqt_table_open; statistics
 * pruning happens before the split, the filter pass, sample and qc within each share. A sort
 * or limit at open is refused (PQT_MISUSE).
 * Metadata once: with on_snapshot, the open records the metadata it reads (the listing, the
 * footers' raw bytes, the sample's seed) and calls on_snapshot(user, bytes, nbytes) once, as
 * soon as it has read them and before it decodes the member footers (so other processes
 * decode while this one does); the bytes are valid during the call only, and a status other
 * than PQT_OK from it fails the open. It is not called when the open fails before. Given
 * those bytes as snapshot, another open of the same path and opts (in any process that sees
 * the same files) decodes them instead of reading any footer or listing a directory. A file
 * whose size differs from the snapshot's is PQT_IO when it is opened.
 * Errors: as pqt_table_open; PQT_MISUSE for part/nparts out of range or both a snapshot and
 * on_snapshot; PQT_CORRUPT for bytes that are not a snapshot. */
typedef pqt_status (*pqt_snapshot_fn)(void *user, const void *snapshot, size_t nbytes);
PQT_API pqt_status pqt_table_open_share(const char *path, const pqt_opts *opts, int part,
                                        int nparts, const void *snapshot,
                                        size_t snapshot_nbytes, pqt_snapshot_fn on_snapshot,
                                        void *user, pqt_table **ret);

/* Make status and message (copied, cut at the message buffer's size) the last error of this
 * thread, as if a pqt call had failed with them, and return status: for a library layered on
 * pqt that hands one process's failure to another (pqt_mpi). */
PQT_API pqt_status pqt_set_error(pqt_status status, const char *message);

#ifdef __cplusplus
}
#endif
#endif
