#!/usr/bin/env bash
# test_cli_uint64.sh - unsigned columns through `pqt cat/count --where`, `--sort` and `--qc`
# (issue 28): a UINT_64 column compared exactly past 2^63 (no rounding through double, no
# int64 wraparound), a negative literal below every value, sorted in unsigned order, qc
# bounds up to 2^64 - 1, row groups pruned by statistics read in unsigned order; UINT_32,
# UINT_16 and UINT_8 alongside.
# Truth: tests/data/exact_values.parquet, written by DuckDB (tests/data/make_exact_values.mjs):
#   u64: 0, 1, 2^63-1, 2^63, 2^64-1, null     u32: 0, 4294967295, 2147483648, 1, 4294967294, null
#   u16: 0, 65535, 32768, 1, 65534, null      u8:  0, 255, 128, 1, 254, null
# and the same rows sorted by u64 into row groups of two ([0, 1], [2^63-1, 2^63], [2^64-1,
# null]), whose pruning is worked out by hand below.
# Usage (ctest does this from the repository root): bash tests/test_cli_uint64.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_uint64.sh PATH_TO_PQT}
F=tests/data/exact_values.parquet
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

# expect_out WANT DESCRIPTION: exit status 0 and stdout exactly WANT (lines joined by spaces)
expect_out() {
    local got
    got=$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')
    [ "$rc" -eq 0 ] || fail "$2: exit status $rc (stderr: $(head -c 300 "$TMP/err"))"
    [ "$got" = "$1" ] || fail "$2: got '$got', want '$1'"
}

expect_grep() { # expect_grep FIXED_TEXT STREAM(out|err) DESCRIPTION
    grep -q -F -e "$1" "$TMP/$2" || fail "$3: no '$1' in std$2: $(head -c 300 "$TMP/$2")"
}

where() { # where RULE WANT: the u64 values `cat --where RULE` keeps, in file order
    run cat "$F" -c u64 -f jsonl --where "$1"
    expect_out "$2" "--where '$1'"
}

# ---- filters past 2^63 ----
where 'u64 > 9223372036854775808' '{"u64":18446744073709551615}'
where 'u64 >= 9223372036854775808' '{"u64":9223372036854775808} {"u64":18446744073709551615}'
where 'u64 > 9223372036854775807' '{"u64":9223372036854775808} {"u64":18446744073709551615}'
where 'u64 < 9223372036854775808' '{"u64":0} {"u64":1} {"u64":9223372036854775807}'
where 'u64 == 18446744073709551615' '{"u64":18446744073709551615}'
where 'u64 == 18446744073709551614' ''
where 'u64 /= 18446744073709551615' \
    '{"u64":0} {"u64":1} {"u64":9223372036854775807} {"u64":9223372036854775808}'
where 'u64 > 18446744073709551615' ''
where 'u64 < 18446744073709551616' \
    '{"u64":0} {"u64":1} {"u64":9223372036854775807} {"u64":9223372036854775808} {"u64":18446744073709551615}'
# a negative literal is below every value: > is true on every present row, == on none
where 'u64 > -1' \
    '{"u64":0} {"u64":1} {"u64":9223372036854775807} {"u64":9223372036854775808} {"u64":18446744073709551615}'
where 'u64 == -1' ''
where 'u64 < 0' ''
where 'u64 in (1, 18446744073709551615, -1)' '{"u64":1} {"u64":18446744073709551615}'
where 'u64 not_in (0, 9223372036854775808)' \
    '{"u64":1} {"u64":9223372036854775807} {"u64":18446744073709551615}'
where 'u64 > 1e19' '{"u64":18446744073709551615}'
where 'u64 <= 0.5' '{"u64":0}'
where 'u64 is_null' '{"u64":null}'

