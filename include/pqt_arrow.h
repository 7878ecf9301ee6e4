/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqt_arrow.h - tables in and out through the Arrow C Data Interface and the Arrow C Stream
 * Interface (docs/arrow.md): hand a table to DuckDB, pyarrow, Polars or nanoarrow without a
 * copy, and make a table or a Parquet file from any Arrow stream. Part of libpqt.
 *
 * The ABI structs are declared under the guards the Arrow specification prescribes, so this
 * header can be included beside nanoarrow's or Arrow's own headers in any order.
 *
 * Ownership follows the Arrow release rules exactly: a struct a call fills is the caller's,
 * who releases it (its release callback, once; a released struct has release == NULL); a
 * struct may be moved by a bitwise copy, after which the source must not be released. What
 * pqt exports stays valid until the consumer releases it, even after the table is closed.
 */
#ifndef PQT_ARROW_H
#define PQT_ARROW_H

#include <stdint.h>

#include "pqt.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

/* ---- Export: a table as Arrow ---- */

/* The rows of t (after its filter, sort, sample and slice) as a stream of record batches
 * (struct arrays, one child per column) into *out, which the caller releases.
 * columns[0..ncols) names the columns in order; columns NULL (ncols ignored) exports every
 * readable column in the table's order. batch_rows 0 cuts batches at the table's row groups
 * (one batch per row group that contributes rows; a table with no row groups, detached from
 * its file, or whose rows are permuted by a sort, is one batch per 65,536 rows); batch_rows
 * > 0 cuts every batch_rows rows. A resident column is exported without a copy (its buffers
 * stay alive until the last array using them is released, even after pqt_table_close); a
 * column not resident is read batch by batch through the table's plan, so memory stays
 * about one batch; the columns of a table sorted at open are made resident first. The
 * table must not change (structurally or in values) and must not be closed while the stream
 * is pulled; the arrays already pulled need nothing of it and never change: a later write
 * into a column whose arrays an export still reads (pqt_table_set_rows, pqt_table_set_null,
 * pqt_table_clear_null, pqt_table_cast, taking a pqt_table_column view to write through)
 * first gives the table its own copy, a structural change (the generation is bumped). A
 * view taken before the export shares its arrays: do not write through it while they live.
 * Mapping (docs/arrow.md): int32/int64/uint64 as themselves, float32/float64, FLOAT16 as
 * halffloat, bool bit-packed, strings as large_utf8, binary as large_binary, decimals as
 * decimal128 with the file's precision and scale (up to precision 38, the widest whose
 * unscaled integers pqt reads; wider ones as float64), date32, time32[ms]/time64[us|ns],
 * timestamps with their unit and "UTC" when adjusted to UTC, UUID as fixed_size_binary(16)
 * with extension name "arrow.uuid", vectors as fixed_size_list, lists as large_list, struct
 * leaves and lists ("s.a", "s.b", "s.l") gathered into one struct field, null where the
 * file's struct is null (from its definition levels, while the table's rows are its file's),
 * maps as map<key, value>. A column's
 * unit and MAML description travel as field metadata ("unit", "description", "ucd").
 * Errors: PQT_NOT_FOUND naming a missing column; PQT_UNSUPPORTED_TYPE naming a column pqt
 * cannot read; PQT_MISUSE (NULL t or out, ncols < 0, batch_rows < 0); on failure *out is
 * untouched. A read that fails while the stream is pulled makes get_next return EIO and
 * get_last_error the pqt message. */
PQT_API pqt_status pqt_table_export_arrow_stream(pqt_table *t, const char *const *columns,
                                                 int ncols, int64_t batch_rows,
                                                 struct ArrowArrayStream *out);

/* The schema the stream above would give (a struct schema, one child per column), without
 * reading values (a LIST column's width may be measured, as pqt_table_width). */
PQT_API pqt_status pqt_table_export_arrow_schema(pqt_table *t, const char *const *columns,
                                                 int ncols, struct ArrowSchema *out);

/* One column, every row of the table, as one array (*array_out) and its field (*schema_out,
 * may be NULL), through the C Data Interface. Reads the column (it stays resident) and
 * exports it as the stream does. Errors as the stream's. */
PQT_API pqt_status pqt_table_export_arrow_array(pqt_table *t, const char *column,
                                                struct ArrowSchema *schema_out,
                                                struct ArrowArray *array_out);

/* ---- Import: Arrow as a table or a file ---- */

/* Every batch of in (a stream of struct arrays) as one in-memory table *ret (caller closes),
 * its columns named and typed from the stream's schema. The stream is released on return,
 * success or not. Types pqt cannot hold are PQT_UNSUPPORTED_TYPE naming the field and its
 * Arrow format; narrower integers widen (int8/16 and uint8/16 to int32, uint32 to int64).
 * Errors: PQT_IO with the producer's get_last_error when a callback fails; PQT_CORRUPT when
 * a batch breaks the C Data Interface (naming the field, the batch and what is wrong). */
PQT_API pqt_status pqt_table_from_arrow_stream(struct ArrowArrayStream *in, pqt_table **ret);

/* Every batch of in written to the Parquet file path (opts may be NULL: the writer's
 * defaults), one batch in memory at a time; a failed write leaves no file at path. The
 * stream is released on return. Errors as pqt_table_from_arrow_stream and the writer's. */
PQT_API pqt_status pqt_write_arrow_stream(const char *path, struct ArrowArrayStream *in,
                                          const pqt_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* PQT_ARROW_H */
