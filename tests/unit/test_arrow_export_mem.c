/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_export_mem.c - what an Arrow export holds in memory (issue 34), counted with
 * memcount.h (the library's heap, not timed or sampled):
 *   - a column not resident is read a row group at a time: pulling every batch of a
 *     2.5-million-row int64 column (25 row groups of 100,000 rows, 20 MB whole) never holds
 *     more than a few row groups' values, and the column stays unread;
 *   - a resident column is handed over in place: exporting it whole allocates only the
 *     arrays' small private blocks, not its 20 MB again.
 * Truth: table_big.parquet's shape (pqt schema) and the values' size, 8 bytes a row.
 */
#include <stdio.h>
#include <string.h>

#include "memcount.h"
#include "pqt_arrow.h"
#include "testutil.h"

#define BIG "tests/data/table_big.parquet"

int main(void)
{
    pqt_table *t = NULL;
    CHECK_OK(pqt_table_open(BIG, NULL, &t));
    CHECK_EQ_I64(pqt_table_nrows(t), 2500000);
    const int64_t whole = 2500000 * 8, one_rg = 100000 * 8;

    /* not resident: batch by batch */
    memcount_reset_peak();
    int64_t base = memcount_get().inuse;
    struct ArrowArrayStream s;
    CHECK_OK(pqt_table_export_arrow_stream(t, NULL, 0, 0, &s));
    struct ArrowSchema sch;
    CHECK_EQ_I64(s.get_schema(&s, &sch), 0);
    int nb = 0;
    int64_t rows = 0, sum = 0;
    for (;;) {
        struct ArrowArray a;
        if (s.get_next(&s, &a) != 0 || !a.release) break;
        const struct ArrowArray *v = a.children[0];
        const int64_t *x = v->buffers[1];
        for (int64_t i = 0; i < v->length; i++)
            sum += x[v->offset + i];
        rows += a.length;
        nb++;
        a.release(&a);
    }
    sch.release(&sch);
    s.release(&s);
    int64_t peak = memcount_get().peak - base;
    CHECK_EQ_I64(nb, 25);
    CHECK_EQ_I64(rows, 2500000);
    int res = -1;
    CHECK_OK(pqt_table_residency(t, "v", &res));
    CHECK_EQ_I64(res, PQT_RES_EMPTY);
    printf("stream of an unread column: peak %lld bytes (one row group %lld, whole %lld)\n",
           (long long)peak, (long long)one_rg, (long long)whole);
    CHECK(peak < 6 * one_rg);

    /* the same sum from the table itself */
    int64_t *all = NULL;
    CHECK_OK(pqt_table_get_alloc(t, "v", PQT_INT64, (void **)&all, NULL, NULL));
    int64_t want = 0;
    for (int64_t i = 0; all && i < 2500000; i++)
        want += all[i];
    CHECK_EQ_I64(sum, want);
    pqt_free(all);

    /* resident: in place */
    pqt_column_view view = {.struct_size = sizeof view};
    CHECK_OK(pqt_table_column(t, "v", 0, &view));
    memcount_reset_peak();
    base = memcount_get().inuse;
    struct ArrowArray a;
    CHECK_OK(pqt_table_export_arrow_array(t, "v", NULL, &a));
    peak = memcount_get().peak - base;
    printf("array of a resident column: peak %lld bytes\n", (long long)peak);
    CHECK(peak < 64 * 1024);
    CHECK(a.children == NULL || a.n_children == 0);
    CHECK(a.buffers[1] == view.data);
    pqt_table_close(t);
    a.release(&a);
    return pqt_test_done("test_arrow_export_mem");
}
