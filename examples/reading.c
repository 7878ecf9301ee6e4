/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reading.c - the reading guide's program (docs/reading.md), written from pqt.h alone: open a
 * file lazily, read a fixed-width column with its validity bitmap, strings (offsets + bytes),
 * a list column (offsets), a zero-copy view, a slice of 1-based rows, and one slice per row
 * group summed by OpenMP threads. tests/test_reading.sh compares what it prints with DuckDB's
 * answers for the same file.
 *
 *   reading [FILE]      (default examples/catalogue.parquet)
 */
#include <pqt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bit i of a validity bitmap, least significant bit first: 1 = present. */
static int present(const uint8_t *validity, int64_t i)
{
    return validity == NULL || (validity[i >> 3] >> (i & 7)) & 1;
}

static int fail(const char *what)
{
    fprintf(stderr, "reading: %s: %s\n", what, pqt_errmsg());
    return 1;
}

/* Fixed width: every value of mass in one allocation, nulls as 0 with a bit each. */
static int fixed_width(pqt_table *t)
{
    double *mass = NULL;
    uint8_t *valid = NULL;
    int64_t n = 0;
    if (pqt_table_get_alloc(t, "mass", PQT_FLOAT64, (void **)&mass, &valid, &n) != PQT_OK)
        return fail("mass");
    double sum = 0;
    int64_t nnull = 0;
    for (int64_t i = 0; i < n; i++) {
        sum += mass[i]; /* a null holds 0, so the sum needs no test */
        nnull += !present(valid, i);
    }
    printf("mass: %lld rows, %lld null, sum %.6e\n", (long long)n, (long long)nnull, sum);
    pqt_free(mass);
    pqt_free(valid); /* NULL when no value is null: pqt_free(NULL) does nothing */
    return 0;
}

/* Strings: string i is bytes[off[i] .. off[i+1]), not NUL-terminated. */
static int strings(pqt_table *t)
{
    int64_t *off = NULL, n = 0, gaia = 0;
    char *bytes = NULL;
    uint8_t *valid = NULL;
    if (pqt_table_get_strings_alloc(t, "survey", &off, &bytes, &valid, &n) != PQT_OK)
        return fail("survey");
    for (int64_t i = 0; i < n; i++) {
        int64_t len = off[i + 1] - off[i];
        if (present(valid, i) && len == 4 && memcmp(bytes + off[i], "Gaia", 4) == 0) gaia++;
    }
    printf("survey: row 1 is \"%.*s\", %lld rows are \"Gaia\"\n", (int)(off[1] - off[0]), bytes,
           (long long)gaia);
    pqt_free(off);
    pqt_free(bytes);
    pqt_free(valid);
    return 0;
}

/* Lists: row i's elements are data[off[i] .. off[i+1]); a null list row has none. */
static int lists(pqt_table *t)
{
    int64_t *off = NULL, nelem = 0;
    float *mag = NULL;
    uint8_t *valid = NULL, *row_valid = NULL;
    if (pqt_table_get_list_alloc(t, "mag", PQT_FLOAT32, &off, (void **)&mag, &valid, &row_valid,
                                 &nelem) != PQT_OK)
        return fail("mag");
    int64_t nrows = pqt_table_nrows(t), null_rows = 0, null_elems = 0;
    double sum = 0;
    for (int64_t r = 0; r < nrows; r++) {
        null_rows += !present(row_valid, r);
        for (int64_t e = off[r]; e < off[r + 1]; e++) {
            if (present(valid, e))
                sum += mag[e];
            else
                null_elems++;
        }
    }
    printf("mag: %lld elements, %lld null rows, %lld null elements, sum %.4f\n", (long long)nelem,
           (long long)null_rows, (long long)null_elems, sum);
    pqt_free(off);
    pqt_free(mag);
    pqt_free(valid);
    pqt_free(row_valid);
    return 0;
}

/* A view: the table's own storage, no copy; valid until the table changes structure. */
static int view(pqt_table *t)
{
    pqt_column_view v;
    v.struct_size = sizeof v;
    if (pqt_table_column(t, "quality", PQT_INT32, &v) != PQT_OK) return fail("quality");
    const int32_t *q = v.data;
    int64_t four = 0, nnull = 0;
    for (int64_t i = 0; i < v.nrows; i++) {
        if (!present(v.validity, i))
            nnull++;
        else if (q[i] == 4)
            four++;
    }
    printf("quality: %lld null, %lld of quality 4\n", (long long)nnull, (long long)four);
    return 0;
}

