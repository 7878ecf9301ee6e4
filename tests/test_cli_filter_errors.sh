#!/usr/bin/env bash
# test_cli_filter_errors.sh - what `pqt cat --where` / `pqt count --where` tell a CLI user
# when a rule cannot be applied (issue 28): a date column compared with a value that carries
# a time of day (midnight included) is an error naming the column and its type, and the
# messages about sets speak of a bound set, never of a C call a CLI user cannot make.
# Truth: the dates of tests/data/write_types.parquet (DuckDB-written, 1980-11-01 in row 1).
# Usage (ctest does this from the repository root): bash tests/test_cli_filter_errors.sh PQT
set -u
PQT=${1:?usage: test_cli_filter_errors.sh PATH_TO_PQT}
F=tests/data/write_types.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

run() {
    "$PQT" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    checks=$((checks + 1))
}

expect_rc() { # expect_rc WANT DESCRIPTION
    [ "$rc" -eq "$1" ] || fail "$2: exit status $rc, want $1 (stderr: $(head -c 300 "$TMP/err"))"
}

expect_grep() { # expect_grep FIXED_TEXT STREAM(out|err) DESCRIPTION
    grep -q -F -e "$1" "$TMP/$2" || fail "$3: no '$1' in std$2: $(head -c 300 "$TMP/$2")"
}

expect_no_grep() { # expect_no_grep FIXED_TEXT STREAM(out|err) DESCRIPTION
    ! grep -q -F -e "$1" "$TMP/$2" || fail "$3: '$1' in std$2: $(head -c 300 "$TMP/$2")"
}

# ---- a date against a time of day ----
run cat "$F" -c dt -f jsonl --where 'dt == "1980-11-01"'
expect_rc 0 "a date alone"
[ "$(cat "$TMP/out")" = '{"dt":"1980-11-01"}' ] || fail "dt == 1980-11-01: $(head -c 200 "$TMP/out")"

for rule in 'dt == "1980-11-01T00:00:00"' 'dt >= "1980-11-01 00:00"' 'dt < "1980-11-01T12:00:00Z"' \
    'dt in ("1980-11-01", "1981-11-13T00:00:00")'; do
    run cat "$F" -c dt --where "$rule"
    expect_rc 1 "cat --where '$rule'"
    expect_grep "has a time of day; column 'dt' is date" err "cat --where '$rule'"
    [ -s "$TMP/out" ] && fail "cat --where '$rule' printed rows"
    run count "$F" --where "$rule"
    expect_rc 1 "count --where '$rule'"
    expect_grep "column 'dt' is date" err "count --where '$rule'"
done

# ---- sets: no C call named to a CLI user ----
run cat "$F" -c dt --where 'dt in @wanted'
expect_rc 1 "an unknown set"
expect_grep "unknown set '@wanted' (the pqt tool binds no sets: list the values, as 'x in (1, 2, 3)')" err "an unknown set"
expect_no_grep "pqt_filter_bind" err "an unknown set"

run cat "$F" -c dt --where 'dt in'
expect_rc 2 "in without a set"
expect_grep "is missing a set after 'in'" err "in without a set"
expect_grep "(write it as 'in (1, 2, 3)')" err "in without a set: the tool offers the list form only"
expect_no_grep "pqt_filter_bind" err "in without a set"

if [ "$failures" -ne 0 ]; then
    echo "test_cli_filter_errors: $failures of $checks checks failed" >&2
    exit 1
fi
echo "test_cli_filter_errors: all $checks checks passed"
