/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_arrow_import_build.h - Arrow C Data arrays, schemas and streams built by hand for
 * the import tests, over static buffers the test owns. Every release is counted, so a test
 * can check that the importer released each batch, the schema and the stream exactly once.
 * expect_col compares a column's rows, written out as text, with what the test built.
 */
#ifndef PQT_TEST_ARROW_IMPORT_BUILD_H
#define PQT_TEST_ARROW_IMPORT_BUILD_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pqt_arrow.h"
#include "testutil.h"

#define TA_POOL 512

typedef struct ta_arr {
    struct ArrowArray a;
    const void *bufs[8];
    struct ArrowArray *kids[32];
} ta_arr;
typedef struct ta_sch {
    struct ArrowSchema s;
    struct ArrowSchema *kids[32];
} ta_sch;

static ta_arr ta_arrs[TA_POOL];
static ta_sch ta_schs[TA_POOL];
static int ta_narr, ta_nsch;
/* releases seen: top-level batches, schemas, streams; and handed out */
static int ta_batch_rel, ta_schema_rel, ta_stream_rel, ta_batch_out, ta_schema_out;

static void ta_reset(void)
{
    memset(ta_arrs, 0, sizeof ta_arrs);
    memset(ta_schs, 0, sizeof ta_schs);
    ta_narr = ta_nsch = 0;
    ta_batch_rel = ta_schema_rel = ta_stream_rel = ta_batch_out = ta_schema_out = 0;
}

static void ta_child_release(struct ArrowArray *a)
{
    a->release = NULL;
}

/* An array node: len, offset, null_count, then nbuf buffers. */
static struct ArrowArray *ta_arr_new(int64_t len, int64_t off, int64_t nulls, int nbuf, ...)
{
    ta_arr *t = &ta_arrs[ta_narr++];
    va_list ap;
    va_start(ap, nbuf);
    for (int i = 0; i < nbuf; i++)
        t->bufs[i] = va_arg(ap, const void *);
    va_end(ap);
    t->a.length = len, t->a.offset = off, t->a.null_count = nulls;
    t->a.n_buffers = nbuf, t->a.buffers = t->bufs;
    t->a.children = t->kids;
    t->a.release = ta_child_release;
    return &t->a;
}

static struct ArrowArray *ta_kids(struct ArrowArray *p, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        p->children[i] = va_arg(ap, struct ArrowArray *);
    va_end(ap);
    p->n_children = n;
    return p;
}

static void ta_schema_release(struct ArrowSchema *s)
{
    s->release = NULL;
    ta_schema_rel++;
}
static void ta_schema_child_release(struct ArrowSchema *s)
{
    s->release = NULL;
}

static struct ArrowSchema *ta_sch_new(const char *format, const char *name, int n, ...)
{
    ta_sch *t = &ta_schs[ta_nsch++];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        t->kids[i] = va_arg(ap, struct ArrowSchema *);
    va_end(ap);
    t->s.format = format, t->s.name = name, t->s.flags = ARROW_FLAG_NULLABLE;
    t->s.n_children = n, t->s.children = t->kids;
    t->s.release = ta_schema_child_release;
    return &t->s;
}

/* A stream handing out batches[0..nbatch) over schema; fail_at >= 0: get_next fails there;
 * schema_fails: get_schema fails. */
typedef struct ta_stream {
    struct ArrowSchema *schema;
    struct ArrowArray *batches[16];
    int nbatch, next, fail_at;
    int schema_fails;
} ta_stream;

static void ta_batch_release(struct ArrowArray *a)
{
    for (int64_t i = 0; i < a->n_children; i++)
        if (a->children[i]->release) a->children[i]->release(a->children[i]);
    a->release = NULL;
    ta_batch_rel++;
}

static int ta_get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    ta_stream *p = st->private_data;
    if (p->schema_fails) return EIO;
    *out = *p->schema;
    out->release = ta_schema_release;
    ta_schema_out++;
    return 0;
}

static int ta_get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    ta_stream *p = st->private_data;
    if (p->next == p->fail_at) return EINVAL;
    if (p->next >= p->nbatch) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = *p->batches[p->next++];
    out->release = ta_batch_release;
    ta_batch_out++;
    return 0;
}

static const char *ta_last_error(struct ArrowArrayStream *st)
{
    (void)st;
    return "the test producer failed on purpose";
}