/* One table shared by the threads of a region: read first, then every thread reads it. */
static int shared(pqt_table *t)
{
    const char *cols[] = {"ra", "dec", "mass"};
    if (pqt_table_prefetch(t, cols, 3) != PQT_OK) return fail("prefetch"); /* in parallel */
    double total = 0;
    int failed = 0;
#pragma omp parallel for reduction(+ : total) reduction(| : failed)
    for (int part = 0; part < 8; part++) {
        pqt_column_view v; /* resident: taking a view changes nothing, on any thread */
        v.struct_size = sizeof v;
        if (pqt_table_column(t, "mass", PQT_FLOAT64, &v) != PQT_OK) {
            failed = 1;
            continue;
        }
        const double *m = v.data;
        for (int64_t i = v.nrows * part / 8; i < v.nrows * (part + 1) / 8; i++)
            total += m[i];
    }
    if (failed) return fail("shared view");
    printf("shared table: sum of mass %.6e\n", total);
    return 0;
}

/* A slice: rows 101..600 of the file (1-based, inclusive); only their row groups are read. */
static int slice(const char *path)
{
    pqt_opts *o = NULL;
    pqt_table *t = NULL;
    double *mass = NULL;
    int rc = 1;
    if (pqt_opts_new(&o) != PQT_OK) return fail("options");
    if (pqt_opts_set_int(o, PQT_OPT_ROW_LO, 101) != PQT_OK ||
        pqt_opts_set_int(o, PQT_OPT_ROW_HI, 600) != PQT_OK || pqt_table_open(path, o, &t) != PQT_OK)
        goto done;
    int64_t n = 0, id1 = 0;
    if (pqt_table_get_alloc(t, "mass", PQT_FLOAT64, (void **)&mass, NULL, &n) != PQT_OK) goto done;
    if (pqt_table_get_value(t, "id", 1, 0, PQT_INT64, &id1, sizeof id1, NULL) != PQT_OK) goto done;
    double sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += mass[i];
    printf("slice 101:600: %lld rows, row 1 has id %lld, sum of mass %.6e\n", (long long)n,
           (long long)id1, sum);
    rc = 0;
done:
    if (rc) fail("slice");
    pqt_free(mass);
    pqt_table_close(t);
    pqt_opts_free(o);
    return rc;
}

/* One table per row group, each opened and read by the thread that owns the row group. */
static int per_thread(const char *path)
{
    int64_t *b = NULL;
    int nrg = 0, failed = 0;
    if (pqt_row_group_bounds(path, &b, &nrg) != PQT_OK) return fail("row group bounds");
    double total = 0;
#pragma omp parallel for reduction(+ : total) reduction(| : failed) schedule(dynamic)
    for (int rg = 0; rg < nrg; rg++) {
        pqt_opts *o = NULL;
        pqt_table *mine = NULL;
        double *x = NULL;
        int64_t n = 0;
        if (pqt_opts_new(&o) != PQT_OK ||
            pqt_opts_set_int(o, PQT_OPT_ROW_LO, b[2 * rg]) != PQT_OK ||
            pqt_opts_set_int(o, PQT_OPT_ROW_HI, b[2 * rg + 1]) != PQT_OK ||
            pqt_opts_set_int(o, PQT_OPT_THREADS, 1) != PQT_OK ||
            pqt_table_open(path, o, &mine) != PQT_OK ||
            pqt_table_get_alloc(mine, "mass", PQT_FLOAT64, (void **)&x, NULL, &n) != PQT_OK) {
            failed = 1;
        } else {
            for (int64_t i = 0; i < n; i++)
                total += x[i];
        }
        pqt_free(x);
        pqt_table_close(mine);
        pqt_opts_free(o);
    }
    printf("row groups: %d, first 1..%lld, per-thread sum of mass %.6e\n", nrg, (long long)b[1],
           total);
    pqt_free(b);
    return failed ? fail("per-thread read") : 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "examples/catalogue.parquet";
    pqt_table *t = NULL;
    if (pqt_table_open(path, NULL, &t) != PQT_OK) return fail(path); /* footer only */
    printf("%s: %lld rows, %d columns\n", path, (long long)pqt_table_nrows(t), pqt_table_ncols(t));
    int rc = fixed_width(t) || strings(t) || lists(t) || view(t) || shared(t);
    pqt_table_close(t);
    if (!rc) rc = slice(path) || per_thread(path);
    return rc;
}
