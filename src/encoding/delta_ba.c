/* SPDX-License-Identifier: Apache-2.0 */
/*
 * delta_ba.c - DELTA_BYTE_ARRAY decoder (layer: encoding).
 *
 * Implements parquet-format Encodings.md "Delta Strings (DELTA_BYTE_ARRAY = 7)", also
 * called incremental or front compression: prefix lengths (DELTA_BINARY_PACKED), then
 * suffix lengths (DELTA_BINARY_PACKED), then the suffix bytes. Value i is the first
 * prefix[i] bytes of value i-1 followed by suffix i. Valid for BYTE_ARRAY and
 * FIXED_LEN_BYTE_ARRAY (type_len > 0: every value must be exactly type_len bytes).
 *
 * Both length streams are decoded and fully validated at init (counts agree, lengths
 * non-negative, prefix <= previous length, suffixes within the bytes), so decode runs
 * two memcpys per value with no checks. After init, suffix_lens holds cumulative suffix
 * end offsets relative to `bytes`, not the raw lengths.
 */
#include <string.h>

#include "encoding_int.h"
#include "util/error.h"

#define DBA_MAX_VALUES INT32_MAX /* page num_values is an i32 */

static inline const int64_t *i64s(const pqt_buf *b)
{
    return (const int64_t *)(const void *)b->data;
}

/* Decode one length stream of `total` values into b; *p moves past it. */
static pqt_status read_lengths(pqt_buf *b, const uint8_t **p, const uint8_t *end,
                               uint64_t *total_ret, const char *what)
{
    pqt_dbp_dec dbp;
    pqt_status st = pqt_dbp_init(&dbp, *p, (size_t)(end - *p));
    if (PQT_UNLIKELY(st != PQT_OK)) {
        pqt_err_prefix("DELTA_BYTE_ARRAY %s lengths: ", what);
        return st;
    }
    uint64_t total = pqt_dbp_total(&dbp);
    if (PQT_UNLIKELY(total > DBA_MAX_VALUES))
        return pqt_err(PQT_CORRUPT, "DELTA_BYTE_ARRAY: %llu %s lengths exceed the i32 limit",
                       (unsigned long long)total, what);
    b->len = 0;
    PQT_TRY(pqt_buf_reserve(b, (size_t)total * sizeof(int64_t)));
    if (total) st = pqt_dbp_decode_i64(&dbp, (int64_t)total, (int64_t *)(void *)b->data);
    if (st == PQT_OK) st = pqt_dbp_finish(&dbp, p);
    if (PQT_UNLIKELY(st != PQT_OK)) {
        pqt_err_prefix("DELTA_BYTE_ARRAY %s lengths: ", what);
        return st;
    }
    b->len = (size_t)total * sizeof(int64_t);
    *total_ret = total;
    return PQT_OK;
}

pqt_status pqt_dba_init(pqt_dba_dec *d, const uint8_t *p, size_t n, int type_len)
{
    /* buffers survive from page to page; everything else restarts */
    pqt_buf pre = d->prefix_lens, suf = d->suffix_lens, last = d->last;
    memset(d, 0, sizeof(*d));
    d->prefix_lens = pre;
    d->suffix_lens = suf;
    d->last = last;
    d->last.len = 0;
    d->type_len = type_len;

    const uint8_t *end = p + n;
    uint64_t npre, nsuf;
    PQT_TRY(read_lengths(&d->prefix_lens, &p, end, &npre, "prefix"));
    PQT_TRY(read_lengths(&d->suffix_lens, &p, end, &nsuf, "suffix"));
    if (PQT_UNLIKELY(npre != nsuf))
        return pqt_err(PQT_CORRUPT, "DELTA_BYTE_ARRAY: %llu prefix lengths but %llu suffix lengths",
                       (unsigned long long)npre, (unsigned long long)nsuf);

    const int64_t *pl = i64s(&d->prefix_lens);
    int64_t *sl = (int64_t *)(void *)d->suffix_lens.data;
    uint64_t avail = (uint64_t)(end - p), sum = 0;
    int64_t prev_len = 0, max_len = 0;
    for (uint64_t i = 0; i < npre; i++) {
        int64_t pf = pl[i], sf = sl[i];
        if (PQT_UNLIKELY(pf < 0 || sf < 0))
            return pqt_err(PQT_CORRUPT, "DELTA_BYTE_ARRAY: value %llu has prefix %lld suffix %lld",
                           (unsigned long long)i, (long long)pf, (long long)sf);
        if (PQT_UNLIKELY(pf > prev_len))
            return pqt_err(PQT_CORRUPT,
                           "DELTA_BYTE_ARRAY: value %llu prefix %lld is longer than the previous "
                           "value (%lld bytes)",
                           (unsigned long long)i, (long long)pf, (long long)prev_len);
        if (PQT_UNLIKELY((uint64_t)sf > avail - sum))
            return pqt_err(PQT_CORRUPT,
                           "DELTA_BYTE_ARRAY: suffixes run past the %llu bytes at value %llu",
                           (unsigned long long)avail, (unsigned long long)i);
        sum += (uint64_t)sf;
        sl[i] = (int64_t)sum;
        /* pf <= prev_len <= bytes so far, sf <= avail: no overflow */
        prev_len = pf + sf;
        if (PQT_UNLIKELY(type_len > 0 && prev_len != type_len))
            return pqt_err(PQT_CORRUPT,
                           "DELTA_BYTE_ARRAY: value %llu has %lld bytes, FIXED_LEN_BYTE_ARRAY(%d)",
                           (unsigned long long)i, (long long)prev_len, type_len);
        if (prev_len > max_len) max_len = prev_len;
    }
    /* The longest value bounds what `last` ever holds; reserving now keeps decode
     * check-free. One extra byte so the buffer is never NULL (memcpy from NULL is UB even
     * for zero bytes). */
    PQT_TRY(pqt_buf_reserve(&d->last, (size_t)max_len + 1));
    d->nvalues = (int64_t)npre;
    d->pos = 0;
    d->bytes = p;
    d->bytes_end = end;
    return PQT_OK;
}

