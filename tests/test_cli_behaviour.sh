#!/usr/bin/env bash
# test_cli_behaviour.sh - how the pqt tool behaves around its options (issue 28): the row
# index parquet_row_index reached from --columns, --where and --sort of cat and from copy
# (--row-index); a --limit of INT64_MAX; a file of 50,000 columns; messages in the tool's
# words with control bytes escaped; one-line unknown command and option errors with the
# nearest name; repeated options; usage errors as status 2; DATE and SOURCE_DATE_EPOCH.
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
# a sorted print labels every column; row 3 (c5 = 52) comes first in descending order
run cat "$TMP/wide.parquet" --sort 'c5 desc' -n 1 --format csv
expect_rc 0 "cat --sort of 50,000 columns"
awk -F, 'NR == 2 { for (k = 1; k <= NF; k++) if ($k != (k - 1) * 10 + 2) bad = 1; if (NF != 50000) bad = 1 }
         END { exit bad || NR != 2 }' "$TMP/out" || fail "cat --sort of 50,000 columns: wrong row"
# the writer checks the 50,000 names for duplicates (once pair by pair: 97 s)
run copy "$TMP/wide.parquet" "$TMP/wide_copy.parquet"
expect_rc 0 "copy of 50,000 columns"
run cat "$TMP/wide_copy.parquet" --format csv
awk -F, 'NR == 1 { if (NF != 50000 || $1 != "c0" || $50000 != "c49999") bad = 1 }
         NR > 1 { for (k = 1; k <= NF; k++) if ($k != (k - 1) * 10 + NR - 2) bad = 1; if (NF != 50000) bad = 1 }
         END { exit bad || NR != 4 }' "$TMP/out" || fail "copy of 50,000 columns: wrong header or values"
run stats "$TMP/wide_copy.parquet"
expect_rc 0 "stats of 50,000 columns"
# column c49999 holds 499990, 499991, 499992: mean 499991, sample stddev 1
[ "$(awk '$1 == "c49999" { $1 = $1; print }' "$TMP/out")" = "c49999 int32 3 0 499990 499992 3 499991 1" ] ||
    fail "stats of 50,000 columns: row of c49999: $(grep '^c49999 ' "$TMP/out")"

# ---- 7. messages in the tool's words, not the C API's ----
cp "$SRC" "$TMP/exists.parquet"
run copy "$SRC" "$TMP/exists.parquet"
expect_rc 1 "copy over an existing OUT"
expect_err "pqt: $TMP/exists.parquet: exists (--force replaces it)" "copy over an existing OUT"
run cat "$SRC" -w 'id in @s'
expect_rc 1 "--where with a set"
expect_err "pqt: $SRC: filter rule 'id in @s': unknown set '@s' (the pqt tool binds no sets: list the values, as 'x in (1, 2, 3)') at character 7" "--where with a set"
run count "$SRC" --sample -1
expect_rc 2 "--sample -1"
expect_err_line "pqt count: --sample: -1.0: a sample fraction is >= 0 (0 keeps no row, 1 or more keeps every row)" "--sample -1"
run count "$SRC" --rows 0:5
expect_err "pqt: $SRC: --rows: LO = 0: rows are 1-based, the first row is 1 (leave the option unset to start at row 1)" "count --rows 0:5"
run copy "$SRC" "$TMP/rg0.parquet" --row-group-rows 0
expect_rc 2 "--row-group-rows 0"
expect_err_line "pqt copy: --row-group-rows: 0 is out of range (1..2^63-1)" "--row-group-rows 0"
run copy "$SRC" "$TMP/lzo.parquet" --codec lzo
expect_err_line "pqt copy: --codec: unknown codec 'lzo' (zstd, snappy, gzip, lz4_raw, brotli, none)" "--codec lzo"
# no message of these names a C call or option
run cat "$SRC" --qc 'nosuch, >=0' -w 'id < 3'
expect_rc 1 "--qc of a missing column"
grep -qE 'pqt_[a-z_]+|PQT_[A-Z_]+' "$TMP/err" && fail "--qc message names the C API: $(cat "$TMP/err")"

