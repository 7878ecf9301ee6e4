/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_exact.c - what `pqt cat` does so that every value it prints is exact: decimals read as
 * their unscaled integers (printed by pqt_format_decimal, not through a double), INT96
 * timestamps read in a unit that holds every printed value, and columns it cannot read
 * named on stderr instead of vanishing silently.
 */
#include <string.h>

#include "cat.h"

pqt_status cat_open(const char *path, const cat_open_args *a, int int96_unit, pqt_file **ret)
{
    pqt_opts *o = NULL;
    pqt_status st = pqt_opts_new(&o);
    if (st != PQT_OK) return st;
    pqt_opts_set_int(o, PQT_OPT_VERIFY_CRC, !a->no_crc);
    pqt_opts_set_int(o, PQT_OPT_BINARY_AS_STRING, a->binary_as_string);
    pqt_opts_set_int(o, PQT_OPT_INT96_UNIT, int96_unit);
    tool_apply_dataset_opts(o);
    if (tool_ds_filter) st = pqt_opts_set_filter(o, tool_ds_filter);
    if (st == PQT_OK) st = tool_file_open(path, o, ret);
    pqt_opts_free(o);
    return st;
}

void cat_col_exact(cat_col *c, const pqt_file *f)
{
    int p = 0, s = 0;
    c->dec_precision = 0;
    /* above precision 38 there is no exact integer kind: such a column prints its doubles */
    if (pqt_file_column_decimal(f, c->col, &p, &s) == PQT_OK && p >= 1 && p <= 38) {
        c->dec_precision = p;
        c->dec_scale = s;
    }
    c->is_int96 = strcmp(pqt_file_column_physical(f, c->col), "INT96") == 0;
}

pqt_status cat_read(pqt_file *f, const cat_col *c, int64_t lo, int64_t hi, pqt_array **ret)
{
    if (c->dec_precision) return pqt_file_read_decimal(f, c->col, lo, hi, ret);
    return pqt_file_read(f, c->col, lo, hi, ret);
}

void cat_view(cat_col *c, const pqt_array *a)
{
    colview_init(&c->v, a, c->unit, c->utc);
    c->v.dec = c->dec_precision != 0;
    c->v.scale = c->dec_scale;
}

/* Does reading the INT96 columns over lo..hi overflow the file's current unit? 0 no, 1 yes,
 * -1 another error (left for the real read to report). */
static int int96_overflows(pqt_file *f, const cat_out *o, int64_t lo, int64_t hi)
{
    int nrg = pqt_file_nrow_groups(f);
    int64_t first = 1;
    for (int rg = 0; rg < nrg && first <= hi; rg++) {
        int64_t last = first + pqt_file_row_group_nrows(f, rg) - 1;
        int64_t a = lo > first ? lo : first, b = hi < last ? hi : last;
        first = last + 1;
        if (a > b) continue;
        for (int c = 0; c < o->ncols; c++) {
            if (!o->cols[c].is_int96) continue;
            pqt_array *arr = NULL;
            pqt_status st = pqt_file_read(f, o->cols[c].col, a, b, &arr);
            pqt_array_free(arr);
            if (st == PQT_OVERFLOW) return 1;
            if (st != PQT_OK) return -1;
        }
    }
    return 0;
}

/*
 * INT96 (Impala/Spark timestamps) is read as nanoseconds, which hold the years 1677..2262
 * only. Output streams row group by row group, so the unit must be settled before the first
 * row is printed, and one unit for the whole output keeps every line the same shape: the
 * printed rows of the INT96 columns are read once first (cheap next to printing them), and
 * on PQT_OVERFLOW the file is opened again with microseconds (+-292,000 years), then
 * milliseconds (every INT96 value fits). Footer statistics cannot decide it: INT96 min/max
 * have no defined order and most writers omit them.
 */
int cat_settle_int96(pqt_file **f, const char *path, const cat_open_args *args, cat_out *o,
                     int64_t lo, int64_t hi)
{
    int any = 0;
    for (int c = 0; c < o->ncols; c++)
        any |= o->cols[c].is_int96;
    if (!any || lo > hi) return EXIT_OK;
    static const int units[] = {PQT_UNIT_NANOS, PQT_UNIT_MICROS, PQT_UNIT_MILLIS};
    for (int u = 0; u < 3; u++) {
        if (u > 0) {
            pqt_file *g = NULL;
            if (cat_open(path, args, units[u], &g) != PQT_OK) return tool_fail(path);
            pqt_file_close(*f);
            *f = g;
            for (int c = 0; c < o->ncols; c++) /* paths are copies; units follow the open */
                o->cols[c].unit = pqt_file_column_time_unit(g, o->cols[c].col);
        }
        if (int96_overflows(*f, o, lo, hi) != 1) return EXIT_OK;
    }
    return EXIT_OK; /* milliseconds cannot overflow; a later read reports anything else */
}

void cat_warn_unreadable(const pqt_file *f, const char *path, int col)
{
    const char *reason = pqt_file_column_unsupported_reason(f, col);
    const char *logical = pqt_file_column_logical(f, col);
    int plain_binary =
        strcmp(pqt_file_column_physical(f, col), "BYTE_ARRAY") == 0 && (!logical || !logical[0]);
    tool_msg("pqt: %s: warning: column '%s' not shown: %s%s", path,
            pqt_file_column_path(f, col), reason ? reason : "unreadable",
            plain_binary ? " (--binary-as-string reads it as text)" : "");
}
