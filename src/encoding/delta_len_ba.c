/* SPDX-License-Identifier: Apache-2.0 */
/*
 * delta_len_ba.c - DELTA_LENGTH_BYTE_ARRAY decoder (layer: encoding).
 *
 * Implements parquet-format Encodings.md "Delta-length byte array
 * (DELTA_LENGTH_BYTE_ARRAY = 6)": the lengths of all values, DELTA_BINARY_PACKED,
 * followed by the concatenated value bytes. The lengths are decoded once at init
 * (they must be, to find where the bytes start) and turned in place into cumulative
 * end offsets, so a decode of n values is one memcpy plus n offsets and a skip is O(1).
 * Note: pqt_dlba_dec.lengths therefore holds int64 *end offsets* relative to `bytes`
 * after init, not the raw lengths.
 */
#include <string.h>

#include "encoding_int.h"
#include "util/error.h"

/* A page's num_values is an i32 in the page header; a longer length stream is corrupt and
 * would otherwise let a few bytes of zero-width miniblocks demand a huge allocation. */
#define DLBA_MAX_VALUES INT32_MAX

pqt_status pqt_dlba_init(pqt_dlba_dec *d, const uint8_t *p, size_t n)
{
    /* keep the lengths buffer across pages: that is what makes steady state allocation free */
    pqt_buf lengths = d->lengths;
    memset(d, 0, sizeof(*d));
    lengths.len = 0;
    d->lengths = lengths;

    pqt_dbp_dec dbp;
    PQT_TRY(pqt_dbp_init(&dbp, p, n));
    uint64_t total = pqt_dbp_total(&dbp);
    if (PQT_UNLIKELY(total > DLBA_MAX_VALUES))
        return pqt_err(PQT_CORRUPT, "DELTA_LENGTH_BYTE_ARRAY: %llu lengths exceed the i32 limit",
                       (unsigned long long)total);
    PQT_TRY(pqt_buf_reserve(&d->lengths, (size_t)total * sizeof(int64_t)));
    int64_t *ends = (int64_t *)(void *)d->lengths.data;
    if (total) PQT_TRY(pqt_dbp_decode_i64(&dbp, (int64_t)total, ends));
    const uint8_t *bytes;
    PQT_TRY(pqt_dbp_finish(&dbp, &bytes));
    const uint8_t *end = p + n;
    uint64_t avail = (uint64_t)(end - bytes);

    /* Validate and accumulate in one pass. A running sum bounded by avail cannot
     * overflow because every length is checked against what is left first. */
    uint64_t sum = 0;
    for (uint64_t i = 0; i < total; i++) {
        int64_t len = ends[i];
        if (PQT_UNLIKELY(len < 0))
            return pqt_err(PQT_CORRUPT, "DELTA_LENGTH_BYTE_ARRAY: value %llu has length %lld",
                           (unsigned long long)i, (long long)len);
        if (PQT_UNLIKELY((uint64_t)len > avail - sum))
            return pqt_err(PQT_CORRUPT,
                           "DELTA_LENGTH_BYTE_ARRAY: lengths run past the %llu value bytes at "
                           "value %llu",
                           (unsigned long long)avail, (unsigned long long)i);
        sum += (uint64_t)len;
        ends[i] = (int64_t)sum;
    }
    d->lengths.len = (size_t)total * sizeof(int64_t);
    d->nvalues = (int64_t)total;
    d->pos = 0;
    d->bytes = bytes;
    d->bytes_end = end;
    return PQT_OK;
}

static inline int64_t end_before(const pqt_dlba_dec *d, int64_t i)
{
    return i == 0 ? 0 : ((const int64_t *)(const void *)d->lengths.data)[i - 1];
}

pqt_status pqt_dlba_decode(pqt_dlba_dec *d, int64_t n, pqt_ba_out *out)
{
    if (PQT_UNLIKELY(n < 0 || n > d->nvalues - d->pos))
        return pqt_err(PQT_CORRUPT, "DELTA_LENGTH_BYTE_ARRAY: asked for %lld values, %lld remain",
                       (long long)n, (long long)(d->nvalues - d->pos));
    if (n == 0) return PQT_OK;
    const int64_t *ends = (const int64_t *)(const void *)d->lengths.data + d->pos;
    int64_t start = end_before(d, d->pos);
    size_t nbytes = (size_t)(ends[n - 1] - start);
    pqt_buf *ob = out->bytes;
    PQT_TRY(pqt_buf_reserve_more(ob, nbytes));
    if (nbytes) memcpy(ob->data + ob->len, d->bytes + start, nbytes);
    /* shift the page-relative ends to the output buffer's offsets */
    int64_t shift = (int64_t)ob->len - start;
    for (int64_t i = 0; i < n; i++)
        out->ends[i] = ends[i] + shift;
    ob->len += nbytes;
    d->pos += n;
    return PQT_OK;
}

pqt_status pqt_dlba_skip(pqt_dlba_dec *d, int64_t n)
{
    if (PQT_UNLIKELY(n < 0 || n > d->nvalues - d->pos))
        return pqt_err(PQT_CORRUPT,
                       "DELTA_LENGTH_BYTE_ARRAY: asked to skip %lld values, %lld remain",
                       (long long)n, (long long)(d->nvalues - d->pos));
    d->pos += n;
    return PQT_OK;
}

void pqt_dlba_free(pqt_dlba_dec *d)
{
    pqt_buf_free(&d->lengths);
    memset(d, 0, sizeof(*d));
}
