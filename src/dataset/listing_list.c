/* SPDX-License-Identifier: Apache-2.0 */
/*
 * listing_list.c - a dataset's list of members, whoever made it (the disk walk, a glob, a
 * HATS catalogue, a bucket's listing): its order, its summaries beside the root, freeing it
 * (layer: dataset).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dataset/listing.h"
#include "util/mem.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

bool pqt_ds_is_pattern(const char *spec)
{
    return spec && strpbrk(spec, "*?[") != NULL;
}

int pqt_ds_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void pqt_ds_list_free(pqt_ds_list *l)
{
    if (!l) return;
    for (int64_t i = 0; i < l->n && l->rel; i++)
        pqt_mem_free(l->rel[i]);
    if (l->values)
        for (int64_t i = 0; i < l->n * l->nkeys; i++)
            pqt_mem_free(l->values[i]);
    for (int k = 0; k < l->nkeys && l->keys; k++)
        pqt_mem_free(l->keys[k]);
    pqt_mem_free(l->root);
    pqt_mem_free(l->rel);
    pqt_mem_free(l->keys);
    pqt_mem_free(l->values);
    pqt_mem_free(l->key_is_int);
    pqt_mem_free(l->hats_ra);
    pqt_mem_free(l->hats_dec);
    pqt_mem_free(l->hats_order);
    pqt_mem_free(l->hats_pix);
    pqt_mem_free(l->hats_healpix);
    memset(l, 0, sizeof *l);
}

void pqt_ds_list_find_summaries(pqt_ds_list *l)
{
    char p[PATH_MAX];
    struct stat st;
    const char *sep = l->root[0] && l->root[strlen(l->root) - 1] != '/' ? "/" : "";
    int len = snprintf(p, sizeof p, "%s%s_metadata", l->root, sep);
    l->has_metadata = len > 0 && (size_t)len < sizeof p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
    len = snprintf(p, sizeof p, "%s%s_common_metadata", l->root, sep);
    l->has_common_metadata =
        len > 0 && (size_t)len < sizeof p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}
