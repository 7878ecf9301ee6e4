/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_numtext.c - pqt_format_float64/32 and pqt_format_decimal (src/util/numtext.c).
 *
 * Truth: the C library's strtod/strtof (every text must read back to the same bits) and
 * its correctly rounded "%.*e" (no shorter digit string may read back; among strings of
 * the chosen length the nearest one wins). Random bit patterns cover the whole range,
 * plus edge cases (subnormals, extremes, powers of ten and two, layout thresholds) whose
 * exact text is written out here, matching what JavaScript's String(x) prints. Set
 * PQT_NUMTEXT_N to change the number of random values (default 300,000 of each kind).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pqt.h"
#include "testutil.h"

static int shown;

static void report(const char *what, double v, const char *s)
{
    if (shown++ < 20) fprintf(stderr, "%s: %.17g (%a) -> '%s'\n", what, v, v, s);
    pqt_test_failures++;
}

/* Significant digits of text s ("-1.25e-7" -> "125", decimal exponent of the last digit). */
static int sig_digits(const char *s, char *dig, int *exp10)
{
    int n = 0, after_point = 0, seen_point = 0;
    const char *p = s;
    if (*p == '-') p++;
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') {
            seen_point = 1;
            continue;
        }
        if (n == 0 && *p == '0') {
            if (seen_point) after_point++;
            continue;
        }
        dig[n++] = *p;
        if (seen_point) after_point++;
    }
    int e = *p == 'e' ? atoi(p + 1) : 0;
    /* drop trailing zeros (".0" of integral values, zeros before the point) */
    while (n > 1 && dig[n - 1] == '0') {
        n--;
        if (after_point > 0)
            after_point--;
        else
            e++;
    }
    dig[n] = '\0';
    *exp10 = e - after_point;
    return n;
}

static int reads_back(const char *s, double v, int is_float)
{
    if (is_float) {
        float f = strtof(s, NULL), want = (float)v;
        return memcmp(&f, &want, 4) == 0;
    }
    double d = strtod(s, NULL);
    return memcmp(&d, &v, 8) == 0;
}

/* digits (as an integer) * 10^e as text */
static void sci(char *out, size_t cap, unsigned long long m, int e, int neg)
{
    snprintf(out, cap, "%s%llue%d", neg ? "-" : "", m, e);
}

/* Check one finite nonzero value. */
static void check_value(double v, int is_float)
{
    char s[64], dig[64];
    size_t n =
        is_float ? pqt_format_float32((float)v, s, sizeof s) : pqt_format_float64(v, s, sizeof s);
    if (n != strlen(s) || n >= PQT_NUMBER_TEXT_MAX) {
        report("length", v, s);
        return;
    }
    if (!reads_back(s, v, is_float)) {
        report(is_float ? "float32 round trip" : "float64 round trip", v, s);
        return;
    }
    int e10, p = sig_digits(s, dig, &e10), neg = v < 0;
    /* nearest p-digit decimal: when it reads back it must be ours */
    char ref[64], tmp[64];
    snprintf(ref, sizeof ref, "%.*e", p - 1, v);
    if (reads_back(ref, v, is_float)) {
        char rdig[64];
        int re10, rp = sig_digits(ref, rdig, &re10);
        if (rp != p || strcmp(rdig, dig) != 0 || re10 != e10) report("not the nearest", v, s);
    }
    if (p == 1) return;
    /* no (p-1)-digit decimal reads back: try both neighbours of the nearest one */
    snprintf(ref, sizeof ref, "%.*e", p - 2, v);
    char rdig[64];
    int re10;
    sig_digits(ref, rdig, &re10);
    unsigned long long m = strtoull(rdig, NULL, 10);
    int len = (int)strlen(rdig);
    /* scale m to exactly p-1 digits */
    while (len < p - 1) {
        m *= 10;
        re10--;
        len++;
    }
    unsigned long long top = 1;
    for (int i = 0; i < p - 1; i++)
        top *= 10;
    unsigned long long cands[4] = {m - 1, m, m + 1, top - 1};
    int cexp[4] = {re10, re10, re10, re10 - 1};
    for (int i = 0; i < 4; i++) {
        sci(tmp, sizeof tmp, cands[i], cexp[i], neg);
        if (cands[i] > 0 && reads_back(tmp, v, is_float)) {
            report("not the shortest", v, s);
            fprintf(stderr, "  shorter: %s\n", tmp);
            return;
        }
    }
}

