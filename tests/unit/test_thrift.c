/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_thrift.c - the Thrift compact-protocol reader and the metadata decoders on hand-built
 * bytes: varint and zigzag edge cases, overlong varints, long-form field ids, the nesting
 * cap, lengths and counts past the end, skipping of every wire type, required fields, and
 * every truncated prefix of valid structs (each must give PQT_CORRUPT, never a crash; the
 * prefix is copied into an exact-size heap buffer so ASan sees any overread).
 */
#include <stdlib.h>
#include <string.h>

#include "format/meta.h"
#include "format/thrift.h"
#include "testutil.h"

/* ---- a tiny compact-protocol writer for building inputs ---- */

typedef struct w {
    uint8_t b[8192];
    size_t n;
    int16_t last[80];
    int depth;
} w;

static void wb(w *o, uint8_t x)
{
    o->b[o->n++] = x;
}
static void wuvar(w *o, uint64_t v)
{
    while (v >= 0x80) {
        wb(o, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    wb(o, (uint8_t)v);
}
static void wzz(w *o, int64_t v)
{
    wuvar(o, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}
static void wfield(w *o, int id, int type)
{
    int delta = id - o->last[o->depth];
    if (delta > 0 && delta <= 15) {
        wb(o, (uint8_t)(delta << 4 | type));
    } else {
        wb(o, (uint8_t)type);
        wzz(o, id);
    }
    o->last[o->depth] = (int16_t)id;
}
static void wbegin(w *o)
{
    o->last[++o->depth] = 0;
}
static void wend(w *o)
{
    wb(o, 0);
    o->depth--;
}
static void wi(w *o, int id, int64_t v)
{
    wfield(o, id, PQT_TT_I64);
    wzz(o, v);
}
static void wi32(w *o, int id, int64_t v)
{
    wfield(o, id, PQT_TT_I32);
    wzz(o, v);
}
static void wbool(w *o, int id, int v)
{
    wfield(o, id, v ? PQT_TT_TRUE : PQT_TT_FALSE);
}
static void wbin(w *o, const char *s)
{
    wuvar(o, strlen(s));
    memcpy(o->b + o->n, s, strlen(s));
    o->n += strlen(s);
}
static void wstr(w *o, int id, const char *s)
{
    wfield(o, id, PQT_TT_BINARY);
    wbin(o, s);
}
static void wlist(w *o, int id, int et, int n)
{
    if (id) wfield(o, id, PQT_TT_LIST);
    if (n < 15) {
        wb(o, (uint8_t)(n << 4 | et));
    } else {
        wb(o, (uint8_t)(0xf0 | et));
        wuvar(o, (uint64_t)n);
    }
}
static void wsfield(w *o, int id)
{
    wfield(o, id, PQT_TT_STRUCT);
    wbegin(o);
}

static pqt_thrift_reader rd(const uint8_t *b, size_t n)
{
    pqt_thrift_reader r;
    pqt_thrift_init(&r, b, n, 1000, "test");
    return r;
}

static void test_varints(void)
{
    static const struct {
        uint8_t b[12];
        size_t n;
        uint64_t v;
    } ok[] = {{{0x00}, 1, 0},
              {{0x7f}, 1, 127},
              {{0x80, 0x01}, 2, 128},
              {{0xff, 0xff, 0xff, 0xff, 0x0f}, 5, 0xffffffffu},
              {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 10, 1ull << 63},
              {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10, UINT64_MAX},
              /* non-minimal but within 10 bytes is legal */
              {{0x81, 0x80, 0x00}, 3, 1}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        pqt_thrift_reader r = rd(ok[i].b, ok[i].n);
        uint64_t v = 0;
        CHECK_OK(pqt_thrift_read_uvarint(&r, &v));
        CHECK(v == ok[i].v);
        CHECK_EQ_I64(pqt_thrift_remaining(&r), 0);
    }
    static const struct {
        uint8_t b[12];
        size_t n;
    } bad[] = {{{0}, 0},
               {{0x80}, 1},
               {{0xff, 0xff}, 2},
               /* 11 bytes */
               {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 11},
               /* 10th byte carries bits above 63 */
               {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, 10}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pqt_thrift_reader r = rd(bad[i].b, bad[i].n);
        uint64_t v;
        CHECK_EQ_I64(pqt_thrift_read_uvarint(&r, &v), PQT_CORRUPT);
        CHECK(strstr(pqt_errmsg(), "corrupt test at byte 1000") != NULL);
    }
}

static void test_zigzag(void)
{
    static const struct {
        uint64_t u;
        int64_t v;
    } zz[] = {{0, 0}, {1, -1}, {2, 1}, {3, -2}, {0xfffffffeu, INT32_MAX}, {0xffffffffu, INT32_MIN}};
    for (size_t i = 0; i < sizeof zz / sizeof zz[0]; i++) {
        w o = {0};
        wuvar(&o, zz[i].u);
        pqt_thrift_reader r = rd(o.b, o.n);
        int32_t v;
        CHECK_OK(pqt_thrift_read_i32(&r, &v));
        CHECK_EQ_I64(v, zz[i].v);
    }
    w o = {0};
    wzz(&o, INT64_MIN);
    wzz(&o, INT64_MAX);
    wzz(&o, -300);
    wuvar(&o, 1ull << 32); /* does not fit an i32 */
    size_t at16 = o.n;
    wuvar(&o, 1ull << 16); /* does not fit an i16 */
    pqt_thrift_reader r = rd(o.b, o.n);
    int64_t v64;
    int32_t v32;
    int16_t v16;
    CHECK_OK(pqt_thrift_read_i64(&r, &v64));
    CHECK(v64 == INT64_MIN);
    CHECK_OK(pqt_thrift_read_i64(&r, &v64));
    CHECK(v64 == INT64_MAX);
    CHECK_OK(pqt_thrift_read_i16(&r, &v16));
    CHECK_EQ_I64(v16, -300);
    CHECK_EQ_I64(pqt_thrift_read_i32(&r, &v32), PQT_CORRUPT);
    r = rd(o.b + at16, o.n - at16);
    CHECK_EQ_I64(pqt_thrift_read_i16(&r, &v16), PQT_CORRUPT);
}

static void test_field_headers(void)
{
    w o = {0};
    wbegin(&o);
    wi32(&o, 1, 7);  /* short form */
    wbool(&o, 2, 1); /* bool in the type nibble */
    wbool(&o, 3, 0);
    wi32(&o, 300, -5); /* long form */
    wi32(&o, 301, 9);  /* short form after a long one: delta from 300 */
    wi32(&o, -2, 1);   /* negative ids are legal Thrift */
    wend(&o);
    pqt_thrift_reader r = rd(o.b, o.n);
    int16_t last;
    pqt_thrift_field f;
    int32_t v;
    CHECK_OK(pqt_thrift_struct_begin(&r, &last));
    static const int ids[] = {1, 2, 3, 300, 301, -2};
    for (int i = 0; i < 6; i++) {
        CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
        CHECK_EQ_I64(f.id, ids[i]);
        if (i == 1 || i == 2) {
            CHECK(pqt_thrift_is_bool(f.type));
            CHECK(f.bool_val == (i == 1));
        } else {
            CHECK_OK(pqt_thrift_read_i32(&r, &v));
        }
        if (i == 3) CHECK_EQ_I64(v, -5);
    }
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
    CHECK_EQ_I64(f.type, PQT_TT_STOP);
    pqt_thrift_struct_end(&r);
    CHECK_EQ_I64(pqt_thrift_remaining(&r), 0);

    /* invalid type nibbles, a missing stop byte, and a delta overflowing i16 */
    static const uint8_t bad1[] = {0x1e}, bad2[] = {0x10}, bad3[] = {0x15, 0x02};
    const uint8_t *bads[] = {bad1, bad2, bad3};
    const size_t nbads[] = {1, 1, 2};
    for (int i = 0; i < 3; i++) {
        r = rd(bads[i], nbads[i]);
        last = 0;
        pqt_status st = PQT_OK;
        for (int k = 0; k < 3 && st == PQT_OK; k++) {
            st = pqt_thrift_read_field(&r, &last, &f);
            if (st == PQT_OK && f.type != PQT_TT_STOP) st = pqt_thrift_skip(&r, f.type);
        }
        CHECK_EQ_I64(st, PQT_CORRUPT);
    }
    /* long-form id 32766 with value 0, then a short-form delta, then stop */
    uint8_t ovf[] = {0x05, 0xfc, 0xff, 0x03, 0x00, 0x15, 0x00, 0x00};
    r = rd(ovf, sizeof ovf);
    last = 0;
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
    CHECK_EQ_I64(f.id, 32766);
    CHECK_OK(pqt_thrift_read_i32(&r, &v));
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f)); /* 32767 fits */
    ovf[5] = 0x25;                                  /* 32766 + 2 does not */
    r = rd(ovf, sizeof ovf);
    last = 0;
    CHECK_OK(pqt_thrift_read_field(&r, &last, &f));
    CHECK_OK(pqt_thrift_read_i32(&r, &v));
    CHECK_EQ_I64(pqt_thrift_read_field(&r, &last, &f), PQT_CORRUPT);
}

/* A struct field 1 nesting `levels` structs (or lists of structs) inside each other. */
static size_t build_nested(uint8_t *b, int levels, bool lists)
{
    size_t n = 0;
    for (int i = 0; i < levels; i++) {
        if (lists) {
            b[n++] = 0x19; /* field 1: list */
            b[n++] = 0x1c; /* one struct */
        } else {
            b[n++] = 0x1c; /* field 1: struct */
        }
    }
    for (int i = 0; i <= levels; i++)
        b[n++] = 0; /* the stops */
    return n;
}

static void test_depth(void)
{
    uint8_t b[1024];
    for (int lists = 0; lists < 2; lists++) {
        size_t n = build_nested(b, 20, lists);
        pqt_thrift_reader r = rd(b, n);
        CHECK_OK(pqt_thrift_skip(&r, PQT_TT_STRUCT));
        CHECK_EQ_I64(pqt_thrift_remaining(&r), 0);
        CHECK_EQ_I64(r.depth, 0);
        n = build_nested(b, 200, lists);
        r = rd(b, n);
        CHECK_EQ_I64(pqt_thrift_skip(&r, PQT_TT_STRUCT), PQT_CORRUPT);
        CHECK(strstr(pqt_errmsg(), "nesting") != NULL);
    }
    /* the decoders skip unknown fields with the same cap */
    size_t n = build_nested(b, 200, false);
    pqt_page_header h;
    size_t hn;
    CHECK_EQ_I64(pqt_meta_decode_page_header(b, n, 0, &h, &hn), PQT_CORRUPT);
}

static void test_lengths(void)
{
    /* list long form claiming 1000 i32 in 10 bytes */
    uint8_t l1[12] = {0xf5, 0xe8, 0x07};
    pqt_thrift_reader r = rd(l1, sizeof l1);
    uint8_t et;
    uint32_t cnt;
    CHECK_EQ_I64(pqt_thrift_read_list_header(&r, &et, &cnt), PQT_CORRUPT);
    /* short form 14 elements, 3 bytes left */
    uint8_t l2[] = {0xe5, 1, 2, 3};
    r = rd(l2, sizeof l2);
    CHECK_EQ_I64(pqt_thrift_read_list_header(&r, &et, &cnt), PQT_CORRUPT);
    /* two doubles need 16 bytes, not 10 */
    uint8_t l3[11] = {0x27};
    r = rd(l3, sizeof l3);
    CHECK_EQ_I64(pqt_thrift_read_list_header(&r, &et, &cnt), PQT_CORRUPT);
    /* a set in long form with a count that just fits, and a list of bools */
    uint8_t l4[20] = {0xf3, 16};
    r = rd(l4, 18);
    CHECK_OK(pqt_thrift_read_list_header(&r, &et, &cnt));
    CHECK_EQ_I64(cnt, 16);
    CHECK_EQ_I64(et, PQT_TT_I8);
    uint8_t l5[] = {0x31, 1, 2, 0, 0x11, 7};
    r = rd(l5, sizeof l5);
    bool bv[3];
    CHECK_OK(pqt_thrift_read_list_header(&r, &et, &cnt));
    for (int i = 0; i < 3; i++)
        CHECK_OK(pqt_thrift_read_bool_elem(&r, &bv[i]));
    CHECK(bv[0] && !bv[1] && !bv[2]);
    CHECK_OK(pqt_thrift_read_list_header(&r, &et, &cnt));
    CHECK_EQ_I64(pqt_thrift_read_bool_elem(&r, &bv[0]), PQT_CORRUPT);
    /* a map claiming more entries than bytes */
    uint8_t m1[] = {0x0a, 0x58, 1, 2, 3};
    uint8_t kt, vt;
    r = rd(m1, sizeof m1);
    CHECK_EQ_I64(pqt_thrift_read_map_header(&r, &kt, &vt, &cnt), PQT_CORRUPT);
    /* strings: exact fit, one past the end, huge */
    uint8_t s1[] = {0x03, 'a', 'b', 'c'};
    const uint8_t *data;
    uint32_t len;
    r = rd(s1, sizeof s1);
    CHECK_OK(pqt_thrift_read_binary(&r, &data, &len));
    CHECK_EQ_I64(len, 3);
    r = rd(s1, 3);
    CHECK_EQ_I64(pqt_thrift_read_binary(&r, &data, &len), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "at byte 1000") != NULL);
    uint8_t s2[] = {0xff, 0xff, 0xff, 0xff, 0x7f, 'x'};
    r = rd(s2, sizeof s2);
    CHECK_EQ_I64(pqt_thrift_read_binary(&r, &data, &len), PQT_CORRUPT);
    double d;
    uint8_t d1[] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f};
    r = rd(d1, sizeof d1);
    CHECK_OK(pqt_thrift_read_double(&r, &d));
    CHECK(d == 1.0);
    r = rd(d1, 7);
    CHECK_EQ_I64(pqt_thrift_read_double(&r, &d), PQT_CORRUPT);
}

