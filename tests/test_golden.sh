#!/usr/bin/env bash
# Golden/conformance test: compare `pqt cat FILE --format jsonl` with the DuckDB-produced
# expectations in tests/golden/expected (see tests/golden/README.md).
#
#   bash tests/test_golden.sh PATH_TO_PQT        (run from the repository root)
#
# For every tests/golden/expected/<name>.jsonl: run pqt on tests/data/parquet-testing/data/<name>
# and compare with tests/golden/compare.py (plus <name>.summary.json when present).
# For every line `<name> <PQT_STATUS_NAME> <why>` of tests/golden/expected/STATUS.txt: pqt must
# exit 1 and print the status' text (from include/pqt.h) on stderr; `<name> SKIP <why>` lines are
# files with no independent truth yet and are only reported.
# Every data/*.parquet and data/*.parquet.encrypted must be covered by one of the two.
set -u

if [ $# -ne 1 ]; then
    echo "usage: bash tests/test_golden.sh PATH_TO_PQT" >&2
    exit 2
fi
PQT=$1
DATA=tests/data/parquet-testing/data
GOLDEN=tests/golden
EXP=$GOLDEN/expected
STATUS=$EXP/STATUS.txt
HEADER=include/pqt.h

if [ ! -d "$DATA" ] || [ ! -f "$STATUS" ] || [ ! -f "$HEADER" ]; then
    echo "test_golden: run from the repository root (needs $DATA, $STATUS, $HEADER)" >&2
    exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "test_golden: python3 not found" >&2
    exit 2
fi
TIMEOUT=()
if command -v timeout >/dev/null 2>&1; then TIMEOUT=(timeout 300); fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npass=0
nfail=0
nskip=0

pass() { echo "PASS $1"; npass=$((npass + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; nfail=$((nfail + 1)); }

status_entries() { grep -v -e '^#' -e '^[[:space:]]*$' "$STATUS"; }

# --- coverage: every corpus file has an expectation -----------------------------------------
for f in "$DATA"/*.parquet "$DATA"/*.parquet.encrypted; do
    [ -e "$f" ] || continue
    n=$(basename "$f")
    has_jsonl=0
    has_status=0
    [ -f "$EXP/$n.jsonl" ] && has_jsonl=1
    status_entries | awk -v n="$n" '$1 == n { found = 1 } END { exit !found }' && has_status=1
    if [ $has_jsonl -eq 0 ] && [ $has_status -eq 0 ]; then
        fail "$n" "no expected jsonl and no STATUS.txt entry"
    elif [ $has_jsonl -eq 1 ] && [ $has_status -eq 1 ]; then
        fail "$n" "both an expected jsonl and a STATUS.txt entry"
    fi
done

# --- files with expected output -------------------------------------------------------------
for e in "$EXP"/*.jsonl; do
    [ -e "$e" ] || continue
    n=$(basename "$e" .jsonl)
    if [ ! -f "$DATA/$n" ]; then
        fail "$n" "corpus file $DATA/$n is missing"
        continue
    fi
    "${TIMEOUT[@]}" "$PQT" cat "$DATA/$n" --format jsonl --dotted-keys >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$n" "pqt exited $rc: $(head -c 300 "$tmp/err" | tr '\n' ' ')"
        continue
    fi
    args=("$e" "$tmp/out")
    if [ -f "$EXP/$n.summary.json" ]; then args+=(--summary "$EXP/$n.summary.json"); fi
    if python3 "$GOLDEN/compare.py" "${args[@]}" >"$tmp/diff" 2>&1; then
        pass "$n"
    else
        fail "$n"
        sed 's/^/    /' "$tmp/diff"
    fi
done

# --- files whose expected outcome is an error status ----------------------------------------
while read -r n st why; do
    if [ "$st" = SKIP ]; then
        echo "SKIP $n ($why)"
        nskip=$((nskip + 1))
        continue
    fi
    text=$(grep -o "X($st, [0-9]*, \"[^\"]*\")" "$HEADER" | sed 's/^[^"]*"\(.*\)")$/\1/')
    if [ -z "$text" ]; then
        fail "$n" "STATUS.txt names unknown status $st"
        continue
    fi
    if [ ! -f "$DATA/$n" ]; then
        fail "$n" "corpus file $DATA/$n is missing"
        continue
    fi
    "${TIMEOUT[@]}" "$PQT" cat "$DATA/$n" --format jsonl --dotted-keys >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 1 ]; then
        fail "$n" "expected exit 1 ($st), got $rc"
    elif ! grep -qF -- "$text" "$tmp/err"; then
        fail "$n" "stderr lacks \"$text\" ($st): $(head -c 300 "$tmp/err" | tr '\n' ' ')"
    else
        pass "$n ($st)"
    fi
done < <(status_entries)

echo "golden: $npass passed, $nfail failed, $nskip skipped"
[ $nfail -eq 0 ]
