#!/usr/bin/env bash
# test_cli_maml.sh - `pqt maml check M [FILE]`: every problem on its own line with its line
# number (tests/data/maml/many_problems.maml has 11, counted by hand), a valid MAML, the
# checks against a file (alltypes_plain.parquet has no MASS_KG or RA_J2000), exit statuses.
# Usage (ctest does this from the repository root): bash tests/test_cli_maml.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_maml.sh PATH_TO_PQT}
M=tests/data/maml
PLAIN=tests/data/parquet-testing/data/alltypes_plain.parquet
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
want_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit status $rc, want $1: $(head -c 300 "$TMP/err")"; }
want_line() { grep -qxF -- "$1" "$TMP/out" || fail "missing line: $1"; }

run maml check $M/many_problems.maml
want_rc 1 "many problems"
[ "$(wc -l <"$TMP/out")" -eq 11 ] || fail "want 11 problem lines, got $(wc -l <"$TMP/out")"
want_line "$M/many_problems.maml: line 2: unknown section 'col_map'"
want_line "$M/many_problems.maml: line 7: field 'a' is declared twice (first on line 5)"
want_line "$M/many_problems.maml: line 21: extra: protected_cols: 'nope' is not a declared field"
grep -qxF "pqt: $M/many_problems.maml: 11 problems" "$TMP/err" || fail "count line on stderr"

run maml check $M/seed_units.maml
want_rc 0 "valid MAML"
want_line "$M/seed_units.maml: ok"

run maml check $M/seed_remap.maml $PLAIN
want_rc 1 "remap targets missing from the file"
want_line "$M/seed_remap.maml: line 5: extra: remap: 'mass' maps to 'MASS_KG', which is not a column of the file"
want_line "$M/seed_remap.maml: line 6: extra: remap: 'ra' maps to 'RA_J2000', which is not a column of the file"

run maml check $M/alltypes_units.maml $PLAIN
want_rc 0 "units MAML against its file"

run maml check $TMP/absent.maml
want_rc 1 "missing MAML"
grep -q "cannot open" "$TMP/err" || fail "missing MAML: message"

run maml frobnicate x
want_rc 2 "unknown subcommand"
run maml check
want_rc 2 "missing MAML"

[ "$failures" -eq 0 ] && echo "test_cli_maml: ok" || { echo "test_cli_maml: $failures failure(s)"; exit 1; }
