/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oi_read.h - a chunk's OffsetIndex as the file holds it, read with stdio (tests only): the
 * truth the page-skipping tests compare pqt's reads with.
 */
#ifndef PQT_TEST_OI_READ_H
#define PQT_TEST_OI_READ_H

#include <stdio.h>
#include <stdlib.h>

#include "format/meta.h"
#include "testutil.h"

static void test_read_offset_index(const char *path, const pqt_column_chunk *cc, pqt_arena *a,
                                   pqt_offset_index *oi)
{
    REQUIRE_OK(cc->has_offset_index ? PQT_OK : PQT_CORRUPT);
    uint8_t *raw = malloc((size_t)cc->offset_index_length);
    FILE *fp = fopen(path, "rb");
    REQUIRE_OK(fp && fseek(fp, (long)cc->offset_index_offset, SEEK_SET) == 0 &&
                       fread(raw, 1, (size_t)cc->offset_index_length, fp) ==
                           (size_t)cc->offset_index_length
                   ? PQT_OK
                   : PQT_IO);
    fclose(fp);
    REQUIRE_OK(pqt_meta_decode_offset_index(raw, (size_t)cc->offset_index_length,
                                            cc->offset_index_offset, a, oi));
    free(raw);
}

#endif
