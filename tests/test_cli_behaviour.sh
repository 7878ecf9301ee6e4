#!/usr/bin/env bash
# test_cli_behaviour.sh - how the pqt tool behaves around its options (issue 28): the row
# index parquet_row_index reached from --columns, --where and --sort of cat and from copy
# (--row-index); a --limit of INT64_MAX; the exact exit statuses and messages of usage errors.
# The truth is the catalogue's own shape (examples/make_catalogue.mjs: id = row number 1..1000)
# and hand-written expected lines.
# Usage (ctest does this from the repository root): bash tests/test_cli_behaviour.sh PATH_TO_PQT
set -u
PQT=${1:?usage: test_cli_behaviour.sh PATH_TO_PQT}
SRC=examples/catalogue.parquet
DATA=tests/data/parquet-testing/data
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

expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, want $1 (stderr: $(head -c 300 "$TMP/err"))"; }
expect_out() { [ "$(cat "$TMP/out")" = "$1" ] || fail "$2: stdout '$(head -c 300 "$TMP/out")', want '$1'"; }
expect_err() { [ "$(cat "$TMP/err")" = "$1" ] || fail "$2: stderr '$(head -c 400 "$TMP/err")', want '$1'"; }
expect_err_line() { head -1 "$TMP/err" | grep -qxF -- "$1" || fail "$2: first stderr line '$(head -1 "$TMP/err")', want '$1'"; }

# ---- 1. the row index: the 1-based file row (id is the row number in the catalogue) ----
run cat "$SRC" --columns parquet_row_index,id --limit 3 --format csv
expect_rc 0 "cat -c parquet_row_index"
expect_out $'parquet_row_index,id\n1,1\n2,2\n3,3' "cat -c parquet_row_index"
run cat "$SRC" -c id,parquet_row_index --rows 500:502 --format csv
expect_out $'id,parquet_row_index\n500,500\n501,501\n502,502' "cat -c parquet_row_index --rows"
# with --where the survivors keep their file rows
run cat "$SRC" -c parquet_row_index -w 'id in (250, 500, 750, 1000)' --format csv
expect_out $'parquet_row_index\n250\n500\n750\n1000' "cat --where with the row index printed"
run cat "$SRC" -c id,parquet_row_index -w 'parquet_row_index > 998' --format jsonl
expect_out $'{"id":999,"parquet_row_index":999}\n{"id":1000,"parquet_row_index":1000}' "--where parquet_row_index"
run cat "$SRC" -c id,parquet_row_index --sort=-parquet_row_index -n 2 --format csv
expect_out $'id,parquet_row_index\n1000,1000\n999,999' "--sort -parquet_row_index"
run count "$SRC" -w 'parquet_row_index <= 10'
expect_out 10 "count --where parquet_row_index"
# copy: --row-index NAME writes it (last); --where, --sort and --rows together
run copy "$SRC" "$TMP/ri.parquet" -c id -w 'id > 996' --sort=-id --row-index src_row
expect_rc 0 "copy --row-index"
run cat "$TMP/ri.parquet" --format csv
expect_out $'id,src_row\n1000,1000\n999,999\n998,998\n997,997' "copy --row-index values"
run copy "$SRC" "$TMP/ri2.parquet" -c id --sort=-id --rows 3:5 --row-index r
expect_rc 0 "copy --sort --rows"
run cat "$TMP/ri2.parquet" --format csv
expect_out $'id,r\n5,5\n4,4\n3,3' "copy --sort with --rows: the slice, sorted"
run copy "$SRC" "$TMP/ri3.parquet" -c id,parquet_row_index
expect_rc 2 "copy -c parquet_row_index"
expect_err_line "pqt copy: --columns: parquet_row_index is not a column of IN: --row-index NAME writes it" "copy -c parquet_row_index"
[ -e "$TMP/ri3.parquet" ] && fail "copy -c parquet_row_index wrote OUT"
run copy "$SRC" "$TMP/ri3.parquet" --row-index parquet_row_index
expect_rc 2 "copy --row-index parquet_row_index"

# ---- 5. --limit INT64_MAX: every row, no overflow (sorted and not) ----
run cat "$SRC" -s id -n 9223372036854775807 -c id --format csv
expect_rc 0 "--sort --limit INT64_MAX"
[ "$(wc -l <"$TMP/out")" -eq 1001 ] || fail "--sort --limit INT64_MAX: $(wc -l <"$TMP/out") lines, want 1001"
[ "$(sed -n '2p;$p' "$TMP/out" | tr '\n' ' ')" = "1 1000 " ] || fail "--sort --limit INT64_MAX: first/last $(sed -n '2p;$p' "$TMP/out")"
run cat "$SRC" -n 9223372036854775807 -c id --format csv -w 'id > 990'
expect_rc 0 "--where --limit INT64_MAX"
[ "$(wc -l <"$TMP/out")" -eq 11 ] || fail "--where --limit INT64_MAX: $(wc -l <"$TMP/out") lines, want 11"
run cat "$SRC" -s id -n 9223372036854775808 -c id
expect_rc 2 "--limit past INT64_MAX"

# ---- 6. a wide file: 50,000 leaves (tests/make_wide.py: column ck, row r holds 10k + r).
# Planning pairs printed columns with leaves in one pass; the old pairing (leaves x printed
# columns, 2.5e9 steps here) took minutes. No timing is asserted: the work is bounded ----
python3 tests/make_wide.py "$TMP/wide.parquet" 50000 3 || fail "make_wide.py failed"
run cat "$TMP/wide.parquet" -n 1 --format csv
expect_rc 0 "cat -n 1 of 50,000 columns"
awk -F, 'NR == 1 { if (NF != 50000 || $1 != "c0" || $50000 != "c49999") bad = 1 }
         NR == 2 { for (k = 1; k <= NF; k++) if ($k != (k - 1) * 10) bad = 1; if (NF != 50000) bad = 1 }
         END { exit bad || NR != 2 }' "$TMP/out" || fail "cat -n 1 of 50,000 columns: wrong header or values"
run cat "$TMP/wide.parquet" --rows 3 --format jsonl -c c49999,c7
expect_out '{"c49999":499992,"c7":72}' "cat -c of a wide file"

echo "test_cli_behaviour: $checks commands, $failures failures"
[ "$failures" -eq 0 ]
