/* SPDX-License-Identifier: Apache-2.0 */
/*
 * file_info.c - read-only inspection of an open pqt_file (layer: api).
 *
 * Backs `pqt schema` and `pqt meta`: the raw schema tree as the footer lists it
 * (parquet-format's SchemaElement list, pre-order, root first), and per column chunk
 * its codec, encodings, sizes, statistics (rendered as text for the column's physical
 * and logical type, LogicalTypes.md) and whether a page index and bloom filter exist.
 * Everything here is a pure function of the decoded footer in f->meta and the column
 * list in f->schema; nothing reads the file. Formatted text goes into caller buffers
 * (the handle is const and has no room for a cache of formatted strings).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api/file_int.h"
#include "format/schema_int.h"
#include "util/civil.h"
#include "util/error.h"
#include "util/half.h"
#include "util/mem.h"

/* Strings longer than this are shown truncated with "…" (statistics of text columns). */
#define STAT_STR_MAX 40
/* Binary statistics longer than this many bytes are shown truncated. */
#define STAT_HEX_MAX 32

/* ---- small text builder over a fixed buffer (statistics are short by construction) ---- */

typedef struct tb {
    char s[512];
    size_t n;
} tb;

static void tb_put(tb *t, const char *s, size_t n)
{
    if (n > sizeof t->s - 1 - t->n) n = sizeof t->s - 1 - t->n;
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = '\0';
}

static void tb_str(tb *t, const char *s)
{
    tb_put(t, s, strlen(s));
}

static void tb_i64(tb *t, long long v)
{
    char tmp[32];
    tb_put(t, tmp, (size_t)snprintf(tmp, sizeof tmp, "%lld", v));
}

/* Copy text to the caller's buffer with snprintf semantics: the full length is reported,
 * the copy is truncated to cap - 1 bytes and always NUL-terminated when cap > 0. */
static pqt_status put_text(const char *s, size_t n, char *buf, size_t cap, size_t *len_ret)
{
    if (cap > 0) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
    }
    if (len_ret) *len_ret = n;
    return PQT_OK;
}

/* ---- range checks ---- */

static bool node_ok(const pqt_file *f, int node)
{
    return f && node >= 0 && node < f->meta.nschema;
}

static const pqt_column_chunk *chunk_at(const pqt_file *f, int rg, int leaf)
{
    if (!f || rg < 0 || rg >= f->meta.n_row_groups) return NULL;
    const pqt_row_group *g = &f->meta.row_groups[rg];
    if (leaf < 0 || leaf >= g->ncolumns) return NULL;
    return &g->columns[leaf];
}

/* ColumnMetaData of a chunk, NULL when out of range or absent (encrypted column). */
static const pqt_column_meta *chunk_meta(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_chunk *c = chunk_at(f, rg, leaf);
    return c && c->has_meta ? &c->meta : NULL;
}

static bool is_group(const pqt_schema_elem *e)
{
    return e->num_children > 0 || e->type < 0;
}

/* ---- file-level ---- */

const char *pqt_file_created_by(const pqt_file *f)
{
    if (!f) return NULL;
    return f->meta.created_by ? f->meta.created_by : "";
}

int64_t pqt_file_row_group_nbytes(const pqt_file *f, int rg)
{
    if (!f || rg < 0 || rg >= f->meta.n_row_groups) return -1;
    return f->meta.row_groups[rg].total_byte_size;
}

int64_t pqt_file_row_group_compressed_nbytes(const pqt_file *f, int rg)
{
    if (!f || rg < 0 || rg >= f->meta.n_row_groups) return -1;
    const pqt_row_group *g = &f->meta.row_groups[rg];
    if (g->has_total_compressed_size) return g->total_compressed_size;
    /* Older writers omit the field; the chunks' own totals add up to the same thing. */
    int64_t sum = 0;
    for (int i = 0; i < g->ncolumns; i++)
        if (g->columns[i].has_meta) sum += g->columns[i].meta.total_compressed_size;
    return sum;
}

/* ---- schema tree ---- */

int pqt_file_nnodes(const pqt_file *f)
{
    return f ? f->meta.nschema : 0;
}

const char *pqt_file_node_name(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return NULL;
    const char *s = f->meta.schema[node].name;
    return s ? s : "";
}

const char *pqt_file_node_read_name(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return NULL;
    const char **renamed = f->schema.field_name;
    return renamed && renamed[node] ? renamed[node] : pqt_file_node_name(f, node);
}

