#!/usr/bin/env bash
# test_cli_sql_duckdb.sh - the SQL spellings and expressions of the filter language (issue 30)
# against DuckDB: tests/data/sql_filters/expected.tsv holds, for each rule, the count, sum(id)
# and md5 of the ids DuckDB keeps on tests/data/sql_filters/cat.parquet for a SQL condition of
# the same meaning (tests/data/make_sql_filters.mjs lists the rules, DuckDB's spelling of each
# and the differences between the languages that kept cases out). Each rule runs through
# `pqt cat --where` twice: as is, and on one thread (OMP_NUM_THREADS=1) with --explain (the statistics may settle
# row groups there; the answer must not change); `pqt count` must agree. A rule DuckDB refuses
# for an int64 overflow must fail here too: exit status 1 naming the overflow.
# Usage (ctest does this from the repository root): bash tests/test_cli_sql_duckdb.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_sql_duckdb.sh PATH_TO_PQT}
DIR=tests/data/sql_filters
CAT=$DIR/cat.parquet
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# summary FILE: "count sum md5" of the ids in a csv of one id column (header first)
summary() {
    tail -n +2 "$1" >"$TMP/ids"
    local n s m
    n=$(wc -l <"$TMP/ids" | tr -d ' ')
    s=$(awk '{ s += $1 } END { printf "%d", s }' "$TMP/ids")
    m=$(md5sum <"$TMP/ids" | cut -d' ' -f1)
    echo "$n $s $m"
}

while IFS=$'\t' read -r count sum md5 rule; do
    case "$count" in '#'*|'') continue ;; esac
    checks=$((checks + 1))
    if [ "$count" = error ]; then
        "$PQT" cat "$CAT" -c id -f csv -w "$rule" >"$TMP/out" 2>"$TMP/err"
        rc=$?
        if [ "$rc" -ne 1 ] || ! grep -qi 'overflow' "$TMP/err"; then
            fail "'$rule': DuckDB refuses it (int64 overflow); pqt exit status $rc: $(head -c 300 "$TMP/err")"
        fi
        continue
    fi
    want="$count $sum $md5"
    for mode in plain explain; do
        if [ $mode = plain ]; then
            "$PQT" cat "$CAT" -c id -f csv -w "$rule" >"$TMP/out" 2>"$TMP/err"
        else
            OMP_NUM_THREADS=1 "$PQT" cat "$CAT" -c id -f csv --explain -w "$rule" >"$TMP/out" 2>"$TMP/err"
        fi
        rc=$?
        if [ "$rc" -ne 0 ]; then
            fail "'$rule' ($mode): exit status $rc: $(head -c 300 "$TMP/err")"
            continue 2
        fi
        got=$(summary "$TMP/out")
        [ "$got" = "$want" ] || fail "'$rule' ($mode): count sum md5 = $got, DuckDB: $want"
    done
    n=$("$PQT" count "$CAT" -w "$rule" 2>"$TMP/err")
    [ "$n" = "$count" ] || fail "'$rule': pqt count says '$n', DuckDB $count: $(head -c 200 "$TMP/err")"
done <"$DIR/expected.tsv"

[ "$checks" -ge 70 ] || fail "only $checks cases read from $DIR/expected.tsv"
echo "test_cli_sql_duckdb: $checks rules, $failures failures"
[ "$failures" -eq 0 ]
