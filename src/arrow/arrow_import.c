/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import.c - pqt_table_from_arrow_stream and pqt_write_arrow_stream (layer: arrow):
 * the Arrow C Stream Interface pulled batch by batch, each batch's columns converted
 * (arrow_import_batch.c) and gathered for one in-memory table (arrow_import_acc.c), or made
 * a table of its own that the streaming writer takes.
 *
 * Ownership: the stream is released on return whatever happens; every array get_next fills
 * is released as soon as its rows are copied, the schema once at the end. Nothing of the
 * producer is kept.
 */
#include <string.h>

#include "arrow/arrow_import.h"
#include "util/error.h"
#include "util/mem.h"

/* Where the batches go: one accumulator per column (an in-memory table), or a writer. */
typedef struct sink {
    pqt_aimp_acc *acc;
    pqt_writer *writer;
} sink;

/* The producer's message for a failed callback (it may have none). */
static const char *producer_error(struct ArrowArrayStream *in)
{
    const char *m = in->get_last_error ? in->get_last_error(in) : NULL;
    return m ? m : "(no message)";
}

/* One batch's rows into s. */
static pqt_status take_batch(const pqt_aimp_schema *cs, const struct ArrowSchema *root,
                             const struct ArrowArray *a, int64_t batch_no, sink *s)
{
    if (a->length == 0) return PQT_OK;
    if (s->acc) return pqt_aimp_batch_append(cs, root, a, batch_no, s->acc);
    pqt_table *bt = NULL;
    PQT_TRY(pqt_aimp_batch_table(cs, root, a, batch_no, &bt));
    pqt_status st = pqt_writer_write(s->writer, bt);
    if (st != PQT_OK) pqt_err_prefix("batch %lld: ", (long long)batch_no);
    pqt_table_close(bt);
    return st;
}

/* Pull every batch of in (its schema parsed into cs, root its struct schema) into s. */
static pqt_status pull_batches(struct ArrowArrayStream *in, const pqt_aimp_schema *cs,
                               const struct ArrowSchema *root, sink *s)
{
    for (int64_t batch_no = 1;; batch_no++) {
        struct ArrowArray a;
        memset(&a, 0, sizeof a);
        int rc = in->get_next(in, &a);
        if (rc != 0) {
            if (a.release) a.release(&a);
            return pqt_err(PQT_IO, "batch %lld: the producer's get_next failed (error %d): %s",
                           (long long)batch_no, rc, producer_error(in));
        }
        if (!a.release) return PQT_OK; /* the end of the stream */
        pqt_status st = take_batch(cs, root, &a, batch_no, s);
        a.release(&a);
        if (st != PQT_OK) return st;
    }
}

/* The import both calls share: schema, then the batches into a writer (path) or a table. */
static pqt_status import(const char *call, struct ArrowArrayStream *in, const char *path,
                         const pqt_write_opts *opts, pqt_table **ret)
{
    struct ArrowSchema root;
    memset(&root, 0, sizeof root);
    pqt_aimp_schema cs = {0};
    pqt_table *templ = NULL;
    sink s = {NULL, NULL};
    pqt_status st = PQT_OK;
    int rc = in->get_schema(in, &root);
    if (rc != 0)
        st = pqt_err(PQT_IO, "the producer's get_schema failed (error %d): %s", rc,
                     producer_error(in));
    else if (!root.release)
        st = pqt_err(PQT_CORRUPT, "get_schema succeeded and gave a released schema");
    if (st == PQT_OK) st = pqt_aimp_schema_parse(&root, &cs);
    if (st == PQT_OK && path) {
        /* the writer's schema: a table of the columns with no row */
        st = pqt_aimp_batch_table(&cs, &root, NULL, 0, &templ);
        if (st == PQT_OK) st = pqt_writer_open(&s.writer, path, templ, opts);
    } else if (st == PQT_OK) {
        s.acc = pqt_calloc((size_t)cs.ncols + 1, sizeof *s.acc);
        if (!s.acc) st = pqt_err(PQT_NOMEM, "out of memory");
    }
    if (st == PQT_OK) st = pull_batches(in, &cs, &root, &s);
    if (path) {
        if (st == PQT_OK)
            st = pqt_writer_close(s.writer);
        else
            pqt_writer_abort(s.writer);
    } else if (st == PQT_OK) {
        st = pqt_aimp_acc_table(&cs, s.acc, ret);
    }
    pqt_aimp_acc_free(s.acc, cs.ncols);
    pqt_mem_free(s.acc);
    pqt_table_close(templ);
    pqt_aimp_schema_free(&cs);
    if (root.release) root.release(&root);
    in->release(in);
    if (st != PQT_OK) pqt_err_prefix("%s: ", call);
    return st;
}

pqt_status pqt_table_from_arrow_stream(struct ArrowArrayStream *in, pqt_table **ret)
{
    const char *call = "pqt_table_from_arrow_stream";
    if (!in || !ret) {
        if (in && in->release) in->release(in);
        return pqt_err(PQT_MISUSE, "%s: NULL stream or ret", call);
    }
    if (!in->release) return pqt_err(PQT_MISUSE, "%s: the stream is released", call);
    pqt_table *t = NULL;
    pqt_status st = import(call, in, NULL, NULL, &t);
    if (st == PQT_OK) *ret = t;
    return st;
}

pqt_status pqt_write_arrow_stream(const char *path, struct ArrowArrayStream *in,
                                  const pqt_write_opts *opts)
{
    const char *call = "pqt_write_arrow_stream";
    if (!in || !path) {
        if (in && in->release) in->release(in);
        return pqt_err(PQT_MISUSE, "%s: NULL stream or path", call);
    }
    if (!in->release) return pqt_err(PQT_MISUSE, "%s: the stream is released", call);
    return import(call, in, path, opts, NULL);
}
