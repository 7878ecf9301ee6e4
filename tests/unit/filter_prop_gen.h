/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter_prop_gen.h - random rules for test_filter_prop.c: each leaf is written as rule text
 * (random spelling: spaced or glued operators, =, !=, <>, backquotes, keyword case, redundant
 * parentheses) and kept as a tnode holding the literal's meaning for the reference. Included
 * once, by test_filter_prop.c, after the reference.
 */
#include <stdarg.h>

#define TXT 8000
typedef struct gbuf {
    char s[TXT];
    size_t n;
} gbuf;

static void app(gbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, TXT - b->n, fmt, ap);
    va_end(ap);
    if (k > 0) b->n += (size_t)k < TXT - b->n ? (size_t)k : TXT - b->n - 1;
}

static int leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* days since 1970-01-01 -> civil date, by walking years and months (slow and plain) */
static void civil_slow(int64_t days, int64_t *y, int *m, int *d)
{
    static const int md[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t yr = 1970;
    while (days < 0) days += leap(--yr) ? 366 : 365;
    while (days >= (leap(yr) ? 366 : 365)) days -= leap(yr++) ? 366 : 365;
    int mo = 0;
    for (;; mo++) {
        int len = md[mo] + (mo == 1 && leap(yr));
        if (days < len) break;
        days -= len;
    }
    *y = yr;
    *m = mo + 1;
    *d = (int)days + 1;
}

static void app_date(gbuf *b, int64_t days)
{
    int64_t y;
    int m, d;
    civil_slow(days, &y, &m, &d);
    app(b, "%04lld-%02d-%02d", (long long)y, m, d);
}

static void app_clock(gbuf *b, int64_t tod, int64_t ns, int unit)
{
    app(b, "%02d:%02d", (int)(tod / 3600), (int)(tod / 60 % 60));
    if (tod % 60 == 0 && ns == 0 && coin(40)) return;
    app(b, ":%02d", (int)(tod % 60));
    int digits = unit == 0 ? 3 : unit == 1 ? 6 : 9;
    if (ns == 0 && coin(50)) return;
    char fr[16];
    snprintf(fr, sizeof fr, "%09lld", (long long)ns);
    int keep = digits;
    if (coin(50))
        while (keep > 1 && fr[keep - 1] == '0') keep--; /* fewer digits: same instant */
    app(b, ".%.*s", keep, fr);
}

/* ---- hooks for test_filter_open_diff.c, which maps the slots onto a file's columns: a
 * slot with no column (col_off), names that need backquotes, literals taken from the data
 * (lit_data_pct percent of them). Unused, they change nothing, not even the random draws. */
static int col_off[NCOL];
static int lit_data_pct;
static char dlit_store[256][104];
static int dlit_n;

static int needs_bq(const char *name)
{
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '.'))
            return 1;
    return name[0] >= '0' && name[0] <= '9';
}

