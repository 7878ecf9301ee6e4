/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_eval.c - vectorized evaluation of a compiled filter (layer: scan).
 *
 * Three-valued logic (docs/filters.md) costs nothing here: once NOT sits in the clauses, an
 * AND is TRUE exactly when every operand is TRUE and an OR when one is, whatever the others
 * are (false or unknown), so one bitmap of TRUE rows per node is enough. A clause is TRUE on
 * present rows whose comparison holds (negated clause: does not hold); a null row is never
 * TRUE except under is_null. Each clause runs one tight loop for its (operator, kind), built
 * from one macro; a word of 64 rows with no selected row is skipped, and later operands of an
 * AND (of an OR) see only rows still TRUE (not yet TRUE), which is how the engine's "evaluate
 * later conjuncts only on rows still alive" works inside a conjunct too.
 */
#include <string.h>

#include "scan/filter_expr.h"
#include "scan/filter_like.h"
#include "util/bits.h"
#include "util/error.h"
#include "util/le.h"
#include "util/mem.h"

typedef void (*kernel_fn)(const fleaf *lf, const pqt_scan_vec *v, int64_t n, const uint64_t *sel,
                          uint64_t *out);

/* out[w]: bit j = EXPR for row 64w + j, for every word holding a selected row. */
#define KERNEL(NAME, T, SETUP, EXPR)                                                               \
    static void NAME(const fleaf *lf, const pqt_scan_vec *v, int64_t n, const uint64_t *sel,       \
                     uint64_t *out)                                                                \
    {                                                                                              \
        const T *data = (const T *)v->data;                                                        \
        SETUP;                                                                                     \
        int64_t nw = (n + 63) >> 6;                                                                \
        for (int64_t w = 0; w < nw; w++) {                                                         \
            if (!sel[w]) {                                                                         \
                out[w] = 0;                                                                        \
                continue;                                                                          \
            }                                                                                      \
            const T *x = data + (w << 6);                                                          \
            int64_t m = n - (w << 6);                                                              \
            uint64_t bits = 0;                                                                     \
            if (m >= 64) {                                                                         \
                for (int j = 0; j < 64; j++) bits |= (uint64_t)(EXPR) << j;                        \
            } else {                                                                               \
                for (int j = 0; j < m; j++) bits |= (uint64_t)(EXPR) << j;                         \
            }                                                                                      \
            out[w] = bits;                                                                         \
        }                                                                                          \
    }