static void ta_stream_release(struct ArrowArrayStream *st)
{
    st->release = NULL;
    ta_stream_rel++;
}

static void ta_stream_init(struct ArrowArrayStream *st, ta_stream *p)
{
    st->get_schema = ta_get_schema;
    st->get_next = ta_get_next;
    st->get_last_error = ta_last_error;
    st->release = ta_stream_release;
    st->private_data = p;
}

/* Every handed-out struct released exactly once, the stream too. */
static inline int ta_all_released(void)
{
    return ta_batch_rel == ta_batch_out && ta_schema_rel == ta_schema_out && ta_stream_rel == 1;
}

/* ---- what a test expects of a column ---- */

/* One cell of a column view as text: numbers, strings as they are, binary as hex, vectors
 * and lists as [a,b], nulls as NULL. */
static inline void ta_cell(const pqt_column_view *v, int64_t e, char *out, size_t cap)
{
    if (v->validity && !(v->validity[e / 8] >> (e % 8) & 1)) {
        snprintf(out, cap, "NULL");
        return;
    }
    int k = PQT_KIND_ELEMENT(v->kind);
    const void *d = v->data;
    switch (k) {
    case PQT_INT32:
    case PQT_DATE:
        snprintf(out, cap, "%d", ((const int32_t *)d)[e]);
        break;
    case PQT_INT64:
    case PQT_TIME:
    case PQT_TIMESTAMP:
        snprintf(out, cap, "%" PRId64, ((const int64_t *)d)[e]);
        break;
    case PQT_UINT64:
        snprintf(out, cap, "%" PRIu64, ((const uint64_t *)d)[e]);
        break;
    case PQT_FLOAT32:
        snprintf(out, cap, "%.9g", ((const float *)d)[e]);
        break;
    case PQT_FLOAT64:
        snprintf(out, cap, "%.17g", ((const double *)d)[e]);
        break;
    case PQT_BOOL:
        snprintf(out, cap, "%d", ((const uint8_t *)d)[e]);
        break;
    case PQT_STRING:
        snprintf(out, cap, "%.*s", (int)(v->str_offsets[e + 1] - v->str_offsets[e]),
                 v->str_bytes + v->str_offsets[e]);
        break;
    default: {
        size_t j = 0;
        out[j++] = 'x';
        for (int64_t i = v->str_offsets[e]; i < v->str_offsets[e + 1] && j + 3 < cap; i++)
            j += (size_t)snprintf(out + j, cap - j, "%02x", (uint8_t)v->str_bytes[i]);
        out[j] = 0;
    }
    }
}

/* The rows of column name as "a|b|c" (lists "[x,y]"), compared with want; kind checked. */
static inline void expect_col(pqt_table *t, const char *name, int kind, const char *want)
{
    pqt_column_view v = {.struct_size = sizeof v};
    if (pqt_table_column(t, name, 0, &v) != PQT_OK) {
        fprintf(stderr, "column %s: %s\n", name, pqt_errmsg());
        pqt_test_failures++;
        return;
    }
    if (v.kind != kind) {
        fprintf(stderr, "column %s: kind %s, want %s\n", name, pqt_kind_name(v.kind),
                pqt_kind_name(kind));
        pqt_test_failures++;
    }
    char got[4096] = "", c[256];
    for (int64_t r = 0; r < v.nrows; r++) {
        if (r) strcat(got, "|");
        if (!v.list_offsets) {
            ta_cell(&v, r, c, sizeof c);
            strcat(got, c);
            continue;
        }
        if (v.row_validity && !(v.row_validity[r / 8] >> (r % 8) & 1)) {
            strcat(got, "NULL");
            continue;
        }
        strcat(got, "[");
        for (int64_t e = v.list_offsets[r]; e < v.list_offsets[r + 1]; e++) {
            if (e > v.list_offsets[r]) strcat(got, ",");
            ta_cell(&v, e, c, sizeof c);
            strcat(got, c);
        }
        strcat(got, "]");
    }
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "column %s:\n  got  %s\n  want %s\n", name, got, want);
        pqt_test_failures++;
    }
}

static inline void expect_unit(pqt_table *t, const char *name, int unit)
{
    int u = -9;
    CHECK_OK(pqt_table_time_unit(t, name, &u));
    if (u != unit) fprintf(stderr, "column %s: time unit %d, want %d\n", name, u, unit);
    CHECK(u == unit);
}

#endif
