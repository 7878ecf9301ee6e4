/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_list_page.c - libFuzzer target: whole list pages with hostile level counts (issue 9).
 *
 * The input is one or two data pages of a list<int32> or list<string> column, and the
 * counts around them: [flags][page 1 num_values: 4][page 2 num_values: 4][footer num_values:
 * 4][rows: 2][v2 num_rows: 4][v2 rep bytes: 2][v2 def bytes: 2][v2 num_nulls: 4][bodies].
 * flags: bit 0 data page v2, bit 1 string elements, bit 2 two pages (the bodies split in
 * half), bit 3 also read a sub-range. The harness writes the file (tests/unit/pqbuild.c)
 * into a memfd and reads it through the public API. Page counts are the input's own, any
 * int32; the footer's num_values and the row count are bounded (2^20 and 2^16) because
 * that is what an honest file of this size may make the reader produce: the target checks
 * that no page-level claim costs more than the footer allows.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../unit/pqbuild.h"
#include "format/meta.h"
#include "fuzz.h"
#include "pqt_file.h"

static volatile size_t sink;

static void add_page(pqb *w, int v2, int32_t nv, const fz_in *hdr, fz_in body)
{
    fz_in h = *hdr;
    pqb_page p = {.type = v2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA,
                  .uncompressed_size = (int32_t)body.n, .compressed_size = (int32_t)body.n,
                  .num_values = nv, .encoding = PQT_ENC_PLAIN};
    p.num_rows = (int32_t)fz_take(&h, 4);
    p.rep_nbytes = (int32_t)fz_take(&h, 2);
    p.def_nbytes = (int32_t)fz_take(&h, 2);
    p.num_nulls = (int32_t)fz_take(&h, 4);
    pqb hb = {0};
    pqb_page_header(&hb, &p);
    pqb_bytes(w, hb.b, hb.n);
    pqb_bytes(w, body.p, body.n);
    pqb_free(&hb);
}

static void read_rows(pqt_file *f, int64_t lo, int64_t hi)
{
    pqt_array *a = NULL;
    if (pqt_file_read(f, 0, lo, hi, &a) == PQT_OK) {
        const int64_t n = pqt_array_nrows(a), *off = pqt_array_list_offsets(a);
        if (n != hi - lo + 1 || !off || off[0] != 0) abort();
        for (int64_t i = 0; i < n; i++)
            if (off[i + 1] < off[i]) abort();
        const uint8_t *v = pqt_array_validity(a);
        for (int64_t i = 0; v && i < (off[n] + 7) / 8; i++) sink += v[i];
        const int64_t *so = pqt_array_str_offsets(a);
        if (so) {
            for (int64_t i = 0; i < off[n]; i++)
                if (so[i + 1] < so[i]) abort();
            const char *b = pqt_array_bytes(a);
            for (int64_t i = 0; i < so[off[n]]; i++) sink += (uint8_t)b[i];
        } else {
            const int32_t *d = pqt_array_data(a);
            for (int64_t i = 0; i < off[n]; i++) sink += (size_t)d[i];
        }
    }
    pqt_array_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    const int flags = (int)fz_take(&in, 1);
    const int v2 = flags & 1, strings = flags >> 1 & 1, two = flags >> 2 & 1;
    const int32_t nv1 = (int32_t)fz_take(&in, 4), nv2 = (int32_t)fz_take(&in, 4);
    const int64_t footer_nv = (int64_t)(fz_take(&in, 4) & 0xfffff);
    const int64_t rows = (int64_t)fz_take(&in, 2);
    const fz_in hdr = fz_split(&in, 12);
    fz_in body1 = fz_split(&in, two ? in.n / 2 : in.n), body2 = in;

    pqb w = {0};
    pqb_bytes(&w, "PAR1", 4);
    const int64_t off = (int64_t)w.n;
    add_page(&w, v2, nv1, &hdr, body1);
    if (two) add_page(&w, v2, nv2, &hdr, body2);
    const int64_t nbytes = (int64_t)w.n - off;
    pqb_col col = {"l", strings ? PQT_PT_BYTE_ARRAY : PQT_PT_INT32, PQT_REP_OPTIONAL, true, 0};
    pqb_chunk ch = {off, nbytes, footer_nv, nbytes, PQT_CODEC_UNCOMPRESSED};
    pqb_footer(&w, &col, 1, 1, &rows, &ch);

    const int fd = memfd_create("fuzz_list_page.parquet", MFD_CLOEXEC);
    if (fd < 0 || write(fd, w.b, w.n) != (ssize_t)w.n) goto done;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    pqt_opts *opts = NULL;
    pqt_file *f = NULL;
    if (pqt_opts_new(&opts) != PQT_OK) goto done;
    (void)pqt_opts_set_int(opts, PQT_OPT_THREADS, 1);
    (void)pqt_opts_set_int(opts, PQT_OPT_BINARY_AS_STRING, 1);
    if (pqt_file_open(path, opts, &f) == PQT_OK && rows > 0) {
        read_rows(f, 1, rows);
        if (flags >> 3 & 1 && rows > 1) read_rows(f, 2, rows);
    }
    pqt_file_close(f);
    pqt_opts_free(opts);
done:
    if (fd >= 0) close(fd);
    pqb_free(&w);
    return 0;
}
