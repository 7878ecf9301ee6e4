/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_dataset.h - hive datasets and their _metadata summary, private to the writer:
 * write_dataset.c (partitions and files), write_dataset_name.c (folder names) and
 * write_summary.c (the summary files) (layer: write; docs/writing.md "Datasets").
 */
#ifndef PQT_WRITE_DATASET_H
#define PQT_WRITE_DATASET_H

#include <stdbool.h>
#include <stdint.h>

#include "column/column.h"
#include "format/meta.h"
#include "pqt.h"
#include "util/buf.h"

/* The folder name of a null partition value (Hive's, which Spark, DuckDB and Polars read as
 * null). */
#define PQT_HIVE_NULL "__HIVE_DEFAULT_PARTITION__"

/* Append to out the folder name "key=value" for row `row` (0-based) of the resident key
 * column b of kind `kind` (PQT_INT32, PQT_INT64, PQT_UINT64, PQT_BOOL, PQT_DATE,
 * PQT_STRING): integers in decimal, bools true/false, dates YYYY-MM-DD, strings as they
 * are; key and value percent-encoded (pqt_wds_escape); a null is PQT_HIVE_NULL. */
pqt_status pqt_wds_segment(pqt_buf *out, const char *key, const pqt_colbuf *b, int kind,
                           int64_t row);
/* Append n bytes of s to out percent-encoded as Spark encodes hive folder names (DuckDB
 * encodes more, blanks and non-ASCII bytes too; both decode any %XX):
 * %XX (upper-case hex) for bytes 0x00-0x1F and 0x7F, the characters '"' '#' '%' '\'' '*'
 * '/' ':' '=' '?' '\\' '{' '[' ']' '^', and those Windows forbids in names ('<' '>' '|');
 * every other byte (UTF-8 included) as it is. */
pqt_status pqt_wds_escape(pqt_buf *out, const char *s, size_t n);

/* Write dir/_metadata and dir/_common_metadata for files[0..n) (paths relative to dir),
 * each through a temporary file renamed into place (each flushed to disk first when sync is
 * set; pqt_write_dataset flushes its whole folder at once); `call` starts the messages. */
pqt_status pqt_wsummary_write(const char *dir, const char *const *files, int n, bool sync,
                              const char *call);

/* PQT_OK when a and b have the same schema elements, else PQT_SCHEMA_MISMATCH "a_name and
 * b_name have different schemas: they first differ at column '...'" (ar: scratch). */
pqt_status pqt_wsummary_same_schema(const pqt_file_meta *a, const pqt_file_meta *b,
                                    const char *a_name, const char *b_name, pqt_arena *ar);

#endif
