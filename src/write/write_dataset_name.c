/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_dataset_name.c - the folder names of a hive dataset's partitions: "key=value",
 * percent-encoded as Spark writes them (layer: write; docs/writing.md
 * "Datasets").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/bits.h"
#include "util/civil.h"
#include "util/error.h"
#include "write/write_dataset.h"

/* Bytes a folder name cannot hold as they are: one bit per byte value. */
static bool must_escape(unsigned char c)
{
    if (c < 0x20 || c == 0x7F) return true;
    return c != 0 && strchr("\"#%'*/:=?\\{[]^<>|", c) != NULL;
}

pqt_status pqt_wds_escape(pqt_buf *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    PQT_TRY(pqt_buf_reserve_more(out, n * 3));
    uint8_t *d = out->data + out->len;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (must_escape(c)) {
            *d++ = '%';
            *d++ = (uint8_t)hex[c >> 4];
            *d++ = (uint8_t)hex[c & 15];
        } else {
            *d++ = c;
        }
    }
    out->len = (size_t)(d - out->data);
    return PQT_OK;
}

pqt_status pqt_wds_segment(pqt_buf *out, const char *key, const pqt_colbuf *b, int kind,
                           int64_t row)
{
    PQT_TRY(pqt_wds_escape(out, key, strlen(key)));
    PQT_TRY(pqt_buf_append(out, "=", 1));
    if (b->validity && !pqt_bit_get(b->validity, row))
        return pqt_buf_append(out, PQT_HIVE_NULL, strlen(PQT_HIVE_NULL));
    char txt[32];
    int n = 0;
    switch (kind) {
    case PQT_INT32:
        n = snprintf(txt, sizeof txt, "%" PRId32, ((const int32_t *)b->data)[row]);
        break;
    case PQT_INT64:
        n = snprintf(txt, sizeof txt, "%" PRId64, ((const int64_t *)b->data)[row]);
        break;
    case PQT_UINT64:
        n = snprintf(txt, sizeof txt, "%" PRIu64, ((const uint64_t *)b->data)[row]);
        break;
    case PQT_BOOL:
        n = snprintf(txt, sizeof txt, "%s", ((const uint8_t *)b->data)[row] ? "true" : "false");
        break;
    case PQT_DATE: {
        int64_t y = 0;
        int m = 0, d = 0;
        pqt_civil_from_days(((const int32_t *)b->data)[row], &y, &m, &d);
        /* years before 1 or past 9999 keep their sign and digits (DuckDB's form) */
        n = snprintf(txt, sizeof txt, "%04" PRId64 "-%02d-%02d", y, m, d);
        break;
    }
    case PQT_STRING: {
        int64_t lo = b->str_offsets[row], hi = b->str_offsets[row + 1];
        return pqt_wds_escape(out, (const char *)b->str_bytes.data + lo, (size_t)(hi - lo));
    }
    default:
        return pqt_err(PQT_MISUSE, "partition column '%s' is %s", key, pqt_kind_name(kind));
    }
    if (n < 0 || (size_t)n >= sizeof txt) return pqt_err(PQT_LIMIT, "partition value of '%s'", key);
    return pqt_wds_escape(out, txt, (size_t)n);
}
