/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan_stats.c - a column chunk's footer Statistics in the terms of the prover (layer: scan).
 *
 * Turns parquet-format's Statistics (min_value/max_value, the deprecated min/max, null_count,
 * nan_count, is_*_value_exact) and FileMetaData.column_orders into pqt_scan_stats, saying
 * where each bound came from so filter_stats.c applies docs/pruning.md's trust rules: the
 * deprecated fields are signed-order, a file without column_orders is treated the same way
 * for orders that differ from signed (strings, unsigned), a column order other than
 * TYPE_ORDER, INT96, decimals, half floats and UUIDs give no order at all. A bound of the
 * wrong byte length is dropped. Nothing here allocates: string bounds point into the footer.
 */
#include <string.h>

#include "scan/scan.h"
#include "util/le.h"

/* One bound from its bytes in the column's domain; false when the bytes cannot be one. */
static bool decode_bound(const pqt_col *c, int ptype, const uint8_t *p, uint32_t len,
                         pqt_scan_bound *b)
{
    memset(b, 0, sizeof *b);
    switch (ptype) {
    case PQT_PT_BOOLEAN:
        if (len < 1) return false;
        b->i = p[0] != 0;
        return true;
    case PQT_PT_INT32:
        if (len != 4) return false;
        if (c->conv == PQT_CONV_I32_TO_I64 || c->conv == PQT_CONV_U32_WIDEN)
            b->i = (int64_t)pqt_load_le32(p);
        else
            b->i = (int32_t)pqt_load_le32(p);
        return true;
    case PQT_PT_INT64:
        if (len != 8) return false;
        b->i = (int64_t)pqt_load_le64(p);
        return true;
    case PQT_PT_FLOAT: {
        if (len != 4) return false;
        uint32_t u = pqt_load_le32(p);
        float f;
        memcpy(&f, &u, 4);
        b->d = f;
        return true;
    }
    case PQT_PT_DOUBLE: {
        if (len != 8) return false;
        uint64_t u = pqt_load_le64(p);
        memcpy(&b->d, &u, 8);
        return true;
    }
    case PQT_PT_BYTE_ARRAY:
        b->s = (const char *)p;
        b->len = len;
        return true;
    }
    return false;
}

/* The conversions whose values keep the physical order (possibly read unsigned). */
static bool order_usable(const pqt_col *c, int ptype)
{
    switch (c->conv) {
    case PQT_CONV_NONE:
        return ptype != PQT_PT_INT96 && ptype != PQT_PT_FIXED_LEN_BYTE_ARRAY;
    case PQT_CONV_I32_TO_I64:
    case PQT_CONV_U32_WIDEN:
    case PQT_CONV_TIME_MS:
        return true;
    default:
        return false; /* decimals, half floats, INT96, UUIDs */
    }
}

/* Orders where unsigned (column order) and signed (deprecated fields) comparisons differ. */
static bool signed_order_differs(const pqt_col *c, int ptype)
{
    return ptype == PQT_PT_BYTE_ARRAY || c->conv == PQT_CONV_I32_TO_I64 ||
           c->conv == PQT_CONV_U32_WIDEN || c->kind == PQT_UINT64;
}

/* The order a column's bounds are compared in; false (NO_ORDER set) when there is none. */
static bool usable_order(const pqt_file_meta *meta, const pqt_col *c, int ptype,
                         pqt_scan_stats *out)
{
    if (!order_usable(c, ptype)) {
        out->flags |= PQT_SST_NO_ORDER;
        return false;
    }
    int order = c->chunk_col < meta->n_column_orders ? meta->column_orders[c->chunk_col] : 0;
    if (meta->n_column_orders > 0 && order != 1) { /* 1 = TYPE_ORDER; anything else unknown */
        out->flags |= PQT_SST_NO_ORDER;
        return false;
    }
    return true;
}

