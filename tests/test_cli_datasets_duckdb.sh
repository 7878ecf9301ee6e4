#!/usr/bin/env bash
# test_cli_datasets_duckdb.sh - pqt over datasets of many files (issue 31) against DuckDB:
# tests/data/datasets/expected.tsv holds, for each dataset (hive folders written by DuckDB and
# by Polars, a HATS catalogue, the edge sets) and each query, what DuckDB's
# read_parquet(glob, hive_partitioning = true) gives: count, sum(id), the sum of one more
# column and the md5 of the kept ids (tests/data/make_datasets.mjs writes it; the README
# there describes the sets). Each query runs through `pqt cat DIR -c id,COL -f csv --where RULE`
# (count, sums and ids computed here) and `pqt count DIR --where RULE`; "order" compares the
# ids in the order pqt prints them (sorted paths, then file order), every other query the
# sorted ids; pruning by partition is checked through `--explain json`'s counters against
# expected_files.tsv. A set DuckDB's answer marks "error" (mismatching schemas) must fail with exit
# status 1 and a message naming both files and the column. Last, 10,000 copies of a small
# file (made here) open as one table of 10,000 x its rows. edge_widen's refusal ("widening is
# not supported") is a known gap, printed and not failed, until pqt widens.
# Usage (ctest does this from the repository root): bash tests/test_cli_datasets_duckdb.sh PATH_TO_PQT
# PQT_UNION_FLAG overrides the CLI's union-by-name flag (default --union-by-name).
set -u
PQT=${1:?usage: test_cli_datasets_duckdb.sh PATH_TO_PQT}
DIR=tests/data/datasets
UNION=${PQT_UNION_FLAG:---union-by-name}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0
gaps=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# summary CSV SORT: "count sum_id sum md5 ids" of a csv with columns id,COL (header first);
# SORT=1 sorts the ids numerically before the md5; ids only when at most 50, else "-".
summary() {
    tail -n +2 "$1" >"$TMP/rows"
    cut -d, -f1 "$TMP/rows" >"$TMP/ids"
    [ "$2" = 1 ] && sort -n -o "$TMP/ids" "$TMP/ids"
    local n s v m l
    n=$(wc -l <"$TMP/ids" | tr -d ' ')
    s=$(awk -F, '{ s += $1 } END { printf "%d", s }' "$TMP/rows")
    v=$(awk -F, '{ s += $2 } END { printf "%.6f", s }' "$TMP/rows")
    m=$(md5sum <"$TMP/ids" | cut -d' ' -f1)
    if [ "$n" -eq 0 ]; then
        l=-
    elif [ "$n" -le 50 ]; then
        l=$(paste -sd, "$TMP/ids")
    else
        l=-
    fi
    echo "$n $s $v $m $l"
}

while IFS=$'\t' read -r ds query count sumid sumcol sum md5 ids rule sql; do
    case "$ds" in '#'*|'') continue ;; esac
    checks=$((checks + 1))
    path=$DIR/$ds
    flags=()
    case "$ds" in edge_union|edge_widen) flags=("$UNION") ;; esac
    where=()
    [ "$rule" != - ] && where=(-w "$rule")
    if [ "$count" = error ]; then
        "$PQT" count "$path" >"$TMP/out" 2>"$TMP/err"
        rc=$?
        if [ "$rc" -ne 1 ] || ! grep -q 'a\.parquet' "$TMP/err" || ! grep -q 'b\.parquet' "$TMP/err" ||
            ! grep -q "$sumcol" "$TMP/err"; then
            fail "$ds: mismatching schemas must fail naming a.parquet, b.parquet and '$sumcol'; exit status $rc: $(head -c 300 "$TMP/err")"
        fi
        continue
    fi
    "$PQT" cat "$path" "${flags[@]}" -c "id,$sumcol" -f csv "${where[@]}" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    # Widening int32/int64 and float32/float64 under the union (issue 31) is not built yet: its
    # refusal is a known gap, reported, not a failure; once pqt widens, the values are checked.
    if [ "$ds" = edge_widen ] && [ "$rc" -eq 1 ] && grep -q 'widening is not supported' "$TMP/err"; then
        echo "KNOWN GAP: $ds $query: $(head -c 200 "$TMP/err")" >&2
        gaps=$((gaps + 1))
        continue
    fi
    if [ "$rc" -ne 0 ]; then
        fail "$ds $query '$rule': pqt cat exit status $rc: $(head -c 300 "$TMP/err")"
        continue
    fi
    sorted=1
    [ "$query" = order ] && sorted=0
    got=$(summary "$TMP/out" "$sorted")
    want="$count $sumid $sum $md5 $ids"
    [ "$got" = "$want" ] ||
        fail "$ds $query '$rule': count sum_id sum($sumcol) md5 ids = $got; DuckDB ($sql): $want"
    n=$("$PQT" count "$path" "${flags[@]}" "${where[@]}" 2>"$TMP/err")
    [ "$n" = "$count" ] || fail "$ds $query '$rule': pqt count says '$n', DuckDB $count: $(head -c 200 "$TMP/err")"
