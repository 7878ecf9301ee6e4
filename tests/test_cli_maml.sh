#!/usr/bin/env bash
# test_cli_maml.sh - `pqt maml check M [FILE]`: every problem on its own line with its line
# number (tests/data/maml/many_problems.maml has 11, counted by hand), a valid MAML, the
# checks against a file (alltypes_plain.parquet has no MASS_KG or RA_J2000), exit statuses;
# the rules' problems against a file; `pqt cat --maml` (remapped names, units in the table's
# second header line, the MAML's filter and sort with --where/--sort, qc merged with --qc)
# and `pqt schema --maml`. table_rg.parquet's values are formulas of the row number id
# (tests/data/make_table_data.mjs: i32 = 3 id, NULL when id % 7 == 0; f32 = id / 4;
# s = 's' || id, NULL when id % 5 == 0): the expected rows below are computed by hand.
# Usage (ctest does this from the repository root): bash tests/test_cli_maml.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_maml.sh PATH_TO_PQT}
M=tests/data/maml
PLAIN=tests/data/parquet-testing/data/alltypes_plain.parquet
RG=tests/data/table_rg.parquet
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

# without a file, the rules' syntax: a rule and a key that do not parse
printf 'extra:\n  filter:\n    - id >\n  sort:\n    - "-id desc"\n' >"$TMP/syntax.maml"
run maml check "$TMP/syntax.maml"
want_rc 1 "rule syntax without a file"
want_line "$TMP/syntax.maml: line 3: extra: filter: filter rule 'id >' is missing a value after '>' at character 4"
want_line "$TMP/syntax.maml: line 5: extra: sort: sort key '-id desc' has both the '-' shorthand and an explicit direction; use one or the other"

# the rules checked against the file: four problems, each with its line
run maml check $M/rg_problems.maml $RG
want_rc 1 "rule problems against the file"
[ "$(wc -l <"$TMP/out")" -eq 4 ] || fail "want 4 rule problem lines, got $(wc -l <"$TMP/out")"
want_line "$M/rg_problems.maml: line 9: extra: remap: 'a' maps to 'NO_SUCH', which is not a column of the file"
grep -qF "$M/rg_problems.maml: line 11: extra: filter (file column names): unknown column in filter: mass" "$TMP/out" ||
    fail "filter problem line"
want_line "$M/rg_problems.maml: line 13: extra: sort: key 'lst' is a list column; sorting only supports scalar columns"
grep -qF "$M/rg_problems.maml: line 4: field 'id': qc: qc rule for column 'id': the max bound '2.5' is not an integer" "$TMP/out" ||
    fail "qc problem line"
run maml check $M/rg_problems.maml
want_rc 0 "the same MAML alone"
run cat $RG --maml $M/rg_problems.maml
want_rc 1 "cat with a MAML the file refutes"
grep -qF "4 problems" "$TMP/err" || fail "cat --maml: the problems counted"

# cat --maml: the MAML's filter (id <= 100) AND --where in internal names (n > 90); the
# MAML's sort (i32 desc nulls_first: 91 and 98 are null) first, --sort -n breaking the tie
run cat $RG --maml $M/rg_rules.maml -c n,quarter,s -w "n > 90" -s -n -f csv
want_rc 0 "cat --maml csv"
printf '%s\n' n,quarter,s 98,24.5,s98 91,22.75,s91 100,25.0, 99,24.75,s99 97,24.25,s97 \
    96,24.0,s96 95,23.75, 94,23.5,s94 93,23.25,s93 92,23.0,s92 >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" || fail "cat --maml csv: $(head -c 300 "$TMP/out")"
# the table: internal names, then kinds with the MAML's units
run cat $RG --maml $M/rg_rules.maml -c "n, quarter, s" -w "n > 97"
want_rc 0 "cat --maml table"
printf '%s\n' '            n        quarter  s' 'int64 [count]  float32 [deg]  string' \
    '-------------  -------------  ------' '           98           24.5  s98' \
    '          100           25.0  NULL' '           99          24.75  s99' '3 rows' >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" || fail "cat --maml table: $(cat "$TMP/out")"
# --rows with a MAML sort: a rule on the row index (rows 95..99, sorted by i32 desc)
run cat $RG --maml $M/rg_rules.maml -c n --rows 95:99 -f csv
want_rc 0 "cat --maml --rows"
printf '%s\n' n 98 99 97 96 95 >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" || fail "cat --maml --rows: $(head -c 300 "$TMP/out")"
# qc: the MAML's f32 rule (max 100) replaces --qc's on quarter (max 10); --qc on n stays
run cat $RG --maml $M/rg_rules.maml -c n,quarter -w "n > 90" --qc "quarter, , <= 10" -f csv
want_rc 0 "cat --maml: the MAML's qc wins for its column"
run cat $RG --maml $M/rg_rules.maml -c n,quarter -w "n > 90" --qc "n, >= 1000" -f csv
want_rc 1 "cat --maml: --qc on another column"
grep -qF "qc violation for column 'n': declared min >= 1000, data range [91, 100]" "$TMP/err" ||
    fail "cat --maml qc message: $(head -c 300 "$TMP/err")"
# a file column the remap renamed is not a table column
run cat $RG --maml $M/rg_rules.maml -c id
want_rc 1 "cat --maml -c FILE_NAME"

# INT96 past 2262 (int96_from_spark.parquet): the unit settled over the file, as without a
# MAML (tests/golden/expected/, DuckDB), under the remapped name
printf 'extra:\n  remap:\n    - t: a\n' >"$TMP/i96.maml"
run cat tests/data/parquet-testing/data/int96_from_spark.parquet --maml "$TMP/i96.maml" -f jsonl
want_rc 0 "cat --maml INT96"
sed 's/^{"a":/{"t":/' tests/golden/expected/int96_from_spark.parquet.jsonl >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" || fail "cat --maml INT96: $(head -c 300 "$TMP/out")"

# schema --maml: internal name, file column, unit
run schema $RG --maml $M/rg_rules.maml
want_rc 0 "schema --maml"
want_line "table columns with MAML $M/rg_rules.maml:"
want_line "n        id           count"
want_line "quarter  f32          deg"
want_line "s        s"
run schema $RG --maml $M/rg_rules.maml -f json
want_rc 0 "schema --maml json"
tr -d ' \n' <"$TMP/out" | grep -qF '"table_columns":[{"name":"n","file_column":"id","unit":"count"},{"name":"i32","file_column":"i32","unit":""},{"name":"quarter","file_column":"f32","unit":"deg"}' ||
    fail "schema --maml json: table_columns"

[ "$failures" -eq 0 ] && echo "test_cli_maml: ok" || { echo "test_cli_maml: $failures failure(s)"; exit 1; }
