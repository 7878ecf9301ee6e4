/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_export.c - a table as an Arrow C Stream of record batches, its schema, or one column
 * as an Arrow array (pqt_arrow.h; layer: arrow; docs/arrow.md "Export").
 *
 * Each column is fed from one of two places. A resident column (or one a permuted or
 * detached table makes resident first) is shared whole: each batch is a slice of the table's
 * own arrays at an offset, which the batch keeps alive. A column not resident of a table
 * still reading its file in file order is read one row group at a time through the plan
 * (pqt_tview_read_rg), so memory stays about a batch; a batch that straddles row groups is
 * joined into a fresh colbuf. A DECIMAL still as read exports its unscaled integers, read the
 * same two ways (pqt_tview_read_rg unscaled, or pqt_tview_read_unscaled whole).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arrow/arrow_int.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/par.h"

#define AX_DEFAULT_BATCH 65536

/* Where one slot's rows come from. */
typedef struct ax_feed {
    int slot;
    bool unscaled;
    int vec_width;           /* vectors: their width (joins keep the shape) */
    pqt_colbuf_share *whole; /* every table row, or NULL: read by row group */
    pqt_colbuf_share *cur;   /* by row group: the one read last */
    int rg;                  /* its index, -1 before the first */
    int64_t rg_first, rg_n;  /* table rows it holds */
    pqt_chunk_ctx *cx;
} ax_feed;

/* Where one struct group of the file is present, per table row (pqt_tview_group_present),
 * read once per stream at its first batch. */
typedef struct ax_group {
    int gnode;
    uint8_t *present; /* NULL: its presence is unknown (no leaf, old level encoding) */
} ax_group;

typedef struct ax_stream {
    pqt_table *t;
    pqt_ax_col *cols;
    int ncols;
    ax_group *groups;
    int ngroups;
    ax_feed *feeds; /* 2 per column: keys (or values), a map's values */
    int64_t nrows, next_row, batch_rows;
    bool rg_batches; /* cut at the plan's row groups */
    int next_rg;
    char err[1024];
} ax_stream;

static void feed_free(ax_feed *f)
{
    pqt_colbuf_share_drop(f->whole);
    pqt_colbuf_share_drop(f->cur);
    if (f->cx) pqt_chunk_ctx_free(f->cx);
    memset(f, 0, sizeof *f);
}

/* Make f's source ready: decide between whole and row by row group. */
static pqt_status feed_init(pqt_table *t, ax_feed *f, int slot, bool unscaled, int vec_width,
                            const char *call)
{
    memset(f, 0, sizeof *f);
    f->slot = slot;
    f->unscaled = unscaled;
    f->vec_width = vec_width;
    f->rg = -1;
    pqt_tview_col v;
    pqt_tview_describe(t, slot, &v);
    bool by_rg = pqt_tview_attached(t) && !pqt_tview_permuted(t) && v.fcol;
    if (unscaled) {
        if (by_rg) return PQT_OK;
        pqt_colbuf b;
        PQT_TRY(pqt_tview_read_unscaled(t, slot, &b));
        pqt_status st = pqt_colbuf_share_take(&b, &f->whole);
        pqt_colbuf_free(&b); /* the share keeps the arrays */
        return st;
    }
    if (!v.buf && by_rg) return PQT_OK;
    if (!v.buf) PQT_TRY(pqt_tview_touch(t, slot, call)); /* permuted rows: resident first */
    return pqt_tview_share(t, slot, &f->whole);
}

/* Read f's next row group holding rows. */
static pqt_status feed_next_rg(pqt_table *t, ax_feed *f)
{
    int nrg = pqt_tview_nrg(t);
    int rg = f->rg + 1;
    while (rg < nrg && pqt_tview_rg_rows(t, rg, NULL) == 0)
        rg++;
    if (rg >= nrg) return pqt_err(PQT_MISUSE, "no rows left to read");
    pqt_read_counters rc;
    memset(&rc, 0, sizeof rc);
    pqt_colbuf b;
    pqt_status st = pqt_tview_read_rg(t, f->slot, rg, f->unscaled, &rc, &b, NULL, &f->cx);
    pqt_tview_add_counters(t, f->slot, &rc);
    if (st != PQT_OK) return st;
    pqt_colbuf_share *s;
    st = pqt_colbuf_share_take(&b, &s);
    pqt_colbuf_free(&b);
    if (st != PQT_OK) return st;
    pqt_colbuf_share_drop(f->cur); /* arrays made from it keep their own references */
    f->cur = s;
    f->rg = rg;
    f->rg_n = pqt_tview_rg_rows(t, rg, &f->rg_first);
    return PQT_OK;
}

