/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schema_int.h - helpers shared by schema.c and schema_kind.c (layer: format, private).
 */
#ifndef PQT_FORMAT_SCHEMA_INT_H
#define PQT_FORMAT_SCHEMA_INT_H

#include <stddef.h>

#include "format/schema.h"

/* Fill elem_kind, conv, time_unit, utc, decimal_scale and why_unsupported of c from the
 * primitive element e (kind PQT_NONE when unreadable). */
void pqt_schema_classify(const pqt_schema_elem *e, bool binary_as_string, pqt_col *c);

/* The same texts rendered into buf (truncated to cap; every text fits this size). */
#define PQT_SCHEMA_TEXT_NBYTES 96
void pqt_schema_physical_render(const pqt_schema_elem *e, char *buf, size_t cap);
void pqt_schema_logical_render(const pqt_schema_elem *e, char *buf, size_t cap);

/* "INT64", "FIXED_LEN_BYTE_ARRAY(16)"; arena strings, NULL on out of memory. */
const char *pqt_schema_physical_text(const pqt_schema_elem *e, pqt_arena *arena);
/* "TIMESTAMP(MICROS,true)", "DECIMAL(9,2)", "UTF8" (converted type), "" if none. */
const char *pqt_schema_logical_text(const pqt_schema_elem *e, pqt_arena *arena);

#endif