# ---- 8. unknown commands and options: one line with the nearest; repeated options add up;
# a usage error is status 2 ----
run cta "$SRC"
expect_rc 2 "unknown command"
expect_err "pqt: unknown command 'cta'; did you mean 'cat'? ('pqt help' lists the commands)" "unknown command"
run xyzzy
expect_rc 2 "unknown command, nothing near"
expect_err "pqt: unknown command 'xyzzy' ('pqt help' lists the commands)" "unknown command, nothing near"
run help cout
expect_rc 2 "pqt help of an unknown command"
expect_err "pqt: unknown command 'cout'; did you mean 'count'? ('pqt help' lists the commands)" "pqt help cout"
run cat "$SRC" --colums id
expect_rc 2 "unknown option"
expect_err "pqt cat: unknown option '--colums'; did you mean '--columns'? ('pqt cat --help' lists the options)" "unknown option"
run copy "$SRC" "$TMP/f.parquet" --forse=1
expect_rc 2 "unknown option with a value"
expect_err "pqt copy: unknown option '--forse=1'; did you mean '--force'? ('pqt copy --help' lists the options)" "unknown option with a value"
run count "$SRC" --zzzzzz
expect_err "pqt count: unknown option '--zzzzzz' ('pqt count --help' lists the options)" "unknown option, nothing near"
run cat "$SRC" -c id -c ra --rows 1:2 --format csv
expect_out $'id,ra\n1,129.00672\n2,208.38024' "-c id -c ra: both"
run cat "$SRC" -s survey -s -id -c survey,id -n 3 --format csv
expect_out $'survey,id\nDES,997\nDES,993\nDES,989' "-s survey -s -id: both keys"
run copy "$SRC" "$TMP/cc.parquet" -c id -c mass --sort survey --sort -id -n
expect_rc 2 "copy -n (unknown)"
run copy "$SRC" "$TMP/cc.parquet" -c id -c survey --sort survey --sort -id --rows 1:6
expect_rc 0 "copy -c -c --sort --sort"
run cat "$TMP/cc.parquet" --format csv
# the model: the unsorted rows ordered by sort(1), survey then id descending
want=$(printf 'id,survey\n'; "$PQT" cat "$SRC" --rows 1:6 -c id,survey --format csv | tail -n +2 | sort -t, -k2,2 -k1,1nr)
expect_out "$want" "copy -c -c --sort --sort"
run copy "$SRC" "$TMP/lvl.parquet" --codec snappy --level 5
expect_rc 2 "--codec snappy --level 5"
expect_err_line "pqt copy: --level: snappy takes no level" "--codec snappy --level 5"
run copy "$SRC" "$TMP/lvl.parquet" --level 10 --codec gzip
expect_rc 2 "--codec gzip --level 10"
expect_err_line "pqt copy: --level: gzip takes levels 0 to 9 (0: its default)" "--codec gzip --level 10"
[ -e "$TMP/lvl.parquet" ] && fail "a bad --level wrote OUT"
run copy "$SRC" "$TMP/lvl.parquet" --codec gzip --level 9 -c id
expect_rc 0 "--codec gzip --level 9"

# ---- 9. control bytes and invalid UTF-8 in a message are escaped (\xNN); valid UTF-8 stays ----
run cat "$SRC" -c $'bad\x1b[31m\xff\xc3\xa9'
expect_rc 1 "a column name with control bytes"
expect_err "pqt: $SRC: no column 'bad\\x1B[31m\\xFF"$'\xc3\xa9'"'" "a column name with control bytes"
run cat $'/nonexistent\x07/x.parquet'
expect_err 'pqt: /nonexistent\x07/x.parquet: cannot open: No such file or directory' "a path with a control byte"
run cat "$SRC" $'--c\x1bolumns'
expect_err "pqt cat: unknown option '--c\\x1Bolumns'; did you mean '--columns'? ('pqt cat --help' lists the options)" "an option with a control byte"
run cat "$SRC" -w $'x\x01 > 1'
grep -q $'\x01' "$TMP/err" && fail "--where: a raw control byte reached stderr"
grep -qF 'x\x01' "$TMP/err" || fail "--where: the control byte is not escaped: $(cat -v "$TMP/err")"

# ---- 10. DATE: SOURCE_DATE_EPOCH makes copies byte-identical; --no-date writes none ----
mkdir "$TMP/d1" "$TMP/d2"
SOURCE_DATE_EPOCH=1700000000 "$PQT" copy "$SRC" "$TMP/d1/c.parquet" || fail "copy with SOURCE_DATE_EPOCH"
sleep 1.1
SOURCE_DATE_EPOCH=1700000000 "$PQT" copy "$SRC" "$TMP/d2/c.parquet" || fail "copy with SOURCE_DATE_EPOCH"
cmp -s "$TMP/d1/c.parquet" "$TMP/d2/c.parquet" || fail "two copies with SOURCE_DATE_EPOCH differ"
date_of() { "$PQT" meta "$1" -f json | python3 -c 'import json, sys
print(" ".join(e["value"] for e in json.load(sys.stdin)["key_value_metadata"] if e["key"] == "DATE") or "none")'; }
[ "$(date_of "$TMP/d1/c.parquet")" = "2023-11-14T22:13:20" ] || fail "SOURCE_DATE_EPOCH=1700000000: DATE $(date_of "$TMP/d1/c.parquet")"
"$PQT" copy "$SRC" "$TMP/nodate.parquet" --no-date || fail "copy --no-date"
[ "$(date_of "$TMP/nodate.parquet")" = none ] || fail "--no-date: DATE $(date_of "$TMP/nodate.parquet")"
SOURCE_DATE_EPOCH=soon "$PQT" copy "$SRC" "$TMP/bad_epoch.parquet" || fail "copy with a bad SOURCE_DATE_EPOCH"
d=$(date_of "$TMP/bad_epoch.parquet")
[ "${d:0:4}" -ge 2024 ] 2>/dev/null || fail "a bad SOURCE_DATE_EPOCH is not ignored: DATE $d"

echo "test_cli_behaviour: $checks commands, $failures failures"
[ "$failures" -eq 0 ]
