/* SPDX-License-Identifier: Apache-2.0 */
/*
 * civil.h - days since 1970-01-01 to a proleptic Gregorian date (layer: util).
 *
 * One copy of H. Hinnant's civil_from_days for every place that prints a date (statistics
 * text, filter literals, VARIANT dates): exact for every int64 day count a column can hold.
 */
#ifndef PQT_UTIL_CIVIL_H
#define PQT_UTIL_CIVIL_H

#include <stdint.h>

static inline void pqt_civil_from_days(int64_t z, int64_t *y_ret, int *m_ret, int *d_ret)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d_ret = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m_ret = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y_ret = yoe + era * 400 + (*m_ret <= 2);
}

#endif
