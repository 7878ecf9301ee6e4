/* SPDX-License-Identifier: Apache-2.0 */
/*
 * encoding.h - value and level decoders (layer: encoding).
 *
 * Implements parquet-format Encodings.md: PLAIN, RLE/bit-packed hybrid, dictionary
 * (PLAIN_DICTIONARY / RLE_DICTIONARY), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
 * DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, and RLE for booleans. Every decoder offers
 * decode(n) and skip(n); a row selection is served by the column layer as an
 * alternation of skip and decode calls, so there is no per-value call anywhere.
 *
 * Output forms by physical type (what `dst` of a fixed-size decode receives):
 *   BOOLEAN: uint8_t 0/1 per value; INT32: int32_t; INT64: int64_t; INT96: 12 raw
 *   bytes; FLOAT: float; DOUBLE: double; FIXED_LEN_BYTE_ARRAY: type_len raw bytes.
 * BYTE_ARRAY values go through pqt_ba_out (bytes appended, end offsets recorded).
 * All decoders check every length against the bytes they were given and return
 * PQT_CORRUPT (message says which encoding and what was wrong) instead of reading past.
 */
#ifndef PQT_ENCODING_H
#define PQT_ENCODING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pqt.h"
#include "util/buf.h"

/* BYTE_ARRAY output: value i is appended to *bytes and ends[i] = bytes->len afterwards. */
typedef struct pqt_ba_out {
    pqt_buf *bytes;
    int64_t *ends;
} pqt_ba_out;

/* Size in bytes of one decoded fixed-size value of a physical type (0 for BYTE_ARRAY). */
size_t pqt_ptype_nbytes(int ptype, int type_len);

/* ---- bit unpacking (generated kernels, one per width 0..32 and 0..64) ---- */
/* Unpack 32 values of bit_width bits (LSB-first, as Parquet packs them) from in, which must
 * hold at least 4 * bit_width bytes. */
void pqt_unpack32_u32(const uint8_t *in, uint32_t *out, int bit_width);
void pqt_unpack32_u64(const uint8_t *in, uint64_t *out, int bit_width);

/* ---- RLE / bit-packed hybrid (levels, dictionary codes, RLE booleans) ---- */
typedef struct pqt_rle_dec {
    const uint8_t *p, *end;
    int bit_width;
    int64_t rle_left;   /* values left in the current RLE run */
    uint32_t rle_value;
    int64_t lit_left;   /* values left in the current bit-packed run */
    const uint8_t *lit_p; /* next undecoded 8-value group of the bit-packed run */
    uint32_t lit_buf[32]; /* unpacked values of the current group(s) */
    int lit_buf_pos, lit_buf_len;
} pqt_rle_dec;

/* bit_width 0..32. The data is p[0..n) (no length prefix; callers strip it). */
pqt_status pqt_rle_init(pqt_rle_dec *d, int bit_width, const uint8_t *p, size_t n);
/* Exactly n values or PQT_CORRUPT if the data runs out. */
pqt_status pqt_rle_get_u32(pqt_rle_dec *d, int64_t n, uint32_t *out);
/* As get_u32 for bit_width <= 8 (levels, booleans) */
pqt_status pqt_rle_get_u8(pqt_rle_dec *d, int64_t n, uint8_t *out);
pqt_status pqt_rle_skip(pqt_rle_dec *d, int64_t n);
/* Consume n values and count those equal to `value` (skipping levels without storing them). */
pqt_status pqt_rle_count_eq(pqt_rle_dec *d, int64_t n, uint32_t value, int64_t *count_ret);
/* Make sure a run is current (reads the next run header when the current one is used up),
 * so callers can serve RLE runs wholesale (rle_left / rle_value); PQT_CORRUPT when the data
 * ends with `want` values still to read. */
pqt_status pqt_rle_refill(pqt_rle_dec *d, int64_t want);

/* ---- dictionary ---- */
typedef struct pqt_dict {
    int ptype;
    int type_len;
    int64_t n;
    pqt_buf values;  /* fixed-size: n * pqt_ptype_nbytes values; BYTE_ARRAY: concatenated bytes */
    int64_t *offsets; /* BYTE_ARRAY only: n + 1 offsets into values.data */
    size_t offsets_cap;
} pqt_dict;

/* Decode a dictionary page (PLAIN encoded, num_values entries) into d, reusing its buffers. */
pqt_status pqt_dict_load(pqt_dict *d, int ptype, int type_len, const uint8_t *p, size_t n,
                         int64_t num_values);
void pqt_dict_free(pqt_dict *d);

/* ---- one value decoder for a data page, whatever its encoding ---- */
typedef struct pqt_vdec pqt_vdec;

/* Start decoding values of physical type ptype (type_len for FLBA) encoded with `encoding`
 * in p[0..n), which holds num_values values (non-null ones). dict is required for the
 * dictionary encodings (NULL otherwise: PQT_CORRUPT "dictionary page missing").
 * Unknown encodings or encodings not allowed for ptype: PQT_UNSUPPORTED_ENCODING.
 * The decoder keeps scratch buffers between pages; pqt_vdec_free releases them. */
pqt_status pqt_vdec_new(pqt_vdec **ret);
pqt_status pqt_vdec_init(pqt_vdec *d, int encoding, int ptype, int type_len, const uint8_t *p,
                         size_t n, int64_t num_values, const pqt_dict *dict);
void pqt_vdec_free(pqt_vdec *d);
/* Decode the next n values into dst (fixed-size output forms above). */
pqt_status pqt_vdec_decode(pqt_vdec *d, int64_t n, void *dst);
/* Decode the next n BYTE_ARRAY values. */
pqt_status pqt_vdec_decode_ba(pqt_vdec *d, int64_t n, pqt_ba_out *out);
pqt_status pqt_vdec_skip(pqt_vdec *d, int64_t n);
/* For dictionary-encoded pages: decode the next n codes instead of values (for predicate
 * evaluation on codes). PQT_MISUSE when the page is not dictionary encoded. */
pqt_status pqt_vdec_decode_codes(pqt_vdec *d, int64_t n, uint32_t *codes);
bool pqt_vdec_is_dict(const pqt_vdec *d);
/* As pqt_vdec_decode_codes but WITHOUT checking the codes against the dictionary size: for a
 * caller that checks each code in the loop that uses it (one pass instead of two). */
pqt_status pqt_vdec_decode_codes_raw(pqt_vdec *d, int64_t n, uint32_t *codes);

#endif