static void expect64(double v, const char *want)
{
    char s[64];
    size_t n = pqt_format_float64(v, s, sizeof s);
    if (strcmp(s, want) != 0 || n != strlen(want)) {
        fprintf(stderr, "float64 %.17g: got '%s', want '%s'\n", v, s, want);
        pqt_test_failures++;
    }
}

static void expect32(float v, const char *want)
{
    char s[64];
    size_t n = pqt_format_float32(v, s, sizeof s);
    if (strcmp(s, want) != 0 || n != strlen(want)) {
        fprintf(stderr, "float32 %.9g: got '%s', want '%s'\n", (double)v, s, want);
        pqt_test_failures++;
    }
}

static void expect_dec(int64_t hi, uint64_t lo, int32_t scale, const char *want)
{
    char s[128];
    size_t n = pqt_format_decimal(hi, lo, scale, s, sizeof s);
    if (strcmp(s, want) != 0 || n != strlen(want)) {
        fprintf(stderr, "decimal (%lld,%llu) scale %d: got '%s', want '%s'\n", (long long)hi,
                (unsigned long long)lo, scale, s, want);
        pqt_test_failures++;
    }
}

static void dec_i64(int64_t x, int32_t scale, const char *want)
{
    expect_dec(x < 0 ? -1 : 0, (uint64_t)x, scale, want);
}

static void edge_cases(void)
{
    /* layout thresholds, as JavaScript's String(x) prints them, plus ".0" when integral */
    expect64(0.1, "0.1");
    expect64(0.1 + 0.2, "0.30000000000000004");
    expect64(3.0, "3.0");
    expect64(-3.0, "-3.0");
    expect64(0.0, "0.0");
    expect64(-0.0, "-0.0");
    expect64(12.345, "12.345");
    expect64(1e20, "100000000000000000000.0");
    expect64(1e21, "1e+21");
    expect64(1.5e21, "1.5e+21");
    expect64(123456789012345680000.0, "123456789012345680000.0");
    expect64(1e-6, "0.000001");
    expect64(1.5e-6, "0.0000015");
    expect64(1e-7, "1e-7");
    expect64(-1.25e-7, "-1.25e-7");
    expect64(1e300, "1e+300");
    expect64(1e23, "1e+23");
    expect64(9007199254740993.0, "9007199254740992.0");
    expect64(9223372036854775808.0, "9223372036854776000.0");
    expect64(DBL_MAX, "1.7976931348623157e+308");
    expect64(-DBL_MAX, "-1.7976931348623157e+308");
    expect64(DBL_MIN, "2.2250738585072014e-308");
    expect64(4.9406564584124654e-324, "5e-324");
    expect64(2 * 4.9406564584124654e-324, "1e-323");
    expect64(DBL_MIN - 4.9406564584124654e-324, "2.225073858507201e-308");
    expect64(5e-310, "5e-310");
    expect64(ldexp(1, 60), "1152921504606847000.0");
    expect64(ldexp(1, -1), "0.5");
    expect64(NAN, "NaN");
    expect64(INFINITY, "Infinity");
    expect64(-INFINITY, "-Infinity");
    expect32(0.1f, "0.1");
    expect32(1.1f, "1.1");
    expect32(-2.5f, "-2.5");
    expect32(16777216.0f, "16777216.0");
    expect32(3.0e10f, "30000000000.0");
    expect32(FLT_MAX, "3.4028235e+38");
    expect32(FLT_MIN, "1.1754944e-38");
    expect32(1.4e-45f, "1e-45");
    expect32(1e-7f, "1e-7");
    expect32(18.563146591186523f, "18.563147");
    expect32(-0.0f, "-0.0");
    expect32(NAN, "NaN");
    expect32(-INFINITY, "-Infinity");

    /* snprintf semantics: truncation keeps the NUL and returns the full length */
    char small[4];
    CHECK_EQ_I64(pqt_format_float64(0.125, small, sizeof small), 5);
    CHECK(strcmp(small, "0.1") == 0);
    CHECK_EQ_I64(pqt_format_float64(0.125, NULL, 0), 5);
    CHECK_EQ_I64(pqt_format_float32(-1e-7f, small, 1), 5);
    CHECK(small[0] == '\0');

    /* every power of ten and of two in range, both types */
    for (int e = -323; e <= 308; e++)
        check_value(strtod("1e0", NULL) * pow(10, e), 0);
    for (int e = -1074; e <= 1023; e++)
        check_value(ldexp(1, e), 0);
    for (int e = -149; e <= 127; e++)
        check_value((double)ldexpf(1, e), 1);
    for (int e = -45; e <= 38; e++)
        check_value((double)strtof("1", NULL) * (double)powf(10, (float)e), 1);
    /* neighbours of the extremes */
    double d = DBL_MAX, m = DBL_MIN;
    float f = FLT_MAX;
    for (int i = 0; i < 1000; i++) {
        check_value(d, 0);
        check_value(m, 0);
        check_value(nextafter(m, 0), 0);
        check_value((double)f, 1);
        d = nextafter(d, 0);
        m = nextafter(m, 1);
        f = nextafterf(f, 0);
    }
    for (uint64_t b = 1; b < 5000; b++) { /* smallest subnormals */
        double x;
        memcpy(&x, &b, 8);
        check_value(x, 0);
        if (b < (1u << 23)) {
            uint32_t b32 = (uint32_t)b;
            float y;
            memcpy(&y, &b32, 4);
            check_value((double)y, 1);
        }
    }

    /* decimals */
    dec_i64(12345, 3, "12.345");
    dec_i64(-12345, 3, "-12.345");
    dec_i64(-5, 2, "-0.05");
    dec_i64(12, 5, "0.00012");
    dec_i64(7, 0, "7");
    dec_i64(0, 0, "0");
    dec_i64(0, 2, "0.00");
    dec_i64(100, 2, "1.00");
    dec_i64(12, -2, "1200");
    dec_i64(INT64_MAX, 0, "9223372036854775807");
    dec_i64(INT64_MIN, 0, "-9223372036854775808");
    dec_i64(INT64_MIN, 19, "-0.9223372036854775808");
    dec_i64(INT64_MIN, 20, "-0.09223372036854775808");
    /* 10^38 - 1 = 0x4B3B4CA85A86C47A098A223FFFFFFFFF */
    expect_dec(0x4B3B4CA85A86C47ALL, 0x098A223FFFFFFFFFULL, 0,
               "99999999999999999999999999999999999999");
    expect_dec(0x4B3B4CA85A86C47ALL, 0x098A223FFFFFFFFFULL, 10,
               "9999999999999999999999999999.9999999999");
    expect_dec(0x4B3B4CA85A86C47ALL, 0x098A223FFFFFFFFFULL, 38,
               "0.99999999999999999999999999999999999999");
    /* -(10^38 - 1) */
    expect_dec((int64_t)~0x4B3B4CA85A86C47AULL, ~0x098A223FFFFFFFFFULL + 1, 2,
               "-999999999999999999999999999999999999.99");
    expect_dec(INT64_MIN, 0, 0, "-170141183460469231731687303715884105728");
    expect_dec(0, 0, 0, "0");
    expect_dec(1, 0, 0, "18446744073709551616"); /* 2^64 */
    expect_dec(0, UINT64_MAX, 0, "18446744073709551615");
    char small2[5];
    CHECK_EQ_I64(pqt_format_decimal(0, 12345, 3, small2, sizeof small2), 6);
    CHECK(strcmp(small2, "12.3") == 0);
    CHECK_EQ_I64(pqt_format_decimal(-1, (uint64_t)-5, 40, NULL, 0), 43);
}

