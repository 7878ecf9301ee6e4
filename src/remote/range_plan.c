/* SPDX-License-Identifier: Apache-2.0 */
/*
 * range_plan.c - the requests a hint becomes: byte ranges sorted, merged across small gaps,
 * cut at a maximum request size (layer: remote).
 *
 * Why merge across gaps: over HTTP a request costs a round trip (tens of ms to an object
 * store) while a few hundred KiB more in one answer cost little; docs/remote.md gives the
 * measured defaults. Why cut: one huge request cannot be spread over several connections,
 * and a failure repeats all of it.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "remote/remote.h"

static int by_offset(const void *a, const void *b)
{
    const pqt_io_range *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int64_t pqt_range_plan_cap(const pqt_io_range *ranges, int n, int64_t max)
{
    int64_t cap = n; /* a request per group, and a group longer than max lies in one range */
    for (int i = 0; i < n; i++)
        if (ranges[i].n > 0) cap += (ranges[i].n + max - 1) / max;
    return cap + 1;
}

/* Append [off, off + len) to ret, cut into pieces of at most max bytes. */
static int emit(pqt_io_range *ret, int k, int64_t off, int64_t len, int64_t max)
{
    while (len > 0) {
        int64_t piece = len < max ? len : max;
        ret[k++] = (pqt_io_range){off, piece};
        off += piece;
        len -= piece;
    }
    return k;
}

int pqt_range_plan(pqt_io_range *ranges, int n, int64_t gap, int64_t max, pqt_io_range *ret)
{
    if (max < 1) max = 1;
    if (gap < 0) gap = 0;
    qsort(ranges, (size_t)n, sizeof *ranges, by_offset);
    int k = 0;
    int64_t lo = 0, hi = 0; /* the request being grown: [lo, hi) */
    bool open = false;
    for (int i = 0; i < n; i++) {
        const pqt_io_range *r = &ranges[i];
        if (r->n <= 0 || r->offset < 0) continue;
        int64_t end = r->offset + r->n;
        if (open && r->offset <= hi + gap && end - lo <= max) {
            if (end > hi) hi = end;
            continue;
        }
        if (open && r->offset < hi) { /* overlapping, but the union is too long: go on after hi */
            if (end <= hi) continue;
            k = emit(ret, k, lo, hi - lo, max);
            lo = hi;
            hi = end;
            continue;
        }
        if (open) k = emit(ret, k, lo, hi - lo, max);
        lo = r->offset;
        hi = end;
        open = true;
    }
    if (open) k = emit(ret, k, lo, hi - lo, max);
    return k;
}
