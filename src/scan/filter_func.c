/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_func.c - the functions of the filter language (layer: scan).
 *
 * docs/filters.md, "Functions": the name table (case-insensitive, with argument counts) and
 * the kernels over FLOAT arguments, one tight loop per function. The evaluator converts INT
 * arguments to double first, except where a function keeps INT (abs, floor, ceil, round:
 * filter_expr_eval.c). IEEE everywhere: sqrt(-1) is NaN, log(0) is -inf. round is half away
 * from zero (C's round). cone compares haversines: hav(d) = sin^2(ddec/2) +
 * cos(dec) cos(dec0) sin^2(dra/2) is exact to rounding at every separation (no acos of a
 * number near 1), and d <= r exactly when hav(d) <= sin^2(r/2) for r in [0, 180] degrees.
 */
#include <math.h>
#include <string.h>

#include "scan/filter_expr.h"

static const struct {
    const char *name;
    int min, max;
} funcs[FF_COUNT] = {[FF_ABS] = {"abs", 1, 1},       [FF_SQRT] = {"sqrt", 1, 1},
                     [FF_LOG] = {"log", 1, 1},       [FF_LOG10] = {"log10", 1, 1},
                     [FF_EXP] = {"exp", 1, 1},       [FF_POW] = {"pow", 2, 2},
                     [FF_FLOOR] = {"floor", 1, 1},   [FF_CEIL] = {"ceil", 1, 1},
                     [FF_ROUND] = {"round", 1, 2},   [FF_SIN] = {"sin", 1, 1},
                     [FF_COS] = {"cos", 1, 1},       [FF_TAN] = {"tan", 1, 1},
                     [FF_ASIN] = {"asin", 1, 1},     [FF_ACOS] = {"acos", 1, 1},
                     [FF_ATAN] = {"atan", 1, 1},     [FF_ATAN2] = {"atan2", 2, 2},
                     [FF_SIND] = {"sind", 1, 1},     [FF_COSD] = {"cosd", 1, 1},
                     [FF_TAND] = {"tand", 1, 1},     [FF_ASIND] = {"asind", 1, 1},
                     [FF_ACOSD] = {"acosd", 1, 1},   [FF_ATAND] = {"atand", 1, 1},
                     [FF_ATAN2D] = {"atan2d", 2, 2}, [FF_LENGTH] = {"length", 1, 1},
                     [FF_ISNAN] = {"isnan", 1, 1},   [FF_ISFINITE] = {"isfinite", 1, 1},
                     [FF_CONE] = {"cone", 5, 5}};

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

int pqt_scan_func_find(const char *name, int64_t len)
{
    for (int f = 0; f < FF_COUNT; f++) {
        const char *w = funcs[f].name;
        if ((int64_t)strlen(w) != len) continue;
        int64_t i = 0;
        while (i < len && lower((unsigned char)name[i]) == w[i])
            i++;
        if (i == len) return f;
    }
    return -1;
}

const char *pqt_scan_func_name(int fn)
{
    return fn >= 0 && fn < FF_COUNT ? funcs[fn].name : "?";
}

void pqt_scan_func_arity(int fn, int *min_ret, int *max_ret)
{
    *min_ret = fn >= 0 && fn < FF_COUNT ? funcs[fn].min : 0;
    *max_ret = fn >= 0 && fn < FF_COUNT ? funcs[fn].max : 0;
}

int pqt_scan_func_distance(const char *s, int64_t len, int fn)
{
    const char *w = pqt_scan_func_name(fn);
    int lb = (int)strlen(w), la = len > 32 ? 32 : (int)len;
    int prev[33], row[33];
    for (int j = 0; j <= lb; j++)
        prev[j] = j;
    for (int i = 1; i <= la; i++) {
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (lower((unsigned char)s[i - 1]) != w[j - 1]);
            int del = prev[j] + 1, ins = row[j - 1] + 1;
            row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, row, sizeof(int) * (size_t)(lb + 1));
    }
    return prev[lb];
}

#define DEG (3.14159265358979323846 / 180.0)
#define RAD (180.0 / 3.14159265358979323846)

/* sin and cos of x degrees, exact at multiples of 90 (sind(180) is 0, not 1.2e-16): the
 * argument is reduced to [-45, 45] degrees first. */
static double sind(double x)
{
    if (!isfinite(x)) return NAN;
    double r = fmod(x, 360.0), q = round(r / 90.0);
    double y = (r - 90.0 * q) * DEG;
    int k = (int)fmod(q, 4.0);
    if (k < 0) k += 4;
    double v = k == 0 ? sin(y) : k == 1 ? cos(y) : k == 2 ? -sin(y) : -cos(y);
    return v == 0 ? 0.0 * x : v; /* sind(-0) is -0, sind(180) +0 */
}

