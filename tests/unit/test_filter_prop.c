/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_prop.c - property test of the vectorized filter evaluator against a deliberately
 * simple reference evaluator written here: random tables (every kind, nulls, NaN, +-0, +-inf,
 * unicode strings, dates, times and timestamps in every unit, a dotted leaf and a name that
 * needs backquotes), random rules (every operator and spelling, not, nesting, written lists,
 * bound sets in other units, add_in sets, several rules), random input selections and batch
 * splits. The reference walks one row at a time with Kleene logic and compares values the
 * plainest way it can (exact integer-vs-real comparison, (second, nanosecond) instants, libc
 * memcmp), sharing no code with src/scan.
 */
#include "filter_prop_ref.h"
#include "filter_prop_gen.h"

static int bitat(const uint8_t *m, int64_t i) { return (m[i >> 3] >> (i & 7)) & 1; }

/* One random filter over the current table; returns 1 (a case). */
static int run_case(int trial, int *nkept)
{
    pqt_filter *f;
    CHECK_OK(pqt_filter_new(&f));
    nnodes = 0;
    ngsets = 0;
    tnode *roots[4];
    int nr = coin(70) ? 1 : 2 + (int)rnd(2);
    gbuf texts[4];
    for (int r = 0; r < nr; r++) {
        texts[r].n = 0;
        texts[r].s[0] = '\0';
        if (r > 0 && coin(25) && ngsets < 8) { /* an add_in rule */
            tnode *e = node(3);
            int c;
            do c = (int)rnd(NCOL);
            while (c == C_B);
            e->col = c;
            e->op = coin(50) ? OP_IN : OP_NOTIN;
            gset *g = &gsets[ngsets++];
            gen_set(c, g, e);
            CHECK_OK(bind_set(f, g, names[c], e->op == OP_NOTIN));
            app(&texts[r], "add_in(%s)", names[c]);
            roots[r] = e;
            continue;
        }
        roots[r] = gen_expr(&texts[r], 1 + (int)rnd(4));
        pqt_status st = pqt_filter_add(f, texts[r].s);
        if (st != PQT_OK) {
            fprintf(stderr, "trial %d: rule refused: %s\n  %s\n", trial, texts[r].s, pqt_errmsg());
            pqt_test_failures++;
            pqt_filter_free(f);
            return 1;
        }
    }
    for (int g = 0; g < ngsets; g++)
        if (gsets[g].name[0]) CHECK_OK(bind_set(f, &gsets[g], NULL, 0));
    pqt_scan_col cols[NCOL];
    for (int c = 0; c < NCOL; c++) cols[c] = (pqt_scan_col){names[c], kinds[c], units[c]};
    pqt_fprog *p = NULL;
    pqt_status st = pqt_scan_compile(f, cols, NCOL, &p);
    pqt_filter_free(f);
    if (st != PQT_OK) {
        fprintf(stderr, "trial %d: compile refused %s: %s\n", trial, texts[0].s, pqt_errmsg());
        pqt_test_failures++;
        return 1;
    }
    uint8_t sel[MAXN / 8 + 1], keep[MAXN / 8 + 1], chain[MAXN / 8 + 1], part[MAXN / 8 + 1];
    int use_sel = coin(50);
    for (size_t i = 0; i < sizeof sel; i++) sel[i] = (uint8_t)(coin(20) ? 0 : rnd(256));
    pqt_scan_vec vecs[NCOL];
    vecs_for(p, vecs, 0);
    pqt_scan_scratch sc = {0};
    int64_t nk = -1;
    CHECK_OK(pqt_scan_prog_eval(p, vecs, nrows, use_sel ? sel : NULL, keep, &nk, &sc));
    int64_t want_n = 0, bad = 0;
    for (int64_t r = 0; r < nrows; r++) {
        int want = !use_sel || bitat(sel, r);
        for (int k = 0; k < nr && want; k++) want = ref_eval(roots[k], r) == T_T;
        want_n += want;
        if (want != bitat(keep, r) && bad++ == 0) {
            fprintf(stderr, "trial %d row %lld: kept %d, reference %d; rules:\n", trial,
                    (long long)r, bitat(keep, r), want);
            for (int k = 0; k < nr; k++) fprintf(stderr, "  %s\n", texts[k].s);
        }
    }
    if (bad) pqt_test_failures++;
    CHECK_EQ_I64(nk, want_n);
    *nkept += want_n > 0 && want_n < nrows;
    /* conjunct by conjunct, each on the rows the previous ones kept */
    if (use_sel) memcpy(chain, sel, sizeof chain);
    else memset(chain, 0xff, sizeof chain);
    for (int k = 0; k < pqt_scan_prog_nconj(p); k++)
        CHECK_OK(pqt_scan_conj_eval(p, k, vecs, nrows, chain, chain, NULL, &sc));
    CHECK(memcmp(chain, keep, (size_t)(nrows + 7) / 8) == 0);
    /* two batches split at a multiple of 8 rows give the same bits */
    int64_t m = (rnd(nrows) / 8) * 8;
    if (m > 0) {
        CHECK_OK(pqt_scan_prog_eval(p, vecs, m, use_sel ? sel : NULL, part, NULL, &sc));
        vecs_for(p, vecs, m);
        CHECK_OK(pqt_scan_prog_eval(p, vecs, nrows - m, use_sel ? sel + m / 8 : NULL,
                                    part + m / 8, NULL, &sc));
        CHECK(memcmp(part, keep, (size_t)(nrows + 7) / 8) == 0);
    }
    pqt_scan_scratch_free(&sc);
    pqt_scan_prog_free(p);
    return 1;
}

int main(void)
{
    int ncases = 0, nkept = 0, nrows_total = 0;
    for (int trial = 0; trial < 4000; trial++) {
        make_table(coin(20) ? MAXN : 150);
        ncases += run_case(trial, &nkept);
        nrows_total += (int)nrows;
    }
    /* the property is not vacuous: rules kept some rows and dropped others */
    CHECK(nkept > ncases / 4);
    fprintf(stderr, "test_filter_prop: %d cases, %d rows, %d cases keeping rows\n", ncases,
            nrows_total, nkept);
    return pqt_test_done("test_filter_prop");
}