/* The feeds a batch starting at table row lo reads next (by row group, not holding lo yet),
 * read at once on the table's threads: a batch of several columns costs its slowest column,
 * not their sum. Fewer than two, one thread, or a slot fed twice: left to feed_rows, in order.
 * A failure is the lowest feed's, as the serial order would report it. */
static pqt_status prefeed(ax_stream *st, int64_t lo)
{
    int *todo = pqt_calloc((size_t)st->ncols * 2 + 1, sizeof *todo), n = 0;
    if (!todo) return pqt_err(PQT_NOMEM, "out of memory exporting a batch");
    for (int i = 0; i < 2 * st->ncols; i++) {
        const ax_feed *f = &st->feeds[i];
        bool active = i % 2 == 0 || st->cols[i / 2].vslot >= 0;
        if (!active || f->whole || (f->cur && lo < f->rg_first + f->rg_n)) continue;
        for (int k = 0; k < n; k++)
            if (st->feeds[todo[k]].slot == f->slot) n = -1; /* same slot twice: serial */
        if (n < 0) break;
        todo[n++] = i;
    }
    int nthr = n >= 2 ? pqt_par_threads_for(pqt_tview_threads(st->t), n) : 1;
    pqt_par_fail pf;
    pqt_par_fail_init(&pf);
    if (nthr > 1) {
#pragma omp parallel num_threads(nthr)
        {
            pqt_par_thread th;
            pqt_par_enter(&th);
#pragma omp for schedule(dynamic, 1)
            for (int k = 0; k < n; k++)
                if (!pqt_par_skip(&pf, k))
                    pqt_par_fail_note(&pf, k, feed_next_rg(st->t, &st->feeds[todo[k]]), &th);
            pqt_par_leave(&th);
        }
    }
    pqt_mem_free(todo);
    return nthr > 1 ? pqt_par_fail_raise(&pf) : PQT_OK;
}

/* Table rows [lo, lo + n) of f as rows [*r0_ret, *r0_ret + n) of *s_ret (a reference the
 * caller drops). */
static pqt_status feed_rows(pqt_table *t, ax_feed *f, int64_t lo, int64_t n,
                            pqt_colbuf_share **s_ret, int64_t *r0_ret)
{
    if (f->whole) {
        pqt_colbuf_share_ref(f->whole);
        *s_ret = f->whole;
        *r0_ret = lo;
        return PQT_OK;
    }
    while (!f->cur || lo >= f->rg_first + f->rg_n)
        PQT_TRY(feed_next_rg(t, f));
    if (lo + n <= f->rg_first + f->rg_n) { /* inside one row group: a slice of its read */
        pqt_colbuf_share_ref(f->cur);
        *s_ret = f->cur;
        *r0_ret = lo - f->rg_first;
        return PQT_OK;
    }
    pqt_colbuf acc;
    memset(&acc, 0, sizeof acc);
    int64_t have = 0;
    pqt_status st = PQT_OK;
    while (have < n && st == PQT_OK) {
        if (lo + have >= f->rg_first + f->rg_n && (st = feed_next_rg(t, f)) != PQT_OK) break;
        int64_t at = lo + have - f->rg_first, take = f->rg_first + f->rg_n - (lo + have);
        if (take > n - have) take = n - have;
        const pqt_colbuf *piece = pqt_colbuf_share_arrays(f->cur);
        pqt_colbuf joined;
        st = have == 0
                 ? pqt_tview_buf_concat(piece, at, take, NULL, 0, 0, f->vec_width, &joined)
                 : pqt_tview_buf_concat(&acc, 0, have, piece, at, take, f->vec_width, &joined);
        if (st != PQT_OK) break;
        pqt_colbuf_free(&acc);
        acc = joined;
        have += take;
    }
    if (st == PQT_OK) st = pqt_colbuf_share_take(&acc, s_ret);
    pqt_colbuf_free(&acc);
    *r0_ret = 0;
    return st;
}

