/* SPDX-License-Identifier: Apache-2.0 */
/* example.c - the smallest useful pqt program: open a Parquet file, say what it holds, and
 * sum its "mass" column (nulls skipped). Build: see CMakeLists.txt next to this file. */
#include <stdio.h>
#include <stdlib.h>

#include <pqt_file.h>

int main(int argc, char **argv)
{
    pqt_file *f;
    int col;
    if (argc != 2) return fprintf(stderr, "usage: %s FILE.parquet\n", argv[0]), 2;
    printf("pqt_version_number %u\n", pqt_version_number());
    if (pqt_file_open(argv[1], NULL, &f) != PQT_OK)
        return fprintf(stderr, "%s: %s\n", argv[1], pqt_errmsg()), 1;
    int64_t n = pqt_file_nrows(f);
    printf("%s: %lld rows, %d columns\n", argv[1], (long long)n, pqt_file_ncols(f));

    double *mass = malloc((size_t)(n > 0 ? n : 1) * sizeof *mass);
    uint8_t *valid = malloc((size_t)(n + 7) / 8 + 1);
    if (pqt_file_find_column(f, "mass", &col) != PQT_OK || !mass || !valid ||
        (n > 0 &&
         pqt_file_read_into(f, col, 1, n, mass, (size_t)n * sizeof *mass, valid) != PQT_OK))
        return fprintf(stderr, "%s: no float64 column 'mass' (%s)\n", argv[1], pqt_errmsg()), 1;
    double sum = 0;
    for (int64_t i = 0; i < n; i++)
        if (valid[i / 8] >> (i % 8) & 1) sum += mass[i];
    printf("sum of mass: %.17g\n", sum);
    free(mass);
    free(valid);
    pqt_file_close(f);
    return 0;
}
