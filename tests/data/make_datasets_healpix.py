#!/usr/bin/env python3
"""HEALPix numbers for tests/data/make_datasets.mjs, from healpy (Debian python3-healpy).

  make_datasets_healpix.py pix IN.csv OUT.csv
      IN: a header, then id,ra,dec (degrees). OUT: id,ra,dec,_healpix_29 with ra and dec
      written back by repr() (the caller checks they read back as the same doubles) and the
      order-29 NESTED pixel of healpy.ang2pix(2**29, ra, dec, nest=True, lonlat=True).

  make_datasets_healpix.py disc CONES.csv PARTS.csv OUT.tsv
      CONES: name,ra0,dec0,radius (degrees); PARTS: Norder,Npix. For each cone, the
      partitions healpy.query_disc(2**k, vec, radians(r), inclusive=True, nest=True) says may
      meet it (a conservative superset, healpy's own test of pixel overlap), one line:
      name <TAB> k/n,k/n,... ("-" when none).

Only the standard library, numpy and healpy; the generator runs it with /usr/bin/python3 (or
$PYTHON).
"""
import csv
import math
import sys

import healpy
import numpy as np


def pix(inp, out):
    ids, ra, dec = [], [], []
    with open(inp, newline="") as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            ids.append(int(row[0]))
            ra.append(float(row[1]))
            dec.append(float(row[2]))
    p = healpy.ang2pix(2**29, np.array(ra), np.array(dec), nest=True, lonlat=True)
    with open(out, "w", newline="") as f:
        f.write("id,ra,dec,_healpix_29\n")
        for i, a, d, h in zip(ids, ra, dec, p):
            f.write(f"{i},{a!r},{d!r},{int(h)}\n")


def disc(cones_csv, parts_csv, out):
    parts = set()
    with open(parts_csv, newline="") as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            parts.add((int(row[0]), int(row[1])))
    orders = sorted({k for k, _ in parts})
    with open(cones_csv, newline="") as f, open(out, "w") as o:
        r = csv.reader(f)
        next(r)
        for name, ra0, dec0, rad in r:
            ra0, dec0, rad = float(ra0), float(dec0), float(rad)
            vec = healpy.ang2vec(ra0, dec0, lonlat=True)
            hit = []
            for k in orders:
                if rad >= 180:
                    cand = set(range(12 * 4**k))
                elif rad < 0:
                    cand = set()
                else:
                    cand = set(
                        int(x)
                        for x in healpy.query_disc(
                            2**k, vec, math.radians(rad), inclusive=True, nest=True
                        )
                    )
                hit += [(k, n) for (kk, n) in sorted(parts) if kk == k and n in cand]
            o.write(name + "\t" + (",".join(f"{k}/{n}" for k, n in hit) or "-") + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "pix":
        pix(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "disc":
        disc(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