/* Unknown fields of every wire type, interleaved with the known fields of a PageHeader. */
static size_t build_page_header(w *o, bool with_unknowns)
{
    o->n = 0;
    o->depth = 0;
    wbegin(o);
    wi32(o, 1, PQT_PAGE_DATA_V2);
    if (with_unknowns) {
        wbool(o, 20, 1);
        wbool(o, 21, 0);
        wfield(o, 22, PQT_TT_I8);
        wb(o, 0x80);
        wfield(o, 23, PQT_TT_I16);
        wzz(o, -1234);
        wi32(o, 24, 77);
        wi(o, 25, INT64_MIN);
        wfield(o, 26, PQT_TT_DOUBLE);
        for (int i = 0; i < 8; i++)
            wb(o, 0xaa);
        wstr(o, 27, "unknown string");
        wlist(o, 28, PQT_TT_I32, 20); /* long-form list */
        for (int i = 0; i < 20; i++)
            wzz(o, i * 1000);
        wfield(o, 29, PQT_TT_SET);
        wlist(o, 0, PQT_TT_BINARY, 2);
        wbin(o, "a");
        wbin(o, "bc");
        wfield(o, 30, PQT_TT_MAP);
        wuvar(o, 2);
        wb(o, PQT_TT_I32 << 4 | PQT_TT_BINARY);
        wzz(o, 1);
        wbin(o, "x");
        wzz(o, 2);
        wbin(o, "yz");
        wfield(o, 31, PQT_TT_MAP); /* empty map: no type byte */
        wuvar(o, 0);
        wsfield(o, 32); /* nested struct with its own unknowns */
        wi32(o, 1, 5);
        wsfield(o, 2);
        wstr(o, 1, "deep");
        wend(o);
        wend(o);
        wfield(o, 33, PQT_TT_UUID);
        for (int i = 0; i < 16; i++)
            wb(o, (uint8_t)i);
        wlist(o, 34, PQT_TT_TRUE, 3); /* list<bool>: one byte each */
        wb(o, 1);
        wb(o, 2);
        wb(o, 1);
        wlist(o, 35, PQT_TT_LIST, 2); /* list<list<i64>> */
        wlist(o, 0, PQT_TT_I64, 1);
        wzz(o, 5);
        wlist(o, 0, PQT_TT_I64, 0);
        wlist(o, 36, PQT_TT_DOUBLE, 1);
        for (int i = 0; i < 8; i++)
            wb(o, 0);
    }
    wi32(o, 2, 4096);
    wi32(o, 3, 1000);
    wi32(o, 4, -1); /* crc: all bits set */
    wsfield(o, 8);
    wi32(o, 1, 100);
    wi32(o, 2, 10);
    wi32(o, 3, 90);
    wi32(o, 4, PQT_ENC_RLE_DICTIONARY);
    wi32(o, 5, 12);
    wi32(o, 6, 0);
    if (with_unknowns) wstr(o, 99, "future");
    wend(o); /* is_compressed absent: defaults to true */
    wend(o);
    return o->n;
}

