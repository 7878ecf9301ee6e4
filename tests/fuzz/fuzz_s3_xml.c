/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_s3_xml.c - libFuzzer target for the ListObjectsV2 reader (src/remote/s3_xml.c): any
 * bytes as a server's answer. Input: the XML itself.
 */
#include <string.h>

#include "fuzz.h"
#include "remote/s3.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pqt_s3_page pg;
    if (pqt_s3_xml_page((const char *)data, size, "fuzz", &pg) != PQT_OK) return 0;
    for (int64_t i = 0; i < pg.n; i++)
        if (!pg.obj[i].key || !pg.obj[i].key[0] || strlen(pg.obj[i].key) > PQT_S3_MAX_KEY ||
            pg.obj[i].size < 0)
            __builtin_trap();
    if (pg.truncated && !pg.err_code && !pg.next_token) __builtin_trap();
    pqt_s3_page_free(&pg);
    return 0;
}
