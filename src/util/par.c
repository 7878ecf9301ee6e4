/* SPDX-License-Identifier: Apache-2.0 */
/*
 * par.c - the thread-count policy and the worker failure hand-off (layer: util).
 */
#include "util/par.h"

#include <stdio.h>

#include <omp.h>

int pqt_par_threads(int requested)
{
    if (omp_in_parallel()) return 1;
    int n = requested > 0 ? requested : omp_get_max_threads();
    return n < 1 ? 1 : n;
}

int pqt_par_threads_for(int requested, int64_t ntasks)
{
    int n = pqt_par_threads(requested);
    if (ntasks < n) n = ntasks < 1 ? 1 : (int)ntasks;
    return n;
}

void pqt_par_enter(pqt_par_thread *th)
{
    th->msg[0] = '\0';
    th->prev = pqt_err_redirect(th->msg, sizeof th->msg);
}

void pqt_par_leave(pqt_par_thread *th)
{
    pqt_err_restore(th->prev);
}

void pqt_par_fail_init(pqt_par_fail *pf)
{
    atomic_init(&pf->task, INT64_MAX);
    pf->st = PQT_OK;
    pf->msg[0] = '\0';
}

void pqt_par_fail_note(pqt_par_fail *pf, int64_t task, pqt_status st, const pqt_par_thread *th)
{
    if (st == PQT_OK) return;
#pragma omp critical(pqt_par_fail)
    if (task < atomic_load_explicit(&pf->task, memory_order_relaxed)) {
        atomic_store_explicit(&pf->task, task, memory_order_relaxed);
        pf->st = st;
        snprintf(pf->msg, sizeof pf->msg, "%s", th ? th->msg : "");
    }
}

pqt_status pqt_par_fail_raise(const pqt_par_fail *pf)
{
    if (pf->st == PQT_OK) return PQT_OK;
    return pqt_err(pf->st, "%s", pf->msg);
}