# ---- sorts: unsigned order, nulls last ----
run cat "$F" -c u64 -f jsonl --sort u64
expect_out '{"u64":0} {"u64":1} {"u64":9223372036854775807} {"u64":9223372036854775808} {"u64":18446744073709551615} {"u64":null}' "--sort u64"
run cat "$F" -c u64 -f jsonl --sort -u64
expect_out '{"u64":18446744073709551615} {"u64":9223372036854775808} {"u64":9223372036854775807} {"u64":1} {"u64":0} {"u64":null}' "--sort -u64"
run cat "$F" -c u64 -f jsonl --sort -u64 -n 2
expect_out '{"u64":18446744073709551615} {"u64":9223372036854775808}' "--sort -u64 -n 2"
run cat "$F" -c u64 -f jsonl --sort u64 --where 'u64 > 0' -n 2
expect_out '{"u64":1} {"u64":9223372036854775807}' "--sort u64 --where 'u64 > 0' -n 2"

# ---- qc bounds up to 2^64 - 1 ----
run cat "$F" -c u64 -f jsonl --qc 'u64, 0, 18446744073709551615'
[ "$rc" -eq 0 ] || fail "qc within [0, 2^64-1]: exit status $rc ($(head -c 300 "$TMP/err"))"
run cat "$F" -c u64 -f jsonl --qc 'u64, , <=18446744073709551614'
[ "$rc" -eq 1 ] || fail "qc max 2^64-2: exit status $rc, want 1"
expect_grep "declared max <= 18446744073709551614, data range [0, 18446744073709551615], 1 of 5 valid element(s) out of range" err "qc max 2^64-2"
run cat "$F" -c u64 -f jsonl --qc 'u64, >9223372036854775807'
[ "$rc" -eq 1 ] || fail "qc min > 2^63-1: exit status $rc, want 1"
expect_grep "3 of 5 valid element(s) out of range" err "qc min > 2^63-1"

# ---- statistics in unsigned order: row groups [0, 1], [2^63-1, 2^63], [2^64-1, null] ----
run copy "$F" "$TMP/rg.parquet" -c u64 --sort u64 --row-group-rows 2 -q
[ "$rc" -eq 0 ] || fail "copy into row groups of 2: exit status $rc ($(head -c 300 "$TMP/err"))"
run count "$TMP/rg.parquet" --where 'u64 > 9223372036854775807' --explain
expect_grep "row group 1: pruned by statistics" out "u64 > 2^63-1"
expect_grep "row groups 2-3: filtered, 2 of 4 rows kept" out "u64 > 2^63-1"
[ "$(head -1 "$TMP/out")" = 2 ] || fail "u64 > 2^63-1: count $(head -1 "$TMP/out"), want 2"
run count "$TMP/rg.parquet" --where 'u64 >= 18446744073709551615' --explain
expect_grep "row groups 1-2: pruned by statistics" out "u64 >= 2^64-1"
[ "$(head -1 "$TMP/out")" = 1 ] || fail "u64 >= 2^64-1: count $(head -1 "$TMP/out"), want 1"
run count "$TMP/rg.parquet" --where 'u64 < 9223372036854775807' --explain
expect_grep "row group 1: every row passes by statistics" out "u64 < 2^63-1"
expect_grep "row groups 2-3: pruned by statistics" out "u64 < 2^63-1"

# ---- the narrower unsigned kinds ----
run cat "$F" -c u32 -f jsonl --where 'u32 > 2147483648'
expect_out '{"u32":4294967295} {"u32":4294967294}' "u32 > 2^31"
run cat "$F" -c u32 -f jsonl --sort -u32 -n 3
expect_out '{"u32":4294967295} {"u32":4294967294} {"u32":2147483648}' "--sort -u32"
run cat "$F" -c u16 -f jsonl --where 'u16 in (65535, 1, -1)'
expect_out '{"u16":65535} {"u16":1}' "u16 in"
run cat "$F" -c u8 -f jsonl --where 'u8 >= 128' --sort u8
expect_out '{"u8":128} {"u8":254} {"u8":255}' "u8 >= 128"
run cat "$F" -c u32 -f jsonl --qc 'u32, 0, 4294967294'
[ "$rc" -eq 1 ] || fail "qc u32 max: exit status $rc, want 1"

if [ "$failures" -ne 0 ]; then
    echo "test_cli_uint64: $failures of $checks checks failed" >&2
    exit 1
fi
echo "test_cli_uint64: all $checks checks passed"
