#!/usr/bin/env bash
# bench/run.sh - the whole benchmark: peers, tools, data, every engine, one Markdown table.
# `make bench` runs it after `make build`. See bench/README.md.
# `bash bench/run.sh pushdown` (`make bench-pushdown`) runs the pushdown scenarios instead
# (docs/pruning.md, "Scenarios", 1-9): bench/results/scenarios.md.
#
# Environment:
#   N=10000000           catalogue rows (default 10,000,000; N=200000 for a quick check)
#   PQT_BENCH_DATA=DIR   data cache (default bench/data/, git-ignored); files are keyed by N
#   BUILD=build          CMake build folder (configured here if missing)
#   RUNS=5               timed runs after the warm-up
#   THREADS=1,2          thread counts
#   BENCH_WORKLOADS=W1,W5 / BENCH_FILES=snappy,zstd   restrict the run
#   BENCH_TIMEOUT=secs   bound on one pqt / floor process
#   BENCH_EVICT=auto     cold workloads (W1c, W3c): drop (drop_caches), fadvise, auto (drop if root)
# pushdown mode: PD_N=2000000 rows, RUNS, PD_THREADS=1 (one count), PD_CASES / PD_SCENARIOS.
# `bash bench/run.sh write` runs only W11/W12, the writes (bench/write.mjs): results/write.md;
#   WRITE_RUNS=3 timed runs (each writes the whole catalogue), WRITE_ONLY=W11-zstd,W11-snappy,W12.
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

# The pushdown scenarios: their own data, tools and report.
if [ "${1:-}" = pushdown ]; then
    PD_N="${PD_N:-2000000}"
    PD_THREADS="${PD_THREADS:-1}"
    case "$PD_THREADS" in *,*) say "pushdown: PD_THREADS is one count (got $PD_THREADS)"; exit 2 ;; esac
    [ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$results/build.log" 2>&1
    cmake -S . -B "$BUILD" >"$results/build.log" 2>&1 || true
    for t in pqt_cli pqt_pushdown; do
        cmake --build "$BUILD" --target "$t" -j "$(nproc)" >>"$results/build.log" 2>&1 ||
            say "could not build $t (see bench/results/build.log)"
    done
    node "$here/gen_pushdown.mjs" --n "$PD_N" --out "$DATA"
    say "pushdown scenarios: N=$PD_N, runs=$RUNS, threads=$PD_THREADS"
    status=0
    node "$here/pushdown.mjs" --n "$PD_N" --data "$DATA" --build "$BUILD" --runs "$RUNS" \
        --threads "$PD_THREADS" --out "$results/scenarios.md" || status=$?
    exit "$status"
fi

# W11/W12, the writes: pqt copy against DuckDB COPY and Polars; every output verified.
run_writes() {
    cmake --build "$BUILD" --target pqt_cli pqt_floor -j "$(nproc)" >>"$results/build.log" 2>&1 ||
        say "could not build pqt_cli or pqt_floor (see bench/results/build.log)"
    node "$here/gen_data.mjs" --n "$N" --out "$DATA"
    say "writes (W11, W12): N=$N, runs=${WRITE_RUNS:-3}, threads=$THREADS"
    node "$here/write.mjs" --n "$N" --data "$DATA" --build "$BUILD" --runs "${WRITE_RUNS:-3}" \
        --threads "$THREADS" ${WRITE_ONLY:+--only "$WRITE_ONLY"} \
        --out "$results/write.md" --raw "$results/write.jsonl"
}
if [ "${1:-}" = write ]; then
    [ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$results/build.log" 2>&1
    status=0
    run_writes || status=$?
    say "table written to bench/results/write.md (raw results: bench/results/write.jsonl)"
    exit "$status"
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
for t in memcpy_bw pqt_bench pqt_floor pqt_evict; do
    rm -f "$BUILD/bench/$t"
    if cmake --build "$BUILD" --target "$t" -j "$(nproc)" >>"$results/build.log" 2>&1; then
        say "built $t"
    else
        say "could not build $t (its cells will say so; see bench/results/build.log)"
    fi
done

# 3. the data (kept in the cache; regenerated only when missing or from another generator)
node "$here/gen_data.mjs" --n "$N" --out "$DATA"
# 3b. the datasets of D1..D5 (1,000 hive files, a HATS layout), made from the catalogue and
#     cached beside it; only when a D workload is to run
case ",${BENCH_WORKLOADS:-D1}," in
    *,D[0-9]*) node "$here/gen_datasets.mjs" --n "$N" --out "$DATA" ||
        say "could not make the datasets (the D1..D5 cells will say so)" ;;
esac

# 4. every engine, then the table
say "running: N=$N, runs=$RUNS, threads=$THREADS"
node "$here/bench.mjs" --n "$N" --data "$DATA" --build "$BUILD" --runs "$RUNS" --threads "$THREADS" \
    --out "$results/raw.jsonl"
status=0
node "$here/report.mjs" --in "$results/raw.jsonl" --out "$results/latest.md" || status=$?
say "table written to bench/results/latest.md (raw results: bench/results/raw.jsonl)"
if [ -z "${BENCH_WORKLOADS:-}" ]; then
    run_writes || status=$?
    say "writes: bench/results/write.md (raw results: bench/results/write.jsonl)"
    # the Arrow hand-off (issue 34): W1, W9 through the stream into DuckDB
    N="$N" RUNS="$RUNS" THREADS="$THREADS" BUILD="$BUILD" PQT_BENCH_DATA="${PQT_BENCH_DATA:-$repo/bench/data}" \
        bash "$here/arrow_run.sh" >/dev/null || status=$?
    say "Arrow hand-off: bench/results/arrow.md (raw results: bench/results/arrow.jsonl)"
fi
exit "$status"
