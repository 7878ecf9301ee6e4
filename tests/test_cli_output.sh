#!/usr/bin/env bash
# test_cli_output.sh - what `pqt cat`, `schema` and `meta` print, checked against expected
# text written by hand from the files' generators (tests/data/make_*.mjs, whose comments
# list every value): duplicate top-level names, nested structs in jsonl, type labels, nulls
# against the string "null", negative times, format names, typed statistics, --explain and
# `pqt stats`.
# Usage (ctest does this from the repository root): bash tests/test_cli_output.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_output.sh PATH_TO_PQT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0
export LC_ALL=C PQT_ISATTY=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

run() {
    "$PQT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
}

# expect WHAT FILE: FILE ($TMP/out or $TMP/err) is exactly stdin
expect() {
    cat >"$TMP/want"
    if ! cmp -s "$2" "$TMP/want"; then
        fail "$1: output differs:"
        diff "$TMP/want" "$2" | head -20 >&2
    fi
}

status() { [ "$rc" -eq "$1" ] || fail "$2: status $rc, want $1 ($(head -2 "$TMP/err"))"; }

# ---- 1. duplicate top-level names (tests/data/make_dup_names.mjs): a, a, a_1, s{b}, s{c}
D=tests/data/dup_names.parquet
run cat "$D" -f csv
status 0 "dup csv"
expect "dup names: csv header uses the unique names" "$TMP/out" <<'X'
a,a_2,a_1,s.b,s_1.c
1,10,100,7,x
2,20,,,
X
expect "dup names: a note on stderr" "$TMP/err" <<X
pqt: $D: note: top-level field 2 is a second 'a': read as 'a_2'
pqt: $D: note: top-level field 5 is a second 's': read as 's_1'
X
run cat "$D" -c a_2,s_1.c,a -f csv
status 0 "dup by name"
expect "dup names: every column reachable by name" "$TMP/out" <<'X'
a_2,s_1.c,a
10,x,1
20,,2
X
run schema "$D"
expect "dup names: schema notes" "$TMP/out" <<X
$D: 2 rows, 1 row group, 5 columns (5 readable)
node           repetition  physical    logical  column  kind
duckdb_schema  required
  a            optional    INT32       INT_32   a       int32
  a            optional    INT32       INT_32   a_2     int32
  a_1          optional    INT32       INT_32   a_1     int32
  s            optional
    b          optional    INT32       INT_32   s.b     int32
  s            optional
    c          optional    BYTE_ARRAY  UTF8     s_1.c   string
note: top-level field 2 is a second 'a': read as 'a_2'
note: top-level field 5 is a second 's': read as 's_1'
X
run schema "$D" -f json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = [(n["name"], n["column"], n["read_name"]) for n in d["nodes"][1:]]
want = [("a", "a", "a"), ("a", "a_2", "a_2"), ("a_1", "a_1", "a_1"), ("s", None, "s"),
        ("b", "s.b", "b"), ("s", None, "s_1"), ("c", "s_1.c", "c")]
sys.exit(0 if got == want else "schema json: %r" % got)' "$TMP/out" || fail "dup names: schema json read_name"

echo "test_cli_output: $checks runs, $failures failures"
[ "$failures" -eq 0 ]
