/* SPDX-License-Identifier: Apache-2.0 */
/*
 * par.h - the one thread-count policy and the one hand-off of a worker's failure to the
 * calling thread (layer: util). Every parallel region of the library uses both, so a count
 * of 0 means the same thing everywhere and a failure reports the same task whatever the
 * schedule did.
 */
#ifndef PQT_UTIL_PAR_H
#define PQT_UTIL_PAR_H

#include <stdatomic.h>
#include <stdint.h>

#include "util/error.h"

/* Threads a call runs with: requested when > 0, else OpenMP's default; 1 inside a parallel
 * region (a table used from a region is that thread's own); at least 1. */
int pqt_par_threads(int requested);
/* As pqt_par_threads, never more than ntasks (and 1 when ntasks < 1): no idle threads. */
int pqt_par_threads_for(int requested, int64_t ntasks);

#define PQT_PAR_MSG 512

/* One worker thread's failures, kept from its own message (an OpenMP pool thread's message
 * belongs to whoever else uses that thread). */
typedef struct pqt_par_thread {
    char msg[PQT_PAR_MSG];
    pqt_err_target prev;
} pqt_par_thread;
/* Inside the region, before the thread's first task: its failures go to th->msg. */
void pqt_par_enter(pqt_par_thread *th);
/* Before the thread leaves the region: its failures go where they went before. */
void pqt_par_leave(pqt_par_thread *th);

/* The failure a region reports: the lowest-numbered failed task's, so the message does not
 * depend on the schedule. Initialise before the region, note from any thread, raise after.
 * A worker may skip the tasks above the lowest failure so far (pqt_par_skip) but never the
 * ones below it: a dynamic schedule is nonmonotonic (OpenMP 5), so a thread may be handed
 * task 1 after its own task 2 failed, and task 1 must still run to report first. */
typedef struct pqt_par_fail {
    _Atomic int64_t task; /* INT64_MAX while nothing failed */
    pqt_status st;
    char msg[PQT_PAR_MSG];
} pqt_par_fail;
void pqt_par_fail_init(pqt_par_fail *pf);
/* Record that task failed with st and th's message (thread-safe); a no-op for PQT_OK. */
void pqt_par_fail_note(pqt_par_fail *pf, int64_t task, pqt_status st, const pqt_par_thread *th);
/* Whether task can be skipped: a lower-numbered task already failed, so its result could
 * not be reported. The lowest failure only falls, so a stale read only skips less. */
static inline int pqt_par_skip(pqt_par_fail *pf, int64_t task)
{
    return task > atomic_load_explicit(&pf->task, memory_order_relaxed);
}
/* On the calling thread, after the region: PQT_OK, or the failure recorded as this thread's. */
pqt_status pqt_par_fail_raise(const pqt_par_fail *pf);

#endif
