/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_le.c - util/le.h against hand-computed bytes: loads at odd offsets (fixed widths and
 * 0 to 8 bytes), stores read back byte by byte, and ULEB128 varints (0, 127, 128, 300, 2^63, 2^64-1) against their encodings.
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

int main(void)
{
    loads_and_stores();
    varints();
    return pqt_test_done("test_le");
}
