/* SPDX-License-Identifier: Apache-2.0 */
/* pct.c - hex digits and %XX decoding (pct.h). */
#include "util/pct.h"

int pqt_hex_digit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

size_t pqt_percent_decode(const char *s, size_t n, char *out)
{
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && (hi = pqt_hex_digit((unsigned char)s[i + 1])) >= 0 &&
            (lo = pqt_hex_digit((unsigned char)s[i + 2])) >= 0) {
            out[j++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            out[j++] = s[i];
        }
    }
    out[j] = '\0';
    return j;
}
