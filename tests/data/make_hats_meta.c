/* SPDX-License-Identifier: Apache-2.0 */
/*
 * make_hats_meta.c - dataset/_metadata and dataset/_common_metadata of a HATS catalogue's
 * copy (tests/data/datasets/hats_small_meta/), through pqt_write_metadata_summary: every
 * member's footer, its row groups' column chunks pointing at the member (file_path). The
 * members are the same files as hats_small's, so DuckDB's answers on hats_small hold for it.
 * make_datasets.mjs builds it against a pqt build that has the call (PQT_BUILD, default
 * build/) and skips the set otherwise:
 *   make_hats_meta DATASET_DIR MEMBER...   (members relative to DATASET_DIR)
 */
#include <stdio.h>

#include "pqt.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: make_hats_meta DATASET_DIR MEMBER...\n");
        return 2;
    }
    pqt_status st = pqt_write_metadata_summary(argv[1], (const char *const *)(argv + 2), argc - 2);
    if (st != PQT_OK) {
        fprintf(stderr, "make_hats_meta: %s\n", pqt_errmsg());
        return 1;
    }
    return 0;
}