/* A literal equal to the value of a random non-null row of column c; 0 when none fits. */
static int data_lit(gbuf *b, int c, tlit *l)
{
    int64_t r = -1;
    for (int t = 0; t < 8 && r < 0; t++) {
        int64_t q = rnd(nrows);
        if (present(c, q)) r = q;
    }
    if (r < 0) return 0;
    if (is_int_col(c)) {
        l->i = c == C_I64 ? i64v[c][r] : i32v[c][r];
        app(b, "%lld", (long long)l->i);
    } else if (is_flt_col(c)) {
        double d = c == C_F32 ? (double)f32v[r] : f64v[c][r];
        char t[40];
        if (isnan(d)) return 0;
        if (isinf(d)) snprintf(t, sizeof t, "%s", d > 0 ? "inf" : "-inf");
        else snprintf(t, sizeof t, c == C_F32 ? "%.9g" : "%.17g", d);
        l->d = strtod(t, NULL);
        app(b, "%s", t);
    } else if (c == C_B) {
        l->i = u8v[r];
        app(b, "%s", l->i ? "true" : "false");
    } else if (c == C_S) {
        int64_t lo = i64v[C_S][r], len = i64v[C_S][r + 1] - lo;
        if (len > 100) return 0;
        for (int64_t i = 0; i < len; i++)
            if ((unsigned char)sbytes[lo + i] < 0x20) return 0;
        char *s = dlit_store[dlit_n++ % 256];
        memcpy(s, sbytes + lo, (size_t)len);
        s[len] = '\0';
        l->s = s;
        app(b, "\"");
        for (const char *p = s; *p; p++) app(b, *p == '"' ? "\"\"" : "%c", *p);
        app(b, "\"");
    } else if (c == C_D) {
        l->i = i32v[C_D][r];
        if (l->i < -719162 || l->i > 2932896) return 0; /* years 1..9999 */
        app(b, "\"");
        app_date(b, l->i);
        app(b, "\"");
    } else {
        int u = units[c];
        to_instant(i64v[c][r], u, &l->sec, &l->ns);
        int64_t days = l->sec >= 0 ? l->sec / 86400 : -((-l->sec + 86399) / 86400);
        int64_t tod = l->sec - days * 86400;
        app(b, "\"");
        if (is_time_col(c)) {
            if (days != 0) return 0;
            app_clock(b, tod, l->ns, u);
        } else {
            if (days < -719162 || days > 2932896) return 0;
            app_date(b, days);
            app(b, "T");
            app_clock(b, tod, l->ns, u);
        }
        app(b, "\"");
    }
    return 1;
}

/* One literal for column c, as text (appended to b) and meaning (l). in_list: no hex. */
static void gen_lit(gbuf *b, int c, tlit *l, int in_list)
{
    memset(l, 0, sizeof *l);
    if (lit_data_pct && coin(lit_data_pct)) {
        size_t n0 = b->n;
        if (data_lit(b, c, l)) return;
        b->n = n0;
        b->s[n0] = '\0';
        memset(l, 0, sizeof *l);
    }
    if (is_int_col(c)) {
        static const struct { const char *t; double d; } reals[] = {
            {"2.5", 2.5}, {"-0.5", -0.5}, {"1e30", 1e30}, {"-1e30", -1e30}, {"3e9", 3e9},
            {"inf", INFINITY}, {"-inf", -INFINITY}, {"4.0", 4}, {"1e3", 1000},
            {"-2147483648.5", -2147483648.5}, {"9.3e18", 9.3e18}, {"0x1p2", 4}};
        if (coin(70)) {
            l->i = coin(50) ? ipool[rnd(14)] : rnd(11) - 5;
            app(b, "%lld", (long long)l->i);
            return;
        }
        int k;
        do k = (int)rnd(12);
        while (in_list && (reals[k].d != floor(reals[k].d) || isinf(reals[k].d) || k == 11 ||
                           fabs(reals[k].d) > 9e18));
        l->is_real = 1;
        l->d = reals[k].d;
        app(b, "%s", reals[k].t);
        return;
    }
    if (is_flt_col(c)) {
        static const struct { const char *t; double d; } fl[] = {
            {"0.5", 0.5},   {"-2.5", -2.5},     {"1", 1},         {"0", 0},
            {"-0.0", -0.0}, {"inf", INFINITY},  {"-inf", -INFINITY}, {"1e300", 1e300},
            {"1e39", 1e39}, {"-1e39", -1e39},   {"0.1", 0.1},     {"2.5", 2.5},
            {"16777217", 16777217}, {"-1e-300", -1e-300}, {"3.4e38", 3.4e38}, {"0x1p-1", 0.5}};
        int k = (int)rnd(in_list ? 15 : 16);
        l->d = fl[k].d;
        app(b, "%s", fl[k].t);
        return;
    }
    if (c == C_B) {
        l->i = rnd(2);
        app(b, "%s", l->i ? (coin(50) ? "true" : "True") : (coin(50) ? "false" : "FALSE"));
        return;
    }
    if (c == C_S) {
        l->s = spool[rnd(NSPOOL)];
        app(b, "\"");
        for (const char *p = l->s; *p; p++) app(b, *p == '"' ? "\"\"" : "%c", *p);
        app(b, "\"");
        return;
    }
    if (c == C_D) {
        l->i = dpool[rnd(9)];
        app(b, "\"");
        app_date(b, l->i);
        app(b, "\""); /* a date literal with a time of day is an error */
        return;
    }
    int u = units[c], k = (int)rnd(NIPOOL);
    int64_t sub = 1000000000 / per_sec(u);
    l->sec = ipool_sec[k];
    l->ns = ipool_ns[k] - ipool_ns[k] % sub; /* no finer than the column */
    int64_t days = l->sec >= 0 ? l->sec / 86400 : -((-l->sec + 86399) / 86400);
    int64_t tod = l->sec - days * 86400;
    app(b, "\"");
    if (is_time_col(c)) {
        l->sec = tod;
        app_clock(b, tod, l->ns, u);
    } else {
        app_date(b, days);
        if (tod || l->ns || coin(50)) {
            app(b, coin(80) ? "T" : " ");
            app_clock(b, tod, l->ns, u);
            if (coin(10)) app(b, "Z");
        }
    }
    app(b, "\"");
}