static uint8_t *copy_exact(const uint8_t *b, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (n) memcpy(p, b, n);
    return p;
}

static void test_page_header(void)
{
    for (int unk = 0; unk < 2; unk++) {
        w o;
        size_t n = build_page_header(&o, unk);
        o.b[n] = 0xee; /* trailing bytes (the page data) are not part of the header */
        pqt_page_header h;
        size_t hn = 0;
        CHECK_OK(pqt_meta_decode_page_header(o.b, n + 1, 0, &h, &hn));
        CHECK_EQ_I64(hn, n);
        CHECK_EQ_I64(h.type, PQT_PAGE_DATA_V2);
        CHECK_EQ_I64(h.uncompressed_size, 4096);
        CHECK_EQ_I64(h.compressed_size, 1000);
        CHECK(h.has_crc && h.crc == 0xffffffffu);
        CHECK(h.has_data_v2_header && !h.has_data_header && !h.has_dict_header);
        CHECK_EQ_I64(h.num_values, 100);
        CHECK_EQ_I64(h.num_nulls, 10);
        CHECK_EQ_I64(h.num_rows, 90);
        CHECK_EQ_I64(h.encoding, PQT_ENC_RLE_DICTIONARY);
        CHECK_EQ_I64(h.def_levels_nbytes, 12);
        CHECK(h.is_compressed);
        /* every proper prefix is corrupt */
        for (size_t k = 0; k < n; k++) {
            uint8_t *p = copy_exact(o.b, k);
            CHECK_EQ_I64(pqt_meta_decode_page_header(p, k, 0, &h, &hn), PQT_CORRUPT);
            free(p);
        }
    }
    /* is_compressed=false; a v1 header; a dictionary header; a missing sub-header */
    w o = {0};
    wbegin(&o);
    wi32(&o, 1, PQT_PAGE_DICTIONARY);
    wi32(&o, 2, 10);
    wi32(&o, 3, 10);
    wsfield(&o, 7);
    wi32(&o, 1, 3);
    wi32(&o, 2, PQT_ENC_PLAIN);
    wbool(&o, 3, 1);
    wend(&o);
    wend(&o);
    pqt_page_header h;
    size_t hn;
    CHECK_OK(pqt_meta_decode_page_header(o.b, o.n, 0, &h, &hn));
    CHECK(h.has_dict_header && h.is_sorted && h.num_values == 3 && h.encoding == PQT_ENC_PLAIN);
    o = (w){0};
    wbegin(&o);
    wi32(&o, 1, PQT_PAGE_DATA);
    wi32(&o, 2, 10);
    wi32(&o, 3, 10);
    wend(&o);
    CHECK_EQ_I64(pqt_meta_decode_page_header(o.b, o.n, 500, &h, &hn), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "data_page_header") != NULL);
    CHECK(strstr(pqt_errmsg(), "at byte 500") != NULL);
    o = (w){0};
    wbegin(&o);
    wi32(&o, 1, PQT_PAGE_DATA_V2);
    wi32(&o, 2, 10);
    wi32(&o, 3, -10); /* negative size */
    wend(&o);
    CHECK_EQ_I64(pqt_meta_decode_page_header(o.b, o.n, 0, &h, &hn), PQT_CORRUPT);
    o = (w){0};
    wbegin(&o);
    wi32(&o, 1, PQT_PAGE_DATA_V2);
    wi32(&o, 2, 10);
    wi32(&o, 3, 10);
    wsfield(&o, 8);
    for (int id = 1; id <= 6; id++)
        wi32(&o, id, 1);
    wbool(&o, 7, 0);
    wend(&o);
    wend(&o);
    CHECK_OK(pqt_meta_decode_page_header(o.b, o.n, 0, &h, &hn));
    CHECK(!h.is_compressed);
}