static inline pqt_status check_n(const pqt_dba_dec *d, int64_t n)
{
    if (PQT_UNLIKELY(n < 0 || n > d->nvalues - d->pos))
        return pqt_err(PQT_CORRUPT, "DELTA_BYTE_ARRAY: asked for %lld values, %lld remain",
                       (long long)n, (long long)(d->nvalues - d->pos));
    return PQT_OK;
}

static inline int64_t suf_start(const pqt_dba_dec *d, int64_t i)
{
    return i == 0 ? 0 : i64s(&d->suffix_lens)[i - 1];
}

/* Remember value pos-1 (which lives at `v`, len bytes) as the prefix source of the next call. */
static inline void keep_last(pqt_dba_dec *d, const uint8_t *v, size_t len)
{
    if (v != d->last.data) memcpy(d->last.data, v, len);
    d->last.len = len;
}

pqt_status pqt_dba_decode(pqt_dba_dec *d, int64_t n, pqt_ba_out *out)
{
    PQT_TRY(check_n(d, n));
    if (n == 0) return PQT_OK;
    const int64_t *pl = i64s(&d->prefix_lens) + d->pos;
    const int64_t *se = i64s(&d->suffix_lens) + d->pos;
    int64_t s0 = suf_start(d, d->pos);
    /* output size: sum of prefix + suffix lengths */
    uint64_t nbytes = (uint64_t)(se[n - 1] - s0);
    for (int64_t i = 0; i < n; i++)
        nbytes += (uint64_t)pl[i];
    pqt_buf *ob = out->bytes;
    if (PQT_UNLIKELY(nbytes >= SIZE_MAX))
        return pqt_err(PQT_LIMIT, "DELTA_BYTE_ARRAY: %llu output bytes",
                       (unsigned long long)nbytes);
    PQT_TRY(pqt_buf_reserve_more(ob, (size_t)nbytes + 1)); /* +1: data is never NULL */

    /* The prefix is copied from the previous output value, so only the value before
     * this call comes from `last`. */
    const uint8_t *prev = d->last.data;
    uint8_t *o = ob->data + ob->len;
    int64_t s = s0;
    for (int64_t i = 0; i < n; i++) {
        size_t pf = (size_t)pl[i], sf = (size_t)(se[i] - s);
        memcpy(o, prev, pf);
        memcpy(o + pf, d->bytes + s, sf);
        prev = o;
        o += pf + sf;
        s = se[i];
        out->ends[i] = (int64_t)(o - ob->data);
    }
    keep_last(d, prev, (size_t)(o - prev));
    ob->len = (size_t)(o - ob->data);
    d->pos += n;
    return PQT_OK;
}

pqt_status pqt_dba_decode_fixed(pqt_dba_dec *d, int64_t n, uint8_t *dst)
{
    PQT_TRY(check_n(d, n));
    if (PQT_UNLIKELY(d->type_len <= 0))
        return pqt_err(PQT_MISUSE, "DELTA_BYTE_ARRAY: fixed-size decode without a type length");
    if (n == 0) return PQT_OK;
    const size_t w = (size_t)d->type_len;
    const int64_t *pl = i64s(&d->prefix_lens) + d->pos;
    const int64_t *se = i64s(&d->suffix_lens) + d->pos;
    const uint8_t *prev = d->last.data;
    int64_t s = suf_start(d, d->pos);
    uint8_t *o = dst;
    /* init proved pl[i] + suffix = type_len for every value */
    for (int64_t i = 0; i < n; i++) {
        size_t pf = (size_t)pl[i];
        memcpy(o, prev, pf);
        memcpy(o + pf, d->bytes + s, w - pf);
        prev = o;
        o += w;
        s = se[i];
    }
    keep_last(d, prev, w);
    d->pos += n;
    return PQT_OK;
}

/* Skipping must still rebuild the last skipped value, the prefix source of what follows.
 * Keeping it in `last` costs only the suffix bytes: truncate to the prefix, append. */
pqt_status pqt_dba_skip(pqt_dba_dec *d, int64_t n)
{
    PQT_TRY(check_n(d, n));
    if (n == 0) return PQT_OK; /* the length arrays may be empty (NULL): no pointer arithmetic */
    const int64_t *pl = i64s(&d->prefix_lens) + d->pos;
    const int64_t *se = i64s(&d->suffix_lens) + d->pos;
    int64_t s = suf_start(d, d->pos);
    uint8_t *l = d->last.data;
    size_t len = d->last.len;
    for (int64_t i = 0; i < n; i++) {
        size_t pf = (size_t)pl[i], sf = (size_t)(se[i] - s);
        memcpy(l + pf, d->bytes + s, sf); /* init reserved the longest value */
        len = pf + sf;
        s = se[i];
    }
    d->last.len = len;
    d->pos += n;
    return PQT_OK;
}

void pqt_dba_free(pqt_dba_dec *d)
{
    pqt_buf_free(&d->prefix_lens);
    pqt_buf_free(&d->suffix_lens);
    pqt_buf_free(&d->last);
    memset(d, 0, sizeof(*d));
}