static double cosd(double x)
{
    if (!isfinite(x)) return NAN;
    double r = fmod(fabs(x), 360.0), q = round(r / 90.0);
    double y = (r - 90.0 * q) * DEG;
    int k = (int)q % 4;
    double v = k == 0 ? cos(y) : k == 1 ? -sin(y) : k == 2 ? -cos(y) : sin(y);
    return v == 0 ? 0.0 : v;
}

#define LOOP1(EXPR)                                                                                \
    for (int64_t j = 0; j < n; j++) {                                                              \
        double x = a[j].d;                                                                         \
        out[j].d = (EXPR);                                                                         \
    }
#define LOOP2(EXPR)                                                                                \
    for (int64_t j = 0; j < n; j++) {                                                              \
        double x = a[j].d, y = b[j].d;                                                             \
        out[j].d = (EXPR);                                                                         \
    }

void pqt_scan_func_float(int fn, const xv *const *args, int nargs, xv *out, int64_t n)
{
    const xv *a = args[0], *b = nargs > 1 ? args[1] : NULL;
    switch (fn) {
    case FF_ABS:
        LOOP1(fabs(x)) break;
    case FF_SQRT:
        LOOP1(sqrt(x)) break;
    case FF_LOG:
        LOOP1(log(x)) break;
    case FF_LOG10:
        LOOP1(log10(x)) break;
    case FF_EXP:
        LOOP1(exp(x)) break;
    case FF_POW:
        LOOP2(pow(x, y)) break;
    case FF_FLOOR:
        LOOP1(floor(x)) break;
    case FF_CEIL:
        LOOP1(ceil(x)) break;
    case FF_ROUND:
        if (!b) {
            LOOP1(round(x))
        } else {
            /* digits: round(x * 10^d) / 10^d, or by 10^-d for negative d (exact powers) */
            for (int64_t j = 0; j < n; j++) {
                double x = a[j].d, d = b[j].d;
                if (!isfinite(x) || !(fabs(d) <= 308)) {
                    out[j].d = isnan(d) ? NAN : x;
                    continue;
                }
                double p = pow(10.0, fabs(trunc(d)));
                double r = d >= 0 ? round(x * p) / p : round(x / p) * p;
                out[j].d = isfinite(r) ? r : x; /* x * p overflowed: x has no such digits */
            }
        }
        break;
    case FF_SIN:
        LOOP1(sin(x)) break;
    case FF_COS:
        LOOP1(cos(x)) break;
    case FF_TAN:
        LOOP1(tan(x)) break;
    case FF_ASIN:
        LOOP1(asin(x)) break;
    case FF_ACOS:
        LOOP1(acos(x)) break;
    case FF_ATAN:
        LOOP1(atan(x)) break;
    case FF_ATAN2:
        LOOP2(atan2(x, y)) break;
    case FF_SIND:
        LOOP1(sind(x)) break;
    case FF_COSD:
        LOOP1(cosd(x)) break;
    case FF_TAND:
        LOOP1(sind(x) / cosd(x)) break;
    case FF_ASIND:
        LOOP1(asin(x) * RAD) break;
    case FF_ACOSD:
        LOOP1(acos(x) * RAD) break;
    case FF_ATAND:
        LOOP1(atan(x) * RAD) break;
    case FF_ATAN2D:
        LOOP2(atan2(x, y) * RAD) break;
    case FF_ISNAN:
        for (int64_t j = 0; j < n; j++)
            out[j].i = isnan(a[j].d) != 0;
        break;
    case FF_ISFINITE:
        for (int64_t j = 0; j < n; j++)
            out[j].i = isfinite(a[j].d) != 0;
        break;
    case FF_CONE: {
        const xv *dec = args[1], *ra0 = args[2], *dec0 = args[3], *rad = args[4];
        for (int64_t j = 0; j < n; j++) {
            double r = rad[j].d;
            double sd = sin((dec[j].d - dec0[j].d) * (DEG / 2));
            double sa = sin((a[j].d - ra0[j].d) * (DEG / 2));
            double h = sd * sd + cos(dec[j].d * DEG) * cos(dec0[j].d * DEG) * sa * sa;
            double sr = sin((r < 180 ? r : 180) * (DEG / 2));
            /* NaN anywhere compares false; a radius of 180 degrees or more holds the sky */
            out[j].i = r >= 0 && (h <= sr * sr || (r >= 180 && h == h));
        }
        break;
    }
    default:
        for (int64_t j = 0; j < n; j++)
            out[j].d = NAN;
        break;
    }
}
