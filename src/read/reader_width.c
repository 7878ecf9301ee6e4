/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reader_width.c - the one LIST width measurement: the width every row of a LIST column
 * shares over the rows a plan holds, from the footer when it can tell, else by reading
 * (layer: read). The file's cached width and a table's width both come from here.
 */
#include "read/request.h"
#include "util/error.h"

/* Tier 1, the footer alone: a uniform non-null list has exactly w level entries a row. */
static int64_t footer_width(const pqt_file_meta *m, const pqt_col *c, const pqt_plan *p)
{
    int64_t w = PQT_READ_WIDTH_NO_ROWS;
    for (int rg = 0; rg < m->n_row_groups; rg++) {
        int64_t rows = m->row_groups[rg].num_rows;
        int64_t nv = m->row_groups[rg].columns[c->chunk_col].meta.num_values;
        if ((p && p->sel[rg].nsel == 0) || rows == 0) continue;
        if (nv % rows != 0 || nv / rows < 1 || (w > 0 && nv / rows != w) || nv / rows > INT32_MAX)
            return -1;
        w = nv / rows;
    }
    return w;
}

/* Row group rg read whole. */
static pqt_status read_rg(const pqt_read_src *src, const pqt_col *c, int rg, pqt_read_counters *rc,
                          pqt_colbuf *b)
{
    pqt_sel all;
    pqt_sel_init_all(&all, src->meta->row_groups[rg].num_rows);
    const int64_t zero = 0;
    pqt_read_req rq = {.src = *src,
                       .col = c,
                       .rg0 = rg,
                       .nrg = 1,
                       .sels = &all,
                       .dst_row = &zero,
                       .nrows = all.nrows,
                       .threads = 1,
                       .counters = rc};
    return pqt_read_column(&rq, b);
}

pqt_status pqt_read_list_width(const pqt_read_src *src, const pqt_col *c, const pqt_plan *p,
                               int threads, int measure, pqt_read_counters *rc, int *w_ret)
{
    pqt_colbuf b;
    if (p && p->nsel > 0 && p->nsel < p->hi - p->lo) {
        /* a filtered or sampled plan: one read of the pages holding its rows (a point
         * lookup measures one page), its rows being its scope as a slice's groups are */
        pqt_read_req rq = pqt_read_req_plan(src, c, p);
        rq.threads = threads;
        rq.counters = rc;
        PQT_TRY(pqt_read_column(&rq, &b));
        *w_ret = pqt_colbuf_uniform_width(&b);
        pqt_colbuf_free(&b);
        return PQT_OK;
    }
    int64_t w = footer_width(src->meta, c, p);
    *w_ret = (int)w;
    if (w < 1 || !measure) {
        if (w > 0) *w_ret = 0; /* only the data can tell */
        return PQT_OK;
    }
    /* Tier 2: one row group at a time, stopping at the first that disagrees. */
    for (int rg = 0; rg < src->meta->n_row_groups; rg++) {
        if ((p && p->sel[rg].nsel == 0) || src->meta->row_groups[rg].num_rows == 0) continue;
        PQT_TRY(read_rg(src, c, rg, rc, &b));
        int rw = pqt_colbuf_uniform_width(&b);
        pqt_colbuf_free(&b);
        if (rw != w) {
            *w_ret = -1;
            return PQT_OK;
        }
    }
    return PQT_OK;
}
