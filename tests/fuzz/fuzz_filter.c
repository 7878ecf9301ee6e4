/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_filter.c - libFuzzer target for the filter language: pqt_filter_add (lexer, parser,
 * limits), pqt_scan_compile against one column of every kind, the evaluator over a small
 * fixed table, the statistics prover and the explain text.
 *
 * Input: rules separated by newlines (each one pqt_filter_add call; a NUL ends a rule early).
 * A set "@s" of every class is bound, so rules that name it reach the set code.
 */
#include "fuzz.h"
#include "scan/filter.h"

#define NROWS 9
static const int32_t i32[NROWS] = {0, 1, -1, 5, 2147483647, -2147483647 - 1, 3, 4, 0};
static const int64_t i64[NROWS] = {0, 1, -1, 5, INT64_MAX, INT64_MIN, 1000, -1000, 0};
static const float f32[NROWS] = {0, -0.0f, 1.5f, 1e30f, -1e30f, 3.4e38f, 0.1f, 2, 0};
static const double f64[NROWS] = {0, -0.0, 1.5, 1e300, -1e300, 1e-300, 0.1, 2, 0};
static const uint8_t b8[NROWS] = {0, 1, 1, 0, 1, 0, 1, 0, 1};
static const int64_t soff[NROWS + 1] = {0, 0, 1, 3, 6, 8, 11, 12, 14, 14};
static const char sbytes[] = "aabab\xc3\xa9" "xyz\"  q\xff\xfe";
static const uint8_t valid[2] = {0xef, 0x01}; /* row 4 null */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pqt_filter *f = NULL;
    if (pqt_filter_new(&f) != PQT_OK) return 0;
    int64_t iset[] = {1, 5, INT64_MIN};
    const char *sset[] = {"a", "xyz", NULL};
    pqt_filter_bind(f, "s", PQT_INT64, iset, 3, NULL);
    pqt_filter_bind(f, "t", PQT_STRING, sset, 3, NULL);
    pqt_filter_bind(f, "u", PQT_KIND_UNIT(PQT_TIMESTAMP, PQT_UNIT_NANOS), iset, 3, NULL);
    char *rule = malloc(size + 1);
    if (!rule) goto done;
    size_t at = 0;
    while (at <= size) {
        size_t e = at;
        while (e < size && data[e] != '\n') e++;
        memcpy(rule, data + at, e - at);
        rule[e - at] = '\0';
        pqt_filter_add(f, rule);
        at = e + 1;
    }
    static const pqt_scan_col cols[] = {
        {"i", PQT_INT32, -1},          {"l", PQT_INT64, -1},          {"f", PQT_FLOAT32, -1},
        {"d", PQT_FLOAT64, -1},        {"b", PQT_BOOL, -1},           {"s", PQT_STRING, -1},
        {"dt", PQT_DATE, -1},          {"t", PQT_TIME, PQT_UNIT_MICROS},
        {"ts", PQT_TIMESTAMP, PQT_UNIT_NANOS}, {"ms", PQT_TIMESTAMP, PQT_UNIT_MILLIS},
        {"a.b", PQT_INT64, -1},        {"v", PQT_INT32 | PQT_VECTOR, -1}};
    static const void *const datas[] = {i32, i64, f32, f64, b8, soff, i32, i64, i64, i64, i64, i32};
    pqt_fprog *p = NULL;
    if (pqt_scan_compile(f, cols, 12, &p) == PQT_OK) {
        pqt_scan_vec vecs[12];
        pqt_scan_stats st[12];
        for (int s = 0; s < pqt_scan_prog_ncols(p); s++) {
            int c = pqt_scan_prog_col(p, s);
            vecs[s] = (pqt_scan_vec){datas[c], sbytes, s % 2 ? valid : NULL};
            memset(&st[s], 0, sizeof st[s]);
            st[s].flags = PQT_SST_MIN | PQT_SST_MAX;
            st[s].min = (pqt_scan_bound){-1, -1.0, "a", 1};
            st[s].max = (pqt_scan_bound){5, 2.0, "xyz", 3};
            st[s].null_count = s % 3 - 1;
            st[s].nan_count = -1;
        }
        uint8_t sel[2] = {0xfb, 0x01}, keep[2];
        int64_t nk;
        pqt_scan_scratch sc = {0};
        pqt_scan_prog_eval(p, vecs, NROWS, sel, keep, &nk, &sc);
        for (int k = 0; k < pqt_scan_prog_nconj(p); k++) {
            char buf[64];
            pqt_scan_conj_eval(p, k, vecs, NROWS, NULL, keep, &nk, &sc);
            pqt_scan_conj_prove(p, k, st, NROWS);
            pqt_scan_conj_text(p, k, buf, sizeof buf);
        }
        pqt_scan_prog_prove(p, st, NROWS);
        pqt_scan_prog_prove(p, NULL, NROWS);
        pqt_scan_scratch_free(&sc);
        pqt_scan_prog_free(p);
    }
done:
    free(rule);
    pqt_filter_free(f);
    return 0;
}