int pqt_file_node_nchildren(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return -1;
    return f->meta.schema[node].num_children;
}

const char *pqt_file_node_repetition(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return NULL;
    switch (f->meta.schema[node].repetition) {
    case PQT_REP_REQUIRED:
        return "required";
    case PQT_REP_OPTIONAL:
        return "optional";
    case PQT_REP_REPEATED:
        return "repeated";
    default:
        return "";
    }
}

static const char *const physical_names[] = {
    "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};

const char *pqt_file_node_physical(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return NULL;
    const pqt_schema_elem *e = &f->meta.schema[node];
    if (is_group(e)) return "";
    return e->type <= PQT_PT_FIXED_LEN_BYTE_ARRAY ? physical_names[e->type] : "UNKNOWN";
}

int32_t pqt_file_node_type_length(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return -1;
    const pqt_schema_elem *e = &f->meta.schema[node];
    return e->type == PQT_PT_FIXED_LEN_BYTE_ARRAY ? e->type_length : 0;
}

pqt_status pqt_file_node_logical(const pqt_file *f, int node, char *buf, size_t cap,
                                 size_t *len_ret)
{
    if (!node_ok(f, node)) return pqt_err(PQT_MISUSE, "schema node %d out of range", node);
    if (!buf && cap > 0) return pqt_err(PQT_MISUSE, "NULL buffer with capacity %zu", cap);
    char s[PQT_SCHEMA_TEXT_NBYTES];
    pqt_schema_logical_render(&f->meta.schema[node], s, sizeof s);
    return put_text(s, strlen(s), buf, cap, len_ret);
}

/* Parents and named columns are indexed once at open (pqt_schema_build): every node
 * query is O(1), or O(depth) for the depth, so walking a wide schema stays linear. */
int pqt_file_node_depth(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return -1;
    int depth = 0;
    for (int p = f->schema.node_parent[node]; p >= 0; p = f->schema.node_parent[p]) depth++;
    return depth;
}

int pqt_file_node_parent(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return -1;
    return f->schema.node_parent[node];
}

int pqt_file_node_column(const pqt_file *f, int node)
{
    if (!node_ok(f, node)) return -1;
    return f->schema.node_col[node];
}

/* ---- column chunks ---- */

int pqt_file_nleaves(const pqt_file *f)
{
    return f ? f->schema.nleaves : 0;
}

int pqt_file_leaf_node(const pqt_file *f, int leaf)
{
    if (!f || leaf < 0 || leaf >= f->schema.nleaves) return -1;
    const pqt_file_meta *m = &f->meta;
    /* Start from the column that reads this leaf (binary search on chunk_col), then step
     * over the few leaves before it inside that column (only nested unreadable ones). */
    int lo = 0, hi = f->schema.ncols - 1, col = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (f->schema.cols[mid].chunk_col <= leaf) {
            col = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    int node = 0, skip = leaf;
    if (col >= 0) {
        node = f->schema.cols[col].leaf_schema_idx;
        skip = leaf - f->schema.cols[col].chunk_col;
    } else {
        while (node < m->nschema && is_group(&m->schema[node]))
            node++;
    }
    for (; node < m->nschema; node++) {
        if (is_group(&m->schema[node])) continue;
        if (skip-- == 0) return node;
    }
    return -1;
}

static const char *const codec_names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                          "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};

const char *pqt_file_chunk_codec(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    if (!cm) return NULL;
    return cm->codec >= 0 && cm->codec <= PQT_CODEC_LZ4_RAW ? codec_names[cm->codec] : "UNKNOWN";
}

int pqt_file_chunk_nencodings(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    return cm ? cm->n_encodings : -1;
}

const char *pqt_file_chunk_encoding(const pqt_file *f, int rg, int leaf, int i)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    if (!cm || i < 0 || i >= cm->n_encodings) return NULL;
    switch (cm->encodings[i]) {
    case PQT_ENC_PLAIN:
        return "PLAIN";
    case PQT_ENC_PLAIN_DICTIONARY:
        return "PLAIN_DICTIONARY";
    case PQT_ENC_RLE:
        return "RLE";
    case PQT_ENC_BIT_PACKED:
        return "BIT_PACKED";
    case PQT_ENC_DELTA_BINARY_PACKED:
        return "DELTA_BINARY_PACKED";
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY:
        return "DELTA_LENGTH_BYTE_ARRAY";
    case PQT_ENC_DELTA_BYTE_ARRAY:
        return "DELTA_BYTE_ARRAY";
    case PQT_ENC_RLE_DICTIONARY:
        return "RLE_DICTIONARY";
    case PQT_ENC_BYTE_STREAM_SPLIT:
        return "BYTE_STREAM_SPLIT";
    default:
        return "UNKNOWN";
    }
}

int64_t pqt_file_chunk_nvals(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    return cm ? cm->num_values : -1;
}

int64_t pqt_file_chunk_compressed_nbytes(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    return cm ? cm->total_compressed_size : -1;
}

int64_t pqt_file_chunk_uncompressed_nbytes(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    return cm ? cm->total_uncompressed_size : -1;
}

int pqt_file_chunk_has_offset_index(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_chunk *c = chunk_at(f, rg, leaf);
    return c ? c->has_offset_index : -1;
}

int pqt_file_chunk_has_column_index(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_chunk *c = chunk_at(f, rg, leaf);
    return c ? c->has_column_index : -1;
}

int pqt_file_chunk_has_bloom_filter(const pqt_file *f, int rg, int leaf)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    if (!cm) return chunk_at(f, rg, leaf) ? 0 : -1;
    return cm->has_bloom_filter_offset;
}

