#!/usr/bin/env bash
# tests/packaging/demo.sh - `make demo` in a fresh build directory prints the demo and little
# else, and builds only what the demo needs (the library and the tool: no tests, no bench, no
# fuzz replays); `scripts/install-deps` keeps the test-only packages out of the build set.
#   bash tests/packaging/demo.sh      (from anywhere; builds in a temporary directory)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
B=$TMP/build

npass=0
nfail=0
pass() { npass=$((npass + 1)); echo "ok: $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL: $*" >&2; }

# ---- install-deps: the demo's set is the build set; the tests' set adds to it ----
build_set=$(bash scripts/install-deps --list build)
test_set=$(bash scripts/install-deps --list test)
for p in libzstd-dev libsnappy-dev zlib1g-dev liblz4-dev libbrotli-dev libxxhash-dev libyaml-dev pkg-config cmake gcc; do
    grep -qx "$p" <<<"$build_set" || fail "install-deps build lacks $p"
done
for p in clang g++ gfortran python3; do
    if grep -qx "$p" <<<"$build_set"; then fail "install-deps build installs test-only $p"; fi
    grep -qx "$p" <<<"$test_set" || fail "install-deps test lacks $p"
done
pass "install-deps build/test sets"

# ---- make demo ----
if ! out=$(make --no-print-directory demo BUILD="$B" JOBS=2 2>&1); then
    fail "make demo failed: $out"
else
    # the demo itself: the catalogue's schema (a DuckDB-written file of 1000 rows, 11 columns)
    # and its first 10 rows; the whole output is the two commands' output and a few lines more
    expected=$("$B/pqt" schema examples/catalogue.parquet; "$B/pqt" cat examples/catalogue.parquet --limit 10)
    n_demo=$(wc -l <<<"$expected")
    n_out=$(wc -l <<<"$out")
    grep -qF "examples/catalogue.parquet: 1000 rows, 2 row groups, 11 columns" <<<"$out" ||
        fail "make demo: no schema in its output"
    [[ "$out" == *"$("$B/pqt" cat examples/catalogue.parquet --limit 10)"* ]] ||
        fail "make demo: not the first 10 rows in its output"
    if [ "$n_out" -gt $((n_demo + 6)) ]; then
        fail "make demo printed $n_out lines for a $n_demo-line demo: $out"
    elif grep -qE "Building C object|^\[ *[0-9]+%\]|^-- " <<<"$out"; then
        fail "make demo printed build output: $out"
    else
        pass "make demo prints the demo ($n_out lines)"
    fi
    # what was built: the library and the tool, nothing else (CMakeFiles/ holds configure's
    # probes, such as FindMPI's test_mpi_C.bin, not build products)
    built=$(find "$B" -path "$B/CMakeFiles" -prune -o -type f -perm -u+x \( -name 'test_*' \
        -o -name 'fuzz_*' -o -name 'pqt_bench' -o -name 'pqt_floor' -o -name 'memcpy_bw' \
        -o -name 'table_tour' -o -name 'libpqt.a' \) -print)
    if [ -n "$built" ] || [ -e "$B/libpqt.a" ]; then
        fail "make demo built more than the library and the tool: $built"
    elif [ -x "$B/pqt" ] && [ -e "$B/libpqt.so" ]; then
        pass "make demo builds only libpqt.so and pqt"
    else
        fail "make demo: no $B/pqt or $B/libpqt.so"
    fi
fi

# a failing build shows its log: a compiler that does not exist
if out=$(make --no-print-directory demo BUILD="$TMP/broken" JOBS=2 \
    CMAKE_FLAGS=-DCMAKE_C_COMPILER=/nonexistent/cc 2>&1); then
    fail "make demo with a broken compiler succeeded"
elif grep -q "/nonexistent/cc" <<<"$out" && grep -q "the build failed" <<<"$out"; then
    pass "make demo shows the build log when the build fails"
else
    fail "make demo failure output: $out"
fi

echo "demo: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
