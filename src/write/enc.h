/* SPDX-License-Identifier: Apache-2.0 */
/*
 * enc.h - the leaf encoders of the writer (layer: write).
 *
 * The encoding half of src/encoding/: values and levels to the byte forms of
 * parquet-format Encodings.md (PLAIN, the RLE/bit-packed hybrid, DELTA_BINARY_PACKED,
 * DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT), the dictionary builder behind RLE_DICTIONARY
 * (dict_build.c) and the split-block bloom filter builder of BloomFilter.md (bloom_build.c).
 * Each encoder APPENDS to a pqt_buf, never prints, and on failure leaves the buffer's length
 * as it was (PQT_NOMEM, PQT_LIMIT for a length the format cannot carry, PQT_MISUSE for an
 * argument out of range). None keeps global state: distinct objects may be used from
 * distinct threads at once.
 *
 * Fixed-size values are taken in the host's byte order and written as is: pqt runs on
 * little-endian hosts, which is Parquet's order (as src/encoding assumes on its fast paths).
 */
#ifndef PQT_WRITE_ENC_H
#define PQT_WRITE_ENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pqt.h"
#include "util/buf.h"

/* ---- RLE / bit-packed hybrid (enc_rle.c) ---- */

/* Bits needed for values 0..max_value: 0 for 0, 1 for 1, 2 for 2..3, ..., 64. */
int pqt_enc_bit_width(uint64_t max_value);

/* RLE/bit-packed hybrid of values[0..n) at bit_width (0..32; every value must fit, which is
 * not checked: excess bits are masked off), no length prefix. A repeat of 8 or more values
 * becomes an RLE run, everything else bit-packed groups of 8 (the last group zero-padded).
 * bit_width 0 writes one RLE run of n (no value bytes). */
pqt_status pqt_enc_rle_hybrid(pqt_buf *out, const uint32_t *values, size_t n, int bit_width);
/* The same for definition/repetition levels (bit_width 0..16). */
pqt_status pqt_enc_levels_u16(pqt_buf *out, const uint16_t *levels, size_t n, int bit_width);
/* Data page v1 levels: a 4-byte little-endian length, then pqt_enc_levels_u16's runs. */
pqt_status pqt_enc_levels_v1(pqt_buf *out, const uint16_t *levels, size_t n, int bit_width);
/* BOOLEAN values in the RLE encoding (Encodings.md: bit width 1, 4-byte length prefix);
 * values[i] != 0 is true. */
pqt_status pqt_enc_bool_rle(pqt_buf *out, const uint8_t *values, size_t n);
/* An upper bound of the bytes either call appends, for callers that size a page up front. */
size_t pqt_enc_rle_max_nbytes(size_t n, int bit_width);

/* ---- PLAIN (enc_plain.c) ---- */

/* n values of `width` bytes each (INT32 4, INT64 8, INT96 12, FLOAT 4, DOUBLE 8, FLBA its
 * type_length), copied as they are. */
pqt_status pqt_enc_plain_fixed(pqt_buf *out, const void *values, size_t n, size_t width);
/* BOOLEAN: values[i] != 0, bit-packed LSB first, ceil(n / 8) bytes (the last zero-padded). */
pqt_status pqt_enc_plain_bool(pqt_buf *out, const uint8_t *values, size_t n);
/* BYTE_ARRAY: each value as a 4-byte little-endian length and its bytes; value i is
 * data[offsets[i]..offsets[i+1]) (offsets has n + 1 entries, non-decreasing; offsets[0] need
 * not be 0). A value over INT32_MAX bytes is PQT_LIMIT. */
pqt_status pqt_enc_plain_bytes(pqt_buf *out, const int64_t *offsets, const uint8_t *data, size_t n);

/* ---- DELTA_* (enc_delta.c) and BYTE_STREAM_SPLIT (enc_bss.c) ---- */

/* DELTA_BINARY_PACKED of n values: blocks of 128, 4 miniblocks. INT32 deltas wrap in 32 bits
 * (any int32 sequence encodes, widths <= 32), INT64 in 64. */
pqt_status pqt_enc_delta_bp_i32(pqt_buf *out, const int32_t *values, size_t n);
pqt_status pqt_enc_delta_bp_i64(pqt_buf *out, const int64_t *values, size_t n);
/* DELTA_LENGTH_BYTE_ARRAY: the lengths DELTA_BINARY_PACKED, then every value's bytes.
 * offsets/data as for pqt_enc_plain_bytes. */
pqt_status pqt_enc_delta_length_bytes(pqt_buf *out, const int64_t *offsets, const uint8_t *data,
                                      size_t n);
/* DELTA_BYTE_ARRAY (BYTE_ARRAY or FLBA as bytes): prefix lengths shared with the previous
 * value, then the suffixes as DELTA_LENGTH_BYTE_ARRAY. */
pqt_status pqt_enc_delta_bytes(pqt_buf *out, const int64_t *offsets, const uint8_t *data, size_t n);
/* BYTE_STREAM_SPLIT of n values of `width` bytes (FLOAT 4, DOUBLE 8, INT32 4, INT64 8, FLBA
 * its type_length). */