/* ---- statistics ---- */

int64_t pqt_file_chunk_stat_count(const pqt_file *f, int rg, int leaf, int which)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    if (!cm || !cm->has_stats) return -1;
    const pqt_stats *s = &cm->stats;
    switch (which) {
    case PQT_STAT_NULL_COUNT:
        return s->has_null_count ? s->null_count : -1;
    case PQT_STAT_DISTINCT_COUNT:
        return s->has_distinct_count ? s->distinct_count : -1;
    case PQT_STAT_NAN_COUNT:
        return s->has_nan_count ? s->nan_count : -1;
    default:
        return -1;
    }
}

/* Whether the deprecated min/max (fields 1/2, written in signed byte order by old writers)
 * mean the same as min_value/max_value for this leaf: only where signed order is the type's
 * order. For byte arrays and unsigned integers they are unreliable (PARQUET-251). */
static bool legacy_order_ok(const pqt_schema_elem *e)
{
    switch (e->type) {
    case PQT_PT_BOOLEAN:
    case PQT_PT_FLOAT:
    case PQT_PT_DOUBLE:
        return true;
    case PQT_PT_INT32:
    case PQT_PT_INT64:
        if (e->logical.id == PQT_LT_INTEGER && !e->logical.is_signed) return false;
        return !(e->converted_type >= PQT_CT_UINT_8 && e->converted_type <= PQT_CT_UINT_64);
    default:
        return false;
    }
}

/* The min or max bytes to show, and whether they are exact (1/0/-1 unknown). */
static bool stat_bytes(const pqt_file *f, int rg, int leaf, int which, const uint8_t **v,
                       uint32_t *n, int *exact)
{
    const pqt_column_meta *cm = chunk_meta(f, rg, leaf);
    if (!cm || !cm->has_stats) return false;
    const pqt_stats *s = &cm->stats;
    bool want_max = which == PQT_STAT_MAX;
    if (want_max ? s->has_max_value : s->has_min_value) {
        *v = want_max ? s->max_value : s->min_value;
        *n = want_max ? s->max_value_len : s->min_value_len;
        bool has = want_max ? s->has_is_max_value_exact : s->has_is_min_value_exact;
        *exact = !has ? -1 : (want_max ? s->is_max_value_exact : s->is_min_value_exact);
        return true;
    }
    int node = pqt_file_leaf_node(f, leaf);
    if (node < 0 || !legacy_order_ok(&f->meta.schema[node])) return false;
    if (!(want_max ? s->has_max : s->has_min)) return false;
    *v = want_max ? s->max : s->min;
    *n = want_max ? s->max_len : s->min_len;
    *exact = -1;
    return true;
}

int pqt_file_chunk_stat_exact(const pqt_file *f, int rg, int leaf, int which)
{
    const uint8_t *v;
    uint32_t n;
    int exact;
    if (which != PQT_STAT_MIN && which != PQT_STAT_MAX) return -1;
    return stat_bytes(f, rg, leaf, which, &v, &n, &exact) ? exact : -1;
}

