/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz.h - shared by every tests/fuzz target: the libFuzzer entry point's prototype and a
 * reader that takes parameters off the front of the input.
 *
 * Targets take their parameters (encoding, codec, sizes) from the first bytes so that the
 * fuzzer mutates them together with the data; when the input runs out the reader returns
 * zeros, so every input, however short, is a valid run.
 */
#ifndef PQT_FUZZ_H
#define PQT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline uint64_t fz_take(fz_in *in, int nbytes)
{
    uint64_t v = 0;
    for (int i = 0; i < nbytes && in->n > 0; i++, in->p++, in->n--)
        v |= (uint64_t)in->p[0] << (8 * i);
    return v;
}

/* Split off the first k bytes (fewer if the input is shorter) as an input of its own. */
static inline fz_in fz_split(fz_in *in, size_t k)
{
    fz_in head = {in->p, k < in->n ? k : in->n};
    in->p += head.n;
    in->n -= head.n;
    return head;
}

/* An exact-size heap copy, so that AddressSanitizer sees a read one byte past a piece that
 * was cut out of the middle of the input (the input itself is exact-size already). */
static inline uint8_t *fz_dup(fz_in piece)
{
    uint8_t *c = malloc(piece.n ? piece.n : 1);
    if (c && piece.n) memcpy(c, piece.p, piece.n);
    return c;
}

#endif
