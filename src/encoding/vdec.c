/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vdec.c - one value decoder for a data page, whatever its encoding (layer: encoding).
 *
 * pqt_vdec is a tagged union over the per-encoding states of encoding_int.h. init checks
 * the (encoding, physical type) pair against parquet-format Encodings.md (which encodings
 * each type may use) and strips per-encoding framing: the 4-byte length prefix of RLE
 * booleans, the bit-width byte of dictionary codes. decode/skip dispatch once per call and
 * hand the whole count to the encoding's batch loop, so no call is ever made per value.
 *
 * The decoder also counts values against the page's num_values, so a caller asking for
 * more than the page holds gets PQT_CORRUPT rather than the zero padding of a bit-packed run.
 * DELTA_* states keep their length buffers across pages (they are outside the union).
 */
#include <string.h>

#include "encoding/encoding_int.h"
#include "format/meta.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"

enum vkind { VK_NONE, VK_PLAIN, VK_DICT, VK_RLE_BOOL, VK_DBP, VK_DLBA, VK_DBA, VK_BSS };

struct pqt_vdec {
    enum vkind kind;
    int encoding, ptype, type_len;
    int64_t left; /* values of the page not yet decoded or skipped */
    const pqt_dict *dict;
    union {
        pqt_plain_dec plain;
        pqt_rle_dec rle; /* dictionary codes and RLE booleans */
        pqt_dbp_dec dbp;
        pqt_bss_dec bss;
    } u;
    pqt_dlba_dec dlba;
    pqt_dba_dec dba;
};

static const char *enc_name(int e)
{
    switch (e) {
    case PQT_ENC_PLAIN: return "PLAIN";
    case PQT_ENC_PLAIN_DICTIONARY: return "PLAIN_DICTIONARY";
    case PQT_ENC_RLE: return "RLE";
    case PQT_ENC_BIT_PACKED: return "BIT_PACKED";
    case PQT_ENC_DELTA_BINARY_PACKED: return "DELTA_BINARY_PACKED";
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY: return "DELTA_LENGTH_BYTE_ARRAY";
    case PQT_ENC_DELTA_BYTE_ARRAY: return "DELTA_BYTE_ARRAY";
    case PQT_ENC_RLE_DICTIONARY: return "RLE_DICTIONARY";
    case PQT_ENC_BYTE_STREAM_SPLIT: return "BYTE_STREAM_SPLIT";
    default: return NULL;
    }
}

static const char *ptype_name(int t)
{
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return t >= 0 && t <= PQT_PT_FIXED_LEN_BYTE_ARRAY ? names[t] : "unknown";
}

/* Which physical types each value encoding may carry (Encodings.md). */
static bool enc_allowed(int enc, int pt)
{
    switch (enc) {
    case PQT_ENC_PLAIN:
    case PQT_ENC_PLAIN_DICTIONARY:
    case PQT_ENC_RLE_DICTIONARY: return true;
    case PQT_ENC_RLE: return pt == PQT_PT_BOOLEAN;
    case PQT_ENC_DELTA_BINARY_PACKED: return pt == PQT_PT_INT32 || pt == PQT_PT_INT64;
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY: return pt == PQT_PT_BYTE_ARRAY;
    case PQT_ENC_DELTA_BYTE_ARRAY:
        return pt == PQT_PT_BYTE_ARRAY || pt == PQT_PT_FIXED_LEN_BYTE_ARRAY;
    case PQT_ENC_BYTE_STREAM_SPLIT:
        return pt == PQT_PT_FLOAT || pt == PQT_PT_DOUBLE || pt == PQT_PT_INT32 ||
               pt == PQT_PT_INT64 || pt == PQT_PT_FIXED_LEN_BYTE_ARRAY;
    default: return false; /* BIT_PACKED is for levels only */
    }
}

pqt_status pqt_vdec_new(pqt_vdec **ret)
{
    *ret = pqt_calloc(1, sizeof(pqt_vdec));
    if (!*ret) return pqt_err(PQT_NOMEM, "out of memory for a value decoder");
    return PQT_OK;
}

void pqt_vdec_free(pqt_vdec *d)
{
    if (!d) return;
    pqt_dlba_free(&d->dlba);
    pqt_dba_free(&d->dba);
    pqt_mem_free(d);
}

