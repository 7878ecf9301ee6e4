/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_names.c - the name index behind pqt_tbl_find (layer: table): a hash of the slots'
 * names, built on the first lookup of a wide table, so that looking every column up by name
 * costs time linear in the number of columns, not quadratic (the 20,000 names a MAML's
 * remap gave one file column took 7.5 s to list, all of it in the scan).
 *
 * Whatever adds, removes or renames slots drops the index (pqt_tbl_names_drop: those changes
 * hold the table, so no lookup runs beside them). The row index is the one slot a read adds
 * while other threads look names up; it is never dropped for: slots past the index's end are
 * scanned. Lookups may race to build it; the first to publish wins, the others free theirs.
 * Without memory for an index, lookups scan as before.
 */
#include <stdint.h>
#include <string.h>

#include "table/table_int.h"
#include "util/mem.h"

/* Below this many slots a scan is as cheap as a hash and allocates nothing. */
#define NAMES_MIN_SLOTS 32

struct pqt_tbl_names {
    const pqt_tcol *cols; /* the slot array indexed (a reallocation makes the index unusable) */
    int n;                /* slots 0..n-1 indexed */
    uint32_t mask;        /* buckets - 1 */
    int *head;            /* bucket -> first slot + 1 of its chain, 0 = empty */
    int *next;            /* slot -> next slot + 1 in the chain, in slot order */
};

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void names_free(pqt_tbl_names *ix)
{
    if (!ix) return;
    pqt_mem_free(ix->head);
    pqt_mem_free(ix->next);
    pqt_mem_free(ix);
}

void pqt_tbl_names_drop(pqt_table *t)
{
    if (t) names_free(atomic_exchange(&t->names, NULL));
}

static pqt_tbl_names *names_build(const pqt_table *t, int n)
{
    uint32_t nb = 64;
    while (nb < 2u * (uint32_t)n && nb < (1u << 30))
        nb *= 2;
    pqt_tbl_names *ix = pqt_calloc(1, sizeof *ix);
    if (!ix) return NULL;
    ix->head = pqt_calloc(nb, sizeof *ix->head);
    ix->next = pqt_malloc_array((size_t)n, sizeof *ix->next);
    if (!ix->head || !ix->next) {
        names_free(ix);
        return NULL;
    }
    ix->cols = t->cols;
    ix->n = n;
    ix->mask = nb - 1;
    for (int i = n - 1; i >= 0; i--) { /* pushed from the back: each chain in slot order */
        uint32_t b = name_hash(t->cols[i].name) & ix->mask;
        ix->next[i] = ix->head[b];
        ix->head[b] = i + 1;
    }
    return ix;
}

/* The index of t (built now if there is none), or NULL: scan. */
static const pqt_tbl_names *names_get(const pqt_table *t, int ncols)
{
    pqt_table *w = (pqt_table *)t; /* the index is a cache: lookups stay logically const */
    pqt_tbl_names *ix = atomic_load(&w->names);
    if (!ix) {
        pqt_tbl_names *mine = names_build(t, ncols);
        if (!mine) return NULL;
        if (atomic_compare_exchange_strong(&w->names, &ix, mine))
            ix = mine;
        else
            names_free(mine); /* another lookup published first: ix is its index */
    }
    return ix->cols == t->cols && ix->n <= ncols ? ix : NULL;
}

static bool wins(const pqt_table *t, int i)
{
    /* a top-level file column whose own name contains dots wins over a struct leaf spelled
     * alike */
    int fc = t->cols[i].file_col;
    return t->f && fc >= 0 && pqt_file_col(t->f, fc)->top_level;
}

int pqt_tbl_find(const pqt_table *t, const char *name)
{
    if (!t || !name) return -1;
    int ncols = t->ncols, first = -1, from = 0;
    const pqt_tbl_names *ix = ncols >= NAMES_MIN_SLOTS ? names_get(t, ncols) : NULL;
    if (ix) {
        for (int i = ix->head[name_hash(name) & ix->mask] - 1; i >= 0; i = ix->next[i] - 1) {
            if (strcmp(t->cols[i].name, name) != 0) continue;
            if (wins(t, i)) return i;
            if (first < 0) first = i;
        }
        from = ix->n;
    }
    for (int i = from; i < ncols; i++) {
        if (strcmp(t->cols[i].name, name) != 0) continue;
        if (wins(t, i)) return i;
        if (first < 0) first = i;
    }
    return first;
}