/* ---- sets bound with pqt_filter_bind (or given to pqt_filter_add_in) ---- */

typedef struct gset {
    char name[16];
    int kind;
    int64_t n;
    int64_t iv[8];
    int32_t i32[8];
    double dv[8];
    float fv[8];
    const char *sv[8];
    uint8_t valid[1];
} gset;

static gset gsets[8];
static int ngsets;

/* members for column c into set g and the leaf's reference items */
static void gen_set(int c, gset *g, tnode *e)
{
    memset(g, 0, sizeof *g);
    g->n = 1 + rnd(6);
    g->valid[0] = 0xff;
    e->nitems = 0;
    int su = (int)rnd(3), f32set = coin(30), i32set = coin(30);
    for (int64_t k = 0; k < g->n; k++) {
        tlit l;
        memset(&l, 0, sizeof l);
        int excluded = coin(15);
        if (excluded) g->valid[0] &= (uint8_t)~(1 << k);
        if (is_int_col(c)) {
            l.i = coin(50) ? ipool[rnd(14)] : rnd(11) - 5;
            if (i32set) l.i = (int32_t)l.i;
            g->iv[k] = l.i;
            g->i32[k] = (int32_t)l.i;
            g->kind = i32set ? PQT_INT32 : PQT_INT64;
        } else if (is_flt_col(c)) {
            double d;
            do d = fpool[rnd(NFPOOL)];
            while (isnan(d));
            g->dv[k] = d;
            g->fv[k] = (float)d;
            l.d = f32set ? (double)(float)d : d;
            g->kind = f32set ? PQT_FLOAT32 : PQT_FLOAT64;
        } else if (c == C_S) {
            l.s = spool[rnd(NSPOOL)];
            g->sv[k] = coin(10) ? NULL : l.s;
            if (!g->sv[k]) excluded = 1;
            g->kind = PQT_STRING;
        } else if (c == C_D) {
            l.i = dpool[rnd(9)];
            g->i32[k] = (int32_t)l.i;
            g->kind = PQT_DATE;
        } else {
            int64_t v;
            for (;;) {
                int p = (int)rnd(NIPOOL);
                l.sec = ipool_sec[p];
                l.ns = ipool_ns[p];
                if (is_time_col(c)) l.sec = ((l.sec % 86400) + 86400) % 86400;
                if (instant_in(l.sec, l.ns, su, &v)) break;
            }
            g->iv[k] = v;
            g->kind = PQT_KIND_UNIT(is_time_col(c) ? PQT_TIME : PQT_TIMESTAMP, su);
        }
        if (!excluded) e->items[e->nitems++] = l;
    }
}

static pqt_status bind_set(pqt_filter *f, const gset *g, const char *column, int negate)
{
    const void *vals = g->kind == PQT_INT32 || g->kind == PQT_DATE ? (const void *)g->i32
                       : g->kind == PQT_FLOAT64                   ? (const void *)g->dv
                       : g->kind == PQT_FLOAT32                   ? (const void *)g->fv
                       : g->kind == PQT_STRING                    ? (const void *)g->sv
                                                                  : (const void *)g->iv;
    if (column) return pqt_filter_add_in(f, column, g->kind, vals, g->n, g->valid, negate);
    return pqt_filter_bind(f, g->name, g->kind, vals, g->n, g->valid);
}