static pqt_status init_state(pqt_vdec *d, const uint8_t *p, size_t n, const pqt_dict *dict)
{
    switch (d->encoding) {
    case PQT_ENC_PLAIN:
        d->kind = VK_PLAIN;
        return pqt_plain_init(&d->u.plain, d->ptype, d->type_len, p, n);
    case PQT_ENC_PLAIN_DICTIONARY:
    case PQT_ENC_RLE_DICTIONARY:
        if (PQT_UNLIKELY(!dict)) return pqt_err(PQT_CORRUPT, "dictionary page missing");
        if (PQT_UNLIKELY(dict->ptype != d->ptype ||
                         (d->ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY &&
                          dict->type_len != d->type_len)))
            return pqt_err(PQT_MISUSE, "dictionary of type %s used for a %s column",
                           ptype_name(dict->ptype), ptype_name(d->ptype));
        d->kind = VK_DICT;
        d->dict = dict;
        return pqt_dict_codes_init(&d->u.rle, p, n);
    case PQT_ENC_RLE: {
        /* Data-page booleans: a 4-byte little-endian byte count, then width-1 runs. */
        if (PQT_UNLIKELY(n < 4))
            return pqt_err(PQT_CORRUPT, "RLE BOOLEAN data: %zu bytes, no room for the 4-byte "
                                        "length prefix", n);
        const uint32_t len = pqt_load_le32(p);
        if (PQT_UNLIKELY(len > n - 4))
            return pqt_err(PQT_CORRUPT, "RLE BOOLEAN data: length prefix %u exceeds the %zu "
                                        "bytes that follow", len, n - 4);
        d->kind = VK_RLE_BOOL;
        return pqt_rle_init(&d->u.rle, 1, p + 4, len);
    }
    case PQT_ENC_DELTA_BINARY_PACKED:
        d->kind = VK_DBP;
        return pqt_dbp_init(&d->u.dbp, p, n);
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
        d->kind = VK_DLBA;
        return pqt_dlba_init(&d->dlba, p, n);
    case PQT_ENC_DELTA_BYTE_ARRAY:
        d->kind = VK_DBA;
        return pqt_dba_init(&d->dba, p, n,
                            d->ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY ? d->type_len : 0);
    case PQT_ENC_BYTE_STREAM_SPLIT: {
        const size_t w = pqt_ptype_nbytes(d->ptype, d->type_len);
        if (PQT_UNLIKELY(w == 0))
            return pqt_err(PQT_CORRUPT, "BYTE_STREAM_SPLIT data: %s with type length %d",
                           ptype_name(d->ptype), d->type_len);
        /* The stream stride is the page's value count, which only the byte size tells. */
        if (PQT_UNLIKELY(n % w != 0))
            return pqt_err(PQT_CORRUPT, "BYTE_STREAM_SPLIT data: %zu bytes is not a multiple "
                                        "of the %zu-byte value size", n, w);
        d->kind = VK_BSS;
        return pqt_bss_init(&d->u.bss, w, p, n, (int64_t)(n / w));
    }
    default: return pqt_err(PQT_UNSUPPORTED_ENCODING, "unknown encoding %d", d->encoding);
    }
}

pqt_status pqt_vdec_init(pqt_vdec *d, int encoding, int ptype, int type_len, const uint8_t *p,
                         size_t n, int64_t num_values, const pqt_dict *dict)
{
    d->kind = VK_NONE;
    d->dict = NULL;
    d->left = 0;
    const char *en = enc_name(encoding);
    if (PQT_UNLIKELY(!en))
        return pqt_err(PQT_UNSUPPORTED_ENCODING, "unknown encoding %d", encoding);
    if (PQT_UNLIKELY(ptype < PQT_PT_BOOLEAN || ptype > PQT_PT_FIXED_LEN_BYTE_ARRAY))
        return pqt_err(PQT_UNSUPPORTED_TYPE, "unknown physical type %d", ptype);
    if (PQT_UNLIKELY(!enc_allowed(encoding, ptype)))
        return pqt_err(PQT_UNSUPPORTED_ENCODING, "encoding %s not valid for physical type %s",
                       en, ptype_name(ptype));
    if (PQT_UNLIKELY(ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY && type_len <= 0))
        return pqt_err(PQT_CORRUPT, "FIXED_LEN_BYTE_ARRAY with type length %d", type_len);
    if (PQT_UNLIKELY(num_values < 0))
        return pqt_err(PQT_CORRUPT, "data page with negative value count %lld",
                       (long long)num_values);
    d->encoding = encoding;
    d->ptype = ptype;
    d->type_len = type_len;
    pqt_status st = init_state(d, p, n, dict);
    if (PQT_UNLIKELY(st != PQT_OK)) {
        d->kind = VK_NONE;
        return st;
    }
    d->left = num_values;
    return PQT_OK;
}