#define ID(x) (x)
#define NZ(x) ((x) != 0)
#define CMP_KERNELS(SUF, T, SETUP, VAL)                                                            \
    KERNEL(lt_##SUF, T, SETUP, VAL(x[j]) < lit)                                                    \
    KERNEL(le_##SUF, T, SETUP, VAL(x[j]) <= lit)                                                   \
    KERNEL(gt_##SUF, T, SETUP, VAL(x[j]) > lit)                                                    \
    KERNEL(ge_##SUF, T, SETUP, VAL(x[j]) >= lit)                                                   \
    KERNEL(eq_##SUF, T, SETUP, VAL(x[j]) == lit)

CMP_KERNELS(i32, int32_t, const int32_t lit = (int32_t)lf->i, ID)
CMP_KERNELS(i64, int64_t, const int64_t lit = lf->i, ID)
CMP_KERNELS(u64, uint64_t, const uint64_t lit = pqt_scan_u64_out(lf->i), ID)
CMP_KERNELS(f32, float, const float lit = lf->f, ID)
CMP_KERNELS(f64, double, const double lit = lf->d, ID)
CMP_KERNELS(u8, uint8_t, const int lit = (int)lf->i, NZ)

/* Set membership: integers by value inside [imin, imax], floats by the bits of the double. */
static inline int set_has_key(const cset *s, uint64_t key, uint64_t h)
{
    for (;;) {
        int64_t m = s->slot[h];
        if (!m) return 0;
        if (s->keys[h] == key) return 1;
        h = (h + 1) & s->mask;
    }
}

static inline int set_has_int(const cset *s, int64_t v)
{
    if (v < s->imin || v > s->imax) return 0;
    return set_has_key(s, (uint64_t)v, pqt_scan_hash64((uint64_t)v) >> s->shift);
}

static inline int set_has_double(const cset *s, double d)
{
    uint64_t key;
    d = d == 0 ? 0.0 : d; /* -0 is a member when 0 is */
    memcpy(&key, &d, sizeof key);
    return set_has_key(s, key, pqt_scan_hash64(key) >> s->shift);
}

/* the bitmap form: [imin, imax] checked without overflow by one unsigned comparison */
static inline int set_has_bit(const cset *s, int64_t v)
{
    uint64_t o = (uint64_t)v - (uint64_t)s->imin;
    return o <= (uint64_t)s->imax - (uint64_t)s->imin && ((s->bits[o >> 3] >> (o & 7)) & 1);
}

KERNEL(in_i32, int32_t, const cset *set = lf->set, set_has_int(set, x[j]))
KERNEL(inb_i32, int32_t, const cset *set = lf->set, set_has_bit(set, x[j]))
KERNEL(inb_i64, int64_t, const cset *set = lf->set, set_has_bit(set, x[j]))
KERNEL(in_i64, int64_t, const cset *set = lf->set, set_has_int(set, x[j]))
/* uint64 members are held as pqt_scan_u64_in of the value: one xor per row */
KERNEL(inb_u64, uint64_t, const cset *set = lf->set,
       set_has_bit(set, (int64_t)(x[j] ^ PQT_SCAN_U64_SIGN)))
KERNEL(in_u64, uint64_t, const cset *set = lf->set,
       set_has_int(set, (int64_t)(x[j] ^ PQT_SCAN_U64_SIGN)))
KERNEL(in_f32, float, const cset *set = lf->set, set_has_double(set, (double)x[j]))
KERNEL(in_f64, double, const cset *set = lf->set, set_has_double(set, x[j]))
/* x - x is 0 for finite x and NaN for NaN and +-inf */
KERNEL(nan_f32, float, (void)lf, x[j] != x[j])
KERNEL(nan_f64, double, (void)lf, x[j] != x[j])
KERNEL(fin_f32, float, (void)lf, x[j] - x[j] == 0)
KERNEL(fin_f64, double, (void)lf, x[j] - x[j] == 0)

/* ---- strings: n + 1 offsets into bytes; compared bytewise, unsigned ---- */

static inline int bytes_eq(const char *a, const char *b, int64_t len)
{
    int64_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) return 0;
    }
    for (; i < len; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static inline int bytes_contain(const char *s, int64_t len, const char *p, int64_t plen)
{
    if (plen == 0) return 1;
    for (int64_t i = 0; i + plen <= len; i++)
        if (s[i] == p[0] && bytes_eq(s + i, p, plen)) return 1;
    return 0;
}

static inline int set_has_str(const cset *set, const char *s, int64_t len)
{
    uint64_t hash = pqt_scan_hash_bytes(s, len), h = hash >> set->shift;
    for (;;) {
        int64_t m = set->slot[h];
        if (!m) return 0;
        if (set->keys[h] == hash) {
            int64_t lo = set->soff[m - 1], l = set->soff[m] - lo;
            if (l == len && bytes_eq(set->sbytes + lo, s, len)) return 1;
        }
        h = (h + 1) & set->mask;
    }
}

#define STR_SETUP                                                                                  \
    const char *b = v->bytes;                                                                      \
    const char *lit = lf->s;                                                                       \
    const int64_t llen = lf->slen;                                                                 \
    (void)lit;                                                                                     \
    (void)llen
#define S_AT(j) (b + x[j])
#define S_LEN(j) (x[(j) + 1] - x[j])

KERNEL(lt_str, int64_t, STR_SETUP, pqt_scan_strcmp(S_AT(j), S_LEN(j), lit, llen) < 0)
KERNEL(le_str, int64_t, STR_SETUP, pqt_scan_strcmp(S_AT(j), S_LEN(j), lit, llen) <= 0)
KERNEL(gt_str, int64_t, STR_SETUP, pqt_scan_strcmp(S_AT(j), S_LEN(j), lit, llen) > 0)
KERNEL(ge_str, int64_t, STR_SETUP, pqt_scan_strcmp(S_AT(j), S_LEN(j), lit, llen) >= 0)
KERNEL(eq_str, int64_t, STR_SETUP, S_LEN(j) == llen && bytes_eq(S_AT(j), lit, llen))
KERNEL(sw_str, int64_t, STR_SETUP, S_LEN(j) >= llen && bytes_eq(S_AT(j), lit, llen))
KERNEL(ew_str, int64_t, STR_SETUP,
       S_LEN(j) >= llen && bytes_eq(S_AT(j) + S_LEN(j) - llen, lit, llen))
KERNEL(ct_str, int64_t, STR_SETUP, bytes_contain(S_AT(j), S_LEN(j), lit, llen))
KERNEL(in_str, int64_t, STR_SETUP; const cset *set = lf->set, set_has_str(set, S_AT(j), S_LEN(j)))
/* LIKE / ILIKE patterns of no simpler shape (filter_like.h) */
KERNEL(like_str, int64_t, STR_SETUP; const uint8_t *pk = lf->pat,
       pqt_scan_like_match(S_AT(j), S_LEN(j), lit, pk, llen, 0))
KERNEL(ilike_str, int64_t, STR_SETUP; const uint8_t *pk = lf->pat,
       pqt_scan_like_match(S_AT(j), S_LEN(j), lit, pk, llen, 1))

static const kernel_fn k_i32[FOP_COUNT] = {[FOP_LT] = lt_i32, [FOP_LE] = le_i32, [FOP_GT] = gt_i32,
                                           [FOP_GE] = ge_i32, [FOP_EQ] = eq_i32, [FOP_IN] = in_i32};
static const kernel_fn k_i64[FOP_COUNT] = {[FOP_LT] = lt_i64, [FOP_LE] = le_i64, [FOP_GT] = gt_i64,
                                           [FOP_GE] = ge_i64, [FOP_EQ] = eq_i64, [FOP_IN] = in_i64};
static const kernel_fn k_u64[FOP_COUNT] = {[FOP_LT] = lt_u64, [FOP_LE] = le_u64, [FOP_GT] = gt_u64,
                                           [FOP_GE] = ge_u64, [FOP_EQ] = eq_u64, [FOP_IN] = in_u64};
static const kernel_fn k_f32[FOP_COUNT] = {
    [FOP_LT] = lt_f32, [FOP_LE] = le_f32,    [FOP_GT] = gt_f32,        [FOP_GE] = ge_f32,
    [FOP_EQ] = eq_f32, [FOP_IN] = in_f32,    [FOP_IS_NAN] = nan_f32,   [FOP_IS_FINITE] = fin_f32};
static const kernel_fn k_f64[FOP_COUNT] = {
    [FOP_LT] = lt_f64, [FOP_LE] = le_f64,    [FOP_GT] = gt_f64,        [FOP_GE] = ge_f64,
    [FOP_EQ] = eq_f64, [FOP_IN] = in_f64,    [FOP_IS_NAN] = nan_f64,   [FOP_IS_FINITE] = fin_f64};
static const kernel_fn k_u8[FOP_COUNT] = {[FOP_LT] = lt_u8, [FOP_LE] = le_u8, [FOP_GT] = gt_u8,
                                          [FOP_GE] = ge_u8, [FOP_EQ] = eq_u8};
static const kernel_fn k_str[FOP_COUNT] = {
    [FOP_LT] = lt_str, [FOP_LE] = le_str,    [FOP_GT] = gt_str,         [FOP_GE] = ge_str,
    [FOP_EQ] = eq_str, [FOP_IN] = in_str,    [FOP_STARTS_WITH] = sw_str, [FOP_ENDS_WITH] = ew_str,
    [FOP_CONTAINS] = ct_str, [FOP_LIKE] = like_str, [FOP_ILIKE] = ilike_str};

static kernel_fn pick(const fleaf *lf)
{
    if (lf->op == FOP_IN && lf->set->bits)
        return lf->kind == PQT_INT32 || lf->kind == PQT_DATE ? inb_i32
               : lf->kind == PQT_UINT64                      ? inb_u64
                                                             : inb_i64;
    switch (lf->kind) {
    case PQT_INT32:
    case PQT_DATE:
        return k_i32[lf->op];
    case PQT_INT64:
    case PQT_TIME:
    case PQT_TIMESTAMP:
        return k_i64[lf->op];
    case PQT_UINT64:
        return k_u64[lf->op];
    case PQT_FLOAT32:
        return k_f32[lf->op];
    case PQT_FLOAT64:
        return k_f64[lf->op];
    case PQT_BOOL:
        return k_u8[lf->op];
    default:
        return k_str[lf->op];
    }
}

/* ---- bitmaps: bytes LSB first <-> 64-bit words ---- */

static inline uint64_t load_bits(const uint8_t *b, int64_t w, int64_t nbytes)
{
    int64_t at = w << 3;
    uint64_t x = 0;
    if (at + 8 <= nbytes) return pqt_load_le64(b + at);
    for (int k = 0; k < 8 && at + k < nbytes; k++) x |= (uint64_t)b[at + k] << (8 * k);
    return x;
}

static uint64_t tail_mask(int64_t n, int64_t w)
{
    int64_t m = n - (w << 6);
    return m >= 64 ? ~0ULL : (1ULL << m) - 1;
}

static void eval_leaf(const fleaf *lf, const pqt_scan_vec *vecs, int64_t n, const uint64_t *sel,
                      uint64_t *out)
{
    const pqt_scan_vec *v = &vecs[lf->slot];
    int64_t nw = (n + 63) >> 6, nbytes = (n + 7) >> 3;
    int op = lf->op;
    if (op != FOP_IS_NULL && op != FOP_TRUE && op != FOP_FALSE) pick(lf)(lf, v, n, sel, out);
    uint64_t flip = lf->negate ? ~0ULL : 0;
    for (int64_t w = 0; w < nw; w++) {
        uint64_t s = sel[w];
        if (!s) {
            out[w] = 0;
            continue;
        }
        uint64_t valid = v->validity ? load_bits(v->validity, w, nbytes) : ~0ULL;
        if (op == FOP_IS_NULL) {
            out[w] = (~valid ^ flip) & s;
            continue;
        }
        uint64_t c = op == FOP_TRUE ? ~0ULL : op == FOP_FALSE ? 0 : out[w];
        out[w] = (c ^ flip) & valid & s;
    }
}

static int any_bits(const uint64_t *x, int64_t nw)
{
    uint64_t a = 0;
    for (int64_t w = 0; w < nw; w++) a |= x[w];
    return a != 0;
}

/* out = rows of sel where e is TRUE; buf holds 2 * nw words per level below e. Fails only
 * in a computed predicate (INT overflow, memory). */
static pqt_status eval_expr(const fexpr *e, const pqt_scan_vec *vecs, int64_t n,
                            const uint64_t *sel, uint64_t *out, uint64_t *buf,
                            pqt_scan_scratch *s, int muted)
{
    if (e->type == FX_LEAF) {
        eval_leaf(&e->leaf, vecs, n, sel, out);
        return PQT_OK;
    }
    if (e->type == FX_CMP) return pqt_scan_cmp_eval(e->cmp, vecs, n, sel, out, s, muted);
    int64_t nw = (n + 63) >> 6;
    uint64_t *ks = buf, *kt = buf + nw, *next = buf + 2 * nw;
    if (e->type == FX_AND) {
        memcpy(out, sel, (size_t)nw * sizeof *out);
        for (int32_t k = 0; k < e->nkids && any_bits(out, nw); k++) {
            PQT_TRY(eval_expr(e->kids[k], vecs, n, out, kt, next, s, muted));
            memcpy(out, kt, (size_t)nw * sizeof *out);
        }
        return PQT_OK;
    }
    memset(out, 0, (size_t)nw * sizeof *out);
    for (int32_t k = 0; k < e->nkids; k++) {
        uint64_t live = 0;
        for (int64_t w = 0; w < nw; w++) live |= ks[w] = sel[w] & ~out[w];
        if (!live) break;
        PQT_TRY(eval_expr(e->kids[k], vecs, n, ks, kt, next, s, muted));
        for (int64_t w = 0; w < nw; w++) out[w] |= kt[w];
    }
    return PQT_OK;
}

void pqt_scan_scratch_free(pqt_scan_scratch *s)
{
    if (!s) return;
    pqt_mem_free(s->words);
    s->words = NULL;
    s->cap = 0;
    pqt_mem_free(s->xbuf);
    s->xbuf = NULL;
    s->xcap = 0;
}

/* Scratch for a tree of the given depth: sel, out, and 2 words per row-word per level. */
static pqt_status scratch(pqt_scan_scratch *s, int64_t nw, int depth, uint64_t **ret)
{
    size_t need = (size_t)nw * (size_t)(2 + 2 * (depth + 1));
    if (s->cap < need) {
        uint64_t *w = pqt_realloc(s->words, need * sizeof *w);
        if (!w) return pqt_err(PQT_NOMEM, "out of memory evaluating a filter (%zu bytes)", need * 8);
        s->words = w;
        s->cap = need;
    }
    *ret = s->words;
    return PQT_OK;
}

static pqt_status run(const pqt_fprog *p, int k0, int k1, const pqt_scan_vec *vecs, int64_t n,
                      const uint8_t *sel, uint8_t *keep, int64_t *nkeep_ret, pqt_scan_scratch *s)
{
    if (n < 0) return pqt_err(PQT_MISUSE, "filter evaluation: n < 0");
    if (n == 0) {
        if (nkeep_ret) *nkeep_ret = 0;
        return PQT_OK;
    }
    int64_t nw = (n + 63) >> 6, nbytes = (n + 7) >> 3, depth = 0;
    for (int k = k0; k < k1; k++)
        if (p->conj[k].depth > depth) depth = p->conj[k].depth;
    uint64_t *w = NULL;
    PQT_TRY(scratch(s, nw, (int)depth, &w));
    uint64_t *cur = w, *out = w + nw, *buf = w + 2 * nw;
    for (int64_t i = 0; i < nw; i++)
        cur[i] = (sel ? load_bits(sel, i, nbytes) : ~0ULL) & tail_mask(n, i);
    for (int k = k0; k < k1 && any_bits(cur, nw); k++) {
        const fexpr *root = p->conj[k].root;
        if (root->type == FX_CALLBACK) PQT_TRY(pqt_scan_cb_eval(p, root->cb, vecs, n, cur, out));
        else PQT_TRY(eval_expr(root, vecs, n, cur, out, buf, s, 0));
        memcpy(cur, out, (size_t)nw * sizeof *cur);
    }
    int64_t cnt = 0;
    for (int64_t i = 0; i < nw; i++) {
        uint64_t x = cur[i];
        cnt += pqt_popcount64(x);
        for (int b = 0; b < 8 && (i << 3) + b < nbytes; b++) keep[(i << 3) + b] = (uint8_t)(x >> (8 * b));
    }
    if (nkeep_ret) *nkeep_ret = cnt;
    return PQT_OK;
}

pqt_status pqt_scan_conj_eval(const pqt_fprog *p, int k, const pqt_scan_vec *vecs, int64_t n,
                              const uint8_t *sel, uint8_t *keep, int64_t *nkeep_ret,
                              pqt_scan_scratch *s)
{
    if (k < 0 || k >= p->nconj) return pqt_err(PQT_MISUSE, "filter conjunct %d out of range", k);
    return run(p, k, k + 1, vecs, n, sel, keep, nkeep_ret, s);
}

pqt_status pqt_scan_prog_eval(const pqt_fprog *p, const pqt_scan_vec *vecs, int64_t n,
                              const uint8_t *sel, uint8_t *keep, int64_t *nkeep_ret,
                              pqt_scan_scratch *s)
{
    return run(p, 0, p->nconj, vecs, n, sel, keep, nkeep_ret, s);
}
