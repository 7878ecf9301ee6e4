/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_conv.c - table values that are not yet their leaf's values (layer: write;
 * parquet-format LogicalTypes.md, DECIMAL and UUID).
 *
 * A table holds a DECIMAL column as doubles (rounded) and a UUID column as 36-character
 * strings. To write them back as the source had them, the writer reads a decimal's unscaled
 * integers again from the file and lays them out as the leaf's physical type (INT32 and
 * INT64 take them as they come; FIXED_LEN_BYTE_ARRAY wants big-endian two's complement), and
 * parses UUID text back into its 16 bytes.
 */
#include <string.h>

#include "api/file_int.h" /* the writer still reads pqt_file fields */
#include "table/table_int.h"
#include "util/error.h"
#include "util/mem.h"
#include "write/write_int.h"

bool pqt_wconv_decimal_source(const pqt_table *t, int slot)
{
    const pqt_tcol *c = &t->cols[slot];
    if (c->file_col < 0 || !t->f || t->detached) return false;
    const pqt_col *fc = &t->f->schema.cols[c->file_col];
    return fc->conv == PQT_CONV_DECIMAL && !c->added && !c->user_written && !c->decode_kind &&
           PQT_KIND_ELEMENT(c->kind) == PQT_FLOAT64 && fc->decimal_precision >= 1 &&
           fc->decimal_precision <= 38;
}

/* Unscaled value e of b (PQT_INT64 or PQT_INT128) as big-endian two's complement in n bytes. */
static void decimal_bytes(const pqt_colbuf *b, int64_t e, uint8_t *dst, int32_t n)
{
    uint64_t lo;
    int64_t hi;
    if (b->elem_kind == PQT_INT128) {
        memcpy(&lo, (const uint8_t *)b->data + (size_t)e * 16, 8);
        memcpy(&hi, (const uint8_t *)b->data + (size_t)e * 16 + 8, 8);
    } else {
        int64_t v;
        memcpy(&v, (const uint8_t *)b->data + (size_t)e * 8, 8);
        lo = (uint64_t)v;
        hi = v < 0 ? -1 : 0;
    }
    for (int32_t k = 0; k < n; k++) { /* k: the k-th least significant byte */
        uint8_t byte;
        if (k < 8) byte = (uint8_t)(lo >> (8 * k));
        else if (k < 16) byte = (uint8_t)((uint64_t)hi >> (8 * (k - 8)));
        else byte = hi < 0 ? 0xff : 0;
        dst[n - 1 - k] = byte;
    }
}

static int hex_value(uint8_t ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* 8-4-4-4-12 hex digits to 16 bytes; false when s is not that. */
static bool uuid_parse(const uint8_t *s, int64_t n, uint8_t *dst)
{
    if (n != 36) return false;
    int k = 0;
    for (int i = 0; i < 36;) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i++] != '-') return false;
            continue;
        }
        int h = hex_value(s[i]), l = hex_value(s[i + 1]);
        if (h < 0 || l < 0) return false;
        dst[k++] = (uint8_t)(h << 4 | l);
        i += 2;
    }
    return true;
}

pqt_status pqt_wconv_buf(const pqt_wcol *c, const pqt_colbuf *b, int64_t row0, pqt_colbuf *out)
{
    *out = *b;
    out->data = NULL;
    out->str_offsets = NULL;
    memset(&out->str_bytes, 0, sizeof out->str_bytes);
    out->data_borrowed = false;
    int64_t n = b->is_list ? b->nelem : b->nrows;
    int32_t w = c->type_length;
    uint8_t *d = pqt_calloc((size_t)n + 1, (size_t)w);
    if (!d) return pqt_err(PQT_NOMEM, "column '%s': out of memory converting its values", c->name);
    for (int64_t e = 0; e < n; e++) {
        if (b->validity && !pqt_tbl_bit(b->validity, e)) continue;
        if (c->wconv == PQT_WCONV_DECIMAL) {
            decimal_bytes(b, e, d + (size_t)e * (size_t)w, w);
            continue;
        }
        int64_t sn = b->str_offsets[e + 1] - b->str_offsets[e];
        const uint8_t *s = sn > 0 ? b->str_bytes.data + b->str_offsets[e] : (const uint8_t *)"";
        if (!uuid_parse(s, sn, d + (size_t)e * 16)) {
            pqt_mem_free(d);
            return pqt_err(PQT_KIND, "column '%s' is written as UUID but %s %lld holds '%.*s', "
                                     "not a UUID (8-4-4-4-12 hex digits)",
                           c->name, b->is_list ? "list element" : "row",
                           (long long)(b->is_list ? e + 1 : row0 + e), (int)(sn < 40 ? sn : 40),
                           (const char *)s);
        }
    }
    out->data = d;
    out->elem_nbytes = (size_t)w;
    out->elem_kind = c->elem_kind;
    return PQT_OK;
}

void pqt_wconv_free(pqt_colbuf *out)
{
    pqt_mem_free(out->data);
    memset(out, 0, sizeof *out);
}