/* Runs once per call: the count check that keeps every decoder inside the page. */
static pqt_status take(pqt_vdec *d, int64_t n)
{
    if (PQT_UNLIKELY(d->kind == VK_NONE))
        return pqt_err(PQT_MISUSE, "value decoder used before a successful init");
    if (PQT_UNLIKELY(n < 0 || n > d->left))
        return pqt_err(PQT_CORRUPT, "%s data page has %lld value(s) left, %lld asked",
                       enc_name(d->encoding), (long long)d->left, (long long)n);
    d->left -= n;
    return PQT_OK;
}

static pqt_status wrong_call(const pqt_vdec *d, const char *what)
{
    return pqt_err(PQT_MISUSE, "%s called for %s data of physical type %s", what,
                   enc_name(d->encoding), ptype_name(d->ptype));
}

pqt_status pqt_vdec_decode(pqt_vdec *d, int64_t n, void *dst)
{
    PQT_TRY(take(d, n));
    switch (d->kind) {
    case VK_PLAIN: return pqt_plain_decode(&d->u.plain, n, dst);
    case VK_DICT: return pqt_dict_decode(&d->u.rle, d->dict, n, dst);
    case VK_RLE_BOOL: return pqt_rle_get_u8(&d->u.rle, n, dst);
    case VK_DBP:
        return d->ptype == PQT_PT_INT32 ? pqt_dbp_decode_i32(&d->u.dbp, n, dst)
                                        : pqt_dbp_decode_i64(&d->u.dbp, n, dst);
    case VK_DBA:
        if (d->ptype == PQT_PT_FIXED_LEN_BYTE_ARRAY) return pqt_dba_decode_fixed(&d->dba, n, dst);
        return wrong_call(d, "fixed-size decode");
    case VK_BSS: return pqt_bss_decode(&d->u.bss, n, dst);
    default: return wrong_call(d, "fixed-size decode");
    }
}

pqt_status pqt_vdec_decode_ba(pqt_vdec *d, int64_t n, pqt_ba_out *out)
{
    if (PQT_UNLIKELY(d->ptype != PQT_PT_BYTE_ARRAY && d->kind != VK_NONE))
        return wrong_call(d, "byte-array decode");
    PQT_TRY(take(d, n));
    switch (d->kind) {
    case VK_PLAIN: return pqt_plain_decode_ba(&d->u.plain, n, out);
    case VK_DICT: return pqt_dict_decode_ba(&d->u.rle, d->dict, n, out);
    case VK_DLBA: return pqt_dlba_decode(&d->dlba, n, out);
    case VK_DBA: return pqt_dba_decode(&d->dba, n, out);
    default: return wrong_call(d, "byte-array decode");
    }
}

pqt_status pqt_vdec_skip(pqt_vdec *d, int64_t n)
{
    PQT_TRY(take(d, n));
    switch (d->kind) {
    case VK_PLAIN: return pqt_plain_skip(&d->u.plain, n);
    case VK_DICT:
    case VK_RLE_BOOL: return pqt_rle_skip(&d->u.rle, n);
    case VK_DBP: return pqt_dbp_skip(&d->u.dbp, n);
    case VK_DLBA: return pqt_dlba_skip(&d->dlba, n);
    case VK_DBA: return pqt_dba_skip(&d->dba, n);
    case VK_BSS: return pqt_bss_skip(&d->u.bss, n);
    default: return wrong_call(d, "skip");
    }
}

pqt_status pqt_vdec_decode_codes(pqt_vdec *d, int64_t n, uint32_t *codes)
{
    if (PQT_UNLIKELY(d->kind != VK_DICT))
        return pqt_err(PQT_MISUSE, "dictionary codes asked of a page that is not dictionary "
                                   "encoded");
    PQT_TRY(take(d, n));
    return pqt_dict_codes(&d->u.rle, d->dict, n, codes);
}

pqt_status pqt_vdec_decode_codes_raw(pqt_vdec *d, int64_t n, uint32_t *codes)
{
    if (PQT_UNLIKELY(d->kind != VK_DICT))
        return pqt_err(PQT_MISUSE, "dictionary codes asked of a page that is not dictionary "
                                   "encoded");
    PQT_TRY(take(d, n));
    return pqt_rle_get_u32(&d->u.rle, n, codes);
}

bool pqt_vdec_is_dict(const pqt_vdec *d) { return d->kind == VK_DICT; }
