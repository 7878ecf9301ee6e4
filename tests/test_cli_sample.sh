#!/usr/bin/env bash
# test_cli_sample.sh - `pqt cat/head/count --sample FRACTION[,SEED]`: the ids (and counts)
# printed are exactly the rows the independent model (tests/sample_model.py, run here) keeps,
# alone, within --rows and under --where; --explain names the fraction, the seed and the
# rule; a drawn seed shown by --explain reproduces the rows; bad values are usage errors.
# tests/data/table_rg.parquet: 10000 rows, id = the 1-based row number (DuckDB-written).
# Usage (ctest does this from the repository root): bash tests/test_cli_sample.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_sample.sh PATH_TO_PQT}
FILE=tests/data/table_rg.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
if ! command -v python3 >/dev/null; then
    echo "test_cli_sample: python3 missing, skipped"
    exit 0
fi

# model SEED FRACTION LO HI [AWK_CONDITION]: the model's 1-based ids in LO..HI, one a line
model() {
    python3 tests/sample_model.py "$1:$2:$(($3 - 1))-$(($4 - 1))" | tail -1 |
        tr -d '{} ' | tr ',' '\n' | awk -v c="${5:-1}" 'NF { id = $1 + 1; if (c == 1 || (c == "gt9000" && id > 9000)) print id }'
}

# same DESCRIPTION WANT_FILE: pqt's csv ids (header dropped) must equal WANT_FILE
same() {
    checks=$((checks + 1))
    tail -n +2 "$TMP/out" >"$TMP/ids"
    cmp -s "$TMP/ids" "$2" || fail "$1: $(diff "$TMP/ids" "$2" | head -5)"
}

"$PQT" cat "$FILE" -c id -f csv --sample 0.01,42 >"$TMP/out"
model 42 0.01 1 10000 >"$TMP/want"
same "whole file, 0.01, seed 42" "$TMP/want"

"$PQT" cat "$FILE" -c id -f csv --sample 0.05,9223372036854775807 --rows 2000:6000 >"$TMP/out"
model 9223372036854775807 0.05 2000 6000 >"$TMP/want"
same "--rows 2000:6000, 0.05, seed 2^63-1" "$TMP/want"

"$PQT" cat "$FILE" -c id -f csv --sample 0.01,42 -w 'id > 9000' --explain >"$TMP/out" 2>"$TMP/err"
model 42 0.01 1 10000 gt9000 >"$TMP/want"
same "--where 'id > 9000', 0.01, seed 42" "$TMP/want"
checks=$((checks + 1))
grep -Eq "^row groups? 1(-[0-9]+)?: pruned by statistics" "$TMP/err" || fail "--explain: no pruning line"
grep -q "sample: fraction 0.01, seed 42, rule pqt-sample-v1 (bernoulli, philox4x32-10): $(wc -l <"$TMP/want") of 1000 rows kept" "$TMP/err" ||
    fail "--explain: sample line: $(cat "$TMP/err")"

"$PQT" head "$FILE" -c id -f csv --sample 0.01,42 -n 3 >"$TMP/out"
model 42 0.01 1 10000 | head -3 >"$TMP/want"
same "head -n 3 counts sampled rows" "$TMP/want"

# pqt count: the model's count, also under --where and --rows
checks=$((checks + 1))
got=$("$PQT" count "$FILE" --sample 0.01,42 -w 'id > 9000')
[ "$got" = "$(model 42 0.01 1 10000 gt9000 | wc -l)" ] || fail "count --sample --where: $got"
checks=$((checks + 1))
got=$("$PQT" count "$FILE" --sample 0.05,9223372036854775807 --rows 2000:6000)
[ "$got" = "$(model 9223372036854775807 0.05 2000 6000 | wc -l)" ] || fail "count --sample --rows: $got"
"$PQT" count "$FILE" --sample -1 >/dev/null 2>&1
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 2 ] || fail "count --sample -1: exit status $rc, want 2"

# --explain json: the fraction and the seed, drawn or given
checks=$((checks + 1))
"$PQT" count "$FILE" --sample 0.25 --explain json >"$TMP/json"
python3 - "$TMP/json" <<'PY' || fail "count --explain json: $(cat "$TMP/json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["sample_fraction"] == 0.25 and d["sample_seed"] > 0, d
assert 2200 < d["count"] < 2800 and d["rows_unfiltered"] == 10000, d
PY
checks=$((checks + 1))
"$PQT" count "$FILE" --explain json >"$TMP/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["sample_fraction"] == 1.0 and d["sample_seed"] == 0, d' "$TMP/json" ||
    fail "count --explain json without a sample: $(cat "$TMP/json")"

# no seed: --explain shows the one drawn, and giving it back prints the same rows
"$PQT" cat "$FILE" -c id -f csv --sample 0.3 --explain >"$TMP/first" 2>"$TMP/err"
seed=$(sed -n 's/^sample: fraction 0.3, seed \([0-9]*\),.*/\1/p' "$TMP/err")
checks=$((checks + 1))
if [ -z "$seed" ]; then
    fail "--explain shows no drawn seed: $(cat "$TMP/err")"
else
    "$PQT" cat "$FILE" -c id -f csv --sample "0.3,$seed" >"$TMP/out"
    tail -n +2 "$TMP/first" >"$TMP/want"
    same "drawn seed $seed reproduces" "$TMP/want"
fi

# fraction >= 1 keeps every row, 0 none
"$PQT" cat "$FILE" -c id -f csv --sample 1.5 >"$TMP/out"
checks=$((checks + 1))
[ "$(tail -n +2 "$TMP/out" | wc -l)" -eq 10000 ] || fail "--sample 1.5 does not keep every row"
"$PQT" cat "$FILE" -c id -f csv --sample 0 >"$TMP/out"
checks=$((checks + 1))
[ "$(tail -n +2 "$TMP/out" | wc -l)" -eq 0 ] || fail "--sample 0 keeps rows"

# usage errors: exit status 2, the value named
for bad in -0.5 nan x 0.5, 0.5,x ,7; do
    "$PQT" cat "$FILE" --sample "$bad" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
    [ "$rc" -eq 2 ] || fail "--sample '$bad': exit status $rc, want 2"
done
"$PQT" cat "$FILE" --sample -0.5 2>&1 | grep -q -- "--sample: -0.5: a sample fraction" ||
    fail "--sample -0.5: the message does not name the value"

if [ "$failures" -ne 0 ]; then
    echo "test_cli_sample: $failures of $checks checks failed"
    exit 1
fi
echo "test_cli_sample: $checks checks ok"
