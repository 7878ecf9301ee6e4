/* SPDX-License-Identifier: Apache-2.0 */
/*
 * selection_loop.c - predicates of your own, row group by row group, written from pqt.h alone
 * (the filter pass by hand; docs/pruning.md, "Per row group"): start with every row selected, read
 * one column for the rows still selected, evaluate anything on it, refine the selection, and read
 * the next column only for the rows that survive; the payload columns are read for the survivors
 * alone.
 *
 * The query, on the object catalogue (per row group):
 *   1. drop rows 101..150 of the row group (say, a stretch flagged bad) -- ranges, not, and;
 *   2. quality >= 2 (a null quality drops the row);
 *   3. a cone search: angular distance from (ra, dec) = (200, 10) degrees below 40 degrees;
 *   4. survey is "SDSS" or "Gaia";
 * then name, mass and mag[2] of each survivor. Run from the repository root:
 *   selection_loop [examples/catalogue.parquet]
 * tests/test_selection_loop.sh checks its output against DuckDB computing the same query.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqt_file.h"

#define TRY(x)                                                                                     \
    do {                                                                                           \
        if ((x) != PQT_OK) {                                                                       \
            fprintf(stderr, "selection_loop: %s: %s\n", #x, pqt_errmsg());                         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const double PI = 3.14159265358979323846;

static int present(const uint8_t *validity, int64_t i)
{
    return !validity || (validity[i / 8] >> (i % 8) & 1);
}

static const char *fmt(double v, char *buf)
{
    pqt_format_float64(v, buf, PQT_NUMBER_TEXT_MAX);
    return buf;
}

static int column(pqt_file *f, const char *name)
{
    int col;
    TRY(pqt_file_find_column(f, name, &col));
    return col;
}

/* Read column `name` of row group rg for the selected rows, evaluate `keep` on each row
 * read, and refine the selection by the verdicts. Returns the rows still selected. */
typedef int (*verdict_fn)(const pqt_array *a, int64_t k, const pqt_array *b);
static int64_t refine_by(pqt_file *f, int rg, pqt_selection *sel, const char *name,
                         const char *name2, verdict_fn keep)
{
    pqt_array *a, *b = NULL;
    TRY(pqt_file_read_selected(f, column(f, name), rg, sel, &a));
    if (name2) TRY(pqt_file_read_selected(f, column(f, name2), rg, sel, &b));
    int64_t n = pqt_array_nrows(a);
    uint8_t *verdict = malloc((size_t)n + 1);
    for (int64_t k = 0; k < n; k++) verdict[k] = (uint8_t)keep(a, k, b);
    TRY(pqt_selection_refine(sel, verdict, n));
    free(verdict);
    pqt_array_free(a);
    pqt_array_free(b);
    return pqt_selection_count(sel);
}

static int quality_ok(const pqt_array *q, int64_t k, const pqt_array *unused)
{
    (void)unused;
    return present(pqt_array_validity(q), k) && ((const int32_t *)pqt_array_data(q))[k] >= 2;
}

/* cos(distance) from (ra0, dec0) above cos(radius); a null coordinate drops the row */
static int in_cone(const pqt_array *ra, int64_t k, const pqt_array *dec)
{
    const double ra0 = 200.0, dec0 = 10.0, radius = 40.0, d = PI / 180.0;
    if (!present(pqt_array_validity(ra), k) || !present(pqt_array_validity(dec), k)) return 0;
    double r = ((const double *)pqt_array_data(ra))[k] * d;
    double de = ((const double *)pqt_array_data(dec))[k] * d;
    double c = sin(dec0 * d) * sin(de) + cos(dec0 * d) * cos(de) * cos(r - ra0 * d);
    return c > cos(radius * d);
}

static int survey_ok(const pqt_array *s, int64_t k, const pqt_array *unused)
{
    (void)unused;
    if (!present(pqt_array_validity(s), k)) return 0;
    const int64_t *off = pqt_array_str_offsets(s);
    const char *p = pqt_array_bytes(s) + off[k];
    size_t len = (size_t)(off[k + 1] - off[k]);
    return (len == 4 && memcmp(p, "SDSS", 4) == 0) || (len == 4 && memcmp(p, "Gaia", 4) == 0);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "examples/catalogue.parquet";
    pqt_file *f;
    TRY(pqt_file_open(path, NULL, &f));
    int64_t first = 1, total = 0;
    double mass_sum = 0;
    for (int rg = 0; rg < pqt_file_nrow_groups(f); rg++) {
        int64_t nrows = pqt_file_row_group_nrows(f, rg);
        pqt_selection *sel, *flagged;
        TRY(pqt_selection_new(nrows, 1, &sel));
        /* 1. rows 101..150 out: a range, complemented, and-ed in */
        const int64_t bad[2] = {101, 150};
        TRY(pqt_selection_from_ranges(bad, nrows >= 150 ? 1 : 0, nrows, &flagged));
        TRY(pqt_selection_not(flagged));
        TRY(pqt_selection_and(sel, flagged));
        pqt_selection_free(flagged);
        int64_t n1 = pqt_selection_count(sel);
        /* 2..4: each column read for the rows still selected only */
        int64_t n2 = refine_by(f, rg, sel, "quality", NULL, quality_ok);
        int64_t n3 = refine_by(f, rg, sel, "ra", "dec", in_cone);
        int64_t n4 = refine_by(f, rg, sel, "survey", NULL, survey_ok);
        printf("row group %d: %lld rows, unflagged %lld, quality %lld, cone %lld, survey %lld\n",
               rg + 1, (long long)nrows, (long long)n1, (long long)n2, (long long)n3,
               (long long)n4);
        /* the payload, survivors only */
        pqt_array *name, *mass, *mag;
        TRY(pqt_file_read_selected(f, column(f, "name"), rg, sel, &name));
        TRY(pqt_file_read_selected(f, column(f, "mass"), rg, sel, &mass));
        TRY(pqt_file_read_selected(f, column(f, "mag"), rg, sel, &mag));
        int64_t *rows = malloc((size_t)n4 * sizeof *rows + 1);
        TRY(pqt_selection_to_rows(sel, rows, n4));
        const int64_t *noff = pqt_array_str_offsets(name), *moff = pqt_array_list_offsets(mag);
        const double *m = pqt_array_data(mass);
        const float *g = pqt_array_data(mag);
        for (int64_t k = 0; k < n4; k++) {
            char b1[PQT_NUMBER_TEXT_MAX], b2[PQT_NUMBER_TEXT_MAX];
            int64_t nm = moff[k + 1] - moff[k];
            printf("  row %lld: %.*s mass %s mag[2] %s\n", (long long)(first + rows[k] - 1),
                   (int)(noff[k + 1] - noff[k]), pqt_array_bytes(name) + noff[k],
                   present(pqt_array_validity(mass), k) ? fmt(m[k], b1) : "null",
                   nm >= 2 ? fmt((double)g[moff[k] + 1], b2) : "null");
            if (present(pqt_array_validity(mass), k)) mass_sum += m[k];
        }
        total += n4;
        free(rows);
        pqt_array_free(name);
        pqt_array_free(mass);
        pqt_array_free(mag);
        pqt_selection_free(sel);
        first += nrows;
    }
    char b[PQT_NUMBER_TEXT_MAX];
    printf("survivors %lld, mass sum %s\n", (long long)total, fmt(mass_sum, b));
    pqt_file_close(f);
    return 0;
}
