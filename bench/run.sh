#!/usr/bin/env bash
# bench/run.sh - the whole benchmark: peers, tools, data, every engine, one Markdown table.
# `make bench` runs it after `make build`. See bench/README.md.
#
# Environment:
#   N=10000000           catalogue rows (default 10,000,000; N=200000 for a quick check)
#   PQT_BENCH_DATA=DIR   data cache (default bench/data/, git-ignored); files are keyed by N
#   BUILD=build          CMake build folder (configured here if missing)
#   RUNS=5               timed runs after the warm-up
#   THREADS=1,2          thread counts
#   BENCH_WORKLOADS=W1,W5 / BENCH_FILES=snappy,zstd   restrict the run
#   BENCH_TIMEOUT=secs   bound on one pqt / floor process
# Exit status: 0, or 3 when the engines' checksums disagree (the table says MISMATCH).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
cd "$repo"

N="${N:-10000000}"
RUNS="${RUNS:-5}"
THREADS="${THREADS:-1,2}"
BUILD="${BUILD:-build}"
DATA="${PQT_BENCH_DATA:-$repo/bench/data}"
results="$here/results"
mkdir -p "$results" "$DATA"

say() { printf 'bench: %s\n' "$*" >&2; }

command -v node >/dev/null || { say "node (>= 20) is required"; exit 1; }

# 1. the peers, pinned by bench/peers/package-lock.json
if [ ! -d "$here/peers/node_modules/@duckdb/node-api" ] || [ ! -d "$here/peers/node_modules/nodejs-polars" ]; then
    say "installing the peers (npm ci in bench/peers)"
    (cd "$here/peers" && npm ci --no-audit --no-fund --loglevel=error)
fi

# 2. the C tools, one target at a time so that a pqt that does not build yet only costs the
#    pqt (and floor) columns. Their compiler output goes to results/build.log.
#    (Re-)configure first, as `make build` does: a build folder configured before bench/
#    existed has no bench targets.
if [ -f "$BUILD/CMakeCache.txt" ]; then
    cmake -S . -B "$BUILD" >"$results/build.log" 2>&1 || true
else
    say "configuring $BUILD"
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$results/build.log" 2>&1 || true
fi
for t in memcpy_bw pqt_bench pqt_floor; do
    rm -f "$BUILD/bench/$t"
    if cmake --build "$BUILD" --target "$t" -j "$(nproc)" >>"$results/build.log" 2>&1; then
        say "built $t"
    else
        say "could not build $t (its cells will say so; see bench/results/build.log)"
    fi
done

# 3. the data (kept in the cache; regenerated only when missing or from another generator)
node "$here/gen_data.mjs" --n "$N" --out "$DATA"

# 4. every engine, then the table
say "running: N=$N, runs=$RUNS, threads=$THREADS"
node "$here/bench.mjs" --n "$N" --data "$DATA" --build "$BUILD" --runs "$RUNS" --threads "$THREADS" \
    --out "$results/raw.jsonl"
status=0
node "$here/report.mjs" --in "$results/raw.jsonl" --out "$results/latest.md" || status=$?
say "table written to bench/results/latest.md (raw results: bench/results/raw.jsonl)"
exit "$status"