static uint64_t le_u64(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Proleptic Gregorian civil date from days since 1970-01-01. */
static void civil_from_days(int64_t z, tb *t)
{
    int64_t y;
    int m, d;
    pqt_civil_from_days(z, &y, &m, &d);
    char tmp[48];
    tb_put(t, tmp,
           (size_t)snprintf(tmp, sizeof tmp, "%04lld-%02d-%02d", (long long)y, (int)m, (int)d));
}

static const int64_t unit_per_sec[] = {1000, 1000000, 1000000000};
static const int unit_digits[] = {3, 6, 9};

/* HH:MM:SS.fff... of a time of day in `unit` ticks (0 <= v; hours past 23 stay visible). */
static void time_of_day(int64_t v, int unit, tb *t)
{
    int64_t ups = unit_per_sec[unit];
    int64_t secs = v / ups, frac = v % ups;
    char tmp[48];
    tb_put(t, tmp,
           (size_t)snprintf(tmp, sizeof tmp, "%02d:%02d:%02d.%0*lld", (int)(secs / 3600),
                            (int)(secs / 60 % 60), (int)(secs % 60), unit_digits[unit],
                            (long long)frac));
}

static void timestamp(int64_t v, int unit, bool utc, tb *t)
{
    int64_t per_day = unit_per_sec[unit] * 86400;
    int64_t days = v / per_day, rem = v % per_day;
    if (rem < 0) { /* floor, so 1969 instants count back from the previous midnight */
        rem += per_day;
        days--;
    }
    civil_from_days(days, t);
    tb_str(t, "T");
    time_of_day(rem, unit, t);
    if (utc) tb_str(t, "Z");
}

/* Exact decimal text of a 128-bit unscaled value (pqt_format_decimal). */
static void decimal_128(int64_t hi, uint64_t lo, int32_t scale, tb *t)
{
    char tmp[96];
    size_t n = pqt_format_decimal(hi, lo, scale, tmp, sizeof tmp);
    if (n >= sizeof tmp) { /* a scale in the thousands: the statistic is not worth a page */
        tb_str(t, "?");
        return;
    }
    tb_put(t, tmp, n);
}

static void decimal_i64(int64_t v, int32_t scale, tb *t)
{
    decimal_128(v < 0 ? -1 : 0, (uint64_t)v, scale, t);
}

static void hex(const uint8_t *v, uint32_t n, tb *t)
{
    static const char digits[] = "0123456789abcdef";
    tb_str(t, "0x");
    for (uint32_t i = 0; i < n && i < STAT_HEX_MAX; i++) {
        char two[2] = {digits[v[i] >> 4], digits[v[i] & 15]};
        tb_put(t, two, 2);
    }
    if (n > STAT_HEX_MAX) tb_str(t, "…");
}

/* Big-endian two's-complement unscaled decimal (BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY). Values
 * wider than 128 bits are shown as hex rather than approximated. */
static void decimal_be(const uint8_t *v, uint32_t n, int32_t scale, tb *t)
{
    if (n == 0) {
        tb_str(t, "0");
        return;
    }
    uint8_t sign = (v[0] & 0x80) ? 0xff : 0;
    uint32_t skip = 0;
    while (n - skip > 16 && v[skip] == sign)
        skip++;
    if (n - skip > 16 || (n - skip == 16 && skip > 0 && ((v[skip] ^ sign) & 0x80))) {
        hex(v, n, t);
        return;
    }
    uint64_t hi = sign ? ~(uint64_t)0 : 0, lo = hi;
    for (uint32_t i = skip; i < n; i++) {
        hi = (hi << 8) | (lo >> 56);
        lo = (lo << 8) | v[i];
    }
    decimal_128((int64_t)hi, lo, scale, t);
}

/* Shortest round-trip text, the same as `pqt cat` prints (pqt_format_float64/32). */
static void floating(double d, bool is_float, tb *t)
{
    char tmp[PQT_NUMBER_TEXT_MAX + 8];
    size_t n = is_float ? pqt_format_float32((float)d, tmp, sizeof tmp)
                        : pqt_format_float64(d, tmp, sizeof tmp);
    tb_put(t, tmp, n);
}

/* Length of the valid UTF-8 sequence at s[0..n), 0 if invalid. */
static size_t utf8_len(const uint8_t *s, size_t n)
{
    size_t k = s[0] < 0x80                   ? 1
               : s[0] >= 0xc2 && s[0] < 0xe0 ? 2
               : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
               : s[0] >= 0xf0 && s[0] < 0xf5 ? 4
                                             : 0;
    if (k == 0 || k > n) return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    /* Overlong 3/4-byte forms and surrogates. */
    if (k == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0))) return 0;
    if (k == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))) return 0;
    return k;
}