static void stream_free(ax_stream *st)
{
    for (int i = 0; i < st->ngroups; i++)
        pqt_mem_free(st->groups[i].present);
    pqt_mem_free(st->groups);
    for (int i = 0; i < 2 * st->ncols; i++)
        feed_free(&st->feeds[i]);
    pqt_mem_free(st->feeds);
    pqt_mem_free(st->cols);
    pqt_mem_free(st);
}

/* Column i's rows [lo, lo + n) as an array. */
static pqt_status col_array(ax_stream *st, int i, int64_t lo, int64_t n, struct ArrowArray *out)
{
    pqt_colbuf_share *s = NULL, *vs = NULL;
    int64_t r0 = 0, vr0 = 0;
    pqt_status rs = feed_rows(st->t, &st->feeds[2 * i], lo, n, &s, &r0);
    if (rs == PQT_OK && st->cols[i].vslot >= 0)
        rs = feed_rows(st->t, &st->feeds[2 * i + 1], lo, n, &vs, &vr0);
    if (rs == PQT_OK) rs = pqt_ax_array(&st->cols[i], s, r0, vs, vr0, n, out);
    pqt_colbuf_share_drop(s);
    pqt_colbuf_share_drop(vs);
    return rs;
}

/* Where the struct group at level g above columns [i, j) is present, per table row, or NULL
 * (*present_ret) when every row holds it: a required group, a table whose rows no longer
 * follow its file, or a group whose presence the levels cannot tell. */
static pqt_status group_present(ax_stream *st, int i, int j, int g, const uint8_t **present_ret)
{
    *present_ret = NULL;
    const char *name;
    bool opt = false;
    pqt_tview_struct_node(st->t, st->cols[i].slot, g, &name, &opt);
    if (!opt || !pqt_tview_rows_follow_file(st->t)) return PQT_OK;
    int gnode = -1;
    for (int k = i; k < j && gnode < 0; k++)
        gnode = pqt_tview_struct_group(st->t, st->cols[k].slot, g);
    if (gnode < 0) return PQT_OK;
    for (int k = 0; k < st->ngroups; k++)
        if (st->groups[k].gnode == gnode) {
            *present_ret = st->groups[k].present;
            return PQT_OK;
        }
    ax_group *gs = pqt_realloc(st->groups, (size_t)(st->ngroups + 1) * sizeof *gs);
    if (!gs) return pqt_err(PQT_NOMEM, "out of memory exporting a struct field");
    st->groups = gs;
    uint8_t *present = pqt_malloc((size_t)st->nrows + 1);
    if (!present) return pqt_err(PQT_NOMEM, "out of memory exporting a struct field");
    bool ok = true;
    pqt_status rs = pqt_tview_group_present(st->t, gnode, present, &ok);
    if (rs != PQT_OK || !ok) {
        pqt_mem_free(present);
        present = NULL;
    }
    if (rs != PQT_OK) return rs;
    gs[st->ngroups++] = (ax_group){gnode, present};
    *present_ret = present;
    return PQT_OK;
}

/* Move arrs[i..end) (columns at struct level g) into kids, grouping struct leaves. */
static pqt_status assemble(ax_stream *st, struct ArrowArray *arrs, int i, int end, int g,
                           int64_t lo, int64_t n, struct ArrowArray *kids, int *nk)
{
    pqt_status rs = PQT_OK;
    *nk = 0;
    while (i < end && rs == PQT_OK) {
        if (st->cols[i].depth <= g) {
            kids[(*nk)++] = arrs[i];
            arrs[i].release = NULL; /* moved */
            i++;
            continue;
        }
        int j = pqt_ax_group_end(st->t, st->cols, i, end, g), m = 0;
        struct ArrowArray *sub = pqt_calloc((size_t)(j - i), sizeof *sub);
        if (!sub) return pqt_err(PQT_NOMEM, "out of memory exporting a struct field");
        const uint8_t *present = NULL;
        rs = assemble(st, arrs, i, j, g + 1, lo, n, sub, &m);
        if (rs == PQT_OK) rs = group_present(st, i, j, g, &present);
        if (rs == PQT_OK) {
            rs = pqt_ax_struct(n, present ? present + lo : NULL, sub, m, &kids[*nk]);
            if (rs == PQT_OK) (*nk)++;
        } else {
            for (int k = 0; k < m; k++)
                sub[k].release(&sub[k]);
        }
        pqt_mem_free(sub);
        i = j;
    }
    return rs;
}