/* A FileMetaData exercising most fields, with field values checked after decoding. */
static size_t build_file_meta(w *o, bool encrypted_chunk, bool enc_algo)
{
    o->n = 0;
    o->depth = 0;
    wbegin(o);
    wi32(o, 1, 2);
    wlist(o, 2, PQT_TT_STRUCT, 5);
    wbegin(o); /* root */
    wstr(o, 4, "schema");
    wi32(o, 5, 4);
    wend(o);
    wbegin(o); /* ts: INT64 TIMESTAMP(NANOS, utc) */
    wi32(o, 1, PQT_PT_INT64);
    wi32(o, 3, PQT_REP_OPTIONAL);
    wstr(o, 4, "ts");
    wsfield(o, 10);
    wsfield(o, 8);
    wbool(o, 1, 1);
    wsfield(o, 2);
    wsfield(o, 3);
    wend(o);
    wend(o);
    wend(o);
    wend(o);
    wend(o);
    wbegin(o); /* d: FLBA(8) DECIMAL(18,4) */
    wi32(o, 1, PQT_PT_FIXED_LEN_BYTE_ARRAY);
    wi32(o, 2, 8);
    wi32(o, 3, PQT_REP_REQUIRED);
    wstr(o, 4, "d");
    wi32(o, 6, PQT_CT_DECIMAL);
    wi32(o, 7, 4);
    wi32(o, 8, 18);
    wi32(o, 9, 42);
    wsfield(o, 10);
    wsfield(o, 5);
    wi32(o, 1, 4);
    wi32(o, 2, 18);
    wend(o);
    wend(o);
    wend(o);
    wbegin(o); /* u: INT32 INTEGER(16, unsigned) */
    wi32(o, 1, PQT_PT_INT32);
    wstr(o, 4, "u");
    wsfield(o, 10);
    wsfield(o, 10);
    wfield(o, 1, PQT_TT_I8);
    wb(o, 16);
    wbool(o, 2, 0);
    wend(o);
    wend(o);
    wend(o);
    wbegin(o); /* x: a logical type from the future */
    wi32(o, 1, PQT_PT_BYTE_ARRAY);
    wstr(o, 4, "x");
    wsfield(o, 10);
    wsfield(o, 25);
    wstr(o, 1, "?");
    wend(o);
    wend(o);
    wend(o);
    wi(o, 3, 1234567890123);
    wlist(o, 4, PQT_TT_STRUCT, 1);
    wbegin(o); /* row group */
    wlist(o, 1, PQT_TT_STRUCT, 1);
    wbegin(o); /* column chunk */
    wi(o, 2, 4);
    wsfield(o, 3);
    wi32(o, 1, PQT_PT_INT64);
    wlist(o, 2, PQT_TT_I32, 2);
    wzz(o, PQT_ENC_PLAIN);
    wzz(o, PQT_ENC_RLE);
    wlist(o, 3, PQT_TT_BINARY, 1);
    wbin(o, "ts");
    wi32(o, 4, PQT_CODEC_ZSTD);
    wi(o, 5, 1000);
    wi(o, 6, 8000);
    wi(o, 7, 900);
    wlist(o, 8, PQT_TT_STRUCT, 1);
    wbegin(o);
    wstr(o, 1, "k");
    wend(o);
    wi(o, 9, 4);
    wi(o, 11, 4);
    wsfield(o, 12);
    wstr(o, 5, "\x09\x08");
    wstr(o, 6, "");
    wi(o, 3, 7);
    wbool(o, 7, 1);
    wbool(o, 8, 0);
    wi(o, 9, 3);
    wend(o);
    wlist(o, 13, PQT_TT_STRUCT, 1);
    wbegin(o);
    wi32(o, 1, PQT_PAGE_DATA);
    wi32(o, 2, PQT_ENC_PLAIN);
    wi32(o, 3, 2);
    wend(o);
    wi(o, 14, 5000);
    wi32(o, 15, 64);
    wsfield(o, 16); /* SizeStatistics: unknown to the reader, skipped */
    wi(o, 1, 3);
    wend(o);
    wend(o);
    wi(o, 4, 6000);
    wi32(o, 5, 30);
    wi(o, 6, 6030);
    wi32(o, 7, 40);
    if (encrypted_chunk) {
        wsfield(o, 8);
        wsfield(o, 1);
        wend(o);
        wend(o);
    }
    wend(o);
    wi(o, 2, 8000);
    wi(o, 3, 1234567890123);
    wlist(o, 4, PQT_TT_STRUCT, 1);
    wbegin(o);
    wi32(o, 1, 0);
    wbool(o, 2, 1);
    wbool(o, 3, 0);
    wend(o);
    wfield(o, 7, PQT_TT_I16);
    wzz(o, 3);
    wend(o);
    wlist(o, 5, PQT_TT_STRUCT, 2);
    wbegin(o);
    wstr(o, 1, "pandas");
    wstr(o, 2, "{}");
    wend(o);
    wbegin(o);
    wstr(o, 1, "novalue");
    wend(o);
    wstr(o, 6, "pqt test");
    wlist(o, 7, PQT_TT_STRUCT, 2);
    wbegin(o);
    wsfield(o, 1);
    wend(o);
    wend(o);
    wbegin(o);
    wsfield(o, 9);
    wend(o);
    wend(o);
    if (enc_algo) {
        wsfield(o, 8);
        wsfield(o, 1);
        wend(o);
        wend(o);
    }
    wend(o);
    return o->n;
}