done <"$DIR/expected.tsv"
[ "$checks" -ge 60 ] || fail "only $checks cases read from $DIR/expected.tsv"

# Pruning by partition (tests/data/datasets/expected_files.tsv): `pqt count --explain json`'s
# counters. A rule on hive columns only must keep exactly the files whose values pass and read
# only their footers (one when none passes: the schema's); a HATS cone must keep at least the files holding a row in it (HEALPix
# pruning is conservative), prune some when it keeps less than half, and read no footer of a
# pruned file; a catalogue with a _metadata summary (hats_small_meta) reads that one footer.
while IFS=$'\t' read -r ds query files kept bound rule; do
    case "$ds" in '#'*|'') continue ;; esac
    checks=$((checks + 1))
    "$PQT" count "$DIR/$ds" -w "$rule" --explain json >"$TMP/json" 2>"$TMP/err" || {
        fail "$ds $query '$rule': pqt count --explain json: $(head -c 200 "$TMP/err")"
        continue
    }
    why=$(python3 - "$TMP/json" "$files" "$kept" "$bound" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
files, kept, bound = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
try:
    f, p, r = d["files"], d["files_pruned_partition"], d["footers_read"]
except KeyError as e:
    print(f"no {e} in --explain json")
    sys.exit()
left = f - p
if f != files:
    print(f"files {f}, the dataset has {files}")
elif bound == "summary" and r != 1:
    print(f"footers_read {r}: a _metadata summary is the one footer to read")
elif bound == "exact" and (left != kept or r != max(kept, 1)):
    # every file pruned: one footer still gives the table its schema
    print(f"files_pruned_partition {p}, footers_read {r}: {kept} files pass, {files - kept} must be pruned unread")
elif bound == "min" and left < kept:
    print(f"kept {left} files, {kept} hold rows in the cone")
elif bound == "min" and 2 * kept < files and p == 0:
    print(f"no file pruned; {kept} of {files} hold rows in the cone")
elif r > max(left, 1):
    print(f"footers_read {r} > {left} files not pruned by partition")
EOF
)
    [ -z "$why" ] || fail "$ds $query '$rule': $why"
done <"$DIR/expected_files.tsv"

# 10,000 small files (100 folders of 100 copies of edge_empty/a.parquet: ids 1..100, x = 3 id)
python3 - "$DIR/edge_empty/a.parquet" "$TMP/many" <<'EOF'
import os, shutil, sys
src, root = sys.argv[1], sys.argv[2]
for d in range(100):
    os.makedirs(f"{root}/d{d:03d}")
    for f in range(100):
        shutil.copyfile(src, f"{root}/d{d:03d}/f{f:03d}.parquet")
EOF
n=$("$PQT" count "$TMP/many" 2>"$TMP/err")
[ "$n" = 1000000 ] || fail "10,000 files of 100 rows: pqt count says '$n': $(head -c 200 "$TMP/err")"
n=$("$PQT" count "$TMP/many" -w 'id <= 10 and x > 15' 2>"$TMP/err")
[ "$n" = 50000 ] || fail "10,000 files, 'id <= 10 and x > 15' (ids 6..10 of each): pqt count says '$n': $(head -c 200 "$TMP/err")"
checks=$((checks + 2))

echo "test_cli_datasets_duckdb: $checks checks, $failures failures, $gaps known gaps (widening)"
[ "$failures" -eq 0 ]
