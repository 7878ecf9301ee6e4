/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reader_int.h - what the reader's strategies share (layer: read, private).
 */
#ifndef PQT_READ_READER_INT_H
#define PQT_READ_READER_INT_H

#include "read/request.h"

/* One read under way: the request, its row groups and what the sizing found. Arrays of
 * the windowed strategies are indexed like the request's (by rg, relative to rg0). */
typedef struct pqt_read_job {
    const pqt_read_req *rq;
    const pqt_row_group *groups; /* meta->row_groups + rq->rg0 */
    pqt_chunk_src src;
    int first, last, nused;        /* first and last used row group, and how many */
    int64_t elem_cap;              /* lists: the chunks' value counts added up */
    int64_t *elem_base, *elem_end; /* lists windowed: each row group's elements */
    int64_t *win, *kth;            /* strings windowed: byte window and spare offset slot */
} pqt_read_job;

/* Whether selection s reads anything. */
static inline bool pqt_read_used(const pqt_sel *s)
{
    return s->kind != PQT_SEL_NONE && s->nsel != 0;
}

/* Read row group rg (relative) of the job with the thread's context cx into b. */
typedef pqt_status (*pqt_read_rg_fn)(pqt_read_job *j, pqt_chunk_ctx *cx, int rg, pqt_colbuf *b,
                                     void *arg);
/* Every used row group by fn, in parallel (util/par.h: the lowest failed row group's
 * message is the one raised). */
pqt_status pqt_read_parallel(pqt_read_job *j, pqt_colbuf *b, pqt_read_rg_fn fn, void *arg);

/* The windowed strategies (reader_win.c): _fits lays the windows out in b, or says they
 * cannot be (then the caller reads in order into b as it is: it is still empty). */
bool pqt_read_lists_win_fits(pqt_read_job *j, pqt_colbuf *b);
/* *retry true when a row group's elements did not fill its window: b is then to be read
 * again in order. */
pqt_status pqt_read_lists_win(pqt_read_job *j, pqt_colbuf *b, bool *retry);
bool pqt_read_strings_win_fits(pqt_read_job *j, pqt_colbuf *b);
pqt_status pqt_read_strings_win(pqt_read_job *j, pqt_colbuf *b);
/* Free the windows' arrays. */
void pqt_read_win_free(pqt_read_job *j);

#endif