static void random_values(long n)
{
    uint64_t st = 0x9e3779b97f4a7c15ULL;
    for (long i = 0; i < n; i++) {
        uint64_t b = pqt_test_rand(&st);
        double x;
        memcpy(&x, &b, 8);
        if (isfinite(x) && x != 0) check_value(x, 0);
        uint32_t b32 = (uint32_t)(b >> 17);
        float y;
        memcpy(&y, &b32, 4);
        if (isfinite(y) && y != 0) check_value((double)y, 1);
        /* values with few digits, as data usually holds */
        double z = (double)(int64_t)(b % 2000001 - 1000000) / pow(10, (double)(b >> 60));
        if (z != 0) {
            check_value(z, 0);
            check_value((double)(float)z, 1);
        }
    }
}

static void speed(void)
{
    enum { N = 2000000 };
    uint64_t st = 42;
    char buf[64];
    size_t total = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < N; i++) {
        uint64_t b = pqt_test_rand(&st);
        double x = (double)(int64_t)(b % 20000001 - 10000000) / 1000.0 + 1e-9 * (double)(b >> 40);
        total += pqt_format_float64(x, buf, sizeof buf);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / N;
    printf("pqt_format_float64: %.1f ns per value (%zu bytes)\n", ns, total);
}

int main(void)
{
    const char *env = getenv("PQT_NUMTEXT_N");
    long n = env ? atol(env) : 300000;
    edge_cases();
    random_values(n);
    speed();
    return pqt_test_done("test_numtext");
}
