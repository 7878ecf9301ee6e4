#!/usr/bin/env bash
# test_cli_qc.sh - `pqt cat --qc RULE`, `--qc-soft` and the qc lines of --explain, on
# tests/data/table_rg.parquet, whose values are formulas of the row number (id = row;
# i32 = id * 3, NULL when id % 7 == 0: tests/data/make_table_data.mjs). Every expected range,
# count and line is worked out from those formulas.
# Usage (ctest does this from the repository root): bash tests/test_cli_qc.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_qc.sh PATH_TO_PQT}
F=tests/data/table_rg.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
run() {
    "$PQT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit status $rc, want $1 (stderr: $(head -c 300 "$TMP/err"))"; }
expect_file() { # expect_file STREAM(out|err) DESCRIPTION  (wanted text on stdin)
    cat >"$TMP/want"
    cmp -s "$TMP/want" "$TMP/$1" || fail "$2: std$1 differs: $(diff "$TMP/want" "$TMP/$1" | head -8)"
}

# rules that hold: the rows print as without them
run cat $F -c id,i32 --rows 1:6 -f csv --qc "id, 1, 6" --qc "i32, >0, <=18, "
expect_rc 0 "passing rules"
expect_file out "passing rules" <<<"$(printf 'id,i32\n1,3\n2,6\n3,9\n4,12\n5,15\n6,18\n')"
expect_file err "passing rules" </dev/null

# hard: status 1, nothing printed, the docs/qc.md message (ids 1..5: one of them is not > 1)
run cat $F -c id --rows 1:5 -f csv --qc "id, >1"
expect_rc 1 "hard range"
expect_file out "hard range" </dev/null
expect_file err "hard range" <<<"pqt: $F: qc violation for column 'id': declared min > 1, data range [1, 5], 1 of 5 valid element(s) out of range"

# a column checked though not printed; nulls not expected (id 7 and 14 have a null i32)
run cat $F -c id --rows 1:14 -f csv --qc "i32, , , "
expect_rc 1 "hard nulls"
expect_file err "hard nulls" <<<"pqt: $F: qc violation for column 'i32': 2 of 14 element(s) are Null (qc: miss: is declared empty, so Nulls are not expected here)"

# soft: every row prints, one warning per column and kind on stderr
run cat $F -c id,i32 --rows 1:8 -f csv --qc "i32,,," --qc "id, , <=7" --qc-soft
expect_rc 0 "soft"
expect_file out "soft" <<<"$(printf 'id,i32\n1,3\n2,6\n3,9\n4,12\n5,15\n6,18\n7,\n8,24\n')"
expect_file err "soft" <<EOT
pqt: warning: pqt_table_validate_qc: $F: qc violation for column 'id': declared max <= 7, data range [1, 8], 1 of 8 valid element(s) out of range
pqt: warning: pqt_table_validate_qc: $F: qc violation for column 'i32': 1 of 8 element(s) are Null (qc: miss: is declared empty, so Nulls are not expected here)
EOT

# a --where column is checked at open, over the rows the filter keeps (ids 1..3)
run cat $F -c id -f csv --where "id <= 3" --qc "id, >=2"
expect_rc 1 "filter column"
expect_file err "filter column" <<<"pqt: $F: qc violation for column 'id': declared min >= 2, data range [1, 3], 1 of 3 valid element(s) out of range"
run cat $F -c id -f csv --where "id <= 3 and id >= 2" --qc "id, >=2"
expect_rc 0 "filter keeps good rows"
expect_file out "filter keeps good rows" <<<"$(printf 'id\n2\n3\n')"

# --explain lists the rules as applied
run cat $F -c id --rows 1:2 -f csv --explain --qc "id, >0" --qc "i32, , <100, Null" --qc-soft
expect_rc 0 "explain"
expect_file err "explain" <<EOT
no filter: every row of the slice is kept
qc (soft: a violation is a warning):
qc: column 'id': min > 0
qc: column 'i32': max < 100, Nulls expected
EOT

# errors: a rule that does not parse is a usage error; an unknown column or a bound of the
# wrong type, status 1 before anything is read
run cat $F --qc "id, <3"
expect_rc 2 "bad rule"
grep -q "pqt cat: --qc: rule 'id, <3': the min field takes >= or > (or a bare value, meaning >=), not '<'" "$TMP/err" ||
    fail "bad rule: $(head -c 300 "$TMP/err")"
run cat $F --qc "idd, 3"
expect_rc 1 "unknown column"
expect_file err "unknown column" <<<"pqt: $F: qc rule for column 'idd': no column 'idd'; did you mean 'id'?"
run cat $F --qc "id, 2.5"
expect_rc 1 "float bound on an integer column"
grep -q "the min bound '2.5' is not an integer, and the column is int64" "$TMP/err" ||
    fail "float bound: $(head -c 300 "$TMP/err")"

if [ "$failures" -gt 0 ]; then
    echo "test_cli_qc: $failures failure(s)"
    exit 1
fi
echo "test_cli_qc: ok"
