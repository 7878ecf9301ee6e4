/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_stats.c - `pqt stats FILE [-c a,b] [--where RULE]... [-f table|json|jsonl]`: a summary
 * of each column, like DuckDB's SUMMARIZE: its type, rows, nulls, min, max, distinct values,
 * and mean and standard deviation of numbers.
 *
 * The table is opened with the rules (the filter runs at open) and each column is read
 * whole, one at a time, in one pass that keeps the count, nulls, the rows of the least and
 * greatest value, Welford's running mean and variance, and the distinct values: exactly
 * (a set of 64-bit hashes) up to DISTINCT_EXACT_MAX of them, past that a HyperLogLog
 * estimate (2^14 registers, about 0.8% standard error). Min and max print as cat prints
 * values (docs/output.md); floats skip NaN, which is counted apart.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools.h"

static const char usage[] =
    "usage: pqt stats FILE [-c a,b] [-w RULE]... [-f table|json|jsonl] [--no-crc]\n"
    "\n"
    "Summarize each column (like DuckDB's SUMMARIZE): type (as pqt schema names it), rows,\n"
    "nulls, min, max, distinct values, and for numbers the mean and the standard deviation\n"
    "(sample, n - 1). One pass over the rows, one column at a time.\n"
    "  -c, --columns a,b  only these columns (dotted paths), in this order\n"
    "  -w, --where RULE   only rows for which RULE is true (docs/filters.md); repeatable\n"
    "  -f, --format F     table (default), json (one array of objects) or jsonl (one object\n"
    "                     a column), any case. Keys: column, type, count (non-null values),\n"
    "                     nulls, nans (floats: NaN values, counted in count but not in\n"
    "                     min, max, distinct, mean), min, max (typed as in cat -f jsonl;\n"
    "                     null when no value), distinct, distinct_exact (false: a HyperLogLog "
    "estimate,\n"
    "                     past 65536 values, within about 1%), mean, stddev (numbers; null\n"
    "                     otherwise)\n"
    "  --no-crc           do not verify page checksums (CRC32)\n"
    "  -h, --help         this text\n"
    "Lists and vectors: count and nulls are of rows; min, max, distinct of their elements.\n"
    "Decimals are summarized as float64 (pqt schema shows 'read as float64'); booleans as\n"
    "false < true, mean the fraction true.\n";

static const argopt opts[] = {{"--columns", 'c', 1},
                              {"--where", 'w', 1},
                              {"--format", 'f', 1},
                              {"--no-crc", 0, 0},
                              {NULL, 0, 0}};

#define DISTINCT_EXACT_MAX 65536
#define HLL_BITS 14

typedef struct summary {
    int64_t count, nulls, nans, imin, imax; /* imin/imax: element of the least/greatest */
    int64_t nnum;                           /* values in the mean (not NaN) */
    double mean, m2;                        /* Welford */
    int numeric;
    uint64_t *set; /* open addressing, 0 = empty (a hash of 0 is stored as 1) */
    size_t set_n, set_cap;
    int exact;
    uint8_t hll[1 << HLL_BITS];
} summary;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x ? x : 1;
}