static void check_file_meta(const pqt_file_meta *m)
{
    CHECK_EQ_I64(m->version, 2);
    CHECK_EQ_I64(m->num_rows, 1234567890123);
    CHECK_EQ_I64(m->nschema, 5);
    if (m->nschema != 5) return;
    CHECK(strcmp(m->schema[0].name, "schema") == 0);
    CHECK_EQ_I64(m->schema[0].type, -1);
    CHECK_EQ_I64(m->schema[0].repetition, -1);
    CHECK_EQ_I64(m->schema[0].num_children, 4);
    CHECK_EQ_I64(m->schema[0].logical.id, PQT_LT_NONE);
    const pqt_logical_type *lt = &m->schema[1].logical;
    CHECK_EQ_I64(lt->id, PQT_LT_TIMESTAMP);
    CHECK_EQ_I64(lt->unit, PQT_UNIT_NANOS);
    CHECK(lt->utc);
    CHECK_EQ_I64(m->schema[1].converted_type, -1);
    CHECK_EQ_I64(m->schema[2].type_length, 8);
    CHECK(m->schema[2].has_scale && m->schema[2].scale == 4);
    CHECK(m->schema[2].has_precision && m->schema[2].precision == 18);
    CHECK(m->schema[2].has_field_id && m->schema[2].field_id == 42);
    CHECK_EQ_I64(m->schema[2].logical.id, PQT_LT_DECIMAL);
    CHECK_EQ_I64(m->schema[2].logical.scale, 4);
    CHECK_EQ_I64(m->schema[2].logical.precision, 18);
    CHECK_EQ_I64(m->schema[3].logical.id, PQT_LT_INTEGER);
    CHECK_EQ_I64(m->schema[3].logical.bit_width, 16);
    CHECK(!m->schema[3].logical.is_signed);
    CHECK_EQ_I64(m->schema[4].logical.id, 25);
    CHECK_EQ_I64(m->n_row_groups, 1);
    const pqt_row_group *g = &m->row_groups[0];
    CHECK_EQ_I64(g->ncolumns, 1);
    CHECK_EQ_I64(g->num_rows, 1234567890123);
    CHECK(g->has_ordinal && g->ordinal == 3);
    CHECK(g->n_sorting == 1 && g->sorting[0].descending && !g->sorting[0].nulls_first);
    const pqt_column_chunk *c = &g->columns[0];
    CHECK(c->has_meta && c->has_offset_index && c->has_column_index);
    CHECK_EQ_I64(c->offset_index_offset, 6000);
    CHECK_EQ_I64(c->column_index_length, 40);
    const pqt_column_meta *cm = &c->meta;
    CHECK_EQ_I64(cm->n_encodings, 2);
    CHECK_EQ_I64(cm->encodings[1], PQT_ENC_RLE);
    CHECK(cm->path_len == 1);
    CHECK_EQ_I64(cm->codec, PQT_CODEC_ZSTD);
    CHECK(cm->nkv == 1 && strcmp(cm->kv[0].key, "k") == 0 && cm->kv[0].value == NULL);
    CHECK(cm->has_dictionary_page_offset && !cm->has_index_page_offset);
    CHECK(cm->has_stats && cm->stats.has_max_value && cm->stats.max_value_len == 2);
    CHECK(cm->stats.max_value[0] == 9 && cm->stats.max_value[2] == 0);
    CHECK(cm->stats.has_min_value && cm->stats.min_value_len == 0);
    CHECK(cm->stats.has_null_count && cm->stats.null_count == 7);
    CHECK(cm->stats.has_is_max_value_exact && cm->stats.is_max_value_exact);
    CHECK(cm->stats.has_is_min_value_exact && !cm->stats.is_min_value_exact);
    CHECK(cm->stats.has_nan_count && cm->stats.nan_count == 3);
    CHECK(!cm->stats.has_max && !cm->stats.has_distinct_count);
    CHECK(cm->n_encoding_stats == 1 && cm->encoding_stats[0].count == 2);
    CHECK(cm->has_bloom_filter_offset && cm->bloom_filter_length == 64);
    CHECK_EQ_I64(m->nkv, 2);
    CHECK(strcmp(m->kv[0].value, "{}") == 0 && m->kv[0].value_len == 2);
    CHECK(strcmp(m->created_by, "pqt test") == 0);
    CHECK(m->n_column_orders == 2 && m->column_orders[0] == 1 && m->column_orders[1] == 9);
}

