#!/usr/bin/env bash
# test_healpix_healpy.sh - src/dataset/healpix.c against healpy, live: a fresh truth file from
# tests/data/make_healpix_truth.py (a new seed each run, 4x the committed file's cases), checked
# by test_healpix (tests/unit/test_healpix.c): pixel numbers at every order, pixel centres,
# max_pixrad, and every pixel of healpy's inclusive disc queries kept by the cone functions.
#
#   bash tests/test_healpix_healpy.sh PATH_TO_PQT [SEED]    (from the repository root)
#
# test_healpix is found next to the pqt tool at $(dirname PATH_TO_PQT)/tests/ (or
# $TEST_HEALPIX). Python with healpy: $PQT_PYTHON, else the first python3 on PATH that imports
# it, else /usr/bin/python3. Without healpy the test FAILS (Debian: apt install python3-healpy;
# scripts/install-deps installs it with the test packages).
set -u
PQT=${1:?usage: test_healpix_healpy.sh PATH_TO_PQT [SEED]}
SEED=${2:-$(( $(date +%s) % 1000000 ))}
BIN=${TEST_HEALPIX:-$(dirname "$PQT")/tests/test_healpix}
if [ ! -x "$BIN" ]; then
    echo "FAIL: test_healpix not found at $BIN (build it: cmake --build build --target test_healpix)" >&2
    exit 1
fi

PY=
for cand in ${PQT_PYTHON:-} python3 /usr/bin/python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import healpy, numpy' 2>/dev/null; then
        PY=$cand
        break
    fi
done
if [ -z "$PY" ]; then
    echo "FAIL: no python3 with healpy (tried ${PQT_PYTHON:-} python3 /usr/bin/python3);" \
         "install python3-healpy (scripts/install-deps) or set PQT_PYTHON" >&2
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "healpy truth: seed $SEED (rerun: bash tests/test_healpix_healpy.sh $PQT $SEED)"
"$PY" tests/data/make_healpix_truth.py --seed "$SEED" --scale 4 "$tmp/truth.txt" || {
    echo "FAIL: make_healpix_truth.py (seed $SEED)" >&2
    exit 1
}
"$BIN" "$tmp/truth.txt" || {
    echo "FAIL: test_healpix against healpy (seed $SEED)" >&2
    exit 1
}
