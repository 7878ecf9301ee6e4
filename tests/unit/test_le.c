/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_le.c - util/le.h against hand-computed bytes: loads at odd offsets (fixed widths and
 * 0 to 8 bytes), stores read back byte by byte, ULEB128 varints (0, 127, 128, 300, 2^63,
 * 2^64-1) against their encodings and read back (with the three failures), and zigzag.
 */
#include <string.h>

#include "testutil.h"
#include "util/le.h"

static void loads_and_stores(void)
{
    const uint8_t b[9] = {0xff, 1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(pqt_load_le16(b + 1) == 0x0201);
    CHECK(pqt_load_le32(b + 1) == 0x04030201u);
    CHECK(pqt_load_le64(b + 1) == 0x0807060504030201ull);
    uint8_t o[9] = {0};
    pqt_store_le32(o + 1, 0xa1b2c3d4u);
    CHECK(o[1] == 0xd4 && o[2] == 0xc3 && o[3] == 0xb2 && o[4] == 0xa1 && o[0] == 0);
    pqt_store_le64(o + 1, 0x0102030405060708ull);
    CHECK(o[1] == 8 && o[8] == 1);
    /* short numbers of 0..8 bytes: the bytes past n are not read */
    CHECK(pqt_load_le_n(b + 1, 0) == 0);
    CHECK(pqt_load_le_n(b + 1, 1) == 0x01);
    CHECK(pqt_load_le_n(b + 1, 3) == 0x030201u);
    CHECK(pqt_load_le_n(b, 5) == 0x04030201ffull);
    CHECK(pqt_load_le_n(b + 1, 8) == 0x0807060504030201ull);
}

static void varints(void)
{
    static const struct {
        uint64_t v;
        int n;
        uint8_t bytes[10];
    } cases[] = {
        {0, 1, {0}},
        {127, 1, {0x7f}},
        {128, 2, {0x80, 0x01}},
        {300, 2, {0xac, 0x02}},
        {1ull << 63, 10, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
        {UINT64_MAX, 10, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t out[12];
        memset(out, 0xee, sizeof out);
        uint8_t *end = pqt_put_uvarint(out, cases[i].v);
        CHECK(end - out == cases[i].n);
        CHECK(memcmp(out, cases[i].bytes, (size_t)cases[i].n) == 0);
        CHECK(out[cases[i].n] == 0xee);
    }
}

/* Reading ULEB128 back: values, where the pointer stops, and the three ways to fail (the
 * pointer then stays put); zigzag both ways at the ends of the range. */
static void varint_reads(void)
{
    static const struct {
        int n, want;
        uint64_t v;
        uint8_t bytes[11];
    } cases[] = {
        {1, PQT_UVARINT_OK, 0, {0x00}},
        {2, PQT_UVARINT_OK, 150, {0x96, 0x01}},
        {3, PQT_UVARINT_OK, 300, {0xac, 0x02, 0x7f}}, /* stops after 2 bytes */
        {10,
         PQT_UVARINT_OK,
         UINT64_MAX,
         {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
        {1, PQT_UVARINT_TRUNCATED, 0, {0x80}},
        {0, PQT_UVARINT_TRUNCATED, 0, {0}},
        {10, PQT_UVARINT_OVERFLOW, 0, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}},
        {11,
         PQT_UVARINT_TOO_LONG,
         0,
         {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00}},
    };
    static const int used[] = {1, 2, 2, 10, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint8_t *p = cases[i].bytes;
        uint64_t v = 12345;
        int got = pqt_get_uvarint(&p, cases[i].bytes + cases[i].n, &v);
        CHECK(got == cases[i].want);
        CHECK(p - cases[i].bytes == used[i]);
        CHECK(v == (got == PQT_UVARINT_OK ? cases[i].v : 12345));
    }
    CHECK(pqt_zigzag(0) == 0 && pqt_zigzag(-1) == 1 && pqt_zigzag(1) == 2 && pqt_zigzag(-2) == 3);
    CHECK(pqt_zigzag(INT64_MAX) == UINT64_MAX - 1 && pqt_zigzag(INT64_MIN) == UINT64_MAX);
    CHECK(pqt_unzigzag(3) == -2 && pqt_unzigzag(4) == 2);
    CHECK(pqt_unzigzag(UINT64_MAX) == INT64_MIN && pqt_unzigzag(UINT64_MAX - 1) == INT64_MAX);
}

int main(void)
{
    loads_and_stores();
    varints();
    varint_reads();
    return pqt_test_done("test_le");
}
