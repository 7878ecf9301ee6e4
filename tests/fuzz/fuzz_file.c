/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_file.c - libFuzzer target: the input is a whole Parquet file. It is written to a
 * memfd and opened by its /proc path, as a user would open a file: every readable column
 * is read over all rows and over a sub-range (also into caller memory), then the file is
 * opened as a table (the whole file or a slice) and materialized. Results are walked so
 * that AddressSanitizer checks every array the library hands out.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "pqt_file.h"

#define MAX_INTO_ROWS (1 << 16) /* the harness's own read_into block */

static volatile size_t sink;

static void touch(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; p && i < n; i++) sink += b[i];
}

static void walk(const pqt_array *a)
{
    const int kind = pqt_array_kind(a), width = pqt_array_width(a);
    const int64_t nrows = pqt_array_nrows(a);
    int64_t nelem = nrows * (width > 0 ? width : 1);
    const int64_t *lo = pqt_array_list_offsets(a);
    if (kind & PQT_LIST) {
        if (!lo || lo[0] != 0) abort();
        for (int64_t i = 0; i < nrows; i++)
            if (lo[i + 1] < lo[i]) abort();
        nelem = lo[nrows];
        touch(pqt_array_row_validity(a), (size_t)(nrows + 7) / 8);
    }
    touch(pqt_array_validity(a), (size_t)(nelem + 7) / 8);
    if (PQT_KIND_ELEMENT(kind) == PQT_STRING) {
        const int64_t *so = pqt_array_str_offsets(a);
        if (!so || so[0] < 0) abort();
        for (int64_t i = 0; i < nelem; i++)
            if (so[i + 1] < so[i]) abort();
        if (so[nelem] > so[0]) touch(pqt_array_bytes(a) + so[0], (size_t)(so[nelem] - so[0]));
    } else {
        touch(pqt_array_data(a), (size_t)nelem * pqt_kind_elem_nbytes(kind));
    }
}

static void read_col(pqt_file *f, int col, int64_t lo, int64_t hi)
{
    pqt_array *a = NULL;
    if (pqt_file_read(f, col, lo, hi, &a) == PQT_OK) {
        if (pqt_array_nrows(a) != hi - lo + 1) abort();
        walk(a);
    }
    pqt_array_free(a);
    a = NULL; /* decimals: the unscaled integers too (int64 / int128 elements) */
    if (pqt_file_column_decimal(f, col, NULL, NULL) == PQT_OK &&
        pqt_file_read_decimal(f, col, lo, hi, &a) == PQT_OK) {
        if (pqt_array_nrows(a) != hi - lo + 1) abort();
        walk(a);
    }
    pqt_array_free(a);
}

static void read_into(pqt_file *f, int col, int64_t lo, int64_t hi)
{
    const int kind = pqt_file_column_kind(f, col), width = pqt_file_column_width(f, col);
    if ((kind & PQT_LIST) || PQT_KIND_ELEMENT(kind) == PQT_STRING || width < 1) return;
    if (hi - lo + 1 > MAX_INTO_ROWS / width) hi = lo + MAX_INTO_ROWS / width - 1;
    const size_t rows = (size_t)(hi - lo + 1);
    const size_t nbytes = rows * (size_t)width * pqt_kind_elem_nbytes(kind);
    void *data = malloc(nbytes ? nbytes : 1);
    uint8_t *validity = malloc((rows + 7) / 8);
    if (data && validity) (void)pqt_file_read_into(f, col, lo, hi, data, nbytes, validity);
    free(data);
    free(validity);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The sub-range and options come from a hash of the input: its bytes are all file. */
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211u;
    const int fd = memfd_create("fuzz.parquet", MFD_CLOEXEC);
    if (fd < 0) return 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    pqt_opts *opts = NULL;
    if (write(fd, data, size) != (ssize_t)size || pqt_opts_new(&opts) != PQT_OK) goto done;
    /* One thread: the fuzzer wants determinism, and ASan reports are clearer. */
    (void)pqt_opts_set_int(opts, PQT_OPT_THREADS, 1);
    (void)pqt_opts_set_int(opts, PQT_OPT_VERIFY_CRC, (int64_t)(h & 1));
    (void)pqt_opts_set_int(opts, PQT_OPT_BINARY_AS_STRING, (int64_t)(h >> 1 & 1));

    pqt_file *f = NULL;
    int64_t nrows = 0;
    if (pqt_file_open(path, opts, &f) == PQT_OK) {
        nrows = pqt_file_nrows(f);
        for (int col = 0; col < pqt_file_ncols(f); col++) {
            if (pqt_file_column_kind(f, col) == PQT_NONE || nrows <= 0) continue;
            read_col(f, col, 1, nrows);
            const int64_t lo = 1 + (int64_t)((h >> 8) % (uint64_t)nrows);
            const int64_t hi = lo + (int64_t)((h >> 32) % (uint64_t)(nrows - lo + 1));
            read_col(f, col, lo, hi);
            read_into(f, col, lo, hi);
        }
        pqt_file_close(f);
    }
    if (h >> 2 & 1 && nrows > 0) { /* a slice of the table on every other input */
        const int64_t lo = 1 + (int64_t)((h >> 16) % (uint64_t)nrows);
        (void)pqt_opts_set_int(opts, PQT_OPT_ROW_LO, lo);
        (void)pqt_opts_set_int(opts, PQT_OPT_ROW_HI, lo + (int64_t)((h >> 40) % (uint64_t)(nrows - lo + 1)));
    }
    pqt_table *t = NULL;
    if (pqt_table_open(path, opts, &t) == PQT_OK) (void)pqt_table_materialize_all(t);
    pqt_table_close(t);
done:
    pqt_opts_free(opts);
    close(fd);
    return 0;
}
