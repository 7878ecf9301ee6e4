#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""sample_model.py - an independent model of pqt's frozen sampling rule (docs/sampling.md).

Written from the Philox paper (Salmon et al., SC11) and the rule's text, not from the C code,
so that tests/unit/test_sample_rows.c compares the library against a second implementation.
It first checks Random123's known-answer vectors, then prints, for each SEED:FRACTION:NROWS
argument (or SEED:FRACTION:LO-HI, rows LO..HI inclusive), the 0-based physical rows the rule
keeps, as a C initializer:

    python3 tests/sample_model.py 42:0.1:200 7:0.5:4294967290-4294967301 ...

Rule pqt-sample-v1 (bernoulli, philox4x32-10): row r is kept iff u < fraction, where
  key = (seed mod 2^32, seed div 2^32)
  ctr = (r mod 2^32, r div 2^32, 0x53414D50, 1)
  (x0, x1, x2, x3) = Philox4x32-10(ctr, key)
  u = ((x1 * 2^32 + x0) div 2^11) / 2^53          (exact, compared exactly)
"""
import sys
from fractions import Fraction

MASK = 0xFFFFFFFF


def philox4x32(ctr, key, rounds=10):
    x = list(ctr)
    k0, k1 = key
    for i in range(rounds):
        if i:
            k0 = (k0 + 0x9E3779B9) & MASK
            k1 = (k1 + 0xBB67AE85) & MASK
        a = 0xD2511F53 * x[0]
        b = 0xCD9E8D57 * x[2]
        x = [(b >> 32) ^ x[1] ^ k0, b & MASK, (a >> 32) ^ x[3] ^ k1, a & MASK]
    return x


KAT = [  # Random123 tests/kat_vectors: rounds, counter[4], key[2] -> output[4]
    (7, [0, 0, 0, 0], [0, 0], [0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48]),
    (7, [MASK] * 4, [MASK] * 2, [0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662]),
    (7, [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0],
     [0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a]),
    (10, [0, 0, 0, 0], [0, 0], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
    (10, [MASK] * 4, [MASK] * 2, [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
    (10, [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0],
     [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]),
]


def keep(seed, fraction, r):
    x = philox4x32([r & MASK, r >> 32, 0x53414D50, 1], [seed & MASK, seed >> 32])
    v = ((x[1] << 32) | x[0]) >> 11
    return Fraction(v, 1 << 53) < Fraction(fraction)


def main():
    for rounds, ctr, key, want in KAT:
        got = philox4x32(ctr, key, rounds)
        assert got == want, (rounds, ctr, key, [hex(g) for g in got])
    print("/* known-answer vectors: ok */")
    for arg in sys.argv[1:]:
        seed, fraction, span = arg.split(":")
        lo, hi = (int(x) for x in span.split("-")) if "-" in span else (0, int(span) - 1)
        seed, fraction = int(seed), float(fraction)
        rows = [r for r in range(lo, hi + 1) if keep(seed, fraction, r)]
        print("/* seed %d, fraction %r, rows %d..%d: %d kept */" % (seed, fraction, lo, hi,
                                                                   len(rows)))
        print("{" + ", ".join(str(r) for r in rows) + "}")


if __name__ == "__main__":
    main()