static void test_file_meta(void)
{
    w o;
    size_t n = build_file_meta(&o, false, false);
    pqt_arena a = {0};
    pqt_file_meta m;
    CHECK_OK(pqt_meta_decode_file(o.b, n, 0, &a, &m));
    check_file_meta(&m);
    CHECK(!m.has_encryption_algorithm && !m.row_groups[0].columns[0].encrypted);
    pqt_arena_free(&a);
    for (size_t k = 0; k < n; k++) {
        uint8_t *p = copy_exact(o.b, k);
        CHECK_EQ_I64(pqt_meta_decode_file(p, k, 100, &a, &m), PQT_CORRUPT);
        CHECK(strstr(pqt_errmsg(), "corrupt footer at byte") != NULL);
        free(p);
        pqt_arena_free(&a);
    }
    n = build_file_meta(&o, true, true);
    CHECK_OK(pqt_meta_decode_file(o.b, n, 0, &a, &m));
    CHECK(m.has_encryption_algorithm && m.row_groups[0].columns[0].encrypted);
    pqt_arena_free(&a);

    /* random byte corruption: any status, never a crash (ASan/UBSan runs check the rest) */
    uint64_t seed = 42;
    n = build_file_meta(&o, false, false);
    for (int it = 0; it < 3000; it++) {
        uint8_t *p = copy_exact(o.b, n);
        int nflip = 1 + (int)(pqt_test_rand(&seed) % 4);
        for (int k = 0; k < nflip; k++)
            p[pqt_test_rand(&seed) % n] = (uint8_t)pqt_test_rand(&seed);
        (void)pqt_meta_decode_file(p, n, 0, &a, &m);
        free(p);
        pqt_arena_free(&a);
    }

    /* missing required field, and a known field with the wrong wire type */
    o = (w){0};
    wbegin(&o);
    wlist(&o, 2, PQT_TT_STRUCT, 0);
    wi(&o, 3, 0);
    wlist(&o, 4, PQT_TT_STRUCT, 0);
    wend(&o);
    CHECK_EQ_I64(pqt_meta_decode_file(o.b, o.n, 0, &a, &m), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "FileMetaData") && strstr(pqt_errmsg(), "version"));
    o = (w){0};
    wbegin(&o);
    wstr(&o, 1, "2");
    wend(&o);
    CHECK_EQ_I64(pqt_meta_decode_file(o.b, o.n, 0, &a, &m), PQT_CORRUPT);
    /* a known id with another wire type is skipped like an unknown field: required -> missing */
    CHECK(strstr(pqt_errmsg(), "FileMetaData is missing required field version") != NULL);
    pqt_arena_free(&a);
}

