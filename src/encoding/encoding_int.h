/* SPDX-License-Identifier: Apache-2.0 */
/*
 * encoding_int.h - per-encoding decoder states behind pqt_vdec (layer: encoding, private).
 * Only files under src/encoding/ include this.
 */
#ifndef PQT_ENCODING_INT_H
#define PQT_ENCODING_INT_H

#include "encoding.h"

/* PLAIN (plain.c) */
typedef struct pqt_plain_dec {
    const uint8_t *p, *end;
    int ptype, type_len;
    size_t value_nbytes; /* fixed-size types */
    int bit_off;         /* BOOLEAN: bit position within *p */
} pqt_plain_dec;
pqt_status pqt_plain_init(pqt_plain_dec *d, int ptype, int type_len, const uint8_t *p, size_t n);
pqt_status pqt_plain_decode(pqt_plain_dec *d, int64_t n, void *dst);
pqt_status pqt_plain_decode_ba(pqt_plain_dec *d, int64_t n, pqt_ba_out *out);
pqt_status pqt_plain_skip(pqt_plain_dec *d, int64_t n);

/* Dictionary-coded data pages (dict.c). The page starts with the code bit width (<= 32),
 * then RLE/bit-packed codes; every code is checked against dict->n before use. */
pqt_status pqt_dict_codes_init(pqt_rle_dec *r, const uint8_t *p, size_t n);
pqt_status pqt_dict_codes(pqt_rle_dec *r, const pqt_dict *dict, int64_t n, uint32_t *codes);
pqt_status pqt_dict_decode(pqt_rle_dec *r, const pqt_dict *dict, int64_t n, void *dst);
pqt_status pqt_dict_decode_ba(pqt_rle_dec *r, const pqt_dict *dict, int64_t n,
                              pqt_ba_out *out);

/* DELTA_BINARY_PACKED (delta_bp.c). Values are int64 internally; INT32 wraps mod 2^32. */
typedef struct pqt_dbp_dec {
    const uint8_t *p, *end;
    uint64_t block_size, miniblocks_per_block, values_per_miniblock;
    uint64_t total_values, values_left; /* values not yet returned */
    int64_t last_value;
    int64_t min_delta;
    bool first_pending;                 /* first value (from the header) not yet returned */
    uint8_t bit_widths[256];
    uint64_t miniblock_idx;             /* within the current block */
    uint64_t miniblock_left;            /* values left in current miniblock */
    const uint8_t *mb_p;                /* packed data of the current miniblock */
    uint64_t buf[32];
    int buf_pos, buf_len;
} pqt_dbp_dec;
pqt_status pqt_dbp_init(pqt_dbp_dec *d, const uint8_t *p, size_t n);
pqt_status pqt_dbp_decode_i32(pqt_dbp_dec *d, int64_t n, int32_t *out);
pqt_status pqt_dbp_decode_i64(pqt_dbp_dec *d, int64_t n, int64_t *out);
pqt_status pqt_dbp_skip(pqt_dbp_dec *d, int64_t n);
/* Decode all remaining values and return a pointer just past the encoded data (DLBA/DBA
 * need where the lengths block ends). */
pqt_status pqt_dbp_finish(pqt_dbp_dec *d, const uint8_t **end_ret);
/* Total number of values in the header. */
static inline uint64_t pqt_dbp_total(const pqt_dbp_dec *d) { return d->total_values; }

/* DELTA_LENGTH_BYTE_ARRAY (delta_len_ba.c) */
typedef struct pqt_dlba_dec {
    pqt_buf lengths; /* int64 lengths of all values, decoded at init */
    int64_t nvalues, pos;
    const uint8_t *bytes, *bytes_end;
} pqt_dlba_dec;
pqt_status pqt_dlba_init(pqt_dlba_dec *d, const uint8_t *p, size_t n);
pqt_status pqt_dlba_decode(pqt_dlba_dec *d, int64_t n, pqt_ba_out *out);
pqt_status pqt_dlba_skip(pqt_dlba_dec *d, int64_t n);
void pqt_dlba_free(pqt_dlba_dec *d);

/* DELTA_BYTE_ARRAY (delta_ba.c); also for FIXED_LEN_BYTE_ARRAY (type_len > 0 checks lengths) */
typedef struct pqt_dba_dec {
    pqt_buf prefix_lens, suffix_lens; /* int64 each, decoded at init */
    int64_t nvalues, pos;
    const uint8_t *bytes, *bytes_end;
    pqt_buf last; /* previous value, prefix source */
    int type_len;
} pqt_dba_dec;
pqt_status pqt_dba_init(pqt_dba_dec *d, const uint8_t *p, size_t n, int type_len);
pqt_status pqt_dba_decode(pqt_dba_dec *d, int64_t n, pqt_ba_out *out);
/* FLBA output: n * type_len raw bytes */
pqt_status pqt_dba_decode_fixed(pqt_dba_dec *d, int64_t n, uint8_t *dst);
pqt_status pqt_dba_skip(pqt_dba_dec *d, int64_t n);
void pqt_dba_free(pqt_dba_dec *d);

/* BYTE_STREAM_SPLIT (bss.c): FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY */
typedef struct pqt_bss_dec {
    const uint8_t *p;
    size_t value_nbytes;
    int64_t nvalues, pos;
} pqt_bss_dec;
pqt_status pqt_bss_init(pqt_bss_dec *d, size_t value_nbytes, const uint8_t *p, size_t n,
                        int64_t num_values);
pqt_status pqt_bss_decode(pqt_bss_dec *d, int64_t n, uint8_t *dst);
pqt_status pqt_bss_skip(pqt_bss_dec *d, int64_t n);

#endif