static uint64_t hash_bytes(const char *s, int64_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (int64_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
    return mix(h ^ (uint64_t)n);
}

static void *need(void *p)
{
    if (!p) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    return p;
}

static void set_add(summary *s, uint64_t h)
{
    if (!s->exact) return;
    if (2 * (s->set_n + 1) > s->set_cap) {
        if (s->set_n >= DISTINCT_EXACT_MAX) {
            s->exact = 0; /* the registers take over */
            free(s->set);
            s->set = NULL;
            return;
        }
        size_t cap = s->set_cap ? 2 * s->set_cap : 1024;
        uint64_t *t = need(calloc(cap, sizeof *t));
        for (size_t i = 0; i < s->set_cap; i++)
            if (s->set[i])
                for (size_t j = s->set[i] & (cap - 1);; j = (j + 1) & (cap - 1))
                    if (!t[j]) {
                        t[j] = s->set[i];
                        break;
                    }
        free(s->set);
        s->set = t;
        s->set_cap = cap;
    }
    for (size_t j = h & (s->set_cap - 1);; j = (j + 1) & (s->set_cap - 1)) {
        if (s->set[j] == h) return;
        if (!s->set[j]) {
            s->set[j] = h;
            s->set_n++;
            return;
        }
    }
}

static void add_hash(summary *s, uint64_t h)
{
    uint32_t reg = (uint32_t)(h >> (64 - HLL_BITS));
    uint64_t rest = h << HLL_BITS;
    uint8_t rank = 1;
    while (rank <= 64 - HLL_BITS && !(rest & (1ULL << 63))) {
        rank++;
        rest <<= 1;
    }
    if (rank > s->hll[reg]) s->hll[reg] = rank;
    set_add(s, h);
}

static double distinct(const summary *s)
{
    if (s->exact) return (double)s->set_n;
    double m = 1 << HLL_BITS, sum = 0;
    int zeros = 0;
    for (int i = 0; i < (1 << HLL_BITS); i++) {
        sum += ldexp(1.0, -s->hll[i]);
        zeros += s->hll[i] == 0;
    }
    double e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (e <= 2.5 * m && zeros) e = m * log(m / zeros); /* small range: linear counting */
    return floor(e + 0.5);
}

static void welford(summary *s, double x)
{
    int64_t n = ++s->nnum;
    double d = x - s->mean;
    s->mean += d / (double)n;
    s->m2 += d * (x - s->mean);
}

/* The element i's value for ordering: -1, 0, 1. */
static int cmp_elem(const colview *v, int64_t a, int64_t b)
{
    switch (v->elem) {
    case PQT_INT32:
    case PQT_DATE: {
        int32_t x = ((const int32_t *)v->data)[a], y = ((const int32_t *)v->data)[b];
        return (x > y) - (x < y);
    }
    case PQT_UINT64: {
        uint64_t x = ((const uint64_t *)v->data)[a], y = ((const uint64_t *)v->data)[b];
        return (x > y) - (x < y);
    }
    case PQT_FLOAT32: {
        float x = ((const float *)v->data)[a], y = ((const float *)v->data)[b];
        return (x > y) - (x < y);
    }
    case PQT_FLOAT64: {
        double x = ((const double *)v->data)[a], y = ((const double *)v->data)[b];
        return (x > y) - (x < y);
    }
    case PQT_BOOL: {
        uint8_t x = ((const uint8_t *)v->data)[a], y = ((const uint8_t *)v->data)[b];
        return (x > y) - (x < y);
    }
    case PQT_STRING: {
        int64_t na = v->str_off[a + 1] - v->str_off[a], nb = v->str_off[b + 1] - v->str_off[b];
        int c =
            memcmp(v->bytes + v->str_off[a], v->bytes + v->str_off[b], (size_t)(na < nb ? na : nb));
        return c ? (c > 0) - (c < 0) : (na > nb) - (na < nb);
    }
    default: { /* INT64, TIME, TIMESTAMP */
        int64_t x = ((const int64_t *)v->data)[a], y = ((const int64_t *)v->data)[b];
        return (x > y) - (x < y);
    }
    }
}

/* One pass over the elements of the column. */
static void summarize(const colview *v, int64_t nelem, int array, summary *s)
{
    s->exact = 1;
    s->imin = s->imax = -1;
    int e = v->elem;
    s->numeric = e == PQT_INT32 || e == PQT_INT64 || e == PQT_UINT64 || e == PQT_FLOAT32 ||
                 e == PQT_FLOAT64 || e == PQT_BOOL;
    for (int64_t i = 0; i < nelem; i++) {
        if (v->valid && !((v->valid[i >> 3] >> (i & 7)) & 1)) {
            if (!array) s->nulls++;
            continue;
        }
        double x = 0;
        uint64_t h;
        switch (e) {
        case PQT_INT32:
        case PQT_DATE:
            x = ((const int32_t *)v->data)[i];
            h = mix((uint64_t)(int64_t)x);
            break;
        case PQT_UINT64: {
            uint64_t u = ((const uint64_t *)v->data)[i];
            x = (double)u;
            h = mix(u);
            break;
        }
        case PQT_FLOAT32:
        case PQT_FLOAT64: {
            x = e == PQT_FLOAT32 ? ((const float *)v->data)[i] : ((const double *)v->data)[i];
            if (x != x) { /* a value, but not in min, max, mean or distinct */
                s->nans++;
                s->count++;
                continue;
            }
            double z = x == 0 ? 0 : x; /* -0 and 0 are one value */
            uint64_t bits;
            memcpy(&bits, &z, sizeof bits);
            h = mix(bits);
            break;
        }
        case PQT_BOOL:
            x = ((const uint8_t *)v->data)[i];
            h = mix((uint64_t)x + 7);
            break;
        case PQT_STRING:
            h = hash_bytes(v->bytes + v->str_off[i], v->str_off[i + 1] - v->str_off[i]);
            break;
        default: {
            int64_t y = ((const int64_t *)v->data)[i];
            x = (double)y;
            h = mix((uint64_t)y);
        }
        }
        s->count++;
        if (s->numeric) welford(s, x);
        add_hash(s, h);
        if (s->imin < 0 || cmp_elem(v, i, s->imin) < 0) s->imin = i;
        if (s->imax < 0 || cmp_elem(v, i, s->imax) > 0) s->imax = i;
    }
}

enum { OUT_TABLE, OUT_JSON, OUT_JSONL };

typedef struct row {
    rbuf f[9];
} row;
static const char *const keys[9] = {"column", "type",     "count", "nulls", "min",
                                    "max",    "distinct", "mean",  "stddev"};

/* A scalar view of element i as render_cell prints it. */
static void put_elem(rbuf *b, const colview *v, int64_t i, int style)
{
    colview one = *v;
    one.kind = v->elem;
    one.width = 1;
    render_cell(b, &one, i, style);
}

static void put_num(rbuf *b, double d, int json)
{
    if (json) {
        render_double(b, d, 1);
        return;
    }
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.6g", d);
    rb_puts(b, tmp);
}

static int stats_column(pqt_table *t, const pqt_file *f, const char *name, int out, row *r)
{
    pqt_column_view cv;
    memset(&cv, 0, sizeof cv);
    cv.struct_size = sizeof cv;
    if (pqt_table_column(t, name, 0, &cv) != PQT_OK) return -1;
    colview v;
    memset(&v, 0, sizeof v);
    v.kind = cv.kind;
    v.elem = PQT_KIND_ELEMENT(cv.kind);
    v.width = cv.width < 1 ? 1 : cv.width;
    v.unit = cv.time_unit;
    int col = -1;
    if (pqt_file_find_column(f, name, &col) == PQT_OK) v.utc = pqt_file_column_utc(f, col) == 1;
    v.nrows = cv.nrows;
    v.data = cv.data;
    v.valid = cv.validity;
    v.row_valid = cv.row_validity;
    v.str_off = cv.str_offsets;
    v.list_off = cv.list_offsets;
    v.bytes = cv.str_bytes;
    int array = (cv.kind & (PQT_VECTOR | PQT_LIST)) != 0;
    summary *s = need(calloc(1, sizeof *s));
    summarize(&v, cv.nelem, array, s);
    int64_t count = s->count, nulls = s->nulls;
    if (array) { /* rows, not elements */
        nulls = 0;
        for (int64_t i = 0; cv.row_validity && i < cv.nrows; i++)
            nulls += !((cv.row_validity[i >> 3] >> (i & 7)) & 1);
        count = cv.nrows - nulls;
    }
    rbuf type = {0};
    if (col >= 0) tool_type_label(f, col, cv.kind, 0, &type);
    double dist = distinct(s);
    int json = out != OUT_TABLE;
    int style = STYLE_TABLE;
    if (json) {
        /* one compact object: a jsonl line, or an element of the json array */
        rbuf *o = &r->f[0];
        char tmp[64];
        rb_puts(o, "{\"column\":");
        render_json_string(o, name, strlen(name));
        rb_puts(o, ",\"type\":");
        const char *ty = type.p ? type.p : pqt_kind_name(cv.kind);
        render_json_string(o, ty, strlen(ty));
        snprintf(tmp, sizeof tmp, ",\"count\":%lld,\"nulls\":%lld,\"nans\":", (long long)count,
                 (long long)nulls);
        rb_puts(o, tmp);
        if (v.elem == PQT_FLOAT32 || v.elem == PQT_FLOAT64) {
            snprintf(tmp, sizeof tmp, "%lld", (long long)s->nans);
            rb_puts(o, tmp);
        } else {
            rb_puts(o, "null");
        }
        for (int k = 0; k < 2; k++) {
            int64_t i = k ? s->imax : s->imin;
            rb_puts(o, k ? ",\"max\":" : ",\"min\":");
            if (i < 0)
                rb_puts(o, "null");
            else
                put_elem(o, &v, i, STYLE_JSON);
        }
        snprintf(tmp, sizeof tmp, ",\"distinct\":%lld,\"distinct_exact\":%s", (long long)dist,
                 s->exact ? "true" : "false");
        rb_puts(o, tmp);
        for (int k = 0; k < 2; k++) {
            rb_puts(o, k ? ",\"stddev\":" : ",\"mean\":");
            if (!s->numeric || s->nnum < 1 + k)
                rb_puts(o, "null");
            else
                put_num(o, k ? sqrt(s->m2 / (double)(s->nnum - 1)) : s->mean, 1);
        }
        rb_putc(o, '}');
    } else {
        char tmp[64];
        rb_puts(&r->f[0], name);
        rb_puts(&r->f[1], type.p ? type.p : pqt_kind_name(cv.kind));
        snprintf(tmp, sizeof tmp, "%lld", (long long)count);
        rb_puts(&r->f[2], tmp);
        snprintf(tmp, sizeof tmp, "%lld", (long long)nulls);
        rb_puts(&r->f[3], tmp);
        for (int k = 0; k < 2; k++) {
            int64_t i = k ? s->imax : s->imin;
            size_t at = r->f[4 + k].len;
            if (i < 0)
                rb_puts(&r->f[4 + k], "NULL");
            else
                put_elem(&r->f[4 + k], &v, i, style);
            /* as cat's table: a string that reads NULL is quoted, apart from a null */
            if (i >= 0 && v.elem == PQT_STRING && r->f[4 + k].len - at == 4 &&
                memcmp(r->f[4 + k].p + at, "NULL", 4) == 0) {
                r->f[4 + k].len = at;
                rb_puts(&r->f[4 + k], "\"NULL\"");
            }
        }
        snprintf(tmp, sizeof tmp, "%s%lld", s->exact ? "" : "~", (long long)dist);
        rb_puts(&r->f[6], tmp);
        for (int k = 0; k < 2; k++) {
            if (!s->numeric || s->nnum < 1 + k)
                rb_puts(&r->f[7 + k], "NULL");
            else
                put_num(&r->f[7 + k], k ? sqrt(s->m2 / (double)(s->nnum - 1)) : s->mean, 0);
        }
    }
    rb_free(&type);
    free(s->set);
    free(s);
    return 0;
}

static void print_rows(row *rows, int n)
{
    size_t width[9];
    for (int k = 0; k < 9; k++) {
        width[k] = strlen(keys[k]);
        for (int i = 0; i < n; i++) {
            size_t c = tool_text_width(rows[i].f[k].p ? rows[i].f[k].p : "", rows[i].f[k].len);
            if (c > width[k]) width[k] = c;
        }
    }
    for (int i = -1; i < n; i++) {
        rbuf line = {0};
        for (int k = 0; k < 9; k++) {
            const char *x = i < 0 ? keys[k] : rows[i].f[k].p ? rows[i].f[k].p : "";
            size_t c = tool_text_width(x, strlen(x));
            int right = k >= 2 && k != 4 && k != 5 && i >= 0;
            if (right)
                for (size_t p = c; p < width[k]; p++)
                    rb_putc(&line, ' ');
            rb_puts(&line, x);
            if (k < 8 && !right)
                for (size_t p = c; p < width[k]; p++)
                    rb_putc(&line, ' ');
            if (k < 8) rb_puts(&line, "  ");
        }
        while (line.len && line.p[line.len - 1] == ' ')
            line.p[--line.len] = '\0';
        puts(line.p);
        rb_free(&line);
    }
}

static int run(const char *path, const char *columns, const tool_where *where, int no_crc, int out)
{
    pqt_file *f;
    if (tool_open(path, &f) != EXIT_OK) return EXIT_FAIL;
    tool_where_open_args oa = {0};
    oa.where = where;
    oa.no_crc = no_crc;
    oa.int96_unit = -1;
    oa.row_lo = oa.row_hi = TOOL_ROW_OPEN;
    pqt_table *t = NULL;
    if (tool_where_open(path, &oa, &t) != PQT_OK) {
        pqt_file_close(f);
        return tool_fail(path);
    }
    /* the columns: --columns, or every readable one */
    int ncols = pqt_file_ncols(f), n = 0;
    const char **names =
        need(calloc((size_t)ncols + 1 + (columns ? strlen(columns) : 0), sizeof *names));
    char *list = NULL;
    if (columns) {
        list = need(malloc(strlen(columns) + 1));
        memcpy(list, columns, strlen(columns) + 1);
        for (char *p = strtok(list, ","); p; p = strtok(NULL, ",")) {
            while (*p == ' ')
                p++;
            char *e = p + strlen(p);
            while (e > p && e[-1] == ' ')
                *--e = '\0';
            names[n++] = p;
        }
    } else {
        for (int c = 0; c < ncols; c++)
            if (!pqt_file_column_unsupported_reason(f, c)) names[n++] = pqt_file_column_path(f, c);
    }
    row *rows = need(calloc((size_t)n + 1, sizeof *rows));
    int rc = EXIT_OK;
    for (int i = 0; i < n && rc == EXIT_OK; i++)
        if (stats_column(t, f, names[i], out, &rows[i]) != 0) rc = tool_fail(path);
    if (rc == EXIT_OK && out == OUT_TABLE) {
        print_rows(rows, n);
    } else if (rc == EXIT_OK) {
        if (out == OUT_JSON) fputs("[", stdout);
        for (int i = 0; i < n; i++) {
            if (out == OUT_JSON && i) fputs(",\n", stdout);
            fputs(rows[i].f[0].p, stdout);
            if (out == OUT_JSONL) fputc('\n', stdout);
        }
        if (out == OUT_JSON) fputs(n ? "\n]\n" : "]\n", stdout);
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 9; k++)
            rb_free(&rows[i].f[k]);
    free(rows);
    free(list);
    free(names);
    pqt_table_close(t);
    pqt_file_close(f);
    if (rc == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
        fputs("pqt: cannot write the output\n", stderr);
        rc = EXIT_FAIL;
    }
    return rc;
}

int cmd_stats(int argc, char **argv)
{
    argscan s;
    const char *path = NULL, *columns = NULL, *format = NULL;
    tool_where where = {0};
    int no_crc = 0, rc = -1;
    argscan_init(&s, argc, argv);
    for (int r; rc < 0 && (r = argscan_next(&s, opts)) != ARG_END;) {
        if (r == ARG_HELP) {
            fputs(usage, stdout);
            rc = EXIT_OK;
        } else if (r != ARG_OPERAND && r != ARG_OPTION) {
            rc = tool_bad_option("stats", usage, r, s.opt);
        } else if (r == ARG_OPERAND) {
            if (path) rc = tool_usage_error("stats", usage, "unexpected argument", s.value);
            path = s.value;
        } else if (strcmp(s.opt, "--columns") == 0) {
            columns = s.value;
        } else if (strcmp(s.opt, "--where") == 0) {
            rc = tool_where_add(&where, "stats", usage, s.value);
        } else if (strcmp(s.opt, "--format") == 0) {
            format = s.value;
        } else {
            no_crc = 1;
        }
    }
    int out = OUT_TABLE;
    if (rc < 0 && format) {
        out = strcasecmp(format, "table") == 0   ? OUT_TABLE
              : strcasecmp(format, "json") == 0  ? OUT_JSON
              : strcasecmp(format, "jsonl") == 0 ? OUT_JSONL
                                                 : -1;
        if (out < 0)
            rc =
                tool_usage_error("stats", usage, "unknown --format (table, json or jsonl)", format);
    }
    if (rc < 0 && !path) rc = tool_usage_error("stats", usage, "missing FILE", NULL);
    if (rc < 0) rc = run(path, columns, &where, no_crc, out);
    tool_where_free(&where);
    return rc;
}