/* A quoted, escaped string, truncated to STAT_STR_MAX characters. Writers may cut a
 * statistic in the middle of a character, so bytes that are not UTF-8 show as \xNN. */
static void quoted(const uint8_t *s, uint32_t n, tb *t)
{
    tb_str(t, "\"");
    size_t i = 0;
    int chars = 0;
    while (i < n) {
        if (chars++ == STAT_STR_MAX) {
            tb_str(t, "…");
            break;
        }
        char tmp[8];
        size_t k = utf8_len(s + i, n - i);
        if (k == 0) {
            tb_put(t, tmp, (size_t)snprintf(tmp, sizeof tmp, "\\x%02x", s[i]));
            i++;
        } else if (s[i] == '"' || s[i] == '\\') {
            tmp[0] = '\\';
            tmp[1] = (char)s[i++];
            tb_put(t, tmp, 2);
        } else if (s[i] < 0x20) {
            if (s[i] == '\n')
                tb_str(t, "\\n");
            else if (s[i] == '\t')
                tb_str(t, "\\t");
            else
                tb_put(t, tmp, (size_t)snprintf(tmp, sizeof tmp, "\\u%04x", s[i]));
            i++;
        } else {
            tb_put(t, (const char *)s + i, k);
            i += k;
        }
    }
    tb_str(t, "\"");
}

static bool textual(const pqt_schema_elem *e)
{
    int lt = e->logical.id, ct = e->converted_type;
    return lt == PQT_LT_STRING || lt == PQT_LT_ENUM || lt == PQT_LT_JSON || ct == PQT_CT_UTF8 ||
           ct == PQT_CT_ENUM || ct == PQT_CT_JSON;
}

/* An INT32/INT64 statistic (w bytes) under its logical type. */
static void stat_int(const pqt_schema_elem *e, const uint8_t *v, int w, tb *t)
{
    const pqt_logical_type *lt = &e->logical;
    int ct = e->converted_type;
    uint64_t u = le_u64(v, w);
    int64_t x = w == 4 ? (int64_t)(int32_t)(uint32_t)u : (int64_t)u;
    int unit = lt->id == PQT_LT_TIME || lt->id == PQT_LT_TIMESTAMP         ? lt->unit
               : ct == PQT_CT_TIME_MILLIS || ct == PQT_CT_TIMESTAMP_MILLIS ? 0
               : ct == PQT_CT_TIME_MICROS || ct == PQT_CT_TIMESTAMP_MICROS ? 1
                                                                           : -1;
    int64_t ups = unit >= 0 && unit <= 2 ? unit_per_sec[unit] : 0;
    bool is_time = lt->id == PQT_LT_TIME || ct == PQT_CT_TIME_MILLIS || ct == PQT_CT_TIME_MICROS;
    bool is_ts = lt->id == PQT_LT_TIMESTAMP || ct == PQT_CT_TIMESTAMP_MILLIS ||
                 ct == PQT_CT_TIMESTAMP_MICROS;
    /* Converted TIMESTAMP_* types are UTC-adjusted by definition (LogicalTypes.md). */
    bool utc = lt->id == PQT_LT_TIMESTAMP ? lt->utc : is_ts;
    bool is_unsigned = (lt->id == PQT_LT_INTEGER && !lt->is_signed) ||
                       (ct >= PQT_CT_UINT_8 && ct <= PQT_CT_UINT_64);
    if (lt->id == PQT_LT_DATE || ct == PQT_CT_DATE) {
        civil_from_days(x, t);
    } else if (is_time && ups) {
        /* as the tool prints values: a negative time wraps modulo 24 hours, one past a day
         * keeps its hours (25:00:00), so neither is a bare count */
        if (x < 0) x = x % (ups * 86400) + (x % (ups * 86400) ? ups * 86400 : 0);
        time_of_day(x, unit, t);
    } else if (is_ts && ups) {
        timestamp(x, unit, utc, t);
    } else if (lt->id == PQT_LT_DECIMAL || ct == PQT_CT_DECIMAL) {
        decimal_i64(x, lt->id == PQT_LT_DECIMAL ? lt->scale : e->scale, t);
    } else if (is_unsigned) {
        char tmp[32];
        uint64_t uu = w == 4 ? (uint64_t)(uint32_t)u : u;
        tb_put(t, tmp, (size_t)snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)uu));
    } else {
        tb_i64(t, (long long)x);
    }
}

