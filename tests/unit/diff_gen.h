/* SPDX-License-Identifier: Apache-2.0 */
/*
 * diff_gen.h - the generated files of test_filter_open_diff.c (included once, after
 * filter_prop_ref.h, filter_prop_gen.h, diff_cols.h and diff_write.h): a random table in the
 * reference's slots (filter_prop_ref.h's make_table), its columns often sorted, nulls moved
 * to one end, a column without nulls or all null, some strings longer than writers keep in
 * a bound, the i64 slot sometimes stored as UINT_32
 * or replaced by the row index, plus a LIST payload column; written with diff_write.c in
 * random row groups, and checked to read back as written.
 */
#ifndef PQT_TEST_DIFF_GEN_H
#define PQT_TEST_DIFF_GEN_H

static int g_sc; /* the slot qsort compares */

static int cmp_slot_rows(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    int c = g_sc;
    if (c == C_F32 || c == C_F64 || c == C_FJY) {
        double x = c == C_F32 ? f32v[a] : f64v[c][a], y = c == C_F32 ? f32v[b] : f64v[c][b];
        if (isnan(x) || isnan(y)) return isnan(x) - isnan(y); /* NaN last */
        return (x > y) - (x < y);
    }
    if (c == C_S) {
        int64_t la = i64v[C_S][a + 1] - i64v[C_S][a], lb = i64v[C_S][b + 1] - i64v[C_S][b];
        int m = memcmp(sbytes + i64v[C_S][a], sbytes + i64v[C_S][b], (size_t)(la < lb ? la : lb));
        return m ? m : (la > lb) - (la < lb);
    }
    int i32 = c == C_I32 || c == C_LEAF || c == C_D;
    int64_t x = c == C_B ? u8v[a] : i32 ? i32v[c][a] : i64v[c][a];
    int64_t y = c == C_B ? u8v[b] : i32 ? i32v[c][b] : i64v[c][b];
    return (x > y) - (x < y);
}

/* Sort slot c's present values (descending: reversed), nulls where they were, first or last,
 * so that row groups hold narrow ranges and statistics can prove NONE and ALL. */
