#!/usr/bin/env bash
# `make bench-remote`: W1, W2 and W3 read from the catalogue's path and over HTTP from
# tests/remote/http_server.py with LATENCY_MS (20) injected per request; the requests, bytes
# and time of each against the local read, and the issue's goals checked (docs/remote.md).
#   FILE=catalogue.parquet   (default: the bench data cache's catalogue_snappy.parquet, N rows)
#   LATENCY_MS=20  RUNS=1  GAP= MAX= IN_FLIGHT=   (the PQT_OPT_REMOTE_* values; empty: default)
# Results: bench/results/remote.jsonl (raw lines) and bench/results/remote.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
BUILD="${BUILD:-build}"
N="${N:-10000000}"
DATA="${PQT_BENCH_DATA:-$repo/bench/data}"
FILE="${FILE:-$DATA/n$N/catalogue_snappy.parquet}"
[ -f "$FILE" ] || { echo "bench-remote: no $FILE (make bench generates it, or set FILE=)" >&2; exit 1; }
[ -d "$BUILD" ] || cmake -S "$repo" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQT_BUILD_BENCH=ON >/dev/null
cmake -S "$repo" -B "$BUILD" -DPQT_BUILD_BENCH=ON >/dev/null
cmake --build "$BUILD" --target pqt_remote_bench >/dev/null
results="$here/results"
mkdir -p "$results"
tmp=$(mktemp -d)
python3 "$repo/tests/remote/http_server.py" --root "$(dirname "$FILE")" --log "$tmp/log" >"$tmp/port" &
srv=$!
trap 'kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do grep -q PORT "$tmp/port" 2>/dev/null && break; sleep 0.1; done
port=$(awk '/^PORT/ {print $2}' "$tmp/port")
python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1]).read()" \
    "http://127.0.0.1:$port/_control?latency_ms=${LATENCY_MS:-20}"
args=(--runs "${RUNS:-1}")
[ -n "${GAP:-}" ] && args+=(--gap "$GAP")
[ -n "${MAX:-}" ] && args+=(--max "$MAX")
[ -n "${IN_FLIGHT:-}" ] && args+=(--in-flight "$IN_FLIGHT")
[ -n "${ONLY:-}" ] && args+=(--only "$ONLY")
"$BUILD/bench/pqt_remote_bench" "$FILE" "http://127.0.0.1:$port/$(basename "$FILE")" "${args[@]}" \
    | tee "$results/remote.jsonl"
python3 - "$results/remote.jsonl" "${LATENCY_MS:-20}" "$FILE" >"$results/remote.md" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"# W1-W3 over HTTP, {sys.argv[2]} ms per request ({sys.argv[3]})\n")
print("| workload | local s | http s | requests | bytes needed | bytes fetched | fetched/needed | of the file | same answer |")
print("|---|---|---|---|---|---|---|---|---|")
loc = {}
for r in rows:
    if r["source"] == "local":
        loc[r["workload"]] = r
        continue
    l = loc[r["workload"]]
    need = r["bytes_read"]
    same = r["count"] == l["count"] and r["sums"] == l["sums"]
    print(f'| {r["workload"]} | {l["seconds"]:.3f} | {r["seconds"]:.3f} | {r["requests"]} | {need} | '
          f'{r["bytes_fetched"]} | {r["bytes_fetched"] / max(need, 1):.3f} | '
          f'{100 * r["bytes_fetched"] / r["file_bytes"]:.2f}% | {"yes" if same else "NO"} |')
PY
cat "$results/remote.md"