/* ---- rules ---- */

static tnode npool[512];
static int nnodes;

static tnode *node(int type)
{
    tnode *e = &npool[nnodes++];
    memset(e, 0, sizeof *e);
    e->type = type;
    return e;
}

static int valid_op(int c, int op)
{
    if (op == OP_ISNAN || op == OP_ISNOTNAN || op == OP_ISFIN || op == OP_ISNOTFIN)
        return is_flt_col(c);
    if (op == OP_SW || op == OP_EW || op == OP_CT) return c == C_S;
    if (op == OP_IN || op == OP_NOTIN) return c != C_B;
    return 1;
}

static void gen_leaf(gbuf *b, tnode *e)
{
    int c, op;
    do c = (int)rnd(NCOL);
    while (col_off[c]);
    do op = (int)rnd(NOP);
    while (!valid_op(c, op));
    e->col = c;
    e->op = op;
    int plain = !needs_bq(names[c]) && !coin(10);
    if (plain) app(b, "%s", names[c]);
    else app(b, "`%s`", names[c]);
    if (op >= OP_IN) { /* words */
        app(b, " %s", opword[op]);
        if (op >= OP_ISNULL && op <= OP_ISNOTFIN) return;
        if (op == OP_IN || op == OP_NOTIN) {
            if (coin(30) && ngsets < 8) {
                gset *g = &gsets[ngsets];
                gen_set(c, g, e);
                snprintf(g->name, sizeof g->name, "set%d", ngsets++);
                app(b, " @%s", g->name);
                return;
            }
            e->nitems = 1 + (int)rnd(5);
            app(b, coin(50) ? " (" : "(");
            for (int k = 0; k < e->nitems; k++) {
                if (k) app(b, coin(50) ? ", " : ",");
                gen_lit(b, c, &e->items[k], 1);
            }
            app(b, ")");
            return;
        }
        app(b, " ");
        gen_lit(b, c, &e->lit, 0);
        return;
    }
    static const char *const eq[] = {"==", "="}, *const ne[] = {"/=", "!=", "<>"};
    const char *sp = op == OP_EQ ? eq[rnd(2)] : op == OP_NE ? ne[rnd(3)] : opword[op];
    int style = (int)rnd(4); /* 0 "v > 3", 1 "v>3", 2 "v >3", 3 "v> 3" */
    app(b, "%s%s%s", style == 0 || style == 2 ? " " : "", sp, style == 0 || style == 3 ? " " : "");
    gen_lit(b, c, &e->lit, 0);
}

static tnode *gen_expr(gbuf *b, int depth)
{
    if (depth == 0 || coin(35)) {
        tnode *e = node(3);
        int par = coin(10);
        if (par) app(b, "(");
        gen_leaf(b, e);
        if (par) app(b, ")");
        return e;
    }
    if (coin(20)) {
        tnode *e = node(2);
        app(b, coin(80) ? "not " : "NOT ");
        gbuf kb = {.n = 0};
        e->k[0] = gen_expr(&kb, depth - 1);
        e->nk = 1;
        int par = e->k[0]->type != 3 || coin(20);
        app(b, par ? "(%s)" : "%s", kb.s);
        return e;
    }
    tnode *e = node((int)rnd(2));
    e->nk = 2 + (int)rnd(2);
    for (int i = 0; i < e->nk; i++) {
        if (i) app(b, e->type == 0 ? (coin(90) ? " and " : " AND ") : (coin(90) ? " or " : " Or "));
        gbuf kb = {.n = 0};
        e->k[i] = gen_expr(&kb, depth - 1);
        int t = e->k[i]->type;
        /* an or inside an and needs parentheses; an and inside an or does not */
        int par = (e->type == 0 && t == 1) || (t <= 1 && coin(50));
        app(b, par ? "(%s)" : "%s", kb.s);
    }
    return e;
}

