/* SPDX-License-Identifier: Apache-2.0 */
/*
 * write_struct_src.c - which struct groups the source file holds present, row by row, for
 * the writer (layer: write; parquet-format Nested Encoding, Data Pages).
 *
 * A table keeps a struct leaf's validity only (null when the leaf or a group above it is
 * null), so a present struct whose leaves are all null would come back null. When the
 * table's rows follow its file (pqt_tview_rows_follow_file), the writer asks, once per
 * pqt_writer_write, where each written optional group is present in the source
 * (pqt_tview_group_present: its levels read again) and keeps one byte per table row.
 * write_struct.c writes the group present where the source had it or where a written leaf
 * under it is not null.
 */
#include "table/table_view.h"
#include "util/error.h"
#include "util/mem.h"
#include "write/write_file.h"
#include "write/write_int.h"

void pqt_wstruct_source_free(pqt_writer *w)
{
    for (int i = 0; i < w->nwsrc; i++)
        pqt_mem_free(w->wsrc[i].present);
    pqt_mem_free(w->wsrc);
    w->wsrc = NULL;
    w->nwsrc = 0;
}

pqt_status pqt_wstruct_source(pqt_writer *w, pqt_table *t, const int *slots)
{
    pqt_wstruct_source_free(w);
    const pqt_wcol *c = w->cols;
    int nc = w->ncols;
    const int64_t nrows = pqt_table_nrows(t);
    if (!pqt_tview_rows_follow_file(t)) return PQT_OK;
    for (int k = 0; k < nc; k++) {
        int com = k > 0 ? pqt_wstruct_common(&c[k - 1], &c[k]) : 0;
        for (int d = com; d < c[k].ngroups; d++) {
            if (!c[k].group_opt[d]) continue;
            int gnode = -1;
            for (int j = k; j < nc && gnode < 0 && pqt_wstruct_common(&c[k], &c[j]) > d; j++)
                if (slots[j] >= 0) gnode = pqt_tview_struct_group(t, slots[j], d);
            if (gnode < 0) continue;
            uint8_t *present = pqt_malloc((size_t)nrows + 1);
            if (!present) return pqt_err(PQT_NOMEM, "out of memory");
            bool ok = true;
            pqt_status st = pqt_tview_group_present(t, gnode, present, &ok);
            if (st == PQT_OK && ok) {
                pqt_wstruct_src *s = pqt_realloc(w->wsrc, (size_t)(w->nwsrc + 1) * sizeof *s);
                if (!s)
                    st = pqt_err(PQT_NOMEM, "out of memory");
                else {
                    w->wsrc = s;
                    s[w->nwsrc++] = (pqt_wstruct_src){k, d, present};
                    present = NULL;
                }
            }
            pqt_mem_free(present);
            if (st != PQT_OK) return st;
        }
    }
    return PQT_OK;
}
