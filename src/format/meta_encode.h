/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta_encode.h - pqt_file_meta and friends to Thrift compact bytes (layer: format).
 *
 * The writer's half of meta.h: each call APPENDS one parquet.thrift struct to `out`, from
 * the same structures the decoders fill, so a decoded footer re-encodes field for field.
 * Optional fields follow meta.h's conventions: a has_* flag, -1 for an absent enum, NULL
 * for an absent pointer; a few carry their own rule, given at the call.
 *
 * Writer-side rules the structures cannot say:
 * - pqt_kv key_len / value_len of 0 mean "strlen of the C string" (an empty string has
 *   length 0 either way); value NULL = absent.
 * - pqt_column_meta.path_in_schema must hold path_len names (the decoder leaves it NULL).
 * - SchemaElement: type_length is written for FIXED_LEN_BYTE_ARRAY or when > 0;
 *   num_children for group nodes (type < 0); logical.id 0 = no logicalType; an id this file
 *   does not know is written as an empty struct member, so copies keep it.
 * - PageHeader: the sub-header is chosen by `type` (DATA_PAGE v1, DATA_PAGE_V2, DICTIONARY,
 *   INDEX), whatever the has_*_header flags say.
 * - ColumnChunk: offset/column index locations are written when has_offset_index /
 *   has_column_index; encryption fields are never written.
 * Errors: PQT_NOMEM, PQT_LIMIT (a length past Thrift's i32), PQT_MISUSE (a required value
 * missing, e.g. a TIMESTAMP without a unit or path_in_schema NULL), each naming the struct.
 * On failure `out` is back to its length before the call.
 */
#ifndef PQT_FORMAT_META_ENCODE_H
#define PQT_FORMAT_META_ENCODE_H

#include "format/meta.h"
#include "pqt.h"
#include "util/buf.h"

pqt_status pqt_meta_encode_page_header(pqt_buf *out, const pqt_page_header *h);
pqt_status pqt_meta_encode_file_meta(pqt_buf *out, const pqt_file_meta *m);
pqt_status pqt_meta_encode_column_index(pqt_buf *out, const pqt_column_index *ci);
pqt_status pqt_meta_encode_offset_index(pqt_buf *out, const pqt_offset_index *oi);
pqt_status pqt_meta_encode_bloom_header(pqt_buf *out, const pqt_bloom_header *bh);
/* One Statistics struct (the footer's, or a page header's), for callers that size it. */
pqt_status pqt_meta_encode_stats(pqt_buf *out, const pqt_stats *s);

#endif
