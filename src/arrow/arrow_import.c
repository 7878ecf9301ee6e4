/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow_import.c - pqt_table_from_arrow_stream and pqt_write_arrow_stream (layer: arrow):
 * the Arrow C Stream Interface pulled batch by batch, each batch made an in-memory table
 * (arrow_import_batch.c) and then appended to one table or handed to the streaming writer.
 *
 * Ownership: the stream is released on return whatever happens; every array get_next fills
 * is released as soon as its rows are copied, the schema once at the end. Nothing of the
 * producer is kept.
 */
#include <string.h>

#include "arrow/arrow_import.h"
#include "util/error.h"
#include "util/mem.h"

/* Where the batches go: the in-memory table, built in O(n log n) copies (pqt_table_append
 * copies the rows it appends to, so batches are merged as a binary counter merges: two
 * tables of about the same size at a time), or a writer. */
#define MERGE_LEVELS 64

typedef struct sink {
    pqt_table *level[MERGE_LEVELS]; /* level[k] holds about 2^k batches, or NULL */
    pqt_writer *writer;
} sink;

/* The producer's message for a failed callback (it may have none). */
static const char *producer_error(struct ArrowArrayStream *in)
{
    const char *m = in->get_last_error ? in->get_last_error(in) : NULL;
    return m ? m : "(no message)";
}

static pqt_status table_push(sink *s, pqt_table *bt)
{
    pqt_table *carry = bt;
    for (int k = 0; k < MERGE_LEVELS; k++) {
        if (!s->level[k]) {
            s->level[k] = carry;
            return PQT_OK;
        }
        /* level k holds earlier rows: carry goes after them */
        pqt_status st = pqt_table_append(s->level[k], carry);
        pqt_table_close(carry);
        if (st != PQT_OK) return st;
        carry = s->level[k];
        s->level[k] = NULL;
    }
    pqt_table_close(carry);
    return pqt_err(PQT_LIMIT, "more than 2^64 batches");
}

/* Fold the levels, earliest rows (highest level) first, into one table. */
static pqt_status table_finish(sink *s, pqt_table *templ, pqt_table **ret)
{
    pqt_table *acc = templ;
    for (int k = MERGE_LEVELS - 1; k >= 0; k--) {
        if (!s->level[k]) continue;
        pqt_status st = pqt_table_append(acc, s->level[k]);
        pqt_table_close(s->level[k]);
        s->level[k] = NULL;
        if (st != PQT_OK) return st;
    }
    *ret = acc;
    return PQT_OK;
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
        pqt_table *bt = NULL;
        pqt_status st = a.length == 0 ? PQT_OK : pqt_aimp_batch_table(cs, root, &a, batch_no, &bt);
        a.release(&a);
        if (st != PQT_OK) return st;
        if (!bt) continue;
        if (s->writer) {
            st = pqt_writer_write(s->writer, bt);
            pqt_table_close(bt);
            if (st != PQT_OK) pqt_err_prefix("batch %lld: ", (long long)batch_no);
        } else {
            st = table_push(s, bt);
        }
        if (st != PQT_OK) return st;
    }
}

/* The import both calls share: schema, template, batches; path NULL makes a table. */
static pqt_status import(const char *call, struct ArrowArrayStream *in, const char *path,
                         const pqt_write_opts *opts, pqt_table **ret)
{
    struct ArrowSchema root;
    memset(&root, 0, sizeof root);
    pqt_aimp_schema cs = {0};
    pqt_table *templ = NULL;
    sink s;
    memset(&s, 0, sizeof s);
    pqt_status st = PQT_OK;
    int rc = in->get_schema(in, &root);
    if (rc != 0)
        st = pqt_err(PQT_IO, "the producer's get_schema failed (error %d): %s", rc,
                     producer_error(in));
    else if (!root.release)
        st = pqt_err(PQT_CORRUPT, "get_schema succeeded and gave a released schema");
    if (st == PQT_OK) st = pqt_aimp_schema_parse(&root, &cs);
    if (st == PQT_OK) st = pqt_aimp_batch_table(&cs, &root, NULL, 0, &templ);
    if (st == PQT_OK && path) st = pqt_writer_open(&s.writer, path, templ, opts);
    if (st == PQT_OK) st = pull_batches(in, &cs, &root, &s);
    if (path) {
        if (st == PQT_OK)
            st = pqt_writer_close(s.writer);
        else
            pqt_writer_abort(s.writer);
    } else if (st == PQT_OK) {
        st = table_finish(&s, templ, ret);
        if (st == PQT_OK) templ = NULL;
    }
    for (int k = 0; k < MERGE_LEVELS; k++)
        pqt_table_close(s.level[k]);
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
