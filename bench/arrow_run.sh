#!/usr/bin/env bash
# bench/arrow_run.sh - W1 and W9 handed to DuckDB through pqt's Arrow stream, against DuckDB
# reading the file itself (issue 34): `make bench-arrow`, and the last step of `make bench`.
# Each cell is one process (bench/arrow_bench.c) per mode: duckdb (its own read_parquet),
# resident (pqt's columns read first; timed: export + DuckDB's Arrow scan) and lazy (timed:
# open + export + scan, columns read batch by batch). Writes bench/results/arrow.md.
# Environment: N, RUNS, THREADS, BUILD, PQT_BENCH_DATA as bench/run.sh; the catalogue files
# must exist (bench/run.sh or `node bench/gen_data.mjs` makes them).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
cd "$repo"
N="${N:-10000000}"
RUNS="${RUNS:-5}"
THREADS="${THREADS:-1,2}"
BUILD="${BUILD:-build}"
DATA="${PQT_BENCH_DATA:-$repo/bench/data}/n$N"
results="$here/results"
mkdir -p "$results"
say() { printf 'bench-arrow: %s\n' "$*" >&2; }

[ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$results/build.log" 2>&1
cmake --build "$BUILD" --target pqt_arrow_bench -j "$(nproc)" >>"$results/build.log" 2>&1 ||
    { say "could not build pqt_arrow_bench (see bench/results/build.log)"; exit 1; }
if [ ! -d "$here/peers/node_modules/@duckdb/node-bindings-linux-x64" ]; then
    say "installing the peers (npm ci in bench/peers)"
    (cd "$here/peers" && npm ci --no-audit --no-fund --loglevel=error)
fi
[ -f "$DATA/catalogue_snappy.parquet" ] || node "$here/gen_data.mjs" --n "$N" --out "${PQT_BENCH_DATA:-$repo/bench/data}"

raw="$results/arrow.jsonl"
: >"$raw"
for f in catalogue_snappy catalogue_zstd catalogue_polars; do
    for wl in W1 W9; do
        for t in ${THREADS//,/ }; do
            for mode in duckdb resident lazy; do
                say "$wl $f ${t}t $mode"
                "$BUILD/bench/pqt_arrow_bench" --mode "$mode" --workload "$wl" --file "$DATA/$f.parquet" \
                    --threads "$t" --runs "$RUNS" >>"$raw"
            done
        done
    done
done
python3 "$here/arrow_report.py" "$raw" >"$results/arrow.md"
cat "$results/arrow.md"
