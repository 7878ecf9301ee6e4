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

#endif
