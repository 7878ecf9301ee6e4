/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pct.h - hex digits and %XX decoding, for the names paths and URLs carry: hive partition
 * values (Spark encodes them) and S3 buckets and keys (layer: util).
 */
#ifndef PQT_UTIL_PCT_H
#define PQT_UTIL_PCT_H

#include <stddef.h>

/* The value of hex digit c (either case), -1 for any other character. */
int pqt_hex_digit(int c);

/* s[0..n) with each %XX decoded into out (n + 1 bytes at least; NUL-terminated); a '%' not
 * followed by two hex digits stays as it is. Returns the decoded length. */
size_t pqt_percent_decode(const char *s, size_t n, char *out);

#endif
