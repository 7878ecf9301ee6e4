/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_where.c - `pqt cat --where`: which rows print, and their values gathered from the
 * batches cat reads anyway.
 *
 * The rules go to a table open (PQT_OPT_FILTER), so the library's scan decides the rows:
 * statistics prune row groups, only the filter columns are decoded, and a bad name or type
 * is refused before anything is read. The table's row index (parquet_row_index: the file row
 * of every survivor, in file order, 8 bytes a survivor) is the map from output rows to file
 * rows. The printed columns are then read the way an unfiltered cat reads them (cat_read.c:
 * range reads in batches, exact decimals, INT96 units, lists), each batch spanning file rows
 * from one survivor to another inside one row group, and the survivors' values are gathered
 * into buffers of the tool (cat_gathered) that the writers see as an ordinary batch. So the
 * output is exactly the unfiltered output's lines of the surviving rows, in file order.
 */
#include <stdlib.h>

#include "cat.h"

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("pqt: out of memory\n", stderr);
        exit(EXIT_FAIL);
    }
    return p;
}

static void *xcalloc(size_t n)
{
    void *p = xmalloc(n);
    memset(p, 0, n ? n : 1);
    return p;
}

int cat_where_open(cat_reader *rd, const char *path, const cat_open_args *a, const tool_where *w,
                   int64_t lo, int64_t hi, int64_t nrows, int64_t limit)
{
    tool_where_open_args oa = {w,    a->no_crc, a->binary_as_string, -1, TOOL_ROW_OPEN,
                               TOOL_ROW_OPEN, 0, NULL, 0, NULL};
    if (limit >= 0) oa.limit_plus1 = limit < INT64_MAX ? limit + 1 : INT64_MAX;
    if (lo > 1 || hi < nrows) { /* --rows: the rules apply within the slice */
        oa.row_lo = lo;
        oa.row_hi = hi;
    }
    if (tool_where_open(path, &oa, &rd->t) != PQT_OK) return tool_fail(path);
    rd->nmap = pqt_table_nrows(rd->t);
    /* Every row passes (statistics often prove it): the rows are the file's own, and the
     * row index, 8 bytes a row, is not worth building. */
    if (rd->nmap == 0 || rd->nmap == pqt_table_nrows_unfiltered(rd->t)) return EXIT_OK;
    pqt_column_view v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    if (pqt_table_column(rd->t, PQT_ROW_INDEX, PQT_INT64, &v) != PQT_OK) return tool_fail(path);
    rd->map = v.data;
    return EXIT_OK;
}

static int bit(const uint8_t *bits, int64_t i)
{
    return !bits || (bits[i >> 3] >> (i & 7)) & 1;
}

static void set_bit(uint8_t *bits, int64_t i)
{
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* Scalars of 4 or 8 bytes, the common case, without a memcpy a value. */
static int gather_fixed(cat_gathered *g, const colview *s, const int64_t *rows, int64_t n,
                        int64_t base, size_t esz)
{
    if (esz == 4) {
        const int32_t *src = s->data;
        int32_t *dst = g->data;
        for (int64_t i = 0; i < n; i++)
            dst[i] = src[rows[i] - base];
        return 1;
    }
    if (esz == 8) {
        const int64_t *src = s->data;
        int64_t *dst = g->data;
        for (int64_t i = 0; i < n; i++)
            dst[i] = src[rows[i] - base];
        return 1;
    }
    return 0;
}

void cat_gather(cat_gathered *g, const colview *s, const int64_t *rows, int64_t n, int64_t base)
{
    cat_gathered_free(g);
    g->v = *s;
    g->v.nrows = n;
    int is_list = (s->kind & PQT_LIST) != 0, array = (s->kind & (PQT_VECTOR | PQT_LIST)) != 0;
    int is_str = PQT_KIND_IS_BYTES(s->elem);
    size_t esz = is_str ? 0 : pqt_kind_elem_nbytes(s->elem);
    /* Sizes first: the elements and string bytes of the rows kept. */
    int64_t m = 0, nbytes = 0, lo = 0, hi = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows[i] - base;
        if (array)
            colview_row_elems(s, r, &lo, &hi);
        else
            lo = r, hi = r + 1;
        m += hi - lo;
        if (is_str) nbytes += s->str_off[hi] - s->str_off[lo];
    }
    if (esz && s->data) g->data = xmalloc((size_t)m * esz);
    if (s->valid) g->valid = xcalloc((size_t)(m + 7) / 8);
    if (s->row_valid) g->row_valid = xcalloc((size_t)(n + 7) / 8);
    if (is_list) g->list_off = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    if (is_str) {
        g->str_off = xmalloc(sizeof(int64_t) * (size_t)(m + 1));
        g->bytes = xmalloc((size_t)nbytes);
    }
    if (!array && !is_str && !s->valid && g->data && gather_fixed(g, s, rows, n, base, esz))
        goto views;
    int64_t k = 0, boff = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = rows[i] - base;
        if (array)
            colview_row_elems(s, r, &lo, &hi);
        else
            lo = r, hi = r + 1;
        if (is_list) g->list_off[i] = k;
        if (g->row_valid && bit(s->row_valid, r)) set_bit(g->row_valid, i);
        if (g->data)
            memcpy((char *)g->data + (size_t)k * esz, (const char *)s->data + (size_t)lo * esz,
                   (size_t)(hi - lo) * esz);
        if (g->valid)
            for (int64_t e = lo; e < hi; e++)
                if (bit(s->valid, e)) set_bit(g->valid, k + e - lo);
        if (is_str) {
            int64_t from = s->str_off[lo], len = s->str_off[hi] - from;
            for (int64_t e = lo; e < hi; e++)
                g->str_off[k + e - lo] = boff + s->str_off[e] - from;
            memcpy(g->bytes + boff, s->bytes + from, (size_t)len);
            boff += len;
        }
        k += hi - lo;
    }
    if (is_list) g->list_off[n] = k;
    if (is_str) g->str_off[m] = boff;
views:
    g->v.data = g->data;
    g->v.valid = g->valid;
    g->v.row_valid = g->row_valid;
    g->v.list_off = is_list ? g->list_off : NULL;
    g->v.str_off = g->str_off;
    g->v.bytes = g->bytes;
    g->used = 1;
}

void cat_row_index(cat_gathered *g, const int64_t *map, int64_t first, int64_t n)
{
    cat_gathered_free(g);
    int64_t *v = xmalloc(sizeof(int64_t) * (size_t)n);
    if (map)
        memcpy(v, map + first - 1, sizeof(int64_t) * (size_t)n);
    else
        for (int64_t i = 0; i < n; i++)
            v[i] = first + i;
    g->data = v;
    g->v.kind = g->v.elem = PQT_INT64;
    g->v.width = 1;
    g->v.unit = -1;
    g->v.nrows = n;
    g->v.data = v;
    g->used = 1;
}

void cat_gathered_free(cat_gathered *g)
{
    free(g->data);
    free(g->valid);
    free(g->row_valid);
    free(g->str_off);
    free(g->list_off);
    free(g->bytes);
    memset(g, 0, sizeof *g);
}
