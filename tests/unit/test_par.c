/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_par.c - the thread policy and the worker failure hand-off (util/par.h): a region whose
 * tasks 7 and 3 fail reports task 3's message whatever the schedule, the caller's message is
 * untouched until the raise, tasks below a failure still run whatever order they are handed
 * out in, and the thread counts follow the policy.
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
    CHECK(pqt_par_skip(&pf, 4) && !pqt_par_skip(&pf, 3) && !pqt_par_skip(&pf, 0));
    CHECK(pqt_par_fail_raise(&pf) == PQT_RANGE);
    CHECK(strcmp(pqt_errmsg(), "task 3 is out of range") == 0);

    pqt_par_fail_init(&pf);
    CHECK(!pqt_par_skip(&pf, INT64_MAX - 1));
    CHECK(pqt_par_fail_raise(&pf) == PQT_OK);
    CHECK(strcmp(pqt_errmsg(), "task 3 is out of range") == 0); /* success leaves it */
}

/* Tasks run in the order given, skipping what pqt_par_skip allows; 7 and 3 fail. Returns how
 * many ran. A worker handed 7 before 3 (a nonmonotonic schedule does that) must still run 3. */
static int run_in_order(const int *order, int n, pqt_status *raised)
{
    pqt_par_fail pf;
    pqt_par_fail_init(&pf);
    pqt_par_thread th;
    pqt_par_enter(&th);
    int ran = 0;
    for (int i = 0; i < n; i++) {
        int task = order[i];
        if (pqt_par_skip(&pf, task)) continue;
        ran++;
        pqt_status st = PQT_OK;
        if (task == 7) st = pqt_err(PQT_CORRUPT, "task %d is corrupt", task);
        if (task == 3) st = pqt_err(PQT_RANGE, "task %d is out of range", task);
        pqt_par_fail_note(&pf, task, st, &th);
    }
    pqt_par_leave(&th);
    *raised = pqt_par_fail_raise(&pf);
    return ran;
}

static void skipping(void)
{
    int up[16], down[16];
    for (int i = 0; i < 16; i++) {
        up[i] = i;
        down[i] = 15 - i;
    }
    pqt_status st;
    CHECK(run_in_order(up, 16, &st) == 4); /* 0..3, then nothing above the failure */
    CHECK(st == PQT_RANGE && strcmp(pqt_errmsg(), "task 3 is out of range") == 0);
    CHECK(run_in_order(down, 16, &st) == 16); /* 7 failed first: 6..0 still run */
    CHECK(st == PQT_RANGE && strcmp(pqt_errmsg(), "task 3 is out of range") == 0);
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
    skipping();
    policy();
    return pqt_test_done("test_par");
}
