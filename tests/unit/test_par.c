/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_par.c - the thread policy and the worker failure hand-off (util/par.h): a region whose
 * tasks 7 and 3 fail reports task 3's message whatever the schedule, the caller's message is
 * untouched until the raise, and the thread counts follow the policy.
 */
#include <string.h>

#include <omp.h>

#include "testutil.h"
#include "util/par.h"

static void hand_off(int threads)
{
    pqt_err(PQT_IO, "the caller's own message");
    pqt_par_fail pf;
    pqt_par_fail_init(&pf);
#pragma omp parallel num_threads(threads)
    {
        pqt_par_thread th;
        pqt_par_enter(&th);
#pragma omp for schedule(dynamic, 1)
        for (int task = 0; task < 16; task++) {
            pqt_status st = PQT_OK;
            if (task == 7) st = pqt_err(PQT_CORRUPT, "task %d is corrupt", task);
            if (task == 3) st = pqt_err(PQT_RANGE, "task %d is out of range", task);
            pqt_par_fail_note(&pf, task, st, &th);
        }
        pqt_par_leave(&th);
    }
    CHECK(strcmp(pqt_errmsg(), "the caller's own message") == 0);
    CHECK(pqt_par_failed(&pf));
    CHECK(pqt_par_fail_raise(&pf) == PQT_RANGE);
    CHECK(strcmp(pqt_errmsg(), "task 3 is out of range") == 0);

    pqt_par_fail_init(&pf);
    CHECK(!pqt_par_failed(&pf));
    CHECK(pqt_par_fail_raise(&pf) == PQT_OK);
    CHECK(strcmp(pqt_errmsg(), "task 3 is out of range") == 0); /* success leaves it */
}

static void policy(void)
{
    CHECK(pqt_par_threads(3) == 3);
    CHECK(pqt_par_threads(0) == (omp_get_max_threads() < 1 ? 1 : omp_get_max_threads()));
    CHECK(pqt_par_threads_for(8, 2) == 2);
    CHECK(pqt_par_threads_for(8, 0) == 1);
    CHECK(pqt_par_threads_for(2, 100) == 2);
    int inside = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        inside = pqt_par_threads(4);
    }
    CHECK(inside == 1);
}

int main(void)
{
    hand_off(1);
    hand_off(2);
    hand_off(4);
    policy();
    return pqt_test_done("test_par");
}
