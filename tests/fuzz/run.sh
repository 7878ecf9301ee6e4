#!/usr/bin/env bash
# Run every libFuzzer target for FUZZ_SECONDS each (make fuzz). usage: run.sh BUILD_DIR [target...]
# Each target starts from a working corpus under BUILD_DIR/fuzz-corpus/<target>, seeded from
# tests/fuzz/seeds/<target> (fuzz_file: the parquet-testing files) and the committed
# regressions; inputs that crash, leak or time out are saved as
# BUILD_DIR/fuzz-artifacts/<target>/{crash,leak,timeout,oom}-<sha1> for triage: minimize with
# `BUILD_DIR/tests/fuzz_<target> -minimize_crash=1 -runs=100000 FILE`, then commit the result
# as tests/fuzz/regressions/<target>/<what-it-found>.
set -uo pipefail
BUILD=${1:?usage: run.sh BUILD_DIR [target...]}; shift
SECS=${FUZZ_SECONDS:-60}
TARGETS=("$@")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# no target named: every fuzz_*.c of this directory
if [ ${#TARGETS[@]} -eq 0 ]; then
    for src in "$ROOT"/tests/fuzz/fuzz_*.c; do t=${src##*/fuzz_}; TARGETS+=("${t%.c}"); done
fi
PT=$ROOT/tests/data/parquet-testing
status=0
for t in "${TARGETS[@]}"; do
    if [ ! -x "$BUILD/tests/fuzz_$t" ]; then
        echo "   fuzz_$t: $BUILD/tests/fuzz_$t is not built"; status=1; continue
    fi
    corpus=$BUILD/fuzz-corpus/$t art=$BUILD/fuzz-artifacts/$t
    mkdir -p "$corpus" "$art"
    seeds=("$ROOT/tests/fuzz/seeds/$t")
    [ "$t" = file ] && seeds=("$PT/data" "$PT/bad_data" "$ROOT/tests/data")
    [ -d "$ROOT/tests/fuzz/regressions/$t" ] && seeds+=("$ROOT/tests/fuzz/regressions/$t")
    dict=(); [ -f "$ROOT/tests/fuzz/$t.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$t.dict")
    echo "== fuzz_$t for ${SECS}s"
    # rss/malloc limits: an allocation the input cannot justify is a finding, not a hang.
    "$BUILD/tests/fuzz_$t" "$corpus" "${seeds[@]}" "${dict[@]}" -max_total_time="$SECS" \
        -artifact_prefix="$art/" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -max_len=$([ "$t" = file ] && echo 1048576 || echo 65536) -print_final_stats=1 \
        2>"$art/log.txt" || { status=1; echo "   fuzz_$t FAILED: see $art/log.txt"; }
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)" "$art/log.txt" | sed 's/^/   /'
done
exit $status