static void set_bounds(const pqt_col *c, int ptype, const uint8_t *lo, uint32_t lo_len,
                       bool lo_exact, const uint8_t *hi, uint32_t hi_len, bool hi_exact,
                       bool legacy, pqt_scan_stats *out)
{
    if (lo && decode_bound(c, ptype, lo, lo_len, &out->min))
        out->flags |= PQT_SST_MIN | (lo_exact ? PQT_SST_MIN_EXACT : 0);
    if (hi && decode_bound(c, ptype, hi, hi_len, &out->max))
        out->flags |= PQT_SST_MAX | (hi_exact ? PQT_SST_MAX_EXACT : 0);
    if (legacy) out->flags |= PQT_SST_SIGNED_ORDER;
    if (c->kind == PQT_UINT64) out->flags |= PQT_SST_UNSIGNED;
}

void pqt_scan_chunk_stats(const pqt_file_meta *meta, const pqt_col *c, int rg,
                          pqt_scan_stats *out)
{
    memset(out, 0, sizeof *out);
    out->null_count = -1;
    out->nan_count = -1;
    const pqt_column_meta *cm = &meta->row_groups[rg].columns[c->chunk_col].meta;
    if (!cm->has_stats) return;
    const pqt_stats *s = &cm->stats;
    if (s->has_null_count && s->null_count >= 0) out->null_count = s->null_count;
    if (s->has_nan_count && s->nan_count >= 0) out->nan_count = s->nan_count;
    int ptype = cm->type;
    if (!usable_order(meta, c, ptype, out)) return;
    const uint8_t *lo = NULL, *hi = NULL;
    uint32_t lo_len = 0, hi_len = 0;
    bool legacy = false, lo_exact = true, hi_exact = true;
    if (s->has_min_value || s->has_max_value) {
        if (s->has_min_value) lo = s->min_value, lo_len = s->min_value_len;
        if (s->has_max_value) hi = s->max_value, hi_len = s->max_value_len;
        /* min_value/max_value without column_orders: written before orders were defined */
        legacy = meta->n_column_orders == 0 && signed_order_differs(c, ptype);
        if (ptype == PQT_PT_BYTE_ARRAY) { /* may be truncated unless said exact */
            lo_exact = s->has_is_min_value_exact && s->is_min_value_exact;
            hi_exact = s->has_is_max_value_exact && s->is_max_value_exact;
        }
    } else {
        if (s->has_min) lo = s->min, lo_len = s->min_len;
        if (s->has_max) hi = s->max, hi_len = s->max_len;
        legacy = signed_order_differs(c, ptype);
    }
    set_bounds(c, ptype, lo, lo_len, lo_exact, hi, hi_len, hi_exact, legacy, out);
}

void pqt_scan_page_stats(const pqt_file_meta *meta, const pqt_col *c, int rg,
                         const pqt_column_index *ci, int page, int64_t page_rows,
                         pqt_scan_stats *out)
{
    memset(out, 0, sizeof *out);
    out->null_count = ci->null_counts && ci->null_counts[page] >= 0 ? ci->null_counts[page] : -1;
    out->nan_count = ci->nan_counts && ci->nan_counts[page] >= 0 ? ci->nan_counts[page] : -1;
    if (ci->null_pages[page]) { /* every value null: its bounds are empty and mean nothing */
        out->null_count = page_rows;
        out->nan_count = 0;
        return;
    }
    int ptype = meta->row_groups[rg].columns[c->chunk_col].meta.type;
    if (!usable_order(meta, c, ptype, out)) return;
    /* Page bounds follow the column order; without column_orders the writer predates them.
     * Strings may be truncated (PageIndex.md): never exact. */
    bool legacy = meta->n_column_orders == 0 && signed_order_differs(c, ptype);
    bool exact = ptype != PQT_PT_BYTE_ARRAY;
    set_bounds(c, ptype, ci->min_values[page], ci->min_lens[page], exact, ci->max_values[page],
               ci->max_lens[page], exact, legacy, out);
}
