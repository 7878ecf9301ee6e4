#!/usr/bin/env bash
# bench/mpi_run.sh - `make bench-mpi`: pqt under MPI against pqt in one process, same files,
# same run (docs/mpi.md; docs/benchmarks.md, "MPI"). Writes bench/results/mpi.md and
# bench/results/mpi_raw.jsonl.
#   1. the collective open of the 1,000-file hive dataset (and the HATS catalogue) on 4 ranks
#      against one rank, and against 4 ranks each opening it alone: time, footers read;
#   2. W1 (sum of ra, dec, mass, z through pqt_table_get_alloc) over the 10M catalogue: 2
#      ranks of 1 thread against 1 process of 2 threads;
#   3. the shared-file write of the catalogue's rows: 2 ranks against 1 process.
# Environment: N (10000000), PQT_BENCH_DATA (bench/data), BUILD (build), RUNS (5), NP (4).
# Needs the data of `make bench` with the datasets (bench/gen_data.mjs, gen_datasets.mjs; made
# here when missing, which needs node and the peers). Run it on a quiet machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
cd "$repo"
N="${N:-10000000}"
RUNS="${RUNS:-5}"
NP="${NP:-4}"
BUILD="${BUILD:-build}"
DATA="${PQT_BENCH_DATA:-$repo/bench/data}"
results="$here/results"
mkdir -p "$results" "$DATA"
say() { printf 'bench-mpi: %s\n' "$*" >&2; }

command -v mpiexec >/dev/null || { say "mpiexec not found (Debian: openmpi-bin libopenmpi-dev)"; exit 1; }
cmake -S . -B "$BUILD" >"$results/mpi_build.log" 2>&1
for t in pqt_mpi_bench pqt_mpi_write; do
    cmake --build "$BUILD" --target "$t" -j "$(nproc)" >>"$results/mpi_build.log" 2>&1 ||
        { say "could not build $t (see bench/results/mpi_build.log; is MPI found?)"; exit 1; }
done
dir="$DATA/n$N"
if [ ! -d "$dir/hive1000" ] || [ ! -f "$dir/catalogue_snappy.parquet" ]; then
    command -v node >/dev/null || { say "no data in $dir and no node to make it"; exit 1; }
    [ -d "$here/peers/node_modules/@duckdb/node-api" ] ||
        (cd "$here/peers" && npm ci --no-audit --no-fund --loglevel=error)
    node "$here/gen_data.mjs" --n "$N" --out "$DATA"
    node "$here/gen_datasets.mjs" --n "$N" --out "$DATA"
fi

# Open MPI: as root only with its switch; more ranks than cores only oversubscribed
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
run() { # NP ARGS...: one JSON line
    local np=$1
    shift
    mpiexec -n "$np" "$@" | tail -1
}
raw="$results/mpi_raw.jsonl"
: >"$raw"
B="$BUILD/bench/pqt_mpi_bench"
W="$BUILD/bench/pqt_mpi_write"
say "open: hive1000 and hats, 1 and $NP ranks (runs=$RUNS)"
for ds in hive1000 hats; do
    run 1 "$B" --mode open --path "$dir/$ds" --runs "$RUNS" | sed "s/^{/{\"data\":\"$ds\",/" >>"$raw"
    run "$NP" "$B" --mode open --path "$dir/$ds" --runs "$RUNS" | sed "s/^{/{\"data\":\"$ds\",/" >>"$raw"
    run "$NP" "$B" --mode open --path "$dir/$ds" --runs "$RUNS" --every-rank |
        sed "s/^{/{\"data\":\"$ds\",/" >>"$raw"
done
say "W1: 2 ranks x 1 thread against 1 process x 2 threads"
run 2 "$B" --mode w1 --path "$dir/catalogue_snappy.parquet" --runs "$RUNS" --threads 1 |
    sed 's/^{/{"data":"snappy",/' >>"$raw"
run 1 "$B" --mode w1 --path "$dir/catalogue_snappy.parquet" --runs "$RUNS" --threads 2 |
    sed 's/^{/{"data":"snappy",/' >>"$raw"
say "write: 2 ranks against 1 process"
out="$(mktemp -d)"
run 2 "$W" --n "$N" --out "$out/w.parquet" --runs "$RUNS" >>"$raw"
run 1 "$W" --n "$N" --out "$out/w.parquet" --runs "$RUNS" --serial >>"$raw"
rm -rf "$out"
python3 "$here/mpi_report.py" "$raw" >"$results/mpi.md"
cat "$results/mpi.md"