pqt_status pqt_enc_byte_stream_split(pqt_buf *out, const void *values, size_t n, size_t width);

/* ---- dictionary (dict_build.c) ---- */

/* Values of one column chunk to dense indices 0, 1, ... in order of first appearance. Keys
 * are the PLAIN bytes of a value: FLOAT and DOUBLE compare by bit pattern, so -0.0 and 0.0,
 * and NaNs of different payloads, are distinct entries (a reader gets back exactly the bits
 * written). Not thread-safe: one builder per column being encoded. */
typedef struct pqt_dict_builder pqt_dict_builder;

/* physical_type PQT_PT_INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY
 * (type_length > 0; ignored otherwise); BOOLEAN and INT96 are PQT_MISUSE (writers do not
 * dictionary-encode them). max_dict_bytes: the limit on pqt_dict_builder_plain_nbytes. */
pqt_status pqt_dict_builder_new(pqt_dict_builder **ret, int physical_type, int type_length,
                                size_t max_dict_bytes);
/* Index n values (fixed-size types: n * value size bytes) into indices_out[0..n). When the
 * dictionary's PLAIN size would pass max_dict_bytes, or its entry count 2^31 - 1, returns
 * PQT_LIMIT with NOTHING added (the builder is as before the call): the caller falls back to
 * PLAIN for the rest of the chunk. PQT_NOMEM likewise changes nothing. */
pqt_status pqt_dict_builder_add_fixed(pqt_dict_builder *b, const void *values, size_t n,
                                      uint32_t *indices_out);
/* BYTE_ARRAY (and FLBA given as bytes: every length must equal type_length, else
 * PQT_MISUSE): value i is data[offsets[i]..offsets[i+1]). Same contract as add_fixed. */
pqt_status pqt_dict_builder_add_bytes(pqt_dict_builder *b, const int64_t *offsets,
                                      const uint8_t *data, size_t n, uint32_t *indices_out);
uint32_t pqt_dict_builder_count(const pqt_dict_builder *b);
/* Bytes of one fixed-size entry; 0 for BYTE_ARRAY. */
size_t pqt_dict_builder_value_nbytes(const pqt_dict_builder *b);
/* Bytes the dictionary page body takes (PLAIN: 4 + len per BYTE_ARRAY entry). */
size_t pqt_dict_builder_plain_nbytes(const pqt_dict_builder *b);
/* The entries, for statistics over the dictionary: *data_ret the fixed-size values in index
 * order (count * value size bytes) or the BYTE_ARRAY entries' bytes, *offsets_ret NULL or
 * count + 1 offsets into those bytes. Valid until the next add, reset or free. */
void pqt_dict_builder_entries(const pqt_dict_builder *b, const uint8_t **data_ret,
                              const int64_t **offsets_ret);
/* Append the dictionary page body: the entries in index order, PLAIN encoded. */
pqt_status pqt_dict_builder_write_plain(const pqt_dict_builder *b, pqt_buf *out);
/* Forget every entry (for the next column chunk); memory is kept for reuse. */
void pqt_dict_builder_reset(pqt_dict_builder *b);
void pqt_dict_builder_free(pqt_dict_builder *b);
/* Whether a sample of n values (fixed-size: width bytes each; BYTE_ARRAY: offsets[n + 1] into
 * values) shows them nearly all distinct, so that a dictionary of them is not worth trying
 * (dict_sample.c). false for fewer than 8192 values, and whenever the sample repeats one. */
bool pqt_dict_sample_distinct(const uint8_t *values, const int64_t *offsets, size_t width,
                              size_t n);

/* ---- split-block bloom filter (bloom_build.c) ---- */

typedef struct pqt_bloom_builder pqt_bloom_builder;

/* A filter sized for ndv distinct values at false-positive rate fpp (0 < fpp < 1), by
 * BloomFilter.md's formula, rounded up to a power of two and clamped to 32 B .. 128 MiB.
 * PQT_MISUSE for fpp outside (0, 1). */
pqt_status pqt_bloom_builder_new(pqt_bloom_builder **ret, uint64_t ndv, double fpp);
void pqt_bloom_builder_insert(pqt_bloom_builder *b, uint64_t hash);
/* Insert n hashes (the loop the writer runs per page). */
void pqt_bloom_builder_insert_many(pqt_bloom_builder *b, const uint64_t *hashes, size_t n);
/* xxHash64, seed 0, of a value's PLAIN bytes (a BYTE_ARRAY value without its length). */
uint64_t pqt_bloom_hash(const void *plain_bytes, size_t n);
/* Bytes of the bitset (a power of two, 32 .. 128 MiB). */
size_t pqt_bloom_builder_nbytes(const pqt_bloom_builder *b);
/* Append the BloomFilterHeader (SPLIT_BLOCK, XXHASH, UNCOMPRESSED) and the bitset. */
pqt_status pqt_bloom_builder_write(const pqt_bloom_builder *b, pqt_buf *out);
/* Clear every bit (for the next column chunk; the size is kept). */
void pqt_bloom_builder_reset(pqt_bloom_builder *b);
void pqt_bloom_builder_free(pqt_bloom_builder *b);

#endif
