/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_thrift_varint.c - the Thrift reader's varints against hand-computed bytes: values and
 * zigzag i64/i32 as the compact protocol writes them, and the three corrupt cases (input
 * ends inside, an 11th byte, a 10th byte above bit 63) with their messages, the byte offset
 * of the varint's start, and the reader left where it was.
 */
#include <string.h>

#include "format/thrift.h"
#include "testutil.h"

static pqt_status read_u(const uint8_t *b, size_t n, uint64_t *v, size_t *used)
{
    pqt_thrift_reader r;
    pqt_thrift_init(&r, b, n, 1000, "test struct");
    pqt_status st = pqt_thrift_read_uvarint(&r, v);
    *used = (size_t)(r.p - b);
    return st;
}

static void values(void)
{
    const uint8_t b150[] = {0x96, 0x01, 0x55};
    const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    uint64_t v = 0;
    size_t used = 0;
    CHECK_OK(read_u(b150, sizeof b150, &v, &used));
    CHECK(v == 150 && used == 2);
    CHECK_OK(read_u(max, sizeof max, &v, &used));
    CHECK(v == UINT64_MAX && used == 10);

    const uint8_t zz[] = {0x03, 0xfe, 0xff, 0xff, 0xff, 0x0f}; /* -2, then INT32_MAX */
    pqt_thrift_reader r;
    pqt_thrift_init(&r, zz, sizeof zz, 0, "test struct");
    int64_t i64 = 0;
    int32_t i32 = 0;
    CHECK_OK(pqt_thrift_read_i64(&r, &i64));
    CHECK_OK(pqt_thrift_read_i32(&r, &i32));
    CHECK(i64 == -2 && i32 == INT32_MAX);
}

static void corrupt(const uint8_t *b, size_t n, const char *want)
{
    uint64_t v = 7;
    size_t used = 99;
    CHECK(read_u(b, n, &v, &used) == PQT_CORRUPT);
    CHECK(used == 0 && v == 7);
    const char *m = pqt_errmsg();
    CHECK(strstr(m, "corrupt test struct at byte 1000: ") != NULL);
    CHECK(strstr(m, want) != NULL);
    if (!strstr(m, want)) fprintf(stderr, "message: %s\n", m);
}

int main(void)
{
    values();
    const uint8_t trunc[] = {0x80, 0x80};
    const uint8_t over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    const uint8_t longer[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    corrupt(trunc, sizeof trunc, "varint runs past the end (2 bytes left)");
    corrupt(over, sizeof over, "varint overflows 64 bits");
    corrupt(longer, sizeof longer, "varint longer than 10 bytes");
    return pqt_test_done("test_thrift_varint");
}
