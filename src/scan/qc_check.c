/* SPDX-License-Identifier: Apache-2.0 */
/*
 * qc_check.c - one column's values against one qc rule (docs/qc.md)
 * (layer: scan).
 *
 * min/max run over present elements only, vectors and lists element-wise; NaN is never out
 * of range and never part of the data range. Integers are compared as integers: an int64
 * value against an integer bound in int64 arithmetic, against a float bound exactly (no
 * rounding of either side), so bounds past 2^53 mean what they say.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scan/qc.h"
#include "util/bits.h"

/* a vs d exactly (d not NaN): -1, 0, 1. */
static int cmp_i64_f64(int64_t a, double d)
{
    if (d >= 9223372036854775808.0) return -1;
    if (d < -9223372036854775808.0) return 1;
    int64_t t = (int64_t)d; /* exact: d is in range and truncation keeps an integral part */
    if (a != t) return a < t ? -1 : 1;
    double frac = d - (double)t; /* exact: t came from d */
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

static int cmp_u64_f64(uint64_t a, double d)
{
    if (d < 0) return 1;
    if (d >= 18446744073709551616.0) return -1;
    uint64_t t = (uint64_t)d;
    if (a != t) return a < t ? -1 : 1;
    double frac = d - (double)t;
    return frac > 0 ? -1 : 0;
}

static int cmp_i64(int64_t v, const pqt_qc_bound *b)
{
    if (b->is_u64) return -1; /* above every int64 */
    if (b->is_int) return v < b->i ? -1 : v > b->i;
    return cmp_i64_f64(v, b->d);
}

static int cmp_u64(uint64_t v, const pqt_qc_bound *b)
{
    if (b->is_u64) return v < b->u ? -1 : v > b->u;
    if (b->is_int) return b->i < 0 ? 1 : v < (uint64_t)b->i ? -1 : v > (uint64_t)b->i;
    return cmp_u64_f64(v, b->d);
}

static int cmp_f64(double v, const pqt_qc_bound *b)
{
    if (b->is_int) return -cmp_i64_f64(b->i, v);
    if (b->is_u64) return -cmp_u64_f64(b->u, v);
    return v < b->d ? -1 : v > b->d;
}

static int cmp_str(const char *s, int64_t n, const pqt_qc_bound *b)
{
    size_t bn = strlen(b->text), m = (size_t)n < bn ? (size_t)n : bn;
    int c = m ? memcmp(s, b->text, m) : 0;
    if (c != 0) return c < 0 ? -1 : 1;
    return (size_t)n < bn ? -1 : (size_t)n > bn;
}

static int cmp_str_pair(const char *a, int64_t na, const char *b, int64_t nb)
{
    int64_t m = na < nb ? na : nb;
    int c = m ? memcmp(a, b, (size_t)m) : 0;
    if (c != 0) return c < 0 ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

/* Out of [min, max] given the comparisons with each bound. */
#define OUT_OF(CMP, v)                                                                             \
    ((min->set && ((c = CMP(v, min)) < 0 || (c == 0 && min->strict))) ||                          \
     (max->set && ((c = CMP(v, max)) > 0 || (c == 0 && max->strict))))

static void eval_ints(const pqt_qc_rule *r, const pqt_colbuf *b, bool enforce, pqt_qc_eval *e)
{
    const pqt_qc_bound *min = &r->min, *max = &r->max;
    int c;
    for (int64_t i = 0; i < b->nelem; i++) {
        if (!pqt_bit_get(b->validity, i)) continue;
        int64_t v = b->elem_kind == PQT_INT32 || b->elem_kind == PQT_DATE
                        ? ((const int32_t *)b->data)[i]
                        : ((const int64_t *)b->data)[i];
        if (!e->any || v < e->ilo) e->ilo = v;
        if (!e->any || v > e->ihi) e->ihi = v;
        e->any = true;
        if (enforce && OUT_OF(cmp_i64, v)) e->nout++;
    }
}

static void eval_u64(const pqt_qc_rule *r, const pqt_colbuf *b, bool enforce, pqt_qc_eval *e)
{
    const pqt_qc_bound *min = &r->min, *max = &r->max;
    int c;
    for (int64_t i = 0; i < b->nelem; i++) {
        if (!pqt_bit_get(b->validity, i)) continue;
        uint64_t v = ((const uint64_t *)b->data)[i];
        if (!e->any || v < e->ulo) e->ulo = v;
        if (!e->any || v > e->uhi) e->uhi = v;
        e->any = true;
        if (enforce && OUT_OF(cmp_u64, v)) e->nout++;
    }
}

static void eval_floats(const pqt_qc_rule *r, const pqt_colbuf *b, bool enforce, pqt_qc_eval *e)
{
    const pqt_qc_bound *min = &r->min, *max = &r->max;
    int c;
    for (int64_t i = 0; i < b->nelem; i++) {
        if (!pqt_bit_get(b->validity, i)) continue;
        double v = b->elem_kind == PQT_FLOAT32 ? (double)((const float *)b->data)[i]
                                               : ((const double *)b->data)[i];
        if (isnan(v)) continue;
        if (!e->any || v < e->dlo) e->dlo = v;
        if (!e->any || v > e->dhi) e->dhi = v;
        e->any = true;
        if (enforce && OUT_OF(cmp_f64, v)) e->nout++;
    }
}

#define STR_CMP(v, bnd) cmp_str(s, n, bnd)

static void eval_strings(const pqt_qc_rule *r, const pqt_colbuf *b, bool enforce, pqt_qc_eval *e)
{
    const pqt_qc_bound *min = &r->min, *max = &r->max;
    const char *bytes = (const char *)b->str_bytes.data;
    int c;
    for (int64_t i = 0; i < b->nelem; i++) {
        if (!pqt_bit_get(b->validity, i)) continue;
        const char *s = bytes + b->str_offsets[i];
        int64_t n = b->str_offsets[i + 1] - b->str_offsets[i];
        if (!e->any || cmp_str_pair(s, n, e->slo, e->nslo) < 0) e->slo = s, e->nslo = n;
        if (!e->any || cmp_str_pair(s, n, e->shi, e->nshi) > 0) e->shi = s, e->nshi = n;
        e->any = true;
        if (enforce && OUT_OF(STR_CMP, 0)) e->nout++;
    }
}

void pqt_scan_qc_eval(const pqt_qc_rule *r, const pqt_colbuf *b, pqt_qc_eval *e)
{
    memset(e, 0, sizeof *e);
    e->kind = b->elem_kind;
    int64_t null_rows = 0;
    if (b->is_list && b->row_validity)
        for (int64_t i = 0; i < b->nrows; i++)
            null_rows += !pqt_bit_get(b->row_validity, i);
    int64_t null_elems = 0;
    if (b->validity)
        for (int64_t i = 0; i < b->nelem; i++)
            null_elems += !pqt_bit_get(b->validity, i);
    e->nelem = b->nelem + null_rows;
    e->nnull = null_elems + null_rows;
    e->nvalid = b->nelem - null_elems;
    bool bounds = r->min.set || r->max.set;
    /* a non-number bound on a numeric column is refused at open; if one gets here (a
     * cast after open), it checks nothing rather than guessing */
    bool numeric = (!r->min.set || r->min.is_int || r->min.is_u64 || r->min.is_float) &&
                   (!r->max.set || r->max.is_int || r->max.is_u64 || r->max.is_float);
    switch (b->elem_kind) {
    case PQT_INT32:
    case PQT_INT64:
        eval_ints(r, b, bounds && numeric, e);
        break;
    case PQT_UINT64:
        eval_u64(r, b, bounds && numeric, e);
        break;
    case PQT_FLOAT32:
    case PQT_FLOAT64:
        eval_floats(r, b, bounds && numeric, e);
        break;
    case PQT_STRING:
    case PQT_BINARY:
        eval_strings(r, b, bounds, e);
        break;
    default: /* booleans: accepted, never enforced; temporal bounds are refused at open */
        break;
    }
}

/* One end of the data range as text. */
static void end_text(const pqt_qc_eval *e, bool hi, char *buf, size_t cap)
{
    switch (e->kind) {
    case PQT_INT32:
    case PQT_INT64:
        snprintf(buf, cap, "%lld", (long long)(hi ? e->ihi : e->ilo));
        break;
    case PQT_UINT64:
        snprintf(buf, cap, "%llu", (unsigned long long)(hi ? e->uhi : e->ulo));
        break;
    case PQT_FLOAT32:
        pqt_format_float32((float)(hi ? e->dhi : e->dlo), buf, cap);
        break;
    case PQT_FLOAT64:
        pqt_format_float64(hi ? e->dhi : e->dlo, buf, cap);
        break;
    case PQT_STRING: {
        int64_t n = hi ? e->nshi : e->nslo;
        const char *s = hi ? e->shi : e->slo;
        snprintf(buf, cap, "'%.*s'%s", (int)(n > 40 ? 40 : n), s, n > 40 ? "..." : "");
        break;
    }
    default:
        snprintf(buf, cap, "?");
    }
}

size_t pqt_scan_qc_range_text(const pqt_qc_rule *r, const pqt_qc_eval *e, char *buf, size_t cap)
{
    char bounds[600], lo[64], hi[64];
    pqt_scan_qc_bounds_text(r, bounds, sizeof bounds);
    end_text(e, false, lo, sizeof lo);
    end_text(e, true, hi, sizeof hi);
    int n = snprintf(buf, cap, "declared %s, data range [%s, %s], %lld of %lld valid element(s) "
                               "out of range",
                     bounds, lo, hi, (long long)e->nout, (long long)e->nvalid);
    return n < 0 ? 0 : (size_t)n;
}

size_t pqt_scan_qc_null_text(const pqt_qc_eval *e, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%lld of %lld element(s) are Null (qc: miss: is declared empty, "
                               "so Nulls are not expected here)",
                     (long long)e->nnull, (long long)e->nelem);
    return n < 0 ? 0 : (size_t)n;
}
