#!/usr/bin/env bash
# test_cli_sort.sh - `pqt cat --sort KEYS [--limit N]` and `pqt head --sort` against a model
# written in awk and sort(1): tests/data/table_rg.parquet (DuckDB, tests/data/make_table_data.mjs)
# holds formulas of id 1..10000 (i32 = 3 id, NULL when id % 7 == 0; f64 = id / 2, NULL when
# id % 11 == 0, NaN when id % 13 == 0; s = 's' id, NULL when id % 5 == 0). The model writes
# each id's placement class (values 0, NaN 1, null 2; reversed by nulls_first) and value, and
# sort(1) orders them, ties by id (stability). Every sorted csv line must also be the unsorted
# cat's line of that id, so the values are gathered right. Then --where/--rows with a sort,
# head, jsonl, --explain, and the errors with their exit statuses.
# Usage (ctest does this from the repository root): bash tests/test_cli_sort.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_sort.sh PATH_TO_PQT}
F=tests/data/table_rg.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0
export LC_ALL=C

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

run() {
    "$PQT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
}

# model KEY NULLS_FIRST LO HI: "class,value,id" for ids LO..HI of column KEY (f64 | s | i32)
model() {
    awk -v key="$1" -v nf="$2" -v lo="$3" -v hi="$4" 'BEGIN {
        for (id = lo; id <= hi; id++) {
            cls = 0; v = ""
            if (key == "f64") { if (id % 11 == 0) cls = 2; else if (id % 13 == 0) cls = 1; else v = id / 2 }
            if (key == "i32") { if (id % 7 == 0) cls = 2; else v = 3 * id }
            if (key == "s") { if (id % 5 == 0) cls = 2; else v = "s" id }
            if (nf) cls = 2 - cls
            printf "%d,%s,%d\n", cls, v, id
        }
    }'
}

ids_of_csv() { tail -n +2 "$TMP/out" | cut -d, -f1; }

compare_ids() { # compare_ids WANT_FILE DESCRIPTION
    ids_of_csv >"$TMP/got"
    cmp -s "$TMP/got" "$1" || fail "$2: ids differ from the model (first difference: $(diff "$TMP/got" "$1" | head -3 | tr '\n' ' '))"
}

# 1. -f64: values descending, then NaN, then nulls; ties (NaN, null) in id order
run cat "$F" --sort -f64 -c id -f csv
[ "$rc" -eq 0 ] || fail "--sort -f64: status $rc"
model f64 0 1 10000 | sort -t, -k1,1n -k2,2gr -k3,3n | cut -d, -f3 >"$TMP/want"
compare_ids "$TMP/want" "--sort -f64"

# 2. nulls first, then NaN, then values ascending; a second key breaks the ties: -id
run cat "$F" --sort "f64 nulls_first, -id" -c id -f csv --limit 700
model f64 1 1 10000 | sort -t, -k1,1n -k2,2g -k3,3nr | cut -d, -f3 | head -700 >"$TMP/want"
compare_ids "$TMP/want" "--sort 'f64 nulls_first, -id' --limit 700"

# 3. a string key, descending, within --rows and --where
run cat "$F" --sort "s desc" --rows 4000:9000 -w "id > 5000" -c id -f csv
model s 0 5001 9000 | sort -t, -k1,1n -k2,2r -k3,3n | cut -d, -f3 >"$TMP/want"
compare_ids "$TMP/want" "--sort 's desc' --rows --where"

# 4. every column's line equals the unsorted line of that id
run cat "$F" -f csv
tail -n +2 "$TMP/out" | sort -t, -k1,1 >"$TMP/plain"
run cat "$F" --sort "-i32" -f csv
model i32 0 1 10000 | sort -t, -k1,1n -k2,2nr -k3,3n | cut -d, -f3 >"$TMP/want"
compare_ids "$TMP/want" "--sort -i32 (all columns)"
tail -n +2 "$TMP/out" | sort -t, -k1,1 >"$TMP/sorted_lines"
cmp -s "$TMP/plain" "$TMP/sorted_lines" || fail "--sort -i32: lines differ from the unsorted lines of the same ids"

# 5. head takes the first 10 of the order; jsonl prints the same rows
run head "$F" --sort "-id" -c id -f csv
[ "$(ids_of_csv | tr '\n' ' ')" = "10000 9999 9998 9997 9996 9995 9994 9993 9992 9991 " ] ||
    fail "head --sort -id: $(ids_of_csv | tr '\n' ' ')"
run cat "$F" -s "s" -n 3 -c id,s -f jsonl
# bytewise: s1 < s10 < s100 < s1000 < s1001, and s10, s100, s1000 are null (id % 5 == 0)
[ "$(cat "$TMP/out")" = '{"id":1,"s":"s1"}
{"id":1001,"s":"s1001"}
{"id":1002,"s":"s1002"}' ] || fail "-s s -n 3 jsonl: $(cat "$TMP/out")"

# 6. --explain shows the keys as applied and the limit
run cat "$F" --sort "f64 desc; i32 nulls_first" -n 2 -c id --explain -f csv
grep -q "^sort: f64 desc, i32 asc nulls_first$" "$TMP/err" || fail "--explain: $(cat "$TMP/err")"
grep -q "^limit: the first 2 rows" "$TMP/err" || fail "--explain limit: $(cat "$TMP/err")"

# 7. errors: a key that does not parse is a usage error (2), a missing column an error (1)
run cat "$F" --sort "-f64 desc"
[ "$rc" -eq 2 ] || fail "bad key: status $rc"
grep -q "sort key '-f64 desc' has both the '-' shorthand and an explicit direction" "$TMP/err" ||
    fail "bad key message: $(cat "$TMP/err")"
run cat "$F" --sort "f6"
[ "$rc" -eq 1 ] || fail "missing key column: status $rc"
grep -q "sort key 'f6' names no column; did you mean 'f64'" "$TMP/err" || fail "missing key message: $(cat "$TMP/err")"
run cat "$F" --sort "lst"
[ "$rc" -eq 1 ] || fail "list key: status $rc"
grep -q "variable-length list column" "$TMP/err" || fail "list key message: $(cat "$TMP/err")"

echo "test_cli_sort: $checks runs, $failures failure(s)"
[ "$failures" -eq 0 ]