/* An empty list's element-type nibble is whatever its writer left (often 0, which names no
 * type): a list of size 0 is accepted whatever the nibble, a list holding elements is not. */
static void test_empty_list_any_type(void)
{
    uint8_t et = 99;
    uint32_t cnt = 99;
    uint8_t e0[] = {0x00};
    pqt_thrift_reader r = rd(e0, sizeof e0);
    CHECK_OK(pqt_thrift_read_list_header(&r, &et, &cnt));
    CHECK_EQ_I64(cnt, 0);
    CHECK_EQ_I64(pqt_thrift_remaining(&r), 0);
    uint8_t e1[] = {0xf0, 0x00}; /* long form, size 0, type 0 */
    r = rd(e1, sizeof e1);
    CHECK_OK(pqt_thrift_read_list_header(&r, &et, &cnt));
    CHECK_EQ_I64(cnt, 0);
    uint8_t e2[] = {0x0e}; /* size 0, type 14 (past uuid) */
    r = rd(e2, sizeof e2);
    CHECK_OK(pqt_thrift_read_list_header(&r, &et, &cnt));
    CHECK_EQ_I64(cnt, 0);
    uint8_t b0[] = {0x10, 0x05}; /* one element of type 0 */
    r = rd(b0, sizeof b0);
    CHECK_EQ_I64(pqt_thrift_read_list_header(&r, &et, &cnt), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "invalid element type 0") != NULL);
    uint8_t b1[] = {0xf0, 0x01, 0x05}; /* long form, one element of type 0 */
    r = rd(b1, sizeof b1);
    CHECK_EQ_I64(pqt_thrift_read_list_header(&r, &et, &cnt), PQT_CORRUPT);
    CHECK(strstr(pqt_errmsg(), "invalid element type 0") != NULL);
    uint8_t b2[] = {0x1e, 0x05}; /* one element of type 14 */
    r = rd(b2, sizeof b2);
    CHECK_EQ_I64(pqt_thrift_read_list_header(&r, &et, &cnt), PQT_CORRUPT);

    /* a footer whose row_groups, key_value_metadata and an unknown field are empty lists of
     * element type 0 decodes; the same key_value_metadata holding one element does not */
    for (int bad = 0; bad < 2; bad++) {
        w o = {0};
        wbegin(&o);
        wi32(&o, 1, 2);
        wlist(&o, 2, PQT_TT_STRUCT, 1);
        wbegin(&o);
        wstr(&o, 4, "schema");
        wi32(&o, 5, 0);
        wend(&o);
        wi(&o, 3, 0);
        wlist(&o, 4, 0, 0);
        wlist(&o, 5, 0, bad);
        if (bad) wb(&o, 0x00);
        wlist(&o, 40, 0, 0);
        wend(&o);
        pqt_arena a = {0};
        pqt_file_meta m;
        if (!bad) {
            CHECK_OK(pqt_meta_decode_file(o.b, o.n, 0, &a, &m));
            CHECK_EQ_I64(m.n_row_groups, 0);
            CHECK_EQ_I64(m.num_rows, 0);
            CHECK_EQ_I64(m.nschema, 1);
        } else {
            CHECK_EQ_I64(pqt_meta_decode_file(o.b, o.n, 0, &a, &m), PQT_CORRUPT);
            CHECK(strstr(pqt_errmsg(), "corrupt footer at byte") != NULL);
        }
        pqt_arena_free(&a);
    }
}