static void uuid(const uint8_t *v, tb *t)
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) tb_str(t, "-");
        char two[2] = {digits[v[i] >> 4], digits[v[i] & 15]};
        tb_put(t, two, 2);
    }
}

/* Render one statistic value for the leaf element e. Returns false when the bytes do not
 * fit the type (a length the physical type cannot have): the caller shows them as hex
 * rather than reinterpret them. */
static bool render_stat(const pqt_schema_elem *e, const uint8_t *v, uint32_t n, tb *t)
{
    int lt = e->logical.id;
    bool decimal = lt == PQT_LT_DECIMAL || e->converted_type == PQT_CT_DECIMAL;
    int32_t scale = lt == PQT_LT_DECIMAL ? e->logical.scale : e->scale;
    switch (e->type) {
    case PQT_PT_BOOLEAN:
        if (n < 1) return false;
        tb_str(t, v[0] ? "true" : "false");
        return true;
    case PQT_PT_INT32:
    case PQT_PT_INT64:
        if (n != (e->type == PQT_PT_INT32 ? 4u : 8u)) return false;
        stat_int(e, v, (int)n, t);
        return true;
    case PQT_PT_INT96: {
        if (n != 12) return false;
        /* Impala/Spark timestamp: nanoseconds of the day, then the Julian day number. */
        int64_t nanos = (int64_t)le_u64(v, 8);
        int64_t days = (int64_t)(int32_t)(uint32_t)le_u64(v + 8, 4) - 2440588;
        if (nanos < 0 || nanos >= 86400 * (int64_t)1000000000) return false;
        civil_from_days(days, t);
        tb_str(t, "T");
        time_of_day(nanos, 2, t);
        return true;
    }
    case PQT_PT_FLOAT: {
        if (n != 4) return false;
        uint32_t bits = (uint32_t)le_u64(v, 4);
        float x;
        memcpy(&x, &bits, 4);
        floating(x, true, t);
        return true;
    }
    case PQT_PT_DOUBLE: {
        if (n != 8) return false;
        uint64_t bits = le_u64(v, 8);
        double x;
        memcpy(&x, &bits, 8);
        floating(x, false, t);
        return true;
    }
    case PQT_PT_BYTE_ARRAY:
    case PQT_PT_FIXED_LEN_BYTE_ARRAY:
        if (decimal)
            decimal_be(v, n, scale, t);
        else if (lt == PQT_LT_FLOAT16 && n == 2)
            floating(pqt_half_to_float((uint16_t)le_u64(v, 2)), true, t);
        else if (lt == PQT_LT_UUID && n == 16)
            uuid(v, t);
        else if (textual(e))
            quoted(v, n, t);
        else
            return false;
        return true;
    default:
        return false;
    }
}

pqt_status pqt_file_chunk_stat_text(const pqt_file *f, int rg, int leaf, int which, char *buf,
                                    size_t cap, size_t *len_ret)
{
    if (!chunk_at(f, rg, leaf))
        return pqt_err(PQT_MISUSE, "column chunk rg=%d, leaf=%d (0-based arguments) out of range",
                       rg, leaf);
    if (which != PQT_STAT_MIN && which != PQT_STAT_MAX)
        return pqt_err(PQT_MISUSE, "statistic %d is not PQT_STAT_MIN or PQT_STAT_MAX", which);
    if (!buf && cap > 0) return pqt_err(PQT_MISUSE, "NULL buffer with capacity %zu", cap);
    const uint8_t *v;
    uint32_t n;
    int exact;
    if (!stat_bytes(f, rg, leaf, which, &v, &n, &exact)) return PQT_NOT_FOUND;
    int node = pqt_file_leaf_node(f, leaf);
    if (node < 0) return PQT_NOT_FOUND;
    tb t = {.n = 0};
    t.s[0] = '\0';
    if (!render_stat(&f->meta.schema[node], v, n, &t)) hex(v, n, &t);
    return put_text(t.s, t.n, buf, cap, len_ret);
}