static void sort_slot(int c, int desc, int nulls)
{
    static int64_t from[MAXN], at[MAXN], soff[MAXN + 1];
    static char sb[MAXSB];
    static double dv[MAXN];
    static int64_t iv[MAXN];
    int64_t np = 0;
    for (int64_t r = 0; r < nrows; r++)
        if (present(c, r)) from[np++] = r;
    g_sc = c;
    qsort(from, (size_t)np, sizeof *from, cmp_slot_rows);
    if (desc)
        for (int64_t i = 0; i < np / 2; i++) {
            int64_t x = from[i];
            from[i] = from[np - 1 - i], from[np - 1 - i] = x;
        }
    if (nulls) memset(valid[c], 0, sizeof valid[c]);
    for (int64_t i = 0, k = 0; i < nrows; i++) { /* the rows that will hold values */
        int pr = nulls == 1 ? i < np : nulls == 2 ? i >= nrows - np : present(c, i);
        if (pr) at[k++] = i;
        if (pr && nulls) valid[c][i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    if (c == C_S) {
        int64_t o = 0, k = 0;
        for (int64_t r = 0; r < nrows; r++) {
            soff[r] = o;
            if (k < np && at[k] == r) {
                int64_t f = from[k++], len = i64v[C_S][f + 1] - i64v[C_S][f];
                memcpy(sb + o, sbytes + i64v[C_S][f], (size_t)len);
                o += len;
            }
        }
        soff[nrows] = o;
        memcpy(sbytes, sb, (size_t)o);
        memcpy(i64v[C_S], soff, ((size_t)nrows + 1) * sizeof *soff);
        return;
    }
    for (int64_t k = 0; k < np; k++) {
        int64_t f = from[k];
        switch (c) {
        case C_F32: dv[k] = f32v[f]; break;
        case C_F64: case C_FJY: dv[k] = f64v[c][f]; break;
        case C_B: iv[k] = u8v[f]; break;
        case C_I32: case C_LEAF: case C_D: iv[k] = i32v[c][f]; break;
        default: iv[k] = i64v[c][f];
        }
    }
    for (int64_t k = 0; k < np; k++) {
        int64_t r = at[k];
        switch (c) {
        case C_F32: f32v[r] = (float)dv[k]; break;
        case C_F64: case C_FJY: f64v[c][r] = dv[k]; break;
        case C_B: u8v[r] = (uint8_t)iv[k]; break;
        case C_I32: case C_LEAF: case C_D: i32v[c][r] = (int32_t)iv[k]; break;
        default: i64v[c][r] = iv[k];
        }
    }
}

/* A payload column no rule can name: lst, a LIST of int32 or float64 (null lists, empty
 * lists, null elements), for survivor-only decoding of repeated columns. */
#define LMAX (MAXN * 4)
static int64_t lst_off[MAXN + 1];
static int32_t lst_i32[LMAX];
static double lst_f64[LMAX];
static uint8_t lst_rvalid[MAXN / 8 + 1], lst_evalid[LMAX / 8 + 1];
static int lst_double;

static void make_list(void)
{
    lst_double = coin(50);
    memset(lst_rvalid, 0, sizeof lst_rvalid);
    memset(lst_evalid, 0, sizeof lst_evalid);
    int64_t e = 0;
    for (int64_t r = 0; r < nrows; r++) {
        lst_off[r] = e;
        if (coin(10)) continue; /* a null list */
        lst_rvalid[r >> 3] |= (uint8_t)(1u << (r & 7));
        for (int64_t k = rnd(5); k > 0; k--, e++) {
            lst_i32[e] = (int32_t)rnd(7) - 3;
            lst_f64[e] = fpool[rnd(NFPOOL)];
            if (!coin(15)) lst_evalid[e >> 3] |= (uint8_t)(1u << (e & 7));
        }
    }
    lst_off[nrows] = e;
}

static int i64_u32;

/* A tenth of the strings made long (65 to 120 bytes, pool strings repeated): past the 64
 * bytes writers keep of a bound, so statistics and page index hold truncated ones. */
static void long_strings(void)
{
    static char sb[MAXSB];
    static int64_t off[MAXN + 1];
    int64_t o = 0;
    for (int64_t r = 0; r < nrows; r++) {
        int64_t a = i64v[C_S][r], len = i64v[C_S][r + 1] - a;
        off[r] = o;
        if (coin(10) && o + 128 < MAXSB) {
            const char *base = spool[1 + rnd(NSPOOL - 1)];
            int64_t want = 65 + rnd(56), bl = (int64_t)strlen(base);
            for (int64_t k = 0; k < want; k++) sb[o++] = base[k % bl];
        } else {
            memcpy(sb + o, sbytes + a, (size_t)len);
            o += len;
        }
    }
    off[nrows] = o;
    memcpy(sbytes, sb, (size_t)o);
    memcpy(i64v[C_S], off, ((size_t)nrows + 1) * sizeof *off);
}

/* A random table in the slots' layout, often clustered; sometimes the i64 slot is the row
 * index (a virtual column rules can name; its statistics are the row groups' row ranges). */
static void make_data(void)
{
    static const char *const dflt[NCOL] = {"i32",   "i64",   "f32",   "f64",   "b",
                                           "s",     "d",     "t_ms",  "t_us",  "t_ns",
                                           "ts_ms", "ts_us", "ts_ns", "st.leaf", "f (Jy)"};
    for (int c = 0; c < NCOL; c++) {
        names[c] = dflt[c];
        col_off[c] = 0;
    }
    make_table(coin(10) ? 24 : 3000);
    if (coin(15)) long_strings();
    /* sometimes i64 is stored as INT32 UINT_32 (read as int64; its order is unsigned) */
    static const int64_t u32pool[] = {0, 1, 2, 3, 5, 65536, 2147483647LL, 2147483648LL,
                                      3000000000LL, 4294967295LL};
    i64_u32 = coin(20);
    for (int64_t r = 0; r < nrows && i64_u32; r++) i64v[C_I64][r] = u32pool[rnd(10)];
    for (int c = 0; c < NCOL; c++) {
        if (coin(12)) memset(valid[c], 0xff, sizeof valid[c]); /* no nulls */
        else if (coin(4)) memset(valid[c], 0, sizeof valid[c]); /* all null */
        if (coin(55)) sort_slot(c, coin(25), coin(40) ? 1 + (int)coin(50) : 0);
    }
    if (coin(25)) {
        names[C_I64] = PQT_ROW_INDEX;
        for (int64_t r = 0; r < nrows; r++) i64v[C_I64][r] = r + 1;
        memset(valid[C_I64], 0xff, sizeof valid[C_I64]);
    }
    make_list();
}

/* the file's columns: the slots in a random order, the leaf inside a struct st */
static int write_data(const char *path, int64_t *rg_rows, int *nrg_ret, dw_info *info)
{
    static int32_t tms[MAXN];
    static const int ptype[NCOL] = {PQT_PT_INT32, PQT_PT_INT64, PQT_PT_FLOAT, PQT_PT_DOUBLE,
                                    PQT_PT_BOOLEAN, PQT_PT_BYTE_ARRAY, PQT_PT_INT32,
                                    PQT_PT_INT32, PQT_PT_INT64, PQT_PT_INT64, PQT_PT_INT64,
                                    PQT_PT_INT64, PQT_PT_INT64, PQT_PT_INT32, PQT_PT_DOUBLE};
    static const int ann[NCOL] = {DW_NONE, DW_NONE, DW_NONE, DW_NONE, DW_NONE, DW_STRING,
                                  DW_DATE, DW_TIME, DW_TIME, DW_TIME, DW_TS, DW_TS, DW_TS,
                                  DW_NONE, DW_NONE};
    static int32_t u32[MAXN];
    for (int64_t r = 0; r < nrows; r++) {
        tms[r] = (int32_t)i64v[C_TMS][r];
        u32[r] = (int32_t)(uint32_t)i64v[C_I64][r];
    }
    dw_col cols[NCOL + 1];
    int order[NCOL + 1], ncols = 0;
    for (int c = 0; c < NCOL; c++)
        if (strcmp(names[c], PQT_ROW_INDEX) != 0) order[ncols++] = c;
    order[ncols++] = NCOL; /* the list */
    for (int i = ncols - 1; i > 0; i--) {
        int j = (int)rnd(i + 1), x = order[i];
        order[i] = order[j], order[j] = x;
    }
    for (int k = 0; k < ncols; k++) {
        int c = order[k], all = 1;
        if (c == NCOL) {
            cols[k] = (dw_col){.name = "lst", .ptype = lst_double ? PQT_PT_DOUBLE : PQT_PT_INT32,
                               .vals = lst_double ? (const void *)lst_f64 : (const void *)lst_i32,
                               .valid = lst_rvalid, .list = 1, .loff = lst_off,
                               .evalid = lst_evalid};
            continue;
        }
        for (int64_t r = 0; r < nrows && all; r++) all = present(c, r);
        const void *v = c == C_F32 ? (const void *)f32v
                        : c == C_F64 || c == C_FJY ? (const void *)f64v[c]
                        : c == C_B ? (const void *)u8v
                        : c == C_TMS ? (const void *)tms
                        : ptype[c] == PQT_PT_INT32 ? (const void *)i32v[c]
                                                   : (const void *)i64v[c];
        if (c == C_I64 && i64_u32) {
            cols[k] = (dw_col){.name = names[c], .ptype = PQT_PT_INT32, .ann = DW_UINT32,
                               .required = all && coin(50), .vals = u32, .valid = valid[c]};
            continue;
        }
        cols[k] = (dw_col){.name = c == C_LEAF ? "leaf" : names[c],
                           .group = c == C_LEAF ? "st" : NULL, .ptype = ptype[c], .ann = ann[c],
                           .unit = units[c], .required = all && c != C_LEAF && coin(50),
                           .vals = v, .bytes = c == C_S ? sbytes : NULL, .valid = valid[c]};
    }
    int nrg = 1 + (int)rnd(nrows < 8 ? nrows : 8);
    int64_t cut[9] = {0};
    int k = 1;
    while (k < nrg) { /* distinct cuts in (0, nrows) */
        int64_t s = 1 + rnd(nrows - 1), j = k;
        int dup = 0;
        for (int q = 1; q < k; q++) dup |= cut[q] == s;
        if (dup) continue;
        while (j > 1 && cut[j - 1] > s) cut[j] = cut[j - 1], j--;
        cut[j] = s;
        k++;
    }
    cut[nrg] = nrows;
    for (int g = 0; g < nrg; g++) rg_rows[g] = cut[g + 1] - cut[g];
    *nrg_ret = nrg;
    uint64_t wr = pqt_test_rand(&rng);
    return dw_write(path, cols, ncols, rg_rows, nrg, coin(85), &wr, info);
}

/* The unfiltered read equals what was written (the writer and the reader agree). */
static void check_written(const dfile *F)
{
    const dcol *lc = dfile_col(F, "lst");
    int64_t lbad = !lc || !(lc->kind & (PQT_LIST | PQT_VECTOR)) ||
                   lc->ek != (lst_double ? PQT_FLOAT64 : PQT_INT32);
    for (int64_t r = 0; r < nrows && !lbad; r++) {
        int64_t a = lc->loff[r], n = lc->loff[r + 1] - a, ea = lst_off[r];
        lbad = dbit(lc->rvalid, r) != dbit(lst_rvalid, r) || n != lst_off[r + 1] - ea;
        for (int64_t k = 0; k < n && !lbad; k++) {
            int pr = dbit(lst_evalid, ea + k);
            lbad = dbit(lc->valid, a + k) != pr;
            if (pr && !lbad)
                lbad = lst_double ? memcmp((const double *)lc->data + a + k, &lst_f64[ea + k], 8)
                                  : ((const int32_t *)lc->data)[a + k] != lst_i32[ea + k];
            if (lbad) fprintf(stderr, "%s: lst row %lld reads back different\n", F->path,
                              (long long)r + 1);
        }
    }
    if (lbad) {
        fprintf(stderr, "%s: the list column lst reads back different\n", F->path);
        pqt_test_failures++;
    }
    for (int c = 0; c < NCOL; c++) {
        if (strcmp(names[c], PQT_ROW_INDEX) == 0) continue;
        const dcol *d = dfile_col(F, names[c]);
        if (!d) {
            fprintf(stderr, "%s: no column %s\n", F->path, names[c]);
            pqt_test_failures++;
            continue;
        }
        int64_t bad = 0;
        for (int64_t r = 0; r < nrows; r++) {
            const char *p = (const char *)d->data + (size_t)r * d->esz;
            int diff = dbit(d->valid, r) != present(c, r);
            if (!diff && present(c, r)) {
                switch (c) {
                case C_I32: case C_LEAF: case C_D: diff = memcmp(p, &i32v[c][r], 4); break;
                case C_F32: diff = memcmp(p, &f32v[r], 4); break;
                case C_F64: case C_FJY: diff = memcmp(p, &f64v[c][r], 8); break;
                case C_B: diff = (uint8_t)*p != u8v[r]; break;
                case C_S: {
                    int64_t l = i64v[C_S][r + 1] - i64v[C_S][r];
                    diff = d->soff[r + 1] - d->soff[r] != l ||
                           memcmp(d->sb + d->soff[r], sbytes + i64v[C_S][r], (size_t)l);
                    break;
                }
                default: diff = memcmp(p, &i64v[c][r], 8);
                }
            }
            if (diff && bad++ == 0)
                fprintf(stderr, "%s: column %s row %lld reads back different\n", F->path,
                        names[c], (long long)r + 1);
        }
        if (bad) pqt_test_failures++;
    }
}

#endif
