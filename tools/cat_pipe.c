/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cat_pipe.c - csv and jsonl output on two threads: a reader thread decodes the next batch
 * while this thread writes the current one.
 *
 * Decoding (decompression, levels, values) and writing text cost about the same, so the
 * two overlap almost fully on two cores. Two batch slots go round: the reader fills a free
 * slot and marks it full; the writer views it, writes it and marks it free; the reader
 * frees the arrays of a slot before filling it again, so every library call stays on the
 * reader thread (a pqt_file is used by one thread at a time). Memory: two batches.
 * A failed write stops the reader at its next batch; a failed read ends the output after
 * the rows before it, then its message.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cat.h"

enum { SLOT_FREE, SLOT_FULL };

typedef struct pipe_ctl {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    cat_reader *rd;
    cat_out *o;
    cat_batch slot[2];
    int state[2];
    int done;   /* reader: no batch after the full ones */
    int failed; /* reader: a read failed (rd->err says why) */
    int stop;   /* writer: read no more */
} pipe_ctl;

static void *reader_main(void *arg)
{
    pipe_ctl *p = arg;
    for (int k = 0;; k ^= 1) {
        pthread_mutex_lock(&p->mu);
        while (p->state[k] != SLOT_FREE && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        int stop = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (stop) break;
        cat_batch_free(&p->slot[k], p->o->ncols); /* the writer is done with them */
        int more = cat_next_batch(p->rd, p->o, &p->slot[k]);
        int ok = more && cat_batch_read(p->rd, p->o, &p->slot[k]) == EXIT_OK;
        pthread_mutex_lock(&p->mu);
        if (ok) {
            p->state[k] = SLOT_FULL;
        } else {
            p->done = 1;
            p->failed = more;
        }
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (!ok) break;
    }
    return NULL;
}

/* The same work on this thread alone (no second thread could be started). */
static int one_thread(cat_reader *rd, cat_out *o, cat_batch *b)
{
    while (cat_next_batch(rd, o, b)) {
        if (cat_batch_read(rd, o, b) != EXIT_OK) {
            cat_reader_report(rd);
            return EXIT_FAIL;
        }
        cat_batch_view(o, b);
        int wrc = cat_write_rows(o, b->nrows);
        cat_batch_free(b, o->ncols);
        if (wrc != 0 || sink_flush(&o->sink) != 0) return -1;
    }
    return EXIT_OK;
}

int cat_stream_piped(cat_reader *rd, cat_out *o)
{
    pipe_ctl p;
    memset(&p, 0, sizeof p);
    p.rd = rd;
    p.o = o;
    for (int k = 0; k < 2; k++)
        p.slot[k] = cat_batch_new(o);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    pthread_t th;
    int rc = EXIT_OK;
    if (pthread_create(&th, NULL, reader_main, &p) != 0) {
        rc = one_thread(rd, o, &p.slot[0]);
        goto out;
    }
    for (int k = 0;; k ^= 1) {
        pthread_mutex_lock(&p.mu);
        while (p.state[k] != SLOT_FULL && !p.done)
            pthread_cond_wait(&p.cv, &p.mu);
        int full = p.state[k] == SLOT_FULL;
        pthread_mutex_unlock(&p.mu);
        if (!full) break;
        cat_batch_view(o, &p.slot[k]);
        int wrc = cat_write_rows(o, p.slot[k].nrows);
        /* Each batch shows as soon as it is read. */
        if (wrc == 0) wrc = sink_flush(&o->sink);
        pthread_mutex_lock(&p.mu);
        p.state[k] = SLOT_FREE;
        if (wrc != 0) p.stop = 1;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
        if (wrc != 0) {
            rc = -1;
            break;
        }
    }
    pthread_join(th, NULL);
    if (rc == EXIT_OK && p.failed) {
        cat_reader_report(rd);
        rc = EXIT_FAIL;
    }
out:
    for (int k = 0; k < 2; k++)
        cat_batch_done(&p.slot[k], o->ncols);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    return rc;
}