static void test_page_index_and_bloom(void)
{
    w o = {0};
    wbegin(&o);
    wlist(&o, 1, PQT_TT_TRUE, 3);
    wb(&o, 2);
    wb(&o, 1);
    wb(&o, 2);
    wlist(&o, 2, PQT_TT_BINARY, 3);
    wbin(&o, "a");
    wbin(&o, "");
    wbin(&o, "c");
    wlist(&o, 3, PQT_TT_BINARY, 3);
    wbin(&o, "b");
    wbin(&o, "");
    wbin(&o, "dd");
    wi32(&o, 4, PQT_ORDER_ASCENDING);
    wlist(&o, 5, PQT_TT_I64, 3);
    wzz(&o, 0);
    wzz(&o, 5);
    wzz(&o, 1);
    wlist(&o, 8, PQT_TT_I64, 3); /* nan_counts */
    wzz(&o, 0);
    wzz(&o, 0);
    wzz(&o, 2);
    wend(&o);
    pqt_arena a = {0};
    pqt_column_index ci;
    CHECK_OK(pqt_meta_decode_column_index(o.b, o.n, 0, &a, &ci));
    CHECK_EQ_I64(ci.npages, 3);
    CHECK(!ci.null_pages[0] && ci.null_pages[1] && !ci.null_pages[2]);
    CHECK(ci.max_lens[2] == 2 && memcmp(ci.max_values[2], "dd", 3) == 0);
    CHECK(ci.null_counts && ci.null_counts[1] == 5);
    CHECK(ci.nan_counts && ci.nan_counts[2] == 2);
    CHECK_EQ_I64(ci.boundary_order, PQT_ORDER_ASCENDING);
    for (size_t k = 0; k < o.n; k++) {
        uint8_t *p = copy_exact(o.b, k);
        CHECK_EQ_I64(pqt_meta_decode_column_index(p, k, 0, &a, &ci), PQT_CORRUPT);
        free(p);
    }
    o.b[1] = 0x29; /* null_pages claims 2 pages: lists disagree */
    CHECK_EQ_I64(pqt_meta_decode_column_index(o.b, o.n, 0, &a, &ci), PQT_CORRUPT);

    o = (w){0};
    wbegin(&o);
    wlist(&o, 1, PQT_TT_STRUCT, 2);
    for (int i = 0; i < 2; i++) {
        wbegin(&o);
        wi(&o, 1, 4 + 100 * i);
        wi32(&o, 2, 100);
        wi(&o, 3, 50 * i);
        wend(&o);
    }
    wend(&o);
    pqt_offset_index oi;
    CHECK_OK(pqt_meta_decode_offset_index(o.b, o.n, 0, &a, &oi));
    CHECK(oi.npages == 2 && oi.pages[1].offset == 104 && oi.pages[1].first_row_index == 50);
    for (size_t k = 0; k < o.n; k++) {
        uint8_t *p = copy_exact(o.b, k);
        CHECK_EQ_I64(pqt_meta_decode_offset_index(p, k, 0, &a, &oi), PQT_CORRUPT);
        free(p);
    }

    o = (w){0};
    wbegin(&o);
    wi32(&o, 1, 1024);
    for (int id = 2; id <= 4; id++) {
        wsfield(&o, id);
        wsfield(&o, 1);
        wend(&o);
        wend(&o);
    }
    wend(&o);
    pqt_bloom_header bh;
    size_t hn;
    CHECK_OK(pqt_meta_decode_bloom_header(o.b, o.n, 0, &bh, &hn));
    CHECK(hn == o.n && bh.num_bytes == 1024 && bh.algorithm_id == 1 && bh.hash_id == 1 &&
          bh.compression_id == 1);
    for (size_t k = 0; k < o.n; k++) {
        uint8_t *p = copy_exact(o.b, k);
        CHECK_EQ_I64(pqt_meta_decode_bloom_header(p, k, 0, &bh, &hn), PQT_CORRUPT);
        free(p);
    }
    pqt_arena_free(&a);
}

int main(void)
{
    test_varints();
    test_zigzag();
    test_field_headers();
    test_depth();
    test_lengths();
    test_page_header();
    test_file_meta();
    test_empty_list_any_type();
    test_page_index_and_bloom();
    return pqt_test_done("test_thrift");
}
