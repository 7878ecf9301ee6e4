#!/usr/bin/env python3
# make_healpix_truth.py - HEALPix truth from healpy for tests/unit/test_healpix.c.
#
#   python3 tests/data/make_healpix_truth.py [--seed N] [--scale S] [OUT]
#
# With no options it writes tests/data/healpix_truth.txt, the committed file test_healpix
# checks on every run (no python needed). tests/test_healpix_healpy.sh runs it with a fresh
# seed and a larger scale into a temporary file and hands that to test_healpix: the same
# checks against healpy live. Needs numpy and healpy (Debian python3-numpy, python3-healpy).
#
# Lines (numbers as Python's repr, which reads back to the same double):
#   A ra dec p29 [k:pk ...]    healpy.ang2pix(2^k, ra, dec, nest=True, lonlat=True): p29 at
#                              order 29; at any other order k the pixel is p29 >> 2(29-k)
#                              unless listed as k:pk
#   P k pix ra dec             healpy.pix2ang(2^k, pix, nest=True, lonlat=True)
#   R k rad                    healpy.max_pixrad(2^k)
#   C ra0 dec0 radius k fact n lo:len ...
#                              healpy.query_disc(2^k, vec, radians(radius), inclusive=True,
#                              nest=True, fact=fact): n pixels, as runs of consecutive pixels
import argparse
import math
import sys

import numpy as np
import healpy as hp

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=31)
ap.add_argument("--scale", type=float, default=1.0)
ap.add_argument("out", nargs="?", default="tests/data/healpix_truth.txt")
args = ap.parse_args()
rng = np.random.default_rng(args.seed)
S = args.scale
lines = []


def f(x):
    return repr(float(x))


# --- ang2pix -------------------------------------------------------------------------------
pts = []
# the poles, the equator, the cap boundaries (dec = asin(2/3)), ra 0/360 and wrapped values
specials_ra = [0.0, -0.0, 1e-300, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0,
               359.99999999999994, 360.0, 720.0, -45.0, -360.0, 1e10, -1e10, 123456.789]
cap = math.degrees(math.asin(2.0 / 3.0))
specials_dec = [90.0, -90.0, 0.0, cap, -cap, np.nextafter(cap, 0), np.nextafter(cap, 90),
                89.99999999, -89.99999999, 1e-300, -1e-300]
pts += [(r, d) for r in specials_ra for d in specials_dec]
# uniform on the sphere, and ra far outside [0, 360)
n = int(1500 * S)
pts += list(zip(rng.uniform(0, 360, n), np.degrees(np.arcsin(rng.uniform(-1, 1, n)))))
n = int(200 * S)
pts += list(zip(rng.uniform(-1e6, 1e6, n), np.degrees(np.arcsin(rng.uniform(-1, 1, n)))))
# near the poles, where healpy switches to sin(theta)
n = int(200 * S)
pts += list(zip(rng.uniform(0, 360, n), 90 - 10.0 ** rng.uniform(-12, 0.5, n)))
pts += list(zip(rng.uniform(0, 360, n), -90 + 10.0 ** rng.uniform(-12, 0.5, n)))
# pixel corners, edge points and centres at several orders: points on edges
for k in [0, 1, 2, 3, 5, 8, 11, 13, 17, 20, 24, 27, 29]:
    ns = 1 << k
    pix = np.arange(12 * ns * ns) if k <= 1 else rng.integers(0, 12 * ns * ns, int(12 * S) + 1)
    for p in pix:
        b = hp.boundaries(ns, int(p), step=2, nest=True)
        lon, lat = hp.vec2ang(b.T, lonlat=True)
        pts += list(zip(lon, lat))
        lon, lat = hp.pix2ang(ns, int(p), nest=True, lonlat=True)
        pts.append((lon, lat))