/* Rows [lo, lo + n) of every column as one struct array. */
static pqt_status make_batch(ax_stream *st, int64_t lo, int64_t n, struct ArrowArray *out)
{
    struct ArrowArray *arrs = pqt_calloc((size_t)st->ncols + 1, sizeof *arrs);
    struct ArrowArray *kids = pqt_calloc((size_t)st->ncols + 1, sizeof *kids);
    pqt_status rs = arrs && kids ? PQT_OK : pqt_err(PQT_NOMEM, "out of memory exporting a batch");
    if (rs == PQT_OK) rs = prefeed(st, lo);
    for (int i = 0; i < st->ncols && rs == PQT_OK; i++)
        rs = col_array(st, i, lo, n, &arrs[i]);
    int nk = 0;
    if (rs == PQT_OK) rs = assemble(st, arrs, 0, st->ncols, 0, lo, n, kids, &nk);
    if (rs == PQT_OK)
        rs = pqt_ax_struct(n, NULL, kids, nk, out);
    else
        for (int k = 0; k < nk; k++)
            kids[k].release(&kids[k]);
    for (int i = 0; arrs && i < st->ncols; i++)
        if (arrs[i].release) arrs[i].release(&arrs[i]);
    pqt_mem_free(arrs);
    pqt_mem_free(kids);
    return rs;
}

/* ---- the stream's callbacks ---- */

static int s_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    ax_stream *st = s->private_data;
    pqt_status rs = pqt_ax_schema(st->t, st->cols, st->ncols, out);
    if (rs != PQT_OK) {
        snprintf(st->err, sizeof st->err, "%s", pqt_errmsg());
        return rs == PQT_NOMEM ? ENOMEM : EIO;
    }
    return 0;
}

/* The next batch's rows: [*lo, *lo + *n). */
static void next_range(ax_stream *st, int64_t *lo, int64_t *n)
{
    *lo = st->next_row;
    if (st->rg_batches) {
        int nrg = pqt_tview_nrg(st->t);
        while (st->next_rg < nrg) {
            int64_t first = 0, k = pqt_tview_rg_rows(st->t, st->next_rg++, &first);
            if (k > 0) {
                *lo = first;
                *n = k;
                return;
            }
        }
        *n = 0;
        return;
    }
    int64_t left = st->nrows - st->next_row;
    *n = left < st->batch_rows ? left : st->batch_rows;
}

static int s_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    ax_stream *st = s->private_data;
    int64_t lo, n;
    next_range(st, &lo, &n);
    if (n <= 0) { /* the end */
        memset(out, 0, sizeof *out);
        return 0;
    }
    pqt_status rs;
    {
        pqt_tview_hold h = {NULL};
        rs = pqt_tview_hold_take(&h, st->t, "pqt_table_export_arrow_stream", "pulling a batch");
        if (rs == PQT_OK) rs = make_batch(st, lo, n, out);
        pqt_tview_hold_drop(&h);
    }
    if (rs != PQT_OK) {
        snprintf(st->err, sizeof st->err, "%s", pqt_errmsg());
        return rs == PQT_NOMEM ? ENOMEM : EIO;
    }
    st->next_row = lo + n;
    return 0;
}

static const char *s_last_error(struct ArrowArrayStream *s)
{
    ax_stream *st = s->private_data;
    return st->err[0] ? st->err : NULL;
}

static void s_release(struct ArrowArrayStream *s)
{
    if (!s || !s->release) return;
    stream_free(s->private_data);
    s->release = NULL;
    pqt_ax_live_add(-1);
}

/* ---- the public calls ---- */

static pqt_status check_args(const pqt_table *t, const char *const *columns, int ncols,
                             const void *out, const char *call)
{
    if (!t || !out) return pqt_err(PQT_MISUSE, "%s: NULL table or output", call);
    if (columns && ncols < 0) return pqt_err(PQT_MISUSE, "%s: ncols %d < 0", call, ncols);
    return PQT_OK;
}

