/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_page_header.c - libFuzzer target: the input is the bytes at a page's offset in a
 * column chunk. Decode page headers one after another, as the chunk reader walks a chunk,
 * skipping each page's compressed bytes, until the input runs out or a header is refused.
 */
#include "fuzz.h"
#include "format/meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    for (int pages = 0; pages < 1000 && pos < size; pages++) {
        pqt_page_header h;
        size_t hn = 0;
        if (pqt_meta_decode_page_header(data + pos, size - pos, (int64_t)pos, &h, &hn) != PQT_OK)
            break;
        /* The decoder's own promise: the header lies inside what it was given. */
        if (hn == 0 || hn > size - pos) abort();
        pos += hn;
        if (h.compressed_size < 0 || (size_t)h.compressed_size > size - pos) break;
        pos += (size_t)h.compressed_size;
    }
    return 0;
}