for r, d in pts:
    r, d = float(r), min(90.0, max(-90.0, float(d)))
    p = [int(hp.ang2pix(1 << k, r, d, nest=True, lonlat=True)) for k in range(30)]
    extra = ["%d:%d" % (k, p[k]) for k in range(29) if p[k] != p[29] >> (2 * (29 - k))]
    lines.append(" ".join(["A", f(r), f(d), str(p[29])] + extra))

# --- pix2ang and max_pixrad ----------------------------------------------------------------
for k in range(30):
    lines.append("R %d %s" % (k, f(hp.max_pixrad(1 << k))))
    ns = 1 << k
    npix = 12 * ns * ns
    pix = set(int(x) for x in rng.integers(0, npix, int(20 * S) + 1))
    pix |= {0, npix - 1, npix // 2, 4 * ns * ns, 8 * ns * ns - 1}
    for p in sorted(pix):
        lon, lat = hp.pix2ang(ns, p, nest=True, lonlat=True)
        lines.append("P %d %d %s %s" % (k, p, f(lon), f(lat)))

# --- query_disc ----------------------------------------------------------------------------
max_count = 4000 * S


def cone_centre(i):
    """Centres anywhere, at the poles, near them and on ra = 0/360."""
    kind = i % 6
    if kind == 0:
        return (rng.choice([0.0, 90.0, 359.999999]), rng.choice([90.0, -90.0]))
    if kind == 1:
        return (rng.uniform(0, 360), rng.choice([1, -1]) * (90 - 10.0 ** rng.uniform(-6, 0.5)))
    if kind == 2:
        return (rng.choice([0.0, 360.0, 1e-9, 359.9999999]), float(rng.uniform(-89, 89)))
    return (rng.uniform(0, 360), math.degrees(math.asin(rng.uniform(-1, 1))))


ncones = int(60 * S)
for i in range(ncones):
    ra0, dec0 = cone_centre(i)
    radius = float(10.0 ** rng.uniform(-4, math.log10(120)))
    if i % 11 == 0:
        radius = float(rng.choice([1e-4, 0.5, 30.0, 90.0, 120.0]))
    if i % 6 == 5:  # tiny cones at the finest orders, where rounding matters most
        radius = float(10.0 ** rng.uniform(-7, -4))
        if i % 12 == 5:
            ra0, dec0 = rng.uniform(0, 360), rng.choice([1, -1]) * (90 - 10.0 ** rng.uniform(-9, -3))
    vec = hp.ang2vec(ra0, dec0, lonlat=True)
    r = math.radians(radius)
    # the orders whose inclusive answer stays small enough to list
    pixel = math.sqrt(math.pi / 3)
    ks = [k for k in range(30) if math.pi * ((r + 2 * pixel / (1 << k)) / (pixel / (1 << k))) ** 2
          <= max_count]
    pick = rng.choice(ks, size=min(2, len(ks)), replace=False)
    if i % 6 == 5:
        pick = ks[-2:]
    for k in pick:
        k = int(k)
        facts = [x for x in (1, 2, 4, 8) if (1 << (29 - k)) >= x]
        fact = int(rng.choice(facts))
        got = np.sort(hp.query_disc(1 << k, vec, r, inclusive=True, nest=True, fact=fact))
        runs = []
        for p in got:
            p = int(p)
            if runs and runs[-1][0] + runs[-1][1] == p:
                runs[-1][1] += 1
            else:
                runs.append([p, 1])
        lines.append(" ".join(["C", f(ra0), f(dec0), f(radius), str(k), str(fact), str(len(got))] +
                              ["%d:%d" % (a, b) for a, b in runs]))

with open(args.out, "w") as out:
    out.write("# HEALPix truth from healpy %s (numpy %s), seed %d, scale %g: written by "
              "tests/data/make_healpix_truth.py; do not edit\n"
              % (hp.__version__, np.__version__, args.seed, S))
    out.write("\n".join(lines) + "\n")
print("%s: %d lines" % (args.out, len(lines)), file=sys.stderr)