pqt_status pqt_table_export_arrow_stream(pqt_table *t, const char *const *columns, int ncols,
                                         int64_t batch_rows, struct ArrowArrayStream *out)
{
    const char *call = "pqt_table_export_arrow_stream";
    PQT_TRY(check_args(t, columns, ncols, out, call));
    if (batch_rows < 0)
        return pqt_err(PQT_MISUSE, "%s: batch_rows %lld < 0", call, (long long)batch_rows);
    PQT_TVIEW_HOLD(t, call, "exporting to Arrow");
    ax_stream *st = pqt_calloc(1, sizeof *st);
    if (!st) return pqt_err(PQT_NOMEM, "%s: out of memory", call);
    st->t = t;
    pqt_status rs = pqt_ax_describe(t, columns, ncols, call, &st->cols, &st->ncols);
    if (rs == PQT_OK) {
        st->feeds = pqt_calloc(2 * (size_t)st->ncols + 1, sizeof *st->feeds);
        if (!st->feeds) rs = pqt_err(PQT_NOMEM, "%s: out of memory", call);
    }
    for (int i = 0; rs == PQT_OK && i < st->ncols; i++) {
        const pqt_ax_col *c = &st->cols[i];
        int w = c->shape == PQT_AX_VECTOR ? c->width : 0;
        rs = feed_init(t, &st->feeds[2 * i], c->slot, c->unscaled, w, call);
        if (rs == PQT_OK && c->vslot >= 0)
            rs = feed_init(t, &st->feeds[2 * i + 1], c->vslot, false, 0, call);
    }
    if (rs != PQT_OK) {
        stream_free(st);
        return rs;
    }
    st->nrows = pqt_table_nrows(t);
    st->batch_rows = batch_rows > 0 ? batch_rows : AX_DEFAULT_BATCH;
    st->rg_batches =
        batch_rows == 0 && pqt_tview_attached(t) && !pqt_tview_permuted(t) && pqt_tview_nrg(t) > 0;
    memset(out, 0, sizeof *out);
    out->get_schema = s_get_schema;
    out->get_next = s_get_next;
    out->get_last_error = s_last_error;
    out->release = s_release;
    out->private_data = st;
    pqt_ax_live_add(1);
    return PQT_OK;
}

pqt_status pqt_table_export_arrow_schema(pqt_table *t, const char *const *columns, int ncols,
                                         struct ArrowSchema *out)
{
    const char *call = "pqt_table_export_arrow_schema";
    PQT_TRY(check_args(t, columns, ncols, out, call));
    PQT_TVIEW_HOLD(t, call, "exporting to Arrow");
    pqt_ax_col *cols;
    int n;
    PQT_TRY(pqt_ax_describe(t, columns, ncols, call, &cols, &n));
    pqt_status rs = pqt_ax_schema(t, cols, n, out);
    pqt_mem_free(cols);
    return rs;
}

pqt_status pqt_table_export_arrow_array(pqt_table *t, const char *column,
                                        struct ArrowSchema *schema_out,
                                        struct ArrowArray *array_out)
{
    const char *call = "pqt_table_export_arrow_array";
    if (!column) return pqt_err(PQT_MISUSE, "%s: NULL column", call);
    PQT_TRY(check_args(t, &column, 1, array_out, call));
    PQT_TVIEW_HOLD(t, call, "exporting to Arrow");
    pqt_ax_col *cols;
    int n;
    PQT_TRY(pqt_ax_describe(t, &column, 1, call, &cols, &n));
    pqt_ax_col c = cols[0];
    pqt_mem_free(cols);
    c.depth = 0; /* a field alone: its own name, no struct around it */
    pqt_tview_col v;
    pqt_tview_describe(t, c.slot, &v);
    c.name = v.name;
    pqt_status rs = v.buf ? PQT_OK : pqt_tview_touch(t, c.slot, call);
    pqt_colbuf_share *s = NULL;
    if (rs == PQT_OK && c.unscaled) {
        pqt_colbuf b;
        rs = pqt_tview_read_unscaled(t, c.slot, &b);
        if (rs == PQT_OK) rs = pqt_colbuf_share_take(&b, &s);
        pqt_colbuf_free(&b);
    } else if (rs == PQT_OK) {
        rs = pqt_tview_share(t, c.slot, &s);
    }
    struct ArrowSchema sch;
    memset(&sch, 0, sizeof sch);
    if (rs == PQT_OK && schema_out) rs = pqt_ax_schema_col(t, &c, &sch);
    if (rs == PQT_OK) {
        rs = pqt_ax_array(&c, s, 0, NULL, 0, pqt_table_nrows(t), array_out);
        if (rs != PQT_OK && sch.release) sch.release(&sch);
    }
    pqt_colbuf_share_drop(s);
    if (rs == PQT_OK && schema_out) *schema_out = sch;
    return rs;
}
