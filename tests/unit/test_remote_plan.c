/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_remote_plan.c - the coalescing of a hint's ranges into requests (remote/range_plan.c),
 * against hand-computed plans.
 */
#include <string.h>

#include "remote/remote.h"
#include "testutil.h"

/* Plan in[0..n) with gap and max; CHECK that it gives want[0..nwant). */
static void check_plan(const char *name, const pqt_io_range *in, int n, int64_t gap, int64_t max,
                       const pqt_io_range *want, int nwant)
{
    pqt_io_range r[64], out[64];
    if (n > 0) memcpy(r, in, (size_t)n * sizeof *r);
    int64_t cap = pqt_range_plan_cap(r, n, max);
    CHECK(cap <= 64);
    int k = pqt_range_plan(r, n, gap, max, out);
    CHECK(k <= cap);
    if (k != nwant) fprintf(stderr, "%s: %d requests, want %d\n", name, k, nwant);
    CHECK_EQ_I64(k, nwant);
    for (int i = 0; i < k && i < nwant; i++) {
        if (out[i].offset != want[i].offset || out[i].n != want[i].n)
            fprintf(stderr, "%s: request %d is [%lld, +%lld), want [%lld, +%lld)\n", name, i,
                    (long long)out[i].offset, (long long)out[i].n, (long long)want[i].offset,
                    (long long)want[i].n);
        CHECK_EQ_I64(out[i].offset, want[i].offset);
        CHECK_EQ_I64(out[i].n, want[i].n);
    }
}

int main(void)
{
    /* out of order, a gap of 10 merged (gap 10), a gap of 11 not */
    const pqt_io_range a[] = {{100, 50}, {0, 40}, {50, 40}, {161, 9}};
    const pqt_io_range a_want[] = {{0, 150}, {161, 9}};
    check_plan("gaps", a, 4, 10, 1000, a_want, 2);
    /* gap 0: adjacent ranges still form one request, separated ones do not */
    const pqt_io_range b[] = {{0, 10}, {10, 10}, {21, 4}};
    const pqt_io_range b_want[] = {{0, 20}, {21, 4}};
    check_plan("adjacent", b, 3, 0, 1000, b_want, 2);
    /* max: a union longer than 100 starts a new request at the next range */
    const pqt_io_range c[] = {{0, 60}, {60, 30}, {90, 30}, {120, 10}};
    const pqt_io_range c_want[] = {{0, 90}, {90, 40}};
    check_plan("max", c, 4, 5, 100, c_want, 2);
    /* one range longer than max is cut into max-sized pieces */
    const pqt_io_range d[] = {{1000, 250}};
    const pqt_io_range d_want[] = {{1000, 100}, {1100, 100}, {1200, 50}};
    check_plan("split", d, 1, 0, 100, d_want, 3);
    /* overlapping and contained ranges; empty ones dropped */
    const pqt_io_range e[] = {{10, 100}, {20, 10}, {50, 0}, {100, 50}, {300, 0}};
    const pqt_io_range e_want[] = {{10, 140}};
    check_plan("overlap", e, 5, 0, 1000, e_want, 1);
    /* overlapping, the union too long: the second request starts where the first ends */
    const pqt_io_range f[] = {{0, 80}, {50, 80}};
    const pqt_io_range f_want[] = {{0, 80}, {80, 50}};
    check_plan("overlap past max", f, 2, 0, 100, f_want, 2);
    check_plan("nothing", NULL, 0, 0, 100, NULL, 0);
    /* defaults: zero fields take them, a negative retry count means none, and stays none
     * when resolved again */
    pqt_remote_opts o = {.retries = -1, .in_flight = 3}, r, r2;
    pqt_remote_opts_resolve(&o, &r);
    pqt_remote_opts_resolve(&r, &r2);
    CHECK_EQ_I64(r.retries, -1);
    CHECK_EQ_I64(r2.retries, -1);
    CHECK_EQ_I64(r.in_flight, 3);
    CHECK_EQ_I64(r.footer_hint, PQT_REMOTE_FOOTER_HINT);
    CHECK_EQ_I64(r.coalesce_gap, PQT_REMOTE_COALESCE_GAP);
    CHECK(pqt_remote_is_url("http://x/y.parquet") && pqt_remote_is_url("https://x/y"));
    CHECK(!pqt_remote_is_url("/data/http://x") && !pqt_remote_is_url("file.parquet"));
    return pqt_test_done("test_remote_plan");
}
