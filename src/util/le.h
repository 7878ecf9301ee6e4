/* SPDX-License-Identifier: Apache-2.0 */
/*
 * le.h - little-endian loads and stores at any alignment (layer: util). Parquet stores every
 * fixed-width number little-endian; memcpy compiles to one move on little-endian hosts and is
 * defined behaviour at any alignment, unlike a cast; a big-endian host swaps.
 */
#ifndef PQT_UTIL_LE_H
#define PQT_UTIL_LE_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PQT_LE16(v) __builtin_bswap16(v)
#define PQT_LE32(v) __builtin_bswap32(v)
#define PQT_LE64(v) __builtin_bswap64(v)
#else
#define PQT_LE16(v) (v)
#define PQT_LE32(v) (v)
#define PQT_LE64(v) (v)
#endif

static inline uint16_t pqt_load_le16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return PQT_LE16(v);
}
static inline uint32_t pqt_load_le32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return PQT_LE32(v);
}
static inline uint64_t pqt_load_le64(const void *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return PQT_LE64(v);
}
/* An unsigned little-endian number of n <= 8 bytes (Variant's and statistics' short ints). */
static inline uint64_t pqt_load_le_n(const void *p, unsigned n)
{
    const uint8_t *b = (const uint8_t *)p;
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)b[i] << (8 * i);
    return v;
}
static inline void pqt_store_le32(void *p, uint32_t v)
{
    v = PQT_LE32(v);
    memcpy(p, &v, sizeof v);
}
static inline void pqt_store_le64(void *p, uint64_t v)
{
    v = PQT_LE64(v);
    memcpy(p, &v, sizeof v);
}

/* ULEB128, as Parquet's RLE run headers and Thrift's compact protocol write it: p needs room
 * for 10 bytes; returns the byte after the last one written. */
static inline uint8_t *pqt_put_uvarint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* Reading a ULEB128 of at most 64 bits from [*pp, end): PQT_UVARINT_OK with *v set and *pp
 * past it, or why not (the input ends inside it; an 11th byte; a 10th byte above bit 63). */
enum { PQT_UVARINT_OK, PQT_UVARINT_TRUNCATED, PQT_UVARINT_TOO_LONG, PQT_UVARINT_OVERFLOW };
static inline int pqt_get_uvarint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
    const uint8_t *p = *pp;
    uint64_t x = 0;
    for (int i = 0; i < 10; i++) {
        if (p >= end) return PQT_UVARINT_TRUNCATED;
        uint8_t b = *p++;
        if (i == 9 && b > 1) return (b & 0x80) ? PQT_UVARINT_TOO_LONG : PQT_UVARINT_OVERFLOW;
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = x;
            *pp = p;
            return PQT_UVARINT_OK;
        }
    }
    return PQT_UVARINT_TOO_LONG; /* not reached: the 10th byte returns */
}

/* Zigzag, as Thrift's compact protocol and DELTA_BINARY_PACKED map signed to unsigned. */
static inline uint64_t pqt_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t pqt_unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

#endif
