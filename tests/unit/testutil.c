/* SPDX-License-Identifier: Apache-2.0 */
/* testutil.c - see testutil.h */
#include "testutil.h"

#include "pqt.h"

int pqt_test_failures = 0;

int pqt_test_done(const char *name)
{
    if (pqt_test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, pqt_test_failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

uint64_t pqt_test_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
