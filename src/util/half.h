/* SPDX-License-Identifier: Apache-2.0 */
/*
 * half.h - IEEE 754 binary16 (Parquet's FLOAT16 logical type) to float (layer: util).
 * Every half value is exactly a float: subnormals scale the mantissa by 2^-24, exponent 31
 * is infinity or NaN, the rest restore the implicit leading 1.
 */
#ifndef PQT_UTIL_HALF_H
#define PQT_UTIL_HALF_H

#include <math.h>
#include <stdint.h>

static inline float pqt_half_to_float(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0)
        v = ldexpf((float)mant, -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = ldexpf((float)(mant | 0x400), exp - 25);
    return sign ? -v : v;
}

#endif
